//! The card catalog: facts about every card version, and the encoding of its effects.
//!
//! A *version* is a set plus a collector number (`KS-009`); every printing of that number is
//! the same version. Missions share numbers with characters, so a mission's version id keeps
//! its `MMS` suffix (`KS-001-MMS`). The catalog is read from `data/cards/<SET>.toml` and
//! validated as a whole: any error names the file, the line, the card and the field.

use std::collections::HashMap;
use std::fmt;

use crate::language::parse::Parser;
use crate::language::{Condition, Encoding, Host, ModMode, Static, StaticKind, Step, Trigger, Verb};
use crate::names::{GroupId, Interner, KeywordId, NameId, group_id, name_key};

pub const SETS: [&str; 2] = ["KS", "SS"];
pub const TIMINGS: [&str; 7] = ["main", "upgrade", "ambush", "score", "duel", "first_strike", "attach"];
pub const KINDS: [&str; 4] = ["instant", "continuous", "modifier", "condition"];
pub const RARITIES: [&str; 14] =
    ["C", "UC", "R", "S", "M", "L", "MMS", "RA", "MV", "SV", "SPV", "CHIBIV", "POPV", "SHINOBIV"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardType {
    Character,
    Attachment,
    Mission,
}

impl CardType {
    pub fn as_str(self) -> &'static str {
        match self {
            CardType::Character => "character",
            CardType::Attachment => "attachment",
            CardType::Mission => "mission",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Timing {
    Main,
    Upgrade,
    Ambush,
    Score,
    Duel,
    FirstStrike,
    Attach,
}

impl Timing {
    pub fn parse(s: &str) -> Option<Timing> {
        Some(match s {
            "main" => Timing::Main,
            "upgrade" => Timing::Upgrade,
            "ambush" => Timing::Ambush,
            "score" => Timing::Score,
            "duel" => Timing::Duel,
            "first_strike" => Timing::FirstStrike,
            "attach" => Timing::Attach,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        TIMINGS[self as usize]
    }
    pub fn label(self) -> &'static str {
        ["MAIN", "UPGRADE", "AMBUSH", "SCORE", "DUEL", "FIRST STRIKE", "ATTACH"][self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Instant,
    Continuous,
    Modifier,
    Condition,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "instant" => Kind::Instant,
            "continuous" => Kind::Continuous,
            "modifier" => Kind::Modifier,
            "condition" => Kind::Condition,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        KINDS[self as usize]
    }
    pub fn icon(self) -> &'static str {
        match self {
            Kind::Instant => "↯",
            Kind::Continuous => "⧗",
            _ => "",
        }
    }
}

/// One effect line of a card: when it applies, how, and what it does.
#[derive(Clone, Debug)]
pub struct EffectLine {
    pub timing: Timing,
    pub kind: Kind,
    /// DUEL lines: the character name that must be in the mission
    pub duel: Option<String>,
    pub duel_key: Option<NameId>,
    /// modifier lines: the timing of the line they change
    pub modifies: Option<Timing>,
    pub encoding: Option<Encoding>,
}

impl EffectLine {
    /// The encoding of an encoded SCORE instant line (what the mission's winner runs), else None.
    pub fn scoring(&self) -> Option<&crate::language::Encoding> {
        self.encoding.as_ref().filter(|_| self.timing == Timing::Score && self.kind == Kind::Instant)
    }
    /// "MAIN ↯", "DUEL Sasuke Uchiha ↯", "UPGRADE" …
    pub fn label(&self) -> String {
        let mut label = self.timing.label().to_string();
        if let Some(d) = &self.duel {
            label.push(' ');
            label.push_str(d);
        }
        let icon = self.kind.icon();
        if !icon.is_empty() {
            label.push(' ');
            label.push_str(icon);
        }
        label
    }
    /// Every instant step of the line is `cheaper`: a price, not an effect.
    pub fn only_cheaper(&self) -> bool {
        self.encoding.as_ref().is_some_and(|e| e.steps.iter().all(|s| s.verb == Verb::Cheaper))
    }
}

/// The continuous lines of a card as they are in force: each static and trigger with its
/// gates (DUEL, FIRST STRIKE) folded into its condition, a DUEL modifier's swapped triggers.
#[derive(Clone, Debug, Default)]
pub struct ContinuousLine {
    pub statics: Vec<Static>,
    pub triggers: Vec<Trigger>,
}

#[derive(Clone, Debug)]
pub struct Card {
    /// index in the catalog
    pub index: u16,
    /// the place of `id` among every card id in sorted order: comparing ranks compares ids
    pub id_rank: u16,
    pub id: String,
    pub set: String,
    pub number: i64,
    pub ctype: CardType,
    pub name: String,
    pub name_key: NameId,
    pub name_lower: String,
    pub title: String,
    pub rarity: String,
    pub printings: Vec<String>,
    pub cost: Option<i64>,
    pub power: Option<i64>,
    pub group: Option<GroupId>,
    pub keywords: Vec<KeywordId>,
    pub points: Option<i64>,
    pub attach_to: Option<String>,
    pub effects: Vec<EffectLine>,
    // derived at load, once per version
    pub continuous: Vec<ContinuousLine>,
    pub host: Option<Host>,
    pub grants: Vec<crate::language::Grant>,
    /// (timing, N) of instant lines that only say "play this character paying N less"
    pub cheaper: Vec<(Timing, i64)>,
    /// the kinds of the statics printed on the card, one bit a kind (`has_own_static` asks it)
    pub own_kinds: u32,
    /// an encoded SCORE instant line (`effects::score_frame` looks no further on a card without)
    pub scores: bool,
    /// what the built-in players' judgement reads off the card's text, worked out once
    pub facts: crate::players::CardFacts,
}

impl Card {
    pub fn cost(&self) -> i64 {
        self.cost.unwrap_or(0)
    }
    pub fn power(&self) -> i64 {
        self.power.unwrap_or(0)
    }
    pub fn is_character(&self) -> bool {
        self.ctype == CardType::Character
    }
    pub fn has_keyword(&self, k: KeywordId) -> bool {
        self.keywords.contains(&k)
    }
    pub fn full_name(&self) -> String {
        if self.title.is_empty() { self.name.clone() } else { format!("{} / {}", self.name, self.title) }
    }
    /// Every static of one kind printed on the card (in force or not).
    pub fn own_statics(&self, kind: StaticKind) -> impl Iterator<Item = &Static> {
        self.continuous.iter().flat_map(|c| c.statics.iter()).filter(move |s| s.kind == kind)
    }
    pub fn has_own_static(&self, kind: StaticKind) -> bool {
        self.own_kinds & (1 << kind.index()) != 0
    }
}

/// A malformed card file: the message names the file, the line and the fix.
#[derive(Clone, Debug, PartialEq)]
pub struct CatalogError(pub String);

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CatalogError {}

#[derive(Debug)]
pub struct Catalog {
    pub cards: Vec<Card>,
    pub by_id: HashMap<String, u16>,
    pub by_printing: HashMap<String, u16>,
    pub names: Interner,
    pub keywords: Interner,
    pub vars: Interner,
    /// the static kinds some continuous line uses with a pick of one character or with lost Power
    /// tokens: what effects::statics settles after every step (none: nothing to settle)
    pub settled_kinds: Vec<StaticKind>,
}

impl Catalog {
    pub fn card(&self, id: &str) -> Option<&Card> {
        let up = id.trim().to_ascii_uppercase();
        self.by_id.get(&up).or_else(|| self.by_printing.get(&up)).map(|&i| &self.cards[i as usize])
    }
    pub fn name_text(&self, n: NameId) -> &str {
        self.names.text(n.0)
    }
    pub fn keyword_text(&self, k: KeywordId) -> &str {
        self.keywords.text(k.0)
    }
    pub fn var_text(&self, v: crate::language::VarId) -> &str {
        self.vars.text(v.0)
    }

    /// Parse the set files (name, TOML text) into a validated catalog.
    pub fn from_files(files: &[(&str, &str)]) -> Result<Catalog, CatalogError> {
        let mut names = Interner::default();
        let mut keywords = Interner::default();
        let mut vars = crate::state::vars::interner();
        let mut cards: Vec<Card> = Vec::new();
        let mut files: Vec<&(&str, &str)> = files.iter().collect();
        files.sort_by_key(|f| f.0);
        if files.is_empty() {
            return Err(CatalogError("no card files (*.toml)".into()));
        }
        for (path, text) in files {
            let mut p = Parser { names: &mut names, keywords: &mut keywords, vars: &mut vars };
            load_file(path, text, &mut p, &mut cards)?;
        }
        let mut by_id = HashMap::new();
        let mut by_printing = HashMap::new();
        for (i, c) in cards.iter_mut().enumerate() {
            c.index = i as u16;
            if by_id.insert(c.id.clone(), i as u16).is_some() {
                return Err(CatalogError(format!("duplicate card version {}", c.id)));
            }
            for p in &c.printings {
                if let Some(other) = by_printing.insert(p.clone(), i as u16) {
                    return Err(CatalogError(format!(
                        "printing {p} belongs to {} and {}",
                        cards_id(&by_id, other),
                        c.id
                    )));
                }
            }
        }
        for c in cards.iter_mut() {
            derive(c);
        }
        let mut order: Vec<usize> = (0..cards.len()).collect();
        order.sort_by(|&a, &b| cards[a].id.cmp(&cards[b].id));
        for (rank, i) in order.into_iter().enumerate() {
            cards[i].id_rank = rank as u16;
        }
        let mut settled_kinds: Vec<StaticKind> = Vec::new();
        for c in &cards {
            for line in &c.continuous {
                for st in &line.statics {
                    let settles = st.opts.lose_tokens || st.target.as_ref().is_some_and(|t| t.picks_one());
                    if settles && !settled_kinds.contains(&st.kind) {
                        settled_kinds.push(st.kind);
                    }
                }
            }
        }
        Ok(Catalog { cards, by_id, by_printing, names, keywords, vars, settled_kinds })
    }

    /// The catalog bundled with the package (compiled into the core).
    pub fn bundled() -> &'static Catalog {
        static CATALOG: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
        CATALOG.get_or_init(|| {
            Catalog::from_files(&BUNDLED).unwrap_or_else(|e| panic!("the bundled card catalog is invalid: {e}"))
        })
    }
}

fn cards_id(by_id: &HashMap<String, u16>, i: u16) -> String {
    by_id.iter().find(|(_, v)| **v == i).map(|(k, _)| k.clone()).unwrap_or_default()
}

/// The card files, as they were when the core was built.
pub const BUNDLED: [(&str, &str); 2] =
    [("KS.toml", include_str!("../../data/cards/KS.toml")), ("SS.toml", include_str!("../../data/cards/SS.toml"))];

fn line_of(text: &str, card_id: &str) -> usize {
    let needle = format!("id = \"{card_id}\"");
    for (i, line) in text.lines().enumerate() {
        if line.starts_with(&needle) {
            return i + 1;
        }
    }
    0
}

type Table = toml::map::Map<String, toml::Value>;

fn sorted_keys<'a>(keys: impl Iterator<Item = &'a String>) -> String {
    let mut v: Vec<&String> = keys.collect();
    v.sort();
    format!("[{}]", v.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(", "))
}

fn fields_of(ctype: CardType) -> (&'static [&'static str], &'static [&'static str]) {
    match ctype {
        CardType::Character => (
            &["id", "number", "name", "title", "cost", "power", "group", "keywords", "rarity", "printings", "effects"],
            &["id", "number", "name", "title", "cost", "power", "group", "keywords", "rarity", "printings"],
        ),
        CardType::Attachment => (
            &[
                "id",
                "number",
                "name",
                "cost",
                "power",
                "group",
                "keywords",
                "rarity",
                "printings",
                "effects",
                "attach_to",
            ],
            &["id", "number", "name", "cost", "power", "group", "keywords", "rarity", "printings", "attach_to"],
        ),
        CardType::Mission => (
            &["id", "number", "name", "points", "rarity", "printings", "effects"],
            &["id", "number", "name", "points", "rarity", "printings"],
        ),
    }
}

