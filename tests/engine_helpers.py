"""Building battles for tests: small scenarios, forces of stock Meks, scripted controllers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from campaigns.files.scenario_model import parse_scenario
from meks.engine.controllers import Baseline, Controller
from meks.engine.core import Battle, Engagement, RangeChoice
from meks.engine.log import Kind, render
from meks.engine.units import ForceSpec, PilotSpec, Unit, UnitSpec, WeaponSlot
from meks.game.catalog import Band, Design, Size, load_catalog
from meks.game.dice import Dice
from meks.game.scenario import Scenario
from meks.game.vocabulary import Side

CATALOG = load_catalog()

# The tests of one exchange's rules (to-hit, saves, criticals, heat, skills, support) force
# each die of one exchange a turn: their scenarios fight a zone combat as one exchange a turn
# (R5.2's ``combat_rounds: 1``, R6.3's ``break_contact: stay``) unless they ask for rounds.
ONE_EXCHANGE: dict[str, Any] = {"combat_rounds": 1, "break_contact": "stay"}


def _house(house: dict[str, Any]) -> dict[str, Any]:
    return {**ONE_EXCHANGE, **house}


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
        "house_rules": _house(house),
    })


def mek(design: str, level: str = "Regular", skills: Sequence[str] = (),
        name: str | None = None) -> UnitSpec:
    d = CATALOG.design(design)
    return UnitSpec(name or d.name, d, PilotSpec(f"{name or d.name} pilot", level,
                                                 tuple(skills)), points=d.price or 0)


def force(*units: UnitSpec, support: Sequence[str] = ()) -> ForceSpec:
    return ForceSpec(tuple(units), tuple(support))


_ENGINE_ID = re.compile(r"[AD]\d+i?")


def told_id(view: Any, uid: object) -> object:
    """``uid`` as ``view``'s side is told it: an enemy unit's engine id (as the tests name
    units) becomes the side's own label for it (R8.1, revision 10); anything else is kept."""
    if isinstance(uid, str) and _ENGINE_ID.fullmatch(uid) and uid[:1] != view.side.value[0].upper():
        return view.label(view._b.unit(uid))
    if isinstance(uid, list | tuple):
        return type(uid)(told_id(view, x) for x in uid)
    return uid


class EngineNames:
    """A side's view for a test's scripted answers: units may be looked up by the engine's
    ids, as the tests name them (``unit``, ``find``); everything else is the view's own."""

    def __init__(self, view: Any) -> None:
        self._view = view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)

    def unit(self, uid: str) -> Any:
        return self._view.unit(told_id(self._view, uid))

    def find(self, uid: object) -> Any:
        return self._view.find(told_id(self._view, uid))


def _scripted(view: Any, override: Callable[..., Any]) -> Callable[..., Any]:
    def answer(*args: Any) -> Any:
        return told_id(view, override(EngineNames(view), *args))
    return answer


class Scripted(Baseline):
    """The baseline, with chosen decisions overridden per test (scripted answers may name
    enemy units by the engine's ids: they are told to the engine by the side's labels)."""

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
            override = overrides[name]
            if not callable(override):
                return override
            return lambda view, *args: _scripted(view, override)(*args)
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


# ---- forcing one situation with few dice ---------------------------------------------------

def design(size: str, weapons: Sequence[str] = (), systems: Sequence[str] = (),
           name: str = "Custom") -> Design:
    """A design of any parts (the engine does not check legality; tests force situations)."""
    return Design(name, Size(size), tuple(weapons), tuple(systems))


def custom(name: str, size: str, weapons: Sequence[str] = (), systems: Sequence[str] = (),
           level: str = "Regular", skills: Sequence[str] = ()) -> UnitSpec:
    """A Mek of a custom design, named ``name`` (the design takes the name too)."""
    return UnitSpec(name, design(size, weapons, systems, name),
                    PilotSpec(f"{name} pilot", level, tuple(skills)))


def support_unit(name: str, callsign: str | None = None) -> UnitSpec:
    """A support unit (Gun Sled, Panzer, ...) fielded as a unit of the force."""
    return UnitSpec(callsign or name, support=name)


def map_scenario(attacker_zones: Sequence[int] = (5,), defender_zones: Sequence[int] = (5,),
                 terrain: dict[int, str] | None = None, turn_limit: int = 12,
                 attacker: dict[str, Any] | None = None,
                 defender: dict[str, Any] | None = None, **house: Any) -> Scenario:
    """A last-standing battle with set-up zones, terrain by zone (Plains elsewhere) and any
    extra side rules (exits, reinforcements, strongpoints)."""
    ground = {z: "Plains" for z in range(1, 10)}
    ground.update(terrain or {})
    return parse_scenario({
        "id": "skirmish", "name": "Skirmish", "turn_limit": turn_limit, "terrain": ground,
        "attacker": {"setup": {"zones": list(attacker_zones)}, **(attacker or {})},
        "defender": {"setup": {"zones": list(defender_zones)}, **(defender or {})},
        "victory": {
            "attacker": {"type": "last_standing", "side": "attacker", "kind": None},
            "defender": {"type": "last_standing", "side": "defender", "kind": None},
        },
        "house_rules": _house(house),
    })


