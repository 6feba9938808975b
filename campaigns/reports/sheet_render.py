"""Play sheets rendered: the Markdown and the HTML of a ``PlaySheet``
(``campaigns.reports.sheet``), both from the same model, so the two cannot disagree. The HTML
is a Jinja2 template (``campaigns/reports/templates/sheet.html``) that escapes every value;
the Markdown escapes what Markdown would read as markup.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from campaigns.reports.briefing import ScenarioBrief
from campaigns.reports.sheet import MekCard, PilotCard, PlaySheet, QuickReference, signed
from meks.game.text import without_format_characters

# ---- Markdown -------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")
BOX, TICKED = "☐", "☒"


def shown(text: object) -> str:
    """Text as a sheet shows it: without the invisible characters that would change how
    the text around them reads (right-to-left overrides, zero-width spaces; as names are
    stored, ``meks.game.text.without_format_characters``)."""
    return without_format_characters(str(text))


def md(text: str) -> str:
    """Text safe inside a Markdown table cell or heading."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(shown(text).split()))


def boxes(count: int, ticked: int = 0) -> str:
    ticked = max(0, min(ticked, count))
    return " ".join([TICKED] * ticked + [BOX] * (count - ticked))


def modifiers_text(card: PilotCard) -> str:
    return ", ".join(f"{what} {signed(value)}" for what, value in card.modifiers)


def heat_text(card: MekCard) -> str:
    """What the heat rating printed is made of, beyond the engine's number: wear's loss."""
    if not card.heat_lost:
        return ""
    return f"-{card.heat_lost} for wear: {card.wear} battles since new or overhauled"


def mek_facts(card: MekCard) -> list[tuple[str, str]]:
    """The card's points and condition, in the order printed: price, owed, wear, lost
    parts (the last three only when there is one)."""
    facts = [("Price", f"{card.price} points")]
    if card.owed:
        facts.append(("Owed", f"{card.owed} points"))
    if card.wear and not card.heat_lost:
        facts.append(("Wear", f"{card.wear} battle{'s' * (card.wear != 1)} since new or "
                              "overhauled"))
    if card.lost:
        facts.append(("Lost parts", ", ".join(card.lost)))
    return facts


def _md_table(columns: Sequence[str], rows: Sequence[Sequence[str]],
              numeric: frozenset[str] = frozenset()) -> list[str]:
    return (["| " + " | ".join(md(c) for c in columns) + " |",
             "|" + "|".join("---:" if c in numeric else "---" for c in columns) + "|"]
            + ["| " + " | ".join(md(cell) or " " for cell in row) + " |" for row in rows])


def record_text(card: PilotCard) -> str:
    """A pilot's kills and scenarios survived, as a sheet says them (1 kill, 2 scenarios)."""
    return (f"{card.kills} kill{'s' * (card.kills != 1)}, "
            f"{card.scenarios} scenario{'s' * (card.scenarios != 1)}")


def _md_pilot(card: PilotCard, label: str) -> list[str]:
    lines = [f"**{label}: {md(card.name)}**, {md(card.level)} ({modifiers_text(card)}); "
             f"{record_text(card)}"]
    if card.status != "active":
        lines[0] += f"; {md(card.status)}"
    if card.skills:
        lines += ["", *(f"- **{md(s.name)}**: {md(s.text)}" for s in card.skills)]
    else:
        lines[0] += "; no skills"
    return lines


def system_rows(card: MekCard) -> list[tuple[str, ...]]:
    return [(s.name, s.effect) for s in card.systems]


def weapon_rows(card: MekCard) -> list[tuple[str, ...]]:
    return [(w.name, w.family, w.band, w.to_hit, str(w.heat), w.special or "-")
            for w in card.weapons]


WEAPON_COLUMNS = ("Weapon", "Family", "Range", "To hit", "Heat", "Special rule")
SUPPORT_COLUMNS = ("Result", "Kind", "Effect", "Dice", "Extra points")


def support_rows(sheet: PlaySheet) -> list[tuple[str, ...]]:
    return [(s.result, s.kind, s.effect, s.dice, str(s.points) if s.points else "-")
            for s in sheet.support]


def setup_rows(scenario: ScenarioBrief) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The sides' set-up as a table: a row for each thing either side has."""
    columns = ("", *(s.side.value.capitalize() for s in scenario.sides))
    rows = [("Budget", *(f"{s.budget} points" for s in scenario.sides))]
    for label, attr in (("Set-up", "setup"), ("Arrivals", "arrivals"),
                        ("Strongpoints", "strongpoints"), ("May exit", "exits")):
        values = [getattr(s, attr) for s in scenario.sides]
        if any(v != "-" for v in values):
            rows.append((label, *values))
    return columns, rows


def victory_lines(scenario: ScenarioBrief) -> list[str]:
    lines = [f"{s.side.value.capitalize()} {s.wins}." for s in scenario.sides]
    lines.append(f"At the turn limit ({scenario.turn_limit} turns) otherwise: "
                 f"{scenario.at_turn_limit}.")
    if scenario.changes:
        lines.append("Changed from the printed scenario: " + "; ".join(scenario.changes)
                     + ".")
    if scenario.house_rules:
        lines.append("House rules: " + ", ".join(scenario.house_rules) + ".")
    return lines


