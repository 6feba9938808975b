"""Tactical Zone Combat: battles fought on the 3x3 map by the rules (docs/rules.md §5-§7)."""

from __future__ import annotations

import dataclasses

from meks.game.scenario import Scenario
from meks.game.vocabulary import BreakContact

# The engine's revision. It goes up whenever the same scenario, forces, dice and decisions
# could give a different battle log: a rule fixed, a message reworded, the bot or the
# baseline choosing differently (a battle they commanded is fought again by them when
# replayed). Every stored battle records the revision it was fought under (battles from
# before there was one count as 1), so a replay that differs can say why. docs/rules.md
# lists what each revision changed.
REVISION = 17

# The first revision to fight a zone combat in rounds and to withdraw on breaking contact
# (R5.2, R6.3 as revised). Battles of earlier revisions were fought under the earlier
# readings, which the house rules ``combat_rounds: 1`` and ``break_contact: stay`` keep.
ROUNDS = 8

# The first revision in which a hidden Mek still alone with enemy units at the end of a turn
# is found there (R4.3, our decision in docs/rules.md): before it, one could stay hidden all
# battle and keep the enemy from ever occupying, holding or clearing its zone.
FOUND = 14

# The first revision in which Battle Damage dealt to a decoy identifies it, so that it
# vanishes as an ID roll would make it (R4.3, R8.1, our decision in docs/rules.md): before
# it, the dealer was told that no damage showed while its map kept the decoy as a Mek. From
# it on, too, a Recon Drone's line names whose drone it is, and a battle ended early because
# a side has nothing left reads that the rest was judged as it would stand at the turn limit.
UNMASKED = 15

# The first revision in which a decoy shows under a callsign of its own, the copied Mek's
# design with the first number its side does not use ("DEMON-2 (D)"): before it, the decoy
# bore the very name of the Mek it copied, so two contacts of one name told the enemy that
# one of them was a decoy, and which Mek it copied (R8.1, our decision in docs/rules.md).
DISGUISED = 16

# The first revision in which a decoy's callsign takes the shape of the copied Mek's own:
# its words with the first number its side does not use ("Enemy VIPER-2 (D)" beside "Enemy
# VIPER-1 (D)"), or, for a callsign with no number, a callsign from a list of our own. In
# revision 16 it was always the design and a number, which stood out among callsigns of
# another shape, a company's "Enemy ..." or a player's own (R8.1, docs/rules.md).
LOOKALIKE = 17


def as_fought_under(scenario: Scenario, revision: int) -> Scenario:
    """``scenario`` with the readings of R5.2 and R6.3 that engine ``revision`` fought
    under, so that a battle stored (or a play begun) under it goes on, and replays, as it
    was fought."""
    if revision >= ROUNDS:
        return scenario
    return dataclasses.replace(scenario, house_rules=dataclasses.replace(
        scenario.house_rules, combat_rounds=1, break_contact=BreakContact.STAY))
