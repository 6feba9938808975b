"""Issue 15 item 2, an observation per side: each controller is given its side's view
(``meks.engine.view.SideView``) of what the rules let it know (R8.1, R4.3), the play screen
and its log show only that, and a controller's answer that is not one of the decision's legal
options is an error, never silently replaced."""

from __future__ import annotations

import io
from typing import Any

import pytest

from campaigns.files.scenarios import get_scenario
from meks.engine.controllers import Baseline
from meks.engine.core import Battle, BattleError, RangeChoice
from meks.engine.log import Kind, render
from meks.engine.recorded import Recorded, ReplayMismatch
from meks.engine.units import Unit
from meks.engine.values import UNIT_FIELDS, FrozenError, UnitView
from meks.engine.view import SideView
from meks.game.dice import Dice
from meks.game.vocabulary import Side
from tests.engine_helpers import (
    CATALOG,
    INIT,
    TIE,
    Scripted,
    Watched,
    battle,
    force,
    gun,
    map_scenario,
    post,
    start,
    told_id,
)

A, D = Side.ATTACKER, Side.DEFENDER


def still(**overrides: Any) -> Scripted:
    """A side that makes no zone moves unless told."""
    return Scripted(**{"movement": lambda b, side: {}, **overrides})


def apart(a_units: Any, d_units: Any, dice: list[int], a_ctl: Any = None, d_ctl: Any = None,
          a_zone: int = 1, d_zone: int = 9, **sides: Any) -> Battle:
    """Both sides set up apart (zone 1 and zone 9), nothing played yet."""
    a = a_units if hasattr(a_units, "units") else force(a_units)
    d = d_units if hasattr(d_units, "units") else force(d_units)
    return start(battle(map_scenario((a_zone,), (d_zone,), **sides), a, d, dice,
                        a_ctl or still(), d_ctl or still()))


def seen(view: SideView) -> list[object]:
    """Everything a controller can get from a view by asking it (every public attribute,
    every zone, both sides), and the public fields of every unit it returns."""
    out: list[object] = [view.units, view.state(), view.events(), view.mines,
                         dict(view.assets), dict(view.known), dict(view.identified),
                         dict(view.marked)]
    for side in Side:
        out.append(view.side_units(side))
        for zone in range(1, 10):
            out += [view.in_zone(zone, side), view.enemies_in(zone, side)]
    for name in dir(view):
        if not name.startswith("_"):
            out.append(getattr(view, name))
    units = [u for group in out if isinstance(group, list) for u in group
             if isinstance(u, Unit | UnitView)]
    for unit in units:
        out += [getattr(unit, f) for f in UNIT_FIELDS]
    return out + units


def reaches(view: SideView, thing: object) -> bool:
    return any(x is thing for x in seen(view))


# ---- what a side may know (R8.1) ---------------------------------------------------------------

def test_a_decoy_is_a_mek_contact_the_enemy_cannot_tell_from_a_mek_R8_1_R4_3() -> None:
    """The attacker sees the defender's Decoy as a Mek like the defender's own: same make,
    a unit id like any other, no decoy mark; the Decoy itself it never reaches."""
    b = apart(post(), force(post(name="Real"), support=("Decoy",)), [],
              d_ctl=still(setup_support=lambda b, side, asset: 9))
    fake = next(u for u in b.units if u.decoy)
    view = b.views[A]
    contact, real = view.unit(told_id(view, fake.id)), view.unit(told_id(view, "D1"))
    assert {contact.id, real.id} == {"C1", "C2"}  # (the side's own labels, revision 10)
    assert fake.id == "D2" and contact is not fake and not contact.decoy
    make = ("kind", "design", "size", "max_hits", "armor", "move", "points", "zone")
    assert [getattr(contact, f) for f in make] == [getattr(real, f) for f in make]
    # under a callsign of its own: from our list, as the copied one has no number (revision 17)
    assert (contact.name, real.name) == ("Rook", "Real")
    assert [w.weapon for w in contact.weapons] == [w.weapon for w in real.weapons]
    assert [s.system for s in contact.systems] == [s.system for s in real.systems]
    assert not any(u.decoy for u in view.units)
    assert not reaches(view, fake) and not reaches(view, b)
    assert "decoy" not in " ".join(e.text for e in view.events()).lower()
    # Its own side knows it for what it is.
    assert b.views[D].unit(fake.id).decoy


