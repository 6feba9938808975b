"""Issue 14, items 2 and 3: one way to read a file, and no text that can hurt the terminal or
the store.

Every file the product reads (design, force, scenario, plan, dice, roster, backup) goes
through ``campaigns.files.reading``: regular files only (never a FIFO or a device such as
``/dev/zero``), a size limit per kind, no YAML tags, anchors or aliases, nesting and numbers
bounded, no control character in any text, and past 50 problems a count instead of a list.
Names and anything typed with NUL, ESC or another control character are refused, not
stripped. Each refusal is exit status 2 with a message for a person, never "unexpected
problem", and stores nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from campaigns.company import clean_name
from campaigns.files import reading as files
from campaigns.files.dicefile import read_dice_file
from campaigns.files.scenarios import read_scenario_file
from campaigns.roster_io import parse_roster, read_roster_file
from cli.app import app
from meks.game.errors import MAX_LISTED, InputError, MeksError, UsageError
from meks.game.text import TYPED_WHITESPACE, bad_character

REPO = Path(__file__).resolve().parent.parent
OPENING = (REPO / "campaigns" / "files" / "scenarios" / "1-opening-shots.yaml").read_text("utf-8")
DESIGN = "name: Hornet\nsize: Heavy\nweapons: [Rail Cannon, Howitzer]\nsystems: [Jammer]\n"
FORCE = "meks:\n  - {design: VIPER, callsign: Anvil}\n  - {design: WASP}\n  - {design: WASP}\n"
PLAN = "name: War\nscenarios:\n  - {scenario: opening-shots, side: attacker}\n"
LONG = "1" * 4_301  # one digit past what Python reads as a whole number by default


def run(runner: CliRunner, *args: str, code: int | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    err = result.stderr
    assert "Traceback" not in err and "unexpected problem" not in err, err
    if code is not None:
        assert result.exit_code == code, (args, result.stdout, err)
    return result.exit_code, result.stdout if result.exit_code == 0 else err


def refused(runner: CliRunner, *args: str) -> str:
    """The one-paragraph refusal (exit 2) of a command, its lines joined."""
    return " ".join(run(runner, *args, code=2)[1].split())


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def stored(runner: CliRunner) -> Any:
    """Everything the database holds, as the companies' rosters."""
    found = json.loads(run(runner, "company", "list", "--json", code=0)[1])
    return [json.loads(run(runner, "roster", "export", c["name"], code=0)[1]) for c in found]


@pytest.fixture
def company(runner: CliRunner) -> str:
    run(runner, "company", "create", "Wolves", code=0)
    run(runner, "mek", "buy", "Wolves", "WASP", code=0)
    run(runner, "pilot", "hire", "Wolves", "Ana", code=0)
    return "Wolves"


@pytest.fixture
def roster_text(runner: CliRunner, company: str) -> str:
    """The JSON roster of the company, to be changed and imported under another name."""
    return run(runner, "roster", "export", company, code=0)[1]


# ---- YAML alias bombs -----------------------------------------------------------------------

def alias_bomb() -> str:
    """A scenario of about 1.5 KB whose victory conditions nest aliases nine deep: 9**9
    conditions once expanded, gigabytes of memory."""
    levels = ["      - &l0 {type: occupy, side: attacker, zone: 3}\n"]
    for i in range(1, 10):
        refs = ", ".join([f"*l{i - 1}"] * 9)
        levels.append(f"      - &l{i} {{any: [{refs}]}}\n")
    victory = "victory:\n  attacker:\n    any:\n" + "".join(levels)
    head, _, rest = OPENING.partition("victory:\n  attacker:\n    any:\n")
    return head + victory + rest


