"""Fit the odds curves of ``meks/analysis/estimate.py`` to battles the bot fights, and say how
well they agree with battles fought afresh.

For each built-in scenario, ``--pairs`` random match-ups are drawn: each side's budget is the
scenario's times one of 0.70, 0.85, 1.00, 1.15, 1.30; its Meks are, half the time, any force
of stock designs within the scenario's limits that spends at least 75% of that budget (all
such forces equally likely), else the bot's muster for that budget at a random difficulty
(easy, normal or hard); and its pilots are Green, Regular,
Veteran or Elite at random (30/35/25/10 in 100): half the time one level for the whole side
(as the enemy of a campaign has), else a level for each Mek; each pilot has a random skill
with a chance of 1 in 4, and another with the same chance, and so on. A scenario of the
built-in campaign, whose company forces ``campaign_runs.py --record`` has recorded, has
campaign-like match-ups instead (``campaign_units``). Each match-up is fought
``--battles`` times, the bot commanding both sides, with the support results the scenario
gives rolled from the battle's seed. The attacker's and the defender's wins are then fitted,
each by its own logistic regression, against the attacker's edge in strength and in movement
rolls and in numbers (``meks.analysis.estimate.edge``, ``speed`` and ``numbers``), the first
two together and the edge in strength past each of ``estimate.BENDS`` (``edge_terms``), worked
out for each battle with the support vehicles its rolls brought (``estimate.fielded``), the
edge on the ground the scenario's defender holds (``estimate.ground``), and against how many
times each side rolled each support result and how many of its Meks are of each design and
have a pilot of each level (a weight for each result, design and level the fitted battles
saw, held towards 0 more firmly than the rest, ``SUPPORT_RIDGE`` and ``MEK_RIDGE``, so that
one seen in a handful of battles cannot swing the estimate on its own; the designs and
levels most firmly, so that they say what the edges miss and the edge in strength still
counts: a force's Hits left and its pilots' skills are read by the edges only).

A second, independent draw of match-ups (other seeds, ``--check-pairs``) is fought in the same
way and compared with what the fitted curves say: the table gives, by bands of the estimated
chance, how many battles fell in the band, the mean estimate and the share really won, for the
attacker and the defender, and the Brier score of the estimate against that of a constant
(the scenario's overall share): below it means the curves tell match-ups apart.

    python benchmarks/fit_odds.py [--pairs N] [--battles K] [--check-pairs M] [--jobs J]
                                  [--scenario ID ...] [--write [--output FILE]] [--json]

With ``--write`` the fitted curves replace those of ``meks/analysis/data/odds_model.yaml`` (or of
``--output``) for the scenarios fitted, with their checks and this run's command line, every
default spelt out; the file's other scenarios are kept, each with the command that fitted it.
The draws are seeded by the arguments (``--jobs`` only shares the work out), so the recorded
command, run again from the repository's root, writes the same file. A benchmark, not a test:
a poor fit is a figure; it exits 2 on a bad argument and 1 when it cannot run or cannot write
the file (checked before any battle is fought), saying why on stderr; the file is written
whole or not at all.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve()
REPO_ROOT = HERE.parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks._run import (  # noqa: E402
    Failure,
    failed,
    parse,
    positive_int,
    usage_error,
    writable,
    write_whole,
)
from benchmarks.bot_vs_baseline import CAMPAIGN_SCENARIOS, SCENARIOS, fight_all  # noqa: E402
from campaigns.files.scenario_model import rules_digest  # noqa: E402
from campaigns.files.scenarios import get_scenario  # noqa: E402
from campaigns.processes import available_cpus  # noqa: E402
from meks.analysis.estimate import (  # noqa: E402
    BENDS,
    COUNTED,
    MODEL_FILE,
    Curve,
    Model,
    from_edge,
    past_bends,
    readings,
)
from meks.engine import REVISION  # noqa: E402
from meks.engine.bot.choices import (  # noqa: E402
    DIFFICULTIES,
    Difficulty,
    forces_within,
    muster,
)
from meks.engine.bot.policy import Bot  # noqa: E402
from meks.engine.core import Battle  # noqa: E402
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec  # noqa: E402
from meks.game.catalog import Catalog, Design, load_catalog  # noqa: E402
from meks.game.dice import Dice  # noqa: E402
from meks.game.errors import InputError  # noqa: E402
from meks.game.pilots import available_skills  # noqa: E402
from meks.game.scenario import Scenario  # noqa: E402
from meks.game.support import RICH_UNCLE, roll_support  # noqa: E402
from meks.game.vocabulary import Side  # noqa: E402

SCALES = (0.70, 0.85, 1.00, 1.15, 1.30)
LEVELS = (("Green", 30), ("Regular", 35), ("Veteran", 25), ("Elite", 10))
SKILL_CHANCE = 0.25  # a pilot's chance of a skill, and of each further one
FIT_SEED = 31_000
CHECK_SEED = 77_000
MODEL_PATH = REPO_ROOT / "meks" / "analysis" / "data" / MODEL_FILE
CAMPAIGN_FORCES = REPO_ROOT / "benchmarks" / "data" / "campaign_forces.json"
CAMPAIGN_SHARE = 1.0  # of a scenario's match-ups, when it has recorded company forces
RIDGE = 1e-2  # the ridge on the intercept, the three edges, edge times speed and the bends
SUPPORT_RIDGE = 1.0  # the ridge on each support result's weight
MEK_RIDGE = 10.0  # the ridge on each design's and each pilot level's weight
Pairs = tuple[tuple[tuple[Side, str], int], ...]
Fought = tuple[tuple[float, float, float], tuple[Pairs, Pairs, Pairs], str]
"""One battle as fitted: the attacker's edge, speed and numbers; how many times each side
rolled each support result, fields each design and each pilot level (``estimate.rolled``,
``designs`` and ``levels``), each as ((side, name), count) pairs; and the winner or
'draw'."""


@dataclass(frozen=True)
class Task:
    scenario: str
    pair: int  # the match-up's number (its seed is base + pair)
    base: int  # FIT_SEED or CHECK_SEED
    battles: int


def side_units(rng: random.Random, scenario_id: str, side: Side,
               scenario: Scenario | None = None,
               scales: tuple[float, ...] = SCALES) -> tuple[UnitSpec, ...]:
    """A random force for ``side`` (see the module's docstring), its budget the scenario's
    times one of ``scales``; () when none fits."""
    catalog = load_catalog()
    rules = (scenario or get_scenario(scenario_id)).side(side)
    scale = rng.choice(scales)
    budget = round(rules.budget * scale)
    designs: list[Design] | tuple[Design, ...] = ()
    if rng.random() < 0.5:  # any force within the limits that spends most of the budget
        options = forces_within(budget, rules.max_size, rules.composition, catalog,
                                spend=0.75) or forces_within(
            rules.budget, rules.max_size, rules.composition, catalog, spend=0.75)
        if options:
            designs = rng.choice(options)
    if not designs:  # the bot's own muster at a random difficulty
        difficulty = Difficulty(rng.choice(DIFFICULTIES))
        try:
            designs = muster(budget, rules.max_size, rules.composition, catalog, difficulty)
        except ValueError:
            designs = muster(rules.budget, rules.max_size, rules.composition, catalog,
                             difficulty)
    names, weights = zip(*LEVELS, strict=True)
    units = []
    whole = rng.choices(names, weights)[0] if rng.random() < 0.5 else None
    for i, design in enumerate(designs):
        level = whole or rng.choices(names, weights)[0]
        skills: list[str] = []
        while rng.random() < SKILL_CHANCE:  # a pilot who has learnt a skill or more
            skills.append(rng.choice(available_skills(skills, catalog)))
        units.append(UnitSpec(f"{side.value[0].upper()}{i + 1} {design.name}", design,
                              PilotSpec(f"{side.value} pilot {i + 1}", level, tuple(skills)),
                              points=design.price or 0))
    return tuple(units)


@cache
def campaign_pool(scenario_id: str) -> tuple[tuple[Side, str, tuple[UnitSpec, ...]], ...]:
    """The company forces recorded for ``scenario_id`` by seeded campaigns (``CAMPAIGN_FORCES``,
    written by ``campaign_runs.py --record``): (the company's side, the campaign's difficulty,
    its units) each; none when the file is missing or holds no battle of the scenario."""
    from campaigns.fighters import force_from_data

    if not CAMPAIGN_FORCES.exists():
        return ()
    battles = json.loads(CAMPAIGN_FORCES.read_text(encoding="utf-8"))
    return tuple((Side(b["side"]), b["difficulty"], force_from_data(b["company"]).units)
                 for b in battles if b["scenario"] == scenario_id)


def campaign_units(rng: random.Random, scenario: Scenario,
                   catalog: Catalog) -> dict[Side, tuple[UnitSpec, ...]] | None:
    """A campaign-like match-up, ``CAMPAIGN_SHARE`` of the time when the scenario has recorded
    company forces: one of them (pilots with the levels, skills and kills a campaign gave
    them, Meks bought over time and worn), against one of the enemies a campaign's
    balancing chooses from at the campaign's difficulty (``campaigns.balance.candidates``
    and ``floor_candidates``: the bot's muster for a budget of the band or of the floor
    below it, every pilot of one level); else None."""
    from campaigns.balance import candidates, enemy_force, floor_candidates
    from campaigns.errors import Refused

    pool = campaign_pool(scenario.id)
    if not pool or rng.random() >= CAMPAIGN_SHARE:
        return None
    side, difficulty, company = rng.choice(pool)
    option = rng.choice(candidates(scenario, side.enemy, Difficulty(difficulty))
                        + floor_candidates(scenario, side.enemy, Difficulty(difficulty)))
    try:
        enemy = enemy_force(scenario, side.enemy, Difficulty(difficulty), catalog, rolls=[],
                            budget=option.budget, level=option.level)
    except Refused:
        return None
    return {side: company, side.enemy: enemy.units}


def fight(task: Task) -> tuple[str, list[Fought]]:
    """One match-up: (scenario, each battle as ``Fought``: the attacker's edge, speed and
    numbers with the support units that battle's rolls brought, the support results, and
    its winner or 'draw')."""
    catalog = load_catalog()
    scenario = get_scenario(task.scenario)
    rng = random.Random(task.base * 1000 + task.pair)
    units = campaign_units(rng, scenario, catalog) or {
        side: side_units(rng, task.scenario, side) for side in Side}
    out = []
    for b in range(task.battles):
        seed = (task.base + task.pair) * 100 + b
        forces = with_support(scenario, units, seed, catalog)
        r = readings(scenario, forces, catalog)
        result = Battle(scenario, forces, Dice.from_seed(seed),
                        {Side.ATTACKER: Bot(), Side.DEFENDER: Bot()}, catalog).run()
        out.append(((r.edge, r.speed, r.numbers),
                    tuple(tuple(counts.items()) for counts in r.counts),
                    result.winner.value if result.winner else "draw"))
    return task.scenario, out


def with_support(scenario: Scenario, units: dict[Side, tuple[UnitSpec, ...]], seed: int,
                 catalog: Catalog) -> dict[Side, ForceSpec]:
    """Each side's force for the battle of ``seed``: its ``units``, with the support results
    the scenario gives it rolled from a stream of that seed's own (Rich Uncle left out: the
    force is drawn already)."""
    support_dice = Dice.from_seed(seed * 7 + 3)
    forces = {}
    for side in Side:
        results = [roll_support(support_dice, catalog)
                   for _ in range(scenario.side(side).support_rolls)]
        support = tuple(r.entry.name for r in results if r.entry.name != RICH_UNCLE)
        forces[side] = ForceSpec(units[side], support, side.value)
    return forces


def logistic_fit(features: np.ndarray, y: np.ndarray,
                 penalties: np.ndarray | None = None) -> tuple[float, ...]:
    """Maximum-likelihood logistic regression of ``y`` (0/1) on the ``features`` (a row a
    battle) by Newton's method, with a light ridge (``RIDGE``) so that a scenario one side
    always wins still gives finite curves; ``penalties``: each feature's own ridge instead."""
    design = np.column_stack([np.ones(len(y)), features])
    beta = np.zeros(design.shape[1])
    own = np.full(design.shape[1] - 1, RIDGE) if penalties is None else penalties
    ridge = np.diag(np.concatenate([[RIDGE], own]))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(design @ beta)))
        w = p * (1 - p)
        grad = design.T @ (y - p) - ridge @ beta
        hess = design.T @ (design * w[:, None]) + ridge
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-9:
            break
    return tuple(float(b) for b in beta)


