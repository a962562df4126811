"""``mythos scenario run``: play scripted scenario files and report each expectation."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from mythos_cli.cli.output import err, fail, out, plain, print_json
from mythos_cli.scenario import run_paths

app = typer.Typer(help="Scripted rules scenarios: a board, actions, expected outcomes.", no_args_is_help=True)


@app.command("run")
def run(
    files: list[Path] = typer.Argument(..., help="Scenario TOML files or folders of them."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="List every expectation, not only failures."),
    engine: str = typer.Option("core", "--engine", hidden=True,
                               help="The rules engine: core (the only one; kept for scripts that name it)."),
    summary: bool = typer.Option(False, "--summary", "-s", help="Counts per folder and the failures only."),
) -> None:
    """Run scenario files; exit 1 if any expectation fails, 2 if a file cannot be read.

    Example: mythos scenario run tests/scenarios/rules/snapshot_kakashi_kabuto.toml --verbose

    Example: mythos scenario run tests/scenarios --summary
    """
    if engine == "python":
        fail("the Python engine is retired: scenarios run on the rules core", "leave out --engine", code=2)
    if engine != "core":
        fail(f"unknown engine {engine!r}", "scenarios run on the rules core: leave out --engine", code=2)
    missing = [f for f in files if not f.exists()]
    if missing:
        fail(f"no such file or folder: {missing[0]}", "give a scenario .toml file or a folder of them", code=2)
    results = run_paths(files)
    if not results:
        fail("no scenario files found", "scenario files end in .toml", code=2)
    if as_json:
        print_json([{"file": r.path, "name": r.name, "passed": r.passed, "error": r.error,
                     "checks": [{"what": c.what, "ok": c.ok, "detail": c.detail} for c in r.checks]} for r in results])
    elif summary:
        folders: dict[str, list] = {}
        for r in results:
            folders.setdefault(str(Path(r.path).parent), []).append(r)
        table = Table(title="Scenarios by folder")
        for col, just in (("folder", "left"), ("passed", "right"), ("failed", "right")):
            table.add_column(col, justify=just, overflow="fold")
        for folder, rs in sorted(folders.items()):
            bad = sum(not r.passed for r in rs)
            table.add_row(plain(folder), str(len(rs) - bad), f"[red]{bad}[/]" if bad else "0")
        out.print(table)
        for r in results:
            if not r.passed:
                detail = r.error or "; ".join(f"{c.what}: {c.detail}" for c in r.checks if not c.ok)
                out.print(f"[red]✗[/] {plain(str(r.path))}: {plain(detail)}", highlight=False, soft_wrap=True)
        passed = sum(r.passed for r in results)
        err.print(f"{passed} passed, {len(results) - passed} failed")
    else:
        table = Table(title="Scenarios")
        for col in ("result", "scenario", "detail"):
            table.add_column(col, overflow="fold")
        for r in results:
            if r.error:
                table.add_row("[red]ERROR[/]", plain(r.name), plain(r.error))  # ("[board]" is text)
                continue
            bad = [c for c in r.checks if not c.ok]
            table.add_row("[green]pass[/]" if not bad else "[red]FAIL[/]", plain(r.name),
                          f"{len(r.checks)} expectation(s)" if not bad
                          else plain("; ".join(f"{c.what}: {c.detail}" for c in bad)))
            if verbose:
                for c in r.checks:
                    table.add_row("", plain(f"  {'✓' if c.ok else '✗'} {c.what}"), plain(c.detail) if not c.ok else "")
        out.print(table)
        passed = sum(r.passed for r in results)
        err.print(f"{passed} passed, {len(results) - passed} failed")
    if any(r.unreadable for r in results):
        raise typer.Exit(2)
    if not all(r.passed for r in results):
        raise typer.Exit(1)
