"""What every benchmark does with its arguments, its failures and the files it writes.

A benchmark reports figures: a goal it does not meet is a figure, not a failure, and it still
exits 0. It fails, and says so in one sentence on stderr, when it cannot run: a bad argument
exits 2 (as argparse does), anything else that stops it (an error in the code it measures, a
worker process that died, a file it cannot read or write) exits 1. With ``MEKS_DEBUG=1`` the
traceback of an unexpected error is printed above that sentence, as the product does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any


class Failure(Exception):
    """A failure the benchmark can say in its own words (an unreadable input, an output it
    cannot write): its message is the sentence shown, without a traceback."""


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number of at least 1")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number of at least 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number of at least 0")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a number above 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a number above 0")
    return value


def parse(parser: argparse.ArgumentParser,
          argv: list[str] | None) -> argparse.Namespace | int:
    """The parsed arguments, or the exit code argparse chose: 0 after ``--help``, 2 after a
    usage error (which it has already explained on stderr)."""
    try:
        return parser.parse_args(argv)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 2)


def debugging() -> bool:
    return os.environ.get("MEKS_DEBUG", "") not in ("", "0")


def failed(name: str, exc: BaseException) -> int:
    """Say on stderr, in one sentence, that ``name`` could not run and why; return 1."""
    if isinstance(exc, Failure):
        why = str(exc)
    else:
        if debugging():
            traceback.print_exception(exc)
        why = f"{type(exc).__name__}: {exc}".rstrip(".: ")
        why += " (run again with MEKS_DEBUG=1 to see where)" if not debugging() else ""
    print(f"{name} could not run: {why}.", file=sys.stderr)
    return 1


def print_report(name: str, make: Callable[[], dict[str, Any]], as_json: bool,
                 table: Callable[[dict[str, Any]], str]) -> int:
    """Print the report ``make`` gives, as JSON or as ``table`` draws it, and return 0; a
    benchmark that cannot run says why on stderr and returns 1."""
    try:
        report = make()
    except Exception as exc:
        return failed(name, exc)
    print(json.dumps(report, indent=2) if as_json else table(report))
    return 0


def writable(path: Path) -> None:
    """Raise ``Failure`` unless a file can be written at ``path`` (checked before a long run,
    so that it does not end in an error)."""
    folder = path.parent
    if path.is_dir():
        raise Failure(f"{path} is a folder; give a file name to write")
    if not folder.is_dir():
        raise Failure(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise Failure(f"cannot write {path}: permission denied")


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside it, then
    moved over it; ``Failure`` when that cannot be done (the old file is then untouched)."""
    fd, temp = -1, ""
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            fd = -1
            out.write(text)
        if path.exists():
            os.chmod(temp, path.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, path)
        temp = ""
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror or exc}") from exc
    finally:
        if fd >= 0:
            os.close(fd)
        if temp:
            Path(temp).unlink(missing_ok=True)


def usage_error(parser: argparse.ArgumentParser, message: str) -> int:
    """Say, as argparse says a usage error, that an argument is wrong; return 2."""
    parser.print_usage(sys.stderr)
    print(f"{parser.prog}: error: {message}", file=sys.stderr)
    return 2
