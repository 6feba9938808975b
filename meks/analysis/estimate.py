"""A battle's odds at a glance: an estimate from the two forces, without fighting.

Fighting a few hundred battles (``meks.analysis.odds.simulate``) gives the odds of a match-up; that
takes seconds with the bot. A campaign wants an answer for several candidate enemy musters
before every battle, in well under the time of the battle itself, so it asks this module.

The estimate reads these from the two forces:

- **The edge** of the attacker over the defender: the natural log of the ratio of the two
  forces' strengths. A force's strength is its total offence times its total toughness (the
  square law of ``force_strength``), where each Mek's offence is worked out with its own
  pilot's to-hit modifier and its toughness counts only the Hits it has left. The vehicles
  a side's support results bring count as the bot's muster counts them
  (``support_profile``); the other support results (assets, Commandos) do not. The edge is
  worked out on the ground the defender holds (``ground``: the terrain of its set-up
  zones), each zone's terrain modifying the to-hit rolls of both sides, and doubled against
  a side's shots as often as the other side's movement result is more than twice its own
  (R6.3, ``doubling``): in a city a slow force of Green pilots may not be able to hit at
  all.
- **The speed** of the attacker over the defender: its chance of winning a movement roll
  (its fastest Mek's against the defender's fastest, R6.2) less the defender's. Whoever wins
  the movement rolls chooses the range, so the faster side fights when and where it likes.
- **The numbers**: the log of the attacker's count of Meks over the defender's (a scenario
  won by getting a share of the force off the map is easier with more Meks to send).
- **The support** each side rolled: a weight for each support result a side may roll
  (a Hidden Mek in the Citadel's city is worth more than any edge in strength), counted as
  often as the side rolled it. The vehicles count in the strength as well; the weight says
  what else the result does in that scenario.
- **The Meks** each side fields: a weight for each design and each pilot level, counted
  once for each of the side's Meks of that design or with a pilot of that level. They say
  what the edges miss of how a design or a level fares in that scenario.
- **A curve for each built-in scenario** (``meks/analysis/data/odds_model.yaml``): the
  attacker's and the defender's chance of winning as logistic functions of all these,
  ``1 / (1 + exp(-(a + b * edge + c * speed + d * numbers + e * edge * speed + bends +
  weights)))`` for each side (the bends: a change of slope past each of a few edges,
  ``BENDS``, since a side's chance does not grow with the edge at one rate; the weights
  those of the support and the Meks), fitted to battles the bot fought on both
  sides (``benchmarks/fit_odds.py`` fits them and says how well they agree with battles
  fought afresh). A draw is whatever the two leave. An edge beyond the range the fitted
  battles spanned counts as the nearest end of it.

It is a model of the bot's battles, not a rule: the odds a player asks for with ``meks
odds`` are still fought. A scenario without a curve (one of the player's own files, or one
with house rules switched on, which change how battles go) has no estimate.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from meks.engine.bot.choices import design_profile, support_profile
from meks.engine.bot.rolls import best_roll, contest
from meks.engine.inputs import movement_roll_of
from meks.engine.units import ForceSpec, UnitSpec, build_unit, support_units
from meks.game.catalog import Catalog, Design, Terrain
from meks.game.rules import ONE_FLOAT
from meks.game.rules import contest as compare_rolls
from meks.game.scenario import HouseRules, Scenario
from meks.game.vocabulary import Side
from meks.game.yamlio import parse_yaml
from meks.game.zones import ZONES

MODEL_FILE = "odds_model.yaml"
BATTLE_HOUSE_RULES = ("diagonal_moves", "six_always_hits", "bail_out", "withdrawal",
                      "combat_rounds", "break_contact")
"""The house rules that change how battles go, so that curves fitted at their defaults do
not hold otherwise (the others change what happens between battles)."""


def strength(units: Sequence[UnitSpec], catalog: Catalog, aim: int = 0, cover: int = 0
             ) -> float:
    """A force's strength: the total offence of its Meks (each at its pilot's to-hit
    modifier) and support vehicles times their total toughness (Hits left over the chance
    a hit gets through). ``aim``: the terrain's to-hit modifier on its shots, ``cover``: on
    the shots it takes (``design_profile``)."""
    offence = toughness = 0.0
    for unit in units:
        if unit.design is None:
            vehicle = None if unit.support is None else _support(unit.support, catalog, aim,
                                                                 cover)
            if vehicle is not None:
                offence += vehicle[0]
                toughness += vehicle[1]
            continue
        level = catalog.level(unit.pilot.level).to_hit if unit.pilot is not None else 0
        attack, tough = _profile(unit.design, catalog, level, aim, cover)
        hits = catalog.for_size(unit.design.size).hits
        offence += attack
        toughness += tough * max(hits - unit.damage, 0) / hits
    return offence * toughness


def ground(scenario: Scenario, catalog: Catalog) -> tuple[Terrain, ...]:
    """The terrain of the zones where a battle of ``scenario`` is expected to be fought,
    one a zone: those the defender sets up in, which the attacker must come to (every zone,
    when the defender sets up nowhere in particular)."""
    rules = scenario.side(Side.DEFENDER)
    zones = rules.setup.zones if rules.setup is not None and rules.setup.zones else ZONES
    return tuple(catalog.terrain_named(scenario.terrain_of(z)) for z in zones)


def _profile(design: Design, catalog: Catalog, level: int, aim: int,
             cover: int) -> tuple[float, float]:
    key = (id(catalog), design, level, aim, cover)
    known = _PROFILES.get(key)
    if known is None:
        known = _PROFILES[key] = design_profile(design, catalog, level, aim=aim, cover=cover)
    return known


def _support(name: str, catalog: Catalog, aim: int,
             cover: int) -> tuple[float, float] | None:
    key = (id(catalog), name, aim, cover)
    if key not in _SUPPORT:
        _SUPPORT[key] = support_profile(name, catalog, aim=aim, cover=cover)
    return _SUPPORT[key]


_PROFILES: dict[tuple[int, Design, int, int, int], tuple[float, float]] = {}
_SUPPORT: dict[tuple[int, str, int, int], tuple[float, float] | None] = {}


def fielded(force: ForceSpec, catalog: Catalog) -> tuple[UnitSpec, ...]:
    """The units ``force`` fields: its own, then the support units its results bring
    (``meks.engine.units.support_units``), as the estimate counts them."""
    return force.units + support_units(force.support, catalog)


def rollers(units: Sequence[UnitSpec], catalog: Catalog,
            terrain: Terrain | None = None) -> list[tuple[int, int, float]]:
    """Each Mek's movement roll (R6.2, ``meks.engine.inputs.movement_roll_of``) as (dice,
    modifier, 1): its chassis dice and bonus, its pilot's level, Maneuver and Chassis
    Familiarity, Servo Boosters, and Jump Jets' extra die, in ``terrain`` (None: left out,
    as for comparing two sides on the same ground)."""
    out = []
    for spec in units:
        if spec.design is None:
            continue
        unit = build_unit(spec, "estimate", Side.ATTACKER, catalog)
        roll = movement_roll_of(unit, 0 if terrain is None else terrain.move,
                                "" if terrain is None else terrain.name,
                                jump=unit.has_system("Jump Jets"))
        out.append((roll.dice, roll.modifier, 1.0))
    return out


def speed(forces: Mapping[Side, Sequence[UnitSpec]], catalog: Catalog) -> float:
    """The attacker's edge in movement rolls: its chance of winning one (its best Mek's
    roll against the defender's best) less the defender's; -1 to 1."""
    mine = rollers(forces[Side.ATTACKER], catalog)
    theirs = rollers(forces[Side.DEFENDER], catalog)
    win, tie = contest(mine, theirs)
    return win - (1.0 - win - tie)


def numbers(forces: Mapping[Side, Sequence[UnitSpec]]) -> float:
    """The attacker's edge in numbers: the log of its count of Meks over the defender's
    (each side counted as at least one)."""
    def count(side: Side) -> int:
        return max(1, sum(1 for u in forces[side] if u.design is not None))
    return math.log(count(Side.ATTACKER) / count(Side.DEFENDER))


def doubling(forces: Mapping[Side, Sequence[UnitSpec]], catalog: Catalog,
             terrain: Terrain) -> tuple[float, float]:
    """The chances that the attacker's movement result in ``terrain`` is more than twice the
    defender's, and that the defender's is more than twice the attacker's (R6.3: the winner
    may then double the terrain's to-hit modifier against its own units)."""
    mine = best_roll(rollers(forces[Side.ATTACKER], catalog, terrain))
    theirs = best_roll(rollers(forces[Side.DEFENDER], catalog, terrain))
    odds = compare_rolls(mine, theirs, ONE_FLOAT)
    return odds.get((0, True), 0.0), odds.get((1, True), 0.0)


