"""The 18 support results in battle (RULINGS R4.3, R4.4), each forced with fixed dice.

Assets (table 1-2 and 3-4): Ambush, Battle Damage, Surprise, Support Fire, Air Strike,
Minefield, Hidden Mek, Decoy, Recon Drone, Repair Truck, Digging In, Rich Uncle (no battle
effect; its points belong to the muster). Units (table 5-6): Gun Sled, Panzer, Mechanized
Infantry (APC), Gunship, Howitzer Battery, Commandos.
"""

from __future__ import annotations

from typing import Any

import pytest

from meks.engine import UNMASKED
from meks.engine.core import Battle, BattleError, RangeChoice
from meks.engine.log import Kind, render
from meks.engine.units import PilotSpec, UnitSpec
from meks.game.catalog import Band
from meks.game.dice import Dice
from meks.game.vocabulary import Side
from tests.engine_helpers import (
    CATALOG,
    INIT,
    TIE,
    Scripted,
    assert_all_dice_used,
    battle,
    design,
    duel_scenario,
    exchange,
    fire,
    force,
    gun,
    has_text,
    map_scenario,
    post,
    rolls_for,
    start,
    support_unit,
    texts,
)


def still(**overrides: Any) -> Scripted:
    """A side that makes no zone moves unless told."""
    return Scripted(**{"movement": lambda b, side: {}, **overrides})


def uses(*plan: tuple[str, object], moment: str = "turn start") -> Any:
    """A support policy: use these assets at the first chance at ``moment``."""
    return lambda b, side, at, zone: list(plan) if at == moment else []


def shot_texts(b: Battle) -> list[str]:
    return [e.text for e in b.log if e.kind in (Kind.HIT, Kind.MISS)]


def apart(a_units: Any, d_units: Any, dice: list[int], a_ctl: Any = None, d_ctl: Any = None,
          a_zone: int = 1, d_zone: int = 9, terrain: dict[int, str] | None = None,
          prepare: Any = None, turns: int = 1, **sides: Any) -> Battle:
    """The two sides in different zones (no combat unless someone moves)."""
    a = a_units if hasattr(a_units, "units") else force(a_units)
    d = d_units if hasattr(d_units, "units") else force(d_units)
    b = start(battle(map_scenario((a_zone,), (d_zone,), terrain, **sides), a, d, dice,
                     a_ctl or still(), d_ctl or still()))
    if prepare is not None:
        prepare(b)
    for _ in range(turns):
        b.play_turn()
    assert_all_dice_used(b, dice)
    return b


# ---- Ambush ---------------------------------------------------------------------------------

def test_ambush_strikes_before_the_movement_rolls_and_lands_at_once_R4_3() -> None:
    b = exchange(force(gun("Missile", name="Ambusher"), support=("Ambush",)),
                 gun("Missile", name="Foe"),
                 [*INIT, 4, 1,    # the Ambush Missile hits; Foe's save fails: destroyed
                  1, 2],          # the killing Hit's critical (R6.9): Leg Damaged
                 band=None, prepare=lambda b: setattr(b.unit("D1"), "hits", 4))
    events = texts(b)
    assert events.index("Ambush! Ambusher strikes first.") < \
        events.index("Ambusher fires Missile at Foe: 4+0 vs 3+ - hit.")
    assert b.unit("D1").destroyed_turn == 1
    assert texts(b, Kind.MOVEMENT_ROLL) == []   # the zone is clear before the rolls
    assert not any(t.startswith("Foe fires") for t in shot_texts(b))
    assert "Ambush" not in b.assets[Side.ATTACKER]


def test_ambush_is_a_free_attack_in_addition_to_the_meks_own_fire_R4_3() -> None:
    """R4.3: the Ambush is a free attack; the Mek's own fire that turn comes on top. At
    Long only the Missile reaches; the range then closes to Short, and in the exchange the
    Missile fires again (targets chosen again), with the Cannon. The Ambush's heat counts:
    a Titan (rating 8) reaches 3 + 3 + 1 = 7."""
    b = exchange(force(gun("Missile", "Cannon", size="Titan"), support=("Ambush",)), post(),
                 [*INIT, 1,       # the Ambush: Missile misses
                  6, 2,           # movement 6 to 2: close two bands
                  1, 1],          # the exchange: the Missile and the Cannon miss
                 band=None, attacker_ctl=Scripted([RangeChoice.CLOSE_TWO], fire=fire()))
    assert shot_texts(b) == ["Gun fires Missile at Post: 1+0 vs 3+ - miss.",
                             "Gun fires Missile at Post: 1+0 vs 3+ - miss.",
                             "Gun fires Cannon at Post: 1+0 vs 4+ - miss."]
    assert [t for t in texts(b, Kind.DECISION) if "targets" in t] == [
        "Attacker decides: Gun targets Post", "Attacker decides: Gun targets Post",
        "Defender decides: Post targets Gun"]
    assert texts(b, Kind.OVERHEAT) == []


def test_the_ambush_heat_counts_for_the_turn_R4_3_R6_10() -> None:
    """R4.3 and R6.10: the free attack's heat stays for the turn, so the same weapons fired
    again in the exchange run hot: an Assault (rating 6) fires its Missile twice (3 + 3)
    and then its Cannon at 7, one over: the overheat roll (2 > 1, it holds)."""
    b = exchange(force(gun("Missile", "Cannon"), support=("Ambush",)), post(),
                 [*INIT, 1, 6, 2, 1, 2, 1],
                 band=None, attacker_ctl=Scripted([RangeChoice.CLOSE_TWO], fire=fire()))
    assert texts(b, Kind.OVERHEAT) == ["Gun runs hot (7/6) but its Cannon holds (2 > 1)."]


