"""Pydantic's errors in plain words: each error pydantic reports about a file's data becomes a
``Problem`` worded as every file problem is (``meks.game.errors``), at the path of the value
it concerns as the file has it.

A ``Vocabulary`` says which model the file's data is checked against (``root``) and which
model each tag of a tagged union stands for (``tagged``: a scenario's victory conditions), so
that an unknown key is answered with the keys that model allows.

Every file a player gives is checked through here: rosters, designs, force files and campaign
plans by ``checked``, scenarios by ``worded`` (their problems then get their lines). Only the
first problems are worded, and a file with a million wrong entries costs little more than
validating it once: pydantic counts its errors, and the ones listed are found again in a copy
of the file cut to its first entries (``worded`` with ``validate``).
"""

from __future__ import annotations

import itertools
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from campaigns.files.reading import LineIndex
from meks.game.conditions import COMBINATORS, CONDITION_TYPES
from meks.game.errors import (
    EMPTY,
    MAX_LISTED,
    InputError,
    described,
    missing_key,
    nearest_hint,
    not_one_of,
    out_of_range,
    problem,
    unknown_key,
    wrong_kind,
)
from meks.game.scenario_checks import Problem
from meks.game.vocabulary import Path


@dataclass(frozen=True)
class Vocabulary:
    """What a file is checked against: its root model, and the model of each union tag."""

    root: type[BaseModel]
    tagged: Mapping[str, type[BaseModel]] = field(default_factory=dict)


M = TypeVar("M", bound=BaseModel)

# The model of a file a player writes by hand (a force file, a campaign plan): no unknown
# key, and a name written as a bare number taken as text ("design: 6" for a design called 6).
HAND_WRITTEN = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)


def checked(model: type[M], data: object, source: str, lines: LineIndex | None = None) -> M:
    """``data`` (a file's parsed YAML or JSON) validated by ``model``, or ``InputError``
    (exit 2) naming its problems as every file problem is worded ("line 4 (PATH): what is
    wrong; what to do"; the line when ``lines`` holds the file's)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        found, unlisted = worded(exc, data, Vocabulary(model), validate=model.model_validate)
        raise InputError(source, [problem(p.message, lines.line_of(p.path) if lines else None,
                                          p.where) for p in found], unlisted) from None


# Past this many errors, those listed are found again in a copy of the file cut to its
# first entries: turning a million of pydantic's errors into Python objects takes seconds.
_MANY = 1_000


def worded(exc: ValidationError, data: object, words: Vocabulary,
           prefix: tuple[str, ...] = (),
           validate: Callable[[object], object] | None = None) -> tuple[list[Problem], int]:
    """The first problems in ``exc`` in plain words (one more than a message lists, so that
    it still says there are more), and how many more errors pydantic found, counted but not
    worded: a file with 20,000 unknown keys costs no time on 20,000 spelling hints.
    ``validate``: what raised ``exc`` on ``data``; with it, the errors of a file with a great
    many are found again in a copy cut to its first entries (``_first_errors``)."""
    total = exc.error_count()
    if validate is not None and total > _MANY:
        data, errors = _first_errors(exc, data, words, validate)
    else:
        errors = exc.errors(include_url=False)
    first = itertools.islice(errors, MAX_LISTED + 1)
    found = _dedupe(_merged(
        (e, from_pydantic({**e, "loc": (*prefix, *e["loc"])}, data, words)) for e in first))
    return found, max(0, total - (MAX_LISTED + 1))


def _dedupe(problems: Iterator[Problem | None]) -> list[Problem]:
    return list(dict.fromkeys(p for p in problems if p is not None))


def _merged(pairs: Iterator[tuple[Any, Problem | None]]) -> Iterator[Problem | None]:
    """A value that is none of a union's kinds (a mapping or a list) is one problem, not one
    per kind: 'expected a mapping of keys to values or a list, found ...'."""
    held: tuple[Problem, object, list[str]] | None = None  # a wrong kind, and its value
    for error, found in pairs:
        kind = _KINDS.get(error["type"])
        if held is not None and kind is not None and found is not None \
                and found.path == held[0].path and error.get("input") is held[1]:
            held[2].append(kind)
            continue
        if held is not None:
            yield _wrong_kinds(*held)
            held = None
        if kind is not None and found is not None:
            held = (found, error.get("input"), [kind])
        else:
            yield found
    if held is not None:
        yield _wrong_kinds(*held)


def _wrong_kinds(found: Problem, value: object, kinds: list[str]) -> Problem:
    return found if len(kinds) == 1 else Problem(found.path, wrong_kind(" or ".join(kinds),
                                                                        value))


def _first_errors(exc: ValidationError, data: object, words: Vocabulary,
                  validate: Callable[[object], object]) -> tuple[object, list[Any]]:
    """The first of a great many errors, with the data they were found in: ``data`` cut to
    its first entries (``_cut``), as many as it takes to find some errors but not too many.
    The cut grows until it shows errors and, if it then shows too many, shrinks again."""
    keep = _known_keys(words)
    passed, most = 0, MAX_LISTED + 1
    while True:
        cut = _cut(data, keep, most)
        try:
            validate(cut)
        except ValidationError as again:
            if again.error_count() <= _MANY or most - passed <= 1:
                return cut, again.errors(include_url=False)
            most = (passed + most) // 2
            continue
        if cut == data:  # the cut copy is the whole file after all
            return data, exc.errors(include_url=False)
        passed, most = most, most * 16


def _cut(data: object, keep: frozenset[str], most: int, depth: int = 0) -> object:
    """``data`` with every list cut to its first ``most`` items and every mapping to the keys
    some model knows (so that no key it needs is missing) and its first ``most`` others."""
    if depth > 200:
        return data
    if isinstance(data, list):
        return [_cut(item, keep, most, depth + 1) for item in data[:most]]
    if isinstance(data, dict):
        others = itertools.count()
        return {key: _cut(value, keep, most, depth + 1) for key, value in data.items()
                if (isinstance(key, str) and key in keep) or next(others) < most}
    return data


def _known_keys(words: Vocabulary) -> frozenset[str]:
    """Every key a model of ``words`` names, at any depth."""
    keys: set[str] = set()
    seen: set[type[BaseModel]] = set()

    def walk(tp: Any) -> None:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp in seen:
                return
            seen.add(tp)
            keys.update(_keys_of(tp))
            for info in tp.model_fields.values():
                walk(info.annotation)
            return
        for arg in typing.get_args(tp):
            walk(arg)

    for model in (words.root, *words.tagged.values()):
        walk(model)
    return frozenset(keys)


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
    if kind == "string_pattern_mismatch":  # r"\S": some text that is not only spaces
        pattern = ctx.get("pattern")
        return Problem(found, EMPTY if pattern == r"\S" else f"must match {pattern}")
    if kind == "recursion_loop":
        return Problem(found, "this refers back to itself (a YAML alias inside its own anchor)")
    if kind == "invalid_key":
        return Problem(found, f"every key must be a word, not {described(value)}")
    if kind == "value_error":
        return Problem(found, str(ctx.get("error", error["msg"])))
    return Problem(found, str(error["msg"]))


__all__ = ["HAND_WRITTEN", "Vocabulary", "checked", "from_pydantic", "worded"]
