"""Play sheets: what a player needs at the table for each Mek, read from the catalog.

One plain model (``PlaySheet``) is built from a company document (``campaigns.roster``),
either for the whole company (``meks roster export --format md|html``) or for the muster
waiting for its battle (``meks muster sheet``); Markdown and HTML both render that model, so
the two cannot disagree. Every number and rule text on a sheet comes from the catalog
(``meks/data``) or from the engine's own unit (heat rating), never from this module.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meks.catalog import Catalog, Design, Size
from meks.engine.units import PilotSpec, UnitSpec, build_unit
from meks.pilots import base_skill
from meks.scenario import Side

Doc = dict[str, Any]


# ---- the model ------------------------------------------------------------------------------

@dataclass(frozen=True)
class WeaponLine:
    name: str
    family: str
    band: str
    to_hit: str
    heat: int
    special: str


@dataclass(frozen=True)
class SystemLine:
    name: str
    effect: str


@dataclass(frozen=True)
class SkillLine:
    name: str  # as the pilot holds it, e.g. "Chassis Familiarity (Heavy)"
    text: str


@dataclass(frozen=True)
class PilotCard:
    name: str
    level: str
    modifiers: tuple[tuple[str, int], ...]  # (what, modifier) from the pilot level
    skills: tuple[SkillLine, ...]
    kills: int
    scenarios: int
    status: str


@dataclass(frozen=True)
class MekCard:
    callsign: str
    design: str
    size: str
    custom: bool
    hits: int
    damage: int  # hits carried from earlier battles: those boxes come ticked
    armor: int
    heat: int  # heat rating with this pilot
    move: str  # movement dice
    weapons: tuple[WeaponLine, ...]
    systems: tuple[SystemLine, ...]
    pilot: PilotCard | None
    note: str = ""  # e.g. a design the catalog no longer knows


@dataclass(frozen=True)
class SupportLine:
    result: str
    kind: str
    effect: str
    dice: str
    points: int


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]
    numeric: frozenset[str] = frozenset()
    empty: str = "None."


@dataclass(frozen=True)
class PlaySheet:
    """A printable sheet: a title, a line of facts, one card per Mek, the pilots without a
    Mek, the support results waiting, and ledger tables (the roster's record)."""

    title: str
    subtitle: str
    facts: tuple[str, ...]
    meks: tuple[MekCard, ...]
    reserves: tuple[PilotCard, ...]
    support: tuple[SupportLine, ...]
    tables: tuple[Table, ...] = ()


# ---- building it ----------------------------------------------------------------------------

def _design(mek: Doc, catalog: Catalog) -> Design | None:
    custom = mek.get("custom_design")
    if custom:
        return Design(custom["name"], Size(custom["size"]), tuple(custom["weapons"]),
                      tuple(custom["systems"]))
    return catalog.ix.design.find(mek["design"])


def pilot_card(pilot: Doc, catalog: Catalog) -> PilotCard:
    level = catalog.ix.level.find(pilot["level"])
    modifiers = (() if level is None else
                 (("move", level.move), ("to hit", level.to_hit),
                  ("skill roll", level.skill_roll)))
    skills = []
    for label in pilot["skills"]:
        skill = catalog.ix.skill.find(base_skill(label))
        skills.append(SkillLine(label, skill.effect if skill else ""))
    return PilotCard(pilot["name"], pilot["level"], modifiers, tuple(skills), pilot["kills"],
                     pilot["scenarios"], pilot["status"])


def mek_card(mek: Doc, pilot: Doc | None, catalog: Catalog) -> MekCard:
    """The card of one Mek flown by ``pilot``: chassis values, the engine's heat rating for
    this pilot, and each weapon and system as the catalog describes it."""
    design = _design(mek, catalog)
    chassis = catalog.for_size(Size(mek["size"]))
    custom = bool(mek.get("custom_design"))
    card = pilot_card(pilot, catalog) if pilot else None
    if design is None:
        return MekCard(mek["callsign"], mek["design"], mek["size"], custom, chassis.hits,
                       mek["damage"], chassis.armor, chassis.heat, str(chassis.move), (), (),
                       card, note=f"The catalog has no design called {mek['design']}.")
    spec = PilotSpec(pilot["name"], pilot["level"], tuple(pilot["skills"])) if pilot else None
    unit = build_unit(UnitSpec(mek["callsign"], design=design, pilot=spec), "sheet",
                      Side.ATTACKER, catalog)
    weapons = tuple(
        WeaponLine(w.weapon.name, w.weapon.family.value, w.weapon.range.value,
                   w.weapon.to_hit_text, w.weapon.heat, w.weapon.special)
        for w in unit.weapons)
    systems = tuple(SystemLine(s.system.name, s.system.effect) for s in unit.systems)
    return MekCard(mek["callsign"], design.name, design.size.value, custom, unit.max_hits,
                   mek["damage"], unit.armor, unit.heat_rating(moors=False), str(unit.move),
                   weapons, systems, card)


def support_line(roll: Doc, catalog: Catalog) -> SupportLine:
    entry = catalog.ix.support.find(roll["result"])
    return SupportLine(roll["result"], entry.kind.value if entry else "",
                       entry.effect if entry else "", f"{roll['table_die']}, {roll['entry_die']}",
                       roll["points"])


def waiting_muster(doc: Doc) -> Doc | None:
    """The company's last muster if its battle has not been recorded yet."""
    musters = sorted(doc["musters"], key=lambda m: m["id"])
    return musters[-1] if musters and musters[-1]["battle"] is None else None


def waiting_support(doc: Doc) -> list[Doc]:
    """Support results not used yet: rolled for the next muster or taken by the muster
    waiting for its battle."""
    waiting = waiting_muster(doc)
    mustered = waiting["id"] if waiting else None
    return [s for s in doc["support"]
            if not s["used"] and (s["muster"] is None or s["muster"] == mustered)]


def roster_sheet(doc: Doc, catalog: Catalog, tables: Sequence[Table] = ()) -> PlaySheet:
    """The whole company: a card for each active Mek with its pilot, the living pilots
    without a Mek, and the support results waiting."""
    living = [p for p in doc["pilots"] if p["status"] != "dead"]
    pilot_of = {p["mek"]: p for p in living if p["mek"] is not None}
    active = [m for m in doc["meks"] if m["status"] == "active"]
    cards = tuple(mek_card(m, pilot_of.get(m["id"]), catalog) for m in active)
    active_ids = {m["id"] for m in active}
    reserves = tuple(pilot_card(p, catalog) for p in living
                     if p["mek"] is None or p["mek"] not in active_ids)
    support = tuple(support_line(s, catalog) for s in waiting_support(doc))
    results = [b["result"] for b in doc["battles"]]
    facts = (f"Founded {doc['company']['created_at'][:10]}",
             f"Record: {results.count('win')} W / {results.count('loss')} L / "
             f"{results.count('draw')} D",
             f"Stable value: {sum(m['price'] for m in active)} points")
    return PlaySheet(doc["company"]["name"], "Roster and play sheet", facts, cards, reserves,
                     support, tuple(tables))


def muster_sheet(doc: Doc, catalog: Catalog) -> PlaySheet | None:
    """The muster waiting for its battle: each mustered Mek with the pilot mustered with it,
    and the support results that muster took. None when no muster is waiting."""
    muster = waiting_muster(doc)
    if muster is None:
        return None
    meks = {m["id"]: m for m in doc["meks"]}
    pilots = {p["id"]: p for p in doc["pilots"]}
    cards = tuple(mek_card(meks[f["mek"]], pilots.get(f["pilot"]), catalog)
                  for f in muster["force"])
    support = tuple(support_line(s, catalog) for s in doc["support"]
                    if s["muster"] == muster["id"] and not s["used"])
    facts = [f"Muster {muster['id']}"]
    if muster["scenario"]:
        facts.append(f"Scenario: {muster['scenario']}"
                     + (f" ({muster['side']})" if muster["side"] else ""))
    facts.append(f"Cost: {muster['cost']} of {muster['budget']} points")
    if muster["max_size"]:
        facts.append(f"Largest size: {muster['max_size']}")
    return PlaySheet(doc["company"]["name"], "Muster waiting for its battle", tuple(facts),
                     cards, (), support)


# ---- Markdown -------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")
BOX, TICKED = "☐", "☒"


def md(text: str) -> str:
    """Text safe inside a Markdown table cell or heading."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def boxes(count: int, ticked: int = 0) -> str:
    ticked = max(0, min(ticked, count))
    return " ".join([TICKED] * ticked + [BOX] * (count - ticked))


def _signed(value: int) -> str:
    return f"{value:+d}"


def modifiers_text(card: PilotCard) -> str:
    return ", ".join(f"{what} {_signed(value)}" for what, value in card.modifiers)


def _md_table(columns: Sequence[str], rows: Sequence[Sequence[str]],
              numeric: frozenset[str] = frozenset()) -> list[str]:
    return (["| " + " | ".join(columns) + " |",
             "|" + "|".join("---:" if c in numeric else "---" for c in columns) + "|"]
            + ["| " + " | ".join(md(cell) for cell in row) + " |" for row in rows])


def _md_pilot(card: PilotCard, label: str) -> list[str]:
    lines = [f"**{label}: {md(card.name)}**, {md(card.level)} ({modifiers_text(card)}); "
             f"{card.kills} kills, {card.scenarios} scenarios"]
    if card.status != "active":
        lines[0] += f"; {md(card.status)}"
    if card.skills:
        lines += ["", *(f"- **{md(s.name)}**: {md(s.text)}" for s in card.skills)]
    else:
        lines[0] += "; no skills"
    return lines


def _weapon_rows(card: MekCard) -> list[tuple[str, ...]]:
    return [(w.name, w.family, w.band, w.to_hit, str(w.heat), w.special or "-")
            for w in card.weapons]


WEAPON_COLUMNS = ("Weapon", "Family", "Range", "To hit", "Heat", "Special rule")


def to_markdown(sheet: PlaySheet) -> str:
    lines = [f"# {md(sheet.title)}", "", f"_{md(sheet.subtitle)}_ · " + " · ".join(
        md(f) for f in sheet.facts)]
    lines += ["", "## Meks"]
    if not sheet.meks:
        lines += ["", "_No Meks._"]
    for card in sheet.meks:
        custom = ", custom design" if card.custom else ""
        lines += ["", f"### {md(card.callsign)}: {md(card.design)} ({md(card.size)}{custom})",
                  ""]
        if card.note:
            lines += [f"_{md(card.note)}_", ""]
        lines += [f"- **Hits** {boxes(card.hits, card.damage)}",
                  f"- **AR** {card.armor}",
                  f"- **Heat rating** {card.heat}: {boxes(card.heat)}",
                  f"- **Move** {md(card.move)}", ""]
        if card.weapons:
            lines += _md_table(WEAPON_COLUMNS, _weapon_rows(card), frozenset({"Heat"}))
        else:
            lines.append("_No weapons._")
        if card.systems:
            lines += ["", *_md_table(("System", "Effect"),
                                     [(s.name, s.effect) for s in card.systems])]
        lines.append("")
        lines += (_md_pilot(card.pilot, "Pilot") if card.pilot
                  else ["**Pilot:** none assigned"])
    if sheet.reserves:
        lines += ["", "## Pilots without a Mek"]
        for pilot in sheet.reserves:
            lines += ["", *_md_pilot(pilot, "Pilot")]
    lines += ["", "## Support waiting", ""]
    if sheet.support:
        lines += _md_table(("Result", "Kind", "Effect", "Dice", "Extra points"),
                           [(s.result, s.kind, s.effect, s.dice,
                             str(s.points) if s.points else "-") for s in sheet.support],
                           frozenset({"Extra points"}))
    else:
        lines.append("_No support results waiting._")
    for table in sheet.tables:
        lines += ["", f"## {md(table.title)}", ""]
        if not table.rows:
            lines.append(f"_{md(table.empty)}_")
            continue
        lines += _md_table(table.columns, table.rows, table.numeric)
    return "\n".join(lines) + "\n"


# ---- HTML -----------------------------------------------------------------------------------

CSS = """\
body { font: 10.5pt/1.35 "DejaVu Sans", system-ui, -apple-system, "Segoe UI", sans-serif;
       color: #111; max-width: 60em; margin: 2em auto; padding: 0 1em; }
h1 { margin: 0 0 0.1em; font-size: 1.6em; overflow-wrap: anywhere; }
h2 { font-size: 1.15em; margin: 1.2em 0 0.4em; border-bottom: 2px solid #333; }
.facts { margin: 0 0 0.6em; color: #333; }
.facts span + span::before { content: " · "; }
.subtitle { font-style: italic; }
.mek { border: 1.5px solid #222; border-radius: 4px; padding: 0.4em 0.6em; margin: 0 0 0.8em;
       break-inside: avoid; page-break-inside: avoid; }
.mek h3 { margin: 0 0 0.3em; font-size: 1.15em; overflow-wrap: anywhere; }
.mek h3 .design { font-weight: normal; margin-left: 0.5em; }
.stats { display: flex; flex-wrap: wrap; gap: 0.3em 1.6em; margin: 0 0 0.4em; }
.stats b { margin-right: 0.3em; }
.box { display: inline-block; width: 0.85em; height: 0.85em; border: 1.2px solid #000;
       margin-right: 0.2em; vertical-align: -0.12em; box-sizing: border-box; }
.box.hit { background: #555; }
.note { font-style: italic; }
table { border-collapse: collapse; width: 100%; margin: 0.2em 0 0.4em; }
th, td { border: 1px solid #999; padding: 0.15em 0.4em; text-align: left; vertical-align: top;
         overflow-wrap: break-word; }
.fit { white-space: nowrap; width: 1%; }
th { background: #e8e8e8; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.none { font-style: italic; color: #555; }
.pilot { margin: 0.3em 0 0; }
.pilot ul { margin: 0.2em 0 0; padding-left: 1.2em; }
.reserve { break-inside: avoid; page-break-inside: avoid; margin: 0 0 0.6em; }
@page { margin: 12mm; }
@media print {
  body { font-size: 9.5pt; max-width: none; margin: 0; padding: 0; color: #000; }
  th { background: none; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  tr { break-inside: avoid; }
}"""

PAPERS = {"a4": "A4", "letter": "letter"}  # CSS page sizes, by the names the CLI takes


def _boxes_html(count: int, ticked: int = 0) -> str:
    ticked = max(0, min(ticked, count))
    return ('<span class="boxes" aria-label="' + f"{count} boxes, {ticked} ticked" + '">'
            + '<span class="box hit"></span>' * ticked
            + '<span class="box"></span>' * (count - ticked) + "</span>")


def _table_html(columns: Sequence[str], rows: Sequence[Sequence[str]],
                numeric: frozenset[str] = frozenset(), fill: str | None = None) -> list[str]:
    """A table; with ``fill``, that column takes the width the others (kept on one line)
    leave."""
    e = html.escape
    cls = {c: " ".join(([] if fill is None or c == fill else ["fit"])
                       + (["num"] if c in numeric else [])) for c in columns}
    cls = {c: f' class="{v}"' if v else "" for c, v in cls.items()}
    return (["<table>", "<thead><tr>" + "".join(f"<th{cls[c]}>{e(c)}</th>" for c in columns)
             + "</tr></thead>", "<tbody>"]
            + ["<tr>" + "".join(f"<td{cls[c]}>{e(v)}</td>"
                                for c, v in zip(columns, row, strict=True)) + "</tr>"
               for row in rows]
            + ["</tbody>", "</table>"])


def _pilot_html(card: PilotCard) -> list[str]:
    e = html.escape
    status = f"; {e(card.status)}" if card.status != "active" else ""
    parts = ['<div class="pilot">',
             f"<p><b>Pilot: {e(card.name)}</b>, {e(card.level)} ({e(modifiers_text(card))});"
             f" {card.kills} kills, {card.scenarios} scenarios{status}"
             + ("" if card.skills else "; no skills") + "</p>"]
    if card.skills:
        parts.append("<ul>" + "".join(f"<li><b>{e(s.name)}</b>: {e(s.text)}</li>"
                                      for s in card.skills) + "</ul>")
    parts.append("</div>")
    return parts


def to_html(sheet: PlaySheet, paper: str | None = None) -> str:
    """A self-contained printable page; every name and text is HTML-escaped. ``paper``
    (a4 or letter) sets the CSS page size the browser prints to; without it the printer's
    own paper is used (the layout fits both)."""
    e = html.escape
    css = CSS if paper is None else CSS.replace(
        "@page { margin", f"@page {{ size: {PAPERS[paper]}; margin")
    parts = [
        "<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(sheet.title)} - {e(sheet.subtitle.lower())}</title>",
        f"<style>\n{css}\n</style>", "</head>", "<body>",
        f"<h1>{e(sheet.title)}</h1>",
        '<p class="facts">' + f'<span class="subtitle">{e(sheet.subtitle)}</span>'
        + "".join(f"<span>{e(f)}</span>" for f in sheet.facts) + "</p>",
        "<h2>Meks</h2>",
    ]
    if not sheet.meks:
        parts.append('<p class="none">No Meks.</p>')
    for card in sheet.meks:
        custom = ", custom design" if card.custom else ""
        parts += ['<section class="mek">',
                  f'<h3>{e(card.callsign)} <span class="design">{e(card.design)} '
                  f"({e(card.size)}{custom})</span></h3>"]
        if card.note:
            parts.append(f'<p class="note">{e(card.note)}</p>')
        parts.append('<div class="stats">'
                     f"<span><b>Hits</b>{_boxes_html(card.hits, card.damage)}</span>"
                     f"<span><b>AR</b>{card.armor}</span>"
                     f"<span><b>Heat rating</b>{card.heat} {_boxes_html(card.heat)}</span>"
                     f"<span><b>Move</b>{e(card.move)}</span></div>")
        if card.weapons:
            parts += _table_html(WEAPON_COLUMNS, _weapon_rows(card), frozenset({"Heat"}),
                                 fill="Special rule")
        else:
            parts.append('<p class="none">No weapons.</p>')
        if card.systems:
            parts += _table_html(("System", "Effect"),
                                 [(s.name, s.effect) for s in card.systems], fill="Effect")
        parts += (_pilot_html(card.pilot) if card.pilot
                  else ['<p class="pilot"><b>Pilot:</b> none assigned</p>'])
        parts.append("</section>")
    if sheet.reserves:
        parts.append("<h2>Pilots without a Mek</h2>")
        for pilot in sheet.reserves:
            parts += ['<div class="reserve">', *_pilot_html(pilot), "</div>"]
    parts.append("<h2>Support waiting</h2>")
    if sheet.support:
        parts += _table_html(("Result", "Kind", "Effect", "Dice", "Extra points"),
                             [(s.result, s.kind, s.effect, s.dice,
                               str(s.points) if s.points else "-") for s in sheet.support],
                             frozenset({"Extra points"}), fill="Effect")
    else:
        parts.append('<p class="none">No support results waiting.</p>')
    for table in sheet.tables:
        parts.append(f"<h2>{e(table.title)}</h2>")
        if not table.rows:
            parts.append(f'<p class="none">{e(table.empty)}</p>')
            continue
        parts += _table_html(table.columns, table.rows, table.numeric)
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
