"""Changes to one company take turns.

Every change to a company first locks that company's row for the rest of its transaction
(``lock_company``). A second change to the same company, from any process, waits there
until the first has committed or rolled back, and only then reads the company, so the state
it starts from (and records as an event's "before") is the one the first change left.

On PostgreSQL the lock is ``SELECT ... FOR NO KEY UPDATE``: it excludes every other change
to the row's company, yet lets rows elsewhere be inserted that point at it. SQLite has no
row locks and needs none: every transaction there that may write begins with ``BEGIN
IMMEDIATE`` and so already holds the whole database's write lock (``db.engine``); the same
call just reads the row there.
"""

from __future__ import annotations

from sqlmodel import Session, select

from db.models import Company

_HELD = "meks.locked_companies"


def held(session: Session) -> set[int]:
    """The ids of the companies locked in the session's current transaction."""
    session.connection()  # make sure the transaction has begun
    current = session.get_transaction()
    kept = session.info.get(_HELD)
    if kept is None or kept[0] is not current:
        kept = session.info[_HELD] = (current, set())
    ids: set[int] = kept[1]
    return ids


def lock_company(session: Session, company_id: int) -> Company | None:
    """Lock the company's row until the transaction ends and read it afresh; None when
    it no longer exists (deleted meanwhile). Locking a company twice costs nothing.

    Objects the session loaded before the lock may have been changed by the change it
    waited for; they are expired here so that they are read again (those with changes of
    this session not yet written are kept)."""
    ids = held(session)
    if company_id in ids:
        return session.get(Company, company_id)
    row = session.exec(select(Company).where(Company.id == company_id)
                       .with_for_update(key_share=True)
                       .execution_options(populate_existing=True)).first()
    if row is None:
        return None
    ids.add(company_id)
    dirty = session.dirty
    for obj in list(session.identity_map.values()):
        if obj is not row and obj not in dirty and obj not in session.deleted:
            session.expire(obj)
    return row


def mark_locked(session: Session, company_id: int) -> None:
    """Count a company this transaction has just created as locked: no other transaction
    can see it before this one commits."""
    held(session).add(company_id)


__all__ = ["held", "lock_company", "mark_locked"]
