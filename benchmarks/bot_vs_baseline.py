"""The bot against the baseline controller, scenario by scenario, with mirrored forces.

For each of the six scenarios of the rules, N battles (default 2000): battle pair ``i``
fights twice with the same seed, once with the bot as the attacker and once as the
defender, so half the battles have the bot on each side. The forces are mirrored: each
side's force is the bot's own ``muster`` at normal difficulty for that side's budget, size
limit and composition, and a side keeps its force whichever controller commands it (where
both sides have the same limits, both field the same force). Pilots are the scenario's
provided pilots where it gives them (the best level in the dearest Mek) and Regular pilots
otherwise. Each side's support rolls come from the pair's seed, so both battles of a pair
have the same support.

    python benchmarks/bot_vs_baseline.py [--battles N] [--jobs J] [--scenario ID ...] [--json]

The table gives, per scenario, the bot's wins, the baseline's wins, the draws, and the bot's
share of the decided battles against the goal of 65% (issue 6, "Must hold"), then the same
split by the bot's side. Results do not depend on ``--jobs``. This is a benchmark, not a
test: it exits 0 whether or not the goal is met; it exits 2 on a bad argument and 1 when it
cannot run, saying why on stderr.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

HERE = Path(__file__).resolve()
REPO_ROOT = HERE.parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks._run import parse, positive_int, print_report  # noqa: E402
from campaigns.files.scenarios import get_scenario  # noqa: E402
from campaigns.processes import available_cpus  # noqa: E402
from meks.engine.bot.choices import Difficulty, muster  # noqa: E402
from meks.engine.bot.policy import Bot  # noqa: E402
from meks.engine.controllers import Baseline, Controller  # noqa: E402
from meks.engine.core import Battle  # noqa: E402
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec  # noqa: E402
from meks.game.catalog import Catalog, load_catalog  # noqa: E402
from meks.game.dice import Dice  # noqa: E402
from meks.game.scenario import Scenario  # noqa: E402
from meks.game.support import RICH_UNCLE, roll_support  # noqa: E402
from meks.game.vocabulary import Side  # noqa: E402

T = TypeVar("T")
R = TypeVar("R")
SCENARIOS = ("opening-shots", "at-the-hot-gates", "buying-us-some-time", "through-the-breach",
             "head-to-head", "citadel")
# The built-in campaign's copies of some of them (campaigns/files/scenarios/campaign).
CAMPAIGN_SCENARIOS = ("opening-shots-campaign", "at-the-hot-gates-campaign",
                      "buying-us-some-time-campaign", "through-the-breach-campaign",
                      "citadel-campaign")
DEFAULT_BATTLES = 2000
GOAL = 0.65
SEED_BASE = 1_000_003
LEVEL_ORDER = ("Elite", "Veteran", "Regular", "Green")


@dataclass(frozen=True)
class Task:
    scenario: str
    index: int  # battle number; pair index // 2, bot attacks on even numbers
    muster: str = "normal"  # the difficulty both sides' forces are mustered at


def side_force(scenario: Scenario, side: Side, catalog: Catalog,
               difficulty: str = "normal") -> tuple[UnitSpec, ...]:
    """The bot's muster for ``side`` (normal difficulty unless told), with pilots."""
    rules = scenario.side(side)
    designs = muster(rules.budget, rules.max_size, rules.composition, catalog,
                     Difficulty(difficulty))
    designs = sorted(designs, key=lambda d: (-(d.price or 0), d.name))
    levels: list[str] = []
    for level in LEVEL_ORDER:
        for name, count in rules.pilots.items():
            if name.casefold() == level.casefold():
                levels += [level] * count
    units = []
    for i, design in enumerate(designs):
        level = levels[i] if i < len(levels) else "Regular"
        units.append(UnitSpec(f"{side.value[0].upper()}-{design.name} {i + 1}", design,
                              PilotSpec(f"{side.value} pilot {i + 1}", level),
                              points=design.price or 0))
    return tuple(units)


def support_for(scenario: Scenario, side: Side, pair: int, catalog: Catalog) -> tuple[str, ...]:
    """The side's support results for a battle pair, rolled from the pair's seed (Rich
    Uncle's points do not change a mustered force, so it brings nothing here)."""
    dice = Dice.from_seed(SEED_BASE * 7 + pair * 2 + (0 if side is Side.ATTACKER else 1))
    out = []
    for _ in range(scenario.side(side).support_rolls):
        result = roll_support(dice, catalog)
        if result.entry.name != RICH_UNCLE:
            out.append(result.entry.name)
    return tuple(out)


_FORCES: dict[tuple[str, str], dict[Side, tuple[UnitSpec, ...]]] = {}


def forces_of(scenario_id: str, catalog: Catalog,
              difficulty: str = "normal") -> dict[Side, tuple[UnitSpec, ...]]:
    key = (scenario_id, difficulty)
    if key not in _FORCES:
        scenario = get_scenario(scenario_id)
        _FORCES[key] = {side: side_force(scenario, side, catalog, difficulty)
                        for side in Side}
    return _FORCES[key]


