"""``mythos optimize DECK``: which cards (and missions) to change, found by simulation, proven on fresh games."""

from __future__ import annotations

import os
import signal
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from mythos_cli.files import out_problem
from mythos_cli.cli.output import err, fail, plain, print_json
from mythos_cli.cli.report import _render
from mythos_cli.cli.simulate import UNREADABLE, WORKERS_HELP, check_workers
from mythos_cli.decks import DeckError
from mythos_cli.experiment import ExperimentError
from mythos_cli.optimize import (MAX_BUDGET, MAX_MINUTES, FieldError, OptimizeConfig, OptimizeInterrupted, PoolError,
                                 SearchProgress, build_field, build_pool, check, optimize, resume_config)
from mythos_cli.policies import PolicySpecError, make_policy
from mythos_cli.policies.players import StoredPythonPlayer, stand_ins, stored_policy
from mythos_cli.reports import ReportError
from mythos_cli.sim import DEFAULT_POLICY, load_specs
from mythos_cli.sim.plan import MAX_SEED
from mythos_cli.sim.runner import (DASK_HINT, MAX_RUN_NAME, BackendError, BackendMissing, dask_client, require_dask,
                                   run_name_problem)
from mythos_cli.store import StoreError, open_store

DEFAULT_DB = Path("mythos.duckdb")
# games of the default player (search), which screens too: at the ~35 games a CPU-second measured
# on the sample decks, about 10 CPU-minutes, within 10 minutes on 2 cores (benchmarks/README.md,
# the known answers of bench_optimize.py)
DEFAULT_BUDGET = 20_000


class _Bar(SearchProgress):
    """The search's progress as one rich bar over the whole plan, named after the stage.

    The bar counts estimated seconds of work, not games: a game of the cheap player weighs a
    hundredth of a game of search, so the time left is right whichever player plays."""

    def __init__(self, bar: Progress, task):
        self.bar, self.task = bar, task
        self.rates: dict[str, float] = {}
        self.games_of: dict[str, int] = defaultdict(int)
        self.policy = ""
        self.planned = False

    def _cost(self, n: int) -> float:
        rate = self.rates.get(self.policy)
        return n / rate if rate else 0.0

    def _games(self) -> str:
        return " + ".join(f"{n:,} {p.split(':')[0]}" for p, n in self.games_of.items()) or "0"

    def plan(self, plan, rates, minutes) -> None:
        """The plan, printed first (with --budget before any game; with --minutes once the
        calibration has measured the speeds that chose the budget)."""
        from mythos_cli.cli.report import rich_table
        from mythos_cli.optimize.report import plan_table

        self.bar.console.print(rich_table(plan_table(plan, rates)))
        if minutes is not None:
            fits = "the largest round budget that fits at the speeds measured" \
                if plan.seconds(rates) <= 60 * minutes else \
                f"the least this search needs, more than {minutes:g} minutes at the speeds measured"
            self.bar.console.print(plain(f"--minutes {minutes:g}: a budget of {plan.budget:,} games of {plan.policy}, "
                                          f"{fits}; `--budget {plan.budget}` with the same --seed gives this answer "
                                          "on any machine"), highlight=False)

    def timed(self, plan, rates, minutes) -> None:
        """The speeds measured in the calibration: the plan's minutes, and the bar counts seconds."""
        from mythos_cli.optimize.plan import STAGE_SECONDS

        self.rates = dict(rates)
        speeds = ", ".join(f"{p} {r:,.0f} games/s" for p, r in self.rates.items() if p != STAGE_SECONDS)
        if self.rates.get(STAGE_SECONDS):
            speeds += f", {self.rates[STAGE_SECONDS]:.1f} s to start each stage"
        known = all(self.rates.get(p) for p in {plan.policy, plan.cheap})
        if speeds:
            secs = plan.seconds(self.rates)
            total = (f": about {secs / 60:.1f} minutes in all" if secs >= 60 else f": about {secs:.0f} s in all") \
                if known else ""
            self.bar.console.print(plain(f"measured in the calibration: {speeds}{total}"), highlight=False)
        if known:
            done = sum(n / self.rates[p] for p, n in self.games_of.items() if self.rates.get(p))
            self.bar.update(self.task, total=max(plan.seconds(self.rates), done), completed=done)
            self.planned = True

    def player(self, policy: str) -> None:
        self.policy = policy

    def stage(self, label: str, planned: int, stored: int) -> None:
        from mythos_cli.optimize.plan import STAGE_SECONDS

        self.games_of[self.policy] += stored
        fixed = self.rates.get(STAGE_SECONDS, 0.0)
        self.bar.update(self.task, description=plain(label),
                        advance=self._cost(stored) + fixed if self.planned else 0, games=self._games())

    def games(self, n: int) -> None:
        self.games_of[self.policy] += n
        self.bar.update(self.task, advance=self._cost(n) if self.planned else 0, games=self._games())


