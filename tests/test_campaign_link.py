"""Issue 16 item 4: the campaign link in the store. A play of a campaign step (``campaign
next --play``) holds its campaign and plan position as columns of its own (``campaign_id``,
``campaign_step``), written when it starts and read wherever the step's play is looked for or
finished; migration 8 fills them from the JSON of plays stored before; an old backup gets
them on restore; undo and company delete keep them right; ``db check`` compares them with
what the play records. Every test runs on SQLite, and on PostgreSQL with MEKS_TEST_DB set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import MetaData, create_engine, func, inspect, select, text
from typer.testing import CliRunner

from cli.app import app
from tests.test_play import StopAfter, console, enter_always, run, saver

OLD = 7  # the schema before the play's campaign columns


def campaign_play(runner: CliRunner, quit_after: int = 3) -> tuple[int, int]:
    """Hawks on the built-in campaign, its first battle begun at the terminal and left
    after a few decisions. Returns the play's and the campaign's ids."""
    import pytest

    from campaigns.campaign import play_step
    from cli.play_run import run as play
    from cli.prompts import Quit
    from cli.state import session

    run(runner, "company", "create", "Hawks")
    started = json.loads(run(runner, "campaign", "start", "Hawks", "--seed", "21",
                             "--no-treasury", "--json"))
    with session() as s:
        state, new = play_step(s, "Hawks")
    assert new
    with pytest.raises(Quit):
        play(state, console(), saver(state.id), StopAfter(quit_after))
    return state.id, started["id"]


def stored_link(play_id: int) -> tuple[int | None, int | None]:
    from cli.state import session
    from db.models import Play

    with session() as s:
        row = s.get(Play, play_id)
        assert row is not None
        return row.campaign_id, row.campaign_step


def resume_and_finish(runner: CliRunner, play_id: int) -> dict[str, Any]:
    """Go on with the campaign's battle as 'campaign next --play' does (the same play, not a
    new one), fight it to the end and finish it; the campaign must move on."""
    from campaigns.campaign import play_step
    from campaigns.play import finish
    from cli.play_run import run as play
    from cli.state import session

    with session() as s:
        state, new = play_step(s, "Hawks")
    assert not new and state.id == play_id
    assert state.decisions  # the decisions made before are there to be replayed
    battle = play(state, console(), saver(state.id), enter_always)
    with session() as s:
        data = finish(s, state.id, battle)
    assert data["campaign"]["position"] == 1
    status = json.loads(run(runner, "campaign", "status", "Hawks", "--json"))
    assert status["position"] == 1 and status["results"][0]["battle_id"] == data["battle_id"]
    return data


def check(runner: CliRunner, code: int = 0) -> str:
    result = runner.invoke(app, ["db", "check"])
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout if code == 0 else result.stderr


# ---- written and read ----------------------------------------------------------------------

def test_a_campaign_play_stores_its_campaign_and_step_as_columns(runner: CliRunner,
                                                                  tmp_path: Path) -> None:
    """The columns are written when the play starts, agree with the step the play records,
    are carried by a backup and its restore, and are what finds the play again and
    completes the campaign step."""
    from cli.state import session
    from db.models import Play

    play_id, campaign_id = campaign_play(runner)
    assert stored_link(play_id) == (campaign_id, 0)
    backup = tmp_path / "backup.json"
    run(runner, "db", "backup", str(backup))
    assert [(p["campaign_id"], p["campaign_step"]) for p in json.loads(
        backup.read_text())["tables"]["play"]] == [(campaign_id, 0)]
    run(runner, "db", "restore", str(backup), "--yes")
    assert stored_link(play_id) == (campaign_id, 0)
    with session() as s:
        row = s.get(Play, play_id)
        assert row is not None
        step = json.loads(row.spec)["campaign"]
    assert (step["id"], step["position"], step["side"]) == (campaign_id, 0, "attacker")
    assert "sound" in check(runner)
    resume_and_finish(runner, play_id)
    assert stored_link(play_id) == (campaign_id, 0)  # a finished play keeps its link
    assert "sound" in check(runner)


def test_the_play_of_a_step_is_found_by_its_columns_not_its_json(runner: CliRunner) -> None:
    """With the step in the play's JSON changed to another campaign and position, the play
    is still the campaign's battle (found and finished by its columns), and 'db check' says
    the two disagree."""
    from cli.state import session
    from db.models import Play

    play_id, campaign_id = campaign_play(runner)
    with session() as s:
        row = s.get(Play, play_id)
        assert row is not None
        spec = json.loads(row.spec)
        spec["campaign"].update(id=campaign_id + 40, position=3)
        row.spec = json.dumps(spec)
        s.add(row)
    err = check(runner, code=1)
    assert (f"play {play_id}: its campaign columns say campaign {campaign_id} at plan position "
            f"0, but the play's record says no campaign") in err
    resume_and_finish(runner, play_id)


def edit_play(play_id: int, record: bool = True, **columns: Any) -> None:
    """Change a play's columns by hand; ``record=False``: take the campaign step out of the
    play's JSON."""
    from cli.state import session
    from db.models import Play

    with session() as s:
        row = s.get(Play, play_id)
        assert row is not None
        for name, value in columns.items():
            setattr(row, name, value)
        if not record:
            spec = json.loads(row.spec)
            del spec["campaign"]
            row.spec = json.dumps(spec)
        s.add(row)


