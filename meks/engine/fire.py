"""Fire (R6.5-R6.8): a unit's fire plan checked and carried out weapon by weapon, the to-hit
roll of each shot with every modifier named, hits, and the target's Agility dodge."""

from __future__ import annotations

from dataclasses import dataclass

from meks.engine.board import ATTACKER, DEFENDER, Board
from meks.engine.damage import add_heat, armor_save, damage, weapon_heat
from meks.engine.decisions import FOG
from meks.engine.detection import can_target
from meks.engine.infantry import infantry_attack, infantry_kills
from meks.engine.inputs import to_hit_of
from meks.engine.log import Kind
from meks.engine.units import Unit, WeaponSlot
from meks.game.catalog import Band, Family, Weapon
from meks.game.shots import ToHit, may_fire_again
from meks.game.vocabulary import UnitKind


@dataclass
class Shot:
    """One firing of one weapon at one target (``gunnery``: a Gunnery second shot)."""

    unit: Unit | None
    weapon: Weapon
    target: Unit
    band: Band
    gunnery: bool = False


def _holds(slots: list[WeaponSlot], slot: WeaponSlot) -> bool:
    """``slot in slots``, trying identity first: equal slots compare weapon by weapon."""
    for s in slots:
        if s is slot:
            return True
    return slot in slots


def attack(b: Board, unit: Unit, targets: list[Unit], band: Band) -> None:
    """One unit's attacks this turn, weapon by weapon in the controller's order.

    Each entry of the plan must be legal (R6.5, R6.11): a working weapon of the unit, at
    one of its targets, able to fire at this band at that kind of target, each weapon
    once (a Gunnery pilot's one cannon-family or CIWS weapon twice). Anything else is
    refused. A weapon lost to an overheat earlier in the plan is passed over."""
    if unit.kind is UnitKind.INFANTRY:
        infantry_attack(b, unit, targets[0])
        return
    side = unit.side
    sight = b.sight
    faces = targets if not b.secret and not sight.covers else b.faces(side, targets)
    plan = b.asked[side].fire_plan(sight.views[side is DEFENDER], unit, faces,
                                   band)
    if not isinstance(plan, list) and not isinstance(plan, tuple):
        raise b.refuse(side, "fire_plan", plan)
    single = len(targets) == 1
    lost: list[WeaponSlot] = []  # overheated in this plan
    for entry in plan:
        try:
            slot, face = entry
        except (TypeError, ValueError):
            raise b.refuse(side, "fire_plan", entry) from None
        index = faces.index(face) if face in faces else -1
        if index < 0 or not _holds(unit.weapons, slot):
            raise b.refuse(side, "fire_plan", (getattr(slot, "name", slot), face),
                           "a weapon of the unit at one of its targets")
        if slot.destroyed:
            if _holds(lost, slot):
                continue
            raise b.refuse(side, "fire_plan", (slot.name, face),
                           f"the {slot.name} is destroyed")
        target = targets[index]
        weapon = slot.weapon
        small = weapon.is_small
        infantry = target.kind is UnitKind.INFANTRY
        if (small and not (infantry and band is Band.SHORT)) or \
                (not small and weapon.needs[band] is None):
            raise b.refuse(side, "fire_plan", (slot.name, face),
                           f"the {slot.name} cannot fire at it at {band.value} range")
        again = False  # a Gunnery second shot
        if slot.fired >= 1:
            if not may_fire_again(weapon, slot.fired, gunnery_left(unit)):
                raise b.refuse(side, "fire_plan", (slot.name, face),
                               f"the {slot.name} has fired already")
            again = True
        if not can_target(b, unit, target, band, weapon.family is Family.MISSILE):
            continue
        slot.fired += 1
        if again:
            unit.turn_skills.add("Gunnery")
        if unit.hidden:  # R4.3: a hidden Mek is revealed when it fires
            unit.hidden = False
            b.note(Kind.NOTE, f"{unit.name} fires from hiding and is revealed.", unit)
        if not weapon_heat(b, unit, slot):
            lost.append(slot)
            continue
        if infantry:
            # The Gunnery -2 falls on the kills roll, as the terrain to-hit modifier does.
            infantry_kills(b, unit, weapon, target, again)
        else:
            shoot(b, Shot(unit, weapon, target, band, again), single=single)


def gunnery_left(unit: Unit) -> bool:
    """R6.5: the unit's pilot has Gunnery, not yet used this turn."""
    return unit.skill("Gunnery") and "Gunnery" not in unit.turn_skills


def to_hit(b: Board, shot: Shot, single: bool, family_skill: bool | None = None,
           spoof: bool | None = None) -> ToHit:
    """R6.6: the to-hit roll of a shot, every modifier named (``single``: the attacker
    has one target this turn), gathered by ``meks.engine.inputs``. Asking uses up no
    once-a-turn skill: ``shoot`` does (``family_skill``, ``spoof``: False for a shot that
    a shot before it leaves without them)."""
    target = shot.target
    if target.decoy and b.revision >= FOG:
        # R8.1: a shot at a decoy is rolled as the shooter sees it, at the Mek it passes
        # for (its systems and pilot count), the same modifiers before and after.
        target = b.sight.covers.get(target.id, target)
    check = to_hit_of(b, shot.unit, shot.weapon, target, shot.band, single=single,
                      gunnery=shot.gunnery, family_skill=family_skill, spoof=spoof)
    assert check is not None
    return check