def edge(forces: Mapping[Side, Sequence[UnitSpec]], catalog: Catalog,
         ground: Sequence[Terrain] = ()) -> float:
    """The attacker's edge: the log of its strength over the defender's (0 for equal forces;
    clamped to +-6 when a side has no strength at all), the mean over the zones of
    ``ground`` (none: open ground). In a zone whose terrain modifies to-hit rolls it is the
    mean over the movement rolls (``doubling``): a side whose result is more than twice the
    other's is counted as doubling the terrain against its own units (the bot does so
    when it pays better than shifting the band two steps)."""
    if not ground:
        return _edge(forces, catalog, 0, 0)
    total = 0.0
    for terrain, count in Counter(ground).items():
        t = terrain.to_hit
        if not t:
            total += count * _edge(forces, catalog, 0, 0)
            continue
        mine, theirs = doubling(forces, catalog, terrain)
        total += count * ((1.0 - mine - theirs) * _edge(forces, catalog, t, t)
                          + mine * _edge(forces, catalog, 2 * t, t)
                          + theirs * _edge(forces, catalog, t, 2 * t))
    return total / len(ground)


def _edge(forces: Mapping[Side, Sequence[UnitSpec]], catalog: Catalog, attacked: int,
          defended: int) -> float:
    """The edge with the terrain's to-hit modifier ``attacked`` on the shots at the
    attacker's units and ``defended`` on those at the defender's."""
    att = strength(forces[Side.ATTACKER], catalog, aim=defended, cover=attacked)
    dfd = strength(forces[Side.DEFENDER], catalog, aim=attacked, cover=defended)
    if att <= 0 or dfd <= 0:
        return 0.0 if att == dfd else (6.0 if att > dfd else -6.0)
    return max(-6.0, min(6.0, math.log(att / dfd)))


