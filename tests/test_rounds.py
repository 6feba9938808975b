"""Zone combat in rounds (R5.2 as revised), breaking contact that withdraws (R6.3 as revised)
and Head to Head at the turn limit (R7.3), each forced with fixed dice.

Most tests are a duel in zone 5 already engaged at Short (``exchange``), fought in rounds:
the attacker wins initiative (6, 1), and in each round two Assault Meks (1d6 movement) tie
their movement rolls (3, 3) so the band stays, then come the dice of the attacks, in the
order the engine rolls them.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from cli.app import app
from meks.engine import REVISION, ROUNDS, as_fought_under
from meks.engine.core import Battle, BattleError, RangeChoice
from meks.engine.log import Kind, digest
from meks.engine.recorded import Recorded
from meks.engine.units import Unit
from meks.game.catalog import Band
from meks.game.vocabulary import COMBAT_ROUNDS, BreakContact, Side
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
    map_scenario,
    post,
    rolls_for,
    start,
    texts,
)

# R5.2 and R6.3 as revised, with the cap given by each test.
WITHDRAW = "withdraw"
REPO = Path(__file__).resolve().parent.parent
STILL: dict[str, Any] = {"movement": lambda b, side: {}}  # no unit moves unless told


def rounds(cap: int = COMBAT_ROUNDS) -> dict[str, Any]:
    return {"combat_rounds": cap, "break_contact": WITHDRAW}


def shots(b: Battle) -> list[str]:
    return [e.text for e in b.log if e.kind in (Kind.HIT, Kind.MISS)]


def twice(b: Any, unit: Unit, targets: list[Unit], band: Band) -> list[Any]:
    """A fire plan: the unit's first weapon at the first target, two times."""
    return [(unit.weapons[0], targets[0])] * 2


def round_of(b: Battle, fragment: str) -> list[int]:
    """For each event whose text holds ``fragment``, the number of the last round begun
    before it in its turn (0: none yet)."""
    out, current = [], 0
    for event in b.log:
        if event.kind is Kind.ROUND:
            current = int(event.value or 0)
        elif event.kind is Kind.TURN:
            current = 0
        if fragment in event.text:
            out.append(current)
    return out


# ---- R5.2 rounds to a result -----------------------------------------------------------------

@pytest.mark.parametrize("cap", [2, 3, 5])
def test_rounds_go_on_to_the_cap_R5_2(cap: int) -> None:
    b = exchange(post(), post(), [*INIT, *TIE * cap], **rounds(cap))
    assert texts(b, Kind.ROUND) == [f"Round {n} in zone 5 (short range)." for n in
                                    range(1, cap + 1)]
    assert len(texts(b, Kind.RANGE)) == cap  # a movement roll in every round
    assert b.round == 0  # no round is being fought once the combat is over
    assert b.unit("A1").rounds == b.unit("D1").rounds == cap


def test_rounds_stop_when_one_side_is_gone_R5_2() -> None:
    def last_hit(b: Battle) -> None:
        b.unit("D1").hits = b.unit("D1").max_hits - 1

    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 4, 1, 1, 2],  # the last Hit: Leg
                 prepare=last_hit, **rounds(3))
    assert texts(b, Kind.ROUND) == ["Round 1 in zone 5 (short range)."]
    assert b.unit("D1").destroyed_turn == 1
    assert 5 not in b.engagements
    assert b.verdict is not None and b.verdict.decided


def test_the_band_moves_on_from_round_to_round_R5_2() -> None:
    """A new engagement starts at Long; each round's movement roll may shift it, and the
    next round is fought at the new band."""
    b = exchange(post(), post(), [*INIT, 5, 3, 5, 3, *TIE], band=None,
                 attacker_ctl=Scripted([RangeChoice.CLOSE, RangeChoice.CLOSE]), **rounds(3))
    assert texts(b, Kind.ROUND) == ["Round 1 in zone 5 (long range).",
                                    "Round 2 in zone 5 (medium range).",
                                    "Round 3 in zone 5 (short range)."]
    assert b.engagements[5].band is Band.SHORT


def test_a_cap_of_one_is_one_exchange_a_turn_R5_2() -> None:
    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 1, *INIT, *TIE, 1], turns=2,
                 combat_rounds=1, break_contact=WITHDRAW)
    assert texts(b, Kind.ROUND) == []  # no round is announced: the combat is the exchange
    assert shots(b) == ["Gun fires Cannon at Post: 1+0 vs 4+ - miss."] * 2
    assert [e.turn for e in b.log if e.kind is Kind.MISS] == [1, 2]
    assert b.unit("A1").rounds == 0


def test_a_zone_fights_one_combat_a_turn_however_many_rounds_R5_2() -> None:
    """The combat step after the other side's movement does not fight the zone again."""
    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 1, *TIE, 1], **rounds(2))
    assert len(texts(b, Kind.ROUND)) == 2 and len(shots(b)) == 2


# ---- what counts per round ------------------------------------------------------------------

def test_each_weapon_fires_once_a_round_and_again_the_next_R5_2_R6_5() -> None:
    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 1, *TIE, 1, *TIE, 1],
                 attacker_ctl=Scripted(fire=fire("Cannon")), **rounds(3))
    assert shots(b) == ["Gun fires Cannon at Post: 1+0 vs 4+ - miss."] * 3
    assert round_of(b, "Gun fires Cannon") == [1, 2, 3]


def test_a_weapon_fires_at_most_once_in_a_round_R5_2_R6_5() -> None:
    with pytest.raises(BattleError, match="the Cannon has fired already"):
        exchange(gun("Cannon"), post(), [*INIT, *TIE, 1],
                 attacker_ctl=Scripted(fire=twice), **rounds(3))


