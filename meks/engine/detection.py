"""Detection, identification and targets (R6.4-R6.5): what a unit may attack, the rolls to
detect infantry and masked units, IDs (sensors, Data Link, Hawkeye, Commandos), decoys
unmasked, and each unit's choice of targets."""

from __future__ import annotations

from meks.engine.board import DEFENDER, Board, among
from meks.engine.log import Kind
from meks.engine.units import Sensors, Unit
from meks.game.catalog import Band, Family
from meks.game.rules import (
    HAWKEYE,
    identifies_unmasked,
    infantry_detection,
    masked_detection,
    masked_identification,
)
from meks.game.vocabulary import UnitKind


def _targets_words(name: str, targets: list[str]) -> str:
    return f"{name} targets " + ", ".join(targets)


def can_target(b: Board, unit: Unit, enemy: Unit, band: Band, missile: bool = False) -> bool:
    """R6.4: whether ``unit`` may attack ``enemy`` this turn, rolling detection where a
    roll is needed (remembered for the turn)."""
    if enemy.hidden or enemy.zone is None or enemy.destroyed_turn is not None \
            or enemy.exited_turn is not None or not enemy.arrived:  # not on the map
        return False
    if enemy.kind is UnitKind.INFANTRY:
        return enemy.detected or detect_infantry(b, unit, enemy, band)
    if enemy.has_system("Masking & Insulation"):  # masked
        if missile and data_linked(b, unit, enemy):
            return True
        return detect_masked(b, unit, enemy, band)
    return True


def detect_infantry(b: Board, unit: Unit, enemy: Unit, band: Band) -> bool:
    key = f"detect:{enemy.id}"
    if key in unit.turn_skills:
        return False
    unit.turn_skills.add(key)
    check = infantry_detection(unit.sensors, band)
    if not check.possible:
        return False  # R6.4: no die is rolled when no result could succeed
    roll, found = check.roll(b, f"{unit.name} looks for {enemy.name}")
    enemy.detected = enemy.detected or found
    b.note(Kind.DETECT, f"{unit.name} {'finds' if found else 'does not find'} "
           f"{enemy.name} ({roll}{check.modifier:+d}, needs {check.need}).", unit,
           enemy, roll)
    return found


def detect_masked(b: Board, unit: Unit, enemy: Unit, band: Band) -> bool:
    key = f"masked:{enemy.id}"
    if key + ":yes" in unit.turn_skills:
        return True
    if key in unit.turn_skills:
        return False
    unit.turn_skills.add(key)
    check = masked_detection(unit.sensors, band)
    if not check.possible:
        return False  # R6.4: no die is rolled when no result could succeed
    roll, found = check.roll(b, f"{unit.name} tries to detect masked {enemy.name}")
    if found:
        unit.turn_skills.add(key + ":yes")
    b.note(Kind.DETECT, f"{unit.name} {'detects' if found else 'cannot detect'} the "
           f"masked {enemy.name} ({roll}, needs {check.need}).", unit, enemy, roll)
    return found


def identifies(b: Board, unit: Unit, enemy: Unit, band: Band, adjacent: bool = False) -> bool:
    """R6.4 ID: Basic sensors at Medium or closer, Improved at Long, Advanced also in
    adjacent zones; masked units need a roll."""
    sensors = unit.sensors
    if adjacent and sensors is not Sensors.ADVANCED:
        return False
    if enemy.masked:
        check = masked_identification(sensors, band)
        if not check.possible:
            return False  # R6.4: where no roll could succeed, none is made
        return check.roll(b, f"{unit.name} tries to identify masked {enemy.name}")[1]
    return identifies_unmasked(sensors, band)


