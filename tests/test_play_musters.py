"""The musters a play holds, in the store. A play at the terminal (``meks battle play``)
holds each side's muster as a column of its own (``attacker_muster_id``,
``defender_muster_id``), written when it starts and read wherever a force in play is looked
for (``campaigns.in_play.play_using``) or the play is finished; migration 10 fills them from
the JSON of plays stored before; an old backup gets them on restore; undo keeps them, and a
muster deleted lets go of them; ``db check`` compares them with what the play records.
Every test runs on SQLite, and on PostgreSQL with MEKS_TEST_DB set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect
from typer.testing import CliRunner

from meks.game.vocabulary import Side
from tests.test_battle_cli import BLUE
from tests.test_campaign_link import _blank, check, without_kept_scenarios
from tests.test_campaign_link import write_old_database as write_old_campaign_database
from tests.test_play import console, enter_always, quit_early, run, saver

OLD = 9  # the schema before the play's muster columns
COLUMNS = ("attacker_muster_id", "defender_muster_id")


def mustered(runner: CliRunner, name: str, side: str) -> str:
    """A company of three Meks and pilots, mustered for opening-shots on ``side``."""
    run(runner, "company", "create", name)
    for design, pilot in (("VIPER", "Ana"), ("WASP", "Bo"), ("WASP", "Cy")):
        callsign = json.loads(run(runner, "mek", "buy", name, design, "--json"))["callsign"]
        run(runner, "pilot", "hire", name, pilot)
        run(runner, "pilot", "assign", name, pilot, callsign)
    run(runner, "muster", name, "--scenario", "opening-shots", "--side", side,
        "VIPER-1", "WASP-1", "WASP-2")
    return name


@pytest.fixture
def wolves(runner: CliRunner) -> str:
    return mustered(runner, "Wolves", "attacker")


@pytest.fixture
def hawks(runner: CliRunner) -> str:
    return mustered(runner, "Hawks", "defender")


@pytest.fixture
def blue(tmp_path: Path) -> str:
    """A force file for the defender."""
    (tmp_path / "blue.yaml").write_text(BLUE)
    return str(tmp_path / "blue.yaml")


def last_muster(company: str) -> int:
    from sqlmodel import col
    from sqlmodel import select as select_rows

    from cli.state import session
    from db.models import Company, Muster

    with session() as s:
        found = s.exec(select_rows(Muster).join(Company, col(Company.id) == Muster.company_id)
                       .where(Company.name == company).order_by(col(Muster.id).desc())).first()
        assert found is not None and found.id is not None
        return found.id


def held(play_id: int) -> tuple[int | None, int | None]:
    from cli.state import session
    from db.models import Play

    with session() as s:
        row = s.get(Play, play_id)
        assert row is not None
        return row.attacker_muster_id, row.defender_muster_id


def using(muster_id: int) -> int | None:
    from campaigns.in_play import play_using
    from cli.state import session

    with session() as s:
        return play_using(s, muster_id)


def begin(attacker: str, defender: str, seed: int = 5) -> int:
    """A play of opening-shots, the player attacking, left after a couple of decisions."""
    from campaigns.play import start
    from cli.state import session

    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, attacker, defender, seed=seed)
    quit_early(state)
    return state.id


def finish_play(play_id: int) -> dict[str, Any]:
    from campaigns.play import finish, load
    from cli.play_run import run as play
    from cli.state import session

    with session() as s:
        state = load(s, play_id)
    battle = play(state, console(), saver(play_id), enter_always)
    with session() as s:
        return finish(s, play_id, battle)


def edit_play(play_id: int, *, muster: dict[str, object] | None = None,
              **columns: Any) -> None:
    """Change a play's columns by hand; ``muster``: the muster its JSON records, by side."""
    from cli.state import session
    from db.models import Play

    with session() as s:
        row = s.get(Play, play_id)
        assert row is not None
        for name, value in columns.items():
            setattr(row, name, value)
        if muster is not None:
            spec = json.loads(row.spec)
            for side, value in muster.items():
                spec["sides"][side]["muster"] = value
            row.spec = json.dumps(spec)
        s.add(row)


# ---- written and read ----------------------------------------------------------------------

