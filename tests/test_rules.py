"""The rules core (meks.game.rules, issue 15 item 1 "One source per rule"): each check described
as a value, its chance counted over the die faces, its roll with fixed dice the engine's,
and (Hypothesis) the chance it reports equal to the frequency over every sequence of faces
that rolling it can use."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from meks.analysis.duel import mek_model
from meks.analysis.duel_chain import DuelChain, MekState
from meks.engine.core import Battle, Shot
from meks.engine.units import Sensors, Unit
from meks.game.catalog import Band, SystemKind, Weapon
from meks.game.criticals import (
    COMPUTERS,
    CRITICAL_TABLE,
    LEG_DAMAGED,
    PILOT_WOUNDED,
    REACTOR_CORE,
    SYSTEM_LOST,
    WEAPON_DESTROYED,
    WOUNDED_ACTS,
    critical_check,
    wounded_acts_odds,
)
from meks.game.rules import (
    HAWKEYE,
    MINEFIELD,
    MINEFIELD_HITS,
    ONE_EXACT,
    ONE_FLOAT,
    DieCheck,
    InitiativeRoll,
    Roller,
    arrival,
    identifies_unmasked,
    infantry_detection,
    initiative,
    initiative_odds,
    masked_detection,
    masked_identification,
    movement_roll,
    pick_odds,
    random_pick,
)
from meks.game.shots import (
    ArmorSave,
    armor_save,
    infantry_hit_odds,
    kills_roll,
    morale,
    overheat,
    to_hit,
)
from tests.engine_helpers import CATALOG, battle, duel_scenario, force, gun, post, start

FACES = range(1, 7)
WEAPONS = list(CATALOG.weapons)
RANGED = [w for w in WEAPONS if not w.is_small]
ARMOR_SYSTEMS = ("Space-Lam Armor", "Reactive Armor", "BPC Armor")


class Faces(Roller):
    """Dice that give ``faces`` in order (and fail the test if asked for more); each die's
    purpose is kept in ``purposes``."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = iter(faces)
        self.purposes: list[str] = []

    def d6(self, purpose: str) -> int:
        self.purposes.append(purpose)
        return next(self.faces)


def dice(*faces: int) -> Roller:
    return Faces(faces)


def frequency(event: Callable[[Roller], bool], depth: int) -> Fraction:
    """The share of all ``6 ** depth`` sequences of faces for which rolling ``event`` with
    them gives true. A roll uses at most ``depth`` dice, and what it does depends only on
    the faces it uses, so this is the event's exact chance."""
    hits = sum(1 for faces in itertools.product(FACES, repeat=depth) if event(dice(*faces)))
    return Fraction(hits, 6 ** depth)


def count(pred: Callable[[int], bool]) -> Fraction:
    """The chance over one die's faces."""
    return Fraction(sum(1 for r in FACES if pred(r)), 6)


# ---- R6.6-R6.7 to hit ----------------------------------------------------------------------

def test_to_hit_names_every_modifier_in_the_engines_order_R6_6() -> None:
    missile = CATALOG.weapon("Missile")
    check = to_hit(missile, 3, Band.LONG, terrain=-1, terrain_name="Woods", doubled=True,
                   jammer=True, targeting_array=True, level=-1, level_name="Green",
                   computers=True, family_skill=True, commandos=True, spoof=True,
                   point_defense=True, phalanx=True, gunnery=True)
    assert check.notes == ["Gunnery -2", "Woods doubled -2", "Jammer -1", "Targeting Array +1",
                           "Green -1", "Computers damaged -1", "Guidance +1", "Commandos +1",
                           "Spoof -1", "Point Defense -1", "Phalanx -2"]
    assert check.modifier == -2 - 2 - 1 + 1 - 1 - 1 + 1 + 1 - 1 - 1 - 2
    assert check.spends == ("Guidance",) and check.target_spends == ("Spoof",)


def test_to_hit_targeting_array_needs_a_single_target_R6_6() -> None:
    cannon = CATALOG.weapon("Cannon")
    assert to_hit(cannon, 4, Band.SHORT, targeting_array=True, single=False).modifiers == []
    assert to_hit(cannon, 4, Band.SHORT, targeting_array=True).modifiers == [
        (1, "Targeting Array")]


def test_hammer_takes_minus_two_instead_of_the_defenses_R6_6() -> None:
    hammer = CATALOG.weapon("Hammer Missile")
    check = to_hit(hammer, 3, Band.LONG, point_defense=True, phalanx=True)
    assert check.modifiers == [(-2, "Hammer vs defenses")]


def test_point_defense_only_at_medium_and_long_phalanx_minus_two_at_long_R6_6() -> None:
    missile = CATALOG.weapon("Missile")
    assert to_hit(missile, 3, Band.SHORT, point_defense=True).modifiers == []
    assert to_hit(missile, 3, Band.MEDIUM, point_defense=True, phalanx=True).modifier == -2
    assert to_hit(missile, 3, Band.LONG, phalanx=True).modifier == -2
    # Spoof and the defenses are for missiles only.
    assert to_hit(CATALOG.weapon("Laser"), 2, Band.LONG, spoof=True, phalanx=True,
                  point_defense=True).modifiers == []


