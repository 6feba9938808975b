"""What a side is told of the records and events that name units (R8.1): the enemy's
units under the side's own labels (C1, C2 ... from revision 10 on), a movement roll's result
without the two numbers, and the battle's per-side records read for one side only.

``meks.engine.view`` tells a side everything through these; they hold no state of their own
beyond a side record's last answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from meks.engine.log import Event, Kind
from meks.game.shots import ToHit
from meks.game.vocabulary import Side

# The first letter of each side's own unit ids.
OWN_LETTER = {Side.ATTACKER: "A", Side.DEFENDER: "D"}


def told_id(uid: str | None, labels: Mapping[str, str], own: str) -> str | None:
    """A unit id in a log event as a side is told it: its own, or the enemy's label (None
    for an enemy unit it has not met)."""
    if uid is None or uid[:1] in own:
        return uid
    return labels.get(uid)


def relabel_key(key: str, labels: Mapping[str, str]) -> str:
    """A unit's once-a-turn record ("identified:D4") naming an enemy unit by its label."""
    what, sep, uid = key.partition(":")
    return f"{what}:{labels[uid]}" if sep and uid in labels else key


# The two totals of a movement roll in its line ("10 to 8", or "(7)" for one side's).
_NUMBERS = re.compile(r" \d+ to \d+(?=:)| \(\d+\)(?=;)")


def told(event: Event) -> Event:
    """A movement roll's result as the sides are told it: who won and what came of it, not
    the two numbers (R8.1)."""
    written = event.text
    text = _NUMBERS.sub("", written)
    return event if text == written else event._replace(says=text, value=None)


def result_only(event: Event) -> Event:
    """An enemy shot's line as the target's side is told it: whether it hit, not the roll's
    sum and modifiers, as a movement roll's line leaves out its numbers. The modifiers
    could tell of what the side may not know (a mark by Commandos it has not found,
    "Commandos +1"), and a line told otherwise only then would tell of them as much, so
    every enemy shot is told so (R8.1). The die rolled is in its own line, as ever. Any
    other event, as it is. (A shot's facts: the words, shooter, weapon, target, roll,
    modifier, need, the ``ToHit`` and whether it hit, as ``meks.engine.fire`` logs them.)"""
    says = event.says
    if not isinstance(says, tuple) or len(says) != 9 or not isinstance(says[7], ToHit):
        return event
    who, weapon, target, hit = says[1], says[2], says[3], says[8]
    return event._replace(says=f"{who} fires {weapon} at {target}"
                          + (" - hit." if hit else " - miss."), value=None)


def enemy_shots(events: list[Event], side: Side) -> list[Event]:
    """``events`` as ``side`` reads them: each enemy shot's line ``result_only``."""
    own = OWN_LETTER[side]
    return [result_only(e) if e.kind in _SHOTS and e.unit is not None and e.unit[:1] not in own
            else e for e in events]


_SHOTS = (Kind.HIT, Kind.MISS)  # the kinds of a shot's line
_NONE: frozenset[str] = frozenset()


class SideRecord(Mapping[Side, Any]):
    """One of the battle's per-side records, read for the viewing side only: its own entry
    as the battle keeps it, the enemy's as empty (the side does not know it). The battle
    keeps each entry immutable (a frozenset, a tuple for ``assets``) and replaces it when it
    changes, so the entry itself is handed out, and a read costs no copy."""

    __slots__ = ("_b", "_empty", "_name", "_relabel", "_seen", "_side", "_told")

    def __init__(self, battle: Any, side: Side, name: str,
                 relabel: Callable[[frozenset[str]], frozenset[str]] | None = None) -> None:
        self._b = battle
        self._side = side
        self._name = name
        self._empty: tuple[str, ...] | frozenset[str] = () if name == "assets" else _NONE
        # From revision 10 on a record of enemy units is told under the side's labels: the
        # last entry read and what it was told as (an entry is replaced when it changes).
        self._relabel = relabel
        self._seen: object = None
        self._told: frozenset[str] = _NONE

    def __getitem__(self, side: Side) -> Any:
        if side is self._side:
            held = getattr(self._b, self._name)[side]
            if self._relabel is None:
                return held
            if held is self._seen:
                return self._told
            told = self._relabel(held)
            if len(told) == len(held):  # (kept only once every unit in it has its label)
                self._told = told
                self._seen = held
            return told
        return self._empty

    def __iter__(self) -> Iterator[Side]:
        return iter((self._side, self._side.enemy))

    def __len__(self) -> int:
        return 2


__all__ = ["OWN_LETTER", "SideRecord", "relabel_key", "told", "told_id"]
