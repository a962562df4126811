"""``mythos experiment mulligan|missions DECK``: paired experiments that store their games, then advise."""

from __future__ import annotations

import os
import signal
import time
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from mythos_cli import stops
from mythos_cli.cli.output import err, fail, plain, print_json
from mythos_cli.cli.report import _render
from mythos_cli.cli.simulate import WORKERS_HELP, _deck_error, check_workers
from mythos_cli.decks import DeckError
from mythos_cli.experiment import ExperimentError, FieldError, build_field
from mythos_cli.experiment.arms import ExperimentInterrupted
from mythos_cli.experiment.arms import Progress as ArmsProgress
from mythos_cli.policies import PolicySpecError, make_policy
from mythos_cli.reports import ReportError
from mythos_cli.sim import DEFAULT_POLICY, load_specs
from mythos_cli.sim.plan import MAX_SEED
from mythos_cli.sim.runner import (DASK_HINT, MAX_RUN_NAME, BackendError, BackendMissing, dask_client, require_dask,
                                   run_name_problem)
from mythos_cli.store import StoreError, open_store

DEFAULT_DB = Path("mythos.duckdb")

app = typer.Typer(
    help=("Paired experiments on common random numbers: which hands to mulligan, which missions to bring.\n\n"
          "Each stores its games in the database (reproducible from --seed, resumable with --resume, on all "
          "cores), writes a report under OUT/ID/ and prints its advice; `mythos report prep` shows the newest "
          "experiment of the deck's list.\n\n"
          "Example: mythos experiment mulligan my-deck.txt --field \"Sand Village=40,sound-four=60\""),
    no_args_is_help=True,
)


class _Bar(ArmsProgress):
    """An experiment's progress as one rich bar over its planned games."""

    def __init__(self, bar: Progress, task):
        self.bar, self.task = bar, task
        self.t0 = time.perf_counter()
        self.played = 0

    def stage(self, label: str, planned: int, stored: int) -> None:
        self.bar.update(self.task, description=plain(label), advance=stored)

    def games(self, n: int) -> None:
        self.played += n
        rate = self.played / max(1e-9, time.perf_counter() - self.t0)
        self.bar.update(self.task, advance=n, rate=f"{rate:,.0f}")


def _bar(quiet: bool) -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                    TextColumn("{task.fields[rate]:>6} games/s"), TimeElapsedColumn(), TextColumn("left"),
                    TimeRemainingColumn(), console=err, transient=False, disable=quiet)


FIELD = typer.Option(None, "--field", help="The field: 'deck=share,…' (deck files, or decks of --gauntlet / the "
                                           "sample decks by name). Default: the gauntlet, equal shares.")
GAUNTLET = typer.Option(None, "--gauntlet", help="A folder of field decks (default: the sample decks).")
POLICY = typer.Option(DEFAULT_POLICY, "--policy", help="The player of both seats (every decision but the forced one).")
SEED = typer.Option(1, "--seed", min=0, max=MAX_SEED, help="0 to 2^64 - 1: same seed, same games and same advice, "
                                                           "whatever --workers is.")
WORKERS = typer.Option(0, "--workers", "-w", help=WORKERS_HELP)
BACKEND = typer.Option("local", "--backend", help="local (process pool) or dask.")
SCHEDULER = typer.Option(None, "--scheduler", help="Dask scheduler address, tcp://HOST:PORT.")
DB = typer.Option(DEFAULT_DB, "--db", help="DuckDB file for the games.")
NAME = typer.Option(None, "--name", help="An id for the experiment (its games are runs of that id).")
RESUME = typer.Option(None, "--resume", help="Finish an interrupted experiment (the same games and advice).")
OUT = typer.Option(Path("reports"), "--out", help="Folder for the report (files go to OUT/ID/).")
JSON = typer.Option(False, "--json", help="Print every number as JSON instead of the summary.")
QUIET = typer.Option(False, "--quiet", "-q", help="No progress bar on stderr; results and errors only.")
# a missions experiment's stages are runs ID-screen, ID-r3, ID-confirm: room for the suffix
MAX_NAME = MAX_RUN_NAME - 12


def _check_common(backend: str, scheduler: Optional[str], name: Optional[str], resume: Optional[str],
                  deck: Optional[str], kind: str) -> None:
    if backend not in ("local", "dask"):
        fail(f"unknown backend {backend!r}", "use --backend local or --backend dask", code=2)
    if not resume and not deck:
        fail("give the deck to study", f"e.g. mythos experiment {kind} my-deck.txt, or --resume ID", code=2)
    if resume and deck:
        fail(f"--resume finishes a stored {kind} experiment with its own deck and settings: give one or the other",
             code=2)
    if resume is not None and not resume.strip():
        fail("--resume needs an experiment id", "`mythos db runs` lists the runs", code=2)
    if name is not None:
        problem = run_name_problem(name) or (f"{len(name)} characters, at most {MAX_NAME}" if len(name) > MAX_NAME
                                             else None)
        if problem:
            fail(f"--name {name!r}: {problem}", f"e.g. --name leaf-{kind}", code=2)
    if backend == "dask":  # reach the scheduler before anything is written
        try:
            require_dask()
        except BackendMissing as exc:
            fail(str(exc), DASK_HINT, code=2)
        try:
            dask_client(scheduler).close()
        except BackendError as exc:
            fail(str(exc), "start one with `dask scheduler` (it prints the address) and workers with "
                           "`dask worker tcp://HOST:8786`", code=2)