def _deck_error(exc: DeckError) -> None:
    for p in exc.problems[:8]:
        err.print(f"[red]{plain(p.location or exc.source or '')}[/]: {plain(p.message)}"
                  + (f"  [yellow]→ {plain(p.hint)}[/]" if p.hint else ""), highlight=False)
    if exc.unreadable or any(p.code in UNREADABLE for p in exc.problems):  # no list at all (a FIFO, missing …)
        fail(f"cannot read the deck {exc.source or ''}: nothing was played",
             "give a deck list file or a deck code; check the path (`mythos validate FILE` says what is wrong)",
             code=2)
    # an illegal list exits 1, as in `validate` and `simulate`: the list was read, it breaks a rule
    fail(f"deck {exc.source or ''} is not a legal Mythos deck: nothing was played",
         "fix the list (`mythos validate FILE` explains every problem)", code=1)


# an optimization's stages are runs named ID-screen, ID-s12r3, ID-confirm: room for the suffix
MAX_NAME = MAX_RUN_NAME - 12


def _check_name(name: str) -> None:
    problem = run_name_problem(name) or (f"{len(name)} characters, at most {MAX_NAME} (its runs are {name}-…)"
                                         if len(name) > MAX_NAME else None)
    if problem:
        fail(f"--name {name!r}: {problem}", "e.g. --name leaf-for-regionals", code=2)


def _given(ctx: typer.Context, param: str) -> bool:
    source = ctx.get_parameter_source(param)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _stand_in(config: OptimizeConfig, policy: str | None, command: str) -> dict[str, str]:
    """A resumed optimization's player: a built-in one rebuilt from its settings; a Python one only
    from the file the user names again (said on stderr), never imported from the database."""
    try:
        named, lines = stand_ins({"a": config.policy}, policy, command=command, options={})
        stored_policy(config.policy, config.mulligan, named)
    except StoredPythonPlayer as exc:
        fail(str(exc), exc.hint, code=2)
    except PolicySpecError as exc:
        fail(f"the optimization's player: {exc}", "resume it with its own player; a Python player's file is "
             "named with --policy FILE.py:CLASS", code=2)
    for line in lines:
        err.print(plain(line), highlight=False)
    return named


