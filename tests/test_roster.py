"""`meks roster`: export in every format, import back, the schema, and refusing bad files."""

from __future__ import annotations

import copy
import csv
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from campaigns import roster_io
from campaigns.files.roster_model import roster_json_schema
from cli.app import app
from db.engine import dispose_all
from meks.game.catalog import Catalog

COMPANY = "Iron Wolves"
HUNTER = "name: Hunter\nsize: Heavy\nweapons: [Rail Cannon, Howitzer]\nsystems: [Jammer]\n"

# A company with something of everything: stock and custom Meks, a sold and a destroyed one,
# Green and Regular pilots, spent and waiting support rolls, a fought and a waiting muster.
CAMPAIGN = [
    ["company", "create", COMPANY],
    ["mek", "buy", COMPANY, "WASP"],
    ["mek", "buy", COMPANY, "VIPER", "--callsign", "Fang"],
    ["mek", "buy", COMPANY, "{hunter}"],
    ["mek", "buy", COMPANY, "WASP"],
    ["mek", "sell", COMPANY, "WASP-2"],
    ["pilot", "hire", COMPANY, "Ana"],
    ["pilot", "hire", COMPANY, "Bo", "--regular"],
    ["pilot", "hire", COMPANY, "Émile"],
    ["pilot", "assign", COMPANY, "Ana", "WASP-1"],
    ["pilot", "assign", COMPANY, "Bo", "Fang"],
    ["pilot", "assign", COMPANY, "Émile", "Hunter-1"],
    ["support", "roll", COMPANY, "-n", "2", "--seed", "1"],
    ["muster", COMPANY, "--budget", "200", "WASP-1", "Fang"],
    ["battle", "record", COMPANY, "--result", "win", "--auto", "--seed", "3",
     "--kills", "Ana=2", "--destroyed", "Fang"],
    ["muster", COMPANY, "--budget", "200", "WASP-1", "Hunter-1"],
    ["support", "roll", COMPANY, "--seed", "5"],
]
CALLSIGNS = ("WASP-1", "Fang", "Hunter-1", "WASP-2")
PILOTS = ("Ana", "Bo", "Émile")


def run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def campaign_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding the campaign above, built once and copied for each test."""
    folder = tmp_path_factory.mktemp("campaign")
    design = folder / "hunter.yaml"
    design.write_text(HUNTER, encoding="utf-8")
    path = folder / "campaign.db"
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEKS_DB", str(path))
        dispose_all()
        for args in CAMPAIGN:
            result = runner.invoke(app, [a.replace("{hunter}", str(design)) for a in args])
            assert result.exit_code == 0, (args, result.stderr)
        dispose_all()
    return path


@pytest.fixture(autouse=True)
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "t.db"
    monkeypatch.setenv("MEKS_DB", str(path))
    dispose_all()
    yield path
    dispose_all()


@pytest.fixture
def campaign(database: Path, campaign_db: Path) -> Path:
    """The test's own database, holding the campaign."""
    dispose_all()
    shutil.copyfile(campaign_db, database)
    return database


