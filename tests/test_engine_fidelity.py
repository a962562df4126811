"""Rule fidelity beyond the scenario files: boards the rules do not allow, invariants."""

from __future__ import annotations

import tomllib

from mythos_cli.scenario import run_doc


def _run(text: str, catalog):
    return run_doc(tomllib.loads(text), catalog, "inline.toml")


def test_a_scenario_board_names_the_controller_of_an_opponents_card(catalog):
    """FAQ Take Control: an opponent's card on your side is controlled by a card on your side;
    a board with no controller for it is refused (control would never break)."""
    res = _run('name = "c"\nsteps = []\n[board]\nround = 1\n[[mission]]\ncard = "KS-006-MMS"\n'
               'p1 = ["KS-019", { card = "KS-009", owner = "p2" }]\n[expect]\nround = 1\n', catalog)
    assert res.error is not None and "controlled_by" in res.error
    res = _run('name = "c"\nsteps = []\n[board]\nround = 1\n[[mission]]\ncard = "KS-006-MMS"\n'
               'p1 = ["KS-019", { card = "KS-009", owner = "p2", controlled_by = "KS-019" }]\n'
               '[expect]\nunits = { "KS-009" = { controller = "p1" } }\n', catalog)
    assert res.passed, (res.error, [c.detail for c in res.checks])


def _decision_again(g, renamed=None):
    """The pending effect decision, asked again from the same frame (nothing applied yet);
    ``renamed``: card instances swapped in, mapped back to the ones they replace."""
    from mythos_cli.engine import interp

    renamed = renamed or {}

    g.pending = None
    g.stack[-1].cursor = 0
    try:
        interp.run_top(g)
    except interp.NeedChoice as need:
        d = need.decision
        back = renamed if d.kind == "card" else {}  # (card options are instances; targets are units)
        return d.player, d.kind, [repr(back.get(o, o)) if type(o) is int else repr(o) for o in d.options]
    return None


def _swap_hidden(g, decider, rng) -> dict:
    """Give every hidden character and face-down attachment the decider cannot know another card
    of its owner's deck."""
    from mythos_cli.engine.view import _seen_hidden

    seen = _seen_hidden(g, decider)
    swapped: dict = {}  # the instance now in play -> the one it replaced
    for u in list(g.all_units()):
        if not u.hidden or u.controller == decider or u.owner == decider or u.uid in seen:
            continue
        deck = g.players[u.owner].deck
        # (not the top card: an effect may be putting it into play, KS-052 drawing it first)
        others = [i for i, c in enumerate(deck[:-1]) if g.cards[c].type == "character" and c not in swapped.values()]
        if not others:
            continue
        i = rng.choice(others)
        swapped[deck[i]] = u.stack[-1]
        deck[i], u.stack[-1] = u.stack[-1], deck[i]
    holders = [u.attachments for u in g.all_units()] + [side for m in g.missions for side in m.attachments]
    for held in holders:  # face-down attachments the decider did not play
        for k, a in enumerate(held):
            if a not in g.att_hidden or g.owner[a] == decider:
                continue
            deck = g.players[g.owner[a]].deck
            others = [i for i, c in enumerate(deck) if g.cards[c].type == "attachment" and c not in swapped.values()]
            if not others:
                continue
            i = rng.choice(others)
            deck[i], held[k] = a, deck[i]
            g.att_hidden.discard(a)
            g.att_hidden.add(held[k])
            swapped[held[k]] = a
    if swapped:
        g.board_version += 1
        g.token_version += 1
    return swapped


def test_effect_options_never_depend_on_what_an_opponents_hidden_card_is(catalog):
    """Hidden means no name, keyword or group: an effect's options (targets, missions, cards,
    numbers) are the same whatever the opponent's hidden characters really are."""
    import random

    from mythos_cli.engine import apply, legal_actions, new_game

    from test_ss_cards import mixed_deck

    rng = random.Random(14)
    compared = 0
    for seed in range(600):
        g = new_game(mixed_deck(catalog, rng), mixed_deck(catalog, rng), seed)
        while not g.is_terminal:
            d = g.pending
            # (the first choice of a step: later ones may name a swapped card already chosen)
            if d.kind in ("target", "mission", "card", "place", "number", "yesno") and g.stack and not g.stack[-1].choices:
                base = _decision_again(g.clone())
                other = g.clone()
                renamed = _swap_hidden(other, d.player, rng)
                if renamed:
                    assert _decision_again(other, renamed) == base, (seed, g.round, d.kind, d.prompt)
                    compared += 1
            acts = legal_actions(g)
            apply(g, acts[rng.randrange(len(acts))])
    assert compared > 300
