"""Which characters text may hold before it is stored or shown.

Control characters do harm out of all proportion to their size: a NUL cannot be stored by
PostgreSQL (a database holding one cannot be restored from its own backup), and an escape
sequence printed in a name can clear or rewrite the player's terminal. Text the product
takes in, typed or read from a file, is therefore refused when it holds:

- a C0 control character (U+0000 to U+001F) other than the ones allowed,
- DEL (U+007F) or a C1 control character (U+0080 to U+009F),
- a lone surrogate (U+D800 to U+DFFF), which is not text at all (JSON can spell one).

Tabs and line breaks are allowed in file texts (a briefing spans lines); names have
their own, stricter rules (``campaigns.company.clean_name``).
"""

from __future__ import annotations

import functools
import re

FILE_WHITESPACE = "\t\n"  # what a text in a file may hold among the control characters
TYPED_WHITESPACE = "\t\n\r"  # typed: names turn these into spaces

_KNOWN = {0x00: "NUL", 0x07: "BEL", 0x08: "backspace", 0x09: "tab", 0x0A: "line feed",
          0x0B: "vertical tab", 0x0C: "form feed", 0x0D: "carriage return", 0x1B: "ESC",
          0x7F: "DEL", 0x85: "next line", 0x9B: "CSI"}


@functools.cache
def control_pattern(allowed: str = FILE_WHITESPACE) -> re.Pattern[str]:
    """A pattern that finds the characters refused in text, but for those in ``allowed``."""
    ranges = "\x00-\x1f\x7f-\x9f\ud800-\udfff"
    if not allowed:
        return re.compile(f"[{ranges}]")
    return re.compile(f"(?![{re.escape(allowed)}])[{ranges}]")


def code_of(char: str) -> str:
    """How a character is written as an escape: ``\\x1b``, ``\\ud800``."""
    point = ord(char)
    return f"\\x{point:02x}" if point < 0x100 else f"\\u{point:04x}"


def describe(char: str) -> str:
    """A character refused in text, in words: 'an escape character (ESC, \\x1b)'."""
    point = ord(char)
    code = code_of(char)
    if 0xD800 <= point <= 0xDFFF:
        return f"a lone surrogate ({code}), which is not text"
    if point == 0x1B:
        return f"an escape character (ESC, {code})"
    name = _KNOWN.get(point)
    return f"a control character ({name}, {code})" if name else f"a control character ({code})"


def bad_character(text: str, allowed: str = FILE_WHITESPACE) -> str | None:
    """The first character of ``text`` that must not be stored or shown, or None. Only the
    control characters in ``allowed`` pass."""
    found = control_pattern(allowed).search(text)
    return found.group() if found else None


def refusal(text: str, allowed: str = FILE_WHITESPACE) -> str | None:
    """Why ``text`` is refused ('holds an escape character (ESC, \\x1b)'), or None."""
    char = bad_character(text, allowed)
    return None if char is None else f"holds {describe(char)}"


def shown(text: str, most: int = 60) -> str:
    """``text`` quoted for a message, control characters written as escapes (``'a\\x1bb'``),
    cut short past ``most`` characters."""
    return repr(text if len(text) <= most else text[:most - 3] + "...")