def test_howitzer_ignores_terrain_R6_6() -> None:
    assert to_hit(CATALOG.weapon("Howitzer"), 4, Band.LONG, terrain=-2,
                  terrain_name="Urban").modifiers == []


def test_to_hit_chance_is_the_count_over_faces_R6_6() -> None:
    cannon = CATALOG.weapon("Cannon")  # 4+
    check = to_hit(cannon, 4, Band.SHORT, terrain=-1, terrain_name="Woods")
    assert check.exact() == count(lambda r: r - 1 >= 4) == Fraction(2, 6)
    assert check.chance() == 2 / 6
    assert check.roll_die(dice(5), "", "") == (5, True)
    assert check.roll_die(dice(4), "", "") == (4, False)


def test_twin_laser_rerolls_a_miss_once_R6_7() -> None:
    twin = CATALOG.weapon("Twin Laser")  # 2+, a miss rolled again
    check = to_hit(twin, 2, Band.SHORT, terrain=-2, terrain_name="Urban")  # hits on 4+
    p = count(lambda r: r - 2 >= 2)
    assert check.exact() == 1 - (1 - p) ** 2 == Fraction(3, 4)
    assert check.roll_die(dice(3, 6), "", "") == (6, True)  # the engine logs the re-roll
    assert check.roll_die(dice(1, 2), "", "") == (2, False)
    assert check.roll_die(dice(5), "", "") == (5, True)  # a hit is not re-rolled


def test_six_always_hits_only_with_the_house_rule_R6_6() -> None:
    cannon = CATALOG.weapon("Cannon")
    hard = {"terrain": -2, "terrain_name": "Urban", "jammer": True, "level": -1,
            "level_name": "Green"}
    assert to_hit(cannon, 4, Band.SHORT, **hard).exact() == 0  # type: ignore[arg-type]
    six = to_hit(cannon, 4, Band.SHORT, six_hits=True, **hard)  # type: ignore[arg-type]
    assert six.exact() == Fraction(1, 6)
    assert six.roll_die(dice(6), "", "") == (6, True)
    assert six.roll_die(dice(5), "", "") == (5, False)


def test_vulcan_and_swarm_roll_two_dice_R6_7() -> None:
    assert to_hit(CATALOG.weapon("Vulcan Cannon"), 4, Band.SHORT).dice == 2
    assert to_hit(CATALOG.weapon("Swarm Missile"), 3, Band.SHORT).dice == 2


# ---- R6.8 armor save -----------------------------------------------------------------------

def _has(*names: str) -> Callable[[str], bool]:
    return set(names).__contains__


def test_armor_save_is_the_count_over_faces_R6_8() -> None:
    check = armor_save(4, CATALOG.weapon("Cannon"), _has())
    assert check.exact() == count(lambda r: r < 4) == Fraction(1, 2)
    assert check.roll(dice(4), "", "") == (4, True, False)
    assert check.roll(dice(3), "", "") == (3, False, False)


def test_hammer_saves_at_minus_one_R6_8() -> None:
    check = armor_save(4, CATALOG.weapon("Hammer Missile"), _has())
    assert check.modifier == -1
    assert check.exact() == count(lambda r: r - 1 < 4) == Fraction(4, 6)
    assert check.roll(dice(4), "", "") == (4, False, False)


def test_space_lam_adds_one_against_cannons_only_R6_8() -> None:
    lam = _has("Space-Lam Armor")
    assert armor_save(4, CATALOG.weapon("Rail Cannon"), lam).modifier == 1
    assert armor_save(4, CATALOG.weapon("Rail Cannon"), lam).exact() == Fraction(2, 6)
    assert armor_save(4, CATALOG.weapon("Laser"), lam).modifier == 0


def test_reactive_rerolls_against_missiles_and_bpc_against_lasers_R6_8() -> None:
    reactive = armor_save(4, CATALOG.weapon("Missile"), _has("Reactive Armor"))
    assert reactive.reroll == "Reactive Armor"
    assert reactive.exact() == count(lambda r: r < 4) ** 2 == Fraction(1, 4)
    assert reactive.roll(dice(2, 5), "", "") == (5, True, True)
    assert reactive.roll(dice(2, 1), "", "") == (1, False, True)
    bpc = armor_save(4, CATALOG.weapon("PPC"), _has("BPC Armor"))
    assert bpc.reroll == "BPC Armor"
    assert armor_save(4, CATALOG.weapon("Laser"), _has("Reactive Armor")).reroll == ""
    assert armor_save(4, CATALOG.weapon("Missile"), _has("BPC Armor")).reroll == ""


def test_armor_save_of_two_or_less_always_holds_R6_8() -> None:
    assert ArmorSave(1).exact() == 0 and ArmorSave(7).exact() == 1


