"""Printing: Rich for people, plain JSON for scripts, red one-line errors on stderr (files
written instead, with ``-o``, go through ``cli.files``).

Rich is imported only when something is printed, so that ``--help`` and JSON output stay
quick to start.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from cli.files import write_atomically

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.progress import Progress


_quiet = False


def set_quiet(value: bool) -> None:
    global _quiet
    _quiet = value


def quiet() -> bool:
    return _quiet


def say(message: str, err: bool = False) -> None:
    """A confirmation or progress line: printed unless --quiet. At a terminal a line wider
    than it is wrapped at its spaces (``fitted``); piped, it stays one line for scripts."""
    if not _quiet:
        from meks.game.text import printable

        typer.echo(fitted(printable(message), err), err=err)


def fitted(message: str, err: bool = False) -> str:
    """``message`` wrapped at its spaces to the terminal's width when the stream it goes to
    (standard error with ``err``) is a terminal, so that no word is cut at the edge; as it
    is otherwise."""
    import shutil
    import sys
    import textwrap

    stream = sys.stderr if err else sys.stdout
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        terminal = False
    width = shutil.get_terminal_size((80, 24)).columns
    if not terminal or all(len(line) <= width for line in message.splitlines()):
        return message
    return "\n".join(textwrap.fill(line, width=width, break_on_hyphens=False,
                                   break_long_words=False) if len(line) > width else line
                     for line in message.splitlines())


def interrupted(message: str) -> NoReturn:
    """Ctrl-C stopped a command: say on standard error, on a line of its own, what was kept
    and how to go on (``message``), and exit 130, as a shell does for an interrupt."""
    typer.echo(fitted("\n" + message, err=True), err=True)
    raise typer.Exit(130)


def _plain() -> dict[str, Any]:
    """With NO_COLOR set (https://no-color.org), no escape codes at all: Rich leaves out the
    colours of itself, and no colour system leaves out bold and the other styles too."""
    import os

    return {"color_system": None} if os.environ.get("NO_COLOR") else {}


def stdout() -> Console:
    from rich.console import Console

    return Console(soft_wrap=False, **_plain())


def stderr() -> Console:
    """Standard error: at a terminal its lines wrap at spaces to the terminal's width;
    piped, a message stays one line, whole, for scripts and logs to read."""
    import sys

    from rich.console import Console

    try:
        terminal = sys.stderr.isatty()
    except (AttributeError, ValueError):
        terminal = False
    return Console(stderr=True, soft_wrap=not terminal, **_plain())


def fight_progress(as_json: bool = False, remaining: bool = True) -> Progress:
    """A transient "Fighting" bar on stderr, counting done of total ("?" until the total is
    known). Off for --json and --quiet, and when stderr is not a terminal (a log file gets
    nothing, not even an empty line)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = stderr()
    columns = [TextColumn("Fighting"), BarColumn(), MofNCompleteColumn()]
    if remaining:
        columns.append(TimeRemainingColumn())
    return Progress(*columns, console=console, transient=True,
                    disable=as_json or quiet() or not console.is_terminal)


def show(*renderables: RenderableType) -> None:
    """Print each renderable; a table too wide for the terminal to keep its words whole is
    printed row by row instead (``stacked``)."""
    from rich.console import Group

    console = stdout()
    for renderable in renderables:
        lines = stacked(console, renderable)
        if lines is not None:
            for line in lines:
                console.print(line)
        elif isinstance(renderable, Group) and any(
                stacked(console, part) is not None for part in renderable.renderables):
            show(*renderable.renderables)  # (the parts one by one, a table perhaps stacked)
        else:
            console.print(renderable)


def stacked(console: Console, renderable: RenderableType) -> list[Any] | None:
    """A table of plain cells as lines, each row a "heading: value" line for each cell, the
    ones after the first indented under it, when the console is too narrow to show the
    table without cutting its words (some column narrower than its longest word); None
    when it fits, or is no such table."""
    from rich.measure import Measurement
    from rich.table import Table
    from rich.text import Text

    if not isinstance(renderable, Table) or not renderable.columns:
        return None
    wide = console.options.update_width(1_000_000)  # (a measure not cut at the edge)
    if Measurement.get(console, wide, renderable).minimum <= console.width:
        return None
    columns = [(col.header, list(col.cells)) for col in renderable.columns]
    if not all(isinstance(cell, str | Text) for _, cells in columns for cell in cells):
        return None

    def plain(cell: Any) -> Text:
        return console.render_str(cell) if isinstance(cell, str) else cell

    lines: list[Any] = []
    if renderable.title:
        lines.append(plain(renderable.title))
    for row in range(renderable.row_count):
        for i, (header, cells) in enumerate(columns):
            value, label = plain(cells[row]), plain(header)
            if value.plain.strip():
                lines.append(Text.assemble("  " if i else "", label, ": " if label.plain
                                           else "", value))
    return lines


def print_lines(lines: list[str]) -> None:
    """Report lines, each wrapped to the terminal's width (80 columns when not a terminal),
    continuation lines indented under their first."""
    import shutil
    import textwrap

    width = shutil.get_terminal_size((80, 24)).columns
    for line in lines:
        if len(line) <= width:
            typer.echo(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        typer.echo(textwrap.fill(line, width=width, subsequent_indent=indent,
                                 break_on_hyphens=False))


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def error(message: str) -> None:
    """One clear message on stderr, in red where colour is wanted. No database password
    is ever printed: the message is scrubbed of them first."""
    from rich.markup import escape

    from meks.game.text import printable

    stderr().print(f"[red]Error:[/red] {escape(printable(scrubbed(message)))}",
                   highlight=False)


def scrubbed(text: str) -> str:
    """``text`` without the passwords of the database given (--db, else $MEKS_DB), or any
    written in a URL. The default database is a file, which has no password, so the
    database code need not be loaded to find out."""
    from cli.state import given_location
    from db.redact import scrub

    return scrub(text, given_location())


def debug_enabled() -> bool:
    return os.environ.get("MEKS_DEBUG", "") not in ("", "0")


def internal_error(exc: BaseException) -> None:
    # the first line only: a database error goes on with the statement and its values
    lines = str(exc).strip().splitlines()
    what = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
    error(
        f"meks hit an unexpected problem ({what}). Nothing was changed. "
        "Run again with MEKS_DEBUG=1 to see the details, and please report it."
    )
    if debug_enabled():  # pragma: no cover - for developers
        raise exc
    sys.stderr.flush()


def emit(text: str, output: str | None, written: str) -> None:
    """``text`` printed as it is, or written whole to the file ``output`` (``-o``), saying
    so: ``written`` names what was written ("html roster"). ``-`` is standard output, as
    ``-`` is standard input where a file is read."""
    from pathlib import Path

    if output is None or output == "-":
        typer.echo(text, nl=False)
        return
    target = write_atomically(Path(output), text)
    say(f"Wrote the {written} to {target}.")
