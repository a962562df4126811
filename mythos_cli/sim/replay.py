"""Replay one game turn by turn, in the game's own words, from its seed.

A stored game is played again from the run's plan (its seed, seats, decks and players)
through ``mythos_cli.sim.game.play_game``, the function that played it, and its event
stream is told as a list of steps: the mulligans, each round's mission and chakra, every
play and reveal with its price, what each effect did and to whom, passes and the Edge, each
mission's Power and winner, and the scores. Nothing beyond the seed needs storing; the replay
is then recorded as a run would record it and compared with the stored row, and a replay that
does not give the stored game back raises ``ReplayMismatch`` (never a silent difference).

Units are named from the state after each decision (the engine's events carry unit ids).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from mythos_cli import __version__
from mythos_cli.catalog import default_catalog
from mythos_cli.sim.game import game_setup, play_game
from mythos_cli.sim.plan import DeckSpec, GameJob, RunConfig
from mythos_cli.store.layout import GAME_DATA, SETUP, SETUP_SEP


class ReplayError(Exception):
    """A replay that cannot be made (unknown run or game), with a hint."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


class ReplayMismatch(ReplayError):
    """The replayed game is not the stored one (another engine, catalog or plan)."""


@dataclass
class Step:
    round: int  # 0: before round 1 (deal, missions, mulligans)
    kind: str  # the engine's event kind ("play", "mission_result", …) or "score" for a round's end
    player: int | None  # the seat that acts or is concerned (0 or 1), None for the game
    text: str  # in the game's words, players as P1 (seat 0) and P2 (seat 1)
    effect: bool = False  # a consequence of the play or pass before it (an effect, a trigger)
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"round": self.round, "kind": self.kind, "player": self.player, "text": self.text,
                "effect": self.effect, **self.data}


@dataclass
class Replay:
    seed: int
    seats: list[dict]  # per seat: deck, policy
    steps: list[Step]
    winner: int
    scores: tuple[int, int]
    round_scores: list[list[int]]
    tiebreak_by_edge: bool
    first_edge: int
    run_id: str | None = None
    game_no: int | None = None
    matchup: str | None = None
    checked: bool = False  # compared with the stored game, field by field
    notes: list[str] = field(default_factory=list)  # what the user should know (a Python player named)

    def to_json(self) -> dict:
        return {"run": self.run_id, "game": self.game_no, "matchup": self.matchup, "seed": self.seed,
                "seats": self.seats, "first_edge": self.first_edge, "winner": self.winner,
                "scores": list(self.scores), "round_scores": self.round_scores,
                "tiebreak_by_edge": self.tiebreak_by_edge, "checked_against_stored_game": self.checked,
                "steps": [s.to_dict() for s in self.steps]}


