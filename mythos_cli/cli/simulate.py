"""``mythos simulate`` and ``mythos db``: batch matchups into DuckDB, and manage the runs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from mythos_cli.cli.output import err, fail, out, print_json
from mythos_cli.decks import DeckError
from mythos_cli.policies import PolicySpecError, make_policy
from mythos_cli.sim import Interrupted, RunConfig, execute, load_config, load_specs, new_run_id, start_run, summarize
from mythos_cli.sim.decks import default_gauntlet, unplayable_cards
from mythos_cli.store import StoreError, open_store

DEFAULT_DB = Path("mythos.duckdb")


def _deck_error(exc: DeckError) -> None:
    for p in exc.problems[:8]:
        err.print(f"[red]{p.location or exc.source}[/]: {p.message}" + (f"  [yellow]→ {p.hint}[/]" if p.hint else ""),
                  highlight=False)
    fail(f"deck {exc.source or ''} is not a legal Mythos deck: nothing was simulated",
         "fix the list (`mythos validate FILE` explains every problem)", code=1)


def _progress() -> Progress:
    return Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                    TextColumn("{task.fields[rate]:>7} games/s"), TimeRemainingColumn(), console=err, transient=False)


def simulate(
    decks: list[str] = typer.Argument(None, help="Deck files (or deck codes) to study. Default: every sample deck."),
    vs: list[str] = typer.Option(None, "--vs", help="Opponent deck(s); repeat the option."),
    gauntlet: Optional[Path] = typer.Option(None, "--gauntlet", help="A folder of opponent decks. Default: the sample decks."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Games per matchup (seats alternate)."),
    policy: str = typer.Option("greedy", "--policy", help="Policy for both players, e.g. greedy, lookahead:sims=50."),
    policy_a: Optional[str] = typer.Option(None, "--policy-a", help="Policy of the studied decks."),
    policy_b: Optional[str] = typer.Option(None, "--policy-b", help="Policy of the opponents."),
    mulligan: Optional[str] = typer.Option(None, "--mulligan", help="keep, heuristic or always (default: the policy's)."),
    seed: int = typer.Option(1, "--seed", help="Run seed: same seed, same games, whatever --workers is."),
    workers: int = typer.Option(0, "--workers", "-w", help="Processes (default: all cores)."),
    db: Path = typer.Option(DEFAULT_DB, "--db", help="DuckDB file to store the run in."),
    run_name: Optional[str] = typer.Option(None, "--run-name", help="A name (id) for the run."),
    mirrors: bool = typer.Option(False, "--mirrors", help="Also play each deck against itself."),
    resume: Optional[str] = typer.Option(None, "--resume", help="Finish an interrupted run (same results)."),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address, tcp://HOST:PORT."),
    batch_size: int = typer.Option(50, "--batch-size", min=1, help="Games per stored batch."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Play many games between decks and store every game in DuckDB.

    Examples:
      mythos simulate                                    # the sample decks against each other
      mythos simulate my-deck.txt --games 500 --workers 2
      mythos simulate my-deck.txt --vs rival.txt --policy-a lookahead --policy-b greedy
      mythos simulate --resume run-20261129-101500-123
    """
    if backend not in ("local", "dask"):
        fail(f"unknown backend {backend!r}", "use --backend local or --backend dask", code=2)
    workers = workers or os.cpu_count() or 1
    try:
        store = open_store(db)
    except StoreError as exc:
        fail(str(exc), code=2)
    with store:
        try:
            if resume:
                config = load_config(store, resume)
                run_id = resume
                run = store.run(run_id)
                if run["status"] == "finished":
                    err.print(f"run {run_id} is already finished")
            else:
                try:
                    pa = make_policy(policy_a or policy, mulligan).spec
                    pb = make_policy(policy_b or policy, mulligan).spec
                except PolicySpecError as exc:
                    fail(str(exc), "e.g. --policy greedy or --policy lookahead:sims=50", code=2)
                if gauntlet is not None and not gauntlet.is_dir():
                    fail(f"--gauntlet {gauntlet}: not a folder of deck lists", code=2)
                try:
                    studied_specs = load_specs(list(decks) if decks else default_gauntlet())
                    opp_refs = list(vs) if vs else ([str(gauntlet)] if gauntlet else default_gauntlet())
                    opp_specs = load_specs(opp_refs)
                except DeckError as exc:
                    _deck_error(exc)
                if not studied_specs or not opp_specs:
                    fail("no decks to simulate", "give deck files, or keep the sample decks in data/decks", code=2)
                all_specs, index = [], {}
                for s in studied_specs + opp_specs:
                    key = (s.name, s.cards, s.missions)
                    if key not in index:
                        index[key] = len(all_specs)
                        all_specs.append(s)
                studied = sorted({index[(s.name, s.cards, s.missions)] for s in studied_specs})
                opponents = sorted({index[(s.name, s.cards, s.missions)] for s in opp_specs})
                config = RunConfig(decks=all_specs, opponents=opponents, studied=studied, games=games, policy_a=pa,
                                   policy_b=pb, mulligan=mulligan, seed=seed, mirrors=mirrors, batch_size=batch_size)
                if not config.plan():
                    fail("no matchups: every deck is its own only opponent", "add --mirrors or more decks", code=2)
                for name, cards in unplayable_cards(all_specs).items():
                    err.print(f"[yellow]warning:[/] {name}: {len(cards)} card(s) with effects the engine cannot play yet "
                              f"(played as vanilla): {', '.join(cards[:6])}{' …' if len(cards) > 6 else ''}")
                run_id = new_run_id(run_name)
                start_run(store, config, run_id, run_name or run_id)
            planned = sum(len(b) for b in config.batches())
            already = planned - sum(len(b) for i, b in enumerate(config.batches()) if i not in store.done_batches(run_id))
            with _progress() as bar:
                import time

                t0 = time.perf_counter()
                task = bar.add_task("sim", total=planned, completed=already, rate="-")
                done = [0]

                def tick(n: int) -> None:
                    done[0] += n
                    bar.update(task, advance=n, rate=f"{done[0] / max(1e-9, time.perf_counter() - t0):,.0f}")

                execute(store, run_id, config, workers=workers, backend=backend, scheduler=scheduler, progress=tick)
        except Interrupted as exc:
            fail(f"run {exc.run_id} interrupted: {exc.stored} of {exc.planned} games are stored",
                 f"finish it with: mythos simulate --resume {exc.run_id} --db {db}", code=130)
        except StoreError as exc:
            fail(str(exc), code=2)
        rows = summarize(store, run_id)
    if as_json:
        print_json({"run": run_id, "db": str(db), "matchups": [
            {"matchup": r.matchup, "games": r.games, "wins": r.wins, "win_rate": r.win_rate,
             "ci95": [r.low, r.high], "ties_by_edge": r.ties_by_edge} for r in rows]})
        return
    table = Table(title=f"run {run_id}: win rate of the first deck, 95% Wilson interval")
    for col in ("matchup", "games", "win rate", "95% CI", "ties by Edge"):
        table.add_column(col, justify="left" if col == "matchup" else "right")
    for r in rows:
        table.add_row(r.matchup, str(r.games), f"{100 * r.win_rate:.1f}%", f"{100 * r.low:.1f}–{100 * r.high:.1f}%",
                      str(r.ties_by_edge))
    out.print(table)
    err.print(f"stored in {db} as run {run_id}; next: mythos report winrate --db {db} --run {run_id}")


