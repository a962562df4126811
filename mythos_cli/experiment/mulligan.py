"""The mulligan experiment: every dealt hand played both kept and mulliganed, from the same deal.

Which hands should a deck throw back? A filter over played games cannot say: the player chose
its mulligans by looking at the hands, so the hands it kept and the hands it threw back are
different hands. The experiment plays the question instead:

* **The deal.** ``hands`` deals of the studied deck, spread evenly over the field's decks
  (seats alternating), each played twice from the same seed (common random numbers): once
  with the studied seat's mulligan forced to *keep*, once forced to *mulligan*
  (``RunConfig.forced_mulligans``, the core's ``play_match_forced``). The opponent, its deck,
  the missions, who holds the Edge, the opponent's hand and both players' own seeds are the
  same in the two games; the run's player makes every other decision of both seats. The two
  arms are one ordinary run (``exp_id``), stored batch by batch: reproducible from the seed,
  resumable, on all cores or a Dask cluster.
* **The effect of mulliganing a hand** is its mulliganed result minus its kept result (−1, 0
  or +1 for one deal). Averaged over hands of a kind (by total cost, cheap plays, expensive
  cards, or a named card in the hand) it is the effect of mulliganing such hands, with Agresti
  and Min's interval for paired results; the field's decks are weighted by their shares
  (``experiment.stats.gain``), so the same games answer for any shares of the same decks.
* **A keep rule to remember** ("mulligan hands costing 17 or more", "… with fewer than 2 cards
  of cost ≤ 2", "… holding X", "mulligan every hand") is learned on one half of the deals (the
  learning half: deal pairs 0-1, 4-5, … of each matchup, so both seats are in each half) and
  checked on the other (the held-out half): the ``HELD_OUT`` best rules of the learning half (by
  their gain in standard errors, so that a rule changing many hands is not favoured for its
  noise) get their held-out gain over keeping every hand, with intervals Bonferroni-corrected
  over those rules. The best-ranked rule whose held-out interval is clear of 0 is advised;
  when none is, the advice is to keep every hand, and the page says how close the best came.

``play`` runs (or resumes) one experiment; ``read`` reads a stored one back (for
``mythos report mulligan`` and ``report prep``); ``analyse`` turns its hands into the advice for
given shares.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Mapping, Sequence

from mythos_cli.decks.construction.mythos import CHEAP_COST, HEAVY_COST
from mythos_cli.experiment.arms import PREFIX, ExperimentError, ExperimentInterrupted, Progress, play_arms, same_json
from mythos_cli.experiment.stats import ALPHA, Gain, Pairs, gain, z_value
from mythos_cli.sim import Interrupted
from mythos_cli.sim.plan import DeckSpec
from mythos_cli.store import Store, StoreError
from mythos_cli.store import experiment as xstore

KIND = "mulligan"
KEEP, MULLIGAN = PREFIX + "keep", PREFIX + "mulligan"  # the two arms' deck names
DEFAULT_HANDS = 1000
MAX_HANDS = 1_000_000
HELD_OUT = 5  # the best rules of the learning half that the held-out half judges (Bonferroni over them)


class MulliganInterrupted(ExperimentInterrupted):
    """A mulligan experiment stopped: ``stored`` of ``planned`` games are kept."""


@dataclass
class MulliganConfig:
    """Everything a mulligan experiment depends on (stored with it, so it can be resumed)."""

    deck: DeckSpec
    field: list[DeckSpec]
    shares: list[float]  # of the field's decks, summing to 1 (the analysis may take others)
    hands: int  # deals in all, each played kept and mulliganed
    policy: str
    seed: int
    batch_size: int = 50

    @property
    def games_per_deck(self) -> int:
        """Deals against each field deck: an even number (seats alternate), at least 2."""
        per = math.ceil(self.hands / max(1, len(self.field)))
        return max(2, per + per % 2)

    @property
    def planned_games(self) -> int:
        return 2 * self.games_per_deck * len(self.field)

    @property
    def shares_by_name(self) -> dict[str, float]:
        return {f.name: s for f, s in zip(self.field, self.shares)}

    def check(self) -> None:
        if not self.field:
            raise ExperimentError("the field has no deck", "give --field or --gauntlet")
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or not 2 <= self.hands <= MAX_HANDS:
            raise ExperimentError(f"--hands {self.hands!r}: give a whole number from 2 to {MAX_HANDS:,}")
        if len({f.name for f in self.field}) != len(self.field) or {KEEP, MULLIGAN} & {f.name for f in self.field}:
            raise ExperimentError("the field's decks need distinct names (and not the experiment's own)")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> "MulliganConfig":
        d = dict(d)
        d["deck"] = DeckSpec.from_json(d["deck"])
        d["field"] = [DeckSpec.from_json(x) for x in d["field"]]
        return cls(**d)


@dataclass(frozen=True)
class Hand:
    """One deal of the studied deck, played both ways."""

    opponent: str
    seat: int  # the studied deck's seat
    seed: int
    index: int  # the deal's number in its matchup (seats alternate with it)
    cards: tuple[str, ...]  # the 5 cards dealt
    kept_won: bool
    mulliganed_won: bool

    @property
    def half(self) -> int:
        """0: the learning half, 1: the held-out half (pairs of deals, so both seats are in each)."""
        return (self.index // 2) % 2

    @property
    def effect(self) -> int:
        """The effect of mulliganing this deal: +1 the mulligan won where keeping lost, −1 the reverse."""
        return int(self.mulliganed_won) - int(self.kept_won)

    def to_json(self) -> dict:
        return {"opponent": self.opponent, "seat": self.seat, "seed": self.seed, "deal": self.index,
                "cards": list(self.cards), "kept_won": self.kept_won, "mulliganed_won": self.mulliganed_won,
                "half": "learning" if self.half == 0 else "held-out"}


# -- playing it --------------------------------------------------------------------------------
def play(store: Store, exp_id: str, config: MulliganConfig, *, name: str | None = None, workers: int = 1,
         backend: str = "local", scheduler: str | None = None, progress: Progress | None = None) -> list[Hand]:
    """Play (or resume, or read back) the experiment ``exp_id``: its games are run ``exp_id``.

    Raises ``ExperimentError`` for settings the user can fix (another experiment of that id)
    and ``MulliganInterrupted`` on Ctrl-C or SIGTERM (call again to resume)."""
    config.check()
    row = xstore.get(store, exp_id)
    stored = config.to_json()
    if row is None:
        if store.run(exp_id) is not None:
            raise ExperimentError(f"a run {exp_id!r} that is not a mulligan experiment is stored in {store.path}",
                                  "choose another --name")
        xstore.create(store, exp_id, KIND, name or exp_id, stored)
    elif row["kind"] != KIND or not same_json(row["config"], stored):
        raise ExperimentError(f"an experiment {exp_id!r} with other settings is stored in {store.path}",
                              f"resume it with `mythos experiment mulligan --resume {exp_id}`, or choose another --name")
    else:
        xstore.set_status(store, exp_id, "running")
    studied = [DeckSpec(KEEP, config.deck.cards, config.deck.missions),
               DeckSpec(MULLIGAN, config.deck.cards, config.deck.missions)]
    try:
        play_arms(store, exp_id, f"mulligan experiment: {config.deck.name}", studied, config.field,
                  config.games_per_deck, config.policy, config.seed, [0, 0], forced_mulligans=["keep", "mulligan"],
                  batch_size=max(10, min(config.batch_size, math.ceil(config.planned_games / 8))),
                  workers=workers, backend=backend, scheduler=scheduler, progress=progress,
                  label=f"{config.hands:,} hands, each kept and mulliganed")
    except Interrupted as exc:
        xstore.set_status(store, exp_id, "interrupted")
        raise MulliganInterrupted(exp_id, exc.stored, exc.planned, exc.signal) from None
    except BaseException:
        try:
            xstore.set_status(store, exp_id, "interrupted")
        except StoreError:
            pass
        raise
    hands = read_hands(store, exp_id, config)
    xstore.set_status(store, exp_id, "finished", [exp_id])
    return hands


def read_hands(store: Store, run_id: str, config: MulliganConfig) -> list[Hand]:
    """The experiment's deals, each with its two results (every stored pair; a partial run gives fewer)."""
    rows = xstore.results(store, run_id)
    won: dict[tuple, dict[str, bool]] = {}
    number: dict[tuple, int] = {}
    per = config.games_per_deck
    for game_no, deck, opp, seat, seed, w in rows.select("game_no", "deck", "opponent", "seat", "seed",
                                                          "won").iter_rows():
        key = (opp, seat, seed)
        won.setdefault(key, {})[deck] = bool(w)
        if deck == KEEP:
            number[key] = game_no % per
    dealt = {g: tuple(h) for g, h in xstore.dealt_hands(store, run_id, KEEP).iter_rows()}
    games = {(opp, seat, seed): g for g, deck, opp, seat, seed in
             rows.filter(rows["deck"] == KEEP).select("game_no", "deck", "opponent", "seat", "seed").iter_rows()}
    hands = []
    for key, arms in won.items():
        if KEEP in arms and MULLIGAN in arms and games.get(key) in dealt:
            opp, seat, seed = key
            hands.append(Hand(opp, int(seat), int(seed), number[key], dealt[games[key]], arms[KEEP], arms[MULLIGAN]))
    hands.sort(key=lambda h: (h.opponent, h.index))
    return hands


