"""The bundled sample decks: legal, exactly 30 cards, 3 missions, distinct archetypes."""

from __future__ import annotations

import pytest

from mythos_cli.decks import check_path, load_deck, sample_paths

SAMPLES = sample_paths()


def test_there_are_at_least_six_samples():
    assert len(SAMPLES) >= 6
    assert {"leaf-team7", "sound-four", "sand-village", "akatsuki-rogues", "hidden-ambush", "ss-attachments"} <= {
        p.stem for p in SAMPLES}


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_is_a_legal_30_card_text_list(path):
    v = check_path(path)
    assert v.valid, [(p.code, p.message) for p in v.errors]
    assert v.list_format == "text" and v.construction == "mythos"
    assert v.counts == {"deck": 30, "missions": 3}
    assert v.deck.name and v.deck.header.get("archetype") == path.stem
    # Only the engine's own limits may warn: the lists themselves are clean.
    assert {p.code for p in v.warnings} <= {"engine-unsupported"}


def test_samples_fit_their_archetype():
    decks = {p.stem: load_deck(p) for p in SAMPLES}

    def share(stem, test):
        cards = decks[stem].card_list()
        return sum(map(test, cards)) / len(cards)

    assert share("leaf-team7", lambda c: "Team 7" in c.keywords) >= 0.8
    assert share("sound-four", lambda c: c.group == "Sound Village") == 1.0
    assert share("sound-four", lambda c: "Sound Four" in c.keywords) >= 0.6
    assert share("sand-village", lambda c: c.group == "Sand Village") == 1.0
    assert share("akatsuki-rogues", lambda c: c.group == "Akatsuki" or "Rogue Ninja" in c.keywords
                 or c.name.endswith("Headband") or c.type == "attachment") >= 0.9
    assert share("hidden-ambush", lambda c: any(line.timing == "ambush" for line in c.effects)) >= 0.9
    assert share("ss-attachments", lambda c: c.type == "attachment") >= 0.3
    assert all(c.set == "SS" for c in decks["ss-attachments"].card_list() if c.type == "attachment")
    assert len({tuple(sorted(d.counts())) for d in decks.values()}) == len(decks)