fn load_file(path: &str, text: &str, p: &mut Parser, out: &mut Vec<Card>) -> Result<(), CatalogError> {
    let stem = path.rsplit('/').next().unwrap_or(path).trim_end_matches(".toml");
    if !SETS.contains(&stem) {
        return Err(CatalogError(format!("{path}: card files are named after their set (KS, SS)")));
    }
    let doc: Table = text.parse::<Table>().map_err(|e| CatalogError(format!("{path}: not valid TOML: {e}")))?;
    let unknown: Vec<&String> =
        doc.keys().filter(|k| !["character", "attachment", "mission"].contains(&k.as_str())).collect();
    if !unknown.is_empty() {
        return Err(CatalogError(format!(
            "{path}: unknown table(s) {}; use [[character]], [[attachment]] or [[mission]]",
            sorted_keys(unknown.into_iter())
        )));
    }
    for ctype in [CardType::Character, CardType::Attachment, CardType::Mission] {
        let Some(list) = doc.get(ctype.as_str()) else {
            continue;
        };
        let Some(list) = list.as_array() else {
            return Err(CatalogError(format!("{path}: [[{}]] must be an array of tables", ctype.as_str())));
        };
        for raw in list {
            let Some(raw) = raw.as_table() else {
                return Err(CatalogError(format!("{path}: a [[{}]] entry must be a table", ctype.as_str())));
            };
            let card_id = raw.get("id").and_then(|v| v.as_str()).unwrap_or("?");
            let where_ = format!("{path}:{} ({card_id})", line_of(text, card_id));
            out.push(parse_card(ctype, raw, stem, &where_, p)?);
        }
    }
    Ok(())
}

