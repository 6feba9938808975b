"""What ``meks battle play`` shows: the 3x3 map, the weapons in range at each band, and the
odds of a shot (chance to hit, expected hits after the save, overheat risk).

Everything here reads the player's side's ``SideView`` (R8.1): enemy units the side has not
detected are not there, and an enemy Decoy shows as the Mek it passes for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from meks.engine.answers import strength
from meks.engine.decisions import OVERRUN_RATIO
from meks.engine.values import SlotView, UnitView
from meks.game.catalog import Band
from meks.game.rules import ONE_FLOAT
from meks.game.shots import armor_save
from meks.game.vocabulary import Side

if TYPE_CHECKING:
    from rich.console import RenderableType

    from meks.engine.view import SideView


def unit_label(battle: SideView, unit: UnitView) -> str:
    """A unit as prompts name it: the side's label for it (its own units' ids, its own
    contact numbers for the enemy's, R8.1), name and design (the side's own decoy as one)."""
    if unit.decoy:
        return f"{unit.id} decoy"
    design = f" ({unit.design})" if unit.design and \
        unit.design.casefold() not in unit.name.casefold() else ""
    return f"{battle.label(unit)} {unit.name}{design}"


def retreat_line(battle: SideView, side: Side) -> str:
    """The strengths an overrun compares (R6.13), as the side sees them."""
    ours = strength(battle.side_units(side))
    theirs = strength(battle.side_units(side.enemy))
    return (f"Hits left to your Meks and vehicles on the map: {ours}; to the enemy's you "
            f"know of: {theirs} (an overrun needs {OVERRUN_RATIO} times theirs, once the "
            "sides have fought).")


def rating_of(battle: SideView, unit: UnitView) -> int:
    """The unit's heat rating where it stands (R6.10: Moors add one)."""
    terrain = battle.catalog.terrain_named(battle.terrain_name(unit.zone or 5))
    return unit.heat_rating(terrain.heat > 0)


def heat_line(battle: SideView, unit: UnitView) -> str:
    if unit.vehicle or unit.pilot is None:
        return "no heat to worry about"
    return f"heat now {unit.heat}/{rating_of(battle, unit)}"


@dataclass(frozen=True)
class Odds:
    chance: float  # to hit with one die (after a Twin Laser's re-roll), or to kill
    expected: float  # hits after the target's armor save (kills against infantry)
    text: str


def shot_odds(battle: SideView, unit: UnitView, slot: SlotView, target: UnitView, band: Band,
              gunnery: bool = False, single: bool = True, **spent: bool) -> Odds | None:
    """The odds of one firing of ``slot`` at ``target`` (``gunnery``: a Gunnery second
    shot; ``spent``: ``family_skill``/``spoof`` False when a shot fired before it uses them
    up), or None when it cannot fire at this band. The checks are the engine's own
    (``SideView.to_hit``, the armor save, the kills roll); describing them uses up nothing."""
    weapon = slot.weapon
    if target.is_infantry:
        if weapon.to_hit_at(band) is None and not (weapon.is_small and band is Band.SHORT):
            return None
        return _kills_odds(battle, slot, target, gunnery)
    if weapon.is_small or weapon.to_hit_at(band) is None:
        return None
    check = battle.to_hit(unit, weapon, target, band, gunnery, single, **spent)
    chance = check.chance()
    expected = check.dice * chance * armor_save(target.armor, weapon,
                                                target.has_system).chance()
    notes = check.notes
    text = f"{check.need}+ {check.modifier:+d}" + (f" [{', '.join(notes)}]" if notes else "") \
        + f": {chance:.0%} to hit" + (f" with each of {check.dice} dice" if check.dice > 1
                                      else "") + f", {expected:.2f} hits after the save"
    return Odds(chance, expected, text)


def _kills_odds(battle: SideView, slot: SlotView, target: UnitView, gunnery: bool) -> Odds:
    """R6.11: no to-hit roll against infantry; the kills roll, terrain applying."""
    check = battle.describe_kills_roll(slot.weapon, target, gunnery)
    expected = float(check.expected(ONE_FLOAT))
    chance = float(check.at_least(1, ONE_FLOAT))
    return Odds(chance, expected, f"kills roll {check.modifier:+d}: {chance:.0%} to kill, "
                f"{expected:.2f} kills expected")