def test_a_dodge_weighs_the_chance_that_any_hit_of_the_attack_gets_through_R6_8() -> None:
    """R6.8: Agility dodges a whole attack, so what it avoids is at least one of its hits
    failing its own save: exactly the share of the saves' face sequences with a failure."""
    for check in (armor_save(4, CATALOG.weapon("Cannon"), _has()),
                  armor_save(5, CATALOG.weapon("Missile"), _has("Reactive Armor"))):
        assert check.fails_any(1, ONE_EXACT) == check.exact()
        for hits in (2, 3):
            def fails(d6: Roller, hits: int = hits, check: ArmorSave = check) -> bool:
                return not all(check.roll(d6, "", "")[1] for _ in range(hits))
            assert check.fails_any(hits, ONE_EXACT) == frequency(fails, 2 * hits)


# ---- R6.9 critical check -------------------------------------------------------------------

def test_critical_check_beats_the_remaining_hits_R6_9() -> None:
    check = critical_check(2)
    assert check.exact() == count(lambda r: r > 2) == Fraction(4, 6)
    assert check.roll(dice(3), "Post") == (3, True, ())
    assert check.roll(dice(2), "Post") == (2, False, ())


def test_sharpshooter_and_ppc_at_long_reroll_a_failed_check_R6_9() -> None:
    ppc = CATALOG.weapon("PPC")
    check = critical_check(4, sharpshooter=True, weapon=ppc, band=Band.LONG)
    p = count(lambda r: r > 4)
    assert check.exact() == 1 - (1 - p) ** 3
    # Fails, the Sharpshooter re-roll fails, the PPC re-roll succeeds.
    assert check.roll(dice(1, 4, 5), "Post") == (5, True, ("Sharpshooter",))
    # The first roll succeeds: nothing is used up.
    assert check.roll(dice(6), "Post") == (6, True, ())
    assert not critical_check(4, weapon=ppc, band=Band.MEDIUM).ppc
    assert critical_check(4, weapon=ppc, band=Band.LONG).exact() == 1 - (1 - p) ** 2


def test_pinpoint_crits_without_the_roll_and_spaul_must_confirm_R6_9() -> None:
    pin = critical_check(3, pinpoint=True, sharpshooter=True, spaul=True)
    assert not pin.sharpshooter  # no check, so no failed check to re-roll
    assert pin.roll(dice(), "Post") == (0, True, ("Pinpoint",))
    assert pin.confirm(dice(3), "Post") == (3, False)
    assert pin.exact() == count(lambda r: r > 3)
    spaul = critical_check(3, spaul=True)
    assert spaul.exact() == count(lambda r: r > 3) ** 2


def test_the_killing_hit_check_is_always_a_critical_and_spends_no_pinpoint_R6_9() -> None:
    """R6.9: with no Hits left the check cannot fail, so Pinpoint Attack is not used on it
    (nor is a Sharpshooter re-roll ever needed)."""
    check = critical_check(0, pinpoint=True, sharpshooter=True)
    assert not check.pinpoint and check.exact() == 1
    assert check.roll(dice(1), "Post") == (1, True, ())


def test_reactor_blows_on_one_to_three_R6_9() -> None:
    assert CRITICAL_TABLE.explodes(ONE_EXACT) == count(lambda r: r <= 3)
    for face in FACES:
        d6 = Faces((face,))
        assert CRITICAL_TABLE.reactor_roll(d6, "Post") == (face, face <= 3)
        assert d6.purposes == ["reactor of Post"]


def test_a_wounded_pilot_acts_on_five_or_six_R6_9() -> None:
    assert wounded_acts_odds(ONE_EXACT) == count(lambda r: r >= 5) == WOUNDED_ACTS.odds(ONE_EXACT)


# ---- R6.9 critical table -------------------------------------------------------------------

def test_critical_table_gives_each_face_its_effect_a_sixth_each_R6_9() -> None:
    """R6.9: 1 Pilot Wounded, 2 Leg Damaged, 3 Weapon Destroyed, 4 Reactor Core,
    5 Computers, 6 System Lost; the engine's roll and the duel's chances read this one
    table."""
    table = [(PILOT_WOUNDED, "Pilot Wounded"), (LEG_DAMAGED, "Leg Damaged"),
             (WEAPON_DESTROYED, "Weapon Destroyed"), (REACTOR_CORE, "Reactor Core"),
             (COMPUTERS, "Computers"), (SYSTEM_LOST, "System Lost")]
    for face, (effect, name) in zip(FACES, table, strict=True):
        d6 = Faces((face,))
        assert CRITICAL_TABLE.roll(d6, "Post") == (face, effect)
        assert d6.purposes == ["critical table for Post"]
        assert CRITICAL_TABLE.name(effect) == name
    effects = CRITICAL_TABLE.effects(ONE_EXACT)
    assert [e for e, _ in effects] == [e for e, _ in table]
    for effect, p in effects:
        assert p == frequency(lambda d6, e=effect: CRITICAL_TABLE.roll(  # type: ignore[misc]
            d6, "Post")[1] == e, 1)
    assert sum(p for _, p in effects) == 1
    assert [p for _, p in CRITICAL_TABLE.effects(ONE_FLOAT)] == [1 / 6] * 6


