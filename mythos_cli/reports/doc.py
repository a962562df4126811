"""A report as a list of blocks, rendered to Markdown (images linked) and HTML (images embedded).

One document model for both outputs keeps the Markdown and the HTML page saying the same
thing, and lets the CLI show the same tables on the terminal.
"""

from __future__ import annotations

import base64
import html
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union


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


# -- Markdown --------------------------------------------------------------------------------
def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(doc: Document, folder: Path) -> str:
    lines = [f"# {doc.title}", ""]
    for b in doc.blocks:
        if isinstance(b, Heading):
            lines += ["#" * b.level + " " + b.text, ""]
        elif isinstance(b, Para):
            lines += [b.text, ""]
        elif isinstance(b, Bullets):
            lines += [f"- {item}" for item in b.items] + [""]
        elif isinstance(b, Table):
            if b.title:
                lines += [f"**{b.title}**", ""]
            lines.append("| " + " | ".join(_md_cell(c) for c in b.columns) + " |")
            lines.append("|" + "|".join(":---" if i < b.left else "---:" for i in range(len(b.columns))) + "|")
            for row in b.rows:
                lines.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
            lines.append("")
            if b.note:
                lines += [f"_{b.note}_", ""]
        elif isinstance(b, Image):
            rel = b.path.relative_to(folder) if b.path.is_relative_to(folder) else b.path
            lines += [f"![{b.alt}]({rel.as_posix()})", ""]
    return "\n".join(lines).rstrip() + "\n"


# -- HTML ------------------------------------------------------------------------------------
_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #1f2328; line-height: 1.45; }
h1 { border-bottom: 2px solid #d0d7de; padding-bottom: .3em; }
h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 0.92em; }
th, td { border: 1px solid #d0d7de; padding: 3px 9px; }
th { background: #f6f8fa; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding-bottom: .3em; }
p.note { color: #59636e; font-size: 0.9em; margin-top: -0.8em; }
img { max-width: 100%; border: 1px solid #eaeef2; margin: .4em 0 1em; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
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


def _inline(text: str) -> str:
    """Escape, then honour the two Markdown marks the reports use: **bold** and `code`."""
    out = html.escape(text)
    parts = out.split("**")
    out = "".join(p if i % 2 == 0 else f"<strong>{p}</strong>" for i, p in enumerate(parts))
    parts = out.split("`")
    return "".join(p if i % 2 == 0 else f"<code>{p}</code>" for i, p in enumerate(parts))


def to_html(doc: Document) -> str:
    """A self-contained page: every image is embedded as base64, so the file travels alone."""
    body = [f"<h1>{html.escape(doc.title)}</h1>"]
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
            rows.append("<tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in b.columns) + "</tr>")
            for row in b.rows:
                cells = "".join(f"<td>{html.escape(str(c))}</td>" if i < b.left else
                                f"<td class=\"n\">{html.escape(str(c))}</td>" for i, c in enumerate(row))
                rows.append(f"<tr>{cells}</tr>")
            rows.append("</table></div>")
            body.append("".join(rows))
            if b.note:
                body.append(f"<p class=\"note\">{_inline(b.note)}</p>")
        elif isinstance(b, Image):
            data = base64.b64encode(b.path.read_bytes()).decode("ascii")
            body.append(f"<img alt=\"{html.escape(b.alt)}\" src=\"data:image/png;base64,{data}\">")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(doc.title)}</title><style>{_CSS}</style></head>\n<body>\n"
            + "\n".join(body) + f"\n<script>{_SORT_JS}</script>\n</body></html>\n")
