"""Fuzzing every file the product reads: design, force, scenario, plan, roster import and
dice files. Whatever the file holds (mutated documents, texts with control characters,
YAML anchors and aliases, raw bytes), the command answers with exit 0, 1 or 2, a message for
a person on failure, never a traceback or an internal error, and nothing written when it
refuses."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

DESIGN = {"name": "Hornet", "size": "Heavy", "weapons": ["Rail Cannon", "Howitzer", "CIWS"],
          "systems": ["Jammer"]}
FORCE = {"name": "Red", "meks": [{"design": "VIPER", "pilot": "Ana"},
                                 {"design": "WASP", "level": "Green"},
                                 {"design": "WASP", "skills": ["Accuracy"]}],
         "support": ["Ambush"]}
PLAN = {"name": "War", "difficulty": "easy",
        "scenarios": [{"scenario": "opening-shots", "side": "attacker"}]}
BLUE = "meks:\n  - {design: VIPER}\n  - {design: WASP}\n  - {design: WASP}\n"

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 200),
                    st.text(max_size=12), st.text(st.characters(max_codepoint=0xA0),
                                                  max_size=6),
                    st.integers(min_value=10**99, max_value=10**120), st.sampled_from(
                        ["WASP", "Light", "Titan", "opening-shots", "attacker", "PPC",
                         "!!python/object:os.system", "Director", "Green", "6"]))
json_like = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=15)


@st.composite
def mutated(draw: st.DrawFn, doc: Any) -> Any:
    """A valid document with one part removed, replaced or added."""
    doc = copy.deepcopy(doc)
    target = doc
    while True:
        keys = list(target.keys()) if isinstance(target, dict) else list(range(len(target))) \
            if isinstance(target, list) else []
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        if isinstance(target[key], dict | list) and draw(st.booleans()):
            target = target[key]
            continue
        action = draw(st.sampled_from(["delete", "replace", "add"]))
        if action == "delete":
            del target[key]
        elif action == "replace":
            target[key] = draw(json_like)
        elif isinstance(target, dict):
            target[draw(st.text(min_size=1, max_size=8))] = draw(json_like)
        else:
            target.append(draw(json_like))
        break
    return doc


def _shared(doc: Any) -> Any:
    """The document with its parts repeated under a new key: YAML writes them once, with an
    anchor, and refers back to them with aliases."""
    return {**doc, "again": list(doc.values())} if isinstance(doc, dict) else [doc, doc]


def contents(valid: Any) -> st.SearchStrategy[str | bytes]:
    """Text for a file: a mutated valid document, one with anchors and aliases, any YAML
    data, raw characters, or raw bytes."""
    return st.one_of(
        mutated(valid).map(lambda d: yaml.safe_dump(d, sort_keys=False)),
        mutated(valid).map(lambda d: yaml.safe_dump(_shared(d), sort_keys=False)),
        json_like.map(lambda v: yaml.safe_dump(v)),
        st.text(alphabet="abc:-[]{}!&*#|>'\"\n 0123456789\x00\x1b\x85\t\r", max_size=80),
        st.binary(max_size=60),
        st.just("!!python/object/apply:os.system ['echo pwned']\n"),
    )


def check(runner: CliRunner, args: list[str], before: Any = None) -> int:
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 1, 2), (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    assert "unexpected problem" not in result.stderr, result.stderr
    for stream in (result.stdout, result.stderr):  # nothing a file holds reaches the terminal
        assert "\x00" not in stream and "\x1b" not in stream, (args, stream)
    if result.exit_code:
        assert result.stderr.strip(), "a refusal says why"
        if before is not None:
            assert state(runner) == before, "a refused command wrote something"
    return result.exit_code


def state(runner: CliRunner) -> Any:
    companies = json.loads(runner.invoke(app, ["company", "list", "--json"]).stdout)
    return [json.loads(runner.invoke(app, ["roster", "export", c["name"]]).stdout)
            for c in companies]


@pytest.fixture
def company(runner: CliRunner) -> str:
    runner.invoke(app, ["company", "create", "Fuzz"])
    return "Fuzz"


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


@given(text=contents(DESIGN))
@SETTINGS
def test_fuzz_design_files(runner: CliRunner, company: str, tmp_path: Path,
                           text: str | bytes) -> None:
    path = write(tmp_path, "design.yaml", text)
    check(runner, ["design", "check", path])
    check(runner, ["mek", "buy", company, path], state(runner))


@given(text=contents(FORCE))
@SETTINGS
def test_fuzz_force_files(runner: CliRunner, tmp_path: Path, text: str | bytes) -> None:
    path = write(tmp_path, "force.yaml", text)
    blue = write(tmp_path, "blue.yaml", BLUE)
    check(runner, ["battle", "auto", "opening-shots", "-a", path, "-d", blue, "--seed", "1",
                   "--json"])


@given(text=contents(yaml.safe_load(
    (Path(__file__).parent.parent / "campaigns/files/scenarios" / "6-citadel.yaml").read_text())))
@SETTINGS
def test_fuzz_scenario_files(runner: CliRunner, tmp_path: Path, text: str | bytes) -> None:
    path = write(tmp_path, "scenario.yaml", text)
    check(runner, ["scenario", "check", path])
    check(runner, ["scenario", "show", path])


@given(text=contents(PLAN))
@SETTINGS
def test_fuzz_plan_files(runner: CliRunner, company: str, tmp_path: Path,
                         text: str | bytes) -> None:
    path = write(tmp_path, "plan.yaml", text)
    if check(runner, ["campaign", "start", company, "--plan", path, "--seed", "1"],
             state(runner)) == 0:
        runner.invoke(app, ["campaign", "run", company])


@given(text=st.one_of(st.text(alphabet="0123456789 ,#\n-x7\x00\x1b\r", max_size=60),
                      st.lists(st.integers(-2, 9), max_size=40).map(
                          lambda v: " ".join(map(str, v)))))
@SETTINGS
def test_fuzz_dice_files(runner: CliRunner, tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "dice.txt", text)
    red = write(tmp_path, "red.yaml", yaml.safe_dump(FORCE))
    blue = write(tmp_path, "blue.yaml", BLUE)
    check(runner, ["battle", "auto", "opening-shots", "-a", red, "-d", blue, "--dice", path])


@pytest.fixture(scope="module")
def roster_doc(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = str(tmp_path_factory.mktemp("roster") / "r.db")
    runner = CliRunner()
    for args in (["company", "create", "Source"], ["mek", "buy", "Source", "WASP"],
                 ["pilot", "hire", "Source", "Ana"], ["pilot", "assign", "Source", "Ana",
                                                      "WASP-1"],
                 ["muster", "Source", "--budget", "20", "WASP-1"],
                 ["battle", "record", "Source", "--result", "win", "--auto"]):
        assert runner.invoke(app, ["--db", db, *args]).exit_code == 0
    return json.loads(runner.invoke(app, ["--db", db, "roster", "export", "Source"]).stdout)


@given(data=st.data())
@SETTINGS
def test_fuzz_roster_imports(runner: CliRunner, tmp_path: Path, roster_doc: Any,
                             data: st.DataObject) -> None:
    text = data.draw(contents(roster_doc))
    path = write(tmp_path, "roster.yaml", text)
    check(runner, ["roster", "import", path], state(runner))


@pytest.mark.parametrize(("name", "text", "command"), [
    ("deep.yaml", "id: x\nname: " + "[" * 30_000 + "]" * 30_000, ["scenario", "check"]),
    ("deep.yaml", "- " * 30_000 + "x\n", ["design", "check"]),
    ("deep.json", '{"a": ' + "[" * 30_000 + "]" * 30_000 + "}", ["roster", "import"]),
])
def test_absurdly_deep_nesting_is_refused_not_a_crash(tmp_path: Path, name: str, text: str,
                                                       command: list[str]) -> None:
    """Tens of thousands of nested lists would overflow the C YAML parser's stack (the process
    dies, no message); each reader refuses them first. A subprocess, so a crash can't take
    the test run with it."""
    import os
    import subprocess
    import sys

    path = tmp_path / name
    path.write_text(text)
    env = {**os.environ, "MEKS_DB": str(tmp_path / "x.db")}
    done = subprocess.run([sys.executable, "-m", "cli", *command, str(path)],
                          capture_output=True, text=True, env=env, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "nested more than 100 deep" in done.stderr
