"""The checks that span several values of a scenario (``semantic_problems``): set-up rules
inside the set-up zones, a composition that fits the budget with the cheapest stock Meks,
exits on the edge they cross, victory conditions that can be met within the turn limit,
groups that exist, ``assumed`` entries that name real fields, and house rules that go
together. Each problem is a ``Problem`` with its path in the file; ``ScenarioInvalid`` carries
them all to the player.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import itertools
import types
import typing
from collections.abc import Iterator, Sequence
from typing import Any

from meks.game.catalog import Size, load_catalog
from meks.game.conditions import (
    COMBINATORS,
    AllOf,
    AnyOf,
    Condition,
    DestroyAll,
    ExitMap,
    Hold,
    InZone,
    KeepUnits,
    LastStanding,
    NeverOccupied,
    NotOf,
    Occupy,
    TurnLimit,
    _Condition,
)
from meks.game.construction import Pricing, check_design
from meks.game.errors import InputError, dotted, problem
from meks.game.scenario import HouseRules, Reinforcements, Scenario, Setup, SetupRule, SideRules
from meks.game.text import a_or_an
from meks.game.vocabulary import (
    KEY,
    SIDES,
    Edge,
    Measure,
    Path,
    Repair,
    Side,
    UnitKind,
    units_text,
    zones_text,
)
from meks.game.zones import ZONES

# ---- problems ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario: where (a path of keys and list indexes, as written
    in the file) and why, in words a player understands."""

    path: Path
    message: str

    @property
    def where(self) -> str:
        return dotted(self.path)


class ScenarioInvalid(InputError):
    """A scenario that cannot be used; ``found`` holds each problem with its path."""

    def __init__(self, source: str, problems: Sequence[Problem], unlisted: int = 0) -> None:
        self.found = tuple(problems)
        super().__init__(source, [problem(p.message, path=p.where) for p in self.found],
                         unlisted)


# ---- checks across values ----------------------------------------------------------------

def semantic_problems(scenario: Scenario) -> list[Problem]:
    """Problems that no single value shows: impossible set-ups and unreachable conditions."""
    problems: list[Problem] = []
    missing = [z for z in ZONES if z not in scenario.terrain]
    if missing:
        problems.append(Problem(("terrain",), f"{zones_text(missing)} "
                                f"{'has' if len(missing) == 1 else 'have'} no terrain; "
                                "give all nine zones, or leave 'terrain' out for all "
                                "Plains"))
    for side in SIDES:
        problems += _side_problems(scenario, side)
    for path, condition in scenario.conditions():
        problems += _condition_problems(scenario, path, condition)
    problems += _at_once_problems(scenario)
    problems += _assumed_problems(scenario)
    problems += house_rule_problems(scenario.house_rules)
    return problems


def house_rule_problems(house: HouseRules) -> list[Problem]:
    """House rules that do not go together: lost parts that must be replaced (R3.7) need
    repairs that are not free."""
    if house.spare_parts and house.repair is Repair.FREE:
        return [Problem(("house_rules", "spare_parts"),
                        "spare_parts needs 'repair: none' or 'repair: paid' (with free "
                        "repairs every lost part is mended anyway)")]
    return []


@functools.cache
def _cheapest_stock(pricing: Pricing) -> dict[Size, tuple[str, int]]:
    catalog = load_catalog()
    cheapest: dict[Size, tuple[str, int]] = {}
    for design in catalog.designs:
        price = check_design(design, catalog).purchase_price(pricing)
        if design.size not in cheapest or price < cheapest[design.size][1]:
            cheapest[design.size] = (design.name, price)
    return cheapest