def test_ambush_comes_only_before_the_meks_first_zone_combat_R4_3() -> None:
    """After its first fight the Mek is no longer among the Ambush options: naming it is
    refused (issue 15), and the asset stays."""
    asked: list[list[str | None]] = []

    def ambush(b: Any, side: Side, zone: int) -> str | None:
        asked.append(b.ambush_options(zone))
        return None if b.turn == 1 else "A1"

    with pytest.raises(BattleError, match="'ambush' on turn 2"):
        exchange(force(gun("Missile"), support=("Ambush",)), post(),
                 [*INIT, *TIE, 1, *INIT, *TIE, 1], band=None, turns=2,
                 attacker_ctl=Scripted(ambush=ambush))
    assert asked == [[None, "A1"], [None]]


def test_ambush_with_nothing_to_strike_is_kept_R4_3() -> None:
    b = exchange(force(gun("Cannon"), support=("Ambush",)),
                 post(systems=["Masking & Insulation"]), [*INIT, *TIE], band=None)
    assert "Ambush" in b.assets[Side.ATTACKER]


# ---- Battle Damage --------------------------------------------------------------------------

def test_battle_damage_starts_an_enemy_mek_with_a_rolled_critical_R4_3() -> None:
    b = start(battle(duel_scenario(), force(post(), support=("Battle Damage",)), force(post()),
                     [2]))
    assert b.unit("D1").legs == 1
    assert texts(b, Kind.SUPPORT) == ["Battle Damage: Post starts damaged."]
    assert texts(b, Kind.CRITICAL) == ["Critical on Post: Leg Damaged (2) - -1 to movement."]


def test_battle_damage_reactor_blast_destroys_the_mek_at_set_up_R4_3() -> None:
    b = start(battle(duel_scenario(), force(post(), support=("Battle Damage",)), force(post()),
                     [4, 2]))
    target = b.unit("D1")
    assert target.destroyed_turn == 0 and not target.on_map
    assert target.pilot.dead  # type: ignore[union-attr]


@pytest.mark.parametrize("choice", ["D1", "nobody"])
def test_battle_damage_must_hit_an_enemy_mek_R4_3(choice: str) -> None:
    """An own unit or no unit at all is not among the options: refused (issue 15)."""
    def pick(b: Battle, side: Side, asset: str) -> Any:
        return {"Decoy": 5, "Battle Damage": choice}[asset]

    with pytest.raises(BattleError, match=r"'setup_support \(Battle Damage\)'"):
        start(battle(duel_scenario(), force(post(), support=("Decoy",)),
                     force(post(), support=("Battle Damage",)), [],
                     Scripted(setup_support=pick), Scripted(setup_support=pick)))


def _battle_damage_on_the_decoy(revision: int) -> Battle:
    def pick(b: Battle, side: Side, asset: str) -> Any:
        return {"Decoy": 5, "Battle Damage": "A2"}[asset]

    return start(Battle(duel_scenario(), {
        Side.ATTACKER: force(post(), support=("Decoy",)),
        Side.DEFENDER: force(post(), support=("Battle Damage",))}, Dice.from_sequence([]),
        {Side.ATTACKER: Scripted(setup_support=pick),
         Side.DEFENDER: Scripted(setup_support=pick)}, CATALOG, revision=revision))


def test_battle_damage_on_a_decoy_identifies_it_R4_3_R8_1() -> None:
    """The defender cannot tell the attacker's Decoy (A2) from a Mek: it may pick it. The
    asset is used up with no damage, and finding nothing there shows the contact for what
    it is: it vanishes, as when an ID roll unmasks it (our decision, engine revision 15)."""
    b = _battle_damage_on_the_decoy(UNMASKED)
    assert "Battle Damage" not in b.assets[Side.DEFENDER]
    assert texts(b, Kind.IDENTIFY) == ["Battle Damage finds nothing at Post: it is a decoy."]
    assert texts(b, Kind.SUPPORT) == texts(b, Kind.CRITICAL) == []
    assert not b.unit("A2").on_map and "A2" in b.identified[Side.DEFENDER]
    seen = b.views[Side.DEFENDER]
    assert [u.name for u in seen.side_units(Side.ATTACKER) if u.on_map] == ["Post"]
    for side in (Side.ATTACKER, Side.DEFENDER):  # the line is kept from neither side
        assert any("it is a decoy" in e.text for e in b.views[side].events())


def test_battle_damage_on_a_decoy_left_it_a_contact_before_revision_15_R4_3() -> None:
    b = _battle_damage_on_the_decoy(UNMASKED - 1)
    assert "Battle Damage" not in b.assets[Side.DEFENDER]
    assert texts(b, Kind.SUPPORT) == ["Battle Damage on Post: no damage shows."]
    assert texts(b, Kind.CRITICAL) == texts(b, Kind.IDENTIFY) == []
    assert b.unit("A2").on_map


# ---- Surprise --------------------------------------------------------------------------------

def test_surprise_is_spent_on_the_first_initiative_roll_R4_3() -> None:
    b = apart(force(post(), support=("Surprise",)), post(), [2, 4])
    assert b.initiative_winner is Side.ATTACKER
    assert texts(b, Kind.INITIATIVE)[0] == "Attacker initiative 2+3 = 5"
    assert "Surprise" not in b.assets[Side.ATTACKER]


def test_two_surprises_add_up_on_the_first_roll_docs_rules_R4_3() -> None:
    """Our decision: each Surprise is +3 on the side's first initiative roll, so two give
    +6 and both are spent there (rather than one lying unused all battle)."""
    b = apart(force(post(), support=("Surprise", "Surprise")), post(), [1, 6])
    assert texts(b, Kind.INITIATIVE)[0] == "Attacker initiative 1+6 = 7"
    assert b.initiative_winner is Side.ATTACKER and "Surprise" not in b.assets[Side.ATTACKER]


# ---- Support Fire and Air Strike ----------------------------------------------------------------

def known(*ids: str) -> Any:
    return lambda b: b.learn(b.known, Side.ATTACKER, ids)


def found(uid: str) -> Any:
    """Enemy infantry the attacker has detected (R6.4) and so knows of."""
    def prepare(b: Battle) -> None:
        b.unit(uid).detected = True
        b.learn(b.known, Side.ATTACKER, (uid,))
    return prepare


