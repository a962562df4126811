"""Strings as they may be shown or written: no control character reaches a terminal or a file.

A run id, a deck or scenario name, a player spec read from a database or a file may hold
anything: an ESC sequence that clears the screen or sets the window title, a BEL, a NUL, a
newline that forges a line of output, a bidirectional override that shows text reversed.
``shown`` writes each such character as a visible escape (``\\x1b``, ``\\n``, ``\\u202e``), so
the string reads as what it is. The console (``cli.output``) and the report writers
(``reports.doc``) pass everything they print or write through it, keeping only their own line
breaks; a value that must stay on one line (a table cell, a name in a message) is shown with
``lines=False``.

>>> shown("run\\x1b[2J")
'run\\\\x1b[2J'
>>> shown("two\\nlines"), shown("two\\nlines", lines=True)
('two\\\\nlines', 'two\\nlines')
"""

from __future__ import annotations

import re

# C0 controls (but the newline, kept or not), DEL, C1 controls (CSI \x9b acts like ESC [ on some
# terminals), the bidirectional marks, embeddings, overrides and isolates, and the Unicode line
# and paragraph separators (a line break to some viewers).
_CONTROLS = "\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
_KEEP_LINES = re.compile(f"[{_CONTROLS}]")
_ONE_LINE = re.compile(f"[{_CONTROLS}\n]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match) -> str:
    c = m.group()
    return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def shown(text: str, *, lines: bool = False) -> str:
    """``text`` with every control character written as a visible escape; ``lines=True`` keeps
    newlines (for whole messages and documents, whose line breaks are the writer's own)."""
    if not isinstance(text, str):
        text = str(text)
    return (_KEEP_LINES if lines else _ONE_LINE).sub(_escape, text)


def has_controls(text: str) -> bool:
    """Whether ``shown`` would change ``text`` (one-line rules)."""
    return bool(_ONE_LINE.search(text))
