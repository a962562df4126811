//! The decks file the lab examples read: `{"decks": [[cards, missions], …]}`, as
//! `benchmarks/search_common.py` writes it (card versions by id). Shared by `players`,
//! `search_lab` and `leaf_lab` (`#[path = "support/decks.rs"] mod decks;`).

use mythos_core::cards::Catalog;
use mythos_core::setup::GameDeck;

/// The decks of the file at `path` (a lab tool: a bad file stops it with what is wrong).
pub fn read(path: &str, cat: &Catalog) -> Vec<GameDeck> {
    let text = std::fs::read_to_string(path).expect("a decks file");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let idx = |id: &serde_json::Value| cat.card(id.as_str().expect("an id")).expect("a card").index;
    v["decks"]
        .as_array()
        .expect("a list of decks")
        .iter()
        .map(|d| GameDeck {
            cards: d[0].as_array().expect("cards").iter().map(idx).collect(),
            missions: d[1].as_array().expect("missions").iter().map(idx).collect(),
            name: String::new(),
        })
        .collect()
}
