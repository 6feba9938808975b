"""Fit the odds curves of ``meks/estimate.py`` to battles the bot fights, and say how well they
agree with battles fought afresh.

For each built-in scenario, ``--pairs`` random match-ups are drawn: each side's budget is the
scenario's times one of 0.70, 0.85, 1.00, 1.15, 1.30; its Meks are, half the time, any force
of stock designs within the scenario's limits that spends at least 75% of that budget (all
such forces equally likely), else the bot's muster for that budget at a random difficulty
(easy, normal or hard); and its pilots are Green, Regular,
Veteran or Elite at random (30/35/25/10 in 100): half the time one level for the whole side
(as the enemy of a campaign has), else a level for each Mek; each pilot has a random skill
with a chance of 1 in 4, and another with the same chance, and so on. Each match-up is fought
``--battles`` times, the bot commanding both sides, with the support results the scenario
gives rolled from the battle's seed. The attacker's and the defender's wins are then fitted,
each by its own logistic regression, against the attacker's edge in strength and in movement
rolls and in numbers (``meks.estimate.edge``, ``speed`` and ``numbers``).

A second, independent draw of match-ups (other seeds, ``--check-pairs``) is fought in the same
way and compared with what the fitted curves say: the table gives, by bands of the estimated
chance, how many battles fell in the band, the mean estimate and the share really won, for the
attacker and the defender, and the Brier score of the estimate against that of a constant
(the scenario's overall share): below it means the curves tell match-ups apart.

    python benchmarks/fit_odds.py [--pairs N] [--battles K] [--check-pairs M] [--jobs J]
                                  [--scenario ID ...] [--write] [--json]

With ``--write`` the fitted curves replace ``meks/data/odds_model.yaml`` (only for the
scenarios fitted; the others are kept). The draws are seeded: the same arguments give the
same curves. A benchmark, not a test: it exits 1 when it could not run, saying why.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve()
REPO_ROOT = HERE.parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks.bot_vs_baseline import CAMPAIGN_SCENARIOS, SCENARIOS, fight_all  # noqa: E402
from campaigns.processes import available_cpus  # noqa: E402
from campaigns.scenario_model import rules_digest  # noqa: E402
from campaigns.scenarios import get_scenario  # noqa: E402
from meks.catalog import Catalog, Design, load_catalog  # noqa: E402
from meks.dice import Dice  # noqa: E402
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
from meks.estimate import (  # noqa: E402
    MODEL_FILE,
    Curve,
    Model,
    edge,
    from_edge,
    numbers,
    speed,
)
from meks.pilots import available_skills  # noqa: E402
from meks.scenario import Scenario, Side  # noqa: E402
from meks.support import RICH_UNCLE, roll_support  # noqa: E402

SCALES = (0.70, 0.85, 1.00, 1.15, 1.30)
LEVELS = (("Green", 30), ("Regular", 35), ("Veteran", 25), ("Elite", 10))
SKILL_CHANCE = 0.25  # a pilot's chance of a skill, and of each further one
FIT_SEED = 31_000
CHECK_SEED = 77_000
MODEL_PATH = REPO_ROOT / "meks" / "data" / MODEL_FILE
CAMPAIGN_FORCES = REPO_ROOT / "benchmarks" / "data" / "campaign_forces.json"
CAMPAIGN_SHARE = 0.5  # of a scenario's match-ups, when it has recorded company forces


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
    balancing chooses from at the campaign's difficulty (``campaigns.balance.candidates``:
    the bot's muster for a budget of the band, every pilot of one level); else None."""
    from campaigns.balance import candidates, enemy_force
    from campaigns.errors import Refused

    pool = campaign_pool(scenario.id)
    if not pool or rng.random() >= CAMPAIGN_SHARE:
        return None
    side, difficulty, company = rng.choice(pool)
    option = rng.choice(candidates(scenario, side.enemy, Difficulty(difficulty)))
    try:
        enemy = enemy_force(scenario, side.enemy, Difficulty(difficulty), catalog, rolls=[],
                            budget=option.budget, level=option.level)
    except Refused:
        return None
    return {side: company, side.enemy: enemy.units}