fn int_field(raw: &Table, key: &str, where_: &str, negative_ok: bool) -> Result<Option<i64>, CatalogError> {
    match raw.get(key) {
        None => Ok(None),
        Some(toml::Value::Integer(n)) if negative_ok || *n >= 0 => Ok(Some(*n)),
        Some(v) => Err(CatalogError(format!(
            "{where_}: {key} must be a whole number{}, not {}",
            if negative_ok { "" } else { " ≥ 0" },
            crate::language::parse::repr(v)
        ))),
    }
}

fn str_field(raw: &Table, key: &str, where_: &str) -> Result<Option<String>, CatalogError> {
    match raw.get(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => {
            Err(CatalogError(format!("{where_}: {key} must be a string, not {}", crate::language::parse::repr(v))))
        }
    }
}

fn printing_ok(p: &str, set: &str) -> bool {
    // SET-NNN[_n]-RARITY
    let Some(rest) = p.strip_prefix(set).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let b = rest.as_bytes();
    if b.len() < 5 || !b[..3].iter().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let mut i = 3;
    if b[i] == b'_' {
        if b.len() < 6 || !b[4].is_ascii_digit() {
            return false;
        }
        i = 5;
    }
    if b[i] != b'-' {
        return false;
    }
    let rarity = &rest[i + 1..];
    RARITIES.contains(&rarity)
}

