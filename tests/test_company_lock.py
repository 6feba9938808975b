"""Issue 14, item 1: a shared league cannot lose a change. Every change to a company takes
turns with every other change to it (``db.locks``), on SQLite and on PostgreSQL alike.

The tests here race real processes running the ``meks`` commands against one database,
released together through a start gate, and then check the record: every change that
reported success is there, or was named by an undo that reported success; every undo
undid exactly the change it named; ``meks db check`` passes; and no process ever saw
"unexpected problem" or a database error."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from tests.conftest import SERVER

REPO = Path(__file__).resolve().parent.parent

# One worker process: it waits at the gate (a file that appears once every worker is
# ready), then runs its commands one after the other and prints what each reported.
WORKER = """
import json, os, sys, time
from typer.testing import CliRunner
from cli.app import app
db, gate, commands = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
runner = CliRunner()
runner.invoke(app, ["--db", db, "company", "list"])  # connected before the race starts
open(gate + "." + str(os.getpid()), "w").close()
deadline = time.monotonic() + 300
while not os.path.exists(gate) and time.monotonic() < deadline:
    time.sleep(0.005)
done = []
for args in commands:
    r = runner.invoke(app, ["--db", db, *args])
    done.append({"args": args, "code": r.exit_code, "out": r.stdout, "err": r.stderr})
print(json.dumps(done))
"""


def race(db: str, tmp_path: Path, work: list[list[list[str]]]) -> list[list[dict[str, Any]]]:
    """Run each list of commands in a process of its own, all released at once; what
    every command reported, by process."""
    gate = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, db, str(gate), json.dumps(cmds)],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for cmds in work]
    deadline = time.monotonic() + 300  # a guard against a hung start, not a timing
    while len(list(tmp_path.glob("go.*"))) < len(procs) and time.monotonic() < deadline:
        if any(p.poll() is not None for p in procs):
            break
        time.sleep(0.01)
    gate.touch()
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
        assert "Traceback" not in err, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    for done in results:
        for r in done:
            said = r["out"] + r["err"]
            assert "unexpected problem" not in said, r
            assert "could not complete" not in said and "clashed" not in said, r
            assert r["code"] in (0, 1), r
    return results


def invoke(db: str, *args: str) -> Any:
    result = CliRunner().invoke(app, ["--db", db, *args])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout) if "--json" in args else result.stdout


def events(db: str) -> list[dict[str, Any]]:
    """Every event row, oldest first, with its states."""
    from sqlmodel import col, select

    from db.engine import transaction
    from db.models import Event

    with transaction(db) as s:
        return [{"id": e.id, "command": e.command, "summary": e.summary, "undoes": e.undoes,
                 "undone": e.undone, "before": json.loads(e.before) if e.before else None,
                 "after": json.loads(e.after) if e.after else None}
                for e in s.exec(select(Event).order_by(col(Event.id))).all()]


def assert_db_check(db: str) -> None:
    check = CliRunner().invoke(app, ["--db", db, "db", "check"])
    assert check.exit_code == 0, check.stdout + check.stderr
    assert "unexpected problem" not in check.stdout + check.stderr


# ---- 2 buyers x 60 and 1 undoer x 60 on one company ------------------------------------------

BUYS = 60
UNDOS = 60
COMPANY = "Shared Lance"
BOUGHT = re.compile(r"^Bought (\S+) \(")


def bought(summary: str) -> str:
    """The callsign a buy's summary names ('Bought B1-7 (WASP, 9 points).')."""
    match = BOUGHT.match(summary)
    assert match, summary
    return match.group(1)


