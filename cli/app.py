"""The root ``meks`` command. Sub-apps are registered here; each keeps its heavy imports
inside its commands so that ``meks --help`` starts quickly.

The command modules do without ``from __future__ import annotations``: Typer reads every
command's annotations each time meks starts, and evaluates those written as strings twice
over, which took about half the time of building the command tree. Names imported only for
type checking are quoted where they annotate (ruff's TC004 finds any left bare).
"""

from typing import Any

import typer
from typer.core import TyperGroup

from cli import (
    battle_cmd,
    campaign_cmd,
    catalog_cmd,
    company_cmd,
    db_cmd,
    demo_cmd,
    design_cmd,
    mek_cmd,
    muster_cmd,
    odds_cmd,
    pilot_cmd,
    roster_cmd,
    scenario_cmd,
    support_cmd,
)
from cli.help_format import polish


class MeksGroup(TyperGroup):
    """Turns the game's errors into one clear line on stderr and the right exit code:
    1 when the rules refuse or a thing is not found, 2 for unreadable input. It also lets
    every command's help flow to the terminal's width (see ``_reflow``) and labels its
    values in words (``cli.help_format``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = (self.context_settings or {}).get("help_option_names", ["--help"])
        polish(self, names)
        _reflow_helps(self, names)

    def get_params(self, ctx: Any) -> list[Any]:
        polish(self, ctx.help_option_names)  # Typer adds the completion options late
        return super().get_params(ctx)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _refuse_control_characters(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:  # typer's own click Context
        from meks.game.errors import MeksError

        try:
            return super().invoke(ctx)
        except MeksError as exc:
            from cli.output import error

            error(exc.message)
            raise typer.Exit(exc.exit_code) from None
        except typer.Abort:  # Ctrl-C or Ctrl-D at a prompt: before anything was stored
            from cli.output import error, stderr

            stderr().print()  # the cursor is still on the prompt's line, as click knows
            error("Stopped at a prompt; nothing was changed.")
            raise typer.Exit(130) from None
        except (typer.Exit, typer.TyperException):
            raise
        except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
            import os
            import sys

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(0) from None
        except OSError as exc:
            from cli.output import error, internal_error
            from meks.game.errors import os_problem

            if exc.filename is None:  # not about a file the player named: a bug
                internal_error(exc)
                raise typer.Exit(1) from None
            # a file met where no reader of campaigns.files.reading was asked: worded as they do
            error(f"{exc.filename}: {os_problem(exc)}")
            raise typer.Exit(2) from None
        except Exception as exc:  # a bug: say so plainly, no traceback unless asked
            from cli.output import error, internal_error

            known = _database_problem(exc)
            if known is not None:  # a damaged or read-only database met outside a session
                error(known.message)
                raise typer.Exit(known.exit_code) from None
            internal_error(exc)
            raise typer.Exit(1) from None


def _refuse_control_characters(args: list[str]) -> None:
    """Nothing typed may hold a control character but a tab or a line break (names turn
    those into spaces): a NUL cannot be stored, and an escape sequence echoed back would
    take over the terminal. Checked before any command runs (exit 2)."""
    from meks.game.text import TYPED_WHITESPACE, bad_character, describe, shown

    for arg in args:
        # a byte of a file name that is not UTF-8 reads as a lone surrogate and is let by
        # (it is shown as an escape), but nothing after it is
        char = bad_character("".join(c for c in arg if not 0xD800 <= ord(c) <= 0xDFFF),
                             TYPED_WHITESPACE)
        if char is not None:
            from cli.output import error

            error(f"The argument {shown(arg)} holds {describe(char)}; what you type may hold "
                  "no control characters but tabs and line breaks, so type it without.")
            raise typer.Exit(2)


def _database_problem(exc: Exception) -> Any:
    """The player's error for a database failure that has one (``db.engine.explain``)."""
    if "sqlalchemy" not in type(exc).__module__:
        return None
    from cli.state import location
    from db.engine import explain

    return explain(exc, location())


def _reflow(text: str | None) -> str | None:
    """Help text with each paragraph on one line. Docstrings are wrapped for the source
    file, but Typer's Rich help prints their line breaks as they are, which cuts sentences
    short at any other width; joined, Rich wraps them to the terminal."""
    if not text:
        return text
    import inspect

    return "\n\n".join(" ".join(line.strip() for line in part.splitlines())
                       for part in inspect.cleandoc(text).split("\n\n"))


def _reflow_helps(group: Any, help_names: list[str]) -> None:
    for command in group.commands.values():
        command.help = _reflow(command.help)
        polish(command, help_names)
        if hasattr(command, "commands"):
            _reflow_helps(command, help_names)


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
app.add_typer(scenario_cmd.app, name="scenario")
app.add_typer(company_cmd.app, name="company")
app.add_typer(mek_cmd.app, name="mek")
app.add_typer(pilot_cmd.app, name="pilot")
app.add_typer(support_cmd.app, name="support")
app.add_typer(muster_cmd.app, name="muster")
app.add_typer(battle_cmd.app, name="battle")
app.add_typer(db_cmd.app, name="db")
app.add_typer(roster_cmd.app, name="roster")
app.add_typer(campaign_cmd.app, name="campaign")
app.command("demo")(demo_cmd.demo)
app.add_typer(odds_cmd.app, name="odds")


def _version(value: bool) -> None:
    if value:
        from meks import __version__, engine_build

        typer.echo(f"meks {__version__} ({engine_build()} engine)")
        raise typer.Exit()


@app.callback()
def root(
    db: str | None = typer.Option(
        None, "--db", metavar="PATH_OR_URL", show_default=False,
        help="Database file or URL (postgresql+psycopg://...). Default: $MEKS_DB, else "
        "meks.db in your user data folder; 'meks db path' shows which.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="Print only errors and the data asked for: no "
                               "confirmations or progress."),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Campaign manager for Meks & Mercs: companies, Meks, pilots, scenarios and battles."""
    from cli import output, state

    state.set_db(db)
    output.set_quiet(quiet)


def main() -> None:
    app()
