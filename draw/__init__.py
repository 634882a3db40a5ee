"""The draw: rounds, their pairing, drafts, edits, warnings and publishing — Tabbycat's draw for All Fours.

The organiser asks for a round's pairings (``draw.request``); a Celery task (``draw.tasks`` → ``draw.run``)
reads the field from the database (``draw.field``), asks the pure pairing engine (``draw.pairing``) for the
system's draft (``draw.draft_by_system``, ``draw.knockout``) and stores it with the flags that explain each pairing
(``draw.draft_writing``); the organiser reviews the draft, swaps or edits pairings (``draw.edits``, answering with
the warnings of ``draw.checks``) and publishes it (``draw.publishing``). A round can be paired again, and
unpublished, until a hand or a result is entered in it (``draw.round_locks``).

Two kinds of error, decided at each raise (``draw.errors``, ``draw.pairing.errors``): the organiser's
(:class:`draw.errors.RoundError`, the engine's ``PairingError``: shown, and a pairing task ends ``failed`` with
the reason) and a bug's (``DrawBugError``, the engine's ``PairingFatalError``: logged, a 500, a task that
fails with "an error in the system").
"""
