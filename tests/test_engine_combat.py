"""Zone combat (RULINGS §6), each ruling forced with fixed dice.

Most tests are one exchange in a duel (``exchange``): the attacker wins initiative (6, 1),
two Assault Meks (1d6 movement) tie their movement rolls (3, 3) so the band stays where the
test put it, and then come the dice of the attacks, in the order the engine rolls them.
"""

from __future__ import annotations

from typing import Any

import pytest

from meks.engine.core import Battle, BattleError, RangeChoice
from meks.engine.log import Kind
from meks.engine.units import Sensors, Unit
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
    has_text,
    hold_fire,
    map_scenario,
    post,
    rolls_for,
    start,
    texts,
    told_id,
)

SENSOR = {Sensors.BASIC: (), Sensors.IMPROVED: ("Improved Sensors",),
          Sensors.ADVANCED: ("Advanced Sensors",)}


def shots(b: Battle) -> list[str]:
    return texts(b, Kind.HIT) + texts(b, Kind.MISS)


def shot_texts(b: Battle) -> list[str]:
    return [e.text for e in b.log if e.kind in (Kind.HIT, Kind.MISS)]


# ---- R6.0 simultaneous fire ---------------------------------------------------------------

def test_a_unit_destroyed_in_the_exchange_still_fires_R6_0() -> None:
    def last_hit(b: Battle) -> None:
        b.unit("A1").hits = b.unit("D1").hits = 4

    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"),
                 [*INIT, *TIE, 4, 1,   # Gun hits Foe, Foe's save fails: its last Hit
                  1, 2,                # its critical check (R6.9): Leg Damaged
                  4, 1, 1, 2],         # Foe, doomed, still fires: Gun's save fails too
                 prepare=last_hit)
    gun_unit, foe = b.unit("A1"), b.unit("D1")
    assert gun_unit.destroyed_turn == foe.destroyed_turn == 1
    events = texts(b)
    assert events.index("Foe fires Cannon at Gun: 4+0 vs 4+ - hit.") < \
        events.index("Foe is destroyed; the pilot ejects.")


def test_a_weapon_lost_to_a_critical_still_fires_in_the_exchange_R6_0() -> None:
    """R6.0: the first side's Weapon Destroyed critical takes the weapon away when the
    zone's combat ends, not before the other side's shot."""
    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"),
                 [*INIT, *TIE, 4, 1, 6, 3,   # Gun hits Foe: a critical, Weapon Destroyed
                  4, 1, 1])                  # Foe's only Cannon still fires and hits
    foe = b.unit("D1")
    assert texts(b, Kind.CRITICAL) == ["Critical on Foe: Weapon Destroyed (3) - Cannon "
                                       "destroyed."]
    assert "Foe fires Cannon at Gun: 4+0 vs 4+ - hit." in shot_texts(b)
    assert b.unit("A1").hits == 1
    assert foe.live_weapons() == [] and foe.pending == []


def test_a_system_lost_in_the_exchange_works_until_the_combat_ends_R6_0() -> None:
    """R6.0: a Jammer lost to the first hit still gives -1 to the second shot at it."""
    b = exchange(gun("Cannon", "Cannon"), post(systems=["Jammer"]),
                 [*INIT, *TIE, 5, 1, 6, 6,   # hit (5-1), failed save, critical: System Lost
                  5, 6],                     # the second Cannon still shoots at -1
                 defender_ctl=Scripted(fire=hold_fire))
    assert shot_texts(b) == ["Gun fires Cannon at Post: 5-1 vs 4+ [Jammer -1] - hit.",
                             "Gun fires Cannon at Post: 5-1 vs 4+ [Jammer -1] - hit."]
    assert not b.unit("D1").has_system("Jammer")


def test_critical_effects_outside_the_exchange_take_effect_at_once_R6_0() -> None:
    """R6.0: damage dealt outside an exchange (here a minefield) takes effect at once,
    critical effects included."""
    b = start(battle(map_scenario((4,), (6,)), force(gun("Cannon")), force(post()),
                     [6, 6, 3]))   # the mine (3+): a Hit, check 6, Weapon Destroyed
    b.mines[Side.DEFENDER].append(5)
    b.turn = 1
    assert b.order_move(b.unit("A1"), 5, second=False)
    assert b.unit("A1").live_weapons() == [] and b.unit("A1").pending == []
    assert_all_dice_used(b, [6, 6, 3])


# ---- R6.1 range bands ---------------------------------------------------------------------

def test_a_new_engagement_starts_at_long_and_the_band_persists_R6_1() -> None:
    b = exchange(post(), post(), [*INIT, 5, 3,    # turn 1: 5 to 3, the attacker closes
                                  *INIT, *TIE],   # turn 2: a tie
                 band=None, turns=2, attacker_ctl=Scripted([RangeChoice.CLOSE]))
    assert texts(b, Kind.ENGAGE) == ["Combat begins in zone 5 (Plains) at Long range."]
    assert texts(b, Kind.RANGE) == [
        "Attacker wins the movement roll 5 to 3: range medium in zone 5.",
        "Movement rolls tie (3); the range stays medium."]
    assert b.engagements[5].band is Band.MEDIUM


def test_a_unit_joining_a_running_engagement_joins_at_its_band_R6_1() -> None:
    scenario = map_scenario((5, 4), (5,))
    b = exchange(force(post(), gun("Cannon", name="Joiner")), post(),
                 [*INIT, 3, 3, 3,   # movement: Post, Joiner (just arrived), the defender
                  1],               # Joiner's Cannon fires at once, at Short: a miss
                 scenario=scenario,
                 attacker_ctl=Scripted(deploy=lambda b, s, u: {"A1": 5, "A2": 4},
                                       move_first=lambda b, s: True,
                                       movement=lambda b, s: {"A2": 5}))
    assert shots(b) == ["Joiner fires Cannon at Post: 1+0 vs 4+ - miss."]
    assert texts(b, Kind.ENGAGE) == []


def test_an_engagement_ends_when_one_side_is_gone_R6_1() -> None:
    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 4, 1, 1, 2],
                 prepare=lambda b: setattr(b.unit("D1"), "hits", 4))
    assert 5 not in b.engagements


# ---- R6.2 the movement roll ----------------------------------------------------------------

def movement(spec: Any, dice: list[int], terrain: str = "Plains", jump: bool = False,
             legs: int = 0) -> tuple[int, Battle]:
    b = start(battle(duel_scenario(terrain), force(spec), force(post()), dice,
                     Scripted(jump=lambda b, unit: jump)))
    unit = b.unit("A1")
    unit.legs = legs
    total = b.movement_roll(unit)
    assert len(b.dice.log) == len(dice)
    return total, b


@pytest.mark.parametrize(("size", "dice", "total"), [
    ("Light", [3, 4], 9), ("Medium", [3, 4], 7), ("Heavy", [3], 5), ("Assault", [3], 3),
    ("Titan", [3], 3)])
def test_movement_roll_uses_the_chassis_dice_R6_2(size: str, dice: list[int],
                                                   total: int) -> None:
    assert movement(post(size), dice)[0] == total


@pytest.mark.parametrize(("terrain", "total"), [
    ("Plains", 4), ("Desert", 4), ("Woods", 3), ("Urban", 2), ("Highlands", 2), ("Moors", 3)])
def test_movement_roll_adds_the_terrain_modifier_R6_2(terrain: str, total: int) -> None:
    assert movement(post(), [4], terrain)[0] == total


@pytest.mark.parametrize(("level", "total"), [
    ("Green", 3), ("Regular", 4), ("Veteran", 5), ("Elite", 6)])
def test_movement_roll_adds_the_pilot_level_R6_2(level: str, total: int) -> None:
    assert movement(post(level=level), [4])[0] == total


def test_movement_roll_maneuver_adds_two_R6_2() -> None:
    assert movement(post(skills=["Maneuver"]), [4])[0] == 6


def test_movement_roll_chassis_familiarity_adds_one_for_its_size_only_R6_2() -> None:
    assert movement(post(skills=["Chassis Familiarity (Assault)"]), [4])[0] == 5
    assert movement(post(skills=["Chassis Familiarity (Light)"]), [4])[0] == 4


def test_movement_roll_servo_boosters_add_one_R6_2() -> None:
    assert movement(post("Heavy", systems=["Servo Boosters"]), [4])[0] == 7


def test_movement_roll_loses_one_per_leg_damaged_R6_2() -> None:
    assert movement(post(), [4], legs=1)[0] == 3
    assert movement(post(), [4], legs=2)[0] == 2


def test_movement_roll_jump_jets_add_a_die_ignore_terrain_and_cost_two_heat_R6_2() -> None:
    total, b = movement(post("Medium", systems=["Jump Jets"]), [2, 3, 4], "Urban", jump=True)
    assert total == 9 and b.unit("A1").heat == 2
    assert texts(b, Kind.MOVEMENT_ROLL) == ["Post movement roll 9 -> 9 (jump jets)."]
    total, b = movement(post("Medium", systems=["Jump Jets"]), [2, 3], "Urban", jump=False)
    assert total == 3 and b.unit("A1").heat == 0  # optional each turn


