"""`meks battle play | resume`: recorded decisions, saved plays, and the terminal controller,
down to a real pseudo-terminal (issue 6: interactive battles)."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cli.app import app
from meks.engine.bot.policy import Bot
from meks.engine.controllers import Baseline, Controller
from meks.engine.core import Battle, RangeChoice
from meks.engine.decisions import Retreat
from meks.engine.log import digest
from meks.engine.recorded import Recorded, ReplayMismatch
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.engine.values import SlotView, UnitView
from meks.game.catalog import Band, load_catalog
from meks.game.dice import Dice
from meks.game.vocabulary import Edge, Side
from tests.engine_helpers import told_id
from tests.test_battle_cli import BLUE, RED

CATALOG = load_catalog()
PROMPT = r"Choice \(q quits\) \[[^\]]*\]: "


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "red.yaml").write_text(RED)
    (tmp_path / "blue.yaml").write_text(BLUE)
    return str(tmp_path / "red.yaml"), str(tmp_path / "blue.yaml")


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result.stdout if code == 0 else result.stderr


# ---- the Recorded wrapper ----------------------------------------------------------------------

def mek(design: str, pilot: str, level: str = "Regular", skills: tuple[str, ...] = ()
        ) -> UnitSpec:
    d = CATALOG.design(design)
    return UnitSpec(pilot, d, PilotSpec(pilot, level, skills), points=d.price or 0)


def busy_forces() -> dict[Side, ForceSpec]:
    """Forces that between them make nearly every kind of decision."""
    return {
        Side.ATTACKER: ForceSpec((
            mek("SABER", "Ana", "Veteran", ("Agility", "Gunnery")),
            mek("THOR", "Bo", "Regular", ("Hawkeye",)),
            mek("WARTHOG", "Cy", "Green")),
            ("Ambush", "Support Fire", "Minefield", "Decoy", "Repair Truck", "Commandos",
             "Mechanized Infantry", "Gun Sled"), "Red"),
        Side.DEFENDER: ForceSpec((
            mek("DRAKEN", "Dee", "Regular", ("Quick Draw",)),
            mek("ODIN", "Eve", "Elite", ("Agility",)),
            mek("SAGITARII", "Fay")),
            ("Air Strike", "Hidden Mek", "Battle Damage", "Recon Drone", "Digging In",
             "Gunship", "Panzer"), "Blue"),
    }


def fight_with(scenario_id: str, seed: int,
               wrap: Callable[[Side], Controller]) -> Battle:
    from campaigns.files.scenarios import get_scenario

    battle = Battle(get_scenario(scenario_id), busy_forces(), Dice.from_seed(seed),
                    {side: wrap(side) for side in Side}, CATALOG)
    battle.run()
    return battle


class Refuse:
    """An inner controller that must never be asked (everything is replayed)."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the inner controller was asked {name!r} during a replay")


SCENARIOS = ["opening-shots", "at-the-hot-gates", "buying-us-some-time", "through-the-breach",
             "head-to-head", "citadel"]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_recorded_decisions_replay_to_the_same_battle(scenario_id: str, seed: int) -> None:
    plain = fight_with(scenario_id, seed, lambda side: Baseline())
    records: dict[Side, list[dict[str, Any]]] = {Side.ATTACKER: [], Side.DEFENDER: []}
    saved: dict[Side, list[int]] = {Side.ATTACKER: [], Side.DEFENDER: []}
    recorded = fight_with(scenario_id, seed, lambda side: Recorded(
        Baseline(), records[side], lambda i, data, side=side: saved[side].append(i)))
    assert digest(recorded.log) == digest(plain.log)
    for side in Side:
        assert records[side] and saved[side] == list(range(len(records[side])))
    # Through JSON, as the database keeps them, with an inner controller never asked.
    stored = {s: json.loads(json.dumps(r)) for s, r in records.items()}
    replayed = fight_with(scenario_id, seed,
                          lambda side: Recorded(Refuse(), stored[side]))  # type: ignore[arg-type]
    assert digest(replayed.log) == digest(plain.log)