BENDS = (-1.5, -0.5, 0.5, 1.5)
"""The edges in strength where a curve may bend: past each, the slope changes by that
bend's weight (``Curve.bends``). A straight line in the edge judged the even match-ups
worst, where the campaign's battles are balanced to be: Head to Head's curve said 45% for
a company that won 39% of its battles in the band it fitted itself."""

def past_bends(x: Any) -> list[Any]:
    """How far the edge in strength ``x`` lies past each of ``BENDS`` (0 short of it): what
    a curve's ``bends`` weigh. ``x`` may be a number or an array of them (the fitted
    battles' edges, ``benchmarks/fit_odds.py``)."""
    return [(x - at) * (x > at) for at in BENDS]


Counts = Mapping[tuple[Side, str], int]
"""How many times each side has something the curves weigh: (side, name) -> count."""
Rolled = Counts
"""How many times each side rolled each support result: (side, result) -> count."""
Weights = tuple[tuple[Side, str, float], ...]
"""A curve's weights for one kind of count: (whose, name, weight) each."""


@dataclass(frozen=True)
class Curve:
    """One side's chance of winning a scenario as a logistic function of the attacker's
    edge in strength (bending at ``BENDS``), in movement rolls, the two together, and in
    numbers, of the support results each side
    rolled (``support``: (whose, result, weight) for each result the fitted battles saw),
    and of the Meks each side fields (``designs`` and ``levels``: (whose, design or pilot
    level, weight) for each the fitted battles saw). Anything the fitted battles never saw
    weighs nothing."""

    intercept: float
    slope: float
    speed: float = 0.0
    numbers: float = 0.0
    edge_speed: float = 0.0  # the weight of the edge in strength times that in speed
    bends: tuple[float, ...] = ()  # the slope added past each of ``BENDS`` (none: straight)
    support: Weights = field(default=(), kw_only=True)
    designs: Weights = field(default=(), kw_only=True)
    levels: Weights = field(default=(), kw_only=True)

    def chance(self, x: float, v: float = 0.0, n: float = 0.0, rolled: Rolled | None = None,
               designs: Counts | None = None, levels: Counts | None = None) -> float:
        z = self.intercept + self.slope * x + self.speed * v + self.numbers * n \
            + self.edge_speed * x * v
        for past, more in zip(past_bends(x), self.bends, strict=False):
            z += more * past
        for counts, weights in ((rolled, self.support), (designs, self.designs),
                                (levels, self.levels)):
            if counts:
                z += sum(weight * counts.get((side, name), 0) for side, name, weight in weights)
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


