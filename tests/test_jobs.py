"""Issue 19: ``--jobs`` defaults to the CPUs available, wherever a command or a benchmark
takes it, and its help says so. (That two processes fight at least 1.8x the battles of one
is a figure ``benchmarks/battles.py`` prints, not a test: it needs a quiet machine.)"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer

import campaigns.odds
from campaigns.processes import available_cpus
from cli.app import app
from cli.state import MAX_JOBS

ROOT = Path(__file__).resolve().parent.parent


def _expected_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def test_available_cpus_are_those_this_process_may_use_issue19() -> None:
    """The CPUs this process may run on (its affinity, which a container or taskset may
    narrow), where the platform tells it, else the machine's count."""
    assert available_cpus() == _expected_cpus() >= 1


def test_available_cpus_without_an_affinity_is_the_cpu_count_issue19(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the platform has no CPU affinity (macOS, Windows), the machine's CPU count; at
    least one when even that is unknown."""
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert available_cpus() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert available_cpus() == 1


def _jobs_options() -> dict[tuple[str, ...], Any]:
    found: dict[tuple[str, ...], Any] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        for param in command.get_params(typer.Context(command)):
            if "--jobs" in getattr(param, "opts", ()):
                found[path] = param
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


def test_every_jobs_option_defaults_to_the_cpus_available_issue19() -> None:
    """Every meks command taking --jobs defaults to the CPUs available (within the option's
    limit of 64), and its help says so."""
    options = _jobs_options()
    assert set(options) == {("odds", "battle"), ("odds", "duel"), ("odds", "ladder"),
                            ("odds", "skill")}
    for path, param in options.items():
        assert param.default == min(_expected_cpus(), MAX_JOBS), path
        assert "one for each CPU this process may use" in param.help, path


def test_jobs_help_shows_the_default_issue19(runner: Any) -> None:
    result = runner.invoke(app, ["odds", "battle", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    line = next(x for x in result.stdout.splitlines() if "--jobs" in x)
    assert "one for each CPU this process may use" in line
    assert f"[default: {min(_expected_cpus(), MAX_JOBS)}]" in line


def _benchmark(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", ROOT / "benchmarks"
                                                  / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_taking_jobs_defaults_to_the_cpus_available_issue19(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmarks that take --jobs (found by reading them, so a new one is not missed)
    default to the CPUs available and say so in their help (read without running them).
    They are loaded as if this process could use five CPUs, a count no default of theirs
    could match by chance."""
    taking = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py")
                    if '"--jobs"' in p.read_text("utf-8"))
    assert taking == ["battles", "bot_vs_baseline", "campaign_runs", "fit_odds", "seats",
                      "styles"]
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 5)
    assert available_cpus() == 5
    for name in taking:
        module = _benchmark(name, monkeypatch)
        assert module.main(["--help"]) == 0
        said = " ".join(capsys.readouterr().out.split())
        match = re.search(r"--jobs JOBS .*?default: one for each CPU this (?:process )?may "
                          r"use, (\d+) here", said)
        assert match, said
        assert int(match.group(1)) == 5, name


class _Pool:
    def __init__(self, started: list[int], processes: int) -> None:
        started.append(processes)

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, work: Any, chunks: Any) -> Any:
        return map(work, chunks)


def test_no_more_processes_start_than_there_are_chunks_issue19(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With --jobs defaulting to every CPU, a run of a single chunk (up to 50 battles) is
    fought in this process, and a run of three chunks starts three processes, not eight;
    every chunk is worked either way."""
    started: list[int] = []

    class Context:
        def Pool(self, processes: int, initializer: Any = None) -> _Pool:
            return _Pool(started, processes)

    monkeypatch.setattr(campaigns.odds.multiprocessing, "get_context", lambda _: Context())
    assert list(campaigns.odds._spread(str, [1], 8)) == ["1"]
    assert started == []
    assert sorted(campaigns.odds._spread(str, [1, 2, 3], 8)) == ["1", "2", "3"]
    assert started == [3]
    assert sorted(campaigns.odds._spread(str, [1, 2, 3], 1)) == ["1", "2", "3"]
    assert started == [3]