def test_targets_are_chosen_again_each_round_R5_2_R6_5() -> None:
    picked: list[str] = []

    def one_by_one(b: Any, unit: Unit, candidates: list[Unit], limit: int) -> list[Unit]:
        choice = candidates[(b.round - 1) % len(candidates)]
        picked.append(choice.name)
        return [choice]

    b = exchange(gun("Cannon"), force(post(name="Left"), post(name="Right")),
                 [*INIT, 3, 3, 3, 1, 3, 3, 3, 1],
                 attacker_ctl=Scripted(targets=one_by_one), **rounds(2))
    assert picked == ["Left", "Right"]
    assert shots(b) == ["Gun fires Cannon at Left: 1+0 vs 4+ - miss.",
                        "Gun fires Cannon at Right: 1+0 vs 4+ - miss."]
    assert [t for t in texts(b, Kind.DECISION) if "Gun targets" in t] == [
        "Attacker decides: Gun targets Left", "Attacker decides: Gun targets Right"]


def test_a_once_a_turn_skill_works_once_in_each_round_R5_2_R6_6() -> None:
    """Accuracy: +1 on the pilot's first cannon attack of each round, not the second."""
    b = exchange(gun("Cannon", "Cannon", skills=["Accuracy"]), post(),
                 [*INIT, *TIE, 1, 1, *TIE, 1, 1], **rounds(2))
    first = "Gun fires Cannon at Post: 1+1 vs 4+ [Accuracy +1] - miss."
    second = "Gun fires Cannon at Post: 1+0 vs 4+ - miss."
    assert shots(b) == [first, second, first, second]


def test_gunnery_fires_again_once_in_each_round_R5_2_R6_5() -> None:
    b = exchange(gun("Cannon", skills=["Gunnery"]), post(),
                 [*INIT, *TIE, 1, 1, *TIE, 1, 1],
                 attacker_ctl=Scripted(fire=twice), **rounds(2))
    again = "Gun fires Cannon at Post: 1-2 vs 4+ [Gunnery -2] - miss."
    assert shots(b).count(again) == 2
    assert round_of(b, "[Gunnery -2]") == [1, 2]


def test_agility_dodges_once_a_round_R5_2_R6_8() -> None:
    """A Light Mek with Agility rolls 8 each round (3 + 3 + 2) and wins the movement roll;
    it dodges the first Cannon that hits it in each round, not the second."""
    dice = [*INIT,
            3, 3, 3, 4, 4, 6,   # round 1: Gun 3, Dodger 8; a hit dodged, a hit saved (6)
            3, 3, 3, 4, 4, 6]   # round 2: the same
    b = exchange(gun("Cannon", "Cannon"), post("Light", skills=["Agility"], name="Dodger"),
                 dice, defender_ctl=Scripted([RangeChoice.STAY] * 2,
                                             dodge=lambda b, unit, weapon, hits: True),
                 **rounds(2))
    assert texts(b, Kind.DODGE) == ["Dodger dodges the Cannon (Agility)."] * 2
    assert round_of(b, "dodges the Cannon") == [1, 2]
    assert texts(b, Kind.SAVE) == ["Dodger armor save 6+0 vs 5+: saved."] * 2


def test_masked_units_are_detected_again_each_round_R5_2_R6_4() -> None:
    """Improved sensors against a masked Mek: a failed detection in round 1 (3) is tried
    again in round 2 (4, found), where the Cannon fires."""
    b = exchange(gun("Cannon", systems=["Improved Sensors"]),
                 post(systems=["Masking & Insulation"]),
                 [*INIT, *TIE, 3, *TIE, 4, 1], **rounds(2))
    assert texts(b, Kind.DETECT) == ["Gun cannot detect the masked Post (3, needs 4).",
                                     "Gun detects the masked Post (4, needs 4)."]
    assert round_of(b, "Gun fires Cannon") == [2]


def test_the_commandos_mark_lasts_one_round_R5_2_R4_4() -> None:
    marks = {"count": 0}

    def mark(b: Any, unit: Unit, enemies: list[Unit]) -> tuple[str, Unit] | None:
        marks["count"] += 1
        return ("mark", enemies[0]) if b.round == 1 else None

    b = exchange(force(gun("Cannon"), support=["Commandos"]), post(),
                 [*INIT, 3, 3, 3,   # movement: Gun, the Commandos, Post
                  1, 1,             # Post looks for the Commandos (6 needed); Gun misses
                  3, 3, 3, 1, 1],
                 attacker_ctl=Scripted(commando=mark), **rounds(2))
    assert marks["count"] == 2  # asked in each round
    assert texts(b, Kind.TARGET) == ["Commandos mark Post: +1 to hit it this round."]
    assert shots(b) == ["Gun fires Cannon at Post: 1+1 vs 4+ [Commandos +1] - miss.",
                        "Gun fires Cannon at Post: 1+0 vs 4+ - miss."]


def test_doubled_terrain_lasts_the_round_it_was_won_in_R5_2_R6_3() -> None:
    """In Woods (terrain -1), the defender wins round 1 by more than double and doubles the
    terrain against its units: -2 then. Round 2's roll is a tie: the plain -1 again."""
    dice = [*INIT,
            1, 5, 4,     # round 1: Gun 1-1 = 0, Post 5-1 = 4: Post doubles; Gun misses (4-2)
            3, 3, 4]     # round 2: a tie; Gun 4-1 = 3, a miss
    b = exchange(gun("Cannon"), post(), dice, terrain="Woods",
                 defender_ctl=Scripted([RangeChoice.DOUBLE]), **rounds(2))
    assert shots(b) == ["Gun fires Cannon at Post: 4-2 vs 4+ [Woods doubled -2] - miss.",
                        "Gun fires Cannon at Post: 4-1 vs 4+ [Woods -1] - miss."]


# ---- heat fades as each round ends (R6.10) ----------------------------------------------------

