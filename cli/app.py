"""The root ``meks`` command. Sub-apps are registered here; each keeps its heavy imports
inside its commands so that ``meks --help`` starts quickly."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from cli import catalog_cmd, design_cmd


class MeksGroup(TyperGroup):
    """Turns the game's errors into one clear line on stderr and the right exit code:
    1 when the rules refuse or a thing is not found, 2 for unreadable input."""

    def invoke(self, ctx: Any) -> Any:  # typer's own click Context
        from meks.errors import MeksError

        try:
            return super().invoke(ctx)
        except MeksError as exc:
            from cli.output import error

            error(exc.message)
            raise typer.Exit(exc.exit_code) from None
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise
        except Exception as exc:  # a bug: say so plainly, no traceback unless asked
            from cli.output import internal_error

            internal_error(exc)
            raise typer.Exit(1) from None


app = typer.Typer(
    name="meks",
    cls=MeksGroup,
    help="Campaign manager for Meks & Mercs: companies, Meks, pilots, scenarios and battles.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(catalog_cmd.app, name="catalog")
app.add_typer(design_cmd.app, name="design")


def _version(value: bool) -> None:
    if value:
        from meks import __version__

        typer.echo(f"meks {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Campaign manager for Meks & Mercs: companies, Meks, pilots, scenarios and battles."""


def main() -> None:
    app()
