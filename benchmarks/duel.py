"""Exact duel speed: the time of ``meks.analysis.duel.exact_duel`` for every pair of stock Meks
(floats, then exact fractions), and the verdicts on the speed goals of issue 19. It exits 0 whether
the goals are met or not, 2 on a bad argument (an unknown terrain), and 1 when a pair cannot
be timed (its computation raised anything but the product's refusal), saying why on stderr.

    python benchmarks/duel.py                 # every pair, each given at most 60 s
    python benchmarks/duel.py --limit 10      # a pair slower than 10 s is cut off
    python benchmarks/duel.py --terrain Woods
    python benchmarks/duel.py --no-fractions  # decimals only

The goals: every pair under 1 s; the pairs of two Light or Medium Meks under 50 ms; and
``--fractions`` (``exact_duel(..., exact=True)``) offered, and finishing in time (under 1 s),
for every pair whose decimals finish in time.

Each pair runs in a child process (so a slow pair can be cut off); the time is measured
inside the child, around the computation only, from a fresh model (no warm caches), and is
the median of three such computations. The fractions of a pair are timed the same way in a
child of their own, unless the product refuses them (the pair is too large), which is
reported as refused.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import queue
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks._run import Failure, failed, parse, positive_float, usage_error  # noqa: E402

GOAL_S = 1.0  # every pair
SMALL_GOAL_MS = 50.0  # pairs of two Light or Medium Meks
SMALL_SIZES = ("Light", "Medium")
REPEATS = 3
REFUSED = -1.0


def _time_pair(a: str, b: str, terrain: str, exact: bool,
               out: mp.Queue) -> None:  # type: ignore[type-arg]
    """Put the median time of the pair on ``out``; REFUSED when the product refuses it, or
    the error, as text, when its computation fails."""
    try:
        from meks.analysis.duel import DuelError, exact_duel

        exact_duel("WASP", "WASP")  # warm imports and the catalog
        times = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            try:
                exact_duel(a, b, terrain, exact=exact)
            except DuelError:
                out.put(REFUSED)
                return
            times.append(time.perf_counter() - start)
        out.put(statistics.median(times))
    except Exception as exc:
        out.put(f"{type(exc).__name__}: {exc}")


def _timed(a: str, b: str, terrain: str, exact: bool, limit: float) -> float | None:
    """The median time of the pair, REFUSED, or None when it was cut off after ``limit``;
    ``Failure`` when its computation failed."""
    answer: mp.Queue = mp.Queue()  # type: ignore[type-arg]
    child = mp.Process(target=_time_pair, args=(a, b, terrain, exact, answer))
    child.start()
    child.join(limit * REPEATS + 5)
    if child.is_alive():
        child.terminate()
        child.join()
        return None
    kind = "fractions" if exact else "decimals"
    try:
        got = answer.get(timeout=5)
    except queue.Empty:
        raise Failure(f"timing the {kind} of {a} vs {b} gave no answer (its process ended "
                      f"with exit code {child.exitcode})") from None
    if isinstance(got, str):
        raise Failure(f"timing the {kind} of {a} vs {b} failed: {got}")
    return float(got)


def _shown(seconds: float | None, limit: float) -> str:
    if seconds is None:
        return f"> {limit:.0f} s (cut off)"
    if seconds == REFUSED:
        return "refused"
    return f"{seconds * 1000:.1f} ms"


def _verdict(met: bool) -> str:
    return "MET" if met else "NOT MET"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--terrain", default="Plains",
                        help="the terrain of the duels (default %(default)s)")
    parser.add_argument("--limit", type=positive_float, default=60.0,
                        help="seconds one computation of a pair may take (default %(default)s)")
    parser.add_argument("--no-fractions", dest="fractions", action="store_false",
                        help="time the decimals only")
    args = parse(parser, argv)
    if isinstance(args, int):  # --help, or a usage error argparse has explained
        return args
    from meks.game.catalog import load_catalog
    from meks.game.errors import UnknownName

    cat = load_catalog()
    try:
        args.terrain = cat.terrain_named(args.terrain).name
    except UnknownName:
        return usage_error(parser, f"argument --terrain: no terrain is called {args.terrain!r} "
                           f"(the catalog has {', '.join(t.name for t in cat.terrain)})")
    try:
        run(args, cat)
    except Exception as exc:
        return failed("The duel benchmark", exc)
    return 0


def run(args: argparse.Namespace, cat: Any) -> None:
    """Time every pair and print the figures as they come."""
    names = [d.name for d in cat.designs]
    small = {d.name for d in cat.designs if d.size.value in SMALL_SIZES}
    pairs = list(itertools.combinations_with_replacement(names, 2))
    floats: dict[tuple[str, str], float | None] = {}
    fractions: dict[tuple[str, str], float | None] = {}
    print(f"Exact duel times on {args.terrain}, median of {REPEATS} (goals: every pair under "
          f"{GOAL_S:g} s, Light and Medium pairs under {SMALL_GOAL_MS:g} ms)")
    print(f"  {'pair':<24} {'decimals':>22}" + (f" {'fractions':>22}" if args.fractions else ""))
    for a, b in pairs:
        floats[(a, b)] = _timed(a, b, args.terrain, False, args.limit)
        line = f"  {a + ' vs ' + b:<24} {_shown(floats[(a, b)], args.limit):>22}"
        if args.fractions:
            fractions[(a, b)] = _timed(a, b, args.terrain, True, args.limit)
            line += f" {_shown(fractions[(a, b)], args.limit):>22}"
        print(line, flush=True)

    def label(pair: tuple[str, str]) -> str:
        return f"{pair[0]} vs {pair[1]}"

    def in_time(seconds: float | None, goal: float) -> bool:
        return seconds is not None and seconds != REFUSED and seconds < goal

    slow = [p for p in pairs if not in_time(floats[p], GOAL_S)]
    finished = [p for p in pairs if floats[p] is not None]
    worst = max(finished, key=lambda p: floats[p] or 0.0) if finished else None
    print()
    print(f"Every pair under {GOAL_S:g} s: {len(pairs) - len(slow)} of {len(pairs)} -- "
          f"{_verdict(not slow)}")
    if worst is not None:
        print(f"  slowest: {label(worst)} in {_shown(floats[worst], args.limit)}")
    if slow:
        print(f"  over: {', '.join(f'{label(p)} ({_shown(floats[p], args.limit)})' for p in slow)}")
    small_pairs = [p for p in pairs if p[0] in small and p[1] in small]
    small_slow = [p for p in small_pairs if not in_time(floats[p], SMALL_GOAL_MS / 1000)]
    print(f"Light and Medium pairs under {SMALL_GOAL_MS:g} ms: "
          f"{len(small_pairs) - len(small_slow)} of {len(small_pairs)} -- "
          f"{_verdict(not small_slow)}")
    if small_slow:
        print(f"  over: "
              f"{', '.join(f'{label(p)} ({_shown(floats[p], args.limit)})' for p in small_slow)}")
    if not args.fractions:
        return
    due = [p for p in pairs if in_time(floats[p], GOAL_S)]
    fast = [p for p in due if in_time(fractions[p], GOAL_S)]
    refused = [p for p in pairs if fractions[p] == REFUSED]
    late = [p for p in pairs if fractions[p] != REFUSED and not in_time(fractions[p], GOAL_S)]
    print(f"--fractions under {GOAL_S:g} s for the pairs whose decimals are: {len(fast)} of "
          f"{len(due)} -- {_verdict(len(fast) == len(due))}")
    print(f"  offered for {len(pairs) - len(refused)} pairs, refused for {len(refused)}")
    if late:
        print(f"  offered but over {GOAL_S:g} s: "
              f"{', '.join(f'{label(p)} ({_shown(fractions[p], args.limit)})' for p in late)}")
    missing = [p for p in due if p not in fast and p not in late]
    if missing:
        print(f"  refused although the decimals finish in time: "
              f"{', '.join(label(p) for p in missing)}")


if __name__ == "__main__":
    sys.exit(main())
