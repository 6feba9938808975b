"""The odds estimate (``meks/analysis/estimate.py``, issue 16 item 3): a battle's odds from the two
forces' strengths through curves fitted to the bot's battles, so that a campaign can balance
its enemy without fighting; and the script that fits the curves (``benchmarks/fit_odds.py``)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meks
from campaigns.files.scenarios import get_scenario
from meks.analysis.estimate import (
    BENDS,
    Curve,
    Model,
    designs,
    edge,
    estimate,
    from_edge,
    levels,
    model_for,
    models,
    numbers,
    read_models,
    readings,
    rolled,
    rollers,
    speed,
    strength,
)
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import Catalog
from meks.game.scenario import HouseRules
from meks.game.vocabulary import Side

REPO = Path(__file__).resolve().parent.parent
BUILT_IN = ("opening-shots", "at-the-hot-gates", "buying-us-some-time", "through-the-breach",
            "head-to-head", "citadel",
            # the built-in campaign's copies (campaigns/files/scenarios/campaign)
            "opening-shots-campaign", "at-the-hot-gates-campaign",
            "buying-us-some-time-campaign", "through-the-breach-campaign", "citadel-campaign")


def mek(catalog: Catalog, design: str, level: str = "Regular", damage: int = 0,
        skills: tuple[str, ...] = ()) -> UnitSpec:
    d = catalog.design(design)
    return UnitSpec(f"{design} {level}", d, PilotSpec("p", level, skills),
                    points=d.price or 0, damage=damage)


def test_a_better_pilot_makes_a_stronger_force(catalog: Catalog) -> None:
    """Each Mek's offence is worked out at its own pilot's to-hit modifier (R6.6): Elite
    above Regular above Green (Veteran and Regular share the modifier)."""
    by_level = {lv: strength([mek(catalog, "DRAKEN", lv)], catalog)
                for lv in ("Green", "Regular", "Veteran", "Elite")}
    assert by_level["Green"] < by_level["Regular"] == by_level["Veteran"] < by_level["Elite"]


def test_damage_carried_weakens_a_force(catalog: Catalog) -> None:
    """Hits carried from an earlier battle (house rule repair: none) take toughness away in
    proportion."""
    whole = strength([mek(catalog, "DRAKEN")], catalog)
    hurt = strength([mek(catalog, "DRAKEN", damage=2)], catalog)
    assert hurt == pytest.approx(whole / 2)


def test_a_support_vehicle_adds_strength_and_an_asset_does_not(catalog: Catalog) -> None:
    """The vehicles support results bring (R4.2) count as the muster counts them
    (``support_profile``: the Panzer's Space-Lam armor saves better against cannons, the
    APC carries no gun but takes hits); an asset, and Commandos, add nothing."""
    from meks.analysis.estimate import fielded
    from meks.engine.bot.choices import support_profile

    draken = mek(catalog, "DRAKEN")
    whole = strength([draken], catalog)
    panzer = support_profile("Panzer", catalog)
    assert panzer is not None and panzer[0] > 0
    bare = support_profile("Howitzer Battery", catalog)  # 2 Hits and armor 5, no Space-Lam
    apc = support_profile("Mechanized Infantry", catalog)
    assert bare is not None and apc is not None and apc[0] == 0 < apc[1]
    assert panzer[1] > bare[1]  # armor 4 and Space-Lam against armor 5
    for name in ("Panzer", "Gun Sled", "Gunship", "Howitzer Battery", "Mechanized Infantry"):
        force = fielded(ForceSpec((draken,), (name, "Surprise")), catalog)
        assert [u.support for u in force] == [None, name]
        assert strength(force, catalog) > whole
    for name in ("Surprise", "Air Strike", "Commandos"):
        assert support_profile(name, catalog) is None
        assert strength(fielded(ForceSpec((draken,), (name,)), catalog), catalog) == whole


def test_the_edge_is_taken_on_the_defenders_ground_and_counts_who_doubles_it_R6_3(
        catalog: Catalog) -> None:
    """On the Citadel's ground (the defender sets up in the city, Urban: -2 to hit) slow
    Titans with Green pilots against a faster force are far weaker than on open ground, and
    weaker in the city than in woods (-1): the terrain counts against their shots, and
    twice as often as the defender's movement result is more than twice theirs (R6.3). On
    open ground the edge is what it was."""
    from meks.analysis.estimate import doubling, ground

    citadel = get_scenario("citadel-campaign")
    land = ground(citadel, catalog)
    assert [t.name for t in land] == ["Urban"]
    forces = {Side.ATTACKER: [mek(catalog, "ODIN", "Green")] * 5,
              Side.DEFENDER: [mek(catalog, "WASP"), mek(catalog, "WASP"),
                              mek(catalog, "DEMON"), mek(catalog, "DEMON", "Green")]}
    mine, theirs = doubling(forces, catalog, land[0])
    assert mine < 0.01 and theirs > 0.5  # one die against two and more, in the city
    woods = (catalog.terrain_named("Woods"),)
    assert edge(forces, catalog, land) < edge(forces, catalog, woods) < edge(forces, catalog)
    assert edge(forces, catalog, land) < edge(forces, catalog) - 2.0
    plains = catalog.terrain_named("Plains")
    assert edge(forces, catalog, (plains, plains)) == edge(forces, catalog)


def test_the_edge_is_zero_for_equal_forces_and_changes_sign_with_the_sides(
        catalog: Catalog) -> None:
    a = (mek(catalog, "VIPER"), mek(catalog, "WASP", "Green"))
    b = (mek(catalog, "DEMON", "Elite"),)
    assert edge({Side.ATTACKER: a, Side.DEFENDER: a}, catalog) == 0.0
    x = edge({Side.ATTACKER: a, Side.DEFENDER: b}, catalog)
    assert x != 0 and edge({Side.ATTACKER: b, Side.DEFENDER: a}, catalog) == pytest.approx(-x)
    assert edge({Side.ATTACKER: a, Side.DEFENDER: ()}, catalog) == 6.0


def test_each_meks_movement_roll_is_the_rules_roll_without_the_terrain(
        catalog: Catalog) -> None:
    """R6.2: chassis dice and bonus, pilot level, Maneuver +2, Chassis Familiarity +1 in a
    Mek of the pilot's size, Jump Jets' extra die (SABER); support units do not roll."""
    assert rollers([mek(catalog, "WASP")], catalog) == [(2, 2, 1.0)]
    assert rollers([mek(catalog, "WASP", "Elite")], catalog) == [(2, 4, 1.0)]
    assert rollers([mek(catalog, "WASP", "Green", skills=("Maneuver",))], catalog) == \
        [(2, 3, 1.0)]
    assert rollers([mek(catalog, "VIPER", skills=("Chassis Familiarity (Medium)",))],
                   catalog) == [(2, 1, 1.0)]
    assert rollers([mek(catalog, "VIPER", skills=("Chassis Familiarity (Heavy)",))],
                   catalog) == [(2, 0, 1.0)]
    assert rollers([mek(catalog, "SABER")], catalog) == [(3, 0, 1.0)]
    assert rollers([UnitSpec("Panzer", support="Panzer")], catalog) == []


def test_speed_is_the_chance_of_winning_a_movement_roll_less_the_enemys(
        catalog: Catalog) -> None:
    """Equal Meks: 0; the fastest Mek of a side rolls for it, so a WASP with a VIPER beats a
    lone VIPER more often than not, and the sides' figures are opposite."""
    viper, wasp = mek(catalog, "VIPER"), mek(catalog, "WASP")
    assert speed({Side.ATTACKER: (viper,), Side.DEFENDER: (viper,)}, catalog) == \
        pytest.approx(0.0)
    fast = speed({Side.ATTACKER: (viper, wasp), Side.DEFENDER: (viper,)}, catalog)
    assert 0 < fast <= 1
    assert speed({Side.ATTACKER: (viper,), Side.DEFENDER: (viper, wasp)}, catalog) == \
        pytest.approx(-fast)