def buyers_and_undoer(db: str, tmp_path: Path) -> None:
    invoke(db, "company", "create", COMPANY)
    work = [[["mek", "buy", COMPANY, "WASP", "--callsign", f"B{b}-{k}", "--json"]
             for k in range(1, BUYS + 1)] for b in (1, 2)]
    work.append([["company", "undo", COMPANY, "--json"]] * UNDOS)
    buyer1, buyer2, undoer = race(db, tmp_path, work)

    callsigns = []
    for r in buyer1 + buyer2:  # a buy is refused by nothing here: each must succeed
        assert r["code"] == 0, r
        callsigns.append(json.loads(r["out"])["callsign"])
    assert len(set(callsigns)) == 2 * BUYS
    named: list[int] = []
    undone_callsigns = []
    for r in undoer:
        if r["code"] == 1:  # nothing left to undo at that moment: refused, nothing changed
            assert "has no change left to undo" in r["err"], r
            continue
        result = json.loads(r["out"])
        assert result["command"] == "mek buy", result
        named.append(result["undone"])
        undone_callsigns.append(bought(result["summary"]))
    assert named, "the undoer never found a change to undo"
    assert len(set(named)) == len(named), "an event was undone twice"
    assert set(undone_callsigns) <= set(callsigns)

    # every buy that reported success is in the stable, unless a successful undo named it
    view = invoke(db, "company", "show", COMPANY, "--json")
    assert sorted(m["callsign"] for m in view["meks"]) == sorted(
        set(callsigns) - set(undone_callsigns))

    # the history holds each buy once and each successful undo once, and each undo put
    # back exactly the state its event started from, when the state was its event's after
    rows = events(db)
    by_id = {e["id"]: e for e in rows}
    buys = [e for e in rows if e["command"] == "mek buy"]
    assert sorted(bought(e["summary"]) for e in buys) == sorted(callsigns)
    undos = [e for e in rows if e["command"] == "undo"]
    assert sorted(e["undoes"] for e in undos) == sorted(named)
    assert {e["id"] for e in buys if e["undone"]} == set(named)
    for u in undos:
        target = by_id[u["undoes"]]
        assert u["before"] == target["after"], f"undo {u['id']} did not start where its " \
            "event ended"
        assert u["after"] == target["before"], f"undo {u['id']} did not put back exactly " \
            "what its event changed"
    # and every change started from the state the one before it left
    state = None
    for e in rows:
        if state is not None:
            assert e["before"] == state, f"event {e['id']} started from another state"
        state = e["after"]
    assert_db_check(db)


@pytest.mark.slow
@pytest.mark.skipif(bool(SERVER), reason="an SQLite file: the first pass of CI runs it")
def test_issue14_no_change_lost_two_buyers_one_undoer_on_sqlite(tmp_path: Path) -> None:
    """Issue 14 item 1, on an SQLite file: 2 processes buying 60 Meks each into one company
    while a third runs 'company undo' on it 60 times lose nothing."""
    buyers_and_undoer(str(tmp_path / "league.db"), tmp_path)


@pytest.mark.slow
@pytest.mark.skipif(not SERVER, reason="runs in the PostgreSQL pass (MEKS_TEST_DB)")
def test_issue14_no_change_lost_two_buyers_one_undoer_on_postgresql(
        temp_database: str, tmp_path: Path) -> None:
    """Issue 14 item 1, on PostgreSQL: 2 processes buying 60 Meks each into one company
    while a third runs 'company undo' on it 60 times lose nothing (before, an undo could
    restore a state that erased a buy committed in between)."""
    buyers_and_undoer(temp_database, tmp_path)


# ---- default callsigns and company names chosen at the same moment ---------------------------

def default_callsigns_and_names(db: str, tmp_path: Path) -> None:
    invoke(db, "company", "create", "Callsign Race")
    each, names = 12, 10
    work = [[["mek", "buy", "Callsign Race", "WASP", "--json"]] * each
            + [["company", "create", f"Newcomer {n}", "--json"] for n in range(names)]
            for _ in range(3)]
    results = race(db, tmp_path, work)
    callsigns = []
    founded: dict[str, int] = {}
    for done in results:
        for r in done:
            if r["args"][0] == "mek":
                assert r["code"] == 0, r
                callsigns.append(json.loads(r["out"])["callsign"])
            elif r["code"] == 0:
                name = json.loads(r["out"])["name"]
                founded[name] = founded.get(name, 0) + 1
            else:  # founded by another process first: said in one sentence
                assert re.fullmatch(r"Error: A company called 'Newcomer \d+' already exists; "
                                    r"choose another name\.\n", r["err"]), r
    assert sorted(callsigns) == sorted(f"WASP-{n}" for n in range(1, 3 * each + 1))
    assert founded == {f"Newcomer {n}": 1 for n in range(names)}
    assert_db_check(db)


