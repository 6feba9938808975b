"""The work of the odds' worker processes: each fights a chunk of battles and returns what it
counted. A module of its own that never imports the store (nor the command line), so that a
worker process starts quickly: ``campaigns.odds`` hands these functions to its processes."""

from __future__ import annotations

from collections.abc import Callable

from campaigns.fighters import controller, force_from_data
from campaigns.files.battle_records import StoredForce
from campaigns.files.records import Json
from campaigns.files.scenario_model import stored_scenario
from meks.analysis.odds import Tally, duel_force, duel_scenario, simulate, winners
from meks.engine.controllers import Controller
from meks.game.catalog import load_catalog
from meks.game.vocabulary import Side

# A chunk of battles for a worker process: the scenario's stored copy (``scenario_data``, read
# back by ``stored_scenario``), each side's force by side, the seed, the first run and the one
# after the last, and the controller commanding both sides; ``chunk_winners`` first takes
# the number of the variant the forces are.
OddsJob = tuple[Json, dict[str, StoredForce], int, int, int, str]
WinnersJob = tuple[int, Json, dict[str, StoredForce], int, int, int, str]
# A chunk of ``meks odds duel``'s engine duels: the two Meks, the terrain, the two pilots'
# levels, the seed, the first run and the one after the last.
EngineDuelJob = tuple[str, str, str, tuple[str, str], int, int, int]


def controllers(name: str) -> Callable[[], dict[Side, Controller]]:
    def make() -> dict[Side, Controller]:
        return {side: controller(name) for side in Side}
    return make


def chunk_odds(job: OddsJob) -> Tally:
    stored, forces_data, seed, start, stop, name = job
    scenario = stored_scenario(stored)
    forces = {side: force_from_data(forces_data[side.value]) for side in Side}
    return simulate(scenario, forces, seed, range(start, stop), controllers(name),
                    load_catalog())


def chunk_duels(job: tuple[str, str, str, int, int, int, str]
               ) -> tuple[str, str, str, Tally]:
    terrain, first, second, seed, start, stop, name = job
    catalog = load_catalog()
    forces = {Side.ATTACKER: duel_force(catalog.design(first)),
              Side.DEFENDER: duel_force(catalog.design(second))}
    return terrain, first, second, simulate(duel_scenario(terrain), forces, seed,
                                            range(start, stop), controllers(name),
                                            catalog)


def chunk_engine_duels(job: EngineDuelJob) -> tuple[int, int, int]:
    """Runs ``start`` to ``stop`` of the engine's duel of ``meks odds duel`` as
    ``meks.analysis.duel.engine_duel`` fights them (run i rolls the dice of seed + i): the
    first Mek's wins, the second's and the draws."""
    from meks.analysis.duel import engine_duel  # its matrices' libraries: only for duels

    first, second, terrain, levels, seed, start, stop = job
    fought = engine_duel(first, second, terrain, levels, seeds=range(seed + start, seed + stop))
    return fought.a, fought.b, fought.draw


def chunk_winners(job: WinnersJob) -> tuple[int, int, list[str | None]]:
    variant, stored, forces_data, seed, start, stop, name = job
    scenario = stored_scenario(stored)
    forces = {side: force_from_data(forces_data[side.value]) for side in Side}
    won = winners(scenario, forces, seed, range(start, stop), controllers(name),
                  load_catalog())
    return variant, start, [None if w is None else w.value for w in won]


__all__ = ["EngineDuelJob", "chunk_duels", "chunk_engine_duels", "chunk_odds", "chunk_winners",
           "controllers"]
