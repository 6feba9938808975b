"""The arithmetic of a shot, written once as the rest of a battle's checks are
(``meks.game.rules``): the to-hit roll (docs/rules.md R6.6-R6.7), the armor save (R6.8),
infantry's kills and morale (R6.11), and overheat (R6.10). Each is a description of the check,
rolled by the engine, read as a float chance by the bot and as an exact ``Fraction`` by the
exact duel.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from meks.game.catalog import Band, Family, Weapon
from meks.game.rules import (
    COMPUTERS_MODIFIER,
    GUNNERY_MODIFIER,
    ONE_EXACT,
    ONE_FLOAT,
    DieCheck,
    Num,
    Roller,
    clamp6,
    dice_sum,
    faces_above,
    faces_at_least,
    modifier_total,
    skill_of,
)

# Enum members kept as module constants: the checks compare them for every shot, and a
# class attribute of a plain-Python Enum costs a lookup each time.
_CANNON, _MISSILE, _LASER = Family.CANNON, Family.MISSILE, Family.LASER
_SHORT, _LONG = Band.SHORT, Band.LONG

COMMANDOS = "Commandos"
"""The name of the to-hit modifier of a target the shooter's Commandos marked (R6.6)."""


def _reroll(first: Num, each: Num, times: int) -> Num:
    """The chance of a success when a failure is rolled again ``times`` times (``first``:
    the first roll's chance, ``each``: each re-roll's)."""
    p = first
    for _ in range(times):
        p = 1 - (1 - p) * (1 - each)
    return p


def _named(mods: list[tuple[int, str]]) -> list[str]:
    return [f"{name} {m:+d}" for m, name in mods]


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
        mods.append((1, COMMANDOS))
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
        fail = clamp6(self.armor - self.modifier - 1) * one / 6
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
    return clamp6(armor - 1) * one / 6


def morale(kills: int) -> DieCheck:
    """R6.11: infantry that suffered losses hold on a morale roll greater than their total
    kills, and rout otherwise."""
    return DieCheck(kills + 1)

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
        return clamp6(self.excess) * one / 6

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
    "COMMANDOS",
    "ArmorSave",
    "KillsRoll",
    "Overheat",
    "ToHit",
    "armor_save",
    "gunnery_weapon",
    "heat_rating",
    "infantry_hit_odds",
    "infantry_hits",
    "kills_roll",
    "may_fire_again",
    "morale",
    "overheat",
    "overheat_hits",
    "to_hit",
]