def test_system_lost_spares_armor_R6_9() -> None:
    for system in CATALOG.systems:
        assert CRITICAL_TABLE.losable(system) == (system.category is not SystemKind.ARMOR)
    assert not CRITICAL_TABLE.losable(CATALOG.system("Space-Lam Armor"))
    assert CRITICAL_TABLE.losable(CATALOG.system("Heat Sink"))


def test_random_pick_rolls_again_until_it_names_a_candidate_R6_9() -> None:
    """R6.9: one die for up to six candidates, two (a number from 1 to 36) for more, rolled
    again until it names one; none for a single candidate."""
    assert random_pick(dice(), 1, "") == 0
    assert random_pick(dice(5, 4, 2), 3, "") == 1
    d6 = Faces((6, 6, 1, 3))  # 36: too many; then (1 - 1) * 6 + 3 = 3
    assert random_pick(d6, 7, "which weapon of Post") == 2
    assert d6.purposes == ["which weapon of Post"] * 4


def _first_try(count: int) -> dict[int, int]:
    """How many of the sequences of faces a ``random_pick`` among ``count`` can start with
    end on the first try on each candidate (those that need another try left out)."""
    depth = 1 if count <= 6 else 2
    picked: dict[int, int] = {}
    for faces in itertools.product(FACES, repeat=depth):
        try:
            index = random_pick(Faces(faces), count, "")
        except StopIteration:  # rolled again
            continue
        picked[index] = picked.get(index, 0) + 1
    return picked


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 36))
def test_random_pick_gives_every_candidate_the_same_chance_R6_9(count: int) -> None:
    """Every try that names a candidate names each one on exactly one sequence of faces, so
    the re-rolls leave each the same chance: ``pick_odds``."""
    assert _first_try(count) == dict.fromkeys(range(count), 1)
    assert pick_odds(count, ONE_EXACT) == Fraction(1, count)


def test_the_duel_reads_the_critical_table_R6_9() -> None:
    """The exact duel's critical: each effect at the table's chance, the Reactor Core's
    explosion at its own, a lost weapon or system each at its chance of being picked."""
    model = mek_model("DEMON")
    duel = DuelChain(model, mek_model("WASP"), 0, True, CATALOG)
    state = (1, 0, model.weapons, model.systems, False, False, False)
    after = duel.critical(state, model)
    assert sum(after.values()) == 1
    sixth = Fraction(1, 6)
    assert after[(1, 0, model.weapons, model.systems, False, False, True)] == sixth
    assert after[(1, 1, model.weapons, model.systems, False, False, False)] == sixth
    assert after[(1, 0, model.weapons, model.systems, False, True, False)] == sixth
    dead = (model.max_hits, 0, model.weapons, model.systems, False, False, False)
    assert after[dead] == sixth * CRITICAL_TABLE.explodes(ONE_EXACT)
    assert after[state] == sixth * (1 - CRITICAL_TABLE.explodes(ONE_EXACT))
    lost: dict[MekState, Fraction] = {}  # (two of the same weapon: one state)
    share = sixth * pick_odds(len(model.weapons), ONE_EXACT)
    for i in range(len(model.weapons)):
        left = model.weapons[:i] + model.weapons[i + 1:]
        key = (1, 0, left, model.systems, False, False, False)
        lost[key] = lost.get(key, Fraction(0)) + share
    share = sixth * pick_odds(len(model.systems), ONE_EXACT)
    for i in range(len(model.systems)):
        left = model.systems[:i] + model.systems[i + 1:]
        key = (1, 0, model.weapons, left, False, False, False)
        lost[key] = lost.get(key, Fraction(0)) + share
    assert all(after[key] == p for key, p in lost.items())
    assert all(CRITICAL_TABLE.losable(CATALOG.system(s)) for s in model.systems)


# ---- R6.4 detection and identification ------------------------------------------------------

SENSORS = (Sensors.BASIC, Sensors.IMPROVED, Sensors.ADVANCED)
BANDS = (Band.SHORT, Band.MEDIUM, Band.LONG)


def _faces_by_band(check: Callable[[Sensors, Band], DieCheck]) -> list[list[int]]:
    """For each sensor class, how many faces pass the check at Short, Medium and Long."""
    return [[check(sensors, band).faces() for band in BANDS] for sensors in SENSORS]


