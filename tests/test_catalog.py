"""The card catalog: loads, validates, counts, lookups."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mythos_cli.catalog import Catalog, CatalogError, load_cards, name_key, parse_card_id
from mythos_cli.catalog.loader import load_file
from mythos_cli.catalog.render import describe


def test_counts(catalog):
    by = Counter((c.set, c.type) for c in catalog)
    assert by == {
        ("KS", "character"): 148,
        ("KS", "mission"): 10,
        ("SS", "character"): 118,
        ("SS", "attachment"): 32,
        ("SS", "mission"): 10,
    }
    assert len(catalog) == 318


def test_every_card_has_its_facts(catalog):
    for c in catalog:
        assert c.printings and c.name
        if c.type == "mission":
            assert c.points is not None and c.points >= 0  # SS-004 High Priority Mission has 0 base points
        else:
            assert isinstance(c.cost, int) and isinstance(c.power, int) and c.group
        if c.type == "attachment":
            assert c.attach_to in ("character", "mission")
            assert any(e.timing == "attach" for e in c.effects)
        for e in c.effects:
            assert e.encoded == (e.facts is not None) and describe(e, c)


def test_printings_map_to_one_version(catalog):
    assert catalog["KS-108-RA"].id == "KS-108"
    assert catalog["KS-108_4-MV"].id == "KS-108"
    assert catalog["SS-001_2-MMS"].id == "SS-001-MMS"
    # Legendary reprints numbered 998/999 are the same cards as 144 Jiraiya and 141 Tsunade.
    assert catalog["SS-998-L"].id == "SS-144" and catalog["SS-998-L"].name == "Jiraiya"
    assert catalog["SS-999-L"].id == "SS-141" and catalog["SS-999-L"].name == "Tsunade"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("KS-108-RA", ("KS", 108, None, "RA")),
        ("ks108", ("KS", 108, None, None)),
        ("KS-133_2", ("KS", 133, 2, None)),
        ("KS-108-R ART", ("KS", 108, None, "RA")),
        ("KS-133-SECRET", ("KS", 133, None, "S")),
        ("SS-078-C", ("SS", 78, None, "C")),
        ("SS 78", ("SS", 78, None, None)),
    ],
)
def test_parse_card_id(text, expected):
    ref = parse_card_id(text)
    assert (ref.set, ref.number, ref.alt, ref.rarity) == expected


def test_parse_card_id_rejects_names():
    assert parse_card_id("naruto") is None
    assert parse_card_id("XX-001") is None


def test_mission_and_character_share_numbers(catalog):
    assert catalog.lookup("KS-001").card.type == "character"
    assert catalog.lookup("KS-001", prefer="mission").card.id == "KS-001-MMS"
    assert catalog["KS-001-MMS"].type == "mission"


def test_name_lookup_is_fuzzy(catalog):
    naruto = catalog.lookup("naruto")
    assert naruto.ambiguous and {c.name for c in naruto.cards} == {"Naruto Uzumaki"}
    assert {c.name for c in catalog.lookup("narto").cards} == {"Naruto Uzumaki"}
    assert {c.name for c in catalog.lookup("kakashi hatake").cards} == {"Kakashi Hatake"}
    one = catalog.lookup("kakashi hatake / teacher of team 7")
    assert one.found and one.card.id == "KS-015"


def test_unknown_gets_suggestions(catalog):
    miss = catalog.lookup("KS-108-C")
    assert not miss.cards and miss.suggestions[0].id == "KS-108"
    assert "no C printing" in miss.problem
    assert not catalog.lookup("KS-999").cards
    assert catalog.lookup("KS-999").suggestions
    wrong_title = catalog.lookup("kakashi / no such title")
    assert not wrong_title.cards and all(c.name == "Kakashi Hatake" for c in wrong_title.suggestions)


def test_name_keys_unify_spellings(catalog):
    assert name_key("Nine-Tails") == name_key("Nine-Tailed Fox") == name_key("Kyûbi")
    assert name_key("Gama Bunta") == name_key("Gamabunta")
    assert {c.name_key for c in catalog.lookup("gama bunta").cards} == {"gamabunta"}
    # Same name, same key, across sets: KS and SS Nine-Tailed Fox are one character name.
    keys = {c.set: c.name_key for c in catalog if c.name == "Nine-Tailed Fox"}
    assert keys["KS"] == keys["SS"]


def test_filters(catalog):
    team7 = catalog.filter(set="KS", keyword="team 7", cost=3)
    assert team7 and all(c.set == "KS" and "Team 7" in c.keywords and c.cost == 3 for c in team7)
    leaf = catalog.filter(group="leaf")
    assert leaf and all(c.group == "Leaf Village" for c in leaf)
    assert len(catalog.filter(type="attachment")) == 32


def test_duel_lines_name_a_real_character(catalog):
    names = {c.name_key for c in catalog if c.type == "character"}
    duels = [e for c in catalog for e in c.effects if e.timing == "duel"]
    assert duels
    assert all(name_key(e.duel) in names for e in duels)


def test_a_repeat_is_a_line_of_its_own(catalog):
    """ "Repeat the MAIN effect" is an instant line with its own yes/no (KS-112, SS-005, SS-013,
    SS-149), never a modifier added to the line it repeats (which would share that line's yes/no)."""
    repeats = []
    for c in catalog:
        for e in c.effects:
            if not e.encoded:
                continue
            assert "repeat" not in e.facts.modifier_verbs, (c.id, e.label)
            if "repeat" in e.facts.verbs:
                repeats.append(c.id)
                assert e.kind == "instant" and set(e.facts.steps) == {"repeat"}, (c.id, e.label)
    assert {"KS-112", "SS-005", "SS-013", "SS-149"} <= set(repeats)


def _write(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "KS.toml"
    p.write_text(body, encoding="utf-8")
    return p


GOOD = '''
[[character]]
id = "KS-001"
number = 1
name = "Test"
title = "T"
cost = 1
power = 1
group = "Leaf Village"
keywords = []
rarity = "C"
printings = ["KS-001-C"]
'''


def test_loader_accepts_a_good_file(tmp_path):
    assert load_file(_write(tmp_path, GOOD))[0].id == "KS-001"


@pytest.mark.parametrize(
    "change, message",
    [
        (('cost = 1', 'cost = 1\nflavour = "x"'), "unknown field"),
        (('group = "Leaf Village"', 'group = "Mist Village"'), "group"),
        (('id = "KS-001"', 'id = "KS-002"'), "does not match"),
        (('rarity = "C"', 'rarity = "Q"'), "rarity"),
        (('printings = ["KS-001-C"]', 'printings = ["KS-1-C"]'), "printing"),
        (('keywords = []', 'keywords = []\neffects = [{ timing = "later", kind = "instant" }]'), "timing"),
        (('keywords = []', 'keywords = []\neffects = [{ timing = "main", kind = "sometimes" }]'), "kind"),
        (('cost = 1', 'cost = -1'), "whole number"),
        (('power = 1', 'power = "high"'), "whole number"),
        (('title = "T"\n', ''), "missing"),
        (('[[character]]', '[[charakter]]'), "unknown table"),
        (('number = 1', 'number = '), "not valid TOML"),
        (('keywords = []', 'keywords = []\neffects = [{ timing = "main", kind = "instant", do = [{ powerup = 2, '
                           'tagret = "self" }] }]'), ":3 (KS-001), effect 1, clause 1: unknown field(s) ['tagret'] on powerup"),
        (('keywords = []', 'keywords = []\neffects = [{ timing = "main", kind = "instant", do = [{ summon = 1 }] }]'),
         ":3 (KS-001), effect 1, clause 1: a step needs"),
    ],
)
def test_loader_rejects_bad_data_with_file_and_line(tmp_path, change, message):
    path = _write(tmp_path, GOOD.replace(*change))
    with pytest.raises(CatalogError) as exc:
        load_file(path)
    assert message in str(exc.value)
    assert str(path) in str(exc.value)


def test_duplicate_printings_are_refused(tmp_path):
    cards = load_file(_write(tmp_path, GOOD))
    with pytest.raises(ValueError):
        Catalog(cards + cards)


def test_bundled_files_load(catalog):
    assert len(load_cards()) == len(catalog)