def targeted(*ids: str) -> Any:
    """As if the attacker had chosen these units as targets earlier in the battle."""
    def mark(b: Battle) -> None:
        b.learn(b.known, Side.ATTACKER, ids)
        b.learn(b.targeted, Side.ATTACKER, ids)
    return mark


def in_combat(support: tuple[str, ...], dice: list[int], plan: Any, prepare: Any = None,
              terrain: dict[int, str] | None = None, far: Any = None, turns: int = 1,
              **sides: Any) -> Battle:
    """The attacker's Post and the defender's Near fight in zone 1 (unarmed Assault Meks:
    a tie of 3 and 3 at each movement roll, no fire); the defender's Far (D2, unless
    ``far`` is given) stands in zone 9. ``plan`` is the attacker's support policy."""
    defender = force(post(name="Near"), *([] if far is False else [far or post(name="Far")]))
    b = start(battle(map_scenario((1,), (1, 9), terrain, **sides),
                     force(post(), support=support), defender, dice,
                     still(support=plan),
                     still(deploy=lambda b, side, units: {u.id: 1 if u.id == "D1" else 9
                                                          for u in units})))
    if prepare is not None:
        prepare(b)
    for _ in range(turns):
        b.play_turn()
    assert_all_dice_used(b, dice)
    return b


def test_support_fire_is_a_howitzer_shot_in_a_zone_combat_at_a_unit_in_any_zone_R4_3(
        ) -> None:
    """R4.3: Support Fire is used during one of the side's zone combats (here in zone 1),
    at a unit in any zone (here zone 9), and ignores terrain."""
    b = in_combat(("Support Fire",), [*INIT,
                                      4, 1, 1,   # to hit 4 (Urban ignored); save fails; no crit
                                      3, 3],     # the movement rolls in zone 1
                  uses(("Support Fire", "D2"), moment="combat"), prepare=known("D2"),
                  terrain={9: "Urban"})
    events = texts(b)
    assert events.index("Combat begins in zone 1 (Plains) at Long range.") < \
        events.index("Support Fire against Far in zone 9.")
    assert shot_texts(b) == ["Support fires Howitzer at Far: 4+0 vs 4+ - hit."]
    assert b.unit("D2").hits == 1 and "Support Fire" not in b.assets[Side.ATTACKER]


def test_support_fire_is_not_used_outside_a_zone_combat_R4_3() -> None:
    """R4.3: at the start of a turn Support Fire is not among the options; asking for it
    then is refused (issue 15)."""
    with pytest.raises(BattleError, match="not a choice for the Support Fire now"):
        apart(force(post(), support=("Support Fire",)), post(), [*INIT],
              a_ctl=still(support=uses(("Support Fire", "D1"))), prepare=known("D1"))


def test_air_strike_is_a_missile_shot_into_any_zone_R4_3() -> None:
    b = apart(force(post(), support=("Air Strike",)), post(), [5, 1, 1, *INIT],
              a_ctl=still(support=uses(("Air Strike", "D1"))), terrain={9: "Urban"},
              prepare=targeted("D1"))
    assert shot_texts(b) == ["Support fires Missile at Post: 5-2 vs 3+ [Urban -2] - hit."]


@pytest.mark.parametrize(("how", "strikes"), [(None, False), ("identified", False),
                                              ("targeted", True)])
def test_air_strike_needs_a_targeted_unit_an_identified_one_is_not_enough_R4_3(
        how: str | None, strikes: bool) -> None:
    """R4.3: an Air Strike is made against a targeted enemy unit; one the side has only
    identified (here by a Recon Drone) does not do."""
    def prepare(b: Battle) -> None:
        if how == "identified":
            b.learn(b.identified, Side.ATTACKER, ("D1",))
            b.learn(b.known, Side.ATTACKER, ("D1",))
        elif how == "targeted":
            targeted("D1")(b)
    dice = [*([1] if strikes else []), *INIT]
    if not strikes:  # not among the options: refused (issue 15)
        with pytest.raises(BattleError, match="not a choice for the Air Strike now"):
            apart(force(post(), support=("Air Strike",)), post(), dice,
                  a_ctl=still(support=uses(("Air Strike", "D1"))), prepare=prepare)
        return
    b = apart(force(post(), support=("Air Strike",)), post(), dice,
              a_ctl=still(support=uses(("Air Strike", "D1"))), prepare=prepare)
    assert len(shot_texts(b)) == 1
    assert "Air Strike" not in b.assets[Side.ATTACKER]


def test_a_unit_chosen_as_a_target_counts_as_targeted_for_an_air_strike_R4_3() -> None:
    """R4.3 and R6.5: choosing a unit as a target makes it targeted for the battle; the Air
    Strike can then be called on it in the next zone combat."""
    b = exchange(force(gun("Cannon"), support=("Air Strike",)), post(),
                 [*INIT, *TIE, 1,      # turn 1: Gun targets Post; its Cannon misses
                  *INIT, 1, *TIE, 1],  # turn 2: the Air Strike misses; the Cannon too
                 turns=2, attacker_ctl=Scripted(
                     support=lambda b, side, at, zone: [("Air Strike", "D1")]
                     if at == "combat" and b.unit("D1").id in b.targeted[side] else []))
    assert "D1" in b.targeted[Side.ATTACKER]
    assert shot_texts(b)[1] == "Support fires Missile at Post: 1+0 vs 3+ - miss."
    assert "Air Strike" not in b.assets[Side.ATTACKER]


def test_support_fire_needs_a_targeted_or_identified_unit_R4_3() -> None:
    """Not among the options: refused (issue 15)."""
    with pytest.raises(BattleError, match="not a choice for the Support Fire now"):
        in_combat(("Support Fire",), [*INIT, 3, 3],
                  uses(("Support Fire", "D2"), moment="combat"))


