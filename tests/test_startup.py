"""Start-up must stay light: help and the catalog commands never touch the database layer.

``meks --help`` and ``meks catalog ...`` are run often and should answer at once, so the
commands keep sqlmodel and SQLAlchemy imports inside the commands that need a database.
Each case runs in a fresh interpreter, since this test session has likely imported them
already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
MARKER = "@@startup-result@@ "
DATABASE_PACKAGES = ("sqlmodel", "sqlalchemy")

# Runs the console-script entry point in-process, exactly as `meks ARGS...` would, then
# reports the exit code and which database packages ended up in sys.modules.
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
    name for name in sys.modules if name.split(".")[0] in {DATABASE_PACKAGES!r}
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


def _run(args: list[str]) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", SNIPPET, json.dumps(args)],
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
    assert result["loaded"] == [], (
        f"meks {' '.join(args)} imported the database layer at start-up: {result['loaded']}"
    )