@pytest.mark.slow
@pytest.mark.skipif(bool(SERVER), reason="an SQLite file: the first pass of CI runs it")
def test_issue14_default_callsign_race_on_sqlite(tmp_path: Path) -> None:
    """Issue 14 item 1, on an SQLite file: 3 processes buying Meks without a callsign into
    one company get distinct default callsigns (WASP-1, WASP-2, ...), and founding the same
    company names at once founds each once and refuses the rest in one sentence."""
    default_callsigns_and_names(str(tmp_path / "league.db"), tmp_path)


@pytest.mark.slow
@pytest.mark.skipif(not SERVER, reason="runs in the PostgreSQL pass (MEKS_TEST_DB)")
def test_issue14_default_callsign_race_on_postgresql(temp_database: str,
                                                     tmp_path: Path) -> None:
    """Issue 14 item 1, on PostgreSQL: the default-callsign race that ended in an
    IntegrityError with its SQL printed gives distinct callsigns; founding one name twice
    at once founds it once and refuses the other in one sentence."""
    default_callsigns_and_names(temp_database, tmp_path)


# ---- every change waits for the change before it (PostgreSQL) --------------------------------

def _setup(db: str, extra: str) -> None:
    """Lance and Rival, each with VIPER-1, WASP-1 and WASP-2 piloted; ``extra``: what the
    case needs on top (a muster, a campaign, a play)."""
    from campaigns.campaign import start_campaign
    from campaigns.company import create_company
    from campaigns.files.scenarios import get_scenario
    from campaigns.hangar import assign_pilot, buy_mek, hire_pilot
    from campaigns.musters import Limits
    from campaigns.musters import muster as do_muster
    from campaigns.play import start
    from db.engine import transaction
    from meks.game.catalog import load_catalog
    from meks.game.vocabulary import Side

    catalog = load_catalog()
    with transaction(db) as s:
        for name in ("Lance", "Rival"):
            create_company(s, name)
            for design in ("VIPER", "WASP", "WASP"):
                mek = buy_mek(s, name, catalog.design(design), custom=False)
                pilot = f"{name} {mek['callsign']}"
                hire_pilot(s, name, pilot)
                assign_pilot(s, name, pilot, mek["callsign"])
        if extra in ("scenario muster", "play"):
            scenario = get_scenario("opening-shots")
            for name, side in (("Lance", Side.ATTACKER), ("Rival", Side.DEFENDER)):
                do_muster(s, name, Limits.for_scenario(scenario, side),
                          ["VIPER-1", "WASP-1", "WASP-2"])
        if extra == "muster":
            do_muster(s, "Lance", Limits.plain(100), ["VIPER-1", "WASP-1"])
        if extra == "campaign":
            start_campaign(s, "Lance", seed=5)
        if extra == "play":
            start(s, "opening-shots", Side.ATTACKER, "Lance", "Rival", seed=3)


def _case(name: str) -> Any:
    """What the case's second change does, given its session."""
    from campaigns import company as c
    from campaigns import hangar, musters
    from campaigns.battles import fight, store
    from campaigns.campaign import next_scenario, start_campaign
    from campaigns.play import finish, load, start
    from campaigns.postbattle import record_battle
    from meks.engine.controllers import Baseline
    from meks.game.catalog import load_catalog
    from meks.game.dice import Dice
    from meks.game.vocabulary import Side

    catalog = load_catalog()

    def battle_auto(s: Any) -> Any:
        dice = Dice.from_seed(9)
        return store(s, fight(s, "opening-shots", "Lance", "Rival", dice), dice)

    def play_finish(s: Any) -> Any:
        state = load(s, 1)
        battle = state.battle(Baseline())
        battle.run()
        return finish(s, 1, battle)

    return {
        "mek buy": ("", lambda s: hangar.buy_mek(s, "Lance", catalog.design("WASP"), custom=False)),
        "mek sell": ("", lambda s: hangar.sell_mek(s, "Lance", "WASP-2")),
        "mek rename": ("", lambda s: hangar.rename_mek(s, "Lance", "WASP-2", "Hornet")),
        "pilot hire": ("", lambda s: hangar.hire_pilot(s, "Lance", "Zed")),
        "pilot assign": ("", lambda s: hangar.assign_pilot(s, "Lance", "Lance VIPER-1", "WASP-2")),
        "support roll": ("", lambda s: c.support_roll(s, "Lance", Dice.from_seed(1))),
        "muster": ("", lambda s: musters.muster(s, "Lance", musters.Limits.plain(100), ["WASP-1"])),
        "battle record": ("muster", lambda s: record_battle(s, "Lance", "win",
                                                            Dice.from_seed(2), auto=True)),
        "company undo": ("", lambda s: c.undo(s, "Lance")),
        "company delete": ("", lambda s: c.delete_company(s, "Lance")),
        "campaign start": ("", lambda s: start_campaign(s, "Lance", seed=1)),
        "campaign next": ("campaign", lambda s: next_scenario(s, "Lance")),
        "battle auto": ("scenario muster", battle_auto),
        "battle play": ("scenario muster", lambda s: start(
            s, "opening-shots", Side.ATTACKER, "Lance", "Rival", seed=4)),
        "battle play finish": ("play", play_finish),
    }[name]


