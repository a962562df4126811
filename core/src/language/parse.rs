//! Reading the effect language from the card files' TOML, with errors that name the place.

use super::*;
use crate::cards::Kind;
use crate::names::{Interner, group_id, name_key};

/// An encoding uses an unknown verb or field, or a value of the wrong kind.
#[derive(Clone, Debug, PartialEq)]
pub struct LanguageError(pub String);

type R<T> = Result<T, LanguageError>;
type Table = toml::map::Map<String, toml::Value>;

fn err<T>(msg: String) -> R<T> {
    Err(LanguageError(msg))
}

/// A TOML value as Python's repr would show it (the error messages quote values).
pub fn repr(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("'{s}'"),
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => {
            if *b {
                "True".into()
            } else {
                "False".into()
            }
        }
        toml::Value::Array(a) => format!("[{}]", a.iter().map(repr).collect::<Vec<_>>().join(", ")),
        toml::Value::Table(t) => {
            format!("{{{}}}", t.iter().map(|(k, v)| format!("'{k}': {}", repr(v))).collect::<Vec<_>>().join(", "))
        }
        toml::Value::Datetime(d) => d.to_string(),
    }
}

fn keys_repr(mut keys: Vec<&str>) -> String {
    keys.sort();
    format!("[{}]", keys.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(", "))
}

const SEL_FIELDS: &[&str] = &[
    "side",
    "self",
    "other",
    "where",
    "hidden",
    "group",
    "keyword",
    "not_keyword",
    "name",
    "names",
    "not_name",
    "power_max",
    "power_min",
    "power_eq",
    "cost_max",
    "cost_min",
    "printed_cost_max",
    "upgraded",
    "has_tokens",
    "no_tokens",
    "var",
    "not_var",
    "pick",
    "count",
    "played_last_turn",
    "power_lt_self",
    "power_le_self",
    "cost_lt",
    "power_max_var",
    "cost_max_var",
    "per_mission",
    "name_var",
    "not_group",
    "name_has",
    "with_attachment",
    "controlled",
    "owned",
    "moved_last_turn",
    "discounted",
    "unique_name",
    "sole",
    "printed_power_min",
    "printed_power_lt_self",
    "power_eq_self",
    "power_lt",
    "cost_le",
    "card_type",
    "keywords",
    "on",
];
const SS_FIELDS: [&str; 16] = [
    "not_group",
    "name_has",
    "with_attachment",
    "controlled",
    "owned",
    "moved_last_turn",
    "discounted",
    "unique_name",
    "sole",
    "printed_power_min",
    "printed_power_lt_self",
    "power_eq_self",
    "power_lt",
    "cost_le",
    "card_type",
    "keywords",
];

const COND_FIELDS: &[&str] = &[
    "edge",
    "exists",
    "absent",
    "only",
    "winning",
    "fewer_nonhidden_than_enemy",
    "hand_empty",
    "var_min",
    "var_max",
    "var_set",
    "duel",
    "not_duel",
    "first_play",
    "here",
    "exists_any",
    "var_unset",
    "var_ge",
    "in_hand",
    "discard_min",
    "attachment",
    "evaluating",
    "self_attached",
];

/// The argument shape of each verb and the options it takes (besides the generic ones).
pub fn verb_spec(name: &str) -> Option<(Verb, &'static str, &'static [&'static str])> {
    Some(match name {
        "powerup" => (Verb::Powerup, "number", &["target"]),
        "remove_tokens" => (Verb::RemoveTokens, "number_or_all", &["target", "give_self"]),
        "gain_chakra" => (Verb::GainChakra, "number", &["who"]),
        "steal_chakra" => (Verb::StealChakra, "number", &[]),
        "draw" => (Verb::Draw, "number", &["who"]),
        "discard" => (Verb::Discard, "number_or_all", &["who", "chooser", "random", "filter"]),
        "look_hand" => (Verb::LookHand, "none", &[]),
        "look_hidden" => (Verb::LookHidden, "selector", &[]),
        "move" => (Verb::Move, "selector", &["to"]),
        "hide" => (Verb::Hide, "selector", &["and", "chooser"]),
        "defeat" => (Verb::Defeat, "selector", &["and", "chooser", "reveal"]),
        "take_control" => (Verb::TakeControl, "selector", &["move", "pay"]),
        "return_to_hand" => (Verb::ReturnToHand, "selector", &[]),
        "play" => (Verb::Play, "selector_or_none", &["from", "to", "discount", "look", "upgrade", "many"]),
        "place_hidden" => (Verb::PlaceHidden, "none", &["from", "to"]),
        "gain_edge" => (Verb::GainEdge, "none", &["lock"]),
        "gain_points" => (Verb::GainPoints, "number", &[]),
        "spend_chakra" => (Verb::SpendChakra, "none", &[]),
        "discard_top" => (Verb::DiscardTop, "none", &["who"]),
        "search_top" => (Verb::SearchTop, "number", &["filter", "take", "rest"]),
        "put_on_deck" => (Verb::PutOnDeck, "number", &[]),
        "repeat" => (Verb::Repeat, "none", &["line"]),
        "copy" => (Verb::Copy, "selector_or_var", &["lines"]),
        "retrieve" => (Verb::Retrieve, "selector_or_none", &["topmost"]),
        "strip_top" => (Verb::StripTop, "selector", &[]),
        "choose_mission" => (Verb::ChooseMission, "none", &[]),
        "reveal_or_defeat" => (Verb::RevealOrDefeat, "selector", &["more"]),
        "special" => (Verb::Special, "name", &[]),
        "declare" => (Verb::Declare, "number", &[]),
        "cheaper" => (Verb::Cheaper, "number", &[]),
        "reveal_top" => (Verb::RevealTop, "none", &["who"]),
        "look_top" => (Verb::LookTop, "none", &["who", "bottom"]),
        "dig" => (Verb::Dig, "selector", &[]),
        "search_deck" => (Verb::SearchDeck, "selector", &["take"]),
        "pay_chakra" => (Verb::PayChakra, "number", &[]),
        "reveal_hand" => (Verb::RevealHand, "number_or_all", &["who", "random", "filter"]),
        "for_each" => (Verb::ForEach, "selector", &["do"]),
        "for_each_mission" => (Verb::ForEachMission, "selector", &["do"]),
        "times" => (Verb::Times, "number", &["do"]),
        "one_of" => (Verb::OneOf, "branches", &[]),
        "attach" => (Verb::Attach, "selector_or_none", &["from", "to", "discount", "hidden"]),
        "attach_self" => (Verb::AttachSelf, "selector", &["power"]),
        "discard_attachment" => (Verb::DiscardAttachment, "selector", &[]),
        "move_attachment" => (Verb::MoveAttachment, "selector_or_var", &["onto", "ignore"]),
        "take_back" => (Verb::TakeBack, "selector", &[]),
        "split_bottom" => (Verb::SplitBottom, "none", &[]),
        "discard_from_stack" => (Verb::DiscardFromStack, "selector", &["filter"]),
        "recycle" => (Verb::Recycle, "number", &[]),
        "activate" => (Verb::Activate, "selector", &["line"]),
        _ => return None,
    })
}

pub const VERB_NAMES: [&str; 49] = [
    "powerup",
    "remove_tokens",
    "gain_chakra",
    "steal_chakra",
    "draw",
    "discard",
    "look_hand",
    "look_hidden",
    "move",
    "hide",
    "defeat",
    "take_control",
    "return_to_hand",
    "play",
    "place_hidden",
    "gain_edge",
    "gain_points",
    "spend_chakra",
    "discard_top",
    "search_top",
    "put_on_deck",
    "repeat",
    "copy",
    "retrieve",
    "strip_top",
    "choose_mission",
    "reveal_or_defeat",
    "special",
    "declare",
    "cheaper",
    "reveal_top",
    "look_top",
    "dig",
    "search_deck",
    "pay_chakra",
    "reveal_hand",
    "for_each",
    "for_each_mission",
    "times",
    "one_of",
    "attach",
    "attach_self",
    "discard_attachment",
    "move_attachment",
    "take_back",
    "split_bottom",
    "discard_from_stack",
    "recycle",
    "activate",
];

pub fn verb_name(v: Verb) -> &'static str {
    VERB_NAMES.iter().copied().find(|n| verb_spec(n).map(|s| s.0) == Some(v)).unwrap_or("?")
}

