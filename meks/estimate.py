"""A battle's odds at a glance: an estimate from the two forces, without fighting.

Fighting a few hundred battles (``meks.odds.simulate``) gives the odds of a match-up; that
takes seconds with the bot. A campaign wants an answer for several candidate enemy musters
before every battle, in well under the time of the battle itself, so it asks this module.

The estimate has two parts:

- **The edge** of the attacker over the defender: the natural log of the ratio of the two
  forces' strengths. A force's strength is its total offence times its total toughness (the
  square law of ``force_strength``), where each Mek's offence is worked out with its own
  pilot's to-hit modifier and its toughness counts only the Hits it has left. Support units
  and support results do not count.
- **The speed** of the attacker over the defender: its chance of winning a movement roll
  (its fastest Mek's against the defender's fastest, R6.2) less the defender's. Whoever wins
  the movement rolls chooses the range, so the faster side fights when and where it likes.
- **The numbers**: the log of the attacker's count of Meks over the defender's (a scenario
  won by getting a share of the force off the map is easier with more Meks to send).
- **Further terms** (``FEATURES``): the mix of the edge (the log of the offence ratio less
  the log of the toughness ratio: a force of glass cannons and one of bricks with the same
  strength fight differently), the edge squared (the curves need not be straight in it), the
  attacker's count of pilot skills less the defender's, and each side's support results, one
  term for each result the side holds (``support_term``): a Minefield known before the battle
  moves the odds as much as a Mek does.
- **A curve for each built-in scenario** (``meks/data/odds_model.yaml``): the attacker's and
  the defender's chance of winning as logistic functions of those,
  ``1 / (1 + exp(-(a + b * edge + c * speed + d * numbers + sum of the further terms)))`` for
  each side, fitted to battles the bot fought on both sides with random and campaign-like
  forces (``benchmarks/fit_odds.py`` fits them and says how well they agree with battles
  fought afresh). A draw is whatever the two leave. An edge beyond the range the fitted
  battles spanned counts as the nearest end of it; the mix and the skills are held within
  ``MIX_LIMIT`` and ``SKILLS_LIMIT``.

It is a model of the bot's battles, not a rule: the odds a player asks for with ``meks
odds`` are still fought. A scenario without a curve (one of the player's own files, or one
with house rules switched on, which change how battles go) has no estimate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from meks.catalog import Catalog
from meks.engine.bot.choices import design_profile
from meks.engine.bot.evaluation import contest
from meks.engine.units import UnitSpec, build_unit
from meks.rules import movement_roll
from meks.scenario import HouseRules, Scenario, Side
from meks.yamlio import parse_yaml

MODEL_FILE = "odds_model.yaml"
BATTLE_HOUSE_RULES = ("diagonal_moves", "six_always_hits", "bail_out", "withdrawal",
                      "combat_rounds", "break_contact")
"""The house rules that change how battles go, so that curves fitted at their defaults do
not hold otherwise (the others change what happens between battles)."""


FEATURES = ("mix", "edge2", "skills")
"""The curves' terms beyond the edge, the speed and the numbers (support results aside)."""
MIX_LIMIT = 3.0
SKILLS_LIMIT = 6.0


def strength(units: Sequence[UnitSpec], catalog: Catalog) -> float:
    """A force's strength: the total offence of its Meks (each at its pilot's to-hit
    modifier) times their total toughness (Hits left over the chance a hit gets through)."""
    offence, toughness = totals(units, catalog)
    return offence * toughness


def totals(units: Sequence[UnitSpec], catalog: Catalog) -> tuple[float, float]:
    """A force's total offence and total toughness (see ``strength``)."""
    offence = toughness = 0.0
    for unit in units:
        if unit.design is None:
            continue
        level = catalog.level(unit.pilot.level).to_hit if unit.pilot is not None else 0
        attack, tough = _profile(unit.design, catalog, level)
        hits = catalog.for_size(unit.design.size).hits
        offence += attack
        toughness += tough * max(hits - unit.damage, 0) / hits
    return offence, toughness