def test_infantry_detection_by_sensors_and_band_R6_4() -> None:
    """R6.4's table: Basic 6 / - / -, Improved 5+ / 6 / -, Advanced 3+ / 4+ / 5+ (a need by
    sensor class, the die -1 at Medium and -2 at Long)."""
    assert _faces_by_band(infantry_detection) == [[1, 0, 0], [2, 1, 0], [4, 3, 2]]
    check = infantry_detection(Sensors.ADVANCED, Band.LONG)
    assert (check.need, check.modifier) == (3, -2)
    assert check.roll(dice(5), "") == (5, True) and check.roll(dice(4), "") == (4, False)
    assert not infantry_detection(Sensors.BASIC, Band.MEDIUM).possible


def test_masked_detection_by_sensors_and_band_R6_4() -> None:
    """R6.4: Basic at Medium or Short only, 4+; Improved at any band, 4+; Advanced at any
    band, 2+. Where no face passes, the check is not possible (and no die is rolled)."""
    assert _faces_by_band(masked_detection) == [[3, 3, 0], [3, 3, 3], [5, 5, 5]]
    assert not masked_detection(Sensors.BASIC, Band.LONG).possible
    assert masked_detection(Sensors.ADVANCED, Band.LONG).roll(dice(2), "") == (2, True)


def test_identification_by_sensors_and_band_R6_4() -> None:
    """R6.4: unmasked, Basic at Medium or Short and the others at any band (no roll);
    masked, Basic at Short only 4+, Improved at Medium or Short 3+, Advanced anywhere 2+."""
    assert [[identifies_unmasked(s, b) for b in BANDS] for s in SENSORS] == [
        [True, True, False], [True, True, True], [True, True, True]]
    assert _faces_by_band(masked_identification) == [[3, 0, 0], [4, 4, 0], [5, 5, 5]]
    assert masked_identification(Sensors.IMPROVED, Band.MEDIUM).roll(dice(2), "") == (2, False)


def test_hawkeye_identifies_on_five_up_R6_4() -> None:
    assert HAWKEYE.odds(ONE_EXACT) == count(lambda r: r >= 5)
    assert HAWKEYE.roll(dice(5), "") == (5, True) and HAWKEYE.roll(dice(4), "") == (4, False)


# ---- R4.3 minefield, R5.1 reinforcements, R6.11 morale ---------------------------------------

def test_minefield_hits_on_three_up_for_one_hit_R4_3() -> None:
    assert MINEFIELD.odds(ONE_EXACT) == count(lambda r: r >= 3) and MINEFIELD_HITS == 1
    assert MINEFIELD.roll(dice(3), "") == (3, True) and MINEFIELD.roll(dice(2), "") == (2, False)


def test_reinforcements_arrive_on_the_scenarios_number_or_more_R5_1() -> None:
    assert arrival(4).roll(dice(4), "") == (4, True) and arrival(4).roll(dice(3), "") == (3, False)
    assert arrival(2).odds(ONE_EXACT) == count(lambda r: r >= 2)


def test_morale_holds_on_a_roll_greater_than_the_kills_R6_11() -> None:
    assert morale(2).roll(dice(3), "") == (3, True) and morale(2).roll(dice(2), "") == (2, False)
    assert morale(2).odds(ONE_EXACT) == count(lambda r: r > 2)
    assert morale(0).odds(ONE_EXACT) == 1 and not morale(6).possible


# ---- R5.3 initiative -----------------------------------------------------------------------

def test_initiative_tactics_two_surprise_three_each_R5_3() -> None:
    """R5.3: +2 with Tactics, however many pilots have it; +3 for each Surprise (two add
    up, R4.3) on the first roll only."""
    check = initiative(True, 2)
    assert check.modifiers == [(2, "Tactics"), (6, "Surprise")] and check.modifier == 8
    assert check.roll(dice(4), "") == (4, 12)
    assert initiative(False).modifiers == [] and initiative(False).roll(dice(3), "") == (3, 3)


def _initiative(first: InitiativeRoll, second: InitiativeRoll, first_again: InitiativeRoll,
                second_again: InitiativeRoll, d6: Roller) -> bool:
    """The engine's initiative with the dice ``d6``: whether the first side wins (the dice
    running out while the sides tie raises StopIteration)."""
    a, b = first.roll(d6, "")[1], second.roll(d6, "")[1]
    while a == b:
        a, b = first_again.roll(d6, "")[1], second_again.roll(d6, "")[1]
    return a > b


@settings(max_examples=20, deadline=None)
@given(tactics=st.tuples(st.booleans(), st.booleans()),
       surprise=st.tuples(st.integers(0, 2), st.integers(0, 2)))
def test_initiative_odds_are_the_frequency_of_its_rolls_R5_3(
        tactics: tuple[bool, bool], surprise: tuple[int, int]) -> None:
    """Over every sequence of faces for three rounds, the first side's wins within them
    are at most its chance, and short of it by no more than the chance of three ties."""
    rolls = (initiative(tactics[0], surprise[0]), initiative(tactics[1], surprise[1]),
             initiative(tactics[0]), initiative(tactics[1]))
    odds = initiative_odds(*rolls, ONE_EXACT)
    wins = undecided = 0
    for faces in itertools.product(FACES, repeat=6):
        try:
            wins += _initiative(*rolls, Faces(faces))
        except StopIteration:
            undecided += 1
    assert Fraction(wins, 6 ** 6) <= odds <= Fraction(wins + undecided, 6 ** 6)
    assert abs(float(odds) - initiative_odds(*rolls, ONE_FLOAT)) < 1e-15


