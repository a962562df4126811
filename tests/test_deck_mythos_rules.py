"""Naruto Mythos construction: every rule, every warning, every resolution problem."""

from __future__ import annotations

import pytest

from mythos_cli.decks import load_deck, DeckError
from mythos_cli.decks.construction import mythos

from deckkit import LEGAL_CARDS, LEGAL_MISSIONS, check, codes, deck_text, problem


def test_the_reference_deck_is_legal():
    v = check(deck_text())
    assert v.valid and v.exit_code == 0
    assert v.counts == {"deck": 30, "missions": 3}
    assert v.problems == []
    assert v.construction == "mythos" and v.construction_from == "default"


def test_fewer_than_30_cards():
    v = check(deck_text(LEGAL_CARDS[:-1] + ["1 KS-108-R"]))
    p = problem(v, "too-few-cards")
    assert not v.valid and v.exit_code == 1
    assert "29 cards" in p.message and "at least 30" in p.message and "add 1 more" in p.hint


def test_more_than_30_is_legal_with_a_warning():
    v = check(deck_text(LEGAL_CARDS + ["1 KS-040-C  Tenten"]))
    assert v.valid and v.counts["deck"] == 31
    assert codes(v) == ["over-30"]


def test_missions_do_not_count_towards_30():
    v = check(deck_text(LEGAL_CARDS[:-1], LEGAL_MISSIONS))
    assert v.counts == {"deck": 28, "missions": 3} and "too-few-cards" in codes(v)


def test_three_copies_of_one_version_across_printings():
    cards = LEGAL_CARDS[:-1] + ["2 KS-108-R", "1 KS-108-RA  Naruto Uzumaki"]
    v = check(deck_text(cards))
    p = problem(v, "too-many-copies")
    assert p.lines == (16, 17)
    assert "3 copies of KS-108" in p.message and "KS-108-R and KS-108-RA are the same version" in p.message
    assert "remove 1 copy" in p.hint and "every printing" in p.hint


def test_any_number_of_cards_may_share_a_name():
    # Six Naruto Uzumaki: KS-009, KS-145, KS-108 (twice each) are three versions.
    v = check(deck_text())
    assert sum(e.qty for e in v.deck.cards if e.card.name == "Naruto Uzumaki") == 6
    assert v.valid


def test_same_card_on_several_lines_is_merged_then_counted():
    legal = check(deck_text(LEGAL_CARDS[1:] + ["1 KS-009-C", "1 KS-009-C"]))
    assert legal.valid and legal.counts["deck"] == 30
    p = problem(legal, "repeated-line")
    assert p.severity == "warning" and p.lines == (16, 17) and "counted together as 2" in p.message

    over = check(deck_text(LEGAL_CARDS + ["1 ks009"]))
    p = problem(over, "too-many-copies")
    assert p.lines == (2, 17) and "lines 2, 17" in p.message
    assert "repeated-line" not in codes(over)


@pytest.mark.parametrize("missions, code, words", [
    (["KS-001-MMS", "KS-005-MMS"], "mission-count", "2 missions"),
    (["KS-001-MMS", "KS-005-MMS", "SS-003-MMS", "SS-004-MMS"], "mission-count", "4 missions"),
    (["KS-001-MMS", "KS-001-MMS", "SS-003-MMS"], "repeated-mission", "listed 2 times"),
    (["SS-001-MMS", "SS-001_2-MMS", "SS-003-MMS"], "repeated-mission", "listed 2 times"),
    (["2 KS-001-MMS", "SS-003-MMS"], "repeated-mission", "listed 2 times"),
    ([], "mission-count", "no missions"),
])
def test_exactly_three_different_missions(missions, code, words):
    v = check(deck_text(missions=missions))
    assert not v.valid
    assert words in problem(v, code).message


def test_no_missions_section_at_all():
    v = check(deck_text(missions=False))
    p = problem(v, "mission-count")
    assert "no missions" in p.message and "KS-001-MMS" in p.hint


def test_a_mission_in_the_deck_section():
    v = check(deck_text(LEGAL_CARDS + ["1 KS-002-MMS"]))
    p = problem(v, "mission-in-deck")
    assert p.lines == (17,) and "Chunin Exam is a mission" in p.message and "missions:" in p.hint
    assert v.counts["deck"] == 30


