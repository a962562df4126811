//! `search`: determinised Monte Carlo tree search over the player's own observation.
//!
//! At each decision the player deals what it cannot see at random (the opponent's hand, hidden
//! characters and face-down attachments, both decks' order, and which missions are still to come
//! and which one each player set aside: `deal`), from its own generator, and never reads the
//! hidden truth.
//!
//! - **Main actions and effect choices while the opponent still plays**: every distinct legal
//!   option is a candidate, pass included (`endgame::distinct` collapses copies of one card).
//!   Candidates enter in the order of the one-step judgement (`evaluate::prior`) by progressive
//!   widening (the best few first, one more as the visits grow; the pass always), and the
//!   playouts go to the candidate with the best upper confidence bound (UCB1). A playout deals a
//!   determinisation, makes the candidate's move, lets the rollout policy (`evaluate::rollout_main`
//!   for main actions, the heuristic answers inside effects) play both seats to the end of the
//!   round, and values what is left with `evaluate::leaf_value` (the game's result in round 4).
//!   The candidate with the most playouts is played.
//! - **Once the opponent has passed**: the rest of the round is the player's own puzzle, solved
//!   exactly on a few determinisations by `endgame::Solver` (every one of its decisions, the
//!   opponent's choices inside effects answered adversarially), within a budget of positions;
//!   over budget, the sampling above decides.
//! - **The mulligan**: playouts of the kept hand against a mulligan's fresh hand of the same deck
//!   (as the player knows it), the same deals for both, to the end of round 2; the better mean is
//!   taken.
//!
//! Budget: `playouts` per decision (reproducible: the same seed gives the same decisions), or
//! `time` seconds per decision (not reproducible: how many playouts fit depends on the machine).

use std::time::{Duration, Instant};

use crate::apply;
use crate::rng::PyRandom;
use crate::state::{Action, DecisionKind, GameState, Opt};

use super::endgame::{Solver, distinct};
use super::evaluate::{self, WEIGHTS, leaf_value};
use super::heuristic;
use super::mulligan::Mulligan;
use super::{Observation, Player, player_rng};

/// A playout stops after this many decisions even if the round goes on (a guard).
const PLAYOUT_GUARD: usize = 400;

/// The search's budget and knobs, as a spec writes them (`search:playouts=64,…`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// playouts per decision
    pub playouts: i64,
    /// seconds per decision instead of a playout count (0: count playouts)
    pub time: f64,
    /// playouts of each choice of the mulligan
    pub mulligan: i64,
    /// positions the endgame solver may search per decision (0: never solve)
    pub solve: i64,
    /// determinisations the endgame is solved on
    pub deals: i64,
    /// the exploration constant of UCB1
    pub explore: f64,
    /// candidates searched from the start (more enter as the square root of the playouts)
    pub width: i64,
}

impl Default for Params {
    fn default() -> Self {
        Params { playouts: 32, time: 0.0, mulligan: 16, solve: 1500, deals: 2, explore: 0.35, width: 3 }
    }
}

pub struct Search {
    pub params: Params,
    /// a fixed mulligan rule asked for instead of the playouts (None: the playouts decide)
    rule: Option<Mulligan>,
    rng: PyRandom,
    spec: String,
}

impl Search {
    pub fn new(params: Params, rule: Option<Mulligan>, spec: String) -> Search {
        Search { params, rule, rng: PyRandom::new(0), spec }
    }

    /// A full state consistent with what `me` knows, the unknown dealt from the player's generator.
    fn deal(&mut self, g: &GameState, me: i32) -> GameState {
        let mut d = crate::determinize::determinize(g, me, &mut self.rng);
        redeal_missions(&mut d, &mut self.rng);
        d
    }

