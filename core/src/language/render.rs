//! The English of the effect language: every node renders itself, so the description a player
//! reads is derived from the very trees the engine runs.
//!
//! It began as a port of the Python renderer (the `render` methods of `catalog/language.py`, now
//! retired): `core/tests/render.rs` holds it, byte for byte, to the golden renderings that
//! renderer wrote for every line of the catalog (`core/tests/renderings.tsv`, `selectors.tsv`).
//!
//! X notes: a step or a static collects what X stands for in its selectors and says
//! ", where X is …" once at its end; a selector rendered outside one says "(X: …)" right after
//! itself. A renderer ([`English`]) carries them, one renderer per description.

use crate::cards::{Card, CardType, Catalog, EffectLine, Kind, Timing};
use crate::language::{
    ANY, Arg, Both, CardTypeSel, Condition, Count, CountForm, CountKind, Dest, Encoding, Event, From, Grant, Host,
    ModMode, Modifier, Number, On, Onto, Pick, Selector, Side, Static, StaticKind, Step, Trigger, TriggerOn, Verb,
    Where, Who,
};
use crate::names::group_text;

/// What an effect line says before it is encoded.
pub const NOT_ENCODED: &str = "(not yet encoded: the engine cannot play this line)";

/// The tool's wording of one effect line of `card` (Python's `describe(line, card)`): an
/// attachment played on a character calls its host "the attached character".
pub fn describe(cat: &Catalog, card: &Card, line: &EffectLine) -> String {
    let Some(enc) = &line.encoding else {
        return match (line.kind, line.modifies) {
            (Kind::Modifier, Some(m)) => format!("changes the {} line {NOT_ENCODED}", m.label()),
            _ => NOT_ENCODED.to_string(),
        };
    };
    let on_host = card.ctype == CardType::Attachment && card.attach_to.as_deref() == Some("character");
    English::of(cat, card).encoding(enc, line.modifies, on_host)
}

/// One string per effect line of `card`, in card order.
pub fn describe_card(cat: &Catalog, card: &Card) -> Vec<String> {
    card.effects.iter().map(|l| describe(cat, card, l)).collect()
}

/// A selector in English ("an enemy character in this mission with Power 3 or less"), as a
/// target prompt says it. `plural`: "all … characters" (None: as its count says); `bare`: no
/// determiner.
pub fn selector(cat: &Catalog, sel: &Selector, plural: Option<bool>, bare: bool) -> String {
    English::new(cat).selector(sel, plural, bare, true)
}

/// [`selector`], leaving out where the cards stand when `place` is false (the caller says it).
pub fn selector_placed(cat: &Catalog, sel: &Selector, plural: Option<bool>, bare: bool, place: bool) -> String {
    English::new(cat).selector(sel, plural, bare, place)
}

/// A target prompt of `card`'s effect (None: a mission's, or the card is not known): [`selector`],
/// said as the card's own lines say it.
pub fn prompt(cat: &Catalog, card: Option<&Card>, sel: &Selector) -> String {
    selector_of(cat, card, sel, None, false, true)
}

/// [`selector_placed`] as a selector of `card`'s own effect says it: where it can pick the card
/// itself, its side reads "of yours", not "friendly" (see [`English::includes_me`]).
pub fn selector_of(
    cat: &Catalog,
    card: Option<&Card>,
    sel: &Selector,
    plural: Option<bool>,
    bare: bool,
    place: bool,
) -> String {
    let mut en = English::new(cat);
    en.me = card;
    en.selector(sel, plural, bare, place)
}

/// `words` with "a" or "an" before them.
pub fn article(words: &str) -> String {
    let w = words.to_lowercase();
    // (an empty word takes "an", as in the Python original: `"" in "aeiou"` holds)
    let vowel = w.chars().next().is_none_or(|c| "aeiou".contains(c));
    let sounds_like_you = ["uni", "one", "use", "eu"].iter().any(|p| w.starts_with(p));
    if vowel && !sounds_like_you { format!("an {words}") } else { format!("a {words}") }
}

/// Python's `str.title()`: every letter that follows a non-letter is upper-cased, the others
/// lower-cased ("nine tailed fox" → "Nine Tailed Fox").
fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut after_letter = false;
    for c in s.chars() {
        if after_letter {
            out.extend(c.to_lowercase());
        } else {
            out.extend(c.to_uppercase());
        }
        after_letter = c.is_alphabetic();
    }
    out
}

/// A name key as the English spells it: "nine-tailed-fox" → "Nine Tailed Fox".
fn name_words(key: &str) -> String {
    title(&key.replace('-', " "))
}

/// The first letter upper-cased (a sentence of its own).
fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A line (or trigger) is mandatory when its first step says must: "Mandatory:" opens it and
/// binds all of it; any other line may be declined as a whole.
fn mandatory(text: String, must: bool) -> String {
    if must { format!("Mandatory: {text}") } else { text }
}

/// The English of a remembered value's name ("x" is X itself; an unknown name is said as is).
fn var_words(name: &str) -> &str {
    match name {
        "x" => "X",
        "spent" => "the extra chakra spent",
        "hidden_power" => "the Power of the character hidden this way",
        "discarded_cost" => "the cost of the discarded card",
        "moved_count" => "the number of characters moved this way",
        "defeated_count" => "the number of characters defeated this way",
        "discarded_count" => "the number of cards discarded this way",
        "upgraded_power" => "the Power of the character upgraded over",
        "looked_cost" => "the printed cost of the character looked at",
        "defeated_power" => "the printed Power of the character defeated this way",
        "defeated_cost" => "the cost of the character defeated this way",
        "drew" => "the number of cards drawn this way",
        "revealed_cost" => "the cost of the revealed card",
        "revealed_count" => "the number of cards revealed this way",
        "discarded_power" => "the Power of the discarded card",
        "recycled" => "the number of cards shuffled this way",
        "each_cost" => "that character's cost",
        "removed" => "the number of Power tokens removed this way",
        other => other,
    }
}

/// A number option that Python would read as false (absent, or the constant 0) is no option.
fn given(n: &Option<Number>) -> Option<&Number> {
    n.as_ref().filter(|n| n.as_int() != Some(0))
}

/// A count the selector's determiner or bounds spell out ("up to 2", "until only 1 remain").
fn counted(count: &CountForm) -> bool {
    !matches!(count, CountForm::One | CountForm::All)
}

fn events_words(events: &[Event], word: impl Fn(Event) -> &'static str) -> String {
    events.iter().map(|&e| word(e)).collect::<Vec<_>>().join(" or ")
}

/// The renderer: the catalog (for the texts of interned names) and the X notes of the steps
/// and statics being rendered, innermost last.
pub struct English<'a> {
    cat: &'a Catalog,
    notes: Vec<Vec<String>>,
    /// the card whose effects are being said (its selectors may pick the card itself)
    me: Option<&'a Card>,
}

impl<'a> English<'a> {
    pub fn new(cat: &'a Catalog) -> English<'a> {
        English { cat, notes: Vec::new(), me: None }
    }

    /// The renderer of `card`'s own lines.
    pub fn of(cat: &'a Catalog, card: &'a Card) -> English<'a> {
        English { cat, notes: Vec::new(), me: Some(card) }
    }

    /// Whether `sel`, read from the card's own effect, can pick the card itself: a friendly
    /// selection of characters with no "other" that the card's own facts fit. README and the
    /// rulebook's glossary define "friendly" as leaving the card out (a character is not a friend
    /// of itself), so such a selection says "of yours" instead ("all Team Guy characters of yours
    /// with an attachment" counts Might Guy himself). An attachment or a mission is not a
    /// character, so its "friendly characters" are everyone on its side.
    fn includes_me(&self, sel: &Selector) -> bool {
        let Some(me) = self.me else { return false };
        if me.ctype != CardType::Character
            || sel.side != Side::Friendly
            || sel.other
            || sel.self_
            || sel.var.is_some()
            || sel.hidden == Some(true)
            || sel.where_ == Where::OtherMissions
            || sel.power_lt_self
            || sel.printed_power_lt_self
            || matches!(sel.card_type, Some(CardTypeSel::Attachment))
            || sel.on.is_some()
        {
            return false;
        }
        let fits_group = sel.group.is_none_or(|g| me.group == Some(g));
        let fits_keyword = sel.keyword.is_none_or(|k| me.has_keyword(k))
            && (sel.keywords.is_empty() || sel.keywords.iter().any(|&k| me.has_keyword(k)))
            && sel.not_keyword.is_none_or(|k| !me.has_keyword(k));
        let fits_name = (sel.names.is_empty() || sel.names.contains(&me.name_key))
            && !sel.not_name.contains(&me.name_key)
            && sel.name_has.as_ref().is_none_or(|w| me.name_lower.contains(w.as_str()));
        let fits_group_not = sel.not_group.is_none_or(|g| me.group != Some(g));
        let fits_cost = sel.cost_max.is_none_or(|m| me.cost() <= m)
            && sel.printed_cost_max.is_none_or(|m| me.cost() <= m)
            && sel.cost_min.is_none_or(|m| me.cost() >= m);
        fits_group && fits_keyword && fits_name && fits_group_not && fits_cost
    }

