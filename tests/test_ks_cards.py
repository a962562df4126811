"""The whole Konoha Shidō set is playable: encoded, rendered, executable, scenario-tested.

Also the language features added for it (validation of new fields, escape-hatch mechanism).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mythos_cli.catalog import Catalog
from mythos_cli.catalog.coverage import coverage, special_uses, specials_of
from mythos_cli.catalog.language import SPECIALS, LanguageError, parse_encoding
from mythos_cli.catalog.model import Card, EffectLine
from mythos_cli.catalog.render import NOT_ENCODED, describe, python_describe
from mythos_cli.cli import app
from mythos_cli.engine import executable
from mythos_cli.engine import specials as specials_mod
from mythos_cli.engine.scenario import run_doc

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
                assert line.encoding is not None and len(text) > 8 and text.endswith("."), (card.id, text)


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
    rows = [r for r in coverage(catalog, executable) if r.set == "KS"]
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


def test_specials_declared_and_implemented_match():
    assert set(specials_mod.RUN) <= set(SPECIALS)
    for name in SPECIALS:
        assert name in specials_mod.RUN, f"special {name} has English but no behaviour"


@pytest.mark.parametrize("raw, message", [
    ({"hide": {"side": "enemy"}, "discount": 1}, "unknown field"),
    ({"defeat": {"count": {"most": 2}}}, "count is"),
    ({"defeat": {"side": "enemy"}, "chooser": "nobody"}, "chooser"),
    ({"copy": {"side": "enemy"}, "lines": "some"}, "lines"),
    ({"special": "no_such_escape_hatch"}, "unknown special"),
    ({"draw": 1, "if": {"var_max": ["x"]}}, "var_max"),
])
def test_new_fields_are_validated(raw, message):
    with pytest.raises(LanguageError, match=message):
        parse_encoding([raw], "test", "instant")


def test_trigger_by_is_only_for_moves():
    with pytest.raises(LanguageError, match="moved and defeated"):
        parse_encoding([{"on": "played", "by": "you", "do": [{"draw": 1}]}], "test", "continuous")
    enc = parse_encoding([{"on": "moved", "by": "you", "do": [{"draw": 1}]}], "test", "continuous")
    assert "after you move" in enc.render().lower()


def test_an_escape_hatch_runs_renders_and_is_counted(catalog, monkeypatch):
    """The mechanism, exercised with a throwaway special: declared, implemented, played."""
    monkeypatch.setitem(SPECIALS, "test_gain_3", "gain 3 chakra (test escape hatch)")

    def gain_3(g, frame, step):
        g.players[frame.ctx.player].chakra += 3

    monkeypatch.setitem(specials_mod.RUN, "test_gain_3", gain_3)
    line = EffectLine("main", "instant", encoding=parse_encoding([{"special": "test_gain_3"}], "test", "instant"))
    card = Card(id="KS-900", set="KS", number=900, type="character", name="Test Ninja", name_key="test-ninja",
                title="", rarity="C", printings=("KS-900-C",), cost=1, power=1, group="Leaf Village",
                effects=(line,))
    assert python_describe(line) == "Gain 3 chakra (test escape hatch)."
    assert specials_of(line) == ["test_gain_3"] and executable(line)
    assert [(u.card, u.name) for u in special_uses([card])] == [("KS-900", "test_gain_3")]
    cat = Catalog(list(catalog) + [card])
    doc = {"board": {"round": 1, "edge": "p1", "chakra": {"p1": 1}}, "mission": [{"card": "KS-002-MMS"}],
           "hand": {"p1": ["KS-900"]}, "steps": ["play KS-900 on 1", "choose yes"],
           "expect": {"chakra": {"p1": 3}, "in_play": ["KS-900"]}}
    res = run_doc(doc, cat, "escape hatch")
    assert res.passed, (res.error, [(c.what, c.detail) for c in res.checks if not c.ok])
    monkeypatch.delitem(specials_mod.RUN, "test_gain_3")
    assert not executable(line)  # declared but not implemented: not executable
