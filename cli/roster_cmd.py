"""``meks roster``: export a company's roster, import one as a new company, print the
format's JSON Schema."""

import typer

from cli.output import emit, fitted, print_json, say
from cli.state import JSON, OUTPUT, PAPER, session

app = typer.Typer(no_args_is_help=True,
                  help="Export a company's roster, import one, or show the roster format.")

FORMAT_NAMES = ("json", "yaml", "csv", "md", "html")


@app.command()
def export(
    company: str = typer.Argument(..., help="The company's name or id.", show_default=False),
    fmt: str | None = typer.Option(
        None, "--format", "-f", metavar="json|yaml|csv|md|html", show_default=False,
        help="json or yaml (can be imported again), csv (one row per Mek, for "
        "spreadsheets), md or html (a roster and play sheet to print). Default: from the -o "
        "file's extension, else json."),
    output: str | None = OUTPUT,
    paper: str | None = PAPER,
) -> None:
    """Write a company's roster: to the screen, or to a file with -o.

    md and html make a sheet to play from: for each active Mek its Hits and heat rating
    (wear counted) as boxes to tick, AR, move dice, price and points owed, every weapon
    (family, range, to hit, heat, special rule) and system (its effect), lost parts, its
    pilot's level modifiers and skills; then the pilots without a Mek, the support results
    waiting, the company's record and a one-page quick reference."""
    from pathlib import Path

    from campaigns.roster_io import IMPORTABLE, SUFFIXES, export_roster, import_caveat

    if fmt is None:
        fmt = SUFFIXES.get(Path(output).suffix.lower(), "json") if output else "json"
    fmt = fmt.lower()
    if fmt not in FORMAT_NAMES:
        raise typer.BadParameter(f"{fmt!r} is not a roster format; use one of "
                                 f"{', '.join(FORMAT_NAMES)}", param_hint="--format")
    from cli.muster_cmd import paper_size

    paper = paper_size(paper, fmt)
    with session(reads=True) as s:
        text = export_roster(s, company, fmt, paper)
        caveat = import_caveat(s, company) if fmt in IMPORTABLE else None
    emit(text, output, f"{fmt} roster")
    if caveat is not None:
        typer.echo(fitted(f"Note: {caveat}", err=True), err=True)


@app.command("import")
def import_(
    file: str = typer.Argument(..., metavar="FILE", show_default=False,
                               help="A JSON or YAML roster written by 'meks roster export' "
                               "('-' reads standard input)."),
    name: str | None = typer.Option(
        None, "--name", metavar="NEW", show_default=False,
        help="Found the company under this name instead of the one in the file."),
    as_json: bool = JSON,
) -> None:
    """Found a new company from a JSON or YAML roster (all or nothing)."""
    from pathlib import Path

    from campaigns.files.reading import ROSTER, read_stdin
    from campaigns.roster_io import import_roster, read_roster_file

    if file == "-":
        source, text = "<stdin>", read_stdin(ROSTER)
    else:
        source, text = file, read_roster_file(Path(file))
    with session() as s:
        result = import_roster(s, text, source, name=name)
    if as_json:
        print_json(result)
        return

    def n(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    say(f"Imported {result['name']} (id {result['id']}): "
               f"{n(result['meks'], 'Mek')}, {n(result['pilots'], 'pilot')}, "
               f"{n(result['support'], 'support roll')}, {n(result['musters'], 'muster')}, "
               f"{n(result['battles'], 'battle')}.")


@app.command()
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of JSON and YAML rosters."""
    from campaigns.files.roster_model import roster_json_schema

    print_json(roster_json_schema())
