"""``mythos meta``'s answers on known answers: no game is played here (matrices from counts).

Rock-paper-scissors has the uniform Nash mix and value 50%, and its field cycles; a dominated
list has no weight; best of 3 is p²(3 − 2p) when the seat does not matter, and the match odds
agree with a brute-force enumeration when it does; a Swiss of two lists agrees with an exact
enumeration of every pairing and result.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mythos_cli.experiment.matrix import BLOCK, from_counts
from mythos_cli.meta import PrecisionTarget, Settings, analyse
from mythos_cli.meta import drift, game, match, posterior, swiss
from mythos_cli.sim.plan import DeckSpec


def lists(n: int) -> list[DeckSpec]:
    return [DeckSpec(f"L{i}", (f"KS-{i:03d}",), ()) for i in range(n)]


def exact(rates, games: int = 20_000):
    """A matrix whose observed seat rates are ``rates`` (row vs column, the same in both seats)."""
    r = np.asarray(rates, dtype=float)
    n = r.shape[0]
    fg = np.full((n, n), games // 2)
    np.fill_diagonal(fg, 0)
    fw = np.rint(r * fg).astype(int)
    return from_counts(lists(n), fg, fw)


RPS = [[0.5, 0.3, 0.7], [0.7, 0.5, 0.3], [0.3, 0.7, 0.5]]


def test_rock_paper_scissors_has_the_uniform_nash_mix_and_value_one_half():
    x, v = game.nash(np.array(RPS))
    assert x == pytest.approx([1 / 3] * 3, abs=1e-9) and v == pytest.approx(0.5, abs=1e-12)
    a = analyse(exact(RPS), [0.5, 0.3, 0.2], Settings(tournaments=200))
    assert a["nash"]["value"] == pytest.approx(0.5, abs=1e-9)
    for x in a["lists"]:
        assert x["nash"]["weight"] == pytest.approx(1 / 3, abs=1e-6)
        assert x["nash"]["support_frequency"] == 1.0
        lo, hi = x["nash"]["ci95"]
        assert lo < 1 / 3 < hi
    assert a["drift"]["verdict"] == "cycles" and a["drift"]["cycle_chance"] > 0.9
    assert a["posterior"]["draws"] >= 1000


def test_a_dominated_list_gets_no_weight():
    # L2 loses to both others; L0 and L1 are even
    rates = [[0.5, 0.5, 0.7], [0.5, 0.5, 0.65], [0.3, 0.35, 0.5]]
    x, _ = game.nash(np.array(rates))
    assert x[2] == 0.0 and x[:2].sum() == pytest.approx(1.0)
    a = analyse(exact(rates), [1 / 3] * 3, Settings(tournaments=200))
    weak = next(x for x in a["lists"] if x["name"] == "L2")
    assert weak["nash"]["weight"] == 0.0 and weak["nash"]["support_frequency"] == 0.0
    assert weak["tier"] == 3 and weak["best_response_chance"] == 0.0  # L1 is clearly below L0: tier 2
    assert a["drift"]["verdict"] == "settles" and a["drift"]["final"]["L2"] < 0.01


def test_the_best_response_tiers_and_field_rates_of_a_clear_field():
    rates = [[0.5, 0.6, 0.6], [0.4, 0.5, 0.5], [0.4, 0.5, 0.5]]
    a = analyse(exact(rates), [0.2, 0.4, 0.4], Settings(tournaments=200))
    assert a["best_response"] == {"list": "L0", "chance": 1.0, "by_list": {"L0": 1.0, "L1": 0.0, "L2": 0.0}}
    best = a["lists"][0]
    assert best["vs_field"]["win_rate"] == pytest.approx(0.2 * 0.5 + 0.8 * 0.6)
    assert a["tiers"] == {"1": ["L0"], "2": ["L1", "L2"]}


@pytest.mark.parametrize("rule", match.NEXT_FIRST)
def test_best_of_three_is_p_squared_three_minus_two_p_when_seats_do_not_matter(rule):
    p = np.linspace(0, 1, 11)
    assert match.match_win(p, p, 3, rule) == pytest.approx(p * p * (3 - 2 * p))
    assert match.match_win(p, p, 1, rule) == pytest.approx(p)
    bo5 = sum(math.comb(5, k) * p ** k * (1 - p) ** (5 - k) for k in (3, 4, 5))
    assert match.match_win(p, p, 5, rule) == pytest.approx(bo5)


def _brute(pf: float, ps: float, best_of: int, rule: str) -> float:
    """Every sequence of games (and, for random, of coin tosses), its chance summed."""
    need = best_of // 2 + 1
    total = 0.0

    def go(a, b, a_first, chance):
        nonlocal total
        if a == need:
            total += chance
            return
        if b == need:
            return
        p = pf if a_first else ps
        for a_won, q in ((True, p), (False, 1 - p)):
            nexts = {"loser": [not a_won], "winner": [a_won], "alternate": [not a_first], "random": [True, False]}[rule]
            for nf in nexts:
                go(a + a_won, b + (not a_won), nf, chance * q / len(nexts))

    go(0, 0, True, 0.5)
    go(0, 0, False, 0.5)
    return total


@pytest.mark.parametrize("rule", match.NEXT_FIRST)
@pytest.mark.parametrize("best_of", (3, 5))
def test_match_odds_agree_with_every_sequence_of_games(rule, best_of):
    for pf, ps in ((0.7, 0.45), (0.55, 0.2), (0.9, 0.6)):
        assert float(match.match_win(pf, ps, best_of, rule)) == pytest.approx(_brute(pf, ps, best_of, rule))


def test_the_fixed_next_first_rules_give_the_same_odds_and_random_differs():
    odds = {r: float(match.match_win(0.7, 0.45, 5, r)) for r in match.NEXT_FIRST}
    assert odds["loser"] == pytest.approx(odds["winner"]) == pytest.approx(odds["alternate"])
    assert abs(odds["random"] - odds["loser"]) > 1e-3


def _swiss_exact(q: float, top: int):
    """Four players, two of list A and two of list B (A beats B with chance q), two rounds, exactly:
    round 1 pairs a random order, round 2 sorts by points (at random within them), the standings by
    points, then opponents' match-win share (at least 1/3), then at random."""
    lists = ["A", "A", "B", "B"]
    cut = {"A": 0.0, "B": 0.0}
    points = {"A": 0.0, "B": 0.0}
    records = {"A": [0.0] * 3, "B": [0.0] * 3}

    def p_win(x, y):
        return 0.5 if lists[x] == lists[y] else (q if lists[x] == "A" else 1 - q)

    orders = list(itertools.permutations(range(4)))
    for order in orders:
        w1 = 1 / len(orders)
        r1 = [(order[0], order[1]), (order[2], order[3])]
        for res1 in itertools.product((0, 1), repeat=2):
            c1 = w1
            wins = [0] * 4
            opp = [[] for _ in range(4)]
            for (x, y), r in zip(r1, res1):
                c1 *= p_win(x, y) if r == 0 else 1 - p_win(x, y)
                wins[x if r == 0 else y] += 1
                opp[x].append(y)
                opp[y].append(x)
            winners = [p for p in range(4) if wins[p] == 1]
            losers = [p for p in range(4) if wins[p] == 0]
            for wo in itertools.permutations(winners):
                for lo in itertools.permutations(losers):
                    c2 = c1 / 4
                    order2 = list(wo) + list(lo)
                    r2 = [(order2[0], order2[1]), (order2[2], order2[3])]
                    for res2 in itertools.product((0, 1), repeat=2):
                        c3 = c2
                        w = list(wins)
                        o = [list(v) for v in opp]
                        for (x, y), r in zip(r2, res2):
                            c3 *= p_win(x, y) if r == 0 else 1 - p_win(x, y)
                            w[x if r == 0 else y] += 1
                            o[x].append(y)
                            o[y].append(x)
                        omw = [sum(max(w[k] / 2, 1 / 3) for k in o[p]) / 2 for p in range(4)]
                        key = [(w[p], omw[p]) for p in range(4)]
                        # the standings: by key; equal keys share the remaining places at random
                        for p in range(4):
                            better = sum(1 for k in range(4) if key[k] > key[p])
                            same = sum(1 for k in range(4) if key[k] == key[p])
                            slots = max(0, min(same, top - better))
                            cut[lists[p]] += c3 * slots / same / 2
                            points[lists[p]] += c3 * 3 * w[p] / 2
                            records[lists[p]][w[p]] += c3 / 2
    return cut, points, records


