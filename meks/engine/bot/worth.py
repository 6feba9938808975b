"""The bot's odds and worth: what a unit and one damaging hit on it are worth, and the odds of
one shot (to-hit, armor save, infantry kills), read from the descriptions the engine rolls
(``meks.game.shots``, ``meks.game.criticals``). ``Appraiser`` holds what the bot remembers
while nothing happens in a battle, and the base of its ``Judge``
(``meks.engine.bot.evaluation``), which builds the order of fire and the fights on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from math import exp
from typing import TYPE_CHECKING

from meks.engine.inputs import to_hit_of
from meks.engine.values import UnitView
from meks.game.catalog import Band, Weapon
from meks.game.criticals import critical_check
from meks.game.rules import ONE_FLOAT
from meks.game.shots import (
    ToHit,
    armor_save,
    kills_roll,
)
from meks.game.vocabulary import Side

if TYPE_CHECKING:
    from meks.engine.view import SideView


CRIT_SHARE = 0.27  # a critical's average harm, as a share of the unit's worth


# ---- odds ------------------------------------------------------------------------------------

_NEED: dict[tuple[str, Band], int | None] = {}


def need_at(weapon: Weapon, band: Band) -> int | None:
    """``weapon.to_hit_at(band)``, remembered."""
    key = (weapon.name, band)
    if key not in _NEED:
        _NEED[key] = weapon.to_hit_at(band)
    return _NEED[key]


def base_worth(unit: UnitView) -> float:
    """What a unit is worth: its price, or an estimate for support units and infantry."""
    if unit.points:
        return float(unit.points)
    if unit.is_infantry:
        return 6.0
    return 2.0 * unit.max_hits + 2.0 * sum(w.weapon.price for w in unit.weapons)


def firepower_share(unit: UnitView) -> float:
    """The share of its weapons (by price) a unit still has."""
    total = sum(w.weapon.price for w in unit.weapons)
    if not total:
        return 1.0
    return sum(w.weapon.price for w in unit.weapons if not w.destroyed) / total


def worth(unit: UnitView) -> float:
    """A unit's worth now: its price, scaled down as it loses weapons or its pilot is hurt."""
    value = base_worth(unit) * (0.4 + 0.6 * firepower_share(unit))
    if unit.wounded:
        value *= 0.5
    return value


Ref = tuple[str, bool]
"""A unit as the bot remembers values of it: its id, and whether it is a decoy."""


def refs(units: Sequence[UnitView]) -> tuple[Ref, ...]:
    """The units' refs (``Ref``), in order."""
    return tuple([(u.id, u.decoy) for u in units])