def test_numbers_are_the_log_of_the_count_of_meks(catalog: Catalog) -> None:
    import math

    two = (mek(catalog, "WASP"), mek(catalog, "WASP"))
    one = (mek(catalog, "ODIN"), UnitSpec("Panzer", support="Panzer"))
    assert numbers({Side.ATTACKER: two, Side.DEFENDER: one}) == pytest.approx(math.log(2))
    assert numbers({Side.ATTACKER: (), Side.DEFENDER: one}) == 0.0


def test_forces_within_the_limits_spend_what_they_are_asked_to(catalog: Catalog) -> None:
    """``forces_within``: every force of stock designs within the budget, size limit and
    composition, spending at least the share asked (the fit draws from them)."""
    from meks.engine.bot.choices import forces_within
    from meks.game.catalog import Size

    forces = forces_within(30, None, {Size.MEDIUM: 1, Size.LIGHT: 2}, catalog)
    assert forces and all(sorted(d.size.value for d in f) == ["Light", "Light", "Medium"]
                          and sum(d.price or 0 for d in f) <= 30 for f in forces)
    spent = forces_within(60, Size.HEAVY, None, catalog, spend=0.75)
    assert spent and all(45 <= sum(d.price or 0 for d in f) <= 60
                         and all(d.size <= Size.HEAVY for d in f) for f in spent)
    assert forces_within(5, None, None, catalog) == []


