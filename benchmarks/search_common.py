"""Shared by the benchmarks: the sample decks and random legal decks (the one generator,
``mythos_cli.sim.decks.random_specs``), the plan of games over every deck pair and
both seats, games played inside the core on every core (threads: the core releases the GIL),
95% intervals, and the machine's load.

Game seeds depend only on the seed given, the pair, the seat and the repetition, so figures do
not depend on the number of threads.
"""

from __future__ import annotations

import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli import _core  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet, load_specs, random_specs  # noqa: E402


def sample_decks() -> tuple[list[str], list[tuple[list[str], list[str]]]]:
    """The six sample decks: their names and (cards, missions) version-id lists."""
    specs = load_specs(default_gauntlet())
    return [s.name for s in specs], [(list(s.cards), list(s.missions)) for s in specs]


def random_decks(n: int, seed: int) -> tuple[list[str], list[tuple[list[str], list[str]]]]:
    """``n`` random legal decks drawn from the whole catalog (seeded: the same decks for the same
    seed), as ``sample_decks`` gives them: their names and (cards, missions) lists."""
    specs = random_specs(n, seed)
    return [s.name for s in specs], [(list(s.cards), list(s.missions)) for s in specs]


def deck_sets(which: str, n_random: int, seed: int) -> list[tuple[str, list[str], list]]:
    """The deck sets a benchmark runs on: ``which`` is ``samples``, ``random`` or ``both``;
    (label, names, decks) each."""
    out = []
    if which in ("samples", "both"):
        out.append(("sample decks", *sample_decks()))
    if which in ("random", "both"):
        out.append((f"{n_random} random legal decks (seed {seed})", *random_decks(n_random, seed)))
    return out


def add_deck_options(ap) -> None:
    """The options that choose the deck sets (``deck_sets``)."""
    ap.add_argument("--decks", choices=("samples", "random", "both"), default="both",
                    help="the six sample decks, random legal decks from the whole catalog, or both (default)")
    ap.add_argument("--random-decks", type=int, default=6, help="how many random legal decks (default 6)")
    ap.add_argument("--deck-seed", type=int, default=1, help="the seed the random legal decks are drawn from")


def plan(n_decks: int, reps: int, seed: int) -> list[tuple[int, int, int, int, int]]:
    """Every ordered deck pair (i, j), A in each seat, `reps` games each: (i, j, seat of A, rep, game seed)."""
    out = []
    for r in range(reps):
        for i in range(n_decks):
            for j in range(n_decks):
                for seat in (0, 1):
                    out.append((i, j, seat, r, seed * 1_000_000 + ((i * n_decks + j) * 2 + seat) * 1_000 + r))
    return out


def play(decks, games, spec_a: str, spec_b: str, threads: int = 0, chunk: int = 8):
    """Play every game of `games` ((i, j, seat of A, rep, seed): A plays deck i, B deck j) inside the
    core; rows (winner seat, score seat 0, score seat 1, first Edge holder, seat 0 mulliganed,
    seat 1 mulliganed, decisions), in the order of `games`, and the wall time."""
    threads = threads or os.cpu_count() or 1
    # seat 0 plays with spec_a when A sits there; play_search_games takes a spec per game
    tasks = []
    for (i, j, seat, _r, s) in games:
        if seat == 0:
            tasks.append((i, j, s, spec_a, spec_b))
        else:
            tasks.append((j, i, s, spec_b, spec_a))
    chunks = [tasks[k:k + chunk] for k in range(0, len(tasks), chunk)]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(lambda c: _core.play_search_games(decks, c), chunks))
    return [row for part in parts for row in part], time.perf_counter() - t0


def a_wins(games, rows) -> list[bool]:
    """Per game, whether A won."""
    return [row[0] == seat for (_i, _j, seat, _r, _s), row in zip(games, rows)]


def interval(wins: int, n: int) -> tuple[float, float]:
    """Percentage and the half-width of its 95% interval (normal approximation)."""
    p = wins / n if n else 0.0
    return 100 * p, 196 * math.sqrt(p * (1 - p) / n) if n else 0.0


def fmt(wins: int, n: int) -> str:
    p, h = interval(wins, n)
    return f"{p:.1f}% ± {h:.1f} ({wins}/{n})"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"
