"""Reading the YAML files players write, with errors that name the file."""

from __future__ import annotations

from pathlib import Path

from meks.errors import InputError
from meks.yamlio import parse_yaml


def read_yaml_file(path: Path) -> object:
    """The plain data in the YAML file at ``path``; ``InputError`` (exit 2) if unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), ["no such file"]) from None
    except IsADirectoryError:
        raise InputError(str(path), ["this is a folder, not a file"]) from None
    except UnicodeDecodeError:
        raise InputError(str(path), ["not a text file (expected UTF-8 YAML)"]) from None
    except OSError as exc:
        raise InputError(str(path), [f"cannot be read ({exc.strerror})"]) from None
    data = parse_yaml(text, str(path))
    if data is None:
        raise InputError(str(path), ["the file is empty"])
    return data
