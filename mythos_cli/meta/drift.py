"""The field's drift: replicator dynamics from the declared shares.

Each generation, a list's share grows in proportion to how it does against the field of the
moment: ``x' = x · (A x) / (xᵀ A x)`` (discrete replicator dynamics, the win rate as fitness).
A list with no share stays at none: the drift tells where *this* field heads, not which new
list would invade it (the best response and the Nash mix answer that).

Where it heads: it **settles** when the shares stop moving (at most ``SETTLED`` in total over the
last generation); it **cycles** when the most played list changes at least ``CYCLE_CHANGES``
times and one list takes the lead again after losing it, as rock-paper-scissors fields do;
otherwise it is **still moving** after the generations asked for.
"""

from __future__ import annotations

import numpy as np

SETTLED = 1e-3
CYCLE_CHANGES = 3


def replicator(A: np.ndarray, x0, generations: int) -> np.ndarray:
    """The shares over the generations: ``(G + 1, n)`` for one matrix, ``(D, G + 1, n)`` for draws."""
    x = np.broadcast_to(np.asarray(x0, dtype=float), A.shape[:-1]).copy()
    out = [x.copy()]
    for _ in range(generations):
        fit = np.einsum("...ij,...j->...i", A, x)
        x = x * fit
        x /= x.sum(axis=-1, keepdims=True)
        out.append(x.copy())
    return np.stack(out, axis=-2)


def leaders(path: np.ndarray) -> np.ndarray:
    """The most played list of each generation (the last axis is the lists)."""
    return path.argmax(axis=-1)


def verdict(path: np.ndarray) -> tuple[str, list[int]]:
    """``settles``, ``cycles`` or ``moving`` for one trajectory ``(G + 1, n)``, and the lists that
    led in turn (for a cycle), in order."""
    if np.abs(path[-1] - path[-2]).sum() <= SETTLED:
        return "settles", []
    lead = leaders(path)
    changes = np.flatnonzero(lead[1:] != lead[:-1]) + 1
    turns = [int(lead[0])] + [int(lead[c]) for c in changes]
    if len(changes) >= CYCLE_CHANGES and len(set(turns)) < len(turns):
        return "cycles", turns
    return "moving", turns


def cycles(paths: np.ndarray) -> np.ndarray:
    """For trajectories ``(D, G + 1, n)``: whether each one cycles (as ``verdict`` says)."""
    settled = np.abs(paths[:, -1] - paths[:, -2]).sum(axis=-1) <= SETTLED
    lead = leaders(paths)
    changes = (lead[:, 1:] != lead[:, :-1]).sum(axis=1)
    out = np.zeros(paths.shape[0], dtype=bool)
    for d in np.flatnonzero(~settled & (changes >= CYCLE_CHANGES)):
        out[d] = verdict(paths[d])[0] == "cycles"
    return out


__all__ = ["CYCLE_CHANGES", "SETTLED", "cycles", "leaders", "replicator", "verdict"]
