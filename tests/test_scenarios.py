"""Every scenario file under tests/scenarios/ must pass (rules and card effects)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mythos_cli.engine.scenario import run_file

FILES = sorted((Path(__file__).parent / "scenarios").rglob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_scenario(path, catalog):
    res = run_file(path, catalog)
    assert res.error is None, res.error
    failed = [f"{c.what}: {c.detail}" for c in res.checks if not c.ok]
    assert not failed, "\n".join(failed)
    assert res.checks, "a scenario must expect something"


def test_there_are_scenarios():
    assert len(FILES) >= 15
