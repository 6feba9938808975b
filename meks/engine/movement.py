"""Movement (R5.2-R5.4, R6.2-R6.3): the movement phases and the second movement, the orders
and what entering a zone does (minefields), reinforcements arriving; in a zone combat, the
movement rolls and the range step (closing, opening, doubling terrain, breaking contact and
withdrawing)."""

from __future__ import annotations

from collections.abc import Callable

from meks.engine.board import ATTACKER, DEFENDER, Board, Engagement, among, title
from meks.engine.damage import add_heat, damage, settle
from meks.engine.decisions import BANDS, RangeChoice, band_after
from meks.engine.infantry import dismount
from meks.engine.inputs import movement_roll_of
from meks.engine.log import Kind
from meks.engine.units import Unit
from meks.game.catalog import Band
from meks.game.rules import (
    JUMP_HEAT,
    MINEFIELD,
    MINEFIELD_HITS,
    SECOND_MOVE_HEAT,
    MovementRoll,
    arrival,
)
from meks.game.vocabulary import BreakContact, Edge, Side, UnitKind


def movement_phase(b: Board, side: Side) -> None:
    arrivals(b, side)
    orders = b.asked[side].movement(b.sight.views[side is DEFENDER], side)
    units = b.side_units(side)  # moving adds no unit; only dismounting does
    if orders:
        give_orders(b, side, "movement", orders, units, second=False)
    for unit in units:
        # R5.4/R6.3: contact broken before this movement let units leave in it; that
        # was their next movement, so from now on they are held again.
        unit.may_leave = None
    # R4.4: a squad may get out wherever its APC stands, not only when a combat starts.
    for zone in sorted({u.zone for u in units
                        if u.carries_infantry and u.on_map and u.zone is not None}):
        dismount(b, side, zone)


def give_orders(b: Board, side: Side, decision: str, orders: object, units: list[Unit],
                second: bool) -> None:
    """Carry out a movement's orders. Each must name one of the side's units and one of
    its legal moves (the view's ``move_options``); anything else is refused."""
    if not isinstance(orders, dict):
        raise b.refuse(side, decision, orders)
    given = 0
    for unit in units:
        if unit.id in orders:
            given += 1
            where = orders[unit.id]
            if second:
                unit.moved = False
            if where is not None and not order_move(b, unit, where, second):
                raise b.refuse(side, decision, {unit.id: where},
                               f"{unit.name} cannot make that move now")
    if given != len(orders):
        ids = {u.id for u in units}
        stray = next(uid for uid in orders if uid not in ids)
        raise b.refuse(side, decision, {stray: orders[stray]},
                       f"{stray!r} is none of its units")


def can_leave(b: Board, unit: Unit) -> bool:
    """R5.4: a unit may not leave a zone holding enemies (that its side can see, R8.1)
    unless its side broke contact there this turn."""
    assert unit.zone is not None
    if unit.may_leave == unit.zone:
        return True
    if b.secret:
        return not b.sight.views[unit.side is DEFENDER].enemies_in(unit.zone, unit.side)
    return not b.enemies_in(unit.zone, unit.side)


def order_move(b: Board, unit: Unit, where: int | Edge | str | None, second: bool) -> bool:
    if where is None or not unit.on_map or not unit.mobile or not unit.can_act \
            or unit.moved or unit.zone is None:
        return False
    if where == "dig":
        if "Digging In" in b.assets[unit.side] and unit.is_mek and not second:
            b.spend(unit.side, "Digging In")
            unit.dug_in_zone = unit.zone
            unit.moved = True
            b.note(Kind.SUPPORT, f"{unit.name} digs in in zone {unit.zone}.", unit)
            return True
        return False
    if not can_leave(b, unit):
        return False
    if isinstance(where, Edge):
        # R5.4 forbids only entering enemies in the second movement, so a unit may leave
        # the map then too.
        exits = [r for r in b.scenario.side(unit.side).exits if r.edge is where]
        if not any(unit.zone in r.zones for r in exits):
            return False
        unit.exited_turn, unit.exit_edge, unit.exit_zone = b.turn, where, unit.zone
        unit.moved = True
        b.note(Kind.EXIT, f"{unit.name} leaves the map across the {where.value} edge "
               f"from zone {unit.zone}.", unit)
        return True
    if type(where) is not int or where not in b.adjacency[unit.zone]:
        return False
    if second and b.sight.views[unit.side is DEFENDER].enemies_in(where, unit.side):
        return False  # (enemies its side can see: R8.1)
    origin = unit.zone
    unit.zone = where
    unit.moved = True
    if unit.hidden:  # R4.3: a hidden Mek is revealed when it moves
        unit.hidden = False
        b.note(Kind.NOTE, f"{unit.name} leaves its hiding place.", unit)
    if unit.dug_in_zone is not None and unit.dug_in_zone != where:
        unit.dug_in_zone = None
    if second and unit.is_mek:
        unit.carried_heat += SECOND_MOVE_HEAT
    b.note(Kind.MOVE, (_move_words, unit.name, origin, where, second and unit.is_mek), unit,
           value=where)
    minefield(b, unit)
    return True