def test_a_two_list_swiss_agrees_with_an_exact_enumeration():
    q = 0.7
    bo3 = np.array([[0.5, q], [1 - q, 0.5]])
    rng = np.random.default_rng(5)
    st = swiss.play(bo3, [0.5, 0.5], 4, 2, 1, 200_000, rng, counts=[2, 2])
    got = swiss.summary(st, 2, 2)
    cut, points, records = _swiss_exact(q, 1)
    for i, name in enumerate("AB"):
        se = math.sqrt(cut[name] * (1 - cut[name]) / got[i]["players"])
        assert got[i]["top_cut"]["chance"] == pytest.approx(cut[name], abs=5 * se)
        assert got[i]["match_points"]["mean"] == pytest.approx(points[name], abs=0.02)
        for w in range(3):
            assert got[i]["record"][w]["chance"] == pytest.approx(records[name][w], abs=0.005)
    assert sum(cut.values()) * 2 == pytest.approx(1.0)  # one player of four makes a top 1


def test_a_swiss_player_of_a_list_that_wins_every_match_goes_undefeated():
    bo3 = np.array([[0.5, 1.0], [0.0, 0.5]])
    st = swiss.play(bo3, [0.0, 1.0], 16, 4, 1, 500, np.random.default_rng(1), mine=0)
    mine = swiss.summary(st, 2, 4, only_first=True)[0]
    assert mine["top_cut"]["chance"] == 1.0 and mine["record"][4]["chance"] == 1.0


