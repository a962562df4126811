//! `search`: determinised Monte Carlo search over the player's own observation (flat: the
//! candidates of the decision at hand are compared by playouts; no tree below them).
//!
//! At each decision the player deals what it cannot see at random (the opponent's hand, hidden
//! characters and face-down attachments, both decks' order, and which missions are still to come
//! and which one each player set aside: `deal`), from its own generator, and never reads the
//! hidden truth.
//!
//! - **Main actions and effect choices**: every distinct legal option is a candidate, pass
//!   included (`endgame::distinct` collapses options that reach the same position up to which
//!   copy of a card is used), ordered by the one-step judgement (`evaluate::prior` for main
//!   actions, the heuristic's answer first inside effects), the best `width` of them kept (64 by
//!   default: in practice all of them; the pass is always kept). Measured on the sample decks
//!   against lookahead (720 games each, ±3.5): the judgement's best 4 won 52%, its best 8 63%,
//!   its best 16 67%, all of them 69%: the judgement misranks, so the search looks at everything.
//!   Candidates are compared by sequential halving on common deals: each stage plays every
//!   candidate still in the running out on the same determinisations, drops the worse half and
//!   gives its budget to the rest (`playouts` per candidate in all, at least one more per stage).
//!   A playout deals a determinisation, makes the candidate's move, lets the rollout policy
//!   (`evaluate::rollout_main` for main actions, the heuristic's answers inside effects) play both
//!   seats to the end of the round, and values what is left with `evaluate::leaf_value_with` (the
//!   game's result in round 4), its constants fitted to the outcomes of self-play games
//!   (`evaluate::LEAF_FITTED_HAND`; `leaf=0` the hand-tuned ones of before). Playing on to the end of the game measured worse (the rollout
//!   policy is weaker than the leaf value), so `rounds=1` is the default.
//!   A main action whose one-step judgement leads the next by `clear` is played unsearched.
//! - **Once the opponent has passed**: the rest of the round is the player's own puzzle, solved
//!   exactly on a few determinisations by `endgame::Solver` (every one of its decisions, the
//!   opponent's choices inside effects answered adversarially), within a budget of positions.
//!   The deals are dealt from one seed for the whole endgame and what was solved is kept, so the
//!   budget adds up from one decision to the next. Options worth the same on the deals solved
//!   are told apart by the one-step judgement (what the deals settled may be otherwise). Over budget, the sampling above picks the
//!   move and a search for a win alone (cheap: settled by the first win found; each option
//!   gets its share of the budget) makes sure the pick does not give up a win the deals still
//!   have. Only in round 4: before it the end of the round is a heuristic leaf, and solving to
//!   it measured no better than sampling, for several times the cost.
//! - **Choices inside effects** (targets, optional lines, trigger order, what to discard) are
//!   searched like main actions when the player decides them at the top of the search (every
//!   distinct answer a candidate, the heuristic's answer first); inside playouts the heuristic
//!   answers them (`heuristic::answer_choice`); in the endgame solver every answer of the player
//!   is searched and the opponent's are taken at their worst for the player.
//! - **The mulligan**: playouts of the kept hand against a mulligan's fresh hand of the same deck
//!   (as the player knows it), the same deals for both, to the end of round 2; the new hand is
//!   taken when its gain is clear of the playouts' noise (`takes_new_hand`).
//!
//! Budget: `playouts` per decision (reproducible: the same seed gives the same decisions), or
//! `time` seconds per decision (not reproducible: how many playouts fit depends on the machine).

use std::collections::HashMap;
use std::time::Instant;

use crate::apply;
use crate::rng::PyRandom;
use crate::state::{Action, DecisionKind, GameState, Opt};

use super::endgame::{Solver, Table, distinct};
use super::evaluate::{self, LeafConsts, WEIGHTS, leaf_consts, leaf_value_with};
use super::heuristic;
use super::mulligan::Mulligan;
use super::{Observation, Player, player_rng};

