"""Scenarios as YAML (RULINGS R7.1-R7.3): the six shipped scenarios against the rules text, the
checker's errors on broken files (with lines), malformed documents never crashing it, finding
scenarios by id or path, and the ``meks scenario`` commands."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from campaigns.files.scenario_model import parse_scenario, scenario_json_schema
from campaigns.files.scenarios import (
    builtin_entries,
    builtin_file,
    check_scenario_file,
    get_scenario,
    read_scenario_text,
    user_scenarios_dir,
)
from cli.app import app
from meks.game.catalog import Size
from meks.game.errors import InputError, MeksError
from meks.game.scenario import Placed, Scenario
from meks.game.victory import BattleState, UnitState, judge
from meks.game.vocabulary import Measure, Side

REPO = Path(__file__).resolve().parent.parent
SHIPPED = ["opening-shots", "at-the-hot-gates", "buying-us-some-time", "through-the-breach",
           "head-to-head", "citadel"]
# The built-in campaign's copies of some of them, listed after the six (issue 25).
CAMPAIGN_COPIES = ["opening-shots-campaign", "at-the-hot-gates-campaign",
                   "buying-us-some-time-campaign", "through-the-breach-campaign",
                   "citadel-campaign"]


def run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def shipped_data(scenario_id: str) -> dict[str, Any]:
    data = yaml.safe_load(builtin_file(scenario_id).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


# ---- the six scenarios against the rules text --------------------------------------------

def test_six_scenarios_ship_in_the_order_of_the_rules() -> None:
    ids = [e.scenario.id for e in builtin_entries() if e.scenario is not None]
    assert ids == [*SHIPPED, *CAMPAIGN_COPIES]
    assert all(e.error is None for e in builtin_entries())


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_every_shipped_scenario_passes_scenario_check(runner: CliRunner,
                                                      scenario_id: str) -> None:
    code, out, err = run(runner, "scenario", "check", str(builtin_file(scenario_id)))
    assert (code, err) == (0, "")
    assert "is a valid scenario" in out


# The terrain of the nine zones as the rules list them; None where the rules give none
# (R7.1: all Plains, marked assumed).
TERRAIN = {
    "opening-shots": ["Plains", "Woods", "Urban", "Plains", "Woods", "Woods", "Moors",
                      "Plains", "Plains"],
    "at-the-hot-gates": ["Highlands", "Plains", "Highlands", "Highlands", "Plains",
                         "Highlands", "Woods", "Moors", "Woods"],
    "buying-us-some-time": None,
    "through-the-breach": None,
    "head-to-head": None,
    "citadel": ["Desert", "Desert", "Desert", "Desert", "Urban", "Desert", "Desert", "Desert",
                "Desert"],
}

# (attacker budget, defender budget, budgets assumed?) from each "Companies" line.
BUDGETS = {
    "opening-shots": (30, 30, False),
    "at-the-hot-gates": (50, 50, False),
    "buying-us-some-time": (60, 30, False),
    "through-the-breach": (60, 60, True),
    "head-to-head": (60, 60, False),
    "citadel": (100, 100, False),
}

# (attacker rolls, defender rolls, assumed?)
SUPPORT = {
    "opening-shots": (1, 1, False),
    "at-the-hot-gates": (1, 3, False),
    "buying-us-some-time": (1, 1, True),
    "through-the-breach": (1, 1, True),
    "head-to-head": (1, 1, True),
    "citadel": (1, 1, True),
}

# The set-up zones each side's forces may start in, from the rules' Attacker/Defender lines.
SETUP = {
    "opening-shots": ([7], [1, 2, 3, 4, 5, 6, 8, 9]),
    "at-the-hot-gates": ([2], [1, 3, 4, 5, 6, 7, 8, 9]),
    "buying-us-some-time": ([7, 8, 9], [1, 2, 3, 4, 5, 6]),
    "through-the-breach": ([2], [4, 5, 6, 7, 8, 9]),
    "head-to-head": ([1, 4, 7], [3, 6, 9]),
    "citadel": (None, [5]),
}


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_terrain_of_all_nine_zones_matches_the_rules(scenario_id: str) -> None:
    scenario = get_scenario(scenario_id)
    expected = TERRAIN[scenario_id]
    if expected is None:
        assert [scenario.terrain_of(z) for z in range(1, 10)] == ["Plains"] * 9
        assert "terrain" in scenario.assumptions
    else:
        assert [scenario.terrain_of(z) for z in range(1, 10)] == expected
        assert "terrain" not in scenario.assumptions


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_budgets_match_the_rules_or_the_r7_1_default(scenario_id: str) -> None:
    scenario = get_scenario(scenario_id)
    attacker, defender, assumed = BUDGETS[scenario_id]
    assert (scenario.attacker.budget, scenario.defender.budget) == (attacker, defender)
    for side in ("attacker", "defender"):
        assert (f"{side}.budget" in scenario.assumptions) is assumed


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_support_rolls_match_the_rules_or_the_r4_1_default(scenario_id: str) -> None:
    scenario = get_scenario(scenario_id)
    attacker, defender, assumed = SUPPORT[scenario_id]
    assert (scenario.attacker.support_rolls, scenario.defender.support_rolls) == (attacker,
                                                                                  defender)
    assert ("defender.support_rolls" in scenario.assumptions) is assumed


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_setup_zones_match_the_rules(scenario_id: str) -> None:
    scenario = get_scenario(scenario_id)
    attacker, defender = SETUP[scenario_id]
    for side, zones in ((scenario.attacker, attacker), (scenario.defender, defender)):
        if zones is None:
            assert side.setup is None
        else:
            assert side.setup is not None and sorted(side.setup.zones) == zones


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_turn_limit_is_12_unless_a_condition_needs_fewer_and_is_marked_assumed(
        scenario_id: str) -> None:
    scenario = get_scenario(scenario_id)
    assert scenario.turn_limit == (6 if scenario_id == "citadel" else 12)
    assert "turn_limit" in scenario.assumptions


def test_opening_shots_companies_one_medium_two_light_one_regular_two_green() -> None:
    scenario = get_scenario("opening-shots")
    for side in (scenario.attacker, scenario.defender):
        assert side.composition == {Size.MEDIUM: 1, Size.LIGHT: 2}
        assert side.pilots == {"Regular": 1, "Green": 2}
    rules = scenario.defender.setup.rules if scenario.defender.setup else ()
    assert [(r.at_least, r.kind.value if r.kind else None, r.zones) for r in rules] == [
        (1, "mek", (3,))]


def test_at_the_hot_gates_two_strongpoints_in_zone_8_and_half_the_points_there() -> None:
    scenario = get_scenario("at-the-hot-gates")
    assert [(s.zone, s.count) for s in scenario.defender.strongpoints] == [(8, 2)]
    assert scenario.attacker.strongpoints == ()
    assert scenario.attacker.max_size is Size.HEAVY
    assert scenario.defender.max_size is Size.HEAVY
    rule = scenario.defender.setup.rules[0] if scenario.defender.setup else None
    assert rule is not None
    assert (rule.percent, rule.of, rule.zones) == (50, Measure.POINTS, (8,))
    assert [(e.edge.value, e.zones) for e in scenario.attacker.exits] == [("south", (8,))]


def test_buying_us_some_time_defender_splits_half_and_half_between_the_rows() -> None:
    scenario = get_scenario("buying-us-some-time")
    rules = scenario.defender.setup.rules if scenario.defender.setup else ()
    assert [(r.percent, r.zones) for r in rules] == [(50, (4, 5, 6)), (50, (1, 2, 3))]
    assert scenario.defender.max_size is Size.HEAVY
    assert [(e.edge.value, e.zones) for e in scenario.attacker.exits] == [("north", (1, 2, 3))]


def test_through_the_breach_half_the_defenders_in_one_breach_zone() -> None:
    scenario = get_scenario("through-the-breach")
    breach = scenario.groups(Side.DEFENDER)["breach"]
    assert (breach.percent, breach.zones, breach.same_zone) == (50, (4, 5, 6), True)


def test_head_to_head_heavy_meks_at_most() -> None:
    scenario = get_scenario("head-to-head")
    assert scenario.attacker.max_size is Size.HEAVY is scenario.defender.max_size


def test_citadel_arrival_rolls_4_3_2_then_all_in_zone_3_or_7() -> None:
    arrivals = get_scenario("citadel").attacker.reinforcements
    assert arrivals is not None
    assert arrivals.zones == (3, 7)
    assert arrivals.schedule == {1: 4, 2: 3, 3: 2, 4: "all"}


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_every_assumed_entry_names_a_value(scenario_id: str) -> None:
    data = shipped_data(scenario_id)
    for entry in data["assumed"]:
        node: Any = data
        for part in entry.split("."):
            assert part in node, f"{scenario_id}: {entry}"
            node = node[part]


@pytest.mark.parametrize("scenario_id", SHIPPED)
def test_shipped_files_write_out_every_r7_1_default_they_rely_on(scenario_id: str) -> None:
    assert get_scenario(scenario_id).defaulted == ()


# ---- set-up rules applied to a placement ---------------------------------------------------

def setup_problems(scenario_id: str, side: Side, placed: list[Placed]) -> list[str]:
    rules = get_scenario(scenario_id).side(side)
    assert rules.setup is not None
    return rules.setup.problems(placed, rules.strongpoints)


def test_opening_shots_defender_needs_a_mek_in_zone_3_and_stays_out_of_zone_7() -> None:
    assert setup_problems("opening-shots", Side.DEFENDER,
                          [Placed(3), Placed(5), Placed(9)]) == []
    assert setup_problems("opening-shots", Side.DEFENDER,
                          [Placed(2), Placed(5), Placed(7)]) == [
        "a unit may not start in zone 7 (set-up zones: 1, 2, 3, 4, 5, 6, 8, 9)",
        "the set-up needs at least 1 Mek in zone 3"]


def test_at_the_hot_gates_half_the_defenders_points_in_zone_8() -> None:
    fine = [Placed(8, points=24), Placed(5, points=12), Placed(1, points=12)]
    short = [Placed(8, points=12), Placed(5, points=24), Placed(1, points=12)]
    assert setup_problems("at-the-hot-gates", Side.DEFENDER, fine) == []
    assert setup_problems("at-the-hot-gates", Side.DEFENDER, short) == [
        "the set-up needs at least 50% of the points in zone 8"]


def test_buying_us_some_time_half_the_defenders_in_each_row_rounded_down() -> None:
    assert setup_problems("buying-us-some-time", Side.DEFENDER,
                          [Placed(4), Placed(6), Placed(1), Placed(2)]) == []
    assert setup_problems("buying-us-some-time", Side.DEFENDER,
                          [Placed(4), Placed(6), Placed(1)]) == []
    assert setup_problems("buying-us-some-time", Side.DEFENDER,
                          [Placed(4), Placed(5), Placed(6), Placed(1)]) == [
        "the set-up needs at least 50% of the units in zones 1, 2 and 3"]


def test_through_the_breach_breach_units_share_one_zone() -> None:
    assert setup_problems("through-the-breach", Side.DEFENDER,
                          [Placed(5), Placed(5), Placed(8), Placed(9)]) == []
    assert setup_problems("through-the-breach", Side.DEFENDER,
                          [Placed(4), Placed(5), Placed(8), Placed(9)]) == [
        "the units in zones 4, 5 and 6 must all start in the same zone"]


# ---- defaults (R7.1) ---------------------------------------------------------------------

MINIMAL = {
    "id": "minimal", "name": "Minimal",
    "attacker": {"setup": {"zones": [7]}}, "defender": {"setup": {"zones": [3]}},
    "victory": {"attacker": {"type": "occupy", "side": "attacker", "zone": 3}},
}


def test_r7_1_defaults_fill_in_and_are_reported_as_assumed() -> None:
    scenario = parse_scenario(MINIMAL)
    assert [scenario.terrain_of(z) for z in range(1, 10)] == ["Plains"] * 9
    assert (scenario.attacker.budget, scenario.defender.budget) == (60, 60)
    assert (scenario.attacker.support_rolls, scenario.defender.support_rolls) == (1, 1)
    assert scenario.turn_limit == 12
    assert set(scenario.assumptions) == {
        "terrain", "turn_limit", "attacker.budget", "attacker.support_rolls",
        "defender.budget", "defender.support_rolls", "victory.at_turn_limit"}


def test_r7_1_turn_limit_shortens_to_the_turn_a_condition_needs() -> None:
    data = copy.deepcopy(MINIMAL)
    data["victory"] = {"defender": {"type": "in_zone", "side": "defender", "zone": 3,
                                    "at_turn": 8}}
    assert parse_scenario(data).turn_limit == 8


def test_side_limits_for_the_muster() -> None:
    side = get_scenario("opening-shots").side(Side.ATTACKER)
    assert side.size_problems([Size.MEDIUM, Size.LIGHT, Size.LIGHT]) == []
    assert side.size_problems([Size.MEDIUM, Size.MEDIUM, Size.LIGHT]) != []
    heavy_max = get_scenario("head-to-head").side(Side.DEFENDER)
    assert heavy_max.size_problems([Size.ASSAULT]) == [
        "Assault Meks are larger than allowed (largest: Heavy)"]


# ---- broken files: clear errors with lines -----------------------------------------------

OPENING = (REPO / "campaigns" / "files" / "scenarios" / "1-opening-shots.yaml").read_text("utf-8")


def problems_in(text: str) -> list[str]:
    with pytest.raises(InputError) as caught:
        read_scenario_text(text, "broken.yaml")
    assert caught.value.source == "broken.yaml"
    return list(caught.value.problems)


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_yaml_syntax_error_names_the_line() -> None:
    text = OPENING.replace("  budget: 30\n", "  budget: [30\n", 1)
    (problem,) = problems_in(text)
    assert problem.startswith("line ")


def test_unknown_key_names_the_nearest_valid_key_and_its_line() -> None:
    text = OPENING.replace("  budget: 30\n", "  budgt: 30\n", 1)
    (problem,) = problems_in(text)
    assert problem == (f"line {line_of(text, 'budgt')} (attacker.budgt): unknown key 'budgt' "
                       "(did you mean 'budget'?); remove it or correct its spelling")


def test_unknown_key_in_a_condition_names_the_nearest_valid_key() -> None:
    text = OPENING.replace("        zone: 3\n", "        zoen: 3\n", 1)
    problems = problems_in(text)
    assert any("unknown key 'zoen' (did you mean 'zone'?)" in p for p in problems)


def test_zone_10_is_off_the_map() -> None:
    text = OPENING.replace("    zones: [7]\n", "    zones: [10]\n", 1)
    (problem,) = problems_in(text)
    assert problem == (f"line {line_of(text, 'zones: [10]')} (attacker.setup.zones[0]): "
                       "zone 10 is not on the map: the zones are numbered 1 to 9")


def test_unknown_terrain_is_named_with_its_line() -> None:
    text = OPENING.replace("  3: Urban\n", "  3: Swamp\n", 1)
    (problem,) = problems_in(text)
    assert problem.startswith(f"line {line_of(text, 'Swamp')} (terrain[3]): unknown terrain "
                              "'Swamp'")


def test_condition_naming_no_side_is_refused() -> None:
    text = OPENING.replace("      - type: occupy\n        side: attacker\n",
                           "      - type: occupy\n", 1)
    (problem,) = problems_in(text)
    assert problem.startswith(f"line {line_of(text, 'type: occupy')} "
                              "(victory.attacker.any[0]): this condition names no side")


def test_victory_conditions_not_under_a_side_are_refused() -> None:
    data = copy.deepcopy(MINIMAL)
    data["victory"] = {"type": "occupy", "side": "attacker", "zone": 3}
    (problem,) = problems_in(yaml.safe_dump(data))
    assert "victory conditions name no side" in problem


def test_python_object_tag_is_refused_by_the_safe_loader() -> None:
    text = OPENING.replace("name: Opening Shots", "name: !!python/object:os.system shots", 1)
    (problem,) = problems_in(text)
    assert problem.startswith(f"line {line_of(text, 'python/object')},")
    assert "tags are not" in problem


def test_percent_over_100_is_impossible() -> None:
    text = shipped_text("at-the-hot-gates").replace("percent: 50\n        of: points",
                                                    "percent: 150\n        of: points")
    (problem,) = problems_in(text)
    assert "150% is more than 100%" in problem


def test_setup_rule_outside_the_setup_zones_is_impossible() -> None:
    text = OPENING.replace("    zones: [1, 2, 3, 4, 5, 6, 8, 9]\n", "    zones: [1, 2]\n", 1)
    (problem,) = problems_in(text)
    assert problem.endswith("(defender.setup.rules[0].zones): zone 3 is not among the "
                            "side's set-up zones (zones 1 and 2)")


def test_shares_in_separate_zones_over_100_percent_are_impossible() -> None:
    text = shipped_text("buying-us-some-time").replace("- percent: 50\n        zones: [1, 2, 3]",
                                                       "- percent: 60\n        zones: [1, 2, 3]")
    (problem,) = problems_in(text)
    assert "50% + 60%" in problem and "more than 100%" in problem


def test_composition_that_cannot_fit_the_budget_with_the_cheapest_stock_meks() -> None:
    text = OPENING.replace("  budget: 30\n", "  budget: 25\n", 1)
    (problem,) = problems_in(text)
    assert problem == (f"line {line_of(text, 'composition')} (attacker.composition): even "
                       "the cheapest stock Meks of these sizes cost 30 points (1 x VIPER (12), "
                       "2 x WASP (9)), more than the budget of 25")


def test_exit_condition_across_an_edge_the_side_may_not_cross() -> None:
    text = shipped_text("at-the-hot-gates").replace("    edge: south\n    from_zones: [8]\n"
                                                    "    percent", "    edge: north\n"
                                                    "    percent")
    (problem,) = problems_in(text)
    assert "may not leave across the north edge" in problem


def test_exit_from_a_zone_not_on_the_edge() -> None:
    text = shipped_text("at-the-hot-gates").replace("      from_zones: [8]",
                                                    "      from_zones: [5]")
    problems = problems_in(text)
    assert any("(attacker.exits[0].from_zones): zone 5 is not on the south edge" in p
               for p in problems)


def test_arrivals_that_never_finish_are_impossible() -> None:
    text = shipped_text("citadel").replace("      4: all\n", "")
    (problem,) = problems_in(text)
    assert "would never arrive" in problem


def test_group_that_no_setup_rule_names() -> None:
    text = shipped_text("through-the-breach").replace("zone_of_group: breach",
                                                      "zone_of_group: brech")
    (problem,) = problems_in(text)
    assert "no group called 'brech'" in problem and "did you mean 'breach'?" in problem


def test_assumed_entry_that_names_no_value() -> None:
    text = OPENING.replace("  - turn_limit\n", "  - turn_limt\n", 1)
    (problem,) = problems_in(text)
    assert "'turn_limt' names no value in this scenario (did you mean 'turn_limit'?)" in problem


def test_true_or_false_is_not_a_number() -> None:
    text = OPENING.replace("  budget: 30\n", "  budget: true\n", 1)
    (problem,) = problems_in(text)
    assert "attacker.budget" in problem and "expected a whole number, found true" in problem


@pytest.mark.parametrize("defender", [
    {"not": {"type": "in_zone", "side": "attacker", "zone": 3, "at_turn": 5}},
    {"type": "never_occupied", "side": "attacker", "zone": 3},
    {"type": "keep_units", "side": "defender"},
    {"any": [{"type": "destroy_all", "side": "defender"},
             {"not": {"type": "hold", "side": "attacker", "zone": 3, "turns": 2}}]},
])
def test_r7_2_a_condition_that_holds_before_anything_happens_is_refused(
        defender: dict[str, Any]) -> None:
    data = copy.deepcopy(MINIMAL)
    data["victory"]["defender"] = defender
    (problem,) = problems_in(yaml.safe_dump(data, sort_keys=False))
    where = "victory.defender.any[1]" if "any" in defender else "victory.defender"
    assert f"({where}): this holds before either side has done anything, so it would end " \
           "the battle at the end of turn 1" in problem
    assert "put it under 'all' together with '- type: turn_limit'" in problem
    data["victory"]["defender"] = {"all": [{"type": "turn_limit"}, defender]}
    assert parse_scenario(data).victory.defender is not None


def test_r7_2_a_condition_that_depends_on_the_set_up_is_not_refused() -> None:
    data = copy.deepcopy(MINIMAL)
    data["victory"]["defender"] = {"type": "never_occupied", "side": "defender", "zone": 3}
    assert parse_scenario(data).victory.defender is not None


def test_scenario_check_names_a_condition_that_holds_at_once(runner: CliRunner,
                                                             tmp_path: Path) -> None:
    data = copy.deepcopy(MINIMAL)
    data["victory"]["defender"] = {"type": "never_occupied", "side": "attacker", "zone": 3}
    path = tmp_path / "early.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    code, _, err = run(runner, "scenario", "check", str(path))
    assert code == 2 and "would end the battle at the end of turn 1" in err
    assert "Traceback" not in err


def test_every_problem_is_listed_not_just_the_first() -> None:
    text = OPENING.replace("  3: Urban\n", "  3: Swamp\n").replace("    zones: [7]\n",
                                                                   "    zones: [0]\n")
    assert len(problems_in(text)) == 2


def test_file_that_is_not_a_mapping_or_is_empty() -> None:
    assert problems_in("- 1\n- 2\n") == ["line 1: a scenario file must be a mapping of keys to "
                                         "values, not a list"]
    assert problems_in("# nothing\n") == ["the file is empty"]


def shipped_text(scenario_id: str) -> str:
    return builtin_file(scenario_id).read_text(encoding="utf-8")


# ---- malformed documents never crash the checker -----------------------------------------

LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 20), st.integers(-10**12, 10**12),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["attacker", "defender", "all", "north", "mek", "Plains", "Heavy",
                     "breach", "occupy", "hold", "exit", "points", "draw", "Regular"]),
    st.lists(st.integers(-2, 12), max_size=4),
    st.dictionaries(st.text(max_size=6), st.integers(0, 9), max_size=3),
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*path, i))
    return out


def _mutate(data: Any, draw: st.DrawFn) -> Any:
    paths = _paths(data)
    path = draw(st.sampled_from(paths))
    action = draw(st.sampled_from(["delete", "replace", "extra", "wrap"]))
    if not path:
        return draw(LEAVES) if action == "replace" else data
    parent = data
    for seg in path[:-1]:
        parent = parent[seg]
    last = path[-1]
    if action == "delete":
        del parent[last]
    elif action == "replace":
        parent[last] = draw(LEAVES)
    elif action == "wrap":
        parent[last] = [parent[last]]
    else:
        target = parent[last]
        if isinstance(target, dict):
            target[draw(st.sampled_from(["type", "side", "zone", "all", "any", "not", "extra",
                                         "zones", "percent", "group"]))] = draw(LEAVES)
        elif isinstance(target, list):
            target.append(draw(LEAVES))
        else:
            parent[last] = {"value": target}
    return data


@st.composite
def malformed(draw: st.DrawFn) -> Any:
    data: Any = copy.deepcopy(_SHIPPED_DATA[draw(st.sampled_from(SHIPPED))])
    for _ in range(draw(st.integers(1, 4))):
        data = _mutate(data, draw)
    return data


_SHIPPED_DATA = {sid: shipped_data(sid) for sid in SHIPPED}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(malformed())
def test_malformed_documents_get_input_errors_never_a_crash(data: Any) -> None:
    text = yaml.safe_dump(data, allow_unicode=True)
    try:
        scenario = read_scenario_text(text, "mutant.yaml")
    except InputError as exc:
        assert exc.problems
        assert all(isinstance(p, str) and p for p in exc.problems)
        return
    assert isinstance(scenario, Scenario)
    # A document that passes the checker can be judged at once.
    view = BattleState(turn=1, attacker=(UnitState("a", zone=7),),
                       defender=(UnitState("d", zone=3),))
    judge(scenario, view)


# ---- finding scenarios -------------------------------------------------------------------

def test_get_scenario_by_id_by_name_and_by_path() -> None:
    assert get_scenario("citadel").name == "Citadel"
    assert get_scenario("Through the Breach!").id == "through-the-breach"
    assert get_scenario(str(builtin_file("head-to-head"))).id == "head-to-head"


def test_unknown_scenario_id_suggests_the_nearest() -> None:
    with pytest.raises(MeksError, match="Did you mean 'citadel'"):
        get_scenario("citadell")


def write_user_scenario(name: str, text: str) -> Path:
    folder = user_scenarios_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_user_scenarios_folder_follows_the_environment_variable(tmp_path: Path) -> None:
    assert user_scenarios_dir() == tmp_path / "user-scenarios"


def test_user_scenarios_folder_sits_beside_the_database_and_keeps_an_earlier_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the variable the folder is in the user's data folder named without an app
    author, as the database's is; where the app author adds a level (Windows), a folder
    made there before is kept in use rather than left behind."""
    import platformdirs

    from campaigns.files.scenarios import ENV_DIR

    monkeypatch.delenv(ENV_DIR, raising=False)

    def windows_like(appname: str, appauthor: object = None) -> str:
        base = tmp_path / appname
        return str(base if appauthor is False else base / appname)

    monkeypatch.setattr(platformdirs, "user_data_dir", windows_like)
    assert user_scenarios_dir() == tmp_path / "meks" / "scenarios"
    (tmp_path / "meks" / "meks" / "scenarios").mkdir(parents=True)
    assert user_scenarios_dir() == tmp_path / "meks" / "meks" / "scenarios"
    (tmp_path / "meks" / "scenarios").mkdir()
    assert user_scenarios_dir() == tmp_path / "meks" / "scenarios"


