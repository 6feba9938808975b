"""Issue 28: the last unexpected problems, and files that belong to someone else.

1. Writers replace only regular files: a pipe (FIFO), a device or a socket is refused.
2. Names too long for the system and links that lead back to themselves are the player's
   problem (exit 2, one sentence), never an "unexpected problem".
3. No terminal escape reaches the screen through a file name that is not UTF-8, a file in
   the scenarios folder or the value of MEKS_SCENARIOS_DIR.
4. The advice given for a damaged database, or one missing a table, can be followed.
5. A database that is not ours and not empty is refused before anything is written to it.
6. A battle recorded at the table salvages no more than the destroyed enemy Meks carried;
   a pilot's kills or a Mek given twice is refused; a Mek bailed out of keeps no parts.
7. Smaller things: keyword connection strings, YAML keys given twice, repeated set-up
   rules, huge rosters, SIGTERM to the odds, invisible characters in scenarios, numbers
   written with underscores.

Every path-taking command is also fuzzed with Hypothesis over such names.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app
from tests.conftest import SERVER

ON_SQLITE = pytest.mark.skipif(bool(SERVER), reason="about an SQLite file")

LONG = "a" * 300  # longer than any one name the system takes (255 bytes)
ESCAPED = os.fsdecode(b"\xff\x1b]0;owned\x07\x1b[2J.yaml")  # not UTF-8, with escapes


def invoke(runner: CliRunner, *args: str, env: dict[str, str] | None = None,
           ) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def plain_refusal(code: int, out: str, err: str) -> str:
    """A refusal as players should get it: exit 1 or 2, one "Error:" sentence, no
    traceback, no unexpected problem, no raw control character on the screen."""
    assert code in (1, 2), (code, out, err)
    assert "unexpected" not in err and "Traceback" not in err, err
    # one sentence: ours, or Click's framed usage error
    assert err.count("Error:") == 1 or (err.count("Error") == 1 and "─ Error ─" in err), err
    for text in (out, err):
        assert "\x1b" not in text and "\x07" not in text, repr(text)
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in text), repr(text)
    return " ".join(err.split())


@pytest.fixture
def hawks(runner: CliRunner) -> str:
    """A company with a force mustered, so that every writer has something to write."""
    for args in (("company", "create", "Hawks"), ("mek", "buy", "Hawks", "WASP"),
                 ("pilot", "hire", "Hawks", "Vera"), ("pilot", "assign", "Hawks", "Vera",
                                                     "WASP-1"),
                 ("muster", "Hawks", "WASP-1", "--budget", "50")):
        code, _, err = invoke(runner, *args)
        assert code == 0, (args, err)
    return "Hawks"


def special_files(folder: Path) -> Iterator[tuple[str, Path]]:
    """A pipe, a socket and (where this user may make one) a character device like
    /dev/null, each in ``folder``: never the real /dev/null, which a writer that did
    replace it would break for the whole machine."""
    fifo = folder / "pipe"
    os.mkfifo(fifo)
    yield "pipe", fifo
    sock = folder / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock))
    server.close()
    yield "socket", sock
    device = folder / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        return
    yield "device", device


def kind_of(path: Path) -> int:
    return stat.S_IFMT(path.lstat().st_mode)


# ---- 1. writers replace only regular files ---------------------------------------------------

WRITERS = (("db", "backup", "{}"), ("roster", "export", "Hawks", "-o", "{}"),
           ("muster", "sheet", "Hawks", "-o", "{}"),
           ("muster", "sheet", "Hawks", "--format", "html", "-o", "{}"))


def test_item1_writers_refuse_a_pipe_a_socket_and_a_device(
        runner: CliRunner, hawks: str, tmp_path: Path) -> None:
    """`db backup`, `roster export -o` and `muster sheet -o` refuse to replace anything but a
    regular file, saying what it is (exit 2), and leave it what it was."""
    for what, path in special_files(tmp_path):
        before = kind_of(path)
        for args in WRITERS:
            code, out, err = invoke(runner, *(a.format(path) for a in args))
            said = plain_refusal(code, out, err)
            assert code == 2 and "not a regular file" in said, (what, args, said)
            assert "replaces only regular files" in said
            assert kind_of(path) == before, (what, args)
    code, _, err = invoke(runner, "odds", "ladder", "--plot", str(tmp_path / "pipe"))
    assert code == 2  # the chart file: refused before any duel, as before


def test_item1_the_odds_chart_shares_the_writers_check(runner: CliRunner,
                                                       tmp_path: Path) -> None:
    fifo = tmp_path / "chart.svg"
    os.mkfifo(fifo)
    code, _, err = invoke(runner, "odds", "ladder", "--runs", "1", "--plot", str(fifo))
    assert code == 2 and "replaces only regular files" in " ".join(err.split())
    assert "Fighting" not in err and stat.S_ISFIFO(fifo.lstat().st_mode)


def test_item1_the_reports_share_the_writers_check(runner: CliRunner, hawks: str,
                                                   tmp_path: Path) -> None:
    """`campaign report -o` and `battle report -o` refuse a pipe, a socket or a device
    named like a page, and a link, before any work, leaving it what it was."""
    fifo = tmp_path / "report.html"
    os.mkfifo(fifo)
    link = tmp_path / "link.html"
    link.symlink_to(tmp_path / "elsewhere.html")
    for args in (("campaign", "report", hawks), ("battle", "report", "1")):
        code, _, err = invoke(runner, *args, "-o", str(fifo))
        assert code == 2 and "replaces only regular files" in " ".join(err.split()), args
        assert stat.S_ISFIFO(fifo.lstat().st_mode)
        code, _, err = invoke(runner, *args, "-o", str(link))
        assert code == 2 and "symbolic link" in " ".join(err.split()), args
        assert link.is_symlink() and not (tmp_path / "elsewhere.html").exists()


def test_item1_writers_refuse_the_database_in_use(runner: CliRunner, tmp_path: Path) -> None:
    """A backup or an export written over the database meks is using would destroy it: each
    writer refuses it by any name (another spelling of the path, a hard link), exit 2, and
    the database is as it was; any other file is written as before."""
    db = tmp_path / "league.db"
    for args in (("company", "create", "Hawks"), ("mek", "buy", "Hawks", "WASP"),
                 ("pilot", "hire", "Hawks", "Vera"),
                 ("pilot", "assign", "Hawks", "Vera", "WASP-1"),
                 ("muster", "Hawks", "WASP-1", "--budget", "50")):
        assert invoke(runner, "--db", str(db), *args)[0] == 0, args
    before = db.read_bytes()
    (tmp_path / "sub").mkdir()
    os.link(db, tmp_path / "hard.db")
    for name in (db, tmp_path / "sub" / ".." / "league.db", tmp_path / "hard.db"):
        for args in WRITERS:
            said = plain_refusal(*invoke(runner, "--db", str(db),
                                         *(a.format(name) for a in args)))
            assert "holds the database meks is using" in said, (name, args, said)
    assert db.read_bytes() == before
    code, out, _ = invoke(runner, "--db", str(db), "company", "list", "--json")
    assert code == 0 and "Hawks" in out
    assert invoke(runner, "--db", str(db), "db", "backup", str(tmp_path / "b.json"))[0] == 0


# ---- 2. long names and links that loop -------------------------------------------------------

def test_item2_long_names_are_the_players_problem(runner: CliRunner, hawks: str,
                                                  tmp_path: Path) -> None:
    long = str(tmp_path / LONG)
    for args in (("scenario", "show", LONG), ("scenario", "check", LONG)):
        said = plain_refusal(*invoke(runner, *args))  # a bare name: no such scenario
        assert "No scenario is called" in said or "File name too long" in said, said
    cases = [("scenario", "show", LONG + ".yaml"), ("scenario", "check", LONG + ".yaml"),
             ("db", "backup", long), ("roster", "export", "Hawks", "-o", long),
             ("muster", "sheet", "Hawks", "-o", long), ("design", "check", long),
             ("mek", "buy", "Hawks", long + ".yaml")]
    for args in cases:
        said = plain_refusal(*invoke(runner, *args))
        assert "File name too long" in said, (args, said)
    said = plain_refusal(*invoke(runner, "scenario", "list", env={"MEKS_SCENARIOS_DIR": long}))
    assert "MEKS_SCENARIOS_DIR" in said and "File name too long" in said


def test_item2_links_that_lead_back_to_themselves(runner: CliRunner, hawks: str,
                                                  tmp_path: Path) -> None:
    loop = tmp_path / "self.db"
    loop.symlink_to(loop.name)
    said = plain_refusal(*invoke(runner, "company", "list", env={"MEKS_DB": str(loop)}))
    assert "leads back to itself" in said
    said = plain_refusal(*invoke(runner, "--db", str(loop), "db", "check"))
    assert "leads back to itself" in said
    code, out, _ = invoke(runner, "--db", str(loop), "db", "path")
    assert code == 0 and out.strip() == str(loop)
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: War\nscenarios:\n  - {scenario: loop.yaml, side: attacker}\n")
    said = plain_refusal(*invoke(runner, "campaign", "start", "Hawks", "--plan", str(plan)))
    assert "leads back to itself" in said
    plan.write_text(f"name: War\nscenarios:\n  - {{scenario: {LONG}.yaml, side: attacker}}\n")
    said = plain_refusal(*invoke(runner, "campaign", "start", "Hawks", "--plan", str(plan)))
    assert "File name too long" in said or "there is no scenario file" in said
    said = plain_refusal(*invoke(runner, "design", "check", str(tmp_path / "loop.yaml")))
    assert "leads back to itself" in said


# ---- 3. terminal escapes ---------------------------------------------------------------------

def test_item3_a_typed_name_not_utf8_with_escapes_is_refused(runner: CliRunner,
                                                             tmp_path: Path) -> None:
    """A name whose first odd byte is not UTF-8 used to hide the escapes after it."""
    for args in (("design", "check", ESCAPED), ("roster", "import", ESCAPED),
                 ("scenario", "check", str(tmp_path / ESCAPED))):
        said = plain_refusal(*invoke(runner, *args))
        assert "escape character" in said, said


def test_item3_a_file_name_in_the_scenarios_folder_is_shown_escaped(
        runner: CliRunner, tmp_path: Path) -> None:
    folder = Path(os.environ["MEKS_SCENARIOS_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ESCAPED).write_text("id: broken\n")
    result = runner.invoke(app, ["scenario", "list"])
    assert result.exit_code == 0
    for text in (result.stdout, result.stderr):
        assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;owned\\x07" in result.stderr and "\\xff" in result.stderr


def test_item3_the_scenarios_folder_named_with_escapes_is_shown_escaped(
        runner: CliRunner, tmp_path: Path) -> None:
    folder = str(tmp_path / "sc\x1b[2J\x1b]0;owned\x07")
    result = runner.invoke(app, ["scenario", "list"], env={"MEKS_SCENARIOS_DIR": folder})
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "sc\\x1b[2J" in result.stdout.replace("\n", "")


# ---- the fuzz: every command that takes a path -----------------------------------------------

# each command with {} where the path goes
PATH_COMMANDS = (
    ("design", "check", "{}"),
    ("mek", "buy", "Hawks", "{}"),
    ("scenario", "show", "{}"),
    ("scenario", "check", "{}"),
    ("roster", "import", "{}"),
    ("roster", "export", "Hawks", "-o", "{}"),
    ("muster", "sheet", "Hawks", "-o", "{}"),
    ("muster", "Hawks", "--scenario", "{}", "WASP-1"),
    ("support", "roll", "Hawks", "--scenario", "{}"),
    ("campaign", "start", "Hawks", "--plan", "{}"),
    ("battle", "auto", "opening-shots", "-a", "{}", "-d", "{}"),
    ("battle", "auto", "{}", "-a", "Hawks", "-d", "Hawks"),
    ("battle", "auto", "opening-shots", "-a", "Hawks", "-d", "Hawks", "--dice", "{}"),
    ("odds", "opening-shots", "-a", "{}", "-d", "{}", "--runs", "1"),
    ("odds", "ladder", "--runs", "1", "--plot", "{}"),
    ("campaign", "report", "Hawks", "-o", "{}"),
    ("battle", "report", "1", "-o", "{}"),
    ("db", "backup", "{}"),
    ("db", "restore", "{}", "--yes"),
    ("--db", "{}", "company", "list"),
    ("--db", "{}", "db", "check"),
    ("--db", "{}", "company", "create", "Kites"),
    ("MEKS_DB={}", "company", "list"),
    ("MEKS_SCENARIOS_DIR={}", "scenario", "list"),
    ("MEKS_SCENARIOS_DIR={}", "scenario", "show", "my-own"),
)


def bad_paths(folder: Path) -> dict[str, str]:
    """Names no command can use: too long, looping, special files, not UTF-8 (with and
    without escapes), each with and without a file ending."""
    loop = folder / "loop.yaml"
    loop.symlink_to(loop.name)
    pair_a, pair_b = folder / "a.yaml", folder / "b.yaml"
    pair_a.symlink_to(pair_b.name)
    pair_b.symlink_to(pair_a.name)
    odd = folder / os.fsdecode(b"\xfe\xff.yaml")
    odd.write_bytes(b"\xff\xfe garbage \x1b[2J")
    paths = {"long": str(folder / LONG), "long.yaml": str(folder / LONG) + ".yaml",
             "long.svg": str(folder / LONG) + ".svg", "long folder": f"{folder}/{LONG}/x.yaml",
             "loop": str(loop), "loop pair": str(pair_a), "loop folder": f"{loop}/x.yaml",
             "escaped": str(folder / ESCAPED), "not utf-8": str(odd)}
    for what, path in special_files(folder):
        paths[what] = str(path)
    if "device" not in paths:  # pragma: no cover - not root: the real one cannot be hurt
        paths["device"] = os.devnull
    return paths


def test_fuzz_every_command_that_takes_a_path(runner: CliRunner, hawks: str,
                                              tmp_path: Path) -> None:
    """Whatever bad name a command is given for a file, folder or database, it answers
    exit 1 or 2 with one sentence, never an unexpected problem, never a raw escape, and
    leaves a special file what it was."""
    folder = tmp_path / "bad"
    folder.mkdir()
    paths = bad_paths(folder)
    kinds = {name: kind_of(Path(p)) for name, p in paths.items()
             if name in ("pipe", "socket", "device")}

    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(command=st.sampled_from(PATH_COMMANDS), name=st.sampled_from(sorted(paths)))
    def answer(command: tuple[str, ...], name: str) -> None:
        path = paths[name]
        env = {}
        args = [a.format(path) for a in command]
        if "=" in args[0]:
            key, _, value = args.pop(0).partition("=")
            env[key] = value
        from db.engine import dispose_all

        dispose_all()
        code, out, err = invoke(runner, *args, env=env)
        if code == 0 and (args == ["scenario", "list"] or name == "not utf-8"):
            # no folder there (the built-in scenarios are listed), or a regular file written
            assert "\x1b" not in out + err and "unexpected" not in err
            assert not any(0xD800 <= ord(c) <= 0xDFFF for c in out + err)
        else:
            assert plain_refusal(code, out, err), (args, env)
        for special, kind in kinds.items():
            assert kind_of(Path(paths[special])) == kind, (args, special)

    answer()


# ---- 4. advice that can be followed ----------------------------------------------------------

def _follow_the_advice(runner: CliRunner, said: str, backup: Path, tmp_path: Path) -> None:
    """The advice names 'meks --db new.db db restore BACKUP': doing so gives a sound
    database holding the backup."""
    assert "meks --db new.db db restore BACKUP" in said, said
    assert "try again" not in said and "meks db backup" not in said
    fresh = tmp_path / "new.db"
    from db.engine import dispose_all

    dispose_all()
    code, _, err = invoke(runner, "--db", str(fresh), "db", "restore", str(backup), "--yes")
    assert code == 0, err
    code, out, err = invoke(runner, "--db", str(fresh), "company", "list", "--json")
    assert code == 0 and "Hawks" in out, err


@ON_SQLITE
def test_item4_a_damaged_database_gives_advice_that_works(runner: CliRunner, hawks: str,
                                                         tmp_path: Path,
                                                         temp_database: str) -> None:
    backup = tmp_path / "backup.json"
    assert invoke(runner, "db", "backup", str(backup))[0] == 0
    from db.engine import dispose_all

    dispose_all()
    data = bytearray(Path(temp_database).read_bytes())
    data[4096:8192] = b"\xde\xad\xbe\xef" * 1024  # a page of garbage
    Path(temp_database).write_bytes(bytes(data))
    for wal in Path(temp_database).parent.glob("*-wal"):
        wal.unlink()
    said = None
    for args in (("company", "show", "Hawks"), ("mek", "list", "Hawks"), ("db", "check")):
        dispose_all()
        code, out, err = invoke(runner, *args)
        if code:
            said = " ".join((err or out).split())
            assert "is damaged" in said, said
            break
    assert said is not None
    _follow_the_advice(runner, said, backup, tmp_path)


@ON_SQLITE
def test_item4_a_dropped_table_does_not_say_try_again(runner: CliRunner, hawks: str,
                                                      tmp_path: Path,
                                                      temp_database: str) -> None:
    import sqlite3

    backup = tmp_path / "backup.json"
    assert invoke(runner, "db", "backup", str(backup))[0] == 0
    from db.engine import dispose_all

    dispose_all()
    with sqlite3.connect(temp_database) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("DROP TABLE stockpile")
    said = plain_refusal(*invoke(runner, "mek", "buy", "Hawks", "THOR"))
    assert "lacks part of what meks keeps in it (no such table: stockpile)" in said or \
        "no such table" in said, said
    _follow_the_advice(runner, said, backup, tmp_path)


# ---- 5. another program's database -----------------------------------------------------------

COMMANDS = (("company", "list"), ("db", "check"), ("company", "create", "Kites"),
            ("db", "backup", "{tmp}/b.json"), ("scenario", "list"), ("campaign", "status",
                                                                     "Kites"))


@ON_SQLITE
def test_item5_another_programs_sqlite_database_is_refused(runner: CliRunner,
                                                           tmp_path: Path) -> None:
    """Not one byte of it changes, and no journal is left beside it; an empty file, or a
    new path, is made a meks database as before."""
    import hashlib
    import sqlite3

    other = tmp_path / "notes.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO note (body) VALUES ('milk')")
    conn.close()
    before = hashlib.sha256(other.read_bytes()).hexdigest()
    for args in COMMANDS:
        if args == ("scenario", "list"):
            continue  # never opens the database
        code, out, err = invoke(runner, "--db", str(other),
                                *(a.format(tmp=tmp_path) for a in args))
        said = plain_refusal(code, out, err)
        assert code == 2 and "belongs to another program" in said and "note" in said, said
        assert hashlib.sha256(other.read_bytes()).hexdigest() == before, args
        assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"], args
    empty = tmp_path / "empty.db"
    empty.touch()
    assert invoke(runner, "--db", str(empty), "company", "create", "Kites")[0] == 0
    assert invoke(runner, "--db", str(tmp_path / "new.db"), "company", "create", "Kites")[0] == 0


@pytest.mark.skipif(not SERVER, reason="runs in the PostgreSQL pass (MEKS_TEST_DB)")
def test_item5_a_postgresql_schema_of_another_program_is_refused(runner: CliRunner) -> None:
    from sqlalchemy import create_engine, inspect, text

    assert SERVER is not None
    engine = create_engine(SERVER)
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE note (id integer PRIMARY KEY, body text)"))
        for args in (("company", "list"), ("db", "check"), ("company", "create", "Kites")):
            said = plain_refusal(*invoke(runner, *args))
            assert "belongs to another program" in said and "note" in said, said
        with engine.connect() as conn:
            assert inspect(conn).get_table_names() == ["note"]
    finally:
        engine.dispose()


# ---- 6. table records with limits ------------------------------------------------------------

@pytest.fixture
def spoils(runner: CliRunner, tmp_path: Path) -> str:
    """Wolves mustered for a scenario with every table house rule on."""
    from tests.test_salvage import run, scenario_file

    run(runner, "company", "create", "Wolves")
    for design, pilot in (("VIPER", "Ana"), ("WASP", "Bo"), ("WASP", "Cy")):
        run(runner, "mek", "buy", "Wolves", design)
        run(runner, "pilot", "hire", "Wolves", pilot)
    for pilot, mek in (("Ana", "VIPER-1"), ("Bo", "WASP-1"), ("Cy", "WASP-2")):
        run(runner, "pilot", "assign", "Wolves", pilot, mek)
    scenario = scenario_file(tmp_path, "spoils", salvage="both", bail_out=True,
                             spare_parts=True, repair="none")
    run(runner, "muster", "Wolves", "--scenario", scenario, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    return "Wolves"


def record(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    return invoke(runner, "battle", "record", "Wolves", "--auto", "--seed", "3", *args)


def stockpile(runner: CliRunner) -> list[object]:
    import json

    code, out, err = invoke(runner, "company", "show", "Wolves", "--json")
    assert code == 0, err
    return list(json.loads(out).get("stockpile", []))


def test_item6_salvage_is_bounded_by_the_enemy_meks_destroyed(runner: CliRunner,
                                                              spoils: str) -> None:
    """R3.6 at the table: with no kill credited there is nothing to salvage; each kill (or
    each enemy Mek stated with --enemy-destroyed) carried at most the most parts one Mek
    can carry."""
    from campaigns.postbattle import most_parts_on_a_mek
    from meks.game.catalog import load_catalog

    catalog = load_catalog()
    most = most_parts_on_a_mek(catalog)
    many = [a for _ in range(2000) for a in ("--salvage", "Rail Cannon")]
    said = plain_refusal(*record(runner, "--result", "win", *many))
    assert "Salvage comes from destroyed enemy Meks" in said and "0 kills" in said, said
    # more parts than one Mek carries, none more often than one Mek carries it
    names = [w.name for w in catalog.weapons] + [s.name for s in catalog.systems]
    assert len(names) > most
    mixed = [a for name in names[:most + 1] for a in ("--salvage", name)]
    said = plain_refusal(*record(runner, "--result", "win", "-k", "Ana=1", *mixed))
    assert f"{most + 1} parts salvaged is more than 1 kill credited" in said, said
    said = plain_refusal(*record(runner, "--result", "win", "--enemy-destroyed", "1",
                                 *mixed))
    assert "more than 1 enemy Mek destroyed" in said, said
    assert stockpile(runner) == []
    code, _, err = record(runner, "--result", "win", "--enemy-destroyed", "2", *mixed)
    assert code == 0, err
    assert sum(p["count"] for p in stockpile(runner)) == most + 1  # type: ignore[index]


def test_item6_salvage_of_one_part_is_bounded_by_what_one_mek_carries(
        runner: CliRunner, spoils: str) -> None:
    """R3.6 with R1.2: no chassis has more than 2 Massive mounts, so one destroyed Mek gives
    at most 2 Rail Cannons; kills credited beyond the enemy Meks destroyed contradict each
    other (exit 2)."""
    from meks.game.catalog import load_catalog
    from meks.game.construction import most_carried

    catalog = load_catalog()
    rail = catalog.weapon("Rail Cannon")
    each = most_carried(rail, catalog)
    assert each == max(c.mounts.massive for c in catalog.chassis) == 2
    assert most_carried(catalog.system("Jammer"), catalog) == 1
    rails = [a for _ in range(each + 1) for a in ("--salvage", "Rail Cannon")]
    said = plain_refusal(*record(runner, "--result", "win", "-k", "Ana=1", *rails))
    assert "3 Rail Cannon salvaged is more than 1 kill credited could carry" in said, said
    assert "a Mek carries at most 2" in said
    said = plain_refusal(*record(runner, "--result", "win", "-k", "Ana=1",
                                 "--enemy-destroyed", "0"))
    assert "--enemy-destroyed 0 is fewer than the 1 kill credited" in said, said
    said = plain_refusal(*record(runner, "--result", "win", "-k", "Ana=1", "--salvage",
                                 "Lazer"))
    assert "did you mean 'Laser'?" in said
    assert stockpile(runner) == []
    code, _, err = record(runner, "--result", "win", "-k", "Ana=1", *rails[:2 * each])
    assert code == 0, err
    assert stockpile(runner) == [{"kind": "weapon", "part": "Rail Cannon", "count": each}]


def test_item6_a_pilots_kills_given_twice_are_refused(runner: CliRunner, spoils: str) -> None:
    for second in ("Ana=7", "ana=7", " Ana =7"):
        said = plain_refusal(*record(runner, "--result", "win", "-k", "Ana=5", "-k", second))
        assert "Ana is given twice with --kills; give each once." in said, said
    said = plain_refusal(*record(runner, "--result", "win", "-c", "Ana=Accuracy", "-c",
                                 "ana=Agility"))
    assert "given twice with --choose" in said


def test_item6_a_mek_bailed_out_of_keeps_no_parts_as_a_destroyed_one(
        runner: CliRunner, spoils: str) -> None:
    by_bailing = plain_refusal(*record(runner, "--result", "win", "--bailed", "WASP-1",
                                       "--lost", "WASP-1=Cannon"))
    by_destroying = plain_refusal(*record(runner, "--result", "win", "-d", "WASP-1",
                                          "--lost", "WASP-1=Cannon"))
    assert by_bailing == by_destroying and "keeps no parts" in by_bailing, by_bailing


# ---- 7. smaller things -----------------------------------------------------------------------

def test_item7_a_keyword_connection_string_is_postgresql_and_its_password_is_never_shown(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    secret = "hunter2-s3cret"
    for dsn in (f"host=127.0.0.1 port=1 dbname=league user=ana password={secret}",
                f"dbname = league  password = '{secret}' host=127.0.0.1 port=1",
                f"host=127.0.0.1 port=1 dbname=league password='it\\'s {secret}'"):
        code, out, err = invoke(runner, "--db", dsn, "db", "path")
        assert code == 0 and secret not in out and "password=***" in out, out
        assert "dbname=league" in out
        code, out, err = invoke(runner, "--db", dsn, "company", "create", "Kites")
        said = plain_refusal(code, out, err)
        assert secret not in said and "127.0.0.1" in said, said
        code, out, err = invoke(runner, "company", "list", env={"MEKS_DB": dsn})
        assert secret not in plain_refusal(code, out, err)
    assert list(tmp_path.iterdir()) == []  # no file named after the string
    code, _, err = invoke(runner, "--db", "host=127.0.0.1 port=http dbname=x", "db", "path")
    assert code == 2 and "port" in err


def test_item7_yaml_keys_given_twice_are_refused_naming_both_lines(runner: CliRunner,
                                                                  tmp_path: Path) -> None:
    design = tmp_path / "hornet.yaml"
    design.write_text("name: Hornet\nsize: Heavy\nweapons: [Laser]\nsize: Light\n")
    said = plain_refusal(*invoke(runner, "design", "check", str(design)))
    assert "the key 'size' is given twice in one mapping (lines 2 and 4)" in said, said
    force = tmp_path / "red.yaml"
    force.write_text("name: Red\nmeks:\n  - {design: WASP, design: VIPER}\n")
    said = plain_refusal(*invoke(runner, "odds", "opening-shots", "-a", str(force), "-d",
                                 str(force), "--runs", "1"))
    assert "line 3 (meks[0]): the key 'design' is given twice" in said, said
    from campaigns.files.scenarios import builtin_file

    text = builtin_file("opening-shots").read_text()
    scenario = tmp_path / "twice.yaml"
    scenario.write_text(text + "\nturn_limit: 3\n")
    said = plain_refusal(*invoke(runner, "scenario", "check", str(scenario)))
    assert "the key 'turn_limit' is given twice" in said and "lines " in said, said
    scenario.write_text(text + "\nturn_limit: 3\nname: Twice\n")  # every one, not the first
    code, _, err = invoke(runner, "scenario", "check", str(scenario))
    said = " ".join(err.split())
    assert code == 2 and "Traceback" not in err, err
    assert "the key 'turn_limit' is given twice" in said, said
    assert "the key 'name' is given twice" in said, said
    # scenario check goes on to the file's other problems, all said at once in line order
    scenario.write_text(text + "\nturn_limit: 3\nbogus: 1\n")
    code, _, err = invoke(runner, "scenario", "check", str(scenario))
    said = " ".join(err.split())
    assert code == 2 and "Traceback" not in err, err
    assert said.index("the key 'turn_limit' is given twice") < said.index(
        "unknown key 'bogus'"), said
    scenario.write_text(text + "\nturn_limit: 0\n")  # the value kept is the one checked
    said = " ".join(invoke(runner, "scenario", "check", str(scenario))[2].split())
    assert "is given twice" in said and "turn_limit" in said and said.count("Error") == 2, said


def test_a_side_given_as_a_folder_a_device_or_a_path_is_a_file_refused(
        runner: CliRunner, tmp_path: Path) -> None:
    """A side of `odds` or `battle auto` that is a folder, a device or a path to nothing is
    refused as the file it names (exit 2), not looked up as a company; a bare name is still
    a company's."""
    force = tmp_path / "red.yaml"
    force.write_text("name: Red\nmeks:\n  - {design: WASP, pilot: Ana}\n")
    (tmp_path / "blue").mkdir()
    for side, words in (("/dev/null", "this is a device"), (str(tmp_path / "blue"), "folder"),
                        ("./no-such-force", "no such file"), ("/no/such/force", "no such file")):
        for command in (("odds", "opening-shots", "--runs", "1"),
                        ("battle", "auto", "opening-shots")):
            code, out, err = invoke(runner, *command, "-a", side, "-d", str(force))
            said = plain_refusal(code, out, err)
            assert code == 2 and words in said and "No company" not in said, (side, said)
    assert invoke(runner, "company", "create", "Hawks")[0] == 0  # a database to look in
    said = plain_refusal(*invoke(runner, "odds", "opening-shots", "--runs", "1", "-a",
                                 "Nobody", "-d", str(force)))
    assert "No company is called 'Nobody'" in said, said