def test_a_partial_record_replays_then_asks_the_inner_controller() -> None:
    records: list[dict[str, Any]] = []
    full = fight_with("head-to-head", 3, lambda side: Recorded(Baseline(), records)
                      if side is Side.ATTACKER else Baseline())
    half = records[: len(records) // 2]
    asked: list[int] = []
    again = fight_with("head-to-head", 3, lambda side: Recorded(
        Baseline(), list(half), lambda i, _: asked.append(i))
        if side is Side.ATTACKER else Baseline())
    assert digest(again.log) == digest(full.log)
    assert asked == list(range(len(half), len(records)))


def test_a_record_that_does_not_fit_the_battle_is_refused() -> None:
    records: list[dict[str, Any]] = []
    fight_with("opening-shots", 4, lambda side: Recorded(Baseline(), records)
               if side is Side.ATTACKER else Baseline())
    for i, entry in enumerate(records):
        if entry["ask"] == "movement":
            records[i] = {**entry, "ask": "jump"}
            break
    with pytest.raises(ReplayMismatch, match="does not fit"):
        fight_with("opening-shots", 4, lambda side: Recorded(Baseline(), records)
                   if side is Side.ATTACKER else Baseline())
    records[i] = {**entry, "value": {"A1": "nowhere", "A2": {"edge": "up"}}}
    with pytest.raises(ReplayMismatch, match="cannot be used"):
        fight_with("opening-shots", 4, lambda side: Recorded(Baseline(), records)
                   if side is Side.ATTACKER else Baseline())


def protocol_methods() -> set[str]:
    # vars() and callable(), not inspect.isfunction: a compiled engine's methods are not
    # Python functions.
    return {name for name, value in vars(Controller).items()
            if not name.startswith("_") and callable(value)}


def test_every_decision_of_the_protocol_is_recorded_and_asked() -> None:
    from cli.play import Terminal

    assert protocol_methods() <= {n for n in dir(Recorded) if not n.startswith("_")}
    assert protocol_methods() <= {n for n in dir(Terminal) if not n.startswith("_")}


class Answers:
    """An inner controller that gives a fixed answer of every type."""

    def __init__(self, battle: Battle) -> None:
        # What a controller holds: the attacker's view's values, during one question (so
        # that a replayed answer, found in the view, is the very value handed out).
        b = battle.views[Side.ATTACKER]
        b.asking()
        # the enemy's units by the labels the attacker knows them under (R8.1)
        d1, d2 = told_id(b, "D1"), told_id(b, "D2")
        self.a1, self.d1 = b.unit("A1"), b.unit(d1)
        self.slot = self.a1.weapons[-1]
        self.values: dict[str, Any] = {
            "deploy": {"A1": 7, "A2": 8}, "setup_support": d2, "move_first": True,
            "movement": {"A1": 4, "A2": Edge.NORTH, "A3": "dig", "A4": None},
            "second_move": {"A1": Edge.WEST}, "arrival_zone": 9, "jump": True,
            "range_choice": RangeChoice.CLOSE_TWO, "targets": [self.d1, b.unit(d2)],
            "fire_plan": [(self.slot, self.d1), (self.a1.weapons[0], b.unit(d2))],
            "dodge": False, "support": [("Recon Drone", 5), ("Support Fire", d1),
                                        ("Repair Truck", None)],
            "ambush": "A1", "dismount": True, "reveal": False,
            "commando": ("mark", self.d1), "hawkeye": self.d1,
            "bail_out": True, "withdrawal": Retreat.OVERRUN, "withdraw": 6,
        }

    def __getattr__(self, name: str) -> Any:
        return lambda *args: self.values[name]


def test_every_decision_type_survives_json() -> None:
    from campaigns.files.scenarios import get_scenario

    battle = Battle(get_scenario("opening-shots"), busy_forces(), Dice.from_seed(1),
                    {s: Baseline() for s in Side}, CATALOG)
    battle.setup()
    answers = Answers(battle)
    a1, d1 = answers.a1, answers.d1
    args: dict[str, tuple[Any, ...]] = {
        "deploy": (Side.ATTACKER, []), "setup_support": (Side.ATTACKER, "Hidden Mek"),
        "move_first": (Side.ATTACKER,), "movement": (Side.ATTACKER,),
        "second_move": (Side.ATTACKER,), "arrival_zone": (a1, [8, 9]), "jump": (a1,),
        "range_choice": (5, Side.ATTACKER, list(RangeChoice)), "targets": (a1, [d1], 2),
        "fire_plan": (a1, [d1], Band.SHORT), "dodge": (a1, answers.slot.weapon, 2),
        "support": (Side.ATTACKER, "combat", 5), "ambush": (Side.ATTACKER, 5),
        "dismount": (a1,), "reveal": (a1,), "commando": (a1, [d1]), "hawkeye": (a1, [d1]),
        "bail_out": (a1,), "withdrawal": (Side.ATTACKER, list(Retreat)),
        "withdraw": (a1, [4, 6]),
    }
    assert set(args) == protocol_methods()
    record: list[dict[str, Any]] = []
    live = Recorded(answers, record)  # type: ignore[arg-type]
    view = battle.views[Side.ATTACKER]
    first = {name: getattr(live, name)(view, *a) for name, a in args.items()}
    stored = json.loads(json.dumps(record))
    replay = Recorded(Refuse(), stored)  # type: ignore[arg-type]
    second = {name: getattr(replay, name)(view, *a) for name, a in args.items()}
    assert not replay.replaying
    for name, value in answers.values.items():
        assert first[name] == value == second[name], name
    for (slot, target), (slot2, target2) in zip(first["fire_plan"], second["fire_plan"],
                                                strict=True):
        assert slot is slot2 and target is target2 and isinstance(slot, SlotView)
    assert all(isinstance(u, UnitView) for u in second["targets"])
    assert stored[[r["ask"] for r in stored].index("fire_plan")]["value"] == [
        [len(a1.weapons) - 1, told_id(view, "D1")], [0, told_id(view, "D2")]]
    assert stored[[r["ask"] for r in stored].index("range_choice")]["value"] == "CLOSE_TWO"


# ---- plays: saved, resumed, finished ----------------------------------------------------------

def enter_always(text: str, default: str) -> str:
    return default


class StopAfter:
    """Answers like Enter, then quits (or fails) at the n-th question."""

    def __init__(self, n: int, error: type[BaseException] | None = None) -> None:
        self.n, self.asked, self.error = n, 0, error

    def __call__(self, text: str, default: str) -> str:
        self.asked += 1
        if self.asked > self.n:
            if self.error is not None:
                raise self.error("a bug in the middle of a battle")
            return "q"
        return default


def console() -> Any:
    from rich.console import Console

    return Console(file=io.StringIO(), width=100, no_color=True)


def saver(play_id: int) -> Callable[[int, dict[str, Any]], None]:
    from campaigns.play import append_decision
    from cli.state import session

    def save(index: int, data: dict[str, Any]) -> None:
        with session() as s:
            append_decision(s, play_id, index, data)
    return save


def auto_digest(runner: CliRunner, red: str, blue: str, seed: int) -> str:
    out = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue, "--seed",
              str(seed), "--json")
    return str(json.loads(out)["log_digest"])


@pytest.mark.parametrize("side", [Side.ATTACKER, Side.DEFENDER])
def test_enter_everywhere_plays_the_bot(runner: CliRunner, files: tuple[str, str],
                                        side: Side) -> None:
    """Issue 16 item 1: the play screen suggests the bot's own answers and asking changes
    nothing, so Enter at every prompt fights the battle 'battle auto' fights (the bot on
    both sides, by default), die for die."""
    from campaigns.play import finish, start
    from cli.play_run import run as play
    from cli.state import session

    red, blue = files
    for seed in (5, 6, 7):
        with session() as s:
            state = start(s, "opening-shots", side, red, blue, seed=seed)
        battle = play(state, console(), saver(state.id), enter_always)
        assert digest(battle.log) == auto_digest(runner, red, blue, seed)
        with session() as s:
            data = finish(s, state.id, battle)
        assert data["battle_id"] is None and data["log_digest"] == digest(battle.log)


def test_quit_or_crash_then_resume_continues_exactly(runner: CliRunner,
                                                    files: tuple[str, str]) -> None:
    from campaigns.company import Refused
    from campaigns.play import finish, load, start
    from cli.play_run import run as play
    from cli.prompts import Quit
    from cli.state import session

    red, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, red, blue, seed=8)
    with pytest.raises(Quit):
        play(state, console(), saver(state.id), StopAfter(4))
    with session() as s:
        state = load(s, state.id)
    made = len(state.decisions)
    assert made >= 2
    with pytest.raises(RuntimeError):
        play(state, console(), saver(state.id), StopAfter(6, RuntimeError))
    with session() as s:
        state = load(s, state.id)
    assert len(state.decisions) > made  # what was decided before the crash is kept
    out = console()
    battle = play(state, out, saver(state.id), enter_always)
    assert "Resumed:" in out.file.getvalue()
    assert digest(battle.log) == auto_digest(runner, red, blue, 8)
    with session() as s:
        finish(s, state.id, battle)
    with session() as s, pytest.raises(Refused, match="over"):
        load(s, state.id)


