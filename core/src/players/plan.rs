//! Planning a round's spending: the archetypes `tempo`, `ambush` and `control`.
//!
//! A planning player values the best set of actions its chakra can pay for this round against
//! passing, and makes that plan's best play first. Two plays on one mission are valued together
//! (two may take a mission that neither takes alone; a second play where the first already wins
//! is worth less).

use crate::names::NameId;
use crate::rng::PyRandom;
use crate::state::{Action, DecisionKind, GameState};

use super::heuristic::{self, Board, EffectCache, Ranked, W0, Weights, win_prob};
use super::mulligan::Mulligan;
use super::{Observation, Player, player_rng};

/// How many actions a round plan holds at most.
pub const PLAN_DEPTH: usize = 3;
/// How many of the best single actions a plan is chosen from.
pub const PLAN_WIDTH: usize = 12;

pub const TEMPO: Weights = Weights {
    chakra: 0.0,
    hidden_bias: -2.0,
    newest_bias: 0.5,
    pass_margin: -0.1,
    edge: 0.4,
    effect_scale: 1.3,
    future_rounds: 0.6,
    ..W0
};

pub const AMBUSH: Weights = Weights {
    hidden_bias: 0.4,
    reveal_bias: 0.6,
    edge: 1.2,
    chakra: 0.03,
    future_rounds: 0.65,
    effect_scale: 1.2,
    card_in_hand: 0.25,
    pass_margin: 0.1,
    spread: 2.0,
    rank_bias: 0.08,
    ..W0
};

/// `ambush`'s hidden_bias in rounds 1-4: in the last round a hidden card only bluffs.
pub const AMBUSH_HIDDEN_BY_ROUND: [f64; 4] = [0.5, 0.4, 0.2, -0.3];

pub const CONTROL: Weights = Weights {
    rank_bias: 0.25,
    hold_chakra: 0.12,
    hidden_bias: 0.2,
    chakra: 0.04,
    edge: 0.6,
    effect_scale: 1.2,
    future_rounds: 0.7,
    card_in_hand: 0.35,
    spread: 1.9,
    pass_margin: 0.07,
    ..W0
};

/// One main action as it enters a round plan.
#[derive(Clone, Copy, Debug)]
struct Item {
    value: f64,
    action: Action,
    /// the mission whose Power it adds to, or -1 for an action valued on its own
    mission: i32,
    gain: i64,
    /// its value apart from that Power
    rest: f64,
    /// one name per mission side
    name: Option<(i32, NameId)>,
    price: i64,
    /// the card played or the unit revealed (a plan uses each once)
    ident: (bool, i32),
}

/// How a main action enters a round plan: (mission, Power it adds there, its value apart from
/// that Power, its name), or None for an action valued on its own (hidden plays, attachments).
fn plan_item(
    obs: &Observation,
    r: &Ranked,
    b: &Board,
    w: &Weights,
    cache: &mut EffectCache,
) -> Option<(usize, i64, f64, NameId)> {
    let (card, mi, eff, gain, hand_cost) = match r.action {
        Action::Play(inst, mi, false, over) => {
            let card = obs.card(inst);
            let mi = mi as usize;
            let (eff, selfp) = heuristic::played_effect_value(obs, card, mi, b, over >= 0, cache);
            let mut gain = card.power() + selfp;
            if over >= 0 {
                gain -= obs.unit_card(over).expect("a unit of mine").power();
            }
            (card, mi, eff, gain, if over >= 0 { 0.0 } else { w.card_in_hand * 0.6 })
        }
        Action::Reveal(uid) => {
            let card = obs.unit_card(uid).expect("a unit of mine");
            let mi = obs.mission_of(uid) as usize;
            let (eff, selfp) = heuristic::card_effect_value(obs, card, mi, b, false, true);
            (card, mi, eff, card.power() + selfp, -w.reveal_bias)
        }
        _ => return None,
    };
    let price = r.price;
    let hold = if !obs.opponent_passed() { w.hold_chakra * price as f64 } else { 0.0 };
    Some((mi, gain, w.effect_scale * eff - w.chakra * price as f64 - hand_cost - hold, card.name_key))
}

/// Python's `sum(list)` of floats: left to right from 0.
fn sum(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |a, &x| a + x)
}

struct Search<'p> {
    pool: &'p [Item],
    depth: usize,
    theirs: &'p [i64],
    weight: &'p [f64],
    edge: bool,
    open: bool,
    w: &'p Weights,
    base: f64,
    mine: Vec<i64>,
    parts: Vec<f64>,
    chosen: Vec<usize>,
    best: (Vec<Action>, f64),
}

