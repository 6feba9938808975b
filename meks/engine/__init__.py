"""Tactical Zone Combat: battles fought on the 3x3 map by the rules (docs/rules.md §5-§7)."""

# The engine's revision. It goes up whenever the same scenario, forces, dice and decisions
# could give a different battle log: a rule fixed, a message reworded, the bot or the
# baseline choosing differently (a battle they commanded is fought again by them when
# replayed). Every stored battle records the revision it was fought under (battles from
# before there was one count as 1), so a replay that differs can say why. docs/rules.md
# lists what each revision changed.
REVISION = 7
