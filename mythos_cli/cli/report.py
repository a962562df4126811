"""``mythos report KIND``: turn a stored simulation run into Markdown/PNG (and HTML) reports."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from mythos_cli import stops
from mythos_cli.cli.output import err, fail, out, plain, print_json
from mythos_cli.reports import MIN_GAMES, ReportError, ReportResult, make_report
from mythos_cli.reports.doc import inline_tokens

DEFAULT_DB = Path("mythos.duckdb")

app = typer.Typer(
    help=("Reports on a simulation run: win rates, mulligans, curves, card performance, tournament prep.\n\n"
          "Each writes Markdown + PNG under OUT/RUN/ and prints a summary (--json: the numbers).\n\n"
          "Example: mythos report winrate --db mythos.duckdb"),
    no_args_is_help=True,
)

DB = typer.Option(DEFAULT_DB, "--db", help="The DuckDB file written by `mythos simulate`.")
RUN = typer.Option(None, "--run", help="Run id (default: the newest finished run; `mythos db runs` lists them).")
DECK = typer.Option(None, "--deck", help="Only this deck (a name, part of it, or its deck file).")
OUT = typer.Option(Path("reports"), "--out", help="Folder for the reports (files go to OUT/RUN/).")
JSON = typer.Option(False, "--json", help="Print the numbers as JSON instead of the summary.")
FIELD = typer.Option(None, "--field", help="The field: 'deck=share,deck=share' (default: the run's opponents, equal).")
EXAMPLES = typer.Option(False, "--examples", help="List the games each matchup lost, to replay with `mythos replay`.")
CHECK = typer.Option(None, "--check-policy", metavar="POLICY",
                     help="Replay a sample of the run's matchups (same seeds) with this player for both sides and "
                          "show how far each matchup moves. search:strong is the reference: the strongest the engine "
                          "plays in about a second a game on one core (about 1 s of CPU a game: --check-games 30 "
                          "over 8 matchups is some 4 minutes on 1 core); a cheaper one, e.g. lookahead, shows the "
                          "other direction.")
CHECK_GAMES = typer.Option(30, "--check-games", min=1, help="Games per matchup for --check-policy.")
WORKERS = typer.Option(0, "--workers", "-w", help="Processes for --check-policy (0, the default: all cores; more "
                       "than the cores play as many as the cores).")
MIN = typer.Option(MIN_GAMES, "--min-games", min=1, help="Fewer games than this: a rate is flagged and not ranked.")


def _rich(text: str) -> str:
    """The reports' **bold** to rich markup, everything else escaped (deck names may hold
    brackets or stars: a registered user string is never markup, see reports.doc)."""
    out, bold = [], False
    for kind, piece in inline_tokens(text):
        if kind == "bold":
            out.append("[/bold]" if bold else "[bold]")
            bold = not bold
        else:
            out.append(plain(piece if kind == "text" else f"`{piece}`"))
    if bold:
        out.append("[/bold]")
    return "".join(out)


def rich_table(t) -> RichTable:
    """A report's table (``reports.doc.Table``) for the terminal."""
    table = RichTable(title=plain(t.title), title_justify="left")
    for i, c in enumerate(t.columns):
        table.add_column(plain(c), justify="left" if i < t.left else "right", overflow="fold")
    for row in t.rows:
        table.add_row(*[plain(str(c)) for c in row])
    return table


def _render(result: ReportResult, as_json: bool) -> None:
    for w in result.warnings:
        err.print(f"[yellow]warning:[/] {plain(w)}", highlight=False)
    if as_json:
        print_json(result.to_json())
        return
    for t in result.tables:
        out.print(rich_table(t))
    for line in result.summary:
        out.print("• " + _rich(line), highlight=False)
    docs = [f for f in result.files if f.suffix in (".md", ".html")]
    images = [f for f in result.files if f.suffix == ".png"]
    err.print(f"wrote {', '.join(str(d) for d in docs)} and {len(images)} image(s) in {docs[0].parent if docs else ''}",
              highlight=False)