def data_linked(b: Board, unit: Unit, enemy: Unit) -> bool:
    """R6.4 Data Link: a friendly Data Link Mek in the zone that has itself ID'd the
    enemy this turn (by its sensors, or by its pilot's Hawkeye)."""
    for friend in b.in_zone(unit.zone or 0, unit.side):
        if friend.has_system("Data Link") and friend.can_act:
            key = f"id:{enemy.id}"
            if key not in friend.turn_skills:
                friend.turn_skills.add(key)
                if identifies(b, friend, enemy, b.band_of(friend.zone or 0)):
                    identify(b, friend, enemy, f"{friend.name} identifies {enemy.name} "
                             "for its Data Link.")
            if f"identified:{enemy.id}" in friend.turn_skills:
                return True
    return False


def identify(b: Board, unit: Unit, enemy: Unit, text: str) -> None:
    """``unit`` has ID'd ``enemy`` this turn (R6.4): the side knows it, and a Decoy
    vanishes."""
    unit.turn_skills.add(f"identified:{enemy.id}")
    b.learn(b.identified, unit.side, (enemy.id,))
    b.learn(b.known, unit.side, (enemy.id,))
    if enemy.decoy:
        vanish(b, enemy, f"{text} It is a decoy.")
    else:
        b.note(Kind.IDENTIFY, text, unit, enemy)


def sensor_sweep(b: Board) -> None:
    """R6.4: Advanced sensors ID enemy units in adjacent zones too (masked ones on 2+),
    each enemy once a turn."""
    for unit in b.carrying("Advanced Sensors"):
        if not (unit.can_act and unit.on_map and unit.sensors is Sensors.ADVANCED) or \
                unit.zone is None:
            continue
        for zone in b.adjacent(unit.zone):
            for enemy in b.enemies_in(zone, unit.side):
                key = f"id:{enemy.id}"
                if key in unit.turn_skills:
                    continue
                unit.turn_skills.add(key)
                if identifies(b, unit, enemy, Band.LONG, adjacent=True):
                    identify(b, unit, enemy, f"{unit.name}'s sensors identify "
                             f"{enemy.name} in zone {zone}.")


def hawkeye(b: Board) -> None:
    """R6.4 Hawkeye: once a turn, the pilot tries to ID one enemy unit of its choice in
    its zone or an adjacent zone, on 5+."""
    for unit in b.carrying("Hawkeye", skill=True):
        if not (unit.can_act and unit.on_map) or \
                "Hawkeye" in unit.turn_skills or unit.zone is None:
            continue
        near = [unit.zone, *b.adjacent(unit.zone)]
        candidates = [e for z in near for e in b.enemies_in(z, unit.side)
                      if e.id not in b.identified[unit.side]
                      and (e.kind is not UnitKind.INFANTRY or e.detected)]
        if not candidates:
            continue
        faces = b.faces(unit.side, candidates)
        view = b.sight.views[unit.side is DEFENDER]
        answer = b.asked[unit.side].hawkeye(view, unit, faces)
        if answer is None:
            continue
        index = among(answer, faces)
        if index < 0:
            raise b.refuse(unit.side, "hawkeye", answer)
        choice = candidates[index]
        unit.turn_skills.add("Hawkeye")
        roll, seen = HAWKEYE.roll(b, f"Hawkeye of {unit.name}")
        if seen:
            identify(b, unit, choice, f"{unit.name}'s pilot identifies {choice.name} in "
                     f"zone {choice.zone} (Hawkeye, {roll}).")
        else:
            b.note(Kind.IDENTIFY, f"{unit.name}'s pilot cannot make out {choice.name} "
                   f"(Hawkeye, {roll}).", unit, choice, roll)


def unmask_decoys(b: Board, unit: Unit, band: Band) -> None:
    """A Decoy vanishes once identified (R4.3): its sensors try as it picks targets."""
    assert unit.zone is not None
    for enemy in b.enemies_in(unit.zone, unit.side):
        if enemy.decoy and identifies(b, unit, enemy, band):
            vanish(b, enemy, f"{unit.name} identifies the contact in zone "
                   f"{enemy.zone}: a decoy.")


