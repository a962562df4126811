"""The card text the tool shows: every rendering reads like card text and says what the engine does.

The renderings are generated from the effect-language trees (``catalog/language.py``); these
tests check all of them for the usual slips, pin the wording of cards that once read badly,
and tie "Mandatory:" to the engine's own rule for declining a line (``interp.line_steps``).
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from mythos_cli.catalog.render import describe
from mythos_cli.cli import app
from mythos_cli.cli import cards as cards_cli
from mythos_cli.cli.cards import wrap_text
from mythos_cli.engine.interp import Gate, line_steps

runner = CliRunner()

# (pattern, what is wrong) — every rendering of the catalog must match none of them
BAD = [
    (r"\ba [AEIOUaeiou]", "'a' before a vowel"),
    (r"\ban [^AEIOUaeiou]", "'an' before a consonant"),
    (r"  ", "a double space"),
    (r" [,.;:]", "a space before punctuation"),
    (r"\.\.|,,|;;", "doubled punctuation"),
    (r"\b(\w+) \1\b", "a doubled word"),
    (r"\bin play in\b", "'in play' before another place"),
    (r"\bin play (is|are) (played|defeated|moved)", "'in play' in a trigger (a played character is in play)"),
    (r"(played|moved) during the opponent's previous turn in ", "a place dangling after a clause"),
    (r"\bcharacter's in\b", "a place dangling after a comparison"),
    (r"\(X: ?\)|where X is ?[,.;]|\(X:", "an X explanation that is empty or not at the end of its sentence"),
    (r"\(mandatory\)", "a '(mandatory)' suffix (ambiguous: the line or its last step?)"),
    (r".Mandatory:", "'Mandatory:' not at the start of a line"),
    (r"\bAll [^.]* cannot\b", "'All … cannot' (could mean: not all of them)"),
    (r"remembered as|\(unknown", "an internal name"),
    (r"ignoring their requirements\)?\.$", "a promise the engine does not keep"),
    (r"\bon a character attachment|\bcharacter attachments?\b", "'character attachment'"),
]


def renderings(catalog):
    for card in catalog:
        for line in card.effects:
            if line.encoding is not None:
                yield card, line, describe(line, card)


def test_every_rendering_passes_the_text_checks(catalog):
    problems = []
    count = 0
    for card, line, text in renderings(catalog):
        count += 1
        for pattern, what in BAD:
            if re.search(pattern, text):
                problems.append(f"{card.id} {line.label}: {what}: {text}")
        if not (text[:1].isupper() and text.endswith(".")):
            problems.append(f"{card.id} {line.label}: not a sentence: {text}")
        if text.count("(") != text.count(")") or text.count('"') % 2:
            problems.append(f"{card.id} {line.label}: unbalanced brackets or quotes: {text}")
        if card.type == "mission" or card.attach_to == "mission":
            if "this character" in text.lower():
                problems.append(f"{card.id} {line.label}: 'this character' on a {card.type} of a mission: {text}")
        if card.type == "attachment" and card.attach_to == "character" and "this character" in text.lower():
            problems.append(f"{card.id} {line.label}: an attachment says 'this character' (its host): {text}")
    assert count > 400
    assert not problems, "\n".join(problems)


def test_every_x_is_explained_on_its_card(catalog):
    """A rendering that says X says what X is, on the same line or another line of the card."""
    defines = re.compile(r"where X is|declare a number X|extra chakra \(X\)", re.I)
    for card in catalog:
        texts = [describe(line, card) for line in card.effects if line.encoding is not None]
        if any(re.search(r"\bX\b", t) for t in texts):
            assert any(defines.search(t) for t in texts), (card.id, texts)


def _gates(line):
    enc = line.encoding
    out = []
    if enc.steps:
        out.append(line_steps(enc, "line", False)[0])
    for trig in enc.triggers:
        out.append(line_steps(type(enc)(steps=trig.steps), "trigger", trig.must)[0])
    return out


def test_mandatory_is_said_exactly_when_the_engine_does_not_ask(catalog):
    """"Mandatory:" opens a line (or a trigger's sentence) exactly when the engine's Gate will not
    offer to decline it; every other instant line and trigger is optional."""
    seen = 0
    for card, line, text in renderings(catalog):
        if line.kind == "modifier":
            continue
        gates = _gates(line)
        sentences = [s for s in re.split(r"(?<=\.) ", text)]
        said = sum(s.startswith("Mandatory:") for s in sentences)
        must = sum(isinstance(g, Gate) and g.must for g in gates)
        assert said == must, (card.id, line.label, text)
        seen += must
    assert seen >= 25


GOLDEN = {
    ("KS-022", 0): "Move an enemy character in play that was played during the opponent's previous turn to another mission.",
    ("SS-136", 0): "Defeat an enemy character in this mission that was played during the opponent's previous turn "
                   "for less than its printed cost because of an effect.",
    ("SS-139", 0): "Mandatory: when another friendly Sound Village character is played, draw 1 card; then discard 1 card "
                   "from hand.",
    ("KS-133", 0): "Hide an enemy character in this mission with Power 5 or less and another enemy character in play "
                   "with Power 2 or less.",
    ("KS-133", 1): "MAIN effect instead: defeat an enemy character in this mission with Power 5 or less and another "
                   "enemy character in play with Power 2 or less.",
    ("SS-065", 0): "Move any number of friendly attachments in play to this character, ignoring their ATTACH conditions.",
    ("SS-065", 1): "This character can carry more than one friendly attachment, and any friendly attachment may be "
                   "attached to it, ignoring its ATTACH condition.",
    ("KS-012", 1): "Draw 1 card; then if you did so, you must discard 1 card from hand.",
    ("KS-107", 0): "Mandatory: move all other non-hidden friendly characters in this mission to another mission.",
    ("KS-103", 0): "Mandatory: at the end of the round, you may hide another character in play with Power equal to or "
                   "less than this character's; then return this character to its owner's hand.",
    ("SS-148", 1): "Defeat an upgraded enemy character in this mission with less printed Power than this character's "
                   "Power; then you must move this character to another mission.",
    ("KS-013", 0): "This character has −1 Power for each other non-hidden friendly character in this mission.",
    ("KS-035", 0): "Enemy characters cannot be moved out of this mission.",
    ("KS-059", 0): "Move up to X other friendly characters in play to another mission, where X is the number of "
                   "missions where you have another friendly Sound Four character.",
    ("KS-087", 0): "If there is only one non-hidden enemy character in this mission, hide it.",
    ("KS-110", 0): "If there are at least 2 enemy characters in this mission, move the weakest non-hidden enemy "
                   "character in this mission to another mission.",
    ("KS-132", 1): "The opponent must choose and defeat their own characters in this mission until only 2 remain.",
    ("KS-135", 1): "MAIN effect instead: look at the top 3 cards of your deck, play a character among them in any "
                   "mission paying 4 less, and discard the other cards.",
    ("SS-009", 0): "Discard a Food card from hand; then if you did so, gain 1 chakra and draw 1 card.",
    ("SS-040", 0): "In every mission where there is a friendly Tayuya character: play any number of Summon characters "
                   "from your hand or from among your hidden characters in that mission, paying X less, where X is the "
                   "number of other friendly Sound Four characters in that mission.",
    ("SS-058", 0): "Look at the top 3 cards of your deck, choose an Uchiha-named character among them, reveal it and "
                   "put it into your hand; put the other cards at the bottom of your deck in random order.",
    ("SS-084", 1): "The attached character cannot receive Power tokens.",
    ("SS-091", 0): "Attach to a non-hidden friendly character. The attached character is also considered a Leaf "
                   "Village character.",
    ("SS-001-MMS", 0): "When a non-hidden character is played in this mission and no other non-hidden character there "
                       "has its name, POWERUP 2 on that character.",
    ("SS-003-MMS", 0): "All non-hidden characters in this mission with no other non-hidden character on their side "
                       "have +4 Power.",
}


@pytest.mark.parametrize("key", sorted(GOLDEN), ids=lambda k: f"{k[0]}-{k[1] + 1}")
def test_golden_renderings(catalog, key):
    card = catalog[key[0]]
    assert describe(card.effects[key[1]], card) == GOLDEN[key]


def test_cards_show_states_the_convention_once(catalog):
    res = runner.invoke(app, ["cards", "show", "KS-094"])
    assert res.exit_code == 0
    flat = " ".join(res.output.split())
    assert flat.count("are optional") == 1 and '"Mandatory:" cannot be declined' in flat
    assert "Mandatory: at the end of the round" in flat
    res = runner.invoke(app, ["cards", "show", "KS-005"])  # a static only: nothing to decline
    assert "optional" not in res.output


def test_wrapping_never_splits_a_keyword_from_its_number(catalog, monkeypatch):
    for width in (24, 37, 52, 71):
        for card, line, text in renderings(catalog):
            rows = wrap_text(text, width)
            assert " ".join(rows) == text
            for a, b in zip(rows, rows[1:]):
                assert not re.search(r"(CHAKRA|POWERUP|(^|\s)[+−-](\d+|X))$", a), (card.id, width, a, b)
    monkeypatch.setattr(cards_cli.out, "_width", 44)
    res = runner.invoke(app, ["cards", "show", "KS-064"])
    lines = res.output.splitlines()
    assert all(len(x) <= 44 for x in lines)
    assert not any(x.rstrip().endswith(("CHAKRA", "POWERUP")) for x in lines)
