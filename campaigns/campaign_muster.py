"""A campaign's muster: what the company's force for the next scenario is chosen from
(``MusterMenu``), the force chosen and recorded (``auto_muster``: Meks bought, pilots hired
and put in the cockpits, the hire fees paid as far as the budget allows), and the lost
parts put back before it (``auto_repair``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from campaigns.company import Refused, shell_arg
from campaigns.files.records import MusterMenuView
from campaigns.files.stored import stored_json
from campaigns.hangar import assign_pilot, buy_mek, hire_pilot
from campaigns.musters import Limits, Provided, fees_due, muster, next_muster
from campaigns.parts import Part, counted, held, named_part
from campaigns.treasury import Broke, points
from campaigns.workshop import repair_mek
from db.models import Company, Mek, MekStatus, Pilot, PilotStatus
from meks.analysis.forcepick import Option, pick_force
from meks.game.catalog import Catalog, Design, Size, load_catalog
from meks.game.errors import MeksError
from meks.game.scenario import Scenario
from meks.game.text import plural
from meks.game.vocabulary import Side

PILOT_NAMES = (
    "Ash", "Brook", "Cole", "Dara", "Eli", "Fenn", "Gale", "Hale", "Ira", "Jory", "Kell",
    "Lark", "Moss", "Nell", "Orin", "Pike", "Quill", "Rook", "Sage", "Tam", "Ulla", "Vale",
    "Wren", "Yara", "Zane",
)


@dataclass(frozen=True)
class MusterMenu:
    """What a campaign's muster chooses from: the company's Meks (each at its price plus
    what it owes), the points the force may cost (the scenario's budget, with Rich Uncle,
    less ``fees``: the hire fees owed by the pilots who would fly but those the scenario
    waives, or none when the force fits only if the pilots who owe them stay at home), what
    the treasury can pay now (None without one, less ``fees`` too), the side's limits, and
    the force the tool suggests (``pick_force``)."""

    scenario: Scenario
    side: Side
    owned: list[Option]
    budget: int
    cash: int | None
    suggestion: list[Option]
    owed: dict[int, int] = field(default_factory=dict)  # hire fees owed, by pilot id
    fees: int = 0

    def view(self) -> MusterMenuView:
        rules = self.scenario.side(self.side)
        return {
            "scenario": self.scenario.id, "name": self.scenario.name, "side": self.side.value,
            "budget": self.budget, "treasury": self.cash,
            "max_size": rules.max_size.value if rules.max_size else None,
            "composition": None if rules.composition is None else {
                size.value: n for size, n in rules.composition.items()},
            "owned": [{"callsign": o.owned, "design": o.design.name,
                       "size": o.design.size.value, "price": o.price, "owes": o.paid}
                      for o in self.owned],
            "suggestion": [o.owned or o.design.name for o in self.suggestion],
            "cost": sum(o.price for o in self.suggestion),
            "paid": sum(o.paid for o in self.suggestion)}

    def choose(self, names: list[str], catalog: Catalog) -> list[Option]:
        """The force ``names`` names (callsigns of the company's Meks, and designs to buy,
        a design twice buying two), checked against the budget, the side's limits and the
        treasury. Raises ``Refused`` naming every problem."""
        from db.models import fold

        problems = []
        chosen: list[Option] = []
        mine = {fold(o.owned or ""): o for o in self.owned}
        for raw in names:
            name = raw.strip()
            if name.casefold().startswith("buy "):
                name = name[4:].strip()
            if not name:
                continue
            option = mine.get(fold(name))
            if option is not None:
                if option in chosen:
                    problems.append(f"{option.owned} is named twice")
                    continue
                chosen.append(option)
                continue
            try:
                design = catalog.design(name)
            except MeksError:
                problems.append(f"{name!r} is neither one of the company's Meks nor a "
                                "stock design ('meks catalog designs' lists them)")
                continue
            chosen.append(Option(design, design.price or 0))
        if not chosen and not problems:
            problems.append("name at least one Mek")
        rules = self.scenario.side(self.side)
        if chosen:
            problems += rules.size_problems([o.design.size for o in chosen])
            cost = sum(o.price for o in chosen)
            if cost > self.budget:
                problems.append(f"the force costs {cost} points but the budget is "
                                f"{self.budget}")
            paid = sum(o.paid for o in chosen)
            if self.cash is not None and paid > self.cash:
                problems.append(f"it costs {paid} points to buy and repair, but the "
                                f"treasury holds {self.cash}")
        if problems:
            said = dict.fromkeys(problems)  # each problem once, however often it was caused
            raise Refused("That force cannot be mustered: " + "; ".join(said) + ".")
        return chosen


def muster_menu(session: Session, company: Company, scenario: Scenario, side: Side,
                catalog: Catalog) -> MusterMenu:
    """What the company's muster for ``scenario`` chooses from (``MusterMenu``)."""
    rules = scenario.side(side)
    # the muster below first releases any muster waiting for its battle: its support and
    # the hire fees it paid count as they will be then
    coming = next_muster(session, company)
    # a Mek that owes points (parts bought, repairs, an overhaul) costs them at its muster
    meks = session.exec(select(Mek).where(
        Mek.company_id == company.id, Mek.status == MekStatus.ACTIVE).order_by(col(Mek.id))).all()
    owned = [Option(_design(m, catalog), m.price + m.owed, m.callsign, pays=m.owed)
             for m in meks]
    owned_ids = {m.callsign: m.id for m in meks}
    fees = coming.fees_due(rules.pilots)  # a pilot the scenario provides pays no fee (R3.3)
    treasury = points(session, company)  # house rule treasury: what it can pay for
    whole = rules.budget + coming.bonus

    def pick(reserved: int) -> list[Option]:
        return pick_force(owned, catalog, whole - reserved, rules.max_size, rules.composition,
                          cash=None if treasury is None else treasury - reserved)

    chosen = pick(fees)
    # only the fees of the pilots who would fly in the force chosen need keeping back: a
    # pilot whose Mek stays at home, with no empty cockpit for her, pays none
    pilots = session.exec(select(Pilot).where(Pilot.company_id == company.id,
                                              Pilot.status != PilotStatus.DEAD)).all()
    for _ in range(3):
        flying = _flying_fees(chosen, pilots, owned_ids, coming.owed, rules.pilots)
        if not chosen or flying >= fees:
            break
        wider = pick(flying)
        if not wider:
            break
        chosen, fees = wider, flying
    if not chosen and fees:
        # Green pilots cost nothing: those who owe a fee can stay at home (``auto_muster``)
        fees = 0
        chosen = pick_force(owned, catalog, whole, rules.max_size, rules.composition,
                            cash=treasury)
    cash = None if treasury is None else treasury - fees
    budget = whole - fees
    if not chosen and treasury is not None:
        stock = sum(held(session, company.id or 0).values())
        who = shell_arg(company.name)
        sales = ([f"its Meks ('meks mek sell {who} CALLSIGN' pays half what one is "
                  "worth)"] if owned else []) + (
            [f"the {stock} part{'s' * (stock != 1)} in its stockpile ('meks campaign sell "
             f"{who} --all')"] if stock else [])
        raise Broke(f"{company.name} cannot field a legal force for {scenario.name}: its "
                    f"{plural(len(owned), 'Mek')} and the {plural(treasury, 'point')} "
                    "in its treasury are not enough." + (
                        f" Selling {' or '.join(sales)} may pay for one: 'meks company undo "
                        f"{who}' takes the campaign back to this step first."
                        if sales else ""))
    if not chosen:
        raise Refused(f"{company.name} cannot field a force for {scenario.name} within "
                      f"{rules.budget} points.")
    return MusterMenu(scenario, side, owned, budget, cash, chosen, dict(coming.owed), fees)