/// A playout stops after this many decisions even if the round goes on (a guard).
pub(super) const PLAYOUT_GUARD: usize = 400;

/// The search's budget and knobs, as a spec writes them (`search:playouts=64,…`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// playouts per decision, per candidate searched (sequential halving gives the better half
    /// more of them; every candidate alive gets at least one more in each stage)
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
    /// rounds a playout plays before its leaf is valued: 1 ends it with the current round
    pub rounds: i64,
    /// 1: choose by information-set search (`ismcts.rs`) instead of sequential halving
    pub tree: i64,
    /// the tree's PUCT exploration constant
    pub explore: f64,
    /// the leaf's constants (`evaluate::leaf_consts`): 0 hand-tuned, 1 its form fitted to game
    /// outcomes, 2 (the default) fitted with the hand and the chakra counted
    pub leaf: i64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            playouts: 2,
            time: 0.0,
            mulligan: 8,
            solve: 300,
            deals: 1,
            width: 64,
            clear: 3.0,
            rounds: 1,
            tree: 0,
            explore: 0.3,
            leaf: 2,
        }
    }
}

/// What the endgame solver finished, kept from one decision of the endgame to the next (and
/// forgotten with each new game): the seed its deals are dealt from, and per deal the exact
/// values and the win-or-not values of the positions solved.
#[derive(Default)]
struct Memo {
    seed: Option<i128>,
    exact: Vec<Table>,
    wins: Vec<Table>,
}

/// The search for a win alone may look at this many times the exact solver's budget.
const WIN_BUDGET: usize = 30;

pub struct Search {
    pub params: Params,
    memo: Memo,
    /// the state playouts are played in, copied from their deal (its buffers reused)
    pub(super) scratch: Option<GameState>,
    /// states a decision's deals are dealt into, kept for the next decision (their buffers reused)
    deals: Vec<GameState>,
    /// a fixed mulligan rule asked for instead of the playouts (None: the playouts decide)
    rule: Option<Mulligan>,
    rng: PyRandom,
    spec: String,
}

impl Search {
    pub fn new(params: Params, rule: Option<Mulligan>, spec: String) -> Search {
        Search { params, rule, rng: PyRandom::new(0), spec, memo: Memo::default(), scratch: None, deals: Vec::new() }
    }

    /// A full state consistent with what `me` knows, the unknown dealt from the player's generator.
    pub(super) fn deal(&mut self, g: &GameState, me: i32) -> GameState {
        deal_from(g, me, &mut self.rng)
    }

