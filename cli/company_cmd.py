"""``meks company``: found, list, show, delete companies; their history and undo."""

import typer

from cli.output import print_json, say, show
from cli.state import JSON, interactive, session
from meks.game.text import plural

app = typer.Typer(no_args_is_help=True, help="Found and manage mercenary companies.")

NAME = typer.Argument(..., help="The company's name (any case) or id.", show_default=False)


@app.command()
@app.command("found", hidden=True)  # the verb its help uses
def create(name: str = typer.Argument(..., help="The new company's name.", show_default=False),
           as_json: bool = JSON) -> None:
    """Found a new company with an empty stable and roster."""
    from campaigns.company import create_company

    with session() as s:
        view = create_company(s, name)
    if as_json:
        print_json(view)
    else:
        say(f"Founded {view['name']} (id {view['id']}).")


@app.command("list")
def list_(as_json: bool = JSON) -> None:
    """Every company in the database."""
    from campaigns.company import list_companies
    from cli import store_views
    from db.errors import NoDatabase

    try:
        with session(reads=True) as s:
            rows = list_companies(s)
    except NoDatabase:  # none yet: listing makes none (the first change does)
        rows = []
    if as_json:
        print_json(rows)
    else:
        show(store_views.companies(rows))


@app.command("show")
def show_(name: str = NAME, as_json: bool = JSON) -> None:
    """A company's stable, pilots, waiting support and last muster."""
    from campaigns.company import show_company
    from cli import store_views

    with session(reads=True) as s:
        view = show_company(s, name)
    if as_json:
        print_json(view)
    else:
        show(store_views.company(view))


@app.command()
def delete(name: str = NAME,
           yes: bool = typer.Option(False, "--yes", "-y", help="Delete without asking.")
           ) -> None:
    """Delete a company and everything it owns (its history is kept)."""
    from campaigns.company import delete_company, get_company

    if not yes:
        with session(reads=True) as s:
            label = get_company(s, name).name
        if not interactive():
            typer.echo(f"Deleting {label} needs --yes when no one can be asked.", err=True)
            raise typer.Exit(2)
        if not typer.confirm(f"Delete {label} and all its Meks, pilots and battles?"):
            typer.echo(f"Kept {label}; nothing was deleted.", err=True)
            raise typer.Exit(1)
    with session(create=False) as s:
        deleted, set_aside = delete_company(s, name)
    say(f"Deleted {deleted}.")
    for play_id in set_aside:
        say(f"Play {play_id}, which {deleted} was fighting, can never be finished now: it is "
            "set aside (its record is kept, with no battle stored), and the other side's "
            "force is free again.")


@app.command()
def history(name: str = NAME, as_json: bool = JSON) -> None:
    """Every change to the company, newest first, with the dice that caused it."""
    from campaigns.company import get_company
    from campaigns.company import history as load_history
    from cli import store_views

    with session(reads=True) as s:
        label = get_company(s, name).name
        events = load_history(s, name)
    if as_json:
        print_json(events)
    else:
        show(store_views.history(events, label))


@app.command()
def undo(name: str = NAME, as_json: bool = JSON) -> None:
    """Revert the company's last change exactly (the undo itself is recorded too)."""
    from campaigns.company import undo as undo_last

    with session(create=False) as s:
        result = undo_last(s, name)
    if as_json:
        print_json(result)
    else:
        say(f"Undid {result['command']}: {result['summary']}")
        if result["treasury"] is not None:  # the summary's treasury was the change's
            say(f"The treasury now holds {plural(result['treasury'], 'point')}.")
        if result["command"] == "campaign next" and result["then"] == "battle":
            say("The campaign is back at that step; its battle and what was done getting "
                "ready for it are changes of their own, still standing: undo again to take "
                "them back one by one.")
