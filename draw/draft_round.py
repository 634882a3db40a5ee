"""A draft round before it is stored: matches (sides as entrant ids), byes, the round's name and stage, the
groups to store on the entries and notes for the organiser."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class DraftMatch:
    a: tuple[str, ...]
    b: tuple[str, ...]
    flags: list = field(default_factory=list)
    group: str = ""
    position: int | None = None
    third_place: bool = False


@dataclass
class DraftBye:
    unit: str
    flags: list = field(default_factory=list)
    position: int | None = None  # a knockout bye's place in the bracket


@dataclass
class Draft:
    matches: list[DraftMatch] = field(default_factory=list)
    byes: list[DraftBye] = field(default_factory=list)
    name: str = ""
    stage: str = ""
    groups: dict[str, str] = field(default_factory=dict)  # entry id → group letter to store
    notes: list[str] = field(default_factory=list)
