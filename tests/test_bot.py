"""The bot controller (meks.engine.bot): legal set-ups, legal orders, the muster and skill
choices between games, determinism, and (slow) that it beats the baseline controller."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from campaigns.files.scenarios import get_scenario
from meks.engine.bot.choices import Difficulty, choose_skill, muster
from meks.engine.bot.intent import read_intent
from meks.engine.bot.policy import Bot
from meks.engine.controllers import Baseline, Controller, Order
from meks.engine.core import Battle, RangeChoice
from meks.engine.log import Kind, digest
from meks.engine.units import ForceSpec, PilotSpec, Unit, UnitSpec, WeaponSlot
from meks.game.catalog import Band, Design, Size, Weapon
from meks.game.construction import Pricing, check_design
from meks.game.dice import Dice
from meks.game.scenario import Scenario
from meks.game.vocabulary import Edge, Side
from tests.engine_helpers import CATALOG, duel_scenario, mek

if TYPE_CHECKING:
    from meks.engine.view import SideView

SCENARIOS = ("opening-shots", "at-the-hot-gates", "buying-us-some-time", "through-the-breach",
             "head-to-head", "citadel")
SUPPORT = ("Ambush", "Battle Damage", "Support Fire", "Air Strike", "Minefield", "Hidden Mek",
           "Decoy", "Recon Drone", "Repair Truck", "Digging In", "Gun Sled", "Commandos",
           "Mechanized Infantry", "Gunship")


def price(design: Design) -> int:
    return check_design(design, CATALOG).purchase_price(Pricing.PRINTED)


def side_force(scenario: Scenario, side: Side, difficulty: Difficulty = Difficulty.NORMAL,
               support: Sequence[str] = ()) -> ForceSpec:
    rules = scenario.side(side)
    designs = muster(rules.budget, rules.max_size, rules.composition, CATALOG, difficulty)
    units = tuple(UnitSpec(f"{side.value[0]}{i} {d.name}", d,
                           PilotSpec(f"pilot {i}", "Regular"), points=price(d))
                  for i, d in enumerate(designs))
    return ForceSpec(units, tuple(support))


def forces(scenario: Scenario, difficulty: Difficulty = Difficulty.NORMAL,
           support: Mapping[Side, Sequence[str]] | None = None) -> dict[Side, ForceSpec]:
    support = support or {}
    return {side: side_force(scenario, side, difficulty, support.get(side, ()))
            for side in Side}


# ---- a bot whose every answer is checked against the rules as it is given ----------------

class Checked(Bot):
    """The bot, with each decision checked for legality when the engine asks for it."""

    def __init__(self) -> None:
        super().__init__()
        self.orders = 0

    def movement(self, battle: Battle, side: Side) -> dict[str, Order]:
        orders = super().movement(battle, side)
        self._check_orders(battle, side, orders, second=False)
        return orders

    def second_move(self, battle: Battle, side: Side) -> dict[str, Order]:
        orders = super().second_move(battle, side)
        self._check_orders(battle, side, orders, second=True)
        return orders

    def _check_orders(self, battle: Battle, side: Side, orders: dict[str, Order],
                      second: bool) -> None:
        for uid, where in orders.items():
            unit = battle.unit(uid)
            assert unit.side is side and unit.on_map and unit.mobile and unit.can_act, unit
            # (a second move is ordered for units that moved: the engine lets them again)
            assert second or not unit.moved, f"{unit.name} has moved already"
            assert unit.zone is not None
            if where == "dig":
                assert not second and unit.is_mek and "Digging In" in battle.assets[side]
                self.orders += 1
                continue
            assert battle.can_leave(unit), f"{unit.name} may not leave zone {unit.zone}"
            if isinstance(where, Edge):
                allowed = {z for r in battle.scenario.side(side).exits if r.edge is where
                           for z in r.zones}
                assert unit.zone in allowed, f"{unit.name} cannot exit from {unit.zone}"
            else:
                assert isinstance(where, int) and where in battle.adjacent(unit.zone), \
                    f"{unit.name}: zone {where} is not next to {unit.zone}"
                if second:
                    assert not battle.enemies_in(where, side), "second move into enemies"
            self.orders += 1

    def range_choice(self, battle: Battle, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        choice = super().range_choice(battle, zone, side, options)
        assert choice in options, (choice, options)
        return choice

    def targets(self, battle: Battle, unit: Unit, candidates: list[Unit],
                limit: int) -> list[Unit]:
        chosen = super().targets(battle, unit, candidates, limit)
        assert len(chosen) <= limit and all(t in candidates for t in chosen)
        assert len(set(map(id, chosen))) == len(chosen)
        return chosen

    def fire_plan(self, battle: Battle, unit: Unit, targets: list[Unit],
                  band: Band) -> list[tuple[WeaponSlot, Unit]]:
        plan = super().fire_plan(battle, unit, targets, band)
        for slot, target in plan:
            assert slot in unit.weapons and not slot.destroyed and target in targets
            weapon: Weapon = slot.weapon
            if weapon.is_small:
                assert target.is_infantry and band is Band.SHORT
            else:
                assert weapon.to_hit_at(band) is not None
        counts = Counter(id(slot) for slot, _ in plan)
        assert all(n <= (2 if unit.skill("Gunnery") else 1) for n in counts.values())
        return plan

    def support(self, battle: Battle, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        uses = super().support(battle, side, moment, zone)
        for asset, _ in uses:
            assert asset in battle.assets[side], asset
        return uses

    def arrival_zone(self, battle: Battle, unit: Unit, zones: list[int]) -> int:
        zone = super().arrival_zone(battle, unit, zones)
        assert zone in zones
        return zone


def fight(scenario: Scenario, sides: dict[Side, ForceSpec], seed: int,
          controllers: Mapping[Side, Controller]) -> Battle:
    battle = Battle(scenario, sides, Dice.from_seed(seed), dict(controllers), CATALOG)
    battle.run()
    return battle


# ---- set-up ---------------------------------------------------------------------------------

@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_the_bot_deploys_legally_with_several_forces(scenario_id: str) -> None:
    scenario = get_scenario(scenario_id)
    for difficulty in Difficulty:
        for support in ((), ("Hidden Mek", "Decoy", "Minefield", "Gun Sled", "Commandos")):
            sides = forces(scenario, difficulty, {side: support for side in Side})
            battle = Battle(scenario, sides, Dice.from_seed(1),
                            {side: Bot() for side in Side}, CATALOG)
            battle.setup()  # raises BattleError on an illegal set-up
            for side in Side:
                rules = scenario.side(side)
                for unit in battle.side_units(side):
                    if unit.mobile and rules.setup is not None and unit.zone is not None:
                        assert unit.zone in rules.setup.zones


def test_the_bot_sets_up_where_the_scenario_is_won() -> None:
    cases = {
        ("opening-shots", Side.DEFENDER): {3},  # all in the town it must keep
        ("at-the-hot-gates", Side.DEFENDER): {8},  # all in the pass
        ("citadel", Side.DEFENDER): {5},
    }
    for (scenario_id, side), zones in cases.items():
        scenario = get_scenario(scenario_id)
        battle = Battle(scenario, forces(scenario), Dice.from_seed(3),
                        {s: Bot() for s in Side}, CATALOG)
        battle.setup()
        placed = {u.zone for u in battle.side_units(side) if u.mobile}
        assert placed == zones, (scenario_id, placed)


def test_the_bot_reads_the_victory_conditions_into_tasks() -> None:
    def intent(scenario_id: str, side: Side) -> object:
        scenario = get_scenario(scenario_id)
        return read_intent(scenario.victory.condition(side),
                           scenario.victory.condition(side.enemy), side)

    opening_a = intent("opening-shots", Side.ATTACKER)
    assert opening_a.occupy == [3] and opening_a.hunt  # type: ignore[attr-defined]
    assert intent("opening-shots", Side.DEFENDER).deny == [3]  # type: ignore[attr-defined]
    gates = intent("at-the-hot-gates", Side.ATTACKER)
    assert [e.edge for e in gates.exits] == [Edge.SOUTH]  # type: ignore[attr-defined]
    breach = intent("through-the-breach", Side.ATTACKER)
    assert breach.hold_group == "breach" == breach.after_group  # type: ignore[attr-defined]
    assert intent("citadel", Side.ATTACKER).clear == [5]  # type: ignore[attr-defined]
    buying = intent("buying-us-some-time", Side.DEFENDER)
    assert buying.keep == 1 and buying.enemy_exits  # type: ignore[attr-defined]


# ---- single decisions -------------------------------------------------------------------------

def duel(attacker: str, defender: str, terrain: str = "Plains",
         band: Band = Band.LONG, levels: tuple[str, str] = ("Regular", "Regular")
         ) -> tuple[Battle, Bot, Unit, Unit]:
    """A set-up fight in zone 5, already engaged at ``band``, the bot on both sides; each
    side is one or more designs ("VIPER+VIPER"), its pilots of that side's ``levels``."""
    from meks.engine.core import Engagement

    sides = {side: ForceSpec(tuple(mek(d, level, name=f"{side.value} {d} {i}")
                                   for i, d in enumerate(names.split("+"))))
             for side, names, level in ((Side.ATTACKER, attacker, levels[0]),
                                        (Side.DEFENDER, defender, levels[1]))}
    bot = Bot()
    battle = Battle(duel_scenario(terrain), sides, Dice.from_seed(5),
                    {side: bot for side in Side}, CATALOG)
    battle.setup()
    battle.turn = 1
    battle.engagements[5] = Engagement(5, band)
    return battle, bot, battle.side_units(Side.ATTACKER)[0], battle.side_units(Side.DEFENDER)[0]