def test_the_controller_is_asked_about_the_contact_not_the_decoy_R8_1_R4_3() -> None:
    """Targets, fire plans and strikes offer the contact; answering with it aims at the Decoy
    (and the shot passes through, R4.3)."""
    offered: list[Unit] = []

    def targets(b: SideView, unit: Unit, candidates: list[Unit], limit: int) -> list[Unit]:
        offered.extend(candidates)
        return [b.unit("D2")]

    b = apart(gun("Missile"), force(post(), support=("Decoy",)), [*INIT, 3, 4],
              a_ctl=still(targets=targets, ranges=[RangeChoice.STAY]),
              d_ctl=still(setup_support=lambda b, side, asset: 2), a_zone=2, d_zone=9)
    b.play_turn()
    assert offered and not any(u.decoy for u in offered)
    assert "Attacker decides: Gun targets Spur" in [e.text for e in b.log]
    assert any(e.text == "The shot passes through Spur: nothing is there." for e in b.log)
    # The defender is told; the attacker's log shows only the hit.
    assert "The shot passes through Spur: nothing is there." not in [
        e.text for e in b.views[A].events()]


def test_a_hidden_mek_is_not_there_until_it_moves_R8_1_R4_3() -> None:
    b = apart(post(), force(post(name="Lurker"), support=("Hidden Mek",)), [*INIT],
              d_ctl=still(setup_support=lambda b, side, asset: "D1",
                          movement=lambda b, s: {"D1": 8} if b.turn == 1 else {}))
    view = b.views[A]
    lurker = b.unit("D1")
    assert lurker.hidden and view.find(told_id(view, "D1")) is None and view.in_zone(9) == []
    assert view.state().defender == () and not reaches(view, lurker)
    assert b.views[D].unit("D1").hidden  # its own side sees it
    b.play_turn()  # it moves: no longer hidden
    # (known to the attacker under its own label, revision 10)
    label = view.label(lurker)
    assert label == "C1" and view.unit(label).zone == 8
    assert [u.id for u in view.in_zone(8)] == [label]


def test_a_hidden_mek_is_not_there_until_it_fires_R8_1_R4_3() -> None:
    b = apart(post(), force(post(), support=("Hidden Mek",)), [*INIT, 1, 1, 1, 1],
              a_zone=5, d_zone=5, d_ctl=still(setup_support=lambda b, side, asset: "D1"))
    assert b.views[A].find(told_id(b.views[A], "D1")) is None
    b.unit("D1").hidden = False  # (what firing does, R4.3)
    assert b.views[A].find(told_id(b.views[A], "D1")) is not None


def test_a_minefield_zone_is_unknown_until_it_triggers_R8_1_R4_3() -> None:
    b = apart(post(), force(post(), support=("Minefield",)), [*INIT, 2],
              a_ctl=still(movement=lambda b, s: {"A1": 2}),
              d_ctl=still(setup_support=lambda b, side, asset: 2))
    attacker, defender = b.views[A], b.views[D]
    assert attacker.mines == [] and defender.mines == [2]
    laid = [e.text for e in attacker.events() if "minefield" in e.text]
    assert laid == ["Defender decides: a minefield is laid (hidden) in one zone"]
    assert not any("zone 2" in e.text for e in attacker.events())
    b.play_turn()  # the attacker's Mek walks into zone 2: the mines go off
    assert [e.text for e in attacker.events() if e.kind is Kind.MINE] == [
        "Post crosses the minefield unharmed (2)."]


def test_undetected_infantry_is_not_there_R8_1() -> None:
    b = apart(post(), force(post()), [*INIT], defender={"strongpoints": [{"zone": 9}]})
    squad = b.unit("D2")
    view = b.views[A]
    assert squad.kind.value == "infantry" and not squad.detected
    assert view.find(told_id(view, "D2")) is None
    assert [u.id for u in view.in_zone(9)] == [view.label(b.unit("D1"))] == ["C1"]
    assert not reaches(view, squad)
    assert not any("Strongpoint" in e.text for e in view.events())
    assert all(e.unit in (None, "A1", "C1") for e in view.events())
    squad.detected = True
    assert view.unit(told_id(view, "D2")).id == view.label(squad) == "C2"


