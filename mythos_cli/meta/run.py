"""One ``mythos meta``: the field's matrix played (or read back) under one player, then answered."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from mythos_cli import __version__
from mythos_cli.experiment.arms import ExperimentError, Progress
from mythos_cli.experiment.field import Field
from mythos_cli.experiment.matrix import GamesTarget, MatrixOutcome, play_matrix
from mythos_cli.meta.adaptive import PrecisionTarget, reached
from mythos_cli.meta.analysis import Settings, analyse
from mythos_cli.sim.runner import catalog_hash
from mythos_cli.store import Store

DEFAULT_PRECISION = 0.03
DEFAULT_BUDGET = 20_000


@dataclass
class MetaOutcome:
    meta_id: str
    field: Field
    policy: str
    seed: int
    games: int | None
    precision: float | None
    matrix: MatrixOutcome
    answers: dict
    precision_check: dict | None
    engine: str = __version__
    catalog: str = field(default_factory=catalog_hash)
    analysed_at: str = field(default_factory=lambda: datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    played_between: tuple[str | None, str | None] = (None, None)

    def to_json(self) -> dict:
        m = self.matrix.matrix
        g = m.games()
        per_pair = [int(g[i, j]) for i, j in m.pairs()]
        return {"meta": self.meta_id, "field": self.field.to_json(), "player": self.policy, "seed": self.seed,
                "engine_version": self.engine, "catalog_hash": self.catalog, "analysed_at": self.analysed_at,
                "games_stored_between": list(self.played_between),
                "plan": {"games_per_pair": self.games, "precision": self.precision, **self.matrix.to_json()},
                "games": {"total": m.total_games(), "per_pair": {"min": min(per_pair), "max": max(per_pair),
                                                                 "median": sorted(per_pair)[len(per_pair) // 2]}},
                "precision_check": self.precision_check, "counts": m.to_json(), **self.answers}


def run_meta(store: Store, the_field: Field, policy: str, seed: int, meta_id: str, *, games: int | None = None,
             precision: float | None = None, budget: int | None = None, settings: Settings | None = None,
             workers: int = 1, backend: str = "local", scheduler: str | None = None,
             progress: Progress | None = None) -> MetaOutcome:
    """Play what the matrix still needs (``games`` a pair, or to ``precision``), then answer."""
    if games is None and precision is None:
        precision = DEFAULT_PRECISION
    target = GamesTarget(games) if games is not None else PrecisionTarget(list(the_field.shares), precision)
    outcome = play_matrix(store, the_field.decks, policy, seed, target, meta_id, budget=budget, workers=workers,
                          backend=backend, scheduler=scheduler, progress=progress)
    if not outcome.matrix.total_games():
        raise ExperimentError("no pair of the field has a game to answer from",
                              "give a budget of at least a few hundred games (--budget), or --games N")
    answers = analyse(outcome.matrix, the_field.shares, settings, the_field.counts)
    check = reached(target, outcome.matrix) if isinstance(target, PrecisionTarget) else None
    spans = _span(store, outcome.matrix.runs)
    return MetaOutcome(meta_id, the_field, policy, seed, games, precision, outcome, answers, check,
                       played_between=spans)


def _span(store: Store, runs: list[str]) -> tuple[str | None, str | None]:
    if not runs:
        return None, None
    df = store.runs()
    rows = df.filter(df["run_id"].is_in(runs))
    start = rows["started_at"].min()
    end = rows["finished_at"].max() if rows["finished_at"].null_count() < rows.height else None
    return (str(start)[:16] if start is not None else None, str(end)[:16] if end is not None else None)


__all__ = ["DEFAULT_BUDGET", "DEFAULT_PRECISION", "MetaOutcome", "run_meta"]
