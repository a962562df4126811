//! What a position is worth to the searching player, and the one-step judgement its search
//! starts from. Only `search` reads this file: the other players keep the evaluation of
//! `heuristic.rs`, the Python players' own, decision for decision.
//!
//! Three places where that evaluation is blind are fixed here:
//! - **Hidden plays late in the game.** A hidden character has 0 Power (plus its tokens) until it
//!   is revealed. In the last round, a hidden card that its player cannot (or will not) reveal
//!   before the missions are scored is worth its hidden Power only, not a flat bonus; a leaf
//!   counts a hidden character's printed Power only in part, and only while a round remains in
//!   which to reveal it.
//! - **Mission effects applied at scoring.** A mission is worth its points plus what its SCORE
//!   lines give the winner (a line that gains points is worth them, a card drawn or an enemy
//!   defeated a rough rate: `score_step_worth`), and a character's own SCORE lines add to what
//!   its side gains by winning the mission it stands on. Power that holds only while missions
//!   are scored (King of the Hill's +3 to the strongest character) is counted by valuing the
//!   board as the Mission phase will see it (`as_scored`).
//! - **The Edge.** The first to pass takes it; it wins the ties of every mission this round and
//!   the game's tie. A search that plays the pass out sees that directly; the leaf counts it on
//!   every mission still to be scored and in the final tie.

use crate::cards::{Card, Kind, Timing};
use crate::language::{Arg, Number, Side, Step, Verb, Who};
use crate::power;
use crate::state::{Action, GameState, ROUNDS};

use super::Observation;
use super::greedy::SEARCH_CONTROL;
use super::heuristic::{self, EffectCache, Weights};

/// The weights of the one-step judgement (the look-ahead's, a proven rollout policy).
pub const WEIGHTS: Weights = SEARCH_CONTROL;

/// What a step of a SCORE line gives the player who wins the mission, in mission points (a
/// rough rate for what is not points: a card drawn, a Power token, an enemy defeated).
fn score_step_worth(step: &Step) -> f64 {
    let n = match &step.arg {
        Arg::Number(Number::Int(n)) => *n as f64,
        _ => 1.0,
    };
    let enemy = step.selector().is_some_and(|s| s.side == Side::Enemy);
    let opponent = step.opts.who == Some(Who::Opponent);
    match step.verb {
        Verb::GainPoints => n,
        Verb::Powerup => 0.3 * n,
        Verb::Draw => 0.6 * n,
        Verb::GainChakra | Verb::StealChakra => 0.3 * n,
        Verb::Discard if opponent => 0.5 * n,
        Verb::Discard => -0.4 * n,
        Verb::Defeat | Verb::Hide | Verb::TakeControl if enemy => 1.5,
        Verb::Defeat | Verb::Hide if step.selector().is_some_and(|s| s.self_) => -1.0,
        Verb::ReturnToHand if step.must => -1.0,
        Verb::GainEdge => 0.5,
        _ => 0.1,
    }
}

/// What a card's SCORE lines give the winner of the mission it is on (a mission card, or a
/// character or attachment on the winner's side), in mission points.
pub fn score_worth(card: &Card) -> f64 {
    let mut total = 0.0;
    for line in &card.effects {
        if line.timing != Timing::Score || line.kind != Kind::Instant {
            continue;
        }
        let Some(enc) = &line.encoding else { continue };
        for step in &enc.steps {
            // a conditional step pays off about half the time
            let w = if step.cond.is_some() { 0.5 } else { 1.0 };
            total += w * score_step_worth(step);
        }
    }
    total
}

/// Rounds in which mission `mi`, as `g` stands, will still be scored (this round's evaluation
/// included while it has not happened yet).
fn rounds_to_score(g: &GameState) -> i64 {
    let this =
        if g.round >= 1 && matches!(g.phase, crate::state::Phase::Action | crate::state::Phase::Start) { 1 } else { 0 };
    ((ROUNDS - g.round) as i64 + this).max(0)
}

/// Whether a card has a Power static that holds only while missions are scored.
pub fn scores_differently(card: &Card) -> bool {
    card.continuous
        .iter()
        .flat_map(|c| c.statics.iter())
        .any(|s| s.cond.as_ref().is_some_and(|c| c.evaluating.is_some()))
}

