"""The bot: a controller that plays to win, and the between-games choices it makes.

``Bot`` answers every decision of the ``Controller`` protocol. It reads the scenario's
victory conditions into tasks (go to a zone, hold a zone, leave by an edge, destroy units,
keep units, stop the enemy leaving), judges fights with expected values worked out from the
same numbers the engine rolls against (to-hit numbers, dice, re-rolls, armor saves,
critical chances, heat), and never rolls a die of its own: the same battle and dice give the
same decisions. ``muster`` picks stock designs for a scenario's limits at a difficulty and
``choose_skill`` picks a pilot's next skill by the Mek it drives. ``docs/bot.md`` explains the
reasoning decision by decision.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from math import exp
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from meks.catalog import Band, Catalog, Design, Family, Size, Weapon, load_catalog
from meks.construction import Pricing, check_design
from meks.engine.controllers import Baseline, Order, distance
from meks.engine.core import BANDS, RangeChoice
from meks.engine.units import Unit, WeaponSlot
from meks.pilots import FAMILIARITY, auto_skill, available_skills
from meks.scenario import (
    AllOf,
    AnyOf,
    Condition,
    DestroyAll,
    Edge,
    ExitMap,
    Hold,
    InZone,
    KeepUnits,
    LastStanding,
    Measure,
    NeverOccupied,
    NotOf,
    Occupy,
    Placed,
    Result,
    Side,
    UnitKind,
)
from meks.victory import holds

if TYPE_CHECKING:
    from meks.engine.core import Battle

DIFFICULTIES = ("easy", "normal", "hard")
EVADE_BELOW = 0.55  # force ratio under which a side that can only draw stays out of reach
RETREAT_BELOW = 0.45  # force ratio in a zone under which a side not pressed for time leaves
ENGAGE_AT = 1.15  # force ratio a side starts a fight at when neither side gains by waiting
LOOKAHEAD = 0.8  # weight of next turn's exchange in a range choice
WAIT_TURNS = 4  # turns a side that gains nothing by waiting lets the enemy come to it
CRIT_SHARE = 0.27  # a critical's average harm, as a share of the unit's worth
BAND_WEIGHT = {Band.SHORT: 0.4, Band.MEDIUM: 0.35, Band.LONG: 0.25}
SKILL_OF = {Family.CANNON: "Accuracy", Family.MISSILE: "Guidance", Family.LASER: "Steady Hand"}


# ---- odds ------------------------------------------------------------------------------------

def chance(need: int, modifier: int = 0, six_hits: bool = False) -> float:
    """The chance that one die plus ``modifier`` reaches ``need``."""
    p = (7 - (need - modifier)) / 6
    p = 0.0 if p < 0 else 1.0 if p > 1 else p
    return max(p, 1 / 6) if six_hits else p


_NEED: dict[tuple[str, Band], int | None] = {}


def need_at(weapon: Weapon, band: Band) -> int | None:
    """``weapon.to_hit_at(band)``, remembered."""
    key = (weapon.name, band)
    if key not in _NEED:
        _NEED[key] = weapon.to_hit_at(band)
    return _NEED[key]


def save_fails(target: Unit, weapon: Weapon) -> float:
    """The chance that ``target`` fails its armor save against one hit of ``weapon`` (R6.8)."""
    mod = weapon.save_modifier
    if weapon.family is Family.CANNON and target.has_system("Space-Lam Armor"):
        mod += 1
    fail = (target.armor - mod - 1) / 6
    fail = 0.0 if fail < 0 else 1.0 if fail > 1 else fail
    if (weapon.family is Family.MISSILE and target.has_system("Reactive Armor")) or (
            weapon.family is Family.LASER and target.has_system("BPC Armor")):
        fail *= fail
    return fail


def base_worth(unit: Unit) -> float:
    """What a unit is worth: its price, or an estimate for support units and infantry."""
    if unit.points:
        return float(unit.points)
    if unit.is_infantry:
        return 6.0
    return 2.0 * unit.max_hits + 2.0 * sum(w.weapon.price for w in unit.weapons)


def firepower_share(unit: Unit) -> float:
    """The share of its weapons (by price) a unit still has."""
    total = sum(w.weapon.price for w in unit.weapons)
    if not total:
        return 1.0
    return sum(w.weapon.price for w in unit.weapons if not w.destroyed) / total


def worth(unit: Unit) -> float:
    """A unit's worth now: its price, scaled down as it loses weapons or its pilot is hurt."""
    value = base_worth(unit) * (0.4 + 0.6 * firepower_share(unit))
    if unit.wounded:
        value *= 0.5
    return value


_SUMS: dict[int, list[float]] = {0: [1.0]}


def dice_sum(n: int) -> list[float]:
    """The distribution of the sum of ``n`` six-sided dice (index = total)."""
    if n not in _SUMS:
        prev = dice_sum(n - 1)
        out = [0.0] * (len(prev) + 6)
        for total, p in enumerate(prev):
            for face in range(1, 7):
                out[total + face] += p / 6
        _SUMS[n] = out
    return _SUMS[n]


def contest(mine: Sequence[tuple[int, int, float]],
            theirs: Sequence[tuple[int, int, float]]) -> tuple[float, float]:
    """Chances that our side's best movement roll beats theirs, and that they tie. Each
    unit is (dice, modifier, chance it acts); a side with no one rolling rolls 0."""
    def best(units: Sequence[tuple[int, int, float]]) -> dict[int, float]:
        hi = 0
        dists = []
        for dice, mod, acts in units:
            dist = {max(0, t + mod): p * acts for t, p in enumerate(dice_sum(dice)) if p}
            dist[0] = dist.get(0, 0.0) + (1 - acts)
            dists.append(dist)
            hi = max(hi, max(dist))
        out: dict[int, float] = {}
        prev = 0.0
        for v in range(hi + 1):
            c = 1.0
            for dist in dists:
                c *= sum(p for t, p in dist.items() if t <= v)
            out[v] = c - prev
            prev = c
        return out if dists else {0: 1.0}

    a, b = best(mine), best(theirs)
    win = tie = 0.0
    for va, pa in a.items():
        for vb, pb in b.items():
            if va > vb:
                win += pa * pb
            elif va == vb:
                tie += pa * pb
    return win, tie


@dataclass
class _Gun:
    slot: WeaponSlot
    heat: int
    family: Family
    extra: int  # -2 for a Gunnery second shot
    evs: list[tuple[Unit, float, float]]  # target, expected hits, with the family skill


# ---- the bot ----------------------------------------------------------------------------------

@dataclass
class Intent:
    """What a side's victory conditions ask of it, as tasks."""

    occupy: list[int] = field(default_factory=list)  # zones whose occupation wins at once
    hold: list[int] = field(default_factory=list)  # zones to hold for some turns
    hold_group: str | None = None  # hold the zone this set-up group started in
    after_group: str | None = None  # ... once that group is destroyed
    be_in: list[int] = field(default_factory=list)  # zones to have units in at the end
    exits: list[ExitMap] = field(default_factory=list)
    hunt: bool = False
    hunt_group: str | None = None
    hunt_kind: UnitKind | None = None
    deny: list[int] = field(default_factory=list)  # zones the enemy wants
    deny_group: str | None = None
    clear: list[int] = field(default_factory=list)  # zones the enemy must not be in
    enemy_exits: list[ExitMap] = field(default_factory=list)
    keep: int = 0

    @property
    def goto(self) -> list[int]:
        return sorted(set(self.occupy + self.hold + self.be_in))


def read_intent(condition: Condition | None, enemy_condition: Condition | None,
                side: Side) -> Intent:
    """The tasks a side's own conditions and the enemy's conditions give it."""
    intent = Intent()

    def mine(c: Condition | None) -> None:
        if c is None:
            return
        if isinstance(c, AllOf | AnyOf):
            for sub in c.all if isinstance(c, AllOf) else c.any:
                mine(sub)
        elif isinstance(c, NotOf):
            neg = c.negated
            if isinstance(neg, ExitMap) and neg.side is not side:
                intent.enemy_exits.append(neg)
            elif isinstance(neg, Occupy | Hold) and neg.side is not side:
                _add_deny(intent, neg)
        elif isinstance(c, Occupy) and c.side is side:
            if c.zone is not None:
                intent.occupy.append(c.zone)
            else:
                intent.hold_group = c.zone_of_group
        elif isinstance(c, Hold) and c.side is side:
            if c.zone is not None:
                intent.hold.append(c.zone)
            else:
                intent.hold_group = c.zone_of_group
            if isinstance(c.after, DestroyAll) and c.after.group:
                intent.after_group = c.after.group
        elif isinstance(c, InZone) and c.side is side:
            intent.be_in.append(c.zone)
        elif isinstance(c, NeverOccupied) and c.side is not side:
            intent.deny.append(c.zone)
        elif isinstance(c, DestroyAll) and c.side is side:
            intent.hunt = True
            intent.hunt_group = c.group
            intent.hunt_kind = c.kind
        elif isinstance(c, LastStanding) and c.side is side:
            intent.hunt = True
            intent.hunt_kind = c.kind
        elif isinstance(c, ExitMap) and c.side is side:
            intent.exits.append(c)
        elif isinstance(c, KeepUnits) and c.side is side:
            intent.keep = max(intent.keep, c.count)

    def theirs(c: Condition | None) -> None:
        if c is None:
            return
        if isinstance(c, AllOf | AnyOf):
            for sub in c.all if isinstance(c, AllOf) else c.any:
                theirs(sub)
        elif isinstance(c, Occupy | Hold) and c.side is not side:
            _add_deny(intent, c)
        elif isinstance(c, InZone) and c.side is not side:
            intent.clear.append(c.zone)
        elif isinstance(c, ExitMap) and c.side is not side:
            intent.enemy_exits.append(c)

    mine(condition)
    theirs(enemy_condition)
    for name in ("occupy", "hold", "be_in", "deny", "clear"):
        setattr(intent, name, sorted(set(getattr(intent, name))))
    return intent


def _add_deny(intent: Intent, c: Occupy | Hold) -> None:
    if c.zone is not None:
        intent.deny.append(c.zone)
    else:
        intent.deny_group = c.zone_of_group


