"""The engine's exceptions. Legitimate outcomes (no yaku, furiten) are results, not exceptions."""


class EngineError(ValueError):
    """Base of every error the engine raises for bad input."""


class InvalidNotation(EngineError):
    """Text that is not valid mpsz or hand notation."""


class InvalidHand(EngineError):
    """A hand that cannot exist: wrong tile count, five of a kind, too many red fives."""


class IllegalAction(EngineError):
    """A game event refused by the rules; names the event and the rule it breaks."""

    def __init__(self, event: object, rule: str, detail: str = "") -> None:
        self.event = event
        self.rule = rule
        self.detail = detail
        # the event's kind, not its repr: the message reaches phones, and a hand's whole repr buries the rule
        msg = f"{type(event).__name__} refused: {rule}"
        if detail:
            msg += f" ({detail})"
        super().__init__(msg)
