"""``meks muster``: choose the force for the next battle within a points budget."""

from __future__ import annotations

import typer

from cli.output import print_json, show
from cli.state import JSON, session


def muster(
    company: str = typer.Argument(..., help="The company's name or id.", show_default=False),
    meks: list[str] = typer.Argument(..., help="Callsigns or ids of the Meks to field.",
                                     show_default=False),
    budget: int = typer.Option(..., "--budget", "-b", min=0, help="Points budget.",
                               show_default=False),
    max_size: str | None = typer.Option(None, "--max-size",
                                        help="Largest Mek size allowed (e.g. Heavy)."),
    as_json: bool = JSON,
) -> None:
    """Check a force against a budget and size limit and record it for the next battle.
    Each Mek needs a pilot; a Regular hire's 5 points are paid at its first muster; Rich
    Uncle's points add to the budget."""
    from campaigns.company import Limits
    from campaigns.company import muster as do_muster
    from cli import store_views
    from meks.catalog import Size

    size = None
    if max_size is not None:
        try:
            size = Size(max_size.strip().capitalize())
        except ValueError:
            raise typer.BadParameter("use Light, Medium, Heavy, Assault or Titan",
                                     param_hint="--max-size") from None
    with session() as s:
        result = do_muster(s, company, Limits(budget=budget, max_size=size), meks)
    if as_json:
        print_json(result)
    else:
        show(store_views.muster(result))
