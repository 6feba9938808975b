"""The benchmarks fail loudly (issue 29): a goal they do not meet is a figure and exits 0, but
a bad argument exits 2, and a run that cannot finish, a worker that fails or a file that
cannot be read or written exits 1, with one sentence on stderr and no figures. And the odds
curves ``benchmarks/fit_odds.py`` writes record the command line that wrote them, which
writes the same file again.

Each family of scripts is run in this process with its work replaced by a failure (so no
battle is fought), or on an argument it must refuse; the fits run on a tiny draw."""

from __future__ import annotations

import importlib
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

SHIPPED = REPO / "meks" / "analysis" / "data" / "odds_model.yaml"
TINY = ["--pairs", "3", "--battles", "1", "--check-pairs", "2", "--jobs", "1"]


def bench(name: str) -> ModuleType:
    return importlib.import_module(f"benchmarks.{name}")


def boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("the engine broke")


def one_sentence(err: str, *words: str) -> None:
    """stderr holds one line, a sentence naming what failed."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].endswith("."), err
    for word in words:
        assert word in lines[0], err
    assert "Traceback" not in err


# ---- every family: a bad argument exits 2 ------------------------------------------------------

@pytest.mark.parametrize(("name", "argv"), [
    ("startup", ["--rounds", "0"]),
    ("battles", ["--battles", "0"]),
    ("battles", ["--cpu", "100000"]),
    ("duel", ["--terrain", "Moon"]),
    ("duel", ["--limit", "0"]),
    ("bot_vs_baseline", ["--jobs", "0"]),
    ("bot_vs_baseline", ["--battles", "-4"]),
    ("seats", ["--battles", "0"]),
    ("styles", ["--jobs", "0"]),
    ("campaign_runs", ["--campaigns", "0"]),
    ("campaign_runs", ["--runs", "-1"]),
    ("campaign_runs", ["--pay", "1,2,3"]),
    ("fit_odds", ["--pairs", "0"]),
    ("fit_odds", ["--check-pairs", "0"]),
    ("fit_odds", ["--output", "elsewhere.yaml"]),  # --output without --write
])
def test_a_bad_argument_exits_2_and_says_which(
        name: str, argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench(name)
    for work in ("run", "measure", "make_setup"):  # nothing is fought or timed
        if hasattr(module, work):
            monkeypatch.setattr(module, work, boom)
    assert module.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"error: argument {argv[0]}" in err


# ---- every family: a run that cannot finish exits 1 ---------------------------------------------

@pytest.mark.parametrize(("name", "work", "argv"), [
    ("startup", "measure", []),
    ("battles", "make_setup", []),
    ("duel", "run", []),
    ("bot_vs_baseline", "run", ["--jobs", "1"]),
    ("seats", "measure", ["--jobs", "1"]),
    ("styles", "run", ["--jobs", "1"]),
    ("campaign_runs", "run", ["--jobs", "1"]),
    ("fit_odds", "run", ["--jobs", "1"]),
])
def test_a_run_that_fails_exits_1_with_one_sentence_and_no_figures(
        name: str, work: str, argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench(name)
    monkeypatch.setattr(module, work, boom)
    monkeypatch.delenv("MEKS_DEBUG", raising=False)
    if name == "battles":  # the benchmark pins itself to one CPU: not this test's process
        monkeypatch.setattr(module, "pin_to_one_cpu", lambda cpu: ("not pinned", None))
    assert module.main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    one_sentence(err, "could not run", "RuntimeError: the engine broke", "MEKS_DEBUG=1")


def test_with_meks_debug_the_traceback_comes_too(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench("seats")
    monkeypatch.setattr(module, "measure", boom)
    monkeypatch.setenv("MEKS_DEBUG", "1")
    assert module.main(["--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and err.strip().splitlines()[-1] == (
        "The seats benchmark could not run: RuntimeError: the engine broke.")


def test_a_startup_variant_that_fails_prints_the_figures_and_exits_1(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant that exits non-zero has no time: the figures are printed, then the failure
    said on stderr."""
    module = bench("startup")

    def measured(rounds: int, pyc_cache: bool) -> list[Any]:
        found = module.variants()
        for v in found:
            v.samples = [0.1, 0.1]
        found[1].samples, found[1].failures = [], [1, 1]
        return found

    monkeypatch.setattr(module, "measure", measured)
    assert module.main(["--rounds", "2"]) == 1
    out, err = capsys.readouterr()
    assert "meks --help" in out and "failed" in out
    one_sentence(err, "could not time every variant", "meks --help failed 2 of its runs")


