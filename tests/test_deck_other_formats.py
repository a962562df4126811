"""naruto-ccg-2006 (seed 003) and gencon-2027 (seed 004) construction."""

from __future__ import annotations

import json

import pytest

from mythos_cli.decks import CONSTRUCTIONS, parse, write
from mythos_cli.decks.syntax import SECTION_WORDS

from deckkit import check, codes, problem

NINJA = ["Naruto Uzumaki", "Sakura Haruno", "Sasuke Uchiha", "Kakashi Hatake", "Iruka Umino", "Rock Lee", "Neji Hyuga", "Tenten"]


def ccg(ninja=None, jutsu=None, mission=None, client=None, header="name: Konoha Starter") -> str:
    ninja = [f"3 {n}" for n in NINJA] if ninja is None else ninja  # 24
    jutsu = ["3 Shadow Clone Jutsu", "3 Sexy Jutsu", "3 Substitution Jutsu", "3 Chidori", "3 Rasengan"] if jutsu is None else jutsu  # 15
    mission = ["3 Chunin Exam Entry", "3 Protect the Bridge", "2 Find the Bell"] if mission is None else mission  # 8
    client = ["3 Tazuna"] if client is None else client  # 3
    parts = [header] if header else []
    for section, lines in (("ninja", ninja), ("jutsu", jutsu), ("mission", mission), ("client", client)):
        if lines:
            parts += [f"{section}:"] + lines
    return "\n".join(parts) + "\n"


def gencon(deck=None, leader="1 Naruto Uzumaki [orange]", chakra=("5 Chakra",), summon=("1 Gamabunta",)) -> str:
    names = ["Shadow Clone", "Iruka", "Konohamaru", "Ebisu", "Teuchi", "Ayame", "Kiba", "Akamaru",
             "Hinata", "Shino", "Choji", "Ino", "Shikamaru", "Asuma", "Kurenai", "Rasengan"]
    deck = ([f"3 {n} [orange]" for n in names[:-1]] + ["3 Rasengan [blue/orange]", "2 Sakura [red/orange]"]) if deck is None else deck
    parts = ["name: Orange Rush"]
    if leader:
        parts += ["leader:", leader]
    if chakra:
        parts += ["chakra:", *chakra]
    if summon:
        parts += ["summon:", *summon]
    return "\n".join(parts + ["deck:", *deck]) + "\n"


def test_every_section_word_is_known_to_the_parser():
    for fmt in CONSTRUCTIONS.values():
        assert set(fmt.sections) <= SECTION_WORDS, fmt.name


# ---- naruto-ccg-2006 ---------------------------------------------------------------------
def test_ccg_legal_deck():
    v = check(ccg(), "naruto-ccg-2006")
    assert v.valid, v.problems
    assert v.counts == {"deck": 50, "ninja": 24, "jutsu": 15, "mission": 8, "client": 3}


def test_ccg_is_chosen_by_header_or_sections():
    assert check(ccg(header="format: naruto-ccg-2006")).construction_from == "header"
    v = check(ccg())
    assert v.construction == "naruto-ccg-2006" and v.construction_from == "sections" and v.valid


@pytest.mark.parametrize("client, size", [(["2 Tazuna"], 49), (["3 Tazuna", "1 Inari"], 51)])
def test_ccg_deck_is_exactly_50(client, size):
    v = check(ccg(client=client), "naruto-ccg-2006")
    p = problem(v, "deck-size")
    assert f"{size} cards" in p.message and "exactly 50" in p.message


def test_ccg_three_copies_by_name_across_sections_and_subtitles():
    v = check(ccg(client=["2 Tazuna", "1 Tazuna / Bridge Builder"]), "naruto-ccg-2006")
    assert v.valid
    v = check(ccg(ninja=[f"3 {n}" for n in NINJA[:-1]] + ["2 Tenten", "1 naruto uzumaki / Nine Tails"]), "naruto-ccg-2006")
    p = problem(v, "too-many-copies")
    assert "4 copies of cards named Naruto Uzumaki" in p.message and p.lines == (3, 11)


def test_ccg_repeated_lines_and_type_conflict_warn():
    v = check(ccg(jutsu=["3 Shadow Clone Jutsu", "3 Sexy Jutsu", "3 Substitution Jutsu", "3 Chidori", "2 Rasengan"],
                  client=["3 Tazuna", "1 Rasengan"]), "naruto-ccg-2006")
    assert v.valid
    assert "listed as client and as jutsu" in problem(v, "type-conflict").message


