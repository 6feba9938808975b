"""``meks odds``: a battle's chances, by fighting it many times (Monte Carlo), on one or
several processes. The answer depends only on the seed and the number of runs."""

from __future__ import annotations

import dataclasses
import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlmodel import Session

from campaigns.battles import (
    DEFAULT_CONTROLLER,
    controller,
    force_to_data,
    is_force_file,
    participant,
)
from campaigns.company import Refused, find_pilot, get_company
from campaigns.errors import NotFound
from campaigns.files.odds_records import (
    BattleOdds,
    Chance,
    Ladder,
    LadderMek,
    Score,
    SkillGain,
    SkillGains,
    UnitOdds,
)
from campaigns.files.scenario_model import scenario_data
from campaigns.files.scenarios import get_scenario
from campaigns.odds_work import (
    EngineDuelJob,
    chunk_duels,
    chunk_engine_duels,
    chunk_odds,
    chunk_winners,
)
from meks.analysis.odds import (
    Tally,
    paired_difference,
    sub_seed,
    wilson,
)
from meks.engine.bot.choices import Difficulty, muster
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import Catalog, load_catalog
from meks.game.errors import MeksError, UsageError
from meks.game.pilots import available_skills, skill_label
from meks.game.scenario import Scenario
from meks.game.vocabulary import Side

CHUNK = 50
RUNS = {"bot": 400, "baseline": 1000}
"""``meks odds``'s default number of battles by controller: the bot is about four times
slower per battle than the baseline (``docs/odds.md``, 'How many battles')."""
SKILL_RUNS = {"bot": 200, "baseline": 1000}
"""``meks odds skill``'s default battles per variant (a pilot has up to 16 skills to try)."""


def default_runs(controller_name: str, skill: bool = False) -> int:
    """How many battles the odds fight by default with this controller."""
    controller(controller_name)  # an unknown name is refused first
    return (SKILL_RUNS if skill else RUNS)[controller_name]


def odds(session: Session | None, scenario_ref: str, attacker: str, defender: str, *,
         runs: int | None = None, jobs: int = 1, seed: int = 0,
         controller_name: str = DEFAULT_CONTROLLER,
         progress: Callable[[int], None] | None = None) -> BattleOdds:
    """Fight the battle ``runs`` times (by default as many as ``RUNS`` gives the
    controller) and report the chances (see ``meks odds --help``)."""
    runs = default_runs(controller_name) if runs is None else runs
    controller(controller_name)  # an unknown name is refused before any work
    catalog = load_catalog()
    scenario = get_scenario(scenario_ref)
    sides = {Side.ATTACKER: participant(session, attacker, Side.ATTACKER, scenario, catalog),
             Side.DEFENDER: participant(session, defender, Side.DEFENDER, scenario, catalog)}
    stored = scenario_data(scenario)
    forces_data = {s.value: force_to_data(p.force) for s, p in sides.items()}
    chunks = [(stored, forces_data, seed, start, min(start + CHUNK, runs),
               controller_name) for start in range(0, runs, CHUNK)]
    total = Tally()
    for tally in _spread(chunk_odds, chunks, jobs):
        total.add(tally)
        if progress:
            progress(tally.runs)
    return report(total, scenario, sides, seed, controller_name)


def engine_duels(a: str, b: str, terrain: str, levels: Sequence[str], *, runs: int,
                 seed: int = 0, jobs: int = 1, progress: Callable[[int], None] | None = None
                 ) -> tuple[int, int, int]:
    """The duel of ``meks odds duel`` fought ``runs`` times by the engine, run i rolling the
    dice of ``seed`` + i (``meks.analysis.duel.engine_duel``), in chunks spread over ``jobs``
    processes (the counts do not depend on how many): the first Mek's wins, the second's
    and the draws."""
    pilots = (levels[0], levels[1])
    chunks: list[EngineDuelJob] = [(a, b, terrain, pilots, seed, start,
                                    min(start + CHUNK, runs)) for start in range(0, runs, CHUNK)]
    total = [0, 0, 0]
    for counts in _spread(chunk_engine_duels, chunks, jobs):
        for i, count in enumerate(counts):
            total[i] += count
        if progress:
            progress(sum(counts))
    return total[0], total[1], total[2]


Job = TypeVar("Job")
Result = TypeVar("Result")