def test_heat_fades_at_the_end_of_each_round_R5_2_R6_10() -> None:
    """A Light Mek (rating 2) fires three Cannons a round: the third, at 3 heat, needs an
    overheat roll in each round, one over the rating, never more: round 1's heat is gone
    before round 2."""
    light_tie = [1, 1, 4]  # Gun (Light, 2d6+2) 4, Post (Assault, 1d6) 4: a tie
    per_round = [*light_tie, 1, 1, 6, 1]  # two misses, the overheat roll holds (6), a miss
    b = exchange(gun("Cannon", "Cannon", "Cannon", size="Light"), post(),
                 [*INIT, *per_round, *per_round],
                 attacker_ctl=Scripted(fire=fire("Cannon", "Cannon", "Cannon")), **rounds(2))
    assert texts(b, Kind.OVERHEAT) == [
        "Gun runs hot (3/2) but its Cannon holds (6 > 1)."] * 2
    assert b.unit("A1").heat == 0


def test_the_second_movements_heat_counts_in_the_first_round_only_R5_2_R5_4_R6_10() -> None:
    """A Medium Mek (rating 4) makes a second movement on turn 1 and walks into the enemy on
    turn 2 with 2 heat: its Turbo Laser (3 heat) needs an overheat roll in round 1 (5/4),
    none in round 2 (3/4)."""
    scenario = map_scenario((1,), (5,), **rounds(2))
    dice = [*INIT,               # turn 1: nobody meets anybody
            *INIT,               # turn 2
            1, 3, 4,             # round 1: Gun 2d6 = 4, Post 4: a tie at Long
            6, 1,                # the overheat roll holds (6 > 1); the Turbo Laser misses
            1, 3, 4, 1]          # round 2: a tie; no overheat roll; a miss
    attacker = Scripted(fire=fire("Turbo Laser"), move_first=lambda b, side: True,
                        movement=lambda b, side: {"A1": 5} if b.turn == 2 else {},
                        second_move=lambda b, side: {"A1": 4} if b.turn == 1 else {})
    b = start(battle(scenario, force(gun("Turbo Laser", size="Medium")), force(post()), dice,
                     attacker, Scripted(**STILL)))
    b.play_turn()
    assert texts(b, Kind.MOVE) == ["Gun moves from zone 1 to zone 4 (second movement, +2 heat "
                                   "next turn)."]
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert texts(b, Kind.OVERHEAT) == ["Gun runs hot (5/4) but its Turbo Laser holds (6 > 1)."]
    assert round_of(b, "runs hot") == [1]
    assert round_of(b, "Gun fires Turbo Laser") == [1, 2]


# ---- R6.9 between rounds --------------------------------------------------------------------

def test_a_wounded_pilot_rolls_again_in_each_later_round_R5_2_R6_9() -> None:
    def wounded(b: Battle) -> None:
        b.unit("A1").wounded = True

    dice = [5,                   # the turn's roll: the pilot acts (movement and round 1)
            *INIT, *TIE, 1,      # round 1: a miss
            2, 3,                # round 2: the roll fails; only Post rolls to move (3 to 0)
            6, *TIE, 1]          # round 3: the pilot acts again; a miss
    b = exchange(gun("Cannon"), post(), dice, prepare=wounded,
                 defender_ctl=Scripted([RangeChoice.STAY]), **rounds(3))
    assert [t for t in texts(b, Kind.NOTE) if "wounded pilot" in t] == [
        "Gun's wounded pilot rolls 5: acts this turn.",
        "Gun's wounded pilot rolls 2: cannot act this round.",
        "Gun's wounded pilot rolls 6: acts this round."]
    assert round_of(b, "Gun fires Cannon") == [1, 3]


def test_a_pilot_wounded_in_round_one_rolls_to_act_from_round_two_R5_2_R6_0_R6_9() -> None:
    """R6.0: the Pilot Wounded rolled in round 1 takes effect as the round ends; the pilot
    still fires in round 1 and rolls to act at the start of round 2."""
    dice = [*INIT, *TIE,
            4, 1, 5, 1,          # Gun hits Foe; the save fails; critical (5 > 4): Wounded
            1,                   # Foe still fires in round 1: a miss
            2, 3, 1]             # round 2: Foe's pilot fails (2); Gun alone rolls 3; a miss
    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"), dice,
                 attacker_ctl=Scripted([RangeChoice.STAY]), **rounds(2))
    foe = b.unit("D1")
    assert foe.wounded
    assert texts(b, Kind.CRITICAL) == ["Critical on Foe: Pilot Wounded (1) - from next round "
                                       "on it acts only on 5+."]
    assert "Foe's wounded pilot rolls 2: cannot act this round." in texts(b, Kind.NOTE)
    assert round_of(b, "Foe fires Cannon") == [1]
    assert round_of(b, "Gun fires Cannon") == [1, 2]


def test_computers_damage_falls_on_the_next_round_R5_2_R6_9() -> None:
    dice = [*INIT, *TIE,
            4, 1, 5, 5,          # Gun hits Foe; the save fails; critical: Computers
            1,                   # round 1: Foe's own fire has no -1 yet
            *TIE, 1, 1,          # round 2: Foe at -1
            *TIE, 1, 1]          # round 3: no more
    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"), dice, **rounds(3))
    assert texts(b, Kind.CRITICAL) == ["Critical on Foe: Computers (5) - -1 to hit next "
                                       "round."]
    foe_shots = [t for t in shots(b) if t.startswith("Foe")]
    assert foe_shots == ["Foe fires Cannon at Gun: 1+0 vs 4+ - miss.",
                         "Foe fires Cannon at Gun: 1-1 vs 4+ [Computers damaged -1] - miss.",
                         "Foe fires Cannon at Gun: 1+0 vs 4+ - miss."]


