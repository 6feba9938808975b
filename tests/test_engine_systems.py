"""The 16 systems in battle, each forced with fixed dice (see also the R6.4-R6.10 tests in
``test_engine_combat.py``, which use many of them)."""

from __future__ import annotations

from typing import Any

import pytest

from meks.engine.core import Battle
from meks.engine.log import Kind
from meks.engine.units import Unit
from meks.game.catalog import Band
from meks.game.vocabulary import Side
from tests.engine_helpers import (
    INIT,
    TIE,
    Scripted,
    assert_all_dice_used,
    battle,
    duel_scenario,
    exchange,
    fire,
    force,
    gun,
    hold_fire,
    map_scenario,
    mek,
    post,
    rolls_for,
    start,
    texts,
)

MASKED = ["Masking & Insulation"]


def shot_texts(b: Battle) -> list[str]:
    return [e.text for e in b.log if e.kind in (Kind.HIT, Kind.MISS)]


def lose(uid: str, system: str) -> Any:
    """Before the battle: ``system`` of unit ``uid`` is destroyed (a System Lost critical)."""
    def prepare(b: Battle) -> None:
        next(s for s in b.unit(uid).systems if s.system.name == system).destroyed = True
    return prepare


def everyone(b: Battle, unit: Unit, candidates: list[Unit], limit: int) -> list[Unit]:
    return candidates[:limit]


@pytest.mark.parametrize(("lost", "text"), [
    (False, "2+1 vs 4+ [Targeting Array +1] - miss."), (True, "2+0 vs 4+ - miss.")])
def test_targeting_array_plus_one_until_it_is_lost_R6_6(lost: bool, text: str) -> None:
    b = exchange(gun("Cannon", systems=["Targeting Array"]), post(), [*INIT, *TIE, 2],
                 prepare=lose("A1", "Targeting Array") if lost else None)
    assert shot_texts(b) == [f"Gun fires Cannon at Post: {text}"]


def test_data_link_mek_that_cannot_act_links_nothing_R6_4() -> None:
    linker = post(systems=["Data Link", "Improved Sensors"], name="Linker")
    b = exchange(force(linker, gun("Missile")), post(systems=MASKED),
                 [4,              # Linker's wounded pilot: cannot act this turn
                  *INIT, 3, 3,    # movement: Gun, Post (Linker sits this turn out)
                  3],             # Gun must detect the Post itself: 3, not found
                 band=Band.MEDIUM, prepare=lambda b: setattr(b.unit("A1"), "wounded", True))
    assert texts(b, Kind.IDENTIFY) == [] and shot_texts(b) == []


@pytest.mark.parametrize(("weapon", "need"), [("Cannon", 4), ("Missile", 3), ("Laser", 2)])
def test_jammer_minus_one_to_every_attack_on_its_own_mek_only_R6_6(weapon: str,
                                                                  need: int) -> None:
    b = exchange(gun(weapon, weapon, systems=["Director"]),
                 force(post(systems=["Jammer"], name="Jammed"), post(name="Plain")),
                 [*INIT, 3, 3, 3, 1, 1],
                 attacker_ctl=Scripted(targets=everyone, fire=lambda b, u, t, band: list(
                     zip(u.weapons, t, strict=True))))
    assert shot_texts(b) == [f"Gun fires {weapon} at Jammed: 1-1 vs {need}+ [Jammer -1] - miss.",
                             f"Gun fires {weapon} at Plain: 1+0 vs {need}+ - miss."]


def test_director_lost_leaves_one_target_R6_5() -> None:
    b = exchange(gun("Cannon", "Cannon", systems=["Director"]),
                 force(post(name="P1"), post(name="P2")), [*INIT, 3, 3, 3, 1],
                 attacker_ctl=Scripted(targets=everyone, fire=lambda b, u, t, band: list(
                     zip(u.weapons, t, strict=False))),
                 prepare=lose("A1", "Director"))
    assert "Attacker decides: Gun targets P1" in texts(b, Kind.DECISION)
    assert len(shot_texts(b)) == 1


