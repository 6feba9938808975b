"""How fast the battle engine fights Opening Shots, next to the cost of its own dice.

Every battle is Opening Shots with mirrored forces (VIPER, WASP and WASP, each with a Regular
pilot); battle ``i`` rolls ``Dice.from_seed(i)``. The main figures fight with the Baseline
controller on both sides, in this one process, pinned to one CPU where the platform allows
it. The same run also times the bot (``meks.engine.bot.Bot``) on both sides on that core, and
the Baseline battles again split among ``--jobs`` worker processes (one CPU each where the
platform allows it; by default as many as the CPUs this process may use).

First an untimed pass fights every battle once: it warms up, counts the dice each battle
used (``len(battle.dice.log)``), checks that ``Dice.from_seed(seed)`` rolled that many times
gives the same values, and hashes every battle log into a results fingerprint (equal
fingerprints, identical battles); the bot's battles get a fingerprint of their own. Then, in
each of three repeats, the same battles are timed, and so is rolling the same number of bare
dice, once with the product's ``Dice`` and once with a plain ``random.Random(seed).randint(1,
6)`` loop, and then the bot's battles. Last, the worker processes start, fight their shares
once untimed (warming up, and checking that together they give the same fingerprint), then
three timed repeats of the whole parallel run, wall clock. The figures are medians of the
repeats.

    python benchmarks/battles.py [--battles N] [--bot-battles M] [--jobs J] [--json]
                                 [--profile] [--profile-bot] [--cpu K]

This is a benchmark, not a test: it exits 0 whether the goals are met or not (and reports
dice or fingerprints that do not agree as figures), 2 on a bad argument, and 1 when it cannot
run (a battle that raises, a worker process that fails), saying why on stderr instead of the
figures.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import hashlib
import json
import multiprocessing
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO_ROOT = HERE.parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import meks  # noqa: E402
from benchmarks._run import failed, parse, positive_int, usage_error  # noqa: E402
from campaigns.files.scenarios import get_scenario  # noqa: E402
from campaigns.processes import available_cpus  # noqa: E402
from meks.engine.bot.policy import Bot  # noqa: E402
from meks.engine.controllers import Baseline, Controller  # noqa: E402
from meks.engine.core import Battle  # noqa: E402
from meks.engine.log import digest  # noqa: E402
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec  # noqa: E402
from meks.game.catalog import Catalog, load_catalog  # noqa: E402
from meks.game.dice import Dice  # noqa: E402
from meks.game.scenario import Scenario  # noqa: E402
from meks.game.vocabulary import Side  # noqa: E402

DEFAULT_BATTLES = 2000
DEFAULT_JOBS = available_cpus()  # taken before this process pins itself to one CPU
REPEATS = 3
PROFILE_BATTLES = 300
PROFILE_TOP = 15

SCENARIO = "opening-shots"
FORCE = ("VIPER", "WASP", "WASP")  # Opening Shots: exactly 1 Medium and 2 Light Meks a side
PILOT_LEVEL = "Regular"

MAX_DICE_RATIO = {"plain": 20.0, "compiled": 10.0}  # engine time / its dice cost (issue 19)
MAX_BOT_RATIO = 2.5  # the bot's time a battle over the baseline's (issue 19)
MIN_SPEEDUP_PER_JOB = 0.9  # with --jobs J, the goal is J x 0.9 the one-core figure (1.8x for 2)

BASELINE, BOT = "baseline", "bot"
CONTROLLERS: dict[str, Callable[[], Controller]] = {BASELINE: Baseline, BOT: Bot}


# ---- the battles --------------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    scenario: Scenario
    catalog: Catalog
    forces: dict[Side, ForceSpec]


def make_setup() -> Setup:
    catalog = load_catalog()
    units = []
    for name in FORCE:
        design = catalog.design(name)
        units.append(UnitSpec(design.name, design,
                              PilotSpec(f"{design.name} pilot", PILOT_LEVEL),
                              points=design.price or 0))
    force = ForceSpec(tuple(units))
    return Setup(get_scenario(SCENARIO), catalog, {Side.ATTACKER: force, Side.DEFENDER: force})


def fight(setup: Setup, seed: int, controller: str = BASELINE) -> Battle:
    """One battle, run to its end, with ``controller`` (a key of CONTROLLERS) on both sides."""
    make = CONTROLLERS[controller]
    battle = Battle(setup.scenario, setup.forces, Dice.from_seed(seed),
                    {Side.ATTACKER: make(), Side.DEFENDER: make()}, setup.catalog)
    battle.run()
    return battle


def fingerprint_of(digests: Iterable[str]) -> str:
    """The results fingerprint of battles whose log digests are ``digests``, in seed order."""
    h = hashlib.sha256()
    for d in digests:
        h.update(d.encode())
    return h.hexdigest()[:16]


@dataclass
class Census:
    """What the untimed pass learned about the battles."""

    dice: list[int]  # dice used by the battle of each seed
    outcomes: Counter[str]
    turns: int
    events: int
    fingerprint: str
    replay_ok: bool  # Dice.from_seed(seed) rolled dice[seed] times gives the battle's dice


def census(setup: Setup, n: int, controller: str = BASELINE) -> Census:
    dice: list[int] = []
    outcomes: Counter[str] = Counter()
    turns = events = 0
    replay_ok = True
    digests = []
    for seed in range(n):
        battle = fight(setup, seed, controller)
        result = battle.result()
        used = len(battle.dice.log)
        dice.append(used)
        outcomes[result.outcome.value] += 1
        turns += result.turns
        events += len(battle.log)
        digests.append(digest(battle.log))
        replay = Dice.from_seed(seed)
        if replay_ok and [replay.d6("x") for _ in range(used)] != list(battle.dice.values):
            replay_ok = False
    return Census(dice, outcomes, turns, events, fingerprint_of(digests), replay_ok)


# ---- the timed loops on one core ----------------------------------------------------------

def time_battles(setup: Setup, n: int, controller: str = BASELINE) -> None:
    for seed in range(n):
        fight(setup, seed, controller)


def time_product_dice(counts: list[int]) -> None:
    for seed, count in enumerate(counts):
        dice = Dice.from_seed(seed)
        for _ in range(count):
            dice.d6("x")


def time_plain_dice(counts: list[int]) -> None:
    for seed, count in enumerate(counts):
        rng = random.Random(seed)
        for _ in range(count):
            rng.randint(1, 6)


@dataclass
class Timing:
    wall: list[float]  # seconds, one per repeat
    cpu: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.wall)


def timed(fn: Callable[[], None], timing: Timing) -> None:
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    timing.wall.append(time.perf_counter() - wall)
    timing.cpu.append(time.process_time() - cpu)


def measure(setup: Setup, n: int, counts: list[int], bot_n: int) -> dict[str, Timing]:
    """Each repeat times the battles, then the Dice rolls, then the plain rolls, then the
    bot's battles, so that whatever else the machine is doing weighs on all four alike."""
    timings = {key: Timing([], []) for key in ("engine", "dice", "plain", "bot")}
    for _ in range(REPEATS):
        timed(lambda: time_battles(setup, n), timings["engine"])
        timed(lambda: time_product_dice(counts), timings["dice"])
        timed(lambda: time_plain_dice(counts), timings["plain"])
        timed(lambda: time_battles(setup, bot_n, BOT), timings["bot"])
    return timings


