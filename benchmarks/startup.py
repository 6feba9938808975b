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

    python benchmarks/startup.py [--rounds N] [--json] [--no-pyc-cache] [--importtime]

``--importtime`` runs every variant with ``python -X importtime`` instead of timing it, and
prints each variant's total import time (the median over the rounds) with its ratio to the
bare app's, and the modules only ``meks`` imports, heaviest first by their own import time.
Import times are steadier than wall times on a busy machine, and say where the time goes.

This is a benchmark, not a test: it exits 0 whether the goals are met or not, and 2 on a bad
argument. When a variant fails to run (it exits non-zero), it still prints the figures, with
the failure instead of a time, then says so on stderr and exits 1; when it cannot run at all,
it says why on stderr and exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks._run import failed, parse, positive_int  # noqa: E402

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


IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)\s*$")


@dataclass
class Imports:
    """What ``-X importtime`` printed for one variant over the rounds."""

    totals: list[float] = field(default_factory=list)  # ms, the top-level imports summed
    own: dict[str, list[float]] = field(default_factory=dict)  # module -> its own ms a round
    failures: list[int] = field(default_factory=list)


def parse_importtime(text: str) -> tuple[float, dict[str, float]]:
    """The total import time (ms: the cumulative times of the top-level imports summed) and
    each module's own import time (ms), from ``-X importtime`` output."""
    total = 0.0
    own: dict[str, float] = {}
    for line in text.splitlines():
        match = IMPORT_LINE.match(line)
        if match is None:
            continue
        self_us, cumulative_us, indent, name = match.groups()
        own[name] = own.get(name, 0.0) + int(self_us) / 1000
        if not indent:
            total += int(cumulative_us) / 1000
    return total, own


def measure_imports(rounds: int, pyc_cache: bool) -> dict[str, Imports]:
    if not pyc_cache:
        return _measure_imports(rounds, child_env(None))
    with tempfile.TemporaryDirectory(prefix="meks-startup-pyc-") as pycache:
        return _measure_imports(rounds, child_env(pycache))


def _measure_imports(rounds: int, env: dict[str, str]) -> dict[str, Imports]:
    todo = variants()
    found = {v.key: Imports() for v in todo}
    for variant in todo:
        variant.argv[1:1] = ["-X", "importtime"]
        run_once(variant, env)  # warm-up, as for the wall times
    for r in range(rounds):
        shift = r % len(todo)
        for variant in todo[shift:] + todo[:shift]:
            proc = subprocess.run(variant.argv, cwd=variant.cwd, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True, errors="replace",
                                  check=False)
            if proc.returncode != 0:
                found[variant.key].failures.append(proc.returncode)
                continue
            total, own = parse_importtime(proc.stderr)
            found[variant.key].totals.append(total)
            for name, ms in own.items():
                found[variant.key].own.setdefault(name, []).append(ms)
    return found


def import_results(found: dict[str, Imports], rounds: int, pyc_cache: bool,
                   top: int = 25) -> dict[str, object]:
    def median(values: list[float]) -> float | None:
        return statistics.median(values) if values else None

    base = median(found["bare_help"].totals)
    labels = {v.key: v.label for v in variants()}
    out_variants = []
    for key, imports in found.items():
        total = median(imports.totals)
        extra = sorted(
            ((name, statistics.median(ms)) for name, ms in imports.own.items()
             if name not in found["bare_help"].own),
            key=lambda item: -item[1])
        out_variants.append({
            "key": key,
            "label": labels[key],
            "import_ms": None if total is None else round(total, 1),
            "ratio": None if total is None or not base else round(total / base, 3),
            "runs": len(imports.totals),
            "failures": imports.failures,
            "beyond_bare_app_ms": round(sum(ms for _, ms in extra), 1),
            "heaviest_beyond_bare_app": [
                {"module": name, "own_ms": round(ms, 2)} for name, ms in extra[:top]],
        })
    return {"rounds": rounds, "pyc_cache": pyc_cache, "python": sys.version.split()[0],
            "platform": platform.platform(), "variants": out_variants}


def import_report(data: dict[str, object]) -> str:
    lines = [f"Import time (python -X importtime), median of {data['rounds']} rounds "
             f"(Python {data['python']}, {data['platform']})", ""]
    for v in data["variants"]:  # type: ignore[attr-defined]
        if v["import_ms"] is None:
            lines.append(f"  {v['label']:<24} {'failed':>11}")
            continue
        lines.append(f"  {v['label']:<24} {v['import_ms']:8.1f} ms  {v['ratio']:.2f}x of bare "
                     f"app  ({v['beyond_bare_app_ms']:.1f} ms in modules the bare app does "
                     "not import)")
    for v in data["variants"]:  # type: ignore[attr-defined]
        if v["key"] == "bare_help" or not v["heaviest_beyond_bare_app"]:
            continue
        lines += ["", f"  {v['label']}: heaviest modules the bare app does not import "
                  "(own time, ms)"]
        lines += [f"    {row['own_ms']:7.2f}  {row['module']}"
                  for row in v["heaviest_beyond_bare_app"]]
    return "\n".join(lines)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=positive_int, default=DEFAULT_ROUNDS,
                        help=f"measured rounds after the warm-up (default {DEFAULT_ROUNDS})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--no-pyc-cache", dest="pyc_cache", action="store_false",
                        help="keep the environment's bytecode settings instead of giving the "
                        "children a private bytecode cache")
    parser.add_argument("--importtime", action="store_true",
                        help="measure import time with python -X importtime instead of wall "
                        "time, and list the modules only meks imports")
    args = parse(parser, argv)
    if isinstance(args, int):  # --help, or a usage error argparse has explained
        return args
    try:
        if args.importtime:
            data = import_results(measure_imports(args.rounds, args.pyc_cache), args.rounds,
                                  args.pyc_cache)
        else:
            data = results(measure(args.rounds, args.pyc_cache), args.rounds, args.pyc_cache)
    except Exception as exc:
        return failed("The startup benchmark", exc)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(import_report(data) if args.importtime else report(data))
    broken = [f"{v['label']} failed {len(v['failures'])} of its runs (exit {v['failures'][0]})"
              for v in data["variants"] if v["failures"]]  # type: ignore[attr-defined]
    if broken:
        print(f"The startup benchmark could not time every variant: {'; '.join(broken)}.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