def test_point_defense_protects_only_its_own_mek_R6_6() -> None:
    b = exchange(gun("Missile"), force(post(), post(systems=["Point Defense"], name="PD")),
                 [*INIT, 3, 3, 3, 2], band=Band.LONG,
                 attacker_ctl=Scripted(targets=lambda b, u, c, n: [b.unit("D1")]))
    assert shot_texts(b) == ["Gun fires Missile at Post: 2+0 vs 3+ - miss."]


def test_phalanx_protects_its_own_mek_and_only_against_missiles_R6_6() -> None:
    b = exchange(gun("Missile", "Turbo Laser", size="Titan"), post(systems=["Phalanx"]),
                 [*INIT, *TIE, 4, 1], band=Band.LONG, attacker_ctl=Scripted(fire=fire()))
    assert shot_texts(b) == ["Gun fires Missile at Post: 4-2 vs 3+ [Phalanx -2] - miss.",
                             "Gun fires Turbo Laser at Post: 1+0 vs 2+ - miss."]


def test_servo_boosters_win_a_tied_movement_roll_R6_2() -> None:
    b = exchange(post("Heavy", systems=["Servo Boosters"]), post("Heavy"), [*INIT, 3, 3],
                 band=Band.MEDIUM)
    assert texts(b, Kind.RANGE) == [
        "Attacker wins the movement roll 6 to 5: range short in zone 5."]


def test_spaul_liner_confirms_even_a_pinpoint_critical_R6_9() -> None:
    b = exchange(gun("Cannon", skills=["Pinpoint Attack"]), post(systems=["Spaul Liner"]),
                 [*INIT, *TIE, 4, 1, 3])   # hit, save fails, Pinpoint; Spaul Liner holds
    assert texts(b, Kind.CRITICAL) == []
    assert rolls_for(b, "Spaul Liner") == [3]


def test_jump_jets_win_a_movement_roll_in_urban_R6_2() -> None:
    b = exchange(post("Medium", systems=["Jump Jets"]), post("Medium"),
                 [*INIT, 2, 2, 2,   # 6 with jump jets (terrain ignored)
                  4, 4],            # 8 - 2 = 6: a tie
                 terrain="Urban", attacker_ctl=Scripted(jump=lambda b, u: True))
    assert texts(b, Kind.MOVEMENT_ROLL)[0] == "Post movement roll 6 -> 6 (jump jets)."
    assert texts(b, Kind.RANGE) == ["Movement rolls tie (6); the range stays short."]


def test_reactive_armor_rerolls_a_hammer_save_still_at_minus_one_R6_8() -> None:
    b = exchange(gun("Hammer Missile"), post("Heavy", systems=["Reactive Armor"]),
                 [*INIT, 3, 3, 5, 3, 4])
    assert rolls_for(b, "armor save") == [3, 4]
    assert texts(b, Kind.SAVE) == ["Post armor save 4-1 vs 3+ after a re-roll: saved."]


@pytest.mark.parametrize(("weapon", "band"), [
    ("Laser", Band.SHORT), ("Twin Laser", Band.MEDIUM), ("Turbo Laser", Band.LONG),
    ("PPC", Band.LONG)])
def test_bpc_armor_rerolls_saves_against_every_laser_R6_8(weapon: str, band: Band) -> None:
    b = exchange(gun(weapon), post(systems=["BPC Armor"]), [*INIT, *TIE, 6, 1, 2], band=band)
    assert texts(b, Kind.SAVE) == ["Post armor save 2+0 vs 2+ after a re-roll: saved."]


def test_space_lam_armor_counts_for_each_hit_of_a_vulcan_R6_8() -> None:
    b = exchange(gun("Vulcan Cannon"), post("Heavy", systems=["Space-Lam Armor"]),
                 [*INIT, 3, 3, 4, 2, 4, 2])
    assert texts(b, Kind.SAVE) == ["Post armor save 2+1 vs 3+: saved."] * 2


def test_improved_sensors_lost_fall_back_to_basic_R6_4() -> None:
    b = exchange(gun("Missile", systems=["Improved Sensors"]), post(systems=MASKED),
                 [*INIT, *TIE], band=Band.LONG, prepare=lose("A1", "Improved Sensors"))
    assert texts(b, Kind.DETECT) == [] and shot_texts(b) == []


