"""Differential replay: games played on the Python engine, followed decision by decision in the core.

Both engines deal the same game from a seed (the core draws CPython's Mersenne Twister exactly),
so the decisions recorded on the Python engine (random picks, or a heuristic player's answers)
are fed to the core one by one. At every step the two must offer the same decision (player, kind,
legal actions in the same order), and after every few steps and at the end hold the same
zones, units, missions, Edge and scores. Any difference is a bug in one engine or the other.

    python benchmarks/differential.py --games 100000                  # random players
    python benchmarks/differential.py --games 10000 --policy greedy   # a heuristic player, both seats

Used by ``tests/test_core_parity.py`` on a few thousand games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli import _core  # noqa: E402
from mythos_cli.engine import apply, legal_actions, new_game  # noqa: E402
from mythos_cli.policies import make_policy  # noqa: E402
from mythos_cli.policies.base import Observation  # noqa: E402


def _python_state(g) -> dict:
    return {
        "scores": (g.players[0].score, g.players[1].score),
        "round_scores": [tuple(r) for r in g.round_scores],
        "winner": g.winner, "edge": g.edge, "round": g.round, "phase": g.phase,
        "zones": [(list(p.hand), list(p.deck), list(p.discard), p.chakra) for p in g.players],
        "units": [(u.uid, list(u.stack), u.owner, u.controller, u.mission, u.hidden, u.tokens, list(u.attachments),
                   u.controlled_by) for u in g.all_units()],
        "missions": [(m.card, m.rank, m.winner, [list(a) for a in m.attachments]) for m in g.missions],
        "face_down": sorted(g.att_hidden),
    }


def _core_state(c) -> dict:
    players = [c.player(i) for i in (0, 1)]
    return {
        "scores": c.scores(), "round_scores": c.round_scores(), "winner": c.winner, "edge": c.edge,
        "round": c.round, "phase": c.phase,
        "zones": [(p["hand"], p["deck"], p["discard"], p["chakra"]) for p in players],
        "units": [(u["uid"], u["stack"], u["owner"], u["controller"], u["mission"], u["hidden"], u["tokens"],
                   u["attachments"], u["controlled_by"]) for u in c.units()],
        "missions": [(m["card"], m["rank"], m["winner"], [list(a) for a in m["attachments"]]) for m in c.missions()],
        "face_down": sorted(c.att_hidden()),
    }


def compare_game(deck_a, deck_b, seed: int, policies=None, every: int = 5) -> str | None:
    """Play one game on the Python engine and follow it in the core; the first difference, or None.

    ``policies``: two Python players (seat 0, seat 1), or None for uniformly random picks drawn as
    ``play_random_game`` draws them."""
    g = new_game(deck_a, deck_b, seed)
    c = _core.Game([x.id for x in deck_a.cards], [m.id for m in deck_a.missions],
                   [x.id for x in deck_b.cards], [m.id for m in deck_b.missions], seed)
    rng = random.Random(seed ^ 0x5EED)
    if policies is not None:
        policies[0].reset(seed * 2 + 1)
        policies[1].reset(seed * 2 + 2)
    step = 0
    while g.phase != "over":
        legal = legal_actions(g)
        pending = c.pending()
        if (pending is None or pending["kind"] != g.pending.kind or pending["player"] != g.pending.player
                or [tuple(x) for x in c.legal_actions()] != legal):
            core_legal = [tuple(x) for x in c.legal_actions()]
            return (f"seed {seed} decision {step} (round {g.round}, {g.phase}, {g.pending.kind} of p{g.pending.player + 1}):"
                    f" only Python offers {[x for x in legal if x not in core_legal][:4]},"
                    f" only the core {[x for x in core_legal if x not in legal][:4]}")
        if policies is None:
            action = legal[rng.randrange(len(legal))]
        else:
            action = tuple(policies[g.pending.player].decide(Observation(g, g.pending.player)))
        apply(g, action)
        c.apply(action)
        step += 1
        if step % every == 0 and _python_state(g) != _core_state(c):
            a, b = _python_state(g), _core_state(c)
            return f"seed {seed} after decision {step} ({action}): {[k for k in a if a[k] != b[k]]} differ"
    if _python_state(g) != _core_state(c):
        a, b = _python_state(g), _core_state(c)
        return f"seed {seed} at the end: {[k for k in a if a[k] != b[k]]} differ"
    return None


def main() -> None:
    from bench_engine import make_decks

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--sets", default="KS,SS")
    ap.add_argument("--decks", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default=None, help="a heuristic player for both seats (default: random picks)")
    ap.add_argument("--sample-decks", action="store_true", help="the six sample decks instead of random ones")
    args = ap.parse_args()
    if args.sample_decks:
        from mythos_cli.decks import load_deck, sample_paths
        from mythos_cli.sim.decks import deck_spec
        from mythos_cli.sim.game import game_deck

        decks = [game_deck(deck_spec(load_deck(p), Path(p).stem)) for p in sample_paths()]
    else:
        decks = make_decks(args.decks, tuple(args.sets.split(",")), "all", args.seed)
    policies = None if args.policy is None else (make_policy(args.policy), make_policy(args.policy))
    t0 = time.perf_counter()
    diffs = 0
    for i in range(args.games):
        a, b = decks[i % len(decks)], decks[(i * 7 + 3) % len(decks)]
        found = compare_game(a, b, args.seed * 1_000_003 + i, policies)
        if found:
            diffs += 1
            if diffs <= 5:
                print(found, file=sys.stderr)
    dt = time.perf_counter() - t0
    print(f"games        {args.games} ({args.policy or 'random'} players, {len(decks)} decks)")
    print(f"differences  {diffs}")
    print(f"time         {dt:.0f} s")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
