"""Simple styles of play: the pool of plain controllers the bot is measured against.

Each style is the baseline (``meks.engine.controllers.Baseline``) with only the few decisions
that make the style its own changed; everything else (set-up, support, targets, fire) is
the baseline's. Like every controller, a style sees the battle only through the ``SideView``
it is handed, answers each decision with one of its legal options, and rolls no dice: the
same battle and dice give the same answers.

- ``Rush``: every unit heads for the nearest enemy at once (then its objective, once no enemy
  is in sight), moves first and uses the second movement to get there sooner, jumps to win
  the movement roll and closes the range to Short as fast as it can; it fires everything its
  heat allows (the baseline's fire plan).
- ``Hold``: every unit goes to the zones the victory conditions name (its own goals, the
  zones the enemy wants or must not be in, the enemy's exits), or else stays in the zone it
  was set up in; there it digs in when it can and fights whoever comes, opening the range
  when its weapons outrange the enemy's, never breaking contact.
- ``KeepRange``: keeps each fight at the band where its expected damage, less the enemy's,
  is greatest (the engine's to-hit and armor-save odds, read through the view and
  ``meks.game.rules``), jumping to win the movement roll when it is not there yet.
- ``ObjectiveRunner``: goes straight for the exits and zones its victory conditions name,
  by a way that avoids zones holding enemies, preferring goals no enemy holds; it moves first,
  uses the second movement, and away from its goal breaks contact (or opens the range toward
  Long to break it next) instead of fighting. With no zone or exit to go for it plays as the
  baseline.

``STYLES`` names them all, the baseline included, by the names a command line would use.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from meks.engine.bot.intent import Intent, group_zone, read_intent
from meks.engine.bot.tasks import exit_zones
from meks.engine.controllers import (
    Baseline,
    Controller,
    Order,
    baseline_fires,
    distance,
    path_step,
)
from meks.engine.decisions import BANDS, RangeChoice
from meks.engine.values import UnitView
from meks.engine.view import SideView
from meks.game.catalog import Band
from meks.game.rules import ONE_FLOAT
from meks.game.scenario import Scenario
from meks.game.shots import armor_save
from meks.game.vocabulary import Edge, Side

# ---- what the victory conditions name -------------------------------------------------------

_INTENTS: dict[tuple[int, Side], tuple[Scenario, Intent]] = {}


def side_intent(battle: SideView, side: Side) -> Intent:
    """What ``side``'s victory conditions (and its enemy's) ask of it: the bot's own reading
    (``meks.engine.bot.intent.read_intent``), remembered for each scenario. Read-only."""
    scenario = battle.scenario
    key = (id(scenario), side)
    known = _INTENTS.get(key)
    if known is None or known[0] is not scenario:
        if len(_INTENTS) >= 64:
            _INTENTS.clear()
        victory = scenario.victory
        known = _INTENTS[key] = (scenario, read_intent(
            victory.condition(side), victory.condition(side.enemy), side))
    return known[1]


def goal_zones(battle: SideView, side: Side) -> list[int]:
    """The zones ``side``'s own victory condition wants it in (to occupy, hold or be in,
    the zone of a set-up group to hold among them)."""
    intent = side_intent(battle, side)
    zones = list(intent.goto)
    group = group_zone(battle, intent.hold_group)
    if group is not None and group not in zones:
        zones.append(group)
    return zones


def guarded_zones(battle: SideView, side: Side) -> list[int]:
    """The zones the enemy's victory condition wants it in, wants ``side`` out of, or
    leaves the map from: where standing in the way stops the enemy."""
    intent = side_intent(battle, side)
    zones = [*intent.deny, *intent.clear]
    group = group_zone(battle, intent.deny_group)
    if group is not None:
        zones.append(group)
    for rule in intent.enemy_exits:
        zones += exit_zones(battle, side.enemy, rule)
    return sorted(set(zones))


def exit_goals(battle: SideView, unit: UnitView) -> list[tuple[int, Edge]]:
    """The exits ``unit``'s victory condition asks it to take: (zone, edge) pairs."""
    out: list[tuple[int, Edge]] = []
    for rule in side_intent(battle, unit.side).exits:
        if rule.kind is None or rule.kind is unit.kind:
            out += [(zone, rule.edge) for zone in exit_zones(battle, unit.side, rule)]
    return out


def seen_enemies(battle: SideView, side: Side) -> list[UnitView]:
    """The enemy units ``side`` sees on the map."""
    return [e for e in battle.side_units(side.enemy)
            if e.on_map and not e.hidden and e.zone is not None]


def toward(battle: SideView, start: int, goals: Iterable[int]) -> Order:
    """The next zone on a shortest path to the nearest of ``goals`` (None: there already,
    or no goal)."""
    targets = sorted(goals, key=lambda z: (distance(battle, start, z), z))
    if not targets or targets[0] == start:
        return None
    return path_step(battle, start, targets[0])


