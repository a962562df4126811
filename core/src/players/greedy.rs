//! The one-step player: the action that most improves the expected mission points, counting the
//! card's effects, the Edge and the chakra spent.

use crate::rng::PyRandom;
use crate::state::{Action, DecisionKind, GameState, Opt};

use super::heuristic::{self, Weights};
use super::mulligan::Mulligan;
use super::{Observation, Player, player_rng};

/// The weights of the one-step player the look-ahead ranks and plays out with (the control
/// archetype's former weights; the Python `_SearchControl`).
pub const SEARCH_CONTROL: Weights = Weights {
    rank_bias: 0.2,
    hold_chakra: 0.15,
    hidden_bias: 0.2,
    chakra: 0.02,
    edge: 0.4,
    effect_scale: 1.5,
    future_rounds: 0.6,
    ..heuristic::W0
};

/// One-step evaluation with given weights: `greedy` with the neutral ones.
pub struct Greedy {
    /// the name its generator is seeded with
    name: &'static str,
    pub weights: Weights,
    mulligan: Mulligan,
    pub rng: PyRandom,
}

impl Greedy {
    pub fn new(name: &'static str, weights: Weights, mulligan: Mulligan) -> Greedy {
        Greedy { name, weights, mulligan, rng: PyRandom::new(0) }
    }
}

/// What every heuristic player does outside its main actions: the mulligan by its rule, effect
/// choices by the shared answers.
pub fn decide_other(obs: &Observation, mulligan: Mulligan, w: &Weights) -> Action {
    if obs.kind() == DecisionKind::Mulligan {
        return Action::Choose(Opt::Bool(mulligan.take(obs)));
    }
    heuristic::answer_choice(obs, w)
}

impl Player for Greedy {
    fn mulligan(&self) -> super::mulligan::Mulligan {
        self.mulligan
    }
    fn spec(&self) -> String {
        self.name.into()
    }
    fn reset(&mut self, seed: i128) {
        self.rng = player_rng(self.name, seed);
    }
    fn decide(&mut self, g: &GameState, player: i32) -> Action {
        let obs = Observation::new(g, player);
        if obs.kind() == DecisionKind::Action {
            return heuristic::best_main(&obs, &self.weights, &mut self.rng);
        }
        decide_other(&obs, self.mulligan, &self.weights)
    }
}
