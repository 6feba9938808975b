"""Seeded auto campaigns of the built-in plan: how each scenario ends for the company, how many
Meks its pilots kill, and how long preparing each battle takes against fighting it.

Campaign ``i`` (0-based) is ``campaign start --seed`` ``--seed-base`` (16000) ``+ i`` of the
built-in plan at the chosen difficulty, then ``campaign run``, both sides commanded by the
bot, each in a throwaway SQLite database of its own. The campaigns are driven through the
product's own functions (``campaigns.campaign.start_campaign`` and ``next_scenario``), not
the command line, so that no start-up time is counted.

    python benchmarks/campaign_runs.py [--campaigns N] [--difficulty easy|normal|hard]
                                   [--runs R] [--seed-base S] [--record FILE]
                                   [--jobs J] [--treasury | --no-treasury]
                                   [--pay START,WIN,DRAW,LOSS] [--json]

It prints, for each scenario of the plan (the company's side in brackets): how many campaigns
the company won, lost and drew it, the mean number of turns, the mean chance of winning the
odds gave the company before the battle (estimated, as ``campaign run`` gives them; or
``--runs`` battles each, 0 for none: the enemy then musters its full budget, as before
balancing) against the share it really won, and the mean enemy budget balancing chose as a
share of the scenario's. Then the Mek kills by the company's
pilots per whole campaign, and the seconds spent on the odds and the balancing before each
battle against fighting it, summed over every battle, with their ratio (the issue's goal), and
beside them everything before the battle (support rolls, the company's shopping and muster,
odds and balancing). Then the battles won per campaign and, with the house rule treasury on
(``--treasury``; ``--pay`` tries other numbers), the share of companies that went broke, the
mean treasury after each step, and how much of the budget the companies that won half their
battles or more, and those that lost most, fielded after the first scenario.

The goals it reports on (issues 16 and 25, "Must hold"): at normal difficulty the company
wins each scenario between 25% and 75% of the time, no scenario is drawn more than 20% of the
time, the company's pilots average at least 6 Mek kills per campaign, and preparing a battle
takes no more than 3x the time of fighting it besides its trial battles (``TRIALS``: 23x
with 20 trials; docs/rules.md, "Trial battles"). With ``--runs``, each battle's odds are also
fought with the forces the estimate balanced, and the report gives the estimate's mean
absolute error against them in every scenario (goal: at most 10 points; where balancing
fought trial battles of the match-up, the odds shown from the estimate and those, and the
estimate's error alone beside it), the estimate's mean
less theirs, and the shares of the battles whose fought odds lie from 30% to 70% and under
20% or over 80% (battles the forces all but decide, which no estimate read off the forces
gets near unless it says so). This is a
benchmark, not a test: it exits 0 whether or not a goal is met, 2 on a bad argument and 1
when it cannot run or cannot write ``--record`` (saying why on stderr). The results do not
depend on ``--jobs``; the times do, a little, on how busy the machine is.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO_ROOT = HERE.parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks._run import (  # noqa: E402
    Failure,
    failed,
    non_negative_int,
    parse,
    positive_int,
    print_report,
    writable,
    write_whole,
)
from campaigns.balance import TRIALS  # noqa: E402
from campaigns.processes import available_cpus  # noqa: E402

SEED_BASE = 16_000
DEFAULT_CAMPAIGNS = 40
FORCES_SEED_BASE = 26_000
PREPARE_LIMIT = 3 + TRIALS.battles
"""Odds and balancing against fighting: issue 16's 3x, and the trial battles on top."""
FORCES_FILE = REPO_ROOT / "benchmarks" / "data" / "campaign_forces.json"
COMPANY = "Bench"