@dataclass(frozen=True)
class Rows:
    """A scenario's battles as the regression reads them."""

    xs: np.ndarray  # edge, speed and numbers, a row a battle
    counted: list[tuple[dict[tuple[Side, str], int], ...]]  # each battle's counts, by kind
    attacker: np.ndarray  # 1 where the attacker won
    defender: np.ndarray

    def columns(self) -> list[list[tuple[Side, str]]]:
        """For each kind of count (``estimate.COUNTED``: support results, designs, levels),
        each (side, name) some battle counted, in a fixed order."""
        return [sorted({key for counts in self.counted for key in counts[kind]},
                       key=lambda key: (key[0].value, key[1])) for kind in range(len(COUNTED))]

    def design(self, columns: list[list[tuple[Side, str]]]) -> np.ndarray:
        """The edges, the edge in strength times that in speed and past each of ``BENDS``
        (``edge_terms``), then a count for each of ``columns``, kind after kind."""
        flat = [(kind, key) for kind, keys in enumerate(columns) for key in keys]
        counts = np.array([[row[kind].get(key, 0) for kind, key in flat]
                           for row in self.counted],
                          dtype=float).reshape(len(self.counted), len(flat))
        return np.column_stack([self.xs, edge_terms(self.xs), counts])


EDGE_TERMS = 1 + len(BENDS)
"""The columns ``edge_terms`` adds after the three edges."""