@settings(max_examples=200, deadline=None)
@given(x=st.floats(min_value=-50, max_value=50), v=st.floats(min_value=-1, max_value=1),
       n=st.floats(min_value=-3, max_value=3),
       a=st.tuples(*[st.floats(-20, 20)] * 4), d=st.tuples(*[st.floats(-20, 20)] * 4))
def test_estimated_odds_are_chances_that_sum_to_one(
        x: float, v: float, n: float, a: tuple[float, ...], d: tuple[float, ...]) -> None:
    """Whatever the curves and the edges, the three outcomes are chances summing to 1."""
    model = Model("s", Curve(*a), Curve(*d), 1, "bot", 6, (-3.0, 3.0))
    odds = from_edge(model, x, v, n)
    for p in (odds.attacker, odds.defender, odds.draw):
        assert 0.0 <= p <= 1.0
    assert odds.attacker + odds.defender + odds.draw == pytest.approx(1.0)


def test_an_edge_beyond_the_fitted_battles_counts_as_their_nearest() -> None:
    """The curves say nothing of match-ups never fought: beyond the edges the fitted battles
    spanned, the estimate is the one at the nearest end."""
    model = Model("s", Curve(0.0, 2.0), Curve(0.0, -2.0), 1, "bot", 6, (-0.5, 0.5))
    assert from_edge(model, 4.0) == dataclasses.replace(from_edge(model, 0.5), edge=0.5)
    assert from_edge(model, -4.0).attacker == from_edge(model, -0.5).attacker


def test_a_curve_bends_past_each_of_its_edges_and_weighs_edge_times_speed() -> None:
    """Past each of ``BENDS`` a curve's slope in the edge changes by that bend's weight
    (short of it, nothing); the edge times the speed has a weight of its own; a curves
    file of four coefficients (fitted before either) reads as a straight curve, and one
    of nine as the five and the four bends."""
    import math

    def logistic(z: float) -> float:
        return 1.0 / (1.0 + math.exp(-z))

    assert tuple(sorted(BENDS)) == BENDS
    bends = (0.5, -1.0, 2.0, 0.25)
    curve = Curve(0.1, 1.0, 0.5, 0.0, 0.75, bends)

    def z(x: float, v: float) -> float:
        return 0.1 + x + 0.5 * v + 0.75 * x * v + sum(
            w * max(0.0, x - at) for at, w in zip(BENDS, bends, strict=True))

    for x in (-3.0, BENDS[0], -1.0, 0.0, 1.0, 2.5):
        for v in (-0.4, 0.0, 0.6):
            assert curve.chance(x, v) == pytest.approx(logistic(z(x, v)))
    assert curve.chance(BENDS[0] - 1, 0.0) == Curve(0.1, 1.0).chance(BENDS[0] - 1, 0.0)
    assert curve.chance(0.0, 0.0) != Curve(0.1, 1.0).chance(0.0, 0.0)  # past two bends
    head = "controller: bot\nrevision: 6\nscenarios:\n  s:\n"
    rest = "    battles: 200\n    edges: [-1.0, 1.0]\n    scenario: abc\n"
    old = read_models(head + "    attacker: [0.1, 1.0, 0.5, 0.2]\n"
                      "    defender: [-0.1, -1.0, 0.0, 0.0]\n" + rest)["s"]
    assert old.attacker == Curve(0.1, 1.0, 0.5, 0.2)
    new = read_models(head + "    attacker: [0.1, 1.0, 0.5, 0.0, 0.75, 0.5, -1.0, 2.0, 0.25]\n"
                      "    defender: [-0.1, -1.0, 0.0, 0.0]\n" + rest)["s"]
    assert new.attacker == curve


