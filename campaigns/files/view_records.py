"""The shapes of what the company and campaign commands show, declared as
``campaigns.files.records`` declares the documents they are built from: the company as
``company show`` and the Mek and pilot commands show it, the workshop's repairs, refits,
overhauls and sales (``campaigns.workshop``), the company's history (its events), and a
campaign as ``campaign status`` shows it. ``TypedDict``s over the plain dicts that are printed
as they are.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from campaigns.files.records import PilotOutcome, PlannedStep, StepResult, StockRecord

# ---- the company as ``company show`` and the Mek and pilot commands show it ------------------

class MekExtras(TypedDict, total=False):
    """What the campaign house rules keep on a Mek (R3.7, R3.8), when it is not nothing."""

    lost: list[str]  # the names of the parts it lost
    owed: int
    wear: int
    heat_loss: int


class MekView(MekExtras):
    """A Mek as the commands show it."""

    id: int | None
    callsign: str
    design: str
    size: str
    price: int
    kills: int
    status: str
    damage: int


class PilotView(TypedDict):
    """A pilot as the commands show it: the Mek they fly by callsign and by id."""

    id: int | None
    name: str
    level: str
    kills: int
    scenarios: int
    skills: list[str]
    mek: str | None
    mek_id: int | None
    status: str
    hire_cost: NotRequired[int]  # not in ``company show``


class PendingSupport(TypedDict):
    """A support result waiting for the next muster."""

    id: int
    result: str
    points: int


class LastMuster(TypedDict):
    """The company's last muster, its Meks by callsign."""

    id: int
    scenario: str | None
    budget: int
    cost: int
    recorded: bool  # whether its battle was recorded
    meks: list[str | None]


class BattleLine(TypedDict):
    """A battle of the company, in one line."""

    id: int
    scenario: str | None
    result: str


class CompanyView(TypedDict):
    """The company as ``company show --json`` shows it."""

    id: int
    name: str
    meks: list[MekView]
    pilots: list[PilotView]
    support: list[PendingSupport]
    last_muster: LastMuster | None
    battles: list[BattleLine]
    stockpile: list[StockRecord]


class CompanyLine(TypedDict):
    """A company in ``company list``."""

    id: int | None
    name: str
    meks: int  # active ones
    pilots: int  # living ones
    battles: int


class ImportedRoster(TypedDict):
    """A company founded from a roster (``roster import``): what it brought, counted."""

    id: int | None
    name: str
    source: str  # the file, or <stdin>
    meks: int
    pilots: int
    support: int
    musters: int
    battles: int


class BoughtMek(MekView, total=False):
    """A Mek just bought, with the treasury left (house rule treasury)."""

    treasury: int


class SoldMek(MekView, total=False):
    """A Mek just sold, with what the sale paid and the treasury after it (house rule
    treasury)."""

    paid: int
    worth: int  # its price less its lost parts': half of it, less ``owed``, is what it paid
    treasury: int


class RenamedMek(MekView):
    """A Mek after ``mek rename``, and whether its callsign changed."""

    changed: bool


class ListedMek(MekView):
    """A Mek in ``mek list``, with the name of its pilot."""

    pilot: str | None


class HiredPilot(PilotView):
    """A pilot just hired, with the change in words."""

    summary: str


# ---- the workshop: repair, refit, overhaul and sale (campaigns.workshop) ---------------------

class RepairedMek(TypedDict):
    """A Mek's lost parts put back (R3.7): from the stockpile, or bought for ``cost``."""

    mek: str
    from_stockpile: list[str]
    bought: list[str]
    cost: int
    owed: int


class RefittedMek(TypedDict):
    """A Mek rebuilt to another design (R3.7), with the parts used and stored."""

    mek: str
    design: str
    price: int
    used: list[str]
    stored: list[str]


class OverhauledMek(TypedDict):
    """A worn Mek overhauled (R3.8)."""

    mek: str
    cost: int
    owed: int


class SoldPart(TypedDict):
    part: str
    kind: str
    points: int


class PartsSold(TypedDict):
    """Parts sold from the stockpile into the treasury."""

    company: str
    sold: list[SoldPart]
    points: int
    treasury: int
    summary: str


# ---- the company's history (its events) -----------------------------------------------------

class DieRoll(TypedDict):
    """One die a change rolled, and what for."""

    purpose: str
    value: int


class EventView(TypedDict):
    """A change in the company's history."""

    id: int | None
    at: str
    command: str
    summary: str
    dice: list[DieRoll]
    undone: bool
    undoes: int | None


class PilotHistory(PilotView):
    """A pilot as ``pilot show`` shows them: with the changes that concerned them."""

    history: list[EventView]


class Undone(TypedDict):
    """What ``company undo`` undid."""

    undone: int | None
    command: str
    summary: str
    then: str | None  # the command of the change a next undo would take back, if any
    treasury: int | None  # what the treasury holds once undone (None: the company keeps none)


class SupportResult(TypedDict):
    """A support roll just made (R4.1)."""

    table_die: int
    entry_die: int
    table: str
    result: str
    kind: str
    effect: str
    points: int


class RecordedBattle(TypedDict):
    """A battle recorded at the table (``battle record``): its pilots' post-battle entries."""

    battle_id: int | None
    result: str
    seed: int | None
    pilots: list[PilotOutcome]
    salvage: list[str]
    withdrawal: NotRequired[str]


# ---- a campaign as ``campaign status`` shows it ----------------------------------------------

class CampaignView(TypedDict):
    """A campaign with its plan and results, as ``campaign start`` and ``status`` show it."""

    id: int | None
    name: str
    status: str
    seed: int
    difficulty: str
    position: int
    plan: list[PlannedStep]
    next: PlannedStep | None  # the plan's next step, None when it is over
    results: list[StepResult]
    record: dict[str, int]  # how many of win, loss and draw
    # for each step, the house rules its battle is fought under that differ from the
    # rulings' ('salvage: both'): its scenario's own, with what the plan sets over them
    in_force: list[list[str]]
    treasury: NotRequired[int]  # house rule treasury
    broke_at: NotRequired[PlannedStep]  # the step the company went broke before


class CompanyCampaign(CampaignView):
    """A company's campaign, as ``campaign status`` shows it."""

    company: str
    campaign: str  # its name again, under the key 'campaign show' gives it
