"""The battle engine: a scenario fought turn by turn on the 3x3 map (docs/rules.md §5-§7).

The engine never rolls by itself and never decides by itself: every die comes from the
``Dice`` it is given, every choice from the side's ``Controller``. Everything that happens
is appended to ``log`` as an ``Event``; the same scenario, forces, dice and decisions give
the same log.

Each step of the rules is one method, named after it: ``initiative``, ``movement_phase``,
``movement_roll``, ``range_step``, ``detect``, ``shoot``, ``armor_save``,
``critical_check``, ``critical``, ``overheat``, ``infantry_kills``, ``morale`` ...
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from meks.catalog import Band, Catalog, Family, Weapon, load_catalog
from meks.dice import Dice
from meks.engine import REVISION
from meks.engine.asking import Asking
from meks.engine.decisions import BANDS, FOG, RETREAT_HITS, BattleError, RangeChoice, Retreat
from meks.engine.log import Event, Kind
from meks.engine.units import (
    ForceSpec,
    Sensors,
    Unit,
    UnitSpec,
    WeaponSlot,
    build_unit,
    copy_unit,
    decoy,
    strongpoint,
)
from meks.engine.view import SideView, Sight
from meks.errors import MeksError
from meks.rules import (
    COMPUTERS,
    CRITICAL_TABLE,
    GUNNERY_MODIFIER,
    HAWKEYE,
    JUMP_HEAT,
    LEG_DAMAGED,
    MINEFIELD,
    MINEFIELD_HITS,
    PILOT_WOUNDED,
    REACTOR_CORE,
    SECOND_MOVE_HEAT,
    SYSTEM_LOST,
    WEAPON_DESTROYED,
    WOUNDED_ACTS,
    CriticalCheck,
    KillsRoll,
    MovementRoll,
    Roller,
    ToHit,
    armor_save,
    arrival,
    critical_check,
    identifies_unmasked,
    infantry_detection,
    infantry_hits,
    initiative,
    kills_roll,
    masked_detection,
    masked_identification,
    may_fire_again,
    morale,
    movement_roll,
    overheat,
    overheat_hits,
    random_pick,
    skill_of,
    to_hit,
    wounded_acts,
)
from meks.scenario import SIDES, BreakContact, Edge, Placed, Scenario, Side, UnitKind
from meks.victory import BattleState, Outcome, UnitState, Verdict, judge

if TYPE_CHECKING:
    from meks.engine.controllers import Controller

# The support placed at set-up that hides something from the enemy (R4.3, R8.1).
HIDING = ("Minefield", "Hidden Mek", "Decoy")


# Hot paths below compare enum members with ``is`` and keep them in module constants: an
# Enum class attribute costs a lookup each time.
ATTACKER, DEFENDER = Side.ATTACKER, Side.DEFENDER
NONE: frozenset[str] = frozenset()  # an empty record
_ROLL = Kind.ROLL
_new_event = tuple.__new__  # builds an Event from its fields without NamedTuple.__new__
_SIDE_WORDS = tuple((side, side.value, side.value.capitalize()) for side in Side)
# What a unit's once-a-turn record keeps from one round of a zone combat to the next (R5.2):
# Hawkeye (used before the combats, once a turn) and the enemies it has tried to ID.
_KEPT_FOR_THE_TURN = frozenset({"Hawkeye"})
_IDS_KEPT = ("id:", "identified:")


def _title(side: Side) -> str:
    """``side.value.capitalize()``: "Attacker" or "Defender"."""
    return _SIDE_WORDS[0][2] if side is ATTACKER else _SIDE_WORDS[1][2]


def _holds(slots: list[WeaponSlot], slot: WeaponSlot) -> bool:
    """``slot in slots``, trying identity first: equal slots compare weapon by weapon."""
    for s in slots:
        if s is slot:
            return True
    return slot in slots


def _among(answer: Any, options: Sequence[Any]) -> int:
    """The position of ``answer`` among ``options`` (units by identity), or -1."""
    for i, option in enumerate(options):
        if option is answer:
            return i
    for i, option in enumerate(options):
        if not isinstance(option, Unit) and type(option) is type(answer) and option == answer:
            return i
    return -1


@dataclass
class Engagement:
    zone: int
    band: Band = Band.LONG
    fought: int = 0  # the turn its combat was last resolved
    doubled: Side | None = None  # whose units get doubled terrain this turn (R6.3)
    doubled_turn: int = 0


@dataclass
class Shot:
    """One firing of one weapon at one target (``gunnery``: a Gunnery second shot)."""

    unit: Unit | None
    weapon: Weapon
    target: Unit
    band: Band
    gunnery: bool = False


@dataclass
class Result:
    winner: Side | None
    outcome: Outcome
    reason: str
    turns: int
    units: list[Unit]
    # The side that ended the battle by withdrawing or overrunning, and which (R6.13).
    early: tuple[Side, Retreat] | None = None


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and callers extend it
class Battle(Roller):
    """One battle. Build it, then call ``run()``; or ``setup()`` and ``play_turn()``."""

    def __init__(self, scenario: Scenario, forces: dict[Side, ForceSpec], dice: Dice,
                 controllers: dict[Side, Controller], catalog: Catalog | None = None,
                 revision: int = REVISION) -> None:
        self.scenario = scenario
        # The engine revision the battle is fought under (``meks.engine.REVISION``): a
        # stored battle of an earlier one is fought again as it was (docs/rules.md).
        self.revision = revision
        self.forces = forces
        self.dice = dice
        self.controllers = controllers
        # Each controller is asked through its side's view, with values (issue 26).
        self.asked = {side: Asking(c) for side, c in controllers.items()}
        self.catalog = catalog or load_catalog()
        self.house = scenario.house_rules
        self.turn = 0
        self.log: list[Event] = []
        self.units: list[Unit] = []
        self.engagements: dict[int, Engagement] = {}
        # Each side's records are immutable (a tuple, frozensets), replaced whenever they
        # change (``spend``, ``learn``): the sides' views hand them to controllers as they are.
        self.assets: dict[Side, tuple[str, ...]] = {Side.ATTACKER: (), Side.DEFENDER: ()}
        self.mines: dict[Side, list[int]] = {side: [] for side in SIDES}  # zones, by layer
        self.known: dict[Side, frozenset[str]] = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        # enemy units the side has chosen as targets so far (R4.3: what an Air Strike needs)
        self.targeted: dict[Side, frozenset[str]] = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        self.identified: dict[Side, frozenset[str]] = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        self.marked: dict[Side, frozenset[str]] = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        self.history: list[dict[Side, frozenset[int]]] = []
        self.initiative_winner: Side | None = None
        # The side that moves first, and the turn it chose in (for the views, R5.3).
        self.first_mover: Side | None = None
        self.first_mover_turn = 0
        self.fought_in: dict[int, int] = {}  # zone -> the last turn it had a zone combat
        self.round = 0  # the round of the zone combat being fought (0: none is, R5.2)
        self.verdict: Verdict | None = None
        self.early: tuple[Side, Retreat] | None = None  # a withdrawal or overrun (R6.13)
        self._surprise_pending: dict[Side, int] = {}  # Surprise assets for the first roll
        self._adjacent = {z: tuple(self._neighbours(z)) for z in range(1, 10)}
        self._terrain = {z: self.catalog.terrain_named(scenario.terrain_of(z))
                         for z in range(1, 10)}
        # The units with a pilot skill, or carrying a system (working or not), by name; with
        # the number of units when worked out (units only ever join a battle, and pilots'
        # skills and units' systems never change in one).
        self._with: dict[tuple[bool, str], tuple[int, list[Unit]]] = {}
        # What each side may know (R8.1), kept in one record (see ``Sight``): a Battle has
        # as few attributes as it can, so that reading one stays quick.
        self.sight = Sight()
        self.secret = False  # whether any unit may be kept from the enemy (hidden, infantry)
        self.sight.views = (SideView(self, ATTACKER), SideView(self, DEFENDER))

    @property
    def views(self) -> dict[Side, SideView]:
        """Each side's view of the battle (what its controller is given)."""
        views = self.sight.views
        if not views:
            views = self.sight.views = (SideView(self, ATTACKER), SideView(self, DEFENDER))
        return {ATTACKER: views[0], DEFENDER: views[1]}

    # ---- small helpers --------------------------------------------------------------------

    def note(self, kind: Kind, text: str, unit: Unit | None = None,
             target: Unit | None = None, value: int | None = None) -> None:
        """Log an event. One about a unit the other side cannot see (hidden, or infantry not
        detected) is for one side's eyes only (R8.1), and so are the dice rolled for it (the
        rolls logged just before it)."""
        if self.secret:
            self.keep_private(unit, target, None)
        self.log.append(_new_event(Event, (
            self.turn, kind, text, None if unit is None else unit.id,
            None if target is None else target.id, value)))

    def note_for(self, side: Side, kind: Kind, text: str, unit: Unit | None = None,
                 target: Unit | None = None) -> None:
        """Log an event for ``side``'s eyes only (R8.1), and the dice rolled for it."""
        self.keep_private(unit, target, side)
        self.note(kind, text, unit, target)

    def keep_private(self, unit: Unit | None, target: Unit | None,
                     private: Side | None) -> None:
        """Mark the event about to be logged (and the dice just rolled for it) as for one
        side only, when it is about a unit the other side cannot see or ``private`` says."""
        if unit is not None and (unit.hidden or (unit.kind is UnitKind.INFANTRY
                                                 and not unit.detected)):
            private = unit.side
        elif target is not None and target.kind is UnitKind.INFANTRY and not target.detected:
            private = target.side
        if private is not None:
            log = self.log
            at = len(log)
            self.mark_private(at, private)
            while at and log[at - 1].kind is _ROLL:
                at -= 1
                self.mark_private(at, private)

    def mark_private(self, at: int, side: Side) -> None:
        """The log event at ``at`` is for ``side``'s eyes only (counted as one more its enemy
        may not read)."""
        sight = self.sight
        before = sight.private.get(at)
        if before is side:
            return
        if before is not None:
            sight.hidden[before is ATTACKER] -= 1  # (its enemy could not read it)
        sight.private[at] = side
        sight.hidden[side is ATTACKER] += 1

    def d6(self, purpose: str) -> int:
        value = self.dice.d6(purpose)
        self.log.append(_new_event(Event, (self.turn, _ROLL, purpose, None, None, value)))
        return value

    def decided(self, side: Side, text: str) -> None:
        self.note(Kind.DECISION, f"{_title(side)} decides: {text}")

    def choose_index(self, count: int, purpose: str) -> int:
        """A random pick among ``count`` things, with dice (``rules.random_pick``)."""
        return random_pick(self, count, purpose)

    def side_units(self, side: Side) -> list[Unit]:
        return [u for u in self.units if u.side is side]

    def carrying(self, name: str, skill: bool = False) -> list[Unit]:
        """The units, in order, whose pilot has the skill ``name`` (``skill``) or that carry
        a system of that name, working or not: the few the engine need look at for it."""
        key = (skill, name)
        known = self._with.get(key)
        count = len(self.units)
        if known is None or known[0] != count:
            if skill:
                found = [u for u in self.units if u.skill(name)]
            else:
                found = [u for u in self.units if any(s.system.name == name for s in u.systems)]
            known = self._with[key] = (count, found)
        return known[1]

    # ``in_zone``, ``visible_in`` and ``contested`` spell ``Unit.on_map`` out (alive, arrived,
    # on a zone): they run for every unit many times a turn.

    def in_zone(self, zone: int, side: Side | None = None) -> list[Unit]:
        if zone is None:
            return []
        if side is None:
            return [u for u in self.units if u.zone == zone and u.destroyed_turn is None
                    and u.exited_turn is None and u.arrived]
        return [u for u in self.units if u.zone == zone and u.side is side
                and u.destroyed_turn is None and u.exited_turn is None and u.arrived]

    def visible_in(self, zone: int, side: Side) -> list[Unit]:
        if zone is None:
            return []
        return [u for u in self.units if u.zone == zone and u.side is side and not u.hidden
                and u.destroyed_turn is None and u.exited_turn is None and u.arrived]

    def unit(self, uid: str) -> Unit:
        return next(u for u in self.units if u.id == uid)

    def find(self, uid: object) -> Unit | None:
        """The unit a controller's answer names, or None when it names none."""
        return next((u for u in self.units if u.id == uid), None)

    def need_at(self, weapon: Weapon, band: Band) -> int | None:
        """``weapon.to_hit_at(band)`` (which the weapon keeps, as ``needs``)."""
        return weapon.needs[band]

    def terrain_to_hit(self, zone: int) -> int:
        return self._terrain[zone].to_hit

    def terrain_name(self, zone: int) -> str:
        return self._terrain[zone].name

    def adjacent(self, zone: int) -> list[int]:
        return list(self._adjacent[zone])

    def _neighbours(self, zone: int) -> list[int]:
        row, col = divmod(zone - 1, 3)
        steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
        if self.house.diagonal_moves:
            steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        out = []
        for dr, dc in steps:
            r, c = row + dr, col + dc
            if 0 <= r < 3 and 0 <= c < 3:
                out.append(r * 3 + c + 1)
        return sorted(out)

    def band_of(self, zone: int) -> Band:
        eng = self.engagements.get(zone)
        return eng.band if eng else Band.LONG

    def contested(self, zone: int, hidden: bool = False) -> bool:
        """Whether both sides have a unit on the map in ``zone`` that the enemy can see (or
        any unit at all, hidden ones too, with ``hidden``)."""
        if zone is None:
            return False
        attacker = defender = False
        for u in self.units:
            if u.zone == zone and (hidden or not u.hidden) and u.destroyed_turn is None \
                    and u.exited_turn is None and u.arrived:
                if u.side is ATTACKER:
                    attacker = True
                else:
                    defender = True
                if attacker and defender:
                    return True
        return False

    def enemies_in(self, zone: int, side: Side) -> list[Unit]:
        return self.visible_in(zone, DEFENDER if side is ATTACKER else ATTACKER)

    def terrain_heat(self, zone: int) -> bool:
        """Whether the zone's terrain adds one to heat ratings (R6.10: Moors)."""
        return self._terrain[zone].heat > 0

    def combat_zones(self) -> list[int]:
        return sorted(self.engagements)

    def shot_to_hit(self, unit: Unit | None, weapon: Weapon, target: Unit, band: Band,
                    gunnery: bool = False, single: bool = True) -> ToHit:
        """``to_hit`` of one shot of ``unit``'s ``weapon`` at ``target`` (``gunnery``: a
        Gunnery second shot): describing it uses up no once-a-turn skill."""
        return self.to_hit(Shot(unit, weapon, target, band, gunnery), single)

    # ---- asking the controllers --------------------------------------------------------------

    def face(self, side: Side, unit: Unit) -> Unit:
        """``unit`` as ``side`` sees it: an enemy Decoy as its Mek contact (R8.1)."""
        return self.sight.covers[unit.id] if unit.decoy and unit.side is not side else unit

    def faces(self, side: Side, units: Iterable[Unit]) -> list[Unit]:
        """``units`` as ``side`` sees them, leaving out any it cannot see (R8.1)."""
        if not self.secret and not self.sight.covers:
            return units if isinstance(units, list) else list(units)
        out = []
        for u in units:
            if u.side is not side:
                if u.hidden or (u.kind is UnitKind.INFANTRY and not u.detected):
                    continue
                if u.decoy:
                    u = self.sight.covers[u.id]
            out.append(u)
        return out

    def refuse(self, side: Side, decision: str, answer: object, why: str = "") -> MeksError:
        """The error for a controller's answer that is not one of the decision's options."""
        controller = self.controllers[side]
        replayed = getattr(controller, "last_replayed", None)
        shown = getattr(answer, "id", answer)
        if isinstance(answer, list | tuple):
            shown = [getattr(a, "id", a) for a in answer]
        text = (f"The {side.value}'s answer to '{decision}' on turn {self.turn} ({shown!r}) "
                f"is not one of its legal options{': ' + why if why else ''}.")
        if replayed is not None:
            from meks.engine.recorded import ReplayMismatch

            return ReplayMismatch(f"Recorded decision {replayed + 1} ('{decision}', turn "
                                  f"{self.turn}) is not legal in this battle: {shown!r} is not "
                                  "one of its options. The record does not fit this battle.")
        return BattleError(text)

    # ---- set-up -----------------------------------------------------------------------------

    def setup(self) -> None:
        self.note(Kind.TURN, f"Set-up: {self.scenario.name}")
        for side in SIDES:
            force = self.forces[side]
            prefix = "A" if side is Side.ATTACKER else "D"
            n = 0
            for spec in force.units:
                n += 1
                self.units.append(build_unit(spec, f"{prefix}{n}", side, self.catalog))
            for name in force.support:
                entry = self.catalog.support_entry(name)
                if entry.kind.value == "unit":
                    n += 1
                    self.units.append(build_unit(
                        _support_spec(entry.name), f"{prefix}{n}", side, self.catalog))
                else:
                    self.assets[side] += (entry.name,)
            rules = self.scenario.side(side)
            for sp in rules.strongpoints:
                for _ in range(sp.count):
                    n += 1
                    self.units.append(strongpoint(f"{prefix}{n}", side, sp.zone))
            while "Surprise" in self.assets[side]:  # each one is +3 on the first roll
                self.spend(side, "Surprise")
                self._surprise_pending[side] = self._surprise_pending.get(side, 0) + 1
        self.secret = any(u.kind is UnitKind.INFANTRY for u in self.units)
        if self.revision < FOG:
            for side in SIDES:
                self.deploy(side)
            for side in SIDES:
                self.setup_assets(side)
            self.sight.set_up = len(self.log)
            return
        # R8.1 (revision 9): each side sets up and places what hides, and only then does
        # the enemy see it (the defender, setting up second, sees the attacker's units it may
        # see); Battle Damage is dealt last, to what each side sees.
        for side in SIDES:
            self.deploy(side)
            self.setup_assets(side, HIDING)
            self.sight.placed += (side,)
        self.sight.set_up = len(self.log)
        for side in SIDES:
            self.setup_assets(side, ("Battle Damage",))

    def deploy(self, side: Side) -> None:
        rules = self.scenario.side(side)
        movers = [u for u in self.side_units(side) if u.mobile]
        if rules.reinforcements is not None:
            for unit in movers:
                unit.arrived = False
            # (how many is the side's to know, R8.1: its infantry among them)
            self.note_for(side, Kind.SETUP, f"{side.value.capitalize()}: {len(movers)} units "
                          "wait to arrive as reinforcements.")
            return
        view = self.sight.views[side is DEFENDER]
        placement = self.asked[side].deploy(view, side, list(movers))
        zones = rules.setup.zones if rules.setup else tuple(range(1, 10))
        if not isinstance(placement, dict):
            raise self.refuse(side, "deploy", placement)
        strays = sorted(set(placement) - {u.id for u in movers}, key=str)
        if strays:
            raise self.refuse(side, "deploy", strays, "it places units that are not set up now")
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
        for unit in self.side_units(side):
            where = f"zone {unit.zone}" if unit.zone else "off the map"
            # R8.1: the enemy is not told the set-up line by line (the order would give
            # away what hides later); it sees the units it may see once set-up is done.
            self.note_for(side, Kind.SETUP, f"{unit.name} ({unit.design}) sets up in "
                          f"{where}.", unit)

    def setup_assets(self, side: Side,
                     kinds: tuple[str, ...] = ("Battle Damage", *HIDING)) -> None:
        """The side's support assets placed at set-up, of ``kinds``, in the order it has
        them (R4.3)."""
        controller = self.asked[side]
        view = self.sight.views[side is DEFENDER]
        for asset in self.assets[side]:
            if asset not in kinds:
                continue
            choice = controller.setup_support(view, side, asset)
            if _among(choice, view.setup_options(asset)) < 0:
                raise self.refuse(side, f"setup_support ({asset})", choice)
            if choice is None:
                continue
            chosen = self.find(choice)
            if asset == "Minefield" and isinstance(choice, int):
                self.mines[side].append(choice)
                self.decided(side, "a minefield is laid (hidden) in one zone")
            elif asset == "Decoy" and isinstance(choice, int):
                self.lay_decoy(side, choice)
            elif asset == "Hidden Mek" and chosen is not None:
                chosen.hidden = self.secret = True
                # R8.1: the enemy never learns where it set up, nor that it did.
                for i, event in enumerate(self.log):
                    if event.kind is Kind.SETUP and event.unit == chosen.id:
                        self.mark_private(i, side)
                self.note_for(side, Kind.DECISION, f"{_title(side)} decides: {chosen.name} "
                              "sets up hidden")
            elif asset == "Battle Damage" and chosen is not None and chosen.decoy:
                self.note(Kind.SUPPORT, f"Battle Damage on {chosen.name}: no damage shows.",
                          target=chosen)
            elif asset == "Battle Damage" and chosen is not None:
                self.note(Kind.SUPPORT, f"Battle Damage: {chosen.name} starts damaged.",
                          target=chosen)
                self.critical(chosen, None)
                self.settle([chosen])  # a reactor that blows at set-up destroys the Mek
            self.spend(side, asset)

    def lay_decoy(self, side: Side, zone: int) -> None:
        """R4.3 Decoy: one false Mek contact. To the enemy it shows as a Mek of the side
        (its most valuable), set up in ``zone`` with no damage, under a unit id like any
        other; the enemy cannot tell it from a Mek until it is ID'd (R8.1)."""
        prefix = "A" if side is ATTACKER else "D"
        uid = f"{prefix}{len(self.side_units(side)) + 1}"
        meks = [u for u in self.side_units(side) if u.is_mek and not u.decoy]
        fake = decoy(uid, side, zone)
        cover = decoy(uid, side, zone)
        if meks:
            model = max(meks, key=lambda u: u.points)  # the first of the most valuable
            fake.name = model.name
            cover = copy_unit(model, uid, zone)
        cover.decoy = False
        self.sight.covers[uid] = cover
        self.units.append(fake)
        self.note_for(side, Kind.SETUP, f"{cover.name} ({cover.design}) sets up in zone "
                      f"{zone}.", fake)
        self.note_for(side, Kind.DECISION, f"{_title(side)} decides: the decoy in zone {zone} "
                      f"shows as {cover.name}")

    # ---- the game -----------------------------------------------------------------------------

    def run(self) -> Result:
        self.setup()
        while self.verdict is None or not self.verdict.decided:
            self.play_turn()
        # A finished battle lets go of its sides' views (``views`` makes new ones if asked):
        # in the compiled engine a view holds its battle strongly, as a compiled class takes
        # no weak reference, and the cycle would keep every finished battle alive until the
        # cyclic collector came round, which cost the compiled engine a seventh of its time.
        self.sight.views = ()
        return self.result()

    def result(self) -> Result:
        verdict = self.verdict
        assert verdict is not None
        winner = {Outcome.ATTACKER_WINS: Side.ATTACKER,
                  Outcome.DEFENDER_WINS: Side.DEFENDER}.get(verdict.outcome)
        return Result(winner, verdict.outcome, verdict.reason, self.turn, self.units,
                      self.early)

    def play_turn(self) -> None:
        self.turn += 1
        self.note(Kind.TURN, f"Turn {self.turn}")
        self.start_turn()
        first, second = self.initiative()
        self.movement_phase(first)
        self.combat_step()
        self.movement_phase(second)
        self.combat_step()
        self.second_movement(self.initiative_winner or first)
        self.end_turn()

    def start_turn(self) -> None:
        self.marked = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        self.identified = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        for unit in self.units:
            if unit.destroyed_turn is not None or unit.exited_turn is not None:  # not alive
                continue
            unit.heat, unit.carried_heat = unit.carried_heat, 0
            unit.ice_man_used = False
            if unit.heat and unit.skill("Ice Man"):
                unit.ice_man_used = True
                self.note(Kind.NOTE, f"{unit.name}'s pilot shrugs off the second-move heat "
                          "(Ice Man).", unit)
                unit.heat = 0
            unit.turn_skills = set()
            unit.dodged = False
            unit.moved = False
            unit.move_roll = 0
            for slot in unit.weapons:
                slot.fired = 0
            unit.can_act = True
            if unit.wounded and unit.on_map:
                self.wounded_roll(unit)
        for face in self.sight.covers.values():  # decoys' faces (R8.1)
            face.turn_skills = set()
        if any(self.assets.values()):  # (with no assets left, there is nothing to use)
            for side in SIDES:
                self.use_support(side, "turn start", None)

    def clock(self, unit: Unit) -> int:
        """What "next turn" effects count for ``unit`` (R5.2): game turns when a combat is
        one exchange a turn, else the rounds of zone combat the unit has fought."""
        return self.turn if self.house.one_exchange else unit.rounds

    def wounded_roll(self, unit: Unit) -> None:
        """R6.9 Pilot Wounded: the unit acts only on 5+, rolled at the start of each turn
        and of each later round of a zone combat (R5.2)."""
        who = "pilot" if unit.pilot is not None else "crew"
        roll = self.d6(f"wounded {who} of {unit.name} tries to act")
        unit.can_act = wounded_acts(roll)
        when = "this round" if self.round > 1 else "this turn"
        self.note(Kind.NOTE, f"{unit.name}'s wounded {who} rolls {roll}: "
                  + (f"acts {when}." if unit.can_act else f"cannot act {when}."),
                  unit, value=roll)

    def initiative(self) -> tuple[Side, Side]:
        """R5.3: one die each, +2 with Tactics, +3 on the first roll with Surprise; ties
        roll again. The winner chooses to move first or second."""
        first_roll = True
        while True:
            a = d = 0
            for side, name, title in _SIDE_WORDS:
                check = initiative(
                    any(u.side is side and u.on_map for u in self.carrying("Tactics", skill=True)),
                    self._surprise_pending.get(side, 0) if first_roll else 0)
                roll, total = check.roll(self, f"{name} initiative")
                bonus = check.modifier
                if side is ATTACKER:
                    a = total
                else:
                    d = total
                self.note(Kind.INITIATIVE, f"{title} initiative {roll}"
                          + (f"+{bonus}" if bonus else "") + f" = {total}", value=total)
            if first_roll:
                self._surprise_pending.clear()
            first_roll = False
            if a != d:
                break
        winner, loser = (ATTACKER, DEFENDER) if a > d else (DEFENDER, ATTACKER)
        self.initiative_winner = winner
        view = self.sight.views[winner is DEFENDER]
        goes_first = self.asked[winner].move_first(view, winner)
        if not isinstance(goes_first, bool):
            raise self.refuse(winner, "move_first", goes_first)
        self.decided(winner, "move first" if goes_first else "move second")
        self.first_mover = winner if goes_first else loser
        self.first_mover_turn = self.turn
        return (winner, loser) if goes_first else (loser, winner)

    # ---- movement --------------------------------------------------------------------------

    def movement_phase(self, side: Side) -> None:
        self.arrivals(side)
        orders = self.asked[side].movement(self.sight.views[side is DEFENDER], side)
        units = self.side_units(side)  # moving adds no unit; only dismounting does
        if orders:
            self.give_orders(side, "movement", orders, units, second=False)
        for unit in units:
            # R5.4/R6.3: contact broken before this movement let units leave in it; that
            # was their next movement, so from now on they are held again.
            unit.may_leave = None
        # R4.4: a squad may get out wherever its APC stands, not only when a combat starts.
        for zone in sorted({u.zone for u in units
                            if u.carries_infantry and u.on_map and u.zone is not None}):
            self.dismount(side, zone)

    def give_orders(self, side: Side, decision: str, orders: object, units: list[Unit],
                    second: bool) -> None:
        """Carry out a movement's orders. Each must name one of the side's units and one of
        its legal moves (the view's ``move_options``); anything else is refused."""
        if not isinstance(orders, dict):
            raise self.refuse(side, decision, orders)
        given = 0
        for unit in units:
            if unit.id in orders:
                given += 1
                where = orders[unit.id]
                if second:
                    unit.moved = False
                if where is not None and not self.order_move(unit, where, second):
                    raise self.refuse(side, decision, {unit.id: where},
                                      f"{unit.name} cannot make that move now")
        if given != len(orders):
            ids = {u.id for u in units}
            stray = next(uid for uid in orders if uid not in ids)
            raise self.refuse(side, decision, {stray: orders[stray]},
                              f"{stray!r} is none of its units")

    def can_leave(self, unit: Unit) -> bool:
        """R5.4: a unit may not leave a zone holding enemies (that its side can see, R8.1)
        unless its side broke contact there this turn."""
        assert unit.zone is not None
        if unit.may_leave == unit.zone:
            return True
        if self.secret:
            return not self.sight.views[unit.side is DEFENDER].enemies_in(unit.zone, unit.side)
        return not self.enemies_in(unit.zone, unit.side)

    def order_move(self, unit: Unit, where: int | Edge | str | None, second: bool) -> bool:
        if where is None or not unit.on_map or not unit.mobile or not unit.can_act \
                or unit.moved or unit.zone is None:
            return False
        if where == "dig":
            if "Digging In" in self.assets[unit.side] and unit.is_mek and not second:
                self.spend(unit.side, "Digging In")
                unit.dug_in_zone = unit.zone
                unit.moved = True
                self.note(Kind.SUPPORT, f"{unit.name} digs in in zone {unit.zone}.", unit)
                return True
            return False
        if not self.can_leave(unit):
            return False
        if isinstance(where, Edge):
            # R5.4 forbids only entering enemies in the second movement, so a unit may leave
            # the map then too.
            rules = [r for r in self.scenario.side(unit.side).exits if r.edge is where]
            if not any(unit.zone in r.zones for r in rules):
                return False
            unit.exited_turn, unit.exit_edge, unit.exit_zone = self.turn, where, unit.zone
            unit.moved = True
            self.note(Kind.EXIT, f"{unit.name} leaves the map across the {where.value} edge "
                      f"from zone {unit.zone}.", unit)
            return True
        if type(where) is not int or where not in self._adjacent[unit.zone]:
            return False
        if second and self.sight.views[unit.side is DEFENDER].enemies_in(where, unit.side):
            return False  # (enemies its side can see: R8.1)
        origin = unit.zone
        unit.zone = where
        unit.moved = True
        if unit.hidden:  # R4.3: a hidden Mek is revealed when it moves
            unit.hidden = False
            self.note(Kind.NOTE, f"{unit.name} leaves its hiding place.", unit)
        if unit.dug_in_zone is not None and unit.dug_in_zone != where:
            unit.dug_in_zone = None
        if second and unit.is_mek:
            unit.carried_heat += SECOND_MOVE_HEAT
        self.note(Kind.MOVE, f"{unit.name} moves from zone {origin} to zone {where}"
                  + (f" (second movement, +{SECOND_MOVE_HEAT} heat next turn)"
                     if second and unit.is_mek else "")
                  + ".", unit, value=where)
        self.minefield(unit)
        return True

    def minefield(self, unit: Unit) -> None:
        """R4.3: each enemy Mek entering a mined zone takes 1 hit on a 3+; two minefields
        laid in one zone roll one after the other (a destroyed Mek rolls no more)."""
        if not unit.is_mek or unit.decoy:
            return
        for zone in self.mines[unit.side.enemy]:
            if unit.zone != zone or not unit.alive:
                continue
            roll, hit = MINEFIELD.roll(self, f"minefield against {unit.name}")
            if hit:
                self.note(Kind.MINE, f"{unit.name} hits a mine ({roll}).", unit, value=roll)
                self.damage(unit, MINEFIELD_HITS, None, None)
                self.settle([unit])
            else:
                self.note(Kind.MINE, f"{unit.name} crosses the minefield unharmed ({roll}).",
                          unit, value=roll)

    def arrivals(self, side: Side) -> None:
        """Reinforcements (R7.2, Citadel): each waiting unit rolls to arrive this turn."""
        plan = self.scenario.side(side).reinforcements
        if plan is None:
            return
        need = plan.schedule.get(self.turn)
        if need is None:
            return
        for unit in self.side_units(side):
            if unit.arrived or not unit.alive or not unit.mobile:
                continue
            if need != "all":
                roll, arrives = arrival(int(need)).roll(self, f"arrival of {unit.name}")
                if not arrives:
                    self.note(Kind.ARRIVE, f"{unit.name} does not arrive yet ({roll}, needs "
                              f"{need}+).", unit, value=roll)
                    continue
            if plan.zone_choice.value == "random":
                zone = plan.zones[self.choose_index(len(plan.zones),
                                                    f"arrival zone of {unit.name}")]
            else:
                zone = self.asked[side].arrival_zone(self.sight.views[side is DEFENDER], unit,
                                                           list(plan.zones))
                if _among(zone, plan.zones) < 0:
                    raise self.refuse(side, "arrival_zone", zone)
            unit.arrived, unit.zone, unit.moved = True, zone, True
            self.note(Kind.ARRIVE, f"{unit.name} arrives in zone {zone}.", unit, value=zone)
            self.minefield(unit)

    def second_movement(self, side: Side) -> None:
        """R5.2/R5.4: the initiative winner may move again, never into enemies; each Mek
        that does starts next turn with 2 heat."""
        orders = self.asked[side].second_move(self.sight.views[side is DEFENDER], side)
        if orders:
            self.give_orders(side, "second_move", orders, self.side_units(side), second=True)

    # ---- zone combat ---------------------------------------------------------------------

    def combat_step(self) -> None:
        """R5.2: every contested zone not yet fought this turn fights now (Advanced sensors
        and Hawkeye pilots look into the zones around them first)."""
        self.sensor_sweep()
        self.hawkeye()
        hidden = any(u.hidden for u in self.units)
        occupied = {u.zone for u in self.units if u.zone is not None and u.destroyed_turn is None
                    and u.exited_turn is None and u.arrived}  # zones with units on the map
        for zone in sorted(occupied | set(self.engagements)):
            if hidden:
                self.reveal_hidden(zone)
            if not self.contested(zone):
                if zone in self.engagements and not self.contested(zone, hidden=True):
                    del self.engagements[zone]
                continue
            if self.fought_in.get(zone) == self.turn:
                continue  # R5.2: at most one zone combat per zone a turn, even a new one
            self.zone_combat(zone)

    def reveal_hidden(self, zone: int) -> None:
        for side in SIDES:
            hidden = [u for u in self.in_zone(zone, side) if u.hidden]
            if hidden and self.enemies_in(zone, side) and not self.visible_in(zone, side):
                for unit in hidden:
                    answer = self.asked[side].reveal(self.sight.views[side is DEFENDER], unit)
                    if not isinstance(answer, bool):
                        raise self.refuse(side, "reveal", answer)
                    if answer:
                        unit.hidden = False
                        self.decided(side, f"{unit.name} comes out of hiding")

    def zone_combat(self, zone: int) -> None:
        """R5.2: the zone's combat, fought in rounds until one side has no unit there the
        other can see, a side breaks contact, or the scenario's cap on rounds is reached
        (``combat_rounds``; 1 is the earlier reading, one exchange a turn)."""
        eng = self.engagements.get(zone)
        if eng is None:
            eng = self.engagements[zone] = Engagement(zone)
            self.note(Kind.ENGAGE, f"Combat begins in zone {zone} "
                      f"({self.terrain_name(zone)}) at Long range.", value=zone)
        eng.fought = self.fought_in[zone] = self.turn
        order = self.acting_order()
        cap = self.house.combat_rounds
        number = 0
        while number < cap:
            number += 1
            self.round = number
            if not self.combat_round(eng, order, number, cap):
                break
        self.round = 0

    def combat_round(self, eng: Engagement, order: list[Side], number: int, cap: int) -> bool:
        """One round of a zone combat (R5.2). Returns whether the combat goes on to another
        round: with a cap above 1, while the zone is still contested; heat fades as each
        round ends, for every unit that began it there (R6.10)."""
        if cap == 1:
            self.exchange(eng, order, number)
            return False
        eng.doubled = None  # R6.3: doubled terrain lasts the round it was chosen in
        self.begin_round(eng.zone, number)
        fighting = self.in_zone(eng.zone)
        fired = self.exchange(eng, order, number)
        for unit in fighting:
            unit.heat = 0
        return fired and self.contested(eng.zone)

    def exchange(self, eng: Engagement, order: list[Side], number: int) -> bool:
        """The steps of one exchange: support and dismounting, the movement rolls and the
        range, then every unit's fire, taking effect as it ends (R6.0). Returns whether the
        fire came (not when the zone stopped being contested, or contact was broken)."""
        zone = eng.zone
        supported = any(self.assets.values())  # assets are only ever used up
        for side in order:
            if supported:
                self.use_support(side, "combat", zone)
                if number == 1:  # R4.3: the Ambush strikes as a combat begins
                    self.ambush(side, zone)
            self.dismount(side, zone)
        for unit in self.in_zone(zone):
            unit.fought = True
        if not self.contested(zone):
            self.end_combat(zone)
            return False
        rolls = {side: self.side_movement(side, zone) for side in SIDES}
        if self.range_step(eng, rolls):  # contact broken: the combat is over
            self.end_combat(zone)
            return False
        plans: list[tuple[Unit, list[Unit]]] = []
        for side in order:
            actors = self.actors(zone, side)
            if any(u.commando for u in actors):
                for unit in actors:
                    self.commando_action(unit)
                actors = self.actors(zone, side)
            for unit in actors:
                if unit.commando:
                    continue
                plans.append((unit, self.choose_targets(unit, eng.band)))
        for unit, targets in plans:
            if targets:
                self.attack(unit, targets, eng.band)
        self.end_combat(zone)
        return True

    def begin_round(self, zone: int, number: int) -> None:
        """R5.2: a round begins. What the zone-combat rules allow once a turn is allowed
        once a round: targets, each weapon's fire, once-a-turn skills, a dodge, detection
        rolls, the Commandos' mark (identifications hold for the turn, and so does
        Hawkeye, used before the combats). A wounded pilot rolls to act again from the
        second round on (the turn's own roll covers the first), and each unit's count of
        rounds moves on (Computers damage counts rounds, R6.9)."""
        self.note(Kind.ROUND, f"Round {number} in zone {zone} "
                  f"({self.band_of(zone).value} range).", value=number)
        self.marked = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        for unit in self.in_zone(zone):
            unit.rounds += 1
            for slot in unit.weapons:
                slot.fired = 0
            unit.dodged = False
            unit.move_roll = 0
            if unit.turn_skills:
                unit.turn_skills = {k for k in unit.turn_skills if k in _KEPT_FOR_THE_TURN
                                    or k.startswith(_IDS_KEPT)}
            if unit.wounded and number > 1:
                self.wounded_roll(unit)

    def acting_order(self) -> list[Side]:
        first = self.initiative_winner or ATTACKER
        return [first, DEFENDER if first is ATTACKER else ATTACKER]

    def actors(self, zone: int, side: Side) -> list[Unit]:
        return [u for u in self.units if u.zone == zone and u.side is side and u.can_act
                and not u.decoy and u.destroyed_turn is None and u.exited_turn is None
                and u.arrived]

    def side_movement(self, side: Side, zone: int) -> int:
        """R6.2: the side's result is its best unit's movement roll."""
        best = 0
        for unit in self.actors(zone, side):
            if not unit.mobile and unit.kind is not UnitKind.INFANTRY:
                continue
            roll = self.movement_roll(unit)
            if roll > best:
                best = roll
        return best

    def movement_roll(self, unit: Unit) -> int:
        """R6.2: chassis dice plus terrain, pilot level, Maneuver, Chassis Familiarity,
        Servo Boosters and Jump Jets, less Leg Damage."""
        assert unit.zone is not None
        parts = []
        jump = unit.has_system("Jump Jets") and self.ask_jump(unit)
        if jump:
            self.add_heat(unit, JUMP_HEAT, "jump jets")
            parts.append("jump jets")
        check = self.describe_movement_roll(unit, jump)
        rolled, total = check.roll(self, f"movement roll of {unit.name}")
        mods = check.modifiers
        unit.move_roll = total
        listed = f" [{', '.join(f'{name} {m:+d}' for m, name in mods)}]" if mods else ""
        self.note(Kind.MOVEMENT_ROLL, f"{unit.name} movement roll {rolled} -> {total}"
                  + (f" ({', '.join(parts)})" if parts else "") + listed + ".", unit,
                  value=total)
        return total

    def describe_movement_roll(self, unit: Unit, jump: bool = False,
                               has: Callable[[str], bool] | None = None,
                               ignore_terrain: bool = False) -> MovementRoll:
        """R6.2: the unit's movement roll (``jump``: with its Jump Jets; ``has``: whether it
        has a working system of a name, by default ``unit.has_system``). Infantry roll one
        die and no terrain."""
        infantry = unit.kind is UnitKind.INFANTRY
        terrain = self._terrain[unit.zone or 5]
        pilot = unit.pilot
        return movement_roll(
            1 if infantry else unit.move.dice, bonus=unit.move.bonus, terrain=terrain.move,
            terrain_name=terrain.name,
            ignore_terrain=ignore_terrain or infantry or unit.ignores_terrain_movement,
            jump=jump and not infantry,
            level=pilot.level.move if pilot is not None else 0,
            level_name=pilot.level.level if pilot is not None else "",
            maneuver=pilot is not None and pilot.has("Maneuver"),
            familiarity=pilot is not None and pilot.familiarity is not None
            and pilot.familiarity is unit.size,
            servo_boosters=unit.has_system("Servo Boosters") if has is None
            else has("Servo Boosters"), legs=unit.legs)

    def ask_jump(self, unit: Unit) -> bool:
        answer = self.asked[unit.side].jump(self.sight.views[unit.side is DEFENDER], unit)
        if not isinstance(answer, bool):
            raise self.refuse(unit.side, "jump", answer)
        return answer

    def movement_modifiers(self, unit: Unit, ignore_terrain: bool) -> list[tuple[int, str]]:
        """R6.2: what a movement roll adds to its dice, each named (those that add nothing
        left out)."""
        return self.describe_movement_roll(unit, ignore_terrain=ignore_terrain).modifiers

    def range_step(self, eng: Engagement, rolls: dict[Side, int]) -> bool:
        """R6.3: the strictly higher roll may shift the band, break contact at Long, or with
        more than twice the other's roll shift two bands or double terrain. Returns whether
        contact was broken."""
        a, d = rolls[ATTACKER], rolls[DEFENDER]
        if a == d:
            self.note(Kind.RANGE, f"Movement rolls tie ({a}); the range stays "
                      f"{eng.band.value}.")
            return False
        winner, high, low = (ATTACKER, a, d) if a > d else (DEFENDER, d, a)
        index = BANDS.index(eng.band)
        options = [RangeChoice.STAY]
        if index > 0:
            options.append(RangeChoice.CLOSE)
        if index < 2:
            options.append(RangeChoice.OPEN)
        if eng.band is Band.LONG and (self.house.break_contact is BreakContact.STAY
                                      or self.withdrawal_zones(eng.zone, winner)):
            options.append(RangeChoice.BREAK)
        if high > 2 * low:
            if index > 1:
                options.append(RangeChoice.CLOSE_TWO)
            if index < 1:
                options.append(RangeChoice.OPEN_TWO)
            options.append(RangeChoice.DOUBLE)
        view = self.sight.views[winner is DEFENDER]
        choice = self.asked[winner].range_choice(view, eng.zone, winner, list(options))
        if _among(choice, options) < 0:
            raise self.refuse(winner, "range_choice", choice)
        self.decided(winner, f"{choice.value} in zone {eng.zone}")
        step = (-1 if choice is RangeChoice.CLOSE else 1 if choice is RangeChoice.OPEN
                else -2 if choice is RangeChoice.CLOSE_TWO else 2
                if choice is RangeChoice.OPEN_TWO else 0)
        if step:
            eng.band = BANDS[index + step]
        if choice is RangeChoice.BREAK:
            if self.house.break_contact is BreakContact.STAY:
                for unit in self.in_zone(eng.zone, winner):
                    unit.may_leave = eng.zone
                self.note(Kind.BREAK, f"The {winner.value} breaks contact in zone {eng.zone}; "
                          "no one fires there this turn.")
            else:
                self.note(Kind.BREAK, f"The {winner.value} breaks contact in zone {eng.zone} "
                          "and pulls out.")
                self.withdraw(winner, eng.zone)
            return True
        if choice is RangeChoice.DOUBLE:
            eng.doubled, eng.doubled_turn = winner, self.turn
        self.note(Kind.RANGE, f"{_title(winner)} wins the movement roll {high} to "
                  f"{low}: range {eng.band.value} in zone {eng.zone}.", value=high)
        return False

    def withdrawal_zones(self, zone: int, side: Side) -> list[tuple[Unit, list[int]]]:
        """R6.3: the ``side``'s units in ``zone`` that could withdraw on breaking contact
        there, each with the adjacent zones it may withdraw into (none holding an enemy unit
        the side can see, R8.1): units on the map that can move and act, not hidden (a
        hidden unit is not in the fight) and not a decoy (a false contact goes nowhere)."""
        out: list[tuple[Unit, list[int]]] = []
        view = self.sight.views[side is DEFENDER]
        for unit in self.in_zone(zone, side):
            if unit.mobile and unit.can_act and not unit.hidden and not unit.decoy:
                zones = [z for z in self._adjacent[zone] if not view.enemies_in(z, side)]
                if zones:
                    out.append((unit, zones))
        return out

    def withdraw(self, side: Side, zone: int) -> None:
        """R6.3: having broken contact in ``zone``, each of the side's units there that can
        withdraws at once into an adjacent zone free of enemies, its controller choosing
        which. It counts as the unit's move this phase (it enters minefields, leaves a
        dug-in position); units that cannot withdraw stay."""
        controller = self.asked[side]
        view = self.sight.views[side is DEFENDER]
        for unit, zones in self.withdrawal_zones(zone, side):
            where = controller.withdraw(view, unit, list(zones))
            if _among(where, zones) < 0:
                raise self.refuse(side, "withdraw", where)
            unit.zone = where
            unit.moved = True
            if unit.dug_in_zone is not None:
                unit.dug_in_zone = None
            self.note(Kind.MOVE, f"{unit.name} withdraws from zone {zone} to zone {where}.",
                      unit, value=where)
            self.minefield(unit)

    # ---- detection, identification, targets ------------------------------------------------

    def can_target(self, unit: Unit, enemy: Unit, band: Band, missile: bool = False) -> bool:
        """R6.4: whether ``unit`` may attack ``enemy`` this turn, rolling detection where a
        roll is needed (remembered for the turn)."""
        if enemy.hidden or enemy.zone is None or enemy.destroyed_turn is not None \
                or enemy.exited_turn is not None or not enemy.arrived:  # not on the map
            return False
        if enemy.kind is UnitKind.INFANTRY:
            return enemy.detected or self.detect_infantry(unit, enemy, band)
        if enemy.has_system("Masking & Insulation"):  # masked
            if missile and self.data_linked(unit, enemy):
                return True
            return self.detect_masked(unit, enemy, band)
        return True

    def detect_infantry(self, unit: Unit, enemy: Unit, band: Band) -> bool:
        key = f"detect:{enemy.id}"
        if key in unit.turn_skills:
            return False
        unit.turn_skills.add(key)
        check = infantry_detection(unit.sensors, band)
        if not check.possible:
            return False  # R6.4: no die is rolled when no result could succeed
        roll, found = check.roll(self, f"{unit.name} looks for {enemy.name}")
        enemy.detected = enemy.detected or found
        self.note(Kind.DETECT, f"{unit.name} {'finds' if found else 'does not find'} "
                  f"{enemy.name} ({roll}{check.modifier:+d}, needs {check.need}).", unit,
                  enemy, roll)
        return found

    def detect_masked(self, unit: Unit, enemy: Unit, band: Band) -> bool:
        key = f"masked:{enemy.id}"
        if key + ":yes" in unit.turn_skills:
            return True
        if key in unit.turn_skills:
            return False
        unit.turn_skills.add(key)
        check = masked_detection(unit.sensors, band)
        if not check.possible:
            return False  # R6.4: no die is rolled when no result could succeed
        roll, found = check.roll(self, f"{unit.name} tries to detect masked {enemy.name}")
        if found:
            unit.turn_skills.add(key + ":yes")
        self.note(Kind.DETECT, f"{unit.name} {'detects' if found else 'cannot detect'} the "
                  f"masked {enemy.name} ({roll}, needs {check.need}).", unit, enemy, roll)
        return found

    def identifies(self, unit: Unit, enemy: Unit, band: Band, adjacent: bool = False) -> bool:
        """R6.4 ID: Basic sensors at Medium or closer, Improved at Long, Advanced also in
        adjacent zones; masked units need a roll."""
        sensors = unit.sensors
        if adjacent and sensors is not Sensors.ADVANCED:
            return False
        if enemy.masked:
            check = masked_identification(sensors, band)
            if not check.possible:
                return False  # R6.4: where no roll could succeed, none is made
            return check.roll(self, f"{unit.name} tries to identify masked {enemy.name}")[1]
        return identifies_unmasked(sensors, band)

    def data_linked(self, unit: Unit, enemy: Unit) -> bool:
        """R6.4 Data Link: a friendly Data Link Mek in the zone that has itself ID'd the
        enemy this turn (by its sensors, or by its pilot's Hawkeye)."""
        for friend in self.in_zone(unit.zone or 0, unit.side):
            if friend.has_system("Data Link") and friend.can_act:
                key = f"id:{enemy.id}"
                if key not in friend.turn_skills:
                    friend.turn_skills.add(key)
                    if self.identifies(friend, enemy, self.band_of(friend.zone or 0)):
                        self.identify(friend, enemy, f"{friend.name} identifies {enemy.name} "
                                      "for its Data Link.")
                if f"identified:{enemy.id}" in friend.turn_skills:
                    return True
        return False

    def identify(self, unit: Unit, enemy: Unit, text: str) -> None:
        """``unit`` has ID'd ``enemy`` this turn (R6.4): the side knows it, and a Decoy
        vanishes."""
        unit.turn_skills.add(f"identified:{enemy.id}")
        self.learn(self.identified, unit.side, (enemy.id,))
        self.learn(self.known, unit.side, (enemy.id,))
        if enemy.decoy:
            self.vanish(enemy, f"{text} It is a decoy.")
        else:
            self.note(Kind.IDENTIFY, text, unit, enemy)

    def sensor_sweep(self) -> None:
        """R6.4: Advanced sensors ID enemy units in adjacent zones too (masked ones on 2+),
        each enemy once a turn."""
        for unit in self.carrying("Advanced Sensors"):
            if not (unit.can_act and unit.on_map and unit.sensors is Sensors.ADVANCED) or \
                    unit.zone is None:
                continue
            for zone in self.adjacent(unit.zone):
                for enemy in self.enemies_in(zone, unit.side):
                    key = f"id:{enemy.id}"
                    if key in unit.turn_skills:
                        continue
                    unit.turn_skills.add(key)
                    if self.identifies(unit, enemy, Band.LONG, adjacent=True):
                        self.identify(unit, enemy, f"{unit.name}'s sensors identify "
                                      f"{enemy.name} in zone {zone}.")

    def hawkeye(self) -> None:
        """R6.4 Hawkeye: once a turn, the pilot tries to ID one enemy unit of its choice in
        its zone or an adjacent zone, on 5+."""
        for unit in self.carrying("Hawkeye", skill=True):
            if not (unit.can_act and unit.on_map) or \
                    "Hawkeye" in unit.turn_skills or unit.zone is None:
                continue
            near = [unit.zone, *self.adjacent(unit.zone)]
            candidates = [e for z in near for e in self.enemies_in(z, unit.side)
                          if e.id not in self.identified[unit.side]
                          and (e.kind is not UnitKind.INFANTRY or e.detected)]
            if not candidates:
                continue
            faces = self.faces(unit.side, candidates)
            view = self.sight.views[unit.side is DEFENDER]
            answer = self.asked[unit.side].hawkeye(view, unit, faces)
            if answer is None:
                continue
            index = _among(answer, faces)
            if index < 0:
                raise self.refuse(unit.side, "hawkeye", answer)
            choice = candidates[index]
            unit.turn_skills.add("Hawkeye")
            roll, seen = HAWKEYE.roll(self, f"Hawkeye of {unit.name}")
            if seen:
                self.identify(unit, choice, f"{unit.name}'s pilot identifies {choice.name} in "
                              f"zone {choice.zone} (Hawkeye, {roll}).")
            else:
                self.note(Kind.IDENTIFY, f"{unit.name}'s pilot cannot make out {choice.name} "
                          f"(Hawkeye, {roll}).", unit, choice, roll)

    def unmask_decoys(self, unit: Unit, band: Band) -> None:
        """A Decoy vanishes once identified (R4.3): its sensors try as it picks targets."""
        assert unit.zone is not None
        for enemy in self.enemies_in(unit.zone, unit.side):
            if enemy.decoy and self.identifies(unit, enemy, band):
                self.vanish(enemy, f"{unit.name} identifies the contact in zone "
                            f"{enemy.zone}: a decoy.")

    def vanish(self, fake: Unit, text: str) -> None:
        fake.destroyed_turn = self.turn
        self.learn(self.identified, fake.side.enemy, (fake.id,))
        self.note(Kind.IDENTIFY, text, target=fake)

    def choose_targets(self, unit: Unit, band: Band) -> list[Unit]:
        """R6.5: one target a turn, two with a Director, one more with Quick Draw."""
        assert unit.zone is not None
        enemies = self.enemies_in(unit.zone, unit.side)
        if any(e.decoy for e in enemies):  # with no decoy in sight, nothing to unmask
            self.unmask_decoys(unit, band)
            enemies = self.enemies_in(unit.zone, unit.side)
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
        candidates = [e for e in enemies if self.can_target(unit, e, band, has_missiles)]
        if unit.kind is UnitKind.INFANTRY:  # infantry fights at Short only, one target
            if band is not Band.SHORT:
                return []
            limit = 1
            candidates = [e for e in candidates if e.kind is not UnitKind.INFANTRY]
        if not candidates:
            return []
        side = unit.side
        sight = self.sight
        faces = candidates if not self.secret and not sight.covers else \
            self.faces(side, candidates)
        answer = self.asked[side].targets(sight.views[side is DEFENDER], unit, faces,
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
                raise self.refuse(side, "targets", answer, f"at most {limit} different "
                                  "candidates")
        if faces is not candidates:
            chosen = [candidates[faces.index(t)] for t in chosen]
        if chosen:
            self.decided(unit.side, f"{unit.name} targets "
                         + ", ".join([t.name for t in chosen]))
            ids = [t.id for t in chosen]
            self.learn(self.known, unit.side, ids)
            self.learn(self.targeted, unit.side, ids)
        return chosen

    def commando_action(self, unit: Unit) -> None:
        """R4.4 Commandos: each turn ID one enemy unit in their zone, or +1 to hit it."""
        if not unit.commando or unit.zone is None:
            return
        enemies = [e for e in self.enemies_in(unit.zone, unit.side)
                   if e.kind is not UnitKind.INFANTRY or e.detected]
        if not enemies:
            return
        faces = self.faces(unit.side, enemies)
        view = self.sight.views[unit.side is DEFENDER]
        action = self.asked[unit.side].commando(view, unit, faces)
        if action is None:
            return
        index = _among(action[1], faces) if isinstance(action, tuple) and len(action) == 2 \
            else -1
        if index < 0 or action[0] not in ("identify", "mark"):
            raise self.refuse(unit.side, "commando", action)
        what, target = action[0], enemies[index]
        if what == "identify":
            self.learn(self.identified, unit.side, (target.id,))
            self.learn(self.known, unit.side, (target.id,))
            if target.decoy:
                self.vanish(target, f"{unit.name} find that {target.name} is a decoy.")
            else:
                self.note(Kind.IDENTIFY, f"{unit.name} identify {target.name}.", unit, target)
        else:
            self.learn(self.marked, unit.side, (target.id,))
            self.note(Kind.TARGET, f"{unit.name} mark {target.name}: +1 to hit it this "
                      f"{'turn' if self.house.one_exchange else 'round'}.", unit, target)

    # ---- attacks ------------------------------------------------------------------------------

    def attack(self, unit: Unit, targets: list[Unit], band: Band) -> None:
        """One unit's attacks this turn, weapon by weapon in the controller's order.

        Each entry of the plan must be legal (R6.5, R6.11): a working weapon of the unit, at
        one of its targets, able to fire at this band at that kind of target, each weapon
        once (a Gunnery pilot's one cannon-family or CIWS weapon twice). Anything else is
        refused. A weapon lost to an overheat earlier in the plan is passed over."""
        if unit.kind is UnitKind.INFANTRY:
            self.infantry_attack(unit, targets[0])
            return
        side = unit.side
        sight = self.sight
        faces = targets if not self.secret and not sight.covers else self.faces(side, targets)
        plan = self.asked[side].fire_plan(sight.views[side is DEFENDER], unit, faces,
                                                band)
        if not isinstance(plan, list) and not isinstance(plan, tuple):
            raise self.refuse(side, "fire_plan", plan)
        single = len(targets) == 1
        lost: list[WeaponSlot] = []  # overheated in this plan
        for entry in plan:
            try:
                slot, face = entry
            except (TypeError, ValueError):
                raise self.refuse(side, "fire_plan", entry) from None
            index = faces.index(face) if face in faces else -1
            if index < 0 or not _holds(unit.weapons, slot):
                raise self.refuse(side, "fire_plan", (getattr(slot, "name", slot), face),
                                  "a weapon of the unit at one of its targets")
            if slot.destroyed:
                if _holds(lost, slot):
                    continue
                raise self.refuse(side, "fire_plan", (slot.name, face),
                                  f"the {slot.name} is destroyed")
            target = targets[index]
            weapon = slot.weapon
            small = weapon.is_small
            infantry = target.kind is UnitKind.INFANTRY
            if (small and not (infantry and band is Band.SHORT)) or \
                    (not small and weapon.needs[band] is None):
                raise self.refuse(side, "fire_plan", (slot.name, face),
                                  f"the {slot.name} cannot fire at it at {band.value} range")
            again = False  # a Gunnery second shot
            if slot.fired >= 1:
                if not may_fire_again(weapon, slot.fired, self.gunnery_left(unit)):
                    raise self.refuse(side, "fire_plan", (slot.name, face),
                                      f"the {slot.name} has fired already")
                again = True
            if not self.can_target(unit, target, band, weapon.family is Family.MISSILE):
                continue
            slot.fired += 1
            if again:
                unit.turn_skills.add("Gunnery")
            if unit.hidden:  # R4.3: a hidden Mek is revealed when it fires
                unit.hidden = False
                self.note(Kind.NOTE, f"{unit.name} fires from hiding and is revealed.", unit)
            if not self.weapon_heat(unit, slot):
                lost.append(slot)
                continue
            if infantry:
                # The Gunnery -2 falls on the kills roll, as the terrain to-hit modifier does.
                self.infantry_kills(unit, weapon, target, again)
            else:
                self.shoot(Shot(unit, weapon, target, band, again), single=single)

    @staticmethod
    def gunnery_left(unit: Unit) -> bool:
        """R6.5: the unit's pilot has Gunnery, not yet used this turn."""
        return unit.skill("Gunnery") and "Gunnery" not in unit.turn_skills

    def weapon_heat(self, unit: Unit, slot: WeaponSlot) -> bool:
        """R6.10: add the weapon's heat; above the rating, the overheat roll. Returns
        whether the weapon still fires."""
        if unit.vehicle or unit.pilot is None:
            return True  # R4.4: vehicles (and infantry) never overheat
        unit.heat += slot.weapon.heat
        rating = unit.heat_rating(self._terrain[unit.zone or 5].heat > 0)
        if unit.heat <= rating:
            return True  # within the rating: no overheat roll
        check = overheat(unit.heat, rating, slot.weapon)
        excess = check.excess
        roll, holds = check.roll(self, f"overheat roll for {unit.name}'s {slot.name}")
        if holds:
            self.note(Kind.OVERHEAT, f"{unit.name} runs hot ({unit.heat}/{rating}) but its "
                      f"{slot.name} holds ({roll} > {excess}).", unit, value=roll)
            return True
        # R6.10: the weapon is destroyed as it fires, so its shot is lost; its heat stays
        # counted for the weapons after it.
        self.overheat(unit, slot, roll, excess)
        return False

    def overheat(self, unit: Unit, slot: WeaponSlot, roll: int, excess: int) -> None:
        """R6.10: the weapon is destroyed and the Mek takes 2 hits (missiles) or 1 (others),
        with no save and no critical check."""
        slot.destroyed = True
        hits = overheat_hits(slot.weapon)
        self.note(Kind.OVERHEAT, f"{unit.name}'s {slot.name} overheats ({roll} <= {excess}) "
                  f"and is destroyed; {unit.name} takes {hits} hit{'s' * (hits > 1)}.", unit,
                  value=roll)
        self.damage(unit, hits, None, None, checks=False)

    def add_heat(self, unit: Unit, amount: int, source: str) -> None:
        """Heat from jump jets or agility (R6.10); Ice Man ignores one such source a turn."""
        if unit.vehicle:
            return
        if unit.skill("Ice Man") and not unit.ice_man_used:
            unit.ice_man_used = True
            self.note(Kind.NOTE, f"{unit.name}'s pilot ignores the {source} heat (Ice Man).",
                      unit)
            return
        unit.heat += amount

    def to_hit(self, shot: Shot, single: bool) -> ToHit:
        """R6.6: the to-hit roll of a shot, every modifier named (``single``: the attacker
        has one target this turn). Asking uses up no once-a-turn skill: ``shoot`` does."""
        unit, weapon, target, band = shot.unit, shot.weapon, shot.target, shot.band
        if target.decoy and self.revision >= FOG:
            # R8.1: a shot at a decoy is rolled as the shooter sees it, at the Mek it passes
            # for (its systems and pilot count), the same modifiers before and after.
            target = self.sight.covers.get(target.id, target)
        zone = target.zone or 5
        need = weapon.needs[band]
        assert need is not None
        terrain = self._terrain[zone]
        doubled = False
        if terrain.to_hit and not weapon.ignores_terrain:
            eng = self.engagements.get(zone)
            doubled = (eng is not None and eng.doubled is target.side
                       and eng.doubled_turn == self.turn) or target.dug_in_zone == zone
        missile = weapon.family is Family.MISSILE
        level = 0
        level_name = ""
        targeting = computers = skill = commandos = False
        if unit is not None:
            targeting = single and unit.has_system("Targeting Array")
            pilot = unit.pilot
            if pilot is not None:
                level, level_name = pilot.level.to_hit, pilot.level.level
            computers = bool(unit.computers_turns) and self.clock(unit) in unit.computers_turns
            family_skill = skill_of(weapon.family)
            skill = family_skill is not None and unit.skill(family_skill) and \
                family_skill not in unit.turn_skills
            commandos = target.id in self.marked[unit.side]
        return to_hit(
            weapon, need, band, terrain=terrain.to_hit, terrain_name=terrain.name,
            doubled=doubled, jammer=target.has_system("Jammer"), targeting_array=targeting,
            level=level, level_name=level_name, computers=computers, family_skill=skill,
            commandos=commandos,
            spoof=missile and target.skill("Spoof") and "Spoof" not in target.turn_skills,
            point_defense=missile and target.has_system("Point Defense"),
            phalanx=missile and any(f.zone == zone and f.side is target.side and f.on_map
                                    and f.has_system("Phalanx")
                                    for f in self.carrying("Phalanx")),
            gunnery=shot.gunnery, six_hits=self.house.six_always_hits)

    def modifiers(self, shot: Shot, single: bool) -> tuple[int, list[str]]:
        """R6.6: the total to-hit modifier of a shot and each modifier, named."""
        check = self.to_hit(shot, single)
        return check.modifier, check.notes

    def shoot(self, shot: Shot, single: bool = True) -> int:
        """R6.6-R6.7: roll to hit (two dice for Vulcan and Swarm, a missed die re-rolled once
        for Twin Laser and 6-Pack); each hit goes to its armor save. R6.8: a target that may
        dodge (Agility) is asked once, after all the attack's dice, whether to dodge the
        whole attack. Returns the hits."""
        weapon, target = shot.weapon, shot.target
        check = self.to_hit(shot, single)
        if shot.unit is not None:
            shot.unit.turn_skills.update(check.spends)
        if check.target_spends:
            # (a decoy's face spends what the Mek it passes for would, R8.1)
            face = self.sight.covers.get(target.id, target) \
                if target.decoy and self.revision >= FOG else target
            face.turn_skills.update(check.target_spends)
        need, mod, notes = check.need, check.modifier, check.notes
        who = shot.unit.name if shot.unit else "Support"
        purpose = f"{who}'s {weapon.name} to hit {target.name}"
        reroll = f"{who}'s {weapon.name} re-roll" if check.reroll_miss else ""
        fires = f"{who} fires {weapon.name} at {target.name}: "
        listed = f" [{', '.join(notes)}]" if notes else ""
        hits = 0
        at_stake = 0  # hits held back for the target's dodge decision
        dodging = self.may_dodge(target)
        for _ in range(check.dice):
            roll, hit = check.roll_die(self, purpose, reroll)
            self.note(Kind.HIT if hit else Kind.MISS,
                      f"{fires}{roll}{mod:+d} vs {need}+{listed}"
                      + (" - hit." if hit else " - miss."), shot.unit, target, roll)
            if hit:
                hits += 1
                foe = DEFENDER if target.side is ATTACKER else ATTACKER
                if target.id not in self.known[foe]:  # (mostly known already: no call)
                    self.learn(self.known, foe, (target.id,))
                if dodging:
                    at_stake += 1
                else:
                    self.land(shot, weapon)
        if at_stake:
            if self.ask_dodge(target, weapon, at_stake):
                target.dodged = True
                self.add_heat(target, 1, "agility")
                self.note(Kind.DODGE, f"{target.name} dodges the {weapon.name}"
                          + (f", {at_stake} hits" if at_stake > 1 else "") + " (Agility).",
                          target, shot.unit)
            else:
                for _ in range(at_stake):
                    self.land(shot, weapon)
        return hits

    def may_dodge(self, target: Unit) -> bool:
        """R6.8 Agility: once a turn, a unit that can act and whose own movement roll was 8+
        may dodge one ranged attack that hit."""
        return (target.skill("Agility") and target.can_act and not target.dodged
                and target.move_roll >= 8 and not target.doomed and not target.decoy)

    def land(self, shot: Shot, weapon: Weapon) -> None:
        """A hit (not dodged): the armor save (R6.8), then damage."""
        target, unit = shot.target, shot.unit
        if target.decoy:
            self.note_for(target.side, Kind.NOTE, f"The shot passes through {target.name}: "
                          "nothing is there.", unit, target)
            return
        if target.doomed:
            return
        if self.armor_save(target, weapon):
            return
        self.damage(target, 1, unit, weapon)

    def ask_dodge(self, unit: Unit, weapon: Weapon, hits: int) -> bool:
        view = self.sight.views[unit.side is DEFENDER]
        answer = self.asked[unit.side].dodge(view, unit, weapon, hits)
        if not isinstance(answer, bool):
            raise self.refuse(unit.side, "dodge", answer)
        return answer

    def armor_save(self, target: Unit, weapon: Weapon) -> bool:
        """R6.8: roll >= AR saves; Hammer -1, Space-Lam +1 against cannons; Reactive Armor
        re-rolls a failed save against missiles, BPC against lasers."""
        check = armor_save(target.armor, weapon, target.has_system)
        roll, saved, again = check.roll(self, f"{target.name} armor save against "
                                        f"{weapon.name}", f"{target.name} armor save re-roll")
        rerolled = " after a re-roll" if again else ""
        self.note(Kind.SAVE, f"{target.name} armor save {roll}{check.modifier:+d} vs "
                  f"{target.armor}+{rerolled}: {'saved' if saved else 'failed'}.", target,
                  value=roll)
        return saved

    def damage(self, target: Unit, hits: int, by: Unit | None, weapon: Weapon | None,
               checks: bool = True) -> None:
        """R6.9: each Hit; at Hits the unit is doomed (destroyed when its combat ends); a
        critical check after each Hit, the killing Hit included (with no Hits left it is
        always a critical: a Reactor Core that blows then kills the pilot, R2.6)."""
        if target.decoy:  # R4.3: attacks at a decoy are wasted
            self.note_for(target.side, Kind.NOTE, f"Nothing is at {target.name}: the attack is "
                          "wasted.", by, target)
            return
        for _ in range(hits):
            if target.doomed:
                return
            target.hits += 1
            if by is not None:
                target.last_hit_by = by.id
            self.note(Kind.DAMAGE, f"{target.name} takes a hit ({target.hits}/"
                      f"{target.max_hits}).", target, by, target.hits)
            if target.hits >= target.max_hits:
                self.doom(target, by)
            if checks:
                self.critical_check(target, by, weapon)

    def doom(self, target: Unit, by: Unit | None) -> None:
        target.doomed = True
        if by is not None and target.is_mek and not target.decoy:
            by.mek_kills += 1  # R2.5: the pilot whose attack dealt the final hit

    def critical_check(self, target: Unit, by: Unit | None, weapon: Weapon | None) -> None:
        """R6.9: a critical when a roll beats the remaining Hits. Pinpoint Attack skips the
        check once a turn (not spent on a killing Hit, whose check cannot fail);
        Sharpshooter re-rolls one failed check a turn; a PPC at Long re-rolls a check that
        fails; Spaul Liner makes the critical roll again to stick."""
        remaining = target.remaining
        check = self.describe_critical_check(target, by, weapon)
        roll, crit, spent = check.roll(self, target.name)
        if by is not None:
            by.turn_skills.update(spent)
        if check.pinpoint:
            self.note(Kind.NOTE, f"{by.name if by else ''}'s pilot places the shot (Pinpoint "
                      "Attack).", by)
        else:
            self.note(Kind.NOTE, f"Critical check on {target.name}: {roll} vs {remaining} "
                      f"remaining - {'critical!' if crit else 'no critical.'}", target,
                      value=roll)
        if crit and check.spaul:
            roll, crit = check.confirm(self, target.name)
            self.note(Kind.NOTE, f"{target.name}'s Spaul Liner "
                      f"{'fails' if crit else 'holds'} ({roll}).", target, value=roll)
        if crit:
            self.critical(target, by)

    def describe_critical_check(self, target: Unit, by: Unit | None,
                                weapon: Weapon | None) -> CriticalCheck:
        """R6.9: the critical check after a Hit on ``target`` by ``by``'s ``weapon`` (using
        up nothing: rolling it does)."""
        pinpoint = sharpshooter = False
        if by is not None:
            pinpoint = by.skill("Pinpoint Attack") and "Pinpoint" not in by.turn_skills
            sharpshooter = by.skill("Sharpshooter") and "Sharpshooter" not in by.turn_skills
        return critical_check(target.remaining, pinpoint=pinpoint, sharpshooter=sharpshooter,
                              weapon=weapon, band=self.band_of(target.zone or 0),
                              spaul=target.has_system("Spaul Liner"))

    def critical(self, target: Unit, by: Unit | None) -> None:
        """R6.9: the critical table. R6.0: the effect is rolled now (a lost weapon or system
        chosen now too) but waits in ``pending`` for ``take_effect`` when the zone's combat
        ends, so that it takes no shot away in the exchange; a Reactor Core that blows dooms
        the unit at once, as a killing Hit does (a doomed unit still fires)."""
        target.crits_taken += 1
        if target.crits_taken == 1 and target.skill("Damage Control"):
            self.note(Kind.CRITICAL, f"{target.name}'s crew contains the damage (Damage "
                      "Control).", target)
            return
        roll, result = CRITICAL_TABLE.roll(self, target.name)
        name = CRITICAL_TABLE.name(result)
        effect = ""
        if result == PILOT_WOUNDED:
            # R6.9: a support vehicle has no pilot; the wound falls on its crew, same effect.
            target.pending.append((PILOT_WOUNDED, 0))
            effect = (f"from next {'turn' if self.house.one_exchange else 'round'} on it acts "
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
                index = live[self.choose_index(len(live), f"which weapon of {target.name}")]
                target.pending.append((WEAPON_DESTROYED, index))
                effect = f"{target.weapons[index].name} destroyed"
            else:
                effect = "no weapon left to lose"
        elif result == REACTOR_CORE:
            blast, explodes = CRITICAL_TABLE.reactor_roll(self, target.name)
            if explodes:
                effect = f"the reactor explodes ({blast})"
                target.exploded = True
                if not target.doomed:
                    target.hits = target.max_hits
                    self.doom(target, by)
            else:
                effect = f"the reactor holds ({blast})"
                target.reactor_scare = True
        elif result == COMPUTERS:
            target.computers_turns.add(self.clock(target) + 1)
            effect = "-1 to hit next turn" if self.house.one_exchange else \
                "-1 to hit next round"
        else:  # SYSTEM_LOST
            lost_already = {i for r, i in target.pending if r == SYSTEM_LOST}
            live_systems = [i for i, s in enumerate(target.systems) if not s.destroyed
                            and i not in lost_already and CRITICAL_TABLE.losable(s.system)]
            if live_systems:
                index = live_systems[self.choose_index(
                    len(live_systems), f"which system of {target.name}")]
                target.pending.append((SYSTEM_LOST, index))
                effect = f"{target.systems[index].system.name} destroyed"
            else:
                effect = "no system left to lose"
        self.note(Kind.CRITICAL, f"Critical on {target.name}: {name} ({roll}) - {effect}.",
                  target, by, roll)

    def take_effect(self, unit: Unit) -> None:
        """R6.0: the critical effects rolled against ``unit`` take effect (at the end of the
        zone's combat, or at once for damage dealt outside an exchange)."""
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

    # ---- infantry ---------------------------------------------------------------------------

    def describe_kills_roll(self, weapon: Weapon, target: Unit,
                            gunnery: bool = False) -> KillsRoll:
        """R6.11: the kills roll of ``weapon`` against infantry ``target`` (``gunnery``: a
        Gunnery second shot, whose -2 falls on the roll)."""
        return kills_roll(weapon, self.terrain_to_hit(target.zone or 5),
                          GUNNERY_MODIFIER if gunnery else 0)

    def infantry_kills(self, unit: Unit | None, weapon: Weapon, target: Unit,
                       gunnery: bool = False) -> None:
        """R6.11: no to-hit roll against infantry; a kills roll, terrain applying."""
        check = self.describe_kills_roll(weapon, target, gunnery)
        terrain = check.modifier
        who = unit.name if unit is not None else "Support"
        rolled, kills = check.roll(self, f"{who}'s {weapon.name} kills" if check.small
                                   else f"{who}'s {weapon.name} against {target.name}")
        target.detected = True
        if kills:
            target.infantry_kills += kills
            target.losses_this_combat = True
        self.note(Kind.KILLS, f"{who}'s {weapon.name} against {target.name}: {rolled}"
                  f"{terrain:+d} - {kills} kill{'s' * (kills != 1)} ({target.infantry_kills} "
                  "in all).", unit, target, rolled)

    def infantry_attack(self, unit: Unit, target: Unit) -> None:
        """R6.11: infantry hit on a roll under the target's AR, no save; attacking reveals
        them."""
        unit.detected = True
        roll = self.d6(f"{unit.name} attacks {target.name}")
        hit = infantry_hits(roll, target.armor)
        self.note(Kind.HIT if hit else Kind.MISS, f"{unit.name} attack {target.name}: {roll} "
                  f"vs under {target.armor} - {'hit' if hit else 'miss'}.", unit, target, roll)
        if hit:
            self.damage(target, 1, unit, None)

    def morale(self, unit: Unit) -> None:
        """R6.11: after losses, a roll greater than the total kills holds; else it routs."""
        roll, holds = morale(unit.infantry_kills).roll(self, f"morale of {unit.name}")
        unit.losses_this_combat = False
        self.note(Kind.MORALE, f"{unit.name} morale {roll} vs {unit.infantry_kills} kills: "
                  + ("they hold." if holds else "they break and run."), unit, value=roll)
        if not holds:
            unit.destroyed_turn = self.turn

    def dismount(self, side: Side, zone: int) -> None:
        """R4.4: an APC's squad may dismount as an Infantry Strongpoint in its zone."""
        for apc in self.units:  # (a squad that joins is looked at too, and carries nobody)
            if apc.carries_infantry and apc.zone == zone and apc.side is side \
                    and apc.destroyed_turn is None and apc.exited_turn is None and apc.arrived \
                    and apc.can_act and self.ask_dismount(apc):
                apc.carries_infantry = False
                squad = strongpoint(f"{apc.id}i", side, zone)
                self.secret = True
                squad.name = f"{apc.name}'s squad"
                self.units.append(squad)
                self.note(Kind.SUPPORT, f"{squad.name} dismounts in zone {zone}.", squad)

    def ask_dismount(self, apc: Unit) -> bool:
        answer = self.asked[apc.side].dismount(self.sight.views[apc.side is DEFENDER], apc)
        if not isinstance(answer, bool):
            raise self.refuse(apc.side, "dismount", answer)
        return answer

    # ---- support ------------------------------------------------------------------------------

    def learn(self, record: dict[Side, frozenset[str]], side: Side, ids: Collection[str]
              ) -> None:
        """Adds ``ids`` to ``side``'s entry in ``record`` (``known``, ``identified``,
        ``targeted`` or ``marked``): the entry is replaced, never changed, for a view may have
        handed the old one to a controller."""
        held = record[side]
        if not held.issuperset(ids):
            record[side] = held.union(ids)

    def spend(self, side: Side, asset: str) -> None:
        """Takes one ``asset`` from ``side``'s assets (``ValueError`` if it has none): the
        tuple is replaced, never changed, for a view may have handed the old one out."""
        held = self.assets[side]
        i = held.index(asset)
        self.assets[side] = held[:i] + held[i + 1:]

    def use_support(self, side: Side, moment: str, zone: int | None) -> None:
        """R4.3: assets used once, when the side's controller decides."""
        if not self.assets[side]:
            return
        view = self.sight.views[side is DEFENDER]
        answer = self.asked[side].support(view, side, moment, zone)
        if not isinstance(answer, list | tuple) or not all(
                isinstance(use, tuple | list) and len(use) == 2 for use in answer):
            raise self.refuse(side, "support", answer)
        # Each use must be a legal choice when it was asked for, or once the uses before it
        # in the answer are made (a Recon Drone's ID opens Support Fire, R4.3).
        asked = {str(asset): view.support_options(asset, moment) for asset, _ in answer}
        used: list[object] = []
        for asset, choice in answer:
            if asset in used or (_among(choice, asked[asset]) < 0 and
                                 _among(choice, view.support_options(asset, moment)) < 0):
                raise self.refuse(side, "support", (asset, choice),
                                  f"the side has no {asset} to use that way now"
                                  if asset not in self.assets[side] else
                                  f"not a choice for the {asset} now")
            used.append(asset)
            if self.support_asset(side, asset, choice, moment):
                self.spend(side, asset)

    def support_asset(self, side: Side, asset: str, choice: object, moment: str) -> bool:
        """One asset used now, if ``choice`` (and ``moment``) allow it; whether it was."""
        if asset == "Repair Truck":
            unit = self.find(choice)
            if unit is None or unit.side is not side or not unit.alive or unit.doomed or \
                    not unit.is_mek or unit.decoy:
                return False
            unit.hits = unit.legs = 0
            unit.computers_turns.clear()
            for slot in unit.weapons:
                slot.destroyed = False
            for s in unit.systems:
                s.destroyed = False
            self.note(Kind.SUPPORT, f"Repair Truck: {unit.name} is fully repaired.", unit)
            return True
        if asset == "Recon Drone" and isinstance(choice, int) and 1 <= choice <= 9:
            found = self.enemies_in(choice, side)
            self.note(Kind.SUPPORT, f"Recon Drone over zone {choice}: "
                      + (", ".join(u.name for u in found if not u.decoy) or "no units")
                      + ".")
            for enemy in found:
                self.learn(self.identified, side, (enemy.id,))
                self.learn(self.known, side, (enemy.id,))
                if enemy.decoy:
                    self.vanish(enemy, f"The drone shows {enemy.name} is a decoy.")
                if enemy.is_infantry:
                    enemy.detected = True
            return True
        if asset in ("Support Fire", "Air Strike"):
            target = self.find(choice)
            if target is None or target.side is side or not target.on_map or target.hidden:
                return False
            if asset == "Support Fire":
                # R4.3: during one of the side's zone combats, at a unit in any zone that
                # the side has targeted or ID'd.
                if moment != "combat" or \
                        target.id not in (self.known[side] | self.identified[side]):
                    return False
            elif target.id not in self.targeted[side]:  # R4.3: "a targeted enemy unit"
                return False
            weapon = self.catalog.weapon("Howitzer" if asset == "Support Fire" else "Missile")
            self.note(Kind.SUPPORT, f"{asset} against {target.name} in zone {target.zone}.",
                      target=target)
            if target.is_infantry:  # R6.11: a kills roll, and morale at once after losses
                self.infantry_kills(None, weapon, target)
                if target.losses_this_combat:
                    self.morale(target)
                return True
            band = self.band_of(target.zone or 0)
            shot = Shot(None, weapon, target, Band.SHORT if weapon.range is Band.SHORT
                        else band)
            self.shoot(shot, single=True)
            self.settle([target])
            return True
        return False

    def ambush(self, side: Side, zone: int) -> None:
        """R4.3 Ambush: one Mek makes a free attack at the start of its first zone combat,
        before the movement rolls; its damage takes effect at once.

        The attack is in addition to the Mek's own fire that turn: the weapons it fires may
        fire again in the exchange, at targets chosen again then. It is the Mek's fire all
        the same, so its heat counts for the turn (R6.10), and a once-a-turn skill it uses
        is used."""
        if "Ambush" not in self.assets[side]:
            return
        view = self.sight.views[side is DEFENDER]
        answer = self.asked[side].ambush(view, side, zone)
        if _among(answer, view.ambush_options(zone)) < 0:
            raise self.refuse(side, "ambush", answer)
        unit = self.find(answer)
        if unit is None:
            return
        band = self.band_of(zone)
        targets = self.choose_targets(unit, band)
        if not targets:
            return  # nothing to strike at: the asset is kept
        self.spend(side, "Ambush")
        self.note(Kind.SUPPORT, f"Ambush! {unit.name} strikes first.", unit)
        self.attack(unit, targets, band)
        for slot in unit.weapons:
            slot.fired = 0  # a free attack: the weapons fire again in the exchange
        self.settle(targets)

    # ---- ends -------------------------------------------------------------------------------

    def settle(self, units: Iterable[Unit]) -> None:
        """Damage dealt outside the simultaneous exchange takes effect now: critical effects,
        and doomed units are destroyed (R6.0)."""
        for unit in units:
            if unit.pending:
                self.take_effect(unit)
            if unit.doomed and unit.destroyed_turn is None:
                self.destroy(unit)

    def destroy(self, unit: Unit) -> None:
        unit.destroyed_turn = self.turn
        if unit.pilot is not None:
            unit.pilot.dead = unit.exploded  # R2.6: ejects, unless the reactor blew
        fate = ("and its pilot dies" if unit.exploded and unit.pilot else
                "; the pilot ejects" if unit.pilot else "")
        self.note(Kind.DESTROYED, f"{unit.name} is destroyed{' ' if fate.startswith('and') else ''}"
                  f"{fate}.", unit)

    def end_combat(self, zone: int) -> None:
        """R6.0: critical effects and destruction take effect when the zone's combat ends;
        then infantry morale."""
        for unit in self.units:
            if unit.zone == zone and unit.alive:
                if unit.pending:
                    self.take_effect(unit)
                if unit.doomed:
                    self.destroy(unit)
                elif unit.is_infantry and unit.losses_this_combat:
                    self.morale(unit)
        if self.house.bail_out:
            self.bail_outs(zone)
        if not self.contested(zone, hidden=True):
            self.engagements.pop(zone, None)

    def bail_outs(self, zone: int) -> None:
        """House rule bail_out (R6.12): as a zone's combat ends, each side (the initiative
        winner's first) may have the pilot of each of its Meks there in danger (one Hit from
        destruction, or a reactor that took a critical) eject. The Mek is lost; the pilot
        surely survives, and the unit that dealt it its last Hit gets the kill."""
        for side in self.acting_order():
            view = self.sight.views[side is DEFENDER]
            for uid in view.bail_out_options(zone):
                unit = self.unit(uid)
                answer = self.asked[side].bail_out(view, unit)
                if not isinstance(answer, bool):
                    raise self.refuse(side, "bail_out", answer)
                if answer:
                    self.bail_out(unit)

    def bail_out(self, unit: Unit) -> None:
        """R6.12: ``unit``'s pilot ejects: the Mek is lost, the pilot lives, and the unit
        that dealt it its last Hit, if any, gets the kill (R2.5)."""
        unit.bailed = True
        if unit.last_hit_by is not None:
            self.unit(unit.last_hit_by).mek_kills += 1
        unit.destroyed_turn = self.turn
        self.decided(unit.side, f"{unit.name}'s pilot bails out")
        self.note(Kind.DESTROYED, f"{unit.name} is abandoned: its pilot bails out and "
                  "survives; the Mek is lost.", unit)

    def end_turn(self) -> None:
        for zone in list(self.engagements):
            if not self.contested(zone) and not self.contested(zone, hidden=True):
                del self.engagements[zone]
        attacking: list[int] = []
        defending: list[int] = []
        for u in self.units:
            if u.zone and not u.decoy and u.on_map:
                (attacking if u.side is ATTACKER else defending).append(u.zone)
        self.history.append({ATTACKER: frozenset(attacking), DEFENDER: frozenset(defending)})
        if self.secret or self.sight.covers:
            self.see_history()
        else:
            for seen in self.sight.seen_history.values():
                seen.append(self.history[-1])
        for unit in self.units:
            unit.heat = 0  # R6.10: heat fades at the end of every turn
        self.verdict = judge(self.scenario, self.view())
        if self.turn >= self.scenario.turn_limit and not self.verdict.decided:
            self.verdict = Verdict(Outcome.DRAW, "the turn limit was reached")
        if self.house.withdrawal and not self.verdict.decided:
            self.withdrawals()
        if self.verdict.decided:
            self.note(Kind.VICTORY, f"Battle over: {self.verdict}.")

    def withdrawals(self) -> None:
        """House rule withdrawal (R6.13): at the end of a turn that does not end the battle,
        the attacker and then the defender may withdraw (and lose) or, when it clearly wins,
        overrun (and win). Either ends the battle at once; each of the side's units still
        on the map takes ``RETREAT_HITS`` Hits, never its last one (no die, no critical)."""
        for side in SIDES:
            view = self.sight.views[side is DEFENDER]
            options = view.withdrawal_options()
            answer = self.asked[side].withdrawal(view, side, list(options))
            if _among(answer, options) < 0:
                raise self.refuse(side, "withdrawal", answer)
            if answer is Retreat.FIGHT:
                continue
            self.decided(side, answer.value)
            self.early = (side, answer)
            for unit in self.side_units(side):
                if unit.on_map and not unit.decoy and not unit.is_infantry:
                    hits = min(RETREAT_HITS, unit.remaining - 1)
                    if hits > 0:
                        unit.hits += hits
                        self.note(Kind.DAMAGE, f"{unit.name} takes {hits} Hit"
                                  f"{'s' * (hits != 1)} as its side "
                                  f"{'withdraws' if answer is Retreat.WITHDRAW else 'overruns'}"
                                  f" ({unit.hits}/{unit.max_hits}).", unit, value=unit.hits)
            if answer is Retreat.WITHDRAW:
                self.verdict = Verdict(Outcome.win_for(side.enemy),
                                       f"the {side.value} withdrew after turn {self.turn}")
            else:
                self.verdict = Verdict(Outcome.win_for(side),
                                       f"the {side.value} overran the {side.enemy.value} "
                                       f"after turn {self.turn}")
            return

    def see_history(self) -> None:
        """R8.1: the zones each side saw occupied at the end of this turn: its own, and the
        enemy's that it can see (a Decoy as the Mek it passes for)."""
        history = self.history[-1]
        for side in SIDES:
            theirs: list[int] = []
            for u in self.units:
                if u.side is not side and u.zone and u.on_map and not u.hidden and \
                        (u.kind is not UnitKind.INFANTRY or u.detected):
                    theirs.append(u.zone)
            mine = history[side]
            self.sight.seen_history[side].append(
                {side: mine, side.enemy: frozenset(theirs)})

    def view(self) -> BattleState:
        attacker: list[UnitState] = []
        defender: list[UnitState] = []
        for u in self.units:
            if not u.decoy:
                (attacker if u.side is ATTACKER else defender).append(UnitState(
                    u.id, u.kind, u.zone if u.on_map else None, u.points, u.group,
                    u.setup_zone, u.destroyed_turn, u.exited_turn, u.exit_edge, u.exit_zone))
        return BattleState(turn=self.turn, attacker=tuple(attacker), defender=tuple(defender),
                           history=tuple(self.history))


def _support_spec(name: str) -> UnitSpec:
    return UnitSpec(name=name, support=name)


__all__ = ["BANDS", "Battle", "BattleError", "Engagement", "RangeChoice", "Result", "Shot",
           "UnitKind"]