def test_the_curves_files_header_names_the_bends_the_estimate_reads() -> None:
    """The header ``fit_odds`` writes spells out each bend of ``BENDS`` in order, and the
    file as it stands carries that header: the words cannot drift from the numbers."""
    from benchmarks.fit_odds import HEADER

    header = "\n".join(HEADER)
    spelt = [f"h{i}*max(0, edge{-at:+g})" for i, at in enumerate(BENDS, 1)]
    assert all(term in header for term in spelt)
    assert [header.index(term) for term in spelt] == sorted(header.index(t) for t in spelt)
    text = (REPO / "meks" / "analysis" / "data" / "odds_model.yaml").read_text("utf-8")
    assert text.startswith(header + "\n")


def test_every_built_in_scenario_has_curves_fitted_to_the_bot_of_this_revision() -> None:
    from meks.engine import REVISION

    fitted = models()
    assert set(fitted) == set(BUILT_IN)
    for model in fitted.values():
        assert model.controller == "bot" and model.revision == REVISION
        assert model.battles >= 200 and model.edges[0] < model.edges[1]


def test_every_built_in_scenarios_curves_were_fitted_to_its_rules_as_they_are() -> None:
    """The curves keep the digest of the scenario they were fitted to: a change to a built-in
    scenario's map, sides, victory or house rules (not its wording) needs them fitted again
    (``benchmarks/fit_odds.py --scenario ID --write``)."""
    from campaigns.files.scenario_model import rules_digest
    from meks.game.yamlio import parse_yaml

    raw = parse_yaml((Path(meks.__file__).parent / "analysis" / "data" / "odds_model.yaml")
                     .read_text("utf-8"), "odds_model.yaml")
    assert isinstance(raw, dict)
    for sid in BUILT_IN:
        assert raw["scenarios"][sid]["scenario"] == rules_digest(get_scenario(sid)), (
            f"{sid} changed since its odds curves were fitted")


def test_where_strength_decides_the_stronger_attacker_is_likelier_to_win() -> None:
    """In the scenarios that are fights to the finish (Buying Us Some Time, Head to Head),
    the fitted curves rise with the attacker's edge in strength and in movement rolls, and
    fall for the defender across the match-ups that are fights (edges -0.5 to 1.5; against
    an attacker far weaker still, Head to Head's defender wins less again, as the weak side
    keeps out of reach and the battle is drawn); at the Hot Gates, where the attackers must
    beat the defenders in the pass before they leave through it (R5.2, R6.3 of engine
    revision 8), the edge counts (in its broken ground the edge holds the faster side's
    doubling of the terrain, R6.3, so speed's own term there is small and may take either
    sign)."""
    for sid in ("buying-us-some-time", "head-to-head"):
        model = models()[sid]
        assert model.attacker.slope > 0
        assert model.attacker.speed > 0 > model.defender.speed
        assert from_edge(model, 1.0).attacker > from_edge(model, -1.0).attacker
        edges = (-0.5, 0.0, 0.5, 1.0, 1.5)
        defended = [from_edge(model, x).defender for x in edges]
        assert defended == sorted(defended, reverse=True), (sid, defended)
    gates = models()["at-the-hot-gates"]
    assert gates.attacker.slope > 0 > gates.defender.slope


