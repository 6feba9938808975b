"""Scenario files: the built-in ones shipped with the game and the player's own.

Built-in scenarios are package data (``campaigns/files/scenarios/*.yaml``). A player's scenarios
are the ``*.yaml`` files in the ``scenarios`` folder of the per-user data directory, or in
the folder named by the ``MEKS_SCENARIOS_DIR`` environment variable. Wherever a scenario id
is asked for, a path to a scenario file works too.

Every problem in a file is reported with the file, the line and a plain reason; pydantic's
locations are turned into lines by walking the YAML node tree.
"""

from __future__ import annotations

import enum
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from campaigns.files.reading import (
    SCENARIO,
    LineIndex,
    compose,
    is_file,
    parse_yaml,
    problem,
    read_text,
)
from campaigns.files.scenario_model import parse_scenario
from meks.game.errors import InputError, MeksError, os_problem
from meks.game.names import normalize, suggest
from meks.game.scenario import Scenario
from meks.game.scenario_checks import Problem, ScenarioInvalid
from meks.game.vocabulary import Side

ENV_DIR = "MEKS_SCENARIOS_DIR"
SUFFIXES = (".yaml", ".yml")


class Origin(enum.Enum):
    BUILT_IN = "built-in"
    USER = "user"
    FILE = "file"


@dataclass(frozen=True)
class ScenarioEntry:
    """A scenario file found on disk: its scenario, or the error that keeps it out."""

    origin: Origin
    file: str
    scenario: Scenario | None = None
    error: InputError | None = None


class ScenarioFileError(InputError):
    """A scenario file with problems; ``lines`` holds the line of each (None if unknown)."""

    def __init__(self, source: str, problems: Sequence[str],
                 lines: Sequence[int | None], unlisted: int = 0) -> None:
        self.lines = tuple(lines)
        super().__init__(source, problems, unlisted)


def user_scenarios_dir() -> Path:
    """Where a player's own scenarios live."""
    override = os.environ.get(ENV_DIR, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs

    # Beside the database (db.engine names no app author either). On Windows an app author
    # adds a folder level; a scenarios folder made there by earlier versions is kept in use.
    here = Path(platformdirs.user_data_dir("meks", appauthor=False)) / "scenarios"
    earlier = Path(platformdirs.user_data_dir("meks")) / "scenarios"
    return earlier if earlier != here and earlier.is_dir() and not here.exists() else here


# ---- reading one file --------------------------------------------------------------------

def read_scenario_text(text: str, source: str) -> Scenario:
    """The scenario in ``text``; ``ScenarioFileError`` (exit 2) listing every problem with
    its line."""
    repeated: list[tuple[int | None, str]] = []  # said with the file's other problems
    data = parse_yaml(text, source, SCENARIO, repeated)
    if data is None:
        raise InputError(source, ["the file is empty"])
    scenario = _parse(data, text, source, repeated)
    if repeated:
        raise ScenarioFileError(source, [wrong for _, wrong in repeated],
                                [line for line, _ in repeated])
    return scenario


def read_scenario_file(path: Path) -> Scenario:
    """The scenario in the YAML file at ``path``; ``InputError`` (exit 2) if unusable."""
    return read_scenario_text(read_text(path, SCENARIO), str(path))


def _parse(data: object, text: str, source: str,
           repeated: list[tuple[int | None, str]]) -> Scenario:
    try:
        return parse_scenario(data, source)
    except ScenarioInvalid as exc:
        raise _located(exc, text, repeated) from None


def _located(exc: ScenarioInvalid, text: str,
             repeated: list[tuple[int | None, str]]) -> ScenarioFileError:
    """The problems ``exc`` found with their lines, and the keys given twice, in the order
    of their lines."""
    lines = LineIndex(compose(text))
    located = sorted([*((lines.line_of(p.path), _with_line(p, lines.line_of(p.path)))
                        for p in exc.found), *repeated], key=lambda item: item[0] or 0)
    return ScenarioFileError(exc.source, [wrong for _, wrong in located],
                             [line for line, _ in located], exc.unlisted)


def _with_line(found: Problem, line: int | None) -> str:
    return problem(found.message, line, found.where)


# ---- finding scenarios -------------------------------------------------------------------

PACKAGE = ("campaigns", "files")
"""The package the built-in scenarios lie in, as folders: a built-in scenario's file is
named by its path in the source tree, from here."""

@functools.cache
def builtin_entries() -> tuple[ScenarioEntry, ...]:
    """The scenarios shipped with the game: the six of the rules in their order, then the
    built-in campaign's copies of some of them (``campaigns/files/scenarios/campaign``)."""
    entries = []
    package = resources.files(".".join(PACKAGE))
    for where in (("scenarios",), ("scenarios", "campaign")):
        entries += _entries_in(package.joinpath(*where), "/".join(where))
    return tuple(entries)


def _entries_in(folder: Traversable, where: str) -> list[ScenarioEntry]:
    entries = []
    for item in sorted(folder.iterdir(), key=lambda i: i.name):
        if not item.name.endswith(".yaml"):
            continue
        source = "/".join((*PACKAGE, where, item.name))  # where it lies in the source tree
        try:
            scenario = read_scenario_text(item.read_text(encoding="utf-8"), source)
        except InputError as exc:
            entries.append(ScenarioEntry(Origin.BUILT_IN, source, error=exc))
        else:
            entries.append(ScenarioEntry(Origin.BUILT_IN, source, scenario))
    return entries


def builtin_file(scenario_id: str) -> Path:
    """The package file of a built-in scenario (for tests and ``scenario check``)."""
    for entry in builtin_entries():
        if entry.scenario is not None and entry.scenario.id == scenario_id:
            return Path(str(resources.files(".".join(PACKAGE)).joinpath(
                *Path(entry.file).parts[len(PACKAGE):])))
    raise MeksError(f"No built-in scenario is called {scenario_id!r}.")


def user_entries() -> list[ScenarioEntry]:
    """The player's own scenario files, each read (or with the error that keeps it out)."""
    folder = user_scenarios_dir()
    named = f" (named by {ENV_DIR})" if os.environ.get(ENV_DIR, "").strip() else ""
    try:
        if not folder.is_dir():
            if folder.exists():
                raise InputError(str(folder), [
                    f"the scenarios folder{named} is a file, not a folder; point "
                    f"{ENV_DIR} at a folder of scenario files, or unset it"
                    if named else "the scenarios folder is a file, not a folder; move the "
                    "file away so that the folder can hold your scenarios"])
            return []
        paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in SUFFIXES)
    except OSError as exc:  # a name too long to look up, say
        raise InputError(str(folder), [f"the scenarios folder{named} {os_problem(exc)}"]) \
            from None
    entries = []
    for path in paths:
        try:
            entries.append(ScenarioEntry(Origin.USER, str(path), read_scenario_file(path)))
        except InputError as exc:
            entries.append(ScenarioEntry(Origin.USER, str(path), error=exc))
    return entries