def vanish(b: Board, fake: Unit, text: str) -> None:
    fake.destroyed_turn = b.turn
    b.learn(b.identified, fake.side.enemy, (fake.id,))
    b.note(Kind.IDENTIFY, text, target=fake)


def choose_targets(b: Board, unit: Unit, band: Band) -> list[Unit]:
    """R6.5: one target a turn, two with a Director, one more with Quick Draw."""
    assert unit.zone is not None
    enemies = b.enemies_in(unit.zone, unit.side)
    if any(e.decoy for e in enemies):  # with no decoy in sight, nothing to unmask
        unmask_decoys(b, unit, band)
        enemies = b.enemies_in(unit.zone, unit.side)
    limit = 1
    if unit.has_system("Director"):
        limit += 1
    if unit.skill("Quick Draw"):
        limit += 1
    has_missiles = False
    for w in unit.weapons:
        if not w.destroyed and w.weapon.family is Family.MISSILE:
            has_missiles = True
            break
    candidates = [e for e in enemies if can_target(b, unit, e, band, has_missiles)]
    if unit.kind is UnitKind.INFANTRY:  # infantry fights at Short only, one target
        if band is not Band.SHORT:
            return []
        limit = 1
        candidates = [e for e in candidates if e.kind is not UnitKind.INFANTRY]
    if not candidates:
        return []
    side = unit.side
    sight = b.sight
    faces = candidates if not b.secret and not sight.covers else \
        b.faces(side, candidates)
    answer = b.asked[side].targets(sight.views[side is DEFENDER], unit, faces,
                                   limit)
    # Up to ``limit`` different candidates. (Units compare by identity: ``in`` and
    # ``index`` find the very unit offered.)
    chosen: list[Unit] | None
    if type(answer) is list and len(answer) == 1 and answer[0] in faces:
        chosen = [answer[0]]  # (the usual answer)
    else:
        chosen = [t for t in answer if t in faces] if type(answer) is list else None
        if chosen is None or len(chosen) != len(answer) or len(chosen) > limit or (
                len({id(t) for t in chosen}) != len(chosen)):
            raise b.refuse(side, "targets", answer, f"at most {limit} different "
                           "candidates")
    if faces is not candidates:
        chosen = [candidates[faces.index(t)] for t in chosen]
    if chosen:
        b.decided(unit.side, (_targets_words, unit.name, [t.name for t in chosen]), by=unit)
        ids = [t.id for t in chosen]
        b.learn(b.known, unit.side, ids)
        b.learn(b.targeted, unit.side, ids)
    return chosen


def commando_action(b: Board, unit: Unit) -> None:
    """R4.4 Commandos: each turn ID one enemy unit in their zone, or +1 to hit it."""
    if not unit.commando or unit.zone is None:
        return
    enemies = [e for e in b.enemies_in(unit.zone, unit.side)
               if e.kind is not UnitKind.INFANTRY or e.detected]
    if not enemies:
        return
    faces = b.faces(unit.side, enemies)
    view = b.sight.views[unit.side is DEFENDER]
    action = b.asked[unit.side].commando(view, unit, faces)
    if action is None:
        return
    index = among(action[1], faces) if isinstance(action, tuple) and len(action) == 2 \
        else -1
    if index < 0 or action[0] not in ("identify", "mark"):
        raise b.refuse(unit.side, "commando", action)
    what, target = action[0], enemies[index]
    if what == "identify":
        b.learn(b.identified, unit.side, (target.id,))
        b.learn(b.known, unit.side, (target.id,))
        if target.decoy:
            vanish(b, target, f"{unit.name} find that {target.name} is a decoy.")
        else:
            b.note(Kind.IDENTIFY, f"{unit.name} identify {target.name}.", unit, target)
    else:
        b.learn(b.marked, unit.side, (target.id,))
        b.note(Kind.TARGET, f"{unit.name} mark {target.name}: +1 to hit it this "
               f"{'turn' if b.house.one_exchange else 'round'}.", unit, target)
