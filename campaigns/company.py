"""Use-cases that change a company between games: found it, roll support, muster, undo (its
Meks and pilots are ``campaigns.hangar``'s). Each takes an open session (one transaction) and
plain arguments, returns plain data, and raises a ``MeksError`` a player can read.

Every change is recorded as an ``Event`` holding the command, the dice rolled and the
company's full state before and after (``campaigns.files.roster.snapshot``), which is what makes
``undo`` exact.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from campaigns.errors import NotFound as NotFound  # (re-exported)
from campaigns.errors import Refused as Refused
from campaigns.files import roster
from campaigns.files.records import MekRecord, MusterRecord, PilotRecord, SupportRecord
from campaigns.files.stored import stored_json
from campaigns.files.view_records import (
    CompanyLine,
    CompanyView,
    DieRoll,
    EventView,
    MekExtras,
    SupportResult,
    Undone,
)
from campaigns.parts import heat_loss
from campaigns.treasury import points as treasury_points
from db.locks import lock_company, mark_locked
from db.models import (
    NAME_LENGTH,
    BattleLog,
    Company,
    Event,
    Mek,
    Muster,
    Pilot,
    SupportRoll,
    fold,
)
from meks.game.catalog import Catalog, Size, load_catalog
from meks.game.dice import Dice
from meks.game.errors import InputError, MeksError, UsageError, problem
from meks.game.names import normalize, suggest
from meks.game.scenario import Scenario
from meks.game.support import roll_support
from meks.game.text import (
    TYPED_WHITESPACE,
    bad_character,
    describe,
    shown,
    without_format_characters,
)
from meks.game.vocabulary import Side


def shell_arg(text: str) -> str:
    """``text`` as one word of a shell command a message suggests: as it is when that is
    safe, else in double quotes (messages already wrap whole commands in single ones)."""
    import shlex

    if shlex.quote(text) == text:
        return text
    escaped = "".join("\\" + c if c in '\\"$`' else c for c in text)
    return f'"{escaped}"'


# ---- names ----------------------------------------------------------------------------------

def reads_as_id(name: str) -> bool:
    """Whether looking ``name`` up could find an id instead: its folded form, as lookups
    compare it (so '⑫' counts, as it folds to '12'), is only digits 0-9 after any '#'.
    Digits of other scripts ('١٢') are never read as an id (``as_id``)."""
    key = fold(name).lstrip("#")
    return key.isascii() and key.isdigit()


def clean_name(text: str, what: str) -> str:
    """``text`` as a name is stored: composed (NFC), without invisible formatting characters
    (a joiner is kept between two visible characters), tabs and line breaks turned into
    spaces, spacing collapsed. Refused when it is empty or made only of digits (optionally
    after a '#'), which would read as an id, when it holds bytes that are not text, or any
    other control character (NUL, ESC, DEL...): those are refused, not dropped. A name
    beginning with '-' is refused too: a command line would take it for an option."""
    if any(unicodedata.category(c) == "Cs" for c in text):
        raise UsageError(f"The {what} {text!r} holds bytes that are not UTF-8 text; type it "
                         "again in a UTF-8 terminal.")
    control = bad_character(text, TYPED_WHITESPACE)
    if control is not None:
        raise UsageError(f"The {what} {shown(text)} holds {describe(control)}; a name "
                         "cannot hold control characters, so give it without.")
    text = without_format_characters(unicodedata.normalize("NFC", text))
    kept = [" " if c.isspace() else c for c in text
            if c.isspace() or unicodedata.category(c) != "Cc"]
    name = " ".join("".join(kept).split())
    if not name:
        raise Refused(f"A {what} cannot be empty; give one with letters in it.")
    if len(name) > NAME_LENGTH:
        raise Refused(f"A {what} can be at most {NAME_LENGTH} characters long, and this one has "
                      f"{len(name)}; choose a shorter one.")
    if reads_as_id(name):
        raise Refused(f"A {what} cannot be only digits, as {name!r} would be read as the id "
                      f"{fold(name).lstrip('#')}; give one with a letter in it.")
    if name.startswith("-"):
        raise Refused(f"A {what} cannot begin with '-', as the commands that name it would "
                      f"read {name!r} as an option; give one that begins otherwise.")
    return name


def file_name(text: str | None, what: str, source: object, where: str) -> str:
    """A name given in a file (a force's callsigns, a plan's name), by the rules of a typed
    one (``clean_name``), its problem worded as the file's (exit 2) at ``where``. Empty
    text: no name given, so ""."""
    if not text:
        return ""
    try:
        return clean_name(text, what)
    except MeksError as exc:
        raise InputError(str(source), [problem(exc.message, path=where)]) from None


# ---- finding things -------------------------------------------------------------------------

MAX_ID = 2**63 - 1  # the largest id a database stores; a larger number names nothing


def as_id(ref: str) -> int | None:
    """``ref`` as an id when it is one: plain digits (0-9) for a number no larger than
    ``MAX_ID``; otherwise None, and ``ref`` can only be a name."""
    if not (ref.isascii() and ref.isdigit()):
        return None
    digits = ref.lstrip("0") or "0"
    if len(digits) > len(str(MAX_ID)):  # far too large (and past what int() reads at all)
        return None
    number = int(digits)
    return number if number <= MAX_ID else None


def is_id(number: int) -> bool:
    """Whether ``number`` could be a stored id (ids given as numbers, such as a battle's)."""
    return 0 <= number <= MAX_ID


def get_company(session: Session, name: str) -> Company:
    company = session.exec(select(Company).where(Company.name_key == fold(name))).first()
    if company is None and (cid := as_id(name)) is not None:
        company = session.get(Company, cid)
    if company is None:
        names = [c.name for c in session.exec(select(Company)).all()]
        hint = (_did_you_mean(name, names) + f" Companies: {', '.join(names)}." if names
                else " There are no companies yet; to start one under that name, run "
                f"'meks company create {shell_arg(name)}'.")
        called = f"has the id {name} or is called {name!r}" if as_id(name) is not None \
            else f"is called {name!r}"
        raise NotFound(f"No company {called}.{hint}")
    return company


def company_to_change(session: Session, name: str) -> Company:
    """The company called ``name`` (or with that id), as ``get_company`` finds it, locked
    for the rest of the transaction: every use-case that changes a company starts here, so
    that two changes to one company never interleave (``db.locks``), and everything it reads
    afterwards is what the change before it left."""
    return lock(session, get_company(session, name))


def lock(session: Session, company: Company) -> Company:
    """``company`` locked for the rest of the transaction and read afresh (``db.locks``).
    Refused when another change deleted it while this one waited."""
    row = lock_company(session, company_id(company))
    if row is None:
        raise NotFound(f"{company.name} was deleted by another change a moment ago; nothing "
                       "was changed.")
    return row


def lock_all(session: Session, names: Sequence[str]) -> None:
    """Lock the companies ``names`` name, always in the same order (by id) so that two
    changes to the same two companies cannot each wait for the other. A name that finds no
    company is passed over: the use-case says so when it looks it up."""
    found = {}
    for name in names:
        try:
            company = get_company(session, name)
        except NotFound:
            continue
        found[company_id(company)] = company
    for cid in sorted(found):
        lock(session, found[cid])


def shaped_as_file(ref: str) -> bool:
    """Whether a side given as ``ref`` is read as a force file by its shape alone: a name
    ending .yaml or .yml, or a path (beginning /, ./, ../ or ~/). No company is so named."""
    return ref.lower().endswith((".yaml", ".yml")) or ref.startswith(("/", "./", "../", "~/"))


def found_company(session: Session, company: Company, taken: str) -> Company:
    """Store a new company row. Refused with ``taken`` (with ``{name}`` for the other
    company's name) when its name is in use, including by a company another process has
    just founded under the same name at the same moment."""
    if shaped_as_file(company.name):
        # a side of 'battle auto', 'battle play' and 'odds' so named is read as a force file
        raise Refused(f"A company name cannot end in .yaml or .yml or begin as a path does "
                      f"('/', './', '../', '~/'): the commands that take a force file or a "
                      f"company would read {company.name!r} as a file; give another name.")
    other = session.exec(select(Company).where(Company.name_key == company.name_key)).first()
    if other is None:
        try:
            with session.begin_nested():  # a clash must not spoil the whole transaction
                session.add(company)
                session.flush()
        except IntegrityError:
            other = session.exec(select(Company).where(
                Company.name_key == company.name_key)).first()
            if other is None:
                raise
    if other is not None:
        raise Refused(taken.format(name=repr(other.name)))
    mark_locked(session, company_id(company))
    return company


def company_id(company: Company) -> int:
    """A stored company's id."""
    assert company.id is not None
    return company.id


def find_mek(session: Session, company: Company, ref: str, *,
             active: bool = True) -> Mek:
    """A Mek of ``company`` by callsign (any case) or id."""
    query = select(Mek).where(Mek.company_id == company_id(company))
    mek = session.exec(query.where(Mek.callsign_key == fold(ref))).first()
    if mek is None and (mid := as_id(ref.lstrip("#"))) is not None:
        mek = session.exec(query.where(Mek.id == mid)).first()
    if mek is None:
        near = _did_you_mean(ref, [m.callsign for m in session.exec(query).all()
                                   if not active or m.status == "active"])
        raise NotFound(f"{company.name} has no Mek called {ref!r}.{near} "
                       f"See 'meks mek list {shell_arg(company.name)}'.")
    if active and mek.status != "active":
        raise Refused(f"{mek.callsign} is {mek.status} and no longer in the stable.")
    return mek


def find_pilot(session: Session, company: Company, ref: str) -> Pilot:
    """A pilot of ``company`` by name (any case) or id."""
    query = select(Pilot).where(Pilot.company_id == company_id(company))
    pilot = session.exec(query.where(Pilot.name_key == fold(ref))).first()
    if pilot is None and (pid := as_id(ref.lstrip("#"))) is not None:
        pilot = session.exec(query.where(Pilot.id == pid)).first()
    if pilot is None:
        near = _did_you_mean(ref, [p.name for p in session.exec(query).all()])
        raise NotFound(f"{company.name} has no pilot called {ref!r}.{near} "
                       f"See 'meks pilot list {shell_arg(company.name)}'.")
    return pilot


def _did_you_mean(typed: str, names: Sequence[str]) -> str:
    """" Did you mean 'X'?" with the names nearest ``typed`` (``meks.game.names.suggest``, as for
    catalog and scenario names), or nothing when none is near."""
    near = suggest(typed, {normalize(n): n for n in names})
    return " Did you mean " + " or ".join(repr(n) for n in near) + "?" if near else ""


# ---- recording changes ----------------------------------------------------------------------

@dataclass
class Change:
    """What a use-case did: a one-line summary and the dice it rolled."""

    command: str
    summary: str = ""
    dice: list[DieRoll] = field(default_factory=list)

    def rolled(self, dice: Dice, start: int = 0) -> None:
        self.dice.extend({"purpose": r.purpose, "value": r.value} for r in dice.log[start:])


@contextmanager
def changing(session: Session, company: Company, command: str) -> Iterator[Change]:
    """Record the change made inside the block as one event with before/after states.
    The company is locked first (``lock``) if its use-case has not done so already."""
    company = lock(session, company)
    before = roster.snapshot(session, company)
    change = Change(command)
    yield change
    session.flush()
    after = roster.snapshot(session, company)
    session.add(Event(company_id=company.id, company_name=company.name, command=command,
                      summary=change.summary, dice=json.dumps(change.dice),
                      before=json.dumps(before), after=json.dumps(after)))
    session.flush()


# ---- companies ------------------------------------------------------------------------------

def unused_company_name(session: Session, name: str) -> str:
    """``name`` as a new company would be called (``clean_name``), or, when a company is
    already called that (compared as names are, ``fold``), the first of ``name 2``,
    ``name 3`` ... that is free, ``name`` cut short where the number would take it past
    the length a name may have."""
    base = clean_name(name, "company name")
    taken = {c.name_key for c in session.exec(select(Company)).all()}
    label, n = base, 1
    while fold(label) in taken:
        n += 1
        suffix = f" {n}"
        label = base[:NAME_LENGTH - len(suffix)].rstrip() + suffix
    return label


def create_company(session: Session, name: str) -> CompanyView:
    name = clean_name(name, "company name")
    company = found_company(session, Company(name=name, name_key=fold(name)),
                            "A company called {name} already exists; choose another name.")
    with changing(session, company, "company create") as change:
        change.summary = f"Founded {name}."
    return company_view(session, company)


def list_companies(session: Session) -> list[CompanyLine]:
    out: list[CompanyLine] = []
    for company in session.exec(select(Company).order_by(col(Company.name_key))).all():
        doc = roster.snapshot(session, company)
        out.append({
            "id": company.id, "name": company.name,
            "meks": sum(m["status"] == "active" for m in doc["meks"]),
            "pilots": sum(p["status"] != "dead" for p in doc["pilots"]),
            "battles": len(doc["battles"]),
        })
    return out


def company_view(session: Session, company: Company) -> CompanyView:
    """The company as scripts see it (``company show --json``)."""
    return view_of(roster.snapshot(session, company))


def view_of(doc: roster.Document) -> CompanyView:
    """The company as scripts see it, from its document."""
    callsigns: dict[int | None, str] = {m["id"]: m["callsign"] for m in doc["meks"]}
    pending = [s for s in doc["support"] if s["muster"] is None and not s["used"]]
    last = doc["musters"][-1] if doc["musters"] else None
    return {
        "id": doc["company"]["id"],
        "name": doc["company"]["name"],
        "meks": [{"id": m["id"], "callsign": m["callsign"], "design": m["design"],
                  "size": m["size"], "price": m["price"], "kills": m["kills"],
                  "status": m["status"], "damage": m.get("damage", 0), **_doc_extras(m)}
                 for m in doc["meks"]],
        "pilots": [{"id": p["id"], "name": p["name"], "level": p["level"], "kills": p["kills"],
                    "scenarios": p["scenarios"], "skills": p["skills"],
                    "mek": callsigns.get(p["mek"]), "mek_id": p["mek"],
                    "status": p["status"]} for p in doc["pilots"]],
        "support": [{"id": s["id"], "result": s["result"], "points": s["points"]}
                    for s in pending],
        "last_muster": None if last is None else {
            "id": last["id"], "scenario": last["scenario"], "budget": last["budget"],
            "cost": last["cost"], "recorded": last["battle"] is not None,
            "meks": [callsigns.get(f["mek"]) for f in last["force"]]},
        "battles": [{"id": b["id"], "scenario": b["scenario"], "result": b["result"]}
                    for b in doc["battles"]],
        "stockpile": [p.copy() for p in doc.get("stockpile", [])],
    }


def _doc_extras(m: MekRecord) -> MekExtras:
    """``mek_extras`` from a Mek in a roster document."""
    out: MekExtras = {}
    if lost := m.get("lost"):
        out["lost"] = [p["part"] for p in lost]
    if owed := m.get("owed"):
        out["owed"] = owed
    if wear := m.get("wear"):
        out["wear"] = wear
        out["heat_loss"] = heat_loss(wear, Size(m["size"]))
    return out


def show_company(session: Session, name: str) -> CompanyView:
    return company_view(session, get_company(session, name))


def delete_company(session: Session, name: str) -> tuple[str, list[int]]:
    """Delete the company and all it owns (its history stays). Returns its name and the
    unfinished plays of no campaign it was fighting, now set aside (its campaign's plays go
    with the campaign)."""
    from campaigns.in_play import set_aside_plays_of

    company = company_to_change(session, name)
    set_aside = set_aside_plays_of(session, company_id(company))
    before = roster.snapshot(session, company)
    roster.clear(session, company_id(company))
    session.add(Event(company_id=None, company_name=company.name, command="company delete",
                      summary=f"Deleted {company.name}.", before=json.dumps(before)))
    for event in session.exec(select(Event).where(Event.company_id == company.id)).all():
        event.company_id = None
        session.add(event)
    session.delete(company)
    session.flush()
    return company.name, set_aside


def history(session: Session, name: str) -> list[EventView]:
    company = get_company(session, name)
    events = session.exec(select(Event).where(Event.company_id == company.id)
                          .order_by(col(Event.id).desc())).all()
    return [event_view(e) for e in events]


def event_view(e: Event) -> EventView:
    return {"id": e.id, "at": e.created_at,
            "command": e.command, "summary": e.summary, "dice": stored_json(e, "dice"),
            "undone": e.undone, "undoes": e.undoes}


def event_concerns(event: Event, pilot: Pilot) -> bool:
    """Whether ``event`` changed ``pilot``: their record, or a muster (or its battle)
    with them in the force. Read from the event's states, by the pilot's id; the name must
    match too, as an id freed by an undone hire can be given to a later pilot. An event
    without states is matched by the pilot's name as a whole word of its summary."""
    if event.before is None or event.after is None:
        return re.search(rf"(?<!\w){re.escape(pilot.name)}(?!\w)", event.summary,
                         re.IGNORECASE) is not None
    docs = stored_json(event, "before"), stored_json(event, "after")

    def record(doc: roster.Document) -> PilotRecord | None:
        return next((p for p in doc["pilots"]
                     if p["id"] == pilot.id and fold(p["name"]) == pilot.name_key), None)

    before, after = (record(doc) for doc in docs)
    if before is None and after is None:
        return False
    if before != after:
        return True
    musters = [{json.dumps(m, sort_keys=True) for m in doc["musters"]
                if any(f["pilot"] == pilot.id for f in m["force"])} for doc in docs]
    return musters[0] != musters[1]


def _held(doc: roster.Document, muster_id: int
          ) -> tuple[MusterRecord | None, list[SupportRecord]]:
    """A muster as ``doc`` holds it, with the support results attached to it."""
    return (next((m for m in doc["musters"] if m["id"] == muster_id), None),
            [s for s in doc["support"] if s["muster"] == muster_id])


def _refuse_if_undo_takes_from_play(session: Session, company: Company, event: Event,
                                    before: roster.Document, current: roster.Document
                                    ) -> None:
    """An undo may not remove or alter a muster that an unfinished play uses (R3.3): the
    play could never be finished."""
    from campaigns.in_play import play_using

    for m in current["musters"]:
        busy = play_using(session, m["id"])
        if busy is not None and _held(before, m["id"]) != _held(current, m["id"]):
            raise Refused(f"The last change ({event.summary.rstrip('.')}) cannot be undone while "
                          f"{company.name}'s mustered force is in play {busy}, still "
                          f"unfinished; finish that battle with 'meks battle resume {busy}' "
                          "first.")


def undo(session: Session, name: str) -> Undone:
    """Revert the company's last change that is not itself an undo or already undone."""
    company = company_to_change(session, name)
    event = _last_change(session, company)
    if event is None or event.before is None:
        raise Refused(f"{company.name} has no change left to undo: what is left is its "
                      "founding, which undo does not take back; 'meks company delete "
                      f"{shell_arg(company.name)}' removes the company.")
    current = roster.snapshot(session, company)
    if event.after is not None and stored_json(event, "after") != current:
        raise Refused("The company changed after that event in a way undo cannot follow; "
                      "nothing was undone.")
    before = stored_json(event, "before")
    _refuse_if_undo_takes_from_play(session, company, event, before, current)
    roster.restore(session, company, before)
    gone = {b["id"] for b in current["battles"]} - {b["id"] for b in before["battles"]}
    for log in session.exec(select(BattleLog).where(col(BattleLog.battle_id).in_(gone))):
        session.delete(log)  # a battle undone takes its full log with it
    event.undone = True
    session.add(event)
    session.add(Event(company_id=company.id, company_name=company.name, command="undo",
                      summary=f"Undid: {event.summary}", undoes=event.id,
                      before=json.dumps(current),
                      after=json.dumps(roster.snapshot(session, company))))
    session.flush()
    then = _last_change(session, company)
    return {"undone": event.id, "command": event.command, "summary": event.summary,
            "then": None if then is None or then.before is None else then.command,
            "treasury": treasury_points(session, company)}


FOUNDING = ("company create", "roster import")
"""The commands that found a company: undo leaves them be (``company delete`` removes it)."""


def _last_change(session: Session, company: Company) -> Event | None:
    """The company's latest change that is not an undo, not undone and not its founding."""
    return session.exec(
        select(Event).where(Event.company_id == company.id, col(Event.undoes).is_(None),
                            col(Event.undone).is_(False), col(Event.command).not_in(FOUNDING))
        .order_by(col(Event.id).desc())).first()

# ---- support --------------------------------------------------------------------------------

def support_roll(session: Session, company_name: str, dice: Dice, count: int = 1,
                 catalog: Catalog | None = None) -> list[SupportResult]:
    """Roll ``count`` support rolls (R4.1) and keep them for the coming muster."""
    if count < 1:
        raise Refused("Roll at least one support roll.")
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    results: list[SupportResult] = []
    with changing(session, company, "support roll") as change:
        start = len(dice.log)
        for _ in range(count):
            result = roll_support(dice, catalog)
            session.add(SupportRoll(company_id=company_id(company), table_die=result.table_die,
                                    entry_die=result.entry_die, result=result.entry.name,
                                    points=result.points))
            results.append({"table_die": result.table_die, "entry_die": result.entry_die,
                            "table": result.table.table, "result": result.entry.name,
                            "kind": result.entry.kind.value, "effect": result.entry.effect,
                            "points": result.points})
        change.rolled(dice, start)
        change.summary = "Support: " + ", ".join(
            r["result"] + (f" (+{r['points']} points)" if r["points"] else "")
            for r in results) + "."
    return results


def support_rolls_for(session: Session, company_name: str, scenario: Scenario, side: Side
                      ) -> tuple[int, str]:
    """How many support rolls the company makes for a scenario side (R4.1): the side's
    count, plus one when a living pilot of the company has Log Hero. Asked only before
    rolling them, so the company is locked for that change already."""
    company = company_to_change(session, company_name)
    return support_granted_to(session, company, scenario.side(side).support_rolls,
                          f"the {side.value} in {scenario.name}")


def support_granted_to(session: Session, company: Company, count: int, who: str
                   ) -> tuple[int, str]:
    """``count`` support rolls granted to ``who``, plus one for a living Log Hero."""
    heroes = [p.name for p in session.exec(select(Pilot).where(
        Pilot.company_id == company.id, Pilot.status != "dead")).all()
        if "Log Hero" in stored_json(p, "skills", list)]
    return support_grant(count, who, heroes)


def support_grant(count: int, who: str, heroes: Sequence[str]) -> tuple[int, str]:
    """``count`` support rolls granted to ``who``, plus one when any of the pilots named in
    ``heroes`` (those with Log Hero, R4.2) is there; and why, in words."""
    why = f"{count} for {who}"
    if heroes:
        count += 1
        why += f", plus 1 for {heroes[0]}'s Log Hero"
    return count, why


def too_much_support(count: int, granted: int, why: str) -> str | None:
    """What is wrong with ``count`` support results for a scenario side that grants
    ``granted`` rolls (``why``: how, from ``support_grant``), or None: the words a muster
    and a force file are refused with."""
    if count <= granted:
        return None
    return (f"{count} support result{'s are' if count != 1 else ' is'} waiting but the "
            f"scenario grants {granted} ({why})")


# ---- musters (the use-case itself is campaigns.musters) -------------------------------

def waiting_muster(session: Session, company: Company) -> Muster | None:
    """The company's last muster if its battle has not been recorded yet."""
    last = session.exec(select(Muster).where(Muster.company_id == company.id)
                        .order_by(col(Muster.id).desc())).first()
    return last if last is not None and last.battle_id is None else None