def test_computers_damage_in_a_combats_last_round_falls_on_the_units_next_round_R6_9(
        ) -> None:
    """The next round is the unit's next, whenever it comes: here the first of next turn."""
    dice = [*INIT, *TIE, 1, 1,                  # round 1: two misses
            *TIE, 4, 1, 5, 5, 1,                # round 2: Computers on Foe; Foe misses
            *INIT, *TIE, 1, 1,                  # turn 2, round 1: Foe at -1
            *TIE, 1, 1]                         # turn 2, round 2: no more
    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"), dice, turns=2, **rounds(2))
    assert [t for t in shots(b) if t.startswith("Foe")] == [
        "Foe fires Cannon at Gun: 1+0 vs 4+ - miss.",
        "Foe fires Cannon at Gun: 1+0 vs 4+ - miss.",
        "Foe fires Cannon at Gun: 1-1 vs 4+ [Computers damaged -1] - miss.",
        "Foe fires Cannon at Gun: 1+0 vs 4+ - miss."]
    assert b.clock(b.unit("D1")) == b.unit("D1").rounds == 4


def test_a_weapon_lost_in_round_one_does_not_fire_in_round_two_R5_2_R6_0() -> None:
    dice = [*INIT, *TIE,
            4, 1, 6, 3,          # Gun hits Foe: critical, Weapon Destroyed: its Cannon
            1,                   # R6.0: Foe's Cannon still fires in round 1
            *TIE, 1]             # round 2: only Gun fires
    b = exchange(gun("Cannon"), gun("Cannon", name="Foe"), dice, **rounds(2))
    assert round_of(b, "Foe fires Cannon") == [1]
    assert round_of(b, "Gun fires Cannon") == [1, 2]
    assert b.unit("D1").live_weapons() == []


def test_a_unit_destroyed_in_round_one_fires_there_and_is_gone_in_round_two_R5_2_R6_0(
        ) -> None:
    def last_hit(b: Battle) -> None:
        b.unit("D1").hits = b.unit("D1").max_hits - 1

    candidates: list[list[str]] = []

    def foe_first(b: Any, unit: Unit, offered: list[Unit], limit: int) -> list[Unit]:
        candidates.append(sorted(c.name for c in offered))
        return [next((c for c in offered if c.name == "Foe"), offered[0])]

    dice = [*INIT, 3, 3, 3,      # movement: Gun, Foe, Post
            4, 1, 1, 2,          # Gun hits Foe: its last Hit (the critical: Leg Damaged)
            1,                   # doomed Foe still fires in round 1: a miss
            3, 3, 1]             # round 2: Gun and Post roll; Gun misses Post
    b = exchange(gun("Cannon"), force(gun("Cannon", name="Foe"), post()), dice,
                 attacker_ctl=Scripted(targets=foe_first), prepare=last_hit, **rounds(2))
    assert candidates == [["Foe", "Post"], ["Post"]]
    assert b.unit("D1").destroyed_turn == 1
    assert round_of(b, "Foe fires Cannon") == [1]
    assert round_of(b, "Foe is destroyed") == [1]  # as round 1 ends, before round 2
    assert shots(b)[-1] == "Gun fires Cannon at Post: 1+0 vs 4+ - miss."


# ---- what stays per turn ---------------------------------------------------------------------

def test_hawkeye_stays_once_a_turn_R5_2_R6_4() -> None:
    """Hawkeye is tried before the combats, once a turn: not again in a later round, nor at
    the second combat step of the turn."""
    b = exchange(post(skills=["Hawkeye"], name="Eye"), post(),
                 [*INIT, 4, *TIE, *TIE, *TIE,       # turn 1: Hawkeye fails (4)
                  *INIT, 5, *TIE, *TIE, *TIE],      # turn 2: it tries again, and sees (5)
                 attacker_ctl=Scripted(hawkeye=lambda b, unit, candidates: candidates[0]),
                 turns=2, **rounds(3))
    assert rolls_for(b, "Hawkeye") == [4, 5]
    assert texts(b, Kind.IDENTIFY) == [
        "Eye's pilot cannot make out Post (Hawkeye, 4).",
        "Eye's pilot identifies Post in zone 5 (Hawkeye, 5)."]


def test_the_ambush_strikes_only_as_the_combat_begins_R5_2_R4_3() -> None:
    asked: list[int] = []

    def ambush(b: Any, side: Side, zone: int) -> str | None:
        asked.append(b.round)
        return "A1"

    b = exchange(force(gun("Cannon"), support=["Ambush"]), post(),
                 [*INIT, 1,                 # the Ambush: a miss
                  *TIE, 1, *TIE, 1], attacker_ctl=Scripted(ambush=ambush), **rounds(2))
    assert asked == [1]
    assert round_of(b, "Gun fires Cannon") == [1, 1, 2]


def test_a_pilot_may_bail_out_after_any_round_and_the_combat_ends_R5_2_R6_12() -> None:
    def two_from_the_end(b: Battle) -> None:
        b.unit("D1").hits = b.unit("D1").max_hits - 2

    asked: list[int] = []

    def bail(b: Any, unit: Unit) -> bool:
        asked.append(b.round)
        return True

    b = exchange(gun("Cannon"), post(level="Veteran"), [*INIT, 3, 2, 4, 1, 1],
                 defender_ctl=Scripted(bail_out=bail), prepare=two_from_the_end,
                 bail_out=True, **rounds(3))
    assert asked == [1]
    assert b.unit("D1").bailed
    assert texts(b, Kind.ROUND) == ["Round 1 in zone 5 (short range)."]


# ---- R6.3 breaking contact withdraws ----------------------------------------------------------

