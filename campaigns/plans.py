"""A campaign's plan: the scenarios it plays, in order, with the company's side in each.

The built-in plans are the six scenarios of the rules, as printed (``PRINTED_PLAN``) or each
seat a contest (``BUILT_IN_PLAN``, docs/rules.md); a player's own is a plan file.

A plan file (YAML)::

    name: The Border War
    difficulty: normal            # easy, normal or hard (the enemy's musters)
    house_rules: {salvage: winner}  # house rules for every scenario, over their own
    scenarios:
      - {scenario: opening-shots, side: attacker}
      - {scenario: head-to-head, side: defender}
      - {scenario: river.yaml, side: attacker}   # a file in the plan's own folder

A scenario named by its file is copied into the campaign when it starts, so the campaign
plays that file as it was then, wherever the file goes later; one named by its id is looked
up when its turn comes. A plan names only files inside its own folder (``river.yaml``,
``maps/river.yaml``): an absolute path, ``~``, ``..`` leading out of the folder, or a link
pointing out of it is refused without the file being read.
"""

from __future__ import annotations

import dataclasses
import enum
import os
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from campaigns.company import Refused, file_name
from campaigns.files.model_errors import HAND_WRITTEN, checked
from campaigns.files.reading import PLAN, LineIndex, is_file, read_yaml_lines, resolved
from campaigns.files.records import HouseRulesRecord, PlannedStep
from campaigns.files.scenario_model import HouseRules as HouseRulesModel
from campaigns.files.scenario_model import house_rules_problems, scenario_data, stored_scenario
from campaigns.files.scenarios import (
    Origin,
    ScenarioEntry,
    file_entry,
    find_scenario,
    looks_like_path,
    user_scenarios_dir,
)
from campaigns.files.stored import DamagedRecord
from meks.engine.bot.choices import DIFFICULTIES
from meks.game.errors import InputError, MeksError, dotted, problem
from meks.game.scenario import Scenario
from meks.game.scenario_checks import house_rule_problems

# The six scenarios of the rules as printed, with the side the company takes in each.
PRINTED_PLAN = (
    ("opening-shots", "attacker"),
    ("at-the-hot-gates", "attacker"),
    ("buying-us-some-time", "defender"),
    ("through-the-breach", "attacker"),
    ("head-to-head", "attacker"),
    ("citadel", "defender"),
)
PRINTED_NAME = "The six scenarios of the rules, as printed"
# The built-in campaign: the same six, each seat a contest. Where a printed scenario leaves
# one side nearly always winning, bot against bot, the campaign plays a copy with the fewest
# changes that make both seats a contest (campaigns/files/scenarios/campaign; docs/rules.md, "The
# built-in campaign's scenarios").
BUILT_IN_PLAN = (
    ("opening-shots-campaign", "attacker"),
    ("at-the-hot-gates-campaign", "attacker"),
    ("buying-us-some-time-campaign", "defender"),
    ("through-the-breach-campaign", "attacker"),
    ("head-to-head", "attacker"),
    ("citadel-campaign", "defender"),
)
BUILT_IN_NAME = "The six scenarios of the rules"
# The house rules the built-in campaign sets over its scenarios' own (docs/rules.md, "The
# treasury"); the printed plan sets none.
BUILT_IN_HOUSE_RULES: HouseRulesRecord = {"treasury": True}


class PlanStep(BaseModel):
    model_config = HAND_WRITTEN  # a scenario of a plan file, and the company's side

    scenario: str
    side: str


class PlanFile(BaseModel):
    """A campaign plan file: its scenarios; optionally its name, difficulty, house rules."""

    model_config = HAND_WRITTEN

    scenarios: tuple[PlanStep, ...]
    name: str = ""
    difficulty: str = "normal"
    house_rules: dict[str, Any] = {}  # as written, any key: checked by plan_house_rules