def read(store: Store, exp_id: str) -> tuple[MulliganConfig, list[Hand], dict]:
    """A stored experiment: its settings, its deals and its row (status, start and end)."""
    row = xstore.get(store, exp_id)
    if row is None or row["kind"] != KIND:
        known = [r["exp_id"] for r in xstore.listing(store, KIND)]
        raise ExperimentError(f"no mulligan experiment {exp_id!r} in {store.path}",
                              ("stored: " + ", ".join(known[-5:])) if known else
                              "play one with `mythos experiment mulligan DECK`")
    config = MulliganConfig.from_json(row["config"])
    return config, read_hands(store, exp_id, config), row


def find(store: Store, deck: DeckSpec) -> list[str]:
    """The finished mulligan experiments of this list (same cards and missions), oldest first."""
    return [r["exp_id"] for r in xstore.listing(store, KIND)
            if r["status"] == "finished" and DeckSpec.from_json(r["config"]["deck"]).hash == deck.hash]


# -- what the hands say ------------------------------------------------------------------------
@dataclass(frozen=True)
class Features:
    total_cost: int
    cheap: int  # cards of cost ≤ CHEAP_COST
    heavy: int  # cards of cost ≥ HEAVY_COST
    cards: frozenset[str]


def features(cards: Sequence[str], costs: Mapping[str, int | None]) -> Features:
    cs = [costs.get(c) or 0 for c in cards]
    return Features(sum(cs), sum(1 for c in cs if c <= CHEAP_COST), sum(1 for c in cs if c >= HEAVY_COST),
                    frozenset(cards))


