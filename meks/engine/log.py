"""The battle log: typed events, one for every roll, decision, move, hit, save and critical.

A battle's log is its report: ``render`` turns it into text a player reads, ``digest`` into a
hash that is equal for equal battles.

An event keeps the facts it is about and writes its sentence only when it is read: a step of
the rules logs ``(writer, fact, fact, ...)``, a function of its own module that writes the
sentence (``meks.engine.fire._shot_words`` ...) and the facts it needs, and ``Event.text``
calls it. Most battles are fought by controllers that never read a line, and their
sentences are never written. An event read back from a stored log (``from_dict``) holds its
written text, and reads the same.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

Words = str | tuple[Any, ...]
"""What an event says: its text, or ``(writer, fact, ...)``, which ``writer(fact, ...)``
writes when the text is read (``Event.text``)."""


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
    """One thing that happened. ``text`` reads as a sentence (written from ``says`` when it
    is read, see the module docstring); ``unit``/``target`` are unit ids; ``value`` is the
    die or number the event is about. (A named tuple: battles make hundreds of these, and a
    tuple is the cheapest immutable record.) Two events are the same when their
    ``as_dict()`` are: one whose text is not yet written holds its facts, not the text."""

    turn: int
    kind: Kind
    says: Words
    unit: str | None = None
    target: str | None = None
    value: int | None = None

    @property
    def text(self) -> str:
        """The event's sentence, written from its facts now if it was logged as facts."""
        return written(self.says)

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


def written(says: Words) -> str:
    """The text ``says`` stands for (``Event.says``): itself, or what its writer writes."""
    if isinstance(says, str):
        return says
    write: Callable[..., str] = says[0]
    return write(*says[1:])


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