def use_empty_database(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dispose_all()
    monkeypatch.setenv("MEKS_DB", str(path))


def export(runner: CliRunner, fmt: str, company: str = COMPANY) -> str:
    code, out, err = run(runner, "roster", "export", company, "--format", fmt)
    assert code == 0, err
    return out


def companies(runner: CliRunner) -> list[str]:
    code, out, err = run(runner, "company", "list", "--json")
    assert code == 0, err
    return [c["name"] for c in json.loads(out)]


def without_ids(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with every id dropped and every reference replaced by what it points at: a
    Mek's callsign, a pilot's name, a muster's or battle's place in its list."""
    doc = copy.deepcopy(doc)
    callsign = {m["id"]: m["callsign"] for m in doc["meks"]}
    name = {p["id"]: p["name"] for p in doc["pilots"]}
    muster = {m["id"]: f"muster #{i}" for i, m in enumerate(doc["musters"])}
    battle = {b["id"]: f"battle #{i}" for i, b in enumerate(doc["battles"])}
    del doc["company"]["id"]
    for part in ("meks", "pilots", "support", "musters", "battles"):
        for item in doc[part]:
            del item["id"]
    for p in doc["pilots"]:
        p["mek"] = callsign.get(p["mek"])
    for s in doc["support"]:
        s["muster"] = muster.get(s["muster"])
    for m in doc["musters"]:
        m["force"] = [{"mek": callsign[f["mek"]], "pilot": name[f["pilot"]]}
                      for f in m["force"]]
        m["battle"] = battle.get(m["battle"])
    for b in doc["battles"]:
        b["muster"] = muster.get(b["muster"])
    return doc


# ---- export ---------------------------------------------------------------------------------

def test_json_export_follows_the_schema_of_the_roster_model(runner: CliRunner,
                                                            campaign: Path) -> None:
    """The JSON Schema published for scripts (generated from the model that checks an
    import) accepts what the program writes, as the model does."""
    schema = roster_json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = json.loads(export(runner, "json"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert doc["schema"] == "meks-roster" and doc["version"] == 1
    assert [m["callsign"] for m in doc["meks"]] == ["WASP-1", "Fang", "Hunter-1", "WASP-2"]
    assert doc["meks"][2]["custom_design"]["name"] == "Hunter"
    assert [b["result"] for b in doc["battles"]] == ["win"]
    assert roster_io.schema_problems(doc) == []


def test_yaml_export_holds_the_same_document(runner: CliRunner, campaign: Path) -> None:
    assert yaml.safe_load(export(runner, "yaml")) == json.loads(export(runner, "json"))


def test_output_dash_is_standard_output(runner: CliRunner, campaign: Path,
                                        tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """'-o -' prints the roster, as 'roster import -' reads one: no file named '-'."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(runner, "roster", "export", COMPANY, "-o", "-")
    assert code == 0 and json.loads(out) == json.loads(export(runner, "json"))
    assert not (tmp_path / "-").exists() and "Wrote" not in err


def test_schema_command_prints_the_schema_of_the_roster_model(runner: CliRunner) -> None:
    code, out, _ = run(runner, "roster", "schema")
    assert code == 0
    schema = json.loads(out)
    assert schema == roster_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"schema", "version", "company", "meks", "pilots",
                                       "support", "musters", "battles"}


def test_csv_has_one_row_per_mek_with_its_pilot(runner: CliRunner, campaign: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(export(runner, "csv"))))
    assert tuple(rows[0]) == roster_io.CSV_COLUMNS
    assert [r["callsign"] for r in rows] == ["WASP-1", "Hunter-1", "Fang", "WASP-2"]
    assert [r["status"] for r in rows] == ["active", "active", "destroyed", "sold"]
    wasp, hunter, fang, _ = rows
    assert (wasp["pilot"], wasp["pilot_level"], wasp["pilot_kills"], wasp["kills"]) == \
        ("Ana", "Regular", "2", "2")
    assert (hunter["pilot"], hunter["design"], hunter["size"]) == ("Émile", "Hunter", "Heavy")
    assert fang["pilot"] == ""


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_printable_sheets_name_every_mek_and_pilot(runner: CliRunner, campaign: Path,
                                                   fmt: str) -> None:
    text = export(runner, fmt)
    for name in (COMPANY, *CALLSIGNS, *PILOTS, "1 W / 0 L / 0 D"):
        assert name in text, name
    if fmt == "html":
        assert text.startswith("<!doctype html>")
        assert "@media print" in text


def test_html_escapes_every_value(runner: CliRunner) -> None:
    for args in (["company", "create", "A&B <Co>"], ["pilot", "hire", "A&B <Co>", "<script>"],
                 ["mek", "buy", "A&B <Co>", "WASP", "--callsign", '"Q"']):
        assert run(runner, *args)[0] == 0
    page = export(runner, "html", "A&B <Co>")
    assert "<script>" not in page
    # the template's escaping (markupsafe) writes a double quote as &#34;
    assert "&lt;script&gt;" in page and "A&amp;B &lt;Co&gt;" in page and "&#34;Q&#34;" in page
    assert '"Q"' not in page


def test_output_file_is_written_whole(runner: CliRunner, campaign: Path, tmp_path: Path
                                      ) -> None:
    target = tmp_path / "out" / "wolves.yaml"
    target.parent.mkdir()
    target.write_text("old contents", encoding="utf-8")
    code, out, err = run(runner, "roster", "export", COMPANY, "-o", str(target))
    assert code == 0, err
    assert str(target) in out
    assert target.read_text(encoding="utf-8") == export(runner, "yaml")  # format from suffix
    assert [p.name for p in target.parent.iterdir()] == ["wolves.yaml"]  # no temp file left
    code, _, _ = run(runner, "roster", "export", COMPANY, "-o", str(target), "-f", "csv")
    assert code == 0 and target.read_text(encoding="utf-8").startswith("callsign,design")


