"""``mythos cards``: list, show and measure the card catalog."""

from __future__ import annotations

import re
import textwrap
from typing import Optional

import typer
from rich.cells import cell_len
from rich.table import Table

from mythos_cli.catalog import Card, CatalogError, default_catalog
from mythos_cli.catalog.coverage import coverage, special_uses
from mythos_cli.catalog.model import CARD_TYPES, SET_NAMES, SETS, TIMING_LABELS
from mythos_cli.catalog.render import describe
from mythos_cli.cli.output import fail, out, plain, print_json

app = typer.Typer(help="Browse the card catalog of both sets.", no_args_is_help=True)


def _catalog():
    try:
        return default_catalog()
    except CatalogError as exc:
        fail(str(exc), "the installed card data is damaged; reinstall mythos", code=2)


def _stats(c: Card) -> str:
    if c.type == "mission":
        return f"{c.points} pts"
    return f"{c.cost}/{c.power}"


@app.command("list")
def list_cards(
    set: Optional[str] = typer.Option(None, "--set", help="KS or SS."),
    type: Optional[str] = typer.Option(None, "--type", help="character, mission or attachment."),
    group: Optional[str] = typer.Option(None, "--group", help='Faction, e.g. "Leaf Village" (or "leaf").'),
    keyword: Optional[str] = typer.Option(None, "--keyword", help='e.g. "Team 7", "Jutsu".'),
    cost: Optional[int] = typer.Option(None, "--cost", help="Exact chakra cost."),
    name: Optional[str] = typer.Option(None, "--name", help="Part of a name or title."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """List cards, filtered.

    Example: mythos cards list --set KS --group leaf --keyword "Team 7" --cost 3
    """
    if set and set.upper() not in SETS:
        fail(f"unknown set {set!r}", f"use one of {', '.join(SETS)}", code=2)
    if type and type.lower() not in CARD_TYPES:
        fail(f"unknown card type {type!r}", f"use one of {', '.join(CARD_TYPES)}", code=2)
    cards = _catalog().filter(set=set, type=type, group=group, keyword=keyword, cost=cost, name=name)
    if as_json:
        print_json([c.to_dict() for c in cards])
        return
    # no vertical rules, and the short columns never wrap: at 80 columns the text columns keep
    # room enough to wrap between words (a header or a group name is never cut in two)
    table = Table(title=f"{len(cards)} card(s)", box=None, title_justify="left", pad_edge=False,
                  header_style="bold underline")
    rows = [(c.id, c.name, c.title, c.type, _stats(c), c.group or "", ", ".join(c.keywords)) for c in cards]
    fixed = {"id", "type", "cost/\npower"}
    for i, col in enumerate(("id", "name", "title", "type", "cost/\npower", "group", "keywords")):
        longest = max((len(w) for r in rows for w in str(r[i]).split()), default=1)
        if col in fixed:
            table.add_column(col, min_width=max(*(len(w) for w in col.split()), longest))
        else:
            table.add_column(col, min_width=max(len(col), min(longest, 11 if col in ("group", "title") else 10)), overflow="fold",
                             ratio=1)
    for r in rows:
        table.add_row(*r)
    out.print(table)


def _show_one(c: Card, printing: str | None) -> None:
    head = f"[bold]{c.name}[/]" + (f" — {c.title}" if c.title else "")
    out.print(head, highlight=False)
    facts = Table.grid(padding=(0, 2))
    facts.add_row("version", f"{c.id} ({SET_NAMES[c.set]} #{c.number})")
    if printing:
        facts.add_row("printing", printing)
    facts.add_row("type", c.type + (f" (attaches to a {c.attach_to})" if c.attach_to else ""))
    if c.type == "mission":
        facts.add_row("points", f"{c.points} base + rank bonus (D 1, C 2, B 3, A 4)")
    else:
        facts.add_row("cost", str(c.cost))
        facts.add_row("power", f"{c.power:+d}" if c.type == "attachment" else str(c.power))
        facts.add_row("group", c.group or "")
        facts.add_row("keywords", ", ".join(c.keywords) or "—")
    facts.add_row("rarity", c.rarity)
    facts.add_row("printings", ", ".join(c.printings))
    facts.add_row("name key", c.name_key)
    out.print(facts, highlight=False)
    if c.effects:
        out.print("effects:")
        labels = [line.label for line in c.effects]
        lw = min(max(cell_len(x) for x in labels), 14)
        width = max(out.width - lw - 4, 30)
        for label, line in zip(labels, c.effects):
            rows = wrap_text(describe(line, c), width)
            if cell_len(label) > lw:  # a long DUEL label stands on its own line
                out.print(f"  [cyan]{plain(label)}[/]", highlight=False, soft_wrap=True)
                head = " " * lw
            else:
                head = label + " " * (lw - cell_len(label))
            for i, row in enumerate(rows):
                lead = f"[cyan]{plain(head)}[/]" if i == 0 else " " * lw
                out.print(f"  {lead}  {plain(row)}", highlight=False, soft_wrap=True)
        notes = []
        if any(line.kind == "instant" or (line.facts is not None and line.facts.triggers) for line in c.effects):
            notes.append(CONVENTION)
        if any(" of yours" in describe(line, c) for line in c.effects):
            notes.append(YOURS)
        for note in notes:
            for row in wrap_text(note, max(out.width - 2, 30)):
                out.print(f"  [dim]{plain(row)}[/]", highlight=False, soft_wrap=True)
    else:
        out.print("effects: none (a vanilla card)")


# The one convention the rendered lines rely on (the core's ``effects::mandatory``: a gate asks
# first unless the line's first step, or its trigger, says must; ``LineFacts.mandatory``).
CONVENTION = ("Instant lines (↯) and triggered effects (\"when …\", \"at …\") are optional: you may decline each "
              "one as a whole; once used, all of it applies except the steps that say \"you may\". One that opens "
              "with \"Mandatory:\" cannot be declined.")
# README's two words for your side: "friendly" leaves the card itself out (rulebook glossary), "of yours"
# (a selection that can pick the card itself, render.rs ``includes_me``) counts it too
YOURS = ("\"Friendly\" characters are your other characters (this card left out); characters \"of yours\" "
         "include this card.")
# a keyword and its number never stand on two lines ("CHAKRA" / "+1", "POWERUP" / "2")
_GLUE = re.compile(r"(\bCHAKRA|\bPOWERUP|(?<!\S)[+−-](?:\d+|X)) (?=\S)")


def wrap_text(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, breaking only between words, never after
    CHAKRA, POWERUP or a signed number (textwrap breaks at ASCII spaces only)."""
    glued = _GLUE.sub(lambda m: f"{m.group(1)}\u00a0", text)
    lines = textwrap.wrap(glued, width, break_long_words=False, break_on_hyphens=False)
    return [x.replace("\u00a0", " ") for x in lines] or [""]


@app.command("show")
def show(
    ref: str = typer.Argument(..., metavar="ID-OR-NAME", help="A printing (KS-108-RA), a version (KS-108) or a name."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Show one card: facts, printings and the tool's own rendering of its effects.

    Examples: mythos cards show KS-108-RA · mythos cards show "kakashi hatake / leader of team 7"
    """
    found = _catalog().lookup(ref)
    if found.found:
        if as_json:
            print_json(found.card.to_dict() | ({"printing": found.printing} if found.printing else {}))
        else:
            _show_one(found.card, found.printing)
        return
    if found.ambiguous:
        if as_json:
            print_json({"query": ref, "ambiguous": [c.to_dict() for c in found.cards]})
            return
        table = Table(title=f"{len(found.cards)} cards match {ref!r}: pick one by id or 'name / title'")
        for col in ("id", "name", "title", "cost/power", "group"):
            table.add_column(col)
        for c in found.cards:
            table.add_row(c.id, c.name, c.title, _stats(c), c.group or "")
        out.print(table)
        return
    hint = None
    if found.suggestions:
        hint = "did you mean " + ", ".join(f"{c.id} {c.full_name}" for c in found.suggestions) + "?"
    if as_json:
        print_json({"query": ref, "error": found.problem, "suggestions": [c.id for c in found.suggestions]})
        raise typer.Exit(2)
    fail(found.problem or f"no card matches {ref!r}", hint or "try `mythos cards list --name PART`")


@app.command("coverage")
def coverage_cmd(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """How many effect lines, per set and timing, the engine can execute.

    Example: mythos cards coverage --json
    """
    cards = _catalog()
    rows = coverage(cards)  # (the rules core says which lines it runs)
    uses = special_uses(cards)
    if as_json:
        print_json([{"set": r.set, "timing": r.timing, "lines": r.lines, "encoded": r.encoded,
                     "executable": r.executable, "percent": round(r.percent, 1),
                     "specials": [f"{u.card}:{u.name}" for u in uses if (u.set, u.timing) == (r.set, r.timing)]}
                    for r in rows])
        return
    table = Table(title="Effect coverage")
    for col in ("set", "timing", "lines", "encoded", "executable", "%"):
        table.add_column(col, justify="right" if col not in ("set", "timing") else "left")
    totals: dict[str, list[int]] = {}
    for r in rows:
        table.add_row(r.set, TIMING_LABELS[r.timing], str(r.lines), str(r.encoded), str(r.executable), f"{r.percent:.0f}")
        t = totals.setdefault(r.set, [0, 0, 0])
        t[0] += r.lines
        t[1] += r.encoded
        t[2] += r.executable
    for s, (n, e, x) in totals.items():
        table.add_row(f"[bold]{s}[/]", "[bold]all[/]", str(n), str(e), str(x), f"{100 * x / n:.0f}" if n else "100")
    out.print(table)
    out.print("Escape hatches (per-card code the language cannot say yet):")
    for s in totals:
        mine = [u for u in uses if u.set == s]
        listed = ", ".join(f"{u.card} {TIMING_LABELS[u.timing]} ({u.name})" for u in mine) or "none"
        out.print(f"  {s}: {len(mine)}: {listed}")