def test_house_rules_that_change_battles_leave_a_scenario_without_an_estimate(
        catalog: Catalog) -> None:
    """Curves fitted without a house rule do not hold with it: Six Always Hits, diagonal
    moves, bail out, withdrawal, and one exchange a turn or breaking contact to stay (the
    readings of engine revisions before 8) leave no estimate; house rules of the campaign
    between battles do not matter."""
    from meks.game.vocabulary import BreakContact, Repair

    scenario = get_scenario("head-to-head")
    forces = {Side.ATTACKER: ForceSpec((mek(catalog, "DRAKEN"),)),
              Side.DEFENDER: ForceSpec((mek(catalog, "THOR"),))}
    assert estimate(scenario, forces, catalog) is not None
    for rules in (HouseRules(six_always_hits=True), HouseRules(diagonal_moves=True),
                  HouseRules(bail_out=True), HouseRules(withdrawal=True),
                  HouseRules(combat_rounds=1), HouseRules(break_contact=BreakContact.STAY)):
        assert model_for(dataclasses.replace(scenario, house_rules=rules)) is None
    kept = dataclasses.replace(scenario, house_rules=HouseRules(repair=Repair.NONE))
    assert model_for(kept) is not None


@pytest.mark.slow
def test_the_fit_script_fits_checks_and_prints_json() -> None:
    """``benchmarks/fit_odds.py`` on a tiny draw: exits 0 and prints both curves, the edges
    they span and the check against battles fought afresh (it writes nothing without
    ``--write``)."""
    model_file = REPO / "meks" / "analysis" / "data" / "odds_model.yaml"
    before = model_file.read_text("utf-8")
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "fit_odds.py"), "--pairs", "4",
         "--battles", "1", "--check-pairs", "2", "--jobs", "1", "--scenario", "head-to-head",
         "--json"], capture_output=True, text=True, timeout=300, cwd=REPO,
        stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    entry = report["scenarios"]["head-to-head"]
    # a, b, c, d, the edge times the speed, and a bend at each of BENDS
    assert len(entry["attacker"]) == len(entry["defender"]) == 5 + len(BENDS)
    assert entry["fitted_battles"] == 4 and entry["check"]["attacker"]["battles"] == 2
    for kind in ("support", "designs", "levels"):  # a weight for each a side counted
        for curve in ("attacker", "defender"):
            assert all(whose in ("attacker", "defender") and isinstance(name, str)
                       and isinstance(weight, float) for whose, name, weight in
                       entry[kind][curve])
    assert entry["designs"]["attacker"] and entry["levels"]["attacker"]
    assert model_file.read_text("utf-8") == before


def test_each_support_result_a_side_rolled_adds_its_weight_to_the_curve() -> None:
    """A curve's support weights count once for each time the side rolled that result: a
    Hidden Mek rolled twice by the defender moves the attacker's curve by twice its weight;
    a result the fitted battles never saw (or a Rich Uncle, whose points are in the force
    already) weighs nothing."""
    import math

    weights = ((Side.DEFENDER, "Hidden Mek", -1.5), (Side.ATTACKER, "Air Strike", 0.5))
    model = Model("s", Curve(0.0, 1.0, support=weights), Curve(-1.0, -1.0), 1, "bot", 6,
                  (-3.0, 3.0))
    def logistic(z: float) -> float:
        return 1.0 / (1.0 + math.exp(-z))

    assert from_edge(model, 0.5).attacker == pytest.approx(logistic(0.5))
    twice = {(Side.DEFENDER, "Hidden Mek"): 2, (Side.ATTACKER, "Air Strike"): 1}
    assert from_edge(model, 0.5, 0.0, 0.0, twice).attacker == pytest.approx(
        logistic(0.5 - 3.0 + 0.5))
    unseen = {(Side.ATTACKER, "Hidden Mek"): 1, (Side.DEFENDER, "Rich Uncle"): 1}
    assert from_edge(model, 0.5, 0.0, 0.0, unseen) == from_edge(model, 0.5)


def test_the_estimate_counts_the_support_each_force_holds(catalog: Catalog) -> None:
    """``rolled`` counts each side's support results as its force holds them, a result rolled
    twice twice; ``estimate`` hands them to the curves."""
    forces = {Side.ATTACKER: ForceSpec((mek(catalog, "DRAKEN"),), ("Air Strike", "Air Strike")),
              Side.DEFENDER: ForceSpec((mek(catalog, "THOR"),), ("Hidden Mek",))}
    assert rolled(forces) == {(Side.ATTACKER, "Air Strike"): 2, (Side.DEFENDER, "Hidden Mek"): 1}
    scenario = get_scenario("citadel-campaign")
    bare = {side: dataclasses.replace(force, support=()) for side, force in forces.items()}
    with_support, without = estimate(scenario, forces, catalog), estimate(scenario, bare, catalog)
    assert with_support is not None and without is not None
    model = models()["citadel-campaign"]
    expected = from_edge(model, without.edge, without.speed, without.numbers, rolled(forces),
                         designs(forces), levels(forces))
    assert with_support == expected


