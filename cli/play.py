"""``meks battle play`` at the terminal: the player's side as a controller that asks.

``Terminal`` answers every decision the engine asks of the player's side with a numbered
prompt. Each lists the legal choices with the odds that matter, and Enter takes the
suggestion, which is the bot's own answer for the player's side (the bot asked through
that side's view, as if it commanded the side; asking rolls no die and changes nothing, so
Enter at every prompt fights the battle ``battle auto`` fights with the bot on that side);
only legal answers are offered. Everything shown comes from the side's ``SideView``
(R8.1): before each prompt the log events since the last one that the side may read are
printed (the dice inside their sentences; every raw die is for ``battle show --rolls``
afterwards), and each turn starts with the map (``cli.play_views``). Typing ``q`` at any
prompt raises ``Quit``.

The terminal is a controller like the bot, under the same import contract: it never sees
the engine, only its side's view. What it prints and how it asks (numbered questions, ``q``)
are ``cli.prompts``'s, its base. Driving the battle (``cli.play_run``: fighting a play,
saving and replaying its decisions, the end of the battle) is kept apart from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cli.play_views import (
    band_table,
    heat_line,
    rating_of,
    retreat_line,
    shot_odds,
    unit_label,
)
from cli.prompts import Option, Prompter, index_of, same_answer
from meks.engine import FOUND
from meks.engine.controllers import Order
from meks.engine.decisions import BAND_STEP, RETREAT_HITS, RangeChoice, Retreat, band_after
from meks.engine.values import SlotView, UnitView
from meks.game.catalog import Band, Weapon
from meks.game.rules import GUNNERY_MODIFIER, HAWKEYE, skill_of
from meks.game.scenario import Placed
from meks.game.shots import may_fire_again, overheat
from meks.game.vocabulary import BreakContact, Edge, Side

if TYPE_CHECKING:

    from meks.engine.controllers import Controller
    from meks.engine.recorded import Recorded
    from meks.engine.view import SideView

USABLE_SUPPORT = ("Repair Truck", "Recon Drone", "Support Fire", "Air Strike")
# When each is offered: repairs as the turn starts; a look at the zone and strikes as a
# combat begins.
MOMENTS = {"turn start": ("Repair Truck",),
           "combat": ("Recon Drone", "Support Fire", "Air Strike")}


class Terminal(Prompter):
    """The player's side: every decision of ``meks.engine.controllers.Controller`` asked at
    the terminal, the bot's answer for the side as the default. Each decision asks the
    ``advisor`` exactly once, with the side's view, as the engine would ask the bot
    commanding the side."""

    # ---- set-up -----------------------------------------------------------------------------

    def deploy(self, battle: SideView, side: Side, units: Sequence[UnitView]) -> dict[str, int]:
        suggested = self.advisor.deploy(battle, side, units)
        rules = battle.scenario.side(side)
        zones = list(rules.setup.zones) if rules.setup else list(range(1, 10))
        while True:
            placement: dict[str, int] = {}
            for unit in units:
                options = [Option(f"zone {z} ({battle.terrain_name(z)})", z) for z in zones]
                if len(options) == 1:
                    placement[unit.id] = zones[0]
                    continue
                notes = [f"Set-up {rules.setup.describe()}."] if rules.setup else []
                placement[unit.id] = self.choose(
                    battle, f"Set-up: where does {unit_label(battle, unit)} start?", options,
                    index_of(options, suggested.get(unit.id)), notes)
            if rules.setup is None:
                return placement
            placed = [Placed(placement[u.id], u.kind, u.points) for u in units]
            problems = rules.setup.problems(placed, rules.strongpoints)
            if not problems:
                return placement
            self.flush(battle)
            self.echo("That set-up breaks the scenario: " + "; ".join(problems)
                      + ". Place the units again.")

    def setup_support(self, battle: SideView, side: Side, asset: str) -> int | str | None:
        suggested = self.advisor.setup_support(battle, side, asset)
        options: list[Option] = []
        for legal in battle.setup_options(asset):
            if isinstance(legal, int):
                what = "lay the minefield in" if asset == "Minefield" else "place the decoy in"
                options.append(Option(f"{what} zone {legal} ({battle.terrain_name(legal)})",
                                      legal))
            elif isinstance(legal, str):
                u = battle.unit(legal)
                options.append(Option(f"hide {unit_label(battle, u)} (zone {u.zone})" if asset ==
                                      "Hidden Mek" else f"damage {unit_label(battle, u)}", legal))
        if not options:
            return None
        options.append(Option(f"keep the {asset} unused", None))
        choice: int | str | None = self.choose(
            battle, f"Support at set-up: {asset}.", options,
            index_of(options, suggested, len(options) - 1))
        return choice

    # ---- movement ---------------------------------------------------------------------------

    def move_first(self, battle: SideView, side: Side) -> bool:
        suggested = self.advisor.move_first(battle, side)
        options = [Option("move first", True),
                   Option("move second (and move again at the end of the turn)", False)]
        return bool(self.choose(battle, "You won the initiative.", options,
                                index_of(options, suggested)))

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        return self._orders(battle, side, second=False)

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        return self._orders(battle, side, second=True)

    def _orders(self, battle: SideView, side: Side, second: bool) -> dict[str, Order]:
        suggested = (self.advisor.second_move if second else self.advisor.movement)(
            battle, side)
        orders: dict[str, Order] = dict(suggested)
        phase = "Second movement" if second else "Movement"
        for unit in battle.side_units(side):
            if not (unit.on_map and unit.mobile and unit.can_act and unit.zone is not None):
                continue
            if unit.moved and not second:
                continue
            options = self._move_options(battle, unit, second)
            if len(options) == 1:
                continue
            title = (f"{phase}: {unit_label(battle, unit)} in zone {unit.zone} "
                     f"({battle.terrain_name(unit.zone)}), {unit.hits}/{unit.max_hits} hits.")
            notes = []
            if second and unit.is_mek:
                notes.append("Moving now gives the Mek 2 heat next turn"
                             + ("" if battle.house.one_exchange else
                                " (in its first round of combat)")
                             + "; zones with enemies cannot be entered.")
            if not battle.can_leave(unit):
                notes.append("Engaged: it cannot leave the zone unless its side broke contact.")
            choice = self.choose(battle, title, options,
                                 index_of(options, suggested.get(unit.id)), notes)
            if choice is None:
                orders.pop(unit.id, None)
            else:
                orders[unit.id] = choice
        return orders

    def _move_options(self, battle: SideView, unit: UnitView, second: bool) -> list[Option]:
        """The unit's legal orders (``SideView.move_options``), each with its label."""
        options = []
        for where in battle.move_options(unit, second):
            if where is None:
                options.append(Option("stay", None))
            elif where == "dig":
                options.append(Option(f"dig in in zone {unit.zone} (Digging In: terrain "
                                      "counts double against shots at it)", "dig"))
            elif isinstance(where, int):
                enemies = battle.enemies_in(where, unit.side)
                options.append(Option(f"to zone {where} ({battle.terrain_name(where)})"
                                      + (f" - enemies there: {len(enemies)}" if enemies
                                         else ""), where))
            elif isinstance(where, Edge):
                options.append(Option(f"leave the map across the {where.value} edge", where))
        return options

    def arrival_zone(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        suggested = self.advisor.arrival_zone(battle, unit, zones)
        options = [Option(f"zone {z} ({battle.terrain_name(z)})"
                          + (" - enemies there" if battle.enemies_in(z, unit.side) else ""), z)
                   for z in zones]
        if len(options) == 1:
            return zones[0]
        return int(self.choose(battle, f"{unit_label(battle, unit)} arrives: in which zone?",
                               options, index_of(options, suggested)))

    def jump(self, battle: SideView, unit: UnitView) -> bool:
        suggested = self.advisor.jump(battle, unit)
        return self.yes_no(
            battle, f"{unit_label(battle, unit)}: fire the jump jets for this movement roll? "
            f"(+1 die, no terrain, +2 heat; {heat_line(battle, unit)})", suggested)

    # ---- combat -----------------------------------------------------------------------------

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        suggested = self.advisor.range_choice(battle, zone, side, options)
        band = battle.band_of(zone)
        labels = []
        for choice in options:
            if BAND_STEP[choice]:
                text = f"{choice.value} (to {band_after(band, choice).value})"
            elif choice is RangeChoice.STAY:
                text = f"stay at {band.value}"
            elif choice is RangeChoice.BREAK and battle.house.break_contact is BreakContact.STAY:
                text = "break contact (no one fires here this turn; your units may leave)"
            elif choice is RangeChoice.BREAK:
                text = ("break contact (the combat ends; your units here pull out at once "
                        "into zones free of enemies)")
            else:
                text = ("double the terrain modifier against shots at your units this "
                        f"{'turn' if battle.house.one_exchange else 'round'} "
                        f"(stay at {band.value})")
            labels.append(Option(text, choice))
        when = f", round {battle.round}" if battle.round and not battle.house.one_exchange \
            else ""
        title = (f"You win the movement roll in zone {zone} ({battle.terrain_name(zone)}"
                 f"{when}); the range is {band.value}. Weapons in range at each band:")
        chosen = self.choose(battle, title, labels, index_of(labels, suggested),
                             [band_table(battle, zone, side)])
        assert isinstance(chosen, RangeChoice)
        return chosen

    def withdraw(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        suggested = self.advisor.withdraw(battle, unit, zones)
        if len(zones) == 1:
            return zones[0]
        options = [Option(f"zone {z} ({battle.terrain_name(z)})", z) for z in zones]
        return int(self.choose(battle, f"{unit_label(battle, unit)} pulls out of zone {unit.zone}: "
                               "into which zone?", options, index_of(options, suggested)))

    def targets(self, battle: SideView, unit: UnitView, candidates: list[UnitView],
                limit: int) -> list[UnitView]:
        band = battle.band_of(unit.zone or 0)
        suggested = self.advisor.targets(battle, unit, candidates, limit)
        hittable = [t for t in candidates if _best_chance(battle, unit, t, band) > 0]
        if not hittable:
            reach = any(_can_fire(slot.weapon, target, band)
                        for slot in unit.live_weapons() for target in candidates)
            self.flush(battle)
            self.echo(f"{unit_label(battle, unit)} has no " + (
                "shot with any chance at a target" if reach else
                "weapon that reaches a target") + f" at {band.value} range: nothing to ask.")
            return list(suggested)  # the bot's answer stands (it may call in support there)
        # Never a target it has no chance to hit or kill when another can be: the bot's
        # picks among the ones it can, else holding fire.
        suggested = [t for t in suggested if any(t is h for h in hittable)]
        options = [Option(self._target_label(battle, unit, target, band, limit == 1), target)
                   for target in candidates]
        when = f", round {battle.round}," if battle.round and not battle.house.one_exchange \
            else ""
        title = (f"{unit_label(battle, unit)} in zone {unit.zone}{when} at {band.value} range: "
                 + ("pick its target." if limit == 1 else f"pick up to {limit} targets."))
        if limit == 1:
            options.append(Option("hold fire", None))
            default = index_of(options, suggested[0] if suggested else None, len(options) - 1)
            chosen = self.choose(battle, title, options, default)
            return [] if chosen is None else [chosen]
        picks = [index_of(options, t, -1) for t in suggested]
        return self.choose_many(battle, title, options, [i for i in picks if i >= 0], limit)

    def _target_label(self, battle: SideView, unit: UnitView, target: UnitView, band: Band,
                      single: bool) -> str:
        lines = [f"{unit_label(battle, target)}: {target.hits}/{target.max_hits} hits, saves on "
                 f"{target.armor}+" + (", infantry" if target.is_infantry else "")]
        for slot in unit.live_weapons():
            odds = shot_odds(battle, unit, slot, target, band, False, single)
            if odds is not None:
                lines.append(f"{slot.name}: {odds.text}")
        if len(lines) == 1:
            lines.append("no weapon reaches it at this range")
        return "\n".join(lines)

    def fire_plan(self, battle: SideView, unit: UnitView, targets: list[UnitView],
                  band: Band) -> list[tuple[SlotView, UnitView]]:
        pending = list(self.advisor.fire_plan(battle, unit, targets, band))
        plan: list[tuple[SlotView, UnitView]] = []
        heat = unit.heat
        rating = rating_of(battle, unit)
        heats = not unit.vehicle and unit.pilot is not None
        while True:
            options = self._fire_options(battle, unit, targets, band, plan, heat, rating)
            if not options:
                break
            values = [o.value for o in options]
            while pending and not any(same_answer(pending[0], v) for v in values):
                pending.pop(0)  # a suggestion the engine would not fire anyway
            options.append(Option("done: hold the rest of its weapons", None))
            default = index_of(options, pending[0], len(options) - 1) if pending \
                else len(options) - 1
            title = (f"{unit_label(battle, unit)} fires at {band.value} range"
                     + (f" (heat so far {heat}/{rating})" if heats else "")
                     + (": the next weapon, in order" if plan else ": its first weapon")
                     + ".")
            choice = self.choose(battle, title, options, default)
            if choice is None:
                break
            plan.append(choice)
            for i, p in enumerate(pending):
                if same_answer(p, choice):
                    del pending[i]
                    break
            if heats:
                heat += choice[0].weapon.heat
        return plan

    def _fire_options(self, battle: SideView, unit: UnitView, targets: list[UnitView], band: Band,
                      plan: list[tuple[SlotView, UnitView]], heat: int,
                      rating: int) -> list[Option]:
        options = []
        # Gunnery is left when the engine says so and no weapon fires twice in the plan.
        gunnery = battle.gunnery_left(unit) and not any(
            sum(1 for s, _ in plan if s is slot) + slot.fired >= 2 for slot in unit.weapons)
        for slot in unit.live_weapons():
            times = slot.fired + sum(1 for s, _ in plan if s is slot)
            again = False
            if times >= 1:
                if not may_fire_again(slot.weapon, times, gunnery):
                    continue
                again = True
            for target in targets:
                if not _can_fire(slot.weapon, target, band):
                    continue
                odds = shot_odds(battle, unit, slot, target, band, again, len(targets) == 1,
                                 **_spent_before(battle, unit, slot, target, band, plan))
                if odds is None:
                    continue
                label = (f"{slot.name} at {unit_label(battle, target)}"
                         + (f" again (Gunnery {GUNNERY_MODIFIER})" if again else "")
                         + f": {odds.text}")
                if not unit.vehicle and unit.pilot is not None:
                    check = overheat(heat + slot.weapon.heat, rating, slot.weapon)
                    risk = check.chance()
                    hits = f"{check.hits} hit{'s' * (check.hits != 1)}"
                    label += (f"\nheat +{slot.weapon.heat} -> {heat + slot.weapon.heat}/{rating}"
                              + (f", overheat risk {risk:.0%} (the weapon is destroyed and "
                                 f"the Mek takes {hits})" if risk else ", no overheat risk"))
                options.append(Option(label, (slot, target)))
        return options

    def dodge(self, battle: SideView, unit: UnitView, weapon: Weapon, hits: int) -> bool:
        suggested = self.advisor.dodge(battle, unit, weapon, hits)
        what = f"{hits} hits from a {weapon.name}: dodge them" if hits > 1 else \
            f"hit by a {weapon.name}: dodge it"
        return self.yes_no(battle, f"{unit_label(battle, unit)} is {what} (Agility, once a "
                           f"{_period(battle)}, +1 heat; {heat_line(battle, unit)})?",
                           suggested)

    def support(self, battle: SideView, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        advice = list(self.advisor.support(battle, side, moment, zone))
        suggested = dict(advice)
        uses: list[tuple[str, object]] = []
        for asset in USABLE_SUPPORT:
            if asset not in battle.assets[side] or asset not in MOMENTS.get(moment, ()):
                continue
            if suggested.get(asset) is not None and suggested[asset] not in \
                    battle.support_options(asset, moment):
                del suggested[asset]
            options = self._support_options(battle, side, asset, zone, moment)
            if not options:
                continue
            options.append(Option("not now", None))
            when = "at the start of the turn" if moment == "turn start" else \
                f"as combat begins in zone {zone}"
            choice = self.choose(battle, f"Support {when}: use the {asset}?", options,
                                 index_of(options, suggested.get(asset), len(options) - 1))
            if choice is not None:
                uses.append((asset, choice))
        # In the advisor's order (the engine uses them in the order given), then the rest.
        order = [asset for asset, _ in advice]
        uses.sort(key=lambda use: order.index(use[0]) if use[0] in order else len(order))
        return uses

    def _support_options(self, battle: SideView, side: Side, asset: str,
                         zone: int | None, moment: str = "combat") -> list[Option]:
        legal = battle.support_options(asset, moment)
        if asset == "Repair Truck":
            return [Option(f"repair {unit_label(battle, u)} ({u.hits}/{u.max_hits} hits)", u.id)
                    for u in battle.side_units(side)
                    if u.id in legal and u.on_map and (
                        u.hits or u.legs or u.computers_turns
                        or any(w.destroyed for w in u.weapons)
                        or any(s.destroyed for s in u.systems))]
        if asset == "Recon Drone":
            return [Option(f"fly it over zone {z} ({battle.terrain_name(z)})", z)
                    for z in ([zone] if zone else range(1, 10))
                    if z in legal and battle.enemies_in(z, side)]
        return [Option(f"strike {unit_label(battle, u)} in zone {u.zone} ({u.hits}/{u.max_hits} "
                       "hits)", u.id)
                for u in battle.side_units(side.enemy) if u.id in legal]

    def ambush(self, battle: SideView, side: Side, zone: int) -> str | None:
        suggested = self.advisor.ambush(battle, side, zone)
        meks = [battle.unit(uid) for uid in battle.ambush_options(zone) if uid is not None]
        if not meks:
            return None
        options = [Option(f"{unit_label(battle, u)} strikes first", u.id) for u in meks]
        options.append(Option("wait (keep the Ambush for later)", None))
        choice: str | None = self.choose(
            battle, f"Ambush in zone {zone}: one Mek makes a free attack before the movement "
            "rolls, on top of its own fire "
            + ("this turn." if battle.house.one_exchange else "in the combat's first round."),
            options, index_of(options, suggested, len(options) - 1))
        return choice

    def dismount(self, battle: SideView, apc: UnitView) -> bool:
        return self.yes_no(battle, f"Dismount {apc.name}'s infantry squad in zone {apc.zone}?",
                           self.advisor.dismount(battle, apc))

    def reveal(self, battle: SideView, unit: UnitView) -> bool:
        found = (" (Hidden, it keeps out of this turn's fight, and they find it as the turn "
                 "ends.)") if battle.revision >= FOUND else ""
        return self.yes_no(battle, f"{unit_label(battle, unit)} is hidden in zone {unit.zone} with "
                           f"enemies and no friends in sight: come out and fight now?{found}",
                           self.advisor.reveal(battle, unit))

    def commando(self, battle: SideView, unit: UnitView,
                 enemies: list[UnitView]) -> tuple[str, UnitView] | None:
        suggested = self.advisor.commando(battle, unit, enemies)
        options = []
        for enemy in enemies:
            options.append(Option(f"identify {unit_label(battle, enemy)}", ("identify", enemy)))
            options.append(Option(f"mark {unit_label(battle, enemy)} (+1 to hit it this "
                                  f"{_period(battle)})",
                                  ("mark", enemy)))
        options.append(Option("nothing", None))
        choice: tuple[str, UnitView] | None = self.choose(
            battle, f"{unit.name} in zone {unit.zone}:", options,
            index_of(options, suggested, len(options) - 1))
        return choice

    def hawkeye(self, battle: SideView, unit: UnitView,
                candidates: list[UnitView]) -> UnitView | None:
        suggested = self.advisor.hawkeye(battle, unit, candidates)
        options = [Option(f"{unit_label(battle, e)} in zone {e.zone}", e) for e in candidates]
        options.append(Option("nobody", None))
        choice: UnitView | None = self.choose(
            battle, f"{unit_label(battle, unit)}'s pilot looks around (Hawkeye, ID on "
            f"{HAWKEYE.need}+):", options, index_of(options, suggested, len(options) - 1))
        return choice

    # ---- house rules bail_out and withdrawal (R6.12, R6.13) ---------------------------------

    def bail_out(self, battle: SideView, unit: UnitView) -> bool:
        suggested = self.advisor.bail_out(battle, unit)
        why = (f"one Hit from destruction ({unit.hits}/{unit.max_hits} Hits)"
               if unit.remaining <= 1 else
               f"its reactor took a critical ({unit.hits}/{unit.max_hits} Hits)")
        return self.yes_no(battle, f"{unit_label(battle, unit)} is {why}. Bail out? The Mek is "
                           "lost, the pilot surely survives.", suggested)

    def withdrawal(self, battle: SideView, side: Side, options: list[Retreat]) -> Retreat:
        suggested = self.advisor.withdrawal(battle, side, options)
        labels = {Retreat.FIGHT: "fight on",
                  Retreat.WITHDRAW: f"withdraw: you lose now; each of your units on the map "
                  f"takes {RETREAT_HITS} Hits, never its last",
                  Retreat.OVERRUN: f"overrun: you win now; each of your units on the map takes "
                  f"{RETREAT_HITS} Hits, never its last"}
        choices = [Option(labels[o], o) for o in options]
        chosen = self.choose(battle, f"Turn {battle.turn} is over. Fight on, or end the battle?",
                             choices, index_of(choices, suggested), [retreat_line(battle, side)])
        assert isinstance(chosen, Retreat)
        return chosen


DECISIONS = frozenset(("deploy", "setup_support", "move_first", "movement", "second_move",
                       "arrival_zone", "jump", "range_choice", "withdraw", "targets",
                       "fire_plan", "dodge",
                       "support", "ambush", "dismount", "reveal", "commando", "hawkeye",
                       "bail_out", "withdrawal"))
"""Every decision of ``meks.engine.controllers.Controller``."""


class Shadowed:
    """The player's side as the engine asks it: ``recorder``'s answers, with ``advisor``
    asked each decision the recorder replays as well (its answer unused). A live decision
    reaches the ``Terminal``, which asks the advisor itself; so the advisor is asked every
    decision exactly once, resumed or not, and remembers what it would have remembered had
    the play never stopped."""

    def __init__(self, recorder: Recorded, advisor: Controller) -> None:
        self.recorder = recorder
        self.advisor = advisor

    def __getattr__(self, name: str) -> Any:
        answer = getattr(self.recorder, name)
        if name not in DECISIONS:
            return answer
        recorder, advisor = self.recorder, self.advisor

        def decide(*args: Any) -> Any:
            if recorder.replaying:
                getattr(advisor, name)(*args)
            return answer(*args)
        return decide


def _spent_before(battle: SideView, unit: UnitView, slot: SlotView, target: UnitView,
                  band: Band, plan: list[tuple[SlotView, UnitView]]) -> dict[str, bool]:
    """What the shots planned before this one use up, as the engine's own checks of them
    say (``ToHit.spends``, ``target_spends``; they are fired in the plan's order): the
    pilot's skill of this weapon's family, and the target's Spoof. The odds offered for
    this shot then count neither."""
    used: set[str] = set()
    spoofed = False
    for s, t in plan:
        if t.is_infantry or s.weapon.to_hit_at(band) is None:  # no to-hit roll: nothing used
            continue
        check = battle.to_hit(unit, s.weapon, t, band)
        used.update(check.spends)
        spoofed = spoofed or (t is target and bool(check.target_spends))
    spent = {}
    if skill_of(slot.weapon.family) in used:
        spent["family_skill"] = False
    if spoofed:
        spent["spoof"] = False
    return spent


def _period(battle: SideView) -> str:
    """What the zone-combat rules' "once a turn" counts in this battle (R5.2)."""
    return "turn" if battle.house.one_exchange else "round"


def _best_chance(battle: SideView, unit: UnitView, target: UnitView, band: Band) -> float:
    """The best chance one of the unit's weapons that may still fire this turn has of
    hitting ``target`` (of killing, against infantry) at ``band``: 0 when none can."""
    gunnery = battle.gunnery_left(unit)
    best = 0.0
    for slot in unit.live_weapons():
        again = slot.fired >= 1
        if again and not may_fire_again(slot.weapon, slot.fired, gunnery):
            continue
        if not _can_fire(slot.weapon, target, band):
            continue
        odds = shot_odds(battle, unit, slot, target, band, again, True)
        if odds is not None and odds.chance > best:
            best = odds.chance
    return best


def _can_fire(weapon: Weapon, target: UnitView, band: Band) -> bool:
    """The engine's own limits on a weapon and target (R6.5, R6.11)."""
    if weapon.is_small:
        return target.is_infantry and band is Band.SHORT
    return weapon.to_hit_at(band) is not None


__all__ = ["DECISIONS", "Shadowed", "Terminal"]
