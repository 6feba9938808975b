"""Scenarios fought by the engine (RULINGS §7): defaults, victory judged at the end of each
turn, and one of the six scenarios run to its end with fixed dice. The conditions themselves
are tested one by one in ``test_victory.py``."""

from __future__ import annotations

from typing import Any

from campaigns.files.scenario_model import parse_scenario
from campaigns.files.scenarios import get_scenario
from meks.engine.log import Kind
from meks.game.victory import Outcome
from meks.game.vocabulary import Edge, Side
from tests.engine_helpers import INIT, Scripted, assert_all_dice_used, battle, force, post, texts


def still(**overrides: Any) -> Scripted:
    return Scripted(**{"movement": lambda b, side: {}, **overrides})


def scenario(victory: dict[str, Any], **extra: Any) -> Any:
    return parse_scenario({
        "id": "test", "name": "Test",
        "attacker": {"setup": {"zones": [4]}, **extra.pop("attacker", {})},
        "defender": {"setup": {"zones": [9]}},
        "victory": victory, **extra})


def test_no_terrain_given_means_plains_and_twelve_turns_R7_1() -> None:
    dice = INIT * 12
    s = scenario({"at_turn_limit": "defender"})
    b = battle(s, force(post()), force(post()), dice, still(), still())
    result = b.run()
    assert_all_dice_used(b, dice)
    assert {s.terrain_of(z) for z in range(1, 10)} == {"Plains"}
    assert result.turns == 12 and result.outcome is Outcome.DEFENDER_WINS
    assert texts(b, Kind.VICTORY)[0].startswith(
        "Battle over: defender wins: the last turn (12) has ended")


def test_a_condition_met_at_the_end_of_a_turn_ends_the_battle_R7_2() -> None:
    s = scenario({"attacker": {"type": "occupy", "side": "attacker", "zone": 5}})
    b = battle(s, force(post()), force(post()), INIT,
               still(movement=lambda b, side: {"A1": 5}), still())
    result = b.run()
    assert result.winner is Side.ATTACKER and result.turns == 1


def test_units_leaving_across_an_edge_count_for_an_exit_condition_R7_2() -> None:
    s = scenario({"attacker": {"type": "exit", "side": "attacker", "edge": "north",
                               "count": 1}},
                 attacker={"setup": {"zones": [1]}, "exits": [{"edge": "north"}]})
    b = battle(s, force(post()), force(post()), INIT,
               still(movement=lambda b, side: {"A1": Edge.NORTH}), still())
    result = b.run()
    assert result.winner is Side.ATTACKER and b.unit("A1").exit_edge is Edge.NORTH


def test_citadel_defender_holding_zone_5_after_turn_6_wins_R7_3() -> None:
    # The attacker's one Mek fails its arrival rolls on turns 1-3 (4+, 3+, 2+) and comes in
    # with everyone left on turn 4; it then stays in zone 3.
    dice = [*INIT, 3, *INIT, 2, *INIT, 1, *INIT, *INIT, *INIT]
    b = battle(get_scenario("citadel"), force(post()), force(post()), dice, still(), still())
    result = b.run()
    assert_all_dice_used(b, dice)
    assert [e.text for e in b.log if e.kind is Kind.ARRIVE] == [
        "Post does not arrive yet (3, needs 4+).", "Post does not arrive yet (2, needs 3+).",
        "Post does not arrive yet (1, needs 2+).", "Post arrives in zone 3."]
    assert result.winner is Side.DEFENDER and result.turns == 6