def test_movement_roll_line_names_every_modifier_R6_2() -> None:
    """The log of a movement roll names what was added to the dice, as a to-hit line does,
    from the same list the total is made of."""
    total, b = movement(post("Light", level="Veteran", skills=["Maneuver"],
                             systems=["Servo Boosters"]), [3, 4], "Woods", legs=1)
    assert total == 3 + 4 + 2 - 1 + 1 + 2 + 1 - 1
    assert texts(b, Kind.MOVEMENT_ROLL) == [
        f"Post movement roll 7 -> {total} [move bonus +2, Woods -1, Veteran +1, Maneuver +2, "
        "Servo Boosters +1, Leg Damage -1]."]
    unit = b.unit("A1")
    assert sum(m for m, _ in b.movement_modifiers(unit, False)) == total - 7


def test_a_sides_result_is_its_best_units_roll_R6_2() -> None:
    b = exchange(force(post(), post(name="Fast")), post(), [*INIT, 2, 5, 4], band=None,
                 attacker_ctl=Scripted([RangeChoice.STAY]))
    assert texts(b, Kind.RANGE) == [
        "Attacker wins the movement roll 5 to 4: range long in zone 5."]


# ---- R6.3 what the winner does -------------------------------------------------------------

@pytest.mark.parametrize(("band", "dice", "options"), [
    (Band.LONG, [1, 2, 3], ["stay", "close", "break"]),                   # 5 to 3
    (Band.LONG, [1, 1, 3], ["stay", "close", "break"]),                   # 4 to 3
    (Band.LONG, [2, 2, 3], ["stay", "close", "break"]),                   # 6 is only twice 3
    (Band.LONG, [2, 3, 3], ["stay", "close", "break", "close_two", "double"]),  # 7 to 3
    (Band.MEDIUM, [1, 2, 3], ["stay", "close", "open"]),
    (Band.MEDIUM, [2, 3, 3], ["stay", "close", "open", "double"]),
    (Band.SHORT, [1, 2, 3], ["stay", "open"]),
    (Band.SHORT, [2, 3, 3], ["stay", "open", "open_two", "double"]),
])
def test_the_winners_choices_by_band_and_margin_R6_3(band: Band, dice: list[int],
                                                      options: list[str]) -> None:
    asked: list[tuple[Side, list[str]]] = []

    def record(b: Battle, zone: int, side: Side, opts: list[RangeChoice]) -> RangeChoice:
        asked.append((side, [o.name.lower() for o in opts]))
        return RangeChoice.STAY

    # A Light attacker (2d6+2) against an Assault defender (1d6).
    exchange(post("Light"), post(), [*INIT, *dice], band=band,
             attacker_ctl=Scripted(range_choice=record), defender_ctl=Scripted(
                 range_choice=record))
    assert asked == [(Side.ATTACKER, options)]


@pytest.mark.parametrize(("band", "choice", "after"), [
    (Band.LONG, RangeChoice.CLOSE, Band.MEDIUM), (Band.SHORT, RangeChoice.OPEN, Band.MEDIUM),
    (Band.MEDIUM, RangeChoice.STAY, Band.MEDIUM),
    (Band.LONG, RangeChoice.CLOSE_TWO, Band.SHORT), (Band.SHORT, RangeChoice.OPEN_TWO, Band.LONG),
])
def test_the_winner_shifts_the_band_R6_3(band: Band, choice: RangeChoice, after: Band) -> None:
    b = exchange(post("Light"), post(), [*INIT, 2, 3, 3], band=band,
                 attacker_ctl=Scripted([choice]))
    assert b.engagements[5].band is after


def test_breaking_contact_away_from_long_is_refused_R6_3_issue_15() -> None:
    """Not offered away from Long: an answer that picks it is an error, never a stay."""
    with pytest.raises(BattleError, match="'range_choice' on turn 1"):
        exchange(post("Light"), post(), [*INIT, 2, 3, 3], band=Band.MEDIUM,
                 attacker_ctl=Scripted([RangeChoice.BREAK]))


def test_a_tie_changes_nothing_R6_3() -> None:
    asked: list[object] = []
    b = exchange(post(), post(), [*INIT, *TIE], band=Band.MEDIUM,
                 attacker_ctl=Scripted(range_choice=lambda *a: asked.append(a)),
                 defender_ctl=Scripted(range_choice=lambda *a: asked.append(a)))
    assert asked == [] and b.engagements[5].band is Band.MEDIUM
    assert texts(b, Kind.RANGE) == ["Movement rolls tie (3); the range stays medium."]


def test_the_loser_of_the_roll_does_not_choose_R6_3() -> None:
    b = exchange(post(), post("Light"), [*INIT, 3, 1, 4], band=Band.LONG,
                 defender_ctl=Scripted([RangeChoice.CLOSE]))
    assert "Defender decides: close one band in zone 5" in texts(b, Kind.DECISION)
    assert b.engagements[5].band is Band.MEDIUM


def test_breaking_contact_at_long_stops_all_fire_in_the_zone_R6_3() -> None:
    # The attacker moves second: after breaking contact it walks out in that movement.
    b = exchange(gun("Missile"), gun("Missile", name="Foe"), [*INIT, 5, 3], band=Band.LONG,
                 scenario=map_scenario((5,), (5,)),
                 attacker_ctl=Scripted([RangeChoice.BREAK], movement=lambda b, s: {"A1": 4}),
                 defender_ctl=Scripted(movement=lambda b, s: {}))
    assert texts(b, Kind.BREAK) == [
        "The attacker breaks contact in zone 5; no one fires there this turn."]
    assert shots(b) == []
    assert b.unit("A1").zone == 4


def test_doubled_terrain_hits_the_winners_units_only_this_turn_R6_3() -> None:
    # Woods: the Light's 5+5+2-1 = 11 is more than twice the Assault's 4-1 = 3.
    b = exchange(gun("Cannon", size="Light"), gun("Cannon", name="Foe"),
                 [*INIT, 5, 5, 4,
                  5, 2,      # Gun's Cannon at Foe: 5-1, a hit (not doubled); Foe saves
                  5,         # Foe's Cannon at Gun: 5-2 with the doubled Woods: a miss
                  *INIT, 3, 3, 6,  # turn 2: 3+3+2-1 = 7 to 6-1 = 5, Gun stays
                  1, 6, 6],  # Foe's Cannon at Gun: 6-1, the Woods single again; saved
                 terrain="Woods", turns=2,
                 attacker_ctl=Scripted([RangeChoice.DOUBLE, RangeChoice.STAY],
                                       fire=fire("Cannon")),
                 defender_ctl=Scripted(fire=fire("Cannon")))
    assert shot_texts(b) == [
        "Gun fires Cannon at Foe: 5-1 vs 4+ [Woods -1] - hit.",
        "Foe fires Cannon at Gun: 5-2 vs 4+ [Woods doubled -2] - miss.",
        "Gun fires Cannon at Foe: 1-1 vs 4+ [Woods -1] - miss.",
        "Foe fires Cannon at Gun: 6-1 vs 4+ [Woods -1] - hit.",
    ]


# ---- R6.4 detection and ID -------------------------------------------------------------

MASKED = ["Masking & Insulation"]


@pytest.mark.parametrize(("sensors", "band", "roll", "fires"), [
    (Sensors.BASIC, Band.LONG, None, False),   # Basic: never at Long, no roll
    (Sensors.BASIC, Band.MEDIUM, 3, False),
    (Sensors.BASIC, Band.MEDIUM, 4, True),
    (Sensors.BASIC, Band.SHORT, 4, True),
    (Sensors.IMPROVED, Band.LONG, 3, False),
    (Sensors.IMPROVED, Band.LONG, 4, True),
    (Sensors.ADVANCED, Band.LONG, 1, False),
    (Sensors.ADVANCED, Band.LONG, 2, True),
])
def test_masked_units_need_a_detection_roll_by_sensor_class_R6_4(
        sensors: Sensors, band: Band, roll: int | None, fires: bool) -> None:
    dice = [*INIT, *TIE, *([roll] if roll else []), *([1] if fires else [])]
    b = exchange(gun("Missile", systems=SENSOR[sensors]), post(systems=MASKED), dice,
                 band=band)
    assert len(texts(b, Kind.DETECT)) == (1 if roll else 0)
    assert shots(b) == (["Gun fires Missile at Post: 1+0 vs 3+ - miss."] if fires else [])


def test_masked_units_must_be_detected_again_each_turn_R6_4() -> None:
    b = exchange(gun("Missile"), post(systems=MASKED),
                 [*INIT, *TIE, 4, 1, *INIT, *TIE, 3], band=Band.MEDIUM, turns=2)
    assert texts(b, Kind.DETECT) == [
        "Gun detects the masked Post (4, needs 4).",
        "Gun cannot detect the masked Post (3, needs 4)."]
    assert len(shots(b)) == 1


def infantry_scenario(terrain: str = "Plains") -> Any:
    return map_scenario((5,), (5,), {5: terrain},
                        defender={"strongpoints": [{"zone": 5}]})


