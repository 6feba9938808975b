"""Parse YAML text safely: only plain data (mappings, lists, text, numbers, booleans).

Tags that would build Python objects are refused, and syntax errors become an
``InputError`` naming the source and the line.
"""

from __future__ import annotations

import yaml

from meks.errors import InputError

# The C parser is much faster; fall back to the pure-Python one where PyYAML lacks it.
_Loader: type[yaml.SafeLoader | yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# Deeper nesting than any of our files needs; far deeper (tens of thousands of levels) would
# overflow the C parser's stack while it builds the data, so it is refused before that.
MAX_DEPTH = 100


def parse_yaml(text: str, source: str, max_depth: int | None = MAX_DEPTH) -> object:
    """The plain data in ``text``; ``source`` names it in error messages. Lists and mappings
    nested more than ``max_depth`` deep are refused (None: no limit, for our own data)."""
    try:
        if max_depth is not None:
            _check_depth(text, source, max_depth)
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        what = exc.problem or exc.context or "unreadable YAML"
        if "tag" in what:
            what = f"{what} (only plain YAML data is accepted; tags are not)"
        raise InputError(source, [f"{where}{what}"]) from None
    except yaml.YAMLError as exc:
        raise InputError(source, [f"not readable as YAML ({exc})"]) from None


def _check_depth(text: str, source: str, limit: int) -> None:
    """Walk the parser's events (the parser keeps its own stack, so this is safe at any
    depth) and refuse the first list or mapping nested deeper than ``limit``."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > limit:
                line = event.start_mark.line + 1 if event.start_mark else None
                where = f"line {line}: " if line else ""
                raise InputError(source, [f"{where}lists and mappings nested more than "
                                          f"{limit} deep; no file of ours needs that many"])
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
