"""The bot works out a group's strength once while nothing changes, and shares it across its
units' decisions (issue 29): ``Judge.power`` and ``Judge.ratio`` are remembered until
anything happens, ``power`` and ``guns`` for the battle, keyed on what they read. These tests
count the work, check that a change in the situation is seen, and that a remembered value is
always the one a judge that remembers nothing works out now, from the side's own view."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pytest

from meks.engine.bot.choices import Difficulty
from meks.engine.bot.evaluation import Judge
from meks.engine.bot.policy import Bot
from meks.engine.controllers import Order
from meks.engine.core import Battle, RangeChoice
from meks.engine.units import ForceSpec, Unit
from meks.engine.values import UnitView
from meks.game.catalog import Band
from meks.game.dice import Dice
from meks.game.vocabulary import Side
from tests.engine_helpers import CATALOG, map_scenario, mek
from tests.test_bot import checked_fights

if TYPE_CHECKING:
    from meks.engine.view import SideView


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times a group's strength (``Judge._power``) and a unit's firing odds
    (``Judge._guns_of``) were worked out rather than remembered."""
    counts = {"power": 0, "guns": 0}
    power, guns = Judge._power, Judge._guns_of

    def counted_power(self: Judge, *args: object) -> float:
        counts["power"] += 1
        return power(self, *args)  # type: ignore[arg-type]

    def counted_guns(self: Judge, *args: object) -> object:
        counts["guns"] += 1
        return guns(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Judge, "_power", counted_power)
    monkeypatch.setattr(Judge, "_guns_of", counted_guns)
    return counts


def _zone_fight() -> tuple[Battle, Bot]:
    scenario = map_scenario((5,), (5,), terrain={5: "Woods"})
    sides = {Side.ATTACKER: ForceSpec((mek("THOR"), mek("SAGITARII"))),
             Side.DEFENDER: ForceSpec((mek("DRAKEN"), mek("WASP")))}
    bot = Bot()
    battle = Battle(scenario, sides, Dice.from_seed(1), {side: bot for side in Side}, CATALOG)
    battle.setup()
    battle.turn = 2
    return battle, bot


def test_a_zones_strength_is_worked_out_once_while_nothing_changes(
        counted: dict[str, int]) -> None:
    battle, bot = _zone_fight()
    view = battle.views[Side.ATTACKER]
    thor = battle.side_units(Side.ATTACKER)[0]
    draken = battle.side_units(Side.DEFENDER)[0]

    def groups() -> tuple[list[UnitView], list[UnitView]]:
        # A new value of every unit each time, as each question of the engine hands out.
        return view.side_units(Side.ATTACKER), view.side_units(Side.DEFENDER)

    def something_happens() -> None:
        battle.log.append(battle.log[-1])

    mine, theirs = groups()
    first = bot.judge.ratio(view, mine, theirs)
    assert counted["power"] == 2  # ours on theirs, theirs on ours
    # Every later decision while nothing happens (each with values of its own) shares them:
    # the ratio, the strength at any band asked before, the turns a fight takes.
    for _ in range(3):
        mine, theirs = groups()
        assert bot.judge.ratio(view, mine, theirs) == first
        bot.judge.power(view, mine, theirs)
        bot.judge.fight_turns(view, mine, theirs)
    assert counted["power"] == 2
    # Something happens elsewhere: nothing the estimate reads has changed, so it is kept.
    something_happens()
    mine, theirs = groups()
    assert bot.judge.ratio(view, mine, theirs) == first
    assert counted["power"] == 2
    # The situation changes: each change is seen, and the value is the one worked out afresh.
    changes: list[tuple[Callable[[], object], int]] = [
        (lambda: setattr(thor, "heat", 3), 1),  # our strength only
        (lambda: setattr(draken.weapons[0], "destroyed", True), 1),  # theirs only
        # out of the woods, easier to hit (its own fire is the same)
        (lambda: setattr(draken, "zone", 4), 1),
        (lambda: setattr(draken, "zone", 6), 0),  # from open ground to open ground: the same
    ]
    for change, worked_out in changes:
        before = counted["power"]
        change()
        something_happens()
        mine, theirs = groups()
        assert bot.judge.ratio(view, mine, theirs) == Judge().ratio(view, mine, theirs)
        assert counted["power"] - before == worked_out + 2  # (+2: the fresh judge's)
    # Damage is read at once (the ratio weighs the Hits left), the group's fire is not
    # worked out again for it.
    before_hits = bot.judge.ratio(view, mine, theirs)
    before = counted["power"]
    thor.hits += 2
    something_happens()
    mine, theirs = groups()
    assert bot.judge.ratio(view, mine, theirs) < before_hits
    assert counted["power"] == before


