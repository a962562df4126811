"""The mulligan experiment: each deal played kept and mulliganed; a rule learned on half, checked on the other."""

from __future__ import annotations

import random

import pytest

from mythos_cli.experiment import mulligan as mx
from mythos_cli.sim.decks import default_gauntlet, load_specs
from mythos_cli.store import open_store

CARDS = [f"C{i}" for i in range(10)]
COSTS = {c: i for i, c in enumerate(CARDS)}  # C0 costs 0 … C9 costs 9


def _hands(effect, n=1600, seed=3):
    """Synthetic deals: the kept result a coin; the mulliganed one the same coin unless ``effect(cards)``
    says otherwise (a probability that mulliganing turns a loss into a win)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        cards = tuple(rng.sample(CARDS, 5))
        kept = rng.random() < 0.5
        mull = kept
        p = effect(cards)
        if not kept and rng.random() < p:
            mull = True
        elif kept and p < 0 and rng.random() < -p:
            mull = False
        elif rng.random() < 0.15:  # noise: the mulligan changes the game either way
            mull = not kept
        out.append(mx.Hand("Opp A" if i % 3 else "Opp B", i % 2, i, i // 2 if i % 3 else i, cards, kept, mull))
    return out


def test_a_planted_heavy_opening_is_found_and_confirmed_on_held_out_hands():
    heavy = lambda cards: 0.6 if sum(COSTS[c] for c in cards) >= 30 else 0.0  # noqa: E731
    a = mx.analyse(_hands(heavy), {"Opp A": 0.5, "Opp B": 0.5}, COSTS, {}, CARDS)
    rec = a["recommendation"]
    assert rec["status"] == "rule", rec["text"]
    rule = mx.Rule(**{k: rec["rule"][k] for k in ("kind", "value")}, text=rec["rule"]["rule"])
    thrown = [f for f in (mx.features(c, COSTS) for c in ([h.cards for h in _hands(heavy)])) if rule.mulligans(f)]
    assert sum(f.total_cost for f in thrown) / len(thrown) >= 28  # the rule throws back heavy openings
    assert rec["held_out_gain"]["ci"][0] > 0
    assert a["halves"]["learning"] + a["halves"]["held_out"] == a["hands"]
    top = a["by_total_cost"][-1]  # the costliest hands: mulliganing them clearly helps
    assert top["verdict"] == "mulligan"


def test_no_effect_means_keep_every_hand():
    a = mx.analyse(_hands(lambda cards: 0.0), {"Opp A": 0.5, "Opp B": 0.5}, COSTS, {}, CARDS)
    assert a["recommendation"]["status"] == "keep_all"
    assert a["recommendation"]["text"].startswith("Keep every hand")


def test_the_field_shares_weigh_the_decks():
    # mulliganing helps only against Opp B: its share moves the effect of mulliganing every hand
    hands = [h if h.opponent == "Opp A" else mx.Hand(h.opponent, h.seat, h.seed, h.index, h.cards, False, True)
             for h in _hands(lambda cards: 0.0)]
    low = mx.analyse(hands, {"Opp A": 0.9, "Opp B": 0.1}, COSTS, {}, CARDS)["mulligan_every_hand"]["gain"]
    high = mx.analyse(hands, {"Opp A": 0.1, "Opp B": 0.9}, COSTS, {}, CARDS)["mulligan_every_hand"]["gain"]
    assert high > low + 0.5


def test_each_deal_is_played_both_ways_from_the_same_seed_and_replays(tmp_path):
    from mythos_cli.sim.replay import replay_stored

    decks = load_specs(default_gauntlet())
    cfg = mx.MulliganConfig(decks[0], decks[1:3], [0.5, 0.5], 8, "greedy", 5)
    db = tmp_path / "m.duckdb"
    with open_store(db, create=True) as st:
        hands = mx.play(st, "mx", cfg)
        assert len(hands) == 8 and {h.opponent for h in hands} == {decks[1].name, decks[2].name}
        rows = st.con.sql("SELECT deck_0, deck_1, studied_seat, mulligan_0, mulligan_1, seed FROM games "
                          "WHERE run_id = 'mx'").fetchall()
        forced = {}
        for d0, d1, seat, m0, m1, seed in rows:
            deck, took = (d0, m0) if seat == 0 else (d1, m1)
            forced.setdefault(seed, {})[deck] = took
        assert all(v == {mx.KEEP: False, mx.MULLIGAN: True} for v in forced.values())
        dealt = {}
        for deck in (mx.KEEP, mx.MULLIGAN):
            for g, hand in st.con.sql("SELECT g.seed, list(e.card ORDER BY e.card) FROM card_events e JOIN games g "
                                      "USING (run_id, game_no) WHERE e.run_id = 'mx' AND e.deck = $d AND "
                                      "e.event = 'dealt' GROUP BY g.seed", params={"d": deck}).fetchall():
                dealt.setdefault(g, []).append(tuple(hand))
        assert all(len(v) == 2 and v[0] == v[1] for v in dealt.values())  # the same deal both ways
        replay_stored(st, "mx", 9)  # the Python path forces the same answer (a mismatch raises)
        again = mx.play(st, "mx", cfg)  # stored: read back, not played again
        assert again == hands
        other = mx.MulliganConfig(decks[0], decks[1:3], [0.5, 0.5], 8, "greedy", 6)
        with pytest.raises(mx.ExperimentError):
            mx.play(st, "mx", other)
