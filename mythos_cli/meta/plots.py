"""The pictures of the metagame page (matplotlib's Agg backend, ``Figure`` objects: nothing global)."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Sequence

import numpy as np
from matplotlib import ticker
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

import matplotlib

from mythos_cli.reports.plots import LOSS, MUTED, NEUTRAL, WIN, save_figure, tick_label

def _wrap(label: str, width: int) -> str:
    """A label on lines of ``width``, never cut at a card id's hyphen (SS-053)."""
    label = tick_label(label)  # a name read from a file or a database: drawn as written
    return "\n".join(textwrap.wrap(label, width, break_on_hyphens=False, break_long_words=False)) or label


TIER_COLORS = ("#2f7d4f", "#7fae5a", "#c9b458", "#d98c4a", "#b23a3a", "#7a2f2f")


def _save(fig: Figure, path: Path) -> Path:
    return save_figure(fig, path)  # names drawn as written: controls escaped, a $ never a formula


def heatmap(names: Sequence[str], cells: dict, path: Path, title: str) -> Path:
    """The matrix ordered as ``names`` (strongest first). ``cells[(a, b)]`` = (rate, low, high, games):
    coloured when the interval is clear of 50%, grey with its figures when not clear, hatched
    when not played; the diagonal is the mirror (50% by construction, no games)."""
    k = len(names)
    size = max(4.5, 0.62 * k + 2.2)
    fig = Figure(figsize=(size + 1.0, size), layout="constrained")
    ax = fig.add_subplot()
    grid = np.full((k, k), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            c = cells.get((a, b))
            if c and c[3] and (c[1] > 0.5 or c[2] < 0.5):
                grid[i, j] = c[0]
    cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="#e9e9e9")
    im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=TwoSlopeNorm(0.5, 0.15, 0.85))
    small = 7.5 if k <= 10 else 6.0
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, color="#f7f7f7"))
                ax.text(j, i, "mirror\n50%", ha="center", va="center", fontsize=small - 0.5, color="#777777")
                continue
            c = cells.get((a, b))
            if not c or not c[3]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="white", edgecolor="#999999",
                                       hatch="///", lw=0))
                ax.text(j, i, "not\nplayed", ha="center", va="center", fontsize=small - 0.5, color="#555555",
                        bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
                continue
            rate, low, high, n = c
            clear = low > 0.5 or high < 0.5
            text = f"{100 * rate:.0f}\n{100 * low:.0f}–{100 * high:.0f}" + ("" if clear else "\n?")
            color = "white" if clear and abs(rate - 0.5) > 0.22 else "#222222"
            ax.text(j, i, text, ha="center", va="center", fontsize=small, color=color, linespacing=1.05)
    labels = [_wrap(d, 14) for d in names]
    ax.set_xticks(range(k), labels, rotation=40, ha="right", fontsize=8)
    ax.set_yticks(range(k), labels, fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_ylabel("list (row wins this share of games)")
    ax.set_title(title, fontsize=10)
    cbar = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    cbar.set_label("win rate; grey '?': interval spans 50%; hatched: not played", fontsize=8)
    cbar.ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    return _save(fig, path)


def interval_bars(labels: Sequence[str], values, lows, highs, path: Path, title: str, xlabel: str, *,
                  colors: Sequence[str] | None = None, reference: float | None = None, ref_label: str = "",
                  notes: Sequence[str] | None = None, xlim: tuple[float, float] | None = None) -> Path:
    """Horizontal bars, first label on top, with their 95% intervals and a note at each bar's end."""
    n = len(labels)
    # narrow, with large type: the page is read on phones too (a 6-inch figure fills a 390-pixel screen)
    fig = Figure(figsize=(6.0, max(2.0, 0.42 * n + 1.2)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    v = np.array([np.nan if x is None else x for x in values], dtype=float)
    lo = np.array([np.nan if x is None else x for x in lows], dtype=float)
    hi = np.array([np.nan if x is None else x for x in highs], dtype=float)
    ax.barh(y, np.nan_to_num(v), color=colors or NEUTRAL, alpha=0.88, height=0.62)
    err = np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)])
    ax.errorbar(v, y, xerr=err, fmt="none", ecolor="#222222", capsize=2.5, lw=0.9)
    top = xlim[1] if xlim else float(np.nanmax(np.append(hi, 0.01))) * 1.25
    for yi, vi, h, note in zip(y, v, hi, notes or [""] * n):
        if not math.isnan(vi):
            ax.text((h if not math.isnan(h) else vi) + 0.01 * top, yi, note or f"{100 * vi:.0f}%", va="center",
                    fontsize=8.5)
    if reference is not None:
        ax.axvline(reference, color="#444444", ls="--", lw=1)
        if ref_label:
            ax.text(reference, n - 0.45, f" {ref_label}", fontsize=7.5, color="#444444", va="bottom")
    ax.set_yticks(y, [_wrap(lb, 18) for lb in labels], fontsize=9)
    ax.set_xlim(*(xlim or (0, top)))
    if (xlim or (0, top))[1] > 1.0:  # room for the notes past 100%, but no tick beyond it: these are chances
        ax.xaxis.set_major_locator(ticker.FixedLocator(np.linspace(0.0, 1.0, 6)))
    ax.set_ylim(-0.7, n - 0.1 + 0.4)
    ax.xaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_title(title, fontsize=10.5)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def tier_colors(tiers: Sequence[int]) -> list[str]:
    return [TIER_COLORS[min(t, len(TIER_COLORS)) - 1] for t in tiers]


def drift(names: Sequence[str], path_shares: np.ndarray, out: Path, title: str, show: int = 8) -> Path:
    """The shares over the generations; the lists that ever reach the most, named."""
    fig = Figure(figsize=(6.0, 3.8), layout="constrained")
    ax = fig.add_subplot()
    peak = path_shares.max(axis=0)
    keep = sorted(range(len(names)), key=lambda i: -peak[i])[:show]
    cmap = matplotlib.colormaps["tab10"]
    g = np.arange(path_shares.shape[0])
    for k, i in enumerate(keep):
        ax.plot(g, path_shares[:, i], color=cmap(k % 10), lw=1.8, ls=("-", "--", ":")[k // 10 % 3],
                label=_wrap(names[i], 20))
    rest = [i for i in range(len(names)) if i not in keep]
    if rest:
        ax.plot(g, path_shares[:, rest].sum(axis=1), color=MUTED, lw=1.2, ls=":", label=f"{len(rest)} others")
    ax.set_xlabel("generation", fontsize=9)
    ax.set_ylabel("share of the field", fontsize=8.5)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, ncol=2, loc="upper right", framealpha=0.85)
    ax.grid(alpha=0.3)
    return _save(fig, out)


def record(rounds: int, chances, lows, highs, out: Path, title: str) -> Path:
    """The distribution of a player's final record, with intervals."""
    fig = Figure(figsize=(6.0, 3.2), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(rounds + 1)
    c = np.array(chances, dtype=float)
    err = np.vstack([np.clip(c - np.array(lows, dtype=float), 0, None),
                     np.clip(np.array(highs, dtype=float) - c, 0, None)])
    ax.bar(x, c, color=[WIN if w > rounds - w else LOSS if w < rounds - w else MUTED for w in x], alpha=0.85)
    ax.errorbar(x, c, yerr=err, fmt="none", ecolor="#222222", capsize=2.5, lw=0.9)
    ax.set_xticks(x, [f"{w}-{rounds - w}" for w in x], fontsize=8)
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("final record (match wins - losses)", fontsize=8.5)
    ax.set_ylabel("chance (95% interval)", fontsize=8.5)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, out)


__all__ = ["drift", "heatmap", "interval_bars", "record", "tier_colors"]
