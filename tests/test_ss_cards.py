"""The whole Shinobi Shiren set is playable: encoded, rendered, executable, scenario-tested.

Also the Shinobi Shiren mechanics as a whole: games with both sets keep every invariant in the
rules core, and the new language fields are validated. (That the core's fast action generator
agrees with its general placement rules for both sets is a test of the core itself:
``core/tests/actions.rs``.)
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mythos_cli import _core
from mythos_cli.catalog.coverage import coverage, special_uses
from mythos_cli.catalog.render import NOT_ENCODED, describe
from mythos_cli.cli import app

from cardkit import encoding_error

SCENARIOS = Path(__file__).parent / "scenarios" / "cards" / "ss"
MAX_SS_SPECIALS = 5


def ss_cards(catalog):
    return [c for c in catalog if c.set == "SS"]


def mixed_deck(catalog, rng) -> tuple[list[str], list[str]]:
    """A deck drawn from the whole KS+SS pool, characters and attachments: (cards, missions)."""
    cards = [c.id for c in catalog if c.in_deck]
    missions = [c.id for c in catalog if c.type == "mission"]
    return rng.sample(cards, 15) * 2, rng.sample(missions, 3)


def test_every_ss_card_renders_its_own_english(catalog):
    for card in ss_cards(catalog):
        for line in card.effects:
            text = describe(line, card)
            assert text and NOT_ENCODED not in text, (card.id, line.label, text)
            assert line.encoded and len(text) > 8 and text.endswith("."), (card.id, text)
            assert "(unknown" not in text and "remembered as" not in text, (card.id, text)


def test_cards_show_prints_every_ss_effect(catalog):
    runner = CliRunner()
    for card in ss_cards(catalog):
        res = runner.invoke(app, ["cards", "show", card.id])
        assert res.exit_code == 0, (card.id, res.output)
        flat = " ".join(res.output.split())
        assert "not yet encoded" not in flat
        for line in card.effects:
            assert " ".join(describe(line, card).split())[:40] in flat, (card.id, line.label)


def test_ss_coverage_is_complete_with_few_escape_hatches(catalog):
    rows = [r for r in coverage(catalog) if r.set == "SS"]
    assert rows and all(r.lines == r.encoded == r.executable for r in rows), rows
    assert {r.timing for r in rows} >= {"duel", "first_strike", "attach"}
    assert len([u for u in special_uses(catalog) if u.set == "SS"]) <= MAX_SS_SPECIALS


def test_every_ss_card_with_an_effect_has_a_scenario(catalog):
    names = {p.name for p in SCENARIOS.glob("*.toml")}
    for card in ss_cards(catalog):
        if not card.effects:
            continue
        mine = [n for n in names if n == f"{card.id}.toml" or (n.startswith(card.id + "-")
                                                               and (card.type == "mission" or "-MMS" not in n))]
        assert mine, f"no scenario for {card.id}"


def test_every_attachment_says_where_it_goes(catalog):
    for card in ss_cards(catalog):
        if card.type != "attachment":
            continue
        hosts = [l.facts.host for l in card.effects if l.timing == "attach"]
        assert len(hosts) == 1, card.id
        assert (hosts[0] == "mission") == (card.attach_to == "mission"), card.id


def test_random_games_with_both_sets_keep_every_invariant(catalog):
    rng = random.Random(5)
    decks = [mixed_deck(catalog, rng) for _ in range(8)]
    pairs = [(i % 8, (i + 3) % 8) for i in range(60)]
    games, decisions, failures = _core.play_random_games(decks, pairs, [1000 + i for i in range(60)], check=True)
    assert failures == [] and games == 60 and decisions > 60 * 50
    g = _core.play_random_game(*decks[0], *decks[3], 1000)
    assert g.is_terminal and g.winner in (0, 1)


@pytest.mark.parametrize("raw, kind, message", [
    ([{"attach_to": {"side": "friendly"}}, {"grant": {"faction": "Leaf Village"}}], "condition", "ATTACH line holds"),
    ([{"grant": {"group": "Leaf Village"}}], "condition", "needs"),
    ([{"move": {"on": "somewhere"}}], "instant", "on must be"),
    ([{"defeat": {"card_type": "mission"}}], "instant", "card_type"),
    ([{"powerup": {"stack": True, "times": "x"}}], "instant", "times"),
    ([{"powerup": {"count": True}}], "instant", "selector"),
    ([{"draw": 1, "if": {"var_ge": ["x"]}}], "instant", "var_ge"),
    ([{"one_of": [[{"draw": 1}]]}], "instant", "at least two"),
    ([{"for_each": {"side": "enemy"}, "do": []}], "instant", "non-empty"),
    ([{"take_control": {"side": "enemy"}, "pay": "cost"}], "instant", "pay must be"),
    ([{"static": "grant_line", "timing": "score", "do": [{"powerup": 2}]}], "continuous", "grant_line"),
    ([{"static": "phantom"}], "continuous", "keyword"),
    ([{"on": "played", "filter": {"keyword": "Weapon"}, "do": [{"draw": 1}]}], "continuous", "attached"),
    ([{"as_main": False}], "modifier", "as_main = true"),
])
def test_shinobi_shiren_fields_are_validated(tmp_path, raw, kind, message):
    text = encoding_error(tmp_path, raw, kind)
    assert message in text and text.startswith(f"{tmp_path / 'KS.toml'}:2 (KS-001), effect 1"), text
