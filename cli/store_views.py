"""Rich views of companies, Meks, pilots, support rolls and history."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from campaigns.files.records import MusterView, PilotOutcome
from campaigns.files.view_records import (
    CompanyLine,
    CompanyView,
    EventView,
    ListedMek,
    MekView,
    PilotHistory,
    PilotView,
    RecordedBattle,
    SupportResult,
)


def _table(title: str, *columns: str) -> Table:
    table = Table(title=Text(title), box=box.SIMPLE_HEAD, title_justify="left")
    for column in columns:  # a heading too wide for its column folds, as its cells do
        table.add_column(column, overflow="fold")
    return table


def _row(table: Table, *cells: object) -> None:
    """Add a row of plain text: names players type are never read as Rich markup, and a word
    longer than its column is folded onto the next line, never cut short."""
    table.add_row(*(Text(str(c), overflow="fold") for c in cells))


def companies(rows: Sequence[CompanyLine]) -> RenderableType:
    if not rows:
        return Text("No companies yet. To start one, run 'meks company create' and the name "
                    "you want, e.g. meks company create Hawks.")
    table = _table("Companies", "Id", "Name", "Meks", "Pilots", "Battles")
    for r in rows:
        _row(table, str(r["id"]), r["name"], str(r["meks"]), str(r["pilots"]),
                      str(r["battles"]))
    return table


def meks(rows: Sequence[ListedMek], title: str) -> RenderableType:
    if not rows:
        return Text(f"{title}: none. Buy one with 'meks mek buy COMPANY DESIGN'.")
    # the campaign house rules' marks on a Mek (R3.7, R3.8), in a column only when some
    # Mek has one
    marked = any(m.get("lost") or m.get("owed") or m.get("wear") for m in rows)
    table = _table(title, "Id", "Callsign", "Design", "Size", "Price", "Kills", "Pilot",
                   "Status", *(("Condition",) if marked else ()))
    for m in rows:
        _row(table, str(m["id"]), m["callsign"], m["design"], m["size"], str(m["price"]),
                      str(m["kills"]), m.get("pilot") or "-", m["status"],
                      *((condition(m),) if marked else ()))
    return table


def condition(m: MekView) -> str:
    """A Mek's lost parts, wear and points owed, in a few words ('-' for none)."""
    bits = []
    if m.get("lost"):
        bits.append("lost " + counted_names(m["lost"]))
    if m.get("wear"):  # battles since new or overhauled, and the heat rating they took
        n = m["wear"]
        bits.append(f"{n} battle{'s' * (n != 1)} since overhaul"
                    + (f", heat rating -{m['heat_loss']}" if m.get("heat_loss") else ""))
    if m.get("owed"):
        bits.append(f"owes {m['owed']}")
    return "; ".join(bits) or "-"


def pilots(rows: Sequence[PilotView], title: str) -> RenderableType:
    if not rows:
        return Text(f"{title}: none. Hire one with 'meks pilot hire COMPANY NAME'.")
    table = _table(title, "Id", "Name", "Level", "Kills", "Scen.", "Skills", "Mek", "Status")
    for p in rows:
        _row(table, str(p["id"]), p["name"], p["level"], str(p["kills"]),
                      str(p["scenarios"]), ", ".join(p["skills"]) or "-", p["mek"] or "-",
                      p["status"])
    return table


def company(view: CompanyView) -> RenderableType:
    active = [m for m in view["meks"] if m["status"] == "active"]
    pilot_of = {p["mek_id"]: p["name"] for p in view["pilots"] if p["status"] != "dead"}
    parts: list[RenderableType] = [
        Text(view["name"], style="bold"),
        meks([{**m, "pilot": pilot_of.get(m["id"])} for m in active], "Stable"),
        pilots(view["pilots"], "Pilots"),
    ]
    gone = [m for m in view["meks"] if m["status"] != "active"]
    if gone:
        parts.append(Text("Former Meks: " + ", ".join(
            f"{m['callsign']} ({m['status']})" for m in gone)))
    if view["support"]:
        parts.append(Text("Support waiting for the next muster: " + ", ".join(
            s["result"] for s in view["support"])))
    if view.get("stockpile"):
        parts.append(Text("Stockpile: " + ", ".join(
            f"{p['count']} {p['part']}" if p["count"] > 1 else p["part"]
            for p in view["stockpile"])))
    last = view["last_muster"]
    if last:
        state = "recorded" if last["recorded"] else "waiting for its battle"
        parts.append(Text(f"Last muster: {', '.join(m or '?' for m in last['meks'])} for "
                          f"{last['cost']}/{last['budget']} points, {state}."))
    if view["battles"]:
        record = {r: sum(b["result"] == r for b in view["battles"])
                  for r in ("win", "loss", "draw")}
        parts.append(Text(f"Record: {record['win']} won, {record['loss']} lost, "
                          f"{record['draw']} drawn."))
    return Group(*parts)


