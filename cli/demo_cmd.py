"""``meks demo``: a whole solo campaign on a fresh machine, with nothing to set up."""

import typer

from cli.battle_cmd import CONTROLLER
from cli.campaign_cmd import difficulty_choice
from cli.output import show, stdout
from cli.state import session


def demo(
    seed: int | None = typer.Option(None, "--seed", min=0, max=2**63 - 1,
                                    help="Seed for the campaign (default: a new one)."),
    difficulty: str = typer.Option("normal", "--difficulty", callback=difficulty_choice,
                                   metavar="easy|normal|hard",
                                   help="How strong the enemy is: easy, normal or hard."),
    name: str = typer.Option("Demo Company", "--name", help="The new company's name."),
    controller_name: str = CONTROLLER,
) -> None:
    """Found a company and fight the six scenarios of the rules, the tool commanding both sides.

    Then print the roster and the campaign summary."""
    from rich.progress import BarColumn, Progress, TextColumn

    from campaigns.campaign import next_scenario, start_campaign
    from campaigns.campaign import status as load
    from campaigns.company import create_company, show_company, unused_company_name
    from cli import campaign_views, store_views
    from cli.state import location
    from db.location import describe

    console = stdout()
    with session() as s:
        label = unused_company_name(s, name)
        create_company(s, label)
        view = start_campaign(s, label, seed=seed, difficulty=difficulty)
    console.print(f"Founded {label} in {describe(location())}.")
    console.print(f"Campaign: {view['name']}, {view['difficulty']}, seed {view['seed']}.")
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn(
            "{task.completed}/{task.total}"), console=console, transient=True) as progress:
        task = progress.add_task("Fighting", total=len(view["plan"]))
        while True:
            with session() as s:
                if load(s, label)["status"] != "active":
                    break
                result = next_scenario(s, label, controller_name=controller_name)
            progress.console.print(campaign_views.scenario_summary(result))
            progress.advance(task)
    with session() as s:
        company = show_company(s, label)
        final = load(s, label)
    show(store_views.company(company), campaign_views.campaign_summary(final))
