"""The map, the turn and zone movement (RULINGS §5), each forced with fixed dice."""

from __future__ import annotations

from typing import Any

import pytest

from meks.engine.core import Battle, BattleError, Engagement, RangeChoice
from meks.engine.log import Kind
from meks.game.catalog import Band
from meks.game.vocabulary import Edge, Side
from tests.engine_helpers import (
    Scripted,
    assert_all_dice_used,
    battle,
    custom,
    duel_scenario,
    fire,
    force,
    map_scenario,
    start,
    texts,
)

# Neither side moves unless a test says so.
STILL: dict[str, Any] = {"movement": lambda b, side: {}}


def still(**overrides: Any) -> Scripted:
    return Scripted(**{**STILL, **overrides})


def orders(**per_turn: dict[str, Any]) -> Any:
    """Zone moves by turn: ``orders(t1={"A1": 5})``."""
    return lambda b, side: per_turn.get(f"t{b.turn}", {})


def post() -> Any:
    """A unit that cannot fire and barely moves: a target."""
    return custom("Post", "Assault")


# ---- R5.1 the map -----------------------------------------------------------------------

def test_zones_are_adjacent_across_edges_not_corners_R5_1() -> None:
    b = battle(duel_scenario(), force(post()), force(post()), [])
    assert b.adjacent(1) == [2, 4]
    assert b.adjacent(5) == [2, 4, 6, 8]
    assert b.adjacent(9) == [6, 8]
    diagonal = battle(duel_scenario(diagonal_moves=True), force(post()), force(post()), [])
    assert diagonal.adjacent(1) == [2, 4, 5]
    assert diagonal.adjacent(5) == [1, 2, 3, 4, 6, 7, 8, 9]


@pytest.mark.parametrize("diagonal", [False, True])
def test_a_move_to_a_corner_zone_needs_diagonal_moves_R5_1(diagonal: bool) -> None:
    dice = [6, 1]  # initiative; no combat
    b = start(battle(map_scenario((1,), (9,), diagonal_moves=diagonal),
                     force(post()), force(post()), dice,
                     still(movement=orders(t1={"A1": 5})), still()))
    if not diagonal:  # not adjacent: the order is refused (issue 15)
        with pytest.raises(BattleError, match="Post cannot make that move now"):
            b.play_turn()
        assert b.unit("A1").zone == 1
        return
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert b.unit("A1").zone == 5
    assert texts(b, Kind.MOVE) == ["Post moves from zone 1 to zone 5."]


def test_units_exit_across_their_edge_from_the_allowed_zones_R5_1() -> None:
    scenario = map_scenario((2, 5), (9,), attacker={"exits": [{"edge": "north"}]})
    dice = [6, 1]
    b = start(battle(scenario, force(post(), custom("Other", "Assault")), force(post()), dice,
                     still(movement=orders(t1={"A1": Edge.NORTH}),
                           deploy=lambda b, side, units: {"A1": 2, "A2": 5}), still()))
    assert Edge.NORTH in b.views[Side.ATTACKER].move_options(b.unit("A1"))
    assert Edge.NORTH not in b.views[Side.ATTACKER].move_options(b.unit("A2"))  # zone 5
    b.play_turn()
    assert_all_dice_used(b, dice)
    a1, a2 = b.unit("A1"), b.unit("A2")
    assert a1.exited_turn == 1 and a1.exit_edge is Edge.NORTH and a1.exit_zone == 2
    assert not a1.on_map
    assert a2.exited_turn is None and a2.zone == 5
    assert texts(b, Kind.EXIT) == ["Post leaves the map across the north edge from zone 2."]


def test_no_exit_across_an_edge_the_scenario_does_not_open_R5_1() -> None:
    scenario = map_scenario((2,), (9,), attacker={"exits": [{"edge": "south"}]})
    dice = [6, 1]
    b = start(battle(scenario, force(post()), force(post()), dice,
                     still(movement=orders(t1={"A1": Edge.NORTH})), still()))
    with pytest.raises(BattleError, match="Post cannot make that move now"):
        b.play_turn()
    assert b.unit("A1").zone == 2 and b.unit("A1").exited_turn is None


