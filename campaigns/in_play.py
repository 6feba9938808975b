"""Which unfinished play (``meks battle play``) holds a company's muster.

A force in play belongs to that play until its battle ends: nothing may replace the muster,
fight with it or record a battle for it meanwhile, or the play could never be finished. A
play holds its musters in its columns ``attacker_muster_id`` and ``defender_muster_id``
(written when it starts; migration 10 filled them for plays stored before)."""

from __future__ import annotations

from sqlmodel import Session, col, or_, select

from db.models import Play


def play_using(session: Session, muster_id: int | None) -> int | None:
    """The id of the unfinished play that holds this muster, if any (the oldest)."""
    if muster_id is None:
        return None
    return session.exec(
        select(Play.id).where(Play.status == "active",
                              or_(col(Play.attacker_muster_id) == muster_id,
                                  col(Play.defender_muster_id) == muster_id))
        .order_by(col(Play.id)).limit(1)).first()


__all__ = ["play_using"]