def test_user_scenario_is_found_by_id() -> None:
    write_user_scenario("mine.yaml", yaml.safe_dump({**MINIMAL, "id": "my-own"}))
    assert get_scenario("my-own").name == "Minimal"


def test_user_scenario_ending_in_yml_is_found_too() -> None:
    write_user_scenario("mine.YML", yaml.safe_dump({**MINIMAL, "id": "my-own"}))
    write_user_scenario("notes.txt", "not a scenario")
    assert get_scenario("my-own").name == "Minimal"


def test_a_scenarios_folder_that_is_a_file_is_said_so(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MEKS_SCENARIOS_DIR naming a file is bad usage in one sentence, not an empty folder
    that leaves the player's scenarios out without a word."""
    (tmp_path / "a-file").write_text("x")
    monkeypatch.setenv("MEKS_SCENARIOS_DIR", str(tmp_path / "a-file"))
    code, out, err = run(runner, "scenario", "list")
    assert (code, out) == (2, "")
    assert "is a file, not a folder; point MEKS_SCENARIOS_DIR at a folder" in " ".join(
        err.split())
    assert "Traceback" not in err


# ---- the commands ------------------------------------------------------------------------

def test_scenario_list_shows_builtin_and_user_scenarios(runner: CliRunner) -> None:
    write_user_scenario("mine.yaml", yaml.safe_dump({**MINIMAL, "id": "my-own"}))
    code, out, err = run(runner, "scenario", "list")
    assert (code, err) == (0, "")
    for scenario_id in [*SHIPPED, "my-own"]:
        assert scenario_id in out


def test_scenario_list_json(runner: CliRunner) -> None:
    write_user_scenario("mine.yaml", yaml.safe_dump({**MINIMAL, "id": "my-own"}))
    code, out, _ = run(runner, "scenario", "list", "--json")
    assert code == 0
    listed = {s["id"]: s for s in json.loads(out)}
    assert list(listed) == [*SHIPPED, *CAMPAIGN_COPIES, "my-own"]
    assert listed["citadel"]["origin"] == "built-in"
    assert listed["my-own"]["origin"] == "user"
    assert listed["buying-us-some-time"]["defender_budget"] == 30
    root = Path(__file__).resolve().parent.parent
    for scenario_id in [*SHIPPED, *CAMPAIGN_COPIES]:  # a built-in's file is where it lies
        assert (root / listed[scenario_id]["file"]).is_file(), listed[scenario_id]["file"]


def test_scenario_list_reports_a_broken_user_file_and_lists_the_rest(
        runner: CliRunner) -> None:
    write_user_scenario("broken.yaml", "id: broken\nname: [\n")
    write_user_scenario("clash.yaml", yaml.safe_dump({**MINIMAL, "id": "citadel"}))
    code, out, err = run(runner, "scenario", "list")
    assert code == 0
    assert "citadel" in out
    assert "broken.yaml was left out: line" in err
    assert "already used by" in err


def test_scenario_check_agrees_with_list_about_a_taken_id(runner: CliRunner,
                                                          tmp_path: Path) -> None:
    clash = yaml.safe_dump({**MINIMAL, "id": "citadel"})
    path = write_user_scenario("clash.yaml", clash)
    code, _, err = run(runner, "scenario", "check", str(path))
    assert code == 2 and "already used by" in err  # left out of the list: not valid there
    write_user_scenario("mine.yaml", yaml.safe_dump({**MINIMAL, "id": "mine"}))
    elsewhere = tmp_path / "elsewhere.yaml"
    elsewhere.write_text(yaml.safe_dump({**MINIMAL, "id": "mine", "name": "Draft"}))
    code, out, _ = run(runner, "scenario", "check", str(elsewhere))
    assert code == 0 and "would be left out" in " ".join(out.split())
    code, out, _ = run(runner, "scenario", "check", "citadel")
    assert code == 0 and "Note" not in out  # a built-in is no clash with itself


def test_a_file_with_a_built_in_id_is_refused_unless_it_is_the_built_in(
        runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "elsewhere.yaml"
    path.write_text(yaml.safe_dump({**MINIMAL, "id": "citadel"}, sort_keys=False))
    expected = ("line 1 (id): the id 'citadel' belongs to the built-in scenario Citadel; give "
                "this file an id of its own")
    code, _, err = run(runner, "scenario", "check", str(path))
    assert code == 2 and expected in " ".join(err.split())
    with pytest.raises(InputError) as caught:
        get_scenario(str(path))
    assert caught.value.problems == (expected,)
    path.write_text(builtin_file("citadel").read_text(encoding="utf-8"))  # its own copy
    assert get_scenario(str(path)) == get_scenario("citadel")


def test_scenario_show_draws_briefing_forces_and_map(runner: CliRunner) -> None:
    code, out, err = run(runner, "scenario", "show", "at-the-hot-gates")
    assert (code, err) == (0, "")
    for text in ("A pass between highlands", "Budget", "50 points", "Map", "8 Moors",
                 "2 strongpoints", "Attacker sets up", "Assumed"):
        assert text in out
    assert re.search(r"1 Highlands.*2 Plains.*3 Highlands", out)


def test_scenario_show_accepts_a_file_path(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "river.yaml"
    path.write_text(yaml.safe_dump({**MINIMAL, "id": "river", "name": "River"}), "utf-8")
    code, out, _ = run(runner, "scenario", "show", str(path))
    assert code == 0 and "River (river)" in out


def test_scenario_show_json(runner: CliRunner) -> None:
    code, out, _ = run(runner, "scenario", "show", "citadel", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["terrain"]["5"] == "Urban"
    assert data["attacker"]["reinforcements"]["schedule"] == {"1": 4, "2": 3, "3": 2,
                                                              "4": "all"}
    assert "turn_limit" in data["assumed"]


def test_scenario_show_unknown_id_exits_1_without_traceback(runner: CliRunner) -> None:
    code, out, err = run(runner, "scenario", "show", "citadell")
    assert code == 1
    assert "No scenario is called 'citadell'" in err and "Traceback" not in err + out


def test_scenario_check_exit_2_names_file_line_and_reason(runner: CliRunner,
                                                          tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(OPENING.replace("  budget: 30\n", "  budgt: 30\n", 1)
                    .replace("  3: Urban\n", "  3: Swamp\n"), "utf-8")
    code, out, err = run(runner, "scenario", "check", str(path))
    assert code == 2 and out == ""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 2
    assert all(line.startswith(f"Error: {path}: line ") for line in lines)
    assert "unknown terrain 'Swamp'" in err and "did you mean 'budget'?" in err


def test_scenario_check_json_gives_the_scenario_or_its_problems(runner: CliRunner,
                                                                tmp_path: Path) -> None:
    """--json: a valid file as 'scenario show --json' gives it, with "valid" and the house
    rules it changes; an invalid one its problems, each with its line, exit 2 as without."""
    code, out, _ = run(runner, "scenario", "check", "citadel", "--json")
    shown = json.loads(run(runner, "scenario", "show", "citadel", "--json")[1])
    data = json.loads(out)
    assert code == 0 and data["valid"] is True
    for key in ("id", "name", "turn_limit", "attacker", "defender", "victory", "house_rules"):
        assert data[key] == shown[key], key
    assert isinstance(data["house_rules_changed"], list)
    path = tmp_path / "bad.yaml"
    path.write_text(OPENING.replace("  budget: 30\n", "  budgt: 30\n", 1), "utf-8")
    code, out, err = run(runner, "scenario", "check", str(path), "--json")
    data = json.loads(out)
    assert code == 2 and data["valid"] is False and err == ""
    assert data["file"] == str(path) and any("did you mean 'budget'?" in p and
                                             p.startswith("line ") for p in data["problems"])


def test_scenario_check_accepts_an_id(runner: CliRunner) -> None:
    write_user_scenario("mine.yaml", yaml.safe_dump({**MINIMAL, "id": "my-own"}))
    for scenario_id in ("my-own", "citadel"):
        code, out, _ = run(runner, "scenario", "check", scenario_id)
        assert code == 0 and f"({scenario_id}) is a valid scenario" in out


def test_scenario_check_missing_file_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    code, _, err = run(runner, "scenario", "check", str(tmp_path / "nope.yaml"))
    assert code == 2 and "no such file" in err


def test_scenario_schema_is_valid_json_schema_and_accepts_every_shipped_file(
        runner: CliRunner) -> None:
    code, out, _ = run(runner, "scenario", "schema")
    assert code == 0
    schema = json.loads(out)
    assert schema == json.loads(json.dumps(scenario_json_schema()))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for scenario_id in SHIPPED:
        as_json = json.loads(json.dumps(shipped_data(scenario_id)))
        assert list(validator.iter_errors(as_json)) == [], scenario_id


def test_scenario_schema_takes_names_in_any_case_as_the_checker_does(tmp_path: Path) -> None:
    validator = jsonschema.Draft202012Validator(scenario_json_schema())
    data = json.loads(json.dumps(shipped_data("head-to-head")))
    data["attacker"]["max_size"] = "assault"
    data["victory"]["attacker"] = {"type": "last_standing", "side": "ATTACKER"}
    assert list(validator.iter_errors(data)) == []
    path = tmp_path / "cases.yaml"
    path.write_text(yaml.safe_dump({**data, "id": "cases"}))
    assert check_scenario_file(path).scenario.side(Side.ATTACKER).max_size is Size.ASSAULT
    data["attacker"]["max_size"] = "assaults"
    assert list(validator.iter_errors(data)) != []


def test_docs_example_scenario_passes_check(tmp_path: Path) -> None:
    doc = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", doc, flags=re.S)
    example = max(blocks, key=len)
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    summary = check_scenario_file(path)
    assert summary.scenario.id not in SHIPPED


def test_help_does_not_import_pydantic() -> None:
    snippet = ("import sys\nsys.argv = ['meks', '--help']\nimport cli.app\n"
               "try:\n    cli.app.main()\nexcept SystemExit:\n    pass\n"
               "print('@@', 'pydantic' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", snippet], cwd=REPO, capture_output=True,
                          text=True, timeout=30, check=True)
    assert proc.stdout.strip().endswith("@@ False")