db_app = typer.Typer(help="Inspect and manage the simulation database.", no_args_is_help=True)


def _open(db: Path, read_only: bool = True):
    try:
        return open_store(db, read_only=read_only, create=False)
    except StoreError as exc:
        fail(str(exc), code=2)


DB_OPT = typer.Option(DEFAULT_DB, "--db", help="DuckDB file.")


@db_app.command("runs")
def db_runs(db: Path = DB_OPT, as_json: bool = typer.Option(False, "--json")) -> None:
    """List the runs in a database.  Example: mythos db runs --db mythos.duckdb"""
    with _open(db) as store:
        df = store.runs()
    if as_json:
        print_json(df.to_dicts())
        return
    table = Table(title=f"runs in {db}")
    for c in df.columns:
        table.add_column(c)
    for row in df.iter_rows():
        table.add_row(*[str(v) for v in row])
    out.print(table)


@db_app.command("show")
def db_show(run: str, db: Path = DB_OPT, as_json: bool = typer.Option(False, "--json")) -> None:
    """One run: its configuration and per-matchup results.  Example: mythos db show RUN"""
    with _open(db) as store:
        info = store.run(run)
        if info is None:
            fail(f"no run {run!r} in {db}", "list them with `mythos db runs`")
        rows = summarize(store, run)
    if as_json:
        info = {k: (str(v) if v is not None and not isinstance(v, (int, float, str)) else v) for k, v in info.items()}
        print_json({"run": info, "matchups": [r.__dict__ | {"win_rate": r.win_rate} for r in rows]})
        return
    grid = Table.grid(padding=(0, 2))
    for k in ("run_id", "status", "policy_a", "policy_b", "mulligan", "seed", "planned_games", "engine_version",
              "catalog_hash", "started_at", "finished_at"):
        grid.add_row(k, str(info[k]))
    out.print(grid)
    table = Table()
    for col in ("matchup", "games", "win rate", "95% CI"):
        table.add_column(col)
    for r in rows:
        table.add_row(r.matchup, str(r.games), f"{100 * r.win_rate:.1f}%", f"{100 * r.low:.1f}–{100 * r.high:.1f}%")
    out.print(table)


@db_app.command("export")
def db_export(run: str, out_dir: Path = typer.Option(..., "--out", help="Folder to write into."),
              fmt: str = typer.Option("parquet", "--format", help="parquet or csv."), db: Path = DB_OPT) -> None:
    """Export a run's tables.  Example: mythos db export RUN --format csv --out exports/"""
    if fmt not in ("parquet", "csv"):
        fail(f"unknown format {fmt!r}", "use --format parquet or --format csv", code=2)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot write to {out_dir}: {exc.strerror or exc}", "choose a writable --out folder", code=2)
    try:
        store = open_store(db, read_only=True, create=False, export_to=out_dir)
    except StoreError as exc:
        fail(str(exc), code=2)
    with store:
        try:
            files = store.export(run, out_dir, fmt)
        except StoreError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write to {out_dir}: {exc.strerror or exc}", "choose a writable --out folder", code=2)
    for f in files:
        out.print(str(f))


@db_app.command("delete")
def db_delete(run: str, db: Path = DB_OPT, yes: bool = typer.Option(False, "--yes", help="Do not ask.")) -> None:
    """Delete a run and all its games.  Example: mythos db delete RUN --yes"""
    if not yes and not typer.confirm(f"delete run {run} from {db}?"):
        raise typer.Exit(1)
    with _open(db, read_only=False) as store:
        try:
            n = store.delete_run(run)
        except StoreError as exc:
            fail(str(exc))
    out.print(f"deleted run {run} ({n} games)")