def test_support_fire_is_used_once_R4_3() -> None:
    b = in_combat(("Support Fire",), [*INIT, 1, 3, 3, *INIT, 3, 3],
                  uses(("Support Fire", "D2"), moment="combat"), prepare=known("D2"),
                  turns=2)
    assert len(shot_texts(b)) == 1


def test_support_fire_against_infantry_rolls_kills_and_morale_R4_3_R6_11() -> None:
    b = in_combat(("Support Fire",),
                  [*INIT, 5, 3,   # Howitzer kills 5 (terrain ignored): 2; morale 3 > 2 holds
                   3, 3],
                  uses(("Support Fire", "D2"), moment="combat"), terrain={9: "Woods"},
                  prepare=found("D2"), far=False, defender={"strongpoints": [{"zone": 9}]})
    assert texts(b, Kind.KILLS) == [
        "Support's Howitzer against Strongpoint D2: 5+0 - 2 kills (2 in all)."]
    assert texts(b, Kind.MORALE) == ["Strongpoint D2 morale 3 vs 2 kills: they hold."]


def test_support_fire_at_a_unit_the_side_identified_R4_3() -> None:
    def plan(b: Battle, side: Side, at: str, zone: Any) -> list[tuple[str, object]]:
        return [("Recon Drone", 9)] if at == "turn start" else [("Support Fire", "D2")]
    b = in_combat(("Recon Drone", "Support Fire"), [*INIT, 1, 3, 3], plan)
    assert shot_texts(b) == ["Support fires Howitzer at Far: 1+0 vs 4+ - miss."]


# ---- Minefield ----------------------------------------------------------------------------------

def mined(zone: int) -> Any:
    return lambda b, side, asset: zone


@pytest.mark.parametrize(("roll", "hit"), [(3, True), (2, False)])
def test_minefield_hits_an_enemy_mek_entering_on_three_up_R4_3(roll: int, hit: bool) -> None:
    b = apart(post(), force(post(), support=("Minefield",)),
              [*INIT, roll, *([1] if hit else [])],   # a hit gets its critical check
              a_ctl=still(movement=lambda b, s: {"A1": 2}),
              d_ctl=still(setup_support=mined(2)))
    assert b.unit("A1").hits == (1 if hit else 0)
    assert texts(b, Kind.MINE) == [f"Post hits a mine ({roll})." if hit else
                                   f"Post crosses the minefield unharmed ({roll})."]


def test_two_minefields_both_work_docs_rules_R4_3() -> None:
    """Our decision: each Minefield is laid where its side chooses; two in different zones
    both stay, and two in one zone make an entering Mek roll twice."""
    laid = iter([2, 3])
    b = apart(post(), force(post(), support=("Minefield", "Minefield")),
              [*INIT, 3, 1,   # turn 1, into zone 2: a hit (its critical check 1)
               *INIT, 2],     # turn 2, into zone 3: unharmed
              a_ctl=still(movement=lambda b, s: {"A1": (b.unit("A1").zone or 0) + 1}),
              d_ctl=still(setup_support=lambda b, side, asset: next(laid)), turns=2)
    assert b.mines[Side.DEFENDER] == [2, 3] and "Minefield" not in b.assets[Side.DEFENDER]
    assert texts(b, Kind.MINE) == ["Post hits a mine (3).",
                                   "Post crosses the minefield unharmed (2)."]
    assert b.unit("A1").hits == 1 and b.unit("A1").zone == 3


def test_two_minefields_in_one_zone_roll_twice_docs_rules_R4_3() -> None:
    b = apart(post(), force(post(), support=("Minefield", "Minefield")),
              [*INIT, 4, 1, 2],   # the first hits (critical check 1), the second misses
              a_ctl=still(movement=lambda b, s: {"A1": 2}),
              d_ctl=still(setup_support=mined(2)))
    assert texts(b, Kind.MINE) == ["Post hits a mine (4).",
                                   "Post crosses the minefield unharmed (2)."]
    assert b.unit("A1").hits == 1


def test_minefield_spares_its_own_side_R4_3() -> None:
    b = apart(post(), force(post(), support=("Minefield",)), [*INIT],
              d_ctl=still(setup_support=mined(8), movement=lambda b, s: {"D1": 8}))
    assert b.unit("D1").zone == 8 and texts(b, Kind.MINE) == []


# ---- Hidden Mek ---------------------------------------------------------------------------------

def hide(uid: str) -> Any:
    return lambda b, side, asset: uid


def test_a_hidden_mek_cannot_be_targeted_R4_3() -> None:
    defender = force(post(name="Hidden"), post(name="Seen"), support=("Hidden Mek",))
    b = exchange(gun("Cannon"), defender, [*INIT, 3, 3, 3, 1],
                 defender_ctl=Scripted(setup_support=hide("D1")),
                 attacker_ctl=Scripted(targets=lambda b, u, c, n: c))
    assert "Attacker decides: Gun targets Seen" in texts(b, Kind.DECISION)
    assert b.unit("D1").hidden


@pytest.mark.parametrize("fires", [False, True])
def test_a_hidden_mek_is_revealed_when_it_fires_not_when_it_holds_R4_3(fires: bool) -> None:
    defender = force(gun("Cannon", name="Hidden"), post(name="Seen"), support=("Hidden Mek",))
    b = exchange(post(), defender, [*INIT, 3, 3, 3, *([1] if fires else [])],
                 defender_ctl=Scripted(setup_support=hide("D1"),
                                       fire=fire() if fires else (lambda *a: [])))
    assert b.unit("D1").hidden is not fires
    assert has_text(b, "Hidden fires from hiding and is revealed.") is fires


def test_a_hidden_mek_is_revealed_when_it_moves_R4_3() -> None:
    b = apart(post(), force(post(), support=("Hidden Mek",)), [*INIT],
              d_ctl=still(setup_support=hide("D1"), movement=lambda b, s: {"D1": 8}))
    assert not b.unit("D1").hidden
    assert has_text(b, "Post leaves its hiding place.")


