"""The scenario file model lives in the files layer (issue 14, item 2): ``meks`` keeps the
game's vocabulary as plain types and never imports pydantic; ``campaigns.files.scenario_model``
checks a file, converts it to those types, and writes and reads the stored form of a
scenario exactly as it was stored before the move, so existing databases and backups load
and their battles replay as they were fought."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from campaigns.files import scenario_model, victory_model
from campaigns.files.scenario_model import (
    parse_condition,
    parse_scenario,
    scenario_data,
    stored_scenario,
)
from campaigns.files.scenarios import get_scenario, read_scenario_file
from meks.game import conditions
from meks.game import scenario as game
from meks.game.scenario_checks import ScenarioInvalid
from meks.game.vocabulary import KEY, Edge, Side

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# Every shipped scenario and a file using every part of the format, each in the form the
# scenario model stored it before it moved out of meks (model_dump(mode="json",
# by_alias=True)): what existing databases and backups hold.
STORED = json.loads((FIXTURES / "stored_scenarios.json").read_text(encoding="utf-8"))
EVERY_PART = FIXTURES / "scenario_every_part.yaml"


def _scenario(scenario_id: str) -> game.Scenario:
    return read_scenario_file(EVERY_PART) if scenario_id == "every-part" \
        else get_scenario(scenario_id)


# ---- meks stays free of the file model ---------------------------------------------------

def test_the_game_and_its_engine_do_not_import_pydantic() -> None:
    """Importing every module of meks (the engine, victory, duels, odds, the scenario
    vocabulary) and building and checking a scenario there loads no pydantic."""
    snippet = (
        "import importlib, pkgutil, sys\n"
        "import meks, meks.engine.core, meks.game.victory, meks.analysis.duel\n"
        "import meks.analysis.odds, meks.game.scenario\n"
        "for info in pkgutil.walk_packages(meks.__path__, 'meks.'):\n"
        "    importlib.import_module(info.name)\n"
        "scenario = meks.analysis.duel.duel_scenario('Woods')\n"
        "assert meks.game.scenario_checks.semantic_problems(scenario) == []\n"
        "print('@@', sorted(m for m in sys.modules if m.split('.')[0].startswith('pydantic')))"
    )
    proc = subprocess.run([sys.executable, "-c", snippet], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=True, stdin=subprocess.DEVNULL)
    assert proc.stdout.strip().endswith("@@ []"), proc.stdout[-2000:]


def test_file_models_and_game_types_have_the_same_fields() -> None:
    """Each model of the file has a plain type of the same name in meks with the same
    fields in the same order (a condition's 'type' is its tag), and the same file keys."""
    models = [m for module in (scenario_model, victory_model) for m in vars(module).values()
              if isinstance(m, type) and issubclass(m, BaseModel)
              and m.__module__ == module.__name__ and not m.__name__.startswith("_")]
    assert len(models) == 22
    for model in models:
        plain = getattr(game, model.__name__, None) or getattr(conditions, model.__name__)
        fields = [f for f in dataclasses.fields(plain)
                  if f.metadata.get(KEY, f.name) is not None]
        assert [f.name for f in fields] == [n for n in model.model_fields if n != "type"], \
            model.__name__
        assert [f.metadata.get(KEY, f.name) for f in fields] == \
            [i.alias or n for n, i in model.model_fields.items() if n != "type"]
        if "type" in model.model_fields:
            assert plain.tag == model.tag


def test_a_duel_built_in_meks_is_the_duel_a_file_describes() -> None:
    """meks builds its duels as plain values; they equal the same duel read from data,
    terrain spelled the catalog's way."""
    assert game.duel("forest", zone=4, turn_limit=9) == parse_scenario({
        "id": "duel", "name": "Duel", "turn_limit": 9,
        "terrain": dict.fromkeys(range(1, 10), "Woods"),
        "attacker": {"setup": {"zones": [4]}}, "defender": {"setup": {"zones": [4]}},
        "victory": {"attacker": {"type": "last_standing", "side": "attacker"},
                    "defender": {"type": "last_standing", "side": "defender"}}})


# ---- the stored form ---------------------------------------------------------------------

@pytest.mark.parametrize("scenario_id", sorted(STORED))
def test_stored_form_is_unchanged(scenario_id: str) -> None:
    """A scenario read today is stored exactly as before the model moved (same keys in the
    same order, same values), and what was stored then reads back to the same scenario."""
    stored = STORED[scenario_id]
    scenario = _scenario(scenario_id)
    assert json.dumps(scenario_data(scenario)) == json.dumps(stored)
    again = stored_scenario(stored)
    assert again == scenario
    assert json.dumps(scenario_data(again)) == json.dumps(stored)


def test_every_part_reads_as_before() -> None:
    """The file using every part of the format: its defaults, assumptions and descriptions."""
    scenario = read_scenario_file(EVERY_PART)
    assert scenario.assumptions == ("attacker.exits", "victory.attacker.any[2].all[1].not",
                                    "victory.attacker.any[0].type", "defender.support_rolls")
    assert scenario.terrain_of(2) == "Woods" and scenario.terrain_of(3) == "Urban"
    assert scenario.side(Side.ATTACKER).exits[1].edge is Edge.EAST
    assert scenario.side(Side.DEFENDER).reinforcements is not None
    assert scenario.side(Side.DEFENDER).reinforcements.schedule == {3: 4, 5: "all"}
    assert len(scenario.house_rules.changed()) == 5
    top = scenario.victory.attacker
    assert top is not None and top.describe().startswith(
        "at least 25.5% of the attacker's Meks have left the map across the north edge")
    # a stored scenario keeps no record of which values its file left out
    assert stored_scenario(scenario_data(scenario)).defaulted == ()


def test_a_bad_assumed_entry_is_refused_with_the_nearest_path() -> None:
    """``assumed`` entries are checked on the plain types: 'type' and 'not' are keys of a
    condition, and a near miss is named."""
    data = yaml.safe_load(EVERY_PART.read_text(encoding="utf-8"))
    data["assumed"] = ["attacker.exits", "victory.attacker.any[2].all[1].negated.zone",
                       "attacker.suport_rolls"]
    with pytest.raises(ScenarioInvalid) as caught:
        parse_scenario(data)
    assert [(p.where, p.message) for p in caught.value.found] == [
        ("assumed[2]", "'attacker.suport_rolls' names no value in this scenario "
                       "(did you mean 'attacker.support_rolls'?)")]


# ---- any valid scenario: the plain form stores as the file model dumps -------------------

SIDES = st.sampled_from(["attacker", "defender"])
EDGE_ZONES = {"north": [1, 2, 3], "south": [7, 8, 9], "west": [1, 4, 7], "east": [3, 6, 9]}
KINDS = st.sampled_from([None, "mek", "vehicle", "infantry"])


def _some(**fields: Any) -> st.SearchStrategy[dict[str, Any]]:
    """A mapping with each field either left out or drawn (None strategies: left out)."""
    return st.fixed_dictionaries({}, optional=fields).map(
        lambda d: {k: v for k, v in d.items() if v is not None})


def _exit() -> st.SearchStrategy[dict[str, Any]]:
    def build(edge: str, amount: dict[str, Any], extra: dict[str, Any],
              zones: list[int]) -> dict[str, Any]:
        return {"type": "exit", "edge": edge, **amount, **extra,
                **({"from_zones": zones} if zones else {})}
    edges = st.sampled_from(sorted(EDGE_ZONES))
    return edges.flatmap(lambda edge: st.builds(
        build, st.just(edge),
        st.one_of(st.fixed_dictionaries({"percent": st.integers(1, 100)
                                         | st.floats(0.5, 100, allow_nan=False)}),
                  st.fixed_dictionaries({"count": st.integers(1, 2)})),
        _some(kind=KINDS, of=st.sampled_from(["units", "points"])),
        st.lists(st.sampled_from(EDGE_ZONES[edge]), unique=True, max_size=2)))


LEAVES = st.one_of(
    st.builds(lambda z, t: {"type": "occupy", **({"zone": z} if z else
                                                 {"zone_of_group": "main"}), **t},
              st.integers(0, 9), _some(side=SIDES)),
    st.builds(lambda z, n: {"type": "hold", "zone": z, "turns": n}, st.integers(1, 9),
              st.integers(1, 20)),
    st.builds(lambda z: {"type": "never_occupied", "zone": z}, st.integers(1, 9)),
    st.builds(lambda d: {"type": "destroy_all", **d},
              _some(kind=KINDS, group=st.sampled_from(["main"]))),
    _exit(),
    st.builds(lambda d: {"type": "keep_units", **d},
              _some(count=st.integers(1, 5), kind=KINDS)),
    st.builds(lambda d: {"type": "last_standing", **d}, _some(kind=KINDS)),
    st.builds(lambda z, t: {"type": "in_zone", "zone": z, "at_turn": t},
              st.integers(1, 9), st.integers(1, 20)),
    st.just({"type": "turn_limit"}),
)


def _with_side(condition: dict[str, Any], side: str) -> dict[str, Any]:
    if condition.get("type") in (None, "turn_limit"):
        return condition
    return {**condition, "side": condition.get("side", side)}


def _tree(side: str) -> st.SearchStrategy[dict[str, Any]]:
    leaves = LEAVES.map(lambda c: _with_side(c, side))
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda cs: {"all": cs}),
        st.lists(inner, min_size=1, max_size=3).map(lambda cs: {"any": cs}),
        inner.map(lambda c: {"not": c}),
    ), max_leaves=6)


