//! A stop asked from outside the game: Ctrl-C or SIGTERM reaching a long command.
//!
//! One flag per process. The Python side raises it (`_core.cancel()`, from the thread that
//! watches for signals while a batch runs with the interpreter released); whatever runs for
//! long polls it: the players' searches (playouts, time budgets, the endgame solver) give up
//! their search and answer at once, and the batch loops stop between games with
//! [`crate::batch::BatchError::Cancelled`], so a stop reaches the core within a decision or two
//! whatever the player's budget. A cancelled batch's games are not stored (a resume plays them).

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Ask everything running in this process to stop.
pub fn request() {
    STOP.store(true, Ordering::Relaxed);
}

/// Forget a stop asked before (a new command, or a test).
pub fn clear() {
    STOP.store(false, Ordering::Relaxed);
}

/// Whether a stop was asked: cheap enough for every playout.
#[inline]
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}