impl Search<'_> {
    /// What mission `mi` is worth to me with Power `m` there.
    fn part(&self, mi: usize, m: i64) -> f64 {
        let t = self.theirs[mi];
        if m != 0 || t != 0 { self.weight[mi] * win_prob(m - t, self.edge, self.open, self.w) } else { 0.0 }
    }

    fn idents_or_names_clash(&self, it: &Item) -> bool {
        self.chosen.iter().any(|&k| {
            let x = &self.pool[k];
            x.ident == it.ident || (it.name.is_some() && x.name == it.name)
        })
    }

    fn run(&mut self, start: usize, rest_sum: f64, left: i64) {
        if !self.chosen.is_empty() {
            let v = sum(&self.parts) - self.base + rest_sum;
            if v > self.best.1 {
                self.best = (self.chosen.iter().map(|&k| self.pool[k].action).collect(), v);
            }
        }
        if self.chosen.len() >= self.depth {
            return;
        }
        for k in start..self.pool.len() {
            let it = self.pool[k];
            if it.price > left || self.idents_or_names_clash(&it) {
                continue;
            }
            let mut old = 0.0;
            if it.mission >= 0 {
                let mi = it.mission as usize;
                old = self.parts[mi];
                self.mine[mi] += it.gain;
                self.parts[mi] = self.part(mi, self.mine[mi]);
            }
            if self.chosen.len() + 1 >= self.depth {
                // a leaf: value it here (what the call below would do)
                let v = sum(&self.parts) - self.base + (rest_sum + it.rest);
                if v > self.best.1 {
                    let mut plan: Vec<Action> = self.chosen.iter().map(|&x| self.pool[x].action).collect();
                    plan.push(it.action);
                    self.best = (plan, v);
                }
            } else {
                self.chosen.push(k);
                self.run(k + 1, rest_sum + it.rest, left - it.price);
                self.chosen.pop();
            }
            if it.mission >= 0 {
                let mi = it.mission as usize;
                self.mine[mi] -= it.gain;
                self.parts[mi] = old;
            }
        }
    }
}

/// The best set of up to `depth` of my main actions this round that my chakra pays for
/// (different cards, one name per mission side), among the `PLAN_WIDTH` best single actions,
/// with the Power of plays on one mission added up before it is valued. `ranked` is
/// `ranked_main`'s list (its values are used for actions valued on their own). Returns the set's
/// actions, the best single action first, and the set's value (to beat passing).
pub fn round_plan(
    obs: &Observation,
    w: &Weights,
    ranked: &[Ranked],
    depth: usize,
    b: &Board,
    cache: &mut EffectCache,
) -> (Vec<Action>, f64) {
    let n = b.mine.len();
    let mut search = Search {
        pool: &[],
        depth,
        theirs: &b.theirs,
        weight: &b.weight,
        edge: b.edge,
        open: b.open,
        w,
        base: 0.0,
        mine: b.mine.to_vec(),
        parts: Vec::new(),
        chosen: Vec::new(),
        best: (Vec::new(), -1e9),
    };
    search.parts = (0..n).map(|mi| search.part(mi, b.mine[mi])).collect();
    search.base = sum(&search.parts);
    let mut items: Vec<Item> = Vec::with_capacity(ranked.len());
    for r in ranked {
        if r.action == Action::Pass {
            continue;
        }
        let ident = match r.action {
            Action::Reveal(uid) => (true, uid),
            Action::Play(c, ..) | Action::Attach(c, ..) | Action::RevealAttachment(c) => (false, c),
            _ => (false, -1),
        };
        let Some((mi, gain, rest, name)) = plan_item(obs, r, b, w, cache) else {
            items.push(Item {
                value: r.value,
                action: r.action,
                mission: -1,
                gain: 0,
                rest: r.value,
                name: None,
                price: r.price,
                ident,
            });
            continue;
        };
        let mut trial = search.parts.clone();
        trial[mi] = search.part(mi, b.mine[mi] + gain);
        items.push(Item {
            value: sum(&trial) - search.base + rest,
            action: r.action,
            mission: mi as i32,
            gain,
            rest,
            name: Some((mi as i32, name)),
            price: r.price,
            ident,
        });
    }
    items.sort_by(|x, y| y.value.partial_cmp(&x.value).unwrap_or(std::cmp::Ordering::Equal));
    items.truncate(PLAN_WIDTH);
    search.pool = &items;
    search.run(0, 0.0, obs.chakra());
    search.best
}

fn pass_value(ranked: &[Ranked]) -> f64 {
    ranked.iter().find(|r| r.action == Action::Pass).map_or(f64::INFINITY, |r| r.value)
}

/// Which archetype a planning player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// spends everything face-up, fast, and fights for the newest mission
    Tempo,
    /// plays cheap cards hidden, reveals late, bluffs, values the Edge
    Ambush,
    /// saves chakra for the late, valuable missions and answers rather than leads
    Control,
}