def _flying_fees(chosen: list[Option], pilots: Sequence[Pilot], mek_ids: dict[str, int | None],
                 owed: dict[int, int], provided: Mapping[str, int]) -> int:
    """The hire fees the pilots who would fly in the force ``chosen`` owe (``owed``, by
    pilot id), less those the scenario waives (``provided``): the pilots of its Meks, then,
    for each empty cockpit, the best of the others, as ``auto_muster`` seats them."""
    fielded = {mek_ids.get(o.owned) for o in chosen if o.owned}
    flyers = [p for p in pilots if p.mek_id is not None and p.mek_id in fielded]
    spares = sorted((p for p in pilots if p.mek_id is None or p.mek_id not in fielded),
                    key=_seat_order, reverse=True)
    flyers += spares[:max(0, len(chosen) - len(flyers))]
    return sum(fees_due([(p.level, owed[p.id]) for p in flyers if p.id in owed], provided))


def _seat_order(pilot: Pilot) -> tuple[int, int, int]:
    """Which pilot without a Mek in the force takes an empty cockpit first: the higher
    level, then the more kills, then the longer in the company."""
    return _rank(pilot.level), pilot.kills, -(pilot.id or 0)


def auto_muster(session: Session, company: Company, scenario: Scenario, side: Side,
                catalog: Catalog, choice: list[str] | None = None) -> list[str]:
    """Choose and record the company's force for a scenario: the strongest that fits,
    owned Meks first, buying what is missing (or the force ``choice`` names: see
    ``MusterMenu.choose``), and hiring pilots for empty cockpits: a Regular while the
    scenario provides one the force has not used (its hire fee waived, R3.3), else a Green
    one. Returns the callsigns bought."""
    rules = scenario.side(side)
    menu = muster_menu(session, company, scenario, side, catalog)
    chosen = menu.suggestion if choice is None else menu.choose(choice, catalog)
    callsigns = []
    bought = []
    for option in chosen:
        if option.owned:
            callsigns.append(option.owned)
        else:
            mek = buy_mek(session, company.name, option.design, custom=False,
                          catalog=catalog)
            callsigns.append(mek["callsign"])
            bought.append(mek["callsign"])
    # what the force leaves for hire fees: a pilot who owes one the scenario does not waive
    # flies only while it fits, else stays at home and another pilot takes the cockpit
    fees = _Fees(menu.budget + menu.fees - sum(o.price for o in chosen),
                 None if menu.cash is None else menu.cash + menu.fees
                 - sum(o.paid for o in chosen), menu.owed, Provided(rules.pilots))
    empty = []
    regulars = 0  # Regulars flying in the force: each may take a provided Regular's place
    for callsign in callsigns:
        mek_row = session.exec(select(Mek).where(Mek.company_id == company.id,
                                                 Mek.callsign == callsign)).one()
        flying = session.exec(select(Pilot).where(Pilot.mek_id == mek_row.id,
                                                  Pilot.status != PilotStatus.DEAD)).first()
        if flying is None or not fees.take(flying):
            empty.append(callsign)
        elif flying.level == "Regular":
            regulars += 1
    free_regulars = rules.pilots.get("Regular", 0) - regulars
    fielded = {m.id for m in session.exec(select(Mek).where(
        Mek.company_id == company.id, col(Mek.callsign).in_(callsigns))).all()}
    for callsign in empty:
        # a pilot without a Mek, or in one that stays at home, flies before a new hire
        spare = [p for p in session.exec(select(Pilot).where(
            Pilot.company_id == company.id, Pilot.status != PilotStatus.DEAD)).all()
            if (p.mek_id is None or p.mek_id not in fielded) and fees.fits(p)]
        if spare:
            best = max(spare, key=_seat_order)
            fees.take(best)
            name = best.name
            free_regulars -= best.level == "Regular"
        else:
            name = _new_pilot_name(session, company)
            regular = free_regulars > 0
            hire_pilot(session, company.name, name, regular=regular, catalog=catalog)
            free_regulars -= regular
        assign_pilot(session, company.name, name, callsign)
    muster(session, company.name, Limits.for_scenario(scenario, side), callsigns)
    return bought