    // ---- X notes -----------------------------------------------------------------------

    /// Render a step or a static, then say what X stands for in it, once each, unless the
    /// sentence already said it.
    fn with_x(&mut self, render: impl FnOnce(&mut Self) -> String) -> String {
        self.notes.push(Vec::new());
        let mut text = render(self);
        let notes = self.notes.pop().unwrap_or_default();
        for note in notes {
            if !text.contains(&format!("where X is {note}")) {
                text.push_str(", where X is ");
                text.push_str(&note);
            }
        }
        text
    }

    /// Leave the note to the enclosing step or static; false outside one (the selector says it).
    fn explained(&mut self, note: &str) -> bool {
        match self.notes.last_mut() {
            None => false,
            Some(top) => {
                if !top.iter().any(|n| n == note) {
                    top.push(note.to_string());
                }
                true
            }
        }
    }

    // ---- selectors ---------------------------------------------------------------------

    /// A selector bound: a constant as is, anything else as X (its meaning noted in `explain`).
    fn bound(&mut self, n: &Number, explain: &mut Vec<String>) -> String {
        match n {
            Number::Int(i) => i.to_string(),
            _ => {
                let words = self.number(n);
                explain.push(words);
                "X".to_string()
            }
        }
    }

    fn bound_var(&mut self, v: crate::language::VarId, explain: &mut Vec<String>) -> String {
        explain.push(var_words(self.cat.var_text(v)).to_string());
        "X".to_string()
    }

    fn names(&self, names: &[crate::names::NameId]) -> String {
        names.iter().map(|&n| name_words(self.cat.name_text(n))).collect::<Vec<_>>().join(" or ")
    }

    fn keywords(&self, keywords: &[crate::names::KeywordId]) -> String {
        keywords.iter().map(|&k| self.cat.keyword_text(k)).collect::<Vec<_>>().join(" or ")
    }

    /// A remembered character ("the character played this way").
    fn remembered(&self, v: crate::language::VarId) -> String {
        let name = self.cat.var_text(v);
        match name {
            "played" => "the character played this way",
            "hidden" => "the character hidden this way",
            "moved" => "the character moved this way",
            "defeated" => "the character defeated this way",
            "looked" => "the character looked at",
            "target" | "host" | "each" => "that character",
            _ => return format!("the character remembered as {name}"),
        }
        .to_string()
    }

