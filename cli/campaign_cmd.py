"""``meks campaign``: a company plays a series of scenarios solo, the tool commanding the
enemy (and, with --auto, the company too)."""

from pathlib import Path

import typer

from cli.battle_cmd import AUTO_SKILLS, CONTROLLER
from cli.files import html_file
from cli.output import print_json, quiet, say, show
from cli.state import JSON, session
from meks.game.text import plural

app = typer.Typer(no_args_is_help=True, help="Play a series of scenarios with a company.")

COMPANY = typer.Argument(..., help="The company's name or id.", show_default=False)
RUNS = typer.Option(None, "--runs", min=0, max=100_000, show_default=False,
                    help="Battles to fight for the company's odds before each battle, with "
                    "the controller that fights it. Default: the built-in scenarios' odds "
                    "against the bot are estimated from the two forces and checked with "
                    "20 trial battles, others fight 24. The enemy's muster "
                    "is balanced either way; 0: no odds, the enemy musters its full budget.")


def difficulty_choice(value: str | None) -> str | None:
    """--difficulty in any case; anything but easy, normal or hard is a usage error."""
    if value is None:
        return None
    choice = value.strip().lower()
    if choice not in ("easy", "normal", "hard"):
        raise typer.BadParameter(f"{value!r} is not a difficulty; give easy, normal or hard.")
    return choice


@app.command()
def start(company: str = COMPANY,
          plan: Path | None = typer.Option(None, "--plan", readable=False,
                                           help="A YAML plan of scenarios, "
                                           "each by id or by a file inside the plan's own "
                                           "folder (default: the six scenarios of the "
                                           "rules, as the built-in campaign plays them)."),
          printed: bool = typer.Option(False, "--printed", help="Play the six scenarios "
                                       "exactly as printed, some of whose seats one side "
                                       "nearly always wins; the default plan plays copies "
                                       "changed to be contests ('meks scenario show "
                                       "opening-shots-campaign' lists one's changes)."),
          seed: int | None = typer.Option(None, "--seed", min=0, max=2**63 - 1,
                                          help="Seed for the whole campaign's dice."),
          difficulty: str | None = typer.Option(None, "--difficulty", metavar="easy|normal|hard",
                                                callback=difficulty_choice,
                                                help="How strong the enemy is: easy, normal "
                                                "or hard (default: the plan's, else "
                                                "normal)."),
          treasury: bool | None = typer.Option(
              None, "--treasury/--no-treasury", show_default=False,
              help="Switch the house rule treasury on or off for every scenario: the "
              "company's points pay for what it buys and each battle pays by its result "
              "(default: as the plan says)."),
          as_json: bool = JSON) -> None:
    """Begin a campaign for a company."""
    from campaigns.campaign import start_campaign
    from campaigns.company import shell_arg

    with session() as s:
        view = start_campaign(s, company, plan=plan, seed=seed, difficulty=difficulty,
                              printed=printed, treasury=treasury)
    if as_json:
        print_json(view)
    else:
        count = len(view["plan"])
        say(f"Campaign '{view['name']}' begins: {count} scenario{'s' * (count != 1)}, "
            f"{view['difficulty']}, seed {view['seed']}"
            + (f", treasury {plural(view['treasury'], 'point')}." if "treasury" in view else "."))
        kinds = {tuple(rules) for rules in view["in_force"]}
        if len(kinds) == 1 and next(iter(kinds)):
            say(f"House rules in every battle: {', '.join(next(iter(kinds)))}.")
        elif len(kinds) > 1:
            say("House rules differ from battle to battle: 'meks campaign status "
                f"{shell_arg(company)}' lists each battle's.")


@app.command()
def status(company: str = COMPANY, as_json: bool = JSON) -> None:
    """Where the company's campaign stands: the plan, the results so far, what is next."""
    from campaigns.campaign import status as load
    from cli import campaign_views

    with session(reads=True) as s:
        view = load(s, company)
    if as_json:
        print_json(view)
    else:
        show(campaign_views.status(view))


@app.command("show")
def show_(company: str = COMPANY, as_json: bool = JSON) -> None:
    """The company's campaign step by step: the battle, the odds before it against its
    result, kills and losses, salvage, the treasury after it and the pilots' progress."""
    from campaigns.record import campaign_record
    from cli.record_views import campaign_show

    with session(reads=True) as s:
        data = campaign_record(s, company)
    if as_json:
        print_json(data)
    else:
        show(campaign_show(data))


