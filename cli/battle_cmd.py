"""``meks battle``: battles fought at the table or by the tool."""

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from cli.files import html_file
from cli.output import print_json, print_lines, show
from cli.state import JSON, interactive, pairs, session

if TYPE_CHECKING:
    from meks.game.dice import Dice

app = typer.Typer(no_args_is_help=True, help="Record and fight battles.")

MAX_KILLS = 1000  # Mek kills one pilot can be credited with in one battle


@app.command()
def record(
    company: str = typer.Argument(..., help="The company's name or id.", show_default=False),
    result: str = typer.Option(..., "--result", "-r", metavar="win|loss|draw",
                               help="How the battle ended for the company.",
                               show_default=False),
    kills: list[str] = typer.Option([], "--kills", "-k", metavar="PILOT=N",
                                    help="Mek kills by a pilot (repeat for each pilot)."),
    destroyed: list[str] = typer.Option([], "--destroyed", "-d", metavar="MEK",
                                        help="A Mek destroyed in the battle (repeatable)."),
    dead: list[str] = typer.Option([], "--dead", metavar="PILOT",
                                   help="A pilot killed in the battle (repeatable)."),
    choose: list[str] = typer.Option([], "--choose", "-c", metavar="PILOT=SKILL",
                                     help="The skill a pilot takes if it earns one."),
    auto: bool = typer.Option(False, "--auto",
                              help="Pick earned skills by the documented priority."),
    salvage: list[str] = typer.Option(
        [], "--salvage", "-s", metavar="PART",
        help="A weapon or system recovered from a destroyed enemy Mek into the stockpile "
        "(repeat for each part; needs the scenario's house rule salvage)."),
    lost: list[str] = typer.Option(
        [], "--lost", metavar="MEK=PART",
        help="A weapon or system a surviving Mek lost, kept lost until replaced (repeat "
        "for each; needs the scenario's house rule spare_parts)."),
    bailed: list[str] = typer.Option(
        [], "--bailed", metavar="MEK",
        help="A Mek whose pilot bailed out: the Mek is lost, the pilot survives (repeat for "
        "each; needs the scenario's house rule bail_out)."),
    withdrew: bool = typer.Option(
        False, "--withdrew", help="The company withdrew from the battle (with --result loss; "
        "needs the scenario's house rule withdrawal)."),
    overran: bool = typer.Option(
        False, "--overran", help="The company overran the enemy (with --result win; needs "
        "the scenario's house rule withdrawal)."),
    enemy_destroyed: int | None = typer.Option(
        None, "--enemy-destroyed", min=0, max=MAX_KILLS, metavar="N", show_default=False,
        help="Enemy Meks destroyed in the battle, which bounds --salvage. Default: the kills "
        "credited with --kills."),
    seed: int | None = typer.Option(None, "--seed", min=0, max=2**63 - 1,
                                    help="Seed for reproducible dice."),
    as_json: bool = JSON,
) -> None:
    """Record a game played on a real table for the force last mustered.

    Then run the post-battle sequence: lost Meks struck off, the rest repaired, kills and scenarios
    credited, promotions, a new-skill roll for each surviving pilot, and the salvage named."""
    from campaigns.files.view_records import RecordedBattle
    from campaigns.postbattle import ChoicesNeeded, record_battle
    from cli import store_views
    from meks.game.dice import Dice

    result = result.strip().lower()
    if result not in ("win", "loss", "draw"):
        raise typer.BadParameter("use win, loss or draw", param_hint="--result")
    kill_counts = {k: int(v) for k, v in pairs(kills, "PILOT=N", as_int=True,
                                               most=MAX_KILLS, option="--kills").items()}
    choices = pairs(choose, "PILOT=SKILL", option="--choose")
    lost_parts = []
    for item in lost:
        mek, sep, part = item.partition("=")
        if not sep or not mek.strip() or not part.strip():
            raise typer.BadParameter(f"{item!r} is not MEK=PART", param_hint="--lost")
        lost_parts.append((mek.strip(), part.strip()))
    if withdrew and overran:
        raise typer.BadParameter("a company either withdrew or overran, not both",
                                 param_hint="--withdrew/--overran")
    withdrawal = "withdrew" if withdrew else "overran" if overran else None
    dice_seed = Dice.from_seed(seed).seed

    def attempt() -> RecordedBattle:
        with session() as s:
            return record_battle(s, company, result, Dice.from_seed(dice_seed),
                                 kills=kill_counts, destroyed=destroyed, dead=dead,
                                 choices=choices, auto=auto, salvage=salvage,
                                 lost_parts_of=lost_parts, bailed=bailed,
                                 withdrawal=withdrawal, enemy_destroyed=enemy_destroyed)

    try:
        outcome = attempt()
    except ChoicesNeeded as needed:
        if not interactive():
            raise
        from cli.play_run import choose_skills
        from cli.prompts import Quit

        try:
            for p, skill in choose_skills(needed.pending):
                choices[p.pilot] = skill
        except Quit:
            typer.echo("Stopped: nothing was recorded.", err=True)
            raise typer.Exit(0) from None
        outcome = attempt()
    if as_json:
        print_json(outcome)
    else:
        show(store_views.battle_record(outcome))


