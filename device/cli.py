"""``jantaku``: the one command line for people and for checks.

Each area registers its own subcommands from ``device.commands.*``. Bad input prints one clear
line on stderr and exits with code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.errors import EngineError

#: Modules that add subcommands; each has ``register(commands: Commands)``.
COMMAND_MODULES = (
    "device.commands.hands",  # score, waits, conformance wins, bench score
    "device.commands.games",  # conformance games
    "device.commands.training",  # synth, train
    "device.commands.vision",  # read, eval detector, bench detector
    "device.commands.classifier",  # train-classifier, eval classifier
    "device.commands.way_up",  # train-way-up, eval way-up
    "device.commands.service",  # serve, bench soak
    "device.commands.run",  # run (camera loop + site)
)


class UserError(Exception):
    """Bad input from the user: reported as one line, exit code 2."""


@dataclass
class Commands:
    """Where command modules add their parsers. Each parser sets ``func(args) -> int``."""

    top: argparse._SubParsersAction
    bench: argparse._SubParsersAction
    conformance: argparse._SubParsersAction
    eval: argparse._SubParsersAction


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own usage errors: also exit 2, one line
        self.exit(2, f"jantaku: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except (EngineError, UserError) as exc:
        print(f"jantaku {args.command}: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # an optional extra (rendering, training) that this install lacks
        print(
            f"jantaku {args.command}: needs the Python package {exc.name!r}, which is not installed "
            "(rendering and training tools: pip install -e '.[train]')",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
