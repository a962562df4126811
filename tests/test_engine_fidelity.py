"""Rule fidelity beyond the scenario files: boards the rules do not allow.

(That an effect's options never depend on what an opponent's hidden card is, is a test of the
core itself: ``core/tests/hidden.rs``.)
"""

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
