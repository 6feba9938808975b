"""Controllers: who decides for a side. The engine asks; a controller answers.

``Controller`` lists every decision the engine asks for. ``Baseline`` is a plain, predictable
policy: set up legally, walk toward the objective (or the nearest enemy), close to the range
its weapons like, fire what stays within the heat rating at the most damaged enemy, and use
support as soon as it can. The smarter bot derives from it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Protocol

from mypy_extensions import mypyc_attr

from meks.engine.decisions import BANDS, RangeChoice, Retreat
from meks.engine.values import SlotView, UnitView
from meks.engine.view import SideView
from meks.game.catalog import Band, Family, Weapon
from meks.game.conditions import Condition, ExitMap, Hold, InZone, Occupy, parts
from meks.game.scenario import Placed
from meks.game.vocabulary import Edge, Side
from meks.game.zones import distance as zone_distance

Order = int | Edge | str | None


class Controller(Protocol):
    """Every decision a side makes in battle. Each is asked with the side's ``SideView``
    (what it may know, R8.1) and answered with one of the decision's legal options: those
    handed in (``options``, ``candidates``, ``targets``, ``zones``, ``enemies``), or those
    the view lists (``move_options``, ``setup_options``, ``support_options``,
    ``ambush_options``). The engine refuses any other answer with a ``BattleError``."""

    def deploy(self, battle: SideView, side: Side, units: Sequence[UnitView]) -> dict[str, int]:
        """Set-up zone for each unit (unit id -> zone)."""
        ...

    def setup_support(self, battle: SideView, side: Side, asset: str) -> int | str | None:
        """Minefield or Decoy: a zone; Hidden Mek: own unit id; Battle Damage: an enemy
        Mek's id. None to leave it unused."""
        ...

    def move_first(self, battle: SideView, side: Side) -> bool:
        """Having won initiative: move first (True) or second."""
        ...

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        """Zone moves: unit id -> adjacent zone, an Edge to leave by, or "dig" (Digging In)."""
        ...

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        """The initiative winner's optional second movement (no enemy zones, +2 heat)."""
        ...

    def arrival_zone(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        """Where a reinforcement arrives."""
        ...

    def jump(self, battle: SideView, unit: UnitView) -> bool:
        """Use jump jets for this movement roll (+1 die, no terrain, +2 heat)."""
        ...

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        """Having won the movement roll: what to do with the range."""
        ...

    def withdraw(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        """Having broken contact (R6.3): the adjacent zone, free of enemies, that ``unit``
        withdraws into."""
        ...

    def targets(self, battle: SideView, unit: UnitView, candidates: list[UnitView],
                limit: int) -> list[UnitView]:
        """Up to ``limit`` targets for this round."""
        ...

    def fire_plan(self, battle: SideView, unit: UnitView, targets: list[UnitView],
                  band: Band) -> list[tuple[SlotView, UnitView]]:
        """Which weapons fire at which target, in order (heat counts in this order)."""
        ...

    def dodge(self, battle: SideView, unit: UnitView, weapon: Weapon, hits: int) -> bool:
        """Agility: dodge this attack, which hit ``hits`` times (+1 heat; once a turn)."""
        ...

    def support(self, battle: SideView, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        """Support assets to use now: (asset, unit id or zone)."""
        ...

    def ambush(self, battle: SideView, side: Side, zone: int) -> str | None:
        """The Mek that makes the Ambush attack in this zone, or None to wait."""
        ...

    def dismount(self, battle: SideView, apc: UnitView) -> bool:
        """Dismount the APC's infantry here."""
        ...

    def reveal(self, battle: SideView, unit: UnitView) -> bool:
        """A hidden unit alone with enemies: come out and fight."""
        ...

    def commando(self, battle: SideView, unit: UnitView,
                 enemies: list[UnitView]) -> tuple[str, UnitView] | None:
        """Commandos: ("identify", enemy) or ("mark", enemy)."""
        ...

    def hawkeye(self, battle: SideView, unit: UnitView,
                candidates: list[UnitView]) -> UnitView | None:
        """Hawkeye: the enemy unit (in the zone or an adjacent one) the pilot tries to ID,
        or None."""
        ...

    def bail_out(self, battle: SideView, unit: UnitView) -> bool:
        """House rule bail_out (R6.12): as its zone's combat ends, the pilot of ``unit``
        (one of the view's ``bail_out_options``) ejects: the Mek is lost, the pilot lives."""
        ...

    def withdrawal(self, battle: SideView, side: Side, options: list[Retreat]) -> Retreat:
        """House rule withdrawal (R6.13): as a turn ends, fight on, withdraw (and lose) or,
        when it is among ``options``, overrun (and win)."""
        ...


# ---- map helpers ----------------------------------------------------------------------------

# The map's paths and distances depend only on the zones and on the diagonal-moves house
# rule, so they are worked out once (controllers ask for them many times a turn).
_STEPS: dict[tuple[bool, int, int], int | None] = {}


def _grid_distances(diagonal: bool) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(zone_distance(a, b, diagonal) for b in range(10)) for a in range(10))


_DISTANCES = (_grid_distances(False), _grid_distances(True))  # zones 0..9, by diagonal_moves


def path_step(battle: SideView, start: int, goal: int) -> int | None:
    """The next zone on a shortest path from ``start`` to ``goal``."""
    if start == goal:
        return None
    key = (battle.house.diagonal_moves, start, goal)
    if key in _STEPS:
        return _STEPS[key]
    step = _path_step(battle, start, goal)
    if len(_STEPS) < 1024:
        _STEPS[key] = step
    return step


def _path_step(battle: SideView, start: int, goal: int) -> int | None:
    seen = {start: start}
    queue = deque([start])
    while queue:
        zone = queue.popleft()
        for nxt in battle.adjacent(zone):
            if nxt not in seen:
                seen[nxt] = zone
                if nxt == goal:
                    step = nxt
                    while seen[step] != start:
                        step = seen[step]
                    return step
                queue.append(nxt)
    return None


def distance(battle: SideView, a: int, b: int) -> int:
    diagonal = battle.house.diagonal_moves
    if 0 <= a <= 9 and 0 <= b <= 9:
        return _DISTANCES[1 if diagonal else 0][a][b]
    return zone_distance(a, b, diagonal)


_OBJECTIVES: dict[tuple[int, Side], tuple[Condition | None, list[int], list[ExitMap]]] = {}


def objectives(condition: Condition | None, side: Side) -> tuple[list[int], list[ExitMap]]:
    """The zones a side's victory condition wants it in, and the exits it wants."""
    # Conditions are frozen, so the answer is remembered for each one (kept alive with it,
    # so that its id is not reused); callers get lists of their own.
    key = (id(condition), side)
    known = _OBJECTIVES.get(key)
    if known is None or known[0] is not condition:
        if len(_OBJECTIVES) >= 256:
            _OBJECTIVES.clear()
        known = _OBJECTIVES[key] = (condition, *_objectives(condition, side))
    return list(known[1]), list(known[2])


def _objectives(condition: Condition | None, side: Side) -> tuple[list[int], list[ExitMap]]:
    zones: list[int] = []
    exits: list[ExitMap] = []

    for c in parts(condition):
        if isinstance(c, Occupy | Hold | InZone) and c.side is side:
            zone = getattr(c, "zone", None)
            if isinstance(zone, int):
                zones.append(zone)
        elif isinstance(c, ExitMap) and c.side is side:
            exits.append(c)
    return zones, exits


def best_band(unit: UnitView) -> Band:
    """The longest band at which all the unit's ranged weapons can fire."""
    return reach([w.weapon for w in unit.weapons if not w.destroyed])


def reach(weapons: Iterable[Weapon]) -> Band:
    """The longest band at which all of ``weapons`` that are ranged can fire (Short when
    none is)."""
    reaches = [w.range for w in weapons if not w.is_small]
    if not reaches:
        return Band.SHORT
    return _shortest(reaches)


# The baseline's choices, as plain functions of the facts they read, so that the exact duel
# (meks.analysis.duel) makes the very same choices.

def baseline_closes(band: int, want: int, two: bool) -> int:
    """How many bands the baseline closes, from the band of rank ``band`` toward the rank
    ``want`` its weapons all reach (never opening): two when it may (``two``) and that
    does not overshoot, else one, or none when it is there already."""
    if want >= band:
        return 0
    return 2 if two and band - 2 >= want else 1


def baseline_fires(weapon: Weapon, need: int | None, band: Band, heat: int, rating: int,
                   hot: bool) -> bool:
    """Whether the baseline fires ``weapon`` (To-Hit ``need`` at ``band``) next, its heat
    so far ``heat`` against its ``rating`` (``hot``: the unit counts heat at all): a weapon
    that reaches the band and keeps it within its rating. (A small weapon also needs an
    infantry target.)"""
    if weapon.is_small:
        if band is not Band.SHORT:
            return False
    elif need is None:
        return False
    return not hot or heat + weapon.heat <= rating


def _shortest(bands: list[Band]) -> Band:
    """The shortest of ``bands`` (not empty)."""
    for band in _BANDS:
        if band in bands:
            return band
    raise ValueError(f"not range bands: {bands}")


_BANDS = tuple(Band)  # shortest first


# ---- the baseline ------------------------------------------------------------------------

@mypyc_attr(allow_interpreted_subclasses=True)  # tests and callers extend it
class Baseline:
    """A plain, predictable controller (see the module docstring)."""

    name = "baseline"

    # set-up

    def deploy(self, battle: SideView, side: Side, units: Sequence[UnitView]) -> dict[str, int]:
        rules = battle.scenario.side(side)
        zones = list(rules.setup.zones) if rules.setup else [
            1, 2, 3] if side is Side.DEFENDER else [7, 8, 9]
        goal_zones, _ = objectives(battle.scenario.victory.condition(side), side)
        ordered = sorted(units, key=lambda u: -u.points)
        candidates = self._placements(battle, side, ordered, zones, goal_zones)
        for placement in candidates:
            if rules.setup is None:
                return placement
            placed = [Placed(placement[u.id], u.kind, u.points) for u in ordered]
            if not rules.setup.problems(placed, rules.strongpoints):
                return placement
        return candidates[0]

    def _placements(self, battle: SideView, side: Side, units: Sequence[UnitView],
                    zones: list[int], goal_zones: list[int]) -> list[dict[str, int]]:
        rules = battle.scenario.side(side)
        out: list[dict[str, int]] = []
        if rules.setup is not None and rules.setup.rules:
            # Fill each rule's first zone in turn, largest units first, until it holds.
            for spread in (True, False):
                placement: dict[str, int] = {}
                queue = list(units)
                for rule in rules.setup.rules:
                    target = next((z for z in rule.zones if z in zones), zones[0])
                    need = self._need(rule, units)
                    got = 0
                    while queue and got < need:
                        unit = queue.pop(0)
                        placement[unit.id] = target
                        got += unit.points if rule.of.value == "points" else 1
                last = next((z for z in rules.setup.rules[-1].zones if z in zones), zones[0])
                for unit in queue:
                    placement[unit.id] = last if not spread else zones[-1]
                out.append(placement)
        preferred = sorted(zones, key=lambda z: min(
            (distance(battle, z, g) for g in goal_zones), default=0))
        for zone in preferred:
            out.append({u.id: zone for u in units})
        return out

    @staticmethod
    def _need(rule: object, units: Sequence[UnitView]) -> int:
        at_least = getattr(rule, "at_least", None)
        if at_least:
            return int(at_least)
        percent = float(getattr(rule, "percent", 0) or 0)
        of = getattr(rule, "of", None)
        total = sum(u.points for u in units) if of is not None and of.value == "points" \
            else len(units)
        return max(1, -(-int(total * percent) // 100))

    def setup_support(self, battle: SideView, side: Side, asset: str) -> int | str | None:
        mine = [u for u in battle.side_units(side) if u.on_map and not u.decoy]
        enemies = [u for u in battle.side_units(side.enemy) if u.is_mek and u.alive]
        if asset == "Battle Damage":
            return max(enemies, key=lambda u: u.points).id if enemies else None
        if asset == "Hidden Mek":
            meks = [u for u in mine if u.is_mek]
            return meks[-1].id if meks else None
        if asset == "Minefield":
            goal_zones, _ = objectives(battle.scenario.victory.condition(side.enemy),
                                       side.enemy)
            return goal_zones[0] if goal_zones else 5
        if asset == "Decoy":
            zones = battle.scenario.side(side).setup
            return zones.zones[0] if zones else 5
        return None

    # movement

    def move_first(self, battle: SideView, side: Side) -> bool:
        return False

    def goal(self, battle: SideView, unit: UnitView) -> Order:
        """Where this unit wants to go next: its objective, else the nearest enemy."""
        assert unit.zone is not None
        zones, exits = objectives(battle.scenario.victory.condition(unit.side), unit.side)
        for exit_rule in exits:
            if exit_rule.kind is None or exit_rule.kind is unit.kind:
                allowed = [r for r in battle.scenario.side(unit.side).exits
                           if r.edge is exit_rule.edge]
                froms = [z for r in allowed for z in r.zones]
                if unit.zone in froms:
                    return exit_rule.edge
                if froms:
                    target = min(froms, key=lambda z: distance(battle, unit.zone or z, z))
                    return path_step(battle, unit.zone, target)
        if zones:
            target = min(zones, key=lambda z: distance(battle, unit.zone or z, z))
            if unit.zone == target:
                return None
            return path_step(battle, unit.zone, target)
        enemies = [e for e in battle.side_units(unit.side.enemy) if e.on_map and not e.hidden]
        if not enemies:
            return None
        nearest = min(enemies, key=lambda e: distance(battle, unit.zone or 5, e.zone or 5))
        if nearest.zone == unit.zone:
            return None
        return path_step(battle, unit.zone, nearest.zone or 5)

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        orders: dict[str, Order] = {}
        for unit in battle.side_units(side):
            if unit.on_map and unit.mobile and unit.can_act and not unit.moved and \
                    battle.can_leave(unit):
                where = self.goal(battle, unit)
                if where is not None:
                    orders[unit.id] = where
        return orders

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        return {}

    def withdraw(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        """Towards the unit's goal when that is one of the zones, else the first."""
        goal = self.goal(battle, unit)
        return goal if isinstance(goal, int) and goal in zones else zones[0]

    def arrival_zone(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        return zones[0]

    def jump(self, battle: SideView, unit: UnitView) -> bool:
        return False

    # combat

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        mine = [u for u in battle.in_zone(zone, side) if not u.decoy]
        want = _shortest([best_band(u) for u in mine]) if mine else Band.SHORT
        band = battle.band_of(zone)
        step = baseline_closes(BANDS.index(band), BANDS.index(want),
                               RangeChoice.CLOSE_TWO in options)
        if step == 2:
            return RangeChoice.CLOSE_TWO
        if step == 1 and RangeChoice.CLOSE in options:
            return RangeChoice.CLOSE
        return RangeChoice.STAY

    def targets(self, battle: SideView, unit: UnitView, candidates: list[UnitView],
                limit: int) -> list[UnitView]:
        small = any(w.weapon.is_small for w in unit.weapons if not w.destroyed)

        def weakness(e: UnitView) -> tuple[bool, int, str]:
            return (e.is_infantry and not small, e.remaining, e.id)
        if len(candidates) == 1:
            return candidates[:limit]
        return sorted(candidates, key=weakness)[:limit]

    def fire_plan(self, battle: SideView, unit: UnitView, targets: list[UnitView],
                  band: Band) -> list[tuple[SlotView, UnitView]]:
        plan: list[tuple[SlotView, UnitView]] = []
        heat = unit.heat
        rating = unit.heat_rating(battle.moors(unit.zone or 5))
        hot = not unit.vehicle
        for slot in unit.live_weapons():
            if slot.fired:  # spent this turn (an Ambush fires early, R4.3)
                continue
            weapon = slot.weapon
            small = weapon.is_small
            # Whether the weapon can fire at this band, and within the heat rating, does not
            # depend on the target.
            if not baseline_fires(weapon, None if small else weapon.needs[band],
                                  band, heat, rating, hot):
                continue
            for target in targets:
                if small and not target.is_infantry:
                    continue
                heat += weapon.heat
                plan.append((slot, target))
                break
        return plan

    def dodge(self, battle: SideView, unit: UnitView, weapon: Weapon, hits: int) -> bool:
        return True

    def support(self, battle: SideView, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        uses: list[tuple[str, object]] = []
        assets = battle.assets[side]
        if moment == "turn start" and "Repair Truck" in assets:
            hurt = [u for u in battle.side_units(side) if u.on_map and u.is_mek and u.hits]
            if hurt:
                uses.append(("Repair Truck", max(hurt, key=lambda u: u.hits).id))
        if moment == "combat":
            # R4.3: Support Fire at a unit targeted or ID'd, an Air Strike at a targeted one
            for asset, ids in (("Support Fire", battle.known[side]),
                               ("Air Strike", battle.targeted[side])):
                seen = [battle.find(uid) for uid in sorted(ids)]
                known = [u for u in seen if u is not None and u.on_map and not u.hidden
                         and not u.is_infantry]
                if known and asset in assets:
                    uses.append((asset, min(known, key=lambda u: u.remaining).id))
        return uses

    def ambush(self, battle: SideView, side: Side, zone: int) -> str | None:
        meks = [u for u in battle.in_zone(zone, side) if u.is_mek and not u.decoy
                and u.can_act and not u.fought]
        return meks[0].id if meks else None

    def dismount(self, battle: SideView, apc: UnitView) -> bool:
        return bool(apc.zone and battle.enemies_in(apc.zone, apc.side))

    def reveal(self, battle: SideView, unit: UnitView) -> bool:
        return True

    def commando(self, battle: SideView, unit: UnitView,
                 enemies: list[UnitView]) -> tuple[str, UnitView] | None:
        return ("mark", min(enemies, key=lambda e: e.remaining))

    def hawkeye(self, battle: SideView, unit: UnitView,
                candidates: list[UnitView]) -> UnitView | None:
        here = [e for e in candidates if e.zone == unit.zone]
        return (here or candidates)[0]

    def bail_out(self, battle: SideView, unit: UnitView) -> bool:
        return False  # the baseline never bails out

    def withdrawal(self, battle: SideView, side: Side, options: list[Retreat]) -> Retreat:
        return Retreat.FIGHT  # nor withdraws or overruns


def family_count(unit: UnitView, family: Family) -> int:
    return sum(1 for w in unit.live_weapons() if w.weapon.family is family)
