"""The ``mythos`` command line: a thin layer that parses, calls one function, renders."""

from __future__ import annotations

import sys

import typer
import typer.core

from mythos_cli import __version__
from mythos_cli.cli import cards as cards_cli
from mythos_cli.cli import decks as decks_cli
from mythos_cli.cli import ladder as ladder_cli
from mythos_cli.cli import replay as replay_cli
from mythos_cli.cli import optimize as optimize_cli
from mythos_cli.cli import report as report_cli
from mythos_cli.cli import scenario as scenario_cli
from mythos_cli.cli import simulate as simulate_cli


def _hide_flag_types() -> None:
    """Typer 0.2x shows a flag as ``--json <bool>``, as if it took a value (``--json true``
    would then read ``true`` as a file): show flags bare, as click and uv do. The typer pin
    in pyproject.toml (``<0.30``) makes a newer typer a deliberate upgrade, with this re-checked
    (tests/test_cli_polish.py reads every command's help)."""
    option = getattr(typer.core, "TyperOption", None)
    show = getattr(option, "display_type_rich", None)
    if show is None or getattr(show, "_mythos", False):
        return

    def display_type_rich(self, ctx):
        return None if getattr(self, "is_flag", False) else show(self, ctx)

    display_type_rich._mythos = True
    option.display_type_rich = display_type_rich


_hide_flag_types()

app = typer.Typer(
    name="mythos",
    help=(
        "Deck validation, game simulation and tournament-prep reports for the Naruto Mythos TCG "
        "(Konoha Shidō and Shinobi Shiren).\n\n"
        "Examples: mythos cards show kakashi · mythos validate data/decks/*.txt"
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)
app.add_typer(cards_cli.app, name="cards")
app.command("validate")(decks_cli.validate)
app.add_typer(decks_cli.app, name="deck")
app.add_typer(scenario_cli.app, name="scenario")
app.command("simulate")(simulate_cli.simulate)
app.command("ladder")(ladder_cli.ladder)
app.command("optimize")(optimize_cli.optimize_cmd)
app.add_typer(simulate_cli.db_app, name="db")
app.add_typer(report_cli.app, name="report")
app.command("replay")(replay_cli.replay)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mythos {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Naruto Mythos TCG tool."""


def main() -> None:
    # Card names and marks (✓, …, ō) are not ASCII: on a terminal that cannot show them,
    # print a replacement character rather than die with UnicodeEncodeError.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    app(prog_name="mythos")
