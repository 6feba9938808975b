"""The facts that feed a check of ``meks.game.rules``, gathered from the units and the zone
in one place, whoever asks.

**A shot's to-hit roll** (R6.6). ``meks.game.shots.to_hit`` adds the modifiers up;
``to_hit_of`` is the one place that reads what feeds it: the shooter's pilot level,
Targeting Array, damaged Computers and family skill, the target's Jammer, Spoof, Point
Defense and Digging In, the zone's terrain and whether it was doubled, a Phalanx of the
target's side in the zone, and the Commandos' marks. The engine asks it with the battle as
the ``Ground`` (``meks.engine.board.Board``), the bot with what its side sees
(``meks.engine.view.SideView``), and the exact duel with its own two Meks on open ground; so
the three can no longer count a shot differently by mistake. Where one of them counts a fact
on purpose in its own way (the bot does not count on an enemy's Spoof; a planned attack says
whether it will use the family skill), it says so in an argument.

**A movement roll** (R6.2). ``movement_roll_of`` reads the unit's move dice, its pilot's level,
Maneuver and Chassis Familiarity, its Servo Boosters, Jump Jets and damaged legs, and the
zone's terrain. The engine asks it for the roll it makes (and the bot through its view), the
odds estimate for a Mek as mustered, the exact duel for its Meks as they stand.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Mapping
from typing import Protocol

from meks.game.catalog import Band, Family, MoveDice, Size, Weapon
from meks.game.rules import MovementRoll, movement_roll, skill_of
from meks.game.scenario import HouseRules
from meks.game.shots import ToHit, to_hit
from meks.game.vocabulary import Side, UnitKind


class Seat(Protocol):
    """What a shot reads of a pilot: the level's to-hit modifier and name."""

    @property
    def level(self) -> Grade: ...


class Grade(Protocol):
    """A pilot level as a check reads it (``meks.game.catalog.Level`` is one)."""

    @property
    def level(self) -> str: ...
    @property
    def to_hit(self) -> int: ...
    @property
    def move(self) -> int: ...


class Driver(Seat, Protocol):
    """What a movement roll reads of a pilot: its level, skills and familiarity."""

    @property
    def familiarity(self) -> Size | None: ...

    def has(self, skill: str) -> bool: ...


class Mover(Protocol):
    """What a movement roll reads of a unit (``Unit`` is one)."""

    @property
    def kind(self) -> UnitKind: ...
    @property
    def move(self) -> MoveDice: ...
    @property
    def size(self) -> Size | None: ...
    @property
    def legs(self) -> int: ...
    @property
    def ignores_terrain_movement(self) -> bool: ...
    @property
    def pilot(self) -> Driver | None: ...

    def has_system(self, name: str) -> bool: ...


class Aimer(Protocol):
    """What a shot reads of a unit, shooter or target (``Unit`` and ``UnitView`` are both)."""

    @property
    def id(self) -> str: ...
    @property
    def side(self) -> Side: ...
    @property
    def zone(self) -> int | None: ...
    @property
    def dug_in_zone(self) -> int | None: ...
    @property
    def pilot(self) -> Seat | None: ...
    @property
    def turn_skills(self) -> Container[str]: ...
    @property
    def computers_turns(self) -> Collection[int]: ...
    @property
    def rounds(self) -> int: ...

    def has_system(self, name: str) -> bool: ...
    def skill(self, name: str) -> bool: ...


class Ground(Protocol):
    """What a shot reads of the battle around it."""

    @property
    def house(self) -> HouseRules: ...
    @property
    def marked(self) -> Mapping[Side, Container[str]]: ...

    def terrain_to_hit(self, zone: int) -> int: ...
    def terrain_name(self, zone: int) -> str: ...
    def doubled_against(self, zone: int, side: Side) -> bool: ...
    def computers_damaged(self, unit: Aimer) -> bool: ...
    def phalanx_in(self, zone: int, side: Side) -> bool: ...


