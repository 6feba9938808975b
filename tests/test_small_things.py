"""Issue 18, item 4: small things a player meets."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cli.app import app
from meks.game.vocabulary import Side


def run(runner: CliRunner, *args: str, code: int = 0) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.output)
    return result


def _company(runner: CliRunner) -> None:
    run(runner, "company", "create", "Hawks")
    run(runner, "mek", "buy", "Hawks", "WASP")
    run(runner, "pilot", "hire", "Hawks", "Vera Long", "--regular")
    run(runner, "pilot", "assign", "Hawks", "Vera Long", "WASP-1")


def test_pilot_name_typos_get_did_you_mean(runner: CliRunner) -> None:
    """A pilot's name typed wrong is answered with the nearest names, found by the same
    helper as catalog and scenario names (meks.game.names.suggest); Mek callsigns alike."""
    _company(runner)
    err = run(runner, "pilot", "show", "Hawks", "Vera Lnog", code=1).stderr
    assert "has no pilot called 'Vera Lnog'. Did you mean 'Vera Long'?" in err
    err = run(runner, "pilot", "assign", "Hawks", "Vera Long", "WSP-1", code=1).stderr
    assert "Did you mean 'WASP-1'?" in err
    err = run(runner, "pilot", "show", "Hawks", "Zzyzx", code=1).stderr
    assert "Did you mean" not in err and "meks pilot list Hawks" in err


def test_pilot_hire_green_is_accepted(runner: CliRunner) -> None:
    """--green names the default level outright; --regular still hires a Regular."""
    run(runner, "company", "create", "Hawks")
    assert "Hired Sam (Green)." in run(runner, "pilot", "hire", "Hawks", "Sam",
                                       "--green").stdout
    assert "Regular" in run(runner, "pilot", "hire", "Hawks", "Ann", "--regular").stdout


def test_no_company_error_says_how_to_create_one(runner: CliRunner) -> None:
    """With no company yet, the error gives the command that founds one under the name
    typed, quoted for the shell; with companies, the nearest name is suggested."""
    err = run(runner, "mek", "buy", "Iron Hawks", "WASP", code=1).stderr
    assert "There are no companies yet" in err
    assert "meks company create \"Iron Hawks\"" in " ".join(err.split())
    run(runner, "company", "create", "Iron Hawks")
    err = run(runner, "mek", "list", "Iron Hawk", code=1).stderr
    assert "Did you mean 'Iron Hawks'?" in err


def test_company_found_is_create_under_the_verb_of_its_help(runner: CliRunner) -> None:
    """'Found a new company' says the help, so ``meks company found`` does what ``create``
    does (a hidden second name: the list of commands shows ``create`` only), instead of a
    guess pointing at ``undo``."""
    out = run(runner, "company", "found", "Grey Wolves").stdout
    assert "Founded Grey Wolves (id 1)." in out
    assert "Grey Wolves" in run(runner, "company", "list").stdout
    listing = run(runner, "company", "--help").stdout
    assert "create" in listing and " found " not in listing


def test_over_budget_muster_itemises_hire_fees(runner: CliRunner) -> None:
    """R3.3: the refusal lists each Mek's price and each Regular's hire fee, which add up
    to the cost it names."""
    _company(runner)
    err = " ".join(run(runner, "muster", "Hawks", "WASP-1", "--budget", "10",
                       code=1).stderr.split())
    assert "the force costs 14 points (WASP-1 9, Vera Long's hire fee 5) but the budget " \
           "is 10" in err


def test_a_unit_with_no_weapon_that_can_reach_any_target_is_not_asked(
        tmp_path: Path) -> None:
    """A SABER and WASPs (short-range cannons, infantry-only CIWS) beyond Short range have
    nothing to fire: the play screen says so instead of asking for a target, and the
    battle is still the one the bot fights on the player's side (Enter everywhere; the
    baseline on the other side keeps its distance)."""
    from rich.console import Console

    from campaigns.battles import fight
    from campaigns.play import start
    from cli.play_run import run as play
    from cli.state import session
    from meks.engine.log import digest
    from meks.game.dice import Dice

    force = tmp_path / "wasps.yaml"
    force.write_text("meks:\n  - {design: SABER}\n  - {design: WASP}\n  - {design: WASP}\n")
    asked: list[str] = []
    out = Console(file=io.StringIO(), width=100, no_color=True)

    def answer(text: str, default: str) -> str:
        asked.append(out.file.getvalue().rstrip().splitlines()[-1])  # type: ignore[attr-defined]
        return default

    said = ""
    for seed in range(1, 6):
        with session() as s:
            state = start(s, "head-to-head", Side.ATTACKER, str(force), str(force),
                          seed=seed, opponent="baseline")
        battle = play(state, out, lambda i, d: None, answer)
        said = out.file.getvalue()  # type: ignore[attr-defined]
        assert digest(battle.log) == fight(
            None, "head-to-head", str(force), str(force), Dice.from_seed(seed),
            controllers={Side.ATTACKER: "bot", Side.DEFENDER: "baseline"}).digest
        if "no weapon that reaches a target" in said:
            break
    assert "no weapon that reaches a target at" in said
    for line in said.splitlines():
        if "pick its target" in line or "pick up to" in line:
            assert "short range" in line, line


def test_battle_record_says_what_became_of_each_mek_that_came_home_R3_4_R3_7() -> None:
    """The Fate column of `battle record`: a Mek is said to be repaired only when it was
    (for points under `repair: paid`); under `repair: none` it keeps its Hits; the parts it
    lost (`spare_parts`) are named."""
    from rich.console import Console

    from campaigns.files.view_records import RecordedBattle
    from cli.store_views import battle_record

    def entry(**more: Any) -> Any:
        return {"pilot": "Vera", "mek": "Anvil", "kills": 0, **more}

    cases = ((entry(repaired=True), "Mek repaired"),
             (entry(repaired=True, repair_cost=3), "Mek repaired for 3 points"),
             (entry(damage=2), "Mek keeps 2 Hits"),
             (entry(damage=0, lost_parts=["Hammer Missile"]),
              "Mek came home; lost Hammer Missile"),
             (entry(mek_destroyed=True), "ejected, Mek lost"))
    for pilot, fate in cases:
        result: RecordedBattle = {"battle_id": 1, "result": "win", "seed": 1,
                                  "pilots": [pilot], "salvage": []}
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(battle_record(result))
        text = console.export_text()
        assert fate in text, (pilot, text)
        if "repaired" not in fate:
            assert "repaired" not in text, text


def test_small_messages_say_what_is_wrong(runner: CliRunner, tmp_path: Path) -> None:
    """A company looked up by a number that is no id says it looked for both; a negative
    kill count is called what it is; a skill already held names its pilot; one battle is
    one battle."""
    db = str(tmp_path / "small.db")
    for args in (("company", "create", "Hawks"), ("mek", "buy", "Hawks", "WASP"),
                 ("pilot", "hire", "Hawks", "Bo"), ("pilot", "assign", "Hawks", "Bo", "WASP-1"),
                 ("muster", "Hawks", "WASP-1", "--budget", "50")):
        run(runner, "--db", db, *args)
    result = runner.invoke(app, ["--db", db, "company", "show", "999"])
    assert result.exit_code == 1
    assert "No company has the id 999 or is called '999'" in result.stderr
    result = runner.invoke(app, ["--db", db, "battle", "record", "Hawks", "--result", "win",
                                 "--kills", "Bo=-1", "--auto"])
    assert result.exit_code == 2 and "whole number, 0 or more" in " ".join(
        result.stderr.replace("│", " ").split())
    from campaigns.postbattle import check_skill
    from meks.game.errors import MeksError

    try:
        check_skill("maneuver", ("Tactics",), pilot="Bo")
    except MeksError as exc:
        assert "Maneuver cannot be chosen for Bo, who already has it" in exc.message
    else:
        raise AssertionError("a skill held was chosen")
    force = tmp_path / "red.yaml"
    force.write_text("name: Red\nmeks:\n  - {design: DRAKEN, pilot: Ana}\n")
    out = run(runner, "--db", db, "odds", "head-to-head", "-a", str(force), "-d", str(force),
              "--runs", "1").stdout
    assert "1 battle," in out and "1 battles" not in out


def test_a_name_beginning_with_a_dash_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    """Every command that names a company, pilot or Mek would read '-dash' as an option,
    so such a name is refused where it is given (exit 1), not stored to be stuck with."""
    db = str(tmp_path / "dash.db")
    result = runner.invoke(app, ["--db", db, "company", "create", "--", "-dash"])
    assert result.exit_code == 1 and "cannot begin with '-'" in result.stderr
    run(runner, "--db", db, "company", "create", "Hawks")
    result = runner.invoke(app, ["--db", db, "pilot", "hire", "Hawks", "--", "-Ana"])
    assert result.exit_code == 1 and "A pilot name cannot begin with '-'" in " ".join(
        result.stderr.split())
    result = runner.invoke(app, ["--db", db, "mek", "buy", "Hawks", "WASP", "--callsign",
                                 "-W"])
    assert result.exit_code in (1, 2) and "-W" in result.stderr


def test_a_company_name_read_as_a_force_file_is_refused(runner: CliRunner,
                                                         tmp_path: Path) -> None:
    """'battle auto', 'battle play' and 'odds' read a side ending in .yaml or .yml, or
    beginning as a path does, as a force file, so a company so named could be mustered but
    never fight by its name: such a name is refused when the company is founded, as when a
    roster is imported under it (exit 1)."""
    db = str(tmp_path / "files.db")
    for name in ("Hawks.yaml", "Kites.YML", "./Hawks", "/Hawks", "../Hawks", "~/Hawks"):
        result = runner.invoke(app, ["--db", db, "company", "create", name])
        said = " ".join(result.stderr.split())
        assert result.exit_code == 1 and "would read" in said and "as a file" in said, name
    run(runner, "--db", db, "company", "create", "Hawks yaml")  # a name like any other
    roster = tmp_path / "hawks.json"
    run(runner, "--db", db, "roster", "export", "Hawks yaml", "-o", str(roster))
    result = runner.invoke(app, ["--db", db, "roster", "import", str(roster), "--name",
                                 "copy.yaml"])
    assert result.exit_code == 1 and "as a file" in " ".join(result.stderr.split())
    listed = json.loads(run(runner, "--db", db, "company", "list", "--json").stdout)
    assert [c["name"] for c in listed] == ["Hawks yaml"]


def test_history_folds_a_long_word_rather_than_cutting_it() -> None:
    """At 80 columns a scenario id longer than its column is folded onto the next line, so
    the whole of it can still be read (it used to end in an ellipsis)."""
    from rich.console import Console

    from cli.store_views import history

    word = "at-the-hot-gates-campaign"
    event = {"id": 24, "at": "2026-11-30T17:04:00", "command": "muster", "undone": False,
             "dice": [], "summary": f"Mustered VIPER-1, DEMON-1, DRAKEN-1, DRAKEN-2 for "
                                    f"75/75 points ({word})."}
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(history([event], "Hawks"))  # type: ignore[list-item]
    text = console.export_text()
    assert "…" not in text
    assert word in "".join(line.strip() for line in text.splitlines()), text


def test_a_or_an_as_said_aloud() -> None:
    from meks.game.text import a_or_an

    assert [a_or_an(w) for w in ("Assault", "Heavy", "8-turn", "11-turn", "12-turn",
                                 "18-turn", "80-turn", "Titan")] == [
        "an Assault", "a Heavy", "an 8-turn", "an 11-turn", "a 12-turn", "an 18-turn",
        "an 80-turn", "a Titan"]


def test_lines_said_at_a_terminal_wrap_at_spaces(monkeypatch: Any) -> None:
    """At a terminal a line wider than it is wrapped between words (the terminal used to cut
    'Type' into 'T' and 'ype'); piped, it stays one line for scripts."""
    import os
    import sys

    from cli.output import fitted

    line = ("Starting play 1: Opening Shots (campaign), you command Hawks as the attacker. "
            "Type q at any prompt to stop; 'meks campaign next Hawks --play' continues.")
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=(80, 24):
                        os.terminal_size((80, 24)))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False, raising=False)
    assert fitted(line) == line
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    wrapped = fitted(line).splitlines()
    assert len(wrapped) == 2 and all(len(part) <= 80 for part in wrapped)
    assert " ".join(wrapped) == line


def test_a_design_file_may_name_a_ciws_pair_as_reports_print_it(runner: CliRunner,
                                                               tmp_path: Path) -> None:
    """'CIWS pair' is how the design reports print the weapon, so a design file may use it."""
    design = tmp_path / "pair.yaml"
    design.write_text("name: Pair\nsize: Light\nweapons: [Cannon, CIWS pair]\nsystems: []\n")
    result = runner.invoke(app, ["design", "check", str(design)])
    assert result.exit_code == 0, result.output


def test_a_part_in_the_other_list_is_said_to_belong_there_R1_0() -> None:
    from meks.game.catalog import Design, Size, load_catalog
    from meks.game.construction import check_design

    report = check_design(Design("Wrong", Size.LIGHT, ("Cannon", "jammer"), ("Minigun",)),
                          load_catalog())
    said = [p.message for p in report.problems]
    assert "Jammer is a system, not a weapon; list it under systems." in said
    assert "Minigun is a weapon, not a system; list it under weapons." in said


def test_buying_an_illegal_design_numbers_its_problems(runner: CliRunner, tmp_path: Path
                                                        ) -> None:
    """A problem's own words may hold a semicolon ('... fitted 2 times; a Mek carries one'),
    so several are numbered in the one sentence of the refusal."""
    brick = tmp_path / "brick.yaml"
    brick.write_text("name: Brick\nsize: Light\nweapons: [Cannon, Cannon]\n"
                     "systems: [Jump Jets, Jump Jets]\n")
    db = str(tmp_path / "brick.db")
    run(runner, "--db", db, "company", "create", "Hawks")
    result = runner.invoke(app, ["--db", db, "mek", "buy", "Hawks", str(brick)])
    said = " ".join(result.stderr.split())
    assert result.exit_code == 1 and "(1) 2 Massive weapons" in said
    assert "(3) Jump Jets is fitted 2 times; a Mek carries one." in said


def test_a_support_unit_on_the_sheet_comes_with_what_fielding_it_needs() -> None:
    """A printed sheet's support unit carries its Hits, armor, move and weapons (a Gun Sled
    is 3 Hits, AR 3, move 1d6+2, a Rail Cannon): the one line of effect was not enough to
    play it from."""
    from campaigns.reports.sheet import support_line
    from meks.game.catalog import load_catalog

    catalog = load_catalog()
    line = support_line({"result": "Gun Sled", "table_die": 5, "entry_die": 1, "points": 0},
                        catalog)  # type: ignore[typeddict-item]
    sled = catalog.ix.support.find("Gun Sled")
    assert sled is not None and sled.unit is not None
    assert line.effect.endswith(f"({sled.unit.describe()})")
    assert sled.unit.describe() == "3 Hits, AR 3, move 1d6+2, Rail Cannon"
    asset = support_line({"result": "Ambush", "table_die": 2, "entry_die": 1, "points": 0},
                         catalog)  # type: ignore[typeddict-item]
    assert "Hits" not in asset.effect


def test_errors_at_a_terminal_wrap_at_spaces_and_headings_fold(monkeypatch: Any) -> None:
    """An error on standard error wraps between words at a terminal (piped it stays whole
    for logs); a table heading too wide for its column folds rather than ending in '…'."""
    import sys

    from rich.console import Console

    from cli.output import stderr
    from cli.store_views import _table

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert stderr().soft_wrap
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert not stderr().soft_wrap
    table = _table("Stable", "Id", "Condition of the Mek")
    table.add_row("1", "fine")
    console = Console(width=14, record=True, file=io.StringIO())
    console.print(table)
    assert "…" not in console.export_text()
