"""``meks odds``: a battle's chances, by fighting it many times (Monte Carlo), on one or
several processes. The answer depends only on the seed and the number of runs."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

from sqlmodel import Session

from campaigns.battles import CONTROLLERS, controller, force_from_data, force_to_data, participant
from campaigns.scenarios import get_scenario
from meks.catalog import load_catalog
from meks.engine.controllers import Controller
from meks.odds import Tally, simulate, wilson
from meks.scenario import Scenario, Side

CHUNK = 50


def _controllers(name: str) -> Callable[[], dict[Side, Controller]]:
    def make() -> dict[Side, Controller]:
        return {side: CONTROLLERS[name]() for side in Side}
    return make


def _work(job: tuple[dict[str, Any], dict[str, Any], int, int, int, str]) -> Tally:
    scenario_data, forces_data, seed, start, stop, name = job
    scenario = Scenario.model_validate(scenario_data)
    forces = {side: force_from_data(forces_data[side.value]) for side in Side}
    return simulate(scenario, forces, seed, range(start, stop), _controllers(name),
                    load_catalog())


def odds(session: Session | None, scenario_ref: str, attacker: str, defender: str, *,
         runs: int = 1000, jobs: int = 1, seed: int = 0, controller_name: str = "baseline",
         progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Fight the battle ``runs`` times and report the chances (see ``meks odds --help``)."""
    controller(controller_name)  # an unknown name is refused before any work
    catalog = load_catalog()
    scenario = get_scenario(scenario_ref)
    sides = {Side.ATTACKER: participant(session, attacker, Side.ATTACKER, scenario, catalog),
             Side.DEFENDER: participant(session, defender, Side.DEFENDER, scenario, catalog)}
    scenario_data = scenario.model_dump(mode="json", by_alias=True)
    forces_data = {s.value: force_to_data(p.force) for s, p in sides.items()}
    chunks = [(scenario_data, forces_data, seed, start, min(start + CHUNK, runs),
               controller_name) for start in range(0, runs, CHUNK)]
    total = Tally()
    if jobs <= 1:
        results = map(_work, chunks)
        for tally in results:
            total.add(tally)
            if progress:
                progress(tally.runs)
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for tally in pool.imap_unordered(_work, chunks):
                total.add(tally)
                if progress:
                    progress(tally.runs)
    return report(total, scenario, sides, seed, controller_name)


def report(total: Tally, scenario: Scenario, sides: dict[Side, Any], seed: int,
           controller_name: str) -> dict[str, Any]:
    def share(count: int) -> dict[str, float]:
        low, high = wilson(count, total.runs)
        return {"p": count / total.runs if total.runs else 0.0, "low": low, "high": high,
                "count": count}

    units = []
    for uid in sorted(total.names, key=lambda u: (u[0], int(u[1:]) if u[1:].isdigit()
                                                   else 0, u)):
        units.append({"id": uid, "name": total.names[uid],
                      "side": "attacker" if uid.startswith("A") else "defender",
                      "survival": total.survived.get(uid, 0) / total.runs,
                      "expected_kills": total.kills.get(uid, 0) / total.runs})
    return {
        "scenario": scenario.id, "runs": total.runs, "seed": seed,
        "controller": controller_name,
        "attacker": {"name": _name(sides[Side.ATTACKER]), **share(total.attacker)},
        "defender": {"name": _name(sides[Side.DEFENDER]), **share(total.defender)},
        "draw": share(total.draws),
        "expected_turns": total.turns / total.runs if total.runs else 0.0,
        "units": units,
    }


def _name(part: Any) -> str:
    return str(part.company.name if part.company else part.force.name)
