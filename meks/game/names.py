"""Forgiving name lookup: case, spaces, hyphens and punctuation do not matter, aliases work,
the family word may be left out ("rail" finds Rail Cannon), and an unambiguous start of a
name is enough. Unknown names come back with the nearest names as suggestions.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from meks.game.errors import AmbiguousName, UnknownName

T = TypeVar("T")

FAMILY_WORDS = ("cannon", "laser", "missile", "missiles", "armor", "sensors", "sensor")
_MIN_PREFIX = 3
LIST_ALL = 8  # an unknown name among this many or fewer is answered with all of them


def normalize(name: str) -> str:
    """The form names are compared in: lower case, letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def _short_forms(name: str) -> set[str]:
    """The name with its family word left out, where that leaves something."""
    words = re.findall(r"[0-9a-z]+", name.casefold())
    forms = set()
    for i, word in enumerate(words):
        if word in FAMILY_WORDS and len(words) > 1:
            rest = "".join(words[:i] + words[i + 1 :])
            if rest:
                forms.add(rest)
    return forms


@dataclass(frozen=True)
class _Entry(Generic[T]):
    name: str
    item: T


class NameIndex(Generic[T]):
    """Finds items of one kind ("weapon", "system", ...) by a forgiving name."""

    def __init__(self, kind: str, entries: Iterable[tuple[str, Iterable[str], T]]) -> None:
        self.kind = kind
        self._exact: dict[str, _Entry[T]] = {}
        self._short: dict[str, list[_Entry[T]]] = {}
        self._names: list[str] = []
        # Queries already answered, as given (the index never changes once built): a battle
        # looks up the same few weapon and system names for every unit it builds.
        self._answers: dict[str, T] = {}
        for name, aliases, item in entries:
            entry = _Entry(name, item)
            self._names.append(name)
            for form in (name, *aliases):
                self._exact.setdefault(normalize(form), entry)
                for short in _short_forms(form):
                    self._short.setdefault(short, []).append(entry)

    def __iter__(self) -> Iterator[T]:
        seen: set[str] = set()
        for entry in self._exact.values():
            if entry.name not in seen:
                seen.add(entry.name)
                yield entry.item

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._names)

    def find(self, query: str) -> T | None:
        """The item ``query`` names, None if nothing; raises AmbiguousName if several."""
        known = self._answers.get(query)
        if known is not None:
            return known
        item = self._find(query)
        if item is not None:
            self._answers[query] = item
        return item

    def _find(self, query: str) -> T | None:
        key = normalize(query)
        if not key:
            return None
        if key in self._exact:
            return self._exact[key].item
        short = _unique(self._short.get(key, []))
        if len(short) == 1:
            return short[0].item
        if len(short) > 1:
            raise AmbiguousName(self.kind, query, sorted(e.name for e in short))
        if len(key) >= _MIN_PREFIX:
            starts = _unique([e for form, e in self._exact.items() if form.startswith(key)])
            if len(starts) == 1:
                return starts[0].item
            if len(starts) > 1:
                raise AmbiguousName(self.kind, query, sorted(e.name for e in starts))
        return None

    def get(self, query: str) -> T:
        """The item ``query`` names; raises UnknownName with suggestions if none."""
        item = self.find(query)
        if item is None:
            few = self.names if len(self.names) <= LIST_ALL else ()
            raise UnknownName(self.kind, query, self.suggest(query), few)
        return item

    def canonical(self, query: str) -> str:
        """The printed name of the item ``query`` names."""
        key = normalize(query)
        if key in self._exact:
            return self._exact[key].name
        item = self.get(query)
        return next(e.name for e in self._exact.values() if e.item is item)

    def suggest(self, query: str, n: int = 3) -> list[str]:
        return suggest(query, self._exact, n)


def suggest(query: str, forms: dict[str, _Entry[T]] | dict[str, str], n: int = 3) -> list[str]:
    """Up to ``n`` printed names whose normalized forms are nearest to ``query``."""
    key = normalize(query)
    out: list[str] = []
    for form in difflib.get_close_matches(key, list(forms), n=n * 3, cutoff=0.5):
        value = forms[form]
        name = value.name if isinstance(value, _Entry) else value
        if name not in out:
            out.append(name)
    return out[:n]


def _unique(entries: list[_Entry[T]]) -> list[_Entry[T]]:
    seen: dict[str, _Entry[T]] = {}
    for entry in entries:
        seen.setdefault(entry.name, entry)
    return list(seen.values())
