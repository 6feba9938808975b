"""The terminal's side of ``meks battle play``: printing what the player's side may read
(the log events since the last question, the map as each turn starts) and asking numbered
questions, Enter taking the suggestion and ``q`` raising ``Quit``. ``Prompter`` is the base of
``cli.play.Terminal``, which asks every decision of the battle through it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from cli.play_views import (
    battle_map,
)
from meks.engine.bot.policy import Bot
from meks.engine.log import Kind, render
from meks.engine.values import SlotView, UnitView
from meks.game.vocabulary import Side

if TYPE_CHECKING:
    from rich.console import Console

    from meks.engine.controllers import Controller
    from meks.engine.recorded import Recorded
    from meks.engine.view import SideView

PROMPT = "Choice (q quits)"
QUIT = ("q", "quit", "exit")


class Quit(Exception):
    """The player typed q; ``lost``: the answers already given to the decision it was typed
    in, which is saved only whole and so is asked again from its start on resume."""

    def __init__(self, lost: int = 0) -> None:
        super().__init__(lost)
        self.lost = lost


@dataclass
class Option:
    label: str
    value: Any


def same_answer(a: Any, b: Any) -> bool:
    """Equal answers: the same units and slots (by identity), the same zones, edges, words."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same_answer(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, UnitView | SlotView) or isinstance(b, UnitView | SlotView):
        return a is b
    return bool(type(a) is type(b) and a == b)


def _number(answer: str, most: int) -> bool:
    """Whether ``answer`` is a number from 1 to ``most`` in the digits 0-9."""
    return answer.isascii() and answer.isdigit() and len(answer) <= len(str(most)) \
        and 1 <= int(answer) <= most


def index_of(options: Sequence[Option], value: Any, fallback: int = 0) -> int:
    return next((i for i, o in enumerate(options) if same_answer(o.value, value)), fallback)

class Prompter:
    """What the player's side prints and how it asks, with what it has shown so far; the
    ``advisor`` (the bot, by default) gives the suggestion of each question."""

    def __init__(self, console: Console, side: Side,
                 ask: Callable[[str, str], str] | None = None,
                 advisor: Controller | None = None) -> None:
        self.console = console
        self.side = side
        self.advisor: Controller = advisor if advisor is not None else Bot()
        self.shown = 0  # log events printed so far
        self.drawn = -1  # the turn whose map was drawn last
        self.recorder: Recorded | None = None
        self.replayed = 0  # recorded decisions the battle replays before asking
        self.started = False
        self.answered = 0  # answers given to the decision being asked (see ``Quit``)
        self._ask = ask or (lambda text, default: str(typer.prompt(text, default=default)))

    # ---- output -----------------------------------------------------------------------------

    def echo(self, text: str = "") -> None:
        """A line wrapped to the terminal, continuation lines indented under the text (for a
        numbered option, under the text after its number)."""
        import re
        import textwrap

        width = max(40, self.console.width)
        if len(text) > width:
            lead = re.match(r"\s*\d+\.\s+", text)
            indent = len(lead.group(0)) if lead else len(text) - len(text.lstrip()) + 2
            text = textwrap.fill(text, width=width, subsequent_indent=" " * indent,
                                 break_on_hyphens=False, break_long_words=False)
        self.console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True)

    def catch_up(self, battle: SideView) -> None:
        """On the first question: after a resume, skip what the replay went through (the
        events before the last recorded decision) and say so."""
        if self.started:
            return
        self.started = True
        recorder = self.recorder
        if self.replayed and recorder is not None:
            # What came before the last recorded decision was seen before the stop.
            self.shown = recorder.caught_up if recorder.caught_up is not None \
                else recorder.log_mark
            self.echo(f"Resumed: {self.replayed} recorded decision"
                      f"{'s' * (self.replayed != 1)} replayed; the battle is at "
                      + (f"turn {battle.turn}." if battle.turn else "set-up."))
            self.draw(battle)

    def draw(self, battle: SideView, over: bool = False) -> None:
        self.drawn = battle.turn
        self.console.print(battle_map(battle, self.side, over))

    def flush(self, battle: SideView) -> None:
        """Print the events not shown yet (every die too); the map where a turn starts."""
        self.catch_up(battle)
        events = battle.events(self.shown)
        self.shown = battle.stamp
        start = 0
        for i, event in enumerate(events):
            # (a turn's first event, told by its kind and turn, not read from its text)
            if event.kind is Kind.TURN and event.turn == battle.turn and battle.turn:
                for line in render(events[start:i], rolls=True):
                    self.echo(line)
                if battle.turn > self.drawn:
                    self.echo("")
                    self.draw(battle)  # headed "Turn N"
                start = i + 1
        for line in render(events[start:], rolls=True):
            self.echo(line)
        if self.drawn < 0:  # set-up: the map before the first question
            self.draw(battle)

    # ---- asking -----------------------------------------------------------------------------

    def choose(self, battle: SideView, title: str, options: Sequence[Option],
               default: int = 0, notes: Sequence[Any] = ()) -> Any:
        """One numbered question; Enter takes ``default``."""
        self.flush(battle)
        self.echo("")
        self.echo(title)
        for note in notes:
            if isinstance(note, str):
                self.echo("  " + note)
            else:
                self.console.print(note)
        for i, option in enumerate(options, 1):
            mark = "  <- suggested" if i - 1 == default else ""
            first, *rest = option.label.split("\n")
            self.echo(f"  {i:>2}. {first}{mark}")
            for line in rest:
                self.echo(f"      {line}")
        while True:
            answer = self.read(str(default + 1))
            if _number(answer, len(options)):
                self.answered += 1
                return options[int(answer) - 1].value
            self.echo(f"Type a number from 1 to {len(options)}, Enter for the suggestion, "
                      "or q to quit.")

    def choose_many(self, battle: SideView, title: str, options: Sequence[Option],
                    default: list[int], limit: int) -> list[Any]:
        """Up to ``limit`` of the options, as numbers separated by spaces; 0 for none."""
        self.flush(battle)
        self.echo("")
        self.echo(title + " Give the numbers separated by spaces (0 for none).")
        for i, option in enumerate(options, 1):
            first, *rest = option.label.split("\n")
            self.echo(f"  {i:>2}. {first}" + ("  <- suggested" if i - 1 in default else ""))
            for line in rest:
                self.echo(f"      {line}")
        suggested = " ".join(str(i + 1) for i in default) or "0"
        while True:
            answer = self.read(suggested).replace(",", " ").split()
            if answer == ["0"]:
                self.answered += 1
                return []
            if answer and all(_number(a, len(options)) for a in answer) \
                    and len(set(answer)) == len(answer) <= limit:
                self.answered += 1
                return [options[int(a) - 1].value for a in answer]
            self.echo(f"Type up to {limit} different numbers from 1 to {len(options)} "
                      "(0 for none), Enter for the suggestion, or q to quit.")

    def yes_no(self, battle: SideView, title: str, suggested: bool) -> bool:
        options = [Option("yes", True), Option("no", False)]
        return bool(self.choose(battle, title, options, 0 if suggested else 1))

    def read(self, default: str) -> str:
        answer = self._ask(PROMPT, default).strip() or default
        if answer.lower() in QUIT:
            raise Quit(self.answered)
        return answer


__all__ = ["QUIT", "Option", "Prompter", "Quit", "index_of", "same_answer"]
