"""Zone combat (R5.2, R6.0, R6.12): the contested zones fought in turn, each in rounds of
one exchange (support, the movement rolls and range, every unit's fire), and what happens as
a zone's combat ends (effects, destruction, morale, pilots bailing out)."""

from __future__ import annotations

from meks.engine.board import DEFENDER, NONE, Board, Engagement
from meks.engine.damage import destroy, take_effect, wounded_roll
from meks.engine.detection import choose_targets, commando_action, hawkeye, sensor_sweep
from meks.engine.fire import attack
from meks.engine.infantry import dismount, morale
from meks.engine.log import Kind
from meks.engine.movement import range_step, side_movement
from meks.engine.support import ambush, use_support
from meks.engine.units import Unit
from meks.game.catalog import Band
from meks.game.vocabulary import SIDES, Side

# What a unit's once-a-turn record keeps from one round of a zone combat to the next (R5.2):
# Hawkeye (used before the combats, once a turn) and the enemies it has tried to ID.
_KEPT_FOR_THE_TURN = frozenset({"Hawkeye"})
_IDS_KEPT = ("id:", "identified:")


def _round_words(number: int, zone: int, band: Band) -> str:
    return f"Round {number} in zone {zone} ({band.value} range)."


def combat_step(b: Board) -> None:
    """R5.2: every contested zone not yet fought this turn fights now (Advanced sensors
    and Hawkeye pilots look into the zones around them first)."""
    sensor_sweep(b)
    hawkeye(b)
    hidden = any(u.hidden for u in b.units)
    occupied = {u.zone for u in b.units if u.zone is not None and u.destroyed_turn is None
                and u.exited_turn is None and u.arrived}  # zones with units on the map
    for zone in sorted(occupied | set(b.engagements)):
        if hidden:
            reveal_hidden(b, zone)
        if not b.contested(zone):
            if zone in b.engagements and not b.contested(zone, hidden=True):
                del b.engagements[zone]
            continue
        if b.fought_in.get(zone) == b.turn:
            continue  # R5.2: at most one zone combat per zone a turn, even a new one
        zone_combat(b, zone)


def reveal_hidden(b: Board, zone: int) -> None:
    """R4.3: a side whose hidden Meks are alone with enemies in ``zone`` is asked whether
    to bring each out (``Board.alone_among_enemies``: from revision 14 on only enemies the
    side can see count, since a question asked for undetected infantry would tell of it)."""
    for side in SIDES:
        hidden = [u for u in b.in_zone(zone, side) if u.hidden]
        if hidden and b.alone_among_enemies(hidden[0]):
            for unit in hidden:
                answer = b.asked[side].reveal(b.sight.views[side is DEFENDER], unit)
                if not isinstance(answer, bool):
                    raise b.refuse(side, "reveal", answer)
                if answer:
                    unit.hidden = False
                    b.decided(side, f"{unit.name} comes out of hiding")


def zone_combat(b: Board, zone: int) -> None:
    """R5.2: the zone's combat, fought in rounds until one side has no unit there the
    other can see, a side breaks contact, or the scenario's cap on rounds is reached
    (``combat_rounds``; 1 is the earlier reading, one exchange a turn)."""
    eng = b.engagements.get(zone)
    if eng is None:
        eng = b.engagements[zone] = Engagement(zone)
        b.note(Kind.ENGAGE, f"Combat begins in zone {zone} "
               f"({b.terrain_name(zone)}) at Long range.", value=zone)
    eng.fought = b.fought_in[zone] = b.turn
    order = b.acting_order()
    cap = b.house.combat_rounds
    number = 0
    while number < cap:
        number += 1
        b.round = number
        if not combat_round(b, eng, order, number, cap):
            break
    b.round = 0


def combat_round(b: Board, eng: Engagement, order: list[Side], number: int, cap: int) -> bool:
    """One round of a zone combat (R5.2). Returns whether the combat goes on to another
    round: with a cap above 1, while the zone is still contested; heat fades as each
    round ends, for every unit that began it there (R6.10)."""
    if cap == 1:
        exchange(b, eng, order, number)
        return False
    eng.doubled = None  # R6.3: doubled terrain lasts the round it was chosen in
    begin_round(b, eng.zone, number)
    fighting = b.in_zone(eng.zone)
    fired = exchange(b, eng, order, number)
    for unit in fighting:
        unit.heat = 0
    return fired and b.contested(eng.zone)


