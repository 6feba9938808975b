"""Fighting a play's battle at the terminal (``meks battle play | resume``, a campaign's
battle): the driving of the battle, kept apart from ``cli.play.Terminal``, the player's
controller, which sees the battle only through its side's view.

``run`` fights a play's battle: the player's decisions go through
``meks.engine.recorded.Recorded``, which saves each one as it is made and, on resume, replays
the recorded ones silently until the battle reaches the first decision not yet made. The
bot is asked each replayed decision too (its answer unused), so that what it remembers of
the battle (where this turn's fire is going) is what it would be had the play never
stopped. When the battle is over, the screen shows what was hidden from the player (the
reveal, ``cli.play_views.reveal_lines``).

When the battle ends, the player's pilots who earned a new skill choose it
(``choose_skills``), unless the player asked for the bot's picks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import typer

from cli.play import Shadowed, Terminal
from cli.prompts import QUIT, Quit

if TYPE_CHECKING:
    from rich.console import Console

    from campaigns.play import PlayState
    from campaigns.postbattle import PendingChoice
    from meks.engine.controllers import Controller
    from meks.engine.core import Battle


# ---- the play loop -----------------------------------------------------------------------------

def run(state: PlayState, console: Console, save: Callable[[int, dict[str, Any]], None],
        ask: Callable[[str, str], str] | None = None,
        advisor: Controller | None = None) -> Battle:
    """Fight ``state``'s battle: recorded decisions replay silently, then the player is
    asked, each new decision passed to ``save`` as it is made, the ``advisor`` (a new bot
    by default) suggesting each answer. Returns the battle once it is over; raises
    ``Quit`` when the player quits."""
    from meks.engine.recorded import Recorded

    terminal = Terminal(console, state.side, ask, advisor)

    def saved(index: int, data: dict[str, Any]) -> None:
        save(index, data)
        terminal.answered = 0  # the next answers belong to the next decision

    recorder = Recorded(terminal, state.decisions, saved)
    terminal.recorder = recorder
    terminal.replayed = len(state.decisions)
    battle = state.battle(cast("Controller", Shadowed(recorder, terminal.advisor)))
    battle.run()
    view = battle.views[state.side]
    terminal.flush(view)
    terminal.echo("")
    terminal.draw(view, over=True)
    from meks.engine.reveal import reveal

    terminal.echo("")
    for line in reveal(battle, state.side):
        terminal.echo(line)
    return battle


def choose_skills(pending: Sequence[PendingChoice],
                  ask: Callable[[str, str], str] | None = None
                  ) -> list[tuple[PendingChoice, str]]:
    """Ask for the new skill of each pilot in ``pending``: the skills it may take listed,
    the bot's pick the default (Enter). A skill it cannot take is said (on standard error),
    then asked again; q quits (``Quit``)."""
    from campaigns.postbattle import check_skill
    from cli.output import fitted
    from meks.game.errors import MeksError

    ask = ask or (lambda text, default: str(typer.prompt(text, default=default)))
    chosen = []
    for p in pending:
        typer.echo(fitted(f"{p.pilot} ({p.mek}) earned a new skill. Options: "
                          + ", ".join(p.options) + f". Enter takes {p.suggested}."))
        while True:
            answer = ask("Skill", p.suggested).strip() or p.suggested
            if answer.lower() in QUIT:
                raise Quit
            try:
                chosen.append((p, check_skill(answer, p.options, pilot=p.pilot)))
                break
            except MeksError as exc:
                typer.echo(f"{exc.message} Choose one of the options above.", err=True)
    return chosen


def play_to_end(state: PlayState, *, auto_skills: bool = False,
                ask: Callable[[str, str], str] | None = None,
                resume: str | None = None) -> None:
    """Fight a play until it ends (then store it and print the result) or the player
    quits (exit 0, with how to resume). The player's pilots who earn a new skill choose it
    (``choose_skills``) unless ``auto_skills``, or no one is at the terminal to ask: then
    each takes the bot's pick. ``ask`` answers every question (the terminal's prompt by
    default). ``resume``: the command that continues the play, if not 'meks battle resume
    ID' (a campaign's battle continues with its campaign)."""
    from campaigns.company import Refused
    from campaigns.play import append_decision, finish, set_aside
    from campaigns.postbattle import ChoicesNeeded, outcome_bits
    from cli.output import fitted, interrupted, print_lines, stdout
    from cli.state import interactive, session
    from cli.store_views import counted_names
    from meks.engine import REVISION
    from meks.engine.recorded import ReplayMismatch
    from meks.game.errors import MeksError

    def save(index: int, data: dict[str, Any]) -> None:
        with session() as s:
            append_decision(s, state.id, index, data)

    resume_hint = f"'{resume or f'meks battle resume {state.id}'}' continues it"
    try:
        battle = run(state, stdout(), save, ask)
    except Quit as stop:
        # a decision that asks about several units is saved whole, once all are answered
        lost = (f" The {stop.lost} answer{'s' * (stop.lost != 1)} already given to the "
                "decision in progress will be asked again." if stop.lost else "")
        print_lines(["", f"Stopped. The battle is saved up to your last finished "
                     f"decision: {resume_hint}.{lost}"])
        raise typer.Exit(0) from None
    except (typer.Abort, KeyboardInterrupt, EOFError):
        interrupted(f"Interrupted. The battle is saved up to your last decision: "
                    f"{resume_hint}.")
    except ReplayMismatch:
        if state.engine == REVISION:
            raise
        with session() as s:
            message = set_aside(s, state.id)
        raise Refused(message) from None
    except MeksError:
        raise
    except Exception:
        typer.echo(fitted(f"The battle stopped on an error. It is saved up to your last "
                          f"decision: {resume_hint}.", err=True), err=True)
        raise
    asking = not auto_skills and interactive()
    try:
        with session() as s:
            data = finish(s, state.id, battle, auto_skills=not asking)
    except ChoicesNeeded as needed:
        typer.echo("")
        try:
            chosen = choose_skills(needed.pending, ask)
        except Quit:
            print_lines(["", f"Stopped before the new skills were chosen. The battle is "
                         f"saved: {resume_hint} to its end and asks again."])
            raise typer.Exit(0) from None
        except (typer.Abort, KeyboardInterrupt, EOFError):
            interrupted(f"Interrupted before the new skills were chosen. The battle is "
                        f"saved: {resume_hint} to its end and asks again.")
        with session() as s:
            data = finish(s, state.id, battle, auto_skills=False,
                          choices={p.pilot_id: skill for p, skill in chosen})
    won = data["winner"] == state.side.value
    verdict = "Draw" if data["winner"] == "draw" else "You win" if won else "You lose"
    result = (f"{verdict}. Result: {data['winner']} ({data['reason']}) after "
              f"{data['turns']} turn{'s' * (data['turns'] != 1)}; seed {data['seed']}; "
              f"{data['events']} events; digest "
              f"{data['log_digest'][:16]}"
              + (f"; stored as battle {data['battle_id']}" if data["battle_id"] else "") + ".")
    lines = ["", result]
    for side_name, report in data["reports"].items():
        for entry in report:
            bits = [f"{entry['pilot']} ({entry['mek']})", *outcome_bits(entry)]
            lines.append(f"  {side_name}: " + ", ".join(bits))
    for side_name, parts in data.get("salvage", {}).items():
        lines.append(f"  {side_name}: salvaged {counted_names(parts)}")
    print_lines(lines)
    if "campaign" in data:  # where the campaign stands now, as 'campaign next' says it
        from campaigns.files.battle_records import FinishedCampaignPlay
        from cli.campaign_views import played_summary
        from cli.output import show

        print_lines([""])
        show(played_summary(cast(FinishedCampaignPlay, data)["campaign"]))


__all__ = ["choose_skills", "play_to_end", "run"]
