"""Shared console helpers for the CLI: rich output to stdout, errors to stderr.

Exit codes, the same in every command (README "Exit codes"):

* ``0`` done;
* ``1`` done, and the answer is no: a deck that is not legal, a scenario expectation that
  fails, a run with nothing to report, a confirmation declined, a replay that does not
  reproduce its stored game;
* ``2`` bad input: a file that cannot be read, an unknown run, deck or card, a bad option
  value, a database that is locked, foreign or missing;
* ``130`` interrupted (Ctrl-C), ``143`` stopped by SIGTERM, with what was kept.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

# emoji=False: a user string such as "mine.py:X:" is shown as written, never as an emoji code
out = Console(soft_wrap=False, emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)  # messages are not hard-wrapped: they stay greppable


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


OK, NO, BAD_INPUT, INTERRUPTED = 0, 1, 2, 130


def fail(message: str, hint: str | None = None, code: int = BAD_INPUT) -> NoReturn:
    # the message and hint are plain text: a "[board]" or a path in brackets must show as written
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    if hint:
        err.print(f"  [yellow]hint:[/] {escape(hint)}", highlight=False)
    raise typer.Exit(code)
