"""Helpers for the engine tests."""

from __future__ import annotations

from mythos_cli.engine import game as G
from mythos_cli.engine.attachments import attach_options, hidden_attachments_of, reveal_attachment_price


def placement_options(g, player: int) -> set[tuple]:
    """The main actions the general placement rules allow (``place_options`` for characters,
    ``attach_options`` for attachments, face-down attachments ``player`` can pay to reveal),
    reveals of hidden characters aside: what the fast generator must offer."""
    want = {("pass",)}
    seen = set()
    for inst in g.players[player].hand:
        card = g.cards[inst]
        if card.id in seen:
            continue
        seen.add(card.id)
        for hidden in (False, True):
            if card.type == "character":
                for mi, over, _ in G.place_options(g, player, inst, hidden=hidden):
                    want.add(("play", inst, mi, hidden, over))
            else:
                for mi, host, _ in attach_options(g, player, inst, hidden=hidden):
                    want.add(("attach", inst, mi, host, hidden))
    for inst, _, mi in hidden_attachments_of(g, player):
        if reveal_attachment_price(g, player, inst, mi) is not None:
            want.add(("reveal_attachment", inst))
    return want
