"""``meks scenario``: list, show and check scenarios, and print their JSON Schema."""

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from cli.output import error, print_json, show, stderr

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

    from campaigns.files.scenarios import ScenarioEntry
    from meks.game.scenario import Scenario

app = typer.Typer(no_args_is_help=True, help="The scenarios: list them, show one, check a "
                  "scenario file you wrote, print the file format's JSON Schema.")

JSON = typer.Option(False, "--json", help="Print JSON instead of tables.")


@app.command("list")
def list_scenarios(as_json: bool = JSON) -> None:
    """The built-in scenarios and your own (files in your scenarios folder)."""
    from campaigns.files.scenarios import discover, user_scenarios_dir

    entries = discover()
    usable = [e for e in entries if e.scenario is not None]
    if as_json:
        print_json([_entry_json(e) for e in usable])
    else:
        from rich.text import Text

        from meks.game.text import printable

        show(_list_table(usable),
             Text(f"Your own scenarios go in {printable(str(user_scenarios_dir()))}"))
    for entry in entries:
        if entry.error is not None:
            first = entry.error.problems[0] if entry.error.problems else entry.error.message
            warn(f"{entry.file} was left out: {first}. Run 'meks scenario check "
                 f"{entry.file}' to see every problem.")


@app.command("show")
def show_scenario(
    scenario: str = typer.Argument(..., help="A scenario id (see 'meks scenario list') or the "
                                   "path of a scenario file.", show_default=False),
    as_json: bool = JSON,
) -> None:
    """The briefing, both sides' forces, the map and how each side wins."""
    from campaigns.files.scenarios import find_scenario

    entry = find_scenario(scenario)
    assert entry.scenario is not None
    if as_json:
        print_json(_scenario_json(entry.scenario, entry))
    else:
        show(*_scenario_view(entry.scenario))


@app.command()
def check(
    file: str = typer.Argument(..., help="The scenario file to check (a built-in id works "
                               "too).", show_default=False),
    as_json: bool = JSON,
) -> None:
    """Check a scenario file and name every problem with its line.

    Exit 0 with a summary when the file is valid; exit 2 listing each problem with the file,
    the line and the reason. With --json, the same as JSON: "valid", and the scenario as
    'scenario show --json' gives it, or "problems"."""
    from campaigns.files.scenario_model import scenario_data
    from campaigns.files.scenarios import check_scenario_file
    from meks.game.errors import InputError, listed

    try:
        summary = check_scenario_file(file)
    except InputError as exc:
        problems = listed(exc.problems, exc.unlisted)
        if as_json:
            print_json({"file": exc.source, "valid": False, "problems": problems})
        else:
            for problem in problems:  # worded as every unreadable file is: 'FILE: line N: ...'
                error(f"{exc.source}: {problem}")
        raise typer.Exit(2) from None
    if as_json:
        data: dict[str, Any] = {"file": summary.file, "valid": True}
        data.update(scenario_data(summary.scenario))
        data["assumed"] = list(summary.scenario.assumptions)
        data["house_rules_changed"] = summary.scenario.house_rules.changed()
        if summary.note:
            data["note"] = summary.note
        print_json(data)
        return
    typer.echo("\n".join(summary.lines()))


@app.command()
def schema() -> None:
    """Print the JSON Schema of scenario files (for editors and validators)."""
    from campaigns.files.scenario_model import scenario_json_schema

    print_json(scenario_json_schema())


def warn(message: str) -> None:
    from rich.markup import escape

    from meks.game.text import printable

    stderr().print(f"[yellow]Warning:[/yellow] {escape(printable(message))}", highlight=False)


# ---- views -------------------------------------------------------------------------------

def _entry_json(entry: "ScenarioEntry") -> dict[str, Any]:
    s = entry.scenario
    assert s is not None
    return {"id": s.id, "name": s.name, "origin": entry.origin.value, "file": entry.file,
            "turn_limit": s.turn_limit, "attacker_budget": s.attacker.budget,
            "defender_budget": s.defender.budget}


def _scenario_json(scenario: "Scenario", entry: "ScenarioEntry") -> dict[str, Any]:
    from campaigns.files.scenario_model import scenario_data

    data: dict[str, Any] = scenario_data(scenario)
    data["assumed"] = list(scenario.assumptions)
    data["origin"] = entry.origin.value
    data["file"] = entry.file
    return data