def test_a_unit_may_exit_in_the_second_movement_R5_1_R5_4() -> None:
    scenario = map_scenario((5,), (9,), attacker={"exits": [{"edge": "north"}]})
    dice = [6, 1]
    b = start(battle(scenario, force(post()), force(post()), dice,
                     still(movement=orders(t1={"A1": 2}),
                           second_move=lambda b, side: {"A1": Edge.NORTH}), still()))
    b.play_turn()
    assert b.unit("A1").exited_turn == 1 and b.unit("A1").exit_zone == 2


# ---- R5.2 the turn ------------------------------------------------------------------------

def test_turn_order_initiative_moves_combats_second_move_R5_2() -> None:
    # Attacker wins initiative and moves first: A1 walks into D1's zone 5 and fights in the
    # first combat step; the defender then moves D2; the attacker's second movement moves A2.
    dice = [6, 1,     # initiative
            1, 1,     # A1 (a Light, 2d6+2) movement roll 4
            4]        # D1 (an Assault, 1d6) movement roll 4: a tie, the range stays Long
    attacker = force(custom("Runner", "Light", ["Cannon"]), custom("Walker", "Assault"))
    defender = force(custom("Post", "Assault"), custom("Sentry", "Assault"))
    b = start(battle(map_scenario((4, 1), (5, 9)), attacker, defender, dice,
                     still(move_first=lambda b, side: True,
                           deploy=lambda b, side, units: {"A1": 4, "A2": 1},
                           movement=orders(t1={"A1": 5}),
                           second_move=lambda b, side: {"A2": 2}),
                     still(deploy=lambda b, side, units: {"D1": 5, "D2": 9},
                           movement=orders(t1={"D2": 8}))))
    b.play_turn()
    assert_all_dice_used(b, dice)
    kinds = [(e.kind, e.text) for e in b.log if e.turn == 1 and e.kind is not Kind.ROLL]
    story = [text for kind, text in kinds if kind in (
        Kind.INITIATIVE, Kind.DECISION, Kind.MOVE, Kind.ENGAGE, Kind.RANGE)]
    assert story == [
        "Attacker initiative 6 = 6",
        "Defender initiative 1 = 1",
        "Attacker decides: move first",
        "Runner moves from zone 4 to zone 5.",
        "Combat begins in zone 5 (Plains) at Long range.",
        "Movement rolls tie (4); the range stays long.",
        "Attacker decides: Runner targets Post",
        "Defender decides: Post targets Runner",
        "Sentry moves from zone 9 to zone 8.",
        "Walker moves from zone 1 to zone 2 (second movement, +2 heat next turn).",
    ]


def test_the_initiative_winner_may_move_second_R5_2() -> None:
    dice = [2, 5]
    b = start(battle(map_scenario((1,), (9,)), force(post()), force(post()), dice,
                     still(movement=orders(t1={"A1": 2})),
                     still(movement=orders(t1={"D1": 8}),
                           move_first=lambda b, side: False)))
    b.play_turn()
    moves = texts(b, Kind.MOVE)
    assert texts(b, Kind.DECISION) == ["Defender decides: move second"]
    assert moves == ["Post moves from zone 1 to zone 2.", "Post moves from zone 9 to zone 8."]


def test_a_zone_fights_once_a_turn_even_when_contested_in_both_steps_R5_2() -> None:
    # Zone 5 is contested in both combat steps: one set of movement rolls only.
    dice = [6, 1, 3, 3]  # initiative; each Post rolls 1d6 for movement (a tie)
    b = start(battle(duel_scenario(), force(post()), force(post()), dice, still(), still()))
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert len(texts(b, Kind.MOVEMENT_ROLL)) == 2


