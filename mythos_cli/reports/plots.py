"""Every picture of the reports, drawn with matplotlib's Agg backend (no display needed).

Figures are built with ``matplotlib.figure.Figure`` rather than pyplot, so nothing global
is touched and a report can be drawn from any thread or process.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Sequence

import matplotlib

matplotlib.use("Agg")  # headless: reports are made on servers and in CI

import numpy as np  # noqa: E402
from matplotlib import ticker  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from mythos_cli.text import shown  # noqa: E402

DPI = 110
WIN = "#2f7d4f"
LOSS = "#b23a3a"
NEUTRAL = "#4c72b0"
MUTED = "#9aa5b1"


def save_figure(fig: Figure, path: Path) -> Path:
    """Write a chart. Its texts hold deck and card names read from a database: each is drawn as
    written, its control characters as escapes (``mythos_cli.text.shown``) and a ``$`` as a
    dollar, never the start of a formula. (Tick labels are made anew at every draw: they are
    cleaned where they are given, ``tick_label``.)"""
    from matplotlib.text import Text

    for t in fig.findobj(Text):  # titles, legends, notes
        if t.get_text():
            t.set_text(shown(t.get_text(), lines=True))
            t.set_parse_math(False)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, facecolor="white")  # constrained layout already fits the labels
    return path



def tick_label(text: str) -> str:
    """A tick label from a name read from a database: its controls as escapes, ``$`` a dollar."""
    return shown(str(text)).replace("$", r"\$")


def _wrap(label: str, width: int = 22) -> str:
    label = tick_label(label)
    return "\n".join(textwrap.wrap(label, width)) or label


def _nan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _errs(rates, lows, highs):
    """Asymmetric error bars (interval ends around the point); NaN where undefined."""
    r = np.array([np.nan if _nan(x) else x for x in rates], dtype=float)
    lo = np.array([np.nan if _nan(x) else x for x in lows], dtype=float)
    hi = np.array([np.nan if _nan(x) else x for x in highs], dtype=float)
    return r, np.vstack([np.clip(r - lo, 0, None), np.clip(hi - r, 0, None)])


def matrix_heatmap(decks: Sequence[str], cells: dict, path: Path, title: str) -> Path:
    """``cells[(row, col)] = (rate, low, high, n, mirror)`` for the row deck against the column deck."""
    k = len(decks)
    size = max(5.0, 1.55 * k + 2.5)
    fig = Figure(figsize=(size + 1.2, size), layout="constrained")
    ax = fig.add_subplot()
    grid = np.full((k, k), np.nan)
    for i, a in enumerate(decks):
        for j, b in enumerate(decks):
            cell = cells.get((a, b))
            # coloured only when the interval is clear of 50%: grey says "no verdict" (or not played)
            if cell is not None and not cell[4] and cell[3] > 0 and (cell[1] > 0.5 or cell[2] < 0.5):
                grid[i, j] = cell[0]
    cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="#e6e6e6")
    im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=TwoSlopeNorm(0.5, 0.0, 1.0))
    for i, a in enumerate(decks):
        for j, b in enumerate(decks):
            cell = cells.get((a, b))
            if cell is None or cell[3] == 0:
                text, color = ("mirror\nnot played" if a == b else "not\nplayed"), "#555555"
            elif cell[4]:
                text, color = f"50%\nmirror\nn={cell[3]}", "#333333"
            else:
                rate, low, high, n, _ = cell
                text = f"{100 * rate:.0f}%\n{100 * low:.0f}–{100 * high:.0f}\nn={n}"
                color = "white" if abs(rate - 0.5) > 0.3 and (low > 0.5 or high < 0.5) else "black"
            ax.text(j, i, text, ha="center", va="center", fontsize=8.5, color=color, linespacing=1.15)
    labels = [_wrap(d, 16) for d in decks]
    ax.set_xticks(range(k), labels, rotation=35, ha="right", fontsize=9)
    ax.set_yticks(range(k), labels, fontsize=9)
    ax.set_xlabel("opponent")
    ax.set_ylabel("deck (row wins this share)")
    ax.set_title(title, fontsize=11)
    cbar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    cbar.set_label("win rate of the row deck (grey: the interval spans 50%)")
    cbar.ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    return save_figure(fig, path)


def rate_bars(labels: Sequence[str], rates, lows, highs, ns, path: Path, title: str, *,
              reference: float | None = 0.5, reference_label: str = "50%", xlabel: str = "win rate",
              colors: Sequence[str] | None = None, shares: Sequence[float] | None = None) -> Path:
    """Horizontal bars of win rates with their 95% intervals, n written at the bar's end;
    ``shares``: each row's share of the field, drawn beside it."""
    n = len(labels)
    y = np.arange(n)[::-1]
    if shares is not None:
        fig = Figure(figsize=(9.5, max(2.2, 0.42 * n + 1.3)), layout="constrained")
        side, ax = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [0.22, 1]})
        side.barh(y, shares, color=NEUTRAL, alpha=0.6, height=0.65)
        for yi, sh in zip(y, shares):
            side.text(sh, yi, f" {100 * sh:.0f}%", va="center", fontsize=8)
        side.set_xlim(0, max(1e-9, max(shares)) * 1.6)
        side.invert_xaxis()
        side.set_xticks([])
        side.set_title("share of the field", fontsize=9)
        side.set_yticks(y, [_wrap(lb, 40) for lb in labels], fontsize=8.5)
        for spine in ("top", "left", "bottom"):
            side.spines[spine].set_visible(False)
    else:
        fig = Figure(figsize=(8.5, max(2.2, 0.42 * n + 1.3)), layout="constrained")
        ax = fig.add_subplot()
    r, err = _errs(rates, lows, highs)
    if colors is None:  # green/red only when the interval is clear of the reference, grey otherwise
        colors = clear_colors(lows, highs, reference if reference is not None else 0.5)
    ax.barh(y, np.nan_to_num(r), color=colors, alpha=0.85, height=0.65)
    ax.errorbar(r, y, xerr=err, fmt="none", ecolor="#222222", capsize=3, lw=1)
    for yi, ri, hi, ni in zip(y, r, np.asarray(r) + err[1], ns):
        if not math.isnan(ri):
            ax.text(min(0.99, (hi if not math.isnan(hi) else ri) + 0.015), yi, f"{100 * ri:.0f}%  n={ni}",
                    va="center", fontsize=8)
    if reference is not None:
        ax.axvline(reference, color="#444444", ls="--", lw=1)
        ax.text(reference, n - 0.35, f" {reference_label}", fontsize=8, color="#444444", va="bottom")
    if shares is None:
        ax.set_yticks(y, [_wrap(lb, 40) for lb in labels], fontsize=8.5)
    else:
        ax.tick_params(labelleft=False)
    ax.set_xlim(0, 1.12)
    ax.xaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(xlabel + " (bars: 95% interval)")
    ax.set_title(title, fontsize=11)
    ax.set_ylim(-0.7, n - 0.1 + 0.5)
    ax.grid(axis="x", alpha=0.3)
    return save_figure(fig, path)


