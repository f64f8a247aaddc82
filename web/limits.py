"""Limits checked before anything is parsed: body size, JSON nesting depth, and each field's length.

A JSON body is read only up to its cap (a larger one is a 413 before it is read), decoded, then walked
once without recursion: nesting deeper than ``MAX_DEPTH``, a string longer than ``MAX_STRING`` or a
list or object with more than ``MAX_ITEMS`` entries is a 400 naming the field. Tile text is parsed
only after that, so a 15 MB ``dora`` never reaches the tile parser.

    body = read_json(current_app.config["JANTAKU_JSON_MAX_BYTES"])  # in a route
    value = parse_json_text(form["options"], "options")              # JSON inside a form field
"""

from __future__ import annotations

import json
from typing import Any

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from web.hand_request import BadRequest

#: Deepest nesting a request needs is 4 (a ron's claims: object > list > object > list).
MAX_DEPTH = 10
#: A hand in mpsz with melds is under 100 characters; names and notes are short.
MAX_STRING = 256
#: Tiles, seats, flags: a list of 14 tiles is the longest a request needs; objects have a few dozen keys.
MAX_ITEMS = 64


def read_json(cap: int, what: str = "the body") -> Any:
    """The request's JSON, read only up to ``cap`` bytes and checked by :func:`check_shape`."""
    too_large = f"{what} is too large (at most {cap // 1024} KB)"
    if request.content_length is not None and request.content_length > cap:
        raise RequestEntityTooLarge(too_large)
    raw = request.stream.read(cap + 1)
    if len(raw) > cap:
        raise RequestEntityTooLarge(too_large)
    return _decoded(raw, what)


def parse_json_text(text: str, what: str, cap: int = 64 * 1024) -> Any:
    """JSON sent as text (a form field), length-capped and checked like a body."""
    if len(text) > cap:
        raise BadRequest(f"{what} is too long ({len(text):,} characters, at most {cap:,})")
    return _decoded(text, what)


def _decoded(raw: str | bytes, what: str) -> Any:
    try:
        value = json.loads(raw)
    except RecursionError:
        raise BadRequest(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError:
        raise BadRequest(f"{what} is not valid JSON") from None
    check_shape(value, what)
    return value


def check_shape(
    value: Any, what: str = "the body", *, max_string: int | None = MAX_STRING, max_items: int | None = MAX_ITEMS
) -> None:
    """Raise BadRequest naming the first field nested deeper than ``MAX_DEPTH`` or longer than its limit.

    ``None`` lifts a length limit (a game file's event list is long; its depth is still checked).
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        name = path or what
        if isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise BadRequest(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)")
            if max_items is not None and len(item) > max_items:
                raise BadRequest(f"{name} has {len(item):,} entries, at most {max_items}")
            entries = item.items() if isinstance(item, dict) else enumerate(item)
            for key, sub in entries:
                if isinstance(key, str) and max_string is not None and len(key) > max_string:
                    raise BadRequest(f"a key in {name} is {len(key):,} characters long, at most {max_string}")
                stack.append((sub, f"{path}.{key}" if path else str(key), depth + 1))
        elif isinstance(item, str) and max_string is not None and len(item) > max_string:
            raise BadRequest(f"{name} is {len(item):,} characters long, at most {max_string}")
