"""Build script. Everything is declared in pyproject.toml; this adds one optional step.

With ``MEKS_COMPILE=1`` in the environment, a regular (not editable) install compiles the
battle engine's modules, listed under ``[tool.meks] compiled`` in pyproject.toml, to C
extensions with mypyc, which fights battles about twice as fast. The Python sources are
installed too, and a module that fails to compile (no C compiler, say) stays plain Python.
An editable install is never compiled: a compiled module would hide later edits to its
source.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent
CONFIG = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["meks"]


def wanted() -> bool:
    if os.environ.get("MEKS_COMPILE", "").strip().lower() not in {"1", "true", "yes", "on"}:
        return False
    if "editable_wheel" in sys.argv or "develop" in sys.argv:
        print("MEKS_COMPILE is ignored for an editable install; the engine stays plain Python.",
              file=sys.stderr)
        return False
    return True


def compiled_modules() -> list[Extension]:
    try:
        from mypyc.build import mypycify
    except ImportError:  # asked for while only the build requirements are being gathered
        return []
    extensions: list[Extension] = mypycify(list(CONFIG["compiled"]), opt_level="3")
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the plain Python module
    return extensions


COMPILE = wanted()
setup(
    ext_modules=compiled_modules() if COMPILE else [],
    setup_requires=list(CONFIG["compile-requires"]) if COMPILE else [],
)