@pytest.mark.parametrize(("sensors", "band", "roll", "found"), [
    (Sensors.BASIC, Band.SHORT, 5, False), (Sensors.BASIC, Band.SHORT, 6, True),
    (Sensors.IMPROVED, Band.SHORT, 5, True), (Sensors.IMPROVED, Band.MEDIUM, 5, False),
    (Sensors.IMPROVED, Band.MEDIUM, 6, True),
    (Sensors.ADVANCED, Band.SHORT, 3, True), (Sensors.ADVANCED, Band.SHORT, 2, False),
    (Sensors.ADVANCED, Band.MEDIUM, 4, True), (Sensors.ADVANCED, Band.LONG, 4, False),
    (Sensors.ADVANCED, Band.LONG, 5, True),
])
def test_infantry_detection_by_sensor_class_and_band_R6_4(
        sensors: Sensors, band: Band, roll: int, found: bool) -> None:
    dice = [*INIT, *TIE, roll,
            *([1] if found else []),                 # the Missile's kills roll: none
            *([6] if band is Band.SHORT else [])]    # the strongpoint attacks at Short
    b = exchange(gun("Missile", systems=SENSOR[sensors]), force(), dice, band=band,
                 scenario=infantry_scenario())
    need = {Sensors.BASIC: 6, Sensors.IMPROVED: 5, Sensors.ADVANCED: 3}[sensors]
    band_mod = {Band.SHORT: "+0", Band.MEDIUM: "-1", Band.LONG: "-2"}[band]
    assert texts(b, Kind.DETECT) == [f"Gun {'finds' if found else 'does not find'} "
                                     f"Strongpoint D1 ({roll}{band_mod}, needs {need})."]
    assert len(texts(b, Kind.KILLS)) == (1 if found else 0)


@pytest.mark.parametrize(("sensors", "band"), [
    (Sensors.BASIC, Band.MEDIUM), (Sensors.BASIC, Band.LONG), (Sensors.IMPROVED, Band.LONG)])
def test_no_infantry_detection_die_when_no_roll_could_succeed_R6_4(sensors: Sensors,
                                                                   band: Band) -> None:
    """R6.4: Basic sensors need a 6 (5 at best at Medium), Improved a 5 (4 at best at Long):
    no die is rolled, and the infantry stays unfound."""
    b = exchange(gun("Missile", systems=SENSOR[sensors]), force(), [*INIT, *TIE], band=band,
                 scenario=infantry_scenario())
    assert rolls_for(b, "looks for") == [] and texts(b, Kind.DETECT) == []
    assert not b.unit("D1").detected and texts(b, Kind.KILLS) == []


@pytest.mark.parametrize(("sensors", "band"), [
    (Sensors.BASIC, Band.LONG), (Sensors.BASIC, Band.MEDIUM), (Sensors.IMPROVED, Band.LONG)])
def test_no_masked_detection_or_id_die_when_no_roll_could_succeed_R6_4(sensors: Sensors,
                                                                       band: Band) -> None:
    """R6.4: a masked Mek is out of Basic sensors' targeting at Long, and out of their ID
    reach beyond Short (Improved: beyond Medium): no die is rolled for it."""
    b = start(battle(duel_scenario(), force(post(systems=SENSOR[sensors])),
                     force(post(systems=MASKED)), []))
    spotter, masked = b.unit("A1"), b.unit("D1")
    assert not b.identifies(spotter, masked, band)
    if band is Band.LONG and sensors is Sensors.BASIC:
        assert not b.detect_masked(spotter, masked, band)
    assert b.dice.log == []


def test_infantry_that_attacks_is_detected_R6_4_R6_11() -> None:
    b = exchange(gun("Missile"), force(), [
        *INIT, *TIE, 5,      # turn 1: Basic sensors need a 6: not found
        6,                   # the strongpoint attacks (and misses): now it is detected
        *INIT, *TIE, 1, 6],  # turn 2: no detection roll; a kills roll, then its attack
        turns=2, scenario=infantry_scenario())
    assert len(texts(b, Kind.DETECT)) == 1
    assert len(texts(b, Kind.KILLS)) == 1


def decoy_side(*units: Any) -> Any:
    return force(*(units or (post(),)), support=("Decoy",))


def test_attacks_at_a_decoy_are_wasted_until_it_is_identified_R6_4() -> None:
    # Basic sensors identify at Medium or closer: at Long the contact stays a contact.
    b = exchange(gun("Missile"), decoy_side(), [*INIT, *TIE, 4], band=Band.LONG,
                 attacker_ctl=Scripted(targets=lambda b, u, c, n: [b.unit("D2")]))
    fake = b.unit("D2")
    assert fake.on_map and b.unit("D1").hits == 0
    assert texts(b, Kind.HIT) == ["Gun fires Missile at Spur: 4+0 vs 3+ - hit."]
    assert has_text(b, "The shot passes through Spur: nothing is there.")


@pytest.mark.parametrize(("sensors", "band", "gone"), [
    (Sensors.BASIC, Band.MEDIUM, True), (Sensors.BASIC, Band.SHORT, True),
    (Sensors.IMPROVED, Band.LONG, True), (Sensors.ADVANCED, Band.LONG, True),
])
def test_sensors_identify_a_decoy_at_their_id_band_R6_4(sensors: Sensors, band: Band,
                                                        gone: bool) -> None:
    b = exchange(gun("Missile", systems=SENSOR[sensors]), decoy_side(), [*INIT, *TIE, 1],
                 band=band)
    assert not b.unit("D2").on_map
    assert has_text(b, "Gun identifies the contact in zone 5: a decoy.", Kind.IDENTIFY)
    assert shots(b) == ["Gun fires Missile at Post: 1+0 vs 3+ - miss."]


@pytest.mark.parametrize(("sensors", "band", "roll", "ids"), [
    (Sensors.BASIC, Band.MEDIUM, None, False), (Sensors.BASIC, Band.SHORT, 3, False),
    (Sensors.BASIC, Band.SHORT, 4, True),
    (Sensors.IMPROVED, Band.LONG, None, False), (Sensors.IMPROVED, Band.MEDIUM, 2, False),
    (Sensors.IMPROVED, Band.MEDIUM, 3, True),
    (Sensors.ADVANCED, Band.LONG, 1, False), (Sensors.ADVANCED, Band.LONG, 2, True)])
def test_masked_units_need_an_id_roll_by_sensor_class_R6_4(
        sensors: Sensors, band: Band, roll: int | None, ids: bool) -> None:
    dice = [roll] if roll else []
    b = start(battle(duel_scenario(), force(post(systems=SENSOR[sensors])),
                     force(post(systems=MASKED)), dice))
    assert b.identifies(b.unit("A1"), b.unit("D1"), band) is ids
    assert len(b.dice.log) == len(dice)


def test_advanced_sensors_identify_units_in_adjacent_zones_R6_4() -> None:
    scenario = map_scenario((4,), (5,))
    b = start(battle(scenario, force(post(systems=["Advanced Sensors"], name="Scout")),
                     force(post(), support=("Decoy",)), [*INIT],
                     Scripted(movement=lambda b, s: {}), Scripted(movement=lambda b, s: {})))
    b.play_turn()
    assert texts(b, Kind.IDENTIFY) == [
        "Scout's sensors identify Post in zone 5.",
        "Scout's sensors identify Spur in zone 5. It is a decoy."]
    assert "D1" in b.known[Side.ATTACKER]
    assert not b.unit("D2").on_map


def test_advanced_sensors_roll_two_up_for_masked_units_next_door_R6_4() -> None:
    scenario = map_scenario((4,), (5,))
    b = start(battle(scenario, force(post(systems=["Advanced Sensors"], name="Scout")),
                     force(post(systems=MASKED)), [*INIT, 1],
                     Scripted(movement=lambda b, s: {}), Scripted(movement=lambda b, s: {})))
    b.play_turn()
    assert texts(b, Kind.IDENTIFY) == []
    assert rolls_for(b, "identify masked") == [1]


def test_basic_sensors_do_not_identify_next_door_R6_4() -> None:
    scenario = map_scenario((4,), (5,))
    b = start(battle(scenario, force(post(name="Scout")), force(post(), support=("Decoy",)),
                     [*INIT], Scripted(movement=lambda b, s: {}),
                     Scripted(movement=lambda b, s: {})))
    b.play_turn()
    assert texts(b, Kind.IDENTIFY) == [] and b.unit("D2").on_map


def hawkeye_at_decoy(b: Battle, unit: Unit, candidates: list[Unit]) -> Unit:
    # the decoy, by the label the side knows it under (R8.1)
    return next(c for c in candidates if c.id == told_id(b, "D2"))


@pytest.mark.parametrize(("roll", "gone"), [(5, True), (4, False)])
def test_hawkeye_identifies_one_unit_next_door_on_five_up_R6_4(roll: int, gone: bool) -> None:
    scenario = map_scenario((4,), (5,))
    b = start(battle(scenario, force(post(skills=["Hawkeye"], name="Eyes")),
                     force(post(), support=("Decoy",)), [*INIT, roll],
                     Scripted(movement=lambda b, s: {}, hawkeye=hawkeye_at_decoy),
                     Scripted(movement=lambda b, s: {})))
    b.play_turn()  # tried once a turn: the second combat step rolls no die
    assert b.unit("D2").on_map is not gone
    assert texts(b, Kind.IDENTIFY) == [
        "Eyes's pilot identifies Spur in zone 5 (Hawkeye, 5). It is a decoy." if gone
        else "Eyes's pilot cannot make out Spur (Hawkeye, 4)."]


def test_data_link_lets_friends_fire_missiles_at_what_it_identified_R6_4() -> None:
    # The Data Link Mek (Improved sensors) IDs the masked Post at Medium on 3+; the Missile
    # Mek beside it then fires without a detection roll of its own.
    linker = post(systems=["Data Link", "Improved Sensors"], name="Linker")
    b = exchange(force(linker, gun("Missile")), post(systems=MASKED),
                 [*INIT, 3, 3, 3,
                  1,     # Linker's own detection roll (it picks targets too): fails
                  3,     # Linker's ID roll for its Data Link: 3+ at Medium
                  1],    # Gun's Missile: a miss
                 band=Band.MEDIUM)
    assert texts(b, Kind.IDENTIFY) == ["Linker identifies Post for its Data Link."]
    assert texts(b, Kind.DETECT) == ["Linker cannot detect the masked Post (1, needs 4)."]
    assert shots(b) == ["Gun fires Missile at Post: 1+0 vs 3+ - miss."]