def test_quitting_inside_a_decision_of_several_units_says_its_answers_are_asked_again(
        files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    """A decision that covers several units (the movement orders) is saved once all its
    units are answered. Quitting after answering some of them says so, and the resumed
    battle asks that decision again from its first unit."""
    from campaigns.play import load, start
    from cli.play_run import play_to_end
    from cli.state import session

    red, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, red, blue, seed=8)
    shown: list[str] = []

    def movement_titles() -> list[str]:
        shown.append(capsys.readouterr().out)
        return [line.strip() for line in "".join(shown).splitlines()
                if line.startswith("Movement:")]

    def second_unit_quits(text: str, default: str) -> str:
        return "q" if len(movement_titles()) == 2 else default

    with pytest.raises(typer.Exit):
        play_to_end(state, auto_skills=True, ask=second_unit_quits)
    first, second = movement_titles()
    assert first != second  # two units of one decision
    said = " ".join("".join(shown).split())
    assert "The 1 answer already given to the decision in progress will be asked again." \
        in said
    with session() as s:
        state = load(s, state.id)
    saved = len(state.decisions)
    shown.clear()
    with pytest.raises(typer.Exit):
        play_to_end(state, auto_skills=True,
                    ask=lambda text, default: "q" if movement_titles() else default)
    assert movement_titles()[0] == first  # asked again from its first unit
    assert "will be asked again" not in " ".join("".join(shown).split())
    with session() as s:
        assert len(load(s, state.id).decisions) == saved


@pytest.fixture
def wolves(runner: CliRunner) -> str:
    run(runner, "company", "create", "Wolves")
    for design, pilot, regular in (("VIPER", "Ana", True), ("WASP", "Bo", False),
                                   ("WASP", "Cy", False)):
        callsign = json.loads(run(runner, "mek", "buy", "Wolves", design, "--json"))["callsign"]
        run(runner, "pilot", "hire", "Wolves", pilot, *(["--regular"] if regular else []))
        run(runner, "pilot", "assign", "Wolves", pilot, callsign)
    run(runner, "muster", "Wolves", "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    return "Wolves"


def test_a_company_play_is_stored_like_battle_auto(runner: CliRunner, wolves: str,
                                                   files: tuple[str, str]) -> None:
    from campaigns.company import Refused
    from campaigns.play import finish, start
    from cli.play_run import run as play
    from cli.state import session

    _, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=11)
    with session() as s, pytest.raises(Refused, match="in play"):
        start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=11)
    battle = play(state, console(), saver(state.id), enter_always)
    with session() as s:
        data = finish(s, state.id, battle)
    assert isinstance(data["battle_id"], int) and data["reports"]["attacker"]
    shown = json.loads(run(runner, "battle", "show", str(data["battle_id"]), "--json"))
    assert shown["log_digest"] == data["log_digest"] == digest(battle.log)
    view = json.loads(run(runner, "company", "show", wolves, "--json"))
    assert view["last_muster"]["recorded"]
    assert all(p["scenarios"] == 1 for p in view["pilots"] if p["status"] != "dead")
    assert json.loads(run(runner, "company", "history", wolves, "--json"))[0]["command"] \
        == "battle"


def test_play_needs_a_terminal_and_resume_an_id(runner: CliRunner,
                                               files: tuple[str, str]) -> None:
    red, blue = files
    err = run(runner, "battle", "play", "opening-shots", "--side", "attacker", "-a", red,
              "-d", blue, code=1)
    assert "needs a terminal" in err and "battle auto" in err
    err = run(runner, "battle", "play", "opening-shots", "--side", "middle", "-a", red,
              "-d", blue, code=2)
    assert "attacker or defender" in err
    run(runner, "battle", "resume", "99", code=1)


# ---- end to end, through a real pseudo-terminal ------------------------------------------------

def spawn(db: Path, *args: str, columns: int = 100) -> Any:
    pexpect = pytest.importorskip("pexpect")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "MEKS_DB")}
    env.update(NO_COLOR="1", COLUMNS=str(columns), LINES="50", PYTHONIOENCODING="utf-8")
    return pexpect.spawn(sys.executable, ["-m", "cli", "--db", str(db), "battle", *args],
                         env=env, encoding="utf-8", timeout=60, dimensions=(50, columns),
                         cwd=str(Path(__file__).resolve().parent.parent))


def test_play_quit_and_resume_through_a_terminal(runner: CliRunner, files: tuple[str, str],
                                                 tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    red, blue = files
    db = tmp_path / "play.db"
    child = spawn(db, "play", "opening-shots", "--side", "attacker", "--attacker", red,
                  "--defender", blue, "--seed", "5", "--controller", "bot")
    child.expect(r"Play (\d+): Opening Shots")
    play_id = child.match.group(1)
    child.expect("You command the attacker")
    for _ in range(6):
        child.expect(PROMPT)
        child.sendline("")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"meks battle resume (\d+)")
    assert child.match.group(1) == play_id
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    child = spawn(db, "resume", play_id)
    child.expect(r"replaying (\d+) recorded decisions")
    recorded = int(child.match.group(1))
    assert recorded >= 2  # a movement decision asks once for each unit
    child.expect(f"Resumed: {recorded} recorded decisions replayed")
    prompts = 0
    while True:
        index = child.expect([PROMPT, r"Result: (\w+) .* digest ([0-9a-f]{16})"])
        if index == 1:
            winner, short = child.match.group(1), child.match.group(2)
            break
        prompts += 1
        child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and prompts > 0
    # Enter always takes the bot's answer: the battle is the one 'battle auto' fights.
    auto = json.loads(run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                          "--seed", "5", "--json"))
    assert short == auto["log_digest"][:16] and winner == auto["winner"]
    from db.engine import transaction
    from db.models import Play

    with transaction(str(db)) as s:
        row = s.get(Play, int(play_id))
        assert row is not None and row.status == "finished"
        assert row.digest == auto["log_digest"]
        assert len(json.loads(row.decisions)) >= recorded + prompts
    child = spawn(db, "resume", play_id)
    child.expect("is over")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_map_and_odds_are_shown(files: tuple[str, str]) -> None:
    from campaigns.play import start
    from cli.play_run import run as play
    from cli.state import session

    red, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, red, blue, seed=7)
    out = console()
    play(state, out, lambda i, d: None, enter_always)
    text = out.file.getvalue()
    assert re.search(r"Turn 1 - you are the attacker", text)
    assert "1 Plains" in text and "3 Urban" in text and "7 Moors" in text
    assert re.search(r"A1 VIPER-1 \(A\) \d/3", text)
    assert re.search(r"combat at (short|medium|long) range", text)
    assert re.search(r"\d+% to hit, \d\.\d\d hits after the save", text)
    assert re.search(r"heat \+\d -> \d+/\d+, (no overheat risk|overheat risk \d+%)", text)
    assert "Your weapons in range" in text and "die for attacker initiative" in text


