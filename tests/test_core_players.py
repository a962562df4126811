"""The built-in players in the compiled core decide exactly as their Python versions (issue 16).

Games are played on the Python engine by the Python players and followed in the core (as
``benchmarks/differential.py`` follows them); at every decision the core player of that seat,
reset with the same seed, is asked too, and must give the same answer. The core players are also
checked on their own: they never look at what their seat cannot see, and the same seed gives the
same decisions.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

_core = pytest.importorskip("mythos_cli._core", reason="the Rust core is not built (pip install -e . or maturin develop)")

from mythos_cli.decks import load_deck, sample_paths  # noqa: E402
from mythos_cli.engine import apply, new_game  # noqa: E402
from mythos_cli.policies import PolicySpecError, make_policy  # noqa: E402
from mythos_cli.policies.base import Observation  # noqa: E402
from mythos_cli.sim.decks import deck_spec  # noqa: E402
from mythos_cli.sim.game import game_deck  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

PLAYERS = ["random", "greedy", "tempo", "ambush", "control"]
LOOKAHEAD = "lookahead:sims=4,width=3"


@pytest.fixture(scope="module")
def sample():
    return [game_deck(deck_spec(load_deck(p), Path(p).stem)) for p in sample_paths()]


def ids(deck):
    return [c.id for c in deck.cards], [m.id for m in deck.missions]


def core_game(a, b, seed):
    return _core.Game(*ids(a), *ids(b), seed)


def follow(a, b, seed, spec, mulligan=None):
    """Play a game on the Python engine with the Python player ``spec`` in both seats, mirrored in
    the core; at every decision ask the core player of that seat. The first difference, or None."""
    g, c = new_game(a, b, seed), core_game(a, b, seed)
    py = [make_policy(spec, mulligan), make_policy(spec, mulligan)]
    core = [_core.Player(spec, mulligan), _core.Player(spec, mulligan)]
    for seat in (0, 1):
        py[seat].reset(seed * 2 + 1 + seat)
        core[seat].reset(seed * 2 + 1 + seat)
    step = 0
    while not g.is_terminal:
        seat = g.pending.player
        want = tuple(py[seat].decide(Observation(g, seat)))
        got = tuple(core[seat].decide(c))
        if got != want:
            return (f"{spec} seed {seed} decision {step} (round {g.round}, {g.pending.kind} of p{seat + 1}): "
                    f"Python {want}, core {got}")
        apply(g, want)
        c.apply(want)
        step += 1
    return None


def pairs(n):
    return [(i, j) for i in range(n) for j in range(n)]


@pytest.mark.parametrize("spec", PLAYERS)
def test_core_players_decide_as_the_python_players(spec, sample):
    """Every sample-deck pair, both seats (each ordered pair), two games each."""
    diffs = [d for k, (i, j) in enumerate(pairs(len(sample))) for r in range(2)
             if (d := follow(sample[i], sample[j], 7000 + 2 * k + r, spec))]
    assert diffs == [], diffs[:3]


def test_core_lookahead_decides_as_the_python_lookahead(sample):
    diffs = [d for k, (i, j) in enumerate(pairs(len(sample))) if (d := follow(sample[i], sample[j], 9000 + k, LOOKAHEAD))]
    assert diffs == [], diffs[:3]


@pytest.mark.parametrize("spec,mulligan", [("random", "heuristic"), ("greedy", "always"), ("control", "keep"),
                                           ("tempo", "never")])
def test_mulligan_rules_are_the_python_ones(spec, mulligan, sample):
    diffs = [d for k in range(12) if (d := follow(sample[k % 6], sample[(k * 5 + 1) % 6], 300 + k, spec, mulligan))]
    assert diffs == [], diffs[:3]


def test_random_decks_too():
    """Random decks of both sets (every card may come up), greedy and ambush."""
    from bench_engine import make_decks

    decks = make_decks(12, ("KS", "SS"), "all", 5)
    diffs = [d for spec in ("greedy", "ambush", "control") for i in range(12)
             if (d := follow(decks[i], decks[(i * 7 + 3) % 12], 4000 + i, spec))]
    assert diffs == [], diffs[:3]


def test_every_card_comes_up():
    """Decks cut from the whole catalog (KS and SS, characters and attachments), so that every
    card's effects are valued by both players somewhere."""
    from mythos_cli.catalog import default_catalog
    from mythos_cli.engine import deck_from_catalog

    cat = default_catalog()
    cards = [c.id for c in cat if c.in_deck]
    missions = [c.id for c in cat if c.type == "mission"]
    rng = random.Random(16)
    rng.shuffle(cards)
    decks = [deck_from_catalog(cat, cards[k:k + 15] * 2, rng.sample(missions, 3), f"cut-{k}")
             for k in range(0, len(cards) - 14, 15)]
    n = len(decks)
    diffs = [d for spec in PLAYERS[1:] for i in range(n) for r in range(3)
             if (d := follow(decks[i], decks[(i + 1 + r) % n], 600 + 10 * i + r, spec))]
    diffs += [d for i in range(n) if (d := follow(decks[i], decks[(i + 7) % n], 800 + i, LOOKAHEAD))]
    assert diffs == [], diffs[:3]