def test_alias_bomb_in_victory_conditions_is_refused_before_any_data_is_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14 item 2: bounded, not timed: the refusal comes from the parser's events, and
    the step that would build (expand) the data is never reached."""
    text = alias_bomb()
    assert len(text.encode()) < 3_000
    path = write(tmp_path, "bomb.yaml", text)

    def never(*args: object, **kwargs: object) -> object:
        raise AssertionError("the data was built")

    monkeypatch.setattr(yaml, "load", never)
    monkeypatch.setattr(yaml, "compose", never)
    with pytest.raises(InputError) as caught:
        read_scenario_file(Path(path))
    (problem,) = caught.value.problems
    assert problem.startswith(f"line {text[:text.index('&l0')].count(chr(10)) + 1}, column")
    assert "anchors and aliases (&name, *name) are not accepted" in problem
    assert "victory.attacker.any[0]" in problem


def test_alias_bomb_from_the_command_line_is_one_line_exit_2(runner: CliRunner,
                                                             tmp_path: Path) -> None:
    path = write(tmp_path, "bomb.yaml", alias_bomb())
    red = write(tmp_path, "red.yaml", FORCE)
    for args in (["scenario", "check", path], ["scenario", "show", path],
                 ["battle", "auto", path, "-a", red, "-d", red, "--seed", "1"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
        assert "anchors and aliases" in result.stderr


@pytest.mark.parametrize("kind", ["design", "force", "plan", "roster"])
def test_a_single_harmless_alias_is_refused_too(runner: CliRunner, company: str,
                                                tmp_path: Path, kind: str) -> None:
    """Issue 14 item 2: a small alias was once accepted and copied into every later event of
    the company. The rule is simple: no anchors or aliases in a player's file at all."""
    texts = {"design": DESIGN.replace("weapons: [", "weapons: &w [") + "extra: *w\n",
             "force": "meks:\n  - &m {design: WASP}\n  - *m\n",
             "plan": "name: War\nscenarios:\n  - &s {scenario: opening-shots, side: "
                     "attacker}\n  - *s\n",
             "roster": "schema: meks-roster\nversion: 1\ncompany: &c {name: X}\nx: *c\n"}
    path = write(tmp_path, f"{kind}.yaml", texts[kind])
    before = stored(runner)
    args = {"design": ["design", "check", path], "force": ["battle", "auto", "opening-shots",
                                                          "-a", path, "-d", path],
            "plan": ["campaign", "start", company, "--plan", path],
            "roster": ["roster", "import", path, "--name", "Copy"]}[kind]
    assert "anchors and aliases" in refused(runner, *args)
    assert stored(runner) == before


# ---- numbers past Python's limit ------------------------------------------------------------

def test_a_4301_digit_number_in_a_scenario_is_refused_with_its_line(runner: CliRunner,
                                                                    tmp_path: Path) -> None:
    """Issue 14 item 2: Python refuses to read whole numbers past 4,300 digits; such a number
    used to end in "unexpected problem"."""
    path = write(tmp_path, "s.yaml", OPENING.replace("turn_limit: 12", f"turn_limit: {LONG}"))
    line = OPENING[:OPENING.index("turn_limit: 12")].count("\n") + 1
    err = refused(runner, "scenario", "check", path)
    assert f"line {line} (turn_limit): a whole number of 4,301 digits" in err
    assert "at most 100" in err


def test_a_4301_digit_number_in_a_design_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, "d.yaml", DESIGN + f"price: {LONG}\n")
    assert "a whole number of 4,301 digits" in refused(runner, "design", "check", path)


def test_a_4301_digit_number_in_a_json_roster_is_refused(runner: CliRunner, roster_text: str,
                                                         tmp_path: Path) -> None:
    doc = json.loads(roster_text)
    doc["meks"][0]["price"] = 7
    text = json.dumps(doc, indent=1).replace('"price": 7', f'"price": {LONG}')
    path = write(tmp_path, "r.json", text)
    before = stored(runner)
    assert "a whole number of 4,301 digits" in refused(runner, "roster", "import", path,
                                                       "--name", "Copy")
    assert stored(runner) == before


def test_a_4301_digit_number_in_a_json_backup_is_refused(runner: CliRunner, company: str,
                                                         tmp_path: Path) -> None:
    backup = tmp_path / "b.json"
    run(runner, "db", "backup", str(backup), code=0)
    text = backup.read_text().replace('"schema_version": ', f'"schema_version": {LONG}, "x": ')
    backup.write_text(text)
    line = text[:text.index(LONG)].count("\n") + 1
    err = refused(runner, "db", "restore", str(backup), "--yes")
    assert f"line {line}: a whole number of 4,301 digits" in err


def test_json_numbers_are_bounded_by_the_loader_itself() -> None:
    with pytest.raises(InputError, match="4,301 digits"):
        files.parse_json(f'{{"a": [1, -{LONG}]}}', "x.json", files.BACKUP)
    assert files.parse_json('{"a": ' + "9" * 100 + "}", "x.json", files.BACKUP) == {
        "a": int("9" * 100)}


# ---- special files: never read, never waited on ---------------------------------------------

