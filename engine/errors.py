"""The engine's errors: a small hierarchy of ``ValueError`` whose messages name the field and the reason."""


class FieldError(ValueError):
    """Bad input in a named field, the one shape of every error worded for a person in the whole project (the
    engine's records and rulesets, a scorekeeper's entry, an organiser's setup, round or pairing, the standings'
    options): ``field`` is its path (``plays[13]``, ``ruleset.target``, ``entrants[3].score``), ``reason`` the
    explanation; ``str(error)`` is ``"<field>: <reason>"``. ``conflict``: the input was fine but the stored state
    has moved on (a hand entered twice, a stale version), answered 409 by the API instead of 400.

    >>> error = FieldError("ruleset.target", "must be at least 1")
    >>> str(error), error.field, error.reason, isinstance(error, ValueError)
    ('ruleset.target: must be at least 1', 'ruleset.target', 'must be at least 1', True)
    """

    conflict = False

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason


class EngineError(ValueError):
    """Base of every error the engine raises for bad input or a forbidden action."""


class InvalidCardError(EngineError):
    """Text that is not a card or a suit."""


class RulesetError(FieldError, EngineError):
    """An unknown variant key or a bad value for one."""


class IllegalActionError(EngineError):
    """An action that the rules forbid in the current state (wrong turn, illegal card, …)."""


class RecordError(FieldError, EngineError):
    """A hand record or chalk entry that breaks the format or the rules."""


class ResultError(FieldError, EngineError):
    """A game's result or a match's totals that the rules do not allow (``engine.limits``)."""


class StockExhausted(EngineError):
    """The pack must be run but the cards to deal are not known (an incomplete record)."""
