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
import re
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.segment import Segment

from mythos_cli.text import shown


class _Console(Console):
    """A console that shows every control character of what it prints as a visible escape
    (``mythos_cli.text.shown``): a run id or deck name read from a database or a file never
    clears the screen, rings, or sets the window title. Strings are cleaned before layout (so
    tables measure what they show), every other segment on the way out; rich's own styling
    codes are not text and pass."""

    def render_str(self, text: str, **kwargs):
        return super().render_str(shown(text, lines=True), **kwargs)

    def render(self, renderable, options=None):
        for seg in super().render(renderable, options):
            if seg.control or not seg.text:
                yield seg
            else:
                clean = shown(seg.text, lines=True)
                yield seg if clean == seg.text else Segment(clean, seg.style)


# emoji=False: a user string such as "mine.py:X:" is shown as written, never as an emoji code
out = _Console(soft_wrap=False, emoji=False)
err = _Console(stderr=True, soft_wrap=True, emoji=False)  # messages are not hard-wrapped: they stay greppable


def plain(value: Any) -> str:
    """A value read from a database or a file, for one line of rich output: its control
    characters (newlines too) shown as escapes, its brackets never markup."""
    return escape(shown(str(value)))


# JSON escapes the C0 controls itself; DEL, the C1 controls and the bidirectional and line
# separator marks it leaves as they are (with ensure_ascii=False): escaped here, still JSON.
_JSON_RAW = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def print_json(data: Any) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write(_JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")


OK, NO, BAD_INPUT, INTERRUPTED = 0, 1, 2, 130


def fail(message: str, hint: str | None = None, code: int = BAD_INPUT) -> NoReturn:
    # the message and hint are plain text: a "[board]" or a path in brackets must show as written
    # one line each: a newline inside a stored name cannot forge a line of output
    err.print(f"[bold red]error:[/] {plain(message)}", highlight=False)
    if hint:
        err.print(f"  [yellow]hint:[/] {plain(hint)}", highlight=False)
    raise typer.Exit(code)
