"""The mythos effect language: typed trees parsed from the card files, and their English.

The Python copy, retiring (issue 16): the rules core reads and validates the card files
(``core/src/language``) and the catalog asks it what each line holds (``LineFacts``); only the
Python engine and the Python players still read these trees (``EffectLine.encoding``), and this
module goes with them.

An effect line's ``do`` is a list of *clauses*. A clause is one of:

* an **instant step**: one verb key with its argument, plus optional modifiers, e.g.
  ``{ powerup = 2, target = { side = "friendly", other = true, group = "Leaf Village" } }``
  or ``{ hide = { side = "enemy", where = "this", power_max = 3 }, as = "hidden" }``;
* a **static** (continuous lines): ``{ static = "power", n = 1, target = {…}, if = {…} }``;
* a **trigger** (continuous lines): ``{ on = "defeated", who = {…}, do = [ …steps… ] }``;
* a **modifier** (lines that change another line): ``{ instead = [ … ] }`` or ``{ also = [ … ] }``.

Selectors pick characters: ``side`` (friendly/enemy/any, relative to the effect's
controller), ``self``/``other``, ``where`` (this / in_play / other_missions / chosen),
``hidden``, ``group``, ``keyword``, ``name``, power and cost bounds (a bound may be a number
remembered earlier: ``cost_lt = "defeated_cost"``, ``name_var = "defeated"``), ``pick``
(weakest, strongest, lowest_cost: tied candidates are the player's choice), ``per_mission``
and ``count``: 1, "all", ``{ up_to = N }``, ``{ keep = N }`` (pick until only N remain) or
``{ total_power_max = N }`` (any number whose Power adds up to N at most); N may be any
number. Numbers are ints, a remembered value (``"x"``, ``"discarded_cost"`` …), or a count
(``{ count = {…selector…} }``, ``{ missions_with = {…} }``, with an optional ``plus``).

Step options every verb takes: ``target``, ``if`` (a condition), ``must`` (not optional),
``may`` (this step alone is optional inside the line), ``as`` (remember the result). Hide and
defeat also take ``and`` (a second selector chosen from the same snapshot) and ``chooser =
"opponent"``. ``copy`` resolves another card's instant line as the copier's own;
``strip_top`` discards the top card of an upgrade stack; ``{ special = "name" }`` calls a named
escape hatch (``SPECIALS`` below; ``mythos cards coverage`` lists every use). ``play`` says where
the character comes from with ``from``: ``hand_or_hidden`` (the default, for a card that names no
zone: your hand or one of your hidden characters, revealed), ``hand``, ``hidden`` ("play … while
hidden": reveal one of your hidden characters), ``discard`` or ``deck_top``.

Shinobi Shiren adds: ATTACH lines (kind ``condition``) holding ``{ attach_to = "mission" }`` or
``{ attach_to = {…selector…} }`` (a list: any of them) and ``{ grant = { group|keyword = … } }``;
DUEL and FIRST STRIKE timings (the engine gates them; a DUEL modifier changes another line,
``{ as_main = true }`` makes an AMBUSH line apply on every play); verbs for attachments
(``attach``, ``attach_self``, ``discard_attachment``, ``move_attachment``), for the deck
(``declare``, ``reveal_top``, ``look_top``, ``dig``, ``search_deck``, ``recycle``,
``reveal_hand``), for structure (``for_each``, ``for_each_mission``, ``times``, ``one_of``,
``activate``), stack surgery (``split_bottom``, ``discard_from_stack``), ``pay_chakra``,
``take_back`` and the price ``cheaper``; counts of missions, attachments, stack cards or the
highest Power/cost (``{ missions = true, times = 2 }``, ``{ power_of = {…} }`` …); triggers
``start_of_round``, ``attached``, ``passed``, ``before_evaluation``; statics such as
``blank``, ``no_tokens``, ``powerup_bonus``, ``side_power``, ``score_twice``, ``grant_line``.

Every node renders itself to English, so the description can never disagree with the
engine, which interprets the same trees.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import Any


class LanguageError(ValueError):
    """An encoding uses an unknown verb or field, or a value of the wrong kind."""


# ---------------------------------------------------------------------------------------
# selectors
SIDES = ("friendly", "enemy", "any")
ANY = 1000  # "any number of": a count no board reaches
WHERE = ("this", "in_play", "other_missions", "chosen")
PICKS = ("weakest", "strongest", "lowest_cost", "strongest_unique")
_SEL_FIELDS = {
    "side", "self", "other", "where", "hidden", "group", "keyword", "not_keyword", "name", "names",
    "not_name", "power_max", "power_min", "power_eq", "cost_max", "cost_min", "printed_cost_max",
    "upgraded", "has_tokens", "no_tokens", "var", "not_var", "pick", "count", "played_last_turn",
    "power_lt_self", "power_le_self", "cost_lt", "power_max_var", "cost_max_var", "per_mission", "name_var",
    # Shinobi Shiren
    "not_group", "name_has", "with_attachment", "controlled", "owned", "moved_last_turn", "discounted", "unique_name",
    "sole", "printed_power_min", "printed_power_lt_self", "power_eq_self", "power_lt", "cost_le", "card_type",
    "keywords", "on",
}
CARD_TYPES_SEL = ("character", "attachment", "any")
_SS_FIELDS = {"not_group", "name_has", "with_attachment", "controlled", "owned", "moved_last_turn", "discounted",
              "unique_name", "sole", "printed_power_min", "printed_power_lt_self", "power_eq_self", "power_lt", "cost_le",
              "card_type", "keywords"}


def article(words: str) -> str:
    """``words`` with "a" or "an" before them."""
    w = words.lower()
    return ("an " if w[:1] in "aeiou" and not w.startswith(("uni", "one", "use", "eu")) else "a ") + words


# What X stands for in the sentence being rendered: a step or a static collects the notes of
# its selectors and says ", where X is …" once at its end (outside one, a selector says "(X: …)").
# Per thread: the engine renders target prompts while it plays.
_X = threading.local()


def _explained(note: str) -> bool:
    notes = getattr(_X, "notes", None)
    if not notes:
        return False
    if note not in notes[-1]:
        notes[-1].append(note)
    return True


def _with_x(render) -> str:
    stack = _X.__dict__.setdefault("notes", [])
    stack.append([])
    try:
        text = render()
        notes = stack[-1]
    finally:
        stack.pop()
    for note in notes:
        if f"where X is {note}" not in text:
            text += f", where X is {note}"
    return text


@dataclass(frozen=True, slots=True)
class Selector:
    side: str = "any"
    self_: bool = False
    other: bool = False
    where: str = "in_play"
    hidden: bool | None = None
    group: str | None = None
    keyword: str | None = None
    not_keyword: str | None = None
    names: tuple[str, ...] = ()
    not_name: tuple[str, ...] = ()
    power_max: int | None = None
    power_min: int | None = None
    power_eq: int | None = None
    cost_max: int | None = None
    cost_min: int | None = None
    printed_cost_max: int | None = None
    upgraded: bool | None = None
    has_tokens: bool | None = None
    var: str | None = None
    not_var: str | None = None
    pick: str | None = None
    count: Any = 1  # 1, "all", ("up_to", N), ("keep", N) or ("power_total", N); N may be a Number
    played_last_turn: bool = False
    power_lt_self: bool = False
    power_le_self: bool = False
    power_max_var: str | None = None
    cost_max_var: str | None = None
    cost_lt: Any = None  # a Number
    per_mission: bool = False  # the count applies in every mission separately ("up to 1 in every mission")
    name_var: str | None = None  # same name as the character remembered under this name
    # Shinobi Shiren
    not_group: str | None = None
    name_has: str | None = None  # "a Uchiha-named character": the name contains this word
    with_attachment: "Selector | None" = None  # has an attachment fitting this card filter (face-down: no name, keyword or group)
    controlled: bool | None = None  # under another player's control (controller is not the owner)
    owned: bool | None = None  # owned by the effect's controller
    moved_last_turn: bool = False  # moved during the opponent's previous turn
    discounted: bool = False  # played for less than its printed cost because of an effect
    unique_name: bool = False  # no other face-up character in its mission shares its name
    sole: bool = False  # the only non-hidden character on its side of its mission
    printed_power_min: int | None = None
    printed_power_lt_self: bool = False
    power_eq_self: bool = False
    power_lt: Any = None  # a Number
    cost_le: Any = None  # a Number
    card_type: str | None = None  # card filters: character (default), attachment or any
    keywords: tuple[str, ...] = ()  # any one of these keywords
    on: str | None = None  # attachment selectors: "character" or "mission" attachments only
    extra: bool = False  # set when any Shinobi Shiren field above is used (the engine checks them apart)

    @property
    def is_all(self) -> bool:
        return self.count == "all"

    def render(self, plural: bool | None = None, *, bare: bool = False, place: bool = True) -> str:
        """English for the selection. ``plural``: "all … characters"; ``bare``: no determiner;
        ``place``: False leaves out where the cards stand (the caller says it)."""
        if self.self_:
            if self.has_tokens is False:
                return "this character, if it has no Power tokens"
            return "this character"
        if self.var:
            return {"played": "the character played this way", "hidden": "the character hidden this way",
                    "moved": "the character moved this way", "defeated": "the character defeated this way",
                    "looked": "the character looked at", "target": "that character",
                    "host": "that character", "each": "that character"}.get(self.var, f"the character remembered as {self.var}")
        many = self.is_all if plural is None else plural
        det = ""
        explain: list[str] = []  # what X stands for, when a bound is not a plain number

        def num(n: Any) -> str:
            if isinstance(n, int):
                return str(n)
            explain.append(render_number(n))
            return "X"

        if self.pick:
            det = "the " + {"weakest": "weakest", "strongest": "strongest", "lowest_cost": "lowest-cost",
                            "strongest_unique": "single strongest"}[self.pick]
            if self.is_all:
                det = "all the " + det.removeprefix("the ")
                many = True
        elif many:
            det = "all"
        elif isinstance(self.count, tuple) and self.count[0] == "up_to":
            n = self.count[1]
            det = "any number of" if isinstance(n, int) and n >= ANY else f"up to {num(n)}"
            many = not isinstance(n, int) or n > 1
        elif isinstance(self.count, tuple) and self.count[0] == "cost_total":
            det = "any number of"
            many = True
        elif isinstance(self.count, tuple) and self.count[0] == "power_total":
            det = "any number of"
            many = True
        elif isinstance(self.count, tuple) and self.count[0] == "keep":
            det = ""
            many = True
        else:
            det = "another" if self.other else "a"
        adj = []
        if self.other and (many or self.pick or isinstance(self.count, tuple) or bare):
            adj.append("other")
        if self.hidden is True:
            adj.append("hidden")
        elif self.hidden is False or (self.sole and self.hidden is None):
            adj.append("non-hidden")
        if self.upgraded:
            adj.append("upgraded")
        if self.controlled:
            adj.append("controlled")
        if self.side != "any":
            adj.append(self.side)
        if self.group:
            adj.append(self.group)
        if self.keyword:
            adj.append(self.keyword)
        if self.keywords:
            adj.append(" or ".join(self.keywords))
        if self.names:
            adj.append(" or ".join(n.replace("-", " ").title() for n in self.names))
        if self.name_has:
            adj.append(f"{self.name_has}-named")
        noun = "characters" if many else "character"
        if self.card_type == "attachment" or self.on:
            noun = "attachments" if many else "attachment"
        elif self.card_type == "any":
            noun = "cards" if many else "card"
        # where the cards stand comes right after the noun ("an enemy character in this mission
        # with Power 3 or less"), so a qualifier never dangles after it
        where = ""
        if self.on:
            where = "on characters" if many else "on a character" if self.on == "character" else "on a mission"
            where = "on missions" if many and self.on == "mission" else where
        elif place and not self.per_mission:
            where = {"this": "in this mission", "in_play": "in play",
                     "other_missions": "in other missions" if many else "in another mission",
                     "chosen": "in the chosen mission"}[self.where]
        quals = []
        if self.not_group:
            quals.append(f"that is not {self.not_group}" if not many else f"that are not {self.not_group}")
        if self.not_keyword:
            quals.append(f"without the {self.not_keyword} keyword")
        if self.not_name:
            quals.append(("and " if self.not_keyword else "") + "not named "
                         + " or ".join(n.replace("-", " ").title() for n in self.not_name))
        if self.power_eq is not None:
            quals.append(f"with exactly {self.power_eq} Power")
        if self.power_max is not None:
            quals.append(f"with Power {self.power_max} or less")
        if self.power_max_var:
            quals.append(f"with Power {num(self.power_max_var)} or less")
        if self.power_min is not None:
            quals.append(f"with Power {self.power_min} or more")
        if self.power_lt_self:
            quals.append("with less Power than this character")
        if self.power_le_self:
            quals.append("with Power equal to or less than this character's")
        if self.cost_max is not None:
            quals.append(f"costing {self.cost_max} or less")
        if self.cost_max_var:
            quals.append(f"costing {num(self.cost_max_var)} or less")
        if self.cost_min is not None:
            quals.append(f"costing {self.cost_min} or more")
        if self.printed_cost_max is not None:
            quals.append(f"with a printed cost of {self.printed_cost_max} or less")
        if self.cost_lt is not None:
            quals.append(f"costing less than {num(self.cost_lt)}")
        if self.cost_le is not None:
            quals.append(f"costing {num(self.cost_le)} or less")
        if self.power_lt is not None:
            quals.append(f"with less Power than {num(self.power_lt)}")
        if self.power_eq_self:
            quals.append("with Power equal to this character's")
        if self.printed_power_min is not None:
            quals.append(f"with a printed Power of {self.printed_power_min} or more")
        if self.printed_power_lt_self:
            quals.append("with less printed Power than this character's Power")
        if self.with_attachment is not None:
            what = self.with_attachment.render(False, bare=True, place=False)
            what = what.replace(" attachment", "").replace(" character", "")
            quals.append("with an attachment" if what in ("character", "attachment") else f"with {article(what)} attachment")
        if self.has_tokens is True:
            quals.append("with Power tokens")
        elif self.has_tokens is False:
            quals.append("without Power tokens")
        if self.name_var:
            quals.append("with the same name as " + {"defeated": "the character defeated this way",
                                                     "revealed": "the revealed card"}.get(self.name_var, f"the {self.name_var} one"))
        if self.sole:
            quals.append(f"with no other non-hidden character on {'their' if many else 'its'} side")
        if self.owned:
            quals.append("that you own")
        if self.moved_last_turn:
            quals.append("that moved during the opponent's previous turn")
        if self.played_last_turn or self.discounted:
            quals.append(("that were played" if many else "that was played")
                         + (" during the opponent's previous turn" if self.played_last_turn else "")
                         + (" for less than its printed cost because of an effect" if self.discounted else ""))
        if self.unique_name:
            quals.append(f"whose name no other non-hidden character in {'their' if many else 'its'} mission has")
        if self.not_var:
            quals.append(f"other than the {self.not_var} one")
        if self.per_mission and place:
            quals.append("in every mission")
        if isinstance(self.count, tuple) and self.count[0] == "power_total":
            quals.append(f"with a total Power of {render_number(self.count[1])} or less")
        if isinstance(self.count, tuple) and self.count[0] == "cost_total":
            quals.append(f"with a total cost of {render_number(self.count[1])} or less")
        if isinstance(self.count, tuple) and self.count[0] == "keep":
            quals.append(f"until only {num(self.count[1])} remain")
        parts = ([] if bare else [det]) + adj + [noun, where] + quals
        text = " ".join(p for p in parts if p)
        if text.startswith("a "):
            text = article(text[2:])
        for e in explain:
            if not _explained(e):
                text += f" (X: {e})"
        return text


def render_attachments(sel: "Selector | None", plural: bool | None = None, *, bare: bool = False) -> str:
    """English for an attachment selector (whose attachments, where, which cards)."""
    if sel is None:
        return "attachments" if plural else "an attachment"
    many = sel.is_all if plural is None else plural
    det = "a"
    if sel.is_all:
        det = "all"
    elif isinstance(sel.count, tuple) and sel.count[0] == "up_to":
        n = sel.count[1]
        det = "any number of" if isinstance(n, int) and n >= ANY else f"up to {render_number(n)}"
        many = True
    adj = []
    if sel.other:
        adj.append("other")
    if sel.side != "any":
        adj.append(sel.side)
    if sel.keyword:
        adj.append(sel.keyword)
    if sel.keywords:
        adj.append(" or ".join(sel.keywords))
    if sel.names:
        adj.append(" or ".join(n.replace("-", " ").title() for n in sel.names))
    noun = "attachments" if many else "attachment"
    place = " in this mission" if sel.where == "this" else ""
    if sel.self_:
        place = " on this character"
    elif sel.on:  # "an attachment on a character in this mission"
        place = (f" on {sel.on}s" if many else f" on a {sel.on}") + place
    elif not place:
        place = " in play"
    text = " ".join(p for p in ([] if bare else [det]) + adj + [noun] if p) + place
    return article(text[2:]) if text.startswith("a ") else text


def _int(v: Any, where: str, key: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise LanguageError(f"{where}: {key} must be a whole number, not {v!r}")
    return v


def parse_selector(raw: Any, where: str) -> Selector:
    if raw == "self":
        return Selector(self_=True, where="in_play")
    if not isinstance(raw, dict):
        raise LanguageError(f"{where}: a selector is a table like {{ side = \"enemy\", where = \"this\" }} or \"self\"")
    unknown = set(raw) - _SEL_FIELDS
    if unknown:
        raise LanguageError(f"{where}: unknown selector field(s) {sorted(unknown)}")
    kw: dict[str, Any] = {}
    if set(raw) & _SS_FIELDS or raw.get("self") and len(raw) > 1:
        kw["extra"] = True
    for k, v in raw.items():
        if k == "side":
            if v not in SIDES:
                raise LanguageError(f"{where}: side must be one of {SIDES}")
            kw["side"] = v
        elif k == "where":
            if v not in WHERE:
                raise LanguageError(f"{where}: where must be one of {WHERE}")
            kw["where"] = v
        elif k == "self":
            kw["self_"] = bool(v)
        elif k in ("name", "names"):
            from mythos_cli.catalog.names import name_key

            kw["names"] = tuple(name_key(n) for n in ([v] if isinstance(v, str) else v))
        elif k == "not_name":
            from mythos_cli.catalog.names import name_key

            kw["not_name"] = tuple(name_key(n) for n in ([v] if isinstance(v, str) else v))
        elif k == "pick":
            if v not in PICKS:
                raise LanguageError(f"{where}: pick must be one of {PICKS}")
            kw["pick"] = v
        elif k == "count":
            if v == "all" or v == 1:
                kw["count"] = v
            elif v == "any":
                kw["count"] = ("up_to", ANY)
            elif isinstance(v, dict) and len(v) == 1 and set(v) <= {"up_to", "keep", "total_power_max", "total_cost_max"}:
                (form, n), = v.items()
                kw["count"] = ({"total_power_max": "power_total", "total_cost_max": "cost_total"}.get(form, form),
                               parse_number(n, where))
            else:
                raise LanguageError(f"{where}: count is 1, \"all\", {{ up_to = N }}, {{ keep = N }} "
                                    f"or {{ total_power_max = N }}")
        elif k in ("power_max", "power_min", "power_eq", "cost_max", "cost_min", "printed_cost_max", "printed_power_min"):
            kw[k] = _int(v, where, k)
        elif k in ("cost_lt", "cost_le", "power_lt"):
            kw[k] = parse_number(v, where)
        elif k == "with_attachment":
            kw[k] = parse_selector(v, where)
        elif k == "keywords":
            kw[k] = tuple([v] if isinstance(v, str) else v)
        elif k == "card_type":
            if v not in CARD_TYPES_SEL:
                raise LanguageError(f"{where}: card_type must be one of {CARD_TYPES_SEL}")
            kw[k] = v
        elif k == "on":
            if v not in ("character", "mission"):
                raise LanguageError(f"{where}: on must be character or mission")
            kw[k] = v
        elif k == "no_tokens":
            kw["has_tokens"] = False if v else None
        else:
            kw[k] = v
    return Selector(**kw)


# ---------------------------------------------------------------------------------------
# numbers and conditions
@dataclass(frozen=True, slots=True)
class Count:
    selector: Selector | None
    missions: bool = False  # count missions holding at least one match instead
    plus: int = 0
    times: int = 1  # "+2 for every …"
    # what is counted: "units" (characters), "missions" (every mission in play), "attachments",
    # "stack" (cards in this character's upgrade stack), "attachment_cost" (the cost of this
    # character's attachments that fit), "power_of" / "cost_of" (the highest among the matches)
    kind: str = "units"


COUNT_KINDS = {"count": "units", "missions_with": "units", "missions": "missions", "attachments": "attachments",
               "stack": "stack", "attachment_cost": "attachment_cost", "power_of": "power_of", "cost_of": "cost_of"}


def parse_number(raw: Any, where: str) -> Any:
    if isinstance(raw, bool):
        raise LanguageError(f"{where}: a number, not a boolean")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        return raw.lower()
    if isinstance(raw, dict):
        plus = raw.get("plus", 0)
        times = raw.get("times", 1)
        forms = [k for k in raw if k in COUNT_KINDS]
        if len(forms) == 1 and not set(raw) - {forms[0], "plus", "times"}:
            form = forms[0]
            v = raw[form]
            sel = parse_selector(v, where) if isinstance(v, dict) else None
            if form in ("count", "missions_with", "attachments", "attachment_cost", "power_of", "cost_of") and sel is None:
                raise LanguageError(f"{where}: {form} takes a selector table")
            return Count(sel, missions=form == "missions_with", plus=_int(plus, where, "plus"),
                         times=_int(times, where, "times"), kind=COUNT_KINDS[form])
    raise LanguageError(f"{where}: a number is N, a remembered value name, or one of "
                        f"{{ {' | '.join(f'{k} = …' for k in COUNT_KINDS)} }} (with optional plus, times)")


VAR_WORDS = {
    "x": "X",
    "spent": "the extra chakra spent",
    "hidden_power": "the Power of the character hidden this way",
    "discarded_cost": "the cost of the discarded card",
    "moved_count": "the number of characters moved this way",
    "defeated_count": "the number of characters defeated this way",
    "discarded_count": "the number of cards discarded this way",
    "upgraded_power": "the Power of the character upgraded over",
    "looked_cost": "the printed cost of the character looked at",
    "defeated_power": "the printed Power of the character defeated this way",
    "defeated_cost": "the cost of the character defeated this way",
    "drew": "the number of cards drawn this way",
    "revealed_cost": "the cost of the revealed card",
    "revealed_count": "the number of cards revealed this way",
    "discarded_power": "the Power of the discarded card",
    "recycled": "the number of cards shuffled this way",
    "each_cost": "that character's cost",
    "removed": "the number of Power tokens removed this way",
}


def render_number(n: Any) -> str:
    if isinstance(n, int):
        return str(n)
    if isinstance(n, str):
        return VAR_WORDS.get(n, n)
    if isinstance(n, Count):
        sel = n.selector
        if n.kind == "missions":
            base = "the number of missions in play"
        elif n.kind == "attachments":
            base = f"the number of {render_attachments(sel, True, bare=True)}"
        elif n.kind == "stack":
            base = "the number of cards in this character's upgrade stack"
        elif n.kind == "attachment_cost":
            base = f"the cost of this character's {sel.render(False, bare=True, place=False)}"
        elif n.kind == "power_of":
            base = f"the Power of {sel.render(False).removeprefix('a ').removeprefix('an ')}".replace("Power of ", "Power of the ", 1) if not sel.pick else f"the Power of {sel.render(False)}"
        elif n.kind == "cost_of":
            base = f"the cost of {sel.render(False)}"
        elif n.missions:
            base = f"the number of missions where you have {sel.render(False, place=False)}"
        else:
            base = f"the number of {sel.render(True, bare=True)}"
        if n.times != 1:
            base = f"{n.times} times {base}"
        return base + (f" plus {n.plus}" if n.plus else "")
    return str(n)


def x_of(n: Any) -> tuple[str, str]:
    """A number as it stands in a sentence, plus the clause that explains X when it is not a constant."""
    if isinstance(n, int) or n == "x":
        return str(n).upper(), ""
    return "X", f", where X is {render_number(n)}"


_COND_FIELDS = {"edge", "exists", "absent", "only", "winning", "fewer_nonhidden_than_enemy", "hand_empty",
                "var_min", "var_max", "var_set",
                # Shinobi Shiren
                "duel", "not_duel", "first_play", "here", "exists_any", "var_unset", "var_ge", "in_hand", "discard_min",
                "attachment", "evaluating", "self_attached"}


@dataclass(frozen=True, slots=True)
class Condition:
    edge: bool | None = None
    exists: Selector | None = None
    absent: Selector | None = None
    only: Selector | None = None  # exactly one character matches
    winning: bool | None = None  # the controller is winning this mission right now
    fewer_nonhidden_than_enemy: bool = False
    hand_empty: bool | None = None
    var_set: str | None = None  # "if you do": a previous step did something
    var_min: tuple[Any, int] | None = None  # (a Number, N): the number is at least N
    var_max: tuple[Any, int] | None = None  # (a Number, N): the number is at most N
    # Shinobi Shiren
    duel: str | None = None  # DUEL <name>: a face-up character of that name is in this mission (either side)
    not_duel: str | None = None  # the opposite (the unmodified line of a DUEL modifier)
    first_play: bool | None = None  # FIRST STRIKE: you have not played a character yet this round
    here: Selector | None = None  # a character the selector picks (anywhere in play) stands in this mission
    exists_any: tuple[Selector, ...] = ()  # at least one of these selectors matches
    var_unset: str | None = None  # "if you did not"
    var_ge: tuple[Any, Any] | None = None  # (a, b): number a is at least number b
    in_hand: Selector | None = None  # you have a card fitting this filter in hand
    discard_min: int | None = None  # your discard pile holds at least N cards
    attachment: Selector | None = None  # an attachment fitting this selector is in play
    evaluating: bool | None = None  # during the Mission evaluation phase
    self_attached: Selector | None = None  # this character has an attachment fitting this filter
    extra: bool = False  # any field above is set (computed)

    def __post_init__(self):
        if not self.extra and (self.duel or self.not_duel or self.first_play is not None or self.here is not None
                               or self.exists_any or self.var_unset or self.var_ge or self.in_hand is not None
                               or self.discard_min is not None or self.attachment is not None
                               or self.evaluating is not None or self.self_attached is not None):
            object.__setattr__(self, "extra", True)

    def render(self) -> str:
        parts = []
        if self.duel:
            parts.append(f"{self.duel.replace('-', ' ').title()} is in this mission")
        if self.not_duel:
            parts.append(f"{self.not_duel.replace('-', ' ').title()} is not in this mission")
        if self.first_play:
            parts.append("it is the first character you play this round")
        if self.here is not None:
            parts.append(f"{self.here.render(False)} is in this mission")
        if self.exists_any:
            parts.append("there is " + " or ".join(s.render(False) for s in self.exists_any))
        if self.var_unset:
            parts.append("you did not")
        if self.var_ge:
            parts.append(f"{render_number(self.var_ge[0])} is at least {render_number(self.var_ge[1])}")
        if self.in_hand is not None:
            parts.append(f"you have {self.in_hand.render(False, place=False)} in hand")
        if self.discard_min:
            parts.append("you have a card in your discard pile" if self.discard_min == 1
                         else f"you have at least {self.discard_min} cards in your discard pile")
        if self.attachment is not None:
            parts.append(f"there is {render_attachments(self.attachment, False)}")
        if self.evaluating:
            parts.append("Power is being determined in the Mission evaluation phase")
        if self.self_attached is not None:
            what = self.self_attached.render(False, bare=True, place=False).replace(" attachment", "")
            parts.append(f"this character has {article(what)} attachment")
        if self.edge is True:
            parts.append("you have the Edge")
        if self.edge is False:
            parts.append("you do not have the Edge")
        if self.exists and self.exists.self_:
            parts.append(self.exists.render(False).replace("this character, if it has no", "this character has no"))
        elif self.exists:
            parts.append(f"there is {self.exists.render(False)}")
        if self.absent:
            parts.append(f"there is no {self.absent.render(False, bare=True)}")
        if self.only:
            parts.append(f"there is only one {self.only.render(False, bare=True)}")
        if self.winning:
            parts.append("you are winning this mission")
        if self.fewer_nonhidden_than_enemy:
            parts.append("you have fewer non-hidden characters than the opponent in this mission")
        if self.hand_empty:
            parts.append("you have no cards in hand")
        if self.var_set:
            parts.append("you did so")
        def there_are(n: Any, bound: str) -> str | None:  # "there are at least 2 enemy characters in this mission"
            if isinstance(n, Count) and n.kind == "units" and not n.missions and n.times == 1 and not n.plus:
                return f"there are {bound} {n.selector.render(True, bare=True)}"
            return None

        if self.var_min and self.var_max and self.var_min == self.var_max:
            parts.append(there_are(self.var_min[0], f"exactly {self.var_min[1]}")
                         or f"{render_number(self.var_min[0])} is exactly {self.var_min[1]}")
        else:
            if self.var_min:
                parts.append(there_are(self.var_min[0], f"at least {self.var_min[1]}")
                             or f"{render_number(self.var_min[0])} is at least {self.var_min[1]}")
            if self.var_max:
                parts.append(there_are(self.var_max[0], f"at most {self.var_max[1]}")
                             or f"{render_number(self.var_max[0])} is at most {self.var_max[1]}")
        return " and ".join(parts)


def parse_condition(raw: Any, where: str) -> Condition:
    if not isinstance(raw, dict):
        raise LanguageError(f"{where}: a condition is a table, e.g. {{ edge = true }}")
    unknown = set(raw) - _COND_FIELDS
    if unknown:
        raise LanguageError(f"{where}: unknown condition field(s) {sorted(unknown)}; allowed {sorted(_COND_FIELDS)}")
    kw: dict[str, Any] = {}
    for k, v in raw.items():
        if k in ("exists", "absent", "only", "here", "in_hand", "attachment", "self_attached"):
            kw[k] = parse_selector(v, where)
        elif k == "exists_any":
            kw[k] = tuple(parse_selector(x, where) for x in v)
        elif k in ("duel", "not_duel"):
            from mythos_cli.catalog.names import name_key

            kw[k] = name_key(v)
        elif k == "var_ge":
            if not isinstance(v, list) or len(v) != 2:
                raise LanguageError(f"{where}: var_ge is [number, number]")
            kw[k] = (parse_number(v[0], where), parse_number(v[1], where))
        elif k == "discard_min":
            kw[k] = _int(v, where, k)
        elif k in ("var_min", "var_max"):
            if not isinstance(v, list) or len(v) != 2:
                raise LanguageError(f"{where}: {k} is [number, N], e.g. [\"x\", 2] or [{{ count = {{…}} }}, 2]")
            kw[k] = (parse_number(v[0], where), _int(v[1], where, k))
        else:
            kw[k] = v
    return Condition(**kw)


# ---------------------------------------------------------------------------------------
# instant steps
@dataclass(frozen=True, slots=True)
class Step:
    verb: str
    arg: Any = None  # the verb's main argument (a selector, a number …)
    target: Selector | None = None
    cond: Condition | None = None
    opts: dict[str, Any] = field(default_factory=dict)
    must: bool = False  # "you must": not optional
    as_: str | None = None  # remember the result under this name

    def render(self, *, lead: bool = False, cond: bool = True) -> str:
        """``lead``: the first step of a line, whose "must" makes the whole line mandatory (the
        line says so once, see ``render_steps``); a later "must" binds once the line is used."""
        text = _with_x(lambda: VERBS[self.verb].render(self))
        if self.cond is not None and self.cond.only is not None and self.cond.only == self.arg:
            text = text.replace(self.arg.render(), "it", 1)  # "if there is only one X, hide it"
        if self.opts.get("may"):
            text = f"you may {text}"
        elif self.must and not lead:
            text = f"you must {text}" if not text.startswith(("the ", "each ")) else f"{text} (this step is mandatory)"
        if cond and self.cond is not None and not self._cond_implied():
            text = f"if {self.cond.render()}, {text}"
        return text

    def _cond_implied(self) -> bool:
        """"If you have a Gaara in hand, discard a Gaara card": the discard says it already."""
        c = self.cond
        return (self.verb == "discard" and c is not None and c.in_hand is not None
                and c.in_hand == self.opts.get("filter") and c == Condition(in_hand=c.in_hand))


def render_steps(steps, *, lead: bool = True) -> str:
    """Steps joined with "; then"; ``lead``: they open a line, so the first one's "must" is the
    line's (see ``mandatory``)."""
    parts: list[str] = []
    for i, s in enumerate(steps):
        prev = steps[i - 1] if i else None
        if (prev is not None and s.cond is not None and s.cond == prev.cond and s.cond.var_set
                and s.cond == Condition(var_set=s.cond.var_set)
                and not (s.opts.get("may") or s.must or prev.opts.get("may"))):
            parts[-1] += " and " + s.render(cond=False)  # "if you did so, gain 1 chakra and draw 1 card"
        else:
            parts.append(s.render(lead=lead and i == 0))
    return "; then ".join(parts)