def test_db_check_names_a_play_whose_columns_disagree_with_its_record(
        runner: CliRunner) -> None:
    """'db check' finds each way the columns can disagree with the recorded step: another
    position, no link for a step of a campaign that is there, a link the record does not
    make; put right, the database is sound again."""
    play_id, campaign_id = campaign_play(runner)
    said = f"campaign {campaign_id} at plan position 0"
    edit_play(play_id, campaign_step=2)
    err = check(runner, code=1)
    assert (f"play {play_id}: its campaign columns say campaign {campaign_id} at plan "
            f"position 2, but the play's record says {said}") in err
    edit_play(play_id, campaign_id=None, campaign_step=None)
    assert f"its campaign columns say no campaign, but the play's record says {said}" in check(
        runner, code=1)
    edit_play(play_id, campaign_id=campaign_id, campaign_step=0)
    assert "sound" in check(runner)
    edit_play(play_id, record=False)
    assert f"its campaign columns say {said}, but the play's record says no campaign" in check(
        runner, code=1)


def test_a_campaign_step_the_play_no_longer_records_is_a_damaged_record(
        runner: CliRunner) -> None:
    """A play linked to a campaign step whose details (side, support, Meks bought) are gone
    from its JSON is refused, naming the record, when it is resumed: not after the battle
    has been fought again."""
    import pytest

    from campaigns.campaign import play_step
    from campaigns.files.stored import DamagedRecord
    from cli.state import session

    play_id, _ = campaign_play(runner)
    edit_play(play_id, record=False)
    with pytest.raises(DamagedRecord) as damaged, session() as s:
        play_step(s, "Hawks")
    assert f"play {play_id}, spec" in str(damaged.value)


# ---- migration 8 and old backups -----------------------------------------------------------

def _url(location: str) -> str:
    return location if "://" in location else f"sqlite:///{location}"


def _blank(location: str) -> None:
    """Empty the test database (the file removed, or the server's schema emptied)."""
    from db.engine import dispose_all
    from tests.conftest import _reset_server

    dispose_all()
    if "://" in location:
        _reset_server(location)
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(location + suffix).unlink(missing_ok=True)


