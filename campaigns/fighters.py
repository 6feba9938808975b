"""Who fights a battle, in terms that cross a process boundary: the controllers by name, and a
force as plain data. Nothing here touches the store, so that the odds' worker processes
start without loading it."""

from __future__ import annotations

from campaigns.errors import Refused
from campaigns.files.battle_records import StoredForce, UnitWear
from meks.engine.bot.choices import Difficulty
from meks.engine.bot.policy import Bot
from meks.engine.controllers import Baseline, Controller
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import Design, Size
from meks.game.vocabulary import Side

CONTROLLERS: dict[str, type[Baseline]] = {"bot": Bot, "baseline": Baseline}
DEFAULT_CONTROLLER = "bot"
"""The controller the tool commands its sides with unless told otherwise: the same in
``battle auto``, ``battle play`` (the other side, and the play screen's suggestions),
``meks odds`` and campaigns, so that the odds predict the battles a player fights."""


def controller(name: str, difficulty: Difficulty | None = None) -> Controller:
    """A new controller by name; the bot at ``difficulty`` when one is given (a campaign's)."""
    try:
        kind = CONTROLLERS[name]
    except KeyError:
        raise Refused(f"No controller is called {name!r}; choose from "
                      f"{', '.join(CONTROLLERS)}.") from None
    if kind is Bot and difficulty is not None:
        return Bot(difficulty)
    return kind()


def both(name: str = DEFAULT_CONTROLLER) -> dict[Side, str]:
    """The same controller on both sides."""
    return {side: name for side in Side}


# ---- forces as plain data ------------------------------------------------------------------

def _wear(u: UnitSpec) -> UnitWear:
    return {"heat_loss": u.heat_loss} if u.heat_loss else {}


def force_to_data(force: ForceSpec) -> StoredForce:
    return {"name": force.name, "support": list(force.support), "units": [
        {"name": u.name, "points": u.points, "ref": u.ref, "support": u.support,
         "damage": u.damage, **_wear(u),
         "design": None if u.design is None else {
             "name": u.design.name, "size": u.design.size.value,
             "weapons": list(u.design.weapons), "systems": list(u.design.systems),
             "price": u.design.price},
         "pilot": None if u.pilot is None else {
             "name": u.pilot.name, "level": u.pilot.level, "skills": list(u.pilot.skills)}}
        for u in force.units]}


def force_from_data(data: StoredForce) -> ForceSpec:
    units = []
    for u in data["units"]:
        d = u["design"]
        design = None if d is None else Design(d["name"], Size(d["size"]), tuple(d["weapons"]),
                                               tuple(d["systems"]), d.get("price"))
        p = u["pilot"]
        pilot = None if p is None else PilotSpec(p["name"], p["level"], tuple(p["skills"]))
        units.append(UnitSpec(u["name"], design, pilot, u.get("support"), u["points"],
                              u.get("ref"), u.get("damage", 0), u.get("heat_loss", 0)))
    return ForceSpec(tuple(units), tuple(data["support"]), data.get("name", ""))


__all__ = ["CONTROLLERS", "DEFAULT_CONTROLLER", "both", "controller", "force_from_data",
           "force_to_data"]