def mandatory(text: str, must: bool) -> str:
    """A line (or trigger) is mandatory when its first step says must (``interp.line_steps``):
    "Mandatory:" opens it and binds all of it; any other line may be declined as a whole."""
    return f"Mandatory: {text}" if must else text


class VerbSpec:
    """How one verb is written in the card files and how it reads in English."""

    def __init__(self, name: str, arg: str, opts: tuple[str, ...], render):
        self.name, self.arg, self.opts, self._render = name, arg, opts, render

    def render(self, step: Step) -> str:
        return self._render(step)


def _n(step: Step) -> str:
    return render_number(step.arg)


def _tgt(step: Step, default: str = "this character") -> str:
    return step.target.render() if step.target else default


def _sel(step: Step) -> str:
    return step.arg.render()


def _render_play(step: Step) -> str:
    o = step.opts
    if o.get("from") == "deck_top":
        what = step.arg.render(False, bare=True).replace(" in play", "") if isinstance(step.arg, Selector) else "character"
        price = f" paying {x_of(o['discount'])[0]} less" if o.get("discount") else ""
        return (f"look at the top {o.get('look', 3)} cards of your deck, play {article(what)} among them in any mission"
                f"{price}, and discard the other cards{x_of(o['discount'])[1] if o.get('discount') else ''}")
    src = {"hand": "from your hand", "hand_or_hidden": "from your hand or from among your hidden characters",
           "hidden": "from among your hidden characters", "discard": "from your discard pile",
           "deck_top": "from the top cards of your deck"}[o.get("from", "hand_or_hidden")]
    what = step.arg.render(False) if isinstance(step.arg, Selector) else "a character"
    what = what.replace(" in play", "")
    if o.get("many"):
        what = "any number of " + (step.arg.render(True, bare=True) if isinstance(step.arg, Selector) else "characters").replace(" in play", "")
    place = {"anywhere": "in any mission", "this": "in this mission"}[o.get("to", "anywhere")]
    price = ""
    if o.get("discount"):
        price = f", paying {x_of(o['discount'])[0]} less{x_of(o['discount'])[1]}"
    if o.get("upgrade") is False:
        price += " (not as an upgrade)"
    return f"play {what} {src} {place}{price}"