SPECIAL_SCRIPT = r"""
import json, os, sys
from typer.testing import CliRunner
from cli.app import app

folder, fifo = sys.argv[1], sys.argv[2]
zero = os.path.join(folder, "zero.yaml")  # a file name like any other, for /dev/zero
os.symlink("/dev/zero", zero)
red = os.path.join(folder, "red.yaml")
with open(red, "w") as f:
    f.write("meks:\n  - {design: VIPER}\n  - {design: WASP}\n  - {design: WASP}\n")
runner = CliRunner()
assert runner.invoke(app, ["company", "create", "Wolves"]).exit_code == 0
commands = {
    "scenario": ["scenario", "check", "{}"],
    "design": ["design", "check", "{}"],
    "force": ["battle", "auto", "opening-shots", "-a", "{}", "-d", red, "--seed", "1"],
    "plan": ["campaign", "start", "Wolves", "--plan", "{}"],
    "dice": ["battle", "auto", "opening-shots", "-a", red, "-d", red, "--dice", "{}"],
    "roster": ["roster", "import", "{}"],
    "backup": ["db", "restore", "{}", "--yes"],
}
out = {}
result = runner.invoke(app, ["scenario", "check", "/dev/zero"])
out["scenario /dev/zero"] = [result.exit_code, result.stderr]
for special in (zero, fifo):
    for kind, args in commands.items():
        print(kind, special, file=sys.stderr, flush=True)  # shows which one hung, if any
        result = runner.invoke(app, [a.replace("{}", special) for a in args])
        out[f"{kind} {special}"] = [result.exit_code, result.stderr]
os.environ["MEKS_SCENARIOS_DIR"] = folder
os.symlink(fifo, os.path.join(folder, "waiting.yaml"))
result = runner.invoke(app, ["scenario", "list"])
out["scenario list"] = [result.exit_code, result.stderr]
print(json.dumps(out))
"""