@app.command()
def report(company: str = COMPANY,
           output: Path = typer.Option(..., "--output", "-o", metavar="FILE.html",
                                       show_default=False, callback=html_file,
                                       help="The HTML file to write (replaced whole, never "
                                       "left half-written).")) -> None:
    """Write the company's campaign as one HTML page to open in a browser or print: charts
    of the odds before each battle against its result, the treasury and each pilot's kills
    and level, then every battle's nine zones turn by turn with what was hidden.

    The page needs no network: its style and charts are inside it."""
    from campaigns.reports.pages import campaign_report
    from cli.files import write_atomically

    with session(reads=True) as s:
        page = campaign_report(s, company)
    say(f"Wrote the campaign report to {write_atomically(output, page)}.")


@app.command("next")
def next_(company: str = COMPANY,
          auto: bool = typer.Option(True, "--auto/--play",
                                    help="The tool commands the company too (--auto), or you "
                                    "do (--play)."),
          controller_name: str = CONTROLLER,
          auto_skills: bool = AUTO_SKILLS,
          runs: int | None = RUNS,
          choose: bool = typer.Option(False, "--choose", help="Choose the force at the "
                                      "muster yourself, the tool fighting the battle (--play "
                                      "always asks). Needs a terminal; without one the "
                                      "tool's choice is taken."),
          as_json: bool = JSON) -> None:
    """Play the next scenario: support rolls, muster, battle, post-battle sequence.

    With --play (or --choose) you choose the force at the muster: which of your Meks to
    field, which to leave at home and what to buy; Enter takes the tool's suggestion. With
    --play, your pilots who earn a new skill choose it when the battle ends."""
    from campaigns.campaign import next_scenario
    from cli import campaign_views
    from cli.state import interactive

    if not auto:
        _no_json_when_playing(as_json)
        _play_next(company, controller_name, auto_skills, runs)
        return
    # with --json the questions go to standard error, the result alone to standard output
    choice = choose_muster(company, questions_to_stderr=as_json) \
        if choose and interactive() else None
    try:
        with session() as s:
            result = next_scenario(s, company, controller_name=controller_name, runs=runs,
                                   choice=choice)
    except KeyboardInterrupt:  # the step is stored whole or not at all
        from campaigns.company import shell_arg
        from cli.output import interrupted

        interrupted(f"Interrupted. Nothing of the step was kept: 'meks campaign next "
                    f"{shell_arg(company)}' plays it from its start, with the same dice.")
    if as_json:
        print_json(result)
    else:
        show(campaign_views.scenario_summary(result))


@app.command()
def run(company: str = COMPANY,
        auto: bool = typer.Option(True, "--auto/--play",
                                  help="The tool commands the company too (--auto), or you "
                                  "do in every battle (--play), as with 'campaign next'."),
        controller_name: str = CONTROLLER,
        auto_skills: bool = AUTO_SKILLS,
        runs: int | None = RUNS,
        as_json: bool = JSON) -> None:
    """Play every remaining scenario of the campaign, then print the campaign summary.

    With --play you command the company in each battle in turn, choosing each force at its
    muster; q at any prompt stops, and the same command goes on from there."""
    try:
        _run(company, auto, controller_name, auto_skills, runs, as_json)
    except KeyboardInterrupt:  # each step is stored whole or not at all
        from campaigns.company import shell_arg
        from cli.output import interrupted

        again = f"meks campaign run {shell_arg(company)}" + ("" if auto else " --play")
        interrupted(f"Interrupted. The campaign is kept up to its last finished step: "
                    f"'{again}' goes on from there.")


def _run(company: str, auto: bool, controller_name: str, auto_skills: bool,
         runs: int | None, as_json: bool) -> None:
    from campaigns.campaign import next_scenario
    from campaigns.campaign import status as load
    from cli import campaign_views

    if not auto:
        _no_json_when_playing(as_json)
        while True:
            with session() as s:
                before = load(s, company)
            if before["status"] != "active":
                break
            _play_next(company, controller_name, auto_skills, runs, "run")
            with session() as s:  # a battle that did not end (set aside) ends the run too
                if load(s, company)["position"] == before["position"]:
                    break
        with session() as s:
            show(campaign_views.campaign_summary(load(s, company)))
        return
    results = []
    while True:
        with session() as s:
            view = load(s, company)
        if view["status"] != "active":
            break
        with session() as s:
            result = next_scenario(s, company, controller_name=controller_name, runs=runs)
        results.append(result)
        if not as_json and not quiet():
            show(campaign_views.scenario_summary(result))
    with session() as s:
        view = load(s, company)
    if as_json:
        print_json({"played": results, "campaign": view})
    else:
        show(campaign_views.campaign_summary(view))