def test_advanced_sensors_next_door_id_opens_support_fire_R6_4_R4_3() -> None:
    # Scout (zone 4) identifies the Post next door (zone 5) as the combat step begins;
    # Brawler and Guard then fight in zone 6, and in that combat the Support Fire goes in at
    # the Post, which nobody has targeted (R4.3).
    scenario = map_scenario((4, 6), (5, 6))
    fire_at = Scripted(movement=lambda b, s: {},
                       deploy=lambda b, side, units: {"A1": 4, "A2": 6},
                       support=lambda b, side, at, zone:
                       [("Support Fire", "D1")] if at == "combat" else [])
    dice = [*INIT, 1, *TIE]
    b = start(battle(scenario, force(post(systems=["Advanced Sensors"], name="Scout"),
                                     post(name="Brawler"), support=("Support Fire",)),
                     force(post(), post(name="Guard")), dice, fire_at,
                     Scripted(movement=lambda b, s: {},
                              deploy=lambda b, side, units: {"D1": 5, "D2": 6})))
    b.play_turn()
    assert "D1" in b.known[Side.ATTACKER] and "D1" not in b.targeted[Side.ATTACKER]
    assert shot_texts(b) == ["Support fires Howitzer at Post: 1+0 vs 4+ - miss."]
    assert_all_dice_used(b, dice)


def test_masking_one_detection_roll_covers_all_weapons_for_the_turn_R6_4() -> None:
    b = exchange(gun("Missile", "Missile"), post(systems=MASKED), [*INIT, *TIE, 4, 1, 1],
                 band=Band.MEDIUM, attacker_ctl=Scripted(fire=fire()))
    assert texts(b, Kind.DETECT) == ["Gun detects the masked Post (4, needs 4)."]
    assert len(shot_texts(b)) == 2


def test_masking_and_insulation_hides_from_basic_sensors_at_long_R6_4() -> None:
    b = exchange(gun("Missile"), post(systems=MASKED), [*INIT, *TIE], band=Band.LONG)
    assert shot_texts(b) == [] and texts(b, Kind.DETECT) == []


def test_heat_sink_adds_one_until_it_is_lost_R6_10() -> None:
    b = start(battle(duel_scenario(), force(post(systems=["Heat Sink", "Heat Sink"])),
                     force(post()), []))
    mek = b.unit("A1")
    assert mek.heat_rating(moors=False) == 8
    mek.systems[0].destroyed = True
    assert mek.heat_rating(moors=False) == 7


def test_heat_sink_spares_an_overheat_roll_R6_10() -> None:
    b = exchange(gun("Missile", "Missile", systems=["Heat Sink"], size="Medium"), post(),
                 [*INIT, 1, 2, 3, 1, 4, 1], attacker_ctl=Scripted(fire=fire()),
                 defender_ctl=Scripted(fire=hold_fire))
    assert texts(b, Kind.OVERHEAT) == ["Gun runs hot (6/5) but its Missile holds (4 > 1)."]


def test_the_units_carrying_a_skill_or_system_are_found_again_when_a_unit_joins() -> None:
    """``Battle.carrying``: the units whose pilot has a skill, or that carry a system
    (working or not), in order; worked out again when a unit joins the battle (an APC's
    squad, a decoy), and a skill and a system of one name are told apart."""
    from meks.engine.units import strongpoint

    b = start(battle(duel_scenario(), force(gun("Vulcan", systems=["Phalanx"]), mek(
        "VIPER", skills=["Hawkeye"])), force(gun("Vulcan", systems=["Phalanx"])), []))
    a1, a2, d1 = b.unit("A1"), b.unit("A2"), b.unit("D1")
    assert b.carrying("Phalanx") == [a1, d1]
    assert b.carrying("Hawkeye", skill=True) == [a2]
    assert b.carrying("Hawkeye") == [] and b.carrying("Phalanx", skill=True) == []
    a1.systems[0].destroyed = True  # a lost system still counts: callers check it works
    assert b.carrying("Phalanx") == [a1, d1]
    squad = strongpoint("D2", Side.DEFENDER, 5)
    b.units.append(squad)
    assert b.carrying("Phalanx") == [a1, d1] and len(b._with[(False, "Phalanx")][1]) == 2
    assert b._with[(False, "Phalanx")][0] == len(b.units)
