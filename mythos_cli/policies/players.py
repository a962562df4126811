"""Players by their spec: the built-in ones of the rules core, and players written in Python.

A spec names a built-in player with its parameters (``greedy``, ``lookahead:sims=24,width=5``;
the core parses and checks them) or a Python player as ``FILE.py:CLASS`` or
``package.module:CLASS``: a class with ``reset(seed)`` and ``decide(obs)`` (see
``mythos_cli.policies.observation``), made with no arguments, one per game.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path

from mythos_cli import _core
from mythos_cli.policies.observation import Observation

#: the built-in players, in the order help and error messages list them
POLICY_NAMES: tuple[str, ...] = tuple(_core.PLAYER_NAMES)
#: the mulligan rules a run may impose on every player (``never`` is ``keep``)
MULLIGANS: tuple[str, ...] = tuple(_core.MULLIGAN_NAMES)


class PolicySpecError(ValueError):
    """A spec the tool cannot make a player of; the message says why and what exists."""


class CorePlayer:
    """A built-in player: it decides inside the rules core, from its player's view only."""

    builtin = True

    def __init__(self, spec: str, mulligan: str | None = None):
        try:
            self._player = _core.Player(spec, mulligan)
        except ValueError as exc:
            raise PolicySpecError(str(exc)) from None
        self.spec: str = self._player.spec
        self.name: str = self.spec.partition(":")[0]
        self.mulligan: str = self._player.mulligan

    def reset(self, seed: int) -> None:
        self._player.reset(seed)

    def decide(self, obs: Observation) -> tuple:
        return self._player.decide(obs._game)

    def __repr__(self) -> str:
        return f"CorePlayer({self.spec!r})"


class PythonPlayer:
    """A player written in Python (``FILE.py:CLASS``), made fresh for every game; a run's mulligan
    rule, when it imposes one, answers its mulligans (the rule as the built-in players apply it)."""

    builtin = False

    def __init__(self, spec: str, cls: type, mulligan: str | None = None):
        self.spec = spec
        self._cls = cls
        self._player = _make(cls, spec)
        self.name: str = str(getattr(self._player, "name", cls.__name__))
        self.mulligan: str = mulligan or "its own"
        self._rule = CorePlayer("greedy", mulligan) if mulligan else None

    def reset(self, seed: int) -> None:
        self._player = _make(self._cls, self.spec)
        self._player.reset(seed)

    def decide(self, obs: Observation) -> tuple:
        if self._rule is not None and obs.kind == "mulligan":
            return self._rule.decide(obs)
        return tuple(self._player.decide(obs))

    def __repr__(self) -> str:
        return f"PythonPlayer({self.spec!r})"


def _make(cls: type, spec: str):
    try:
        player = cls()
    except Exception as exc:  # noqa: BLE001 - the user's code: say what it raised, no traceback
        raise PolicySpecError(f"{spec}: {cls.__name__}() failed: {type(exc).__name__}: {exc}") from None
    for method in ("reset", "decide"):
        if not callable(getattr(player, method, None)):
            raise PolicySpecError(f"{spec}: {cls.__name__} has no {method}() method; a player needs "
                                  "reset(seed) and decide(obs) (see mythos_cli.policies.observation)")
    return player


def _is_python_spec(spec: str) -> bool:
    head, sep, _ = spec.rpartition(":")
    return bool(sep) and (head.endswith(".py") or ("." in head and "=" not in head))


def _load_class(spec: str) -> type:
    head, _, name = spec.rpartition(":")
    if head.endswith(".py"):
        path = Path(head).expanduser().resolve()
        if not path.is_file():
            raise PolicySpecError(f"{spec}: no such file {head!r}; a Python player is FILE.py:CLASS")
        module_name = "mythos_player_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
        module = sys.modules.get(module_name)
        if module is None:
            loader = importlib.util.spec_from_file_location(module_name, path)
            if loader is None or loader.loader is None:
                raise PolicySpecError(f"{spec}: {head} cannot be imported as Python")
            module = importlib.util.module_from_spec(loader)
            try:
                loader.loader.exec_module(module)
            except Exception as exc:  # noqa: BLE001 - the user's file: say what failed, no traceback
                raise PolicySpecError(f"{spec}: importing {head} failed: {type(exc).__name__}: {exc}") from None
            sys.modules[module_name] = module
    else:
        try:
            module = importlib.import_module(head)
        except Exception as exc:  # noqa: BLE001
            raise PolicySpecError(f"{spec}: importing {head} failed: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, name, None)
    if not isinstance(cls, type):
        raise PolicySpecError(f"{spec}: {head} has no class {name!r}")
    return cls


def make_policy(spec: str, mulligan: str | None = None) -> CorePlayer | PythonPlayer:
    """The player of a spec: ``greedy``, ``lookahead:sims=200,time=0.5``, or ``my_player.py:Mine``.

    ``mulligan`` imposes a mulligan rule (``keep``, ``heuristic``, ``always``) instead of the
    player's own. A bad spec raises ``PolicySpecError`` naming what is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise PolicySpecError(f"empty policy; choose from {', '.join(POLICY_NAMES)}")
    if mulligan is not None and mulligan not in MULLIGANS:
        raise PolicySpecError(f"unknown mulligan policy {mulligan!r}; choose from {', '.join(MULLIGANS)}")
    spec = spec.strip()
    if spec.partition(":")[0].lower() not in POLICY_NAMES and _is_python_spec(spec):
        return PythonPlayer(spec, _load_class(spec), mulligan)
    return CorePlayer(spec, mulligan)
