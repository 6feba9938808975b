"""Choosing a force within a points budget: which designs, owned or bought, to field.

``pick_force`` searches the combinations a scenario side allows (an exact composition, or up
to ``max_units`` Meks no larger than the size limit) and returns the strongest that fits
the budget. A design's strength here is its price, the rules' own measure of worth, with
owned Meks preferred over buying the same design again.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from meks.game.catalog import Catalog, Design, Size


@dataclass(frozen=True)
class Option:
    """A Mek that may be fielded: owned (``owned`` is its key) or bought new."""

    design: Design
    price: int
    owned: str | None = None
    # the points it costs to field now, when a treasury pays for what is bought: a new
    # Mek's price, or what an owned one owes (None: its price if bought, else nothing)
    pays: int | None = None

    @property
    def paid(self) -> int:
        if self.pays is not None:
            return self.pays
        return 0 if self.owned else self.price


def catalog_options(catalog: Catalog, max_size: Size | None = None) -> list[Option]:
    return [Option(d, d.price or 0) for d in catalog.designs
            if max_size is None or d.size <= max_size]


def pick_force(owned: Sequence[Option], catalog: Catalog, budget: int,
               max_size: Size | None = None, composition: dict[Size, int] | None = None,
               max_units: int = 4, spend: float = 1.0, cash: int | None = None
               ) -> list[Option]:
    """The strongest force within ``budget * spend`` points (see the module docstring) and,
    when ``cash`` is given, whose options pay no more than ``cash`` points now
    (``Option.paid``). Returns an empty list when nothing fits."""
    limit = int(budget * spend)
    allowed = [o for o in owned if max_size is None or o.design.size <= max_size]
    bought = catalog_options(catalog, max_size)
    if composition:
        slots = [size for size, n in sorted(composition.items(), key=lambda kv: -kv[0].rank)
                 for _ in range(n)]
        return _fill_slots(slots, allowed, bought, limit, cash)
    pool = sorted(allowed, key=lambda o: -o.price) + bought
    combos = (tuple(pool[i] for i in combo) for count in range(1, max_units + 1)
              for combo in itertools.combinations_with_replacement(range(len(pool)), count))
    return _best(combos, limit, cash)


def _fill_slots(slots: list[Size], owned: Sequence[Option], bought: Sequence[Option],
                limit: int, cash: int | None = None) -> list[Option]:
    choices = [[o for o in owned if o.design.size is size]
               + [o for o in bought if o.design.size is size] for size in slots]
    return _best(itertools.product(*choices), limit, cash)


def _best(combos: Iterable[tuple[Option, ...]], limit: int, cash: int | None = None
          ) -> list[Option]:
    """The costliest combination within ``limit`` that fields no owned Mek twice; among
    equals, the one using the most owned Meks; the first such in order."""
    best: list[Option] = []
    best_key = (-1, 0)
    for combo in combos:
        owned_keys = [o.owned for o in combo if o.owned]
        if len(owned_keys) != len(set(owned_keys)):
            continue
        cost = sum(o.price for o in combo)
        if cost > limit:
            continue
        if cash is not None and sum(o.paid for o in combo) > cash:
            continue
        key = (cost, len(owned_keys))
        if key > best_key:
            best, best_key = list(combo), key
    return best
