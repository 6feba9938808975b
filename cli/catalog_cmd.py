"""``meks catalog``: the chassis, weapons, systems, stock designs, skills and support
tables, as tables for people or JSON for scripts."""

from __future__ import annotations

import typer

from cli.output import print_json, show

app = typer.Typer(no_args_is_help=True, help="Look up chassis, weapons, systems, stock Meks, "
                  "skills and support tables.")

JSON = typer.Option(False, "--json", help="Print JSON instead of a table.")


@app.command()
def chassis(as_json: bool = JSON) -> None:
    """The five chassis sizes with their Hits, armor, heat, movement and mounts."""
    from cli import views
    from meks.catalog import load_catalog

    catalog = load_catalog()
    if as_json:
        print_json([views.chassis_json(c) for c in catalog.chassis])
    else:
        show(views.chassis_table(catalog))


@app.command()
def weapons(as_json: bool = JSON) -> None:
    """All weapons with family, mount, range, to-hit, heat, price and special rule."""
    from cli import views
    from meks.catalog import load_catalog
    from meks.plain import plain

    catalog = load_catalog()
    if as_json:
        print_json([plain(w) for w in catalog.weapons])
    else:
        show(views.weapons_table(catalog))


@app.command()
def systems(as_json: bool = JSON) -> None:
    """All systems with their price rule, slots, sizes allowed and effect."""
    from cli import views
    from meks.catalog import load_catalog

    catalog = load_catalog()
    if as_json:
        print_json([views.system_json(s) for s in catalog.systems])
    else:
        show(views.systems_table(catalog))


@app.command()
def designs(as_json: bool = JSON) -> None:
    """The stock Meks with printed and computed prices, weapons and systems."""
    from cli import views
    from meks.catalog import load_catalog
    from meks.construction import stock_reports

    reports = stock_reports(load_catalog())
    if as_json:
        print_json([views.design_json(r) for r in reports])
    else:
        show(views.designs_table(reports))


@app.command()
def skills(as_json: bool = JSON) -> None:
    """The pilot skills and what each does."""
    from cli import views
    from meks.catalog import load_catalog
    from meks.plain import plain

    catalog = load_catalog()
    if as_json:
        print_json([plain(s) for s in catalog.skills])
    else:
        show(views.skills_table(catalog))


@app.command()
def support(as_json: bool = JSON) -> None:
    """The three support tables: first die picks the table, second die the result."""
    from cli import views
    from meks.catalog import load_catalog
    from meks.plain import plain

    catalog = load_catalog()
    if as_json:
        print_json([plain(t) for t in catalog.support])
    else:
        show(*views.support_tables(catalog))


@app.command("show")
def show_one(
    name: str = typer.Argument(..., help="A design, weapon, system, skill, chassis size or "
                               "support result; case, spaces and hyphens do not matter."),
    as_json: bool = JSON,
) -> None:
    """Everything about one design, weapon, system, skill, chassis or support result."""
    from cli import views
    from meks.catalog import load_catalog

    catalog = load_catalog()
    item = catalog.find_any(name)
    if as_json:
        print_json(views.item_json(item, catalog))
    else:
        show(views.item_panel(item, catalog))


@app.command()
def check(as_json: bool = JSON) -> None:
    """Recompute every stock Mek's price from its parts and compare it with the printed one."""
    from cli import views
    from meks.catalog import load_catalog
    from meks.construction import stock_reports

    reports = stock_reports(load_catalog())
    if as_json:
        print_json([views.design_json(r) for r in reports])
    else:
        show(views.check_table(reports), views.check_summary(reports))