def test_a_curves_file_without_support_weights_reads_as_none() -> None:
    """Curves fitted before the estimate read the support have no ``support`` entry: they
    read as curves without weights; with one, each curve gets its own list."""
    entry = """    attacker: [0.1, 1.0, 0.0, 0.0]
    defender: [-0.1, -1.0, 0.0, 0.0]
    battles: 200
    edges: [-1.0, 1.0]
    scenario: abc
"""
    head = "controller: bot\nrevision: 6\nscenarios:\n  s:\n"
    old = read_models(head + entry)["s"]
    assert old.attacker.support == () and old.defender.support == ()
    new = read_models(head + entry + """    support:
      attacker:
        - [defender, "Hidden Mek", -1.25]
      defender: []
""")["s"]
    assert new.attacker.support == ((Side.DEFENDER, "Hidden Mek", -1.25),)
    assert new.defender.support == ()
    assert old.attacker.designs == old.attacker.levels == ()
    meks = read_models(head + entry + """    designs:
      attacker:
        - [attacker, "SAGITARII", 0.5]
      defender: []
    levels:
      attacker: []
      defender:
        - [defender, "Green", -0.25]
""")["s"]
    assert meks.attacker.designs == ((Side.ATTACKER, "SAGITARII", 0.5),)
    assert meks.defender.levels == ((Side.DEFENDER, "Green", -0.25),)
    assert meks.attacker.levels == meks.defender.designs == meks.attacker.support == ()


def test_each_mek_adds_the_weights_of_its_design_and_its_pilots_level() -> None:
    """A curve's design and level weights count once for each of the side's Meks of that
    design or with a pilot of that level; a design or level the fitted battles never saw,
    or another side's, weighs nothing."""
    import math

    model = Model("s", Curve(0.0, 1.0, designs=((Side.ATTACKER, "SAGITARII", 0.25),),
                             levels=((Side.DEFENDER, "Green", -0.5),)),
                  Curve(-1.0, -1.0), 1, "bot", 6, (-3.0, 3.0))
    eight = {(Side.ATTACKER, "SAGITARII"): 8, (Side.DEFENDER, "SAGITARII"): 2}
    green = {(Side.DEFENDER, "Green"): 3, (Side.ATTACKER, "Green"): 8}
    assert from_edge(model, 0.5, 0.0, 0.0, None, eight, green).attacker == pytest.approx(
        1.0 / (1.0 + math.exp(-(0.5 + 8 * 0.25 - 3 * 0.5))))
    unseen = {(Side.ATTACKER, "ODIN"): 4}
    assert from_edge(model, 0.5, 0.0, 0.0, None, unseen, unseen) == from_edge(model, 0.5)


def test_the_estimate_counts_each_sides_designs_and_pilot_levels(catalog: Catalog) -> None:
    """``designs`` and ``levels`` count each side's Meks (not its support vehicles) by
    design and by its pilot's level; ``readings`` holds them and ``estimate`` hands them to
    the curves."""
    forces = {Side.ATTACKER: ForceSpec((mek(catalog, "DRAKEN"), mek(catalog, "DRAKEN", "Green")),
                                       ("Panzer",)),
              Side.DEFENDER: ForceSpec((mek(catalog, "THOR", "Veteran"),), ())}
    assert designs(forces) == {(Side.ATTACKER, "DRAKEN"): 2, (Side.DEFENDER, "THOR"): 1}
    assert levels(forces) == {(Side.ATTACKER, "Regular"): 1, (Side.ATTACKER, "Green"): 1,
                              (Side.DEFENDER, "Veteran"): 1}
    scenario = get_scenario("citadel-campaign")
    r = readings(scenario, forces, catalog)
    assert (r.designs, r.levels, r.rolled) == (designs(forces), levels(forces), rolled(forces))
    model = models()["citadel-campaign"]
    assert estimate(scenario, forces, catalog) == from_edge(
        model, r.edge, r.speed, r.numbers, r.rolled, r.designs, r.levels)
