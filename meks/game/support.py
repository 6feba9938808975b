"""Support rolls (docs/rules.md section 4): one die picks the table, a second the entry."""

from __future__ import annotations

from dataclasses import dataclass

from meks.game.catalog import Catalog, SupportEntry, SupportTable
from meks.game.dice import Dice

RICH_UNCLE = "Rich Uncle"


@dataclass(frozen=True)
class SupportResult:
    table_die: int
    entry_die: int
    table: SupportTable
    entry: SupportEntry
    points: int = 0  # Rich Uncle: extra muster points (R4.2)


def roll_support(dice: Dice, catalog: Catalog) -> SupportResult:
    """One support roll (R4.1); Rich Uncle rolls its extra points at once (R4.2)."""
    table_die = dice.d6("support table")
    table = next(t for t in catalog.support if t.low <= table_die <= t.high)
    entry_die = dice.d6(f"support table {table.table} entry")
    entry = table.entry(entry_die)
    points = dice.d6("Rich Uncle points") if entry.name == RICH_UNCLE else 0
    return SupportResult(table_die, entry_die, table, entry, points)
