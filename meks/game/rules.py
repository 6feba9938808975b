"""The arithmetic of each check of a battle, written once (docs/rules.md R4.3, R5.1, R5.3,
R6.2, R6.4, R6.6-R6.11): here the dice, minefields, arrivals, initiative, detection and the
movement roll; a shot's checks (to-hit, armor save, infantry's kills and morale, overheat) in
``meks.game.shots``, the critical check and table in ``meks.game.criticals``.

Each function here *describes* a check as a value: what is rolled, how many dice, against
what number, with which modifiers (each named), which re-rolls apply. A description is used
three ways, from the same code:

- the engine rolls it with the battle's dice (``roll...`` methods take a ``Roller``: the
  battle, whose ``d6`` logs every die), and writes the outcome to its log;
- the bot reads its chance as a float (``chance()``);
- the exact duel reads the same chance as an exact ``Fraction`` (``exact()``).

Every chance is worked out once, by a method that takes the number one (``1.0`` or
``Fraction(1)``) and builds the chance from counts of die faces, so the float and the
fraction cannot disagree but for rounding.

Describing a check never uses up a once-a-turn skill: a description says which skills it
leans on (``spends``), and whoever rolls it marks them used.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from mypy_extensions import mypyc_attr

from meks.game.catalog import Band, Family

Num = Any  # float, or Fraction when a chance is exact


@mypyc_attr(allow_interpreted_subclasses=True)
class Roller:
    """What rolls a check's dice: ``d6`` rolls one die for the purpose named (the battle's
    ``d6``, which logs it). A class rather than a function so that the engine's rolls stay
    plain method calls when compiled."""

    def d6(self, purpose: str) -> int:
        raise NotImplementedError

ONE_FLOAT = 1.0
ONE_EXACT = Fraction(1)

# Enum members kept as module constants: the checks compare them for every shot, and a
# class attribute of a plain-Python Enum costs a lookup each time.
_CANNON, _MISSILE, _LASER = Family.CANNON, Family.MISSILE, Family.LASER


def skill_of(family: Family) -> str | None:
    """R6.6: the pilot skill that gives +1 on one attack of ``family`` a turn (Accuracy,
    Guidance, Steady Hand), or None. (Members are compared, not hashed: an Enum member's
    hash is a Python-level call, and this runs for every shot.)"""
    return ("Accuracy" if family is _CANNON else "Guidance" if family is _MISSILE
            else "Steady Hand" if family is _LASER else None)


GUNNERY_MODIFIER = -2  # R6.5: a Gunnery second shot
JUMP_HEAT = 2  # R6.2/R6.10: jump jets
SECOND_MOVE_HEAT = 2  # R5.4/R6.10: a Mek's second movement, counted next turn
COMPUTERS_MODIFIER = -1  # R6.9: to hit in the round after a Computers critical
LEG_DAMAGE_MOVE = -1  # R6.9: on movement rolls, for each Leg Damaged


def clamp6(faces: int) -> int:
    return 0 if faces < 0 else 6 if faces > 6 else faces


def faces_at_least(number: int) -> int:
    """How many faces of a d6 reach ``number``."""
    return clamp6(7 - number)


def faces_above(number: int) -> int:
    """How many faces of a d6 beat ``number``."""
    return clamp6(6 - number)


def at_least(number: int, one: Num) -> Num:
    """The chance that one d6 reaches ``number``."""
    return faces_at_least(number) * one / 6


def dice_sum(dice: int, one: Num) -> list[Num]:
    """The distribution of the sum of ``dice`` six-sided dice (index = total)."""
    out: list[Num] = [one]
    for _ in range(dice):
        nxt: list[Num] = [0 * one] * (len(out) + 6)
        for total, p in enumerate(out):
            if p:
                for face in range(1, 7):
                    nxt[total + face] += p / 6
        out = nxt
    return out


def modifier_total(mods: list[tuple[int, str]]) -> int:
    """The sum of named modifiers."""
    out = 0
    for m, _ in mods:
        out += m
    return out


# ---- one die against a number ------------------------------------------------------------

class DieCheck:
    """One die plus ``modifier`` against ``need``: it succeeds when die + modifier >= need.
    Detection and ID (R6.4), Hawkeye (R6.4), a minefield (R4.3), morale (R6.11), a wounded
    pilot (R6.9), a Reactor Core (R6.9) and reinforcements (R5.1) are checks of this kind.
    A check that no face can pass is not ``possible``: R6.4 rolls no die for it."""

    __slots__ = ("modifier", "need")

    def __init__(self, need: int, modifier: int = 0) -> None:
        self.need = need
        self.modifier = modifier

    def __repr__(self) -> str:
        return f"DieCheck(need={self.need}, modifier={self.modifier})"

    def succeeds(self, roll: int) -> bool:
        return roll + self.modifier >= self.need

    def faces(self) -> int:
        """How many faces of the die succeed."""
        return faces_at_least(self.need - self.modifier)

    @property
    def possible(self) -> bool:
        return self.faces() > 0

    def odds(self, one: Num) -> Num:
        """The chance that the check succeeds (``one``: ``ONE_FLOAT`` for a float,
        ``ONE_EXACT`` for an exact fraction)."""
        return self.faces() * one / 6

    def roll(self, dice: Roller, purpose: str) -> tuple[int, bool]:
        """Roll it: the face, and whether the check succeeds."""
        roll = dice.d6(purpose)
        return roll, self.succeeds(roll)


def random_pick(dice: Roller, count: int, purpose: str) -> int:
    """R6.9: a pick at random among ``count`` candidates (which weapon or system a critical
    destroys, and a random arrival zone, R5.1): one die, rolled again until it names one of
    them, or two dice (a number from 1 to 36) when there are more than six. The index
    picked; no die when there is one candidate or none."""
    if count <= 1:
        return 0
    if count <= 6:
        while True:
            v = dice.d6(purpose)
            if v <= count:
                return v - 1
    while True:
        v = (dice.d6(purpose) - 1) * 6 + dice.d6(purpose)
        if v <= count:
            return v - 1


def pick_odds(count: int, one: Num) -> Num:
    """The chance of each candidate in a ``random_pick`` among ``count``: the re-rolls
    leave every candidate the same chance."""
    return one / count


# ---- R4.3 minefield ----------------------------------------------------------------------

MINEFIELD = DieCheck(3)  # R4.3: an enemy Mek entering a mined zone is hit on 3+ ...
MINEFIELD_HITS = 1  # ... and takes 1 Hit


# ---- R5.1 reinforcements ---------------------------------------------------------------

def arrival(need: int) -> DieCheck:
    """R5.1: a waiting reinforcement arrives this turn on the scenario's number or more."""
    return DieCheck(need)