def _render_move(step: Step) -> str:
    to = step.opts.get("to", "other")
    dest = {"other": "to another mission", "this": "to this mission", "any": "to any mission",
            "to_or_from": "to this mission, or from this mission to another one"}[to]
    return f"move {_sel(step)} {dest}"


VERBS: dict[str, VerbSpec] = {}


def _verb(name, arg, opts=(), render=None):
    VERBS[name] = VerbSpec(name, arg, opts, render)


def _render_powerup(s: Step) -> str:
    n, why = x_of(s.arg)
    return (f"POWERUP {n} on {_tgt(s)}" if s.target else f"POWERUP {n}") + why


_verb("powerup", "number", ("target",), _render_powerup)
_verb("remove_tokens", "number_or_all", ("target", "give_self"),
      lambda s: ("remove all Power tokens" if s.arg == "all" else f"remove up to {_n(s)} Power tokens")
      + f" from {_tgt(s)}" + (" and put them on this character" if s.opts.get("give_self") else ""))
_verb("gain_chakra", "number", ("who",), lambda s: ("the opponent gains" if s.opts.get("who") == "opponent" else "gain")
      + f" {x_of(s.arg)[0]} chakra{x_of(s.arg)[1]}")
_verb("steal_chakra", "number", (), lambda s: f"take {_n(s)} chakra from the opponent's pool")
_verb("draw", "number", ("who",), lambda s: {"opponent": "the opponent draws", "each": "each player draws"}.get(s.opts.get("who"), "draw") + f" {x_of(s.arg)[0]} card" + ("s" if s.arg != 1 else "") + x_of(s.arg)[1])
def _render_discard(s: Step) -> str:
    theirs = s.opts.get("who") == "opponent"
    if s.arg == "all" and "filter" not in s.opts:
        what = " their whole hand" if theirs else " your whole hand"
    else:
        what = (f" {_n(s)} card" + ("s" if s.arg != 1 else "") if "filter" not in s.opts
                else " " + s.opts["filter"].render(False, place=False).replace(" character", " card")) + " from hand"
    return (("the opponent discards" if theirs else "discard") + what
            + (" at random" if s.opts.get("random") else "")
            + (", chosen by you" if s.opts.get("chooser") == "you" and theirs else ""))


