"""The bot's tasks: what each unit of a side does this turn.

From the side's intent (``intent.py``) and the state of the map, ``Tasks`` hands every
mobile unit one ``Task``: leave by an exit, stay out of harm's way while the rest pin the
enemy, hold a zone, slip into an empty goal zone, keep out of reach when a draw is the best
hope, or join the main body and fight where it helps most (or wait for the enemy to come).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meks.engine.bot.evaluation import Judge
from meks.engine.bot.intent import Intent, group_gone, group_zone
from meks.engine.controllers import distance
from meks.engine.values import UnitView
from meks.game.conditions import ExitMap
from meks.game.vocabulary import Edge, Measure, Side

if TYPE_CHECKING:
    from meks.engine.view import SideView

EVADE_BELOW = 0.55  # force ratio under which a side that can only draw stays out of reach
KEEP_BELOW = 0.8  # force ratio under which a side that must keep a unit holds one back
ENGAGE_AT = 1.0  # force ratio a side starts a fight at when neither side gains by waiting
WAIT_TURNS = 4  # turns a side that gains nothing by waiting lets the enemy come to it


PRESS_FACTOR = 1.5  # how much longer a fight is expected to last than its estimate
PRESS_MARGIN = 2.0  # turns added to that: the step in, and a turn to spare


def pressed(judge: Judge, battle: SideView, turns_left: int, mine: Sequence[UnitView],
            foes: Sequence[UnitView], steps: float = 0.0) -> bool:
    """Whether waiting no longer pays: the turns left (this one included) are no more than
    the fight of ``mine`` against ``foes`` needs (``Judge.fight_turns``, with a margin for
    the turns the estimate misses), plus the ``steps`` it takes to get there. A fight that
    needs more turns than are left at all does not press: started early it would only be
    lost sooner (the clock's own thresholds still send the side in at the end)."""
    turns = judge.fight_turns(battle, mine, foes)
    return turns + steps <= turns_left <= turns * PRESS_FACTOR + PRESS_MARGIN + steps


def exit_zones(battle: SideView, side: Side, condition: ExitMap) -> list[int]:
    """The zones ``side`` may leave from to meet ``condition`` (all its exits by that edge
    when the condition names none of them)."""
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


def real(unit: UnitView) -> bool:
    """Whether an enemy unit looks like a real one (a Decoy's contact shows no weapons and
    is worth nothing; the bot never reads the enemy's hidden facts)."""
    return bool(unit.weapons or unit.is_infantry or unit.points or unit.carries_infantry)


def lurking(battle: SideView, side: Side) -> list[int]:
    """The zones where a combat goes on although the side sees no enemy there: something
    it has not found is there (a squad that has not been detected, a hidden Mek). The
    combat itself is no secret (R8.1): the play screen shows it to a player too."""
    return [z for z in battle.combat_zones()
            if not battle.enemies_in(z, side)
            and any(u.on_map and not u.decoy for u in battle.in_zone(z, side))]


class Tasks:
    """Hands out the tasks of one side, from what the bot knows of it this turn: its
    ``judge``, its ``intent`` and its ``clock`` (``Bot.clock``). ``roles``: which unit holds
    a lasting role (the keeper, the runner), kept by the bot from turn to turn; ``assign``
    fills it in."""

    def __init__(self, judge: Judge, roles: dict[str, str], battle: SideView, side: Side, *,
                 intent: Intent, clock: int) -> None:
        self.judge = judge
        self.roles = roles
        self.battle = battle
        self.side = side
        self.intent = intent
        self.clock = clock
        self.turns_left = battle.scenario.turn_limit - battle.turn + (
            0 if battle.turn else 1)
        own = battle.side_units(side)
        self.mine = [u for u in own if u.on_map and not u.decoy and u.mobile]
        self.foes = [u for u in battle.side_units(side.enemy) if u.on_map and not u.hidden]
        mine_zones = {u.zone for u in own if u.on_map and not u.hidden}
        self.free_foes = [f for f in self.foes if f.mobile
                          and f.zone not in mine_zones]
        self.lurking = lurking(battle, side)
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

    def _evaders(self, left: list[UnitView]) -> list[UnitView]:
        """When a draw is the best the side can hope for (neither side wins by waiting) and
        its whole force is clearly outmatched, the units that are not stuck in a fight keep
        out of the enemy's reach: a draw is better than a loss."""
        battle = self.battle
        if self.clock != 0 or not left or not self.foes:
            return left
        ratio = self._whole_force_ratio()
        if ratio is None or ratio >= EVADE_BELOW:
            return left
        out = []
        for unit in left:
            if battle.enemies_in(unit.zone or 0, self.side):
                out.append(unit)  # stuck: it fights (and breaks off when it can)
                continue
            self.out[unit.id] = Task("evade", self.refuge(unit))
        return out

    def _whole_force_ratio(self) -> float | None:
        """The side's whole force on the map against the enemy's armed units it sees (None
        when it sees none)."""
        mine = [u for u in self.battle.side_units(self.side) if u.on_map and not u.decoy]
        foes = [f for f in self.foes if f.weapons]
        return self.judge.ratio(self.battle, mine, foes) if foes else None

    def refuge(self, unit: UnitView) -> int:
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

    def _exits(self, left: list[UnitView]) -> list[UnitView]:
        cond, count = self.wanted_exit()
        if cond is None:
            return left
        zones = exit_zones(self.battle, self.side, cond)
        eligible = [u for u in left if cond.kind is None or u.kind is cond.kind]
        intent = self.intent
        dist = {u.id: min(distance(self.battle, u.zone or 5, z) for z in zones)
                for u in eligible}
        if intent.hunt:
            enemies_left = [u for u in self.battle.side_units(self.side.enemy) if u.alive
                            and self._quarry(u)]
            runners = sorted(eligible, key=lambda u: (dist[u.id], -u.remaining, u.id))
            if enemies_left or self.lurking:  # (an enemy not yet found is one left)
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
        deny_zone = group_zone(battle, intent.deny_group)
        if deny_zone is not None:
            return deny_zone
        if intent.be_in:
            return intent.be_in[0]
        for e in intent.enemy_exits:
            zones = exit_zones(battle, self.side.enemy, e)
            if len(zones) == 1:
                return zones[0]
        ready = intent.after_group is None or group_gone(battle, intent.after_group)
        if intent.hold and ready:
            return intent.hold[0]
        gz = group_zone(battle, intent.hold_group)
        if gz is not None and ready:
            return gz
        return None

    def _holders(self, left: list[UnitView]) -> list[UnitView]:
        zone = self.hold_zone()
        if zone is None:
            return left
        for unit in left:
            self.out[unit.id] = Task("hold", zone)
        return []

    def _keeper(self, left: list[UnitView]) -> list[UnitView]:
        """A side that must keep a unit while stopping the enemy from leaving, and is
        outmatched (its force ratio below ``KEEP_BELOW``), keeps one unit out of harm's
        way; the rest pin the enemy. A side about as strong as the enemy keeps no one back:
        a unit held out of the fight only lets the enemy win it, and then hunt the keeper
        down alone."""
        intent = self.intent
        if not (intent.keep and intent.enemy_exits) or len(left) < 1 or not self.foes:
            return left
        ratio = self._whole_force_ratio()
        if ratio is not None and ratio >= KEEP_BELOW:
            return left  # an even force fights with every unit
        key = f"keeper:{self.side.value}"
        keeper = next((u for u in left if u.id == self.roles.get(key)), None)
        if keeper is None:
            engaged = {u.id for u in left if self.battle.enemies_in(u.zone or 0, self.side)}
            pool = [u for u in left if u.id not in engaged] or left
            keeper = max(pool, key=lambda u: (self._far(u.zone or 5), u.remaining, u.id))
            self.roles[key] = keeper.id
        self.out[keeper.id] = Task("keep", self.safest(keeper))
        return [u for u in left if u is not keeper]

    def _far(self, zone: int) -> int:
        return min((distance(self.battle, zone, f.zone or 5) for f in self.foes), default=9)

    def safest(self, unit: UnitView) -> int:
        here = unit.zone or 5
        options = [here, *self.battle.adjacent(here)]
        foe_zones = {f.zone for f in self.foes}
        return max(options, key=lambda z: (z not in foe_zones, self._far(z), z == here, -z))

    def _runner(self, left: list[UnitView]) -> list[UnitView]:
        """An empty goal zone whose occupation wins: one unit slips into it."""
        battle = self.battle
        goals = [z for z in self.intent.occupy
                 if not any(f.zone == z for f in self.foes)]
        if not goals or not left:
            return left
        goal = goals[0]
        key = f"runner:{self.side.value}"
        runner = next((u for u in left if u.id == self.roles.get(key)), None)
        if runner is None:
            def fitness(u: UnitView) -> tuple[float, str]:
                dist = distance(battle, u.zone or 5, goal)
                speed = 3.5 * u.move.dice + u.move.bonus
                return (dist * 3 - speed * 0.3 + self.judge.worth(u) * 0.05, u.id)
            runner = min(left, key=fitness)
            self.roles[key] = runner.id
        self.out[runner.id] = Task("run", goal)
        return [u for u in left if u is not runner]

    def _main_target(self, left: list[UnitView]) -> int | None:
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
                distance(battle, f.zone or 5, goal), -self.judge.worth(f), f.id))
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
            before = self.judge.ratio(battle, here, foes)
            after = self.judge.ratio(battle, here + helpers, foes)
            if after >= 0.6 and after > before * 1.15:
                score = (after - before) * sum(self.judge.worth(u) for u in here)
                if best is None or score > best[0]:
                    best = (score, zone)
        if best is not None:
            return best[1]
        if intent.hunt or intent.enemy_exits or intent.occupy or intent.clear or (
                intent.hold or intent.hold_group):
            candidates = []
            for zone in sorted({f.zone or 5 for f in self.foes}):
                there = [u for u in battle.enemies_in(zone, self.side) if u.weapons or
                         u.is_infantry or self._quarry(u)]
                if not there:
                    continue
                ratio = self.judge.ratio(battle, left, there)
                value = sum(self.judge.worth(u) for u in there)
                candidates.append((-(min(ratio, 3.0) * value) + self._dist(left, zone) * 3,
                                   zone))
            if not candidates and self.lurking:
                # No enemy in sight, but one is still to be found where a combat goes on.
                return min(self.lurking, key=lambda z: (self._dist(left, z), z))
            if candidates:
                best_zone = min(candidates)[1]
                if self.clock == 0 and battle.turn <= WAIT_TURNS and \
                        self.judge.ratio(battle, left, self.foes) < ENGAGE_AT and \
                        not pressed(self.judge, battle, self.turns_left, left, self.foes,
                                    self._dist(left, best_zone)):
                    # Neither side gains by waiting and we are not the stronger: let the
                    # enemy come to us (into our minefield, to our decoy and hidden Mek),
                    # unless the fight needs the turns we would wait.
                    return None
                return best_zone
        return None

    def _quarry(self, unit: UnitView) -> bool:
        """Whether ``unit`` is one the side must destroy to win, armed or not (an APC:
        ``real``)."""
        intent = self.intent
        return intent.hunt and real(unit) and (intent.hunt_kind is None
                                               or unit.kind is intent.hunt_kind)

    def _dist(self, units: Sequence[UnitView], zone: int) -> float:
        if not units:
            return 0.0
        return sum(distance(self.battle, u.zone or 5, zone) for u in units) / len(units)
