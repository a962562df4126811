"""Shared console helpers for the CLI: rich output to stdout, errors to stderr."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

out = Console(soft_wrap=False)
err = Console(stderr=True, soft_wrap=True)  # messages are not hard-wrapped: they stay greppable


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def fail(message: str, hint: str | None = None, code: int = 1) -> NoReturn:
    # the message and hint are plain text: a "[board]" or a path in brackets must show as written
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    if hint:
        err.print(f"  [yellow]hint:[/] {escape(hint)}", highlight=False)
    raise typer.Exit(code)