def allowed_cpus() -> list[int] | None:
    """The CPUs this process may run on, or None where the platform cannot say."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    return sorted(os.sched_getaffinity(0))


def pin_to_one_cpu(cpu: int | None) -> tuple[str, int | None]:
    """Keep this process on one CPU; returns what was done, for the report, and the CPU."""
    allowed = allowed_cpus()
    if allowed is None or not hasattr(os, "sched_setaffinity"):
        return "not pinned (this platform cannot pin a process)", None
    chosen = allowed[0] if cpu is None else cpu
    try:
        os.sched_setaffinity(0, {chosen})
    except (OSError, ValueError, OverflowError) as exc:
        return f"not pinned (CPU {chosen}: {getattr(exc, 'strerror', None) or exc})", None
    return f"pinned to CPU {chosen}", chosen


# ---- the timed runs in worker processes ---------------------------------------------------

def worker(conn: Connection, cpu: int | None) -> None:
    """A worker process. It answers ("collect",) by collecting garbage, and ("fight", seeds,
    digests) by fighting the Baseline battles of ``seeds`` (with ``digests``, it sends back
    their logs' digests). None ends it. Each answer is (True, payload) or (False, error)."""
    try:
        if cpu is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {cpu})
        setup = make_setup()
    except Exception as exc:
        conn.send((False, f"{type(exc).__name__}: {exc}"))
        conn.close()
        return
    conn.send((True, None))
    while True:
        task = conn.recv()
        if task is None:
            break
        try:
            if task[0] == "collect":
                gc.collect()
                conn.send((True, None))
                continue
            _, seeds, want_digests = task
            digests = []
            for seed in seeds:
                battle = fight(setup, seed)
                if want_digests:
                    digests.append(digest(battle.log))
            conn.send((True, digests))
        except Exception as exc:
            conn.send((False, f"{type(exc).__name__}: {exc}"))
    conn.close()