def to_hit_of(ground: Ground, unit: Aimer | None, weapon: Weapon, target: Aimer, band: Band, *,
        single: bool = True, gunnery: bool = False, family_skill: bool | None = None,
        spoof: bool | None = None, doubled: bool | None = None,
        terrain: int | None = None) -> ToHit | None:
    """The to-hit roll of one firing of ``unit``'s ``weapon`` at ``target`` at ``band``
    (``unit`` None: a shot with no shooter to read, such as a support strike), or None when
    the weapon cannot fire at that band. ``single``: the shooter has one target this turn;
    ``gunnery``: a Gunnery second shot. Each of the last three is read from the units and
    the ground when None: ``family_skill``, whether the shooter's Accuracy, Guidance or
    Steady Hand is there to use; ``spoof``, whether the target's Spoof is; ``doubled``,
    whether the range step doubled the zone's terrain against the target; and ``terrain``,
    the to-hit modifier of the target's zone (a bot looking past the present fight asks
    with 0 for every zone alike). Asking uses up no once-a-turn skill."""
    need = weapon.needs[band]
    if need is None:
        return None
    zone = target.zone or 5
    if terrain is None:
        terrain = ground.terrain_to_hit(zone)
    counts = bool(terrain) and not weapon.ignores_terrain
    if doubled is None:
        doubled = counts and ground.doubled_against(zone, target.side)
    level = 0
    level_name = ""
    targeting = computers = skill = commandos = False
    if unit is not None:
        targeting = single and unit.has_system("Targeting Array")
        pilot = unit.pilot
        if pilot is not None:
            level, level_name = pilot.level.to_hit, pilot.level.level
        computers = ground.computers_damaged(unit)
        if family_skill is None:
            name = skill_of(weapon.family)
            family_skill = name is not None and unit.skill(name) and \
                name not in unit.turn_skills
        skill = family_skill
        commandos = target.id in ground.marked[unit.side]
    missile = weapon.family is Family.MISSILE
    if not missile:
        spoof = False
    elif spoof is None:
        spoof = target.skill("Spoof") and "Spoof" not in target.turn_skills
    return to_hit(
        weapon, need, band, terrain=terrain, terrain_name=ground.terrain_name(zone),
        doubled=doubled or (counts and target.dug_in_zone == zone),
        jammer=target.has_system("Jammer"), targeting_array=targeting, level=level,
        level_name=level_name, computers=computers, family_skill=skill, commandos=commandos,
        spoof=spoof, point_defense=missile and target.has_system("Point Defense"),
        phalanx=missile and ground.phalanx_in(zone, target.side), gunnery=gunnery,
        six_hits=ground.house.six_always_hits)


def movement_roll_of(unit: Mover, terrain_move: int = 0, terrain_name: str = "", *,
                     jump: bool = False, ignore_terrain: bool = False,
                     has: Callable[[str], bool] | None = None) -> MovementRoll:
    """R6.2: ``unit``'s movement roll in a zone of that terrain (``jump``: with its Jump
    Jets; ``has``: whether it has a working system of a name, by default
    ``unit.has_system``). Infantry roll one die and no terrain."""
    infantry = unit.kind is UnitKind.INFANTRY
    pilot = unit.pilot
    return movement_roll(
        1 if infantry else unit.move.dice, bonus=unit.move.bonus, terrain=terrain_move,
        terrain_name=terrain_name,
        ignore_terrain=ignore_terrain or infantry or unit.ignores_terrain_movement,
        jump=jump and not infantry,
        level=pilot.level.move if pilot is not None else 0,
        level_name=pilot.level.level if pilot is not None else "",
        maneuver=pilot is not None and pilot.has("Maneuver"),
        familiarity=pilot is not None and pilot.familiarity is not None
        and pilot.familiarity is unit.size,
        servo_boosters=(unit.has_system if has is None else has)("Servo Boosters"),
        legs=unit.legs)
