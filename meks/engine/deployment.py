"""Set-up (R4.3, R7, R8.1): the forces built into units, each side's deployment, and the
support placed before the first turn (Minefield, Hidden Mek, Decoy, Battle Damage)."""

from __future__ import annotations

import re
import zlib

from meks.engine import DISGUISED, LOOKALIKE, REVISION, UNMASKED
from meks.engine.board import ATTACKER, DEFENDER, Board, among, title
from meks.engine.damage import critical, settle
from meks.engine.decisions import FOG, BattleError
from meks.engine.detection import vanish
from meks.engine.log import Kind
from meks.engine.units import Unit, build_unit, copy_unit, decoy, strongpoint, support_units
from meks.game.catalog import SupportKind
from meks.game.scenario import Placed
from meks.game.vocabulary import SIDES, Side, UnitKind

# The support placed at set-up that hides something from the enemy (R4.3, R8.1).
HIDING = ("Minefield", "Hidden Mek", "Decoy")


def _setup_words(name: str, design: str, zone: int | None) -> str:
    where = f"zone {zone}" if zone else "off the map"
    return f"{name} ({design}) sets up in {where}."


def setup(b: Board) -> None:
    b.note(Kind.TURN, f"Set-up: {b.scenario.name}")
    for side in SIDES:
        force = b.forces[side]
        prefix = "A" if side is Side.ATTACKER else "D"
        n = 0
        for spec in force.units + support_units(force.support, b.catalog):
            n += 1
            b.units.append(build_unit(spec, f"{prefix}{n}", side, b.catalog))
        b.assets[side] += tuple(entry.name for entry in map(b.catalog.support_entry,
                                                             force.support)
                                if entry.kind is not SupportKind.UNIT)
        rules = b.scenario.side(side)
        for sp in rules.strongpoints:
            for _ in range(sp.count):
                n += 1
                b.units.append(strongpoint(f"{prefix}{n}", side, sp.zone))
        while "Surprise" in b.assets[side]:  # each one is +3 on the first roll
            b.spend(side, "Surprise")
            b.surprise_pending[side] = b.surprise_pending.get(side, 0) + 1
    b.secret = any(u.kind is UnitKind.INFANTRY for u in b.units)
    if b.revision < FOG:
        for side in SIDES:
            deploy(b, side)
        for side in SIDES:
            setup_assets(b, side)
        b.sight.set_up = len(b.log)
        return
    # R8.1 (revision 9): each side sets up and places what hides, and only then does
    # the enemy see it (the defender, setting up second, sees the attacker's units it may
    # see); Battle Damage is dealt last, to what each side sees.
    for side in SIDES:
        deploy(b, side)
        setup_assets(b, side, HIDING)
        b.sight.placed += (side,)
    b.sight.set_up = len(b.log)
    for side in SIDES:
        setup_assets(b, side, ("Battle Damage",))


def deploy(b: Board, side: Side) -> None:
    rules = b.scenario.side(side)
    movers = [u for u in b.side_units(side) if u.mobile]
    if rules.reinforcements is not None:
        for unit in movers:
            unit.arrived = False
        # (how many is the side's to know, R8.1: its infantry among them)
        b.note_for(side, Kind.SETUP, f"{side.value.capitalize()}: {len(movers)} units "
                   "wait to arrive as reinforcements.")
        return
    view = b.sight.views[side is DEFENDER]
    placement = b.asked[side].deploy(view, side, list(movers))
    zones = rules.setup.zones if rules.setup else tuple(range(1, 10))
    if not isinstance(placement, dict):
        raise b.refuse(side, "deploy", placement)
    strays = sorted(set(placement) - {u.id for u in movers}, key=str)
    if strays:
        raise b.refuse(side, "deploy", strays, "it places units that are not set up now")
    for unit in movers:
        zone = placement.get(unit.id)
        if zone not in zones:
            raise BattleError(f"{unit.name} must set up in one of zones "
                              f"{', '.join(map(str, zones))}.")
        unit.zone = unit.setup_zone = zone
    if rules.setup is not None:
        placed = [Placed(u.zone or 0, u.kind, u.points) for u in movers]
        problems = rules.setup.problems(placed, rules.strongpoints)
        if problems:
            raise BattleError(f"The {side.value}'s set-up breaks the scenario: "
                              + "; ".join(problems) + ".")
        for unit in movers:
            for rule in rules.setup.rules:
                if rule.group and unit.zone in rule.zones:
                    unit.group = rule.group
    for unit in b.side_units(side):
        # R8.1: the enemy is not told the set-up line by line (the order would give
        # away what hides later); it sees the units it may see once set-up is done.
        b.note_for(side, Kind.SETUP, (_setup_words, unit.name, unit.design, unit.zone), unit)


