"""Exact odds of a single-zone duel between two Meks under the baseline policy.

Both Meks stand in one zone from turn 1, engaged at Long range; the last Mek standing wins,
and it is a draw when both are destroyed in the same exchange or when the turn limit ends.
Both sides play the engine's ``Baseline`` controller: close toward the band all its ranged
weapons reach (two bands when the roll more than doubles the other's and that does not
overshoot), never open, never break contact, never jump, and fire the weapons, in order,
that keep it within its heat rating.

The duel is an absorbing Markov chain, one step a round of zone combat (R5.2): its states and
transitions are ``meks.analysis.duel_chain`` (``DuelChain``, which also walks the chain state
by state, in exact fractions when asked); ``meks.analysis.duel_arrays`` solves the same chain
with matrices, many times faster. ``exact_duel`` builds the chain for two stock Meks and
solves it: floats from the matrices by default, or exact ``Fraction`` values with
``exact=True`` (refused for the larger Meks, whose pairs of states would take too long).

``engine_duel`` fights the same duel with the engine itself (Monte Carlo), to compare.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from meks.analysis.duel_arrays import ArrayChain
from meks.analysis.duel_chain import DuelChain, DuelOdds, MekModel, MekState
from meks.game.catalog import Catalog, load_catalog
from meks.game.criticals import CRITICAL_TABLE
from meks.game.errors import MeksError
from meks.game.shots import heat_rating
from meks.game.vocabulary import COMBAT_ROUNDS

TURN_LIMIT = 12
# Fractions are worked out state by state, in whole numbers, following one state of each group
# the duel cannot tell apart (``ArrayChain.lumps``): from about 0.1 ms for each pair of groups
# of start states (the Light and Medium pairs) to over 1 ms (DEMON v WARTHOG, 6,600 pairs,
# about 8 s) on a quiet 2-core machine, three rounds a turn. Past this many pairs they would
# take longer still (DRAKEN v DRAKEN, 10,609 pairs), so they are refused.
FRACTION_STATES = 8_000

# What the exact model does not cover (stock Meks carry none of them).
UNSUPPORTED_SYSTEMS = ("Masking & Insulation", "Data Link")


class DuelError(MeksError):
    """A duel the exact model cannot compute as asked."""


@dataclass(frozen=True)
class MonteCarlo:
    """Counts of the engine's duels: first Mek wins, second wins, draws."""

    a: int
    b: int
    draw: int

    @property
    def runs(self) -> int:
        return self.a + self.b + self.draw

    def rates(self) -> dict[str, float]:
        n = self.runs or 1
        return {"a": self.a / n, "b": self.b / n, "draw": self.draw / n}

    def standard_errors(self) -> dict[str, float]:
        """The standard error of each rate (from the observed rate)."""
        n = self.runs or 1
        return {k: math.sqrt(p * (1 - p) / n) for k, p in self.rates().items()}


def mek_model(design: str, level: str = "Regular", terrain: str = "Plains",
              catalog: Catalog | None = None) -> MekModel:
    """The fixed facts of a Mek of ``design`` with a pilot of ``level`` in ``terrain``."""
    cat = catalog or load_catalog()
    d = cat.design(design)
    chassis = cat.for_size(d.size)
    pilot = cat.level(level)
    ground = cat.terrain_named(terrain)
    systems = [cat.system(s) for s in d.systems]
    for s in systems:
        if s.name in UNSUPPORTED_SYSTEMS:
            raise DuelError(f"The exact duel does not model {s.name} ({d.name}).")
    for w in d.weapons:
        cat.weapon(w)
    return MekModel(
        name=d.name, max_hits=chassis.hits, armor=chassis.armor,
        move_dice=chassis.move.dice, move_bonus=chassis.move.bonus, terrain_move=ground.move,
        level_move=pilot.move,
        base_heat=heat_rating(chassis.heat, moors=ground.heat > 0), to_hit=pilot.to_hit,
        weapons=tuple(cat.weapon(w).name for w in d.weapons),
        systems=tuple(s.name for s in systems if CRITICAL_TABLE.losable(s)),
        armor_systems=frozenset(s.name for s in systems if s.category.value == "armor"),
    )


