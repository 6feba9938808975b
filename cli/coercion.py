"""Typer's checking of a parameter's value, built only when a value needs it.

Typer checks every value it hands a command with a pydantic ``TypeAdapter``, which it
builds for each parameter the first time the parameter is processed, even when there is no
value to check (an option left out). Building the first one imports pydantic, which costs a
command that has no other use for it (``meks catalog designs``, ``meks catalog show rail``)
more than the rest of its start-up. Here the adapter is built at the first value that needs
it, and the two cases whose outcome needs none are answered directly, exactly as Typer
answers them:

- no value (``None``): nothing for a single value, an empty tuple for a repeatable one;
- plain text for a parameter typed plain ``str`` (no parser, not a file or path, one value):
  the text itself, unchanged.

Every other value goes through Typer's own adapter. ``tests/test_startup.py`` holds these
answers equal to the adapter's and checks that the catalog commands never import pydantic.
"""

from __future__ import annotations

from typing import Any

import typer.core

# The Typer pieces this leans on are not public. A Typer without them keeps its own checking
# (pydantic loaded at start-up, as before): ``SUPPORTED`` says whether ours is in use.
_TyperParameter: Any = getattr(typer.core, "_TyperParameter", None)
SUPPORTED = _TyperParameter is not None and hasattr(_TyperParameter, "get_runtime_param")


def deferred_runtime_param(param: Any) -> Any:
    """``get_runtime_param`` for our parameter classes (``cli.help_format``): Typer's
    checker once it is built, else a stand-in that builds it when a value needs it."""
    built = getattr(param, "_runtime_param", None)
    if built is not None:
        return built
    return _Unbuilt(param)


def takes_plain_text(param: Any) -> bool:
    """Whether Typer's checker for ``param`` hands back any ``str`` value unchanged: the
    parameter is typed ``str`` and takes one value, with no parser and no file or path."""
    desc = param.type_descriptor
    return (desc.annotation is str and desc.parameter_info.parser is None
            and desc.file_annotation is None and not desc.is_path
            and not param.multiple and param.nargs == 1)


def built_runtime_param(param: Any) -> Any:
    """Typer's own checker for ``param``, built (and kept by the parameter) now."""
    return _TyperParameter.get_runtime_param(param)


class _Unbuilt:
    """Stands in for Typer's checker until a value needs the real one."""

    __slots__ = ("_param",)

    def __init__(self, param: Any) -> None:
        self._param = param

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        if type(value) is str and takes_plain_text(self._param):
            return value
        return built_runtime_param(self._param).coerce(value, param=param, ctx=ctx)