def test_the_recon_drone_shows_what_was_hidden_R8_1_R4_3() -> None:
    b = apart(force(post(), support=("Recon Drone",)), force(post(), support=("Decoy",)),
              [*INIT], a_ctl=still(support=lambda b, side, at, zone:
                                   [("Recon Drone", 9)] if at == "turn start" else []),
              d_ctl=still(setup_support=lambda b, side, asset: 9),
              defender={"strongpoints": [{"zone": 9}]})
    view = b.views[A]
    post_, contact = view.label(b.unit("D1")), view.label(b.unit("D3"))
    assert {u.id for u in view.in_zone(9)} == {post_, contact}  # the Post and the contact
    b.play_turn()
    squad = view.label(b.unit("D2"))  # the decoy gone, the squad found
    assert {u.id for u in view.in_zone(9)} == {post_, squad} and squad not in (post_, contact)


def test_a_sides_records_follow_the_battle_and_cannot_be_changed_R8_1_R4_3() -> None:
    """A view hands out its side's records (assets, known, identified, targeted, marked) as
    the battle keeps them, with no copy made: the battle replaces a record when it changes
    and never changes one in place, so a record read earlier stays as it was read, a later
    read shows the change, and no record a view hands out can be changed."""
    b = apart(force(post(), support=("Recon Drone", "Air Strike")), force(post()),
              [*INIT, *INIT], a_ctl=still(support=lambda b, side, at, zone: [
                  ("Recon Drone", 9)] if at == "turn start" and "Recon Drone" in b.assets[side]
                  else []))
    view = b.views[A]
    assets, known, identified = view.assets[A], view.known[A], view.identified[A]
    assert assets == ("Recon Drone", "Air Strike") and not known and not identified
    b.play_turn()  # the drone IDs the Post in zone 9
    assert view.assets[A] == ("Air Strike",)
    post_ = view.label(b.unit("D1"))  # (the side's own label for it, revision 10)
    assert view.known[A] == view.identified[A] == {post_}
    assert assets == ("Recon Drone", "Air Strike") and not known and not identified
    assert b.views[D].assets[A] == () and b.views[D].known[A] == frozenset()  # not its own
    b.play_turn()  # a new turn: what was ID'd this turn is forgotten, what is known is not
    assert not view.identified[A] and view.known[A] == {post_}
    for name in ("targeted", "marked"):
        record = getattr(view, name)
        before = record[A]
        b.learn(getattr(b, name), A, ("D1",))
        assert not before and record[A] == {post_}
    for record in (view.assets, view.known, view.identified, view.targeted, view.marked):
        held = record[A]
        assert type(held) in (tuple, frozenset)
        for change in ("add", "update", "append", "extend", "remove", "discard", "clear"):
            assert not hasattr(held, change)
        with pytest.raises(TypeError):
            record[A] = held  # type: ignore[index]


# ---- the play screen and its log -------------------------------------------------------------

def terminal_text(b: Battle, side: Side) -> str:
    from rich.console import Console

    from cli.play import Terminal

    out = Console(file=io.StringIO(), width=100, color_system=None)
    terminal = Terminal(out, side)
    terminal.flush(b.views[side])
    return out.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def test_the_play_log_never_names_a_hidden_units_zone_R8_1() -> None:
    """The Hidden Mek's set-up line (its zone) and the decision to hide it stay out of the
    enemy's play screen, in its log and on its map; the full log keeps them."""
    b = apart(post(), force(post(), post(name="Lurker"), support=("Hidden Mek",)), [*INIT],
              d_ctl=still(setup_support=lambda b, side, asset: "D2"))
    b.play_turn()
    full = "\n".join(render(b.log, rolls=True))
    assert "Lurker (Lurker) sets up in zone 9." in full and "Lurker sets up hidden" in full
    attacker = terminal_text(b, A)
    assert "Lurker" not in attacker and "D2" not in attacker
    # The enemy's set-up lines are its own (their order would tell of what hid later,
    # issue 26); the Mek the attacker can see is on its map, as its first contact.
    assert "Post (Post) sets up in zone 9." not in attacker and "C1 Post 0/5" in attacker
    defender = terminal_text(b, D)
    assert "Lurker (Lurker) sets up in zone 9." in defender and "hidden" in defender