def test_a_zone_cleared_and_entered_again_does_not_fight_twice_a_turn_R5_2() -> None:
    # Step 1: A1's Cannon destroys D1 in zone 5. The defender moves second and walks D2 into
    # zone 5: the zone already had its combat this turn, so no second one.
    dice = [1, 6,   # initiative: the defender wins and moves second
            3,      # D1 (Assault) movement 3
            3,      # A1 (Assault) movement 3: tie, the range stays Short
            4,      # A1's Cannon hits (4+)
            1,      # D1 armor save 1 vs 2+: fails, and the hit is its last
            1, 2]   # its critical check (R6.9, always a critical) and table: Leg Damaged
    b = start(battle(map_scenario((5,), (5, 6)), force(custom("Gun", "Assault", ["Cannon"])),
                     force(post(), custom("Late", "Assault")), dice, still(),
                     still(deploy=lambda b, side, units: {"D1": 5, "D2": 6},
                           movement=orders(t1={"D2": 5}))))
    b.engagements[5] = Engagement(5, Band.SHORT)
    b.unit("D1").hits = 4
    b.play_turn()  # a second combat would need more dice: DiceError
    assert_all_dice_used(b, dice)
    assert b.unit("D1").destroyed_turn == 1
    assert b.unit("D2").zone == 5 and b.unit("D2").alive


# ---- R5.3 initiative ------------------------------------------------------------------------

def initiative_battle(dice: list[int], attacker: Any = None, support: tuple[str, ...] = (),
                      defender: Any = None) -> Battle:
    return start(battle(map_scenario((1,), (9,)),
                        force(attacker or post(), support=support),
                        force(defender or post()), dice, still(), still()))


def test_initiative_one_die_each_higher_wins_R5_3() -> None:
    b = initiative_battle([2, 5])
    b.play_turn()
    assert b.initiative_winner is Side.DEFENDER
    assert texts(b, Kind.INITIATIVE) == ["Attacker initiative 2 = 2", "Defender initiative 5 = 5"]


def test_tactics_adds_two_to_initiative_R5_3() -> None:
    b = initiative_battle([3, 4], attacker=custom("Chief", "Assault", skills=["Tactics"]))
    b.play_turn()
    assert b.initiative_winner is Side.ATTACKER
    assert texts(b, Kind.INITIATIVE)[0] == "Attacker initiative 3+2 = 5"


def test_surprise_adds_three_to_the_first_initiative_roll_only_R5_3() -> None:
    dice = [1, 3,   # turn 1: 1+3 = 4 beats 3
            1, 3]   # turn 2: no Surprise any more
    b = initiative_battle(dice, support=("Surprise",))
    b.play_turn()
    assert b.initiative_winner is Side.ATTACKER
    b.play_turn()
    assert b.initiative_winner is Side.DEFENDER
    assert_all_dice_used(b, dice)
    assert texts(b, Kind.INITIATIVE) == [
        "Attacker initiative 1+3 = 4", "Defender initiative 3 = 3",
        "Attacker initiative 1 = 1", "Defender initiative 3 = 3"]


def test_initiative_ties_are_rolled_again_R5_3() -> None:
    b = initiative_battle([4, 4, 5, 2])
    b.play_turn()
    assert b.initiative_winner is Side.ATTACKER
    assert len(texts(b, Kind.INITIATIVE)) == 4


def test_surprise_counts_on_the_first_roll_only_even_if_it_ties_R5_3() -> None:
    b = initiative_battle([1, 4, 2, 3], support=("Surprise",))  # 1+3 ties 4; then 2 vs 3
    b.play_turn()
    assert b.initiative_winner is Side.DEFENDER
    assert texts(b, Kind.INITIATIVE)[2] == "Attacker initiative 2 = 2"


def test_tactics_and_surprise_add_up_R5_3() -> None:
    dice = [1, 6,   # 1+2+3 ties 6
            2, 1]   # rolled again: Tactics still counts, Surprise no more
    b = initiative_battle(dice, attacker=custom("Chief", "Assault", skills=["Tactics"]),
                          support=("Surprise",))
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert texts(b, Kind.INITIATIVE) == [
        "Attacker initiative 1+5 = 6", "Defender initiative 6 = 6",
        "Attacker initiative 2+2 = 4", "Defender initiative 1 = 1"]


