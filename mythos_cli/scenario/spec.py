"""From a scenario file's board to a board spec: the plain description of a game state that the
rules core loads (``_core.Game.from_spec``; ``Spec`` in ``core/src/scenario.rs``).

A **board spec** is a JSON-able dict: every card instance by its version id (in instance order)
with its owner, each player's zones and counters, the missions in play with the units on each
side (stacks bottom → top, tokens, attachments, control links), the mission deck (top last), the
round, phase, Edge and turn. Keys (anything left out takes a fresh game's value): ``seed``,
``cards``, ``owner``, ``players`` (two dicts: ``hand``, ``deck`` (top last), ``discard``,
``missions``, ``set_aside``, ``chakra``, ``score``, ``passed``, ``plays_this_round``,
``attached_this_round``, ``mulliganed``), ``missions`` (``card``, ``rank`` 0-3, ``sides`` (two lists
of uids), ``attachments`` (two lists of instances), ``winner``), ``units`` (``uid``, ``stack``,
``owner``, ``controller``, ``mission``, ``hidden``, ``tokens``, ``played_round``, ``played_turn``,
``attachments``, ``controlled_by``, ``discounted``), ``mission_deck``, ``round``, ``phase``,
``edge``, ``first_edge``, ``current``, ``turn``, ``round_scores``, ``att_hidden``, ``att_power``
(pairs), ``edge_locked``, ``events`` (keep an event log), ``mulligan`` (the player whose mulligan
the board waits for: a round-0 board). A board from before the game gives only ``seed``,
``events`` and ``setup = {decks, missions, shuffle, edge}`` (decks top first; shuffled by
``new_game`` with the seed, or in the stated order).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from mythos_cli._core import RANKS, ROUNDS
from mythos_cli.catalog import Catalog

if TYPE_CHECKING:
    from mythos_cli.scenario.board import Board

PLAYERS = {"p1": 0, "p2": 1}


class ScenarioError(ValueError):
    """The scenario file itself is wrong (not an engine failure): file, place and fix."""


@dataclass(slots=True)
class UnitView:
    """A unit as the runner reads it (and writes it into a spec)."""

    uid: int
    stack: list[int]
    owner: int
    controller: int
    mission: int
    hidden: bool = False
    tokens: int = 0
    played_round: int = 0
    played_turn: int = -1
    attachments: list[int] = field(default_factory=list)
    controlled_by: int = -1
    discounted: bool = False


def _player(v: Any, where: str) -> int:
    if v in PLAYERS:
        return PLAYERS[v]
    if v in ("steps", "name", "seed"):
        raise ScenarioError(f"{where}: {v!r} landed inside a table: in TOML, top-level keys such as "
                            f"name, seed and steps must come before the first [table]")
    raise ScenarioError(f"{where}: player must be p1 or p2, not {v!r}")


class Builder:
    """A board spec under construction: card instances in the order
    the file names them, units numbered from 1 in the order they are written."""

    def __init__(self, catalog: Catalog, seed: int):
        self.catalog = catalog
        self.cards: list = []
        self.owner: list[int] = []
        self.seed = seed
        self.missions: list[dict] = []  # {card, rank, sides: ([UnitView], [UnitView]), attachments}
        self.next_uid = 1

    def card(self, ref: str, player: int, where: str) -> int:
        found = self.catalog.lookup(ref.strip())
        if not found.found:
            found = self.catalog.lookup(ref.strip(), prefer="mission")
        if not found.found:
            hint = f" (did you mean {found.suggestions[0].id}?)" if found.suggestions else ""
            raise ScenarioError(f"{where}: unknown card {ref!r}{hint}")
        self.cards.append(found.card)
        self.owner.append(player)
        return len(self.cards) - 1

    def units(self) -> list[UnitView]:
        """The units so far, in board order (for ``find_unit``)."""
        return [u for m in self.missions for side in m["sides"] for u in side]


UNIT_RE = re.compile(r"^(?:(hidden)\s+)?([A-Za-z0-9_>\- ]+?)(?:\+(\d+))?$")


def board_spec(doc: dict, catalog: Catalog, where: str) -> dict:
    """The board spec of a scenario file's board; a ScenarioError says what in the file is wrong."""
    board = doc.get("board", {})
    if board.get("phase") == "setup":
        return setup_spec(doc, catalog, where)
    b = Builder(catalog, int(doc.get("seed", 0)))
    players = [{"hand": [], "deck": [], "discard": [], "missions": [], "chakra": 0, "score": 0} for _ in range(2)]
    spec: dict[str, Any] = {"seed": b.seed, "events": True}
    if board.get("phase") == "mulligan":  # before the game: round 0, the next Start phase is round 1
        if board.get("round", 0) != 0:
            raise ScenarioError(f"{where} [board] round: the mulligans come before round 1 (round 0), not {board['round']}")
        if doc.get("mission"):
            raise ScenarioError(f"{where} [[mission]]: no mission is in play before round 1; give the missions as "
                                f"mission_deck = [...] (round 1 first) or write phase = \"setup\"")
        rnd = 0
    else:
        rnd = int(board.get("round", max(1, len(doc.get("mission", [])))))
    if not 1 <= rnd <= ROUNDS and board.get("phase") != "mulligan":
        raise ScenarioError(f"{where} [board] round: a game has rounds 1 to {ROUNDS}, not {rnd}")
    edge = _player(board.get("edge", "p1"), f"{where} [board] edge")
    round_scores = [[0, 0] for _ in range(rnd)]
    for key in ("chakra", "score"):
        for pl, v in board.get(key, {}).items():
            players[_player(pl, f"{where} [board] {key}")][key] = int(v)
    for pi, p in enumerate(players):  # scores given on the board count as scored before this scenario
        if p["score"] and round_scores:
            round_scores[0][pi] += p["score"]
    for zone in ("hand", "deck", "discard"):
        for pl, refs in doc.get(zone, {}).items():
            pi = _player(pl, f"{where} [{zone}]")
            insts = [b.card(r, pi, f"{where} [{zone}] {pl}") for r in refs]
            if zone == "deck":
                insts.reverse()  # written top first; the engine's top is the end of the list
            players[pi][zone].extend(insts)
    for pl, refs in doc.get("missions_left", {}).items():
        pi = _player(pl, f"{where} [missions_left]")
        players[pi]["missions"] = [b.card(r, pi, f"{where} [missions_left]") for r in refs]
    md = doc.get("mission_deck", [])
    mission_deck = [b.card(ref, 0 if i % 2 else 1, f"{where} mission_deck") for i, ref in enumerate(reversed(md))]
    att_hidden: list[int] = []
    for mi, m in enumerate(doc.get("mission", [])):
        here = f"{where} [[mission]] {mi + 1}"
        rank = m.get("rank", RANKS[mi] if mi < 4 else "A")
        if rank not in RANKS:
            raise ScenarioError(f"{here}: rank must be one of D, C, B, A")
        mission = {"card": b.card(m["card"], 0, here), "rank": RANKS.index(rank), "sides": ([], []),
                   "attachments": ([], [])}
        b.missions.append(mission)
        for pl in ("p1", "p2"):
            for unit in m.get(pl, []):
                _add_unit(b, att_hidden, mi, PLAYERS[pl], unit, f"{here} {pl}")
            for key, hidden in ((f"{pl}_attached", False), (f"{pl}_hidden_attached", True)):
                for ref in m.get(key, []):  # attachments on the mission, on that player's side
                    a = b.card(ref, PLAYERS[pl], f"{here} {key}")
                    mission["attachments"][PLAYERS[pl]].append(a)
                    if hidden:
                        att_hidden.append(a)
    phase = board.get("phase", "action")
    if phase not in ("action", "start", "evaluate", "end", "mulligan"):
        raise ScenarioError(f"{where} [board] phase must be setup, mulligan, action, start, evaluate or end")
    if phase == "start":
        rnd -= 1
        round_scores = round_scores[:-1] if round_scores else []
    current = _player(board.get("turn", board.get("edge", "p1")), f"{where} [board] turn")
    for pl in board.get("passed", []):
        players[_player(pl, f"{where} [board] passed")]["passed"] = True
    for pl, n in board.get("plays_this_round", {}).items():
        players[_player(pl, f"{where}")]["plays_this_round"] = int(n)
    units = b.units()
    spec.update(
        cards=[c.id for c in b.cards], owner=b.owner, players=players,
        missions=[{"card": m["card"], "rank": m["rank"], "sides": [[u.uid for u in side] for side in m["sides"]],
                   "attachments": [list(a) for a in m["attachments"]]} for m in b.missions],
        units=[asdict(u) for u in sorted(units, key=lambda u: u.uid)], mission_deck=mission_deck, round=rnd,
        phase=phase, edge=edge, first_edge=edge, current=current, round_scores=round_scores, att_hidden=att_hidden)
    if phase == "mulligan":
        spec["mulligan"] = edge
    return spec


