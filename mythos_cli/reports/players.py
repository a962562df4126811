"""Which player made the games: every report names it, and says how much the figures move with it.

Win rates measure a deck *with* its player: the same list wins more with a stronger player,
and by how much differs from deck to deck. So every report names the players of the run and
their budgets; a run that mixes players gets a sensitivity line from its own games (a deck
that played under two players, compared), and ``--check-policy P`` plays a sample of the run's
matchups again with P (same seeds and seats) and shows how far each matchup moves.
"""

from __future__ import annotations

import functools

import polars as pl

from mythos_cli.reports.data import RunData
from mythos_cli.reports.doc import Table, interval, pct, pp
from mythos_cli.reports.stats import difference, wilson

_SEARCH = {"sims": "playouts", "width": "candidates", "clear": "clear lead", "leaf": "leaf weight", "time": "s a decision"}


def policy_label(spec: str | None) -> str:
    """``lookahead (10 playouts over 5 candidates, clear lead 3, leaf weight 1)``; ``greedy (no search)``."""
    if not spec:
        return "unknown player"
    name, _, params = spec.partition(":")
    if name in ("lookahead", "search"):
        spec = _full_spec(spec)  # a bare spec, a preset, a few settings: all of them, as the core writes them
        params = spec.partition(":")[2]
    if not params:
        return {"random": "random (uniform choices)", "greedy": "greedy (one step ahead, no search)"}.get(
            name, f"{name} (plans its round, no search)")
    kv = dict(p.split("=", 1) for p in params.split(",") if "=" in p)
    if name == "search":
        label = _search_label(kv)
        return label.replace("search (", "search:strong, the reference (", 1) if spec == _reference_spec() else label

    def num(v: str) -> str:
        try:
            f = float(v)
        except ValueError:
            return v
        return str(int(f)) if f.is_integer() else f"{f:g}"

    parts = []
    if "sims" in kv:
        parts.append(f"{num(kv.pop('sims'))} playouts" + (f" over {num(kv.pop('width'))} candidates" if "width" in kv else ""))
    t = kv.pop("time", None)
    if t is not None and float(t or 0) > 0:
        parts.append(f"{num(t)} s a decision")
    parts += [f"{_SEARCH.get(k, k)} {num(v)}" for k, v in kv.items()]
    return f"{name} ({', '.join(parts)})"


@functools.cache
def _full_spec(spec: str) -> str:
    """A built-in player's spec with every setting written out (``search`` -> ``search:clear=3.0,…``);
    a spec the core refuses is left as it is."""
    from mythos_cli.policies import PolicySpecError, make_policy

    try:
        return make_policy(spec).spec
    except PolicySpecError:
        return spec


@functools.cache
def _reference_spec() -> str:
    """The reference setting's spec as the core writes it back (what a run or a check stores)."""
    from mythos_cli.policies import REFERENCE_POLICY, make_policy

    return make_policy(REFERENCE_POLICY).spec


def _num(v: str) -> str:
    try:
        f = float(v)
    except ValueError:
        return v
    return str(int(f)) if f.is_integer() else f"{f:g}"


def _search_label(kv: dict[str, str]) -> str:
    """``search (2 playouts a candidate, endgame solver 300 positions, mulligan by 8 playouts)``."""
    parts = []
    t = kv.get("time")
    if t is not None and float(t or 0) > 0:
        parts.append(f"{_num(t)} s a decision")
    elif "playouts" in kv:
        parts.append(f"{_num(kv['playouts'])} playouts a candidate")
    if "width" in kv:
        parts.append(f"at most {_num(kv['width'])} candidates")
    if "rounds" in kv and _num(kv["rounds"]) != "1":
        parts.append(f"playouts over {_num(kv['rounds'])} rounds")
    if "solve" in kv:
        parts.append(f"endgame solver {_num(kv['solve'])} positions" if _num(kv["solve"]) != "0" else "no endgame solver")
    if "mulligan" in kv:
        parts.append(f"mulligan by {_num(kv['mulligan'])} playouts")
    if "leaf" in kv:  # written only when not the default's fitted leaf
        parts.append({"0": "hand-tuned leaf", "1": "refitted leaf"}.get(_num(kv["leaf"]), f"leaf {_num(kv['leaf'])}"))
    if _num(kv.get("tree", "0")) != "0":
        parts.insert(0, f"one tree over its information states, exploration {_num(kv.get('explore', '?'))}")
    return f"search ({', '.join(parts)})" if parts else "search"


def players_line(rd: RunData) -> str:
    """The run's players and budgets, in one sentence."""
    a, b = rd.info.get("policy_a"), rd.info.get("policy_b")
    mull = rd.info.get("mulligan") or "each player's own"
    who = (f"{policy_label(a)} for every deck" if a == b
           else f"{policy_label(a)} for the studied decks, {policy_label(b)} for the opponents")
    return f"Players: {who}; mulligan rule: {mull}. Every figure is a deck with this player."