class Withdrawing(Scripted):
    """Breaks contact when it can, and withdraws each unit to the zone ``zones`` names for
    it (else the first offered), noting the zones offered."""

    def __init__(self, zones: dict[str, int] | None = None, **overrides: Any) -> None:
        super().__init__(**{"movement": lambda b, side: {}, **overrides})
        self.zones = zones or {}
        self.offered: dict[str, list[int]] = {}
        self.options: list[list[RangeChoice]] = []

    def range_choice(self, battle: Any, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        self.options.append(list(options))
        return RangeChoice.BREAK if RangeChoice.BREAK in options else RangeChoice.STAY

    def withdraw(self, battle: Any, unit: Unit, zones: list[int]) -> int:
        self.offered[unit.id] = list(zones)
        return self.zones.get(unit.id, zones[0])



def breaking(attacker: Any, defender: Any, dice: list[int], scenario: Any,
             attacker_ctl: Any, defender_ctl: Any = None, prepare: Any = None) -> Battle:
    b = start(battle(scenario, attacker, defender, dice, attacker_ctl,
                     defender_ctl or Scripted(**STILL)))
    if prepare is not None:
        prepare(b)
    b.play_turn()
    assert_all_dice_used(b, dice)
    return b


def two_posts() -> Any:
    return force(post(name="Left"), post(name="Right"))


def test_breaking_contact_withdraws_the_units_into_the_zones_chosen_R6_3() -> None:
    """The attacker wins the movement roll at Long (5 to 2) and breaks contact: the combat
    ends, and its units in zone 5 pull out at once, each into the zone chosen for it."""
    scenario = map_scenario((5,), (5, 6), **rounds(3))
    ctl = Withdrawing({"A1": 2, "A2": 8},
                      deploy=lambda b, side, units: {"A1": 5, "A2": 5})
    dice = [*INIT, 5, 4, 2]  # movement: Left 5, Right 4, the defender's Post 2
    b = breaking(two_posts(), force(post(), post(name="Flank")), dice, scenario, ctl,
                 Scripted(deploy=lambda b, side, units: {"D1": 5, "D2": 6}, **STILL))
    assert texts(b, Kind.BREAK) == ["The attacker breaks contact in zone 5 and pulls out."]
    assert texts(b, Kind.MOVE) == ["Left withdraws from zone 5 to zone 2.",
                                   "Right withdraws from zone 5 to zone 8."]
    assert (b.unit("A1").zone, b.unit("A2").zone) == (2, 8)
    assert b.unit("A1").moved and b.unit("A2").moved  # the withdrawal is their move
    assert texts(b, Kind.ROUND) == ["Round 1 in zone 5 (long range)."]  # the combat ended
    assert shots(b) == []


def test_zones_holding_enemies_are_not_offered_for_the_withdrawal_R6_3() -> None:
    scenario = map_scenario((5,), (5, 6), **rounds(3))
    ctl = Withdrawing()
    b = breaking(force(post()), force(post(), post(name="Flank")), [*INIT, 5, 2], scenario,
                 ctl, Scripted(deploy=lambda b, side, units: {"D1": 5, "D2": 6}, **STILL))
    assert ctl.offered == {"A1": [2, 4, 8]}  # not 6, where the enemy's Flank stands
    assert b.unit("A1").zone == 2


def test_a_zone_holding_only_an_enemy_the_side_cannot_see_is_offered_R6_3_R8_1() -> None:
    """Zones are judged by what the side can see: a hidden Mek does not close its zone."""
    scenario = map_scenario((5,), (5, 6), **rounds(3))
    ctl = Withdrawing({"A1": 6})

    def hide(b: Battle) -> None:
        b.unit("D2").hidden = True

    b = breaking(force(post()), force(post(), post(name="Lurker")), [*INIT, 5, 2],
                 scenario, ctl, Scripted(deploy=lambda b, side, units: {"D1": 5, "D2": 6},
                                         reveal=lambda b, unit: False, **STILL),
                 prepare=hide)
    assert ctl.offered == {"A1": [2, 4, 6, 8]}
    assert b.unit("A1").zone == 6
    # Left alone with it, the newcomer finds it as the turn ends (R4.3, revision 14 on).
    assert texts(b, Kind.NOTE)[-1].startswith("Lurker is found in zone 6")


def test_a_unit_that_cannot_act_stays_when_its_side_withdraws_R6_3() -> None:
    scenario = map_scenario((5,), (5,), **rounds(3))
    ctl = Withdrawing(deploy=lambda b, side, units: {"A1": 5, "A2": 5})

    def wound_right(b: Battle) -> None:
        b.unit("A2").wounded = True

    dice = [2,                    # Right's wounded pilot fails: it cannot act this turn
            *INIT, 5, 2]          # only Left rolls to move for the attacker
    b = breaking(two_posts(), force(post()), dice, scenario, ctl, prepare=wound_right)
    assert ctl.offered == {"A1": [2, 4, 6, 8]}
    assert b.unit("A1").zone == 2 and b.unit("A2").zone == 5
    assert texts(b, Kind.MOVE) == ["Left withdraws from zone 5 to zone 2."]


def test_a_hidden_mek_stays_hidden_where_it_is_when_its_side_withdraws_R6_3_R4_3() -> None:
    scenario = map_scenario((5,), (5,), **rounds(3))
    ctl = Withdrawing(deploy=lambda b, side, units: {"A1": 5, "A2": 5},
                      reveal=lambda b, unit: False)  # (it could come out, alone now)

    def hide_right(b: Battle) -> None:
        b.unit("A2").hidden = True

    b = breaking(two_posts(), force(post()), [*INIT, 5, 4, 2],  # a hidden Mek rolls too
                 scenario, ctl, prepare=hide_right)
    assert ctl.offered == {"A1": [2, 4, 6, 8]}
    assert b.unit("A2").zone == 5
    assert texts(b, Kind.MOVE) == ["Left withdraws from zone 5 to zone 2."]
    # Hidden through the withdrawal; alone with the enemy then, it is found as the turn ends
    # (R4.3, from revision 14 on).
    assert texts(b, Kind.NOTE)[-1].startswith("Right is found in zone 5")


def test_break_is_not_offered_when_no_unit_could_withdraw_R6_3() -> None:
    """In corner zone 1 with enemies in both its neighbours, the winner at Long may not
    break contact; under break_contact: stay (the earlier reading) it may."""
    setup = Scripted(deploy=lambda b, side, units: {"D1": 1, "D2": 2, "D3": 4}, **STILL)
    defenders = force(post(), post(name="North"), post(name="South"))
    for rule, offered in ((WITHDRAW, False), ("stay", True)):
        ctl = Withdrawing()
        scenario = map_scenario((1,), (1, 2, 4), combat_rounds=3, break_contact=rule)
        dice = [*INIT, 5, 2] if offered else [*INIT, 5, 2, *TIE, *TIE]
        b = breaking(force(post()), defenders, dice, scenario, ctl, setup)
        assert (RangeChoice.BREAK in ctl.options[0]) is offered, rule
        assert b.unit("A1").zone == 1


def test_a_minefield_hits_a_withdrawing_mek_R6_3_R4_3() -> None:
    scenario = map_scenario((5,), (5,), **rounds(3))
    ctl = Withdrawing({"A1": 4})

    def mined(b: Battle) -> None:
        b.mines[Side.DEFENDER].append(4)

    b = breaking(force(post()), force(post()), [*INIT, 5, 2,
                                                 3, 1],   # the mine (3+): a Hit, check 1
                 scenario, ctl, prepare=mined)
    assert texts(b, Kind.MINE) == ["Post hits a mine (3)."]
    assert b.unit("A1").zone == 4 and b.unit("A1").hits == 1


def test_a_withdrawal_into_a_zone_not_offered_is_refused_R6_3() -> None:
    scenario = map_scenario((5,), (5, 6), **rounds(3))
    for answer in (6, 5, 1, "4", None):
        ctl = Withdrawing({"A1": answer})  # type: ignore[dict-item]
        b = start(battle(scenario, force(post()), force(post(), post(name="Flank")),
                         [*INIT, 5, 2], ctl,
                         Scripted(deploy=lambda b, side, units: {"D1": 5, "D2": 6},
                                  **STILL)))
        with pytest.raises(BattleError, match="'withdraw'"):
            b.play_turn()
        assert b.unit("A1").zone == 5


def test_the_withdrawal_is_the_units_move_for_the_turn_R6_3_R5_4() -> None:
    """Breaking contact in the first combat step, before the side's own movement: its
    withdrawn units cannot move again in that movement."""
    scenario = map_scenario((5,), (5,), **rounds(3))
    ctl = Withdrawing({"A1": 4}, move_first=lambda b, side: False,
                      movement=lambda b, side: {"A1": 1})
    b = start(battle(scenario, force(post()), force(post()), [*INIT, 5, 2], ctl,
                     Scripted(**STILL)))
    with pytest.raises(BattleError, match="Post cannot make that move now"):
        b.play_turn()
    assert b.unit("A1").zone == 4


def test_a_dug_in_mek_that_withdraws_is_dug_in_no_more_R6_3_R4_3() -> None:
    scenario = map_scenario((5,), (5,), **rounds(3))
    ctl = Withdrawing({"A1": 4})

    def dug_in(b: Battle) -> None:
        b.unit("A1").dug_in_zone = 5

    b = breaking(force(post()), force(post()), [*INIT, 5, 2], scenario, ctl, prepare=dug_in)
    assert b.unit("A1").dug_in_zone is None


def test_break_contact_stay_is_the_earlier_reading_R6_3() -> None:
    """``break_contact: stay``: no one fires, the units stay, and they may leave in their
    side's next movement (here the same turn's, the attacker moving second)."""
    scenario = map_scenario((5,), (5,), combat_rounds=3, break_contact="stay")
    ctl = Withdrawing(move_first=lambda b, side: False,
                      movement=lambda b, side: {"A1": 4})
    b = start(battle(scenario, force(gun("Cannon")), force(gun("Cannon", name="Foe")),
                     [*INIT, 5, 2], ctl, Scripted(**STILL)))
    b.play_turn()
    assert_all_dice_used(b, [*INIT, 5, 2])
    assert texts(b, Kind.BREAK) == ["The attacker breaks contact in zone 5; no one fires "
                                    "there this turn."]
    assert ctl.offered == {}  # no withdrawal is asked
    assert shots(b) == []
    assert texts(b, Kind.MOVE) == ["Gun moves from zone 5 to zone 4."]


def test_one_exchange_and_break_contact_stay_keep_the_units_in_the_zone_R5_2_R6_3() -> None:
    """The earlier readings together: no rounds, and units that broke contact stay in the
    zone (they did not move away), where the engagement goes on next turn, at Long."""
    scenario = map_scenario((5,), (5,), combat_rounds=1, break_contact="stay")
    ctl = Withdrawing()
    dice = [*INIT, 5, 2, *INIT, 2, 5]
    b = start(battle(scenario, force(post()), force(post()), dice, ctl, Scripted(
        [RangeChoice.STAY], **STILL)))
    b.play_turn()
    b.play_turn()
    assert_all_dice_used(b, dice)
    assert b.unit("A1").zone == 5 and ctl.offered == {}
    assert texts(b, Kind.ROUND) == [] and texts(b, Kind.ENGAGE) == [
        "Combat begins in zone 5 (Plains) at Long range."]
    assert texts(b, Kind.RANGE)[-1] == "Defender wins the movement roll 5 to 2: range long " \
        "in zone 5."


def test_recorded_replays_a_withdraw_decision_R6_3() -> None:
    scenario = map_scenario((5,), (5, 6), **rounds(3))
    dice = [*INIT, 5, 4, 2]

    def fight(attacker_ctl: Any) -> Battle:
        return breaking(two_posts(), force(post(), post(name="Flank")), dice, scenario,
                        attacker_ctl,
                        Scripted(deploy=lambda b, side, units: {"D1": 5, "D2": 6}, **STILL))

    deploy = {"deploy": lambda b, side, units: {"A1": 5, "A2": 5}}
    record: list[dict[str, Any]] = []
    first = fight(Recorded(Withdrawing({"A1": 8, "A2": 4}, **deploy),  # type: ignore[arg-type]
                           record))
    asked = [(r["ask"], r["value"]) for r in record if r["ask"] == "withdraw"]
    assert asked == [("withdraw", 8), ("withdraw", 4)]

    class Refuse:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"asked {name!r} during a replay")

    stored = json.loads(json.dumps(record))
    again = fight(Recorded(Refuse(), stored))
    assert digest(again.log) == digest(first.log)
    assert (again.unit("A1").zone, again.unit("A2").zone) == (8, 4)