def test_the_bots_odds_are_the_engines() -> None:
    """The bot's to-hit modifiers are the engine's, for every stock pairing, band and a
    plain and a difficult terrain."""
    from meks.engine.core import Shot

    for terrain in ("Plains", "Urban"):
        for shooter in CATALOG.designs:
            for target in CATALOG.designs:
                battle, bot, unit, enemy = duel(shooter.name, target.name, terrain)
                for band in Band:
                    for slot in unit.live_weapons():
                        if slot.weapon.is_small or slot.weapon.to_hit_at(band) is None:
                            continue
                        view = battle.views[Side.ATTACKER]
                        ours = bot.judge.modifier(view, unit, slot.weapon, enemy, band, True,
                                                 False)
                        theirs, _ = battle.modifiers(Shot(unit, slot.weapon, enemy, band), True)
                        assert ours == theirs, (shooter.name, target.name, band, slot.name)


def test_a_hits_worth_counts_the_critical_it_may_cause_R6_9() -> None:
    """Issue 15 item 1: the chance of the critical a hit causes is the rules core's
    critical check after that hit (R6.9: a roll above the Hits left), confirmed a second
    time on a Spaul Liner (SABER); a hit that destroys the unit is worth all of it."""
    from meks.engine.bot.worth import CRIT_SHARE
    from meks.game.criticals import critical_check

    for design, spaul in (("VIPER", False), ("SABER", True)):
        battle, bot, _, target = duel("VIPER", design)
        view = battle.views[Side.ATTACKER]
        for hits in range(target.max_hits):
            target.hits = hits
            battle.log.append(battle.log[-1])  # something happened: the bot looks again
            bot.judge.fresh(view)
            worth = bot.judge.worth(target)
            left = target.remaining
            got = bot.judge.hit_worth(target)
            if left == 1:
                assert got == worth
                continue
            # Counted here from the die's faces: a roll above the Hits left after the hit.
            faces = sum(1 for roll in range(1, 7) if roll > left - 1)
            p = faces / 6 * (faces / 6 if spaul else 1.0)
            assert critical_check(left - 1, spaul=spaul).chance() == pytest.approx(p)
            assert got == pytest.approx(worth / left + p * CRIT_SHARE * worth)