SETUP_KEYS = {"phase", "missions", "edge", "shuffle"}


def setup_spec(doc: dict, catalog: Catalog, where: str) -> dict:
    """``[board] phase = "setup"``: the game from before the mulligans, as a new game sets it up.

    Each player brings a ``[deck]`` and three ``missions``. By default the engine does the
    setup with the scenario's seed (shuffled decks, two random missions each, Edge at random
    unless ``edge`` names it). ``shuffle = false`` states everything instead: decks stay as
    written (top first, each player draws the top 5) and each player's first two missions
    enter the mission deck in the rules' order (round 1 the Edge player's first, round 2 the
    other's first, round 3 the Edge player's second, round 4 the other's second); the third is
    set aside. Either way the game waits for the Edge player's mulligan, in round 0."""
    board = doc["board"]
    here = f"{where} [board]"
    unknown = set(board) - SETUP_KEYS
    if unknown:
        raise ScenarioError(f"{here}: a setup board takes only {', '.join(sorted(SETUP_KEYS))}, not {sorted(unknown)} "
                            f"(the game starts from the decks and missions)")
    for key in ("mission", "hand", "discard", "mission_deck", "missions_left"):
        if key in doc:
            raise ScenarioError(f"{where} [{key}]: a setup board deals from the decks; write only [deck] and "
                                f"[board] missions = {{ p1 = [...], p2 = [...] }}")
    seed = int(doc.get("seed", 0))
    missions = board.get("missions")
    if not isinstance(missions, dict) or set(missions) != {"p1", "p2"}:
        raise ScenarioError(f"{here} missions: write missions = {{ p1 = [3 missions], p2 = [3 missions] }}")
    decks, brought = [], []
    for pl in ("p1", "p2"):
        refs = missions[pl]
        if not isinstance(refs, list) or len(refs) != 3:
            raise ScenarioError(f"{here} missions {pl}: a player brings exactly 3 missions, not {refs!r}")
        ms = []
        for r in refs:
            found = catalog.lookup(str(r).strip(), prefer="mission")
            if not found.found or found.card.type != "mission":
                raise ScenarioError(f"{here} missions {pl}: {r!r} is not a mission")
            ms.append(found.card.id)
        cards = []
        for r in doc.get("deck", {}).get(pl, []):
            found = catalog.lookup(str(r).strip())
            if not found.found or not found.card.in_deck:
                raise ScenarioError(f"{where} [deck] {pl}: {r!r} is not a character or attachment")
            cards.append(found.card.id)
        decks.append(cards)
        brought.append(ms)
    edge = _player(board["edge"], f"{here} edge") if "edge" in board else None
    return {"seed": seed, "events": True,
            "setup": {"decks": decks, "missions": brought, "shuffle": bool(board.get("shuffle", True)), "edge": edge}}