def _side(zones: list[int]) -> st.SearchStrategy[dict[str, Any]]:
    rule = st.builds(lambda amount, extra: {"zones": zones, "group": "main",
                                            "same_zone": True, **amount, **extra},
                     st.one_of(st.fixed_dictionaries({"at_least": st.integers(1, 3)}),
                               st.fixed_dictionaries({"percent": st.integers(1, 60)})),
                     _some(of=st.sampled_from(["units", "points"]), kind=KINDS))
    return st.builds(
        lambda extra, rules: {"setup": {"zones": zones, "rules": [rules]},
                              "exits": [{"edge": e} for e in EDGE_ZONES], **extra},
        _some(budget=st.integers(40, 200), support_rolls=st.integers(0, 3),
              max_size=st.sampled_from(["Heavy", "assault"]),
              pilots=st.sampled_from([{"Green": 1}, {"veteran": 2}])),
        rule)


SCENARIOS = st.builds(
    lambda a, d, va, vd, extra: {"id": "drawn", "name": "Drawn", "attacker": a, "defender": d,
                                 "victory": {"attacker": va, "defender": vd}, **extra},
    _side([7, 8, 9]), _side([1, 2, 3]), _tree("attacker"), _tree("defender"),
    _some(turn_limit=st.integers(20, 100),
          house_rules=_some(pricing=st.sampled_from(["printed", "Computed"]),
                            diagonal_moves=st.booleans(), repair=st.just("none")),
          terrain=st.just({z: "forest" for z in range(1, 10)}),
          briefing=st.text(max_size=20)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCENARIOS)
def test_any_scenario_stores_as_the_file_model_dumps_it(data: dict[str, Any]) -> None:
    """For any valid scenario, the stored form written from the plain types is the file
    model's own dump, key for key and in order, and reads back to an equal scenario."""
    try:
        scenario = parse_scenario(data)
    except ScenarioInvalid:  # a drawn condition the scenario cannot meet
        return
    dumped = scenario_model.Scenario.model_validate(data).model_dump(mode="json",
                                                                     by_alias=True)
    if "turn_limit" not in data:  # R7.1's turn limit is the game's rule, not the model's
        dumped["turn_limit"] = scenario.victory.needed_turns()
    assert json.dumps(scenario_data(scenario)) == json.dumps(dumped)
    assert stored_scenario(dumped) == scenario
    for side in Side:
        top = scenario.victory.condition(side)
        assert top is not None
        assert parse_condition(data["victory"][side.value]) == top


def test_many_unknown_keys_are_counted_not_each_worded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14, item 2: a scenario with 20,000 unknown keys words only the problems a
    message lists (and one more), each with its spelling hint; the rest are counted, and the
    '... and N more' line still says how many there truly are."""
    from campaigns.files import model_errors
    from meks.game.errors import MAX_LISTED

    calls = []
    convert = model_errors.from_pydantic

    def counted(error: Any, data: object, words: model_errors.Vocabulary) -> Any:
        calls.append(error)
        return convert(error, data, words)

    monkeypatch.setattr(model_errors, "from_pydantic", counted)
    data = {"id": "many-keys", "name": "Many keys", **{f"key{i}": 1 for i in range(20_000)}}
    with pytest.raises(ScenarioInvalid) as caught:
        parse_scenario(data, "many.yaml")
    assert len(calls) == MAX_LISTED + 1
    # 20,000 unknown keys and the three required keys left out (attacker, defender, victory)
    lines = caught.value.message.splitlines()
    assert lines[0] == "many.yaml has 20003 problems:"
    assert len(lines) == 1 + MAX_LISTED + 1
    assert lines[-1].startswith(f"  - ... and {20_003 - MAX_LISTED} more problems")


def test_few_problems_are_all_worded() -> None:
    """Below the listed limit nothing is only counted: every problem is in the message."""
    with pytest.raises(ScenarioInvalid) as caught:
        parse_scenario({"id": "few", "name": "Few", "atacker": {}}, "few.yaml")
    assert caught.value.unlisted == 0
    assert "unknown key 'atacker' (did you mean 'attacker'?)" in caught.value.message
    assert "more problem" not in caught.value.message


def test_the_rules_digest_moves_with_the_rules_not_the_wording() -> None:
    """What odds curves are checked against: Citadel with another victory (an attacker in
    the city at the end takes it) or one more turn has another digest; reworded (name and
    briefing), it keeps its own."""
    from campaigns.files.scenario_model import rules_digest

    today = _scenario("citadel")
    data = scenario_data(today)
    data["victory"]["defender"] = {"all": [{"type": "turn_limit"}, {
        "type": "occupy", "side": "defender", "zone": 5}]}
    assert rules_digest(stored_scenario(data)) != rules_digest(today)
    assert rules_digest(dataclasses.replace(today, turn_limit=7)) != rules_digest(today)
    reworded = dataclasses.replace(today, name="The Keep", briefing="Other words.")
    assert rules_digest(reworded) == rules_digest(today)
