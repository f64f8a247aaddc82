"""``jantaku-lab``: the lab's command line (conformance, benchmarks, evaluation, synthesis, training).

A command of its own, not ``jantaku lab``: the table's ``jantaku`` (:mod:`device.cli`) then never names a lab
module, even as a string to import, and the Pi's ``jantaku --help`` lists only what a table needs. Run it as
``jantaku-lab ...`` after ``pip install -e .``, or as ``python -m device.lab ...`` from a checkout. Each lab
module registers its own subcommands (:data:`LAB_COMMAND_MODULES`); one whose module needs a package this install
lacks (torch, ultralytics, Pillow) is left out, so that the rest (``conformance wins``, ``bench score``) still run
on a Pi. Bad input prints one clear line on stderr and exits with code 2, as ``jantaku`` does.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

from device.cli import parser_class, run_main

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

#: The lab's command modules; each has ``register(commands: LabCommands)``.
LAB_COMMAND_MODULES = (
    "device.lab.hands",  # conformance wins, bench score
    "device.lab.games",  # conformance games
    "device.lab.video",  # conformance video, conformance seating, bench camera
    "device.lab.training",  # synth, train, export, val-model
    "device.lab.vision",  # eval detector/phone/camera, bench detector/read
    "device.lab.classifier",  # train-classifier, blend-classifier, eval classifier
    "device.lab.way_up",  # train-way-up, eval way-up
    "device.lab.site_bench",  # bench soak, bench photo
)

#: Our own top-level packages: a lab command module that fails to import one of these is broken, not absent.
OUR_PACKAGES = ("engine", "vision", "device", "web")

PROG = "jantaku-lab"


class LabCommands:
    """Where lab modules add their parsers: ``top`` (``jantaku-lab synth``) and the three groups
    (``jantaku-lab bench ...``, ``conformance ...``, ``eval ...``). Each parser sets ``func(args) -> int``."""

    def __init__(
        self,
        top: argparse._SubParsersAction,
        bench: argparse._SubParsersAction,
        conformance: argparse._SubParsersAction,
        eval: argparse._SubParsersAction,
    ) -> None:
        self.top, self.bench, self.conformance, self.eval = top, bench, conformance, eval


def build_parser() -> argparse.ArgumentParser:
    _Parser = parser_class(PROG)
    parser = _Parser(prog=PROG, description=__doc__.splitlines()[0].replace("``", ""))
    top = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    bench = top.add_parser("bench", help="benchmarks, as ratios against a peer in the same run")
    conf = top.add_parser("conformance", help="check the engine against real records")
    ev = top.add_parser("eval", help="measure a model")
    commands = LabCommands(
        top=top,
        bench=bench.add_subparsers(dest="what", required=True, parser_class=_Parser),
        conformance=conf.add_subparsers(dest="what", required=True, parser_class=_Parser),
        eval=ev.add_subparsers(dest="what", required=True, parser_class=_Parser),
    )
    for name in LAB_COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.split(".")[0] in OUR_PACKAGES:  # a broken module of ours: say so
                raise
            continue  # an install without the lab's packages: those commands are absent, the others all work
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(PROG, build_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
