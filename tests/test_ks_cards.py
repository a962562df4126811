"""The whole Konoha Shidō set is playable: encoded, rendered, executable, scenario-tested.

Also the language features added for it: the rules core refuses a bad field in a card file,
naming the file, the line and the card.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mythos_cli.catalog.coverage import coverage, special_uses
from mythos_cli.catalog.loader import load_file
from mythos_cli.catalog.render import NOT_ENCODED, describe
from mythos_cli.cli import app

from cardkit import card_file, encoding_error

SCENARIOS = Path(__file__).parent / "scenarios" / "cards" / "ks"
MAX_KS_SPECIALS = 5


def ks_cards(catalog):
    return [c for c in catalog if c.set == "KS"]


def test_every_card_renders_and_no_ks_line_is_unencoded(catalog):
    for card in catalog:
        for line in card.effects:
            text = describe(line, card)
            assert text, f"{card.id} {line.label}: empty rendering"
            if card.set == "KS":
                assert NOT_ENCODED not in text, f"{card.id} {line.label} is not encoded"
                assert line.encoded and len(text) > 8 and text.endswith("."), (card.id, text)


def test_cards_show_prints_every_ks_effect(catalog):
    runner = CliRunner()
    for card in ks_cards(catalog):
        res = runner.invoke(app, ["cards", "show", card.id])
        assert res.exit_code == 0, (card.id, res.output)
        flat = " ".join(res.output.split())
        if not card.effects:
            assert "vanilla" in flat
        for line in card.effects:
            assert "not yet encoded" not in flat
            assert " ".join(describe(line, card).split())[:40] in flat, (card.id, line.label)


def test_ks_coverage_is_complete_with_few_escape_hatches(catalog):
    rows = [r for r in coverage(catalog) if r.set == "KS"]
    assert rows and all(r.lines == r.encoded == r.executable for r in rows), rows
    assert len([u for u in special_uses(catalog) if u.set == "KS"]) <= MAX_KS_SPECIALS


def test_every_ks_card_with_an_effect_has_a_scenario(catalog):
    names = {p.name for p in SCENARIOS.glob("*.toml")}
    for card in ks_cards(catalog):
        if not card.effects:
            continue
        mine = [n for n in names if n == f"{card.id}.toml" or (n.startswith(card.id + "-")
                                                               and (card.type == "mission" or "-MMS" not in n))]
        assert mine, f"no scenario for {card.id}"


@pytest.mark.parametrize("raw, message", [
    ({"hide": {"side": "enemy"}, "discount": 1}, "unknown field"),
    ({"defeat": {"count": {"most": 2}}}, "count is"),
    ({"defeat": {"side": "enemy"}, "chooser": "nobody"}, "chooser"),
    ({"copy": {"side": "enemy"}, "lines": "some"}, "lines"),
    ({"special": "no_such_escape_hatch"}, "unknown special"),
    ({"draw": 1, "if": {"var_max": ["x"]}}, "var_max"),
])
def test_new_fields_are_validated(tmp_path, raw, message):
    text = encoding_error(tmp_path, [raw], "instant")
    assert message in text
    assert text.startswith(f"{tmp_path / 'KS.toml'}:2 (KS-001), effect 1, clause 1: "), text


def test_trigger_by_is_only_for_moves(tmp_path, catalog):
    assert "moved and defeated" in encoding_error(tmp_path, [{"on": "played", "by": "you", "do": [{"draw": 1}]}],
                                                   "continuous")
    [card] = load_file(card_file(tmp_path, [{"on": "moved", "by": "you", "do": [{"draw": 1}]}], "continuous"))
    assert card.effects[0].facts.triggers == ("moved",)
    ks018 = catalog["KS-018"]  # { on = "moved", by = "you" }
    assert describe(ks018.effects[0], ks018).startswith("After you move this character with one of your effects")
