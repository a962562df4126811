"""The game of Naruto Mythos for two players, in the OpenSpiel shape.

>>> g = new_game(deck_a, deck_b, seed=7)
>>> while not g.is_terminal:
...     apply(g, random.choice(legal_actions(g)))
>>> g.winner, scores(g)

Every choice, from the mulligan to the target of an effect, is a ``Decision`` of one
player, answered with one of ``legal_actions(g)``. Main actions are tuples:
``("pass",)``, ``("play", card, mission, hidden, over)`` (``over`` is the uid of the
character upgraded over, or -1), ``("reveal", uid)``; answers to other decisions are
``("choose", option)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterator, Sequence

from mythos_cli.catalog.model import Card
from mythos_cli.engine import attachments, interp, rules
from mythos_cli.engine.interp import NeedChoice
from mythos_cli.engine.rules import IllegalAction
from mythos_cli.engine.state import (
    DRAW_PER_ROUND,
    HAND_SIZE,
    RANKS,
    ROUNDS,
    Decision,
    GameState,
    Mission,
    Player,
    Unit,
)

MAX_STEPS = 200_000  # a game that needs more engine steps than this is stalled: a bug


class EngineStall(RuntimeError):
    """The engine made no progress: a bug, reported with the state's round and phase."""


@dataclass(frozen=True, slots=True)
class GameDeck:
    """What a player brings: the deck (characters and attachments) and 3 missions."""

    cards: tuple[Card, ...]
    missions: tuple[Card, ...]
    name: str = ""


# ---------------------------------------------------------------------------------------
# setup
def new_game(deck_a: GameDeck, deck_b: GameDeck, seed: int, *, events: bool = False,
             first: int | None = None) -> GameState:
    """Set up a game: Edge to a random first player, the mission deck, shuffled decks, 5 cards."""
    rng = random.Random(seed)
    cards: list[Card] = []
    owner: list[int] = []
    players = (Player(0), Player(1))
    for p, deck in zip(players, (deck_a, deck_b)):
        if len(deck.missions) != 3:
            raise ValueError(f"deck {deck.name or p.index}: a player brings exactly 3 missions")
        for c in deck.cards:
            cards.append(c)
            owner.append(p.index)
            p.deck.append(len(cards) - 1)
        for c in deck.missions:
            cards.append(c)
            owner.append(p.index)
            p.missions.append(len(cards) - 1)
    g = GameState(cards=cards, owner=owner, players=players, rng=rng, seed=seed,
                  events=[] if events else None)
    g.edge = rng.randrange(2) if first is None else first
    g.first_edge = g.edge
    chosen = []
    for p in players:
        ms = list(p.missions)
        rng.shuffle(ms)
        chosen.append(ms[:2])
        p.set_aside = ms[2]
    e, o = chosen[g.edge], chosen[1 - g.edge]
    g.mission_deck = [o[1], e[1], o[0], e[0]]  # top is the end: Edge player's are 1st and 3rd
    for p in players:
        rng.shuffle(p.deck)
        interp.draw_cards(g, p.index, HAND_SIZE)
    for p in players:
        g.emit("dealt", p.index, [g.cards[c].id for c in p.hand])  # the hand before any mulligan
    g.phase = "mulligan"
    g.pending = Decision(g.edge, "mulligan", [False, True], "mulligan your whole hand?")
    g.emit("setup", g.edge, [g.cards[m].id for m in reversed(g.mission_deck)])
    return g


# ---------------------------------------------------------------------------------------
# the interface
def legal_actions(g: GameState) -> list[tuple]:
    d = g.pending
    if d is None:
        return []
    if d.kind == "action":
        return d.options
    return [("choose", o) for o in d.options]


def current_player(g: GameState) -> int:
    return g.pending.player if g.pending else -1


def scores(g: GameState) -> tuple[int, int]:
    return g.players[0].score, g.players[1].score


def returns(g: GameState) -> tuple[float, float]:
    if g.winner < 0:
        return (0.0, 0.0)
    return (1.0, -1.0) if g.winner == 0 else (-1.0, 1.0)


