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


ASKED = os.environ.get("MEKS_COMPILE", "").strip().lower() in {"1", "true", "yes", "on"}
# The setup commands that build modules; pip also runs this script only to learn the build
# requirements and the metadata, and compiling then would be wasted.
BUILDING = {"bdist_wheel", "build", "build_ext", "install"}
EDITABLE = {"editable_wheel", "develop"}


def compiling() -> bool:
    if not ASKED or not BUILDING & set(sys.argv):
        return False
    if EDITABLE & set(sys.argv):
        print("MEKS_COMPILE is ignored for an editable install; the engine stays plain Python.",
              file=sys.stderr)
        return False
    return True


def compiled_modules() -> list[Extension]:
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("MEKS_COMPILE needs mypy (its mypyc compiler) to build with; the engine stays "
              "plain Python.", file=sys.stderr)
        return []
    extensions: list[Extension] = mypycify(list(CONFIG["compiled"]), opt_level="3")
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the plain Python module
    return extensions


setup(
    ext_modules=compiled_modules() if compiling() else [],
    setup_requires=list(CONFIG["compile-requires"]) if ASKED else [],
)