fn parse_card(ctype: CardType, raw: &Table, set: &str, where_: &str, p: &mut Parser) -> Result<Card, CatalogError> {
    let (allowed, required) = fields_of(ctype);
    let unknown: Vec<&String> = raw.keys().filter(|k| !allowed.contains(&k.as_str())).collect();
    if !unknown.is_empty() {
        let mut allowed_sorted: Vec<&str> = allowed.to_vec();
        allowed_sorted.sort();
        return Err(CatalogError(format!(
            "{where_}: unknown field(s) {} for a {}; allowed: [{}]",
            sorted_keys(unknown.into_iter()),
            ctype.as_str(),
            allowed_sorted.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(", ")
        )));
    }
    let mut missing: Vec<&str> = required.iter().copied().filter(|k| !raw.contains_key(*k)).collect();
    if !missing.is_empty() {
        missing.sort();
        return Err(CatalogError(format!(
            "{where_}: missing field(s) [{}]",
            missing.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(", ")
        )));
    }
    let number = int_field(raw, "number", where_, false)?.unwrap_or(0);
    let id = str_field(raw, "id", where_)?.unwrap_or_default();
    let expected = format!("{set}-{number:03}{}", if ctype == CardType::Mission { "-MMS" } else { "" });
    if id != expected {
        return Err(CatalogError(format!("{where_}: id '{id}' does not match set and number; expected '{expected}'")));
    }
    let cost = int_field(raw, "cost", where_, false)?;
    // an attachment's power may be negative: it is subtracted from its host
    let power = int_field(raw, "power", where_, ctype == CardType::Attachment)?;
    let points = int_field(raw, "points", where_, false)?;
    let group = match str_field(raw, "group", where_)? {
        None => None,
        Some(g) => Some(group_id(&g).ok_or_else(|| {
            CatalogError(format!(
                "{where_}: group '{g}' is not one of Leaf Village, Sand Village, Sound Village, Akatsuki, Independent"
            ))
        })?),
    };
    let rarity = str_field(raw, "rarity", where_)?.unwrap_or_default();
    if !RARITIES.contains(&rarity.as_str()) {
        return Err(CatalogError(format!("{where_}: rarity '{rarity}' is not one of {}", RARITIES.join(", "))));
    }
    let attach_to = str_field(raw, "attach_to", where_)?;
    if ctype == CardType::Attachment && !matches!(attach_to.as_deref(), Some("character") | Some("mission")) {
        return Err(CatalogError(format!("{where_}: attach_to must be one of ('character', 'mission')")));
    }
    let printings: Vec<String> = match raw.get("printings") {
        Some(toml::Value::Array(a)) => a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    };
    if printings.is_empty() {
        return Err(CatalogError(format!("{where_}: a card needs at least one printing")));
    }
    for pr in &printings {
        if !printing_ok(pr, set) {
            return Err(CatalogError(format!("{where_}: printing '{pr}' is not of the form {set}-NNN[_n]-RARITY")));
        }
    }
    let keywords = match raw.get("keywords") {
        Some(toml::Value::Array(a)) => {
            a.iter().filter_map(|v| v.as_str()).map(|k| KeywordId(p.keywords.id(k))).collect()
        }
        _ => Vec::new(),
    };
    let name = str_field(raw, "name", where_)?.unwrap_or_default();
    let key = name_key(&name);
    let mut effects = Vec::new();
    if let Some(list) = raw.get("effects") {
        let Some(list) = list.as_array() else {
            return Err(CatalogError(format!("{where_}: effects must be a list of effect lines")));
        };
        for (i, e) in list.iter().enumerate() {
            effects.push(parse_effect(e, &format!("{where_}, effect {}", i + 1), p)?);
        }
    }
    Ok(Card {
        index: 0,
        id_rank: 0,
        id,
        set: set.to_string(),
        number,
        ctype,
        name_key: NameId(p.names.id(&key)),
        name_lower: name.to_lowercase(),
        name,
        title: str_field(raw, "title", where_)?.unwrap_or_default(),
        rarity,
        printings,
        cost,
        power,
        group,
        keywords,
        points,
        attach_to,
        effects,
        continuous: Vec::new(),
        host: None,
        grants: Vec::new(),
        cheaper: Vec::new(),
        own_kinds: 0,
        scores: false,
        facts: Default::default(),
    })
}