@dataclass(frozen=True)
class Rule:
    """Which hands to mulligan (every other hand is kept)."""

    kind: str  # total_cost, cheap, heavy, holding, without, every
    value: int | str
    text: str

    def mulligans(self, f: Features) -> bool:
        if self.kind == "total_cost":
            return f.total_cost >= self.value
        if self.kind == "cheap":
            return f.cheap < self.value
        if self.kind == "heavy":
            return f.heavy >= self.value
        if self.kind == "holding":
            return self.value in f.cards
        if self.kind == "without":
            return self.value not in f.cards
        return True  # every

    def to_json(self) -> dict:
        return {"rule": self.text, "kind": self.kind, "value": self.value}


def candidate_rules(feats: Sequence[Features], deck_cards: Sequence[str], names: Mapping[str, str]) -> list[Rule]:
    """Every rule tried: a threshold of total cost, cheap plays or expensive cards, a named card
    held or missing, and mulliganing every hand."""
    rules = [Rule("every", "", "mulligan every hand")]
    if feats:
        lo, hi = min(f.total_cost for f in feats), max(f.total_cost for f in feats)
        for t in range(lo + 1, hi + 1):
            rules.append(Rule("total_cost", t, f"mulligan hands whose 5 cards cost {t} or more in total"))
    for k in range(1, 6):
        rules.append(Rule("cheap", k, f"mulligan hands with fewer than {k} card{'s' if k > 1 else ''} of cost "
                                      f"≤ {CHEAP_COST}"))
    for k in range(1, 6):
        rules.append(Rule("heavy", k, f"mulligan hands with {k} or more cards of cost ≥ {HEAVY_COST}"))
    for card in sorted(set(deck_cards)):
        label = f"{card} {names.get(card, '')}".rstrip()
        rules.append(Rule("holding", card, f"mulligan hands holding {label}"))
        rules.append(Rule("without", card, f"mulligan hands without {label}"))
    return rules