_verb("discard", "number_or_all", ("who", "chooser", "random", "filter"), _render_discard)
_verb("look_hand", "none", (), lambda s: "look at the opponent's hand")
_verb("look_hidden", "selector", (), lambda s: f"look at {_sel(s)}")
_verb("move", "selector", ("to",), _render_move)
def _render_hit(word: str):
    def render(s: Step) -> str:
        what = _sel(s)
        if "and" in s.opts:  # a second, different character chosen from the same snapshot
            a, b = s.arg, s.opts["and"]
            second = b.render()
            if b.count == 1 and not b.pick and ("any" in (a.side, b.side) or a.side == b.side):
                second = "another " + second.split(" ", 1)[1] if second.startswith(("a ", "an ")) else second
            if a.where == b.where == "this" and second.endswith(" in this mission"):
                what = a.render(place=False)  # "X and Y in this mission"
            what += f" and {second}"
        if s.opts.get("chooser") == "opponent":  # their own characters, seen from them
            return f"the opponent must choose and {word} {what.replace('enemy characters', 'their own characters')}"
        return f"{word} {what}"
    return render


_verb("hide", "selector", ("and", "chooser"), _render_hit("hide"))
_verb("defeat", "selector", ("and", "chooser", "reveal"),
      lambda s: ("reveal and " if s.opts.get("reveal") else "") + _render_hit("defeat")(s))
