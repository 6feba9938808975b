"""How fast the battle engine fights Opening Shots, next to the cost of its own dice.

Every battle is Opening Shots with the Baseline controller on both sides and mirrored forces
(VIPER, WASP and WASP, each with a Regular pilot); battle ``i`` rolls ``Dice.from_seed(i)``.
Everything runs in this one process, pinned to one CPU where the platform allows it.

First an untimed pass fights every battle once: it warms up, counts the dice each battle
used (``len(battle.dice.log)``), checks that ``Dice.from_seed(seed)`` rolled that many times
gives the same values, and hashes every battle log into a results fingerprint (equal
fingerprints, identical battles). Then, in each of three repeats, the same battles are timed,
and so is rolling the same number of bare dice, once with the product's ``Dice`` and once with
a plain ``random.Random(seed).randint(1, 6)`` loop. The figures are medians of the repeats.

    python benchmarks/battles.py [--battles N] [--json] [--profile] [--cpu K]

This is a benchmark, not a test: it exits 0 whether the goals are met or not, and also when
it cannot run (the failure is reported instead of the figures).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from campaigns.scenarios import get_scenario
from meks.catalog import Catalog, load_catalog
from meks.dice import Dice
from meks.engine.controllers import Baseline
from meks.engine.core import Battle
from meks.engine.log import digest
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.scenario import Scenario, Side

HERE = Path(__file__).resolve()
REPO_ROOT = HERE.parent.parent
DEFAULT_BATTLES = 2000
REPEATS = 3
PROFILE_BATTLES = 300
PROFILE_TOP = 15

SCENARIO = "opening-shots"
FORCE = ("VIPER", "WASP", "WASP")  # Opening Shots: exactly 1 Medium and 2 Light Meks a side
PILOT_LEVEL = "Regular"

MIN_BATTLES_PER_S = 5000.0
MAX_DICE_RATIO = 10.0


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


def fight(setup: Setup, seed: int) -> Battle:
    """One battle, run to its end."""
    battle = Battle(setup.scenario, setup.forces, Dice.from_seed(seed),
                    {Side.ATTACKER: Baseline(), Side.DEFENDER: Baseline()}, setup.catalog)
    battle.run()
    return battle


@dataclass
class Census:
    """What the untimed pass learned about the battles."""

    dice: list[int]  # dice used by the battle of each seed
    outcomes: Counter[str]
    turns: int
    events: int
    fingerprint: str
    replay_ok: bool  # Dice.from_seed(seed) rolled dice[seed] times gives the battle's dice


def census(setup: Setup, n: int) -> Census:
    dice: list[int] = []
    outcomes: Counter[str] = Counter()
    turns = events = 0
    replay_ok = True
    fingerprint = hashlib.sha256()
    for seed in range(n):
        battle = fight(setup, seed)
        result = battle.result()
        used = len(battle.dice.log)
        dice.append(used)
        outcomes[result.outcome.value] += 1
        turns += result.turns
        events += len(battle.log)
        fingerprint.update(digest(battle.log).encode())
        replay = Dice.from_seed(seed)
        if replay_ok and [replay.d6("x") for _ in range(used)] != list(battle.dice.values):
            replay_ok = False
    return Census(dice, outcomes, turns, events, fingerprint.hexdigest()[:16], replay_ok)


# ---- the timed loops ---------------------------------------------------------------------

def time_battles(setup: Setup, n: int) -> None:
    for seed in range(n):
        fight(setup, seed)


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


def measure(setup: Setup, n: int, counts: list[int]) -> dict[str, Timing]:
    """Each repeat times the battles, then the Dice rolls, then the plain rolls, so that
    whatever else the machine is doing weighs on all three alike."""
    timings = {key: Timing([], []) for key in ("engine", "dice", "plain")}
    for _ in range(REPEATS):
        timed(lambda: time_battles(setup, n), timings["engine"])
        timed(lambda: time_product_dice(counts), timings["dice"])
        timed(lambda: time_plain_dice(counts), timings["plain"])
    return timings


def pin_to_one_cpu(cpu: int | None) -> str:
    """Keep this process on one CPU; returns what was done, for the report."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (this platform cannot pin a process)"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[0] if cpu is None else cpu
    try:
        os.sched_setaffinity(0, {chosen})
    except (OSError, ValueError, OverflowError) as exc:
        return f"not pinned (CPU {chosen}: {getattr(exc, 'strerror', None) or exc})"
    return f"pinned to CPU {chosen}"


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


