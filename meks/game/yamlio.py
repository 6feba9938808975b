"""Parse the game's own YAML package data (the catalog): only plain data (mappings, lists,
text, numbers, booleans). Tags that would build Python objects are refused, and syntax
errors become an ``InputError`` naming the source and the line.

Files a player gives the product are read by ``campaigns.files.reading`` instead, with limits on
size, nesting, aliases, numbers and control characters.
"""

from __future__ import annotations

import yaml

from meks.game.errors import InputError

# The C parser is much faster; fall back to the pure-Python one where PyYAML lacks it.
_Loader: type[yaml.SafeLoader | yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, source: str) -> object:
    """The plain data in ``text``; ``source`` names it in error messages."""
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        what = exc.problem or exc.context or "unreadable YAML"
        raise InputError(source, [f"{where}{what}"]) from None
    except yaml.YAMLError as exc:
        raise InputError(source, [f"not readable as YAML ({exc})"]) from None