# ---- R6.10 overheat ------------------------------------------------------------------------

def test_overheat_destroys_on_a_roll_at_or_under_the_excess_R6_10() -> None:
    missile, laser = CATALOG.weapon("Missile"), CATALOG.weapon("Laser")
    check = overheat(9, 7, missile)
    assert (check.excess, check.hits) == (2, 2)
    assert overheat(9, 7, laser).hits == 1
    assert check.exact() == count(lambda r: r <= 2)
    assert check.kept(ONE_EXACT) == 1 - check.exact()
    assert check.roll(dice(2), "") == (2, False)
    assert check.roll(dice(3), "") == (3, True)
    cool = overheat(7, 7, laser)
    assert not cool.rolls and cool.exact() == 0 and cool.kept(ONE_EXACT) == 1
    assert overheat(20, 7, laser).exact() == 1


# ---- R6.11 infantry ------------------------------------------------------------------------

def test_cannon_kills_one_on_three_two_on_five_terrain_applying_R6_11() -> None:
    check = kills_roll(CATALOG.weapon("Cannon"), -1)  # Woods
    assert check.distribution(ONE_EXACT) == {0: Fraction(3, 6), 1: Fraction(2, 6),
                                              2: Fraction(1, 6)}
    assert check.expected(ONE_EXACT) == Fraction(4, 6)
    assert check.roll(dice(6), "") == (6, 2)
    assert check.roll(dice(4), "") == (4, 1)
    assert check.roll(dice(3), "") == (3, 0)


def test_missile_kills_one_on_four_R6_11() -> None:
    check = kills_roll(CATALOG.weapon("Swarm Missile"), 0)
    assert check.distribution(ONE_EXACT) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert check.dice == 1  # one kills roll, whatever the to-hit dice


def test_small_weapons_kill_their_dice_total_never_below_zero_R6_11() -> None:
    minigun = kills_roll(CATALOG.weapon("Minigun"), -2, -2)  # Urban, Gunnery
    assert minigun.dice == 2 and minigun.modifier == -4
    assert minigun.roll(dice(1, 2), "") == (3, 0)
    assert minigun.roll(dice(6, 5), "") == (11, 7)
    dist = minigun.distribution(ONE_EXACT)
    assert dist[0] == Fraction(6, 36)  # totals 2, 3, 4
    assert minigun.expected(ONE_EXACT) == sum(
        Fraction(max(0, a + b - 4), 36) for a in FACES for b in FACES)
    launcher = kills_roll(CATALOG.weapon("Grenade Launcher"), -2)  # ignores terrain
    assert launcher.modifier == 0 and launcher.expected(ONE_EXACT) == Fraction(7, 2)


def test_infantry_hit_on_a_roll_under_the_armor_R6_11() -> None:
    assert infantry_hit_odds(4, ONE_EXACT) == count(lambda r: r < 4)


# ---- R6.2 movement roll --------------------------------------------------------------------

def test_movement_roll_names_its_modifiers_R6_2() -> None:
    check = movement_roll(2, bonus=2, terrain=-1, terrain_name="Woods", level=-1,
                          level_name="Green", maneuver=True, familiarity=True,
                          servo_boosters=True, legs=2)
    assert check.modifiers == [(2, "move bonus"), (-1, "Woods"), (-1, "Green"),
                               (2, "Maneuver"), (1, "Chassis Familiarity"),
                               (1, "Servo Boosters"), (-2, "Leg Damage")]
    assert check.roll(dice(3, 4), "") == (7, 9)


def test_jump_jets_add_a_die_and_ignore_terrain_R6_2() -> None:
    check = movement_roll(2, terrain=-2, terrain_name="Urban", jump=True)
    assert check.dice == 3 and check.modifiers == []


def test_movement_distribution_counts_every_result_from_zero_R6_2() -> None:
    check = movement_roll(1, terrain=-2, terrain_name="Urban", level=-1, level_name="Green")
    dist = check.distribution(ONE_EXACT)
    assert dist == {0: Fraction(3, 6), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}


# ---- the same code gives the float and the fraction ------------------------------------------

def test_float_and_fraction_come_from_the_same_code() -> None:
    """The float and the fraction are one computation, in two kinds of number: they differ
    by rounding only."""
    for w in RANGED:
        for band in Band:
            need = w.to_hit_at(band)
            if need is None:
                continue
            for mod in range(-4, 3):
                check = to_hit(w, need, band, terrain=mod, terrain_name="T")
                assert abs(check.odds(ONE_FLOAT) - float(check.odds(ONE_EXACT))) < 1e-15