def test_data_link_without_an_id_leaves_friends_to_their_own_sensors_R6_4() -> None:
    linker = post(systems=["Data Link", "Improved Sensors"], name="Linker")
    b = exchange(force(linker, gun("Missile")), post(systems=MASKED),
                 [*INIT, 3, 3, 3, 1,
                  2,     # the ID roll fails
                  3],    # so Gun rolls its own detection (Basic, 4+): fails
                 band=Band.MEDIUM)
    assert shots(b) == []
    assert texts(b, Kind.DETECT)[-1] == "Gun cannot detect the masked Post (3, needs 4)."


def test_data_link_covers_missile_attacks_only_R6_4() -> None:
    linker = post(systems=["Data Link", "Improved Sensors"], name="Linker")
    b = exchange(force(linker, gun("Missile", "Cannon")), post(systems=MASKED),
                 [*INIT, 3, 3, 3, 1, 3,
                  1,     # the Missile fires on the link: a miss
                  3],    # the Cannon needs Gun's own detection roll: 3, fails
                 attacker_ctl=Scripted(fire=fire("Missile", "Cannon")))
    assert shots(b) == ["Gun fires Missile at Post: 1+0 vs 3+ - miss."]
    assert texts(b, Kind.DETECT)[-1] == "Gun cannot detect the masked Post (3, needs 4)."


# ---- R6.5 targets and weapons --------------------------------------------------------------

def everyone(b: Battle, unit: Unit, candidates: list[Unit], limit: int) -> list[Unit]:
    """As many targets as the unit may have (asking for more is refused: see
    tests/test_observation.py)."""
    return candidates[:limit]


def one_each(b: Battle, unit: Unit, targets: list[Unit], band: Band) -> list[Any]:
    """Each weapon at a different target (D1, D2, D3 ...), as far as both go."""
    return list(zip(unit.live_weapons(), targets, strict=False))


def three_posts() -> Any:
    return force(post(name="P1"), post(name="P2"), post(name="P3"))


@pytest.mark.parametrize(("systems", "skills", "count"), [
    ((), (), 1), (("Director",), (), 2), ((), ("Quick Draw",), 2),
    (("Director",), ("Quick Draw",), 3)])
def test_targets_a_turn_one_director_two_quick_draw_one_more_R6_5(
        systems: tuple[str, ...], skills: tuple[str, ...], count: int) -> None:
    b = exchange(gun("Cannon", "Cannon", "Cannon", systems=systems, skills=skills),
                 three_posts(), [*INIT, 3, 3, 3, 3, *[1] * count],
                 attacker_ctl=Scripted(targets=everyone, fire=one_each))
    assert len(shots(b)) == count
    assert texts(b, Kind.DECISION)[1] == "Attacker decides: Gun targets " + ", ".join(
        f"P{i}" for i in range(1, count + 1))


def test_each_weapon_fires_once_a_turn_R6_5() -> None:
    """A plan that fires a weapon twice is refused (issue 15: never silently cut down)."""
    def twice(b: Battle, unit: Unit, targets: list[Unit], band: Band) -> list[Any]:
        return [(unit.weapons[0], targets[0])] * 3

    with pytest.raises(BattleError, match=r"'fire_plan'.*the Cannon has fired already"):
        exchange(gun("Cannon"), post(), [*INIT, *TIE, 1], attacker_ctl=Scripted(fire=twice))


def test_gunnery_fires_one_cannon_a_second_time_at_minus_two_R6_5() -> None:
    def again(b: Battle, unit: Unit, targets: list[Unit], band: Band) -> list[Any]:
        first, second = unit.weapons
        return [(first, targets[0]), (first, targets[0]), (second, targets[0])]

    b = exchange(gun("Cannon", "Cannon", skills=["Gunnery"]), post(),
                 [*INIT, *TIE, 1, 5, 1], attacker_ctl=Scripted(fire=again))
    assert shot_texts(b) == [
        "Gun fires Cannon at Post: 1+0 vs 4+ - miss.",
        "Gun fires Cannon at Post: 5-2 vs 4+ [Gunnery -2] - miss.",
        "Gun fires Cannon at Post: 1+0 vs 4+ - miss.",   # the second Cannon: once only
    ]


def test_gunnery_is_for_cannon_family_and_ciws_only_R6_5() -> None:
    def again(b: Battle, unit: Unit, targets: list[Unit], band: Band) -> list[Any]:
        return [(unit.weapons[0], targets[0])] * 2

    with pytest.raises(BattleError, match="the Laser has fired already"):
        exchange(gun("Laser", skills=["Gunnery"]), post(), [*INIT, *TIE, 1],
                 attacker_ctl=Scripted(fire=again))
    b = exchange(gun("Rail Cannon", skills=["Gunnery"]), post(), [*INIT, *TIE, 1, 1],
                 attacker_ctl=Scripted(fire=again))
    assert len(shots(b)) == 2


@pytest.mark.parametrize(("weapon", "band", "fires"), [
    ("Cannon", Band.SHORT, True), ("Cannon", Band.MEDIUM, False),
    ("Vulcan Cannon", Band.MEDIUM, False), ("6-Pack Missile", Band.MEDIUM, False),
    ("Rail Cannon", Band.MEDIUM, True), ("Rail Cannon", Band.LONG, False),
    ("Laser", Band.SHORT, True), ("Laser", Band.MEDIUM, True), ("Laser", Band.LONG, False),
    ("Twin Laser", Band.LONG, False), ("Swarm Missile", Band.LONG, False),
    ("Turbo Laser", Band.LONG, True), ("PPC", Band.LONG, True), ("Missile", Band.LONG, True),
    ("Hammer Missile", Band.LONG, True), ("Howitzer", Band.LONG, True),
    ("Howitzer", Band.SHORT, True),
])
def test_a_weapon_fires_at_its_band_and_any_shorter_R6_5(weapon: str, band: Band,
                                                         fires: bool) -> None:
    dice = [*INIT, *TIE, *([1, 1] if fires and weapon in ("Vulcan Cannon", "Swarm Missile")
                           else [1] if fires else [])]
    if not fires:  # a plan that fires it out of its range is refused
        with pytest.raises(BattleError, match=f"the {weapon} cannot fire at it at "
                           f"{band.value} range"):
            exchange(gun(weapon), post(), dice, band=band,
                     attacker_ctl=Scripted(fire=fire(weapon)))
        return
    b = exchange(gun(weapon), post(), dice, band=band, attacker_ctl=Scripted(fire=fire()))
    assert bool(shots(b)) is fires


# ---- R6.6 to-hit modifiers -----------------------------------------------------------------

def first_shot(weapon: str, roll: int, target: Any = None, band: Band = Band.SHORT,
               terrain: str = "Plains", shooter: Any = None, extra: list[int] | None = None,
               **house: Any) -> str:
    """The text of the one to-hit roll of ``weapon`` (a miss, unless ``extra`` dice follow
    for its armor save)."""
    b = exchange(shooter or gun(weapon), target or post(), [*INIT, *TIE, roll, *(extra or [])],
                 band=band, terrain=terrain, attacker_ctl=Scripted(fire=fire(weapon)), **house)
    return shots(b)[0]


@pytest.mark.parametrize(("terrain", "text"), [
    ("Plains", "3+0 vs 4+ - miss."), ("Desert", "3+0 vs 4+ - miss."),
    ("Woods", "3-1 vs 4+ [Woods -1] - miss."), ("Urban", "3-2 vs 4+ [Urban -2] - miss."),
    ("Highlands", "3-1 vs 4+ [Highlands -1] - miss."), ("Moors", "3-1 vs 4+ [Moors -1] - miss.")])
def test_terrain_modifies_to_hit_R6_6(terrain: str, text: str) -> None:
    assert first_shot("Cannon", 3, terrain=terrain) == f"Gun fires Cannon at Post: {text}"


def test_howitzer_ignores_terrain_R6_6_R6_7() -> None:
    assert first_shot("Howitzer", 3, terrain="Urban") == \
        "Gun fires Howitzer at Post: 3+0 vs 4+ - miss."


def test_jammer_on_the_target_is_minus_one_R6_6() -> None:
    assert first_shot("Cannon", 3, post(systems=["Jammer"])) == \
        "Gun fires Cannon at Post: 3-1 vs 4+ [Jammer -1] - miss."


def test_targeting_array_plus_one_on_a_single_target_only_R6_6() -> None:
    assert first_shot("Cannon", 2, shooter=gun("Cannon", systems=["Targeting Array"])) == \
        "Gun fires Cannon at Post: 2+1 vs 4+ [Targeting Array +1] - miss."
    b = exchange(gun("Cannon", "Cannon", systems=["Targeting Array", "Director"]),
                 force(post(name="P1"), post(name="P2")), [*INIT, 3, 3, 3, 2, 2],
                 attacker_ctl=Scripted(targets=everyone, fire=one_each))
    assert shot_texts(b) == ["Gun fires Cannon at P1: 2+0 vs 4+ - miss.",
                             "Gun fires Cannon at P2: 2+0 vs 4+ - miss."]