fn parse_effect(raw: &toml::Value, where_: &str, p: &mut Parser) -> Result<EffectLine, CatalogError> {
    let Some(raw) = raw.as_table() else {
        return Err(CatalogError(format!(
            "{where_}: an effect line must be a table like {{ timing = \"main\", kind = \"instant\" }}"
        )));
    };
    const FIELDS: [&str; 5] = ["timing", "kind", "duel", "modifies", "do"];
    let unknown: Vec<&String> = raw.keys().filter(|k| !FIELDS.contains(&k.as_str())).collect();
    if !unknown.is_empty() {
        return Err(CatalogError(format!(
            "{where_}: unknown effect field(s) {}; allowed: ['do', 'duel', 'kind', 'modifies', 'timing']",
            sorted_keys(unknown.into_iter())
        )));
    }
    let text = |k: &str| raw.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let timing = text("timing").as_deref().and_then(Timing::parse).ok_or_else(|| {
        CatalogError(format!(
            "{where_}: timing {} is not one of {}",
            raw.get("timing").map(crate::language::parse::repr).unwrap_or("None".into()),
            TIMINGS.join(", ")
        ))
    })?;
    let kind = text("kind").as_deref().and_then(Kind::parse).ok_or_else(|| {
        CatalogError(format!(
            "{where_}: kind {} is not one of {}",
            raw.get("kind").map(crate::language::parse::repr).unwrap_or("None".into()),
            KINDS.join(", ")
        ))
    })?;
    let duel = text("duel").filter(|d| !d.is_empty());
    if timing == Timing::Duel && duel.is_none() {
        return Err(CatalogError(format!("{where_}: a DUEL line needs duel = \"<character name>\"")));
    }
    let modifies = text("modifies").as_deref().and_then(Timing::parse);
    if kind == Kind::Modifier && modifies.is_none() {
        return Err(CatalogError(format!("{where_}: a modifier line needs modifies = one of {}", TIMINGS.join(", "))));
    }
    let encoding = match raw.get("do") {
        None => None,
        Some(d) => Some(p.encoding(d, where_, kind).map_err(|e| CatalogError(e.0))?),
    };
    let duel_key = duel.as_ref().map(|d| NameId(p.names.id(&name_key(d))));
    Ok(EffectLine { timing, kind, duel, duel_key, modifies, encoding })
}

