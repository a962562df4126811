"""``mythos replay``: one game turn by turn, from a stored run or from a seed."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.rule import Rule

from mythos_cli import _core, stops
from mythos_cli.cli.output import NO, err, fail, out, plain, print_json
from mythos_cli.cli.simulate import DEFAULT_DB, MULLIGAN_HELP, POLICY_HELP, _deck_error
from mythos_cli.sim.plan import DEFAULT_POLICY
from mythos_cli.decks import DeckError
from mythos_cli.policies import PolicySpecError, make_policy
from mythos_cli.policies.match import PlayerError
from mythos_cli.sim.decks import load_specs
from mythos_cli.sim.plan import MAX_SEED
from mythos_cli.sim.replay import Replay, ReplayError, ReplayMismatch, replay_seed, replay_stored
from mythos_cli.store import StoreError, open_store

COLOURS = ("cyan", "magenta")


def replay(
    ctx: typer.Context,
    args: list[str] = typer.Argument(..., metavar="RUN GAME | DECK_A DECK_B",
                                     help="A stored run and a game number, or with --seed two decks (files or codes)."),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, max=MAX_SEED,
                                       help="Play a new game of DECK_A (P1) against DECK_B from this seed (0 to 2^64 - 1)."),
    db: Path = typer.Option(DEFAULT_DB, "--db", help="The DuckDB file of the run."),
    policy: str = typer.Option(DEFAULT_POLICY, "--policy", help="With --seed: the player of both sides. " + POLICY_HELP
                               + " A stored run's Python player: its file (FILE.py:CLASS), named again: a player "
                               "stored in a database is never imported."),
    policy_b: Optional[str] = typer.Option(None, "--policy-b", help="With --seed: P2's player, if another; a stored "
                                           "run's opponents' Python player, its file."),
    mulligan: Optional[str] = typer.Option(None, "--mulligan", help="With --seed: " + MULLIGAN_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print every step as JSON (for tools)."),
) -> None:
    """Replay one game turn by turn: mulligans, missions, chakra, every play with its cost, effects and their targets, passes and the Edge, each mission's Power and winner, the scores.

    A stored game is played again from its seed and checked against what was stored: a replay that does not give the stored game back is an error (exit 1).

    Examples:

      mythos replay tour 3                      # game 3 of run "tour" (mythos report … --examples lists losses)

      mythos replay --seed 7 data/decks/leaf-team7.txt data/decks/sand-village.txt
    """
    if seed is None:
        if len(args) != 2 or not args[1].lstrip("-").isdigit():
            fail("give a run and a game number (mythos replay RUN GAME), or --seed S DECK_A DECK_B",
                 "`mythos db runs` lists the runs; `mythos report winrate --examples` lists games to look at")
        try:
            store = open_store(db, read_only=True, create=False)
        except StoreError as exc:
            fail(str(exc))
        with store:
            given = ctx.get_parameter_source("policy")
            named = policy if given is not None and given.name not in ("DEFAULT", "DEFAULT_MAP") else None
            try:
                with stops.stopping():
                    result = replay_stored(store, args[0], int(args[1]), policy=named, policy_b=policy_b)
            except (KeyboardInterrupt, _core.Cancelled):
                _stopped()
            except PlayerError as exc:  # the Python player named again on this command line
                fail(str(exc), "fix the player, then replay the game again", code=NO)
            except ReplayMismatch as exc:
                fail(exc.message, exc.hint, code=NO)
            except ReplayError as exc:
                fail(exc.message, exc.hint)
            except StoreError as exc:
                fail(str(exc))
    else:
        if len(args) != 2:
            fail("--seed plays a new game: give two decks, DECK_A (P1) and DECK_B (P2)",
                 "e.g. mythos replay --seed 7 data/decks/leaf-team7.txt data/decks/sand-village.txt")
        try:
            make_policy(policy, mulligan)
            make_policy(policy_b or policy, mulligan)
        except PolicySpecError as exc:
            fail(str(exc), "e.g. --policy greedy or --policy lookahead:sims=24")
        try:
            a, b = load_specs(list(args))
        except DeckError as exc:
            _deck_error(exc)
        try:
            with stops.stopping():
                result = replay_seed(a, b, seed, policy_a=policy, policy_b=policy_b, mulligan=mulligan)
        except (KeyboardInterrupt, _core.Cancelled):
            _stopped()
        except PlayerError as exc:
            fail(str(exc), "fix the player, then replay the game again", code=NO)
    for note in result.notes:
        err.print(plain(note), highlight=False)
    if as_json:
        print_json(result.to_json())
        return
    render(result)


def _stopped() -> None:
    stop = stops.Stopped(stops.last_signal())
    fail(f"replay {stop.how}: nothing is stored by a replay", "run it again to see the game", code=stop.code)


def render(r: Replay) -> None:
    where = f"run {r.run_id}, game {r.game_no}" if r.run_id else "a new game"
    out.print(f"[bold]{plain(where)}[/] · seed {r.seed}" + (f" · {plain(r.matchup)}" if r.matchup else ""),
              highlight=False)
    for s, seat in enumerate(r.seats):
        out.print(f"  [{COLOURS[s]}]P{s + 1}[/] {plain(seat['deck'])} · player {plain(seat['policy'])}",
                  highlight=False)
    current = None
    for step in r.steps:
        if step.round != current:
            current = step.round
            out.print(Rule("setup and mulligans" if current == 0 else f"round {current}", align="left"))
        text = plain(step.text)
        if step.effect:
            out.print(f"    [dim]→[/] {text}", highlight=False)
        elif step.kind in ("score", "game_over", "mission"):
            out.print(f"  [bold]{text}[/]", highlight=False)
        elif step.player in (0, 1):
            out.print(f"  [{COLOURS[step.player]}]{text}[/]", highlight=False)
        else:
            out.print(f"  {text}", highlight=False)
    if r.checked:
        err.print("replayed from the seed: the same game as stored (checked field by field)", highlight=False)
