"""Exact odds of a single-zone duel between two Meks under the baseline policy.

Both Meks stand in one zone from turn 1, engaged at Long range; the last Mek standing wins,
and it is a draw when both are destroyed in the same exchange or when the turn limit ends.
Both sides play the engine's ``Baseline`` controller: close toward the band all its ranged
weapons reach (two bands when the roll more than doubles the other's and that does not
overshoot), never open, never break contact, never jump, and fire the weapons, in order,
that keep it within its heat rating.

The duel is an absorbing Markov chain. Its state at the start of a turn is the band and, for
each Mek, its Hits, Leg Damage, live weapons, live (non-armor) systems, whether Computers
damage gives -1 to hit this turn, and whether its pilot is wounded. ``exact_duel`` carries
the probability of every state from turn to turn, steps by steps in the engine's own order,
merging identical states:

1. a wounded pilot acts on 5+ (rolled at the start of the turn);
2. initiative: it only orders the dice, since nothing one Mek's attack does changes the
   other's in the same exchange (R6.0), so the chain does not follow it;
3. the movement rolls (chassis dice, terrain, pilot level, Servo Boosters, less Leg
   Damage; a Mek that cannot act counts 0) and the winner's range choice;
4. both Meks' attacks, each as the Mek stood when the exchange began (R6.0: a doomed Mek
   still fires, and a critical takes nothing away until the exchange ends): each weapon of
   the fire plan rolls its to-hit dice, each hit its armor save against the target's
   systems as they were at the start (Jammer, Point Defense, Phalanx, Spaul Liner), each
   lost save a Hit and its critical check, each critical its effect (a destroyed weapon or
   system chosen uniformly among those not yet lost, as the engine's re-rolled dice choose
   it);
5. the end of the exchange: critical effects apply, destroyed Meks leave; Computers damage
   moves to the next turn.

``engine_duel`` fights the same duel with the engine itself (Monte Carlo), to compare.

Probabilities are floats by default, or exact ``Fraction`` values with ``exact=True``. The
fractions come from ``_Duel.solve``, which walks the chain state by state in dictionaries;
it is the reference, and slow for the larger Meks. The floats come from
``meks.duel_arrays``, which solves the same chain with matrices, many times faster.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from meks.catalog import Band, Catalog, Family, Weapon, load_catalog
from meks.errors import MeksError

Num = Any  # float, or Fraction when the odds are computed exactly

SHORT, MEDIUM, LONG = 0, 1, 2  # band ranks, as ``Band.rank``
BAND_OF_RANK = {b.rank: b for b in Band}
TURN_LIMIT = 12
# Fractions are worked out state by state (about a millisecond for each pair of start states);
# past this many pairs they would take more than several seconds, so they are refused.
FRACTION_STATES = 6_000

# What the exact model does not cover (stock Meks carry none of them).
UNSUPPORTED_SYSTEMS = ("Masking & Insulation", "Data Link")

# A Mek's state: (hits, legs, live weapons, live non-armor systems, computers damaged this
# turn, computers damaged next turn, wounded pilot).
MekState = tuple[int, int, tuple[str, ...], tuple[str, ...], bool, bool, bool]
# The duel's state: (first Mek, second Mek, band rank).
DuelState = tuple[MekState, MekState, int]
# An end of the duel: "a", "b" or "draw".
Outcome = str
Key = DuelState | Outcome


class DuelError(MeksError):
    """A duel the exact model cannot compute as asked."""


@dataclass(frozen=True)
class MekModel:
    """What stays fixed about one Mek during the duel."""

    name: str
    max_hits: int
    armor: int
    move_dice: int
    move_bonus: int  # chassis bonus + terrain + pilot level
    base_heat: int
    to_hit: int  # pilot level
    weapons: tuple[str, ...]
    systems: tuple[str, ...]  # non-armor systems, in design order
    armor_systems: frozenset[str]

    def start(self) -> MekState:
        return (0, 0, self.weapons, self.systems, False, False, False)


@dataclass(frozen=True)
class DuelOdds:
    """The chances that the first Mek wins (``a``), the second (``b``), or neither."""

    a: Num
    b: Num
    draw: Num

    def as_floats(self) -> dict[str, float]:
        return {"a": float(self.a), "b": float(self.b), "draw": float(self.draw)}


@dataclass(frozen=True)
class MonteCarlo:
    """Counts of the engine's duels: first Mek wins, second wins, draws."""

    a: int
    b: int
    draw: int

    @property
    def runs(self) -> int:
        return self.a + self.b + self.draw

    def rates(self) -> dict[str, float]:
        n = self.runs or 1
        return {"a": self.a / n, "b": self.b / n, "draw": self.draw / n}

    def standard_errors(self) -> dict[str, float]:
        """The standard error of each rate (from the observed rate)."""
        n = self.runs or 1
        return {k: math.sqrt(p * (1 - p) / n) for k, p in self.rates().items()}