pub struct Planner {
    style: Style,
    mulligan: Mulligan,
    rng: PyRandom,
}

impl Planner {
    pub fn new(style: Style, mulligan: Mulligan) -> Planner {
        Planner { style, mulligan, rng: PyRandom::new(0) }
    }

    fn name(&self) -> &'static str {
        match self.style {
            Style::Tempo => "tempo",
            Style::Ambush => "ambush",
            Style::Control => "control",
        }
    }

    /// The weights of its effect choices (ambush's are its printed ones, whatever the round).
    fn weights(&self) -> Weights {
        match self.style {
            Style::Tempo => TEMPO,
            Style::Ambush => AMBUSH,
            Style::Control => CONTROL,
        }
    }

    fn main(&self, obs: &Observation) -> Action {
        if self.style == Style::Ambush {
            return ambush_main(obs);
        }
        let w = self.weights();
        let b = heuristic::board(obs, &w);
        let mut cache = EffectCache::default();
        let ranked = heuristic::ranked_main(obs, &w, &b, &mut cache);
        let (plan, value) = round_plan(obs, &w, &ranked, PLAN_DEPTH, &b, &mut cache);
        if plan.is_empty() || value <= pass_value(&ranked) {
            return Action::Pass;
        }
        plan[0]
    }
}

/// `ranked_main` with the card to hide chosen: one with an AMBUSH line, else the weakest
/// (lowest Power + cost), kept for the plan at the best hidden play's value.
fn ambush_ranked(obs: &Observation, w: &Weights, b: &Board, cache: &mut EffectCache) -> Vec<Ranked> {
    let mut ranked = heuristic::ranked_main(obs, w, b, cache);
    let hidden: Vec<usize> =
        (0..ranked.len()).filter(|&k| matches!(ranked[k].action, Action::Play(_, _, true, _))).collect();
    if !hidden.is_empty() {
        let preference = |k: usize| {
            let Action::Play(inst, mi, _, _) = ranked[k].action else { unreachable!() };
            let card = obs.card(inst);
            (10 * heuristic::has_ambush(card) as i64 - card.power() - card.cost(), mi)
        };
        let mut pick = hidden[0];
        for &k in &hidden[1..] {
            if preference(k) > preference(pick) {
                pick = k;
            }
        }
        let top = hidden.iter().map(|&k| ranked[k].value).fold(f64::NEG_INFINITY, |a, x| if x > a { x } else { a });
        for &k in &hidden {
            ranked[k].value = if k == pick { top } else { ranked[k].value.min(top) - 0.01 };
        }
    }
    heuristic::sort_best_first(&mut ranked);
    ranked
}

fn ambush_main(obs: &Observation) -> Action {
    let round = obs.round().clamp(1, 4) as usize;
    let w = Weights { hidden_bias: AMBUSH_HIDDEN_BY_ROUND[round - 1], ..AMBUSH };
    let b = heuristic::board(obs, &w);
    let mut cache = EffectCache::default();
    let ranked = ambush_ranked(obs, &w, &b, &mut cache);
    let (plan, value) = round_plan(obs, &w, &ranked, PLAN_DEPTH, &b, &mut cache);
    if plan.is_empty() || value <= pass_value(&ranked) {
        return Action::Pass;
    }
    if obs.opponent_passed() {
        return plan[0];
    }
    if let Some(a) = plan.iter().find(|a| !matches!(a, Action::Reveal(_))) {
        return *a; // reveals wait until the opponent has passed
    }
    if obs.round() >= 4 {
        return plan[0]; // the last round: reveals are all the plan has left
    }
    ranked.iter().find(|r| !matches!(r.action, Action::Reveal(_))).map_or(Action::Pass, |r| r.action)
}

impl Player for Planner {
    fn mulligan(&self) -> super::mulligan::Mulligan {
        self.mulligan
    }
    fn spec(&self) -> String {
        self.name().into()
    }
    fn reset(&mut self, seed: i128) {
        self.rng = player_rng(self.name(), seed);
    }
    fn decide(&mut self, g: &GameState, player: i32) -> Action {
        let obs = Observation::new(g, player);
        if obs.kind() == DecisionKind::Action {
            return self.main(&obs);
        }
        super::greedy::decide_other(&obs, self.mulligan, &self.weights())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_adds_left_to_right() {
        // (0.1 + 0.2) + 0.3 differs from 0.1 + (0.2 + 0.3): the order Python adds in is kept
        assert_eq!(sum(&[0.1, 0.2, 0.3]), (0.1 + 0.2) + 0.3);
        assert_ne!(sum(&[0.1, 0.2, 0.3]), 0.1 + (0.2 + 0.3));
    }
}