def links_in_json(tables: dict[str, list[dict[str, Any]]]) -> None:
    """Backup tables as a meks before migrations 14 and 15 wrote them: no ``muster_mek`` or
    ``campaign_battle`` table, each muster's force in its JSON column instead, and each
    campaign step's battle id in its results (the company states the events keep hold the
    same document either way)."""
    forces: dict[int, list[dict[str, int]]] = {}
    for row in sorted(tables.pop("muster_mek"), key=lambda r: (r["muster_id"], r["position"])):
        entry = {"mek": row["mek_id"], "pilot": row["pilot_id"]}
        entry.update({key: row[key] for key in ("paid", "owed") if row[key] is not None})
        forces.setdefault(row["muster_id"], []).append(entry)
    for row in tables["muster"]:
        assert row["force"] == "[]"
        row["force"] = json.dumps(forces.get(row["id"], []))
    battles = {(row["campaign_id"], row["position"]): row["battle_id"]
               for row in tables.pop("campaign_battle")}
    for row in tables["campaign"]:
        results = json.loads(row["results"])
        for position, entry in enumerate(results):
            assert entry["battle_id"] is None
            entry["battle_id"] = battles.get((row["id"], position))
        row["results"] = json.dumps(results)


def without_treasuries(tables: dict[str, list[dict[str, Any]]]) -> None:
    """Backup tables as a meks before migration 12 wrote them: no campaign keeps a treasury,
    in its row or in the company states the events keep (and, made before migration 14,
    each muster's force and each campaign step's battle are in their JSON)."""
    links_in_json(tables)
    for row in tables["campaign"]:
        assert row.pop("treasury") is None
    for row in tables["event"]:
        for state in ("before", "after"):
            doc = json.loads(row[state]) if row[state] else None
            if isinstance(doc, dict):
                assert all("treasury" not in c for c in doc.get("campaigns", []))


def without_kept_scenarios(tables: dict[str, list[dict[str, Any]]]) -> None:
    """Backup tables as a meks before migration 11 wrote them: no muster keeps the scenario
    it was made for, in its row or in the company states the events keep (and, made before
    migration 12, no campaign keeps a treasury)."""
    without_treasuries(tables)
    for row in tables["muster"]:
        del row["definition"]
    for row in tables["event"]:
        for state in ("before", "after"):
            doc = json.loads(row[state]) if row[state] else None
            if isinstance(doc, dict) and "musters" in doc:
                for muster in doc["musters"]:
                    muster.pop("definition", None)
                row[state] = json.dumps(doc)


def as_old_backup(data: dict[str, Any]) -> dict[str, Any]:
    """A backup as a meks of schema 7 made it: the play rows without the columns."""
    old = json.loads(json.dumps(data, default=str))
    old["schema_version"] = OLD
    for row in old["tables"]["play"]:
        del row["campaign_id"], row["campaign_step"]
        del row["attacker_muster_id"], row["defender_muster_id"]  # and migration 10's
    without_kept_scenarios(old["tables"])  # and migration 11's
    del old["tables"]["stockpile"]  # and what migration 9 added
    for row in old["tables"]["mek"]:
        del row["lost"], row["owed"], row["wear"]
    return old


def write_old_database(location: str, backup: dict[str, Any], version: int = OLD,
                       absent: tuple[str, ...] = ("campaign_id",)) -> None:
    """An old database (schema ``version``, 7 unless given, as its own migrations made it)
    holding ``backup``; the play table has none of the ``absent`` columns."""
    from db.backup import tables as in_order
    from db.migrations import applied_versions, migrate

    engine = create_engine(_url(location))
    try:
        with engine.begin() as conn:
            migrate(conn, upto=version)
            tables = MetaData()
            tables.reflect(conn)
            assert not set(absent) & set(tables.tables["play"].c.keys())
            for table in in_order():
                rows = backup["tables"].get(table.name, [])
                if rows:
                    conn.execute(tables.tables[table.name].insert(), rows)
                if conn.dialect.name == "postgresql" and "id" in table.c and rows:
                    top = conn.execute(select(func.max(tables.tables[table.name].c.id)))
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', "
                                      f"'id'), {top.scalar()})"))
            assert applied_versions(conn)[-1] == version
    finally:
        engine.dispose()


