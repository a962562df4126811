"""Reading and writing the three list formats: text, community deck code, JSON."""

from __future__ import annotations

import json

import pytest

from mythos_cli.decks import detect, parse, resolve, write
from mythos_cli.decks.model import Deck, DeckEntry

from deckkit import LEGAL_MISSIONS, check, codes, deck_text


def entries(text: str, fmt: str | None = None):
    return [(e.section, e.qty, e.ref, e.label, e.line) for e in parse(text, fmt).deck.entries]


# ---- text list ---------------------------------------------------------------------------
def test_text_list_forms_from_the_issue(catalog):
    text = """# comment
name: Leaf Village Rush
2 KS-009-C
2x KS-001  Hiruzen Sarutobi
1 kakashi hatake / teacher of team 7
MISSIONS:
KS-001-MMS
KS-005-MMS
SS-003-MMS
"""
    parsed = parse(text)
    assert parsed.format == "text" and parsed.problems == []
    assert parsed.deck.name == "Leaf Village Rush"
    assert entries(text) == [
        ("deck", 2, "KS-009-C", "", 3),
        ("deck", 2, "KS-001", "Hiruzen Sarutobi", 4),
        ("deck", 1, "kakashi hatake / teacher of team 7", "", 5),
        ("missions", 1, "KS-001-MMS", "", 7),
        ("missions", 1, "KS-005-MMS", "", 8),
        ("missions", 1, "SS-003-MMS", "", 9),
    ]
    deck, problems = resolve(parsed.deck, catalog)
    assert problems == []
    assert [(e.card.id, e.printing) for e in deck.entries] == [
        ("KS-009", "KS-009-C"), ("KS-001", None), ("KS-015", None),
        ("KS-001-MMS", None), ("KS-005-MMS", None), ("SS-003-MMS", None)]


@pytest.mark.parametrize("line", ["2 KS-009", "2x KS-009", "2X KS-009", "2× KS-009", "2 x KS-009", "x2 KS-009", "2xKS-009"])
def test_quantity_spellings(line):
    assert entries(line) == [("deck", 2, "KS-009", "", 1)]


@pytest.mark.parametrize("line, qty, ref", [("KS-009-C x2", 2, "KS-009-C"), ("Rashomon x2", 2, "Rashomon"), ("KS-009 x 3", 3, "KS-009")])
def test_quantity_after_the_card(line, qty, ref):
    assert entries(line) == [("deck", qty, ref, "", 1)]


def test_two_quantities_or_a_section_without_colon_are_errors():
    assert [p.code for p in parse("2 KS-009 x2\n").problems] == ["bad-quantity"]
    (p,) = parse("2 KS-009\nMissions\nKS-001\n").problems
    assert p.code == "bad-section" and p.lines == (2,) and "`missions:`" in p.hint


def test_headers_comments_and_labels():
    text = "name: Deck #2\nauthor: Ino\n2 KS-009-C  Naruto Uzumaki  # my favourite\nmissions:  # three of them\nKS-001 Call for Support\n"
    parsed = parse(text)
    assert parsed.deck.name == "Deck #2"  # a header value keeps its '#'
    assert parsed.deck.header == {"author": "Ino"}
    assert entries(text) == [("deck", 2, "KS-009-C", "Naruto Uzumaki", 3), ("missions", 1, "KS-001", "Call for Support", 5)]


def test_inline_section_lines():
    text = "2 KS-009\nmissions: KS-001-MMS, KS-005-MMS, SS-003-MMS\n"
    assert [e[2] for e in entries(text)] == ["KS-009", "KS-001-MMS", "KS-005-MMS", "SS-003-MMS"]
    assert parse("leader: Naruto [orange]\n").deck.entries[0].colours == ("orange",)


def test_header_that_looks_like_a_card_is_flagged():
    parsed = parse("sideboard: 2 KS-009\n")
    assert parsed.deck.header == {"sideboard": "2 KS-009"}
    assert [p.code for p in parsed.problems] == ["header-looks-like-card"]