_verb("take_control", "selector", ("move", "pay"),
      lambda s: f"take control of {_sel(s)}" + (", paying chakra equal to its Power" if s.opts.get("pay") == "power" else ""))
_verb("return_to_hand", "selector", (), lambda s: f"return {_sel(s)} to its owner's hand")
_verb("play", "selector_or_none", ("from", "to", "discount", "look", "upgrade", "many"),
      _render_play)
_verb("place_hidden", "none", ("from", "to"),
      # (interp.v_place_hidden: only a character card goes; it is yours to control)
      lambda s: {"hand": "put a character card from your hand", "deck_top": "put the top card of your deck, if it is a character,",
                 "opponent_deck_top": "put the top card of the opponent's deck, if it is a character,"}[s.opts.get("from", "hand")]
      + {"this": " into this mission", "anywhere": " into any mission",
         "that": " into that same mission"}[s.opts.get("to", "anywhere")] + " as a hidden character"
      + (" under your control" if s.opts.get("from") == "opponent_deck_top" else ""))
_verb("gain_edge", "none", ("lock",), lambda s: "gain the Edge" + ("; you cannot lose it this round" if s.opts.get("lock") else ""))
_verb("gain_points", "number", (), lambda s: f"gain {_n(s)} mission point" + ("s" if s.arg != 1 else ""))
_verb("spend_chakra", "none", (), lambda s: "spend any amount of extra chakra (X)")
_verb("discard_top", "none", ("who",), lambda s: "discard the top card of " + ("the opponent's" if s.opts.get("who") == "opponent" else "your") + " deck")
def _render_search_top(s: Step) -> str:
    what = s.opts['filter'].render(False, bare=True, place=False)
    if s.opts.get("take"):
        return (f"look at the top {_n(s)} cards of your deck, choose {article(what)} among them, reveal it and put it into "
                f"your hand; put the other cards at the bottom of your deck in random order")
    return f"look at the top {_n(s)} cards of your deck, draw every {what} among them and put the rest back"


_verb("search_top", "number", ("filter", "take", "rest"), _render_search_top)
_verb("put_on_deck", "number", (), lambda s: f"put {_n(s)} card from your hand on top of your deck")
_verb("repeat", "none", ("line",), lambda s: f"apply the {s.opts.get('line', 'main').upper()} effect again")


def _render_copy(s: Step) -> str:
    kind = "a non-UPGRADE instant effect" if s.opts.get("lines") == "non_upgrade" else "an instant effect"
    src = _sel(s) if isinstance(s.arg, Selector) else "the card discarded this way"
    return f"copy {kind} of {src} (resolve it as this character's own)"


_verb("copy", "selector_or_var", ("lines",), _render_copy)
_verb("retrieve", "selector_or_none", ("topmost",),
      lambda s: ("put the topmost " + (s.arg.render(False, bare=True) if s.arg else "character").replace(" in play", "")
                 if s.opts.get("topmost") else
                 f"put {(s.arg.render(False).replace(' in play', '') if s.arg else 'a character')}")
      + " from your discard pile into your hand")
_verb("strip_top", "selector", (), lambda s: f"discard the top card of {_sel(s)} (the card beneath becomes the character)")
_verb("choose_mission", "none", (), lambda s: "choose a mission")
_verb("reveal_or_defeat", "selector", ("more",),
      lambda s: f"choose {_sel(s)}: its controller must either play it paying {s.opts.get('more', 0)} more, or defeat it")
_verb("special", "name", (), lambda s: _special_text(s.arg))


# ---- Shinobi Shiren verbs --------------------------------------------------------------
def _body(s: Step) -> str:
    return render_steps(s.opts.get("do", ()), lead=False)


def _deck(s: Step) -> str:
    return "the opponent's deck" if s.opts.get("who") == "opponent" else "your deck"


def _card_what(sel: Selector | None, default: str = "card") -> str:
    if sel is None:
        return default
    return sel.render(False, bare=True).replace(" in play", "")


_verb("declare", "number", (), lambda s: f"declare a number X (from 1 to {_n(s)})")
# "play this character paying N less" on an instant line (FIRST STRIKE): a price the rules
# read when the card is played, not a step that resolves afterwards
_verb("cheaper", "number", (), lambda s: f"play this character paying {_n(s)} less")
_verb("reveal_top", "none", ("who",), lambda s: f"reveal the top card of {_deck(s)}")
_verb("look_top", "none", ("who", "bottom"),
      lambda s: f"look at the top card of {_deck(s)}" + ("; you may put it at the bottom of that deck" if s.opts.get("bottom") else ""))
_verb("dig", "selector", (),
      lambda s: f"reveal cards from the top of your deck until you reveal a {_card_what(s.arg, 'character')}, draw it, "
                f"then shuffle the other revealed cards into your deck")
_verb("search_deck", "selector", ("take",),
      lambda s: f"search your deck for up to {s.opts.get('take', 1)} {_card_what(s.arg, 'character')}"
                f"{'s' if s.opts.get('take', 1) != 1 else ''}, reveal and draw "
                f"{'them' if s.opts.get('take', 1) != 1 else 'it'}, then shuffle your deck")
_verb("pay_chakra", "number", (), lambda s: f"pay {_n(s)} chakra")
_verb("reveal_hand", "number_or_all", ("who", "random", "filter"),
      lambda s: ("the opponent must reveal " if s.opts.get("who") == "opponent" else "reveal ")
      + ("any number of " + _card_what(s.opts.get("filter")).replace("character", "characters") if s.arg == "all"
         else f"{'a random card' if s.opts.get('random') else 'a card'}")
      + " from " + ("their" if s.opts.get("who") == "opponent" else "your") + " hand" + ("" if s.arg == "all" else ", if able"))