class FirstChoice:
    """Always the first option (not what the bot does), quitting at the n-th question if
    asked to."""

    def __init__(self, quit_at: int | None = None) -> None:
        self.quit_at, self.asked = quit_at, 0

    def __call__(self, text: str, default: str) -> str:
        self.asked += 1
        return "q" if self.asked == self.quit_at else "1"


@pytest.mark.parametrize("quit_at", [1, 9, 25])
def test_other_answers_resume_to_the_same_battle(files: tuple[str, str], quit_at: int) -> None:
    from campaigns.play import load, start
    from cli.play_run import run as play
    from cli.prompts import Quit
    from cli.state import session

    red, blue = files
    with session() as s:
        whole = start(s, "opening-shots", Side.ATTACKER, red, blue, seed=21)
        split = start(s, "opening-shots", Side.ATTACKER, red, blue, seed=21)
    one_go = play(whole, console(), saver(whole.id), FirstChoice())
    from campaigns.battles import fight

    assert digest(one_go.log) != fight(None, "opening-shots", red, blue,
                                       Dice.from_seed(21)).digest  # not the bot's
    with pytest.raises(Quit):
        play(split, console(), saver(split.id), FirstChoice(quit_at))
    with session() as s:
        split = load(s, split.id)
    resumed = play(split, console(), saver(split.id), FirstChoice())
    assert digest(resumed.log) == digest(one_go.log)
    with session() as s:
        assert load(s, split.id).decisions == load(s, whole.id).decisions


def first_difference(mine: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> int | None:
    return next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
                None if len(mine) == len(theirs) else min(len(mine), len(theirs)))


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_enter_takes_the_bots_answer_to_every_kind_of_question(scenario_id: str) -> None:
    """Issue 16 item 1: busy forces (support of every kind, skills, jump jets, infantry,
    vehicles) in every scenario, against the bot and the baseline: each suggestion is the
    answer the bot gives for the player's side, asked through that side's view, decision
    by decision; and Enter everywhere fights the battle the bot fights on that side. The
    one exception allowed: a target the bot picks that the unit has no chance to hit while
    another can be hit is not suggested (then the rest of the battle may differ)."""
    from campaigns.files.scenarios import get_scenario
    from campaigns.play import PlayState
    from cli.play_run import run as play

    scenario = get_scenario(scenario_id)
    for seed, side, opponent in ((1, Side.ATTACKER, "bot"), (2, Side.DEFENDER, "baseline")):
        state = PlayState(1, scenario, busy_forces(), {s: s.value for s in Side}, side, seed,
                          opponent)
        advised: list[dict[str, Any]] = []  # the bot's answers, recorded as the play's are
        out = console()
        played = play(state, out, lambda i, d: None, enter_always,
                      Recorded(Bot(), advised))  # type: ignore[arg-type]
        assert len(advised) == len(state.decisions)  # asked once for every decision
        differs = first_difference(state.decisions, advised)
        if differs is None:
            bots = {side} if opponent == "baseline" else set(Side)
            plain = fight_with(scenario_id, seed,
                               lambda s, bots=bots: Bot() if s in bots else Baseline())
            assert digest(played.log) == digest(plain.log)
        else:
            mine, bots = state.decisions[differs], advised[differs]
            assert mine["ask"] == bots["ask"] == "targets", (mine, bots)
            assert set(mine["value"]) < set(bots["value"])
        assert "<- suggested" in out.file.getvalue()
        assert "The end, after turn" in out.file.getvalue()


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_enter_everywhere_with_stock_forces_fights_battle_auto(scenario_id: str) -> None:
    """Issue 16 item 1: with the bot's own musters on both sides (Meks and pilots, as a
    campaign fields them), Enter at every prompt of either side fights exactly the battle
    'battle auto' fights with the bot on both sides: asking for suggestions rolls no die
    and changes nothing."""
    from campaigns.battles import Participant, both, distinct_names, fight_sides
    from campaigns.files.scenarios import get_scenario
    from campaigns.odds import bot_force
    from campaigns.play import PlayState
    from cli.play_run import run as play

    scenario = get_scenario(scenario_id)
    sides = {s: Participant(bot_force(scenario, s, CATALOG)) for s in Side}
    distinct_names(sides)  # as a play and 'battle auto' name them
    forces = {s: p.force for s, p in sides.items()}
    for seed, side in ((3, Side.ATTACKER), (4, Side.DEFENDER)):
        state = PlayState(1, scenario, dict(forces), {s: s.value for s in Side}, side, seed,
                          "bot")
        played = play(state, console(), lambda i, d: None, enter_always)
        auto = fight_sides(scenario, sides, Dice.from_seed(seed), controllers=both("bot"))
        assert digest(played.log) == auto.digest


