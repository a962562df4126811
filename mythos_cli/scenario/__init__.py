"""Scenario files: a board, scripted actions and choices, and expected outcomes.

A scenario is both the rules' test language and a user feature ("what happens if I play this
here?"). The format is TOML; see "Scenario files" in README.md and ``tests/scenarios/``.

Players are ``p1`` and ``p2``. Cards are named by version or printing id. A unit on the
board is written ``"KS-015"``, ``"KS-015+2"`` (two Power tokens), ``"hidden KS-013"``,
``"KS-009>KS-108"`` (an upgrade stack, bottom first), or as a table
``{ card = "KS-015", tokens = 2, hidden = true, under = ["KS-009"], owner = "p2", controlled_by = "KS-019" }``
(an opponent's card names the card on this side that controls it).
Steps are strings: ``"pass"``, ``"play KS-108 on 1"``, ``"play KS-013 hidden on 2"``,
``"play KS-108 over KS-009"``, ``"reveal KS-013"``, ``"choose p2:KS-054"``,
``"choose mission 2"``, ``"choose yes"``, ``"choose 3"``, ``"choose skip"``, ``"choose MAIN"`` (the
effect line to copy), ``"choose KS-003"`` (an order prompt: that card's effect resolves first),
``"mulligan no"``, and ``"auto until round 3"`` / ``"auto until end"`` (both players
pass and take the first option until then). A step may name who answers, ``"p2: choose yes"``:
the step fails if someone else is deciding.

A game can start before the mulligans: ``[board] phase = "setup"`` with ``missions = { p1 = […],
p2 = […] }`` and a ``[deck]`` each (``spec.setup_spec``); ``phase = "mulligan"`` is round 0 too.

Attachments: a unit table takes ``attached = ["SS-080"]`` (``"SS-083 by p2"`` for one the
other player put there; ``hidden_attached`` for face-down ones), a mission ``p1_attached`` /
``p2_attached``; steps ``"attach SS-080 to p1:KS-009"``, ``"attach SS-103 on 2"``,
``"attach SS-084 hidden to p2:KS-009"``, ``"reveal attachment SS-084"``; the expectation
``attached = { "p1:KS-009" = ["SS-080"], "mission 2 p1" = ["SS-103 (hidden)"] }``.

The rules core plays every scenario: ``spec.board_spec`` turns the file's board into a board spec,
which the core loads (``board.load``), and the steps and expectations (``run``) go through the
``board.Board`` that reads the core's game.
"""

from mythos_cli.scenario.run import Check, ScenarioResult, check_expect, run_doc, run_file, run_paths
from mythos_cli.scenario.spec import PLAYERS, ScenarioError, board_spec, find_unit, setup_spec

__all__ = [
    "PLAYERS",
    "Check",
    "ScenarioError",
    "ScenarioResult",
    "board_spec",
    "check_expect",
    "find_unit",
    "run_doc",
    "run_file",
    "run_paths",
    "setup_spec",
]