def _pairs(hands: Sequence[Hand], mulligan: Sequence[bool]) -> dict[str, Pairs]:
    """Each hand's result under a choice (mulligan it or keep it) paired with its kept result."""
    out: dict[str, Pairs] = {}
    for h, m in zip(hands, mulligan):
        out.setdefault(h.opponent, Pairs()).add(h.mulliganed_won if m else h.kept_won, h.kept_won)
    return out


def effect(hands: Sequence[Hand], shares: Mapping[str, float], *, tests: int = 1) -> Gain:
    """The effect of mulliganing these hands (mulliganed minus kept), the field's decks in their shares."""
    return gain(_pairs(hands, [True] * len(hands)), shares, tests=tests)


def cost_bins(totals: Sequence[int]) -> list[tuple[int, int, str]]:
    """Total-cost bins at the quartiles of the hands: about equal counts each; ``(from, to, label)``."""
    import numpy as np

    totals = np.asarray(totals)
    lo, hi = int(totals.min()), int(totals.max())
    cuts = sorted({int(round(q)) for q in np.quantile(totals, [0.25, 0.5, 0.75])})
    edges = [c for c in cuts if lo <= c < hi]
    bins, start = [], lo
    for e in edges:
        bins.append((start, e))
        start = e + 1
    bins.append((start, hi))
    out = []
    for i, (a, b) in enumerate(bins):
        label = str(a) if a == b else f"≤{b}" if i == 0 else f"≥{a}" if i == len(bins) - 1 else f"{a}–{b}"
        out.append((a, b, label))
    return out


def _group(label, hands: list[Hand], shares, tests: int) -> dict:
    g = effect(hands, shares, tests=tests)
    return {"group": label, "hands": len(hands), "effect": g.to_json(),
            "kept_win_rate": _mean([h.kept_won for h in hands]),
            "mulliganed_win_rate": _mean([h.mulliganed_won for h in hands]),
            "verdict": None if not hands else "mulligan" if g.low > 0 else "keep" if g.high < 0 else "unclear"}


def _mean(xs) -> float | None:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else None


MIN_GROUP = 20  # hands a named card's group needs to be judged