class Remembering(Bot):
    """The bot, checking at each decision that every expected-hits estimate its judge
    remembers (``Judge.quick``, kept for the whole battle) is the one a judge that
    remembers nothing makes now."""

    def __init__(self) -> None:
        super().__init__()
        self.checked = 0

    def _check(self, battle: SideView) -> None:
        from meks.engine.bot.evaluation import Judge

        self._know(battle)
        units = [u for u in battle.units if u.on_map]
        for unit in units:
            for target in units:
                if target.side is unit.side:
                    continue
                for band in Band:
                    for doubled in (None, False, True):
                        remembered = self.judge.quick(battle, unit, target, band, doubled)
                        afresh = Judge().quick(battle, unit, target, band, doubled)
                        assert remembered == afresh, (unit, target, band, doubled, battle.turn)
                        self.checked += 1

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        self._check(battle)
        return super().movement(battle, side)

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        self._check(battle)
        return super().second_move(battle, side)

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        self._check(battle)
        return super().range_choice(battle, zone, side, options)

    def targets(self, battle: SideView, unit: Unit, candidates: list[Unit],
                limit: int) -> list[Unit]:
        self._check(battle)
        return super().targets(battle, unit, candidates, limit)


def checked_fights(checking: Callable[[], Bot], difficulty: Difficulty) -> int:
    """Battles with every support asset (Opening Shots, Head to Head) and a Phalanx in a
    wooded zone, each side commanded by a ``checking`` bot that checks at every decision
    (counted in its ``checked``); each is fought to a verdict. Returns the checks made."""
    from tests.engine_helpers import custom, map_scenario

    fights = [(get_scenario(sid), forces(get_scenario(sid), difficulty,
                                         {Side.ATTACKER: SUPPORT[:7],
                                          Side.DEFENDER: SUPPORT[7:]}))
              for sid in ("opening-shots", "head-to-head")]
    phalanx = custom("Wall", "Heavy", ["Missile", "Cannon"], ["Phalanx", "Point Defense"])
    woods = map_scenario((4,), (6,), terrain={5: "Woods", 4: "Woods", 6: "Woods"},
                         turn_limit=6)
    fights.append((woods, {
        Side.ATTACKER: ForceSpec((mek("SAGITARII"), mek("VIPER", skills=("Guidance",)))),
        Side.DEFENDER: ForceSpec((phalanx, mek("WASP")), ("Commandos", "Digging In"))}))
    checked = 0
    for seed, (scenario, sides) in enumerate(fights):
        bots = {side: checking() for side in Side}
        battle = fight(scenario, sides, seed, bots)
        assert battle.verdict is not None
        checked += sum(b.checked for b in bots.values())
    return checked


def test_the_bots_remembered_estimates_are_made_afresh_each_time() -> None:
    """Issue 15 (engine speed): the bot remembers a unit's expected hits on another for the
    whole battle, keyed on what the estimate reads (zones, heat, weapons fired and lost,
    systems lost, wounds, Digging In, doubled terrain, Commandos' marks, a Phalanx): at every
    decision of battles with every support asset and a Phalanx in a wooded zone, each
    remembered value is the one worked out afresh."""
    assert checked_fights(Remembering, Difficulty.EASY) > 1000


