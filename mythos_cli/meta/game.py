"""The game of choosing a list: a symmetric zero-sum game whose payoff is the game win rate.

``A[i, j]`` is the chance that list i beats list j in one game (the Edge a coin toss), so
``A + Aᵀ = 1`` and ``A[i, i] = ½``. Every function takes one matrix ``(n, n)`` or a stack of
posterior draws ``(D, n, n)``.

* **Against a field** of shares s: ``E = A s`` (a list meets itself at 50% in its own share);
  the **best response** is the list with the highest E.
* **Nash equilibrium**: the mix x maximising the worst case ``min_j (xᵀA)_j``, solved as a linear
  program by SciPy's HiGHS. The game is symmetric, so its value is ½ exactly; the solver's own
  value is kept as a check. A list that no list beats (at least ½ against each) is an equilibrium
  by itself, taken without the solver; when several mixes are equilibria, HiGHS returns one of
  them (a vertex).
  A list dominated by another never has weight.
* **Tiers**: tier 1 is every list not clearly worse than the best one against the field; the
  lists left make tier 2 the same way, and so on. "Clearly worse": the posterior draws of the
  difference ``E_best − E_i`` (paired, draw by draw) have a mean above z times their standard
  deviation, z Bonferroni-corrected over the lists compared at that step.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.optimize import linprog
from scipy.stats import norm

SUPPORT = 1e-6  # a weight above this is in the mix's support (HiGHS's own tolerance is far below)
ALPHA = 0.05


class NashError(RuntimeError):
    """The solver failed (never expected: the game always has an equilibrium)."""


def field_rates(A: np.ndarray, shares) -> np.ndarray:
    """Each list's expected win rate against the field: ``A @ s`` (the last axis of A)."""
    return A @ np.asarray(shares, dtype=float)


def nash(A: np.ndarray) -> tuple[np.ndarray, float]:
    """An equilibrium mix of the symmetric game with payoff matrix ``A`` (n × n), and its value."""
    n = A.shape[0]
    unbeaten = np.flatnonzero((A >= 0.5).all(axis=1))
    if unbeaten.size:  # a list no list beats guarantees the value, ½: an equilibrium by itself
        x = np.zeros(n)
        x[unbeaten[0]] = 1.0
        return x, float(A[unbeaten[0]].min())
    # variables x_1..x_n, v: maximise v subject to (xᵀA)_j ≥ v for every j, Σx = 1, x ≥ 0
    c = np.zeros(n + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-A.T, np.ones((n, 1))])
    a_eq = np.append(np.ones(n), 0.0)[None, :]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * n + [(None, None)], method="highs")
    if res.status != 0:
        raise NashError(f"the linear program of the Nash equilibrium failed: {res.message}")
    x = np.clip(res.x[:n], 0.0, None)
    return x / x.sum(), float(res.x[-1])


CHUNK = 100  # draws solved in one linear program (independent blocks: one solver call, not a hundred)


def nash_draws(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``nash`` on every draw of a stack ``(D, n, n)``: the mixes ``(D, n)`` and values ``(D,)``.

    The draws without an unbeaten list are solved ``CHUNK`` at a time as one linear program whose
    blocks are the draws' own programs (the blocks share no variable, so maximising the sum of
    the values maximises each): SciPy's call costs far more than HiGHS's solve at this size."""
    d_count, n = A.shape[:2]
    mixes = np.zeros((d_count, n))
    values = np.empty(d_count)
    unbeaten = (A >= 0.5).all(axis=2)
    pure = unbeaten.any(axis=1)
    first = unbeaten.argmax(axis=1)
    mixes[pure, first[pure]] = 1.0
    values[pure] = A[pure, first[pure]].min(axis=1)
    rest = np.flatnonzero(~pure)
    for k in range(0, rest.size, CHUNK):
        idx = rest[k:k + CHUNK]
        x, v = _nash_blocks(A[idx])
        mixes[idx], values[idx] = x, v
    return mixes, values


def _nash_blocks(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m, n = A.shape[:2]
    block = np.zeros((m, n, n + 1))
    block[:, :, :n] = -np.swapaxes(A, 1, 2)
    block[:, :, n] = 1.0
    a_ub = sparse.block_diag(list(block), format="csr")
    a_eq = sparse.block_diag([np.append(np.ones(n), 0.0)[None, :]] * m, format="csr")
    c = np.tile(np.append(np.zeros(n), -1.0), m)
    bounds = [(0, None)] * n + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(m * n), A_eq=a_eq, b_eq=np.ones(m), bounds=bounds * m,
                  method="highs")
    if res.status != 0:
        raise NashError(f"the linear program of the Nash equilibrium failed: {res.message}")
    sol = res.x.reshape(m, n + 1)
    x = np.clip(sol[:, :n], 0.0, None)
    return x / x.sum(axis=1, keepdims=True), sol[:, n]


def best_response_odds(E: np.ndarray) -> np.ndarray:
    """From draws of the field rates ``(D, n)``: how often each list is the best (ties shared)."""
    top = E.max(axis=1, keepdims=True)
    best = np.isclose(E, top, rtol=0, atol=1e-12)
    return (best / best.sum(axis=1, keepdims=True)).mean(axis=0)


def tiers(E: np.ndarray, order: list[int] | None = None, alpha: float = ALPHA) -> list[int]:
    """Tier of each list (1 the best) from draws of the field rates ``(D, n)``; ``order`` ranks the
    lists (default: by mean rate), the first of those left heading each tier."""
    n = E.shape[1]
    mean = E.mean(axis=0)
    left = list(order) if order is not None else sorted(range(n), key=lambda i: (-mean[i], i))
    tier = [0] * n
    level = 0
    while left:
        level += 1
        head = left[0]
        z = float(norm.ppf(1 - alpha / (2 * max(1, len(left) - 1))))
        keep = []
        for i in left:
            d = E[:, head] - E[:, i]
            if i == head or not d.mean() > z * d.std():
                tier[i] = level
            else:
                keep.append(i)
        left = keep
    return tier


def polarity(A: np.ndarray) -> np.ndarray:
    """The spread of each list's matchups: the standard deviation of its win rates against the
    other lists (the last two axes are the matrix)."""
    n = A.shape[-1]
    off = ~np.eye(n, dtype=bool)
    rows = A[..., off].reshape(*A.shape[:-2], n, n - 1)
    return rows.std(axis=-1)


__all__ = ["NashError", "SUPPORT", "best_response_odds", "field_rates", "nash", "nash_draws", "polarity", "tiers"]