def _scenario(tmp_path: Path, **changes: object) -> Path:
    import yaml

    from campaigns.files.scenarios import builtin_file

    data = yaml.safe_load(builtin_file("opening-shots").read_text())
    data.update(id="mine", **changes)
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    return path


def test_item7_identical_set_up_rules_are_refused_in_one_problem(runner: CliRunner,
                                                                 tmp_path: Path) -> None:
    import yaml

    from campaigns.files.scenarios import builtin_file

    attacker = yaml.safe_load(builtin_file("opening-shots").read_text())["attacker"]
    attacker["setup"] = {"zones": [7], "rules": [{"zones": [7], "at_least": 1}
                                                 for _ in range(5000)]}
    path = _scenario(tmp_path, attacker=attacker)
    code, out, err = invoke(runner, "scenario", "check", str(path))
    said = plain_refusal(code, out, err)
    assert code == 2 and len(err) < 600, err
    assert "rules[1] repeats rules[0] (and 4,998 more rules repeat an earlier one)" in said


def test_item7_a_roster_of_millions_of_entries_words_the_first_fifty_and_counts_the_rest(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29 item 4: the roster's model counts every error but words only those listed,
    found again in a copy of the file cut to its first entries."""
    from campaigns.files import model_errors

    worded = []
    convert = model_errors.from_pydantic
    monkeypatch.setattr(model_errors, "from_pydantic",
                        lambda *args: worded.append(args) or convert(*args))
    path = tmp_path / "zeros.json"
    path.write_text('{"schema": "meks-roster", "version": 1, "meks": ['
                    + ",".join(["0"] * 300_000) + "]}")
    code, _, err = invoke(runner, "roster", "import", str(path))
    assert code == 2 and "unexpected" not in err
    lines = err.strip().splitlines()
    assert len(lines) < 60, len(lines)
    # 300,000 entries that are not Meks, and five required keys left out
    assert "has 300005 problems" in lines[0]
    assert "and 299955 more problems" in " ".join(err.split())
    assert len(worded) == 51


def test_item7_sigterm_stops_the_odds_and_its_workers_quietly(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    force = tmp_path / "red.yaml"
    force.write_text("meks:\n  - {design: VIPER}\n  - {design: WASP}\n  - {design: WASP}\n")
    env = {**os.environ, "MEKS_DB": str(tmp_path / "odds.db")}
    proc = subprocess.Popen([sys.executable, "-m", "cli", "odds", "opening-shots", "-a",
                             str(force), "-d", str(force), "--runs", "200000", "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the two workers (and the tracker) are up
            if children.exists() and len(children.read_text().split()) >= 3:
                break
            time.sleep(0.1)
        time.sleep(1.0)  # the workers are fighting
        workers = children.read_text().split()
        proc.send_signal(15)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert err.strip().splitlines() == [
        "Error: Stopped by a request to end (SIGTERM) before the battles were all fought; "
        "nothing was stored."], err
    time.sleep(0.5)
    assert not [w for w in workers if Path(f"/proc/{w}").exists()
                and "spawn_main" in Path(f"/proc/{w}/cmdline").read_text()]


def test_item7_scenario_names_and_briefings_lose_invisible_formatting(
        runner: CliRunner, tmp_path: Path) -> None:
    import json

    path = _scenario(tmp_path, name="Open\u202eing\u200b Shots\u2066",
                     briefing="Hold\u200b the\u202e line.\u2069")
    code, out, err = invoke(runner, "scenario", "show", str(path), "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["name"] == "Opening Shots" and shown["briefing"] == "Hold the line."
    path = _scenario(tmp_path, name="\u202e\u200b")
    said = plain_refusal(*invoke(runner, "scenario", "check", str(path)))
    assert "a scenario needs a name with something to show" in said, said


def test_item7_a_number_long_only_for_its_underscores_is_refused_in_words(
        runner: CliRunner, tmp_path: Path) -> None:
    path = _scenario(tmp_path)
    path.write_text(path.read_text().replace("turn_limit: ", "turn_limit: 1" + "_" * 200
                                             + "2 #", 1))
    said = plain_refusal(*invoke(runner, "scenario", "check", str(path)))
    assert "(turn_limit): a whole number written with 200 underscores between its 2 digits; " \
        "write the number with its digits alone" in said, said


@pytest.mark.parametrize("command", [
    ("design", "check", "{}"),
    ("campaign", "start", "Hawks", "--plan", "{}"),
    ("db", "restore", "{}", "--yes"),
])
def test_a_file_argument_is_read_by_meks_own_reader_not_checked_before(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        command: tuple[str, ...]) -> None:
    """An unreadable file is said in meks's one sentence ('cannot be read: permission
    denied', exit 2) by the reader every file goes through; the command line's own check
    (a framed usage error that asks os.access) never stands in front of it."""
    runner.invoke(app, ["company", "create", "Hawks"])
    file = tmp_path / "given.yaml"
    file.write_text("name: [\n")  # read, then refused as YAML: so it was read
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, *a, **k: False if Path(
        path) == file else real(path, mode, *a, **k))
    result = runner.invoke(app, [arg.format(file) for arg in command])
    assert result.exit_code == 2, result.output
    assert "is not readable" not in result.output and "Invalid value" not in result.output
    assert str(file) in result.stderr
