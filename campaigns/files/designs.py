"""Custom Mek designs read from YAML files, checked by their pydantic model."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, field_validator

from campaigns.files.model_errors import HAND_WRITTEN, checked
from campaigns.files.reading import DESIGN, LineIndex, read_yaml_lines
from meks.game.catalog import Design, Size
from meks.game.construction import design_name_problem
from meks.game.errors import InputError


class DesignFile(BaseModel):
    """A custom design file: its name, chassis size (in any case) and parts."""

    model_config = HAND_WRITTEN

    name: str
    size: Size
    weapons: tuple[str, ...] = ()
    systems: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    @field_validator("size", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        if isinstance(value, str):
            wanted = value.strip().casefold()
            return next((s for s in Size if s.value.casefold() == wanted), value)
        return value


def design_from_data(data: object, source: str, lines: LineIndex | None = None) -> Design:
    """A design from parsed YAML: ``name``, ``size``, ``weapons`` and ``systems`` lists
    (``lines``: the file's, to say where a problem is).

    Raises ``InputError`` for a missing or mistyped field; a stock design's printed price
    may not be claimed by a custom one.
    """
    if isinstance(data, dict) and "price" in data:
        raise InputError(source, ["a custom design has no printed 'price'; the price is "
                                  "computed from its parts, so remove the key"])
    model = checked(DesignFile, data, source, lines)
    try:
        design = Design(model.name, model.size, model.weapons, model.systems,
                        aliases=model.aliases)
    except ValueError as exc:  # the design's own check: a name that is only spaces
        raise InputError(source, [str(exc)]) from None
    wrong = design_name_problem(design.name)
    if wrong:
        raise InputError(source, [wrong])
    return design


def load_design_file(path: Path) -> Design:
    """The design described in the YAML file at ``path``; ``InputError`` if unreadable."""
    data, lines = read_yaml_lines(path, DESIGN)
    return design_from_data(data, str(path), lines)
