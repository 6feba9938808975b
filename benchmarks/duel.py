"""Exact duel speed: the time of ``meks.duel.exact_duel`` for every pair of stock Meks on
Plains (floats), and the worst. Goal: every pair under 50 ms. Always exits 0.

    python benchmarks/duel.py                 # every pair, each given at most 60 s
    python benchmarks/duel.py --limit 10      # a pair slower than 10 s is cut off
    python benchmarks/duel.py --terrain Woods

Each pair runs in a child process (so a slow pair can be cut off); the time is measured
inside the child, around the computation only, from a fresh model (no warm caches), and is
the median of three such computations.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import statistics
import time

GOAL_MS = 50.0
REPEATS = 3


def _time_pair(a: str, b: str, terrain: str, out: mp.Queue) -> None:  # type: ignore[type-arg]
    from meks.duel import exact_duel

    exact_duel("WASP", "WASP")  # warm imports and the catalog
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        exact_duel(a, b, terrain)
        times.append(time.perf_counter() - start)
    out.put(statistics.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terrain", default="Plains")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds a pair may take")
    args = parser.parse_args()
    from meks.duel import stock_designs

    names = stock_designs()
    worst: tuple[float, str] = (0.0, "")
    cut = []
    met = total = 0
    spent = 0.0
    print(f"Exact duel times on {args.terrain} (goal: under {GOAL_MS:.0f} ms a pair)")
    for a, b in itertools.combinations_with_replacement(names, 2):
        queue: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        child = mp.Process(target=_time_pair, args=(a, b, args.terrain, queue))
        child.start()
        child.join(args.limit + 5)
        label = f"{a} vs {b}"
        if child.is_alive():
            child.terminate()
            child.join()
            cut.append(label)
            print(f"  {label:<24} > {args.limit:.0f} s (cut off)", flush=True)
            continue
        seconds = queue.get() if not queue.empty() else float("nan")
        print(f"  {label:<24} {seconds * 1000:10.1f} ms", flush=True)
        total += 1
        met += seconds * 1000 < GOAL_MS
        spent += seconds
        if seconds > worst[0]:
            worst = (seconds, label)
    print(f"Under {GOAL_MS:.0f} ms: {met} of {total} pairs; all {total} together "
          f"{spent:.1f} s")
    print(f"Worst finished pair: {worst[1]} in {worst[0] * 1000:.1f} ms "
          f"({'meets' if worst[0] * 1000 < GOAL_MS and not cut else 'misses'} the goal)")
    if cut:
        print(f"Cut off after {args.limit:.0f} s: {len(cut)} pairs ({', '.join(cut)})")


if __name__ == "__main__":
    main()