def optimize_cmd(
    ctx: typer.Context,
    deck: Optional[str] = typer.Argument(None, metavar="DECK", help="The deck to improve (a file or a deck code)."),
    field: Optional[str] = typer.Option(None, "--field", help="The field: 'deck=share,…' (deck files, or decks of "
                                        "--gauntlet / the sample decks by name). Default: the gauntlet, equal shares."),
    gauntlet: Optional[Path] = typer.Option(None, "--gauntlet", help="A folder of field decks (default: the sample decks)."),
    pool: list[str] = typer.Option(None, "--pool", help="Narrow the cards that may come in: KS, SS, 'group=Leaf "
                                   "Village', 'keyword=Team 7', type=attachment, or a collection list file "
                                   "(only the cards you own). Repeat to combine."),
    missions: bool = typer.Option(False, "--missions", help="Also choose which 3 missions to bring: the missions "
                                  "experiment (`mythos experiment missions`) on the deck found, with a fifth of the "
                                  "budget."),
    budget: Optional[int] = typer.Option(None, "--budget", min=1, max=MAX_BUDGET, show_default=False,
                                         help=f"Games of the player that judges (--policy), at most {MAX_BUDGET:,}; "
                                         f"the screen's cheap player plays its own on top. [default: {DEFAULT_BUDGET:,}]"),
    minutes: Optional[float] = typer.Option(None, "--minutes", min=0.5, max=MAX_MINUTES,
                                            help="Instead of --budget: the budget that fits in this many minutes, "
                                            "from the speeds measured on the first games (printed, to reproduce it)."),
    policy: str = typer.Option(DEFAULT_POLICY, "--policy",
                               help="The player that judges (both seats): the proposal and its interval are its own. "
                               "With --resume: the file of its Python player (FILE.py:CLASS), named again: a player "
                               "stored in a database is never imported."),
    screen_policy: Optional[str] = typer.Option(None, "--screen-policy",
                                                help="A cheaper player to screen the pool (e.g. greedy: "
                                                "faster, but its ranking of swaps may not be the judge's). [default: "
                                                "--policy itself]"),
    seed: int = typer.Option(1, "--seed", min=0, max=MAX_SEED,
                             help="0 to 2^64 - 1: same seed, same search and same proposal, whatever --workers is."),
    workers: int = typer.Option(0, "--workers", "-w", help=WORKERS_HELP),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address, tcp://HOST:PORT."),
    db: Path = typer.Option(DEFAULT_DB, "--db", help="DuckDB file for the games (each stage is a run)."),
    name: Optional[str] = typer.Option(None, "--name", help="An id for the optimization (its runs are ID-…)."),
    resume: Optional[str] = typer.Option(None, "--resume", help="Continue an interrupted optimization (same answer)."),
    out_dir: Path = typer.Option(Path("reports"), "--out", help="Folder for the report (files go to OUT/ID/)."),
    as_json: bool = typer.Option(False, "--json", help="Print every number as JSON instead of the summary."),
) -> None:
    """Propose changes to a deck that raise its win rate against a field, proven on fresh games.

    The player given (--policy, search by default) screens the whole pool: random variants of the deck, a few cards out and others in, each game informing the value of every card its deck held (a regression on the cards held). It judges the short list of the best swaps and pairs, races the best with successive halving on common random numbers, then confirms the proposal on fresh seeds with an interval corrected for every variant it judged. "No change beats the deck" is an answer too. (--screen-policy greedy screens with a cheaper player instead; the two players' rank correlation is then measured and shown, and the more they disagree, the more of the short list races.)

    The plan is printed first; the same --seed and --budget give the same proposal whatever --workers is.

    Examples:

      mythos optimize my-deck.txt                # the sample decks, 10 CPU-min

      mythos optimize my-deck.txt --minutes 20   # the budget that fits

      mythos optimize my-deck.txt --field "Sand Village=40,sound-four=60"

      mythos optimize my-deck.txt --pool KS --pool "group=Leaf Village"

      mythos optimize my-deck.txt --pool my-collection.txt --missions

      mythos optimize --resume opt-20261201-101500-123
    """
    if backend not in ("local", "dask"):
        fail(f"unknown backend {backend!r}", "use --backend local or --backend dask", code=2)
    if not resume and not deck:
        fail("give the deck to optimize", "e.g. mythos optimize my-deck.txt, or --resume ID", code=2)
    if resume and deck:
        fail("--resume continues a stored optimization with its own deck and settings: give one or the other",
             code=2)
    if budget is not None and minutes is not None:
        fail("give --budget (games) or --minutes (time), not both", "e.g. --minutes 10, or --budget 8000", code=2)
    if resume and (budget is not None or minutes is not None):
        fail("--resume continues a stored optimization with its own budget: leave out --budget and --minutes", code=2)
    workers = check_workers(workers)
    problem = out_problem(out_dir)  # before any game: the whole budget was played, then the report failed
    if problem:
        fail(f"--out {problem[0]}", problem[1], code=2)
    if name is not None:
        _check_name(name)
    if resume is not None and not resume.strip():
        fail("--resume needs an optimization id", "e.g. --resume opt-20261201-101500-123", code=2)
    config = None
    python_players: dict[str, str] = {}
    if not resume:
        try:
            player = make_policy(policy)
        except PolicySpecError as exc:
            fail(str(exc), "e.g. --policy greedy or --policy lookahead:sims=20", code=2)
        policy = player.spec
        if not player.builtin:  # named on this command line: the user's own file
            python_players = {policy: policy}
        if screen_policy is not None:
            try:
                screen_policy = make_policy(screen_policy).spec
            except PolicySpecError as exc:
                fail(f"--screen-policy: {exc}", "e.g. --screen-policy greedy or --screen-policy tempo", code=2)
        try:
            specs = load_specs([deck])
            field_decks, shares = build_field(field, str(gauntlet) if gauntlet is not None else None)
            the_pool = build_pool(pool)
        except DeckError as exc:
            _deck_error(exc)
        except (FieldError, PoolError) as exc:
            fail(exc.message, exc.hint, code=2)
        config = OptimizeConfig(specs[0], field_decks, shares, the_pool,
                                budget=None if minutes is not None else (budget or DEFAULT_BUDGET), policy=policy,
                                seed=seed, missions=missions, screen_policy=screen_policy, minutes=minutes)
        try:
            check(config)  # before any file is written
        except ExperimentError as exc:
            fail(exc.message, exc.hint, code=2)
    if backend == "dask":  # reach the scheduler before anything is written (each stage connects again)
        try:
            require_dask()
        except BackendMissing as exc:
            fail(str(exc), DASK_HINT, code=2)
        try:
            dask_client(scheduler).close()
        except BackendError as exc:
            fail(str(exc), "start one with `dask scheduler` (it prints the address) and workers with "
                           "`dask worker tcp://HOST:8786`", code=2)
    opt_id = resume or name or f"opt-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid() % 1000:03d}"
    try:
        store = open_store(db, create=resume is None)  # --resume never creates a database
    except StoreError as exc:
        fail(str(exc), code=2)
    t0 = time.perf_counter()
    with store:
        try:
            if resume:
                config = resume_config(store, resume)
                python_players = _stand_in(config, policy if _given(ctx, "policy") else None,
                                           f"mythos optimize --resume {resume} --db {db}")
            bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.fields[games]} games"),
                           TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(), console=err,
                           transient=False)
            with bar:
                task = bar.add_task("calibration", total=None, games="0")
                outcome = optimize(store, config, opt_id, name=name or opt_id, workers=workers, backend=backend,
                                   scheduler=scheduler, progress=_Bar(bar, task), python_players=python_players)
        except OptimizeInterrupted as exc:
            terminated = exc.signal == signal.SIGTERM
            of = f" of {exc.budget:,}" if exc.budget else ""
            fail(f"optimization {exc.opt_id} {'stopped by SIGTERM' if terminated else 'interrupted'}: "
                 f"{exc.spent:,}{of} games of {config.policy} are stored",
                 f"continue it with: mythos optimize --resume {exc.opt_id} --db {db}", code=143 if terminated else 130)
        except KeyboardInterrupt:
            fail(f"optimization {opt_id} interrupted", f"continue it with: mythos optimize --resume {opt_id} --db {db}",
                 code=130)
        except ExperimentError as exc:
            fail(exc.message, exc.hint, code=2)
        except StoreError as exc:
            fail(str(exc), code=2)
    from mythos_cli.optimize.report import build

    try:
        result = build(outcome, out_dir, str(db), elapsed=time.perf_counter() - t0)
    except ReportError as exc:
        fail(exc.message, exc.hint, code=2)
    except OSError as exc:
        fail(f"cannot write the report under {out_dir}: {exc.strerror or exc}", "choose a writable --out", code=2)
    if as_json:
        print_json(result.to_json())
        return
    _render(result, False)
    err.print(f"games stored in {db} as runs {opt_id}-…; e.g. mythos report cards --db {db} --run {outcome.runs[0]}",
              highlight=False)