def test_the_bots_remembered_estimate_follows_everything_it_reads() -> None:
    """Issue 15 (engine speed): a unit's expected hits on another, remembered for the whole
    battle, are worked out again whenever something they read changes: the shooter's heat,
    its firing, a lost weapon or Heat Sink, a wound, not acting, damaged Computers, a zone
    in Moors; the target's mark by Commandos, terrain doubled against it, Digging In, a
    lost Jammer, a friend's Phalanx joining it, its zone. Undoing the change brings the
    first value back."""
    from meks.engine.bot.evaluation import Judge
    from meks.engine.core import Engagement
    from tests.engine_helpers import custom, map_scenario, told_id

    scenario = map_scenario((5,), (5,), terrain={5: "Woods", 4: "Moors"})
    sides = {Side.ATTACKER: ForceSpec((mek("THOR"), mek("SAGITARII"))),
             Side.DEFENDER: ForceSpec((mek("DRAKEN"), mek("WASP"),
                                       custom("Wall", "Heavy", ["Cannon"], ["Phalanx"])))}
    bot = Bot()
    battle = Battle(scenario, sides, Dice.from_seed(1), {side: bot for side in Side}, CATALOG)
    battle.setup()
    battle.turn = 2
    engagement = battle.engagements[5] = Engagement(5, Band.MEDIUM)
    thor, sagitarii = battle.side_units(Side.ATTACKER)
    draken, wasp, wall = battle.side_units(Side.DEFENDER)
    wall.zone = 4
    view = battle.views[Side.ATTACKER]

    def something_happens() -> None:
        battle.log.append(battle.log[-1])

    def quick(judge: Judge, unit: Unit, target: Unit, band: Band) -> float:
        # The judge is handed the units as the side is told of them (R8.1, revision 10).
        return judge.quick(view, view.find(told_id(view, unit.id)),
                           view.find(told_id(view, target.id)), band)

    def check(unit: Unit, target: Unit, band: Band, change: Callable[[], object],
              undo: Callable[[], object]) -> None:
        before = quick(bot.judge, unit, target, band)
        change()
        something_happens()
        after = quick(bot.judge, unit, target, band)
        assert after == quick(Judge(), unit, target, band) != before, change
        undo()
        something_happens()
        assert quick(bot.judge, unit, target, band) == before

    ppc, _, _, _, ciws = thor.weapons
    sink = next(s for s in thor.systems if s.system.name == "Heat Sink")
    jammer = next(s for s in wasp.systems if s.system.name == "Jammer")
    short, medium = Band.SHORT, Band.MEDIUM
    cases: list[tuple[Unit, Unit, Band, Callable[[], object], Callable[[], object]]] = [
        (thor, draken, medium, lambda: setattr(thor, "heat", 3),
         lambda: setattr(thor, "heat", 0)),
        (thor, draken, medium, lambda: setattr(ppc, "destroyed", True),
         lambda: setattr(ppc, "destroyed", False)),
        (thor, draken, medium, lambda: setattr(sink, "destroyed", True),
         lambda: setattr(sink, "destroyed", False)),
        (thor, draken, medium, lambda: setattr(thor, "wounded", True),
         lambda: setattr(thor, "wounded", False)),
        (thor, draken, medium, lambda: setattr(thor, "can_act", False),
         lambda: setattr(thor, "can_act", True)),
        (thor, draken, medium, lambda: thor.computers_turns.add(battle.turn),
         thor.computers_turns.clear),
        (thor, draken, medium, lambda: setattr(thor, "zone", 4),
         lambda: setattr(thor, "zone", 5)),
        (thor, draken, medium, lambda: battle.learn(battle.marked, Side.ATTACKER, (draken.id,)),
         lambda: battle.marked.update({Side.ATTACKER: frozenset()})),
        (thor, draken, medium, lambda: (setattr(engagement, "doubled", Side.DEFENDER),
                                        setattr(engagement, "doubled_turn", battle.turn)),
         lambda: setattr(engagement, "doubled", None)),
        (thor, draken, medium, lambda: setattr(draken, "dug_in_zone", 5),
         lambda: setattr(draken, "dug_in_zone", None)),
        (thor, draken, medium, lambda: setattr(draken, "zone", 6),
         lambda: setattr(draken, "zone", 5)),
        (thor, wasp, medium, lambda: setattr(jammer, "destroyed", True),
         lambda: setattr(jammer, "destroyed", False)),
        (sagitarii, draken, short, lambda: setattr(wall, "zone", 5),
         lambda: setattr(wall, "zone", 4)),
    ]
    for unit, target, band, change, undo in cases:
        check(unit, target, band, change, undo)
    # Having fired (a CIWS, no heat), a Mek starts its next fight with only the heat carried
    # over, not the 3 it has now.
    thor.heat = 3
    something_happens()
    check(thor, draken, medium, lambda: setattr(ciws, "fired", 1),
          lambda: setattr(ciws, "fired", 0))
    ciws.fired = 1
    something_happens()
    check(thor, draken, medium, lambda: setattr(thor, "carried_heat", 3),
          lambda: setattr(thor, "carried_heat", 0))
    # Before the first turn a unit that has not been told to act still counts.
    thor.can_act = False
    something_happens()
    check(thor, draken, medium, lambda: setattr(battle, "turn", 0),
          lambda: setattr(battle, "turn", 2))


def test_the_bot_sees_critical_effects_take_effect_R6_0() -> None:
    """R6.0: a critical effect rolled in a zone combat takes effect when the combat ends,
    and no event says so. The side's ``moment`` moves on all the same (for the unit's own
    side, and for the enemy when it may see the unit), so the bot does not go on reading the
    unit as it was: a SAGITARII whose Targeting Array is lost no longer counts its +1."""
    from meks.engine.bot.evaluation import Judge
    from meks.engine.damage import take_effect
    from meks.game.criticals import SYSTEM_LOST
    from tests.engine_helpers import map_scenario, told_id

    sides = {Side.ATTACKER: ForceSpec((mek("SAGITARII"),)),
             Side.DEFENDER: ForceSpec((mek("DRAKEN"),))}
    bot = Bot()
    battle = Battle(map_scenario((5,), (5,)), sides, Dice.from_seed(1),
                    {side: bot for side in Side}, CATALOG)
    battle.setup()
    battle.turn = 2
    (sagitarii,), (draken,) = (battle.side_units(side) for side in Side)
    array = next(i for i, s in enumerate(sagitarii.systems)
                 if s.system.name == "Targeting Array")
    view = battle.views[Side.DEFENDER]  # the DRAKEN's side reads the SAGITARII it sees
    seen = view.find(told_id(view, sagitarii.id))
    assert seen is not None
    target = view.find(draken.id)
    assert target is not None
    before = bot.judge.quick(view, seen, target, Band.SHORT)
    views = [battle.views[side] for side in Side]
    stamps = [v.stamp for v in views]
    moments = [v.moment for v in views]
    sagitarii.pending.append((SYSTEM_LOST, array))
    take_effect(battle, sagitarii)
    assert [v.stamp for v in views] == stamps  # no event ...
    assert all(v.moment != m for v, m in zip(views, moments, strict=True))  # ... yet news
    seen = view.find(told_id(view, sagitarii.id))
    assert seen is not None and not seen.has_system("Targeting Array")
    after = bot.judge.quick(view, seen, target, Band.SHORT)
    assert after == Judge().quick(view, seen, target, Band.SHORT) < before
    # Effects on a unit the enemy may not see are news to its own side only.
    sagitarii.hidden = True
    moments = [v.moment for v in views]
    sagitarii.pending.append((SYSTEM_LOST, array))
    take_effect(battle, sagitarii)
    own, enemy = views
    assert own.moment != moments[0] and enemy.moment == moments[1]