def test_the_play_screen_shows_a_decoy_as_the_mek_it_passes_for_R8_1_R4_3() -> None:
    b = apart(post(), force(post(name="Real"), support=("Decoy",)), [*INIT],
              d_ctl=still(setup_support=lambda b, side, asset: 8))
    b.play_turn()
    attacker = terminal_text(b, A)
    assert "sets up in zone 8" not in attacker and "decoy" not in attacker.lower()
    # Two contacts of one make, numbered by zone as the attacker met them (issue 26): the
    # decoy in zone 8 comes first, though the engine knows it as D2; it goes by a callsign
    # of its own, as one more Mek of the force would (revision 17).
    assert "C1 Rook 0/5" in attacker and "C2 Real 0/5" in attacker
    assert "the decoy in zone 8 shows as Rook" in terminal_text(b, D)


def test_the_play_screen_leaves_out_undetected_infantry_R8_1() -> None:
    b = apart(post(), force(post()), [*INIT], defender={"strongpoints": [{"zone": 9}]})
    b.play_turn()
    assert "Strongpoint" not in terminal_text(b, A)
    assert "Strongpoint D2" in terminal_text(b, D)


# ---- legal answers (issue 15) -----------------------------------------------------------------

ILLEGAL: dict[str, Any] = {
    "deploy": {"Z9": 1}, "setup_support": "nowhere", "move_first": "first",
    "movement": {"nobody": 1}, "second_move": {"nobody": 1}, "arrival_zone": 99,
    "jump": "yes", "range_choice": "closer", "targets": ["nobody"],
    "fire_plan": [("gun", "nobody")], "dodge": "yes", "support": [("Orbital Laser", 5)],
    "ambush": "nobody", "dismount": "yes", "commando": ("bomb", None),
    "hawkeye": "nobody", "reveal": "yes",
}


class Wrong(Baseline):
    """The baseline, but the first time ``decision`` is asked it answers ``ILLEGAL``."""

    def __init__(self, decision: str) -> None:
        self.decision = decision

    def __getattribute__(self, name: str) -> Any:
        if name == object.__getattribute__(self, "decision"):
            return lambda *args: ILLEGAL[name]
        return object.__getattribute__(self, name)


def busy_battle(controllers: dict[Side, Any], seed: int = 3) -> Battle:
    from tests.test_play import busy_forces

    return Battle(get_scenario("citadel"), busy_forces(), Dice.from_seed(seed), controllers,
                  CATALOG)


@pytest.mark.parametrize("decision", sorted(set(ILLEGAL) - {"reveal"}))
def test_an_illegal_answer_to_each_decision_raises_issue_15(decision: str) -> None:
    """Every kind of decision: an answer that is none of its legal options stops the battle
    with a BattleError naming the decision and the answer."""
    for seed in (3, 4, 5, 6):  # (a battle or two in which the decision comes up)
        for side in Side:
            controllers = {s: Baseline() for s in Side}
            controllers[side] = Wrong(decision)
            b = busy_battle(controllers, seed)
            try:
                b.run()
            except BattleError as error:
                assert f"'{decision}" in str(error)
                assert "not one of its legal options" in str(error)
                return
    pytest.fail(f"{decision} was never asked")


def test_an_illegal_answer_to_reveal_raises_issue_15() -> None:
    b = apart(post(), force(post(), support=("Hidden Mek",)), [*INIT, *TIE], a_zone=5,
              d_zone=5, d_ctl=still(setup_support=lambda b, side, asset: "D1",
                                    reveal=lambda b, unit: "yes"))
    with pytest.raises(BattleError, match="'reveal' on turn 1 \\('yes'\\)"):
        b.play_turn()


def test_the_terminal_offers_only_legal_moves_issue_15() -> None:
    b = apart(post(), force(post()), [], a_zone=5, d_zone=5)
    view = b.views[A]
    from rich.console import Console

    from cli.play import Terminal

    terminal = Terminal(Console(file=io.StringIO()), A)
    offered = [o.value for o in terminal._move_options(view, b.unit("A1"), False)]
    assert offered == view.move_options(b.unit("A1")) == [None]  # engaged: it may not leave