def _group_zone(battle: Battle, name: str | None) -> int | None:
    if name is None:
        return None
    for unit in battle.units:
        if unit.group == name and unit.setup_zone is not None:
            return unit.setup_zone
    return None


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and callers extend it
class Bot(Baseline):
    """A controller that plays to win (see the module docstring and docs/bot.md)."""

    name = "bot"

    def __init__(self, difficulty: str = "normal") -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
        self.difficulty = difficulty
        self._battle: Battle | None = None
        self._intents: dict[Side, Intent] = {}
        self._assigned: dict[tuple[int, int, Side], dict[str, float]] = {}
        self._clock: dict[tuple[int, int, Side], int] = {}
        self._heat_of_zone: dict[int, int] = {}
        self._phalanx = False
        self._roles: dict[str, str] = {}
        self._tasks: dict[Side, tuple[tuple[int, int, Side], dict[str, Task]]] = {}
        self._memo_key = -1
        self._memo: dict[tuple[str, str, Band, bool | None], float] = {}
        self._worths: dict[str, float] = {}
        self._systems: dict[str, frozenset[str]] = {}

    # ---- between games -------------------------------------------------------------------

    def muster(self, budget: int, max_size: Size | None, composition: dict[Size, int] | None,
               catalog: Catalog | None = None, difficulty: str | None = None) -> list[Design]:
        return muster(budget, max_size, composition, catalog or load_catalog(),
                      difficulty or self.difficulty)

    def choose_skill(self, held: Sequence[str], design: Design | None,
                     catalog: Catalog | None = None) -> str:
        return choose_skill(held, design, catalog)

    # ---- per-battle state ----------------------------------------------------------------------

    def _fresh(self, battle: Battle) -> None:
        """Forget remembered values once anything has happened in the battle (and
        everything when it is another battle)."""
        if battle is not self._battle:
            self._battle = battle
            self._memo_key = -1
            self._start(battle)
        if len(battle.log) != self._memo_key:
            self._memo_key = len(battle.log)
            self._memo.clear()
            self._worths.clear()
            self._systems.clear()

    def systems(self, unit: Unit) -> frozenset[str]:
        """The names of the unit's working systems (remembered until something happens)."""
        names = self._systems.get(unit.id)
        if names is None:
            names = self._systems[unit.id] = frozenset(
                s.system.name for s in unit.systems if not s.destroyed)
        return names

    def worth(self, unit: Unit) -> float:
        value = self._worths.get(unit.id)
        if value is None:
            value = self._worths[unit.id] = worth(unit)
        return value

    def hit_worth(self, target: Unit, already: float = 0.0) -> float:
        """``hit_worth`` with the unit's worth remembered."""
        if target.is_infantry:
            return self.worth(target) * 0.25 if already < 4 else 0.0
        left = target.remaining - already
        if left <= 0.05:
            return 0.0
        value = self.worth(target)
        if left <= 1:
            return value * left
        p = (7 - left) / 6
        p = 0.0 if p < 0 else 1.0 if p > 1 else p
        if "Spaul Liner" in self.systems(target):
            p *= p
        if target.crits_taken == 0 and target.skill("Damage Control"):
            p *= 0.3
        return value / left + p * CRIT_SHARE * value

    def target_value(self, target: Unit, lam: float) -> float:
        """The worth of landing ``lam`` expected damaging hits on ``target`` this turn
        (counted as a Poisson number of hits): the chance of destroying it, half the worth
        of the damage short of that (it brings a later kill nearer), and the criticals the
        hits may cause."""
        if target.is_infantry:
            return self.worth(target) * 0.25 * min(lam, 4.0)
        if lam <= 0:
            return 0.0
        left = max(target.remaining, 1)
        value = self.worth(target)
        term = exp(-lam)
        below = 0.0  # P(H < left)
        partial = 0.0  # E[H; H < left]
        crits = 0.0
        spaul = "Spaul Liner" in self.systems(target)
        for i in range(left):
            below += term
            partial += i * term
            term *= lam / (i + 1)
        tail = 1.0 - below  # P(H >= left): destroyed
        at_least = 1.0
        term = exp(-lam)
        for j in range(1, left):
            at_least -= term  # P(H >= j)
            term *= lam / j
            p = (6 - (left - j)) / 6
            p = 0.0 if p < 0 else p
            crits += at_least * (p * p if spaul else p)
        if target.crits_taken == 0 and target.skill("Damage Control"):
            crits *= 0.3
        return value * (tail + 0.5 * partial / left + CRIT_SHARE * crits)

    def _know(self, battle: Battle) -> None:
        self._fresh(battle)

    def _start(self, battle: Battle) -> None:
        """A new battle: forget the last one, read the scenario."""
        self._assigned.clear()
        self._clock.clear()
        self._roles.clear()
        self._tasks.clear()
        self._intents = {side: read_intent(battle.scenario.victory.condition(side),
                                           battle.scenario.victory.condition(side.enemy), side)
                         for side in Side}
        self._heat_of_zone = {z: battle.catalog.terrain_named(battle.scenario.terrain_of(z)).heat
                              for z in range(1, 10)}
        self._phalanx = any(s.system.name == "Phalanx" for u in battle.units for s in u.systems)

    def intent(self, battle: Battle, side: Side) -> Intent:
        self._know(battle)
        return self._intents[side]

    def clock(self, battle: Battle, side: Side) -> int:
        """+1 when standing still until the last turn wins for ``side``, -1 when it loses,
        0 when it draws: who has to act."""
        self._know(battle)
        key = (battle.turn, sum(1 for u in battle.units if u.alive), side)
        if key in self._clock:
            return self._clock[key]
        view = battle.view()
        limit = battle.scenario.turn_limit
        met = {}
        for s in Side:
            cond = battle.scenario.victory.condition(s)
            met[s] = cond is not None and holds(cond, view, limit, limit)
        if met[side] != met[side.enemy]:
            value = 1 if met[side] else -1
        else:
            result = battle.scenario.victory.at_turn_limit
            value = 0 if result is Result.DRAW or met[side] else (
                1 if result.value == side.value else -1)
        self._clock[key] = value
        return value

    def rating(self, battle: Battle, unit: Unit) -> int:
        return unit.heat_rating(self._heat_of_zone.get(unit.zone or 5, 0) > 0)

    # ---- expected values ---------------------------------------------------------------

    def modifier(self, battle: Battle, unit: Unit | None, weapon: Weapon, target: Unit,
                 band: Band, single: bool, skill: bool,
                 doubled: bool | None = None) -> int:
        """The to-hit modifier of one shot, as ``Battle.modifiers`` adds it up (R6.6),
        without using up any once-a-turn skill."""
        zone = target.zone or 5
        mod = 0
        if not weapon.ignores_terrain:
            terrain = battle.terrain_to_hit(zone)
            if terrain:
                if doubled is None:
                    eng = battle.engagements.get(zone)
                    doubled = eng is not None and eng.doubled is target.side and \
                        eng.doubled_turn == battle.turn
                if doubled or target.dug_in_zone == zone:
                    terrain *= 2
                mod += terrain
        target_systems = self.systems(target)
        if "Jammer" in target_systems:
            mod -= 1
        if unit is not None:
            if single and "Targeting Array" in self.systems(unit):
                mod += 1
            if unit.pilot is not None:
                mod += unit.pilot.level.to_hit
            if battle.turn in unit.computers_turns:
                mod -= 1
            if skill:
                mod += 1
            if target.id in battle.marked[unit.side]:
                mod += 1
        if weapon.family is Family.MISSILE:
            pd = "Point Defense" in target_systems
            phalanx = self._phalanx and any(
                f.has_system("Phalanx") for f in battle.in_zone(zone, target.side))
            if weapon.to_hit_vs_point_defense is not None and (pd or phalanx):
                mod += weapon.to_hit_vs_point_defense
            else:
                if pd and band is not Band.SHORT:
                    mod -= 1
                if phalanx:
                    mod -= 2 if band is Band.LONG else 1
        return mod

    def shot(self, battle: Battle, unit: Unit | None, weapon: Weapon, target: Unit, band: Band,
             single: bool = True, skill: bool = False, extra: int = 0,
             doubled: bool | None = None) -> float:
        """Expected damaging hits (kills, against infantry) of one firing of ``weapon``."""
        if target.is_infantry:
            return self.kills(battle, weapon, target, band)
        if weapon.is_small:
            return 0.0
        need = need_at(weapon, band)
        if need is None:
            return 0.0
        mod = extra + self.modifier(battle, unit, weapon, target, band, single, skill, doubled)
        p = chance(need, mod, battle.house.six_always_hits)
        if weapon.reroll_miss:
            p = 1 - (1 - p) * (1 - p)
        return weapon.dice * p * self.save_fails(target, weapon)

    def save_fails(self, target: Unit, weapon: Weapon) -> float:
        """``save_fails`` with the target's systems remembered."""
        names = self.systems(target)
        mod = weapon.save_modifier
        if weapon.family is Family.CANNON and "Space-Lam Armor" in names:
            mod += 1
        fail = (target.armor - mod - 1) / 6
        fail = 0.0 if fail < 0 else 1.0 if fail > 1 else fail
        if (weapon.family is Family.MISSILE and "Reactive Armor" in names) or (
                weapon.family is Family.LASER and "BPC Armor" in names):
            fail *= fail
        return fail

    def kills(self, battle: Battle, weapon: Weapon, target: Unit, band: Band) -> float:
        """Expected kills against infantry (R6.11)."""
        terrain = 0 if weapon.ignores_terrain else battle.terrain_to_hit(target.zone or 5)
        if weapon.is_small:
            if band is not Band.SHORT:
                return 0.0
            return max(0.0, 3.5 * weapon.kills + terrain)
        if need_at(weapon, band) is None:
            return 0.0
        if weapon.family is Family.MISSILE:
            return chance(4, terrain)
        return chance(3, terrain) + chance(5, terrain)

    def guns(self, battle: Battle, unit: Unit, targets: Sequence[Unit], band: Band,
             doubled: bool | None = None, single: bool | None = None) -> list[_Gun]:
        """The weapons that can hurt one of ``targets`` at ``band``, with their odds
        (``single``: whether the unit attacks one target this turn, for a Targeting Array;
        by default, whether ``targets`` is one)."""
        single = len(targets) == 1 if single is None else single
        out: list[_Gun] = []
        for slot in unit.live_weapons():
            weapon = slot.weapon
            skill = SKILL_OF.get(weapon.family)
            has_skill = bool(skill and unit.skill(skill) and skill not in unit.turn_skills)
            evs = []
            for t in targets:
                plain = self.shot(battle, unit, weapon, t, band, single, False, 0, doubled)
                if plain <= 0:
                    continue
                boosted = plain if not has_skill or t.is_infantry else self.shot(
                    battle, unit, weapon, t, band, single, True, 0, doubled)
                evs.append((t, plain, boosted))
            if evs:
                out.append(_Gun(slot, weapon.heat, weapon.family, 0, evs))
        if unit.skill("Gunnery") and "Gunnery" not in unit.turn_skills and out:
            cannons = [g for g in out if g.family is Family.CANNON
                       or g.slot.weapon.price_per == "pair"]
            if cannons:
                best = max(cannons, key=lambda g: max(e[1] for e in g.evs))
                evs = []
                for t, _, _ in best.evs:
                    ev = self.shot(battle, unit, best.slot.weapon, t, band, single, False, -2,
                                   doubled)
                    if ev > 0:
                        evs.append((t, ev, ev))
                if evs:
                    out.append(_Gun(best.slot, best.heat, best.family, -2, evs))
        return out

    def overheat_cost(self, unit: Unit, gun: _Gun, already_hits: float) -> float:
        """What an overheat costs: the weapon and 1 or 2 Hits with no save (R6.10)."""
        hits = 2 if gun.family is Family.MISSILE else 1
        left = unit.remaining - already_hits
        value = self.worth(unit)
        self_cost = value * 1.2 if left <= hits else value * hits / left
        total_price = sum(w.weapon.price for w in unit.live_weapons()) or 1
        weapon_cost = value * 0.6 * gun.slot.weapon.price / total_price * 0.5
        return self_cost + weapon_cost

    def plan(self, battle: Battle, unit: Unit, targets: Sequence[Unit], band: Band,
             assigned: dict[str, float] | None = None, doubled: bool | None = None,
             heat_extra: int = 0, single: bool | None = None
             ) -> tuple[float, list[tuple[WeaponSlot, Unit]], dict[str, float]]:
        """The order of fire with the best expected worth: weapons within the heat rating
        first, then any weapon whose expected damage outweighs the overheat risk times its
        cost. Returns the worth, the plan and the expected hits on each target."""
        guns = self.guns(battle, unit, targets, band, doubled, single)
        if not guns:
            return 0.0, [], {}
        base = dict(assigned or {})
        heat0 = unit.heat + heat_extra
        rating = self.rating(battle, unit)
        hot = not unit.vehicle and unit.pilot is not None
        if not hot or heat0 + sum(g.heat for g in guns) <= rating:
            orders: Iterable[Sequence[_Gun]] = [sorted(guns, key=lambda g: (
                g.extra, -max(e[2] for e in g.evs)))]
        elif len(guns) <= 3:
            orders = itertools.permutations(guns)
        else:
            orders = [sorted(guns, key=lambda g: (g.extra, g.heat, -max(e[2] for e in g.evs))),
                      sorted(guns, key=lambda g: (g.extra, -max(e[2] for e in g.evs))),
                      sorted(guns, key=lambda g: (g.extra, -max(e[2] for e in g.evs)
                                                  / max(g.heat, 0.5))),
                      self._knapsack_order(guns, rating - heat0)]
        best_value = -1.0
        best: list[tuple[WeaponSlot, Unit]] = []
        best_hits: dict[str, float] = {}
        for order in orders:
            value, chosen, hits = self._walk(unit, order, base, heat0, rating, hot)
            if value > best_value + 1e-9:
                best_value, best, best_hits = value, chosen, hits
        return max(best_value, 0.0), best, best_hits

    @staticmethod
    def _knapsack_order(guns: list[_Gun], room: int) -> list[_Gun]:
        """The most valuable set of weapons that fits ``room`` heat first (best first),
        then the rest from the coolest up."""
        best: tuple[float, int] = (-1.0, 0)
        n = len(guns)
        for mask in range(1 << n):
            heat = value = 0.0
            for i in range(n):
                if mask >> i & 1:
                    heat += guns[i].heat
                    value += max(e[2] for e in guns[i].evs)
            if heat <= room and value > best[0]:
                best = (value, mask)
        inside = [g for i, g in enumerate(guns) if best[1] >> i & 1]
        outside = [g for i, g in enumerate(guns) if not best[1] >> i & 1]
        inside.sort(key=lambda g: (g.extra, -max(e[2] for e in g.evs)))
        outside.sort(key=lambda g: (g.extra, g.heat, -max(e[2] for e in g.evs)))
        return inside + outside

    def _walk(self, unit: Unit, order: Sequence[_Gun], base: dict[str, float], heat0: int,
              rating: int, hot: bool) -> tuple[float, list[tuple[WeaponSlot, Unit]],
                                                dict[str, float]]:
        heat = heat0
        value = 0.0
        used: set[Family] = set()
        fired: set[int] = set()
        hits: dict[str, float] = {}
        self_hits = 0.0
        chosen: list[tuple[WeaponSlot, Unit]] = []
        for gun in order:
            if gun.extra and id(gun.slot) not in fired:
                continue  # a Gunnery second shot follows the first
            first_of_family = gun.family not in used
            pick: Unit | None = None
            pick_value = 0.0
            pick_ev = 0.0
            for t, plain, boosted in gun.evs:
                ev = boosted if first_of_family else plain
                lam = base.get(t.id, 0.0) + hits.get(t.id, 0.0)
                gain = self.target_value(t, lam + ev) - self.target_value(t, lam)
                if gain > pick_value:
                    pick, pick_value, pick_ev = t, gain, ev
            if pick is None:
                continue
            gain = pick_value
            p_ok = 1.0
            if hot and heat + gun.heat > rating:
                excess = heat + gun.heat - rating
                p_ok = max(0.0, (6 - excess) / 6)
                gain = p_ok * pick_value - (1 - p_ok) * self.overheat_cost(unit, gun, self_hits)
            if gain <= 0:
                continue
            heat += gun.heat
            value += gain
            if p_ok < 1:
                self_hits += (1 - p_ok) * (2 if gun.family is Family.MISSILE else 1)
            used.add(gun.family)
            fired.add(id(gun.slot))
            hits[pick.id] = hits.get(pick.id, 0.0) + pick_ev * p_ok
            chosen.append((gun.slot, pick))
        return value, chosen, hits

    def quick(self, battle: Battle, unit: Unit, target: Unit, band: Band,
              doubled: bool | None = None) -> float:
        """Expected damaging hits of ``unit`` on ``target`` this turn, a fast estimate: the
        best weapons that fit the heat rating, and the rest at their overheat odds."""
        self._fresh(battle)
        key = (unit.id, target.id, band, doubled)
        known = self._memo.get(key)
        if known is not None:
            return known
        value = self._quick(battle, unit, target, band, doubled)
        self._memo[key] = value
        return value

    def _quick(self, battle: Battle, unit: Unit, target: Unit, band: Band,
               doubled: bool | None) -> float:
        if not unit.can_act and battle.turn > 0:
            return 0.0
        if unit.is_infantry:
            # R6.11: infantry fight at Short only, hitting on a roll under the target's AR
            # with no save; commandos never attack.
            if unit.commando or band is not Band.SHORT or target.is_infantry:
                return 0.0
            return (0.4 if unit.wounded else 1.0) * max(0, target.armor - 1) / 6
        single = True
        evs = []
        for slot in unit.live_weapons():
            ev = self.shot(battle, unit, slot.weapon, target, band, single, False, 0, doubled)
            if ev > 0:
                evs.append((slot.weapon.heat, ev))
        if not evs:
            return 0.0
        if unit.vehicle or unit.pilot is None:
            return sum(ev for _, ev in evs)
        # A Mek that has fired this turn will start its next fight with only the heat
        # carried over (a second movement's); one that has not, with what it has now.
        spent = any(slot.fired for slot in unit.weapons)
        room = self.rating(battle, unit) - (unit.carried_heat if spent else unit.heat)
        evs.sort(key=lambda he: -he[1] / max(he[0], 0.5))
        total = 0.0
        heat = 0
        late = []
        for h, ev in evs:
            if heat + h <= room:
                heat += h
                total += ev
            else:
                late.append((h, ev))
        for h, ev in sorted(late):
            excess = heat + h - room
            p_ok = max(0.0, (6 - excess) / 6)
            if p_ok * ev > (1 - p_ok) * 0.6:
                heat += h
                total += p_ok * ev
        if unit.wounded:
            total *= 0.4
        return total

    def power(self, battle: Battle, shooters: Sequence[Unit], targets: Sequence[Unit],
              band: Band | None = None) -> float:
        """Expected damaging hits a group deals another in a turn, averaged over the
        targets (and over the bands unless one is given)."""
        if not targets:
            return 0.0
        bands = [band] if band is not None else list(BANDS)
        total = 0.0
        for b in bands:
            weight = 1.0 if band is not None else BAND_WEIGHT[b]
            for s in shooters:
                total += weight * sum(self.quick(battle, s, t, b) for t in targets) / len(
                    targets)
        return total

    def ratio(self, battle: Battle, mine: Sequence[Unit], theirs: Sequence[Unit]) -> float:
        """How a fight between two groups goes: above 1 ours lasts longer than theirs."""
        theirs = [u for u in theirs if not u.is_infantry or u.detected]
        if not theirs:
            return 9.0
        if not mine:
            return 0.0
        ours = self.power(battle, mine, theirs)
        foe = self.power(battle, theirs, mine)
        life_mine = sum(u.remaining for u in mine)
        life_theirs = sum(u.remaining for u in theirs)
        return (ours * life_mine + 1e-6) / (foe * life_theirs + 1e-6)

    # ---- set-up ----------------------------------------------------------------------------

    def deploy(self, battle: Battle, side: Side, units: Sequence[Unit]) -> dict[str, int]:
        self._know(battle)
        rules = battle.scenario.side(side)
        zones = list(rules.setup.zones) if rules.setup else list(range(1, 10))
        fallback = super().deploy(battle, side, units)
        if not units:
            return fallback
        for placement in self._placements_for(battle, side, units, zones):
            if rules.setup is None or not rules.setup.problems(
                    [Placed(placement[u.id], u.kind, u.points) for u in units],
                    rules.strongpoints):
                return placement
        return fallback

    def _main_zone(self, battle: Battle, side: Side, zones: list[int]) -> list[int]:
        """Set-up zones, best first, for the bulk of the force."""
        intent = self.intent(battle, side)
        enemies = [u.zone for u in battle.side_units(side.enemy) if u.zone is not None]
        goals = intent.deny + intent.goto + intent.clear
        exits = [z for e in intent.exits for z in e.zones]

        def score(z: int) -> tuple[float, int]:
            s = 0.0
            if z in intent.deny or z in [g for g in intent.goto if g in zones]:
                s -= 10
            if goals:
                s += min(distance(battle, z, g) for g in goals)
            if exits:
                s += min(distance(battle, z, g) for g in exits)
            if not goals and not exits:
                if enemies:
                    s += sum(distance(battle, z, e) for e in enemies) / len(enemies) * 0.5
                s += distance(battle, z, 5) * 0.6
            s -= battle.terrain_to_hit(z) * 0.3 if z in intent.deny + intent.goto else 0
            return (s, z)
        return sorted(zones, key=score)

    def _placements_for(self, battle: Battle, side: Side, units: Sequence[Unit],
                        zones: list[int]) -> list[dict[str, int]]:
        rules = battle.scenario.side(side)
        order = self._main_zone(battle, side, zones)
        toughest = sorted(units, key=lambda u: (-u.remaining * (7 - u.armor), u.id))
        out: list[dict[str, int]] = [{u.id: order[0] for u in units}]
        if rules.setup is None or not rules.setup.rules:
            return out + [{u.id: z for u in units} for z in order[1:]]
        intent = self.intent(battle, side)
        enemies = [u.zone for u in battle.side_units(side.enemy) if u.zone is not None]
        keeper = intent.keep > 0 and bool(intent.enemy_exits)
        choices: list[list[int]] = []
        group_rule = None
        for i, rule in enumerate(rules.setup.rules):
            options = [z for z in order if z in rule.zones]
            far = (rule.group is not None and rule.group == intent.deny_group) or (
                keeper and rule is rules.setup.rules[-1])
            if far and enemies:
                options.sort(key=lambda z: (-min(distance(battle, z, e) for e in enemies),
                                            order.index(z)))
            if rule.group is not None and rule.group == intent.deny_group:
                group_rule = i
            choices.append(options[:3])
        combos = list(itertools.product(*choices))
        if group_rule is not None:
            combos.sort(key=lambda c: sum(distance(battle, c[group_rule or 0], z) for z in c))
        for combo in combos:
            mains: list[int | None] = [None, *order]
            if group_rule is not None:
                mains.insert(0, combo[group_rule])
            elif keeper:
                mains.insert(0, combo[0])
            for main in mains:
                placement: dict[str, int] = {}
                pool = list(toughest)
                for rule, zone in zip(rules.setup.rules, combo, strict=True):
                    counted = [u for u in units if rule.kind is None or u.kind is rule.kind]
                    if rule.of is Measure.POINTS:
                        total = sum(u.points for u in counted)
                    else:
                        total = len(counted) + sum(s.count for s in rules.strongpoints
                                                   if rule.kind in (None, UnitKind.INFANTRY))
                    if rule.at_least is not None:
                        need = float(rule.at_least)
                    elif rule.of is Measure.POINTS:
                        need = (rule.percent or 0) * total / 100
                    else:
                        need = float(int((rule.percent or 0) * total / 100))
                    have = sum(s.count for s in rules.strongpoints if s.zone in rule.zones
                               and rule.kind in (None, UnitKind.INFANTRY)
                               and rule.of is Measure.UNITS)
                    have += sum((u.points if rule.of is Measure.POINTS else 1)
                                for u in units if placement.get(u.id) in rule.zones
                                and (rule.kind is None or u.kind is rule.kind))
                    for unit in list(pool):
                        if have >= need - 1e-9:
                            break
                        if rule.kind is not None and unit.kind is not rule.kind:
                            continue
                        placement[unit.id] = zone
                        pool.remove(unit)
                        have += unit.points if rule.of is Measure.POINTS else 1
                rest = main if main is not None else combo[-1]
                for unit in pool:
                    placement[unit.id] = rest
                out.append(placement)
        return out

    def setup_support(self, battle: Battle, side: Side, asset: str) -> int | str | None:
        """Battle Damage on the enemy Mek worth most; the Hidden Mek on a zone to hold
        (else the toughest); the Minefield where the enemy must go; the Decoy where the bulk
        of the force stands."""
        self._know(battle)
        mine = [u for u in battle.side_units(side) if u.on_map and not u.decoy]
        enemies = [u for u in battle.side_units(side.enemy) if u.is_mek and u.alive]
        if asset == "Battle Damage":
            return max(enemies, key=lambda u: (self.worth(u), u.id)).id if enemies else None
        if asset == "Hidden Mek":
            meks = [u for u in mine if u.is_mek]
            if not meks:
                return None
            held = self.held_zones(battle, side)
            on_goal = [u for u in meks if u.zone in held]
            pool = on_goal or meks
            return max(pool, key=lambda u: (u.remaining * (7 - u.armor), u.id)).id
        if asset == "Minefield":
            return self._mine_zone(battle, side)
        if asset == "Decoy":
            zones = [u.zone for u in mine if u.zone is not None]
            if not zones:
                setup = battle.scenario.side(side).setup
                return setup.zones[0] if setup else 5
            return max(set(zones), key=lambda z: (sum(1 for x in zones if x == z), -z))
        return None

    def _mine_zone(self, battle: Battle, side: Side) -> int:
        """Where the enemy will walk: its goal zones and exits, else the zone between."""
        theirs = self.intent(battle, side.enemy)
        mine_zones = [u.zone for u in battle.side_units(side) if u.on_map and u.zone]
        enemy_zones = [u.zone for u in battle.side_units(side.enemy) if u.on_map and u.zone]
        plan = battle.scenario.side(side.enemy).reinforcements
        if plan is not None:
            enemy_zones = list(plan.zones)
        targets = [z for e in theirs.exits for z in e.zones] + theirs.goto
        if not targets:
            targets = mine_zones or [5]
        if not enemy_zones:
            return targets[0]
        best = None
        for start in sorted(set(enemy_zones)):
            goal = min(targets, key=lambda g: distance(battle, start, g))
            path = _path(battle, start, goal)
            # The first step out of the enemy's set-up zone, or the goal itself.
            for z in path[1:]:
                if z not in mine_zones or z == goal:
                    best = z
                    break
            if best is not None:
                break
        if theirs.exits or theirs.goto:
            for z in targets:
                if z not in enemy_zones:
                    return z
        return best if best is not None else targets[0]

    # ---- tasks ---------------------------------------------------------------------------

    def tasks(self, battle: Battle, side: Side) -> dict[str, Task]:
        """Every unit's task this turn (see ``Task``), worked out from the victory
        conditions and the state of the map."""
        self._know(battle)
        key = (battle.turn, len(battle.log), side)
        cached = self._tasks.get(side)
        if cached is not None and cached[0] == key:
            return cached[1]
        result = _Tasks(self, battle, side).assign()
        self._tasks[side] = (key, result)
        return result

    def wants_out(self, battle: Battle, side: Side, zone: int) -> bool:
        """Whether this side's units in ``zone`` have a reason to get out of the fight
        there (see ``leave_value``)."""
        return self.leave_value(battle, side, zone) > 0

    def leave_value(self, battle: Battle, side: Side, zone: int) -> float:
        """What getting out of the fight in ``zone`` is worth to this side: leaving the map
        from its exit zone, a runner slipping off to an open goal, the unit kept out of
        harm's way, a unit on its way to the zone it must hold, or (when time is not against
        the side) getting away from a fight it is losing badly."""
        mine = [u for u in battle.in_zone(zone, side) if not u.decoy]
        theirs = battle.enemies_in(zone, side)
        if not mine or not theirs:
            return 0.0
        tasks = self.tasks(battle, side)
        quick_win = self._quick_win(battle, mine, theirs)
        value = 0.0
        for unit in mine:
            task = tasks.get(unit.id)
            if task is None or not unit.mobile:
                continue
            if task.role == "exit":
                if zone == task.zone:
                    value = max(value, 30.0)
                elif not quick_win:
                    # The more the clock presses, the more leaving is worth.
                    turns_left = battle.scenario.turn_limit - battle.turn + 1
                    slack = turns_left - distance(battle, zone, task.zone or zone) - 2
                    value = max(value, 20.0 + 4.0 * max(0, 8 - slack))
            elif task.role in ("keep", "evade"):
                value = max(value, 6.0)
            elif task.role == "run" and task.zone is not None and self._open_goal(
                    battle, side, task.zone) and self.ratio(battle, mine, theirs) < 1.5:
                value = max(value, 15.0)
            elif task.role == "hold" and task.zone != zone and not quick_win:
                value = max(value, 5.0)
        if value:
            return value
        intent = self.intent(battle, side)
        if zone in intent.goto + intent.deny + intent.clear:
            return 0.0
        clock = self.clock(battle, side)
        if clock < 0:
            return 0.0
        ratio = self.ratio(battle, mine, theirs)
        if ratio >= RETREAT_BELOW:
            return 0.0
        worst = min(self._net(battle, mine, theirs, b, False, clock) for b in BANDS)
        return max(0.5, -worst)

    def _open_goal(self, battle: Battle, side: Side, goal: int) -> bool:
        """Whether no enemy unit is in ``goal`` or free to move into it."""
        for f in battle.side_units(side.enemy):
            if not f.on_map or f.hidden or not f.weapons:
                continue
            if f.zone == goal:
                return False
            engaged = bool(battle.visible_in(f.zone or 0, side))
            if not engaged and distance(battle, f.zone or 5, goal) <= 1:
                return False
        return True

    def _quick_win(self, battle: Battle, mine: Sequence[Unit], theirs: Sequence[Unit]) -> bool:
        """Whether the enemy here is likely gone within a turn or two."""
        real = [u for u in theirs if not u.is_infantry or u.detected]
        if len(real) < len(theirs):
            return False
        if not real:
            return True
        dealt = self.power(battle, mine, real, battle.band_of(real[0].zone or 5))
        left = sum(u.remaining for u in real)
        return dealt * 1.5 >= left and self.ratio(battle, mine, real) >= 2.0

    def enemy_wants_out(self, battle: Battle, side: Side, zone: int) -> bool:
        """Whether the enemy in ``zone`` would gain by slipping away (it has an edge to
        leave by, or a goal elsewhere): then Long range, where it could break contact, is
        worth avoiding."""
        theirs = self.intent(battle, side.enemy)
        if theirs.exits or theirs.occupy:
            return zone not in theirs.occupy
        return False

    # ---- movement ------------------------------------------------------------------------

    def move_first(self, battle: Battle, side: Side) -> bool:
        """Move second (to answer the enemy's moves), unless units that broke contact must
        get out of their zone before it fights again."""
        self._know(battle)
        tasks = self.tasks(battle, side)
        for unit in battle.side_units(side):
            if unit.on_map and unit.zone is not None and unit.may_leave == unit.zone and \
                    battle.enemies_in(unit.zone, side):
                task = tasks.get(unit.id)
                if task is not None and task.role in ("exit", "run", "keep", "hold") and \
                        task.zone != unit.zone:
                    return True
                if task is not None and task.role == "exit":
                    return True
        return False

    @staticmethod
    def first_mover(battle: Battle) -> Side | None:
        """The side that moves first this turn, read from the initiative decision."""
        for event in reversed(battle.log):
            if event.turn != battle.turn:
                return None
            if event.kind.value == "decision" and "decides: move " in event.text:
                winner = Side.ATTACKER if event.text.startswith("Attacker") else Side.DEFENDER
                return winner if event.text.endswith("move first") else winner.enemy
        return None

    def movement(self, battle: Battle, side: Side) -> dict[str, Order]:
        self._know(battle)
        return _Planner(self, battle, side, second=False).orders()

    def second_move(self, battle: Battle, side: Side) -> dict[str, Order]:
        self._know(battle)
        return _Planner(self, battle, side, second=True).orders()

    def arrival_zone(self, battle: Battle, unit: Unit, zones: list[int]) -> int:
        """Arrive where friends are, away from the enemy's strength, near the goal."""
        self._know(battle)
        friends = [u.zone for u in battle.side_units(unit.side) if u.on_map and u.zone]
        enemies = [u for u in battle.side_units(unit.side.enemy) if u.on_map and not u.hidden]
        intent = self.intent(battle, unit.side)
        goals = intent.goto + intent.clear + intent.deny

        def score(z: int) -> tuple[float, int]:
            s = -3.0 * sum(1 for f in friends if distance(battle, f, z) <= 1)
            s += sum(self.worth(e) for e in enemies if e.zone == z) * 0.2
            if goals:
                s += min(distance(battle, z, g) for g in goals)
            return (s, z)
        return min(zones, key=score)

    def jump(self, battle: Battle, unit: Unit) -> bool:
        """Jump when the extra die (and no terrain penalty) raises the side's chance of
        winning the movement roll and the two heat it costs still leave the weapons room to
        fire; always when the side wants out at Long, where its weapons will not fire."""
        self._know(battle)
        zone = unit.zone or 5
        enemies = battle.enemies_in(zone, unit.side)
        if not enemies:
            return False
        if battle.band_of(zone) is Band.LONG and self.wants_out(battle, unit.side, zone):
            return True
        friends = [u for u in battle.in_zone(zone, unit.side) if not u.decoy and u.can_act]
        theirs = [r for r in (self.roller(battle, e) for e in enemies if e.can_act)
                  if r is not None]
        leaping = [r for r in (self.roller(battle, u) for u in friends) if r is not None]
        walking = [r for r in (self.roller(battle, u, jump=False) for u in friends)
                   if r is not None]
        gain = contest(leaping, theirs)[0] - contest(walking, theirs)[0]
        if gain < 0.03:
            return False
        room = self.rating(battle, unit) - unit.heat
        need = sum(w.weapon.heat for w in unit.live_weapons() if not w.weapon.is_small)
        free_heat = unit.skill("Ice Man") and not unit.ice_man_used
        return free_heat or room - 2 >= need or gain >= 0.15

    # ---- combat ------------------------------------------------------------------------

    def range_choice(self, battle: Battle, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        """The band with the best expected exchange, looking one step ahead (worth dealt
        minus worth taken, from every unit's best fire at that band), plus what getting out
        is worth when the side has a reason to leave: breaking contact (at Long) earns all
        of it, opening the range toward Long a share."""
        self._know(battle)
        band = battle.band_of(zone)
        mine = [u for u in battle.in_zone(zone, side) if not u.decoy]
        theirs = battle.enemies_in(zone, side)
        clock = self.clock(battle, side)
        leave = self.leave_value(battle, side, zone)
        nets = {b: self._net(battle, mine, theirs, b, False, clock) for b in BANDS}
        doubled = self._net(battle, mine, theirs, band, True, clock) if \
            battle.terrain_to_hit(zone) else None
        slippery = self.enemy_wants_out(battle, side, zone)
        index = BANDS.index(band)
        toward_long = {Band.SHORT: 0.0, Band.MEDIUM: 0.2, Band.LONG: 0.5}
        win, tie = self.roll_odds(battle, mine, theirs)

        def future(b: Band) -> float:
            """Next turn: we pick the best band near ``b`` if we win the roll, the enemy
            the worst for us if it wins, and a tie leaves ``b``."""
            near = [nets[x] for x in _near(b)]
            return win * max(near) + tie * nets[b] + (1 - win - tie) * min(near)

        scores: dict[RangeChoice, float] = {}
        for choice in options:
            if choice is RangeChoice.BREAK:
                # No fire this turn; worth it to get away, or to stop an exchange we lose
                # while time is on our side.
                if leave > 0 or (clock > 0 and not slippery):
                    scores[choice] = leave
                continue
            if choice is RangeChoice.DOUBLE:
                if doubled is not None:
                    scores[choice] = doubled + LOOKAHEAD * future(band) + leave * toward_long[band]
                continue
            new = BANDS[index + _STEP[choice]]
            value = nets[new] + LOOKAHEAD * future(new)
            value += leave * toward_long[new]
            if slippery and new is Band.LONG:
                value -= 2.0 + abs(value) * 0.5
            scores[choice] = value
        if not scores:
            return RangeChoice.STAY
        return max(scores, key=lambda c: (scores[c], c is RangeChoice.STAY, c.value))

    def roller(self, battle: Battle, unit: Unit,
               jump: bool = True) -> tuple[int, int, float] | None:
        """A unit's movement roll (R6.2): dice, modifier, chance it acts (Jump Jets used
        when fitted, unless ``jump`` is false)."""
        if not (unit.mobile or unit.is_infantry):
            return None
        acts = 1 / 3 if unit.wounded else 1.0
        if unit.is_infantry:
            return 1, 0, acts
        dice = unit.move.dice
        mod = unit.move.bonus - unit.legs
        terrain = battle.catalog.terrain_named(battle.scenario.terrain_of(unit.zone or 5)).move
        if jump and "Jump Jets" in self.systems(unit):
            dice += 1
        elif not unit.ignores_terrain_movement:
            mod += terrain
        if unit.pilot is not None:
            mod += unit.pilot.level.move
            if unit.pilot.has("Maneuver"):
                mod += 2
            if unit.pilot.familiarity is not None and unit.pilot.familiarity is unit.size:
                mod += 1
        if "Servo Boosters" in self.systems(unit):
            mod += 1
        return dice, mod, acts

    def roll_odds(self, battle: Battle, mine: Sequence[Unit],
                  theirs: Sequence[Unit]) -> tuple[float, float]:
        """Our chance to win the next movement roll in a zone, and to tie it."""
        a = [r for r in (self.roller(battle, u) for u in mine) if r is not None]
        b = [r for r in (self.roller(battle, u) for u in theirs) if r is not None]
        return contest(a, b)

    def _net(self, battle: Battle, mine: Sequence[Unit], theirs: Sequence[Unit],
             band: Band, doubled: bool, clock: int) -> float:
        """Worth we expect to deal minus worth we expect to take at ``band``."""
        dealt = 0.0
        for u in mine:
            best = 0.0
            for t in theirs:
                if t.is_infantry and not t.detected:
                    continue
                best = max(best, self.quick(battle, u, t, band) * self.hit_worth(t))
            dealt += best
        taken = 0.0
        for e in theirs:
            best = 0.0
            for u in mine:
                if u.hidden:
                    continue
                best = max(best, self.quick(battle, e, u, band, doubled) * self.hit_worth(u))
            taken += best
        return dealt * self.urgency(battle, clock) - taken

    @staticmethod
    def urgency(battle: Battle, clock: int) -> float:
        """How much damage dealt counts against damage taken: more when waiting loses, and
        the more so as the turns run out (on the last turn only damage dealt counts); less
        when waiting wins."""
        if clock > 0:
            return 0.8
        if clock == 0:
            return 1.0
        left = battle.scenario.turn_limit - battle.turn
        if left <= 0:
            return 50.0
        return 1.3 + 3.0 / left

    def targets(self, battle: Battle, unit: Unit, candidates: list[Unit],
                limit: int) -> list[Unit]:
        """Focus fire: the targets where this unit's best plan adds the most worth, given
        the hits the side's other units are already expected to land this turn."""
        self._know(battle)
        if unit.hidden and self.stay_hidden(battle, unit):
            return []
        band = battle.band_of(unit.zone or 5)
        key = (battle.turn, unit.zone or 0, unit.side)
        assigned = self._assigned.setdefault(key, {})
        scored = []
        intent = self.intent(battle, unit.side)
        group = intent.hunt_group or intent.after_group
        for t in candidates:
            value, _, hits = self.plan(battle, unit, [t], band, assigned)
            if group and t.group == group:
                value *= 1.5
            scored.append((value, t.id, t, hits))
        scored.sort(key=lambda s: (-s[0], s[1]))
        if not scored:
            return []
        chosen = [s[2] for s in scored[:limit] if s[0] > 0] or [scored[0][2]]
        hits = scored[0][3]
        if len(chosen) > 1:
            # A second target costs nothing (and takes the shots if the first is destroyed
            # before this unit fires), except a Targeting Array's single-target bonus.
            together, _, both = self.plan(battle, unit, chosen, band, assigned)
            if "Targeting Array" in self.systems(unit) and scored[0][0] >= together:
                chosen = chosen[:1]
            else:
                hits = both
        for tid, h in hits.items():
            assigned[tid] = assigned.get(tid, 0.0) + h
        return chosen

    def fire_plan(self, battle: Battle, unit: Unit, targets: list[Unit],
                  band: Band) -> list[tuple[WeaponSlot, Unit]]:
        self._know(battle)
        live = [t for t in targets if not t.doomed]
        if not live:
            return []
        _, plan, _ = self.plan(battle, unit, live, band, single=len(targets) == 1)
        return plan

    def dodge(self, battle: Battle, unit: Unit, weapon: Weapon) -> bool:
        """Dodge a hit that would likely get through the armor, or could finish the Mek,
        when the extra heat does not cost a shot."""
        self._know(battle)
        fail = save_fails(unit, weapon)
        if unit.remaining <= 1 or fail >= 0.5:
            return True
        room = self.rating(battle, unit) - unit.heat
        return fail >= 0.3 or room >= 1

    def stay_hidden(self, battle: Battle, unit: Unit) -> bool:
        """A hidden Mek stays hidden (unseen, and never a target) on a zone its side must
        hold, deny or be in, or anywhere when the side must keep units."""
        return (unit.zone or 0) in self.held_zones(battle, unit.side) or bool(
            self.intent(battle, unit.side).keep)

    def held_zones(self, battle: Battle, side: Side) -> list[int]:
        """Zones the side must hold, deny or be in (and the zone of a set-up group the enemy
        must take): there a hidden unit counts as present. (Not an exit zone: only units the
        enemy can see stop it leaving.)"""
        intent = self.intent(battle, side)
        held = intent.deny + intent.goto
        group = _group_zone(battle, intent.deny_group)
        if group is not None:
            held.append(group)
        return held

    def reveal(self, battle: Battle, unit: Unit) -> bool:
        self._know(battle)
        return not self.stay_hidden(battle, unit)

    # ---- support -------------------------------------------------------------------------

    def support(self, battle: Battle, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        self._know(battle)
        assets = battle.assets[side]
        uses: list[tuple[str, object]] = []
        last = battle.turn >= battle.scenario.turn_limit - 1
        if moment == "turn start" and "Repair Truck" in assets:
            hurt = [u for u in battle.side_units(side) if u.on_map and u.is_mek
                    and (u.hits or u.legs or any(w.destroyed for w in u.weapons))]
            if hurt:
                def gain(u: Unit) -> float:
                    return base_worth(u) * (u.hits / u.max_hits + 0.15 * u.legs
                                            + 0.5 * (1 - firepower_share(u)))
                best = max(hurt, key=lambda u: (gain(u), u.id))
                if gain(best) >= 0.3 * base_worth(best) or last or best.remaining == 1:
                    uses.append(("Repair Truck", best.id))
        if moment == "combat":
            # Both strikes need a unit the side has targeted or identified (R4.3).
            known_ids = battle.known[side] | battle.identified[side]
            known = [battle.unit(uid) for uid in sorted(known_ids)]
            known = [u for u in known if u.on_map and not u.hidden and u.side is not side
                     and (not u.is_infantry or u.detected)]
            for asset, weapon_name in (("Support Fire", "Howitzer"), ("Air Strike", "Missile")):
                if asset not in assets:
                    continue
                weapon = battle.catalog.weapon(weapon_name)
                best_t = None
                best_v = 0.0
                for t in known:
                    b = battle.band_of(t.zone or 0)
                    ev = self.shot(battle, None, weapon, t, b)
                    v = ev * self.hit_worth(t)
                    if v > best_v:
                        best_t, best_v = t, v
                if best_t is None:
                    continue
                finishing = best_t.remaining <= 1
                if finishing or best_v >= 2.5 or last or (battle.turn >= 3 and best_v >= 1.2):
                    uses.append((asset, best_t.id))
            if "Recon Drone" in assets and zone is not None:
                hidden_inf = [u for u in battle.enemies_in(zone, side)
                              if u.is_infantry and not u.detected]
                unknown = [u for u in battle.enemies_in(zone, side)
                           if u.id not in battle.identified[side] and u.is_mek and not
                           u.points]
                if hidden_inf or unknown:
                    uses.append(("Recon Drone", zone))
        return uses

    def ambush(self, battle: Battle, side: Side, zone: int) -> str | None:
        """Ambush at once, with the Mek that does the most here: the free attack is its fire
        made before the enemy's (R4.3), and only a Mek's first fight allows it, so waiting
        gains nothing."""
        self._know(battle)
        band = battle.band_of(zone)
        meks = [u for u in battle.in_zone(zone, side) if u.is_mek and not u.decoy
                and u.can_act and not u.hidden and not u.fought]
        enemies = [e for e in battle.enemies_in(zone, side)
                   if not e.is_infantry or e.detected]
        best = None
        best_v = 0.0
        for m in meks:
            here = max((self.quick(battle, m, e, band) * self.hit_worth(e) for e in enemies),
                       default=0.0)
            if here > best_v:
                best, best_v = m, here
        return best.id if best is not None else None

    def dismount(self, battle: Battle, apc: Unit) -> bool:
        self._know(battle)
        intent = self.intent(battle, apc.side)
        zone = apc.zone or 0
        return bool(battle.enemies_in(zone, apc.side)) or zone in intent.deny + intent.goto

    def hawkeye(self, battle: Battle, unit: Unit, candidates: list[Unit]) -> Unit | None:
        """Hawkeye: identify what is worth knowing: a contact in the pilot's zone that shows
        no weapons (it may be a decoy soaking up fire), a masked unit there (its ID lets Data
        Link missiles fire), else the enemy there worth most; then the same next door."""
        self._know(battle)
        if not candidates:
            return None

        def rank(e: Unit) -> tuple[bool, bool, bool, float, str]:
            return (e.zone == unit.zone, not e.weapons and not e.is_infantry,
                    "Masking & Insulation" in self.systems(e), self.worth(e), e.id)
        return max(candidates, key=rank)

    def commando(self, battle: Battle, unit: Unit,
                 enemies: list[Unit]) -> tuple[str, Unit] | None:
        self._know(battle)
        real = [e for e in enemies if e.weapons]
        if not real:
            unknown = [e for e in enemies if e.id not in battle.identified[unit.side]]
            return ("identify", unknown[0]) if unknown else None
        return ("mark", max(real, key=lambda e: (self.hit_worth(e), e.id)))



# ---- movement planning ----------------------------------------------------------------------

_STEP = {RangeChoice.CLOSE: -1, RangeChoice.OPEN: 1, RangeChoice.CLOSE_TWO: -2,
         RangeChoice.OPEN_TWO: 2, RangeChoice.STAY: 0, RangeChoice.DOUBLE: 0,
         RangeChoice.BREAK: 0}


def _near(band: Band) -> list[Band]:
    i = BANDS.index(band)
    return [BANDS[j] for j in (i - 1, i, i + 1) if 0 <= j < len(BANDS)]


def _path(battle: Battle, start: int, goal: int, cost: dict[int, float] | None = None
          ) -> list[int]:
    """The cheapest path of zones from ``start`` to ``goal`` (both included): each step
    costs 1 plus ``cost`` of the zone entered."""
    if start == goal:
        return [start]
    cost = cost or {}
    best = {start: 0.0}
    prev: dict[int, int] = {}
    todo = [(0.0, start)]
    while todo:
        todo.sort()
        d, zone = todo.pop(0)
        if zone == goal:
            break
        if d > best.get(zone, 1e9):
            continue
        for nxt in battle.adjacent(zone):
            nd = d + 1 + (cost.get(nxt, 0.0) if nxt != goal else 0.0)
            if nd < best.get(nxt, 1e9) - 1e-9:
                best[nxt] = nd
                prev[nxt] = zone
                todo.append((nd, nxt))
    if goal not in prev:
        return []
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return path[::-1]


def _exit_zones(battle: Battle, side: Side, condition: ExitMap) -> list[int]:
    allowed = {z for r in battle.scenario.side(side).exits if r.edge is condition.edge
               for z in r.zones}
    return sorted(z for z in condition.zones if z in allowed) or sorted(allowed)


@dataclass(frozen=True)
class Task:
    """What a unit is doing: ``exit`` (leave across ``edge`` from ``zone``), ``hold`` (be
    in ``zone`` and stay), ``run`` (slip into the goal ``zone``), ``keep`` (stay out of
    harm's way), or ``main`` (the main body: fight at ``zone``, or wait when None)."""

    role: str
    zone: int | None = None
    edge: Edge | None = None


class _Tasks:
    """Hands out the tasks of one side."""

    def __init__(self, bot: Bot, battle: Battle, side: Side) -> None:
        self.bot = bot
        self.battle = battle
        self.side = side
        self.intent = bot.intent(battle, side)
        self.clock = bot.clock(battle, side)
        self.turns_left = battle.scenario.turn_limit - battle.turn + (
            0 if battle.turn else 1)
        self.mine = [u for u in battle.side_units(side) if u.on_map and not u.decoy
                     and u.mobile]
        self.foes = [u for u in battle.side_units(side.enemy) if u.on_map and not u.hidden]
        mine_zones = {u.zone for u in battle.side_units(side) if u.on_map and not u.hidden}
        self.free_foes = [f for f in self.foes if f.mobile
                          and f.zone not in mine_zones]
        self.out: dict[str, Task] = {}

    def assign(self) -> dict[str, Task]:
        left = list(self.mine)
        left = self._exits(left)
        left = self._keeper(left)
        left = self._holders(left)
        left = self._runner(left)
        left = self._evaders(left)
        target = self._main_target(left)
        for unit in left:
            self.out[unit.id] = Task("main", target)
        return self.out

    def _evaders(self, left: list[Unit]) -> list[Unit]:
        """When a draw is the best the side can hope for (neither side wins by waiting) and
        its whole force is clearly outmatched, the units that are not stuck in a fight keep
        out of the enemy's reach: a draw is better than a loss."""
        battle = self.battle
        if self.clock != 0 or not left or not self.foes:
            return left
        mine = [u for u in battle.side_units(self.side) if u.on_map and not u.decoy]
        foes = [f for f in self.foes if f.weapons]
        if not foes or self.bot.ratio(battle, mine, foes) >= EVADE_BELOW:
            return left
        out = []
        for unit in left:
            if battle.enemies_in(unit.zone or 0, self.side):
                out.append(unit)  # stuck: it fights (and breaks off when it can)
                continue
            self.out[unit.id] = Task("evade", self.refuge(unit))
        return out

    def refuge(self, unit: Unit) -> int:
        """The zone within a step that is furthest from every free enemy unit."""
        battle = self.battle
        here = unit.zone or 5
        hunters = [f for f in self.free_foes if f.weapons]
        foe_zones = {f.zone for f in self.foes}

        def score(z: int) -> tuple[bool, int, int, bool, int]:
            near = min((distance(battle, z, f.zone or 5) for f in hunters), default=9)
            room = sum(1 for a in battle.adjacent(z) if a not in foe_zones)
            return (z not in foe_zones, min(near, 2), room, z == here, -z)
        return max([here, *battle.adjacent(here)], key=score)

    def wanted_exit(self) -> tuple[ExitMap | None, int]:
        """The exit the side wants, and how many more units it needs to take it."""
        intent = self.intent
        if not intent.exits:
            return None, 0
        cond = intent.exits[0]
        force = [u for u in self.battle.side_units(self.side) if not u.decoy
                 and (cond.kind is None or u.kind is cond.kind)]
        gone = [u for u in force if u.exited_turn is not None and u.exit_edge is cond.edge]
        if cond.of is Measure.UNITS:
            total = float(len(force))
            have = float(len(gone))
        else:
            total = float(sum(u.points for u in force))
            have = float(sum(u.points for u in gone))
        need = float(cond.count) if cond.count is not None else \
            (cond.percent or 0) * total / 100
        if have >= need:
            return None, 0
        missing = need - have
        return cond, int(missing + 0.999) if cond.of is Measure.UNITS else len(force)

    def _exits(self, left: list[Unit]) -> list[Unit]:
        cond, count = self.wanted_exit()
        if cond is None:
            return left
        zones = _exit_zones(self.battle, self.side, cond)
        eligible = [u for u in left if cond.kind is None or u.kind is cond.kind]
        intent = self.intent
        dist = {u.id: min(distance(self.battle, u.zone or 5, z) for z in zones)
                for u in eligible}
        if intent.hunt:
            enemies_left = [u for u in self.battle.side_units(self.side.enemy) if u.alive
                            and _real(u) and (intent.hunt_kind is None
                                                 or u.kind is intent.hunt_kind)]
            runners = sorted(eligible, key=lambda u: (dist[u.id], -u.remaining, u.id))
            if enemies_left:
                runners = runners[:count]
                if not any(self.turns_left <= dist[u.id] + 2 for u in runners):
                    return left
            chosen = runners
        else:
            chosen = eligible
        for unit in chosen:
            goal = min(zones, key=lambda z: (distance(self.battle, unit.zone or 5, z), z))
            self.out[unit.id] = Task("exit", goal, cond.edge)
        return [u for u in left if u not in chosen]

    def hold_zone(self) -> int | None:
        intent = self.intent
        battle = self.battle
        if intent.deny:
            return intent.deny[0]
        group_zone = _group_zone(battle, intent.deny_group)
        if group_zone is not None:
            return group_zone
        if intent.be_in:
            return intent.be_in[0]
        for e in intent.enemy_exits:
            zones = _exit_zones(battle, self.side.enemy, e)
            if len(zones) == 1:
                return zones[0]
        ready = intent.after_group is None or _group_gone(battle, intent.after_group)
        if intent.hold and ready:
            return intent.hold[0]
        gz = _group_zone(battle, intent.hold_group)
        if gz is not None and ready:
            return gz
        return None

    def _holders(self, left: list[Unit]) -> list[Unit]:
        zone = self.hold_zone()
        if zone is None:
            return left
        for unit in left:
            self.out[unit.id] = Task("hold", zone)
        return []

    def _keeper(self, left: list[Unit]) -> list[Unit]:
        """A side that must keep a unit while stopping the enemy from leaving keeps one
        unit out of harm's way; the rest pin the enemy."""
        intent = self.intent
        if not (intent.keep and intent.enemy_exits) or len(left) < 1 or not self.foes:
            return left
        key = f"keeper:{self.side.value}"
        keeper = next((u for u in left if u.id == self.bot._roles.get(key)), None)
        if keeper is None:
            engaged = {u.id for u in left if self.battle.enemies_in(u.zone or 0, self.side)}
            pool = [u for u in left if u.id not in engaged] or left
            keeper = max(pool, key=lambda u: (self._far(u.zone or 5), u.remaining, u.id))
            self.bot._roles[key] = keeper.id
        self.out[keeper.id] = Task("keep", self.safest(keeper))
        return [u for u in left if u is not keeper]

    def _far(self, zone: int) -> int:
        return min((distance(self.battle, zone, f.zone or 5) for f in self.foes), default=9)

    def safest(self, unit: Unit) -> int:
        here = unit.zone or 5
        options = [here, *self.battle.adjacent(here)]
        foe_zones = {f.zone for f in self.foes}
        return max(options, key=lambda z: (z not in foe_zones, self._far(z), z == here, -z))

    def _runner(self, left: list[Unit]) -> list[Unit]:
        """An empty goal zone whose occupation wins: one unit slips into it."""
        battle = self.battle
        goals = [z for z in self.intent.occupy
                 if not any(f.zone == z for f in self.foes)]
        if not goals or not left:
            return left
        goal = goals[0]
        key = f"runner:{self.side.value}"
        runner = next((u for u in left if u.id == self.bot._roles.get(key)), None)
        if runner is None:
            def fitness(u: Unit) -> tuple[float, str]:
                dist = distance(battle, u.zone or 5, goal)
                speed = 3.5 * u.move.dice + u.move.bonus
                return (dist * 3 - speed * 0.3 + self.bot.worth(u) * 0.05, u.id)
            runner = min(left, key=fitness)
            self.bot._roles[key] = runner.id
        self.out[runner.id] = Task("run", goal)
        return [u for u in left if u is not runner]

    def _main_target(self, left: list[Unit]) -> int | None:
        battle = self.battle
        intent = self.intent
        if not left:
            return None
        group = intent.hunt_group or intent.after_group
        group_left = [u for u in self.foes if group and u.group == group]
        if group_left:
            zones = sorted({u.zone or 5 for u in group_left})
            return min(zones, key=lambda z: (self._dist(left, z), z))
        held = [z for z in intent.occupy + intent.clear
                if any(f.zone == z for f in self.foes)]
        if held:
            return min(held, key=lambda z: (self._dist(left, z), z))
        runner = next((t for t in self.out.values() if t.role == "run"), None)
        if runner is not None and runner.zone is not None and self.free_foes:
            # Pin the free enemy that is closest to the runner's goal.
            goal = runner.zone
            nearest = min(self.free_foes, key=lambda f: (
                distance(battle, f.zone or 5, goal), -self.bot.worth(f), f.id))
            return nearest.zone
        # Friends stuck in a fight: reinforce where it helps.
        engaged = sorted({u.zone or 0 for u in battle.side_units(self.side)
                          if u.on_map and not u.decoy and battle.enemies_in(u.zone or 0,
                                                                            self.side)})
        best: tuple[float, int] | None = None
        for zone in engaged:
            here = [u for u in battle.in_zone(zone, self.side) if not u.decoy]
            helpers = [u for u in left if u.zone != zone
                       and distance(battle, u.zone or 5, zone) <= 2]
            if not helpers:
                continue
            foes = battle.enemies_in(zone, self.side)
            before = self.bot.ratio(battle, here, foes)
            after = self.bot.ratio(battle, here + helpers, foes)
            if after >= 0.6 and after > before * 1.15:
                score = (after - before) * sum(self.bot.worth(u) for u in here)
                if best is None or score > best[0]:
                    best = (score, zone)
        if best is not None:
            return best[1]
        if intent.hunt or intent.enemy_exits or intent.occupy or intent.clear or (
                intent.hold or intent.hold_group):
            candidates = []
            for zone in sorted({f.zone or 5 for f in self.foes}):
                real = [u for u in battle.enemies_in(zone, self.side) if u.weapons or
                        u.is_infantry]
                if not real:
                    continue
                ratio = self.bot.ratio(battle, left, real)
                value = sum(self.bot.worth(u) for u in real)
                candidates.append((-(min(ratio, 3.0) * value) + self._dist(left, zone) * 3,
                                   zone))
            if candidates:
                best_zone = min(candidates)[1]
                if self.clock == 0 and battle.turn <= WAIT_TURNS and \
                        self.bot.ratio(battle, left, self.foes) < ENGAGE_AT:
                    # Neither side gains by waiting and we are not the stronger: let the
                    # enemy come to us (into our minefield, to our decoy and hidden Mek).
                    return None
                return best_zone
        return None

    def _dist(self, units: Sequence[Unit], zone: int) -> float:
        if not units:
            return 0.0
        return sum(distance(self.battle, u.zone or 5, zone) for u in units) / len(units)


def _real(unit: Unit) -> bool:
    """Whether an enemy unit looks like a real one (a Decoy's contact shows no weapons and
    is worth nothing; the bot never reads the enemy's hidden facts)."""
    return bool(unit.weapons or unit.is_infantry or unit.points or unit.carries_infantry)


def _group_gone(battle: Battle, group: str) -> bool:
    members = [u for u in battle.units if u.group == group]
    return bool(members) and all(not u.alive for u in members)


class _Planner:
    """One movement phase of one side: every free unit's order."""

    def __init__(self, bot: Bot, battle: Battle, side: Side, second: bool) -> None:
        self.bot = bot
        self.battle = battle
        self.side = side
        self.second = second
        self.intent = bot.intent(battle, side)
        self.clock = bot.clock(battle, side)
        self.tasks = bot.tasks(battle, side)
        self.mine = [u for u in battle.side_units(side) if u.on_map and not u.decoy]
        self.foes = [u for u in battle.side_units(side.enemy) if u.on_map and not u.hidden]
        self.foes_in: dict[int, list[Unit]] = {}
        for u in self.foes:
            self.foes_in.setdefault(u.zone or 0, []).append(u)
        mine_zones = {u.zone for u in self.mine if not u.hidden}
        self.free_foes = [f for f in self.foes if f.mobile
                          and f.zone not in mine_zones]
        self.turns_left = battle.scenario.turn_limit - battle.turn
        # Every unit may make the second movement, whether or not it moved this turn.
        self.free = [u for u in self.mine if u.mobile and u.can_act and (second or not u.moved)
                     and battle.can_leave(u) and not (u.hidden and bot.stay_hidden(battle, u))]
        self.out: dict[str, Order] = {}
        self.dest: dict[str, int] = {u.id: u.zone or 0 for u in self.mine}

    # ---- helpers

    def danger(self) -> dict[int, float]:
        """What stepping into each zone risks: enemy units there, and free enemy units
        next to it (which may come in)."""
        cost: dict[int, float] = {}
        for f in self.foes:
            if not f.weapons and not f.is_infantry:
                continue
            z = f.zone or 5
            cost[z] = cost.get(z, 0.0) + 2.5
        for f in self.free_foes:
            if not f.weapons:
                continue
            for z in self.battle.adjacent(f.zone or 5):
                cost[z] = cost.get(z, 0.0) + 0.6
        return cost

    def can_enter(self, zone: int) -> bool:
        return not (self.second and self.battle.enemies_in(zone, self.side))

    def move(self, unit: Unit, where: Order) -> None:
        if where is None or where == unit.zone:
            return
        if isinstance(where, int):
            if not self.can_enter(where):
                return
            self.dest[unit.id] = where
        self.out[unit.id] = where

    def threshold(self) -> float:
        """The force ratio needed to start a fight: lower when time runs against us."""
        if self.clock < 0:
            return 0.9 if self.turns_left > 4 else 0.6 if self.turns_left > 2 else 0.0
        if self.clock > 0:
            return 1.6
        return ENGAGE_AT

    def last_mover(self) -> bool:
        """Whether no enemy movement can follow ours into a zone this turn."""
        if self.second:
            return True
        first = self.bot.first_mover(self.battle)
        return first is not None and first is not self.side

    # ---- the phase

    def orders(self) -> dict[str, Order]:
        if not self.free:
            return {}
        self._take_goals()
        groups: dict[tuple[str, int | None], list[Unit]] = {}
        for unit in self.free:
            if unit.id in self.out:
                continue
            task = self.tasks.get(unit.id, Task("main"))
            if task.role == "exit" and unit.zone == task.zone and task.edge is not None:
                self.out[unit.id] = task.edge
                self.dest[unit.id] = 0
            elif task.role == "exit":
                groups.setdefault(("hold", task.zone), []).append(unit)
            elif task.role == "run":
                self._run(unit, task)
            elif task.role in ("keep", "evade"):
                if task.zone is not None and task.zone != unit.zone:
                    nxt = _path(self.battle, unit.zone or 5, task.zone, self.danger())
                    if len(nxt) > 1 and not self.foes_in.get(nxt[1]):
                        self.move(unit, nxt[1])
            else:
                groups.setdefault((task.role, task.zone), []).append(unit)
        for (role, zone), units in sorted(groups.items(), key=lambda kv: (kv[0][0],
                                                                         kv[0][1] or 0)):
            if zone is None:
                continue
            self._advance(units, zone, through=role == "hold")
        self._dig()
        if self.second:
            self._second_filter()
        return self.out

    def _run(self, unit: Unit, task: Task) -> None:
        """The runner heads for the goal by the safest way, stepping only where no free
        enemy unit can fall on it (unless time runs out), and enters the goal when nothing
        can follow it in before the turn ends."""
        goal = task.zone
        if goal is None or unit.zone == goal:
            return
        battle = self.battle
        cost = self.danger()
        path = _path(battle, unit.zone or 5, goal, cost)
        if len(path) < 2:
            return
        nxt = path[1]
        hurry = self.turns_left <= len(path)
        if nxt == goal:
            contest = [f for f in self.free_foes if f.weapons
                       and distance(battle, f.zone or 5, goal) <= 1]
            if contest and not self.last_mover() and not hurry:
                return  # wait next to the goal until nothing can follow us in
            self.move(unit, nxt)
            return
        if self.foes_in.get(nxt):
            if self.second or not hurry:
                return  # a runner caught in a fight is a runner no more
            self.move(unit, nxt)
            return
        exposed = [f for f in self.free_foes if f.weapons
                   and distance(battle, f.zone or 5, nxt) <= 1]
        here_exposed = [f for f in self.free_foes if f.weapons
                        and distance(battle, f.zone or 5, unit.zone or 5) <= 1]
        if exposed and not hurry and len(exposed) >= len(here_exposed):
            return  # let the main body pin them first
        self.move(unit, nxt)

    def _take_goals(self) -> None:
        """Any free unit next to an empty goal zone whose occupation wins steps in when no
        enemy movement can follow it this turn."""
        battle = self.battle
        if not self.last_mover():
            return
        for goal in self.intent.occupy:
            if self.foes_in.get(goal) or any(u.zone == goal for u in self.mine):
                continue
            near = [u for u in self.free if u.id not in self.out
                    and goal in battle.adjacent(u.zone or 0)]
            if near:
                unit = min(near, key=lambda u: (self.bot.worth(u), u.id))
                self.move(unit, goal)
                return

    def _advance(self, units: list[Unit], goal: int, through: bool) -> None:
        """Move ``units`` a step toward ``goal``: around enemy-held zones when that costs
        little time, through them when the force is strong enough; a step into an enemy
        zone is taken together, and only with the ratio the clock allows."""
        battle = self.battle
        cost = self.danger()
        steps: dict[str, int] = {}
        for unit in units:
            start = unit.zone or 5
            if start == goal:
                continue
            direct = _path(battle, start, goal)
            around = _path(battle, start, goal, cost)
            path = direct
            if around and direct and around != direct:
                first_fight = next((z for z in direct[1:-1] if self.foes_in.get(z)), None)
                slack = len(around) - len(direct)
                if first_fight is not None:
                    ratio = self.bot.ratio(battle, units, self.foes_in[first_fight])
                    time_ok = self.turns_left >= len(around) + 1
                    if ratio < self.threshold() * 1.5 and time_ok and slack <= 2:
                        path = around
                elif slack == 0:
                    path = around
            if len(path) > 1:
                steps[unit.id] = path[1]
        by_zone: dict[int, list[Unit]] = {}
        for unit in units:
            if unit.id in steps:
                by_zone.setdefault(steps[unit.id], []).append(unit)
        for zone, movers in sorted(by_zone.items()):
            foes = [u for u in self.foes_in.get(zone, []) if not u.decoy]
            if not foes:
                if through or zone == goal or self._safe_step(movers, zone):
                    for unit in movers:
                        self.move(unit, zone)
                continue
            if self.second:
                continue
            there = [u for u in battle.in_zone(zone, self.side)
                     if not u.decoy and u not in movers]
            together = movers + there
            ratio = self.bot.ratio(battle, together, foes)
            need = self.threshold()
            if through:
                need *= 0.6
            if there:
                # Friends are fighting there: reinforce when it clearly helps them.
                alone = self.bot.ratio(battle, there, foes)
                need = min(need, max(0.35, alone * 1.3))
            if ratio >= need:
                for unit in movers:
                    self.move(unit, zone)

    def _safe_step(self, movers: list[Unit], zone: int) -> bool:
        """A step into an empty zone next to enemies: fine unless the enemy next to it could
        fall on the movers with much more."""
        if self.clock < 0:
            return True
        threats = [f for z in self.battle.adjacent(zone) for f in self.foes_in.get(z, [])
                   if f in self.free_foes and f.weapons]
        if not threats:
            return True
        group = movers + [u for u in self.mine if self.dest.get(u.id) == zone
                          and u not in movers]
        return self.bot.ratio(self.battle, group, threats) >= 0.7

    def _dig(self) -> None:
        battle = self.battle
        if self.second or "Digging In" not in battle.assets[self.side]:
            return
        best: Unit | None = None
        for unit in self.mine:
            if not unit.is_mek or unit.id in self.out or unit.moved or not unit.can_act:
                continue
            zone = unit.zone or 5
            if not battle.terrain_to_hit(zone):
                continue
            near = [f for f in self.foes if distance(battle, f.zone or 5, zone) <= 1]
            if not near:
                continue
            if best is None or self.bot.worth(unit) > self.bot.worth(best):
                best = unit
        if best is not None:
            self.out[best.id] = "dig"

    def _second_filter(self) -> None:
        """Second movement costs a Mek 2 heat next turn: keep the moves that serve a goal
        (a goal zone, an exit, the zone to hold, getting away), drop the ones that only
        bring a Mek next to a fight it would then fight hot."""
        battle = self.battle
        for uid, where in list(self.out.items()):
            unit = battle.unit(uid)
            task = self.tasks.get(uid, Task("main"))
            if not isinstance(where, int):
                if not isinstance(where, Edge):
                    del self.out[uid]
                continue
            if task.role in ("run", "exit", "keep", "hold", "evade") or not unit.is_mek:
                continue
            near = any(distance(battle, f.zone or 5, where) <= 1 for f in self.foes)
            room = self.bot.rating(battle, unit) - sum(
                w.weapon.heat for w in unit.live_weapons() if not w.weapon.is_small)
            if near and room < 2:
                del self.out[uid]


# ---- between games: muster and skills ------------------------------------------------------

def design_profile(design: Design, catalog: Catalog) -> tuple[float, float]:
    """A design's offence (expected damaging hits a turn against an average target, over
    the range bands, within its heat rating) and toughness (Hits it can take, counting
    armor saves, Jammer and armor systems)."""
    chassis = catalog.for_size(design.size)
    weapons = [catalog.weapon(w) for w in design.weapons]
    systems = [catalog.system(s).name for s in design.systems]
    rating = chassis.heat + systems.count("Heat Sink")
    fail = 2.5 / 6  # an average target saves on 3.5
    bonus = 1 if "Targeting Array" in systems else 0
    offence = 0.0
    for band in BANDS:
        evs = []
        for w in weapons:
            need = w.to_hit_at(band)
            if need is None or w.is_small:
                continue
            p = chance(need, bonus)
            if w.reroll_miss:
                p = 1 - (1 - p) ** 2
            evs.append((w.heat, w.dice * p * fail * (1.15 if w.save_modifier else 1.0)))
        evs.sort(key=lambda he: -he[1] / max(he[0], 0.5))
        heat = 0
        total = 0.0
        for h, ev in evs:
            if heat + h <= rating:
                heat += h
                total += ev
            else:
                excess = heat + h - rating
                p_ok = max(0.0, (6 - excess) / 6)
                if p_ok > 0.6:
                    heat += h
                    total += ev * p_ok - (1 - p_ok) * 0.3
        offence += BAND_WEIGHT[band] * total
    small = sum(1 for w in weapons if w.is_small)
    offence += 0.05 * small
    fail_me = (chassis.armor - 1) / 6
    tough = chassis.hits / max(fail_me, 1 / 12)
    if "Jammer" in systems:
        tough *= 1.3
    if "Reactive Armor" in systems:
        tough *= 1.15
    if "BPC Armor" in systems:
        tough *= 1.15
    if "Space-Lam Armor" in systems:
        tough *= 1.15
    if "Spaul Liner" in systems:
        tough *= 1.1
    if "Point Defense" in systems or "Phalanx" in systems:
        tough *= 1.08
    if "Director" in systems:
        offence *= 1.05
    if "Jump Jets" in systems:
        offence *= 1.05
    return offence, tough


def force_strength(designs: Sequence[Design], catalog: Catalog,
                   profiles: dict[str, tuple[float, float]] | None = None) -> float:
    """A force's strength: its total offence times its total toughness (the square law)."""
    profiles = profiles if profiles is not None else {}
    offence = toughness = 0.0
    for d in designs:
        prof = profiles.get(d.name) or design_profile(d, catalog)
        offence += prof[0]
        toughness += prof[1]
    return offence * toughness


def _price(design: Design, catalog: Catalog, pricing: Pricing) -> int:
    return check_design(design, catalog).purchase_price(pricing)


def muster(budget: int, max_size: Size | None, composition: dict[Size, int] | None,
           catalog: Catalog | None = None, difficulty: str = "normal",
           pricing: Pricing = Pricing.PRINTED) -> list[Design]:
    """Stock designs for a force within ``budget``, ``max_size`` and ``composition``.

    ``hard`` finds the strongest force the budget buys (offence times toughness, summed
    over the force); ``normal`` shops for value, taking the design with the most strength
    per point while it fits; ``easy`` spends about 70% of the budget on the weaker half of
    the designs. Raises ``ValueError`` when no force fits.
    """
    catalog = catalog or load_catalog()
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    pool = [d for d in catalog.designs if max_size is None or d.size <= max_size]
    if composition:
        pool = [d for d in pool if d.size in composition]
    prices = {d.name: _price(d, catalog, pricing) for d in pool}
    pool = [d for d in pool if prices[d.name] <= budget]
    if not pool:
        raise ValueError("no stock design fits the budget and size limit")
    profiles = {d.name: design_profile(d, catalog) for d in pool}

    def per_point(d: Design) -> float:
        strength: float = force_strength([d], catalog, profiles) ** 0.5
        return strength / prices[d.name]

    limit = budget
    if difficulty == "easy":
        ranked = sorted(pool, key=lambda d: (per_point(d), d.name))
        weak = ranked[:max(1, (len(ranked) + 1) // 2)]
        if composition:
            sizes_needed = set(composition)
            for size in sizes_needed:
                if not any(d.size is size for d in weak):
                    weak += [d for d in ranked if d.size is size][:1]
        pool = weak
        limit = max(min(prices[d.name] for d in pool), int(budget * 0.7 + 0.5))
    forces = _forces(pool, prices, limit, composition)
    if not forces and difficulty == "easy":
        forces = _forces(pool, prices, budget, composition)
    if not forces and difficulty == "easy":
        pool = [d for d in catalog.designs if d.name in prices]
        forces = _forces(pool, prices, budget, composition)
    if not forces:
        raise ValueError("no force of stock designs fits the budget and the scenario's limits")

    def spent(f: Sequence[Design]) -> int:
        return sum(prices[d.name] for d in f)

    if difficulty == "normal":
        chosen = _value_pick(pool, prices, budget, composition, per_point)
        if chosen is None:
            chosen = max(forces, key=lambda f: (force_strength(f, catalog, profiles),
                                                -spent(f), [d.name for d in f]))
        return list(chosen)
    if difficulty == "easy":
        target = budget * 0.7

        def easy_key(f: Sequence[Design]) -> tuple[float, float, list[str]]:
            return (-abs(spent(f) - target), force_strength(f, catalog, profiles),
                    [d.name for d in f])
        picked: tuple[Design, ...] = max(forces, key=easy_key)
        return list(picked)
    best = max(forces, key=lambda f: (force_strength(f, catalog, profiles), -spent(f),
                                      [d.name for d in f]))
    return list(best)


def _forces(pool: Sequence[Design], prices: dict[str, int], budget: int,
            composition: dict[Size, int] | None) -> list[tuple[Design, ...]]:
    """Every multiset of designs from ``pool`` within ``budget`` (and of exactly the
    composition, when one is given)."""
    pool = sorted(pool, key=lambda d: (prices[d.name], d.name))
    out: list[tuple[Design, ...]] = []
    if composition:
        per_size = []
        for size, count in sorted(composition.items(), key=lambda sc: sc[0].rank):
            options = [d for d in pool if d.size is size]
            per_size.append(list(itertools.combinations_with_replacement(options, count)))
        for parts in itertools.product(*per_size):
            force = tuple(d for part in parts for d in part)
            if sum(prices[d.name] for d in force) <= budget:
                out.append(force)
        return out
    cheapest = min(prices[d.name] for d in pool)
    most = min(8, budget // max(cheapest, 1))

    def grow(start: int, left: int, chosen: list[Design]) -> None:
        if chosen:
            out.append(tuple(chosen))
        if len(chosen) >= most:
            return
        for i in range(start, len(pool)):
            price = prices[pool[i].name]
            if price > left:
                break
            chosen.append(pool[i])
            grow(i, left - price, chosen)
            chosen.pop()

    grow(0, budget, [])
    return out


def _value_pick(pool: Sequence[Design], prices: dict[str, int], budget: int,
                composition: dict[Size, int] | None,
                score: Callable[[Design], float]) -> tuple[Design, ...] | None:
    """Shop for value: again and again, the design with the most strength per point that
    still fits (leaving room for what the composition still needs)."""
    ranked = sorted(pool, key=lambda d: (-score(d), prices[d.name], d.name))
    chosen: list[Design] = []
    left = budget
    if composition:
        need = dict(composition)
        while any(need.values()):
            cheapest_rest = {s: min(prices[d.name] for d in pool if d.size is s)
                             for s, n in need.items() if n}
            pick = None
            for d in ranked:
                if not need.get(d.size):
                    continue
                reserve = sum(cheapest_rest[s] * (n - (1 if s is d.size else 0))
                              for s, n in need.items() if n)
                if prices[d.name] + reserve <= left:
                    pick = d
                    break
            if pick is None:
                return None
            chosen.append(pick)
            left -= prices[pick.name]
            need[pick.size] -= 1
        return tuple(chosen)
    while True:
        pick = next((d for d in ranked if prices[d.name] <= left), None)
        if pick is None or len(chosen) >= 8:
            break
        chosen.append(pick)
        left -= prices[pick.name]
    return tuple(chosen) if chosen else None


def choose_skill(held: Sequence[str], design: Design | None,
                 catalog: Catalog | None = None) -> str:
    """The next skill for a pilot, by the Mek it drives: Chassis Familiarity for a Mek
    whose weapons run hotter than its rating (the extra heat and movement), Maneuver for a
    short-ranged Mek that must win the range, the to-hit skill of its main weapon family
    where a +1 matters (not for 2+ lasers), Pinpoint Attack for heavy hitters, Quick Draw
    with a Director, Ice Man with Jump Jets; then the documented priority of
    ``meks.pilots.auto_skill``."""
    catalog = catalog or load_catalog()
    options = available_skills(held, catalog)
    if not options:
        raise ValueError("the pilot already holds every skill")
    if design is None:
        return auto_skill(held, design, catalog)
    chassis = catalog.for_size(design.size)
    weapons = [catalog.weapon(w) for w in design.weapons]
    systems = [catalog.system(s).name for s in design.systems]
    ranged = [w for w in weapons if not w.is_small]
    rating = chassis.heat + systems.count("Heat Sink")
    hot = sum(w.heat for w in ranged) > rating
    short = bool(ranged) and all(w.range is Band.SHORT for w in ranged)
    families: dict[Family, float] = {}
    for w in ranged:
        need = w.to_hit_at(w.range) or 4
        gain = (chance(need, 1) - chance(need)) * w.dice
        families[w.family] = families.get(w.family, 0.0) + gain
    main = max(families.items(), key=lambda fv: (fv[1], fv[0].value))[0] if families else None
    priority: list[str] = []
    if hot:
        priority.append(FAMILIARITY)
    if short or design.size in (Size.LIGHT, Size.MEDIUM):
        priority.append("Maneuver")
    if main is not None and families[main] >= 0.3:
        priority.append(SKILL_OF[main])
    if "Jump Jets" in systems:
        priority.append("Ice Man")
    if "Director" in systems:
        priority.append("Quick Draw")
    priority += ["Pinpoint Attack", "Damage Control"]
    if main is not None:
        priority.append(SKILL_OF[main])
    priority += ["Maneuver", FAMILIARITY]
    for skill in priority:
        if skill in options:
            return skill
    return auto_skill(held, design, catalog)


__all__ = [
    "Bot",
    "Intent",
    "choose_skill",
    "design_profile",
    "force_strength",
    "muster",
    "read_intent",
]
