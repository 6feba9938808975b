"""The facts that feed a check are gathered once (``meks.engine.inputs``): the engine, the bot
and the exact duel count a shot alike, and the engine and the odds estimate a movement roll.

Each case sets a battle up in one zone, already engaged at a band, and asks every reader of
the same shot for its modifier; they must agree to the point.
"""

from __future__ import annotations

import pytest

from meks.analysis.duel import mek_model
from meks.analysis.duel_chain import DuelChain
from meks.analysis.estimate import rollers
from meks.engine.bot.evaluation import Judge
from meks.engine.core import Battle
from meks.game.catalog import Band
from meks.game.shots import heat_rating
from meks.game.vocabulary import Side
from tests.engine_helpers import CATALOG, battle, duel_scenario, force, mek, start

# Shooters and targets that carry what a shot reads: a Targeting Array (VIPER, SAGITARII),
# Jammers (WASP, DEMON, ODIN), missiles against Point Defense (SAGITARII at DRAKEN), a Hammer
# Missile (DRAKEN), plain guns (WARTHOG, SABER).
PAIRS = [("VIPER", "WASP"), ("SAGITARII", "DRAKEN"), ("DRAKEN", "ODIN"), ("ODIN", "SAGITARII"),
         ("WARTHOG", "THOR"), ("SABER", "DEMON")]


def _set(a: str, b: str, terrain: str, band: Band, level: str) -> Battle:
    fight = battle(duel_scenario(terrain), force(mek(a, level)), force(mek(b)), 0)
    return start(fight, band)


@pytest.mark.parametrize("terrain", ["Plains", "Woods"])
@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_engine_bot_and_duel_count_a_shot_alike_R6_6(a: str, b: str, terrain: str) -> None:
    judge = Judge()
    chain = DuelChain(mek_model(a, "Veteran", terrain), mek_model(b, "Regular", terrain),
                      CATALOG.terrain_named(terrain).to_hit, False, CATALOG)
    compared = 0
    for band in Band:
        fight = _set(a, b, terrain, band, "Veteran")
        shooter, target = fight.unit("A1"), fight.unit("D1")
        view = fight.sight.views[0]
        mine = view.value(shooter)
        seen = next(u for u in view.units if u.side is Side.DEFENDER)
        guard = tuple(s.system.name for s in target.systems)
        for slot in shooter.weapons:
            weapon = slot.weapon
            if weapon.is_small or weapon.needs[band] is None:
                continue
            engine = fight.shot_to_hit(shooter, weapon, target, band)
            bot = judge.to_hit(view, mine, weapon, seen, band, single=True, skill=False)
            duel_hit, duel_mod = chain.to_hit(0, chain.models[0].start(), weapon, guard,
                                              band.rank)
            assert bot is not None
            assert engine.modifier == bot.modifier == duel_mod, (weapon.name, band,
                                                                 engine.notes, bot.notes)
            assert engine.need == bot.need
            assert duel_hit == pytest.approx(engine.chance())
            compared += 1
    assert compared


def test_the_bot_does_not_count_on_an_enemys_spoof_R6_6() -> None:
    fight = start(battle(duel_scenario(), force(mek("SAGITARII")),
                         force(mek("WASP", skills=("Spoof",))), 0), Band.SHORT)
    shooter, target = fight.unit("A1"), fight.unit("D1")
    view = fight.sight.views[0]
    missile = next(s.weapon for s in shooter.weapons if s.weapon.family.value == "missile")
    engine = fight.shot_to_hit(shooter, missile, target, Band.SHORT)
    bot = Judge().to_hit(view, view.value(shooter), missile,
                         next(u for u in view.units if u.side is Side.DEFENDER),
                         Band.SHORT, single=True, skill=False)
    assert bot is not None
    assert any("Spoof" in n for n in engine.notes)
    assert not any("Spoof" in n for n in bot.notes)
    assert bot.modifier == engine.modifier + 1


@pytest.mark.parametrize("design", ["WASP", "ODIN", "THOR", "SABER"])
def test_the_estimate_reads_the_engines_movement_roll_R6_2(design: str) -> None:
    fight = start(battle(duel_scenario(), force(mek(design, "Veteran", ("Maneuver",))),
                         force(mek("THOR")), 0))
    unit = fight.unit("A1")
    jump = unit.has_system("Jump Jets")
    engine = fight.describe_movement_roll(unit, jump)
    estimate = rollers([mek(design, "Veteran", ("Maneuver",))], CATALOG)
    assert estimate == [(engine.dice, engine.modifier, 1.0)]


def test_a_heat_rating_adds_sinks_moors_and_familiarity_R6_10() -> None:
    assert heat_rating(4) == 4
    assert heat_rating(4, 2) == 6
    assert heat_rating(4, 2, moors=True, familiar=True) == 8