def test_export_of_an_unknown_format_or_company_fails_cleanly(runner: CliRunner,
                                                              campaign: Path) -> None:
    code, _, err = run(runner, "roster", "export", COMPANY, "--format", "pdf")
    assert code == 2 and "pdf" in err
    code, _, err = run(runner, "roster", "export", "Nobody")
    assert code == 1 and "Nobody" in err and "Traceback" not in err


# ---- import ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_export_import_export_gives_the_same_roster(runner: CliRunner, campaign: Path,
                                                    tmp_path: Path, fmt: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    first = json.loads(export(runner, "json"))
    path = tmp_path / f"wolves.{fmt}"
    assert run(runner, "roster", "export", COMPANY, "-o", str(path))[0] == 0
    use_empty_database(tmp_path / "empty.db", monkeypatch)
    code, out, err = run(runner, "roster", "import", str(path), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert (result["name"], result["meks"], result["pilots"], result["battles"]) == \
        (COMPANY, 4, 3, 1)
    again = json.loads(export(runner, "json"))
    assert without_ids(again) == without_ids(first)
    code, out, _ = run(runner, "company", "history", COMPANY, "--json")
    assert [e["command"] for e in json.loads(out)] == ["roster import"]


def test_an_import_is_a_founding_that_undo_leaves_and_delete_removes(
        runner: CliRunner, campaign: Path, tmp_path: Path) -> None:
    """Undo takes back changes, not a company's founding: an imported company is not left
    behind empty by undo, which says how to remove it instead; then the name is free."""
    path = tmp_path / "wolves.json"
    path.write_text(export(runner, "json"), encoding="utf-8")
    assert run(runner, "roster", "import", str(path), "--name", "Copy")[0] == 0
    before = json.loads(export(runner, "json", "Copy"))
    code, _, err = run(runner, "company", "undo", "Copy")
    assert code == 1 and "no change left to undo" in err
    assert "'meks company delete Copy' removes the company" in " ".join(err.split())
    assert json.loads(export(runner, "json", "Copy")) == before
    assert run(runner, "company", "delete", "Copy", "--yes")[0] == 0
    assert run(runner, "roster", "import", str(path), "--name", "Copy")[0] == 0


def test_import_under_a_new_name_beside_the_original(runner: CliRunner, campaign: Path,
                                                     tmp_path: Path) -> None:
    path = tmp_path / "wolves.json"
    path.write_text(export(runner, "json"), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path))
    assert code == 1
    assert "already exists" in err and "--name" in err and "Traceback" not in err
    assert companies(runner) == [COMPANY]
    code, out, err = run(runner, "roster", "import", str(path), "--name", "Wolf Pack")
    assert code == 0, err
    assert "Wolf Pack" in out and "4 Meks" in out and "3 pilots" in out
    assert sorted(companies(runner)) == [COMPANY, "Wolf Pack"]
    copied = json.loads(export(runner, "json", "Wolf Pack"))
    original = json.loads(export(runner, "json"))
    copied["company"]["name"] = COMPANY
    for old, new in zip(original["battles"], copied["battles"], strict=True):
        for key in set(old["sides"]) & {"attacker", "defender"}:  # named as it is called now
            assert new["sides"][key] == ("Wolf Pack" if old["sides"][key] == COMPANY
                                         else old["sides"][key])
            new["sides"][key] = old["sides"][key]
    assert without_ids(copied) == without_ids(original)