class Appraiser:
    """The bot's values of one battle that hold until anything happens (a unit's worth, its
    working systems, the odds of a shot), with the memory of everything ``Judge`` remembers,
    which ``fresh`` forgets."""

    def __init__(self) -> None:
        self._battle: object = None
        self._heat_of_zone: dict[int, int] = {}
        # Remembered until anything happens (dropped when the side's ``moment`` changes):
        self._memo_key: object = None
        self._turn = -1  # the battle's turn
        self._next_turn = False  # see ``next_turn``
        # (Units are keys themselves, not their ids: a bot that plays both sides sees an
        # enemy Decoy's contact, a unit of its own, under the decoy's id.)
        # (A view hands out a new value of a unit for each question, so values are
        # remembered by ``ref``: the unit's id, and whether it is a decoy, which tells a
        # decoy of the bot's own side from the contact the enemy sees under the same id.)
        self._fails: dict[tuple[Ref, str], float] = {}  # (target, weapon) -> save fails
        self._worths: dict[Ref, float] = {}
        self._hit_worths: dict[Ref, float] = {}
        self._systems: dict[Ref, frozenset[str]] = {}
        self._shooting: dict[Ref, tuple[object, ...]] = {}  # see ``_as_shooter``
        self._shot_at: dict[Ref, tuple[object, ...]] = {}  # see ``_as_target``
        self._gunning: dict[Ref, tuple[object, ...]] = {}  # see ``_as_gunner``
        self._marked: dict[Side, frozenset[str]] = {}
        self._phalanx: dict[tuple[int, Side], bool] = {}  # see ``phalanx_in``
        # What the side's units' decisions share while nothing happens: the strength of a
        # group against another (``power``, ``ratio``), keyed on the side that sees them
        # and the units' refs, in order.
        self._shared: dict[tuple[object, ...], float] = {}
        # Remembered for the battle (dropped when another battle starts, so it holds the
        # last battle's units until then): ``quick``'s values, keyed on everything they
        # read that may change during a battle.
        self._quick: dict[tuple[object, ...], float] = {}
        # Remembered for the battle: ``power``'s values, keyed on the same.
        self._powers: dict[tuple[object, ...], float] = {}
        # Remembered for the battle: ``guns``'s odds (see there).
        self._guns: dict[tuple[object, ...],
                         list[tuple[int, int, list[tuple[int, float, float]]]]] = {}

    def fresh(self, battle: SideView) -> None:
        """Forget remembered values once anything has happened in the battle (and
        everything when it is another battle)."""
        if battle.token is not self._battle:
            self._battle = battle.token
            self._memo_key = None
            self._quick.clear()
            self._powers.clear()
            self._guns.clear()
            self._heat_of_zone = {
                z: battle.catalog.terrain_named(battle.scenario.terrain_of(z)).heat
                for z in range(1, 10)}
        moment = battle.moment
        if moment != self._memo_key:
            self._memo_key = moment
            self._turn = battle.turn
            self._fails.clear()
            self._worths.clear()
            self._hit_worths.clear()
            self._systems.clear()
            self._shooting.clear()
            self._shot_at.clear()
            self._gunning.clear()
            self._marked.clear()
            self._phalanx.clear()
            self._shared.clear()

    @contextmanager
    def next_turn(self, battle: SideView) -> Iterator[None]:
        """Within the block, fights are judged as the next turn will find them, for a choice
        made as a turn ends (withdraw, overrun): every unit acts (a pilot who failed this
        turn's roll rolls again, wounded at 5+, which the estimate counts), and no zone's
        terrain counts (a zone combat puts both sides in one zone's terrain, and where they
        will meet is not known; this turn's doubling is over). What is remembered of the
        units meanwhile is kept apart and dropped after (``battle`` is seen first, so that
        what is kept is of the battle as it is)."""
        self.fresh(battle)
        kept = self._shooting, self._shot_at, self._shared
        self._shooting, self._shot_at, self._shared = {}, {}, {}
        self._next_turn = True
        try:
            yield
        finally:
            self._next_turn = False
            self._shooting, self._shot_at, self._shared = kept

    def acts(self, unit: UnitView) -> bool:
        """Whether the estimates count ``unit`` as acting: it acts this turn, the battle has
        not begun (every unit counts), or the judging looks at the next turn."""
        return unit.can_act or self._turn <= 0 or self._next_turn

    def terrain(self, battle: SideView, zone: int) -> int:
        """The to-hit modifier of ``zone``'s terrain, as the judging counts it."""
        return 0 if self._next_turn else battle.terrain_to_hit(zone)

    def phalanx_in(self, battle: SideView, zone: int, side: Side) -> bool:
        """Whether the side sees a unit of ``side`` with a Phalanx in ``zone`` (R6.6),
        remembered until anything happens."""
        key = (zone, side)
        known = self._phalanx.get(key)
        if known is None:
            known = self._phalanx[key] = battle.phalanx_in(zone, side)
        return known

    def systems(self, unit: UnitView) -> frozenset[str]:
        """The names of the unit's working systems (remembered until something happens)."""
        key = (unit.id, unit.decoy)
        names = self._systems.get(key)
        if names is None:
            names = self._systems[key] = frozenset(
                s.system.name for s in unit.systems if not s.destroyed)
        return names

    def worth(self, unit: UnitView) -> float:
        key = (unit.id, unit.decoy)
        value = self._worths.get(key)
        if value is None:
            value = self._worths[key] = worth(unit)
        return value

    def hit_worth(self, target: UnitView) -> float:
        """What one damaging hit on ``target`` is worth: its share of the unit's worth
        (all of it when the hit destroys the unit), plus the chance of the critical the
        hit may cause (R6.9, read from the critical check) times a critical's harm.
        Remembered until anything happens."""
        key = (target.id, target.decoy)
        value = self._hit_worths.get(key)
        if value is None:
            value = self._hit_worths[key] = self._hit_worth(target)
        return value

    def _hit_worth(self, target: UnitView) -> float:
        if target.is_infantry:
            return self.worth(target) * 0.25
        left = target.remaining
        if left <= 0:
            return 0.0
        value = self.worth(target)
        if left <= 1:
            return value * left
        # The check after this hit, which leaves ``left - 1`` Hits.
        p = critical_check(left - 1, spaul="Spaul Liner" in self.systems(target)).chance()
        if target.crits_taken == 0 and target.skill("Damage Control"):
            p *= 0.3
        return value / left + p * CRIT_SHARE * value

    def target_value(self, target: UnitView, lam: float) -> float:
        """The worth of landing ``lam`` expected damaging hits on ``target`` this turn
        (counted as a Poisson number of hits): the chance of destroying it, half the worth
        of the damage short of that (it brings a later kill nearer), and the criticals the
        hits may cause."""
        if target.is_infantry:
            return self.worth(target) * 0.25 * min(lam, 4.0)
        if lam <= 0:
            return 0.0
        left = max(target.remaining, 1)
        value = self.worth(target)
        term = exp(-lam)
        below = 0.0  # P(H < left)
        partial = 0.0  # E[H; H < left]
        crits = 0.0
        spaul = "Spaul Liner" in self.systems(target)
        for i in range(left):
            below += term
            partial += i * term
            term *= lam / (i + 1)
        tail = 1.0 - below  # P(H >= left): destroyed
        at_least = 1.0
        term = exp(-lam)
        for j in range(1, left):
            at_least -= term  # P(H >= j)
            term *= lam / j
            crits += at_least * critical_check(left - j, spaul=spaul).chance()
        if target.crits_taken == 0 and target.skill("Damage Control"):
            crits *= 0.3
        return value * (tail + 0.5 * partial / left + CRIT_SHARE * crits)

    def rating(self, battle: SideView, unit: UnitView) -> int:
        return unit.heat_rating(self._heat_of_zone.get(unit.zone or 5, 0) > 0)

    # ---- expected values ---------------------------------------------------------------

    def to_hit(self, battle: SideView, unit: UnitView | None, weapon: Weapon, target: UnitView,
               band: Band, single: bool, skill: bool, doubled: bool | None = None,
               gunnery: bool = False) -> ToHit | None:
        """The to-hit roll of one shot as the engine describes it (R6.6, gathered by
        ``meks.engine.inputs`` from what the side sees); ``skill``: whether the family skill
        counts (the bot plans which attack uses it). The bot does not count on an enemy's
        Spoof. None when the weapon cannot fire at ``band``."""
        if self._next_turn:
            doubled, terrain = False, 0
        else:
            terrain = None
        return to_hit_of(battle, unit, weapon, target, band, single=single, gunnery=gunnery,
                         family_skill=skill and unit is not None, spoof=False,
                         doubled=doubled, terrain=terrain)

    def modifier(self, battle: SideView, unit: UnitView | None, weapon: Weapon, target: UnitView,
                 band: Band, single: bool, skill: bool,
                 doubled: bool | None = None) -> int:
        """The to-hit modifier of one shot, as the engine adds it up (R6.6),
        without using up any once-a-turn skill."""
        check = self.to_hit(battle, unit, weapon, target, band, single, skill, doubled)
        return 0 if check is None else check.modifier

    def shot(self, battle: SideView, unit: UnitView | None, weapon: Weapon, target: UnitView,
             band: Band,
             single: bool = True, skill: bool = False, extra: int = 0,
             doubled: bool | None = None) -> float:
        """Expected damaging hits (kills, against infantry) of one firing of ``weapon``
        (``extra``: -2 for a Gunnery second shot)."""
        if target.is_infantry:
            return self.kills(battle, weapon, target, band)
        if weapon.is_small:
            return 0.0
        check = self.to_hit(battle, unit, weapon, target, band, single, skill, doubled,
                            extra != 0)
        if check is None:
            return 0.0
        return check.dice * check.chance() * self.save_fails(target, weapon)

    def save_fails(self, target: UnitView, weapon: Weapon) -> float:
        """The chance that ``target`` fails its armor save against one hit of ``weapon``
        (R6.8), remembered until anything happens."""
        key = ((target.id, target.decoy), weapon.name)
        fail = self._fails.get(key)
        if fail is None:
            fail = self._fails[key] = armor_save(target.armor, weapon,
                                                 self.systems(target).__contains__).chance()
        return fail

    def kills(self, battle: SideView, weapon: Weapon, target: UnitView, band: Band) -> float:
        """Expected kills against infantry (R6.11)."""
        if weapon.is_small:
            if band is not Band.SHORT:
                return 0.0
        elif need_at(weapon, band) is None:
            return 0.0
        check = kills_roll(weapon, self.terrain(battle, target.zone or 5))
        return float(check.expected(ONE_FLOAT))
