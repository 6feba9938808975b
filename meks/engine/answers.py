"""The legal answers a side may give (the part of ``meks.engine.view.SideView`` that lists
them), and the two facts of the house rules' endings they read.

A controller is handed the options of most questions with the question. For the others
(a move order, a set-up zone, a support asset's target, the Ambush, a fire plan, a yes or
no) it asks its side's view, which lists them here from what the side may know: a
controller answers with one of them, and the engine refuses any other answer with a
``BattleError``. ``LegalAnswers`` is a base of ``SideView`` and reads only what the view
itself shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from meks.engine.decisions import OVERRUN_RATIO, Retreat
from meks.engine.units import Unit
from meks.engine.values import SlotView, UnitView
from meks.game.catalog import Band
from meks.game.scenario import HouseRules, Placed, Scenario
from meks.game.shots import may_fire_again
from meks.game.vocabulary import Edge, Side

Choice = int | str | Edge | None
"""A move order: an adjacent zone, an exit edge, "dig" (Digging In), or None (stay)."""


class Facts(Protocol):
    """What the answers read of the battle itself (``meks.engine.view.Source`` has it all)."""

    scenario: Scenario
    assets: dict[Side, tuple[str, ...]]
    fought_in: dict[int, int]

    def adjacent(self, zone: int) -> list[int]: ...
    def can_leave(self, unit: Unit) -> bool: ...
    def gunnery_left(self, unit: Unit) -> bool: ...
    def in_zone(self, zone: int, side: Side | None = None) -> list[Unit]: ...


class LegalAnswers:
    """The legal answers of the questions whose options a side's view lists."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the view that these are part of provides
        _b: Facts
        side: Side
        enemy: Side
        scenario: Scenario
        house: HouseRules
        known: Mapping[Side, frozenset[str]]
        identified: Mapping[Side, frozenset[str]]
        targeted: Mapping[Side, frozenset[str]]

        def value(self, unit: Unit | UnitView) -> UnitView: ...
        def _real(self, unit: Unit | UnitView) -> Unit: ...
        def side_units(self, side: Side) -> list[UnitView]: ...
        def in_zone(self, zone: int, side: Side | None = None) -> list[UnitView]: ...
        def enemies_in(self, zone: int, side: Side) -> list[UnitView]: ...

    def move_options(self, unit: UnitView | Unit, second: bool = False) -> list[Choice]:
        """Every legal order for one of the side's units in a movement phase: None (stay),
        "dig" (Digging In: one asset, so one unit of the side's orders at most), an
        adjacent zone, an exit edge. Only None when it cannot move."""
        options: list[Choice] = [None]
        b = self._b
        if unit.side is not self.side or not unit.on_map or not unit.mobile or \
                not unit.can_act or unit.zone is None or (unit.moved and not second):
            return options
        if not second and unit.is_mek and "Digging In" in b.assets[self.side]:
            options.append("dig")
        if not b.can_leave(self._real(unit)):
            return options
        for zone in b.adjacent(unit.zone):
            if second and self.enemies_in(zone, self.side):
                continue
            options.append(zone)
        for rule in b.scenario.side(self.side).exits:
            if unit.zone in rule.zones and rule.edge not in options:
                options.append(rule.edge)
        return options

    def deploy_options(self, unit: UnitView | Unit) -> list[int]:
        """The zones one of the side's units may set up in (the scenario's set-up zones); the
        whole placement must also keep the scenario's set-up rules (``setup_problems``)."""
        rules = self.scenario.side(unit.side).setup
        return list(rules.zones) if rules else list(range(1, 10))

    def setup_problems(self, placement: Mapping[str, int]) -> list[str]:
        """What a set-up of the side's units (unit id -> zone) breaks of the scenario's set-up
        rules: nothing when it is legal."""
        rules = self.scenario.side(self.side)
        if rules.setup is None:
            return []
        units = [u for u in self.side_units(self.side) if u.id in placement]
        return rules.setup.problems([Placed(placement[u.id], u.kind, u.points) for u in units],
                                    rules.strongpoints)

    @staticmethod
    def yes_no_options() -> list[bool]:
        """The legal answers of a yes-or-no decision (jump, dodge, dismount, reveal, bail
        out, move first): no and yes."""
        return [False, True]

    def fire_options(self, unit: UnitView | Unit, targets: Sequence[UnitView], band: Band,
                     plan: Sequence[tuple[SlotView, UnitView]] = ()) -> list[
                         tuple[SlotView, UnitView]]:
        """The legal next entries of ``unit``'s fire plan at ``targets`` (R6.5, R6.11), after
        the entries of ``plan``: a working weapon at one of the targets it can fire at at
        this band, each weapon once (a Gunnery pilot's one cannon-family or CIWS weapon
        twice, once a turn). An empty plan, or stopping at any point, is legal too."""
        unit = self.value(unit)
        targets = [self.value(t) for t in targets]
        planned = [s.index for s, _ in plan]
        gunnery = self._b.gunnery_left(self._real(unit)) and not any(
            planned.count(slot.index) + slot.fired >= 2 for slot in unit.weapons)
        options: list[tuple[SlotView, UnitView]] = []
        for slot in unit.live_weapons():
            times = slot.fired + planned.count(slot.index)
            if times >= 1 and not may_fire_again(slot.weapon, times, gunnery):
                continue
            weapon = slot.weapon
            for target in targets:
                if weapon.is_small:
                    if not (target.is_infantry and band is Band.SHORT):
                        continue
                elif weapon.needs[band] is None:
                    continue
                options.append((slot, target))
        return options

    def setup_options(self, asset: str) -> list[int | str | None]:
        """The legal answers for a support asset placed at set-up: a zone (Minefield, Decoy),
        one of the side's Meks (Hidden Mek), an enemy Mek (Battle Damage); None leaves it
        unused."""
        options: list[int | str | None] = [None]
        if asset in ("Minefield", "Decoy"):
            options += list(range(1, 10))
        elif asset == "Hidden Mek":
            options += [u.id for u in self.side_units(self.side)
                        if u.is_mek and not u.decoy and u.on_map]
        elif asset == "Battle Damage":
            options += [u.id for u in self.side_units(self.enemy) if u.is_mek and u.alive]
        return options

    def support_options(self, asset: str, moment: str = "combat") -> list[object]:
        """The legal choices for using one of the side's support assets at ``moment`` ("turn
        start" or "combat", R4.3): a Mek of its own to repair, a zone for the Recon Drone, an
        enemy unit the side has targeted or ID'd for Support Fire (in a combat only), one it
        has targeted for an Air Strike. Empty when the side does not have the asset, or it is
        not one used this way now."""
        if asset not in self._b.assets[self.side]:
            return []
        if asset == "Repair Truck":
            return [u.id for u in self.side_units(self.side) if u.alive and not u.doomed
                    and u.is_mek and not u.decoy]
        if asset == "Recon Drone":
            return list(range(1, 10))
        if asset == "Support Fire" and moment == "combat":
            known = self.known[self.side] | self.identified[self.side]
        elif asset == "Air Strike":
            known = self.targeted[self.side]
        else:
            return []
        return [u.id for u in self.side_units(self.enemy) if u.id in known and u.on_map
                and not u.hidden]

    def ambush_options(self, zone: int) -> list[str | None]:
        """The Meks that may make the Ambush attack in ``zone`` (None: wait)."""
        if "Ambush" not in self._b.assets[self.side]:
            return [None]
        return [None, *(u.id for u in self.in_zone(zone, self.side) if u.is_mek
                        and not u.decoy and u.can_act and not u.fought)]

    def bail_out_options(self, zone: int) -> list[str]:
        """The side's Meks in ``zone`` whose pilots may bail out as its combat ends (house
        rule bail_out, R6.12): a Mek still in the battle, not doomed, with a pilot, one Hit
        from destruction or with a reactor that took a critical. Empty when the rule is
        off."""
        if not self.house.bail_out:
            return []
        return [u.id for u in self._b.in_zone(zone, self.side) if in_danger(u)]

    def withdrawal_options(self) -> list[Retreat]:
        """What the side may do as a turn ends (house rule withdrawal, R6.13): fight on,
        withdraw, and overrun when it clearly wins (the Hits its units have left, Meks and
        vehicles on the map, at least ``OVERRUN_RATIO`` times the enemy's that it can see)
        once the sides have met (a zone combat has been fought). Only fighting on when the
        rule is off."""
        if not self.house.withdrawal:
            return [Retreat.FIGHT]
        options = [Retreat.FIGHT, Retreat.WITHDRAW]
        if not self._b.fought_in:  # the sides have not met: no overrun yet
            return options
        ours = strength(self.side_units(self.side))
        theirs = strength(self.side_units(self.enemy))
        if ours and ours >= OVERRUN_RATIO * theirs:
            options.append(Retreat.OVERRUN)
        return options



def in_danger(unit: UnitView | Unit) -> bool:
    """R6.12: a Mek whose pilot may bail out: still in the battle and not doomed, with a
    living pilot, and one Hit from destruction or with a reactor that took a critical."""
    return (unit.is_mek and not unit.decoy and unit.pilot is not None and not unit.pilot.dead
            and unit.on_map and not unit.doomed
            and (unit.remaining <= 1 or unit.reactor_scare))


def strength(units: Iterable[UnitView | Unit]) -> int:
    """R6.13: the Hits left to the units among ``units`` that count for an overrun: Meks and
    vehicles on the map (not those still to arrive), decoys left out."""
    return sum(u.remaining for u in units if u.on_map and not u.decoy and not u.is_infantry
               and (u.is_mek or u.vehicle))


__all__ = ["Choice", "LegalAnswers", "in_danger", "strength"]
