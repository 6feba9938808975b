"""Critical hits (docs/rules.md R6.9): the check after every Hit, the critical table and what
each of its faces does, and the roll a unit with a wounded pilot needs to act. Described as
values the engine rolls, the bot reads as a float and the exact duel as a fraction, like the
other checks of ``meks.game.rules``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from meks.game.catalog import Band, System, SystemKind, Weapon
from meks.game.rules import ONE_EXACT, ONE_FLOAT, DieCheck, Num, Roller, faces_above
from meks.game.shots import _reroll

_LONG = Band.LONG  # an Enum member as a module constant, as in meks.game.rules


# ---- R6.9 critical check ------------------------------------------------------------------

@dataclass
class CriticalCheck:
    """The critical check after a Hit: a roll above ``remaining`` Hits is a critical.
    ``pinpoint``: the attacker's Pinpoint Attack is there to use (a critical without the
    roll); ``sharpshooter``: its Sharpshooter may re-roll a failed check; ``ppc``: a PPC at
    Long re-rolls a failed check; ``spaul``: the target's Spaul Liner makes a critical be
    confirmed by a second check."""

    remaining: int
    pinpoint: bool = False
    sharpshooter: bool = False
    ppc: bool = False
    spaul: bool = False

    @property
    def spends(self) -> tuple[str, ...]:
        """The attacker's once-a-turn skills the check may use ("Pinpoint" is used whenever
        it is there; "Sharpshooter" only on a failed first roll)."""
        return ("Pinpoint",) if self.pinpoint else ("Sharpshooter",) if self.sharpshooter \
            else ()

    def crits(self, roll: int) -> bool:
        return roll > self.remaining

    def odds(self, one: Num) -> Num:
        """The chance of a critical that sticks."""
        p = faces_above(self.remaining) * one / 6
        if self.pinpoint:
            crit = one
        else:
            crit = _reroll(p, p, (1 if self.sharpshooter else 0) + (1 if self.ppc else 0))
        return crit * p if self.spaul else crit

    def chance(self) -> float:
        return float(self.odds(ONE_FLOAT))

    def exact(self) -> Fraction:
        return Fraction(self.odds(ONE_EXACT))

    def roll(self, dice: Roller, name: str) -> tuple[int, bool, tuple[str, ...]]:
        """The check (before any Spaul Liner): the face that counts (0 with Pinpoint),
        whether it is a critical, and the skills it used up."""
        if self.pinpoint:
            return 0, True, ("Pinpoint",)
        spent: tuple[str, ...] = ()
        roll = dice.d6(f"critical check on {name}")
        crit = self.crits(roll)
        if not crit and self.sharpshooter:
            spent = ("Sharpshooter",)
            roll = dice.d6(f"critical check re-roll (Sharpshooter) on {name}")
            crit = self.crits(roll)
        if not crit and self.ppc:
            roll = dice.d6(f"critical check re-roll (PPC at Long) on {name}")
            crit = self.crits(roll)
        return roll, crit, spent

    def confirm(self, dice: Roller, name: str) -> tuple[int, bool]:
        """The Spaul Liner's second check: the roll, and whether the critical sticks."""
        roll = dice.d6(f"Spaul Liner check on {name}")
        return roll, self.crits(roll)




def critical_check(remaining: int, *, pinpoint: bool = False, sharpshooter: bool = False,
                   weapon: Weapon | None = None, band: Band | None = None,
                   spaul: bool = False) -> CriticalCheck:
    """R6.9 (and R6.7's PPC at Long): the critical check after a Hit leaves ``remaining``
    Hits (0 after the killing Hit, whose check is always a critical).
    ``pinpoint``/``sharpshooter``: the attacker's skills there to use this turn; Pinpoint
    Attack is not spent on a killing Hit."""
    ppc = weapon is not None and weapon.long_range_crit_reroll and band is _LONG
    pinpoint = pinpoint and remaining > 0
    return CriticalCheck(remaining, pinpoint, sharpshooter and not pinpoint, ppc, spaul)


# ---- R6.9 critical table ------------------------------------------------------------------

