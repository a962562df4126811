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
//!
//! The leaf's constants are a named set (`LeafConsts`): the default was fitted to the outcomes of
//! self-play games (`LEAF_FITTED_HAND`, with the cards in hand and the chakra counted), the
//! hand-tuned set of before is `search:leaf=0`.

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

/// The constants of the leaf value (`leaf_margin`). Rounds to score are counted from this
/// one: a leaf at the start of round 2 has 3 (rounds 2, 3 and 4), of round 4 one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafConsts {
    /// a mission's chance of going to me is `sigmoid(Power difference / spread)`
    pub spread: f64,
    /// the Edge holder's Power bonus on each mission (it wins the ties)
    pub edge_mission: f64,
    /// a hidden character's printed Power counts this much while it can still be revealed
    pub hidden: f64,
    /// the expected points of the missions on the board weigh this much against the score, by
    /// rounds still to score them (1, 2, 3, 4)
    pub board: [f64; 4],
    /// the SCORE worth of a side's characters, and of the mission, counts this much
    pub char_score: f64,
    pub mission_score: f64,
    /// the Edge's worth in the final tie, in points
    pub tie: f64,
    /// the margin in points is turned into a value by `sigmoid(margin / scale)`, by rounds to score
    pub scale: [f64; 4],
    /// points a card in hand (more than the opponent's) is worth, and a chakra (this round's
    /// income, 5 and a chakra a character in play: in effect the characters in play)
    pub hand: f64,
    pub chakra: f64,
}

/// The hand-tuned leaf (issue 17 to the eleventh session): `spread` 2.5, Edge 0.5 on each
/// mission and in the tie, hidden Power at half, later rounds weighted `1 + 0.6 (rounds − 1)`,
/// `sigmoid(margin / 8)`. `search:leaf=0`.
pub const LEAF_HAND: LeafConsts = LeafConsts {
    spread: 2.5,
    edge_mission: 0.5,
    hidden: 0.5,
    // (written as the old formula computed them, so that its games are the same to the last bit)
    board: [hand_later(1.0), hand_later(2.0), hand_later(3.0), hand_later(4.0)],
    char_score: 1.0,
    mission_score: 1.0,
    tie: 0.5,
    scale: [8.0, 8.0, 8.0, 8.0],
    hand: 0.0,
    chakra: 0.0,
};

/// The hand-tuned form with its constants fitted to game outcomes (benchmarks/README.md, "A leaf
/// fitted to game outcomes"): maximum likelihood of the winner from the leaf's ingredients at the
/// start of rounds 2, 3 and 4 of 8,640 default self-play games. `search:leaf=1`.
pub const LEAF_FITTED: LeafConsts = LeafConsts {
    spread: 3.03,
    edge_mission: -0.14,
    hidden: 0.47,
    board: [1.0, 2.66, 4.31, 5.97],
    char_score: 1.0,
    mission_score: 1.0,
    tie: -0.66,
    scale: [4.24, 7.5, 10.39, 13.3],
    hand: 0.0,
    chakra: 0.0,
};

/// The default leaf: the same fit with two more ingredients, the cards in hand and the chakra
/// (this round's income: in effect the characters in play), which the hand-tuned form left out
/// and which the outcomes weigh at about 2 points each. Odd but measured: the Edge at the start of
/// a round is worth about a point less than nothing (its holder plays first), its bonus on each
/// mission small. Won 60.5% and 62.1% (± 2.1) of its games against the hand-tuned leaf.
/// `search:leaf=2`.
pub const LEAF_FITTED_HAND: LeafConsts = LeafConsts {
    spread: 3.47,
    edge_mission: 0.12,
    hidden: 0.39,
    board: [1.0, 1.8, 2.61, 3.41],
    char_score: 1.0,
    mission_score: 1.0,
    tie: -1.16,
    scale: [4.31, 4.83, 5.54, 6.25],
    hand: 1.97,
    chakra: 2.34,
};

/// The hand-tuned leaf's weight of the board by rounds to score.
const fn hand_later(rounds: f64) -> f64 {
    1.0 + 0.6 * (rounds - 1.0)
}

/// The leaf constants a spec's `leaf` number names (0: hand-tuned, 1: fitted).
pub fn leaf_consts(which: i64) -> &'static LeafConsts {
    match which {
        1 => &LEAF_FITTED,
        2 => &LEAF_FITTED_HAND,
        _ => &LEAF_HAND,
    }
}