def fight(task: Task) -> tuple[str, tuple[float, float, float], list[str]]:
    """One match-up: (scenario, the attacker's edge, speed and numbers, each battle's winner
    or 'draw')."""
    catalog = load_catalog()
    scenario = get_scenario(task.scenario)
    rng = random.Random(task.base * 1000 + task.pair)
    units = campaign_units(rng, scenario, catalog) or {
        side: side_units(rng, task.scenario, side) for side in Side}
    features = (edge(units, catalog), speed(units, catalog), numbers(units))
    out = []
    for b in range(task.battles):
        seed = (task.base + task.pair) * 100 + b
        forces = with_support(scenario, units, seed, catalog)
        result = Battle(scenario, forces, Dice.from_seed(seed),
                        {Side.ATTACKER: Bot(), Side.DEFENDER: Bot()}, catalog).run()
        out.append(result.winner.value if result.winner else "draw")
    return task.scenario, features, out


def with_support(scenario: Scenario, units: dict[Side, tuple[UnitSpec, ...]], seed: int,
                 catalog: Catalog) -> dict[Side, ForceSpec]:
    """Each side's force for the battle of ``seed``: its ``units``, with the support results
    the scenario gives it rolled from a stream of that seed's own (Rich Uncle left out: the
    force is drawn already)."""
    support_dice = Dice.from_seed(seed * 7 + 3)
    forces = {}
    for side in Side:
        rolled = [roll_support(support_dice, catalog)
                  for _ in range(scenario.side(side).support_rolls)]
        support = tuple(r.entry.name for r in rolled if r.entry.name != RICH_UNCLE)
        forces[side] = ForceSpec(units[side], support, side.value)
    return forces


def logistic_fit(features: np.ndarray, y: np.ndarray) -> tuple[float, ...]:
    """Maximum-likelihood logistic regression of ``y`` (0/1) on the ``features`` (a row a
    battle) by Newton's method, with a light ridge so that a scenario one side always wins
    still gives finite curves."""
    design = np.column_stack([np.ones(len(y)), features])
    beta = np.zeros(design.shape[1])
    ridge = np.eye(design.shape[1]) * 1e-2
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


def rows(results: list[tuple[str, tuple[float, float, float], list[str]]],
         scenario: str) -> tuple[np.ndarray, ...]:
    xs, att, dfd = [], [], []
    for sid, features, outcomes in results:
        if sid != scenario:
            continue
        for o in outcomes:
            xs.append(features)
            att.append(1.0 if o == "attacker" else 0.0)
            dfd.append(1.0 if o == "defender" else 0.0)
    return np.array(xs).reshape(-1, 3), np.array(att), np.array(dfd)


BANDS = ((0.0, 0.1), (0.1, 0.25), (0.25, 0.4), (0.4, 0.6), (0.6, 0.75), (0.75, 0.9),
         (0.9, 1.0001))


def check(model: Model, xs: np.ndarray, won: np.ndarray, side: Side) -> dict[str, Any]:
    """How the curve of ``side`` agrees with battles fought afresh."""
    est = np.array([from_edge(model, *(float(f) for f in row)).win(side) for row in xs])
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
        xs, att, dfd = rows(fitted, sid)
        model = Model(sid, Curve(*logistic_fit(xs, att)), Curve(*logistic_fit(xs, dfd)),
                      len(xs), "bot", REVISION, (float(xs[:, 0].min()), float(xs[:, 0].max())))
        cx, catt, cdfd = rows(checks, sid)
        report["scenarios"][sid] = {
            "attacker": [model.attacker.intercept, model.attacker.slope,
                         model.attacker.speed, model.attacker.numbers],
            "defender": [model.defender.intercept, model.defender.slope,
                         model.defender.speed, model.defender.numbers],
            "fitted_battles": len(xs),
            "edge_range": list(model.edges),
            "check": {"attacker": check(model, cx, catt, Side.ATTACKER),
                      "defender": check(model, cx, cdfd, Side.DEFENDER)}}
    report["seconds"] = time.perf_counter() - started
    return report