def one_campaign(job: tuple[int, str, int | None, bool, int, bool | None,
                             tuple[int, int, int, int] | None]) -> dict[str, Any]:
    """Play campaign ``index`` to its end in a database of its own; what each step came to
    (with both sides' forces as the battle was fought, when ``forces``). ``treasury``
    switches the house rule on or off (None: as the built-in plan has it), and ``pay``,
    when given, replaces its numbers (start, win, draw, loss) for the measurement."""
    index, difficulty, runs, forces, base, treasury, pay = job

    from sqlmodel import Session, col, select

    from campaigns import treasury as treasury_rule
    from campaigns.campaign import next_scenario, start_campaign
    from campaigns.company import create_company
    from db.engine import engine_for
    from db.models import BattleLog, Muster
    from meks.game.catalog import load_catalog

    if pay is not None:
        treasury_rule.PAY = treasury_rule.Pay(*pay)

    catalog = load_catalog()
    steps = []
    with tempfile.TemporaryDirectory() as folder:
        engine = engine_for(str(Path(folder) / "bench.sqlite"))
        try:
            with Session(engine) as session:
                create_company(session, COMPANY)
                start = start_campaign(session, COMPANY, seed=base + index,
                                       difficulty=difficulty, treasury=treasury)
                session.commit()
            broke = False
            while True:
                with Session(engine) as session:
                    timings: dict[str, float] = {}
                    result = next_scenario(session, COMPANY, catalog, runs=runs,
                                           timings=timings)
                    session.commit()
                    if result["result"] == "broke":
                        broke = True
                        break
                    last = session.exec(select(Muster).order_by(col(Muster.id).desc())).first()
                    fielded = None if last is None else last.cost / last.budget
                    fought = None
                    if forces and result.get("battle_id") is not None:
                        log = session.get(BattleLog, result["battle_id"])
                        fought = None if log is None else json.loads(log.spec)["forces"]
                odds = result.get("odds")
                # with --runs: the estimate (with its trial battles, where balancing fought
                # some) beside the odds fought with the same forces
                guess = None if odds is None or not odds["runs"] else odds["estimated"]
                steps.append({
                    "scenario": result["scenario"], "name": result["name"],
                    "side": result["side"], "result": result["result"],
                    "turns": result["turns"],
                    "kills": sum(p.get("kills", 0) for p in result["pilots"]),
                    "predicted": None if odds is None else odds["win"]["p"],
                    "estimated": None if guess is None else odds.get("trials", guess)["win"],
                    "estimated_alone": None if guess is None else guess["win"],
                    "scale": None if odds is None else odds["balance"]["scale"],
                    "prepare": timings["prepare"], "balance": timings["balance"],
                    "fight": timings["fight"],
                    "fielded": fielded, "treasury": result.get("treasury"),
                    **({"forces": fought} if fought is not None else {})})
                if result["finished"]:
                    break
        finally:
            engine.dispose()
    return {"index": index, "steps": steps, "broke": broke,
            "start": start.get("treasury")}


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _against_fought(pairs: list[tuple[float, float]]) -> dict[str, float | None]:
    """The estimate against the odds fought with the same forces (``--runs``), beyond its
    mean error: its mean less theirs (``estimate_bias``), and as shares of the battles, those
    whose fought odds lie from 30% to 70% (``fought_even``) and those the forces all but
    decide, under 20% or over 80% (``fought_decided``). None without ``--runs``."""
    if not pairs:
        return {"estimate_bias": None, "fought_even": None, "fought_decided": None}
    fought = [f for _, f in pairs]
    return {"estimate_bias": sum(e - f for e, f in pairs) / len(pairs),
            "fought_even": sum(0.3 <= f <= 0.7 for f in fought) / len(fought),
            "fought_decided": sum(f < 0.2 or f > 0.8 for f in fought) / len(fought)}


def money(played: list[dict[str, Any]], plan_length: int) -> dict[str, Any] | None:
    """What the house rule treasury came to (None when it was off): the share of companies
    that went broke, the mean treasury after each step (over the companies still playing),
    and, for the companies that won half their battles or more and for those that lost
    most, the mean share of the scenario's budget they fielded after the first step and the
    share of them that went broke."""
    if all(c["start"] is None for c in played):
        return None
    after: list[list[int]] = [[] for _ in range(plan_length)]
    for c in played:
        for i, step in enumerate(c["steps"]):
            if step["treasury"] is not None:
                after[i].append(step["treasury"])
    groups: dict[str, dict[str, Any]] = {
        label: {"companies": 0, "broke": 0, "fielded": []}
        for label in ("won half or more", "lost most")}
    for c in played:
        fought = c["steps"]
        won = sum(s["result"] == "win" for s in fought)
        lost = sum(s["result"] == "loss" for s in fought)
        if c["broke"]:  # the battle it could not field counts as lost
            lost += 1
        n = len(fought) + c["broke"]
        label = ("won half or more" if n and won * 2 >= n else
                 "lost most" if lost * 2 > n else None)
        if label is None:
            continue
        group = groups[label]
        group["companies"] += 1
        group["broke"] += c["broke"]
        group["fielded"] += [s["fielded"] for s in fought[1:] if s["fielded"] is not None]
    return {
        "start": next(c["start"] for c in played if c["start"] is not None),
        "broke_share": sum(c["broke"] for c in played) / len(played),
        "treasury_after_step": [_mean([float(t) for t in ts]) for ts in after],
        "playing_after_step": [len(ts) for ts in after],
        "groups": {label: {"companies": g["companies"],
                           "broke_share": g["broke"] / g["companies"] if g["companies"]
                           else None,
                           "fielded_share": _mean(g["fielded"])}
                   for label, g in groups.items()},
    }


