"""How the engine asks a controller: through its side's view, with values (issue 26).

``Asking`` stands between the engine and one side's controller. Before each question it
tells the side's view that a question begins (the view then hands out one value per unit for
the whole question, see ``meks.engine.values``), hands the controller values in place of the
engine's units and weapon slots, and turns the values in the answer back into the engine's
own objects: the very unit offered, the weapon at the slot's ``index``. Anything else in an
answer is passed on as it is, for the engine to refuse. A controller never holds an engine
object, so it cannot change the battle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from meks.engine.units import Unit, WeaponSlot
from meks.engine.values import SlotView, UnitView

if TYPE_CHECKING:
    from meks.engine.controllers import Controller, Order
    from meks.engine.decisions import RangeChoice, Retreat
    from meks.engine.view import SideView
    from meks.game.catalog import Band, Weapon
    from meks.game.vocabulary import Side


def _back(answer: object, values: list[UnitView], units: Sequence[Unit]) -> Any:
    """The unit of ``units`` whose value ``answer`` is (by identity), else ``answer``."""
    for i, v in enumerate(values):
        if v is answer:
            return units[i]
    return answer


class Asking:
    """One side's controller, asked with values (see the module docstring)."""

    __slots__ = ("inner",)

    def __init__(self, inner: Controller) -> None:
        self.inner = inner

    # ---- questions without units --------------------------------------------------------

    def setup_support(self, view: SideView, side: Side, asset: str) -> int | str | None:
        view.asking()
        try:
            return self.inner.setup_support(view, side, asset)
        finally:
            view.answered()

    def move_first(self, view: SideView, side: Side) -> bool:
        view.asking()
        try:
            return self.inner.move_first(view, side)
        finally:
            view.answered()

    def movement(self, view: SideView, side: Side) -> dict[str, Order]:
        view.asking()
        try:
            return self.inner.movement(view, side)
        finally:
            view.answered()

    def second_move(self, view: SideView, side: Side) -> dict[str, Order]:
        view.asking()
        try:
            return self.inner.second_move(view, side)
        finally:
            view.answered()

    def range_choice(self, view: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        view.asking()
        try:
            return self.inner.range_choice(view, zone, side, options)
        finally:
            view.answered()

    def support(self, view: SideView, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        view.asking()
        try:
            return self.inner.support(view, side, moment, zone)
        finally:
            view.answered()

    def ambush(self, view: SideView, side: Side, zone: int) -> str | None:
        view.asking()
        try:
            return self.inner.ambush(view, side, zone)
        finally:
            view.answered()

    def withdrawal(self, view: SideView, side: Side, options: list[Retreat]) -> Retreat:
        view.asking()
        try:
            return self.inner.withdrawal(view, side, options)
        finally:
            view.answered()

    # ---- questions about one unit ---------------------------------------------------------

    def deploy(self, view: SideView, side: Side, units: Sequence[Unit]) -> dict[str, int]:
        view.asking()
        try:
            return self.inner.deploy(view, side, [view.value(u) for u in units])
        finally:
            view.answered()

    def arrival_zone(self, view: SideView, unit: Unit, zones: list[int]) -> int:
        view.asking()
        try:
            return self.inner.arrival_zone(view, view.value(unit), zones)
        finally:
            view.answered()

    def jump(self, view: SideView, unit: Unit) -> bool:
        view.asking()
        try:
            return self.inner.jump(view, view.value(unit))
        finally:
            view.answered()

    def withdraw(self, view: SideView, unit: Unit, zones: list[int]) -> int:
        view.asking()
        try:
            return self.inner.withdraw(view, view.value(unit), zones)
        finally:
            view.answered()

    def dodge(self, view: SideView, unit: Unit, weapon: Weapon, hits: int) -> bool:
        view.asking()
        try:
            return self.inner.dodge(view, view.value(unit), weapon, hits)
        finally:
            view.answered()

    def dismount(self, view: SideView, apc: Unit) -> bool:
        view.asking()
        try:
            return self.inner.dismount(view, view.value(apc))
        finally:
            view.answered()

    def reveal(self, view: SideView, unit: Unit) -> bool:
        view.asking()
        try:
            return self.inner.reveal(view, view.value(unit))
        finally:
            view.answered()

    def bail_out(self, view: SideView, unit: Unit) -> bool:
        view.asking()
        try:
            return self.inner.bail_out(view, view.value(unit))
        finally:
            view.answered()

    # ---- questions answered with units ------------------------------------------------------

    def targets(self, view: SideView, unit: Unit, candidates: list[Unit],
                limit: int) -> list[Unit]:
        view.asking()
        try:
            values = [view.value(u) for u in candidates]
            answer: Any = self.inner.targets(view, view.value(unit), values, limit)
            if type(answer) is list:
                return [_back(a, values, candidates) for a in answer]
            return answer  # type: ignore[no-any-return]
        finally:
            view.answered()

    def fire_plan(self, view: SideView, unit: Unit, targets: list[Unit],
                  band: Band) -> list[tuple[WeaponSlot, Unit]]:
        view.asking()
        try:
            values = [view.value(u) for u in targets]
            plan: Any = self.inner.fire_plan(view, view.value(unit), values, band)
            if not isinstance(plan, list | tuple):
                return plan  # type: ignore[no-any-return]
            weapons = unit.weapons
            out: list[Any] = []
            for entry in plan:
                if isinstance(entry, tuple) and len(entry) == 2:
                    slot, target = entry
                    if isinstance(slot, SlotView) and 0 <= slot.index < len(weapons) and \
                            weapons[slot.index].weapon is slot.weapon:
                        slot = weapons[slot.index]
                    entry = (slot, _back(target, values, targets))
                out.append(entry)
            return out
        finally:
            view.answered()

    def commando(self, view: SideView, unit: Unit,
                 enemies: list[Unit]) -> tuple[str, Unit] | None:
        view.asking()
        try:
            values = [view.value(u) for u in enemies]
            action: Any = self.inner.commando(view, view.value(unit), values)
            if isinstance(action, tuple) and len(action) == 2:
                return (action[0], _back(action[1], values, enemies))
            return action  # type: ignore[no-any-return]
        finally:
            view.answered()

    def hawkeye(self, view: SideView, unit: Unit, candidates: list[Unit]) -> Unit | None:
        view.asking()
        try:
            values = [view.value(u) for u in candidates]
            chosen: Unit | None = _back(self.inner.hawkeye(view, view.value(unit), values),
                                        values, candidates)
            return chosen
        finally:
            view.answered()


__all__ = ["Asking"]
