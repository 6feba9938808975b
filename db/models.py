"""The tables: companies, their Meks and pilots, support rolls, musters, battles and the
append-only event history.

Names that must be unique within a company (callsigns, pilot names) are stored twice: as
typed, and folded (``*_key``) for the case-insensitive unique index. Lists and documents
(skills, a custom design, a battle log, an event's snapshots) are JSON text, which every
database stores the same way.
"""

from __future__ import annotations

import enum
import unicodedata
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

E = TypeVar("E", bound=enum.StrEnum)


class MekStatus(enum.StrEnum):
    ACTIVE = "active"
    DESTROYED = "destroyed"
    SOLD = "sold"


class PilotStatus(enum.StrEnum):
    ACTIVE = "active"
    WOUNDED = "wounded"
    DEAD = "dead"


class CampaignStatus(enum.StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    BROKE = "broke"  # the treasury could not pay for a muster


class BattleMode(enum.StrEnum):
    """How a stored battle was fought."""

    TABLE = "table"  # on a real table, its result recorded
    AUTO = "auto"  # by the tool, both sides by controllers
    PLAY = "play"  # by the tool, a side played at the terminal


class PlayStatus(enum.StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"


class TextEnum(TypeDecorator[Any], Generic[E]):
    """A status column: the enum's text, as the column has always held it (plain VARCHAR,
    no database enum type, so old databases and backups load unchanged), read back as the
    enum's member."""

    impl = String
    cache_ok = True

    def __init__(self, kind: type[E]) -> None:
        super().__init__()
        self.kind = kind

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else self.kind(value).value

    def process_result_value(self, value: Any, dialect: Dialect) -> E | None:
        return None if value is None else self.kind(value)


def utcnow() -> str:
    """Now, in UTC, as ISO 8601 text (stored as text so every database keeps it alike)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def fold(name: str) -> str:
    """The form names are compared in: compatibility forms and case folded (NFKC, then
    casefold), invisible characters (controls, formatting such as zero-width spaces, stray
    surrogates) dropped, spacing collapsed. ASCII names fold as they always have, except
    that control characters are dropped (migration 7 refolded the stored keys)."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join("".join(c for c in text if c.isspace()
                            or unicodedata.category(c) not in _INVISIBLE).split())


_INVISIBLE = ("Cc", "Cf", "Cs")


def _fk(target: str, nullable: bool = False, ondelete: str = "CASCADE") -> Column[int]:
    return Column(Integer, ForeignKey(target, ondelete=ondelete), nullable=nullable, index=True)


def _link(target: str, ondelete: str = "SET NULL", use_alter: bool = False) -> Column[int]:
    """A link made a foreign key by migration 13, checked at the end of the transaction (a
    muster and its battle name each other; ``use_alter`` on one of the two lets the tables
    be put in an order, parents first)."""
    return Column(Integer, ForeignKey(target, ondelete=ondelete, deferrable=True,
                                      initially="DEFERRED", use_alter=use_alter),
                  nullable=True, index=True)


# Characters in a company name, a callsign or a pilot name: what meks gives (campaigns'
# ``clean_name``) and what a restored backup is held to (the column's ``info``).
NAME_LENGTH = 60


def _name() -> Any:
    return Field(sa_column_kwargs={"info": {"most_characters": NAME_LENGTH}})


class Company(SQLModel, table=True):
    __tablename__ = "company"
    id: int | None = Field(default=None, primary_key=True)
    name: str = _name()
    name_key: str = Field(unique=True)
    created_at: str = Field(default_factory=utcnow)


class Mek(SQLModel, table=True):
    __tablename__ = "mek"
    __table_args__ = (UniqueConstraint("company_id", "callsign_key"),)
    id: int | None = Field(default=None, primary_key=True)
    company_id: int = Field(sa_column=_fk("company.id"))
    callsign: str = _name()
    callsign_key: str
    design: str
    custom_design: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    size: str
    price: int
    kills: int = 0
    status: MekStatus = Field(default=MekStatus.ACTIVE, sa_type=TextEnum(MekStatus))
    damage: int = 0  # hits carried into the next battle (house rule repair: none)
    # JSON list of the weapons and systems lost in battle and not replaced yet (house rule
    # spare_parts, R3.7), each as {"kind": "weapon" | "system", "part": catalog name}
    lost: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    owed: int = 0  # points owed at the Mek's next muster: parts bought, repairs, overhaul
    wear: int = 0  # battles fought since new or overhauled (house rule wear, R3.8)


