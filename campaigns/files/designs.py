"""Custom Mek designs read from YAML files."""

from __future__ import annotations

from pathlib import Path

from campaigns.files.reading import DESIGN, read_yaml_file
from meks.game.catalog import Design
from meks.game.construction import design_from_data


def load_design_file(path: Path) -> Design:
    """The design described in the YAML file at ``path``; ``InputError`` if unreadable."""
    return design_from_data(read_yaml_file(path, DESIGN), str(path))