def _spread(work: Callable[[Job], Result], chunks: Sequence[Job], jobs: int
            ) -> Iterator[Result]:
    """Each chunk's result, worked on this process or on ``jobs`` processes (no more than
    there are chunks: a single chunk is worked here, without starting any), in whatever
    order they finish (callers add up whole numbers, so the order never matters)."""
    jobs = min(jobs, len(chunks))
    with _stopped_by_sigterm():
        if jobs <= 1:
            yield from map(work, chunks)
            return
        with multiprocessing.get_context("spawn").Pool(jobs, initializer=_quiet_worker) as pool:
            yield from pool.imap_unordered(work, chunks)


class Stopped(MeksError):
    """The run was asked to stop (SIGTERM) before it was done; nothing was stored."""

    exit_code = 128 + signal.SIGTERM  # as a shell reports a process ended by SIGTERM


@contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """While battles are fought, SIGTERM stops them as one sentence (``Stopped``) instead of
    ending the process on the spot: leaving the pool's block ends its workers first, so none
    is left writing to a parent that is gone."""
    def stop(_signum: int, _frame: object) -> None:
        raise Stopped("Stopped by a request to end (SIGTERM) before the battles were all "
                      "fought; nothing was stored.")

    try:
        before = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave the signal as it is
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _quiet_worker() -> None:
    """A worker process ends without a word: on SIGINT (Ctrl-C reaches every process of the
    terminal) it waits for the parent to end it, and whatever the pool's own machinery says
    when the parent is gone (a broken pipe) is not for the player: a failure in the work
    itself goes back to the parent, which says it."""
    import os
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process