def clear_colors(lows, highs, reference: float) -> list[str]:
    """Green: the interval is above ``reference``; red: below; grey: it spans it (no verdict)."""
    out = []
    for lo, hi in zip(lows, highs):
        if _nan(lo) or _nan(hi):
            out.append(MUTED)
        else:
            out.append(WIN if lo > reference else LOSS if hi < reference else MUTED)
    return out


def _group_panel(ax, labels, rates, lows, highs, ns, title, reference=None, reference_label="", family=None):
    """Bars with intervals; against a reference ``(rate, low, high, n)``, coloured by whether the
    interval is clear of it, and the reference drawn as a line with its own interval as a band."""
    r, err = _errs(rates, lows, highs)
    x = np.arange(len(labels))
    ref = reference[0] if isinstance(reference, tuple) else reference
    colors = clear_colors(*(family or (lows, highs)), ref) if ref is not None and not _nan(ref) else NEUTRAL
    ax.bar(x, np.nan_to_num(r), color=colors, alpha=0.85, width=0.65)
    ax.errorbar(x, r, yerr=err, fmt="none", ecolor="#222222", capsize=3, lw=1)
    for xi, ni in zip(x, ns):
        if not ni:
            ax.text(xi, 0.03, "no games", ha="center", fontsize=8, color="#555555")
    if ref is not None and not _nan(ref):
        n_ref = f", n={reference[3]}" if isinstance(reference, tuple) else ""
        ax.axhline(ref, color="#444444", ls="--", lw=1.2,
                   label=f"{reference_label} {100 * ref:.0f}%{n_ref}".strip())
        if isinstance(reference, tuple):
            ax.axhspan(reference[1], reference[2], color="#444444", alpha=0.12, lw=0)
        ax.legend(loc="upper right", fontsize=7.5, framealpha=0.9)
    ax.set_xticks(x, [f"{tick_label(lb)}\nn={ni}" for lb, ni in zip(labels, ns)], fontsize=8.5)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)