# ---- describing uses up nothing; rolling does ----------------------------------------------

def _duel(shooter_skills: list[str], target_skills: list[str], weapon: str) -> Battle:
    b = start(battle(duel_scenario(), force(gun(weapon, skills=shooter_skills)),
                     force(post(skills=target_skills)), [6] * 40), Band.SHORT)
    return b


def _units(b: Battle) -> tuple[Unit, Unit]:
    return b.units[0], b.units[1]


def test_describing_a_shot_uses_up_no_skill_and_rolling_it_does_R6_6() -> None:
    b = _duel(["Guidance"], ["Spoof"], "Missile")
    unit, target = _units(b)
    shot = Shot(unit, CATALOG.weapon("Missile"), target, Band.SHORT)
    for _ in range(3):
        check = b.to_hit(shot, True)
        assert check.spends == ("Guidance",) and check.target_spends == ("Spoof",)
        assert b.modifiers(shot, True)[0] == check.modifier
    assert unit.turn_skills == set() and target.turn_skills == set()
    b.shoot(shot)
    assert "Guidance" in unit.turn_skills and "Spoof" in target.turn_skills
    again = b.to_hit(shot, True)
    assert again.spends == () and again.target_spends == ()


def test_describing_a_critical_check_uses_up_no_skill_R6_9() -> None:
    b = _duel(["Pinpoint Attack"], [], "Cannon")
    unit, target = _units(b)
    check = b.describe_critical_check(target, unit, CATALOG.weapon("Cannon"))
    assert check.pinpoint and unit.turn_skills == set()
    b.critical_check(target, unit, CATALOG.weapon("Cannon"))
    assert unit.turn_skills == {"Pinpoint"}
    assert not b.describe_critical_check(target, unit, None).pinpoint


def test_play_odds_use_up_nothing() -> None:
    from cli.play_views import shot_odds

    b = _duel(["Guidance"], ["Spoof"], "Missile")
    unit, target = _units(b)
    odds = shot_odds(b.views[unit.side], unit, unit.weapons[0], target, Band.SHORT)
    assert odds is not None and "Guidance +1" in odds.text and "Spoof -1" in odds.text
    assert unit.turn_skills == set() and target.turn_skills == set()


def test_play_odds_of_a_shot_planned_after_another_leave_out_what_it_uses_up_R6_5_R6_6() -> None:
    """A fire plan is fired in its order: a second missile at a Spoof pilot rolls without
    Spoof, a second weapon of the family without the pilot's skill; the odds the play screen
    offers for it say so, as the engine then rolls it."""
    from cli.play import _spent_before
    from cli.play_views import shot_odds

    b = _duel(["Guidance"], ["Spoof"], "Missile")
    unit, target = _units(b)
    view = b.views[unit.side]
    slot = unit.weapons[0]
    first = shot_odds(view, unit, slot, target, Band.SHORT,
                      **_spent_before(view, unit, slot, target, Band.SHORT, []))
    later = shot_odds(view, unit, slot, target, Band.SHORT,
                      **_spent_before(view, unit, slot, target, Band.SHORT, [(slot, target)]))
    assert first is not None and "Guidance +1" in first.text and "Spoof -1" in first.text
    assert later is not None and "Guidance" not in later.text and "Spoof" not in later.text
    shot = Shot(unit, slot.weapon, target, Band.SHORT, False)
    b.shoot(shot)  # the first: both used up
    assert b.to_hit(shot, True).notes == view.to_hit(unit, slot.weapon, target, Band.SHORT,
                                                     family_skill=False, spoof=False).notes
    assert unit.turn_skills == {"Guidance"} and target.turn_skills == {"Spoof"}


# ---- Hypothesis: the chance reported is the frequency over every sequence of faces --------

def _shots() -> st.SearchStrategy[tuple[Weapon, Band]]:
    return st.sampled_from([(w, b) for w in RANGED for b in Band if w.to_hit_at(b) is not None])


@settings(max_examples=150, deadline=None)
@given(shot=_shots(), terrain=st.integers(-2, 0), level=st.integers(-1, 1),
       flags=st.lists(st.booleans(), min_size=13, max_size=13))
def test_to_hit_chance_is_the_frequency_of_its_rolls_R6_6(
        shot: tuple[Weapon, Band], terrain: int, level: int, flags: list[bool]) -> None:
    weapon, band = shot
    need = weapon.to_hit_at(band)
    assert need is not None
    (doubled, jammer, array, single, computers, skill, commandos, spoof, pd, phalanx,
     gunnery, six, _) = flags
    check = to_hit(weapon, need, band, terrain=terrain, terrain_name="T", doubled=doubled,
                   jammer=jammer, targeting_array=array, single=single, level=level,
                   level_name="L", computers=computers, family_skill=skill,
                   commandos=commandos, spoof=spoof, point_defense=pd, phalanx=phalanx,
                   gunnery=gunnery, six_hits=six)
    depth = 2 if check.reroll_miss else 1
    assert check.exact() == frequency(lambda d6: check.roll_die(d6, "", "")[1], depth)
    assert abs(check.chance() - float(check.exact())) < 1e-15


