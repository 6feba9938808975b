"""The rules in a few lines, for the printed quick reference of the play sheet: the steps of a
turn and the faces of the critical table. Every number comes from the rules core, so the
sheet says what the engine plays.
"""

from __future__ import annotations

from meks.game.criticals import (
    COMPUTERS,
    CRITICAL_TABLE,
    LEG_DAMAGED,
    PILOT_WOUNDED,
    REACTOR_CORE,
    SYSTEM_LOST,
    WEAPON_DESTROYED,
    WOUNDED_ACTS,
)
from meks.game.rules import (
    COMPUTERS_MODIFIER,
    LEG_DAMAGE_MOVE,
    SECOND_MOVE_HEAT,
    SURPRISE_INITIATIVE,
    TACTICS_INITIATIVE,
)


def turn_sequence(rounds: int) -> tuple[str, ...]:
    """R5.2: the steps of one turn, a line each, for a printed quick reference (``rounds``:
    the most rounds one zone combat fights in one combat step, house rule
    ``combat_rounds``). Every number is the one the engine plays with."""
    return (
        "Start of the turn: heat from last turn's second movement counts; each unit with a "
        f"wounded pilot or crew acts only on {WOUNDED_ACTS.need}+; support that works now "
        "is used.",
        f"Initiative: each side rolls a die (Tactics +{TACTICS_INITIATIVE}, Surprise "
        f"+{SURPRISE_INITIATIVE} on the first roll); ties roll again; the winner chooses "
        "who moves first.",
        "The first side moves: each unit one zone (or off the map where the scenario lets "
        "it); no unit leaves a zone that holds enemies it can see.",
        "Combat step: Advanced sensors and Hawkeye look first; then zones 1 to 9 in turn, "
        f"each contested zone fighting up to {rounds} round{'s' * (rounds != 1)}.",
        "The other side moves.",
        "Combat step again (a zone that has fought this turn does not fight again).",
        "Second movement, if the initiative winner wants it: not into a zone the enemy "
        f"holds; each Mek that makes it carries +{SECOND_MOVE_HEAT} heat into next turn.",
        "End of the turn: all heat fades; both sides' victory conditions are checked.",
    )


def critical_effects() -> tuple[tuple[int, str, str], ...]:
    """R6.9: each face of the critical table (``CRITICAL_TABLE``), its name and its effect
    in a few words, for a printed quick reference."""
    need = CRITICAL_TABLE.reactor.need
    text = {
        PILOT_WOUNDED: f"From its next round the unit acts only on {WOUNDED_ACTS.need}+ "
                       "(rolled each turn and each later round); the pilot recovers after "
                       "the scenario.",
        LEG_DAMAGED: f"{LEG_DAMAGE_MOVE:+d} on the unit's movement rolls, for each one.",
        WEAPON_DESTROYED: "One working weapon, picked at random, is destroyed.",
        REACTOR_CORE: f"Roll at once: on 1-{need - 1} the reactor explodes, the unit is "
                      f"destroyed and its pilot dies; on {need}+ nothing happens.",
        COMPUTERS: f"{COMPUTERS_MODIFIER:+d} to hit on all the unit's attacks in its next "
                   "round of combat.",
        SYSTEM_LOST: "One working system other than armor, picked at random, is destroyed.",
    }
    return tuple((face, name, text[effect])
                 for face, (effect, name) in enumerate(CRITICAL_TABLE.faces, start=1))


CRITICAL_CHECK_TEXT = ("After every Hit, roll a die: a roll higher than the Hits the unit has "
                       "left is a critical hit (the killing Hit always is).")


__all__ = ["CRITICAL_CHECK_TEXT", "critical_effects", "turn_sequence"]
