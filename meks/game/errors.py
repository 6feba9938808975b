"""The family of errors the game raises. Every message is meant for a player.

- ``MeksError``: the base; a request the rules refuse, or something not found (exit 1).
- ``UnknownName``: a name that matches nothing in the catalog; carries the nearest names.
- ``InputError``: input that cannot be read as the product expects (exit 2): a file that is
  not YAML, a missing or mistyped field. Carries every problem found, not just the first;
  its message lists the first ``MAX_LISTED`` and counts the rest.
- ``UsageError``: a request the command cannot take as worded (exit 2).
- ``DiceError``: dice that cannot be used (a fixed sequence ran out, a value outside 1-6).
"""

from __future__ import annotations

import datetime
import difflib
import errno
from collections.abc import Sequence

MAX_LISTED = 50  # problems listed one by one; past that, a count


def listed(problems: Sequence[str], unlisted: int = 0) -> list[str]:
    """The first ``MAX_LISTED`` problems, then one line counting the rest (if any), the
    ``unlisted`` ones (counted but never worded) included."""
    shown = list(problems[:MAX_LISTED])
    more = len(problems) - len(shown) + unlisted
    if more:
        shown.append(f"... and {more} more problem{'s' * (more != 1)}; fix these first, "
                     "then check again")
    return shown


# ---- the one wording of a problem in a file ------------------------------------------------
# Every problem in a file a player gives (design, force, plan, scenario, roster, dice file,
# backup) is worded by these, whichever part of the product finds it:
# 'line 4 (attacker.budget): what is wrong'.

def place(line: int | None = None, path: str = "", column: int | None = None) -> str:
    """Where in a file: 'line 4, column 2', 'line 4 (attacker.budget)', 'meks[0].name'."""
    where = ""
    if line is not None:
        where = f"line {line}" + (f", column {column}" if column is not None else "")
    if path:
        where = f"{where} ({path})" if where else path
    return where


def problem(what: str, line: int | None = None, path: str = "",
            column: int | None = None) -> str:
    """One problem as every file problem is worded: 'line 4 (attacker.budget): what'."""
    where = place(line, path, column)
    return f"{where}: {what}" if where else what


def dotted(path: Sequence[object]) -> str:
    """A place in the data as written in messages: ``attacker.setup.zones[0]``."""
    out = ""
    for part in path:
        out = within(out, part)
    return out


def json_words(message: str) -> str:
    """A message of Python's JSON reader in our words (as it is, if it is not one we know);
    the line and column come with every problem."""
    return _JSON_WORDS.get(message, message)


_JSON_WORDS = {
    "Unterminated string starting at": "text in quotes that is never closed (it opens here)",
    "Expecting value": "a value is missing here",
    "Expecting ',' delimiter": "a comma is missing here",
    "Expecting ':' delimiter": "a colon is missing here",
    "Expecting property name enclosed in double quotes": "a key in double quotes is missing "
                                                         "here",
    "Extra data": "more text after the end of the JSON document",
    "Invalid control character at": "a control character inside quoted text",
    "Invalid \\escape": "a backslash escape that JSON does not have",
}


def os_problem(exc: OSError) -> str:
    """Why a file could not be read, as every file problem words it: 'no such file',
    'cannot be read (File name too long)'."""
    return os_failure(exc, "read")


def os_failure(exc: OSError, action: str) -> str:
    """``os_problem`` for a file that could not be ``action`` ("read", "written"): the one
    wording for reading, writing and opening a database alike."""
    if isinstance(exc, FileNotFoundError):
        return "no such file" if action == "read" else (
            f"cannot be {action}: its folder does not exist")
    if isinstance(exc, NotADirectoryError):  # a file where a folder of its path should be
        return "no such file" if action == "read" else (
            f"cannot be {action}: what should be its folder is a file")
    if isinstance(exc, IsADirectoryError):
        return "this is a folder, not a file"
    if isinstance(exc, PermissionError):
        return f"cannot be {action}: permission denied"
    if exc.errno == errno.ENXIO:  # a socket, or a device with nothing behind it
        return "this is not a regular file"
    return f"cannot be {action} ({os_reason(exc)})"


def os_reason(exc: OSError) -> str:
    """What the system said went wrong with a file, in words: 'File name too long'."""
    if exc.errno == errno.ELOOP:
        return "a symbolic link that leads back to itself"
    return str(exc.strerror or exc)


def described(value: object) -> str:
    """A value found in a file, as a problem names it: 'the number 7', "text 'x'"."""
    if value is None:
        return "nothing"
    if isinstance(value, datetime.date):
        return "a date (put it in quotes to keep it as text)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"text {value!r}" if len(value) < 40 else "a long text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


# ---- what is wrong with a value, worded once -----------------------------------------------
# The checks of every kind of file (the game's package data by ``meks.game.schema``, every file
# a player gives by its pydantic model through ``campaigns.files.model_errors``, a backup by
# ``db.backup``) word a bad value with these, so that the same mistake reads the same in every
# file:
# '<file>: <where> <what is wrong>; <what to do>'.

