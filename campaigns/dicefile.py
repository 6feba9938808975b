"""Dice files: the values of real dice, in order, to replay or to feed a battle."""

from __future__ import annotations

import re
from pathlib import Path

from meks.errors import InputError


def read_dice_file(path: Path) -> list[int]:
    """The die values in ``path``: numbers 1-6 separated by spaces, commas or new lines;
    '#' starts a comment. Anything else is refused with its line (exit 2)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), ["no such file"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), [f"cannot be read ({exc})"]) from None
    values: list[int] = []
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        for token in re.split(r"[\s,]+", line.split("#", 1)[0].strip()):
            if not token:
                continue
            if not (token.isascii() and token.isdigit() and 1 <= int(token) <= 6):
                problems.append(f"line {number}: {token!r} is not a die value (1 to 6)")
            else:
                values.append(int(token))
    if problems:
        raise InputError(str(path), problems)
    if not values:
        raise InputError(str(path), ["the file holds no dice"])
    return values