def test_a_force_ratio_counts_only_units_that_can_fight() -> None:
    """The bot's force ratio between two groups leaves out, on both sides alike, infantry
    the other side has not found (it cannot be shot at) and Commandos (they never attack).
    Counted as targets, their kills rolls made a side with Commandos think itself several
    times weaker than the same Meks alone, and it kept out of reach of a weaker force for a
    whole Head to Head (a drawn campaign battle)."""
    sides = {Side.ATTACKER: ForceSpec((mek("DEMON"), mek("VIPER"), mek("WASP"))),
             Side.DEFENDER: ForceSpec((mek("DRAKEN"), mek("DRAKEN")), ("Commandos",))}
    bot = Bot()
    battle = Battle(get_scenario("head-to-head"), sides, Dice.from_seed(3),
                    {side: bot for side in Side}, CATALOG)
    battle.setup()
    battle.turn = 1
    commandos = next(u for u in battle.units if u.commando)
    for detected in (False, True):
        commandos.detected = detected
        battle.log.append(battle.log[-1])  # something happened: the bot looks again
        for side in Side:
            view = battle.views[side]
            mine = [u for u in view.side_units(side) if u.on_map]
            theirs = [u for u in view.side_units(side.enemy) if u.on_map]
            meks = [u for u in mine if not u.is_infantry]
            enemy_meks = [u for u in theirs if not u.is_infantry]
            judge = bot.judge
            assert judge.ratio(view, mine, theirs) == judge.ratio(view, meks, enemy_meks)
    view = battle.views[Side.DEFENDER]
    mine = [u for u in view.side_units(Side.DEFENDER) if u.on_map]
    theirs = [u for u in view.side_units(Side.ATTACKER) if u.on_map]
    ratio = bot.judge.ratio(view, mine, theirs)
    assert bot.judge.ratio(view, list(reversed(theirs)), mine) == pytest.approx(
        1 / ratio, rel=1e-6)


def _rearguard(seed: int = 4) -> tuple[Battle, Bot, list[Unit], Unit]:
    """Buying Us Some Time on turn 3: the attacker's two DRAKENs in zone 5, where they
    destroyed the defender's DRAKEN; the defender's Mechanized Infantry, still carrying its
    squad, in zone 3. The attacker must destroy every defender (R7.3)."""
    from tests.engine_helpers import support_unit

    sides = {Side.ATTACKER: ForceSpec((mek("DRAKEN"), mek("DRAKEN"))),
             Side.DEFENDER: ForceSpec((mek("DRAKEN"), support_unit("Mechanized Infantry")))}
    bot = Bot()
    battle = Battle(get_scenario("buying-us-some-time"), sides, Dice.from_seed(seed),
                    {side: bot for side in Side}, CATALOG)
    battle.setup()
    battle.turn = 3
    for unit in battle.side_units(Side.ATTACKER):
        unit.zone, unit.hidden = 5, False
    draken, apc = battle.side_units(Side.DEFENDER)
    draken.zone, draken.destroyed_turn = 5, 2
    apc.zone = 3
    return battle, bot, battle.side_units(Side.ATTACKER), apc


def test_the_bot_goes_after_an_unarmed_unit_it_must_destroy_R7_3() -> None:
    """An APC carries no weapon, but the attacker of Buying Us Some Time wins only once it
    is destroyed: the main body goes to it rather than waiting beside it for the turn
    limit (a drawn battle)."""
    battle, bot, drakens, _apc = _rearguard()
    view = battle.views[Side.ATTACKER]
    tasks = bot.tasks(view, Side.ATTACKER)
    assert {tasks[u.id].role for u in drakens} == {"main"}
    assert {tasks[u.id].zone for u in drakens} == {3}