def _setup(deck: str, field: Optional[str], gauntlet: Optional[Path], policy: str):
    try:
        policy = make_policy(policy).spec
    except PolicySpecError as exc:
        fail(str(exc), "e.g. --policy greedy or --policy search:playouts=4", code=2)
    try:
        spec = load_specs([deck])[0]
        decks, shares = build_field(field, str(gauntlet) if gauntlet is not None else None)
    except DeckError as exc:
        _deck_error(exc)
    except FieldError as exc:
        fail(exc.message, exc.hint, code=2)
    return spec, decks, shares, policy


def _interrupted(kind: str, exp_id: str, stored: int, planned: int, sig: int | None, db: Path) -> None:
    terminated = sig == signal.SIGTERM
    fail(f"{kind} experiment {exp_id} {'stopped by SIGTERM' if terminated else 'interrupted'}: {stored:,} of "
         f"{planned:,} games are stored", f"finish it with: mythos experiment {kind} --resume {exp_id} --db {db}",
         code=143 if terminated else 130)


def _stopped(kind: str, exp_id: str, sig: int | None, db: Path) -> None:
    terminated = sig == signal.SIGTERM
    fail(f"{kind} experiment {exp_id} {'stopped by SIGTERM' if terminated else 'interrupted'}: the games played "
         "are stored", f"finish it with: mythos experiment {kind} --resume {exp_id} --db {db}",
         code=143 if terminated else 130)


def _conduct(kind: str, exp_id: str, db: Path, resume: Optional[str], out_dir: Path, quiet: bool, load, planned,
             play, report):
    """Open the database, play the experiment's stages under one stop (SIGTERM too) with one
    progress bar, and write its report; every failure is a clean exit saying how to go on.
    ``load(store)``: the experiment's config (the stored one when resuming); ``planned(config)``:
    its games; ``play(store, config, progress)``; ``report(store, db, out, exp_id)``."""
    try:
        store = open_store(db, create=resume is None)
    except StoreError as exc:
        fail(str(exc), code=2)
    with store, stops.stopping() as stop:
        try:
            config = load(store)
            with _bar(quiet) as bar:
                task = bar.add_task("starting", total=planned(config), rate="-")
                play(store, config, _Bar(bar, task))
            return report(store, str(db), out_dir, exp_id)
        except ExperimentInterrupted as exc:
            _interrupted(kind, exc.exp_id, exc.stored, exc.planned, exc.signal, db)
        except KeyboardInterrupt:  # between stages, or while the report is written
            _stopped(kind, exp_id, stop.signal, db)
        except ExperimentError as exc:
            fail(exc.message, exc.hint, code=2)
        except ReportError as exc:
            fail(exc.message, exc.hint, code=exc.code)
        except StoreError as exc:
            fail(str(exc), code=2)
        except OSError as exc:
            fail(f"cannot write the report under {out_dir}: {exc.strerror or exc}", "choose a writable --out", code=2)


@app.command("mulligan")
def mulligan(
    deck: Optional[str] = typer.Argument(None, metavar="DECK", help="The deck to study (a file or a deck code)."),
    field: Optional[str] = FIELD, gauntlet: Optional[Path] = GAUNTLET,
    hands: int = typer.Option(1000, "--hands", min=2, help="Dealt hands in all (each played twice), spread evenly "
                                                            "over the field's decks."),
    policy: str = POLICY, seed: int = SEED, workers: int = WORKERS, backend: str = BACKEND,
    scheduler: Optional[str] = SCHEDULER, db: Path = DB, name: Optional[str] = NAME, resume: Optional[str] = RESUME,
    out_dir: Path = OUT, as_json: bool = JSON, quiet: bool = QUIET,
) -> None:
    """Which opening hands to mulligan: each dealt hand played both kept and mulliganed.

    Every deal is played twice from the same seed (the same opponent, seats, missions and everything else): once with the deck's mulligan forced to keep, once to mulligan, the player answering every other decision. The effect of mulliganing is shown by total cost, cheap plays, expensive cards and named cards; a keep rule is learned on half the hands and advised only when it beats keeping every hand beyond noise on the other half.

    Examples:

      mythos experiment mulligan my-deck.txt

      mythos experiment mulligan my-deck.txt --field "Sand Village=40,sound-four=60" --hands 2000

      mythos experiment mulligan --resume mull-20261201-101500-123
    """
    from mythos_cli.experiment import mulligan as mx
    from mythos_cli.reports.mulligan import experiment_report

    _check_common(backend, scheduler, name, resume, deck, "mulligan")
    workers = check_workers(workers)
    config = None
    if not resume:
        spec, decks, shares, policy = _setup(deck, field, gauntlet, policy)
        config = mx.MulliganConfig(spec, decks, shares, hands, policy, seed)
        try:
            config.check()
        except ExperimentError as exc:
            fail(exc.message, exc.hint, code=2)
    exp_id = resume or name or f"mull-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid() % 1000:03d}"

    def play(store, config, progress):
        mx.play(store, exp_id, config, name=name or exp_id, workers=workers, backend=backend, scheduler=scheduler,
                progress=progress)

    result = _conduct("mulligan", exp_id, db, resume, out_dir, quiet, lambda store: config or mx.read(store, resume)[0],
                      lambda c: c.planned_games, play, experiment_report)
    if as_json:
        print_json(result.to_json())
        return
    _render(result, False)
    if not quiet:
        err.print(f"games stored in {db} as run {exp_id}; the prep page shows it: mythos report prep DECK --db {db} "
                  f"--mulligan-run {exp_id}", highlight=False)


