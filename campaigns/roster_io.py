"""Rosters in and out of the database: ``meks roster export``, ``import`` and ``schema``.

JSON and YAML carry the company document (``campaigns.files.roster``) as is and can be imported
again; CSV (one row per Mek, for spreadsheets), Markdown and HTML (a printable roster sheet)
are for reading and printing only.

An imported document is checked against the shipped JSON Schema (``roster_schema.json``) by
the small validator below, which understands exactly the keywords that schema uses, so the
schema stays the one description of the format without a run-time dependency. Every
problem is reported with its place in the document, and nothing is stored unless the whole
document is sound.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError
from sqlmodel import Session

from campaigns.company import (
    Refused,
    changing,
    clean_name,
    found_company,
    get_company,
    shell_arg,
)
from campaigns.files import roster
from campaigns.files.reading import ROSTER, parse_json_or_yaml, read_text
from campaigns.files.scenario_model import HouseRules, parse_scenario
from campaigns.files.scenarios import discover
from campaigns.parts import heat_loss
from campaigns.reports import sheet
from db.models import Company, fold
from meks.game.catalog import Catalog, Design, Size, load_catalog
from meks.game.construction import check_design
from meks.game.errors import InputError, MeksError, problem, within
from meks.game.names import normalize
from meks.game.pilots import FAMILIARITY, base_skill

FORMATS = ("json", "yaml", "csv", "md", "html")
IMPORTABLE = ("json", "yaml")
SUFFIXES = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".csv": "csv", ".md": "md",
            ".markdown": "md", ".html": "html", ".htm": "html"}
SCHEMA_FILE = "roster_schema.json"

CSV_COLUMNS = ("callsign", "design", "size", "price", "kills", "status", "pilot",
               "pilot_level", "pilot_kills", "pilot_scenarios", "pilot_skills")

NOT_A_ROSTER = ("this is not a roster document. 'meks roster import' reads the JSON or YAML "
                "that 'meks roster export COMPANY --format json' (or yaml) writes; CSV, "
                "Markdown and HTML exports are for reading and printing and cannot be "
                "imported")


# ---- the schema -----------------------------------------------------------------------------

def schema_text() -> str:
    """The shipped JSON Schema of a roster document, as the file holds it."""
    return resources.files("campaigns").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


@cache
def load_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_text())
    return schema


# ---- export ---------------------------------------------------------------------------------

def export_roster(session: Session, company_name: str, fmt: str,
                  paper: str | None = None) -> str:
    """The roster of ``company_name`` in ``fmt`` (one of ``FORMATS``), ending in a newline.
    ``paper`` (a4 or letter) sets the page size of the HTML sheet."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown roster format {fmt!r}; use one of {', '.join(FORMATS)}")
    doc = roster.snapshot(session, get_company(session, company_name))
    if fmt == "html":
        return to_html(doc, paper)
    render: dict[str, Callable[[roster.Document], str]] = {
        "json": to_json, "yaml": to_yaml, "csv": to_csv, "md": to_markdown,
    }
    return render[fmt](doc)


def muster_sheet(session: Session, company_name: str, fmt: str,
                 paper: str | None = None) -> str:
    """The play sheet of the muster waiting for its battle, in ``fmt`` (md or html).
    Refused when the company has no muster waiting."""
    company = get_company(session, company_name)
    found = sheet.muster_sheet(roster.snapshot(session, company), load_catalog())
    if found is None:
        raise Refused(f"{company.name} has no muster waiting for its battle; muster a force "
                      f"with 'meks muster {shell_arg(company.name)} MEK ...' first.")
    return sheet.to_html(found, paper) if fmt == "html" else sheet.to_markdown(found)


