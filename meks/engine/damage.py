"""What a hit does, and heat (R6.8-R6.10): the armor save, Hits and the unit doomed by the
last, the critical check and the critical table, effects that wait for the combat's end,
destruction; heat added by weapons, jump jets and dodging, and the overheat roll; a wounded
pilot's roll to act."""

from __future__ import annotations

from collections.abc import Iterable

from meks.engine.board import Board
from meks.engine.log import Kind
from meks.engine.units import Unit, WeaponSlot
from meks.game import criticals, shots
from meks.game.catalog import Weapon
from meks.game.criticals import (
    COMPUTERS,
    CRITICAL_TABLE,
    LEG_DAMAGED,
    PILOT_WOUNDED,
    REACTOR_CORE,
    SYSTEM_LOST,
    WEAPON_DESTROYED,
    WOUNDED_ACTS,
    CriticalCheck,
    wounded_acts,
)
from meks.game.shots import overheat_hits


def armor_save(b: Board, target: Unit, weapon: Weapon) -> bool:
    """R6.8: roll >= AR saves; Hammer -1, Space-Lam +1 against cannons; Reactive Armor
    re-rolls a failed save against missiles, BPC against lasers."""
    check = shots.armor_save(target.armor, weapon, target.has_system)
    roll, saved, again = check.roll(b, f"{target.name} armor save against "
                                    f"{weapon.name}", f"{target.name} armor save re-roll")
    b.note(Kind.SAVE, (_save_words, target.name, roll, check.modifier, target.armor, again,
                       saved), target, value=roll)
    return saved


def _save_words(name: str, roll: int, modifier: int, armor: int, again: bool,
                saved: bool) -> str:
    rerolled = " after a re-roll" if again else ""
    return (f"{name} armor save {roll}{modifier:+d} vs {armor}+{rerolled}: "
            f"{'saved' if saved else 'failed'}.")


def _damage_words(name: str, hits: int, max_hits: int) -> str:
    return f"{name} takes a hit ({hits}/{max_hits})."


def _check_words(name: str, roll: int, remaining: int, crit: bool) -> str:
    return (f"Critical check on {name}: {roll} vs {remaining} "
            f"remaining - {'critical!' if crit else 'no critical.'}")


def _destroyed_words(name: str, fate: str) -> str:
    return f"{name} is destroyed{' ' if fate.startswith('and') else ''}{fate}."


def _critical_words(name: str, table: str, roll: int, effect: str) -> str:
    return f"Critical on {name}: {table} ({roll}) - {effect}."


def damage(b: Board, target: Unit, hits: int, by: Unit | None, weapon: Weapon | None,
           checks: bool = True) -> None:
    """R6.9: each Hit; at Hits the unit is doomed (destroyed when its combat ends); a
    critical check after each Hit, the killing Hit included (with no Hits left it is
    always a critical: a Reactor Core that blows then kills the pilot, R2.6)."""
    if target.decoy:  # R4.3: attacks at a decoy are wasted
        b.note_for(target.side, Kind.NOTE, f"Nothing is at {target.name}: the attack is "
                   "wasted.", by, target)
        return
    for _ in range(hits):
        if target.doomed:
            return
        target.hits += 1
        if by is not None:
            target.last_hit_by = by.id
        b.note(Kind.DAMAGE, (_damage_words, target.name, target.hits, target.max_hits),
               target, by, target.hits)
        if target.hits >= target.max_hits:
            doom(b, target, by)
        if checks:
            critical_check(b, target, by, weapon)


def doom(b: Board, target: Unit, by: Unit | None) -> None:
    target.doomed = True
    if by is not None and target.is_mek and not target.decoy:
        by.mek_kills += 1  # R2.5: the pilot whose attack dealt the final hit


def critical_check(b: Board, target: Unit, by: Unit | None, weapon: Weapon | None) -> None:
    """R6.9: a critical when a roll beats the remaining Hits. Pinpoint Attack skips the
    check once a turn (not spent on a killing Hit, whose check cannot fail);
    Sharpshooter re-rolls one failed check a turn; a PPC at Long re-rolls a check that
    fails; Spaul Liner makes the critical roll again to stick."""
    remaining = target.remaining
    check = describe_critical_check(b, target, by, weapon)
    roll, crit, spent = check.roll(b, target.name)
    if by is not None:
        by.turn_skills.update(spent)
    if check.pinpoint:
        b.note(Kind.NOTE, f"{by.name if by else ''}'s pilot places the shot (Pinpoint "
               "Attack).", by)
    else:
        b.note(Kind.NOTE, (_check_words, target.name, roll, remaining, crit), target,
               value=roll)
    if crit and check.spaul:
        roll, crit = check.confirm(b, target.name)
        b.note(Kind.NOTE, f"{target.name}'s Spaul Liner "
               f"{'fails' if crit else 'holds'} ({roll}).", target, value=roll)
    if crit:
        critical(b, target, by)


