"""The exact duel's Markov chain: its states, one turn's transitions, and the chain solved
state by state.

Both Meks stand in one zone from turn 1, engaged at Long range; the last Mek standing wins,
and it is a draw when both are destroyed in the same exchange or when the turn limit ends.
Both sides play the engine's ``Baseline`` controller (see ``meks.analysis.duel``).

The duel is an absorbing Markov chain, one step a round of zone combat (R5.2): the two Meks
never part, so each turn of the duel is the cap's rounds, and below "turn" reads as a step
of the chain. Its state at the start of a turn (``DuelState``) is the band and, for each
Mek, its Hits, Leg Damage, live weapons, live (non-armor) systems, whether Computers damage
gives -1 to hit this turn, and whether its pilot is wounded (``MekState``). ``DuelChain``
carries the probability of every state from turn to turn, steps by steps in the engine's own
order, merging identical states:

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
   moves to the next turn (``next_turn``).

Probabilities are floats, or exact ``Fraction`` values with ``exact=True``. The fractions
come from ``DuelChain.solve_exact``, which walks the chain state by state in dictionaries,
each turn's chances as whole numbers over one denominator (no fraction is reduced until the
end); it grows with the number of pairs of states. ``DuelChain.walk`` walks the same chain
one ``Fraction`` (or float) at a time: the plainest way, kept as the reference the tests
compare with. ``meks.analysis.duel_arrays`` solves the same chain with matrices, many times faster.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from meks.analysis.duel_aim import DuelMek, Grade, OpenGround, Seat
from meks.engine.controllers import baseline_closes, baseline_fires, reach
from meks.engine.inputs import movement_roll_of, to_hit_of
from meks.game.catalog import Band, Catalog, MoveDice, Weapon
from meks.game.criticals import (
    COMPUTERS,
    CRITICAL_TABLE,
    LEG_DAMAGED,
    PILOT_WOUNDED,
    REACTOR_CORE,
    WEAPON_DESTROYED,
    critical_check,
    wounded_acts_odds,
)
from meks.game.rules import ONE_EXACT, ONE_FLOAT, MovementRoll, contest, pick_odds
from meks.game.shots import armor_save, heat_rating
from meks.game.vocabulary import SIDES

Num = Any  # float, or Fraction when the odds are computed exactly

SHORT, MEDIUM, LONG = 0, 1, 2  # band ranks, as ``Band.rank``
BAND_OF_RANK = {b.rank: b for b in Band}

# A Mek's state: (hits, legs, live weapons, live non-armor systems, computers damaged this
# turn, computers damaged next turn, wounded pilot).
MekState = tuple[int, int, tuple[str, ...], tuple[str, ...], bool, bool, bool]
# The duel's state: (first Mek, second Mek, band rank).
DuelState = tuple[MekState, MekState, int]
# An end of the duel: "a", "b" or "draw".
Outcome = str
Key = DuelState | Outcome


@dataclass(frozen=True)
class MekModel:
    """What stays fixed about one Mek during the duel."""

    name: str
    max_hits: int
    armor: int
    move_dice: int
    move_bonus: int  # the chassis move dice's own bonus
    terrain_move: int  # the terrain's movement modifier
    level_move: int  # the pilot level's movement modifier
    base_heat: int  # the chassis Heat, and one in Moors (R6.10, before Heat Sinks)
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


def _add(dist: dict[Any, Num], key: Any, p: Num) -> None:
    dist[key] = dist.get(key, 0) + p


class DuelChain:
    """The chain for one pair of Meks; transitions are memoized."""

    def __init__(self, a: MekModel, b: MekModel, terrain_to_hit: int, exact: bool,
                 catalog: Catalog) -> None:
        self.models = (a, b)
        # Two Meks alike (a design against itself, pilots of one level): what one does to
        # the other, the other does to it, so their attacks are worked out once.
        self.mirror = a == b
        self.terrain_to_hit = terrain_to_hit
        self.exact = exact
        self.weapon: dict[str, Weapon] = {}
        for m in (a, b):
            for w in m.weapons:
                self.weapon[w] = catalog.weapon(w)
        self.one: Num = ONE_EXACT if exact else ONE_FLOAT
        self._turn: dict[DuelState, dict[Key, Num]] = {}
        self._attack: dict[tuple[Any, ...], dict[int, Num]] = {}  # see attack_numbers
        self._attack_states: dict[int, dict[MekState, Num]] = {}  # by id of the above
        self._shot: dict[tuple[Any, ...], dict[MekState, Num]] = {}
        self._numbered: dict[tuple[Any, ...], dict[int, list[tuple[int, Num]]]] = {}  # attack
        self._states: list[MekState] = []
        self._state_index: dict[MekState, int] = {}
        self._moves: dict[tuple[Any, ...], dict[tuple[int, bool], Num]] = {}
        self._to_hit: dict[tuple[Any, ...], tuple[Num, int]] = {}
        self._rolls: dict[tuple[int, bool, int], tuple[int, int]] = {}  # movement rolls
        self._scaled_turn: dict[DuelState, tuple[dict[DuelState, int], list[int], int]] = {}
        self._scaled_attack: dict[tuple[Any, ...], tuple[list[tuple[MekState, int]], int]] = {}
        self._plans: dict[tuple[Any, ...], tuple[Weapon, ...]] = {}
        self._wants: dict[tuple[str, ...], int] = {}
        self._lands: dict[tuple[Any, ...], dict[MekState, dict[MekState, Num]]] = {}
        self._criticals: dict[tuple[MekState, int], dict[MekState, Num]] = {}
        # For each Mek, each start state's stand-in: the first of the states the duel cannot
        # tell apart from it (``meks.duel_arrays.ArrayChain.lumps``). Set, ``solve_exact``
        # follows the stand-ins only; ``walk`` always follows every state.
        self.stand_in: tuple[dict[MekState, MekState], dict[MekState, MekState]] | None = None

    # ---- the policy -----------------------------------------------------------------------

    def want(self, weapons: tuple[str, ...]) -> int:
        """``best_band``: the longest band all live ranged weapons reach."""
        got = self._wants.get(weapons)
        if got is None:
            got = self._wants[weapons] = reach([self.weapon[w] for w in weapons]).rank
        return got

    def fire_plan(self, side: int, state: MekState, band: int) -> tuple[Weapon, ...]:
        """``Baseline.fire_plan``: with no infantry to shoot at, small weapons stay silent."""
        key = (side, state[2], state[3].count("Heat Sink"), band)
        got = self._plans.get(key)
        if got is not None:
            return got
        model = self.models[side]
        rating = heat_rating(model.base_heat, key[2])
        at = BAND_OF_RANK[band]
        heat = 0
        plan = []
        for name in state[2]:
            w = self.weapon[name]
            if w.is_small or not baseline_fires(w, w.to_hit_at(at), at, heat, rating, True):
                continue
            heat += w.heat
            plan.append(w)
        got = self._plans[key] = tuple(plan)
        return got

    # ---- movement -------------------------------------------------------------------------

    def move_dist(self, side: int, state: MekState, acts: bool) -> tuple[int, int] | None:
        """The Mek's movement roll (R6.2) as (dice, modifier), or None when it cannot act."""
        if not acts:
            return None
        key = (side, "Servo Boosters" in state[3], state[1])
        got = self._rolls.get(key)
        if got is None:
            model = self.models[side]
            mek = DuelMek(SIDES[side], Seat(Grade(model.to_hit, model.level_move)),
                           state[3], move=MoveDice(model.move_dice, model.move_bonus),
                           legs=state[1])
            check = movement_roll_of(mek, model.terrain_move)
            got = self._rolls[key] = (check.dice, check.modifier)
        return got

    def roll_values(self, spec: tuple[int, int] | None) -> dict[int, Num]:
        if spec is None:
            return {0: self.one}
        dice, offset = spec
        return MovementRoll(dice, [(offset, "")]).distribution(self.one)

    def moves(self, first: tuple[int, int] | None,
              second: tuple[int, int] | None) -> dict[tuple[int, bool], Num]:
        """(winner: 0, 1 or -1 for a tie, whether the winner more than doubled) -> chance."""
        key = (first, second)
        got = self._moves.get(key)
        if got is not None:
            return got
        out = contest(self.roll_values(first), self.roll_values(second), self.one)
        self._moves[key] = out
        return out

    @staticmethod
    def new_band(band: int, want: int, double: bool) -> int:
        """``Baseline.range_choice`` and its effect in ``range_step``."""
        return band - baseline_closes(band, want, double and band == LONG)

    # ---- attacks --------------------------------------------------------------------------

    def attack(self, side: int, shooter: MekState, target: MekState,
               band: int) -> dict[MekState, Num]:
        """The target's states after ``side``'s Mek fires its whole plan at it."""
        numbers = self.attack_numbers(side, shooter, target, band)
        got = self._attack_states.get(id(numbers))  # kept with it in ``_attack``
        if got is None:
            got = self._attack_states[id(numbers)] = {
                self._states[i]: p for i, p in numbers.items()}
        return got

    def attack_numbers(self, side: int, shooter: MekState, target: MekState,
                       band: int) -> dict[int, Num]:
        """``attack`` with the target's states by their numbers (``numbered_state``), in the
        same order: quicker to look up than the states. Attacks that read alike share one
        dictionary, which the duel keeps, so its identity names the attack."""
        if self.mirror:
            side = 0
        key = (side, shooter[2], shooter[3], shooter[4], target, band)
        got = self._attack.get(key)
        if got is not None:
            return got
        guard = target[3]  # the target's systems as the exchange began (R6.0)
        # What the attack reads: each weapon's to-hit chance and whether a PPC rerolls its
        # critical check at Long (R6.7), the only use of the band past the to-hit. Fire
        # classes and bands that read alike share the attack.
        steps = [(weapon, *self.to_hit(side, shooter, weapon, guard, band))
                 for weapon in self.fire_plan(side, shooter, band)]
        alike = (side, target, tuple((w.name, p_hit, w.long_range_crit_reroll and
                                      band == LONG) for w, p_hit, _ in steps))
        got = self._attack.get(alike)
        if got is not None:
            self._attack[key] = got
            return got
        # the states numbered (``_numbered``), which is quicker to look up than the states
        numbers: dict[int, Num] = {self._number(target): self.one}
        spaul = "Spaul Liner" in guard
        for weapon, p_hit, _ in steps:
            nxt: dict[int, Num] = {}
            get = nxt.get
            # self.shot, its to-hit worked out once, for each state
            shots = self._numbered.setdefault((side, weapon.name, p_hit, spaul, band == LONG and
                                               weapon.long_range_crit_reroll), {})
            for state, p in numbers.items():
                outs = shots.get(state)
                if outs is None:
                    dist = self._shot_at(side, weapon, p_hit, self._states[state], band, spaul)
                    outs = shots[state] = [(self._number(after), q) for after, q in dist.items()]
                for after, q in outs:
                    nxt[after] = get(after, 0) + p * q  # _add, inlined: the hot loop
            numbers = nxt
        self._attack[key] = self._attack[alike] = numbers
        return numbers

    def numbered_state(self, number: int) -> MekState:
        """The state ``attack_numbers`` numbers ``number``."""
        return self._states[number]

    def _number(self, state: MekState) -> int:
        """``state``'s number among the states ``attack`` has met."""
        got = self._state_index.get(state)
        if got is None:
            got = self._state_index[state] = len(self._states)
            self._states.append(state)
        return got

    def modifier(self, side: int, shooter: MekState, weapon: Weapon,
                 guard: tuple[str, ...], band: int) -> int:
        """``engine.fire.to_hit``'s modifier for a duel (one target, no skills); ``guard``: the
        target's systems."""
        return self.to_hit(side, shooter, weapon, guard, band)[1]

    def to_hit(self, side: int, shooter: MekState, weapon: Weapon, guard: tuple[str, ...],
               band: int) -> tuple[Num, int]:
        """The chance that one die of ``weapon`` hits (R6.6-R6.7: a single target, always,
        in a duel; no skills), and its modifier; ``guard``: the target's systems."""
        jammer, point_defense, phalanx = ("Jammer" in guard, "Point Defense" in guard,
                                          "Phalanx" in guard)
        targeting_array = "Targeting Array" in shooter[3]
        key = (side, weapon.name, band, targeting_array, shooter[4], jammer, point_defense,
               phalanx)
        got = self._to_hit.get(key)
        if got is not None:
            return got
        ground = OpenGround(self.terrain_to_hit, phalanx)
        aimer = DuelMek(SIDES[side], Seat(Grade(self.models[side].to_hit)), shooter[3],
                         (0,) if shooter[4] else ())
        aimed = DuelMek(SIDES[1 - side], Seat(Grade(0)), guard)
        check = to_hit_of(ground, aimer, weapon, aimed, BAND_OF_RANK[band])
        assert check is not None
        got = self._to_hit[key] = (check.odds(self.one), check.modifier)
        return got

    def shot(self, side: int, shooter: MekState, weapon: Weapon, target: MekState,
             band: int, guard: tuple[str, ...]) -> dict[MekState, Num]:
        """``engine.fire.shoot``: to-hit dice (a miss re-rolled once for some), each hit landing.
        ``guard``: the target's systems as the exchange began."""
        p_hit, _ = self.to_hit(side, shooter, weapon, guard, band)
        return self._shot_at(side, weapon, p_hit, target, band, "Spaul Liner" in guard)

    def _shot_at(self, side: int, weapon: Weapon, p_hit: Num, target: MekState,
                 band: int, spaul: bool) -> dict[MekState, Num]:
        """``shot``, once its to-hit chance ``p_hit`` is known. The band counts only for a
        PPC's critical check at Long (``land``), so the other bands share their shots."""
        band = LONG if band == LONG and weapon.long_range_crit_reroll else MEDIUM
        key = (side, weapon.name, p_hit, band, target, spaul)
        got = self._shot.get(key)
        if got is not None:
            return got
        model = self.models[1 - side]
        lands = self._lands.setdefault((side, weapon.name, band, spaul), {})  # by state
        dist: dict[MekState, Num] = {target: self.one}
        miss = 1 - p_hit
        for _ in range(weapon.dice):
            nxt: dict[MekState, Num] = {}
            get = nxt.get  # _add, inlined: each chance the same product, added the same
            for state, p in dist.items():
                if p_hit:
                    landed = lands.get(state)
                    if landed is None:
                        landed = lands[state] = self.land(model, weapon, state, band, spaul)
                    hit = p * p_hit
                    for after, q in landed.items():
                        nxt[after] = get(after, 0) + hit * q
                if p_hit != 1:
                    nxt[state] = get(state, 0) + p * miss
            dist = nxt
        self._shot[key] = dist
        return dist

    def land(self, model: MekModel, weapon: Weapon, target: MekState,
             band: int, spaul: bool) -> dict[MekState, Num]:
        """``engine.fire.land``: the armor save (R6.8), then a Hit and its critical check (R6.9;
        ``spaul``: the target had a Spaul Liner as the exchange began). The killing Hit's
        critical changes nothing the duel follows: the Mek is destroyed either way."""
        if target[0] >= model.max_hits:
            return {target: self.one}
        p_fail = armor_save(model.armor, weapon, model.armor_systems.__contains__).fails(
            self.one)
        p_save = 1 - p_fail
        out: dict[MekState, Num] = {}
        if p_save:
            out[target] = p_save
        if p_save == 1:
            return out
        hits = target[0] + 1
        hit: MekState = (hits, target[1], target[2], target[3], target[4], target[5],
                         target[6])
        if hits >= model.max_hits:
            _add(out, hit, p_fail)
            return out
        p_crit = critical_check(model.max_hits - hits, weapon=weapon, band=BAND_OF_RANK[band],
                                spaul=spaul).odds(self.one)
        if p_crit != 1:
            _add(out, hit, p_fail * (1 - p_crit))
        if p_crit:
            crit = self._criticals.get((hit, model.max_hits))
            if crit is None:
                crit = self._criticals[(hit, model.max_hits)] = self.critical(hit, model)
            for after, q in crit.items():
                _add(out, after, p_fail * p_crit * q)
        return out

    def critical(self, s: MekState, model: MekModel) -> dict[MekState, Num]:
        """``engine.damage.critical``: each effect of the critical table (R6.9) at its chance, a
        lost weapon or system each one of the live ones at its chance of being picked."""
        hits, legs, weapons, systems, comp, comp_next, wounded = s
        out: dict[MekState, Num] = {}
        for effect, p in CRITICAL_TABLE.effects(self.one):
            if effect == PILOT_WOUNDED:
                _add(out, (hits, legs, weapons, systems, comp, comp_next, True), p)
            elif effect == LEG_DAMAGED:
                _add(out, (hits, legs + 1, weapons, systems, comp, comp_next, wounded), p)
            elif effect == WEAPON_DESTROYED:
                for left, q in self.lose(weapons, p):
                    _add(out, (hits, legs, left, systems, comp, comp_next, wounded), q)
            elif effect == REACTOR_CORE:
                blows = CRITICAL_TABLE.explodes(self.one)
                _add(out, (model.max_hits, legs, weapons, systems, comp, comp_next, wounded),
                     p * blows)
                _add(out, s, p * (1 - blows))
            elif effect == COMPUTERS:
                _add(out, (hits, legs, weapons, systems, comp, True, wounded), p)
            else:  # SYSTEM_LOST
                for left, q in self.lose(systems, p):
                    _add(out, (hits, legs, weapons, left, comp, comp_next, wounded), q)
        return out

    def lose(self, live: tuple[str, ...], p: Num) -> list[tuple[tuple[str, ...], Num]]:
        """R6.9: one of ``live`` picked at random is lost: what is left after each pick,
        and ``p`` times its chance; none left, nothing is lost."""
        if not live:
            return [(live, p)]
        share = p * pick_odds(len(live), self.one)
        return [(live[:i] + live[i + 1:], share) for i in range(len(live))]

    # ---- a turn ---------------------------------------------------------------------------

    def turn(self, state: DuelState) -> dict[Key, Num]:
        """Every end of this turn: the next turn's states, or an outcome."""
        got = self._turn.get(state)
        if got is not None:
            return got
        a, b, _ = state
        out: dict[Key, Num] = {}
        for act_a, act_b, pa, pb, nb, pband in self.openings(state):
            self.exchange(a, b, nb, (act_a, act_b), pa * pb * pband, out)
        self._turn[state] = out
        return out

    def openings(self, state: DuelState) -> Iterator[tuple[bool, bool, Num, Num, int, Num]]:
        """How a turn from ``state`` opens: whether each Mek acts (a wounded pilot acts on
        5+, R6.9) and the band the movement roll leaves (R6.3), each with its chance:
        (first acts, second acts, chance of that, chance of that, band, chance of it)."""
        a, b, band = state
        acts = wounded_acts_odds(self.one)
        act = [[(True, self.one)] if not m[6] else
               [(True, acts), (False, 1 - acts)] for m in (a, b)]
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
                    yield act_a, act_b, pa, pb, nb, pband

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
            return (next_turn(a, True), next_turn(b, True), band)
        return (next_turn(a, False), next_turn(b, False), band)

    # ---- exact fractions, as whole numbers ---------------------------------------------------

    def scaled_attack(self, side: int, shooter: MekState, target: MekState,
                      band: int) -> tuple[list[tuple[MekState, int]], int]:
        """``attack`` (exact) as whole numbers over one denominator."""
        key = (side, shooter[2], shooter[3], shooter[4], target, band)
        got = self._scaled_attack.get(key)
        if got is None:
            got = self._scaled_attack[key] = _scaled(self.attack(side, shooter, target, band))
        return got

    def scaled_turn(self, state: DuelState) -> tuple[dict[DuelState, int], list[int], int]:
        """``turn`` (exact) as whole numbers over one denominator: the next turn's states,
        the chances of (first Mek wins, second wins, draw) this turn, and the denominator.
        The same chances, but no fraction is reduced at every step, which is what makes
        fractions slow."""
        got = self._scaled_turn.get(state)
        if got is not None:
            return got
        a, b, _ = state
        parts: list[tuple[Fraction, dict[DuelState, int], list[int], int]] = []
        for act_a, act_b, pa, pb, nb, pband in self.openings(state):
            after_b, den_b = (self.scaled_attack(0, a, b, nb) if act_a else ([(b, 1)], 1))
            after_a, den_a = (self.scaled_attack(1, b, a, nb) if act_b else ([(a, 1)], 1))
            # settle, worked out for each Mek once rather than for each pair
            live_a, dead_a = self._ends(0, after_a, nb)
            live_b, dead_b = self._ends(1, after_b, nb)
            out: dict[DuelState, int] = {}
            get = out.get
            for next_b, q in live_b:
                for next_a, r in live_a:
                    key = (next_a, next_b, nb)
                    out[key] = get(key, 0) + q * r
            left_a = den_a - dead_a  # the chance that the first Mek stands, scaled
            left_b = den_b - dead_b
            parts.append((Fraction(pa * pb * pband), out,
                          [dead_b * left_a, dead_a * left_b, dead_a * dead_b],
                          den_a * den_b))
        den = math.lcm(*(w.denominator * d for w, _, _, d in parts))
        total: dict[DuelState, int] = {}
        get = total.get
        won = [0, 0, 0]
        for w, out, ends, d in parts:
            f = w.numerator * (den // (w.denominator * d))
            for key, n in out.items():
                total[key] = get(key, 0) + f * n
            for i in range(3):
                won[i] += f * ends[i]
        common = math.gcd(den, *won, *total.values())
        if common > 1:
            den //= common
            total = {key: n // common for key, n in total.items()}
            won = [n // common for n in won]
        got = self._scaled_turn[state] = (total, won, den)
        return got

    def _ends(self, side: int, states: list[tuple[MekState, int]],
              band: int) -> tuple[list[tuple[MekState, int]], int]:
        """``settle`` for one Mek: its next turn's states, and its (scaled) chance of
        being destroyed."""
        limit = self.models[side].max_hits
        settled = band == SHORT
        live = [(next_turn(s, settled), n) for s, n in states if s[0] < limit]
        if self.stand_in is not None:
            stand_in = self.stand_in[side]
            live = [(stand_in[s], n) for s, n in live]
        return live, sum(n for s, n in states if s[0] >= limit)

    def solve_exact(self, turn_limit: int) -> DuelOdds:
        """``solve`` in exact fractions: each turn's chances are whole numbers over the
        product of the turns' denominators, so no fraction is reduced until the end."""
        dist: dict[DuelState, int] = {
            (self.models[0].start(), self.models[1].start(), LONG): 1}
        scale = 1
        ends = [Fraction(0), Fraction(0), Fraction(0)]
        for _ in range(turn_limit):
            turns = [(p, self.scaled_turn(state)) for state, p in dist.items()]
            den = math.lcm(*(d for _, (_, _, d) in turns))
            nxt: dict[DuelState, int] = {}
            get = nxt.get
            won = [0, 0, 0]
            for p, (outs, over, d) in turns:
                f = p * (den // d)
                for key, q in outs.items():
                    nxt[key] = get(key, 0) + f * q
                for i in range(3):
                    won[i] += f * over[i]
            scale *= den
            for i in range(3):
                ends[i] += Fraction(won[i], scale)
            dist = nxt
        ends[2] += Fraction(sum(dist.values()), scale)
        return DuelOdds(*ends)

    def solve(self, turn_limit: int) -> DuelOdds:
        """The chances after ``turn_limit`` turns: ``solve_exact`` for fractions, ``walk``
        for floats."""
        return self.solve_exact(turn_limit) if self.exact else self.walk(turn_limit)

    def walk(self, turn_limit: int) -> DuelOdds:
        """The chain walked state by state in the kind of number asked for, one ``turn`` at a
        time: the plainest way, and the reference the others are tested against."""
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


def _scaled(dist: dict[Any, Fraction]) -> tuple[list[tuple[Any, int]], int]:
    """``dist``'s chances as whole numbers over their least common denominator."""
    den = math.lcm(*(q.denominator for q in dist.values()))
    return [(key, q.numerator * (den // q.denominator)) for key, q in dist.items()], den


def next_turn(s: MekState, settled: bool) -> MekState:
    """Computers damage taken this turn gives its -1 next turn, then fades. ``settled``:
    the band is Short for good, so Leg Damage is forgotten (it changes nothing more)."""
    return (s[0], 0 if settled else s[1], s[2], s[3], s[5], False, s[6])


__all__ = ["BAND_OF_RANK", "LONG", "MEDIUM", "SHORT", "DuelChain", "DuelOdds", "DuelState", "Key",
           "MekModel", "MekState", "Num", "Outcome", "next_turn"]