# -- playing ------------------------------------------------------------------------------------
class _Watcher:
    """After every decision: how many events there are, the units in play, who holds the Edge."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.units: list[dict[int, tuple[str, int]]] = []
        self.edges: list[int] = []

    def __call__(self, g) -> None:  # a _core.Game
        self.counts.append(g.num_events())
        self.units.append({u["uid"]: (g.card_id(u["stack"][-1]), u["controller"]) for u in g.units()})
        self.edges.append(g.edge)

    def decision_of(self, event_index: int) -> int:
        """The decision whose application emitted event ``event_index`` (-1: the deal)."""
        return bisect.bisect_right(self.counts, event_index)

    def unit(self, uid: int, event_index: int) -> tuple[str, int] | None:
        k = self.decision_of(event_index)
        for j in (k - 1, k):  # in play before the decision, or put there by it
            if 0 <= j < len(self.units) and uid in self.units[j]:
                return self.units[j][uid]
        return next((u[uid] for u in self.units if uid in u), None)

    def edge_after(self, event_index: int) -> int | None:
        k = self.decision_of(event_index)
        return self.edges[k] if k < len(self.edges) else None


def _play(config: RunConfig, job: GameJob):
    setup = game_setup(config, job)
    watcher = _Watcher()
    state = play_game(config, job, setup, watch=watcher)
    return setup, state, watcher


def replay_config(config: RunConfig, game_no: int, *, run_id: str | None = None) -> tuple[Replay, Any, GameJob]:
    job = config.job(game_no)  # derived alone (issue 20's lazy plan), not the whole run's jobs
    if job is None:
        raise ReplayError(f"run {run_id or ''} has no game {game_no}".replace("  ", " "),
                          f"its games are numbered 0 to {config.planned_games() - 1}")
    setup, state, watcher = _play(config, job)
    replay = tell(state, watcher, [{"deck": setup.decks[s].name, "policy": setup.policies[s]} for s in (0, 1)],
                  job.seed)
    replay.run_id, replay.game_no, replay.matchup = run_id, game_no, setup.matchup
    return replay, state, job


def replay_seed(deck_a: DeckSpec, deck_b: DeckSpec, seed: int, *, policy_a: str = "greedy",
                policy_b: str | None = None, mulligan: str | None = None) -> Replay:
    """A new game: ``deck_a`` in seat 0 (P1), ``deck_b`` in seat 1, from ``seed``."""
    from mythos_cli.policies.players import is_python_spec

    specs = (policy_a, policy_b or policy_a)
    config = RunConfig(decks=[deck_a, deck_b], opponents=[1], studied=[0], games=1, policy_a=specs[0],
                       policy_b=specs[1], mulligan=mulligan, seed=0, mirrors=True,
                       python_players={s.strip(): s for s in specs if is_python_spec(s)})  # the user's own
    config.plan()
    setup, state, watcher = _play(config, GameJob(0, 0, 0, seed))
    return tell(state, watcher, [{"deck": setup.decks[s].name, "policy": setup.policies[s]} for s in (0, 1)], seed)


def replay_stored(store, run_id: str, game_no: int, *, policy: str | None = None,
                  policy_b: str | None = None) -> Replay:
    """Replay game ``game_no`` of a stored run and check it against the stored row.

    The run's built-in players are rebuilt from the run; a Python player is played only by the
    file the user names again (``policy``: every Python side, ``policy_b``: the opponents'), never
    imported from the database (``ReplayError`` saying how to name it)."""
    from mythos_cli import _core
    from mythos_cli.sim.record import core_frame
    from mythos_cli.sim.runner import catalog_hash, load_config
    from mythos_cli.store import StoreError
    from mythos_cli.store.read import stored_game

    try:
        config = load_config(store, run_id)
    except StoreError as exc:
        raise ReplayError(str(exc)) from None
    known = default_catalog().by_id
    for deck in config.decks:  # a stored deck is data: a card the catalog lacks is said, not a ValueError
        unknown = next((c for c in (*deck.cards, *deck.missions) if c not in known), None)
        if unknown is not None:
            raise ReplayError(f"run {run_id}: its stored deck {deck.name!r} holds {unknown!r}, a card this mythos does "
                              "not know, so its games cannot be played again",
                              "the database was changed by hand or written by a mythos with more cards; its games "
                              "can still be reported")
    from mythos_cli.policies.players import PolicySpecError, StoredPythonPlayer, stand_ins
    from mythos_cli.sim.game import check_players

    try:
        config.python_players, notes = stand_ins(
            {"a": config.policy_a, "b": config.policy_b}, policy, {"b": policy_b},
            command=f"mythos replay {run_id} {game_no} --db {store.path}", options={"b": "--policy-b"})
        check_players(config)
    except StoredPythonPlayer as exc:
        raise ReplayError(str(exc), exc.hint) from None
    except PolicySpecError as exc:
        raise ReplayError(f"run {run_id} cannot be replayed: {exc}",
                          "replay it with its own players; a Python player's file is named with --policy FILE.py:CLASS"
                          ) from None
    row = stored_game(store, run_id, game_no)
    if row is None:
        done = store.query("SELECT count(*) AS n FROM game_data WHERE run_id = ?", [run_id])["n"][0]
        raise ReplayError(f"run {run_id} has no stored game {game_no}",
                          f"it stores {done} of its {config.planned_games()} planned games (numbered from 0)")
    replay, state, job = replay_config(config, game_no, run_id=run_id)
    rec = _core.Recorder(store.run_cards(run_id))
    rec.add(state, job.seat_of_deck)
    meta = {"run_id": [run_id], "game_no": [game_no], "batch_no": [row["batch_no"]], "seed": [job.seed],
            "setup_key": [game_setup(config, job).key]}
    mine = core_frame(rec.columns(), meta).row(0, named=True)
    differ = [c for c, _ in GAME_DATA if c not in ("setup", "run_id") and _norm(mine[c]) != _norm(row[c])]
    differ += [f"setup {name}" for name, value in zip(SETUP, mine["setup_key"].split(SETUP_SEP))
               if value != row[name]]
    if differ:
        info = store.run(run_id) or {}
        if info.get("catalog_hash") != catalog_hash():
            hint = "probably the card catalog changed since the run; replay it with the mythos that played it, or " \
                   "simulate the decks again"
        elif info.get("engine_version") != __version__:
            hint = f"probably the run was played by mythos {info.get('engine_version')}, whose play differs; replay " \
                   "it with that mythos, or simulate the decks again"
        else:  # this very mythos played it, with these cards: the row is not what it stored
            hint = "this mythos played the run with these cards, so the stored game was changed after it was stored " \
                   "(by hand, or a damaged file): trust no figure of this run; simulate the decks again"
        stored = f"P{row['flags'] >> 3 & 3} won {row['score_0']}–{row['score_1']}" if row["flags"] >> 3 & 3 else \
            f"no winner, {row['score_0']}–{row['score_1']}"
        raise ReplayMismatch(
            f"replaying game {game_no} of run {run_id} does not give the stored game back ({', '.join(differ)} "
            f"differ; stored: {stored}; replayed: P{replay.winner + 1} won {replay.scores[0]}–{replay.scores[1]})",
            hint)
    replay.checked = True
    replay.notes = notes
    return replay


def _norm(v):
    return list(v) if isinstance(v, (list, tuple)) or hasattr(v, "to_list") else v


# -- telling ------------------------------------------------------------------------------------
_HOW = {"face_up": "face up", "hidden": "hidden", "upgrade": "as an upgrade"}
_DEST = {"hand": "its owner's hand", "discard": "the discard pile", "deck": "the deck"}


def tell(g, w: _Watcher, seats: list[dict], seed: int) -> Replay:
    """The story of a finished core game (``_core.Game`` with its event stream)."""
    cat = default_catalog()
    n_cards = g.num_cards()

    def card(cid: str) -> str:
        c = cat.by_id.get(cid)
        return f"{c.name} ({cid})" if c is not None else cid

    def inst(i: int) -> str:
        return card(g.card_id(i)) if 0 <= i < n_cards else f"card #{i}"

    def who(p: int) -> str:
        return f"P{p + 1}"

    missions: list[tuple[str, str]] = []  # in play, by index: (id, rank)

    def mission(mi: int) -> str:
        if 0 <= mi < len(missions):
            cid, rank = missions[mi]
            c = cat.by_id.get(cid)
            return f"mission {mi + 1} ({c.name if c else cid}, {rank})"
        return f"mission {mi + 1}"

    steps: list[Step] = []
    rnd_scores = g.round_scores()
    mulliganed = (g.player(0)["mulliganed"], g.player(1)["mulliganed"])
    last_round = 0
    passed: set[int] = set()

    def add(rnd, kind, player, text, effect=False, **data):
        steps.append(Step(rnd, kind, player, text, effect, data))

    def end_round(r: int) -> None:
        if 1 <= r <= len(rnd_scores):
            a, b = rnd_scores[r - 1]
            ta = sum(x[0] for x in rnd_scores[:r])
            tb = sum(x[1] for x in rnd_scores[:r])
            add(r, "score", None, f"End of round {r}: P1 scores {a}, P2 {b}; total P1 {ta} – P2 {tb}.",
                points=[a, b], total=[ta, tb])

    for i, ev in enumerate(g.events()):
        r, kind, args = ev[0], ev[1], ev[2:]
        if r != last_round:
            end_round(last_round)
            last_round, passed = r, set()

        def unit(uid: int) -> str:
            u = w.unit(uid, i)
            return f"{card(u[0])} of {who(u[1])}" if u else f"a character (unit {uid})"

        if kind == "dealt":
            add(r, kind, args[0], f"{who(args[0])} is dealt {', '.join(card(c) for c in args[1])}.", cards=args[1])
        elif kind == "setup":
            add(r, kind, args[0], f"{who(args[0])} holds the Edge first. Missions, in the order they come into "
                                  f"play: {', '.join(card(c) for c in args[1])}.", missions=args[1])
        elif kind == "mulligan":
            add(r, kind, args[0], f"{who(args[0])} " + ("mulligans: 5 new cards." if args[1] else "keeps the hand."),
                mulligan=bool(args[1]))
        elif kind == "opening":
            if mulliganed[args[0]]:
                add(r, kind, args[0], f"{who(args[0])}'s new hand: {', '.join(card(c) for c in args[1])}.",
                    cards=args[1])
        elif kind == "mission":
            missions.append((args[0], args[1]))
            add(r, kind, None, f"Round {r}: {card(args[0])} comes into play as mission {len(missions)}, rank "
                               f"{args[1]}.", mission=args[0], rank=args[1])
        elif kind == "chakra":
            add(r, kind, args[0], f"{who(args[0])} gets {args[1]} chakra.", chakra=args[1])
        elif kind == "draw":
            if r >= 1:  # round 0's draws are the deal, told by "dealt"
                add(r, kind, args[0], f"{who(args[0])} draws {inst(args[1])}.", card=g.card_id(args[1]))
        elif kind == "play":
            p, cid, mi, how, price = args
            what = "a card hidden" + f" ({card(cid)})" if how == "hidden" else card(cid) + " " + _HOW.get(how, how)
            add(r, kind, p, f"{who(p)} plays {what} on {mission(mi)} for {price} chakra.", card=cid,
                mission=mi + 1, how=how, cost=price)
        elif kind == "reveal":
            p, cid, mi, price = args
            add(r, kind, p, f"{who(p)} reveals {card(cid)} on {mission(mi)} for {price} chakra.", card=cid,
                mission=mi + 1, cost=price)
        elif kind == "attach":
            p, cid, mi, how, price = args
            if how == "character":
                add(r, kind, p, f"{card(cid)} of {who(p)} becomes an attachment on {mission(mi)}.", True, card=cid)
            else:
                face = "face down" if how == "hidden" else "face up"
                add(r, kind, p, f"{who(p)} attaches {card(cid)} {face} on {mission(mi)} for {price} chakra.",
                    card=cid, mission=mi + 1, how=how, cost=price)
        elif kind == "reveal_attachment":
            p, cid, mi, price = args
            add(r, kind, p, f"{who(p)} reveals the attachment {card(cid)} on {mission(mi)} for {price} chakra.",
                card=cid, mission=mi + 1, cost=price)
        elif kind == "pass":
            p = args[0]
            edge = w.edge_after(i)
            first = not passed
            passed.add(p)
            note = " first and takes the Edge" if first and edge == p else " first" if first else ""
            add(r, kind, p, f"{who(p)} passes{note}.", edge=None if edge is None else edge)
        elif kind == "mission_result":
            mi, a, b, winner = args
            res = f"{who(winner)} wins it" if winner >= 0 else "nobody wins it"
            edge = w.edge_after(i)
            add(r, kind, winner if winner >= 0 else None,
                f"{mission(mi)}: Power P1 {a} – P2 {b}; {res}"
                + (f" (P{edge + 1} holds the Edge)" if edge is not None and a == b and winner >= 0 else "") + ".",
                mission=mi + 1, power=[a, b], winner=winner)
        elif kind == "game_over":
            winner, a, b = args
            add(r, kind, winner, f"Game over: P1 {a} – P2 {b}. {who(winner)} wins"
                + (" on the Edge tie-break." if g.tiebreak_by_edge else "."), scores=[a, b], winner=winner)
        else:
            add(r, kind, _player_of(kind, args), _effect_text(kind, args, who, card, inst, unit, mission), True)
    end_round(last_round) if last_round and not any(s.kind == "score" and s.round == last_round for s in steps) \
        else None
    # the final round's score comes before "game over"
    over = [s for s in steps if s.kind == "game_over"]
    if over:
        steps = [s for s in steps if s.kind != "game_over"] + over
    return Replay(seed, seats, steps, g.winner, tuple(g.scores()), [list(x) for x in rnd_scores],
                  g.tiebreak_by_edge, g.first_edge)


def _player_of(kind: str, args: tuple) -> int | None:
    return args[0] if args and isinstance(args[0], int) and args[0] in (0, 1) else None


def _effect_text(kind, a, who, card, inst, unit, mission) -> str:
    """What an effect did, and to whom (the engine's effect events)."""
    k = kind
    if k == "powerup":
        return f"{unit(a[1])} gets {a[2]:+d} Power token{'s' if abs(a[2]) != 1 else ''}."
    if k == "chakra_gain":
        return f"{who(a[0])} gains {a[1]} chakra."
    if k == "chakra_steal":
        return f"{who(a[0])} takes {a[1]} chakra from {who(1 - a[0])}."
    if k == "discard":
        return f"{who(a[0])} discards {inst(a[1])}."
    if k == "look":
        return f"{who(a[0])} looks at hidden cards."
    if k == "edge":
        return f"{who(a[0])} takes the Edge."
    if k == "points":
        return f"{who(a[0])} scores {a[1]} point{'s' if a[1] != 1 else ''}."
    if k == "move":
        return f"{unit(a[1])} moves to {mission(a[2])}."
    if k == "hide":
        return f"{unit(a[1])} is turned face down (hidden)."
    if k == "defeat":
        return f"{unit(a[1])} is defeated."
    if k == "leave":
        return f"{unit(a[1])} leaves play for {_DEST.get(a[2], a[2])}."
    if k == "control":
        return f"{who(a[0])} takes control of {unit(a[1])}."
    if k == "copy":
        return f"{who(a[0])} copies the {a[2]} effect of {card(a[1])}."
    if k == "strip":
        what = card(a[2]) if isinstance(a[2], str) else f"{a[2]} card(s)"
        return f"{unit(a[1])} loses {what} from its stack."
    if k == "retrieve":
        return f"{who(a[0])} takes {inst(a[1])} from the discard pile into the hand."
    if k == "tax":
        return f"{unit(a[1])} costs {who(a[0])} {a[2]} more chakra."
    if k == "reveal_top":
        return f"{who(a[0])} reveals {card(a[1])} from the top of the deck."
    if k == "reveal_hand":
        return f"{who(a[0])} reveals {card(a[1])} from the hand."
    if k == "split":
        return f"the bottom card of {unit(a[1])} becomes {unit(a[2])} on {mission(a[3])}."
    if k == "discard_attachment":
        return f"the attachment {card(a[1])} of {who(a[0])} is discarded."
    if k == "move_attachment":
        return f"the attachment {card(a[1])} moves to {unit(a[2])}."
    return f"{k}: " + ", ".join(str(x) for x in a)
