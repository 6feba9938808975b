"""JSON shapes of catalog items and design reports, for ``--json`` output (no Rich)."""

from __future__ import annotations

from typing import Any

from meks.game.catalog import Catalog, Chassis, Design, Skill, SupportEntry, System, Weapon
from meks.game.construction import DesignReport, check_design
from meks.game.plain import plain


def chassis_json(chassis: Chassis) -> dict[str, Any]:
    data: dict[str, Any] = {**plain(chassis)}  # type: ignore[dict-item]
    data.update(price=chassis.price, slots=chassis.slots)
    return data


def system_json(system: System, catalog: Catalog | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {**plain(system)}  # type: ignore[dict-item]
    data["price_rule"] = system.price_text
    if catalog is not None:
        data["price_by_size"] = {c.size.value: system.price_for(c) for c in catalog.chassis
                                 if system.allows(c.size)}
    return data


def design_json(report: DesignReport) -> dict[str, Any]:
    design = report.design
    return {
        "name": design.name,
        "size": design.size.value,
        "price": report.purchase_price(),
        "printed_price": design.price,
        "computed_price": report.price,
        "legal": report.legal,
        "problems": [{"rule": p.rule.value, "message": p.message} for p in report.problems],
        "weapons": list(design.weapons),
        "systems": list(design.systems),
        "parts": [plain(p) for p in report.parts],
        "usage": {
            "massive_mounts": plain(report.massive),
            "huge_mounts": plain(report.huge),
            "ciws_pairs": plain(report.ciws_pairs),
            "other_small_weapons": plain(report.other_small),
            "system_slots": plain(report.slots),
        },
    }


def item_json(item: object, catalog: Catalog) -> dict[str, Any]:
    if isinstance(item, Design):
        return {"type": "design", **design_json(check_design(item, catalog))}
    if isinstance(item, Chassis):
        return {"type": "chassis", **chassis_json(item)}
    if isinstance(item, System):
        return {"type": "system", **system_json(item, catalog)}
    kind = {Weapon: "weapon", Skill: "skill", SupportEntry: "support"}[type(item)]
    return {"type": kind, **plain(item)}  # type: ignore[dict-item]