def fight(task: Task) -> tuple[str, int, str, str]:
    """One battle: (scenario, index, the bot's side, the outcome for the bot)."""
    catalog = load_catalog()
    scenario = get_scenario(task.scenario)
    pair, bot_attacks = divmod(task.index, 2)
    bot_side = Side.ATTACKER if bot_attacks == 0 else Side.DEFENDER
    units = forces_of(task.scenario, catalog, task.muster)
    forces = {side: ForceSpec(units[side], support_for(scenario, side, pair, catalog),
                              side.value) for side in Side}
    controllers: dict[Side, Controller] = {bot_side: Bot(), bot_side.enemy: Baseline()}
    battle = Battle(scenario, forces, Dice.from_seed(SEED_BASE + pair), controllers, catalog)
    result = battle.run()
    if result.winner is None:
        outcome = "draw"
    else:
        outcome = "bot" if result.winner is bot_side else "baseline"
    return task.scenario, task.index, bot_side.value, outcome


def run(scenarios: list[str], battles: int, jobs: int,
        difficulty: str = "normal") -> dict[str, Any]:
    tasks = [Task(s, i, difficulty) for s in scenarios for i in range(battles)]
    started = time.perf_counter()
    results = fight_all(fight, tasks, jobs)
    elapsed = time.perf_counter() - started
    rows = []
    for sid in scenarios:
        mine = [r for r in results if r[0] == sid]
        total = Counter(r[3] for r in mine)
        by_side = {side.value: Counter(r[3] for r in mine if r[2] == side.value)
                   for side in Side}
        decided = total["bot"] + total["baseline"]
        share = total["bot"] / decided if decided else 0.0
        rows.append({
            "scenario": sid,
            "battles": len(mine),
            "bot_wins": total["bot"],
            "baseline_wins": total["baseline"],
            "draws": total["draw"],
            "bot_share": round(share, 4),
            "goal": GOAL,
            "met": decided > 0 and share >= GOAL,
            "by_side": {side: {"bot_wins": c["bot"], "baseline_wins": c["baseline"],
                               "draws": c["draw"]} for side, c in by_side.items()},
        })
    return {"battles_per_scenario": battles, "jobs": jobs, "seconds": round(elapsed, 2),
            "muster": difficulty,
            "forces": forces_report(scenarios, difficulty),
            "scenarios": rows}


def fight_all(fight: Callable[[T], R], tasks: list[T], jobs: int) -> list[R]:
    """Each task's result, in order, fought here or on ``jobs`` spawned processes."""
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            return pool.map(fight, tasks, chunksize=max(1, len(tasks) // (jobs * 16)))
    return [fight(t) for t in tasks]


def forces_report(scenarios: list[str], difficulty: str) -> dict[str, dict[str, list[str]]]:
    """The designs of each side's force in each scenario, for a report."""
    catalog = load_catalog()
    return {sid: {side.value: [u.design.name for u in units if u.design]
                  for side, units in forces_of(sid, catalog, difficulty).items()}
            for sid in scenarios}


def table(report: dict[str, Any]) -> str:
    lines = [f"Bot vs baseline: {report['battles_per_scenario']} battles per scenario "
             f"(half with the bot attacking), {report['jobs']} job(s), "
             f"{report['seconds']:.1f} s", ""]
    head = (f"{'scenario':<22}{'bot wins':>9}{'baseline':>9}{'draws':>7}{'bot share':>11}"
            f"{'goal':>6}  result")
    lines += [head, "-" * len(head)]
    for row in report["scenarios"]:
        lines.append(f"{row['scenario']:<22}{row['bot_wins']:>9}{row['baseline_wins']:>9}"
                     f"{row['draws']:>7}{row['bot_share']:>10.1%}{row['goal']:>6.0%}  "
                     + ("met" if row["met"] else "NOT met"))
    lines += ["", "By the bot's side (bot wins / baseline wins / draws):"]
    for row in report["scenarios"]:
        parts = []
        for side in ("attacker", "defender"):
            c = row["by_side"][side]
            parts.append(f"as {side} {c['bot_wins']}/{c['baseline_wins']}/{c['draws']}")
        lines.append(f"  {row['scenario']:<22}" + "   ".join(parts))
    lines += ["", f"Forces (each side's {report['muster']} muster, used whichever controller "
              "commands it):"]
    for sid, sides in report["forces"].items():
        lines.append(f"  {sid:<22}attacker {', '.join(sides['attacker'])}; "
                     f"defender {', '.join(sides['defender'])}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=positive_int, default=DEFAULT_BATTLES,
                        help="battles per scenario (an odd number is taken as the next even "
                        "one; default %(default)s)")
    parser.add_argument("--jobs", type=positive_int, default=available_cpus(),
                        help="worker processes (default: one for each CPU this process may "
                        "use, %(default)s here)")
    parser.add_argument("--scenario", action="append", choices=SCENARIOS,
                        help="only this scenario (repeatable)")
    parser.add_argument("--muster", choices=("easy", "normal", "hard"), default="normal",
                        help="the difficulty the forces are mustered at (default: normal)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parse(parser, argv)
    if isinstance(args, int):  # --help, or a usage error argparse has explained
        return args
    battles = args.battles + args.battles % 2
    return print_report("bot_vs_baseline", lambda: run(
        args.scenario or list(SCENARIOS), battles, args.jobs, args.muster), args.json, table)


if __name__ == "__main__":
    sys.exit(main())
