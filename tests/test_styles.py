"""Issue 16 item 2: the pool of simple styles the bot is measured against
(``meks.engine.styles``) and the benchmark that measures it (``benchmarks/styles.py``).

Every style is a legal controller: it fights whole battles of every scenario on both sides
against the bot (the engine refuses any answer that is not one of a decision's legal options,
with a ``BattleError``), changes nothing in the battle it is shown, and rolls no dice of its
own (the same seed gives the same battle, and the battle's own dice replay it). Each style's
defining decisions are checked on a set position."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from campaigns.files.scenarios import get_scenario
from meks.engine import styles as styles_module
from meks.engine.bot.choices import muster
from meks.engine.bot.policy import Bot
from meks.engine.controllers import Baseline, Controller
from meks.engine.core import Battle, Engagement
from meks.engine.decisions import RangeChoice
from meks.engine.log import digest
from meks.engine.styles import (
    STYLES,
    Hold,
    KeepRange,
    ObjectiveRunner,
    Rush,
    expected_damage,
    shift_toward,
)
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import Band
from meks.game.dice import Dice
from meks.game.scenario import Scenario
from meks.game.vocabulary import Edge, Side
from tests.engine_helpers import CATALOG, Watched, duel_scenario, mek

A, D = Side.ATTACKER, Side.DEFENDER
SCENARIOS = ("opening-shots", "at-the-hot-gates", "buying-us-some-time", "through-the-breach",
             "head-to-head", "citadel")
POOL = ("rush", "hold", "keep-range", "objective-runner")
# Support for each side, so that the decisions the styles take from the baseline are asked too.
SUPPORT = {A: ("Ambush", "Air Strike", "Recon Drone", "Gun Sled"),
           D: ("Support Fire", "Repair Truck", "Digging In", "Decoy", "Hidden Mek", "Minefield",
               "Commandos")}
REPO = Path(__file__).resolve().parent.parent


def side_force(scenario: Scenario, side: Side, support: Sequence[str] = ()) -> ForceSpec:
    """The bot's normal muster for the side, Regular pilots."""
    rules = scenario.side(side)
    designs = muster(rules.budget, rules.max_size, rules.composition, CATALOG)
    units = tuple(UnitSpec(f"{side.value[0]}{i} {d.name}", d, PilotSpec(f"pilot {i}", "Regular"),
                           points=d.price or 0) for i, d in enumerate(designs))
    return ForceSpec(units, tuple(support), side.value)


def forces(scenario: Scenario, support: bool = True) -> dict[Side, ForceSpec]:
    return {side: side_force(scenario, side, SUPPORT[side] if support else ())
            for side in Side}


def fight(scenario: Scenario, sides: dict[Side, ForceSpec], seed: int | Sequence[int],
          controllers: dict[Side, Any]) -> Battle:
    dice = Dice.from_seed(seed) if isinstance(seed, int) else Dice.from_sequence(seed)
    b = Battle(scenario, sides, dice, controllers, CATALOG)
    for c in controllers.values():
        if isinstance(c, Watched):
            c.battle = b
    b.run()
    return b


# ---- legal controllers ----------------------------------------------------------------------

def test_the_registry_names_the_baseline_and_four_styles() -> None:
    """STYLES names the pool by the names a command line would use: the baseline and at
    least four styles, each a Baseline subclass whose ``name`` is its key."""
    assert STYLES["baseline"] is Baseline
    assert set(POOL) <= set(STYLES) and len(STYLES) >= 5
    for name, cls in STYLES.items():
        assert issubclass(cls, Baseline) and cls.name == name  # type: ignore[attr-defined]


@pytest.mark.parametrize("style", POOL)
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_each_style_fights_every_scenario_on_both_sides_against_the_bot(
        style: str, scenario_id: str) -> None:
    """Issue 16 item 2: each style plays a whole battle of every scenario in each seat against
    the bot, with support on both sides, to a verdict: every answer it gave was one of the
    decision's legal options (the engine refuses any other with a BattleError), and none
    changed the battle it was shown."""
    scenario = get_scenario(scenario_id)
    for seed, seat in ((1, A), (2, D)):
        watched = Watched(STYLES[style]())
        b = fight(scenario, forces(scenario), seed, {seat: watched, seat.enemy: Bot()})
        assert b.verdict is not None and b.verdict.decided
        assert watched.asked["deploy"] == 1 or scenario.side(seat).reinforcements
        assert watched.asked["movement"] >= 1 and sum(watched.asked.values()) > 10