class Watched:
    """An advisor that checks that answering changes nothing in the battle: the same log,
    the same dice rolled, the same units (hits, heat, zone, weapons fired)."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self.battle: Battle | None = None
        self.asked = 0

    def snapshot(self) -> Any:
        assert self.battle is not None
        b = self.battle
        return (len(b.log), len(b.dice.log), [(u.id, u.zone, u.hits, u.heat, u.moved,
                                               [w.fired for w in u.weapons]) for u in b.units])

    def __getattr__(self, name: str) -> Any:
        answer = getattr(self.inner, name)

        def ask(*args: Any) -> Any:
            before = self.snapshot()
            value = answer(*args)
            assert self.snapshot() == before, name
            self.asked += 1
            return value
        return ask


def test_asking_the_bot_for_a_suggestion_rolls_no_die_and_changes_nothing() -> None:
    """Issue 16 item 1: every suggestion the play screen asks of the bot leaves the battle
    exactly as it was (no die rolled, no event logged, no unit changed)."""
    from campaigns.files.scenarios import get_scenario
    from cli.play import Terminal

    for scenario_id, side in (("opening-shots", Side.ATTACKER), ("citadel", Side.DEFENDER)):
        watched = Watched(Bot())
        terminal = Terminal(console(), side, enter_always, watched)  # type: ignore[arg-type]
        battle = Battle(get_scenario(scenario_id), busy_forces(), Dice.from_seed(5),
                        {side: terminal, side.enemy: Bot()}, CATALOG)
        watched.battle = battle
        battle.run()
        assert watched.asked > 20


class Checked(Bot):
    """The bot as the play screen's advisor, checking each movement it suggests: no lone
    Light Mek ordered into a zone holding three or more enemies (no friend there or
    ordered there with it)."""

    moves = 0

    def movement(self, battle: Any, side: Side) -> dict[str, Any]:
        return self.check(battle, side, super().movement(battle, side))

    def second_move(self, battle: Any, side: Side) -> dict[str, Any]:
        return self.check(battle, side, super().second_move(battle, side))

    def check(self, battle: Any, side: Side, orders: dict[str, Any]) -> dict[str, Any]:
        from meks.game.catalog import Size

        for uid, where in orders.items():
            if not isinstance(where, int):
                continue
            unit = battle.unit(uid)
            friends = [u for u in battle.in_zone(where, side) if not u.decoy] + [
                o for o, w in orders.items() if w == where and o != uid]
            if unit.size is Size.LIGHT and not friends:
                assert len(battle.enemies_in(where, side)) < 3, (unit, where)
            Checked.moves += 1
        return orders


def test_no_suggested_target_it_cannot_hit_and_no_lone_light_mek_into_three_enemies() -> None:
    """Issue 16 item 1: the play screen never suggests a target the unit has no chance to
    hit (or kill), and never walks a lone Light Mek into a zone holding three or more
    enemies: over busy and stock forces in every scenario, from either side."""
    from campaigns.files.scenarios import get_scenario
    from campaigns.odds import bot_force
    from cli.play import Terminal, _best_chance

    targets = 0
    Checked.moves = 0
    for scenario_id in SCENARIOS:
        scenario = get_scenario(scenario_id)
        stock = {s: bot_force(scenario, s, CATALOG) for s in Side}
        for seed, side, forces in ((1, Side.ATTACKER, busy_forces()),
                                   (2, Side.DEFENDER, busy_forces()),
                                   (3, Side.ATTACKER, stock), (4, Side.DEFENDER, stock)):
            terminal = Terminal(console(), side, enter_always, Checked())
            choose = terminal.choose

            def check(battle: Any, title: str, options: Any, default: int = 0,
                      notes: Any = (), choose: Any = choose) -> Any:
                nonlocal targets
                value = options[default].value
                if "pick its target" in title and value is not None:
                    unit = battle.unit(title.split()[0])
                    assert _best_chance(battle, unit, value, battle.band_of(unit.zone)) > 0
                    targets += 1
                return choose(battle, title, options, default, notes)
            terminal.choose = check  # type: ignore[method-assign]
            Battle(scenario, dict(forces), Dice.from_seed(seed),
                   {side: terminal, side.enemy: Bot()}, CATALOG).run()
    assert targets > 50 and Checked.moves > 50


@pytest.mark.parametrize("quit_at", range(5, 93, 8))
def test_a_resumed_play_suggests_what_it_would_have_without_the_stop(quit_at: int) -> None:
    """Issue 16 item 1: the bot remembers where its side's fire is going this turn; on
    resume it is asked every replayed decision too, so that Enter after a stop anywhere
    fights the battle an unbroken play fights."""
    from campaigns.files.scenarios import get_scenario
    from campaigns.play import PlayState
    from cli.play_run import run as play
    from cli.prompts import Quit

    scenario = get_scenario("opening-shots")

    def fresh(decisions: list[dict[str, Any]] | None = None) -> PlayState:
        return PlayState(1, scenario, busy_forces(), {s: s.value for s in Side},
                         Side.DEFENDER, 1, "bot", decisions=decisions or [])

    whole = digest(play(fresh(), console(), lambda i, d: None, enter_always).log)
    stopped = fresh()
    with pytest.raises(Quit):
        play(stopped, console(), lambda i, d: None, StopAfter(quit_at))
    resumed = play(fresh(list(stopped.decisions)), console(), lambda i, d: None, enter_always)
    assert digest(resumed.log) == whole


def test_the_terminal_shadows_every_decision_of_the_protocol() -> None:
    from cli.play import DECISIONS

    assert protocol_methods() == DECISIONS


def test_a_played_battle_replays_identically(runner: CliRunner, wolves: str,
                                            files: tuple[str, str]) -> None:
    from campaigns.play import finish, start
    from cli.play_run import run as play
    from cli.state import session
    from db.models import BattleLog

    _, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=13)
    battle = play(state, console(), saver(state.id), enter_always)
    with session() as s:
        data = finish(s, state.id, battle)
    with session() as s:  # the player's decisions and the opponent's, both kept
        log = s.get(BattleLog, data["battle_id"])
        assert log is not None
        kept = json.loads(log.spec)["decisions"]
    assert set(kept) == {"attacker", "defender"} and all(kept.values())
    replay = json.loads(run(runner, "battle", "replay", str(data["battle_id"]), "--json"))
    assert replay["identical"]
    shown = json.loads(run(runner, "battle", "show", str(data["battle_id"]), "--json"))
    assert shown["log_digest"] == replay["stored_digest"]


def test_campaign_next_play_moves_the_campaign_on(runner: CliRunner) -> None:
    from campaigns.campaign import play_step
    from campaigns.play import finish
    from cli.play_run import run as play
    from cli.state import session

    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "21")
    with session() as s:
        state, new = play_step(s, "Hawks")
    assert new
    with session() as s:  # asked again before the battle ends: the same play, resumed
        again, new = play_step(s, "Hawks")
    assert not new and again.id == state.id
    err = run(runner, "campaign", "next", "Hawks", code=1)  # no auto battle meanwhile
    assert "--play" in err
    battle = play(state, console(), saver(state.id), enter_always)
    with session() as s:
        data = finish(s, state.id, battle)
    assert data["campaign"]["position"] == 1
    status = json.loads(run(runner, "campaign", "status", "Hawks", "--json"))
    assert status["position"] == 1 and status["results"][0]["battle_id"] == data["battle_id"]
    assert "sound" in run(runner, "db", "check")


# ---- a force in play stays with its play ------------------------------------------------------

def quit_early(state: Any) -> None:
    from cli.play_run import run as play
    from cli.prompts import Quit

    with pytest.raises(Quit):
        play(state, console(), saver(state.id), StopAfter(2))


def test_a_force_in_play_cannot_be_mustered_again_or_recorded(
        runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    from campaigns.play import finish, load, start
    from cli.play_run import run as play
    from cli.state import session

    _, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=5)
    quit_early(state)
    before = json.loads(run(runner, "company", "show", wolves, "--json"))["last_muster"]
    err = run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
              "VIPER-1", "WASP-1", "WASP-2", code=1)  # a legal muster, but the force is busy
    assert f"in play {state.id}" in err and f"meks battle resume {state.id}" in err
    err = run(runner, "battle", "record", wolves, "--result", "win", "--auto", code=1)
    assert f"in play {state.id}" in err
    err = " ".join(run(runner, "mek", "sell", wolves, "VIPER-1", code=1).split())
    assert f"in the force of play {state.id}" in err and \
        f"'meks battle resume {state.id}' first" in err  # not advice that cannot be taken
    assert json.loads(run(runner, "company", "show", wolves, "--json"))["last_muster"] == before
    with session() as s:
        state = load(s, state.id)
    battle = play(state, console(), saver(state.id), enter_always)
    with session() as s:
        assert isinstance(finish(s, state.id, battle)["battle_id"], int)
    standing = [m["callsign"] for m in json.loads(run(runner, "mek", "list", wolves, "--json"))
                if m["status"] == "active"]
    if not standing:  # every Mek was lost: one bought now
        run(runner, "mek", "buy", wolves, "WASP", "--callsign", "Spare")
        run(runner, "pilot", "hire", wolves, "Sparky")
        run(runner, "pilot", "assign", wolves, "Sparky", "Spare")
        standing = ["Spare"]
    run(runner, "muster", wolves, "--budget", "100", *standing)  # the play is over


def test_undo_cannot_take_back_a_force_in_play_R3_3(
        runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    from campaigns.play import finish, load, start
    from cli.play_run import run as play
    from cli.state import session

    _, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=5)
    quit_early(state)
    before = json.loads(run(runner, "company", "show", wolves, "--json"))
    err = " ".join(run(runner, "company", "undo", wolves, code=1).split())
    assert f"in play {state.id}" in err and f"'meks battle resume {state.id}'" in err
    assert "Mustered VIPER-1, WASP-1, WASP-2" in err
    assert json.loads(run(runner, "company", "show", wolves, "--json")) == before
    run(runner, "pilot", "hire", wolves, "Dee")  # later changes can still be undone
    run(runner, "company", "undo", wolves)
    with session() as s:
        state = load(s, state.id)  # the play is untouched and can be finished
    battle = play(state, console(), saver(state.id), enter_always)
    with session() as s:
        finish(s, state.id, battle)
    run(runner, "company", "undo", wolves)  # the battle
    run(runner, "company", "undo", wolves)  # and now the muster
    assert json.loads(run(runner, "company", "show", wolves, "--json"))["last_muster"] is None


def test_a_play_whose_muster_changed_is_refused_not_crashed(
        runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    from sqlmodel import select

    from campaigns.company import Refused
    from campaigns.play import finish, load, start
    from cli.play_run import run as play
    from cli.state import session
    from db.models import MusterMek

    _, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=5)
    quit_early(state)
    battle = play(state, console(), lambda i, d: None, enter_always)
    with session() as s:  # as an older version left it: the muster's id, another force
        for entry in s.exec(select(MusterMek).where(MusterMek.position > 0)).all():
            s.delete(entry)
    with session() as s, pytest.raises(Refused, match="mustered a different force"):
        load(s, state.id)
    with session() as s, pytest.raises(Refused, match="mustered a different force"):
        finish(s, state.id, battle)
    run(runner, "battle", "resume", str(state.id), code=1)


def test_a_campaign_does_not_take_a_force_in_play(runner: CliRunner, wolves: str,
                                                  files: tuple[str, str],
                                                  tmp_path: Path) -> None:
    from campaigns.play import finish, load, start
    from cli.play_run import run as play
    from cli.state import session

    _, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=5)
    quit_early(state)
    plan = tmp_path / "plan.yaml"
    plan.write_text("scenarios:\n  - {scenario: opening-shots, side: attacker}\n")
    run(runner, "campaign", "start", wolves, "--plan", str(plan), "--seed", "3")
    for command in ("next", "run"):
        err = run(runner, "campaign", command, wolves, code=1)
        assert f"unfinished battle at the terminal, play {state.id}" in err
        assert f"meks battle resume {state.id}' before the campaign goes on" in err
    with session() as s:
        state = load(s, state.id)  # the play is untouched and can be finished
    battle = play(state, console(), saver(state.id), enter_always)
    with session() as s:
        finish(s, state.id, battle)
    assert json.loads(run(runner, "campaign", "next", wolves, "--json"))["finished"]


def test_campaign_play_hints_name_the_company(runner: CliRunner,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.play_run
    import cli.state

    run(runner, "company", "create", "Iron Hawks")
    for command in ("next", "status"):
        err = run(runner, "campaign", command, "Iron Hawks", code=1)
        assert "'meks campaign start \"Iron Hawks\"'" in err
    run(runner, "campaign", "start", "Iron Hawks", "--seed", "21")
    err = run(runner, "campaign", "start", "Iron Hawks", code=1)
    assert "'meks campaign run \"Iron Hawks\"' first" in err
    monkeypatch.setattr(cli.state, "interactive", lambda: True)
    monkeypatch.setattr(cli.play_run, "play_to_end", lambda state, **options: None)
    played = runner.invoke(app, ["campaign", "next", "Iron Hawks", "--play"],
                           input="\n")  # Enter takes the suggested muster
    assert played.exit_code == 0, played.stderr
    out = played.stdout
    assert "'meks campaign next \"Iron Hawks\" --play' continues" in out
    err = run(runner, "campaign", "next", "Iron Hawks", code=1)
    assert "'meks campaign next \"Iron Hawks\" --play'" in err


def test_a_campaign_battle_played_to_its_end_shows_the_step_as_campaign_next_does(
        runner: CliRunner, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """After a campaign's battle played at the terminal: the step's line (n/N, result,
    battle), and what the step bought and paid, as 'campaign next' shows them; quitting
    names the campaign's command to go on, not the play's number as if it were a battle."""
    from campaigns.campaign import play_step
    from cli.play_run import play_to_end
    from cli.state import session

    run(runner, "company", "create", "Wolves")
    plan = tmp_path / "plan.yaml"
    plan.write_text("house_rules: {treasury: true}\n"
                    "scenarios:\n  - {scenario: opening-shots, side: attacker}\n")
    run(runner, "campaign", "start", "Wolves", "--plan", str(plan), "--seed", "3")
    with session() as s:
        state, new = play_step(s, "Wolves", runs=0)
    assert new
    resume = "meks campaign next Wolves --play"
    with pytest.raises(typer.Exit):
        play_to_end(state, auto_skills=True, ask=StopAfter(2), resume=resume)
    assert f"'{resume}' continues it" in " ".join(capsys.readouterr().out.split())
    with session() as s:
        state, new = play_step(s, "Wolves", runs=0)
    assert not new
    play_to_end(state, auto_skills=True, ask=enter_always, resume=resume)
    out = " ".join(capsys.readouterr().out.split())
    assert "1/1 Opening Shots as the attacker:" in out and "turns, battle 1)" in out
    assert "Bought: VIPER-1, WASP-1, WASP-2" in out
    assert "Treasury: 60 at the start, spent 30 getting ready" in out


def test_campaign_run_play_commands_every_battle_in_turn(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'campaign run --play': each remaining scenario played at the terminal, one after the
    other, then the campaign's summary; quitting names the same command to go on with.
    Without a terminal it is refused, and it gives no --json."""
    import cli.play_run
    import cli.state
    from cli.play_run import play_to_end

    run(runner, "company", "create", "Wolves")
    plan = tmp_path / "plan.yaml"
    plan.write_text("scenarios:\n  - {scenario: opening-shots, side: attacker}\n"
                    "  - {scenario: head-to-head, side: defender}\n")
    run(runner, "campaign", "start", "Wolves", "--plan", str(plan), "--seed", "3")
    err = run(runner, "campaign", "run", "Wolves", "--play", code=1)  # no terminal here
    assert "'meks campaign run --play' asks you for every decision" in " ".join(err.split())
    assert "--json" in run(runner, "campaign", "run", "Wolves", "--play", "--json", code=2)
    assert "--json" in run(runner, "campaign", "next", "Wolves", "--play", "--json", code=2)
    monkeypatch.setattr(cli.state, "interactive", lambda: True)
    answers: list[Any] = [StopAfter(2), enter_always, enter_always]
    resumes = []

    def at_the_terminal(state: Any, **options: Any) -> None:
        resumes.append(options["resume"])
        play_to_end(state, auto_skills=True, ask=answers.pop(0), resume=options["resume"])
    monkeypatch.setattr(cli.play_run, "play_to_end", at_the_terminal)
    stopped = runner.invoke(app, ["campaign", "run", "Wolves", "--play"], input="\n")
    assert stopped.exit_code == 0, stopped.stderr
    assert "'meks campaign run Wolves --play' continues it" in " ".join(stopped.stdout.split())
    played = runner.invoke(app, ["campaign", "run", "Wolves", "--play"], input="\n")
    assert played.exit_code == 0, played.stderr
    assert resumes == ["meks campaign run Wolves --play"] * 3
    status = json.loads(run(runner, "campaign", "status", "Wolves", "--json"))
    assert status["status"] == "finished" and len(status["results"]) == 2
    assert "1/2 Opening Shots" in played.stdout and "2/2 Head to Head" in played.stdout


