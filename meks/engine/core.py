"""The battle engine: a scenario fought turn by turn on the 3x3 map (docs/rules.md §5-§7).

The engine never rolls by itself and never decides by itself: every die comes from the
``Dice`` it is given, every choice from the side's ``Controller``. Everything that happens
is appended to ``log`` as an ``Event``; the same scenario, forces, dice and decisions give
the same log.

``Battle`` runs a turn's steps in order (R5.1): the start of the turn, initiative, each
side's movement and the zone combats it brings, the second movement, the end of the turn.
Each step of the rules is a function named after it, in the module of its concern, taking
the battle as ``b``:

- ``board``: the battle's state and the helpers every step uses (the log, dice, zones);
- ``deployment``: set-up, deployment and the support placed before the first turn;
- ``movement``: the movement phases, minefields, arrivals, movement rolls and the range step;
- ``combat``: the zone combats, round by round, exchange by exchange, and their end;
- ``detection``: detection, identification, decoys and the choice of targets;
- ``fire``: fire plans, to-hit rolls and dodging;
- ``damage``: armor saves, Hits, criticals, heat and destruction;
- ``infantry``: kills rolls, infantry attacks, morale and dismounting;
- ``support``: the support assets used in play, and the Ambush;
- ``ending``: the end of the turn, the verdict, withdrawing or overrunning.

The steps that callers and tests use on their own (``shoot``, ``to_hit``, ``movement_roll``
...) are also ``Battle`` methods, each handing over to its module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from meks.engine import (
    REVISION,
    combat,
    damage,
    deployment,
    detection,
    ending,
    fire,
    infantry,
    movement,
    support,
)
from meks.engine.board import ATTACKER, DEFENDER, NONE, SIDE_WORDS, Board, Engagement
from meks.engine.decisions import BANDS, BattleError, RangeChoice, Retreat
from meks.engine.fire import Shot
from meks.engine.log import Kind
from meks.engine.units import ForceSpec, Unit
from meks.engine.view import SideView
from meks.game.catalog import Band, Catalog, Weapon
from meks.game.criticals import CriticalCheck
from meks.game.dice import Dice
from meks.game.rules import MovementRoll, initiative
from meks.game.scenario import Scenario
from meks.game.shots import KillsRoll, ToHit
from meks.game.victory import BattleState, Outcome
from meks.game.vocabulary import SIDES, Edge, Side, UnitKind

if TYPE_CHECKING:
    from meks.engine.controllers import Controller


@dataclass
class Result:
    winner: Side | None
    outcome: Outcome
    reason: str
    turns: int
    units: list[Unit]
    # The side that ended the battle by withdrawing or overrunning, and which (R6.13).
    early: tuple[Side, Retreat] | None = None


def _turn_words(turn: int) -> str:
    return f"Turn {turn}"


def _initiative_words(side: str, roll: int, bonus: int, total: int) -> str:
    return f"{side} initiative {roll}" + (f"+{bonus}" if bonus else "") + f" = {total}"


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and callers extend it
class Battle(Board):
    """One battle. Build it, then call ``run()``; or ``setup()`` and ``play_turn()``."""

    def __init__(self, scenario: Scenario, forces: dict[Side, ForceSpec], dice: Dice,
                 controllers: dict[Side, Controller], catalog: Catalog | None = None,
                 revision: int = REVISION) -> None:
        super().__init__(scenario, forces, dice, controllers, catalog, revision)
        self.sight.views = (SideView(self, ATTACKER), SideView(self, DEFENDER))

    @property
    def views(self) -> dict[Side, SideView]:
        """Each side's view of the battle (what its controller is given)."""
        views = self.sight.views
        if not views:
            views = self.sight.views = (SideView(self, ATTACKER), SideView(self, DEFENDER))
        return {ATTACKER: views[0], DEFENDER: views[1]}

    # ---- the turn ----------------------------------------------------------------------------

    def run(self) -> Result:
        self.setup()
        while self.verdict is None or not self.verdict.decided:
            self.play_turn()
        # A finished battle lets go of its sides' views (``views`` makes new ones if asked):
        # in the compiled engine a view holds its battle strongly, as a compiled class takes
        # no weak reference, and the cycle would keep every finished battle alive until the
        # cyclic collector came round, which cost the compiled engine a seventh of its time.
        self.sight.views = ()
        return self.result()

    def result(self) -> Result:
        verdict = self.verdict
        assert verdict is not None
        winner = {Outcome.ATTACKER_WINS: Side.ATTACKER,
                  Outcome.DEFENDER_WINS: Side.DEFENDER}.get(verdict.outcome)
        return Result(winner, verdict.outcome, verdict.reason, self.turn, self.units,
                      self.early)

    def play_turn(self) -> None:
        self.turn += 1
        self.note(Kind.TURN, (_turn_words, self.turn))
        self.start_turn()
        first, second = self.initiative()
        movement.movement_phase(self, first)
        combat.combat_step(self)
        movement.movement_phase(self, second)
        combat.combat_step(self)
        movement.second_movement(self, self.initiative_winner or first)
        self.end_turn()

    def start_turn(self) -> None:
        self.marked = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        self.identified = {Side.ATTACKER: NONE, Side.DEFENDER: NONE}
        for unit in self.units:
            if unit.destroyed_turn is not None or unit.exited_turn is not None:  # not alive
                continue
            unit.heat, unit.carried_heat = unit.carried_heat, 0
            unit.ice_man_used = False
            if unit.heat and unit.skill("Ice Man"):
                unit.ice_man_used = True
                self.note(Kind.NOTE, f"{unit.name}'s pilot shrugs off the second-move heat "
                          "(Ice Man).", unit)
                unit.heat = 0
            unit.turn_skills = set()
            unit.dodged = False
            unit.moved = False
            unit.move_roll = 0
            for slot in unit.weapons:
                slot.fired = 0
            unit.can_act = True
            if unit.wounded and unit.on_map:
                damage.wounded_roll(self, unit)
        for face in self.sight.covers.values():  # decoys' faces (R8.1)
            face.turn_skills = set()
        if any(self.assets.values()):  # (with no assets left, there is nothing to use)
            for side in SIDES:
                support.use_support(self, side, "turn start", None)

    def initiative(self) -> tuple[Side, Side]:
        """R5.3: one die each, +2 with Tactics, +3 on the first roll with Surprise; ties
        roll again. The winner chooses to move first or second."""
        first_roll = True
        while True:
            a = d = 0
            for side, name, title in SIDE_WORDS:
                check = initiative(
                    any(u.side is side and u.on_map for u in self.carrying("Tactics", skill=True)),
                    self.surprise_pending.get(side, 0) if first_roll else 0)
                roll, total = check.roll(self, f"{name} initiative")
                bonus = check.modifier
                if side is ATTACKER:
                    a = total
                else:
                    d = total
                self.note(Kind.INITIATIVE, (_initiative_words, title, roll, bonus, total),
                          value=total)
            if first_roll:
                self.surprise_pending.clear()
            first_roll = False
            if a != d:
                break
        winner, loser = (ATTACKER, DEFENDER) if a > d else (DEFENDER, ATTACKER)
        self.initiative_winner = winner
        view = self.sight.views[winner is DEFENDER]
        goes_first = self.asked[winner].move_first(view, winner)
        if not isinstance(goes_first, bool):
            raise self.refuse(winner, "move_first", goes_first)
        self.decided(winner, "move first" if goes_first else "move second")
        self.first_mover = winner if goes_first else loser
        self.first_mover_turn = self.turn
        return (winner, loser) if goes_first else (loser, winner)

    # ---- steps used on their own (each hands over to its module) ---------------------------

    def setup(self) -> None:
        deployment.setup(self)

    def end_turn(self) -> None:
        ending.end_turn(self)

    def view(self) -> BattleState:
        return ending.view(self)

    def combat_step(self) -> None:
        combat.combat_step(self)

    def can_leave(self, unit: Unit) -> bool:
        return movement.can_leave(self, unit)

    def order_move(self, unit: Unit, where: int | Edge | str | None, second: bool) -> bool:
        return movement.order_move(self, unit, where, second)

    def movement_roll(self, unit: Unit) -> int:
        return movement.movement_roll(self, unit)

    def describe_movement_roll(self, unit: Unit, jump: bool = False,
                               has: Callable[[str], bool] | None = None,
                               ignore_terrain: bool = False) -> MovementRoll:
        return movement.describe_movement_roll(self, unit, jump, has, ignore_terrain)

    def movement_modifiers(self, unit: Unit, ignore_terrain: bool) -> list[tuple[int, str]]:
        return movement.movement_modifiers(self, unit, ignore_terrain)

    def identifies(self, unit: Unit, enemy: Unit, band: Band, adjacent: bool = False) -> bool:
        return detection.identifies(self, unit, enemy, band, adjacent)

    def detect_masked(self, unit: Unit, enemy: Unit, band: Band) -> bool:
        return detection.detect_masked(self, unit, enemy, band)

    def to_hit(self, shot: Shot, single: bool) -> ToHit:
        return fire.to_hit(self, shot, single)

    def shot_to_hit(self, unit: Unit | None, weapon: Weapon, target: Unit, band: Band,
                    gunnery: bool = False, single: bool = True, **spent: bool) -> ToHit:
        return fire.shot_to_hit(self, unit, weapon, target, band, gunnery, single, **spent)

    def modifiers(self, shot: Shot, single: bool) -> tuple[int, list[str]]:
        return fire.modifiers(self, shot, single)

    def shoot(self, shot: Shot, single: bool = True) -> int:
        return fire.shoot(self, shot, single)

    @staticmethod
    def gunnery_left(unit: Unit) -> bool:
        return fire.gunnery_left(unit)

    def critical_check(self, target: Unit, by: Unit | None, weapon: Weapon | None) -> None:
        damage.critical_check(self, target, by, weapon)

    def describe_critical_check(self, target: Unit, by: Unit | None,
                                weapon: Weapon | None) -> CriticalCheck:
        return damage.describe_critical_check(self, target, by, weapon)

    def describe_kills_roll(self, weapon: Weapon, target: Unit,
                            gunnery: bool = False) -> KillsRoll:
        return infantry.describe_kills_roll(self, weapon, target, gunnery)


__all__ = ["BANDS", "Battle", "BattleError", "Engagement", "RangeChoice", "Result", "Shot",
           "UnitKind"]
