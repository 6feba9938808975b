"""How ``--help`` shows arguments and options: in the player's words, not Python's.

Typer labels every value with its Python type (``<str>``, ``<bool>``, ``<list[str]>``,
``<int range> [1<=x<=10000]``). Here a flag shows no label at all, a value shows a name
in capitals (its metavar, else the option's own name), an option with a fixed set of
values lists them (``win|loss|draw``), and a number's limits join the help text as a
sentence, so nothing splits over two lines at 80 columns.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from typer.core import TyperArgument, TyperOption

from cli.coercion import SUPPORTED, deferred_runtime_param

LARGEST_SHOWN = 2**31  # an upper limit beyond this only guards the database: not shown


def choices_metavar(*values: str) -> str:
    """The label of an option that takes one of ``values``: ``win|loss|draw``."""
    return "|".join(values)


def _choice_label(param: Any) -> str | None:
    choices = getattr(param.type_descriptor, "choices", None)
    if not choices:
        return None
    return choices_metavar(*(str(c.value if isinstance(c, Enum) else c) for c in choices))


def limits_sentence(low: float | None, high: float | None) -> str | None:
    """A number's limits in words: "From 1 to 10,000.", "At least 0.", "At most 5."."""
    if high is not None and high >= LARGEST_SHOWN:
        high = None
    if low is not None and high is not None:
        return f"From {low:,} to {high:,}."
    if low is not None:
        return f"At least {low:,}."
    if high is not None:
        return f"At most {high:,}."
    return None


class MeksArgument(TyperArgument):
    """An argument named in capitals (``COMPANY``, ``MEK...``) with no type label;
    the usage line writes an optional one in brackets, as most tools do. Its value is
    checked as Typer checks it, with pydantic loaded only when needed (``cli.coercion``)."""

    if SUPPORTED:
        get_runtime_param = deferred_runtime_param

    def _name(self) -> str:
        return (self.metavar or (self.name or "value").upper())

    def _rich_display_name(self) -> str:
        return self._name() + ("..." if self.nargs != 1 and self.metavar is None else "")

    @property
    def display_name_raw(self) -> str:
        return self._name()

    def _usage_display_name(self) -> str:
        name = self._name() if self.required else f"[{self._name()}]"
        return name + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def display_type(self, ctx: Any) -> str:
        return ""

    def _get_number_range_help_str(self) -> str | None:
        return None


class MeksOption(TyperOption):
    """A flag with no label; a value option labelled by its metavar, its choices, or its
    name in capitals; limits said in the help text (see ``polish``). Its value is checked
    as Typer checks it, with pydantic loaded only when needed (``cli.coercion``)."""

    if SUPPORTED:
        get_runtime_param = deferred_runtime_param

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.metavar is not None:
            return self.metavar
        if self.is_flag or self.count:
            return None
        label = _choice_label(self) or (self.name or "value").upper()
        return label + ("..." if self.nargs != 1 else "")

    def _get_number_range_help_str(self) -> str | None:
        return None


def polish(command: Any, help_names: list[str]) -> None:
    """Give every parameter of ``command`` the labels above and its limits in words.
    Its ``--help`` option, which click makes on first use, is made here with
    ``help_names`` (the root's ``help_option_names``) so that it is labelled alike."""
    from types import SimpleNamespace

    help_option = command.get_help_option(SimpleNamespace(help_option_names=help_names))
    for param in [*getattr(command, "params", ()), *([help_option] if help_option else [])]:
        if isinstance(param, TyperOption) and not isinstance(param, MeksOption):
            param.__class__ = MeksOption
        elif isinstance(param, TyperArgument) and not isinstance(param, MeksArgument):
            param.__class__ = MeksArgument
        else:
            continue
        limits = limits_sentence(getattr(param, "min", None), getattr(param, "max", None))
        if limits and not getattr(param, "count", False):
            param.help = f"{param.help} {limits}" if param.help else limits
