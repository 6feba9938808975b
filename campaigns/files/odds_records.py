"""The shapes of what ``meks odds`` works out (``campaigns.odds``): a battle's chances, the
ladder of the stock Meks, and what each skill a pilot could take is worth. Declared as
``campaigns.files.records`` declares the company's documents: ``TypedDict``s over the plain
dicts that are printed as they are. A share is of the battles fought, its interval the 95%
one (Wilson).
"""

from __future__ import annotations

from typing import TypedDict

# ---- a battle's chances (meks odds) ----------------------------------------------------------

class Chance(TypedDict):
    """One outcome's share of the battles, with its interval and how many came to it."""

    p: float
    low: float
    high: float
    count: int


class SideChance(Chance):
    """A side's chance of winning, and the company or force that fought it."""

    name: str


class UnitOdds(TypedDict):
    """A unit over the battles: how often it survived, and the Meks it killed on average."""

    id: str
    name: str
    pilot: str | None  # None for a vehicle
    side: str
    survival: float
    expected_kills: float


class BattleOdds(TypedDict):
    """A battle's chances, as ``meks odds --json`` shows them."""

    scenario: str
    runs: int
    seed: int
    controller: str
    attacker: SideChance
    defender: SideChance
    draw: Chance
    expected_turns: float
    units: list[UnitOdds]


# ---- the ladder of the stock Meks (meks odds ladder) -----------------------------------------

class Score(TypedDict):
    """A Mek's duels, and its rate of winning them (a draw half a win)."""

    duels: int
    wins: int
    draws: int
    losses: int
    win_rate: float


class LadderMek(Score):
    """A stock Mek on the ladder: its score over every terrain, and on each."""

    mek: str
    size: str
    price: int
    per_point: float | None  # the win rate per point of price (None: no price)
    terrain: dict[str, Score]  # by terrain


class Ladder(TypedDict):
    """The stock Meks in duels, as ``meks odds ladder --json`` shows them."""

    runs_per_pairing: int
    seed: int
    terrains: list[str]
    controller: str
    pilots: str
    turn_limit: int
    draws: str
    duels: int
    meks: list[LadderMek]


# ---- what a skill is worth (meks odds skill) -------------------------------------------------

class BaseChance(TypedDict):
    """The side's chance of winning with its force as it is."""

    p: float
    low: float
    high: float
    wins: int


class SkillGain(TypedDict):
    """The side's chance of winning with one more skill, and the gain over its force as it
    is: measured on the same runs, with the runs it turned to a win and to no win."""

    skill: str
    p: float
    low: float
    high: float
    gain: float
    gain_low: float
    gain_high: float
    better_runs: int
    worse_runs: int


class SkillGains(TypedDict):
    """What each skill a pilot could take is worth, as ``meks odds skill --json`` shows it."""

    scenario: str
    side: str
    runs: int
    seed: int
    controller: str
    force: str
    unit: str
    pilot: str
    level: str
    held: list[str]  # the skills the pilot holds
    opponent: str
    opponent_units: list[str]
    baseline: BaseChance
    skills: list[SkillGain]  # the greatest gain first