def test_an_old_database_with_an_unfinished_campaign_play_is_carried_forward(
        runner: CliRunner, temp_database: str) -> None:
    """Migration 8 on a database of schema 7 holding a campaign battle left half-played:
    the play gets its campaign and step from its JSON, 'db check' finds it sound, and the
    play resumes where it stopped and completes the campaign step."""
    from db.backup import dump
    from db.engine import engine_for
    from db.migrations import LATEST, applied_versions

    play_id, campaign_id = campaign_play(runner)
    backup = as_old_backup(dump(engine_for(temp_database)))
    _blank(temp_database)
    write_old_database(temp_database, backup)
    with engine_for(temp_database).connect() as conn:
        assert applied_versions(conn)[-1] == LATEST
        found = inspect(conn)
        assert {"campaign_id", "campaign_step"} <= {c["name"] for c in found.get_columns("play")}
        assert any(k["referred_table"] == "campaign" for k in found.get_foreign_keys("play"))
        assert any(i["column_names"] == ["campaign_id"] for i in found.get_indexes("play"))
    assert stored_link(play_id) == (campaign_id, 0)
    assert "sound" in check(runner)
    resume_and_finish(runner, play_id)
    assert "sound" in check(runner)


def test_an_old_backup_with_an_unfinished_campaign_play_restores_with_its_link(
        runner: CliRunner, temp_database: str, tmp_path: Path) -> None:
    """'meks db restore' of a backup made at schema 7: the restored play gets its columns
    as migration 8 would have given them, and goes on to complete the campaign step."""
    from db.backup import dump
    from db.engine import engine_for

    play_id, campaign_id = campaign_play(runner)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(as_old_backup(dump(engine_for(temp_database)))))
    run(runner, "mek", "buy", "Hawks", "THOR")  # something for the restore to take away
    run(runner, "db", "restore", str(old), "--yes")
    assert stored_link(play_id) == (campaign_id, 0)
    assert "sound" in check(runner)
    resume_and_finish(runner, play_id)


def test_migration_8_links_only_a_campaign_that_is_there_and_of_the_plays_company(
        runner: CliRunner, temp_database: str) -> None:
    """Plays stored before schema 8 whose JSON names a campaign that is gone, or one of
    another company (its id given again), are left without a link, and 'db check' accepts
    that; a plain play (no campaign) has none either."""
    from db.backup import dump
    from db.engine import engine_for

    play_id, campaign_id = campaign_play(runner)
    backup = as_old_backup(dump(engine_for(temp_database)))
    plays = backup["tables"]["play"]
    gone, other = (json.loads(json.dumps(plays[0])) for _ in range(2))
    gone["id"], other["id"] = play_id + 1, play_id + 2
    for row, campaign, company in ((gone, campaign_id + 7, None), (other, campaign_id, 99)):
        spec = json.loads(row["spec"])
        spec["campaign"]["id"] = campaign
        if company is not None:
            spec["sides"]["attacker"]["company"] = company
        row["spec"], row["status"] = json.dumps(spec), "finished"
    plain = json.loads(json.dumps(plays[0]))
    spec = json.loads(plain["spec"])
    del spec["campaign"]
    plain.update(id=play_id + 3, status="finished", spec=json.dumps(spec))
    plays += [gone, other, plain]
    _blank(temp_database)
    write_old_database(temp_database, backup)
    engine_for(temp_database)
    assert stored_link(play_id) == (campaign_id, 0)
    for row in (gone, other, plain):
        assert stored_link(row["id"]) == (None, None)
    assert "sound" in check(runner)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 40, 2 ** 40) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["campaign", "id", "position", "sides", "attacker", "company"]),
        inner, max_size=4),
    max_leaves=12)
steps = st.fixed_dictionaries({
    "campaign": st.one_of(json_values, st.fixed_dictionaries({
        "id": st.one_of(st.sampled_from([1, 2, 3, True, -1, 2 ** 31]), json_values),
        "position": st.one_of(st.integers(-2, 2 ** 31 + 1), json_values)})),
    "sides": st.one_of(json_values, st.dictionaries(
        st.sampled_from(["attacker", "defender"]),
        st.one_of(json_values, st.fixed_dictionaries({
            "company": st.one_of(st.sampled_from([1, 2, 5]), json_values)})), max_size=2)),
})