def test_ccg_cards_need_a_type_section():
    text = "3 Naruto Uzumaki\n" + ccg()
    v = check(text, "naruto-ccg-2006")
    p = problem(v, "no-section")
    assert p.lines == (1,) and "ninja:, jutsu:, mission:, client:" in p.hint


def test_ccg_unknown_section_and_mythos_ids():
    v = check(ccg() + "leader:\n1 Naruto\n", "naruto-ccg-2006")
    assert "belongs to gencon-2027" in problem(v, "unknown-section").hint
    v = check(ccg(client=["2 Tazuna", "1 KS-009"]), "naruto-ccg-2006")
    p = problem(v, "mythos-card")
    assert "1 line names a Naruto Mythos card (KS-009) on line 23" in p.message and p.lines == (23,)
    assert problem(v, "deck-size").message.startswith("the deck has 49 cards (lines with errors are not counted)")


def test_ccg_no_ninja_warns():
    v = check(ccg(ninja=[], jutsu=["3 A", "3 B", "3 C", "3 D", "3 E", "3 F", "3 G", "3 H", "3 I", "3 J", "3 K", "3 L", "3 M"]),
              "naruto-ccg-2006")
    assert "no-ninja" in codes(v, "warning")


# ---- gencon-2027 -------------------------------------------------------------------------
def test_gencon_legal_deck():
    v = check(gencon(), "gencon-2027")
    assert v.valid, v.problems
    assert v.counts == {"deck": 50, "leader": 1, "chakra": 5, "summon": 1}


@pytest.mark.parametrize("kwargs, code, words", [
    ({"leader": None}, "leader-count", "0 leader cards"),
    ({"leader": "2 Naruto Uzumaki [orange]"}, "leader-count", "2 leader cards"),
    ({"chakra": ("4 Chakra",)}, "chakra-count", "4 Chakra cards"),
    ({"chakra": ("5 Chakra", "1 Big Chakra")}, "chakra-count", "6 Chakra cards"),
    ({"summon": None}, "summon-count", "0 Summon cards"),
    ({"summon": ("1 Gamabunta", "1 Gamakichi")}, "summon-count", "2 Summon cards"),
])
def test_gencon_one_leader_five_chakra_one_summon(kwargs, code, words):
    v = check(gencon(**kwargs), "gencon-2027")
    assert not v.valid and words in problem(v, code).message


def test_gencon_deck_is_exactly_50():
    deck = [f"3 Card {i} [orange]" for i in range(16)] + ["1 Last [orange]"]  # 49
    assert "49 cards" in problem(check(gencon(deck), "gencon-2027"), "deck-size").message


def test_gencon_three_copies_of_each_card():
    deck = [f"3 Card {i} [orange]" for i in range(15)] + ["3 Rasengan [orange]", "2 rasengan [orange]"]
    p = problem(check(gencon(deck), "gencon-2027"), "too-many-copies")
    assert "5 copies of Rasengan" in p.message and len(p.lines) == 2


def test_gencon_colours_must_meet_the_leader():
    deck = [f"3 Card {i} [orange]" for i in range(15)] + ["3 Water Wall [blue]", "1 Plain Card", "1 Sakura [Red/ORANGE]"]
    v = check(gencon(deck), "gencon-2027")
    off = problem(v, "off-colour")
    assert "Water Wall [blue] shares no colour with the leader Naruto Uzumaki [orange]" in off.message
    missing = problem(v, "missing-colour")
    assert "Plain Card has no colour" in missing.message and "[red]" in missing.hint
    assert len([p for p in v.problems if p.code in ("off-colour", "missing-colour")]) == 2  # Sakura shares orange
    v = check(gencon(leader="1 Naruto Uzumaki"), "gencon-2027")
    assert "the leader Naruto Uzumaki has no colour" in problem(v, "missing-colour").message


def test_gencon_lists_round_trip_through_json_and_text():
    v = check(gencon(), "gencon-2027")
    for fmt in ("json", "text"):
        again = parse(write(v.deck, fmt))
        assert again.problems == [] and again.deck.content == v.deck.content
    doc = json.loads(write(v.deck, "json"))
    assert doc["cards"][0] == {"name": "Naruto Uzumaki", "qty": 1, "section": "leader", "colours": ["orange"]}
    assert check(write(v.deck, "json")).valid  # the sections alone pick gencon-2027 back
