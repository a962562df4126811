//! The renderer says exactly what the golden files say, for every effect line of the bundled
//! catalog and every selector a step resolves (a target prompt).
//!
//! The golden files were written by the Python renderer the core's was made to match (it retired
//! with the Python engine; history keeps `core/tests/make_renderings.py`). They are fixed now: a
//! change of wording, or a new card, is a deliberate change of `renderings.tsv` / `selectors.tsv`
//! (card id, line index[, where the selector stands, its form], the text; a backslash, tab or
//! newline in a text is escaped), reviewed like the code. `MYTHOS_BLESS=1 cargo test --test
//! render` writes them from the renderer instead of checking them: review the diff it makes.

use std::collections::BTreeMap;
use std::path::Path;

use mythos_core::cards::Catalog;
use mythos_core::language::render::{describe, prompt, selector_of};
use mythos_core::language::{Arg, Encoding, Host, Onto, Selector, Step};

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n")
}

/// With `MYTHOS_BLESS` set, write a golden file (rows of fields, the text last) and say so.
fn bless(name: &str, rows: &[Vec<String>]) -> bool {
    if std::env::var_os("MYTHOS_BLESS").is_none() {
        return false;
    }
    let mut text = String::new();
    for row in rows {
        let (last, keys) = row.split_last().expect("a text field");
        for k in keys {
            text.push_str(k);
            text.push('\t');
        }
        text.push_str(&escape(last));
        text.push('\n');
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    eprintln!("wrote {} rows to {}: review the diff", rows.len(), path.display());
    true
}

/// The catalog's cards, by id (the order of the golden files).
fn cards_by_id(cat: &Catalog) -> Vec<&mythos_core::cards::Card> {
    let mut cards: Vec<_> = cat.cards.iter().collect();
    cards.sort_by(|a, b| a.id.cmp(&b.id));
    cards
}

/// The rows of a golden file: every field but the last is a key, the last is the text.
fn golden(name: &str) -> Vec<(Vec<String>, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the golden files live in core/tests)", path.display()));
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut fields: Vec<String> = l.split('\t').map(str::to_string).collect();
            let last = fields.pop().expect("a text field");
            (fields, unescape(&last))
        })
        .collect()
}

/// (path, selector) of every selector a step resolves, nested steps included, in the order the
/// rows of `selectors.tsv` list them (`step0.arg`, `step0.target`, `step0.and`, `step0.onto`, then
/// the nested `do` and `one_of` branches).
fn step_selectors<'a>(steps: &'a [Step], prefix: &str, out: &mut Vec<(String, &'a Selector)>) {
    for (i, s) in steps.iter().enumerate() {
        let here = format!("{prefix}{i}");
        if let Some(sel) = s.selector() {
            out.push((format!("{here}.arg"), sel));
        }
        if let Some(t) = &s.target {
            out.push((format!("{here}.target"), t));
        }
        if let Some(and) = &s.opts.and {
            out.push((format!("{here}.and"), and));
        }
        if let Some(Onto::Selector(onto)) = &s.opts.onto {
            out.push((format!("{here}.onto"), onto));
        }
        step_selectors(&s.opts.do_, &format!("{here}.do"), out);
        if let Arg::Branches(bs) = &s.arg {
            for (j, b) in bs.iter().enumerate() {
                step_selectors(b, &format!("{here}.or{j}."), out);
            }
        }
    }
}

/// Every selector of a line, each with whether the line's card is the one it is read from (not
/// in a static pricing a play, whose selections look at the card being played).
fn line_selectors(enc: &Encoding) -> Vec<(String, &Selector, bool)> {
    let mut out = line_selectors_at(enc);
    let priced: Vec<String> = enc
        .statics
        .iter()
        .enumerate()
        .filter(|(_, st)| st.kind.prices_a_play())
        .map(|(i, _)| format!("static{i}."))
        .collect();
    out.drain(..)
        .map(|(path, sel)| {
            let mine = !priced.iter().any(|p| path.starts_with(p.as_str()));
            (path, sel, mine)
        })
        .collect()
}

fn line_selectors_at(enc: &Encoding) -> Vec<(String, &Selector)> {
    let mut out = Vec::new();
    step_selectors(&enc.steps, "step", &mut out);
    if let Some(m) = &enc.modifier {
        step_selectors(&m.steps, "mod", &mut out);
    }
    for (i, st) in enc.statics.iter().enumerate() {
        if let Some(t) = &st.target {
            out.push((format!("static{i}.target"), t));
        }
        step_selectors(&st.opts.do_, &format!("static{i}.do"), &mut out);
    }
    for (i, t) in enc.triggers.iter().enumerate() {
        if let Some(w) = &t.who {
            out.push((format!("trigger{i}.who"), w));
        }
        step_selectors(&t.steps, &format!("trigger{i}.step"), &mut out);
    }
    if let Some(Host::Characters(sels)) = &enc.host {
        for (i, s) in sels.iter().enumerate() {
            out.push((format!("host{i}"), s));
        }
    }
    out
}