def run(campaigns: int, difficulty: str, runs: int | None, jobs: int,
        record: Path | None = None, base: int = SEED_BASE, treasury: bool | None = None,
        pay: tuple[int, int, int, int] | None = None) -> dict[str, Any]:
    work = [(i, difficulty, runs, record is not None, base, treasury, pay)
            for i in range(campaigns)]
    if jobs <= 1:
        played = [one_campaign(w) for w in work]
    else:
        with multiprocessing.get_context("spawn").Pool(min(jobs, campaigns)) as pool:
            played = pool.map(one_campaign, work)
    played.sort(key=lambda c: c["index"])
    if record is not None:
        write_forces(record, played, difficulty)
    rows: dict[tuple[int, str], dict[str, Any]] = {}
    for campaign in played:
        for position, step in enumerate(campaign["steps"]):
            row = rows.setdefault((position, step["scenario"]), {
                "scenario": step["scenario"], "name": step["name"], "side": step["side"],
                "won": 0, "lost": 0, "drawn": 0, "turns": 0, "battles": 0,
                "predicted": [], "scale": [], "errors": [], "pairs": [], "alone": [],
                "prepare": 0.0,
                "balance": 0.0, "fight": 0.0})
            row[{"win": "won", "loss": "lost", "draw": "drawn"}[step["result"]]] += 1
            row["turns"] += step["turns"]
            row["battles"] += 1
            row["prepare"] += step["prepare"]
            row["balance"] += step["balance"]
            row["fight"] += step["fight"]
            if step["predicted"] is not None:
                row["predicted"].append(step["predicted"])
                row["scale"].append(step["scale"])
            if step.get("estimated") is not None and step["predicted"] is not None:
                row["errors"].append(abs(step["estimated"] - step["predicted"]))
                row["pairs"].append((step["estimated"], step["predicted"]))
            if step.get("estimated_alone") is not None and step["predicted"] is not None:
                row["alone"].append(abs(step["estimated_alone"] - step["predicted"]))
    scenarios = []
    for _, row in sorted(rows.items()):
        n = row["battles"]
        predicted = row.pop("predicted")
        scale = row.pop("scale")
        errors = row.pop("errors")
        pairs = row.pop("pairs")
        alone = row.pop("alone")
        scenarios.append({**row, **_against_fought(pairs), "turns": row["turns"] / n,
                          "win_share": row["won"] / n,
                          "draw_share": row["drawn"] / n,
                          "predicted": sum(predicted) / len(predicted) if predicted else None,
                          "enemy_budget_scale": sum(scale) / len(scale) if scale else None,
                          "estimate_error": sum(errors) / len(errors) if errors else None,
                          "estimate_error_max": max(errors) if errors else None,
                          # the curves' own error, without the trial battles
                          "estimate_alone_error": sum(alone) / len(alone) if alone else None})
    kills = [sum(s["kills"] for s in c["steps"]) for c in played]
    wins = [sum(s["result"] == "win" for s in c["steps"]) for c in played]
    prepare = sum(s["prepare"] for s in scenarios)
    balance = sum(s["balance"] for s in scenarios)
    fight = sum(s["fight"] for s in scenarios)
    return {
        "campaigns": campaigns, "difficulty": difficulty, "odds_runs": runs,
        "seed_base": base, "scenarios": scenarios,
        "kills_per_campaign": sum(kills) / len(kills) if kills else 0.0,
        "wins_per_campaign": sum(wins) / len(wins) if wins else 0.0,
        "treasury": money(played, max((len(c["steps"]) + c["broke"] for c in played),
                                      default=0)),
        "prepare_seconds": prepare, "balance_seconds": balance, "fight_seconds": fight,
        "prepare_to_fight": prepare / fight if fight else None,
        "balance_to_fight": balance / fight if fight else None,
        "goals": {
            "win_share_25_to_75": all(0.25 <= s["win_share"] <= 0.75 for s in scenarios),
            "draws_at_most_20": all(s["draw_share"] <= 0.20 for s in scenarios),
            "kills_at_least_6": bool(kills) and sum(kills) / len(kills) >= 6,
            "prepare_within_limit": bool(fight) and balance <= PREPARE_LIMIT * fight,
            "estimate_error_at_most_10": None if not any(
                s["estimate_error"] is not None for s in scenarios) else all(
                s["estimate_error"] is not None and s["estimate_error"] <= 0.10
                for s in scenarios),
        },
    }