def answers(conns: list[Connection]) -> list[Any]:
    out = []
    for conn in conns:
        ok, payload = conn.recv()
        if not ok:
            raise RuntimeError(f"a worker process failed: {payload}")
        out.append(payload)
    return out


@dataclass
class Parallel:
    jobs: int
    start_method: str
    placement: str
    wall: list[float]  # seconds for the whole parallel run, one per repeat
    fingerprint: str

    @property
    def median(self) -> float:
        return statistics.median(self.wall)


def placement_of(jobs: int, cpus: list[int] | None) -> tuple[list[int | None], str]:
    """The CPU of each worker, and the report's words for it."""
    if not cpus or not hasattr(os, "sched_setaffinity"):
        return [None] * jobs, "not pinned (this platform cannot pin a process)"
    chosen: list[int | None] = [cpus[k % len(cpus)] for k in range(jobs)]
    shown = ", ".join(str(c) for c in chosen)
    if jobs > len(cpus):
        return chosen, f"pinned to CPUs {shown} ({jobs} workers share {len(cpus)} CPUs)"
    return chosen, f"pinned to CPU{'s' * (jobs > 1)} {shown}, one each"


def parallel(n: int, jobs: int, cpus: list[int] | None) -> Parallel:
    """The Baseline battles of seeds 0..n-1 shared among ``jobs`` worker processes (seed i to
    worker i mod jobs). The workers start and fight their shares once untimed; then each
    repeat times, wall clock, from sending the shares to the last worker's answer."""
    method = "spawn"
    ctx = multiprocessing.get_context(method)
    shares = [list(range(k, n, jobs)) for k in range(jobs)]
    where_cpu, placement = placement_of(jobs, cpus)
    conns: list[Connection] = []
    procs = []
    try:
        for k in range(jobs):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=worker, args=(theirs, where_cpu[k]), daemon=True)
            proc.start()
            theirs.close()
            conns.append(mine)
            procs.append(proc)
        answers(conns)  # every worker is up
        for conn, share in zip(conns, shares, strict=True):
            conn.send(("fight", share, True))
        by_seed: dict[int, str] = {}
        for share, digests in zip(shares, answers(conns), strict=True):
            by_seed.update(zip(share, digests, strict=True))
        fingerprint = fingerprint_of(by_seed[seed] for seed in range(n))
        wall = []
        for _ in range(REPEATS):
            for conn in conns:
                conn.send(("collect",))
            answers(conns)
            start = time.perf_counter()
            for conn, share in zip(conns, shares, strict=True):
                conn.send(("fight", share, False))
            answers(conns)
            wall.append(time.perf_counter() - start)
    finally:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(None)
            conn.close()
        for proc in procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
                proc.join()
    return Parallel(jobs, method, placement, wall, fingerprint)


# ---- the profile ----------------------------------------------------------------------------

def where(key: tuple[str, int, str]) -> str:
    file, line, func = key
    if file == "~":  # a built-in
        return func
    path = Path(file)
    try:
        shown = str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        shown = path.name
    return f"{shown}:{line} {func}"


