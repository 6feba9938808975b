"""A regular install (``pip install .``, a wheel) carries the whole program.

Editable installs read the source tree, so a package or data file missing from the
packaging configuration shows only in a regular install. Here setuptools lays out what an
install would hold (``build_py``), and every module and data file of the four packages must
be in it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("meks", "campaigns", "db", "cli")


def _source_files() -> set[str]:
    out = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {
                    ".pyc", ".so", ".pyd", ".c", ".h"}:
                out.add(path.relative_to(ROOT).as_posix())
    return out


def test_a_regular_install_carries_every_module_and_data_file(tmp_path: Path) -> None:
    pytest.importorskip("setuptools")
    # A clean copy: an editable install leaves an egg-info whose file list would fill gaps.
    source, lib = tmp_path / "source", tmp_path / "lib"
    for package in PACKAGES:
        shutil.copytree(ROOT / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.h"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    env = {k: v for k, v in os.environ.items() if k != "MEKS_COMPILE"}
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib",
                           str(lib)], cwd=source, env=env, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    built = {p.relative_to(lib).as_posix() for p in lib.rglob("*") if p.is_file()}
    missing = sorted(_source_files() - built)
    assert not missing, f"a regular install would lack {len(missing)} files: {missing[:10]}"
    assert "meks/engine/core.py" in built and "meks/game/data/weapons.yaml" in built


def test_the_code_imports_only_what_an_install_brings() -> None:
    """Every third-party module the product's code imports comes with a plain install: from
    a declared dependency or one of theirs (a package that happens to be in the developer's
    environment is not enough; 'import click' once broke 'battle play' that way)."""
    import ast
    import re
    import sys
    import tomllib
    from importlib import metadata

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project.get("optional-dependencies", {})
    wanted = [*project["dependencies"], *extras.get("postgres", [])]
    names = {re.split(r"[\s<>=!~\[;]", r, maxsplit=1)[0].lower().replace("_", "-")
             for r in wanted}
    brought: set[str] = set()
    while names:  # the declared distributions and, transitively, what they require
        name = names.pop()
        if name in brought:
            continue
        try:
            required = metadata.requires(name) or []
        except metadata.PackageNotFoundError:  # not for this platform (e.g. colorama)
            continue
        brought.add(name)
        for req in required:
            if "extra ==" not in req:
                names.add(re.split(r"[\s<>=!~\[;(]", req, maxsplit=1)[0].lower()
                          .replace("_", "-"))
    providers = metadata.packages_distributions()
    ours = {"cli", "campaigns", "db", "meks"}
    missing = set()
    for package in ours:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    tops = [a.name.split(".")[0] for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    tops = [node.module.split(".")[0]]
                else:
                    continue
                for top in tops:
                    if top in ours or top in sys.stdlib_module_names or top == "__future__":
                        continue
                    dists = {d.lower().replace("_", "-") for d in providers.get(top, [])}
                    if not dists & brought:
                        missing.add(f"{path.relative_to(ROOT)}: {top}")
    assert not missing, sorted(missing)