def test_the_same_seed_gives_the_same_figures():
    rng = np.random.default_rng(2)
    fg = rng.integers(20, 60, (4, 4))
    np.fill_diagonal(fg, 0)
    fw = rng.binomial(fg, 0.5)
    m = from_counts(lists(4), fg, fw)
    one = analyse(m, [0.4, 0.3, 0.2, 0.1], Settings(seed=3, tournaments=500, deck=1))
    two = analyse(m, [0.4, 0.3, 0.2, 0.1], Settings(seed=3, tournaments=500, deck=1))
    assert one == two
    other = analyse(m, [0.4, 0.3, 0.2, 0.1], Settings(seed=4, tournaments=500, deck=1))
    assert other["lists"][0]["vs_field"]["ci95"] != one["lists"][0]["vs_field"]["ci95"]


def test_the_posterior_has_one_beta_per_pair_and_seat_and_mirrors_at_one_half():
    fg = np.array([[0, 30], [10, 0]])
    fw = np.array([[0, 24], [0, 0]])  # L0 wins 24/30 going first; L1 wins 0/10 going first
    m = from_counts(lists(2), fg, fw)
    p = posterior.draw(m, 20_000, 1)
    assert p.first[:, 0, 0].tolist() == [0.5] * 20_000
    assert p.first[:, 0, 1].mean() == pytest.approx(24.5 / 31, abs=0.005)
    assert p.first[:, 1, 0].mean() == pytest.approx(0.5 / 11, abs=0.005)
    a = p.games.mean(axis=0)
    assert a[0, 1] == pytest.approx((24.5 / 31 + 1 - 0.5 / 11) / 2, abs=0.005)
    assert a[0, 1] + a[1, 0] == pytest.approx(1.0)


def test_precision_spends_no_games_where_no_answer_depends_on_them():
    # L2 and L3 have no share and lose clearly to L0 and L1: their own pair weighs in no answer
    rates = np.array([[0.5, 0.5, 0.8, 0.8], [0.5, 0.5, 0.8, 0.8], [0.2, 0.2, 0.5, 0.5], [0.2, 0.2, 0.5, 0.5]])
    m = exact(rates, 40)
    t = PrecisionTarget([0.5, 0.5, 0.0, 0.0], 0.01)
    wanted = t.wanted(m, 2000)
    assert wanted and (2, 3) not in wanted and (0, 1) in wanted
    assert all(v % BLOCK == 0 for v in wanted.values()) and sum(wanted.values()) <= 2000
    assert PrecisionTarget([0.5, 0.5, 0.0, 0.0], 0.4).wanted(m, 2000) == {}  # wide enough already


def test_drift_of_a_dominant_list_settles_on_it():
    path = drift.replicator(np.array([[0.5, 0.7], [0.3, 0.5]]), [0.1, 0.9], 200)
    assert drift.verdict(path)[0] == "settles" and path[-1, 0] > 0.99