def apply(g: GameState, action: tuple) -> None:
    """Apply one legal action; an illegal one raises ``IllegalAction`` and changes nothing."""
    d = g.pending
    if d is None:
        raise IllegalAction("the game is over" if g.phase == "over" else "no decision is pending")
    action = tuple(action)
    if d.kind == "action":
        if action not in (d.options if d.prices is None else d.prices):  # (every option has a price)
            raise IllegalAction(f"{action!r} is not a legal action for player {d.player} now; "
                                f"legal: {len(d.options)} action(s), e.g. {d.options[:3]}")
    elif len(action) != 2 or action[0] != "choose" or action[1] not in d.options:
        raise IllegalAction(f"{action!r} is not one of the options of this {d.kind} decision: {d.options}")
    g.pending = None
    g.decisions += 1
    g.history.append(action)
    if d.kind == "action":
        _main_action(g, d.player, action, d.prices)
    elif d.kind == "mulligan":
        _mulligan(g, d.player, action[1])
    else:
        g.stack[-1].choices.append(action[1])
    advance(g)


# ---------------------------------------------------------------------------------------
# main actions
def place_options(g: GameState, player: int, inst: int, *, hidden: bool, discount: int = 0,
                  here: int = -1) -> Iterator[tuple[int, int, int]]:
    """Where ``inst`` may be played: (mission, upgraded-over uid or -1, price)."""
    card = g.cards[inst]
    chakra = g.players[player].chakra
    key = card.name_key
    missions = range(len(g.missions)) if here < 0 else (here,)
    only_winning = bool(rules.own_static(g, inst, "play_only_winning"))
    for mi in missions:
        side = g.missions[mi].sides[player]
        if hidden:
            if rules.blocked_here(g, player, mi, "no_play_hidden"):
                continue
            if not any(g.cards[u.stack[-1]].name_key == key for u in side):
                price = max(0, 1 - discount)
                if price <= chakra:
                    yield mi, -1, price
            continue
        if only_winning and rules.mission_leader(g, mi) != player:
            continue  # (face-up plays and upgrades alike)
        if not any(g.cards[u.stack[-1]].name_key == key for u in side):
            price = max(0, rules.play_cost(g, player, inst, mi) - discount)
            if price <= chakra:
                yield mi, -1, price
        for u in side:
            if rules.can_upgrade_over(g, inst, u, player):
                # the new card must not duplicate another character's name on this side
                if g.cards[u.stack[-1]].name_key != key and any(
                        g.cards[x.stack[-1]].name_key == key for x in side if x is not u):
                    continue
                diff = card.cost - g.cards[u.stack[-1]].cost
                price = max(0, rules.play_cost(g, player, inst, mi, base=diff) - discount)
                if price <= chakra:
                    yield mi, u.uid, price


_PROFILE: dict[str, tuple[bool, bool, bool]] = {}


def _play_profile(g: GameState, inst: int) -> tuple[bool, bool, bool]:
    """Per card version: (only where winning, changes its own cost, may upgrade over another name)."""
    card = g.cards[inst]
    found = _PROFILE.get(card.id)
    if found is None:
        found = _PROFILE[card.id] = (bool(rules.own_static(g, inst, "play_only_winning")), rules.has_own_cost(g, inst),
                                     bool(rules.own_static(g, inst, "upgrade_over")))
    return found


_REVEAL_PROFILE: dict[str, tuple[bool, bool]] = {}


def _reveal_profile(g: GameState, inst: int) -> tuple[bool, bool]:
    """Per card version: (revealed only where winning, its reveal price is its own business:
    it changes its own cost or its reveal cost)."""
    card = g.cards[inst]
    found = _REVEAL_PROFILE.get(card.id)
    if found is None:
        only_winning, own_cost, _ = _play_profile(g, inst)
        found = _REVEAL_PROFILE[card.id] = (only_winning, own_cost or bool(rules.own_static(g, inst, "reveal_cost")))
    return found


