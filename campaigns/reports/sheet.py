"""Play sheets: what a player needs at the table for each Mek, read from the catalog.

One plain model (``PlaySheet``) is built from a company document (``campaigns.files.roster``),
either for the whole company (``meks roster export --format md|html``) or for the muster
waiting for its battle (``meks muster sheet``); Markdown and HTML both render that model
(``campaigns.reports.sheet_render``), so the two cannot disagree. Every number and rule text
on a sheet comes from the catalog (``meks/game/data``), the rules (``meks.game.rules``,
``meks.game.shots``) or from the engine's own unit, built as the battle builds it
(``campaigns.parts.fighting_spec``: lost parts, wear), never from this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from campaigns.files.records import Document, MekRecord, MusterRecord, PilotRecord, SupportRecord
from campaigns.parts import Part, fighting_spec, heat_loss
from campaigns.reports.briefing import ScenarioBrief, brief
from meks.engine.units import PilotSpec, Unit, build_unit
from meks.game.catalog import Band, Catalog, Design, Size
from meks.game.pilots import base_skill
from meks.game.reference import CRITICAL_CHECK_TEXT, critical_effects, turn_sequence
from meks.game.rules import skill_of
from meks.game.scenario import Scenario
from meks.game.shots import ToHit, to_hit
from meks.game.vocabulary import COMBAT_ROUNDS, Side

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
class ToHitLine:
    """What one weapon's die needs at short, medium and long range with this pilot's
    modifiers already applied ('-' out of range)."""

    weapon: str
    cells: tuple[str, str, str]


@dataclass(frozen=True)
class MekCard:
    callsign: str
    design: str
    size: str
    custom: bool
    hits: int
    damage: int  # hits carried from earlier battles: those boxes come ticked
    armor: int
    heat: int  # the heat rating the engine plays with: this pilot, its wear, its parts
    move: str  # movement dice
    weapons: tuple[WeaponLine, ...]  # those it carries in working order
    systems: tuple[SystemLine, ...]
    pilot: PilotCard | None
    note: str = ""  # e.g. a design the catalog no longer knows
    price: int = 0
    owed: int = 0  # points owed for parts, repairs or an overhaul (R3.7, R3.8)
    wear: int = 0  # battles since new or overhauled (R3.8)
    heat_lost: int = 0  # the heat rating that wear took (R3.8)
    lost: tuple[str, ...] = ()  # parts lost in battle and not replaced (R3.7)
    to_hit: tuple[ToHitLine, ...] = ()
    to_hit_notes: tuple[str, ...] = ()  # the modifiers ``to_hit`` applied, named


class CardCharges(TypedDict):
    """What a Mek's card shows of what it cost and what it went through (``MekCard``'s
    fields of the same names)."""

    price: int
    owed: int
    wear: int
    heat_lost: int
    lost: tuple[str, ...]


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
    fill: str | None = None  # the column that takes the width the others leave


@dataclass(frozen=True)
class QuickReference:
    """One page for the table: the turn in steps, the terrain, what each Mek's weapons
    need to hit with its pilot, and the critical hits."""

    turn: tuple[str, ...]
    terrain: Table
    to_hit: Table
    to_hit_notes: tuple[str, ...]
    critical_check: str
    critical: Table


@dataclass(frozen=True)
class PlaySheet:
    """A printable sheet: a title, a line of facts, one card per Mek, the pilots without a
    Mek, the support results waiting, and ledger tables (the roster's record); a muster's
    sheet has the force's points and its scenario; both end with a quick reference."""

    title: str
    subtitle: str
    facts: tuple[str, ...]
    meks: tuple[MekCard, ...]
    reserves: tuple[PilotCard, ...]
    support: tuple[SupportLine, ...]
    tables: tuple[Table, ...] = ()
    force: Table | None = None  # a muster's points, Mek by Mek
    scenario: ScenarioBrief | None = None
    side: str | None = None  # the company's side in ``scenario``
    reference: QuickReference | None = None


# ---- building it ----------------------------------------------------------------------------

def _design(mek: MekRecord, catalog: Catalog) -> Design | None:
    custom = mek.get("custom_design")
    if custom:
        return Design(custom["name"], Size(custom["size"]), tuple(custom["weapons"]),
                      tuple(custom["systems"]))
    return catalog.ix.design.find(mek["design"])


def pilot_card(pilot: PilotRecord, catalog: Catalog) -> PilotCard:
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


def _needed(check: ToHit) -> str:
    """What the die must show for ``check`` to hit: '4+', or '-' when no face can."""
    faces = check.faces()
    return "-" if faces == 0 else f"{7 - faces}+"


def to_hit_lines(unit: Unit, six_hits: bool = False
                 ) -> tuple[tuple[ToHitLine, ...], tuple[str, ...]]:
    """Each of ``unit``'s working weapons with the roll it needs at each band, as
    ``meks.game.shots.to_hit`` works it out with the modifiers the unit always brings: its
    pilot's level and a Targeting Array (one target); with the pilot's Accuracy, Guidance
    or Steady Hand, the first attack of that family each round in brackets. The target's
    terrain and systems are left to the table. Also the modifiers applied, named."""
    pilot = unit.pilot
    level = pilot.level.to_hit if pilot else 0
    level_name = pilot.level.level if pilot else ""
    array = unit.has_system("Targeting Array")
    lines, used = [], set()
    for slot in unit.weapons:
        weapon = slot.weapon
        if weapon.to_hit is None:  # a small weapon: a kills roll at short range (R6.11)
            lines.append(ToHitLine(weapon.name, (weapon.to_hit_text, "-", "-")))
            continue
        skill = skill_of(weapon.family)
        has_skill = pilot is not None and skill is not None and pilot.has(skill)
        cells = []
        for band in Band:
            need = weapon.needs[band]
            if need is None:
                cells.append("-")
                continue
            check = to_hit(weapon, need, band, level=level, level_name=level_name,
                           targeting_array=array, six_hits=six_hits)
            used.update(check.notes)
            text = _needed(check)
            if has_skill:
                better = to_hit(weapon, need, band, level=level, level_name=level_name,
                                targeting_array=array, family_skill=True, six_hits=six_hits)
                text += f" ({_needed(better)} {skill})"
            cells.append(text)
        lines.append(ToHitLine(weapon.name, (cells[0], cells[1], cells[2])))
    return tuple(lines), tuple(sorted(used))


def mek_card(mek: MekRecord, pilot: PilotRecord | None, catalog: Catalog, *,
             owed: int | None = None, price: int | None = None,
             six_hits: bool = False) -> MekCard:
    """The card of one Mek flown by ``pilot``: the unit the battle would field (its lost
    parts left out, its wear taken off the heat rating, ``campaigns.parts.fighting_spec``),
    with the engine's heat rating for this pilot and each weapon and system as the catalog
    describes it. ``owed`` and ``price``: the muster's, when it is a muster's card."""
    design = _design(mek, catalog)
    chassis = catalog.for_size(Size(mek["size"]))
    custom = bool(mek.get("custom_design"))
    card = pilot_card(pilot, catalog) if pilot else None
    lost = tuple(Part.from_data(p) for p in mek.get("lost", []))
    wear = mek.get("wear", 0)
    extras: CardCharges = {
        "price": mek["price"] if price is None else price,
        "owed": mek.get("owed", 0) if owed is None else owed, "wear": wear,
        "heat_lost": heat_loss(wear, Size(mek["size"]), catalog),
        "lost": tuple(p.name for p in lost)}
    if design is None:
        return MekCard(mek["callsign"], mek["design"], mek["size"], custom, chassis.hits,
                       mek["damage"], chassis.armor, chassis.heat, str(chassis.move), (), (),
                       card, note=f"The catalog has no design called {mek['design']}.",
                       **extras)
    spec = PilotSpec(pilot["name"], pilot["level"], tuple(pilot["skills"])) if pilot else None
    unit = build_unit(fighting_spec(mek["callsign"], design, lost, wear, mek["damage"], spec,
                                    catalog), "sheet", Side.ATTACKER, catalog)
    weapons = tuple(
        WeaponLine(w.weapon.name, w.weapon.family.value, w.weapon.range.value,
                   w.weapon.to_hit_text, w.weapon.heat, w.weapon.special)
        for w in unit.weapons)
    systems = tuple(SystemLine(s.system.name, s.system.effect) for s in unit.systems)
    lines, notes = to_hit_lines(unit, six_hits) if pilot else ((), ())
    return MekCard(mek["callsign"], design.name, design.size.value, custom, unit.max_hits,
                   mek["damage"], unit.armor, unit.heat_rating(moors=False), str(unit.move),
                   weapons, systems, card, to_hit=lines, to_hit_notes=notes, **extras)


def support_line(roll: SupportRecord, catalog: Catalog) -> SupportLine:
    entry = catalog.ix.support.find(roll["result"])
    effect = entry.effect if entry else ""
    if entry is not None and entry.unit is not None:  # what the table needs to field it
        effect += f" ({entry.unit.describe()})"
    return SupportLine(roll["result"], entry.kind.value if entry else "", effect,
                       f"{roll['table_die']}, {roll['entry_die']}", roll["points"])


def waiting_muster(doc: Document) -> MusterRecord | None:
    """The company's last muster if its battle has not been recorded yet."""
    musters = sorted(doc["musters"], key=lambda m: m["id"])
    return musters[-1] if musters and musters[-1]["battle"] is None else None


def waiting_support(doc: Document) -> list[SupportRecord]:
    """Support results not used yet: rolled for the next muster or taken by the muster
    waiting for its battle."""
    waiting = waiting_muster(doc)
    mustered = waiting["id"] if waiting else None
    return [s for s in doc["support"]
            if not s["used"] and (s["muster"] is None or s["muster"] == mustered)]


def signed(value: int) -> str:
    return f"{value:+d}"


def quick_reference(cards: Sequence[MekCard], catalog: Catalog,
                    rounds: int = COMBAT_ROUNDS,
                    scenario: ScenarioBrief | None = None) -> QuickReference:
    """The one-page reference: the turn (``meks.game.reference.turn_sequence``), the terrain table
    (the catalog's; with a scenario, the zones of each terrain), each Mek's to-hit rolls
    with its pilot (``MekCard.to_hit``) and the critical table
    (``meks.game.reference.critical_effects``)."""
    columns: tuple[str, ...] = ("Terrain", "Movement roll", "To hit", "Heat rating")
    rows: list[tuple[str, ...]] = [
        (t.name, signed(t.move), signed(t.to_hit), signed(t.heat) if t.heat else "-")
        for t in catalog.terrain]
    if scenario is not None:
        columns += ("Zones",)
        rows = [(*row, ", ".join(str(c.zone) for c in scenario.zones
                                 if c.terrain == row[0]) or "-") for row in rows]
    terrain = Table("Terrain", columns, rows,
                    frozenset({"Movement roll", "To hit", "Heat rating"}), fill="Terrain")
    weapons: list[tuple[str, ...]] = [
        (c.callsign, c.pilot.name if c.pilot else "-", line.weapon, *line.cells)
        for c in cards for line in c.to_hit]
    hits = Table("To hit", ("Mek", "Pilot", "Weapon", "Short", "Medium", "Long"), weapons,
                 empty="No Mek with a pilot and a weapon.", fill="Weapon")
    notes = ["The roll each die needs, this pilot's modifiers applied; add the target's "
             "terrain (table above) and its systems."]
    for c in cards:
        if c.to_hit_notes:
            notes.append(f"{c.callsign}: applied {', '.join(c.to_hit_notes)}.")
    skills = sorted({s for c in cards for line in c.to_hit for cell in line.cells
                     for s in ("Accuracy", "Guidance", "Steady Hand") if s in cell})
    if skills:
        notes.append(f"In brackets: the first attack of the family each round with "
                     f"{', '.join(skills)}.")
    critical = Table("Critical hits", ("Roll", "Critical", "Effect"),
                     [(str(face), name, text) for face, name, text in critical_effects()],
                     frozenset({"Roll"}), fill="Effect")
    return QuickReference(turn_sequence(rounds), terrain, hits, tuple(notes),
                          CRITICAL_CHECK_TEXT, critical)


def roster_sheet(doc: Document, catalog: Catalog, tables: Sequence[Table] = ()) -> PlaySheet:
    """The whole company: a card for each active Mek with its pilot, the living pilots
    without a Mek, the support results waiting, and the quick reference."""
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
                     support, tuple(tables), reference=quick_reference(cards, catalog))