def _md_scenario(sheet: PlaySheet, scenario: ScenarioBrief) -> list[str]:
    side = f"; the company is the {md(sheet.side)}" if sheet.side else ""
    lines = ["", f"## Scenario: {md(scenario.name)} ({md(scenario.id)}), "
                 f"{scenario.turn_limit} turns{side}", ""]
    if scenario.briefing:
        lines += [f"_{md(scenario.briefing)}_", ""]
    lines += ["### Map (north is up)", ""]
    cells = [[f"**{c.zone}** {md(c.terrain)}"
              + "".join(f"<br>{md(m.text.strip())}" for m in c.marks) for c in row]
             for row in scenario.rows()]
    lines += ["| | | |", "|---|---|---|", *("| " + " | ".join(row) + " |" for row in cells)]
    columns, rows = setup_rows(scenario)
    lines += ["", "### Set-up", "", *_md_table(columns, rows)]
    lines += ["", "### Victory", "", *(f"- {md(line)}" for line in victory_lines(scenario))]
    return lines


def _md_reference(ref: QuickReference) -> list[str]:
    lines = ["", "## Quick reference", "", "### The turn", ""]
    lines += [f"{n}. {md(step)}" for n, step in enumerate(ref.turn, start=1)]
    lines += ["", f"### {md(ref.terrain.title)}", "",
              *_md_table(ref.terrain.columns, ref.terrain.rows, ref.terrain.numeric)]
    lines += ["", f"### {md(ref.to_hit.title)}", ""]
    lines += (_md_table(ref.to_hit.columns, ref.to_hit.rows) if ref.to_hit.rows
              else [f"_{md(ref.to_hit.empty)}_"])
    lines += ["", *(f"- {md(note)}" for note in ref.to_hit_notes)]
    lines += ["", f"### {md(ref.critical.title)}", "", md(ref.critical_check), "",
              *_md_table(ref.critical.columns, ref.critical.rows, ref.critical.numeric)]
    return lines


def to_markdown(sheet: PlaySheet) -> str:
    lines = [f"# {md(sheet.title)}", "", f"_{md(sheet.subtitle)}_ · " + " · ".join(
        md(f) for f in sheet.facts)]
    if sheet.force is not None:
        lines += ["", f"## {md(sheet.force.title)}", "",
                  *_md_table(sheet.force.columns, sheet.force.rows, sheet.force.numeric)]
    if sheet.scenario is not None:
        lines += _md_scenario(sheet, sheet.scenario)
    lines += ["", "## Meks"]
    if not sheet.meks:
        lines += ["", "_No Meks._"]
    for card in sheet.meks:
        custom = ", custom design" if card.custom else ""
        lines += ["", f"### {md(card.callsign)}: {md(card.design)} ({md(card.size)}{custom})",
                  ""]
        if card.note:
            lines += [f"_{md(card.note)}_", ""]
        heat = heat_text(card)
        lines += [f"- **Hits** {boxes(card.hits, card.damage)}",
                  f"- **AR** {card.armor}",
                  f"- **Heat rating** {card.heat}" + (f" ({md(heat)})" if heat else "")
                  + f": {boxes(card.heat)}",
                  f"- **Move** {md(card.move)}",
                  *(f"- **{what}** {md(value)}" for what, value in mek_facts(card)), ""]
        if card.weapons:
            lines += _md_table(WEAPON_COLUMNS, weapon_rows(card), frozenset({"Heat"}))
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
        lines += _md_table(SUPPORT_COLUMNS, support_rows(sheet), frozenset({"Extra points"}))
    else:
        lines.append("_No support results waiting._")
    for table in sheet.tables:
        lines += ["", f"## {md(table.title)}", ""]
        if not table.rows:
            lines.append(f"_{md(table.empty)}_")
            continue
        lines += _md_table(table.columns, table.rows, table.numeric)
    if sheet.reference is not None:
        lines += _md_reference(sheet.reference)
    return "\n".join(lines) + "\n"


# ---- HTML -----------------------------------------------------------------------------------

PAPERS = {"a4": "A4", "letter": "letter"}  # CSS page sizes, by the names the CLI takes


@functools.cache
def _templates() -> Any:
    """The package's templates, every value HTML-escaped (autoescape) and shown as text
    (``shown``) before it is escaped; an unknown name in a template is an error."""
    import jinja2
    from markupsafe import Markup

    def finalize(value: object) -> object:  # the template's own markup (a macro's) stays
        return shown(value) if isinstance(value, str) and not isinstance(value, Markup) \
            else value

    env = jinja2.Environment(loader=jinja2.PackageLoader("campaigns.reports", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             finalize=finalize, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.globals.update(boxes=_box_counts, modifiers_text=modifiers_text, record_text=record_text,
                       heat_text=heat_text, mek_facts=mek_facts, weapon_rows=weapon_rows,
                       system_rows=system_rows,
                       support_rows=support_rows, setup_rows=setup_rows,
                       victory_lines=victory_lines, WEAPON_COLUMNS=WEAPON_COLUMNS,
                       SUPPORT_COLUMNS=SUPPORT_COLUMNS)
    return env


def _box_counts(count: int, ticked: int = 0) -> tuple[int, int]:
    """(ticked, empty) boxes for a track of ``count`` with ``ticked`` ticked."""
    ticked = max(0, min(ticked, count))
    return ticked, count - ticked


def to_html(sheet: PlaySheet, paper: str | None = None) -> str:
    """A self-contained printable page, from the ``sheet.html`` template (every value
    escaped). ``paper`` (a4 or letter) sets the CSS page size the browser prints to;
    without it the printer's own paper is used (the layout fits both)."""
    text: str = _templates().get_template("sheet.html").render(
        sheet=sheet, page_size=PAPERS[paper] if paper else None)
    return text
