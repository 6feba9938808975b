"""The bot's choices before the shooting: where its units set up and its support goes, each
unit's task this turn, and its movement orders, with the per-battle state they share (what
the victory conditions ask of each side, who has to act, the tasks). ``Manoeuvre`` is the
base of ``Bot`` (``meks.engine.bot.policy``), which adds the decisions of combat and support.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from meks.engine.bot.choices import Difficulty
from meks.engine.bot.evaluation import Judge
from meks.engine.bot.intent import (
    Intent,
    held_zones,
    read_intent,
    standing_still,
)
from meks.engine.bot.movement import Planner, route
from meks.engine.bot.tasks import Task, Tasks
from meks.engine.controllers import Baseline, Order, distance
from meks.engine.decisions import BANDS
from meks.engine.values import UnitView
from meks.game.catalog import Band
from meks.game.scenario import Placed
from meks.game.vocabulary import BreakContact, Measure, Side, UnitKind

if TYPE_CHECKING:
    from meks.engine.view import SideView

LEAVE_BY_EXIT = 60.0  # worth of leaving the map from the exit zone the side must leave by
RETREAT_BELOW = 0.45  # force ratio in a zone under which a side not pressed for time leaves
# force ratio from which a side that would otherwise draw plays for the win: unless it is
# clearly the weaker (engine revision 13; it was 1.3, clearly the stronger, and two WASPs
# facing a VIPER kept the range at Long, where neither can fire, for the whole battle)
AHEAD_AT = 0.8


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and callers extend it
class Manoeuvre(Baseline):
    """The bot's set-up, tasks and movement, with the state of the battle it remembers."""

    def __init__(self, difficulty: Difficulty = Difficulty.NORMAL) -> None:
        self.difficulty = difficulty
        self.judge = Judge()
        self._battle: object = None
        self._intents: dict[Side, Intent] = {}
        self._assigned: dict[tuple[int, int, int, Side], dict[str, float]] = {}
        self._clock: dict[tuple[int, int, Side], int] = {}
        self._clock_stamp: tuple[tuple[int, Side, Side] | None, int] = (None, 0)
        self._roles: dict[str, str] = {}
        self._tasks: dict[Side, tuple[tuple[int, tuple[int, int], Side], dict[str, Task]]] = {}

    # ---- per-battle state ----------------------------------------------------------------------

    def _fresh(self, battle: SideView) -> None:
        """Forget remembered values once anything has happened in the battle (and
        everything when it is another battle)."""
        if battle.token is not self._battle:
            self._battle = battle.token
            self._start(battle)
        self.judge.fresh(battle)

    def _know(self, battle: SideView) -> None:
        self._fresh(battle)

    def _start(self, battle: SideView) -> None:
        """A new battle: forget the last one, read the scenario."""
        self._assigned.clear()
        self._clock.clear()
        self._clock_stamp = (None, 0)
        self._roles.clear()
        self._tasks.clear()
        self._intents = {side: read_intent(battle.scenario.victory.condition(side),
                                           battle.scenario.victory.condition(side.enemy), side)
                         for side in Side}

    def intent(self, battle: SideView, side: Side) -> Intent:
        self._know(battle)
        return self._intents[side]

    def held_zones(self, battle: SideView, side: Side) -> list[int]:
        """Zones where a hidden unit of ``side`` counts as present (``intent.held_zones``)."""
        return held_zones(battle, self.intent(battle, side))

    def clock(self, battle: SideView, side: Side) -> int:
        """+1 when standing still until the last turn wins for ``side``, -1 when it loses,
        0 when it draws: who has to act."""
        self._know(battle)
        stamp = (battle.stamp, battle.side, side)
        if stamp == self._clock_stamp[0]:
            return self._clock_stamp[1]
        key = (battle.turn, battle.alive_count(), side)
        value = self._clock.get(key)
        if value is None:
            value = self._clock[key] = standing_still(battle, side)
        # (the turn and the units alive change only with an event: while the side's stamp
        # stays, so does the answer)
        self._clock_stamp = (stamp, value)
        return value

    def deploy(self, battle: SideView, side: Side, units: Sequence[UnitView]) -> dict[str, int]:
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

    def _main_zone(self, battle: SideView, side: Side, zones: list[int]) -> list[int]:
        """Set-up zones, best first, for the bulk of the force."""
        intent = self.intent(battle, side)
        enemies = [u.zone for u in battle.side_units(side.enemy) if u.zone is not None]
        goals = intent.zones
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

    def _placements_for(self, battle: SideView, side: Side, units: Sequence[UnitView],
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

    def setup_support(self, battle: SideView, side: Side, asset: str) -> int | str | None:
        """Battle Damage on the enemy Mek worth most; the Hidden Mek on a zone to hold
        (else the toughest); the Minefield where the enemy must go; the Decoy where the bulk
        of the force stands."""
        self._know(battle)
        mine = [u for u in battle.side_units(side) if u.on_map and not u.decoy]
        enemies = [u for u in battle.side_units(side.enemy) if u.is_mek and u.alive]
        if asset == "Battle Damage":
            return max(enemies, key=lambda u: (self.judge.worth(u), u.id)).id if enemies else None
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

    def _mine_zone(self, battle: SideView, side: Side) -> int:
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
            path = route(battle, start, goal)
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

    def tasks(self, battle: SideView, side: Side) -> dict[str, Task]:
        """Every unit's task this turn (see ``Task``), worked out from the victory
        conditions and the state of the map."""
        self._know(battle)
        key = (battle.turn, battle.moment, side)
        cached = self._tasks.get(side)
        if cached is not None and cached[0] == key:
            return cached[1]
        result = Tasks(self.judge, self._roles, battle, side, intent=self.intent(battle, side),
                       clock=self.clock(battle, side)).assign()
        self._tasks[side] = (key, result)
        return result

    def wants_out(self, battle: SideView, side: Side, zone: int) -> bool:
        """Whether this side's units in ``zone`` have a reason to get out of the fight
        there (see ``leave_value``)."""
        return self.leave_value(battle, side, zone) > 0

    def wanted(self, battle: SideView, side: Side, zone: int) -> bool:
        """Whether ``zone`` is one the side's intent sends it to, denies the enemy or clears."""
        intent = self.intent(battle, side)
        return zone in intent.goto or zone in intent.deny or zone in intent.clear

    def leave_value(self, battle: SideView, side: Side, zone: int) -> float:
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
                    # Breaking contact there lets the unit leave by the exit, unless it
                    # withdraws (R6.3), which takes it away from the exit instead.
                    if battle.house.break_contact is BreakContact.STAY:
                        value = max(value, LEAVE_BY_EXIT)
                elif not quick_win:
                    # The more the clock presses, the more leaving is worth.
                    turns_left = battle.scenario.turn_limit - battle.turn + 1
                    slack = turns_left - distance(battle, zone, task.zone or zone) - 2
                    value = max(value, 20.0 + 4.0 * max(0, 8 - slack))
            elif task.role in ("keep", "evade"):
                value = max(value, 6.0)
            elif task.role == "run" and task.zone is not None and self._open_goal(
                    battle, side, task.zone) and self.judge.ratio(battle, mine, theirs) < 1.5:
                value = max(value, 15.0)
            elif task.role == "hold" and task.zone != zone and not quick_win:
                value = max(value, 5.0)
        if value:
            return value
        intent = self.intent(battle, side)
        if zone in intent.zones:
            return 0.0
        clock = self.clock(battle, side)
        if clock < 0:
            return 0.0
        ratio = self.judge.ratio(battle, mine, theirs)
        if ratio >= RETREAT_BELOW:
            return 0.0
        worst = min(self.judge.net(battle, mine, theirs, b, False, clock) for b in BANDS)
        return max(0.5, -worst)

    def _open_goal(self, battle: SideView, side: Side, goal: int) -> bool:
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

    def _quick_win(self, battle: SideView, mine: Sequence[UnitView],
                   theirs: Sequence[UnitView]) -> bool:
        """Whether the enemy here is likely gone within a turn or two."""
        real = [u for u in theirs if not u.is_infantry or u.detected]
        if len(real) < len(theirs):
            return False
        if not real:
            return True
        dealt = self.judge.power(battle, mine, real, battle.band_of(real[0].zone or 5))
        left = sum(u.remaining for u in real)
        return dealt * 1.5 >= left and self.judge.ratio(battle, mine, real) >= 2.0

    def ahead(self, battle: SideView, side: Side) -> bool:
        """Whether the side's whole force is not clearly outlasted by the enemy's it can
        see (force ratio at least ``AHEAD_AT``): enough to play for the win rather than a
        draw."""
        mine = [u for u in battle.side_units(side) if u.on_map and not u.decoy]
        theirs = [u for u in battle.side_units(side.enemy) if u.on_map and not u.hidden
                  and (u.weapons or u.is_infantry)]
        return bool(theirs) and self.judge.ratio(battle, mine, theirs) >= AHEAD_AT

    def enemy_wants_out(self, battle: SideView, side: Side, zone: int) -> bool:
        """Whether the enemy in ``zone`` would gain by slipping away (it has an edge to
        leave by, or a goal elsewhere): then Long range, where it could break contact, is
        worth avoiding."""
        theirs = self.intent(battle, side.enemy)
        if theirs.exits or theirs.occupy:
            return zone not in theirs.occupy
        return False

    # ---- movement ------------------------------------------------------------------------

    def move_first(self, battle: SideView, side: Side) -> bool:
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

    def planner(self, battle: SideView, side: Side, second: bool) -> Planner:
        """The movement planner of ``side`` for this phase (``second``: the second
        movement), with what the bot knows of it now."""
        self._know(battle)
        return Planner(self.judge, battle, side, second, intent=self.intent(battle, side),
                       clock=self.clock(battle, side), tasks=self.tasks(battle, side))

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        return self.planner(battle, side, second=False).orders()

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        return self.planner(battle, side, second=True).orders()

    def arrival_zone(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        """Arrive where friends are, away from the enemy's strength, near the goal."""
        self._know(battle)
        friends = [u.zone for u in battle.side_units(unit.side) if u.on_map and u.zone]
        enemies = [u for u in battle.side_units(unit.side.enemy) if u.on_map and not u.hidden]
        intent = self.intent(battle, unit.side)
        goals = intent.zones

        def score(z: int) -> tuple[float, int]:
            s = -3.0 * sum(1 for f in friends if distance(battle, f, z) <= 1)
            s += sum(self.judge.worth(e) for e in enemies if e.zone == z) * 0.2
            if goals:
                s += min(distance(battle, z, g) for g in goals)
            return (s, z)
        return min(zones, key=score)

    def jump(self, battle: SideView, unit: UnitView) -> bool:
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
        theirs = [r for r in (self.judge.roller(battle, e) for e in enemies if e.can_act)
                  if r is not None]
        leaping = [r for r in (self.judge.roller(battle, u) for u in friends) if r is not None]
        walking = [r for r in (self.judge.roller(battle, u, jump=False) for u in friends)
                   if r is not None]
        gain = self.judge.contest(leaping, theirs)[0] - self.judge.contest(walking, theirs)[0]
        if gain < 0.03:
            return False
        room = self.judge.rating(battle, unit) - unit.heat
        need = sum(w.weapon.heat for w in unit.live_weapons() if not w.weapon.is_small)
        free_heat = unit.skill("Ice Man") and not unit.ice_man_used
        return free_heat or room - 2 >= need or gain >= 0.15