@dataclass(frozen=True)
class Check:
    """How one side's curve agreed, when it was fitted, with battles fought afresh."""

    battles: int
    share: float  # the share of them the side won
    mean_estimate: float  # the mean chance the curve gave it
    brier: float  # the curve's Brier score
    brier_constant: float  # that of a constant guess, the share won


@dataclass(frozen=True)
class Model:
    """A scenario's fitted curves, with what they were fitted to."""

    scenario: str
    attacker: Curve
    defender: Curve
    battles: int
    controller: str
    revision: int
    edges: tuple[float, float] = (-6.0, 6.0)  # the edges the fitted battles spanned
    rules: str | None = None  # the digest of the scenario's rules they were fitted to
    command: str | None = None  # the command line that fitted them, where the file says
    checks: tuple[Check, Check] | None = None  # the attacker's and the defender's check


@dataclass(frozen=True)
class Estimate:
    """The estimated chances of a battle's three outcomes (they sum to 1)."""

    attacker: float
    defender: float
    draw: float
    edge: float
    speed: float = 0.0
    numbers: float = 0.0

    def win(self, side: Side) -> float:
        return self.attacker if side is Side.ATTACKER else self.defender

    def loss(self, side: Side) -> float:
        return self.defender if side is Side.ATTACKER else self.attacker


@cache
def models() -> dict[str, Model]:
    """The fitted curves of the built-in scenarios, by scenario id."""
    text = resources.files("meks.analysis").joinpath("data", MODEL_FILE).read_text("utf-8")
    return read_models(text)


def read_models(text: str, source: str = MODEL_FILE) -> dict[str, Model]:
    """The curves in ``text`` (a file as ``benchmarks/fit_odds.py`` writes it), by scenario
    id. Each scenario's command line (the one that fitted it) and its checks against battles
    fought afresh are read where the file records them: curves fitted before it did have
    neither."""
    raw = parse_yaml(text, source)
    assert isinstance(raw, dict)
    out = {}
    for sid, entry in raw["scenarios"].items():
        low, high = entry["edges"]
        command = entry.get("command")
        check = entry.get("check")
        out[sid] = Model(sid, _curve(entry, "attacker"), _curve(entry, "defender"),
                         int(entry["battles"]), str(raw["controller"]), int(raw["revision"]),
                         (float(low), float(high)),
                         str(entry["scenario"]) if "scenario" in entry else None,
                         None if command is None else str(command),
                         None if check is None else (_check(check["attacker"]),
                                                     _check(check["defender"])))
    return out


COUNTED = ("support", "designs", "levels")
"""The kinds of counts a curve weighs, as the file names them."""


def _curve(entry: Mapping[str, object], which: str) -> Curve:
    """The ``which`` curve ("attacker" or "defender") of a scenario's entry in the file:
    its coefficients and its weights of each kind (none where the entry lists none, as
    curves fitted before the estimate read them have)."""
    coefficients = entry[which]
    assert isinstance(coefficients, list)
    support, designs, levels = (_weights(entry.get(kind) or {}, which) for kind in COUNTED)
    # [a, b, c, d] in curves fitted before they read edge times speed and the bends
    a, b, c, d, e = [*map(float, coefficients[:5]), 0.0, 0.0, 0.0, 0.0, 0.0][:5]
    return Curve(a, b, c, d, e, tuple(map(float, coefficients[5:])), support=support,
                 designs=designs, levels=levels)


def _weights(weights: object, curve: str) -> Weights:
    """A curve's weights of one kind as the file lists them: [whose, name, weight] each."""
    assert isinstance(weights, dict)
    listed = weights.get(curve) or []
    assert isinstance(listed, list)
    return tuple((Side(whose), str(name), float(weight)) for whose, name, weight in listed)


def _check(figures: Mapping[str, object]) -> Check:
    def number(key: str) -> float:
        value = figures[key]
        assert isinstance(value, int | float)
        return float(value)

    return Check(int(number("battles")), number("share"), number("mean_estimate"),
                 number("brier"), number("brier_constant"))