@pytest.mark.parametrize(("level", "text"), [
    ("Green", "3-1 vs 4+ [Green -1] - miss."), ("Regular", "3+0 vs 4+ - miss."),
    ("Veteran", "3+0 vs 4+ - miss."), ("Elite", "2+1 vs 4+ [Elite +1] - miss.")])
def test_pilot_level_modifies_to_hit_R6_6(level: str, text: str) -> None:
    roll = int(text[0])
    movement = {"Green": [4, 3], "Regular": [3, 3], "Veteran": [2, 3], "Elite": [1, 3]}[level]
    b = exchange(gun("Cannon", level=level), post(), [*INIT, *movement, roll])
    assert shots(b) == [f"Gun fires Cannon at Post: {text}"]


def test_computers_critical_is_minus_one_next_turn_only_R6_6_R6_9() -> None:
    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"), [
        *INIT, *TIE, 1,          # turn 1: Gun misses
        4, 1, 5, 5,              # Foe hits, Gun fails its save, a critical: Computers
        *INIT, *TIE, 4, 1,       # turn 2: Gun's 4 is 3 now; Foe misses
        *INIT, *TIE, 1, 1],      # turn 3: no penalty
        turns=3)
    assert shot_texts(b)[0] == "Gun fires Cannon at Foe: 1+0 vs 4+ - miss."
    assert shot_texts(b)[2] == \
        "Gun fires Cannon at Foe: 4-1 vs 4+ [Computers damaged -1] - miss."
    assert shot_texts(b)[4] == "Gun fires Cannon at Foe: 1+0 vs 4+ - miss."


def test_a_second_computers_critical_does_not_lift_the_first_R6_6_R6_9() -> None:
    # The defender wins initiative and fires first each turn.
    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"), [
        1, 6, *TIE, 4, 1, 5, 5, 1,     # turn 1: Computers on Gun; Gun misses
        1, 6, *TIE, 4, 1, 5, 5, 4,     # turn 2: Computers again, then Gun fires at -1
        1, 6, *TIE, 1, 4],             # turn 3: the second critical's -1
        turns=3)
    gun_shots = [t for t in shot_texts(b) if t.startswith("Gun")]
    assert gun_shots == [
        "Gun fires Cannon at Foe: 1+0 vs 4+ - miss.",
        "Gun fires Cannon at Foe: 4-1 vs 4+ [Computers damaged -1] - miss.",
        "Gun fires Cannon at Foe: 4-1 vs 4+ [Computers damaged -1] - miss."]


@pytest.mark.parametrize(("skill", "weapon"), [
    ("Accuracy", "Cannon"), ("Guidance", "Missile"), ("Steady Hand", "Laser")])
def test_family_skills_add_one_to_one_attack_a_turn_R6_6(skill: str, weapon: str) -> None:
    need = {"Cannon": 4, "Missile": 3, "Laser": 2}[weapon]
    roll = need - 1  # a hit only with the +1 (then a save of 6)
    b = exchange(gun(weapon, weapon, skills=[skill]), post(), [*INIT, *TIE, roll, 6, roll],
                 attacker_ctl=Scripted(fire=fire(weapon, weapon)))
    assert shot_texts(b) == [
        f"Gun fires {weapon} at Post: {roll}+1 vs {need}+ [{skill} +1] - hit.",
        f"Gun fires {weapon} at Post: {roll}+0 vs {need}+ - miss."]


def test_family_skills_do_not_help_other_families_R6_6() -> None:
    assert first_shot("Cannon", 1, shooter=gun("Cannon", skills=["Guidance", "Steady Hand"])) \
        == "Gun fires Cannon at Post: 1+0 vs 4+ - miss."


def test_spoof_minus_one_on_one_enemy_missile_attack_a_turn_R6_6() -> None:
    b = exchange(gun("Missile", "Missile", "Cannon", size="Titan"), post(skills=["Spoof"]),
                 [*INIT, *TIE, 2, 2, 1], attacker_ctl=Scripted(fire=fire()))
    assert shot_texts(b) == [
        "Gun fires Missile at Post: 2-1 vs 3+ [Spoof -1] - miss.",
        "Gun fires Missile at Post: 2+0 vs 3+ - miss.",
        "Gun fires Cannon at Post: 1+0 vs 4+ - miss."]


@pytest.mark.parametrize(("band", "text"), [
    (Band.SHORT, "2+0 vs 3+ - miss."), (Band.MEDIUM, "2-1 vs 3+ [Point Defense -1] - miss."),
    (Band.LONG, "2-1 vs 3+ [Point Defense -1] - miss.")])
def test_point_defense_minus_one_against_missiles_at_medium_and_long_R6_6(
        band: Band, text: str) -> None:
    assert first_shot("Missile", 2, post(systems=["Point Defense"]), band) == \
        f"Gun fires Missile at Post: {text}"


def test_point_defense_does_not_touch_other_families_R6_6() -> None:
    assert first_shot("Laser", 1, post(systems=["Point Defense"]), Band.MEDIUM) == \
        "Gun fires Laser at Post: 1+0 vs 2+ - miss."


@pytest.mark.parametrize(("band", "text"), [
    (Band.SHORT, "2-1 vs 3+ [Phalanx -1] - miss."), (Band.MEDIUM, "2-1 vs 3+ [Phalanx -1] - miss."),
    (Band.LONG, "3-2 vs 3+ [Phalanx -2] - miss.")])
def test_phalanx_protects_every_friendly_unit_in_its_zone_R6_6(band: Band, text: str) -> None:
    roll = int(text[0])
    b = exchange(gun("Missile"), force(post(), post(systems=["Phalanx"], name="Shield")),
                 [*INIT, 3, 3, 3, roll], band=band,
                 attacker_ctl=Scripted(targets=lambda b, u, c, n: [b.unit("D1")]))
    assert shots(b) == [f"Gun fires Missile at Post: {text}"]


@pytest.mark.parametrize("system", ["Point Defense", "Phalanx"])
def test_hammer_is_minus_two_instead_against_point_defense_and_phalanx_R6_6_R6_7(
        system: str) -> None:
    assert first_shot("Hammer Missile", 4, post(systems=[system]), Band.LONG) == \
        "Gun fires Hammer Missile at Post: 4-2 vs 3+ [Hammer vs defenses -2] - miss."
    assert first_shot("Hammer Missile", 4, post(systems=[system]), Band.SHORT) == \
        "Gun fires Hammer Missile at Post: 4-2 vs 3+ [Hammer vs defenses -2] - miss."


def test_a_six_does_not_always_hit_unless_the_house_rule_says_so_R6_6() -> None:
    target = post(systems=["Jammer"])
    assert first_shot("Cannon", 6, target, terrain="Urban") == \
        "Gun fires Cannon at Post: 6-3 vs 4+ [Urban -2, Jammer -1] - miss."
    assert first_shot("Cannon", 6, target, terrain="Urban", extra=[6],
                      six_always_hits=True) == \
        "Gun fires Cannon at Post: 6-3 vs 4+ [Urban -2, Jammer -1] - hit."


# ---- R6.7 weapon rules --------------------------------------------------------------------

@pytest.mark.parametrize("weapon", ["Vulcan Cannon", "Swarm Missile"])
def test_vulcan_and_swarm_roll_two_dice_each_a_separate_hit_R6_7(weapon: str) -> None:
    b = exchange(gun(weapon), post(), [*INIT, *TIE, 5, 1,   # first die hits; save fails
                                       4,                   # no critical (4 vs 4)
                                       5, 1, 2],            # second die hits too
                 attacker_ctl=Scripted(fire=fire(weapon)))
    assert len(texts(b, Kind.HIT)) == 2 and b.unit("D1").hits == 2


@pytest.mark.parametrize("weapon", ["Twin Laser", "6-Pack Missile"])
def test_twin_laser_and_six_pack_reroll_a_missed_die_once_R6_7(weapon: str) -> None:
    b = exchange(gun(weapon), post(), [*INIT, *TIE, 1, 4, 2],   # 1 misses, 4 hits; saved
                 attacker_ctl=Scripted(fire=fire(weapon)))
    assert rolls_for(b, "re-roll") == [4]
    assert len(texts(b, Kind.HIT)) == 1
    b = exchange(gun(weapon), post(), [*INIT, *TIE, 1, 1],       # re-rolled once only
                 attacker_ctl=Scripted(fire=fire(weapon)))
    assert len(texts(b, Kind.MISS)) == 1


def test_single_die_weapons_do_not_reroll_a_miss_R6_7() -> None:
    b = exchange(gun("Laser", "Cannon"), post(), [*INIT, *TIE, 1, 1],
                 attacker_ctl=Scripted(fire=fire()))
    assert len(texts(b, Kind.MISS)) == 2 and rolls_for(b, "re-roll") == []


@pytest.mark.parametrize(("band", "roll", "hit"), [
    (Band.SHORT, 4, True), (Band.MEDIUM, 4, False), (Band.MEDIUM, 5, True)])
def test_rail_cannon_needs_four_at_short_five_at_medium_R6_7(band: Band, roll: int,
                                                             hit: bool) -> None:
    text = first_shot("Rail Cannon", roll, band=band, extra=[6] if hit else [])
    assert text.endswith("hit." if hit else "miss.")
    assert f"vs {4 if band is Band.SHORT else 5}+" in text


