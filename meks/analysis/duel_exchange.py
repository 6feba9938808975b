"""The exchange of the exact duel's chain solved with arrays: one step of
``meks.analysis.duel_arrays.ArrayChain``, the joint chances of both Meks' start states
taken through both attacks and the end of the turn.

``Exchanges._exchange`` does it for any two Meks; ``Exchanges._mirrored`` for a Mek against
its double (``DuelChain.mirror``), whose table of chances is symmetric: the chance that the
first Mek is in state s and the second in t is the chance of the other way round, the
first's attacks are the second's and the exchange of a pair of fire classes is the
transpose of the exchange of the pair the other way round. It works out the pairs of fire
classes on one side of the diagonal only, and the diagonal blocks with their lower half
(the diagonal halved), and adds the result to its transpose: about half the products. The
sums then come in another order than the exchange of any two Meks would add them, which
moves the last bits only (see ``benchmarks/README.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import sparse

from meks.analysis.duel_tables import (
    holds,
    lower_halved,
    multiply,
    product_into,
    product_parts,
)

Array = Any  # numpy arrays (numpy's own types are too loose to help here)
Matrix = Any  # scipy sparse matrices


class Exchanges:
    """The exchanges of ``ArrayChain`` (which sets the attributes named here)."""

    n_start: tuple[int, int]
    wounded_only: bool
    place: list[Array]
    hurt: list[Any]
    _flat: dict[tuple[Any, ...], Array]
    _works: dict[str, Array]
    _lower: dict[tuple[int, bool, bool], list[Matrix] | None]
    _step_lists: dict[tuple[int, bool, bool], list[list[Any]]]

    def _plan(self, band: int, acts: tuple[bool, bool]) -> tuple[Any, ...]:
        raise NotImplementedError

    def _exchange(self, m: Array, band: int, acts: tuple[bool, bool]) -> Array:
        """Both attacks at ``band`` and the end of the turn: (first Mek's start states +
        destroyed) by (second Mek's start states + destroyed). Each Mek fires as it stood
        when the exchange began (R6.0), so for each pair of fire classes the exchange is
        (attack on the first) @ (that block of the distribution) @ (attack on the second).
        Blocks that hold no chance are skipped, which matters when one Mek's pilot is
        wounded and does not act.

        Leaving out a state that holds no chance changes no figure, not even its last bit:
        a sparse product adds its terms one by one in the order of the states, and x + 0 is
        x; only a plain-array product, which its library may add up in another order when
        its shapes change, must keep its shapes (see ``_plan``)."""
        order_a, order_b, plan = self._plan(band, acts)
        n_a, n_b = self.n_start
        # m's blocks, one pair of fire classes after the other, each block laid out whole
        # (a plain copy: no figure changes)
        key = (band, *acts)
        flat = self._flat.get(key)
        if flat is None:
            flat = self._flat[key] = self._blocked(m.shape[1], order_a, order_b, plan, acts)
        q = np.take(np.ascontiguousarray(m).ravel(), flat, mode="clip",
                    out=self._work("q", len(flat)))
        starts_b = np.array([sl_b.start for sl_b, _ in plan[0][-1]], dtype=np.int64)
        sizes_b = np.diff(np.append(starts_b, len(order_b)))
        out = np.empty((n_a + 1, n_b + 1))
        touched = np.zeros(n_a + 1, dtype=bool)  # the rows of out written
        at = 0
        for (sl_a, on_b, rows_b, reach, _), steps in zip(plan, self._steps(key, plan),
                                                         strict=True):
            size = (sl_a.stop - sl_a.start) * len(order_b)
            rows, at = q[at:at + size], at + size
            if not holds(rows):
                continue
            n, r = sl_a.stop - sl_a.start, len(reach)
            a_next_t = self._work("next", len(order_b) * r).reshape(len(order_b), r)
            # each block's largest chance (the blocks lie one after the other in rows)
            peaks = np.maximum.reduceat(rows, n * starts_b).tolist()
            fates = self._work("fate", r * len(order_b), zero=True)
            for (sl_b, cells, fated, attack, parts), peak in zip(steps, peaks,
                                                                 strict=True):  # its fate
                if not peak > 0:
                    a_next_t[sl_b] = 0.0
                    continue
                if parts is not None:  # ``product_into``, its parts worked out once
                    fate = fates[fated]
                    multiply(parts, rows[cells], fate)
                    a_next_t[sl_b] = fate.reshape(r, -1).T
                    continue
                block = rows[cells].reshape(n, -1)
                if isinstance(attack, list):  # its columns: the sparse product's order
                    got = attack[0] * block[0]
                    for k in range(1, len(attack)):
                        got += attack[k] * block[k]
                    a_next_t[sl_b] = got.T
                else:
                    fate = fates[r * sl_b.start:r * sl_b.stop].reshape(r, -1)
                    product_into(attack, block, fate)
                    a_next_t[sl_b] = fate.T
            # the second's, given the first's class (added row by row: a plain copy of the
            # same sums, quicker than column by column)
            if sparse.issparse(on_b):
                got = self._work("got", on_b.shape[0] * len(reach), zero=True).reshape(
                    on_b.shape[0], len(reach))
                # the states of blocks that hold no chance, left out when there are many
                held = np.greater(peaks, 0)
                live = None if sizes_b[held].sum() > 0.8 * len(a_next_t) else \
                    np.repeat(held, sizes_b)
                product_into(on_b, a_next_t, got, live)
            else:
                got = on_b @ a_next_t
            if rows_b is not None:
                got = got[rows_b]
            self._add_rows(out, touched, reach, got)
        out[~touched] = 0.0
        return out

    def _mirrored(self, m: Array, band: int, acts: tuple[bool, bool]) -> Array | None:
        """``_exchange`` for a Mek against its double (see the module docstring), with
        both acting or neither: the pairs of fire classes (first, second) with the second's
        class up to the first's own, the block of a class with itself by its lower half
        (the diagonal halved). The exchange is the result added to its transpose, which the
        caller does once for all the tables it adds up. None when the plan holds a
        plain-array product (the smaller chains, which are quick anyway)."""
        key = (band, *acts)
        cuts = self._lower.get(key, ())
        order_a, order_b, plan = self._plan(band, acts)
        if cuts == ():
            cuts = self._lower[key] = _lower_cuts(plan)
        if cuts is None:
            return None
        n_a, n_b = self.n_start
        flat = self._flat.get((*key, "lower"))
        if flat is None:
            flat = self._flat[(*key, "lower")] = self._blocked(m.shape[1], order_a, order_b,
                                                              plan, acts, lower=True)
        q = np.take(np.ascontiguousarray(m).ravel(), flat, mode="clip",
                    out=self._work("q", len(flat)))
        starts_b = np.array([sl_b.start for sl_b, _ in plan[0][-1]], dtype=np.int64)
        # A class that reaches every state adds its share to the table as it comes, the
        # transpose of its share: the same once the caller adds the table to its transpose.
        every = [len(reach) == n_a + 1 for _, _, _, reach, _ in plan]
        if any(every):
            out = np.zeros((n_a + 1, n_b + 1))
            touched = np.ones(n_a + 1, dtype=bool)
        else:
            out = np.empty((n_a + 1, n_b + 1))
            touched = np.zeros(n_a + 1, dtype=bool)  # the rows of out written
        at = 0
        for i, ((sl_a, _, _, reach, _), on_b, steps) in enumerate(zip(
                plan, cuts, self._steps(key, plan), strict=True)):
            n, r, stop = sl_a.stop - sl_a.start, len(reach), sl_a.stop
            rows, at = q[at:at + n * stop], at + n * stop
            if not holds(rows):
                continue
            a_next_t = self._work("next", stop * r).reshape(stop, r)
            peaks = np.maximum.reduceat(rows, n * starts_b[:i + 1]).tolist()
            fates = self._work("fate", r * stop, zero=True)
            for j, ((sl_b, cells, fated, attack, parts), peak) in enumerate(zip(
                    steps[:i + 1], peaks, strict=True)):
                if not peak > 0:
                    a_next_t[sl_b] = 0.0
                    continue
                block = rows[cells]
                if j == i:  # the class with itself: the lower half, the diagonal halved (in
                    # place: these cells are read only here)
                    np.multiply(block, lower_halved(n), out=block)
                fate = fates[fated]
                if parts is None:
                    product_into(attack, block.reshape(n, -1), fate.reshape(r, -1))
                else:  # the same product, its parts worked out once
                    multiply(parts, block, fate)
                a_next_t[sl_b] = fate.reshape(r, -1).T
            if every[i]:
                product_into(on_b, a_next_t, out)
                continue
            got = self._work("got", (n_b + 1) * r, zero=True).reshape(n_b + 1, r)
            product_into(on_b, a_next_t, got)
            self._add_rows(out, touched, reach, got)
        out[~touched] = 0.0
        return out


    def _steps(self, key: tuple[int, bool, bool], plan: list[Any]) -> list[list[Any]]:
        """For each class of the first Mek in ``plan`` (``key``: the band and who acts), for
        each class of the second: the slice of the second's states, where that block lies
        among the first class's cells and where its fate lies in the table of fates (two
        slices), the attack on the first, and its parts for ``multiply`` (None when it is
        kept as columns, or the library's routine is not there)."""
        got = self._step_lists.get(key)
        if got is None:
            got = self._step_lists[key] = [
                [(sl_b, slice(n * sl_b.start, n * sl_b.stop),
                  slice(len(reach) * sl_b.start, len(reach) * sl_b.stop), attack,
                  None if isinstance(attack, list) else
                  product_parts(attack, sl_b.stop - sl_b.start))
                 for sl_b, attack in on_a]
                for (sl_a, _, _, reach, on_a) in plan for n in (sl_a.stop - sl_a.start,)]
        return got

    def _add_rows(self, out: Array, touched: Array, reach: Array, got: Array) -> None:
        """``out[reach] += got.T``: added to the rows an earlier class reached (``touched``),
        written into the others."""
        every = len(reach) == len(out) and bool((reach[1:] > reach[:-1]).all())  # in order
        again = touched[reach]
        if not again.any():
            if every:
                np.copyto(out, got.T)
            else:
                out[reach] = got.T
            touched[reach] = True
        elif again.all():
            if every:
                out += got.T
            else:
                sums = np.take(out, reach, axis=0, out=self._work("sums", got.size).reshape(
                    len(reach), -1))
                sums += got.T
                out[reach] = sums
        else:
            fresh = ~again
            out[reach[fresh]] = got.T[fresh]
            out[reach[again]] += got.T[again]
            touched[reach] = True

    def _work(self, name: str, size: int, zero: bool = False) -> Array:
        """A table of ``size`` floats kept for the exchanges to work in (so that the
        memory is not asked for again at every step), zeroed if ``zero``."""
        kept = self._works.get(name)
        if kept is None or len(kept) < size:
            kept = self._works[name] = np.empty(max(size, 0 if kept is None else 2 * len(kept)))
        table = kept[:size]
        if zero:
            table.fill(0.0)
        return table

    def _blocked(self, width: int, order_a: Array, order_b: Array, plan: list[Any],
                 acts: tuple[bool, bool], lower: bool = False) -> Array:
        """Where each cell of a table ``width`` wide goes for ``_exchange``: its blocks, one
        for each pair of fire classes (the first Mek's classes in turn, and for each the
        second's; ``lower``: the second's up to the first's own only), each block's cells
        row by row."""
        at = [self.place[0][order_a], self.place[1][order_b]]
        for side in (0, 1):
            if not acts[side] and self.wounded_only:  # the table holds these rows only
                at[side] -= self.hurt[side].start
        cells = [at[0][sl_a, None] * width + at[1][None, sl_b]
                 for i, (sl_a, _, _, _, on_a) in enumerate(plan)
                 for sl_b, _ in (on_a[:i + 1] if lower else on_a)]
        return np.concatenate([c.ravel() for c in cells])


def _lower_cuts(plan: list[Any]) -> list[Matrix] | None:
    """For each class of the first Mek in ``plan``, the attack on the second restricted to
    the second's classes up to the same class (the columns before its slice's end); None
    when an attack is a plain array."""
    cuts = []
    for sl_a, on_b, rows_b, _, _ in plan:
        if not sparse.issparse(on_b) or rows_b is not None:
            return None
        kept = on_b.indices < sl_a.stop
        before = np.zeros(len(kept) + 1, dtype=on_b.indptr.dtype)  # entries kept before each
        np.cumsum(kept, out=before[1:])
        indptr = before[on_b.indptr]
        cuts.append(sparse.csr_array((on_b.data[kept], on_b.indices[kept], indptr),
                                     shape=(on_b.shape[0], sl_a.stop)))
    return cuts


__all__ = ["Exchanges"]