def test_repeated_name_header_warns():
    parsed = parse("name: A\nname: B\n")
    assert parsed.deck.name == "B" and parsed.problems[0].lines == (2, 1)


def test_crlf_cr_and_bom_keep_line_numbers():
    text = "\ufeffname: X\r\n\r\n2 KS-009\r\n3 KS-011\rmissions:\nKS-001"
    assert entries(text) == [("deck", 2, "KS-009", "", 3), ("deck", 3, "KS-011", "", 4), ("missions", 1, "KS-001", "", 6)]
    assert parse(text).deck.name == "X"


@pytest.mark.parametrize("line, code, words", [
    ("0 KS-009", "bad-quantity", "zero"),
    ("-2 KS-009", "bad-quantity", "negative"),
    ("two KS-009", "bad-quantity", "not a number"),
    ("2.5 KS-009", "bad-quantity", "not a whole number"),
    ("1000 KS-009", "absurd-quantity", "absurd"),
    ("1" + "0" * 5000 + " KS-009", "absurd-quantity", "absurd"),
    ("2", "missing-card", "names no card"),
    ("2 KS-009-C-2", "bad-id", "not a card id"),
    ("2 KS-00x9", "bad-id", "not a card id"),
    ("2 Some Card []", "bad-colour", "empty colour"),
])
def test_bad_lines_are_problems_with_their_line(line, code, words):
    parsed = parse(f"name: x\n{line}\n")
    assert parsed.deck.entries == ()
    (p,) = parsed.problems
    assert p.code == code and words in p.message and p.lines == (2,) and p.hint


def test_too_many_lines_stops_early():
    parsed = parse("\n".join(f"1 card number {i}" for i in range(5000)))
    assert parsed.fatal and len(parsed.deck.entries) == 500
    assert parsed.problems[-1].code == "too-many-lines"


# ---- deck code ---------------------------------------------------------------------------
def test_deck_code_with_variant_ids(catalog):
    code = "KS-133_2--1|KS-108-R ART--1|KS-131-SECRET--1|ks009--2|KS-001-MMS--1|SS-001_2-MMS--1|KS-005-MMS--1|Leaf_Village_Rush"
    parsed = parse(code)
    assert parsed.format == "code" and parsed.problems == []
    assert parsed.deck.name == "Leaf Village Rush"
    deck, problems = resolve(parsed.deck, catalog)
    assert problems == []
    assert [(e.section, e.card.id, e.printing, e.qty) for e in deck.entries] == [
        ("deck", "KS-133", "KS-133_2-MV", 1),
        ("deck", "KS-108", "KS-108-RA", 1),
        ("deck", "KS-131", "KS-131-S", 1),
        ("deck", "KS-009", None, 2),
        ("missions", "KS-001-MMS", None, 1),
        ("missions", "SS-001-MMS", "SS-001_2-MMS", 1),
        ("missions", "KS-005-MMS", None, 1),
    ]


def test_deck_code_in_a_file_with_comments_and_trailing_pipe():
    parsed = parse("# exported from the builder\n\nKS-009-C--2|KS-011-C--2|\n")
    assert parsed.format == "code" and parsed.deck.name is None
    assert [(e.ref, e.qty, e.line) for e in parsed.deck.entries] == [("KS-009-C", 2, 3), ("KS-011-C", 2, 3)]


@pytest.mark.parametrize("code, code_name, words", [
    ("KS-009-C-2|KS-011-C--2|Deck", "malformed-code", "two dashes before the quantity: KS-009-C--2"),
    ("KS-009-C--2||KS-011-C--2", "malformed-code", "empty"),
    ("KS-009-C--two|Deck", "bad-quantity", "KS-009-C--2"),
    ("KS-009-C--0|Deck", "bad-quantity", "zero"),
    ("KS-009-C---1|Deck", "bad-quantity", "negative"),
    ("KS-009-C--500|Deck", "absurd-quantity", "absurd"),
    ("Naruto--2|Deck", "bad-id", "not a card id"),
    ("KS-009-C--2|Some Card|Deck", "malformed-code", "the name goes last"),
    ("KS-009-C--2|KS-011-C", "malformed-code", "KS-011-C--1"),
    ("|||", "not-a-deck-list", "no card"),
])
def test_malformed_deck_codes(code, code_name, words):
    parsed = parse(code, "code")
    p = next(p for p in parsed.problems if p.code == code_name)
    assert words in (p.message + " " + (p.hint or ""))
    assert p.lines == (1,)


