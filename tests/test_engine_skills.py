"""The 16 pilot skills in battle, each forced with fixed dice (see also the R5.3, R6.2,
R6.5, R6.6, R6.8, R6.9 and R6.10 tests, which use many of them)."""

from __future__ import annotations

from typing import Any

from meks.engine.core import Battle, RangeChoice
from meks.engine.log import Kind, render
from meks.engine.units import Unit
from meks.game.catalog import Band
from meks.game.vocabulary import Side
from tests.engine_helpers import (
    INIT,
    TIE,
    Scripted,
    battle,
    exchange,
    fire,
    force,
    gun,
    has_text,
    hold_fire,
    map_scenario,
    post,
    rolls_for,
    start,
    texts,
)


def shot_texts(b: Battle) -> list[str]:
    return [e.text for e in b.log if e.kind in (Kind.HIT, Kind.MISS)]


def still(**overrides: Any) -> Scripted:
    return Scripted(**{"movement": lambda b, side: {}, **overrides})


def test_accuracy_covers_the_whole_cannon_family_once_a_turn_R6_6() -> None:
    b = exchange(gun("Rail Cannon", "Howitzer", skills=["Accuracy"]), post(),
                 [*INIT, *TIE, 2, 2], attacker_ctl=Scripted(fire=fire()))
    assert shot_texts(b) == ["Gun fires Rail Cannon at Post: 2+1 vs 4+ [Accuracy +1] - miss.",
                             "Gun fires Howitzer at Post: 2+0 vs 4+ - miss."]


def test_guidance_counts_once_for_both_dice_of_a_swarm_R6_6() -> None:
    b = exchange(gun("Swarm Missile", "Hammer Missile", size="Titan", skills=["Guidance"]),
                 post(), [*INIT, *TIE, 1, 1, 1], attacker_ctl=Scripted(fire=fire()))
    assert shot_texts(b) == [
        "Gun fires Swarm Missile at Post: 1+1 vs 3+ [Guidance +1] - miss.",
        "Gun fires Swarm Missile at Post: 1+1 vs 3+ [Guidance +1] - miss.",
        "Gun fires Hammer Missile at Post: 1+0 vs 3+ - miss."]


def test_steady_hand_helps_a_ppc_R6_6() -> None:
    b = exchange(gun("PPC", skills=["Steady Hand"]), post(), [*INIT, *TIE, 1, 6],
                 band=Band.LONG)
    assert shot_texts(b) == ["Gun fires PPC at Post: 1+1 vs 2+ [Steady Hand +1] - hit."]


def test_agility_needs_the_pilots_own_roll_not_the_sides_R6_8() -> None:
    # The side's best roll is the Light's 9; the Agility pilot's own roll is 7.
    b = exchange(gun("Cannon"), force(post("Light", skills=["Agility"], name="Nimble"),
                                      post("Light", name="Fast")),
                 [*INIT, 3, 2, 3, 3, 4, 4, 5],
                 attacker_ctl=Scripted(targets=lambda b, u, c, n: [b.unit("D1")]),
                 defender_ctl=Scripted([RangeChoice.STAY]))
    assert texts(b, Kind.DODGE) == []
    assert texts(b, Kind.SAVE) == ["Nimble armor save 5+0 vs 5+: saved."]


def test_agility_dodges_once_a_turn_R6_8() -> None:
    b = exchange(gun("Cannon", "Cannon"), post("Light", skills=["Agility"]),
                 [*INIT, 3, 4, 4, 4, 4, 5], defender_ctl=Scripted([RangeChoice.STAY]))
    assert len(texts(b, Kind.DODGE)) == 1 and len(texts(b, Kind.SAVE)) == 1


def test_maneuver_wins_a_movement_roll_R6_2() -> None:
    b = exchange(post(skills=["Maneuver"]), post(), [*INIT, 3, 4], band=Band.MEDIUM,
                 attacker_ctl=Scripted([RangeChoice.STAY]))
    assert texts(b, Kind.RANGE) == [
        "Attacker wins the movement roll 5 to 4: range medium in zone 5."]


