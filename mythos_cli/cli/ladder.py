"""``mythos ladder``: a measured round-robin between policies, rated Bradley-Terry."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from mythos_cli import stops
from mythos_cli.cli.output import err, fail, out, plain, print_json
from mythos_cli.decks import DeckError
from mythos_cli.policies import PolicySpecError
from mythos_cli.policies.ladder import run_ladder
from mythos_cli.cli.simulate import WORKERS_HELP, check_workers
from mythos_cli.sim.decks import default_gauntlet, load_specs
from mythos_cli.sim.plan import MAX_SEED

DEFAULT = "random,greedy,tempo,ambush,control,lookahead,search"
MAX_LADDER_GAMES = 100_000  # a ladder plans every game up front (a pairing each)


def ladder(
    decks: Optional[Path] = typer.Option(None, "--decks", help="Folder of deck lists (default: the sample decks)."),
    games: int = typer.Option(40, "--games", "-n", min=2, max=MAX_LADDER_GAMES,
                              help=f"Games per pair of policies (seats and decks mirrored), 2 to {MAX_LADDER_GAMES:,}."),
    seed: int = typer.Option(1, "--seed", min=0, max=MAX_SEED, help="0 to 2^64 - 1."),
    policies: str = typer.Option(DEFAULT, "--policies", help="Comma-separated policy specs (use ; to separate "
                                 "specs that carry parameters, e.g. 'greedy;lookahead:sims=20,width=3')."),
    workers: int = typer.Option(0, "--workers", "-w", help=WORKERS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the ratings as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar on stderr; results and errors only."),
) -> None:
    """Round-robin between policies on mirrored seats and decks; Bradley-Terry ratings with 95% intervals.

    Example: mythos ladder --games 100 --workers 2
    """
    workers = check_workers(workers)
    sep = ";" if ";" in policies else ","
    specs = [p.strip() for p in policies.split(sep) if p.strip()]
    if len(specs) < 2:
        fail("a ladder needs at least two policies", f"e.g. --policies {DEFAULT}", code=2)
    try:
        deck_specs = load_specs([str(decks)] if decks else default_gauntlet())
    except DeckError as exc:
        from mythos_cli.cli.simulate import _deck_error

        _deck_error(exc)
    game_decks = list(deck_specs)
    if not game_decks:  # (a ladder over no deck divided by zero)
        fail(f"--decks {plain(str(decks))}: no deck lists in it", "give a folder holding deck files, or leave --decks "
             "out for the sample decks", code=2)
    total = games * len(specs) * (len(specs) - 1) // 2
    try:
        with stops.stopping(), Progress(TextColumn("[bold]ladder"), BarColumn(), MofNCompleteColumn(),
                                        TimeRemainingColumn(), console=err, disable=quiet) as bar:
            task = bar.add_task("ladder", total=total)
            result = run_ladder(game_decks, specs, games, seed, workers=workers,
                                progress=lambda n: bar.advance(task, n))
    except PolicySpecError as exc:
        fail(str(exc), code=2)
    except stops.Stopped as exc:  # Ctrl-C or SIGTERM: its workers are gone, no rating from part of the games
        fail(f"ladder {exc.how}: {exc.done:,} of {exc.total:,} games were played, and nothing is kept",
             "run it again (with --games fewer, or quicker players, it ends sooner)", code=exc.code)
    if as_json:
        print_json({"games": result.games, "ratings": [r.__dict__ for r in result.ratings],
                    "pairwise": [{"policy": p, "opponent": q, "wins": w, "games": n}
                                 for (p, q), (w, n) in sorted(result.pairwise.items())]})
        return
    table = Table(title=f"Bradley-Terry ratings ({result.games} games, Elo scale, {specs[0]} = 0)")
    for col in ("policy", "rating", "95% CI", "games", "win %"):
        table.add_column(col, justify="left" if col == "policy" else "right")
    for r in result.ratings:
        table.add_row(r.policy, f"{r.elo:+.0f}", f"{r.low:+.0f} … {r.high:+.0f}", str(r.games),
                      f"{100 * r.wins / max(1, r.games):.0f}")
    out.print(table)
    grid = Table(title="win rate of the row against the column")
    grid.add_column("")
    for q in specs:
        grid.add_column(q, justify="right")
    for p in specs:
        grid.add_row(p, *["—" if p == q else f"{100 * result.win_rate(p, q):.0f}%" for q in specs])
    out.print(grid)
