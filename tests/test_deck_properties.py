"""Property tests: every list format round-trips, and no input makes the parsers raise."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mythos_cli.catalog import default_catalog
from mythos_cli.decks import check_source, decode, parse, resolve, write
from mythos_cli.decks.deckcode import code_name
from mythos_cli.decks.model import DECK, MISSIONS, Deck, DeckEntry
from mythos_cli.decks.source import Source, Unreadable
from mythos_cli.decks.syntax import SECTION_WORDS

CATALOG = default_catalog()
DECK_CARDS = [c for c in CATALOG if c.type != "mission"]
MISSION_CARDS = [c for c in CATALOG if c.type == "mission"]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
words = st.builds(str.__add__, st.sampled_from(LETTERS), st.text(LETTERS + "0123456789'!?.:-", max_size=8))
phrase = st.lists(words, min_size=1, max_size=4).map(" ".join)


@st.composite
def catalog_entry(draw, cards, section):
    card = draw(st.sampled_from(cards))
    printing = draw(st.sampled_from([None, *card.printings]))
    if printing == card.id:
        printing = None  # a mission's base printing is its version id: it names nothing more
    qty = 1 if section == MISSIONS and draw(st.booleans()) else draw(st.integers(1, 99))
    return DeckEntry(card.id, qty, section, card=card, printing=printing)


header_keys = st.builds(str.__add__, st.sampled_from(LETTERS[:26]), st.text("abcdefghij0123_-", max_size=6)).filter(
    lambda k: k != "name" and k not in SECTION_WORDS and k.replace("_", " ").replace("-", " ") not in SECTION_WORDS)


@st.composite
def mythos_decks(draw):
    cards = draw(st.lists(catalog_entry(DECK_CARDS, DECK), max_size=20))
    missions = draw(st.lists(catalog_entry(MISSION_CARDS, MISSIONS), max_size=5))
    name = draw(st.none() | phrase)
    header = draw(st.dictionaries(header_keys, phrase, max_size=3))
    return Deck(name=name, header=header, entries=tuple(cards + missions))


def reread(deck: Deck, fmt: str) -> Deck:
    parsed = parse(write(deck, fmt))
    assert parsed.format == fmt
    assert [p for p in parsed.problems if p.is_error] == []
    resolved, problems = resolve(parsed.deck, CATALOG)
    assert [p for p in problems if p.is_error] == []
    return resolved


@SETTINGS
@given(mythos_decks())
def test_mythos_lists_round_trip_in_text_and_json(deck):
    for fmt in ("text", "json"):
        again = reread(deck, fmt)
        assert again.content == deck.content
        assert write(again, fmt) == write(deck, fmt)


@SETTINGS
@given(mythos_decks())
def test_mythos_lists_round_trip_in_the_deck_code(deck):
    # The code carries cards, missions and the name (underscores for spaces), no header.
    if not deck.entries:
        return  # nothing to write: covered by test_writers_refuse_what_a_format_cannot_say
    again = reread(deck, "code")
    coded = code_name(deck.name)
    expected = Deck(name=coded.replace("_", " ") if coded else None, entries=tuple(deck.section(DECK) + deck.section(MISSIONS)))
    got = Deck(name=again.name, entries=again.entries)
    assert got.content == expected.content


@st.composite
def foreign_decks(draw):
    sections = st.sampled_from(["ninja", "jutsu", "mission", "client", "leader", "chakra", "summon", "deck"])
    colours = st.lists(st.text(LETTERS[:26], min_size=2, max_size=8), max_size=2, unique=True).map(tuple)
    name = phrase.filter(lambda n: not re.match(r"^(KS|SS)\s?-?\d", n, re.I))
    entries = draw(st.lists(st.builds(lambda r, q, s, c: DeckEntry(r, q, s, colours=c), name, st.integers(1, 99), sections, colours),
                            max_size=15))
    return Deck(name=draw(st.none() | phrase), entries=tuple(entries))


@SETTINGS
@given(foreign_decks())
def test_named_lists_round_trip_in_text_and_json(deck):
    for fmt in ("json", "text"):
        try:
            text = write(deck, fmt)
        except ValueError:
            # The text writer refuses a name that would read back as something else
            # ("Card x2" as a quantity): that is the only refusal allowed.
            assert fmt == "text"
            assume(False)
        parsed = parse(text)
        assert parsed.problems == []
        assert parsed.deck.content == deck.content


lines = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"[-+x0-9 .]{0,6}(KS|SS)[- _]?[0-9]{1,4}(_[0-9])?(-[A-Z ]{0,7})?( [A-Za-z/ ]{0,20})?( \[[a-z/]*\])?", fullmatch=True),
    st.sampled_from(["missions:", "deck:", "ninja:", "leader:", "name: x", "MISSIONS:", "# c", "", "2 kakashi", "1 naruto / rasengan"]),
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, max_size=25).map("\n".join), st.sampled_from([None, "mythos", "naruto-ccg-2006", "gencon-2027"]))
def test_any_text_gives_a_verdict_never_an_exception(text, fmt):
    try:
        source = decode(text.encode("utf-8", "surrogatepass"), "fuzz.txt")
    except (Unreadable, UnicodeError):
        return
    v = check_source(source, fmt, executable=lambda line: True)
    assert v.readable
    if v.valid:
        # Whatever the fuzz found, a legal verdict must really hold.
        if v.construction == "mythos":
            assert v.counts["deck"] >= 30 and v.counts["missions"] == 3
            assert all(q <= 2 for q in v.deck.counts().values())


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_a_verdict_never_an_exception(data):
    try:
        source = decode(data, "fuzz.bin")
    except Unreadable as exc:
        assert exc.problem.is_error and exc.problem.code
        return
    check_source(source, executable=lambda line: True)


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
                        st.sampled_from(["name", "cards", "missions", "id", "qty", "header", "format", "section", "colours", "x"]),
                        kids, max_size=5),
                    max_leaves=20))
def test_any_json_gives_a_verdict_never_an_exception(value):
    import json

    text = json.dumps({"cards": value} if not isinstance(value, dict) else value)
    v = check_source(Source("fuzz.json", text), executable=lambda line: True)
    assert v.readable and not v.valid
