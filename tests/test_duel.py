"""The exact duel (meks.analysis.duel): a probability distribution, symmetric where it must be, and
in agreement with the engine's own duels (Monte Carlo with the baseline on both sides)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import multiprocessing as mp
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meks.analysis.duel import (
    DuelError,
    DuelOdds,
    MonteCarlo,
    engine_duel,
    exact_duel,
    mek_model,
    stand_ins,
    stock_designs,
)
from meks.analysis.duel_arrays import ArrayChain
from meks.analysis.duel_chain import DuelChain, MekModel
from meks.game.catalog import load_catalog


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


@pytest.mark.statistics
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
    # 25,281 pairs of start states, 10,609 once alike states are merged: still too many
    with pytest.raises(DuelError, match="10,609 pairs of states"):
        exact_duel("DRAKEN", "DRAKEN", exact=True)


# ---- states the duel cannot tell apart are merged (issue 29) -----------------------------

def _exact_chain(a: MekModel, b: MekModel, terrain_to_hit: int = 0) -> DuelChain:
    return DuelChain(a, b, terrain_to_hit, True, load_catalog())


def test_states_the_duel_cannot_tell_apart_are_merged() -> None:
    """One Hit from the end, a WASP's next Hit destroys it and its critical never comes, so
    whether it still has its CIWS changes nothing: those two states are one. A SABER's Jump
    Jets are never used (the baseline never jumps): losing them is like losing nothing, once
    the next critical could not pick them any more. 8 states become 7 and 31 become 24."""
    wasp = ArrayChain(_exact_chain(mek_model("WASP"), mek_model("WASP")), build=False)
    assert wasp.n_start == (8, 8)
    groups = wasp.lumps(0)
    assert max(groups) + 1 == 7
    by_state = dict(zip(wasp.sides[0].start, groups, strict=True))
    assert by_state[(1, 0, ("Cannon", "CIWS"), ("Jammer",), False, False, False)] == \
        by_state[(1, 0, ("Cannon",), ("Jammer",), False, False, False)]
    assert by_state[(1, 0, ("Cannon", "CIWS"), ("Jammer",), False, False, False)] != \
        by_state[(1, 0, ("CIWS",), ("Jammer",), False, False, False)]
    saber = ArrayChain(_exact_chain(mek_model("SABER"), mek_model("SABER")), build=False)
    assert saber.n_start == (31, 31)
    assert [max(saber.lumps(side)) + 1 for side in (0, 1)] == [24, 24]
    by_state = dict(zip(saber.sides[0].start, saber.lumps(0), strict=True))
    assert by_state[(2, 0, ("Vulcan Cannon",), ("Jump Jets", "Spaul Liner"), False, False,
                     False)] == \
        by_state[(2, 0, ("Vulcan Cannon",), ("Spaul Liner",), False, False, False)]


def test_fractions_follow_the_merged_states_and_give_the_same_odds() -> None:
    """``exact_duel(exact=True)`` follows one state of each group only, and its fractions
    are those of the chain that follows every state."""
    a, b = mek_model("WASP"), mek_model("SABER")
    merged = _exact_chain(a, b)
    merged.stand_in = stand_ins(ArrayChain(merged, build=False))
    assert {len(set(s.values())) for s in merged.stand_in} == {7, 24}
    plain = _exact_chain(a, b).solve_exact(6)
    assert merged.solve_exact(6) == plain
    assert exact_duel("WASP", "SABER", exact=True, turn_limit=2) == plain


def test_the_decimals_follow_the_merged_states_and_give_the_same_odds() -> None:
    """Issue 29: the decimals follow one state of each group too (a DRAKEN's 159 start
    states are 103 groups, a THOR's 430 are 142) and give the chances of the chain that
    follows every state, but for the last bits of float sums taken in another order."""
    cat = load_catalog()
    merged = ArrayChain(DuelChain(mek_model("DRAKEN"), mek_model("THOR"), 0, False, cat),
                        merge=True)
    assert merged.n_start == (103, 142)
    plain = ArrayChain(DuelChain(mek_model("DRAKEN"), mek_model("THOR"), 0, False, cat))
    assert plain.n_start == (159, 430)
    want = plain.solve(12)
    for got, expected in zip(merged.solve(12), want, strict=True):
        assert math.isclose(got, expected, rel_tol=0, abs_tol=1e-12)
    odds = exact_duel("DRAKEN", "THOR", turn_limit=4)  # 4 turns of 3 rounds: 12 steps
    for got, expected in zip((odds.a, odds.b, odds.draw), want, strict=True):
        assert math.isclose(got, expected, rel_tol=0, abs_tol=1e-12)


def test_two_meks_alike_share_their_attacks_and_groups() -> None:
    """A design against itself with pilots of one level: what the first does to the second
    the second does to the first, so the attacks are worked out once and the groups found
    once; the odds are those of two Meks worked out apart (the fingerprint test holds every
    such pair to its recorded bits; see the next test for the larger ones)."""
    cat = load_catalog()
    same = DuelChain(mek_model("DRAKEN"), mek_model("DRAKEN"), 0, False, cat)
    assert same.mirror
    assert not DuelChain(mek_model("DRAKEN"), mek_model("DRAKEN", "Green"), 0, False,
                         cat).mirror
    chain = ArrayChain(same, build=False)
    assert chain.lumps(0) == chain.lumps(1)
    odds = exact_duel("DRAKEN", "DRAKEN")
    assert odds.a == odds.b


def test_a_mek_against_its_double_works_out_half_of_each_exchange() -> None:
    """A design against itself whose chain is too large for plain arrays works out half of
    each exchange and adds its transpose (``meks.analysis.duel_exchange``): the odds of the
    exchange of any two Meks but for the last bits of sums taken in another order, and the
    same to the last bit for both Meks."""
    cat = load_catalog()
    model = mek_model("WARTHOG")
    halved = ArrayChain(DuelChain(model, model, 0, False, cat), merge=True)
    assert halved.dense is None
    whole = ArrayChain(DuelChain(model, model, 0, False, cat), merge=True)
    whole.duel.mirror = False  # solved as any two Meks
    got, want = halved.solve(9), whole.solve(9)
    assert got[0] == got[1]
    for g, w in zip(got, want, strict=True):
        assert math.isclose(g, w, rel_tol=0, abs_tol=1e-15)


DUEL_WEAPONS = ("Cannon", "Vulcan Cannon", "Rail Cannon", "Laser", "Twin Laser", "PPC",
                "Missile", "Hammer Missile", "6-Pack Missile", "CIWS", "Minigun",
                "Grenade Launcher")
DUEL_SYSTEMS = ("Targeting Array", "Jammer", "Director", "Point Defense", "Phalanx",
                "Servo Boosters", "Spaul Liner", "Jump Jets", "Heat Sink")


@st.composite
def _small_meks(draw: st.DrawFn) -> MekModel:
    """A Light or Medium Mek of a stock chassis with any two or three weapons and up to
    two systems (armor systems, which the duel reads as fixed, aside)."""
    base = mek_model(draw(st.sampled_from(("WASP", "VIPER"))))
    weapons = tuple(draw(st.lists(st.sampled_from(DUEL_WEAPONS), min_size=1, max_size=3)))
    systems = tuple(draw(st.lists(st.sampled_from(DUEL_SYSTEMS), max_size=2)))
    return dataclasses.replace(base, weapons=weapons, systems=systems,
                               base_heat=draw(st.integers(min_value=1, max_value=5)))


@settings(max_examples=25, deadline=None)
@given(a=_small_meks(), b=_small_meks(), terrain=st.sampled_from((0, -1, -2)),
       turns=st.integers(min_value=1, max_value=5))
def test_merging_alike_states_never_changes_the_fractions(a: MekModel, b: MekModel,
                                                          terrain: int, turns: int) -> None:
    """For any small designs, terrain and turn limit, following one state of each group
    of alike states gives exactly the fractions of following every state."""
    merged = _exact_chain(a, b, terrain)
    merged.stand_in = stand_ins(ArrayChain(merged, build=False))
    plain = _exact_chain(a, b, terrain).solve_exact(turns)
    assert merged.solve_exact(turns) == plain


# ---- the fast ways give the same figures as before (issue 19) ----------------------------

FINGERPRINT = Path(__file__).parent / "fixtures" / "duel_fingerprint.json"

@pytest.mark.parametrize(("a", "b"), [("WASP", "WASP"), ("WASP", "SABER"),
                                      ("DEMON", "SAGITARII")])
def test_fractions_are_the_golden_ones(a: str, b: str) -> None:
    """Issue 19: the whole-number solver gives the very fractions the Fraction walk gave
    before it (recorded in tests/fixtures/duel_fingerprint.json)."""
    golden = json.loads(FINGERPRINT.read_text())["fractions"][f"{a}|{b}"]
    odds = exact_duel(a, b, exact=True, rounds=1)
    assert [str(odds.a), str(odds.b), str(odds.draw)] == golden


SMALL_MEKS = ("WASP", "VIPER", "DEMON", "SABER", "SAGITARII")


@settings(max_examples=12, deadline=None)
@given(a=st.sampled_from(SMALL_MEKS), b=st.sampled_from(SMALL_MEKS),
       terrain=st.sampled_from(("Plains", "Woods", "Urban", "Desert", "Highlands", "Moors")),
       pilots=st.tuples(*[st.sampled_from(("Green", "Regular", "Veteran", "Elite"))] * 2),
       turns=st.integers(min_value=1, max_value=4))
def test_whole_number_solver_equals_the_fraction_walk(a: str, b: str, terrain: str,
                                                     pilots: tuple[str, str],
                                                     turns: int) -> None:
    """Issue 19: ``solve_exact`` (whole numbers over one denominator a turn) and ``walk``
    (one Fraction at a time, the plainest way) give equal fractions for any small pair,
    terrain, pilots and turn limit."""
    cat = load_catalog()
    ground = cat.terrain_named(terrain)
    models = (mek_model(a, pilots[0], terrain, cat), mek_model(b, pilots[1], terrain, cat))
    fast = DuelChain(*models, ground.to_hit, True, cat).solve_exact(turns)
    plain = DuelChain(*models, ground.to_hit, True, cat).walk(turns)
    assert (fast.a, fast.b, fast.draw) == (plain.a, plain.b, plain.draw)
    assert fast.a + fast.b + fast.draw == 1


def _fingerprint() -> dict[str, dict[str, list[str]]]:
    """Every stock pair on Plains with Regular pilots: the decimals as exact hexadecimal
    floats, and the fractions of every pair they are offered for. One exchange a turn
    (``rounds=1``, the duel of engine revisions before 8): the solvers' arithmetic is the
    same whatever the number of steps, the figures are the ones recorded before the speed
    work, and the chain of three rounds a turn would take three times as long."""
    floats, fractions = {}, {}
    for a, b in itertools.combinations_with_replacement(stock_designs(), 2):
        odds = exact_duel(a, b, rounds=1)
        floats[f"{a}|{b}"] = [odds.a.hex(), odds.b.hex(), odds.draw.hex()]
        try:
            exact = exact_duel(a, b, exact=True, rounds=1)
        except DuelError:
            continue
        fractions[f"{a}|{b}"] = [str(exact.a), str(exact.b), str(exact.draw)]
    return {"floats": floats, "fractions": fractions}


@pytest.mark.slow
@pytest.mark.statistics
def test_every_stock_pair_keeps_its_fingerprint() -> None:
    """Issue 19 ("results unchanged: fingerprints equal before and after each speed
    change"): all 45 pairs' decimals equal to the last bit, and the fractions exactly, to
    tests/fixtures/duel_fingerprint.json. The fractions are those recorded before the speed
    work (the WASP v ODIN fractions, first offered then, from the Fraction walk,
    ``DuelChain.walk``); the decimals were recorded again when they came to follow merged
    states (issue 29), which moved 70 of the 135 figures by at most 4.4e-16, and when a Mek
    against its double came to work out half of each exchange and the odds of acting were
    folded into the movement's weights (issue 29), which moved 17 by at most 5.6e-17; every
    decimal is within 1.5e-15 of its fraction where fractions are offered. The decimals are
    those of the matrix library installed here (NumPy's OpenBLAS); should a new version of it
    move a last bit, renew the file knowingly with ``python -m tests.test_duel``."""
    recorded = json.loads(FINGERPRINT.read_text())
    assert _fingerprint() == recorded


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
    """The fast path (meks.analysis.duel_arrays) and the reference walk give the same chances."""
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

RUNS_PER_PAIR = 2_500
SEED = 1_000_000
ALPHA = 1e-4  # the chance that an engine in full agreement fails this test


def _pair(args: tuple[str, str, int, int]) -> tuple[str, str, MonteCarlo, dict[str, float]]:
    a, b, seed, runs = args
    return a, b, engine_duel(a, b, runs=runs, seed=seed), exact_duel(a, b).as_floats()


def _chi_square(exact: dict[str, float], mc: MonteCarlo) -> tuple[float, int]:
    """Pearson's statistic of the engine's counts against the exact chances, and its degrees
    of freedom. An outcome the exact duel rules out must never happen in the engine."""
    counts = {"a": mc.a, "b": mc.b, "draw": mc.draw}
    statistic, cells = 0.0, 0
    for key, p in exact.items():
        if p <= 0:
            assert counts[key] == 0, (key, counts)
            continue
        expected = p * mc.runs
        statistic += (counts[key] - expected) ** 2 / expected
        cells += 1
    return statistic, cells - 1


@pytest.mark.slow
@pytest.mark.statistics
def test_every_pair_of_stock_meks_agrees_with_the_engine() -> None:
    """The exact duel against 2,500 of the engine's own duels for every pair of stock Meks
    on Plains (45 pairs: each pair once, since the duel is symmetric in the sides, and each
    Mek against itself), 112,500 duels in all, on 2 processes.

    Two chi-square tests, each at a false-alarm chance of 1 in 10,000:
    - pooled over all pairs (the sum of the pairs' statistics, 90 degrees of freedom): it
      catches a small error shared by many pairs. Nine times in ten it catches the first
      Mek's win chance being 4.7% (relative) too high or too low in every pair;
    - each pair on its own, Bonferroni-corrected for the 45 pairs: it catches one pair gone
      wrong. Nine times in ten it catches an even pair (WASP v WASP) whose win chances are
      5.9 points off, or VIPER v DEMON 3.0 points off. (These powers were worked out for the
      duel of one exchange a turn; fought in rounds, engine revision 8, the chances differ a
      little and so do they. The exact figures themselves are kept to the last bit by the
      fingerprint test; this one checks that they are the engine's, in rounds.)
    The seeds are fixed, so the test gives the same answer every run."""
    from scipy.stats import chi2

    names = stock_designs()
    pairs = list(itertools.combinations_with_replacement(names, 2))
    tasks = [(a, b, SEED, RUNS_PER_PAIR) for a, b in pairs]
    # The slowest pairs (the heavy Meks, last in catalog order) first, so the two
    # processes finish together.
    with mp.get_context("spawn").Pool(2) as pool:
        results = pool.map(_pair, tasks[::-1], chunksize=1)
    total, freedom, report = 0.0, 0, []
    for a, b, mc, exact in results:
        assert mc.runs == RUNS_PER_PAIR
        statistic, df = _chi_square(exact, mc)
        total += statistic
        freedom += df
        report.append((a, b, round(statistic, 1), df, chi2.sf(statistic, df)))
    alone = [r for r in report if r[4] < ALPHA / len(pairs)]
    assert not alone, (alone, report)
    assert chi2.sf(total, freedom) >= ALPHA, (total, freedom, report)


@settings(max_examples=25, deadline=None)
@given(a=_small_meks(), b=_small_meks(), terrain=st.sampled_from((0, -1, -2)))
def test_groups_found_in_floats_never_join_states_the_fractions_keep_apart(
        a: MekModel, b: MekModel, terrain: int) -> None:
    """The decimals find their groups in floats, the fractions in exact numbers, and the
    groups are the same: the floats never merge two states the duel can tell apart (each
    group found in floats lies inside one exact group), and the last bits of their sums
    keep none apart that it cannot."""
    cat = load_catalog()
    rough = ArrayChain(DuelChain(a, b, terrain, False, cat), build=False)
    exact = ArrayChain(_exact_chain(a, b, terrain), build=False)
    for side in (0, 1):
        assert rough.sides[side].start == exact.sides[side].start
        in_floats, in_fractions = rough.lumps(side), exact.lumps(side)
        inside: dict[int, int] = {}
        for g, h in zip(in_floats, in_fractions, strict=True):
            assert inside.setdefault(g, h) == h
        assert in_floats == in_fractions


if __name__ == "__main__":  # renew the fingerprint: see the test above
    FINGERPRINT.write_text(json.dumps(_fingerprint(), indent=1) + "\n")


def test_the_sparse_product_without_scipys_routine_gives_the_same_bits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``product_into`` calls the routine SciPy's ``@`` calls; a SciPy that moved it gets
    ``@`` itself, with the same sums to the last bit (the table is zeroed first)."""
    import numpy as np
    from scipy import sparse

    from meks.analysis import duel_tables

    rng = np.random.default_rng(1)
    m = sparse.random(300, 200, density=0.05, format="csr", random_state=2)
    x = rng.random((200, 7))
    routine = np.zeros((300, 7))
    duel_tables.product_into(m, x, routine)
    monkeypatch.setattr(duel_tables, "csr_matvecs", None)
    fallback = np.zeros((300, 7))
    duel_tables.product_into(m, x, fallback)
    assert (routine == fallback).all() and routine.any()
