"""The missions experiment: selections raced on common random numbers, the best confirmed on fresh seeds."""

from __future__ import annotations

import pytest

from mythos_cli.experiment import ExperimentError
from mythos_cli.experiment import missions as mis
from mythos_cli.sim.decks import default_gauntlet, load_specs
from mythos_cli.store import experiment as xstore
from mythos_cli.store import open_store


def test_selections_keep_the_decks_own_missions_in_their_slots():
    own = ("KS-001-MMS", "KS-002-MMS", "KS-003-MMS")
    sels = mis.selections(own, ["KS-004-MMS", "KS-005-MMS"])
    assert len(sels) == 10 and own in sels
    for s in sels:
        assert all(s[i] == own[i] for i in range(3) if own[i] in s)  # a shared mission stays in its slot


def test_choose_races_confirms_and_reads_back(tmp_path):
    decks = load_specs(default_gauntlet())
    deck, field = decks[0], decks[1:3]
    others = sorted({m for d in decks[3:] for m in d.missions} - set(deck.missions))[:2]
    cfg = mis.MissionsConfig(deck, field, [0.5, 0.5], list(deck.missions) + others, 600, "greedy", 4)
    with open_store(tmp_path / "m.duckdb", create=True) as st:
        out = mis.choose(st, "mx", cfg)
        assert out.selections == 10 and out.tried == 9 and out.screened == 0
        assert out.spent <= cfg.budget and out.best is not None and out.confirmation is not None
        assert out.confirmation.tests == out.tried  # corrected for every selection raced
        assert all(e.estimate.tests == out.tried for e in out.ranked)
        # the confirmation plays seeds the race never played
        assert xstore.shared_seeds(st, "mx-confirm", [r for r in out.runs if r != "mx-confirm"]) == 0
        again = mis.read(st, "mx")
        assert again.to_json() == out.to_json()
        # other shares weigh the same games: the same selection confirmed, other gains
        other = mis.read(st, "mx", {field[0].name: 0.9, field[1].name: 0.1})
        assert other.best.missions == out.best.missions and other.spent == out.spent
        with pytest.raises(ExperimentError):
            mis.choose(st, "mx", mis.MissionsConfig(deck, field, [0.5, 0.5], cfg.candidates, 600, "greedy", 5))


def test_too_few_candidates_or_games_are_refused():
    decks = load_specs(default_gauntlet())
    with pytest.raises(ExperimentError, match="fewer than 4"):
        mis.check(mis.MissionsConfig(decks[0], decks[1:3], [0.5, 0.5], list(decks[0].missions), 6000, "greedy", 1))
    with pytest.raises(ExperimentError, match="too small"):
        other = next(m for d in decks for m in d.missions if m not in decks[0].missions)
        mis.check(mis.MissionsConfig(decks[0], decks[1:3], [0.5, 0.5], [other], 10, "greedy", 1))