def edge_terms(xs: np.ndarray) -> np.ndarray:
    """For each battle (edge, speed, numbers), the edge times the speed and how far the
    edge lies past each of ``BENDS`` (0 short of it), as ``Curve.chance`` reads them."""
    x, v = xs[:, 0], xs[:, 1]
    return np.column_stack([x * v, *past_bends(x)])


def rows(results: list[tuple[str, list[Fought]]], scenario: str) -> Rows:
    xs, att, dfd = [], [], []
    counted: list[tuple[dict[tuple[Side, str], int], ...]] = []
    for sid, battles in results:
        if sid != scenario:
            continue
        for features, counts, outcome in battles:
            xs.append(features)
            counted.append(tuple(dict(pairs) for pairs in counts))
            att.append(1.0 if outcome == "attacker" else 0.0)
            dfd.append(1.0 if outcome == "defender" else 0.0)
    return Rows(np.array(xs).reshape(-1, 3), counted, np.array(att), np.array(dfd))


def fit_curve(fitted: Rows, won: np.ndarray) -> Curve:
    """One side's curve fitted to ``fitted`` (``won``: 1 where that side won)."""
    columns = fitted.columns()
    support, designs, levels = map(len, columns)
    penalties = np.array([RIDGE] * (3 + EDGE_TERMS) + [SUPPORT_RIDGE] * support
                         + [MEK_RIDGE] * (designs + levels))
    coefficients = logistic_fit(fitted.design(columns), won, penalties)
    weights, at = [], 4 + EDGE_TERMS
    for keys in columns:
        weights.append(tuple((side, name, weight) for (side, name), weight
                             in zip(keys, coefficients[at:at + len(keys)], strict=True)))
        at += len(keys)
    support, designs, levels = weights
    a, b, c, d, e = coefficients[:5]
    return Curve(a, b, c, d, e, tuple(coefficients[5:4 + EDGE_TERMS]),
                 support=support, designs=designs, levels=levels)


