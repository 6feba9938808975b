"""How long ``meks`` takes to start, compared with a bare two-command Typer app.

Each variant runs in a fresh interpreter from this same environment. The variants are
interleaved within every round, so that whatever else the machine is doing weighs on all
of them alike, and the order rotates from round to round. One warm-up round comes first and
is not counted. The figure reported is the median wall time of each variant; the goals are
expressed as ratios to the bare app, which makes them hold on fast and slow machines alike.

The children get a private bytecode cache in a temporary directory (PYTHONPYCACHEPREFIX),
filled by the warm-up round, so every variant loads compiled modules as an installed copy
would, even where PYTHONDONTWRITEBYTECODE is set; ``--no-pyc-cache`` leaves the
environment's own bytecode settings alone instead.

    python benchmarks/startup.py [--rounds N] [--json] [--no-pyc-cache]

This is a benchmark, not a test: it exits 0 whether the goals are met or not, and also when
a variant fails to run (the failure is reported instead of a time).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
DEFAULT_ROUNDS = 15


@dataclass
class Variant:
    key: str
    label: str
    argv: list[str]
    cwd: Path
    samples: list[float] = field(default_factory=list)  # seconds
    failures: list[int] = field(default_factory=list)  # non-zero exit codes

    @property
    def median_ms(self) -> float | None:
        return statistics.median(self.samples) * 1000 if self.samples else None

    @property
    def min_ms(self) -> float | None:
        return min(self.samples) * 1000 if self.samples else None


@dataclass(frozen=True)
class Goal:
    key: str  # the variant measured against the bare app
    label: str
    max_ratio: float


GOALS = [
    Goal("meks_help", "meks --help", 1.3),
    Goal("meks_catalog_designs", "meks catalog designs", 1.6),
]


def variants() -> list[Variant]:
    python = sys.executable
    return [
        # Run with -m like meks, so both pay for runpy alike.
        Variant("bare_help", "bare Typer app --help", [python, "-m", "_bare_app", "--help"],
                HERE),
        Variant("meks_help", "meks --help", [python, "-m", "cli", "--help"], REPO_ROOT),
        Variant("meks_catalog_designs", "meks catalog designs",
                [python, "-m", "cli", "catalog", "designs"], REPO_ROOT),
    ]


def child_env(pycache: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    # Keep the children's output and imports the same from run to run.
    for name in ("PYTHONPROFILEIMPORTTIME", "PYTHONSTARTUP", "PYTHONBREAKPOINT"):
        env.pop(name, None)
    env["PYTHONIOENCODING"] = "utf-8"
    env["COLUMNS"] = "100"
    env["MEKS_DEBUG"] = "0"
    return env


def run_once(variant: Variant, env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run(
        variant.argv,
        cwd=variant.cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - start, proc.returncode


def measure(rounds: int, pyc_cache: bool) -> list[Variant]:
    if not pyc_cache:
        return _measure(rounds, child_env(None))
    with tempfile.TemporaryDirectory(prefix="meks-startup-pyc-") as pycache:
        return _measure(rounds, child_env(pycache))


def _measure(rounds: int, env: dict[str, str]) -> list[Variant]:
    todo = variants()
    for variant in todo:  # warm-up: fills the OS file cache and writes any missing .pyc
        run_once(variant, env)
    for r in range(rounds):
        shift = r % len(todo)
        for variant in todo[shift:] + todo[:shift]:
            elapsed, code = run_once(variant, env)
            if code == 0:
                variant.samples.append(elapsed)
            else:
                variant.failures.append(code)
    return todo


def results(measured: list[Variant], rounds: int, pyc_cache: bool) -> dict[str, object]:
    by_key = {v.key: v for v in measured}
    base = by_key["bare_help"].median_ms
    goals = []
    for goal in GOALS:
        median = by_key[goal.key].median_ms
        ratio = median / base if median is not None and base else None
        goals.append({
            "variant": goal.key,
            "label": goal.label,
            "ratio": None if ratio is None else round(ratio, 3),
            "max_ratio": goal.max_ratio,
            "met": ratio is not None and ratio <= goal.max_ratio,
        })
    return {
        "rounds": rounds,
        "pyc_cache": pyc_cache,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "variants": [
            {
                "key": v.key,
                "label": v.label,
                "command": " ".join(Path(a).name if a == sys.executable else a for a in v.argv),
                "median_ms": None if v.median_ms is None else round(v.median_ms, 1),
                "min_ms": None if v.min_ms is None else round(v.min_ms, 1),
                "runs": len(v.samples),
                "failures": v.failures,
            }
            for v in measured
        ],
        "goals": goals,
    }


def report(data: dict[str, object]) -> str:
    cache = "private bytecode cache" if data["pyc_cache"] else "environment's bytecode settings"
    lines = [f"Start-up time, median of {data['rounds']} rounds, {cache} "
             f"(Python {data['python']}, {data['platform']})", ""]
    for v in data["variants"]:  # type: ignore[attr-defined]
        median = f"{'failed':>11}" if v["median_ms"] is None else f"{v['median_ms']:8.1f} ms"
        extra = f"  min {v['min_ms']:.1f} ms" if v["min_ms"] is not None else ""
        if v["failures"]:
            extra += f"  ({len(v['failures'])} runs failed, exit {v['failures'][0]})"
        lines.append(f"  {v['label']:<24} {median}{extra}")
    lines.append("")
    for g in data["goals"]:  # type: ignore[attr-defined]
        ratio = "n/a" if g["ratio"] is None else f"{g['ratio']:.2f}x"
        verdict = "met" if g["met"] else "NOT met"
        lines.append(f"  {g['label']:<24} {ratio:>6} of bare app   "
                     f"goal <= {g['max_ratio']:.1f}x   {verdict}")
    return "\n".join(lines)


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=positive_int, default=DEFAULT_ROUNDS,
                        help=f"measured rounds after the warm-up (default {DEFAULT_ROUNDS})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--no-pyc-cache", dest="pyc_cache", action="store_false",
                        help="keep the environment's bytecode settings instead of giving the "
                        "children a private bytecode cache")
    args = parser.parse_args(argv)
    try:
        data = results(measure(args.rounds, args.pyc_cache), args.rounds, args.pyc_cache)
    except Exception as exc:  # a benchmark reports, it never fails the build
        print(f"startup benchmark could not run: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 0
    print(json.dumps(data, indent=2) if args.json else report(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