def write_forces(path: Path, played: list[dict[str, Any]], difficulty: str) -> None:
    """Add every battle's company force to the JSON file at ``path`` (a list of battles, one
    a line, each with its scenario, the company's side, the difficulty, the result and the
    company's force as the battle's record keeps it): the campaign-like forces ``fit_odds.py``
    fits the curves on. Battles of the same difficulty already in the file are replaced."""
    kept = [b for b in read_forces(path) if b["difficulty"] != difficulty]
    for campaign in played:
        for step in campaign["steps"]:
            if "forces" in step:
                kept.append({"scenario": step["scenario"], "side": step["side"],
                             "difficulty": difficulty, "campaign": campaign["index"],
                             "result": step["result"],
                             "company": step["forces"][step["side"]]})
    write_whole(path, "[\n" + ",\n".join(json.dumps(b, separators=(",", ":")) for b in kept)
                + "\n]\n")


def read_forces(path: Path) -> list[dict[str, Any]]:
    """The battles already recorded in ``path`` (none when it does not exist);
    ``Failure`` when it is not such a file."""
    if not path.exists():
        return []
    try:
        battles = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(battles, list) or not all(
                isinstance(b, dict) and "difficulty" in b for b in battles):
            raise ValueError("not a list of recorded battles")
    except (OSError, ValueError) as exc:
        raise Failure(f"cannot read the recorded forces in {path} ({exc}); give another "
                      "file to --record") from exc
    return battles


def ready_to_record(path: Path) -> None:
    """Check, before any campaign is played, that ``path`` can be read and written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise Failure(f"cannot make the folder {path.parent}: {exc.strerror or exc}") from exc
    writable(path)
    read_forces(path)


def _alone(scenario: dict[str, Any]) -> str:
    """The estimate's error without its trial battles, where balancing fought some."""
    alone, error = scenario["estimate_alone_error"], scenario["estimate_error"]
    return "" if alone is None or alone == error else \
        f", {alone:.1%} from the estimate alone, before its trial battles"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _odds_kind(runs: int | None) -> str:
    return "estimated" if runs is None else f"of {runs} battles"


