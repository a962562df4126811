"""Play a sample of a stored run's matchups again with another player (``--check-policy``).

The sample is the first games of each chosen matchup, from the same seeds and seats as the
run, so the only thing that changes is the player: how far a matchup moves is how much its
figure depends on who played it. Nothing is stored; the games are counted and handed back.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Callable

from mythos_cli import _core, stops
from mythos_cli.policies import make_policy
from mythos_cli.sim.game import game_setup, play_game
from mythos_cli.sim.plan import GameJob, RunConfig


@dataclass(frozen=True)
class CheckedMatchup:
    matchup: str
    deck: str  # the matchup's studied deck: wins are its wins
    opponent: str
    policy: str  # the player both sides had in the check
    game_nos: tuple[int, ...]  # the run's games replayed with that player
    wins: int  # the deck's wins in them, with that player

    @property
    def games(self) -> int:
        return len(self.game_nos)


def _play(args) -> tuple[int, bool]:
    config, job = args
    g = play_game(config, job, game_setup(config, job))
    return job.game_no, g.winner == job.seat_of_deck


def policy_check(config: RunConfig, policy: str, *, games: int = 30, decks: set[str] | None = None,
                 max_matchups: int = 8, workers: int = 0,
                 progress: Callable[[int], None] | None = None) -> list[CheckedMatchup]:
    """Replay up to ``games`` games of up to ``max_matchups`` matchups (those of ``decks``, when
    given) with ``policy`` for both players; raises ``PolicySpecError`` for a bad spec and
    ``stops.Stopped`` on Ctrl-C or SIGTERM (its workers stopped, none left behind)."""
    player = make_policy(policy, config.mulligan)  # the user's own spec, named on this command line
    spec = player.spec
    check = replace(config, policy_a=spec, policy_b=spec, matchups=[],
                    python_players={} if player.builtin else {spec: spec})
    check.plan()
    chosen, seen = [], set()
    for m in check.matchups:
        pair = frozenset((m.deck, m.opponent))
        names = {config.decks[m.deck].name, config.decks[m.opponent].name}
        if pair in seen or (decks and not names & decks):
            continue
        seen.add(pair)
        chosen.append(m)
        if len(chosen) >= max_matchups:
            break
    # the first games of each chosen matchup, derived alone (the run's plan may hold millions)
    jobs: dict[int, list[GameJob]] = {m.index: [check.job(m.index * check.games + k)
                                                 for k in range(min(games, check.games))] for m in chosen}
    todo = [(check, j) for m in chosen for j in jobs[m.index]]
    workers = workers or os.cpu_count() or 1
    results: dict[int, bool] = {}
    try:
        if workers > 1 and len(todo) > 1:
            pool = stops.pool(workers)  # its workers stop with the command, and none is left behind
            failed = True
            try:
                for no, won in pool.map(_play, todo, chunksize=2):
                    results[no] = won
                    if progress:
                        progress(1)
                failed = False
            finally:
                stops.close(pool, stopping=failed)
        else:
            for t in todo:
                no, won = _play(t)
                results[no] = won
                if progress:
                    progress(1)
    except (KeyboardInterrupt, _core.Cancelled):  # Ctrl-C or SIGTERM (``stops``): the games played are dropped
        raise stops.current().stopped(len(results), len(todo)) from None
    return [CheckedMatchup(m.label, config.decks[m.deck].name, config.decks[m.opponent].name, spec,
                           tuple(j.game_no for j in jobs[m.index]), sum(results[j.game_no] for j in jobs[m.index]))
            for m in chosen]