def load_plan(path: Path) -> tuple[str, list[PlannedStep], str]:
    """A plan file's name, steps and difficulty; every scenario is checked to exist. A
    scenario given as a file (its place inside the plan's folder: see ``plan_scenario``)
    is copied into its step as ``definition``."""
    parsed, lines = read_yaml_lines(path, PLAN)

    def at(what: str, *where: str | int) -> str:  # a problem with its line and place
        return problem(what, lines.line_of(where), dotted(where))

    data = checked(PlanFile, parsed, str(path), lines)
    problems = []
    steps: list[PlannedStep] = []
    if not data.scenarios:
        problems.append(at("lists no scenario", "scenarios"))
    difficulty = data.difficulty.strip().lower()
    if difficulty not in DIFFICULTIES:
        problems.append(at(f"must be one of {', '.join(DIFFICULTIES)}", "difficulty"))
    house, wrong = plan_house_rules(data.house_rules, lines)
    problems += wrong
    for i, step in enumerate(data.scenarios):
        if step.side not in ("attacker", "defender"):
            problems.append(at("must be attacker or defender", "scenarios", i, "side"))
        try:
            entry = plan_scenario(path, step.scenario)
            assert entry.scenario is not None
            scenario = entry.scenario
            if entry.origin is Origin.FILE:
                steps.append({"scenario": scenario.id, "side": step.side,
                              "file": entry.file, "definition": scenario_data(scenario)})
            else:
                steps.append({"scenario": scenario.id, "side": step.side})
            if house:
                steps[-1]["house_rules"] = house
                problems += [at(f"{scenario.id}, with the plan's house rules: {p.message}",
                                "scenarios", i) for p in house_rule_problems(
                                    with_house_rules(scenario, house).house_rules)]
        except InputError:
            raise
        except MeksError as exc:  # an unknown scenario: name it with the step
            problems.append(at(exc.message, "scenarios", i, "scenario"))
    if problems:
        raise InputError(str(path), problems)
    return file_name(data.name, "campaign name", path, "name") or path.stem, steps, difficulty


def plan_house_rules(given: dict[str, Any],
                     lines: LineIndex | None = None) -> tuple[HouseRulesRecord, list[str]]:
    """The house rules a plan sets for all its scenarios, as stored data (only those it
    names), and what is wrong with them (at their lines in ``lines``, the plan file's);
    ``given`` is as the file wrote it, unchecked."""
    if not given:
        return {}, []
    problems = house_rules_problems(given, lines=lines)
    if problems:
        return {}, problems
    model = HouseRulesModel.model_validate(given)
    return cast(HouseRulesRecord, {name: _plain(getattr(model, name)) for name in given}), []


def _plain(value: object) -> object:
    return value.value if isinstance(value, enum.Enum) else value


def with_house_rules(scenario: Scenario, house: HouseRulesRecord) -> Scenario:
    """``scenario`` with the house rules a campaign plan sets over its own."""
    if not house:
        return scenario
    model = HouseRulesModel.model_validate(house)
    return dataclasses.replace(scenario, house_rules=dataclasses.replace(
        scenario.house_rules, **{name: getattr(model, name) for name in house}))


def plan_scenario(plan: Path, ref: str) -> ScenarioEntry:
    """The scenario a plan names: by id (or name), or by a file inside the plan's own
    folder. A file anywhere else (an absolute path, '~', '..' leading out, a link pointing
    out) is refused before it is read, so that a plan never makes meks read another file
    and show its lines in an error."""
    if not looks_like_path(ref):
        return find_scenario(ref, files=False)
    folder = plan.expanduser().absolute().parent
    file = folder / ref
    if ref.startswith("~") or Path(ref).is_absolute() or not resolved(file).is_relative_to(
            resolved(folder)):
        raise MeksError(f"{ref!r} is not a file inside the plan's folder ({folder}); a plan "
                        "names its scenario files by their place in its own folder, such as "
                        "'river.yaml', and other scenarios by id")
    if os.path.isdir(file):
        raise MeksError(f"{ref!r} in the plan's folder ({folder}) is a folder, not a scenario "
                        "file; name a scenario file, such as 'river.yaml'")
    if not is_file(file):
        raise MeksError(f"there is no scenario file {ref!r} in the plan's folder ({folder})")
    return file_entry(file)


def step_scenario(step: PlannedStep) -> Scenario:
    """The scenario of a campaign step (its copy when the plan named a file, else the
    scenario with its id now), under the house rules the plan sets."""
    try:
        return with_house_rules(_step_scenario(step), step.get("house_rules") or {})
    except ValidationError:
        raise DamagedRecord("the campaign plan's house rules") from None


def _step_scenario(step: PlannedStep) -> Scenario:
    if "definition" in step:
        try:
            return stored_scenario(step["definition"])
        except (KeyError, TypeError, ValueError):  # pydantic's ValidationError among them
            raise DamagedRecord(f"the campaign plan's copy of {step.get('file', 'a scenario')}"
                                ) from None
    try:  # an id, never a file: the plan copied its files in when the campaign began
        entry = find_scenario(step["scenario"], files=False)
        assert entry.scenario is not None
        return entry.scenario
    except InputError:
        raise
    except MeksError as exc:
        raise Refused(f"The campaign's next scenario can't be found ({exc.message}); put its "
                      f"file back in your scenarios folder ({user_scenarios_dir()}) to go on."
                      ) from None


def keeps_treasury(steps: list[PlannedStep]) -> bool:
    """Whether a campaign of these steps keeps a treasury: the house rule treasury is on
    in one of its scenarios (the plan's house rules over their own)."""
    return any(step_scenario(step).house_rules.treasury for step in steps)