def setup_assets(b: Board, side: Side,
                 kinds: tuple[str, ...] = ("Battle Damage", *HIDING)) -> None:
    """The side's support assets placed at set-up, of ``kinds``, in the order it has
    them (R4.3)."""
    controller = b.asked[side]
    view = b.sight.views[side is DEFENDER]
    for asset in b.assets[side]:
        if asset not in kinds:
            continue
        choice = controller.setup_support(view, side, asset)
        if among(choice, view.setup_options(asset)) < 0:
            raise b.refuse(side, f"setup_support ({asset})", choice)
        if choice is None:
            continue
        chosen = b.find(view.engine_answer(choice))
        if asset == "Minefield" and isinstance(choice, int):
            b.mines[side].append(choice)
            b.decided(side, "a minefield is laid (hidden) in one zone")
        elif asset == "Decoy" and isinstance(choice, int):
            lay_decoy(b, side, choice)
        elif asset == "Hidden Mek" and chosen is not None:
            chosen.hidden = b.secret = True
            # R8.1: the enemy never learns where it set up, nor that it did.
            for i, event in enumerate(b.log):
                if event.kind is Kind.SETUP and event.unit == chosen.id:
                    b.mark_private(i, side)
            b.note_for(side, Kind.DECISION, f"{title(side)} decides: {chosen.name} "
                       "sets up hidden")
        elif asset == "Battle Damage" and chosen is not None and chosen.decoy:
            if b.revision >= UNMASKED:  # the dealer learns what it hit, as an ID would show
                b.learn(b.known, side, (chosen.id,))
                vanish(b, chosen, f"Battle Damage finds nothing at {chosen.name}: it "
                       "is a decoy.")
            else:
                b.note(Kind.SUPPORT, f"Battle Damage on {chosen.name}: no damage shows.",
                       target=chosen)
        elif asset == "Battle Damage" and chosen is not None:
            b.note(Kind.SUPPORT, f"Battle Damage: {chosen.name} starts damaged.",
                   target=chosen)
            critical(b, chosen, None)
            settle(b, [chosen])  # a reactor that blows at set-up destroys the Mek
        b.spend(side, asset)


def callsign_for(model: Unit, taken: set[str], revision: int = REVISION) -> str:
    """The name a decoy copying ``model`` shows under, no name in ``taken`` (its side's
    units' names), keeping the side's mark when the model's name ends in one (R8.1). From
    revision 17 (``LOOKALIKE``) it takes the shape of the model's own callsign: its words
    with the first free number ("Enemy VIPER-2 (D)" beside "Enemy VIPER-1 (D)"), or, for
    a callsign with no number, a callsign of ``DECOY_CALLSIGNS``. In revision 16 it was the
    design with the first free number ("DEMON-2 (D)" beside "DEMON-1 (D)")."""
    head, sep, mark = model.name.rpartition(" (")
    if not (sep and head and mark.endswith(")")):
        head, mark = model.name, ""
    suffix = f" ({mark}" if mark else ""
    numbered = re.fullmatch(r"(.*?)(\d+)", head)
    if revision < LOOKALIKE:
        stem = f"{model.design}-"
    elif numbered is not None:
        stem = numbered.group(1)
    else:
        return _listed_callsign(taken, suffix)
    n = 1
    while f"{stem}{n}{suffix}" in taken:
        n += 1
    return f"{stem}{n}{suffix}"


# Callsigns a decoy may show under when its side names its Meks in words of its own.
DECOY_CALLSIGNS = (
    "Anvil", "Badger", "Bastion", "Brand", "Cinder", "Cobalt", "Crow", "Dagger", "Ember",
    "Falcon", "Flint", "Gauntlet", "Granite", "Hammer", "Harrow", "Hornet", "Iron", "Jackal",
    "Javelin", "Kestrel", "Lance", "Mantis", "Maul", "Nomad", "Onyx", "Talon", "Raven",
    "Rook", "Sable", "Scythe", "Shrike", "Spur", "Thorn", "Tempest", "Vulture", "Warden",
)


def _listed_callsign(taken: set[str], suffix: str) -> str:
    """A callsign of ``DECOY_CALLSIGNS`` that no unit of the side bears (with or without the
    side's mark), where to start in the list chosen from the side's names (so that the
    same force always shows the same, and different forces differ), with a number when
    every one is taken."""
    bare = {name.removesuffix(suffix).casefold() for name in taken}
    start = zlib.crc32("\n".join(sorted(taken)).encode()) % len(DECOY_CALLSIGNS)
    for n in range(1, len(taken) + 2):
        for i in range(len(DECOY_CALLSIGNS)):
            name = DECOY_CALLSIGNS[(start + i) % len(DECOY_CALLSIGNS)]
            name = name if n == 1 else f"{name}-{n}"
            if name.casefold() not in bare:
                return f"{name}{suffix}"
    raise AssertionError("unreachable: more names than units")


def lay_decoy(b: Board, side: Side, zone: int) -> None:
    """R4.3 Decoy: one false Mek contact. To the enemy it shows as a Mek of the side
    (its most valuable), set up in ``zone`` with no damage, under a unit id like any
    other; the enemy cannot tell it from a Mek until it is ID'd (R8.1)."""
    prefix = "A" if side is ATTACKER else "D"
    uid = f"{prefix}{len(b.side_units(side)) + 1}"
    meks = [u for u in b.side_units(side) if u.is_mek and not u.decoy]
    fake = decoy(uid, side, zone)
    cover = decoy(uid, side, zone)
    if meks:
        model = max(meks, key=lambda u: u.points)  # the first of the most valuable
        cover = copy_unit(model, uid, zone)
        if b.revision >= DISGUISED:
            cover.name = callsign_for(model, {u.name for u in b.side_units(side)},
                                      b.revision)
        fake.name = cover.name
    cover.decoy = False
    b.sight.covers[uid] = cover
    b.units.append(fake)
    # the side's own line (the enemy never reads it) says what it is, so that its side's
    # report and the whole log do not show one Mek set up twice (revision 15)
    what = "A decoy showing as " if b.revision >= UNMASKED else ""
    b.note_for(side, Kind.SETUP, f"{what}{cover.name} ({cover.design}) sets up in zone "
               f"{zone}.", fake)
    b.note_for(side, Kind.DECISION, f"{title(side)} decides: the decoy in zone {zone} "
               f"shows as {cover.name}")