def test_tactics_counts_once_for_a_side_R5_3() -> None:
    b = start(battle(map_scenario((1,), (9,)),
                     force(post(skills=["Tactics"]), post(skills=["Tactics"], name="Two")),
                     force(post()), [1, 4], still(), still()))
    b.play_turn()
    assert texts(b, Kind.INITIATIVE)[0] == "Attacker initiative 1+2 = 3"
    assert b.initiative_winner is Side.DEFENDER


def test_chassis_familiarity_without_a_size_is_the_meks_own_R6_2_R6_10() -> None:
    # A Light: movement 1+1+2+1 = 5 ties the Assault's 5; rating 3 takes a Missile (3).
    b = exchange(gun("Missile", size="Light", skills=["Chassis Familiarity"]), post(),
                 [*INIT, 1, 1, 5, 1], attacker_ctl=Scripted(fire=fire()))
    assert texts(b, Kind.MOVEMENT_ROLL)[0] == ("Gun movement roll 2 -> 5 "
                                               "[move bonus +2, Chassis Familiarity +1].")
    assert texts(b, Kind.OVERHEAT) == []


def test_pinpoint_attack_waits_for_a_hit_that_damages_R6_9() -> None:
    b = exchange(gun("Cannon", "Cannon", skills=["Pinpoint Attack"]), post(),
                 [*INIT, *TIE, 4, 2,   # a hit, saved: Pinpoint not spent
                  4, 1, 2])            # a damaging hit: a critical without a check
    assert rolls_for(b, "critical check") == []
    assert b.unit("D1").legs == 1


def test_gunnery_second_shot_counts_its_heat_again_R6_5_R6_10() -> None:
    def twice_then_other(b: Battle, unit: Unit, targets: list[Unit], band: Band) -> list[Any]:
        first, second = unit.weapons
        return [(first, targets[0]), (first, targets[0]), (second, targets[0])]

    # A Light (rating 2): Cannon 1, again 2, the other Cannon 3: one over.
    b = exchange(gun("Cannon", "Cannon", size="Light", skills=["Gunnery"]), post(),
                 [*INIT, 1, 1, 4, 1, 1, 2, 1],
                 attacker_ctl=Scripted(fire=twice_then_other))
    assert texts(b, Kind.OVERHEAT) == ["Gun runs hot (3/2) but its Cannon holds (2 > 1)."]
    assert len(shot_texts(b)) == 3


def test_damage_control_contains_a_battle_damage_critical_R6_9_R4_3() -> None:
    b = start(battle(map_scenario((1,), (9,)), force(post(), support=("Battle Damage",)),
                     force(post(skills=["Damage Control"])), []))
    assert texts(b, Kind.CRITICAL) == ["Post's crew contains the damage (Damage Control)."]
    assert b.unit("D1").crits_taken == 1


def test_ice_man_ignores_the_second_movement_heat_R6_10() -> None:
    b = start(battle(map_scenario((4,), (9,)), force(post(skills=["Ice Man"])), force(post()),
                     [*INIT, *INIT], still(second_move=lambda b, s: {"A1": 1} if b.turn == 1
                                           else {}), still()))
    b.play_turn()
    b.turn += 1
    b.start_turn()
    assert b.unit("A1").heat == 0
    assert has_text(b, "Post's pilot shrugs off the second-move heat (Ice Man).")


def test_ice_man_ignores_one_heat_source_a_turn_R6_10() -> None:
    # Jump jets alone: ignored. The turn after a second move: that heat is the one ignored,
    # and the jump jets' 2 count.
    jumper = post("Medium", systems=["Jump Jets"], skills=["Ice Man"])
    b = exchange(jumper, post("Medium"), [*INIT, 3, 3, 3, 4, 5],
                 attacker_ctl=Scripted(jump=lambda b, u: True))
    assert b.unit("A1").heat == 0 and has_text(b, "ignores the jump jets heat (Ice Man)")
    b = start(battle(map_scenario((5,), (5,)), force(jumper), force(post("Medium")),
                     [*INIT, 3, 3, 3, 4, 5], Scripted(jump=lambda b, u: True), Scripted()),
              Band.SHORT)
    b.unit("A1").carried_heat = 2
    b.turn = 1
    b.start_turn()
    b.initiative()
    b.combat_step()
    assert b.unit("A1").heat == 2