def test_a_hidden_mek_alone_with_enemies_may_come_out_R4_3() -> None:
    b = exchange(post(), force(post(), support=("Hidden Mek",)), [*INIT, *TIE],
                 defender_ctl=Scripted(setup_support=hide("D1")))
    assert "Defender decides: Post comes out of hiding" in texts(b, Kind.DECISION)


def test_a_hidden_mek_that_stays_hidden_among_enemies_is_found_at_the_end_of_the_turn_R4_3(
) -> None:
    # It keeps out of this turn's fight, but it cannot deny its zone for good: the enemy
    # standing there finds it, and it counts (seen) for the zone from then on.
    b = exchange(post(), force(post(), support=("Hidden Mek",)), [*INIT],
                 defender_ctl=Scripted(setup_support=hide("D1"), reveal=lambda b, u: False))
    assert not b.unit("D1").hidden
    assert has_text(b, "Post is found in zone 5: the attacker's units there search it out as "
                    "the turn ends.")
    assert texts(b, Kind.ROUND) == [] and b.contested(5)


def test_a_hidden_mek_beside_a_friend_the_enemy_sees_is_not_found_R4_3() -> None:
    defender = force(post(name="Hidden"), post(name="Seen"), support=("Hidden Mek",))
    b = exchange(post(), defender, [*INIT, 3, 3, 3],
                 defender_ctl=Scripted(setup_support=hide("D1"), fire=lambda *a: []),
                 attacker_ctl=Scripted(fire=lambda *a: []))
    assert b.unit("D1").hidden and not has_text(b, "Hidden is found")


@pytest.mark.parametrize("revision", [13, 14])
def test_only_enemies_its_side_can_see_find_a_hidden_mek_or_ask_it_out_R4_3_R8_1(
        revision: int) -> None:
    # The attacker's Mek is away in zone 1; its Commandos, not yet detected, stand in zone 5
    # with the hidden Mek. They find nothing, and from revision 14 on the defender is not
    # asked whether to come out either: both would tell it they are there.
    asked: list[str] = []

    def away(b: Battle) -> None:
        b.unit("A1").zone = 1
        b.revision = revision

    def reveal(b: Any, unit: Any) -> bool:
        asked.append(unit.id)
        return False
    b = exchange(force(post(), support_unit("Commandos")), force(post(), support=("Hidden Mek",)),
                 [*INIT], prepare=away,
                 defender_ctl=still(setup_support=hide("D1"), reveal=reveal),
                 attacker_ctl=still())
    assert b.unit("A2").zone == 5 and not b.unit("A2").detected
    assert b.unit("D1").hidden and not has_text(b, "is found")
    assert asked == ([] if revision >= 14 else ["D1", "D1"])  # (at both combat steps)


def test_a_hidden_mek_stays_hidden_all_battle_under_earlier_revisions_R4_3() -> None:
    # Battles fought before revision 14 replay as they were: it was never found.
    def earlier(b: Battle) -> None:
        b.revision = 13
    b = exchange(post(), force(post(), support=("Hidden Mek",)), [*INIT],
                 defender_ctl=Scripted(setup_support=hide("D1"), reveal=lambda b, u: False),
                 prepare=earlier)
    assert b.unit("D1").hidden


# ---- Decoy ------------------------------------------------------------------------------------

def test_a_decoy_shows_as_a_mek_contact_and_holds_the_enemy_R4_3() -> None:
    # At Long, Basic sensors cannot tell it from a Mek: the attacker is held in zone 2.
    b = apart(post(), force(post(), support=("Decoy",)), [*INIT, 3],
              d_ctl=still(setup_support=mined(2)),
              a_ctl=still(movement=lambda b, s: {"A1": 2}, ranges=[RangeChoice.STAY]))
    # its own side's line says what it is (revision 15); the enemy never reads that line
    assert texts(b, Kind.SETUP)[-1] == "A decoy showing as Spur (Post) sets up in zone 2."
    assert not any("decoy" in e.text.lower() for e in b.views[Side.ATTACKER].events())
    assert b.contested(2) and not b.can_leave(b.unit("A1"))


def test_a_decoy_is_no_unit_for_victory_R4_3() -> None:
    b = exchange(gun("Missile"), force(post(), support=("Decoy",)), [*INIT, *TIE, 4, 1, 1, 2],
                 band=Band.LONG, prepare=lambda b: setattr(b.unit("D1"), "hits", 4),
                 attacker_ctl=Scripted(targets=lambda b, u, c, n: [b.unit("D1")]))
    assert b.unit("D2").on_map
    assert b.verdict is not None and b.verdict.outcome.value == "attacker wins"


def test_an_air_strike_at_a_decoy_is_wasted_R4_3() -> None:
    b = apart(force(post(), support=("Air Strike",)), force(post(), support=("Decoy",)),
              [6, *INIT], a_ctl=still(support=uses(("Air Strike", "D2"))),
              d_ctl=still(setup_support=mined(9)), prepare=targeted("D2"))
    assert has_text(b, "The shot passes through Spur: nothing is there.")


def test_a_decoy_shows_under_a_callsign_of_its_own_R4_3_R8_1() -> None:
    """A decoy copies its side's most valuable Mek under the design's first free number,
    with the side's mark ("DEMON-2 (D)" beside "DEMON-1 (D)"): two contacts of one name
    would tell the enemy that one is a decoy, and which Mek it copies (revision 16). Before,
    it bore the copied Mek's own name, and battles of those revisions replay so."""
    from meks.engine import DISGUISED
    from meks.engine.deployment import callsign_for

    demon = UnitSpec("DEMON-1 (D)", design("Assault", (), (), "DEMON"),
                     PilotSpec("Ana", "Regular", ()))

    def laid(revision: int) -> Battle:
        return start(Battle(duel_scenario(), {
            Side.ATTACKER: force(post()), Side.DEFENDER: force(demon, support=("Decoy",))},
            Dice.from_sequence([]), {Side.ATTACKER: Scripted(),
                                     Side.DEFENDER: Scripted(setup_support=mined(5))},
            CATALOG, revision=revision))

    b = laid(DISGUISED)
    assert b.unit("D2").decoy and b.unit("D2").name == b.sight.covers["D2"].name == \
        "DEMON-2 (D)"
    assert [u.name for u in b.views[Side.ATTACKER].side_units(Side.DEFENDER)] == [
        "DEMON-1 (D)", "DEMON-2 (D)"]
    assert laid(DISGUISED - 1).unit("D2").name == "DEMON-1 (D)"
    unit = b.unit("D1")
    assert callsign_for(unit, {"DEMON-1 (D)", "DEMON-2 (D)"}, DISGUISED) == "DEMON-3 (D)"
    unit.name = "Red Baron"  # a callsign of the player's own: no side's mark to keep
    assert callsign_for(unit, {"Red Baron"}, DISGUISED) == "DEMON-1"


