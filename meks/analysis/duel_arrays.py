"""The exact duel's chain solved with arrays (floats): the fast path behind ``exact_duel``.

``meks.analysis.duel_chain.DuelChain`` describes one turn of the duel state by state, in
dictionaries, and can carry exact fractions; it is the reference. This module takes the same
transitions and solves the chain with NumPy and SciPy's sparse matrices, which is many times
faster for the larger Meks. Both give the same probabilities (to float rounding); the tests
compare them.

The key facts that keep the arrays small:

* Each Mek's states are numbered twice: the states it can have at the start of a turn
  (``start``: alive, no Computers damage pending) and the states it can have during a turn
  (``mid``: after being fired at, possibly destroyed). The joint distribution at the start of
  a turn is one dense matrix per band, first Mek's start states by the second Mek's.
* An attack changes only the target's state, and depends on the shooter only through its
  *fire class*: its fire plan at the band, whether it has a Targeting Array, and whether
  Computers damage hinders it this turn. Each Mek fires as it stood when the exchange began
  (R6.0), so the two attacks of an exchange are independent given the two start states. An
  attack is a sparse matrix (target's start states to its mid states) for each fire class.
* The end of the turn (Computers damage moving on, Leg Damage forgotten at Short range,
  destroyed Meks leaving) maps each mid state to a start state or to "destroyed"; it is
  folded into the attack matrices, so no mid-by-mid matrix is ever built. An exchange is
  then, for each pair of fire classes (one per Mek), a product of three matrices: the attack
  on the first Mek, the block of the joint distribution, the attack on the second.
* ``exact_duel`` follows one state of each group of states the duel cannot tell apart
  (``merge``, ``lumps``): an ODIN's 902 start states are 516 groups, a THOR's 430 are 142
  against a DRAKEN. The decimals are then those of the chain that follows every state but
  for the last bits of float sums taken in another order (at most 4.4e-16 over the 45
  stock pairs, when the merging came in).

Speed work keeps every figure within the last bits of the sums it reorders
(tests/fixtures/duel_fingerprint.json holds all 45 stock pairs, recorded again when the
merging came in and when a Mek against its double came to work out half of each exchange,
``meks.analysis.duel_exchange``, and the odds of acting were folded into the movement's
weights: at most 1.1e-16 then, and every decimal stays within 1.5e-15 of the fractions).
Short of that, a faster way adds the same terms in the same order: it may leave out terms
that are exactly zero (x + 0 is x), write a first term instead of adding it to zero, copy
and reorder tables without arithmetic (the tables keep the states in any order, the
exchange reading and writing them through ``place``), cut the plans of a small chain from
plain arrays and add a product up column by column in the order the sparse product does,
call the sparse product's own routine with a table it keeps, and run the matrix library on
one thread (its results do not depend on the count). The states and the attacks are
numbered by ``meks.analysis.duel_explore``, in the order the state-by-state walk meets
them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import sparse

from meks.analysis.duel_chain import DuelChain, MekState, next_turn
from meks.analysis.duel_exchange import Exchanges
from meks.analysis.duel_explore import FireClass, explore, fire_class
from meks.analysis.duel_lumps import numbered, refine_exact, refine_floats
from meks.analysis.duel_tables import (
    DENSE_CELLS,
    compact,
    csr,
    cut_transposed,
    holds,
    sorted_csr,
    sum_as_before,
)
from meks.game.criticals import wounded_acts_odds
from meks.game.rules import ONE_FLOAT

SHORT, MEDIUM, LONG = 0, 1, 2
BANDS = (SHORT, MEDIUM, LONG)
Array = Any  # numpy arrays (numpy's own types are too loose to help here)
Matrix = Any  # scipy sparse matrices


class ArrayChain(Exchanges):
    """The duel of ``duel`` as matrices; ``solve`` gives the outcome probabilities."""

    def __init__(self, duel: DuelChain, build: bool = True, merge: bool = False) -> None:
        """Number every state (``meks.analysis.duel_explore``); ``build``: also make the
        matrices (``solve`` needs them; ``lumps`` does not); ``merge``: follow one state of
        each group of states the duel cannot tell apart (``lumps``) instead of every state.
        On an exact ``duel`` the chances stay exact fractions, for ``lumps``; the matrices
        are floats either way."""
        self.duel = duel
        # (target side, fire class, band) -> (rows: target start, cols: target mid, chance)
        self.sides, self._entries = explore(duel)
        if duel.mirror:  # the second Mek, the first's double, reaches the same states
            self._copy_first()
        if merge:
            self._merge()
        self.n_start = (len(self.sides[0].start), len(self.sides[1].start))
        if build:
            self._build()

    def fire_class(self, side: int, state: MekState, band: int) -> FireClass | None:
        return fire_class(self.duel, side, state, band)

    # ---- states the rules cannot tell apart ------------------------------------------------

    def lumps(self, side: int) -> list[int]:
        """Each start state of Mek ``side``, numbered by the group it belongs to: states the
        duel cannot tell apart share a group (the first state's group is 0, and groups are
        numbered in the order of their first state).

        Two states are alike when everything the duel reads of them is the same (how the
        Mek fires at each band, what its systems do to the shots at it, its movement roll,
        the band it wants, its wounded pilot) and every attack on them, and the end of the
        turn, takes them to each group with the same chance. That is the coarsest lumping
        of the chain (partition refinement): the chances of the outcomes are the same
        whether the states are followed one by one or as groups. A weapon or system the
        duel never uses, lost by one critical or another, is the common case: a Heat Sink
        or a Director on a Mek whose weapons all fit its heat rating, one small weapon or
        another, Leg Damage once the band can no longer change. The chances compared are
        those of the chain, so on an exact chain the groups are exact; on a chain in floats
        they are compared to ``SAME_BITS`` bits (``meks.analysis.duel_lumps``)."""
        s = self.sides[side]
        duel = self.duel
        guards = ("Jammer", "Point Defense", "Phalanx", "Spaul Liner")
        seen = [(tuple(self.fire_class(side, st, band) for band in BANDS),
                 tuple(g in st[3] for g in guards), duel.move_dist(side, st, True),
                 duel.want(st[2]), st[6]) for st in s.start]
        group = numbered(seen)
        unhurt = [s.mid_index[st] for st in s.start]
        # each mid state's next start state, as the band moves on or is Short for good
        live = [(s.start_index[next_turn(m, False)], s.start_index[next_turn(m, True)])
                if not s.dead(m) else None for m in s.mid]
        attacks = [entry for (target, _fire, _band), entry in self._entries.items()
                   if target == side]
        if not duel.exact:  # an attack alike to another, entry for entry, tells no more
            alike: dict[tuple[bytes, ...], Any] = {}
            for entry in attacks:
                alike.setdefault(tuple(np.asarray(part).tobytes() for part in entry), entry)
            attacks = list(alike.values())
        refine = refine_exact if duel.exact else refine_floats
        return refine(group, unhurt, live, attacks)

    def _merge(self) -> None:
        """Keep one start state of each group ``lumps`` finds, the first: each Mek's start
        states become the groups (numbered as ``lumps`` numbers them), every state of a
        group is looked up as its group (so the end of a turn leads to groups), and the
        attacks are kept for the first state of each group only. The mid states stay as
        they are: those only the other states of a group reached are left unused."""
        mirror = self.duel.mirror  # two Meks alike: the second copies the first's groups
        groups = [self.lumps(0)]
        groups.append(groups[0] if mirror else self.lumps(1))
        for side in (0,) if mirror else (0, 1):
            s = self.sides[side]
            group = groups[side]
            states = s.start
            first = np.zeros(len(states), dtype=bool)
            firsts: list[MekState] = []
            for i, g in enumerate(group):
                if g == len(firsts):
                    firsts.append(states[i])
                    first[i] = True
            s.start = firsts
            s.start_index = dict(zip(states, group, strict=True))
            numbers = np.asarray(group, dtype=np.int64)
            for key, (rows, cols, chances) in list(self._entries.items()):
                if key[0] != side:
                    continue
                kept = first[rows]
                self._entries[key] = (numbers[rows[kept]], cols[kept], chances[kept])
        if mirror:
            self._copy_first()

    def _copy_first(self) -> None:
        """The second Mek, the first's double, given the first's states and attacks."""
        first, second = self.sides
        second.start, second.start_index = list(first.start), dict(first.start_index)
        second.mid, second.mid_index = list(first.mid), dict(first.mid_index)
        for (target, fire, band), entry in list(self._entries.items()):
            if target == 0:
                self._entries[(1, fire, band)] = entry

    # ---- the matrices -----------------------------------------------------------------------

    def _build(self) -> None:
        sides = self.sides
        self.n_start = (len(sides[0].start), len(sides[1].start))
        self.n_mid = (len(sides[0].mid), len(sides[1].mid))
        # end of turn: mid -> start, or the last column ("destroyed")
        ends: dict[tuple[int, bool], Array] = {}
        self.end: dict[tuple[int, bool], Matrix] = {}
        for side in (0, 1):
            s = sides[side]
            for settled in (False, True):
                destroyed = len(s.start)  # the last column
                ends[(side, settled)] = np.array(
                    [destroyed if s.dead(m) else s.start_index[next_turn(m, settled)]
                     for m in s.mid], dtype=np.int64)
                self.end[(side, settled)] = csr(range(len(s.mid)), ends[(side, settled)],
                                                 [1.0] * len(s.mid),
                                                 (len(s.mid), len(s.start) + 1))
        # a start state unhurt: its place among the mid states
        self.unhurt = tuple(np.array([sides[side].mid_index[st] for st in sides[side].start],
                                     dtype=np.int64) for side in (0, 1))
        # attacks folded with the end of the turn: target's start states by its next turn's
        # states (+ destroyed); None: not fired at. A small chain has them as plain arrays
        # only (``dense``, see _dense_plan), a larger one as sparse matrices only.
        self.attack_end: dict[tuple[int, FireClass | None, int, bool], Matrix] = {}
        self.dense: dict[tuple[int, FireClass | None, int, bool], Array] | None = None
        if max(self.n_start) <= DENSE_STATES:
            self.dense = self._dense_attacks(ends)
            self._group()
            return
        mirror = self.duel.mirror  # the second Mek's attacks are the first's
        for (target, fire, band), (rows, cols, chances) in self._entries.items():
            if mirror and target == 1:
                continue
            m = csr(rows, cols, chances, (self.n_start[target], self.n_mid[target]))
            for settled in (False, True):
                made = self.attack_end[(target, fire, band, settled)] = \
                    m @ self.end[(target, settled)]
                if mirror:
                    self.attack_end[(1, fire, band, settled)] = made
        for side in (0, 1):
            for settled in (False, True):
                unhurt = self.end[(side, settled)][self.unhurt[side]]
                for band in BANDS:
                    self.attack_end[(side, None, band, settled)] = unhurt
        self._group()

    def _dense_attacks(self, ends: dict[tuple[int, bool], Array]) -> dict[Any, Array]:
        """``attack_end`` as plain arrays, worked out as the sparse product ``m @ end``
        does (``end`` maps each mid state to one start state): each entry of ``m``, row by
        row in the order it is stored, added into its row's cell for the state its mid
        state ends as, so every sum is the same to the last bit."""
        out: dict[Any, Array] = {}
        for (target, fire, band), (rows, cols, chances) in self._entries.items():
            m = csr(rows, cols, chances, (self.n_start[target], self.n_mid[target]))
            at = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))
            for settled in (False, True):
                table = np.zeros((self.n_start[target], self.n_start[target] + 1))
                np.add.at(table, (at, ends[(target, settled)][m.indices]), m.data)
                out[(target, fire, band, settled)] = table
        for side in (0, 1):
            n = self.n_start[side]
            for settled in (False, True):
                table = np.zeros((n, n + 1))
                table[np.arange(n), ends[(side, settled)][self.unhurt[side]]] = 1.0
                for band in BANDS:
                    out[(side, None, band, settled)] = table
        return out

    def _group(self) -> None:
        """Each Mek's start states grouped by how they fire at each band, and which of them
        have a wounded pilot."""
        sides = self.sides
        # shooters grouped by fire class, per band (start states: R6.0)
        self.groups: dict[tuple[int, int], list[tuple[FireClass | None, Array]]] = {}
        for side in (0, 1):
            for band in BANDS:
                by: dict[FireClass | None, list[int]] = {}
                for i, st in enumerate(sides[side].start):
                    by.setdefault(self.fire_class(side, st, band), []).append(i)
                self.groups[(side, band)] = [
                    (fire, np.array(idx, dtype=np.int64)) for fire, idx in by.items()]
        self.wounded = tuple(np.array([st[6] for st in sides[side].start], dtype=bool)
                             for side in (0, 1))
        # Only a wounded pilot can fail to act, so when one does not, its Mek's other states
        # hold no chance. The larger chains then leave them out of the tables (``_solve``)
        # and of the exchange (``_plan``), which changes no sum (see ``_exchange``) as long
        # as no plain-array product changes its shape: the attacks on the second Mek are
        # plain arrays only for the smaller Meks, which are fast anyway.
        self.wounded_only = self.n_start[1] * (self.n_start[1] + 1) > DENSE_CELLS
        # The tables' order of each Mek's states (``_solve``): as numbered, but in the larger
        # chains with the wounded last, so that they are one slice of each table. Which
        # place holds which state changes no sum: the exchange reads and writes the tables
        # through ``place``, and the outcomes are added up in the states' own order.
        self.place: list[Array] = []  # each state's place (the destroyed last)
        self.order: list[Array] = []  # the state in each place
        self.hurt: list[Any] = []  # the places of the wounded states: a slice, or an array
        for w in self.wounded:
            n = len(w)
            order = (np.concatenate([np.flatnonzero(~w), np.flatnonzero(w)])
                     if self.wounded_only else np.arange(n))
            place = np.empty(n + 1, dtype=np.int64)
            place[order], place[n] = np.arange(n), n
            self.place.append(place)
            self.order.append(order)
            self.hurt.append(slice(n - int(w.sum()), None) if self.wounded_only
                             else np.flatnonzero(w))
        self._plans: dict[tuple[int, bool, bool], tuple[Any, ...]] = {}
        self._flat: dict[tuple[Any, ...], Array] = {}
        self._lower: dict[tuple[int, bool, bool], list[Any] | None] = {}
        self._step_lists: dict[tuple[int, bool, bool], list[list[Any]]] = {}
        self._works: dict[str, Array] = {}
        self._band_weights: dict[tuple[int, bool, bool], tuple[dict[int, Array], Array,
                                                              Array]] = {}

    # ---- one turn ---------------------------------------------------------------------------

    def _moves(self, band: int, acts: tuple[bool, bool]) -> tuple[dict[int, Array], Array,
                                                                 Array]:
        """For each new band, its chance for each pair of (movement roll, wanted band)
        groups (rows: the first Mek's groups), and each start state's group, per side."""
        key = (band, *acts)
        got = self._band_weights.get(key)
        if got is not None:
            return got
        duel = self.duel
        groups: list[list[tuple[Any, int]]] = [[], []]
        ids = []
        for side in (0, 1):
            keys: dict[tuple[Any, int], int] = {}
            gid = np.empty(self.n_start[side], dtype=np.int64)
            for i, st in enumerate(self.sides[side].start):
                k = (duel.move_dist(side, st, acts[side]), duel.want(st[2]))
                gid[i] = keys.setdefault(k, len(keys))
            groups[side] = list(keys)
            ids.append(gid)
        weights: dict[int, Array] = {}
        for i, (spec_a, want_a) in enumerate(groups[0]):
            for j, (spec_b, want_b) in enumerate(groups[1]):
                wants = (want_a, want_b)
                for (winner, double), p in duel.moves(spec_a, spec_b).items():
                    nb = band if winner < 0 else duel.new_band(band, wants[winner], double)
                    if nb not in weights:
                        weights[nb] = np.zeros((len(groups[0]), len(groups[1])))
                    weights[nb][i, j] += p
        got = (weights, ids[0], ids[1])
        self._band_weights[key] = got
        return got

    def _plan(self, band: int, acts: tuple[bool, bool]) -> tuple[Any, ...]:
        """The matrices of an exchange at ``band``, with each Mek's start states reordered
        so that each fire class is one slice (a Mek that does not act is one class).

        Returns (order of the first Mek's states, order of the second's, [(slice of the
        first's, attack on the second folded with its end of turn (transposed, rows
        reordered), the first's next states (+ destroyed) that slice can reach, [(slice of
        the second's, attack on the first folded with its end of turn, transposed: rows
        the reachable next states, columns the slice's states)])])."""
        key = (band, *acts)
        got = self._plans.get(key)
        if got is not None:
            return got
        settled = band == SHORT
        orders, parts = [], []
        wounded_only = self.wounded_only  # see _group
        for side in (0, 1):
            groups = self.groups[(side, band)]
            if not acts[side]:  # a Mek that does not act this turn fires nothing
                every = np.concatenate([idx for _, idx in groups])  # in the same order
                groups = [(None, every[self.wounded[side][every]] if wounded_only else every)]
            order, sliced, at = [], [], 0
            for fire, idx in groups:
                order.append(idx)
                sliced.append((slice(at, at + len(idx)), fire, idx))
                at += len(idx)
            orders.append(np.concatenate(order))
            parts.append(sliced)
        if self.dense is not None:
            plan = self._dense_plan(band, parts, orders[1])
            got = (orders[0], orders[1], plan)
            self._plans[key] = got
            return got
        plan = []
        n_a, n_b = self.n_start
        # each sparse matrix cut from its entries (``cut_transposed``): the same matrices
        # as scipy's own slicing and transposing gives, many times quicker
        fired = [(sl_b, self.attack_end[(0, fire_b, band, settled)]) for sl_b, fire_b, _ in
                 parts[1]]
        where = np.empty(n_a + 1, dtype=np.int64)  # each next state's place in ``reach``
        for sl_a, fire_a, idx_a in parts[0]:
            rows, cols, values = cut_transposed(self.attack_end[(1, fire_a, band, settled)],
                                                orders[1])
            shape = (n_b + 1, len(orders[1]))
            if shape[0] * shape[1] <= DENSE_CELLS or not self.wounded_only:
                placed = self._placed(compact(sorted_csr(rows, cols, values, shape)))
            else:  # its rows in their places in the tables, as ``_placed`` puts them
                rows = self.place[1][rows]
                by = np.argsort(rows, kind="stable")
                placed = (sorted_csr(rows[by], cols[by], values[by], shape), None)
            cuts = [(sl_b, cut_transposed(m, idx_a)) for sl_b, m in fired]
            # the first Mek's next states these of its states can reach: only those rows,
            # in the order of their places in the tables
            reach = np.unique(np.concatenate([rows[values != 0]
                                              for _, (rows, _, values) in cuts]))
            reach = reach[np.argsort(self.place[0][reach])]
            where[reach] = np.arange(len(reach))
            reached = np.zeros(n_a + 1, dtype=bool)
            reached[reach] = True
            on_a = []
            for sl_b, (rows, cols, values) in cuts:
                kept = reached[rows]
                rows = where[rows[kept]]
                by = np.argsort(rows, kind="stable")
                on_a.append((sl_b, sorted_csr(rows[by], cols[kept][by], values[kept][by],
                                              (len(reach), len(idx_a)))))
            plan.append((sl_a, *placed, self.place[0][reach], on_a))
        got = (orders[0], orders[1], plan)
        self._plans[key] = got
        return got

    def _dense_plan(self, band: int, parts: list[Any], order_b: Array) -> list[Any]:
        """``_plan``'s matrices for a small chain, cut from plain arrays (``self.dense``),
        which is many times quicker than cutting sparse matrices. The products come out
        the same to the last bit: the attack on the second Mek is the same plain array
        (laid out the same way, for the same library call), and the attack on the first,
        when its slice is small, is kept as its columns, for ``_exchange`` to add up one
        column at a time in the order the sparse product adds them; a larger slice is made
        a sparse matrix, as in ``_plan``."""
        settled = band == SHORT
        dense = self.dense
        assert dense is not None
        plan = []
        for sl_a, fire_a, idx_a in parts[0]:
            on_b = dense[(1, fire_a, band, settled)][order_b].T
            on_b = np.ascontiguousarray(on_b) if on_b.size <= DENSE_CELLS else \
                sparse.csr_array(on_b)
            whole = [(sl_b, dense[(0, fire_b, band, settled)][idx_a].T)
                     for sl_b, fire_b, _ in parts[1]]
            reach = np.flatnonzero(np.logical_or.reduce([w.any(axis=1) for _, w in whole]))
            on_a: list[tuple[slice, Any]] = []
            for sl_b, w in whole:
                w = w[reach]
                on_a.append((sl_b, [w[:, [k]] for k in range(w.shape[1])]
                             if w.shape[1] <= COLUMNS else sparse.csr_array(w)))
            plan.append((sl_a, *self._placed(on_b), self.place[0][reach], on_a))
        return plan

    def _placed(self, on_b: Any) -> tuple[Any, Array | None]:
        """``on_b`` (rows: the second Mek's next states) with its rows in their places in
        the tables, a plain copy of each row; or, for a plain array (whose product might
        add up in another order were it laid out otherwise), ``on_b`` as it is and the rows
        to take of its product."""
        if not self.wounded_only:
            return on_b, None
        rows = np.empty(on_b.shape[0], dtype=np.int64)
        rows[self.place[1]] = np.arange(on_b.shape[0])
        return (on_b[rows], None) if sparse.issparse(on_b) else (on_b, rows)

    def solve(self, turn_limit: int) -> tuple[float, float, float]:
        """(first Mek wins, second Mek wins, draw).

        The matrix library's own threads are held to one while it runs: the products are
        small, and on a busy machine its threads wait on each other for longer than the
        arithmetic takes (DRAKEN against DRAKEN took five times as long on two busy
        cores). A product's figures are the same on any number of threads."""
        n_a, n_b = self.n_start
        cells = n_b * (n_b + 1)  # the attack on the second Mek, a plain array when small
        if cells > DENSE_CELLS or cells * (n_a + 1) <= SHARED_PRODUCT:
            return self._solve(turn_limit)  # no product the library would share out
        from threadpoolctl import threadpool_limits

        with threadpool_limits(1, user_api="blas"):
            return self._solve(turn_limit)

    def _kept_weights(self, band: int, acts: tuple[bool, bool]) -> dict[int, Array | None]:
        """For each new band, the chance of each pair of start states the tables keep (see
        _group) that each Mek acts as ``acts`` says (R6.9: a wounded pilot acts on 5+) and
        the movement leads to that band (``_moves``'s weights spread over the states);
        None where it is 1 throughout."""
        key = (band, *acts)
        got = self._cut_weights.get(key)
        if got is None:
            rows, cols = self._kept[acts]
            if band == SHORT:  # the baseline never opens the range
                weights: dict[int, Array | None] = {SHORT: None}
            else:
                moves, ids_a, ids_b = self._moves(band, acts)
                ids_a, ids_b = ids_a[self.order[0]], ids_b[self.order[1]]
                if rows is not None:
                    ids_a = ids_a[rows]
                if cols is not None:
                    ids_b = ids_b[cols]
                weights = {nb: w[ids_a][:, ids_b] for nb, w in moves.items()}
            odds = [self._acting(side, acts[side], (rows, cols)[side]) for side in (0, 1)]
            if odds[0] is None and odds[1] is None:
                got = weights
            else:
                both = np.outer(*(np.ones(self._kept_count(side, (rows, cols)[side]))
                                  if f is None else f for side, f in enumerate(odds)))
                got = {nb: both if w is None else both * w for nb, w in weights.items()}
            self._cut_weights[key] = got
        return got

    def _kept_count(self, side: int, kept: Any) -> int:
        """How many of Mek ``side``'s states a table keeps (``kept``: all when None)."""
        return self.n_start[side] if kept is None else len(self.order[side][kept])

    def _acting(self, side: int, acted: bool, kept: Any) -> Array | None:
        """For each state of Mek ``side`` a table keeps (``kept``: all when None), in the
        tables' order, the chance that it acts (``acted``) or not: a wounded pilot acts on
        5+ (R6.9), any other always. None when it is 1 for every state."""
        hurt = self.wounded[side][self.order[side]]
        if not hurt.any():
            return None
        odds = wounded_acts_odds(ONE_FLOAT)
        each = np.where(hurt, odds, 1.0) if acted else np.where(hurt, 1 - odds, 0.0)
        return each if kept is None else each[kept]

    def _solve(self, turn_limit: int) -> tuple[float, float, float]:
        n = self.n_start
        # the rows (first Mek's states) and columns (second's) each table keeps, by who
        # acts: all (None), or the wounded only when the larger chains leave the rest out
        self._kept = {(act_a, act_b): tuple(
            None if acted or not self.wounded_only else self.hurt[side]
            for side, acted in ((0, act_a), (1, act_b)))
            for act_a in (True, False) for act_b in (True, False)}
        self._cut_weights: dict[tuple[int, bool, bool], dict[int, Array | None]] = {}
        dist: dict[int, Array] = {LONG: np.zeros(n)}
        dist[LONG][self.place[0][0], self.place[1][0]] = 1.0
        wins_a = wins_b = draw = 0.0
        acting = [[True, False] if w.any() else [True] for w in self.wounded]
        # a Mek against its double: each table symmetric (``_mirrored``)
        mirror = self.duel.mirror and self.dense is None
        for _ in range(turn_limit):
            moved: dict[tuple[bool, bool, int], Array] = {}
            # the tables made here, which later terms are added into in place (the same
            # sums); a table that is a part of ``dist`` itself is added to into a new one
            owned: set[tuple[bool, bool, int]] = set()
            for band, m in dist.items():
                for act_a in acting[0]:
                    for act_b in acting[1]:
                        if mirror and not act_a and act_b:
                            continue  # the transpose of the other way round's exchange
                        rows, cols = self._kept[(act_a, act_b)]
                        part = m if rows is None else m[rows]
                        part = part if cols is None else part[:, cols]
                        if not holds(part):
                            continue
                        for nb, w in self._kept_weights(band, (act_a, act_b)).items():
                            key = (act_a, act_b, nb)
                            if key not in moved:
                                moved[key] = part if w is None else part * w
                                if w is not None:
                                    owned.add(key)
                            elif key in owned:
                                moved[key] += part if w is None else part * w
                            else:
                                moved[key] = moved[key] + (part if w is None else part * w)
                                owned.add(key)
            ended: dict[int, Array] = {}
            halves: dict[int, Array] = {}  # a Mek against its double: see below
            for (act_a, act_b, nb), m in moved.items():
                half = self._mirrored(m, nb, (act_a, act_b)) if mirror and act_a == act_b \
                    else None
                if half is not None or (mirror and act_a != act_b):
                    # a half of the exchange, which with its transpose makes the whole
                    # (``_mirrored``), or the exchange with one Mek acting, whose
                    # transpose is the exchange with the other acting
                    if half is None:
                        half = self._exchange(m, nb, (act_a, act_b))
                    if nb in halves:  # each exchange's table is a new one: added in place
                        halves[nb] += half
                    else:
                        halves[nb] = half
                    continue
                both = self._exchange(m, nb, (act_a, act_b))
                if nb in ended:
                    ended[nb] += both
                else:
                    ended[nb] = both
            for nb, half in halves.items():
                both = half + half.T
                if nb in ended:
                    ended[nb] += both
                else:
                    ended[nb] = both
            dist = {}
            for nb, e in ended.items():  # the outcomes added up in the states' order
                draw += float(e[-1, -1])
                wins_a += float(e[self.place[0][:-1], -1].sum())
                wins_b += float(e[-1, self.place[1][:-1]].sum())
                dist[nb] = e[:-1, :-1]
        draw += float(sum(sum_as_before(m[self.place[0][:-1]][:, self.place[1][:-1]])
                          for m in dist.values()))
        return wins_a, wins_b, draw


DENSE_STATES = 200  # a chain with this few start states per Mek cuts its plans from arrays
# OpenBLAS shares a product of M x N x K multiplications among its threads past this many;
# only the attacks on the second Mek are such products here
SHARED_PRODUCT = 65_536 * 4
COLUMNS = 16  # a slice of this few states is added up column by column (``_dense_plan``)


__all__ = ["ArrayChain"]