def test_the_baseline_withdraws_towards_its_goal_else_into_the_first_zone_R6_3() -> None:
    from meks.engine.controllers import Baseline

    b = start(battle(duel_scenario(**rounds(3)), force(post()), force(post()), []))
    view, unit = b.views[Side.ATTACKER], b.unit("A1")
    goal = Baseline().goal(view, unit)
    zones = [2, 4, 6, 8]
    expected = goal if isinstance(goal, int) and goal in zones else 2
    assert Baseline().withdraw(view, unit, zones) == expected


# ---- R7.3 Head to Head at the turn limit ------------------------------------------------------

def head_to_head(turn: int, attacker: Any, defender: Any) -> Any:
    from campaigns.files.scenarios import get_scenario
    from meks.game.victory import BattleState, judge

    return judge(get_scenario("head-to-head"),
                 BattleState(turn=turn, attacker=tuple(attacker), defender=tuple(defender),
                             history=()))


def mek_state(uid: str, points: int, zone: int | None = 5, destroyed: int | None = None,
              exited: int | None = None) -> Any:
    from meks.game.victory import UnitState
    from meks.game.vocabulary import Edge, UnitKind

    return UnitState(id=uid, kind=UnitKind.MEK, zone=None if destroyed or exited else zone,
                     points=points, destroyed_turn=destroyed, exited_turn=exited,
                     exit_edge=Edge.EAST if exited else None, exit_zone=3 if exited else None)