def test_a_character_in_the_missions_section():
    v = check(deck_text(missions=["KS-001-MMS", "KS-005-MMS", "KS-050"]))
    p = problem(v, "not-a-mission")
    assert "Orochimaru" in p.message and "character, not a mission" in p.message
    assert problem(v, "mission-count").message.startswith("2 missions")


def test_an_attachment_in_the_missions_section():
    v = check(deck_text(missions=["KS-001-MMS", "KS-005-MMS", "SS-091"]))
    assert "an attachment, not a mission" in problem(v, "not-a-mission").message


def test_bare_numbers_mean_missions_only_in_the_missions_section():
    v = check(deck_text(LEGAL_CARDS[:-1] + ["2 KS-001"], ["KS-001", "KS-005", "SS-003"]))
    assert v.valid
    assert v.deck.cards[-1].card.type == "character"
    assert [e.card.id for e in v.deck.missions] == LEGAL_MISSIONS


def test_unknown_section():
    v = check(deck_text(LEGAL_CARDS + ["sideboard:", "2 KS-020"]))
    p = problem(v, "unknown-section")
    assert p.lines == (17,) and "sideboard" in p.message and "not counted" in p.message
    assert "deck:, missions:" in p.hint
    assert v.counts["deck"] == 30


def test_unknown_id_suggests_the_card():
    v = check(deck_text(LEGAL_CARDS[1:] + ["2 KS-009-R"]))
    p = problem(v, "unknown-card")
    assert p.lines == (16,) and "no R printing" in p.message
    assert p.hint.startswith("did you mean KS-009-C Naruto Uzumaki")


def test_unknown_number_suggests_near_numbers():
    p = problem(check(deck_text(LEGAL_CARDS + ["1 KS-149"])), "unknown-card")
    assert "no card KS-149" in p.message and "KS-148-M Kakashi Hatake" in p.hint


def test_unknown_mission_suggests_missions():
    p = problem(check(deck_text(missions=["KS-001-MMS", "KS-005-MMS", "KS-011-MMS"])), "unknown-card")
    assert "KS-010-MMS Chakra Training" in p.hint


def test_unknown_name_suggests_names():
    p = problem(check(deck_text(LEGAL_CARDS + ["1 Orochimaruu Sanin xyz"])), "unknown-card")
    assert "did you mean" in p.hint or "cards list" in p.hint


def test_ambiguous_name_lists_the_candidates():
    v = check(deck_text(LEGAL_CARDS + ["1 kakashi"]))
    p = problem(v, "ambiguous-card")
    assert "matches 7 cards" in p.message and "KS-015 Kakashi Hatake / Teacher of Team 7" in p.message
    assert "name and title" in p.hint and "Kakashi Hatake / " in p.hint


def test_name_and_title_pick_one_version():
    v = check(deck_text(LEGAL_CARDS[:-1] + ["2 Naruto Uzumaki / Fury of the Rasengan"]))
    assert v.valid and v.deck.cards[-1].card.id == "KS-108"


def test_a_guessed_name_is_a_warning():
    v = check(deck_text(LEGAL_CARDS[:-1] + ["2 narutto uzumaki / fury of the rasengann"]))
    assert v.valid
    assert "read as KS-108 Naruto Uzumaki / Fury of the Rasengan" in problem(v, "guessed-card").message


def test_a_label_naming_another_card_is_a_warning():
    v = check(deck_text(LEGAL_CARDS[1:] + ["2 KS-009  Sasuke Uchiha"]))
    assert v.valid and "the line says 'Sasuke Uchiha'" in problem(v, "label-mismatch").message


def test_colours_are_ignored_with_a_warning():
    v = check(deck_text(LEGAL_CARDS[1:] + ["2 KS-009 [orange]"]))
    assert v.valid and codes(v) == ["ignored-colour"]


# ---- advice ------------------------------------------------------------------------------
def test_heavy_curve_by_average():
    heavy = [f"2 {i}" for i in ("KS-104", "KS-105", "KS-106", "KS-107", "KS-108", "KS-110", "KS-112",
                                "KS-114", "KS-119", "KS-121", "KS-122", "KS-124", "KS-125", "KS-127", "KS-009")]
    v = check(deck_text(heavy))
    assert v.valid
    assert "average cost 4.9" in problem(v, "heavy-curve").message  # 146 chakra / 30 cards
    assert "only 2 cards cost 2 or less" in problem(v, "few-cheap-plays").message


