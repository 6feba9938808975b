"""The Meks & Mercs game itself, in three rooms: ``meks.game`` (the game's data and rules),
``meks.engine`` (a battle, turn by turn, and the bot) and ``meks.analysis`` (odds without
playing: the exact duel, many battles, the estimate).

This package is pure: it reads nothing but its own package data, touches no database and
no terminal.
"""

__version__ = "0.1.0"


def engine_build() -> str:
    """``"compiled"`` when the battle engine runs as modules compiled with mypyc (installed
    with ``MEKS_COMPILE=1``), else ``"plain"``. Finds the module without importing it."""
    from importlib.util import find_spec

    spec = find_spec("meks.engine.core")
    origin = spec.origin if spec is not None else None
    return "compiled" if origin is not None and origin.endswith((".so", ".pyd")) else "plain"
