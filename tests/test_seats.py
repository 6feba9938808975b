"""``benchmarks/seats.py``: each seat of a scenario, bot against bot (issue 25)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_seats_benchmark_runs_and_gives_each_seat() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "seats.py"), "--battles", "3",
         "--scenario", "head-to-head", "--plan", "campaign", "--jobs", "1", "--json"],
        capture_output=True, text=True, timeout=300, cwd=REPO, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    seat = report["scenarios"]["head-to-head"]
    assert abs(seat["attacker"] + seat["defender"] + seat["draw"] - 1) < 1e-3
    assert seat["turns"] >= 1 and isinstance(seat["contest"], bool)


def test_the_seats_benchmark_exits_2_on_bad_usage() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "seats.py"), "--plan", "nowhere"],
        capture_output=True, text=True, timeout=120, cwd=REPO, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "nowhere" in done.stderr
