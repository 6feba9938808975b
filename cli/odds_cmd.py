"""``meks odds``: the chances before a battle."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from cli import odds_duel
from cli.battle_cmd import ATTACKER, CONTROLLER, DEFENDER, controller_option
from cli.output import print_json, say, show
from cli.state import JOBS, JSON

if TYPE_CHECKING:
    from sqlmodel import Session

    from campaigns.files.odds_records import BattleOdds, Ladder, SkillGains


class ScenarioFirst(TyperGroup):
    """``meks odds SCENARIO ...`` runs the ``battle`` command; named commands run as usual."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["battle", *args]
        return super().parse_args(ctx, args)


SEED = typer.Option(0, "--seed", min=0, max=2**63 - 1, help="Seed for the runs.")


@contextmanager
def _companies_read(sides: list[str]) -> Iterator["Session | None"]:
    """The database read for the sides given as companies, without writing to it (the
    odds store nothing); none at all when every side is a force file, so that odds between
    force files make no database, as 'battle auto' between them makes none."""
    from campaigns.battles import is_force_file
    from cli.state import session

    if all(is_force_file(side) for side in sides):
        yield None
        return
    with session(reads=True) as s:
        yield s

app = typer.Typer(cls=ScenarioFirst, no_args_is_help=True,
                  help="The chances before a battle: 'meks odds SCENARIO --attacker ... "
                  "--defender ...'.")


@app.command()
def battle(
    scenario: str = typer.Argument(..., help="Scenario id or file.", show_default=False),
    attacker: str = ATTACKER,
    defender: str = DEFENDER,
    runs: int | None = typer.Option(None, "--runs", "-n", min=1, max=10_000_000,
                                    help="How many battles to fight (default: 400 with the "
                                    "bot, 1000 with the baseline).", show_default=False),
    jobs: int = JOBS,
    seed: int = SEED,
    controller_name: str = CONTROLLER,
    as_json: bool = JSON,
) -> None:
    """Fight the battle many times and give the chances of each result.

    Win, draw and loss chances with 95% intervals, the expected number of turns, each unit's
    survival rate and expected Mek kills. The bot commands both sides by default: the opponent
    every battle you fight meets."""
    from campaigns.odds import default_runs, odds
    from cli.output import fight_progress

    runs = default_runs(controller_name) if runs is None else runs
    with fight_progress(as_json) as progress:
        task = progress.add_task("odds", total=runs)
        with _companies_read([attacker, defender]) as s:
            data = odds(s, scenario, attacker, defender, runs=runs, jobs=jobs, seed=seed,
                        controller_name=controller_name,
                        progress=lambda n: progress.advance(task, n))
    if as_json:
        print_json(data)
    else:
        show(*_view(data))

TERRAIN_HELP = ("A terrain to fight on: Plains, Desert, Woods, Urban, Highlands or Moors "
                "(repeat for several); every terrain when none is given.")


def _picture_file(value: Path | None) -> Path | None:
    """A chart file's name, checked before the duels are fought: its ending, then where it
    goes (``writable_target``)."""
    from cli.files import writable_target
    from cli.odds_plot import FORMATS

    if value is None:
        return None
    if value.suffix.lower() not in FORMATS:  # ".svg" alone is a hidden file with no ending
        raise typer.BadParameter(f"{value} is not a file name ending .svg or .png; give one "
                                 "such as ladder.svg (a drawing) or ladder.png (an image).")
    return writable_target(value)


