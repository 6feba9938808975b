"""How each seat of each scenario fares, the bot commanding both sides.

For every scenario asked for, ``--battles`` battles are fought at the scenario's own budgets:
each side's force is drawn as ``fit_odds.py`` draws one (half the time any force of stock
designs within the side's limits that spends most of its budget, else the bot's muster at a
random difficulty; pilots of random levels, some with skills), with the support results the
scenario gives rolled from the battle's seed. The table gives each seat's share of wins, the
draws, the mean number of turns and of Meks destroyed a battle, and whether the seat is a
contest (each side winning 30% to 70% of the battles, at most 15% drawn: issue 25).

    python benchmarks/seats.py [--battles N] [--scenario ID ...] [--rounds R]
                               [--plan campaign|printed] [--jobs J] [--json]

``--plan printed`` (the default) fights the six scenarios as printed; ``--plan campaign`` the
built-in campaign plan's copies of them. ``--rounds`` fights with another cap on a zone
combat's rounds (R5.2) than the scenario's. A benchmark, not a test: it prints figures; it
exits 2 on a bad argument and 1 when it cannot run, saying why on stderr.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO_ROOT = HERE.parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks._run import parse, positive_int, print_report  # noqa: E402
from benchmarks.bot_vs_baseline import SCENARIOS, fight_all  # noqa: E402
from benchmarks.fit_odds import side_units, with_support  # noqa: E402
from campaigns.processes import available_cpus  # noqa: E402
from meks.engine.bot.policy import Bot  # noqa: E402
from meks.engine.core import Battle  # noqa: E402
from meks.game.catalog import load_catalog  # noqa: E402
from meks.game.dice import Dice  # noqa: E402
from meks.game.scenario import Scenario  # noqa: E402
from meks.game.vocabulary import Side  # noqa: E402

SEATS_SEED = 52_000
LOW, HIGH, DRAWS = 0.30, 0.70, 0.15  # a contest: each side wins 30% to 70%, at most 15% drawn


@dataclass(frozen=True)
class Task:
    scenario: str
    plan: str
    rounds: int | None
    battle: int


def scenario_of(scenario_id: str, plan: str, rounds: int | None) -> Scenario:
    """The scenario as the plan fights it, with ``rounds`` as its cap when given."""
    from campaigns.files.scenarios import get_scenario
    from campaigns.plans import BUILT_IN_PLAN, PRINTED_PLAN

    if plan == "campaign":  # the campaign's copy of the printed scenario, where it has one
        printed = [sid for sid, _ in PRINTED_PLAN]
        scenario_id = BUILT_IN_PLAN[printed.index(scenario_id)][0]
    scenario = get_scenario(scenario_id)
    if rounds is not None:
        scenario = dataclasses.replace(scenario, house_rules=dataclasses.replace(
            scenario.house_rules, combat_rounds=rounds))
    return scenario


def fight(task: Task) -> tuple[str, str, int, int]:
    """One battle: (scenario, winner or 'draw', turns, Meks destroyed)."""
    catalog = load_catalog()
    scenario = scenario_of(task.scenario, task.plan, task.rounds)
    seed = SEATS_SEED * 100 + task.battle
    rng = random.Random(seed)
    units = {side: side_units(rng, task.scenario, side, scenario=scenario, scales=(1.0,))
             for side in Side}
    battle = Battle(scenario, with_support(scenario, units, seed, catalog), Dice.from_seed(seed),
                    {Side.ATTACKER: Bot(), Side.DEFENDER: Bot()}, catalog)
    result = battle.run()
    lost = sum(1 for u in result.units if u.is_mek and not u.decoy
               and u.destroyed_turn is not None)
    return task.scenario, result.winner.value if result.winner else "draw", result.turns, lost


def measure(scenarios: list[str], battles: int, plan: str, rounds: int | None,
            jobs: int) -> dict[str, Any]:
    tasks = [Task(s, plan, rounds, b) for s in scenarios for b in range(battles)]
    start = time.perf_counter()
    results = fight_all(fight, tasks, jobs)
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {"battles_per_scenario": battles, "plan": plan, "rounds": rounds,
                           "jobs": jobs, "seconds": round(seconds, 1), "scenarios": {}}
    for sid in scenarios:
        mine = [r for r in results if r[0] == sid]
        n = len(mine)
        att = sum(1 for r in mine if r[1] == "attacker") / n
        dfd = sum(1 for r in mine if r[1] == "defender") / n
        draw = sum(1 for r in mine if r[1] == "draw") / n
        out["scenarios"][sid] = {
            "attacker": round(att, 4), "defender": round(dfd, 4), "draw": round(draw, 4),
            "standard_error": round((att * (1 - att) / n) ** 0.5, 4),
            "turns": round(sum(r[2] for r in mine) / n, 2),
            "meks_destroyed": round(sum(r[3] for r in mine) / n, 2),
            "contest": LOW <= att <= HIGH and LOW <= dfd <= HIGH and draw <= DRAWS}
    return out


def table(report: dict[str, Any]) -> str:
    rounds = report["rounds"] if report["rounds"] is not None else "the scenario's"
    lines = [f"Seats, bot against bot: {report['battles_per_scenario']} battles a scenario, "
             f"plan {report['plan']}, cap on rounds {rounds}, {report['jobs']} job(s), "
             f"{report['seconds']:.1f} s", "",
             f"{'scenario':<22}{'attacker':>9}{'defender':>9}{'draw':>7}{'turns':>7}"
             f"{'Meks lost':>10}  contest"]
    for sid, r in report["scenarios"].items():
        lines.append(f"{sid:<22}{r['attacker']:>9.1%}{r['defender']:>9.1%}{r['draw']:>7.1%}"
                     f"{r['turns']:>7.1f}{r['meks_destroyed']:>10.1f}  "
                     + ("yes" if r["contest"] else "no"))
    lines.append("")
    lines.append("A contest: each side wins 30% to 70% of the battles, at most 15% drawn "
                 "(one standard error of a share near 50% is 2.5 points at 400 battles).")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=positive_int, default=400,
                        help="battles a scenario (default %(default)s)")
    parser.add_argument("--scenario", action="append", choices=SCENARIOS,
                        help="only this scenario (again for more; default: all six)")
    parser.add_argument("--rounds", type=positive_int, default=None,
                        help="the cap on a zone combat's rounds (default: the scenario's)")
    parser.add_argument("--plan", choices=("printed", "campaign"), default="printed",
                        help="the six as printed, or the built-in campaign's copies "
                        "(default: printed)")
    parser.add_argument("--jobs", type=positive_int, default=available_cpus(),
                        help="worker processes (default: one for each CPU this process may "
                        "use, %(default)s here)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parse(parser, argv)
    if isinstance(args, int):  # --help, or a usage error argparse has explained
        return args
    scenarios = args.scenario or list(SCENARIOS)
    return print_report("The seats benchmark", lambda: measure(
        scenarios, args.battles, args.plan, args.rounds, args.jobs), args.json, table)


if __name__ == "__main__":
    sys.exit(main())
