"""No import cycle in meks (issue 29, item 3).

A cycle is a ring of modules that import one another, however the imports are written: at
the top of a module, inside a function (the usual way to hide one) or under
``TYPE_CHECKING`` (the modules still cannot be read, typed or compiled one without the other).
grimp, which import-linter brings, reads every import of the four packages; the check finds

- every ring of modules (the strongly connected parts of the import graph), and
- every ring of the parts of one package (its modules and subpackages, each with everything
  under it): ``meks.engine`` and ``meks.analysis.duel`` importing each other through any of their
  modules is a cycle even when no two modules form one.

The second is what import-linter's ``acyclic_siblings`` contract checks in pyproject.toml
(run by ``lint-imports``); this test says which imports make each ring, by file and line.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Set
from pathlib import Path

import grimp
import pytest

PACKAGES = ("meks", "campaigns", "db", "cli")


def rings(edges: Mapping[str, Set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node of the graph ``edges`` (node ->
    the nodes it points to), each sorted, in sorted order (Tarjan's algorithm, without
    recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            step = next(todo, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return sorted(found)


def module_graph(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def part_graph(graph: grimp.ImportGraph, package: str) -> dict[str, set[str]]:
    """The parts of ``package`` (its children), each standing for everything under it: one
    imports another when any of its modules imports any of the other's."""
    children = sorted(graph.find_children(package))
    owner: dict[str, str] = {}
    for child in children:
        owner[child] = child
        for below in graph.find_descendants(child):
            owner[below] = child
    edges: dict[str, set[str]] = {child: set() for child in children}
    for module, part in owner.items():
        for imported in graph.find_modules_directly_imported_by(module):
            other = owner.get(imported)
            if other is not None and other != part:
                edges[part].add(other)
    return edges


def where(graph: grimp.ImportGraph, module: str) -> str:
    """A module by its file, relative to the folder of its top package."""
    name = module.replace(".", "/")
    return f"{name}/__init__.py" if graph.find_children(module) else f"{name}.py"


def imports_between(graph: grimp.ImportGraph, importer: str, imported: str) -> list[str]:
    """Where ``importer`` imports ``imported``: 'file:line: the import'."""
    details = sorted(graph.get_import_details(importer=importer, imported=imported),
                     key=lambda d: d["line_number"])
    return [f"{where(graph, importer)}:{d['line_number']}: {d['line_contents'].strip()}"
            for d in details]


def describe_module_ring(graph: grimp.ImportGraph, ring: list[str]) -> str:
    """One ring of modules: its modules by file, then each import that closes it."""
    members = set(ring)
    lines = ["  " + " <-> ".join(where(graph, m) for m in ring)]
    for importer in ring:
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
            lines += [f"    {line}" for line in imports_between(graph, importer, imported)]
    return "\n".join(lines)


def describe_part_ring(graph: grimp.ImportGraph, package: str, ring: list[str]) -> str:
    """One ring of the parts of ``package``: the parts, then the imports from one to another
    (the first few of each pair)."""
    members = set(ring)
    edges = part_graph(graph, package)
    lines = [f"  in {package}: " + " <-> ".join(ring)]
    for part in ring:
        for other in sorted(edges[part] & members):
            shown = []
            for module in sorted({part, *graph.find_descendants(part)}):
                targets = graph.find_modules_directly_imported_by(module)
                for target in sorted(t for t in targets
                                     if t == other or t.startswith(other + ".")):
                    shown += imports_between(graph, module, target)
            lines += [f"    {line}" for line in shown[:3]]
            if len(shown) > 3:
                lines.append(f"    (and {len(shown) - 3} more from {part} to {other})")
    return "\n".join(lines)


def cycles_report(packages: Iterable[str]) -> str:
    """Every import cycle among ``packages``, described by file and line; empty if none."""
    graph = grimp.build_graph(*packages, include_external_packages=False, cache_dir=None)
    module_rings = rings(module_graph(graph))
    found = [describe_module_ring(graph, ring) for ring in module_rings]
    for package in sorted(m for m in graph.modules if graph.find_children(m)):
        for ring in rings(part_graph(graph, package)):
            if ring not in module_rings:  # (a ring of modules is already listed)
                found.append(describe_part_ring(graph, package, ring))
    if not found:
        return ""
    return (f"{len(found)} import cycle(s); move what both sides need into a module both "
            "import, or pass it in, rather than hiding an import in a function:\n"
            + "\n".join(found))


def test_no_import_cycle() -> None:
    """Issue 29 item 3: no ring of modules, and no ring of the parts of any package."""
    report = cycles_report(PACKAGES)
    assert not report, report


# ---- the check finds what it should ------------------------------------------------------------

FILES = {
    # a ring through an import inside a function
    "ringpkg/__init__.py": "",
    "ringpkg/first.py": "def f():\n    from ringpkg.second import g\n    return g\n",
    "ringpkg/second.py": "from ringpkg import first\n\ndef g():\n    return first\n",
    # a ring through an import only for type checking
    "ringpkg/typed_a.py": "from ringpkg.typed_b import B\n\nclass A:\n    b: B\n",
    "ringpkg/typed_b.py": ("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                           "    from ringpkg.typed_a import A\n\nclass B:\n    a: 'A'\n"),
    # two subpackages that import each other through different modules (no module ring)
    "ringpkg/left/__init__.py": "",
    "ringpkg/left/x.py": "from ringpkg.right import y\n",
    "ringpkg/left/z.py": "",
    "ringpkg/right/__init__.py": "",
    "ringpkg/right/y.py": "",
    "ringpkg/right/w.py": "from ringpkg.left import z\n",
    # no ring: one way only
    "ringpkg/plain.py": "from ringpkg import second\n",
}


@pytest.fixture
def ring_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    return "ringpkg"


def test_the_check_names_every_kind_of_ring_by_file_and_line(ring_package: str) -> None:
    """The check fails on a ring hidden in a function, on one through a type-checking import
    and on one between two subpackages, naming the files and the lines of the imports; a
    one-way import is no ring."""
    report = cycles_report([ring_package])
    assert report.startswith("3 import cycle(s)"), report
    assert "ringpkg/first.py <-> ringpkg/second.py" in report
    assert "ringpkg/first.py:2: from ringpkg.second import g" in report
    assert "ringpkg/second.py:1: from ringpkg import first" in report
    assert "ringpkg/typed_a.py <-> ringpkg/typed_b.py" in report
    assert "ringpkg/typed_b.py:4: from ringpkg.typed_a import A" in report
    assert "in ringpkg: ringpkg.left <-> ringpkg.right" in report
    assert "ringpkg/left/x.py:1: from ringpkg.right import y" in report
    assert "ringpkg/right/w.py:1: from ringpkg.left import z" in report
    # a ring of modules is listed once, not again as a ring of the parts of ringpkg
    assert "in ringpkg: ringpkg.first" not in report
    assert "plain" not in report


def test_rings_finds_each_strongly_connected_part() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert rings(edges) == [["a", "b", "c"], ["d", "e"]]
    assert rings({"a": {"b"}, "b": set()}) == []