def run_policies(rd: RunData) -> list[str]:
    return sorted(set(rd.seats["policy"].unique().to_list()))


def mixed_line(rd: RunData, decks: list[str] | None = None) -> tuple[str | None, list[dict]]:
    """When the run holds games of more than one player: what that means, from its own games."""
    policies = run_policies(rd)
    if len(policies) < 2:
        return None, []
    agg = (rd.seats.group_by("deck", "policy").agg(pl.len().alias("n"), pl.col("won").sum().alias("w"))
           .sort("deck", "policy"))
    by_deck: dict[str, list[dict]] = {}
    for r in agg.iter_rows(named=True):
        if decks and r["deck"] not in decks:
            continue
        by_deck.setdefault(r["deck"], []).append({"deck": r["deck"], "policy": r["policy"],
                                                  **wilson(r["w"], r["n"]).to_dict()})
    both = {d: rows for d, rows in by_deck.items() if len(rows) > 1}
    rows = [x for rs in both.values() for x in rs]
    line = (f"Policy sensitivity: this run mixes players ({', '.join(policy_label(p) for p in policies)}), so a "
            "deck's figures depend on which one played it.")
    apart = []
    for d, rs in both.items():
        hi = max(rs, key=lambda x: x["win_rate"])
        lo = min(rs, key=lambda x: x["win_rate"])
        if hi["ci95"][0] > lo["ci95"][1]:
            apart.append(f"{d} {pct(hi['win_rate'])} with {hi['policy']} vs {pct(lo['win_rate'])} with {lo['policy']}")
    if apart:
        line += " Intervals apart: " + "; ".join(apart[:4]) + "."
    elif both:
        line += " No deck's rates under its players are clearly apart in this run."
    line += (" `--check-policy P` replays a sample of the matchups with one player (`search:strong`, the reference: "
             "how far a verdict could still move with a stronger one).")
    return line, rows


def check_results(rd: RunData, checked: list) -> tuple[list[dict], Table, str]:
    """Each checked matchup: the stored rate (all its games, and the same games) and the rate with
    the check's player on the same seeds, and how far it moved (Newcomb interval)."""
    games = rd.games.with_columns((pl.col("winner") == pl.col("studied_seat")).alias("won"))
    out, rows = [], []
    for c in checked:
        same = games.filter(pl.col("game_no").is_in(list(c.game_nos)))
        allm = games.filter(pl.col("matchup") == c.matchup)
        stored_same = wilson(int(same["won"].sum()), same.height)
        stored_all = wilson(int(allm["won"].sum()), allm.height)
        new = wilson(c.wins, c.games)
        moved = difference(new, stored_same)
        out.append({"matchup": c.matchup, "deck": c.deck, "opponent": c.opponent, "check_policy": c.policy,
                    "games": c.games, "stored_all_games": stored_all.to_dict(), "stored_same_games": stored_same.to_dict(),
                    "with_check_policy": new.to_dict(), "moved": moved.to_dict()})
        rows.append([c.deck, c.opponent, pct(stored_all.rate), f"{pct(stored_same.rate)} → {pct(new.rate)}",
                     str(c.games), pp(moved.value), interval(moved.low, moved.high, points=True)])
    policy = policy_label(checked[0].policy) if checked else "?"
    table = Table(f"Policy check: the run's first games of each matchup replayed with {policy} for both players",
                  ["deck", "opponent", "stored", "same games: stored → check", "games", "moved", "95% CI"], rows,
                  left=2, note="Same seeds and seats as the run; only the player changed. Interval: Newcomb "
                               "(conservative for these paired games).")
    clear = [o for o in out if o["moved"]["ci95"][0] is not None
             and (o["moved"]["ci95"][0] > 0 or o["moved"]["ci95"][1] < 0)]
    if out:
        span = [o["moved"]["diff"] for o in out if o["moved"]["diff"] is not None]
        moved = f"{pp(min(span), 0)} to {pp(max(span), 0)}" if len(span) > 1 else pp(span[0], 0) if span else "—"
        line = (f"Policy check, {policy}: {out[0]['games']} games a matchup on the run's seeds; "
                f"{'matchups moved' if len(out) > 1 else 'the matchup moved'} {moved}; "
                + ("clearly (interval clear of 0): " + "; ".join(
                    f"{o['deck']} vs {o['opponent']} {pp(o['moved']['diff'], 0)}" for o in clear[:4])
                   if clear else "none clearly (every interval spans 0)") + ".")
    else:
        line = "Policy check: no matchup to check."
    return out, table, line
