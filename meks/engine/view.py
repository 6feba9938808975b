"""What one side may know of a battle (R8.1): the only thing a controller is given.

A ``SideView`` shows its side's own units fully, the enemy units the side has detected, and
contacts where the rules hide the rest:

- a Decoy shows as a Mek contact: the face of one of its side's Meks (its design, weapons and
  systems, no damage), never as a decoy, until it is ID'd; then it is gone;
- a Hidden Mek is not there at all until it moves or fires;
- a Minefield's zone is unknown until an enemy Mek sets it off (a side sees its own);
- infantry (Commandos, strongpoints, squads) is not there until it is detected.

The engine keeps one view per side for the whole battle; every question filters the battle's
units as it is asked, so a view is always up to date and costs nothing to keep. A view holds
no public path back to the battle or to a unit its side may not see: its units are its own
side's, the enemy units it sees, and contact faces.

A view never hands out the engine's units: it hands out values (``meks.engine.values``), a
frozen ``UnitView`` copy of each unit as the side sees it, built when it is read. While the
engine asks a question (``asking`` .. ``answered``, which ``meks.engine.asking.Asking`` calls
around every question) a unit has one value, so a controller may compare what it is handed
by identity; the engine turns the values in the answer back into its own objects. Every
method that takes a unit takes a value (or, for the engine's own checks, a unit).

The view also lists the legal answers of the questions whose options do not come with the
question (``meks.engine.answers.LegalAnswers``, a base of ``SideView``).

What the view tells is a function of what the side may know (issue 26): enemy units are
labelled by the side's own contact numbers (``label``), not the engine's ids (an enemy
infantry strongpoint is named Strongpoint 1, 2 ..., ``strongpoint_names``); a side sees
none of the enemy's units while the enemy is still setting up and placing what hides, nor
the enemy's set-up lines; a movement roll's result names the winner, not the numbers.
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol

from meks.engine.answers import Choice, LegalAnswers
from meks.engine.decisions import FOG, LABELS
from meks.engine.inputs import Aimer
from meks.engine.log import Event, Kind
from meks.engine.told import OWN_LETTER, SideRecord, enemy_shots, relabel_key, told, told_id
from meks.engine.units import Unit
from meks.engine.values import Parts, UnitView, unit_value
from meks.game.catalog import Band, Catalog, Weapon
from meks.game.dice import Dice
from meks.game.rules import MovementRoll
from meks.game.scenario import HouseRules, Scenario
from meks.game.shots import KillsRoll, ToHit
from meks.game.victory import BattleState, UnitState
from meks.game.vocabulary import Side, UnitKind

INFANTRY = UnitKind.INFANTRY
DEFENDER = Side.DEFENDER


class Source(Protocol):
    """What a view reads from the battle (``meks.engine.core.Battle`` is one)."""

    scenario: Scenario
    catalog: Catalog
    house: HouseRules
    turn: int
    round: int
    log: list[Event]
    units: list[Unit]
    # Each side's records, immutable: replaced, never changed, when they change.
    assets: dict[Side, tuple[str, ...]]
    mines: dict[Side, list[int]]
    known: dict[Side, frozenset[str]]
    targeted: dict[Side, frozenset[str]]
    identified: dict[Side, frozenset[str]]
    marked: dict[Side, frozenset[str]]
    engagements: dict[int, Any]
    fought_in: dict[int, int]
    sight: Sight
    secret: bool
    revision: int
    first_mover: Side | None
    first_mover_turn: int
    dice: Dice

    def band_of(self, zone: int) -> Band: ...
    def clock(self, unit: Unit) -> int: ...
    def side_units(self, side: Side) -> list[Unit]: ...
    def in_zone(self, zone: int, side: Side | None = None) -> list[Unit]: ...
    def visible_in(self, zone: int, side: Side) -> list[Unit]: ...
    def terrain_to_hit(self, zone: int) -> int: ...
    def terrain_name(self, zone: int) -> str: ...
    def doubled_against(self, zone: int, side: Side) -> bool: ...
    def computers_damaged(self, unit: Aimer) -> bool: ...
    def terrain_heat(self, zone: int) -> bool: ...
    def adjacent(self, zone: int) -> list[int]: ...
    def need_at(self, weapon: Weapon, band: Band) -> int | None: ...
    def can_leave(self, unit: Unit) -> bool: ...
    def combat_zones(self) -> list[int]: ...
    def shot_to_hit(self, unit: Unit | None, weapon: Weapon, target: Unit, band: Band,
                    gunnery: bool, single: bool) -> ToHit: ...
    def describe_kills_roll(self, weapon: Weapon, target: Unit, gunnery: bool) -> KillsRoll: ...
    def describe_movement_roll(self, unit: Unit, jump: bool,
                               has: Callable[[str], bool] | None) -> MovementRoll: ...
    def gunnery_left(self, unit: Unit) -> bool: ...


class Sight:
    """What each side may know, as a battle keeps it (R8.1): the two sides' views (attacker,
    defender), the faces its enemy's Decoys show a side (by the decoy's id), the log events
    only one side may read (by position), the zones each side saw occupied at the end of
    each turn, and an object that stands for the battle."""

    __slots__ = ("covers", "hidden", "labelled", "labels", "placed", "private", "seen_history",
                 "set_up", "settled", "token", "views")

    def __init__(self) -> None:
        self.views: tuple[SideView, ...] = ()
        self.covers: dict[str, Unit] = {}
        self.private: dict[int, Side] = {}
        # How many log events each side (attacker, defender) may not read.
        self.hidden = [0, 0]
        # How many times critical effects have taken effect on a unit each side (attacker,
        # defender) may see: no event says so (R6.0), yet the unit is no longer the same.
        self.settled = [0, 0]
        self.seen_history: dict[Side, list[dict[Side, frozenset[int]]]] = {
            Side.ATTACKER: [], Side.DEFENDER: []}
        self.token = object()
        # Where in the log set-up is done: from there each side sees the enemy units it may
        # see (before, from revision 9 on, none: what hides is not placed yet).
        self.set_up: int | None = None
        # The sides that have set up and placed what hides (the enemy sees their units).
        self.placed: tuple[Side, ...] = ()
        # Each side's own labels for the enemy units it has met (engine id -> label), and
        # the other way round (label -> engine id).
        self.labels: dict[Side, dict[str, str]] = {Side.ATTACKER: {}, Side.DEFENDER: {}}
        self.labelled: dict[Side, dict[str, str]] = {Side.ATTACKER: {}, Side.DEFENDER: {}}


class SideView(LegalAnswers):
    """One side's view of a battle (see the module docstring)."""

    __slots__ = ("_asked", "_b", "_labelled", "_met", "_parts", "_placed", "_places", "_values",
                 "assets", "catalog", "enemy", "house", "identified", "known", "marked",
                 "revision", "scenario", "side", "targeted", "token")

    def __init__(self, battle: Source, side: Side) -> None:
        # A weak reference: the battle holds its views, and a cycle between them would keep
        # every finished battle (its units, its log) alive until the cyclic collector runs.
        # A Battle compiled with mypyc takes no weak reference: then the view holds the
        # battle itself, and the cycle is left to the collector.
        try:
            self._b: Source = weakref.proxy(battle)
        except TypeError:
            self._b = battle
        self.side = side
        self.enemy = side.enemy
        # While a question is being asked (``asking`` .. ``answered``) each unit's value is
        # built once and handed out again; between questions every read builds a new one.
        self._asked = False
        self._values: dict[Unit, UnitView] = {}
        # Each unit's weapons, systems and pilot values, handed out again while they hold
        # (``meks.engine.values.parts_of``).
        self._parts: dict[Unit, Parts] = {}
        # How many units the battle had when every enemy unit among them had its label
        # (units only ever join a battle: until one does, there is no one new to meet).
        self._met = -1
        # Each unit's place in the order it is told of (``_arranged``), at ``_placed`` labels.
        self._places: dict[Unit, tuple[bool, int]] = {}
        self._placed = -1
        # From revision 10 on the enemy's units are handed out under the side's own labels
        # and in their order (``label``), never under the engine's ids.
        self._labelled = battle.revision >= LABELS
        self.scenario: Scenario = battle.scenario
        self.catalog: Catalog = battle.catalog
        self.house: HouseRules = battle.house
        self.revision: int = battle.revision
        """The engine revision the battle is fought under (``meks.engine.REVISION``)."""
        self.token: object = battle.sight.token
        """An object that stands for the battle (the same in both sides' views), for telling
        one battle from another."""
        # What the side knows of its own records (the enemy's read as empty).
        self.assets: Mapping[Side, tuple[str, ...]] = SideRecord(self._b, side, "assets")
        """The side's support assets not yet used (the enemy's are not known)."""
        relabel = self._relabel_ids if self._labelled else None
        self.known: Mapping[Side, frozenset[str]] = SideRecord(self._b, side, "known", relabel)
        """Enemy units the side has targeted, hit or ID'd (for Support Fire, Air Strike)."""
        self.identified: Mapping[Side, frozenset[str]] = SideRecord(
            self._b, side, "identified", relabel)
        """Enemy units the side has ID'd this turn."""
        self.targeted: Mapping[Side, frozenset[str]] = SideRecord(
            self._b, side, "targeted", relabel)
        """Enemy units the side has chosen as targets (for an Air Strike)."""
        self.marked: Mapping[Side, frozenset[str]] = SideRecord(self._b, side, "marked", relabel)
        """Enemy units the side's Commandos marked this turn (+1 to hit them)."""

    def __repr__(self) -> str:
        return f"SideView({self.side.value})"

    # ---- values, not the engine's units (issue 26) -------------------------------------------

    def asking(self) -> None:
        """A question begins (the engine says so): from now until ``answered`` the view
        hands out one value per unit, so that a controller may compare them by identity."""
        self._values.clear()
        self._asked = True
        if self._labelled and len(self._b.units) != self._met:
            self._meet()  # every contact the side sees now has its label before it is told

    def answered(self) -> None:
        """The question is answered: values are built afresh from now on."""
        self._asked = False
        self._values.clear()

    def value(self, unit: Unit | UnitView) -> UnitView:
        """What the side is handed of ``unit``: an immutable copy of it as it is now
        (``meks.engine.values.UnitView``). The engine's units never leave the view."""
        if not isinstance(unit, Unit):
            return unit
        if self._asked:
            known = self._values.get(unit)
            if known is None:
                known = self._values[unit] = self._build(unit)
            return known
        return self._build(unit)

    def _build(self, unit: Unit) -> UnitView:
        enemy = unit.side is not self.side
        name = self._name(unit) if enemy and unit.design == STRONGPOINT else None
        if not self._labelled:
            return unit_value(unit, name, None, self._parts)
        if enemy:
            return unit_value(unit, name, self.label(unit), self._parts)
        value = unit_value(unit, None, None, self._parts)
        if unit.turn_skills or unit.last_hit_by is not None:
            # (what names an enemy unit in the side's own records, by its label)
            labels = self._b.sight.labels[self.side]
            if unit.last_hit_by in labels:
                object.__setattr__(value, "last_hit_by", labels[unit.last_hit_by])
            if any(":" in key for key in unit.turn_skills):
                object.__setattr__(value, "turn_skills", frozenset(
                    relabel_key(key, labels) for key in unit.turn_skills))
        return value

    def _relabel_ids(self, ids: frozenset[str]) -> frozenset[str]:
        """A set of enemy unit ids (one of the side's records) under the side's labels
        (an id of a unit it never met left out)."""
        labels = self._b.sight.labels[self.side]
        if any(uid not in labels for uid in ids):
            self._meet()
        return frozenset(labels[uid] for uid in ids if uid in labels)

    def _engine_id(self, uid: object) -> object:
        """The engine's id of the unit the side knows as ``uid`` (its own units' ids are the
        engine's; from revision 10 on an enemy unit's is the side's label)."""
        if self._labelled and isinstance(uid, str):
            return self._b.sight.labelled[self.side].get(uid, uid if uid[:1] in OWN_LETTER[
                self.side] else None)
        return uid

    def engine_answer(self, answer: object) -> object:
        """An answer naming a unit (a support asset's target) as the engine names it."""
        return self._engine_id(answer) if isinstance(answer, str) else answer

    def _values_of(self, units: Iterable[Unit]) -> list[UnitView]:
        if self._asked:
            values = self._values
            out = []
            for u in units:
                known = values.get(u)
                if known is None:
                    known = values[u] = self._build(u)
                out.append(known)
            return out
        return [self._build(u) for u in units]

    def _real(self, unit: Unit | UnitView) -> Unit:
        """The unit (or the contact's face) a value handed out by this view stands for."""
        if isinstance(unit, Unit):
            return unit
        uid = self._engine_id(unit.id)
        for u in self._filtered_faces():
            if u.id == uid:
                return u
        raise KeyError(f"the {self.side.value} sees no unit with the id {uid!r}")

    # ---- the battle's public facts -------------------------------------------------------

    @property
    def turn(self) -> int:
        return self._b.turn

    @property
    def round(self) -> int:
        """The round of the zone combat being fought (R5.2), 0 outside one."""
        return self._b.round

    def computers_damaged(self, unit: Aimer) -> bool:
        """Whether ``unit``'s Computers damage takes 1 off its shots now (R6.9: the turn,
        or fighting in rounds the round, after the critical)."""
        return self._b.computers_damaged(unit)

    @property
    def stamp(self) -> int:
        """How many of the log's events the side may read: it changes whenever anything the
        side may know of happens (for remembering values while nothing does), and says
        nothing of what it may not. ``events(stamp)`` later gives what happened since."""
        b = self._b
        return len(b.log) - b.sight.hidden[self.side is Side.DEFENDER]

    @property
    def moment(self) -> tuple[int, int]:
        """Changes whenever anything the side may know of happens, logged or not (critical
        effects take effect at the end of a zone's combat without an event of their own):
        the key for remembering values while nothing does. Says nothing of what the side
        may not know."""
        b, i = self._b, self.side is DEFENDER
        return len(b.log) - b.sight.hidden[i], b.sight.settled[i]

    @property
    def first_mover(self) -> Side | None:
        """The side that moves first this turn, once the initiative winner has chosen."""
        b = self._b
        return b.first_mover if b.first_mover_turn == b.turn and b.turn else None

    def band_of(self, zone: int) -> Band:
        return self._b.band_of(zone)

    def terrain_to_hit(self, zone: int) -> int:
        return self._b.terrain_to_hit(zone)

    def terrain_name(self, zone: int) -> str:
        return self._b.terrain_name(zone)

    def moors(self, zone: int) -> bool:
        """Whether the zone's terrain adds to heat ratings (R6.10: Moors)."""
        return self._b.terrain_heat(zone)

    def adjacent(self, zone: int) -> list[int]:
        return self._b.adjacent(zone)

    def need_at(self, weapon: Weapon, band: Band) -> int | None:
        return weapon.needs[band]

    def doubled_against(self, zone: int, side: Side) -> bool:
        """Whether a movement roll's winner doubled the terrain against ``side``'s units in
        ``zone`` this turn (R6.3)."""
        return self._b.doubled_against(zone, side)

    def phalanx_in(self, zone: int, side: Side) -> bool:
        """Whether the side sees a unit of ``side`` with a working Phalanx in ``zone``
        (R6.6)."""
        return any(f.has_system("Phalanx") for f in self._in_zone(zone, side))

    def combat_zones(self) -> list[int]:
        """The zones with a zone combat going on."""
        return self._b.combat_zones()

    # The checks as the engine rolls them (``meks.game.rules`` descriptions: their modifiers,
    # each named, and their chances); describing one uses up no once-a-turn skill.

    def to_hit(self, unit: UnitView | Unit | None, weapon: Weapon, target: UnitView | Unit,
               band: Band, gunnery: bool = False, single: bool = True, **spent: bool) -> ToHit:
        """The to-hit roll of one shot of ``unit``'s ``weapon`` at ``target`` (R6.6;
        ``gunnery``: a Gunnery second shot; ``single``: the unit has one target; ``spent``:
        ``family_skill``/``spoof`` False when a shot planned before it will use them up)."""
        return self._b.shot_to_hit(None if unit is None else self._real(unit), weapon,
                                   self._real(target), band, gunnery, single, **spent)

    def describe_kills_roll(self, weapon: Weapon, target: UnitView | Unit,
                            gunnery: bool = False) -> KillsRoll:
        """The kills roll of ``weapon`` against infantry ``target`` (R6.11)."""
        return self._b.describe_kills_roll(weapon, self._real(target), gunnery)

    def describe_movement_roll(self, unit: UnitView | Unit, jump: bool = False,
                               has: Callable[[str], bool] | None = None) -> MovementRoll:
        """A unit's movement roll (R6.2; ``jump``: with its Jump Jets; ``has``: whether it
        has a working system of a name, by default the unit's own)."""
        return self._b.describe_movement_roll(self._real(unit), jump, has)

    def gunnery_left(self, unit: UnitView | Unit) -> bool:
        """R6.5: whether the unit's pilot has Gunnery, not yet used this turn."""
        return self._b.gunnery_left(self._real(unit))

    # ---- what the side knows of units ----------------------------------------------------

    def _filtered_faces(self) -> Iterable[Unit]:
        """Every unit the side may see, contacts as their faces, in the battle's order."""
        b = self._b
        if not b.secret and not b.sight.covers and not self._setting_up():
            return b.units  # nothing is kept from anyone
        return self._filtered()

    def _faces(self) -> Iterable[Unit]:
        """Every unit the side may see, contacts as their faces, in the order it is told of
        them (``_arranged``)."""
        return self._arranged(self._filtered_faces())

    def _arranged(self, units: Iterable[Unit]) -> Iterable[Unit]:
        """``units`` in the order the side is told of them: the attacker's first, each
        side's own in the battle's order; from revision 10 on the enemy's by the side's
        labels, in the order it met them (the battle's order of the enemy's units tells where
        a decoy was laid and counts units the side has not seen, R8.1)."""
        if not self._labelled:
            return units
        units = list(units)
        side = self.side
        labels = self._b.sight.labels[side]
        if self._met != len(self._b.units) and \
                any(u.side is not side and u.id not in labels for u in units):
            self._meet()
        places = self._places  # (each holds until the side labels another contact)
        if self._placed != len(labels):
            places.clear()
            self._placed = len(labels)
        for u in units:
            if u not in places:
                places[u] = (u.side is DEFENDER,
                             0 if u.side is side else int(labels.get(u.id, "C0")[1:]))
        return sorted(units, key=places.__getitem__)

    def _setting_up(self) -> bool:
        """Whether the enemy is still setting up, what hides not placed yet: then no enemy
        unit shows (R8.1, from revision 9 on)."""
        b = self._b
        return b.sight.set_up is None and b.revision >= FOG and \
            self.enemy not in b.sight.placed

    def _filtered(self) -> Iterator[Unit]:
        side = self.side
        covers = self._b.sight.covers
        setting_up = self._setting_up()
        # From revision 9 on the units come side by side, the attacker's first, each side's
        # in the battle's order: an enemy decoy's contact (laid after the forces are set up)
        # among its side's units, where a Mek of the side would be, not after the other
        # side's (R8.1).
        grouped = self._b.revision >= FOG
        later: list[Unit] = []
        for u in self._b.units:
            if u.side is side:
                face = u
            elif setting_up:
                continue
            elif u.decoy:
                if u.destroyed_turn is not None:
                    continue
                face = covers[u.id]
            elif not u.hidden and (u.kind is not INFANTRY or u.detected):
                face = u
            else:
                continue
            if grouped and u.side is DEFENDER:
                later.append(face)
            else:
                yield face
        yield from later

    # While nothing is kept from anyone (no hidden unit, no infantry, no decoy), the side
    # sees what the battle holds, and each question is the battle's own (the common case,
    # and the cheap one).

    @property
    def units(self) -> list[UnitView]:
        """Every unit the side may see: its own, and the enemy's it knows of."""
        return self._values_of(self._faces())

    def alive_count(self) -> int:
        """How many of ``units`` are alive (counted with no values built)."""
        return sum([1 for u in self._filtered_faces() if u.alive])

    def side_units(self, side: Side) -> list[UnitView]:
        b = self._b
        if not b.secret and not b.sight.covers and not self._setting_up():
            return self._values_of(self._arranged(b.side_units(side)))
        return self._values_of(self._arranged([u for u in self._filtered()
                                               if u.side is side]))

    def in_zone(self, zone: int, side: Side | None = None) -> list[UnitView]:
        """The units the side sees on the map in ``zone`` (of ``side`` only, if given)."""
        return self._values_of(self._in_zone(zone, side))

    def _in_zone(self, zone: int, side: Side | None = None) -> list[Unit]:
        b = self._b
        if not b.secret and not b.sight.covers and not self._setting_up():
            return list(self._arranged(b.in_zone(zone, side)))
        if zone is None:
            return []
        return list(self._arranged([
            u for u in self._filtered() if u.zone == zone and u.destroyed_turn is None
            and u.exited_turn is None and u.arrived and (side is None or u.side is side)]))

    def visible_in(self, zone: int, side: Side) -> list[UnitView]:
        """``side``'s units in ``zone`` that are not hidden."""
        b = self._b
        if not b.secret and not b.sight.covers and not self._setting_up():
            return self._values_of(self._arranged(b.visible_in(zone, side)))
        return self._values_of([u for u in self._in_zone(zone, side) if not u.hidden])

    def enemies_in(self, zone: int, side: Side) -> list[UnitView]:
        """The units in ``zone`` that are enemies of ``side`` and not hidden."""
        return self.visible_in(zone, side.enemy)

    def find(self, uid: object) -> UnitView | None:
        uid = self._engine_id(uid)
        found = next((u for u in self._filtered_faces() if u.id == uid), None)
        return None if found is None else self.value(found)

    def unit(self, uid: str) -> UnitView:
        found = self.find(uid)
        if found is None:
            raise KeyError(f"the {self.side.value} sees no unit with the id {uid!r}")
        return found

    def can_leave(self, unit: UnitView | Unit) -> bool:
        """R5.4: whether one of the side's units may leave its zone now."""
        return unit.side is self.side and unit.zone is not None and \
            self._b.can_leave(self._real(unit))

    @property
    def mines(self) -> list[int]:
        """The zones of the side's own minefields."""
        return list(self._b.mines[self.side])

    def seen_at_turn_end(self, turns_ago: int = 1) -> Mapping[Side, frozenset[int]]:
        """The zones the side saw occupied when the last turn ended (``turns_ago`` 2: the
        turn before it, and so on): its own, and the enemy's it could see (R8.1); nothing
        for a turn before the first."""
        history = self._b.sight.seen_history[self.side]
        return history[-turns_ago] if 0 < turns_ago <= len(history) else {}

    def state(self) -> BattleState:
        """The battle as the victory conditions read it, from what the side knows (a Mek
        contact counts as a Mek)."""
        attacker: list[UnitState] = []
        defender: list[UnitState] = []
        for u in self._faces():
            if u.decoy:  # the side's own decoy: it knows it is not a unit
                continue
            uid = self.label(u) if self._labelled and u.side is not self.side else u.id
            (attacker if u.side is Side.ATTACKER else defender).append(UnitState(
                uid, u.kind, u.zone if u.on_map else None, u.points, u.group, u.setup_zone,
                u.destroyed_turn, u.exited_turn, u.exit_edge, u.exit_zone))
        return BattleState(turn=self._b.turn, attacker=tuple(attacker),
                           defender=tuple(defender),
                           history=tuple(self._b.sight.seen_history[self.side]))

    # ---- the log ---------------------------------------------------------------------------

    def events(self, start: int = 0) -> list[Event]:
        """The log's events the side may read, from the ``start``-th of them on (a ``stamp``):
        those about what it cannot see (and the dice rolled for them) are left out, and a
        movement roll's result names the winner, not the numbers (the winning roll may be
        one the side did not see, R8.1; the rolls it saw are in their own lines)."""
        log = self._b.log
        private = self._b.sight.private
        side = self.side
        if not private:
            readable = log[start:]
        else:
            readable = [log[i] for i in range(len(log))
                        if private.get(i, side) is side][start:]
        out = enemy_shots([told(e) if e.kind is Kind.RANGE else e for e in readable],
                          side)  # (an enemy shot: hit or miss, R8.1)
        if self._labelled:  # (enemy units named by the side's labels, R8.1)
            labels, own = self._b.sight.labels[self.side], OWN_LETTER[side]
            out = [e if (e.unit is None or e.unit[:1] in own) and
                   (e.target is None or e.target[:1] in own) else
                   e._replace(unit=told_id(e.unit, labels, own),
                              target=told_id(e.target, labels, own)) for e in out]
        if any(u.design == STRONGPOINT for u in self._b.units):
            out = [e._replace(says=self.told_text(text)) if _SP in (text := e.text) else e
                   for e in out]
        return out

    def told_text(self, text: str) -> str:
        """``text`` (a log line, a die's purpose) as the side is told it: the enemy's
        infantry strongpoints named as the side knows them (``strongpoint_names``), never
        by the engine's ids, which count units the side has not seen (R8.1)."""
        if _SP not in text:
            return text
        names = self.strongpoint_names()
        return _STRONGPOINT.sub(lambda m: names.get(m.group(1), m.group(0)), text)

    def strongpoint_names(self) -> dict[str, str]:
        """The enemy's infantry strongpoints (a dismounted squad among them) by unit id, with
        the names the side knows them by: Strongpoint 1, 2, ... in the order the scenario
        gives them, then the squads in the order they dismount (nothing the enemy hides
        counts toward the number)."""
        names: dict[str, str] = {}
        enemy = self.enemy
        for u in self._b.units:
            if u.side is enemy and u.design == STRONGPOINT:
                names[u.id] = f"Strongpoint {len(names) + 1}"
        return names

    def _name(self, unit: Unit) -> str:
        """The name the side knows ``unit`` by (an enemy strongpoint's its own)."""
        if unit.design == STRONGPOINT and unit.side is not self.side:
            return self.strongpoint_names().get(unit.id, unit.name)
        return unit.name

    # ---- labels ------------------------------------------------------------------------------

    def label(self, unit: UnitView | Unit) -> str:
        """The name the side knows ``unit`` by: its own units by their ids; an enemy unit
        (a contact) by a label of the side's own, C1, C2, ... in the order the side met them
        (those met together by zone, name and design; contacts alike in all three in an
        order drawn from the battle's seed), never the engine's id, which would tell of
        units the side has not seen (R8.1)."""
        if unit.side is self.side or (self._labelled and isinstance(unit, UnitView)):
            return unit.id  # (from revision 10 on, an enemy's value is under its label)
        labels = self._b.sight.labels[self.side]
        found = labels.get(unit.id)
        if found is None:
            self._meet()
            found = labels.get(unit.id)
            if found is None:  # (a unit the side does not see: named by nothing it knows)
                return "C?"
        return found

    def _meet(self) -> None:
        """Label every enemy unit the side now sees and has not labelled yet."""
        labels = self._b.sight.labels[self.side]
        labelled = self._b.sight.labelled[self.side]
        seed = self._b.dice.seed
        new = [u for u in self._filtered_faces() if u.side is not self.side and
               u.id not in labels]

        def order(u: Unit) -> tuple[int, str, str, str]:
            tie = hashlib.blake2b(f"{seed}|{u.id}".encode(), digest_size=6).hexdigest() \
                if seed is not None else u.id
            return (u.zone if u.zone is not None else 99, self._name(u), u.design, tie)

        for u in sorted(new, key=order):
            labels[u.id] = label = f"C{len(labels) + 1}"
            labelled[label] = u.id
        units = self._b.units
        if not self._b.sight.covers and all(u.id in labels for u in units
                                            if u.side is not self.side):
            self._met = len(units)  # (every enemy unit has its label)


# An infantry strongpoint's name as the engine gives it (after its unit id), and its design.
_SP = "Strongpoint "
_STRONGPOINT = re.compile(r"Strongpoint ([AD]\d+i?)\b")
STRONGPOINT = "Infantry Strongpoint"


__all__ = ["Choice", "SideView", "Sight", "Source"]