CASES = ["mek buy", "mek sell", "mek rename", "pilot hire", "pilot assign", "support roll",
         "muster", "battle record", "company undo", "company delete", "campaign start",
         "campaign next", "battle auto", "battle play", "battle play finish"]


def _waiting(db: str) -> int:
    """How many sessions on this test's database wait for a lock."""
    from sqlalchemy import text

    from db.engine import engine_for

    with engine_for(db).connect() as conn:
        return int(conn.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'")).scalar_one())


@pytest.mark.slow
@pytest.mark.skipif(not SERVER, reason="runs in the PostgreSQL pass (MEKS_TEST_DB)")
@pytest.mark.parametrize("case", CASES)
def test_issue14_every_change_waits_for_the_company(temp_database: str, case: str) -> None:
    """Issue 14 item 1: while one change to Lance is under way (it has hired 'Held' and not
    committed yet), any other change to Lance waits for it, then starts from the state it
    left: its event's "before" holds 'Held', an undo undoes that hire, and 'db check'
    finds every company's history chained."""
    from sqlmodel import col, select

    from campaigns.hangar import hire_pilot
    from campaigns.integrity import check
    from db.engine import transaction
    from db.models import Event

    db = temp_database
    extra, action = _case(case)
    _setup(db, extra)
    outcome = _while_waiting(db, lambda s: hire_pilot(s, "Lance", "Held"), action)
    assert "error" not in outcome, outcome["error"]

    with transaction(db) as s:
        assert check(s) == []
        hired = s.exec(select(Event).where(Event.command == "pilot hire",
                                           col(Event.summary).startswith("Hired Held"))).one()
        later = s.exec(select(Event).where(col(Event.id) > hired.id)
                       .order_by(col(Event.id))).all()
    if case == "battle play":  # a play records no event: it only takes the musters
        assert later == []
        return
    assert later, f"{case} recorded no event"
    assert "Held" in {p["name"] for p in json.loads(later[0].before or "{}")["pilots"]}
    if case == "company undo":
        assert outcome["result"]["undone"] == hired.id


def _while_waiting(db: str, first: Any, then: Any) -> dict[str, Any]:
    """Run ``first(session)`` in a transaction, and ``then(session)`` in another one that
    starts while the first is still open; the first commits (or rolls back, when ``first``
    returns "rollback") only once the second waits for it. What the second returned or
    raised."""
    import threading

    from db.engine import transaction

    outcome: dict[str, Any] = {}

    def second() -> None:
        try:
            with transaction(db) as s:
                outcome["result"] = then(s)
        except BaseException as exc:  # reported by the caller
            outcome["error"] = exc

    with transaction(db) as s:
        undo = first(s) == "rollback"
        s.flush()
        thread = threading.Thread(target=second)
        thread.start()
        deadline = time.monotonic() + 60  # a guard against a hang, not a timing
        while thread.is_alive() and not _waiting(db) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert thread.is_alive(), f"the second change did not wait: {outcome}"
        if undo:
            s.rollback()
    thread.join(120)
    assert not thread.is_alive()
    return outcome


@pytest.mark.skipif(not SERVER, reason="runs in the PostgreSQL pass (MEKS_TEST_DB)")
@pytest.mark.parametrize("how", ["company create", "roster import"])
def test_issue14_founding_a_name_taken_at_the_same_moment_is_refused_plainly(
        temp_database: str, how: str) -> None:
    """Issue 14 item 1: a company founded under a name that another transaction has just
    taken (not yet committed when this one looked) is refused in one sentence once that
    one commits, not with an IntegrityError, and the first company stands alone."""
    from campaigns.company import NotFound, Refused, create_company, list_companies
    from campaigns.roster_io import export_roster, import_roster
    from db.engine import transaction

    with transaction(temp_database) as s:
        create_company(s, "Source")
        roster = export_roster(s, "Source", "json")

    def found(s: Any) -> Any:
        if how == "company create":
            return create_company(s, "twin")
        return import_roster(s, roster, "roster.json", name="twin")

    outcome = _while_waiting(temp_database, lambda s: create_company(s, "Twin"), found)
    error = outcome.get("error")
    assert isinstance(error, Refused) and not isinstance(error, NotFound), outcome
    assert error.message.startswith("A company called 'Twin' already exists; ")
    assert "\n" not in error.message and "INSERT" not in error.message
    with transaction(temp_database) as s:
        assert [c["name"] for c in list_companies(s)] == ["Source", "Twin"]


@pytest.mark.skipif(not SERVER, reason="runs in the PostgreSQL pass (MEKS_TEST_DB)")
def test_issue14_a_name_freed_by_a_rollback_can_be_founded(temp_database: str) -> None:
    """Issue 14 item 1: when the transaction that had taken the name rolls back, the
    company waiting for it is founded."""
    from campaigns.company import create_company, list_companies
    from campaigns.integrity import check
    from db.engine import transaction

    def taken_then_dropped(s: Any) -> str:
        create_company(s, "Twin")
        return "rollback"

    outcome = _while_waiting(temp_database, taken_then_dropped,
                             lambda s: create_company(s, "twin"))
    assert "error" not in outcome, outcome
    with transaction(temp_database) as s:
        assert [c["name"] for c in list_companies(s)] == ["twin"]
        assert check(s) == []


def test_issue14_a_clash_in_the_store_is_one_sentence_without_sql(temp_database: str) -> None:
    """Issue 14 item 1: a unique-key clash that still reaches the end of a transaction (two
    writers racing past every check) is reported as one sentence saying nothing was changed,
    never the SQL statement or its values; and nothing is stored."""
    from campaigns.company import create_company, list_companies
    from db.engine import transaction
    from db.errors import DatabaseError
    from db.models import Company

    with transaction(temp_database) as s:
        create_company(s, "Alpha")
    with pytest.raises(DatabaseError) as caught, transaction(temp_database) as s:
        create_company(s, "Beta")
        s.add(Company(name="alpha", name_key="alpha"))  # as a racing writer would
        s.flush()
    message = caught.value.message
    assert "clashed with another one" in message and "nothing was changed" in message
    assert "\n" not in message
    assert not any(word in message for word in ("INSERT", "SQL", "alpha", "name_key"))
    with transaction(temp_database) as s:
        assert [c["name"] for c in list_companies(s)] == ["Alpha"]



def test_issue14_a_database_error_shown_as_a_bug_is_one_line_without_sql(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14 item 1: should a database error ever escape as an unexpected problem, the
    player sees one line, without the SQL statement or its values."""
    from sqlalchemy.exc import StatementError

    import campaigns.company

    def clash(*_: Any, **__: Any) -> Any:  # an error the store does not word itself
        raise StatementError("duplicate key value", "INSERT INTO mek (callsign) VALUES "
                             "(%(callsign)s)", {"callsign": "secret-value"},
                             Exception("DETAIL: Key (x)=(y)"))

    assert CliRunner().invoke(app, ["company", "create", "Someone"]).exit_code == 0
    monkeypatch.setattr(campaigns.company, "show_company", clash)
    result = CliRunner().invoke(app, ["company", "show", "Anyone"])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1, result.stderr
    assert "duplicate key value" in result.stderr
    assert not any(word in result.stderr for word in ("INSERT", "SQL", "secret-value",
                                                      "DETAIL"))