@pytest.mark.parametrize(("weapon", "band", "need"), [
    ("Cannon", Band.SHORT, 4), ("Laser", Band.MEDIUM, 2), ("Turbo Laser", Band.LONG, 2),
    ("PPC", Band.LONG, 2), ("Missile", Band.LONG, 3), ("Hammer Missile", Band.LONG, 3),
    ("Howitzer", Band.LONG, 4)])
def test_to_hit_numbers_of_the_single_die_weapons_R6_7(weapon: str, band: Band,
                                                      need: int) -> None:
    assert first_shot(weapon, need - 1, band=band) == \
        f"Gun fires {weapon} at Post: {need - 1}+0 vs {need}+ - miss."
    assert first_shot(weapon, need, band=band, extra=[6]).endswith(" - hit.")


def test_turbo_laser_reaches_long_range_and_hits_on_two_R6_7() -> None:
    b = exchange(gun("Turbo Laser"), post(), [*INIT, *TIE, 2, 6], band=Band.LONG)
    assert shot_texts(b) == ["Gun fires Turbo Laser at Post: 2+0 vs 2+ - hit."]
    assert b.unit("A1").heat == 0 and texts(b, Kind.OVERHEAT) == []


@pytest.mark.parametrize("weapon", ["CIWS", "Minigun", "Grenade Launcher"])
def test_small_weapons_attack_only_infantry_R6_7(weapon: str) -> None:
    with pytest.raises(BattleError, match=f"the {weapon} cannot fire at it"):
        exchange(gun(weapon), post(), [*INIT, *TIE], attacker_ctl=Scripted(fire=fire(weapon)))


@pytest.mark.parametrize(("band", "rerolled"), [(Band.LONG, True), (Band.MEDIUM, False)])
def test_ppc_at_long_rerolls_a_failed_critical_check_R6_7(band: Band, rerolled: bool) -> None:
    dice = [*INIT, *TIE, 2, 1,   # hit; the save fails
            2,                   # critical check 2 vs 4 remaining: none
            *([5, 2] if rerolled else [])]  # at Long: re-rolled 5, a critical: Leg Damaged
    b = exchange(gun("PPC"), post(), dice, band=band, attacker_ctl=Scripted(fire=fire("PPC")))
    assert bool(rolls_for(b, "PPC at Long")) is rerolled
    assert b.unit("D1").legs == (1 if rerolled else 0)


# ---- R6.8 armor saves ---------------------------------------------------------------------

@pytest.mark.parametrize(("roll", "saved"), [(3, True), (2, False)])
def test_a_save_needs_the_armor_rating_R6_8(roll: int, saved: bool) -> None:
    dice = [*INIT, 3, 3, 4, roll, *([] if saved else [1])]  # a Heavy (1d6+2) target, AR 3
    b = exchange(gun("Cannon"), post("Heavy"), dice)
    assert texts(b, Kind.SAVE) == [f"Post armor save {roll}+0 vs 3+: "
                                   + ("saved." if saved else "failed.")]
    assert b.unit("D1").hits == (0 if saved else 1)


def test_hammer_saves_at_minus_one_R6_8() -> None:
    b = exchange(gun("Hammer Missile"), post("Heavy"), [*INIT, 3, 3, 3, 3, 1])
    assert texts(b, Kind.SAVE) == ["Post armor save 3-1 vs 3+: failed."]


@pytest.mark.parametrize(("armor", "weapon", "family_ok"), [
    ("Reactive Armor", "Missile", True), ("Reactive Armor", "Laser", False),
    ("BPC Armor", "Laser", True), ("BPC Armor", "Cannon", False)])
def test_reactive_and_bpc_reroll_a_failed_save_of_their_family_R6_8(
        armor: str, weapon: str, family_ok: bool) -> None:
    dice = [*INIT, *TIE, 6, 1, *([2] if family_ok else [1])]  # a hit; the save fails
    b = exchange(gun(weapon), post(systems=[armor]), dice)
    if family_ok:
        assert texts(b, Kind.SAVE) == ["Post armor save 2+0 vs 2+ after a re-roll: saved."]
    else:
        assert texts(b, Kind.SAVE) == ["Post armor save 1+0 vs 2+: failed."]


@pytest.mark.parametrize(("weapon", "mod"), [
    ("Cannon", 1), ("Rail Cannon", 1), ("Vulcan Cannon", 1), ("Howitzer", 1), ("Laser", 0),
    ("Missile", 0)])
def test_space_lam_adds_one_against_the_cannon_family_R6_8(weapon: str, mod: int) -> None:
    dice = [*INIT, 3, 3, 6, 2, *([] if mod else [1])]
    if weapon == "Vulcan Cannon":
        dice.append(1)  # its second die misses
    b = exchange(gun(weapon), post("Heavy", systems=["Space-Lam Armor"]), dice,
                 attacker_ctl=Scripted(fire=fire(weapon)))
    assert texts(b, Kind.SAVE)[0] == f"Post armor save 2{mod:+d} vs 3+: " + (
        "saved." if mod else "failed.")


@pytest.mark.parametrize(("move", "dodges"), [([3, 3], True), ([2, 3], False)])
def test_agility_dodges_one_attack_a_turn_after_a_move_roll_of_eight_R6_8(
        move: list[int], dodges: bool) -> None:
    # The Light target's movement roll 3+3+2 = 8 (dodges) or 7 (does not).
    dice = [*INIT, 3, *move, 4, *([] if dodges else [5]), 4, 5]
    b = exchange(gun("Cannon", "Cannon"), post("Light", skills=["Agility"]), dice,
                 defender_ctl=Scripted([RangeChoice.STAY]))
    target = b.unit("D1")
    assert texts(b, Kind.DODGE) == (["Post dodges the Cannon (Agility)."] if dodges else [])
    assert len(texts(b, Kind.SAVE)) == (1 if dodges else 2)
    assert target.heat == 0  # the turn is over; heat fades (R6.10)


@pytest.mark.parametrize("dodges", [True, False])
def test_agility_dodges_a_whole_attack_both_dice_of_a_vulcan_R6_8(dodges: bool) -> None:
    """R6.8: the dodge is decided once, after both to-hit dice of a Vulcan, knowing the two
    hits at stake, and avoids both; declined, both hits go to their saves."""
    asked: list[tuple[str, int]] = []

    def dodge(b: Battle, unit: Unit, weapon: Any, hits: int) -> bool:
        asked.append((weapon.name, hits))
        return dodges
    # The Light target's own movement roll 3+3+2 = 8; the Vulcan hits twice (6, 6).
    dice = [*INIT, 3, 3, 3, 6, 6, *([] if dodges else [6, 6])]
    b = exchange(gun("Vulcan Cannon"), post("Light", skills=["Agility"]), dice,
                 defender_ctl=Scripted([RangeChoice.STAY], dodge=dodge))
    assert asked == [("Vulcan Cannon", 2)]
    assert len(texts(b, Kind.HIT)) == 2
    assert texts(b, Kind.DODGE) == (["Post dodges the Vulcan Cannon, 2 hits (Agility)."]
                                    if dodges else [])
    assert len(texts(b, Kind.SAVE)) == (0 if dodges else 2)


def test_agility_costs_one_heat_R6_8_R6_10() -> None:
    b = start(battle(duel_scenario(), force(gun("Cannon")),
                     force(post("Light", skills=["Agility"])),
                     [*INIT, 3, 3, 3, 4]), Band.SHORT)
    b.turn = 1
    b.start_turn()
    b.initiative()
    b.combat_step()
    assert b.unit("D1").heat == 1 and b.unit("D1").dodged


# ---- R6.9 damage and critical hits -----------------------------------------------------------

@pytest.mark.parametrize(("check", "crit"), [(4, False), (5, True)])
def test_a_critical_when_the_check_beats_the_hits_remaining_R6_9(check: int,
                                                                 crit: bool) -> None:
    dice = [*INIT, *TIE, 4, 1, check, *([2] if crit else [])]
    b = exchange(gun("Cannon"), post(), dice)
    assert b.unit("D1").hits == 1
    assert texts(b, Kind.DAMAGE) == ["Post takes a hit (1/5)."]
    assert has_text(b, f"Critical check on Post: {check} vs 4 remaining - "
                    + ("critical!" if crit else "no critical."))
    assert b.unit("D1").legs == (1 if crit else 0)


@pytest.mark.parametrize(("check", "table"), [(1, 2), (6, 5)])
def test_the_killing_hit_gets_its_critical_check_R6_9(check: int, table: int) -> None:
    """R6.9: the Hit that brings a unit to its Hits is checked too; with no Hits left, any
    roll beats them."""
    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 4, 1, check, table],
                 prepare=lambda b: setattr(b.unit("D1"), "hits", 4))
    post_unit = b.unit("D1")
    assert post_unit.destroyed_turn == 1
    assert rolls_for(b, "critical check") == [check]
    assert has_text(b, f"Critical check on Post: {check} vs 0 remaining - critical!")
    assert len(texts(b, Kind.CRITICAL)) == 1
    assert b.unit("A1").mek_kills == 1
    assert not post_unit.pilot.dead  # type: ignore[union-attr]  # it ejects
    assert has_text(b, "Post is destroyed; the pilot ejects.", Kind.DESTROYED)