def _profile(design: object, catalog: Catalog, level: int) -> tuple[float, float]:
    key = (id(catalog), design, level)
    known = _PROFILES.get(key)
    if known is None:
        known = _PROFILES[key] = design_profile(design, catalog, level)  # type: ignore[arg-type]
    return known


_PROFILES: dict[tuple[int, object, int], tuple[float, float]] = {}


def rollers(units: Sequence[UnitSpec], catalog: Catalog) -> list[tuple[int, int, float]]:
    """Each Mek's movement roll (R6.2, ``meks.rules.movement_roll``) as (dice, modifier, 1):
    its chassis dice and bonus, its pilot's level, Maneuver and Chassis Familiarity, Servo
    Boosters, and Jump Jets' extra die (the zone's terrain is left out: it is the same for
    both sides)."""
    out = []
    for spec in units:
        if spec.design is None:
            continue
        unit = build_unit(spec, "estimate", Side.ATTACKER, catalog)
        pilot = unit.pilot
        systems = {slot.system.name for slot in unit.systems}
        roll = movement_roll(
            unit.move.dice, bonus=unit.move.bonus, jump="Jump Jets" in systems,
            level=pilot.level.move if pilot else 0,
            maneuver=pilot is not None and "Maneuver" in pilot.skills,
            familiarity=pilot is not None and pilot.familiarity is unit.size,
            servo_boosters="Servo Boosters" in systems)
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


def edge(forces: Mapping[Side, Sequence[UnitSpec]], catalog: Catalog) -> float:
    """The attacker's edge: log of its strength over the defender's (0 for equal forces;
    clamped to +-6 when a side has no strength at all)."""
    att = strength(forces[Side.ATTACKER], catalog)
    dfd = strength(forces[Side.DEFENDER], catalog)
    if att <= 0 or dfd <= 0:
        return 0.0 if att == dfd else (6.0 if att > dfd else -6.0)
    return max(-6.0, min(6.0, math.log(att / dfd)))


def mix(forces: Mapping[Side, Sequence[UnitSpec]], catalog: Catalog) -> float:
    """The mix of the attacker's edge: the log of its offence over the defender's less the
    log of its toughness over the defender's (0 when the edge lies as much in one as in the
    other; a side without either counts as the other's equal in it)."""
    att = totals(forces[Side.ATTACKER], catalog)
    dfd = totals(forces[Side.DEFENDER], catalog)

    def ratio(a: float, d: float) -> float:
        return math.log(a / d) if a > 0 and d > 0 else 0.0
    return max(-MIX_LIMIT, min(MIX_LIMIT, ratio(att[0], dfd[0]) - ratio(att[1], dfd[1])))


def skills(forces: Mapping[Side, Sequence[UnitSpec]]) -> float:
    """The attacker's count of pilot skills less the defender's."""
    def count(side: Side) -> int:
        return sum(len(u.pilot.skills) for u in forces[side]
                   if u.design is not None and u.pilot is not None)
    return max(-SKILLS_LIMIT, min(SKILLS_LIMIT, float(count(Side.ATTACKER) -
                                                      count(Side.DEFENDER))))


def support_term(side: Side, name: str) -> str:
    """The name of the term for support result ``name`` held by ``side``."""
    return f"{side.value} support: {name}"


def further_terms(forces: Mapping[Side, Sequence[UnitSpec]], catalog: Catalog,
          support: Mapping[Side, Sequence[str]] | None = None) -> dict[str, float]:
    """The further terms of a match-up (``FEATURES`` but the edge squared, which follows the
    edge as the curves hold it, and each support result a side holds, counted)."""
    out = {"mix": mix(forces, catalog), "skills": skills(forces)}
    for side, names in (support or {}).items():
        for name in names:
            key = support_term(side, name)
            out[key] = out.get(key, 0.0) + 1.0
    return out