def test_detection():
    assert detect('  {"cards": []}') == "json"
    assert detect("[1, 2]") == "json"
    assert detect("KS-009-C--2|My_Deck") == "code"
    assert detect("# c\nKS-009-C--2\n") == "code"
    assert detect("2 KS-009-C\n") == "text"
    assert detect("2 KS-009-C -- my favourite\n") == "text"
    assert detect("KS-009-C--2|X\n2 KS-011\n") == "text"


# ---- JSON --------------------------------------------------------------------------------
def test_json_list(catalog):
    doc = {"name": "J", "format": "mythos", "header": {"author": "Ino"},
           "cards": [{"id": "KS-009-C", "qty": 2}, {"name": "Rashomon", "qty": 1}, {"id": "KS-015", "qty": 1, "name": "Kakashi"}],
           "missions": ["KS-001", {"id": "KS-005-MMS"}, {"id": "SS-003-MMS", "qty": 1}]}
    parsed = parse(json.dumps(doc, indent=2))
    assert parsed.format == "json" and parsed.problems == []
    assert parsed.deck.name == "J" and parsed.deck.header == {"author": "Ino", "format": "mythos"}
    deck, problems = resolve(parsed.deck, catalog)
    assert problems == []
    assert [e.card.id for e in deck.entries] == ["KS-009", "KS-067", "KS-015", "KS-001-MMS", "KS-005-MMS", "SS-003-MMS"]
    assert deck.entries[2].label == "Kakashi"


def test_json_problems_carry_path_and_line():
    text = """{"cards": [
  {"id": "KS-009", "qty": 2},
  {"id": "KS-011", "qty": "two"},
  {"id": "KS-013", "qty": true},
  {"id": "KS-013", "qty": 0},
  {"id": "KS-015"},
  {"qty": 2},
  "KS-015",
  {"id": "KS-010", "qty": 1.5},
  {"id": "KS-010", "qty": 99999999999999999999999999999999999999},
  {"id": "KS-010", "qty": 1, "quantity": 2}
],
 "missions": ["KS-001-MMS",
   7],
 "extra": 1}"""
    v = check(text)
    found = {(p.code, p.line, p.message.split(" ")[0]) for p in v.problems if p.line and p.line > 1}
    assert ("bad-quantity", 3, "cards[1]") in found
    assert ("bad-quantity", 4, "cards[2]") in found
    assert ("bad-quantity", 5, "cards[3]") in found
    assert ("bad-quantity", 6, "cards[4]") in found
    assert ("json-shape", 7, "cards[5]") in found
    assert ("json-shape", 8, "cards[6]") in found
    assert ("bad-quantity", 9, "cards[7]") in found
    assert ("absurd-quantity", 10, "cards[8]") in found
    assert ("json-unknown-key", 11, "cards[9]:") in found
    assert ("json-shape", 14, "missions[1]") in found
    assert "json-unknown-key" in codes(v, "warning") and not v.valid


@pytest.mark.parametrize("text, code", [
    ("[1, 2]", "not-a-deck-list"),
    ('[{"id": "KS-009", "qty": 2}]', "not-a-deck-list"),
    ('{"cards": [}', "bad-json"),
    ('{"cards": {"id": "KS-009"}}', "json-shape"),
    ('{"missions": []}', "json-shape"),
    ('{"cards": [], "missions": "KS-001-MMS"}', "json-shape"),
    ('{"name": 3, "cards": []}', "json-shape"),
    ('{"header": [], "cards": []}', "json-shape"),
    ('{"header": {"name": "x"}, "cards": []}', "json-shape"),
    ('{"cards": [{"id": "KS-009", "qty": 1, "colours": 3}]}', "json-shape"),
    ("[" * 50000 + "]" * 50000, "bad-json"),
])
def test_json_of_the_wrong_shape_is_never_valid(text, code):
    v = check(text)
    assert not v.valid and v.readable
    assert code in codes(v, "error")