/// The same board as the Mission phase will see it (its Power statics of scoring in force).
pub fn as_scored(g: &GameState) -> GameState {
    let mut s = g.clone();
    s.phase = crate::state::Phase::Evaluate;
    s
}

/// Logistic.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What a finished game is worth to `me`: a win above every loss; within each, a wider margin
/// above a narrower one (the search then also plays for points once the result is settled).
pub fn terminal_value(g: &GameState, me: i32) -> f64 {
    let margin = (g.players[me as usize].score - g.players[1 - me as usize].score) as f64;
    let tilt = 0.1 * sigmoid(margin / 6.0);
    if g.winner == me { 0.9 + tilt } else { tilt }
}

/// The worth of a position to `me`, between 0 and 1 (about a chance of winning): the score so
/// far plus what the missions in play should still give each side, from the Power on them (a
/// hidden character's printed Power counted in part while it may still be revealed), their
/// points and SCORE effects, and the Edge.
pub fn leaf_value(g: &GameState, me: i32) -> f64 {
    if g.is_terminal() {
        return terminal_value(g, me);
    }
    // Power as the missions will be scored (King of the Hill's +3 is there only then), on a
    // copy kept per thread (copied into its own buffers: no allocation)
    if g.missions.iter().any(|m| g.card(m.card).facts.scored_power) {
        return SCORED.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let s = super::search::copy_into(&mut scratch, g);
            s.phase = crate::state::Phase::Evaluate;
            leaf_margin(g, s, me)
        });
    }
    leaf_margin(g, g, me)
}

thread_local! {
    static SCORED: std::cell::RefCell<Option<GameState>> = const { std::cell::RefCell::new(None) };
}

/// `leaf_value` of a game not over, the Power read on `gs` (`g` as the missions will be scored).
fn leaf_margin(g: &GameState, gs: &GameState, me: i32) -> f64 {
    let opp = 1 - me;
    let rounds = rounds_to_score(g);
    let rf = rounds as f64;
    let edge = g.edge == me;
    let mut margin = (g.players[me as usize].score - g.players[opp as usize].score) as f64;
    // reveals are still possible in a later round, or in this one while its player has not passed
    let can_reveal = |p: i32| g.round < ROUNDS || !g.players[p as usize].passed;
    let spread = 2.5;
    let powers = power::table(gs); // (every character's Power read in one look at the memo)
    for (mi, m) in g.missions.iter().enumerate() {
        if rounds == 0 {
            break;
        }
        let mut side = [0.0f64; 2];
        let mut extra = [0.0f64; 2];
        for p in [me, opp] {
            for &uid in &m.sides[p as usize] {
                let u = g.u(uid);
                let pw = power::power_in(gs, &powers, gs.u(uid)) as f64;
                side[p as usize] += pw;
                let card = g.unit_card(u);
                if u.hidden {
                    if can_reveal(p) {
                        side[p as usize] += 0.5 * card.power() as f64;
                    }
                } else {
                    extra[p as usize] += card.facts.score_worth;
                }
            }
        }
        if side[0] == 0.0 && side[1] == 0.0 {
            continue; // nobody contests it yet: who will is not on the board (and the Edge alone wins nothing)
        }
        let pts = power::mission_points(g, mi) as f64 + g.card(m.card).facts.score_worth;
        let diff = side[me as usize] - side[opp as usize] + if edge { 0.5 } else { -0.5 };
        let p_win = sigmoid(diff / spread);
        let mine = (pts + extra[me as usize]) * p_win;
        let theirs = (pts + extra[opp as usize]) * (1.0 - p_win);
        // this round's evaluation counts fully; the later ones are less sure
        margin += (mine - theirs) * (1.0 + 0.6 * (rf - 1.0));
    }
    margin += if edge { 0.5 } else { -0.5 }; // the game's tie
    sigmoid(margin / 8.0)
}

/// Whether the card has an encoded AMBUSH line.
fn has_ambush(card: &Card) -> bool {
    heuristic::has_ambush(card)
}