def test_a_recorded_decision_not_legal_on_replay_is_a_clear_error_issue_15() -> None:
    records: list[dict[str, Any]] = []
    controllers: dict[Side, Any] = {A: Recorded(Baseline(), records), D: Baseline()}
    busy_battle(controllers).run()
    index = next(i for i, r in enumerate(records) if r["ask"] == "movement")
    changed = [*records[:index], {**records[index], "value": {"A1": 99}}]  # no such zone
    with pytest.raises(ReplayMismatch, match=f"Recorded decision {index + 1} "
                       r"\('movement', turn \d+\) is not legal in this battle: "
                       r"\{'A1': 99\} is not one of its options"):
        busy_battle({A: Recorded(Baseline(), changed), D: Baseline()}).run()


# ---- controllers only read (issue 15 item 2) ---------------------------------------------------

@pytest.mark.parametrize("scenario_id", ["opening-shots", "at-the-hot-gates",
                                         "buying-us-some-time", "through-the-breach",
                                         "head-to-head", "citadel"])
def test_the_bot_and_the_baseline_change_nothing_they_are_shown_issue_15(
        scenario_id: str) -> None:
    """The view is read-only by what it offers (no method changes the battle); its units are
    the battle's own objects, so this holds our controllers to reading them: over whole
    battles of every scenario, with support, no answer of the bot or the baseline changes
    a unit, the log, the dice or what a side has found or used."""
    from meks.engine.bot.policy import Bot
    from meks.game.catalog import load_catalog
    from tests.battle_digests import force as digest_force

    catalog = load_catalog()
    scenario = get_scenario(scenario_id)
    for seed in (0, 1):
        bot_side = A if seed == 0 else D
        guards = {bot_side: Watched(Bot()), bot_side.enemy: Watched(Baseline())}
        forces = {side: digest_force(scenario, side, seed, catalog) for side in Side}
        b = Battle(scenario, forces, Dice.from_seed(seed), guards,  # type: ignore[arg-type]
                   catalog)
        for guard in guards.values():
            guard.battle = b
        b.run()
        assert b.verdict is not None and b.verdict.decided
        assert all(sum(guard.asked.values()) > 10 for guard in guards.values())


def test_the_stamp_counts_only_what_the_side_may_read_R8_1() -> None:
    """A side's ``stamp`` (what its controller may use to tell that something happened)
    moves only with events it may read: the other side's undetected infantry rolling for
    itself leaves it where it was, and ``events(stamp)`` gives exactly what came since."""
    b = apart(post(), force(post()), [*INIT], defender={"strongpoints": [{"zone": 9}]})
    squad = b.unit("D2")
    view, own = b.views[A], b.views[D]
    before, own_before = view.stamp, own.stamp
    assert view.stamp == len(view.events()) and own.stamp == len(own.events())
    b.d6(f"morale of {squad.name}")  # a die rolled for the hidden squad...
    b.note(Kind.MORALE, f"{squad.name} hold.", squad)  # ...and what came of it
    assert view.stamp == before and view.events(before) == []
    assert own.stamp == own_before + 2
    assert [e.text for e in own.events(own_before)][-1] == f"{squad.name} hold."
    b.note(Kind.NOTE, "Something both sides see.")
    assert view.stamp == before + 1
    assert [e.text for e in view.events(before)] == ["Something both sides see."]


# ---- observations are values (issue 26 item 2) ---------------------------------------------------

