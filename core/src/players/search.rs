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

use std::time::Instant;

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
    /// candidates sampled, the best by the one-step judgement (the pass always among them)
    pub width: i64,
    /// a main action whose one-step judgement leads the next by this much is played unsearched
    pub clear: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params { playouts: 16, time: 0.0, mulligan: 8, solve: 1500, deals: 1, width: 8, clear: 3.0 }
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

    /// The candidates of a decision with their one-step judgement, best first, the pass among
    /// the first `width` (so that it is always searched).
    fn candidates(&self, g: &GameState, me: i32) -> (Vec<Action>, f64) {
        let obs = Observation::new(g, me);
        let options = distinct(g);
        if obs.kind() == DecisionKind::Action {
            let judged = evaluate::ranked(&obs);
            let gap = if judged.len() >= 2 { judged[0].1 - judged[1].1 } else { f64::INFINITY };
            let mut ranked: Vec<Action> = judged.into_iter().map(|(a, _)| a).filter(|a| options.contains(a)).collect();
            if let Some(i) = ranked.iter().position(|a| *a == Action::Pass) {
                let at = (self.params.width.max(1) as usize - 1).min(i);
                let pass = ranked.remove(i);
                ranked.insert(at, pass);
            }
            (ranked, gap)
        } else {
            // the heuristic's answer first, then the engine's order
            let first = heuristic::answer_choice(&obs, &WEIGHTS);
            let mut out = vec![first];
            out.extend(options.into_iter().filter(|a| *a != first));
            (out, 0.0)
        }
    }

    /// Sample the decision's candidates by sequential halving on common deals: every candidate
    /// still in the running is played out on the same determinisations (deal k is the same
    /// game for all of them, so their means differ by what the candidates do, not by the luck
    /// of the deal); after each stage the worse half is dropped, and the budget of the stage
    /// goes to the survivors. The best mean at the end is played.
    fn sample(&mut self, g: &GameState, me: i32) -> Action {
        let (mut cands, gap) = self.candidates(g, me);
        if cands.len() == 1 || gap >= self.params.clear {
            return cands[0];
        }
        cands.truncate(self.params.width.max(2) as usize);
        let n = cands.len();
        let stages = (usize::BITS - (n - 1).leading_zeros()) as usize; // ceil(log2 n)
        let start = Instant::now();
        let mut budget = self.params.playouts.max(1) as usize;
        let mut deals: Vec<GameState> = Vec::new();
        let mut total = vec![0.0f64; n];
        let mut visits = vec![0usize; n];
        let mut alive: Vec<usize> = (0..n).collect();
        let mut spent = 0usize;
        for stage in 0..stages {
            let per = (budget.saturating_sub(spent) / (alive.len() * (stages - stage))).max(1);
            let target = visits_target(&visits, &alive, per);
            for &i in &alive {
                while visits[i] < target {
                    let k = visits[i];
                    while deals.len() <= k {
                        let d = self.deal(g, me);
                        deals.push(d);
                    }
                    let v = playout_from(&deals[k], me, cands[i], g.round);
                    total[i] += v;
                    visits[i] += 1;
                    spent += 1;
                }
            }
            if stage == 0 && self.params.time > 0.0 {
                // a time budget: as many playouts as the first stage's pace fits in it
                let pace = start.elapsed().as_secs_f64() / spent.max(1) as f64;
                budget = ((self.params.time / pace.max(1e-9)) as usize).clamp(spent, 1 << 20);
            }
            if alive.len() <= 1 {
                break;
            }
            // the better half goes on (the first of equals: the better prior)
            alive.sort_by(|&x, &y| {
                let (mx, my) = (total[x] / visits[x] as f64, total[y] / visits[y] as f64);
                my.partial_cmp(&mx).unwrap_or(std::cmp::Ordering::Equal).then(x.cmp(&y))
            });
            alive.truncate(alive.len().div_ceil(2));
        }
        let best = alive
            .iter()
            .copied()
            .max_by(|&x, &y| {
                let (mx, my) = (total[x] / visits[x] as f64, total[y] / visits[y] as f64);
                mx.partial_cmp(&my).unwrap_or(std::cmp::Ordering::Equal).then(y.cmp(&x))
            })
            .expect("a candidate");
        cands[best]
    }

    /// The opponent has passed: solve the rest of the round on a few deals (None: over budget).
    fn endgame(&mut self, g: &GameState, me: i32) -> Option<Action> {
        if self.params.solve <= 0 {
            return None;
        }
        if g.round < crate::state::ROUNDS {
            // before the last round the end of the round is a heuristic leaf, and solving
            // to it measured no better than sampling, for several times the cost
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

/// Every candidate alive reaches this many playouts in a stage: `per` more than the most any of
/// them has (so that all of them are compared on the same deals).
fn visits_target(visits: &[usize], alive: &[usize], per: usize) -> usize {
    alive.iter().map(|&i| visits[i]).max().unwrap_or(0) + per
}

/// One playout from a deal: `a` played, both seats played by the rollout policy to the end of
/// round `round` (of the game in round 4), the result valued for `me`.
fn playout_from(deal: &GameState, me: i32, a: Action, round: i32) -> f64 {
    let mut s = deal.clone();
    apply::apply(&mut s, a).expect("a legal action in a determinised state");
    let mut guard = 0;
    while !s.is_terminal() && s.round == round && guard < PLAYOUT_GUARD {
        guard += 1;
        let act = rollout_decision(&s);
        apply::apply(&mut s, act).expect("a legal action in a playout");
    }
    leaf_value(&s, me)
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
