"""The documentation holds together (issue 29, item 5): the README stays a ten-minute read
that begins with the two commands for a fresh machine (CI runs the second verbatim), every
relative link in the README and in docs/ leads to a file (and, with a #fragment, to a
heading of it), and the files and modules docs/architecture.md and docs/testing.md name
exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MAX_README_LINES = 230

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def prose(text: str) -> str:
    """The text without fenced blocks or inline code, where a bracket is not a link."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def anchors(text: str) -> set[str]:
    """The #fragments a page's headings answer to, made as GitHub makes them: lower case,
    punctuation dropped, spaces turned into hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(page: Path) -> list[str]:
    return LINK.findall(prose(page.read_text(encoding="utf-8")))


def fenced_blocks(text: str) -> list[str]:
    return [m.group(0) for m in FENCE.finditer(text)]


def test_the_readme_is_a_short_read() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < MAX_README_LINES, (
        f"README.md has {lines} lines; keep it under {MAX_README_LINES} and move detail into docs/")


def test_the_readme_begins_with_the_two_commands_and_ci_runs_the_second() -> None:
    text = README.read_text(encoding="utf-8")
    first, second = fenced_blocks(text)[:2]
    install = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/meks demo"
    assert first == f"```sh\n{install}\n```"
    command = second.removeprefix("```sh\n").removesuffix("\n```")
    assert "\n" not in command and command.startswith("python3 -m venv .venv && ")
    # Nothing but the title and one paragraph comes before them.
    assert text.index(first) < text.index("\n## ")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci, ".ci/run must run the README's test command verbatim"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        path, _, fragment = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif fragment and where.suffix == ".md" and fragment not in anchors(
                where.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading #{fragment} in {where.name}")
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def test_the_readme_links_every_page_of_docs() -> None:
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in links(README)
              if not re.match(r"^[a-z][a-z0-9+.-]*:", t)}
    pages = {p.resolve() for p in PAGES if p != README}
    missing = sorted(p.relative_to(ROOT).as_posix() for p in pages - linked)
    assert not missing, f"the README links none of {missing}"


def _repo_files() -> list[str]:
    skip = {".git", ".venv", "venv", "build", "dist", "__pycache__", ".mypy_cache",
            ".pytest_cache", ".ruff_cache", ".hypothesis"}
    out = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if not skip.intersection(parts) and not parts[0].endswith(".egg-info"):
            out.append(path.relative_to(ROOT).as_posix() + ("/" if path.is_dir() else ""))
    return out


@pytest.mark.parametrize("name", ["architecture.md", "testing.md"])
def test_the_files_and_modules_a_page_names_exist(name: str) -> None:
    """A file named in code (`meks/game/rules.py`, `rules.py`, `engine/bot/`) is a file of the
    repository, ending so; a dotted module (`meks.engine.core`) is a module or package."""
    files = _repo_files()
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    names = {n for n in re.findall(r"`([\w./-]+)`", text)}
    missing = []
    for named in sorted(names):
        if named.endswith((".py", ".md", ".json", ".yaml", "/")) and "*" not in named:
            if not any(f == named or f.endswith("/" + named) for f in files):
                missing.append(named)
        elif re.fullmatch(r"(meks|campaigns|db|cli)(\.\w+)+", named):
            stem = named.replace(".", "/")
            if not any(f in (stem + ".py", stem + "/") for f in files):
                # the last part may be a name inside a module (meks.engine.core.Battle)
                module, _, _ = stem.rpartition("/")
                if module + ".py" not in files:
                    missing.append(named)
    assert not missing, f"docs/{name} names what is not in the repository: {missing}"