def _main_options(g: GameState, player: int) -> tuple[list[tuple], dict[tuple, int]]:
    """Every main action of ``player`` now. Same rules as ``place_options``, computed once
    per mission instead of once per card (this is the engine's hottest function)."""
    prices: dict[tuple, int] = {("pass",): 0}  # every option with its price, in order
    cards = g.cards
    p = g.players[player]
    chakra = p.chakra
    n_missions = len(g.missions)
    missions = range(n_missions)
    sides = [m.sides[player] for m in g.missions]
    names = [{cards[u.stack[-1]].name_key for u in side} for side in sides]
    # your own face-up characters you may upgrade over: (unit, card beneath)
    upgradable = [[(u, cards[u.stack[-1]]) for u in side if not u.hidden and u.owner == player and u.controlled_by == -1
                   and u.controller == player] for side in sides]
    if chakra < 1:
        hidden_ok = [False] * n_missions
    elif rules.statics(g, "no_play_hidden"):
        hidden_ok = [not rules.blocked_here(g, player, mi, "no_play_hidden") for mi in missions]
    else:
        hidden_ok = [True] * n_missions
    any_cost_static = bool(rules.statics(g, "cost"))
    leaders: dict[int, int] = {}
    seen: set = set()
    for inst in p.hand:
        card = cards[inst]
        if card.type != "character" or card.id in seen:
            continue  # two copies of one version give the same actions: offer them once
        seen.add(card.id)
        key = card.name_key
        cost = card.cost
        only_winning, own_cost, other_names = _play_profile(g, inst)
        priced = any_cost_static or own_cost
        for mi in missions:
            if only_winning:
                if mi not in leaders:
                    leaders[mi] = rules.mission_leader(g, mi)
                winning = leaders[mi] == player
            else:
                winning = True
            named = key in names[mi]
            if not named:
                if winning:
                    price = rules.play_cost(g, player, inst, mi) if priced else cost
                    if price <= chakra:
                        a = ("play", inst, mi, False, -1)
                        prices[a] = price
                if hidden_ok[mi]:
                    a = ("play", inst, mi, True, -1)
                    prices[a] = 1
            if not winning:
                continue
            for u, under in upgradable[mi]:
                if cost <= under.cost:
                    continue
                if under.name_key != key:
                    # another name: only with ⧗ upgrade_over, and never duplicating a name here
                    if named or not other_names or not rules.can_upgrade_over(g, inst, u, player):
                        continue
                diff = cost - under.cost
                price = rules.play_cost(g, player, inst, mi, base=diff) if priced else diff
                if price <= chakra:
                    a = ("play", inst, mi, False, u.uid)
                    prices[a] = price
    plain = not any_cost_static and not rules.statics(g, "reveal_tax")
    for side in sides:
        for u in side:
            if u.hidden:  # yours, or a hidden card you control (it is played by its controller)
                price = _reveal_price(g, player, u, plain=plain)
                if price is not None:
                    prices[("reveal", u.uid)] = price
    if p.hand or g.att_hidden:
        _attachment_options(g, player, prices)
    return list(prices), prices


def _attachment_options(g: GameState, player: int, prices: dict) -> None:
    """Attachments: ``("attach", card, mission, host uid or -1, hidden)`` and
    ``("reveal_attachment", card)`` for a face-down one."""
    seen: set = set()
    for inst in g.players[player].hand:
        card = g.cards[inst]
        if card.type != "attachment" or card.id in seen:
            continue
        seen.add(card.id)
        for mi, hosts, up, down in attachments.attach_places(g, player, inst):
            for hidden, price in ((False, up), (True, down)):
                if price is None:
                    continue
                for host in hosts:
                    a = ("attach", inst, mi, host, hidden)
                    prices[a] = price
    for inst, host, mi in attachments.hidden_attachments_of(g, player):
        price = attachments.reveal_attachment_price(g, player, inst, mi)
        if price is not None:
            a = ("reveal_attachment", inst)
            prices[a] = price


def reveal_price(g: GameState, player: int, u: Unit, *, extra: int = 0) -> int | None:
    """What ``player`` pays to reveal hidden ``u`` now (``extra``: an effect's surcharge), or None."""
    price = _reveal_price(g, player, u, extra=extra)
    return price