def spawn_opening_shots(files: tuple[str, str], tmp_path: Path, columns: int = 100) -> Any:
    """A play of Opening Shots at the terminal, the red force against the blue (seed 5)."""
    red, blue = files
    return spawn(tmp_path / "play.db", "play", "opening-shots", "--side", "attacker",
                 "--attacker", red, "--defender", blue, "--seed", "5", "--opponent",
                 "baseline", columns=columns)


def test_ctrl_d_at_a_play_prompt_saves_and_says_how_to_resume(files: tuple[str, str],
                                                              tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn_opening_shots(files, tmp_path)
    child.expect(PROMPT)
    child.sendline("")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(r"Interrupted\. The battle is saved up to your last decision")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_the_play_screen_fits_80_columns(files: tuple[str, str], tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn_opening_shots(files, tmp_path, columns=80)
    seen = []
    for _ in range(12):
        child.expect(PROMPT)
        seen.append(child.before)
        child.sendline("")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    seen.append(child.before)
    # What the terminal shows: the text without its colour and style codes.
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(seen))
    lines = shown.replace("\r", "").splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)


def test_a_play_begun_under_an_earlier_engine_revision_is_set_aside_when_it_no_longer_fits(
        runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    """Issue 15 (stored battles replay or say which revision fought them): a play saved by an
    earlier engine whose decisions no longer fit is refused in one sentence naming both
    revisions, set aside (its record kept), and its company may start the battle afresh."""
    from campaigns.company import Refused
    from campaigns.play import load, start
    from cli.play_run import play_to_end
    from cli.play_run import run as play
    from cli.prompts import Quit
    from cli.state import session
    from db.models import Play
    from meks.engine import REVISION

    _, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=11)
    with pytest.raises(Quit):
        play(state, console(), saver(state.id), StopAfter(3))
    with session() as s:  # as an earlier engine would have left it: a decision it no longer asks
        row = s.get(Play, state.id)
        assert row is not None
        spec = json.loads(row.spec)
        spec["engine"] = REVISION - 1
        row.spec = json.dumps(spec)
        row.decisions = json.dumps([{"ask": "no_such_decision", "turn": 1, "value": None}])
        s.add(row)
    with session() as s:
        state = load(s, state.id)
    with pytest.raises(Refused) as refused:  # what 'meks battle resume' prints, exit 1
        play_to_end(state)
    message = str(refused.value)
    assert f"revision {REVISION - 1}" in message and f"revision {REVISION}" in message
    assert "set aside" in message
    with session() as s:
        row = s.get(Play, state.id)
        assert row is not None and row.status == "finished" and row.result == "set aside"
        assert json.loads(row.decisions)  # the record is kept
    with session() as s:  # the company's muster is free again
        again = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=11)
    assert again.id != state.id


