//! The baseline: uniform over the legal decisions.

use crate::rng::PyRandom;
use crate::state::{Action, DecisionKind, GameState, Opt};

use super::mulligan::Mulligan;
use super::{Observation, Player, player_rng};

/// Uniform over the legal decisions. With its default rule (`keep`) even the mulligan is a coin
/// flip, as the Python player's is; another rule answers the mulligan by that rule.
pub struct RandomPlayer {
    mulligan: Mulligan,
    rng: PyRandom,
}

impl RandomPlayer {
    pub fn new(mulligan: Option<Mulligan>) -> RandomPlayer {
        RandomPlayer { mulligan: mulligan.unwrap_or(Mulligan::Keep), rng: PyRandom::new(0) }
    }
}

impl Player for RandomPlayer {
    fn mulligan(&self) -> super::mulligan::Mulligan {
        self.mulligan
    }
    fn spec(&self) -> String {
        "random".into()
    }
    fn reset(&mut self, seed: i128) {
        self.rng = player_rng("random", seed);
    }
    fn decide(&mut self, g: &GameState, player: i32) -> Action {
        let obs = Observation::new(g, player);
        let d = obs.decision();
        if d.kind == DecisionKind::Mulligan && self.mulligan != Mulligan::Keep {
            return Action::Choose(Opt::Bool(self.mulligan.take(&obs)));
        }
        d.nth(self.rng.below(d.len()))
    }
}
