"""Write the golden files of the Rust renderer (core/tests/render.rs) from the Python renderer.

    python core/tests/make_renderings.py

* ``renderings.tsv``: card id, effect line index, ``describe(line, card)``;
* ``selectors.tsv``: card id, effect line index, where the selector stands in the line, a
  form (``FORMS``: "prompt" is ``Selector.render()``, the English of a target prompt) and the
  selector rendered in that form.

Fields are tab-separated; a backslash, tab or newline inside a text is escaped (``\\\\``,
``\\t``, ``\\n``). Rerun it whenever the Python renderer changes, and commit both files.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository root: run from any directory

from mythos_cli.catalog import default_catalog  # noqa: E402
from mythos_cli.catalog.language import Selector  # noqa: E402
from mythos_cli.catalog.render import python_describe as describe  # noqa: E402


# form → (plural, bare, place) of Selector.render
FORMS = {
    "prompt": (None, False, True),
    "all": (True, True, True),
    "one": (False, False, False),
    "bare": (False, True, False),
}


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def step_selectors(steps, prefix: str):
    """(path, selector) of every selector a step resolves, nested steps included; the Rust test
    walks the trees in the same order (``selectors_of`` in render.rs)."""
    for i, s in enumerate(steps):
        here = f"{prefix}{i}"
        if isinstance(s.arg, Selector):
            yield f"{here}.arg", s.arg
        if s.target is not None:
            yield f"{here}.target", s.target
        if isinstance(s.opts.get("and"), Selector):
            yield f"{here}.and", s.opts["and"]
        if isinstance(s.opts.get("onto"), Selector):
            yield f"{here}.onto", s.opts["onto"]
        yield from step_selectors(s.opts.get("do", ()), f"{here}.do")
        if s.verb == "one_of":
            for j, branch in enumerate(s.arg):
                yield from step_selectors(branch, f"{here}.or{j}.")


def line_selectors(enc):
    yield from step_selectors(enc.steps, "step")
    if enc.modifier is not None:
        yield from step_selectors(enc.modifier.steps, "mod")
    for i, st in enumerate(enc.statics):
        if st.target is not None:
            yield f"static{i}.target", st.target
        yield from step_selectors(st.opts.get("do", ()), f"static{i}.do")
    for i, t in enumerate(enc.triggers):
        if t.who is not None:
            yield f"trigger{i}.who", t.who
        yield from step_selectors(t.steps, f"trigger{i}.step")
    if isinstance(enc.host, tuple):
        for i, s in enumerate(enc.host):
            yield f"host{i}", s


def main() -> None:
    cat = default_catalog()
    lines, sels = [], []
    for card in sorted(cat.cards, key=lambda c: c.id):
        for i, line in enumerate(card.effects):
            lines.append(f"{card.id}\t{i}\t{escape(describe(line, card))}\n")
            if line.encoding is not None:
                for path, sel in line_selectors(line.encoding):
                    for form, (plural, bare, place) in FORMS.items():
                        text = sel.render(plural, bare=bare, place=place)
                        sels.append(f"{card.id}\t{i}\t{path}\t{form}\t{escape(text)}\n")
    (HERE / "renderings.tsv").write_text("".join(lines), encoding="utf-8")
    (HERE / "selectors.tsv").write_text("".join(sels), encoding="utf-8")
    print(f"{len(lines)} effect lines, {len(sels) // len(FORMS)} selectors in {len(FORMS)} forms")


if __name__ == "__main__":
    main()