BANDS = ((0.0, 0.1), (0.1, 0.25), (0.25, 0.4), (0.4, 0.6), (0.6, 0.75), (0.75, 0.9),
         (0.9, 1.0001))


def check(model: Model, fought: Rows, side: Side) -> dict[str, Any]:
    """How the curve of ``side`` agrees with battles fought afresh."""
    won = fought.attacker if side is Side.ATTACKER else fought.defender
    est = np.array([from_edge(model, float(x), float(v), float(n), *counts).win(side)
                    for (x, v, n), counts in zip(fought.xs, fought.counted, strict=True)])
    base = float(won.mean()) if len(won) else 0.0
    brier = float(np.mean((est - won) ** 2)) if len(won) else 0.0
    brier0 = float(np.mean((base - won) ** 2)) if len(won) else 0.0
    bands = []
    for low, high in BANDS:
        mask = (est >= low) & (est < high)
        n = int(mask.sum())
        if n:
            bands.append({"band": f"{low:.2f}-{min(high, 1.0):.2f}", "battles": n,
                          "estimate": float(est[mask].mean()),
                          "won": float(won[mask].mean())})
    return {"battles": len(won), "share": base, "mean_estimate": float(est.mean()),
            "brier": brier, "brier_constant": brier0, "bands": bands}