@dataclass(frozen=True)
class Curve:
    """One side's chance of winning a scenario as a logistic function of the attacker's
    edge in strength and in movement rolls (the defender's curve falls with both), its
    numbers, and the further terms (``terms``: by name, see ``FEATURES`` and
    ``support_term``; a term the curve has no weight for counts for nothing)."""

    intercept: float
    slope: float
    speed: float = 0.0
    numbers: float = 0.0
    terms: tuple[tuple[str, float], ...] = ()

    def chance(self, x: float, v: float = 0.0, n: float = 0.0,
               further: Mapping[str, float] | None = None) -> float:
        z = self.intercept + self.slope * x + self.speed * v + self.numbers * n
        if self.terms:
            values = dict(further or {})
            values["edge2"] = x * x
            z += sum(weight * values.get(name, 0.0) for name, weight in self.terms)
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


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
    text = resources.files("meks").joinpath("data", MODEL_FILE).read_text("utf-8")
    raw = parse_yaml(text, MODEL_FILE)
    assert isinstance(raw, dict)
    out = {}
    for sid, entry in raw["scenarios"].items():
        low, high = entry["edges"]
        out[sid] = Model(sid, _curve(entry["attacker"]), _curve(entry["defender"]),
                         int(entry["battles"]), str(raw["controller"]), int(raw["revision"]),
                         (float(low), float(high)),
                         str(entry["scenario"]) if "scenario" in entry else None)
    return out


def _curve(raw: object) -> Curve:
    """A curve as the model file holds it: [a, b, c, d], or a mapping with ``intercept``,
    ``edge``, ``speed``, ``numbers`` and any further terms by name."""
    if isinstance(raw, list):
        a, b, c, d = (float(v) for v in raw)
        return Curve(a, b, c, d)
    assert isinstance(raw, dict)
    weights = {str(k): float(v) for k, v in raw.items()}
    a, b, c, d = (weights.pop(k, 0.0) for k in ("intercept", "edge", "speed", "numbers"))
    return Curve(a, b, c, d, tuple(sorted(weights.items())))


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


def estimate(scenario: Scenario, forces: Mapping[Side, Sequence[UnitSpec]],
             catalog: Catalog, rules: str | None = None,
             support: Mapping[Side, Sequence[str]] | None = None) -> Estimate | None:
    """The estimated odds of a battle of ``scenario`` between ``forces`` (both sides
    commanded by the bot, each with the ``support`` results it holds, known before the
    battle), or None when the scenario has no fitted curves (``rules``: as for
    ``model_for``)."""
    model = model_for(scenario, rules)
    if model is None:
        return None
    return from_edge(model, edge(forces, catalog), speed(forces, catalog), numbers(forces),
                     further_terms(forces, catalog, support))


def from_edge(model: Model, x: float, v: float = 0.0, n: float = 0.0,
              further: Mapping[str, float] | None = None) -> Estimate:
    """The odds the curves of ``model`` give at the edge ``x`` in strength, ``v`` in
    movement rolls, ``n`` in numbers and the ``further`` terms (an edge in strength beyond
    those the curves were fitted on counts as the nearest one they were: the curves say
    nothing of what was never fought)."""
    x = max(model.edges[0], min(model.edges[1], x))
    att = model.attacker.chance(x, v, n, further)
    dfd = model.defender.chance(x, v, n, further)
    total = att + dfd
    if total > 1.0:  # two curves fitted apart may overlap a little at the extremes
        att, dfd = att / total, dfd / total
    return Estimate(att, dfd, max(0.0, 1.0 - att - dfd), x, v, n)


__all__ = ["FEATURES", "Curve", "Estimate", "Model", "edge", "estimate", "from_edge",
           "further_terms", "mix", "model_for", "models", "numbers", "rollers", "skills",
           "speed", "strength", "support_term", "totals"]
