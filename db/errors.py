"""What goes wrong with a database, as the errors meks raises for it: each says in one
sentence what happened and what to do."""

from __future__ import annotations

from meks.game.errors import MeksError

# How every SQLite database file begins: what tells a database from a file of another kind.
SQLITE_HEADER = b"SQLite format 3\0"


class DatabaseError(MeksError):
    """The database cannot be opened or used."""


class NoDatabase(DatabaseError):
    """There is no database where one was asked for, and the command does not make one."""


class UnreadableDatabase(DatabaseError):
    """The path given for the database is a folder, or a file that is not a database."""

    exit_code = 2


class BadURL(DatabaseError):
    """The URL given for the database cannot be read, or names no kind of database."""

    exit_code = 2


class NewerDatabase(DatabaseError):
    """The database was written by a newer meks; this one neither reads nor writes it."""


class DamagedDatabase(DatabaseError):
    """The database file is corrupt; ``detail`` says what SQLite found."""

    def __init__(self, detail: str, where: str | None = None, refused: bool = False) -> None:
        super().__init__(damaged(detail, where, refused))
        self.detail = detail


class ReadOnlyDatabase(DatabaseError):
    """A change was asked of a database that can only be read."""


def damaged(detail: str, where: str | None = None, refused: bool = False) -> str:
    """The one sentence that says a database file (at ``where``) is damaged; ``refused``:
    it also says that the command changed nothing. Its advice can be followed: meks cannot
    open a damaged file even to back it up or restore over it, so the backup goes into a
    new file (``RESTORE_ADVICE``)."""
    file = f"The database file {where}" if where else "The database file"
    note = ", so nothing was changed" if refused else ""
    return f"{file} is damaged ({detail}){note}; {RESTORE_ADVICE}."


# What to do with a database meks can no longer use: 'meks db restore' reads a backup into a
# new database (a damaged file, or one missing a table, cannot be opened to be replaced).
RESTORE_ADVICE = ("restore it from a backup with 'meks db restore' into a new file, such as "
                  "'meks --db new.db db restore BACKUP', and use that one from then on")