def _reveal_price(g: GameState, player: int, u: Unit, *, extra: int = 0, plain: bool = False) -> int | None:
    """``plain``: the caller knows no cost static and no reveal tax is in force."""
    cards = g.cards
    inst = u.stack[-1]
    card = cards[inst]
    key = card.name_key
    for x in g.missions[u.mission].sides[player]:
        if x is not u and not x.hidden and cards[x.stack[-1]].name_key == key:
            return None
    only_winning, priced = _reveal_profile(g, inst)
    if only_winning and rules.mission_leader(g, u.mission) != player and not (u.attachments and rules.blanked(g, u)):
        return None  # ("play only where winning" is its own text: a blank text, SS-083, has none)
    if plain and not priced and not u.attachments:
        price = card.cost + extra  # (hot path: what play_cost would find)
    else:
        price = rules.play_cost(g, player, inst, u.mission, reveal=u) + extra
    if price < 0:
        price = 0
    return price if price <= g.players[player].chakra else None


def _main_action(g: GameState, player: int, action: tuple, prices: dict) -> None:
    kind = action[0]
    g.turn += 1
    g.last_turn_plays[player] = ()  # a new turn of this player (a pass included)
    g.last_turn_moves[player] = ()
    if kind == "pass":
        p = g.players[player]
        other = g.players[1 - player]
        p.passed = True
        if not other.passed and g.edge_locked != 1 - player:
            g.edge = player  # the first to pass takes (or keeps) the Edge
        g.emit("pass", player)
        interp.fire(g, "passed", None, player=player)
    elif kind == "play":
        _, inst, mi, hidden, over = action
        play_card(g, player, inst, mi, hidden=hidden, over=over, price=prices[action])
    elif kind == "reveal":
        reveal(g, player, g.units[action[1]], prices[action])
    elif kind == "attach":
        _, inst, mi, host, hidden = action
        attachments.attach_card(g, player, inst, mi, host, hidden=hidden, price=prices[action])
    elif kind == "reveal_attachment":
        attachments.reveal_attachment(g, player, action[1], prices[action])
    g.turn_over = True


def new_unit(g: GameState, player: int, inst: int, mi: int, *, hidden: bool) -> Unit:
    u = Unit(uid=g.next_uid, stack=[inst], owner=g.owner[inst], controller=player, mission=mi, hidden=hidden,
             played_round=g.round, played_turn=g.turn)
    g.next_uid += 1
    g.units[u.uid] = u
    g.missions[mi].sides[player].append(u)
    current = g.lines_version == g.board_version
    g.board_version += 1
    if hidden and current:
        g.lines_version = g.board_version  # a hidden character brings no line: the lines in force stay
    return u


def _take_from_zone(g: GameState, player: int, inst: int) -> None:
    if g.players[player].take(inst):
        return
    raise IllegalAction(f"card {inst} is not in player {player}'s hand, discard or deck")


def play_card(g: GameState, player: int, inst: int, mi: int, *, hidden: bool, over: int, price: int) -> Unit:
    """Put a character into play (fresh, hidden, or as an upgrade) and start its play sequence."""
    p = g.players[player]
    from_hand = inst in p.hand
    _take_from_zone(g, player, inst)
    p.pay(price)
    p.plays_this_round += 1
    extra = None
    if over >= 0:
        u = g.units[over]
        extra = {"upgraded_power": rules.power(g, u)}  # "if the character you upgraded from had …"
        base = g.cards[inst].cost - g.cards[u.stack[-1]].cost
        u.stack.append(inst)
        g.board_version += 1
        u.played_turn = g.turn
        upgrade = True
        p.upgraded += 1
    else:
        u = new_unit(g, player, inst, mi, hidden=hidden)
        base = 1 if hidden else g.cards[inst].cost
        upgrade = False
        if hidden:
            p.played_hidden += 1
        else:
            p.played_face_up += 1
            p.cost_face_up.append(g.cards[inst].cost)
    u.discounted = price < base  # "played for less than its printed cost because of an effect"
    _played_this_turn(g, player, u)
    g.emit("play", player, g.cards[inst].id, mi, "hidden" if hidden else "upgrade" if upgrade else "face_up", price)
    if not hidden:
        _play_sequence(g, player, u, upgrade=upgrade, ambush=False, extra_vars=extra, from_hand=from_hand)
    return u


def _played_this_turn(g: GameState, player: int, u: Unit) -> None:
    """Remember the characters a player plays during their own turn ("played during the
    opponent's previous turn"); a play forced during the other player's turn does not count."""
    if g.phase == "action" and g.current == player:
        g.last_turn_plays[player] = g.last_turn_plays.get(player, ()) + (u.uid,)


