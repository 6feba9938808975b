"""``meks db``: where the data lives."""

from pathlib import Path

import typer

from cli.files import write_atomically
from cli.output import print_json, say
from cli.state import JSON, location

app = typer.Typer(no_args_is_help=True, help="The database in use.")


@app.command()
def path(as_json: bool = JSON) -> None:
    """Print the database in use: --db, else $MEKS_DB, else the per-user data file.

    A URL is shown without its password; one that cannot be read is an error (exit 2)."""
    from db.location import describe, to_url

    to_url(location())  # a URL that cannot be used is said now, not at the next command
    where = describe(location())
    if as_json:
        print_json({"database": where})
    else:
        typer.echo(where)


@app.command()
def check(as_json: bool = JSON) -> None:
    """Check the database: storage integrity, foreign keys and every company's history.

    Each company's state must be the one its history of events ends with, and each play's
    campaign link the campaign step it records. Exit 1 if anything is wrong."""
    from campaigns.integrity import check as run_check
    from cli.state import session
    from db.errors import DamagedDatabase, damaged

    try:
        with session(create=False, snapshot=True) as s:
            problems = run_check(s)
    except DamagedDatabase as exc:  # met opening or closing the file: the one problem
        problems = [damaged(exc.detail)]
    if as_json:
        print_json({"ok": not problems, "problems": problems})
    elif not problems:
        say("The database is sound: storage, links and every company's history agree.")
    else:
        for problem in problems:
            typer.echo(f"- {problem}", err=True)
    if problems:
        raise typer.Exit(1)


@app.command()
def backup(file: Path = typer.Argument(..., help="Where to write the backup (JSON).",
                                       show_default=False)) -> None:
    """Write a consistent backup of the whole database to FILE, even while others write.

    FILE is replaced whole. A symbolic link is refused, never written through: give the
    path of the file itself."""
    from db.backup import dump, to_text
    from db.engine import engine_for, translated

    with translated(location()):
        data = to_text(dump(engine_for(location(), create=False)))
    say(f"Backed up to {write_atomically(file, data)}.")


@app.command()
def restore(file: Path = typer.Argument(..., help="A backup made by 'meks db backup'.",
                                        show_default=False, readable=False),
            yes: bool = typer.Option(False, "--yes", "-y",
                                     help="Replace the database without asking.")) -> None:
    """Replace everything in the database with a backup (in one step: all or nothing).

    The backup is checked first, and the restored data must pass 'meks db check' before
    it replaces anything; otherwise the database stays as it was."""
    from campaigns.files.reading import BACKUP, read_json_file
    from campaigns.integrity import restore as do_restore
    from cli.state import interactive
    from db.backup import validate
    from db.engine import database_files, dispose_all, engine_for, translated
    from db.location import describe

    data = read_json_file(file, BACKUP)
    validate(data, str(file))  # before asking: a damaged backup is refused at once
    if not yes:
        if not interactive():
            typer.echo("Restoring replaces the whole database; add --yes when no one can be "
                       "asked.", err=True)
            raise typer.Exit(2)
        if not typer.confirm(f"Replace everything in {describe(location())} with {file}?"):
            typer.echo("Nothing was restored; the database is as it was.", err=True)
            raise typer.Exit(1)
    made = [f for f in database_files(location())[:1] if not f.exists()]  # a new file
    try:
        with translated(location()):
            counts = do_restore(engine_for(location()), data, str(file))
    except BaseException:
        if made:  # a restore refused into a file it made leaves no empty database behind
            dispose_all()
            for part in database_files(location()):
                part.unlink(missing_ok=True)
        raise
    from meks.game.text import plural

    say(f"Restored {plural(counts.get('company', 0), 'company', 'companies')} and "
        f"{plural(sum(counts.values()), 'row')} from {file}.")