def mek_model(design: str, level: str = "Regular", terrain: str = "Plains",
              catalog: Catalog | None = None) -> MekModel:
    """The fixed facts of a Mek of ``design`` with a pilot of ``level`` in ``terrain``."""
    cat = catalog or load_catalog()
    d = cat.design(design)
    chassis = cat.for_size(d.size)
    pilot = cat.level(level)
    ground = cat.terrain_named(terrain)
    systems = [cat.system(s) for s in d.systems]
    for s in systems:
        if s.name in UNSUPPORTED_SYSTEMS:
            raise DuelError(f"The exact duel does not model {s.name} ({d.name}).")
    for w in d.weapons:
        cat.weapon(w)
    return MekModel(
        name=d.name, max_hits=chassis.hits, armor=chassis.armor,
        move_dice=chassis.move.dice,
        move_bonus=chassis.move.bonus + ground.move + pilot.move,
        base_heat=chassis.heat + (1 if ground.heat > 0 else 0), to_hit=pilot.to_hit,
        weapons=tuple(cat.weapon(w).name for w in d.weapons),
        systems=tuple(s.name for s in systems if s.category.value != "armor"),
        armor_systems=frozenset(s.name for s in systems if s.category.value == "armor"),
    )


def _add(dist: dict[Any, Num], key: Any, p: Num) -> None:
    dist[key] = dist.get(key, 0) + p