def test_a_play_holds_both_musters_in_its_columns(runner: CliRunner, wolves: str, hawks: str,
                                                  tmp_path: Path) -> None:
    """The columns are written when the play starts (a company on each side), are what
    keeps both forces from being mustered again, are carried by a backup and its restore,
    and stay, no longer holding anything, once the play is finished."""
    attacker, defender = last_muster(wolves), last_muster(hawks)
    play_id = begin(wolves, hawks)
    assert held(play_id) == (attacker, defender)
    assert using(attacker) == using(defender) == play_id
    for company, side in ((wolves, "attacker"), (hawks, "defender")):
        err = run(runner, "muster", company, "--scenario", "opening-shots", "--side", side,
                  "VIPER-1", "WASP-1", code=1)
        assert f"in play {play_id}" in err
    backup = tmp_path / "backup.json"
    run(runner, "db", "backup", str(backup))
    assert [tuple(p[c] for c in COLUMNS) for p in json.loads(
        backup.read_text())["tables"]["play"]] == [(attacker, defender)]
    run(runner, "db", "restore", str(backup), "--yes")
    assert held(play_id) == (attacker, defender) and using(attacker) == play_id
    assert "sound" in check(runner)
    finish_play(play_id)
    assert held(play_id) == (attacker, defender)  # a finished play keeps its record...
    assert using(attacker) is None and using(defender) is None  # ...and holds nothing
    assert "sound" in check(runner)


def test_a_side_from_a_force_file_holds_no_muster(runner: CliRunner, wolves: str,
                                                  blue: str) -> None:
    play_id = begin(wolves, blue)
    assert held(play_id) == (last_muster(wolves), None)
    assert "sound" in check(runner)


def test_the_oldest_unfinished_play_is_the_one_found(wolves: str, hawks: str) -> None:
    """play_using keeps its meaning: unfinished plays only, the oldest first."""
    attacker = last_muster(wolves)
    plays = []
    for _ in range(3):  # each finished by hand, so the next can take the same forces
        plays.append(begin(wolves, hawks))
        edit_play(plays[-1], status="finished")
    assert using(attacker) is None
    edit_play(plays[2], status="active")
    edit_play(plays[0], status="active")
    assert using(attacker) == plays[0]
    edit_play(plays[0], status="finished")
    assert using(attacker) == plays[2]


def test_the_musters_of_a_play_are_found_by_its_columns_not_its_json(
        runner: CliRunner, wolves: str, hawks: str) -> None:
    """With the musters in the play's JSON changed, the play still holds the musters its
    columns name (and is finished with them), and 'db check' says the two disagree."""
    attacker, defender = last_muster(wolves), last_muster(hawks)
    play_id = begin(wolves, hawks)
    edit_play(play_id, muster={"attacker": attacker + 40, "defender": None})
    assert using(attacker) == using(defender) == play_id
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", code=1)
    err = check(runner, code=1)
    assert (f"play {play_id}: its muster columns say the attacker's muster {attacker} and the "
            f"defender's muster {defender}, but the play's record says no muster") in err
    assert isinstance(finish_play(play_id)["battle_id"], int)


def test_db_check_names_a_play_whose_muster_columns_disagree_with_its_record(
        runner: CliRunner, wolves: str, hawks: str) -> None:
    """'db check' finds each way the columns can disagree with the recorded musters:
    another muster, no muster held for one the record names, a muster the record does not
    name; put right, the database is sound again."""
    attacker, defender = last_muster(wolves), last_muster(hawks)
    play_id = begin(wolves, hawks)
    both = f"the attacker's muster {attacker} and the defender's muster {defender}"
    edit_play(play_id, defender_muster_id=attacker)
    err = check(runner, code=1)
    assert (f"play {play_id}: its muster columns say the attacker's muster {attacker} and the "
            f"defender's muster {attacker}, but the play's record says {both}") in err
    edit_play(play_id, attacker_muster_id=None, defender_muster_id=None)
    assert f"its muster columns say no muster, but the play's record says {both}" in check(
        runner, code=1)
    edit_play(play_id, attacker_muster_id=attacker, defender_muster_id=defender)
    assert "sound" in check(runner)
    edit_play(play_id, muster={"defender": None})
    assert (f"its muster columns say {both}, but the play's record says the attacker's muster "
            f"{attacker}") in check(runner, code=1)
    edit_play(play_id, muster={"defender": defender})
    edit_play(play_id, status="finished")  # a finished play may hold nothing...
    edit_play(play_id, defender_muster_id=None)
    assert "sound" in check(runner)
    edit_play(play_id, defender_muster_id=attacker)  # ...but never another muster
    assert f"play {play_id}: its muster columns say" in check(runner, code=1)