def start(b: Battle, band: Band | None = None, zone: int = 5) -> Battle:
    """Set the battle up; with ``band``, zone ``zone`` is already engaged at that band."""
    b.setup()
    if band is not None:
        b.engagements[zone] = Engagement(zone, band)
    return b


def assert_all_dice_used(b: Battle, dice: Sequence[int]) -> None:
    assert len(b.dice.log) == len(dice), (
        f"{len(dice) - len(b.dice.log)} dice left over:\n" + "\n".join(render(b.log, True)))


def fire(*names: str) -> Callable[[Battle, Unit, list[Unit], Band],
                                  list[tuple[WeaponSlot, Unit]]]:
    """A fire plan: the named weapons at the first target, in order, for every unit that has
    them (named weapons out of range still try, and the plan is refused); with no names,
    every live weapon that can fire at the first target at this band."""
    def plan(b: Battle, unit: Unit, targets: list[Unit],
             band: Band) -> list[tuple[WeaponSlot, Unit]]:
        wanted = names or tuple(
            s.name for s in unit.live_weapons() if not s.fired and (
            (s.weapon.is_small and band is Band.SHORT and targets[0].is_infantry)
            or (not s.weapon.is_small and s.weapon.to_hit_at(band) is not None)))
        have = [n for n in wanted if any(s.name == n for s in unit.live_weapons())]
        return [(slot, targets[0]) for slot in weapons_named(unit, *have)]
    return plan


def hold_fire(b: Battle, unit: Unit, targets: list[Unit],
              band: Band) -> list[tuple[WeaponSlot, Unit]]:
    return []


def rolls_for(b: Battle, word: str) -> list[int]:
    """The dice rolled for purposes that mention ``word``."""
    return [r.value for r in b.dice.log if word in r.purpose]


def has_text(b: Battle, fragment: str, kind: Kind | None = None) -> bool:
    return any(fragment in t for t in texts(b, kind))


# ---- one exchange in a duel ----------------------------------------------------------------

INIT = [6, 1]  # initiative: the attacker wins (and the baseline has it move second)
TIE = [3, 3]   # movement rolls of two Assault (1d6) units on Plains: a tie, the band stays


def gun(*weapons: str, size: str = "Assault", systems: Sequence[str] = (),
        skills: Sequence[str] = (), level: str = "Regular", name: str = "Gun") -> UnitSpec:
    """A shooter: a custom Mek with the given weapons."""
    return custom(name, size, weapons, systems, level, skills)


def post(size: str = "Assault", systems: Sequence[str] = (), skills: Sequence[str] = (),
         weapons: Sequence[str] = (), level: str = "Regular", name: str = "Post") -> UnitSpec:
    """A target: a custom Mek, unarmed unless told."""
    return custom(name, size, weapons, systems, level, skills)


def exchange(attacker: UnitSpec | ForceSpec, defender: UnitSpec | ForceSpec,
             dice: Sequence[int], band: Band | None = Band.SHORT, terrain: str = "Plains",
             attacker_ctl: Any = None, defender_ctl: Any = None,
             prepare: Callable[[Battle], None] | None = None, turns: int = 1,
             scenario: Scenario | None = None, **house: Any) -> Battle:
    """A duel in zone 5, already engaged at ``band`` (None: a new engagement), played for
    ``turns`` turns with every die used. ``prepare`` changes the battle after set-up."""
    a = attacker if isinstance(attacker, ForceSpec) else force(attacker)
    d = defender if isinstance(defender, ForceSpec) else force(defender)
    b = start(battle(scenario or duel_scenario(terrain, **house), a, d, dice,
                     attacker_ctl or Scripted(), defender_ctl or Scripted()), band)
    if prepare is not None:
        prepare(b)
    for _ in range(turns):
        b.play_turn()
    assert_all_dice_used(b, dice)
    return b


# ---- controllers only read ------------------------------------------------------------------

def state_of(b: Battle) -> tuple[object, ...]:
    """What a controller could change through the units it is shown: every unit's fields,
    the log and dice so far, and each side's records."""
    units = tuple(tuple((name, repr(value)) for name, value in vars(u).items())
                  for u in b.units)
    return (units, len(b.log), len(b.dice.log), b.turn, repr(b.engagements), repr(b.assets),
            repr(b.known), repr(b.identified), repr(b.marked), repr(b.targeted),
            repr(b.mines))


class Watched:
    """Passes every question to ``inner``, counts the questions by decision and checks that
    answering changed nothing in the battle."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self.battle: Battle | None = None
        self.asked: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        battle = self.battle
        if not callable(attr) or battle is None:
            return attr

        def ask(*args: Any, **kwargs: Any) -> Any:
            before = state_of(battle)
            answer = attr(*args, **kwargs)
            assert state_of(battle) == before, \
                f"{type(self.inner).__name__}.{name} changed the battle"
            self.asked[name] += 1
            return answer
        return ask