/// The worth of a position to `me`, between 0 and 1 (about a chance of winning): the score so
/// far plus what the missions in play should still give each side, from the Power on them (a
/// hidden character's printed Power counted in part while it may still be revealed), their
/// points and SCORE effects, and the Edge. The hand-tuned constants (the endgame solver's, whose
/// leaves before round 4 are never reached; the search's are `leaf_value_with` the spec's `leaf`).
pub fn leaf_value(g: &GameState, me: i32) -> f64 {
    leaf_value_with(g, me, &LEAF_HAND)
}

/// `leaf_value` with the constants `k`.
pub fn leaf_value_with(g: &GameState, me: i32, k: &LeafConsts) -> f64 {
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
            leaf_margin(g, s, me, k)
        });
    }
    leaf_margin(g, g, me, k)
}

thread_local! {
    static SCORED: std::cell::RefCell<Option<GameState>> = const { std::cell::RefCell::new(None) };
}

/// `leaf_value` of a game not over, the Power read on `gs` (`g` as the missions will be scored).
fn leaf_margin(g: &GameState, gs: &GameState, me: i32, k: &LeafConsts) -> f64 {
    let opp = 1 - me;
    let rounds = rounds_to_score(g);
    let at = (rounds.clamp(1, 4) - 1) as usize;
    let edge = g.edge == me;
    let mut margin = (g.players[me as usize].score - g.players[opp as usize].score) as f64;
    // reveals are still possible in a later round, or in this one while its player has not passed
    let can_reveal = |p: i32| g.round < ROUNDS || !g.players[p as usize].passed;
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
                        side[p as usize] += k.hidden * card.power() as f64;
                    }
                } else {
                    extra[p as usize] += k.char_score * card.facts.score_worth;
                }
            }
        }
        if side[0] == 0.0 && side[1] == 0.0 {
            continue; // nobody contests it yet: who will is not on the board (and the Edge alone wins nothing)
        }
        let pts = power::mission_points(g, mi) as f64 + k.mission_score * g.card(m.card).facts.score_worth;
        let diff = side[me as usize] - side[opp as usize] + if edge { k.edge_mission } else { -k.edge_mission };
        let p_win = sigmoid(diff / k.spread);
        let mine = (pts + extra[me as usize]) * p_win;
        let theirs = (pts + extra[opp as usize]) * (1.0 - p_win);
        // this round's evaluation counts fully; the later ones are less sure
        margin += (mine - theirs) * k.board[at];
    }
    margin += if edge { k.tie } else { -k.tie }; // the game's tie
    if k.hand != 0.0 || k.chakra != 0.0 {
        let (a, b) = (&g.players[me as usize], &g.players[opp as usize]);
        margin += k.hand * (a.hand.len() as f64 - b.hand.len() as f64) + k.chakra * (a.chakra - b.chakra) as f64;
    }
    sigmoid(margin / k.scale[at])
}

/// The raw ingredients of `leaf_margin` for `me`, for fitting its constants to game outcomes
/// (`core/examples/leaf_lab.rs`): per mission contested, each side's Power as scored, the printed
/// Power of its hidden characters that can still be revealed, the SCORE worth of its visible
/// characters, and the mission's points and SCORE worth.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeafParts {
    /// my score minus the opponent's
    pub score: f64,
    /// whether `me` holds the Edge
    pub edge: bool,
    /// rounds in which the missions will still be scored (`rounds_to_score`)
    pub rounds: i64,
    /// per mission contested: [my Power, theirs, my hidden printed Power, theirs, my characters'
    /// SCORE worth, theirs, the mission's points, its SCORE worth]
    pub missions: Vec<[f64; 8]>,
    /// cards in hand and chakra, mine and the opponent's (not in the formula: candidates)
    pub hand: [f64; 2],
    pub chakra: [f64; 2],
}