def _broken(change: str) -> str:
    """A small valid roster with one thing wrong, as YAML text."""
    doc: dict[str, Any] = {
        "schema": "meks-roster", "version": 1,
        "company": {"id": 1, "name": "Broken", "created_at": "2025-01-01T00:00:00+00:00"},
        "meks": [{"id": 1, "callsign": "W", "design": "WASP", "size": "Light", "price": 9,
                  "kills": 0, "status": "active", "custom_design": None}],
        "pilots": [{"id": 1, "name": "Ana", "level": "Green", "kills": 0, "scenarios": 0,
                    "skills": [], "status": "active", "mek": 1, "hire_cost": 0}],
        "support": [], "musters": [], "battles": [],
    }
    if change == "wrong types":
        doc["meks"][0]["price"] = "nine"
        doc["pilots"][0]["skills"] = "Accuracy"
    elif change == "unknown keys":
        doc["meks"][0]["colour"] = "red"
        doc["extra"] = True
    elif change == "dangling references":
        doc["pilots"][0]["mek"] = 99
    elif change == "bad enum":
        doc["pilots"][0]["level"] = "Legendary"
    elif change == "missing key":
        del doc["meks"][0]["size"]
    elif change == "duplicate callsign":
        doc["meks"].append({**doc["meks"][0], "id": 2, "callsign": "w"})
    elif change == "campaign past its plan":
        doc["campaigns"] = [_campaign(position=1)]
    elif change == "two campaigns under way":
        doc["campaigns"] = [_campaign(), {**_campaign(), "id": 2, "name": "Second"}]
    elif change == "unknown scenario":
        doc["campaigns"] = [_campaign(scenario="moon-landing")]
    elif change == "unknown design":
        doc["meks"][0]["design"] = "NOSUCHMEK"
    elif change == "size not the design's":
        doc["meks"][0]["size"] = "Heavy"
    elif change == "unknown skill":
        doc["pilots"][0]["skills"] = ["Accuracy", "Laser Eyes"]
    elif change == "familiarity with no such size":
        doc["pilots"][0]["skills"] = ["Chassis Familiarity (Huge)"]
    elif change == "illegal custom design":
        doc["meks"].append({"id": 2, "callsign": "Blade", "design": "Blade", "size": "Light",
                            "price": 20, "kills": 0, "status": "active", "custom_design": {
                                "name": "Blade", "size": "Light", "weapons": ["Laser Sword"],
                                "systems": []}})
    elif change == "custom design without weapons":
        doc["meks"][0]["custom_design"] = {"name": "Bare", "size": "Light", "systems": []}
    elif change == "two pilots in one Mek":
        doc["pilots"].append({**copy.deepcopy(doc["pilots"][0]), "id": 2, "name": "Bo"})
    elif change == "price not the design's":
        doc["meks"][0]["price"] = 1
    elif change == "a level its record does not reach":
        doc["pilots"][0].update(level="Elite", kills=9, scenarios=10)
    elif change == "a skill twice":
        doc["pilots"][0].update(level="Regular", scenarios=3,
                                skills=["Tactics", "Chassis Familiarity (Light)",
                                        "Chassis Familiarity (Heavy)"])
    elif change == "skills while Green":
        doc["pilots"][0].update(scenarios=1, skills=["Tactics"])
    elif change == "more skills than scenarios":
        doc["pilots"][0].update(level="Regular", scenarios=1, skills=["Tactics", "Agility"])
    elif change == "a dead pilot in a Mek":
        doc["pilots"][0]["status"] = "dead"
    elif change == "a part lost that the Mek never had":
        doc["meks"][0]["lost"] = [{"kind": "weapon", "part": "Laser"}]
    elif change == "a pilot named by digits":
        doc["pilots"][0]["name"] = "2"
    elif change == "a callsign too long":
        doc["meks"][0]["callsign"] = "W\u200b\tX" + "y" * 80
    elif change == "a campaign's scenario copy that cannot be played":
        source = Path(__file__).parent.parent / "campaigns/files/scenarios" / "1-opening-shots.yaml"
        definition = yaml.safe_load(source.read_text())
        definition["attacker"]["budget"] = 5
        doc["campaigns"] = [{**_campaign(), "plan": [
            {"scenario": "opening-shots", "side": "attacker", "file": "os.yaml",
             "definition": definition}]}]
    return yaml.safe_dump(doc, sort_keys=False)


def _campaign(position: int = 0, scenario: str = "opening-shots") -> dict[str, Any]:
    return {"id": 1, "name": "Border War", "plan": [{"scenario": scenario, "side": "attacker"}],
            "position": position, "seed": 1, "difficulty": "normal", "status": "active",
            "results": [], "created_at": "2025-01-01T00:00:00+00:00"}


