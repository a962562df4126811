"""mythos optimize, its parts: paired seeds, swaps, pool, field, statistics, the screen's model."""

from __future__ import annotations

import math
from pathlib import Path
from collections import Counter

import numpy as np
import pytest

from mythos_cli.optimize import FieldError, PoolError, build_field, build_pool
from mythos_cli.optimize import variants as V
from mythos_cli.experiment.stats import Pairs, fit_draws, fit_screen, gain, z_value
from mythos_cli.sim import RunConfig, load_specs
from mythos_cli.sim.decks import default_gauntlet

Swap = V.Swap


@pytest.fixture(scope="module")
def samples():
    return {s.name: s for s in load_specs(default_gauntlet())}


@pytest.fixture(scope="module")
def leaf(samples):
    return samples["Leaf Village Team 7"]


# -- common random numbers in the plan --------------------------------------------------------
def test_seed_groups_share_seeds_and_seats_per_opponent(samples):
    decks = list(samples.values())
    cfg = RunConfig(decks=decks, opponents=[3, 4, 5], studied=[0, 1, 2], games=6, policy_a="greedy", policy_b="greedy",
                    mulligan=None, seed=7, seed_groups=[0, 0, 1])
    by = {}
    for job in cfg.jobs():
        m = cfg.matchups[job.matchup]
        by.setdefault((m.deck, m.opponent), []).append((job.seed, job.seat_of_deck))
    for o in (3, 4, 5):
        assert by[(0, o)] == by[(1, o)]  # one group: the same games, seat for seat
        assert [s for s, _ in by[(0, o)]] != [s for s, _ in by[(2, o)]]  # another group: other seeds
    assert by[(0, 3)] != by[(0, 4)]  # each opponent its own seeds
    assert len({s for v in by.values() for s, _ in v}) == 6 * 3 * 2


def test_without_seed_groups_the_plan_is_unchanged(samples):
    decks = list(samples.values())[:3]
    cfg = RunConfig(decks=decks, opponents=[0, 1, 2], studied=[0, 1], games=4, policy_a="greedy", policy_b="greedy",
                    mulligan=None, seed=5)
    root = np.random.SeedSequence(5)
    expect = []
    for m in cfg.plan():
        seeds = np.random.SeedSequence(root.entropy, spawn_key=(m.index,)).generate_state(4, dtype=np.uint64)
        expect += [int(s % 2 ** 63) for s in seeds]
    assert [j.seed for j in cfg.jobs()] == expect
    assert RunConfig.from_json({k: v for k, v in cfg.to_json().items() if k != "seed_groups"}).seed_groups is None


def test_seed_groups_must_cover_the_studied_decks(samples):
    decks = list(samples.values())[:3]
    cfg = RunConfig(decks=decks, opponents=[2], studied=[0, 1], games=2, policy_a="greedy", policy_b="greedy",
                    mulligan=None, seed=5, seed_groups=[0])
    with pytest.raises(ValueError, match="seed_groups"):
        cfg.jobs()


def test_seed_groups_and_round_robin_survive_the_stored_configuration(samples):
    """A run resumed from its stored (JSON) configuration plans the very same games: the lazy
    plan of issue 20 reads seed groups and round robins back, and refuses broken ones."""
    import json

    from mythos_cli.sim.plan import PlanError

    decks = list(samples.values())
    for cfg in (RunConfig(decks=decks, opponents=[3, 4], studied=[0, 1, 2], games=5, policy_a="greedy",
                          policy_b="greedy", mulligan=None, seed=9, seed_groups=[0, 0, 1], batch_size=3),
                RunConfig(decks=decks[:4], opponents=[0, 1, 2, 3], studied=[0, 1, 2, 3], games=4, policy_a="greedy",
                          policy_b="greedy", mulligan=None, seed=9, round_robin=True, batch_size=3)):
        back = RunConfig.from_json(json.loads(json.dumps(cfg.to_json())))
        assert (back.seed_groups, back.round_robin) == (cfg.seed_groups, cfg.round_robin)
        assert [(m.deck, m.opponent) for m in back.plan()] == [(m.deck, m.opponent) for m in cfg.plan()]
        assert back.jobs() == cfg.jobs()
    stored = json.loads(json.dumps(cfg.to_json()))
    for bad in ([0], ["a", 0, 0, 0], [-1, 0, 0, 0], True):
        with pytest.raises(PlanError, match="seed_groups"):
            RunConfig.from_json({**stored, "seed_groups": bad})


