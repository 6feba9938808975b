"""The engine compiled with mypyc (``MEKS_COMPILE=1``, see setup.py) is the same engine.

A copy of the project is built the way ``setup.py`` builds an install with ``MEKS_COMPILE=1``
(into the copy, in place); then the copy's modules must load compiled, fight exactly the
battles this interpreter fights, and pass the engine's tests. It takes a minute or two, most
of it the C compiler, so it is a slow test; it never touches the store, so the PostgreSQL
pass of CI leaves it out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.battle_digests import digests

pytestmark = [pytest.mark.slow, pytest.mark.statistics]

ROOT = Path(__file__).resolve().parent.parent
COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["meks"]["compiled"]
BATTLES_PER_SCENARIO = 40
# The engine's own tests, run again against the compiled modules.
ENGINE_TESTS = ("test_engine_combat.py", "test_engine_properties.py", "test_engine_skills.py",
                "test_engine_support.py", "test_engine_systems.py", "test_engine_turn.py",
                "test_engine_victory.py", "test_golden_example.py", "test_dice.py",
                "test_bot.py", "test_victory.py", "test_play.py")


def _env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MEKS_COMPILE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(root)
    return env


def _run(args: list[str], root: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=root, env=_env(root), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, check=False)


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine")
    pytest.importorskip("mypyc.build")
    root = tmp_path_factory.mktemp("compiled")
    ignore = shutil.ignore_patterns("__pycache__", "*.so", ".hypothesis")
    for package in ("meks", "campaigns", "db", "cli", "tests"):
        shutil.copytree(ROOT / package, root / package, ignore=ignore)
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy2(ROOT / name, root / name)
    env = _env(root) | {"MEKS_COMPILE": "1"}
    built = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                           cwd=root, env=env, capture_output=True, text=True, timeout=1800,
                           stdin=subprocess.DEVNULL, check=False)
    assert built.returncode == 0, (built.stdout + built.stderr)[-4000:]
    return root


def test_every_listed_module_loads_compiled(compiled_copy: Path) -> None:
    modules = [p.removesuffix(".py").replace("/", ".") for p in COMPILED]
    script = ("import importlib, json, sys, meks; print(json.dumps([meks.engine_build(), "
              "{m: importlib.import_module(m).__file__ for m in sys.argv[1:]}]))")
    done = _run([sys.executable, "-c", script, *modules], compiled_copy, 120)
    assert done.returncode == 0, done.stderr[-2000:]
    build, files = json.loads(done.stdout)
    assert build == "compiled"
    for module, file in files.items():
        assert Path(file).parent.is_relative_to(compiled_copy), (module, file)
        assert file.endswith(".so") or file.endswith(".pyd"), f"{module} is not compiled: {file}"


def test_compiled_engine_fights_the_same_battles(compiled_copy: Path) -> None:
    done = _run([sys.executable, "-m", "tests.battle_digests", str(BATTLES_PER_SCENARIO)],
                compiled_copy, 600)
    assert done.returncode == 0, done.stderr[-2000:]
    theirs = json.loads(done.stdout)
    ours = digests(BATTLES_PER_SCENARIO)
    assert len(ours) == 6 * BATTLES_PER_SCENARIO
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
    assert not differ, f"{len(differ)} battles differ, the first is number {differ[0]}"


def test_compiled_engine_passes_the_engine_tests(compiled_copy: Path) -> None:
    done = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                 *(f"tests/{name}" for name in ENGINE_TESTS)], compiled_copy, 1200)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
