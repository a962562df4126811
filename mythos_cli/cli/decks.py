"""``mythos validate`` and ``mythos deck …``: render what the decks library finds."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from mythos_cli.catalog import CatalogError
from mythos_cli.cli.output import err, fail, out, plain, print_json
from mythos_cli.decks import Problem, Verdict, check_input, convert, deck_stats, exit_code
from mythos_cli.files import FileProblem, write_regular

app = typer.Typer(help="Convert deck lists between formats and show what a deck is made of.", no_args_is_help=True)


class ConstructionName(str, Enum):
    mythos = "mythos"
    naruto_ccg_2006 = "naruto-ccg-2006"
    gencon_2027 = "gencon-2027"


class ListFormat(str, Enum):
    text = "text"
    code = "code"
    json = "json"


FORMAT_HELP = "Construction format: mythos, naruto-ccg-2006 or gencon-2027 (default: the list's `format:` header, else mythos)."
INPUT_HELP = "A deck list file (text, deck code or JSON), '-' for standard input, or a deck code itself."


def _fmt(construction: Optional[ConstructionName]) -> Optional[str]:
    return construction.value if construction else None


def _guarded(call, *args):
    """Run a library call; a damaged card catalog is an installation problem (exit 2)."""
    try:
        return call(*args)
    except CatalogError as exc:
        fail(str(exc), "the installed card data is damaged; reinstall mythos", code=2)


def _counts(v: Verdict) -> str:
    c = v.counts
    def n(k: int, word: str) -> str:
        return f"{k} {word}{'' if k == 1 else 's'}"

    if v.construction == "mythos":
        return f"{n(c.get('deck', 0), 'card')}, {n(c.get('missions', 0), 'mission')}"
    return ", ".join(f"{k} {s}" if s != "deck" else n(k, "card") for s, k in c.items() if k or s == "deck")


def _problem(p: Problem, console=out) -> None:
    colour = "red" if p.is_error else "yellow"
    where = f"{plain(p.location)}: " if p.location else ""
    console.print(f"  {where}[{colour}]{p.severity}[/]: {plain(p.message)} [dim]\\[{p.code}][/]", highlight=False, soft_wrap=True)
    if p.hint:
        label = "fix" if p.is_error else "hint"
        console.print(f"      [cyan]{label}:[/] {plain(p.hint)}", highlight=False, soft_wrap=True)


def _verdict(v: Verdict) -> None:
    name = f' "{plain(v.deck.name)}"' if v.deck is not None and v.deck.name else ""
    if not v.readable:
        out.print(f"[bold red]✗[/] {plain(v.source)}: unreadable", highlight=False, soft_wrap=True)
    elif v.valid:
        extra = f", {len(v.warnings)} warning{'s' if len(v.warnings) != 1 else ''}" if v.warnings else ""
        out.print(f"[bold green]✓[/] {plain(v.source)}: legal {v.construction} deck{name} ({_counts(v)}){extra}",
                  highlight=False, soft_wrap=True)
    else:
        e, w = len(v.errors), len(v.warnings)
        tally = f"{e} error{'s' if e != 1 else ''}" + (f", {w} warning{'s' if w != 1 else ''}" if w else "")
        counts = f" ({_counts(v)})" if v.counts else ""
        out.print(f"[bold red]✗[/] {plain(v.source)}: not a legal {v.construction} deck{name}{counts}: {tally}",
                  highlight=False, soft_wrap=True)
    if v.readable and v.construction_from == "sections":
        out.print(f"  [dim]validated as {v.construction}, the format its sections belong to (--format to choose)[/]",
                  highlight=False, soft_wrap=True)
    for p in v.problems:
        _problem(p)


def validate(
    files: List[str] = typer.Argument(..., metavar="FILE", help=INPUT_HELP, show_default=False),
    construction: Optional[ConstructionName] = typer.Option(None, "--format", "-f", help=FORMAT_HELP, case_sensitive=False),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable verdicts (a list, one per input)."),
) -> None:
    """Check that deck lists are legal: one verdict per input, every problem with its line and a fix.

    Exit code: 0 every deck is legal, 1 a deck is not, 2 an input could not be read.

    Example: mythos validate data/decks/*.txt

    Example: mythos validate my-list.json --format mythos --json

    Example: mythos validate 'KS-009-C--2|KS-013-C--2|…|KS-001-MMS--1|My_Deck'
    """
    verdicts = [_guarded(check_input, f, _fmt(construction)) for f in files]
    if as_json:
        print_json([v.to_dict() for v in verdicts])
    else:
        for v in verdicts:
            _verdict(v)
        if len(verdicts) > 1:
            legal = sum(v.valid for v in verdicts)
            out.print(f"{legal} of {len(verdicts)} lists are legal decks", highlight=False)
    raise typer.Exit(exit_code(verdicts))


@app.command("convert")
def convert_cmd(
    file: str = typer.Argument(..., metavar="FILE", help=INPUT_HELP),
    to: ListFormat = typer.Option(..., "--to", help="Output format: text, code (the community deck code) or json.", case_sensitive=False),
    out_path: Optional[Path] = typer.Option(None, "--out", "-o", help="Write here instead of standard output."),
    construction: Optional[ConstructionName] = typer.Option(None, "--format", "-f", help=FORMAT_HELP, case_sensitive=False),
) -> None:
    """Convert a deck list to another list format. The list need not be legal, but every line must be understood.

    Example: mythos deck convert data/decks/leaf-team7.txt --to code

    Example: mythos deck convert 'KS-009-C--2|…|My_Deck' --to text --out my-deck.txt
    """
    result = _guarded(convert, file, to.value, _fmt(construction))
    if not result.ok:
        v = result.verdict
        err.print(f"[bold red]error:[/] cannot convert {plain(v.source)}", highlight=False, soft_wrap=True)
        for p in result.problems:
            _problem(p, err)
        # A list the output format cannot say is a usage error, like an unreadable input.
        cannot = any(p.code == "cannot-convert" for p in result.problems)
        raise typer.Exit(2 if not v.readable or cannot else 1)
    for p in result.problems:
        _problem(p, err)
    if out_path is None:
        sys.stdout.write(result.text)
        return
    try:  # whole or not at all; a FIFO or device as --out is refused (writing to a FIFO waits forever)
        write_regular(out_path, result.text, "deck list file")
    except FileProblem as exc:
        err.print(f"[bold red]error:[/] cannot write {plain(str(out_path))}: {plain(exc.message)}", highlight=False)
        err.print(f"  [cyan]fix:[/] {plain(exc.hint or 'give a writable file path with --out')}", highlight=False)
        raise typer.Exit(2)
    err.print(f"wrote {plain(str(out_path))} ({to.value})", highlight=False)


def _table(title: str, rows: dict, label: str, bar: bool = False) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(label)
    table.add_column("cards", justify="right")
    if bar:
        table.add_column("")
    for key, n in rows.items():
        cells = [plain(str(key)), str(n)] + (["█" * n] if bar else [])
        table.add_row(*cells)
    return table


def _card_list(deck) -> Table:
    """Every card of the list (not the missions, which have their own table), cheapest first."""
    table = Table(title="Cards", title_justify="left")
    for col, just in (("qty", "right"), ("id", "left"), ("card", "left"), ("cost", "right"), ("power", "right"),
                      ("type", "left"), ("section", "left")):
        table.add_column(col, justify=just, overflow="fold" if col == "card" else "ellipsis")
    rows = [e for e in deck.entries if e.section != "missions"]
    sections = {e.section for e in rows}

    def key(e):
        c = e.card
        return (c.cost if c is not None and c.cost is not None else 99, e.version or e.ref)

    for e in sorted(rows, key=key):
        c = e.card
        name = c.full_name if c is not None else (e.label or e.ref)
        table.add_row(str(e.qty), e.printing or (c.id if c else ""), plain(name),
                      "" if c is None or c.cost is None else str(c.cost),
                      "" if c is None or c.power is None else str(c.power), c.type if c else "",
                      e.section if len(sections) > 1 else "")
    if len(sections) <= 1:
        table.columns.pop()
    return table


@app.command("show")
def show(
    file: str = typer.Argument(..., metavar="FILE", help=INPUT_HELP),
    construction: Optional[ConstructionName] = typer.Option(None, "--format", "-f", help=FORMAT_HELP, case_sensitive=False),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Show what a deck is made of: cost curve, groups, keywords, timings, averages, missions.

    Shows an illegal deck too (exit 0) as long as every line was understood.

    Example: mythos deck show data/decks/sand-village.txt

    Example: mythos deck show my-deck.json --json
    """
    v = _guarded(check_input, file, _fmt(construction))
    if not v.readable or v.blocking or v.deck is None:
        if as_json:
            print_json({"verdict": v.to_dict(), "stats": None})
        else:
            _verdict(v)
        raise typer.Exit(v.exit_code or 1)
    stats = deck_stats(v.deck)
    if as_json:
        cards = [{"qty": e.qty, "id": e.printing or (e.card.id if e.card else None), "ref": e.ref, "section": e.section,
                  "name": e.card.full_name if e.card else None, "cost": e.card.cost if e.card else None,
                  "power": e.card.power if e.card else None} for e in v.deck.entries]
        print_json({"verdict": v.to_dict(), "stats": stats.to_dict(), "cards": cards})
        return
    title = plain(stats.name or v.source)
    out.print(f"[bold]{title}[/] — {v.construction} list, {_counts(v)}", highlight=False, soft_wrap=True)
    out.print(_card_list(v.deck))
    if stats.curve:
        out.print(_table("Cost curve", stats.curve, "cost", bar=True))
        out.print(_table("Card types", stats.types, "type"))
        out.print(_table("Groups", stats.groups, "group"))
        if stats.keywords:
            out.print(_table("Keywords", stats.keywords, "keyword"))
        if stats.timings:
            out.print(_table("Effect timings", stats.timings, "timing"))
        averages = Table.grid(padding=(0, 2))
        averages.add_row("average cost", f"{stats.average_cost:.2f}")
        if stats.average_power is not None:
            averages.add_row("average power (characters)", f"{stats.average_power:.2f}")
        out.print(averages)
    else:
        out.print(_table("Sections", stats.sections, "section"))
        if stats.colours:
            out.print(_table("Colours", stats.colours, "colour"))
    if stats.missions:
        missions = Table(title="Missions", title_justify="left")
        for col in ("id", "mission", "points"):
            missions.add_column(col)
        for m in stats.missions:
            missions.add_row(m["id"], plain(m["name"]), str(m["points"]) + (f" (×{m['qty']})" if m["qty"] != 1 else ""))
        out.print(missions)
    if v.valid:
        note = f", {len(v.warnings)} warning(s) — `mythos validate` lists them" if v.warnings else ""
        out.print(f"[green]legal {v.construction} deck[/]{note}", highlight=False)
    else:
        out.print(f"[red]not a legal {v.construction} deck[/]: {len(v.errors)} error(s) — `mythos validate` explains them", highlight=False)
