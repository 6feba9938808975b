"""Files meks writes (html pages, rosters, backups, pictures): a name checked before any
work, and the file written whole or not at all, never through a link or over anything but a
regular file."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import typer


def html_file(value: Path) -> Path:
    """An HTML page's name (``-o``), checked before any work (``writable_target``)."""
    if value.suffix.lower() not in (".html", ".htm"):
        raise typer.BadParameter(f"{value} is not a file name ending .html; give one such as "
                                 "report.html.")
    return writable_target(value)


def writable_target(value: Path) -> Path:
    """``value`` (with ``~`` expanded) if a file may be written there, checked before any
    work: a folder that exists and can be written, and nothing there but a regular file that
    can be replaced (``replaceable``); else ``InputError`` (exit 2), worded as a file that
    cannot be written is everywhere. Every option naming a file to write checks with this
    once it has checked the file's ending."""
    from meks.game.errors import InputError, os_failure

    target = value.expanduser()
    folder = target.parent
    if not folder.is_dir():  # missing, or a file: the system's answer, said as for any file
        try:
            target.lstat()
        except OSError as exc:
            raise InputError(str(target), [os_failure(exc, "written")]) from None
    if not os.access(folder, os.W_OK):
        raise InputError(str(target), ["cannot be written: permission denied in its folder"])
    replaceable(target)
    if target.exists() and not os.access(target, os.W_OK):
        raise InputError(str(target), ["cannot be written: permission denied"])
    return target


def replaceable(target: Path) -> Path:
    """``target`` (with ``~`` expanded) if meks may write a file there: nothing is there yet,
    or a regular file is. A symbolic link is refused, never written through (the move into
    place would replace a link made meanwhile, not the file it points at), and so is a
    folder, a pipe (FIFO), a device such as /dev/null or a socket, which a new file would
    replace: ``InputError`` (exit 2), one sentence. Every writer checks with this."""
    import stat

    from campaigns.files.reading import special_file
    from meks.game.errors import InputError, os_failure

    target = target.expanduser()
    try:
        info = target.lstat()
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise InputError(str(target), [os_failure(exc, "written")]) from None
    if stat.S_ISLNK(info.st_mode):
        raise InputError(str(target), ["is a symbolic link, and meks does not write through "
                                       "links; give the path of the file itself"])
    special = special_file(info.st_mode)
    if special is not None:
        raise InputError(str(target), [f"{special}, and meks replaces only regular files; "
                                       "give another name"])
    if _in_use(info):
        raise InputError(str(target), ["holds the database meks is using, which writing "
                                       "there would destroy; give another name"])
    return target


def _in_use(info: os.stat_result) -> bool:
    """Whether the file ``info`` describes is the database in use (or a journal of it)."""
    from cli.state import location
    from db.engine import database_files
    from meks.game.errors import MeksError

    try:
        files = database_files(location())
    except MeksError:  # a database that cannot be named is reported when it is opened
        return False
    for file in files:
        try:
            held = file.stat()
        except OSError:
            continue
        if (held.st_dev, held.st_ino) == (info.st_dev, info.st_ino):
            return True
    return False


def write_atomically(target: Path, content: str | bytes) -> str:
    """Write ``content`` (text as UTF-8) to a temporary file beside ``target``, then move it
    into place, so readers see the old file or the new one, never a part. Returns the path
    written; a file that cannot be written is the player's ``InputError``. Only a new file
    or a regular one is replaced (``replaceable``)."""
    import contextlib
    import os
    import stat
    import tempfile

    from meks.game.errors import InputError, os_failure

    target = replaceable(target)
    try:
        mode = stat.S_IMODE(target.lstat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(content.encode("utf-8") if isinstance(content, str) else content)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG or exc.filename is None:
            exc.filename = str(target)  # mkstemp's own name is longer: say the one given
        raise InputError(str(target), [os_failure(exc, "written")]) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    try:
        return str(target.resolve())
    except (OSError, RuntimeError):  # a folder on the way that loops: the path as given
        return os.path.abspath(target)