def onward(battle: SideView, side: Side, goal: Callable[[UnitView], Order]) -> dict[str, Order]:
    """Second-movement orders: each unit that can move goes where ``goal`` sends it, when
    that is one of its legal second moves."""
    orders: dict[str, Order] = {}
    for unit in battle.side_units(side):
        if unit.on_map and unit.mobile and unit.can_act and unit.zone is not None:
            where = goal(unit)
            if where is not None and where in battle.move_options(unit, second=True):
                orders[unit.id] = where
    return orders


def shift_toward(band: Band, want: Band, options: Sequence[RangeChoice]) -> RangeChoice:
    """The range choice among ``options`` that takes the band from ``band`` closest to
    ``want`` without passing it (STAY when none helps)."""
    gap = BANDS.index(want) - BANDS.index(band)
    steps: tuple[RangeChoice, ...]
    if gap < 0:
        steps = (RangeChoice.CLOSE_TWO, RangeChoice.CLOSE) if gap <= -2 else (RangeChoice.CLOSE,)
    elif gap > 0:
        steps = (RangeChoice.OPEN_TWO, RangeChoice.OPEN) if gap >= 2 else (RangeChoice.OPEN,)
    else:
        steps = ()
    return next((c for c in steps if c in options), RangeChoice.STAY)


def longest_reach(units: Iterable[UnitView]) -> Band:
    """The longest band any live ranged weapon of ``units`` reaches (Short when none)."""
    reach = Band.SHORT
    for unit in units:
        for slot in unit.live_weapons():
            weapon = slot.weapon
            if not weapon.is_small and weapon.range.rank > reach.rank:
                reach = weapon.range
    return reach


def expected_damage(battle: SideView, shooters: Iterable[UnitView], targets: Sequence[UnitView],
                    band: Band) -> float:
    """The Hits ``shooters`` are expected to get through armor in one exchange at ``band``:
    each fires the ranged weapons the baseline's fire plan would (in range, within the heat
    rating), each at the Mek or vehicle among ``targets`` it does most to, with the engine's
    to-hit odds (the view's ``to_hit``) and armor saves (``meks.game.shots.armor_save``)."""
    aims = [t for t in targets if not t.is_infantry and not t.decoy]
    if not aims:
        return 0.0
    total = 0.0
    for unit in shooters:
        if unit.decoy or not unit.can_act:
            continue
        heat = unit.heat
        rating = unit.heat_rating(battle.moors(unit.zone or 5))
        hot = not unit.vehicle
        for slot in unit.live_weapons():
            weapon = slot.weapon
            if weapon.is_small or not baseline_fires(
                    weapon, battle.need_at(weapon, band), band, heat, rating, hot):
                continue
            heat += weapon.heat
            total += max(
                battle.to_hit(unit, weapon, t, band).odds(ONE_FLOAT) * weapon.dice
                * armor_save(t.armor, weapon, t.has_system).fails(ONE_FLOAT)
                for t in aims)
    return total


# ---- the styles ----------------------------------------------------------------------------


class Rush(Baseline):
    """Straight at the nearest enemy, to Short range as fast as possible (module docstring)."""

    name = "rush"

    def goal(self, battle: SideView, unit: UnitView) -> Order:
        assert unit.zone is not None
        zones = [e.zone for e in seen_enemies(battle, unit.side) if e.zone is not None]
        if not zones:
            return super().goal(battle, unit)
        return toward(battle, unit.zone, zones)

    def move_first(self, battle: SideView, side: Side) -> bool:
        return True

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        return onward(battle, side, lambda unit: self.goal(battle, unit))

    def jump(self, battle: SideView, unit: UnitView) -> bool:
        return battle.band_of(unit.zone or 5) is not Band.SHORT

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        return shift_toward(battle.band_of(zone), Band.SHORT, options)


class Hold(Baseline):
    """Stand on the zones that matter, or where set up, and fight there (module docstring)."""

    name = "hold"

    def homes(self, battle: SideView, unit: UnitView) -> list[int]:
        """The zones this unit holds: those the victory conditions name, else its set-up
        zone (none for a unit that arrived from off the map)."""
        named = sorted({*goal_zones(battle, unit.side), *guarded_zones(battle, unit.side)})
        if named:
            return named
        return [unit.setup_zone] if unit.setup_zone is not None else []

    def goal(self, battle: SideView, unit: UnitView) -> Order:
        assert unit.zone is not None
        return toward(battle, unit.zone, self.homes(battle, unit))

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        orders = super().movement(battle, side)
        if "Digging In" in battle.assets[side]:
            # One Mek already at home digs in (the asset serves once).
            for unit in battle.side_units(side):
                if unit.id not in orders and unit.zone in self.homes(battle, unit) and \
                        "dig" in battle.move_options(unit):
                    orders[unit.id] = "dig"
                    break
        return orders

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        mine = [u for u in battle.in_zone(zone, side) if not u.decoy]
        ours = longest_reach(mine)
        if ours.rank > longest_reach(battle.enemies_in(zone, side)).rank:
            return shift_toward(battle.band_of(zone), ours, options)
        return super().range_choice(battle, zone, side, options)  # closes; never breaks