_verb("for_each", "selector", ("do",), lambda s: f"for each {s.arg.render(False, bare=True)}: {_body(s)}")
_verb("for_each_mission", "selector", ("do",),  # the body's "this mission" is each of those missions
      lambda s: f"in every mission where there is {s.arg.render(False, place=False)}: "
                + _body(s).replace("this mission", "that mission"))
_verb("times", "number", ("do",), lambda s: f"repeat {x_of(s.arg)[0]} times{x_of(s.arg)[1]}: {_body(s)}")
_verb("one_of", "branches", (),
      lambda s: "choose one: " + "; or ".join(render_steps(b, lead=False) for b in s.arg))
_verb("attach", "selector_or_none", ("from", "to", "discount", "hidden"),
      lambda s: f"play {render_attachments(s.arg, False) if s.arg is not None else 'an attachment'}".replace(" in play", "")
      + {"deck": " from your deck", "hand": " from your hand"}.get(s.opts.get("from"), " from your hand or one of your face-down ones")
      + {"this": " in this mission", "anywhere": ""}[s.opts.get("to", "anywhere")]
      + (f", paying {render_number(s.opts['discount'])} less" if s.opts.get("discount") else "")
      + (", then shuffle your deck" if s.opts.get("from") == "deck" else ""))
_verb("attach_self", "selector", ("power",),
      lambda s: f"attach this character to {_sel(s)}: while attached it is an attachment giving "
                f"{'+' if s.opts.get('power', 0) >= 0 else '−'}{abs(s.opts.get('power', 0))} Power instead of a character")
_verb("discard_attachment", "selector", (), lambda s: f"discard {render_attachments(s.arg)}")
_verb("move_attachment", "selector_or_var", ("onto", "ignore"),
      lambda s: f"move {'this attachment' if s.arg == 'this' else render_attachments(s.arg)}"
      + (" to this character" if s.opts.get("onto") == "self" else f" to {s.opts['onto'].render(False)}" if "onto" in s.opts
         else " to another character")
      + ((", ignoring their ATTACH conditions" if isinstance(s.arg, Selector) and not s.arg.count == 1
          else ", ignoring its ATTACH condition") if s.opts.get("ignore") else ""))
_verb("take_back", "selector", (), lambda s: f"take back control of {_sel(s)}")
_verb("split_bottom", "none", (),
      lambda s: "move the card at the bottom of this character's upgrade stack to another mission, as a character of its own")
_verb("discard_from_stack", "selector", ("filter",),
      lambda s: f"discard every {_card_what(s.opts.get('filter'), 'card').replace(' character', '')} card from the stack of {_sel(s)}")
_verb("recycle", "number", (), lambda s: f"shuffle up to {_n(s)} cards from the top of your discard pile into your deck")
_verb("activate", "selector", ("line",),
      lambda s: f"{_sel(s)} applies one of its instant {s.opts.get('line', 'main').upper().replace('_', ' ')} effects"
      + (", even if the character its DUEL names is not in its mission" if s.opts.get("line", "main") == "duel"
         else ", ignoring that effect's requirements"))


def _special_text(name: str) -> str:
    return SPECIALS.get(name, f"(unknown special {name})")


# Escape hatches: effects the language cannot say yet. Each name maps to the English the tool
# prints; ``mythos_cli/engine/specials.py`` implements it (one documented, tested function per
# name) and ``mythos cards coverage`` lists every card that uses one. Grow the language instead
# when a pattern repeats.
SPECIALS: dict[str, str] = {}

_GENERIC_KEYS = {"target", "if", "must", "as", "may"}
_STEP_KEYS = _GENERIC_KEYS | {"to", "who", "chooser", "random", "from", "discount", "hidden", "give_self", "lock", "line",
                              "filter", "look", "move", "and", "lines", "more",
                              "do", "take", "rest", "bottom", "pay", "upgrade", "many", "reveal", "onto", "ignore",
                              "power", "topmost"}


def parse_step(raw: dict, where: str) -> Step:
    verbs = [k for k in raw if k in VERBS]
    if len(verbs) != 1:
        known = ", ".join(sorted(VERBS))
        raise LanguageError(f"{where}: a step needs exactly one verb (one of: {known}); got {sorted(raw)}")
    verb = verbs[0]
    spec = VERBS[verb]
    unknown = set(raw) - {verb} - _GENERIC_KEYS - set(spec.opts)
    if unknown:
        allowed = sorted(_GENERIC_KEYS | set(spec.opts))
        raise LanguageError(f"{where}: unknown field(s) {sorted(unknown)} on {verb}; allowed: {', '.join(allowed)}")
    value = raw[verb]
    if spec.arg == "number":
        arg = parse_number(value, where)
    elif spec.arg == "number_or_all":
        arg = "all" if value == "all" else parse_number(value, where)
    elif spec.arg == "selector":
        arg = parse_selector(value, where)
    elif spec.arg == "selector_or_none":
        arg = parse_selector(value, where) if isinstance(value, dict) else None
    elif spec.arg == "selector_or_var":  # a selector, or the name of a remembered card
        arg = parse_selector(value, where) if isinstance(value, dict) else str(value)
    elif spec.arg == "branches":  # one_of: a list of step lists
        if not isinstance(value, list) or len(value) < 2 or not all(isinstance(b, list) and b for b in value):
            raise LanguageError(f"{where}: one_of is a list of at least two step lists")
        arg = tuple(tuple(parse_step(s, f"{where}, option {i + 1}") for s in b) for i, b in enumerate(value))
    elif spec.arg == "name":
        if value not in SPECIALS:
            raise LanguageError(f"{where}: unknown special {value!r}; known: {', '.join(sorted(SPECIALS)) or 'none'}")
        arg = value
    else:
        arg = None
    opts = {k: v for k, v in raw.items() if k in _STEP_KEYS - {"target", "if", "must", "as"}}
    if "and" in opts:
        opts["and"] = parse_selector(opts["and"], where)
    if opts.get("lines") not in (None, "any", "non_upgrade"):
        raise LanguageError(f"{where}: lines must be any or non_upgrade")
    if opts.get("chooser") not in (None, "you", "opponent"):
        raise LanguageError(f"{where}: chooser must be you or opponent")
    if "more" in opts:
        opts["more"] = _int(opts["more"], where, "more")
    if "discount" in opts:
        opts["discount"] = parse_number(opts["discount"], where)
    if "filter" in opts:
        opts["filter"] = parse_selector(opts["filter"], where)
    if "do" in opts:
        if not isinstance(opts["do"], list) or not opts["do"]:
            raise LanguageError(f"{where}: do is a non-empty list of steps")
        opts["do"] = tuple(parse_step(s, f"{where}, do {i + 1}") for i, s in enumerate(opts["do"]))
    if "onto" in opts and opts["onto"] != "self":
        opts["onto"] = parse_selector(opts["onto"], where)
    if opts.get("to") not in (None, "other", "this", "any", "anywhere", "to_or_from", "that"):
        raise LanguageError(f"{where}: to must be other, this, any, anywhere, to_or_from or that")
    if opts.get("pay") not in (None, "power"):
        raise LanguageError(f"{where}: pay must be power")
    if opts.get("from") not in (None, "hand", "hand_or_hidden", "hidden", "discard", "deck_top", "opponent_deck_top",
                                "deck"):
        raise LanguageError(f"{where}: from must be hand, hand_or_hidden, hidden, discard, deck_top, opponent_deck_top "
                            f"or deck")
    return Step(
        verb=verb,
        arg=arg,
        target=parse_selector(raw["target"], where) if "target" in raw else None,
        cond=parse_condition(raw["if"], where) if "if" in raw else None,
        opts=opts,
        must=bool(raw.get("must", False)),
        as_=raw.get("as"),
    )


# ---------------------------------------------------------------------------------------
# statics, triggers and modifiers (continuous lines)
STATICS = {
    "power": "characters get +N (or −N) Power",
    "power_zero": "characters have their Power set to 0",
    "chakra": "CHAKRA +N in the Start phase",
    "cost": "playing characters costs N more or less",
    "reveal_cost": "revealing this character costs N less",
    "no_play_hidden": "the opponent cannot play characters hidden here",
    "no_move_from": "characters cannot move from this mission",
    "play_only_winning": "this character can only be played where you are winning",
    "immune": "characters cannot be hidden or defeated by enemy effects",
    "defeat_to_hand": "defeated friendly characters go to hand instead of the discard pile",
    "defeat_becomes_hide": "if this character would be defeated (or moved) it is hidden instead",
    "keep_tokens": "this character keeps its Power tokens at the end of the round",
    "upgrade_over": "this character can be played as an upgrade over other characters",
    "play_cost": "playing this character (face-up, as an upgrade or from hidden) costs N less",
    "sacrifice": "this character may be defeated instead of a friendly character an enemy effect would hide or defeat",
    "tax": "an enemy effect that affects this character costs its controller N chakra, if able",
    # Shinobi Shiren
    "powerup_bonus": "POWERUPs on these characters are increased by N",
    "no_tokens": "this character cannot receive Power tokens",
    "blank": "this character's effect text is blank",
    "many_attachments": "this character may carry more than one friendly attachment, ignoring their requirements",
    "no_attachments": "this character cannot receive other attachments",
    "attachment_power": "the Power of some attachments on this character is multiplied",
    "see_hidden": "you may look at these hidden characters at any time",
    "mission_points": "this mission is worth N more points",
    "side_power": "you have +N total Power in this mission",
    "score_twice": "this mission is scored twice",
    "grant_line": "characters here have an extra effect line",
    "ambush_on_play": "characters played face-up here from hand also apply their AMBUSH effects",
    "reveal_tax": "the opponent pays N more to reveal characters in this mission",
    "phantom": "counts as an extra friendly character of a keyword here, for that keyword's cards",
}
TRIGGERS = ("defeated", "played", "end_of_round", "lost_mission", "moved",
            "start_of_round", "attached", "passed", "before_evaluation")
