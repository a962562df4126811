//! Determinised search: for the one-step player's best few main actions (`width`), deal the
//! hidden cards at random, play the action, let one-step players finish the round, and keep the
//! action with the best average outcome: the score margin, plus (times `leaf`) what the board
//! left in play is worth in the rounds to come, since characters stay on their missions.
//! Budget: `sims` playouts per decision (or `time` seconds); a decision whose best action leads
//! the second by `clear` or more is not searched.

use std::time::{Duration, Instant};

use crate::apply;
use crate::rng::PyRandom;
use crate::state::{Action, DecisionKind, GameState};

use super::greedy::{Greedy, SEARCH_CONTROL, decide_other};
use super::heuristic::{self, EffectCache, win_prob};
use super::mulligan::Mulligan;
use super::{Observation, Player, player_rng};

/// A playout stops after this many decisions even if the round goes on (a guard, as in Python).
const PLAYOUT_GUARD: usize = 400;

/// Playouts dealt together (their generators seeded side by side; see `PyRandom::new_many`).
const PLAYOUTS_AT_ONCE: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub sims: i64,
    /// seconds per decision; 0: count playouts instead
    pub time: f64,
    pub width: i64,
    pub clear: f64,
    pub leaf: f64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { sims: 10, time: 0.0, width: 5, clear: 3.0, leaf: 1.0 }
    }
}

pub struct Lookahead {
    pub budget: Budget,
    mulligan: Mulligan,
    rng: PyRandom,
    /// the one-step player that plays both seats in the playouts
    inner: Greedy,
    /// the spec's parameters as written back (`clear=3.0,leaf=1.0,…`)
    spec: String,
}

impl Lookahead {
    pub fn new(budget: Budget, mulligan: Mulligan, spec: String) -> Lookahead {
        Lookahead {
            budget,
            mulligan,
            rng: PyRandom::new(0),
            inner: Greedy::new("control", SEARCH_CONTROL, Mulligan::Keep),
            spec,
        }
    }

    fn main(&mut self, obs: &Observation) -> Action {
        let w = SEARCH_CONTROL;
        let b = heuristic::board(obs, &w);
        let ranked = heuristic::ranked_main(obs, &w, &b, &mut EffectCache::default());
        // ranked[:width], with Python's slice of a negative width
        let n = ranked.len() as i64;
        let take = if self.budget.width < 0 { (n + self.budget.width).max(0) } else { self.budget.width.min(n) };
        let cands: Vec<Action> = ranked[..take as usize].iter().map(|r| r.action).collect();
        if cands.len() == 1 || ranked.len() < 2 || ranked[0].value - ranked[1].value >= self.budget.clear {
            return ranked[0].action; // a clear best move needs no search
        }
        if cands.is_empty() {
            return ranked[0].action; // (a width of 0 leaves nothing to search; Python fails here)
        }
        let mut totals = vec![0.0; cands.len()];
        let mut counts = vec![0i64; cands.len()];
        if self.budget.time > 0.0 {
            let deadline = Instant::now() + Duration::from_secs_f64(self.budget.time);
            let mut n = 0usize;
            loop {
                let i = n % cands.len();
                let sample = self.rng.getrandbits(64);
                totals[i] += self.playout(obs, cands[i], sample);
                counts[i] += 1;
                n += 1;
                if Instant::now() >= deadline && n >= cands.len() || crate::cancel::requested() {
                    break;
                }
            }
        } else {
            // `sims` playouts (at least one), their samples drawn in order as Python draws them
            // one per playout, dealt together so that their generators seed side by side
            let total = self.budget.sims.max(1) as usize;
            let mut done = 0;
            while done < total && !crate::cancel::requested() {
                let chunk: Vec<i128> =
                    (0..PLAYOUTS_AT_ONCE.min(total - done)).map(|_| self.rng.getrandbits(64) as i128).collect();
                let starts: Vec<(GameState, i128)> = PyRandom::new_many(&chunk)
                    .into_iter()
                    .enumerate()
                    .map(|(k, mut rng)| self.deal(obs, cands[(done + k) % cands.len()], &mut rng))
                    .collect();
                let seeds: Vec<i128> = starts.iter().map(|s| s.1).collect();
                for (k, ((g, _), inner)) in starts.into_iter().zip(PyRandom::new_many(&seeds)).enumerate() {
                    let i = (done + k) % cands.len();
                    totals[i] += self.finish(g, inner, obs.player);
                    counts[i] += 1;
                }
                done += chunk.len();
            }
        }
        // the best average, the first of equals
        let mut best = 0;
        for i in 1..cands.len() {
            if totals[i] / counts[i].max(1) as f64 > totals[best] / counts[best].max(1) as f64 {
                best = i;
            }
        }
        cands[best]
    }

    /// One playout: deal what I cannot see from `random.Random(sample)`, play `action`, let the
    /// one-step players finish the round, and value the outcome.
    fn playout(&mut self, obs: &Observation, action: Action, sample: u64) -> f64 {
        let mut rng = PyRandom::new(sample as i128);
        let (g, seed) = self.deal(obs, action, &mut rng);
        self.finish(g, PyRandom::new(seed), obs.player)
    }

    /// A playout's start: the determinised game after `action`, and the seed of the generator
    /// of the one-step players who finish the round.
    fn deal(&self, obs: &Observation, action: Action, rng: &mut PyRandom) -> (GameState, i128) {
        let mut g = obs.determinize(rng);
        apply::apply(&mut g, action).expect("a legal action in a determinised state");
        (g, rng.getrandbits(32) as i128)
    }

    fn finish(&mut self, mut g: GameState, inner_rng: PyRandom, me: i32) -> f64 {
        let start_round = g.round;
        self.inner.rng = inner_rng;
        let mut guard = 0;
        while !g.is_terminal() && g.round == start_round && guard < PLAYOUT_GUARD {
            guard += 1;
            let p = g.pending.as_ref().expect("a pending decision").player;
            let a = self.inner.decide(&g, p);
            apply::apply(&mut g, a).expect("a legal action in a playout");
        }
        outcome(&g, me, self.budget.leaf)
    }
}

/// A playout's outcome for `me`: the game won or lost, else the score margin plus (times `leaf`)
/// what the board left in play is worth in the rounds to come, for me against them.
fn outcome(g: &GameState, me: i32, leaf: f64) -> f64 {
    if g.is_terminal() {
        return if g.winner == me { 100.0 } else { -100.0 };
    }
    let (mine, theirs) = (g.players[me as usize].score, g.players[1 - me as usize].score);
    let mut value = (mine - theirs) as f64;
    if leaf != 0.0 {
        let w = SEARCH_CONTROL;
        let b = heuristic::board(&Observation::new(g, me), &w);
        let mut board = 0.0;
        for ((&m, &t), &wt) in b.mine.iter().zip(b.theirs.iter()).zip(b.weight.iter()) {
            if m != 0 || t != 0 {
                board += wt * (2.0 * win_prob(m - t, b.edge, b.open, &w) - 1.0);
            }
        }
        value += leaf * board;
    }
    value
}

impl Player for Lookahead {
    fn mulligan(&self) -> super::mulligan::Mulligan {
        self.mulligan
    }
    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn reset(&mut self, seed: i128) {
        self.rng = player_rng("lookahead", seed);
    }
    fn decide(&mut self, g: &GameState, player: i32) -> Action {
        let obs = Observation::new(g, player);
        if obs.kind() == DecisionKind::Action {
            return self.main(&obs);
        }
        decide_other(&obs, self.mulligan, &SEARCH_CONTROL)
    }
}