def _shade_rule(ax, thrown: list[bool] | None, label: str) -> None:
    """Shade the bars a keep rule throws back, and name the rule in the legend."""
    if not thrown or not any(thrown):
        return
    for xi, t in enumerate(thrown):
        if t:
            ax.axvspan(xi - 0.5, xi + 0.5, color="#f2c14e", alpha=0.25, lw=0)
    ax.bar([], [], color="#f2c14e", alpha=0.4, label=_wrap(label, 38))
    ax.legend(loc="upper right", fontsize=7.5, framealpha=0.9)


def mulligan_panel(deck: str, keep_mull: dict, cheap: dict, total: dict, mulligan_value: tuple | None,
                   path: Path, note: str | None = None, rule: dict | None = None) -> Path:
    """Keep vs mulligan, then win rate by cheap plays and by total cost of the opening hand.

    Each dict: ``labels, rates, lows, highs, ns``; ``mulligan_value`` is the random-hand win rate
    ``(rate, low, high, n)`` (None: too few games to draw it). ``rule``: a keep rule to draw,
    ``{"text", "cheap": [bool per bar], "total": [bool per bar]}`` (the bars it throws back)."""
    fig = Figure(figsize=(13, 4.2), layout="constrained")
    axes = fig.subplots(1, 3, gridspec_kw={"width_ratios": [0.7, 1.2, 1.2]})
    ref_label = "a random hand wins" if mulligan_value is not None else ""
    _group_panel(axes[0], keep_mull["labels"], keep_mull["rates"], keep_mull["lows"], keep_mull["highs"],
                 keep_mull["ns"], "kept vs mulliganed (observed)")
    axes[0].set_ylabel("win rate (95% interval)")
    _group_panel(axes[1], cheap["labels"], cheap["rates"], cheap["lows"], cheap["highs"], cheap["ns"],
                 "by cheap plays in the opening hand", mulligan_value, ref_label, cheap.get("family"))
    axes[1].set_xlabel("cards of cost ≤ 2 in the kept hand")
    _group_panel(axes[2], total["labels"], total["rates"], total["lows"], total["highs"], total["ns"],
                 "by total cost of the opening hand", mulligan_value, ref_label, total.get("family"))
    axes[2].set_xlabel("sum of the 5 cards' costs")
    if rule:
        _shade_rule(axes[1], rule.get("cheap"), "rule from random hands: " + rule["text"])
        _shade_rule(axes[2], rule.get("total"), "rule from random hands: " + rule["text"])
    fig.suptitle(f"{deck}: mulligans and opening hands, as the player played them"
                 + (f" ({note})" if note else "") + (f"\nrule from random hands: {rule['text']}" if rule else ""),
                 fontsize=12)
    return save_figure(fig, path)


