"""Every state each Mek of the exact duel can reach, numbered, and the attacks between them:
the first step of ``meks.analysis.duel_arrays.ArrayChain``.

Each Mek's states are numbered twice: the states it can have at the start of a turn
(``start``) and during a turn (``mid``: after being fired at, possibly destroyed). An attack
takes the target's start states to its mid states; the end of the turn takes its live mid
states to start states. ``explore`` repeats both until nothing new appears, and gives each
attack as entries (target's start state, target's mid state, chance), one array of each.

An attack reads only the target's Hits, weapons and systems (its *core*); its Leg Damage,
Computers damage and a wound (its *marks*) are only added to. So the attack is worked out
once per core (a *kernel*: the outcomes as the target's core and marks after it, each
numbered, and their chances), and each start state of that core takes it with its own
marks: which mid state each (marks, outcome) leads to is kept in a table, filled in as
they are first met. The states are numbered in the order the state-by-state walk of the
same attacks first meets them, so the numbers, and every figure that follows from them,
are the same as that walk's.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any, TypeVar

import numpy as np

from meks.analysis.duel_chain import DuelChain, MekState, next_turn

BANDS = (0, 1, 2)  # Short, Medium, Long
# A fire class: (names of the weapons fired, Targeting Array, Computers damage this turn).
FireClass = tuple[tuple[str, ...], bool, bool]
Array = Any  # numpy arrays (numpy's own types are too loose to help here)
# an attack's entries: rows (target's start states), columns (its mid states), chances
Entries = tuple[Array, Array, Any]
EntryKey = tuple[int, FireClass, int]  # (target side, shooter's fire class, band)
T = TypeVar("T")


class Side:
    """One Mek's numbered states and the facts the arrays need about them."""

    def __init__(self, start: MekState, max_hits: int) -> None:
        self.max_hits = max_hits
        self.start: list[MekState] = [start]
        self.start_index: dict[MekState, int] = {start: 0}
        self.mid: list[MekState] = []
        self.mid_index: dict[MekState, int] = {}

    def add_start(self, state: MekState) -> int:
        return _number(self.start, self.start_index, state)

    def add_mid(self, state: MekState) -> int:
        return _number(self.mid, self.mid_index, state)

    def dead(self, state: MekState) -> bool:
        return state[0] >= self.max_hits


def _number(states: list[T], index: dict[T, int], state: T) -> int:
    """``state``'s number among ``states``, adding it at the end if it is new."""
    i = index.get(state)
    if i is None:
        i = index[state] = len(states)
        states.append(state)
    return i


def fire_class(duel: DuelChain, side: int, state: MekState, band: int) -> FireClass | None:
    """How Mek ``side`` fires at ``band`` from ``state``; None when it fires nothing."""
    plan = duel.fire_plan(side, state, band)
    if not plan:
        return None
    return (tuple(w.name for w in plan), "Targeting Array" in state[3], state[4])