/// What the engine reads of a card again and again, worked out once: its continuous lines as
/// they are in force, where it may be attached, what it grants, what makes it cheaper.
fn derive(card: &mut Card) {
    let instant_timings: Vec<Timing> =
        card.effects.iter().filter(|l| l.kind == Kind::Instant).map(|l| l.timing).collect();
    let mods: Vec<&EffectLine> = card
        .effects
        .iter()
        .filter(|l| {
            l.kind == Kind::Modifier
                && l.duel.is_some()
                && l.encoding.as_ref().is_some_and(|e| e.modifier.is_some())
                && !l.modifies.is_some_and(|m| instant_timings.contains(&m))
        })
        .collect();
    let mut out = Vec::new();
    for l in &card.effects {
        if l.kind != Kind::Continuous {
            continue;
        }
        let Some(enc) = &l.encoding else { continue };
        let mut cur = ContinuousLine { statics: enc.statics.clone(), triggers: enc.triggers.clone() };
        if let Some(key) = l.duel_key {
            gate(&mut cur, &Condition { duel: Some(key), extra: true, ..Condition::default() });
        }
        if l.timing == Timing::FirstStrike {
            gate(&mut cur, &Condition { first_play: Some(true), extra: true, ..Condition::default() });
        }
        for m in &mods {
            if m.modifies != Some(l.timing) {
                continue;
            }
            let modifier = m.encoding.as_ref().and_then(|e| e.modifier.as_ref()).expect("a modifier");
            let key = m.duel_key.expect("a DUEL modifier");
            let mut changed = ContinuousLine {
                statics: Vec::new(),
                triggers: cur
                    .triggers
                    .iter()
                    .map(|t| {
                        let mut t = t.clone();
                        if modifier.mode == ModMode::Instead {
                            t.steps = modifier.steps.clone();
                        } else {
                            t.steps.extend(modifier.steps.iter().cloned());
                        }
                        t
                    })
                    .collect(),
            };
            gate(&mut changed, &Condition { duel: Some(key), extra: true, ..Condition::default() });
            out.push(changed);
            // the unchanged triggers hold only while the duel does not (statics stay)
            let not = Condition { not_duel: Some(key), extra: true, ..Condition::default() };
            for t in cur.triggers.iter_mut() {
                t.cond = Some(Condition::and(t.cond.as_ref(), &not));
            }
        }
        out.push(cur);
    }
    card.continuous = out;
    for l in &card.effects {
        if l.timing == Timing::Attach
            && let Some(e) = &l.encoding
        {
            if e.host.is_some() {
                card.host = e.host.clone();
            }
            card.grants.extend(e.grants.iter().copied());
        }
    }
    let mut cheaper = Vec::new();
    for l in &card.effects {
        if l.kind != Kind::Instant {
            continue;
        }
        if let Some(e) = &l.encoding
            && !e.steps.is_empty()
            && e.steps.iter().all(|s| s.verb == Verb::Cheaper)
        {
            for s in &e.steps {
                if let Some(crate::language::Number::Int(n)) = s.number() {
                    cheaper.push((l.timing, *n));
                }
            }
        }
    }
    card.cheaper = cheaper;
    card.own_kinds = card.continuous.iter().flat_map(|c| c.statics.iter()).fold(0, |k, s| k | 1 << s.kind.index());
    card.scores = card.effects.iter().any(|l| l.scoring().is_some());
    card.facts = crate::players::CardFacts::of(card);
}

