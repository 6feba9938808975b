"""Parts between battles (docs/rules.md R3.6 to R3.8): the salvage a company recovers from
the enemy's destroyed Meks, its stockpile of parts, lost parts replaced from it or bought,
refits, paid repairs and wear."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlmodel import Session, select

from campaigns.errors import Refused
from db.models import StockPart
from meks.catalog import Catalog
from meks.errors import UnknownName
from meks.scenario import Salvage

WEAPON, SYSTEM = "weapon", "system"


@dataclass(frozen=True, order=True)
class Part:
    """A weapon or a system, by its catalog name."""

    kind: str  # weapon | system
    name: str

    def data(self) -> dict[str, str]:
        return {"kind": self.kind, "part": self.name}

    @classmethod
    def from_data(cls, data: dict[str, str]) -> Part:
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
        raise Refused(f"No weapon or system is called {name!r}; see 'meks catalog weapons' "
                      "and 'meks catalog systems'.") from None


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


__all__ = ["SYSTEM", "WEAPON", "Part", "counted", "held", "named_part", "salvages",
           "store_parts", "take_parts", "wreck_parts"]
