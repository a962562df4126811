"""One game between two players, driven from Python one decision at a time (the slow path: a
batch of built-in players plays inside the core, ``_core.play_batch``, with the same games)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from mythos_cli import _core
from mythos_cli.policies.observation import Observation, Policy


class Deck(Protocol):
    """What a game needs of a deck: its name, its 30 cards and 3 missions as version ids."""

    name: str
    cards: tuple[str, ...]
    missions: tuple[str, ...]


class PlayerError(RuntimeError):
    """A player written in Python failed: it raised (``SystemExit`` too), did not answer in time,
    or answered with an action that is not legal."""


# the time a player written in Python has for each decision (and for ``reset``): ``--player-timeout``
# sets it for the command and its worker processes (they inherit the environment)
PLAYER_TIMEOUT_ENV = "MYTHOS_PLAYER_TIMEOUT"
DEFAULT_PLAYER_TIMEOUT = 60.0


def player_timeout() -> float:
    """Seconds a Python player has for a decision (``MYTHOS_PLAYER_TIMEOUT``, default 60)."""
    try:
        t = float(os.environ.get(PLAYER_TIMEOUT_ENV, DEFAULT_PLAYER_TIMEOUT))
    except ValueError:
        return DEFAULT_PLAYER_TIMEOUT
    return t if t > 0 else DEFAULT_PLAYER_TIMEOUT


class _TimedOut(BaseException):
    """The alarm of ``_time_limit`` (a BaseException: the player's own ``except Exception`` cannot keep it)."""


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Interrupt the Python code inside after ``seconds`` (an interval timer: the main thread only;
    elsewhere, as on a Dask worker's thread, there is no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def alarm(signum, frame):
        raise _TimedOut

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _player_name(policy) -> str:
    return getattr(policy, "spec", None) or getattr(policy, "name", type(policy).__name__)


def _reset(policy, seed: int) -> None:
    if getattr(policy, "builtin", False):
        policy.reset(seed)
        return
    limit = player_timeout()
    try:
        with _time_limit(limit):
            policy.reset(seed)
    except _TimedOut:
        raise PlayerError(f"player {_player_name(policy)} did not answer within {limit:g} s in reset(seed), before "
                          "the game; give it longer with --player-timeout SECONDS") from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's code: name it, no traceback
        raise PlayerError(f"player {_player_name(policy)} failed in reset(seed), before the game: "
                          f"{type(exc).__name__}: {exc}") from None


@dataclass(slots=True)
class MatchResult:
    winner: int  # 0 or 1 (the seat)
    scores: tuple[int, int]
    game: Any  # the finished _core.Game


def new_game(deck_a: Deck, deck_b: Deck, seed: int, *, events: bool = False, first: int | None = None):
    """A core game, seat 0 with ``deck_a``, set up from ``seed`` (shuffles, Edge, mission deck)."""
    return _core.Game(list(deck_a.cards), list(deck_a.missions), list(deck_b.cards), list(deck_b.missions), seed,
                      events=events, first=first, names=(deck_a.name, deck_b.name))


def play_match(deck_a: Deck, deck_b: Deck, policy_a: Policy, policy_b: Policy, seed: int, *, events: bool = False,
               first: int | None = None, check: Callable[[Any], None] | None = None,
               mulligans: tuple[bool | None, bool | None] = (None, None)) -> MatchResult:
    """A complete game; seat 0 plays ``deck_a`` with ``policy_a``. Deterministic given ``seed``:
    the players are reset with ``seed * 2 + 1`` and ``seed * 2 + 2``, as the core's batches do.
    ``check`` (read-only) sees the game after every decision. ``mulligans``: per seat, a forced
    mulligan answer (True: mulligan), which that seat's player is not asked (the core's
    ``play_match_forced``)."""
    g = new_game(deck_a, deck_b, seed, events=events, first=first)
    _reset(policy_a, seed * 2 + 1)
    _reset(policy_b, seed * 2 + 2)
    policies = (policy_a, policy_b)
    while not g.is_terminal:
        if _core.cancelled():  # a stop (Ctrl-C, SIGTERM: ``mythos_cli.stops``): the searches gave up, so the game
            raise _core.Cancelled("stopped during a game")  # is not the one it would be
        player = g.current_player
        policy = policies[player]
        if mulligans[player] is not None and g.pending()["kind"] == "mulligan":
            g.apply(("choose", bool(mulligans[player])))
        elif getattr(policy, "builtin", False):
            g.apply(policy.decide(Observation(g, player)))
        else:
            _python_decision(g, player, policy)
        if check is not None:
            check(g)
    if _core.cancelled():
        raise _core.Cancelled("stopped during a game")
    return MatchResult(g.winner, tuple(g.scores()), g)


def _python_decision(g, player: int, policy: Policy) -> None:
    """One decision of a Python player; what goes wrong is the player's, said with its name."""
    name = _player_name(policy)
    obs = Observation(g, player)
    limit = player_timeout()
    try:
        with _time_limit(limit):
            action = policy.decide(obs)
    except _TimedOut:
        raise PlayerError(f"player {name} did not answer within {limit:g} s in round {g.round} ({obs.kind} decision); "
                          "fix the player, or give it longer with --player-timeout SECONDS") from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's code (SystemExit too): name it, no traceback
        raise PlayerError(f"player {name} failed in round {g.round} ({obs.kind} decision): "
                          f"{type(exc).__name__}: {exc}") from exc
    try:
        g.apply(tuple(action) if isinstance(action, (list, tuple)) else action)
    except (_core.IllegalAction, TypeError, ValueError) as exc:
        asked = f"{obs.kind} decision" + (f": {obs.prompt}" if obs.prompt else "")
        raise PlayerError(f"player {name} answered {action!r} in round {g.round} ({asked}), which is not legal: "
                          f"{exc}") from None
