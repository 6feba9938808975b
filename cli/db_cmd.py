"""``meks db``: where the data lives."""

from __future__ import annotations

import typer

from cli.output import print_json
from cli.state import JSON, location

app = typer.Typer(no_args_is_help=True, help="The database in use.")


@app.command()
def path(as_json: bool = JSON) -> None:
    """Print the database in use: --db, else $MEKS_DB, else the per-user data file."""
    from db.engine import describe

    where = describe(location())
    if as_json:
        print_json({"database": where})
    else:
        typer.echo(where)
