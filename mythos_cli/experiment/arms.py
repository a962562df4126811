"""Arms on common random numbers: studied decks against a field, stored as an ordinary run.

This is the one way an experiment plays games (``mythos optimize``'s stages, the mulligan and
mission experiments, ``meta``'s matrix): ``play_arms`` plans a ``sim`` run whose studied decks
share their seeds by ``seed_groups`` (common random numbers: the same seeds, seats and opponents,
so their results pair game by game), plays what is not stored yet through ``sim.execute`` (all
cores or Dask, resumable batch by batch) and reads back every game. ``pair`` matches two arms'
games; ``experiment.stats`` turns pairs into gains with intervals.
"""

from __future__ import annotations

import json

from mythos_cli.experiment.stats import Gain, Pairs, gain
from mythos_cli.sim import RunConfig, execute, load_config, start_run
from mythos_cli.sim.plan import DeckSpec
from mythos_cli.store import Store
from mythos_cli.store import experiment as xstore

PREFIX = "opt:"  # the names of studied arms in an experiment's runs


class ExperimentError(Exception):
    """A problem the user can fix (bad settings, a budget too small, a changed database)."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


class ExperimentInterrupted(Exception):
    """Ctrl-C or SIGTERM (``signal``; None for Ctrl-C) stopped an experiment: ``stored`` of its
    ``planned`` games are kept, and ``--resume`` finishes it with the same games."""

    def __init__(self, exp_id: str, stored: int, planned: int, signal: int | None = None):
        super().__init__(exp_id)
        self.exp_id, self.stored, self.planned, self.signal = exp_id, stored, planned, signal


def same_json(a: dict, b: dict) -> bool:
    """Whether two settings are the same once stored (JSON turns tuples into lists)."""
    return json.loads(json.dumps(a)) == json.loads(json.dumps(b))


class Progress:
    """What an experiment tells about its advance (the CLI draws it; the library never prints)."""

    def stage(self, label: str, planned: int, stored: int) -> None:
        """A stage starts: ``planned`` games, of which ``stored`` were stored already (resume)."""

    def games(self, n: int) -> None:
        """``n`` more games were played and stored."""




def play_run(store: Store, run_id: str, name: str, config: RunConfig, *, workers: int = 1, backend: str = "local",
             scheduler: str | None = None, progress: Progress | None = None, label: str | None = None) -> int:
    """Play (or finish) one planned run of an experiment: start it, or check that a stored run of
    that id is this plan, then play what is not stored yet. Returns the games it planned.

    Raises ``sim.Interrupted`` on Ctrl-C (the stored batches stay) and ``ExperimentError`` when a
    run of that id exists with another plan."""
    progress = progress or Progress()
    config.plan()
    planned = config.planned_games()
    run = store.run(run_id)
    if run is None:
        start_run(store, config, run_id, name)
        stored = 0
    else:
        old = load_config(store, run_id)
        old.python_players = config.python_players
        if not same_json(old.to_json(), config.to_json()):
            raise ExperimentError(f"run {run_id} in {store.path} is not the arms this experiment plans "
                                  "(the database or the card catalog changed since)",
                                  "start anew (another --name), or delete that run")
        stored = store.stored_games(run_id)  # from the batches table: no batch derived
    progress.stage(label or name, planned, stored)
    if stored < planned or run is None or run.get("status") != "finished":
        # (a finished run is only read: a report reads experiments from a read-only database)
        execute(store, run_id, config, workers=workers, backend=backend, scheduler=scheduler, progress=progress.games)
    return planned


def play_arms(store: Store, run_id: str, name: str, studied: list[DeckSpec], field: list[DeckSpec], games: int,
              policy: str, seed: int, seed_groups: list[int] | None, *, mulligan: str | None = None,
              batch_size: int = 50, workers: int = 1, backend: str = "local", scheduler: str | None = None,
              progress: Progress | None = None, label: str | None = None,
              python_players: dict[str, str] | None = None,
              forced_mulligans: list[str | None] | None = None) -> dict[str, list[tuple]]:
    """Play (or finish, or read back) one run: each studied deck against each field deck, ``games``
    games a pair (seats alternate). Returns, per studied deck, its games ``(opponent, seat, seed, won)``.
    ``forced_mulligans``: per studied deck, ``"keep"``, ``"mulligan"`` or None (its player decides),
    the answer its seat gives to the mulligan whatever the hand (``RunConfig.forced_mulligans``).

    Raises ``sim.Interrupted`` on Ctrl-C (the stored batches stay) and ``ExperimentError`` when a
    run of that id exists with another plan."""
    decks = list(studied) + list(field)
    n = len(studied)
    config = RunConfig(decks=decks, opponents=list(range(n, len(decks))), studied=list(range(n)), games=games,
                       policy_a=policy, policy_b=policy, mulligan=mulligan, seed=seed, batch_size=batch_size,
                       seed_groups=seed_groups, python_players=dict(python_players or {}),
                       forced_mulligans=forced_mulligans)
    planned = play_run(store, run_id, name, config, workers=workers, backend=backend, scheduler=scheduler,
                       progress=progress, label=label)
    rows = xstore.results(store, run_id)
    out: dict[str, list[tuple]] = {d.name: [] for d in studied}
    for deck, opp, seat, s, won in rows.select("deck", "opponent", "seat", "seed", "won").iter_rows():
        out[deck].append((opp, seat, s, bool(won)))
    if sum(len(v) for v in out.values()) != planned:
        raise ExperimentError(f"run {run_id}: {sum(len(v) for v in out.values())} games stored, {planned} planned",
                              "the run was changed by hand; start anew (another --name)")
    return out


def pair(results: dict[str, list[tuple]], deck: str, ref: str) -> dict[str, Pairs]:
    """Pair the deck's games with the reference's on (opponent, seat, seed)."""
    by_key = {(o, seat, s): won for o, seat, s, won in results[ref]}
    pairs: dict[str, Pairs] = {}
    for o, seat, s, won in results[deck]:
        ref_won = by_key.get((o, seat, s))
        if ref_won is None:
            raise AssertionError(f"{deck}: a game without its pair")  # seeds are shared by construction
        pairs.setdefault(o, Pairs()).add(won, ref_won)
    return pairs


def compare(store: Store, run_id: str, deck: DeckSpec, reference: DeckSpec, field: list[DeckSpec],
            shares: list[float], games: int, policy: str, seed: int, *, tests: int = 1, workers: int = 1,
            progress: Progress | None = None) -> Gain:
    """The paired gain of ``deck`` over ``reference`` on ``games`` games per field deck (same seeds for
    both), stored as run ``run_id``: what the confirmation does, for checking an answer afresh."""
    a = DeckSpec(PREFIX + "deck", deck.cards, deck.missions)
    b = DeckSpec(PREFIX + "reference", reference.cards, reference.missions)
    results = play_arms(store, run_id, f"compare {run_id}", [b, a], field, games, policy, seed, [0, 0],
                         workers=workers, progress=progress)
    return gain(pair(results, a.name, b.name), {f.name: s for f, s in zip(field, shares)}, tests=tests)


__all__ = ["PREFIX", "ExperimentError", "Progress", "compare", "pair", "play_arms", "play_run", "same_json"]
