"""Pydantic's errors in plain words: each error pydantic reports about a file's data becomes a
``Problem`` worded as every file problem is (``meks.game.errors``), at the path of the value
it concerns as the file has it.

A ``Vocabulary`` says which model the file's data is checked against (``root``) and which
model each tag of a tagged union stands for (``tagged``: a scenario's victory conditions), so
that an unknown key is answered with the keys that model allows.
"""

from __future__ import annotations

import itertools
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ValidationError

from meks.game.errors import (
    EMPTY,
    MAX_LISTED,
    described,
    missing_key,
    nearest_hint,
    not_one_of,
    out_of_range,
    unknown_key,
    wrong_kind,
)
from meks.game.scenario import COMBINATORS, CONDITION_TYPES, Path
from meks.game.scenario_checks import Problem


@dataclass(frozen=True)
class Vocabulary:
    """What a file is checked against: its root model, and the model of each union tag."""

    root: type[BaseModel]
    tagged: Mapping[str, type[BaseModel]]


def worded(exc: ValidationError, data: object, words: Vocabulary,
           prefix: tuple[str, ...] = ()) -> tuple[list[Problem], int]:
    """The first problems in ``exc`` in plain words (one more than a message lists, so that
    it still says there are more), and how many more errors pydantic found, counted but not
    worded: a file with 20,000 unknown keys costs no time on 20,000 spelling hints."""
    errors = exc.errors(include_url=False)
    first = itertools.islice(errors, MAX_LISTED + 1)
    found = _dedupe(from_pydantic({**e, "loc": (*prefix, *e["loc"])}, data, words)
                    for e in first)
    return found, max(0, len(errors) - (MAX_LISTED + 1))


def _dedupe(problems: Iterator[Problem | None]) -> list[Problem]:
    return list(dict.fromkeys(p for p in problems if p is not None))


_KINDS = {
    "int_type": "a whole number", "int_parsing": "a whole number",
    "int_from_float": "a whole number", "float_type": "a number", "float_parsing": "a number",
    "bool_type": "true or false", "bool_parsing": "true or false", "string_type": "text",
    "list_type": "a list", "tuple_type": "a list", "dict_type": "a mapping of keys to values",
    "model_type": "a mapping of keys to values",
    "model_attributes_type": "a mapping of keys to values", "finite_number": "a finite number",
    "int_parsing_size": "a whole number of a sensible size",
}


def _data_path(data: object, loc: tuple[str | int, ...]) -> tuple[Path, Path]:
    """Split pydantic's location into the part found in the data (keys and indexes as the
    file has them) and the rest (condition tags pydantic adds, or a missing key)."""
    node = data
    found: list[str | int] = []
    rest: list[str | int] = []
    for seg in loc:
        if seg == "[key]":
            continue
        inside, node = _step(node, seg)
        (found if inside else rest).append(seg)
    return tuple(found), tuple(rest)


def _step(node: object, seg: str | int) -> tuple[bool, object]:
    """The value under ``seg`` in ``node``, if there is one."""
    if isinstance(node, dict) and _has_key(node, seg):
        return True, node[seg]
    if isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
        return True, node[seg]
    return False, node


def _has_key(mapping: dict[Any, Any], key: object) -> bool:
    try:
        return key in mapping
    except TypeError:
        return False


def _unwrap(tp: Any) -> Any:
    """Strip Annotated and a '| None' from a type."""
    while True:
        origin = typing.get_origin(tp)
        if origin is Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _model_at(loc: tuple[str | int, ...], words: Vocabulary) -> type[BaseModel] | None:
    """The model whose keys are expected at ``loc`` (pydantic's location, tags included)."""
    tp: Any = words.root
    for seg in loc:
        tp = _unwrap(tp)
        origin = typing.get_origin(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            info = next((f for n, f in tp.model_fields.items() if seg in (n, f.alias)), None)
            if info is None:
                return None
            tp = info.annotation
        elif origin in (tuple, list):
            tp = typing.get_args(tp)[0]
        elif origin is dict:
            tp = typing.get_args(tp)[1]
        elif origin in (typing.Union, types.UnionType) and isinstance(seg, str):
            found = words.tagged.get(seg)
            if found is None:
                return None
            tp = found
        else:
            return None
    tp = _unwrap(tp)
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def _keys_of(model: type[BaseModel]) -> list[str]:
    return [f.alias or n for n, f in model.model_fields.items()]


def from_pydantic(error: Any, data: object, words: Vocabulary) -> Problem | None:
    """``error`` from pydantic as a ``Problem``; None for an error that only follows from
    another one (a list reported too short because its items failed)."""
    loc: tuple[str | int, ...] = tuple(error["loc"])
    kind: str = error["type"]
    value = error.get("input")
    ctx = error.get("ctx") or {}
    found, _ = _data_path(data, loc)
    if kind == "missing":
        key = loc[-1]
        model = _model_at(loc[:-1], words)
        if key == "side" and model is not None and model in words.tagged.values():
            return Problem(found, "this condition names no side: add 'side: attacker' or "
                           "'side: defender' (the side it is about)")
        return Problem(found, missing_key(key))
    if kind == "extra_forbidden":
        key = loc[-1]
        model = _model_at(loc[:-1], words)
        return Problem(found, unknown_key(key, _keys_of(model) if model is not None else [],
                                          list_all=True))
    if kind == "union_tag_invalid":
        tags = list(CONDITION_TYPES)
        kinds = [t for t in tags if t not in COMBINATORS]
        return Problem(found, f"unknown condition type {ctx.get('tag')!r}"
                       f"{nearest_hint(ctx.get('tag'), tags, cutoff=0.5)}; "
                       f"the types are {', '.join(kinds)}")
    if kind == "union_tag_not_found":
        names = ", ".join(t for t in CONDITION_TYPES if t not in COMBINATORS)
        if isinstance(value, dict):
            return Problem(found, "this condition does not say what it is: add 'type:' (one of "
                           f"{names}), or write it as 'all:', 'any:' or 'not:'")
        return Problem(found, f"expected a condition (a mapping with 'type:', or 'all:', "
                       f"'any:' or 'not:'), found {described(value)}")
    if kind in _KINDS:
        return Problem(found, wrong_kind(_KINDS[kind], value))
    if kind in ("enum", "literal_error"):
        expected = str(ctx.get("expected", ""))
        choices = [c.strip(" '") for c in expected.replace(" or ", ",").split(",") if c.strip()]
        return Problem(found, not_one_of(value, choices, expected))
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": ("at least", "ge"), "greater_than": ("more than", "gt"),
                 "less_than_equal": ("at most", "le"), "less_than": ("less than", "lt")}[kind]
        return Problem(found, out_of_range(bound[0], ctx.get(bound[1]), value))
    if kind == "too_short":
        if isinstance(value, list | dict) and len(value) >= int(ctx.get("min_length", 1)):
            return None
        return Problem(found, EMPTY)
    if kind == "string_too_short":
        return Problem(found, EMPTY)
    if kind == "recursion_loop":
        return Problem(found, "this refers back to itself (a YAML alias inside its own anchor)")
    if kind == "invalid_key":
        return Problem(found, f"every key must be a word, not {described(value)}")
    if kind == "value_error":
        return Problem(found, str(ctx.get("error", error["msg"])))
    return Problem(found, str(error["msg"]))


__all__ = ["Vocabulary", "from_pydantic", "worded"]
