"""Rich renderables for catalog items and design reports (their JSON shapes: cli/shapes.py)."""

from __future__ import annotations

from collections.abc import Iterable

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meks.game.catalog import (
    Catalog,
    Chassis,
    Design,
    Skill,
    SupportEntry,
    System,
    Weapon,
    grouped,
)
from meks.game.construction import DesignReport, check_design


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", expand=False)
    for column in columns:
        table.add_column(column)
    return table




# ---- chassis ---------------------------------------------------------------------------

def chassis_table(catalog: Catalog) -> Table:
    table = _table("Chassis", "Size", "Hits", "AR", "Heat", "Move", "Massive", "Huge",
                   "Slots", "Price")
    for c in catalog.chassis:
        table.add_row(c.size.value, str(c.hits), f"{c.armor}+", str(c.heat), str(c.move),
                      str(c.mounts.massive), str(c.mounts.huge), str(c.slots), str(c.price))
    return table


# ---- weapons ---------------------------------------------------------------------------

def _notes(title: str, rows: Iterable[tuple[str, str]]) -> Table:
    """Long texts below a table, each under the name it belongs to: the name in a narrow
    column, the text wrapping in the rest of the width (so the table above stays one
    line a row at 80 columns)."""
    notes = Table(title=title, box=None, title_justify="left", show_header=False,
                  padding=(0, 1), expand=False)
    notes.add_column(no_wrap=True, style="bold")
    notes.add_column(overflow="fold")
    for name, text in rows:
        notes.add_row(name, text)
    return notes


def weapons_table(catalog: Catalog) -> Group:
    """One line a weapon (name, family, mount, range, to-hit, heat, price), then each
    special rule under the weapon's name."""
    table = _table("Weapons", "Weapon", "Family", "Mount", "Range", "To hit", "Heat",
                   "Price")
    table.collapse_padding = True
    for column in table.columns[1:]:
        column.no_wrap = True
    for w in catalog.weapons:
        price = f"{w.price}/pair" if w.price_per == "pair" else str(w.price)
        table.add_row(w.name, w.family.value, w.mount.value, w.range.value, w.to_hit_text,
                      str(w.heat), price)
    special = [(w.name, w.special) for w in catalog.weapons if w.special]
    return Group(table, _notes("Special rules", special)) if special else Group(table)


# ---- systems ---------------------------------------------------------------------------

def systems_table(catalog: Catalog) -> Group:
    """One line a system (name, price, slots, sizes), then each effect under its name."""
    table = _table("Systems", "System", "Price", "Slots", "Sizes")
    for s in catalog.systems:
        table.add_row(s.name, s.price_text, str(s.slots), s.sizes_text)
    return Group(table, _notes("Effects", ((s.name, s.effect) for s in catalog.systems)))


# ---- designs ---------------------------------------------------------------------------

def designs_table(reports: list[DesignReport]) -> Table:
    table = _table("Stock Meks", "Mek", "Size", "Price", "Computed", "Weapons", "Systems")
    for r in reports:
        computed = str(r.price)
        if r.design.price is not None and r.design.price != r.price:
            computed = f"[yellow]{r.price}[/yellow]"
        table.add_row(r.design.name, r.design.size.value, str(r.purchase_price()), computed,
                      grouped(r.design.weapons), grouped(r.design.systems))
    return table


def design_problems(report: DesignReport) -> str:
    """Every problem of an illegal design, one to a line, with the rule it breaks."""
    n = len(report.problems)
    head = f"{report.design.name} breaks the construction rules ({n} problem{'s' * (n != 1)}):"
    return "\n".join([head, *(f"  - {p.message} [{p.rule.value}]" for p in report.problems)])


def check_table(reports: list[DesignReport]) -> Table:
    table = _table("Printed and computed prices", "Mek", "Legal", "Printed", "Computed",
                   "Difference")
    for r in reports:
        diff = r.price - (r.design.price or r.price)
        table.add_row(
            r.design.name,
            "yes" if r.legal else "[red]no[/red]",
            str(r.design.price),
            str(r.price),
            "-" if diff == 0 else f"[yellow]{diff:+d}[/yellow]",
        )
    return table


def check_summary(reports: list[DesignReport]) -> Text:
    differing = [r for r in reports if r.design.price is not None and r.design.price != r.price]
    illegal = [r for r in reports if not r.legal]
    lines = []
    if not differing:
        lines.append("Every printed price matches its parts.")
    for r in differing:
        lines.append(
            f"{r.design.name}: printed {r.design.price}, parts add up to {r.price}. "
            f"Purchases use the printed price unless the 'pricing: computed' house rule is on."
        )
    for r in illegal:
        lines.append(f"{r.design.name} breaks the construction rules: "
                     + "; ".join(p.message for p in r.problems))
    return Text("\n".join(lines))