@app.command("missions")
def missions(
    deck: Optional[str] = typer.Argument(None, metavar="DECK", help="The deck to study (a file or a deck code)."),
    field: Optional[str] = FIELD, gauntlet: Optional[Path] = GAUNTLET,
    candidates: Optional[str] = typer.Option(None, "--missions", help="The missions to choose from: 'all' (every "
                                             "mission of the catalog), or ids 'KS-001-MMS,SS-003-MMS,…'. Default: "
                                             "the deck's own and those the field's lists bring."),
    budget: int = typer.Option(6000, "--budget", min=1, max=10_000_000, help="Games to spend in all (screen, race, "
                                                                            "confirmation)."),
    policy: str = POLICY, seed: int = SEED, workers: int = WORKERS, backend: str = BACKEND,
    scheduler: Optional[str] = SCHEDULER, db: Path = DB, name: Optional[str] = NAME, resume: Optional[str] = RESUME,
    out_dir: Path = OUT, as_json: bool = JSON, quiet: bool = QUIET,
) -> None:
    """Which 3 missions to bring: selections raced on common random numbers, the best confirmed.

    Every selection of 3 candidates (the deck's own missions kept in their slots, so two selections play the same game while a shared mission is in play) races the deck's own missions on the same seeds against the field; the winner is confirmed on fresh games, its gain's interval corrected for every selection raced.

    Examples:

      mythos experiment missions my-deck.txt

      mythos experiment missions my-deck.txt --missions all --budget 20000

      mythos experiment missions my-deck.txt --missions KS-001-MMS,KS-005-MMS,SS-003-MMS,SS-007-MMS
    """
    from mythos_cli.catalog import default_catalog
    from mythos_cli.experiment import missions as mis
    from mythos_cli.reports.missions import experiment_report

    _check_common(backend, scheduler, name, resume, deck, "missions")
    workers = check_workers(workers)
    config = None
    if not resume:
        spec, decks, shares, policy = _setup(deck, field, gauntlet, policy)
        cat = default_catalog()
        legal = sorted(c.id for c in cat.cards if c.type == "mission")
        if candidates is None:
            chosen = sorted(set(spec.missions) | {m for d in decks for m in d.missions})
        elif candidates.strip().lower() == "all":
            chosen = legal
        else:
            chosen = []
            for ref in (c.strip() for c in candidates.split(",") if c.strip()):
                card = cat.by_id.get(ref.upper()) or cat.by_id.get(ref.upper() + "-MMS")
                if card is None or card.type != "mission":
                    fail(f"--missions: {ref!r} is not a mission", "give mission ids such as KS-001-MMS, or all",
                         code=2)
                chosen.append(card.id)
            chosen = sorted(set(chosen) | set(spec.missions))
        config = mis.MissionsConfig(spec, decks, shares, chosen, budget, policy, seed)
        try:
            mis.check(config)
        except ExperimentError as exc:
            fail(exc.message, exc.hint, code=2)
    exp_id = resume or name or f"missions-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid() % 1000:03d}"

    def stored_config(store):
        from mythos_cli.store import experiment as xstore

        row = xstore.get(store, resume)
        if row is None or row["kind"] != mis.KIND:
            fail(f"no missions experiment {resume!r} in {db}", "`mythos db runs` lists the runs", code=2)
        return mis.MissionsConfig.from_json(row["config"])

    def play(store, config, progress):
        mis.choose(store, exp_id, config, name=name or exp_id, workers=workers, backend=backend, scheduler=scheduler,
                   progress=progress)

    result = _conduct("missions", exp_id, db, resume, out_dir, quiet, lambda store: config or stored_config(store),
                      lambda c: c.budget, play, experiment_report)
    if as_json:
        print_json(result.to_json())
        return
    _render(result, False)
    if not quiet:
        err.print(f"games stored in {db} as runs {exp_id}-…; the prep page shows it: mythos report prep DECK --db {db} "
                  f"--missions-run {exp_id}", highlight=False)