# -- swaps ------------------------------------------------------------------------------------
def test_a_swap_keeps_the_slot(leaf):
    slot = leaf.cards.index("KS-108")
    v = V.apply(leaf, [Swap("KS-108", "KS-020")])
    assert v.cards[slot] == "KS-020"
    assert [c for i, c in enumerate(v.cards) if i != slot] == [c for i, c in enumerate(leaf.cards) if i != slot]
    assert v.missions == leaf.missions
    m = V.apply(leaf, [Swap("KS-002-MMS", "SS-003-MMS", True)])
    assert m.missions[leaf.missions.index("KS-002-MMS")] == "SS-003-MMS" and m.cards == leaf.cards
    with pytest.raises(ValueError):
        V.apply(leaf, [Swap("SS-057", "KS-020")])


def test_canonical_pairs_and_difference(leaf):
    a = V.canonical([Swap("KS-148", "KS-020"), Swap("KS-108", "SS-057")])
    b = V.canonical([Swap("KS-108", "KS-020"), Swap("KS-148", "SS-057")])
    assert a == b == (Swap("KS-108", "KS-020"), Swap("KS-148", "SS-057"))
    deck = V.apply(leaf, a)
    assert V.difference(leaf, deck) == a
    assert Counter(deck.cards) == Counter(leaf.cards) - Counter(["KS-108", "KS-148"]) + Counter(["KS-020", "SS-057"])


def test_legality_follows_the_pool(leaf):
    everything = build_pool(None)
    assert V.legal(V.apply(leaf, [Swap("KS-047", "KS-020")]), leaf, everything)
    assert not V.legal(V.apply(leaf, [Swap("KS-047", "KS-108")]), leaf, everything)  # a third Rasengan Naruto
    assert not V.legal(V.apply(leaf, [Swap("KS-001-MMS", "KS-002-MMS", True)]), leaf, everything)  # twice a mission
    singles = V.single_swaps(leaf, leaf, everything, missions=False)
    assert Swap("KS-047", "KS-020") in singles and Swap("KS-047", "KS-108") not in singles
    assert all(V.legal(V.apply(leaf, [s]), leaf, everything) for s in singles)
    with_missions = V.single_swaps(leaf, leaf, everything, missions=True)
    assert len(with_missions) - len(singles) == 3 * (20 - 3)


def test_a_variant_passes_validate(leaf):
    deck = V.apply(leaf, [Swap("KS-047", "KS-020"), Swap("KS-001-MMS", "SS-003-MMS", True)])
    verdict = V.validate(deck, "variant")
    assert verdict.valid, verdict.problems
    assert verdict.counts["deck"] == 30
    bad = V.apply(leaf, [Swap("KS-047", "KS-108")])
    assert not V.validate(bad, "bad").valid


# -- pool -------------------------------------------------------------------------------------
def test_pool_filters(tmp_path):
    everything = build_pool(None)
    assert len(everything.cards) == 298 and len(everything.missions) == 20
    ks = build_pool(["KS"])
    assert ks.cards and all(c.startswith("KS-") for c in ks.cards) and all(m.startswith("KS-") for m in ks.missions)
    leaf_ks = build_pool(["set=KS", "group=leaf"])
    assert set(leaf_ks.cards) < set(ks.cards)
    two_groups = build_pool(["group=leaf", "group=sand"])
    assert set(build_pool(["group=leaf"]).cards) < set(two_groups.cards)
    team7 = build_pool(["keyword=Team 7"])
    assert "KS-009" in team7.cards and "KS-081" not in team7.cards
    attachments = build_pool(["type=attachment"])
    assert len(attachments.cards) == 32 and all(c.startswith("SS-") for c in attachments.cards)
    coll = tmp_path / "owned.txt"
    coll.write_text("1 KS-020\n5 KS-108\nmissions:\nSS-003-MMS\n", encoding="utf-8")
    owned = build_pool([str(coll)])
    assert owned.cards == {"KS-020": 1, "KS-108": 2} and owned.missions == ["SS-003-MMS"]
    assert owned.limit("KS-047", base_copies=1) == 1  # the deck's own copies are owned


@pytest.mark.parametrize("value", ["XX", "group=nowhere", "set=QQ", "missing-file.txt", "type=mission", "keyword="])
def test_pool_errors(value):
    with pytest.raises(PoolError):
        build_pool([value])


def test_a_collection_limits_the_swaps(tmp_path, leaf):
    coll = tmp_path / "owned.txt"
    coll.write_text("1 KS-020\n", encoding="utf-8")
    pool = build_pool([str(coll)])
    singles = V.single_swaps(leaf, leaf, pool, missions=True)
    assert {s.into for s in singles} == {"KS-020"}  # and no mission: none is owned
    two = V.apply(leaf, [Swap("KS-047", "KS-020"), Swap("KS-096", "KS-020")])
    assert not V.legal(two, leaf, pool)  # one copy owned