def curve_panel(deck: str, curve: dict[int, int], odds: list[dict], chakra: list[dict], path: Path) -> Path:
    """Cost curve; exact vs simulated odds of a card of each cost by round, one small panel per
    cost (eight lines on one axis hid each other); chakra per round."""
    fig = Figure(figsize=(14, 4.6), layout="constrained")
    left, middle, right = fig.subfigures(1, 3, width_ratios=[0.9, 1.5, 1.0])
    ax = left.subplots()
    costs = sorted(curve)
    ax.bar(costs, [curve[c] for c in costs], color=NEUTRAL, alpha=0.85)
    for c in costs:
        if curve[c]:
            ax.text(c, curve[c] + 0.15, str(curve[c]), ha="center", fontsize=8)
    ax.set_xticks(costs)
    ax.set_xlabel("cost")
    ax.set_ylabel("copies")
    ax.set_title("cost curve", fontsize=10)
    ax.grid(axis="y", alpha=0.3)

    shown = [o for o in odds if o["copies"] > 0]
    cols = max(1, math.ceil(len(shown) / 2))
    grid = middle.subplots(2 if len(shown) > 1 else 1, cols, sharex=True, sharey=True, squeeze=False)
    for k, axk in enumerate(grid.flat):
        if k >= len(shown):
            axk.set_visible(False)
            continue
        o = shown[k]
        rounds = [p["round"] for p in o["by_round"]]
        axk.plot(rounds, [p["exact"] for p in o["by_round"]], "-", color=NEUTRAL, lw=1.6)
        sim = [np.nan if p["simulated"] is None else p["simulated"] for p in o["by_round"]]
        axk.plot(rounds, sim, "o", color=LOSS, ms=4, mfc="white", mew=1.3)
        axk.set_title(f"cost {o['cost']} ({o['copies']} cop{'y' if o['copies'] == 1 else 'ies'})", fontsize=8.5)
        axk.set_ylim(0, 1.05)
        axk.set_xticks([0, 1, 2, 3, 4], ["o", "1", "2", "3", "4"], fontsize=7.5)
        axk.yaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
        axk.tick_params(labelsize=7.5)
        axk.grid(alpha=0.3)
    middle.suptitle("odds of having seen a card of each cost by round (o: opening hand): line exact, ○ simulated",
                    fontsize=9.5)

    ax = right.subplots()
    rounds = [c["round"] for c in chakra]
    width = 0.27
    x = np.arange(len(rounds))
    for k, (key, label, color) in enumerate((("gained", "gained", NEUTRAL), ("spent", "spent", WIN),
                                              ("wasted", "wasted (left at round end)", LOSS))):
        means = [c[key]["mean"] for c in chakra]
        lo = [c[key]["ci95"][0] for c in chakra]
        hi = [c[key]["ci95"][1] for c in chakra]
        m, err = _errs(means, lo, hi)
        ax.bar(x + (k - 1) * width, np.nan_to_num(m), width, color=color, alpha=0.85, label=label)
        ax.errorbar(x + (k - 1) * width, m, yerr=err, fmt="none", ecolor="#222222", capsize=2, lw=0.8)
    ax.set_xticks(x, [f"round {r}" for r in rounds], fontsize=8.5)
    ax.set_ylabel("chakra per player (mean, 95% interval)")
    ax.set_title("chakra per round", fontsize=10)
    ax.legend(fontsize=7.5)
    ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"{deck}: curve and chakra", fontsize=12)
    return save_figure(fig, path)


