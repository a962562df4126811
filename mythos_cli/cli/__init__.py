"""The ``mythos`` command line: a thin layer that parses, calls one function, renders."""

from __future__ import annotations

import sys

import typer

from mythos_cli import __version__
from mythos_cli.cli import cards as cards_cli
from mythos_cli.cli import decks as decks_cli
from mythos_cli.cli import ladder as ladder_cli
from mythos_cli.cli import optimize as optimize_cli
from mythos_cli.cli import report as report_cli
from mythos_cli.cli import scenario as scenario_cli
from mythos_cli.cli import simulate as simulate_cli

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