# ---- a muster deleted, undo ----------------------------------------------------------------

def test_a_finished_play_never_stops_its_muster_being_replaced(
        runner: CliRunner, wolves: str, blue: str) -> None:
    """A play set aside ends with its company's muster still waiting for a battle; that
    muster may be replaced, and the finished play lets go of it (the column is emptied),
    even when the new muster is given the old one's id."""
    from campaigns.play import set_aside
    from cli.state import session

    first = last_muster(wolves)
    play_id = begin(wolves, blue)
    with session() as s:
        set_aside(s, play_id)
    assert using(first) is None
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    again = last_muster(wolves)
    assert held(play_id) == (None, None)
    assert using(again) is None
    assert "sound" in check(runner)
    new = begin(wolves, blue)
    assert held(new) == (again, None) and using(again) == new


def test_undoing_another_change_keeps_the_musters_held(runner: CliRunner, wolves: str,
                                                       hawks: str) -> None:
    """An undo writes the company's musters back into their own rows, so a play holding one
    goes on holding it: the force cannot be mustered again, and the play can be finished.
    An undo that takes away a muster a finished play held empties that column."""
    attacker, defender = last_muster(wolves), last_muster(hawks)
    play_id = begin(wolves, hawks)
    run(runner, "pilot", "hire", wolves, "Dee")
    run(runner, "company", "undo", wolves)
    assert held(play_id) == (attacker, defender) and using(attacker) == play_id
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", code=1)
    assert "sound" in check(runner)
    finish_play(play_id)
    run(runner, "company", "undo", wolves)  # the battle
    assert held(play_id) == (attacker, defender)
    run(runner, "company", "undo", wolves)  # and the muster
    assert held(play_id) == (None, defender)
    assert "sound" in check(runner)


def test_deleting_a_company_lets_go_of_its_muster(runner: CliRunner, wolves: str,
                                                  hawks: str) -> None:
    """A play of no campaign can never be finished once a company of it is deleted: it is
    set aside (its record kept, marked so, no battle stored), the other company's force is
    free again, and its column for the deleted company's muster is emptied."""
    from campaigns.company import Refused
    from campaigns.play import load
    from cli.state import session

    defender = last_muster(hawks)
    play_id = begin(wolves, hawks)
    out = run(runner, "company", "delete", wolves, "--yes")
    assert f"Play {play_id}, which Wolves was fighting" in out and "set aside" in out
    assert held(play_id) == (None, defender) and using(defender) is None
    assert "sound" in check(runner)
    with session() as s, pytest.raises(Refused, match="is over: set aside"):
        load(s, play_id)
    run(runner, "muster", hawks, "--scenario", "opening-shots", "--side", "defender",
        "VIPER-1", "WASP-1", "WASP-2")  # Hawks may muster again


# ---- migration 10 and old backups ----------------------------------------------------------

def as_old_backup(data: dict[str, Any]) -> dict[str, Any]:
    """A backup as a meks of schema 9 made it: the play rows without the muster columns
    (and the musters without the scenario migration 11 keeps with them)."""
    old = json.loads(json.dumps(data, default=str))
    old["schema_version"] = OLD
    for row in old["tables"]["play"]:
        for column in COLUMNS:
            del row[column]
    without_kept_scenarios(old["tables"])
    return old


def write_old_database(location: str, backup: dict[str, Any]) -> None:
    """An old database (schema 9, as its own migrations made it) holding ``backup``."""
    write_old_campaign_database(location, backup, version=OLD, absent=COLUMNS)


def on_delete(conn: Any, column: str) -> tuple[str, str]:
    """The table a column of ``play`` links to, and what its rows do when it is deleted."""
    if conn.dialect.name == "sqlite":  # SQLAlchemy does not read it back from SQLite
        for link in conn.exec_driver_sql("PRAGMA foreign_key_list(play)").all():
            if link[3] == column:
                return link[2], link[6]
        raise AssertionError(f"{column} links to nothing")
    link = next(k for k in inspect(conn).get_foreign_keys("play")
                if k["constrained_columns"] == [column])
    return link["referred_table"], link["options"].get("ondelete", "NO ACTION")


