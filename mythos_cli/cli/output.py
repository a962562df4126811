"""Shared console helpers for the CLI: rich output to stdout, errors to stderr."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console

out = Console(soft_wrap=False)
err = Console(stderr=True, soft_wrap=True)  # messages are not hard-wrapped: they stay greppable


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def fail(message: str, hint: str | None = None, code: int = 1) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    if hint:
        err.print(f"  [yellow]hint:[/] {hint}", highlight=False)
    raise typer.Exit(code)
