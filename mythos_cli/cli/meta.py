"""``mythos meta FIELD``: which list to bring against a field, and the odds of the cut."""

from __future__ import annotations

import os
import signal
import time
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from mythos_cli.cli.output import err, fail, out, plain, print_json
from mythos_cli.cli.report import _rich
from mythos_cli.cli.simulate import WORKERS_HELP, check_workers
from mythos_cli.decks import DeckError
from mythos_cli.experiment import ExperimentError
from mythos_cli.experiment import Progress as PlayProgress
from mythos_cli.experiment.field import Field, FieldError, load_field
from mythos_cli.meta.analysis import GENERATIONS, PLAYERS, TOP, TOURNAMENTS, Settings
from mythos_cli.meta.match import DEFAULT_NEXT_FIRST, NEXT_FIRST
from mythos_cli.meta.posterior import DRAWS
from mythos_cli.meta.run import DEFAULT_BUDGET, DEFAULT_PRECISION, run_meta
from mythos_cli.policies import PolicySpecError, make_policy
from mythos_cli.policies.players import is_python_spec
from mythos_cli.reports import ReportError
from mythos_cli.sim import DEFAULT_POLICY, Interrupted, load_config, load_specs
from mythos_cli.sim.plan import MAX_SEED, DeckSpec
from mythos_cli import __version__
from mythos_cli.sim.runner import (DASK_HINT, MAX_RUN_NAME, BackendError, BackendMissing, RunFailed, catalog_hash,
                                   dask_client, require_dask, run_name_problem)
from mythos_cli.store import StoreError, open_store

DEFAULT_DB = Path("mythos.duckdb")
MAX_BUDGET = 10_000_000
MAX_NAME = MAX_RUN_NAME - 5  # its runs are NAME-r1, NAME-r2 …
MAX_SIMULATED = 50_000_000  # players × tournaments: the Swiss holds a few arrays of that size


class _Bar(PlayProgress):
    """Each round of the matrix as a rich bar with the time left."""

    def __init__(self, bar: Progress):
        self.bar, self.task = bar, None
        self.t0 = time.perf_counter()
        self.played = 0

    def stage(self, label: str, planned: int, stored: int) -> None:
        self.task = self.bar.add_task(plain(label), total=planned, completed=stored, rate="-")

    def games(self, n: int) -> None:
        self.played += n
        rate = self.played / max(1e-9, time.perf_counter() - self.t0)
        self.bar.update(self.task, advance=n, rate=f"{rate:,.0f}")


def _field_error(exc: FieldError) -> None:
    """The field's problem, then the problems of the list it names (each with its line), then the fix."""
    err.print(f"[bold red]error:[/] {plain(exc.message)}", highlight=False)
    for line in exc.details:
        err.print(f"  [red]{plain(line)}[/]", highlight=False)
    if exc.hint:
        err.print(f"  [yellow]hint:[/] {plain(exc.hint)}", highlight=False)
    raise typer.Exit(2)


def _deck_error(exc: DeckError) -> None:
    for p in exc.problems[:8]:
        err.print(f"[red]{plain(p.location or exc.source or '')}[/]: {plain(p.message)}", highlight=False)
    fail(f"--deck {exc.source or ''}: cannot be used as a list (nothing was played)",
         "`mythos validate FILE` explains every problem", code=2)


def _find_deck(ref: str, f: Field) -> int:
    """--deck: a list of the field (its name, a unique part, its file), else a list file or code added
    to the field with no share (a candidate nobody plays yet)."""
    want = ref.strip().casefold()
    for i, n in enumerate(f.names):
        if n.casefold() == want:
            return i
    part = [i for i, n in enumerate(f.names) if want and want in n.casefold()]
    if len(part) == 1:
        return part[0]
    if len(part) > 1:
        fail(f"--deck {ref!r} matches several lists: {', '.join(f.names[i] for i in part)}", "give more of the name",
             code=2)
    if not (os.path.exists(ref) or "|" in ref):
        fail(f"--deck {ref!r}: no such list in the field, and not a deck file or code",
             "lists of the field: " + ", ".join(f.names), code=2)
    try:
        spec = load_specs([ref])[0]
    except DeckError as exc:
        _deck_error(exc)
    same = next((i for i, d in enumerate(f.decks) if d.hash == spec.hash), None)
    if same is not None:
        return same
    name = spec.name if spec.name not in f.names else f"{spec.name} (yours)"
    f.decks.append(DeckSpec(name, spec.cards, spec.missions))
    f.shares.append(0.0)
    f.lines.append(None)
    if f.counts is not None:
        f.counts.append(0)
    return len(f.decks) - 1


