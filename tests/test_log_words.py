"""The battle log keeps each event's facts and writes its sentence only when it is read
(meks.engine.log): a battle whose controllers never read the log writes none of the
sentences logged as facts, and a log read back from storage, or written from its facts,
reads exactly as the stored text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaigns.files.scenarios import get_scenario
from meks.engine import fire
from meks.engine.controllers import Baseline
from meks.engine.core import Battle
from meks.engine.log import Event, Kind, digest, render, written
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import load_catalog
from meks.game.dice import Dice
from meks.game.vocabulary import Side

STORED = Path(__file__).parent / "fixtures" / "stored_log.json"


def _opening_shots(seed: int) -> Battle:
    """Opening Shots with the Baseline on both sides, as ``benchmarks/battles.py`` fights
    it (the stored log in the fixture is its battle of seed 8, logged before events kept
    their facts)."""
    catalog = load_catalog()
    units = []
    for name in ("VIPER", "WASP", "WASP"):
        design = catalog.design(name)
        units.append(UnitSpec(design.name, design, PilotSpec(f"{design.name} pilot", "Regular"),
                              points=design.price or 0))
    force = ForceSpec(tuple(units))
    battle = Battle(get_scenario("opening-shots"), {Side.ATTACKER: force, Side.DEFENDER: force},
                    Dice.from_seed(seed), {Side.ATTACKER: Baseline(), Side.DEFENDER: Baseline()},
                    catalog)
    battle.run()
    return battle


def test_a_battle_no_one_reads_writes_no_sentence_logged_as_facts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[object, ...]] = []
    shot_words = fire._shot_words

    def counted(*facts: object) -> str:
        calls.append(facts)
        return shot_words(*facts)  # type: ignore[arg-type]

    monkeypatch.setattr(fire, "_shot_words", counted)
    battle = _opening_shots(8)
    shots = [e for e in battle.log if e.kind in (Kind.HIT, Kind.MISS)]
    assert shots and calls == []  # shots were fired, and not one line about them written
    assert all(e.says[0] is counted for e in shots)
    # Most of the log is kept as facts, not text.
    facts = [e for e in battle.log if not isinstance(e.says, str)]
    assert len(facts) > len(battle.log) // 2
    # Reading writes each sentence then, and only the one read.
    first = shots[0].text
    assert len(calls) == 1 and first.endswith((" - hit.", " - miss."))
    render(battle.log)
    assert len(calls) == 1 + len(shots)


def test_a_stored_log_reads_as_it_was_written() -> None:
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    events = [Event.from_dict(d) for d in stored["events"]]
    assert all(isinstance(e.says, str) for e in events)  # the stored text, as it is
    assert [e.as_dict() for e in events] == stored["events"]
    fought = _opening_shots(stored["seed"])
    # The same battle fought now writes, from its facts, the very text stored before.
    assert [e.as_dict() for e in fought.log] == stored["events"]
    assert [e.text for e in fought.log] == [d["text"] for d in stored["events"]]
    assert render(fought.log, rolls=True) == render(events, rolls=True)
    assert digest(fought.log) == digest(events)


def test_an_event_written_from_facts_reads_as_its_text() -> None:
    def words(name: str, hits: int) -> str:
        return f"{name} takes {hits} hits."

    lazy = Event(2, Kind.DAMAGE, (words, "WASP", 3), "A2")
    plain = Event(2, Kind.DAMAGE, "WASP takes 3 hits.", "A2")
    assert lazy.text == plain.text == written(lazy.says) == "WASP takes 3 hits."
    assert lazy.as_dict() == plain.as_dict()
    assert Event.from_dict(lazy.as_dict()) == plain
    assert render([lazy]) == render([plain]) == ["  WASP takes 3 hits."]
