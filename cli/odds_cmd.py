"""``meks odds``: the chances before a battle."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from cli.output import print_json, show
from cli.state import JSON


class ScenarioFirst(TyperGroup):
    """``meks odds SCENARIO ...`` runs the ``battle`` command; named commands run as usual."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["battle", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(cls=ScenarioFirst, no_args_is_help=True,
                  help="The chances before a battle: 'meks odds SCENARIO --attacker ... "
                  "--defender ...'.")


@app.command()
def battle(
    scenario: str = typer.Argument(..., help="Scenario id or file.", show_default=False),
    attacker: str = typer.Option(..., "--attacker", "-a", metavar="COMPANY|FORCE_FILE",
                                 help="The attacking company (its muster for this scenario) "
                                 "or a force file.", show_default=False),
    defender: str = typer.Option(..., "--defender", "-d", metavar="COMPANY|FORCE_FILE",
                                 help="The defending company or a force file.",
                                 show_default=False),
    runs: int = typer.Option(1000, "--runs", "-n", min=1, max=10_000_000,
                             help="How many battles to fight."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=64,
                             help="Processes to fight them on (the answer does not change)."),
    seed: int = typer.Option(0, "--seed", min=0, max=2**63 - 1, help="Seed for the runs."),
    controller_name: str = typer.Option("baseline", "--controller",
                                        help="Who commands both sides."),
    as_json: bool = JSON,
) -> None:
    """Fight the battle many times: win, draw and loss chances with 95% intervals, the
    expected number of turns, each unit's survival rate and expected Mek kills."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from campaigns.odds import odds
    from cli.output import quiet, stderr
    from cli.state import session

    with Progress(TextColumn("Fighting"), BarColumn(), TextColumn("{task.completed}/"
                  "{task.total}"), TimeRemainingColumn(), console=stderr(), transient=True,
                  disable=as_json or quiet()) as progress:
        task = progress.add_task("odds", total=runs)
        with session() as s:
            data = odds(s, scenario, attacker, defender, runs=runs, jobs=jobs, seed=seed,
                        controller_name=controller_name,
                        progress=lambda n: progress.advance(task, n))
    if as_json:
        print_json(data)
    else:
        show(*_view(data))


def _view(data: dict[str, Any]) -> list[Any]:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    head = Text(f"{data['scenario']}: {data['runs']} battles, {data['controller']} commanding "
                f"both sides, seed {data['seed']}", style="bold")
    outcomes = Table(box=box.SIMPLE_HEAD)
    for column in ("Outcome", "Chance", "95% interval"):
        outcomes.add_column(column)
    for key, label in (("attacker", f"{data['attacker']['name']} (attacker) wins"),
                       ("defender", f"{data['defender']['name']} (defender) wins"),
                       ("draw", "Draw")):
        o = data[key]
        outcomes.add_row(Text(label), f"{o['p']:.1%}", f"{o['low']:.1%} - {o['high']:.1%}")
    units = Table(box=box.SIMPLE_HEAD)
    for column in ("Unit", "Side", "Survives", "Mek kills"):
        units.add_column(column)
    for u in data["units"]:
        units.add_row(Text(u["name"]), u["side"], f"{u['survival']:.1%}",
                      f"{u['expected_kills']:.2f}")
    return [head, outcomes, Text(f"Expected length: {data['expected_turns']:.1f} turns."),
            units]