def pilot(view: PilotHistory) -> RenderableType:
    table = Table(box=None, show_header=False)
    table.add_column(style="bold")
    table.add_column()
    for key in ("name", "level", "kills", "scenarios", "status"):
        _row(table, key.capitalize(), str(view[key]))
    _row(table, "Skills", ", ".join(view["skills"]) or "-")
    _row(table, "Mek", view["mek"] or "-")
    if view.get("hire_cost"):
        _row(table, "Owes", f"{view['hire_cost']} points at the next muster")
    rows: list[RenderableType] = [table]
    for event in view.get("history", []):
        rows.append(Text(f"  {event['at']}  {event['summary']}"))
    return Group(*rows)


def history(events: Sequence[EventView], name: str) -> RenderableType:
    table = _table(f"History of {name} (newest first)", "Id", "When", "Command", "What",
                   "Dice")
    for e in events:
        dice = " ".join(str(d["value"]) for d in e["dice"]) or "-"
        what = e["summary"] + (" [undone]" if e["undone"] else "")
        _row(table, str(e["id"]), e["at"][:16].replace("T", " "), e["command"], what, dice)
    return table


def support(rows: Sequence[SupportResult]) -> RenderableType:
    table = _table("Support rolls", "Dice", "Table", "Result", "Effect")
    for r in rows:
        n = r["points"]
        effect = r["effect"] + (f" Rolled {n} point{'s' if n != 1 else ''}." if n else "")
        _row(table, f"{r['table_die']}, {r['entry_die']}", r["table"], r["result"], effect)
    return table


def muster(result: MusterView) -> RenderableType:
    # Every point of the cost in a column: the Mek's price, its pilot's Regular hire and
    # what the Mek owes for parts, repairs or an overhaul (R3.3, R3.7, R3.8).
    table = _table(f"Muster {result['id']}: {result['cost']}/{result['budget']} points",
                   "Mek", "Design", "Pilot", "Level", "Price", "Hire", "Owed", "Cost")
    for f in result["force"]:
        hire, owed = f.get("hire", 0), f.get("owed", 0)
        _row(table, f["mek"], f["design"], f["pilot"], f["level"], str(f["price"]),
             str(hire) if hire else "-", str(owed) if owed else "-",
             str(f["price"] + hire + owed))
    parts: list[RenderableType] = [table]
    if result["support"]:
        parts.append(Text("Support: " + ", ".join(result["support"])))
    return Group(*parts)


def battle_record(result: RecordedBattle) -> RenderableType:
    table = _table(f"Battle {result['battle_id']}: {result['result']}", "Pilot", "Mek",
                   "Kills", "Fate", "Skill roll", "New skill")
    for e in result["pilots"]:
        fate = "killed" if e.get("dead") else "bailed out, Mek lost" if e.get(
            "bailed_out") else "ejected, Mek lost" if e.get("mek_destroyed") else _mek_fate(e)
        if e.get("promoted"):
            fate += f"; promoted {e['promoted']}"
        roll = e.get("skill_roll")
        roll_text = "-" if roll is None else (
            f"{roll['die']}{'+' + str(roll['bonus']) if roll['bonus'] else ''} "
            f"vs {roll['needed']}+ {'success' if roll['success'] else 'no'}")
        _row(table, e["pilot"], e["mek"], str(e["kills"]), fate, roll_text,
                      e.get("new_skill", "-"))
    extra = aftermath_lines(result)
    return Group(table, *extra) if extra else table


def _mek_fate(e: PilotOutcome) -> str:
    """What became of a Mek that came home: repaired (for points under ``repair: paid``) or
    keeping its Hits (``repair: none``), and the parts it lost (``spare_parts``)."""
    cost = e.get("repair_cost", 0)
    if e.get("repaired"):
        fate = f"Mek repaired for {cost} point{'s' * (cost != 1)}" if cost else "Mek repaired"
    else:
        hits = e.get("damage", 0)
        fate = f"Mek keeps {hits} Hit{'s' * (hits != 1)}" if hits else "Mek came home"
    if e.get("lost_parts"):
        fate += "; lost " + ", ".join(e["lost_parts"])
    return fate


def aftermath_lines(result: RecordedBattle) -> list[Text]:
    """What a post-battle sequence did besides the pilots: how the battle ended early
    (R6.13) and the parts salvaged (R3.6)."""
    lines = []
    if result.get("withdrawal"):
        lines.append(Text("Ended early: the company " + ("withdrew" if result["withdrawal"]
                                                         == "withdrew" else
                                                         "overran the enemy") + "."))
    if result.get("salvage"):
        lines.append(Text("Salvaged into the stockpile: " + counted_names(result["salvage"])))
    return lines


def counted_names(names: list[str]) -> str:
    """Part names as '2 Laser, Heat Sink'."""
    counts = Counter(names)
    return ", ".join(f"{n} {name}" if n > 1 else name for name, n in sorted(counts.items()))
