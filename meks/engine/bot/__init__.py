"""The bot: a controller that plays to win, and the between-games choices it makes.

Each part does one thing:

- ``evaluation``: the expected values of attacks and threats, worked out from the same
  numbers the engine rolls against (to-hit numbers, dice, re-rolls, armor saves, critical
  chances, heat);
- ``intent``: what the victory conditions ask of each side, and who gains by waiting;
- ``tasks``: each unit's task this turn;
- ``movement``: each free unit's order in a movement phase;
- ``policy``: ``Bot``, the controller that answers every decision from the parts above;
- ``choices``: between games, ``muster`` (stock designs for a scenario at a ``Difficulty``)
  and ``choose_skill`` (a pilot's next skill by the Mek it drives).

``docs/bot.md`` explains the reasoning decision by decision.
"""

from meks.engine.bot.choices import (
    DIFFICULTIES,
    Difficulty,
    choose_skill,
    design_profile,
    force_strength,
    muster,
)
from meks.engine.bot.intent import Intent, read_intent
from meks.engine.bot.policy import Bot
from meks.engine.bot.tasks import Task

__all__ = [
    "DIFFICULTIES",
    "Bot",
    "Difficulty",
    "Intent",
    "Task",
    "choose_skill",
    "design_profile",
    "force_strength",
    "muster",
    "read_intent",
]
