"""The pairing task's work: read the field, ask the engine for the system's draft, store it — or end the
task ``failed`` with the organiser's reason.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError, transaction
from django.utils import timezone

from draw.draft_by_system import draft_group, draft_individual, draft_round_robin, draft_swiss
from draw.draft_round import Draft
from draw.draft_writing import write_draft
from draw.errors import RoundError
from draw.field import ENTRANT_ID, Field, load_field, unit_id
from draw.knockout import draft_knockout
from draw.models import Round
from draw.next_round import after_paired
from draw.pairing import PairingError
from draw.plan import Plan, plan_round
from draw.progress import Progress
from draw.round_locks import results_entered
from league.models import Entry

logger = logging.getLogger(__name__)

DRAFTERS: dict[str, Callable[[Field, Plan, Progress], Draft]] = {
    "swiss": draft_swiss, "round_robin": draft_round_robin, "group": draft_group, "knockout": draft_knockout,
    "individual": draft_individual,
}


def run_pairing(round_id: int, version: int) -> dict:
    """The pairing task's work: compute round ``round_id``'s draft and replace its matches and byes with it.
    Skipped when a newer pairing was requested since (``version`` is old) or this one is already done;
    ``failed`` with the reason on a user error (the engine's ``PairingError``, a :class:`RoundError`)."""
    answer = {"round": round_id, "version": version}
    round_ = Round.objects.select_related("competition").filter(pk=round_id).first()
    skipped = _skip_reason(round_, version)
    if skipped:
        if round_ is not None and round_.pairing_state == Round.DONE and round_.pairing_version == version:
            after_paired(round_id)  # a second run (the task again after its worker died): what follows, once
        return {**answer, "skipped": skipped}
    Round.objects.filter(pk=round_id, pairing_version=version).update(
        pairing_state=Round.RUNNING, pairing_progress=0.0, pairing_message="Reading the field…",
        pairing_heartbeat_at=timezone.now())
    assert round_ is not None  # a missing round is skipped
    progress = Progress(round_id, version)
    try:
        field_, draft = _compute(round_, progress.part(0.0, 0.9))
        progress.write(0.9, "Writing the pairings…", force=True)
        stored = _store(round_id, version, field_, draft)
    except (RoundError, PairingError) as error:
        reason = _reason(error)
        fail_pairing(round_id, version, failed_message(reason))
        return {**answer, "state": Round.FAILED, "reason": reason}
    except OperationalError:
        raise  # the task retries
    except Exception:
        logger.exception("pairing round %s (version %s) failed", round_id, version)
        fail_pairing(round_id, version, "Pairing failed: an error in the system (it has been logged). Try again, "
                                        "or tell the site's maintainer.")
        raise
    if stored.get("state") == Round.DONE:
        after_paired(round_id)  # published at once, or the organisers told, when it was paired by itself
    return {**answer, **stored}


def _skip_reason(round_: Round | None, version: int) -> str:
    """Why this run has nothing to do ('' when it has)."""
    if round_ is None:
        return "the round no longer exists"
    if round_.pairing_version != version:
        return f"superseded by version {round_.pairing_version}"
    if round_.pairing_state == Round.DONE:
        return "already paired"
    return ""


def _compute(round_: Round, progress: Progress) -> tuple[Field, Draft]:
    """The round's field and its draft, as its system pairs it."""
    competition = round_.competition
    plan = plan_round(competition, round_.number)
    field_ = load_field(competition, round_.number)
    return field_, DRAFTERS[plan.kind](field_, plan, progress)


def _store(round_id: int, version: int, field_: Field, draft: Draft) -> dict:
    """Write the draft in place of the round's pairings, unless a newer pairing was asked for meanwhile or a
    second run of this version (the sweep's) finished first; the round is then ``done``."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update(of=("self",)).select_related("competition").get(pk=round_id)
        if round_.pairing_version != version:
            return {"skipped": "superseded while pairing"}
        if round_.pairing_state == Round.DONE:
            return {"skipped": "already paired"}
        reason = results_entered(round_)
        if reason:
            raise RoundError("round", f"{round_} cannot be paired again: {reason}")
        counts = write_draft(round_, field_, draft)
        round_.pairing_state, round_.pairing_progress = Round.DONE, 1.0
        round_.pairing_message = _summary(counts, draft)[:300]
        round_.stage = draft.stage
        round_.name = draft.name or round_.name  # a knockout round's name; an organiser's name stays
        round_.save(update_fields=["pairing_state", "pairing_progress", "pairing_message", "stage", "name"])
    return {"state": Round.DONE, **counts}


def _reason(error: RoundError | PairingError) -> str:
    """The organiser's reason for a failed pairing: the engine's with its field, and names for entrant ids."""
    reason = getattr(error, "reason", None) or str(error)
    if isinstance(error, PairingError) and not isinstance(error, RoundError):
        reason = _with_names(f"{reason} ({error.field})")
    return reason


def _with_names(text: str) -> str:
    """The engine's text with each entrant's id (``E12``) replaced by its name."""
    ids = {int(found[1:]) for found in ENTRANT_ID.findall(text)}
    if not ids:
        return text
    names = {unit_id(e.pk): e.display_name for e in Entry.objects.filter(pk__in=ids).select_related(
        "partnership__player_one", "partnership__player_two", "player", "team")}
    return ENTRANT_ID.sub(lambda m: names.get(m.group(), m.group()), text)


NEXT_STEP = "What to do: put that right (the entries, the results or the competition's settings), then pair the " \
            "round again."
"""The organiser's next step after a pairing failed on a user error."""


def failed_message(reason: str) -> str:
    """A failed pairing's message: the reason, cut to fit the stored message, then the next step."""
    room = 300 - len("Pairing failed: ") - len(". ") - len(NEXT_STEP)
    reason = reason.rstrip(". ")
    if len(reason) > room:
        reason = reason[:room - 1].rstrip() + "…"
    return f"Pairing failed: {reason}. {NEXT_STEP}"


def fail_pairing(round_id: int, version: int, message: str) -> None:
    """End this version's pairing ``failed`` with ``message`` for the organiser."""
    Round.objects.filter(pk=round_id, pairing_version=version).update(
        pairing_state=Round.FAILED, pairing_message=message[:300])


def _summary(counts: dict, draft: Draft) -> str:
    matches, byes = counts["matches"], counts["byes"]
    text = f"Paired: {matches} match{'es' if matches != 1 else ''}"
    if byes:
        text += f", {byes} bye{'s' if byes != 1 else ''}"
    return " ".join([text + ".", *draft.notes])