def discover() -> list[ScenarioEntry]:
    """Every scenario: built-in ones first, then the player's. A player's file whose id is
    already taken is kept out with an error saying so."""
    entries = list(builtin_entries())
    taken = {e.scenario.id: e.file for e in entries if e.scenario is not None}
    for entry in user_entries():
        if entry.scenario is not None and entry.scenario.id in taken:
            clash = InputError(entry.file, [
                f"the id {entry.scenario.id!r} is already used by {taken[entry.scenario.id]}; "
                "give this scenario another id"])
            entry = ScenarioEntry(entry.origin, entry.file, error=clash)
        elif entry.scenario is not None:
            taken[entry.scenario.id] = entry.file
        entries.append(entry)
    return entries


def looks_like_path(text: str) -> bool:
    return text.lower().endswith(SUFFIXES) or "/" in text or os.sep in text


def file_entry(path: Path) -> ScenarioEntry:
    """The scenario in a file named by its path, for a battle, a muster or a plan. A file
    whose id is a built-in scenario's is refused (``InputError``, exit 2) unless it holds
    that very scenario: what is fought under the id would be listed as the built-in."""
    text = read_text(path, SCENARIO)
    scenario = read_scenario_text(text, str(path))
    _refuse_builtin_id(path, text, scenario)
    return ScenarioEntry(Origin.FILE, str(path), scenario)


def _refuse_builtin_id(path: Path, text: str, scenario: Scenario) -> None:
    builtin = next((e for e in builtin_entries() if e.scenario is not None
                    and e.scenario.id == scenario.id), None)
    if builtin is None or builtin.scenario == scenario:
        return
    assert builtin.scenario is not None
    line = LineIndex(compose(text)).line_of(("id",))
    raise ScenarioFileError(str(path), [problem(
        f"the id {scenario.id!r} belongs to the built-in scenario {builtin.scenario.name}; "
        "give this file an id of its own", line, "id")], [line])