def test_a_decoy_callsign_takes_the_shape_of_its_sides_callsigns_R4_3_R8_1() -> None:
    """From revision 17 the decoy's callsign has the shape of the copied Mek's own, so that
    it reads as one more Mek of the force: a campaign enemy's "Enemy VIPER-1 (D)" gives
    "Enemy VIPER-2 (D)" (revision 16 gave "VIPER-1 (D)", the only contact without
    "Enemy"); a callsign with no number gives a callsign from our list, the same for the
    same force, none its side bears."""
    from meks.engine import LOOKALIKE, REVISION
    from meks.engine.deployment import DECOY_CALLSIGNS, callsign_for

    assert REVISION >= LOOKALIKE
    viper = UnitSpec("Enemy VIPER-1 (D)", design("Medium", (), (), "VIPER"),
                     PilotSpec("Ana", "Regular", ()))
    wasp = UnitSpec("Enemy WASP-1 (D)", design("Light", (), (), "WASP"),
                    PilotSpec("Bo", "Green", ()))

    def laid(revision: int, *specs: UnitSpec) -> Battle:
        return start(Battle(duel_scenario(), {
            Side.ATTACKER: force(post()), Side.DEFENDER: force(*specs, support=("Decoy",))},
            Dice.from_sequence([]), {Side.ATTACKER: Scripted(),
                                     Side.DEFENDER: Scripted(setup_support=mined(5))},
            CATALOG, revision=revision))

    def shown(revision: int, *specs: UnitSpec) -> list[str]:
        b = laid(revision, *specs)
        return [u.name for u in b.views[Side.ATTACKER].side_units(Side.DEFENDER)]

    assert sorted(shown(LOOKALIKE, viper, wasp)) == [
        "Enemy VIPER-1 (D)", "Enemy VIPER-2 (D)", "Enemy WASP-1 (D)"]
    assert "VIPER-1 (D)" in shown(LOOKALIKE - 1, viper, wasp)  # as fought then
    anvil = UnitSpec("Anvil (D)", design("Medium", (), (), "VIPER"),
                     PilotSpec("Ana", "Regular", ()))
    sting = UnitSpec("Sting (D)", design("Light", (), (), "WASP"),
                     PilotSpec("Bo", "Green", ()))
    names = set(shown(LOOKALIKE, anvil, sting))
    decoy_name, = names - {"Anvil (D)", "Sting (D)"}
    assert decoy_name.removesuffix(" (D)") in DECOY_CALLSIGNS
    assert set(shown(LOOKALIKE, anvil, sting)) == names  # the same force, the same name
    everyone = {f"{name} (D)" for name in DECOY_CALLSIGNS}  # all taken: a number follows
    model = laid(LOOKALIKE, anvil).unit("D1")
    assert callsign_for(model, everyone).removesuffix(" (D)").rsplit("-", 1)[1] == "2"


# ---- Recon Drone ---------------------------------------------------------------------------------

def test_recon_drone_identifies_every_enemy_unit_in_one_zone_R4_3() -> None:
    b = apart(force(post(), support=("Recon Drone",)), force(post(), support=("Decoy",)),
              [*INIT], a_ctl=still(support=uses(("Recon Drone", 9))),
              d_ctl=still(setup_support=mined(9)), defender={"strongpoints": [{"zone": 9}]})
    assert texts(b, Kind.SUPPORT) == ["Attacker's Recon Drone over zone 9: Post, "
                                      "Strongpoint D2."]
    assert not b.unit("D3").on_map and b.unit("D2").detected
    assert {"D1", "D2"} <= b.known[Side.ATTACKER]


# ---- Repair Truck ------------------------------------------------------------------------------

def test_repair_truck_fully_repairs_one_mek_once_R4_3() -> None:
    def wreck(b: Battle) -> None:
        mek = b.unit("A1")
        mek.hits, mek.legs, mek.computers_turns = 3, 2, {1}
        mek.weapons[0].destroyed = mek.systems[0].destroyed = True

    b = apart(force(gun("Cannon", systems=["Jammer"]), support=("Repair Truck",)), post(),
              [*INIT], a_ctl=still(support=uses(("Repair Truck", "A1"))), prepare=wreck)
    mek = b.unit("A1")
    assert (mek.hits, mek.legs, mek.computers_turns) == (0, 0, set())
    assert not mek.weapons[0].destroyed and not mek.systems[0].destroyed
    assert texts(b, Kind.SUPPORT) == ["Repair Truck: Gun is fully repaired."]
    assert "Repair Truck" not in b.assets[Side.ATTACKER]


def test_repair_truck_repairs_meks_only_R4_3() -> None:
    with pytest.raises(BattleError, match="not a choice for the Repair Truck now"):
        apart(force(post(), support=("Repair Truck", "Gun Sled")), post(), [*INIT],
              a_ctl=still(support=uses(("Repair Truck", "A2"))),
              prepare=lambda b: setattr(b.unit("A2"), "hits", 1))


# ---- Digging In ----------------------------------------------------------------------------------