# ---- R5.3 initiative ---------------------------------------------------------------------

TACTICS_INITIATIVE = 2
SURPRISE_INITIATIVE = 3


class InitiativeRoll:
    """A side's initiative roll: one die plus each of ``modifiers`` (``modifier``: their
    sum). The higher total wins; a tie is rolled again."""

    __slots__ = ("modifier", "modifiers")

    def __init__(self, modifiers: list[tuple[int, str]]) -> None:
        self.modifiers = modifiers
        self.modifier = modifier_total(modifiers)

    def __repr__(self) -> str:
        return f"InitiativeRoll(modifiers={self.modifiers!r})"

    def distribution(self, one: Num) -> dict[int, Num]:
        """Each total and its chance."""
        return {face + self.modifier: one / 6 for face in range(1, 7)}

    def roll(self, dice: Roller, purpose: str) -> tuple[int, int]:
        """Roll it: the face and the total."""
        roll = dice.d6(purpose)
        return roll, roll + self.modifier


def initiative(tactics: bool, surprise: int = 0) -> InitiativeRoll:
    """R5.3: a side's initiative roll: +2 when a pilot of the side on the map has Tactics
    (once, however many have it), +3 for each Surprise (R4.3) on the side's first roll of
    the battle (``surprise``: how many; 0 on every later roll, a tie's re-roll included)."""
    mods: list[tuple[int, str]] = []
    if tactics:
        mods.append((TACTICS_INITIATIVE, "Tactics"))
    if surprise:
        mods.append((SURPRISE_INITIATIVE * surprise, "Surprise"))
    return InitiativeRoll(mods)


