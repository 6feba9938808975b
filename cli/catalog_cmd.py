"""``meks catalog``: the chassis, weapons, systems, stock designs, skills and support
tables, as tables for people or JSON for scripts."""

import typer

from cli.output import print_json, show

app = typer.Typer(no_args_is_help=True, help="Look up chassis, weapons, systems, stock Meks, "
                  "skills and support tables.")

JSON = typer.Option(False, "--json", help="Print JSON instead of a table.")


@app.command()
def chassis(as_json: bool = JSON) -> None:
    """The five chassis sizes with their Hits, armor, heat, movement and mounts."""
    from meks.game.catalog import load_catalog

    catalog = load_catalog()
    if as_json:
        from cli.shapes import chassis_json

        print_json([chassis_json(c) for c in catalog.chassis])
    else:
        from cli.views import chassis_table

        show(chassis_table(catalog))


@app.command()
def weapons(as_json: bool = JSON) -> None:
    """All weapons with family, mount, range, to-hit, heat, price and special rule."""
    from meks.game.catalog import load_catalog
    from meks.game.plain import plain

    catalog = load_catalog()
    if as_json:
        print_json([plain(w) for w in catalog.weapons])
    else:
        from cli.views import weapons_table

        show(weapons_table(catalog))


@app.command()
def systems(as_json: bool = JSON) -> None:
    """All systems with their price rule, slots, sizes allowed and effect."""
    from meks.game.catalog import load_catalog

    catalog = load_catalog()
    if as_json:
        from cli.shapes import system_json

        print_json([system_json(s, catalog) for s in catalog.systems])
    else:
        from cli.views import systems_table

        show(systems_table(catalog))


@app.command()
def designs(as_json: bool = JSON) -> None:
    """The stock Meks with printed and computed prices, weapons and systems."""
    from meks.game.catalog import load_catalog
    from meks.game.construction import stock_reports

    reports = stock_reports(load_catalog())
    if as_json:
        from cli.shapes import design_json

        print_json([design_json(r) for r in reports])
    else:
        from cli.views import designs_table

        show(designs_table(reports))


@app.command()
def skills(as_json: bool = JSON) -> None:
    """The pilot skills and what each does."""
    from meks.game.catalog import load_catalog
    from meks.game.plain import plain

    catalog = load_catalog()
    if as_json:
        print_json([plain(s) for s in catalog.skills])
    else:
        from cli.views import skills_table

        show(skills_table(catalog))


@app.command()
def support(as_json: bool = JSON) -> None:
    """The three support tables: first die picks the table, second die the result."""
    from meks.game.catalog import load_catalog
    from meks.game.plain import plain

    catalog = load_catalog()
    if as_json:
        print_json([plain(t) for t in catalog.support])
    else:
        from cli.views import support_tables

        show(*support_tables(catalog))


@app.command("show")
def show_one(
    name: str = typer.Argument(..., help="A design, weapon, system, skill, chassis size or "
                               "support result; case, spaces and hyphens do not matter."),
    as_json: bool = JSON,
) -> None:
    """Everything about one design, weapon, system, skill, chassis or support result."""
    from meks.game.catalog import load_catalog

    catalog = load_catalog()
    item = catalog.find_any(name)
    if as_json:
        from cli.shapes import item_json

        print_json(item_json(item, catalog))
    else:
        from cli.views import item_panel

        show(item_panel(item, catalog))


@app.command()
def check(as_json: bool = JSON) -> None:
    """Recompute every stock Mek's price from its parts and compare it with the printed one."""
    from meks.game.catalog import load_catalog
    from meks.game.construction import stock_reports

    reports = stock_reports(load_catalog())
    if as_json:
        from cli.shapes import design_json

        print_json([design_json(r) for r in reports])
    else:
        from cli.views import check_summary, check_table

        show(check_table(reports), check_summary(reports))
