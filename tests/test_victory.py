"""Victory evaluation (RULINGS R7.2, R7.3): every condition kind on hand-built battle states,
how a battle is judged (draws, the turn limit, a side with nothing left), and win, loss and
undecided cases for each of the six shipped scenarios."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from campaigns.files.scenario_model import parse_condition
from campaigns.files.scenarios import get_scenario
from meks.game.scenario import Scenario
from meks.game.victory import BattleState, BattleView, Outcome, UnitState, holds, judge, spent
from meks.game.vocabulary import Edge, Side, UnitKind

A, D = Side.ATTACKER, Side.DEFENDER
MEK, VEHICLE, INFANTRY = UnitKind.MEK, UnitKind.VEHICLE, UnitKind.INFANTRY


def unit(name: str, zone: int | None = None, kind: UnitKind = MEK, **facts: Any) -> UnitState:
    return UnitState(id=name, kind=kind, zone=zone, **facts)


def dead(name: str, turn: int, kind: UnitKind = MEK, **facts: Any) -> UnitState:
    return UnitState(id=name, kind=kind, zone=None, destroyed_turn=turn, **facts)


def gone(name: str, turn: int, edge: Edge, zone: int, kind: UnitKind = MEK,
         **facts: Any) -> UnitState:
    return UnitState(id=name, kind=kind, zone=None, exited_turn=turn, exit_edge=edge,
                     exit_zone=zone, **facts)


def battle(turn: int, attacker: Iterable[UnitState] = (), defender: Iterable[UnitState] = (),
           history: Iterable[Mapping[Side, Iterable[int]]] = ()) -> BattleState:
    """``history`` lists, for turns 1, 2, ... before ``turn``, the zones each side was in."""
    return BattleState(turn=turn, attacker=tuple(attacker), defender=tuple(defender),
                       history=tuple({side: frozenset(zones) for side, zones in h.items()}
                                     for h in history))


def check(condition: dict[str, Any], view: BattleView, turn_limit: int = 12) -> bool:
    return holds(parse_condition(condition), view, turn_limit)


# ---- occupy: a unit there and no enemy at the end of the turn (R7.2) ---------------------

OCCUPY_3 = {"type": "occupy", "side": "attacker", "zone": 3}


def test_occupy_needs_own_unit_and_no_enemy_in_zone() -> None:
    assert check(OCCUPY_3, battle(4, [unit("a", 3)], [unit("d", 5)]))


def test_occupy_fails_while_enemy_in_zone() -> None:
    assert not check(OCCUPY_3, battle(4, [unit("a", 3)], [unit("d", 3)]))


def test_occupy_fails_without_own_unit_in_zone() -> None:
    assert not check(OCCUPY_3, battle(4, [unit("a", 2)], []))


def test_occupy_zone_of_group_is_where_that_group_set_up() -> None:
    condition = {"type": "occupy", "side": "attacker", "zone_of_group": "breach"}
    defenders = [dead("d1", 2, group="breach", setup_zone=6), unit("d2", 8, setup_zone=8)]
    assert check(condition, battle(3, [unit("a", 6)], defenders))
    assert not check(condition, battle(3, [unit("a", 5)], defenders))


# ---- never occupied ----------------------------------------------------------------------

NEVER_3 = {"type": "never_occupied", "side": "attacker", "zone": 3}


def test_never_occupied_holds_when_zone_was_only_ever_contested() -> None:
    history = [{A: {7}, D: {3}}, {A: {3}, D: {3}}]
    assert check(NEVER_3, battle(3, [unit("a", 3)], [unit("d", 3)], history))


def test_never_occupied_fails_once_zone_was_occupied_in_an_earlier_turn() -> None:
    history = [{A: {7}, D: {3}}, {A: {3}, D: set()}]
    assert not check(NEVER_3, battle(3, [unit("a", 2)], [unit("d", 3)], history))


def test_never_occupied_fails_when_occupied_now() -> None:
    assert not check(NEVER_3, battle(1, [unit("a", 3)], [unit("d", 5)]))


# ---- hold for N consecutive turns --------------------------------------------------------

HOLD_5 = {"type": "hold", "side": "attacker", "zone": 5, "turns": 3}


def test_hold_needs_the_zone_occupied_at_the_end_of_n_consecutive_turns() -> None:
    history = [{A: {2}}, {A: {5}}, {A: {5}}]
    assert check(HOLD_5, battle(4, [unit("a", 5)], [], history))


def test_hold_fails_after_a_gap() -> None:
    history = [{A: {5}}, {A: {5}, D: {5}}, {A: {5}}]
    assert not check(HOLD_5, battle(4, [unit("a", 5)], [unit("d", 9)], history))


def test_hold_fails_before_enough_turns_have_passed() -> None:
    assert not check(HOLD_5, battle(2, [unit("a", 5)], [], [{A: {5}}]))


def test_hold_after_condition_counts_only_from_the_turn_it_first_held() -> None:
    condition = {**HOLD_5, "after": {"type": "destroy_all", "side": "attacker",
                                     "group": "breach"}}
    defenders = [dead("d1", 3, group="breach", setup_zone=5), unit("d2", 8)]
    history = [{A: {2}, D: {5, 8}}, {A: {5}, D: {5, 8}}, {A: {5}, D: {8}}, {A: {5}, D: {8}}]
    # Turns 3, 4, 5 held; the breach fell in turn 3: met at the end of turn 5.
    assert check(condition, battle(5, [unit("a", 5)], defenders, history))
    # At the end of turn 4 only turns 3 and 4 count.
    assert not check(condition, battle(4, [unit("a", 5)], defenders, history[:3]))


# ---- destroy all -------------------------------------------------------------------------

def test_destroy_all_meks_ignores_enemy_vehicles() -> None:
    condition = {"type": "destroy_all", "side": "attacker", "kind": "mek"}
    defenders = [dead("d1", 2), dead("d2", 3), unit("sled", 4, VEHICLE)]
    assert check(condition, battle(3, [unit("a", 1)], defenders))


def test_destroy_all_units_counts_vehicles_and_infantry() -> None:
    condition = {"type": "destroy_all", "side": "attacker"}
    defenders = [dead("d1", 2), unit("inf", 8, INFANTRY)]
    assert not check(condition, battle(3, [unit("a", 1)], defenders))
    defenders = [dead("d1", 2), dead("inf", 3, INFANTRY)]
    assert check(condition, battle(3, [unit("a", 1)], defenders))


def test_destroy_all_fails_while_one_enemy_mek_fights_on() -> None:
    condition = {"type": "destroy_all", "side": "defender", "kind": "mek"}
    assert not check(condition, battle(3, [dead("a1", 1), unit("a2", 4)], [unit("d", 3)]))


def test_destroy_all_needs_at_least_one_target() -> None:
    condition = {"type": "destroy_all", "side": "attacker", "kind": "vehicle"}
    assert not check(condition, battle(3, [unit("a", 1)], [unit("d", 3)]))


def test_destroy_all_of_a_group_ignores_the_rest() -> None:
    condition = {"type": "destroy_all", "side": "attacker", "group": "breach"}
    defenders = [dead("d1", 2, group="breach"), unit("d2", 8)]
    assert check(condition, battle(3, [unit("a", 5)], defenders))


# ---- exit a share of the force -----------------------------------------------------------

EXIT_HALF = {"type": "exit", "side": "attacker", "kind": "mek", "edge": "south",
             "from_zones": [8], "percent": 50}


def test_exit_counts_units_that_left_across_the_edge_from_the_zones() -> None:
    attackers = [gone("a1", 5, Edge.SOUTH, 8), gone("a2", 6, Edge.SOUTH, 8), unit("a3", 5),
                 dead("a4", 3)]
    assert check(EXIT_HALF, battle(6, attackers))


def test_exit_below_the_share_fails() -> None:
    attackers = [gone("a1", 5, Edge.SOUTH, 8), unit("a2", 5), unit("a3", 5), dead("a4", 3)]
    assert not check(EXIT_HALF, battle(6, attackers))


def test_exit_from_another_zone_or_edge_does_not_count() -> None:
    attackers = [gone("a1", 5, Edge.SOUTH, 8), gone("a2", 5, Edge.SOUTH, 7),
                 gone("a3", 5, Edge.EAST, 9), unit("a4", 5)]
    assert not check(EXIT_HALF, battle(6, attackers))


def test_exit_by_count_and_by_points() -> None:
    attackers = [gone("a1", 5, Edge.NORTH, 2, points=24), unit("a2", 5, points=9),
                 unit("a3", 5, points=9)]
    by_count = {"type": "exit", "side": "attacker", "edge": "north", "count": 1}
    by_points = {"type": "exit", "side": "attacker", "edge": "north", "percent": 55,
                 "of": "points"}
    assert check(by_count, battle(6, attackers))
    assert check(by_points, battle(6, attackers))  # 24 of 42 points = 57%


# ---- keep units, last standing, unit in zone at the end of turn N, turn limit ------------

def test_keep_units_counts_units_still_fighting_and_still_to_arrive() -> None:
    condition = {"type": "keep_units", "side": "defender", "count": 2}
    defenders = [unit("d1", 3), unit("waiting"), dead("d3", 2), gone("d4", 2, Edge.EAST, 3)]
    assert check(condition, battle(3, [], defenders))
    assert not check(condition, battle(3, [], defenders[:1] + defenders[2:]))


def test_last_standing_needs_own_mek_and_no_enemy_mek() -> None:
    condition = {"type": "last_standing", "side": "attacker", "kind": "mek"}
    assert check(condition, battle(5, [unit("a", 2)], [dead("d", 5), unit("sled", 6, VEHICLE)]))
    assert not check(condition, battle(5, [dead("a", 5)], [dead("d", 5)]))
    assert not check(condition, battle(5, [unit("a", 2)], [unit("d", 6)]))


def test_in_zone_at_end_of_turn_n_ignores_enemies_in_the_zone() -> None:
    condition = {"type": "in_zone", "side": "defender", "zone": 5, "at_turn": 6}
    assert check(condition, battle(6, [unit("a", 5)], [unit("d", 5)]))
    assert not check(condition, battle(5, [unit("a", 4)], [unit("d", 5)]))
    assert not check(condition, battle(6, [unit("a", 5)], [unit("d", 4)]))


def test_in_zone_looks_back_at_turn_n() -> None:
    condition = {"type": "in_zone", "side": "defender", "zone": 5, "at_turn": 2}
    history = [{D: {5}}, {D: {5}}]
    assert check(condition, battle(3, [], [unit("d", 6)], history))


def test_turn_limit_holds_once_the_last_turn_ends() -> None:
    assert check({"type": "turn_limit"}, battle(12), turn_limit=12)
    assert not check({"type": "turn_limit"}, battle(11), turn_limit=12)


# ---- combinators -------------------------------------------------------------------------

def test_all_any_not_combine_conditions() -> None:
    view = battle(4, [unit("a", 3)], [unit("d", 5)])
    occupy, never = OCCUPY_3, NEVER_3
    assert check({"all": [occupy, {"type": "keep_units", "side": "attacker"}]}, view)
    assert not check({"all": [occupy, never]}, view)
    assert check({"any": [never, occupy]}, view)
    assert not check({"any": [never, {"not": occupy}]}, view)
    assert check({"not": never}, view)


# ---- judging a battle --------------------------------------------------------------------

def _scenario(victory: dict[str, Any], turn_limit: int = 12) -> Scenario:
    from campaigns.files.scenario_model import parse_scenario

    return parse_scenario({
        "id": "test", "name": "Test", "turn_limit": turn_limit,
        "attacker": {"setup": {"zones": [7]}}, "defender": {"setup": {"zones": [3]}},
        "victory": victory,
    })


def test_both_sides_meeting_their_conditions_at_once_is_a_draw() -> None:
    scenario = _scenario({"attacker": {"type": "destroy_all", "side": "attacker"},
                          "defender": {"type": "destroy_all", "side": "defender"}})
    verdict = judge(scenario, battle(4, [dead("a", 4)], [dead("d", 4)]))
    assert verdict.outcome is Outcome.DRAW


def test_turn_limit_result_applies_when_no_condition_holds() -> None:
    scenario = _scenario({"attacker": OCCUPY_3, "at_turn_limit": "defender"}, turn_limit=8)
    assert judge(scenario, battle(7, [unit("a", 2)], [unit("d", 3)])).outcome \
        is Outcome.UNDECIDED
    verdict = judge(scenario, battle(8, [unit("a", 2)], [unit("d", 3)]))
    assert verdict.outcome is Outcome.DEFENDER_WINS
    assert "last turn (8)" in verdict.reason


def test_side_with_nothing_left_ends_the_battle_early() -> None:
    scenario = _scenario({"attacker": OCCUPY_3, "at_turn_limit": "defender"})
    view = battle(3, [dead("a", 3)], [unit("d", 3)])
    assert spent(view, A) and not spent(view, D)
    verdict = judge(scenario, view)
    assert verdict.outcome is Outcome.DEFENDER_WINS
    assert verdict.reason == ("the attacker has nothing left in the fight after turn 3, so the "
                              "battle is judged as it would stand at the turn limit: neither "
                              "side can meet its conditions; the scenario gives that to the "
                              "defender")


def test_a_battle_ended_early_reads_as_it_did_before_engine_revision_15() -> None:
    """Replays of battles stored under earlier revisions keep their last line."""
    scenario = _scenario({"attacker": OCCUPY_3, "at_turn_limit": "defender"})
    verdict = judge(scenario, battle(3, [dead("a", 3)], [unit("d", 3)]),
                    played_out_words=False)
    assert verdict.reason == ("the attacker has nothing left in the fight after turn 3; neither "
                              "side can meet its conditions; the scenario gives that to the "
                              "defender")


def test_units_still_to_arrive_keep_a_side_in_the_fight() -> None:
    view = battle(1, [dead("a1", 1), unit("reserve")], [unit("d", 5)])
    assert not spent(view, A)


# ---- the six scenarios -------------------------------------------------------------------

def outcome(scenario_id: str, view: BattleView) -> Outcome:
    return judge(get_scenario(scenario_id), view).outcome


OPENING_ATTACKERS = [unit("medium", 7), unit("light1", 7), unit("light2", 7)]


def test_opening_shots_attacker_wins_by_occupying_zone_3() -> None:
    attackers = [unit("medium", 3), unit("light1", 2), unit("light2", 6)]
    defenders = [dead("d1", 4), unit("d2", 6), unit("d3", 2)]
    assert outcome("opening-shots", battle(4, attackers, defenders)) is Outcome.ATTACKER_WINS


def test_opening_shots_contested_zone_3_is_undecided() -> None:
    attackers = [unit("medium", 3), unit("light1", 7), unit("light2", 7)]
    defenders = [unit("d1", 3), unit("d2", 6), unit("d3", 2)]
    assert outcome("opening-shots", battle(4, attackers, defenders)) is Outcome.UNDECIDED


def test_opening_shots_attacker_wins_by_destroying_every_defending_mek() -> None:
    defenders = [dead("d1", 2), dead("d2", 3), dead("d3", 5)]
    assert outcome("opening-shots", battle(5, OPENING_ATTACKERS, defenders)) \
        is Outcome.ATTACKER_WINS


def test_opening_shots_defender_wins_by_destroying_every_attacking_mek() -> None:
    attackers = [dead("a1", 2), dead("a2", 3), dead("a3", 5)]
    defenders = [unit("d1", 3), unit("d2", 6), unit("d3", 7)]
    assert outcome("opening-shots", battle(5, attackers, defenders)) is Outcome.DEFENDER_WINS


def test_opening_shots_defender_wins_at_the_turn_limit_with_zone_3_never_occupied() -> None:
    attackers = [unit("medium", 3), unit("light1", 2), unit("light2", 6)]
    defenders = [unit("d1", 3)]
    history = [{A: {7}, D: {3}}] * 11
    verdict = judge(get_scenario("opening-shots"), battle(12, attackers, defenders, history))
    assert verdict.outcome is Outcome.DEFENDER_WINS
    assert "never occupied zone 3" in verdict.reason


def test_at_the_hot_gates_attacker_wins_with_half_its_meks_off_the_south_edge() -> None:
    attackers = [gone("a1", 6, Edge.SOUTH, 8), gone("a2", 7, Edge.SOUTH, 8), dead("a3", 4),
                 unit("a4", 5)]
    defenders = [unit("d1", 8), unit("inf", 8, INFANTRY)]
    assert outcome("at-the-hot-gates", battle(7, attackers, defenders)) \
        is Outcome.ATTACKER_WINS


def test_at_the_hot_gates_defender_wins_when_the_attack_is_spent() -> None:
    attackers = [gone("a1", 6, Edge.SOUTH, 8), dead("a2", 4), dead("a3", 5), dead("a4", 7)]
    assert outcome("at-the-hot-gates", battle(7, attackers, [unit("d1", 8)])) \
        is Outcome.DEFENDER_WINS


def test_at_the_hot_gates_defender_wins_at_the_turn_limit() -> None:
    attackers = [gone("a1", 6, Edge.SOUTH, 8), unit("a2", 5), unit("a3", 5), unit("a4", 5)]
    assert outcome("at-the-hot-gates", battle(11, attackers, [unit("d1", 8)])) \
        is Outcome.UNDECIDED
    assert outcome("at-the-hot-gates", battle(12, attackers, [unit("d1", 8)])) \
        is Outcome.DEFENDER_WINS


def test_buying_us_some_time_attacker_must_destroy_all_and_exit_a_quarter_north() -> None:
    defenders = [dead("d1", 3), dead("d2", 4), dead("sp", 4, INFANTRY)]
    attackers = [gone("a1", 6, Edge.NORTH, 2), unit("a2", 2), unit("a3", 5), unit("a4", 8)]
    assert outcome("buying-us-some-time", battle(6, attackers, defenders)) \
        is Outcome.ATTACKER_WINS
    stayed = [unit("a1", 2), *attackers[1:]]
    assert outcome("buying-us-some-time", battle(6, stayed, defenders)) is Outcome.UNDECIDED


def test_buying_us_some_time_defender_wins_holding_on_with_no_attacker_through() -> None:
    defenders = [dead("d1", 3), unit("d2", 2)]
    attackers = [unit("a1", 5), unit("a2", 5)]
    assert outcome("buying-us-some-time", battle(12, attackers, defenders)) \
        is Outcome.DEFENDER_WINS


def test_buying_us_some_time_attacker_through_but_defender_alive_is_a_draw_at_limit() -> None:
    defenders = [unit("d2", 5)]
    attackers = [gone("a1", 9, Edge.NORTH, 1), unit("a2", 5)]
    assert outcome("buying-us-some-time", battle(12, attackers, defenders)) is Outcome.DRAW


def test_through_the_breach_attacker_holds_the_breach_3_turns_after_destroying_it() -> None:
    defenders = [dead("b1", 3, group="breach", setup_zone=4),
                 dead("b2", 3, group="breach", setup_zone=4), unit("r1", 8, setup_zone=8)]
    history = [{A: {2}, D: {4, 8}}, {A: {1}, D: {4, 8}}, {A: {4}, D: {8}}, {A: {4}, D: {8}}]
    attackers = [unit("a1", 4), unit("a2", 1)]
    assert outcome("through-the-breach", battle(5, attackers, defenders, history)) \
        is Outcome.ATTACKER_WINS
    assert outcome("through-the-breach", battle(4, attackers, defenders, history[:3])) \
        is Outcome.UNDECIDED


def test_through_the_breach_holding_the_zone_without_destroying_the_breach_is_not_enough() -> None:
    defenders = [unit("b1", 3, group="breach", setup_zone=4),
                 dead("b2", 3, group="breach", setup_zone=4)]
    history = [{A: {4}, D: {3}}] * 5
    assert outcome("through-the-breach", battle(6, [unit("a1", 4)], defenders, history)) \
        is Outcome.UNDECIDED


def test_through_the_breach_defender_wins_at_the_limit_or_when_the_attack_is_spent() -> None:
    defenders = [unit("b1", 4, group="breach", setup_zone=4)]
    assert outcome("through-the-breach", battle(12, [unit("a1", 1)], defenders)) \
        is Outcome.DEFENDER_WINS
    assert outcome("through-the-breach", battle(5, [dead("a1", 5)], defenders)) \
        is Outcome.DEFENDER_WINS


def test_head_to_head_last_side_with_a_mek_standing_wins() -> None:
    attackers = [unit("a1", 4), dead("a2", 3)]
    defenders = [dead("d1", 5), dead("d2", 5), unit("gunship", 6, VEHICLE)]
    assert outcome("head-to-head", battle(5, attackers, defenders)) is Outcome.ATTACKER_WINS
    assert outcome("head-to-head", battle(5, defenders, attackers)) is Outcome.DEFENDER_WINS
    assert outcome("head-to-head", battle(5, attackers, [unit("d1", 6)])) is Outcome.UNDECIDED


def test_head_to_head_last_meks_falling_together_is_a_draw() -> None:
    assert outcome("head-to-head", battle(5, [dead("a1", 5)], [dead("d1", 5)])) is Outcome.DRAW


def test_citadel_defender_wins_with_a_unit_in_zone_5_at_the_end_of_turn_6() -> None:
    attackers = [unit("a1", 5), unit("a2", 4)]
    defenders = [unit("d1", 5)]
    assert outcome("citadel", battle(5, attackers, defenders)) is Outcome.UNDECIDED
    assert outcome("citadel", battle(6, attackers, defenders)) is Outcome.DEFENDER_WINS


def test_citadel_attacker_wins_when_zone_5_is_empty_of_defenders_after_turn_6() -> None:
    attackers = [unit("a1", 5), unit("a2", 4)]
    assert outcome("citadel", battle(6, attackers, [unit("d1", 6)])) is Outcome.ATTACKER_WINS
    assert outcome("citadel", battle(3, attackers, [dead("d1", 3)])) is Outcome.ATTACKER_WINS


def test_citadel_attackers_still_to_arrive_keep_the_battle_going() -> None:
    attackers = [dead("a1", 1), unit("a2"), unit("a3")]
    assert outcome("citadel", battle(2, attackers, [unit("d1", 5)])) is Outcome.UNDECIDED


def test_citadel_defender_wins_early_when_every_attacker_is_destroyed() -> None:
    attackers = [dead("a1", 2), dead("a2", 4)]
    assert outcome("citadel", battle(4, attackers, [unit("d1", 5)])) is Outcome.DEFENDER_WINS


@pytest.mark.parametrize("scenario_id", ["opening-shots", "at-the-hot-gates",
                                         "buying-us-some-time", "through-the-breach",
                                         "head-to-head", "citadel"])
def test_every_scenario_is_undecided_at_the_start(scenario_id: str) -> None:
    attackers = [unit("a1", 7), unit("a2", 7)]
    defenders = [unit("d1", 3), unit("d2", 5, group="breach", setup_zone=5)]
    assert outcome(scenario_id, battle(1, attackers, defenders)) is Outcome.UNDECIDED