    /// The candidates of a decision with their one-step judgement, best first, the pass among
    /// the first `width` (so that it is always searched).
    pub(super) fn candidates(&self, g: &GameState, me: i32) -> (Vec<Action>, f64) {
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
    /// goes to the survivors. The best mean at the end is played. A candidate that could not
    /// stay in the running even if the rest of its stage's playouts were worth the most a playout
    /// is worth skips them (`out_of_the_running`): the same candidates go on, the same move is
    /// played, for fewer playouts.
    fn sample(&mut self, g: &GameState, me: i32) -> Action {
        let (mut cands, gap) = self.candidates(g, me);
        if cands.len() == 1 || gap >= self.params.clear {
            return cands[0];
        }
        cands.truncate(self.params.width.max(2) as usize);
        let n = cands.len();
        let stages = (usize::BITS - (n - 1).leading_zeros()) as usize; // ceil(log2 n)
        let start = Instant::now();
        let mut budget = self.params.playouts.max(1) as usize * n;
        // this decision's deals are the first `dealt` of the states kept
        let mut deals = std::mem::take(&mut self.deals);
        let mut dealt = 0;
        let mut total = vec![0.0f64; n];
        let mut visits = vec![0usize; n];
        let mut alive: Vec<usize> = (0..n).collect();
        let mut spent = 0usize;
        for stage in 0..stages {
            let per = (budget.saturating_sub(spent) / (alive.len() * (stages - stage))).max(1);
            let target = visits_target(&visits, &alive, per);
            // how many of the candidates alive go on to the next stage
            let goes_on = alive.len().div_ceil(2);
            for (at, &i) in alive.iter().enumerate() {
                while visits[i] < target && !crate::cancel::requested() {
                    if (stage > 0 || self.params.time <= 0.0)
                        && out_of_the_running(&total, &alive[..at], i, target - visits[i], target, goes_on)
                    {
                        // the rest of its playouts could not keep it in: counted as played
                        spent += target - visits[i];
                        visits[i] = target;
                        break;
                    }
                    let k = visits[i];
                    while dealt <= k {
                        if dealt == deals.len() {
                            deals.push(self.deal(g, me));
                        } else {
                            deal_into(&mut deals[dealt], g, me, &mut self.rng);
                        }
                        dealt += 1;
                    }
                    let last = g.round + self.params.rounds.max(1) as i32 - 1;
                    let leaf = leaf_consts(self.params.leaf);
                    let v = playout_from(copy_into(&mut self.scratch, &deals[k]), me, cands[i], last, leaf);
                    total[i] += v;
                    visits[i] += 1;
                    spent += 1;
                }
            }
            if stage == 0 && self.params.time > 0.0 {
                // a time budget: as many playouts as the first stage's pace fits in it
                let pace = start.elapsed().as_secs_f64() / spent.max(1) as f64;
                budget = ((self.params.time / pace.max(1e-9)) as usize).clamp(spent, TIMED_PLAYOUTS);
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
        deals.truncate(KEPT_DEALS); // (a long time budget deals thousands)
        self.deals = deals;
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

    /// The choice of a decision outside the endgame's exact solution: sequential halving
    /// (`sample`), or the information-set tree (`tree=1`).
    fn choose(&mut self, g: &GameState, me: i32) -> Action {
        if self.params.tree > 0 { self.tree_choice(g, me) } else { self.sample(g, me) }
    }

    /// The opponent has passed: solve the rest of the round on a few deals (None: not the last
    /// round, or no solver asked for).
    ///
    /// The deals are dealt again at every decision of the endgame from one seed drawn at its
    /// first, so that while the player learns nothing new they are the same deals, and what the
    /// solver finished before (kept in `memo`) is looked up instead of searched again: over a
    /// whole endgame the budget adds up. When the exact solution is over budget, sampling picks
    /// the move, and a cheaper search for a win alone (`WIN_BUDGET` times the budget) checks
    /// that the pick does not give up a win the deals still have.
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
        let budget = (self.params.solve as usize / deals).max(1);
        let seed = match self.memo.seed {
            Some(s) => s,
            None => {
                let s = self.rng.getrandbits(48) as i128;
                self.memo =
                    Memo { seed: Some(s), exact: vec![HashMap::new(); deals], wins: vec![HashMap::new(); deals] };
                s
            }
        };
        let dealt: Vec<GameState> =
            (0..deals).map(|k| deal_from(g, me, &mut PyRandom::new(seed * 64 + k as i128))).collect();
        let mut totals = vec![0.0; options.len()];
        let mut exact = true;
        for (k, d) in dealt.iter().enumerate() {
            let mut s = Solver::new(me, g.round, budget).with_table(std::mem::take(&mut self.memo.exact[k]));
            for (i, &a) in options.iter().enumerate() {
                match s.after(d, a) {
                    Some(v) => totals[i] += v,
                    None => {
                        exact = false;
                        break;
                    }
                }
            }
            self.memo.exact[k] = s.into_table();
        }
        if exact {
            let top = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let tied: Vec<Action> =
                options.iter().zip(&totals).filter(|&(_, &v)| v >= top - 1e-12).map(|(&a, _)| a).collect();
            if tied.len() == 1 {
                return Some(tied[0]);
            }
            // equal on the deals solved: the one-step judgement (the heuristic's answer inside an
            // effect) picks among them. It sees the board, where what the deals settled (a hidden
            // card, a deck's order) may still turn out otherwise: an option that adds Power, say,
            // is worth as much as a pass on the deal, more where the deal was wrong
            let (ranked, _) = self.candidates(g, me);
            return Some(ranked.into_iter().find(|a| tied.contains(a)).unwrap_or(tied[0]));
        }
        // over budget: sampling picks the move (for the margin), and a search for a win alone
        // makes sure it keeps one the deals still have
        let pick = self.choose(g, me);
        Some(self.keep_the_win(g, me, &dealt, &options, pick))
    }

    /// `pick`, unless it loses on some deal while another option wins on every one (the pass
    /// tried first, then the engine's order): that option then.
    fn keep_the_win(
        &mut self,
        g: &GameState,
        me: i32,
        dealt: &[GameState],
        options: &[Action],
        pick: Action,
    ) -> Action {
        let budget = (self.params.solve as usize / dealt.len()).max(1) * WIN_BUDGET;
        let mut solvers: Vec<Solver> = (0..dealt.len())
            .map(|k| Solver::for_wins(me, g.round, budget).with_table(std::mem::take(&mut self.memo.wins[k])))
            .collect();
        let mut order: Vec<Action> = vec![pick];
        if options.contains(&Action::Pass) && pick != Action::Pass {
            order.push(Action::Pass);
        }
        order.extend(options.iter().copied().filter(|a| *a != pick && *a != Action::Pass));
        let mut chosen = pick;
        let n = order.len();
        for (i, a) in order.into_iter().enumerate() {
            // each option gets its share of what is left of the budget (what an option leaves
            // unused goes to the ones after it), so that one whose search would take all of it
            // does not leave the rest unsearched: the win may be behind a cheaper one
            for s in solvers.iter_mut() {
                s.budget = s.nodes + budget.saturating_sub(s.nodes) / (n - i);
            }
            if dealt.iter().enumerate().all(|(k, d)| solvers[k].after(d, a) == Some(1.0)) {
                chosen = a;
                break;
            }
        }
        for (k, s) in solvers.into_iter().enumerate() {
            self.memo.wins[k] = s.into_table();
        }
        chosen
    }

    /// True: take a new hand (a mulligan), judged by playouts of both from the same deals to
    /// the end of round 2: the new hand is taken only when the evidence is clear (its mean gain
    /// over the kept hand, deal by deal, above twice its standard error). Without the
    /// threshold the two means of a few noisy playouts decide by chance: measured on the sample
    /// decks, every deck kept 48-52% of its hands with 8 playouts, whatever the deck.
    fn takes_new_hand(&mut self, g: &GameState, me: i32) -> bool {
        let n = self.params.mulligan.max(0) as usize;
        if n < 2 {
            return false;
        }
        let mut gains = Vec::with_capacity(n);
        for _ in 0..n {
            if crate::cancel::requested() {
                break; // (the mean of what was played, or no gain at all)
            }
            let base = self.deal(g, me);
            let mut v = [0.0f64; 2];
            for (k, take) in [false, true].into_iter().enumerate() {
                let s = copy_into(&mut self.scratch, &base);
                apply::apply(s, Action::Choose(Opt::Bool(take))).expect("a mulligan answer");
                let mut guard = 0;
                while !s.is_terminal() && s.round <= 2 && guard < 4 * PLAYOUT_GUARD {
                    guard += 1;
                    let act = rollout_decision(s);
                    apply::apply(s, act).expect("a legal action in a playout");
                }
                v[k] = leaf_value_with(s, me, leaf_consts(self.params.leaf));
            }
            gains.push(v[1] - v[0]);
        }
        let mean = gains.iter().sum::<f64>() / n as f64;
        let var = gains.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        mean > 2.0 * (var / n as f64).sqrt()
    }
}

/// At most this many playouts for a decision with a time budget: the deals of a decision are
/// kept until it is made (up to half the playouts, when two candidates are left), so a long time
/// budget on a fast machine would hold gigabytes of them (`search:time=30`: 2.1 GB measured).
/// 65,536 playouts keep at most 32,768 deals; a stop ([`crate::cancel`]) ends any budget at once.
pub(super) const TIMED_PLAYOUTS: usize = 1 << 16;

/// Every candidate alive reaches this many playouts in a stage: `per` more than the most any of
/// them has (so that all of them are compared on the same deals).
fn visits_target(visits: &[usize], alive: &[usize], per: usize) -> usize {
    alive.iter().map(|&i| visits[i]).max().unwrap_or(0) + per
}

/// Whether candidate `i`, with `left` of its playouts of the stage still to play, is out of the
/// running whatever they are worth: at least `goes_on` of the candidates that finished the stage
/// (`done`, `target` playouts each) rank above the best mean it could reach (a playout is worth
/// at most 1; equal means rank the earlier candidate first, as the halving sorts them).
fn out_of_the_running(total: &[f64], done: &[usize], i: usize, left: usize, target: usize, goes_on: usize) -> bool {
    if done.len() < goes_on {
        return false;
    }
    let mut best = total[i];
    for _ in 0..left {
        best += PLAYOUT_MAX;
    }
    let best = best / target as f64;
    done.iter()
        .filter(|&&j| {
            let m = total[j] / target as f64;
            m > best || (m == best && j < i)
        })
        .count()
        >= goes_on
}

/// The most a playout is worth (`leaf_value_with` and `terminal_value` are at most 1).
const PLAYOUT_MAX: f64 = 1.0;

/// `scratch` made a copy of `g` (in its own buffers once it has some).
pub fn copy_into<'a>(scratch: &'a mut Option<GameState>, g: &GameState) -> &'a mut GameState {
    match scratch {
        Some(s) => {
            s.clone_from(g);
            s
        }
        None => scratch.insert(g.clone()),
    }
}

/// One playout from a deal (`s`, a copy to play in): `a` played, both seats played by the rollout
/// policy to the end of round `last` (or of the game), the result valued for `me`.
fn playout_from(s: &mut GameState, me: i32, a: Action, last: i32, leaf: &LeafConsts) -> f64 {
    s.horizon = last;
    apply::apply(s, a).expect("a legal action in a determinised state");
    let mut guard = 0;
    while !s.is_terminal() && s.round <= last && guard < PLAYOUT_GUARD {
        guard += 1;
        rollout_step(s).expect("a legal action in a playout");
    }
    let v = leaf_value_with(s, me, leaf);
    debug_assert!((0.0..=PLAYOUT_MAX).contains(&v), "a playout worth {v}");
    v
}

/// One decision of the rollout policy applied (a main action by its place among the legal ones).
pub fn rollout_step(s: &mut GameState) -> Result<(), apply::ApplyError> {
    let d = s.pending.as_ref().expect("a pending decision");
    if d.kind == DecisionKind::Action && d.len() > 1 {
        let i = evaluate::rollout_main_index(&Observation::new(s, d.player));
        return apply::apply_nth(s, i);
    }
    let act = rollout_decision(s);
    apply::apply(s, act)
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

/// A full state consistent with what `me` knows of `g`: the unseen cards dealt from `rng`, and
/// the missions still to come dealt again (`redeal_missions`).
pub fn deal_from(g: &GameState, me: i32, rng: &mut PyRandom) -> GameState {
    let mut d = crate::determinize::determinize(g, me, rng);
    dealt(&mut d, rng);
    d
}

/// `deal_from` into `d` (its buffers reused).
fn deal_into(d: &mut GameState, g: &GameState, me: i32, rng: &mut PyRandom) {
    crate::determinize::determinize_into(d, g, me, rng);
    dealt(d, rng);
}

/// The missions redealt, and the record of the game so far (its decisions, its rounds'
/// statistics) not dealt: no rule reads it, and a deal is copied at every playout. Its Power
/// table is filled here, once: a copy takes it along, and a playout that reads the Power of the
/// deal's board before changing it (a pass, an upgrade, a judgement of the board) finds it
/// instead of filling it again in every copy.
fn dealt(d: &mut GameState, rng: &mut PyRandom) {
    redeal_missions(d, rng);
    d.history.clear();
    d.round_log.clear();
    drop(crate::power::table(d));
}

/// How many states for deals a search keeps from one decision to the next.
const KEPT_DEALS: usize = 64;

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
        self.memo = Memo::default();
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
        self.choose(g, player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Catalog;
    use crate::players::{drive_game, make_player, play_match, test_decks as decks};

    const SMALL: &str = "search:playouts=1,mulligan=2";

    #[test]
    fn a_candidate_that_cannot_catch_up_is_out_of_the_running() {
        // four candidates, two go on; 0 and 1 finished the stage with 3 playouts each
        let total = [2.5, 2.0, 0.4, 1.5];
        // 2 has one playout left: at best 1.4, behind both finished ones
        assert!(out_of_the_running(&total, &[0, 1], 2, 1, 3, 2));
        // with two left it could reach 2.4, above 2.0: still in
        assert!(!out_of_the_running(&total, &[0, 1], 2, 2, 3, 2));
        // 3 could reach 2.5 with one left: ahead of 1, not out
        assert!(!out_of_the_running(&total, &[0, 1], 3, 1, 3, 2));
        // too few finished to fill the places that go on
        assert!(!out_of_the_running(&total, &[0], 2, 1, 3, 2));
        // a tie at its best goes to the earlier candidate, as the halving sorts them
        let tie = [2.0, 1.0];
        assert!(out_of_the_running(&tie, &[0], 1, 1, 3, 1));
        assert!(!out_of_the_running(&[1.0, 2.0], &[1], 0, 1, 3, 1));
    }

    #[test]
    fn the_same_seed_gives_the_same_decisions() {
        let cat = Catalog::bundled();
        let d = decks(2, 21);
        let mut history = Vec::new();
        for seed in [5, 5, 6] {
            let mut a = make_player(SMALL, None).unwrap();
            let mut b = make_player("search", None).unwrap();
            history.push(play_match(cat, &d[0], &d[1], &mut *a, &mut *b, seed).unwrap().history);
        }
        assert_eq!(history[0], history[1]);
        assert_ne!(history[0], history[2]);
    }

    #[test]
    fn a_time_budget_finishes_its_games() {
        let cat = Catalog::bundled();
        let d = decks(2, 31);
        let mut a = make_player("search:time=0.0005", None).unwrap();
        let mut b = make_player("greedy", None).unwrap();
        let t = std::time::Instant::now();
        assert!(play_match(cat, &d[0], &d[1], &mut *a, &mut *b, 3).unwrap().is_terminal());
        assert!(t.elapsed().as_secs_f64() < 30.0);
    }

    /// Positions of real games (greedy plays both seats), some in round 4 after the opponent
    /// passed (where the endgame solver answers), each with what its player to move cannot see
    /// dealt again: the opponent's hand, hidden characters and face-down attachments, both decks'
    /// order and the missions still to come.
    #[test]
    fn search_does_not_peek() {
        let d = decks(8, 23);
        let mut rng = PyRandom::new(29);
        let (mut tested, mut endgames, mut hidden_changed) = (0, 0, 0);
        for seed in 0..80i128 {
            // every third game goes on to an endgame of round 4, the others stop at random
            let stop = rng.below(60) + 5;
            let endgame = seed % 3 == 0;
            let g = drive_game(&d[seed as usize % 8], &d[(seed as usize + 3) % 8], seed, "greedy", |g, steps| {
                let dd = g.pending.as_ref().unwrap();
                let at_endgame = g.round == crate::state::ROUNDS
                    && dd.kind == DecisionKind::Action
                    && g.players[1 - dd.player as usize].passed
                    && dd.len() > 1;
                (endgame && at_endgame) || (!endgame && steps >= stop && dd.len() > 1)
            });
            if g.is_terminal() {
                continue;
            }
            let me = g.pending.as_ref().unwrap().player;
            let mut other = crate::determinize::determinize(&g, me, &mut rng);
            redeal_missions(&mut other, &mut rng);
            let opp = 1 - me as usize;
            if other.players[opp].hand != g.players[opp].hand
                || other.players[me as usize].deck != g.players[me as usize].deck
            {
                hidden_changed += 1;
            }
            let (mut p1, mut p2) = (make_player(SMALL, None).unwrap(), make_player(SMALL, None).unwrap());
            p1.reset(99);
            p2.reset(99);
            tested += 1;
            endgames += endgame as usize;
            assert_eq!(p1.decide(&g, me), p2.decide(&other, me), "game {seed}: the hidden truth changed the choice");
        }
        assert!(tested >= 30 && endgames >= 8 && hidden_changed >= tested / 2, "{tested} {endgames} {hidden_changed}");
    }

    /// Round 4, the opponent (with the Edge) has passed; I have 5 chakra and Rock Lee (cost 1,
    /// Power 2), Naruto (2, 3) and Zabuza (3, 5) in hand. The opponent holds every mission:
    /// Zabuza (5) on the first (2 points), Rock Lee (2) on the second (3 points), Naruto (3) on
    /// the third (5 points), Rock Lee (2) on the fourth (5 points); ties go to the Edge, theirs.
    /// The one best line: Zabuza on the third (5 > 3), Naruto on the fourth (3 > 2), 10 points to
    /// 5 (Zabuza on the fourth and Naruto on the second wins 8 to 7; any Zabuza on the first or
    /// Naruto on the third is a tie, lost).
    fn the_puzzle() -> GameState {
        let json = r#"{
            "cards": ["SS-020", "KS-009", "KS-086", "KS-086", "SS-020", "KS-009", "SS-020",
                      "KS-006-MMS", "KS-003-MMS", "KS-010-MMS", "KS-001-MMS",
                      "SS-019", "SS-019", "SS-048", "SS-048", "SS-019"],
            "owner": [0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1],
            "players": [
                {"hand": [0, 1, 2], "deck": [11, 12], "chakra": 5, "score": 0},
                {"hand": [15], "deck": [13, 14], "chakra": 0, "score": 0, "passed": true}
            ],
            "units": [
                {"uid": 1, "stack": [3], "owner": 1, "controller": 1, "mission": 0},
                {"uid": 2, "stack": [4], "owner": 1, "controller": 1, "mission": 1},
                {"uid": 3, "stack": [5], "owner": 1, "controller": 1, "mission": 2},
                {"uid": 4, "stack": [6], "owner": 1, "controller": 1, "mission": 3}
            ],
            "missions": [
                {"card": 7, "rank": 0, "sides": [[], [1]]},
                {"card": 8, "rank": 1, "sides": [[], [2]]},
                {"card": 9, "rank": 2, "sides": [[], [3]]},
                {"card": 10, "rank": 3, "sides": [[], [4]]}
            ],
            "round": 4, "phase": "action", "edge": 1, "current": 0,
            "round_scores": [[0, 0], [0, 0], [0, 0], [0, 0]]
        }"#;
        crate::scenario::from_json(Catalog::bundled(), json).expect("the puzzle's board")
    }

    #[test]
    fn the_endgame_solver_finds_the_one_best_line() {
        let g = the_puzzle();
        assert_eq!(g.pending.as_ref().unwrap().player, 0);
        // the solver: the two first moves of the best line are the best options, and worth a win
        let solved = super::super::endgame::solve(&g, 0, 100_000).expect("within budget");
        let best = solved.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let firsts = [Action::Play(2, 2, false, -1), Action::Play(1, 3, false, -1)];
        for (a, v) in &solved {
            assert_eq!(firsts.contains(a), (*v - best).abs() < 1e-9, "{a}: {v} (best {best})");
        }
        // the search player plays it out: 10 points to 5
        let mut p = make_player("search", None).unwrap();
        p.reset(1);
        let mut s = g.clone();
        while !s.is_terminal() {
            let me = s.pending.as_ref().unwrap().player;
            let a = p.decide(&s, me);
            apply::apply(&mut s, a).unwrap();
        }
        assert_eq!((s.players[0].score, s.players[1].score, s.winner), (10, 5, 0));
    }

    #[test]
    fn the_win_search_agrees_with_the_exact_solution() {
        use super::super::endgame::Solver;
        let g = the_puzzle();
        let solved = super::super::endgame::solve(&g, 0, 100_000).expect("within budget");
        let mut exact = Solver::new(0, 4, 100_000);
        let mut wins = Solver::for_wins(0, 4, 100_000);
        for (a, v) in &solved {
            let w = wins.after(&g, *a).expect("within budget");
            assert_eq!(w == 1.0, *v >= 0.9, "{a}: exact {v}, win search {w}");
            exact.after(&g, *a).unwrap();
        }
        // settled by the first win found, it searches fewer positions
        assert!(wins.nodes < exact.nodes, "{} against {}", wins.nodes, exact.nodes);
    }

    #[test]
    fn what_was_solved_carries_into_the_next_decision() {
        use super::super::endgame::Solver;
        let g = the_puzzle();
        let mut first = Solver::new(0, 4, 100_000);
        first.value(&g).unwrap();
        let mut next = g.clone();
        apply::apply(&mut next, Action::Play(2, 2, false, -1)).unwrap();
        let mut fresh = Solver::new(0, 4, 100_000);
        let v = fresh.value(&next).unwrap();
        let mut carried = Solver::new(0, 4, 100_000).with_table(first.into_table());
        assert_eq!(carried.value(&next), Some(v));
        assert!(carried.nodes < fresh.nodes, "{} against {}", carried.nodes, fresh.nodes);
    }

    #[test]
    fn over_its_budget_the_solver_still_keeps_the_win() {
        // sampling's pick is checked: a pass here loses every mission, and is replaced by a move
        // that keeps the win
        let g = the_puzzle();
        let mut p = Search::new(Params::default(), None, String::new());
        p.reset(3);
        p.memo.wins = vec![HashMap::new()];
        let dealt = vec![p.deal(&g, 0)];
        let options = distinct(&g);
        let kept = p.keep_the_win(&g, 0, &dealt, &options, Action::Pass);
        assert_ne!(kept, Action::Pass);
        let solved = super::super::endgame::solve(&g, 0, 100_000).unwrap();
        let v = solved.iter().find(|x| x.0 == kept).unwrap().1;
        assert!(v >= 0.9, "{kept} is worth {v}");
        // a pick that wins is kept
        let best = solved.iter().max_by(|x, y| x.1.partial_cmp(&y.1).unwrap()).unwrap().0;
        assert_eq!(p.keep_the_win(&g, 0, &dealt, &options, best), best);
        // and the whole player wins the puzzle with an exact budget far too small for it
        for seed in 0..4 {
            let mut p = make_player("search:solve=2", None).unwrap();
            p.reset(seed);
            let mut s = the_puzzle();
            while !s.is_terminal() {
                let me = s.pending.as_ref().unwrap().player;
                let a = p.decide(&s, me);
                apply::apply(&mut s, a).unwrap();
            }
            assert_eq!(s.winner, 0, "seed {seed}");
        }
    }
}