def shot_to_hit(b: Board, unit: Unit | None, weapon: Weapon, target: Unit, band: Band,
                gunnery: bool = False, single: bool = True, **spent: bool) -> ToHit:
    """``to_hit`` of one shot of ``unit``'s ``weapon`` at ``target`` (``gunnery``: a
    Gunnery second shot; ``spent``: as ``to_hit`` takes them): describing it uses up no
    once-a-turn skill."""
    return to_hit(b, Shot(unit, weapon, target, band, gunnery), single, **spent)


def modifiers(b: Board, shot: Shot, single: bool) -> tuple[int, list[str]]:
    """R6.6: the total to-hit modifier of a shot and each modifier, named."""
    check = to_hit(b, shot, single)
    return check.modifier, check.notes


def shoot(b: Board, shot: Shot, single: bool = True) -> int:
    """R6.6-R6.7: roll to hit (two dice for Vulcan and Swarm, a missed die re-rolled once
    for Twin Laser and 6-Pack); each hit goes to its armor save. R6.8: a target that may
    dodge (Agility) is asked once, after all the attack's dice, whether to dodge the
    whole attack. Returns the hits."""
    weapon, target = shot.weapon, shot.target
    check = to_hit(b, shot, single)
    if shot.unit is not None:
        shot.unit.turn_skills.update(check.spends)
    if check.target_spends:
        # (a decoy's face spends what the Mek it passes for would, R8.1)
        face = b.sight.covers.get(target.id, target) \
            if target.decoy and b.revision >= FOG else target
        face.turn_skills.update(check.target_spends)
    need, mod = check.need, check.modifier
    who = shot.unit.name if shot.unit else "Support"
    purpose = f"{who}'s {weapon.name} to hit {target.name}"
    reroll = f"{who}'s {weapon.name} re-roll" if check.reroll_miss else ""
    hits = 0
    at_stake = 0  # hits held back for the target's dodge decision
    dodging = may_dodge(b, target)
    for _ in range(check.dice):
        roll, hit = check.roll_die(b, purpose, reroll)
        b.note(Kind.HIT if hit else Kind.MISS,
               (_shot_words, who, weapon.name, target.name, roll, mod, need, check, hit),
               shot.unit, target, roll)
        if hit:
            hits += 1
            foe = DEFENDER if target.side is ATTACKER else ATTACKER
            if target.id not in b.known[foe]:  # (mostly known already: no call)
                b.learn(b.known, foe, (target.id,))
            if dodging:
                at_stake += 1
            else:
                land(b, shot, weapon)
    if at_stake:
        if ask_dodge(b, target, weapon, at_stake):
            target.dodged = True
            add_heat(b, target, 1, "agility")
            b.note(Kind.DODGE, f"{target.name} dodges the {weapon.name}"
                   + (f", {at_stake} hits" if at_stake > 1 else "") + " (Agility).",
                   target, shot.unit)
        else:
            for _ in range(at_stake):
                land(b, shot, weapon)
    return hits


def _shot_words(who: str, weapon: str, target: str, roll: int, mod: int, need: int,
                check: ToHit, hit: bool) -> str:
    notes = check.notes
    listed = f" [{', '.join(notes)}]" if notes else ""
    return (f"{who} fires {weapon} at {target}: {roll}{mod:+d} vs {need}+{listed}"
            + (" - hit." if hit else " - miss."))


def may_dodge(b: Board, target: Unit) -> bool:
    """R6.8 Agility: once a turn, a unit that can act and whose own movement roll was 8+
    may dodge one ranged attack that hit."""
    return (target.skill("Agility") and target.can_act and not target.dodged
            and target.move_roll >= 8 and not target.doomed and not target.decoy)


def land(b: Board, shot: Shot, weapon: Weapon) -> None:
    """A hit (not dodged): the armor save (R6.8), then damage."""
    target, unit = shot.target, shot.unit
    if target.decoy:
        b.note_for(target.side, Kind.NOTE, f"The shot passes through {target.name}: "
                   "nothing is there.", unit, target)
        return
    if target.doomed:
        return
    if armor_save(b, target, weapon):
        return
    damage(b, target, 1, unit, weapon)


def ask_dodge(b: Board, unit: Unit, weapon: Weapon, hits: int) -> bool:
    view = b.sight.views[unit.side is DEFENDER]
    answer = b.asked[unit.side].dodge(view, unit, weapon, hits)
    if not isinstance(answer, bool):
        raise b.refuse(unit.side, "dodge", answer)
    return answer