def test_head_to_head_at_the_limit_the_side_that_destroyed_more_points_wins_R7_3() -> None:
    from meks.game.victory import Outcome

    verdict = head_to_head(12, [mek_state("A1", 12), mek_state("A2", 8, destroyed=3)],
                           [mek_state("D1", 12), mek_state("D2", 10, destroyed=5),
                            mek_state("D3", 4, destroyed=9)])
    assert verdict.outcome is Outcome.ATTACKER_WINS
    assert "the attacker destroyed 14 points of Meks to the defender's 8 and wins" in \
        verdict.reason


@pytest.mark.parametrize(("lost_a", "lost_d"), [((), ()), ((8,), (8,)), ((4, 4), (8,))])
def test_head_to_head_at_the_limit_equal_points_are_a_draw_R7_3(
        lost_a: tuple[int, ...], lost_d: tuple[int, ...]) -> None:
    from meks.game.victory import Outcome

    attacker = [mek_state("A1", 12)] + [mek_state(f"A{i + 2}", p, destroyed=2)
                                        for i, p in enumerate(lost_a)]
    defender = [mek_state("D1", 12)] + [mek_state(f"D{i + 2}", p, destroyed=2)
                                        for i, p in enumerate(lost_d)]
    verdict = head_to_head(12, attacker, defender)
    assert verdict.outcome is Outcome.DRAW
    assert f"each side destroyed {sum(lost_a)} points of the enemy's Meks: a draw" in \
        verdict.reason


def test_head_to_head_before_the_limit_points_decide_nothing_R7_3() -> None:
    from meks.game.victory import Outcome

    verdict = head_to_head(11, [mek_state("A1", 12)],
                           [mek_state("D1", 12), mek_state("D2", 10, destroyed=5)])
    assert verdict.outcome is Outcome.UNDECIDED


def test_head_to_head_a_mek_that_left_the_map_is_not_destroyed_points_R7_3() -> None:
    from meks.game.victory import Outcome

    verdict = head_to_head(12, [mek_state("A1", 12), mek_state("A2", 20, exited=4)],
                           [mek_state("D1", 12), mek_state("D2", 6, destroyed=4)])
    assert verdict.outcome is Outcome.ATTACKER_WINS
    assert "destroyed 6 points of Meks to the defender's 0" in verdict.reason


def test_head_to_head_a_bailed_out_mek_counts_as_destroyed_points_R7_3_R6_12() -> None:
    """A Mek whose pilot bailed out (R6.12) was destroyed for the points, at its price as
    mustered."""
    from meks.game.victory import Outcome, mek_points

    def one_from_the_end(b: Battle) -> None:
        b.unit("D1").hits = b.unit("D1").max_hits - 2

    worth_ten = dataclasses.replace(post(level="Veteran"), points=10)
    b = exchange(gun("Cannon"), worth_ten, [*INIT, 3, 2, 4, 1, 1],  # a Hit; the pilot bails
                 defender_ctl=Scripted(bail_out=lambda view, unit: True),
                 prepare=one_from_the_end, bail_out=True, **rounds(3))
    assert b.unit("D1").bailed
    view = b.view()
    assert mek_points(view, Side.ATTACKER) == 10 and mek_points(view, Side.DEFENDER) == 0
    # At the limit, with another defending Mek still standing:
    verdict = head_to_head(12, view.attacker, [*view.defender, mek_state("D9", 12)])
    assert verdict.outcome is Outcome.ATTACKER_WINS
    assert "the attacker destroyed 10 points of Meks to the defender's 0 and wins" in \
        verdict.reason


