"""``jantaku``: the one command line for people and for checks.

Each area registers its own subcommands: the runtime's from ``device.commands.*`` (:data:`COMMAND_MODULES`), the
lab's from ``device.lab.*`` (:data:`LAB_COMMAND_MODULES`: named here, imported only by name, and skipped when
their module needs a package this install lacks). Bad input prints one clear line on stderr and exits with code 2,
never a traceback.
"""

from __future__ import annotations

# Only what Python has loaded at start-up: a Ctrl-C is caught inside main, so what runs before it stays short.
import importlib
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence

#: Runtime modules that add subcommands; each has ``register(commands: Commands)``.
COMMAND_MODULES = (
    "device.commands.hands",  # score, waits
    "device.commands.vision",  # read
    "device.commands.serve",  # serve
    "device.commands.run",  # run (camera loop + site)
    "device.commands.access",  # token, card
)

#: Lab modules (what the Pi never runs), registered the same way when they import. The runtime names them here
#: and never imports them: importing one may need the lab's packages (Pillow, torch, ultralytics).
LAB_COMMAND_MODULES = (
    "device.lab.hands",  # conformance wins, bench score
    "device.lab.games",  # conformance games
    "device.lab.video",  # conformance video, bench camera
    "device.lab.training",  # synth, train, export, val-model
    "device.lab.vision",  # eval detector/phone/camera, bench detector/read
    "device.lab.classifier",  # train-classifier, blend, eval classifier
    "device.lab.way_up",  # train-way-up, eval way-up
    "device.lab.site_bench",  # bench soak, bench photo
)


#: Our own top-level packages: a lab command module that fails to import one of these is broken, not absent.
OUR_PACKAGES = ("engine", "vision", "device", "web")


class UserError(Exception):
    """Bad input from the user: reported as one line, exit code 2."""


class Commands:
    """Where command modules add their parsers. Each parser sets ``func(args) -> int``."""

    def __init__(
        self,
        top: argparse._SubParsersAction,
        bench: argparse._SubParsersAction,
        conformance: argparse._SubParsersAction,
        eval: argparse._SubParsersAction,
    ) -> None:
        self.top, self.bench, self.conformance, self.eval = top, bench, conformance, eval


def _parser_class() -> type[argparse.ArgumentParser]:
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # argparse's own usage errors: also exit 2, one line
            self.exit(2, f"jantaku: error: {message}\n")

    return _Parser


def build_parser() -> argparse.ArgumentParser:
    _Parser = _parser_class()
    parser = _Parser(prog="jantaku", description=__doc__.splitlines()[0])
    top = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    bench = top.add_parser("bench", help="benchmarks, as ratios against a peer in the same run")
    conf = top.add_parser("conformance", help="check the engine against real records")
    ev = top.add_parser("eval", help="measure a model")
    commands = Commands(
        top=top,
        bench=bench.add_subparsers(dest="what", required=True, parser_class=_Parser),
        conformance=conf.add_subparsers(dest="what", required=True, parser_class=_Parser),
        eval=ev.add_subparsers(dest="what", required=True, parser_class=_Parser),
    )
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    for name in LAB_COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.split(".")[0] in OUR_PACKAGES:  # a broken module of ours: say so
                raise
            continue  # an install without the lab's packages: its commands are absent, the runtime's all work
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            return _run(argv)
        finally:  # a closed pipe is noticed here, inside main: after a command and after --help alike
            sys.stdout.flush()
    except KeyboardInterrupt:  # Ctrl-C, even while the commands are still being loaded: one line, no traceback
        print("jantaku: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`jantaku ... | head`): stop quietly, as a shell tool does
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's flush of stdout at exit would fail again
        return 141  # 128 + SIGPIPE


def _run(argv: Sequence[str] | None) -> int:
    # imported here, inside main's Ctrl-C handling: loading the commands takes a moment
    from engine.errors import EngineError
    from web.hand_request import BadRequest  # the site's request checks, shared by score

    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except (EngineError, UserError, BadRequest) as exc:
        print(f"jantaku {args.command}: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # an optional extra (rendering, training) that this install lacks
        print(
            f"jantaku {args.command}: needs the Python package {exc.name!r}, which is not installed "
            "(rendering and training tools: pip install -e '.[train]')",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