def _run(kind: str, db: Path, run: Optional[str], deck: Optional[str], out_dir: Path, as_json: bool,
         field: Optional[str] = None, min_games: int = MIN_GAMES, examples: bool = False,
         check_policy: Optional[str] = None, check_games: int = 30, workers: int = 0,
         mulligan_run: Optional[str] = None, missions_run: Optional[str] = None) -> None:
    from mythos_cli.cli.simulate import check_workers

    workers = check_workers(workers)  # 0: all cores, and no more than the cores
    if check_policy:  # before the check plays its games (they were played, then the report failed)
        from mythos_cli.files import out_problem

        problem = out_problem(out_dir)
        if problem:
            fail(f"cannot create the report folder under {out_dir}: {problem[0]}", problem[1], code=2)
    try:
        if check_policy:
            with stops.stopping(), Progress(TextColumn("[bold]checking with " + plain(check_policy)), BarColumn(),
                                            MofNCompleteColumn(), TextColumn("games"), TimeRemainingColumn(),
                                            console=err, transient=True) as bar:
                task = bar.add_task("check", total=None)
                result = make_report(kind, db, run=run, deck=deck, out=out_dir, field=field, min_games=min_games,
                                     examples=examples, check_policy=check_policy, check_games=check_games,
                                     workers=workers, progress=lambda n: bar.advance(task, n),
                                     mulligan_run=mulligan_run, missions_run=missions_run)
        else:
            result = make_report(kind, db, run=run, deck=deck, out=out_dir, field=field, min_games=min_games,
                                 examples=examples, mulligan_run=mulligan_run, missions_run=missions_run)
    except ReportError as exc:
        fail(exc.message, exc.hint, code=exc.code)  # fail() escapes: escaping twice showed backslashes
    except stops.Stopped as exc:  # Ctrl-C or SIGTERM while the check played: its workers are gone
        fail(f"report {kind} {exc.how} while checking with {check_policy}: {exc.done:,} of {exc.total:,} games "
             "played again, no report written", "run it again to check (a check stores nothing)", code=exc.code)
    _render(result, as_json)


@app.command("winrate")
def winrate(db: Path = DB, run: Optional[str] = RUN, deck: Optional[str] = DECK, field: Optional[str] = FIELD,
            out_dir: Path = OUT, examples: bool = EXAMPLES, check_policy: Optional[str] = CHECK,
            check_games: int = CHECK_GAMES, workers: int = WORKERS, as_json: bool = JSON) -> None:
    """Matchup matrix (Wilson 95% intervals), win rate against a field, splits by first Edge and policy.

    Examples:
      mythos report winrate --db mythos.duckdb
      mythos report winrate --field "Leaf Village Team 7=30,Sand Village=20,Hidden Ambush=50"
    """
    _run("winrate", db, run, deck, out_dir, as_json, field=field, examples=examples, check_policy=check_policy,
         check_games=check_games, workers=workers)


@app.command("mulligan")
def mulligan(db: Path = DB, run: Optional[str] = RUN, deck: Optional[str] = DECK, out_dir: Path = OUT,
             min_games: int = MIN, as_json: bool = JSON) -> None:
    """What the player did with its opening hands (observed); with --run ID of a mulligan experiment, its advice.

    The advice comes from `mythos experiment mulligan` (each dealt hand played kept and mulliganed); a run's own games only show what its player chose.

    Example: mythos report mulligan --deck "Sand Village"
    """
    _run("mulligan", db, run, deck, out_dir, as_json, min_games=min_games)


@app.command("curve")
def curve(db: Path = DB, run: Optional[str] = RUN, deck: Optional[str] = DECK, out_dir: Path = OUT,
          as_json: bool = JSON) -> None:
    """Cost curve, exact (hypergeometric) vs simulated odds of a play of each cost, chakra per round.

    Example: mythos report curve --deck leaf
    """
    _run("curve", db, run, deck, out_dir, as_json)


