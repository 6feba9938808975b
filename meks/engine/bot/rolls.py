"""The odds of a movement roll (R6.2) as the bot reads them: each result's chance, and who
wins the next roll in a zone (``contest``), read from the roll the engine describes
(``meks.game.rules.MovementRoll``) and remembered: they depend on the dice alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from meks.game.rules import ONE_FLOAT, MovementRoll
from meks.game.rules import contest as compare_rolls

_ROLLS: dict[tuple[int, int], dict[int, float]] = {}


def roll_distribution(dice: int, modifier: int) -> dict[int, float]:
    """The results of a movement roll of ``dice`` dice plus ``modifier`` (never below 0)
    and their chances, remembered."""
    known = _ROLLS.get((dice, modifier))
    if known is None:
        known = _ROLLS[(dice, modifier)] = MovementRoll(dice, [(modifier, "")]).distribution(
            ONE_FLOAT)
    return known


def best_roll(units: Sequence[tuple[int, int, float]]) -> dict[int, float]:
    """A side's movement result (R6.2: its best unit's roll) and its chances. Each unit is
    (dice, modifier, chance it acts); a side with no one rolling rolls 0."""
    hi = 0
    dists = []
    for dice, mod, acts in units:
        dist = {v: p * acts for v, p in roll_distribution(dice, mod).items()}
        dist[0] = dist.get(0, 0.0) + (1 - acts)
        dists.append(dist)
        hi = max(hi, max(dist))
    out: dict[int, float] = {}
    prev = 0.0
    for v in range(hi + 1):
        c = 1.0
        for dist in dists:
            c *= sum(p for t, p in dist.items() if t <= v)
        out[v] = c - prev
        prev = c
    return out if dists else {0: 1.0}


def contest(mine: Sequence[tuple[int, int, float]],
            theirs: Sequence[tuple[int, int, float]]) -> tuple[float, float]:
    """Chances that our side's best movement roll beats theirs, and that they tie (each
    side's units as ``best_roll`` takes them)."""
    odds = compare_rolls(best_roll(mine), best_roll(theirs), ONE_FLOAT)
    return (odds.get((0, False), 0.0) + odds.get((0, True), 0.0),
            odds.get((-1, False), 0.0))


# ``Judge.contest``'s odds, for every battle (up to ``CONTESTS_KEPT`` of them at a time).
_CONTESTS: dict[tuple[tuple[tuple[int, int, float], ...], ...], tuple[float, float]] = {}
CONTESTS_KEPT = 20_000


def remembered_contest(mine: Sequence[tuple[int, int, float]],
                       theirs: Sequence[tuple[int, int, float]]) -> tuple[float, float]:
    """``contest``, remembered (the odds of the same rolls are the same in any battle)."""
    key = (tuple(mine), tuple(theirs))
    known = _CONTESTS.get(key)
    if known is None:
        if len(_CONTESTS) >= CONTESTS_KEPT:
            _CONTESTS.clear()
        known = _CONTESTS[key] = contest(mine, theirs)
    return known

