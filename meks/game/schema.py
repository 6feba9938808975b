"""Build typed values from parsed YAML/JSON data, checking them against their dataclass.

This checks only the game's own package data inside ``meks/`` (the catalog under
``meks/game/data/``), which cannot use pydantic: ``meks`` speaks plain types and never imports
it. Every file a player gives (scenarios, rosters, designs, force files, campaign plans) is
checked by a pydantic model in ``campaigns/`` instead, its errors worded by
``campaigns.files.model_errors`` in the same words as these (``meks.game.errors``).

A dataclass is its own schema: its fields name the keys, their annotations the types, their
defaults which keys are optional. ``build`` walks the data once and collects *every* problem
(unknown key with the nearest valid one, missing key, wrong type, value not among the allowed
choices) before raising a single ``InputError`` that lists them all.

Supported annotations: ``str``, ``int``, ``bool``, ``float``, ``Enum`` subclasses (matched by
value, ignoring case), ``tuple[X, ...]``, ``dict[K, V]``, nested dataclasses, and unions
(including ``X | None``).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from typing import Any, TypeVar

from meks.game.errors import (
    MAX_LISTED,
    InputError,
    missing_key,
    not_one_of,
    problem,
    unknown_key,
    within,
    wrong_kind,
)

T = TypeVar("T")

_MISSING = dataclasses.MISSING


def build(cls: type[T], data: object, source: str, path: str = "") -> T:
    """Return ``cls`` built from ``data``, or raise ``InputError`` listing every problem."""
    problems: list[str] = []
    value = _convert(cls, data, path, problems)
    if problems:
        raise InputError(source, problems)
    return typing.cast(T, value)


def build_list(cls: type[T], data: object, source: str, path: str = "") -> tuple[T, ...]:
    """Return a tuple of ``cls`` built from a list, or raise ``InputError``."""
    return build(tuple[cls, ...], data, source, path)  # type: ignore[valid-type]


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _kind(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if tp is str:
        return "text"
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a number"
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return "one of " + ", ".join(str(m.value) for m in tp)
    if origin is tuple:
        return "a list"
    if origin is dict or (isinstance(tp, type) and dataclasses.is_dataclass(tp)):
        return "a mapping of keys to values"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_kind(a) for a in typing.get_args(tp) if a is not type(None))
    return str(tp)


def _convert(tp: Any, data: object, path: str, problems: list[str]) -> object:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _convert_union(tp, data, path, problems)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _convert_dataclass(tp, data, path, problems)
    if origin is tuple:
        return _convert_tuple(tp, data, path, problems)
    if origin is dict:
        return _convert_dict(tp, data, path, problems)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _convert_enum(tp, data, path, problems)
    if tp is bool:
        if isinstance(data, bool):
            return data
    elif tp is int:
        if isinstance(data, int) and not isinstance(data, bool):
            return data
    elif tp is float:
        if isinstance(data, int | float) and not isinstance(data, bool):
            return float(data)
    elif tp is str:
        if isinstance(data, str):
            return data
        if isinstance(data, int | float) and not isinstance(data, bool):
            return str(data)  # "Titan 6" style names typed as bare numbers
    elif tp is typing.Any:
        return data
    problems.append(problem(wrong_kind(_kind(tp), data), path=path))
    return None


def _convert_union(tp: Any, data: object, path: str, problems: list[str]) -> object:
    args = typing.get_args(tp)
    if data is None and type(None) in args:
        return None
    attempts: list[tuple[Any, list[str]]] = []
    for arg in args:
        if arg is type(None):
            continue
        trial: list[str] = []
        value = _convert(arg, data, path, trial)
        if not trial:
            return value
        attempts.append((arg, trial))
    # Where only one alternative takes this shape of data (a mapping, a list), its own
    # problems say more than "expected X or Y".
    shaped = [trial for arg, trial in attempts if _takes_shape(arg, data)]
    if len(shaped) == 1:
        problems.extend(shaped[0])
        return None
    problems.append(problem(wrong_kind(_kind(tp), data), path=path))
    return None


def _takes_shape(tp: Any, data: object) -> bool:
    origin = typing.get_origin(tp)
    if isinstance(data, dict):
        return origin is dict or (isinstance(tp, type) and dataclasses.is_dataclass(tp))
    if isinstance(data, list):
        return origin is tuple
    return False


def _convert_enum(tp: type[enum.Enum], data: object, path: str, problems: list[str]) -> object:
    if isinstance(data, str):
        wanted = data.strip().casefold()
        for member in tp:
            if str(member.value).casefold() == wanted:
                return member
    choices = [str(m.value) for m in tp]  # past what a message lists, no hint is looked up
    problems.append(problem(not_one_of(data, choices if len(problems) < MAX_LISTED else (),
                                       ", ".join(choices)), path=path))
    return None


def _convert_tuple(tp: Any, data: object, path: str, problems: list[str]) -> object:
    args = typing.get_args(tp)
    if not isinstance(data, list):
        problems.append(problem(wrong_kind("a list", data), path=path))
        return ()
    item_type = args[0]
    return tuple(_convert(item_type, item, within(path, i), problems)
                 for i, item in enumerate(data))


def _convert_dict(tp: Any, data: object, path: str, problems: list[str]) -> object:
    key_type, value_type = typing.get_args(tp)
    if not isinstance(data, dict):
        problems.append(problem(wrong_kind("a mapping", data), path=path))
        return {}
    result: dict[object, object] = {}
    for key, item in data.items():
        sub = within(path, key)
        converted_key = _convert(key_type, key, sub, problems)
        result[converted_key] = _convert(value_type, item, sub, problems)
    return result


def _convert_dataclass(tp: type, data: object, path: str, problems: list[str]) -> object:
    if not isinstance(data, dict):
        problems.append(problem(wrong_kind("a mapping of keys to values", data), path=path))
        return None
    hints = _hints(tp)
    fields = {f.name: f for f in dataclasses.fields(tp) if f.init}
    kwargs: dict[str, object] = {}
    before = len(problems)
    for key, item in data.items():
        sub = within(path, key)
        if not isinstance(key, str) or key not in fields:
            problems.append(problem(  # past what a message lists, only counted: no hint
                unknown_key(key, list(fields) if len(problems) < MAX_LISTED else ()),
                path=path))
            continue
        kwargs[key] = _convert(hints[key], item, sub, problems)
    for name, field in fields.items():
        if name in data:
            continue
        if field.default is _MISSING and field.default_factory is _MISSING:
            problems.append(problem(missing_key(name), path=path))
    if len(problems) > before:
        return None
    try:
        return tp(**kwargs)
    except ValueError as exc:  # a dataclass's own __post_init__ check
        problems.append(problem(str(exc), path=path))
        return None