def design_report(report: DesignReport) -> RenderableType:
    design = report.design
    parts = Table(box=box.SIMPLE, show_header=True, expand=False)
    parts.add_column("Part")
    parts.add_column("Price", justify="right")
    for p in report.parts:
        parts.add_row(p.name, str(p.price))
    parts.add_row("[bold]Total[/bold]", f"[bold]{report.price}[/bold]")
    usage = Text(
        f"Massive mounts {report.massive}   Huge mounts {report.huge}   "
        f"CIWS pairs {report.ciws_pairs}   other small weapons {report.other_small}   "
        f"system slots {report.slots}"
    )
    if report.legal:
        price = f"Legal. Price {report.purchase_price()} points"
        if design.price is not None and design.price != report.price:
            price += f" as printed; its parts add up to {report.price}"
        verdict = Text(price + ".", style="green")
        body: list[RenderableType] = [parts, usage, verdict]
    else:
        body = [parts, usage, Text("Not legal.", style="red")]
    return Panel(Group(*body), title=f"{design.name} ({design.size.value})",
                 title_align="left", expand=False)


# ---- skills and support ----------------------------------------------------------------

def skills_table(catalog: Catalog) -> Table:
    table = _table("Pilot skills", "Skill", "Effect")
    for s in catalog.skills:
        table.add_row(s.name, s.effect)
    return table


def _unit_text(entry: SupportEntry) -> str:
    return entry.unit.describe() if entry.unit is not None else ""


def support_tables(catalog: Catalog) -> list[Table]:
    tables = []
    for t in catalog.support:
        table = _table(f"Support table {t.table} (first die {t.low}-{t.high})", "Roll",
                       "Result", "Kind", "Effect")
        for e in t.entries:
            effect = e.effect + (f" ({_unit_text(e)})" if e.unit else "")
            table.add_row(str(e.roll), e.name, e.kind.value, effect)
        tables.append(table)
    return tables


# ---- one item --------------------------------------------------------------------------

def _facts(rows: list[tuple[str, str]]) -> Table:
    table = Table(box=None, show_header=False, expand=False, padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    for key, value in rows:
        table.add_row(key, value)
    return table


def item_panel(item: object, catalog: Catalog) -> RenderableType:
    if isinstance(item, Design):
        return design_report(check_design(item, catalog))
    rows: list[tuple[str, str]]
    if isinstance(item, Chassis):
        title = f"{item.size.value} chassis"
        rows = [("Hits", str(item.hits)), ("Armor save", f"{item.armor}+"),
                ("Heat rating", str(item.heat)), ("Movement", str(item.move)),
                ("Massive mounts", str(item.mounts.massive)),
                ("Huge mounts", str(item.mounts.huge)), ("System slots", str(item.slots)),
                ("Price", str(item.price))]
    elif isinstance(item, Weapon):
        title = f"{item.name} (weapon)"
        rows = [("Family", item.family.value), ("Mount", item.mount.value),
                ("Range", item.range.value), ("To hit", item.to_hit_text),
                ("Heat", str(item.heat)),
                ("Price", f"{item.price} per pair" if item.price_per == "pair"
                 else str(item.price)),
                ("Special", item.special or "-")]
    elif isinstance(item, System):
        title = f"{item.name} (system)"
        by_size = ", ".join(f"{c.size.value} {item.price_for(c)}" for c in catalog.chassis
                            if item.allows(c.size))
        rows = [("Price", item.price_text), ("Price by size", by_size),
                ("Slots", str(item.slots)), ("Sizes", item.sizes_text),
                ("Category", item.category.value), ("Effect", item.effect)]
    elif isinstance(item, Skill):
        title = f"{item.name} (skill)"
        rows = [("Effect", item.effect)]
    elif isinstance(item, SupportEntry):
        title = f"{item.name} (support)"
        table = next(t for t in catalog.support if item in t.entries)
        rows = [("Roll", f"table {table.table}, entry {item.roll}"), ("Kind", item.kind.value),
                ("Effect", item.effect)]
        if item.unit:
            rows.append(("Unit", _unit_text(item)))
    else:  # pragma: no cover - find_any returns only the kinds above
        raise TypeError(type(item).__name__)
    return Panel(_facts(rows), title=title, title_align="left", expand=False)
