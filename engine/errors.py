"""The engine's errors: a small hierarchy of ``ValueError`` whose messages name the field and the reason."""


class EngineError(ValueError):
    """Base of every error the engine raises for bad input or a forbidden action."""


class InvalidCardError(EngineError):
    """Text that is not a card or a suit."""


class FieldError(EngineError):
    """Bad input in a named field: ``field`` is its path (``plays[13]``, ``ruleset.target``),
    ``reason`` the explanation; ``str(error)`` is ``"<field>: <reason>"``."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason


class RulesetError(FieldError):
    """An unknown variant key or a bad value for one."""


class IllegalActionError(EngineError):
    """An action that the rules forbid in the current state (wrong turn, illegal card, …)."""


class RecordError(FieldError):
    """A hand record or chalk entry that breaks the format or the rules."""


class ResultError(FieldError):
    """A game's result or a match's totals that the rules do not allow (``engine.limits``)."""
