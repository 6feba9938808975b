"""Which unfinished play (``meks battle play``) holds a company's muster.

A force in play belongs to that play until its battle ends: nothing may replace the muster,
fight with it or record a battle for it meanwhile, or the play could never be finished."""

from __future__ import annotations

from sqlmodel import Session, col, select

from campaigns.stored import stored_json
from db.models import Play


def play_using(session: Session, muster_id: int | None) -> int | None:
    """The id of the unfinished play that uses this muster, if any (the oldest)."""
    if muster_id is None:
        return None
    for row in session.exec(select(Play).where(Play.status == "active")
                            .order_by(col(Play.id))).all():
        sides = stored_json(row, "spec", dict).get("sides", {}).values()
        if any(info.get("muster") == muster_id for info in sides):
            return row.id
    return None


__all__ = ["play_using"]
