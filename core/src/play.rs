//! Whole games played inside the core: the random baseline (the invariant and speed runs).

use crate::apply::{self, ApplyError};
use crate::cards::Catalog;
use crate::rng::PyRandom;
use crate::setup::{self, GameDeck};
use crate::state::GameState;

/// A full game with uniformly random legal decisions, drawn by `random.Random(seed ^ 0x5EED)` as
/// the reference engine's `play_random_game` does.
pub fn random_game(cat: &'static Catalog, a: &GameDeck, b: &GameDeck, seed: i128) -> Result<GameState, ApplyError> {
    let mut g = setup::new_game(cat, a, b, seed, false, None).map_err(|e| ApplyError::Illegal(e.0))?;
    let mut rng = PyRandom::new(seed ^ 0x5EED);
    while !g.is_terminal() {
        let n = g.pending.as_ref().map_or(0, |d| d.len());
        if n == 0 {
            return Err(ApplyError::Stall(format!("no legal action in round {}, phase {}", g.round, g.phase.as_str())));
        }
        let a = g.pending.as_ref().expect("pending").nth(rng.below(n));
        apply::apply(&mut g, a)?;
    }
    Ok(g)
}
