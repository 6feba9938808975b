"""How many processes a long run (``meks odds``, the benchmarks) is spread over by default.

Kept apart from ``campaigns.odds`` so that a command can name the default in its help
without importing the database layer at start-up.
"""

import os


def available_cpus() -> int:
    """The CPUs this process may run on: its CPU affinity where the platform tells it (a
    container, a batch scheduler or ``taskset`` may allow fewer than the machine has), else
    the machine's CPU count; at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