/// `LeafParts` of a game not over (the Power read as the missions will be scored).
pub fn leaf_parts(g: &GameState, me: i32) -> LeafParts {
    let gs = as_scored(g);
    let opp = 1 - me;
    let rounds = rounds_to_score(g);
    let can_reveal = |p: i32| g.round < ROUNDS || !g.players[p as usize].passed;
    let mut out = LeafParts {
        score: (g.players[me as usize].score - g.players[opp as usize].score) as f64,
        edge: g.edge == me,
        rounds,
        missions: Vec::new(),
        hand: [g.players[me as usize].hand.len() as f64, g.players[opp as usize].hand.len() as f64],
        chakra: [g.players[me as usize].chakra as f64, g.players[opp as usize].chakra as f64],
    };
    if rounds == 0 {
        return out;
    }
    for (mi, m) in g.missions.iter().enumerate() {
        let mut row = [0.0f64; 8];
        for (k, p) in [me, opp].into_iter().enumerate() {
            for &uid in &m.sides[p as usize] {
                let u = g.u(uid);
                row[k] += power::power_of(&gs, uid) as f64;
                let card = g.unit_card(u);
                if u.hidden {
                    if can_reveal(p) {
                        row[2 + k] += card.power() as f64;
                    }
                } else {
                    row[4 + k] += card.facts.score_worth;
                }
            }
        }
        if row[0] == 0.0 && row[1] == 0.0 && row[2] == 0.0 && row[3] == 0.0 {
            continue;
        }
        row[6] = power::mission_points(g, mi) as f64;
        row[7] = g.card(m.card).facts.score_worth;
        out.missions.push(row);
    }
    out
}

/// `leaf_value_with` from its ingredients (what `core/examples/leaf_lab.rs` writes and the fit
/// re-implements): the same formula as `leaf_margin`.
pub fn value_from_parts(p: &LeafParts, k: &LeafConsts) -> f64 {
    let at = (p.rounds.clamp(1, 4) - 1) as usize;
    let e = if p.edge { 1.0 } else { -1.0 };
    let mut margin = p.score;
    for m in &p.missions {
        let (mine, theirs) = (m[0] + k.hidden * m[2], m[1] + k.hidden * m[3]);
        if mine == 0.0 && theirs == 0.0 {
            continue;
        }
        let pts = m[6] + k.mission_score * m[7];
        let p_win = sigmoid((mine - theirs + e * k.edge_mission) / k.spread);
        margin += ((pts + k.char_score * m[4]) * p_win - (pts + k.char_score * m[5]) * (1.0 - p_win)) * k.board[at];
    }
    margin += e * k.tie + k.hand * (p.hand[0] - p.hand[1]) + k.chakra * (p.chakra[0] - p.chakra[1]);
    sigmoid(margin / k.scale[at])
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
    // (a decision of face-down plays and a pass is judged without the board: none of them reads it)
    let b = if obs.actions().iter().any(|(a, _)| heuristic::action_reads_board(a)) {
        heuristic::board(obs, &WEIGHTS)
    } else {
        heuristic::Board::unread()
    };
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

    /// The ingredients the lab writes give back the leaf's value, for every constant set, in
    /// positions of real games (greedy plays both seats) at the start of rounds and inside them.
    #[test]
    fn the_leaf_is_its_ingredients() {
        let d = crate::players::test_decks(6, 41);
        let mut checked = 0;
        for seed in 0..24i128 {
            let stop = 10 + (seed as usize * 7) % 50;
            let g = crate::players::drive_game(
                &d[seed as usize % 6],
                &d[(seed as usize + 1) % 6],
                seed,
                "greedy",
                |_, n| n >= stop,
            );
            if g.is_terminal() {
                continue;
            }
            for me in [0, 1] {
                let parts = leaf_parts(&g, me);
                for which in 0..3 {
                    let k = leaf_consts(which);
                    let (a, b) = (leaf_value_with(&g, me, k), value_from_parts(&parts, k));
                    assert!((a - b).abs() < 1e-9, "seed {seed} seat {me} leaf {which}: {a} {b}");
                }
                checked += 1;
            }
        }
        assert!(checked >= 20, "{checked}");
    }

    /// The fitted leaf with the hand counts a card more in hand; the hand-tuned one does not.
    #[test]
    fn the_fitted_leaf_counts_the_hand() {
        let d = crate::players::test_decks(2, 43);
        let g = crate::players::drive_game(&d[0], &d[1], 3, "greedy", |_, n| n >= 12);
        assert!(!g.is_terminal());
        let mut more = g.clone();
        let card = more.players[0].deck.pop().expect("a card in the deck");
        more.players[0].hand.push(card);
        assert!(leaf_value_with(&more, 0, &LEAF_FITTED_HAND) > leaf_value_with(&g, 0, &LEAF_FITTED_HAND));
        assert_eq!(leaf_value_with(&more, 0, &LEAF_HAND), leaf_value_with(&g, 0, &LEAF_HAND));
    }
}