_STATIC_KEYS = {"static", "n", "target", "if", "min", "each", "both", "events", "from", "over", "per", "when",
                "anywhere", "attachment", "times", "filter", "timing", "do", "keyword"}


@dataclass(frozen=True, slots=True)
class Static:
    kind: str
    n: Any = 0
    target: Selector | None = None
    cond: Condition | None = None
    opts: dict[str, Any] = field(default_factory=dict)

    def render(self) -> str:
        return _with_x(self._text)

    def _text(self) -> str:
        o, t = self.opts, self.target
        k = self.kind
        who = t.render() if t else "this character"
        if o.get("attachment") and t is None:
            who = "this attachment"
        # "cannot" statics name their targets without "all" ("All enemy characters cannot …"
        # could mean not all of them)
        who_not = t.render(True, bare=True) if t is not None and t.is_all else who
        if k == "power":
            n = self.n
            if "per" in o:
                text = f"{who} has {'+' if n > 0 else '−'}{abs(n)} Power for each {o['per'].render(False, bare=True)}"
            else:
                sign = ("+" if n > 0 else "−") + str(abs(n)) if isinstance(n, int) else "+X"
                text = f"{who} {'has' if not (t and t.is_all) else 'have'} {sign} Power" + x_of(n)[1]
        elif k == "power_zero":
            text = f"{who} loses all Power tokens and has its Power set to 0"
        elif k == "chakra":
            n, why = x_of(self.n)
            text = f"CHAKRA +{n}" + (" for both players" if o.get("both") else "") + why
            if o.get("both") == "losing":
                text = f"CHAKRA +{render_number(self.n)} for the player losing this mission"
        elif k == "cost":
            sign = "less" if isinstance(self.n, int) and self.n < 0 else "more"
            text = f"{t.render(True, bare=True, place=False)} cost {abs(self.n) if isinstance(self.n, int) else render_number(self.n)} {sign} to play in this mission"
            if o.get("anywhere"):
                text = text.replace("to play in this mission", "to play in any mission")
            if o.get("min"):
                text += f" (minimum {o['min']})"
        elif k == "reveal_cost":
            text = f"this character can be played from hidden paying {abs(self.n)} less"
        elif k == "no_play_hidden":
            text = "the opponent cannot play characters hidden in this mission"
        elif k == "no_move_from":
            text = (f"{t.render(True, bare=True, place=False)} cannot be moved out of this mission"
                    if t is not None and t.is_all and t.where == "this" else f"{who_not} cannot be moved from this mission")
        elif k == "play_only_winning":
            text = "this character can only be played in a mission where you are winning"
        elif k == "immune":
            events = o.get("events", ["hide", "defeat"])
            text = f"{who_not} cannot be {' or '.join('hidden' if e == 'hide' else 'defeated' if e == 'defeat' else 'moved' for e in events)} by enemy effects"
        elif k == "defeat_to_hand":
            text = "defeated friendly characters go to your hand instead of your discard pile"
        elif k == "defeat_becomes_hide":
            events = o.get("events", ["defeat"])
            src = " by enemy effects" if o.get("from") == "enemy" else ""
            text = f"if this character would be {' or '.join('moved' if e == 'move' else 'defeated' for e in events)}{src}, hide it instead"
        elif k == "keep_tokens":
            text = "this character does not lose its Power tokens at the end of the round"
        elif k == "play_cost":
            text = f"this character costs {abs(self.n) if isinstance(self.n, int) else 'X'} less to play" + x_of(self.n)[1]
            if self.cond is not None and "in this mission" in self.cond.render():
                return f"{text} in a mission where {self.cond.render().replace(' in this mission', '')}"
        elif k == "sacrifice":
            events = o.get("events", ["hide", "defeat"])
            verbs = " or ".join("hidden" if e == "hide" else "defeated" for e in events)
            text = f"if {who} would be {verbs} by an enemy effect, you may defeat this character instead"
        elif k == "tax":
            text = f"when an enemy effect affects this character, the opponent must pay {render_number(self.n)} chakra, if able"
        elif k == "upgrade_over":
            text = f"this character can be played as an upgrade over any {o['over'].render(False, bare=True, place=False)}"
        elif k == "powerup_bonus":
            text = f"POWERUPs on {t.render(True, bare=True) if t else 'this character'} give {render_number(self.n)} more Power token"
        elif k == "no_tokens":
            text = f"{who_not} cannot receive Power tokens"
        elif k == "blank":
            text = "this character's effect text is blank (its own lines do nothing)"
        elif k == "many_attachments":
            # rules.takes_any_attachment: any friendly attachment may go on it, whatever its ATTACH condition
            text = "this character can carry more than one friendly attachment, and any friendly attachment may be attached to it, ignoring its ATTACH condition"
        elif k == "no_attachments":
            text = "this character cannot receive other attachments"
        elif k == "attachment_power":
            what = o["filter"].render(False, bare=True, place=False) if "filter" in o else "attachment"
            times = o.get("times", 2)
            text = f"the Power of each {what} on this character counts {'twice' if times == 2 else f'{times} times'}"
        elif k == "see_hidden":
            text = f"you can look at {t.render(True, bare=True) if t else 'this character'} at any time"
        elif k == "mission_points":
            text = f"this mission is worth {render_number(self.n)} more mission point" + ("s" if self.n != 1 else "") + " for both players"
        elif k == "side_power":
            text = f"you have +{render_number(self.n)} total Power in this mission"
        elif k == "score_twice":
            text = "this mission is scored twice (its SCORE effects apply again too)"
        elif k == "grant_line":
            body = render_steps(o.get("do", ()))
            who_all = t.render(True, bare=True) if t else "this character"
            text = f"{who_all} have, after all their other effects, \"{o.get('timing', 'main').upper()}: {body}\""
        elif k == "ambush_on_play":
            text = "when a non-hidden character is played in this mission from hand, its AMBUSH effects apply too"
        elif k == "reveal_tax":
            text = f"the opponent pays {render_number(self.n)} more chakra to reveal characters in this mission"
        elif k == "phantom":
            text = (f"for your {o['keyword']} cards' effects, you have one more friendly {o['keyword']} character "
                    f"in this mission (its cost and Power are this attachment's)")
        else:  # pragma: no cover - parse_static refuses unknown kinds
            text = STATICS[k]
        if self.cond is not None:
            text = f"if {self.cond.render()}, {text}"
        return text


def parse_static(raw: dict, where: str) -> Static:
    kind = raw["static"]
    if kind not in STATICS:
        raise LanguageError(f"{where}: unknown static {kind!r}; known: {', '.join(STATICS)}")
    unknown = set(raw) - _STATIC_KEYS
    if unknown:
        raise LanguageError(f"{where}: unknown field(s) {sorted(unknown)} on static {kind}")
    opts = {k: v for k, v in raw.items() if k in ("min", "both", "events", "from", "when", "anywhere", "attachment",
                                                  "times", "timing", "keyword")}
    if "over" in raw:
        opts["over"] = parse_selector(raw["over"], where)
    if "per" in raw:
        opts["per"] = parse_selector(raw["per"], where)
    if "filter" in raw:
        opts["filter"] = parse_selector(raw["filter"], where)
    if "do" in raw:
        opts["do"] = tuple(parse_step(s, f"{where}, do {i + 1}") for i, s in enumerate(raw["do"]))
    if kind == "grant_line" and ("do" not in opts or opts.get("timing") not in ("main", "ambush", "upgrade")):
        raise LanguageError(f"{where}: grant_line needs timing (main, ambush or upgrade) and do = [steps]")
    if kind == "phantom" and not isinstance(opts.get("keyword"), str):
        raise LanguageError(f"{where}: phantom needs keyword = \"…\"")
    return Static(
        kind=kind,
        n=parse_number(raw.get("n", 0), where),
        target=parse_selector(raw["target"], where) if "target" in raw else None,
        cond=parse_condition(raw["if"], where) if "if" in raw else None,
        opts=opts,
    )