def test_the_bot_looks_for_an_enemy_a_combat_says_is_there_R6_4_R8_1() -> None:
    """The APC sets its squad down beside the attacker's DRAKENs and is destroyed; the squad
    is not detected (R6.4), so the attacker sees no defender left. The combat in zone 5
    goes on all the same, which every side is told (R8.1): something is still there. The
    attacker brings its units to the combat (keeping back for the exit, when time presses,
    only the units it needs there), where it closes in (a squad is found at Short range,
    and one that fires gives itself away). With no such combat it makes for the exit with
    every unit."""
    from meks.engine.board import Engagement
    from meks.engine.infantry import dismount

    battle, bot, drakens, apc = _rearguard()
    apc.zone = 5
    dismount(battle, Side.DEFENDER, 5)  # the bot dismounts beside the enemy
    squad = next(u for u in battle.side_units(Side.DEFENDER) if u.is_infantry)
    assert squad.zone == 5 and not squad.detected
    apc.destroyed_turn = 3
    battle.log.append(battle.log[-1])  # something happened: the bot looks again
    view = battle.views[Side.ATTACKER]
    assert not view.enemies_in(5, Side.ATTACKER)
    tasks = bot.tasks(view, Side.ATTACKER)
    assert {tasks[u.id].role for u in drakens} == {"exit"}  # nothing says a defender is left
    battle.engagements[5] = Engagement(5, Band.LONG)
    battle.log.append(battle.log[-1])
    tasks = bot.tasks(view, Side.ATTACKER)
    assert {(tasks[u.id].role, tasks[u.id].zone) for u in drakens} == {("main", 5)}
    battle.turn = 10  # time to go: the one DRAKEN the exit needs (25% of two) makes for it
    battle.log.append(battle.log[-1])
    tasks = bot.tasks(view, Side.ATTACKER)
    assert sorted((tasks[u.id].role, tasks[u.id].zone) for u in drakens) == [
        ("exit", 2), ("main", 5)]
    every = [RangeChoice.STAY, RangeChoice.CLOSE, RangeChoice.CLOSE_TWO, RangeChoice.BREAK]
    assert bot.range_choice(view, 5, Side.ATTACKER, every) is RangeChoice.CLOSE_TWO
    # The defender, which need not destroy anyone, stays as it is in such a combat.
    battle.engagements[4] = Engagement(4, Band.LONG)
    drakens[0].zone, drakens[0].hidden = 4, True
    battle.side_units(Side.DEFENDER)[0].zone = 4
    battle.side_units(Side.DEFENDER)[0].destroyed_turn = None
    battle.log.append(battle.log[-1])
    defender_view = battle.views[Side.DEFENDER]
    assert not defender_view.enemies_in(4, Side.DEFENDER)
    assert bot.range_choice(defender_view, 4, Side.DEFENDER, every) is RangeChoice.STAY


def test_range_suits_the_bots_weapons_against_the_enemys() -> None:
    # A lone VIPER cannot win against a DRAKEN even at Short: it breaks contact (a draw is
    # better than a loss).
    battle, bot, _, _ = duel("VIPER", "DRAKEN")
    view = battle.views[Side.ATTACKER]
    assert bot.range_choice(view, 5, Side.ATTACKER, [RangeChoice.STAY, RangeChoice.CLOSE,
                                                     RangeChoice.BREAK]) is RangeChoice.BREAK
    every = [RangeChoice.STAY, RangeChoice.CLOSE, RangeChoice.BREAK, RangeChoice.CLOSE_TWO]
    # A DRAKEN's Rail Cannons reach Medium, a VIPER's guns only Short: the DRAKEN closes to
    # Medium, where all its weapons fire and the VIPER's do not, and no further.
    battle, bot, _, _ = duel("DRAKEN", "VIPER")
    view = battle.views[Side.ATTACKER]
    assert bot.range_choice(view, 5, Side.ATTACKER, every) is RangeChoice.CLOSE
    # Two VIPERs, stronger than a DRAKEN at Short and harmless further out, close in,
    # two bands when they can.
    battle, bot, _, _ = duel("VIPER+VIPER", "DRAKEN")
    view = battle.views[Side.ATTACKER]
    assert bot.range_choice(view, 5, Side.ATTACKER, every) is RangeChoice.CLOSE_TWO
    assert bot.range_choice(view, 5, Side.ATTACKER, every[:3]) is RangeChoice.CLOSE


def test_overheating_only_where_it_pays() -> None:
    # At Long only a THOR's two PPCs fire: 8 heat against a rating of 7.
    battle, bot, thor, target = duel("THOR", "VIPER", band=Band.LONG)
    rating = thor.heat_rating(False)

    def heat(plan: list[tuple[WeaponSlot, Unit]]) -> int:
        return sum(slot.weapon.heat for slot, _ in plan)

    healthy = bot.fire_plan(battle.views[Side.ATTACKER], thor, [target], Band.LONG)
    assert heat(healthy) > rating  # the second PPC is worth its 1-in-6 overheat risk
    thor.hits = thor.max_hits - 1  # one Hit left: an overheat would destroy the THOR
    battle.log.append(battle.log[-1])  # something happened: the bot looks again
    careful = bot.fire_plan(battle.views[Side.ATTACKER], thor, [target], Band.LONG)
    assert careful and heat(careful) <= rating


def test_jump_jets_when_they_win_the_movement_roll() -> None:
    battle, bot, saber, _ = duel("SABER", "DRAKEN", terrain="Woods")
    assert bot.jump(battle.views[Side.ATTACKER], saber)
    alone, bot2, saber2, enemy = duel("SABER", "DRAKEN", terrain="Woods")
    enemy.zone = 1  # no enemy in its zone: no movement roll to win
    assert not bot2.jump(alone.views[Side.ATTACKER], saber2)


def test_a_free_unit_takes_an_empty_goal_zone_when_nothing_can_follow() -> None:
    scenario = get_scenario("opening-shots")
    bot = Bot()
    battle = Battle(scenario, forces(scenario), Dice.from_seed(2),
                    {Side.ATTACKER: bot, Side.DEFENDER: Baseline()}, CATALOG)
    battle.setup()
    battle.turn = 3
    attackers = battle.side_units(Side.ATTACKER)
    for unit in attackers:
        unit.zone = 1
    attackers[-1].zone = 2  # one WASP next to the town
    for unit in battle.side_units(Side.DEFENDER):
        unit.zone = 1  # the defenders are all fighting in zone 1
    # the second movement is the last
    orders = bot.second_move(battle.views[Side.ATTACKER], Side.ATTACKER)
    assert orders.get(attackers[-1].id) == 3