def test_spoof_penalises_both_dice_of_one_swarm_attack_R6_6() -> None:
    b = exchange(gun("Swarm Missile", "Missile", size="Titan"), post(skills=["Spoof"]),
                 [*INIT, *TIE, 2, 2, 2], attacker_ctl=Scripted(fire=fire()))
    assert shot_texts(b) == [
        "Gun fires Swarm Missile at Post: 2-1 vs 3+ [Spoof -1] - miss.",
        "Gun fires Swarm Missile at Post: 2-1 vs 3+ [Spoof -1] - miss.",
        "Gun fires Missile at Post: 2+0 vs 3+ - miss."]


def test_quick_draw_second_target_costs_the_targeting_array_bonus_R6_5_R6_6() -> None:
    b = exchange(gun("Cannon", "Cannon", systems=["Targeting Array"], skills=["Quick Draw"]),
                 force(post(name="P1"), post(name="P2")), [*INIT, 3, 3, 3, 2, 2],
                 attacker_ctl=Scripted(targets=lambda b, u, c, n: c,
                                       fire=lambda b, u, t, band: list(
                                           zip(u.weapons, t, strict=True))))
    assert shot_texts(b) == ["Gun fires Cannon at P1: 2+0 vs 4+ - miss.",
                             "Gun fires Cannon at P2: 2+0 vs 4+ - miss."]


def test_sharpshooter_rerolls_only_its_own_attacks_checks_R6_9() -> None:
    b = exchange(force(gun("Cannon", skills=["Sharpshooter"], name="Ace"), gun("Cannon")),
                 post(), [*INIT, 3, 3, 3, 4, 1, 1],
                 attacker_ctl=Scripted(fire=lambda b, u, t, band: [] if u.id == "A1"
                                       else fire()(b, u, t, band)))
    assert rolls_for(b, "Sharpshooter") == []


def test_hawkeye_id_feeds_its_own_data_link_R6_4() -> None:
    # The Hawkeye pilot's Mek carries the Data Link: its pilot's ID (5) lets Gun fire
    # missiles at the masked Post without a detection roll of its own.
    eyes = post(systems=["Data Link"], skills=["Hawkeye"], name="Eyes")
    b = exchange(force(eyes, gun("Missile")), post(systems=["Masking & Insulation"]),
                 [*INIT, 5,      # Hawkeye
                  3, 3, 3,       # movement
                  1,             # Eyes's own detection roll (Basic, 4+) for its targets
                  1],            # Gun's Missile
                 band=Band.MEDIUM, defender_ctl=Scripted(fire=hold_fire))
    assert texts(b, Kind.IDENTIFY) == ["Eyes's pilot identifies Post in zone 5 (Hawkeye, 5)."]
    assert shot_texts(b) == ["Gun fires Missile at Post: 1+0 vs 3+ - miss."]


def test_hawkeye_is_tried_once_a_turn_R6_4() -> None:
    b = start(battle(map_scenario((4,), (5,)), force(post(skills=["Hawkeye"], name="Eyes")),
                     force(post()), [*INIT, 4, *INIT, 6], still(), still()))
    b.play_turn()
    b.play_turn()
    assert rolls_for(b, "Hawkeye") == [4, 6]


def test_log_hero_has_no_effect_in_battle_R4_1() -> None:
    # Log Hero's extra support roll is given before the muster: see
    # tests/test_store.py::test_log_hero_adds_a_support_roll_R4_1. In battle the skill is
    # carried and does nothing.
    dice = [*INIT, *TIE, 4, 1, 3]
    plain = exchange(gun("Cannon"), post(), dice)
    hero = exchange(gun("Cannon", skills=["Log Hero"]), post(), dice)
    assert hero.unit("A1").skill("Log Hero")
    assert render(hero.log, rolls=True) == render(plain.log, rolls=True)