# -- field ------------------------------------------------------------------------------------
def test_field_by_names_files_and_shares(tmp_path):
    decks, shares = build_field(None)
    assert len(decks) == 6 and shares == pytest.approx([1 / 6] * 6)
    decks, shares = build_field("Sand Village=30, sound-four=10,leaf=60")
    assert [d.name for d in decks] == ["Sand Village", "Sound Village: the Sound Four", "Leaf Village Team 7"]
    assert shares == pytest.approx([0.3, 0.1, 0.6])
    other = tmp_path / "rival.txt"
    other.write_text(V.to_text(decks[0], "Rival"), encoding="utf-8")
    decks, shares = build_field(f"{other}=1,Sand Village=1")
    assert [d.name for d in decks] == ["Rival", "Sand Village"]
    for bad in ("Sand Village", "nowhere=3", "Sand Village=x", "Sand Village=0", "Sand Village=-1"):
        with pytest.raises(FieldError):
            build_field(bad)
    with pytest.raises(FieldError):
        build_field(None, str(tmp_path / "no-such-folder"))


# -- statistics -------------------------------------------------------------------------------
def test_agresti_min_paired_interval_by_hand():
    p = Pairs()
    for won, ref in [(True, False)] * 30 + [(False, True)] * 10 + [(True, True)] * 40 + [(False, False)] * 20:
        p.add(won, ref)
    assert (p.n, p.only, p.only_ref, p.wins, p.ref_wins) == (100, 30, 10, 70, 50)
    assert p.diff == pytest.approx(0.2)
    n, b, c = 102, 30.5, 10.5
    assert p.variance == pytest.approx(((b + c) - (b - c) ** 2 / n) / n ** 2)
    g = gain({"A": p}, {"A": 1.0})
    half = 1.959964 * math.sqrt(p.variance)
    assert g.gain == pytest.approx(0.2) and g.low == pytest.approx(20 / 102 - half, abs=1e-5)
    assert g.high == pytest.approx(20 / 102 + half, abs=1e-5) and g.significant
    # independent games would have had the variance of two rates, 0.7·0.3/100 + 0.5·0.5/100; the
    # paired differences (+1 thirty times, -1 ten times, else 0) have variance (0.4 - 0.2²)/100
    assert p.paired_sample_variance == pytest.approx((0.4 - 0.04) / 100)
    assert g.variance_ratio == pytest.approx((0.21 + 0.25) / 0.36)


def test_field_gain_weights_and_bonferroni():
    a, b = Pairs(), Pairs()
    for _ in range(50):
        a.add(True, False)
        a.add(False, False)
        b.add(False, False)
        b.add(False, True)
    g = gain({"A": a, "B": b}, {"A": 0.75, "B": 0.25})
    assert g.gain == pytest.approx(0.75 * 0.5 - 0.25 * 0.5)
    assert g.se == pytest.approx(math.sqrt(0.75 ** 2 * a.variance + 0.25 ** 2 * b.variance))
    wide = gain({"A": a, "B": b}, {"A": 0.75, "B": 0.25}, tests=100)
    assert wide.z == pytest.approx(z_value(0.05, 100)) and wide.z > 3.4
    assert wide.high - wide.low > g.high - g.low
    assert z_value(0.05, 1) == pytest.approx(1.959964, abs=1e-5)
    assert math.isnan(gain({}, {"A": 1.0}).gain)