def reveal(g: GameState, player: int, u: Unit, price: int) -> None:
    """Reveal a hidden character paying its cost: it counts as playing it (MAIN and AMBUSH)."""
    p = g.players[player]
    p.pay(price)
    p.plays_this_round += 1
    p.revealed += 1
    u.hidden = False
    g.board_version += 1
    u.played_turn = g.turn
    u.discounted = price < g.cards[u.stack[-1]].cost
    _played_this_turn(g, player, u)
    g.emit("reveal", player, g.cards[u.stack[-1]].id, u.mission, price)
    _play_sequence(g, player, u, upgrade=False, ambush=True)


def _play_sequence(g: GameState, player: int, u: Unit, *, upgrade: bool, ambush: bool, extra_vars=None,
                   from_hand: bool = False) -> None:
    """Card play sequence: the new card's own effects wait beneath the triggers it causes."""
    frame = interp.play_frame(g, player, u, upgrade=upgrade, ambush=ambush, extra_vars=extra_vars, from_hand=from_hand)
    if frame is not None:
        g.stack.append(frame)
    interp.fire(g, "played", u, played=u.uid)


def _mulligan(g: GameState, player: int, take: bool) -> None:
    p = g.players[player]
    if take:
        p.deck.extend(p.hand)
        p.hand.clear()
        g.rng.shuffle(p.deck)
        interp.draw_cards(g, player, HAND_SIZE)
        p.mulliganed = True
    g.emit("mulligan", player, take)
    if player == g.edge:
        g.pending = Decision(1 - player, "mulligan", [False, True], "mulligan your whole hand?")
    else:
        g.phase = "start"
        for q in g.players:
            q.drawn = 0  # the opening hand is not "drawn during the round"
            g.emit("opening", q.index, [g.cards[c].id for c in q.hand])


# ---------------------------------------------------------------------------------------
# the phases
def advance(g: GameState) -> None:
    """Run effects and phases until a player must decide or the game is over."""
    steps = 0
    while g.pending is None and g.phase != "over":
        steps += 1
        if steps > MAX_STEPS:
            raise EngineStall(f"no decision after {MAX_STEPS} steps in round {g.round}, phase {g.phase}")
        if g.stack:
            try:
                interp.run_top(g)
            except NeedChoice as need:
                g.pending = need.decision
            continue
        _phase_step(g)


def _phase_step(g: GameState) -> None:
    ph = g.phase
    if ph == "start":
        _start_phase(g)
    elif ph == "action":
        if getattr(g, "turn_over", False):
            g.turn_over = False
            other = 1 - g.current
            if not g.players[other].passed:
                g.current = other
        p = g.players[g.current]
        if p.passed:
            g.current = 1 - g.current
            p = g.players[g.current]
        if g.players[0].passed and g.players[1].passed:
            g.phase = "evaluate"
            g.eval_index = 0
            return
        opts, prices = _main_options(g, g.current)
        g.pending = Decision(g.current, "action", opts, prices=prices)
    elif ph == "evaluate":
        if g.eval_index >= len(g.missions):
            g.phase = "end"
            g.eval_ready = -1
            return
        if g.eval_ready != g.eval_index:  # "before Power is determined" in this mission
            g.eval_ready = g.eval_index
            interp.fire_all(g, "before_evaluation", mission=g.eval_index)
            return
        _evaluate(g, g.eval_index)
        g.eval_index += 1
    elif ph == "end":
        _end_phase(g)
    elif ph == "cleanup":
        _cleanup(g)


def _start_phase(g: GameState) -> None:
    g.round += 1
    g.round_scores.append([0, 0])
    if g.mission_deck:  # always, in a real game; a scenario board may bring fewer missions
        card = g.mission_deck.pop()
        g.missions.append(Mission(card=card, rank=min(g.round, 4) - 1))
        g.board_version += 1
        g.emit("mission", g.cards[card].id, RANKS[min(g.round, 4) - 1])
    for p in g.players:
        gain = rules.chakra_income(g, p.index)
        p.chakra += gain
        p.chakra_gained = gain
        p.chakra_spent = 0
        p.passed = False
        p.plays_this_round = 0
        p.attached_this_round = 0
        p.played_face_up = p.played_hidden = p.revealed = p.upgraded = p.missions_won = 0
        p.cost_face_up = []
        g.emit("chakra", p.index, gain)
    for p in g.players:
        p.drawn = 0
        interp.draw_cards(g, p.index, DRAW_PER_ROUND)
    g.phase = "action"
    g.current = g.edge
    g.turn_over = False
    g.last_turn_moves = {}
    interp.fire_all(g, "start_of_round")  # resolve before the first turn


