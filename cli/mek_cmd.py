"""``meks mek``: buy, list, rename and sell the Meks in a company's stable."""

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from cli.output import print_json, say, show
from cli.state import JSON, session

if TYPE_CHECKING:
    from meks.game.catalog import Catalog

app = typer.Typer(no_args_is_help=True,
                  help="Buy, list, rename, sell, repair, refit and overhaul Meks.")

COMPANY = typer.Argument(..., help="The company's name or id.", show_default=False)
MEK = typer.Argument(..., help="The Mek's callsign or id.", show_default=False)


@app.command()
def buy(
    company: str = COMPANY,
    design: str = typer.Argument(..., show_default=False,
                                 help="A stock design (e.g. WASP) or a design YAML file."),
    callsign: str | None = typer.Option(None, "--callsign", "-c",
                                        help="Name for the new Mek (default DESIGN-N)."),
    pricing: str = typer.Option("printed", "--pricing", metavar="printed|computed",
                                help="House rule: 'printed' or 'computed' stock prices."),
    as_json: bool = JSON,
) -> None:
    """Add a Mek to the stable.

    Stock designs cost their printed price, custom designs the price of their parts."""
    from campaigns.files.designs import load_design_file
    from campaigns.hangar import buy_mek
    from meks.game.catalog import load_catalog
    from meks.game.construction import Pricing

    try:
        rule = Pricing(pricing.lower())
    except ValueError:
        raise typer.BadParameter("use 'printed' or 'computed'", param_hint="--pricing") from None
    path = Path(design)
    catalog = load_catalog()
    custom = _is_design_file(design, catalog)
    chosen = load_design_file(path) if custom else catalog.design(design)
    with session() as s:
        mek = buy_mek(s, company, chosen, custom=custom, callsign=callsign, pricing=rule)
    if as_json:
        print_json(mek)
    else:
        held = mek.get("treasury")  # house rule treasury: what it holds now, as a sale says
        say(f"Bought {mek['callsign']} ({mek['design']}, {mek['price']} points)"
            + (f"; the treasury holds {held}." if held is not None else "."))


def _is_design_file(ref: str, catalog: "Catalog") -> bool:
    """Whether ``ref`` names a design file rather than a stock design: it ends .yaml or .yml,
    or has a folder in it; a bare name is a stock design when there is one (a file or
    folder of that name in the current folder doesn't hide it), else a file if it exists."""
    import os

    if ref.lower().endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref:
        return True
    if catalog.ix.design.find(ref) is not None:
        return False
    from campaigns.files.reading import is_file

    return is_file(ref)


@app.command("list")
def list_(company: str = COMPANY,
          all_meks: bool = typer.Option(False, "--all", help="Include sold and destroyed."),
          as_json: bool = JSON) -> None:
    """The Meks in the stable with their pilots."""
    from campaigns.hangar import list_meks
    from cli import store_views

    with session(reads=True) as s:
        rows = list_meks(s, company, all_meks=all_meks)
    if as_json:
        print_json(rows)
    else:
        show(store_views.meks(rows, "Stable"))


@app.command()
def rename(company: str = COMPANY, mek: str = MEK,
           new: str = typer.Argument(..., help="The new callsign.", show_default=False),
           as_json: bool = JSON) -> None:
    """Give a Mek a new callsign."""
    from campaigns.hangar import rename_mek

    with session() as s:
        result = rename_mek(s, company, mek, new)
    if as_json:
        print_json(result)
    elif not result["changed"]:
        say(f"{result['callsign']} already has that callsign; nothing changed.")
    else:
        say(f"Renamed to {result['callsign']}.")