def find_scenario(id_or_path: str, files: bool = True) -> ScenarioEntry:
    """The scenario with this id (or name), or in this file. ``MeksError`` if none.
    ``files=False``: by id or name only, never reading a file (for a name that comes from
    stored data, or from a plan, which names its files itself)."""
    if files and looks_like_path(id_or_path):
        return file_entry(Path(id_or_path).expanduser())
    key = normalize(id_or_path)
    entries = [e for e in discover() if e.scenario is not None]
    for entry in entries:
        assert entry.scenario is not None
        if key in (normalize(entry.scenario.id), normalize(entry.scenario.name)):
            return entry
    if files and is_file(id_or_path):
        return file_entry(Path(id_or_path))
    forms = {normalize(e.scenario.id): e.scenario.id for e in entries if e.scenario}
    near = suggest(id_or_path, forms)
    text = f"No scenario is called {id_or_path!r}."
    if near:
        text += " Did you mean " + " or ".join(repr(n) for n in near) + "?"
    raise MeksError(text + " Run 'meks scenario list' to see them all"
                    + ("; a path to a scenario file works too." if files else "."))


def get_scenario(id_or_path: str) -> Scenario:
    """The scenario with this id, or in this file (for muster, support rolls, battles)."""
    entry = find_scenario(id_or_path)
    assert entry.scenario is not None
    return entry.scenario


# ---- checking ----------------------------------------------------------------------------

@dataclass(frozen=True)
class CheckSummary:
    file: str
    scenario: Scenario
    note: str = ""  # something to know that doesn't make the file invalid

    def lines(self) -> list[str]:
        s = self.scenario
        out = [f"{self.file}: {s.name} ({s.id}) is a valid scenario of {s.turn_limit} turns."]
        out += [side_summary(s, side) + "." for side in Side]
        if s.assumptions:
            out.append("Assumed (filled in where the source is silent): "
                       + ", ".join(s.assumptions) + ".")
        changed = s.house_rules.changed()
        if changed:
            out.append("House rules: " + ", ".join(changed) + ".")
        if self.note:
            out.append(self.note)
        return out


def side_summary(scenario: Scenario, side: Side) -> str:
    rules = scenario.side(side)
    rolls = f"{rules.support_rolls} support roll{'s' * (rules.support_rolls != 1)}"
    text = f"{side.value.capitalize()}: {rules.budget} points, {rolls}"
    if rules.setup is not None:
        text += f", sets up {rules.setup.describe()}"
    if rules.reinforcements is not None:
        text += f", {rules.reinforcements.describe()}"
    return text


def check_scenario_file(path_or_id: str | Path) -> CheckSummary:
    """Check one scenario file (the id of a listed scenario works too): a summary if it is
    valid, or ``InputError`` (exit 2) with every problem, each with its line."""
    text = str(path_or_id)
    path = Path(text)
    if not is_file(path) and not looks_like_path(text):
        entry = next((e for e in discover() if e.scenario is not None
                      and e.scenario.id == text), None)
        if entry is not None:
            path = builtin_file(text) if entry.origin is Origin.BUILT_IN else Path(entry.file)
    text = read_text(path, SCENARIO)
    scenario = read_scenario_text(text, str(path))
    return CheckSummary(str(path), scenario, _id_clash(path, text, scenario))


def _id_clash(path: Path, text: str, scenario: Scenario) -> str:
    """For a file in the scenarios folder whose id another scenario took first, the error
    ``scenario list`` gives it; for a file elsewhere, the error a battle would give it if
    its id is a built-in's, else a note if its id is taken."""
    try:
        here = path.resolve()
    except (OSError, RuntimeError):  # a loop of links (RuntimeError before Python 3.13)
        return ""
    others = []
    for entry in discover():
        file = builtin_file(entry.scenario.id) if entry.origin is Origin.BUILT_IN and \
            entry.scenario is not None else Path(entry.file)
        try:
            same = file.resolve() == here
        except (OSError, RuntimeError):
            same = False
        if same:
            if entry.error is not None:
                raise entry.error
            return ""
        if entry.scenario is not None and entry.scenario.id == scenario.id:
            others.append(entry.file)
    _refuse_builtin_id(path, text, scenario)
    if others:
        return (f"Note: the id {scenario.id!r} is already used by {others[0]}; in your "
                "scenarios folder this file would be left out, so give it another id "
                "before putting it there.")
    return ""
