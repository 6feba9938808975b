"""Infantry (R4.4, R6.11): kills rolls against infantry, infantry attacks, morale after
losses, and squads dismounting from their APCs."""

from __future__ import annotations

from meks.engine.board import DEFENDER, Board
from meks.engine.damage import damage
from meks.engine.log import Kind
from meks.engine.units import Unit, strongpoint
from meks.game import shots
from meks.game.catalog import Weapon
from meks.game.rules import GUNNERY_MODIFIER
from meks.game.shots import KillsRoll, infantry_hits, kills_roll
from meks.game.vocabulary import Side


def describe_kills_roll(b: Board, weapon: Weapon, target: Unit,
                        gunnery: bool = False) -> KillsRoll:
    """R6.11: the kills roll of ``weapon`` against infantry ``target`` (``gunnery``: a
    Gunnery second shot, whose -2 falls on the roll)."""
    return kills_roll(weapon, b.terrain_to_hit(target.zone or 5),
                      GUNNERY_MODIFIER if gunnery else 0)


def infantry_kills(b: Board, unit: Unit | None, weapon: Weapon, target: Unit,
                   gunnery: bool = False) -> None:
    """R6.11: no to-hit roll against infantry; a kills roll, terrain applying."""
    check = describe_kills_roll(b, weapon, target, gunnery)
    terrain = check.modifier
    who = unit.name if unit is not None else "Support"
    rolled, kills = check.roll(b, f"{who}'s {weapon.name} kills" if check.small
                               else f"{who}'s {weapon.name} against {target.name}")
    target.detected = True
    if kills:
        target.infantry_kills += kills
        target.losses_this_combat = True
    b.note(Kind.KILLS, f"{who}'s {weapon.name} against {target.name}: {rolled}"
           f"{terrain:+d} - {kills} kill{'s' * (kills != 1)} ({target.infantry_kills} "
           "in all).", unit, target, rolled)


def infantry_attack(b: Board, unit: Unit, target: Unit) -> None:
    """R6.11: infantry hit on a roll under the target's AR, no save; attacking reveals
    them."""
    unit.detected = True
    roll = b.d6(f"{unit.name} attacks {target.name}")
    hit = infantry_hits(roll, target.armor)
    b.note(Kind.HIT if hit else Kind.MISS, f"{unit.name} attack {target.name}: {roll} "
           f"vs under {target.armor} - {'hit' if hit else 'miss'}.", unit, target, roll)
    if hit:
        damage(b, target, 1, unit, None)


def morale(b: Board, unit: Unit) -> None:
    """R6.11: after losses, a roll greater than the total kills holds; else it routs."""
    roll, holds = shots.morale(unit.infantry_kills).roll(b, f"morale of {unit.name}")
    unit.losses_this_combat = False
    b.note(Kind.MORALE, f"{unit.name} morale {roll} vs {unit.infantry_kills} kills: "
           + ("they hold." if holds else "they break and run."), unit, value=roll)
    if not holds:
        unit.destroyed_turn = b.turn


def dismount(b: Board, side: Side, zone: int) -> None:
    """R4.4: an APC's squad may dismount as an Infantry Strongpoint in its zone."""
    for apc in b.units:  # (a squad that joins is looked at too, and carries nobody)
        if apc.carries_infantry and apc.zone == zone and apc.side is side \
                and apc.destroyed_turn is None and apc.exited_turn is None and apc.arrived \
                and apc.can_act and ask_dismount(b, apc):
            apc.carries_infantry = False
            squad = strongpoint(f"{apc.id}i", side, zone)
            b.secret = True
            squad.name = f"{apc.name}'s squad"
            b.units.append(squad)
            b.note(Kind.SUPPORT, f"{squad.name} dismounts in zone {zone}.", squad)


def ask_dismount(b: Board, apc: Unit) -> bool:
    answer = b.asked[apc.side].dismount(b.sight.views[apc.side is DEFENDER], apc)
    if not isinstance(answer, bool):
        raise b.refuse(apc.side, "dismount", answer)
    return answer