def minefield(b: Board, unit: Unit) -> None:
    """R4.3: each enemy Mek entering a mined zone takes 1 hit on a 3+; two minefields
    laid in one zone roll one after the other (a destroyed Mek rolls no more)."""
    if not unit.is_mek or unit.decoy:
        return
    for zone in b.mines[unit.side.enemy]:
        if unit.zone != zone or not unit.alive:
            continue
        roll, hit = MINEFIELD.roll(b, f"minefield against {unit.name}")
        if hit:
            b.note(Kind.MINE, f"{unit.name} hits a mine ({roll}).", unit, value=roll)
            damage(b, unit, MINEFIELD_HITS, None, None)
            settle(b, [unit])
        else:
            b.note(Kind.MINE, f"{unit.name} crosses the minefield unharmed ({roll}).",
                   unit, value=roll)


def arrivals(b: Board, side: Side) -> None:
    """Reinforcements (R7.2, Citadel): each waiting unit rolls to arrive this turn."""
    plan = b.scenario.side(side).reinforcements
    if plan is None:
        return
    need = plan.schedule.get(b.turn)
    if need is None:
        return
    for unit in b.side_units(side):
        if unit.arrived or not unit.alive or not unit.mobile:
            continue
        if need != "all":
            roll, arrives = arrival(int(need)).roll(b, f"arrival of {unit.name}")
            if not arrives:
                b.note(Kind.ARRIVE, f"{unit.name} does not arrive yet ({roll}, needs "
                       f"{need}+).", unit, value=roll)
                continue
        if plan.zone_choice.value == "random":
            zone = plan.zones[b.choose_index(len(plan.zones),
                                             f"arrival zone of {unit.name}")]
        else:
            zone = b.asked[side].arrival_zone(b.sight.views[side is DEFENDER], unit,
                                              list(plan.zones))
            if among(zone, plan.zones) < 0:
                raise b.refuse(side, "arrival_zone", zone)
        unit.arrived, unit.zone, unit.moved = True, zone, True
        b.note(Kind.ARRIVE, f"{unit.name} arrives in zone {zone}.", unit, value=zone)
        minefield(b, unit)


def second_movement(b: Board, side: Side) -> None:
    """R5.2/R5.4: the initiative winner may move again, never into enemies; each Mek
    that does starts next turn with 2 heat."""
    orders = b.asked[side].second_move(b.sight.views[side is DEFENDER], side)
    if orders:
        give_orders(b, side, "second_move", orders, b.side_units(side), second=True)


def side_movement(b: Board, side: Side, zone: int) -> int:
    """R6.2: the side's result is its best unit's movement roll."""
    best = 0
    for unit in b.actors(zone, side):
        if not unit.mobile and unit.kind is not UnitKind.INFANTRY:
            continue
        roll = movement_roll(b, unit)
        if roll > best:
            best = roll
    return best


def movement_roll(b: Board, unit: Unit) -> int:
    """R6.2: chassis dice plus terrain, pilot level, Maneuver, Chassis Familiarity,
    Servo Boosters and Jump Jets, less Leg Damage."""
    assert unit.zone is not None
    parts = []
    jump = unit.has_system("Jump Jets") and ask_jump(b, unit)
    if jump:
        add_heat(b, unit, JUMP_HEAT, "jump jets")
        parts.append("jump jets")
    check = describe_movement_roll(b, unit, jump)
    rolled, total = check.roll(b, f"movement roll of {unit.name}")
    mods = check.modifiers
    unit.move_roll = total
    b.note(Kind.MOVEMENT_ROLL, (_roll_words, unit.name, rolled, total, parts, mods), unit,
           value=total)
    return total


def _roll_words(name: str, rolled: int, total: int, parts: list[str],
                mods: list[tuple[int, str]]) -> str:
    listed = f" [{', '.join(f'{what} {m:+d}' for m, what in mods)}]" if mods else ""
    return (f"{name} movement roll {rolled} -> {total}"
            + (f" ({', '.join(parts)})" if parts else "") + listed + ".")


def _move_words(name: str, origin: int, where: int, second: bool) -> str:
    return (f"{name} moves from zone {origin} to zone {where}"
            + (f" (second movement, +{SECOND_MOVE_HEAT} heat next turn)" if second else "")
            + ".")


def _range_words(winner: Side, high: int, low: int, band: Band, zone: int) -> str:
    return (f"{title(winner)} wins the movement roll {high} to {low}: range {band.value} "
            f"in zone {zone}.")


def _choice_words(choice: RangeChoice, zone: int) -> str:
    return f"{choice.value} in zone {zone}"


