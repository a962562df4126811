"""Players by their spec: the built-in ones of the rules core, and players written in Python.

A spec names a built-in player with its parameters (``greedy``, ``lookahead:sims=24,width=5``;
the core parses and checks them) or a Python player as ``FILE.py:CLASS`` or
``package.module:CLASS``: a class with ``reset(seed)`` and ``decide(obs)`` (see
``mythos_cli.policies.observation``), made with no arguments, one per game.

A spec stored in a database is data, never code: a database may come from anyone, and
importing the file or module it names would run it. ``make_policy`` is for the specs the user
types; ``stored_policy`` rebuilds a stored one, and rebuilds only built-in players: a stored
Python player is played only by the file the user names again on the command line
(``stand_ins``), never imported from the stored text.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import itertools
import sys
from collections.abc import Mapping
from pathlib import Path

from mythos_cli import _core
from mythos_cli.policies.observation import Observation

#: the built-in players, in the order help and error messages list them
POLICY_NAMES: tuple[str, ...] = tuple(_core.PLAYER_NAMES)
#: the reference setting: the strongest the engine plays in about a second a game on one core
#: (``core/src/players/spec.rs``, ``PRESETS``); ``report --check-policy`` and the benchmarks re-play
#: with it to show how far a verdict could still move
REFERENCE_POLICY = "search:strong"
#: the mulligan rules a run may impose on every player (``never`` is ``keep``)
MULLIGANS: tuple[str, ...] = tuple(_core.MULLIGAN_NAMES)


class PolicySpecError(ValueError):
    """A spec the tool cannot make a player of; the message says why and what exists."""


class StoredPythonPlayer(PolicySpecError):
    """A stored player written in Python, which mythos never imports from a database: the user
    may trust it by naming its file again (``hint`` says how)."""

    def __init__(self, spec: str, hint: str = ""):
        super().__init__(f"the player {spec} is written in Python, and a player stored in a database is never "
                         "imported (the file is anyone's: importing it would run its code)")
        self.spec, self.hint = spec, hint


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


MAX_ANSWER = 16  # values in a Python player's answer, at most (an action holds a handful)


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
        answer = self._player.decide(obs)
        if isinstance(answer, (tuple, list)):
            return tuple(answer)
        # any other iterable is read up to one value past the longest action (an endless one was
        # read until the memory ran out)
        values = tuple(itertools.islice(iter(answer), MAX_ANSWER + 1))
        if len(values) > MAX_ANSWER:
            raise ValueError(f"an answer of more than {MAX_ANSWER} values ({type(answer).__name__}); an action is a "
                             "short tuple such as ('pass',) or one of obs.legal")
        return values

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


def is_python_spec(spec: str) -> bool:
    """Whether ``spec`` names a player written in Python (``FILE.py:CLASS``, ``pkg.module:CLASS``)
    rather than a built-in one; decided from the text alone, nothing imported."""
    if not isinstance(spec, str):
        return False
    spec = spec.strip()
    if spec.partition(":")[0].lower() in POLICY_NAMES:
        return False
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
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's file: say what failed, no traceback
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
    if is_python_spec(spec):
        return PythonPlayer(spec, _load_class(spec), mulligan)
    return CorePlayer(spec, mulligan)


def stored_policy(spec: str, mulligan: str | None = None,
                  named: Mapping[str, str] | None = None) -> CorePlayer | PythonPlayer:
    """The player of a spec read from a database (or a run's plan): a built-in player is rebuilt
    from it; a Python player only from the spec the user named this time for it (``named``:
    stored spec -> the user's spec, see ``stand_ins``), and keeps the stored spec as its name, so
    the games it plays are the run's. Without one, ``StoredPythonPlayer``: nothing is imported."""
    if not isinstance(spec, str) or not spec.strip():
        raise PolicySpecError(f"the stored player {spec!r} is empty; players: {', '.join(POLICY_NAMES)}")
    if mulligan is not None and mulligan not in MULLIGANS:
        raise PolicySpecError(f"the stored mulligan rule {mulligan!r} is unknown; rules: {', '.join(MULLIGANS)}")
    if not is_python_spec(spec):
        return CorePlayer(spec, mulligan)
    given = (named or {}).get(spec)
    if given is None:
        raise StoredPythonPlayer(spec)
    player = make_policy(given, mulligan)  # the user's own spec: theirs to trust
    if player.builtin:
        raise PolicySpecError(f"{given}: a built-in player cannot stand in for the Python player {spec}")
    player.spec = spec
    return player


def mulligan_of(spec: str) -> str:
    """The mulligan rule a stored player plays by, from its spec alone (a Python player's own
    rule is its own business: "its own"); "unknown" for a spec the core does not know."""
    if is_python_spec(spec):
        return "its own"
    try:
        return _core.Player(spec, None).mulligan
    except (ValueError, TypeError):
        return "unknown"


#: the sides of a run: who they are, and the options that name their players
SIDES = {"a": "the studied decks", "b": "the opponents"}
SIDE_OPTIONS = {"a": "--policy-a", "b": "--policy-b"}


def stand_ins(stored: Mapping[str, str], policy: str | None = None, sides: Mapping[str, str | None] | None = None,
              *, command: str = "", options: Mapping[str, str] = SIDE_OPTIONS) -> tuple[dict[str, str], list[str]]:
    """Which file the user named for each of a stored run's Python players.

    ``stored``: side (``a`` the studied decks, ``b`` the opponents) -> the stored spec. The user's
    ``policy`` names the player of every Python side, ``sides`` (side -> spec, by the options
    ``options``) one side. Returns ``{stored spec: the user's spec}`` for ``stored_policy`` and a
    line per stand-in to tell the user. Raises ``StoredPythonPlayer`` for a Python side the user
    named nothing for (its hint: ``command`` again with the option), and ``PolicySpecError`` for a
    name given to a built-in side (it would be ignored), a built-in spec for a Python side, or a
    file that cannot be a player."""
    own = {side: (sides or {}).get(side) for side in stored}
    python = {side: spec for side, spec in stored.items() if is_python_spec(spec)}
    for side, spec in stored.items():
        if side not in python and own[side]:
            raise PolicySpecError(f"{options.get(side, '--policy')} would be ignored: the player of {SIDES[side]} is "
                                  f"{spec}, a built-in player, rebuilt from the run")
    if not python:
        if policy:
            raise PolicySpecError(f"--policy would be ignored: the run's players are built in "
                                  f"({', '.join(dict.fromkeys(stored.values()))}) and rebuilt from the run")
        return {}, []
    for side, spec in python.items():
        if not (own[side] or policy):
            one = len(set(stored.values())) == 1 or side not in options
            option = "--policy" if one else options[side]
            raise StoredPythonPlayer(spec, f"if you trust {spec}, name its file again: "
                                           f"{command + ' ' if command else ''}{option} {spec}")
    named: dict[str, str] = {}
    lines: list[str] = []
    for side, spec in python.items():
        user = (own[side] or policy or "").strip()
        if not is_python_spec(user):
            raise PolicySpecError(f"{user}: a built-in player cannot stand in for the run's Python player {spec} "
                                  f"({SIDES[side]}); name its file, FILE.py:CLASS")
        if named.get(spec, user) != user:
            raise PolicySpecError(f"{spec} plays both sides of the run: name one file for it, not "
                                  f"{named[spec]} and {user}")
        make_policy(user)  # the user's file, named this time: one that is no player is refused now
        named[spec] = user
        line = (f"the run's Python player {spec} is played by {user}, named on the command line "
                "(a stored player is never imported)")
        if line not in lines:
            lines.append(line)
    return named, lines