def to_json(doc: roster.Document) -> str:
    return json.dumps(doc, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def to_yaml(doc: roster.Document) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def _living(pilots: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p for p in pilots if p["status"] != "dead"]


def _meks_in_order(doc: roster.Document) -> list[dict[str, Any]]:
    """Active Meks first, then former ones (destroyed, sold), each in the order bought."""
    return sorted(doc["meks"], key=lambda m: m["status"] != "active")


def _pilot_of(doc: roster.Document) -> dict[int, dict[str, Any]]:
    return {p["mek"]: p for p in _living(doc["pilots"]) if p["mek"] is not None}


def _spreadsheet_safe(value: object) -> object:
    """Text a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``...) gets a
    leading apostrophe, which spreadsheets show as plain text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def to_csv(doc: roster.Document) -> str:
    """One row per Mek with its pilot, under a header row."""
    pilot_of = _pilot_of(doc)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for m in _meks_in_order(doc):
        p = pilot_of.get(m["id"])
        row = [m["callsign"], m["design"], m["size"], m["price"], m["kills"], m["status"]]
        row += ([p["name"], p["level"], p["kills"], p["scenarios"], "; ".join(p["skills"])]
                if p else ["", "", "", "", ""])
        writer.writerow([_spreadsheet_safe(v) for v in row])
    return out.getvalue()


def _ledger(doc: roster.Document) -> tuple[sheet.Table, ...]:
    """The roster's record under the Mek cards: every pilot and the former Meks."""
    callsign = {m["id"]: m["callsign"] for m in doc["meks"]}
    ordered = _living(doc["pilots"]) + [p for p in doc["pilots"] if p["status"] == "dead"]
    pilots = sheet.Table(
        "Pilots", ("Name", "Level", "Kills", "Scenarios", "Skills", "Mek", "Status"),
        [(p["name"], p["level"], str(p["kills"]), str(p["scenarios"]),
          ", ".join(p["skills"]) or "-",
          callsign.get(p["mek"], "-") if p["mek"] is not None else "-", p["status"])
         for p in ordered],
        frozenset({"Kills", "Scenarios"}), "No pilots.")
    active = [m for m in doc["meks"] if m["status"] == "active"]
    stable = sheet.Table(
        "Stable", ("Callsign", "Design", "Price", "Owed", "Battles since overhaul",
                   "Heat lost", "Lost parts"),
        [(m["callsign"], m["design"], str(m["price"]), str(m.get("owed", 0) or "-"),
          str(m.get("wear", 0) or "-"),
          str(heat_loss(m.get("wear", 0), Size(m["size"])) or "-"),
          ", ".join(p["part"] for p in m.get("lost", [])) or "-") for m in active],
        frozenset({"Price", "Owed", "Battles since overhaul", "Heat lost"}), "No Meks.",
        fill="Lost parts")
    gone = sheet.Table(
        "Former Meks", ("Callsign", "Design", "Size", "Price", "Kills", "Status"),
        [(m["callsign"], m["design"], m["size"], str(m["price"]), str(m["kills"]),
          m["status"]) for m in doc["meks"] if m["status"] != "active"],
        frozenset({"Price", "Kills"}), "None.")
    if not doc.get("stockpile"):
        return (stable, pilots, gone)
    stock = sheet.Table(
        "Stockpile", ("Part", "Kind", "Count"),
        [(p["part"], p["kind"], str(p["count"])) for p in doc["stockpile"]],
        frozenset({"Count"}), "None.")
    return (stable, pilots, gone, stock)


def play_sheet(doc: roster.Document) -> sheet.PlaySheet:
    """The company's printable roster: a play card per active Mek (``campaigns.reports.sheet``)
    followed by its record."""
    return sheet.roster_sheet(doc, load_catalog(), _ledger(doc))


def to_markdown(doc: roster.Document) -> str:
    """A printable roster and play sheet in Markdown."""
    return sheet.to_markdown(play_sheet(doc))


def to_html(doc: roster.Document, paper: str | None = None) -> str:
    """A self-contained printable roster and play sheet; every value is HTML-escaped."""
    return sheet.to_html(play_sheet(doc), paper)


# ---- import ---------------------------------------------------------------------------------

def read_roster_file(path: Path) -> str:
    """The text of a roster file; ``InputError`` (exit 2) if it cannot be read (see
    ``campaigns.files.reading``)."""
    return read_text(path, ROSTER)


def parse_roster(text: str, source: str) -> roster.Document:
    """The roster document in ``text`` (JSON or YAML), checked against the schema and for
    references that lead nowhere. ``InputError`` names every problem found."""
    suffix = Path(source).suffix.lower()
    if SUFFIXES.get(suffix) in ("csv", "md", "html") \
            or text.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
        raise InputError(source, [NOT_A_ROSTER])
    data = parse_json_or_yaml(text, source, ROSTER)
    if data is None:
        raise InputError(source, ["the file is empty"])
    if not isinstance(data, dict) or data.get("schema") != roster.SCHEMA_NAME:
        raise InputError(source, [NOT_A_ROSTER])
    version = data.get("version")
    if not _same(version, roster.SCHEMA_VERSION):
        raise InputError(source, [
            f"roster version {version!r} cannot be read; this meks reads version "
            f"{roster.SCHEMA_VERSION}"])
    walk = SchemaWalk()
    problems = schema_problems(data, load_schema(), walk=walk)
    if problems:
        raise InputError(source, problems[:MOST_PROBLEMS], after=walk.stopped(len(problems)))
    problems = _clean_names(data)
    try:
        roster.check_references(data, source)
    except InputError as exc:
        problems = list(exc.problems)
    problems += game_problems(data, load_catalog())
    if problems:
        raise InputError(source, problems)
    return data


def _clean_names(doc: roster.Document) -> list[str]:
    """Callsigns and pilot names as the commands that make them would store them (see
    ``clean_name``), changed in place; the problems with those it refuses."""
    problems = []
    for part, key, what in (("meks", "callsign", "callsign"), ("pilots", "name", "pilot name")):
        for i, item in enumerate(doc[part]):
            try:
                item[key] = clean_name(item[key], what)
            except MeksError as exc:
                problems.append(f"{part}[{i}].{key}: {_sentence(exc.message)}")
    return problems


def game_problems(doc: roster.Document, catalog: Catalog) -> list[str]:
    """What the schema cannot see but later commands need: designs, skills and scenarios
    that exist, custom designs that pass the construction rules (as ``meks design check``
    checks them), Meks of their design's size, one pilot per Mek, campaigns that can go
    on, and a valid scenario kept by the muster waiting for its battle."""
    problems: list[str] = []
    callsign = {m["id"]: m["callsign"] for m in doc["meks"]}
    for i, m in enumerate(doc["meks"]):
        where = f"meks[{i}] ({m['callsign']})"
        custom = m.get("custom_design")
        if custom is None:
            try:
                size = catalog.design(m["design"]).size.value
            except MeksError as exc:
                problems.append(f"{where}: {_sentence(exc.message)}")
                continue
        else:
            size = custom["size"]
            design = Design(custom["name"], Size(size), tuple(custom["weapons"]),
                            tuple(custom["systems"]))
            problems += [f"{where}: its design {design.name!r} breaks rule {p.rule.value}: "
                         f"{_sentence(p.message)}"
                         for p in check_design(design, catalog).problems]
        if m["size"] != size:
            problems.append(f"{where}: the Mek is {m['size']} but its design {m['design']!r} "
                            f"is {size}; the two must agree.")
    flown: dict[int, str] = {}
    for i, p in enumerate(doc["pilots"]):
        for j, label in enumerate(p["skills"]):
            wrong = _skill_problem(label, catalog)
            if wrong:
                problems.append(f"pilots[{i}] ({p['name']}).skills[{j}]: {wrong}")
        if p["mek"] is None:
            continue
        if p["mek"] in flown:
            problems.append(f"pilots[{i}] ({p['name']}): {flown[p['mek']]} already flies "
                            f"{callsign.get(p['mek'], p['mek'])}; a Mek has one pilot.")
        flown.setdefault(p["mek"], p["name"])
    problems += _campaign_problems(doc.get("campaigns", []))
    problems += _part_problems(doc, catalog)
    for i, m in enumerate(doc["musters"]):
        if "definition" in m and m["battle"] is None:  # the scenario its battle will follow
            try:
                parse_scenario(m["definition"], f"musters[{i}].definition")
            except InputError as exc:
                problems += [f"{exc.source}: {p}" for p in exc.problems]
    return problems


def _part_problems(doc: roster.Document, catalog: Catalog) -> list[str]:
    """Parts in the stockpile and lost by Meks (R3.6, R3.7) that the catalog holds, spelt
    and kinded as it has them, each kept once in the stockpile."""
    names = {"weapon": {w.name for w in catalog.weapons},
             "system": {s.name for s in catalog.systems}}
    problems: list[str] = []

    def check(where: str, part: dict[str, Any]) -> None:
        if part["part"] not in names[part["kind"]]:
            problems.append(f"{where}: the catalog has no {part['kind']} called "
                            f"{part['part']!r}; write it as 'meks catalog "
                            f"{part['kind']}s' spells it.")

    seen: set[tuple[str, str]] = set()
    for i, part in enumerate(doc.get("stockpile", [])):
        check(f"stockpile[{i}]", part)
        if (part["kind"], part["part"]) in seen:
            problems.append(f"stockpile[{i}]: {part['part']} is listed twice; give its "
                            "count once.")
        seen.add((part["kind"], part["part"]))
    for i, m in enumerate(doc["meks"]):
        for j, part in enumerate(m.get("lost", [])):
            check(f"meks[{i}] ({m['callsign']}).lost[{j}]", part)
    return problems


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].lower() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def _skill_problem(label: str, catalog: Catalog) -> str | None:
    """What is wrong with a held skill as written, or None. Skills are written as the
    catalog spells them; Chassis Familiarity may name its size, as in
    'Chassis Familiarity (Heavy)'."""
    if label in {s.name for s in catalog.skills}:
        return None
    if label in {f"{FAMILIARITY} ({size.value})" for size in Size}:
        return None
    try:
        skill = catalog.skill(base_skill(label))
    except MeksError as exc:
        return _sentence(exc.message)
    if skill.name == FAMILIARITY:
        sizes = ", ".join(size.value for size in Size)
        return (f"{label!r} names no size of Mek; write {FAMILIARITY!r} followed by one of "
                f"{sizes} in brackets, as in '{FAMILIARITY} (Heavy)'.")
    return f"write {label!r} as {skill.name!r}."


