"""The folders name the parts (issue 29, item 1): ``meks/`` holds the game's data and rules
(``game/``), a battle (``engine/``) and the odds without playing (``analysis/``);
``campaigns/`` holds the use-cases, with the files read and written in ``files/`` and what is
shown and printed in ``reports/``. These tests keep that shape: each module in its room, the
rooms importing one way, no module left over at the top of ``meks/``, no module that only
passes another's names on, and none longer than a reader holds at a sitting."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
# A module a newcomer can hold in their head, in every package of the project (the engine's
# own modules keep to 600 lines, tests/test_engine_layout.py); a longer one is split by
# concern into modules whose names say what they hold.
MOST_LINES = 650


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("meks", "campaigns")


def _modules(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py")
                  if "__pycache__" not in p.parts)


def test_meks_is_its_three_rooms_and_nothing_beside_them() -> None:
    top = {p.name for p in (ROOT / "meks").iterdir() if p.name != "__pycache__"}
    assert top == {"__init__.py", "game", "engine", "analysis"}


def test_the_game_imports_neither_the_engine_nor_the_analysis(graph: grimp.ImportGraph) -> None:
    for module in sorted(graph.find_descendants("meks.game")):
        for imported in graph.find_modules_directly_imported_by(module):
            assert not imported.startswith(("meks.engine", "meks.analysis")), \
                f"{module} imports {imported}"


def test_the_engine_imports_no_analysis(graph: grimp.ImportGraph) -> None:
    for module in sorted(graph.find_descendants("meks.engine")):
        for imported in graph.find_modules_directly_imported_by(module):
            assert not imported.startswith("meks.analysis"), f"{module} imports {imported}"


def test_the_files_room_imports_nothing_else_of_campaigns(graph: grimp.ImportGraph) -> None:
    """Reading and writing files needs no use-case and no report: the use-cases and the
    reports build on it, never the other way round."""
    for module in sorted(graph.find_descendants("campaigns.files")):
        for imported in graph.find_modules_directly_imported_by(module):
            assert not imported.startswith("campaigns.") or \
                imported.startswith("campaigns.files"), f"{module} imports {imported}"


def test_the_rooms_have_their_package_data() -> None:
    assert (ROOT / "meks/game/data/weapons.yaml").is_file()
    assert (ROOT / "meks/analysis/data/odds_model.yaml").is_file()
    assert (ROOT / "campaigns/files/scenarios/1-opening-shots.yaml").is_file()
    assert (ROOT / "campaigns/reports/templates/base.html.j2").is_file()


def test_no_module_only_passes_on_another_modules_names() -> None:
    """A module that only imports (a shim left behind by a move) is clutter: every module
    defines something, and a package's ``__init__`` holds at most its docstring and what
    it defines itself."""
    for path in _modules("meks", "campaigns"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        body = [n for n in tree.body if not (isinstance(n, ast.Expr)
                                              and isinstance(n.value, ast.Constant))]
        imports = [n for n in body if isinstance(n, ast.Import | ast.ImportFrom)
                   and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")]
        rest = [n for n in body if not isinstance(n, ast.Import | ast.ImportFrom)]
        name = path.relative_to(ROOT).as_posix()
        if path.name == "__init__.py":
            assert not imports or rest, f"{name} only re-exports"
        else:
            assert rest, f"{name} defines nothing"


@pytest.mark.parametrize("package", ["meks", "campaigns", "cli", "db"])
def test_no_module_is_longer_than_a_reader_holds_at_a_sitting(package: str) -> None:
    for path in _modules(package):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= MOST_LINES, f"{name} has {lines} lines"