def test_tactics_of_a_unit_not_on_the_map_does_not_count_R5_3() -> None:
    scenario = map_scenario((1,), (9,), attacker={"reinforcements": {
        "zones": [1], "schedule": {2: "all"}}})
    dice = [3, 4]
    b = start(battle(scenario, force(custom("Chief", "Assault", skills=["Tactics"])),
                     force(post()), dice, still(), still()))
    b.play_turn()
    assert texts(b, Kind.INITIATIVE)[0] == "Attacker initiative 3 = 3"


# ---- R5.4 zone movement -----------------------------------------------------------------

def test_units_may_enter_an_enemy_zone_but_not_leave_it_R5_4() -> None:
    dice = [6, 1,   # initiative
            3, 3]   # movement rolls in zone 5: a tie
    b = start(battle(map_scenario((4,), (5,)), force(post()), force(post()), dice,
                     still(movement=orders(t1={"A1": 5}), move_first=lambda b, s: True),
                     still(movement=orders(t1={"D1": 6}))))
    with pytest.raises(BattleError, match="Post cannot make that move now"):
        b.play_turn()
    assert b.unit("A1").zone == 5
    assert b.unit("D1").zone == 5  # may not leave a zone holding enemies
    assert not b.can_leave(b.unit("D1"))
    assert b.views[Side.DEFENDER].move_options(b.unit("D1")) == [None]


def test_a_unit_may_move_one_zone_per_movement_phase_R5_4() -> None:
    b = start(battle(map_scenario((1,), (9,)), force(post()), force(post()), [6, 1],
                     still(movement=orders(t1={"A1": 3})), still()))
    with pytest.raises(BattleError, match="Post cannot make that move now"):
        b.play_turn()  # zone 3 is two zones away
    assert b.unit("A1").zone == 1


def test_second_movement_may_not_enter_enemies_R5_4() -> None:
    dice = [6, 1]
    b = start(battle(map_scenario((4,), (5,)), force(post(), custom("Other", "Assault")),
                     force(post()), dice,
                     still(second_move=lambda b, side: {"A2": 1}), still()))
    view = b.views[Side.ATTACKER]
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert 5 not in view.move_options(b.unit("A1"), second=True)
    assert b.unit("A2").zone == 1
    b = start(battle(map_scenario((4,), (5,)), force(post()), force(post()), dice,
                     still(second_move=lambda b, side: {"A1": 5}), still()))
    with pytest.raises(BattleError, match=r"'second_move'.*Post cannot make that move now"):
        b.play_turn()
    assert b.unit("A1").zone == 4


def test_second_movement_is_the_initiative_winners_only_R5_4() -> None:
    b = start(battle(map_scenario((4,), (9,)), force(post()), force(post()), [6, 1], still(),
                     still(second_move=lambda b, side: {"D1": 8})))
    b.play_turn()
    assert b.unit("D1").zone == 9


def test_second_movement_costs_two_heat_next_turn_R5_4() -> None:
    b = start(battle(map_scenario((4,), (9,)), force(post()), force(post()), [6, 1],
                     still(second_move=orders(t1={"A1": 1})), still()))
    b.play_turn()
    mover = b.unit("A1")
    assert mover.zone == 1 and mover.heat == 0 and mover.carried_heat == 2
    b.turn += 1
    b.start_turn()
    assert mover.heat == 2 and mover.carried_heat == 0


def test_second_movement_heat_counts_against_the_rating_R5_4_R6_10() -> None:
    # Turn 1: the Medium (rating 4) makes a second move into empty zone 5. Turn 2: the enemy
    # walks in; the Missile's 3 heat on top of the 2 carried is one over the rating.
    dice = [6, 1,                # turn 1
            6, 1, 1, 2, 3,       # turn 2: initiative; movement 3 to 3
            2, 1]                # overheat roll 2 > 1: holds; the Missile misses
    b = start(battle(map_scenario((4,), (6,)), force(custom("Hot", "Medium", ["Missile"])),
                     force(post()), dice,
                     still(second_move=orders(t1={"A1": 5}), fire=fire("Missile")),
                     still(movement=orders(t2={"D1": 5}))))
    b.play_turn()
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert texts(b, Kind.OVERHEAT) == ["Hot runs hot (5/4) but its Missile holds (2 > 1)."]


