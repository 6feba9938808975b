"""Odds by simulation: fight a battle many times and count what happens.

Every run's dice come from its own seed, derived from the odds' seed and the run's number,
and runs are tallied in whole numbers; so a tally depends only on the seed and the number of
runs, never on how the runs were split between processes.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from meks.catalog import Catalog
from meks.dice import Dice
from meks.engine.controllers import Controller
from meks.engine.core import Battle
from meks.engine.units import ForceSpec
from meks.scenario import Scenario, Side

Z95 = 1.959963984540054


def run_seed(seed: int, run: int) -> int:
    """The dice seed of run number ``run`` of odds seeded with ``seed``."""
    h = hashlib.sha256(f"odds:{seed}:{run}".encode()).digest()
    return int.from_bytes(h[:8], "big") >> 1


@dataclass
class Tally:
    """What ``runs`` battles came to: wins by side, draws, turns, and per unit (by id) how
    often it survived and how many Meks it killed."""

    runs: int = 0
    attacker: int = 0
    defender: int = 0
    draws: int = 0
    turns: int = 0
    survived: dict[str, int] = field(default_factory=dict)
    kills: dict[str, int] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.runs += other.runs
        self.attacker += other.attacker
        self.defender += other.defender
        self.draws += other.draws
        self.turns += other.turns
        for key, value in other.survived.items():
            self.survived[key] = self.survived.get(key, 0) + value
        for key, value in other.kills.items():
            self.kills[key] = self.kills.get(key, 0) + value
        self.names.update(other.names)


def wilson(successes: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if runs == 0:
        return 0.0, 1.0
    p = successes / runs
    denominator = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def simulate(scenario: Scenario, forces: dict[Side, ForceSpec], seed: int,
             runs: Iterable[int], controllers: Callable[[], dict[Side, Controller]],
             catalog: Catalog) -> Tally:
    """Fight the battle once for each run number in ``runs`` and tally the results."""
    tally = Tally()
    for run in runs:
        battle = Battle(scenario, forces, Dice.from_seed(run_seed(seed, run)), controllers(),
                        catalog)
        result = battle.run()
        tally.runs += 1
        tally.turns += result.turns
        if result.winner is Side.ATTACKER:
            tally.attacker += 1
        elif result.winner is Side.DEFENDER:
            tally.defender += 1
        else:
            tally.draws += 1
        for unit in battle.units:
            if unit.decoy or (unit.pilot is None and not unit.vehicle):
                continue
            tally.names.setdefault(unit.id, unit.name)
            standing = unit.destroyed_turn is None
            tally.survived[unit.id] = tally.survived.get(unit.id, 0) + standing
            tally.kills[unit.id] = tally.kills.get(unit.id, 0) + unit.mek_kills
    return tally
