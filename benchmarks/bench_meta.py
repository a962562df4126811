"""`mythos meta`'s two costs: playing a field's matrix, and answering from it.

    python benchmarks/bench_meta.py --workers 2                 # both parts
    python benchmarks/bench_meta.py --analysis-only             # the 20-list analysis alone

1. **The matrix**: ``mythos meta`` itself on a nine-list field (the six sample decks and three
   variants of them, each two copies of one card swapped for two of a card from another sample
   deck), equal shares, at the default player, ``--precision 0.03`` (budget 20,000 games), on
   ``--workers`` cores, into a fresh database: its summary and its wall time; then the same
   command again, which reuses every game.
2. **The analysis alone** on a 20-list matrix (400 games a pair, rates drawn at random): 1,000
   posterior draws, the Nash mix on each, match odds, a 64-player Swiss of 6 rounds (10,000
   tournaments, and as many again for one "my" list), the drift: wall time of each part.

The load average is printed with each timing: on a shared machine wall time is a low bound, so the
matrix part also prints the CPU seconds of the command and its workers (what the same run costs
on idle cores: CPU seconds / workers).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from mythos_cli.decks import sample_paths  # noqa: E402
from mythos_cli.experiment.matrix import from_counts  # noqa: E402
from mythos_cli.meta import Settings, analyse  # noqa: E402
from mythos_cli.meta import drift, game, match, posterior, swiss  # noqa: E402
from mythos_cli.sim import DEFAULT_POLICY, load_specs  # noqa: E402
from mythos_cli.sim.plan import DeckSpec  # noqa: E402


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def variants(decks: list[DeckSpec], k: int = 3) -> list[DeckSpec]:
    """Legal variants: two copies of a card of deck i out, two copies of a card of deck i+1 in."""
    out = []
    for i in range(k):
        base, donor = decks[i], decks[(i + 1) % len(decks)]
        twice = next(c for c in dict.fromkeys(base.cards) if base.cards.count(c) == 2)
        new = next(c for c in dict.fromkeys(donor.cards) if c not in base.cards and donor.cards.count(c) == 2)
        cards = [c for c in base.cards if c != twice] + [new, new]
        out.append(DeckSpec(f"{base.name} ({twice}→{new})", tuple(cards), base.missions))
    return out


def write_field(folder: Path) -> Path:
    """The nine lists as list files, and a field file of equal shares naming them."""
    decks = load_specs([str(p) for p in sample_paths()])
    lists = folder / "lists"
    lists.mkdir(parents=True, exist_ok=True)
    lines = []
    for k, d in enumerate(decks + variants(decks)):
        counts: dict[str, int] = {}
        for c in d.cards:
            counts[c] = counts.get(c, 0) + 1
        text = f"name: {d.name}\n" + "".join(f"{n} {c}\n" for c, n in counts.items()) + "missions:\n" + \
            "".join(f"{m}\n" for m in d.missions)
        path = lists / f"list{k + 1}.txt"
        path.write_text(text, encoding="utf-8")
        lines.append(f"{11.1 if k < 8 else 11.2}%  lists/{path.name}")
    field = folder / "field.txt"
    field.write_text("# the six sample decks and three variants, equal shares\n" + "\n".join(lines) + "\n",
                     encoding="utf-8")
    return field


def matrix_part(workers: int, precision: float, budget: int, policy: str, keep: Path | None) -> None:
    """``mythos meta`` itself, as a user runs it, on a fresh database (kept in ``keep``)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        field = write_field(folder)
        db = folder / "bench.duckdb"
        for f in (db, Path(f"{db}.wal")):
            f.unlink(missing_ok=True)
        cmd = [str(Path(sys.executable).parent / "mythos"), "meta", str(field), "--precision", str(precision),
               "--budget", str(budget), "--policy", policy, "--workers", str(workers), "--db", str(db), "--out",
               str(folder / "reports"), "--name", "bench", "--quiet"]
        print(f"matrix: 9 lists, {policy}, --precision {precision}, budget {budget:,}, {workers} workers; {load()}",
              flush=True)
        t0 = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        res = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"})
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(res.stdout, res.stderr, sep="", flush=True)
        out = subprocess.run(cmd[:2] + [str(field), "--precision", str(precision), "--budget", str(budget), "--policy",
                                        policy, "--db", str(db), "--out", str(folder / "reports"), "--name",
                                        "bench-json", "--quiet", "--json"], capture_output=True, text=True)
        plan = json.loads(out.stdout)["plan"] if out.returncode == 0 else {}
        games = sum(r["games"] for r in plan.get("rounds", [])) or None
        print(f"  {wall:.0f} s wall ({wall / 60:.1f} min) for the whole command; {cpu:.0f} CPU seconds in it and its "
              f"workers ({cpu / workers / 60:.1f} min on {workers} idle cores); {load()}", flush=True)
        if plan:
            print(f"  second run on the same database: {plan['played']} games played, {plan['reused']:,} reused "
                  f"({games or 0} planned)", flush=True)


