"""``meks battle``: battles fought at the table or by the tool."""

from __future__ import annotations

import typer

from cli.output import print_json, show
from cli.state import JSON, interactive, pairs, session

app = typer.Typer(no_args_is_help=True, help="Record and fight battles.")


@app.command()
def record(
    company: str = typer.Argument(..., help="The company's name or id.", show_default=False),
    result: str = typer.Option(..., "--result", "-r", help="win, loss or draw.",
                               show_default=False),
    kills: list[str] = typer.Option([], "--kills", "-k", metavar="PILOT=N",
                                    help="Mek kills by a pilot (repeat for each pilot)."),
    destroyed: list[str] = typer.Option([], "--destroyed", "-d", metavar="MEK",
                                        help="A Mek destroyed in the battle (repeatable)."),
    dead: list[str] = typer.Option([], "--dead", metavar="PILOT",
                                   help="A pilot killed in the battle (repeatable)."),
    choose: list[str] = typer.Option([], "--choose", "-c", metavar="PILOT=SKILL",
                                     help="The skill a pilot takes if it earns one."),
    auto: bool = typer.Option(False, "--auto",
                              help="Pick earned skills by the documented priority."),
    seed: int | None = typer.Option(None, "--seed", min=0, max=2**63 - 1,
                                    help="Seed for reproducible dice."),
    as_json: bool = JSON,
) -> None:
    """Record a game played on a real table for the force last mustered, then run the
    post-battle sequence: lost Meks struck off, the rest repaired, kills and scenarios
    credited, promotions, and a new-skill roll for each surviving pilot."""
    from campaigns.postbattle import ChoicesNeeded, record_battle
    from cli import store_views
    from meks.dice import Dice

    result = result.strip().lower()
    if result not in ("win", "loss", "draw"):
        raise typer.BadParameter("use win, loss or draw", param_hint="--result")
    kill_counts = {k: int(v) for k, v in pairs(kills, "PILOT=N", as_int=True).items()}
    choices = pairs(choose, "PILOT=SKILL")
    dice_seed = Dice.from_seed(seed).seed

    def attempt() -> dict[str, object]:
        with session() as s:
            return record_battle(s, company, result, Dice.from_seed(dice_seed),
                                 kills=kill_counts, destroyed=destroyed, dead=dead,
                                 choices=choices, auto=auto)

    try:
        outcome = attempt()
    except ChoicesNeeded as needed:
        if not interactive():
            raise
        for p in needed.pending:
            typer.echo(f"{p.pilot} ({p.mek}) earned a new skill. Options: "
                       + ", ".join(p.options))
            choices[p.pilot] = typer.prompt("Skill", default=p.suggested)
        outcome = attempt()
    if as_json:
        print_json(outcome)
    else:
        show(store_views.battle_record(outcome))