@dataclass(frozen=True, slots=True)
class Trigger:
    on: str
    who: Selector | None
    steps: tuple[Step, ...]
    must: bool = False
    opts: dict[str, Any] = field(default_factory=dict)
    cond: Condition | None = None  # checked when the trigger would fire (DUEL lines)

    def render(self) -> str:
        body = render_steps(self.steps)
        # a character that is played, defeated or moved is in play: only a mission is worth saying
        who = self.who.render(False, place=self.who.where != "in_play") if self.who else "this character"
        if self.on == "moved" and self.who is not None and self.opts.get("by") == "you":
            head = f"whenever you move one or more {self.who.render(True, bare=True, place=self.who.where != 'in_play')} with one of your effects"
        elif self.on == "moved" and self.opts.get("by") == "you":
            head = f"after you move {who} with one of your effects"
        elif self.on == "defeated" and self.opts.get("by") == "you":
            head = f"when you defeat {who}"
        elif self.on == "defeated":
            head = f"when {who} is defeated"
        elif self.on == "start_of_round":
            head = "at the start of each round"
        elif self.on == "attached":
            what = self.opts["filter"].render(False, bare=True, place=False) if "filter" in self.opts else "attachment"
            what = what.replace(" character", "").replace(" attachment", "") + " attachment"
            head = f"when you attach {article(what)} to {who}"
        elif self.on == "passed":
            head = "when you pass"
        elif self.on == "before_evaluation":
            head = "before Power is determined in the Mission evaluation phase"
        elif self.on == "played" and self.who is not None:
            where = {"this": " in this mission", "other_missions": " in another mission"}.get(self.who.where, "")
            if self.who.unique_name:  # "… is played in this mission and no other … there has its name"
                who = replace(self.who, unique_name=False).render(False, place=False)
                head = (f"when {who} is played{where} and no other non-hidden character "
                        f"{'there' if where else 'in its mission'} has its name")
            else:
                head = f"when {self.who.render(False, place=False)} is played{where}"
        elif self.on == "played":
            head = f"when {who} is played"
        elif self.on == "end_of_round":
            head = "at the end of the round"
        elif self.on == "lost_mission":
            head = "if you lose this mission in the Mission evaluation phase"
        else:
            head = f"after {who} moves"
        if self.on == "played":
            body = body.replace("the character played this way", "that character")
        return mandatory(f"{head}, {body}", self.must or self.steps[0].must)


def parse_trigger(raw: dict, where: str) -> Trigger:
    on = raw["on"]
    if on not in TRIGGERS:
        raise LanguageError(f"{where}: unknown trigger {on!r}; known: {', '.join(TRIGGERS)}")
    unknown = set(raw) - {"on", "who", "do", "must", "if", "by", "filter"}
    if unknown:
        raise LanguageError(f"{where}: unknown field(s) {sorted(unknown)} on trigger {on}")
    steps = raw.get("do")
    if not isinstance(steps, list) or not steps:
        raise LanguageError(f"{where}: a trigger needs do = [ …steps… ]")
    parsed = tuple(parse_step(s, f"{where}, do {i + 1}") for i, s in enumerate(steps))
    if "if" in raw:
        cond = parse_condition(raw["if"], where)
        parsed = (Step(parsed[0].verb, parsed[0].arg, parsed[0].target, cond, parsed[0].opts, parsed[0].must, parsed[0].as_),) + parsed[1:]
    opts = {}
    if "by" in raw:
        if on not in ("moved", "defeated") or raw["by"] != "you":
            raise LanguageError(f"{where}: by = \"you\" is only for the moved and defeated triggers")
        opts["by"] = "you"
    if "filter" in raw:
        if on != "attached":
            raise LanguageError(f"{where}: filter is only for the attached trigger")
        opts["filter"] = parse_selector(raw["filter"], where)
    return Trigger(on=on, who=parse_selector(raw["who"], where) if "who" in raw else None, steps=parsed,
                   must=bool(raw.get("must", False)), opts=opts)


@dataclass(frozen=True, slots=True)
class Modifier:
    mode: str  # "instead" (replace the modified line), "also" (append to it) or "as_main" (it applies on every play)
    steps: tuple[Step, ...]

    def render(self, modifies: str) -> str:
        body = render_steps(self.steps, lead=self.mode == "instead")
        label = modifies.upper().replace("_", " ")
        if self.mode == "as_main":
            return f"the {label} effect becomes a MAIN effect (it applies whenever this character is played)"
        if self.mode == "instead":  # the new body is the line: its first "must" binds all of it
            return f"{label} effect instead{' (mandatory)' if self.steps[0].must else ''}: {body}"
        return f"{label} effect, in addition: {body}"


@dataclass(frozen=True, slots=True)
class Encoding:
    """The parsed ``do`` of one effect line."""

    steps: tuple[Step, ...] = ()
    statics: tuple[Static, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    modifier: Modifier | None = None
    must: bool = False
    # ATTACH lines (kind "condition"): where the attachment may go — "mission", or character
    # selectors (any one of them fits) — and what it grants its host ("group"/"keyword", name)
    host: Any = None
    grants: tuple[tuple[str, str], ...] = ()

    def render(self, modifies: str | None = None, source: str | None = None) -> str:
        """``source``: "attachment" for the lines of an attachment played on a character, whose
        "this character" is its host (it reads "the attached character")."""
        parts = []
        if self.host is not None:
            if self.host == "mission":
                parts.append("attach to a mission")
            else:
                parts.append("attach to " + " or ".join(s.render(False, place=s.where != "in_play") for s in self.host))
            for kind, value in self.grants:
                parts.append(f"this character is also considered {article(value)} character")
        if self.modifier is not None:
            parts.append(self.modifier.render(modifies or "main"))
        if self.steps:
            parts.append(mandatory(render_steps(self.steps), self.must or self.steps[0].must))
        parts.extend(s.render() for s in self.statics)
        parts.extend(t.render() for t in self.triggers)
        text = ". ".join(p[:1].upper() + p[1:] for p in parts if p)
        if source == "attachment":
            text = text.replace("This character", "The attached character").replace("this character", "the attached character")
        return text + "." if text else text


def parse_encoding(raw: Any, where: str, kind: str) -> Encoding:
    """Parse and validate one line's ``do``; ``kind`` is the line's kind (instant, continuous …)."""
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise LanguageError(f"{where}: do must be a non-empty list of clauses")
    steps, statics, triggers = [], [], []
    modifier = None
    host, grants = None, []
    for i, clause in enumerate(raw):
        here = f"{where}, clause {i + 1}"
        if not isinstance(clause, dict):
            raise LanguageError(f"{here}: a clause is a table")
        if kind == "condition":
            if set(clause) == {"attach_to"}:
                v = clause["attach_to"]
                host = "mission" if v == "mission" else tuple(parse_selector(x, here) for x in ([v] if isinstance(v, dict) else v))
            elif set(clause) == {"grant"} and isinstance(clause["grant"], dict) and len(clause["grant"]) == 1 \
                    and set(clause["grant"]) <= {"group", "keyword"}:
                grants.append(next(iter(clause["grant"].items())))
            else:
                raise LanguageError(f"{here}: an ATTACH line holds {{ attach_to = … }} and {{ grant = {{ group|keyword = … }} }}")
            continue
        if "static" in clause:
            statics.append(parse_static(clause, here))
        elif "on" in clause:
            triggers.append(parse_trigger(clause, here))
        elif "as_main" in clause:
            if set(clause) != {"as_main"} or clause["as_main"] is not True:
                raise LanguageError(f"{here}: write {{ as_main = true }}")
            modifier = Modifier("as_main", ())
        elif "instead" in clause or "also" in clause:
            mode = "instead" if "instead" in clause else "also"
            body = clause[mode]
            if set(clause) - {mode}:
                raise LanguageError(f"{here}: a modifier has only 'instead' or 'also'")
            modifier = Modifier(mode, tuple(parse_step(s, f"{here}, step {j + 1}") for j, s in enumerate(body)))
        else:
            steps.append(parse_step(clause, here))
    if kind == "continuous" and steps:
        raise LanguageError(f"{where}: a continuous line holds statics and triggers, not instant steps")
    if kind == "instant" and (statics or triggers) and kind != "continuous":
        # Some instant lines carry a lasting effect for the round (e.g. gain the Edge and keep it);
        # statics on instant lines are refused to keep the two kinds honest.
        raise LanguageError(f"{where}: an instant line holds steps only")
    if kind == "modifier" and modifier is None:
        raise LanguageError(f"{where}: a modifier line needs {{ instead = [...] }} or {{ also = [...] }}")
    if kind == "condition":
        if host is None:
            raise LanguageError(f"{where}: an ATTACH line needs {{ attach_to = \"mission\" }} or {{ attach_to = {{ …selector… }} }}")
        return Encoding(host=host, grants=tuple(grants))
    return Encoding(tuple(steps), tuple(statics), tuple(triggers), modifier)


def render(encoding: Encoding, modifies: str | None = None, source: str | None = None) -> str:
    return encoding.render(modifies, source)