@app.command("cards")
def cards(db: Path = DB, run: Optional[str] = RUN, deck: Optional[str] = DECK, out_dir: Path = OUT,
          min_games: int = MIN, as_json: bool = JSON) -> None:
    """17lands-style card metrics: opening hand, drawn, in hand, never seen, improvement when drawn.

    Example: mythos report cards --deck "Hidden Ambush" --min-games 50
    """
    _run("cards", db, run, deck, out_dir, as_json, min_games=min_games)


@app.command("prep")
def prep(deck_arg: Optional[str] = typer.Argument(None, metavar="DECK", help="The deck to prepare."),
         db: Path = DB, run: Optional[str] = RUN, deck: Optional[str] = DECK, field: Optional[str] = FIELD,
         out_dir: Path = OUT, min_games: int = MIN, examples: bool = EXAMPLES, check_policy: Optional[str] = CHECK,
         check_games: int = CHECK_GAMES, workers: int = WORKERS,
         mulligan_run: Optional[str] = typer.Option(None, "--mulligan-run", metavar="ID",
                                                    help="The mulligan experiment to show (default: the newest of "
                                                         "this list in the database)."),
         missions_run: Optional[str] = typer.Option(None, "--missions-run", metavar="ID",
                                                    help="The missions experiment to show (default: the newest of "
                                                         "this list in the database)."),
         as_json: bool = JSON) -> None:
    """One tournament-prep report (Markdown + self-contained HTML) for one deck against a field.

    Every section is weighted by the field's shares. Mulligan and mission advice comes from the experiments (`mythos experiment mulligan|missions`) stored for this list in the database.

    Examples:
      mythos report prep "Leaf Village Team 7" --field "Sand Village=40,Hidden Ambush=35,Team Guy Armoury=25"
      mythos report prep leaf --run sample --db sims.duckdb
    """
    if deck_arg and deck and deck_arg != deck:
        fail(f"two decks given: {deck_arg!r} and --deck {deck!r}", "give one", code=2)
    _run("prep", db, run, deck_arg or deck, out_dir, as_json, field=field, min_games=min_games, examples=examples,
         check_policy=check_policy, check_games=check_games, workers=workers, mulligan_run=mulligan_run,
         missions_run=missions_run)


@app.command("compare")
def compare(deck_a: str = typer.Argument(..., metavar="DECK_A", help="The first list (a deck of the run)."),
            deck_b: Optional[str] = typer.Argument(None, metavar="DECK_B",
                                                   help="The second list (default: DECK_A again, with --run-b)."),
            db: Path = DB, run: Optional[str] = RUN,
            run_b: Optional[str] = typer.Option(None, "--run-b", help="DECK_B's run (default: the same run)."),
            db_b: Optional[Path] = typer.Option(None, "--db-b", help="DECK_B's database (default: the same file)."),
            field: Optional[str] = typer.Option(None, "--field", help="Weigh the common opponents: 'deck=share,…' "
                                                "(default: equal shares)."),
            out_dir: Path = OUT, as_json: bool = JSON) -> None:
    """List A against list B: two decks of a run, or one deck in two runs, side by side on their common opponents, with the difference and its interval.

    Examples:

      mythos report compare "Leaf Village Team 7" "Sand Village"

      mythos report compare leaf --run before --run-b after      # the same deck in two runs
    """
    if deck_b is None and run_b is None and db_b is None:
        fail("give a second deck, or the run of the same deck with --run-b RUN", "e.g. mythos report compare leaf sand")
    try:
        result = make_report("compare", db, run=run, deck=deck_a, deck_b=deck_b or deck_a, run_b=run_b, db_b=db_b,
                             out=out_dir, field=field)
    except ReportError as exc:
        fail(exc.message, exc.hint, code=exc.code)  # fail() escapes: escaping twice showed backslashes
    _render(result, as_json)