class KeepRange(Baseline):
    """Each fight at the band where its weapons do best against the enemy's (module
    docstring)."""

    name = "keep-range"

    def best_band(self, battle: SideView, zone: int, side: Side) -> Band:
        """The band where the side's expected damage in ``zone`` less the enemy's is
        greatest (the nearer to the present band on a tie)."""
        mine = [u for u in battle.in_zone(zone, side) if not u.decoy]
        theirs = battle.enemies_in(zone, side)
        now = BANDS.index(battle.band_of(zone))

        def edge(band: Band) -> tuple[float, int]:
            gain = expected_damage(battle, mine, theirs, band) - expected_damage(
                battle, theirs, mine, band)
            return (round(gain, 9), -abs(BANDS.index(band) - now))
        return max(BANDS, key=edge)

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        return shift_toward(battle.band_of(zone), self.best_band(battle, zone, side), options)

    def jump(self, battle: SideView, unit: UnitView) -> bool:
        zone = unit.zone or 5
        if not battle.enemies_in(zone, unit.side):
            return False
        return self.best_band(battle, zone, unit.side) is not battle.band_of(zone)


class ObjectiveRunner(Baseline):
    """Straight for the exits and zones that win, around the enemy (module docstring)."""

    name = "objective-runner"

    def stays(self, battle: SideView, side: Side) -> list[int]:
        """The zones the side wants to stand in (and fight for): its goals, else the zones
        it keeps the enemy from."""
        return goal_zones(battle, side) or guarded_zones(battle, side)

    def has_objective(self, battle: SideView, unit: UnitView) -> bool:
        return bool(exit_goals(battle, unit) or self.stays(battle, unit.side))

    def goal(self, battle: SideView, unit: UnitView) -> Order:
        assert unit.zone is not None
        exits = exit_goals(battle, unit)
        for zone, edge in exits:
            if zone == unit.zone:
                return edge
        goals = [zone for zone, _ in exits] or self.stays(battle, unit.side)
        if not goals:
            return super().goal(battle, unit)
        if unit.zone in goals:
            return None
        return self.way(battle, unit, goals)

    def way(self, battle: SideView, unit: UnitView, goals: list[int]) -> Order:
        """The first step toward the goal no enemy holds that is nearest by a way through
        zones without enemies (a held goal, or the straight way, when there is no other)."""
        assert unit.zone is not None
        held = {e.zone for e in seen_enemies(battle, unit.side)}
        first: dict[int, int] = {}  # zone -> the first step on the way there
        steps = {unit.zone: 0}
        queue = deque([unit.zone])
        while queue:
            zone = queue.popleft()
            for nxt in battle.adjacent(zone):
                if nxt in steps:
                    continue
                steps[nxt] = steps[zone] + 1
                first[nxt] = first.get(zone, nxt)
                if nxt not in held:
                    queue.append(nxt)
        reachable = [g for g in goals if g in first]
        if reachable:
            best = min(reachable, key=lambda g: (g in held, steps[g], g))
            return first[best]
        return toward(battle, unit.zone, goals)

    def move_first(self, battle: SideView, side: Side) -> bool:
        return True

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        return onward(battle, side, lambda unit: self.goal(battle, unit)
                      if self.has_objective(battle, unit) else None)

    def wants_out(self, battle: SideView, zone: int, side: Side) -> bool:
        """Whether the side's units in ``zone`` would rather be elsewhere than fight."""
        mine = [u for u in battle.in_zone(zone, side) if not u.decoy]
        if not any(self.has_objective(battle, u) for u in mine):
            return False
        return zone not in self.stays(battle, side)

    def jump(self, battle: SideView, unit: UnitView) -> bool:
        zone = unit.zone or 5
        return bool(battle.enemies_in(zone, unit.side)) and self.wants_out(
            battle, zone, unit.side)

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        if not self.wants_out(battle, zone, side):
            return super().range_choice(battle, zone, side, options)
        if RangeChoice.BREAK in options:
            return RangeChoice.BREAK
        return shift_toward(battle.band_of(zone), Band.LONG, options)


STYLES: dict[str, type[Controller]] = {
    "baseline": Baseline,
    "rush": Rush,
    "hold": Hold,
    "keep-range": KeepRange,
    "objective-runner": ObjectiveRunner,
}
"""The pool of simple styles, the baseline included, by name."""

__all__ = [
    "STYLES",
    "Hold",
    "KeepRange",
    "ObjectiveRunner",
    "Rush",
    "expected_damage",
    "goal_zones",
    "guarded_zones",
    "longest_reach",
    "shift_toward",
    "side_intent",
]
