"""``meks design``: custom Mek designs described in YAML."""

from pathlib import Path

import typer

from cli.output import error, print_json, show

app = typer.Typer(no_args_is_help=True, help="Check custom Mek designs written in YAML.")


@app.command()
def check(
    file: Path = typer.Argument(..., help="A YAML file with name, size, weapons and systems.",
                                show_default=False, readable=False),  # said by the reader
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Check a custom design against the construction rules and price it.

    Every problem is listed, not just the first. Exit 0 when the design is legal, 1 when it
    breaks a rule, 2 when the file cannot be read.
    """
    from campaigns.files.designs import load_design_file
    from meks.game.catalog import load_catalog
    from meks.game.construction import check_design

    catalog = load_catalog()
    report = check_design(load_design_file(file), catalog)
    if as_json:
        from cli.shapes import design_json

        print_json(design_json(report))
    else:
        from cli.views import design_problems, design_report

        show(design_report(report))
        if not report.legal:
            error(design_problems(report))
    if not report.legal:
        raise typer.Exit(1)