class Meddler(Baseline):
    """The baseline, but before every answer it tries to change everything it was handed or
    can get from its view: each unit's fields, its weapons, systems and pilot, the sets and
    lists inside it. Every attempt must fail; it counts the attempts and the failures."""

    def __init__(self) -> None:
        self.tried = 0
        self.refused = 0
        self.leaked: list[str] = []

    def meddle(self, battle: SideView, *handed: Any) -> None:
        things: list[Any] = [*battle.units, *(x for h in handed if isinstance(h, list)
                                               for x in h), *handed]
        for thing in things:
            if not isinstance(thing, UnitView):
                if isinstance(thing, Unit):
                    self.leaked.append(repr(thing))
                continue
            targets: list[tuple[Any, str, Any]] = [
                (thing, "hits", 0), (thing, "zone", 1), (thing, "hidden", False),
                (thing, "decoy", False), (thing, "moved", True), (thing, "heat", 0)]
            targets += [(w, "destroyed", True) for w in thing.weapons]
            targets += [(w, "fired", 9) for w in thing.weapons]
            targets += [(s, "destroyed", True) for s in thing.systems]
            if thing.pilot is not None:
                targets.append((thing.pilot, "wounded", True))
            for obj, name, value in targets:
                self.tried += 1
                try:
                    setattr(obj, name, value)
                except FrozenError:
                    self.refused += 1
            for box in (thing.turn_skills, thing.computers_turns, thing.weapons,
                        thing.pending):
                self.tried += 1
                if not hasattr(box, "add") and not hasattr(box, "append"):
                    self.refused += 1

    def movement(self, battle: SideView, side: Side) -> Any:
        self.meddle(battle)
        return super().movement(battle, side)

    def targets(self, battle: SideView, unit: Any, candidates: Any, limit: int) -> Any:
        self.meddle(battle, unit, candidates)
        return super().targets(battle, unit, candidates, limit)

    def fire_plan(self, battle: SideView, unit: Any, targets: Any, band: Any) -> Any:
        self.meddle(battle, unit, targets)
        return super().fire_plan(battle, unit, targets, band)

    def deploy(self, battle: SideView, side: Side, units: Any) -> Any:
        self.meddle(battle, list(units))
        return super().deploy(battle, side, units)


@pytest.mark.parametrize("scenario_id", ["opening-shots", "at-the-hot-gates", "citadel"])
def test_a_controller_cannot_change_what_its_view_hands_out_issue_26(scenario_id: str) -> None:
    """Issue 26 item 2: a view hands out values, not the engine's units. A controller that
    tries to change every unit, weapon, system and pilot it is handed (or finds in its view)
    is refused every time, is never handed an engine unit, and fights exactly the battle the
    plain baseline fights: the same log, digest for digest."""
    from meks.engine.log import digest
    from meks.game.catalog import load_catalog
    from tests.battle_digests import force as digest_force

    catalog = load_catalog()
    scenario = get_scenario(scenario_id)
    forces = {side: digest_force(scenario, side, 3, catalog) for side in Side}
    meddlers = {side: Meddler() for side in Side}
    meddled = Battle(scenario, forces, Dice.from_seed(3), dict(meddlers), catalog)
    meddled.run()
    plain = Battle(scenario, forces, Dice.from_seed(3), {s: Baseline() for s in Side}, catalog)
    plain.run()
    for m in meddlers.values():
        assert m.tried > 100 and m.refused == m.tried and not m.leaked
    assert digest(meddled.log) == digest(plain.log)


def test_a_value_is_the_unit_as_it_was_when_handed_out_issue_26() -> None:
    """A value does not follow the battle: the unit's value read before a hit keeps the Hits
    it had; the view's next value shows the hit. Every field of the engine's unit is
    copied (the list is kept in step with the dataclass)."""
    import dataclasses

    assert tuple(f.name for f in dataclasses.fields(Unit)) == UNIT_FIELDS
    b = apart(post(), post(), [])
    view = b.views[D]
    before = view.unit("D1")
    b.unit("D1").hits += 1
    assert before.hits == 0 and view.unit("D1").hits == 1
    with pytest.raises(FrozenError):
        before.hits = 5  # type: ignore[misc]
    with pytest.raises(FrozenError):
        del before.zone  # type: ignore[misc]
    assert b.unit("D1").hits == 1
    # Field for field what the unit holds (its containers as frozen copies).
    unit, value = b.unit("D1"), view.unit("D1")
    for name in UNIT_FIELDS:
        held, copied = getattr(unit, name), getattr(value, name)
        if name == "weapons":
            assert [(w.weapon, w.destroyed, w.fired, i) for i, w in enumerate(held)] == [
                (w.weapon, w.destroyed, w.fired, w.index) for w in copied]
        elif name == "systems":
            assert [(s.system, s.destroyed) for s in held] == [
                (s.system, s.destroyed) for s in copied]
        elif name == "pilot":
            assert held is not None and copied is not None
            for part in ("name", "level", "skills", "familiarity", "wounded", "dead"):
                assert getattr(copied, part) == getattr(held, part), part
        else:
            assert copied == held or (tuple(held) == copied), name