def _add_unit(b: Builder, att_hidden: list[int], mi: int, side: int, spec: Any, where: str) -> UnitView:
    owner = side
    controlled_by = ""
    if isinstance(spec, str):
        m = UNIT_RE.match(spec.strip())
        if not m:
            raise ScenarioError(f"{where}: cannot read unit {spec!r}; write e.g. \"KS-015\", \"KS-015+2\", \"hidden KS-013\"")
        hidden, body, tokens = bool(m.group(1)), m.group(2), int(m.group(3) or 0)
        stack_refs = [s.strip() for s in body.split(">")]
    elif isinstance(spec, dict):
        hidden, tokens = bool(spec.get("hidden", False)), int(spec.get("tokens", 0))
        stack_refs = list(spec.get("under", [])) + [spec["card"]]
        if "owner" in spec:
            owner = _player(spec["owner"], where)
        controlled_by = spec.get("controlled_by", "")
    else:
        raise ScenarioError(f"{where}: a unit is a string or a table")
    stack = [b.card(r, owner, where) for r in stack_refs]
    u = UnitView(uid=b.next_uid, stack=stack, owner=owner, controller=side, mission=mi, hidden=hidden, tokens=tokens,
                 played_round=0, played_turn=-1)
    if isinstance(spec, dict):  # attachments: { card = "KS-009", attached = ["SS-080"] }, owned by the side
        for key, face_down in (("attached", False), ("hidden_attached", True)):
            for ref in spec.get(key, []):
                ref, _, by = ref.partition(" by ")  # "SS-083 by p2": an attachment the other player put there
                a = b.card(ref, _player(by.strip(), where) if by else side, f"{where} {key}")
                u.attachments.append(a)
                if face_down:
                    att_hidden.append(a)
    b.next_uid += 1
    b.missions[mi]["sides"][side].append(u)
    if owner != side:  # an opponent's card on this side follows the Take Control rules (FAQ)
        if not controlled_by:
            raise ScenarioError(f"{where}: a unit owned by the other player needs controlled_by = \"UNIT\", "
                                f"the card on this side that controls it (listed before it)")
        src = find_unit(b, controlled_by, where)
        u.controlled_by = src.uid
    return u


def find_unit(g: Board | Builder, ref: str, where: str, among: list[int] | None = None) -> UnitView:
    ref = ref.strip()
    side = None
    mission = None
    if ":" in ref:
        pl, ref = ref.split(":", 1)
        side = _player(pl.strip(), where)
    if "@" in ref:
        ref, ms = ref.split("@", 1)
        mission = int(ms) - 1
    ref = ref.strip()
    hits = []
    for u in g.units():
        if among is not None and u.uid not in among:
            continue
        card = g.cards[u.stack[-1]]
        if ref.upper() not in (card.id, *card.printings) and card.name_key != ref.lower().replace(" ", "-"):
            continue
        if side is not None and u.controller != side:
            continue
        if mission is not None and u.mission != mission:
            continue
        hits.append(u)
    if len(hits) != 1:
        what = "no" if not hits else f"{len(hits)}"
        raise ScenarioError(f"{where}: {what} unit(s) match {ref!r}; narrow it with p1:/p2: or @mission")
    return hits[0]