class _Duel:
    """The chain for one pair of Meks; transitions are memoized."""

    def __init__(self, a: MekModel, b: MekModel, terrain_to_hit: int, exact: bool,
                 catalog: Catalog) -> None:
        self.models = (a, b)
        self.terrain_to_hit = terrain_to_hit
        self.exact = exact
        self.weapon: dict[str, Weapon] = {}
        for m in (a, b):
            for w in m.weapons:
                self.weapon[w] = catalog.weapon(w)
        self.one: Num = Fraction(1) if exact else 1.0
        self.sixth = [self.frac(k, 6) for k in range(7)]
        self.half: Num = self.frac(1, 2)
        self._turn: dict[DuelState, dict[Key, Num]] = {}
        self._attack: dict[tuple[Any, ...], dict[MekState, Num]] = {}
        self._shot: dict[tuple[Any, ...], dict[MekState, Num]] = {}
        self._moves: dict[tuple[Any, ...], dict[tuple[int, bool], Num]] = {}

    def frac(self, k: int, n: int) -> Num:
        return Fraction(k, n) if self.exact else k / n

    # ---- chances of one die ---------------------------------------------------------------

    def at_least(self, need: int) -> Num:
        """P(d6 >= need)."""
        return self.sixth[min(6, max(0, 7 - need))]

    def above(self, value: int) -> Num:
        """P(d6 > value)."""
        return self.sixth[min(6, max(0, 6 - value))]

    # ---- the policy -----------------------------------------------------------------------

    def want(self, weapons: tuple[str, ...]) -> int:
        """``best_band``: the longest band all live ranged weapons reach."""
        ranged = [self.weapon[w].range.rank for w in weapons if not self.weapon[w].is_small]
        return min(ranged) if ranged else SHORT

    def fire_plan(self, side: int, state: MekState, band: int) -> tuple[Weapon, ...]:
        model = self.models[side]
        rating = model.base_heat + state[3].count("Heat Sink")
        heat = 0
        plan = []
        for name in state[2]:
            w = self.weapon[name]
            if w.is_small or w.to_hit_at(BAND_OF_RANK[band]) is None:
                continue
            if heat + w.heat > rating:
                continue
            heat += w.heat
            plan.append(w)
        return tuple(plan)

    # ---- movement -------------------------------------------------------------------------

    def move_dist(self, side: int, state: MekState, acts: bool) -> tuple[int, int] | None:
        if not acts:
            return None
        model = self.models[side]
        offset = model.move_bonus - state[1] + (1 if "Servo Boosters" in state[3] else 0)
        return model.move_dice, offset

    def roll_values(self, spec: tuple[int, int] | None) -> dict[int, Num]:
        if spec is None:
            return {0: self.one}
        dice, offset = spec
        counts: dict[int, int] = {0: 1}
        for _ in range(dice):
            nxt: dict[int, int] = {}
            for total, c in counts.items():
                for face in range(1, 7):
                    nxt[total + face] = nxt.get(total + face, 0) + c
            counts = nxt
        out: dict[int, Num] = {}
        for total, c in counts.items():
            _add(out, max(0, total + offset), self.frac(c, 6 ** dice))
        return out

    def moves(self, first: tuple[int, int] | None,
              second: tuple[int, int] | None) -> dict[tuple[int, bool], Num]:
        """(winner: 0, 1 or -1 for a tie, whether the winner more than doubled) -> chance."""
        key = (first, second)
        got = self._moves.get(key)
        if got is not None:
            return got
        out: dict[tuple[int, bool], Num] = {}
        ra, rb = self.roll_values(first), self.roll_values(second)
        for va, pa in ra.items():
            for vb, pb in rb.items():
                if va == vb:
                    _add(out, (-1, False), pa * pb)
                else:
                    high, low = max(va, vb), min(va, vb)
                    _add(out, (0 if va > vb else 1, high > 2 * low), pa * pb)
        self._moves[key] = out
        return out

    @staticmethod
    def new_band(band: int, want: int, double: bool) -> int:
        """``Baseline.range_choice`` and its effect in ``range_step``."""
        if want < band:
            if double and band == LONG and band - 2 >= want:
                return band - 2
            return band - 1
        return band

    # ---- attacks --------------------------------------------------------------------------

    def attack(self, side: int, shooter: MekState, target: MekState,
               band: int) -> dict[MekState, Num]:
        """The target's states after ``side``'s Mek fires its whole plan at it."""
        key = (side, shooter[2], shooter[3], shooter[4], target, band)
        got = self._attack.get(key)
        if got is not None:
            return got
        dist: dict[MekState, Num] = {target: self.one}
        guard = target[3]  # the target's systems as the exchange began (R6.0)
        for weapon in self.fire_plan(side, shooter, band):
            nxt: dict[MekState, Num] = {}
            for state, p in dist.items():
                for after, q in self.shot(side, shooter, weapon, state, band,
                                          guard).items():
                    _add(nxt, after, p * q)
            dist = nxt
        self._attack[key] = dist
        return dist

    def modifier(self, side: int, shooter: MekState, weapon: Weapon,
                 guard: tuple[str, ...], band: int) -> int:
        """``Battle.modifiers`` for a duel (one target, no skills); ``guard``: the target's
        systems."""
        mod = 0
        if not weapon.ignores_terrain:
            mod += self.terrain_to_hit
        if "Jammer" in guard:
            mod -= 1
        if "Targeting Array" in shooter[3]:
            mod += 1  # a single target, always, in a duel
        mod += self.models[side].to_hit
        if shooter[4]:
            mod -= 1
        if weapon.family is Family.MISSILE:
            pd = "Point Defense" in guard
            phalanx = "Phalanx" in guard
            if weapon.to_hit_vs_point_defense is not None and (pd or phalanx):
                mod += weapon.to_hit_vs_point_defense
            else:
                if pd and band != SHORT:
                    mod -= 1
                if phalanx:
                    mod -= 2 if band == LONG else 1
        return mod

    def shot(self, side: int, shooter: MekState, weapon: Weapon, target: MekState,
             band: int, guard: tuple[str, ...]) -> dict[MekState, Num]:
        """``Battle.shoot``: to-hit dice (a miss re-rolled once for some), each hit landing.
        ``guard``: the target's systems as the exchange began."""
        mod = self.modifier(side, shooter, weapon, guard, band)
        spaul = "Spaul Liner" in guard
        key = (side, weapon.name, mod, band, target, spaul)
        got = self._shot.get(key)
        if got is not None:
            return got
        need = weapon.to_hit_at(BAND_OF_RANK[band])
        assert need is not None
        model = self.models[1 - side]
        p_hit = self.at_least(need - mod)
        if weapon.reroll_miss:
            p_hit = 1 - (1 - p_hit) * (1 - p_hit)
        dist: dict[MekState, Num] = {target: self.one}
        for _ in range(weapon.dice):
            nxt: dict[MekState, Num] = {}
            for state, p in dist.items():
                if p_hit:
                    for after, q in self.land(model, weapon, state, band, spaul).items():
                        _add(nxt, after, p * p_hit * q)
                if p_hit != 1:
                    _add(nxt, state, p * (1 - p_hit))
            dist = nxt
        self._shot[key] = dist
        return dist

    def land(self, model: MekModel, weapon: Weapon, target: MekState,
             band: int, spaul: bool) -> dict[MekState, Num]:
        """``Battle.land``: the armor save, then a Hit and its critical check (``spaul``:
        the target had a Spaul Liner as the exchange began). The killing Hit's critical
        (R6.9) changes nothing the duel follows: the Mek is destroyed either way."""
        if target[0] >= model.max_hits:
            return {target: self.one}
        mod = weapon.save_modifier
        if weapon.family is Family.CANNON and "Space-Lam Armor" in model.armor_systems:
            mod += 1
        p_save = self.at_least(model.armor - mod)
        if (weapon.family is Family.MISSILE and "Reactive Armor" in model.armor_systems) or \
                (weapon.family is Family.LASER and "BPC Armor" in model.armor_systems):
            p_save = 1 - (1 - p_save) * (1 - p_save)
        out: dict[MekState, Num] = {}
        if p_save:
            out[target] = p_save
        if p_save == 1:
            return out
        p_fail = 1 - p_save
        hits = target[0] + 1
        hit: MekState = (hits, target[1], target[2], target[3], target[4], target[5],
                         target[6])
        if hits >= model.max_hits:
            _add(out, hit, p_fail)
            return out
        remaining = model.max_hits - hits
        p_crit = self.above(remaining)
        if weapon.long_range_crit_reroll and band == LONG:
            p_crit = 1 - (1 - p_crit) * (1 - p_crit)
        if spaul:
            p_crit = p_crit * self.above(remaining)
        if p_crit != 1:
            _add(out, hit, p_fail * (1 - p_crit))
        if p_crit:
            for after, q in self.critical(hit, model).items():
                _add(out, after, p_fail * p_crit * q)
        return out

    def critical(self, s: MekState, model: MekModel) -> dict[MekState, Num]:
        """``Battle.critical``: the six results, a sixth each."""
        sixth = self.sixth[1]
        hits, legs, weapons, systems, comp, comp_next, wounded = s
        out: dict[MekState, Num] = {}
        _add(out, (hits, legs, weapons, systems, comp, comp_next, True), sixth)
        _add(out, (hits, legs + 1, weapons, systems, comp, comp_next, wounded), sixth)
        if weapons:
            share = sixth * self.frac(1, len(weapons))
            for i in range(len(weapons)):
                left = weapons[:i] + weapons[i + 1:]
                _add(out, (hits, legs, left, systems, comp, comp_next, wounded), share)
        else:
            _add(out, s, sixth)
        _add(out, (model.max_hits, legs, weapons, systems, comp, comp_next, wounded),
             sixth * self.half)
        _add(out, s, sixth * self.half)
        _add(out, (hits, legs, weapons, systems, comp, True, wounded), sixth)
        if systems:
            share = sixth * self.frac(1, len(systems))
            for i in range(len(systems)):
                left = systems[:i] + systems[i + 1:]
                _add(out, (hits, legs, weapons, left, comp, comp_next, wounded), share)
        else:
            _add(out, s, sixth)
        return out

    # ---- a turn ---------------------------------------------------------------------------

    def turn(self, state: DuelState) -> dict[Key, Num]:
        """Every end of this turn: the next turn's states, or an outcome."""
        got = self._turn.get(state)
        if got is not None:
            return got
        a, b, band = state
        out: dict[Key, Num] = {}
        act = [[(True, self.one)] if not m[6] else
               [(True, self.sixth[2]), (False, self.sixth[4])] for m in (a, b)]
        wants = (self.want(a[2]), self.want(b[2]))
        for act_a, pa in act[0]:
            for act_b, pb in act[1]:
                bands: dict[int, Num] = {}
                if band == SHORT:  # the baseline never opens the range
                    bands[SHORT] = self.one
                else:
                    moves = self.moves(self.move_dist(0, a, act_a),
                                       self.move_dist(1, b, act_b))
                    for (winner, double), pm in moves.items():
                        nb = band if winner < 0 else self.new_band(band, wants[winner],
                                                                   double)
                        _add(bands, nb, pm)
                for nb, pband in bands.items():
                    self.exchange(a, b, nb, (act_a, act_b), pa * pb * pband, out)
        self._turn[state] = out
        return out

    def exchange(self, a: MekState, b: MekState, band: int, acts: tuple[bool, bool],
                 p: Num, out: dict[Key, Num]) -> None:
        """Both attacks, each Mek firing as it stood when the exchange began (R6.0), so
        the order does not matter; then the end of the exchange."""
        after_b = self.attack(0, a, b, band) if acts[0] else {b: self.one}
        after_a = self.attack(1, b, a, band) if acts[1] else {a: self.one}
        for hit_b, q in after_b.items():
            for hit_a, r in after_a.items():
                _add(out, self.settle(hit_a, hit_b, band), p * q * r)

    def settle(self, a: MekState, b: MekState, band: int) -> Key:
        dead_a = a[0] >= self.models[0].max_hits
        dead_b = b[0] >= self.models[1].max_hits
        if dead_a and dead_b:
            return "draw"
        if dead_b:
            return "a"
        if dead_a:
            return "b"
        if band == SHORT:  # the band never changes again: Leg Damage no longer matters
            return (_next_turn(a, True), _next_turn(b, True), band)
        return (_next_turn(a, False), _next_turn(b, False), band)

    def solve(self, turn_limit: int) -> DuelOdds:
        dist: dict[DuelState, Num] = {
            (self.models[0].start(), self.models[1].start(), LONG): self.one}
        ends: dict[str, Num] = {"a": 0 * self.one, "b": 0 * self.one, "draw": 0 * self.one}
        for _ in range(turn_limit):
            nxt: dict[DuelState, Num] = {}
            for state, p in dist.items():
                for key, q in self.turn(state).items():
                    if isinstance(key, str):
                        ends[key] += p * q
                    else:
                        _add(nxt, key, p * q)
            dist = nxt
        ends["draw"] += sum(dist.values(), 0 * self.one)
        return DuelOdds(ends["a"], ends["b"], ends["draw"])