# ---- the specs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("spec,mulligan", [
    ("nope", None), ("greedy:sims=3", None), ("lookahead:sims", None), ("lookahead:sims=abc", None),
    ("greedy", "sometimes"), ("Greedy:x=1", None), ("lookahead:width=2,", None), ("lookahead:sims=1_0", None),
    ("lookahead:sims=2.5,time=1,leaf=0.5,clear=1e-05", None), ("lookahead:foo=3", None), (" random ", "always"),
    ("lookahead:sims= 7 ", None),
])
def test_specs_are_read_as_make_policy_reads_them(spec, mulligan):
    try:
        want = make_policy(spec, mulligan).spec
    except PolicySpecError as exc:
        with pytest.raises(ValueError) as got:
            _core.Player(spec, mulligan)
        assert str(got.value) == str(exc)
    else:
        assert _core.Player(spec, mulligan).spec == want


# ---- no peeking ----------------------------------------------------------------------------------
def redealt(c, me, seed):
    """The same game with what ``me`` cannot see dealt again: the opponent's hand, hidden
    characters and face-down attachments traded among themselves and the opponent's deck, both
    decks in a new order."""
    return c.determinize(me, seed)


def _check_no_peek(spec, decks, driver, steps_range, seeds, at_least):
    rng = random.Random(11)
    tested = 0
    for seed in range(seeds):
        a, b = decks(seed)
        c = core_game(a, b, seed)
        drive = _core.Player(driver)
        drive.reset(seed)
        for _ in range(rng.randrange(*steps_range)):
            if c.is_terminal:
                break
            c.apply(drive.decide(c))
        if c.is_terminal:
            continue
        me = c.pending()["player"]
        other = redealt(c, me, rng.getrandbits(32))
        assert other.legal_actions() == c.legal_actions()
        p1, p2 = _core.Player(spec), _core.Player(spec)
        p1.reset(99)
        p2.reset(99)
        # every action names only my cards or public units, so the choices must be identical
        assert p2.decide(other) == p1.decide(c)
        tested += 1
    assert tested >= at_least


@pytest.mark.parametrize("spec", PLAYERS[1:] + [LOOKAHEAD])
def test_core_players_do_not_peek(spec, sample):
    from bench_engine import make_decks

    decks = make_decks(10, ("KS", "SS"), "all", 3)
    _check_no_peek(spec, lambda seed: (decks[seed % 10], decks[(seed + 5) % 10]), "random", (10, 60), 30, 20)
    # the last sample deck plays attachments face down
    _check_no_peek(spec, lambda seed: (sample[seed % len(sample)], sample[-1]), "ambush", (20, 70), 30, 20)


def test_redealing_changes_what_the_player_cannot_see(sample):
    """The no-peek check is not vacuous: the opponent's hand or deck differs after a re-deal."""
    c = core_game(sample[0], sample[-1], 3)
    drive = _core.Player("greedy")
    for _ in range(30):
        c.apply(drive.decide(c))
    me = c.pending()["player"]
    other = redealt(c, me, 1)
    assert other.player(1 - me)["hand"] != c.player(1 - me)["hand"] or other.player(1 - me)["deck"] != c.player(1 - me)["deck"]
    assert other.player(me)["hand"] == c.player(me)["hand"]


# ---- reproducible ----------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", PLAYERS + [LOOKAHEAD])
def test_same_seed_same_decisions(spec, sample):
    def history(seed):
        c = core_game(sample[1], sample[2], seed)
        p = [_core.Player(spec), _core.Player("greedy")]
        p[0].reset(seed * 2 + 1)
        p[1].reset(seed * 2 + 2)
        out = []
        while not c.is_terminal:
            a = p[c.pending()["player"]].decide(c)
            out.append(a)
            c.apply(a)
        return out

    assert history(17) == history(17)
    assert history(17) != history(18)


def test_batches_play_the_games_of_play_match(sample):
    """``play_matches`` (whole games in the core, the GIL released) gives each game's result as
    the Python ``play_match`` does with the Python players."""
    from mythos_cli.policies import play_match

    decks = [ids(d) for d in sample]
    games = [(i % 6, (i * 5 + 1) % 6, 50 + i) for i in range(8)]
    rows = _core.play_matches(decks, games, "tempo", "greedy")
    for (a, b, seed), (winner, sa, sb, decisions, _rounds) in zip(games, rows):
        r = play_match(sample[a], sample[b], make_policy("tempo"), make_policy("greedy"), seed)
        assert (winner, (sa, sb), decisions) == (r.winner, r.scores, r.state.decisions)
    assert _core.play_matches(decks, games, "tempo", "greedy") == rows
    with pytest.raises(ValueError):
        _core.play_matches(decks, games, "tempo", "nope")
