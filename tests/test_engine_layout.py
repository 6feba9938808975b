"""The battle engine's layout: ``Battle`` (meks/engine/core.py) runs the turn, the battle's
state is ``Board`` (board.py), and each concern of the rules is a module of its own. These
tests keep that shape as the engine grows: every module of the engine is compiled with the
rest, kept from the controllers by the import contract, short enough to read at a sitting,
and imports the others one way only."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# A module a reader can hold in their head.
MOST_LINES = 600


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("meks")


def engine_modules(graph: grimp.ImportGraph) -> set[str]:
    """The engine: core.py, board.py and the modules between them (those core.py imports
    that import board.py); the controllers' side (views, the bot) imports none of them."""
    core, board = "meks.engine.core", "meks.engine.board"
    between = graph.find_upstream_modules(core) & graph.find_downstream_modules(board)
    return {core, board} | between


def test_the_engine_is_its_core_and_the_modules_of_its_concerns(
        graph: grimp.ImportGraph) -> None:
    assert engine_modules(graph) == {f"meks.engine.{name}" for name in (
        "core", "board", "deployment", "movement", "combat", "detection", "fire", "damage",
        "infantry", "support", "ending")}


def test_every_engine_module_is_compiled_and_kept_from_the_controllers(
        graph: grimp.ImportGraph) -> None:
    compiled = set(CONFIG["tool"]["meks"]["compiled"])
    contract = next(c for c in CONFIG["tool"]["importlinter"]["contracts"]
                    if c["name"].startswith("Controllers see a battle only through"))
    for module in sorted(engine_modules(graph)):
        assert module.replace(".", "/") + ".py" in compiled, module
        assert module in contract["forbidden_modules"], module


def test_no_engine_module_is_longer_than_a_reader_holds_in_their_head(
        graph: grimp.ImportGraph) -> None:
    for module in sorted(engine_modules(graph)):
        path = ROOT / (module.replace(".", "/") + ".py")
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= MOST_LINES, f"{path.name} has {lines} lines"


def test_the_engine_modules_import_one_another_one_way_only(graph: grimp.ImportGraph) -> None:
    for module in sorted(engine_modules(graph)):
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            assert back is None, f"{module} -> {imported} -> ... -> {module}: {back}"


def test_every_compiled_class_that_may_be_extended_says_so_on_the_class() -> None:
    """``mypyc_attr(allow_interpreted_subclasses=True)`` only works on the class it stands
    over: above a function, it leaves the class after it closed to the tests that extend it,
    which only a compiled build shows."""
    import ast

    for name in CONFIG["tool"]["meks"]["compiled"]:
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for decorator in node.decorator_list:
                    called = decorator.func if isinstance(decorator, ast.Call) else decorator
                    assert ast.unparse(called) != "mypyc_attr", f"{name}: {node.name}"
