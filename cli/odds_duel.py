"""``meks odds duel A B``: exact odds of a single-zone duel, and the engine's Monte Carlo."""

from __future__ import annotations

import contextlib
from typing import Any

import typer

from cli.state import JSON


def duel(
    a: str = typer.Argument(..., help="The first stock Mek.", show_default=False),
    b: str = typer.Argument(..., help="The second stock Mek.", show_default=False),
    terrain: str = typer.Option("Plains", "--terrain", "-t", help="The zone's terrain."),
    pilots: str = typer.Option("Regular,Regular", "--pilots", metavar="LEVEL,LEVEL",
                               help="The two pilots' levels."),
    runs: int = typer.Option(2000, "--runs", "-n", min=1, max=10_000_000,
                             help="Monte Carlo duels fought with the engine."),
    seed: int = typer.Option(0, "--seed", min=0, max=2**63 - 1,
                             help="Run i rolls the dice of seed + i."),
    fractions: bool = typer.Option(False, "--fractions",
                                   help="Print the exact chances as fractions (offered "
                                   "for the smaller half of the pairs: the Light and Medium "
                                   "Meks, and those against a DRAKEN)."),
    as_json: bool = JSON,
) -> None:
    """Exact chances of a duel of two stock Meks, beside the same duel fought by the engine.

    Both Meks stand in one zone, play the baseline policy, start at Long range and fight
    for 12 turns; the exact chances are shown beside the same duel fought RUNS times."""
    from rich.progress import BarColumn, Progress, TextColumn

    from cli.output import print_json, quiet, show, stderr
    from meks.duel import DuelError, engine_duel, exact_duel

    levels = [p.strip() for p in pilots.split(",")]
    if len(levels) != 2 or not all(levels):
        raise DuelError("--pilots takes two levels, like Regular,Veteran.")
    working = contextlib.nullcontext() if as_json or quiet() else \
        stderr().status("Working out the exact chances", spinner="line")
    with working:  # a few seconds for the largest Meks
        exact = exact_duel(a, b, terrain, levels, exact=fractions)
    with Progress(TextColumn("Fighting"), BarColumn(), TextColumn("{task.completed}/"
                  "{task.total}"), console=stderr(), transient=True,
                  disable=as_json or quiet()) as progress:
        task = progress.add_task("duel", total=runs)
        mc = engine_duel(a, b, terrain, levels, runs=runs, seed=seed,
                         progress=lambda n: progress.advance(task, n))
    data: dict[str, Any] = {
        "a": a, "b": b, "terrain": terrain, "pilots": levels, "seed": seed,
        "exact": exact.as_floats(),
        "monte_carlo": {**mc.rates(), "runs": mc.runs, "se": mc.standard_errors()},
    }
    if as_json:
        print_json(data)
        return
    show(*_view(data, exact if fractions else None))


def _view(data: dict[str, Any], exact: Any) -> list[Any]:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    mc = data["monte_carlo"]
    head = Text(f"{data['a']} ({data['pilots'][0]}) against {data['b']} "
                f"({data['pilots'][1]}) in {data['terrain']}: one zone, from Long range, "
                "baseline policy on both sides, 12 turns", style="bold")
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("Outcome", "Exact", f"Engine ({mc['runs']} duels)", "± 1 SE"):
        table.add_column(column)
    labels = (("a", f"{data['a']} (first) wins"), ("b", f"{data['b']} (second) wins"),
              ("draw", "Draw"))
    for key, label in labels:
        table.add_row(Text(label), f"{data['exact'][key]:.4f}", f"{mc[key]:.4f}",
                      f"{mc['se'][key]:.4f}")
    out: list[Any] = [head, table]
    if exact is None:
        out.append(Text("Exact: dynamic programming over the duel's states; the decimals are "
                        "exact to float precision."))
    else:
        out.append(Text("Exact, as fractions:"))
        out.extend(Text(f"  {label}: {getattr(exact, key)}", overflow="fold")
                   for key, label in labels)
    return out
