"""``mythos simulate`` and ``mythos db``: batch matchups into DuckDB, and manage the runs."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from mythos_cli.cli.output import err, fail, out, plain, print_json
from mythos_cli.decks import DeckError
from mythos_cli.files import out_hint
from mythos_cli.policies import MULLIGANS, POLICY_NAMES, PolicySpecError, make_policy
from mythos_cli.policies.players import StoredPythonPlayer, stand_ins
from mythos_cli.policies.match import DEFAULT_PLAYER_TIMEOUT, PLAYER_TIMEOUT_ENV
from mythos_cli.sim import DEFAULT_POLICY, Interrupted, RunConfig, execute, load_config, load_specs, new_run_id, start_run, summarize
from mythos_cli.sim.plan import (FAST_BATCH, FAST_PLAYERS, MAX_BATCH, MAX_GAMES, MAX_SEED, SLOW_BATCH,
                                 PlanError, default_batch_size, max_workers)
from mythos_cli.sim.runner import BackendError, RunFailed, dask_client, run_name_problem
from mythos_cli.sim.decks import default_gauntlet, unplayable_cards
from mythos_cli.sim.runner import DASK_HINT, BackendMissing, require_dask
from mythos_cli.store import StoreError, open_store

DEFAULT_DB = Path("mythos.duckdb")
POLICY_HELP = (f"Choices: {', '.join(POLICY_NAMES)}; parameters after a colon, e.g. lookahead:sims=24. "
               "search:strong is the reference setting (the strongest in about a second a game, 40 times the "
               "default's cost); search:tree=1 searches one information-set tree instead of sampling.")
MULLIGAN_HELP = (f"Mulligan rule for every player: {', '.join(MULLIGANS)} (default: each policy's own). keep: never "
                 "mulligan; never: the same as keep; heuristic: mulligan a hand with fewer than 2 plays of cost ≤ 3, "
                 "too little Power or 3 cards of cost ≥ 6; always: take every mulligan.")
WORKERS_HELP = "Processes (0, the default: one per core; more than the cores play as many as the cores)."
QUIET = typer.Option(False, "--quiet", "-q", help="No progress bar or hints on stderr; results and errors only.")
# deck inputs that could not be read at all (exit 2, as in `mythos validate`); an illegal list is exit 1
UNREADABLE = {"missing", "directory", "unreadable", "too-large", "empty", "not-text", "binary"}


def _deck_error(exc: DeckError) -> None:
    for p in exc.problems[:8]:
        err.print(f"[red]{plain(p.location or exc.source or '')}[/]: {plain(p.message)}"
                  + (f"  [yellow]→ {plain(p.hint)}[/]" if p.hint else ""), highlight=False)
    if exc.unreadable or any(p.code in UNREADABLE for p in exc.problems):  # no list at all: exit 2, as `validate`
        fail(f"cannot read the deck {exc.source or ''}: nothing was simulated",
             "give a deck list file, a deck code, or a folder of lists; check the path "
             "(`mythos validate FILE` says what is wrong)", code=2)
    fail(f"deck {exc.source or ''} is not a legal Mythos deck: nothing was simulated",
         "fix the list (`mythos validate FILE` explains every problem)", code=1)


def _progress(quiet: bool = False) -> Progress:
    return Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                    TextColumn("{task.fields[rate]:>7} games/s"), TimeRemainingColumn(), console=err, transient=False,
                    disable=quiet)


def simulate(
    ctx: typer.Context,
    decks: list[str] = typer.Argument(None, metavar="DECK",
                                      help="Deck files (or deck codes) to study. Default: every sample deck."),
    vs: list[str] = typer.Option(None, "--vs", help="Opponent deck(s); repeat the option."),
    gauntlet: Optional[Path] = typer.Option(None, "--gauntlet", help="A folder of opponent decks. Default: the sample decks."),
    games: int = typer.Option(100, "--games", "-n", min=1, max=MAX_GAMES,
                              help=f"Games per matchup (seats alternate), 1 to {MAX_GAMES:,}."),
    policy: str = typer.Option(DEFAULT_POLICY, "--policy", help="Player for both sides. " + POLICY_HELP),
    policy_a: Optional[str] = typer.Option(None, "--policy-a", help="Player of the studied decks (same choices)."),
    policy_b: Optional[str] = typer.Option(None, "--policy-b", help="Player of the opponents (same choices)."),
    mulligan: Optional[str] = typer.Option(None, "--mulligan", help=MULLIGAN_HELP),
    seed: int = typer.Option(1, "--seed", min=0, max=MAX_SEED,
                             help="Run seed, 0 to 2^64 - 1: same seed, same games, whatever --workers is."),
    workers: int = typer.Option(0, "--workers", "-w", help=WORKERS_HELP),
    db: Path = typer.Option(DEFAULT_DB, "--db", help="DuckDB file to store the run in."),
    run_name: Optional[str] = typer.Option(None, "--run-name", help="A name (id) for the run."),
    mirrors: bool = typer.Option(False, "--mirrors", help="Also play each deck against itself."),
    round_robin: bool = typer.Option(False, "--round-robin",
                                     help="Play the given decks against each other, each pair once."),
    resume: Optional[str] = typer.Option(None, "--resume", help="Finish an interrupted run (same results)."),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address, tcp://HOST:PORT."),
    batch_size: Optional[int] = typer.Option(None, "--batch-size", min=1, max=MAX_BATCH,
                                             help=f"Games per stored batch, 1 to {MAX_BATCH:,}. Default: "
                                                  f"{FAST_BATCH} when both players are fast built-in ones "
                                                  f"({', '.join(FAST_PLAYERS)}), else {SLOW_BATCH}."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    player_timeout: float = typer.Option(DEFAULT_PLAYER_TIMEOUT, "--player-timeout", min=0.1, max=86_400,
                                         help="Seconds a player written in Python has for each decision (and for "
                                              "reset): one that takes longer stops the run with an error."),
    quiet: bool = QUIET,
) -> None:
    """Play many games between decks and store every game in DuckDB.

    The default player, search, beats lookahead 68% of the time and greedy about 90% (benchmarks/ladder.md); it plays about 25 games per CPU-second (27.5 on the sample decks, 28.9 on random legal decks, on an idle core: benchmarks/bench_default_player.py), fewer where games take more decisions. Figures depend on the player, so every report names it; --policy greedy is 200 times faster and much weaker, search:playouts=8 stronger and 4 times slower.

    Examples:

      mythos simulate                       # the sample decks against each other

      mythos simulate my-deck.txt --games 500 --workers 2

      mythos simulate my-deck.txt --vs rival.txt --policy lookahead

      mythos simulate --round-robin a.txt b.txt c.txt   # each pair once

      mythos simulate --resume run-20261129-101500-123
    """
    if backend not in ("local", "dask"):
        fail(f"unknown backend {backend!r}", "use --backend local or --backend dask", code=2)
    os.environ[PLAYER_TIMEOUT_ENV] = repr(player_timeout)  # (the worker processes inherit it)
    if backend == "dask":
        try:
            require_dask()
        except BackendMissing as exc:
            fail(str(exc), DASK_HINT, code=2)
    if round_robin and (vs or gauntlet is not None):
        fail("--round-robin plays the given decks against each other: it takes no --vs or --gauntlet",
             "drop --vs/--gauntlet, or drop --round-robin", code=2)
    if round_robin and (policy_a or policy_b) and (policy_a or policy) != (policy_b or policy):
        fail("a round robin plays every deck with the same player", "use --policy, not --policy-a/--policy-b",
             code=2)
    workers = check_workers(workers)
    if resume is not None:
        # --policy, --policy-a and --policy-b may name the file of the run's Python player (a stored
        # one is never imported); for a run of built-in players they are refused once it is read
        ignored = _given(ctx, ("decks", "DECK…"), ("vs", "--vs"), ("gauntlet", "--gauntlet"), ("games", "--games"),
                         ("mulligan", "--mulligan"), ("seed", "--seed"), ("mirrors", "--mirrors"),
                         ("run_name", "--run-name"), ("batch_size", "--batch-size"),
                         ("round_robin", "--round-robin"))
        if ignored:
            fail(f"--resume {resume} finishes the run with its own decks and settings; {', '.join(ignored)} "
                 f"would be ignored", f"drop {', '.join(ignored)}, or start a new run without --resume", code=2)
        if not resume.strip():
            fail("--resume needs a run id", "`mythos db runs` lists them", code=2)
        config = None
        named = {"policy": policy if _given(ctx, ("policy", "--policy")) else None,
                 "a": policy_a, "b": policy_b}
    else:
        config = _plan(decks, vs, gauntlet, games, policy, policy_a, policy_b, mulligan, seed, mirrors, batch_size,
                       round_robin, quiet)
        if run_name is not None:
            check_run_name(run_name)
        named = {}
    client = None
    if backend == "dask":  # reach the scheduler before anything is written
        try:
            client = dask_client(scheduler)
        except BackendError as exc:
            fail(str(exc), "start one with `dask scheduler` (it prints the address) and workers with "
                           "`dask worker tcp://HOST:8786`", code=2)
    try:
        _simulate(db, config, resume, run_name, workers, backend, scheduler, client, as_json, quiet, named)
    finally:
        if client is not None:
            client.close()


def _given(ctx: typer.Context, *names: tuple[str, str]) -> list[str]:
    """The options of ``names`` the user typed (not left at their defaults)."""
    out = []
    for param, flag in names:
        source = ctx.get_parameter_source(param)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            out.append(flag)
    return out


def check_workers(workers: int) -> int:
    """``--workers``: 0 is every core; more than the cores are as many as the cores, said."""
    cores = max_workers()
    if workers < 0:
        fail(f"--workers {workers}: the number of processes cannot be negative",
             f"give 1 to {cores} (0 or nothing: one per core, {cores} here)", code=2)
    if workers > cores:
        err.print(f"[yellow]warning:[/] --workers {workers}: this machine has {cores} core(s), so {cores} process(es) "
                  "play; more processes than cores only add memory (for more, add machines with --backend dask)",
                  highlight=False)
        return cores
    return workers or cores


def check_run_name(name: str) -> None:
    problem = run_name_problem(name)
    if problem:
        fail(f"--run-name {name!r}: {problem}", "e.g. --run-name leaf-vs-field-2026", code=2)



def _check_vs(args: list[str]) -> None:
    """``--vs A B`` took A as the opponent and B as a deck to study: a word after an opponent
    that is no option is refused (the option takes one deck; repeat it for more)."""
    for i, word in enumerate(args):
        if word == "--":
            return
        value_at = i + 1 if word == "--vs" else i if word.startswith("--vs=") else None
        if value_at is None or value_at + 1 >= len(args):
            continue
        after = args[value_at + 1]
        if not after.startswith("-"):
            fail(f"--vs {args[value_at].removeprefix('--vs=')} {after}: --vs takes one opponent deck, so "
                 f"{after!r} would be a deck to study",
                 f"repeat the option for each opponent (--vs {args[value_at].removeprefix('--vs=')} --vs {after}), "
                 "and give the decks to study before --vs", code=2)


simulate.check_args = _check_vs  # type: ignore[attr-defined]


def _plan(decks, vs, gauntlet, games, policy, policy_a, policy_b, mulligan, seed, mirrors, batch_size,
          round_robin: bool = False, quiet: bool = False) -> RunConfig:
    """Validate everything the run needs (policies, decks, bounds) before any file is touched."""
    if mulligan is not None and mulligan not in MULLIGANS:
        fail(f"unknown mulligan policy {mulligan!r}; choose from {', '.join(MULLIGANS)}",
             "e.g. --mulligan keep (every dealt hand is played), or leave --mulligan out for each player's own rule",
             code=2)
    try:
        players = make_policy(policy_a or policy, mulligan), make_policy(policy_b or policy, mulligan)
    except PolicySpecError as exc:
        fail(str(exc), "e.g. --policy greedy or --policy lookahead:sims=50", code=2)
    pa, pb = players[0].spec, players[1].spec
    if gauntlet is not None and not gauntlet.is_dir():
        fail(f"--gauntlet {gauntlet}: not a folder of deck lists", code=2)
    try:
        studied_specs = load_specs(list(decks) if decks else default_gauntlet())
        opp_refs = (list(decks) if round_robin and decks else list(vs) if vs
                    else [str(gauntlet)] if gauntlet else default_gauntlet())
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
    if batch_size is None:
        batch_size = default_batch_size(pa, pb)
    config = RunConfig(decks=all_specs, opponents=opponents, studied=studied, games=games, policy_a=pa,
                       policy_b=pb, mulligan=mulligan, seed=seed, mirrors=mirrors, batch_size=batch_size,
                       round_robin=round_robin,
                       # named on this command line: the run's Python players are the user's files
                       python_players={p.spec: p.spec for p in players if not p.builtin})
    if not config.plan():
        fail("no matchups: every deck is its own only opponent", "add --mirrors or more decks", code=2)
    try:
        config.check()
    except PlanError as exc:
        fail(str(exc), code=2)
    for name, cards in unplayable_cards(all_specs).items() if not quiet else ():
        err.print(f"[yellow]warning:[/] {plain(name)}: {len(cards)} card(s) with effects the engine cannot play yet "
                  f"(played as vanilla): {', '.join(cards[:6])}{' …' if len(cards) > 6 else ''}", highlight=False)
    return config


def _simulate(db: Path, config: RunConfig | None, resume: str | None, run_name: str | None, workers: int,
              backend: str, scheduler: str | None, client, as_json: bool, quiet: bool = False,
              named: dict | None = None) -> None:
    try:
        store = open_store(db, create=resume is None)  # --resume never creates a database
    except StoreError as exc:
        fail(str(exc), code=2)
    created = store.created
    started = False
    try:
        with store:
            try:
                if resume:
                    config = load_config(store, resume)
                    run_id = resume
                    _stand_ins(config, named or {}, f"mythos simulate --resume {resume} --db {db}")
                    if store.run(run_id)["status"] == "finished":
                        err.print(f"run {plain(run_id)} is already finished", highlight=False)
                else:
                    run_id = new_run_id(run_name)
                    start_run(store, config, run_id, run_name or run_id)
                started = True
                planned = config.planned_games()
                already = store.stored_games(run_id)
                with _progress(quiet) as bar:
                    t0 = time.perf_counter()
                    task = bar.add_task("sim", total=planned, completed=already, rate="-")
                    done = [0]

                    def tick(n: int) -> None:
                        done[0] += n
                        bar.update(task, advance=n, rate=f"{done[0] / max(1e-9, time.perf_counter() - t0):,.0f}")

                    # Ctrl-C and SIGTERM stop the run alike: it is marked interrupted, stored batches kept
                    execute(store, run_id, config, workers=workers, backend=backend, scheduler=scheduler,
                            progress=tick, client=client)
            except Interrupted as exc:
                terminated = exc.signal == signal.SIGTERM
                how = "stopped by SIGTERM" if terminated else "interrupted"
                fail(f"run {exc.run_id} {how}: {exc.stored} of {exc.planned} games are stored",
                     f"finish it with: mythos simulate --resume {exc.run_id} --db {db}",
                     code=143 if terminated else 130)
            except RunFailed as exc:
                fail(str(exc), exc.hint, code=1)
            except StoreError as exc:
                fail(str(exc), code=2)
            rows = summarize(store, run_id)
    finally:
        if created and not started:  # nothing of this command is in the file it made: leave no empty database
            for f in (db, Path(f"{db}.wal")):
                f.unlink(missing_ok=True)
    if as_json:
        print_json({"run": run_id, "db": str(db), "matchups": [
            {"matchup": r.matchup, "games": r.games, "wins": r.wins, "win_rate": r.win_rate,
             "ci95": [r.low, r.high], "ties_by_edge": r.ties_by_edge} for r in rows]})
        return
    out.print(summary_table(run_id, rows, config))
    if not quiet:
        err.print(f"stored in {plain(str(db))} as run {plain(run_id)}; next: mythos report winrate --db "
                  f"{plain(str(db))} --run {plain(run_id)}", highlight=False)


def summary_table(run_id: str, rows, config: RunConfig | None) -> Table:
    """One row per pair of decks (both seats, whichever was studied), its player named."""
    from mythos_cli.reports.players import policy_label

    specs = {p for r in rows for p in r.players.values() if p}
    if config is not None:
        specs |= {config.policy_a, config.policy_b}
    who = (f"played by {policy_label(next(iter(specs)))}" if len(specs) == 1 else
           "players: " + "; ".join(policy_label(p) for p in sorted(specs)))
    table = Table(title=f"run {plain(run_id)}: win rate of the first deck of each pair (all its games against the "
                        f"other, either seat), 95% Wilson interval; {plain(who)}", title_justify="left")
    for col in ("pair", "games", "win rate", "95% CI", "ties by Edge"):
        table.add_column(col, justify="left" if col == "pair" else "right", overflow="fold")
    for r in rows:
        mirror = r.matchup.split(" vs ")[0] == r.matchup.split(" vs ")[-1]
        table.add_row(plain(r.matchup), str(r.games), "50.0% (mirror)" if mirror else f"{100 * r.win_rate:.1f}%",
                      f"{100 * r.low:.1f}–{100 * r.high:.1f}%", str(r.ties_by_edge))
    return table


def _stand_ins(config: RunConfig, named: dict, command: str) -> None:
    """A resumed run's players: built-in ones rebuilt from the run; a Python one only from the file
    the user names again (``--policy-a FILE.py:CLASS``), said on stderr. Refused before anything
    is written otherwise."""
    from mythos_cli.sim.game import check_players

    try:
        config.python_players, lines = stand_ins({"a": config.policy_a, "b": config.policy_b}, named.get("policy"),
                                                 {"a": named.get("a"), "b": named.get("b")}, command=command)
        check_players(config)
    except StoredPythonPlayer as exc:
        fail(str(exc), exc.hint, code=2)
    except PolicySpecError as exc:
        fail(f"the run's players: {exc}", "resume with the run's own players; a Python player's file is named "
             "with --policy-a/--policy-b FILE.py:CLASS", code=2)
    for line in lines:
        err.print(plain(line), highlight=False)


db_app = typer.Typer(help="Inspect and manage the simulation database.", no_args_is_help=True)


@contextlib.contextmanager
def _open(db: Path, read_only: bool = True):
    """The store, and a clean error for any database problem met while using it (a file that
    opens but fails its first read: truncated, damaged)."""
    try:
        store = open_store(db, read_only=read_only, create=False)
    except StoreError as exc:
        fail(str(exc), code=2)
    with store:
        try:
            yield store
        except StoreError as exc:
            fail(str(exc), code=2)


DB_OPT = typer.Option(DEFAULT_DB, "--db", help="DuckDB file.")


@db_app.command("runs")
def db_runs(db: Path = DB_OPT, as_json: bool = typer.Option(False, "--json", help="Every column, as JSON."),
            stages: bool = typer.Option(False, "--stages", help="List each stage run of an optimization too.")) -> None:
    """List the runs in a database: whole run ids, status, games, players and decks.

    The runs of one `mythos optimize` (a run per stage) are one entry; --stages lists them.

    Example: mythos db runs --db mythos.duckdb
    """
    from mythos_cli.optimize.plan import cheap_player
    from mythos_cli.store import optimize as ostore
    from mythos_cli.store.read import run_decks

    with _open(db) as store:
        df = store.runs()
        decks = run_decks(store)
        owner = ostore.stage_runs(store)
        opts = ostore.summaries(store)
        if store.snapshot is not None:
            err.print(f"note: {plain(str(db))} is being written by another process: these are the runs of a copy "
                      "of it, a few seconds old", highlight=False)
    if as_json:
        print_json([r | decks.get(r["run_id"], {}) | {"optimization": owner.get(r["run_id"])} for r in df.to_dicts()])
        return
    table = Table(title=plain(f"runs in {db}"), title_justify="left")
    table.add_column("run", no_wrap=True, style="bold")
    table.add_column("status")
    table.add_column("games", justify="right")
    table.add_column("players", overflow="fold")
    table.add_column("decks (studied vs opponents)", overflow="fold", ratio=1)
    rows = df.to_dicts()
    shown: set[str] = set()
    for r in rows:
        opt = owner.get(r["run_id"])
        if opt is not None and opt not in shown:
            shown.add(opt)
            mine = [x for x in rows if owner.get(x["run_id"]) == opt]
            o = opts.get(opt, {})
            policy = str(o.get("policy") or "?").split(":")[0]
            cheap = cheap_player(o["policy"], o.get("screen_policy")).split(":")[0] if o.get("policy") else policy
            who = policy if cheap == policy else f"{policy} (screen: {cheap})"
            variants = len({n for x in mine for n in decks.get(x["run_id"], {}).get("studied", [])}
                           - {"opt:base", "opt:proposal"})
            opponents = ", ".join(o.get("field", []))
            table.add_row(plain(opt), plain(f"optimize: {o.get('status', '?')}"),
                          f"{sum(x['stored_games'] for x in mine)}/{sum(x['planned_games'] for x in mine)}",
                          plain(who), plain(f"{o.get('deck', '?')} and {variants:,} variants vs {opponents} "
                                              f"({len(mine)} stage runs {opt}-…)"))
        if opt is not None and not stages:
            continue
        d = decks.get(r["run_id"], {})
        studied, opps = d.get("studied", []), d.get("opponents", [])
        pa, pb = (str(r["policy_a"] or "").split(":")[0], str(r["policy_b"] or "").split(":")[0])
        mine_studied = ", ".join(studied) if len(studied) <= 3 else f"{studied[0]} and {len(studied) - 1:,} variants"
        who = "round robin: " + ", ".join(studied) if studied == opps else f"{mine_studied} vs {', '.join(opps)}"
        table.add_row(("  " if opt else "") + plain(str(r["run_id"])), plain(str(r["status"])),
                      f"{r['stored_games']}/{r['planned_games']}", plain(pa if pa == pb else f"{pa} vs {pb}"),
                      plain(who))
    out.print(table)


@db_app.command("show")
def db_show(run: str, db: Path = DB_OPT, as_json: bool = typer.Option(False, "--json")) -> None:
    """One run: its configuration and per-matchup results.  Example: mythos db show RUN"""
    with _open(db) as store:
        info = store.run(run)
        if info is None:
            fail(f"no run {run!r} in {db}", "list them with `mythos db runs`")  # exit 2: bad input
        rows = summarize(store, run)
    if as_json:
        info = {k: (str(v) if v is not None and not isinstance(v, (int, float, str)) else v) for k, v in info.items()}
        print_json({"run": info, "matchups": [r.__dict__ | {"win_rate": r.win_rate} for r in rows]})
        return
    grid = Table.grid(padding=(0, 2))
    for k in ("run_id", "status", "policy_a", "policy_b", "mulligan", "seed", "planned_games", "engine_version",
              "catalog_hash", "started_at", "finished_at"):
        grid.add_row(k, plain(str(info[k])))
    out.print(grid)
    out.print(summary_table(run, rows, None))


@db_app.command("export")
def db_export(run: str, out_dir: Path = typer.Option(..., "--out", help="Folder to write into."),
              fmt: str = typer.Option("parquet", "--format", help="parquet or csv."), db: Path = DB_OPT) -> None:
    """Export a run's tables.  Example: mythos db export RUN --format csv --out exports/"""
    if fmt not in ("parquet", "csv"):
        fail(f"unknown format {fmt!r}", "use --format parquet or --format csv", code=2)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot write to {out_dir}: {exc.strerror or exc}", out_hint(exc), code=2)
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
            fail(f"cannot write to {out_dir}: {exc.strerror or exc}", out_hint(exc), code=2)
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