def test_a_units_firing_odds_name_the_values_of_the_question(counted: dict[str, int]) -> None:
    """Remembered from an earlier question, the odds of a unit's weapons are handed back with
    this question's weapons and targets (the engine reads the plan from them)."""
    battle, bot = _zone_fight()
    view = battle.views[Side.ATTACKER]
    plans = []
    for _ in range(2):
        view.asking()
        thor, _ = view.side_units(Side.ATTACKER)
        targets = view.side_units(Side.DEFENDER)
        value, plan, hits = bot.judge.plan(view, thor, targets, Band.MEDIUM)
        assert plan and all(any(slot is w for w in thor.weapons) and any(
            t is target for t in targets) for slot, target in plan)
        assert (value, hits) == Judge().plan(view, thor, targets, Band.MEDIUM)[::2]
        plans.append([(slot.weapon.name, target.id) for slot, target in plan])
        view.answered()
        battle.log.append(battle.log[-1])
    assert plans[0] == plans[1]
    assert counted["guns"] == 1 + 2  # once for the bot, once for each fresh judge


class Sharing(Bot):
    """The bot, checking at each decision that every group strength and firing odds its
    judge shares (remembered while nothing happens, or for the battle) is the one a judge
    that remembers nothing works out now, from the same view."""

    def __init__(self) -> None:
        super().__init__()
        self.checked = 0

    def _check(self, battle: SideView, side: Side) -> None:
        self._know(battle)
        mine = [u for u in battle.side_units(side) if u.on_map]
        theirs = [u for u in battle.side_units(side.enemy) if u.on_map]
        groups: list[tuple[Sequence[UnitView], Sequence[UnitView]]] = [
            (mine, theirs), (theirs, mine)]
        for zone in {u.zone for u in mine if u.zone}:
            groups.append((battle.in_zone(zone, side), battle.enemies_in(zone, side)))
        for ours, foes in groups:
            afresh = Judge()
            assert self.judge.ratio(battle, ours, foes) == afresh.ratio(battle, ours, foes)
            for band in (None, *Band):
                assert self.judge.power(battle, ours, foes, band) == \
                    afresh.power(battle, ours, foes, band)
            for unit in ours:
                band = battle.band_of(unit.zone or 5)
                assert self.judge.plan(battle, unit, foes, band) == \
                    afresh.plan(battle, unit, foes, band)
            self.checked += 1

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        self._check(battle, side)
        return super().movement(battle, side)

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        self._check(battle, side)
        return super().range_choice(battle, zone, side, options)

    def targets(self, battle: SideView, unit: Unit, candidates: list[Unit],
                limit: int) -> list[Unit]:
        self._check(battle, unit.side)
        return super().targets(battle, unit, candidates, limit)


def test_what_the_bot_shares_is_always_what_it_would_work_out_afresh() -> None:
    """Battles with every support asset (hidden Meks, decoys, infantry, marks, Digging In)
    and a Phalanx in a wooded zone: at every decision, each shared value is the one worked
    out afresh from the side's view (so nothing of what the side may not know gets in)."""
    assert checked_fights(Sharing, Difficulty.NORMAL) > 100
