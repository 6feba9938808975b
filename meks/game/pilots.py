"""Pilots between games (docs/rules.md section 2): levels, promotion, the new-skill roll and
the skill a pilot picks when nobody picks for it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from meks.game.catalog import Catalog, Design, Family, Level, Size
from meks.game.dice import Dice

FIRST_SKILL_TARGET = 5
FAMILIARITY = "Chassis Familiarity"


def level_for(kills: int, scenarios: int, catalog: Catalog, current: str = "Green") -> Level:
    """The level a pilot holds after a scenario (R2.1): the highest whose thresholds it meets,
    never lower than its current level (a pilot hired Regular stays Regular)."""
    rank = [lv.level for lv in catalog.levels]
    best = catalog.level(current)
    for level in catalog.levels:
        earned = kills >= level.kills and scenarios >= level.scenarios and level.scenarios > 0
        if earned and rank.index(level.level) > rank.index(best.level):
            best = level
    return best


def skill_target(skills_held: int) -> int:
    """The roll a pilot needs for a new skill (R2.3): 5+ for the first, otherwise a roll at
    least its number of skills (so the second is automatic, read literally)."""
    return FIRST_SKILL_TARGET if skills_held == 0 else skills_held


@dataclass(frozen=True)
class SkillRoll:
    die: int
    bonus: int
    target: int

    @property
    def total(self) -> int:
        return self.die + self.bonus

    @property
    def success(self) -> bool:
        return self.total >= self.target


def roll_for_skill(level: Level, skills_held: int, dice: Dice, who: str) -> SkillRoll | None:
    """The new-skill roll after a scenario (R2.3); None when the level cannot learn (Green)."""
    if not level.can_learn:
        return None
    die = dice.d6(f"new-skill roll for {who}")
    return SkillRoll(die, level.skill_roll, skill_target(skills_held))


def skill_label(name: str, size: Size | None) -> str:
    """How a held skill is written: Chassis Familiarity names its size."""
    if name == FAMILIARITY and size is not None:
        return f"{FAMILIARITY} ({size.value})"
    return name


def base_skill(label: str) -> str:
    return label.split(" (")[0]


def held_skill_problems(level: Level, held: Sequence[str]) -> list[str]:
    """What the rules say against a pilot of ``level`` holding the skills ``held`` (R2.3):
    a level that learns none (Green) holds none, and no pilot holds a skill twice (Chassis
    Familiarity once, whatever its size). Sentences to follow a pilot's name."""
    problems = []
    if held and not level.can_learn:
        problems.append(f"the pilot is {level.level} and holds {len(held)} "
                        f"skill{'s' * (len(held) != 1)}; a pilot learns none while "
                        f"{level.level}.")
    counts = Counter(base_skill(label) for label in held)
    twice = sorted(name for name, n in counts.items() if n > 1)
    if twice:
        problems.append(f"{', '.join(twice)} is held more than once; no pilot holds a skill "
                        "twice.")
    return problems


def available_skills(held: Sequence[str], catalog: Catalog) -> list[str]:
    """Skills a pilot does not hold yet (no skill twice, R2.3)."""
    have = {base_skill(h) for h in held}
    return [s.name for s in catalog.skills if s.name not in have]


def auto_skill(held: Sequence[str], design: Design | None, catalog: Catalog) -> str:
    """The skill picked for a pilot by the documented priority (R2.4, docs/rules.md):
    first the to-hit skill of the Mek's main weapon family, then Maneuver, Pinpoint Attack,
    Damage Control, the other to-hit skills, Gunnery for cannon/CIWS carriers, Quick Draw for
    Meks with a Director, Ice Man, Tactics, Sharpshooter, Agility, Chassis Familiarity,
    Spoof, Hawkeye and Log Hero."""
    options = available_skills(held, catalog)
    if not options:
        raise ValueError("the pilot already holds every skill")
    families: Counter[Family] = Counter()
    systems: set[str] = set()
    if design is not None:
        for name in design.weapons:
            weapon = catalog.ix.weapon.find(name)
            if weapon is not None and weapon.family is not Family.SMALL:
                families[weapon.family] += 1
        systems = set(design.systems)
    by_family = {Family.CANNON: "Accuracy", Family.MISSILE: "Guidance",
                 Family.LASER: "Steady Hand"}
    ranked = [by_family[f] for f, _ in families.most_common()]
    priority = [*ranked[:1], "Maneuver", "Pinpoint Attack", "Damage Control", *ranked[1:]]
    if families[Family.CANNON] or (design and "CIWS" in design.weapons):
        priority.append("Gunnery")
    if "Director" in systems:
        priority.append("Quick Draw")
    priority += ["Ice Man", "Tactics", "Sharpshooter", "Agility", FAMILIARITY, "Quick Draw",
                 "Accuracy", "Guidance", "Steady Hand", "Gunnery", "Spoof", "Hawkeye",
                 "Log Hero"]
    return next(s for s in priority if s in options)