def muster_scenario(muster: MusterRecord) -> Scenario | None:
    """The scenario a muster was made for: the one it keeps, else the one its id names
    today; None for a muster made without a scenario (or for one no longer known)."""
    from campaigns.files.scenario_model import stored_scenario
    from campaigns.files.scenarios import find_scenario
    from meks.game.errors import MeksError

    if muster.get("definition"):
        return stored_scenario(muster["definition"])
    if not muster["scenario"]:
        return None
    try:
        return find_scenario(muster["scenario"], files=False).scenario
    except MeksError:
        return None


def muster_sheet(doc: Document, catalog: Catalog) -> PlaySheet | None:
    """The muster waiting for its battle: its points Mek by Mek (price, hire, owed), each
    mustered Mek with the pilot mustered with it, the support results that muster took, its
    scenario (map, set-up, victory) and the quick reference. None when no muster is
    waiting."""
    from campaigns.musters import muster_price

    muster = waiting_muster(doc)
    if muster is None:
        return None
    scenario = muster_scenario(muster)
    house = scenario.house_rules if scenario else None
    meks = {m["id"]: m for m in doc["meks"]}
    pilots = {p["id"]: p for p in doc["pilots"]}
    cards: list[MekCard] = []
    rows: list[tuple[str, ...]] = []
    for entry in muster["force"]:
        mek, pilot = meks[entry["mek"]], pilots.get(entry["pilot"])
        price = mek["price"] if house is None else muster_price(
            mek["price"], mek["design"], bool(mek.get("custom_design")), house.pricing)
        hire, owed = entry.get("paid", 0), entry.get("owed", 0)
        cards.append(mek_card(mek, pilot, catalog, owed=owed, price=price,
                              six_hits=bool(house and house.six_always_hits)))
        rows.append((mek["callsign"], mek["design"], pilot["name"] if pilot else "-",
                     str(price), str(hire) if hire else "-", str(owed) if owed else "-",
                     str(price + hire + owed)))
    total = sum(int(r[-1]) for r in rows)
    rows.append(("Total", "", "", "", "", "", str(total)))
    force = Table("Points", ("Mek", "Design", "Pilot", "Price", "Hire", "Owed", "Cost"),
                  rows, frozenset({"Price", "Hire", "Owed", "Cost"}))
    support = tuple(support_line(s, catalog) for s in doc["support"]
                    if s["muster"] == muster["id"] and not s["used"])
    facts = [f"Muster {muster['id']}"]
    if muster["scenario"]:
        facts.append(f"Scenario: {muster['scenario']}"
                     + (f" ({muster['side']})" if muster["side"] else ""))
    facts.append(f"Cost: {muster['cost']} of {muster['budget']} points")
    if muster["max_size"]:
        facts.append(f"Largest size: {muster['max_size']}")
    rounds = house.combat_rounds if house else COMBAT_ROUNDS
    briefed = brief(scenario) if scenario else None
    return PlaySheet(doc["company"]["name"], "Muster waiting for its battle", tuple(facts),
                     tuple(cards), (), support, force=force, scenario=briefed,
                     side=muster["side"],
                     reference=quick_reference(cards, catalog, rounds, briefed))
