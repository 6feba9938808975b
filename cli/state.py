"""The database a command works on: ``--db``, else ``MEKS_DB``, else the per-user file.

Database code is imported only when a command opens a session, so commands that never
touch the database start without it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from campaigns.processes import available_cpus

if TYPE_CHECKING:
    from sqlmodel import Session

_db: str | None = None

JSON = typer.Option(False, "--json", help="Print JSON instead of a table.")
OUTPUT = typer.Option(
    None, "--output", "-o", metavar="FILE", show_default=False,
    help="Write to FILE (replaced whole, never left half-written) instead of printing; '-' "
    "prints, as without it.")
MAX_JOBS = 64
JOBS = typer.Option(min(available_cpus(), MAX_JOBS), "--jobs", "-j", min=1, max=MAX_JOBS,
                    help="Processes to fight them on; by default one for each CPU this "
                    "process may use (the answer does not change).")
PAPER = typer.Option(
    None, "--paper", metavar="a4|letter", show_default=False,
    help="Page size of the html sheet. Default: the printer's paper.")


def set_db(value: str | None) -> None:
    global _db
    _db = value


def location() -> str:
    from db.location import resolve

    where = resolve(_db)
    _refuse_control(where)
    return where


def _refuse_control(where: str) -> None:
    """A database named (by --db, checked with every typed argument, or by $MEKS_DB) with a
    control character in it is refused: meks would make a file of that name, and echo it."""
    from meks.game.errors import UsageError
    from meks.game.text import bad_character, describe, printable

    char = bad_character("".join(c for c in where if not 0xD800 <= ord(c) <= 0xDFFF), "")
    if char is not None:
        raise UsageError(f"The database named {printable(where)!r} holds {describe(char)}; "
                         "give a database path or URL without control characters, with "
                         "--db or MEKS_DB.")


def given_location() -> str | None:
    """The database named by --db, else by $MEKS_DB (as ``db.location.ENV_VAR``), else None."""
    import os

    return _db or os.environ.get("MEKS_DB") or None


@contextmanager
def session(create: bool = True, snapshot: bool = False,
            reads: bool = False) -> Iterator[Session]:
    """One transaction on the database in use: all of the command's changes, or none.
    ``create=False``: a database that does not exist is an error instead of being made.
    ``snapshot``: every read sees one moment of the database (for checks that read it all
    while others may write). ``reads`` (commands that only read, and so never make the
    database): it writes nothing, and waits for no other process that writes."""
    from db.engine import transaction

    with transaction(location(), create and not reads, snapshot, reads) as s:
        yield s


def interactive() -> bool:
    """Whether a person can answer a question at this terminal."""
    import os

    return sys.stdin.isatty() and os.environ.get("CI", "").lower() not in ("1", "true")


def pairs(values: list[str], what: str, as_int: bool = False,
          most: int | None = None, option: str = "") -> dict[str, str]:
    """Parse NAME=VALUE options; bad ones are usage errors (exit 2). ``as_int``: VALUE must
    be a whole number, no larger than ``most`` when given. A NAME given twice (in any case)
    is refused, naming ``option``."""
    out: dict[str, str] = {}
    seen: dict[str, str] = {}  # folded name -> as first given
    for value in values:
        name, sep, rest = value.rpartition("=")
        if not sep or not name.strip() or not rest.strip():
            raise typer.BadParameter(f"{value!r} should look like {what}",
                                     param_hint=option or None)
        key = " ".join(name.split()).casefold()
        if key in seen:  # a second value would silently replace the first
            from campaigns.postbattle import twice
            from meks.game.errors import UsageError

            raise UsageError(twice(seen[key], option or what))
        seen[key] = name.strip()
        number = rest.strip()
        if as_int and not (number.isascii() and number.isdigit()):
            raise typer.BadParameter(f"{value!r}: the part after '=' must be a whole number, "
                                     "0 or more", param_hint=option or None)
        if as_int and most is not None and (len(number.lstrip("0")) > len(str(most))
                                            or int(number) > most):
            raise typer.BadParameter(f"{value!r}: the part after '=' must be at most {most}",
                                     param_hint=option or None)
        out[name.strip()] = rest.strip()
    return out