# ---- zone combat in rounds and breaking contact (R5.2, R6.3) ----------------------------------

def asking(terminal: Any, answers: dict[str, str]) -> list[str]:
    """Spy on the terminal's questions: their titles, in order; a question whose title holds
    a key of ``answers`` is answered with its value, any other with Enter."""
    titles: list[str] = []
    choose = terminal.choose

    def spy(battle: Any, title: str, options: Any, default: int = 0, notes: Any = ()) -> Any:
        titles.append(title)
        return choose(battle, title, options, default, notes)

    def ask(text: str, default: str) -> str:
        return next((a for key, a in answers.items() if key in titles[-1]), default)

    terminal.choose = spy
    terminal._ask = ask
    return titles


@pytest.mark.parametrize(("typed", "zone"), [(None, 4), ("3", 8)])
def test_the_withdraw_question_names_the_zones_and_enter_takes_the_suggestion_R6_3(
        typed: str | None, zone: int) -> None:
    from cli.play import Terminal
    from tests.engine_helpers import Scripted, force, map_scenario, post

    still = {"movement": lambda b, side: {}}
    advisor = Scripted([RangeChoice.BREAK], withdraw=lambda b, unit, zones: 4, **still)
    out = console()
    terminal = Terminal(out, Side.ATTACKER, None, advisor)
    titles = asking(terminal, {"into which zone": typed} if typed else {})
    scenario = map_scenario((5,), (5, 6), combat_rounds=3, break_contact="withdraw")
    defender = Scripted(deploy=lambda b, side, units: {"D1": 5, "D2": 6}, **still)
    battle = Battle(scenario, {Side.ATTACKER: force(post()),
                               Side.DEFENDER: force(post(), post(name="Flank"))},
                    Dice.from_sequence([6, 1, 5, 2]),
                    {Side.ATTACKER: terminal, Side.DEFENDER: defender}, CATALOG)
    battle.setup()
    battle.play_turn()
    text = out.file.getvalue()
    assert "A1 Post pulls out of zone 5: into which zone?" in titles
    assert "break contact (the combat ends; your units here pull out at once into zones " \
        "free of enemies)" in text
    assert re.search(r"1\. zone 2 \(Plains\)\n +2\. zone 4 \(Plains\)  <- suggested\n"
                     r" +3\. zone 8 \(Plains\)\n", text)
    assert "zone 6 (Plains)" not in text.split("into which zone?")[1].split("Choice")[0]
    assert battle.unit("A1").zone == zone
    assert f"Post withdraws from zone 5 to zone {zone}." in text
    assert "Moving now gives the Mek 2 heat next turn (in its first round of combat)" in text


