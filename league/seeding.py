"""Seeds, groups and divisions of a competition's entries: each value checked (a seed from 1, no seed twice, no
more groups than the competition has), and set together in one go (:func:`arrange`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from django.db import transaction

from league.models import MAX_SEED, Competition, Entry
from league.setup_errors import SetupError, plain_name
from league.signals import standings_stale_after_commit

GROUP_MAX = cast(int, Entry._meta.get_field("group").max_length)
DIVISION_MAX = cast(int, Entry._meta.get_field("division").max_length)


def check_seed_value(seed: object, field: str) -> None:
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 1 <= seed <= MAX_SEED):
        raise SetupError(field, f"a seed is a whole number from 1 to {MAX_SEED:,}")


def check_seed_free(competition: Competition, seed: int | None, entry: Entry | None, field: str) -> None:
    if seed is None:
        return
    taken = Entry.objects.filter(competition=competition, seed=seed)
    if entry is not None:
        taken = taken.exclude(pk=entry.pk)
    other = taken.first()
    if other is not None:
        raise SetupError(field, f"seed {seed} is already {other.display_name}'s", clash=other)



def clean_group(group: object, field: str) -> str:
    if group is None:
        return ""
    if not isinstance(group, str):
        raise SetupError(field, "a group is a name, e.g. A or Group 1")
    return plain_name(group, field, "a group's name", GROUP_MAX)


def clean_division(division: object, field: str) -> str:
    if division is None:
        return ""
    if not isinstance(division, str):
        raise SetupError(field, "a division is a name, e.g. Premier or North")
    return plain_name(division, field, "a division's name", DIVISION_MAX)


def check_group_count(competition: Competition, new: set[str], entry: Entry | None, field: str,
                       replaced: Iterable[int] = ()) -> None:
    if not competition.group_count or not new:
        return
    others = Entry.objects.filter(competition=competition).exclude(group="").exclude(pk__in=list(replaced))
    if entry is not None:
        others = others.exclude(pk=entry.pk)
    groups = set(others.values_list("group", flat=True)) | new
    if len(groups) > competition.group_count:
        raise SetupError(field, f"{competition.name} has {competition.group_count} groups, not {len(groups)} "
                                f"({', '.join(sorted(groups))})")


def _entries_by_id(competition: Competition, ids: Iterable[int]) -> dict[int, Entry]:
    wanted = {getattr(key, "pk", key) for key in ids}
    found = {entry.pk: entry for entry in Entry.objects.filter(competition=competition, pk__in=wanted)
             .select_related("partnership__player_one", "partnership__player_two", "team", "player")}
    missing = wanted - set(found)
    if missing:
        raise SetupError("entry", f"entry {min(missing)} is not an entry of {competition.name}")
    return found


def set_seeds(*, competition: Competition, seeds: Mapping[Any, int | None]) -> list[Entry]:
    """Give entries their seeds (entry or entry id → a seed from 1, or None for unseeded). Two entries may
    not share a seed; an error names the field ``seed_<entry id>``."""
    return arrange(competition=competition, seeds=seeds)


def set_groups(*, competition: Competition, groups: Mapping[Any, str]) -> list[Entry]:
    """Put entries in groups (entry or entry id → a group name, "" for none); no more groups than the
    competition's ``group_count`` when it has one. An error names the field ``group_<entry id>``."""
    return arrange(competition=competition, groups=groups)


def arrange(*, competition: Competition, seeds: Mapping[Any, int | None] | None = None,
            groups: Mapping[Any, str] | None = None,
            divisions: Mapping[Any, str] | None = None) -> list[Entry]:
    """Seeds, groups and divisions together, checked as a whole and saved in one go (see :func:`set_seeds`,
    :func:`set_groups`); returns the entries changed."""
    seeds = {getattr(key, "pk", key): value for key, value in (seeds or {}).items()}
    groups = {getattr(key, "pk", key): value for key, value in (groups or {}).items()}
    divisions = {getattr(key, "pk", key): clean_division(value, f"division_{getattr(key, 'pk', key)}")
                 for key, value in (divisions or {}).items()}
    entries = _entries_by_id(competition, set(seeds) | set(groups) | set(divisions))
    for entry_id, seed in seeds.items():
        check_seed_value(seed, f"seed_{entry_id}")
    _check_seeds_differ(competition, seeds)
    cleaned = {entry_id: clean_group(group, f"group_{entry_id}") for entry_id, group in groups.items()}
    try:
        check_group_count(competition, {group for group in cleaned.values() if group}, None, "groups",
                           replaced=cleaned)
    except SetupError as error:
        raise SetupError("groups", error.reason) from None
    changed = []
    with transaction.atomic():
        for entry_id, entry in entries.items():
            fields = []
            if entry_id in seeds and entry.seed != seeds[entry_id]:
                entry.seed = seeds[entry_id]
                fields.append("seed")
            if entry_id in cleaned and entry.group != cleaned[entry_id]:
                entry.group = cleaned[entry_id]
                fields.append("group")
            if entry_id in divisions and entry.division != divisions[entry_id]:
                entry.division = divisions[entry_id]
                fields.append("division")
            if fields:
                entry.save(update_fields=fields)
                changed.append(entry)
        if changed:
            standings_stale_after_commit(competition.pk)
    return changed


def _check_seeds_differ(competition: Competition, seeds: Mapping[int, int | None]) -> None:
    """No two entries share a seed once ``seeds`` is applied; the error is on the entry whose seed changed."""
    before = dict(Entry.objects.filter(competition=competition).exclude(seed=None).values_list("pk", "seed"))
    holders: dict[int, list[int]] = {}
    for entry_id, seed in {**before, **seeds}.items():
        if seed is not None:
            holders.setdefault(seed, []).append(entry_id)
    for seed, ids in sorted(holders.items()):
        if len(ids) > 1:
            culprit = max([entry_id for entry_id in ids if before.get(entry_id) != seed] or ids)
            other = Entry.objects.select_related("partnership__player_one", "partnership__player_two", "team",
                                                 "player").get(pk=min(set(ids) - {culprit}))
            raise SetupError(f"seed_{culprit}", f"seed {seed} is also {other.display_name}'s")
