"""Plain tables and sparse products for ``meks.analysis.duel_arrays``, each adding up its
terms in the order the figures of the exact duel were first worked out in (see that
module's docstring): a float sum depends on the order of its terms."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from scipy import sparse

try:  # the routine ``@`` itself calls for a sparse matrix times a plain table
    from scipy.sparse._sparsetools import csr_matvecs
except ImportError:  # a SciPy that moved it: ``@``, the same sums (``product_into``)
    csr_matvecs = None

Array = Any  # numpy arrays (numpy's own types are too loose to help here)
Matrix = Any  # scipy sparse matrices

DENSE_CELLS = 40_000  # a matrix this small is faster as a plain array


def sum_as_before(m: Array) -> float:
    """``m.sum()`` added up in the order it always was: a table's sum depends on how its
    cells lie in memory, and the tables were once laid out by columns (each a slice of a
    table one row and one column larger), which the figures of the duel keep to the last
    bit. (A sum along one row or column does not depend on it.)"""
    laid = np.empty((m.shape[0] + 1, m.shape[1] + 1), order="F")
    laid[:-1, :-1] = m
    return float(laid[:-1, :-1].sum())


def holds(table: Array) -> bool:
    """Whether ``table`` (of chances, none below 0) holds any chance: ``any``, quicker."""
    return bool(table.size and table.max() > 0)


def product_into(m: Matrix, x: Array, out: Array, live: Array | None = None) -> None:
    """``out += m @ x`` for a sparse ``m`` and a plain ``x`` (both laid out row by row),
    by the library's own routine for ``m @ x``, which ``@`` calls with a new table of
    zeros: called with ``out`` zeroed it gives the same sums. ``live``: the rows of ``x``
    that are not all zero, when there are few enough of them to be worth leaving the
    others out (each sum the same, less terms that are exactly 0)."""
    if csr_matvecs is None:  # the same sums, into a new table first
        out += m @ x
        return
    if live is None:
        csr_matvecs(m.shape[0], m.shape[1], x.shape[1], m.indptr, m.indices, m.data,
                    x.ravel(), out.ravel())
        return
    keep = live[m.indices]
    before = np.zeros(len(keep) + 1, dtype=m.indptr.dtype)
    np.cumsum(keep, out=before[1:])
    places = (np.cumsum(live) - 1).astype(m.indices.dtype)
    csr_matvecs(m.shape[0], int(places[-1]) + 1, x.shape[1], before[m.indptr],
                places[m.indices[keep]], m.data[keep], np.ascontiguousarray(x[live]).ravel(),
                out.ravel())


@cache
def lower_halved(n: int) -> Array:
    """Factors for an ``n`` by ``n`` table, flat: 1 below the diagonal, 0.5 on it, 0 above.
    A table of chances times them is ``np.tril`` of it with the diagonal halved, to the last
    bit (x * 1 is x, x * 0.5 is the halving, x * 0 is 0 for a chance), without a new
    table."""
    factors = np.tri(n)
    factors.flat[::n + 1] = 0.5
    return factors.ravel()


def product_parts(m: Matrix, width: int) -> tuple[Any, ...] | None:
    """What ``product_into`` hands the library's routine for ``m`` times a table ``width``
    wide, worked out once for a matrix that is multiplied many times (``multiply``); None
    when the routine is not there."""
    if csr_matvecs is None:
        return None
    return (m.shape[0], m.shape[1], width, m.indptr, m.indices, m.data)


def multiply(parts: tuple[Any, ...], x: Array, out: Array) -> None:
    """``product_into(m, x, out)`` with ``product_parts(m, ...)``: ``x`` and ``out`` flat
    and contiguous, the tables row by row."""
    csr_matvecs(*parts, x, out)


def cut_transposed(m: Matrix, rows: Array) -> tuple[Array, Array, Array]:
    """The entries of ``m[rows].T`` for a sparse ``m`` (row by row): each one's row (a
    column of ``m``), column (a place in ``rows``) and value, in the order its sparse matrix
    would hold them (by row, then column). As scipy's ``m[rows].T.tocsr()``, the same
    entries in the same order, without its many steps."""
    starts = m.indptr[rows]
    lengths = m.indptr[rows + 1] - starts
    total = int(lengths.sum())
    # each entry's place in m: its row's start, plus its place in the row
    firsts = np.cumsum(lengths) - lengths
    at = np.arange(total, dtype=np.int64) + np.repeat(starts - firsts, lengths)
    cols = m.indices[at]
    order = np.argsort(cols, kind="stable")
    return (cols[order], np.repeat(np.arange(len(rows), dtype=np.int64), lengths)[order],
            m.data[at][order])


def sorted_csr(rows: Array, cols: Array, values: Array, shape: tuple[int, int]) -> Matrix:
    """A sparse matrix from entries already sorted by row (then column), held in that
    order."""
    indptr = np.zeros(shape[0] + 1, dtype=np.int32)
    np.cumsum(np.bincount(rows, minlength=shape[0]), out=indptr[1:])
    return sparse.csr_array((values, cols.astype(np.int32), indptr), shape=shape)


def compact(m: Matrix) -> Matrix:
    """``m`` as a plain array when it is small (NumPy beats sparse arithmetic there)."""
    return m.toarray() if m.shape[0] * m.shape[1] <= DENSE_CELLS else m


def csr(rows: Any, cols: Any, values: Any, shape: tuple[int, int]) -> Matrix:
    """A sparse matrix from (row, column, value) entries; repeated entries add up."""
    return sparse.csr_array((np.asarray(values, dtype=float),
                             (np.asarray(rows, dtype=np.int64),
                              np.asarray(cols, dtype=np.int64))), shape=shape)


__all__ = ["DENSE_CELLS", "compact", "csr", "cut_transposed", "holds", "lower_halved", "multiply",
           "product_into", "product_parts", "sorted_csr", "sum_as_before"]