def analyse(hands: Sequence[Hand], shares: Mapping[str, float], costs: Mapping[str, int | None],
            names: Mapping[str, str], deck_cards: Sequence[str]) -> dict:
    """The experiment's answer for a field of these shares (its decks that the experiment played)."""
    shares = {o: s for o, s in shares.items() if s > 0}
    hands = [h for h in hands if h.opponent in shares]
    if not hands:
        raise ExperimentError("the experiment played none of the field's decks",
                              "run the experiment against this field (mythos experiment mulligan DECK --field …)")
    total = sum(shares[o] for o in {h.opponent for h in hands})
    shares = {o: s / total for o, s in shares.items() if any(h.opponent == o for h in hands)}
    feats = [features(h.cards, costs) for h in hands]
    out: dict = {"hands": len(hands), "shares": shares, "cheap_cost": CHEAP_COST, "heavy_cost": HEAVY_COST,
                 "kept_win_rate": _weighted(hands, shares, lambda h: h.kept_won),
                 "mulliganed_win_rate": _weighted(hands, shares, lambda h: h.mulliganed_won),
                 "mulligan_every_hand": effect(hands, shares).to_json()}
    # by feature: each bin's hands, mulliganed minus kept; the bins of a feature judged together
    bins = cost_bins([f.total_cost for f in feats])
    groups = [(label, [h for h, f in zip(hands, feats) if a <= f.total_cost <= b], a, b) for a, b, label in bins]
    out["by_total_cost"] = [{**_group(label, hs, shares, len(groups)), "from": a, "to": b}
                            for label, hs, a, b in groups]
    out["by_cheap"] = _by_count(hands, feats, shares, lambda f: f.cheap)
    out["by_heavy"] = _by_count(hands, feats, shares, lambda f: f.heavy)
    judged = [c for c in sorted(set(deck_cards)) if sum(c in f.cards for f in feats) >= MIN_GROUP]
    out["by_card"] = [{**_group(f"{c} {names.get(c, '')}".rstrip(),
                                [h for h, f in zip(hands, feats) if c in f.cards], shares, len(judged)), "card": c}
                      for c in judged]
    out["by_card"].sort(key=lambda g: -(g["effect"]["gain"] or 0))
    out.update(learn(hands, feats, shares, deck_cards, names))
    out["per_hand"] = [{**h.to_json(), "total_cost": f.total_cost, "cheap": f.cheap, "heavy": f.heavy,
                        "effect": h.effect} for h, f in zip(hands, feats)]
    return out


def _weighted(hands, shares, value) -> float:
    by: dict[str, list] = {}
    for h in hands:
        by.setdefault(h.opponent, []).append(value(h))
    return sum(shares[o] * sum(v) / len(v) for o, v in by.items())


def _by_count(hands, feats, shares, key) -> list[dict]:
    values = sorted({key(f) for f in feats})
    return [{**_group(str(v), [h for h, f in zip(hands, feats) if key(f) == v], shares, len(values)), "count": v}
            for v in values]