def _dice(seed: int | None, dice: str | None) -> "Dice":
    """The dice for a battle: a seed (default), a file of values, or 'manual' prompts."""
    from meks.game.dice import Dice

    if dice is None:
        return Dice.from_seed(seed)
    if seed is not None:
        raise typer.BadParameter("give either --seed or --dice", param_hint="--dice")
    if dice == "manual":
        if not interactive():
            raise typer.BadParameter(
                "'manual' asks for every die at a terminal, and standard input is not one (or "
                "CI is set); give a file of dice values or --seed instead", param_hint="--dice")

        def ask(purpose: str) -> int:
            while True:
                value = typer.prompt(f"Die for {purpose}", type=int)
                if 1 <= value <= 6:
                    return int(value)
                typer.echo("A die shows 1 to 6.", err=True)

        return Dice.from_callback(ask)
    from campaigns.files.dicefile import read_dice_file

    return Dice.from_sequence(read_dice_file(Path(dice)))


SCENARIO = typer.Argument(..., help="Scenario id or file.", show_default=False)
ATTACKER = typer.Option(..., "--attacker", "-a", metavar="COMPANY|FORCE_FILE",
                        help="The attacking company (its muster for this scenario) or a force "
                        "file.", show_default=False)
DEFENDER = typer.Option(..., "--defender", "-d", metavar="COMPANY|FORCE_FILE",
                        help="The defending company or a force file.", show_default=False)
BATTLE_SEED = typer.Option(None, "--seed", min=0, max=2**63 - 1,
                           help="Seed for the dice (default: a new one, printed).")

CONTROLLERS = ("bot", "baseline")  # as campaigns.battles.CONTROLLERS, default first
CONTROLLER_HELP = ("Who commands the tool's sides: bot (plays to win, as in every battle "
                   "against you) or baseline (a simple fixed policy, about four times "
                   "faster).")


def controller_choice(value: str) -> str:
    """--controller in any case; anything but bot or baseline is a usage error."""
    choice = value.strip().lower()
    if choice not in CONTROLLERS:
        raise typer.BadParameter(f"{value!r} is not a controller; give bot or baseline.")
    return choice


def controller_option(default: str = CONTROLLERS[0]) -> Any:
    """The --controller option, the same on every command that fights battles."""
    return typer.Option(default, "--controller", metavar="|".join(CONTROLLERS),
                        callback=controller_choice, help=CONTROLLER_HELP)


CONTROLLER = controller_option()
AUTO_SKILLS = typer.Option(False, "--auto-skills",
                           help="A pilot of yours who earns a new skill in the battle takes "
                           "the bot's pick instead of asking you (always so without a "
                           "terminal).")


