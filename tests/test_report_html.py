"""The HTML pages on a phone: a viewport tag, tables that scroll and sort by a click (no framework)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from mythos_cli.reports.doc import _SORT_JS, Document, Table, to_html

# a minimal DOM: one table (a header row and three rows), then two clicks on the second header
FAKE_DOM = r"""
function el(tag, text) { return {tag, textContent: text || "", children: [], attrs: {}, classList: {add(){}},
  setAttribute(k, v) { this.attrs[k] = v; }, getAttribute(k) { return k in this.attrs ? this.attrs[k] : null; },
  removeAttribute(k) { delete this.attrs[k]; }, listeners: {}, addEventListener(e, f) { this.listeners[e] = f; } }; }
const table = el("table"); const rows = [];
function row(cells, th) { const r = el("tr"); r.children = cells.map(c => el(th ? "th" : "td", c)); r.parentNode = table;
  return r; }
rows.push(row(["deck", "win rate"], true), row(["A", "62.5%"]), row(["B", "\u22123.0 pp"]), row(["C", "12.0%"]),
          row(["D", "—"]));
table.querySelectorAll = sel => sel === "th" ? rows[0].children : rows.slice();
table.appendChild = r => { rows.splice(rows.indexOf(r), 1); rows.push(r); };
global.document = { querySelectorAll: () => [table] };
"""
CLICKS = r"""
const th = rows[0].children[1];
th.listeners.click(); console.log(rows.slice(1).map(r => r.children[0].textContent).join(""), th.getAttribute("aria-sort"));
th.listeners.click(); console.log(rows.slice(1).map(r => r.children[0].textContent).join(""), th.getAttribute("aria-sort"));
"""


def test_page_has_a_viewport_and_sortable_scrolling_tables():
    page = to_html(Document("t", [Table("x", ["a", "b"], [["1", "2"]])]))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '<div class="scroll"><table class="sortable">' in page and "<script>" in page
    assert "import" not in _SORT_JS and "require" not in _SORT_JS  # plain JavaScript, no framework


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_click_sorts_numbers_as_numbers(tmp_path: Path):
    script = tmp_path / "sort.js"
    script.write_text(FAKE_DOM + _SORT_JS + CLICKS, encoding="utf-8")
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["BCAD ascending", "ACBD descending"]  # "—" last both ways


def test_the_sort_arrows_are_css_escapes_not_control_characters():
    # "\2195" in a plain Python string is an octal escape: U+0002 then "195", drawn as "▯95"
    page = to_html(Document("t", [Table("x", ["a", "b"], [["1", "2"]])]))
    assert all(ord(c) >= 32 or c in "\n\t" for c in page)
    for arrow in ("\\2195", "\\2191", "\\2193"):
        assert f'content: " {arrow}"' in page



def test_markdown_numbers_carry_no_backslash():
    from mythos_cli.reports.doc import md_inline, to_markdown

    # "\6" is no CommonMark escape (only punctuation is): a renderer shows the backslash
    assert md_inline("expected **63.4%** (95% interval 60.1–66.6%)") == "expected **63.4%** (95% interval 60.1–66.6%)"
    md = to_markdown(Document("t", [Table("x", ["a", "b"], [["63.4%", "-3.0 pp"]])]), Path("."))
    assert "\\6" not in md and "| 63.4% |" in md
    # a line that would start a list still shows as written, escaped the CommonMark way
    assert md_inline("1. not a list") == "1\\. not a list"
    assert md_inline("- not a bullet") == "\\- not a bullet"
