"""Play a scenario on the rules core: its board, scripted steps and expectations."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mythos_cli.catalog import Catalog, default_catalog
from mythos_cli.scenario.board import ILLEGAL, Board
from mythos_cli.scenario.board import load as load_board
from mythos_cli.scenario.input import ScenarioInputError, check_shape, read_scenario
from mythos_cli.scenario.spec import PLAYERS, ScenarioError, _player, board_spec, find_unit


@dataclass
class Check:
    what: str
    ok: bool
    detail: str = ""


@dataclass
class ScenarioResult:
    path: str
    name: str
    checks: list[Check] = field(default_factory=list)
    error: str | None = None
    unreadable: bool = False  # the file could not be read or parsed at all (exit 2)

    @property
    def passed(self) -> bool:
        return self.error is None and all(c.ok for c in self.checks)


def _action_for(g: Board, text: str, where: str) -> tuple:
    d = g.pending
    if d is None:
        raise ScenarioError(f"{where}: {text!r} but the game waits for nobody (phase {g.phase})")
    words = text.split()
    verb = words[0].lower()
    if d.kind == "action":
        p = d.player
        if verb == "pass":
            return ("pass",)
        if verb == "play":
            rest = " ".join(words[1:])
            m = re.match(r"^(\S+)(\s+hidden)?(?:\s+on\s+(\d+))?(?:\s+over\s+(.+))?$", rest)
            if not m:
                raise ScenarioError(f"{where}: write play ID [hidden] on N  or  play ID over UNIT")
            ref, hidden, on, over = m.group(1), bool(m.group(2)), m.group(3), m.group(4)
            inst = _hand_card(g, p, ref, where)
            over_unit = find_unit(g, over, where) if over else None
            over_uid = over_unit.uid if over_unit else -1
            mi = over_unit.mission if over_unit else int(on or 1) - 1
            sig = g.cards[inst].id
            for a in d.options:
                if a[0] == "play" and g.cards[a[1]].id == sig and a[2] == mi and a[3] == hidden and a[4] == over_uid:
                    return a
            return ("play", inst, mi, hidden, over_uid)
        if verb == "reveal" and len(words) > 2 and words[1].lower() == "attachment":
            ref = words[2].upper()
            for a in sorted(g.att_hidden()):
                if g.owner(a) == p and ref in (g.cards[a].id, *g.cards[a].printings):
                    return ("reveal_attachment", a)
            raise ScenarioError(f"{where}: p{p + 1} has no face-down attachment {words[2]}")
        if verb == "reveal":
            return ("reveal", find_unit(g, " ".join(words[1:]), where).uid)
        if verb == "attach":  # attach ID [hidden] to UNIT   |   attach ID [hidden] on N (a mission)
            m = re.match(r"^attach\s+(\S+)(\s+hidden)?\s+(?:to\s+(.+)|on\s+(\d+))$", text.strip(), re.I)
            if not m:
                raise ScenarioError(f"{where}: write attach ID [hidden] to UNIT  or  attach ID [hidden] on N")
            inst = _hand_card(g, p, m.group(1), where)
            hidden = bool(m.group(2))
            if m.group(3):
                host = find_unit(g, m.group(3), where)
                mi, host_uid = host.mission, host.uid
            else:
                mi, host_uid = int(m.group(4)) - 1, -1
            sig = g.cards[inst].id
            for a in d.options:
                if a[0] == "attach" and g.cards[a[1]].id == sig and a[2] == mi and a[3] == host_uid and a[4] == hidden:
                    return a
            return ("attach", inst, mi, host_uid, hidden)
        raise ScenarioError(f"{where}: main actions are pass, play, attach, reveal (got {text!r})")
    if verb == "mulligan":
        return ("choose", words[1].lower() in ("yes", "true"))
    if verb != "choose":
        raise ScenarioError(f"{where}: the game waits for a {d.kind} choice by p{d.player + 1}; write choose …, not {text!r}")
    arg = " ".join(words[1:])
    low = arg.lower()
    if low in ("skip", "none", "decline"):
        return ("choose", None)
    if d.kind in ("yesno", "mulligan"):
        return ("choose", low in ("yes", "true"))
    if d.kind == "number" or (d.kind == "order" and low.isdigit()):
        return ("choose", int(low) - (1 if d.kind == "order" else 0))
    if d.kind == "order":  # "choose KS-003" (or "choose p2:KS-003"): the effect of that card resolves first
        names = [_option_name(g, o) for o in d.options]
        side, _, ref = arg.rpartition(":")
        found = catalog_card(g, ref)
        hits = [o for o, n in zip(d.options, names)
                if found is not None and n.split(":")[-1] == found and (not side or n.startswith(side.strip().lower() + ":"))]
        if len(hits) == 1:
            return ("choose", hits[0])
        raise ScenarioError(f"{where}: {arg!r} {'matches several' if hits else 'is not one'} of the effects to order: "
                            f"{names}; name one by card id (p1:/p2: narrows) or by position (choose 2)")
    if d.kind == "mission":
        return ("choose", int(low.removeprefix("mission").strip()) - 1)
    if d.kind == "place":
        if low.startswith("over"):
            uid = find_unit(g, arg[4:], where).uid
            for o in d.options:
                if o is not None and o[1] == uid:
                    return ("choose", o)
        mi = int(low.removeprefix("mission").strip()) - 1
        for o in d.options:
            if o is not None and o[0] == mi and o[1] == -1:
                return ("choose", o)
        raise ScenarioError(f"{where}: {arg!r} is not a place offered: {d.options}")
    if d.kind == "target":
        return ("choose", find_unit(g, arg, where, among=[o for o in d.options if o is not None]).uid)
    if d.kind == "line":  # an effect line to copy, by its timing: "choose MAIN", "choose AMBUSH"
        for o in d.options:
            if o is not None and _option_name(g, o).lower() == low:
                return ("choose", o)
        raise ScenarioError(f"{where}: {arg!r} is not an effect offered: {[_option_name(g, o) for o in d.options]}")
    if d.kind == "card":
        for o in d.options:
            if o is not None and arg.upper() in (g.cards[o].id, *g.cards[o].printings):
                return ("choose", o)
        raise ScenarioError(f"{where}: no option card {arg!r} among {[g.cards[o].id for o in d.options if o is not None]}")
    raise ScenarioError(f"{where}: cannot answer a {d.kind} decision with {arg!r}")


def catalog_card(g: Board, ref: str) -> str | None:
    """The version id of the card a step names (a version or printing id, or a name), or None."""
    ref = ref.strip()
    for c in g.cards:
        if ref.upper() in (c.id, *c.printings):
            return c.id
    keyed = ref.lower().replace(" ", "-")
    ids = {c.id for c in g.cards if c.name_key == keyed}
    return ids.pop() if len(ids) == 1 else None


ANSWERER_RE = re.compile(r"^(p[12])\s*:\s*(\S.*)$", re.I)


def _answerer(g: Board, step: str, where: str) -> str:
    """``"p2: choose yes"``: the step names who answers; anyone else deciding fails the step."""
    m = ANSWERER_RE.match(step.strip())
    if not m:
        return step
    who = PLAYERS[m.group(1).lower()]
    d = g.pending
    if d is None:
        raise ScenarioError(f"{where}: p{who + 1} should answer, but the game waits for nobody (phase {g.phase})")
    if d.player != who:
        what = f"{'an' if d.kind[0] in 'aeiou' else 'a'} {d.kind} decision" + (f" ({d.prompt})" if d.prompt else "")
        raise ScenarioError(f"{where}: the step is p{who + 1}'s, but p{d.player + 1} is deciding now: {what}")
    return m.group(2)


def _hand_card(g: Board, player: int, ref: str, where: str) -> int:
    for inst in g.zone(player, "hand"):
        c = g.cards[inst]
        if ref.upper() in (c.id, *c.printings):
            return inst
    raise ScenarioError(f"{where}: p{player + 1} has no {ref} in hand")


MAX_ROUND = 4  # a game's rounds
MAX_CHOICE = 999  # no decision offers more options than this


def check_step(step: str, where: str) -> None:
    """Refuse a step no game can have, before the board is set up (``auto until round 99`` and
    ``choose 99999999999999999999999`` were accepted, and only a later expectation failed)."""
    text = re.sub(r"^\s*p[12]\s*:", "", step).strip()
    words = text.lower().split()
    if not words:
        return
    if words[0] == "auto":
        until = text.split("until", 1)[1].strip().lower() if "until" in text else "end"
        parts = until.split()
        if until in ("end", "evaluation"):
            return
        if len(parts) == 2 and parts[0] == "round" and parts[1].isdigit():
            if not 1 <= int(parts[1]) <= MAX_ROUND:
                raise ScenarioError(f"{where}: a game has rounds 1 to {MAX_ROUND}, not {parts[1]}")
            return
        raise ScenarioError(f"{where}: auto runs until end, evaluation or round N (1 to {MAX_ROUND}), not {until!r}")
    if words[0] == "choose" and len(words) == 2 and words[1].isdigit() and int(words[1]) > MAX_CHOICE:
        raise ScenarioError(f"{where}: {words[1]} is more than any decision offers: choose a number from 0 to "
                            f"{MAX_CHOICE}")
    if words[0] in ("play", "attach") and "on" in words[:-1]:
        n = words[words.index("on") + 1]
        if n.isdigit() and not 1 <= int(n) <= MAX_ROUND:
            raise ScenarioError(f"{where}: missions in play are numbered 1 to {MAX_ROUND}, not {n}")


def _auto(g: Board, until: str, where: str) -> None:
    target_round = None
    if until.startswith("round"):
        target_round = int(until.split()[1])
    guard = 0
    while g.phase != "over" and g.pending is not None:
        if target_round is not None and g.round >= target_round and g.phase == "action":
            return
        if until == "evaluation" and g.phase in ("evaluate", "end", "cleanup", "start"):
            return
        guard += 1
        if guard > 10_000:
            raise ScenarioError(f"{where}: auto never reached {until!r}")
        acts = g.legal_actions()
        act = ("pass",) if ("pass",) in acts else acts[0]
        if act[0] == "choose" and ("choose", None) in acts:
            act = ("choose", None)
        g.apply(act)


# ---------------------------------------------------------------------------------------
def _ref_power(g: Board, ref, where):
    return g.power(find_unit(g, ref, where).uid)


def _zone_ids(g: Board, zone: list[int]) -> list[str]:
    return sorted(g.cards[c].id for c in zone)


def _norm_ids(catalog: Catalog, refs: list[str], where: str, *, keep_order: bool = False) -> list[str]:
    out = []
    for r in refs:
        found = catalog.lookup(r)
        if not found.found:
            raise ScenarioError(f"{where}: unknown card {r!r}")
        out.append(found.card.id)
    return out if keep_order else sorted(out)


def check_expect(g: Board, exp: dict, catalog: Catalog, where: str, error: str | None) -> list[Check]:
    out: list[Check] = []

    def add(what: str, ok: bool, detail: str = "") -> None:
        out.append(Check(what, ok, detail))

    for key, val in exp.items():
        if key == "error":
            add(f"error contains {val!r}", error is not None and val.lower() in error.lower(), f"got {error!r}")
        elif key == "power":
            for ref, n in val.items():
                got = _ref_power(g, ref, where)
                add(f"power of {ref} = {n}", got == n, f"got {got}")
        elif key == "tokens":
            for ref, n in val.items():
                got = find_unit(g, ref, where).tokens
                add(f"tokens on {ref} = {n}", got == n, f"got {got}")
        elif key == "hidden":
            for ref in val:
                u = find_unit(g, ref, where)
                add(f"{ref} is hidden", u.hidden, "it is face-up")
        elif key == "face_up":
            for ref in val:
                u = find_unit(g, ref, where)
                add(f"{ref} is face-up", not u.hidden, "it is hidden")
        elif key == "in_play":
            for ref in val:
                try:
                    find_unit(g, ref, where)
                    add(f"{ref} in play", True)
                except ScenarioError as exc:
                    add(f"{ref} in play", False, str(exc))
        elif key == "not_in_play":
            for ref in val:
                try:
                    find_unit(g, ref, where)
                    add(f"{ref} not in play", False, "it is in play")
                except ScenarioError:
                    add(f"{ref} not in play", True)
        elif key == "units":
            for ref, props in val.items():
                u = find_unit(g, ref, where)
                for prop, want in props.items():
                    if prop == "mission":
                        got, want_v = u.mission + 1, want
                    elif prop == "controller":
                        got, want_v = u.controller, _player(want, where)
                    elif prop == "stack":  # bottom → top, in stack order
                        got, want_v = [g.cards[c].id for c in u.stack], _norm_ids(catalog, want, where, keep_order=True)
                    else:
                        got, want_v = getattr(u, prop), want
                    add(f"{ref}.{prop} = {want}", got == want_v, f"got {got}")
        elif key == "mission_power":
            for mi, pair in enumerate(val):
                got = [g.side_power(mi, 0), g.side_power(mi, 1)]
                add(f"mission {mi + 1} power = {pair}", got == list(pair), f"got {got}")
        elif key in ("score", "chakra"):
            for pl, n in val.items():
                got = g.counter(_player(pl, where), key)
                add(f"{key} of {pl} = {n}", got == n, f"got {got}")
        elif key in ("hand", "discard", "deck"):
            for pl, refs in val.items():
                got = _zone_ids(g, g.zone(_player(pl, where), key))
                want = _norm_ids(catalog, refs, where)
                add(f"{key} of {pl} = {want}", got == want, f"got {got}")
        elif key == "discard_order":
            for pl, refs in val.items():
                got = [g.cards[c].id for c in g.zone(_player(pl, where), "discard")]
                want = [catalog.lookup(r).card.id for r in refs]
                add(f"discard pile of {pl}, bottom to top = {want}", got == want, f"got {got}")
        elif key in ("hand_size", "deck_size", "discard_size"):
            for pl, n in val.items():
                got = len(g.zone(_player(pl, where), key.removesuffix("_size")))
                add(f"{key} of {pl} = {n}", got == n, f"got {got}")
        elif key == "edge":
            add(f"edge = {val}", g.edge == _player(val, where), f"got p{g.edge + 1}")
        elif key == "winner":
            add(f"winner = {val}", g.winner == _player(val, where), f"got {'p%d' % (g.winner + 1) if g.winner >= 0 else 'none'}")
        elif key == "round":
            add(f"round = {val}", g.round == val, f"got {g.round}")
        elif key == "phase":
            add(f"phase = {val}", g.phase == val, f"got {g.phase}")
        elif key == "round_scores":
            got = g.round_scores()
            add(f"round scores = {val}", got == [list(r) for r in val], f"got {got}")
        elif key == "missions":  # the missions in play, in order (rank D first)
            got = [g.cards[m.card].id for m in g.missions()]
            want = [catalog.lookup(r, prefer="mission").card.id for r in val]
            add(f"missions in play = {want}", got == want, f"got {got}")
        elif key == "mission_deck":  # the missions still to come, next round's first
            got = [g.cards[c].id for c in reversed(g.mission_deck())]
            want = [catalog.lookup(r, prefer="mission").card.id for r in val]
            add(f"mission deck = {want}", got == want, f"got {got}")
        elif key == "mission_winners":
            got = ["p%d" % (m.winner + 1) if m.winner >= 0 else "none" for m in g.missions()]
            add(f"mission winners = {val}", got == list(val), f"got {got}")
        elif key == "decision":
            d = g.pending
            got = {"player": f"p{d.player + 1}", "kind": d.kind} if d else {}
            want = {k: v for k, v in val.items() if k in ("player", "kind")}
            ok = d is not None and all(got.get(k) == v for k, v in want.items())
            if ok and "options" in val:
                names = sorted(_option_name(g, o) for o in d.options)
                ok = names == sorted(val["options"])
                got["options"] = names
            add(f"decision {val}", ok, f"got {got}")
        elif key == "attached":  # { "p1:KS-009" = ["SS-080"], "mission 2 p1" = ["SS-103"] }
            for ref, refs in val.items():
                mm = re.match(r"^mission\s+(\d+)\s+(p[12])$", ref.strip())
                if mm:
                    got_insts = g.missions()[int(mm.group(1)) - 1].attachments[_player(mm.group(2), where)]
                else:
                    got_insts = find_unit(g, ref, where).attachments
                hidden = g.att_hidden()
                got = sorted(g.cards[a].id + (" (hidden)" if a in hidden else "") for a in got_insts)
                want = sorted(catalog.lookup(r.removesuffix(" (hidden)").split(" by ")[0]).card.id
                              + (" (hidden)" if r.endswith(" (hidden)") else "") for r in refs)
                add(f"attachments of {ref} = {want}", got == want, f"got {got}")
        elif key == "can_play":
            acts = g.legal_actions()
            for text, want in val.items():
                try:
                    a = _action_for(g, text, where)
                    got = a in acts
                except ScenarioError:
                    got = False
                add(f"{text!r} legal = {want}", got == want, f"got {got}")
        else:
            raise ScenarioError(f"{where}: unknown expectation {key!r}")
    return out


def _option_name(g: Board, o: Any) -> str:
    if o is None:
        return "skip"
    if isinstance(o, bool):
        return "yes" if o else "no"
    if g.pending and g.pending.kind == "target":
        u = g.unit(o)
        return f"p{u.controller + 1}:{g.cards[u.stack[-1]].id}"
    if g.pending and g.pending.kind == "mission":
        return f"mission {o + 1}"
    if g.pending and g.pending.kind == "card":
        return g.cards[o].id
    if g.pending and g.pending.kind == "line":
        inst, i = o
        return g.cards[inst].effects[i].timing.upper()
    if g.pending and g.pending.kind == "order" and (sources := g.order_sources()):
        player, card = sources[o]  # the effect, named by its card and whose it is
        return f"p{player + 1}:{g.cards[card].id}" if card >= 0 else str(o)
    return str(o)


def run_file(path: Path, catalog: Catalog | None = None) -> ScenarioResult:
    catalog = catalog or default_catalog()
    where = str(path)
    try:  # a regular file of at most scenario.input.MAX_BYTES, valid TOML
        doc = read_scenario(path)
    except ScenarioInputError as exc:
        return ScenarioResult(where, Path(path).stem, error=str(exc), unreadable=exc.unreadable)
    return run_doc(doc, catalog, where)


def run_doc(doc: dict, catalog: Catalog, where: str) -> ScenarioResult:
    """Play a scenario on the rules core: its board, steps and checks."""
    name = doc.get("name")
    res = ScenarioResult(where, name if isinstance(name, str) and name.strip() else Path(where).stem)
    try:  # every key known, every value of its type, at least one expectation
        check_shape(doc, where)
    except ScenarioInputError as exc:
        res.error = str(exc)
        return res
    try:
        for i, step in enumerate(doc.get("steps", [])):
            check_step(step, f"{where} step {i + 1} ({step!r})")
        g = load_board(board_spec(doc, catalog, where), catalog)
        error = None
        cp0 = doc.get("checkpoints", {}).get("0")
        if cp0:  # checkpoint 0: the board before the first step
            res.checks.extend(check_expect(g, cp0, catalog, f"{where} before step 1", None))
        for i, step in enumerate(doc.get("steps", [])):
            here = f"{where} step {i + 1} ({step!r})"
            if step.startswith("auto"):
                _auto(g, step.split("until", 1)[1].strip() if "until" in step else "end", here)
                continue
            if step.startswith("expect"):
                continue
            action = _action_for(g, _answerer(g, step, here), here)
            try:
                g.apply(action)
                error = None
            except ILLEGAL as exc:
                error = str(exc)
                if not doc.get("expect", {}).get("error") and "error" not in (doc.get("checkpoints", {}).get(str(i + 1), {})):
                    res.error = f"{here}: illegal: {exc}"
                    return res
            cp = doc.get("checkpoints", {}).get(str(i + 1))
            if cp:
                res.checks.extend(check_expect(g, cp, catalog, f"{where} after step {i + 1}", error))
        res.checks.extend(check_expect(g, doc.get("expect", {}), catalog, where, error))
    except ScenarioError as exc:
        res.error = str(exc)
    except ILLEGAL as exc:
        res.error = f"{where}: the board itself is illegal: {exc}"
    except (KeyError, TypeError, ValueError) as exc:
        res.error = f"{where}: malformed scenario: {exc!r}"
    except Exception as exc:  # an engine failure is a scenario result, never a traceback
        import traceback

        frame = traceback.extract_tb(exc.__traceback__)[-1]
        res.error = f"{where}: ENGINE ERROR {type(exc).__name__}: {exc} (at {Path(frame.filename).name}:{frame.lineno})"
    return res


def run_paths(paths: list[Path]) -> list[ScenarioResult]:
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(p.rglob("*.toml")))
        else:
            files.append(p)
    catalog = default_catalog()
    return [run_file(f, catalog) for f in files]
