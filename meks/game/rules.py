"""The arithmetic of each check of a battle, written once (docs/rules.md R4.3, R5.1, R5.3,
R6.2, R6.4, R6.6-R6.11).

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

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mypy_extensions import mypyc_attr

from meks.game.catalog import Band, Family, Weapon

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
_SHORT, _LONG = Band.SHORT, Band.LONG


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


def _clamp6(faces: int) -> int:
    return 0 if faces < 0 else 6 if faces > 6 else faces


def faces_at_least(number: int) -> int:
    """How many faces of a d6 reach ``number``."""
    return _clamp6(7 - number)


def faces_above(number: int) -> int:
    """How many faces of a d6 beat ``number``."""
    return _clamp6(6 - number)


def at_least(number: int, one: Num) -> Num:
    """The chance that one d6 reaches ``number``."""
    return faces_at_least(number) * one / 6


def _reroll(first: Num, each: Num, times: int) -> Num:
    """The chance of a success when a failure is rolled again ``times`` times (``first``:
    the first roll's chance, ``each``: each re-roll's)."""
    p = first
    for _ in range(times):
        p = 1 - (1 - p) * (1 - each)
    return p


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


def _named(mods: list[tuple[int, str]]) -> list[str]:
    return [f"{name} {m:+d}" for m, name in mods]


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


# ---- R6.6-R6.7 to hit ---------------------------------------------------------------------

class ToHit:
    """One firing's to-hit roll: each of ``dice`` dice hits when die + modifier >= ``need``
    (a 6 always hits with the house rule), a miss rolled again once when ``reroll_miss``.
    ``spends``: the shooter's once-a-turn skills it counts on; ``target_spends``: the
    target's. ``modifier`` is the modifiers' sum. (A plain class with slots: the engine
    describes every shot, and a dataclass's generated methods cost more here.)"""

    __slots__ = ("dice", "modifier", "modifiers", "need", "reroll_miss", "six_hits", "spends",
                 "target_spends")

    def __init__(self, need: int, modifiers: list[tuple[int, str]], dice: int = 1,
                 reroll_miss: bool = False, six_hits: bool = False,
                 spends: tuple[str, ...] = (), target_spends: tuple[str, ...] = ()) -> None:
        self.need = need
        self.modifiers = modifiers
        self.dice = dice
        self.reroll_miss = reroll_miss
        self.six_hits = six_hits
        self.spends = spends
        self.target_spends = target_spends
        self.modifier = modifier_total(modifiers)

    def __repr__(self) -> str:
        return (f"ToHit(need={self.need}, modifiers={self.modifiers!r}, dice={self.dice}, "
                f"reroll_miss={self.reroll_miss}, six_hits={self.six_hits})")

    @property
    def notes(self) -> list[str]:
        """Each modifier, named: "Woods -1"."""
        return _named(self.modifiers)

    def hits(self, roll: int, modifier: int) -> bool:
        return roll + modifier >= self.need or (self.six_hits and roll == 6)

    def faces(self) -> int:
        """How many faces of one die hit (before any re-roll)."""
        faces = faces_at_least(self.need - self.modifier)
        return max(faces, 1) if self.six_hits else faces

    def odds(self, one: Num) -> Num:
        """The chance that one die hits, a miss re-rolled where the weapon allows."""
        p = self.faces() * one / 6
        return _reroll(p, p, 1) if self.reroll_miss else p

    def chance(self) -> float:
        return float(self.odds(ONE_FLOAT))

    def exact(self) -> Fraction:
        return Fraction(self.odds(ONE_EXACT))

    def roll_die(self, dice: Roller, purpose: str, reroll_purpose: str) -> tuple[int, bool]:
        """Roll one of the dice (and its re-roll): the face that counts, and whether it hit."""
        modifier = self.modifier
        roll = dice.d6(purpose)
        hit = self.hits(roll, modifier)
        if not hit and self.reroll_miss:
            roll = dice.d6(reroll_purpose)
            hit = self.hits(roll, modifier)
        return roll, hit


def to_hit(weapon: Weapon, need: int, band: Band, *, terrain: int = 0,
           terrain_name: str = "", doubled: bool = False, jammer: bool = False,
           targeting_array: bool = False, single: bool = True, level: int = 0,
           level_name: str = "", computers: bool = False, family_skill: bool = False,
           commandos: bool = False, spoof: bool = False, point_defense: bool = False,
           phalanx: bool = False, gunnery: bool = False, six_hits: bool = False) -> ToHit:
    """R6.6: the to-hit roll of one firing of ``weapon`` at ``band`` (its To-Hit ``need``).

    ``terrain``: the zone's to-hit modifier (``doubled`` by the range step or Digging In);
    ``jammer``, ``point_defense``, ``phalanx``: on the target or, for a Phalanx, any unit of
    its side in the zone; ``targeting_array`` counts when the attacker has a ``single``
    target; ``level``: the pilot level's modifier; ``computers``: Computers damaged this
    turn; ``family_skill``: Accuracy, Guidance or Steady Hand is there to use;
    ``commandos``: the target is marked; ``spoof``: the target's Spoof is there to use;
    ``gunnery``: a Gunnery second shot."""
    family = weapon.family
    mods: list[tuple[int, str]] = []
    if gunnery:
        mods.append((GUNNERY_MODIFIER, "Gunnery"))
    if terrain and not weapon.ignores_terrain:
        mods.append((terrain * 2, f"{terrain_name} doubled") if doubled else
                    (terrain, terrain_name))
    if jammer:
        mods.append((-1, "Jammer"))
    if single and targeting_array:
        mods.append((1, "Targeting Array"))
    if level:
        mods.append((level, level_name))
    if computers:
        mods.append((COMPUTERS_MODIFIER, "Computers damaged"))
    spends: tuple[str, ...] = ()
    skill = skill_of(family) if family_skill else None
    if skill is not None:
        mods.append((1, skill))
        spends = (skill,)
    if commandos:
        mods.append((1, "Commandos"))
    target_spends: tuple[str, ...] = ()
    if family is _MISSILE:
        if spoof:
            mods.append((-1, "Spoof"))
            target_spends = ("Spoof",)
        if weapon.to_hit_vs_point_defense is not None and (point_defense or phalanx):
            mods.append((weapon.to_hit_vs_point_defense, "Hammer vs defenses"))
        else:
            if point_defense and band is not _SHORT:
                mods.append((-1, "Point Defense"))
            if phalanx:
                mods.append((-2 if band is _LONG else -1, "Phalanx"))
    return ToHit(need, mods, weapon.dice, weapon.reroll_miss, six_hits, spends,
                 target_spends)


def gunnery_weapon(weapon: Weapon) -> bool:
    """R6.5: Gunnery's second shot is for a cannon-family weapon or a CIWS pair."""
    return weapon.family is _CANNON or weapon.price_per == "pair"


def may_fire_again(weapon: Weapon, fired: int, gunnery: bool) -> bool:
    """R6.5: a weapon fired once may fire a second time (at -2) with an unused Gunnery
    skill (``gunnery``), when it is a cannon-family weapon or a CIWS pair."""
    return gunnery and fired == 1 and gunnery_weapon(weapon)


# ---- R6.8 armor save ----------------------------------------------------------------------

@dataclass
class ArmorSave:
    """One hit's armor save: die + ``modifier`` >= ``armor`` saves; ``reroll``: the armor
    system that rolls a failed save again (or "")."""

    armor: int
    modifier: int = 0
    reroll: str = ""

    def saves(self, roll: int) -> bool:
        return roll + self.modifier >= self.armor

    def fails(self, one: Num) -> Num:
        """The chance that the save fails (after any re-roll)."""
        fail = _clamp6(self.armor - self.modifier - 1) * one / 6
        return fail * fail if self.reroll else fail

    def fails_any(self, hits: int, one: Num) -> Num:
        """The chance that at least one of ``hits`` hits gets through, each rolling its own
        save (what an Agility dodge, decided once for a whole attack, avoids: R6.8)."""
        return 1 - (1 - self.fails(one)) ** hits

    def chance(self) -> float:
        """The chance that the save fails, as a float."""
        return float(self.fails(ONE_FLOAT))

    def exact(self) -> Fraction:
        """The chance that the save fails, exactly."""
        return Fraction(self.fails(ONE_EXACT))

    def roll(self, dice: Roller, purpose: str, reroll_purpose: str) -> tuple[int, bool, bool]:
        """Roll it: the face that counts, whether it saved, whether it was re-rolled."""
        roll = dice.d6(purpose)
        saved = self.saves(roll)
        if saved or not self.reroll:
            return roll, saved, False
        roll = dice.d6(reroll_purpose)
        return roll, self.saves(roll), True


def armor_save(armor: int, weapon: Weapon, has: Callable[[str], bool]) -> ArmorSave:
    """R6.8: the save of a target of ``armor`` against one hit of ``weapon``; ``has`` says
    whether the target has a working system of a name. Hammer -1; Space-Lam +1 against the
    cannon family; Reactive Armor re-rolls a failed save against missiles, BPC against
    lasers."""
    family = weapon.family
    mod = weapon.save_modifier
    reroll = ""
    if family is _CANNON:
        if has("Space-Lam Armor"):
            mod += 1
    elif family is _MISSILE:
        if has("Reactive Armor"):
            reroll = "Reactive Armor"
    elif family is _LASER and has("BPC Armor"):
        reroll = "BPC Armor"
    return ArmorSave(armor, mod, reroll)


# ---- R6.11 infantry ------------------------------------------------------------------------

@dataclass
class KillsRoll:
    """A kills roll against infantry: small weapons roll ``dice`` dice and kill the total
    plus ``modifier`` (never below 0); missiles kill 1 on 4+; cannons and lasers 1 on 3-4,
    2 on 5+ (die + modifier)."""

    dice: int
    modifier: int
    small: bool
    missile: bool

    def kills(self, rolled: int) -> int:
        value = rolled + self.modifier
        if self.small:
            return max(0, value)
        if self.missile:
            return 1 if value >= 4 else 0
        return 2 if value >= 5 else 1 if value >= 3 else 0

    def distribution(self, one: Num) -> dict[int, Num]:
        """Each number of kills and its chance."""
        out: dict[int, Num] = {}
        for total, p in enumerate(dice_sum(self.dice, one)):
            if p:
                k = self.kills(total)
                out[k] = out.get(k, 0 * one) + p
        return out

    def at_least(self, kills: int, one: Num) -> Num:
        """The chance of ``kills`` kills or more."""
        faces = 0
        for total, count in enumerate(_counts(self.dice)):
            if count and self.kills(total) >= kills:
                faces += count
        return faces * one / 6 ** self.dice

    def expected(self, one: Num) -> Num:
        """The kills to expect: the sum over k of the chance of at least k kills."""
        most = self.kills(6 * self.dice)
        total = 0 * one
        for k in range(1, most + 1):
            total += self.at_least(k, one)
        return total

    def roll(self, dice: Roller, purpose: str) -> tuple[int, int]:
        """Roll it: the dice's total and the kills."""
        rolled = 0
        for _ in range(self.dice):
            rolled += dice.d6(purpose)
        return rolled, self.kills(rolled)


_COUNTS: dict[int, list[int]] = {0: [1]}


def _counts(dice: int) -> list[int]:
    """How many ways ``dice`` dice make each total (index = total)."""
    known = _COUNTS.get(dice)
    if known is None:
        prev = _counts(dice - 1)
        known = [0] * (len(prev) + 6)
        for total, c in enumerate(prev):
            for face in range(1, 7):
                known[total + face] += c
        _COUNTS[dice] = known
    return known


def kills_roll(weapon: Weapon, terrain: int, extra: int = 0) -> KillsRoll:
    """R6.11: no to-hit roll against infantry; a kills roll, the zone's terrain to-hit
    modifier applying (unless the weapon ignores terrain), and ``extra`` (a Gunnery -2)."""
    modifier = (0 if weapon.ignores_terrain else terrain) + extra
    small = weapon.is_small
    return KillsRoll(weapon.kills if small else 1, modifier, small,
                     weapon.family is _MISSILE)


def infantry_hits(roll: int, armor: int) -> bool:
    """R6.11: infantry hit on a roll under the target's AR."""
    return roll < armor


def infantry_hit_odds(armor: int, one: Num) -> Num:
    """The chance of an infantry attack hitting a target of ``armor``."""
    return _clamp6(armor - 1) * one / 6


def morale(kills: int) -> DieCheck:
    """R6.11: infantry that suffered losses hold on a morale roll greater than their total
    kills, and rout otherwise."""
    return DieCheck(kills + 1)


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


# ---- R6.10 overheat ------------------------------------------------------------------------

def heat_rating(chassis_heat: int, heat_sinks: int = 0, *, moors: bool = False,
                familiar: bool = False) -> int:
    """R6.10: the heat a Mek may build in a turn before it overheats: its chassis Heat, one
    for each working Heat Sink, one in Moors and one when its pilot has Chassis Familiarity
    with its size."""
    return chassis_heat + heat_sinks + (1 if moors else 0) + (1 if familiar else 0)


@dataclass
class Overheat:
    """The overheat roll of a weapon fired ``excess`` heat above the rating: a roll at or
    under the excess destroys the weapon, and the Mek takes ``hits`` Hits (no save, no
    critical check). No roll at all when the excess is 0 or less."""

    excess: int
    hits: int

    @property
    def rolls(self) -> bool:
        return self.excess > 0

    def holds(self, roll: int) -> bool:
        return roll > self.excess

    def lost(self, one: Num) -> Num:
        """The chance that the weapon is destroyed."""
        return _clamp6(self.excess) * one / 6

    def kept(self, one: Num) -> Num:
        """The chance that the weapon fires on."""
        return faces_above(self.excess) * one / 6 if self.excess > 0 else one

    def chance(self) -> float:
        """The chance that the weapon is destroyed, as a float."""
        return float(self.lost(ONE_FLOAT))

    def exact(self) -> Fraction:
        return Fraction(self.lost(ONE_EXACT))

    def roll(self, dice: Roller, purpose: str) -> tuple[int, bool]:
        """Roll it (only when ``rolls``): the roll and whether the weapon holds."""
        roll = dice.d6(purpose)
        return roll, self.holds(roll)


def overheat_hits(weapon: Weapon) -> int:
    """R6.10: an overheated missile-family weapon costs 2 Hits, any other 1."""
    return 2 if weapon.family is _MISSILE else 1


def overheat(heat: int, rating: int, weapon: Weapon) -> Overheat:
    """R6.10: ``weapon`` fired with the running heat total at ``heat`` (its own heat
    included) against the heat ``rating``."""
    return Overheat(heat - rating, overheat_hits(weapon))


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
    "ArmorSave",
    "DieCheck",
    "InitiativeRoll",
    "KillsRoll",
    "MovementRoll",
    "Overheat",
    "Roller",
    "ToHit",
    "armor_save",
    "arrival",
    "at_least",
    "contest",
    "dice_sum",
    "faces_above",
    "faces_at_least",
    "gunnery_weapon",
    "heat_rating",
    "identifies_unmasked",
    "infantry_detection",
    "infantry_hit_odds",
    "infantry_hits",
    "initiative",
    "initiative_odds",
    "kills_roll",
    "masked_detection",
    "masked_identification",
    "may_fire_again",
    "morale",
    "movement_roll",
    "overheat",
    "overheat_hits",
    "pick_odds",
    "random_pick",
    "skill_of",
    "to_hit",
]
