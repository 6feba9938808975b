"""Dice files: the values of real dice, in order, to replay or to feed a battle."""

from __future__ import annotations

import re
from pathlib import Path

from campaigns.files.reading import DICE, read_text, text_lines
from meks.game.errors import InputError, problem, wrong_kind

DIE_VALUE = "a die value (a whole number from 1 to 6)"


def read_dice_file(path: Path) -> list[int]:
    """The die values in ``path``: numbers 1-6 separated by spaces, commas or new lines;
    '#' starts a comment. Anything else is refused with its line (exit 2)."""
    text = read_text(path, DICE)
    values: list[int] = []
    problems = []
    for number, line in text_lines(text, str(path)):
        for token in re.split(r"[\s,]+", line.split("#", 1)[0].strip()):
            if not token:
                continue
            if not (token.isascii() and token.isdigit() and len(token) <= 9
                    and 1 <= int(token) <= 6):
                problems.append(problem(wrong_kind(DIE_VALUE, token), line=number))
            else:
                values.append(int(token))
    if problems:
        raise InputError(str(path), problems)
    if not values:
        raise InputError(str(path), ["the file holds no dice"])
    return values