    /// One playout: a deal, `a` played, both seats played by the rollout policy to the end of the
    /// round (of the game in round 4), the result valued for `me`.
    fn playout(&mut self, g: &GameState, me: i32, a: Action) -> f64 {
        let mut s = self.deal(g, me);
        apply::apply(&mut s, a).expect("a legal action in a determinised state");
        let round = g.round;
        let mut guard = 0;
        while !s.is_terminal() && s.round == round && guard < PLAYOUT_GUARD {
            guard += 1;
            let act = rollout_decision(&s);
            apply::apply(&mut s, act).expect("a legal action in a playout");
        }
        leaf_value(&s, me)
    }

    /// The candidates of a decision with their one-step judgement, best first, the pass among
    /// the first `width` (so that it is always searched).
    fn candidates(&self, g: &GameState, me: i32) -> Vec<Action> {
        let obs = Observation::new(g, me);
        let options = distinct(g);
        if obs.kind() == DecisionKind::Action {
            let mut ranked: Vec<Action> =
                evaluate::ranked(&obs).into_iter().map(|(a, _)| a).filter(|a| options.contains(a)).collect();
            if let Some(i) = ranked.iter().position(|a| *a == Action::Pass) {
                let at = (self.params.width.max(1) as usize - 1).min(i);
                let pass = ranked.remove(i);
                ranked.insert(at, pass);
            }
            ranked
        } else {
            // the heuristic's answer first, then the engine's order
            let first = heuristic::answer_choice(&obs, &WEIGHTS);
            let mut out = vec![first];
            out.extend(options.into_iter().filter(|a| *a != first));
            out
        }
    }

    /// Sample the decision's candidates (UCB1 with progressive widening) and play the one most
    /// sampled.
    fn sample(&mut self, g: &GameState, me: i32) -> Action {
        let cands = self.candidates(g, me);
        if cands.len() == 1 {
            return cands[0];
        }
        let n = cands.len();
        let mut visits = vec![0u32; n];
        let mut total = vec![0.0f64; n];
        let deadline = (self.params.time > 0.0).then(|| Instant::now() + Duration::from_secs_f64(self.params.time));
        let budget = self.params.playouts.max(1) as usize;
        let width = self.params.width.max(1) as usize;
        let mut t = 0usize;
        loop {
            let open = (width + (t as f64).sqrt() as usize).min(n);
            let pick = match (0..open).find(|&i| visits[i] == 0) {
                Some(i) => i,
                None => {
                    let ln = (t as f64).ln();
                    let mut best = 0;
                    let mut best_u = f64::NEG_INFINITY;
                    for i in 0..open {
                        let u = total[i] / visits[i] as f64 + self.params.explore * (ln / visits[i] as f64).sqrt();
                        if u > best_u {
                            (best, best_u) = (i, u);
                        }
                    }
                    best
                }
            };
            let v = self.playout(g, me, cands[pick]);
            visits[pick] += 1;
            total[pick] += v;
            t += 1;
            let done = match deadline {
                Some(d) => Instant::now() >= d && t >= open,
                None => t >= budget,
            };
            if done {
                break;
            }
        }
        // the most sampled; among equals the best mean
        let mut best = 0;
        for i in 1..n {
            let better = visits[i] > visits[best]
                || (visits[i] == visits[best]
                    && visits[i] > 0
                    && total[i] / visits[i] as f64 > total[best] / visits[best].max(1) as f64);
            if better {
                best = i;
            }
        }
        cands[best]
    }

    /// The opponent has passed: solve the rest of the round on a few deals (None: over budget).
    fn endgame(&mut self, g: &GameState, me: i32) -> Option<Action> {
        if self.params.solve <= 0 {
            return None;
        }
        let options = distinct(g);
        let deals = self.params.deals.max(1) as usize;
        let budget = self.params.solve as usize / deals;
        let mut totals = vec![0.0; options.len()];
        for _ in 0..deals {
            let d = self.deal(g, me);
            let mut s = Solver::new(me, g.round, budget.max(1));
            for (i, &a) in options.iter().enumerate() {
                totals[i] += s.after(&d, a)?;
            }
        }
        let mut best = 0;
        for i in 1..options.len() {
            if totals[i] > totals[best] + 1e-12 {
                best = i;
            }
        }
        Some(options[best])
    }

