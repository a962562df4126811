"""The fingerprint of the built-in players' games: did a change to the engine or a player change
any game? (issue 28: the engine was made incremental under this check.)

    python benchmarks/fingerprint.py                   # every player, the full counts, checked
    python benchmarks/fingerprint.py --players search --games 500
    python benchmarks/fingerprint.py --record          # write the digests of this version

Each player plays itself on the six sample decks and six random legal decks of the whole catalog
(seeded): game i is deck i mod 12 against deck 5i+1 mod 12 from seed 1000+i, inside the core on
every core (the digest does not depend on the threads). A game's digest covers every decision,
the scores and the winner (``_core.game_digests``); a player's fingerprint is the SHA-256 of its
games' digests in order. ``fingerprints.json`` holds the recorded ones: ``full`` (thousands of
games of each player, this script's default) and ``test`` (the counts ``tests/test_fingerprint.py``
checks in CI, smaller for the slow players).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli import _core  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet, load_specs, random_specs  # noqa: E402

RECORDED = Path(__file__).with_name("fingerprints.json")
PLAYERS = ["random", "greedy", "tempo", "ambush", "control", "lookahead", "search"]
# the counts of the full check, and of the test's (lookahead and search are slow)
FULL = {"random": 3000, "greedy": 3000, "tempo": 3000, "ambush": 3000, "control": 3000,
        "lookahead": 3000, "search": 2000}
TEST = {"random": 3000, "greedy": 3000, "tempo": 2000, "ambush": 2000, "control": 2000,
        "lookahead": 200, "search": 40}


def decks() -> list[tuple[list[str], list[str]]]:
    specs = load_specs(default_gauntlet()) + random_specs(6, seed=28)
    return [(list(s.cards), list(s.missions)) for s in specs]


def fingerprint(spec: str, games: int, threads: int = 0, chunk: int = 50) -> str:
    """SHA-256 (hex, 16 digits) of the digests of `games` self-play games of `spec`."""
    d = decks()
    n = len(d)
    plan = [(i % n, (i * 5 + 1) % n, 1000 + i, spec, spec) for i in range(games)]
    chunks = [plan[k:k + chunk] for k in range(0, len(plan), chunk)]
    with ThreadPoolExecutor(threads or os.cpu_count() or 1) as pool:
        parts = list(pool.map(lambda c: _core.game_digests(d, c), chunks))
    h = hashlib.sha256()
    for part in parts:
        for x in part:
            h.update(x.to_bytes(8, "little"))
    return h.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default=",".join(PLAYERS))
    ap.add_argument("--games", type=int, default=None, help="games of each player (default: the full counts)")
    ap.add_argument("--set", choices=("full", "test"), default="full", help="which recorded counts to play")
    ap.add_argument("--record", action="store_true", help=f"write the digests into {RECORDED.name}")
    args = ap.parse_args()
    recorded = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
    counts = FULL if args.set == "full" else TEST
    failed = 0
    for spec in args.players.split(","):
        n = args.games or counts[spec]
        t = time.perf_counter()
        fp = fingerprint(spec, n)
        dt = time.perf_counter() - t
        want = recorded.get(args.set, {}).get(spec)
        if args.record:
            recorded.setdefault(args.set, {})[spec] = {"games": n, "digest": fp}
            verdict = "recorded"
        elif want and want["games"] == n:
            verdict = "same" if want["digest"] == fp else f"DIFFERENT (recorded {want['digest']})"
            failed += want["digest"] != fp
        else:
            verdict = "no record at this count"
        print(f"{spec:10} {n:5} games  {fp}  {verdict}  ({n / dt:.0f} games/s on {os.cpu_count()} threads)")
    if args.record:
        RECORDED.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    one, five, _ = os.getloadavg()
    print(f"load average {one:.2f} (1 min), {five:.2f} (5 min)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