def exchange(b: Board, eng: Engagement, order: list[Side], number: int) -> bool:
    """The steps of one exchange: support and dismounting, the movement rolls and the
    range, then every unit's fire, taking effect as it ends (R6.0). Returns whether the
    fire came (not when the zone stopped being contested, or contact was broken)."""
    zone = eng.zone
    supported = any(b.assets.values())  # assets are only ever used up
    for side in order:
        if supported:
            use_support(b, side, "combat", zone)
            if number == 1:  # R4.3: the Ambush strikes as a combat begins
                ambush(b, side, zone)
        dismount(b, side, zone)
    for unit in b.in_zone(zone):
        unit.fought = True
    if not b.contested(zone):
        end_combat(b, zone)
        return False
    rolls = {side: side_movement(b, side, zone) for side in SIDES}
    if range_step(b, eng, rolls):  # contact broken: the combat is over
        end_combat(b, zone)
        return False
    plans: list[tuple[Unit, list[Unit]]] = []
    for side in order:
        actors = b.actors(zone, side)
        if any(u.commando for u in actors):
            for unit in actors:
                commando_action(b, unit)
            actors = b.actors(zone, side)
        for unit in actors:
            if unit.commando:
                continue
            plans.append((unit, choose_targets(b, unit, eng.band)))
    for unit, targets in plans:
        if targets:
            attack(b, unit, targets, eng.band)
    end_combat(b, zone)
    return True


def begin_round(b: Board, zone: int, number: int) -> None:
    """R5.2: a round begins. What the zone-combat rules allow once a turn is allowed
    once a round: targets, each weapon's fire, once-a-turn skills, a dodge, detection
    rolls, the Commandos' mark (identifications hold for the turn, and so does
    Hawkeye, used before the combats). A wounded pilot rolls to act again from the
    second round on (the turn's own roll covers the first), and each unit's count of
    rounds moves on (Computers damage counts rounds, R6.9)."""
    b.note(Kind.ROUND, (_round_words, number, zone, b.band_of(zone)), value=number)
    b.marked = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
    for unit in b.in_zone(zone):
        unit.rounds += 1
        for slot in unit.weapons:
            slot.fired = 0
        unit.dodged = False
        unit.move_roll = 0
        if unit.turn_skills:
            unit.turn_skills = {k for k in unit.turn_skills if k in _KEPT_FOR_THE_TURN
                                or k.startswith(_IDS_KEPT)}
        if unit.wounded and number > 1:
            wounded_roll(b, unit)


def end_combat(b: Board, zone: int) -> None:
    """R6.0: critical effects and destruction take effect when the zone's combat ends;
    then infantry morale."""
    for unit in b.units:
        if unit.zone == zone and unit.alive:
            if unit.pending:
                take_effect(b, unit)
            if unit.doomed:
                destroy(b, unit)
            elif unit.is_infantry and unit.losses_this_combat:
                morale(b, unit)
    if b.house.bail_out:
        bail_outs(b, zone)
    if not b.contested(zone, hidden=True):
        b.engagements.pop(zone, None)


def bail_outs(b: Board, zone: int) -> None:
    """House rule bail_out (R6.12): as a zone's combat ends, each side (the initiative
    winner's first) may have the pilot of each of its Meks there in danger (one Hit from
    destruction, or a reactor that took a critical) eject. The Mek is lost; the pilot
    surely survives, and the unit that dealt it its last Hit gets the kill."""
    for side in b.acting_order():
        view = b.sight.views[side is DEFENDER]
        for uid in view.bail_out_options(zone):
            unit = b.unit(uid)
            answer = b.asked[side].bail_out(view, unit)
            if not isinstance(answer, bool):
                raise b.refuse(side, "bail_out", answer)
            if answer:
                bail_out(b, unit)


def bail_out(b: Board, unit: Unit) -> None:
    """R6.12: ``unit``'s pilot ejects: the Mek is lost, the pilot lives, and the unit
    that dealt it its last Hit, if any, gets the kill (R2.5)."""
    unit.bailed = True
    if unit.last_hit_by is not None:
        b.unit(unit.last_hit_by).mek_kills += 1
    unit.destroyed_turn = b.turn
    b.decided(unit.side, f"{unit.name}'s pilot bails out")
    b.note(Kind.DESTROYED, f"{unit.name} is abandoned: its pilot bails out and "
           "survives; the Mek is lost.", unit)