def profile(setup: Setup, n: int, controller: str = BASELINE) -> dict[str, Any]:
    profiler = cProfile.Profile()
    gc.collect()
    profiler.enable()
    time_battles(setup, n, controller)
    profiler.disable()
    stats = pstats.Stats(profiler)
    rows = []
    for key, (_cc, calls, tottime, cumtime, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if key[0] == str(HERE) or key[2] == "<method 'disable' of '_lsprof.Profiler' objects>":
            continue  # the benchmark's own loop
        rows.append({"function": where(key), "calls": calls,
                     "calls_per_battle": round(calls / n, 1), "tottime_s": round(tottime, 4),
                     "cumtime_s": round(cumtime, 4)})
    total = stats.total_tt  # type: ignore[attr-defined]

    def top(field: str) -> list[dict[str, Any]]:
        return sorted(rows, key=lambda r: -r[field])[:PROFILE_TOP]

    return {"controllers": f"{controller} on both sides", "battles": n,
            "profiled_s": round(total, 3),
            "by_cumulative": top("cumtime_s"), "by_total": top("tottime_s")}


# ---- the figures -----------------------------------------------------------------------

def rate(n: int, wall: list[float]) -> dict[str, float]:
    """Battles a second: the median, slowest and fastest repeat, and their spread."""
    rates = sorted(n / w for w in wall)
    bps = n / statistics.median(wall)
    return {"battles_per_s": round(bps, 1), "battles_per_s_min": round(rates[0], 1),
            "battles_per_s_max": round(rates[-1], 1),
            "spread_pct": round((rates[-1] - rates[0]) / bps * 100, 1),
            "ms_per_battle": round(statistics.median(wall) / n * 1000, 3)}


def outcomes_of(c: Census, n: int) -> dict[str, Any]:
    return {"outcomes": dict(sorted(c.outcomes.items())),
            "turns_per_battle": round(c.turns / n, 2),
            "events_per_battle": round(c.events / n, 1),
            "fingerprint": c.fingerprint}


def engine_build() -> str:
    """Whether the engine's modules run compiled (``MEKS_COMPILE=1``, see setup.py)."""
    if meks.engine_build() == "compiled":
        return "compiled with mypyc"
    return "plain Python (install with MEKS_COMPILE=1 for the compiled engine)"


def results(n: int, bot_n: int, pinned: str, c: Census, bot_c: Census,
            t: dict[str, Timing], par: Parallel) -> dict[str, Any]:
    engine, dice, plain, bot = t["engine"], t["dice"], t["plain"], t["bot"]
    bps = n / engine.median
    total_dice = sum(c.dice)
    ratio = engine.median / dice.median if dice.median else None
    par_bps = n / par.median
    speedup = par_bps / bps
    speedup_goal = MIN_SPEEDUP_PER_JOB * par.jobs
    build = "compiled" if meks.engine_build() == "compiled" else "plain"
    dice_goal = MAX_DICE_RATIO[build]
    bot_ratio = (bot.median / bot_n) / (engine.median / n)
    us = 1e6
    return {
        "scenario": SCENARIO,
        "forces": f"{', '.join(FORCE)} ({PILOT_LEVEL} pilots) on each side",
        "controllers": "Baseline vs Baseline",
        "battles": n,
        "seeds": f"0..{n - 1}",
        "repeats": REPEATS,
        "cpu": pinned,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "build": engine_build(),
        "engine": {**rate(n, engine.wall),
                   "cpu_share": round(sum(engine.cpu) / sum(engine.wall), 2)},
        "dice": {
            "per_battle": round(total_dice / n, 1),
            "min_per_battle": min(c.dice),
            "max_per_battle": max(c.dice),
            "total": total_dice,
            "dice_us_per_battle": round(dice.median / n * us, 1),
            "dice_us_per_die": round(dice.median / total_dice * us, 3),
            "plain_us_per_battle": round(plain.median / n * us, 1),
            "plain_us_per_die": round(plain.median / total_dice * us, 3),
            "engine_per_dice_cost": None if ratio is None else round(ratio, 1),
            "engine_per_plain_cost": round(engine.median / plain.median, 1),
            "dice_per_plain_cost": round(dice.median / plain.median, 2),
            "replay_matches": c.replay_ok,
        },
        "battle_results": outcomes_of(c, n),
        "bot": {
            "controllers": "Bot vs Bot",
            "battles": bot_n,
            "seeds": f"0..{bot_n - 1}",
            "cpu": pinned,
            **rate(bot_n, bot.wall),
            "cpu_share": round(sum(bot.cpu) / sum(bot.wall), 2),
            "dice_per_battle": round(sum(bot_c.dice) / bot_n, 1),
            "replay_matches": bot_c.replay_ok,
            "battle_results": outcomes_of(bot_c, bot_n),
        },
        "parallel": {
            "controllers": "Baseline vs Baseline",
            "jobs": par.jobs,
            "start_method": par.start_method,
            "cpus": par.placement,
            "battles": n,
            "seeds": f"0..{n - 1}, seed i to worker i mod {par.jobs}",
            **rate(n, par.wall),
            "speedup": round(speedup, 2),
            "fingerprint": par.fingerprint,
            "fingerprint_matches": par.fingerprint == c.fingerprint,
        },
        "goals": [
            {"goal": f"{par.jobs} processes / one core", "value": round(speedup, 2),
             "unit": "x", "target": f">= {speedup_goal:.1f}x",
             "met": speedup >= speedup_goal},
            {"goal": "engine time / its dice cost",
             "value": None if ratio is None else round(ratio, 1), "unit": "x",
             "target": f"<= {dice_goal:.0f}x ({build})",
             "met": ratio is not None and ratio <= dice_goal},
            {"goal": "bot / baseline, time a battle", "value": round(bot_ratio, 2),
             "unit": "x", "target": f"<= {MAX_BOT_RATIO}x",
             "met": bot_ratio <= MAX_BOT_RATIO},
        ],
    }


def report(d: dict[str, Any]) -> str:
    e, k, b, bot, par = d["engine"], d["dice"], d["battle_results"], d["bot"], d["parallel"]
    outcomes = ", ".join(f"{name} {count}" for name, count in b["outcomes"].items())
    bb = bot["battle_results"]
    bot_outcomes = ", ".join(f"{name} {count}" for name, count in bb["outcomes"].items())
    lines = [
        f"Opening Shots battles, {d['controllers']}, {d['forces']}",
        f"{d['battles']} battles (seeds {d['seeds']}), median of {d['repeats']} repeats, "
        f"one process {d['cpu']} (Python {d['python']}, {d['platform']})",
        f"engine build: {d['build']}",
        "",
        f"  engine           {e['battles_per_s']:>10,.1f} battles/s   "
        f"{e['ms_per_battle']:.3f} ms a battle",
        f"                   repeats {e['battles_per_s_min']:,.1f} to "
        f"{e['battles_per_s_max']:,.1f} battles/s (spread {e['spread_pct']:.1f}% of the "
        f"median); CPU/wall {e['cpu_share']:.2f}",
        f"  dice per battle  {k['per_battle']:>10.1f}              "
        f"min {k['min_per_battle']}, max {k['max_per_battle']}, {k['total']:,} in all",
        f"  Dice.d6          {k['dice_us_per_battle']:>10.1f} us a battle "
        f"{k['dice_us_per_die']:.3f} us a die",
        f"  randint(1, 6)    {k['plain_us_per_battle']:>10.1f} us a battle "
        f"{k['plain_us_per_die']:.3f} us a die "
        f"(Dice.d6 costs {k['dice_per_plain_cost']:.2f}x)",
        f"  engine / dice    {k['engine_per_dice_cost']:>10.1f}x its own dice cost "
        f"({k['engine_per_plain_cost']:.1f}x the plain randint loop)",
        "",
        f"  results          {outcomes}; {b['turns_per_battle']:.2f} turns, "
        f"{b['events_per_battle']:.1f} events a battle",
        f"  fingerprint      {b['fingerprint']}  (equal fingerprints, identical battles)",
    ]
    if not k["replay_matches"]:
        lines.append("  WARNING: re-rolling Dice.from_seed(seed) does not give the battles' "
                     "dice; the engine rolls dice outside its Dice")
    lines += [
        "",
        f"Bot vs Bot, the same forces, {bot['battles']} battles (seeds {bot['seeds']}), "
        f"the same core",
        "",
        f"  bot              {bot['battles_per_s']:>10,.1f} battles/s   "
        f"{bot['ms_per_battle']:.3f} ms a battle",
        f"                   repeats {bot['battles_per_s_min']:,.1f} to "
        f"{bot['battles_per_s_max']:,.1f} battles/s (spread {bot['spread_pct']:.1f}%); "
        f"CPU/wall {bot['cpu_share']:.2f}",
        f"  results          {bot_outcomes}; {bb['turns_per_battle']:.2f} turns, "
        f"{bot['dice_per_battle']:.1f} dice, {bb['events_per_battle']:.1f} events a battle",
        f"  fingerprint      {bb['fingerprint']}",
    ]
    if not bot["replay_matches"]:
        lines.append("  WARNING: the bot's battles roll dice outside their Dice")
    lines += [
        "",
        f"Baseline vs Baseline in {par['jobs']} worker processes ({par['start_method']}, "
        f"{par['cpus']}), the same {d['battles']} battles, wall clock of the whole run",
        "",
        f"  --jobs {par['jobs']:<9} {par['battles_per_s']:>10,.1f} battles/s   "
        f"{par['speedup']:.2f}x the one-core figure",
        f"                   repeats {par['battles_per_s_min']:,.1f} to "
        f"{par['battles_per_s_max']:,.1f} battles/s (spread {par['spread_pct']:.1f}%)",
        f"  fingerprint      {par['fingerprint']}  ("
        + ("the same battles)" if par["fingerprint_matches"] else
           "NOT the same battles as in one process)"),
    ]
    lines += ["", "Goals"]
    for g in d["goals"]:
        value = "n/a" if g["value"] is None else (
            f"{g['value']:,.1f}" if g["unit"] == "/s" else f"{g['value']:.2f}x"
            if "processes" in g["goal"] else f"{g['value']:.1f}x")
        lines.append(f"  {g['goal']:<30} {value:>10}   goal {g['target']:<9} "
                     f"{'met' if g['met'] else 'NOT met'}")
    for key in ("profile", "profile_bot"):
        if key in d:
            lines += ["", *profile_report(d[key])]
    return "\n".join(lines)


def profile_report(p: dict[str, Any]) -> list[str]:
    lines = [f"Profile of {p['battles']} battles, {p['controllers']}, under cProfile "
             f"({p['profiled_s']:.2f} s profiled; the profiler slows calls down, so read "
             "shares, not speeds)"]
    for title, key in (("by cumulative time", "by_cumulative"), ("by total (own) time",
                                                                  "by_total")):
        lines += ["", f"  Top {PROFILE_TOP} {title}",
                  f"  {'cumtime s':>9} {'tottime s':>9} {'calls/battle':>12}  function"]
        for r in p[key]:
            lines.append(f"  {r['cumtime_s']:>9.3f} {r['tottime_s']:>9.3f} "
                         f"{r['calls_per_battle']:>12,.1f}  {r['function']}")
    return lines


# ---- the command -------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--battles", type=positive_int, default=DEFAULT_BATTLES,
                        help=f"Baseline battles in each timed repeat, seeds 0..N-1 "
                        f"(default {DEFAULT_BATTLES})")
    parser.add_argument("--bot-battles", type=positive_int, default=None,
                        help="Bot battles in each timed repeat, seeds 0..M-1 (default a "
                        "quarter of --battles: a bot battle costs several Baseline ones)")
    parser.add_argument("--jobs", type=positive_int, default=DEFAULT_JOBS,
                        help=f"worker processes for the parallel figure (default: one for "
                        f"each CPU this process may use, {DEFAULT_JOBS} here)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", action="store_true",
                        help=f"also run cProfile over {PROFILE_BATTLES} Baseline battles and "
                        f"list the top {PROFILE_TOP} functions by cumulative and by total time")
    parser.add_argument("--profile-bot", action="store_true",
                        help=f"the same over {PROFILE_BATTLES} Bot battles")
    parser.add_argument("--cpu", type=int, default=None,
                        help="the CPU to pin this process to (default: the first it may use)")
    args = parse(parser, argv)
    if isinstance(args, int):  # --help, or a usage error argparse has explained
        return args
    bot_n = args.bot_battles or max(1, args.battles // 4)
    cpus = allowed_cpus()
    if args.cpu is not None and cpus is not None and args.cpu not in cpus:
        return usage_error(parser, f"argument --cpu: this process may not run on CPU "
                           f"{args.cpu} (it may use {', '.join(map(str, cpus))})")
    try:
        pinned, cpu = pin_to_one_cpu(args.cpu)
        if cpus is not None and cpu is not None:  # the workers start on this process's CPU
            cpus = [cpu] + [c for c in cpus if c != cpu]
        setup = make_setup()
        found = census(setup, args.battles)
        found_bot = census(setup, bot_n, BOT)
        timings = measure(setup, args.battles, found.dice, bot_n)
        par = parallel(args.battles, args.jobs, cpus)
        data = results(args.battles, bot_n, pinned, found, found_bot, timings, par)
        if args.profile:
            data["profile"] = profile(setup, PROFILE_BATTLES)
        if args.profile_bot:
            data["profile_bot"] = profile(setup, PROFILE_BATTLES, BOT)
    except Exception as exc:
        return failed("The battles benchmark", exc)
    print(json.dumps(data, indent=2) if args.json else report(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