def _policy(policy: str) -> str:
    try:
        return make_policy(policy).spec
    except PolicySpecError as exc:
        fail(str(exc), "e.g. --policy greedy or --policy search:playouts=8", code=2)


def _run_field(store, run: str, db: Path) -> tuple[Field, str | None]:
    """--run: the run's lists (each once, by content) in equal shares, and its player (None: two)."""
    if store.run(run) is None:
        fail(f"no run {run!r} in {db}", "`mythos db runs` lists them", code=2)
    info = store.run(run)
    if info["engine_version"] != __version__ or info["catalog_hash"] != catalog_hash():
        err.print(f"[yellow]warning:[/] run {plain(run)} was played by mythos {plain(str(info['engine_version']))} "
                  f"on card catalog {plain(str(info['catalog_hash']))}; this is {__version__} on {catalog_hash()}: "
                  "its games cannot be reused, its lists are played again", highlight=False)
    cfg = load_config(store, run)
    seen: dict[str, DeckSpec] = {}
    for d in cfg.decks:
        seen.setdefault(d.hash, d)
    decks = list(seen.values())
    if len(decks) < 2:
        fail(f"run {run} holds one list: no matchup", "give a run of several lists", code=2)
    f = Field(decks, [1 / len(decks)] * len(decks), f"run {run}", None, [None] * len(decks))
    return f, cfg.policy_a if cfg.policy_a == cfg.policy_b else None


def _settings(the_field: Field, deck, draws, seed, players, rounds, top, tournaments, next_first,
              generations) -> Settings:
    mine = _find_deck(deck, the_field) if deck is not None else None
    settings = Settings(draws=draws, seed=seed, players=players, rounds=rounds, top=top, tournaments=tournaments,
                        next_first=next_first, generations=generations, deck=mine)
    resolved = settings.resolved(the_field.counts)
    if top > resolved.players:
        fail(f"--top {top}: more than the {resolved.players} players", "lower --top or raise --players", code=2)
    if resolved.players * tournaments > MAX_SIMULATED:
        fail(f"{resolved.players} players × {tournaments:,} tournaments is more than the simulation holds "
             f"({MAX_SIMULATED:,})", "lower --tournaments", code=2)
    return settings