def _campaign_problems(campaigns: Sequence[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    installed: set[str] = set()
    for entry in discover():
        if entry.scenario is not None:
            installed |= {normalize(entry.scenario.id), normalize(entry.scenario.name)}
    for i, c in enumerate(campaigns):
        where = f"campaigns[{i}] ({c['name']})"
        for j, step in enumerate(c["plan"]):
            if c["status"] != "active" or j < c["position"]:
                continue  # played already: the scenario is not needed again
            try:
                HouseRules.model_validate(step.get("house_rules") or {})
            except ValidationError as exc:
                problems += [f"{where}.plan[{j}].house_rules."
                             f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                             for e in exc.errors()]
            if "definition" in step:  # the campaign carries its own copy: check it whole
                try:
                    parse_scenario(step["definition"], f"{where}.plan[{j}].definition")
                except InputError as exc:
                    problems += [f"{exc.source}: {p}" for p in exc.problems]
                continue
            if normalize(step["scenario"]) not in installed:
                problems.append(
                    f"{where}.plan[{j}]: no scenario here is called {step['scenario']!r}; "
                    "put its file in the folder 'meks scenario list' names, then import "
                    "again.")
        if c["status"] == "active" and c["position"] >= len(c["plan"]):
            problems.append(
                f"{where}.position: the campaign is under way at scenario {c['position'] + 1}"
                f" but its plan has {_n(len(c['plan']), 'scenario')}; mark it finished or "
                "lower its position.")
    active = [c["name"] for c in campaigns if c["status"] == "active"]
    if len(active) > 1:
        problems.append(f"campaigns: {len(active)} campaigns are under way ("
                        + ", ".join(repr(a) for a in active) + "); a company plays one at a "
                        "time, so mark all but one finished.")
    return problems


def import_roster(session: Session, text: str, source: str, name: str | None = None
                  ) -> dict[str, Any]:
    """Found a company from the roster in ``text``, under its own name or ``name``, with
    fresh ids. Refused (nothing stored) if a company of that name exists."""
    doc = parse_roster(text, source)
    name = clean_name(doc["company"]["name"] if name is None else name, "company name")
    company = found_company(
        session, Company(name=name, name_key=fold(name), created_at=doc["company"]["created_at"]),
        "A company called {name} already exists; import this roster under another name with "
        "--name NEW.")
    counts = {part: len(doc[part]) for part in ("meks", "pilots", "support", "musters",
                                                "battles")}
    old = doc["company"]["name"]
    for battle in doc["battles"]:  # the company's own side is named as it is called now
        battle["sides"] = {k: name if k in ("attacker", "defender") and v == old else v
                           for k, v in battle["sides"].items()}
    with changing(session, company, "roster import") as change:
        roster.write(session, company, doc, keep_ids=False)
        change.summary = (f"Imported {name} from {source}: {_n(counts['meks'], 'Mek')}, "
                          f"{_n(counts['pilots'], 'pilot')}, "
                          f"{_n(counts['battles'], 'battle')}.")
    return {"id": company.id, "name": company.name, "source": source, **counts}


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# ---- checking a document against the schema -------------------------------------------------

# The keywords the validator understands; a test keeps the shipped schema within them.
ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description"})
KEYWORDS = frozenset({"$ref", "type", "const", "enum", "anyOf", "minimum", "maximum",
                      "pattern", "format", "required", "properties", "additionalProperties",
                      "items"})

_TYPE_CHECKS: dict[str, Callable[[object], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "text",
               "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "null": "null"}


def _shown(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime | date):
        return "a date (put it in quotes to keep it as text)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:37] + "...")
    return repr(value)


MOST_PROBLEMS = 100  # a roster's problems found before its check stops


@dataclass
class SchemaWalk:
    """How far a check against the schema went: once ``MOST_PROBLEMS`` are found it stops,
    counting the entries (list items, mapping keys) it then left unchecked, so that a file
    of millions of wrong entries costs no more than its first hundred problems."""

    skipped: int = 0

    def full(self, problems: list[str]) -> bool:
        return len(problems) >= MOST_PROBLEMS

    def stopped(self, found: int) -> str:
        """The line that ends the list of problems when the check stopped early."""
        if not self.skipped and found <= MOST_PROBLEMS:
            return ""
        return (f"The check stopped after the first {MOST_PROBLEMS} problems, leaving "
                f"{self.skipped:,} more entr{'y' if self.skipped == 1 else 'ies'} of the file "
                "unchecked; fix these, then check again.")


def schema_problems(value: object, schema: dict[str, Any], path: str = "",
                    root: dict[str, Any] | None = None,
                    walk: SchemaWalk | None = None) -> list[str]:
    """Every way ``value`` breaks ``schema``, each as "PATH: what is wrong"; with ``walk``,
    only about the first ``MOST_PROBLEMS`` of them (see ``SchemaWalk``)."""
    root = schema if root is None else root
    problems: list[str] = []
    if "$ref" in schema:
        problems += schema_problems(value, _resolve(root, schema["$ref"]), path, root, walk)
        if problems:
            return problems
    if "anyOf" in schema:
        return _any_of(value, schema["anyOf"], path, root)
    if "type" in schema:
        types = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        if not any(_TYPE_CHECKS[t](value) for t in types):
            wanted = " or ".join(_TYPE_WORDS[t] for t in types)
            return [problem(f"must be {wanted}, not {_shown(value)}", path=path)]
    if "const" in schema and not _same(value, schema["const"]):
        return [problem(f"must be {schema['const']!r}, not {_shown(value)}", path=path)]
    if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
        options = ", ".join(str(v) for v in schema["enum"])
        return [problem(f"must be one of {options}, not {_shown(value)}", path=path)]
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(problem(f"must be at least {schema['minimum']}, not {value}",
                                    path=path))
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(problem(f"must be at most {schema['maximum']}, not {value}",
                                    path=path))
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            problems.append(problem("must not be empty" if schema["pattern"] == r"\S"
                                    else f"must match {schema['pattern']}", path=path))
        if schema.get("format") == "date-time" and not _is_datetime(value):
            problems.append(problem("must be a date and time like 2025-01-31T18:05:00+00:00, "
                                    f"not {_shown(value)}", path=path))
    if isinstance(value, dict):
        problems += [problem(f"{key!r} is missing", path=path)
                     for key in schema.get("required", ()) if key not in value]
        known = schema.get("properties", {})
        for n, (key, item) in enumerate(value.items()):
            if walk is not None and walk.full(problems):
                walk.skipped += len(value) - n
                break
            if key in known:
                problems += schema_problems(item, known[key], within(path, key), root, walk)
            elif schema.get("additionalProperties") is False:
                problems.append(problem(f"unknown key {key!r}", path=path))
            elif isinstance(schema.get("additionalProperties"), dict):
                problems += schema_problems(item, schema["additionalProperties"],
                                            within(path, key), root, walk)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            if walk is not None and walk.full(problems):
                walk.skipped += len(value) - i
                break
            problems += schema_problems(item, schema["items"], within(path, i), root, walk)
    return problems


def _any_of(value: object, options: list[dict[str, Any]], path: str,
            root: dict[str, Any]) -> list[str]:
    results = [schema_problems(value, option, path, root) for option in options]
    if any(not r for r in results):
        return []
    # "null or X" is the usual case: a value that is not null was meant to be an X.
    if value is not None:
        remaining = [r for o, r in zip(options, results, strict=True)
                     if o.get("type") != "null"]
        if len(remaining) == 1:
            return remaining[0]
    return [problem("does not match any allowed form (" + "; ".join(r[0] for r in results)
                    + ")", path=path)]


def _same(value: object, expected: object) -> bool:
    """Equal as JSON values are: ``true`` is not ``1``."""
    return isinstance(value, bool) == isinstance(expected, bool) and value == expected


def _resolve(root: dict[str, Any], ref: str) -> dict[str, Any]:
    if not ref.startswith("#/"):
        raise ValueError(f"only references within the schema are supported, not {ref!r}")
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return dict(node)


def _is_datetime(text: str) -> bool:
    if "T" not in text.upper():
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True