# ---- between games ----------------------------------------------------------------------------

@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_muster_keeps_to_budget_size_and_composition(scenario_id: str) -> None:
    scenario = get_scenario(scenario_id)
    for side in Side:
        rules = scenario.side(side)
        spent = {}
        for difficulty in Difficulty:
            designs = muster(rules.budget, rules.max_size, rules.composition, CATALOG,
                             difficulty)
            assert designs
            assert all(d in CATALOG.designs for d in designs)  # stock designs
            total = sum(price(d) for d in designs)
            assert total <= rules.budget, (difficulty, total)
            assert not rules.size_problems([d.size for d in designs]), difficulty
            spent[difficulty] = total
        hard, normal, easy = (spent[Difficulty.HARD], spent[Difficulty.NORMAL],
                              spent[Difficulty.EASY])
        assert hard >= normal * 0.9 and hard >= easy
        if rules.composition is None:
            assert hard > easy
            assert easy <= rules.budget * 0.8


def test_muster_follows_the_limits_it_is_given() -> None:
    light = muster(30, Size.MEDIUM, None, CATALOG, Difficulty.HARD)
    assert all(d.size <= Size.MEDIUM for d in light) and sum(map(price, light)) <= 30
    exact = muster(60, None, {Size.HEAVY: 1, Size.LIGHT: 2}, CATALOG,
                   Difficulty.NORMAL)
    assert sorted(d.size.value for d in exact) == ["Heavy", "Light", "Light"]
    with pytest.raises(ValueError):
        muster(5, None, None, CATALOG, Difficulty.NORMAL)  # nothing costs 5 points
    with pytest.raises(ValueError):
        muster(60, None, None, CATALOG, Difficulty("brutal"))  # no such difficulty


@given(budget=st.integers(min_value=1, max_value=420),
       largest=st.sampled_from([None, Size.LIGHT, Size.MEDIUM, Size.HEAVY]),
       dropped=st.sets(st.integers(min_value=0, max_value=len(CATALOG.designs) - 1),
                       max_size=len(CATALOG.designs) - 1))
@settings(max_examples=60, deadline=None)
def test_the_strongest_force_is_found_without_listing_every_force(
        budget: int, largest: Size | None, dropped: set[int]) -> None:
    """The hard muster's walk (``_strongest``) picks what the largest of every force
    ``_forces`` lists picks (the strongest, then the cheapest, then by the designs' names),
    to the last bit, for any budget, size limit and pool of designs."""
    from meks.engine.bot.choices import _forces, _strongest, design_profile, force_strength

    pool = [d for i, d in enumerate(CATALOG.designs) if i not in dropped
            and (largest is None or d.size <= largest) and price(d) <= budget]
    assume(pool)
    prices = {d.name: price(d) for d in pool}
    profiles = {d.name: design_profile(d, CATALOG) for d in pool}
    listed = max(_forces(pool, prices, budget, None),
                 key=lambda f: (force_strength(f, CATALOG, profiles),
                                -sum(prices[d.name] for d in f), [d.name for d in f]))
    walked = _strongest(pool, prices, budget, profiles)
    assert walked == listed
    assert force_strength(walked, CATALOG, profiles) == force_strength(listed, CATALOG,
                                                                       profiles)


def test_a_designs_worth_is_counted_by_the_rules_cores_rolls_R6_6_R6_8() -> None:
    """The muster's yardstick reads the to-hit and save rolls of the rules core: a Jammer
    makes a Mek harder to hit, so tougher, and leaves its offence as it was; a Green pilot
    (-1) and the ground's to-hit modifier take offence away, the more so together (each
    step down costs a larger share of what is left)."""
    from dataclasses import replace

    from meks.engine.bot.choices import design_profile

    wasp = CATALOG.design("WASP")
    bare = replace(wasp, name="WASP-bare", systems=())
    attack, tough = design_profile(wasp, CATALOG)
    bare_attack, bare_tough = design_profile(bare, CATALOG)
    assert attack == pytest.approx(bare_attack)
    assert tough > bare_tough
    green, _ = design_profile(wasp, CATALOG, level=-1)
    urban, _ = design_profile(wasp, CATALOG, aim=-2)
    both, _ = design_profile(wasp, CATALOG, level=-1, aim=-2)
    assert both < min(green, urban) < max(green, urban) < attack
    assert both / urban < green / attack  # each step down costs a larger share


def test_choose_skill_fits_the_mek() -> None:
    design = CATALOG.design
    # Weapons that run hotter than the rating: Chassis Familiarity's extra heat first.
    assert choose_skill([], design("THOR")) == "Chassis Familiarity"
    assert choose_skill([], design("ODIN")) == "Chassis Familiarity"
    # A short-ranged Mek must win the range: Maneuver.
    assert choose_skill([], design("VIPER")) == "Maneuver"
    assert choose_skill([], design("WASP")) == "Maneuver"
    # Rail Cannons need 5 at Medium: Accuracy is worth most to a DRAKEN or a DEMON.
    assert choose_skill([], design("DRAKEN")) == "Accuracy"
    assert choose_skill(["Maneuver"], design("DEMON")) == "Accuracy"
    # Jump Jets cost heat: Ice Man after Maneuver and the cannon skill.
    assert choose_skill(["Maneuver", "Accuracy"], design("SABER")) == "Ice Man"
    # Missiles: Guidance.
    assert choose_skill(["Maneuver"], design("SAGITARII")) == "Guidance"
    # Never a skill the pilot holds, always a real skill.
    names = {s.name for s in CATALOG.skills}
    for d in CATALOG.designs:
        held: list[str] = []
        for _ in range(len(names)):
            skill = choose_skill(held, d)
            assert skill in names and skill not in held
            held.append(skill)
        with pytest.raises(ValueError):
            choose_skill(held, d)


