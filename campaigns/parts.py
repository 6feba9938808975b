"""Parts between battles (docs/rules.md R3.6 to R3.8): the salvage a company recovers from
the enemy's destroyed Meks, its stockpile of parts, lost parts replaced from it or bought,
refits, paid repairs and wear. The use-cases that do these to a company's Meks are
``campaigns.workshop``'s."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlmodel import Session, select

from campaigns.errors import Refused
from campaigns.files.records import LostPart
from campaigns.files.stored import stored_json
from db.models import Mek, StockPart
from meks.engine.units import PilotSpec, UnitSpec
from meks.game.catalog import Catalog, Design, Size, load_catalog
from meks.game.errors import UnknownName, nearest_hint
from meks.game.vocabulary import Salvage

# Our decisions (docs/rules.md R3.7, R3.8)
REPAIR_PRICE = 1  # points for each Hit mended under 'repair: paid'
WEAR_PER_HEAT = 3  # battles that take one point off a Mek's heat rating (house rule wear)
OVERHAUL_SHARE = 2  # an overhaul costs the Mek's price divided by this, rounded up

WEAPON, SYSTEM = "weapon", "system"


@dataclass(frozen=True, order=True)
class Part:
    """A weapon or a system, by its catalog name."""

    kind: str  # weapon | system
    name: str

    def data(self) -> LostPart:
        return {"kind": self.kind, "part": self.name}

    @classmethod
    def from_data(cls, data: LostPart) -> Part:
        return cls(data["kind"], data["part"])


def named_part(name: str, catalog: Catalog) -> Part:
    """The part ``name`` names, a weapon or a system (any spelling the catalog knows)."""
    try:
        return Part(WEAPON, catalog.weapon(name).name)
    except UnknownName:
        pass
    try:
        return Part(SYSTEM, catalog.system(name).name)
    except UnknownName:
        every = [w.name for w in catalog.weapons] + [s.name for s in catalog.systems]
        raise Refused(f"No weapon or system is called {name!r}{nearest_hint(name, every)}; "
                      "see 'meks catalog weapons' and 'meks catalog systems'.") from None


def counted(parts: Iterable[Part]) -> str:
    """Parts as a short phrase: '2 Laser, Heat Sink'."""
    counts = Counter(parts)
    return ", ".join(f"{n} {p.name}" if n > 1 else p.name for p, n in sorted(counts.items()))


# ---- salvage (R3.6) ---------------------------------------------------------------------

def salvages(rule: Salvage, outcome: str) -> bool:
    """Whether a side with this ``outcome`` (win, loss, draw) recovers salvage under the
    house rule: the winner only, or both sides whatever the result."""
    return rule is Salvage.BOTH or (rule is Salvage.WINNER and outcome == "win")


def wreck_parts(weapons: Sequence[tuple[str, bool]], systems: Sequence[tuple[str, bool]]
                ) -> list[Part]:
    """The parts that can be recovered from one destroyed Mek: every weapon and system
    (given with whether it was destroyed) that the battle did not destroy."""
    return ([Part(WEAPON, name) for name, gone in weapons if not gone]
            + [Part(SYSTEM, name) for name, gone in systems if not gone])


# ---- the stockpile ------------------------------------------------------------------------

def _row(session: Session, company_id: int, part: Part) -> StockPart | None:
    return session.exec(select(StockPart).where(
        StockPart.company_id == company_id, StockPart.kind == part.kind,
        StockPart.part == part.name)).first()


def store_parts(session: Session, company_id: int, parts: Iterable[Part]) -> None:
    """Put ``parts`` into the company's stockpile."""
    for part, n in sorted(Counter(parts).items()):
        row = _row(session, company_id, part)
        if row is None:
            row = StockPart(company_id=company_id, kind=part.kind, part=part.name, count=0)
        row.count += n
        session.add(row)
    session.flush()


def held(session: Session, company_id: int) -> Counter[Part]:
    """How many of each part the company's stockpile holds."""
    return Counter({Part(r.kind, r.part): r.count for r in session.exec(
        select(StockPart).where(StockPart.company_id == company_id)).all()})


def take_parts(session: Session, company_id: int, parts: Iterable[Part]) -> None:
    """Take ``parts`` out of the company's stockpile (the caller has checked it holds
    them)."""
    for part, n in sorted(Counter(parts).items()):
        row = _row(session, company_id, part)
        assert row is not None and row.count >= n
        row.count -= n
        if row.count:
            session.add(row)
        else:
            session.delete(row)
    session.flush()


# ---- a Mek's parts -------------------------------------------------------------------------