class StockPart(SQLModel, table=True):
    """How many of one part (a weapon or a system, by its catalog name) a company holds in
    its stockpile (house rule salvage, R3.6)."""

    __tablename__ = "stockpile"
    __table_args__ = (UniqueConstraint("company_id", "kind", "part"),)
    id: int | None = Field(default=None, primary_key=True)
    company_id: int = Field(sa_column=_fk("company.id"))
    kind: str  # weapon | system
    part: str
    count: int


class Pilot(SQLModel, table=True):
    __tablename__ = "pilot"
    __table_args__ = (UniqueConstraint("company_id", "name_key"),)
    id: int | None = Field(default=None, primary_key=True)
    company_id: int = Field(sa_column=_fk("company.id"))
    name: str = _name()
    name_key: str
    level: str = "Green"
    kills: int = 0
    scenarios: int = 0
    skills: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    status: PilotStatus = Field(default=PilotStatus.ACTIVE, sa_type=TextEnum(PilotStatus))
    mek_id: int | None = Field(default=None,
                               sa_column=_fk("mek.id", nullable=True, ondelete="SET NULL"))
    hire_cost: int = 0  # points still owed at the pilot's first muster (Regular hire)


class SupportRoll(SQLModel, table=True):
    __tablename__ = "support_roll"
    id: int | None = Field(default=None, primary_key=True)
    company_id: int = Field(sa_column=_fk("company.id"))
    muster_id: int | None = Field(default=None,
                                  sa_column=_fk("muster.id", nullable=True, ondelete="SET NULL"))
    table_die: int
    entry_die: int
    result: str
    points: int = 0  # Rich Uncle's extra muster points
    used: bool = False


class Muster(SQLModel, table=True):
    __tablename__ = "muster"
    id: int | None = Field(default=None, primary_key=True)
    company_id: int = Field(sa_column=_fk("company.id"))
    scenario: str | None = None
    side: str | None = None
    budget: int
    max_size: str | None = None
    cost: int
    # Its force is in ``muster_mek`` (migration 14). This JSON list is what a muster of an
    # older schema kept it in: '[]' once moved; entries left unmoved only when they did not
    # read (a damaged record).
    force: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    battle_id: int | None = Field(default=None, sa_column=_link("battle.id", use_alter=True))
    created_at: str = Field(default_factory=utcnow)
    # JSON: the scenario the muster was made for (``scenario_data``), its house rules
    # included, kept while the force waits for its battle; nothing for a muster made
    # without a scenario, or before musters kept theirs (migration 11).
    definition: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class MusterMek(SQLModel, table=True):
    """One Mek of a muster's force and its pilot, in the order mustered (``position``, from
    0), with what the muster paid for them: the pilot's Regular hire fee and what the Mek
    owed (R3.7, R3.8); nothing where the muster recorded nothing. Goes with its muster,
    Mek or pilot."""

    __tablename__ = "muster_mek"
    muster_id: int = Field(sa_column=Column(
        Integer, ForeignKey("muster.id", ondelete="CASCADE"), primary_key=True,
        autoincrement=False))
    position: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    mek_id: int = Field(sa_column=_fk("mek.id"))
    pilot_id: int = Field(sa_column=_fk("pilot.id"))
    paid: int | None = None
    owed: int | None = None


class Battle(SQLModel, table=True):
    __tablename__ = "battle"
    id: int | None = Field(default=None, primary_key=True)
    company_id: int | None = Field(default=None,
                                   sa_column=_fk("company.id", nullable=True))
    muster_id: int | None = Field(default=None, sa_column=_link("muster.id"))
    scenario: str | None = None
    mode: BattleMode = Field(default=BattleMode.TABLE, sa_type=TextEnum(BattleMode))
    sides: str = Field(default="{}", sa_column=Column(Text, nullable=False, default="{}"))
    seed: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    result: str
    log: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    created_at: str = Field(default_factory=utcnow)


