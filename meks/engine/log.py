"""The battle log: typed events, one for every roll, decision, move, hit, save and critical.

A battle's log is its report: ``render`` turns it into text a player reads, ``digest`` into a
hash that is equal for equal battles.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Iterable
from typing import NamedTuple


class Kind(enum.Enum):
    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    ROLL = "roll"
    DECISION = "decision"
    SETUP = "setup"
    TURN = "turn"
    INITIATIVE = "initiative"
    MOVE = "move"
    ARRIVE = "arrive"
    EXIT = "exit"
    ENGAGE = "engage"
    ROUND = "round"
    MOVEMENT_ROLL = "movement roll"
    RANGE = "range"
    BREAK = "break contact"
    DETECT = "detect"
    IDENTIFY = "identify"
    TARGET = "target"
    ATTACK = "attack"
    HIT = "hit"
    MISS = "miss"
    DODGE = "dodge"
    SAVE = "save"
    DAMAGE = "damage"
    CRITICAL = "critical"
    OVERHEAT = "overheat"
    KILLS = "kills"
    MORALE = "morale"
    DESTROYED = "destroyed"
    SUPPORT = "support"
    MINE = "mine"
    VICTORY = "victory"
    NOTE = "note"


class Event(NamedTuple):
    """One thing that happened. ``text`` reads as a sentence; ``unit``/``target`` are unit
    ids; ``value`` is the die or number the event is about. (A named tuple: battles make
    hundreds of these, and a tuple is the cheapest immutable record.)"""

    turn: int
    kind: Kind
    text: str
    unit: str | None = None
    target: str | None = None
    value: int | None = None

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"turn": self.turn, "kind": self.kind.value,
                                   "text": self.text}
        for key in ("unit", "target", "value"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Event:
        value = data.get("value")
        return cls(int(str(data["turn"])), Kind(data["kind"]), str(data["text"]),
                   data.get("unit") and str(data["unit"]),  # type: ignore[arg-type]
                   data.get("target") and str(data["target"]),  # type: ignore[arg-type]
                   int(str(value)) if value is not None else None)


def digest(events: Iterable[Event]) -> str:
    """A hash of the whole log: equal logs, equal digests."""
    h = hashlib.sha256()
    for event in events:
        h.update(json.dumps(event.as_dict(), sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()


def render(events: Iterable[Event], rolls: bool = False) -> list[str]:
    """The log as report lines; dice appear inside the sentences, and every raw roll too
    when ``rolls`` is set."""
    lines: list[str] = []
    for event in events:
        if event.kind is Kind.ROLL and not rolls:
            continue
        if event.kind is Kind.TURN:
            lines.append("")
            lines.append(event.text)
            continue
        indent = "    " if event.kind is Kind.ROLL else "  "
        text = f"die for {event.text}: {event.value}" if event.kind is Kind.ROLL else event.text
        lines.append(indent + text)
    return lines
