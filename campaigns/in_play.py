"""Which unfinished play (``meks battle play``) holds a company's muster.

A force in play belongs to that play until its battle ends: nothing may replace the muster,
fight with it or record a battle for it meanwhile, or the play could never be finished. A
play holds its musters in its columns ``attacker_muster_id`` and ``defender_muster_id``
(written when it starts; migration 10 filled them for plays stored before)."""

from __future__ import annotations

from sqlmodel import Session, col, or_, select

from db.models import Muster, Play, PlayStatus, utcnow


def play_using(session: Session, muster_id: int | None) -> int | None:
    """The id of the unfinished play that holds this muster, if any (the oldest)."""
    if muster_id is None:
        return None
    return session.exec(
        select(Play.id).where(Play.status == PlayStatus.ACTIVE,
                              or_(col(Play.attacker_muster_id) == muster_id,
                                  col(Play.defender_muster_id) == muster_id))
        .order_by(col(Play.id)).limit(1)).first()


def set_aside_plays_of(session: Session, company_id: int) -> list[int]:
    """End, with no battle stored, the unfinished plays of no campaign that hold a muster of
    this company (which is being deleted, so they could never be finished): each keeps its
    record, marked "set aside", and the other side's force is free again. Returns their ids.
    (A campaign's plays are the company's own and go with its campaign.)"""
    musters = select(Muster.id).where(Muster.company_id == company_id)
    rows = session.exec(
        select(Play).where(Play.status == PlayStatus.ACTIVE, col(Play.campaign_id).is_(None),
                           or_(col(Play.attacker_muster_id).in_(musters),
                               col(Play.defender_muster_id).in_(musters)))
        .order_by(col(Play.id))).all()
    for row in rows:
        row.status = PlayStatus.FINISHED
        row.result = "set aside"
        row.updated_at = utcnow()
        session.add(row)
    session.flush()
    return [row.id for row in rows if row.id is not None]


__all__ = ["play_using", "set_aside_plays_of"]