@app.command()
def auto(
    scenario: str = SCENARIO,
    attacker: str = ATTACKER,
    defender: str = DEFENDER,
    seed: int | None = BATTLE_SEED,
    dice: str | None = typer.Option(None, "--dice", metavar="FILE|manual",
                                    help="Dice from a file of values, or 'manual' to type "
                                    "each die rolled at the table (at a terminal)."),
    rolls: bool = typer.Option(False, "--rolls", help="Show every die in the report."),
    controller_name: str = CONTROLLER,
    as_json: bool = JSON,
) -> None:
    """Fight a battle with both sides commanded by the tool, and print the report.

    A battle fought for a company is stored and its post-battle sequence runs."""
    from campaigns.battles import both, fight, is_force_file, store, summary
    from campaigns.postbattle import outcome_bits
    from cli.store_views import counted_names
    from meks.engine.log import render
    from meks.game.vocabulary import Side

    chosen = _dice(seed, dice)
    sides = both(controller_name)
    if is_force_file(attacker) and is_force_file(defender):
        fought = fight(None, scenario, attacker, defender, chosen, controllers=sides)
        battle_id = None
    else:
        with session() as s:
            fought = fight(s, scenario, attacker, defender, chosen, controllers=sides)
            battle_id = store(s, fought, chosen)
    data = summary(fought, battle_id)
    reports = {side.value: entries for side, entries in fought.reports.items()}
    if as_json:  # each company's post-battle report with it, as a play's result has it
        print_json({**data, "reports": reports} if reports else data)
        return
    salvaged = [f"{fought.sides[Side(side)].force.name} salvaged {counted_names(parts)}."
                for side, parts in data.get("salvage", {}).items()]
    # what became of each company's pilots (kills, promotion, skill, death), as a play says
    pilots = [f"  {side}: " + ", ".join([f"{e['pilot']} ({e['mek']})", *outcome_bits(e)])
              for side, entries in reports.items() for e in entries]
    print_lines([*render(fought.battle.log, rolls=rolls), "", *salvaged, *pilots,
                 f"Result: {data['winner']} ({data['reason']}) after {data['turns']} "
                 f"turn{'s' * (data['turns'] != 1)}, "
                 f"the {controller_name} commanding both sides; "
                 f"{_dice_words(data['seed'])}; {data['events']} events; digest "
                 f"{data['log_digest'][:16]}"
                 + (f"; stored as battle {battle_id}" if battle_id else "") + "."])


@app.command("list")
def list_(company: str = typer.Argument(..., help="The company's name or id.",
                                        show_default=False),
          as_json: bool = JSON) -> None:
    """List a company's battles: id, date, scenario, seat, result, turns, kills, losses
    and the odds of winning before the battle (for a campaign's battles).

    Kills and losses count Meks destroyed, read from the battle's log; a battle played on
    a real table, recorded by its result alone, shows none."""
    from campaigns.record import battle_list
    from cli.record_views import battle_list as view

    with session(reads=True) as s:
        data = battle_list(s, company)
    if as_json:
        print_json(data)
    else:
        show(view(data))


@app.command()
def report(battle_id: int = typer.Argument(..., help="The battle's id.", show_default=False),
           output: Path = typer.Option(..., "--output", "-o", metavar="FILE.html",
                                       show_default=False, callback=html_file,
                                       help="The HTML file to write (replaced whole, never "
                                       "left half-written).")) -> None:
    """Write a battle's report as one HTML page to open in a browser or print: the nine
    zones turn by turn (who stood where, where combat was fought, what was destroyed),
    then what each side kept hidden from the other.

    The page needs no network: its style and drawings are inside it."""
    from campaigns.reports.pages import battle_report
    from cli.files import write_atomically
    from cli.output import say

    with session(reads=True) as s:
        page = battle_report(s, battle_id)
    say(f"Wrote battle {battle_id}'s report to {write_atomically(output, page)}.")


@app.command("show")
def show_(battle_id: int = typer.Argument(..., help="The battle's id.", show_default=False),
          rolls: bool = typer.Option(False, "--rolls", help="Show every die."),
          as_json: bool = JSON) -> None:
    """Print a stored battle's report again."""
    from campaigns.battles import show as load

    with session(reads=True) as s:
        data = load(s, battle_id, rolls)
    if as_json:
        print_json(data)
        return
    print_lines(data["report"])