def test_a_reactor_blown_by_the_killing_hit_kills_the_pilot_R6_9_R2_6() -> None:
    """R6.9 and R2.6: a Reactor Core explosion rolled on the killing Hit's critical kills
    the pilot (who would otherwise eject); the kill is counted once."""
    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 4, 1, 2, 4, 1],
                 prepare=lambda b: setattr(b.unit("D1"), "hits", 4))
    post_unit = b.unit("D1")
    assert has_text(b, "Critical on Post: Reactor Core (4) - the reactor explodes (1).")
    assert post_unit.exploded and post_unit.pilot.dead  # type: ignore[union-attr]
    assert has_text(b, "Post is destroyed and its pilot dies.", Kind.DESTROYED)
    assert b.unit("A1").mek_kills == 1


def test_pinpoint_attack_is_not_spent_on_a_killing_hit_R6_9() -> None:
    """The killing Hit's check cannot fail, so Pinpoint Attack waits for a hit that needs
    it."""
    b = exchange(gun("Cannon", skills=["Pinpoint Attack"]), post(),
                 [*INIT, *TIE, 4, 1, 3, 2],
                 prepare=lambda b: setattr(b.unit("D1"), "hits", 4))
    assert rolls_for(b, "critical check") == [3]
    assert "Pinpoint" not in b.unit("A1").turn_skills


def crit_on_post(table: int, *more: int, target: Any = None, shooter: Any = None) -> Battle:
    """A hit, a failed save, a critical check of 6 (4 remaining), then the table roll."""
    return exchange(shooter or gun("Cannon"), target or post(),
                    [*INIT, *TIE, 4, 1, 6, table, *more],
                    defender_ctl=Scripted(fire=hold_fire))


def test_critical_1_pilot_wounded_acts_only_on_five_up_R6_9() -> None:
    b = crit_on_post(1)
    assert b.unit("D1").pilot.wounded  # type: ignore[union-attr]
    assert texts(b, Kind.CRITICAL) == [
        "Critical on Post: Pilot Wounded (1) - from next turn on it acts only on 5+."]


@pytest.mark.parametrize(("roll", "acts"), [(4, False), (5, True)])
def test_a_wounded_pilot_rolls_each_turn_to_act_R6_9(roll: int, acts: bool) -> None:
    # Turn 2: the wounded Foe rolls first; on a 4 it neither rolls to move nor fires.
    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"), [
        *INIT, *TIE, 4, 1, 6, 1, 1,          # turn 1: Foe's pilot is wounded; Foe misses
        roll, *INIT, 3, *([3] if acts else []), 1, *([1] if acts else [])],
        turns=2)
    foe = b.unit("D1")
    assert foe.can_act is acts
    assert has_text(b, f"Foe's wounded pilot rolls {roll}: "
                    + ("acts this turn." if acts else "cannot act this turn."))
    assert len([t for t in shot_texts(b) if t.startswith("Foe")]) == (2 if acts else 1)


def test_critical_2_leg_damaged_is_cumulative_R6_9() -> None:
    b = exchange(gun("Cannon", "Cannon"), post(), [*INIT, *TIE, 4, 1, 6, 2, 4, 1, 6, 2],
                 defender_ctl=Scripted(fire=hold_fire))
    assert b.unit("D1").legs == 2
    assert texts(b, Kind.CRITICAL)[-1] == "Critical on Post: Leg Damaged (2) - -2 to movement."


def test_critical_3_destroys_a_random_weapon_R6_9() -> None:
    b = crit_on_post(3, 2, target=post(weapons=["Cannon", "Laser"]))  # 2: the Laser
    target = b.unit("D1")
    assert [s.name for s in target.live_weapons()] == ["Cannon"]
    assert texts(b, Kind.CRITICAL) == ["Critical on Post: Weapon Destroyed (3) - Laser "
                                       "destroyed."]


def test_critical_3_with_no_weapon_left_has_no_effect_R6_9() -> None:
    b = crit_on_post(3)
    assert texts(b, Kind.CRITICAL) == ["Critical on Post: Weapon Destroyed (3) - no weapon "
                                       "left to lose."]


@pytest.mark.parametrize(("blast", "explodes"), [(3, True), (4, False)])
def test_critical_4_reactor_explodes_on_one_to_three_R6_9(blast: int, explodes: bool) -> None:
    b = crit_on_post(4, blast)
    target = b.unit("D1")
    assert (target.destroyed_turn == 1) is explodes
    if explodes:
        assert target.exploded and target.pilot.dead  # type: ignore[union-attr]
        assert b.unit("A1").mek_kills == 1
        assert has_text(b, "Post is destroyed and its pilot dies.", Kind.DESTROYED)
    else:
        assert has_text(b, "the reactor holds (4)")


def test_critical_5_computers_R6_9() -> None:
    b = crit_on_post(5)
    assert b.unit("D1").computers_turns == {2}


def test_critical_6_loses_a_random_non_armor_system_R6_9() -> None:
    b = crit_on_post(6, 2, target=post(systems=["Heat Sink", "Reactive Armor", "Targeting Array"]),
                     shooter=gun("Cannon"))
    lost = [s.system.name for s in b.unit("D1").systems if s.destroyed]
    assert lost == ["Targeting Array"]


def test_critical_6_with_only_armor_left_has_no_effect_R6_9() -> None:
    b = crit_on_post(6, target=post(systems=["Reactive Armor"]))
    assert texts(b, Kind.CRITICAL) == ["Critical on Post: System Lost (6) - no system left to "
                                       "lose."]


def test_pinpoint_attack_crits_one_damaging_attack_a_turn_without_a_check_R6_9() -> None:
    b = exchange(gun("Cannon", "Cannon", skills=["Pinpoint Attack"]), post(),
                 [*INIT, *TIE, 4, 1, 2,   # first damaging hit: straight to the table
                  4, 1, 1])               # second: a check as usual (1: none)
    assert has_text(b, "Gun's pilot places the shot (Pinpoint Attack).")
    assert rolls_for(b, "critical check") == [1]
    assert b.unit("D1").legs == 1


def test_sharpshooter_rerolls_one_failed_check_a_turn_R6_9() -> None:
    b = exchange(gun("Cannon", "Cannon", skills=["Sharpshooter"]), post(),
                 [*INIT, *TIE, 4, 1, 1, 6, 2,   # check 1 fails, re-rolled 6: Leg Damaged
                  4, 1, 1])                      # the next failed check stays failed
    assert rolls_for(b, "Sharpshooter") == [6]
    assert b.unit("D1").legs == 1


@pytest.mark.parametrize(("confirm", "crit"), [(4, False), (5, True)])
def test_spaul_liner_needs_a_critical_confirmed_R6_9(confirm: int, crit: bool) -> None:
    b = crit_on_post(*([confirm, 2] if crit else [confirm]),
                     target=post(systems=["Spaul Liner"]))
    assert has_text(b, f"Post's Spaul Liner {'fails' if crit else 'holds'} ({confirm}).")
    assert b.unit("D1").legs == (1 if crit else 0)


def test_damage_control_ignores_the_first_critical_R6_9() -> None:
    b = exchange(gun("Cannon", "Cannon"), post(skills=["Damage Control"]),
                 [*INIT, *TIE, 4, 1, 6,       # first critical: contained, no table roll
                  4, 1, 6, 2])                # second: Leg Damaged
    assert texts(b, Kind.CRITICAL) == [
        "Post's crew contains the damage (Damage Control).",
        "Critical on Post: Leg Damaged (2) - -1 to movement."]


# ---- R6.10 heat -----------------------------------------------------------------------------

def unit_of(spec: Any) -> Unit:
    return start(battle(duel_scenario(), force(spec), force(post()), [])).unit("A1")


def test_heat_rating_chassis_heat_sinks_moors_and_familiarity_R6_10() -> None:
    assert unit_of(post("Light")).heat_rating(moors=False) == 2
    assert unit_of(post("Titan")).heat_rating(moors=False) == 8
    assert unit_of(post(systems=["Heat Sink"])).heat_rating(moors=False) == 7
    assert unit_of(post(systems=["Heat Sink", "Heat Sink"])).heat_rating(moors=False) == 8
    assert unit_of(post()).heat_rating(moors=True) == 7
    assert unit_of(post(skills=["Chassis Familiarity"])).heat_rating(moors=False) == 7
    assert unit_of(post(skills=["Chassis Familiarity (Light)"])).heat_rating(
        moors=False) == 6


@pytest.mark.parametrize(("roll", "overheats"), [(2, False), (1, True)])
def test_overheat_roll_for_each_weapon_above_the_rating_R6_10(roll: int,
                                                             overheats: bool) -> None:
    # A Light (rating 2) fires a Missile (3 heat): 1 over, the roll must beat 1.
    dice = [*INIT, 1, 1, 4, roll, *([] if overheats else [1])]
    b = exchange(gun("Missile", size="Light"), post(), dice,
                 attacker_ctl=Scripted(fire=fire("Missile")))
    shooter = b.unit("A1")
    if overheats:
        assert texts(b, Kind.OVERHEAT) == ["Gun's Missile overheats (1 <= 1) and is destroyed; "
                                           "Gun takes 2 hits."]
        assert shooter.hits == 2 and shooter.destroyed_turn == 1 and shots(b) == []
        assert texts(b, Kind.SAVE) == [] and rolls_for(b, "critical") == []
    else:
        assert texts(b, Kind.OVERHEAT) == ["Gun runs hot (3/2) but its Missile holds (2 > 1)."]
        assert len(shots(b)) == 1


