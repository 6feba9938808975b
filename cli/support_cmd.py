"""``meks support``: roll for battlefield support before a muster."""

from __future__ import annotations

import typer

from cli.output import print_json, show
from cli.state import JSON, session

app = typer.Typer(no_args_is_help=True, help="Roll for battlefield support.")


@app.command()
def roll(company: str = typer.Argument(..., help="The company's name or id.",
                                       show_default=False),
         count: int = typer.Option(1, "--count", "-n", min=1, max=20,
                                   help="How many support rolls."),
         seed: int | None = typer.Option(None, "--seed", min=0, max=2**63 - 1,
                                         help="Seed for reproducible dice."),
         as_json: bool = JSON) -> None:
    """Roll support: the first die picks the table, the second the result. The results wait
    for the company's next muster."""
    from campaigns.company import support_roll
    from cli import store_views
    from meks.dice import Dice

    with session() as s:
        rows = support_roll(s, company, Dice.from_seed(seed), count)
    if as_json:
        print_json(rows)
    else:
        show(store_views.support(rows))
