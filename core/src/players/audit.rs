//! The endgame audit: how well a player finishes the last round once the opponent has passed.
//!
//! Real games are played; the first time the audited player decides in round 4 after the
//! opponent passed, the true position is kept. When the game is over, that position is solved
//! exactly on the true state (every decision of the player, the opponent's remaining choices
//! inside effects answered adversarially) for the best result the player could have reached: a
//! win if there was one, by the widest margin. The player found the best line when its game
//! ended there (or better, when the opponent's real answers were kinder than the worst); it
//! threw a won game when a win was there and it lost.
//!
//! The exact solution sees the true state, which the player does not: its own deck's order
//! (cards drawn inside the line), the opponent's hand and hidden cards. A thrown game is
//! therefore checked on `DEALS` deals of what the player could not see (dealt as the search
//! deals them, from the player's view of the kept position): a win the player could have been
//! sure of is there on every one of them; one missing on some deal needed cards it could not
//! see.

use crate::cards::Catalog;
use crate::setup::{self, GameDeck};
use crate::state::{DecisionKind, GameState};

use super::Player;
use super::endgame::Solver;
use super::search::deal_from;

/// One audited endgame.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub seed: i128,
    /// the audited player's seat
    pub seat: i32,
    /// the best final margin within reach, and whether a win was (None: over the audit's budget)
    pub best: Option<(i64, bool)>,
    /// the final margin the player reached, and whether it won
    pub reached: (i64, bool),
    /// positions the exact search took
    pub nodes: usize,
    /// for a thrown game: on how many of `DEALS` deals from the player's view a win was there
    pub dealt_wins: Option<usize>,
}

/// Deals a thrown game is checked on.
pub const DEALS: usize = 16;

/// Win above loss, then margin: what "best" means in the audit.
fn exact_leaf(g: &GameState, me: i32) -> f64 {
    let margin = (g.players[me as usize].score - g.players[1 - me as usize].score) as f64;
    if g.winner == me { 10_000.0 + margin } else { margin }
}

fn split(v: f64) -> (i64, bool) {
    if v >= 5_000.0 { ((v - 10_000.0).round() as i64, true) } else { (v.round() as i64, false) }
}

/// Play one game (seat 0 plays `a` with `pa`, players reset as `play_match` resets them) and
/// audit `seat`'s round-4 endgame, if it had one (None otherwise, or when the game failed).
#[allow(clippy::too_many_arguments)]
pub fn audit_game(
    cat: &'static Catalog,
    a: &GameDeck,
    b: &GameDeck,
    pa: &mut dyn Player,
    pb: &mut dyn Player,
    seed: i128,
    seat: i32,
    budget: usize,
) -> Option<Record> {
    let mut g = setup::new_game(cat, a, b, seed, false, None).ok()?;
    pa.reset(seed * 2 + 1);
    pb.reset(seed * 2 + 2);
    let mut kept: Option<GameState> = None;
    while !g.is_terminal() {
        let d = g.pending.as_ref()?;
        let player = d.player;
        if kept.is_none()
            && player == seat
            && g.round == crate::state::ROUNDS
            && d.kind == DecisionKind::Action
            && g.players[1 - seat as usize].passed
        {
            kept = Some(g.clone());
        }
        let action = if player == 0 { pa.decide(&g, player) } else { pb.decide(&g, player) };
        crate::apply::apply(&mut g, action).ok()?;
    }
    let start = kept?;
    let margin = g.players[seat as usize].score - g.players[1 - seat as usize].score;
    let reached = (margin, g.winner == seat);
    let mut s = Solver::with_leaf(seat, start.round, budget, exact_leaf);
    let best = s.value(&start).map(split);
    let thrown = best.is_some_and(|b| b.1) && !reached.1;
    let dealt_wins = thrown.then(|| {
        let mut rng = crate::rng::PyRandom::new(seed);
        (0..DEALS)
            .filter(|_| {
                let d = deal_from(&start, seat, &mut rng);
                Solver::for_wins(seat, start.round, budget).value(&d) == Some(1.0)
            })
            .count()
    });
    Some(Record { seed, seat, best, reached, nodes: s.nodes, dealt_wins })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_back_into_margin_and_result() {
        assert_eq!(split(10_000.0 + 7.0), (7, true));
        assert_eq!(split(10_000.0), (0, true));
        assert_eq!(split(10_000.0 - 3.0), (-3, true));
        assert_eq!(split(-4.0), (-4, false));
        assert_eq!(split(0.0), (0, false));
    }
}
