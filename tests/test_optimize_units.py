"""mythos optimize, its parts: paired seeds, swaps, pool, field, statistics, the screen's model."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from mythos_cli.optimize import FieldError, PoolError, build_field, build_pool
from mythos_cli.optimize import variants as V
from mythos_cli.experiment.stats import Pairs, fit_screen, gain, z_value
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