    /// English for the selection. `plural`: "all … characters"; `bare`: no determiner;
    /// `place`: false leaves out where the cards stand (the caller says it).
    pub fn selector(&mut self, sel: &Selector, plural: Option<bool>, bare: bool, place: bool) -> String {
        if sel.self_ {
            if sel.has_tokens == Some(false) {
                return "this character, if it has no Power tokens".into();
            }
            return "this character".into();
        }
        if let Some(v) = sel.var {
            return self.remembered(v);
        }
        let mut many = plural.unwrap_or(sel.is_all());
        let mut explain: Vec<String> = Vec::new(); // what X stands for, when a bound is not a constant
        let det = if let Some(pick) = sel.pick {
            let word = match pick {
                Pick::Weakest => "weakest",
                Pick::Strongest => "strongest",
                Pick::LowestCost => "lowest-cost",
                Pick::StrongestUnique => "single strongest",
            };
            if sel.is_all() {
                many = true;
                format!("all the {word}")
            } else {
                format!("the {word}")
            }
        } else if many {
            "all".to_string()
        } else {
            match &sel.count {
                CountForm::UpTo(n) => {
                    many = !matches!(n, Number::Int(i) if *i <= 1);
                    match n {
                        Number::Int(i) if *i >= ANY => "any number of".to_string(),
                        _ => format!("up to {}", self.bound(n, &mut explain)),
                    }
                }
                CountForm::CostTotal(_) | CountForm::PowerTotal(_) => {
                    many = true;
                    "any number of".to_string()
                }
                CountForm::Keep(_) => {
                    many = true;
                    String::new()
                }
                CountForm::One | CountForm::All => if sel.other { "another" } else { "a" }.to_string(),
            }
        };
        let adj = self.adjectives(sel, many, bare);
        let noun = match (sel.card_type, sel.on, many) {
            (Some(CardTypeSel::Attachment), _, true) | (_, Some(_), true) => "attachments",
            (Some(CardTypeSel::Attachment), _, false) | (_, Some(_), false) => "attachment",
            (Some(CardTypeSel::Any), _, true) => "cards",
            (Some(CardTypeSel::Any), _, false) => "card",
            (_, _, true) => "characters",
            (_, _, false) => "character",
        };
        // where the cards stand comes right after the noun ("an enemy character in this mission
        // with Power 3 or less"), so a qualifier never dangles after it
        let where_ = match sel.on {
            Some(On::Mission) if many => "on missions",
            Some(_) if many => "on characters",
            Some(On::Character) => "on a character",
            Some(On::Mission) => "on a mission",
            None if place && !sel.per_mission => match sel.where_ {
                Where::This => "in this mission",
                Where::InPlay => "in play",
                Where::OtherMissions if many => "in other missions",
                Where::OtherMissions => "in another mission",
                Where::Chosen => "in the chosen mission",
            },
            None => "",
        };
        let quals = self.qualifiers(sel, many, place, &mut explain);
        let mut parts: Vec<&str> = Vec::new();
        if !bare {
            parts.push(&det);
        }
        parts.extend(adj.iter().map(String::as_str));
        parts.push(noun);
        if self.includes_me(sel) {
            parts.push("of yours");
        }
        parts.push(where_);
        parts.extend(quals.iter().map(String::as_str));
        let mut text = parts.into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" ");
        if let Some(rest) = text.strip_prefix("a ") {
            text = article(rest);
        }
        for e in explain {
            if !self.explained(&e) {
                text.push_str(&format!(" (X: {e})"));
            }
        }
        text
    }

    /// The words before the noun: "other hidden upgraded enemy Leaf Village …".
    fn adjectives(&self, sel: &Selector, many: bool, bare: bool) -> Vec<String> {
        let mut adj = Vec::new();
        // a lone "other" reads "another" in the determiner; a plural or bare one stays an adjective
        if sel.other && (many || sel.pick.is_some() || counted(&sel.count) || bare) {
            adj.push("other".to_string());
        }
        if sel.hidden == Some(true) {
            adj.push("hidden".into());
        } else if sel.hidden == Some(false) || (sel.sole && sel.hidden.is_none()) {
            adj.push("non-hidden".into());
        }
        if sel.upgraded == Some(true) {
            adj.push("upgraded".into());
        }
        if sel.controlled == Some(true) {
            adj.push("controlled".into());
        }
        match sel.side {
            Side::Friendly if self.includes_me(sel) => {} // "… of yours", after the noun
            Side::Friendly => adj.push("friendly".into()),
            Side::Enemy => adj.push("enemy".into()),
            Side::Any => {}
        }
        if let Some(g) = sel.group {
            adj.push(group_text(g).into());
        }
        if let Some(k) = sel.keyword {
            adj.push(self.cat.keyword_text(k).into());
        }
        if !sel.keywords.is_empty() {
            adj.push(self.keywords(&sel.keywords));
        }
        if !sel.names.is_empty() {
            adj.push(self.names(&sel.names));
        }
        if let Some(word) = &sel.name_has_text {
            adj.push(format!("{word}-named"));
        }
        adj
    }

    /// The words after the noun and place: bounds, "with the same name as …", "until only N
    /// remain" …, in the order the Python renderer says them.
    fn qualifiers(&mut self, sel: &Selector, many: bool, place: bool, explain: &mut Vec<String>) -> Vec<String> {
        let mut q = Vec::new();
        let their = if many { "their" } else { "its" };
        if let Some(g) = sel.not_group {
            let verb = if many { "are" } else { "is" };
            q.push(format!("that {verb} not {}", group_text(g)));
        }
        if let Some(k) = sel.not_keyword {
            q.push(format!("without the {} keyword", self.cat.keyword_text(k)));
        }
        if !sel.not_name.is_empty() {
            let and = if sel.not_keyword.is_some() { "and " } else { "" };
            q.push(format!("{and}not named {}", self.names(&sel.not_name)));
        }
        if let Some(n) = sel.power_eq {
            q.push(format!("with exactly {n} Power"));
        }
        if let Some(n) = sel.power_max {
            q.push(format!("with Power {n} or less"));
        }
        if let Some(v) = sel.power_max_var {
            let x = self.bound_var(v, explain);
            q.push(format!("with Power {x} or less"));
        }
        if let Some(n) = sel.power_min {
            q.push(format!("with Power {n} or more"));
        }
        if sel.power_lt_self {
            q.push("with less Power than this character".into());
        }
        if sel.power_le_self {
            q.push("with Power equal to or less than this character's".into());
        }
        if let Some(n) = sel.cost_max {
            q.push(format!("costing {n} or less"));
        }
        if let Some(v) = sel.cost_max_var {
            let x = self.bound_var(v, explain);
            q.push(format!("costing {x} or less"));
        }
        if let Some(n) = sel.cost_min {
            q.push(format!("costing {n} or more"));
        }
        if let Some(n) = sel.printed_cost_max {
            q.push(format!("with a printed cost of {n} or less"));
        }
        if let Some(n) = &sel.cost_lt {
            let x = self.bound(n, explain);
            q.push(format!("costing less than {x}"));
        }
        if let Some(n) = &sel.cost_le {
            let x = self.bound(n, explain);
            q.push(format!("costing {x} or less"));
        }
        if let Some(n) = &sel.power_lt {
            let x = self.bound(n, explain);
            q.push(format!("with less Power than {x}"));
        }
        if sel.power_eq_self {
            q.push("with Power equal to this character's".into());
        }
        if let Some(n) = sel.printed_power_min {
            q.push(format!("with a printed Power of {n} or more"));
        }
        if sel.printed_power_lt_self {
            q.push("with less printed Power than this character's Power".into());
        }
        if let Some(wa) = &sel.with_attachment {
            // the card filter without its noun: "a Sword attachment"
            let what = self.selector(wa, Some(false), true, false).replace(" attachment", "").replace(" character", "");
            q.push(if what == "character" || what == "attachment" {
                "with an attachment".into()
            } else {
                format!("with {} attachment", article(&what))
            });
        }
        match sel.has_tokens {
            Some(true) => q.push("with Power tokens".into()),
            Some(false) => q.push("without Power tokens".into()),
            None => {}
        }
        if let Some(v) = sel.name_var {
            let name = self.cat.var_text(v);
            let whom = match name {
                "defeated" => "the character defeated this way".to_string(),
                "revealed" => "the revealed card".to_string(),
                _ => format!("the {name} one"),
            };
            q.push(format!("with the same name as {whom}"));
        }
        if sel.sole {
            q.push(format!("with no other non-hidden character on {their} side"));
        }
        if sel.owned == Some(true) {
            q.push("that you own".into());
        }
        if sel.moved_last_turn {
            q.push("that moved during the opponent's previous turn".into());
        }
        if sel.played_last_turn || sel.discounted {
            let mut s = String::from(if many { "that were played" } else { "that was played" });
            if sel.played_last_turn {
                s.push_str(" during the opponent's previous turn");
            }
            if sel.discounted {
                s.push_str(" for less than its printed cost because of an effect");
            }
            q.push(s);
        }
        if sel.unique_name {
            q.push(format!("whose name no other non-hidden character in {their} mission has"));
        }
        if let Some(v) = sel.not_var {
            q.push(format!("other than the {} one", self.cat.var_text(v)));
        }
        if sel.per_mission && place {
            q.push("in every mission".into());
        }
        match &sel.count {
            // (the totals are said in full: they are not X of the sentence)
            CountForm::PowerTotal(n) => {
                let n = self.number(n);
                q.push(format!("with a total Power of {n} or less"));
            }
            CountForm::CostTotal(n) => {
                let n = self.number(n);
                q.push(format!("with a total cost of {n} or less"));
            }
            CountForm::Keep(n) => {
                let x = self.bound(n, explain);
                q.push(format!("until only {x} remain"));
            }
            _ => {}
        }
        q
    }

    /// English for an attachment selector (whose attachments, where, which cards).
    pub fn attachments(&mut self, sel: Option<&Selector>, plural: Option<bool>, bare: bool) -> String {
        let Some(sel) = sel else {
            return if plural == Some(true) { "attachments" } else { "an attachment" }.into();
        };
        let mut many = plural.unwrap_or(sel.is_all());
        let det = match &sel.count {
            CountForm::All => "all".to_string(),
            CountForm::UpTo(n) => {
                many = true;
                match n {
                    Number::Int(i) if *i >= ANY => "any number of".to_string(),
                    _ => format!("up to {}", self.number(n)),
                }
            }
            _ => "a".to_string(),
        };
        let mut words: Vec<String> = Vec::new();
        if !bare {
            words.push(det);
        }
        if sel.other {
            words.push("other".into());
        }
        match sel.side {
            Side::Friendly => words.push("friendly".into()),
            Side::Enemy => words.push("enemy".into()),
            Side::Any => {}
        }
        if let Some(k) = sel.keyword {
            words.push(self.cat.keyword_text(k).into());
        }
        if !sel.keywords.is_empty() {
            words.push(self.keywords(&sel.keywords));
        }
        if !sel.names.is_empty() {
            words.push(self.names(&sel.names));
        }
        words.push(if many { "attachments" } else { "attachment" }.into());
        let mut place = if sel.where_ == Where::This { " in this mission" } else { "" }.to_string();
        if sel.self_ {
            place = " on this character".into();
        } else if let Some(on) = sel.on {
            // "an attachment on a character in this mission"
            let what = if on == On::Character { "character" } else { "mission" };
            let on = if many { format!(" on {what}s") } else { format!(" on a {what}") };
            place = on + &place;
        } else if place.is_empty() {
            place = " in play".into();
        }
        let text = words.iter().filter(|w| !w.is_empty()).map(String::as_str).collect::<Vec<_>>().join(" ") + &place;
        match text.strip_prefix("a ") {
            Some(rest) => article(rest),
            None => text,
        }
    }

    // ---- numbers and conditions ------------------------------------------------------------

    /// A number in words: a constant, a remembered value, or what a count counts.
    pub fn number(&mut self, n: &Number) -> String {
        match n {
            Number::Int(i) => i.to_string(),
            Number::Var(v) => var_words(self.cat.var_text(*v)).to_string(),
            Number::Count(c) => self.count(c),
        }
    }

    fn count(&mut self, c: &Count) -> String {
        let sel = c.selector.as_ref();
        let any = Selector::default();
        let s = sel.unwrap_or(&any); // (every form that reads its selector requires one)
        let base = match c.kind {
            CountKind::Missions => "the number of missions in play".to_string(),
            CountKind::Attachments => {
                format!("the number of {}", self.attachments(sel, Some(true), true))
            }
            CountKind::Stack => "the number of cards in this character's upgrade stack".to_string(),
            CountKind::AttachmentCost => {
                format!("the cost of this character's {}", self.selector(s, Some(false), true, false))
            }
            CountKind::PowerOf if s.pick.is_none() => {
                // "the Power of the strongest …" reads with its own determiner; any other
                // selection becomes "the Power of the <selection>"
                let what = self.selector(s, Some(false), false, true);
                let what = what.strip_prefix("a ").unwrap_or(&what);
                let what = what.strip_prefix("an ").unwrap_or(what);
                format!("the Power of the {what}")
            }
            CountKind::PowerOf => format!("the Power of {}", self.selector(s, Some(false), false, true)),
            CountKind::CostOf => {
                format!("the cost of {}", self.selector(s, Some(false), false, true))
            }
            CountKind::Units if c.missions => {
                format!("the number of missions where you have {}", self.selector(s, Some(false), false, false))
            }
            CountKind::Units => {
                format!("the number of {}", self.selector(s, Some(true), true, true))
            }
        };
        let base = if c.times != 1 { format!("{} times {base}", c.times) } else { base };
        if c.plus != 0 { format!("{base} plus {}", c.plus) } else { base }
    }

    /// A number as it stands in a sentence, plus the clause that explains X when it is not a
    /// constant (X itself needs no explaining).
    fn x_of(&mut self, n: &Number) -> (String, String) {
        match n {
            Number::Int(i) => (i.to_string(), String::new()),
            Number::Var(v) if self.cat.var_text(*v) == "x" => ("X".into(), String::new()),
            _ => ("X".into(), format!(", where X is {}", self.number(n))),
        }
    }

    /// "there are at least 2 enemy characters in this mission", when the number is a plain
    /// count of characters.
    fn there_are(&mut self, n: &Number, bound: &str) -> Option<String> {
        match n {
            Number::Count(c) if c.kind == CountKind::Units && !c.missions && c.times == 1 && c.plus == 0 => {
                let sel = c.selector.as_ref()?;
                Some(format!("there are {bound} {}", self.selector(sel, Some(true), true, true)))
            }
            _ => None,
        }
    }

    /// A condition's clauses joined with "and", in the Python renderer's order.
    pub fn condition(&mut self, c: &Condition) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(n) = c.duel {
            parts.push(format!("{} is in this mission", name_words(self.cat.name_text(n))));
        }
        if let Some(n) = c.not_duel {
            parts.push(format!("{} is not in this mission", name_words(self.cat.name_text(n))));
        }
        if c.first_play == Some(true) {
            parts.push("it is the first character you play this round".into());
        }
        if let Some(s) = &c.here {
            parts.push(format!("{} is in this mission", self.selector(s, Some(false), false, true)));
        }
        if !c.exists_any.is_empty() {
            let any: Vec<String> = c.exists_any.iter().map(|s| self.selector(s, Some(false), false, true)).collect();
            parts.push(format!("there is {}", any.join(" or ")));
        }
        if c.var_unset.is_some() {
            parts.push("you did not".into());
        }
        if let Some((a, b)) = &c.var_ge {
            let a = self.number(a);
            let b = self.number(b);
            parts.push(format!("{a} is at least {b}"));
        }
        if let Some(s) = &c.in_hand {
            parts.push(format!("you have {} in hand", self.selector(s, Some(false), false, false)));
        }
        match c.discard_min {
            Some(1) => parts.push("you have a card in your discard pile".into()),
            Some(n) if n != 0 => parts.push(format!("you have at least {n} cards in your discard pile")),
            _ => {}
        }
        if let Some(s) = &c.attachment {
            parts.push(format!("there is {}", self.attachments(Some(s), Some(false), false)));
        }
        if c.evaluating == Some(true) {
            parts.push("Power is being determined in the Mission evaluation phase".into());
        }
        if let Some(s) = &c.self_attached {
            let what = self.selector(s, Some(false), true, false).replace(" attachment", "");
            parts.push(format!("this character has {} attachment", article(&what)));
        }
        match c.edge {
            Some(true) => parts.push("you have the Edge".into()),
            Some(false) => parts.push("you do not have the Edge".into()),
            None => {}
        }
        if let Some(s) = &c.exists {
            let what = self.selector(s, Some(false), false, true);
            parts.push(if s.self_ {
                what.replace("this character, if it has no", "this character has no")
            } else {
                format!("there is {what}")
            });
        }
        if let Some(s) = &c.absent {
            parts.push(format!("there is no {}", self.selector(s, Some(false), true, true)));
        }
        if let Some(s) = &c.only {
            parts.push(format!("there is only one {}", self.selector(s, Some(false), true, true)));
        }
        if c.winning == Some(true) {
            parts.push("you are winning this mission".into());
        }
        if c.fewer_nonhidden_than_enemy {
            parts.push("you have fewer non-hidden characters than the opponent in this mission".into());
        }
        if c.hand_empty == Some(true) {
            parts.push("you have no cards in hand".into());
        }
        if c.var_set.is_some() {
            parts.push("you did so".into());
        }
        match (&c.var_min, &c.var_max) {
            (Some(min), Some(max)) if min == max => {
                let (n, k) = min;
                let text = match self.there_are(n, &format!("exactly {k}")) {
                    Some(t) => t,
                    None => format!("{} is exactly {k}", self.number(n)),
                };
                parts.push(text);
            }
            (min, max) => {
                for (bound, word) in [(min, "at least"), (max, "at most")] {
                    if let Some((n, k)) = bound {
                        let text = match self.there_are(n, &format!("{word} {k}")) {
                            Some(t) => t,
                            None => format!("{} is {word} {k}", self.number(n)),
                        };
                        parts.push(text);
                    }
                }
            }
        }
        parts.join(" and ")
    }

    // ---- steps -----------------------------------------------------------------------------

    /// One step. `lead`: the first step of a line, whose "must" makes the whole line mandatory
    /// (the line says so once, see [`mandatory`]); a later "must" binds once the line is used.
    /// `cond`: false when the step joins the previous one under the same "if you did so".
    fn step(&mut self, s: &Step, lead: bool, cond: bool) -> String {
        let mut text = self.with_x(|en| en.verb(s));
        if let (Some(c), Arg::Selector(arg)) = (&s.cond, &s.arg)
            && c.only.as_ref() == Some(arg.as_ref())
        {
            // "if there is only one X, hide it"
            let what = self.selector(arg, None, false, true);
            text = text.replacen(&what, "it", 1);
        }
        if s.opts.may {
            text = format!("you may {text}");
        } else if s.must && !lead {
            text = if text.starts_with("the ") || text.starts_with("each ") {
                format!("{text} (this step is mandatory)")
            } else {
                format!("you must {text}")
            };
        }
        if cond
            && let Some(c) = &s.cond
            && !cond_implied(s, c)
        {
            text = format!("if {}, {text}", self.condition(c));
        }
        text
    }

    /// Steps joined with "; then"; `lead`: they open a line, so the first one's "must" is the
    /// line's.
    fn steps(&mut self, steps: &[Step], lead: bool) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (i, s) in steps.iter().enumerate() {
            let prev = if i > 0 { steps.get(i - 1) } else { None };
            let joins = prev.is_some_and(|p| {
                s.cond.is_some()
                    && s.cond == p.cond
                    && s.cond.as_ref().is_some_and(only_if_you_did)
                    && !(s.opts.may || s.must || p.opts.may)
            });
            if joins && let Some(last) = parts.last_mut() {
                // "if you did so, gain 1 chakra and draw 1 card"
                let more = self.step(s, false, false);
                last.push_str(" and ");
                last.push_str(&more);
            } else {
                parts.push(self.step(s, lead && i == 0, true));
            }
        }
        parts.join("; then ")
    }

    /// The nested steps of `for_each`, `times` …: never the lead of a line.
    fn body(&mut self, s: &Step) -> String {
        self.steps(&s.opts.do_, false)
    }

    /// The step's selector argument, as the verb's object.
    fn arg(&mut self, s: &Step) -> String {
        match s.selector() {
            Some(sel) => self.selector(sel, None, false, true),
            None => "a character".into(), // (the parser gives every selector verb a selector)
        }
    }

    /// The step's number argument in words ("all" for `number_or_all`).
    fn n(&mut self, s: &Step) -> String {
        match &s.arg {
            Arg::Number(n) => self.number(n),
            Arg::All => "all".into(),
            _ => String::new(),
        }
    }

    /// The step's number argument is not exactly 1: its noun is plural.
    fn not_one(s: &Step) -> bool {
        !matches!(s.arg, Arg::Number(Number::Int(1)))
    }

    fn target(&mut self, s: &Step) -> String {
        match &s.target {
            Some(t) => self.selector(t, None, false, true),
            None => "this character".into(),
        }
    }

    /// A card filter as the object of a deck or hand verb ("Leaf Village character").
    fn card_what(&mut self, sel: Option<&Selector>, default: &str) -> String {
        match sel {
            None => default.into(),
            Some(s) => self.selector(s, Some(false), true, true).replace(" in play", ""),
        }
    }

    fn deck(s: &Step) -> &'static str {
        if s.opts.who == Some(Who::Opponent) { "the opponent's deck" } else { "your deck" }
    }

    /// What the verb says, without its condition, "may" or "must".
    fn verb(&mut self, s: &Step) -> String {
        let o = &s.opts;
        let opponent = o.who == Some(Who::Opponent);
        match s.verb {
            Verb::Powerup => self.powerup(s),
            Verb::RemoveTokens => {
                let head = match s.arg {
                    Arg::All => "remove all Power tokens".to_string(),
                    _ => format!("remove up to {} Power tokens", self.n(s)),
                };
                let from = self.target(s);
                let give = if o.give_self { " and put them on this character" } else { "" };
                format!("{head} from {from}{give}")
            }
            Verb::GainChakra => {
                let who = if opponent { "the opponent gains" } else { "gain" };
                let (n, why) = self.x_of(s.number().unwrap_or(&Number::Int(0)));
                format!("{who} {n} chakra{why}")
            }
            Verb::StealChakra => format!("take {} chakra from the opponent's pool", self.n(s)),
            Verb::Draw => {
                let who = match o.who {
                    Some(Who::Opponent) => "the opponent draws",
                    Some(Who::Each) => "each player draws",
                    None => "draw",
                };
                let (n, why) = self.x_of(s.number().unwrap_or(&Number::Int(0)));
                let plural = if Self::not_one(s) { "s" } else { "" };
                format!("{who} {n} card{plural}{why}")
            }
            Verb::Discard => self.discard(s),
            Verb::LookHand => "look at the opponent's hand".into(),
            Verb::LookHidden => format!("look at {}", self.arg(s)),
            Verb::Move => self.move_(s),
            Verb::Hide => self.hit(s, "hide"),
            Verb::Defeat => {
                let reveal = if o.reveal { "reveal and " } else { "" };
                format!("{reveal}{}", self.hit(s, "defeat"))
            }
            Verb::TakeControl => {
                let pay = if o.pay_power { ", paying chakra equal to its Power" } else { "" };
                format!("take control of {}{pay}", self.arg(s))
            }
            Verb::ReturnToHand => format!("return {} to its owner's hand", self.arg(s)),
            Verb::Play => self.play(s),
            Verb::PlaceHidden => self.place_hidden(s),
            Verb::GainEdge => {
                let lock = if o.lock { "; you cannot lose it this round" } else { "" };
                format!("gain the Edge{lock}")
            }
            Verb::GainPoints => {
                let plural = if Self::not_one(s) { "s" } else { "" };
                format!("gain {} mission point{plural}", self.n(s))
            }
            Verb::SpendChakra => "spend any amount of extra chakra (X)".into(),
            Verb::DiscardTop => {
                let whose = if opponent { "the opponent's" } else { "your" };
                format!("discard the top card of {whose} deck")
            }
            Verb::SearchTop => self.search_top(s),
            Verb::PutOnDeck => format!("put {} card from your hand on top of your deck", self.n(s)),
            Verb::Repeat => format!(
                "apply the {} effect again",
                o.line.as_deref().unwrap_or("main").to_uppercase()
            ),
            Verb::Copy => {
                let kind = if o.non_upgrade_lines {
                    "a non-UPGRADE instant effect"
                } else {
                    "an instant effect"
                };
                let src = match s.selector() {
                    Some(sel) => self.selector(sel, None, false, true),
                    None => "the card discarded this way".into(),
                };
                format!("copy {kind} of {src} (resolve it as this character's own)")
            }
            Verb::Retrieve => {
                let what = if o.topmost {
                    let what = match s.selector() {
                        Some(sel) => self.selector(sel, Some(false), true, true),
                        None => "character".into(),
                    };
                    format!("put the topmost {}", what.replace(" in play", ""))
                } else {
                    let what = match s.selector() {
                        Some(sel) => self.selector(sel, Some(false), false, true).replace(" in play", ""),
                        None => "a character".into(),
                    };
                    format!("put {what}")
                };
                format!("{what} from your discard pile into your hand")
            }
            Verb::StripTop => format!(
                "discard the top card of {} (the card beneath becomes the character)",
                self.arg(s)
            ),
            Verb::ChooseMission => "choose a mission".into(),
            Verb::RevealOrDefeat => format!(
                "choose {}: its controller must either play it paying {} more, or defeat it",
                self.arg(s),
                o.more.unwrap_or(0)
            ),
            Verb::Special => match &s.arg {
                Arg::Name(name) => format!("(unknown special {name})"),
                _ => "(unknown special)".into(),
            },
            Verb::Declare => format!("declare a number X (from 1 to {})", self.n(s)),
            // "play this character paying N less" on an instant line (FIRST STRIKE): a price the
            // rules read when the card is played, not a step that resolves afterwards
            Verb::Cheaper => format!("play this character paying {} less", self.n(s)),
            Verb::RevealTop => format!("reveal the top card of {}", Self::deck(s)),
            Verb::LookTop => {
                let bottom = if o.bottom { "; you may put it at the bottom of that deck" } else { "" };
                format!("look at the top card of {}{bottom}", Self::deck(s))
            }
            Verb::Dig => format!(
                "reveal cards from the top of your deck until you reveal a {}, draw it, then shuffle the other revealed cards into your deck",
                self.card_what(s.selector(), "character")
            ),
            Verb::SearchDeck => {
                let take = o.take.unwrap_or(1);
                let what = self.card_what(s.selector(), "character");
                let (plural, them) = if take != 1 { ("s", "them") } else { ("", "it") };
                format!(
                    "search your deck for up to {take} {what}{plural}, reveal and draw {them}, then shuffle your deck"
                )
            }
            Verb::PayChakra => format!("pay {} chakra", self.n(s)),
            Verb::RevealHand => self.reveal_hand(s),
            Verb::ForEach => {
                let what = match s.selector() {
                    Some(sel) => self.selector(sel, Some(false), true, true),
                    None => "character".into(),
                };
                format!("for each {what}: {}", self.body(s))
            }
            Verb::ForEachMission => {
                // a selection that fits this very card holds this mission (where the card stands)
                // and the other missions where there is another one: say both
                let mine = s.selector().is_some_and(|sel| self.includes_me(sel));
                let what = match s.selector() {
                    Some(sel) if mine => {
                        let me = self.me.take();
                        let what = self.selector(sel, Some(false), false, false);
                        self.me = me;
                        what
                    }
                    Some(sel) => self.selector(sel, Some(false), false, false),
                    None => "a character".into(),
                };
                // the body's "this mission" is each of those missions
                let body = self.body(s).replace("this mission", "that mission");
                if mine {
                    format!("in this mission and in every other mission where there is {what}: {body}")
                } else {
                    format!("in every mission where there is {what}: {body}")
                }
            }
            Verb::Times => {
                let (n, why) = self.x_of(s.number().unwrap_or(&Number::Int(0)));
                format!("repeat {n} times{why}: {}", self.body(s))
            }
            Verb::OneOf => {
                let branches: Vec<String> = match &s.arg {
                    Arg::Branches(bs) => bs.iter().map(|b| self.steps(b, false)).collect(),
                    _ => Vec::new(),
                };
                format!("choose one: {}", branches.join("; or "))
            }
            Verb::Attach => self.attach(s),
            Verb::AttachSelf => {
                let power = o.power.unwrap_or(0);
                let sign = if power >= 0 { "+" } else { "−" };
                format!(
                    "attach this character to {}: while attached it is an attachment giving {sign}{} Power instead of a character",
                    self.arg(s),
                    power.abs()
                )
            }
            Verb::DiscardAttachment => format!("discard {}", self.attachments(s.selector(), None, false)),
            Verb::MoveAttachment => self.move_attachment(s),
            Verb::TakeBack => format!("take back control of {}", self.arg(s)),
            Verb::SplitBottom => "move the card at the bottom of this character's upgrade stack to another mission, as a character of its own".into(),
            Verb::DiscardFromStack => {
                let what = self.card_what(o.filter.as_ref(), "card").replace(" character", "");
                format!("discard every {what} card from the stack of {}", self.arg(s))
            }
            Verb::Recycle => format!(
                "shuffle up to {} cards from the top of your discard pile into your deck",
                self.n(s)
            ),
            Verb::Activate => {
                let line = o.line.as_deref().unwrap_or("main");
                let tail = if line == "duel" {
                    ", even if the character its DUEL names is not in its mission"
                } else {
                    ", ignoring that effect's requirements"
                };
                format!(
                    "{} applies one of its instant {} effects{tail}",
                    self.arg(s),
                    line.to_uppercase().replace('_', " ")
                )
            }
        }
    }

    fn powerup(&mut self, s: &Step) -> String {
        let (n, why) = self.x_of(s.number().unwrap_or(&Number::Int(0)));
        match &s.target {
            Some(_) => format!("POWERUP {n} on {}{why}", self.target(s)),
            None => format!("POWERUP {n}{why}"),
        }
    }

    fn discard(&mut self, s: &Step) -> String {
        let o = &s.opts;
        let theirs = o.who == Some(Who::Opponent);
        let what = match (&s.arg, &o.filter) {
            (Arg::All, None) => if theirs { " their whole hand" } else { " your whole hand" }.to_string(),
            (_, None) => {
                let plural = if Self::not_one(s) { "s" } else { "" };
                format!(" {} card{plural} from hand", self.n(s))
            }
            (_, Some(f)) => {
                let what = self.selector(f, Some(false), false, false).replace(" character", " card");
                format!(" {what} from hand")
            }
        };
        let who = if theirs { "the opponent discards" } else { "discard" };
        let random = if o.random { " at random" } else { "" };
        let chooser = if o.chooser_you && theirs { ", chosen by you" } else { "" };
        format!("{who}{what}{random}{chooser}")
    }

    fn move_(&mut self, s: &Step) -> String {
        let dest = match s.opts.to.unwrap_or(Dest::Other) {
            Dest::Other => "to another mission",
            Dest::This => "to this mission",
            Dest::Any => "to any mission",
            Dest::ToOrFrom => "to this mission, or from this mission to another one",
            // (no card moves "anywhere" or to "that" mission; said plainly all the same)
            Dest::Anywhere => "to any mission",
            Dest::That => "to that mission",
        };
        format!("move {} {dest}", self.arg(s))
    }

    /// Hide or defeat, with an optional second character chosen from the same snapshot.
    fn hit(&mut self, s: &Step, word: &str) -> String {
        let mut what = self.arg(s);
        if let (Some(a), Some(b)) = (s.selector(), &s.opts.and) {
            let mut second = self.selector(b, None, false, true);
            let same_side = a.side == Side::Any || b.side == Side::Any || a.side == b.side;
            if b.count == CountForm::One && b.pick.is_none() && same_side {
                // "a hidden enemy character and another enemy character"
                if second.starts_with("a ") || second.starts_with("an ") {
                    let rest = second.split_once(' ').map(|(_, r)| r).unwrap_or("");
                    second = format!("another {rest}");
                }
            }
            if a.where_ == Where::This && b.where_ == Where::This && second.ends_with(" in this mission") {
                what = self.selector(a, None, false, false); // "X and Y in this mission"
            }
            what = format!("{what} and {second}");
        }
        if s.opts.chooser_opponent {
            // their own characters, seen from them
            return format!(
                "the opponent must choose and {word} {}",
                what.replace("enemy characters", "their own characters")
            );
        }
        format!("{word} {what}")
    }

    fn play(&mut self, s: &Step) -> String {
        let o = &s.opts;
        let discount = given(&o.discount);
        if o.from == Some(From::DeckTop) {
            let what = match s.selector() {
                Some(sel) => self.selector(sel, Some(false), true, true).replace(" in play", ""),
                None => "character".into(),
            };
            let (price, why) = match discount {
                Some(d) => {
                    let (x, why) = self.x_of(d);
                    (format!(" paying {x} less"), why)
                }
                None => (String::new(), String::new()),
            };
            return format!(
                "look at the top {} cards of your deck, play {} among them in any mission{price}, and discard the other cards{why}",
                o.look.unwrap_or(3),
                article(&what)
            );
        }
        let src = match o.from.unwrap_or(From::HandOrHidden) {
            From::Discard => "from your discard pile",
            From::DeckTop => "from the top cards of your deck",
            // (revealing a hidden character is playing it: unless the card names a zone, both)
            From::HandOrHidden => "from your hand or from among your hidden characters",
            From::Hidden => "from among your hidden characters",
            From::Hand | From::OpponentDeckTop | From::Deck => "from your hand",
        };
        let mut what = match s.selector() {
            Some(sel) => self.selector(sel, Some(false), false, true),
            None => "a character".into(),
        }
        .replace(" in play", "");
        if o.many {
            let many = match s.selector() {
                Some(sel) => self.selector(sel, Some(true), true, true),
                None => "characters".into(),
            };
            what = format!("any number of {}", many.replace(" in play", ""));
        }
        let place = match o.to {
            Some(Dest::This) => "in this mission",
            _ => "in any mission",
        };
        let mut price = String::new();
        if let Some(d) = discount {
            let (x, why) = self.x_of(d);
            price = format!(", paying {x} less{why}");
        }
        if o.upgrade == Some(false) {
            price.push_str(" (not as an upgrade)");
        }
        let hidden = if o.hidden { " hidden" } else { "" };
        format!("play {what} {src}{hidden} {place}{price}")
    }

    fn place_hidden(&mut self, s: &Step) -> String {
        // (the engine puts only a character card; it is yours to control)
        let from = s.opts.from.unwrap_or(From::Hand);
        let src = match from {
            From::DeckTop => "put the top card of your deck, if it is a character,",
            From::OpponentDeckTop => "put the top card of the opponent's deck, if it is a character,",
            _ => "put a character card from your hand",
        };
        let dest = match s.opts.to {
            Some(Dest::This) => " into this mission",
            Some(Dest::That) => " into that same mission",
            _ => " into any mission",
        };
        let yours = if from == From::OpponentDeckTop { " under your control" } else { "" };
        format!("{src}{dest} as a hidden character{yours}")
    }

    fn search_top(&mut self, s: &Step) -> String {
        let what = match &s.opts.filter {
            Some(f) => self.selector(f, Some(false), true, false),
            None => "card".into(),
        };
        let n = self.n(s);
        if s.opts.take.is_some_and(|t| t != 0) {
            format!(
                "look at the top {n} cards of your deck, choose {} among them, reveal it and put it into your hand; put the other cards at the bottom of your deck in random order",
                article(&what)
            )
        } else {
            format!("look at the top {n} cards of your deck, draw every {what} among them and put the rest back")
        }
    }

    fn reveal_hand(&mut self, s: &Step) -> String {
        let theirs = s.opts.who == Some(Who::Opponent);
        let head = if theirs { "the opponent must reveal " } else { "reveal " };
        let what = match s.arg {
            Arg::All => format!(
                "any number of {}",
                self.card_what(s.opts.filter.as_ref(), "card").replace("character", "characters")
            ),
            _ => if s.opts.random { "a random card" } else { "a card" }.to_string(),
        };
        let whose = if theirs { "their" } else { "your" };
        let able = if matches!(s.arg, Arg::All) { "" } else { ", if able" };
        format!("{head}{what} from {whose} hand{able}")
    }

    fn attach(&mut self, s: &Step) -> String {
        let o = &s.opts;
        let what = match s.selector() {
            Some(sel) => self.attachments(Some(sel), Some(false), false),
            None => "an attachment".into(),
        };
        let from = match o.from {
            Some(From::Deck) => " from your deck",
            Some(From::Hand) => " from your hand",
            _ => " from your hand or one of your face-down ones",
        };
        let place = if o.to == Some(Dest::This) { " in this mission" } else { "" };
        let price = match given(&o.discount) {
            Some(d) => format!(", paying {} less", self.number(d)),
            None => String::new(),
        };
        // a search of the deck shuffles it afterwards, whatever was found (attach.rs)
        let shuffle = if o.from == Some(From::Deck) { ", then shuffle your deck" } else { "" };
        format!("play {}{from}{place}{price}{shuffle}", what.replace(" in play", ""))
    }

    fn move_attachment(&mut self, s: &Step) -> String {
        let what = match &s.arg {
            Arg::Name(n) if n == "this" => "this attachment".to_string(),
            _ => self.attachments(s.selector(), None, false),
        };
        let onto = match &s.opts.onto {
            Some(Onto::This) => " to this character".to_string(),
            Some(Onto::Selector(sel)) => {
                format!(" to {}", self.selector(sel, Some(false), false, true))
            }
            None => " to another character".to_string(),
        };
        let ignore = if !s.opts.ignore {
            ""
        } else if s.selector().is_some_and(|sel| sel.count != CountForm::One) {
            ", ignoring their ATTACH conditions"
        } else {
            ", ignoring its ATTACH condition"
        };
        format!("move {what}{onto}{ignore}")
    }

    // ---- statics, triggers, modifiers ------------------------------------------------------

    /// A static, with its X notes said at its end.
    pub fn static_(&mut self, st: &Static) -> String {
        // a price's selections look at the card being played, never at this one
        let me = if st.kind.prices_a_play() { self.me.take() } else { self.me };
        let mut text = self.with_x(|en| en.static_text(st));
        self.me = me;
        if let Some(t) = st.target.as_ref().filter(|t| t.picks_one())
            && let Some(pick) = t.pick
        {
            text.push_str(&tie_sentence(pick));
        }
        text
    }

    fn static_text(&mut self, st: &Static) -> String {
        let o = &st.opts;
        let t = st.target.as_ref();
        let mut who = match t {
            Some(t) => self.selector(t, None, false, true),
            None => "this character".into(),
        };
        if o.attachment && t.is_none() {
            who = "this attachment".into();
        }
        // "cannot" statics name their targets without "all" ("All enemy characters cannot …"
        // could mean not all of them)
        let who_not = match t {
            Some(t) if t.is_all() => self.selector(t, Some(true), true, true),
            _ => who.clone(),
        };
        let all = t.is_some_and(Selector::is_all);
        let these = |en: &mut Self| match t {
            Some(t) => en.selector(t, Some(true), true, true),
            None => "this character".to_string(),
        };
        let n = &st.n;
        let text = match st.kind {
            StaticKind::Power => {
                let k = n.as_int().unwrap_or(0);
                let sign = if k > 0 { "+" } else { "−" };
                if let Some(per) = &o.per {
                    let per = self.selector(per, Some(false), true, true);
                    format!("{who} has {sign}{} Power for each {per}", k.abs())
                } else {
                    let sign = match n {
                        Number::Int(_) => format!("{sign}{}", k.abs()),
                        _ => "+X".to_string(),
                    };
                    let has = if all { "have" } else { "has" };
                    let (_, why) = self.x_of(n);
                    format!("{who} {has} {sign} Power{why}")
                }
            }
            StaticKind::PowerZero if o.lose_tokens => {
                // the tokens go for good: without them the character may no longer be the one picked
                let then = match t.and_then(|t| t.pick) {
                    Some(Pick::Strongest) => ", so another character may then be the strongest",
                    Some(Pick::Weakest) => ", so another character may then be the weakest",
                    Some(_) => ", so another character may then be the one picked",
                    None => "",
                };
                format!("{who} loses all its Power tokens (they are removed, not given back{then}) and has its Power set to 0")
            }
            StaticKind::PowerZero => format!("{who} has its Power set to 0"),
            StaticKind::Chakra => {
                let (x, why) = self.x_of(n);
                if o.both == Both::Losing {
                    format!("CHAKRA +{} for the player losing this mission", self.number(n))
                } else {
                    let both = if o.both == Both::Yes { " for both players" } else { "" };
                    format!("CHAKRA +{x}{both}{why}")
                }
            }
            StaticKind::Cost => {
                let less = matches!(n, Number::Int(k) if *k < 0);
                let what = match t {
                    Some(t) => self.selector(t, Some(true), true, false),
                    None => "characters".into(),
                };
                let amount = match n {
                    Number::Int(k) => k.abs().to_string(),
                    _ => self.number(n),
                };
                let sign = if less { "less" } else { "more" };
                let place = if o.anywhere { "any mission" } else { "this mission" };
                let min = match o.min {
                    Some(m) if m != 0 => format!(" (minimum {m})"),
                    _ => String::new(),
                };
                format!("{what} cost {amount} {sign} to play in {place}{min}")
            }
            StaticKind::RevealCost => {
                format!("this character can be played from hidden paying {} less", n.as_int().unwrap_or(0).abs())
            }
            StaticKind::NoPlayHidden => "the opponent cannot play characters hidden in this mission".into(),
            StaticKind::NoMoveFrom => match t {
                Some(t) if t.is_all() && t.where_ == Where::This => {
                    format!("{} cannot be moved out of this mission", self.selector(t, Some(true), true, false))
                }
                _ => format!("{who_not} cannot be moved from this mission"),
            },
            StaticKind::PlayOnlyWinning => {
                "this character can only be played in a mission where you are winning".into()
            }
            StaticKind::Immune => {
                let events = o.events.as_deref().unwrap_or(&[Event::Hide, Event::Defeat]);
                let verbs = events_words(events, |e| match e {
                    Event::Hide => "hidden",
                    Event::Defeat => "defeated",
                    Event::Move => "moved",
                });
                format!("{who_not} cannot be {verbs} by enemy effects")
            }
            StaticKind::DefeatToHand => {
                "defeated friendly characters go to your hand instead of your discard pile".into()
            }
            StaticKind::DefeatBecomesHide => {
                let events = o.events.as_deref().unwrap_or(&[Event::Defeat]);
                let verbs = events_words(events, |e| if e == Event::Move { "moved" } else { "defeated" });
                let src = if o.from_enemy { " by enemy effects" } else { "" };
                format!("if this character would be {verbs}{src}, hide it instead")
            }
            StaticKind::KeepTokens => "this character does not lose its Power tokens at the end of the round".into(),
            StaticKind::PlayCost => {
                let amount = match n {
                    Number::Int(k) => k.abs().to_string(),
                    _ => "X".into(),
                };
                let (_, why) = self.x_of(n);
                let text = format!("this character costs {amount} less to play{why}");
                // a condition on the mission reads as where the price holds
                if let Some(c) = &st.cond {
                    let c = self.condition(c);
                    if c.contains("in this mission") {
                        return format!("{text} in a mission where {}", c.replace(" in this mission", ""));
                    }
                }
                text
            }
            StaticKind::Sacrifice => {
                let events = o.events.as_deref().unwrap_or(&[Event::Hide, Event::Defeat]);
                let verbs = events_words(events, |e| if e == Event::Hide { "hidden" } else { "defeated" });
                format!("if {who} would be {verbs} by an enemy effect, you may defeat this character instead")
            }
            StaticKind::Tax => format!(
                "when an enemy effect affects this character, the opponent must pay {} chakra, if able",
                self.number(n)
            ),
            StaticKind::UpgradeOver => {
                let over = match &o.over {
                    Some(s) => self.selector(s, Some(false), true, false),
                    None => "character".into(),
                };
                format!("this character can be played as an upgrade over any {over}")
            }
            StaticKind::PowerupBonus => {
                let on = these(self);
                format!("POWERUPs on {on} give {} more Power token", self.number(n))
            }
            StaticKind::NoTokens => format!("{who_not} cannot receive Power tokens"),
            StaticKind::Blank => "this character's effect text is blank (its own lines do nothing)".into(),
            // the rules lift the one-per-player limit; each ATTACH condition still holds
            StaticKind::ManyAttachments => {
                "this character can carry more than one friendly attachment, and any friendly attachment may be attached to it, ignoring its ATTACH condition"
                    .into()
            }
            StaticKind::NoAttachments => "this character cannot receive other attachments".into(),
            StaticKind::AttachmentPower => {
                let what = match &o.filter {
                    Some(f) => self.selector(f, Some(false), true, false),
                    None => "attachment".into(),
                };
                let times = match o.times.unwrap_or(2) {
                    2 => "twice".to_string(),
                    k => format!("{k} times"),
                };
                format!("the Power of each {what} on this character counts {times}")
            }
            StaticKind::SeeHidden => format!("you can look at {} at any time", these(self)),
            StaticKind::MissionPoints => {
                let plural = if n.as_int() != Some(1) { "s" } else { "" };
                format!("this mission is worth {} more mission point{plural} for both players", self.number(n))
            }
            StaticKind::SidePower => format!("you have +{} total Power in this mission", self.number(n)),
            StaticKind::ScoreTwice => "this mission is scored twice (its SCORE effects apply again too)".into(),
            StaticKind::GrantLine => {
                let body = self.steps(&o.do_, true);
                let who_all = these(self);
                let timing = o.timing.as_deref().unwrap_or("main").to_uppercase();
                format!("{who_all} have, after all their other effects, \"{timing}: {body}\"")
            }
            StaticKind::AmbushOnPlay => {
                "when a non-hidden character is played in this mission from hand, its AMBUSH effects apply too".into()
            }
            StaticKind::RevealTax => {
                format!("the opponent pays {} more chakra to reveal characters in this mission", self.number(n))
            }
            StaticKind::Phantom => {
                let k = o.keyword.map(|k| self.cat.keyword_text(k)).unwrap_or_default();
                format!(
                    "for your {k} cards' effects, you have one more friendly {k} character in this mission (its cost and Power are this attachment's)"
                )
            }
        };
        match &st.cond {
            Some(c) => format!("if {}, {text}", self.condition(c)),
            None => text,
        }
    }

    /// A trigger: when it fires, then its steps.
    pub fn trigger(&mut self, tr: &Trigger) -> String {
        let body = self.steps(&tr.steps, true);
        // a character that is played, defeated or moved is in play: only a mission is worth saying
        let placed = |s: &Selector| s.where_ != Where::InPlay;
        let who = match &tr.who {
            Some(w) => self.selector(w, Some(false), false, placed(w)),
            None => "this character".into(),
        };
        let head = match (tr.on, &tr.who) {
            (TriggerOn::Moved, Some(w)) if tr.by_you => format!(
                "whenever you move one or more {} with one of your effects",
                self.selector(w, Some(true), true, placed(w))
            ),
            (TriggerOn::Moved, None) if tr.by_you => {
                format!("after you move {who} with one of your effects")
            }
            (TriggerOn::Defeated, _) if tr.by_you => format!("when you defeat {who}"),
            (TriggerOn::Defeated, _) => format!("when {who} is defeated"),
            (TriggerOn::StartOfRound, _) => "at the start of each round".into(),
            (TriggerOn::Attached, _) => {
                let what = match &tr.filter {
                    Some(f) => self.selector(f, Some(false), true, false),
                    None => "attachment".into(),
                };
                let what = what.replace(" character", "").replace(" attachment", "") + " attachment";
                format!("when you attach {} to {who}", article(&what))
            }
            (TriggerOn::Passed, _) => "when you pass".into(),
            (TriggerOn::BeforeEvaluation, _) => "before Power is determined in the Mission evaluation phase".into(),
            (TriggerOn::Played, Some(w)) => {
                let where_ = match w.where_ {
                    Where::This => " in this mission",
                    Where::OtherMissions => " in another mission",
                    _ => "",
                };
                if w.unique_name {
                    // "… is played in this mission and no other … there has its name"
                    let plain = Selector { unique_name: false, ..w.clone() };
                    let who = self.selector(&plain, Some(false), false, false);
                    let there = if where_.is_empty() { "in its mission" } else { "there" };
                    format!("when {who} is played{where_} and no other non-hidden character {there} has its name")
                } else {
                    format!("when {} is played{where_}", self.selector(w, Some(false), false, false))
                }
            }
            (TriggerOn::Played, None) => format!("when {who} is played"),
            (TriggerOn::EndOfRound, _) => "at the end of the round".into(),
            (TriggerOn::LostMission, _) => "if you lose this mission in the Mission evaluation phase".into(),
            (TriggerOn::Moved, _) => format!("after {who} moves"),
        };
        let body = if tr.on == TriggerOn::Played {
            body.replace("the character played this way", "that character")
        } else {
            body
        };
        let must = tr.must || tr.steps.first().is_some_and(|s| s.must);
        mandatory(format!("{head}, {body}"), must)
    }

    /// A line that changes another line of the card (`modifies`).
    pub fn modifier(&mut self, m: &Modifier, modifies: Timing) -> String {
        let body = self.steps(&m.steps, m.mode == ModMode::Instead);
        let label = modifies.label();
        match m.mode {
            ModMode::AsMain => {
                format!("the {label} effect becomes a MAIN effect (it applies whenever this character is played)")
            }
            ModMode::Instead => {
                // the new body is the line: its first "must" binds all of it
                let must = if m.steps.first().is_some_and(|s| s.must) { " (mandatory)" } else { "" };
                format!("{label} effect instead{must}: {body}")
            }
            ModMode::Also => format!("{label} effect, in addition: {body}"),
        }
    }

    /// A whole line: its sentences, each capitalized, joined and closed with full stops.
    /// `on_host`: the line of an attachment played on a character, whose "this character" is
    /// its host (it reads "the attached character").
    pub fn encoding(&mut self, enc: &Encoding, modifies: Option<Timing>, on_host: bool) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(host) = &enc.host {
            parts.push(match host {
                Host::Mission => "attach to a mission".into(),
                Host::Characters(sels) => {
                    let any: Vec<String> =
                        sels.iter().map(|s| self.selector(s, Some(false), false, s.where_ != Where::InPlay)).collect();
                    format!("attach to {}", any.join(" or "))
                }
            });
            for g in &enc.grants {
                let value = match *g {
                    Grant::Group(g) => group_text(g),
                    Grant::Keyword(k) => self.cat.keyword_text(k),
                };
                parts.push(format!("this character is also considered {} character", article(value)));
            }
        }
        if let Some(m) = &enc.modifier {
            parts.push(self.modifier(m, modifies.unwrap_or(Timing::Main)));
        }
        if !enc.steps.is_empty() {
            let text = self.steps(&enc.steps, true);
            parts.push(mandatory(text, enc.steps[0].must));
        }
        for st in &enc.statics {
            parts.push(self.static_(st));
        }
        for tr in &enc.triggers {
            parts.push(self.trigger(tr));
        }
        let mut text = parts.iter().filter(|p| !p.is_empty()).map(|p| capitalize(p)).collect::<Vec<_>>().join(". ");
        if on_host {
            text = text
                .replace("This character", "The attached character")
                .replace("this character", "the attached character");
        }
        if !text.is_empty() {
            text.push('.');
        }
        text
    }
}