def test_fatal_json_reports_only_the_reason():
    v = check('{"cards": [}')
    assert codes(v) == ["bad-json"] and "line 1, column 12" in v.problems[0].message


# ---- writing -----------------------------------------------------------------------------
def test_text_writer_is_canonical(catalog):
    deck, _ = resolve(parse("2x ks009 hello\n1 rashomon\nmissions:\nKS-001\n").deck, catalog)
    assert write(deck, "text") == (
        "2 KS-009  Naruto Uzumaki / Genin of the Leaf Village\n"
        "1 KS-067  Rashomon / Summoning\n\n"
        "missions:\nKS-001-MMS  Call for Support\n")


def test_code_and_json_writers(catalog):
    deck, _ = resolve(parse(deck_text()).deck, catalog)
    code = write(deck, "code")
    assert code.startswith("KS-009-C--2|KS-011-C--2|") and code.endswith("|KS-001-MMS--1|KS-005-MMS--1|SS-003-MMS--1|Test_Deck\n")
    doc = json.loads(write(deck, "json"))
    assert doc["name"] == "Test Deck" and doc["missions"] == LEGAL_MISSIONS
    assert doc["cards"][0] == {"id": "KS-009-C", "qty": 2, "name": "Naruto Uzumaki / Genin of the Leaf Village"}


def test_deck_code_names():
    from mythos_cli.decks.deckcode import code_name

    assert code_name("Leaf  Village | Rush -- v2") == "Leaf_Village_/_Rush_-_v2"
    assert code_name("KS-9") is None and code_name("KS 9") == "KS_9" and code_name("") is None and code_name(None) is None
    assert parse("KS-009--2|Leaf_Village_/_Rush_-_v2").deck.name == "Leaf Village / Rush - v2"


def test_writers_refuse_what_a_format_cannot_say():
    gencon = Deck(entries=(DeckEntry("Naruto", 1, "leader", colours=("orange",)),))
    with pytest.raises(ValueError, match="no sections"):
        write(gencon, "code")
    with pytest.raises(ValueError, match="cannot be written"):
        write(Deck(entries=(DeckEntry("Card # one", 1),)), "text")
    with pytest.raises(ValueError, match="not a card id"):
        write(Deck(entries=(DeckEntry("Naruto Uzumaki", 1),)), "code")
    with pytest.raises(ValueError, match="at least one card"):
        write(Deck(name="Empty"), "code")
    with pytest.raises(ValueError, match="unknown list format"):
        write(gencon, "yaml")


def test_deck_entry_rejects_impossible_quantities():
    for qty in (0, -1, 100, 2.0, True):
        with pytest.raises(ValueError):
            DeckEntry("KS-009", qty)


def test_readme_examples_parse_as_documented(catalog):
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = readme.split("```")
    text_list = next(b for b in blocks if b.startswith("\n# A comment"))
    v = check(text_list)
    assert v.deck.name == "Leaf Village Rush" and v.construction_from == "header"
    assert [p.code for p in v.problems] == ["too-few-cards", "few-cheap-plays"]  # an example, not a deck
    assert [(e.card.id, e.qty) for e in v.deck.entries] == [("KS-009", 2), ("KS-001", 2), ("KS-015", 1), ("KS-010", 2),
                                                           ("KS-001-MMS", 1), ("KS-005-MMS", 1), ("SS-003-MMS", 1)]
    example = next(b for b in blocks if b.startswith("json\n"))
    v = check(example[len("json\n"):])
    assert v.list_format == "json" and v.deck.header == {"author": "Ino", "format": "mythos"}
    assert {p.code for p in v.errors} == {"too-few-cards"}
    for fmt in ("naruto-ccg-2006", "gencon-2027"):
        block = next(b for b in blocks if b.startswith(f"\nformat: {fmt}\n"))
        v = check(block)
        assert v.construction == fmt and {p.code for p in v.errors} == {"deck-size"}, v.problems
