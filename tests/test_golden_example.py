"""The worked example at the end of the rules: a WASP against a DRAKEN on plains.

Our dice follow the engine's order of rolls. Two readings of the example's numbers: in the
first exchange the Rail Cannon dice (2 and 6) are the rolls before the Jammer's -1; in the
second exchange "3, 4 with -1" are the results after it (rolls 4 and 5), since only that
gives the two hits the example counts. The DRAKEN holds its Hammer in the first exchange,
as in the example. The critical check (3) is followed by a table roll of 2: Leg Damaged.
The example leaves out the critical check of the killing Hit (R6.9), which cannot fail
with no Hits left; we give it a check of 5 and a table roll of 2 (Leg Damaged again),
which leaves the pilot to eject as the example has it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meks.engine.core import RangeChoice
from meks.engine.log import Kind
from meks.engine.units import Unit
from meks.game.catalog import Band
from meks.game.vocabulary import Side
from tests.engine_helpers import Scripted, battle, duel_scenario, force, mek, texts, weapons_named

DICE = [
    # turn 1
    6, 1,        # initiative: attacker (WASP) 6, defender 1
    4, 3,        # WASP movement 2d6+2 = 9
    5,           # DRAKEN movement 1d6+2 = 7
    2, 6,        # DRAKEN Rail Cannons to hit (need 5 at Medium, -1 Jammer): miss, hit
    4,           # WASP armor save 4 vs 5: fails
    3,           # critical check 3 > 1 remaining: critical
    2,           # critical table: Leg Damaged
    # turn 2
    6, 1,        # initiative
    3, 4,        # WASP movement 2d6+2-1 = 8
    3,           # DRAKEN movement 1d6+2 = 5
    4,           # WASP Cannon to hit 4: hit
    4,           # DRAKEN armor save 4 vs 3: saved
    4, 5,        # DRAKEN Rail Cannons (need 4 at Short, -1 Jammer): 3 miss, 4 hit
    5,           # WASP save vs Rail Cannon 5: saved
    6,           # Hammer Missile to hit: 5 vs 3, hit
    4,           # WASP save vs Hammer 4-1 = 3: fails; second hit destroys the WASP
    5,           # the killing Hit's critical check (R6.9): 5 > 0 remaining, a critical
    2,           # critical table: Leg Damaged (the reactor holds; the pilot will eject)
]


def fire_as_in_the_example(second: Callable[[Any], bool]) -> Callable[..., Any]:
    """Each Mek's fire as the example gives it: the DRAKEN holds its Hammer until the second
    exchange (``second`` says whether the battle is at it), the WASP fires its Cannon when in
    range."""
    def fire(b, unit: Unit, targets: list[Unit], band: Band):  # type: ignore[no-untyped-def]
        if unit.design == "DRAKEN":
            names = ["Rail Cannon", "Rail Cannon"] + (["Hammer Missile"] if second(b) else [])
            return [(slot, targets[0]) for slot in weapons_named(unit, *names)]
        return [(slot, targets[0]) for slot in weapons_named(unit, "Cannon")
                if slot.weapon.to_hit_at(band) is not None]
    return fire


drakens_fire = fire_as_in_the_example(lambda b: b.turn == 2)


def test_worked_example_wasp_against_draken() -> None:
    b = battle(duel_scenario("Plains"), force(mek("WASP")), force(mek("DRAKEN")), DICE,
               Scripted([RangeChoice.CLOSE, RangeChoice.CLOSE], fire=drakens_fire),
               Scripted(fire=drakens_fire))
    result = b.run()
    wasp, draken = b.units
    ranges = texts(b, Kind.RANGE)
    assert ranges[0].startswith("Attacker wins the movement roll 9 to 7: range medium")
    assert ranges[1].startswith("Attacker wins the movement roll 8 to 5: range short")
    hits = texts(b, Kind.HIT)
    misses = texts(b, Kind.MISS)
    assert len([h for h in hits if "Rail Cannon" in h]) == 2
    assert len([m for m in misses if "Rail Cannon" in m]) == 2
    assert any("WASP fires Cannon at DRAKEN" in h for h in hits)
    assert any("Hammer Missile" in h for h in hits)
    saves = texts(b, Kind.SAVE)
    assert saves == [
        "WASP armor save 4+0 vs 5+: failed.",
        "DRAKEN armor save 4+0 vs 3+: saved.",
        "WASP armor save 5+0 vs 5+: saved.",
        "WASP armor save 4-1 vs 5+: failed.",
    ]
    assert texts(b, Kind.CRITICAL) == ["Critical on WASP: Leg Damaged (2) - -1 to movement.",
                                       "Critical on WASP: Leg Damaged (2) - -2 to movement."]
    assert wasp.legs == 2
    assert wasp.destroyed_turn == 2 and wasp.hits == 2
    assert draken.hits == 0 and draken.alive
    assert result.winner is Side.DEFENDER and result.turns == 2
    assert draken.mek_kills == 1
    assert not wasp.pilot.dead  # destroyed by hits: the pilot ejects  # type: ignore[union-attr]
    assert len(b.dice.log) == len(DICE)  # every die used, none left over


# R5.2 as revised: "the worked example fights round after round in one go". The same dice, less
# the second turn's initiative: both exchanges are rounds of one zone combat on turn 1.
ROUNDS_DICE = DICE[:10] + DICE[12:]


drakens_fire_by_round = fire_as_in_the_example(lambda b: b.round == 2)


def test_worked_example_is_one_zone_combat_of_two_rounds_R5_2() -> None:
    scenario = duel_scenario("Plains", combat_rounds=3, break_contact="withdraw")
    b = battle(scenario, force(mek("WASP")), force(mek("DRAKEN")), ROUNDS_DICE,
               Scripted([RangeChoice.CLOSE, RangeChoice.CLOSE], fire=drakens_fire_by_round),
               Scripted(fire=drakens_fire_by_round))
    result = b.run()
    wasp, draken = b.units
    assert texts(b, Kind.ROUND) == ["Round 1 in zone 5 (long range).",
                                    "Round 2 in zone 5 (medium range)."]
    ranges = texts(b, Kind.RANGE)
    assert ranges[0].startswith("Attacker wins the movement roll 9 to 7: range medium")
    assert ranges[1].startswith("Attacker wins the movement roll 8 to 5: range short")
    assert [e.text for e in b.log if e.kind is Kind.SAVE] == [
        "WASP armor save 4+0 vs 5+: failed.",
        "DRAKEN armor save 4+0 vs 3+: saved.",
        "WASP armor save 5+0 vs 5+: saved.",
        "WASP armor save 4-1 vs 5+: failed.",
    ]
    assert wasp.legs == 2 and wasp.destroyed_turn == 1
    assert result.winner is Side.DEFENDER and result.turns == 1
    assert draken.mek_kills == 1 and draken.hits == 0
    assert len(b.dice.log) == len(ROUNDS_DICE)