def profile(setup: Setup, n: int) -> dict[str, Any]:
    profiler = cProfile.Profile()
    gc.collect()
    profiler.enable()
    time_battles(setup, n)
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

    return {"battles": n, "profiled_s": round(total, 3),
            "by_cumulative": top("cumtime_s"), "by_total": top("tottime_s")}


# ---- the figures -----------------------------------------------------------------------

def results(n: int, pinned: str, c: Census, t: dict[str, Timing]) -> dict[str, Any]:
    engine, dice, plain = t["engine"], t["dice"], t["plain"]
    rates = sorted(n / w for w in engine.wall)
    bps = n / engine.median
    total_dice = sum(c.dice)
    ratio = engine.median / dice.median if dice.median else None
    spread = (rates[-1] - rates[0]) / bps * 100
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
        "engine": {
            "battles_per_s": round(bps, 1),
            "battles_per_s_min": round(rates[0], 1),
            "battles_per_s_max": round(rates[-1], 1),
            "spread_pct": round(spread, 1),
            "ms_per_battle": round(engine.median / n * 1000, 3),
            "cpu_share": round(sum(engine.cpu) / sum(engine.wall), 2),
        },
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
        "battle_results": {
            "outcomes": dict(sorted(c.outcomes.items())),
            "turns_per_battle": round(c.turns / n, 2),
            "events_per_battle": round(c.events / n, 1),
            "fingerprint": c.fingerprint,
        },
        "goals": [
            {"goal": "battles per second", "value": round(bps, 1),
             "target": f">= {MIN_BATTLES_PER_S:,.0f}", "met": bps >= MIN_BATTLES_PER_S},
            {"goal": "engine time / its dice cost",
             "value": None if ratio is None else round(ratio, 1),
             "target": f"<= {MAX_DICE_RATIO:.0f}x",
             "met": ratio is not None and ratio <= MAX_DICE_RATIO},
        ],
    }


def report(d: dict[str, Any]) -> str:
    e, k, b = d["engine"], d["dice"], d["battle_results"]
    outcomes = ", ".join(f"{name} {count}" for name, count in b["outcomes"].items())
    lines = [
        f"Opening Shots battles, {d['controllers']}, {d['forces']}",
        f"{d['battles']} battles (seeds {d['seeds']}), median of {d['repeats']} repeats, "
        f"one process {d['cpu']} (Python {d['python']}, {d['platform']})",
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
    lines += ["", "Goals"]
    for g in d["goals"]:
        value = "n/a" if g["value"] is None else (
            f"{g['value']:,.1f}" if "second" in g["goal"] else f"{g['value']:.1f}x")
        lines.append(f"  {g['goal']:<30} {value:>10}   goal {g['target']:<9} "
                     f"{'met' if g['met'] else 'NOT met'}")
    if "profile" in d:
        lines += ["", *profile_report(d["profile"])]
    return "\n".join(lines)


def profile_report(p: dict[str, Any]) -> list[str]:
    lines = [f"Profile of {p['battles']} battles under cProfile ({p['profiled_s']:.2f} s "
             "profiled; the profiler slows calls down, so read shares, not speeds)"]
    for title, key in (("by cumulative time", "by_cumulative"), ("by total (own) time",
                                                                  "by_total")):
        lines += ["", f"  Top {PROFILE_TOP} {title}",
                  f"  {'cumtime s':>9} {'tottime s':>9} {'calls/battle':>12}  function"]
        for r in p[key]:
            lines.append(f"  {r['cumtime_s']:>9.3f} {r['tottime_s']:>9.3f} "
                         f"{r['calls_per_battle']:>12,.1f}  {r['function']}")
    return lines


# ---- the command -------------------------------------------------------------------------

def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--battles", type=positive_int, default=DEFAULT_BATTLES,
                        help=f"battles in each timed repeat, seeds 0..N-1 "
                        f"(default {DEFAULT_BATTLES})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", action="store_true",
                        help=f"also run cProfile over {PROFILE_BATTLES} battles and list the "
                        f"top {PROFILE_TOP} functions by cumulative and by total time")
    parser.add_argument("--cpu", type=int, default=None,
                        help="the CPU to pin this process to (default: the first it may use)")
    try:
        args = parser.parse_args(argv)
    except SystemExit:  # --help, or a bad option (already reported by argparse)
        return 0
    try:
        pinned = pin_to_one_cpu(args.cpu)
        setup = make_setup()
        found = census(setup, args.battles)
        data = results(args.battles, pinned, found, measure(setup, args.battles, found.dice))
        if args.profile:
            data["profile"] = profile(setup, PROFILE_BATTLES)
    except Exception as exc:  # a benchmark reports, it never fails the build
        print(f"battles benchmark could not run: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 0
    print(json.dumps(data, indent=2) if args.json else report(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