def meta_cmd(
    ctx: typer.Context,
    field: Optional[str] = typer.Argument(None, metavar="FIELD",
                                          help="A field file (one line a list: 30% or a count of players, then a "
                                               "deck file or code, then a name), or a folder of lists (equal shares)."),
    run: Optional[str] = typer.Option(None, "--run", help="Take the lists (equal shares) and the player of a stored "
                                      "run, e.g. a round robin; its games are reused."),
    games: Optional[int] = typer.Option(None, "--games", "-n", min=1, max=1_000_000,
                                        help="Games per pair (in blocks of 10, 5 with each list in seat 0)."),
    precision: Optional[float] = typer.Option(None, "--precision", min=0.001, max=0.25,
                                              help=f"Play until every list's win rate against the field and against "
                                                   f"the Nash mix is known to ±P (default {DEFAULT_PRECISION}, i.e. "
                                                   f"±{100 * DEFAULT_PRECISION:.0f} points), or the budget is spent."),
    budget: Optional[int] = typer.Option(None, "--budget", min=1, max=MAX_BUDGET,
                                         help=f"New games to play at most (default {DEFAULT_BUDGET:,} with "
                                              "--precision, none with --games)."),
    policy: Optional[str] = typer.Option(None, "--policy", help=f"The player of both sides (default {DEFAULT_POLICY}; "
                                         "with --run, the run's)."),
    seed: int = typer.Option(1, "--seed", min=0, max=MAX_SEED,
                             help="0 to 2^64 - 1: same seed, same games and figures, whatever --workers is."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Your list, in detail: a list of the field by name, or a "
                                       "deck file or code (then added with no share)."),
    players: Optional[int] = typer.Option(None, "--players", min=2, max=10_000,
                                          help=f"Players of the Swiss (default: the field file's count, else "
                                               f"{PLAYERS})."),
    rounds: Optional[int] = typer.Option(None, "--rounds", min=1, max=20,
                                         help="Swiss rounds (default ⌈log2 players⌉)."),
    top: int = typer.Option(TOP, "--top", min=1, help="Players making the top cut."),
    tournaments: int = typer.Option(TOURNAMENTS, "--tournaments", min=100, max=1_000_000,
                                    help="Tournaments to simulate."),
    next_first: str = typer.Option(DEFAULT_NEXT_FIRST, "--next-first",
                                   help="Who goes first in games 2+ of a match: loser, winner, alternate or random "
                                        "(the rules fix only game 1: random)."),
    generations: int = typer.Option(GENERATIONS, "--generations", min=1, max=10_000, help="Generations of drift."),
    draws: int = typer.Option(DRAWS, "--draws", min=DRAWS, max=100_000, help="Posterior draws of the matrix."),
    workers: int = typer.Option(0, "--workers", "-w", help=WORKERS_HELP),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address, tcp://HOST:PORT."),
    db: Path = typer.Option(DEFAULT_DB, "--db", help="DuckDB file for the games (each round is a run)."),
    name: Optional[str] = typer.Option(None, "--name", help="An id for this meta (its runs are ID-r1, ID-r2 …; "
                                       "given again, it goes on from its last round)."),
    out_dir: Path = typer.Option(Path("reports"), "--out", help="Folder for the page (files go to OUT/ID/)."),
    as_json: bool = typer.Option(False, "--json", help="Print every figure as JSON instead of the summary."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or hints on stderr."),
) -> None:
    """Which list to bring against a field: the matrix of every pair, then tiers, best response,
    the Nash mix, match odds, a Swiss tournament and the field's drift, each with its interval.

    The field file: one line a list: a share (30%) or a count of players (12),
    a deck file, deck code or sample deck's name, an optional name; # comments.

    Examples:

      mythos meta regionals.txt                        # to ±3 points, at most 20,000 games

      mythos meta regionals.txt --deck "Leaf Rush" --players 48 --top 8

      mythos meta lists/ --games 200 --policy greedy   # a folder: equal shares

      mythos meta --run rr                             # the lists and games of a round robin
    """
    if backend not in ("local", "dask"):
        fail(f"unknown backend {backend!r}", "use --backend local or --backend dask", code=2)
    if next_first not in NEXT_FIRST:
        fail(f"--next-first {next_first!r}: one of {', '.join(NEXT_FIRST)}",
             "the rules fix only who goes first in game 1 (random); loser is the usual custom", code=2)
    if field is None and run is None:
        fail("give the field: a field file, a folder of lists, or --run RUN", "e.g. mythos meta regionals.txt", code=2)
    if field is not None and run is not None:
        fail("give a field file or --run, not both", "--run takes the run's lists in equal shares", code=2)
    if games is not None and precision is not None:
        fail("give --games N or --precision P, not both", "--games plays a fixed number; --precision plays until "
             "the answers are that precise", code=2)
    if players is not None and top > players:
        fail(f"--top {top}: more than the {players} players", "the top cut is a part of the players", code=2)
    if name is not None:
        problem = run_name_problem(name) or (f"{len(name)} characters, at most {MAX_NAME}" if len(name) > MAX_NAME
                                             else None)
        if problem:
            fail(f"--name {name!r}: {problem}", "e.g. --name regionals-2026", code=2)
    workers = check_workers(workers)
    if backend == "dask":
        try:
            require_dask()
            dask_client(scheduler).close()
        except BackendMissing as exc:
            fail(str(exc), DASK_HINT, code=2)
        except BackendError as exc:
            fail(str(exc), "start one with `dask scheduler` and workers with `dask worker tcp://HOST:8786`", code=2)
    the_field = None
    if field is not None:
        try:
            the_field = load_field(field) if os.path.lexists(field) else None
        except FieldError as exc:
            _field_error(exc)
        if the_field is None:
            fail(f"{field}: no such field file or folder", "give the path of a field file (one line a list: "
                 "30% lists/leaf.txt) or of a folder of lists", code=2)
        for w in the_field.warnings if not quiet else ():
            err.print(f"[yellow]warning:[/] {plain(w)}", highlight=False)
        if len(the_field.decks) < 2:
            fail(f"{field}: a field of one list has no matchup to play", "add the lists it meets", code=2)
    meta_id = name or f"meta-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid() % 1000:03d}"
    spec = None
    if policy is not None or run is None:  # with --run, the run's own player unless --policy says
        spec = _policy(policy or DEFAULT_POLICY)
    settings = None
    if the_field is not None:  # everything the field decides is checked before the database is touched
        settings = _settings(the_field, deck, draws, seed, players, rounds, top, tournaments, next_first, generations)
    try:
        store = open_store(db, create=run is None)  # --run reads an existing database
    except StoreError as exc:
        fail(str(exc), code=2)
    created, started = store.created, False
    t0 = time.perf_counter()
    try:
        with store:
            try:
                if run is not None:
                    the_field, run_policy = _run_field(store, run, db)
                    if spec is None and run_policy is None:
                        fail(f"run {run} plays two players; meta plays one player for both sides",
                             "choose one with --policy", code=2)
                    if spec is None and is_python_spec(run_policy):  # a stored spec is data: never imported
                        fail(f"run {run} was played by the Python player {run_policy}, which mythos never imports "
                             "from a database", f"if you trust it, name its file: --policy {run_policy}", code=2)
                    spec = spec or _policy(run_policy)
                    settings = _settings(the_field, deck, draws, seed, players, rounds, top, tournaments, next_first,
                                         generations)
                the_budget = budget if budget is not None else (None if games is not None else DEFAULT_BUDGET)
                bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                               TextColumn("games"), TextColumn("{task.fields[rate]:>6} games/s"), TextColumn("left"),
                               TimeRemainingColumn(), console=err, transient=False, disable=quiet)
                started = True
                with bar:
                    outcome = run_meta(store, the_field, spec, seed, meta_id, games=games, precision=precision,
                                       budget=the_budget, settings=settings, workers=workers, backend=backend,
                                       scheduler=scheduler, progress=_Bar(bar))
            except Interrupted as exc:
                terminated = exc.signal == signal.SIGTERM
                fail(f"meta {meta_id} {'stopped by SIGTERM' if terminated else 'interrupted'}: the games played are "
                     f"stored ({exc.stored:,} of {exc.planned:,} in run {exc.run_id})",
                     "run the same command again: every stored game is reused, and the answers are those of an "
                     "uninterrupted run", code=143 if terminated else 130)
            except KeyboardInterrupt:  # between rounds, or while answering: every stored game stays
                fail(f"meta {meta_id} interrupted", "run the same command again: every stored game is reused",
                     code=130)
            except RunFailed as exc:
                fail(str(exc), exc.hint, code=1)
            except ExperimentError as exc:
                fail(exc.message, exc.hint, code=2)
            except StoreError as exc:
                fail(str(exc), code=2)
    finally:
        if created and not started:  # nothing of this command is in the file it made: leave no empty database
            for f in (db, Path(f"{db}.wal")):
                f.unlink(missing_ok=True)
    from mythos_cli.meta.report import build, header

    try:
        result = build(outcome, out_dir, str(db))
    except KeyboardInterrupt:
        fail(f"meta {meta_id} interrupted while writing its page (the games are stored)",
             "run the same command again: every stored game is reused", code=130)
    except ReportError as exc:
        fail(exc.message, exc.hint, code=2)
    except OSError as exc:
        fail(f"cannot write the page under {out_dir}: {exc.strerror or exc}", "choose a writable --out", code=2)
    if as_json:
        print_json(result.to_json())
        return
    _summary(outcome, result, header)
    if not quiet:
        docs = [f for f in result.files if f.suffix in (".md", ".html")]
        err.print(f"wrote {', '.join(str(d) for d in docs)} in {time.perf_counter() - t0:.0f} s; the games are runs "
                  f"{meta_id}-r… in {db}", highlight=False)