def learn(hands: Sequence[Hand], feats: Sequence[Features], shares: Mapping[str, float],
          deck_cards: Sequence[str], names: Mapping[str, str]) -> dict:
    """A keep rule learned on the learning half, checked on the held-out half."""
    learning = [i for i, h in enumerate(hands) if h.half == 0]
    held = [i for i, h in enumerate(hands) if h.half == 1]
    rules = candidate_rules([feats[i] for i in learning], deck_cards, names)
    scored, seen = [], set()
    for r in rules:
        choice = [r.mulligans(f) for f in feats]
        key = tuple(choice)  # rules that mulligan the very same hands are one rule
        if key in seen or not any(choice[i] for i in learning):
            continue
        seen.add(key)
        g = gain(_pairs([hands[i] for i in learning], [choice[i] for i in learning]), shares)
        # ranked by the gain in standard errors: a rule that changes many hands changes many
        # results by chance, and the plain gain would favour it for its noise
        scored.append((g.gain / g.se if g.se > 0 else 0.0, r, choice, g))
    scored.sort(key=lambda x: (-x[0], x[1].kind != "every", len(x[1].text)))
    out = {"rules_tried": len(scored), "halves": {"learning": len(learning), "held_out": len(held)}}
    better = [s for s in scored if s[3].gain > 0][:HELD_OUT]
    out["learned"] = [{**r.to_json(), "learning_gain": g.to_json(),
                       "mulligans_share": sum(choice[i] for i in learning) / max(1, len(learning))}
                      for _, r, choice, g in better]
    if not better or not held:
        why = ("no rule of the " + str(len(scored)) + " tried did better than keeping every hand on the learning "
               "half") if not better else "no held-out hands (too few deals)"
        out["recommendation"] = {"status": "keep_all", "short": "keep every hand",
                                 "text": f"Keep every hand: {why}."}
        out["held_out"] = []
        return out
    m = len(better)
    checked = []
    for _, r, choice, _ in better:
        g = gain(_pairs([hands[i] for i in held], [choice[i] for i in held]), shares, tests=m)
        checked.append({**r.to_json(), "held_out_gain": g.to_json(),
                        "mulligans_share": sum(choice[i] for i in held) / max(1, len(held)), "_gain": g, "_rule": r})
    out["held_out"] = [{k: v for k, v in c.items() if not k.startswith("_")} for c in checked]
    clear = [c for c in checked if c["_gain"].low > 0]
    z = z_value(ALPHA, m)
    if clear:
        # the held-out half only passes or fails the learning half's choices: the best-ranked rule
        # that passes is advised (picking the largest held-out gain would flatter it again)
        best = clear[0]
        g = best["_gain"]
        share = best["mulligans_share"]
        others = [c for c in clear if c is not best]
        also = ("" if not others else " Also beyond noise there: " + "; ".join(
            f"{c['rule']} ({_pp(c['_gain'].gain)}, {_pp(c['_gain'].low)} to {_pp(c['_gain'].high)}, "
            f"{100 * c['mulligans_share']:.0f}% of hands)" for c in others) + ".")
        out["recommendation"] = {
            "status": "rule", "rule": best["_rule"].to_json(), "held_out_gain": g.to_json(),
            "mulligans_share": share, "also_clear": [c["_rule"].to_json() for c in others],
            "short": f"{best['rule']} ({_pp(g.gain)} on held-out hands, 95% CI {_pp(g.low)} to {_pp(g.high)})",
            "text": (f"{best['rule'][0].upper()}{best['rule'][1:]}, keep the rest (about "
                     f"{100 * share:.0f}% of hands are thrown back): on the {len(held)} held-out hands it wins "
                     f"{_pp(g.gain)} more than keeping every hand (95% interval {_pp(g.low)} to {_pp(g.high)}, "
                     f"Bonferroni over the {m} rules the learning half chose, z = {z:.2f})"
                     + (f", {_pp(g.gain / share)} on each hand it throws back" if share > 0 else "") + "." + also)}
    else:
        top = max(checked, key=lambda c: c["_gain"].gain)
        g = top["_gain"]
        out["recommendation"] = {
            "status": "keep_all", "closest": top["_rule"].to_json(), "held_out_gain": g.to_json(),
            "short": "keep every hand (no rule beats it beyond noise on the held-out hands)",
            "text": (f"Keep every hand: no rule beats it beyond noise on the {len(held)} held-out hands. The closest, "
                     f"\"{top['rule']}\", gains {_pp(g.gain)} there (95% interval {_pp(g.low)} to {_pp(g.high)}, "
                     f"Bonferroni over {m} rules), an interval that spans 0.")}
    return out


def _pp(x: float) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:+.1f} pp"


__all__ = ["DEFAULT_HANDS", "HELD_OUT", "KEEP", "KIND", "MULLIGAN", "Features", "Hand", "MulliganConfig",
           "MulliganInterrupted", "Rule", "analyse", "candidate_rules", "cost_bins", "effect", "features", "find",
           "learn", "play", "read", "read_hands"]
