"""Support assets used in play (R4.3): asked for at the start of a turn and in each zone
combat (Repair Truck, Recon Drone, Support Fire, Air Strike), and the Ambush that strikes as
a zone combat begins."""

from __future__ import annotations

from meks.engine import UNMASKED
from meks.engine.board import DEFENDER, Board, among, title
from meks.engine.damage import settle
from meks.engine.detection import choose_targets, vanish
from meks.engine.fire import Shot, attack, shoot
from meks.engine.infantry import infantry_kills, morale
from meks.engine.log import Kind
from meks.game.catalog import Band
from meks.game.vocabulary import Side


def use_support(b: Board, side: Side, moment: str, zone: int | None) -> None:
    """R4.3: assets used once, when the side's controller decides."""
    if not b.assets[side]:
        return
    view = b.sight.views[side is DEFENDER]
    answer = b.asked[side].support(view, side, moment, zone)
    if not isinstance(answer, list | tuple) or not all(
            isinstance(use, tuple | list) and len(use) == 2 for use in answer):
        raise b.refuse(side, "support", answer)
    # Each use must be a legal choice when it was asked for, or once the uses before it
    # in the answer are made (a Recon Drone's ID opens Support Fire, R4.3).
    asked = {str(asset): view.support_options(asset, moment) for asset, _ in answer}
    used: list[object] = []
    for asset, choice in answer:
        if asset in used or (among(choice, asked[asset]) < 0 and
                             among(choice, view.support_options(asset, moment)) < 0):
            raise b.refuse(side, "support", (asset, choice),
                           f"the side has no {asset} to use that way now"
                           if asset not in b.assets[side] else
                           f"not a choice for the {asset} now")
        used.append(asset)
        if support_asset(b, side, asset, view.engine_answer(choice), moment):
            b.spend(side, asset)


def support_asset(b: Board, side: Side, asset: str, choice: object, moment: str) -> bool:
    """One asset used now, if ``choice`` (and ``moment``) allow it; whether it was."""
    if asset == "Repair Truck":
        unit = b.find(choice)
        if unit is None or unit.side is not side or not unit.alive or unit.doomed or \
                not unit.is_mek or unit.decoy:
            return False
        unit.hits = unit.legs = 0
        unit.computers_turns.clear()
        for slot in unit.weapons:
            slot.destroyed = False
        for s in unit.systems:
            s.destroyed = False
        b.note(Kind.SUPPORT, f"Repair Truck: {unit.name} is fully repaired.", unit)
        return True
    if asset == "Recon Drone" and isinstance(choice, int) and 1 <= choice <= 9:
        found = b.enemies_in(choice, side)
        whose = f"{title(side)}'s Recon Drone" if b.revision >= UNMASKED else "Recon Drone"
        b.note(Kind.SUPPORT, f"{whose} over zone {choice}: "
               + (", ".join(u.name for u in found if not u.decoy) or "no units")
               + ".")
        for enemy in found:
            b.learn(b.identified, side, (enemy.id,))
            b.learn(b.known, side, (enemy.id,))
            if enemy.decoy:
                vanish(b, enemy, f"The drone shows {enemy.name} is a decoy.")
            if enemy.is_infantry:
                enemy.detected = True
        return True
    if asset in ("Support Fire", "Air Strike"):
        target = b.find(choice)
        if target is None or target.side is side or not target.on_map or target.hidden:
            return False
        if asset == "Support Fire":
            # R4.3: during one of the side's zone combats, at a unit in any zone that
            # the side has targeted or ID'd.
            if moment != "combat" or \
                    target.id not in (b.known[side] | b.identified[side]):
                return False
        elif target.id not in b.targeted[side]:  # R4.3: "a targeted enemy unit"
            return False
        weapon = b.catalog.weapon("Howitzer" if asset == "Support Fire" else "Missile")
        b.note(Kind.SUPPORT, f"{asset} against {target.name} in zone {target.zone}.",
               target=target)
        if target.is_infantry:  # R6.11: a kills roll, and morale at once after losses
            infantry_kills(b, None, weapon, target)
            if target.losses_this_combat:
                morale(b, target)
            return True
        band = b.band_of(target.zone or 0)
        shot = Shot(None, weapon, target, Band.SHORT if weapon.range is Band.SHORT
                    else band)
        shoot(b, shot, single=True)
        settle(b, [target])
        return True
    return False


def ambush(b: Board, side: Side, zone: int) -> None:
    """R4.3 Ambush: one Mek makes a free attack at the start of its first zone combat,
    before the movement rolls; its damage takes effect at once.

    The attack is in addition to the Mek's own fire that turn: the weapons it fires may
    fire again in the exchange, at targets chosen again then. It is the Mek's fire all
    the same, so its heat counts for the turn (R6.10), and a once-a-turn skill it uses
    is used."""
    if "Ambush" not in b.assets[side]:
        return
    view = b.sight.views[side is DEFENDER]
    answer = b.asked[side].ambush(view, side, zone)
    if among(answer, view.ambush_options(zone)) < 0:
        raise b.refuse(side, "ambush", answer)
    unit = b.find(answer)
    if unit is None:
        return
    band = b.band_of(zone)
    targets = choose_targets(b, unit, band)
    if not targets:
        return  # nothing to strike at: the asset is kept
    b.spend(side, "Ambush")
    b.note(Kind.SUPPORT, f"Ambush! {unit.name} strikes first.", unit)
    attack(b, unit, targets, band)
    for slot in unit.weapons:
        slot.fired = 0  # a free attack: the weapons fire again in the exchange
    settle(b, targets)
