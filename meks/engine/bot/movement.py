"""The bot's movement planning: every free unit's order in one movement phase.

``Planner`` turns the units' tasks (``tasks.py``) into orders: the runner's safe way to its
goal, a step into an empty goal zone when nothing can follow, the main body's advance (around
enemy-held zones when that costs little time, into a fight only with the force ratio the
clock allows), Digging In, and on the second movement only the moves that serve a goal.
``route`` finds the cheapest way between two zones.
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import TYPE_CHECKING

from meks.engine.bot.evaluation import Judge
from meks.engine.bot.intent import Intent, stays_hidden
from meks.engine.bot.tasks import ENGAGE_AT, Task, pressed
from meks.engine.controllers import Order, distance
from meks.engine.values import UnitView
from meks.game.vocabulary import Edge, Side
from meks.game.zones import ZONES

if TYPE_CHECKING:
    from meks.engine.view import SideView

EVEN_FIGHT = 1.0  # force ratio a side takes a fight at, late, when a draw is the alternative
NET_AT = 1.5  # force ratio from which a main body spreads out to hunt down a free enemy


# ``route``'s paths in the battle last asked about (its map and house rules stay put).
_ROUTES: dict[tuple[object, ...], list[int]] = {}
_ROUTES_OF: list[object] = [None]


def route(battle: SideView, start: int, goal: int, cost: dict[int, float] | None = None
          ) -> list[int]:
    """The cheapest path of zones from ``start`` to ``goal`` (both included): each step
    costs 1 plus ``cost`` of the zone entered. Remembered for the battle."""
    if start == goal:
        return [start]
    cost = cost or {}
    if _ROUTES_OF[0] is not battle.token:
        _ROUTES.clear()
        _ROUTES_OF[0] = battle.token
    key = (start, goal, tuple(cost.items()))
    known = _ROUTES.get(key)
    if known is None:
        known = _ROUTES[key] = _route(battle, start, goal, cost)
    return list(known)


def _route(battle: SideView, start: int, goal: int, cost: dict[int, float]) -> list[int]:
    """``route``, worked out."""
    best = {start: 0.0}
    prev: dict[int, int] = {}
    todo = [(0.0, start)]
    while todo:
        d, zone = heappop(todo)  # the nearest zone not yet left (the lowest zone on a tie)
        if zone == goal:
            break
        if d > best.get(zone, 1e9):
            continue
        for nxt in battle.adjacent(zone):
            nd = d + 1 + (cost.get(nxt, 0.0) if nxt != goal else 0.0)
            if nd < best.get(nxt, 1e9) - 1e-9:
                best[nxt] = nd
                prev[nxt] = zone
                heappush(todo, (nd, nxt))
    if goal not in prev:
        return []
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return path[::-1]


class Planner:
    """One movement phase of one side: every free unit's order, from what the bot knows of
    the side this turn: its ``judge``, its ``intent``, its ``clock`` (``Bot.clock``) and its
    units' ``tasks``."""

    def __init__(self, judge: Judge, battle: SideView, side: Side, second: bool, *,
                 intent: Intent, clock: int, tasks: dict[str, Task]) -> None:
        self.judge = judge
        self.battle = battle
        self.side = side
        self.second = second
        self.intent = intent
        self.clock = clock
        self.tasks = tasks
        self.mine = [u for u in battle.side_units(side) if u.on_map and not u.decoy]
        self.foes = [u for u in battle.side_units(side.enemy) if u.on_map and not u.hidden]
        self.foes_in: dict[int, list[UnitView]] = {}
        for u in self.foes:
            self.foes_in.setdefault(u.zone or 0, []).append(u)
        mine_zones = {u.zone for u in self.mine if not u.hidden}
        self.free_foes = [f for f in self.foes if f.mobile
                          and f.zone not in mine_zones]
        self.turns_left = battle.scenario.turn_limit - battle.turn
        # Every unit may make the second movement, whether or not it moved this turn.
        self.free = [u for u in self.mine if u.mobile and u.can_act and (second or not u.moved)
                     and battle.can_leave(u)
                     and not (u.hidden and stays_hidden(battle, intent, u))]
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

    def move(self, unit: UnitView, where: Order) -> None:
        if where is None or where == unit.zone:
            return
        if isinstance(where, int):
            if not self.can_enter(where):
                return
            self.dest[unit.id] = where
        self.out[unit.id] = where

    def threshold(self, movers: list[UnitView] | None = None,
                  foes: list[UnitView] | None = None) -> float:
        """The force ratio needed to start a fight: lower when time runs against us, and
        nothing at all once the turns left are no more than the fight needs (``pressed``)."""
        if self.clock > 0:
            return 1.6
        base = ENGAGE_AT if self.clock == 0 else \
            0.9 if self.turns_left > 4 else 0.6 if self.turns_left > 2 else 0.0
        if not (movers and foes and base) or not pressed(
                self.judge, self.battle, self.turns_left + 1, movers, foes):
            return base
        # Pressed: when time is against us, waiting longer only leaves the fight fewer
        # turns; when neither side gains by waiting, an even fight is worth taking.
        return 0.0 if self.clock < 0 else min(base, EVEN_FIGHT)

    def last_mover(self) -> bool:
        """Whether no enemy movement can follow ours into a zone this turn."""
        if self.second:
            return True
        first = self.battle.first_mover
        return first is not None and first is not self.side

    # ---- the phase

    def orders(self) -> dict[str, Order]:
        if not self.free:
            return {}
        self._take_goals()
        groups: dict[tuple[str, int | None], list[UnitView]] = {}
        for unit in self.free:
            if unit.id in self.out:
                continue
            task = self.tasks.get(unit.id, Task("main"))
            if task.role == "exit" and unit.zone == task.zone and task.edge is not None:
                self.out[unit.id] = task.edge
                self.dest[unit.id] = 0
            elif task.role == "exit":
                groups.setdefault(("exit", task.zone), []).append(unit)
            elif task.role == "run":
                self._run(unit, task)
            elif task.role in ("keep", "evade"):
                if task.zone is not None and task.zone != unit.zone:
                    nxt = route(self.battle, unit.zone or 5, task.zone, self.danger())
                    if len(nxt) > 1 and not self.foes_in.get(nxt[1]):
                        self.move(unit, nxt[1])
            else:
                groups.setdefault((task.role, task.zone), []).append(unit)
        for (role, zone), units in sorted(groups.items(), key=lambda kv: (kv[0][0],
                                                                         kv[0][1] or 0)):
            if zone is None:
                continue
            if role == "main" and self._net(units, zone):
                continue
            if role == "main" and self.clock > 0 and self._gather(units):
                continue
            self._advance(units, zone, through=role in ("hold", "exit"),
                          rush=role == "exit" and self.clock < 0)
        self._dig()
        if self.second:
            self._second_filter()
        return self.out

    def _gather(self, units: list[UnitView]) -> bool:
        """A main body spread over several zones, none of them holding enemies, gathers
        before it does anything else (called when time is on the side's side, so waiting
        costs nothing): each unit steps toward the empty zone all of them reach soonest,
        then the one farthest from the enemy, so that the enemy meets the whole body, not
        its parts one at a time. Whether it took the units' moves."""
        zones = {u.zone for u in units if u.zone is not None}
        if len(zones) < 2 or any(self.foes_in.get(z) for z in zones):
            return False
        battle = self.battle
        def score(z: int) -> tuple[int, int, int]:
            reach = max(distance(battle, u.zone or 5, z) for u in units)
            near = min((distance(battle, z, f.zone or 5) for f in self.foes), default=9)
            return (-reach, near, -z)
        home = max((z for z in ZONES if not self.foes_in.get(z)), key=score)
        for unit in units:
            if unit.zone is None or unit.zone == home:
                continue
            path = route(battle, unit.zone, home, self.danger())
            if len(path) > 1 and not self.foes_in.get(path[1]):
                self.move(unit, path[1])
        return True

    def _run(self, unit: UnitView, task: Task) -> None:
        """The runner heads for the goal by the safest way, stepping only where no free
        enemy unit can fall on it (unless time runs out), and enters the goal when nothing
        can follow it in before the turn ends."""
        goal = task.zone
        if goal is None or unit.zone == goal:
            return
        battle = self.battle
        cost = self.danger()
        path = route(battle, unit.zone or 5, goal, cost)
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
                unit = min(near, key=lambda u: (self.judge.worth(u), u.id))
                self.move(unit, goal)
                return

    def _advance(self, units: list[UnitView], goal: int, through: bool,
                 rush: bool = False) -> None:
        """Move ``units`` a step toward ``goal``: around enemy-held zones when that costs
        little time, through them when the force is strong enough; a step into an enemy
        zone is taken together, and only with the ratio the clock allows. ``rush``: units
        that must get past the enemy to an exit while time runs against their side go in
        whatever the ratio (waiting outside only leaves fewer turns to break contact and
        leave; the enemy holding the way gains by every turn they wait)."""
        battle = self.battle
        cost = self.danger()
        steps: dict[str, int] = {}
        for unit in units:
            start = unit.zone or 5
            if start == goal:
                continue
            direct = route(battle, start, goal)
            around = route(battle, start, goal, cost)
            path = direct
            if around and direct and around != direct:
                first_fight = next((z for z in direct[1:-1] if self.foes_in.get(z)), None)
                slack = len(around) - len(direct)
                if first_fight is not None:
                    ratio = self.judge.ratio(battle, units, self.foes_in[first_fight])
                    time_ok = self.turns_left >= len(around) + 1
                    if ratio < self.threshold() * 1.5 and time_ok and slack <= 2:
                        path = around
                elif slack == 0:
                    path = around
            if len(path) > 1:
                steps[unit.id] = path[1]
        by_zone: dict[int, list[UnitView]] = {}
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
            ratio = self.judge.ratio(battle, together, foes)
            need = self.threshold(together, foes)
            if through:
                need *= 0.6
            if rush:
                need = 0.0
            if self.clock < 0 and goal in self.intent.to_clear and not any(
                    u.alive and not u.arrived for u in battle.side_units(self.side)):
                # A zone the enemy must not hold when time runs out, and no one left to
                # wait for: waiting outside only lets the enemy hold it to the end.
                need = 0.0
            if there:
                # Friends are fighting there: reinforce when it clearly helps them.
                alone = self.judge.ratio(battle, there, foes)
                need = min(need, max(0.35, alone * 1.3))
            if ratio >= need:
                for unit in movers:
                    self.move(unit, zone)

    def _net(self, units: list[UnitView], goal: int) -> bool:
        """Hunt down free enemy units that keep out of reach: a clearly stronger main body of
        two units or more (outnumbering the quarry or not) spreads out so that every zone the
        quarry can reach in one move is next to one of us, and whoever is next to it steps in
        (with the others a move behind). Moving as one group, it would only ever follow a
        quarry that stays two zones ahead. A quarry is netted only in a zone the side must
        take or clear, or when it is seen on the move (``_on_the_move``): one that stands its
        ground is met by the main body together. Whether it took the units' moves."""
        battle = self.battle
        foes = [f for f in self.foes_in.get(goal, []) if f.weapons or f.is_infantry]
        if not foes or len(units) < 2 or not all(f.mobile for f in foes) or any(
                u.zone == goal for u in self.mine):
            return False
        ratio = self.judge.ratio(battle, units, foes)
        if ratio < NET_AT or ratio < self.threshold(units, foes):
            return False
        intent = self.intent
        if goal not in intent.zones and not self._on_the_move(goal):
            return False  # a quarry that stands its ground is fought, not netted
        reach = {goal, *battle.adjacent(goal)}
        catchers = [u for u in units if goal in battle.adjacent(u.zone or 5)]
        if catchers and not self.second:
            for unit in catchers:
                self.move(unit, goal)
        # A unit that steps in covers every zone the quarry may reach.
        covered = set(reach) if any(u.id in self.out for u in catchers) else set()
        taken: set[int] = set()
        for unit in sorted(units, key=lambda u: (distance(battle, u.zone or 5, goal), u.id)):
            if unit.id in self.out:
                continue
            here = unit.zone or 5
            # Most new zones of the quarry's reach covered, then nearest the quarry, then
            # a zone no other hunter has taken (closing in from several sides).
            scored = [(len(({z, *battle.adjacent(z)} & reach) - covered),
                       -distance(battle, z, goal), z not in taken, z == here, -z)
                      for z in (here, *battle.adjacent(here)) if not self.foes_in.get(z)]
            if not scored:
                continue
            best = -max(scored)[4]
            covered |= {best, *battle.adjacent(best)} & reach
            taken.add(best)
            self.move(unit, best)
        return True

    def _on_the_move(self, zone: int) -> bool:
        """Whether the enemy in ``zone`` was seen on the move lately: no enemy held the
        zone when the last turn ended, or when the turn before it ended."""
        enemy = self.side.enemy
        last, before = self.battle.seen_at_turn_end(1), self.battle.seen_at_turn_end(2)
        return bool(last) and (zone not in last[enemy] or (
            bool(before) and zone not in before[enemy]))

    def _safe_step(self, movers: list[UnitView], zone: int) -> bool:
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
        return self.judge.ratio(self.battle, group, threats) >= 0.7

    def _dig(self) -> None:
        battle = self.battle
        if self.second or "Digging In" not in battle.assets[self.side]:
            return
        best: UnitView | None = None
        for unit in self.mine:
            if not unit.is_mek or unit.id in self.out or unit.moved or not unit.can_act:
                continue
            zone = unit.zone or 5
            if not battle.terrain_to_hit(zone):
                continue
            near = [f for f in self.foes if distance(battle, f.zone or 5, zone) <= 1]
            if not near:
                continue
            if best is None or self.judge.worth(unit) > self.judge.worth(best):
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
            if self.clock < 0 and self._closes_on_goal(unit, where):
                continue  # time is against us: the turn the step saves is worth the heat
            near = any(distance(battle, f.zone or 5, where) <= 1 for f in self.foes)
            room = self.judge.rating(battle, unit) - sum(
                w.weapon.heat for w in unit.live_weapons() if not w.weapon.is_small)
            if near and room < 2:
                del self.out[uid]

    def _closes_on_goal(self, unit: UnitView, where: int) -> bool:
        """Whether stepping to ``where`` brings ``unit`` nearer a zone its side must take,
        hold or clear."""
        goals = self.intent.zones
        if not goals or unit.zone is None:
            return False
        def gap(zone: int) -> int:
            return min(distance(self.battle, zone, g) for g in goals)
        return gap(where) < gap(unit.zone)


