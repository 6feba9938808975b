"""A scenario in plain words: its map (the nine zones with their terrain and what each side
does there), both sides' set-up and how each side wins. ``meks scenario show`` and the
muster sheet both read it, so the terminal and the printed sheet say the same thing, in the
words the scenario's own data gives (``describe`` of each rule and condition)."""

from __future__ import annotations

from dataclasses import dataclass

from meks.game.scenario import Scenario, SetupRule
from meks.game.vocabulary import Measure, Result, Side


@dataclass(frozen=True)
class ZoneMark:
    """One line in a zone of the map: what ``side`` does there (None: either side)."""

    side: Side | None
    text: str


@dataclass(frozen=True)
class ZoneCell:
    zone: int
    terrain: str
    marks: tuple[ZoneMark, ...]


@dataclass(frozen=True)
class SideBrief:
    side: Side
    budget: int
    setup: str
    arrivals: str
    strongpoints: str
    exits: str
    wins: str  # "when ..." or the sentence saying it has no condition of its own


@dataclass(frozen=True)
class ScenarioBrief:
    id: str
    name: str
    briefing: str
    turn_limit: int
    rounds: int  # the most rounds of one zone combat in one combat step (R5.2)
    zones: tuple[ZoneCell, ...]  # 1 to 9, rows of three, north at the top
    sides: tuple[SideBrief, ...]  # attacker, defender
    at_turn_limit: str
    changes: tuple[str, ...]
    house_rules: tuple[str, ...]

    def rows(self) -> list[tuple[ZoneCell, ...]]:
        """The map as three rows of three zones, north first."""
        return [self.zones[i:i + 3] for i in range(0, 9, 3)]

    def side(self, side: Side) -> SideBrief:
        return next(s for s in self.sides if s.side is side)


def rule_mark(rule: SetupRule) -> str:
    """A set-up rule in a few words for a map cell: '>= 50% of points', '>= 1 Mek'."""
    what = "points" if rule.of is Measure.POINTS else {
        None: "units", "mek": "Meks", "vehicle": "vehicles", "infantry": "infantry"}[
        rule.kind.value if rule.kind else None]
    amount = f"{rule.percent:g}% of {what}" if rule.percent is not None \
        else f"{rule.at_least} {what if rule.at_least != 1 else what.rstrip('s')}"
    text = f">= {amount}"
    if rule.same_zone and len(rule.zones) > 1:
        text += " in one zone"
    if rule.group:
        text += f" ({rule.group})"
    return text


def zone_marks(scenario: Scenario, zone: int) -> list[ZoneMark]:
    """What each side does in ``zone``: sets up (and the set-up rules that name the zone),
    arrives, holds strongpoints, may leave the map."""
    marks = []
    for side in Side:
        rules = scenario.side(side)
        who = side.value.capitalize()
        if rules.setup is not None and zone in rules.setup.zones:
            marks.append(ZoneMark(side, f"{who} sets up"))
            marks += [ZoneMark(side, f"  {rule_mark(rule)}") for rule in rules.setup.rules
                      if zone in rule.zones]
        if rules.reinforcements is not None and zone in rules.reinforcements.zones:
            marks.append(ZoneMark(side, f"{who} arrives"))
        count = sum(s.count for s in rules.strongpoints if s.zone == zone)
        if count:
            marks.append(ZoneMark(None, f"{who}: {count} strongpoint{'s' * (count != 1)}"))
        for exit_rule in rules.exits:
            if zone in exit_rule.zones:
                marks.append(ZoneMark(None, f"{who} exits {exit_rule.edge.value}"))
    return marks


def wins_text(scenario: Scenario, side: Side) -> str:
    """How ``side`` wins, as a sentence's end: 'when ...', or that it has no condition."""
    condition = scenario.victory.condition(side)
    if condition is None:
        return "has no condition of its own; it can win only through the turn-limit result"
    return f"wins when {condition.describe()}"


def turn_limit_text(scenario: Scenario) -> str:
    """What happens at the turn limit when no side has won before."""
    result = scenario.victory.at_turn_limit
    if result is Result.DRAW:
        return "a draw"
    if result is Result.MEK_POINTS:
        return ("the side that destroyed more of the enemy's Mek points wins (equal points: "
                "a draw)")
    return f"the {result.value} wins"


def brief(scenario: Scenario) -> ScenarioBrief:
    """``scenario`` in plain words."""
    zones = tuple(ZoneCell(z, scenario.terrain_of(z), tuple(zone_marks(scenario, z)))
                  for z in range(1, 10))
    sides = []
    for side in Side:
        r = scenario.side(side)
        sides.append(SideBrief(
            side, r.budget, r.setup.describe() if r.setup else "-",
            r.reinforcements.describe() if r.reinforcements else "-",
            "; ".join(s.describe() for s in r.strongpoints) or "-",
            "; ".join(e.describe() for e in r.exits) or "-", wins_text(scenario, side)))
    return ScenarioBrief(scenario.id, scenario.name, " ".join(scenario.briefing.split()),
                         scenario.turn_limit, scenario.house_rules.combat_rounds, zones,
                         tuple(sides), turn_limit_text(scenario), tuple(scenario.changes),
                         tuple(scenario.house_rules.changed()))
