"""House rule bail_out (issue 17 item 4, docs/rules.md R6.12), each case forced with fixed
dice: as a zone's combat ends, the pilot of a Mek one Hit from destruction, or whose reactor
took a critical, may eject; the Mek is lost, the pilot surely survives."""

from __future__ import annotations

from typing import Any

import pytest

from meks.engine.bot.policy import Bot
from meks.engine.controllers import Baseline
from meks.engine.core import Battle, BattleError
from meks.engine.log import Kind, digest
from meks.engine.recorded import Recorded
from meks.game.vocabulary import Side
from tests.engine_helpers import (
    INIT,
    TIE,
    Scripted,
    Watched,
    exchange,
    force,
    gun,
    hold_fire,
    post,
    texts,
)

# One exchange: the attacker's Cannon hits (4 to hit at Short), the save fails (1) and the
# critical check (1) finds nothing.
ONE_HIT = [*INIT, *TIE, 4, 1, 1]
VETERAN_HIT = [*INIT, 3, 2, 4, 1, 1]  # the same, the Veteran's +1 making the movement tie


def one_from_the_end(b: Battle) -> None:
    target = b.unit("D1")
    target.hits = target.max_hits - 2  # the hit leaves it one Hit from destruction


def test_bail_out_the_pilot_ejects_the_mek_is_lost_and_the_last_hit_gets_the_kill_R6_12(
        ) -> None:
    b = exchange(gun("Cannon"), post(level="Veteran"), VETERAN_HIT,
                 defender_ctl=Scripted(bail_out=lambda view, unit: True),
                 prepare=one_from_the_end, bail_out=True)
    post_unit, shooter = b.unit("D1"), b.unit("A1")
    assert post_unit.bailed and post_unit.destroyed_turn == 1
    assert post_unit.pilot is not None and not post_unit.pilot.dead
    assert shooter.mek_kills == 1  # R2.5: its attack dealt the Mek's last Hit
    assert "Defender decides: Post's pilot bails out" in texts(b, Kind.DECISION)
    assert texts(b, Kind.DESTROYED) == [
        "Post is abandoned: its pilot bails out and survives; the Mek is lost."]


def test_bail_out_the_kill_goes_to_the_unit_that_dealt_the_last_hit_R6_12() -> None:
    """Two Guns each deal the Post a Hit; its pilot bails out: the second Gun, whose Hit was
    the last, gets the Mek kill (R2.5), the first none."""
    def three_left(b: Battle) -> None:
        b.unit("D1").hits = b.unit("D1").max_hits - 3  # two hits leave it one from the end

    b = exchange(force(gun("Cannon", name="Gun A"), gun("Cannon", name="Gun B")), post(),
                 [*INIT, 3, 3, 3,  # movement rolls: a tie
                  4, 1, 1,         # Gun A hits, the save fails, no critical
                  4, 1, 1],        # Gun B the same
                 defender_ctl=Scripted(bail_out=lambda view, unit: True), prepare=three_left,
                 bail_out=True)
    assert b.unit("D1").bailed and b.unit("D1").last_hit_by == "A2"
    assert (b.unit("A1").mek_kills, b.unit("A2").mek_kills) == (0, 1)


def test_bail_out_no_one_is_credited_when_no_unit_dealt_the_mek_a_hit_R6_12() -> None:
    """A Mek one Hit from destruction before any unit of the battle hit it (its Hits
    carried in) bails out: no one dealt it a Hit, so no one gets the kill."""
    b = exchange(gun("Cannon"), post(), [*INIT, *TIE], attacker_ctl=Scripted(fire=hold_fire),
                 defender_ctl=Scripted(bail_out=lambda view, unit: True),
                 prepare=lambda b: setattr(b.unit("D1"), "hits", b.unit("D1").max_hits - 1),
                 bail_out=True)
    assert b.unit("D1").bailed and b.unit("D1").last_hit_by is None
    assert b.unit("A1").mek_kills == 0


def test_bail_out_declined_leaves_the_mek_fighting_R6_12() -> None:
    b = exchange(gun("Cannon"), post(), ONE_HIT,
                 defender_ctl=Scripted(bail_out=lambda view, unit: False),
                 prepare=one_from_the_end, bail_out=True)
    assert not b.unit("D1").bailed and b.unit("D1").destroyed_turn is None


