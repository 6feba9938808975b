"""``meks muster``: choose the force for the next battle within a points budget, and print
the play sheet of the force waiting for its battle (``meks muster sheet``)."""

from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperCommand, TyperGroup

from cli.output import emit, print_json, show
from cli.state import JSON, OUTPUT, PAPER, session

if TYPE_CHECKING:
    from meks.game.scenario import Scenario
    from meks.game.vocabulary import Side

MAX_BUDGET = 10_000  # the largest budget a scenario side may have (meks.game.vocabulary.MAX_BUDGET)
SIZES = "Light, Medium, Heavy, Assault or Titan"  # meks.game.catalog.Size, here to start quickly


def scenario_side(scenario: str, side: str | None) -> "tuple[Scenario, Side]":
    """The scenario (id or file) and side named on the command line."""
    from campaigns.files.scenarios import get_scenario
    from meks.game.vocabulary import Side

    if side is None:
        raise typer.BadParameter("say which side the company takes: --side attacker or "
                                 "--side defender", param_hint="--side")
    try:
        chosen_side = Side(side.strip().lower())
    except ValueError:
        raise typer.BadParameter("use attacker or defender", param_hint="--side") from None
    return get_scenario(scenario), chosen_side


RECORD = "record"  # the hidden command that ``meks muster COMPANY MEK...`` runs


class MusterGroup(TyperGroup):
    """``meks muster COMPANY MEK...`` records a force as it always has; a first word naming
    one of the group's commands (``sheet``) runs that command instead. Help for the group
    is the help of recording a force, which names the sheet command too."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args or args[0] not in self.commands:
            shown = args[:args.index("--")] if "--" in args else args
            if any(a in ctx.help_option_names for a in shown):
                args = [ctx.help_option_names[-1]]
            else:
                args = [RECORD, *args]
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.commands[RECORD].format_help(ctx, formatter)


class _RecordContext(typer.Context):
    """Usage lines and errors of recording a force name it as typed: 'meks muster'."""

    @property
    def command_path(self) -> str:
        return super().command_path.removesuffix(f" {RECORD}")


class _RecordCommand(TyperCommand):
    context_class = _RecordContext


app = typer.Typer(cls=MusterGroup,
                  help="Choose the force for the next battle within a points budget, or "
                  "print the play sheet of the force waiting for it.",
                  context_settings={"help_option_names": ["-h", "--help"]})


@app.command(RECORD, hidden=True, cls=_RecordCommand)
def muster(
    company: str = typer.Argument(..., help="The company's name or id.", show_default=False),
    meks: list[str] = typer.Argument(..., metavar="MEK",
                                     help="Callsigns or ids of the Meks to field.",
                                     show_default=False),
    budget: int | None = typer.Option(None, "--budget", "-b", min=0, max=MAX_BUDGET,
                                      help="Points budget (when no scenario is given).",
                                      show_default=False),
    max_size: str | None = typer.Option(None, "--max-size", metavar="SIZE",
                                        help="Largest Mek size allowed: "
                                        f"{SIZES} (any case)."),
    scenario: str | None = typer.Option(None, "--scenario", "-s",
                                        help="Take budget, size limit, composition and "
                                        "provided pilots from this scenario (id or file)."),
    side: str | None = typer.Option(None, "--side", metavar="attacker|defender",
                                    help="The side the company takes (with --scenario)."),
    as_json: bool = JSON,
) -> None:
    """Check a force against a budget and size limits and record it for the next battle.

    Each Mek needs a pilot; a Regular hire's 5 points are paid at its first muster unless
    the scenario provides the pilot; Rich Uncle's points add to the budget. A muster still
    waiting for its battle is replaced.

    'meks muster sheet COMPANY' prints the play sheet of the force waiting for its battle."""
    from campaigns.musters import Limits
    from campaigns.musters import muster as do_muster
    from cli import store_views
    from meks.game.catalog import Size

    if scenario is not None:
        if budget is not None or max_size is not None:
            raise typer.BadParameter("the scenario sets the budget and size limit; leave out "
                                     "--budget and --max-size", param_hint="--scenario")
        limits = Limits.for_scenario(*scenario_side(scenario, side))
    else:
        if budget is None:
            raise typer.BadParameter("give a points budget with --budget, or a scenario with "
                                     "--scenario", param_hint="--budget")
        if side is not None:
            raise typer.BadParameter("--side goes with --scenario", param_hint="--side")
        size = None
        if max_size is not None:
            try:
                size = Size(max_size.strip().capitalize())
            except ValueError:
                raise typer.BadParameter("use Light, Medium, Heavy, Assault or Titan",
                                         param_hint="--max-size") from None
        limits = Limits.plain(budget, size)
    with session() as s:
        result = do_muster(s, company, limits, meks)
    if as_json:
        print_json(result)
    else:
        show(store_views.muster(result))


@app.command()
def sheet(
    company: str = typer.Argument(..., help="The company's name or id.", show_default=False),
    fmt: str | None = typer.Option(
        None, "--format", "-f", metavar="html|md", show_default=False,
        help="html (a page to print) or md (Markdown). Default: from the -o file's "
        "extension, else md."),
    output: str | None = OUTPUT,
    paper: str | None = PAPER,
) -> None:
    """Print the play sheet of the muster waiting for its battle.

    Its points Mek by Mek (price, hire, owed, cost); its scenario's map, set-up and victory
    conditions; each Mek mustered with its Hits, AR, heat rating (wear counted), move dice,
    weapons and systems (lost parts left out and named), its pilot's level modifiers and
    skills; the support results the muster took; and a one-page quick reference (turn,
    terrain, to hit with each pilot's modifiers, critical hits)."""

    from campaigns.roster_io import muster_sheet

    fmt = sheet_format(fmt, output)
    paper = paper_size(paper, fmt)
    with session(reads=True) as s:
        text = muster_sheet(s, company, fmt, paper)
    emit(text, output, f"{fmt} muster sheet")


SHEET_FORMATS = ("html", "md")


def sheet_format(fmt: str | None, output: str | None) -> str:
    """The sheet format asked for, else the one the output file's extension names, else md."""
    from pathlib import Path

    from campaigns.roster_io import SUFFIXES

    if fmt is None:
        found = SUFFIXES.get(Path(output).suffix.lower()) if output else None
        return found if found in SHEET_FORMATS else "md"
    if fmt.strip().lower() not in SHEET_FORMATS:
        raise typer.BadParameter(f"{fmt!r} is not a sheet format; use html or md",
                                 param_hint="--format")
    return fmt.strip().lower()


def paper_size(paper: str | None, fmt: str) -> str | None:
    """The page size asked for (a4 or letter); only an html sheet has one."""
    if paper is None:
        return None
    if paper.strip().lower() not in ("a4", "letter"):
        raise typer.BadParameter(f"{paper!r} is not a paper size; use a4 or letter",
                                 param_hint="--paper")
    if fmt != "html":
        raise typer.BadParameter("only the html sheet has a page size; add --format html",
                                 param_hint="--paper")
    return paper.strip().lower()