def _no_json_when_playing(as_json: bool) -> None:
    """--play asks at the terminal and prints the battle as it goes: it has no --json."""
    if as_json:
        from meks.game.errors import UsageError

        raise UsageError("--play asks you for every decision at the terminal, so it gives "
                         "no --json; leave out one of them.")


def _play_next(company: str, controller_name: str, auto_skills: bool,
               runs: int | None, command: str = "next") -> None:
    """The next scenario with the company commanded at the terminal (resumed if under way,
    against the controller it began with)."""
    from campaigns.campaign import WentBroke, play_step
    from campaigns.company import Refused, shell_arg
    from campaigns.files.records import OddsShown
    from cli.play_run import play_to_end
    from cli.state import interactive

    if not interactive():
        raise Refused(f"'meks campaign {command} --play' asks you for every decision and "
                      "needs a terminal; use --auto to let the tool fight the battle.")
    from cli.campaign_views import odds_lines

    choice = choose_muster(company)
    shown: OddsShown = {}
    broke = None
    with session() as s:
        try:
            state, new = play_step(s, company, opponent=controller_name, runs=runs,
                                   shown=shown, choice=choice)
        except WentBroke as exc:  # the campaign's end is recorded: the session commits it
            broke = exc.result
    if broke is not None:
        from cli import campaign_views

        show(campaign_views.scenario_summary(broke))
        return
    odds = shown.get("odds")
    if odds:
        for line in odds_lines(odds, secret=True):  # the player commands: the fog holds
            say(line)
    what = "Starting" if new else "Resuming"
    resume = f"meks campaign {command} {shell_arg(state.names[state.side])} --play"
    say(f"{what} play {state.id}: {state.scenario.name}, you command {state.names[state.side]}"
        f" as the {state.side.value}. Type q at any prompt to stop; '{resume}' continues.")
    play_to_end(state, auto_skills=auto_skills, resume=resume)


def choose_muster(company: str, questions_to_stderr: bool = False) -> list[str] | None:
    """Ask the player at the terminal for the force of the campaign's next muster: the
    callsigns of the company's Meks to field and the designs to buy, by commas; Enter takes
    the tool's suggestion (None), q stops with nothing changed. A force that cannot be
    mustered is explained and asked for again. Nothing is asked when the battle is under
    way already, or the company is broke (the campaign records that)."""
    from campaigns.campaign import next_muster_menu
    from campaigns.company import Refused
    from cli import campaign_views
    from cli.output import error, fitted, stderr
    from meks.game.catalog import load_catalog

    catalog = load_catalog()
    with session() as s:
        menu = next_muster_menu(s, company, catalog)
    if menu is None:
        return None
    if questions_to_stderr:
        stderr().print(campaign_views.muster_menu(menu.view()))
    else:
        show(campaign_views.muster_menu(menu.view()))
    while True:
        answer = typer.prompt(fitted("Field which Meks? Callsigns and designs to buy, by "
                                     "commas (Enter: the suggestion, q: stop)",
                                     questions_to_stderr), default="",
                              show_default=False, err=questions_to_stderr)
        if answer.strip().casefold() in ("q", "quit"):
            typer.echo("Stopped; nothing was changed.", err=questions_to_stderr)
            raise typer.Exit(0)
        if not answer.strip():
            return None
        names = [n.strip() for n in answer.split(",") if n.strip()]
        try:
            menu.choose(names, catalog)
        except Refused as exc:
            error(exc.message)
            continue
        return names


@app.command()
def sell(company: str = COMPANY,
         parts: list[str] = typer.Argument(None, show_default=False,
                                           help="The parts to sell, by name (a name twice "
                                           "sells two)."),
         everything: bool = typer.Option(False, "--all", help="Sell every part in the "
                                         "stockpile."),
         as_json: bool = JSON) -> None:
    """Sell salvaged parts from the stockpile into the campaign's treasury (house rule
    treasury): each for half its catalog price, rounded up."""
    from campaigns.workshop import sell_parts

    with session() as s:
        result = sell_parts(s, company, parts or [], everything=everything)
    if as_json:
        print_json(result)
    else:
        say(result["summary"])