def test_dev_zero_and_a_fifo_are_refused_for_every_kind_of_file_without_blocking(
        tmp_path: Path) -> None:
    """Issue 14 item 2: a FIFO or /dev/zero given as any file used to be read forever. Run in
    a subprocess with a guard timeout, so a reader that blocks fails the test instead of
    hanging the run (a writer never opens the FIFO)."""
    if not hasattr(os, "mkfifo") or not Path("/dev/zero").exists():
        pytest.skip("needs FIFOs and /dev/zero")
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    env = {**os.environ, "MEKS_DB": str(tmp_path / "x.db"),
           "MEKS_SCENARIOS_DIR": str(tmp_path / "none")}
    done = subprocess.run([sys.executable, "-c", SPECIAL_SCRIPT, str(tmp_path), str(fifo)],
                          capture_output=True, text=True, env=env, timeout=120, cwd=REPO,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    for case, (code, err) in results.items():
        if case == "scenario list":
            assert code == 0 and "waiting.yaml was left out" in err, err
            assert "pipe (FIFO), not a regular file" in err
            continue
        assert code == 2, (case, err)
        assert "unexpected" not in err and "Traceback" not in err
        words = "pipe (FIFO), not a regular file" if case.endswith("pipe.yaml") else \
            "device, not a regular file"
        assert words in " ".join(err.split()), (case, err)


def test_a_folder_is_refused_as_a_folder(runner: CliRunner, tmp_path: Path) -> None:
    assert "this is a folder, not a file" in refused(runner, "design", "check", str(tmp_path))


# ---- sizes ---------------------------------------------------------------------------------

def test_an_oversized_file_is_refused_before_it_is_read(runner: CliRunner, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Issue 14 item 2: a file past its kind's limit is refused from its size alone (a sparse
    file of 3 MB: reading it is not needed to refuse it)."""
    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(3 * files.MIB)
    reads: list[int] = []
    real = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real(fd, n))
    for args in (["scenario", "check"], ["design", "check"]):
        err = refused(runner, *args, str(big))
        assert "this file is larger than 2 MB, the most a" in err
    assert reads == []


def test_no_more_than_the_limit_is_read(tmp_path: Path) -> None:
    """Even where the size on disk cannot be trusted, one byte past the limit is all that is
    read."""
    path = tmp_path / "f.txt"
    path.write_bytes(b"1 " * 5_000)
    small = files.Kind("dice file", 1_000)
    with pytest.raises(InputError, match="larger than 1,000 bytes, the most a dice file"):
        files.read_bytes(path, small)
    assert files.read_bytes(path, files.DICE) == b"1 " * 5_000


def test_an_oversized_roster_on_standard_input_is_refused(runner: CliRunner,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(files, "ROSTER", files.Kind("roster file", 1_024))
    result = runner.invoke(app, ["roster", "import", "-"], input="#" * 5_000)
    assert result.exit_code == 2
    assert "<stdin>: this file is larger than 1 KB, the most a roster file may be" in \
        " ".join(result.stderr.split())


# ---- many problems -----------------------------------------------------------------------

def _many_keys(text: str, n: int = 20_000) -> str:
    return text + "".join(f"k{i}: 1\n" for i in range(n))


def _listed(err: str, total: int) -> None:
    """The first MAX_LISTED problems are listed one by one, then the rest counted."""
    lines = [line for line in err.splitlines() if "unknown key 'k" in line]
    assert len(lines) == MAX_LISTED
    assert f"and {total - MAX_LISTED} more problems" in " ".join(err.split())


@pytest.mark.parametrize("kind", ["design", "force", "plan", "roster"])
def test_20000_unknown_keys_list_the_first_50_and_count_the_rest(
        runner: CliRunner, company: str, roster_text: str, tmp_path: Path, kind: str) -> None:
    """Issue 14 item 2: 20,000 unknown keys took 33 s and printed them all. Past the 50th
    problem nothing is looked up for a hint, and the message counts the rest."""
    if kind == "roster":
        doc = json.loads(roster_text)
        doc["company"].update({f"k{i}": 1 for i in range(20_000)})
        text = json.dumps(doc)
    else:
        text = _many_keys({"design": DESIGN, "force": FORCE, "plan": PLAN}[kind])
    path = write(tmp_path, f"{kind}.yaml", text)
    args = {"design": ["design", "check", path],
            "force": ["battle", "auto", "opening-shots", "-a", path, "-d", path],
            "plan": ["campaign", "start", company, "--plan", path],
            "roster": ["roster", "import", path, "--name", "Copy"]}[kind]
    code, err = run(runner, *args)
    assert code == 2
    _listed(err, 20_000)


def test_20000_unknown_keys_in_a_scenario_list_the_first_50_with_lines(
        runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, "s.yaml", _many_keys(OPENING))
    code, err = run(runner, "scenario", "check", path)
    assert code == 2
    _listed(err, 20_000)
    first = OPENING.count("\n") + 1
    assert f"s.yaml: line {first} (k0): unknown key 'k0'" in err


def test_an_unreadable_file_is_worded_alike_by_every_check(
        runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"a\xf6b\n")
    said = {run(runner, what, "check", str(path), code=2)[1] for what in ("design", "scenario")}
    assert said == {f"Error: {path}: line 1: not UTF-8 text (the byte 0xf6); save the file "
                    "as UTF-8\n"}


def test_input_error_lists_at_most_50_problems() -> None:
    error = InputError("f.yaml", [f"problem {i}" for i in range(60)])
    assert len(error.problems) == 60
    lines = error.message.splitlines()
    assert lines[0] == "f.yaml has 60 problems:"
    assert lines[50] == "  - problem 49"
    assert lines[51].startswith("  - ... and 10 more problems")
    assert len(lines) == 52


# ---- control characters in files -------------------------------------------------------

NUL, ESC = "\\0", "\\e"  # as a YAML double-quoted text writes them


@pytest.mark.parametrize("char", [NUL, ESC])
@pytest.mark.parametrize(("kind", "text", "place"), [
    ("design", DESIGN.replace("name: Hornet", 'name: "Hor{c}net"'), "line 1 (name)"),
    ("force", FORCE.replace("callsign: Anvil", 'callsign: "An{c}vil"'),
     "line 2 (meks[0].callsign)"),
    ("scenario", OPENING.replace("name: Opening Shots", 'name: "Opening{c}[2J"'),
     "(name)"),
    ("scenario briefing", OPENING.replace("  Two small companies", "  Two small{c} companies"
                                          ).replace("briefing: >", "briefing: |"), None),
    ("plan", PLAN.replace("name: War", 'name: "a{c}b"'), "line 1 (name)"),
])
def test_control_characters_in_a_file_are_refused_with_their_place(
        runner: CliRunner, company: str, tmp_path: Path, kind: str, text: str,
        place: str | None, char: str) -> None:
    """Issue 14 item 3: a plan named "a\\0b" made the database's own backups unrestorable;
    an escape sequence in a name cleared the screen. Escaped or typed raw, any text in a
    file with a control character other than a tab or a line break is refused."""
    if kind == "scenario briefing":  # raw, not escaped: in a block of text
        text = text.replace("{c}", "\x00" if char == NUL else "\x1b")
    else:
        text = text.replace("{c}", char)
    path = write(tmp_path, "f.yaml", text)
    before = stored(runner)
    args = {"design": ["design", "check", path],
            "force": ["battle", "auto", "opening-shots", "-a", path, "-d", path],
            "scenario": ["scenario", "check", path], "scenario briefing": ["scenario", "show",
                                                                            path],
            "plan": ["campaign", "start", company, "--plan", path]}[kind]
    err = refused(runner, *args)
    what = "a control character (NUL, \\x00)" if char == NUL else \
        "an escape character (ESC, \\x1b)"
    assert what in err
    assert "\x1b" not in err and "\x00" not in err  # shown as escapes, never sent raw
    if place:
        assert place in err
    assert stored(runner) == before


@pytest.mark.parametrize("raw", ["\x00", "\x1b[2J", "\x07", "\x9b"])
def test_control_characters_in_a_dice_file_are_refused_with_their_line(
        runner: CliRunner, tmp_path: Path, raw: str) -> None:
    dice = write(tmp_path, "dice.txt", f"1 2 3\n4 {raw}5\n")
    red = write(tmp_path, "red.yaml", FORCE)
    err = refused(runner, "battle", "auto", "opening-shots", "-a", red, "-d", red,
                  "--dice", dice)
    assert "line 2: the text holds" in err and "control characters" in err


@pytest.mark.parametrize("char", ["\u0000", "\u001b", "\u0085", "\ud800"])
def test_control_characters_in_a_roster_import_are_refused_with_the_json_path(
        runner: CliRunner, roster_text: str, tmp_path: Path, char: str) -> None:
    doc = json.loads(roster_text)
    doc["pilots"][0]["name"] = f"A{char}na"
    path = write(tmp_path, "r.json", json.dumps(doc, indent=1))
    before = stored(runner)
    err = refused(runner, "roster", "import", path, "--name", "Copy")
    assert "pilots[0].name: the text holds" in err
    assert stored(runner) == before
    result = runner.invoke(app, ["roster", "import", "-", "--name", "Copy"],
                           input=json.dumps(doc))
    assert result.exit_code == 2 and "<stdin>: pilots[0].name: the text holds" in \
        " ".join(result.stderr.split())
    if char == "\ud800":
        return  # YAML cannot spell a lone surrogate at all
    yaml_text = yaml.safe_dump(doc, sort_keys=False)  # a YAML roster: the line too
    line = yaml_text[:yaml_text.index('"A\\')].count("\n") + 1
    path = write(tmp_path, "r.yaml", yaml_text)
    err = refused(runner, "roster", "import", path, "--name", "Copy")
    assert f"line {line} (pilots[0].name): the text holds" in err


def test_control_characters_in_a_backup_are_refused_with_the_json_path(
        runner: CliRunner, company: str, tmp_path: Path) -> None:
    """Issue 14 item 3: a text with a NUL cannot be stored by PostgreSQL, so a backup holding
    one could never be restored; it is refused before anything is replaced."""
    backup = tmp_path / "b.json"
    run(runner, "db", "backup", str(backup), code=0)
    data = json.loads(backup.read_text())
    data["tables"]["company"][0]["name"] = "Wol\u0000ves"
    backup.write_text(json.dumps(data))
    before = stored(runner)
    err = refused(runner, "db", "restore", str(backup), "--yes")
    assert "tables.company[0].name: the text holds a control character (NUL, \\x00)" in err
    assert stored(runner) == before


def test_tabs_and_line_breaks_are_allowed_in_long_texts(runner: CliRunner,
                                                        tmp_path: Path) -> None:
    text = OPENING.replace("briefing: >", "briefing: |").replace(
        "  Two small companies", "  Two\tsmall companies").replace(
        "id: opening-shots", "id: tabbed-shots")  # a changed copy takes an id of its own
    path = write(tmp_path, "s.yaml", text)
    run(runner, "scenario", "check", path, code=0)


def test_files_with_windows_line_ends_are_read(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    path.write_bytes(DESIGN.replace("\n", "\r\n").encode())
    run(runner, "design", "check", str(path), code=0)


# ---- control characters typed --------------------------------------------------------------

TYPED = [
    ["company", "create", "{x}"],
    ["demo", "--name", "{x}", "--seed", "1"],
    ["pilot", "hire", "Wolves", "{x}"],
    ["mek", "buy", "Wolves", "WASP", "--callsign", "{x}"],
    ["mek", "rename", "Wolves", "WASP-1", "{x}"],
    ["company", "show", "{x}"],
]


@pytest.mark.parametrize("name", ["a\x00b", "\x1b[2JWolf", "Ana\x7f", "Bo\x9b2J"])
@pytest.mark.parametrize("args", TYPED, ids=lambda a: " ".join(a[:2]))
def test_typed_names_with_control_characters_are_refused_not_stripped(
        runner: CliRunner, company: str, args: list[str], name: str) -> None:
    """Issue 14 item 3: a name typed with NUL or an escape sequence is refused (exit 2) with
    one sentence that shows the character as an escape; nothing is stored."""
    before = stored(runner)
    result = runner.invoke(app, [a.replace("{x}", name) for a in args])
    assert result.exit_code == 2, result.stderr
    err = result.stderr
    assert "control characters" in " ".join(err.split())
    assert not any(c in err for c in "\x00\x1b\x7f\x9b")
    assert stored(runner) == before


def test_a_roster_imported_under_a_typed_name_with_an_escape_is_refused(
        runner: CliRunner, roster_text: str, tmp_path: Path) -> None:
    path = write(tmp_path, "r.json", roster_text)
    before = stored(runner)
    assert "escape character (ESC" in refused(runner, "roster", "import", path, "--name",
                                              "\x1b[2JCopy")
    assert stored(runner) == before


def test_typed_tabs_and_line_breaks_in_a_name_still_become_spaces(runner: CliRunner,
                                                                  company: str) -> None:
    run(runner, "pilot", "hire", company, "Cal\tVin\r\n", code=0)
    assert "Cal Vin" in run(runner, "pilot", "show", company, "Cal Vin", code=0)[1]


@pytest.mark.parametrize("name", ["a\x00b", "a\x1bb", "\x7f", "a\x85b", "\x0bx"])
def test_clean_name_refuses_control_characters(name: str) -> None:
    with pytest.raises(UsageError, match="a name cannot hold control characters"):
        clean_name(name, "pilot name")


REFUSED = st.sampled_from([chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))
                           if chr(c) not in TYPED_WHITESPACE])


@given(before=st.text(max_size=10), bad=REFUSED, after=st.text(max_size=10))
@settings(max_examples=200, deadline=None)
def test_any_name_with_a_control_character_is_refused(before: str, bad: str,
                                                      after: str) -> None:
    """Property: whatever surrounds it, a control character other than a tab or a line break
    makes a name unusable; it is never silently dropped."""
    with pytest.raises(MeksError):
        clean_name(before + bad + after, "callsign")


@given(name=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20))
@settings(max_examples=200, deadline=None)
def test_a_stored_name_never_holds_a_control_character(name: str) -> None:
    """Property: a name clean_name accepts holds no control character at all (tabs and line
    breaks have become spaces)."""
    try:
        cleaned = clean_name(name, "callsign")
    except MeksError:
        return
    assert bad_character(cleaned, "") is None


# ---- whatever the bytes, an InputError or data ------------------------------------------------

HOSTILE = st.one_of(
    st.binary(max_size=200),
    st.text(alphabet="ab:-[]{}&*!|>'\"\n\t\\ 0123456789\x00\x1b\x85\ufeff", max_size=120).map(
        str.encode),
    st.builds(lambda n, d: (("- " * d) + "x\n" + f"n: {'9' * n}\n").encode(),
              st.integers(90, 5_000), st.integers(0, 120)),
)

READERS = {
    "yaml": lambda p: files.read_yaml_file(p, files.DESIGN),
    "json": lambda p: files.read_json_file(p, files.BACKUP),
    "dice": read_dice_file,
    "scenario": read_scenario_file,
    "roster": lambda p: parse_roster(read_roster_file(p), str(p)),
}


@given(data=HOSTILE, reader=st.sampled_from(sorted(READERS)))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_loader_raises_nothing_but_input_error_whatever_the_bytes(data: bytes,
                                                                      reader: str) -> None:
    """Property: random bytes, YAML and JSON punctuation, control characters, deep nesting
    and long numbers give data or an InputError (exit 2); never another exception."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.yaml"
        path.write_bytes(data)
        try:
            READERS[reader](path)
        except InputError:
            pass
        except MeksError as exc:  # a roster whose content is refused by the rules
            assert reader == "roster", exc


# ---- typed numbers past Python's limit -------------------------------------------------------

def test_typed_numbers_past_4300_digits_are_refused_not_an_unexpected_problem(
        runner: CliRunner, company: str) -> None:
    """Issue 14 item 2, typed: an id or a kill count of 4,301 digits is never handed to
    int() as it is; it names no id, or is refused as too large."""
    code, err = run(runner, "company", "show", LONG)
    assert code == 1 and "No company is called" in err
    assert run(runner, "company", "show", "0" * 4_400 + "1", code=0)
    code, err = run(runner, "battle", "record", company, "--result", "win",
                    "--kills", f"Ana={LONG}")
    assert code == 2 and "must be at most" in " ".join(err.replace("│", " ").split())
    code, err = run(runner, "battle", "record", company, "--result", "win", "--kills", "Ana=-1")
    said = " ".join(err.replace("│", " ").split())
    assert code == 2 and "Invalid value for --kills: 'Ana=-1': the part after '='" in said


# ---- names given in files follow the rules of typed names ---------------------------------

def test_item3_names_in_force_and_plan_files_follow_the_typed_name_rules(
        tmp_path: Path) -> None:
    """A force's callsigns, pilot names and name, and a plan's name, are cleaned as typed
    names are (tabs and line breaks become spaces) and refused where a typed name would be,
    as the file's problem (exit 2) at its place."""
    from campaigns.forces import load_force_file
    from campaigns.plans import load_plan

    force = tmp_path / "force.yaml"
    force.write_text('name: "Red\\tLance"\nmeks:\n  - design: WASP\n    callsign: "A\\nB"\n'
                     '    pilot: "Vera\\t Cruz"\n', encoding="utf-8")
    spec = load_force_file(force)
    assert spec.name == "Red Lance"
    assert spec.units[0].name == "A B"
    assert spec.units[0].pilot.name == "Vera Cruz"
    for bad, where in (('"   "', "meks[0].callsign"), ('"1234"', "meks[0].callsign")):
        force.write_text(f"meks:\n  - design: WASP\n    callsign: {bad}\n", encoding="utf-8")
        with pytest.raises(InputError) as caught:
            load_force_file(force)
        assert caught.value.exit_code == 2 and where in caught.value.message
    plan = tmp_path / "plan.yaml"
    plan.write_text('name: "Long\\tMarch"\nscenarios:\n  - scenario: opening-shots\n'
                    '    side: attacker\n', encoding="utf-8")
    assert load_plan(plan)[0] == "Long March"
    plan.write_text('name: "' + "x" * 61 + '"\nscenarios:\n  - scenario: opening-shots\n'
                    '    side: attacker\n', encoding="utf-8")
    with pytest.raises(InputError, match=r": name: A campaign name can be at most 60"):
        load_plan(plan)


# ---- one wording of a bad value, whatever the file (issue 29 item 4) ------------------------

def _roster_with(roster_text: str, fmt: str) -> str:
    doc = json.loads(roster_text)
    doc["meks"][0]["price"] = "many"
    return json.dumps(doc) if fmt == "json" else yaml.safe_dump(doc)


def _backup_with(runner: CliRunner, tmp_path: Path) -> str:
    backup = tmp_path / "b.json"
    run(runner, "db", "backup", str(backup), code=0)
    doc = json.loads(backup.read_text())
    doc["tables"]["mek"][0]["price"] = "many"
    return json.dumps(doc)


WHOLE = "expected a whole number, found text 'many'; write a whole number here"
LIST = "expected a list, found text 'many'; write a list here"

# kind: (file name, its text from (runner, roster_text, tmp_path), the command, the problem)
ONE_BAD_VALUE = {
    "scenario": ("s.yaml", lambda *_: OPENING.replace("turn_limit: 12", "turn_limit: many"),
                 ["scenario", "check", "{}"], f"(turn_limit): {WHOLE}"),
    "design": ("d.yaml", lambda *_: DESIGN.replace("[Rail Cannon, Howitzer]", "many"),
               ["design", "check", "{}"], f"(weapons): {LIST}"),
    "force": ("f.yaml", lambda *_: "meks: many\n",
              ["battle", "auto", "opening-shots", "-a", "{}", "-d", "{}"],
              f"line 1 (meks): {LIST}"),
    "plan": ("p.yaml", lambda *_: "name: War\nscenarios: many\n",
             ["campaign", "start", "Wolves", "--plan", "{}"], f"line 2 (scenarios): {LIST}"),
    "house rules in a plan": (
        "p.yaml", lambda *_: PLAN + "house_rules: {treasury: many}\n",
        ["campaign", "start", "Wolves", "--plan", "{}"],
        "(house_rules.treasury): expected true or false, found text 'many'; write true or "
        "false here"),
    "roster (JSON)": ("r.json", lambda _, text, __: _roster_with(text, "json"),
                      ["roster", "import", "{}", "--name", "Copy"], f"meks[0].price: {WHOLE}"),
    "roster (YAML)": ("r.yaml", lambda _, text, __: _roster_with(text, "yaml"),
                      ["roster", "import", "{}", "--name", "Copy"], f"meks[0].price: {WHOLE}"),
    "backup": ("b.json", lambda runner, _, tmp: _backup_with(runner, tmp),
               ["db", "restore", "{}", "--yes"], f"mek row 1 (price): {WHOLE}"),
    "dice": ("dice.txt", lambda *_: "3 many\n",
             ["battle", "auto", "opening-shots", "-a", "{force}", "-d", "{force}", "--dice",
              "{}"],
             "line 1: expected a die value (a whole number from 1 to 6), found text 'many'; "
             "write a die value (a whole number from 1 to 6) here"),
}


@pytest.mark.parametrize("kind", list(ONE_BAD_VALUE))
def test_one_bad_value_reads_the_same_in_every_kind_of_file(
        runner: CliRunner, company: str, roster_text: str, tmp_path: Path, kind: str) -> None:
    """'<file>: <where> <what is wrong>; <what to do>', exit 2, nothing stored."""
    name, text, command, expected = ONE_BAD_VALUE[kind]
    path = write(tmp_path, name, text(runner, roster_text, tmp_path))
    force = write(tmp_path, "force.yaml", FORCE)
    before = stored(runner)
    err = refused(runner, *(arg.format(path, force=force) for arg in command))
    assert err.startswith(f"Error: {path}") and expected in err, err
    assert stored(runner) == before


def _roster_key(roster_text: str, key: str) -> str:
    doc = json.loads(roster_text)
    doc["meks"][0][key] = doc["meks"][0].pop("callsign")
    return json.dumps(doc)


# One unknown key, misspelt from a key the place allows: placed at itself and answered with
# the nearest allowed key, in every kind of file a player gives that pydantic checks.
NEAR = "unknown key 'calsign' (did you mean 'callsign'?); remove it or correct its spelling"
ONE_UNKNOWN_KEY = {
    "scenario": ("s.yaml", lambda *_: OPENING.replace("turn_limit:", "turn_limt:"),
                 ["scenario", "check", "{}"],
                 "(turn_limt): unknown key 'turn_limt' (did you mean 'turn_limit'?); remove it "
                 "or correct its spelling"),
    "design": ("d.yaml", lambda *_: DESIGN.replace("systems:", "sytems:"),
               ["design", "check", "{}"],
               "(sytems): unknown key 'sytems' (did you mean 'systems'?); remove it or "
               "correct its spelling"),
    "force": ("f.yaml", lambda *_: "meks:\n  - {design: WASP, calsign: Anvil}\n",
              ["battle", "auto", "opening-shots", "-a", "{}", "-d", "{}"],
              f"line 2 (meks[0].calsign): {NEAR}"),
    "plan": ("p.yaml", lambda *_: "name: War\nscenarios:\n  - {scenario: opening-shots, "
             "side: attacker, sid: attacker}\n",
             ["campaign", "start", "Wolves", "--plan", "{}"],
             "line 3 (scenarios[0].sid): unknown key 'sid' (did you mean 'side'?); remove it or "
             "correct its spelling"),
    "roster": ("r.json", lambda _, text, __: _roster_key(text, "calsign"),
               ["roster", "import", "{}", "--name", "Copy"],
               f"meks[0].calsign: {NEAR}"),
}


@pytest.mark.parametrize("kind", list(ONE_UNKNOWN_KEY))
def test_one_unknown_key_reads_the_same_in_every_kind_of_file(
        runner: CliRunner, company: str, roster_text: str, tmp_path: Path, kind: str) -> None:
    """Issue 29 item 4: scenarios, rosters, designs, force files and plans are all checked by
    pydantic and worded by one translator (campaigns.files.model_errors): exit 2, one
    message, nothing stored."""
    name, text, command, expected = ONE_UNKNOWN_KEY[kind]
    path = write(tmp_path, name, text(runner, roster_text, tmp_path))
    before = stored(runner)
    err = refused(runner, *(arg.format(path) for arg in command))
    assert err.startswith(f"Error: {path}") and expected in " ".join(err.split()), err
    assert "Traceback" not in err
    assert stored(runner) == before


def test_a_force_or_plan_name_written_as_a_number_is_taken_as_text(tmp_path: Path) -> None:
    """As before pydantic checked them, a bare number where a name goes is that name's text,
    judged by the rules of names (not 'expected text')."""
    from campaigns.forces import load_force_file
    from campaigns.plans import load_plan

    force = tmp_path / "force.yaml"
    force.write_text("meks:\n  - {design: WASP, pilot: 12.5, callsign: 2.0}\n",
                     encoding="utf-8")
    spec = load_force_file(force)
    assert spec.units[0].pilot.name == "12.5" and spec.units[0].name == "2.0"
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: 1917\nscenarios:\n  - {scenario: opening-shots, side: attacker}\n",
                    encoding="utf-8")
    with pytest.raises(InputError, match="name: A campaign name cannot be only digits"):
        load_plan(plan)
