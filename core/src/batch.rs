//! A batch of planned games played inside the core, start to finish, and recorded as the
//! database's `game_data` rows ([`crate::record::Rows`]). This is `mythos simulate`'s inner
//! loop: the Python side plans the run (decks, seats, seeds), calls [`play_batch`] once per
//! batch with the interpreter released, and stores the columns it gets back.
//!
//! A game is played as [`crate::players::play_match`] plays it: the game from its
//! seed with its event stream, seat 0's player reset with `seed * 2 + 1`, seat 1's with
//! `seed * 2 + 2`, then every decision answered by the player whose decision it is.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::cards::Catalog;
use crate::players::{self, Player};
use crate::record::{LayoutError, Rows};
use crate::setup::GameDeck;

/// One planned game of a batch.
#[derive(Clone, Debug)]
pub struct Planned {
    /// indices into the batch's decks: seat 0's, seat 1's
    pub decks: [usize; 2],
    /// indices into the batch's player specs: seat 0's, seat 1's
    pub players: [usize; 2],
    pub seed: i128,
    /// the seat of the run's studied deck (a stored flag)
    pub studied_seat: i32,
    /// per seat, a forced mulligan answer (true: mulligan), or None: the seat's player decides
    pub mulligans: [Option<bool>; 2],
}

/// Why a batch stopped: the game (its index in the batch) and what went wrong.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchError {
    /// a spec the core cannot make a player of (checked before any game is played)
    Player(String),
    /// the engine refused a decision or stalled: a bug, reported with the game's seed
    Game { index: usize, seed: i128, message: String },
    /// a finished game does not fit the stored layout
    Layout { index: usize, message: String },
    /// a stop was asked ([`crate::cancel`]) before game `index`: the games before it are played
    Cancelled { index: usize },
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Player(m) => write!(f, "{m}"),
            BatchError::Game { index, seed, message } => {
                write!(f, "game {index} of the batch (seed {seed}): {message}")
            }
            BatchError::Layout { index, message } => write!(f, "game {index} of the batch: {message}"),
            BatchError::Cancelled { index } => write!(f, "stopped before game {index} of the batch"),
        }
    }
}

/// What a batch plays: its decks, its player specs and mulligan rule, and its planned games.
pub struct Batch<'a> {
    pub decks: &'a [GameDeck],
    pub specs: &'a [String],
    pub mulligan: Option<&'a str>,
    pub games: &'a [Planned],
}

/// Play every planned game and append its row to `rows`; `done` counts finished games (another
/// thread may read it to move a progress bar). Players are made fresh for each game, as the
/// Python loop makes them. A panic inside a game is caught and reported as that game's error.
pub fn play_batch(
    cat: &'static Catalog,
    batch: &Batch<'_>,
    rows: &mut Rows,
    done: &AtomicUsize,
) -> Result<(), BatchError> {
    let make = |spec: &str, mulligan: Option<&str>| -> Result<Box<dyn Player>, String> {
        players::make_player(spec, mulligan)
    };
    let Batch { decks, specs, mulligan, games } = *batch;
    // every spec is checked once before a game is played, so a bad spec costs no games
    for s in specs {
        make(s, mulligan).map_err(BatchError::Player)?;
    }
    for (index, p) in games.iter().enumerate() {
        if crate::cancel::requested() {
            return Err(BatchError::Cancelled { index });
        }
        let (Some(a), Some(b)) = (decks.get(p.decks[0]), decks.get(p.decks[1])) else {
            return Err(BatchError::Player(format!("game {index} names a deck the batch does not have")));
        };
        let (Some(sa), Some(sb)) = (specs.get(p.players[0]), specs.get(p.players[1])) else {
            return Err(BatchError::Player(format!("game {index} names a player the batch does not have")));
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let (mut pa, mut pb) = (make(sa, mulligan)?, make(sb, mulligan)?);
            players::play_match_forced(cat, a, b, &mut *pa, &mut *pb, p.seed, true, p.mulligans)
                .map_err(|e| e.to_string())
        }));
        let g = match outcome {
            Ok(Ok(g)) => g,
            Ok(Err(message)) => return Err(BatchError::Game { index, seed: p.seed, message }),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                return Err(BatchError::Game { index, seed: p.seed, message: format!("engine panic: {message}") });
            }
        };
        if crate::cancel::requested() {
            return Err(BatchError::Cancelled { index }); // its searches gave up: not the game it is
        }
        rows.add_game(&g, p.studied_seat).map_err(|LayoutError(message)| BatchError::Layout { index, message })?;
        done.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deck of 15 cards twice and 3 missions, dealt from the catalog by `seed`.
    fn deck(cat: &'static Catalog, seed: i128) -> GameDeck {
        GameDeck::random(cat, &mut crate::rng::PyRandom::new(seed), |_| true, format!("deck-{seed}"))
    }

    #[test]
    fn a_batch_records_every_game_and_a_bad_spec_plays_none() {
        let cat = Catalog::bundled();
        let decks = vec![deck(cat, 1), deck(cat, 2)];
        let cards: Vec<u16> = (0..cat.cards.len() as u16).collect();
        let games: Vec<Planned> = (0..6)
            .map(|k| Planned {
                decks: [k % 2, 1 - k % 2],
                players: [0, 0],
                seed: 100 + k as i128,
                studied_seat: (k % 2) as i32,
                mulligans: [None, None],
            })
            .collect();
        let mut rows = Rows::new(&cards).unwrap();
        let done = AtomicUsize::new(0);
        let random = ["greedy".to_string()];
        let batch = Batch { decks: &decks, specs: &random, mulligan: None, games: &games };
        play_batch(cat, &batch, &mut rows, &done).unwrap();
        assert_eq!(rows.len(), 6);
        assert_eq!(done.load(Ordering::Relaxed), 6);
        assert_eq!(rows.events.offsets.len(), 7);
        // the same plan gives the same rows
        let mut again = Rows::new(&cards).unwrap();
        play_batch(cat, &batch, &mut again, &done).unwrap();
        assert_eq!(rows.events.values, again.events.values);
        assert_eq!(rows.flags, again.flags);
        let mut none = Rows::new(&cards).unwrap();
        let nobody = ["nobody".to_string()];
        let bad = Batch { decks: &decks, specs: &nobody, mulligan: None, games: &games };
        let err = play_batch(cat, &bad, &mut none, &done);
        assert!(matches!(err, Err(BatchError::Player(_))));
        assert!(none.is_empty());
    }
}
