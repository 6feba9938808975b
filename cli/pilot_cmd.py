"""``meks pilot``: hire, assign, list and show pilots."""

import typer

from cli.output import print_json, say, show
from cli.state import JSON, session

app = typer.Typer(no_args_is_help=True, help="Hire, assign and look up pilots.")

COMPANY = typer.Argument(..., help="The company's name or id.", show_default=False)
PILOT = typer.Argument(..., help="The pilot's name or id.", show_default=False)


@app.command()
def hire(company: str = COMPANY,
         name: str = typer.Argument(..., help="The new pilot's name.", show_default=False),
         regular: bool = typer.Option(False, "--regular/--green",
                                      help="Hire a Regular (5 points at the next muster) "
                                      "or a Green pilot (free, the default)."),
         as_json: bool = JSON) -> None:
    """Hire a pilot."""
    from campaigns.hangar import hire_pilot

    with session() as s:
        pilot = hire_pilot(s, company, name, regular=regular)
    if as_json:
        print_json(pilot)
    else:
        say(pilot["summary"])


@app.command()
def assign(company: str = COMPANY, pilot: str = PILOT,
           mek: str = typer.Argument(..., help="The Mek's callsign or id.", show_default=False),
           as_json: bool = JSON) -> None:
    """Put a pilot in a Mek (the Mek's previous pilot steps out)."""
    from campaigns.hangar import assign_pilot

    with session() as s:
        result = assign_pilot(s, company, pilot, mek)
    if as_json:
        print_json(result)
    else:
        say(f"{result['name']} now pilots {result['mek']}.")


@app.command("list")
def list_(company: str = COMPANY, as_json: bool = JSON) -> None:
    """The company's pilots, living and dead."""
    from campaigns.hangar import list_pilots
    from cli import store_views

    with session(reads=True) as s:
        rows = list_pilots(s, company)
    if as_json:
        print_json(rows)
    else:
        show(store_views.pilots(rows, "Pilots"))


@app.command("show")
def show_(company: str = COMPANY, pilot: str = PILOT, as_json: bool = JSON) -> None:
    """One pilot in full, with the events that concern it."""
    from campaigns.hangar import show_pilot
    from cli import store_views

    with session(reads=True) as s:
        view = show_pilot(s, company, pilot)
    if as_json:
        print_json(view)
    else:
        show(store_views.pilot(view))