MALFORMED = {
    "not yaml": ("schema: meks-roster\nmeks: [1, 2\n", "line"),
    "wrong types": (_broken("wrong types"), "meks[0].price"),
    "unknown keys": (_broken("unknown keys"), "unknown key 'colour'"),
    "dangling references": (_broken("dangling references"), "99"),
    "bad enum": (_broken("bad enum"), "pilots[0].level"),
    "missing key": (_broken("missing key"), "missing required key 'size'; add it"),
    "duplicate callsign": (_broken("duplicate callsign"), "appears twice"),
    "python tag": ("schema: meks-roster\nversion: 1\ncompany: !!python/object/apply:os.system"
                   " ['echo hacked']\n", "tag"),
    "alias bomb": ("schema: meks-roster\nversion: 1\na: &a [x, x, x, x, x, x, x, x]\n"
                   "b: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b]\n"
                   "meks: [*c, *c, *c, *c, *c, *c, *c, *c]\n", "aliases"),
    "not a mapping": ("- just\n- a list\n", "not a roster document"),
    "empty": ("", "empty"),
    "wrong version": (_broken("").replace("version: 1", "version: 7"), "version 7"),
    "campaign past its plan": (_broken("campaign past its plan"), "plan has 1 scenario"),
    "two campaigns under way": (_broken("two campaigns under way"), "2 campaigns are under"),
    "unknown scenario": (_broken("unknown scenario"), "'moon-landing'"),
    "unknown design": (_broken("unknown design"), "'NOSUCHMEK'"),
    "size not the design's": (_broken("size not the design's"), "is Heavy but its design"),
    "unknown skill": (_broken("unknown skill"), "skills[1]: no skill is called 'Laser Eyes'"),
    "familiarity with no such size": (_broken("familiarity with no such size"),
                                      "names no size of Mek"),
    "illegal custom design": (_broken("illegal custom design"), "unknown weapon 'Laser Sword'"),
    "two pilots in one Mek": (_broken("two pilots in one Mek"), "Ana already flies W"),
    "custom design without weapons": (_broken("custom design without weapons"),
                                      "custom_design: missing required key 'weapons'"),
    "price not the design's": (_broken("price not the design's"),
                               "its price is 1, but a Mek of its design 'WASP' costs"),
    "a level its record does not reach": (_broken("a level its record does not reach"),
                                          "Elite needs 10 Mek kills and 10 scenarios"),
    "a skill twice": (_broken("a skill twice"), "Chassis Familiarity is held more than once"),
    "skills while Green": (_broken("skills while Green"), "learns none while Green"),
    "more skills than scenarios": (_broken("more skills than scenarios"),
                                   "2 skills after 1 scenario;"),
    "a dead pilot in a Mek": (_broken("a dead pilot in a Mek"), "a dead pilot flies no Mek"),
    "a part lost that the Mek never had": (_broken("a part lost that the Mek never had"),
                                           "1 Laser listed lost, but its design 'WASP' "
                                           "carries 0"),
    "a pilot named by digits": (_broken("a pilot named by digits"),
                                "pilots[0].name: a pilot name cannot be only digits"),
    "a callsign too long": (_broken("a callsign too long"),
                            "meks[0].callsign: a callsign can be at most 60"),
    "a campaign's scenario copy that cannot be played": (
        _broken("a campaign's scenario copy that cannot be played"), "budget of 5"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_roster_is_refused_and_nothing_stored(runner: CliRunner, campaign: Path,
                                                        tmp_path: Path, case: str) -> None:
    text, expected = MALFORMED[case]
    path = tmp_path / "roster.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(runner, "roster", "import", str(path))
    assert code == 2, (out, err)
    assert expected in err and "Traceback" not in err
    assert companies(runner) == [COMPANY]


def test_every_schema_problem_is_listed_with_its_place(runner: CliRunner, tmp_path: Path
                                                       ) -> None:
    doc = yaml.safe_load(_broken("wrong types"))
    doc["meks"][0]["status"] = "lost"
    doc["company"]["colour"] = "red"
    path = tmp_path / "roster.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path))
    assert code == 2
    for place in ("meks[0].price", "meks[0].status", "pilots[0].skills", "'colour'"):
        assert place in err
    assert companies(runner) == []


@pytest.mark.parametrize("fmt", ["csv", "md", "html"])
def test_printable_exports_cannot_be_imported(runner: CliRunner, campaign: Path,
                                              tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"wolves.{fmt}"
    assert run(runner, "roster", "export", COMPANY, "-o", str(path))[0] == 0
    code, _, err = run(runner, "roster", "import", str(path), "--name", "Copy")
    assert code == 2 and "not a roster document" in err and "Traceback" not in err
    assert companies(runner) == [COMPANY]


def test_import_of_a_missing_file(runner: CliRunner, tmp_path: Path) -> None:
    code, _, err = run(runner, "roster", "import", str(tmp_path / "nope.json"))
    assert code == 2 and "no such file" in err


# ---- the check against the schema -----------------------------------------------------------

SCHEMA_WORDING = {
    "": [],
    "wrong types": ["meks[0].price: expected a whole number, found text 'nine'; write a whole "
                    "number here",
                    "pilots[0].skills: expected a list, found text 'Accuracy'; write a list "
                    "here"],
    # An unknown key is placed at itself and, with no allowed key near it, answered with
    # every key allowed there (as in a scenario, a force file and a plan).
    "unknown keys": ["extra: unknown key 'extra'; the keys allowed here are schema, version, "
                     "company, meks, pilots, support, musters, battles, campaigns, stockpile "
                     "(remove it or correct its spelling)",
                     "meks[0].colour: unknown key 'colour'; the keys allowed here are id, "
                     "callsign, design, size, price, kills, status, damage, custom_design, "
                     "lost, owed, wear (remove it or correct its spelling)"],
    "bad enum": ["pilots[0].level: text 'Legendary' is not one of 'Green', 'Regular', "
                 "'Veteran' or 'Elite'; write one of these"],
    "missing key": ["meks[0]: missing required key 'size'; add it"],
}


@pytest.mark.parametrize("case", list(SCHEMA_WORDING))
def test_schema_problems_are_worded_as_every_file_problem(case: str) -> None:
    doc = yaml.safe_load(_broken(case))
    assert sorted(roster_io.schema_problems(doc)) == sorted(SCHEMA_WORDING[case])


def test_a_whole_number_written_with_a_decimal_point_or_as_true_is_refused() -> None:
    doc = yaml.safe_load(_broken(""))
    doc["meks"][0]["kills"] = 1.0
    doc["meks"][0]["price"] = True
    assert sorted(roster_io.schema_problems(doc)) == [
        "meks[0].kills: expected a whole number, found the number 1.0; write a whole number "
        "here",
        "meks[0].price: expected a whole number, found true; write a whole number here"]


def test_the_first_of_many_bad_entries_are_worded_even_after_many_good_ones() -> None:
    """A roster with thousands of errors words only those a message lists; they are found
    again in a copy cut to the first entries, grown until it holds some."""
    doc = yaml.safe_load(_broken(""))
    doc["meks"] = doc["meks"] * 3_000 + [{"id": 0}] * 5_000
    problems = roster_io.schema_problems(doc)
    assert len(problems) == 51
    assert problems[0] == "meks[3000].id: must be at least 1, not the number 0"
    assert all(p.startswith(tuple(f"meks[{i}]" for i in range(3_000, 3_008)))
               for p in problems)


def test_a_value_of_neither_allowed_kind_is_one_problem() -> None:
    doc = yaml.safe_load(_broken(""))
    doc["battles"] = [{"id": 1, "muster": None, "scenario": None, "mode": "auto", "sides": {},
                       "seed": 1, "result": "win", "log": "long", "created_at":
                       "2025-01-01T00:00:00+00:00"}]
    assert roster_io.schema_problems(doc) == [
        "battles[0].log: expected a mapping of keys to values or a list, found text 'long'; "
        "write a mapping of keys to values or a list here"]


def test_a_time_without_its_date_and_time_form_is_refused() -> None:
    doc = yaml.safe_load(_broken(""))
    doc["company"]["created_at"] = "yesterday"
    assert roster_io.schema_problems(doc) == [
        "company.created_at: expected a date and time like 2025-01-31T18:05:00+00:00, found "
        "text 'yesterday'; write one like it"]


# ---- campaigns and fought battles -----------------------------------------------------------

@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding a company that fought a whole solo campaign (``meks demo``)."""
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEKS_DB", str(path))
        dispose_all()
        result = CliRunner().invoke(app, ["--quiet", "demo", "--seed", "1", "--name", "D"])
        assert result.exit_code == 0, result.stderr
        dispose_all()
    return path


@pytest.fixture
def demo(database: Path, demo_db: Path) -> Path:
    dispose_all()
    shutil.copyfile(demo_db, database)
    return database


def _import_copy(runner: CliRunner, tmp_path: Path, doc: dict[str, Any], name: str) -> None:
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path), "--name", name)
    assert code == 0, err


def test_campaign_results_point_at_the_imported_battles(runner: CliRunner, demo: Path,
                                                        tmp_path: Path) -> None:
    original = json.loads(export(runner, "json", "D"))
    _import_copy(runner, tmp_path, original, "D2")
    copy_ = json.loads(export(runner, "json", "D2"))
    new_ids = [b["id"] for b in copy_["battles"]]
    assert set(new_ids).isdisjoint(b["id"] for b in original["battles"])
    scenario_of = {b["id"]: b["scenario"] for b in copy_["battles"]}
    results = copy_["campaigns"][0]["results"]
    assert [r["battle_id"] for r in results] == new_ids
    assert [scenario_of[r["battle_id"]] for r in results] == [r["scenario"] for r in results]


def test_a_campaign_result_naming_an_unlisted_battle_is_refused(
        runner: CliRunner, demo: Path, tmp_path: Path) -> None:
    doc = json.loads(export(runner, "json", "D"))
    doc["campaigns"][0]["results"][2]["battle_id"] = 99
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path), "--name", "D2")
    assert code == 2 and "battle 99" in err
    assert companies(runner) == ["D"]


@pytest.mark.parametrize("command", ["show", "replay"])
def test_an_imported_battle_says_it_came_without_its_log(runner: CliRunner, demo: Path,
                                                         tmp_path: Path, command: str) -> None:
    # The last battle is undone first, so that the import reuses its id while its log is
    # still stored: that log belongs to another battle and must not be shown.
    assert run(runner, "company", "undo", "D")[0] == 0  # the campaign's step
    assert run(runner, "company", "undo", "D")[0] == 0  # the battle itself
    doc = json.loads(export(runner, "json", "D"))
    _import_copy(runner, tmp_path, doc, "D2")
    battle_id = json.loads(export(runner, "json", "D2"))["battles"][0]["id"]
    code, out, err = run(runner, "battle", command, str(battle_id))
    assert code == 1 and out == ""
    assert "roster import" in err and "log" in err and "D2" in err and "Traceback" not in err
    own = doc["battles"][0]["id"]
    assert run(runner, "battle", command, str(own))[0] == 0  # the original still can


def test_a_battle_recorded_from_the_table_has_no_log_to_show(runner: CliRunner,
                                                             campaign: Path) -> None:
    battle_id = json.loads(export(runner, "json"))["battles"][0]["id"]
    for command in ("show", "replay"):
        code, _, err = run(runner, "battle", command, str(battle_id))
        assert code == 1 and "real table" in err and "Traceback" not in err


def test_every_game_problem_is_listed_at_once(runner: CliRunner, tmp_path: Path) -> None:
    doc = yaml.safe_load(_broken("illegal custom design"))
    doc["meks"][0]["design"] = "NOSUCHMEK"
    doc["pilots"][0].update(level="Regular", scenarios=1, skills=["Laser Eyes"])
    doc["pilots"].append({**doc["pilots"][0], "id": 2, "name": "Bo", "skills": []})
    doc["campaigns"] = [_campaign(position=3, scenario="moon-landing"),
                        {**_campaign(), "id": 2, "name": "Second"}]
    path = tmp_path / "roster.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path))
    assert code == 2 and "Traceback" not in err
    for problem in ("'NOSUCHMEK'", "'Laser Sword'", "'Laser Eyes'", "already flies",
                    "plan has 1 scenario", "2 campaigns are under way"):
        assert problem in err, problem
    assert "'moon-landing'" not in err  # past the campaign's position: never played again
    assert "has 6 problems" in err
    assert companies(runner) == []


def test_skills_as_the_game_writes_them_are_accepted(runner: CliRunner, tmp_path: Path
                                                     ) -> None:
    doc = yaml.safe_load(_broken(""))
    doc["pilots"][0].update(level="Regular", scenarios=2,
                            skills=["Accuracy", "Chassis Familiarity (Light)"])
    doc["campaigns"] = [_campaign(), {**_campaign(position=1), "id": 2, "status": "finished"}]
    path = tmp_path / "roster.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path))
    assert code == 0, err
    assert run(runner, "campaign", "status", "Broken")[0] == 0


def test_a_stock_mek_at_its_computed_price_is_accepted(runner: CliRunner, catalog: Catalog,
                                                      tmp_path: Path) -> None:
    """Under the house rule ``pricing: computed`` a stock Mek is bought at the price its parts
    add up to (R1.7), so either price is a Mek's own; a Veteran with the kills and scenarios
    of one is too."""
    from meks.game.construction import check_design

    doc = yaml.safe_load(_broken(""))
    odin = catalog.design("ODIN")  # the one stock design priced otherwise than its parts
    computed = check_design(odin, catalog).price
    assert computed != odin.price
    doc["meks"][0].update(design="ODIN", size="Titan", price=computed)
    doc["pilots"][0].update(level="Veteran", kills=5, scenarios=3, skills=["Agility"])
    path = tmp_path / "roster.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path))
    assert code == 0, err


def test_the_published_schema_accepts_a_whole_campaign_and_refuses_what_the_model_does(
        runner: CliRunner, demo: Path) -> None:
    """The JSON Schema scripts get (generated from the roster's model) takes what the program
    writes after a whole campaign (battles with their logs, campaign results), and refuses,
    as the import does, unknown keys, wrong kinds, values outside their choices, missing
    keys, true for a number and numbers too large to store."""
    validator = jsonschema.Draft202012Validator(roster_json_schema())
    doc = json.loads(export(runner, "json", "D"))
    assert doc["battles"] and doc["campaigns"][0]["results"]
    validator.validate(doc)
    assert roster_io.schema_problems(doc) == []
    wrong = [yaml.safe_load(_broken(case)) for case in SCHEMA_WORDING if case]
    for part, key, value in (("pilots", "kills", True), ("meks", "price", 2**31),
                             ("battles", "seed", 2**63), ("campaigns", "seed", -1)):
        bad = copy.deepcopy(doc)
        bad[part][0][key] = value
        wrong.append(bad)
    for bad in wrong:
        assert not validator.is_valid(bad), bad
        assert roster_io.schema_problems(bad), bad


@pytest.mark.parametrize("place", [("pilots", "kills"), ("meks", "price"), ("battles", "seed"),
                                   ("campaigns", "seed"), ("musters", "budget"),
                                   ("support", "points"), ("campaigns", "treasury")],
                         ids=".".join)
def test_numbers_too_large_to_store_are_refused(runner: CliRunner, demo: Path, tmp_path: Path,
                                                place: tuple[str, str]) -> None:
    part, key = place
    doc = json.loads(export(runner, "json", "D"))
    doc[part][0][key] = 10**30
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path), "--name", "Big")
    assert code == 2 and f"{part}[0].{key}: must be at most" in err and "Traceback" not in err
    assert companies(runner) == ["D"]


def test_a_treasury_below_nothing_is_refused(runner: CliRunner, demo: Path,
                                            tmp_path: Path) -> None:
    """No command leaves a campaign's treasury under 0 (a purchase it cannot pay for is
    refused), so a roster that says so was changed by hand and is not imported."""
    doc = json.loads(export(runner, "json", "D"))
    doc["campaigns"][0]["treasury"] = -5
    path = tmp_path / "owing.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(runner, "roster", "import", str(path), "--name", "Owing")
    assert code == 2 and "campaigns[0].treasury: must be at least 0" in err
    assert companies(runner) == ["D"]


def test_the_largest_storable_numbers_are_accepted(runner: CliRunner, demo: Path,
                                                   tmp_path: Path) -> None:
    doc = json.loads(export(runner, "json", "D"))
    doc["pilots"][0]["kills"] = 2**31 - 1
    doc["battles"][0]["seed"] = doc["campaigns"][0]["seed"] = 2**63 - 1
    _import_copy(runner, tmp_path, doc, "Big")
    again = json.loads(export(runner, "json", "Big"))
    assert again["pilots"][0]["kills"] == 2**31 - 1
    assert again["battles"][0]["seed"] == again["campaigns"][0]["seed"] == 2**63 - 1
