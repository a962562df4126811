"""A report as a list of blocks, rendered to Markdown (images linked) and HTML (images embedded).

One document model for both outputs keeps the Markdown and the HTML page saying the same
thing, and lets the CLI show the same tables on the terminal.
"""

from __future__ import annotations

import base64
import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from mythos_cli.text import shown


@dataclass
class Heading:
    text: str
    level: int = 2


@dataclass
class Para:
    text: str


@dataclass
class Bullets:
    items: list[str]


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""
    left: int = 1  # how many leading columns are text (left-aligned); the rest are numbers


@dataclass
class Image:
    path: Path
    alt: str


Block = Union[Heading, Para, Bullets, Table, Image]


@dataclass
class Document:
    title: str
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block) -> None:
        self.blocks.extend(blocks)

    @property
    def images(self) -> list[Path]:
        return [b.path for b in self.blocks if isinstance(b, Image)]


# -- formatting helpers shared by every report ---------------------------------------------
def pct(x: float | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{100 * x:.{digits}f}%"


def pp(x: float | None, digits: int = 1) -> str:
    """A difference of rates, in percentage points with its sign."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{100 * x:+.{digits}f} pp"


def interval(low: float | None, high: float | None, points: bool = False) -> str:
    if low is None or high is None or (isinstance(low, float) and math.isnan(low)):
        return "—"
    if points:
        return f"{100 * low:+.1f} to {100 * high:+.1f}"
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def num(x: float | None, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:.{digits}f}"


# -- the reports' inline marks, and the user's strings inside them -----------------------------
# Report text uses two marks, **bold** and `code`. Deck names, run ids and database paths are
# the user's strings: they may hold *, `, <, [ or | and must show as written, never as markup
# (a deck named "<img onerror=…>" or "[x](javascript:…)"). ``register_literals`` names them
# (the run's loader does); every renderer then treats each occurrence as plain text.
_LITERALS: set[str] = set()
_LITERAL_RE: re.Pattern | None = None


def register_literals(strings) -> None:
    """User strings the renderers must show verbatim wherever they appear in report text."""
    global _LITERAL_RE
    _LITERALS.update(s for s in strings if s)
    alternatives = sorted(_LITERALS, key=len, reverse=True)
    _LITERAL_RE = re.compile("|".join(re.escape(s) for s in alternatives)) if alternatives else None


def inline_tokens(text: str) -> list[tuple[str, str]]:
    """``text`` as (kind, text) pieces: ``text`` (plain), ``bold`` (a ** toggle), ``code``
    (the content of a code span). A registered user string is always plain text, even where it
    holds ** or a backtick."""
    pieces: list[tuple[bool, str]] = []  # (is a user string, text)
    pos = 0
    if _LITERAL_RE is not None:
        for m in _LITERAL_RE.finditer(text):
            if m.start() > pos:
                pieces.append((False, text[pos:m.start()]))
            pieces.append((True, m.group()))
            pos = m.end()
    if pos < len(text):
        pieces.append((False, text[pos:]))
    out: list[tuple[str, str]] = []
    code: list[str] | None = None
    for literal, piece in pieces:
        if literal:
            (code.append(piece) if code is not None else out.append(("text", piece)))
            continue
        for part in re.split(r"(\*\*|`)", piece):
            if part == "`":
                if code is None:
                    code = []
                else:
                    out.append(("code", "".join(code)))
                    code = None
            elif part == "**" and code is None:
                out.append(("bold", ""))
            elif part:
                (code.append(part) if code is not None else out.append(("text", part)))
    if code is not None:  # an unclosed span: its backtick was text
        out.append(("text", "`" + "".join(code)))
    return out


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")  # inline marks; ( ) ! only act after a [ …
_MD_LINE_START = re.compile(r"^(\s*)(?:([#>+-])|(\d+)([.)]))")  # … and these at the start of a line


def md_text(text: str, line_start: bool = True) -> str:
    r"""Plain text as Markdown that shows it as written (no emphasis, link, HTML or table cell).

    ``line_start``: the text opens a line, where ``#``, ``>``, ``-``, ``+`` and ``1.`` would start
    a block. Only ASCII punctuation can be escaped in CommonMark, so ``1.`` becomes ``1\.``
    (a backslash before the digit would show)."""
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    text = shown(text)  # no control character (ESC, BEL, NUL …) reaches the file
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    if not line_start:
        return text
    return _MD_LINE_START.sub(lambda m: m.group(1) + (f"\\{m.group(2)}" if m.group(2) else
                                                      f"{m.group(3)}\\{m.group(4)}"), text)


def _md_code(content: str) -> str:
    longest = max((len(r) for r in re.findall(r"`+", content)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if content.startswith("`") or content.endswith("`") or not content.strip() else ""
    return f"{fence}{pad}{content}{pad}{fence}"


def md_inline(text: str) -> str:
    """Report text (with its ** and ` marks) as Markdown; everything else shows as written."""
    out = []
    for kind, piece in inline_tokens(text):
        if kind == "bold":
            out.append("**")
        elif kind == "code":
            out.append(_md_code(shown(piece.replace("\n", " "))))
        else:  # only the first piece opens the line: "**63.4%**" is no list item
            out.append(md_text(piece, line_start=not out))
    return "".join(out)


# -- Markdown --------------------------------------------------------------------------------
def _md_cell(text: str) -> str:
    return md_text(str(text), line_start=False)  # a cell starts no block


def to_markdown(doc: Document, folder: Path) -> str:
    lines = [f"# {md_inline(doc.title)}", ""]
    for b in doc.blocks:
        if isinstance(b, Heading):
            lines += ["#" * b.level + " " + md_inline(b.text), ""]
        elif isinstance(b, Para):
            lines += [md_inline(b.text), ""]
        elif isinstance(b, Bullets):
            lines += [f"- {md_inline(item)}" for item in b.items] + [""]
        elif isinstance(b, Table):
            if b.title:
                lines += [f"**{md_inline(b.title)}**", ""]
            lines.append("| " + " | ".join(_md_cell(c) for c in b.columns) + " |")
            lines.append("|" + "|".join(":---" if i < b.left else "---:" for i in range(len(b.columns))) + "|")
            for row in b.rows:
                lines.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
            lines.append("")
            if b.note:
                lines += [f"_{md_inline(b.note)}_", ""]
        elif isinstance(b, Image):
            rel = b.path.relative_to(folder) if b.path.is_relative_to(folder) else b.path
            lines += [f"![{md_text(b.alt)}]({rel.as_posix().replace(' ', '%20').replace(')', '%29')})", ""]
    return "\n".join(lines).rstrip() + "\n"


# -- HTML ------------------------------------------------------------------------------------
_CSS = r"""
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #1f2328; line-height: 1.45; }
h1 { border-bottom: 2px solid #d0d7de; padding-bottom: .3em; }
h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 0.92em; }
th, td { border: 1px solid #d0d7de; padding: 3px 9px; }
th { background: #f6f8fa; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding-bottom: .3em; position: sticky; left: 0;
          max-width: calc(100vw - 2.5em); }  /* a wide table scrolls on a phone: its title stays in view */
p.note { color: #59636e; font-size: 0.9em; margin-top: -0.8em; }
img { max-width: 100%; border: 1px solid #eaeef2; margin: .4em 0 1em; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
.scroll > table { margin-bottom: .5em; }
.scroll + p.note { margin-top: 0; }  /* a scrolling table's bar sits under it: its note must not cover it */
th.sortable { cursor: pointer; user-select: none; }
th.sortable::after { content: " \2195"; color: #8c959f; font-size: .8em; }
th[aria-sort="ascending"]::after { content: " \2191"; color: #1f2328; }
th[aria-sort="descending"]::after { content: " \2193"; color: #1f2328; }
@media (max-width: 640px) { body { margin: 1em auto; font-size: 15px; } table { font-size: .85em; } }
"""

# Click a column header to sort the table by it (numbers as numbers: "62.5%", "+3.0 pp", "12");
# a few lines of plain JavaScript, no framework: the page stays one self-contained file.
_SORT_JS = r"""
document.querySelectorAll("table.sortable").forEach(function (t) {
  var heads = t.querySelectorAll("th");
  heads.forEach(function (th, col) {
    th.classList.add("sortable");
    th.addEventListener("click", function () {
      var rows = Array.prototype.slice.call(t.querySelectorAll("tr")).slice(1);
      var asc = th.getAttribute("aria-sort") !== "ascending";
      heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      function key(r) {
        var text = r.children[col] ? r.children[col].textContent.trim() : "";
        var m = text.replace(/\u2212/g, "-").match(/^[+-]?\d+(\.\d+)?/);
        return m ? parseFloat(m[0]) : text.toLowerCase();
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (typeof x !== typeof y) { return typeof x === "number" ? -1 : 1; }
        return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
      });
      rows.forEach(function (r) { r.parentNode.appendChild(r); });
    });
  });
});
"""


def _h(text: str) -> str:
    """Text for HTML: escaped, its control characters shown as escapes (``mythos_cli.text``); a
    line break is a space, as HTML shows it (and as the Markdown writes it)."""
    return html.escape(shown(str(text).replace("\r\n", " ").replace("\n", " ")))


def _inline(text: str) -> str:
    """Escape, then honour the two marks the reports use: **bold** and `code` (never inside a
    user string: see ``register_literals``)."""
    out, bold = [], False
    for kind, piece in inline_tokens(text):
        if kind == "bold":
            out.append("</strong>" if bold else "<strong>")
            bold = not bold
        elif kind == "code":
            out.append(f"<code>{_h(piece)}</code>")
        else:
            out.append(_h(piece))
    if bold:
        out.append("</strong>")
    return "".join(out)


def to_html(doc: Document) -> str:
    """A self-contained page: every image is embedded as base64, so the file travels alone."""
    body = [f"<h1>{_inline(doc.title)}</h1>"]
    for b in doc.blocks:
        if isinstance(b, Heading):
            lvl = min(max(b.level, 2), 6)
            body.append(f"<h{lvl}>{_inline(b.text)}</h{lvl}>")
        elif isinstance(b, Para):
            body.append(f"<p>{_inline(b.text)}</p>")
        elif isinstance(b, Bullets):
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Table):
            rows = ["<div class=\"scroll\"><table class=\"sortable\">"]
            if b.title:
                rows.append(f"<caption>{_inline(b.title)}</caption>")
            rows.append("<tr>" + "".join(f"<th>{_h(c)}</th>" for c in b.columns) + "</tr>")
            for row in b.rows:
                cells = "".join(f"<td>{_h(str(c))}</td>" if i < b.left else
                                f"<td class=\"n\">{_h(str(c))}</td>" for i, c in enumerate(row))
                rows.append(f"<tr>{cells}</tr>")
            rows.append("</table></div>")
            body.append("".join(rows))
            if b.note:
                body.append(f"<p class=\"note\">{_inline(b.note)}</p>")
        elif isinstance(b, Image):
            data = base64.b64encode(b.path.read_bytes()).decode("ascii")
            body.append(f"<img alt=\"{_h(b.alt)}\" src=\"data:image/png;base64,{data}\">")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_h(doc.title)}</title><style>{_CSS}</style></head>\n<body>\n"
            + "\n".join(body) + f"\n<script>{_SORT_JS}</script>\n</body></html>\n")