def model_for(scenario: Scenario, rules: str | None = None) -> Model | None:
    """The curves for ``scenario``: only a built-in scenario without the house rules that
    change how a battle goes (``BATTLE_HOUSE_RULES``) has them. ``rules``: the digest of
    the scenario's rules (the caller works it out from the stored form), which must be the
    one the curves were fitted to: a scenario file that takes a built-in id, or a built-in
    scenario changed since the fit, has none."""
    house, default = scenario.house_rules, HouseRules()
    if any(getattr(house, name) != getattr(default, name) for name in BATTLE_HOUSE_RULES):
        return None
    model = models().get(scenario.id)
    if model is None or (rules is not None and rules != model.rules):
        return None
    return model


def estimate(scenario: Scenario, forces: Mapping[Side, ForceSpec],
             catalog: Catalog, rules: str | None = None) -> Estimate | None:
    """The estimated odds of a battle of ``scenario`` between ``forces`` (both sides
    commanded by the bot, each with the support units its results bring), or None when
    the scenario has no fitted curves (``rules``: as for ``model_for``)."""
    model = model_for(scenario, rules)
    if model is None:
        return None
    r = readings(scenario, forces, catalog)
    return from_edge(model, r.edge, r.speed, r.numbers, *r.counts)


@dataclass(frozen=True)
class Readings:
    """What the estimate reads off two forces (``readings``)."""

    edge: float
    speed: float
    numbers: float
    rolled: dict[tuple[Side, str], int]
    designs: dict[tuple[Side, str], int]
    levels: dict[tuple[Side, str], int]

    @property
    def counts(self) -> tuple[Counts, Counts, Counts]:
        """The counts the curves weigh, in the order of ``COUNTED``."""
        return self.rolled, self.designs, self.levels


def readings(scenario: Scenario, forces: Mapping[Side, ForceSpec], catalog: Catalog
             ) -> Readings:
    """What the estimate reads off two forces for a battle of ``scenario``: the attacker's
    edge in strength on the ground the defender holds, in movement rolls and in numbers
    (each side with the support vehicles its results bring), the support results each side
    rolled, and the designs and pilot levels of each side's Meks. The curves are fitted to
    these same readings (``benchmarks/fit_odds.py``)."""
    units = {side: fielded(force, catalog) for side, force in forces.items()}
    return Readings(edge(units, catalog, ground(scenario, catalog)), speed(units, catalog),
                    numbers(units), rolled(forces), designs(forces), levels(forces))


def rolled(forces: Mapping[Side, ForceSpec]) -> dict[tuple[Side, str], int]:
    """How many times each side's force holds each support result."""
    return dict(Counter((side, name) for side, force in forces.items()
                        for name in force.support))


def designs(forces: Mapping[Side, ForceSpec]) -> dict[tuple[Side, str], int]:
    """How many Meks of each design each side's force holds."""
    return dict(Counter((side, unit.design.name) for side, force in forces.items()
                        for unit in force.units if unit.design is not None))


def levels(forces: Mapping[Side, ForceSpec]) -> dict[tuple[Side, str], int]:
    """How many of each side's Meks have a pilot of each level."""
    return dict(Counter((side, unit.pilot.level) for side, force in forces.items()
                        for unit in force.units
                        if unit.design is not None and unit.pilot is not None))


def from_edge(model: Model, x: float, v: float = 0.0, n: float = 0.0,
              support: Rolled | None = None, designs: Counts | None = None,
              levels: Counts | None = None) -> Estimate:
    """The odds the curves of ``model`` give at the edge ``x`` in strength, ``v`` in
    movement rolls and ``n`` in numbers, with the support results ``support`` counts and
    the Meks' designs and pilot levels ``designs`` and ``levels`` count (an edge in
    strength beyond those the curves were fitted on counts as the nearest one they were:
    the curves say nothing of what was never fought)."""
    x = max(model.edges[0], min(model.edges[1], x))
    att = model.attacker.chance(x, v, n, support, designs, levels)
    dfd = model.defender.chance(x, v, n, support, designs, levels)
    total = att + dfd
    if total > 1.0:  # two curves fitted apart may overlap a little at the extremes
        att, dfd = att / total, dfd / total
    return Estimate(att, dfd, max(0.0, 1.0 - att - dfd), x, v, n)


__all__ = ["BENDS", "COUNTED", "Counts", "Curve", "Estimate", "Model", "Readings", "Rolled",
           "Weights", "designs", "edge", "estimate", "from_edge", "levels", "model_for",
           "models", "numbers", "past_bends", "readings", "rolled", "rollers", "speed",
           "strength"]
