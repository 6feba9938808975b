"""``meks odds duel A B``: exact odds of a single-zone duel, and the engine's Monte Carlo."""

import contextlib
from typing import Any

import typer

from cli.state import JOBS, JSON


def _two_levels(value: str) -> str:
    if len([p for p in value.split(",") if p.strip()]) != 2 or value.count(",") != 1:
        raise typer.BadParameter(f"{value!r} is not two levels; give them as LEVEL,LEVEL, "
                                 "like Regular,Veteran.")
    return value


def duel(
    a: str = typer.Argument(..., metavar="A", help="The first stock Mek.", show_default=False),
    b: str = typer.Argument(..., metavar="B", help="The second stock Mek.",
                            show_default=False),
    terrain: str = typer.Option("Plains", "--terrain", "-t",
                                help="The zone's terrain: Plains, Desert, Woods, Urban, "
                                "Highlands or Moors."),
    pilots: str = typer.Option("Regular,Regular", "--pilots", metavar="LEVEL,LEVEL",
                               callback=_two_levels,
                               help="The two pilots' levels: Green, Regular, Veteran or "
                               "Elite."),
    runs: int = typer.Option(2000, "--runs", "-n", min=1, max=10_000_000,
                             help="Monte Carlo duels fought with the engine."),
    seed: int = typer.Option(0, "--seed", min=0, max=2**63 - 1,
                             help="Run i rolls the dice of seed + i."),
    fractions: bool = typer.Option(False, "--fractions",
                                   help="Print the exact chances as fractions too "
                                   "(offered for 30 of the 45 pairs: the Light and Medium "
                                   "Meks among themselves and against a DRAKEN or a THOR, "
                                   "the WASP against any, and the DEMON, SABER and "
                                   "SAGITARII against a WARTHOG)."),
    jobs: int = JOBS,
    as_json: bool = JSON,
) -> None:
    """Exact chances of a duel of two stock Meks, beside the same duel fought by the engine.

    Both Meks stand in one zone, play the baseline policy, start at Long range and fight
    for 12 turns; the exact chances are shown beside the same duel fought RUNS times."""
    from campaigns.odds import engine_duels
    from cli.output import fight_progress, print_json, quiet, show, stderr
    from meks.analysis.duel import MonteCarlo, exact_duel
    from meks.game.catalog import load_catalog

    cat = load_catalog()  # names as the catalog prints them
    a, b = cat.design(a).name, cat.design(b).name
    terrain = cat.terrain_named(terrain).name
    levels = [cat.level(p.strip()).level for p in pilots.split(",")]
    working = contextlib.nullcontext() if as_json or quiet() or not stderr().is_terminal else \
        stderr().status("Working out the exact chances", spinner="line")
    with working:  # a few seconds for the largest Meks
        exact = exact_duel(a, b, terrain, levels, exact=fractions)
    with fight_progress(as_json, remaining=False) as progress:
        task = progress.add_task("duel", total=runs)
        mc = MonteCarlo(*engine_duels(a, b, terrain, levels, runs=runs, seed=seed, jobs=jobs,
                                      progress=lambda n: progress.advance(task, n)))
    data: dict[str, Any] = {
        "a": a, "b": b, "terrain": terrain, "pilots": levels, "seed": seed,
        "exact": exact.as_floats(),
        "monte_carlo": {**mc.rates(), "runs": mc.runs, "se": mc.standard_errors()},
    }
    if fractions:  # as text, "numerator/denominator": JSON numbers would round them
        data["exact_fractions"] = {k: str(getattr(exact, k)) for k in ("a", "b", "draw")}
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
        from rich.padding import Padding

        out.append(Text("Exact, as fractions (numerator / denominator):"))
        for key, label in labels:  # digits fold under the label, indented, at any width
            value = getattr(exact, key)
            out.append(Text(f"  {label}:"))
            out.append(Padding(Text(f"{value.numerator}\n/ {value.denominator}",
                                    overflow="fold"), (0, 0, 0, 4)))
    return out
