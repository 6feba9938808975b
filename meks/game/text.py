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


_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: every control character but a tab or a line
    break, and every byte of a file name that is not UTF-8 (read as a lone surrogate),
    written as its escape (``\\x1b``, ``\\xff``), so that nothing shown can move the cursor,
    clear the screen or retitle the window."""
    return _UNSHOWABLE.sub(_escaped, text)


def _escaped(found: re.Match[str]) -> str:
    point = ord(found.group())
    if 0xDC80 <= point <= 0xDCFF:  # a byte that is not UTF-8, as os.fsdecode reads it
        return f"\\x{point - 0xDC00:02x}"
    return code_of(found.group())


# Characters of Unicode's "format" category (Cf) that change how the text around them is
# shown without showing themselves: bidirectional overrides and isolates (U+202A-U+202E,
# U+2066-U+2069), marks (U+200E, U+200F, U+061C), zero-width spaces and joiners (U+200B-
# U+200D, U+2060, U+FEFF) and the rest of the category. A joiner between two visible
# characters is part of how some scripts and emoji are written, and is kept.
JOINERS = "\u200c\u200d"


def without_format_characters(text: str) -> str:
    """``text`` without the invisible formatting characters (Unicode category Cf), a joiner
    between two visible characters kept (see ``JOINERS``)."""
    import unicodedata

    if text.isascii():
        return text
    kept: list[str] = []
    for i, c in enumerate(text):
        if c in JOINERS:
            if 0 < i < len(text) - 1 and not text[i - 1].isspace() \
                    and not text[i + 1].isspace() and kept and kept[-1] not in JOINERS:
                kept.append(c)
        elif unicodedata.category(c) != "Cf":
            kept.append(c)
    return "".join(kept)


def a_or_an(word: str) -> str:
    """``word`` after its indefinite article, as said aloud: 'an Assault', 'an 8-turn', 'a
    Heavy', 'a 12-turn' (a number by how it is spoken: eight, eleven, eighteen, eighty...)."""
    head = word.split("-")[0]
    if head.isdigit():
        vowel = head.startswith("8") or head in ("11", "18") or (
            len(head) in (5, 6) and head[:2] in ("11", "18"))
    else:
        vowel = word[:1].lower() in "aeio"
    return f"{'an' if vowel else 'a'} {word}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """``count`` and the word for that many: '1 point', '2 points', '0 points' (``words``
    for a plural that is not the word and an 's')."""
    return f"{count} {word if count == 1 else words or word + 's'}"
