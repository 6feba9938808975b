"""``meks support``: roll for battlefield support before a muster."""

import typer

from cli.output import print_json, say, show
from cli.state import JSON, session

app = typer.Typer(no_args_is_help=True, help="Roll for battlefield support.")


@app.command()
def roll(company: str = typer.Argument(..., help="The company's name or id.",
                                       show_default=False),
         count: int | None = typer.Option(None, "--count", "-n", min=1, max=20,
                                          help="How many support rolls (default 1, or the "
                                          "scenario's number)."),
         scenario: str | None = typer.Option(None, "--scenario", "-s",
                                             help="Roll the number of rolls this scenario "
                                             "(id or file) grants the side, plus Log Hero, "
                                             "less the results already waiting."),
         side: str | None = typer.Option(None, "--side", metavar="attacker|defender",
                                         help="The company's side (with --scenario)."),
         seed: int | None = typer.Option(None, "--seed", min=0, max=2**63 - 1,
                                         help="Seed for reproducible dice."),
         as_json: bool = JSON) -> None:
    """Roll support for the company's next muster.

    The first die picks the table, the second the result; the results are kept until then."""
    from campaigns.company import support_roll
    from campaigns.musters import support_left
    from cli.muster_cmd import scenario_side
    from meks.game.dice import Dice

    why = ""
    with session() as s:
        if scenario is not None:
            if count is not None:
                raise typer.BadParameter("give either --count or --scenario",
                                         param_hint="--count")
            chosen, chosen_side = scenario_side(scenario, side)
            count, waiting, why = support_left(s, company, chosen, chosen_side)
            if not count and waiting:  # a second roll would only be refused at the muster
                from campaigns.company import Refused, get_company

                raise Refused(f"{get_company(s, company).name} has {waiting} support result"
                              f"{'s' * (waiting != 1)} waiting for its next muster already, "
                              f"as many as the scenario grants ({why}); muster with them, or "
                              "roll more with --count.")
        elif side is not None:
            raise typer.BadParameter("--side goes with --scenario", param_hint="--side")
        rows = support_roll(s, company, Dice.from_seed(seed), count or 1) if count != 0 else []
    if as_json:
        print_json(rows)
    elif not rows:
        typer.echo(f"No support rolls: {why}.")
    else:
        from cli import store_views

        if why:
            say(f"Support rolls: {why}.")
        show(store_views.support(rows))
