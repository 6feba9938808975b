"""The bot against the pool of simple styles, scenario by scenario and seat by seat.

For each of the six scenarios of the rules and each seat (attacker, defender), every style of
the pool (``meks.engine.styles.STYLES``: baseline, rush, hold, keep-range, objective-runner)
takes that seat against the bot on the other side, N battles a cell (default 400); and the
bot takes it against itself, N battles a scenario, which gives the reference for both seats.
Forces, pilots and support are those of ``bot_vs_baseline.py``: each side's force is the bot's
own ``muster`` for that side's limits (normal difficulty unless ``--muster`` says otherwise),
whoever commands it; the scenario's provided pilots go in the dearest Meks, Regular pilots in
the rest; battle ``i`` of every cell rolls ``Dice.from_seed(SEED_BASE + i)`` and each side's
support rolled from the seed of pair ``i`` there, so every cell fights the same dice seeds and
the same support.

    python benchmarks/styles.py [--battles N] [--jobs J] [--scenario ID ...] [--style NAME ...]
                                [--plan printed|campaign] [--muster easy|normal|hard] [--json]

What "beats the bot" means (issue 16, "Must hold": no style of the pool beats the bot by more
than 2 standard errors, against the bot on the other side, 400 battles a cell): for a seat S
and a style X, compare the share of battles X wins in seat S against the bot (``p_style``)
with the share the bot itself wins in seat S against the bot (``p_bot``, from the bot-vs-bot
battles). The margin is ``p_style - p_bot``; its standard error is
``sqrt(p_style (1 - p_style) / n + p_bot (1 - p_bot) / n)`` (two independent shares of ``n``
battles each); X beats the bot when the margin is more than twice that. A draw counts as no
win for either side. A style that beats the bot does better in that seat than the bot does
there: the bot, in the style's place, wins less against the same opponent.

Because a draw is no win, a style that risks more than the bot (more wins, more losses, fewer
draws) can beat it by this measure in a scenario the bot plays for a draw. The last column,
the score margin, is the same comparison with a draw counted as half a win (the score is
wins + draws / 2, as a share of the battles); it decides nothing and is there to tell the two
cases apart.

The table gives, for each scenario and seat, the bot-vs-bot reference and then for each style
its wins, the bot's wins, the draws (shares of the cell's battles), the margin, two standard
errors, the verdict and the score margin. Results do not depend on ``--jobs``. This is a
benchmark, not a test: it exits 0 whether or not the goal is met, 2 on a bad argument and 1
when it cannot run (saying why on stderr instead of the figures). ``--plan campaign``
fights the built-in campaign's plan (its copies of the scenarios, and Head to Head as
printed).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO_ROOT = HERE.parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks._run import parse, positive_int, print_report  # noqa: E402
from benchmarks.bot_vs_baseline import (  # noqa: E402
    CAMPAIGN_SCENARIOS,
    SCENARIOS,
    SEED_BASE,
    fight_all,
    forces_of,
    forces_report,
    support_for,
)
from campaigns.files.scenarios import get_scenario  # noqa: E402
from campaigns.processes import available_cpus  # noqa: E402
from meks.engine.bot.policy import Bot  # noqa: E402
from meks.engine.controllers import Controller  # noqa: E402
from meks.engine.core import Battle  # noqa: E402
from meks.engine.styles import STYLES  # noqa: E402
from meks.engine.units import ForceSpec  # noqa: E402
from meks.game.catalog import load_catalog  # noqa: E402
from meks.game.dice import Dice  # noqa: E402
from meks.game.vocabulary import Side  # noqa: E402

DEFAULT_BATTLES = 400
BOT = "bot"
SEATS = (Side.ATTACKER, Side.DEFENDER)


@dataclass(frozen=True)
class Task:
    scenario: str
    challenger: str  # a style of STYLES, or "bot" (the bot against itself)
    seat: str  # the challenger's side
    index: int  # battle number in the cell (its dice seed and support)
    muster: str = "normal"


def fight(task: Task) -> tuple[str, str, str, int, str]:
    """One battle: (scenario, challenger, seat, index, "win" / "loss" / "draw" for the
    challenger in its seat)."""
    catalog = load_catalog()
    scenario = get_scenario(task.scenario)
    seat = Side(task.seat)
    units = forces_of(task.scenario, catalog, task.muster)
    forces = {side: ForceSpec(units[side], support_for(scenario, side, task.index, catalog),
                              side.value) for side in Side}
    challenger: Controller = Bot() if task.challenger == BOT else STYLES[task.challenger]()
    controllers: dict[Side, Controller] = {seat: challenger, seat.enemy: Bot()}
    battle = Battle(scenario, forces, Dice.from_seed(SEED_BASE + task.index), controllers,
                    catalog)
    result = battle.run()
    outcome = "draw" if result.winner is None else "win" if result.winner is seat else "loss"
    return task.scenario, task.challenger, task.seat, task.index, outcome


def tasks_for(scenarios: list[str], styles: list[str], battles: int,
              difficulty: str) -> list[Task]:
    out = []
    for sid in scenarios:
        # The bot against itself: one cell a scenario, read from each seat in turn.
        out += [Task(sid, BOT, Side.ATTACKER.value, i, difficulty) for i in range(battles)]
        for style in styles:
            for seat in SEATS:
                out += [Task(sid, style, seat.value, i, difficulty) for i in range(battles)]
    return out


def compare(p_style: float, p_bot: float, n: int) -> tuple[float, float, bool]:
    """The margin of a style's win share over the bot's in the same seat, its standard
    error, and whether the margin is more than two standard errors (see the docstring)."""
    margin = p_style - p_bot
    se = math.sqrt(p_style * (1 - p_style) / n + p_bot * (1 - p_bot) / n)
    return margin, se, margin > 2 * se


def run(scenarios: list[str], styles: list[str], battles: int, jobs: int,
        difficulty: str = "normal") -> dict[str, Any]:
    tasks = tasks_for(scenarios, styles, battles, difficulty)
    started = time.perf_counter()
    results = fight_all(fight, tasks, jobs)
    elapsed = time.perf_counter() - started
    cells: dict[tuple[str, str, str], Counter[str]] = {}
    for sid, challenger, seat, _, outcome in results:
        cells.setdefault((sid, challenger, seat), Counter())[outcome] += 1
    rows = []
    beaten = []
    for sid in scenarios:
        mirror = cells[(sid, BOT, Side.ATTACKER.value)]
        seats = []
        for seat in SEATS:
            # The bot's own record in this seat, against the bot.
            own = mirror["win"] if seat is Side.ATTACKER else mirror["loss"]
            p_bot = own / battles
            reference = {"battles": battles, "wins": own, "losses": battles - own
                         - mirror["draw"], "draws": mirror["draw"],
                         "win_rate": round(p_bot, 4),
                         "score": round((own + mirror["draw"] / 2) / battles, 4)}
            entries = []
            for style in styles:
                c = cells[(sid, style, seat.value)]
                p_style = c["win"] / battles
                margin, se, beats = compare(p_style, p_bot, battles)
                if beats:
                    beaten.append({"scenario": sid, "seat": seat.value, "style": style})
                entries.append({
                    "style": style, "battles": battles,
                    "style_wins": c["win"], "bot_wins": c["loss"], "draws": c["draw"],
                    "style_win_rate": round(p_style, 4),
                    "bot_win_rate": round(c["loss"] / battles, 4),
                    "draw_rate": round(c["draw"] / battles, 4),
                    "margin": round(margin, 4), "standard_error": round(se, 4),
                    "score": round((c["win"] + c["draw"] / 2) / battles, 4),
                    "score_margin": round((c["win"] + c["draw"] / 2) / battles
                                          - reference["score"], 4),
                    "beats_bot": beats})
            seats.append({"seat": seat.value, "bot_vs_bot": reference, "styles": entries})
        rows.append({"scenario": sid, "seats": seats})
    return {"battles_per_cell": battles, "jobs": jobs, "seconds": round(elapsed, 2),
            "muster": difficulty, "styles": styles,
            "definition": "a style beats the bot in a seat when its win share there against "
                          "the bot exceeds the bot's own win share in that seat against the "
                          "bot by more than 2 standard errors",
            "goal_met": not beaten, "beaten": beaten,
            "forces": forces_report(scenarios, difficulty),
            "scenarios": rows}


def table(report: dict[str, Any]) -> str:
    n = report["battles_per_cell"]
    lines = [f"The bot against the pool of styles: {n} battles a cell, {report['jobs']} job(s), "
             f"{report['seconds']:.1f} s ({report['muster']} musters)",
             "A style beats the bot in a seat when its win share there, against the bot, is "
             "more than 2 standard",
             "errors above the bot's own win share in that seat against the bot (the "
             "reference line).", ""]
    head = (f"  {'in the seat':<18}{'its wins':>9}{'bot wins':>9}{'draws':>7}{'margin':>8}"
            f"{'2 SE':>7}  {'beats the bot':<15}{'score margin':>12}")
    for row in report["scenarios"]:
        for seat in row["seats"]:
            ref = seat["bot_vs_bot"]
            lines.append(f"{row['scenario']}, as {seat['seat']} (the bot on the other side)")
            lines += [head, "  " + "-" * (len(head) - 2)]
            lines.append(f"  {'bot (reference)':<18}{ref['wins'] / n:>9.1%}"
                         f"{ref['losses'] / n:>9.1%}{ref['draws'] / n:>7.1%}")
            for e in seat["styles"]:
                lines.append(f"  {e['style']:<18}{e['style_win_rate']:>9.1%}"
                             f"{e['bot_win_rate']:>9.1%}{e['draw_rate']:>7.1%}"
                             f"{e['margin']:>+8.1%}{2 * e['standard_error']:>7.1%}  "
                             f"{'YES' if e['beats_bot'] else 'no':<15}"
                             f"{e['score_margin']:>+12.1%}")
            lines.append("")
    if report["beaten"]:
        lines.append("Goal NOT met: " + "; ".join(
            f"{b['style']} as {b['seat']} in {b['scenario']}" for b in report["beaten"]))
    else:
        lines.append("Goal met: no style beats the bot by more than 2 standard errors.")
    lines += ["", f"Forces (each side's {report['muster']} muster, used whoever commands it):"]
    for sid, sides in report["forces"].items():
        lines.append(f"  {sid:<30}attacker {', '.join(sides['attacker'])}; "
                     f"defender {', '.join(sides['defender'])}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=positive_int, default=DEFAULT_BATTLES,
                        help="battles a cell (default %(default)s)")
    parser.add_argument("--jobs", type=positive_int, default=available_cpus(),
                        help="worker processes (default: one for each CPU this process may "
                        "use, %(default)s here)")
    parser.add_argument("--scenario", action="append",
                        choices=(*SCENARIOS, *CAMPAIGN_SCENARIOS),
                        help="only this scenario (repeatable); the campaign's copies too")
    parser.add_argument("--plan", choices=("printed", "campaign"), default="printed",
                        help="without --scenario: the six as printed, or the built-in "
                        "campaign's plan (its copies, and Head to Head as printed)")
    parser.add_argument("--style", action="append", choices=list(STYLES),
                        help="only this style of the pool (repeatable)")
    parser.add_argument("--muster", choices=("easy", "normal", "hard"), default="normal",
                        help="the difficulty the forces are mustered at (default: normal)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parse(parser, argv)
    if isinstance(args, int):  # --help, or a usage error argparse has explained
        return args
    plan = SCENARIOS if args.plan == "printed" else (*CAMPAIGN_SCENARIOS[:4], "head-to-head",
                                                      CAMPAIGN_SCENARIOS[4])
    return print_report("styles", lambda: run(
        list(dict.fromkeys(args.scenario or plan)), list(dict.fromkeys(args.style or STYLES)),
        args.battles, args.jobs, args.muster), args.json, table)


if __name__ == "__main__":
    sys.exit(main())