def describe_critical_check(b: Board, target: Unit, by: Unit | None,
                            weapon: Weapon | None) -> CriticalCheck:
    """R6.9: the critical check after a Hit on ``target`` by ``by``'s ``weapon`` (using
    up nothing: rolling it does)."""
    pinpoint = sharpshooter = False
    if by is not None:
        pinpoint = by.skill("Pinpoint Attack") and "Pinpoint" not in by.turn_skills
        sharpshooter = by.skill("Sharpshooter") and "Sharpshooter" not in by.turn_skills
    return criticals.critical_check(target.remaining, pinpoint=pinpoint, sharpshooter=sharpshooter,
                                weapon=weapon, band=b.band_of(target.zone or 0),
                                spaul=target.has_system("Spaul Liner"))


def critical(b: Board, target: Unit, by: Unit | None) -> None:
    """R6.9: the critical table. R6.0: the effect is rolled now (a lost weapon or system
    chosen now too) but waits in ``pending`` for ``take_effect`` when the zone's combat
    ends, so that it takes no shot away in the exchange; a Reactor Core that blows dooms
    the unit at once, as a killing Hit does (a doomed unit still fires)."""
    target.crits_taken += 1
    if target.crits_taken == 1 and target.skill("Damage Control"):
        b.note(Kind.CRITICAL, f"{target.name}'s crew contains the damage (Damage "
               "Control).", target)
        return
    roll, result = CRITICAL_TABLE.roll(b, target.name)
    name = CRITICAL_TABLE.name(result)
    effect = ""
    if result == PILOT_WOUNDED:
        # R6.9: a support vehicle has no pilot; the wound falls on its crew, same effect.
        target.pending.append((PILOT_WOUNDED, 0))
        effect = (f"from next {'turn' if b.house.one_exchange else 'round'} on it acts "
                  f"only on {WOUNDED_ACTS.need}+")
    elif result == LEG_DAMAGED:
        target.pending.append((LEG_DAMAGED, 0))
        effect = (f"-{target.legs + sum(1 for r, _ in target.pending if r == LEG_DAMAGED)}"
                  " to movement")
    elif result == WEAPON_DESTROYED:
        lost_already = {i for r, i in target.pending if r == WEAPON_DESTROYED}
        live = [i for i, w in enumerate(target.weapons)
                if not w.destroyed and i not in lost_already]
        if live:
            index = live[b.choose_index(len(live), f"which weapon of {target.name}")]
            target.pending.append((WEAPON_DESTROYED, index))
            effect = f"{target.weapons[index].name} destroyed"
        else:
            effect = "no weapon left to lose"
    elif result == REACTOR_CORE:
        blast, explodes = CRITICAL_TABLE.reactor_roll(b, target.name)
        if explodes:
            effect = f"the reactor explodes ({blast})"
            target.exploded = True
            if not target.doomed:
                target.hits = target.max_hits
                doom(b, target, by)
        else:
            effect = f"the reactor holds ({blast})"
            target.reactor_scare = True
    elif result == COMPUTERS:
        target.computers_turns.add(b.clock(target) + 1)
        effect = "-1 to hit next turn" if b.house.one_exchange else \
            "-1 to hit next round"
    else:  # SYSTEM_LOST
        lost_already = {i for r, i in target.pending if r == SYSTEM_LOST}
        live_systems = [i for i, s in enumerate(target.systems) if not s.destroyed
                        and i not in lost_already and CRITICAL_TABLE.losable(s.system)]
        if live_systems:
            index = live_systems[b.choose_index(
                len(live_systems), f"which system of {target.name}")]
            target.pending.append((SYSTEM_LOST, index))
            effect = f"{target.systems[index].system.name} destroyed"
        else:
            effect = "no system left to lose"
    b.note(Kind.CRITICAL, (_critical_words, target.name, name, roll, effect), target, by,
           roll)