def run(scenarios: list[str], pairs: int, battles: int, check_pairs: int,
        jobs: int) -> dict[str, Any]:
    started = time.perf_counter()
    tasks = [Task(s, p, FIT_SEED, battles) for s in scenarios for p in range(pairs)]
    fitted = fight_all(fight, tasks, jobs)
    checks = fight_all(fight, [Task(s, p, CHECK_SEED, battles) for s in scenarios
                               for p in range(check_pairs)], jobs)
    report: dict[str, Any] = {"pairs": pairs, "battles": battles,
                              "check_pairs": check_pairs, "revision": REVISION,
                              "controller": "bot", "scenarios": {}}
    for sid in scenarios:
        fit_rows = rows(fitted, sid)
        xs = fit_rows.xs
        model = Model(sid, fit_curve(fit_rows, fit_rows.attacker),
                      fit_curve(fit_rows, fit_rows.defender), len(xs), "bot", REVISION,
                      (float(xs[:, 0].min()), float(xs[:, 0].max())))
        check_rows = rows(checks, sid)
        report["scenarios"][sid] = {
            "attacker": _coefficients(model.attacker),
            "defender": _coefficients(model.defender),
            **{kind: {"attacker": _weights(model.attacker, kind),
                      "defender": _weights(model.defender, kind)} for kind in COUNTED},
            "fitted_battles": len(xs),
            "edge_range": list(model.edges),
            "check": {"attacker": check(model, check_rows, Side.ATTACKER),
                      "defender": check(model, check_rows, Side.DEFENDER)}}
    report["seconds"] = time.perf_counter() - started
    return report


def _coefficients(curve: Curve) -> list[float]:
    return [curve.intercept, curve.slope, curve.speed, curve.numbers, curve.edge_speed,
            *curve.bends]


def _weights(curve: Curve, kind: str) -> list[list[str | float]]:
    weights: tuple[tuple[Side, str, float], ...] = getattr(curve, kind)
    return [[side.value, name, weight] for side, name, weight in weights]


HEADER = (
    "# Odds curves for meks/analysis/estimate.py: for each built-in scenario, the attacker's",
    "# and the defender's chance of winning as",
    "# 1 / (1 + exp(-(a + b*edge + c*speed + d*numbers + e*edge*speed + bends + support",
    "# + designs + levels))) (bends: h1*max(0, edge+1.5) + h2*max(0, edge+0.5) +",
    "# h3*max(0, edge-0.5) + h4*max(0, edge-1.5); support, designs and levels: their",
    "# weights), [a, b, c, d, e, h1, h2, h3, h4] below ([a, b, c, d] where fitted before",
    "# the file had the others): edge is the log of the attacker's strength over the",
    "# defender's,",
    "# speed its chance of winning a movement roll less the defender's, numbers the log of",
    "# its count of Meks over the defender's (edges: the range of edge the",
    "# fitted battles spanned; beyond it the nearest end counts); support: for each curve,",
    "# [side, result, weight], the weight counted once for each time that side rolled that",
    "# support result; designs and levels: [side, design or pilot level, weight], counted",
    "# once for each of that side's Meks of that design or with a pilot of that level (what",
    "# the fitted battles never saw weighs nothing). Fitted by",
    "# benchmarks/fit_odds.py to battles the bot fought on both sides; scenario: the digest",
    "# of the scenario's rules they were fitted to (campaigns.files.scenario_model.rules_digest).",
    "# command: the command line that last wrote this file, every default spelt out. Run",
    "# from the repository's root, it fits the scenarios it names again, the same to the",
    "# last digit (its arguments seed every draw), and keeps the others as they are: so it",
    "# writes this file again. A scenario's own command is the one that fitted it (a",
    "# scenario with none was fitted before the file recorded commands).",
    "# check: how each side's curve agreed with the battles of --check-pairs match-ups",
    "# fought afresh: the battles, the share won, the mean estimate, the Brier score of the",
    "# curve and of a constant guess (the share won), and by bands of the estimate",
    "# [battles, mean estimate, share won].",
    "# Do not edit by hand.",
)