@settings(max_examples=300, deadline=None)
@given(spec=st.one_of(json_values, steps))
def test_db_check_accepts_every_link_migration_8_makes(spec: Any) -> None:
    """Property: for any JSON a play's record may hold (damaged or not), migration 8's link
    (its own frozen rule) is the one 'db check' asks for, and neither raises."""
    from campaigns.integrity import recorded_step
    from db.migrations.tables import _step_named_v8

    owners = {1: 1, 2: 2, 3: 9}  # campaign id: its company
    assert _step_named_v8(json.dumps(spec), owners) == recorded_step(spec, owners)


# ---- undo and delete -----------------------------------------------------------------------

def test_undoing_another_change_keeps_the_campaign_play(runner: CliRunner) -> None:
    """An undo writes the company's campaigns back into their own rows, so the play of a
    campaign step (which goes with its campaign) stays, linked, and can be finished."""
    play_id, campaign_id = campaign_play(runner)
    run(runner, "mek", "buy", "Hawks", "THOR")
    run(runner, "company", "undo", "Hawks")
    assert stored_link(play_id) == (campaign_id, 0)
    assert "sound" in check(runner)
    resume_and_finish(runner, play_id)
    run(runner, "company", "undo", "Hawks")  # the campaign goes back a step...
    assert stored_link(play_id) == (campaign_id, 0)  # ...and its finished play stays
    status = json.loads(run(runner, "campaign", "status", "Hawks", "--json"))
    assert status["id"] == campaign_id and status["position"] == 0
    assert "sound" in check(runner)


def test_deleting_a_company_takes_its_campaign_plays_with_it(runner: CliRunner) -> None:
    """A play goes with its campaign (the foreign key cascades, as the store's other
    links do): no unfinished play is left that could never be finished."""
    from campaigns.play import unfinished
    from cli.state import session
    from db.models import Play

    play_id, _ = campaign_play(runner)
    run(runner, "company", "delete", "Hawks", "--yes")
    with session() as s:
        assert s.get(Play, play_id) is None
        assert unfinished(s) == []
    assert "sound" in check(runner)



# ---- the opponent's difficulty ---------------------------------------------------------------

def test_a_campaign_play_faces_the_bot_at_the_campaigns_difficulty(runner: CliRunner) -> None:
    """'campaign next --play' on a hard campaign: the opponent is the bot at hard, kept in the
    play's record, given to the battle that resumes it and to the stored battle (so a replay's
    opponent plays at the same level). A play stored before plays kept it takes the
    campaign's."""
    import pytest

    from campaigns.campaign import play_step
    from campaigns.play import finish
    from cli.play_run import run as play
    from cli.prompts import Quit
    from cli.state import session
    from db.models import BattleLog, Play
    from meks.engine.bot import Bot
    from meks.engine.bot.choices import Difficulty
    from meks.engine.recorded import Recorded

    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "21", "--difficulty", "hard",
        "--no-treasury")
    with session() as s:
        state, _ = play_step(s, "Hawks")
    assert state.difficulty is Difficulty.HARD
    with pytest.raises(Quit):
        play(state, console(), saver(state.id), StopAfter(3))
    kept = state.battle(Bot()).controllers[state.side.enemy]
    assert isinstance(kept, Recorded)  # its answers kept for the stored battle
    enemy = kept.inner
    assert isinstance(enemy, Bot) and enemy.difficulty is Difficulty.HARD
    with session() as s:  # as stored before plays kept the difficulty
        row = s.get(Play, state.id)
        assert row is not None
        spec = json.loads(row.spec)
        assert spec["difficulty"] == "hard"
        del spec["difficulty"]
        row.spec = json.dumps(spec)
        s.add(row)
    with session() as s:
        again, new = play_step(s, "Hawks")
    assert not new and again.difficulty is Difficulty.HARD
    battle = play(again, console(), saver(again.id), enter_always)
    with session() as s:
        data = finish(s, again.id, battle)
    with session() as s:
        log = s.get(BattleLog, data["battle_id"])
        assert log is not None
        assert json.loads(log.spec)["difficulty"] == "hard"
    replayed = json.loads(run(runner, "battle", "replay", str(data["battle_id"]), "--json"))
    assert replayed["identical"]
    assert "sound" in check(runner)