@app.command()
def replay(battle_id: int = typer.Argument(..., help="The battle's id.", show_default=False),
           as_json: bool = JSON) -> None:
    """Fight a stored battle again from its seed (or dice) and decisions.

    The result must be identical to the stored one; the command says whether it is."""
    from campaigns.battles import replay as do_replay

    with session(reads=True) as s:
        data = do_replay(s, battle_id)
    if as_json:
        print_json(data)
    elif data["identical"]:
        typer.echo(f"Battle {battle_id} replays identically ({data['events']} events, digest "
                   f"{data['stored_digest'][:16]}).")
    if not data["identical"]:
        if not as_json:
            then, now = data["engine_revision"], data["current_engine_revision"]
            why = (f" It was fought by engine revision {then} and this is revision {now}, "
                   "whose rules or wording changed since (docs/rules.md, 'Engine revisions')."
                   if then != now else "")
            stopped = (f" The replay stopped: {data['stopped']}" if data.get("stopped")
                       else "")
            typer.echo(f"Battle {battle_id} does NOT replay identically: stored digest "
                       f"{data['stored_digest'][:16]}, replayed {data['replayed_digest'][:16]}."
                       + stopped + why, err=True)
        raise typer.Exit(1)


@app.command()
def play(
    scenario: str = SCENARIO,
    side: str = typer.Option(..., "--side", "-s", metavar="attacker|defender",
                             help="The side you command.", show_default=False),
    attacker: str = ATTACKER,
    defender: str = DEFENDER,
    seed: int | None = BATTLE_SEED,
    controller_name: str = CONTROLLER,
    auto_skills: bool = AUTO_SKILLS,
    opponent: str | None = typer.Option(None, "--opponent", hidden=True,
                                        callback=lambda v: v and controller_choice(v),
                                        help="The former name of --controller."),
) -> None:
    """Fight a battle at the terminal: you command one side, the tool the other.

    Every decision is a numbered prompt with the odds; Enter takes the suggestion (what the
    bot would do for your side) and q quits. The battle is saved after every decision:
    'meks battle resume ID' continues it. Your pilots who earn a new skill choose it when
    the battle ends."""
    from campaigns.company import Refused
    from campaigns.play import start
    from cli.play_run import play_to_end
    from meks.game.vocabulary import Side

    chosen = side.strip().lower()
    if chosen not in ("attacker", "defender"):
        raise typer.BadParameter("use attacker or defender", param_hint="--side")
    if not interactive():
        raise Refused("'meks battle play' asks you for every decision and needs a terminal "
                      "(standard input is not one, or CI is set); use 'meks battle auto' to let "
                      "the tool fight both sides.")
    with session() as s:
        state = start(s, scenario, Side(chosen), attacker, defender, seed=seed,
                      opponent=opponent or controller_name)
    print_lines([f"Play {state.id}: {state.scenario.name}. You command the "
                 f"{state.side.value} ({state.names[state.side]}); {state.opponent} commands "
                 f"the {state.side.enemy.value} ({state.names[state.side.enemy]}). Seed "
                 f"{state.seed}.",
                 "The battle is saved after every decision: type q at any prompt to stop, "
                 f"and 'meks battle resume {state.id}' continues it."])
    play_to_end(state, auto_skills=auto_skills)


@app.command()
def resume(play_id: int | None = typer.Argument(
        None, metavar="ID", help="The play's id (without it: the only unfinished one).",
        show_default=False), auto_skills: bool = AUTO_SKILLS) -> None:
    """Continue a battle stopped in 'meks battle play' exactly where it stopped."""
    from campaigns.company import Refused
    from campaigns.play import load, unfinished
    from cli.play_run import play_to_end

    if not interactive():
        raise Refused("'meks battle resume' asks you for every decision and needs a terminal "
                      "(standard input is not one, or CI is set).")
    with session() as s:
        if play_id is None:
            waiting = unfinished(s)
            if len(waiting) != 1:
                listed = "; ".join(f"{p['id']}: {p['scenario']}, {p['attacker']} against "
                                   f"{p['defender']}, you the {p['side']}" for p in waiting)
                raise Refused("Give the id of the play to resume: " + listed + "."
                              if waiting else "No battle is waiting to be resumed.")
            play_id = int(waiting[0]["id"])
        state = load(s, play_id)
    print_lines([f"Resuming play {state.id}: {state.scenario.name}, you the "
                 f"{state.side.value} ({state.names[state.side]}); replaying "
                 f"{len(state.decisions)} recorded decision"
                 f"{'s' * (len(state.decisions) != 1)}."])
    play_to_end(state, auto_skills=auto_skills)


def _dice_words(seed: int | None) -> str:
    """Where a battle's dice came from, for its result line."""
    return f"seed {seed}" if seed is not None else "dice given, not seeded"
