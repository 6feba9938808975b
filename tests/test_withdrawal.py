"""House rule withdrawal (issue 17 item 5, docs/rules.md R6.13), with fixed dice: as a turn
ends a side may withdraw (it loses) or, with at least three times the enemy's Hits left,
overrun (it wins); each of its units on the map takes 3 Hits, never its last."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest
from rich.console import Console

from campaigns.files.scenario_model import parse_scenario
from campaigns.files.scenarios import get_scenario
from meks.engine.answers import strength
from meks.engine.bot.policy import Bot
from meks.engine.controllers import Baseline
from meks.engine.core import Battle, BattleError
from meks.engine.decisions import Retreat
from meks.engine.log import Kind, digest
from meks.engine.recorded import Recorded
from meks.game.scenario import HouseRules
from meks.game.victory import Outcome
from meks.game.vocabulary import Side
from tests.engine_helpers import (
    INIT,
    TIE,
    Scripted,
    Watched,
    assert_all_dice_used,
    battle,
    exchange,
    force,
    gun,
    hold_fire,
    mek,
    post,
    start,
    texts,
)

QUIET_TURN = [*INIT, *TIE]  # initiative and a tied movement roll; nobody fires


def answer(choice: Retreat) -> Scripted:
    return Scripted(fire=hold_fire, withdrawal=lambda view, side, options: choice)


def test_withdrawal_the_side_loses_and_its_units_take_3_hits_never_the_last_R6_13() -> None:
    b = exchange(gun("Cannon"), post(), QUIET_TURN, attacker_ctl=Scripted(fire=hold_fire),
                 defender_ctl=answer(Retreat.WITHDRAW), withdrawal=True)
    assert b.verdict is not None and b.verdict.outcome is Outcome.ATTACKER_WINS
    assert b.verdict.reason == "the defender withdrew after turn 1"
    assert b.result().early == (Side.DEFENDER, Retreat.WITHDRAW)
    target = b.unit("D1")
    assert target.hits == 3 and target.destroyed_turn is None
    assert b.unit("A1").hits == 0  # the side that stays takes nothing
    assert "Defender decides: withdraw" in texts(b, Kind.DECISION)
    assert f"Post takes 3 Hits as its side withdraws (3/{target.max_hits})." in \
        texts(b, Kind.DAMAGE)


def test_withdrawal_hits_never_take_a_units_last_hit_R6_13() -> None:
    def worn(b: Battle) -> None:
        b.unit("D1").hits = b.unit("D1").max_hits - 2  # two Hits left: it takes only one

    b = exchange(gun("Cannon"), post(), QUIET_TURN, attacker_ctl=Scripted(fire=hold_fire),
                 defender_ctl=answer(Retreat.WITHDRAW), prepare=worn, withdrawal=True)
    assert b.unit("D1").remaining == 1 and b.unit("D1").destroyed_turn is None


@pytest.mark.parametrize("left", [1, 2, 3, 4])
def test_withdrawal_overrun_is_offered_only_with_three_times_the_enemys_hits_R6_13(
        left: int) -> None:
    b = exchange(gun("Cannon"), post(), QUIET_TURN, attacker_ctl=Scripted(fire=hold_fire),
                 defender_ctl=Scripted(fire=hold_fire), withdrawal=True)
    big, small = b.unit("A1"), b.unit("D1")
    small.hits = small.max_hits - left
    options = b.views[Side.ATTACKER].withdrawal_options()
    assert options[:2] == [Retreat.FIGHT, Retreat.WITHDRAW]
    assert (Retreat.OVERRUN in options) is (big.remaining >= 3 * left)
    assert Retreat.OVERRUN not in b.views[Side.DEFENDER].withdrawal_options()


def test_withdrawal_overrun_wins_and_the_overrunning_side_takes_the_hits_R6_13() -> None:
    def nearly_gone(b: Battle) -> None:
        b.unit("D1").hits = b.unit("D1").max_hits - 1

    b = exchange(gun("Cannon", name="Big"), post(), QUIET_TURN,
                 attacker_ctl=answer(Retreat.OVERRUN), defender_ctl=Scripted(fire=hold_fire),
                 prepare=nearly_gone, withdrawal=True)
    assert b.verdict is not None and b.verdict.outcome is Outcome.ATTACKER_WINS
    assert b.verdict.reason == "the attacker overran the defender after turn 1"
    assert b.unit("A1").hits == 3 and b.unit("D1").remaining == 1


def citadel_turn_one(arrivals: list[int], offered: dict[Side, list[list[Retreat]]]) -> Battle:
    """Citadel with withdrawal on: three Titans (ODIN) to arrive against one Heavy (DRAKEN)
    in the city, turn 1 played with the attacker winning the initiative and the given
    arrival rolls (4+ arrives; the baseline brings them to zone 3, away from the city).
    Each side overruns whenever it is offered; ``offered`` gets what it was offered."""
    def greedy(side: Side) -> Scripted:
        def choose(view: Any, who: Side, options: list[Retreat]) -> Retreat:
            offered.setdefault(side, []).append(list(options))
            return Retreat.OVERRUN if Retreat.OVERRUN in options else Retreat.FIGHT
        return Scripted(fire=hold_fire, withdrawal=choose)

    scenario = dataclasses.replace(get_scenario("citadel"),
                                   house_rules=HouseRules(withdrawal=True))
    titans = force(*(mek("ODIN", name=f"Odin {n}") for n in (1, 2, 3)))
    dice = [*INIT, *arrivals]
    b = start(battle(scenario, titans, force(mek("DRAKEN")), dice,
                     greedy(Side.ATTACKER), greedy(Side.DEFENDER)))
    b.play_turn()
    assert_all_dice_used(b, dice)
    return b


def test_withdrawal_units_still_to_arrive_do_not_count_for_an_overrun_R6_13() -> None:
    """Three Titans that have not arrived are no strength on the map: the attacker may not
    overrun the Heavy in the city (nor, the sides not having met, the Heavy them)."""
    offered: dict[Side, list[list[Retreat]]] = {}
    b = citadel_turn_one([1, 1, 1], offered)
    assert offered == {Side.ATTACKER: [[Retreat.FIGHT, Retreat.WITHDRAW]],
                       Side.DEFENDER: [[Retreat.FIGHT, Retreat.WITHDRAW]]}
    assert b.verdict is not None and not b.verdict.decided and b.early is None
    assert not any(u.arrived for u in b.side_units(Side.ATTACKER))
    assert strength(b.side_units(Side.ATTACKER)) == 0
    assert strength(b.side_units(Side.DEFENDER)) == b.unit("D1").max_hits


def test_withdrawal_no_overrun_before_the_sides_have_met_R6_13() -> None:
    """The Titans arrive in zone 3, three times the Heavy's Hits on the map, but no zone
    combat has been fought yet: an overrun is not offered; withdrawing still is."""
    offered: dict[Side, list[list[Retreat]]] = {}
    b = citadel_turn_one([6, 6, 6], offered)
    assert [u.zone for u in b.side_units(Side.ATTACKER)] == [3, 3, 3]
    assert offered[Side.ATTACKER] == [[Retreat.FIGHT, Retreat.WITHDRAW]]
    assert b.verdict is not None and not b.verdict.decided and b.early is None
    # once a zone combat has been fought between them, the overrun is there
    b.fought_in[5] = 1
    assert Retreat.OVERRUN in b.views[Side.ATTACKER].withdrawal_options()


def test_withdrawal_an_overrun_not_offered_is_refused_R6_13() -> None:
    with pytest.raises(BattleError, match="withdrawal"):
        exchange(gun("Cannon"), post(), QUIET_TURN, attacker_ctl=answer(Retreat.OVERRUN),
                 defender_ctl=Scripted(fire=hold_fire), withdrawal=True)


def test_withdrawal_off_by_default_is_never_asked_R6_13() -> None:
    watched = Watched(answer(Retreat.WITHDRAW))
    b = exchange(gun("Cannon"), post(), QUIET_TURN, defender_ctl=watched,
                 attacker_ctl=Scripted(fire=hold_fire),
                 prepare=lambda b: setattr(watched, "battle", b))
    assert watched.asked["withdrawal"] == 0 and b.verdict is not None
    assert not b.verdict.decided and b.early is None
    assert b.views[Side.DEFENDER].withdrawal_options() == [Retreat.FIGHT]


def test_withdrawal_the_baseline_fights_on_R6_13() -> None:
    b = exchange(gun("Cannon"), post(), QUIET_TURN, attacker_ctl=Scripted(fire=hold_fire),
                 defender_ctl=Scripted(fire=hold_fire), withdrawal=True)
    assert b.early is None


def test_withdrawal_the_bot_withdraws_when_hopeless_and_overruns_when_clearly_winning_R6_13(
        ) -> None:
    """The bot's judge: an unarmed Mek facing a gun has a force ratio near 0 (it withdraws);
    the gun facing a last-Hit enemy overruns."""
    def nearly_gone(b: Battle) -> None:
        b.unit("D1").hits = b.unit("D1").max_hits - 1

    b = exchange(gun("Cannon", "Cannon"), post(), QUIET_TURN,
                 attacker_ctl=Scripted(fire=hold_fire), defender_ctl=Bot(), withdrawal=True)
    assert b.early == (Side.DEFENDER, Retreat.WITHDRAW)
    b = exchange(gun("Cannon", "Cannon", name="Big"), post(weapons=["Laser"]), QUIET_TURN,
                 attacker_ctl=Scripted(fire=hold_fire), defender_ctl=Scripted(fire=hold_fire),
                 withdrawal=True)
    nearly_gone(b)
    view = b.views[Side.ATTACKER]
    assert Bot().withdrawal(view, Side.ATTACKER, view.withdrawal_options()) is \
        Retreat.OVERRUN
    # an even fight: on it goes
    b.unit("D1").hits = 0
    assert Bot().withdrawal(view, Side.ATTACKER, view.withdrawal_options()) is Retreat.FIGHT


def test_withdrawal_the_bot_judges_the_fight_as_the_next_turn_finds_it_R6_13() -> None:
    """As the turn ends, the bot weighs the fight ahead: a Mek whose wounded pilot failed
    this turn's roll still fights next turn (at 5+), and the terrain of the zone each unit
    stands in this turn is not the fight's (a zone combat puts both sides in one). Counted
    as they stood, either made an even fight look hopeless, and the bot withdrew from it."""
    def even(terrain: str) -> Battle:
        return exchange(gun("Laser", "Laser", name="Ours"),
                        post(weapons=["Laser", "Laser"], name="Theirs"), QUIET_TURN,
                        terrain=terrain, attacker_ctl=Scripted(fire=hold_fire),
                        defender_ctl=Scripted(fire=hold_fire), withdrawal=True)

    def asked(b: Battle, side: Side) -> Retreat:
        view = b.views[side]
        return Bot().withdrawal(view, side, view.withdrawal_options())

    b = even("Plains")
    ours = b.unit("A1")
    ours.wounded, ours.can_act = True, False  # failed this turn's 5+
    assert asked(b, Side.ATTACKER) is Retreat.FIGHT
    ours.wounded = False  # counted as acting on 5+ only while wounded
    assert asked(b, Side.ATTACKER) is Retreat.FIGHT
    # Ours in the open (zone 4), theirs in the Woods (zone 5): each side's next fight is
    # judged as the same one, whichever zone it is fought in.
    split = parse_scenario({
        "id": "split", "name": "Split", "turn_limit": 12,
        "terrain": {z: "Woods" if z == 5 else "Plains" for z in range(1, 10)},
        "attacker": {"setup": {"zones": [5]}}, "defender": {"setup": {"zones": [5]}},
        "victory": {"attacker": {"type": "last_standing", "side": "attacker"},
                    "defender": {"type": "last_standing", "side": "defender"}},
        "house_rules": {"withdrawal": True}})
    apart = exchange(gun("Laser", "Laser", name="Ours"),
                     post(weapons=["Laser", "Laser"], name="Theirs"), [], turns=0,
                     scenario=split)
    apart.unit("A1").zone = 4
    ratios = []
    for side in Side:
        bot, view = Bot(), apart.views[side]
        with bot.judge.next_turn(view):
            ratios.append(bot.judge.ratio(view, [apart.unit(side.value[0].upper() + "1")],
                                          [apart.unit(side.enemy.value[0].upper() + "1")]))
    assert ratios[0] == pytest.approx(1.0) and ratios[1] == pytest.approx(1.0)


def test_withdrawal_a_recorded_decision_replays_the_same_battle_R6_13() -> None:
    decisions: list[dict[str, Any]] = []
    first = exchange(gun("Cannon"), post(), QUIET_TURN,
                     attacker_ctl=Scripted(fire=hold_fire),
                     defender_ctl=Recorded(answer(Retreat.WITHDRAW), decisions),
                     withdrawal=True)
    assert {"ask": "withdrawal", "turn": 1, "value": "WITHDRAW"} in decisions
    again = exchange(gun("Cannon"), post(), QUIET_TURN, attacker_ctl=Scripted(fire=hold_fire),
                     defender_ctl=Recorded(Baseline(), list(decisions)), withdrawal=True)
    assert digest(again.log) == digest(first.log)


def test_withdrawal_and_bail_out_are_asked_at_the_terminal_R6_12_R6_13() -> None:
    """The play screen offers both, the advisor's answer suggested (Enter takes it)."""
    from cli.play import Terminal

    asked: list[str] = []

    def ask(text: str, default: str) -> str:
        asked.append(default)
        return "2"

    b = exchange(gun("Cannon"), post(), QUIET_TURN, attacker_ctl=Scripted(fire=hold_fire),
                 defender_ctl=Scripted(fire=hold_fire), bail_out=True, withdrawal=True)
    b.unit("D1").hits = b.unit("D1").max_hits - 1
    out = io.StringIO()
    terminal = Terminal(Console(file=out, width=100, no_color=True), Side.DEFENDER, ask,
                        Baseline())
    view = b.views[Side.DEFENDER]
    assert terminal.bail_out(view, b.unit("D1")) is False  # "2" is no
    assert terminal.withdrawal(view, Side.DEFENDER, view.withdrawal_options()) \
        is Retreat.WITHDRAW
    shown = " ".join(out.getvalue().split())
    assert "Bail out? The Mek is lost, the pilot surely survives." in shown
    assert "Fight on, or end the battle?" in shown and "withdraw: you lose now" in shown
    assert "Hits left to your Meks and vehicles on the map" in shown
    assert "an overrun needs 3 times theirs, once the sides have fought" in shown
    assert asked == ["2", "1"]  # the baseline's answers suggested: no, and fight on
