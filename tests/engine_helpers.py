"""Building battles for tests: small scenarios, forces of stock Meks, scripted controllers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meks.catalog import Band, load_catalog
from meks.dice import Dice
from meks.engine.controllers import Baseline
from meks.engine.core import Battle, RangeChoice
from meks.engine.log import Kind
from meks.engine.units import ForceSpec, PilotSpec, Unit, UnitSpec, WeaponSlot
from meks.scenario import Scenario, Side, parse_scenario

CATALOG = load_catalog()


def duel_scenario(terrain: str = "Plains", zone: int = 5, turn_limit: int = 12,
                  **house: Any) -> Scenario:
    """Both sides set up in one zone; the last side with a Mek standing wins."""
    return parse_scenario({
        "id": "duel", "name": "Duel", "turn_limit": turn_limit,
        "terrain": {z: terrain for z in range(1, 10)},
        "attacker": {"setup": {"zones": [zone]}},
        "defender": {"setup": {"zones": [zone]}},
        "victory": {
            "attacker": {"type": "last_standing", "side": "attacker"},
            "defender": {"type": "last_standing", "side": "defender"},
        },
        "house_rules": house,
    })


def mek(design: str, level: str = "Regular", skills: Sequence[str] = (),
        name: str | None = None) -> UnitSpec:
    d = CATALOG.design(design)
    return UnitSpec(name or d.name, d, PilotSpec(f"{name or d.name} pilot", level,
                                                 tuple(skills)), points=d.price or 0)


def force(*units: UnitSpec, support: Sequence[str] = ()) -> ForceSpec:
    return ForceSpec(tuple(units), tuple(support))


class Scripted(Baseline):
    """The baseline, with chosen decisions overridden per test."""

    def __init__(self, ranges: Sequence[RangeChoice] = (),
                 fire: Callable[[Battle, Unit, list[Unit], Band],
                                list[tuple[WeaponSlot, Unit]]] | None = None,
                 **overrides: Any) -> None:
        self._ranges = list(ranges)
        self._fire = fire
        self._overrides = overrides

    def range_choice(self, battle: Battle, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        if self._ranges:
            return self._ranges.pop(0)
        return super().range_choice(battle, zone, side, options)

    def fire_plan(self, battle: Battle, unit: Unit, targets: list[Unit],
                  band: Band) -> list[tuple[WeaponSlot, Unit]]:
        if self._fire is not None:
            return self._fire(battle, unit, targets, band)
        return super().fire_plan(battle, unit, targets, band)

    def __getattribute__(self, name: str) -> Any:
        overrides = object.__getattribute__(self, "_overrides")
        if name in overrides:
            return overrides[name]
        return object.__getattribute__(self, name)


def battle(scenario: Scenario, attacker: ForceSpec, defender: ForceSpec,
           dice: Sequence[int] | int, attacker_ctl: Any = None,
           defender_ctl: Any = None) -> Battle:
    d = Dice.from_seed(dice) if isinstance(dice, int) else Dice.from_sequence(dice)
    return Battle(scenario, {Side.ATTACKER: attacker, Side.DEFENDER: defender}, d,
                  {Side.ATTACKER: attacker_ctl or Baseline(),
                   Side.DEFENDER: defender_ctl or Baseline()}, CATALOG)


def texts(b: Battle, kind: Kind | None = None) -> list[str]:
    return [e.text for e in b.log if kind is None or e.kind is kind]


def weapons_named(unit: Unit, *names: str) -> list[WeaponSlot]:
    out = []
    pool = list(unit.weapons)
    for name in names:
        slot = next(s for s in pool if s.name == name and not s.destroyed)
        pool.remove(slot)
        out.append(slot)
    return out