def _list_table(entries: "list[ScenarioEntry]") -> "RenderableType":
    """One row a scenario; points are the attacker's / the defender's budget. A file of
    your own is named from your scenarios folder (printed below the table) and folded
    over lines rather than cut."""
    from rich import box
    from rich.table import Table

    from campaigns.files.scenarios import user_scenarios_dir

    folder = user_scenarios_dir()
    table = Table(title="Scenarios", box=box.SIMPLE_HEAD, title_justify="left", expand=False)
    table.add_column("Id", no_wrap=True)
    table.add_column("Name")
    table.add_column("Turns", justify="right")
    table.add_column("Points", no_wrap=True)
    table.add_column("From", overflow="fold", min_width=12)
    for entry in entries:
        s = entry.scenario
        assert s is not None
        table.add_row(s.id, s.name, str(s.turn_limit),
                      f"{s.attacker.budget} / {s.defender.budget}",
                      "built-in" if entry.origin.value == "built-in"
                      else _from_folder(entry.file, folder))
    return table


def _from_folder(file: str, folder: Path) -> "Text":
    """``file`` as a path inside ``folder`` when it is there, else in full; shown as it is
    (no markup), any byte that could drive the terminal written as its escape."""
    from rich.text import Text

    from meks.game.text import printable

    try:
        return Text(printable(str(Path(file).relative_to(folder))))
    except ValueError:
        return Text(printable(file))


def _marks(scenario: "Scenario", zone: int) -> list[str]:
    from rich.markup import escape

    from campaigns.reports.briefing import zone_marks
    from meks.game.vocabulary import Side

    colour = {Side.ATTACKER: "red", Side.DEFENDER: "blue"}
    return [f"[{colour[m.side]}]{escape(m.text)}[/]" if m.side else escape(m.text)
            for m in zone_marks(scenario, zone)]


def _map(scenario: "Scenario") -> "RenderableType":
    from rich import box
    from rich.table import Table

    table = Table(title="Map (north is up)", box=box.SQUARE, show_header=False,
                  show_lines=True, title_justify="left", expand=False)
    for _ in range(3):
        table.add_column(min_width=18, vertical="top")
    for row in range(3):
        cells = []
        for col in range(3):
            zone = row * 3 + col + 1
            lines = [f"[bold]{zone}[/bold] {scenario.terrain_of(zone)}", *_marks(scenario, zone)]
            cells.append("\n".join(lines))
        table.add_row(*cells)
    return table


def _forces(scenario: "Scenario") -> "RenderableType":
    from rich import box
    from rich.table import Table

    from meks.game.catalog import grouped
    from meks.game.vocabulary import Side

    table = Table(title="Forces", box=box.SIMPLE_HEAD, title_justify="left", expand=False)
    table.add_column("")
    table.add_column("Attacker")
    table.add_column("Defender")

    def row(label: str, values: list[str]) -> None:
        if any(v != "-" for v in values):
            table.add_row(label, *values)

    sides = [scenario.side(side) for side in Side]
    row("Budget", [f"{r.budget} points" for r in sides])
    row("Largest Mek", [r.max_size.value if r.max_size else "any" for r in sides])
    row("Meks", [", ".join(f"{n} {size.value}" for size, n in r.composition.items())
                 if r.composition else "-" for r in sides])
    row("Pilots provided", [grouped([lv for lv, n in r.pilots.items() for _ in range(n)])
                            if r.pilots else "-" for r in sides])
    row("Support rolls", [str(r.support_rolls) for r in sides])
    row("Set-up", [r.setup.describe() if r.setup else "-" for r in sides])
    row("Arrivals", [r.reinforcements.describe() if r.reinforcements else "-" for r in sides])
    row("Strongpoints", ["; ".join(s.describe() for s in r.strongpoints) or "-"
                         for r in sides])
    row("May exit", ["; ".join(e.describe() for e in r.exits) or "-" for r in sides])
    return table


def _scenario_view(scenario: "Scenario") -> "list[RenderableType]":
    from rich.markup import escape
    from rich.panel import Panel
    from rich.text import Text

    from meks.game.vocabulary import Side

    head = Panel(Text(scenario.briefing.strip() or "(no briefing)"),
                 title=f"{escape(scenario.name)} ({scenario.id}), {scenario.turn_limit} turns",
                 title_align="left", expand=False)
    from campaigns.reports.briefing import turn_limit_text, wins_text

    lines = [f"[bold]{side.value.capitalize()}[/bold] {escape(wins_text(scenario, side))}."
             for side in Side]
    lines.append(f"[bold]At the turn limit[/bold] otherwise: {turn_limit_text(scenario)}.")
    if scenario.changes:
        lines.append("[bold]Changed from the printed scenario:[/bold] "
                     + escape("; ".join(scenario.changes)) + ".")
    out: list[RenderableType] = [head, _forces(scenario), _map(scenario), "\n".join(lines)]
    changed = scenario.house_rules.changed()
    if changed:
        out.append("[bold]House rules:[/bold] " + escape(", ".join(changed)))
    if scenario.assumptions:
        out.append("[dim]Assumed (filled in where the source is silent): "
                   + escape(", ".join(scenario.assumptions)) + "[/dim]")
    return out