def test_migration_10_fills_the_columns_of_an_unfinished_play(
        runner: CliRunner, temp_database: str, wolves: str, hawks: str) -> None:
    """Migration 10 on a database of schema 9 holding a battle left half-played: the play
    gets its musters from its JSON (indexed columns linked to the muster table), 'db check'
    finds it sound, the forces stay held, and the play resumes and is finished. Plays whose
    JSON names a muster that is gone, or one of another company (its id given again), hold
    none; a side from a force file holds none either."""
    from db.backup import dump
    from db.engine import engine_for
    from db.migrations import LATEST, applied_versions

    attacker, defender = last_muster(wolves), last_muster(hawks)
    play_id = begin(wolves, hawks)
    backup = as_old_backup(dump(engine_for(temp_database)))
    plays = backup["tables"]["play"]
    gone, other = (json.loads(json.dumps(plays[0])) for _ in range(2))
    gone["id"], other["id"] = play_id + 1, play_id + 2
    for row, muster in ((gone, (attacker + 7, defender)), (other, (defender, attacker))):
        spec = json.loads(row["spec"])
        spec["sides"]["attacker"]["muster"], spec["sides"]["defender"]["muster"] = muster
        row["spec"], row["status"] = json.dumps(spec), "finished"
    plays += [gone, other]
    _blank(temp_database)
    write_old_database(temp_database, backup)
    with engine_for(temp_database).connect() as conn:
        assert applied_versions(conn)[-1] == LATEST
        found = inspect(conn)
        assert set(COLUMNS) <= {c["name"] for c in found.get_columns("play")}
        for column in COLUMNS:
            assert on_delete(conn, column) == ("muster", "SET NULL")
            assert any(i["column_names"] == [column] for i in found.get_indexes("play"))
    assert held(play_id) == (attacker, defender)
    assert using(attacker) == using(defender) == play_id
    assert held(gone["id"]) == (None, defender)
    assert held(other["id"]) == (None, None)  # each names the other company's muster
    assert "sound" in check(runner)
    finish_play(play_id)
    assert "sound" in check(runner)


def test_an_old_backup_with_an_unfinished_play_restores_with_its_musters(
        runner: CliRunner, temp_database: str, tmp_path: Path, wolves: str,
        blue: str) -> None:
    """'meks db restore' of a backup made at schema 9: the restored play gets its columns
    as migration 10 would have given them, its force stays held, and it is finished."""
    from db.backup import dump
    from db.engine import engine_for

    attacker = last_muster(wolves)
    play_id = begin(wolves, blue)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(as_old_backup(dump(engine_for(temp_database)))))
    run(runner, "mek", "buy", wolves, "THOR")  # something for the restore to take away
    run(runner, "db", "restore", str(old), "--yes")
    assert held(play_id) == (attacker, None) and using(attacker) == play_id
    assert "sound" in check(runner)
    assert isinstance(finish_play(play_id)["battle_id"], int)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 40, 2 ** 40) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["sides", "attacker", "defender", "company", "muster"]),
        inner, max_size=4),
    max_leaves=12)
sides = st.fixed_dictionaries({
    "sides": st.one_of(json_values, st.dictionaries(
        st.sampled_from(["attacker", "defender"]),
        st.one_of(json_values, st.fixed_dictionaries({
            "company": st.one_of(st.sampled_from([1, 2, 5, True]), json_values),
            "muster": st.one_of(st.sampled_from([1, 2, 3, 4, True, 2 ** 31]), json_values),
        })), max_size=2)),
})


@settings(max_examples=300, deadline=None)
@given(spec=st.one_of(json_values, sides))
def test_db_check_asks_for_the_musters_migration_10_holds(spec: Any) -> None:
    """Property: for any JSON a play's record may hold (damaged or not), migration 10's
    musters (its own frozen rule) are the ones 'db check' asks an unfinished play to hold,
    and neither raises."""
    from campaigns.integrity import musters_agree, recorded_musters
    from db.migrations.tables import _musters_named_v10

    owners = {1: 1, 2: 2, 3: 5, 4: 9}  # muster id: its company
    made = _musters_named_v10(json.dumps(spec), owners)
    assert made == recorded_musters(spec, owners)
    assert musters_agree(made, recorded_musters(spec, owners), active=True)