def table(report: dict[str, Any]) -> str:
    lines = [f"{report['campaigns']} campaigns of the built-in plan, {report['difficulty']}, "
             f"odds {_odds_kind(report['odds_runs'])} before each battle "
             f"(seeds {report['seed_base']}...)", "",
             "| scenario (company side) | won | lost | drawn | turns | odds said | won share "
             "| enemy budget | odds and balancing s | fight s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for s in report["scenarios"]:
        lines.append(f"| {s['name']} ({s['side']}) | {s['won']} | {s['lost']} | {s['drawn']} "
                     f"| {s['turns']:.1f} | {_pct(s['predicted'])} | {_pct(s['win_share'])} "
                     f"| {_pct(s['enemy_budget_scale'])} | {s['balance']:.2f} "
                     f"| {s['fight']:.2f} |")
    ratio = report["balance_to_fight"]
    whole = report["prepare_to_fight"]
    goals = report["goals"]

    def met(ok: bool) -> str:
        return "met" if ok else "NOT met"

    lines += ["",
              f"Mek kills by the company's pilots per campaign: "
              f"{report['kills_per_campaign']:.1f} (goal at least 6: "
              f"{met(goals['kills_at_least_6'])})",
              f"Odds and balancing: {report['balance_seconds']:.1f} s, fighting the "
              f"battles: {report['fight_seconds']:.1f} s, ratio "
              f"{'-' if ratio is None else f'{ratio:.2f}'}x (goal at most {PREPARE_LIMIT}x: "
              f"{met(goals['prepare_within_limit'])}); everything before the battles "
              f"(support rolls, the company's shopping and muster, odds and balancing): "
              f"{report['prepare_seconds']:.1f} s, "
              f"{'-' if whole is None else f'{whole:.1f}'}x",
              f"Every scenario won 25%-75%: {met(goals['win_share_25_to_75'])}; "
              f"none drawn over 20%: {met(goals['draws_at_most_20'])}",
              f"Battles won per campaign: {report['wins_per_campaign']:.2f}"]
    money = report.get("treasury")
    if money is not None:
        steps = ", ".join("-" if t is None else f"{t:.0f} ({n})" for t, n in zip(
            money["treasury_after_step"], money["playing_after_step"], strict=True))
        lines += ["", f"Treasury (house rule treasury, {money['start']} points at the start):",
                  f"- companies that went broke: {money['broke_share']:.0%}",
                  f"- mean treasury after each step (companies still playing): {steps}"]
        for label, g in money["groups"].items():
            lines.append(f"- companies that {label} ({g['companies']}): fielded "
                         f"{_pct(g['fielded_share'])} of the budget after the first "
                         f"scenario on average, {_pct(g['broke_share'])} went broke")
    if goals["estimate_error_at_most_10"] is not None:
        lines += ["", "The estimate against the odds fought with the same forces "
                  f"({report['odds_runs']} battles), mean absolute error (largest):"]
        lines += [f"- {s['name']} ({s['side']}): {s['estimate_error']:.1%} "
                  f"({s['estimate_error_max']:.1%}){_alone(s)}; the estimate's mean less the "
                  "fought "
                  f"odds' {s['estimate_bias']:+.1%}; fought odds 30%-70% in "
                  f"{s['fought_even']:.0%} of the battles, under 20% or over 80% in "
                  f"{s['fought_decided']:.0%}" for s in report["scenarios"]
                  if s["estimate_error"] is not None]
        lines.append("At most 10 points in every scenario: "
                     f"{met(goals['estimate_error_at_most_10'])}")
    return "\n".join(lines)


def pay_numbers(text: str) -> tuple[int, int, int, int]:
    """An argparse type: --pay's four whole numbers."""
    try:
        start, win, draw, loss = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not four whole numbers START,WIN,DRAW,LOSS") from None
    return start, win, draw, loss


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=positive_int, default=DEFAULT_CAMPAIGNS,
                        help="seeded campaigns to play (default %(default)s)")
    parser.add_argument("--difficulty", choices=("easy", "normal", "hard"), default="normal",
                        help="the campaigns' difficulty (default: normal)")
    parser.add_argument("--runs", type=non_negative_int, default=None,
                        help="battles fought for the odds before each campaign battle "
                        "(default: none, the odds are estimated, as 'campaign run' does; "
                        "0: no odds, no balancing)")
    parser.add_argument("--jobs", type=positive_int, default=available_cpus(),
                        help="worker processes (default: one for each CPU this process may "
                        "use, %(default)s here)")
    parser.add_argument("--seed-base", type=int, default=SEED_BASE,
                        help="campaign i is seeded with this plus i (default %(default)s; "
                        f"the forces fit_odds.py fits on come from seeds {FORCES_SEED_BASE}...,"
                        " apart from those the goals are judged on)")
    parser.add_argument("--record", type=Path, default=None, metavar="FILE",
                        help="also write both forces of every battle to this JSON file "
                        "(the campaign-like match-ups fit_odds.py fits the curves on: "
                        f"{FORCES_FILE.relative_to(REPO_ROOT)}), keeping the file's battles "
                        "of other difficulties")
    parser.add_argument("--treasury", action=argparse.BooleanOptionalAction, default=None,
                        help="switch the house rule treasury on or off (default: as the "
                        "built-in plan has it)")
    parser.add_argument("--pay", type=pay_numbers, default=None, metavar="START,WIN,DRAW,LOSS",
                        help="try other treasury numbers: the points a campaign starts with "
                        "and what a won, drawn and lost battle pays")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parse(parser, argv)
    if isinstance(args, int):  # --help, or a usage error argparse has explained
        return args
    if args.record is not None:
        try:
            ready_to_record(args.record)
        except Failure as exc:
            return failed("campaigns", exc)
    return print_report("campaigns", lambda: run(
        args.campaigns, args.difficulty, args.runs, args.jobs, args.record, args.seed_base,
        args.treasury, args.pay), args.json, table)


if __name__ == "__main__":
    sys.exit(main())