def exact_duel(a: str, b: str, terrain: str = "Plains",
               pilots: Sequence[str] = ("Regular", "Regular"), exact: bool = False,
               turn_limit: int = TURN_LIMIT, catalog: Catalog | None = None,
               reference: bool = False, rounds: int = COMBAT_ROUNDS) -> DuelOdds:
    """The exact chances of the duel of stock Mek ``a`` against stock Mek ``b`` (see the
    module docstring). ``exact``: Fractions instead of floats. ``reference``: floats, but
    from the state-by-state reference rather than the matrices (for tests). ``rounds``: the
    rounds a zone combat fights a turn (R5.2); the two Meks never part, so every turn of
    the duel is that many steps of the chain."""
    steps = turn_limit * rounds
    cat = catalog or load_catalog()
    if len(pilots) != 2:
        raise DuelError("Give two pilot levels, one for each Mek.")
    ground = cat.terrain_named(terrain)
    models = (mek_model(a, pilots[0], ground.name, cat), mek_model(b, pilots[1], ground.name,
                                                                   cat))
    duel = DuelChain(models[0], models[1], ground.to_hit, exact, cat)
    if exact:
        # counted first in floats, which is quicker, then lumped exactly
        rough = ArrayChain(DuelChain(models[0], models[1], ground.to_hit, False, cat),
                           build=False)
        starts = [max(rough.lumps(side)) + 1 for side in (0, 1)]
        if starts[0] * starts[1] > FRACTION_STATES:
            raise DuelError(
                f"Exact fractions for {models[0].name} against {models[1].name} would "
                f"take too long ({starts[0] * starts[1]:,} pairs of states to follow; "
                f"the limit is {FRACTION_STATES:,}); ask for decimals instead, which are "
                "exact to float precision.")
        duel.stand_in = stand_ins(ArrayChain(duel, build=False))
    if exact or reference:
        return duel.solve(steps)
    return DuelOdds(*ArrayChain(duel, merge=True).solve(steps))


def stand_ins(chain: ArrayChain) -> tuple[dict[MekState, MekState], dict[MekState, MekState]]:
    """For each Mek of ``chain``, each start state's stand-in: the first state of its
    group of states the duel cannot tell apart (``ArrayChain.lumps``)."""
    out = []
    for side in (0, 1):
        states = chain.sides[side].start
        first: dict[int, MekState] = {}
        out.append({st: first.setdefault(g, st)
                    for st, g in zip(states, chain.lumps(side), strict=True)})
    return out[0], out[1]


# ---- the same duel with the engine ----------------------------------------------------------

def duel_scenario(terrain: str = "Plains", turn_limit: int = TURN_LIMIT,
                  rounds: int = COMBAT_ROUNDS) -> Any:
    """Both sides set up in zone 5; the last side with a Mek standing wins (``rounds``: a
    zone combat's cap on rounds, R5.2)."""
    import dataclasses

    from meks.game.scenario import duel

    scenario = duel(terrain, turn_limit=turn_limit)
    if rounds == scenario.house_rules.combat_rounds:
        return scenario
    return dataclasses.replace(scenario, house_rules=dataclasses.replace(
        scenario.house_rules, combat_rounds=rounds))


def engine_duel(a: str, b: str, terrain: str = "Plains",
                pilots: Sequence[str] = ("Regular", "Regular"), runs: int = 2000,
                seed: int = 0, seeds: Iterable[int] | None = None,
                progress: Callable[[int], None] | None = None) -> MonteCarlo:
    """Fight the duel ``runs`` times with the engine and the baseline on both sides; run
    ``i`` rolls ``Dice.from_seed(seed + i)`` (or the given ``seeds``). ``a`` is the attacker."""
    from meks.engine.controllers import Baseline
    from meks.engine.core import Battle
    from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
    from meks.game.dice import Dice
    from meks.game.vocabulary import Side

    cat = load_catalog()
    ground = cat.terrain_named(terrain)
    scenario = duel_scenario(ground.name)
    if len(pilots) != 2:
        raise DuelError("Give two pilot levels, one for each Mek.")
    forces = {}
    for side, name, level in ((Side.ATTACKER, a, pilots[0]), (Side.DEFENDER, b, pilots[1])):
        design = cat.design(name)
        level = cat.level(level).level
        forces[side] = ForceSpec((UnitSpec(design.name, design, PilotSpec(
            f"{design.name} pilot", level), points=design.price or 0),))
    counts = {Side.ATTACKER: 0, Side.DEFENDER: 0, None: 0}
    for run_seed in (seeds if seeds is not None else range(seed, seed + runs)):
        battle = Battle(scenario, forces, Dice.from_seed(run_seed),
                        {Side.ATTACKER: Baseline(), Side.DEFENDER: Baseline()}, cat)
        counts[battle.run().winner] += 1
        if progress is not None:
            progress(1)
    return MonteCarlo(counts[Side.ATTACKER], counts[Side.DEFENDER], counts[None])


def stock_designs(catalog: Catalog | None = None) -> list[str]:
    """The stock Meks' names, in catalog order."""
    return [d.name for d in (catalog or load_catalog()).designs]


__all__ = ["DuelError", "DuelOdds", "MekModel", "MonteCarlo", "duel_scenario", "engine_duel",
           "exact_duel", "mek_model", "stock_designs"]
