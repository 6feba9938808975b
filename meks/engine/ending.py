"""The end of a turn and of the battle (R4.3, R6.10, R6.13, R7, R8.1): a hidden Mek alone
with enemies found, heat fading, the zones each side saw occupied, the victory conditions
judged, and the house rule's withdrawal or overrun."""

from __future__ import annotations

from meks.engine import FOUND, UNMASKED
from meks.engine.board import ATTACKER, DEFENDER, Board, among
from meks.engine.decisions import RETREAT_HITS, Retreat
from meks.engine.log import Kind
from meks.game.victory import BattleState, Outcome, UnitState, Verdict, judge
from meks.game.vocabulary import SIDES, UnitKind


def end_turn(b: Board) -> None:
    if b.revision >= FOUND:
        find_hidden(b)
    for zone in list(b.engagements):
        if not b.contested(zone) and not b.contested(zone, hidden=True):
            del b.engagements[zone]
    attacking: list[int] = []
    defending: list[int] = []
    for u in b.units:
        if u.zone and not u.decoy and u.on_map:
            (attacking if u.side is ATTACKER else defending).append(u.zone)
    b.history.append({ATTACKER: frozenset(attacking), DEFENDER: frozenset(defending)})
    if b.secret or b.sight.covers:
        see_history(b)
    else:
        for seen in b.sight.seen_history.values():
            seen.append(b.history[-1])
    for unit in b.units:
        unit.heat = 0  # R6.10: heat fades at the end of every turn
    b.verdict = judge(b.scenario, view(b), played_out_words=b.revision >= UNMASKED)
    if b.turn >= b.scenario.turn_limit and not b.verdict.decided:
        b.verdict = Verdict(Outcome.DRAW, "the turn limit was reached")
    if b.house.withdrawal and not b.verdict.decided:
        withdrawals(b)
    if b.verdict.decided:
        b.note(Kind.VICTORY, f"Battle over: {b.verdict}.")


def find_hidden(b: Board) -> None:
    """R4.3 (our decision, from revision ``FOUND`` on): a hidden Mek that ends the turn
    alone with enemy units its side can see, no visible friend in its zone, is found there:
    it may come out to fight first, but it cannot keep a zone from the enemy for good."""
    for unit in b.units:
        if unit.hidden and unit.on_map and b.alone_among_enemies(unit):
            unit.hidden = False
            b.note(Kind.NOTE, f"{unit.name} is found in zone {unit.zone}: the "
                   f"{unit.side.enemy.value}'s units there search it out as the turn ends.",
                   unit)


def withdrawals(b: Board) -> None:
    """House rule withdrawal (R6.13): at the end of a turn that does not end the battle,
    the attacker and then the defender may withdraw (and lose) or, when it clearly wins,
    overrun (and win). Either ends the battle at once; each of the side's units still
    on the map takes ``RETREAT_HITS`` Hits, never its last one (no die, no critical)."""
    for side in SIDES:
        view = b.sight.views[side is DEFENDER]
        options = view.withdrawal_options()
        answer = b.asked[side].withdrawal(view, side, list(options))
        if among(answer, options) < 0:
            raise b.refuse(side, "withdrawal", answer)
        if answer is Retreat.FIGHT:
            continue
        b.decided(side, answer.value)
        b.early = (side, answer)
        for unit in b.side_units(side):
            if unit.on_map and not unit.decoy and not unit.is_infantry:
                hits = min(RETREAT_HITS, unit.remaining - 1)
                if hits > 0:
                    unit.hits += hits
                    b.note(Kind.DAMAGE, f"{unit.name} takes {hits} Hit"
                           f"{'s' * (hits != 1)} as its side "
                           f"{'withdraws' if answer is Retreat.WITHDRAW else 'overruns'}"
                           f" ({unit.hits}/{unit.max_hits}).", unit, value=unit.hits)
        if answer is Retreat.WITHDRAW:
            b.verdict = Verdict(Outcome.win_for(side.enemy),
                                f"the {side.value} withdrew after turn {b.turn}")
        else:
            b.verdict = Verdict(Outcome.win_for(side),
                                f"the {side.value} overran the {side.enemy.value} "
                                f"after turn {b.turn}")
        return


def see_history(b: Board) -> None:
    """R8.1: the zones each side saw occupied at the end of this turn: its own, and the
    enemy's that it can see (a Decoy as the Mek it passes for)."""
    history = b.history[-1]
    for side in SIDES:
        theirs: list[int] = []
        for u in b.units:
            if u.side is not side and u.zone and u.on_map and not u.hidden and \
                    (u.kind is not UnitKind.INFANTRY or u.detected):
                theirs.append(u.zone)
        mine = history[side]
        b.sight.seen_history[side].append(
            {side: mine, side.enemy: frozenset(theirs)})


def view(b: Board) -> BattleState:
    attacker: list[UnitState] = []
    defender: list[UnitState] = []
    for u in b.units:
        if not u.decoy:
            (attacker if u.side is ATTACKER else defender).append(UnitState(
                u.id, u.kind, u.zone if u.on_map else None, u.points, u.group,
                u.setup_zone, u.destroyed_turn, u.exited_turn, u.exit_edge, u.exit_zone))
    return BattleState(turn=b.turn, attacker=tuple(attacker), defender=tuple(defender),
                       history=tuple(b.history))