def mek_design(mek: Mek, catalog: Catalog | None = None) -> Design:
    """The design a Mek was built (or last refitted) to, every part in place."""
    if mek.custom_design:
        data = stored_json(mek, "custom_design")
        return Design(data["name"], Size(data["size"]), tuple(data["weapons"]),
                      tuple(data["systems"]))
    return (catalog or load_catalog()).design(mek.design)


def lost_parts(mek: Mek) -> list[Part]:
    """The parts a Mek lost in battle and has not had replaced (R3.7)."""
    return [Part.from_data(p) for p in stored_json(mek, "lost", list)]


def fitted(design: Design, lost: Sequence[Part]) -> Design:
    """``design`` without the parts in ``lost`` (one entry taken out for each): what a Mek
    that lost them fights with."""
    weapons, systems = list(design.weapons), list(design.systems)
    for part in lost:
        kept = weapons if part.kind == WEAPON else systems
        if part.name in kept:
            kept.remove(part.name)
    return Design(design.name, design.size, tuple(weapons), tuple(systems), design.price)


def part_price(part: Part, size: Size, catalog: Catalog) -> int:
    """A part's catalog price on a Mek of ``size`` (R1.5)."""
    if part.kind == WEAPON:
        return catalog.weapon(part.name).price
    return catalog.system(part.name).price_for(catalog.for_size(size))


def heat_loss(wear: int, size: Size, catalog: Catalog | None = None) -> int:
    """The heat rating a Mek has lost to wear (R3.8): one point for every
    ``WEAR_PER_HEAT`` battles since new or overhauled, never taking its chassis Heat below
    1."""
    chassis = (catalog or load_catalog()).for_size(size)
    return min(wear // WEAR_PER_HEAT, chassis.heat - 1)


def fighting_spec(callsign: str, design: Design, lost: Sequence[Part], wear: int,
                  damage: int, pilot: PilotSpec | None, catalog: Catalog, *, points: int = 0,
                  ref: str | None = None) -> UnitSpec:
    """What a company's Mek fights as: ``design`` without the parts it lost and has not had
    replaced (R3.7), with the hits it carries and the heat rating its ``wear`` took (R3.8).
    The battle and the play sheets both build their unit from this, so the sheet prints the
    numbers the battle plays with."""
    fit = fitted(design, lost)
    return UnitSpec(callsign, fit, pilot, points=points, ref=ref, damage=damage,
                    heat_loss=heat_loss(wear, fit.size, catalog))


def overhaul_price(mek: Mek) -> int:
    return math.ceil(mek.price / OVERHAUL_SHARE)


# ---- repair, refit and overhaul (R3.7, R3.8; the use-cases are campaigns.workshop's) --------

def split_repair(lost: Sequence[Part], stock: Counter[Part]) -> tuple[list[Part], list[Part]]:
    """The lost parts the stockpile ``stock`` can replace, and those it cannot."""
    left = Counter(stock)
    used, bought = [], []
    for part in lost:
        if left[part] > 0:
            left[part] -= 1
            used.append(part)
        else:
            bought.append(part)
    return used, bought


def replace_parts(session: Session, mek: Mek, used: Sequence[Part], bought: Sequence[Part],
                  catalog: Catalog) -> int:
    """Put back a Mek's lost parts: ``used`` from the stockpile, ``bought`` at their price
    (owed at the Mek's next muster). Returns the points owed for them."""
    take_parts(session, mek.company_id, used)
    cost = sum(part_price(p, Size(mek.size), catalog) for p in bought)
    mek.owed += cost
    mek.lost = "[]"
    session.add(mek)
    session.flush()
    return cost


def repair_summary(callsign: str, used: Sequence[Part], bought: Sequence[Part],
                   cost: int) -> str:
    bits = []
    if used:
        bits.append(f"{counted(used)} from the stockpile")
    if bought:
        bits.append(f"{counted(bought)} bought for {cost} point{'s' * (cost != 1)}, owed at "
                    "its next muster")
    return f"Repaired {callsign}: " + "; ".join(bits) + "."


def design_parts(design: Design) -> list[Part]:
    return ([Part(WEAPON, w) for w in design.weapons]
            + [Part(SYSTEM, s) for s in design.systems])


__all__ = ["OVERHAUL_SHARE", "REPAIR_PRICE", "SYSTEM", "WEAPON", "WEAR_PER_HEAT", "Part",
           "counted", "design_parts", "fighting_spec", "fitted", "heat_loss", "held",
           "lost_parts", "mek_design", "named_part", "overhaul_price", "part_price",
           "repair_summary", "replace_parts", "salvages", "split_repair", "store_parts",
           "take_parts", "wreck_parts"]