def cards_panel(deck: str, top: list[dict], bottom: list[dict], deck_rate: float, path: Path,
                min_games: int) -> Path:
    """Best and worst cards by win rate when in hand (GIH), with the improvement when drawn."""
    rows = top + [None] + bottom if bottom else top
    n = len(rows)
    fig = Figure(figsize=(13, max(3.0, 0.36 * n + 1.6)), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [1.15, 1.0]})
    y = np.arange(n)[::-1]
    labels = ["" if r is None else _wrap(f"{r['card']} {r['name']}", 44) for r in rows]
    real = [(yi, r) for yi, r in zip(y, rows) if r is not None]
    ax = axes[0]
    gih = [r["in_hand"] for _, r in real]
    rr, err = _errs([g["win_rate"] for g in gih], [g["ci95"][0] for g in gih], [g["ci95"][1] for g in gih])
    ys = np.array([yi for yi, _ in real])
    # dots and whiskers on a zoomed axis: bars from 0% would squash the differences that matter
    ax.errorbar(rr, ys, xerr=err, fmt="none", ecolor="#555555", capsize=2.5, lw=0.9)
    ax.scatter(rr, ys, c=clear_colors([g["ci95"][0] for g in gih], [g["ci95"][1] for g in gih], deck_rate), s=36,
               zorder=3)
    ax.axvline(deck_rate, color="#444444", ls="--", lw=1)
    ax.text(deck_rate, n - 0.3, f" deck {100 * deck_rate:.0f}%", fontsize=8, va="bottom")
    lows, highs = rr - err[0], rr + err[1]
    ax.set_xlim(max(0.0, float(np.nanmin(np.append(lows, deck_rate))) - 0.05),
                min(1.0, float(np.nanmax(np.append(highs, deck_rate))) + 0.05))
    ax.xaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("win rate when in hand (opening or drawn), 95% interval")
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_ylim(-0.7, n - 0.1 + 0.6)
    ax.grid(axis="x", alpha=0.3)
    ax = axes[1]
    iwd = [r["improvement_when_drawn"] for _, r in real]
    ci = [v.get("ci_family", v["ci95"]) for v in iwd]  # the intervals for all ranked cards at once
    d, derr = _errs([v["diff"] for v in iwd], [c[0] for c in ci], [c[1] for c in ci])
    ax.barh(ys, d, color=clear_colors([c[0] for c in ci], [c[1] for c in ci], 0.0), alpha=0.85, height=0.65)
    ax.errorbar(d, ys, xerr=derr, fmt="none", ecolor="#222222", capsize=2.5, lw=0.9)
    ax.axvline(0, color="#444444", lw=1)
    ax.xaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("improvement when drawn: in hand − never seen (intervals for all cards at once)")
    ax.grid(axis="x", alpha=0.3)
    if bottom:
        axes[0].axhline(y[len(top)], color="#bbbbbb", lw=0.8, ls=":")
        axes[1].axhline(y[len(top)], color="#bbbbbb", lw=0.8, ls=":")
    fig.suptitle(f"{deck}: best and worst cards (at least {min_games} games in hand and not seen)", fontsize=12)
    return save_figure(fig, path)


def diff_bars(labels: Sequence[str], diffs, lows, highs, ns, path: Path, title: str,
              xlabel: str = "difference in win rate (points), 95% interval",
              sides: tuple[str, str] | None = None) -> Path:
    """Horizontal bars of differences from 0 with their intervals: green/red only when clear of 0.
    ``sides``: what a bar to the left and to the right of 0 means (``("B better", "A better")``)."""
    n = len(labels)
    fig = Figure(figsize=(8.5, max(2.2, 0.42 * n + 1.3)), layout="constrained")
    ax = fig.add_subplot()
    d, err = _errs(diffs, lows, highs)
    y = np.arange(n)[::-1]
    ax.barh(y, np.nan_to_num(d), color=clear_colors(lows, highs, 0.0), alpha=0.85, height=0.65)
    ax.errorbar(d, y, xerr=err, fmt="none", ecolor="#222222", capsize=3, lw=1)
    for yi, di, ni in zip(y, d, ns):
        if not math.isnan(di):
            ax.text(1.02, yi, f"{100 * di:+.0f} pp  n={ni}", va="center", fontsize=8,
                    transform=ax.get_yaxis_transform())
    ax.axvline(0, color="#444444", lw=1)
    if sides:  # say which way is which: "A minus B" alone was read backwards
        ax.text(0.01, 1.01, f"← {sides[0]}", transform=ax.transAxes, ha="left", va="bottom", fontsize=8.5,
                color=LOSS)
        ax.text(0.99, 1.01, f"{sides[1]} →", transform=ax.transAxes, ha="right", va="bottom", fontsize=8.5,
                color=WIN)
    ax.set_yticks(y, [_wrap(lb, 40) for lb in labels], fontsize=8.5)
    ax.set_xlim(-1, 1)
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{100 * v:+.0f}"))
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=11, pad=16 if sides else 6)
    ax.grid(axis="x", alpha=0.3)
    return save_figure(fig, path)


