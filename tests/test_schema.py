"""The dataclass builder behind every data file: all problems at once, nearest-key hints."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meks.game.errors import InputError
from meks.game.schema import build, build_list


class Colour(enum.Enum):
    RED = "Red"
    BLUE = "Blue"


@dataclass(frozen=True)
class Inner:
    value: int


@dataclass(frozen=True)
class Thing:
    name: str
    colour: Colour
    count: int = 0
    tags: tuple[str, ...] = ()
    inner: Inner | None = None
    extra: int | dict[str, int] | None = None


def test_builds_nested_values_and_matches_enums_ignoring_case() -> None:
    thing = build(Thing, {"name": "a", "colour": "red", "tags": ["x"], "inner": {"value": 2},
                          "extra": {"k": 1}}, "t")
    assert thing == Thing("a", Colour.RED, 0, ("x",), Inner(2), {"k": 1})


def test_collects_every_problem_with_its_path() -> None:
    with pytest.raises(InputError) as info:
        build(Thing, {"colour": "green", "count": "many", "tagz": [], "inner": {"value": True}},
              "t.yaml")
    problems = info.value.problems
    # a problem with the whole file has no place: 't.yaml: missing required key ...', as in
    # every other kind of file (one wording, issue 14 item 2)
    assert "missing required key 'name'; add it" in problems
    assert any(p.startswith("colour:") and "Red, Blue" in p for p in problems)
    assert any(p.startswith("count:") and "whole number" in p for p in problems)
    assert any("unknown key 'tagz'" in p and "did you mean 'tags'" in p for p in problems)
    assert any(p.startswith("inner.value:") for p in problems)
    assert str(info.value).startswith("t.yaml has 5 problems")


def test_booleans_are_not_numbers() -> None:
    with pytest.raises(InputError):
        build(Thing, {"name": "a", "colour": "Red", "count": True}, "t")


def test_list_items_are_named_by_index() -> None:
    with pytest.raises(InputError) as info:
        build_list(Inner, [{"value": 1}, {"value": "x"}], "t")
    assert info.value.problems == ("[1].value: expected a whole number, found text 'x'; "
                                    "write a whole number here",)


json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)


@given(json_like)
def test_property_any_data_either_builds_or_raises_input_error(data: object) -> None:
    try:
        build(Thing, data, "fuzz")
    except InputError as exc:
        assert exc.problems