def write_model(report: dict[str, Any]) -> None:
    from meks.yamlio import parse_yaml

    old: dict[str, Any] = {}
    if MODEL_PATH.exists():
        loaded = parse_yaml(MODEL_PATH.read_text("utf-8"), MODEL_FILE)
        if isinstance(loaded, dict):
            old = dict(loaded.get("scenarios", {}))
    for sid, entry in report["scenarios"].items():
        old[sid] = {"attacker": [round(v, 4) for v in entry["attacker"]],
                    "defender": [round(v, 4) for v in entry["defender"]],
                    "battles": entry["fitted_battles"],
                    "edges": [round(v, 3) for v in entry["edge_range"]],
                    "scenario": rules_digest(get_scenario(sid))}
    lines = [
        "# Odds curves for meks/estimate.py: for each built-in scenario, the attacker's and the",
        "# defender's chance of winning as 1 / (1 + exp(-(a + b*edge + c*speed + d*numbers))),",
        "# [a, b, c, d] below: edge is the log of the attacker's strength over the defender's,",
        "# speed its chance of winning a movement roll less the defender's, numbers the log of",
        "# its count of Meks over the defender's (edges: the range of edge the",
        "# fitted battles spanned; beyond it the nearest end counts). Fitted by",
        "# benchmarks/fit_odds.py to battles the bot fought on both sides; scenario: the digest",
        "# of the scenario's rules they were fitted to (campaigns.scenario_model.rules_digest).",
        "# Do not edit by hand.",
        f"controller: {report['controller']}",
        f"revision: {report['revision']}",
        "scenarios:",
    ]
    for sid in sorted(old):
        e = old[sid]
        lines.append(f"  {sid}:")
        lines.append(f"    attacker: [{', '.join(str(c) for c in e['attacker'])}]")
        lines.append(f"    defender: [{', '.join(str(c) for c in e['defender'])}]")
        lines.append(f"    battles: {e['battles']}")
        lines.append(f"    edges: [{e['edges'][0]}, {e['edges'][1]}]")
        lines.append(f"    scenario: {e['scenario']}")
    MODEL_PATH.write_text("\n".join(lines) + "\n", "utf-8")


def table(report: dict[str, Any]) -> str:
    out = [f"{report['pairs']} match-ups x {report['battles']} battles a scenario to fit, "
           f"{report['check_pairs']} x {report['battles']} to check "
           f"({report['seconds']:.0f} s)"]
    for sid, entry in report["scenarios"].items():
        a, d = entry["attacker"], entry["defender"]
        lo, hi = entry["edge_range"]
        out.append(f"\n{sid}: attacker [{', '.join(f'{c:+.2f}' for c in a)}]  defender "
                   f"[{', '.join(f'{c:+.2f}' for c in d)}]  edges {lo:+.2f}..{hi:+.2f}")
        for side in ("attacker", "defender"):
            c = entry["check"][side]
            out.append(f"  {side}: won {c['share']:.3f}, estimated {c['mean_estimate']:.3f}; "
                       f"Brier {c['brier']:.4f} (constant {c['brier_constant']:.4f})")
            for band in c["bands"]:
                out.append(f"    estimate {band['band']}: {band['battles']:5d} battles, "
                           f"mean estimate {band['estimate']:.3f}, won {band['won']:.3f}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200,
                        help="random match-ups a scenario to fit on (default %(default)s)")
    parser.add_argument("--battles", type=int, default=4,
                        help="battles fought for each match-up (default %(default)s)")
    parser.add_argument("--check-pairs", type=int, default=60,
                        help="match-ups a scenario fought afresh to check the curves "
                        "(default %(default)s)")
    parser.add_argument("--jobs", type=int, default=available_cpus(),
                        help="worker processes (default: one for each CPU this process may "
                        "use, %(default)s here)")
    parser.add_argument("--scenario", action="append",
                        choices=(*SCENARIOS, *CAMPAIGN_SCENARIOS),
                        help="fit only this scenario (again for more; default: the six and "
                        "the built-in campaign's copies)")
    parser.add_argument("--write", action="store_true",
                        help="store the fitted curves in meks/data/odds_model.yaml")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help (0) or a usage error (2), as argparse said
        return int(done.code or 0)
    try:
        report = run(args.scenario or [*SCENARIOS, *CAMPAIGN_SCENARIOS], args.pairs,
                     args.battles, args.check_pairs, args.jobs)
        if args.write:
            write_model(report)
    except Exception:  # a failure is reported, and the script exits 1
        traceback.print_exc()
        print("The fit could not run; see the error above.")
        return 1
    print(json.dumps(report, indent=2) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