# The effects of the critical table, each numbered by the face that gives it.
PILOT_WOUNDED = 1  # from next turn on, the unit acts only on a ``WOUNDED_ACTS`` roll
LEG_DAMAGED = 2  # -1 on the unit's movement rolls, for each one
WEAPON_DESTROYED = 3  # one working weapon, picked at random
REACTOR_CORE = 4  # rolled at once (``CriticalTable.reactor``): 1-3 the unit is doomed
COMPUTERS = 5  # -1 to hit in the next turn
SYSTEM_LOST = 6  # one working system other than armor, picked at random


class CriticalTable:
    """R6.9: the table a critical hit rolls on. One die, each face one effect, a sixth each:
    1 Pilot Wounded, 2 Leg Damaged, 3 Weapon Destroyed, 4 Reactor Core, 5 Computers,
    6 System Lost. A Reactor Core rolls again at once (``reactor``): the reactor holds on 4+
    and explodes on 1-3. A lost weapon or system is a ``random_pick`` among those that can
    be lost (``losable``: a system other than armor). The engine rolls it; the exact duel
    reads ``effects`` and ``explodes``."""

    __slots__ = ("faces", "names", "reactor")

    def __init__(self) -> None:
        # (the effect, its name) for each face, 1 to 6
        self.faces: tuple[tuple[int, str], ...] = (
            (PILOT_WOUNDED, "Pilot Wounded"), (LEG_DAMAGED, "Leg Damaged"),
            (WEAPON_DESTROYED, "Weapon Destroyed"), (REACTOR_CORE, "Reactor Core"),
            (COMPUTERS, "Computers"), (SYSTEM_LOST, "System Lost"))
        self.names = {effect: name for effect, name in self.faces}
        self.reactor = DieCheck(4)  # the reactor holds

    def roll(self, dice: Roller, name: str) -> tuple[int, int]:
        """Roll on the table for the unit ``name``: the face and its effect."""
        face = dice.d6(f"critical table for {name}")
        return face, self.faces[face - 1][0]

    def name(self, effect: int) -> str:
        return self.names[effect]

    def effects(self, one: Num) -> list[tuple[int, Num]]:
        """Each effect, in the table's order, and its chance (the faces that give it, out
        of six)."""
        out: list[tuple[int, Num]] = []
        for effect, _ in self.faces:
            faces = 0
            for other, _ in self.faces:
                if other == effect:
                    faces += 1
            out.append((effect, faces * one / 6))
        return out

    def reactor_roll(self, dice: Roller, name: str) -> tuple[int, bool]:
        """A Reactor Core's roll: the face, and whether the reactor explodes."""
        roll, holds = self.reactor.roll(dice, f"reactor of {name}")
        return roll, not holds

    def explodes(self, one: Num) -> Num:
        """The chance that a Reactor Core critical blows the unit up."""
        return one - self.reactor.odds(one)

    @staticmethod
    def losable(system: System) -> bool:
        """System Lost takes any working system but armor (Reactive, BPC, Space-Lam)."""
        return system.category is not SystemKind.ARMOR


CRITICAL_TABLE = CriticalTable()


WOUNDED_ACTS = DieCheck(5)  # R6.9: a unit with a wounded pilot (or crew) acts on 5+


def wounded_acts(roll: int) -> bool:
    """R6.9: whether a unit with a wounded pilot (or crew) acts this turn."""
    return WOUNDED_ACTS.succeeds(roll)


def wounded_acts_odds(one: Num) -> Num:
    """The chance that a wounded pilot acts this turn."""
    return WOUNDED_ACTS.odds(one)


__all__ = [
    "COMPUTERS",
    "CRITICAL_TABLE",
    "LEG_DAMAGED",
    "PILOT_WOUNDED",
    "REACTOR_CORE",
    "SYSTEM_LOST",
    "WEAPON_DESTROYED",
    "WOUNDED_ACTS",
    "CriticalCheck",
    "CriticalTable",
    "critical_check",
    "wounded_acts",
    "wounded_acts_odds",
]