def _weapons_at(battle: SideView, units: list[UnitView], band: Band) -> str:
    parts = []
    for unit in units:
        names = []
        for slot in unit.live_weapons():
            need = slot.weapon.to_hit_at(band)
            if need is not None:
                names.append(f"{slot.name} {need}+")
            elif slot.weapon.is_small and band is Band.SHORT:
                names.append(f"{slot.name} (infantry)")
        if names:
            parts.append(f"{battle.label(unit)}: " + ", ".join(names))
    return "\n".join(parts) or "-"


def band_table(battle: SideView, zone: int, side: Side) -> RenderableType:
    """Each band, and the weapons of each side in the zone that reach it (to-hit numbers)."""
    from rich.table import Table

    from meks.engine.decisions import BANDS

    mine = [u for u in battle.in_zone(zone, side) if not u.decoy]
    theirs = [u for u in battle.visible_in(zone, side.enemy) if not u.decoy]
    table = Table(show_lines=True, padding=(0, 1))
    table.add_column("Band")
    table.add_column("Your weapons in range")
    table.add_column("Enemy weapons in range")
    now = battle.band_of(zone)
    for band in BANDS:
        table.add_row(band.value + (" (now)" if band is now else ""),
                      _weapons_at(battle, mine, band), _weapons_at(battle, theirs, band))
    return table


def _unit_line(battle: SideView, unit: UnitView, viewer: Side) -> str:
    mine = unit.side is viewer
    if unit.decoy and mine:
        return f"{unit.id} decoy (shows as {unit.name})"
    text = f"{battle.label(unit)} {unit.name} {unit.hits}/{unit.max_hits}"
    flags = []
    lost = [s.name for s in unit.weapons if s.destroyed]
    if lost:
        flags.append("lost " + ", ".join(lost))
    if unit.doomed:
        flags.append("doomed")
    if unit.hidden:
        flags.append("hidden")
    if unit.dug_in_zone == unit.zone:
        flags.append("dug in")
    if unit.wounded:
        flags.append("wounded")
    if unit.legs:
        flags.append(f"legs -{unit.legs}")
    if unit.carried_heat or unit.heat:
        flags.append(f"heat {unit.heat or unit.carried_heat}")
    if unit.is_infantry and unit.infantry_kills:
        flags.append(f"{unit.infantry_kills} kills taken")
    return text + (f" ({'; '.join(flags)})" if flags else "")


def battle_map(battle: SideView, viewer: Side, over: bool = False) -> RenderableType:
    """The 3x3 map, north at the top: each zone's number and terrain, any combat there and
    its range band, and the units in it (id, name, hits taken/max, losses): what the
    viewer's side knows (its view)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    letter = "A" if viewer is Side.ATTACKER else "D"
    when = f"The end, after turn {battle.turn}" if over else \
        f"Turn {battle.turn}" if battle.turn else "Set-up"
    title = (f"{when} - you are the {viewer.value} ({letter} units; the enemy's are C1, C2, ... "
             "in the order you met them); north is up")
    table = Table(show_header=False, show_lines=True, expand=True, padding=(0, 1))
    for _ in range(3):
        table.add_column(ratio=1)
    for row in range(3):
        cells = []
        for zone in range(row * 3 + 1, row * 3 + 4):
            lines = [f"{zone} {battle.terrain_name(zone)}"]
            if zone in battle.combat_zones():
                lines.append(f"combat at {battle.band_of(zone).value} range")
            laid = battle.mines.count(zone)
            if laid:
                lines.append("your minefield" if laid == 1 else f"your {laid} minefields")
            for unit in battle.in_zone(zone):
                lines.append(_unit_line(battle, unit, viewer))
            cells.append(Text("\n".join(lines)))
        table.add_row(*cells)
    off = []
    for unit in battle.units:
        if unit.decoy or (unit.on_map and unit.zone is not None):
            continue
        if unit.destroyed_turn is not None:
            state = f"destroyed (turn {unit.destroyed_turn})"
        elif unit.exited_turn is not None:
            state = f"left the map ({unit.exit_edge.value if unit.exit_edge else 'edge'})"
        elif not unit.arrived:
            state = "waiting to arrive"
        else:
            state = "not set up yet"
        off.append(f"  {battle.label(unit)} {unit.name} {unit.hits}/{unit.max_hits}: {state}")
    parts: list[RenderableType] = [Text(title), table]
    if off:
        parts.append(Text("Off the map:\n" + "\n".join(off)))
    return Group(*parts)


__all__ = ["Odds", "band_table", "battle_map", "heat_line", "rating_of",
           "shot_odds", "unit_label"]