def test_screen_recovers_planted_values():
    """A synthetic screen: known values for cards in and out; the ranking comes back."""
    rng = np.random.default_rng(3)
    ins = {f"I{k}": v for k, v in enumerate([0.15, 0.08, 0.0, -0.05, -0.12, 0.02, -0.02, 0.1])}
    outs = {f"O{k}": v for k, v in enumerate([0.1, 0.0, -0.1, -0.2, 0.05])}
    variants, groups, results = [], [], []
    for v in range(480):
        chosen_in = rng.choice(list(ins), size=2, replace=False)
        chosen_out = rng.choice(list(outs), size=2, replace=False)
        variants.append([("in", c, False) for c in chosen_in] + [("out", c, False) for c in chosen_out])
        groups.append(v // 8)
        effect = sum(ins[c] for c in chosen_in) + sum(outs[c] for c in chosen_out)
        games = []
        for cell in range(12):
            seed_effect = 0.3 * ((v // 8 * 12 + cell) % 3 - 1)  # shared by the group's variants
            p = min(max(0.5 + seed_effect + effect, 0.0), 1.0)
            games.append((cell, float(rng.random() < p), 1.0))
        results.append(games)
    fit = fit_screen(variants, groups, results, ridge=1.0)
    # only differences are identified (a swap is one in and one out): compare within each kind
    got_in = sorted(ins, key=lambda c: -fit.values[("in", c, False)])
    assert got_in[:2] == ["I0", "I7"] and got_in[-1] == "I4"
    got_out = sorted(outs, key=lambda c: -fit.values[("out", c, False)])
    assert got_out[0] == "O0" and got_out[-1] == "O3"
    best = fit.swap_value("O0", "I0") - fit.swap_value("O3", "I4")
    assert best == pytest.approx(0.15 + 0.1 - (-0.12 - 0.2), abs=0.08)


def _draws_screen(seed: int, variants: int = 600):
    """A synthetic screen of a 30-card deck (ten cards, three copies each) where every copy a game's
    deck holds (13 of its 30, shuffled) adds its card's value to the chance of a win; each variant
    swaps 3 random copies for cards from outside (whose values are known too)."""
    rng = np.random.default_rng(seed)
    deck = {f"D{k}": v for k, v in enumerate([0.02, 0.01, 0.0, 0.0, -0.01, 0.01, -0.08, 0.0, 0.03, -0.05])}
    pool = {f"P{k}": v for k, v in enumerate(rng.normal(-0.02, 0.02, 40))}
    pool["P0"] = 0.08  # the card to bring in
    base = {c: 3 for c in deck}
    slots = [c for c in deck for _ in range(3)]
    games, held, truth, variant_rows = [], [], deck | pool, []
    for v in range(variants):
        cards = list(slots)
        swaps = []
        for i in rng.choice(30, size=3, replace=False):
            into = str(rng.choice(list(pool)))
            swaps.append((cards[i], into))
            cards[i] = into
        rows = []
        for cell in range(12):
            hand = [cards[i] for i in rng.permutation(30)[:13]]
            p = 0.45 + sum(truth[c] for c in hand) - sum(deck[c] for c in slots) * 13 / 30
            won = float(rng.random() < p)
            copies = Counter(hand)
            games.append(((cell % 6, cell // 6), won, 1.0))
            held.append(sorted(copies.items()))
            rows.append((cell, won, 1.0))
        variant_rows.append((swaps, rows))
    return deck, pool, base, games, held, variant_rows


def test_draws_rank_the_decks_cards_and_find_the_card_to_bring_in():
    deck, pool, base, games, held, _ = _draws_screen(5)
    fit = fit_draws(games, held, base, candidates=list(pool) + ["NEVER"])
    outs = sorted(deck, key=lambda c: -fit.values[("out", c, False)])
    assert outs[:2] == ["D6", "D9"] and outs[-1] == "D8"  # the two that drag, the best card last
    best_in = max(pool, key=lambda c: fit.values[("in", c, False)])
    assert best_in == "P0"
    # on the swap's scale: a copy is held in 13 of 30 games, the values are against the deck's average
    q = 13 / 30
    avg = sum(deck.values()) / len(deck)
    for c in ("D6", "D8", "D0"):
        assert fit.values[("out", c, False)] == pytest.approx(-q * (deck[c] - avg), abs=3 * fit.se[("out", c, False)])
    # the cards from outside are pulled towards their mean (each is held in some 200 games): the best
    # swap still takes the worst card out for the best one, and its value is short of the truth
    swaps = {(o, i): fit.swap_value(o, i) for o in deck for i in pool}
    assert max(swaps, key=swaps.get) == ("D6", "P0")
    assert 0 < swaps["D6", "P0"] < q * (0.08 + 0.08)
    # a card no game held is the others' mean, seen in no game
    assert fit.seen[("in", "NEVER", False)] == 0 and fit.values[("in", "NEVER", False)] < 0


def test_draws_know_the_decks_cards_far_better_than_the_swaps_regression():
    deck, pool, base, games, held, variant_rows = _draws_screen(6)
    draws = fit_draws(games, held, base)
    swaps = fit_screen([[("in", i, False) for _, i in sw] + [("out", o, False) for o, _ in sw] for sw, _ in variant_rows],
                       [k // 8 for k in range(len(variant_rows))], [rows for _, rows in variant_rows], ridge=1.0)
    for c in deck:
        # the same games: the cards held are a trial in every game, a swap only in its few variants
        assert draws.se[("out", c, False)] * 3 < swaps.se[("out", c, False)]


# -- the two players' agreement and the short list ---------------------------------------------
def test_rank_agreement_and_its_correction_for_the_judges_noise():
    from mythos_cli.experiment.stats import rank_agreement

    cheap = [0.10, 0.08, 0.05, 0.03, 0.0, -0.02, -0.05, -0.08, -0.1, -0.12]
    same = rank_agreement(cheap, cheap, [0.0] * 10)
    assert same.rho == pytest.approx(1.0) and same.reliability == pytest.approx(1.0)
    assert same.corrected == pytest.approx(1.0)
    reversed_ = rank_agreement(cheap, cheap[::-1], [0.0] * 10)
    assert reversed_.rho == pytest.approx(-1.0)
    # two swaps swapped in the judge's order: Spearman's rho by hand, 1 - 6·Σd²/(n(n²-1))
    judge = cheap[:]
    judge[0], judge[1] = judge[1], judge[0]
    a = rank_agreement(cheap, judge, [0.0] * 10)
    assert a.rho == pytest.approx(1 - 6 * 2 / (10 * 99))
    # Fisher interval with the standard error sqrt(1.06/(n-3)) of Fieller, Hartley and Pearson
    half = 1.959964 * math.sqrt(1.06 / 7)
    assert a.low == pytest.approx(math.tanh(math.atanh(a.rho) - half), abs=1e-6)
    assert a.high == pytest.approx(math.tanh(math.atanh(a.rho) + half), abs=1e-6)
    # the judge's noise is half its spread: rho is divided by sqrt(1/2)
    spread = float(np.var(judge, ddof=1))
    noisy = rank_agreement(cheap, judge, [math.sqrt(spread / 2)] * 10)
    assert noisy.reliability == pytest.approx(0.5) and noisy.corrected == pytest.approx(min(1.0, a.rho / math.sqrt(0.5)))
    # noise that swamps the spread: no correction (it would be unstable)
    swamped = rank_agreement(cheap, judge, [1.0] * 10)
    assert swamped.reliability == 0.0 and swamped.corrected == swamped.rho
    assert math.isnan(rank_agreement([1, 2, 3], [1, 2, 3], [0, 0, 0]).rho)  # too few to say


def test_the_short_list_keeps_more_when_the_players_disagree():
    from scipy.stats import norm

    from mythos_cli.experiment.stats import shortlist_size

    sizes = [shortlist_size(r, 96) for r in (1.0, 0.9, 0.7, 0.5, 0.3, 0.0)]
    assert sizes == sorted(sizes) and sizes[0] == 4 and sizes[-1] > 70
    assert shortlist_size(float("nan"), 96) == shortlist_size(0.0, 96) == shortlist_size(-0.5, 96)
    assert shortlist_size(0.5, 3) == 3  # fewer than the least: all of them
    # the closed form at rho = 0.7, n = 96: k = n(1 - Φ(ρz* - z₀.₈√(1-ρ²))), z* = Φ⁻¹(1 - 1/97)
    top = norm.ppf(1 - 1 / 97)
    k = math.ceil(96 * (1 - norm.cdf(0.7 * top - norm.ppf(0.8) * math.sqrt(1 - 0.49))))
    assert shortlist_size(0.7, 96) == k
    # and the rule holds: when the players' judgements are jointly normal with rho = 0.7, the
    # best by the expensive one is in the cheap one's top k about 80% of the time
    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(2000):
        judge = rng.standard_normal(96)
        cheap = 0.7 * judge + math.sqrt(1 - 0.49) * rng.standard_normal(96)
        hits += int(np.argmax(judge) in np.argsort(-cheap)[:k])
    assert 0.72 < hits / 2000 < 0.92


# -- the plan --------------------------------------------------------------------------------
def test_the_plan_spends_the_budget_on_the_judge_and_screens_with_the_cheap_player():
    from mythos_cli.optimize import plan as P

    p = P.make_plan(8000, "search", "greedy", 6, 4245)
    assert [s.key for s in p.stages] == ["calibration", "calibration", "screen", "shortlist", "sample", "race",
                                         "confirmation"]
    judged = sum(s.games for s in p.stages if s.player == "search")
    assert judged <= 8000 and judged >= 8000 - 6 * 2 * 3  # the budget, to a round of the confirmation
    assert {s.player for s in p.stages if not s.counted} == {"greedy"}
    assert p.cheap_games == sum(s.games for s in p.stages if s.player == "greedy")
    assert p.cheap_games <= P.CHEAP_PER_GAME * 8000 + P.CHEAP_CALIBRATION_GAMES
    for s in p.stages:  # every candidate plays each field deck equally often in each seat
        assert s.per_candidate % (2 * 6) == 0 and (s.key == "race" or s.per_candidate > 0)
    assert not P.problems(p)
    one = P.make_plan(8000, "greedy", "greedy", 6, 4245)
    assert "sample" not in [s.key for s in one.stages] and one.cheap_games == 0
    assert sum(s.games for s in one.stages) <= 8000
    # a field of one deck, a pool of 20 swaps: no screen, every swap in the short list
    small = P.make_plan(600, "greedy", "greedy", 1, 20)
    assert "screen" not in [s.key for s in small.stages] and small.stage("shortlist").candidates == 20
    # the least budget is the edge of the playable plans
    least = P.least_budget("search", "greedy", 6, 4245)
    assert not P.problems(P.make_plan(least, "search", "greedy", 6, 4245))
    assert P.problems(P.make_plan(least - 1, "search", "greedy", 6, 4245))


def test_minutes_become_a_round_budget_from_the_measured_speeds():
    from mythos_cli.optimize import plan as P

    assert [P.ladder_down(x) for x in (9999, 10000, 12000, 7000, 630, 99, 1.3, 0.5)] == \
        [8000, 10000, 10000, 6300, 630, 80, 1, 0]
    rates = {"search": 20.0, "greedy": 1000.0}
    b = P.budget_for(10, rates, "search", "greedy", 6, 4245, stage_seconds=1.5)
    plan = P.make_plan(b, "search", "greedy", 6, 4245)
    fixed = sum(s.games / rates[s.player] for s in plan.stages if s.key == "calibration")
    assert plan.seconds(rates | {P.STAGE_SECONDS: 1.5}) - fixed <= 600
    assert P.ladder_down(b) == b  # a round budget
    # the next budget of the ladder would not fit: b is the largest
    bigger = P.make_plan(int(b * 1.3), "search", "greedy", 6, 4245)
    assert bigger.seconds(rates | {P.STAGE_SECONDS: 1.5}) - fixed > 600
    # a function of the speeds alone (the same speeds, the same budget); speeds 5% apart (a
    # machine's jitter) give the same rung of the ladder or the next one, never more
    assert P.budget_for(10, rates, "search", "greedy", 6, 4245, stage_seconds=1.5) == b
    ladder = sorted({P.ladder_down(x * 10 ** k) for k in range(2, 6) for x in P.LADDER})
    jitter = P.budget_for(10, {"search": 21.0, "greedy": 1050.0}, "search", "greedy", 6, 4245, stage_seconds=1.5)
    assert abs(ladder.index(jitter) - ladder.index(b)) <= 1
    # too few minutes: the least budget, never less
    assert P.budget_for(0.5, rates, "search", "greedy", 6, 4245) == P.least_budget("search", "greedy", 6, 4245)


# -- candidates ------------------------------------------------------------------------------
def test_candidates_weight_dragging_cards_and_cards_that_fit(leaf):
    from mythos_cli.optimize import candidates as C

    drag = C.CardFigure("KS-096", "Gamakichi", 1, 500, 500, -0.10, -0.15, -0.05, -0.17, -0.03, "worse")
    good = C.CardFigure("KS-108", "Naruto", 2, 500, 500, 0.10, 0.05, 0.15, 0.03, 0.17, "better")
    unclear = C.CardFigure("KS-047", "Iruka", 1, 500, 500, 0.0, -0.05, 0.05, -0.07, 0.07, "unclear")
    assert drag.drags > 0.99 and good.drags < 0.01 and unclear.drags == pytest.approx(0.5)
    w = dict(zip(leaf.cards, C.out_weights(leaf, [drag, good, unclear])))
    assert w["KS-096"] == pytest.approx(3.0, abs=0.01) and w["KS-108"] == pytest.approx(1.0, abs=0.01)
    assert w["KS-047"] == pytest.approx(2.0) and w["KS-009"] == pytest.approx(2.0)  # no figure: as unclear
    fit = C.Affinity(leaf)
    # the curve: a card of the same cost fits a slot better than one 3 chakra dearer
    cat = __import__("mythos_cli.catalog", fromlist=["default_catalog"]).default_catalog().by_id
    same = [c for c in cat if cat[c].type == "character" and cat[c].cost == cat["KS-047"].cost
            and cat[c].group == cat["KS-047"].group]
    dear = [c for c in cat if cat[c].type == "character" and cat[c].cost == (cat["KS-047"].cost or 0) + 3
            and cat[c].group == cat["KS-047"].group]
    assert fit.weight("KS-047", same[0]) > fit.weight("KS-047", dear[0])
    assert fit.together("KS-108", "KS-108") and fit.together("KS-009", "KS-011")  # one group


def test_pairs_include_cards_that_work_together(leaf):
    from mythos_cli.optimize import candidates as C

    pool = build_pool(None)
    ranked = [Swap("KS-096", "KS-026"), Swap("KS-047", "KS-081"), Swap("KS-047", "KS-026"), Swap("KS-096", "KS-122")]
    value = {s: v for s, v in zip(ranked, [0.04, 0.03, 0.02, 0.01])}
    pairs = C.pairs_of(ranked, value.__getitem__, leaf, leaf, pool, C.Affinity(leaf), 4)
    got = [sw for _, sw in pairs]
    assert V.canonical((Swap("KS-096", "KS-026"), Swap("KS-047", "KS-026"))) in got  # two copies of one card
    assert all(V.legal(V.apply(leaf, sw), leaf, pool) for sw in got)
    assert len(set(got)) == len(got) <= 4


def test_two_cards_that_drag_meet_in_a_pair(leaf):
    """The best singles all take out the worst card: pairs must still reach the second worst."""
    from mythos_cli.optimize import candidates as C

    pool = build_pool(None)
    ins = ["KS-026", "KS-122", "KS-081", "KS-033", "KS-106", "SS-002", "SS-071", "KS-140", "SS-138", "SS-119",
           "SS-085", "SS-098", "KS-045"]
    ranked = [Swap("KS-096", c) for c in ins] + [Swap("KS-047", "KS-026")]  # Gamakichi 13 times, then Iruka
    value = {s: 0.1 - 0.001 * i for i, s in enumerate(ranked)}
    pairs = [sw for _, sw in C.pairs_of(ranked, value.__getitem__, leaf, leaf, pool, C.Affinity(leaf), 8, best=12,
                                        wide=12)]
    assert any({s.out for s in sw} == {"KS-096", "KS-047"} for sw in pairs), pairs


def test_the_known_answer_is_a_sample_deck_with_the_swaps_its_header_names():
    """benchmarks/bench_optimize.py's known answer (issue 27): the planted list is legal, and it is
    the sample deck its header names with exactly the planted swaps, each to a 0-Power card."""
    import importlib.util

    from mythos_cli.catalog import default_catalog
    from mythos_cli.decks import sample_paths
    from mythos_cli.optimize import variants as V
    from mythos_cli.sim import load_specs

    root = Path(__file__).resolve().parents[1] / "benchmarks"
    spec = importlib.util.spec_from_file_location("bench_optimize", root / "bench_optimize.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    cat = default_catalog()
    known = sorted((root / "known_answers").glob("planted-two-swaps-*.txt"))
    assert bench.KNOWN in known and len(known) >= 3
    for path in known:
        original_name, swaps = bench.planted(path)
        assert len(swaps) == 2
        listed = load_specs([str(path)])[0]
        assert V.validate(listed).valid
        original = load_specs([str(next(p for p in sample_paths() if p.stem == original_name))])[0]
        planted = V.apply(original, swaps)
        assert sorted(planted.cards) == sorted(listed.cards) and planted.missions == listed.missions, path.name
        for s in swaps:  # worse on paper: a card of Power for one of none
            assert cat.by_id[s.into].power == 0 < cat.by_id[s.out].power


def test_the_judge_screens_itself_unless_another_player_is_asked_for():
    """Issue 27: greedy's screen ranked swaps as search does not (rank correlation -0.04 on the
    planted Leaf deck), so the default search screens with the judge's own games."""
    from mythos_cli.optimize import plan as P

    assert P.cheap_player("search", None) == "search"
    assert P.cheap_player("search", "greedy") == "greedy"
    p = P.make_plan(20_000, "search", P.cheap_player("search", None), 6, 4245)
    assert [s.key for s in p.stages] == ["calibration", "screen", "shortlist", "race", "confirmation"]
    assert all(s.counted for s in p.stages) and p.cheap_games == 0 and sum(s.games for s in p.stages) <= 20_000
    screen, short = p.stage("screen"), p.stage("shortlist")
    assert screen.games >= 0.35 * 20_000  # most of the judge's games go where each informs every card's value
    assert short.candidates == P.ONE_SINGLES + P.ONE_PAIRS and short.per_candidate >= 2 * 6 * 4


def test_the_screens_best_singles_are_merged_while_they_make_a_legal_deck():
    """A deck weakened in several places needs several swaps in one step: the screen's best single
    swaps are merged one by one, skipping what would take a card out twice, bring a third copy
    in, or gain nothing; the merged decks of 2, 3, 4, 6 and 8 swaps are candidates."""
    from mythos_cli.optimize import build_pool
    from mythos_cli.optimize.candidates import combinations
    from mythos_cli.sim import load_specs
    from mythos_cli.sim.decks import default_gauntlet

    sand = next(s for s in load_specs(default_gauntlet()) if s.name == "Sand Village")
    pool = build_pool(None)
    S = V.Swap
    values = {S("KS-121", "KS-026"): 0.10, S("KS-076", "KS-026"): 0.08,
              S("KS-121", "KS-071"): 0.07,  # KS-121 is out already (one copy)
              S("KS-082", "KS-026"): 0.06,  # a third KS-026
              S("KS-082", "SS-092"): 0.05, S("KS-084", "KS-121"): 0.04,  # brings in a card taken out
              S("KS-119", "SS-092"): -0.02}  # gains nothing
    ranked = sorted(values, key=lambda s: -values[s])
    combos = combinations(ranked, values.get, sand, pool)
    # (as the cards out and in: one deck is written one way, ``variants.canonical``)
    assert [(sorted(s.out for s in sw), sorted(s.into for s in sw)) for _, sw in combos] == [
        (["KS-076", "KS-121"], ["KS-026", "KS-026"]), (["KS-076", "KS-082", "KS-121"], ["KS-026", "KS-026", "SS-092"])]
    assert [round(v, 2) for v, _ in combos] == [0.18, 0.23]
    assert all(V.legal(V.apply(sand, sw), sand, pool) for _, sw in combos)


def test_a_confirmation_sized_by_pairs_to_prove_has_the_power_it_promises():
    from mythos_cli.experiment.stats import pairs_to_prove

    assert pairs_to_prove(0.1, 1.0, power=0.5) == math.ceil((z_value() * 10) ** 2) == 385  # (1.96 · 1 / 0.1)²
    assert pairs_to_prove(0.0, 0.7) == 0 and pairs_to_prove(-0.1, 0.7) == 0 and pairs_to_prove(math.nan, 0.7) == 0
    assert pairs_to_prove(0.05, 0.7, tests=40) > pairs_to_prove(0.05, 0.7, tests=4) > pairs_to_prove(0.1, 0.7, tests=4)
    # pairs where the variant alone wins 30%, the reference alone 20%: a gain of 0.1, sd √0.49 = 0.7
    only, only_ref = 0.30, 0.20
    sd = math.sqrt(only + only_ref - (only - only_ref) ** 2)
    n = pairs_to_prove(only - only_ref, sd, tests=10, power=0.9)
    rng = np.random.default_rng(3)
    draws = rng.multinomial(n, [only, only_ref, 1 - only - only_ref], size=4000)
    proven = 0
    for b, c, _ in draws:
        p = Pairs(n=int(n), wins=int(b), ref_wins=int(c), only=int(b), only_ref=int(c))
        proven += gain({"x": p}, {"x": 1.0}, tests=10).low > 0
    assert abs(proven / len(draws) - 0.9) < 0.025  # the interval gain() reports, at the power asked


def test_the_confirmation_holds_back_what_proves_the_steps_taken(samples):
    from mythos_cli.experiment.stats import Gain
    from mythos_cli.optimize import OptimizeConfig
    from mythos_cli.optimize import plan as P
    from mythos_cli.optimize.search import Arm, Race, Search

    field = list(samples.values())
    cfg = OptimizeConfig(field[0], field, [1 / 6] * 6, build_pool(["KS", "SS"]), budget=20000, policy="search", seed=1)
    search = Search(None, "", cfg)  # type: ignore[arg-type]
    stage = P.make_plan(20000, "search", "search", 6, 4245).stage("confirmation")
    assert 0 < stage.least_games < stage.games and stage.least_games % 24 == 0

    def taken(g: float, se: float, pairs: int) -> Race:
        race = Race(1, field[0], [])
        race.best = Arm((), field[0], estimate=Gain(g, g - 2 * se, g + 2 * se, se, pairs, 2.0, 1, 1.0))
        race.accepted = True
        return race

    assert search.confirm_reserve(stage, [], 30) == stage.games  # no step taken: all it planned
    big = search.confirm_reserve(stage, [taken(0.30, 0.035, 400)], 30)
    assert big == stage.least_games  # +30 ± 3.5 on 400 pairs: proven with fewer than the least
    modest = search.confirm_reserve(stage, [taken(0.16, 0.035, 400)], 30)
    assert stage.least_games < modest < stage.games and modest % 24 == 0
    # what it holds back proves the steps' lower bound with 90% power at twice the variants judged
    least_gain = 0.16 - cfg.accept_z * 0.035
    from mythos_cli.experiment.stats import pairs_to_prove
    need = pairs_to_prove(least_gain, 0.035 * math.sqrt(400), tests=60)
    assert need <= modest // 2 < need + 12
    # a gain the races barely showed: hold back all it planned
    assert search.confirm_reserve(stage, [taken(0.05, 0.035, 400)], 30) == stage.games
    # two steps: their gains add, their noise too
    two = search.confirm_reserve(stage, [taken(0.12, 0.035, 400), taken(0.12, 0.035, 400)], 30)
    assert two < modest