def test_digging_in_doubles_terrain_against_the_mek_while_it_stays_R4_3() -> None:
    b = exchange(gun("Cannon"), force(post(), support=("Digging In",)),
                 [*INIT, *TIE, 5], terrain="Woods",
                 defender_ctl=Scripted(movement=lambda b, s: {"D1": "dig"}))
    assert has_text(b, "Post digs in in zone 5.", Kind.SUPPORT)
    assert shot_texts(b) == ["Gun fires Cannon at Post: 5-2 vs 4+ [Woods doubled -2] - miss."]


def test_digging_in_ends_when_the_mek_moves_and_is_used_once_R4_3() -> None:
    moves = [{"D1": "dig"}, {"D1": 8}, {"D1": "dig"}]
    options: list[list[Any]] = []

    def movement(b: Any, side: Side) -> Any:
        options.append(b.move_options(b.unit("D1")))
        return moves[b.turn - 1] if b.turn < 3 else {}

    b = apart(post(), force(post(), support=("Digging In",)), [*INIT] * 3, turns=3,
              d_ctl=still(movement=movement))
    assert b.unit("D1").zone == 8 and b.unit("D1").dug_in_zone is None
    assert len(texts(b, Kind.SUPPORT)) == 1
    assert "dig" in options[0] and "dig" not in options[2]  # used once: no longer offered


# ---- Rich Uncle ----------------------------------------------------------------------------------

def test_rich_uncle_does_nothing_in_battle_R4_2() -> None:
    dice = [*INIT, *TIE, 4, 1, 3]
    plain = exchange(gun("Cannon"), post(), dice)
    rich = exchange(force(gun("Cannon"), support=("Rich Uncle",)), post(), dice)
    assert render(rich.log, rolls=True) == render(plain.log, rolls=True)
    assert rich.assets[Side.ATTACKER] == ("Rich Uncle",)  # never spent in battle


# ---- support units -------------------------------------------------------------------------------

def test_gun_sled_three_hits_ar_three_fast_with_a_rail_cannon_R4_4() -> None:
    b = exchange(support_unit("Gun Sled"), post(), [*INIT, 1, 3, 5, 6], band=Band.MEDIUM)
    sled = b.unit("A1")
    assert (sled.max_hits, sled.armor, str(sled.move)) == (3, 3, "1d6+2")
    assert texts(b, Kind.MOVEMENT_ROLL)[0] == "Gun Sled movement roll 1 -> 3 [move bonus +2]."
    assert shot_texts(b) == ["Gun Sled fires Rail Cannon at Post: 5+0 vs 5+ - hit."]


def test_support_unit_kills_are_recorded_for_no_pilot_R4_4_R2_5() -> None:
    b = exchange(support_unit("Gun Sled"), post(), [*INIT, 1, 3, 4, 1, 1, 2],
                 prepare=lambda b: setattr(b.unit("D1"), "hits", 4))
    sled = b.unit("A1")
    assert sled.mek_kills == 1 and sled.pilot is None


@pytest.mark.parametrize(("weapon", "text"), [
    ("Cannon", "Panzer armor save 3+1 vs 4+: saved."),
    ("Laser", "Panzer armor save 3+0 vs 4+: failed.")])
def test_panzer_armor_counts_as_space_lam_R4_4(weapon: str, text: str) -> None:
    b = exchange(gun(weapon), support_unit("Panzer"), [*INIT, *TIE, 6, 3,
                                                        *([] if weapon == "Cannon" else [1]),
                                                        1],   # the Panzer's Cannon misses
                 attacker_ctl=Scripted(fire=fire(weapon)))
    assert texts(b, Kind.SAVE) == [text]
    panzer = b.unit("D1")
    assert (panzer.max_hits, panzer.armor, [w.name for w in panzer.weapons]) == (2, 4,
                                                                                ["Cannon"])


def test_apc_squad_dismounts_as_a_strongpoint_in_the_apcs_zone_R4_4() -> None:
    b = apart(post(), force(support_unit("Mechanized Infantry")), [*INIT],
              d_ctl=still(dismount=lambda b, apc: True), d_zone=6)
    squad = b.unit("D1i")
    assert squad.zone == 6 and squad.is_infantry and not squad.mobile
    assert not b.unit("D1").carries_infantry
    assert texts(b, Kind.SUPPORT) == ["Mechanized Infantry's squad dismounts in zone 6."]


def test_apc_squad_fights_as_infantry_R4_4_R6_11() -> None:
    # The APC stops in the enemy's zone; the baseline gets the squad out; it attacks at
    # Short by rolling under the Post's armor.
    b = exchange(post(), support_unit("Mechanized Infantry"),
                 [*INIT, 3, 3, 3,   # movement: Post, the APC, the squad (1d6 each)
                  5,                # Post looks for the squad (6 needed)
                  1, 4])            # the squad's attack: 1 under AR 2, a hit; no critical
    assert has_text(b, "Mechanized Infantry's squad attack Post: 1 vs under 2 - hit.")
    assert b.unit("A1").hits == 1


def test_apc_has_one_squad_R4_4() -> None:
    b = apart(post(), force(support_unit("Mechanized Infantry")), [*INIT, *INIT], turns=2,
              d_ctl=still(dismount=lambda b, apc: True), d_zone=6)
    assert len(texts(b, Kind.SUPPORT)) == 1
    apc = b.unit("D1")
    assert (apc.max_hits, apc.armor, apc.weapons) == (1, 5, [])


def test_gunship_ignores_terrain_on_its_movement_roll_R4_4() -> None:
    b = exchange(support_unit("Gunship"), post(), [*INIT, 3, 4, 3, 1, 1], terrain="Urban",
                 band=Band.MEDIUM, attacker_ctl=Scripted([RangeChoice.STAY]))
    assert texts(b, Kind.MOVEMENT_ROLL) == ["Gunship movement roll 7 -> 7.",
                                            "Post movement roll 3 -> 1 [Urban -2]."]
    assert len(shot_texts(b)) == 2  # its Swarm Missile rolls two dice


