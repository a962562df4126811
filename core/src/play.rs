//! Whole games played inside the core: the random baseline (the invariant and speed runs).

use crate::apply::{self, ApplyError};
use crate::cards::Catalog;
use crate::rng::PyRandom;
use crate::setup::{self, GameDeck};
use crate::state::GameState;

/// A full game with uniformly random legal decisions, drawn by `random.Random(seed ^ 0x5EED)` as
/// the reference engine's `play_random_game` does.
pub fn random_game(cat: &'static Catalog, a: &GameDeck, b: &GameDeck, seed: i128) -> Result<GameState, ApplyError> {
    random_game_checked(cat, a, b, seed, false)
}

/// The same, checking every invariant after every decision when `check` (the invariant run).
pub fn random_game_checked(
    cat: &'static Catalog,
    a: &GameDeck,
    b: &GameDeck,
    seed: i128,
    check: bool,
) -> Result<GameState, ApplyError> {
    let mut g = setup::new_game(cat, a, b, seed, false, None).map_err(|e| ApplyError::Illegal(e.0))?;
    let mut rng = PyRandom::new(seed ^ 0x5EED);
    while !g.is_terminal() {
        let n = g.pending.as_ref().map_or(0, |d| d.len());
        if n == 0 {
            return Err(ApplyError::Stall(format!("no legal action in round {}, phase {}", g.round, g.phase.as_str())));
        }
        apply::apply_nth(&mut g, rng.below(n))?;
        if check {
            crate::invariants::check(&g).map_err(|e| {
                ApplyError::Stall(format!("invariant broken after decision {} (round {}): {e}", g.decisions, g.round))
            })?;
        }
    }
    Ok(g)
}

/// Totals of a run of random games: how many, decisions, and the failures (game index, message).
#[derive(Debug, Default)]
pub struct RandomRun {
    pub games: usize,
    pub decisions: i64,
    pub failures: Vec<(usize, String)>,
}

/// Random games between deck pairs: game i plays `decks[pairs[i].0]` against `decks[pairs[i].1]`
/// with seed `seeds[i]`. A panic inside a game is caught and counted as a failure.
pub fn random_games(
    cat: &'static Catalog,
    decks: &[GameDeck],
    pairs: &[(usize, usize)],
    seeds: &[i128],
    check: bool,
) -> RandomRun {
    let mut run = RandomRun::default();
    for (i, (&(a, b), &seed)) in pairs.iter().zip(seeds).enumerate() {
        let r = std::panic::catch_unwind(|| random_game_checked(cat, &decks[a], &decks[b], seed, check));
        run.games += 1;
        match r {
            Ok(Ok(g)) => run.decisions += g.decisions,
            Ok(Err(e)) => run.failures.push((i, e.to_string())),
            Err(p) => {
                let msg =
                    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                run.failures.push((i, format!("panic: {}", msg.unwrap_or_default())));
            }
        }
    }
    run
}

/// The cost of one `clone()` of the game state, averaged over every state of random games (the
/// figure search players pay per playout): (clones made, nanoseconds per clone).
pub fn clone_cost(cat: &'static Catalog, decks: &[GameDeck], games: usize) -> (usize, f64) {
    let mut clones = 0usize;
    let mut spent = std::time::Duration::ZERO;
    for i in 0..games {
        let (a, b) = (&decks[i % decks.len()], &decks[(i * 7 + 3) % decks.len()]);
        let seed = 1_000_003 + i as i128;
        let Ok(mut g) = setup::new_game(cat, a, b, seed, false, None) else { continue };
        let mut rng = PyRandom::new(seed ^ 0x5EED);
        while !g.is_terminal() {
            let t = std::time::Instant::now();
            let copy = std::hint::black_box(g.clone());
            spent += t.elapsed();
            drop(copy);
            clones += 1;
            let n = g.pending.as_ref().map_or(0, |d| d.len());
            let a = g.pending.as_ref().expect("pending").nth(rng.below(n));
            if apply::apply(&mut g, a).is_err() {
                break;
            }
        }
    }
    (clones, spent.as_nanos() as f64 / clones.max(1) as f64)
}