@app.command()
def ladder(
    runs: int = typer.Option(200, "--runs", "-n", min=1, max=1_000_000,
                             help="Duels for each pair of Meks on each terrain (half with "
                             "each Mek as the attacker)."),
    terrain: list[str] = typer.Option([], "--terrain", "-t", metavar="TERRAIN", help=TERRAIN_HELP,
                                      show_default=False),
    jobs: int = JOBS,
    seed: int = SEED,
    plot: Path | None = typer.Option(None, "--plot", metavar="FILE", callback=_picture_file,
                                     help="Also draw win rate per point as a bar chart in "
                                     "this file: SVG or PNG, by its ending.",
                                     show_default=False),
    controller_name: str = controller_option("baseline"),
    as_json: bool = JSON,
) -> None:
    """A round-robin of the nine stock Meks in duels, on each terrain.

    A duel is two Meks alone in one zone, Regular pilots, last Mek standing, 12 turns. Each
    Mek's win rate (draws count as half a win) overall and per terrain, and its win rate per
    point of price. The baseline commands both Meks by default: its duels are the ones 'meks
    odds duel' solves exactly, and the bot is about ten times slower in a duel."""
    from campaigns.odds import ladder as fight_ladder
    from campaigns.odds import ladder_terrains
    from cli.files import write_atomically
    from cli.odds_plot import ladder_picture

    grounds = ladder_terrains(terrain)
    total = len(grounds) * runs * 36
    with _progress(as_json, total) as advance:
        data = fight_ladder(grounds, runs=runs, jobs=jobs, seed=seed, progress=advance,
                            controller_name=controller_name)
    if plot is not None:
        written = write_atomically(plot, ladder_picture(data, plot.suffix))
    if as_json:
        print_json(data)
    else:
        show(*_ladder_view(data))
        if plot is not None:
            say(f"Chart written to {written}.")


def _side_name(value: str) -> str:
    if value.lower() not in ("attacker", "defender"):
        raise typer.BadParameter(f"{value!r} is not a side; give attacker or defender.")
    return value.lower()


@app.command()
def skill(
    pilot_or_force: str = typer.Argument(..., metavar="PILOT_OR_FORCE",
                                         help="COMPANY:PILOT (a pilot in the company's muster "
                                         "for the scenario, by name or id, or its Mek's "
                                         "callsign; a name may hold colons) or a force "
                                         "file.",
                                         show_default=False),
    scenario: str = typer.Option(..., "--scenario", "-s", help="Scenario id or file.",
                                 show_default=False),
    side: str = typer.Option(..., "--side", metavar="attacker|defender",
                             callback=_side_name, help="The side the pilot fights on.",
                             show_default=False),
    against: str | None = typer.Option(None, "--against", metavar="FORCE_FILE",
                                       help="The opposing force; by default the bot's normal "
                                       "muster for the other side, Regular pilots.",
                                       show_default=False),
    pilot: str | None = typer.Option(None, "--pilot", help="With a force file: the pilot (or "
                                     "Mek callsign) choosing a skill; the first by default.",
                                     show_default=False),
    runs: int | None = typer.Option(None, "--runs", "-n", min=2, max=10_000_000,
                                    help="Battles for each variant, the same seeds for every "
                                    "one (default: 200 with the bot, 1000 with the "
                                    "baseline).", show_default=False),
    jobs: int = JOBS,
    seed: int = SEED,
    controller_name: str = CONTROLLER,
    as_json: bool = JSON,
) -> None:
    """How much each skill the pilot could take would change its side's win chance.

    The side's win chance with the force as it is, then with each skill the pilot does not
    hold added, and the gain with its 95% interval (every variant fights on the same dice).
    The bot commands both sides by default."""
    from campaigns.odds import skill_gains, skill_pilot
    from meks.game.vocabulary import Side

    skill_pilot(pilot_or_force, pilot)  # bad usage is said before the database is opened
    with _progress(as_json, None) as advance, \
            _companies_read([pilot_or_force] + ([] if against is None else [against])) as s:
        data = skill_gains(s, pilot_or_force, scenario, Side(side), against=against,
                           pilot=pilot, runs=runs, jobs=jobs, seed=seed,
                           controller_name=controller_name, progress=advance,
                           total=advance.total)
    if as_json:
        print_json(data)
    else:
        show(*_skill_view(data))


class _Advance:
    def __init__(self, progress: Any, task: Any) -> None:
        self.progress, self.task = progress, task

    def __call__(self, n: int) -> None:
        self.progress.advance(self.task, n)

    def total(self, n: int) -> None:
        self.progress.update(self.task, total=n)


@contextmanager
def _progress(as_json: bool, total: int | None) -> Iterator[_Advance]:
    from cli.output import fight_progress

    with fight_progress(as_json) as progress:
        yield _Advance(progress, progress.add_task("odds", total=total))