def describe_movement_roll(b: Board, unit: Unit, jump: bool = False,
                           has: Callable[[str], bool] | None = None,
                           ignore_terrain: bool = False) -> MovementRoll:
    """R6.2: the unit's movement roll (``jump``: with its Jump Jets; ``has``: whether it
    has a working system of a name, by default ``unit.has_system``), gathered by
    ``meks.engine.inputs``."""
    terrain = b.terrain_at[unit.zone or 5]
    return movement_roll_of(unit, terrain.move, terrain.name, jump=jump,
                            ignore_terrain=ignore_terrain, has=has)


def ask_jump(b: Board, unit: Unit) -> bool:
    answer = b.asked[unit.side].jump(b.sight.views[unit.side is DEFENDER], unit)
    if not isinstance(answer, bool):
        raise b.refuse(unit.side, "jump", answer)
    return answer


def movement_modifiers(b: Board, unit: Unit, ignore_terrain: bool) -> list[tuple[int, str]]:
    """R6.2: what a movement roll adds to its dice, each named (those that add nothing
    left out)."""
    return describe_movement_roll(b, unit, ignore_terrain=ignore_terrain).modifiers


def range_step(b: Board, eng: Engagement, rolls: dict[Side, int]) -> bool:
    """R6.3: the strictly higher roll may shift the band, break contact at Long, or with
    more than twice the other's roll shift two bands or double terrain. Returns whether
    contact was broken."""
    a, d = rolls[ATTACKER], rolls[DEFENDER]
    if a == d:
        b.note(Kind.RANGE, f"Movement rolls tie ({a}); the range stays "
               f"{eng.band.value}.")
        return False
    winner, high, low = (ATTACKER, a, d) if a > d else (DEFENDER, d, a)
    index = BANDS.index(eng.band)
    options = [RangeChoice.STAY]
    if index > 0:
        options.append(RangeChoice.CLOSE)
    if index < 2:
        options.append(RangeChoice.OPEN)
    if eng.band is Band.LONG and (b.house.break_contact is BreakContact.STAY
                                  or withdrawal_zones(b, eng.zone, winner)):
        options.append(RangeChoice.BREAK)
    if high > 2 * low:
        if index > 1:
            options.append(RangeChoice.CLOSE_TWO)
        if index < 1:
            options.append(RangeChoice.OPEN_TWO)
        options.append(RangeChoice.DOUBLE)
    view = b.sight.views[winner is DEFENDER]
    choice = b.asked[winner].range_choice(view, eng.zone, winner, list(options))
    if among(choice, options) < 0:
        raise b.refuse(winner, "range_choice", choice)
    b.decided(winner, (_choice_words, choice, eng.zone))
    eng.band = band_after(eng.band, choice)
    if choice is RangeChoice.BREAK:
        if b.house.break_contact is BreakContact.STAY:
            for unit in b.in_zone(eng.zone, winner):
                unit.may_leave = eng.zone
            b.note(Kind.BREAK, f"The {winner.value} breaks contact in zone {eng.zone}; "
                   "no one fires there this turn.")
        else:
            b.note(Kind.BREAK, f"The {winner.value} breaks contact in zone {eng.zone} "
                   "and pulls out.")
            withdraw(b, winner, eng.zone)
        return True
    if choice is RangeChoice.DOUBLE:
        eng.doubled, eng.doubled_turn = winner, b.turn
    b.note(Kind.RANGE, (_range_words, winner, high, low, eng.band, eng.zone), value=high)
    return False


def withdrawal_zones(b: Board, zone: int, side: Side) -> list[tuple[Unit, list[int]]]:
    """R6.3: the ``side``'s units in ``zone`` that could withdraw on breaking contact
    there, each with the adjacent zones it may withdraw into (none holding an enemy unit
    the side can see, R8.1): units on the map that can move and act, not hidden (a
    hidden unit is not in the fight) and not a decoy (a false contact goes nowhere)."""
    out: list[tuple[Unit, list[int]]] = []
    view = b.sight.views[side is DEFENDER]
    for unit in b.in_zone(zone, side):
        if unit.mobile and unit.can_act and not unit.hidden and not unit.decoy:
            zones = [z for z in b.adjacency[zone] if not view.enemies_in(z, side)]
            if zones:
                out.append((unit, zones))
    return out


def withdraw(b: Board, side: Side, zone: int) -> None:
    """R6.3: having broken contact in ``zone``, each of the side's units there that can
    withdraws at once into an adjacent zone free of enemies, its controller choosing
    which. It counts as the unit's move this phase (it enters minefields, leaves a
    dug-in position); units that cannot withdraw stay."""
    controller = b.asked[side]
    view = b.sight.views[side is DEFENDER]
    for unit, zones in withdrawal_zones(b, zone, side):
        where = controller.withdraw(view, unit, list(zones))
        if among(where, zones) < 0:
            raise b.refuse(side, "withdraw", where)
        unit.zone = where
        unit.moved = True
        if unit.dug_in_zone is not None:
            unit.dug_in_zone = None
        b.note(Kind.MOVE, f"{unit.name} withdraws from zone {zone} to zone {where}.",
               unit, value=where)
        minefield(b, unit)