def _next_turn(s: MekState, settled: bool) -> MekState:
    """Computers damage taken this turn gives its -1 next turn, then fades. ``settled``:
    the band is Short for good, so Leg Damage is forgotten (it changes nothing more)."""
    return (s[0], 0 if settled else s[1], s[2], s[3], s[5], False, s[6])


def exact_duel(a: str, b: str, terrain: str = "Plains",
               pilots: Sequence[str] = ("Regular", "Regular"), exact: bool = False,
               turn_limit: int = TURN_LIMIT, catalog: Catalog | None = None,
               reference: bool = False) -> DuelOdds:
    """The exact chances of the duel of stock Mek ``a`` against stock Mek ``b`` (see the
    module docstring). ``exact``: Fractions instead of floats. ``reference``: floats, but
    from the state-by-state reference rather than the matrices (for tests)."""
    cat = catalog or load_catalog()
    if len(pilots) != 2:
        raise DuelError("Give two pilot levels, one for each Mek.")
    ground = cat.terrain_named(terrain)
    models = (mek_model(a, pilots[0], ground.name, cat), mek_model(b, pilots[1], ground.name,
                                                                   cat))
    duel = _Duel(models[0], models[1], ground.to_hit, exact, cat)
    from meks.duel_arrays import ArrayChain

    if exact or reference:
        if exact:
            starts = ArrayChain(_Duel(models[0], models[1], ground.to_hit, False, cat)).n_start
            if starts[0] * starts[1] > FRACTION_STATES:
                raise DuelError(
                    f"Exact fractions for {models[0].name} against {models[1].name} would "
                    f"take too long ({starts[0] * starts[1]:,} pairs of states to follow; "
                    f"the limit is {FRACTION_STATES:,}); ask for decimals instead, which are "
                    "exact to float precision.")
        return duel.solve(turn_limit)
    return DuelOdds(*ArrayChain(duel).solve(turn_limit))


