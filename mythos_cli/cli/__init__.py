"""The ``mythos`` command line: a thin layer that parses, calls one function, renders."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, MutableMapping
from typing import Callable

import typer
import typer.core
import typer.main

from mythos_cli import __version__


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

# Each command's module is imported when that command runs (or when `mythos --help` lists it), so
# `mythos validate`, `mythos cards …` or `mythos scenario run` load neither the simulation stack
# nor anything they do not use. (name, module, attribute, a group of subcommands?), in the order
# --help lists them.
COMMANDS = (
    ("validate", "mythos_cli.cli.decks", "validate", False),
    ("simulate", "mythos_cli.cli.simulate", "simulate", False),
    ("ladder", "mythos_cli.cli.ladder", "ladder", False),
    ("optimize", "mythos_cli.cli.optimize", "optimize_cmd", False),
    ("meta", "mythos_cli.cli.meta", "meta_cmd", False),
    ("experiment", "mythos_cli.cli.experiment", "app", True),
    ("replay", "mythos_cli.cli.replay", "replay", False),
    ("cards", "mythos_cli.cli.cards", "app", True),
    ("deck", "mythos_cli.cli.decks", "app", True),
    ("scenario", "mythos_cli.cli.scenario", "app", True),
    ("db", "mythos_cli.cli.simulate", "db_app", True),
    ("report", "mythos_cli.cli.report", "app", True),
)


def _loader(name: str, module: str, attr: str, group: bool) -> Callable[[], typer.core.TyperCommand]:
    def load():
        obj = getattr(importlib.import_module(module), attr)
        if group:
            cmd = typer.main.get_group(obj)
            cmd.name = name
            return cmd
        single = typer.Typer(add_completion=False, rich_markup_mode="rich")
        single.command(name)(obj)
        cmd = typer.main.get_command(single)
        check = getattr(obj, "check_args", None)  # a look at the words as typed, before they are parsed
        if check is not None:
            parse = cmd.parse_args

            def parse_args(ctx, args):
                check(list(args))
                return parse(ctx, args)

            cmd.parse_args = parse_args
        return cmd
    return load


class _Commands(MutableMapping):
    """The commands by name, each built from its module the first time it is asked for."""

    def __init__(self, loaders: dict[str, Callable]):
        self._loaders = loaders
        self._built: dict = {}

    def __getitem__(self, name: str):
        if name not in self._built:
            self._built[name] = self._loaders[name]()  # (KeyError: no such command)
        return self._built[name]

    def __setitem__(self, name: str, cmd) -> None:
        self._built[name] = cmd
        self._loaders.setdefault(name, lambda: cmd)

    def __delitem__(self, name: str) -> None:
        self._loaders.pop(name)
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaders)

    def __len__(self) -> int:
        return len(self._loaders)


class _Group(typer.core.TyperGroup):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.commands = _Commands({c[0]: _loader(*c) for c in COMMANDS})

    def list_commands(self, ctx) -> list[str]:
        return list(self.commands)  # (names only: --help builds each command to read its help)


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
    cls=_Group,
)


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
    try:
        app(prog_name="mythos")
    except ImportError as exc:
        if exc.name != "mythos_cli._core" and not (exc.name == "mythos_cli" and "'_core'" in str(exc)):
            raise
        # every command plays on (or reads the cards through) the compiled rules core
        print("error: the rules core (mythos_cli._core) is not built in this install\n"
              "  hint: reinstall with `pip install -e .` (it needs a Rust toolchain), or build it in a "
              "checkout with `maturin develop --release`", file=sys.stderr)
        sys.exit(2)