    /// True: take a new hand (a mulligan), judged by playouts of both from the same deals to the end of round 2.
    fn takes_new_hand(&mut self, g: &GameState, me: i32) -> bool {
        let n = self.params.mulligan.max(0);
        if n == 0 {
            return false;
        }
        let mut sums = [0.0f64; 2];
        for _ in 0..n {
            let base = self.deal(g, me);
            for (k, take) in [false, true].into_iter().enumerate() {
                let mut s = base.clone();
                apply::apply(&mut s, Action::Choose(Opt::Bool(take))).expect("a mulligan answer");
                let mut guard = 0;
                while !s.is_terminal() && s.round <= 2 && guard < 4 * PLAYOUT_GUARD {
                    guard += 1;
                    let act = rollout_decision(&s);
                    apply::apply(&mut s, act).expect("a legal action in a playout");
                }
                sums[k] += leaf_value(&s, me);
            }
        }
        sums[1] > sums[0]
    }
}

/// The rollout policy: the one-step judgement for main actions, the heuristic's answers inside
/// effects, and the heuristic's rule for a mulligan (the other player's, in a mulligan playout).
pub fn rollout_decision(s: &GameState) -> Action {
    let d = s.pending.as_ref().expect("a pending decision");
    if d.len() == 1 {
        return d.nth(0);
    }
    let obs = Observation::new(s, d.player);
    match d.kind {
        DecisionKind::Action => evaluate::rollout_main(&obs),
        DecisionKind::Mulligan => Action::Choose(Opt::Bool(Mulligan::Heuristic.take(&obs))),
        _ => heuristic::answer_choice(&obs, &WEIGHTS),
    }
}

/// Which missions are still to come is unknown to both players (each shuffled their three face
/// down and set one aside unseen): deal each player's unrevealed missions again into that
/// player's places in the mission deck, the one left over set aside. `determinize` leaves the
/// mission deck as it is.
pub fn redeal_missions(d: &mut GameState, rng: &mut PyRandom) {
    for p in 0..2 {
        let slots: Vec<usize> =
            (0..d.mission_deck.len()).filter(|&i| d.owner[d.mission_deck[i] as usize] == p as i32).collect();
        let mut pool: Vec<i32> = slots.iter().map(|&i| d.mission_deck[i]).collect();
        let aside = d.players[p].set_aside;
        if aside >= 0 {
            pool.push(aside);
        }
        if pool.len() < 2 {
            continue;
        }
        pool.sort_by(|&a, &b| d.card(a).id.cmp(&d.card(b).id).then(a.cmp(&b)));
        rng.shuffle(&mut pool);
        for (k, &i) in slots.iter().enumerate() {
            d.mission_deck[i] = pool[k];
        }
        if aside >= 0 {
            d.players[p].set_aside = pool[slots.len()];
        }
    }
}

impl Player for Search {
    fn mulligan(&self) -> Mulligan {
        self.rule.unwrap_or(Mulligan::Playouts)
    }
    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn reset(&mut self, seed: i128) {
        self.rng = player_rng("search", seed);
    }
    fn decide(&mut self, g: &GameState, player: i32) -> Action {
        let d = g.pending.as_ref().expect("a pending decision");
        if d.len() == 1 {
            return d.nth(0);
        }
        if d.kind == DecisionKind::Mulligan {
            let take = match self.rule {
                Some(r) => r.take(&Observation::new(g, player)),
                None => self.takes_new_hand(g, player),
            };
            return Action::Choose(Opt::Bool(take));
        }
        if g.players[1 - player as usize].passed
            && let Some(a) = self.endgame(g, player)
        {
            return a;
        }
        self.sample(g, player)
    }
}
