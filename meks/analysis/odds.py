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

from meks.engine.controllers import Controller
from meks.engine.core import Battle
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import Catalog, Design
from meks.game.dice import Dice
from meks.game.scenario import Scenario, duel
from meks.game.vocabulary import Side

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
    pilots: dict[str, str] = field(default_factory=dict)  # the pilot of each unit with one

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
        self.pilots.update(other.pilots)


def wilson(successes: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if runs == 0:
        return 0.0, 1.0
    p = successes / runs
    denominator = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator
    # the interval holds p; at 0 or every run that is its exact end (not a rounding of it)
    low = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes == runs else max(p, min(1.0, centre + half))
    return low, high


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
            if unit.pilot is not None:
                tally.pilots.setdefault(unit.id, unit.pilot.name)
            standing = unit.destroyed_turn is None
            tally.survived[unit.id] = tally.survived.get(unit.id, 0) + standing
            tally.kills[unit.id] = tally.kills.get(unit.id, 0) + unit.mek_kills
    return tally


def sub_seed(seed: int, *parts: object) -> int:
    """A seed of its own for one part of a larger odds question (one pairing of a ladder),
    derived from the odds' seed and the part's names."""
    text = ":".join(str(p) for p in (seed, *parts))
    h = hashlib.sha256(f"odds-part:{text}".encode()).digest()
    return int.from_bytes(h[:8], "big") >> 1


def winners(scenario: Scenario, forces: dict[Side, ForceSpec], seed: int,
            runs: Iterable[int], controllers: Callable[[], dict[Side, Controller]],
            catalog: Catalog) -> list[Side | None]:
    """Fight the battle once for each run number in ``runs``: each run's winner (None for a
    draw), in order. The same seed and run number give the same dice whatever the forces, so
    two forces compared run by run meet the same luck (common random numbers)."""
    out: list[Side | None] = []
    for run in runs:
        battle = Battle(scenario, forces, Dice.from_seed(run_seed(seed, run)), controllers(),
                        catalog)
        out.append(battle.run().winner)
    return out


# ---- duels: two Meks alone in one zone -----------------------------------------------------

DUEL_TURNS = 12


def duel_scenario(terrain: str = "Plains", zone: int = 5,
                  turn_limit: int = DUEL_TURNS) -> Scenario:
    """A duel: both sides set up in one zone of ``terrain`` (every zone is that terrain), and
    the last side with a Mek standing wins; after ``turn_limit`` turns it is a draw."""
    return duel(terrain, zone, turn_limit, f"Duel on {terrain}")


def duel_force(design: Design, level: str = "Regular", skills: tuple[str, ...] = ()
               ) -> ForceSpec:
    """A force of one stock Mek and its pilot."""
    return ForceSpec((UnitSpec(design.name, design,
                               PilotSpec(f"{design.name} pilot", level, skills),
                               points=design.price or 0),), (), design.name)


def paired_difference(plus: int, minus: int, runs: int, z: float = Z95
                      ) -> tuple[float, float, float]:
    """The mean of a run-by-run difference of two outcomes (each run: +1 when only the
    variant won, -1 when only the baseline won, 0 otherwise) and its normal-approximation
    interval (95% by default): (difference, low, high)."""
    if runs == 0:
        return 0.0, -1.0, 1.0
    mean = (plus - minus) / runs
    if runs == 1:
        return mean, -1.0, 1.0
    variance = ((plus + minus) / runs - mean * mean) * runs / (runs - 1)
    half = z * math.sqrt(max(variance, 0.0) / runs)
    return mean, max(-1.0, mean - half), min(1.0, mean + half)