def test_broken_contact_lets_units_leave_in_their_next_movement_only_R5_4_R6_3() -> None:
    # Turn 1: the attacker moves first, then breaks contact in zone 5 in the first combat
    # step; it has no movement left this turn, so its next movement is turn 2's.
    dice = [6, 1, 4, 1,       # turn 1: initiative; movement rolls 4 to 1
            6, 1]             # turn 2: initiative (then A1 leaves; no combat)
    b = start(battle(map_scenario((5,), (5,)), force(post()), force(post()), dice,
                     still(move_first=lambda b, s: True, ranges=[RangeChoice.BREAK],
                           movement=orders(t2={"A1": 4})), still()))
    b.play_turn()
    assert texts(b, Kind.BREAK) == ["The attacker breaks contact in zone 5; no one fires "
                                    "there this turn."]
    assert b.can_leave(b.unit("A1"))
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert b.unit("A1").zone == 4


def test_broken_contact_expires_after_that_movement_R5_4() -> None:
    # The attacker breaks contact but stays; after its next movement it is held again.
    dice = [6, 1, 4, 1,       # turn 1
            1, 6, 3, 3]       # turn 2: the defender moves first, then combat (a tie)
    b = start(battle(map_scenario((5,), (5,)), force(post()), force(post()), dice,
                     still(move_first=lambda b, s: True, ranges=[RangeChoice.BREAK]),
                     still(move_first=lambda b, s: True)))
    b.play_turn()
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert not b.can_leave(b.unit("A1"))


# ---- reinforcements (Citadel) --------------------------------------------------------------

def test_reinforcements_arrive_on_their_turns_roll_R5_4_R7_3() -> None:
    scenario = map_scenario((3,), (5,), attacker={"reinforcements": {
        "zones": [3, 7], "schedule": {1: 4, 2: 3, 3: 2, 4: "all"}}})
    dice = [6, 1, 3, 4,       # turn 1: initiative; A1 rolls 3 (needs 4), A2 rolls 4
            6, 1, 3]          # turn 2: A1 rolls 3 (needs 3)
    b = start(battle(scenario, force(post(), custom("Other", "Assault")),
                     force(custom("Far", "Assault")), dice,
                     still(arrival_zone=lambda b, unit, zones: 7 if unit.id == "A2" else 3),
                     still(deploy=lambda b, side, units: {"D1": 5})))
    a1, a2 = b.unit("A1"), b.unit("A2")
    assert not a1.on_map and not a2.on_map
    b.play_turn()
    assert not a1.arrived and a2.arrived and a2.zone == 7
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert a1.arrived and a1.zone == 3
    assert texts(b, Kind.ARRIVE) == ["Post does not arrive yet (3, needs 4+).",
                                     "Other arrives in zone 7.", "Post arrives in zone 3."]


def test_reinforcements_all_arrive_on_an_all_turn_and_random_zones_roll_R5_4() -> None:
    scenario = map_scenario((3,), (5,), attacker={"reinforcements": {
        "zones": [3, 7], "zone_choice": "random", "schedule": {1: "all"}}})
    dice = [6, 1, 5, 2]  # initiative; zone die for A1: 5 (re-rolled), 2 -> zone 7
    b = start(battle(scenario, force(post()), force(custom("Far", "Assault")), dice,
                     still(), still()))
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert b.unit("A1").zone == 7


def test_waiting_reinforcements_need_dice_only_on_schedule_turns_R5_4() -> None:
    scenario = map_scenario((3,), (5,), attacker={"reinforcements": {
        "zones": [3], "schedule": {2: "all"}}})
    dice = [6, 1, 6, 1]  # initiative only: nobody rolls to arrive
    b = start(battle(scenario, force(post()), force(custom("Far", "Assault")), dice,
                     still(), still()))
    b.play_turn()
    assert not b.unit("A1").arrived
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert b.unit("A1").arrived and b.unit("A1").zone == 3