@dataclass
class _Fees:
    """The hire fees a campaign's muster can pay (R3.3): ``room`` points of the budget left
    by the Meks, ``cash`` in the treasury (None: no treasury), the fees owed by pilot id, and
    the pilots the scenario provides, each waiving one fee (``Provided``)."""

    room: int
    cash: int | None
    owed: dict[int, int]
    waivers: Provided

    def fits(self, pilot: Pilot) -> bool:
        fee = self.waivers.due(pilot.level, self.owed.get(pilot.id or 0, 0))
        return fee <= self.room and (self.cash is None or fee <= self.cash)

    def take(self, pilot: Pilot) -> bool:
        """Whether ``pilot`` can fly: her fee (if the scenario does not waive it) fits,
        and is then counted as paid."""
        if not self.fits(pilot):
            return False
        fee = self.waivers.charge(pilot.level, self.owed.get(pilot.id or 0, 0))
        self.room -= fee
        if self.cash is not None:
            self.cash -= fee
        return True


def auto_repair(session: Session, company: Company, catalog: Catalog) -> list[str]:
    """Before a campaign's muster every Mek that lost parts (house rule spare_parts, R3.7)
    gets them back: from the stockpile where it holds them, else bought at their catalog
    price, owed at the Mek's next muster. Returns what was done, Mek by Mek."""
    done = []
    for mek in session.exec(select(Mek).where(Mek.company_id == company.id,
                                              Mek.status == MekStatus.ACTIVE)
                            .order_by(col(Mek.id))).all():
        if mek.lost and mek.lost != "[]":
            result = repair_mek(session, company.name, str(mek.id), buy=True,
                                catalog=catalog)
            bits = [f"{counted(named_parts(result['from_stockpile']))} from the stockpile"
                    ] if result["from_stockpile"] else []
            if result["bought"]:
                bits.append(f"{counted(named_parts(result['bought']))} bought for "
                            f"{result['cost']} points")
            done.append(f"{mek.callsign}: " + ", ".join(bits))
    return done


def named_parts(names: list[str]) -> list[Part]:
    catalog = load_catalog()
    return [named_part(n, catalog) for n in names]


def _rank(level: str) -> int:
    return ("Green", "Regular", "Veteran", "Elite").index(level)


def _design(mek: Mek, catalog: Catalog) -> Design:
    if mek.custom_design:
        data = stored_json(mek, "custom_design")
        return Design(data["name"], Size(data["size"]), tuple(data["weapons"]),
                      tuple(data["systems"]))
    return catalog.design(mek.design)


def _new_pilot_name(session: Session, company: Company) -> str:
    taken = {p.name_key for p in session.exec(select(Pilot).where(
        Pilot.company_id == company.id)).all()}
    for round_ in range(1, 100):
        for name in PILOT_NAMES:
            candidate = name if round_ == 1 else f"{name} {round_}"
            if candidate.casefold() not in taken:
                return candidate
    raise Refused("No name left for a new pilot.")  # pragma: no cover