/// The one-step judgement of a main action: the look-ahead's score, with hidden plays in the
/// last round judged by what they can still do (an AMBUSH its player can afford to reveal this
/// round, else its hidden Power only, which is nothing), and the Edge of a pass worth more when
/// the missions are close.
pub fn prior(obs: &Observation, action: &Action, price: i64, b: &heuristic::Board, cache: &mut EffectCache) -> f64 {
    let w = &WEIGHTS;
    match *action {
        Action::Play(inst, _, true, _) if obs.round() >= ROUNDS => {
            let card = obs.card(inst);
            let left = obs.chakra() - price;
            if has_ambush(card) && left >= card.cost() { 0.1 } else { -0.5 - w.chakra * price as f64 }
        }
        Action::Attach(inst, _, _, true) if obs.round() >= ROUNDS => {
            let card = obs.card(inst);
            if has_ambush(card) { 0.0 } else { -0.5 }
        }
        _ => heuristic::score_main(obs, action, price, b, w, cache),
    }
}

/// Every main action with its judgement, best first (the engine's order among equals).
pub fn ranked(obs: &Observation) -> Vec<(Action, f64)> {
    let b = heuristic::board(obs, &WEIGHTS);
    let mut cache = EffectCache::default();
    let mut out: Vec<(Action, f64)> =
        obs.actions().iter().map(|(a, price)| (*a, prior(obs, a, *price, &b, &mut cache))).collect();
    out.sort_by(|x, y| y.1.partial_cmp(&x.1).unwrap_or(std::cmp::Ordering::Equal));
    out
}

/// The rollout policy's main action: the best by the judgement above (the first of equals).
pub fn rollout_main(obs: &Observation) -> Action {
    obs.actions()[rollout_main_index(obs)].0
}

/// `rollout_main`, as its place among the legal actions.
pub fn rollout_main_index(obs: &Observation) -> usize {
    let b = heuristic::board(obs, &WEIGHTS);
    let mut cache = EffectCache::default();
    let (mut best, mut best_v) = (0, f64::NEG_INFINITY);
    for (i, (a, price)) in obs.actions().iter().enumerate() {
        let v = prior(obs, a, *price, &b, &mut cache);
        if v > best_v {
            (best, best_v) = (i, v);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Catalog;

    #[test]
    fn what_is_scored_is_worth_it() {
        let cat = Catalog::bundled();
        // King of the Hill: +3 Power only while the missions are scored
        let king = cat.cards.iter().find(|c| c.name == "King of the Hill").expect("King of the Hill in the catalog");
        assert!(scores_differently(king));
        // a SCORE line that gains points is worth them to the mission's winner
        let gains = |c: &&Card| {
            c.effects.iter().any(|l| {
                l.timing == Timing::Score
                    && l.encoding.as_ref().is_some_and(|e| e.steps.iter().any(|s| s.verb == Verb::GainPoints))
            })
        };
        let scorer = cat.cards.iter().find(gains).expect("a card whose SCORE line gains points");
        assert!(score_worth(scorer) >= 0.5, "{} {}", scorer.id, score_worth(scorer));
        // a mission without SCORE lines is worth its points only, and has no scoring Power
        let plain = cat
            .cards
            .iter()
            .find(|c| {
                c.ctype == crate::cards::CardType::Mission
                    && !c.effects.iter().any(|l| l.timing == Timing::Score)
                    && !scores_differently(c)
            })
            .unwrap();
        assert_eq!(score_worth(plain), 0.0);
    }

    #[test]
    fn a_win_is_worth_more_than_any_loss() {
        let cat = Catalog::bundled();
        let mut g = crate::setup::blank(cat, 1);
        g.phase = crate::state::Phase::Over;
        g.winner = 0;
        g.players[0].score = 10;
        g.players[1].score = 10;
        let narrow_win = terminal_value(&g, 0);
        g.winner = 1;
        g.players[1].score = 40;
        let wide_loss = terminal_value(&g, 0);
        g.players[1].score = 11;
        let narrow_loss = terminal_value(&g, 0);
        assert!(narrow_win > 0.9 && wide_loss < narrow_loss && narrow_loss < 0.1);
    }
}
