"""Tactical Zone Combat: battles fought on the 3x3 map by the rules (docs/rules.md §5-§7)."""