def take_effect(b: Board, unit: Unit) -> None:
    """R6.0: the critical effects rolled against ``unit`` take effect (at the end of the
    zone's combat, or at once for damage dealt outside an exchange)."""
    if unit.pending:
        b.settled(unit)
    for result, index in unit.pending:
        if result == PILOT_WOUNDED:
            unit.wounded = True
            if unit.pilot is not None:
                unit.pilot.wounded = True
        elif result == LEG_DAMAGED:
            unit.legs += 1
        elif result == WEAPON_DESTROYED:
            unit.weapons[index].destroyed = True
        elif result == SYSTEM_LOST:
            unit.systems[index].destroyed = True
    unit.pending.clear()


def settle(b: Board, units: Iterable[Unit]) -> None:
    """Damage dealt outside the simultaneous exchange takes effect now: critical effects,
    and doomed units are destroyed (R6.0)."""
    for unit in units:
        if unit.pending:
            take_effect(b, unit)
        if unit.doomed and unit.destroyed_turn is None:
            destroy(b, unit)


def destroy(b: Board, unit: Unit) -> None:
    unit.destroyed_turn = b.turn
    if unit.pilot is not None:
        unit.pilot.dead = unit.exploded  # R2.6: ejects, unless the reactor blew
    fate = ("and its pilot dies" if unit.exploded and unit.pilot else
            "; the pilot ejects" if unit.pilot else "")
    b.note(Kind.DESTROYED, (_destroyed_words, unit.name, fate), unit)


def weapon_heat(b: Board, unit: Unit, slot: WeaponSlot) -> bool:
    """R6.10: add the weapon's heat; above the rating, the overheat roll. Returns
    whether the weapon still fires."""
    if unit.vehicle or unit.pilot is None:
        return True  # R4.4: vehicles (and infantry) never overheat
    unit.heat += slot.weapon.heat
    rating = unit.heat_rating(b.terrain_at[unit.zone or 5].heat > 0)
    if unit.heat <= rating:
        return True  # within the rating: no overheat roll
    check = shots.overheat(unit.heat, rating, slot.weapon)
    excess = check.excess
    roll, holds = check.roll(b, f"overheat roll for {unit.name}'s {slot.name}")
    if holds:
        b.note(Kind.OVERHEAT, f"{unit.name} runs hot ({unit.heat}/{rating}) but its "
               f"{slot.name} holds ({roll} > {excess}).", unit, value=roll)
        return True
    # R6.10: the weapon is destroyed as it fires, so its shot is lost; its heat stays
    # counted for the weapons after it.
    overheat(b, unit, slot, roll, excess)
    return False


def overheat(b: Board, unit: Unit, slot: WeaponSlot, roll: int, excess: int) -> None:
    """R6.10: the weapon is destroyed and the Mek takes 2 hits (missiles) or 1 (others),
    with no save and no critical check."""
    slot.destroyed = True
    hits = overheat_hits(slot.weapon)
    b.note(Kind.OVERHEAT, f"{unit.name}'s {slot.name} overheats ({roll} <= {excess}) "
           f"and is destroyed; {unit.name} takes {hits} hit{'s' * (hits > 1)}.", unit,
           value=roll)
    damage(b, unit, hits, None, None, checks=False)


def add_heat(b: Board, unit: Unit, amount: int, source: str) -> None:
    """Heat from jump jets or agility (R6.10); Ice Man ignores one such source a turn."""
    if unit.vehicle:
        return
    if unit.skill("Ice Man") and not unit.ice_man_used:
        unit.ice_man_used = True
        b.note(Kind.NOTE, f"{unit.name}'s pilot ignores the {source} heat (Ice Man).",
               unit)
        return
    unit.heat += amount


def wounded_roll(b: Board, unit: Unit) -> None:
    """R6.9 Pilot Wounded: the unit acts only on 5+, rolled at the start of each turn
    and of each later round of a zone combat (R5.2)."""
    who = "pilot" if unit.pilot is not None else "crew"
    roll = b.d6(f"wounded {who} of {unit.name} tries to act")
    unit.can_act = wounded_acts(roll)
    when = "this round" if b.round > 1 else "this turn"
    b.note(Kind.NOTE, f"{unit.name}'s wounded {who} rolls {roll}: "
           + (f"acts {when}." if unit.can_act else f"cannot act {when}."),
           unit, value=roll)