def _win_tie(first: InitiativeRoll, second: InitiativeRoll, one: Num) -> tuple[Num, Num]:
    """The chances that ``first`` rolls higher than ``second``, and that they tie."""
    outcome = contest(first.distribution(one), second.distribution(one), one)
    win = 0 * one
    for (winner, _), p in outcome.items():
        if winner == 0:
            win += p
    return win, outcome.get((-1, False), 0 * one)


def initiative_odds(first: InitiativeRoll, second: InitiativeRoll, first_again: InitiativeRoll,
                    second_again: InitiativeRoll, one: Num) -> Num:
    """R5.3: the chance that the side rolling ``first`` wins initiative against ``second``,
    a tie rolled again (as often as it takes) with ``first_again`` against
    ``second_again`` (no Surprise on those)."""
    win, tie = _win_tie(first, second, one)
    win_again, tie_again = _win_tie(first_again, second_again, one)
    return win + tie * win_again / (1 - tie_again)


# ---- R6.4 detection and identification ----------------------------------------------------

# Sensor classes are numbered as ``meks.engine.units.Sensors``: 0 Basic, 1 Improved,
# 2 Advanced. Each table below has one entry for each, in that order.
OUT_OF_REACH = 7  # a need no die reaches: the check cannot succeed, and no die is rolled

INFANTRY_DETECT = (6, 5, 3)  # finding infantry: the need
BAND_DETECT_MODIFIER = {Band.SHORT: 0, Band.MEDIUM: -1, Band.LONG: -2}  # ... on the die
MASKED_DETECT = ((Band.MEDIUM, 4), (Band.LONG, 4), (Band.LONG, 2))  # (reach, need)
ID_REACH = (Band.MEDIUM, Band.LONG, Band.LONG)  # identifying a unit in the zone
MASKED_ID = ((Band.SHORT, 4), (Band.MEDIUM, 3), (Band.LONG, 2))  # (reach, need)
HAWKEYE = DieCheck(5)  # a Hawkeye pilot identifies the unit it names on 5+


def _within(reach: Band) -> dict[Band, bool]:
    return {band: band.rank <= reach.rank for band in Band}


def _in_reach(reach: Band, need: int) -> dict[Band, DieCheck]:
    return {band: DieCheck(need if ok else OUT_OF_REACH) for band, ok in _within(reach).items()}


# Built once: detection is checked every time a unit picks its targets.
_INFANTRY_DETECTION = tuple({band: DieCheck(need, mod) for band, mod in
                             BAND_DETECT_MODIFIER.items()} for need in INFANTRY_DETECT)
_MASKED_DETECTION = tuple(_in_reach(reach, need) for reach, need in MASKED_DETECT)
_MASKED_ID = tuple(_in_reach(reach, need) for reach, need in MASKED_ID)
_ID = tuple(_within(reach) for reach in ID_REACH)


def infantry_detection(sensors: int, band: Band) -> DieCheck:
    """R6.4: a unit with ``sensors`` looking for infantry at ``band``: Basic 6, Improved 5+,
    Advanced 3+, the die -1 at Medium and -2 at Long (so Basic finds infantry at Short only,
    and Improved not at Long)."""
    return _INFANTRY_DETECTION[sensors][band]


def masked_detection(sensors: int, band: Band) -> DieCheck:
    """R6.4: a unit with ``sensors`` trying to detect a Mek with Masking & Insulation at
    ``band``: Basic at Medium or Short only, 4+; Improved at any band, 4+; Advanced at any
    band, 2+."""
    return _MASKED_DETECTION[sensors][band]


def identifies_unmasked(sensors: int, band: Band) -> bool:
    """R6.4: whether ``sensors`` identify an unmasked unit at ``band`` (no roll): Basic at
    Medium or Short, Improved and Advanced at any band."""
    return _ID[sensors][band]


def masked_identification(sensors: int, band: Band) -> DieCheck:
    """R6.4: a unit with ``sensors`` trying to identify a masked unit at ``band``: Basic at
    Short only, 4+; Improved at Medium or Short, 3+; Advanced at any band, 2+ (in adjacent
    zones too, as at Long)."""
    return _MASKED_ID[sensors][band]


