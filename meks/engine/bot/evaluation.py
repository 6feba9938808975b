"""The bot's evaluation: what attacks and threats are worth, read as probabilities.

Everything here is an expected value built on the chances of the checks the engine rolls,
read from the same descriptions the engine rolls (``meks.game.shots``: to-hit with its
modifiers, kills roll, overheat; ``meks.game.rules``: movement roll): the expected damaging
hits of a firing, the best order of fire within the heat rating, the odds of winning a
movement roll, and how a fight between two groups goes. A unit's worth and the odds of one
shot are ``meks.engine.bot.worth``, whose ``Appraiser`` ``Judge`` builds on. ``Judge`` holds
the values it remembers while nothing happens in a battle; it never rolls a die and never
decides anything.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meks.engine.bot.rolls import remembered_contest
from meks.engine.bot.worth import Appraiser, refs
from meks.engine.decisions import BANDS
from meks.engine.values import SlotView, UnitView
from meks.game.catalog import Band, Family
from meks.game.criticals import wounded_acts_odds
from meks.game.rules import ONE_FLOAT, skill_of
from meks.game.shots import (
    Overheat,
    gunnery_weapon,
    infantry_hit_odds,
    overheat,
    overheat_hits,
)
from meks.game.vocabulary import Side

if TYPE_CHECKING:
    from meks.engine.view import SideView

BAND_WEIGHT = {Band.SHORT: 0.4, Band.MEDIUM: 0.35, Band.LONG: 0.25}


@dataclass
class Gun:
    """One firing a unit can make, with its expected hits on each target it can hurt."""

    slot: SlotView
    heat: int
    family: Family
    extra: int  # -2 for a Gunnery second shot
    evs: list[tuple[UnitView, float, float]]  # target, expected hits, with the family skill


def in_the_fight(unit: UnitView) -> bool:
    """Whether ``unit`` counts in a fight between groups: not infantry the other side has
    yet to find (it cannot be shot at), and not Commandos (they never attack)."""
    return not unit.is_infantry or (unit.detected and not unit.commando)


class Judge(Appraiser):
    """The bot's reading of fights in one battle, with the values it remembers until
    anything happens (a unit's worth, its working systems, what of each unit a quick
    estimate reads) and, for the whole battle, one unit's quick estimate of its hits on
    another, keyed on everything that estimate reads (see ``quick``)."""

    def guns(self, battle: SideView, unit: UnitView, targets: Sequence[UnitView], band: Band,
             doubled: bool | None = None, single: bool | None = None) -> list[Gun]:
        """The weapons that can hurt one of ``targets`` at ``band``, with their odds
        (``single``: whether the unit attacks one target this turn, for a Targeting Array;
        by default, whether ``targets`` is one)."""
        live = unit.live_weapons()
        short = band is Band.SHORT
        for slot in live:
            weapon = slot.weapon
            if not slot.fired and (weapon.needs[band] is not None or
                                   (short and weapon.is_small)):
                break
        else:
            # No weapon left to fire can reach ``band``: no firing hurts anything (so
            # nothing is looked up, the common case at Long).
            return []
        single = len(targets) == 1 if single is None else single
        gunnery = battle.gunnery_left(unit)
        # Remembered for the battle, keyed on what the odds read: of the shooter
        # (``_as_gunner``), its skills used this turn and Gunnery left; of each target, in
        # order, what ``quick`` reads and the mark; the band and the bonus (the weapons and
        # targets kept by their places, so that the answer names this question's values).
        key = (band, doubled, single, gunnery, unit.id, unit.decoy, frozenset(unit.turn_skills),
               self._as_gunner(battle, unit),
               tuple([(t.id, t.decoy, self._as_target(battle, t),
                       t.id in self.marked(battle, unit.side)) for t in targets]))
        known = self._guns.get(key)
        if known is None:
            known = self._guns[key] = self._guns_of(battle, unit, targets, band, doubled,
                                                    single, gunnery)
        return [Gun(live[i], live[i].weapon.heat, live[i].weapon.family, extra,
                    [(targets[j], plain, boosted) for j, plain, boosted in evs])
                for i, extra, evs in known]

    def _guns_of(self, battle: SideView, unit: UnitView, targets: Sequence[UnitView],
                 band: Band, doubled: bool | None, single: bool, gunnery: bool
                 ) -> list[tuple[int, int, list[tuple[int, float, float]]]]:
        """``guns``, worked out: each firing as the place of its weapon among the unit's
        live weapons, its ``extra``, and the places of the targets it can hurt with the
        expected hits."""
        out: list[tuple[int, int, list[tuple[int, float, float]]]] = []
        for i, slot in enumerate(unit.live_weapons()):
            if slot.fired:  # spent this turn (an Ambush fires early, R4.3)
                continue
            weapon = slot.weapon
            skill = skill_of(weapon.family)
            has_skill = bool(skill and unit.skill(skill) and skill not in unit.turn_skills)
            evs = []
            for j, t in enumerate(targets):
                plain = self.shot(battle, unit, weapon, t, band, single, False, 0, doubled)
                if plain <= 0:
                    continue
                boosted = plain if not has_skill or t.is_infantry else self.shot(
                    battle, unit, weapon, t, band, single, True, 0, doubled)
                evs.append((j, plain, boosted))
            if evs:
                out.append((i, 0, evs))
        if gunnery and out:
            live = unit.live_weapons()
            cannons = [g for g in out if gunnery_weapon(live[g[0]].weapon)]
            if cannons:
                best = max(cannons, key=lambda g: max(e[1] for e in g[2]))
                evs = []
                for j, _, _ in best[2]:
                    ev = self.shot(battle, unit, live[best[0]].weapon, targets[j], band,
                                   single, False, -2, doubled)
                    if ev > 0:
                        evs.append((j, ev, ev))
                if evs:
                    out.append((best[0], -2, evs))
        return out

    def overheat_cost(self, unit: UnitView, gun: Gun, already_hits: float) -> float:
        """What an overheat costs: the weapon and 1 or 2 Hits with no save (R6.10)."""
        hits = overheat_hits(gun.slot.weapon)
        left = unit.remaining - already_hits
        value = self.worth(unit)
        self_cost = value * 1.2 if left <= hits else value * hits / left
        total_price = sum(w.weapon.price for w in unit.live_weapons()) or 1
        weapon_cost = value * 0.6 * gun.slot.weapon.price / total_price * 0.5
        return self_cost + weapon_cost

    def plan(self, battle: SideView, unit: UnitView, targets: Sequence[UnitView], band: Band,
             assigned: dict[str, float] | None = None, doubled: bool | None = None,
             heat_extra: int = 0, single: bool | None = None
             ) -> tuple[float, list[tuple[SlotView, UnitView]], dict[str, float]]:
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
            orders: Iterable[Sequence[Gun]] = [sorted(guns, key=lambda g: (
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
        best: list[tuple[SlotView, UnitView]] = []
        best_hits: dict[str, float] = {}
        for order in orders:
            value, chosen, hits = self._walk(unit, order, base, heat0, rating, hot)
            if value > best_value + 1e-9:
                best_value, best, best_hits = value, chosen, hits
        return max(best_value, 0.0), best, best_hits

    @staticmethod
    def _knapsack_order(guns: list[Gun], room: int) -> list[Gun]:
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

    def _walk(self, unit: UnitView, order: Sequence[Gun], base: dict[str, float], heat0: int,
              rating: int, hot: bool) -> tuple[float, list[tuple[SlotView, UnitView]],
                                                dict[str, float]]:
        heat = heat0
        value = 0.0
        used: set[Family] = set()
        fired: set[int] = set()
        hits: dict[str, float] = {}
        self_hits = 0.0
        chosen: list[tuple[SlotView, UnitView]] = []
        for gun in order:
            if gun.extra and id(gun.slot) not in fired:
                continue  # a Gunnery second shot follows the first
            first_of_family = gun.family not in used
            pick: UnitView | None = None
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
                p_ok = overheat(heat + gun.heat, rating, gun.slot.weapon).kept(ONE_FLOAT)
                gain = p_ok * pick_value - (1 - p_ok) * self.overheat_cost(unit, gun, self_hits)
            if gain <= 0:
                continue
            heat += gun.heat
            value += gain
            if p_ok < 1:
                self_hits += (1 - p_ok) * overheat_hits(gun.slot.weapon)
            used.add(gun.family)
            fired.add(id(gun.slot))
            hits[pick.id] = hits.get(pick.id, 0.0) + pick_ev * p_ok
            chosen.append((gun.slot, pick))
        return value, chosen, hits

    def quick(self, battle: SideView, unit: UnitView, target: UnitView, band: Band,
              doubled: bool | None = None) -> float:
        """Expected damaging hits of ``unit`` on ``target`` this turn, a fast estimate: the
        best weapons that fit the heat rating, and the rest at their overheat odds.

        Remembered for the whole battle, keyed on everything the estimate reads that may
        change during it: what of the shooter and of the target it reads (``_as_shooter``,
        ``_as_target``) and whether ``unit``'s side marked ``target`` this turn. (A unit
        that has not moved, fired or been hurt is worth the same estimate next turn.)"""
        self.fresh(battle)
        return self._recall(battle, unit, target, band, doubled)

    def _recall(self, battle: SideView, unit: UnitView, target: UnitView, band: Band,
                doubled: bool | None) -> float:
        """``quick``, once ``fresh`` has seen the battle as it is now."""
        return self._recalled(battle, unit, self._shooter_key(battle, unit), target,
                              self._target_key(battle, target),
                              target.id in self.marked(battle, unit.side), band, doubled)

    def _recalled(self, battle: SideView, unit: UnitView, shooter: tuple[object, ...],
                  target: UnitView, shot_at: tuple[object, ...], marked: bool, band: Band,
                  doubled: bool | None) -> float:
        """``_recall``, with what its key reads of the shooter (``_shooter_key``), of the
        target (``_target_key``) and the mark worked out (once for many pairs)."""
        key = (shooter, shot_at, marked, band, doubled)
        known = self._quick.get(key)
        if known is None:
            known = self._quick[key] = self._quick_estimate(battle, unit, target, band,
                                                            doubled)
        return known

    def _shooter_key(self, battle: SideView, unit: UnitView) -> tuple[object, ...]:
        """A shooter in ``quick``'s key: its ref and ``_as_shooter``."""
        return (unit.id, unit.decoy, self._as_shooter(battle, unit))

    def _target_key(self, battle: SideView, target: UnitView) -> tuple[object, ...]:
        """A target in ``quick``'s key: its ref and ``_as_target``."""
        return (target.id, target.decoy, self._as_target(battle, target))

    def _as_shooter(self, battle: SideView, unit: UnitView) -> tuple[object, ...]:
        """What of a shooter ``quick`` reads that may change during a battle: whether its
        zone is Moors (its heat rating), whether it acts (before the battle has begun every
        unit counts), its pilot's wound, the heat its next fight starts with (what it has
        now, or once it has fired this turn what it carries over), which weapons work, which
        systems work (Targeting Array, Heat Sink), whether its Computers are damaged this
        turn. Remembered until anything happens."""
        ref = (unit.id, unit.decoy)
        known = self._shooting.get(ref)
        if known is None:
            spent = any(w.fired for w in unit.weapons)
            known = self._shooting[ref] = (
                self._heat_of_zone.get(unit.zone or 5, 0) > 0,
                self.acts(unit), unit.wounded, spent,
                unit.carried_heat if spent else unit.heat,
                tuple([w.destroyed for w in unit.weapons]), self.systems(unit),
                battle.computers_damaged(unit))
        return known

    def _as_gunner(self, battle: SideView, unit: UnitView) -> tuple[object, ...]:
        """What of a shooter ``guns`` reads that may change during a battle: which weapons
        work and which have fired, which systems work (Targeting Array), whether its
        Computers are damaged this turn. Remembered until anything happens."""
        ref = (unit.id, unit.decoy)
        known = self._gunning.get(ref)
        if known is None:
            known = self._gunning[ref] = (
                tuple([(w.destroyed, w.fired > 0) for w in unit.weapons]),
                self.systems(unit), battle.computers_damaged(unit))
        return known

    def _as_target(self, battle: SideView, target: UnitView) -> tuple[object, ...]:
        """What of a target ``quick`` reads that may change during a battle: the terrain of
        its zone, whether it dug in there, which systems work (Jammer, Point Defense,
        armor), whether a movement roll's winner doubled the terrain against its side there
        this turn, and whether a Phalanx of its side stands there. (Not the zone itself: a
        target is as easy to hit in any zone alike.) Remembered until anything happens."""
        ref = (target.id, target.decoy)
        known = self._shot_at.get(ref)
        if known is None:
            zone = target.zone or 5
            known = self._shot_at[ref] = (
                self.terrain(battle, zone), target.dug_in_zone == zone, self.systems(target),
                not self._next_turn and battle.doubled_against(zone, target.side),
                self.phalanx_in(battle, zone, target.side))
        return known

    def marked(self, battle: SideView, side: Side) -> frozenset[str]:
        """The enemy units ``side``'s Commandos marked this turn (remembered until anything
        happens)."""
        known = self._marked.get(side)
        if known is None:
            known = self._marked[side] = battle.marked[side]
        return known

    def _quick_estimate(self, battle: SideView, unit: UnitView, target: UnitView, band: Band,
                        doubled: bool | None) -> float:
        """``quick``, worked out."""
        if not self.acts(unit):
            return 0.0
        if unit.is_infantry:
            # R6.11: infantry fight at Short only, hitting on a roll under the target's AR
            # with no save; commandos never attack.
            if unit.commando or band is not Band.SHORT or target.is_infantry:
                return 0.0
            acts = wounded_acts_odds(ONE_FLOAT) if unit.wounded else 1.0  # R6.9: on 5+
            return acts * float(infantry_hit_odds(target.armor, ONE_FLOAT))
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
            p_ok = Overheat(heat + h - room, 0).kept(ONE_FLOAT)
            if p_ok * ev > (1 - p_ok) * 0.6:
                heat += h
                total += p_ok * ev
        if unit.wounded:  # R6.9: a wounded pilot acts on 5+
            total *= wounded_acts_odds(ONE_FLOAT)
        return total

    def power(self, battle: SideView, shooters: Sequence[UnitView], targets: Sequence[UnitView],
              band: Band | None = None) -> float:
        """Expected damaging hits a group deals another in a turn, averaged over the
        targets (and over the bands unless one is given)."""
        if not targets:
            return 0.0
        self.fresh(battle)
        key = ("power", battle.side, band, refs(shooters), refs(targets))
        known = self._shared.get(key)
        if known is None:
            # Once for the stamp; and for the battle, keyed as ``quick``'s values are (a
            # group nothing has happened to since is worth the same estimate).
            sides = tuple(dict.fromkeys([s.side for s in shooters]))
            situation = (band, tuple([(s.id, s.decoy, self._as_shooter(battle, s))
                                      for s in shooters]),
                         tuple([(t.id, t.decoy, self._as_target(battle, t)) for t in targets]),
                         tuple([(side, tuple([t.id in self.marked(battle, side)
                                              for t in targets])) for side in sides]))
            known = self._powers.get(situation)
            if known is None:
                known = self._powers[situation] = self._power(battle, shooters, targets,
                                                              band)
            self._shared[key] = known
        return known

    def _power(self, battle: SideView, shooters: Sequence[UnitView],
               targets: Sequence[UnitView], band: Band | None) -> float:
        """``power``, worked out."""
        bands = [band] if band is not None else list(BANDS)
        total = 0.0
        aims = [(s, self._shooter_key(battle, s), self.marked(battle, s.side))
                for s in shooters]
        marks = [(t, self._target_key(battle, t)) for t in targets]
        recalled = self._recalled
        for b in bands:
            weight = 1.0 if band is not None else BAND_WEIGHT[b]
            for s, shooter, marked in aims:
                total += weight * sum([recalled(battle, s, shooter, t, shot_at, t.id in marked,
                                                b, None)
                                       for t, shot_at in marks]) / len(targets)
        return total

    def ratio(self, battle: SideView, mine: Sequence[UnitView],
              theirs: Sequence[UnitView]) -> float:
        """How a fight between two groups goes: above 1 ours lasts longer than theirs.
        Remembered until anything happens."""
        self.fresh(battle)
        key = ("ratio", battle.side, refs(mine), refs(theirs))
        known = self._shared.get(key)
        if known is None:
            known = self._shared[key] = self._ratio(battle, mine, theirs)
        return known

    def _ratio(self, battle: SideView, mine: Sequence[UnitView],
               theirs: Sequence[UnitView]) -> float:
        # Only the units that can fight count, on both sides alike: infantry the other
        # side has not found cannot be shot at, and Commandos never shoot (counted as
        # targets, their kills rolls made the enemy look several times stronger, and a
        # side with Commandos kept out of reach of a weaker force all battle).
        mine = [u for u in mine if in_the_fight(u)]
        theirs = [u for u in theirs if in_the_fight(u)]
        if not theirs:
            return 9.0
        if not mine:
            return 0.0
        ours = self.power(battle, mine, theirs)
        foe = self.power(battle, theirs, mine)
        life_mine = sum(u.remaining for u in mine)
        life_theirs = sum(u.remaining for u in theirs)
        return (ours * life_mine + 1e-6) / (foe * life_theirs + 1e-6)

    def fight_turns(self, battle: SideView, mine: Sequence[UnitView],
                    theirs: Sequence[UnitView]) -> float:
        """The turns ``mine`` need to grind ``theirs`` down: the enemy's remaining Hits over
        the damaging hits we expect to land on them a turn."""
        real = [u for u in theirs if (u.weapons or u.is_infantry)
                and (not u.is_infantry or u.detected)]
        if not real:
            return 0.0
        exchanges = sum(u.remaining for u in real) / max(self.power(battle, mine, real), 1e-6)
        # Fighting in rounds (R5.2), a turn holds up to the cap's exchanges.
        return exchanges / battle.house.combat_rounds

    # ---- movement rolls and the exchange of fire ------------------------------------------

    def roller(self, battle: SideView, unit: UnitView,
               jump: bool = True) -> tuple[int, int, float] | None:
        """A unit's movement roll (R6.2): dice, modifier, chance it acts (Jump Jets used
        when fitted, unless ``jump`` is false)."""
        if not (unit.mobile or unit.is_infantry):
            return None
        acts: float = wounded_acts_odds(ONE_FLOAT) if unit.wounded else 1.0
        systems = self.systems(unit)
        check = battle.describe_movement_roll(unit, jump and "Jump Jets" in systems,
                                              systems.__contains__)
        return check.dice, check.modifier, acts

    def roll_odds(self, battle: SideView, mine: Sequence[UnitView],
                  theirs: Sequence[UnitView]) -> tuple[float, float]:
        """Our chance to win the next movement roll in a zone, and to tie it."""
        a = [r for r in (self.roller(battle, u) for u in mine) if r is not None]
        b = [r for r in (self.roller(battle, u) for u in theirs) if r is not None]
        return self.contest(a, b)

    def contest(self, mine: Sequence[tuple[int, int, float]],
                theirs: Sequence[tuple[int, int, float]]) -> tuple[float, float]:
        """``contest``, remembered (the odds of the same rolls are the same in any battle)."""
        return remembered_contest(mine, theirs)

    def net(self, battle: SideView, mine: Sequence[UnitView], theirs: Sequence[UnitView],
             band: Band, doubled: bool, clock: int) -> float:
        """Worth we expect to deal minus worth we expect to take at ``band``."""
        self.fresh(battle)
        recalled = self._recalled
        # (what each key reads of each unit, worked out once for every pair)
        ours = [(u, self._shooter_key(battle, u), self._target_key(battle, u),
                 self.marked(battle, u.side), self.hit_worth(u)) for u in mine]
        foes = [(e, self._shooter_key(battle, e), self._target_key(battle, e),
                 self.marked(battle, e.side), self.hit_worth(e)) for e in theirs]
        dealt = 0.0
        for u, shooter, _, marked, _ in ours:
            best = 0.0
            for t, _, shot_at, _, worth in foes:
                if t.is_infantry and not t.detected:
                    continue
                best = max(best, recalled(battle, u, shooter, t, shot_at, t.id in marked,
                                          band, None) * worth)
            dealt += best
        taken = 0.0
        for e, shooter, _, marked, _ in foes:
            best = 0.0
            for u, _, shot_at, _, worth in ours:
                if u.hidden:
                    continue
                best = max(best, recalled(battle, e, shooter, u, shot_at, u.id in marked,
                                          band, doubled) * worth)
            taken += best
        return dealt * self.urgency(battle, clock) - taken

    @staticmethod
    def urgency(battle: SideView, clock: int) -> float:
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
