"""Turn game values (dataclasses, enums, tuples) into plain JSON-ready data."""

from __future__ import annotations

import dataclasses
import enum


def plain(value: object) -> object:
    """``value`` as dicts, lists, text, numbers and booleans, for JSON or YAML output."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.repr and not f.name.startswith("_")
        }
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(plain(k)): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value
