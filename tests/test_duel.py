"""The exact duel (meks.duel): a probability distribution, symmetric where it must be, and
in agreement with the engine's own duels (Monte Carlo with the baseline on both sides)."""

from __future__ import annotations

import itertools
import math
import multiprocessing as mp
from fractions import Fraction

import pytest

from meks.duel import DuelError, DuelOdds, MonteCarlo, engine_duel, exact_duel, stock_designs


def _worst_z(exact: DuelOdds, mc: MonteCarlo) -> float:
    """The largest |exact - Monte Carlo| over the three outcomes, in standard errors (the
    standard error of a rate of ``mc.runs`` duels when ``exact`` is the truth)."""
    worst = 0.0
    rates = mc.rates()
    for key, p in exact.as_floats().items():
        se = math.sqrt(p * (1 - p) / mc.runs)
        gap = abs(rates[key] - p)
        if se == 0:
            assert gap == 0, (key, p, rates[key])
            continue
        worst = max(worst, gap / se)
    return worst


def test_probabilities_sum_to_one() -> None:
    odds = exact_duel("WASP", "VIPER", exact=True)
    assert isinstance(odds.a, Fraction)
    assert odds.a + odds.b + odds.draw == 1
    floats = exact_duel("DEMON", "SABER", terrain="Woods", pilots=("Green", "Veteran"))
    assert math.isclose(floats.a + floats.b + floats.draw, 1.0, abs_tol=1e-12)


def test_symmetric_duel_is_even() -> None:
    odds = exact_duel("WASP", "WASP", exact=True)
    assert odds.a == odds.b
    demon = exact_duel("DEMON", "DEMON")
    assert math.isclose(demon.a, demon.b, rel_tol=1e-12)


def test_fractions_and_floats_agree() -> None:
    exact = exact_duel("WASP", "SABER", exact=True).as_floats()
    fast = exact_duel("WASP", "SABER").as_floats()
    for key in exact:
        assert math.isclose(exact[key], fast[key], abs_tol=1e-12)


@pytest.mark.parametrize(("a", "b", "terrain", "pilots"), [
    ("WASP", "VIPER", "Plains", ("Regular", "Regular")),
    ("DEMON", "SABER", "Plains", ("Regular", "Regular")),
    ("SAGITARII", "WASP", "Woods", ("Veteran", "Green")),
])
def test_exact_agrees_with_the_engine(a: str, b: str, terrain: str,
                                      pilots: tuple[str, str]) -> None:
    exact = exact_duel(a, b, terrain, pilots)
    mc = engine_duel(a, b, terrain, pilots, runs=3000, seed=1)
    assert _worst_z(exact, mc) < 3


def test_fractions_are_refused_when_they_would_take_too_long() -> None:
    with pytest.raises(DuelError, match="decimals"):
        exact_duel("DRAKEN", "THOR", exact=True)


@pytest.mark.parametrize(("a", "b", "terrain", "pilots"), [
    ("WASP", "VIPER", "Plains", ("Regular", "Regular")),
    ("DEMON", "SABER", "Woods", ("Green", "Veteran")),
    ("SAGITARII", "DEMON", "Plains", ("Elite", "Regular")),
    ("VIPER", "DRAKEN", "Plains", ("Regular", "Regular")),
    ("SABER", "WASP", "Urban", ("Regular", "Green")),
    ("WASP", "WASP", "Desert", ("Veteran", "Regular")),
])
def test_matrices_agree_with_the_state_by_state_reference(
        a: str, b: str, terrain: str, pilots: tuple[str, str]) -> None:
    """The fast path (meks.duel_arrays) and the reference walk give the same chances."""
    fast = exact_duel(a, b, terrain, pilots).as_floats()
    slow = exact_duel(a, b, terrain, pilots, reference=True).as_floats()
    for key in fast:
        assert math.isclose(fast[key], slow[key], abs_tol=1e-12), (key, fast, slow)


def test_shorter_turn_limits_move_chance_into_draws() -> None:
    """A duel cut short can only turn wins into draws: every win chance grows with the
    turn limit, and one turn never leaves the dice everything."""
    odds = [exact_duel("DRAKEN", "SABER", turn_limit=t) for t in (1, 2, 6, 12)]
    for shorter, longer in itertools.pairwise(odds):
        assert shorter.a <= longer.a + 1e-15 and shorter.b <= longer.b + 1e-15
        assert shorter.draw >= longer.draw - 1e-15
    assert 0 < odds[0].draw < 1


# ---- every pair of stock Meks on Plains (slow) ------------------------------------------

SLOW_RUNS = 100_000
SEED = 1_000_000


def _pair(args: tuple[str, str, int, int]) -> tuple[str, str, int, MonteCarlo]:
    a, b, seed, runs = args
    return a, b, seed, engine_duel(a, b, runs=runs, seed=seed)


@pytest.mark.slow
@pytest.mark.statistics
def test_every_pair_of_stock_meks_agrees_with_the_engine() -> None:
    """The exact duel against 100,000 of the engine's own duels, within 3 standard errors,
    for every pair of stock Meks on Plains (45 pairs: each pair once, since the duel is
    symmetric in the sides, and each Mek against itself).

    4.5 million engine duels: about half an hour on 2 processes. Each pair's duels are cut
    into blocks of 10,000 seeds so that the two processes share the work evenly; the
    blocks' seeds follow on from each other, so the result is one run of 100,000 seeds per
    pair whatever the split."""
    names = stock_designs()
    pairs = list(itertools.combinations_with_replacement(names, 2))
    block = 10_000
    tasks = [(a, b, SEED + start, block) for a, b in pairs
             for start in range(0, SLOW_RUNS, block)]
    with mp.get_context("spawn").Pool(2) as pool:
        results = pool.map(_pair, tasks, chunksize=1)
    counts: dict[tuple[str, str], list[int]] = {}
    for a, b, _seed, mc in results:
        c = counts.setdefault((a, b), [0, 0, 0])
        c[0] += mc.a
        c[1] += mc.b
        c[2] += mc.draw
    report = []
    for (a, b), (wa, wb, dr) in counts.items():
        mc = MonteCarlo(wa, wb, dr)
        assert mc.runs == SLOW_RUNS
        report.append((a, b, round(_worst_z(exact_duel(a, b), mc), 2)))
    bad = [r for r in report if r[2] >= 3]
    assert not bad, (bad, report)
