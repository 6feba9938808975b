"""The reveal after a battle (issue 26): what one side's enemy kept from it, and where.

While a battle is fought, each side is told only what it may know (R8.1). Once it is over,
``reveal`` says what was hidden from ``side``: the enemy's Hidden Mek (where it set up, and
its moves while hidden), which of the contacts the side saw was a decoy, where the enemy's
minefields lay, the enemy infantry the side never found, and every line of the log the side
could not read (each roll it did not see among them), marked as unseen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meks.engine.log import Kind, render
from meks.game.vocabulary import Side, UnitKind

if TYPE_CHECKING:
    from meks.engine.core import Battle


def reveal(battle: Battle, side: Side, unseen: bool = True) -> list[str]:
    """The lines of the reveal for ``side`` (``unseen``: the log lines it could not read
    too, each marked; else only how many there were)."""
    enemy = side.enemy
    log = battle.log
    private = battle.sight.private
    labels = battle.sight.labels[side]
    lines = [f"What the {enemy.value} kept from the {side.value}:"]
    said = 0
    for unit in battle.side_units(enemy):
        label = labels.get(unit.id)
        known_as = f" (your {label})" if label else ""
        if unit.decoy:
            cover = battle.sight.covers.get(unit.id)
            shown = cover.name if cover is not None else unit.name
            when = (f"found out on turn {unit.destroyed_turn}" if unit.destroyed_turn
                    is not None else "never found out")
            lines.append(f"  The contact {shown}{known_as} in zone {unit.setup_zone or unit.zone}"
                         f" was a decoy ({when}).")
            said += 1
            continue
        hid = any(i in private and e.kind is Kind.DECISION
                  and e.text.endswith(f"{unit.name} sets up hidden")
                  for i, e in enumerate(log) if private.get(i) is enemy)
        if hid:
            moves = [e.text for i, e in enumerate(log)
                     if e.unit == unit.id and e.kind in (Kind.MOVE, Kind.EXIT)
                     and private.get(i) is enemy]
            came_out = next((e.turn for i, e in enumerate(log) if e.unit == unit.id
                             and private.get(i, side) is side and e.kind is not Kind.SETUP),
                            None)
            lines.append(f"  {unit.name} ({unit.design}){known_as} was hidden, set up in zone "
                         f"{unit.setup_zone}; "
                         + (f"seen from turn {came_out}" if came_out else "never seen")
                         + (f"; moves while hidden: {' '.join(moves)}" if moves else "")
                         + ".")
            said += 1
        elif unit.kind is UnitKind.INFANTRY and not unit.detected:
            where = f"zone {unit.zone}" if unit.zone is not None else "off the map"
            state = "destroyed" if unit.destroyed_turn is not None else "still there"
            # (a strongpoint under the name the side knew it by, not its unit id)
            known = battle.views[side].strongpoint_names().get(unit.id, unit.name)
            lines.append(f"  {known}, infantry, never found ({where}, {state}).")
            said += 1
    for zone in battle.mines[enemy]:
        lines.append(f"  A minefield lay in zone {zone}.")
        said += 1
    hidden_lines = [(i, e) for i, e in enumerate(log) if private.get(i, side) is not side]
    if not said and not hidden_lines:
        return [f"The {enemy.value} kept nothing from the {side.value}."]
    if unseen and hidden_lines:
        lines.append(f"  Log lines the {side.value} did not see ({len(hidden_lines)}):")
        for _, event in hidden_lines:
            for line in render([event], rolls=True):
                lines.append(f"  [unseen] {line.strip()}")
    elif hidden_lines:  # counted, not listed: a heading is never left with nothing under it
        count = f"{len(hidden_lines)} line{'s' * (len(hidden_lines) != 1)} of the log"
        lines.append(f"  Also {count} the {side.value} did not see." if said else
                     f"  None of its units; only {count} the {side.value} did not see (its "
                     "own rolls and decisions).")
    return lines


__all__ = ["reveal"]