def test_bail_out_is_offered_after_a_reactor_core_critical_that_held_R6_12() -> None:
    offered: list[list[str]] = []

    def ask(view: Any, unit: Any) -> bool:
        offered.append(view.bail_out_options(5))
        return True

    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 4, 1,
                                         6,      # critical check: 6 beats the Hits left
                                         4, 5],  # Reactor Core; the reactor holds (5)
                 defender_ctl=Scripted(bail_out=ask), bail_out=True)
    target = b.unit("D1")
    assert target.reactor_scare and target.remaining > 1
    assert offered == [["D1"]]
    assert target.bailed and target.pilot is not None and not target.pilot.dead


def test_bail_out_is_not_offered_to_a_mek_out_of_danger_R6_12() -> None:
    watched = Watched(Scripted(bail_out=lambda view, unit: True))
    b = exchange(gun("Cannon"), post(), ONE_HIT, defender_ctl=watched, bail_out=True,
                 prepare=lambda b: setattr(watched, "battle", b))
    assert watched.asked["bail_out"] == 0
    assert b.unit("D1").destroyed_turn is None


def test_bail_out_off_by_default_is_never_asked_and_changes_nothing_R6_12() -> None:
    """With the rule off the controller is never asked; the battle's log is the one the
    rule-less engine fights."""
    watched = Watched(Scripted(bail_out=lambda view, unit: True))

    def prepare(b: Battle) -> None:
        watched.battle = b
        one_from_the_end(b)

    b = exchange(gun("Cannon"), post(level="Veteran"), VETERAN_HIT, defender_ctl=watched,
                 prepare=prepare)
    assert watched.asked["bail_out"] == 0
    assert not b.unit("D1").bailed and b.unit("D1").destroyed_turn is None
    assert b.views[Side.DEFENDER].bail_out_options(5) == []


def test_bail_out_an_answer_that_is_not_yes_or_no_is_refused_R6_12() -> None:
    with pytest.raises(BattleError, match="bail_out"):
        exchange(gun("Cannon"), post(), ONE_HIT,
                 defender_ctl=Scripted(bail_out=lambda view, unit: "D1"),
                 prepare=one_from_the_end, bail_out=True)


def test_bail_out_the_baseline_never_bails_out_R6_12() -> None:
    b = exchange(gun("Cannon"), post(level="Elite"), ONE_HIT, defender_ctl=Baseline(),
                 attacker_ctl=Scripted(), prepare=one_from_the_end, bail_out=True)
    assert b.unit("D1").destroyed_turn is None


@pytest.mark.parametrize(("level", "skills", "bails"), [
    ("Veteran", (), True), ("Green", ("Agility",), True), ("Green", (), False)])
def test_bail_out_the_bot_saves_a_pilot_worth_keeping_R6_12(
        level: str, skills: tuple[str, ...], bails: bool) -> None:
    """The bot bails out of a Mek one Hit from destruction facing armed enemies when its
    pilot is above Green or has a skill."""
    b = exchange(gun("Cannon"), post(level=level, skills=skills),
                 VETERAN_HIT if level == "Veteran" else ONE_HIT,
                 defender_ctl=Bot(), attacker_ctl=Scripted(), prepare=one_from_the_end,
                 bail_out=True)
    assert b.unit("D1").bailed is bails


def test_bail_out_the_bot_bails_after_a_reactor_critical_when_half_gone_R6_12() -> None:
    def half_gone(b: Battle) -> None:
        target = b.unit("D1")
        target.hits = target.max_hits - target.max_hits // 2 - 1  # one more: half gone

    b = exchange(gun("Cannon"), post(), [*INIT, *TIE, 4, 1, 6, 4, 5],
                 defender_ctl=Bot(), attacker_ctl=Scripted(), prepare=half_gone,
                 bail_out=True)
    assert b.unit("D1").reactor_scare and b.unit("D1").bailed


def test_bail_out_a_recorded_decision_replays_the_same_battle_R6_12() -> None:
    """The decision is recorded (as a play keeps it) and replays to the same log."""
    decisions: list[dict[str, Any]] = []
    first = exchange(gun("Cannon"), post(level="Veteran"), VETERAN_HIT,
                     defender_ctl=Recorded(Bot(), decisions), attacker_ctl=Scripted(),
                     prepare=one_from_the_end, bail_out=True)
    assert {"ask": "bail_out", "turn": 1, "value": True} in decisions
    again = exchange(gun("Cannon"), post(level="Veteran"), VETERAN_HIT,
                     defender_ctl=Recorded(Baseline(), list(decisions)),
                     attacker_ctl=Scripted(), prepare=one_from_the_end, bail_out=True)
    assert digest(again.log) == digest(first.log) and again.unit("D1").bailed