def test_overheat_excess_is_cumulative_and_non_missiles_deal_one_hit_R6_10() -> None:
    # A Light (rating 2) fires four Cannons: heat 1, 2, 3 (1 over: 2 holds), 4 (2 over: 2
    # overheats, 1 Hit, and no shot).
    b = exchange(gun("Cannon", "Cannon", "Cannon", "Cannon", size="Light", name="Hot"), post(),
                 [*INIT, 1, 1, 4, 1, 1, 2, 1, 2], attacker_ctl=Scripted(fire=fire()))
    hot = b.unit("A1")
    assert hot.hits == 1 and [s.destroyed for s in hot.weapons] == [False, False, False, True]
    assert len(shots(b)) == 3
    assert texts(b, Kind.OVERHEAT)[-1] == ("Hot's Cannon overheats (2 <= 2) and is destroyed; "
                                           "Hot takes 1 hit.")


@pytest.mark.parametrize(("where", "spec"), [
    ("Moors", gun("Missile", size="Light")),
    ("Plains", gun("Missile", size="Light", systems=["Heat Sink"])),
])
def test_moors_and_heat_sinks_raise_the_rating_R6_10(where: str, spec: Any) -> None:
    # A tie either way: 1+1+2 (-1) against 4 (-1).
    b = exchange(spec, post(), [*INIT, 1, 1, 4, 1], terrain=where,
                 attacker_ctl=Scripted(fire=fire("Missile")))
    assert texts(b, Kind.OVERHEAT) == []


def test_chassis_familiarity_raises_the_rating_R6_10() -> None:
    b = exchange(gun("Missile", size="Light", skills=["Chassis Familiarity"]), post(),
                 [*INIT, 1, 1, 5, 1], attacker_ctl=Scripted(fire=fire("Missile")))
    assert texts(b, Kind.OVERHEAT) == []


def test_heat_resets_at_the_end_of_the_turn_R6_10() -> None:
    # A Medium (rating 4) fires two Missiles each turn: 3, then 6 (2 over) both turns.
    b = exchange(gun("Missile", "Missile", size="Medium"), post(),
                 [*INIT, 1, 2, 3, 1, 3, 1, *INIT, 1, 2, 3, 1, 3, 1], turns=2,
                 attacker_ctl=Scripted(fire=fire()))
    assert texts(b, Kind.OVERHEAT) == ["Gun runs hot (6/4) but its Missile holds (3 > 2)."] * 2
    assert b.unit("A1").heat == 0


def test_jump_jet_heat_counts_against_the_rating_R6_10() -> None:
    b = exchange(gun("Missile", size="Medium", systems=["Jump Jets"]), post(),
                 [*INIT, 1, 1, 1, 3, 2, 1],   # 3 dice = 3; the Assault 3; heat 2+3 = 5/4
                 attacker_ctl=Scripted(fire=fire("Missile"), jump=lambda b, u: True))
    assert texts(b, Kind.OVERHEAT) == ["Gun runs hot (5/4) but its Missile holds (2 > 1)."]


# ---- R6.11 infantry strongpoints ------------------------------------------------------------

def against_infantry(shooter: Any, dice: list[int], band: Band = Band.SHORT,
                     terrain: str = "Plains", ctl: Any = None, found: bool = True) -> Battle:
    """A strongpoint (D1) in zone 5, already detected unless told."""
    return exchange(shooter, force(), dice, band=band, scenario=infantry_scenario(terrain),
                    attacker_ctl=ctl or Scripted(fire=fire()),
                    prepare=(lambda b: setattr(b.unit("D1"), "detected", True)) if found
                    else None)


@pytest.mark.parametrize(("roll", "hit"), [(1, True), (2, False)])
def test_strongpoint_attacks_at_short_by_rolling_under_armor_R6_11(roll: int,
                                                                  hit: bool) -> None:
    dice = [*INIT, *TIE, roll, *([4] if hit else [])]  # a hit: no save, a critical check
    b = against_infantry(post(), dice)
    assert texts(b, Kind.HIT if hit else Kind.MISS) == [
        f"Strongpoint D1 attack Post: {roll} vs under 2 - {'hit' if hit else 'miss'}."]
    assert b.unit("A1").hits == (1 if hit else 0) and texts(b, Kind.SAVE) == []


def test_strongpoint_attacks_only_at_short_R6_11() -> None:
    b = against_infantry(post(), [*INIT, *TIE], band=Band.MEDIUM)
    assert shots(b) == []


def test_strongpoint_maneuver_is_one_die_without_terrain_R6_11() -> None:
    b = against_infantry(post(), [*INIT, 4, 3, 6], terrain="Urban")
    assert texts(b, Kind.MOVEMENT_ROLL) == ["Post movement roll 4 -> 2 [Urban -2].",
                                            "Strongpoint D1 movement roll 3 -> 3."]


def test_strongpoint_never_moves_R6_11() -> None:
    scenario = map_scenario((1,), (9,), defender={"strongpoints": [{"zone": 5}]})
    b = start(battle(scenario, force(post()), force(), [*INIT],
                     Scripted(movement=lambda b, s: {}),
                     Scripted(movement=lambda b, s: {"D1": 4})))
    with pytest.raises(BattleError, match="Strongpoint D1 cannot make that move now"):
        b.play_turn()
    assert b.unit("D1").zone == 5


@pytest.mark.parametrize(("weapon", "rolls", "kills"), [
    ("CIWS", [4], 4), ("Minigun", [2, 3], 5), ("Grenade Launcher", [3], 3),
    ("Cannon", [2], 0), ("Cannon", [3], 1), ("Cannon", [4], 1), ("Cannon", [5], 2),
    ("Cannon", [6], 2), ("Rail Cannon", [5], 2), ("Howitzer", [4], 1),
    ("Laser", [2], 0), ("Laser", [3], 1), ("PPC", [5], 2),
    ("Missile", [3], 0), ("Missile", [4], 1), ("Hammer Missile", [6], 1),
])
def test_kills_by_weapon_family_R6_11(weapon: str, rolls: list[int], kills: int) -> None:
    morale = [6] if kills else []
    b = against_infantry(gun(weapon), [*INIT, *TIE, *rolls, 6, *morale])
    assert b.unit("D1").infantry_kills == kills
    assert texts(b, Kind.KILLS)[0].endswith(f"- {kills} kill{'s' * (kills != 1)} "
                                            f"({kills} in all).")


def test_minigun_rolls_two_dice_of_kills_R6_11() -> None:
    b = against_infantry(gun("Minigun"), [*INIT, *TIE, 1, 2, 6, 4])
    assert texts(b, Kind.KILLS) == [
        "Gun's Minigun against Strongpoint D1: 3+0 - 3 kills (3 in all)."]
    assert texts(b, Kind.MORALE) == ["Strongpoint D1 morale 4 vs 3 kills: they hold."]


def test_vulcan_and_swarm_roll_one_kills_die_against_infantry_R6_11() -> None:
    b = against_infantry(gun("Vulcan Cannon"), [*INIT, *TIE, 5, 6, 6])
    assert b.unit("D1").infantry_kills == 2 and len(texts(b, Kind.KILLS)) == 1


@pytest.mark.parametrize(("weapon", "roll", "kills"), [
    ("CIWS", 4, 3), ("Cannon", 5, 1), ("Missile", 4, 0), ("Grenade Launcher", 4, 4)])
def test_terrain_modifies_kills_except_for_the_grenade_launcher_R6_11(
        weapon: str, roll: int, kills: int) -> None:
    morale = [6] if kills else []
    b = against_infantry(gun(weapon), [*INIT, 4, 3, roll, 6, *morale], terrain="Woods")
    assert b.unit("D1").infantry_kills == kills


@pytest.mark.parametrize(("roll", "holds"), [(3, True), (2, False)])
def test_morale_after_losses_must_beat_total_kills_R6_11(roll: int, holds: bool) -> None:
    b = against_infantry(gun("CIWS"), [*INIT, *TIE, 2, 6, roll])
    strongpoint = b.unit("D1")
    assert texts(b, Kind.MORALE) == [
        f"Strongpoint D1 morale {roll} vs 2 kills: "
        + ("they hold." if holds else "they break and run.")]
    assert strongpoint.alive is holds


def test_no_morale_check_without_losses_R6_11() -> None:
    b = against_infantry(gun("Missile"), [*INIT, *TIE, 1, 6])
    assert texts(b, Kind.MORALE) == []


def test_gunnery_fires_ciws_twice_at_infantry_minus_two_on_the_kills_R6_5_R6_11() -> None:
    def again(b: Battle, unit: Unit, targets: list[Unit], band: Band) -> list[Any]:
        return [(unit.weapons[0], targets[0])] * 2

    b = against_infantry(gun("CIWS", skills=["Gunnery"]), [*INIT, *TIE, 1, 4, 6, 6],
                         ctl=Scripted(fire=again))
    assert texts(b, Kind.KILLS) == [
        "Gun's CIWS against Strongpoint D1: 1+0 - 1 kill (1 in all).",
        "Gun's CIWS against Strongpoint D1: 4-2 - 2 kills (3 in all)."]


def test_infantry_is_not_hit_by_to_hit_rolls_R6_11() -> None:
    b = against_infantry(gun("Cannon", "Laser"), [*INIT, *TIE, 3, 3, 6, 6])
    assert shots(b)[0].startswith("Strongpoint D1 attack Gun")  # its own attack only
    assert b.unit("D1").hits == 0 and b.unit("D1").infantry_kills == 2

