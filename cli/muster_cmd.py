"""``meks muster``: choose the force for the next battle within a points budget."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from cli.output import print_json, show
from cli.state import JSON, session

if TYPE_CHECKING:
    from meks.scenario import Scenario, Side

MAX_BUDGET = 10_000  # the largest budget a scenario side may have (meks.scenario.MAX_BUDGET)
SIZES = "Light, Medium, Heavy, Assault or Titan"  # meks.catalog.Size, here to start quickly


def scenario_side(scenario: str, side: str | None) -> tuple[Scenario, Side]:
    """The scenario (id or file) and side named on the command line."""
    from campaigns.scenarios import get_scenario
    from meks.scenario import Side

    if side is None:
        raise typer.BadParameter("say which side the company takes: --side attacker or "
                                 "--side defender", param_hint="--side")
    try:
        chosen_side = Side(side.strip().lower())
    except ValueError:
        raise typer.BadParameter("use attacker or defender", param_hint="--side") from None
    return get_scenario(scenario), chosen_side


def muster(
    company: str = typer.Argument(..., help="The company's name or id.", show_default=False),
    meks: list[str] = typer.Argument(..., metavar="MEK",
                                     help="Callsigns or ids of the Meks to field.",
                                     show_default=False),
    budget: int | None = typer.Option(None, "--budget", "-b", min=0, max=MAX_BUDGET,
                                      help="Points budget (when no scenario is given).",
                                      show_default=False),
    max_size: str | None = typer.Option(None, "--max-size", metavar="SIZE",
                                        help="Largest Mek size allowed: "
                                        f"{SIZES} (any case)."),
    scenario: str | None = typer.Option(None, "--scenario", "-s",
                                        help="Take budget, size limit, composition and "
                                        "provided pilots from this scenario (id or file)."),
    side: str | None = typer.Option(None, "--side", metavar="attacker|defender",
                                    help="The side the company takes (with --scenario)."),
    as_json: bool = JSON,
) -> None:
    """Check a force against a budget and size limits and record it for the next battle.

    Each Mek needs a pilot; a Regular hire's 5 points are paid at its first muster unless
    the scenario provides the pilot; Rich Uncle's points add to the budget. A muster still
    waiting for its battle is replaced."""
    from campaigns.company import Limits
    from campaigns.company import muster as do_muster
    from cli import store_views
    from meks.catalog import Size

    if scenario is not None:
        if budget is not None or max_size is not None:
            raise typer.BadParameter("the scenario sets the budget and size limit; leave out "
                                     "--budget and --max-size", param_hint="--scenario")
        limits = Limits.for_scenario(*scenario_side(scenario, side))
    else:
        if budget is None:
            raise typer.BadParameter("give a points budget with --budget, or a scenario with "
                                     "--scenario", param_hint="--budget")
        if side is not None:
            raise typer.BadParameter("--side goes with --scenario", param_hint="--side")
        size = None
        if max_size is not None:
            try:
                size = Size(max_size.strip().capitalize())
            except ValueError:
                raise typer.BadParameter("use Light, Medium, Heavy, Assault or Titan",
                                         param_hint="--max-size") from None
        limits = Limits.plain(budget, size)
    with session() as s:
        result = do_muster(s, company, limits, meks)
    if as_json:
        print_json(result)
    else:
        show(store_views.muster(result))