fn gate(line: &mut ContinuousLine, cond: &Condition) {
    for s in line.statics.iter_mut() {
        s.cond = Some(Condition::and(s.cond.as_ref(), cond));
    }
    for t in line.triggers.iter_mut() {
        t.cond = Some(Condition::and(t.cond.as_ref(), cond));
    }
}

/// Every step inside an encoding, nested ones included (for coverage and checks).
pub fn walk_steps<'a>(steps: &'a [Step], out: &mut Vec<&'a Step>) {
    for s in steps {
        out.push(s);
        walk_steps(&s.opts.do_, out);
        if let crate::language::Arg::Branches(bs) = &s.arg {
            for b in bs {
                walk_steps(b, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_catalog_loads() {
        let cat = Catalog::bundled();
        assert_eq!(cat.cards.len(), 318);
        let c = cat.card("KS-108-RA").expect("a printing");
        assert_eq!(c.id, "KS-108");
        assert!(cat.cards.iter().filter(|c| !c.effects.is_empty()).count() >= 313);
    }

    #[test]
    fn errors_name_the_place() {
        let bad = "[[character]]\nid = \"KS-001\"\nnumber = 1\nname = \"A\"\ntitle = \"B\"\ncost = 1\npower = 1\ngroup = \"Leaf Village\"\nkeywords = []\nrarity = \"C\"\nprintings = [\"KS-001-C\"]\neffects = [{ timing = \"main\", kind = \"instant\", do = [{ powerup = 2, tagret = \"self\" }] }]\n";
        let e = Catalog::from_files(&[("KS.toml", bad)]).unwrap_err();
        assert!(
            e.0.starts_with("KS.toml:2 (KS-001), effect 1, clause 1: unknown field(s) ['tagret'] on powerup"),
            "{e}"
        );
    }
}
