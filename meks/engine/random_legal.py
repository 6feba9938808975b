"""A controller that answers every decision at random among its legal answers (issue 26).

``RandomLegal`` takes each decision's legal options as the question hands them in or the
side's view lists them (``SideView.move_options``, ``deploy_options``, ``setup_options``,
``support_options``, ``ambush_options``, ``fire_options``, ``yes_no_options`` ...) and picks
one, each equally likely, with dice of its own (``meks.game.dice.Dice``, from a seed): so it can
fight every scenario and every house rule, and a battle it fights is the same again from the
battle's seed and its own. It is a fuzzer, not a player: it is for tests that hold the engine
to its rules (no crash, every battle ends, every replay matches).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from meks.engine.controllers import Baseline, Order
from meks.engine.decisions import RangeChoice, Retreat
from meks.engine.values import SlotView, UnitView
from meks.engine.view import SideView
from meks.game.catalog import Band, Weapon
from meks.game.dice import Dice
from meks.game.vocabulary import Side

T = TypeVar("T")
# When each support asset used during the battle may be offered (as the terminal offers it).
MOMENTS = {"turn start": ("Repair Truck",),
           "combat": ("Recon Drone", "Support Fire", "Air Strike")}
SET_UP_TRIES = 20  # random set-ups tried before the baseline's (always legal) is taken


class RandomLegal:
    """Every decision answered uniformly at random from its legal answers."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.dice = Dice.from_seed(seed)

    # ---- the dice -------------------------------------------------------------------------

    def index(self, count: int, what: str) -> int:
        """A number from 0 to ``count - 1``, each equally likely (dice rolled until their
        base-6 number falls in a whole multiple of ``count``)."""
        if count <= 1:
            return 0
        span = 1
        while span < count:
            span *= 6
        limit = span - span % count
        while True:
            value = 0
            size = 1
            while size < span:
                value = value * 6 + self.dice.d6(what) - 1
                size *= 6
            if value < limit:
                return value % count

    def pick(self, options: Sequence[T], what: str) -> T:
        return options[self.index(len(options), what)]

    def coin(self, what: str) -> bool:
        return self.pick(SideView.yes_no_options(), what)

    # ---- set-up ----------------------------------------------------------------------------

    def deploy(self, battle: SideView, side: Side, units: Sequence[UnitView]) -> dict[str, int]:
        for _ in range(SET_UP_TRIES):
            placement = {u.id: self.pick(battle.deploy_options(u), "set-up zone")
                         for u in units}
            if not battle.setup_problems(placement):
                return placement
        return Baseline().deploy(battle, side, units)

    def setup_support(self, battle: SideView, side: Side, asset: str) -> int | str | None:
        return self.pick(battle.setup_options(asset), f"set-up {asset}")

    # ---- movement --------------------------------------------------------------------------

    def move_first(self, battle: SideView, side: Side) -> bool:
        return self.coin("move first")

    def _orders(self, battle: SideView, side: Side, second: bool) -> dict[str, Order]:
        orders: dict[str, Order] = {}
        for unit in battle.side_units(side):
            options = battle.move_options(unit, second)
            if "dig" in orders.values():  # one Digging In for the side
                options = [o for o in options if o != "dig"]
            if len(options) > 1:
                choice = self.pick(options, "move")
                if choice is not None:
                    orders[unit.id] = choice
        return orders

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        return self._orders(battle, side, False)

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        return self._orders(battle, side, True)

    def arrival_zone(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        return self.pick(zones, "arrival zone")

    def jump(self, battle: SideView, unit: UnitView) -> bool:
        return self.coin("jump")

    # ---- combat ----------------------------------------------------------------------------

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        return self.pick(options, "range")

    def withdraw(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        return self.pick(zones, "withdraw into")

    def targets(self, battle: SideView, unit: UnitView, candidates: list[UnitView],
                limit: int) -> list[UnitView]:
        left = list(candidates)
        chosen: list[UnitView] = []
        for _ in range(self.index(min(limit, len(left)) + 1, "how many targets")):
            chosen.append(left.pop(self.index(len(left), "target")))
        return chosen

    def fire_plan(self, battle: SideView, unit: UnitView, targets: list[UnitView],
                  band: Band) -> list[tuple[SlotView, UnitView]]:
        plan: list[tuple[SlotView, UnitView]] = []
        while True:
            options: list[tuple[SlotView, UnitView] | None] = [
                None, *battle.fire_options(unit, targets, band, plan)]
            entry = self.pick(options, "fire")
            if entry is None:
                return plan
            plan.append(entry)

    def dodge(self, battle: SideView, unit: UnitView, weapon: Weapon, hits: int) -> bool:
        return self.coin("dodge")

    def support(self, battle: SideView, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        uses: list[tuple[str, object]] = []
        for asset in battle.assets[side]:
            if asset not in MOMENTS.get(moment, ()) or any(a == asset for a, _ in uses):
                continue
            legal = battle.support_options(asset, moment)
            if asset == "Recon Drone" and zone is not None:
                legal = [z for z in legal if z == zone]
            choice = self.pick([None, *legal], f"use {asset}")
            if choice is not None:
                uses.append((asset, choice))
        return uses

    def ambush(self, battle: SideView, side: Side, zone: int) -> str | None:
        return self.pick(battle.ambush_options(zone), "ambush")

    def dismount(self, battle: SideView, apc: UnitView) -> bool:
        return self.coin("dismount")

    def reveal(self, battle: SideView, unit: UnitView) -> bool:
        return self.coin("reveal")

    def commando(self, battle: SideView, unit: UnitView,
                 enemies: list[UnitView]) -> tuple[str, UnitView] | None:
        options: list[tuple[str, UnitView] | None] = [None]
        options += [(what, e) for e in enemies for what in ("identify", "mark")]
        return self.pick(options, "commandos")

    def hawkeye(self, battle: SideView, unit: UnitView,
                candidates: list[UnitView]) -> UnitView | None:
        return self.pick([None, *candidates], "hawkeye")

    def bail_out(self, battle: SideView, unit: UnitView) -> bool:
        return self.coin("bail out")

    def withdrawal(self, battle: SideView, side: Side, options: list[Retreat]) -> Retreat:
        return self.pick(options, "withdrawal")


__all__ = ["RandomLegal"]
