"""Start-up must stay light: help and the catalog commands never touch the database layer,
nor pydantic (issue 19: ``meks catalog designs`` within 1.6x a bare Typer app's ``--help``,
``meks --help`` within 1.3x, as ``benchmarks/startup.py`` measures them).

``meks --help`` and ``meks catalog ...`` are run often and should answer at once, so the
commands keep sqlmodel and SQLAlchemy imports inside the commands that need a database, and
Typer's pydantic value checker is built only for a value that needs it (``cli.coercion``).
Each case runs in a fresh interpreter, since this test session has likely imported them
already.
"""

from __future__ import annotations

import functools
import inspect
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st

from cli.app import app
from cli.coercion import built_runtime_param, deferred_runtime_param, takes_plain_text

REPO_ROOT = Path(__file__).resolve().parent.parent
MARKER = "@@startup-result@@ "
DATABASE_PACKAGES = ("sqlmodel", "sqlalchemy")
PYDANTIC_PACKAGES = ("pydantic", "pydantic_core")
WATCHED = DATABASE_PACKAGES + PYDANTIC_PACKAGES

# Runs the console-script entry point in-process, exactly as `meks ARGS...` would, then
# reports the exit code and which of the watched packages ended up in sys.modules.
SNIPPET = f"""
import json, sys
args = json.loads(sys.argv[1])
sys.argv = ["meks", *args]
import cli.app
try:
    cli.app.main()
    code = 0
except SystemExit as exc:
    code = exc.code
loaded = sorted(
    name for name in sys.modules if name.split(".")[0] in {WATCHED!r}
)
sys.stdout.flush()
print({MARKER!r} + json.dumps({{"exit_code": code, "loaded": loaded}}))
"""

COMMANDS = [
    ["--help"],
    ["catalog", "designs"],
    ["catalog", "weapons", "--json"],
    ["catalog", "show", "rail"],
    ["catalog", "check"],
    ["design", "--help"],
    ["scenario", "--help"],
    ["company", "--help"],
]


def _run(args: list[str]) -> dict[str, Any]:
    return _run_once(tuple(args))


@functools.cache  # each command runs once for all the tests that ask about it
def _run_once(args: tuple[str, ...]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", SNIPPET, json.dumps(list(args))],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    results = [line for line in proc.stdout.splitlines() if line.startswith(MARKER)]
    assert results, f"no result line in output:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(results[-1][len(MARKER):])


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_startup_does_not_load_database_layer(args: list[str]) -> None:
    result = _run(args)
    assert result["exit_code"] in (0, None), f"meks {' '.join(args)} failed: {result}"
    loaded = [m for m in result["loaded"] if m.split(".")[0] in DATABASE_PACKAGES]
    assert loaded == [], f"meks {' '.join(args)} imported the database layer: {loaded}"


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_help_and_catalog_never_import_pydantic_issue19(args: list[str]) -> None:
    """Issue 19 (start-up time): importing pydantic cost more than the rest of
    ``meks catalog designs``; Typer builds its pydantic checker only for a value that needs
    it, and neither an option left out nor plain text does (``cli.coercion``)."""
    result = _run(args)
    assert result["exit_code"] in (0, None), f"meks {' '.join(args)} failed: {result}"
    loaded = [m for m in result["loaded"] if m.split(".")[0] in PYDANTIC_PACKAGES]
    assert loaded == [], f"meks {' '.join(args)} imported pydantic: {loaded[:5]}"


def _params() -> list[Any]:
    """Every parameter of every command, from a freshly built command tree."""
    out: list[Any] = []

    def walk(command: Any) -> None:
        out.extend(command.get_params(typer.Context(command)))
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(typer.main.get_command(app))
    return out


def test_every_parameter_defers_typers_checker_issue19() -> None:
    """Issue 19: every parameter of every command (help and completion options included)
    is one of ours, whose checker waits for a value that needs it."""
    params = _params()
    assert len(params) > 200
    lacking = [p.name for p in params
               if type(p).get_runtime_param is not deferred_runtime_param]
    assert lacking == []


def test_a_left_out_value_is_answered_as_typer_answers_it_issue19() -> None:
    """Issue 19: for an option or argument left out, the stand-in gives what Typer's own
    checker gives (nothing, or an empty tuple for a repeatable one), for every parameter."""
    for param in _params():
        ours = param.get_runtime_param().coerce(None, param=param, ctx=None)
        theirs = built_runtime_param(param).coerce(None, param=param, ctx=None)
        assert ours == theirs and type(ours) is type(theirs), param.name


PLAIN_TEXT = [p for p in _params() if takes_plain_text(p)]


@given(text=st.text(st.characters(exclude_categories=())), index=st.integers(min_value=0))
def test_plain_text_is_answered_as_typer_answers_it_issue19(text: str, index: int) -> None:
    """Issue 19: for a parameter typed plain ``str``, any text (control characters and the
    lone surrogates of undecodable file names included) comes back as Typer's own checker
    gives it back: unchanged."""
    param = PLAIN_TEXT[index % len(PLAIN_TEXT)]
    param._runtime_param = None
    ours = param.get_runtime_param().coerce(text, param=param, ctx=None)
    theirs = built_runtime_param(param).coerce(text, param=param, ctx=None)
    assert ours == theirs == text and type(ours) is str


def test_only_plain_text_parameters_skip_typers_checker_issue19() -> None:
    """Issue 19: numbers, paths, choices, lists and parsed values still go through Typer's
    checker (a bad number is refused in Typer's words); the shortcut is for ``str`` only."""
    assert len(PLAIN_TEXT) > 20
    for param in _params():
        if takes_plain_text(param):
            assert param.type_descriptor.annotation is str
    runs = next(p for p in _params() if p.name == "runs")
    assert not takes_plain_text(runs)
    with pytest.raises(typer.BadParameter, match="valid integer"):
        runs.get_runtime_param().coerce("many", param=runs, ctx=None)
    assert runs.get_runtime_param().coerce("12", param=runs, ctx=None) == 12
    assert runs._runtime_param is not None  # built once, then kept


def _callbacks(info: Any) -> list[Any]:
    found = [c.callback for c in info.registered_commands]
    if info.registered_callback is not None:
        found.append(info.registered_callback.callback)
    for group in info.registered_groups:
        found += _callbacks(group.typer_instance)
    return found


def test_command_annotations_are_not_strings_issue19() -> None:
    """Issue 19: Typer reads every command's annotations each time meks starts, and those
    written as strings (``from __future__ import annotations``) it evaluates twice over; in
    the command modules they are plain values, which took about half of building the
    command tree off ``meks --help``."""
    callbacks = _callbacks(app)
    assert len(callbacks) > 50
    for callback in callbacks:
        strings = {k: v for k, v in inspect.get_annotations(callback).items()
                   if isinstance(v, str)}
        assert strings == {}, f"{callback.__module__}.{callback.__qualname__}: {strings}"


def test_the_installed_typer_has_what_the_deferred_checker_needs_issue19() -> None:
    """``cli.coercion`` leans on two Typer names that are not public; with a Typer that lacks
    them the commands keep Typer's own checking (slower to start, same answers). The Typer
    this project installs has them, so the quick start is in use."""
    from cli import coercion
    from cli.help_format import MeksArgument, MeksOption

    assert coercion.SUPPORTED
    assert MeksOption.get_runtime_param is coercion.deferred_runtime_param
    assert MeksArgument.get_runtime_param is coercion.deferred_runtime_param
