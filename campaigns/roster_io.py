"""Rosters in and out of the database: ``meks roster export``, ``import`` and ``schema``.

JSON and YAML carry the company document (``campaigns.files.roster``) as is and can be imported
again; CSV (one row per Mek, for spreadsheets), Markdown and HTML (a printable roster sheet)
are for reading and printing only.

An imported document is checked by the roster's model (``campaigns.files.roster_model``),
the one description of the format, from which ``meks roster schema`` prints its JSON Schema.
Every problem is reported with its place in the document, in the words every file problem
uses (``campaigns.files.model_errors``), and nothing is stored unless the whole document is
sound.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

import yaml
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
from campaigns.files.model_errors import checked
from campaigns.files.reading import ROSTER, parse_json_or_yaml, read_text
from campaigns.files.records import CampaignRecord, LostPart, MekRecord, PilotRecord, StockRecord
from campaigns.files.roster_model import Roster
from campaigns.files.scenario_model import house_rules_problems, parse_scenario
from campaigns.files.scenarios import discover
from campaigns.files.view_records import ImportedRoster
from campaigns.parts import Part, design_parts, heat_loss
from campaigns.reports import sheet, sheet_render
from campaigns.step_battle import active_campaign, standing_battle
from db.models import Company, PilotStatus, fold
from meks.game.catalog import Catalog, Design, Size, load_catalog
from meks.game.construction import check_design
from meks.game.errors import InputError, MeksError
from meks.game.names import normalize
from meks.game.pilots import FAMILIARITY, base_skill, held_skill_problems, level_for

FORMATS = ("json", "yaml", "csv", "md", "html")
IMPORTABLE = ("json", "yaml")
SUFFIXES = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".csv": "csv", ".md": "md",
            ".markdown": "md", ".html": "html", ".htm": "html"}

CSV_COLUMNS = ("callsign", "design", "size", "price", "kills", "status", "pilot",
               "pilot_level", "pilot_kills", "pilot_scenarios", "pilot_skills")

NOT_A_ROSTER = ("this is not a roster document. 'meks roster import' reads the JSON or YAML "
                "that 'meks roster export COMPANY --format json' (or yaml) writes; CSV, "
                "Markdown and HTML exports are for reading and printing and cannot be "
                "imported")


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


def import_caveat(session: Session, company_name: str) -> str | None:
    """What a company imported from the roster written now could not do, if anything: go on
    with its campaign when the campaign is back at a step whose battle still stands (the
    step alone undone), since the imported company would hold the battle with no history
    to undo it by (``campaigns.step_battle``). None when there is nothing to say."""
    company = get_company(session, company_name)
    row = active_campaign(session, company)
    fought = None if row is None else standing_battle(session, company, row)
    if fought is None:
        return None
    return (f"{company.name}'s campaign is back at a step whose battle still stands (battle "
            f"{fought}), so a company imported from this roster could not go on with the "
            f"campaign; undo the battle too ('meks company undo {shell_arg(company.name)}') "
            "before writing a roster to import.")


def muster_sheet(session: Session, company_name: str, fmt: str,
                 paper: str | None = None) -> str:
    """The play sheet of the muster waiting for its battle, in ``fmt`` (md or html).
    Refused when the company has no muster waiting."""
    company = get_company(session, company_name)
    found = sheet.muster_sheet(roster.snapshot(session, company), load_catalog())
    if found is None:
        raise Refused(f"{company.name} has no muster waiting for its battle; muster a force "
                      f"with 'meks muster {shell_arg(company.name)} MEK ...' first.")
    if fmt == "html":
        return sheet_render.to_html(found, paper)
    return sheet_render.to_markdown(found)


def to_json(doc: roster.Document) -> str:
    return json.dumps(doc, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def to_yaml(doc: roster.Document) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def _living(pilots: Sequence[PilotRecord]) -> list[PilotRecord]:
    return [p for p in pilots if p["status"] != "dead"]


def _meks_in_order(doc: roster.Document) -> list[MekRecord]:
    """Active Meks first, then former ones (destroyed, sold), each in the order bought."""
    return sorted(doc["meks"], key=lambda m: m["status"] != "active")


def _pilot_of(doc: roster.Document) -> dict[int, PilotRecord]:
    return {mek: p for p in _living(doc["pilots"]) if (mek := p["mek"]) is not None}


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
    return sheet_render.to_markdown(play_sheet(doc))


def to_html(doc: roster.Document, paper: str | None = None) -> str:
    """A self-contained printable roster and play sheet; every value is HTML-escaped."""
    return sheet_render.to_html(play_sheet(doc), paper)


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
    checked(Roster, data, source)
    doc = cast(roster.Document, data)  # the roster's model checked its shape
    problems = _clean_names(doc)
    try:
        roster.check_references(doc, source)
    except InputError as exc:
        problems = list(exc.problems)
    problems += game_problems(doc, load_catalog())
    if problems:
        raise InputError(source, problems)
    return doc


def _clean_names(doc: roster.Document) -> list[str]:
    """Callsigns and pilot names as the commands that make them would store them (see
    ``clean_name``), changed in place; the problems with those it refuses."""
    problems = []

    def cleaned(name: str, what: str, where: str) -> str:
        try:
            return clean_name(name, what)
        except MeksError as exc:
            problems.append(f"{where}: {_sentence(exc.message)}")
            return name

    for i, m in enumerate(doc["meks"]):
        m["callsign"] = cleaned(m["callsign"], "callsign", f"meks[{i}].callsign")
    for i, p in enumerate(doc["pilots"]):
        p["name"] = cleaned(p["name"], "pilot name", f"pilots[{i}].name")
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
                design = catalog.design(m["design"])
            except MeksError as exc:
                problems.append(f"{where}: {_sentence(exc.message)}")
                continue
        else:
            design = Design(custom["name"], Size(custom["size"]), tuple(custom["weapons"]),
                            tuple(custom["systems"]))
        report = check_design(design, catalog)
        if custom is not None:
            problems += [f"{where}: its design {design.name!r} breaks rule {p.rule.value}: "
                         f"{_sentence(p.message)}" for p in report.problems]
        size = design.size.value
        if m["size"] != size:
            problems.append(f"{where}: the Mek is {m['size']} but its design {m['design']!r} "
                            f"is {size}; the two must agree.")
        if not report.problems:  # an illegal design has no price to compare
            problems += _mek_problems(where, m, design, report.price)
    flown: dict[int, str] = {}
    problems += _pilots_problems(doc, catalog)  # the model was checked before
    for i, p in enumerate(doc["pilots"]):
        if p["mek"] is None:
            continue
        if p["status"] == PilotStatus.DEAD:
            problems.append(f"pilots[{i}] ({p['name']}): a dead pilot flies no Mek; set "
                            "their mek to null.")
        if p["mek"] in flown:
            problems.append(f"pilots[{i}] ({p['name']}): {flown[p['mek']]} already flies "
                            f"{callsign.get(p['mek'], p['mek'])}; a Mek has one pilot.")
        flown.setdefault(p["mek"], p["name"])
    problems += _campaign_problems(doc.get("campaigns", []))
    problems += _part_problems(doc, catalog)
    for i, mu in enumerate(doc["musters"]):
        if "definition" in mu and mu["battle"] is None:  # the scenario its battle will follow
            try:
                parse_scenario(mu["definition"], f"musters[{i}].definition")
            except InputError as exc:
                problems += [f"{exc.source}: {p}" for p in exc.problems]
    return problems


def stored_problems(doc: roster.Document, catalog: Catalog) -> list[str]:
    """What no command leaves in a company as it is stored (``roster.snapshot``), which an
    import would refuse: the roster's model (counts not below 0, known pilot levels and
    statuses...) and each pilot's level and skills as the game gives them. ``meks db check``
    asks it of every company, and so does a restore before it keeps a backup."""
    return schema_problems(doc) or _pilots_problems(doc, catalog)


def _pilots_problems(doc: roster.Document, catalog: Catalog) -> list[str]:
    """Each pilot's skills as the catalog spells them, level and skills as the game gives
    them (``_pilot_problems``)."""
    problems = []
    for i, p in enumerate(doc["pilots"]):
        for j, label in enumerate(p["skills"]):
            wrong = _skill_problem(label, catalog)
            if wrong:
                problems.append(f"pilots[{i}] ({p['name']}).skills[{j}]: {wrong}")
        problems += _pilot_problems(f"pilots[{i}] ({p['name']})", p, catalog)
    return problems


def _mek_problems(where: str, mek: MekRecord, design: Design, computed: int) -> list[str]:
    """A Mek's price and lost parts as the commands that change a Mek leave them: its price
    the design's printed price or its price computed from the parts (house rule
    ``pricing``; a custom design has only the second, R1.7), and no part lost that the
    design does not carry (R3.7)."""
    problems = []
    prices = sorted({computed} | ({design.price} if design.price is not None else set()))
    if mek["price"] not in prices:
        problems.append(f"{where}: its price is {mek['price']}, but a Mek of its design "
                        f"{design.name!r} costs " + " or ".join(map(str, prices))
                        + "; write the price it was bought at.")
    carried = Counter(design_parts(design))
    lost = Counter(Part.from_data(gone) for gone in mek.get("lost", []))
    for part, n in sorted((lost - carried).items()):
        has = carried[part]
        problems.append(f"{where}.lost: {n + has} {part.name} listed lost, but its design "
                        f"{design.name!r} carries {has}; a Mek loses only the parts it has.")
    return problems


def _pilot_problems(where: str, pilot: PilotRecord, catalog: Catalog) -> list[str]:
    """A pilot's level and skills as the game gives them (R2.1-R2.3): hired Green or
    Regular and risen no higher than the kills and scenarios recorded allow, a new skill at
    most once a scenario and never while Green, and no skill twice."""
    problems = []
    levels = [lv.level for lv in catalog.levels]
    try:
        level = catalog.level(pilot["level"])
    except MeksError as exc:
        return [f"{where}.level: {_sentence(exc.message)}"]
    hired = max(levels.index(lv.level) for lv in catalog.levels
                if lv.hire_price or lv is catalog.levels[0])
    earned = level_for(pilot["kills"], pilot["scenarios"], catalog, levels[hired])
    if levels.index(level.level) > levels.index(earned.level):
        problems.append(f"{where}: {level.level} needs {level.kills} Mek kills and "
                        f"{level.scenarios} scenarios, and the pilot has {pilot['kills']} and "
                        f"{pilot['scenarios']}; a pilot is hired at most {levels[hired]} and "
                        "rises only by kills and scenarios.")
    skills = pilot["skills"]
    problems += [f"{where}: {p}" for p in held_skill_problems(level, skills)]
    if level.can_learn and len(skills) > pilot["scenarios"]:
        problems.append(f"{where}: {len(skills)} skills after "
                        f"{_n(pilot['scenarios'], 'scenario')}; a pilot learns at most one "
                        "skill a scenario.")
    return problems


def _part_problems(doc: roster.Document, catalog: Catalog) -> list[str]:
    """Parts in the stockpile and lost by Meks (R3.6, R3.7) that the catalog holds, spelt
    and kinded as it has them, each kept once in the stockpile."""
    names = {"weapon": {w.name for w in catalog.weapons},
             "system": {s.name for s in catalog.systems}}
    problems: list[str] = []

    def check(where: str, part: StockRecord | LostPart) -> None:
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
        for j, gone in enumerate(m.get("lost", [])):
            check(f"meks[{i}] ({m['callsign']}).lost[{j}]", gone)
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


def _campaign_problems(campaigns: Sequence[CampaignRecord]) -> list[str]:
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
            problems += house_rules_problems(step.get("house_rules") or {},
                                             f"{where}.plan[{j}].house_rules")
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
                  ) -> ImportedRoster:
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
    return {"id": company.id, "name": company.name, "source": source, "meks": counts["meks"],
            "pilots": counts["pilots"], "support": counts["support"],
            "musters": counts["musters"], "battles": counts["battles"]}


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# ---- checking a document against the roster's model ---------------------------------------

def schema_problems(doc: object) -> list[str]:
    """The first ways ``doc`` breaks the roster's model (as many as a message lists, and one
    more), each worded as every file problem is ("PATH: what is wrong; what to do")."""
    try:
        checked(Roster, doc, "roster")
    except InputError as exc:
        return list(exc.problems)
    return []


def _same(value: object, expected: object) -> bool:
    """Equal as JSON values are: ``true`` is not ``1``."""
    return isinstance(value, bool) == isinstance(expected, bool) and value == expected