def _side_problems(scenario: Scenario, side: Side) -> list[Problem]:
    rules = scenario.side(side)
    here: Path = (side.value,)
    problems: list[Problem] = []
    if rules.setup is None and rules.reinforcements is None:
        problems.append(Problem(here, f"{side} has neither 'setup' nor 'reinforcements': say "
                                "where its forces start or arrive"))
    cheapest = _cheapest_stock(scenario.house_rules.pricing)
    if rules.composition is not None:
        if rules.max_size is not None:
            for size in rules.composition:
                if size > rules.max_size:
                    problems.append(Problem((*here, "composition", size.value),
                                            f"{size.value} Meks are required but the largest "
                                            f"size allowed is {rules.max_size.value}"))
        cost = sum(cheapest[s][1] * n for s, n in rules.composition.items() if s in cheapest)
        if cost > rules.budget:
            parts = ", ".join(f"{n} x {cheapest[s][0]} ({cheapest[s][1]})"
                              for s, n in rules.composition.items() if s in cheapest)
            problems.append(Problem((*here, "composition"),
                                    f"even the cheapest stock Meks of these sizes cost {cost} "
                                    f"points ({parts}), more than the budget of {rules.budget}"))
        meks = sum(rules.composition.values())
        pilots = sum(rules.pilots.values())
        if pilots > meks:
            problems.append(Problem((*here, "pilots"), f"{pilots} pilots are provided for a "
                                    f"force of {meks} Mek{'s' * (meks != 1)}"))
    elif not rules.strongpoints:
        allowed = [p for s, p in cheapest.items()
                   if rules.max_size is None or s <= rules.max_size]
        if allowed and min(p for _, p in allowed) > rules.budget:
            name, price = min(allowed, key=lambda item: item[1])
            problems.append(Problem((*here, "budget"), f"a budget of {rules.budget} points "
                                    f"buys no Mek (the cheapest allowed, {name}, costs "
                                    f"{price})"))
    if rules.setup is not None:
        problems += _setup_problems(rules, rules.setup, (*here, "setup"))
    if rules.reinforcements is not None:
        problems += _arrival_problems(scenario, rules.reinforcements,
                                      (*here, "reinforcements"))
    for i, exit_rule in enumerate(rules.exits):
        off_edge = [z for z in exit_rule.from_zones if z not in exit_rule.edge.zones]
        if off_edge:
            problems.append(Problem((*here, "exits", i, "from_zones"), _off_edge(
                off_edge, exit_rule.edge)))
    return problems


def _off_edge(zones: Sequence[int], edge: Edge) -> str:
    return (f"{zones_text(zones)} {'is' if len(zones) == 1 else 'are'} not on the "
            f"{edge.value} edge ({zones_text(edge.zones)})")


def _setup_problems(rules: SideRules, setup: Setup, here: Path) -> list[Problem]:
    problems = []
    for i, rule in enumerate(setup.rules):
        outside = [z for z in rule.zones if z not in setup.zones]
        if outside:
            problems.append(Problem((*here, "rules", i, "zones"),
                                    f"{zones_text(outside)} "
                                    f"{'is' if len(outside) == 1 else 'are'} not among the "
                                    f"side's set-up zones ({zones_text(setup.zones)})"))
        if (rule.at_least is not None and rule.of is Measure.UNITS
                and rule.kind in (None, UnitKind.MEK) and rules.composition is not None):
            meks = sum(rules.composition.values()) + (
                rules.strongpoint_count if rule.kind is None else 0)
            if rule.at_least > meks:
                problems.append(Problem((*here, "rules", i, "at_least"),
                                        f"asks for {rule.at_least} "
                                        f"{units_text(rule.kind)} but the force has only "
                                        f"{meks}"))
        if (rule.at_least is not None and rule.of is Measure.POINTS
                and rule.at_least > rules.budget):
            problems.append(Problem((*here, "rules", i, "at_least"),
                                    f"asks for {rule.at_least} points but the budget is "
                                    f"{rules.budget}"))
    for measure in Measure:
        shares = [(i, r) for i, r in enumerate(setup.rules)
                  if r.percent is not None and r.of is measure and r.kind is None]
        worst = _largest_disjoint(shares)
        if worst and sum(r.percent or 0 for _, r in worst) > 100:
            total = " + ".join(f"{r.percent:g}%" for _, r in worst)
            problems.append(Problem((*here, "rules"),
                                    f"the rules ask for {total} of the force's "
                                    f"{measure.value} in separate zones, more than 100%"))
    return problems


def _largest_disjoint(shares: list[tuple[int, SetupRule]]) -> list[tuple[int, SetupRule]]:
    """The set of rules with pairwise separate zones whose percentages add up the most."""
    best: list[tuple[int, SetupRule]] = []
    if len(shares) > 10:  # a player's file never has this many; do not search
        return best
    for n in range(2, len(shares) + 1):
        for combo in itertools.combinations(shares, n):
            zone_sets = [set(r.zones) for _, r in combo]
            if all(a.isdisjoint(b) for a, b in itertools.combinations(zone_sets, 2)) and \
                    sum(r.percent or 0 for _, r in combo) > sum(r.percent or 0 for _, r in best):
                best = list(combo)
    return best


