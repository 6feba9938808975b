"""States of the exact duel that it cannot tell apart, found by partition refinement.

``meks.analysis.duel_arrays.ArrayChain.lumps`` gathers what the refinement reads of one
Mek's states (each start state's first group, its own mid state, where each mid state leads
at the end of a turn, the attacks on the Mek) and hands it to ``refine_exact`` (state by
state, in any kind of number: exact fractions stay exact) or ``refine_floats`` (with arrays,
for chances in floats). Both return each start state's group, numbered in the order of
first sight.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = Any  # numpy arrays (numpy's own types are too loose to help here)

# rows (start), columns (mid), chances: each a list or an array
Entries = tuple[Any, Any, Any]
# Float chances that agree to this many bits (about 12 digits) are taken as equal when states
# are grouped: far coarser than the rounding of float sums. Tests check that the groups are
# those the fractions give (random small designs) and that the decimals are those of the
# chain that follows every state (tests/test_duel.py).
SAME_BITS = 40


def refine_exact(group: list[int], unhurt: list[int], live: list[tuple[int, int] | None],
                 attacks: list[Entries]) -> list[int]:
    """``ArrayChain.lumps``'s partition refinement, state by state (any kind of number:
    exact fractions stay exact). ``group``: each start state's first group; ``unhurt``:
    its own mid state; ``live``: each mid state's next start state (band moving on, band
    Short for good), None when destroyed; ``attacks``: the attacks on the Mek."""
    rows: list[list[list[tuple[int, Any]]]] = []
    for r, c, q in attacks:
        per: list[list[tuple[int, Any]]] = [[] for _ in group]
        for i, j, p in zip(np.asarray(r).tolist(), np.asarray(c).tolist(), q, strict=True):
            per[i].append((j, p))
        rows.append(per)
    while True:
        mid = [None if on is None else (group[on[0]], group[on[1]]) for on in live]
        signs = []
        for i in range(len(group)):
            sign: list[Any] = [group[i], mid[unhurt[i]]]
            for per in rows:
                spread: dict[Any, Any] = {}
                for j, p in per[i]:
                    spread[mid[j]] = spread.get(mid[j], 0) + p
                sign.append(frozenset((k, p) for k, p in spread.items() if p))
            signs.append(tuple(sign))
        finer = numbered(signs)
        if max(finer) == max(group):
            return finer
        group = finer


def refine_floats(group: list[int], unhurt: list[int], live: list[tuple[int, int] | None],
                  attacks: list[Entries]) -> list[int]:
    """``refine_exact`` for chances in floats, with arrays: each attack's entries (start
    state, mid state, chance) labelled with the attack and the sign of the mid state (the
    groups it leads to), and each start state's chances of each label added up, the
    terms of each sum in order of size. Float chances worked out along different paths
    differ in their last bits where the fractions are equal, so sums are compared to
    ``SAME_BITS`` bits: a test checks that the groups are then those of the fractions."""
    n = len(group)
    dead = np.array([on is None for on in live], dtype=bool)
    nexts = np.array([(0, 0) if on is None else on for on in live], dtype=np.int64)
    unhurt_at = np.asarray(unhurt, dtype=np.int64)
    rows = _joined([r for r, _, _ in attacks], np.int64)
    cols = _joined([c for _, c, _ in attacks], np.int64)
    which = np.repeat(np.arange(len(attacks), dtype=np.int64), [len(r) for r, _, _ in attacks])
    chances = _joined([q for _, _, q in attacks], float)
    # sorted once, and later sorts keep this order (equal chances may come in any order:
    # they add up the same)
    by_size = np.argsort(chances)
    rows, cols, which, chances = rows[by_size], cols[by_size], which[by_size], chances[by_size]
    numbers = np.asarray(group, dtype=np.int64)
    sort = _sorted
    while True:
        led = numbers[nexts]
        led[dead] = -1
        _, sign = np.unique(led, axis=0, return_inverse=True)
        sign = sign.ravel()
        signs_seen = int(sign.max()) + 1
        label = which * signs_seen + sign[cols]
        order = sort(rows * (len(attacks) * signs_seen) + label)
        r, lab, q = rows[order], label[order], chances[order]
        # where each (start state, label) begins among the sorted entries
        first = np.flatnonzero(np.r_[len(r) > 0, (r[1:] != r[:-1]) | (lab[1:] != lab[:-1])])
        sums = np.add.reduceat(q, first) if len(first) else q
        at, lab = r[first], lab[first]
        bounds = np.searchsorted(at, np.arange(n + 1))
        own = sign[unhurt_at]
        mant, expo = np.frexp(sums)
        sums = np.ldexp(np.round(np.ldexp(mant, SAME_BITS)), expo - SAME_BITS)
        signs = [(numbers[i], own[i], lab[bounds[i]:bounds[i + 1]].tobytes(),
                  sums[bounds[i]:bounds[i + 1]].tobytes()) for i in range(n)]
        finer = np.asarray(numbered(signs), dtype=np.int64)
        if finer.max() == numbers.max():
            return [int(g) for g in finer]
        numbers = finer
        # The entries kept in this round's order, by start state, attack, sign, then size.
        # The groups only split, so entries of one sign next round had one sign this round
        # too: next round's order is a stable sort of keys already sorted but within each
        # start state and attack, which is many times quicker, and the same order.
        rows, cols, which, chances = rows[order], cols[order], which[order], chances[order]
        sort = _stable


def _sorted(keys: Array) -> Array:
    """``np.argsort(keys, kind="stable")`` (keys of 0 or more), by a quicker sort of keys
    made unique by their place when they fit in 63 bits."""
    n = len(keys)
    if not n or (int(keys.max()) + 1) * n >= 2**63:
        return np.argsort(keys, kind="stable")
    return np.argsort(keys * n + np.arange(n, dtype=np.int64))


def _stable(keys: Array) -> Array:
    """``np.argsort(keys, kind="stable")``: quick on keys that are nearly sorted."""
    return np.argsort(keys, kind="stable")


def _joined(parts: list[Any], dtype: Any) -> Array:
    """The lists ``parts`` one after the other, as one array of ``dtype``."""
    return np.concatenate([np.asarray(p, dtype=dtype) for p in parts] or
                          [np.zeros(0, dtype=dtype)])


def numbered(signs: list[Any]) -> list[int]:
    """Each sign's number: equal signs share one, numbered in the order of first sight."""
    ids: dict[Any, int] = {}
    return [ids.setdefault(sign, len(ids)) for sign in signs]


__all__ = ["SAME_BITS", "Entries", "numbered", "refine_exact", "refine_floats"]