def test_a_duel_whose_computation_fails_in_its_process_stops_the_benchmark() -> None:
    """The pair is timed in a process of its own; an error there (here an unknown Mek) is
    not a refusal of the product, nor a time: it is a failure."""
    from benchmarks._run import Failure

    module = bench("duel")
    with pytest.raises(Failure, match="WASP vs NO-SUCH-MEK failed: UnknownName"):
        module._timed("WASP", "NO-SUCH-MEK", "Plains", False, 30.0)


def test_campaign_runs_refuses_a_record_file_it_cannot_write_before_playing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench("campaign_runs")
    monkeypatch.setattr(module, "run", boom)  # would say "the engine broke"
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert module.main(["--jobs", "1", "--record", str(blocker / "forces.json")]) == 1
    one_sentence(capsys.readouterr().err, "campaigns could not run", "cannot make the folder")
    bad = tmp_path / "forces.json"
    bad.write_text("{not json")
    assert module.main(["--jobs", "1", "--record", str(bad)]) == 1
    one_sentence(capsys.readouterr().err, "cannot read the recorded forces", str(bad))
    assert bad.read_text() == "{not json"


# ---- writing a file: whole or not at all -------------------------------------------------------

def test_a_write_that_fails_leaves_the_old_file_and_no_stray_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks._run import Failure, write_whole

    target = tmp_path / "curves.yaml"
    target.write_text("old\n")
    write_whole(target, "new\n")
    assert target.read_text() == "new\n"

    def refuse(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(Failure, match=r"cannot write .*curves\.yaml: No space left on device"):
        write_whole(target, "newer\n")
    assert target.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["curves.yaml"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_fit_odds_refuses_an_output_it_cannot_write_before_fighting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench("fit_odds")
    monkeypatch.setattr(module, "run", boom)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert module.main([*TINY, "--write", "--output", str(locked / "c.yaml")]) == 1
    finally:
        locked.chmod(0o700)
    one_sentence(capsys.readouterr().err, "fit_odds could not run", "permission denied")


def test_fit_odds_refuses_an_output_in_no_folder_or_not_a_curves_file_before_fighting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench("fit_odds")
    monkeypatch.setattr(module, "run", boom)
    assert module.main([*TINY, "--write", "--output", str(tmp_path / "no" / "c.yaml")]) == 1
    one_sentence(capsys.readouterr().err, "does not exist")
    assert module.main([*TINY, "--write", "--output", str(tmp_path)]) == 1
    one_sentence(capsys.readouterr().err, "is a folder")
    other = tmp_path / "other.yaml"
    other.write_text("just: words\n")
    assert module.main([*TINY, "--write", "--output", str(other)]) == 1
    one_sentence(capsys.readouterr().err, "is not an odds curves file")
    assert other.read_text() == "just: words\n"


def test_fit_odds_that_fails_while_fighting_leaves_the_file_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench("fit_odds")
    target = tmp_path / "curves.yaml"
    target.write_text(SHIPPED.read_text("utf-8"))
    monkeypatch.setattr(module, "fight_all", boom)
    assert module.main([*TINY, "--scenario", "head-to-head", "--write",
                        "--output", str(target)]) == 1
    one_sentence(capsys.readouterr().err, "fit_odds could not run", "the engine broke")
    assert target.read_text("utf-8") == SHIPPED.read_text("utf-8")


# ---- fit_odds records the command that writes its file again ----------------------------------

def fit(module: ModuleType, target: Path, *scenarios: str) -> str:
    argv = [*TINY, *(w for s in scenarios for w in ("--scenario", s)), "--write",
            "--output", str(target)]
    assert module.main(argv) == 0
    return target.read_text("utf-8")


def recorded(text: str) -> str:
    from meks.game.yamlio import parse_yaml

    raw = parse_yaml(text, "curves")
    assert isinstance(raw, dict)
    return str(raw["command"])


def run_recorded(command: str) -> subprocess.CompletedProcess[str]:
    words = shlex.split(command)
    assert words[:2] == ["python", "benchmarks/fit_odds.py"]
    return subprocess.run([sys.executable, *words[1:]], cwd=REPO, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


def test_fit_odds_records_its_command_and_that_command_writes_the_same_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny fit of one scenario, twice: the same file; its command spells out every
    argument, defaults included; run again from the repository's root, it writes the same
    file, curves, battles and check figures to the last digit."""
    from meks.analysis.estimate import read_models

    module = bench("fit_odds")
    target = tmp_path / "curves.yaml"
    first = fit(module, target, "head-to-head")
    target.unlink()
    assert fit(module, target, "head-to-head") == first
    capsys.readouterr()

    command = recorded(first)
    assert command == shlex.join([
        "python", "benchmarks/fit_odds.py", "--pairs", "3", "--battles", "1",
        "--check-pairs", "2", "--jobs", "1", "--scenario", "head-to-head", "--write",
        "--output", str(target)])
    target.unlink()
    done = run_recorded(command)
    assert done.returncode == 0, done.stderr
    assert target.read_text("utf-8") == first

    [model] = read_models(first).values()
    assert model.battles == 3 and model.command == command
    assert model.checks is not None
    attacker, defender = model.checks
    assert attacker.battles == defender.battles == 2
    assert 0 <= attacker.share <= 1 and 0 <= defender.brier <= 1


def test_a_recorded_default_is_the_default_the_script_has(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no arguments but --write, the command recorded names every default: the match-ups
    and battles the file's battle counts come from, the jobs, all eleven scenarios."""
    module = bench("fit_odds")
    seen: list[str] = []
    monkeypatch.setattr(module, "writable", lambda path: None)
    monkeypatch.setattr(module, "read_model", lambda path: {})

    def stop(*args: Any) -> Any:
        raise RuntimeError("stopped")

    def keep(args: Any, scenarios: list[str]) -> str:
        seen.append(original(args, scenarios))
        return seen[-1]

    original: Callable[[Any, list[str]], str] = module.recorded_command
    monkeypatch.setattr(module, "recorded_command", keep)
    monkeypatch.setattr(module, "run", stop)
    assert module.main(["--write"]) == 1
    words = shlex.split(seen[0])
    assert words[words.index("--pairs") + 1] == "200"
    assert words[words.index("--battles") + 1] == "4"
    assert words[words.index("--check-pairs") + 1] == "60"
    assert words[words.index("--jobs") + 1] == str(module.available_cpus())
    assert words.count("--scenario") == 11
    assert words[-3:] == ["--write", "--output", "meks/analysis/data/odds_model.yaml"]


def test_a_partial_fit_keeps_each_scenarios_own_command_and_writes_the_same_file_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A second command fitting another scenario into the file keeps the first scenario,
    with the command that fitted it in its own entry; running the file's command again gives
    the same file."""
    from meks.analysis.estimate import read_models

    module = bench("fit_odds")
    target = tmp_path / "curves.yaml"
    first = recorded(fit(module, target, "head-to-head"))
    both = fit(module, target, "opening-shots")
    second = recorded(both)
    assert second != first
    models = read_models(both)
    assert models["head-to-head"].command == first
    assert models["opening-shots"].command == second
    assert module.main([*TINY, "--scenario", "opening-shots", "--write",
                        "--output", str(target)]) == 0
    assert target.read_text("utf-8") == both


def test_the_shipped_curves_record_their_command_and_a_fit_into_them_changes_only_its_scenario(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped file records, for every scenario, the command that fitted it and its
    checks; fitting one scenario into a copy rewrites that scenario alone (the others come
    back as they were, to the character)."""
    from meks.analysis.estimate import read_models

    shipped = SHIPPED.read_text("utf-8")
    before = read_models(shipped)
    assert all(m.command and "fit_odds.py" in m.command and m.checks
               for m in before.values())
    module = bench("fit_odds")
    copy = tmp_path / "odds_model.yaml"
    copy.write_text(shipped, "utf-8")
    after = read_models(fit(module, copy, "head-to-head"))
    assert set(after) == set(before)
    for sid, model in after.items():
        if sid != "head-to-head":
            assert model == before[sid]
    assert after["head-to-head"].battles == 3 and after["head-to-head"].checks is not None
    body = copy.read_text("utf-8")
    for sid in before:
        if sid != "head-to-head":
            assert entry_lines(body, sid) == entry_lines(shipped, sid)


def entry_lines(text: str, sid: str) -> list[str]:
    """A scenario's entry in a curves file, its lines as written."""
    lines = text.splitlines()
    start = lines.index(f"  {sid}:") + 1
    end = start
    while end < len(lines) and lines[end].startswith("    "):
        end += 1
    assert end > start
    return lines[start:end]