# ---- R6.2 movement roll ----------------------------------------------------------------

class MovementRoll:
    """A unit's movement roll: ``dice`` dice plus each of ``modifiers`` (``modifier``: their
    sum)."""

    __slots__ = ("dice", "modifier", "modifiers")

    def __init__(self, dice: int, modifiers: list[tuple[int, str]]) -> None:
        self.dice = dice
        self.modifiers = modifiers
        self.modifier = modifier_total(modifiers)

    def __repr__(self) -> str:
        return f"MovementRoll(dice={self.dice}, modifiers={self.modifiers!r})"

    def distribution(self, one: Num) -> dict[int, Num]:
        """Each result (never below 0: a side that rolls nothing has 0) and its chance."""
        mod = self.modifier
        out: dict[int, Num] = {}
        for total, p in enumerate(dice_sum(self.dice, one)):
            if p:
                value = max(0, total + mod)
                out[value] = out.get(value, 0 * one) + p
        return out

    def roll(self, dice: Roller, purpose: str) -> tuple[int, int]:
        """Roll it: the dice's total and the result."""
        rolled = 0
        for _ in range(self.dice):
            rolled += dice.d6(purpose)
        return rolled, rolled + self.modifier


def movement_roll(dice: int, *, bonus: int = 0, terrain: int = 0, terrain_name: str = "",
                  ignore_terrain: bool = False, jump: bool = False, level: int = 0,
                  level_name: str = "", maneuver: bool = False, familiarity: bool = False,
                  servo_boosters: bool = False, legs: int = 0) -> MovementRoll:
    """R6.2: the chassis movement dice (``bonus``: the move dice's own bonus) plus the zone's
    terrain movement modifier, the pilot level's, Maneuver +2, Chassis Familiarity +1
    (``familiarity``: the pilot's size is the unit's), Servo Boosters +1, -1 per Leg
    Damaged; Jump Jets (``jump``) add a die and ignore the terrain. Modifiers that add
    nothing are left out."""
    mods: list[tuple[int, str]] = []
    if bonus:
        mods.append((bonus, "move bonus"))
    if terrain and not (ignore_terrain or jump):
        mods.append((terrain, terrain_name))
    if level:
        mods.append((level, level_name))
    if maneuver:
        mods.append((2, "Maneuver"))
    if familiarity:
        mods.append((1, "Chassis Familiarity"))
    if servo_boosters:
        mods.append((1, "Servo Boosters"))
    if legs:
        mods.append((LEG_DAMAGE_MOVE * legs, "Leg Damage"))
    return MovementRoll(dice + (1 if jump else 0), mods)


def contest(first: dict[int, Num], second: dict[int, Num],
            one: Num) -> dict[tuple[int, bool], Num]:
    """R6.3: two sides' movement results (each a distribution) compared: (0 when the first
    is strictly higher, 1 when the second is, -1 for a tie; whether the higher is more than
    twice the lower) and its chance."""
    out: dict[tuple[int, bool], Num] = {}
    for va, pa in first.items():
        for vb, pb in second.items():
            if va == vb:
                key = (-1, False)
            else:
                high, low = (va, vb) if va > vb else (vb, va)
                key = (0 if va > vb else 1, high > 2 * low)
            out[key] = out.get(key, 0 * one) + pa * pb
    return out


__all__ = [
    "BAND_DETECT_MODIFIER",
    "GUNNERY_MODIFIER",
    "HAWKEYE",
    "ID_REACH",
    "INFANTRY_DETECT",
    "JUMP_HEAT",
    "MASKED_DETECT",
    "MASKED_ID",
    "MINEFIELD",
    "MINEFIELD_HITS",
    "OUT_OF_REACH",
    "SURPRISE_INITIATIVE",
    "TACTICS_INITIATIVE",
    "DieCheck",
    "InitiativeRoll",
    "MovementRoll",
    "Roller",
    "arrival",
    "at_least",
    "contest",
    "dice_sum",
    "faces_above",
    "faces_at_least",
    "identifies_unmasked",
    "infantry_detection",
    "initiative",
    "initiative_odds",
    "masked_detection",
    "masked_identification",
    "movement_roll",
    "pick_odds",
    "random_pick",
    "skill_of",
]