def test_heavy_curve_by_top_end():
    cards = LEGAL_CARDS[:11] + ["2 KS-105", "2 KS-111", "2 KS-113", "2 KS-116"]  # 8 cards of cost 6
    v = check(deck_text(cards))
    p = problem(v, "heavy-curve")
    assert "8 cards cost 6 or more" in p.message and "average" not in p.message


def test_balanced_curve_has_no_curve_warning():
    v = check(deck_text())
    assert "heavy-curve" not in codes(v) and "few-cheap-plays" not in codes(v)


def test_thresholds_are_the_documented_ones():
    assert (mythos.HEAVY_AVERAGE, mythos.HEAVY_COST, mythos.HEAVY_COUNT) == (4.0, 6, 6)
    assert (mythos.CHEAP_COST, mythos.CHEAP_MIN) == (2, 6)


def test_engine_warning_asks_the_engine():
    everything = check(deck_text(), executable=lambda line: True)
    assert "engine-unsupported" not in codes(everything)
    nothing = check(deck_text(), executable=lambda line: False)
    p = problem(nothing, "engine-unsupported")
    # KS-009 has no effect line: a vanilla card needs nothing from the engine.
    assert p.severity == "warning" and "17 of the 18" in p.message and "KS-009," not in p.message
    only_main = check(deck_text(), executable=lambda line: line.timing == "main")
    assert problem(only_main, "engine-unsupported").message != p.message
    assert nothing.valid


def test_engine_warning_follows_the_real_engine():
    from mythos_cli.catalog.coverage import executable

    v = check(deck_text(), executable=None)
    ids = {e.card.id for e in v.deck.entries if any(not executable(line) for line in e.card.effects)}
    assert ("engine-unsupported" in codes(v)) == bool(ids)


# ---- choosing the format -----------------------------------------------------------------
def test_format_header_option_and_guess():
    text = deck_text(header="name: X\nformat: mythos")
    assert check(text).construction_from == "header"
    v = check(text, "gencon-2027")
    assert v.construction == "gencon-2027" and problem(v, "format-override").lines == (2,)
    v = check(deck_text(header="format: yu-gi-oh"))
    assert problem(v, "unknown-format").lines == (1,) and v.construction == "mythos"
    v = check('{\n"cards": [],\n "format": "yu-gi-oh"}')
    assert problem(v, "unknown-format").lines == (3,)
    v = check("leader:\n1 Naruto [orange]\n")
    assert v.construction == "gencon-2027" and v.construction_from == "sections"
    with pytest.raises(ValueError):
        check(deck_text(), "chess")


def test_load_deck_gives_a_resolved_deck_or_raises(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text(deck_text(), encoding="utf-8")
    deck = load_deck(path)
    assert len(deck.card_list()) == 30 and len(deck.card_list("missions")) == 3
    assert deck.counts()["KS-108"] == 2
    path.write_text(deck_text(LEGAL_CARDS[:3]), encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_deck(path)
    assert "too-few-cards" in [p.code for p in info.value.problems] and "d.txt" in str(info.value)


def test_decks_built_in_code_validate_too(catalog):
    from mythos_cli.decks.model import Deck, DeckEntry

    card, mission = catalog["KS-009"], catalog["KS-001-MMS"]
    deck = Deck(entries=(DeckEntry("KS-009", 2, card=card), DeckEntry("KS-009", 1, card=card),
                         DeckEntry("KS-001-MMS", 1, "missions", card=mission), DeckEntry("KS-001-MMS", 1, "missions", card=mission)))
    report = mythos.check(deck, catalog, lambda line: True)
    messages = {p.code: p.message for p in report.problems}
    assert "3 copies of KS-009" in messages["too-many-copies"]
    assert "(several entries without line numbers)" in messages["repeated-mission"]
    assert report.counts == {"deck": 3, "missions": 2}


def test_an_empty_unknown_section_is_a_warning():
    v = check(deck_text() + "sideboard:\n")
    assert v.valid
    p = problem(v, "unknown-section")
    assert p.severity == "warning" and p.lines == (21,) and "empty" in p.message
    v = check("name:\n" + deck_text(header=None))
    p = problem(v, "unknown-section")
    assert not v.valid and p.lines == (1,) and "`name: …`" in p.hint and "30 cards in it are not counted" in p.message