ENTRY_KEYS = ("attacker", "defender", "battles", "edges", "scenario")


def recorded_command(args: argparse.Namespace, scenarios: list[str]) -> str:
    """The command line of this run as the file records it: every argument that shapes the
    file, defaults included, the output path relative to the repository where it lies in it
    (so the command is run from the repository's root)."""
    output = Path(args.output).resolve()
    shown = output.relative_to(REPO_ROOT).as_posix() if output.is_relative_to(REPO_ROOT) \
        else str(output)
    words = ["python", "benchmarks/fit_odds.py", "--pairs", str(args.pairs),
             "--battles", str(args.battles), "--check-pairs", str(args.check_pairs),
             "--jobs", str(args.jobs)]
    for sid in scenarios:
        words += ["--scenario", sid]
    return shlex.join([*words, "--write", "--output", shown])


def _number(value: float, places: int) -> str:
    return str(round(float(value), places))


def read_model(path: Path) -> dict[str, Any]:
    """The curves file at ``path`` as plain data (empty when there is none yet);
    ``Failure`` when it is not such a file."""
    from meks.game.yamlio import parse_yaml

    if not path.exists():
        return {}
    try:
        loaded = parse_yaml(path.read_text("utf-8"), str(path))
    except (OSError, UnicodeDecodeError, InputError) as exc:
        raise Failure(f"cannot read the odds curves in {path} ({exc})") from exc
    if not isinstance(loaded, dict) or not isinstance(loaded.get("scenarios"), dict):
        raise Failure(f"{path} is not an odds curves file (it has no scenarios)")
    for sid, entry in loaded["scenarios"].items():
        missing = [key for key in ENTRY_KEYS if not isinstance(entry, dict) or key not in entry]
        if missing:
            raise Failure(f"{path} is not an odds curves file (scenario {sid} has no "
                          f"{', '.join(missing)})")
    return loaded


def model_text(report: dict[str, Any], old: dict[str, Any], command: str) -> str:
    """The curves file: the scenarios of ``report`` fitted by ``command``, and the others of
    the file as it was (``old``) as they were, each with the command that fitted it where the
    file recorded one."""
    entries: dict[str, dict[str, Any]] = {}
    for sid, entry in dict(old.get("scenarios") or {}).items():
        entries[sid] = dict(entry)
    for sid, fitted in report["scenarios"].items():
        entries[sid] = {"attacker": fitted["attacker"], "defender": fitted["defender"],
                        "battles": fitted["fitted_battles"], "edges": fitted["edge_range"],
                        **{kind: fitted[kind] for kind in COUNTED},
                        "scenario": rules_digest(get_scenario(sid)), "command": command,
                        "check": fitted["check"]}
    lines = [*HEADER,
             f"controller: {report['controller']}",
             f"revision: {report['revision']}",
             f"command: {json.dumps(command)}",
             "scenarios:"]
    for sid in sorted(entries):
        e = entries[sid]
        lines.append(f"  {sid}:")
        lines.append(f"    attacker: [{', '.join(_number(c, 4) for c in e['attacker'])}]")
        lines.append(f"    defender: [{', '.join(_number(c, 4) for c in e['defender'])}]")
        for kind in COUNTED:
            if not e.get(kind):
                continue
            lines.append(f"    {kind}:")
            for curve in ("attacker", "defender"):
                weights = e[kind].get(curve) or []
                lines.append(f"      {curve}:" + ("" if weights else " []"))
                lines += [f"        - [{side}, {json.dumps(str(name))}, {_number(w, 4)}]"
                          for side, name, w in weights]
        lines.append(f"    battles: {int(e['battles'])}")
        lines.append(f"    edges: [{_number(e['edges'][0], 3)}, {_number(e['edges'][1], 3)}]")
        lines.append(f"    scenario: {e['scenario']}")
        if e.get("command") is not None:
            lines.append(f"    command: {json.dumps(str(e['command']))}")
        if e.get("check") is not None:
            lines.append("    check:")
            for side in ("attacker", "defender"):
                c = e["check"][side]
                lines += [f"      {side}:",
                          f"        battles: {int(c['battles'])}",
                          *(f"        {key}: {_number(c[key], 4)}" for key in
                            ("share", "mean_estimate", "brier", "brier_constant")),
                          "        bands:" + ("" if c["bands"] else " {}")]
                bands = c["bands"]
                if isinstance(bands, dict):  # as read back from the file
                    bands = [{"band": k, "battles": v[0], "estimate": v[1], "won": v[2]}
                             for k, v in bands.items()]
                lines += [f"          {b['band']}: [{int(b['battles'])}, "
                          f"{_number(b['estimate'], 4)}, {_number(b['won'], 4)}]"
                          for b in bands]
    return "\n".join(lines) + "\n"