const GENERIC_KEYS: [&str; 5] = ["target", "if", "must", "as", "may"];

pub const STATIC_NAMES: [(&str, StaticKind); STATIC_KINDS] = [
    ("power", StaticKind::Power),
    ("power_zero", StaticKind::PowerZero),
    ("chakra", StaticKind::Chakra),
    ("cost", StaticKind::Cost),
    ("reveal_cost", StaticKind::RevealCost),
    ("no_play_hidden", StaticKind::NoPlayHidden),
    ("no_move_from", StaticKind::NoMoveFrom),
    ("play_only_winning", StaticKind::PlayOnlyWinning),
    ("immune", StaticKind::Immune),
    ("defeat_to_hand", StaticKind::DefeatToHand),
    ("defeat_becomes_hide", StaticKind::DefeatBecomesHide),
    ("keep_tokens", StaticKind::KeepTokens),
    ("upgrade_over", StaticKind::UpgradeOver),
    ("play_cost", StaticKind::PlayCost),
    ("sacrifice", StaticKind::Sacrifice),
    ("tax", StaticKind::Tax),
    ("powerup_bonus", StaticKind::PowerupBonus),
    ("no_tokens", StaticKind::NoTokens),
    ("blank", StaticKind::Blank),
    ("many_attachments", StaticKind::ManyAttachments),
    ("no_attachments", StaticKind::NoAttachments),
    ("attachment_power", StaticKind::AttachmentPower),
    ("see_hidden", StaticKind::SeeHidden),
    ("mission_points", StaticKind::MissionPoints),
    ("side_power", StaticKind::SidePower),
    ("score_twice", StaticKind::ScoreTwice),
    ("grant_line", StaticKind::GrantLine),
    ("ambush_on_play", StaticKind::AmbushOnPlay),
    ("reveal_tax", StaticKind::RevealTax),
    ("phantom", StaticKind::Phantom),
];

pub fn static_name(k: StaticKind) -> &'static str {
    STATIC_NAMES.iter().find(|(_, x)| *x == k).map(|(n, _)| *n).unwrap_or("?")
}

pub const TRIGGER_NAMES: [(&str, TriggerOn); TRIGGER_KINDS] = [
    ("defeated", TriggerOn::Defeated),
    ("played", TriggerOn::Played),
    ("end_of_round", TriggerOn::EndOfRound),
    ("lost_mission", TriggerOn::LostMission),
    ("moved", TriggerOn::Moved),
    ("start_of_round", TriggerOn::StartOfRound),
    ("attached", TriggerOn::Attached),
    ("passed", TriggerOn::Passed),
    ("before_evaluation", TriggerOn::BeforeEvaluation),
];

const STATIC_KEYS: [&str; 19] = [
    "static",
    "n",
    "target",
    "if",
    "min",
    "each",
    "both",
    "events",
    "from",
    "over",
    "per",
    "when",
    "anywhere",
    "attachment",
    "times",
    "filter",
    "timing",
    "do",
    "lose_tokens",
];

/// Interners the parser fills: names, keywords and remembered values.
pub struct Parser<'a> {
    pub names: &'a mut Interner,
    pub keywords: &'a mut Interner,
    pub vars: &'a mut Interner,
}

fn as_int(v: &toml::Value, where_: &str, key: &str) -> R<i64> {
    match v {
        toml::Value::Integer(n) => Ok(*n),
        _ => err(format!("{where_}: {key} must be a whole number, not {}", repr(v))),
    }
}