@pytest.mark.parametrize("style", POOL)
def test_same_seed_same_battle_and_no_dice_of_its_own(style: str) -> None:
    """A style rolls no dice: the same seed gives the same battle, and the battle replayed
    from its own dice alone (a fixed sequence, which refuses to roll past its end) is the
    same battle, every die used."""
    scenario = get_scenario("head-to-head")
    sides = forces(scenario)
    first = fight(scenario, sides, 21, {A: STYLES[style](), D: Bot()})
    again = fight(scenario, sides, 21, {A: STYLES[style](), D: Bot()})
    assert digest(first.log) == digest(again.log)
    values = [r.value for r in first.dice.log]
    replay = fight(scenario, sides, values, {A: STYLES[style](), D: Bot()})
    assert digest(replay.log) == digest(first.log)
    assert len(replay.dice.log) == len(values)


def test_the_styles_module_has_no_dice_and_no_engine() -> None:
    """The styles import no source of chance (``random``, ``secrets``, ``meks.game.dice``) and not
    the engine: its core or the modules of its steps (also held by the import contract in
    pyproject.toml)."""
    tree = ast.parse(Path(styles_module.__file__).read_text())
    imported = {n.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for n in node.names}
    imported |= {node.module or "" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    engine = {f"meks.engine.{name}" for name in (
        "core", "board", "deployment", "movement", "combat", "detection", "fire", "damage",
        "infantry", "support", "ending")}
    assert not imported & {"random", "secrets", "meks.game.dice", *engine}


# ---- what makes each style ------------------------------------------------------------------

def duel(attacker: str, defender: str, band: Band, ctl: Controller,
         terrain: str = "Plains") -> tuple[Battle, Any]:
    """A set-up fight in zone 5 engaged at ``band``, ``ctl`` commanding the attacker; each
    side is one or more designs ("VIPER+VIPER"). Returns the battle and the attacker's view."""
    sides = {side: ForceSpec(tuple(mek(d, name=f"{side.value} {d} {i}")
                                   for i, d in enumerate(names.split("+"))))
             for side, names in ((A, attacker), (D, defender))}
    b = Battle(duel_scenario(terrain), sides, Dice.from_seed(5), {A: ctl, D: Baseline()},
               CATALOG)
    b.setup()
    b.turn = 1
    b.engagements[5] = Engagement(5, band)
    return b, b.views[A]


EVERY_CLOSE = [RangeChoice.STAY, RangeChoice.CLOSE, RangeChoice.BREAK, RangeChoice.CLOSE_TWO,
               RangeChoice.DOUBLE]


def test_shift_toward_moves_as_far_as_it_may_without_passing() -> None:
    every = list(RangeChoice)
    assert shift_toward(Band.LONG, Band.SHORT, every) is RangeChoice.CLOSE_TWO
    assert shift_toward(Band.LONG, Band.MEDIUM, every) is RangeChoice.CLOSE
    assert shift_toward(Band.SHORT, Band.LONG, every) is RangeChoice.OPEN_TWO
    assert shift_toward(Band.MEDIUM, Band.MEDIUM, every) is RangeChoice.STAY
    assert shift_toward(Band.LONG, Band.SHORT, [RangeChoice.STAY, RangeChoice.CLOSE]) is \
        RangeChoice.CLOSE
    assert shift_toward(Band.SHORT, Band.LONG, [RangeChoice.STAY]) is RangeChoice.STAY


def test_rush_closes_to_short_as_fast_as_it_may() -> None:
    """Rush: from Long, two bands when it may, else one; at Short it stays; it never opens
    or breaks contact, even against a Mek that outguns it at Short."""
    b, view = duel("WASP", "THOR", Band.LONG, Rush())
    rush = Rush()
    assert rush.range_choice(view, 5, A, EVERY_CLOSE) is RangeChoice.CLOSE_TWO
    assert rush.range_choice(view, 5, A, EVERY_CLOSE[:3]) is RangeChoice.CLOSE
    b.engagements[5] = Engagement(5, Band.SHORT)
    assert rush.range_choice(view, 5, A, [RangeChoice.STAY, RangeChoice.OPEN,
                                          RangeChoice.OPEN_TWO]) is RangeChoice.STAY


def placed(scenario_id: str, ctl: Controller, seat: Side, seed: int = 3) -> Battle:
    """A scenario's battle set up with ``ctl`` in ``seat`` and the bot on the other side."""
    scenario = get_scenario(scenario_id)
    b = Battle(scenario, forces(scenario, support=False), Dice.from_seed(seed),
               {seat: ctl, seat.enemy: Bot()}, CATALOG)
    b.setup()
    b.turn = 1
    return b


def test_rush_heads_for_the_nearest_enemy_before_its_objective() -> None:
    """Rush: in Opening Shots (the attacker wins by occupying zone 3) an attacker in zone 2
    goes for the enemy in zone 1, not for zone 3; with no enemy in sight, for zone 3."""
    rush = Rush()
    b = placed("opening-shots", rush, A)
    unit = b.side_units(A)[0]
    unit.zone = 2
    for enemy in b.side_units(D):
        enemy.zone = 1
    assert rush.goal(b.views[A], unit) == 1
    for enemy in b.side_units(D):
        enemy.hits = enemy.max_hits
        enemy.destroyed_turn = 1
    assert rush.goal(b.views[A], unit) == 3


def test_hold_opens_the_range_when_it_outranges_the_enemy_and_never_breaks() -> None:
    """Hold: a THOR (PPCs reach Long) against a VIPER (Short only) opens the range, two bands
    when it may; a VIPER against a THOR closes like the baseline, and at Long stays rather
    than break contact."""
    hold = Hold()
    _kept, view = duel("THOR", "VIPER", Band.SHORT, hold)
    opening = [RangeChoice.STAY, RangeChoice.OPEN, RangeChoice.OPEN_TWO, RangeChoice.DOUBLE]
    assert hold.range_choice(view, 5, A, opening) is RangeChoice.OPEN_TWO
    assert hold.range_choice(view, 5, A, opening[:2]) is RangeChoice.OPEN
    _kept2, view = duel("VIPER", "THOR", Band.LONG, hold)
    assert hold.range_choice(view, 5, A, EVERY_CLOSE) is RangeChoice.CLOSE_TWO
    assert hold.range_choice(view, 5, A, [RangeChoice.STAY, RangeChoice.BREAK]) is \
        RangeChoice.STAY


def test_hold_goes_to_the_zone_the_enemy_wants_and_digs_in_there() -> None:
    """Hold: in Opening Shots the defender stands in zone 3 (the attacker wins by occupying
    it): a unit next to it moves in, a unit there stays and one Mek there digs in."""
    hold = Hold()
    scenario = get_scenario("opening-shots")
    sides = forces(scenario, support=False)
    sides[D] = side_force(scenario, D, ("Digging In",))
    b = Battle(scenario, sides, Dice.from_seed(3), {D: hold, A: Bot()}, CATALOG)
    b.setup()
    b.turn = 1
    first, second, *rest = b.side_units(D)
    first.zone, second.zone = 2, 3
    for unit in rest:
        unit.zone = 3
    for enemy in b.side_units(A):
        enemy.zone = 7
    view = b.views[D]
    assert hold.goal(view, first) == 3 and hold.goal(view, second) is None
    orders = hold.movement(view, D)
    assert orders[first.id] == 3
    assert list(orders.values()).count("dig") == 1
    assert next(uid for uid, o in orders.items() if o == "dig") in [u.id for u in [second, *rest]]


def test_keep_range_keeps_the_band_where_its_weapons_do_best() -> None:
    """KeepRange: a DRAKEN (Rail Cannons to Medium, a Hammer to Long) against a VIPER
    (Short only) does best at Medium, where the VIPER cannot answer: from Long it closes one
    band only, from Short it opens one. The band is the one with the best expected damage
    less the enemy's, from the engine's odds."""
    keep = KeepRange()
    b, view = duel("DRAKEN", "VIPER", Band.LONG, keep)
    assert keep.best_band(view, 5, A) is Band.MEDIUM
    assert keep.range_choice(view, 5, A, EVERY_CLOSE) is RangeChoice.CLOSE
    mine, theirs = b.side_units(A), b.side_units(D)
    edges = {band: expected_damage(view, mine, theirs, band)
             - expected_damage(view, theirs, mine, band) for band in Band}
    assert max(edges, key=lambda band: edges[band]) is Band.MEDIUM
    assert expected_damage(view, theirs, mine, Band.MEDIUM) == 0.0
    b.engagements[5] = Engagement(5, Band.SHORT)
    assert keep.range_choice(view, 5, A, [RangeChoice.STAY, RangeChoice.OPEN,
                                          RangeChoice.OPEN_TWO]) is RangeChoice.OPEN


def test_the_objective_runner_goes_around_enemies_to_its_exit() -> None:
    """ObjectiveRunner: At the Hot Gates the attacker must leave by the south edge from
    zone 8. From zone 2 it goes the straight way through zone 5 while zone 5 is empty, and
    around it (by zone 1 or 3) when enemies stand there; in zone 8 it leaves the map."""
    runner = ObjectiveRunner()
    b = placed("at-the-hot-gates", runner, A)
    unit = b.side_units(A)[0]
    unit.zone = 2
    meks = [e for e in b.side_units(D) if e.is_mek]
    for enemy in meks:
        enemy.zone = 8
    view = b.views[A]
    assert runner.goal(view, unit) == 5
    meks[0].zone = 5
    assert runner.goal(view, unit) in (1, 3)
    unit.zone = 8
    assert runner.goal(view, unit) is Edge.SOUTH


def test_the_objective_runner_breaks_contact_away_from_its_goal_and_fights_on_it() -> None:
    """ObjectiveRunner: in Opening Shots (occupy zone 3) an attacker caught in zone 5 breaks
    contact when it may, else opens toward Long; in zone 3 it fights as the baseline does."""
    runner = ObjectiveRunner()
    b = placed("opening-shots", runner, A)
    for unit in b.units:
        unit.zone = 5
    b.engagements[5] = Engagement(5, Band.LONG)
    view = b.views[A]
    assert runner.range_choice(view, 5, A, EVERY_CLOSE) is RangeChoice.BREAK
    b.engagements[5] = Engagement(5, Band.SHORT)
    assert runner.range_choice(view, 5, A, [RangeChoice.STAY, RangeChoice.OPEN,
                                            RangeChoice.OPEN_TWO]) is RangeChoice.OPEN_TWO
    for unit in b.units:
        unit.zone = 3
    b.engagements = {3: Engagement(3, Band.LONG)}
    assert runner.range_choice(view, 3, A, EVERY_CLOSE) is \
        Baseline().range_choice(view, 3, A, EVERY_CLOSE)


# ---- the benchmark --------------------------------------------------------------------------

def test_the_benchmark_prints_the_figures_as_json() -> None:
    """``benchmarks/styles.py --battles 2 --scenario opening-shots --json`` exits 0 and prints
    JSON: for each seat the bot-vs-bot reference and, for each style of the pool, its wins,
    the bot's, the draws, the margin, its standard error, the verdict and the score (a draw
    as half a win)."""
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "styles.py"), "--battles", "2",
         "--scenario", "opening-shots", "--json", "--jobs", "1"],
        capture_output=True, text=True, timeout=300, cwd=REPO, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {"battles_per_cell", "jobs", "seconds", "muster", "styles", "definition",
            "goal_met", "beaten", "forces", "scenarios"} <= set(report)
    assert report["battles_per_cell"] == 2 and report["muster"] == "normal"
    assert report["styles"] == list(STYLES)
    [row] = report["scenarios"]
    assert row["scenario"] == "opening-shots"
    assert [s["seat"] for s in row["seats"]] == ["attacker", "defender"]
    for seat in row["seats"]:
        ref = seat["bot_vs_bot"]
        assert ref["wins"] + ref["losses"] + ref["draws"] == 2
        assert [e["style"] for e in seat["styles"]] == list(STYLES)
        for e in seat["styles"]:
            assert e["style_wins"] + e["bot_wins"] + e["draws"] == e["battles"] == 2
            assert {"style_win_rate", "bot_win_rate", "draw_rate", "margin",
                    "standard_error", "beats_bot", "score", "score_margin"} <= set(e)
            assert e["margin"] == pytest.approx(e["style_win_rate"] - ref["win_rate"])
            assert e["score"] == pytest.approx(e["style_win_rate"] + e["draw_rate"] / 2)
    assert report["goal_met"] is (not report["beaten"])


def test_beating_the_bot_means_more_than_two_standard_errors_above_its_own_seat() -> None:
    """The benchmark's verdict: a style's win share in a seat against the bot, less the
    bot's own win share in that seat against the bot, is more than twice the standard
    error of the difference of two shares of n battles."""
    sys.path.insert(0, str(REPO))
    from benchmarks.styles import compare

    margin, se, beats = compare(0.30, 0.20, 400)
    assert margin == pytest.approx(0.10)
    assert se == pytest.approx((0.3 * 0.7 / 400 + 0.2 * 0.8 / 400) ** 0.5)
    assert beats  # 0.10 > 2 x 0.0304
    assert not compare(0.25, 0.20, 400)[2]  # 0.05 < 2 x 0.0296
    assert not compare(0.0, 0.0, 400)[2] and not compare(0.5, 0.5, 400)[2]
    assert not compare(0.1, 0.9, 400)[2]  # doing worse never beats