def wrong_kind(kind: str, value: object) -> str:
    """A value of the wrong kind: 'expected a whole number, found text 'x'; write ...'."""
    return f"expected {kind}, found {described(value)}; write {kind} here"


def missing_key(key: object) -> str:
    """A required key that is not there."""
    return f"missing required key {key!r}; add it"


def unknown_key(key: object, choices: Sequence[str] = (), list_all: bool = False) -> str:
    """A key the file kind does not have, with the nearest known key when one is close
    (and, with ``list_all``, every allowed key when none is)."""
    hint = nearest_hint(key, choices, cutoff=0.5 if list_all else 0.6) if choices else ""
    if not hint and list_all and choices:
        return (f"unknown key {key!r}; the keys allowed here are " + ", ".join(choices)
                + " (remove it or correct its spelling)")
    return f"unknown key {key!r}{hint}; remove it or correct its spelling"


def not_one_of(value: object, choices: Sequence[str], shown: str = "") -> str:
    """A value that is not among the allowed ones (``shown``: the choices as listed)."""
    return (f"{described(value)} is not one of {shown or ', '.join(choices)}"
            f"{nearest_hint(value, choices)}; write one of these")


def out_of_range(bound: str, limit: object, value: object) -> str:
    """A number past a limit; ``bound`` is 'at least', 'at most', 'more than', 'less than'."""
    return f"must be {bound} {limit}, not {described(value)}"


EMPTY = "must not be empty; write something here"


def nearest_hint(value: object, choices: Sequence[str], cutoff: float = 0.6) -> str:
    """' (did you mean 'x'?)' for the choice nearest ``value``, or '' when none is near."""
    if not isinstance(value, str):
        return ""
    folded = [c.casefold() for c in choices]
    near = difflib.get_close_matches(value.casefold(), folded, n=1, cutoff=cutoff)
    if not near:
        return ""
    return f" (did you mean {choices[folded.index(near[0])]!r}?)"


def within(where: str, part: object) -> str:
    """The place ``part`` (a key, or a list index) inside the place ``where``."""
    if isinstance(part, int) and not isinstance(part, bool):
        return f"{where}[{part}]"
    return f"{where}.{part}" if where else str(part)


class MeksError(ValueError):
    """A request that the rules refuse, or a thing that was not found."""

    exit_code = 1

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.__class__.__name__


# The catalog table that lists each kind of name (``meks catalog TABLE``).
_CATALOG_TABLES = {"design": "designs", "weapon": "weapons", "system": "systems",
                   "skill": "skills", "chassis": "chassis", "support result": "support"}


class UnknownName(MeksError):
    """A name that matches nothing; ``suggestions`` holds the nearest known names."""

    def __init__(self, kind: str, query: str, suggestions: Sequence[str] = (),
                 every: Sequence[str] = ()) -> None:
        """``every``: all the names there are, when they are few enough to list."""
        self.kind = kind
        self.query = query
        self.suggestions = tuple(suggestions)
        text = f"No {kind} is called {query!r}."
        if every:
            text += f" Give one of {_either(every)}."
        elif self.suggestions:
            text += " Did you mean " + _either(self.suggestions) + "?"
        else:
            table = _CATALOG_TABLES.get(kind)
            text += (f" 'meks catalog {table}' lists them." if table else
                     " 'meks catalog --help' lists the catalog's tables.")
        super().__init__(text)


class AmbiguousName(MeksError):
    """A name that matches more than one thing equally well."""

    def __init__(self, kind: str, query: str, matches: Sequence[str]) -> None:
        self.kind = kind
        self.query = query
        self.matches = tuple(matches)
        super().__init__(
            f"{query!r} could be more than one {kind}: {_either(self.matches)}. "
            "Give more of the name."
        )


class InputError(MeksError):
    """Input that cannot be read: every problem found, each with where it is. The message
    lists the first ``MAX_LISTED`` of them and says how many more there are. ``unlisted``
    counts problems found past those that are worded, which are never worded at all (a
    file with thousands of problems costs no time on wording them)."""

    exit_code = 2

    def __init__(self, source: str, problems: Sequence[str], unlisted: int = 0,
                 after: str = "") -> None:
        """``after``: a line said after the problems (why the count is not the whole)."""
        self.source = source
        self.problems = tuple(problems)
        self.unlisted = unlisted
        self.after = after
        total = len(self.problems) + unlisted
        if total == 1 and not after:
            text = f"{source}: {self.problems[0]}"
        else:
            text = f"{source} has {total} problems:\n" + "\n".join(
                f"  - {p}" for p in listed(self.problems, unlisted)
            ) + (f"\n{after}" if after else "")
        super().__init__(text)


class UsageError(MeksError):
    """A request worded so that the command cannot take it (exit 2), such as options that
    do not go together; the message says how to word it."""

    exit_code = 2


class DiceError(MeksError):
    """Dice that cannot be used as asked."""


def _either(names: Sequence[str]) -> str:
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]
