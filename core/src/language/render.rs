//! The English of the effect language: every node renders itself, so the description a player
//! reads is derived from the very trees the engine runs.

use crate::cards::Catalog;
use crate::language::Selector;

/// A selector in English ("an enemy character in this mission with Power 3 or less").
pub fn selector(_cat: &Catalog, _sel: &Selector, _plural: Option<bool>, _bare: bool) -> String {
    String::from("a character")
}
