"""Log digests of a varied set of battles, to compare two builds of the engine.

Every scenario of the rules, with the bot's normal muster on both sides, pilots of every
level holding one skill each, support rolled for each side, and the bot against the baseline
on both sides of the table. Run as a script it prints the digests as JSON, so that a second
interpreter (the compiled engine, say) can be compared with this one:

    python -m tests.battle_digests [BATTLES_PER_SCENARIO]
"""

from __future__ import annotations

import json
import sys

from campaigns.files.scenarios import get_scenario
from meks.engine.bot.choices import muster
from meks.engine.bot.policy import Bot
from meks.engine.controllers import Baseline, Controller
from meks.engine.core import Battle
from meks.engine.log import digest
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import Catalog, load_catalog
from meks.game.dice import Dice
from meks.game.scenario import Scenario
from meks.game.support import RICH_UNCLE, roll_support
from meks.game.vocabulary import Side

SCENARIOS = ("opening-shots", "at-the-hot-gates", "buying-us-some-time", "through-the-breach",
             "head-to-head", "citadel")
LEVELS = ("Green", "Regular", "Veteran", "Elite")
# Skills that need no choice made when they are taken.
SKILLS = ("Accuracy", "Guidance", "Steady Hand", "Agility", "Maneuver", "Tactics",
          "Pinpoint Attack", "Gunnery", "Damage Control", "Ice Man", "Spoof", "Quick Draw",
          "Sharpshooter", "Hawkeye")


def force(scenario: Scenario, side: Side, seed: int, catalog: Catalog) -> ForceSpec:
    rules = scenario.side(side)
    designs = muster(rules.budget, rules.max_size, rules.composition, catalog)
    units = []
    for i, design in enumerate(designs):
        k = seed + i + (0 if side is Side.ATTACKER else 7)
        pilot = PilotSpec(f"{side.value} pilot {i + 1}", LEVELS[k % len(LEVELS)],
                          (SKILLS[k % len(SKILLS)],))
        units.append(UnitSpec(f"{side.value} {design.name} {i + 1}", design, pilot,
                              points=design.price or 0))
    dice = Dice.from_seed(10_000 + 2 * seed + (0 if side is Side.ATTACKER else 1))
    support = []
    for _ in range(rules.support_rolls):
        result = roll_support(dice, catalog)
        if result.entry.name != RICH_UNCLE:
            support.append(result.entry.name)
    return ForceSpec(tuple(units), tuple(support), side.value)


def digests(per_scenario: int) -> list[str]:
    """One digest per battle: each scenario, seeds 0 to ``per_scenario - 1``; the bot
    attacks on even seeds and defends on odd ones."""
    catalog = load_catalog()
    out = []
    for scenario_id in SCENARIOS:
        scenario = get_scenario(scenario_id)
        for seed in range(per_scenario):
            bot_side = Side.ATTACKER if seed % 2 == 0 else Side.DEFENDER
            controllers: dict[Side, Controller] = {bot_side: Bot(),
                                                   bot_side.enemy: Baseline()}
            forces = {side: force(scenario, side, seed, catalog) for side in Side}
            battle = Battle(scenario, forces, Dice.from_seed(seed), controllers, catalog)
            battle.run()
            out.append(digest(battle.log))
    return out


if __name__ == "__main__":
    print(json.dumps(digests(int(sys.argv[1]) if len(sys.argv) > 1 else 10)))