@app.command()
def sell(company: str = COMPANY, mek: str = MEK, as_json: bool = JSON) -> None:
    """Sell a Mek: it leaves the stable (its record stays in the history).

    While a campaign with a treasury is under way the sale pays into it: half the Mek's
    price, less the parts it lost and the points it still owes. Otherwise it pays nothing
    (the next scenario's budget buys Meks)."""
    from typing import cast

    from campaigns.files.view_records import SoldMek
    from campaigns.hangar import sell_mek

    with session() as s:
        result = sell_mek(s, company, mek)
    if as_json:
        print_json(result)
    elif "treasury" in result:
        sold = cast("SoldMek", result)
        paid, owed = sold.get("paid", 0), sold.get("owed", 0)
        why = f"half its worth of {sold.get('worth', 0)}" + (f", less {owed} it owed"
                                                             if owed else "")
        say(f"Sold {sold['callsign']} for {paid} point{'s' * (paid != 1)} ({why}); the "
            f"treasury holds {sold.get('treasury')}.")
    else:
        say(f"Sold {result['callsign']}.")


@app.command()
def repair(company: str = COMPANY, mek: str = MEK,
           buy: bool = typer.Option(False, "--buy", help="Buy the parts the stockpile lacks, "
                                    "at their catalog price, owed at the Mek's next muster."),
           as_json: bool = JSON) -> None:
    """Replace the parts a Mek lost in battle with identical parts from the stockpile.

    Lost parts stay lost after a battle under the house rule spare_parts. Without --buy
    the repair is refused, naming every part missing, if the stockpile lacks any."""
    from campaigns.workshop import repair_mek

    with session() as s:
        result = repair_mek(s, company, mek, buy=buy)
    if as_json:
        print_json(result)
        return
    bits = []
    if result["from_stockpile"]:
        bits.append(f"{', '.join(result['from_stockpile'])} from the stockpile")
    if result["bought"]:
        n = result["cost"]
        bits.append(f"{', '.join(result['bought'])} bought for {n} point{'s' * (n != 1)}, "
                    "owed at its next muster")
    say(f"Repaired {result['mek']}: " + "; ".join(bits) + ".")


@app.command()
def refit(company: str = COMPANY, mek: str = MEK,
          design: str = typer.Argument(..., show_default=False,
                                       help="The design to rebuild it to: a stock design or "
                                       "a design YAML file, of the Mek's size."),
          as_json: bool = JSON) -> None:
    """Rebuild a Mek to another legal design with parts from the stockpile.

    The parts the new design needs beyond those the Mek carries come out of the stockpile;
    those it no longer needs go into it. The design rules apply as in 'meks design check',
    and every problem is listed at once."""
    from campaigns.files.designs import load_design_file
    from campaigns.workshop import refit_mek
    from meks.game.catalog import load_catalog

    catalog = load_catalog()
    custom = _is_design_file(design, catalog)
    chosen = load_design_file(Path(design)) if custom else catalog.design(design)
    with session() as s:
        result = refit_mek(s, company, mek, chosen, custom=custom, catalog=catalog)
    if as_json:
        print_json(result)
        return
    say(f"Refitted {result['mek']} as {result['design']} ({result['price']} points)"
        + (f"; used from the stockpile: {', '.join(result['used'])}" if result["used"] else "")
        + (f"; put into the stockpile: {', '.join(result['stored'])}"
           if result["stored"] else "") + ".")


@app.command()
def overhaul(company: str = COMPANY, mek: str = MEK,
             yes: bool = typer.Option(False, "--yes", "-y",
                                      help="Overhaul even a Mek that has lost no heat rating "
                                      "yet (it pays and mends nothing)."),
             as_json: bool = JSON) -> None:
    """Overhaul a worn Mek: its full heat rating comes back (house rule wear).

    It costs half the Mek's price, rounded up, owed at its next muster. A Mek that has not
    lost any heat rating yet is overhauled only with --yes, or when you confirm at the
    terminal."""
    from campaigns.workshop import MendsNothing, overhaul_mek
    from cli.state import interactive

    try:
        with session() as s:
            result = overhaul_mek(s, company, mek, mend_nothing=yes)
    except MendsNothing as exc:
        if not interactive():
            raise
        if not typer.confirm(exc.question):
            typer.echo("Nothing was overhauled.", err=True)
            raise typer.Exit(1) from None
        with session() as s:
            result = overhaul_mek(s, company, mek, mend_nothing=True)
    if as_json:
        print_json(result)
    else:
        say(f"Overhauled {result['mek']} for {result['cost']} points, owed at its next "
            "muster.")
