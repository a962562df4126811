//! mythos-core: the rules of the Naruto Mythos TCG, its effect language and its players.
//!
//! The game in the OpenSpiel shape: [`setup::new_game`], [`apply::legal_actions`],
//! [`apply::apply`], [`apply::current_player`], terminal, scores and returns. Every choice
//! (mulligan, main action, an effect's targets, optional lines, trigger order) is a decision of
//! the player who makes it, answered through the same `apply`.
pub mod actions;
pub mod apply;
pub mod attachments;
pub mod batch;
pub mod board;
pub mod cancel;
pub mod cards;
pub mod control;
pub mod determinize;
pub mod effects;
pub mod invariants;
pub mod language;
pub mod names;
pub mod play;
pub mod players;
pub mod power;
#[cfg(feature = "python")]
pub mod python;
pub mod record;
pub mod rng;
pub mod scenario;
pub mod scoring;
pub mod setup;
pub mod state;
pub mod view;

// Search clones game states and makes small vectors by the million: mimalloc serves them in a
// fraction of the system allocator's time (measured with callgrind: see benchmarks/README.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