# ---- battles ------------------------------------------------------------------------------

@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_the_bot_gives_only_legal_orders(scenario_id: str) -> None:
    scenario = get_scenario(scenario_id)
    support = {Side.ATTACKER: ("Ambush", "Air Strike", "Recon Drone", "Gun Sled"),
               Side.DEFENDER: ("Support Fire", "Repair Truck", "Digging In", "Decoy",
                               "Hidden Mek", "Minefield", "Commandos")}
    for seed, bot_side in ((11, Side.ATTACKER), (12, Side.DEFENDER), (13, Side.ATTACKER)):
        bots = {bot_side: Checked(), bot_side.enemy: Baseline()}
        battle = fight(scenario, forces(scenario, support=support), seed, bots)
        bot = bots[bot_side]
        assert isinstance(bot, Checked)
        # Every order given was carried out: the engine refuses illegal ones silently.
        # (A withdrawal on breaking contact, R6.3, is a move of its own, not an order.)
        moved = [e for e in battle.log if e.unit and battle.unit(e.unit).side is bot_side
                 and (e.kind in (Kind.MOVE, Kind.EXIT) or " digs in " in e.text)
                 and " withdraws from zone " not in e.text]
        assert len(moved) == bot.orders
        assert battle.verdict is not None and battle.verdict.decided


def test_bot_against_bot_keeps_the_rules() -> None:
    for scenario_id in SCENARIOS:
        scenario = get_scenario(scenario_id)
        battle = fight(scenario, forces(scenario, Difficulty.EASY, {s: SUPPORT[:4] for s in Side}),
                       7, {side: Checked() for side in Side})
        assert battle.verdict is not None and battle.verdict.decided


def test_same_seed_same_battle_and_no_dice_of_its_own() -> None:
    scenario = get_scenario("head-to-head")
    sides = forces(scenario, support={s: ("Ambush", "Repair Truck") for s in Side})
    first = fight(scenario, sides, 99, {Side.ATTACKER: Bot(), Side.DEFENDER: Baseline()})
    again = fight(scenario, sides, 99, {Side.ATTACKER: Bot(), Side.DEFENDER: Baseline()})
    assert digest(first.log) == digest(again.log)
    # Replayed from the dice alone (the bot rolls nothing itself), the log is the same.
    replay = Battle(scenario, sides, Dice.from_sequence(first.dice.values),
                    {Side.ATTACKER: Bot(), Side.DEFENDER: Baseline()}, CATALOG)
    replay.run()
    assert digest(replay.log) == digest(first.log)


def test_one_bot_can_fight_battle_after_battle() -> None:
    scenario = get_scenario("opening-shots")
    bot = Bot()
    logs = [digest(fight(scenario, forces(scenario), seed,
                         {Side.ATTACKER: bot, Side.DEFENDER: Baseline()}).log)
            for seed in (1, 2, 1)]
    assert logs[0] == logs[2] != logs[1]


# ---- against the baseline (slow) ------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.statistics
def test_the_bot_beats_the_baseline() -> None:
    """300 battles per scenario, half with the bot attacking (the same seeds both ways),
    mirrored forces from the bot's normal muster: the bot wins at least 60% of the decided
    battles (55% in Head to Head, see below). The full check of the goal (65% over 2,000
    battles per scenario) is the benchmark, ``benchmarks/bot_vs_baseline.py``.

    The printed Citadel cannot be won by an attacker with the normal muster's forces (its
    Titan-class armour cannot be destroyed in time), so every battle goes to the defender
    whichever controller commands it, and no controller can pass 50% there: the test asserts
    that the bot wins every battle it defends. Through the Breach was as locked until a
    hidden Mek among enemies came to be found as the turn ends (engine revision 14, R4.3):
    a hidden Mek in the breach group could not be destroyed. Now the bot attacking wins 57 of
    these 150 battles, the baseline 9, and it is judged as the others; it is also played
    with the lighter easy-muster forces, and must reach 60% there too."""
    from benchmarks.bot_vs_baseline import SCENARIOS as ALL
    from benchmarks.bot_vs_baseline import Task
    from benchmarks.bot_vs_baseline import fight as bench_fight

    locked = {"citadel"}
    for scenario_id in ALL:
        runs = [("normal", scenario_id)]
        if scenario_id == "through-the-breach":
            runs.append(("easy", scenario_id))
        for difficulty, sid in runs:
            results = [bench_fight(Task(sid, i, difficulty)) for i in range(300)]
            total = Counter(r[3] for r in results)
            decided = total["bot"] + total["baseline"]
            share = total["bot"] / decided if decided else 0.0
            if sid in locked and difficulty == "normal":
                defending = Counter(r[3] for r in results if r[2] == "defender")
                assert defending["bot"] >= 0.95 * (defending["bot"] + defending["baseline"])
            else:
                # Head to Head is a straight fight between mirrored forces, and fought in
                # rounds (engine revision 8) one clash settles more of it: the bot's edge is
                # smaller there (58% of 585 decided battles in the benchmark).
                floor = 0.55 if sid == "head-to-head" else 0.60
                assert share >= floor, (sid, difficulty, dict(total))