def test_howitzer_battery_fires_a_howitzer_and_vehicles_never_overheat_R4_4() -> None:
    b = exchange(support_unit("Howitzer Battery"), post(), [*INIT, *TIE, 3],
                 terrain="Urban", band=Band.LONG)
    battery = b.unit("A1")
    assert shot_texts(b) == ["Howitzer Battery fires Howitzer at Post: 3+0 vs 4+ - miss."]
    assert texts(b, Kind.OVERHEAT) == [] and battery.heat == 0
    assert (battery.max_hits, battery.armor) == (2, 5)


def test_vehicles_take_no_heat_from_a_second_movement_R4_4_R5_4() -> None:
    b = apart(support_unit("Gun Sled"), post(), [*INIT],
              a_ctl=still(second_move=lambda b, s: {"A1": 2}))
    assert b.unit("A1").zone == 2 and b.unit("A1").carried_heat == 0


def commando_side(*units: Any) -> Any:
    return force(*units, support_unit("Commandos"))


def test_commandos_mark_an_enemy_for_plus_one_to_hit_R4_4() -> None:
    b = exchange(commando_side(gun("Cannon")), post(),
                 [*INIT, 3, 3, 3,   # movement: Gun, the Commandos, Post
                  1,                # Post looks for the Commandos (needs 6)
                  2],               # Gun's Cannon: 2+1, a miss
                 attacker_ctl=Scripted(commando=lambda b, u, e: ("mark", e[0])))
    assert texts(b, Kind.TARGET) == ["Commandos mark Post: +1 to hit it this turn."]
    assert shot_texts(b) == ["Gun fires Cannon at Post: 2+1 vs 4+ [Commandos +1] - miss."]


def test_a_mark_by_commandos_not_found_is_not_told_in_the_shot_R4_4_R8_1() -> None:
    """The target's side reads every enemy shot by whether it hit, not by the sum and
    modifiers: 'Commandos +1' would tell of Commandos it has not found, and a line told
    short only then would tell as much. The shooter's side, and the whole log, keep them."""
    b = exchange(commando_side(gun("Cannon")), post(), [*INIT, 3, 3, 3, 1, 2],
                 attacker_ctl=Scripted(commando=lambda b, u, e: ("mark", e[0])))
    full = "Gun fires Cannon at Post: 2+1 vs 4+ [Commandos +1] - miss."
    assert shot_texts(b) == [full]
    told = [e for e in b.views[Side.DEFENDER].events() if e.kind is Kind.MISS]
    assert [e.text for e in told] == ["Gun fires Cannon at Post - miss."]
    assert told[0].value is None  # (nor the roll as the event's number)
    assert full in [e.text for e in b.views[Side.ATTACKER].events()]
    commandos = next(u for u in b.units if u.commando)
    commandos.detected = True  # found or not, the same line
    assert [e.text for e in b.views[Side.DEFENDER].events() if e.kind is Kind.MISS] == [
        "Gun fires Cannon at Post - miss."]
    # a shot with no mark, and no Commandos in the battle, is told the same way
    plain = exchange(force(gun("Cannon")), post(), [*INIT, 3, 3, 2])
    assert [e.text for e in plain.views[Side.DEFENDER].events() if e.kind is Kind.MISS] == [
        "Gun fires Cannon at Post - miss."]


def test_commandos_identify_an_enemy_unit_a_decoy_vanishes_R4_4() -> None:
    # (at Long the defender's Basic sensors cannot find the Commandos: no die, R6.4)
    b = exchange(commando_side(post()), force(post(), support=("Decoy",)),
                 [*INIT, 3, 3, 3], band=Band.LONG,
                 attacker_ctl=Scripted(commando=lambda b, u, e: ("identify", e[-1])))
    assert texts(b, Kind.IDENTIFY) == ["Commandos find that Spur is a decoy."]
    assert not b.unit("D2").on_map


def test_commandos_cannot_be_attacked_until_detected_R4_4() -> None:
    b = exchange(gun("Cannon"), commando_side(),
                 [*INIT, 3, 3,   # movement: Gun, the Commandos
                  5],            # Gun looks for them: Basic sensors need a 6
                 defender_ctl=Scripted(commando=lambda b, u, e: None))
    assert shot_texts(b) == [] and texts(b, Kind.KILLS) == []
    assert texts(b, Kind.DETECT) == ["Gun does not find Commandos (5+0, needs 6)."]


def test_commandos_once_found_suffer_kills_and_morale_as_infantry_R4_4() -> None:
    b = exchange(gun("Cannon"), commando_side(), [*INIT, 3, 3, 6, 5, 2],
                 defender_ctl=Scripted(commando=lambda b, u, e: None))
    assert texts(b, Kind.KILLS) == ["Gun's Cannon against Commandos: 5+0 - 2 kills (2 in all)."]
    assert not b.unit("D1").alive


@pytest.mark.parametrize(("to", "moved"), [(5, True), (6, False)])
def test_commandos_move_one_zone_a_turn_R4_4(to: int, moved: bool) -> None:
    if not moved:
        with pytest.raises(BattleError, match="Commandos cannot make that move now"):
            apart(commando_side(), post(), [*INIT], a_zone=4,
                  a_ctl=still(movement=lambda b, s: {"A1": to}))
        return
    b = apart(commando_side(), post(), [*INIT], a_zone=4,
              a_ctl=still(movement=lambda b, s: {"A1": to}))
    assert b.unit("A1").zone == to


def test_support_fire_unit_rolls_are_named_for_the_support_R4_3() -> None:
    b = in_combat(("Support Fire",), [*INIT, 1, 3, 3],
                  uses(("Support Fire", "D2"), moment="combat"), prepare=known("D2"))
    assert rolls_for(b, "Support's Howitzer") == [1]


def test_baseline_repairs_its_most_damaged_mek_at_turn_start_R4_3() -> None:
    b = apart(force(post(), post(name="Hurt"), support=("Repair Truck",)), post(), [*INIT],
              a_ctl=still(), prepare=lambda b: setattr(b.unit("A2"), "hits", 2))
    assert b.unit("A2").hits == 0