def _evaluate(g: GameState, mi: int) -> None:
    m = g.missions[mi]
    a, b = rules.side_power(g, mi, 0), rules.side_power(g, mi, 1)
    winner = rules.mission_leader(g, mi)
    m.winner = winner
    g.emit("mission_result", mi, a, b, winner)
    if winner < 0:
        return
    times = 2 if any(smi == mi for _, smi, _, _ in rules.statics(g, "score_twice")) else 1
    frames = []
    for _ in range(times):  # ⧗ score_twice: points and SCORE effects again
        pts = rules.mission_points(g, mi)
        g.players[winner].missions_won += 1
        g.players[winner].score += pts
        g.round_scores[-1][winner] += pts
        frames.append(interp.score_frame(g, winner, None, mi))
        for u in m.sides[winner]:
            if not u.hidden:
                frames.append(interp.score_frame(g, winner, u, mi))
            for a in u.attachments:
                if a not in g.att_hidden:
                    frames.append(interp.score_frame(g, winner, u, mi, attachment=a))
        for a in m.attachments[winner]:
            if a not in g.att_hidden:
                frames.append(interp.score_frame(g, winner, None, mi, attachment=a))
    loser = 1 - winner
    for src, smi, ctl, t, inst in rules.triggers(g, "lost_mission"):
        if src is not None and smi == mi and ctl == loser:
            frames.append(interp.trigger_frame(g, src, smi, ctl, t, None, inst))
    interp.push_frames(g, frames)


def _end_phase(g: GameState) -> None:
    if g.round >= ROUNDS:
        _finish(g)
        return
    interp.fire_all(g, "end_of_round")
    g.phase = "cleanup"


def _log_round(g: GameState) -> None:
    """Keep this round's statistics (for the simulation database) before the round ends."""
    entry = []
    for p in g.players:
        entry.append({
            "chakra_gained": p.chakra_gained, "chakra_spent": p.chakra_spent, "chakra_left": p.chakra,
            "cards_drawn": p.drawn, "played_face_up": p.played_face_up, "played_hidden": p.played_hidden,
            "revealed": p.revealed, "upgraded": p.upgraded, "cost_face_up": list(p.cost_face_up),
            "characters_in_play": sum(len(m.sides[p.index]) for m in g.missions),
            "missions_won": p.missions_won, "points": g.round_scores[-1][p.index] if g.round_scores else 0,
            "edge": g.edge == p.index,
        })
    g.round_log.append(entry)


def _cleanup(g: GameState) -> None:
    _log_round(g)
    for u in g.all_units():
        if u.tokens and (u.hidden or not rules.unit_static(g, u, "keep_tokens")):
            u.tokens = 0
            g.token_version += 1
    for p in g.players:
        p.chakra = 0
    g.edge_locked = -1
    g.phase = "start"


def _finish(g: GameState) -> None:
    _log_round(g)
    a, b = g.players[0].score, g.players[1].score
    if a == b:
        g.winner = g.edge
        g.tiebreak_by_edge = True
    else:
        g.winner = 0 if a > b else 1
    g.phase = "over"
    g.pending = None
    g.emit("game_over", g.winner, a, b)


def play_random_game(deck_a: GameDeck, deck_b: GameDeck, seed: int, *, check=None) -> GameState:
    """A full game with uniformly random legal decisions (the invariant and speed baseline)."""
    g = new_game(deck_a, deck_b, seed)
    rng = random.Random(seed ^ 0x5EED)
    while g.phase != "over":
        acts = legal_actions(g)
        apply(g, acts[rng.randrange(len(acts))])
        if check is not None:
            check(g)
    return g


def deck_from_catalog(catalog, ids: Sequence[str], missions: Sequence[str], name: str = "") -> GameDeck:
    return GameDeck(tuple(catalog[i] for i in ids), tuple(catalog.lookup(m, prefer="mission").card for m in missions), name)