class _Target:
    """One Mek's start states as the attacks on it read them: each state's core and marks
    numbered, the outcomes of the attacks numbered, and the table of which mid state each
    (marks, outcome) leads to (-1 until first met)."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.cores: list[tuple[Any, ...]] = []
        self.core_index: dict[tuple[Any, ...], int] = {}
        self.core_of: list[int] = []  # per start state
        self.marks: list[tuple[Any, ...]] = []
        self.marks_index: dict[tuple[Any, ...], int] = {}
        self.marks_of: list[int] = []  # per start state
        # an outcome: the state an attack leaves a target of no marks in (a MekState)
        self.outcomes: list[MekState] = []
        self.outcome_index: dict[MekState, int] = {}
        self.outcome_of: dict[int, int] = {}  # by the duel's number of the state
        self.leads = np.full((8, 64), -1, dtype=np.int64)  # marks by outcome -> mid state
        self.kernels: dict[int, tuple[Array, Any]] = {}  # see ``_kernel``

    def number_starts(self) -> None:
        """Number the cores and marks of the start states added since the last call."""
        for state in self.side.start[len(self.core_of):]:
            self.core_of.append(_number(self.cores, self.core_index, (state[0], state[2],
                                                                      state[3])))
            self.marks_of.append(_number(self.marks, self.marks_index, state[1:2] + state[4:]))

    def mids(self, marks: Array, outcomes: Array) -> Array:
        """The mid state of each (marks, outcome): new ones numbered as they come."""
        rows, cols = len(self.marks), len(self.outcomes)
        if rows > self.leads.shape[0] or cols > self.leads.shape[1]:
            grown = np.full((max(rows, 2 * self.leads.shape[0]),
                             max(cols, 2 * self.leads.shape[1])), -1, dtype=np.int64)
            grown[:self.leads.shape[0], :self.leads.shape[1]] = self.leads
            self.leads = grown
        leads = self.leads
        got = leads[marks, outcomes]
        new = np.flatnonzero(got < 0)
        for at, m, o in zip(new.tolist(), marks[new].tolist(), outcomes[new].tolist(),
                            strict=True):
            j = leads[m, o]
            if j < 0:
                h, dl, w, s, _, c, wd = self.outcomes[o]
                legs, comp, comp_next, wounded = self.marks[m]
                j = leads[m, o] = self.side.add_mid(
                    (h, legs + dl, w, s, comp, comp_next or c, wounded or wd))
            got[at] = j
        return got


def explore(duel: DuelChain) -> tuple[tuple[Side, Side], dict[EntryKey, Entries]]:
    """Number every state each Mek can reach: attacks take start states to mid states, the
    end of the turn takes live mid states to start states; repeat until nothing new
    appears. Fire classes come from the shooter's start states (R6.0: it fires as it stood
    when the exchange began). Of two Meks alike (``DuelChain.mirror``), which reach the
    same states in the same order, only the first is explored (the caller copies it).
    Returns both Meks' states and the attacks' entries (chances in floats, as arrays, or
    as exact fractions, as lists, on an exact ``duel``)."""
    sides = tuple(Side(m.start(), m.max_hits) for m in duel.models)
    mirror = duel.mirror
    explored = (0,) if mirror else (0, 1)
    targets = [_Target(s) for s in sides]
    classes: tuple[dict[tuple[FireClass, int], MekState], ...] = ({}, {})
    seen = [0, 0]  # per side: start states whose classes are known
    done: dict[EntryKey, int] = {}
    nexted = [0, 0]  # per side: mid states whose end-of-turn states are added
    kernels: dict[tuple[int, FireClass, int], dict[int, tuple[Array, Any]]] = {}
    chunks: dict[EntryKey, list[tuple[Array, Array, Any]]] = {}
    busy = True
    while busy:
        busy = False
        for side in explored:
            states = sides[side].start
            while seen[side] < len(states):
                state = states[seen[side]]
                for band in BANDS:
                    fire = fire_class(duel, side, state, band)
                    if fire is not None and (fire, band) not in classes[side]:
                        classes[side][(fire, band)] = state
                seen[side] += 1
                busy = True
        for target in explored:
            shooter = 1 - target
            t = sides[target]
            tg = targets[target]
            tg.number_starts()
            for (fire, band), rep in list(classes[0 if mirror else shooter].items()):
                key = (target, fire, band)
                first = done.get(key, 0)
                if first >= len(t.start):
                    continue
                made = kernels.setdefault(key, {})
                cores = tg.core_of[first:]
                for core in set(cores).difference(made):
                    made[core] = _kernel(duel, shooter, rep, band, tg, core)
                parts = [made[core] for core in cores]
                sizes = [len(q) for _, q in parts]
                outcomes = np.concatenate([o for o, _ in parts])
                marks = np.repeat(np.asarray(tg.marks_of[first:], dtype=np.int64), sizes)
                chunks.setdefault(key, []).append((
                    np.repeat(np.arange(first, len(t.start), dtype=np.int64), sizes),
                    tg.mids(marks, outcomes),
                    list(chain.from_iterable(q for _, q in parts)) if duel.exact else
                    np.concatenate([q for _, q in parts])))
                done[key] = len(t.start)
                busy = True
            # an unhurt Mek's start state is also a mid state (not fired at, or missed)
            for state in t.start:
                t.add_mid(state)
            while nexted[target] < len(t.mid):
                state = t.mid[nexted[target]]
                if not t.dead(state):
                    t.add_start(next_turn(state, False))
                    t.add_start(next_turn(state, True))
                nexted[target] += 1
                busy = True
    joined: Callable[[list[Any]], Any] = ((lambda qs: list(chain.from_iterable(qs)))
                                          if duel.exact else np.concatenate)
    entries = {key: (np.concatenate([r for r, _, _ in parts]),
                     np.concatenate([c for _, c, _ in parts]),
                     joined([q for _, _, q in parts]))
               for key, parts in chunks.items()}
    return (sides[0], sides[1]), entries


def _kernel(duel: DuelChain, shooter: int, rep: MekState, band: int, target: _Target,
            core: int) -> tuple[Array, Any]:
    """What ``rep``'s fire does to a target of ``core`` with no marks: each outcome's
    number (its core and the marks it adds: Leg Damage taken, Computers damaged, pilot
    wounded) and its chance."""
    hits, weapons, systems = target.cores[core]
    attack = duel.attack_numbers(shooter, rep, (hits, 0, weapons, systems, False, False,
                                                False), band)
    # fire classes and bands that read alike share one attack (``DuelChain.attack_numbers``),
    # which the duel keeps, so its identity names it
    got = target.kernels.get(id(attack))
    if got is None:
        got = target.kernels[id(attack)] = _numbered(duel, target, attack)
    return got


def _numbered(duel: DuelChain, target: _Target, attack: dict[int, Any]) -> tuple[Array, Any]:
    """``_kernel``'s outcomes of ``attack`` (the duel's numbers of the states) numbered, and
    their chances."""
    known = target.outcome_of
    numbers = [known.get(s) for s in attack]
    if None in numbers:  # each outcome numbered as it comes (new ones: the next number)
        index, outcomes = target.outcome_index, target.outcomes
        for at, s in enumerate(attack):
            if numbers[at] is None:
                o = duel.numbered_state(s)
                i = index.get(o)
                if i is None:
                    i = index[o] = len(outcomes)
                    outcomes.append(o)
                numbers[at] = known[s] = i
    chances = list(attack.values())
    return (np.array(numbers, dtype=np.int64),
            chances if duel.exact else np.array(chances, dtype=float))


__all__ = ["BANDS", "Entries", "EntryKey", "FireClass", "Side", "explore", "fire_class"]
