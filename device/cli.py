"""``jantaku``: the table's command line (run, serve, score, waits, read, token, card).

Each command module registers its own subcommands (:data:`COMMAND_MODULES`). The lab's commands (conformance,
benchmarks, evaluation, synthesis, training) are another command, ``jantaku-lab`` (:mod:`device.lab.cli`), which
this module never names: the Pi's ``jantaku --help`` lists what a table needs. Bad input prints one clear line on
stderr and exits with code 2, never a traceback (:func:`run_main`, shared by both).
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
    "device.commands.score",  # score, waits
    "device.commands.read",  # read
    "device.commands.serve",  # serve
    "device.commands.run",  # run (camera loop + site)
    "device.commands.access",  # token, card
)


class UserError(Exception):
    """Bad input from the user: reported as one line, exit code 2."""


class Commands:
    """Where command modules add their parsers (``top``: the command's own subcommands). Each parser sets
    ``func(args) -> int``."""

    def __init__(self, top: argparse._SubParsersAction) -> None:
        self.top = top


def parser_class(prog: str) -> type[argparse.ArgumentParser]:
    """An ArgumentParser whose own usage errors are one line naming ``prog`` and exit code 2."""
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:
            self.exit(2, f"{prog}: error: {message}\n")

    return _Parser


def build_parser() -> argparse.ArgumentParser:
    _Parser = parser_class("jantaku")
    parser = _Parser(prog="jantaku", description=__doc__.splitlines()[0].replace("``", ""))
    commands = Commands(top=parser.add_subparsers(dest="command", required=True, parser_class=_Parser))
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


def _ctrl_c_ends_at_once(prog: str) -> Callable[[], object]:
    """Make Ctrl-C write the one line and end the process at once (while the commands load: a KeyboardInterrupt
    raised inside the import machinery, in a module lock's weakref callback, is dropped by the interpreter with a
    traceback of its own, and the command would run on). Returns what puts Ctrl-C back as it was; nothing is changed
    where Ctrl-C is ignored or handled otherwise, or off the main thread."""
    import os
    import signal

    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return lambda: None

    def end(signum: int, frame: object) -> None:
        os.write(2, f"{prog}: interrupted\n".encode())
        os._exit(130)

    try:
        previous = signal.signal(signal.SIGINT, end)
    except ValueError:  # not the main thread
        return lambda: None
    return lambda: signal.signal(signal.SIGINT, previous)


def main(argv: Sequence[str] | None = None) -> int:
    return run_main("jantaku", build_parser, argv)


def run_main(prog: str, build: Callable[[], argparse.ArgumentParser], argv: Sequence[str] | None) -> int:
    """Parse ``argv`` with ``build()``'s parser and run the command: bad input is one line on stderr and exit 2, a
    Ctrl-C exit 130, a closed pipe exit 141, never a traceback."""
    try:
        try:
            return _run(prog, build, argv)
        finally:  # a closed pipe is noticed here, inside main: after a command and after --help alike
            sys.stdout.flush()
    except KeyboardInterrupt:  # Ctrl-C, even while the commands are still being loaded: one line, no traceback
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`jantaku ... | head`): stop quietly, as a shell tool does
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's flush of stdout at exit would fail again
        return 141  # 128 + SIGPIPE


def _run(prog: str, build: Callable[[], argparse.ArgumentParser], argv: Sequence[str] | None) -> int:
    restore_ctrl_c = _ctrl_c_ends_at_once(prog)
    try:
        # imported here, inside main's Ctrl-C handling: loading the commands takes a moment
        from engine.errors import EngineError
        from web.hand_request import BadRequest  # the site's request checks, shared by score

        args = build().parse_args(argv)
    finally:
        restore_ctrl_c()
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except (EngineError, UserError, BadRequest) as exc:
        print(f"{prog} {args.command}: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # an optional extra (rendering, training) that this install lacks
        print(
            f"{prog} {args.command}: needs the Python package {exc.name!r}, which is not installed "
            "(rendering and training tools: pip install -e '.[train]')",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    # ``python -m device.cli``: run the package's own module, whose error classes the commands raise (this file, run
    # as ``__main__``, is a second copy of them that the handlers above would not catch)
    from device.cli import main as package_main

    sys.exit(package_main())