def _effect_panel(ax, groups: list[dict], title: str, xlabel: str, mulliganed: list[bool] | None = None,
                  rule_label: str | None = None) -> None:
    """The effect of mulliganing each group of hands (mulliganed minus kept, points), with its
    interval; green: mulliganing them clearly helps, red: clearly hurts. ``mulliganed``: the
    groups a learned rule throws back (shaded, and named in the legend)."""
    x = np.arange(len(groups))
    eff = [g["effect"] for g in groups]
    d, err = _errs([e["gain"] for e in eff], [e["ci"][0] for e in eff], [e["ci"][1] for e in eff])
    if mulliganed and any(mulliganed):
        for xi, m in zip(x, mulliganed):
            if m:
                ax.axvspan(xi - 0.5, xi + 0.5, color="#f2c14e", alpha=0.25, lw=0)
        ax.bar([], [], color="#f2c14e", alpha=0.4, label=rule_label or "the learned rule mulligans these")
    ax.bar(x, np.nan_to_num(d), color=clear_colors([e["ci"][0] for e in eff], [e["ci"][1] for e in eff], 0.0),
           alpha=0.85, width=0.65)
    ax.errorbar(x, d, yerr=err, fmt="none", ecolor="#222222", capsize=3, lw=1)
    ax.axhline(0, color="#444444", lw=1)
    ax.set_xticks(x, [f"{g['group']}\nn={g['hands']}" for g in groups], fontsize=8.5)
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{100 * v:+.0f}"))
    lim = max(0.1, min(1.0, float(np.nanmax(np.abs(np.concatenate([d - err[0], d + err[1]])))) * 1.15
                       if len(d) else 0.1))
    ax.set_ylim(-lim, lim)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", alpha=0.3)
    if mulliganed and any(mulliganed):
        ax.legend(loc="upper left", fontsize=7.5, framealpha=0.9)


def mulligan_experiment_panel(deck: str, by_total: list[dict], by_cheap: list[dict], by_heavy: list[dict],
                              shaded: dict[str, list[bool]], rule: str | None, path: Path, cheap_cost: int,
                              heavy_cost: int) -> Path:
    """The mulligan experiment: the effect of mulliganing hands by total cost, cheap plays and
    expensive cards; ``shaded[panel]`` marks the groups the learned rule throws back."""
    fig = Figure(figsize=(13, 4.4), layout="constrained")
    axes = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.1, 1.0, 1.0]})
    label = f"rule: {rule}" if rule else None
    _effect_panel(axes[0], by_total, "by total cost of the dealt hand", "sum of the 5 cards' costs",
                  shaded.get("total"), _wrap(label, 40) if label else None)
    axes[0].set_ylabel("mulliganed − kept, points (95% interval)")
    _effect_panel(axes[1], by_cheap, f"by cheap plays (cost ≤ {cheap_cost})", "cards of cost ≤ "
                  f"{cheap_cost} in the dealt hand", shaded.get("cheap"), _wrap(label, 40) if label else None)
    _effect_panel(axes[2], by_heavy, f"by expensive cards (cost ≥ {heavy_cost})", f"cards of cost ≥ {heavy_cost} "
                  "in the dealt hand", shaded.get("heavy"), _wrap(label, 40) if label else None)
    head = f"{deck}: what mulliganing a dealt hand is worth (each hand played both ways)"
    fig.suptitle(head + ("\nadvice: " + rule if rule else "\nadvice: keep every hand"), fontsize=11.5)
    return save_figure(fig, path)
