"""The bot's policy: ``Bot``, the controller that plays to win.

``Bot`` answers every decision of the ``Controller`` protocol, from the parts beside it:
what the victory conditions ask (``intent.py``), each unit's task (``tasks.py``), the
movement orders (``movement.py``) and the expected values of fights (``evaluation.py``).
Its set-up, tasks and movement are those of ``Manoeuvre`` (``manoeuvre.py``), its base; here
it picks range bands, focuses fire, dodges, stays hidden, calls in support and ambushes. It
never rolls a die of its own: the same battle and dice give the same decisions. Its
between-games choices are ``choices.py``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from meks.engine.bot.choices import Difficulty, choose_skill, muster
from meks.engine.bot.intent import (
    stays_hidden,
)
from meks.engine.bot.manoeuvre import Manoeuvre
from meks.engine.bot.worth import base_worth, firepower_share
from meks.engine.decisions import BANDS, RangeChoice, Retreat, band_after
from meks.engine.values import SlotView, UnitView
from meks.game.catalog import Band, Catalog, Design, Size, Weapon, load_catalog
from meks.game.rules import ONE_FLOAT
from meks.game.shots import armor_save
from meks.game.vocabulary import BreakContact, Side

if TYPE_CHECKING:
    from meks.engine.view import SideView

LOOKAHEAD = 0.8  # weight of next turn's exchange in a range choice
# House rule withdrawal (R6.13): the whole-force ratio under which a side that cannot win by
# waiting withdraws, and the one from which it overruns when it may.
WITHDRAW_BELOW = 0.25
OVERRUN_AT = 2.0
# The share of what could slip away that a band risks, when the enemy wants out of the zone.
ESCAPE_RISK = {Band.SHORT: 0.0, Band.MEDIUM: 0.25, Band.LONG: 1.0}


def _near(band: Band) -> list[Band]:
    i = BANDS.index(band)
    return [BANDS[j] for j in (i - 1, i, i + 1) if 0 <= j < len(BANDS)]


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and callers extend it
class Bot(Manoeuvre):
    """A controller that plays to win (see the module docstring and docs/bot.md)."""

    name = "bot"

    # ---- between games -------------------------------------------------------------------

    def muster(self, budget: int, max_size: Size | None, composition: dict[Size, int] | None,
               catalog: Catalog | None = None,
               difficulty: Difficulty | None = None) -> list[Design]:
        return muster(budget, max_size, composition, catalog or load_catalog(),
                      difficulty or self.difficulty)

    def choose_skill(self, held: Sequence[str], design: Design | None,
                     catalog: Catalog | None = None) -> str:
        return choose_skill(held, design, catalog)

    # ---- combat ------------------------------------------------------------------------

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        """The band with the best expected exchange, looking one step ahead (worth dealt
        minus worth taken, from every unit's best fire at that band), plus what getting out
        is worth when the side has a reason to leave: breaking contact (at Long) earns all
        of it, opening the range toward Long a share."""
        self._know(battle)
        band = battle.band_of(zone)
        mine = [u for u in battle.in_zone(zone, side) if not u.decoy]
        theirs = battle.enemies_in(zone, side)
        if not theirs:
            return self._search(battle, side, band, options)
        clock = self.clock(battle, side)
        leave = self.leave_value(battle, side, zone)
        # Not clearly the weaker (``ahead``) when a draw is the alternative: play for the
        # win, weighing the damage dealt as a side that must act does (more and more as the
        # turns run out).
        urgent = -1 if clock == 0 and self.ahead(battle, side) else clock
        nets = {b: self.judge.net(battle, mine, theirs, b, False, urgent) for b in BANDS}
        doubled = self.judge.net(battle, mine, theirs, band, True, urgent) if \
            battle.terrain_to_hit(zone) else None
        slippery = self.enemy_wants_out(battle, side, zone)
        toward_long = {Band.SHORT: 0.0, Band.MEDIUM: 0.2, Band.LONG: 0.5}
        win, tie = self.judge.roll_odds(battle, mine, theirs)
        # What the enemy slipping away would cost: the worth of what could get away, times
        # its chance of winning the next roll (at Long it breaks contact with one win, at
        # Medium it needs two in a row, at Short three).
        stake = sum(self.judge.worth(u) for u in theirs if u.mobile) if slippery else 0.0
        escape = (1 - win - tie) * stake

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
                # Never to let an enemy that wants out of the zone go free (every one of
                # them may then leave). Where breaking contact withdraws the side (R6.3),
                # never for nothing out of a zone it means to take or keep.
                if leave <= 0 and battle.house.break_contact is BreakContact.WITHDRAW \
                        and self.wanted(battle, side, zone):
                    continue
                if leave > 0 or (clock > 0 and not slippery):
                    scores[choice] = leave - (stake if slippery else 0.0)
                continue
            if choice is RangeChoice.DOUBLE:
                if doubled is not None:
                    scores[choice] = doubled + LOOKAHEAD * future(band) + leave * toward_long[band]
                continue
            new = band_after(band, choice)
            value = nets[new] + LOOKAHEAD * future(new)
            value += leave * toward_long[new]
            if slippery:
                value -= escape * ESCAPE_RISK[new]
            scores[choice] = value
        if not scores:
            return RangeChoice.STAY
        return max(scores, key=lambda c: (scores[c], c is RangeChoice.STAY, c.value))

    def _search(self, battle: SideView, side: Side, band: Band,
                options: list[RangeChoice]) -> RangeChoice:
        """A combat with no enemy in sight: something not yet found is there (an undetected
        squad, a hidden Mek). A side that must destroy the enemy closes in, where detection
        is likeliest and a squad that fires gives itself away (R6.4, R6.11); any other side
        stays as it is."""
        if not self.intent(battle, side).hunt:
            return RangeChoice.STAY
        moves = [c for c in options if c not in (RangeChoice.BREAK, RangeChoice.DOUBLE)]
        if not moves:
            return RangeChoice.STAY
        return min(moves, key=lambda c: (BANDS.index(band_after(band, c)),
                                         c is not RangeChoice.STAY, c.value))

    def targets(self, battle: SideView, unit: UnitView, candidates: list[UnitView],
                limit: int) -> list[UnitView]:
        """Focus fire: the targets where this unit's best plan adds the most worth, given
        the hits the side's other units are already expected to land this turn."""
        self._know(battle)
        if unit.hidden and self.stay_hidden(battle, unit):
            return []
        band = battle.band_of(unit.zone or 5)
        key = (battle.turn, battle.round, unit.zone or 0, unit.side)
        assigned = self._assigned.setdefault(key, {})
        scored = []
        intent = self.intent(battle, unit.side)
        group = intent.hunt_group or intent.after_group
        for t in candidates:
            value, _, hits = self.judge.plan(battle, unit, [t], band, assigned)
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
            together, _, both = self.judge.plan(battle, unit, chosen, band, assigned)
            if "Targeting Array" in self.judge.systems(unit) and scored[0][0] >= together:
                chosen = chosen[:1]
            else:
                hits = both
        for tid, h in hits.items():
            assigned[tid] = assigned.get(tid, 0.0) + h
        return chosen

    def fire_plan(self, battle: SideView, unit: UnitView, targets: list[UnitView],
                  band: Band) -> list[tuple[SlotView, UnitView]]:
        self._know(battle)
        live = [t for t in targets if not t.doomed]
        if not live:
            return []
        _, plan, _ = self.judge.plan(battle, unit, live, band, single=len(targets) == 1)
        return plan

    def dodge(self, battle: SideView, unit: UnitView, weapon: Weapon, hits: int) -> bool:
        """Dodge an attack (all its ``hits``, R6.8) when a Hit would likely get through the
        armor, or the hits could finish the Mek, or the extra heat does not cost a shot."""
        self._know(battle)
        # the chance that at least one Hit gets in
        through = armor_save(unit.armor, weapon, unit.has_system).fails_any(hits, ONE_FLOAT)
        if unit.remaining <= hits or through >= 0.5:
            return True
        room = self.judge.rating(battle, unit) - unit.heat
        return through >= 0.3 or room >= 1

    def stay_hidden(self, battle: SideView, unit: UnitView) -> bool:
        """A hidden Mek stays hidden (``intent.stays_hidden``)."""
        return stays_hidden(battle, self.intent(battle, unit.side), unit)

    def reveal(self, battle: SideView, unit: UnitView) -> bool:
        self._know(battle)
        return not self.stay_hidden(battle, unit)

    # ---- support -------------------------------------------------------------------------

    def support(self, battle: SideView, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        self._know(battle)
        assets = battle.assets[side]
        uses: list[tuple[str, object]] = []
        last = battle.turn >= battle.scenario.turn_limit - 1
        if moment == "turn start" and "Repair Truck" in assets:
            hurt = [u for u in battle.side_units(side) if u.on_map and u.is_mek
                    and (u.hits or u.legs or any(w.destroyed for w in u.weapons))]
            if hurt:
                def gain(u: UnitView) -> float:
                    return base_worth(u) * (u.hits / u.max_hits + 0.15 * u.legs
                                            + 0.5 * (1 - firepower_share(u)))
                best = max(hurt, key=lambda u: (gain(u), u.id))
                if gain(best) >= 0.3 * base_worth(best) or last or best.remaining == 1:
                    uses.append(("Repair Truck", best.id))
        if moment == "combat":
            # R4.3: Support Fire needs a unit the side has targeted or identified, an Air
            # Strike one it has targeted.
            for asset, weapon_name, known_ids in (
                    ("Support Fire", "Howitzer", battle.known[side] | battle.identified[side]),
                    ("Air Strike", "Missile", battle.targeted[side])):
                if asset not in assets:
                    continue
                seen = [battle.find(uid) for uid in sorted(known_ids)]
                known = [u for u in seen if u is not None and u.on_map and not u.hidden
                         and u.side is not side and (not u.is_infantry or u.detected)]
                weapon = battle.catalog.weapon(weapon_name)
                best_t = None
                best_v = 0.0
                for t in known:
                    b = battle.band_of(t.zone or 0)
                    ev = self.judge.shot(battle, None, weapon, t, b)
                    v = ev * self.judge.hit_worth(t)
                    if v > best_v:
                        best_t, best_v = t, v
                if best_t is None:
                    continue
                finishing = best_t.remaining <= 1
                if finishing or best_v >= 2.5 or last or (battle.turn >= 3 and best_v >= 1.2):
                    uses.append((asset, best_t.id))
            if "Recon Drone" in assets and zone is not None:
                # Any Mek contact there may be a decoy, and infantry may lie unseen: the
                # drone IDs them all (R4.3).
                unknown = [u for u in battle.enemies_in(zone, side)
                           if u.id not in battle.identified[side] and u.is_mek]
                if unknown:
                    uses.append(("Recon Drone", zone))
        return uses

    def ambush(self, battle: SideView, side: Side, zone: int) -> str | None:
        """Ambush at once, with the Mek that does the most here: the free attack comes on
        top of its own fire and before the enemy's (R4.3), and only a Mek's first fight
        allows it, so waiting gains nothing."""
        self._know(battle)
        band = battle.band_of(zone)
        meks = [u for u in battle.in_zone(zone, side) if u.is_mek and not u.decoy
                and u.can_act and not u.hidden and not u.fought]
        enemies = [e for e in battle.enemies_in(zone, side)
                   if not e.is_infantry or e.detected]
        best = None
        best_v = 0.0
        for m in meks:
            here = max((self.judge.quick(battle, m, e, band) * self.judge.hit_worth(e)
                        for e in enemies), default=0.0)
            if here > best_v:
                best, best_v = m, here
        return best.id if best is not None else None

    def dismount(self, battle: SideView, apc: UnitView) -> bool:
        self._know(battle)
        intent = self.intent(battle, apc.side)
        zone = apc.zone or 0
        return bool(battle.enemies_in(zone, apc.side)) or zone in intent.deny + intent.goto

    def hawkeye(self, battle: SideView, unit: UnitView,
                candidates: list[UnitView]) -> UnitView | None:
        """Hawkeye: identify what is worth knowing: a contact in the pilot's zone that shows
        no weapons (it may be a decoy soaking up fire), a masked unit there (its ID lets Data
        Link missiles fire), else the enemy there worth most; then the same next door."""
        self._know(battle)
        if not candidates:
            return None

        def rank(e: UnitView) -> tuple[bool, bool, bool, float, str]:
            return (e.zone == unit.zone, not e.weapons and not e.is_infantry,
                    "Masking & Insulation" in self.judge.systems(e), self.judge.worth(e), e.id)
        return max(candidates, key=rank)

    # ---- house rules bail_out and withdrawal (R6.12, R6.13) ---------------------------------

    def bail_out(self, battle: SideView, unit: UnitView) -> bool:
        """Bail out when enemies that can fire stand in the Mek's zone and either it is one
        Hit from destruction with a pilot worth keeping (above Green, or with a skill), or
        its reactor took a critical and it has no more than half its Hits left."""
        self._know(battle)
        pilot = unit.pilot
        if pilot is None or unit.zone is None:
            return False
        if not any(e.weapons or e.is_infantry for e in battle.enemies_in(unit.zone, unit.side)):
            return False
        if unit.remaining <= 1 and (pilot.level.level != "Green" or bool(pilot.skills)):
            return True
        return unit.reactor_scare and 2 * unit.remaining <= unit.max_hits

    def withdrawal(self, battle: SideView, side: Side, options: list[Retreat]) -> Retreat:
        """Overrun when offered and the whole force's ratio (the judge's, as the next turn
        will find the fight: ``Judge.next_turn``) is at least ``OVERRUN_AT``; withdraw when
        it is under ``WITHDRAW_BELOW``, no unit of the side is still to arrive, and standing
        still would not win; else fight on."""
        self._know(battle)
        mine = [u for u in battle.side_units(side) if u.on_map and not u.decoy]
        theirs = [u for u in battle.side_units(side.enemy) if u.on_map and not u.hidden
                  and (u.weapons or u.is_infantry)]
        with self.judge.next_turn(battle):
            ratio = self.judge.ratio(battle, mine, theirs)
        if Retreat.OVERRUN in options and ratio >= OVERRUN_AT:
            return Retreat.OVERRUN
        waiting = any(u.alive and not u.arrived for u in battle.side_units(side))
        if Retreat.WITHDRAW in options and ratio < WITHDRAW_BELOW and not waiting and \
                self.clock(battle, side) <= 0:
            return Retreat.WITHDRAW
        return Retreat.FIGHT

    def commando(self, battle: SideView, unit: UnitView,
                 enemies: list[UnitView]) -> tuple[str, UnitView] | None:
        self._know(battle)
        real = [e for e in enemies if e.weapons]
        if not real:
            unknown = [e for e in enemies if e.id not in battle.identified[unit.side]]
            return ("identify", unknown[0]) if unknown else None
        return ("mark", max(real, key=lambda e: (self.judge.hit_worth(e), e.id)))