/// How a continuous pick of one character ("the strongest …") settles a tie: its player chooses,
/// once, when the tie arises, and the choice stands while the tie lasts (effects::statics).
fn tie_sentence(pick: Pick) -> String {
    let (word, judged) = match pick {
        Pick::Weakest => ("the weakest", " (judged on printed Power plus Power tokens)"),
        Pick::Strongest => ("the strongest", " (judged on printed Power plus Power tokens)"),
        _ => ("the lowest cost", ""),
    };
    format!(
        ". On a tie for {word}{judged}, you choose which one as soon as the tie arises; your choice stands \
         while that character stays among those tied"
    )
}

/// "If you have a Gaara in hand, discard a Gaara card": the discard says it already.
fn cond_implied(s: &Step, c: &Condition) -> bool {
    let Some(in_hand) = &c.in_hand else {
        return false;
    };
    let mut alone = Condition { in_hand: Some(in_hand.clone()), ..Condition::default() };
    alone.compute_extra();
    s.verb == Verb::Discard && s.opts.filter.as_ref() == Some(in_hand) && *c == alone
}

/// The condition is only "if you did so" (a step may then join the previous one).
fn only_if_you_did(c: &Condition) -> bool {
    c.var_set.is_some() && *c == Condition { var_set: c.var_set, ..Condition::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles() {
        assert_eq!(article("enemy character"), "an enemy character");
        assert_eq!(article("Leaf Village character"), "a Leaf Village character");
        // "a unique …", "a one-…": the vowel sounds like a consonant
        assert_eq!(article("unique character"), "a unique character");
        assert_eq!(article("Uchiha-named character"), "an Uchiha-named character");
    }

    #[test]
    fn names_read_as_titles() {
        assert_eq!(name_words("nine-tailed-fox"), "Nine Tailed Fox");
        assert_eq!(name_words("team-7"), "Team 7");
        assert_eq!(title("3rd hokage"), "3Rd Hokage"); // as Python's str.title()
    }

    #[test]
    fn x_is_noted_once_at_the_end_of_a_step() {
        let cat = Catalog::bundled();
        let mut en = English::new(cat);
        let text = en.with_x(|en| {
            assert!(en.explained("the number of cards drawn this way"));
            assert!(en.explained("the number of cards drawn this way"));
            "gain X chakra".to_string()
        });
        assert_eq!(text, "gain X chakra, where X is the number of cards drawn this way");
        // outside a step the selector says it itself
        assert!(!en.explained("anything"));
    }
}