fn truthy(v: &toml::Value) -> bool {
    match v {
        toml::Value::Boolean(b) => *b,
        toml::Value::Integer(n) => *n != 0,
        toml::Value::String(s) => !s.is_empty(),
        toml::Value::Array(a) => !a.is_empty(),
        toml::Value::Table(t) => !t.is_empty(),
        _ => true,
    }
}

fn opt_bool(v: &toml::Value, where_: &str, key: &str) -> R<bool> {
    match v {
        toml::Value::Boolean(b) => Ok(*b),
        _ => err(format!("{where_}: {key} must be true or false, not {}", repr(v))),
    }
}

fn string_list(v: &toml::Value) -> Vec<String> {
    match v {
        toml::Value::String(s) => vec![s.clone()],
        toml::Value::Array(a) => a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}

impl Parser<'_> {
    fn var(&mut self, s: &str) -> VarId {
        VarId(self.vars.id(s))
    }

    fn var_of(&mut self, v: &toml::Value, where_: &str, key: &str) -> R<VarId> {
        match v.as_str() {
            Some(s) => Ok(self.var(s)),
            None => err(format!("{where_}: {key} names a remembered value, not {}", repr(v))),
        }
    }

    fn keyword(&mut self, v: &toml::Value, where_: &str, key: &str) -> R<KeywordId> {
        match v.as_str() {
            Some(s) => Ok(KeywordId(self.keywords.id(s))),
            None => err(format!("{where_}: {key} must be a keyword (a string), not {}", repr(v))),
        }
    }

    fn group(&mut self, v: &toml::Value, where_: &str, key: &str) -> R<crate::names::GroupId> {
        match v.as_str().and_then(group_id) {
            Some(g) => Ok(g),
            None => err(format!(
                "{where_}: {key} must be one of Leaf Village, Sand Village, Sound Village, Akatsuki, Independent, not {}",
                repr(v)
            )),
        }
    }

    fn name(&mut self, s: &str) -> crate::names::NameId {
        crate::names::NameId(self.names.id(&name_key(s)))
    }

    pub fn selector(&mut self, raw: &toml::Value, where_: &str) -> R<Selector> {
        if raw.as_str() == Some("self") {
            return Ok(Selector::this());
        }
        let Some(t) = raw.as_table() else {
            return err(format!(
                "{where_}: a selector is a table like {{ side = \"enemy\", where = \"this\" }} or \"self\""
            ));
        };
        let unknown: Vec<&str> = t.keys().map(String::as_str).filter(|k| !SEL_FIELDS.contains(k)).collect();
        if !unknown.is_empty() {
            return err(format!("{where_}: unknown selector field(s) {}", keys_repr(unknown)));
        }
        let mut s = Selector::default();
        if t.keys().any(|k| SS_FIELDS.contains(&k.as_str())) || (t.get("self").is_some_and(truthy) && t.len() > 1) {
            s.extra = true;
        }
        for (k, v) in t {
            let k = k.as_str();
            match k {
                "side" => {
                    s.side = match v.as_str() {
                        Some("friendly") => Side::Friendly,
                        Some("enemy") => Side::Enemy,
                        Some("any") => Side::Any,
                        _ => {
                            return err(format!("{where_}: side must be one of ('friendly', 'enemy', 'any')"));
                        }
                    }
                }
                "where" => {
                    s.where_ = match v.as_str() {
                        Some("this") => Where::This,
                        Some("in_play") => Where::InPlay,
                        Some("other_missions") => Where::OtherMissions,
                        Some("chosen") => Where::Chosen,
                        _ => {
                            return err(format!(
                                "{where_}: where must be one of ('this', 'in_play', 'other_missions', 'chosen')"
                            ));
                        }
                    }
                }
                "self" => s.self_ = truthy(v),
                "name" | "names" => s.names = string_list(v).iter().map(|n| self.name(n)).collect(),
                "not_name" => s.not_name = string_list(v).iter().map(|n| self.name(n)).collect(),
                "pick" => {
                    s.pick = Some(match v.as_str() {
                        Some("weakest") => Pick::Weakest,
                        Some("strongest") => Pick::Strongest,
                        Some("lowest_cost") => Pick::LowestCost,
                        Some("strongest_unique") => Pick::StrongestUnique,
                        _ => {
                            return err(format!(
                                "{where_}: pick must be one of ('weakest', 'strongest', 'lowest_cost', 'strongest_unique')"
                            ));
                        }
                    })
                }
                "count" => s.count = self.count(v, where_)?,
                "power_max" => s.power_max = Some(as_int(v, where_, k)?),
                "power_min" => s.power_min = Some(as_int(v, where_, k)?),
                "power_eq" => s.power_eq = Some(as_int(v, where_, k)?),
                "cost_max" => s.cost_max = Some(as_int(v, where_, k)?),
                "cost_min" => s.cost_min = Some(as_int(v, where_, k)?),
                "printed_cost_max" => s.printed_cost_max = Some(as_int(v, where_, k)?),
                "printed_power_min" => s.printed_power_min = Some(as_int(v, where_, k)?),
                "cost_lt" => s.cost_lt = Some(self.number(v, where_)?),
                "cost_le" => s.cost_le = Some(self.number(v, where_)?),
                "power_lt" => s.power_lt = Some(self.number(v, where_)?),
                "with_attachment" => s.with_attachment = Some(Box::new(self.selector(v, where_)?)),
                "keywords" => {
                    s.keywords = string_list(v).iter().map(|x| KeywordId(self.keywords.id(x))).collect();
                }
                "card_type" => {
                    s.card_type = Some(match v.as_str() {
                        Some("character") => CardTypeSel::Character,
                        Some("attachment") => CardTypeSel::Attachment,
                        Some("any") => CardTypeSel::Any,
                        _ => {
                            return err(format!(
                                "{where_}: card_type must be one of ('character', 'attachment', 'any')"
                            ));
                        }
                    })
                }
                "on" => {
                    s.on = Some(match v.as_str() {
                        Some("character") => On::Character,
                        Some("mission") => On::Mission,
                        _ => return err(format!("{where_}: on must be character or mission")),
                    })
                }
                "no_tokens" => s.has_tokens = if truthy(v) { Some(false) } else { None },
                "hidden" => s.hidden = Some(opt_bool(v, where_, k)?),
                "group" => s.group = Some(self.group(v, where_, k)?),
                "not_group" => s.not_group = Some(self.group(v, where_, k)?),
                "keyword" => s.keyword = Some(self.keyword(v, where_, k)?),
                "not_keyword" => s.not_keyword = Some(self.keyword(v, where_, k)?),
                "upgraded" => s.upgraded = Some(opt_bool(v, where_, k)?),
                "has_tokens" => s.has_tokens = Some(opt_bool(v, where_, k)?),
                "var" => s.var = Some(self.var_of(v, where_, k)?),
                "not_var" => s.not_var = Some(self.var_of(v, where_, k)?),
                "power_max_var" => s.power_max_var = Some(self.var_of(v, where_, k)?),
                "cost_max_var" => s.cost_max_var = Some(self.var_of(v, where_, k)?),
                "name_var" => {
                    let name = v.as_str().unwrap_or_default().to_string();
                    s.name_var = Some(self.var(&name));
                    s.name_var_key = Some(self.var(&format!("{name}_name")));
                }
                "name_has" => {
                    s.name_has = v.as_str().map(str::to_lowercase);
                    s.name_has_text = v.as_str().map(str::to_string);
                }
                "other" => s.other = truthy(v),
                "played_last_turn" => s.played_last_turn = truthy(v),
                "power_lt_self" => s.power_lt_self = truthy(v),
                "power_le_self" => s.power_le_self = truthy(v),
                "per_mission" => s.per_mission = truthy(v),
                "controlled" => s.controlled = Some(opt_bool(v, where_, k)?),
                "owned" => s.owned = Some(opt_bool(v, where_, k)?),
                "moved_last_turn" => s.moved_last_turn = truthy(v),
                "discounted" => s.discounted = truthy(v),
                "unique_name" => s.unique_name = truthy(v),
                "sole" => s.sole = truthy(v),
                "printed_power_lt_self" => s.printed_power_lt_self = truthy(v),
                "power_eq_self" => s.power_eq_self = truthy(v),
                _ => unreachable!("checked above"),
            }
        }
        s.asks = s.asks_now();
        Ok(s)
    }

    fn count(&mut self, v: &toml::Value, where_: &str) -> R<CountForm> {
        match v {
            toml::Value::String(s) if s == "all" => return Ok(CountForm::All),
            toml::Value::String(s) if s == "any" => return Ok(CountForm::UpTo(Number::Int(ANY))),
            toml::Value::Integer(1) => return Ok(CountForm::One),
            toml::Value::Table(t) if t.len() == 1 => {
                let (form, n) = t.iter().next().expect("one entry");
                let n = self.number(n, where_)?;
                match form.as_str() {
                    "up_to" => return Ok(CountForm::UpTo(n)),
                    "keep" => return Ok(CountForm::Keep(n)),
                    "total_power_max" => return Ok(CountForm::PowerTotal(n)),
                    "total_cost_max" => return Ok(CountForm::CostTotal(n)),
                    _ => {}
                }
            }
            _ => {}
        }
        err(format!("{where_}: count is 1, \"all\", {{ up_to = N }}, {{ keep = N }} or {{ total_power_max = N }}"))
    }

    pub fn number(&mut self, raw: &toml::Value, where_: &str) -> R<Number> {
        match raw {
            toml::Value::Boolean(_) => return err(format!("{where_}: a number, not a boolean")),
            toml::Value::Integer(n) => return Ok(Number::Int(*n)),
            toml::Value::String(s) => return Ok(Number::Var(self.var(&s.to_lowercase()))),
            toml::Value::Table(t) => {
                const FORMS: [(&str, CountKind); 8] = [
                    ("count", CountKind::Units),
                    ("missions_with", CountKind::Units),
                    ("missions", CountKind::Missions),
                    ("attachments", CountKind::Attachments),
                    ("stack", CountKind::Stack),
                    ("attachment_cost", CountKind::AttachmentCost),
                    ("power_of", CountKind::PowerOf),
                    ("cost_of", CountKind::CostOf),
                ];
                let forms: Vec<&str> =
                    t.keys().map(String::as_str).filter(|k| FORMS.iter().any(|(f, _)| f == k)).collect();
                if forms.len() == 1 && t.keys().all(|k| k == forms[0] || k == "plus" || k == "times") {
                    let form = forms[0];
                    let v = &t[form];
                    let sel = if v.is_table() { Some(self.selector(v, where_)?) } else { None };
                    if ["count", "missions_with", "attachments", "attachment_cost", "power_of", "cost_of"]
                        .contains(&form)
                        && sel.is_none()
                    {
                        return err(format!("{where_}: {form} takes a selector table"));
                    }
                    let plus = match t.get("plus") {
                        Some(p) => as_int(p, where_, "plus")?,
                        None => 0,
                    };
                    let times = match t.get("times") {
                        Some(p) => as_int(p, where_, "times")?,
                        None => 1,
                    };
                    let kind = FORMS.iter().find(|(f, _)| *f == form).expect("a form").1;
                    return Ok(Number::Count(Box::new(Count {
                        selector: sel,
                        missions: form == "missions_with",
                        plus,
                        times,
                        kind,
                    })));
                }
            }
            _ => {}
        }
        err(format!(
            "{where_}: a number is N, a remembered value name, or one of {{ count = … | missions_with = … | missions = … | attachments = … | stack = … | attachment_cost = … | power_of = … | cost_of = … }} (with optional plus, times)"
        ))
    }

    pub fn condition(&mut self, raw: &toml::Value, where_: &str) -> R<Condition> {
        let Some(t) = raw.as_table() else {
            return err(format!("{where_}: a condition is a table, e.g. {{ edge = true }}"));
        };
        let unknown: Vec<&str> = t.keys().map(String::as_str).filter(|k| !COND_FIELDS.contains(k)).collect();
        if !unknown.is_empty() {
            let mut allowed: Vec<&str> = COND_FIELDS.to_vec();
            allowed.sort();
            return err(format!(
                "{where_}: unknown condition field(s) {}; allowed {}",
                keys_repr(unknown),
                keys_repr(allowed)
            ));
        }
        let mut c = Condition::default();
        for (k, v) in t {
            let k = k.as_str();
            match k {
                "exists" => c.exists = Some(self.selector(v, where_)?),
                "absent" => c.absent = Some(self.selector(v, where_)?),
                "only" => c.only = Some(self.selector(v, where_)?),
                "here" => c.here = Some(self.selector(v, where_)?),
                "in_hand" => c.in_hand = Some(self.selector(v, where_)?),
                "attachment" => c.attachment = Some(self.selector(v, where_)?),
                "self_attached" => c.self_attached = Some(self.selector(v, where_)?),
                "exists_any" => {
                    let Some(a) = v.as_array() else {
                        return err(format!("{where_}: exists_any is a list of selectors"));
                    };
                    c.exists_any = a.iter().map(|x| self.selector(x, where_)).collect::<R<_>>()?;
                }
                "duel" => c.duel = Some(self.name(v.as_str().unwrap_or_default())),
                "not_duel" => c.not_duel = Some(self.name(v.as_str().unwrap_or_default())),
                "var_ge" => match v.as_array() {
                    Some(a) if a.len() == 2 => {
                        c.var_ge = Some((self.number(&a[0], where_)?, self.number(&a[1], where_)?))
                    }
                    _ => return err(format!("{where_}: var_ge is [number, number]")),
                },
                "discard_min" => c.discard_min = Some(as_int(v, where_, k)?),
                "var_min" | "var_max" => match v.as_array() {
                    Some(a) if a.len() == 2 => {
                        let pair = (self.number(&a[0], where_)?, as_int(&a[1], where_, k)?);
                        if k == "var_min" {
                            c.var_min = Some(pair);
                        } else {
                            c.var_max = Some(pair);
                        }
                    }
                    _ => {
                        return err(format!(
                            "{where_}: {k} is [number, N], e.g. [\"x\", 2] or [{{ count = {{…}} }}, 2]"
                        ));
                    }
                },
                "edge" => c.edge = Some(opt_bool(v, where_, k)?),
                "winning" => c.winning = Some(opt_bool(v, where_, k)?),
                "fewer_nonhidden_than_enemy" => c.fewer_nonhidden_than_enemy = truthy(v),
                "hand_empty" => c.hand_empty = Some(opt_bool(v, where_, k)?),
                "var_set" => c.var_set = Some(self.var_of(v, where_, k)?),
                "var_unset" => c.var_unset = Some(self.var_of(v, where_, k)?),
                "first_play" => c.first_play = Some(opt_bool(v, where_, k)?),
                "evaluating" => c.evaluating = Some(opt_bool(v, where_, k)?),
                _ => unreachable!("checked above"),
            }
        }
        c.compute_extra();
        Ok(c)
    }

    pub fn step(&mut self, raw: &toml::Value, where_: &str) -> R<Step> {
        let Some(t) = raw.as_table() else {
            return err(format!("{where_}: a step is a table"));
        };
        let verbs: Vec<&str> = t.keys().map(String::as_str).filter(|k| verb_spec(k).is_some()).collect();
        if verbs.len() != 1 {
            let mut known: Vec<&str> = VERB_NAMES.to_vec();
            known.sort();
            return err(format!(
                "{where_}: a step needs exactly one verb (one of: {}); got {}",
                known.join(", "),
                keys_repr(t.keys().map(String::as_str).collect())
            ));
        }
        let name = verbs[0];
        let (verb, arg_kind, opts) = verb_spec(name).expect("a verb");
        let unknown: Vec<&str> = t
            .keys()
            .map(String::as_str)
            .filter(|k| *k != name && !GENERIC_KEYS.contains(k) && !opts.contains(k))
            .collect();
        if !unknown.is_empty() {
            let mut allowed: Vec<&str> = GENERIC_KEYS.iter().chain(opts.iter()).copied().collect();
            allowed.sort();
            allowed.dedup();
            return err(format!(
                "{where_}: unknown field(s) {} on {name}; allowed: {}",
                keys_repr(unknown),
                allowed.join(", ")
            ));
        }
        let value = &t[name];
        let arg = match arg_kind {
            "number" => Arg::Number(self.number(value, where_)?),
            "number_or_all" => {
                if value.as_str() == Some("all") {
                    Arg::All
                } else {
                    Arg::Number(self.number(value, where_)?)
                }
            }
            "selector" => Arg::Selector(Box::new(self.selector(value, where_)?)),
            "selector_or_none" => {
                if value.is_table() {
                    Arg::Selector(Box::new(self.selector(value, where_)?))
                } else {
                    Arg::None
                }
            }
            "selector_or_var" => {
                if value.is_table() {
                    Arg::Selector(Box::new(self.selector(value, where_)?))
                } else {
                    Arg::Name(match value {
                        toml::Value::String(s) => s.clone(),
                        other => repr(other),
                    })
                }
            }
            "branches" => {
                let ok = value
                    .as_array()
                    .is_some_and(|a| a.len() >= 2 && a.iter().all(|b| b.as_array().is_some_and(|b| !b.is_empty())));
                if !ok {
                    return err(format!("{where_}: one_of is a list of at least two step lists"));
                }
                let mut branches = Vec::new();
                for (i, b) in value.as_array().expect("checked").iter().enumerate() {
                    let here = format!("{where_}, option {}", i + 1);
                    branches.push(
                        b.as_array().expect("checked").iter().map(|s| self.step(s, &here)).collect::<R<Vec<_>>>()?,
                    );
                }
                Arg::Branches(branches)
            }
            "name" => {
                return err(format!("{where_}: unknown special {}; known: none", repr(value)));
            }
            _ => Arg::None,
        };
        let mut o = StepOpts::default();
        for (k, v) in t {
            let k = k.as_str();
            match k {
                "to" => {
                    o.to = Some(match v.as_str() {
                        Some("other") => Dest::Other,
                        Some("this") => Dest::This,
                        Some("any") => Dest::Any,
                        Some("anywhere") => Dest::Anywhere,
                        Some("to_or_from") => Dest::ToOrFrom,
                        Some("that") => Dest::That,
                        _ => {
                            return err(format!("{where_}: to must be other, this, any, anywhere, to_or_from or that"));
                        }
                    })
                }
                "who" => {
                    o.who = match v.as_str() {
                        Some("opponent") => Some(Who::Opponent),
                        Some("each") => Some(Who::Each),
                        Some("you") => None,
                        _ => {
                            return err(format!("{where_}: who must be opponent or each, not {}", repr(v)));
                        }
                    }
                }
                "chooser" => match v.as_str() {
                    Some("you") => o.chooser_you = true,
                    Some("opponent") => o.chooser_opponent = true,
                    _ => return err(format!("{where_}: chooser must be you or opponent")),
                },
                "random" => o.random = truthy(v),
                "from" => {
                    o.from = Some(match v.as_str() {
                        Some("hand") => From::Hand,
                        Some("hand_or_hidden") => From::HandOrHidden,
                        Some("hidden") => From::Hidden,
                        Some("discard") => From::Discard,
                        Some("deck_top") => From::DeckTop,
                        Some("opponent_deck_top") => From::OpponentDeckTop,
                        Some("deck") => From::Deck,
                        _ => {
                            return err(format!(
                                "{where_}: from must be hand, hand_or_hidden, hidden, discard, deck_top, opponent_deck_top or deck"
                            ));
                        }
                    })
                }
                "discount" => o.discount = Some(self.number(v, where_)?),
                "hidden" => o.hidden = truthy(v),
                "give_self" => o.give_self = truthy(v),
                "lock" => o.lock = truthy(v),
                "line" => o.line = v.as_str().map(str::to_string),
                "filter" => o.filter = Some(self.selector(v, where_)?),
                "look" => o.look = Some(as_int(v, where_, k)?),
                "move" => o.move_ = truthy(v),
                "and" => o.and = Some(self.selector(v, where_)?),
                "lines" => match v.as_str() {
                    Some("any") => o.lines_set = true,
                    Some("non_upgrade") => {
                        o.lines_set = true;
                        o.non_upgrade_lines = true;
                    }
                    _ => return err(format!("{where_}: lines must be any or non_upgrade")),
                },
                "more" => o.more = Some(as_int(v, where_, "more")?),
                "do" => {
                    let Some(a) = v.as_array().filter(|a| !a.is_empty()) else {
                        return err(format!("{where_}: do is a non-empty list of steps"));
                    };
                    o.has_do = true;
                    for (i, s) in a.iter().enumerate() {
                        let st = self.step(s, &format!("{where_}, do {}", i + 1))?;
                        o.do_.push(st);
                    }
                }
                "take" => {
                    o.take = Some(match v {
                        toml::Value::Integer(n) => *n,
                        toml::Value::Boolean(b) => *b as i64,
                        _ => return err(format!("{where_}: take must be a whole number or true")),
                    })
                }
                "rest" => o.rest = v.as_str().map(str::to_string),
                "bottom" => o.bottom = truthy(v),
                "pay" => match v.as_str() {
                    Some("power") => o.pay_power = true,
                    _ => return err(format!("{where_}: pay must be power")),
                },
                "upgrade" => o.upgrade = Some(truthy(v)),
                "many" => o.many = truthy(v),
                "reveal" => o.reveal = truthy(v),
                "onto" => {
                    o.onto = Some(if v.as_str() == Some("self") {
                        Onto::This
                    } else {
                        Onto::Selector(Box::new(self.selector(v, where_)?))
                    })
                }
                "ignore" => o.ignore = truthy(v),
                "power" => o.power = Some(as_int(v, where_, k)?),
                "topmost" => o.topmost = truthy(v),
                "may" => o.may = truthy(v),
                _ => {}
            }
        }
        let target = match t.get("target") {
            Some(v) => Some(self.selector(v, where_)?),
            None => None,
        };
        let cond = match t.get("if") {
            Some(v) => Some(self.condition(v, where_)?),
            None => None,
        };
        let as_ = match t.get("as") {
            Some(v) => Some(self.var_of(v, where_, "as")?),
            None => None,
        };
        Ok(Step { verb, arg, target, cond, opts: o, must: t.get("must").is_some_and(truthy), as_ })
    }

    fn static_(&mut self, t: &Table, where_: &str) -> R<Static> {
        let name = t.get("static").and_then(|v| v.as_str()).unwrap_or_default();
        let Some(kind) = STATIC_NAMES.iter().find(|(n, _)| *n == name).map(|(_, k)| *k) else {
            return err(format!(
                "{where_}: unknown static '{name}'; known: {}",
                STATIC_NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            ));
        };
        let unknown: Vec<&str> =
            t.keys().map(String::as_str).filter(|k| !STATIC_KEYS.contains(k) && *k != "keyword").collect();
        if !unknown.is_empty() {
            return err(format!("{where_}: unknown field(s) {} on static {name}", keys_repr(unknown)));
        }
        let mut o = StaticOpts::default();
        for (k, v) in t {
            match k.as_str() {
                "min" => o.min = Some(as_int(v, where_, "min")?),
                "both" => {
                    o.both = match v {
                        toml::Value::String(s) if s == "losing" => Both::Losing,
                        v if truthy(v) => Both::Yes,
                        _ => Both::No,
                    }
                }
                "events" => {
                    let mut ev = Vec::new();
                    for e in string_list(v) {
                        ev.push(match e.as_str() {
                            "hide" => Event::Hide,
                            "defeat" => Event::Defeat,
                            "move" => Event::Move,
                            other => {
                                return err(format!("{where_}: events are hide, defeat or move, not '{other}'"));
                            }
                        });
                    }
                    o.events = Some(ev);
                }
                "from" => o.from_enemy = v.as_str() == Some("enemy"),
                "anywhere" => o.anywhere = truthy(v),
                "lose_tokens" => o.lose_tokens = truthy(v),
                "attachment" => o.attachment = truthy(v),
                "times" => o.times = Some(as_int(v, where_, "times")?),
                "timing" => o.timing = v.as_str().map(str::to_string),
                "keyword" => o.keyword = Some(self.keyword(v, where_, "keyword")?),
                "over" => o.over = Some(self.selector(v, where_)?),
                "per" => o.per = Some(self.selector(v, where_)?),
                "filter" => o.filter = Some(self.selector(v, where_)?),
                "do" => {
                    let a = v.as_array().cloned().unwrap_or_default();
                    for (i, s) in a.iter().enumerate() {
                        let st = self.step(s, &format!("{where_}, do {}", i + 1))?;
                        o.do_.push(st);
                    }
                }
                _ => {}
            }
        }
        if kind == StaticKind::GrantLine
            && (o.do_.is_empty() || !matches!(o.timing.as_deref(), Some("main") | Some("ambush") | Some("upgrade")))
        {
            return err(format!("{where_}: grant_line needs timing (main, ambush or upgrade) and do = [steps]"));
        }
        if o.lose_tokens && kind != StaticKind::PowerZero {
            return err(format!("{where_}: lose_tokens is only for power_zero"));
        }
        if kind == StaticKind::Phantom && o.keyword.is_none() {
            return err(format!("{where_}: phantom needs keyword = \"…\""));
        }
        let n = match t.get("n") {
            Some(v) => self.number(v, where_)?,
            None => Number::Int(0),
        };
        let target = match t.get("target") {
            Some(v) => Some(self.selector(v, where_)?),
            None => None,
        };
        let cond = match t.get("if") {
            Some(v) => Some(self.condition(v, where_)?),
            None => None,
        };
        let mut s = Static { kind, n, target, cond, opts: o, kept: false };
        s.kept = crate::power::reads_own_mission(&s);
        Ok(s)
    }

    fn trigger(&mut self, t: &Table, where_: &str) -> R<Trigger> {
        let name = t.get("on").and_then(|v| v.as_str()).unwrap_or_default();
        let Some(on) = TRIGGER_NAMES.iter().find(|(n, _)| *n == name).map(|(_, k)| *k) else {
            return err(format!(
                "{where_}: unknown trigger '{name}'; known: {}",
                TRIGGER_NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            ));
        };
        let unknown: Vec<&str> = t
            .keys()
            .map(String::as_str)
            .filter(|k| !["on", "who", "do", "must", "if", "by", "filter"].contains(k))
            .collect();
        if !unknown.is_empty() {
            return err(format!("{where_}: unknown field(s) {} on trigger {name}", keys_repr(unknown)));
        }
        let Some(steps) = t.get("do").and_then(|v| v.as_array()).filter(|a| !a.is_empty()) else {
            return err(format!("{where_}: a trigger needs do = [ …steps… ]"));
        };
        let mut parsed = Vec::new();
        for (i, s) in steps.iter().enumerate() {
            parsed.push(self.step(s, &format!("{where_}, do {}", i + 1))?);
        }
        if let Some(c) = t.get("if") {
            // the trigger's condition gates its first step
            parsed[0].cond = Some(self.condition(c, where_)?);
        }
        let mut by_you = false;
        if let Some(by) = t.get("by") {
            if !matches!(on, TriggerOn::Moved | TriggerOn::Defeated) || by.as_str() != Some("you") {
                return err(format!("{where_}: by = \"you\" is only for the moved and defeated triggers"));
            }
            by_you = true;
        }
        let mut filter = None;
        if let Some(f) = t.get("filter") {
            if on != TriggerOn::Attached {
                return err(format!("{where_}: filter is only for the attached trigger"));
            }
            filter = Some(self.selector(f, where_)?);
        }
        let who = match t.get("who") {
            Some(v) => Some(self.selector(v, where_)?),
            None => None,
        };
        Ok(Trigger { on, who, steps: parsed, must: t.get("must").is_some_and(truthy), by_you, filter, cond: None })
    }

    /// One line's `do`; `kind` is the line's kind (instant, continuous …).
    pub fn encoding(&mut self, raw: &toml::Value, where_: &str, kind: Kind) -> R<Encoding> {
        let list: Vec<toml::Value> = match raw {
            toml::Value::Table(_) => vec![raw.clone()],
            toml::Value::Array(a) if !a.is_empty() => a.clone(),
            _ => return err(format!("{where_}: do must be a non-empty list of clauses")),
        };
        let mut enc = Encoding::default();
        let mut host = None;
        for (i, clause) in list.iter().enumerate() {
            let here = format!("{where_}, clause {}", i + 1);
            let Some(t) = clause.as_table() else {
                return err(format!("{here}: a clause is a table"));
            };
            if kind == Kind::Condition {
                if t.len() == 1 && t.contains_key("attach_to") {
                    let v = &t["attach_to"];
                    host = Some(if v.as_str() == Some("mission") {
                        Host::Mission
                    } else {
                        let items: Vec<toml::Value> = match v {
                            toml::Value::Table(_) => vec![v.clone()],
                            toml::Value::Array(a) => a.clone(),
                            _ => vec![v.clone()],
                        };
                        Host::Characters(items.iter().map(|x| self.selector(x, &here)).collect::<R<_>>()?)
                    });
                } else if t.len() == 1
                    && let Some(g) = t.get("grant").and_then(|g| g.as_table())
                    && g.len() == 1
                    && (g.contains_key("group") || g.contains_key("keyword"))
                {
                    let (k, v) = g.iter().next().expect("one entry");
                    enc.grants.push(if k == "group" {
                        Grant::Group(self.group(v, &here, "group")?)
                    } else {
                        Grant::Keyword(self.keyword(v, &here, "keyword")?)
                    });
                } else {
                    return err(format!(
                        "{here}: an ATTACH line holds {{ attach_to = … }} and {{ grant = {{ group|keyword = … }} }}"
                    ));
                }
                continue;
            }
            if t.contains_key("static") {
                enc.statics.push(self.static_(t, &here)?);
            } else if t.contains_key("on") {
                enc.triggers.push(self.trigger(t, &here)?);
            } else if t.contains_key("as_main") {
                if t.len() != 1 || t["as_main"].as_bool() != Some(true) {
                    return err(format!("{here}: write {{ as_main = true }}"));
                }
                enc.modifier = Some(Modifier { mode: ModMode::AsMain, steps: Vec::new() });
            } else if t.contains_key("instead") || t.contains_key("also") {
                let mode = if t.contains_key("instead") { "instead" } else { "also" };
                if t.len() != 1 {
                    return err(format!("{here}: a modifier has only 'instead' or 'also'"));
                }
                let body = t[mode].as_array().cloned().unwrap_or_default();
                let mut steps = Vec::new();
                for (j, s) in body.iter().enumerate() {
                    steps.push(self.step(s, &format!("{here}, step {}", j + 1))?);
                }
                enc.modifier =
                    Some(Modifier { mode: if mode == "instead" { ModMode::Instead } else { ModMode::Also }, steps });
            } else {
                enc.steps.push(self.step(clause, &here)?);
            }
        }
        if kind == Kind::Continuous && !enc.steps.is_empty() {
            return err(format!("{where_}: a continuous line holds statics and triggers, not instant steps"));
        }
        if kind == Kind::Instant && (!enc.statics.is_empty() || !enc.triggers.is_empty()) {
            return err(format!("{where_}: an instant line holds steps only"));
        }
        if kind == Kind::Modifier && enc.modifier.is_none() {
            return err(format!("{where_}: a modifier line needs {{ instead = [...] }} or {{ also = [...] }}"));
        }
        if kind == Kind::Condition {
            if host.is_none() {
                return err(format!(
                    "{where_}: an ATTACH line needs {{ attach_to = \"mission\" }} or {{ attach_to = {{ …selector… }} }}"
                ));
            }
            return Ok(Encoding { host, grants: enc.grants, ..Encoding::default() });
        }
        Ok(enc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selector_asks_for_every_check_it_needs() {
        // every selector field alone, with each value of a few kinds the parser takes: a selector
        // whose `asks` has no bit beyond ASKS_LOOK and ASKS_CARD is matched by
        // `selectors::matches_in` on its side, its place, face-down, upgraded, another and its
        // card's checks alone, so it must differ from a selector of those fields only in fields no
        // match reads
        let (mut names, mut keywords, mut vars) = (Interner::default(), Interner::default(), Interner::default());
        let mut p = Parser { names: &mut names, keywords: &mut keywords, vars: &mut vars };
        let values: Vec<toml::Value> = vec![
            true.into(),
            1.into(),
            "friendly".into(),
            "enemy".into(),
            "this".into(),
            "other_missions".into(),
            "chosen".into(),
            "weakest".into(),
            "character".into(),
            "Leaf Village".into(),
            "x".into(),
            toml::Value::Array(vec!["x".into()]),
            toml::Value::Table(toml::map::Map::from_iter([("side".to_string(), "enemy".into())])),
        ];
        let mut plain_seen = 0;
        for &field in SEL_FIELDS {
            let mut parsed = 0;
            for v in &values {
                let raw = toml::Value::Table(toml::map::Map::from_iter([(field.to_string(), v.clone())]));
                let Ok(s) = p.selector(&raw, "test") else { continue };
                parsed += 1;
                assert_eq!(s.asks, s.asks_now(), "{field} = {v}");
                if s.asks & !(Selector::ASKS_LOOK | Selector::ASKS_CARD) == 0 {
                    plain_seen += 1;
                    // the fields of a group count only when its bit is set (matches_in skips the rest)
                    let mut plain = Selector {
                        side: s.side,
                        where_: s.where_,
                        pick: s.pick,
                        count: s.count.clone(),
                        per_mission: s.per_mission,
                        on: s.on,
                        asks: s.asks,
                        ..Selector::default()
                    };
                    if s.asks & Selector::ASKS_LOOK != 0 {
                        (plain.hidden, plain.upgraded, plain.other) = (s.hidden, s.upgraded, s.other);
                    }
                    if s.asks & Selector::ASKS_CARD != 0 {
                        (plain.group, plain.keyword, plain.not_keyword) = (s.group, s.keyword, s.not_keyword);
                        (plain.names, plain.not_name) = (s.names.clone(), s.not_name.clone());
                        (plain.name_var, plain.name_var_key) = (s.name_var, s.name_var_key);
                    }
                    assert_eq!(s, plain, "{field} = {v}");
                    assert_ne!(s.where_, Where::Chosen, "{field} = {v}");
                }
            }
            assert!(parsed > 0, "{field}: no value parsed");
        }
        assert!(plain_seen > 5, "{plain_seen}");
    }
}