#[test]
fn every_line_renders_as_the_golden_file_says() {
    let cat = Catalog::bundled();
    let rows: Vec<Vec<String>> = cards_by_id(cat)
        .into_iter()
        .flat_map(|card| {
            card.effects
                .iter()
                .enumerate()
                .map(move |(i, line)| vec![card.id.clone(), i.to_string(), describe(cat, card, line)])
        })
        .collect();
    if bless("renderings.tsv", &rows) {
        return;
    }
    let expected: BTreeMap<(String, usize), String> = golden("renderings.tsv")
        .into_iter()
        .map(|(k, text)| ((k[0].clone(), k[1].parse().expect("a line index")), text))
        .collect();
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for card in &cat.cards {
        for (i, line) in card.effects.iter().enumerate() {
            let got = describe(cat, card, line);
            match expected.get(&(card.id.clone(), i)) {
                None => mismatches.push(format!("{} line {i}: not in renderings.tsv\n  now:    {got}", card.id)),
                Some(want) if *want != got => {
                    mismatches.push(format!("{} line {i}:\n  golden: {want}\n  now:    {got}", card.id))
                }
                Some(_) => compared += 1,
            }
        }
    }
    let lines: usize = cat.cards.iter().map(|c| c.effects.len()).sum();
    if expected.len() != lines {
        mismatches.push(format!("renderings.tsv holds {} lines, the catalog {lines}", expected.len()));
    }
    for m in &mismatches {
        eprintln!("{m}");
    }
    assert!(mismatches.is_empty(), "{} of {lines} lines differ ({compared} identical)", mismatches.len());
    eprintln!("{compared} effect lines identical");
}

/// The forms `selectors.tsv` renders a selector in: (form, plural, bare, place); "prompt" is the
/// English of a target prompt.
const FORMS: [(&str, Option<bool>, bool, bool); 4] = [
    ("prompt", None, false, true),
    ("all", Some(true), true, true),
    ("one", Some(false), false, false),
    ("bare", Some(false), true, false),
];

/// Every selector of the catalog in every form: (card id, line, where it stands, form, text).
fn selector_rows(cat: &'static Catalog) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for card in cards_by_id(cat) {
        for (i, line) in card.effects.iter().enumerate() {
            let Some(enc) = &line.encoding else { continue };
            for (path, sel, mine) in line_selectors(enc) {
                let me = if mine { Some(card) } else { None };
                for (form, plural, bare, place) in FORMS {
                    let text = if form == "prompt" {
                        prompt(cat, me, sel) // the very call the engine's prompts make
                    } else {
                        selector_of(cat, me, sel, plural, bare, place)
                    };
                    rows.push(vec![card.id.clone(), i.to_string(), path.clone(), form.to_string(), text]);
                }
            }
        }
    }
    rows
}

#[test]
fn every_target_prompt_renders_as_the_golden_file_says() {
    let cat = Catalog::bundled();
    if bless("selectors.tsv", &selector_rows(cat)) {
        return;
    }
    let expected: BTreeMap<(String, usize, String, String), String> = golden("selectors.tsv")
        .into_iter()
        .map(|(k, text)| {
            let line = k[1].parse().expect("a line index");
            ((k[0].clone(), line, k[2].clone(), k[3].clone()), text)
        })
        .collect();
    let mut mismatches = Vec::new();
    let mut seen = 0;
    for card in &cat.cards {
        for (i, line) in card.effects.iter().enumerate() {
            let Some(enc) = &line.encoding else { continue };
            for (path, sel, mine) in line_selectors(enc) {
                let me = if mine { Some(card) } else { None };
                for (form, plural, bare, place) in FORMS {
                    seen += 1;
                    let got = if form == "prompt" {
                        prompt(cat, me, sel) // the very call the engine's prompts make
                    } else {
                        selector_of(cat, me, sel, plural, bare, place)
                    };
                    let key = (card.id.clone(), i, path.clone(), form.to_string());
                    match expected.get(&key) {
                        None => mismatches.push(format!("{} line {i} {path} {form}: not in selectors.tsv", card.id)),
                        Some(want) if *want != got => mismatches
                            .push(format!("{} line {i} {path} {form}:\n  golden: {want}\n  now:    {got}", card.id)),
                        Some(_) => {}
                    }
                }
            }
        }
    }
    if seen != expected.len() {
        mismatches.push(format!("selectors.tsv holds {} renderings, the catalog {seen}", expected.len()));
    }
    for m in &mismatches {
        eprintln!("{m}");
    }
    assert!(mismatches.is_empty(), "{} of {seen} selector renderings differ", mismatches.len());
    eprintln!("{seen} selector renderings identical");
}