def test_head_to_head_both_sides_wiped_out_at_once_are_judged_by_the_points_R7_3() -> None:
    """Neither side has the last Mek standing, and neither can do anything more: the battle
    ends at once, judged as at the turn limit."""
    from meks.game.victory import Outcome, UnitState
    from meks.game.vocabulary import UnitKind

    verdict = head_to_head(5, [mek_state("A1", 12, destroyed=5), mek_state("A2", 4, destroyed=2)],
                           [mek_state("D1", 10, destroyed=5), mek_state("D2", 8, destroyed=3)])
    assert verdict.outcome is Outcome.ATTACKER_WINS
    assert "the attacker destroyed 18 points of Meks to the defender's 16 and wins" in \
        verdict.reason
    even = head_to_head(5, [mek_state("A1", 12, destroyed=5)],
                        [mek_state("D1", 12, destroyed=5)])
    assert even.outcome is Outcome.DRAW
    vehicle = UnitState(id="A9", kind=UnitKind.VEHICLE, zone=5, points=5)
    still_there = head_to_head(5, [mek_state("A1", 12, destroyed=5), vehicle],
                               [mek_state("D1", 10, destroyed=5)])
    assert still_there.outcome is Outcome.UNDECIDED  # a vehicle fights on to the limit


def test_scenario_show_says_how_mek_points_decide_R7_3(runner: CliRunner) -> None:
    shown = " ".join(cli(runner, "scenario", "show", "head-to-head").split())
    assert "At the turn limit otherwise: the side that destroyed more of the enemy's Mek " \
        "points wins (equal points: a draw)." in shown


def test_head_to_head_ships_with_mek_points_at_the_turn_limit_R7_3() -> None:
    from campaigns.files.scenarios import get_scenario
    from meks.game.vocabulary import Result

    scenario = get_scenario("head-to-head")
    assert scenario.victory.at_turn_limit is Result.MEK_POINTS
    assert "victory.at_turn_limit" not in scenario.assumed


# ---- battles of earlier revisions -----------------------------------------------------------

def test_earlier_revisions_are_fought_under_one_exchange_and_stay_R5_2_R6_3() -> None:
    scenario = duel_scenario(**rounds(3))
    assert ROUNDS == 8 and REVISION >= ROUNDS
    for revision in range(1, ROUNDS):
        old = as_fought_under(scenario, revision)
        assert old.house_rules.combat_rounds == 1
        assert old.house_rules.break_contact is BreakContact.STAY
        assert old.house_rules.one_exchange
        assert old.id == scenario.id and old.victory == scenario.victory
    assert as_fought_under(scenario, ROUNDS) is scenario
    assert as_fought_under(scenario, REVISION) is scenario



@pytest.fixture
def old_rules(tmp_path: Path) -> str:
    """Opening Shots under the readings engine revisions before 8 fought under."""
    data = yaml.safe_load((REPO / "campaigns" / "files" / "scenarios" / "1-opening-shots.yaml")
                          .read_text(encoding="utf-8"))
    data["id"] = "opening-shots-of-old"
    data.setdefault("house_rules", {}).update(combat_rounds=1, break_contact="stay")
    path = tmp_path / "old.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def cli(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result.stdout if code == 0 else result.stderr


def test_a_battle_stored_under_revision_7_replays_identically_R5_2_R6_3(
        runner: CliRunner, old_rules: str, tmp_path: Path) -> None:
    """A battle fought before revision 8 (one exchange a turn, contact broken in place) and
    stored without those house rules, since they did not exist then, replays as it was
    fought; taken for a revision-8 battle, the same record fights rounds and differs."""
    from sqlmodel import select

    from cli.state import session
    from db.models import BattleLog
    from tests.test_battle_cli import BLUE

    blue = tmp_path / "blue.yaml"
    blue.write_text(BLUE, encoding="utf-8")
    cli(runner, "company", "create", "Wolves")
    for design, pilot in (("VIPER", "Ana"), ("WASP", "Bo"), ("WASP", "Cy")):
        callsign = json.loads(cli(runner, "mek", "buy", "Wolves", design, "--json"))["callsign"]
        cli(runner, "pilot", "hire", "Wolves", pilot)
        cli(runner, "pilot", "assign", "Wolves", pilot, callsign)
    cli(runner, "muster", "Wolves", "--scenario", old_rules, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    fought = json.loads(cli(runner, "battle", "auto", old_rules, "-a", "Wolves", "-d",
                            str(blue), "--seed", "11", "--json"))
    battle_id = fought["battle_id"]

    def stored_as(revision: int) -> None:
        with session() as s:
            log = s.exec(select(BattleLog).where(BattleLog.battle_id == battle_id)).one()
            spec = json.loads(log.spec)
            house = spec["scenario"].get("house_rules", {})
            assert house.pop("combat_rounds", 1) == 1
            assert house.pop("break_contact", "stay") == "stay"
            spec["engine"] = revision
            spec.pop("decisions", None)  # battles stored then kept no bot's answers
            log.spec = json.dumps(spec)
            s.add(log)
            s.commit()

    stored_as(7)
    replay = json.loads(cli(runner, "battle", "replay", str(battle_id), "--json"))
    assert replay["identical"] and replay["engine_revision"] == 7
    assert replay["replayed_digest"] == fought["log_digest"]
    stored_as(ROUNDS)
    err = " ".join(cli(runner, "battle", "replay", str(battle_id), code=1).split())
    assert "does NOT replay identically" in err
