"""The battle's state, and the small reads and writes every step of the rules makes.

A ``Board`` holds everything a battle is at one moment: the scenario, the units, the log, the
dice, each side's assets and records, the zone combats under way and what each side may
know (``Sight``). Its methods are the helpers the steps share: logging an event (for one
side's eyes only where the rules say so, R8.1), rolling a die into the log, finding units in
a zone, the map's geometry and terrain, each side's records, and the error for an answer
that is not one of a decision's options. The steps themselves are functions in the modules
named after them (``deployment``, ``movement``, ``detection``, ``fire``, ``damage``,
``infantry``, ``support``, ``combat``, ``ending``), each taking the battle as ``b``;
``meks.engine.core.Battle`` is a ``Board`` that runs them turn by turn.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from meks.engine import FOUND, REVISION
from meks.engine.asking import Asking
from meks.engine.decisions import BattleError, Retreat
from meks.engine.inputs import Aimer
from meks.engine.log import Event, Kind, Words, written
from meks.engine.units import ForceSpec, Unit
from meks.engine.view import Sight
from meks.game.catalog import Band, Catalog, Weapon, load_catalog
from meks.game.dice import Dice
from meks.game.errors import MeksError
from meks.game.rules import Roller, random_pick
from meks.game.scenario import Scenario
from meks.game.victory import Verdict
from meks.game.vocabulary import SIDES, Side, UnitKind
from meks.game.zones import ZONES, neighbours

if TYPE_CHECKING:
    from meks.engine.controllers import Controller

# Hot paths compare enum members with ``is`` and keep them in module constants: an Enum
# class attribute costs a lookup each time.
ATTACKER, DEFENDER = Side.ATTACKER, Side.DEFENDER
NONE: frozenset[str] = frozenset()  # an empty record
_ROLL = Kind.ROLL
_new_event = tuple.__new__  # builds an Event from its fields without NamedTuple.__new__
SIDE_WORDS = tuple((side, side.value, side.value.capitalize()) for side in Side)


def unseen_by_enemy(unit: Unit) -> bool:
    """Whether the enemy cannot see ``unit`` (R8.1): a hidden Mek, or infantry it has not
    detected."""
    return unit.hidden or (unit.kind is UnitKind.INFANTRY and not unit.detected)


def title(side: Side) -> str:
    """``side.value.capitalize()``: "Attacker" or "Defender"."""
    return SIDE_WORDS[0][2] if side is ATTACKER else SIDE_WORDS[1][2]


def _decides(side: Side, text: Words) -> str:
    return f"{title(side)} decides: {written(text)}"


def among(answer: Any, options: Sequence[Any]) -> int:
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


@mypyc_attr(allow_interpreted_subclasses=True)  # ``Battle`` is one, and tests extend that
class Board(Roller):
    """A battle's state and the helpers its steps share (see the module docstring)."""

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
        self.surprise_pending: dict[Side, int] = {}  # Surprise assets for the first roll
        self.adjacency = {z: neighbours(z, self.house.diagonal_moves) for z in ZONES}
        self.terrain_at = {z: self.catalog.terrain_named(scenario.terrain_of(z))
                           for z in range(1, 10)}
        # The units with a pilot skill, or carrying a system (working or not), by name; with
        # the number of units when worked out (units only ever join a battle, and pilots'
        # skills and units' systems never change in one).
        self._with: dict[tuple[bool, str], tuple[int, list[Unit]]] = {}
        # What each side may know (R8.1), kept in one record (see ``Sight``): a battle has
        # as few attributes as it can, so that reading one stays quick.
        self.sight = Sight()
        self.secret = False  # whether any unit may be kept from the enemy (hidden, infantry)

    # ---- the log and the dice ----------------------------------------------------------------

    def note(self, kind: Kind, text: Words, unit: Unit | None = None,
             target: Unit | None = None, value: int | None = None) -> None:
        """Log an event (its text, or the facts to write it from when it is read, see
        ``meks.engine.log``). One about a unit the other side cannot see (hidden, or infantry not
        detected) is for one side's eyes only (R8.1), and so are the dice rolled for it (the
        rolls logged just before it)."""
        if self.secret:
            self.keep_private(unit, target, None)
        self.log.append(_new_event(Event, (
            self.turn, kind, text, None if unit is None else unit.id,
            None if target is None else target.id, value)))

    def note_for(self, side: Side, kind: Kind, text: Words, unit: Unit | None = None,
                 target: Unit | None = None) -> None:
        """Log an event for ``side``'s eyes only (R8.1), and the dice rolled for it."""
        self.keep_private(unit, target, side)
        self.note(kind, text, unit, target)

    def settled(self, unit: Unit) -> None:
        """Critical effects take effect on ``unit`` (R6.0), which no event says: counted
        for its own side, and for the enemy when it may see the unit (``SideView.moment``)."""
        counts = self.sight.settled
        counts[unit.side is DEFENDER] += 1
        if not unseen_by_enemy(unit):
            counts[unit.side is ATTACKER] += 1

    def keep_private(self, unit: Unit | None, target: Unit | None,
                     private: Side | None) -> None:
        """Mark the event about to be logged (and the dice just rolled for it) as for one
        side only, when it is about a unit the other side cannot see or ``private`` says."""
        if unit is not None and unseen_by_enemy(unit):
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

    def decided(self, side: Side, text: Words, by: Unit | None = None) -> None:
        """Log a side's decision; one made for a unit the other side cannot see (``by``: a
        hidden Mek choosing its targets, undetected infantry) is for its own side's eyes
        only (R8.1). Only the decision is kept back, not the dice before it."""
        if by is not None and self.secret and unseen_by_enemy(by):
            self.mark_private(len(self.log), by.side)
        self.note(Kind.DECISION, (_decides, side, text))

    def choose_index(self, count: int, purpose: str) -> int:
        """A random pick among ``count`` things, with dice (``rules.random_pick``)."""
        return random_pick(self, count, purpose)

    # ---- units, zones and the map ------------------------------------------------------------

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
        return self.terrain_at[zone].to_hit

    def terrain_name(self, zone: int) -> str:
        return self.terrain_at[zone].name

    def doubled_against(self, zone: int, side: Side) -> bool:
        """Whether a movement roll's winner doubled the terrain against ``side``'s units in
        ``zone`` this turn (R6.3)."""
        eng = self.engagements.get(zone)
        return eng is not None and eng.doubled is side and eng.doubled_turn == self.turn

    def phalanx_in(self, zone: int, side: Side) -> bool:
        """Whether a unit of ``side`` on the map in ``zone`` has a working Phalanx (R6.6)."""
        return any(f.zone == zone and f.side is side and f.on_map and f.has_system("Phalanx")
                   for f in self.carrying("Phalanx"))

    def computers_damaged(self, unit: Aimer) -> bool:
        """Whether ``unit``'s Computers damage takes 1 off its shots now (R6.9: the turn,
        or fighting in rounds the round, after the critical)."""
        turns = unit.computers_turns
        return bool(turns) and self.clock_at(unit.rounds) in turns

    def adjacent(self, zone: int) -> list[int]:
        return list(self.adjacency[zone])

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

    def alone_among_enemies(self, unit: Unit) -> bool:
        """R4.3: whether hidden ``unit`` has no friend in its zone that the enemy can see,
        and an enemy there that its own side can see (not infantry it has yet to detect;
        before revision ``FOUND``, any enemy unit): then its side may bring it out, and as
        the turn ends the enemy finds it."""
        zone = unit.zone
        if zone is None or self.visible_in(zone, unit.side):
            return False
        enemies = self.enemies_in(zone, unit.side)
        if self.revision < FOUND:
            return bool(enemies)
        return any(not unseen_by_enemy(e) for e in enemies)

    def terrain_heat(self, zone: int) -> bool:
        """Whether the zone's terrain adds one to heat ratings (R6.10: Moors)."""
        return self.terrain_at[zone].heat > 0

    def combat_zones(self) -> list[int]:
        return sorted(self.engagements)

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
                if unseen_by_enemy(u):
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

    # ---- the turn and its zone combats -------------------------------------------------------

    def clock(self, unit: Unit) -> int:
        """What "next turn" effects count for ``unit`` (R5.2): game turns when a combat is
        one exchange a turn, else the rounds of zone combat the unit has fought."""
        return self.clock_at(unit.rounds)

    def clock_at(self, rounds: int) -> int:
        """``clock`` of a unit that has fought ``rounds`` rounds of zone combat."""
        return self.turn if self.house.one_exchange else rounds

    def acting_order(self) -> list[Side]:
        first = self.initiative_winner or ATTACKER
        return [first, DEFENDER if first is ATTACKER else ATTACKER]

    def actors(self, zone: int, side: Side) -> list[Unit]:
        return [u for u in self.units if u.zone == zone and u.side is side and u.can_act
                and not u.decoy and u.destroyed_turn is None and u.exited_turn is None
                and u.arrived]

    # ---- each side's records -----------------------------------------------------------------

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
