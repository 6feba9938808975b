"""Forces for battles: from a force file (YAML) or from a company's last muster.

A force file lists Meks with their pilots, so battles can be fought without a company::

    name: Red Lance                 # optional
    meks:
      - design: DRAKEN              # a stock design, or a design file (relative to this one)
        callsign: Anvil             # optional (default: the design's name)
        pilot: Vera                 # optional pilot name
        level: Veteran              # Green, Regular (default), Veteran or Elite
        skills: [Accuracy]          # optional
    support: [Ambush, Gun Sled]     # optional support results for the battle
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel
from sqlmodel import Session, col, select

from campaigns.company import Refused, file_name, get_company, shell_arg
from campaigns.files.designs import load_design_file
from campaigns.files.model_errors import HAND_WRITTEN, checked
from campaigns.files.reading import FORCE, read_yaml_lines
from campaigns.files.stored import reading, stored_force, stored_json
from campaigns.parts import fighting_spec, lost_parts, mek_design
from db.models import Company, Mek, MekStatus, Muster, Pilot, PilotStatus, SupportRoll, fold
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import Catalog, Design, Level, Size, load_catalog
from meks.game.construction import check_design
from meks.game.errors import InputError, MeksError
from meks.game.pilots import base_skill, held_skill_problems


class ForceMek(BaseModel):
    """One Mek of a force file."""

    model_config = HAND_WRITTEN

    design: str
    callsign: str | None = None
    pilot: str | None = None
    level: str = "Regular"
    skills: tuple[str, ...] = ()


class ForceFile(BaseModel):
    """A force file: its Meks, and optionally its name and support results."""

    model_config = HAND_WRITTEN

    meks: tuple[ForceMek, ...]
    name: str = ""
    support: tuple[str, ...] = ()


def load_force_file(path: Path, catalog: Catalog | None = None) -> ForceSpec:
    """The force in a YAML force file. Unreadable: ``InputError`` (exit 2); a design that
    breaks the construction rules, or an unknown name: refused (exit 1)."""
    catalog = catalog or load_catalog()
    parsed, lines = read_yaml_lines(path, FORCE)
    data = checked(ForceFile, parsed, str(path), lines)
    if not data.meks:
        raise InputError(str(path), ["'meks' lists no Meks"])
    units = []
    problems = []
    seen: dict[str, int] = {}
    taken: dict[str, int] = {}  # callsigns (folded) -> the Mek that has it
    flying: dict[str, int] = {}  # pilot names (folded) -> the Mek they fly
    for i, entry in enumerate(data.meks, 1):
        try:
            design = _design(entry.design, path, catalog)
            report = check_design(design, catalog)
            if not report.legal:
                problems.append(f"Mek {i} ({design.name}) breaks the construction rules: "
                                + "; ".join(p.message.rstrip(".") for p in report.problems))
                continue
            grade, skills, wrong = _pilot(entry, catalog)  # every problem of the pilot's
            problems += [f"Mek {i}: {p}" for p in wrong]
            seen[design.name] = seen.get(design.name, 0) + 1
            name = file_name(entry.callsign, "callsign", path, f"meks[{i - 1}].callsign")
            if not name:  # the next callsign of its design's that no Mek before it has
                name = f"{design.name}-{seen[design.name]}"
                while fold(name) in taken:
                    seen[design.name] += 1
                    name = f"{design.name}-{seen[design.name]}"
            pilot = file_name(entry.pilot, "pilot name", path, f"meks[{i - 1}].pilot") \
                or f"{name} pilot"
            if fold(name) in taken:
                problems.append(f"Mek {i}: the callsign {name!r} is already Mek "
                                f"{taken[fold(name)]}'s; give each Mek its own.")
                continue
            taken[fold(name)] = i
            if fold(pilot) in flying:
                problems.append(f"Mek {i}: its pilot {pilot!r} already flies Mek "
                                f"{flying[fold(pilot)]}; a pilot flies one Mek, so give each "
                                "its own.")
                continue
            flying[fold(pilot)] = i
            if grade is not None and not wrong:
                units.append(UnitSpec(name, report.design, PilotSpec(pilot, grade.level,
                                                                     skills),
                                      points=report.purchase_price()))
        except InputError:
            raise
        except MeksError as exc:
            problems.append(f"Mek {i}: {exc.message}")
    support = []
    for name in data.support:
        try:
            support.append(catalog.support_entry(name).name)
        except MeksError as exc:
            problems.append(exc.message)
    if problems:
        raise Refused(f"The force in {path} cannot fight: " + " ".join(problems))
    return ForceSpec(tuple(units), tuple(support),
                     file_name(data.name, "force name", path, "name") or path.stem)



def _design(ref: str, base: Path, catalog: Catalog) -> Design:
    if ref.lower().endswith((".yaml", ".yml")):
        file = Path(ref) if Path(ref).is_absolute() else base.parent / ref
        return load_design_file(file)
    return catalog.design(ref)


def _pilot(entry: ForceMek, catalog: Catalog) -> tuple[Level | None, tuple[str, ...],
                                                        list[str]]:
    """The level and skills of ``entry``'s pilot, and every problem with them: an unknown
    level, each unknown skill and what the rules say against the skills held."""
    problems = []
    grade = None
    try:
        grade = catalog.level(entry.level)
    except MeksError as exc:
        problems.append(exc.message)
    skills = []
    for label in entry.skills:
        try:
            skills.append(_skill_label(label, catalog))
        except MeksError as exc:
            problems.append(exc.message)
    if grade is not None:
        problems += held_skill_problems(grade, skills)
    return grade, tuple(skills), problems


def _skill_label(label: str, catalog: Catalog) -> str:
    name = catalog.skill(base_skill(label)).name
    if "(" in label:
        given = label.split("(", 1)[1].rstrip(")").strip()
        size = next((s for s in Size if s.value.lower() == given.lower()), None)
        if size is None:
            raise MeksError(f"{label!r} names no Mek size; write it like "
                            f"'{name} (Medium)', with one of "
                            f"{', '.join(s.value for s in Size)}.")
        return f"{name} ({size.value})"
    return name


def muster_force(session: Session, company_name: str, scenario_id: str,
                 catalog: Catalog | None = None) -> tuple[Company, Muster, ForceSpec]:
    """The force a company last mustered for ``scenario_id`` and has not fought with yet."""
    catalog = catalog or load_catalog()
    company = get_company(session, company_name)
    muster = session.exec(select(Muster).where(
        Muster.company_id == company.id, Muster.scenario == scenario_id,
        col(Muster.battle_id).is_(None)).order_by(col(Muster.id).desc())).first()
    if muster is None:
        raise Refused(f"{company.name} has no force mustered for {scenario_id}; muster one "
                      f"with 'meks muster {shell_arg(company.name)} --scenario {scenario_id} "
                      "--side ...'.")
    units = []
    with reading(muster, "force"):
        for entry in stored_force(session, muster):
            mek = session.get(Mek, entry["mek"])
            pilot = session.get(Pilot, entry["pilot"])
            if (mek is None or pilot is None or mek.status != MekStatus.ACTIVE
                    or pilot.status == PilotStatus.DEAD):
                raise Refused(f"{company.name}'s muster for {scenario_id} names a Mek or pilot "
                              "that can no longer fight; muster again.")
            # A Mek fights without the parts it lost and has not had replaced (R3.7), and
            # with the heat rating its wear took (R3.8).
            skills = tuple(stored_json(pilot, "skills", list))
            units.append(fighting_spec(mek.callsign, mek_design(mek, catalog),
                                       lost_parts(mek), mek.wear, mek.damage,
                                       PilotSpec(pilot.name, pilot.level, skills), catalog,
                                       points=mek.price, ref=str(mek.id)))
    support = [s.result for s in session.exec(select(SupportRoll).where(
        SupportRoll.muster_id == muster.id)).all()]
    return company, muster, ForceSpec(tuple(units), tuple(support), company.name)