def _arrival_problems(scenario: Scenario, arrivals: Reinforcements,
                      here: Path) -> list[Problem]:
    problems = []
    schedule = arrivals.schedule
    for turn in schedule:
        if turn > scenario.turn_limit:
            problems.append(Problem((*here, "schedule", turn),
                                    f"turn {turn} is after the turn limit "
                                    f"({scenario.turn_limit})"))
    if schedule:
        last = max(schedule)
        if schedule[last] != "all":
            problems.append(Problem((*here, "schedule", last),
                                    f"units still waiting after turn {last} would never "
                                    "arrive: end the schedule with 'all'"))
    return problems


def _condition_problems(scenario: Scenario, path: Path, condition: Condition) -> list[Problem]:
    problems: list[Problem] = []
    limit = scenario.turn_limit
    if isinstance(condition, InZone) and condition.at_turn > limit:
        problems.append(Problem((*path, "at_turn"), f"turn {condition.at_turn} is after the "
                                f"turn limit ({limit}), so this can never be met"))
    if isinstance(condition, Hold) and condition.turns > limit:
        problems.append(Problem((*path, "turns"), f"a zone cannot be held for "
                                f"{condition.turns} turns in {a_or_an(f'{limit}-turn')} battle"))
    if isinstance(condition, ExitMap):
        problems += _exit_problems(scenario, path, condition)
    if isinstance(condition, DestroyAll) and condition.group is not None:
        groups = scenario.groups(condition.side.enemy)
        if condition.group not in groups:
            problems.append(Problem((*path, "group"), _no_group(
                condition.group, condition.side.enemy, list(groups))))
    if isinstance(condition, Occupy | Hold) and condition.zone_of_group is not None:
        name = condition.zone_of_group
        found = {**scenario.groups(Side.ATTACKER), **scenario.groups(Side.DEFENDER)}
        rule = found.get(name)
        if rule is None:
            problems.append(Problem((*path, "zone_of_group"), _no_group(name, None,
                                                                         list(found))))
        elif not rule.same_zone and len(rule.zones) > 1:
            problems.append(Problem((*path, "zone_of_group"),
                                    f"the {name} group may start in several zones, so it has "
                                    "no single zone: add 'same_zone: true' to its set-up rule"))
    return problems


def _no_group(name: str, side: Side | None, known: list[str]) -> str:
    owner = f"{side}'s set-up rules" if side else "any set-up rule"
    text = f"no group called {name!r} in {owner}"
    near = difflib.get_close_matches(name, known, n=1)
    if near:
        text += f" (did you mean {near[0]!r}?)"
    return text


def _exit_problems(scenario: Scenario, path: Path, condition: ExitMap) -> list[Problem]:
    problems = []
    off_edge = [z for z in condition.from_zones if z not in condition.edge.zones]
    if off_edge:
        problems.append(Problem((*path, "from_zones"), _off_edge(off_edge, condition.edge)))
    allowed = {z for r in scenario.side(condition.side).exits if r.edge is condition.edge
               for z in r.zones}
    if not allowed:
        problems.append(Problem((*path, "edge"), f"{condition.side} may not leave across the "
                                f"{condition.edge.value} edge: add it to "
                                f"{condition.side.value}.exits"))
    elif not set(condition.zones) & allowed:
        problems.append(Problem((*path, "from_zones"), f"{condition.side} may leave across "
                                f"the {condition.edge.value} edge only from "
                                f"{zones_text(sorted(allowed))}"))
    if condition.percent is None and condition.of is Measure.UNITS \
            and condition.kind in (None, UnitKind.MEK):
        composition = scenario.side(condition.side).composition
        if composition is not None and (condition.count or 0) > sum(composition.values()):
            problems.append(Problem((*path, "count"), f"{condition.side}'s force has only "
                                    f"{sum(composition.values())} Meks"))
    return problems