def report(total: Tally, scenario: Scenario, sides: dict[Side, Any], seed: int,
           controller_name: str) -> BattleOdds:
    def share(count: int) -> Chance:
        low, high = wilson(count, total.runs)
        return {"p": count / total.runs if total.runs else 0.0, "low": low, "high": high,
                "count": count}

    units: list[UnitOdds] = []
    for uid in sorted(total.names, key=lambda u: (u[0], int(u[1:]) if u[1:].isdigit()
                                                   else 0, u)):
        units.append({"id": uid, "name": total.names[uid], "pilot": total.pilots.get(uid),
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


# ---- the ladder: every stock Mek against every other, alone in one zone --------------------

def ladder_terrains(names: Iterable[str] | None, catalog: Catalog | None = None) -> list[str]:
    """The terrains a ladder is fought on: the ones named (catalog spelling, each once), or
    every terrain of the catalog."""
    catalog = catalog or load_catalog()
    if not names:
        return [t.name for t in catalog.terrain]
    out: list[str] = []
    for name in names:
        terrain = catalog.terrain_named(name).name
        if terrain not in out:
            out.append(terrain)
    return out


LADDER_CONTROLLER = "baseline"
"""The ladder's default controller: the policy whose duels ``meks odds duel`` solves
exactly, and about ten times faster than the bot in a duel (a ladder fights 43,200)."""


def ladder(terrains: Iterable[str] | None = None, *, runs: int = 200, jobs: int = 1,
           seed: int = 0, progress: Callable[[int], None] | None = None,
           controller_name: str = LADDER_CONTROLLER) -> Ladder:
    """A round-robin of the stock Meks in duels (see ``meks odds ladder --help``): each pair
    of Meks fights ``runs`` duels on each terrain, the first Mek (in catalog order) the
    attacker in the first half (rounded up), the second in the rest, ``controller_name``
    commanding both."""
    controller(controller_name)
    if runs < 1:
        raise Refused("A ladder needs at least one duel per pairing (--runs 1 or more).")
    catalog = load_catalog()
    grounds = ladder_terrains(terrains, catalog)
    designs = [d.name for d in catalog.designs]
    chunks = []
    for terrain in grounds:
        for i, a in enumerate(designs):
            for b in designs[i + 1:]:
                for first, second, count in ((a, b, (runs + 1) // 2), (b, a, runs // 2)):
                    part = sub_seed(seed, "ladder", terrain, first, second)
                    chunks += [(terrain, first, second, part, start, min(start + CHUNK, count),
                                controller_name) for start in range(0, count, CHUNK)]
    record = {(name, terrain): [0, 0, 0] for name in designs for terrain in grounds}
    for terrain, first, second, tally in _spread(chunk_duels, chunks, jobs):
        record[first, terrain][0] += tally.attacker
        record[first, terrain][1] += tally.draws
        record[first, terrain][2] += tally.defender
        record[second, terrain][0] += tally.defender
        record[second, terrain][1] += tally.draws
        record[second, terrain][2] += tally.attacker
        if progress:
            progress(tally.runs)
    meks: list[LadderMek] = []
    for design in catalog.designs:
        price = design.price or 0
        per_terrain = {t: _score(*record[design.name, t]) for t in grounds}
        overall = _score(*(sum(record[design.name, t][k] for t in grounds) for k in range(3)))
        meks.append({"mek": design.name, "size": design.size.value, "price": price,
                     **overall,
                     "per_point": overall["win_rate"] / price if price else None,
                     "terrain": per_terrain})
    return {"runs_per_pairing": runs, "seed": seed, "terrains": grounds,
            "controller": controller_name, "pilots": "Regular", "turn_limit": 12,
            "draws": "half a win", "duels": len(grounds) * runs * (len(designs) - 1)
            * len(designs) // 2, "meks": meks}


def _score(wins: int, draws: int, losses: int) -> Score:
    duels = wins + draws + losses
    rate = (wins + draws / 2) / duels if duels else 0.0
    return {"duels": duels, "wins": wins, "draws": draws, "losses": losses, "win_rate": rate}


# ---- skill gains: what each skill a pilot could take is worth in one battle ----------------

def skill_pilot(ref: str, pilot: str | None) -> tuple[str | None, str | None]:
    """Who ``meks odds skill`` asks about: the company (None for a force file) and the
    pilot, from ``ref`` (a force file, or COMPANY:PILOT) and ``--pilot`` (a force file's
    pilot only). A ref of neither form, or --pilot with a company, is bad usage."""
    if is_force_file(ref):
        return None, pilot
    company, sep, who = ref.partition(":")
    if not sep or not company or not who:
        raise UsageError(f"{ref!r} is neither a force file nor COMPANY:PILOT (a company's "
                         "pilot by name or id, as in 'Hawks:Ada' or 'Hawks:4').")
    if pilot is not None:
        raise UsageError("--pilot picks a pilot in a force file; for a company, name the "
                         "pilot as COMPANY:PILOT.")
    return company, who


def company_pilot(session: Session, ref: str) -> tuple[str, str]:
    """COMPANY:PILOT read as the company's name and its pilot's (or the text after the colon,
    which may be a Mek's callsign). The pilot is named, as everywhere, by name or id. The
    text is cut at each colon in turn, so either name may hold colons: the first cut whose
    company has that pilot wins, else the first whose company exists."""
    cuts = [(ref[:i], ref[i + 1:]) for i, c in enumerate(ref) if c == ":"]
    found: tuple[str, str] | None = None
    missing: NotFound | None = None
    for company_ref, who in cuts:
        if not company_ref or not who:
            continue
        try:
            company = get_company(session, company_ref)
        except NotFound as exc:
            missing = missing or exc
            continue
        try:
            return company.name, find_pilot(session, company, who).name
        except NotFound:
            found = found or (company.name, who)
    if found is None:
        assert missing is not None  # skill_pilot has seen a COMPANY:PILOT
        raise missing
    return found


def skill_gains(session: Session | None, ref: str, scenario_ref: str, side: Side, *,
                against: str | None = None, pilot: str | None = None,
                runs: int | None = None,
                jobs: int = 1, seed: int = 0, controller_name: str = DEFAULT_CONTROLLER,
                progress: Callable[[int], None] | None = None,
                total: Callable[[int], None] | None = None) -> SkillGains:
    """The chance that ``side`` wins the scenario with its force as it is, and with each
    skill the chosen pilot could take added (see ``meks odds skill --help``). Every variant
    fights with the same run seeds, so the differences are measured on the same luck. By
    default each variant fights as many battles as ``SKILL_RUNS`` gives the controller."""
    runs = default_runs(controller_name, skill=True) if runs is None else runs
    controller(controller_name)
    if runs < 2:
        raise UsageError("Skill gains need at least two runs (--runs 2 or more).")
    catalog = load_catalog()
    scenario = get_scenario(scenario_ref)
    other = Side.DEFENDER if side is Side.ATTACKER else Side.ATTACKER
    company, who = skill_pilot(ref, pilot)
    if company is not None and session is not None:
        company, who = company_pilot(session, ref)
    mine = participant(session, ref if company is None else company, side, scenario, catalog)
    index = _pick_pilot(mine.force, who, ref)
    unit = mine.force.units[index]
    assert unit.pilot is not None
    if against is not None:
        theirs = participant(session, against, other, scenario, catalog).force
    else:
        theirs = bot_force(scenario, other, catalog)
    skills = available_skills(unit.pilot.skills, catalog)
    if not skills:
        raise Refused(f"{unit.pilot.name} already holds every skill.")
    size = unit.design.size if unit.design else None
    variants: list[ForceSpec] = [mine.force]
    for skill in skills:
        gained = dataclasses.replace(unit.pilot,
                                     skills=(*unit.pilot.skills, skill_label(skill, size)))
        units = list(mine.force.units)
        units[index] = dataclasses.replace(unit, pilot=gained)
        variants.append(dataclasses.replace(mine.force, units=tuple(units)))
    stored = scenario_data(scenario)
    theirs_data = force_to_data(theirs)
    chunks = []
    for k, variant in enumerate(variants):
        forces_data = {side.value: force_to_data(variant), other.value: theirs_data}
        chunks += [(k, stored, forces_data, seed, start, min(start + CHUNK, runs),
                    controller_name) for start in range(0, runs, CHUNK)]
    won = [bytearray(runs) for _ in variants]
    if total:
        total(runs * len(variants))
    for k, start, results in _spread(chunk_winners, chunks, jobs):
        won[k][start:start + len(results)] = bytes(r == side.value for r in results)
        if progress:
            progress(len(results))
    base = won[0]
    wins = sum(base)
    low, high = wilson(wins, runs)
    rows: list[SkillGain] = []
    for skill, outcome in zip(skills, won[1:], strict=True):
        plus = sum(1 for v, b in zip(outcome, base, strict=True) if v and not b)
        minus = sum(1 for v, b in zip(outcome, base, strict=True) if b and not v)
        gain, gain_low, gain_high = paired_difference(plus, minus, runs)
        s_low, s_high = wilson(sum(outcome), runs)
        rows.append({"skill": skill_label(skill, size), "p": sum(outcome) / runs,
                     "low": s_low, "high": s_high,
                     "gain": gain, "gain_low": gain_low, "gain_high": gain_high,
                     "better_runs": plus, "worse_runs": minus})
    rows.sort(key=lambda r: (-r["gain"], r["skill"]))
    return {"scenario": scenario.id, "side": side.value, "runs": runs, "seed": seed,
            "controller": controller_name, "force": _name(mine), "unit": unit.name,
            "pilot": unit.pilot.name, "level": unit.pilot.level,
            "held": list(unit.pilot.skills), "opponent": theirs.name,
            "opponent_units": [u.name for u in theirs.units],
            "baseline": {"p": wins / runs, "low": low, "high": high, "wins": wins},
            "skills": rows}


def _pick_pilot(force: ForceSpec, who: str | None, ref: str) -> int:
    piloted = [i for i, u in enumerate(force.units) if u.pilot is not None]
    if not piloted:
        raise Refused(f"{ref} has no piloted Mek.")
    if who is None:
        return piloted[0]
    wanted = who.strip().casefold()
    for i in piloted:
        unit = force.units[i]
        assert unit.pilot is not None
        if wanted in (unit.pilot.name.casefold(), unit.name.casefold()):
            return i
    names = ", ".join(f"{force.units[i].name} ({force.units[i].pilot.name})"  # type: ignore[union-attr]
                      for i in piloted)
    raise Refused(f"No pilot or Mek called {who!r} in {ref}; it has {names}.")


def bot_force(scenario: Scenario, side: Side, catalog: Catalog | None = None) -> ForceSpec:
    """The force the bot musters for ``side`` at normal difficulty, with Regular pilots and
    no support rolls."""
    catalog = catalog or load_catalog()
    rules = scenario.side(side)
    try:
        designs = muster(rules.budget, rules.max_size, rules.composition, catalog,
                         Difficulty.NORMAL)
    except ValueError as exc:
        raise Refused(f"The bot cannot muster the {side.value} of {scenario.name}: {exc}; "
                      "give an opponent with --against FORCE_FILE.") from None
    seen: dict[str, int] = {}
    units = []
    for design in designs:
        seen[design.name] = seen.get(design.name, 0) + 1
        many = sum(d.name == design.name for d in designs) > 1
        name = f"{design.name} {seen[design.name]}" if many else design.name
        units.append(UnitSpec(name, design, PilotSpec(f"{name} pilot", "Regular"),
                              points=design.price or 0))
    return ForceSpec(tuple(units), (), f"Bot ({side.value})")
