"""Turn a finished game into database rows (games, player_rounds, card_events)."""

from __future__ import annotations

from mythos_cli.engine.state import RANKS, GameState


def game_rows(g: GameState, meta: dict) -> tuple[dict, list[dict], list[dict]]:
    """``meta`` carries the run-level facts: run_id, game_no, batch_no, matchup, decks, policies, seed."""
    run_id, game_no = meta["run_id"], meta["game_no"]
    decks = (meta["deck_0"], meta["deck_1"])
    game = {
        **meta,
        "first_edge": g.first_edge,
        "missions": [g.cards[m.card].id for m in g.missions],
        "mission_owners": [g.owner[m.card] for m in g.missions],
        "mulligan_0": g.players[0].mulliganed,
        "mulligan_1": g.players[1].mulliganed,
        "round_scores_0": [r[0] for r in g.round_scores],
        "round_scores_1": [r[1] for r in g.round_scores],
        "score_0": g.players[0].score,
        "score_1": g.players[1].score,
        "winner": g.winner,
        "tiebreak_by_edge": g.tiebreak_by_edge,
        "final_edge": g.edge,
        "decisions": g.decisions,
    }
    rounds = []
    for r, entry in enumerate(g.round_log, start=1):
        for seat, stats in enumerate(entry):
            rounds.append({"run_id": run_id, "game_no": game_no, "seat": seat, "deck": decks[seat], "round": r, **stats})
    cards = []
    if g.events is not None:
        # which seat won each mission (by index) in each round's evaluation
        won: dict[tuple[int, int], int] = {}
        for ev in g.events:
            if ev[1] == "mission_result":
                won[(ev[0], ev[2])] = ev[5]
        for ev in g.events:
            rnd, kind = ev[0], ev[1]
            if kind == "dealt":
                seat = ev[2]
                for cid in ev[3]:
                    cards.append(_card(run_id, game_no, seat, decks[seat], cid, "dealt", 0, None, None, None))
            elif kind == "opening":
                seat = ev[2]
                for cid in ev[3]:
                    cards.append(_card(run_id, game_no, seat, decks[seat], cid, "opening", 0, None, None, None))
            elif kind == "draw" and rnd >= 1:
                seat = ev[2]
                cards.append(_card(run_id, game_no, seat, decks[seat], g.cards[ev[3]].id, "drawn", rnd, None, None, None))
            elif kind in ("play", "reveal", "attach", "reveal_attachment") and not (kind == "attach" and ev[5] == "character"):
                seat, cid, mi = ev[2], ev[3], ev[4]
                how = {"play": ev[5], "reveal": "reveal", "reveal_attachment": "reveal"}.get(kind) \
                    or ("attach_hidden" if ev[5] == "hidden" else "attach")
                rank = RANKS[g.missions[mi].rank] if mi < len(g.missions) else None
                w = won.get((rnd, mi))
                cards.append(_card(run_id, game_no, seat, decks[seat], cid, "played", rnd, how, rank,
                                   None if w is None else w == seat))
    return game, rounds, cards


def _card(run_id, game_no, seat, deck, card, event, rnd, how, rank, won):
    return {"run_id": run_id, "game_no": game_no, "seat": seat, "deck": deck, "card": card, "event": event,
            "round": rnd, "how": how, "mission_rank": rank, "won_mission": won}