def _ladder_view(data: "Ladder") -> list[Any]:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    head = Text(f"Ladder: {data['runs_per_pairing']} duels per pair of Meks on each terrain, "
                f"the {data['controller']} commanding both Meks, seed {data['seed']}. Win "
                "rate counts a draw as half a win; per pt is win "
                "rate (in %) per point of price.", style="bold")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("Mek")
    for column in ("Pts", "Win", "per pt", *(t[:4] for t in data["terrains"])):
        table.add_column(column, justify="right")
    for m in data["meks"]:
        per_point = "-" if m["per_point"] is None else f"{100 * m['per_point']:.2f}"
        table.add_row(Text(m["mek"]), str(m["price"]), f"{m['win_rate']:.0%}", per_point,
                      *(f"{m['terrain'][t]['win_rate']:.0%}" for t in data["terrains"]))
    return [head, table]


def _skill_view(data: "SkillGains") -> list[Any]:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from meks.game.catalog import load_catalog

    base = data["baseline"]
    held = ", ".join(data["held"]) or "no skills"
    head = Text(f"{data['scenario']} as the {data['side']}: {data['pilot']} ({data['unit']}, "
                f"{data['level']}, {held}) of {data['force']} against {data['opponent']}; "
                f"{data['runs']} battles per variant, seed {data['seed']}.", style="bold")
    now = Text(f"Win chance as mustered: {base['p']:.1%} ({base['low']:.1%} - "
               f"{base['high']:.1%}).")
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("Skill", "Win chance", "Gain", "Gain 95% interval"):
        table.add_column(column, justify="left" if column == "Skill" else "right")
    for r in data["skills"]:
        interval = (f"{100 * r['gain_low']:+.1f} to {100 * r['gain_high']:+.1f}"
                    if r["better_runs"] or r["worse_runs"] else "no battle changed")
        table.add_row(r["skill"], f"{r['p']:.1%}", f"{100 * r['gain']:+.1f} pts", interval)
    notes = [Text("Gains are in percentage points of win chance, measured on the same dice "
                  "for every skill.")]
    if not load_catalog().level(data["level"]).can_learn:  # R2.3
        notes.append(Text(f"{data['pilot']} is {data['level']} and can learn no skill yet: "
                          "these are the gains a skill would bring once promoted."))
    return [head, _predicted_with(data["controller"]), now, table, *notes]


def _predicted_with(name: str) -> Any:
    """Which controller the odds were worked out with, and whether it is the one the
    player's battles are fought against."""
    from rich.text import Text

    if name == "bot":
        return Text("Predicted with the bot commanding both sides: the opponent of battle "
                    "auto, battle play and campaigns.")
    return Text(f"Predicted with the {name} commanding both sides; battle auto, battle play "
                "and campaigns fight against the bot unless told otherwise.")


def _view(data: "BattleOdds") -> list[Any]:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    runs = data["runs"]
    head = Text(f"{data['scenario']}: {runs} battle{'s' * (runs != 1)}, {data['controller']} "
                f"commanding both sides, seed {data['seed']}", style="bold")
    said = _predicted_with(data["controller"])
    outcomes = Table(box=box.SIMPLE_HEAD)
    for column in ("Outcome", "Chance", "95% interval"):
        outcomes.add_column(column)
    attacker, defender = data["attacker"], data["defender"]
    for o, label in ((attacker, f"{attacker['name']} (attacker) wins"),
                     (defender, f"{defender['name']} (defender) wins"),
                     (data["draw"], "Draw")):
        outcomes.add_row(Text(label, overflow="fold"), f"{o['p']:.1%}",
                         f"{o['low']:.1%} - {o['high']:.1%}")
    units = Table(box=box.SIMPLE_HEAD)
    for column in ("Unit", "Pilot", "Side", "Survives", "Mek kills"):
        units.add_column(column)
    for u in data["units"]:
        # a long name is folded onto the next line, never cut short
        units.add_row(Text(u["name"], overflow="fold"), Text(u["pilot"] or "-", overflow="fold"),
                      u["side"],
                      f"{u['survival']:.1%}", f"{u['expected_kills']:.2f}")
    return [head, said, outcomes,
            Text(f"Expected length: {data['expected_turns']:.1f} turns."), units]


app.command("duel")(odds_duel.duel)