def _short(name: str, width: int = 20) -> str:
    """A list's name in ``width`` characters, its middle cut: variants differ at the end."""
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    return name[:head].rstrip() + "…" + name[-(width - 1 - head):].lstrip()


def _summary(o, result, header) -> None:
    a = o.answers
    by = {x["name"]: x for x in a["lists"]}
    for line in header(o):
        out.print(_rich(line), highlight=False)
    sw = a["swiss"]
    table = Table(box=None, pad_edge=False, padding=(0, 1), header_style="bold")  # 75 columns for 9 lists
    for col, kw in (("list", {"no_wrap": True}), ("share", {}),
                    ("vs field (95%)", {}), ("tier", {}), ("best", {}), ("Nash (95%)", {}),
                    (f"top {sw['top']}", {})):
        table.add_column(col, justify="left" if col == "list" else "right", **kw)
    for n in a["order"]:
        x = by[n]
        v = x["vs_field"]
        nash = x["nash"]
        cut = x["swiss"].get("top_cut")
        table.add_row(plain(_short(n)), f"{100 * x['share']:.0f}%",
                      f"{100 * v['win_rate']:.1f} {100 * v['ci95'][0]:.1f}–{100 * v['ci95'][1]:.1f}", str(x["tier"]),
                      f"{100 * x['best_response_chance']:.0f}%",
                      f"{100 * nash['weight']:.0f} {100 * nash['ci95'][0]:.0f}–{100 * nash['ci95'][1]:.0f}",
                      f"{100 * cut['chance']:.0f}%" if cut else "—")
    out.print(table)
    for line in result.summary:
        out.print("• " + _rich(line), highlight=False)
    out.print(f"(best: the share of draws in which the list is the best response; top {sw['top']}: the chance of a "
              f"player of the list in {sw['tournaments']:,} Swiss tournaments of {sw['players']} players, "
              f"{sw['rounds']} rounds, Bo3)", highlight=False)


__all__ = ["meta_cmd"]
