"""The table service meets the site's contract: every method the site calls exists on ``TableService`` with the
contract's parameters, so ``create_app(config, service)`` needs nothing from ``device`` to type what it holds."""

from __future__ import annotations

import inspect

import pytest

from device.table.service import TableService
from tests.web.follow_fake import FollowingService
from web.contract import CorrectionsLike, EventBusLike, TableServiceLike

METHODS = sorted(
    name for name, member in vars(TableServiceLike).items() if callable(member) and not name.startswith("_")
)


@pytest.mark.parametrize("name", METHODS)
# the site's tests' stand-in for the camera game (tests/web/follow_fake.py) keeps to the contract too
@pytest.mark.parametrize("service_class", [TableService, FollowingService], ids=["TableService", "FollowingService"])
def test_the_table_service_has_each_method_the_site_calls(service_class, name):
    wanted = inspect.signature(getattr(TableServiceLike, name))
    have = inspect.signature(getattr(service_class, name))
    assert list(have.parameters) == list(wanted.parameters)
    assert [p.kind for p in have.parameters.values()] == [p.kind for p in wanted.parameters.values()]


@pytest.mark.parametrize("attribute", ["url", "bus", "corrections", "rules"])
def test_a_table_service_holds_each_attribute_the_site_reads(attribute):
    assert hasattr(TableService(pin="123456"), attribute)


def test_the_contract_names_every_method_the_site_calls():
    assert (
        sorted(
            [
                "camera_action",
                "check_join_token",
                "check_pin",
                "check_pin_proof",
                "clash_frame",
                "correct",
                "export_game",
                "import_game",
                "join_token",
                "keep_answer",
                "keyed_write",
                "new_game",
                "preview_win",
                "read_image",
                "record",
                "rotate_join_token",
                "score",
                "set_camera_seat",
                "state",
                "undo",
                "waits",
                "win",
            ]
        )
        == METHODS
    )


#: The parameters the site hands on as a phone sent them: the PIN and its proof and the join token are compared (a
#: wrong type is a wrong PIN), and a game file is JSON by nature (checked whole by ``web.game_request``).
AS_SENT = {("check_pin", "pin"), ("check_pin_proof", "proof"), ("check_join_token", "token"), ("import_game", "data")}


@pytest.mark.parametrize("name", METHODS)
def test_the_site_hands_the_service_checked_values_not_the_request(name):
    """Each request is checked once, in the site: the service is handed engine values and typed requests."""
    loose = {"Any", "dict[str, Any]", "dict[str, Any] | None"}
    params = inspect.signature(getattr(TableServiceLike, name)).parameters
    assert [p for p in params if params[p].annotation in loose and (name, p) not in AS_SENT] == []


@pytest.mark.parametrize(
    ("contract", "name", "attribute"),
    [
        (CorrectionsLike, name, "corrections")
        for name, member in vars(CorrectionsLike).items()
        if callable(member) and not name.startswith("_")
    ]
    + [(EventBusLike, "subscribe", "bus")],
)
def test_what_the_service_holds_has_each_method_the_site_calls(contract, name, attribute):
    held = getattr(TableService(pin="123456"), attribute)
    assert callable(getattr(held, name, None)), f"{type(held).__name__} lacks {name}"
    wanted = inspect.signature(getattr(contract, name))
    assert list(inspect.signature(getattr(held, name)).parameters) == list(wanted.parameters)[1:]  # bound: no self