def test_a_lone_way_out_is_taken_without_asking_R6_3() -> None:
    from cli.play import Terminal
    from tests.engine_helpers import Scripted, force, map_scenario, post

    terminal = Terminal(console(), Side.ATTACKER, enter_always, Scripted())
    titles = asking(terminal, {})
    battle = Battle(map_scenario((1,), (1, 2)), {Side.ATTACKER: force(post()),
                                                 Side.DEFENDER: force(post())},
                    Dice.from_sequence([]), {s: Baseline() for s in Side}, CATALOG)
    battle.setup()
    assert terminal.withdraw(battle.views[Side.ATTACKER], battle.unit("A1"), [4]) == 4
    assert titles == []


def round_prompts(combat_rounds: int) -> tuple[list[str], str]:
    from cli.play import Terminal
    from tests.engine_helpers import Scripted, duel_scenario, force, gun, post, start

    advisor = Scripted([RangeChoice.STAY] * 2)
    out = console()
    terminal = Terminal(out, Side.ATTACKER, None, advisor)
    titles = asking(terminal, {})
    # Initiative; then in each round the Gun wins the movement roll 5 to 2 and misses (1).
    dice = [6, 1, *[5, 2, 1] * combat_rounds]
    battle = Battle(duel_scenario(combat_rounds=combat_rounds, break_contact="withdraw"),
                    {Side.ATTACKER: force(gun("Cannon")), Side.DEFENDER: force(post())},
                    Dice.from_sequence(dice), {Side.ATTACKER: terminal,
                                               Side.DEFENDER: Scripted()}, CATALOG)
    start(battle, Band.SHORT)
    battle.play_turn()
    assert len(battle.dice.log) == len(dice)
    return titles, out.file.getvalue()


def test_prompts_in_a_combat_of_rounds_name_the_round_R5_2() -> None:
    titles, text = round_prompts(2)
    for number in (1, 2):
        assert f"You win the movement roll in zone 5 (Plains, round {number}); the range is " \
            "short. Weapons in range at each band:" in titles
        assert f"A1 Gun in zone 5, round {number}, at short range: pick its target." in titles
    assert "double the terrain modifier against shots at your units this round" in text
    assert "Round 2 in zone 5 (short range)." in text


def test_prompts_of_one_exchange_a_turn_name_no_round_R5_2() -> None:
    titles, text = round_prompts(1)
    assert "You win the movement roll in zone 5 (Plains); the range is short. Weapons in " \
        "range at each band:" in titles
    assert "A1 Gun in zone 5 at short range: pick its target." in titles
    assert "double the terrain modifier against shots at your units this turn" in text
    assert ", round" not in " ".join(titles)


@pytest.mark.parametrize(("combat_rounds", "period"), [(3, "round"), (1, "turn")])
def test_agility_is_once_a_round_in_a_combat_of_rounds_R5_2_R6_8(combat_rounds: int,
                                                                  period: str) -> None:
    from cli.play import Terminal
    from tests.engine_helpers import duel_scenario, force, post

    out = console()
    terminal = Terminal(out, Side.DEFENDER, enter_always, Baseline())
    battle = Battle(duel_scenario(combat_rounds=combat_rounds, break_contact="withdraw"),
                    {Side.ATTACKER: force(post()),
                     Side.DEFENDER: force(post("Light", skills=["Agility"]))},
                    Dice.from_sequence([]), {s: Baseline() for s in Side}, CATALOG)
    battle.setup()
    terminal.dodge(battle.views[Side.DEFENDER], battle.unit("D1"), CATALOG.weapon("Cannon"), 1)
    assert f"(Agility, once a {period}, +1 heat;" in out.file.getvalue()


def test_a_play_stored_without_a_revision_goes_on_under_one_exchange_R5_2(
        runner: CliRunner, files: tuple[str, str]) -> None:
    """Plays begun before revision 8 kept no revision: they go on under the readings of their
    time, one exchange a turn and contact broken in place."""
    from campaigns.play import load, start
    from cli.state import session
    from db.models import Play
    from meks.game.vocabulary import COMBAT_ROUNDS, BreakContact

    red, blue = files
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, red, blue, seed=3)
    assert state.scenario.house_rules.combat_rounds == COMBAT_ROUNDS
    with session() as s:
        row = s.get(Play, state.id)
        assert row is not None
        spec = json.loads(row.spec)
        del spec["engine"]
        row.spec = json.dumps(spec)
        s.add(row)
    with session() as s:
        old = load(s, state.id)
    assert old.scenario.house_rules.combat_rounds == 1
    assert old.scenario.house_rules.break_contact is BreakContact.STAY


@pytest.mark.parametrize("revision", [13, 14])
def test_the_come_out_question_says_the_enemy_finds_a_mek_that_stays_hidden_R4_3(
        revision: int) -> None:
    from cli.play import Terminal
    from tests.engine_helpers import Scripted, force, map_scenario, post

    terminal = Terminal(console(), Side.DEFENDER, enter_always, Scripted())
    titles = asking(terminal, {})
    battle = Battle(map_scenario((5,), (5,)), {Side.ATTACKER: force(post()),
                                               Side.DEFENDER: force(post())},
                    Dice.from_sequence([]), {s: Baseline() for s in Side}, CATALOG,
                    revision=revision)
    battle.setup()
    battle.unit("D1").hidden = True
    assert terminal.reveal(battle.views[Side.DEFENDER], battle.unit("D1")) is True
    assert titles[0].endswith("come out and fight now?" if revision < 14 else
                              "they find it as the turn ends.)")