def _at_once_problems(scenario: Scenario) -> list[Problem]:
    """A side's condition that holds before either side has done anything, which would end
    the battle at the end of turn 1 (R7.2): pointed at the part of an 'any' that does it."""
    if scenario.turn_limit <= 1:  # then turn 1 is the last turn anyway
        return []
    problems = []
    for side in SIDES:
        condition = scenario.victory.condition(side)
        if condition is None or _from_the_start(scenario, condition) is not True:
            continue
        path: Path = ("victory", side.value)
        while isinstance(condition, AnyOf):
            i, condition = next((i, c) for i, c in enumerate(condition.any)
                                if _from_the_start(scenario, c) is True)
            path = (*path, "any", i)
        problems.append(Problem(path, "this holds before either side has done anything, so "
                                "it would end the battle at the end of turn 1; to judge it "
                                "at the last turn instead, put it under 'all' together with "
                                "'- type: turn_limit'"))
    return problems


def _from_the_start(scenario: Scenario, condition: Condition) -> bool | None:
    """Whether ``condition`` holds at the end of turn 1 of a battle of more than one turn
    when nothing has happened yet (no unit has moved, fought or left): True or False, or
    None when that depends on the set-up or on what the forces hold."""
    if isinstance(condition, AllOf | AnyOf):
        found = {_from_the_start(scenario, c) for c in (
            condition.all if isinstance(condition, AllOf) else condition.any)}
        decisive = isinstance(condition, AnyOf)  # True decides an 'any', False an 'all'
        return decisive if decisive in found else (None if None in found else not decisive)
    if isinstance(condition, NotOf):
        inner = _from_the_start(scenario, condition.negated)
        return None if inner is None else not inner
    if isinstance(condition, TurnLimit | DestroyAll | ExitMap):
        return False
    if isinstance(condition, InZone | Hold):
        return False if (condition.at_turn if isinstance(condition, InZone)
                         else condition.turns) > 1 else None
    if isinstance(condition, NeverOccupied):
        setup = scenario.side(condition.side).setup
        return None if setup is not None and condition.zone in setup.zones else True
    if isinstance(condition, KeepUnits):
        composition = scenario.side(condition.side).composition
        meks = sum(composition.values()) if composition else 1  # a force has a Mek
        sure = condition.kind in (None, UnitKind.MEK) and condition.count <= meks
        return True if sure else None
    if isinstance(condition, LastStanding):  # both sides start with a Mek
        return False if condition.kind in (None, UnitKind.MEK) else None
    return None  # occupy: where the sides set up


def _assumed_problems(scenario: Scenario) -> list[Problem]:
    problems = []
    known: list[str] | None = None
    for i, entry in enumerate(scenario.assumed):
        if not _resolves(scenario, entry):
            known = known if known is not None else list(_field_paths(Scenario))
            near = difflib.get_close_matches(entry, known, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            problems.append(Problem(("assumed", i), f"{entry!r} names no value in this "
                                    f"scenario{hint}"))
    return problems


def _resolves(scenario: Scenario, entry: str) -> bool:
    node: object = scenario
    for part in entry.replace("[", ".").replace("]", "").split("."):
        if dataclasses.is_dataclass(node) and not isinstance(node, type):
            keys = _keys(type(node))
            name = next((n for n, key in keys.items() if part in (n, key)), None)
            if name is None:
                return False
            node = node.tag if name == "type" and isinstance(node, _Condition) \
                else getattr(node, name)
        elif isinstance(node, dict):
            key = next((k for k in node if str(getattr(k, "value", k)).casefold()
                        == part.casefold()), None)
            if key is None:
                return False
            node = node[key]
        elif isinstance(node, tuple) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


@functools.cache
def _keys(cls: type) -> dict[str, str]:
    """A scenario part's fields, each with its key in a file, in the file's order; a
    condition that is not a combinator has its 'type' key too."""
    out: dict[str, str] = {}
    for field in dataclasses.fields(cls):
        key = field.metadata.get(KEY, field.name)
        if key is not None:
            out[field.name] = key
    if issubclass(cls, _Condition) and cls.tag not in COMBINATORS:
        out["type"] = "type"
    return out


def _field_paths(cls: type, prefix: str = "") -> Iterator[str]:
    hints = typing.get_type_hints(cls)
    for name, key in _keys(cls).items():
        path = f"{prefix}.{key}" if prefix else key
        yield path
        inner = _unwrap(hints.get(name))
        if dataclasses.is_dataclass(inner) and isinstance(inner, type) and \
                not issubclass(inner, _Condition):
            yield from _field_paths(inner, path)


def _unwrap(tp: Any) -> Any:
    """Strip a '| None' from a type."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


__all__ = ["Problem", "ScenarioInvalid", "house_rule_problems", "semantic_problems"]