def analysis_part(lists: int, draws: int, tournaments: int) -> None:
    rng = np.random.default_rng(1)
    rates = rng.uniform(0.3, 0.7, (lists, lists))
    fg = np.full((lists, lists), 200)
    np.fill_diagonal(fg, 0)
    fw = rng.binomial(fg, (rates + 1 - rates.T) / 2)
    np.fill_diagonal(fw, 0)
    m = from_counts([DeckSpec(f"L{i}", (f"KS-{i:03d}",), ()) for i in range(lists)], fg, fw)
    shares = rng.dirichlet(np.ones(lists))
    print(f"analysis: {lists} lists, {draws:,} draws, {tournaments:,} tournaments of 64 players, 6 rounds; {load()}")
    t = time.perf_counter()
    post = posterior.draw(m, draws, 1)
    A = post.games
    t_post = time.perf_counter() - t
    t = time.perf_counter()
    game.nash_draws(A)
    t_nash = time.perf_counter() - t
    t = time.perf_counter()
    bo3 = match.match_win(post.first, 1 - np.swapaxes(post.first, 1, 2), 3)
    t_match = time.perf_counter() - t
    t = time.perf_counter()
    st = swiss.play(bo3[:swiss.draws_for(tournaments, draws)], shares, 64, 6, 8, tournaments,
                    np.random.default_rng(2))
    swiss.summary(st, lists, 6)
    t_swiss = time.perf_counter() - t
    t = time.perf_counter()
    drift.cycles(drift.replicator(A, shares, 50))
    t_drift = time.perf_counter() - t
    t, c = time.perf_counter(), time.process_time()
    analyse(m, shares, Settings(draws=draws, tournaments=tournaments, deck=0))
    t_all, c_all = time.perf_counter() - t, time.process_time() - c
    print(f"  posterior {t_post:.2f} s, Nash on every draw {t_nash:.2f} s, match odds {t_match:.2f} s, "
          f"Swiss {t_swiss:.2f} s, drift {t_drift:.2f} s; the whole analysis (with a Swiss for my list too) "
          f"{t_all:.1f} s wall, {c_all:.1f} s of CPU; {load()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--precision", type=float, default=0.03)
    ap.add_argument("--budget", type=int, default=20_000)
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--lists", type=int, default=20)
    ap.add_argument("--draws", type=int, default=1000)
    ap.add_argument("--tournaments", type=int, default=10_000)
    ap.add_argument("--analysis-only", action="store_true")
    ap.add_argument("--keep", type=Path, help="a folder to keep the lists, the field file, the database and the page in")
    args = ap.parse_args()
    analysis_part(args.lists, args.draws, args.tournaments)
    if not args.analysis_only:
        matrix_part(args.workers, args.precision, args.budget, args.policy, args.keep)


if __name__ == "__main__":
    main()
