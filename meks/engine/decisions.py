"""The words the engine and the controllers share: the range bands in order, the choices of a
movement roll's winner, a side's choices at the end of a turn (withdrawal), and the error a
battle raises when it cannot go on as asked.

Controllers import these from here, never from ``meks.engine.core``: a controller sees a
battle only through its side's ``meks.engine.view.SideView``.
"""

from __future__ import annotations

import enum

from meks.game.catalog import Band
from meks.game.errors import MeksError

BANDS = (Band.SHORT, Band.MEDIUM, Band.LONG)


class BattleError(MeksError):
    """A battle that cannot be set up or played as asked (a controller's answer that is not
    one of the decision's legal options among them)."""


class RangeChoice(enum.Enum):
    """What the winner of a movement roll does with its margin (R6.3)."""

    STAY = "stay"
    CLOSE = "close one band"
    OPEN = "open one band"
    CLOSE_TWO = "close two bands"
    OPEN_TWO = "open two bands"
    BREAK = "break contact"
    DOUBLE = "double terrain against us"


# R6.3: how many bands each choice moves the range (closing is toward Short).
BAND_STEP = {RangeChoice.CLOSE: -1, RangeChoice.OPEN: 1, RangeChoice.CLOSE_TWO: -2,
             RangeChoice.OPEN_TWO: 2, RangeChoice.STAY: 0, RangeChoice.DOUBLE: 0,
             RangeChoice.BREAK: 0}


def band_after(band: Band, choice: RangeChoice) -> Band:
    """R6.3: the range band once a movement roll's winner has made ``choice`` at ``band``
    (breaking contact and doubling the terrain leave it where it is)."""
    return BANDS[BANDS.index(band) + BAND_STEP[choice]]


class Retreat(enum.Enum):
    """What a side may do at the end of a turn under the house rule withdrawal (R6.13)."""

    FIGHT = "fight on"
    WITHDRAW = "withdraw"
    OVERRUN = "overrun"


# The first engine revision to keep each side's set-up from the enemy until what hides is
# placed, to deal Battle Damage after that, and to roll a shot at a decoy at the Mek it
# passes for (R8.1; docs/rules.md, "Engine revisions").
FOG = 9

# The first engine revision to hand a controller the enemy's units under the side's own
# labels (C1, C2 ... in the order it met them) and in that order, never under the engine's
# ids or in the battle's order, which count and place units the side has not seen (R8.1;
# docs/rules.md, "Engine revisions").
LABELS = 10

# R6.13, our decisions: the Hits each unit of a side that withdraws or overruns takes (never
# its last one), and how many times the enemy's Hits left a side's must be to overrun.
RETREAT_HITS = 3
OVERRUN_RATIO = 3


__all__ = ["BANDS", "BAND_STEP", "FOG", "LABELS", "OVERRUN_RATIO", "RETREAT_HITS", "BattleError",
           "RangeChoice", "Retreat", "band_after"]