# ---- the same duel with the engine ----------------------------------------------------------

def duel_scenario(terrain: str = "Plains", turn_limit: int = TURN_LIMIT) -> Any:
    """Both sides set up in zone 5; the last side with a Mek standing wins."""
    from meks.scenario import duel

    return duel(terrain, turn_limit=turn_limit)


def engine_duel(a: str, b: str, terrain: str = "Plains",
                pilots: Sequence[str] = ("Regular", "Regular"), runs: int = 2000,
                seed: int = 0, seeds: Iterable[int] | None = None,
                progress: Callable[[int], None] | None = None) -> MonteCarlo:
    """Fight the duel ``runs`` times with the engine and the baseline on both sides; run
    ``i`` rolls ``Dice.from_seed(seed + i)`` (or the given ``seeds``). ``a`` is the attacker."""
    from meks.dice import Dice
    from meks.engine.controllers import Baseline
    from meks.engine.core import Battle
    from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
    from meks.scenario import Side

    cat = load_catalog()
    ground = cat.terrain_named(terrain)
    scenario = duel_scenario(ground.name)
    if len(pilots) != 2:
        raise DuelError("Give two pilot levels, one for each Mek.")
    forces = {}
    for side, name, level in ((Side.ATTACKER, a, pilots[0]), (Side.DEFENDER, b, pilots[1])):
        design = cat.design(name)
        level = cat.level(level).level
        forces[side] = ForceSpec((UnitSpec(design.name, design, PilotSpec(
            f"{design.name} pilot", level), points=design.price or 0),))
    counts = {Side.ATTACKER: 0, Side.DEFENDER: 0, None: 0}
    for run_seed in (seeds if seeds is not None else range(seed, seed + runs)):
        battle = Battle(scenario, forces, Dice.from_seed(run_seed),
                        {Side.ATTACKER: Baseline(), Side.DEFENDER: Baseline()}, cat)
        counts[battle.run().winner] += 1
        if progress is not None:
            progress(1)
    return MonteCarlo(counts[Side.ATTACKER], counts[Side.DEFENDER], counts[None])


def stock_designs(catalog: Catalog | None = None) -> list[str]:
    """The stock Meks' names, in catalog order."""
    return [d.name for d in (catalog or load_catalog()).designs]


__all__ = ["DuelError", "DuelOdds", "MekModel", "MonteCarlo", "duel_scenario", "engine_duel",
           "exact_duel", "mek_model", "stock_designs"]
