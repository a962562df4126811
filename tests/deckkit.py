"""Helpers for the deck tests: build lists, check them without touching the disk."""

from __future__ import annotations

from mythos_cli.decks import Verdict, check_source
from mythos_cli.decks.source import Source

# A legal Mythos deck: 15 versions × 2 = 30 cards, costs 1–5, three different missions.
LEGAL_CARDS = [
    "2 KS-009-C  Naruto Uzumaki",
    "2 KS-011-C  Sakura Haruno",
    "2 KS-013-C  Sasuke Uchiha",
    "2 KS-015-C  Kakashi Hatake",
    "2 KS-019-C  Ino Yamanaka",
    "2 KS-021-C  Shikamaru Nara",
    "2 KS-025-C  Kiba Inuzuka",
    "2 KS-027-C  Akamaru",
    "2 KS-030-C  Hinata Hyuga",
    "2 KS-036-C  Neji Hyuga",
    "2 KS-038-C  Rock Lee",
    "2 KS-042-C  Might Guy",
    "2 KS-145-M  Naruto Uzumaki",
    "2 KS-146-M  Sasuke Uchiha",
    "2 KS-108-R  Naruto Uzumaki",
]
LEGAL_MISSIONS = ["KS-001-MMS", "KS-005-MMS", "SS-003-MMS"]


def deck_text(cards=None, missions=None, header="name: Test Deck") -> str:
    cards = LEGAL_CARDS if cards is None else cards
    missions = LEGAL_MISSIONS if missions is None else missions
    lines = [header] if header else []
    lines += list(cards)
    if missions is not False:
        lines += ["missions:"] + list(missions)
    return "\n".join(lines) + "\n"


def everything_runs(line) -> bool:
    """An engine that can execute every effect line: keeps engine warnings out of a test."""
    return True


def check(text: str, fmt: str | None = None, name: str = "deck.txt", executable=everything_runs) -> Verdict:
    return check_source(Source(name, text), fmt, executable=executable)


def codes(verdict: Verdict, severity: str | None = None) -> list[str]:
    return [p.code for p in verdict.problems if severity is None or p.severity == severity]


def problem(verdict: Verdict, code: str):
    found = [p for p in verdict.problems if p.code == code]
    assert found, f"no {code} problem in {[(p.code, p.message) for p in verdict.problems]}"
    return found[0]