def table(report: dict[str, Any]) -> str:
    out = [f"{report['pairs']} match-ups x {report['battles']} battles a scenario to fit, "
           f"{report['check_pairs']} x {report['battles']} to check "
           f"({report['seconds']:.0f} s)"]
    for sid, entry in report["scenarios"].items():
        a, d = entry["attacker"], entry["defender"]
        lo, hi = entry["edge_range"]
        out.append(f"\n{sid}: attacker [{', '.join(f'{c:+.2f}' for c in a)}]  defender "
                   f"[{', '.join(f'{c:+.2f}' for c in d)}]  edges {lo:+.2f}..{hi:+.2f}")
        for kind in COUNTED:
            for curve, weights in entry[kind].items():
                if weights:
                    out.append(f"  {curve}'s {kind} weights: " + ", ".join(
                        f"{side} {name} {weight:+.2f}" for side, name, weight in weights))
        for side in ("attacker", "defender"):
            c = entry["check"][side]
            out.append(f"  {side}: won {c['share']:.3f}, estimated {c['mean_estimate']:.3f}; "
                       f"Brier {c['brier']:.4f} (constant {c['brier_constant']:.4f})")
            for band in c["bands"]:
                out.append(f"    estimate {band['band']}: {band['battles']:5d} battles, "
                           f"mean estimate {band['estimate']:.3f}, won {band['won']:.3f}")
    if "written" in report:
        out.append(f"\nWritten to {report['written']['file']}, with the command that writes "
                   f"it again:\n  {report['written']['command']}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=positive_int, default=200,
                        help="random match-ups a scenario to fit on (default %(default)s)")
    parser.add_argument("--battles", type=positive_int, default=4,
                        help="battles fought for each match-up (default %(default)s)")
    parser.add_argument("--check-pairs", type=positive_int, default=60,
                        help="match-ups a scenario fought afresh to check the curves "
                        "(default %(default)s)")
    parser.add_argument("--jobs", type=positive_int, default=available_cpus(),
                        help="worker processes (default: one for each CPU this process may "
                        "use, %(default)s here; the figures do not depend on it)")
    parser.add_argument("--scenario", action="append",
                        choices=(*SCENARIOS, *CAMPAIGN_SCENARIOS),
                        help="fit only this scenario (again for more; default: the six and "
                        "the built-in campaign's copies)")
    parser.add_argument("--write", action="store_true",
                        help="store the fitted curves, their checks and this command line in "
                        f"{MODEL_PATH.relative_to(REPO_ROOT)} (the other scenarios of the file "
                        "are kept)")
    parser.add_argument("--output", type=Path, default=None, metavar="FILE",
                        help="with --write, the file to store them in instead (default "
                        f"{MODEL_PATH.relative_to(REPO_ROOT)})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parse(parser, argv)
    if isinstance(args, int):  # --help, or a usage error argparse has explained
        return args
    if args.output is not None and not args.write:
        return usage_error(parser, "argument --output: give --write too, to store the curves")
    args.output = args.output or MODEL_PATH
    scenarios = list(dict.fromkeys(args.scenario or [*SCENARIOS, *CAMPAIGN_SCENARIOS]))
    command = recorded_command(args, scenarios)
    try:
        old: dict[str, Any] = {}
        if args.write:  # before the fight, not after it
            writable(args.output)
            old = read_model(args.output)
        report = run(scenarios, args.pairs, args.battles, args.check_pairs, args.jobs)
        if args.write:
            write_whole(args.output, model_text(report, old, command))
            report["written"] = {"file": str(args.output), "command": command}
    except Exception as exc:
        return failed("fit_odds", exc)
    print(json.dumps(report, indent=2) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