class Event(SQLModel, table=True):
    """One change to a company: the command, its dice, and the state before and after."""

    __tablename__ = "event"
    id: int | None = Field(default=None, primary_key=True)
    company_id: int | None = Field(default=None,
                                   sa_column=_fk("company.id", nullable=True,
                                                 ondelete="SET NULL"))
    company_name: str
    command: str
    summary: str
    dice: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    before: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    after: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    undoes: int | None = None
    undone: bool = False
    created_at: str = Field(default_factory=utcnow)


class BattleLog(SQLModel, table=True):
    """A fought battle's full record: how to replay it (``spec``: scenario, forces, dice,
    controllers) and its event log. Kept apart from ``battle`` so that company snapshots
    stay small; keyed by the battle's id."""

    __tablename__ = "battle_log"
    battle_id: int = Field(sa_column=Column(
        Integer, ForeignKey("battle.id", ondelete="CASCADE", deferrable=True,
                            initially="DEFERRED"), primary_key=True, autoincrement=False))
    digest: str
    events: int
    spec: str = Field(sa_column=Column(Text, nullable=False))
    log: str = Field(sa_column=Column(Text, nullable=False))


class Campaign(SQLModel, table=True):
    """A company's series of scenarios: the plan, how far it has got, and its results."""

    __tablename__ = "campaign"
    id: int | None = Field(default=None, primary_key=True)
    company_id: int = Field(sa_column=_fk("company.id"))
    name: str
    plan: str = Field(sa_column=Column(Text, nullable=False))  # JSON [{scenario, side}]
    position: int = 0
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    difficulty: str = "normal"
    status: CampaignStatus = Field(default=CampaignStatus.ACTIVE,
                                   sa_type=TextEnum(CampaignStatus))
    # JSON: one entry per step played (``StepResult``). The battle each step fought is in
    # ``campaign_battle`` (migration 15): the entry's ``battle_id`` is kept as nothing.
    results: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    created_at: str = Field(default_factory=utcnow)
    # The company's points under the campaign house rule treasury; nothing when the rule is
    # off, or for a campaign begun before campaigns kept one (migration 12).
    treasury: int | None = None


class CampaignBattle(SQLModel, table=True):
    """The battle a campaign's step fought: the step by its place in the campaign's
    results (from 0). Goes with its campaign or its battle (the step then names none)."""

    __tablename__ = "campaign_battle"
    campaign_id: int = Field(sa_column=Column(
        Integer, ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True,
        autoincrement=False))
    position: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    battle_id: int = Field(sa_column=_fk("battle.id"))


class Play(SQLModel, table=True):
    """A battle fought at the terminal (``meks battle play``): what it takes to fight it
    again to where it stopped (``spec``: scenario, forces, the companies and musters they
    came from) and the player's decisions so far, saved after each one; the campaign
    step it settles, if any; and the musters it holds."""

    __tablename__ = "play"
    id: int | None = Field(default=None, primary_key=True)
    scenario: str
    side: str  # the side the player commands: attacker | defender
    opponent: str  # the controller commanding the other side
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    spec: str = Field(sa_column=Column(Text, nullable=False))  # JSON
    decisions: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    status: PlayStatus = Field(default=PlayStatus.ACTIVE, sa_type=TextEnum(PlayStatus))
    result: str | None = None  # attacker | defender | draw, once finished
    digest: str | None = None  # the finished battle's log digest
    # The stored battle, when a company fought.
    battle_id: int | None = Field(default=None, sa_column=_link("battle.id"))
    created_at: str = Field(default_factory=utcnow)
    updated_at: str = Field(default_factory=utcnow)
    # The campaign step this play fights (``campaign next --play``): the campaign, and its
    # place in the campaign's plan (from 0). Both empty for a play of no campaign; the play
    # goes with its campaign. ``spec`` repeats them with the step's other details.
    campaign_id: int | None = Field(default=None, sa_column=_fk("campaign.id", nullable=True))
    campaign_step: int | None = None
    # The musters the play holds (``start_sides``), one a side: none for a side fought from
    # a force file, and none once the muster is deleted (company delete, or replaced after
    # the play was finished or set aside). While the play is unfinished nothing may replace
    # or fight with them (``campaigns.in_play``). ``spec`` repeats them with the companies.
    attacker_muster_id: int | None = Field(
        default=None, sa_column=_fk("muster.id", nullable=True, ondelete="SET NULL"))
    defender_muster_id: int | None = Field(
        default=None, sa_column=_fk("muster.id", nullable=True, ondelete="SET NULL"))
