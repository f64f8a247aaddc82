"""Subcommands: filled in by its area."""


def register(commands) -> None:
    pass