@settings(max_examples=150, deadline=None)
@given(armor=st.integers(1, 7), weapon=st.sampled_from(RANGED),
       systems=st.sets(st.sampled_from(ARMOR_SYSTEMS)))
def test_armor_save_chance_is_the_frequency_of_its_rolls_R6_8(
        armor: int, weapon: Weapon, systems: set[str]) -> None:
    check = armor_save(armor, weapon, systems.__contains__)
    assert check.exact() == frequency(lambda d6: not check.roll(d6, "", "")[1], 2)
    assert abs(check.chance() - float(check.exact())) < 1e-15


@settings(max_examples=150, deadline=None)
@given(remaining=st.integers(0, 7), pinpoint=st.booleans(), sharpshooter=st.booleans(),
       weapon=st.sampled_from(RANGED), band=st.sampled_from(list(Band)),
       spaul=st.booleans())
def test_critical_check_chance_is_the_frequency_of_its_rolls_R6_9(
        remaining: int, pinpoint: bool, sharpshooter: bool, weapon: Weapon, band: Band,
        spaul: bool) -> None:
    check = critical_check(remaining, pinpoint=pinpoint, sharpshooter=sharpshooter,
                           weapon=weapon, band=band, spaul=spaul)

    def sticks(d6: Roller) -> bool:
        _, crit, _ = check.roll(d6, "Post")
        if crit and check.spaul:
            _, crit = check.confirm(d6, "Post")
        return crit

    assert check.exact() == frequency(sticks, 4)
    assert abs(check.chance() - float(check.exact())) < 1e-15


@settings(max_examples=100, deadline=None)
@given(weapon=st.sampled_from(WEAPONS), terrain=st.integers(-2, 0),
       gunnery=st.booleans())
def test_kills_distribution_is_the_frequency_of_its_rolls_R6_11(
        weapon: Weapon, terrain: int, gunnery: bool) -> None:
    check = kills_roll(weapon, terrain, -2 if gunnery else 0)
    dist = check.distribution(ONE_EXACT)
    for kills in range(0, 13):
        assert dist.get(kills, 0) == frequency(
            lambda d6, k=kills: check.roll(d6, "")[1] == k, check.dice)  # type: ignore[misc]
    assert check.expected(ONE_EXACT) == sum(k * p for k, p in dist.items())


@settings(max_examples=100, deadline=None)
@given(dice_count=st.integers(1, 2), bonus=st.integers(0, 2), terrain=st.integers(-2, 0),
       level=st.integers(-1, 2), flags=st.lists(st.booleans(), min_size=5, max_size=5),
       legs=st.integers(0, 3))
def test_movement_distribution_is_the_frequency_of_its_rolls_R6_2(
        dice_count: int, bonus: int, terrain: int, level: int, flags: list[bool],
        legs: int) -> None:
    jump, maneuver, familiarity, servo, ignore = flags
    check = movement_roll(dice_count, bonus=bonus, terrain=terrain, terrain_name="T",
                          ignore_terrain=ignore, jump=jump, level=level, level_name="L",
                          maneuver=maneuver, familiarity=familiarity,
                          servo_boosters=servo, legs=legs)
    dist = check.distribution(ONE_EXACT)
    assert sum(dist.values()) == 1
    for value, p in dist.items():
        assert p == frequency(
            lambda d6, v=value: max(0, check.roll(d6, "")[1]) == v,  # type: ignore[misc]
            check.dice)


@settings(max_examples=100, deadline=None)
@given(need=st.integers(-1, 9), modifier=st.integers(-3, 3))
def test_one_die_check_chance_is_the_frequency_of_its_roll_R4_3_R5_1_R6_4_R6_11(
        need: int, modifier: int) -> None:
    """Detection, ID, Hawkeye, minefields, reinforcements, morale, a wounded pilot and the
    reactor are one die against a number: the chance counted over the faces is the share
    of faces the roll passes, and a check no face passes is not possible."""
    check = DieCheck(need, modifier)
    assert check.odds(ONE_EXACT) == frequency(lambda d6: check.roll(d6, "")[1], 1)
    assert check.possible == (check.odds(ONE_EXACT) > 0)
    assert abs(check.odds(ONE_FLOAT) - float(check.odds(ONE_EXACT))) < 1e-15


@settings(max_examples=60, deadline=None)
@given(heat=st.integers(0, 16), rating=st.integers(2, 9), weapon=st.sampled_from(WEAPONS))
def test_overheat_chance_is_the_frequency_of_its_roll_R6_10(
        heat: int, rating: int, weapon: Weapon) -> None:
    check = overheat(heat, rating, weapon)
    assert check.exact() == frequency(
        lambda d6: check.rolls and not check.roll(d6, "")[1], 1)
