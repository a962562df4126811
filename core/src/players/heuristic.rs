//! Board evaluation and one-step action scoring shared by the heuristic players.
//!
//! The value of a board for a player is the expected mission points still to come: for each
//! mission in play, its points this round (and, discounted, the rounds after) times a soft
//! probability of winning it, from the Power margin, the Edge and whether the opponent can still
//! answer. A main action is scored by how much it changes that value, plus what its card's
//! effects are worth, minus the chakra it spends. The same weights, tilted, make the archetypes.
//!
//! Every expression keeps the operand order of `mythos_cli/policies/heuristic.py`, so that the
//! floats, and so the choices, are bit for bit the Python player's.

use crate::cards::{Card, Kind, Timing};
use crate::language::{Arg, Number, Side, StaticKind, Step, Verb, Who};
use crate::rng::PyRandom;
use crate::state::{Action, DecisionContext, DecisionKind, Opt, Uid};

use super::Observation;

/// How a heuristic player values things. `tempo`, `ambush` and `control` tilt these.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// value of one chakra kept (it is lost at the end of the round anyway)
    pub chakra: f64,
    pub card_in_hand: f64,
    /// weight of the rounds after this one for a mission won now
    pub future_rounds: f64,
    pub edge: f64,
    /// extra value for playing hidden
    pub hidden_bias: f64,
    pub reveal_bias: f64,
    /// extra weight for the newest mission
    pub newest_bias: f64,
    /// extra weight per rank (A/B missions for control)
    pub rank_bias: f64,
    /// pass when no action is worth more than this
    pub pass_margin: f64,
    /// reluctance to spend before the opponent has passed
    pub hold_chakra: f64,
    pub effect_scale: f64,
    /// uncertainty of a margin while the opponent can still act
    pub spread: f64,
}

/// The neutral weights (the plain one-step baseline, and the yardstick of effect values).
pub const W0: Weights = Weights {
    chakra: 0.25,
    card_in_hand: 0.35,
    future_rounds: 0.45,
    edge: 0.6,
    hidden_bias: 0.0,
    reveal_bias: 0.0,
    newest_bias: 0.0,
    rank_bias: 0.0,
    pass_margin: 0.05,
    hold_chakra: 0.0,
    effect_scale: 1.0,
    spread: 2.5,
};

impl Default for Weights {
    fn default() -> Self {
        W0
    }
}

/// Soft chance to win a mission with this Power margin.
#[inline]
pub fn win_prob(margin: i64, edge: bool, open: bool, w: &Weights) -> f64 {
    if !open {
        return if margin > 0 || (margin == 0 && edge) { 1.0 } else { 0.0 };
    }
    // the players ask for the same few margins thousands of times a second: each value is
    // worked out once (the same float: the same expression) and remembered; those of the
    // neutral spread (every player's but two archetypes') in one table for the whole process,
    // read where it is asked (the rest out of line)
    if w.spread.to_bits() == W0.spread.to_bits() && margin.unsigned_abs() <= NEUTRAL_MARGINS as u64 {
        return NEUTRAL[(margin + NEUTRAL_MARGINS) as usize][edge as usize];
    }
    remembered(margin, edge, w)
}

/// `win_prob` of a margin off the neutral table, from the memo of the thread.
#[inline(never)]
fn remembered(margin: i64, edge: bool, w: &Weights) -> f64 {
    let key = margin.wrapping_mul(2) | edge as i64;
    let spread = w.spread.to_bits();
    let slot = ((key as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ spread) as usize % MEMO_SLOTS;
    WIN_PROB.with(|memo| {
        let (k, sp, v) = memo[slot].get();
        if k == key && sp == spread {
            return v;
        }
        let v = chance(margin, edge, w.spread);
        memo[slot].set((key, spread, v));
        v
    })
}

/// The soft chance itself.
fn chance(margin: i64, edge: bool, spread: f64) -> f64 {
    let m = margin as f64 + if edge { 0.5 } else { -0.5 };
    1.0 / (1.0 + (-m / spread).exp())
}

/// The margins of the neutral table: -N..=N.
const NEUTRAL_MARGINS: i64 = 63;

/// `chance` of the neutral spread, by margin (from -NEUTRAL_MARGINS) and Edge: written out, so
/// that reading it checks nothing first (a table made at first use is asked whether it is made
/// at every read, and its making is a call every reader must save registers for). A test checks
/// it against `chance`.
#[rustfmt::skip]
static NEUTRAL: [[f64; 2]; 2 * NEUTRAL_MARGINS as usize + 1] = [
    [9.309367170816405e-12, 1.3887943864771144e-11],
    [1.3887943864771144e-11, 2.0718377656779604e-11],
    [2.0718377656779604e-11, 3.0908187483128e-11],
    [3.0908187483128e-11, 4.610959744595613e-11],
    [4.610959744595613e-11, 6.87874362666144e-11],
    [6.87874362666144e-11, 1.0261879630648827e-10],
    [1.0261879630648827e-10, 1.530892547645113e-10],
    [1.530892547645113e-10, 2.2838233118399937e-10],
    [2.2838233118399937e-10, 3.4070640212690826e-10],
    [3.4070640212690826e-10, 5.082742252522506e-10],
    [5.082742252522506e-10, 7.582560422162385e-10],
    [7.582560422162385e-10, 1.1311850904920529e-09],
    [1.1311850904920529e-09, 1.687529854660775e-09],
    [1.687529854660775e-09, 2.5174987131004784e-09],
    [2.5174987131004784e-09, 3.75566675183327e-09],
    [3.75566675183327e-09, 5.602796406145941e-09],
    [5.602796406145941e-09, 8.358390031511923e-09],
    [8.358390031511923e-09, 1.2469252630268726e-08],
    [1.2469252630268726e-08, 1.8601938920883374e-08],
    [1.8601938920883374e-08, 2.7750831652298882e-08],
    [2.7750831652298882e-08, 4.1399375473943306e-08],
    [4.1399375473943306e-08, 6.17606095414305e-08],
    [6.17606095414305e-08, 9.21359998566181e-08],
    [9.21359998566181e-08, 1.3745075389942726e-07],
    [1.3745075389942726e-07, 2.0505241551469094e-07],
    [2.0505241551469094e-07, 3.059022269256247e-07],
    [3.059022269256247e-07, 4.5635242853276525e-07],
    [4.5635242853276525e-07, 6.8079767091185e-07],
    [6.8079767091185e-07, 1.015630439496253e-06],
    [1.015630439496253e-06, 1.5151418164850468e-06],
    [1.5151418164850468e-06, 2.2603242979035746e-06],
    [2.2603242979035746e-06, 3.372003863690787e-06],
    [3.372003863690787e-06, 5.0304303017551306e-06],
    [5.0304303017551306e-06, 7.50450159711e-06],
    [7.50450159711e-06, 1.1195359505113293e-05],
    [1.1195359505113293e-05, 1.670142184809518e-05],
    [1.670142184809518e-05, 2.4915388939429926e-05],
    [2.4915388939429926e-05, 3.716893710288947e-05],
    [3.716893710288947e-05, 5.5448524722794907e-05],
    [5.5448524722794907e-05, 8.271722285166639e-05],
    [8.271722285166639e-05, 0.00012339457598623172],
    [0.00012339457598623172, 0.000184071904963424],
    [0.000184071904963424, 0.0002745781561013329],
    [0.0002745781561013329, 0.00040956716498605043],
    [0.00040956716498605043, 0.000610879359434401],
    [0.000610879359434401, 0.0009110511944006454],
    [0.0009110511944006454, 0.0013585199504289591],
    [0.0013585199504289591, 0.002025320389049882],
    [0.002025320389049882, 0.003018416324708424],
    [0.003018416324708424, 0.004496273160941178],
    [0.004496273160941178, 0.0066928509242848554],
    [0.0066928509242848554, 0.009951801866904324],
    [0.009951801866904324, 0.014774031693273055],
    [0.014774031693273055, 0.021881270936130476],
    [0.021881270936130476, 0.032295464698450516],
    [0.032295464698450516, 0.04742587317756678],
    [0.04742587317756678, 0.06913842034334682],
    [0.06913842034334682, 0.09975048911968513],
    [0.09975048911968513, 0.14185106490048777],
    [0.14185106490048777, 0.19781611144141825],
    [0.19781611144141825, 0.2689414213699951],
    [0.2689414213699951, 0.35434369377420455],
    [0.35434369377420455, 0.45016600268752216],
    [0.45016600268752216, 0.549833997312478],
    [0.549833997312478, 0.6456563062257954],
    [0.6456563062257954, 0.7310585786300049],
    [0.7310585786300049, 0.8021838885585817],
    [0.8021838885585817, 0.8581489350995123],
    [0.8581489350995123, 0.9002495108803148],
    [0.9002495108803148, 0.9308615796566533],
    [0.9308615796566533, 0.9525741268224334],
    [0.9525741268224334, 0.9677045353015494],
    [0.9677045353015494, 0.9781187290638694],
    [0.9781187290638694, 0.9852259683067269],
    [0.9852259683067269, 0.9900481981330957],
    [0.9900481981330957, 0.9933071490757153],
    [0.9933071490757153, 0.9955037268390589],
    [0.9955037268390589, 0.9969815836752917],
    [0.9969815836752917, 0.9979746796109501],
    [0.9979746796109501, 0.9986414800495711],
    [0.9986414800495711, 0.9990889488055994],
    [0.9990889488055994, 0.9993891206405656],
    [0.9993891206405656, 0.9995904328350139],
    [0.9995904328350139, 0.9997254218438986],
    [0.9997254218438986, 0.9998159280950366],
    [0.9998159280950366, 0.9998766054240137],
    [0.9998766054240137, 0.9999172827771484],
    [0.9999172827771484, 0.9999445514752772],
    [0.9999445514752772, 0.9999628310628971],
    [0.9999628310628971, 0.9999750846110607],
    [0.9999750846110607, 0.999983298578152],
    [0.999983298578152, 0.999988804640495],
    [0.999988804640495, 0.9999924954984029],
    [0.9999924954984029, 0.9999949695696981],
    [0.9999949695696981, 0.9999966279961363],
    [0.9999966279961363, 0.999997739675702],
    [0.999997739675702, 0.9999984848581834],
    [0.9999984848581834, 0.9999989843695606],
    [0.9999989843695606, 0.9999993192023292],
    [0.9999993192023292, 0.9999995436475715],
    [0.9999995436475715, 0.999999694097773],
    [0.999999694097773, 0.9999997949475846],
    [0.9999997949475846, 0.9999998625492461],
    [0.9999998625492461, 0.9999999078640001],
    [0.9999999078640001, 0.9999999382393905],
    [0.9999999382393905, 0.9999999586006244],
    [0.9999999586006244, 0.9999999722491683],
    [0.9999999722491683, 0.999999981398061],
    [0.999999981398061, 0.9999999875307474],
    [0.9999999875307474, 0.9999999916416099],
    [0.9999999916416099, 0.9999999943972036],
    [0.9999999943972036, 0.9999999962443333],
    [0.9999999962443333, 0.9999999974825013],
    [0.9999999974825013, 0.9999999983124701],
    [0.9999999983124701, 0.9999999988688149],
    [0.9999999988688149, 0.9999999992417439],
    [0.9999999992417439, 0.9999999994917257],
    [0.9999999994917257, 0.9999999996592936],
    [0.9999999996592936, 0.9999999997716176],
    [0.9999999997716176, 0.9999999998469107],
    [0.9999999998469107, 0.9999999998973812],
    [0.9999999998973812, 0.9999999999312126],
    [0.9999999999312126, 0.9999999999538904],
    [0.9999999999538904, 0.9999999999690918],
    [0.9999999999690918, 0.9999999999792817],
    [0.9999999999792817, 0.999999999986112],
    [0.999999999986112, 0.9999999999906906],
];

const MEMO_SLOTS: usize = 128;

thread_local! {
    /// (margin * 2 + edge, the spread's bits, the chance), direct-mapped (on the heap: a
    /// module loaded into Python has little room for thread-local data of its own)
    static WIN_PROB: Box<[std::cell::Cell<(i64, u64, f64)>]> =
        (0..MEMO_SLOTS).map(|_| std::cell::Cell::new((i64::MIN, 0, 0.0))).collect();
}

pub fn mission_weight(obs: &Observation, mi: usize, w: &Weights) -> f64 {
    mission_weight_of(obs, mi, obs.mission_points(mi), w)
}

/// `mission_weight`, the mission's points (`base`) already known.
fn mission_weight_of(obs: &Observation, mi: usize, base: i64, w: &Weights) -> f64 {
    weight_with(obs, mi, base, later_rounds(obs, w), w)
}

/// The factor of a mission's points for the rounds after this one.
#[inline]
fn later_rounds(obs: &Observation, w: &Weights) -> f64 {
    let rounds_left = (4 - obs.round()).max(0);
    1.0 + w.future_rounds * rounds_left as f64
}

/// `mission_weight_of`, the factor of the rounds after this one (`later`) already known.
#[inline]
fn weight_with(obs: &Observation, mi: usize, base: i64, later: f64, w: &Weights) -> f64 {
    let mut weight = base as f64 * later;
    if mi + 1 == obs.n_missions() {
        weight *= 1.0 + w.newest_bias;
    }
    weight *= 1.0 + w.rank_bias * obs.mission_rank(mi) as f64;
    weight
}

/// Power on each mission, mine and theirs, with what each mission is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub mine: PerMission<i64>,
    pub theirs: PerMission<i64>,
    pub weight: PerMission<f64>,
    pub edge: bool,
    pub open: bool,
}

impl Board {
    pub fn value(&self, w: &Weights) -> f64 {
        let mut total = 0.0;
        for ((&m, &t), &wt) in self.mine.iter().zip(self.theirs.iter()).zip(self.weight.iter()) {
            if m == 0 && t == 0 {
                continue;
            }
            total += wt * win_prob(m - t, self.edge, self.open, w);
        }
        total
    }
}

/// How many missions a [`PerMission`] holds in place: a game has four.
const IN_PLACE: usize = 4;

/// One value per mission in play, held in place (a board is judged at every decision of every
/// playout: no allocation); a scenario's board with more missions than a game has is held on the heap.
#[derive(Clone, Debug, PartialEq)]
pub struct PerMission<T> {
    len: usize,
    here: [T; IN_PLACE],
    more: Vec<T>,
}

impl<T: Copy + Default> PerMission<T> {
    /// `n` values, each the default.
    pub fn new(n: usize) -> PerMission<T> {
        PerMission {
            len: n,
            here: [T::default(); IN_PLACE],
            more: if n > IN_PLACE { vec![T::default(); n] } else { Vec::new() },
        }
    }
}

impl<T: Copy + Default> From<Vec<T>> for PerMission<T> {
    fn from(v: Vec<T>) -> Self {
        let mut out = PerMission::new(v.len());
        out.copy_from_slice(&v);
        out
    }
}

impl<T> std::ops::Deref for PerMission<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        if self.len <= IN_PLACE { &self.here[..self.len] } else { &self.more }
    }
}

impl<T> std::ops::DerefMut for PerMission<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        if self.len <= IN_PLACE { &mut self.here[..self.len] } else { &mut self.more }
    }
}

impl Board {
    /// (my Power, theirs, the mission's weight) on mission `mi`. A game's board holds its missions
    /// in place: they are read there without making a slice of each (every judgement of a main
    /// action reads them); a scenario's bigger board is read through the slices.
    #[inline]
    fn at(&self, mi: usize) -> (i64, i64, f64) {
        let n = self.mine.len;
        if mi < n.min(IN_PLACE) && self.theirs.len == n && self.weight.len == n {
            (self.mine.here[mi], self.theirs.here[mi], self.weight.here[mi])
        } else {
            (self.mine[mi], self.theirs[mi], self.weight[mi])
        }
    }

    /// A board no mission of which is read (for a judgement that does not read it).
    pub fn unread() -> Board {
        Board {
            mine: PerMission::new(0),
            theirs: PerMission::new(0),
            weight: PerMission::new(0),
            edge: false,
            open: true,
        }
    }
}

pub fn board(obs: &Observation, w: &Weights) -> Board {
    let n = obs.n_missions();
    // (made where it is returned, and filled there: every decision of every playout judges one)
    let mut b = Board {
        mine: PerMission::new(n),
        theirs: PerMission::new(n),
        weight: PerMission::new(n),
        edge: obs.has_edge(),
        open: !obs.opponent_passed(),
    };
    obs.side_powers_into(&mut b.mine, &mut b.theirs);
    let mut points = PerMission::<i64>::new(n);
    obs.mission_points_into(&mut points);
    // (the factor of the rounds left worked out once for every mission)
    let later = later_rounds(obs, w);
    for (mi, (x, &base)) in b.weight.iter_mut().zip(points.iter()).enumerate() {
        *x = weight_with(obs, mi, base, later, w);
    }
    b
}

// ---------------------------------------------------------------------------------------
// what an effect is worth, read off its encoding

/// The step's count when it is a plain number, else 2 (a remembered value, a count, "all").
fn step_n(step: &Step) -> i64 {
    match &step.arg {
        Arg::Number(Number::Int(n)) => *n,
        _ => 2,
    }
}

fn arg_side(step: &Step) -> Option<Side> {
    step.selector().map(|s| s.side)
}

/// Value of removing the best enemy a selector allows (hide/defeat), and its mission.
fn best_enemy(obs: &Observation, step: &Step, mi: usize, b: &Board, source: Uid) -> (f64, i32) {
    let (mut best, mut at) = (0.0, -1);
    let Some(sel) = step.selector() else { return (best, at) };
    obs.for_each_selected_enemy(sel, mi as i32, source, |uid| {
        let p = obs.power(uid);
        let m = obs.mission_of(uid) as usize;
        let (mine, theirs, wt) = b.at(m);
        let before = wt * win_prob(mine - theirs, b.edge, b.open, &W0);
        let after = wt * win_prob(mine - (theirs - p), b.edge, b.open, &W0);
        let gain = after - before + 0.15 * p as f64;
        if gain > best {
            (best, at) = (gain, m as i32);
        }
    });
    (best, at)
}

/// Whether `step_value` of the step reads the board (the verbs whose worth is a Power margin).
fn reads_board(step: &Step) -> bool {
    matches!(step.verb, Verb::Powerup | Verb::Hide | Verb::Defeat | Verb::TakeControl)
}

/// Rough worth of one effect step for its controller (this player).
pub fn step_value(obs: &Observation, step: &Step, mi: usize, b: &Board, source: Uid) -> f64 {
    let n = step_n(step);
    let nf = n as f64;
    match step.verb {
        Verb::Powerup => match &step.target {
            None => power_gain(b, mi, n),
            Some(t) if t.self_ => power_gain(b, mi, n),
            Some(t) if t.side == Side::Enemy => -0.2 * nf,
            Some(_) => {
                // the best of my missions with a character on it (the first best, as max() keeps)
                let mut best: Option<f64> = None;
                for m in 0..b.mine.len() {
                    if b.mine[m] > 0 {
                        let v = power_gain(b, m, n);
                        if best.is_none_or(|x| v > x) {
                            best = Some(v);
                        }
                    }
                }
                best.unwrap_or(0.2 * nf)
            }
        },
        Verb::Hide | Verb::Defeat => {
            let Some(sel) = step.selector() else { return 0.1 };
            if sel.side == Side::Friendly || sel.self_ {
                return -0.5;
            }
            let (gain, _) = best_enemy(obs, step, mi, b, source);
            gain * if step.verb == Verb::Defeat { 1.3 } else { 1.0 }
        }
        Verb::TakeControl => best_enemy(obs, step, mi, b, source).0 * 1.5,
        _ => board_free_step_value(step),
    }
}

/// `step_value` of a step that does not read the board (`!reads_board(step)`).
fn board_free_step_value(step: &Step) -> f64 {
    let n = step_n(step);
    let nf = n as f64;
    let who = step.opts.who;
    match step.verb {
        Verb::Draw => match who {
            Some(Who::Opponent) => -0.3 * nf,
            Some(Who::Each) => 0.1 * nf,
            None => 0.35 * nf,
        },
        Verb::GainChakra | Verb::StealChakra => {
            if who == Some(Who::Opponent) {
                return -0.3 * nf;
            }
            (if step.verb == Verb::GainChakra { 0.3 } else { 0.5 }) * nf
        }
        Verb::Discard => {
            if who == Some(Who::Opponent) {
                0.3 * nf
            } else {
                -0.3 * nf
            }
        }
        Verb::RemoveTokens => 0.4 * nf,
        Verb::GainPoints => 1.0 * nf,
        Verb::GainEdge => 0.5,
        Verb::Play => 1.2,
        Verb::Move => 0.2,
        Verb::ReturnToHand => -0.3,
        _ => 0.1,
    }
}

fn power_gain(b: &Board, mi: usize, n: i64) -> f64 {
    let (mine, theirs, wt) = b.at(mi);
    let before = wt * win_prob(mine - theirs, b.edge, b.open, &W0);
    let after = wt * win_prob(mine + n - theirs, b.edge, b.open, &W0);
    after - before + 0.05 * n as f64
}

/// Whether the card has an encoded instant line (else its effect value depends on the card alone).
fn has_instant(card: &Card) -> bool {
    card.facts.instant
}

/// Whether the card has an encoded AMBUSH line.
pub fn has_ambush(card: &Card) -> bool {
    card.facts.ambush
}

/// Whether `card_effect_value` of the card may change with the mission it is played in.
pub fn depends_on_mission(card: &Card) -> bool {
    card.facts.mission_bound
}

/// `card_effect_value` of a card with no encoded instant line (its continuous lines only).
pub(super) fn reads_plain_worth(card: &Card) -> (f64, i64) {
    if reads_instant(card) {
        return (0.0, 0); // (valued on the board at each play)
    }
    effect_value(None, card, 0, &Board::unread(), false, false)
}

/// Whether an instant line with this timing applies to a play (`upgrade`) or a reveal from AMBUSH.
fn line_applies(timing: Timing, upgrade: bool, ambush: bool) -> bool {
    timing == Timing::Main || (timing == Timing::Upgrade && upgrade) || (timing == Timing::Ambush && ambush)
}

/// A step `effect_value` adds to the card's own Power instead of valuing it.
fn self_powerup(step: &Step) -> Option<i64> {
    if step.verb == Verb::Powerup
        && step.target.as_ref().is_none_or(|t| t.self_)
        && let Arg::Number(Number::Int(n)) = step.arg
    {
        return Some(n);
    }
    None
}

/// `card_effect_value` of a card with an instant line when none of the lines that apply reads
/// the board (the same floats, added in the same order), else None (once, into its facts).
pub(super) fn reads_board_free(card: &Card, upgrade: bool, ambush: bool) -> Option<(f64, i64)> {
    if !reads_instant(card) {
        return None;
    }
    let free = card.effects.iter().all(|line| {
        line.kind != Kind::Instant
            || !line_applies(line.timing, upgrade, ambush)
            || line
                .encoding
                .as_ref()
                .is_none_or(|enc| enc.steps.iter().all(|step| self_powerup(step).is_some() || !reads_board(step)))
    });
    free.then(|| effect_value(None, card, 0, &Board::unread(), upgrade, ambush))
}

/// `has_instant` read off the card's lines (once, into its facts).
pub(super) fn reads_instant(card: &Card) -> bool {
    card.effects.iter().any(|l| l.kind == Kind::Instant && l.encoding.is_some())
}

/// `has_ambush` read off the card's lines.
pub(super) fn reads_ambush(card: &Card) -> bool {
    card.effects.iter().any(|l| l.timing == Timing::Ambush && l.encoding.is_some())
}

/// `depends_on_mission` read off the card's lines: the verbs whose worth reads the mission.
pub(super) fn reads_mission(card: &Card) -> bool {
    card.effects.iter().any(|l| {
        l.kind == Kind::Instant
            && l.encoding.as_ref().is_some_and(|e| {
                e.steps.iter().any(|x| matches!(x.verb, Verb::Powerup | Verb::Hide | Verb::Defeat | Verb::TakeControl))
            })
    })
}

/// (value of the card's instant effects when played in mission `mi`, Power it adds to itself).
pub fn card_effect_value(
    obs: &Observation,
    card: &Card,
    mi: usize,
    b: &Board,
    upgrade: bool,
    ambush: bool,
) -> (f64, i64) {
    if !has_instant(card) {
        // a card with no encoded instant line: its continuous lines only, the same wherever it is
        // played (the Python player memoises this per card, valued as a plain play)
        return card.facts.plain_worth;
    }
    if let Some(v) = board_free(card, upgrade, ambush) {
        return v;
    }
    effect_value(Some(obs), card, mi, b, upgrade, ambush)
}

fn effect_value(
    obs: Option<&Observation>,
    card: &Card,
    mi: usize,
    b: &Board,
    upgrade: bool,
    ambush: bool,
) -> (f64, i64) {
    let (mut total, mut self_power) = (0.0, 0);
    for line in &card.effects {
        let Some(enc) = &line.encoding else { continue };
        let applies = line_applies(line.timing, upgrade, ambush);
        if line.kind == Kind::Continuous {
            total += 0.4 * enc.statics.len() as f64 + 0.3 * enc.triggers.len() as f64;
            for s in &enc.statics {
                if s.kind == StaticKind::Power && s.target.is_none() && s.cond.is_none() && s.opts.per.is_none() {
                    if let Number::Int(n) = s.n {
                        self_power += n;
                    }
                }
            }
            continue;
        }
        if line.kind != Kind::Instant || !applies {
            continue;
        }
        for step in &enc.steps {
            if let Some(n) = self_powerup(step) {
                self_power += n;
                continue;
            }
            total += match obs {
                Some(obs) => step_value(obs, step, mi, b, -1),
                None => {
                    debug_assert!(!reads_board(step), "a step that reads the board is valued on it");
                    board_free_step_value(step)
                }
            };
        }
    }
    (total, self_power)
}

/// `card_effect_value` when the board does not enter: a card with no instant line, or none that
/// applies reading the board (worked out once, into the card's facts).
fn board_free(card: &Card, upgrade: bool, ambush: bool) -> Option<(f64, i64)> {
    if !has_instant(card) {
        return Some(card.facts.plain_worth);
    }
    match (upgrade, ambush) {
        (false, false) => card.facts.board_free[0],
        (true, false) => card.facts.board_free[1],
        (false, true) => card.facts.board_free[2],
        (true, true) => None,
    }
}

/// The memo of card effect values of one decision (a face-up play's value depends only on the
/// card, on its mission when its effects read it, and on whether it upgrades). Its first values
/// are held in place: a playout's decision that remembers any remembers one or two, and a list
/// on the heap would be made and freed at each.
#[derive(Default)]
pub struct EffectCache {
    /// ((card, mission or -1, upgrade), (value, Power added to itself)), the first `IN_PLACE`
    here: [(EffectKey, (f64, i64)); IN_PLACE],
    len: usize,
    /// the rest
    more: Vec<(EffectKey, (f64, i64))>,
}

impl EffectCache {
    fn find(&self, key: EffectKey) -> Option<(f64, i64)> {
        let here = &self.here[..self.len.min(IN_PLACE)];
        here.iter().chain(self.more.iter()).find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn push(&mut self, key: EffectKey, v: (f64, i64)) {
        if self.len < IN_PLACE {
            self.here[self.len] = (key, v);
        } else {
            self.more.push((key, v));
        }
        self.len += 1;
    }
}

type EffectKey = (u16, i32, bool);

/// `card_effect_value` of a face-up play, memoised in the decision's cache.
#[inline]
pub fn played_effect_value(
    obs: &Observation,
    card: &Card,
    mi: usize,
    b: &Board,
    upgrade: bool,
    cache: &mut EffectCache,
) -> (f64, i64) {
    // (most plays are worth what their card's facts say: read where they are asked, the memo
    // of those that read the board out of line)
    if let Some(v) = board_free(card, upgrade, false) {
        return v;
    }
    played_on_board(obs, card, mi, b, upgrade, cache)
}

/// `played_effect_value` of a play whose worth reads the board.
#[inline(never)]
fn played_on_board(
    obs: &Observation,
    card: &Card,
    mi: usize,
    b: &Board,
    upgrade: bool,
    cache: &mut EffectCache,
) -> (f64, i64) {
    let key = (card.index, if depends_on_mission(card) { mi as i32 } else { -1 }, upgrade);
    if let Some(v) = cache.find(key) {
        return v;
    }
    let v = card_effect_value(obs, card, mi, b, upgrade, false);
    cache.push(key, v);
    v
}

// ---------------------------------------------------------------------------------------
// scoring main actions

/// Change in board value when my Power on mission `mi` grows by `gain`.
pub fn delta(b: &Board, mi: usize, gain: i64, w: &Weights) -> f64 {
    let (m, t, wt) = b.at(mi);
    let (now, then) = (m - t, m + gain - t);
    let near = NEUTRAL_MARGINS as u64;
    if b.open && w.spread.to_bits() == W0.spread.to_bits() && now.unsigned_abs() <= near && then.unsigned_abs() <= near
    {
        // (the usual case: both chances off the neutral table, as `win_prob` reads them, with no
        // call that would make every judgement save and restore registers)
        let table = &NEUTRAL;
        let e = b.edge as usize;
        let before = if m == 0 && t == 0 { 0.0 } else { wt * table[(now + NEUTRAL_MARGINS) as usize][e] };
        let after = if m + gain == 0 && t == 0 { 0.0 } else { wt * table[(then + NEUTRAL_MARGINS) as usize][e] };
        return after - before;
    }
    delta_at(b, m, t, wt, gain, w)
}

/// `delta` off the board's figures for the mission, its chances worked out by `win_prob`.
#[inline(never)]
fn delta_at(b: &Board, m: i64, t: i64, wt: f64, gain: i64, w: &Weights) -> f64 {
    let before = if m == 0 && t == 0 { 0.0 } else { wt * win_prob(m - t, b.edge, b.open, w) };
    let after = if m + gain == 0 && t == 0 { 0.0 } else { wt * win_prob(m + gain - t, b.edge, b.open, w) };
    after - before
}

fn hold(obs: &Observation, w: &Weights, price: i64) -> f64 {
    if !obs.opponent_passed() { w.hold_chakra * price as f64 } else { 0.0 }
}

/// The top card of one of my units (a unit the engine offers me to reveal or upgrade is mine to see).
fn my_unit_card(obs: &Observation, uid: Uid) -> &'static Card {
    obs.unit_card(uid).expect("a unit of mine")
}

/// Whether `score_main`'s judgement of a main action reads the board: a reveal, or a face-up play
/// or attachment (a face-down one, a pass and a choice are judged without it).
pub fn action_reads_board(a: &Action) -> bool {
    match *a {
        Action::Reveal(_) | Action::RevealAttachment(_) => true,
        Action::Play(_, _, hidden, _) | Action::Attach(_, _, _, hidden) => !hidden,
        Action::Pass | Action::Choose(_) => false,
    }
}

pub fn score_main(
    obs: &Observation,
    action: &Action,
    price: i64,
    b: &Board,
    w: &Weights,
    cache: &mut EffectCache,
) -> f64 {
    match *action {
        Action::Pass => {
            let mut v = 0.0;
            if !obs.opponent_passed() && !obs.has_edge() {
                v += w.edge; // the first to pass takes the Edge
            }
            v + w.pass_margin
        }
        Action::Attach(..) | Action::RevealAttachment(_) => score_attach(obs, action, b, w, price),
        Action::Reveal(uid) => {
            let card = my_unit_card(obs, uid);
            let mi = obs.mission_of(uid) as usize;
            let (eff, selfp) = card_effect_value(obs, card, mi, b, false, true);
            let v = delta(b, mi, card.power() + selfp, w);
            v + w.effect_scale * eff - w.chakra * price as f64 + w.reveal_bias - hold(obs, w, price)
        }
        Action::Play(inst, mi, hidden, over) => {
            let card = obs.card(inst);
            if hidden {
                // a hidden card adds no Power now but is a threat (and a bluff); its AMBUSH waits
                return 0.15 + (if has_ambush(card) { 0.5 } else { 0.0 }) + w.hidden_bias
                    - w.chakra * price as f64
                    - w.card_in_hand * 0.5;
            }
            let mi = mi as usize;
            let (eff, selfp) = played_effect_value(obs, card, mi, b, over >= 0, cache);
            let mut gain = card.power() + selfp;
            if over >= 0 {
                gain -= my_unit_card(obs, over).power(); // the stack's tokens stay; only the printed Power changes
            }
            let v = delta(b, mi, gain, w);
            let hand_cost = if over >= 0 { 0.0 } else { w.card_in_hand * 0.6 };
            v + w.effect_scale * eff - w.chakra * price as f64 - hand_cost - hold(obs, w, price)
        }
        Action::Choose(_) => 0.0,
    }
}

/// An attachment is worth its Power where it lands (on my side, or taken off an enemy's character
/// when its Power is negative), like a Power gain on that mission, plus its effects.
fn score_attach(obs: &Observation, action: &Action, b: &Board, w: &Weights, price: i64) -> f64 {
    let (inst, mi, host, hidden, reveal) = match *action {
        Action::RevealAttachment(inst) => {
            let (host, mi) = obs.attachment_place(inst);
            (inst, mi, host, false, true)
        }
        Action::Attach(inst, mi, host, hidden) => (inst, mi, host, hidden, false),
        _ => unreachable!("an attachment action"),
    };
    let card = obs.card(inst);
    if hidden {
        return 0.1 + (if has_ambush(card) { 0.4 } else { 0.0 }) + w.hidden_bias
            - w.chakra * price as f64
            - w.card_in_hand * 0.5;
    }
    let mi = mi as usize;
    let p = card.power();
    let mine = host < 0 || obs.is_mine(host);
    let mut gain = if mine { p } else { -p };
    let (eff, selfp) = card_effect_value(obs, card, mi, b, false, reveal);
    if mine {
        gain += selfp;
    }
    let hand_cost = if reveal { 0.0 } else { w.card_in_hand * 0.6 };
    delta(b, mi, gain, w) + w.effect_scale * eff - w.chakra * price as f64 - hand_cost - hold(obs, w, price)
}

/// The best main action by one-step score, ties broken by a millionth of noise from `rng` (one
/// draw per legal action, in order, as the Python player draws).
pub fn best_main(obs: &Observation, w: &Weights, rng: &mut PyRandom) -> Action {
    let b = board(obs, w);
    let mut cache = EffectCache::default();
    let (mut best, mut best_v) = (None, -1e9);
    for (a, price) in obs.actions() {
        let v = score_main(obs, a, *price, &b, w, &mut cache) + rng.random() * 1e-6;
        if v > best_v {
            (best, best_v) = (Some(*a), v);
        }
    }
    best.expect("a legal main action")
}

/// A main action with its one-step score and price.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    pub value: f64,
    pub action: Action,
    pub price: i64,
}

/// Every main action with its one-step score, best first (a stable sort: ties keep the engine's
/// order, as Python's `sorted` does).
pub fn ranked_main(obs: &Observation, w: &Weights, b: &Board, cache: &mut EffectCache) -> Vec<Ranked> {
    let mut out: Vec<Ranked> = obs
        .actions()
        .iter()
        .map(|(a, price)| Ranked { value: score_main(obs, a, *price, b, w, cache), action: *a, price: *price })
        .collect();
    sort_best_first(&mut out);
    out
}

/// Sort by value, highest first, stably (Python's `sorted(key=lambda t: -t[0])`).
pub fn sort_best_first(v: &mut [Ranked]) {
    v.sort_by(|x, y| y.value.partial_cmp(&x.value).unwrap_or(std::cmp::Ordering::Equal));
}

// ---------------------------------------------------------------------------------------
// answering effect choices

/// The effect steps a decision is about (empty for main actions and mulligans).
fn context_steps<'a>(obs: &Observation<'a>) -> &'a [&'static Step] {
    match &obs.decision().context {
        DecisionContext::None => &[],
        DecisionContext::Step(s) => std::slice::from_ref(s),
        DecisionContext::Line(v) => v,
    }
}

/// Opt::Skip is Python's None among the options.
fn real(opts: &[Opt]) -> impl Iterator<Item = Opt> + '_ {
    opts.iter().copied().filter(|o| *o != Opt::Skip)
}

fn int(o: Opt) -> i32 {
    match o {
        Opt::Int(i) => i,
        Opt::Bool(b) => b as i32,
        _ => 0,
    }
}

pub fn answer_choice(obs: &Observation, w: &Weights) -> Action {
    let d = obs.decision();
    let opts = &d.options;
    let steps = context_steps(obs);
    let step = steps.first().copied();
    let pick = match d.kind {
        DecisionKind::YesNo => Opt::Bool(worth_taking(obs, steps, w)),
        DecisionKind::Target => pick_target(obs, step, opts),
        DecisionKind::Mission => pick_mission(obs, step, opts, w),
        DecisionKind::Number => {
            let most = real(opts).map(int).max().expect("a number to choose");
            if step.is_some_and(|s| s.verb == Verb::SpendChakra) {
                Opt::Int(if obs.opponent_passed() || obs.round() == 4 { most } else { most.div_euclid(2) })
            } else {
                Opt::Int(most)
            }
        }
        DecisionKind::Card => pick_card(obs, step, opts),
        DecisionKind::Place => pick_place(obs, opts, w),
        _ => opts[0],
    };
    Action::Choose(pick)
}

/// Whether the line is worth taking: `line_worth` not below 0. A line of steps none of which can
/// be worth less than nothing is taken without judging the board (a playout asks it at most of
/// the lines it meets, and the board's Power table is filled for it): its worth is a sum of
/// values that are each at least 0.
fn worth_taking(obs: &Observation, steps: &[&'static Step], w: &Weights) -> bool {
    if steps.iter().any(|s| reads_board(s))
        && steps.iter().all(|s| never_negative(s))
        && (!steps.iter().any(|s| s.verb == Verb::Powerup) || weights_not_negative(obs, w))
    {
        return true;
    }
    line_worth(obs, steps, w) >= 0.0
}

/// Whether `step_value` of the step is at least 0 on any board whose missions all weigh at
/// least 0 (`weights_not_negative`; only a Power gain reads the weights): more Power on my side
/// never lowers a mission's chance (`win_prob` grows with the margin), the best enemy to remove
/// is worth at least 0 (`best_enemy` starts there), and a step that does not read the board is
/// worth what it is worth.
fn never_negative(step: &Step) -> bool {
    match step.verb {
        Verb::Powerup => step_n(step) >= 0 && step.target.as_ref().is_none_or(|t| t.self_ || t.side != Side::Enemy),
        Verb::Hide | Verb::Defeat => step.selector().is_none_or(|sel| sel.side != Side::Friendly && !sel.self_),
        Verb::TakeControl => true,
        _ => board_free_step_value(step) >= 0.0,
    }
}

/// Whether every mission in play weighs at least 0 in the board `board` would judge (its points
/// may be lowered by a static): the weights worked out as `board` works them out, without the
/// Power on the missions.
fn weights_not_negative(obs: &Observation, w: &Weights) -> bool {
    let n = obs.n_missions();
    let mut points = PerMission::<i64>::new(n);
    obs.mission_points_into(&mut points);
    let later = later_rounds(obs, w);
    points.iter().enumerate().all(|(mi, &base)| weight_with(obs, mi, base, later, w) >= 0.0)
}

fn line_worth(obs: &Observation, steps: &[&'static Step], w: &Weights) -> f64 {
    if steps.is_empty() {
        return 1.0;
    }
    // (most lines are worth the same on any board: the board is judged only for those that read it)
    let b = if steps.iter().any(|s| reads_board(s)) { board(obs, w) } else { Board::unread() };
    let source = obs.decision().source;
    let mi = if source >= 0 { obs.mission_of(source) } else { 0 };
    let mut total = 0.0;
    for s in steps {
        total += step_value(obs, s, mi.max(0) as usize, &b, source);
    }
    total
}

fn unit_value(obs: &Observation, uid: Uid) -> f64 {
    let mi = obs.mission_of(uid);
    // (a unit off the board would read the last mission, as Python's index -1 does)
    let mi = if mi < 0 { obs.n_missions() - 1 } else { mi as usize };
    obs.power(uid) as f64 * (1.0 + obs.mission_points(mi) as f64 * 0.2) + 0.1
}

fn pick_target(obs: &Observation, step: Option<&Step>, opts: &[Opt]) -> Opt {
    let first = real(opts).next().expect("a target to choose");
    let Some(step) = step else { return first };
    let side = arg_side(step);
    let mut harmful =
        matches!(step.verb, Verb::Hide | Verb::Defeat | Verb::TakeControl | Verb::RemoveTokens | Verb::ReturnToHand)
            || (step.verb == Verb::Move && side == Some(Side::Enemy));
    if step.verb == Verb::Move && side == Some(Side::Any) {
        harmful = !real(opts).all(|o| obs.is_mine(int(o)));
    }
    // the first of the best (as a stable sort, best first, keeps it)
    let (top, uid) = first_best(
        real(opts).map(|o| {
            let uid = int(o);
            let mine = obs.is_mine(uid);
            let v = unit_value(obs, uid);
            // harmful: good on an enemy, bad on mine; helpful: the reverse
            (if harmful != mine { v } else { -v }, o)
        }),
        |(v, _)| v,
        false,
    );
    if top < 0.0 && opts.contains(&Opt::Skip) {
        return Opt::Skip;
    }
    uid
}

/// What taking mission `mi` is worth to me: its weight times my chance of not winning it now.
fn flip_gain(b: &Board, mi: usize, w: &Weights) -> f64 {
    b.weight[mi] * (1.0 - win_prob(b.mine[mi] - b.theirs[mi], b.edge, b.open, w))
}

/// The first option with the highest (or lowest) key, as Python's `max` and `min` keep.
fn first_best<T: Copy, K: PartialOrd>(items: impl Iterator<Item = T>, key: impl Fn(T) -> K, lowest: bool) -> T {
    let mut best: Option<(T, K)> = None;
    for x in items {
        let k = key(x);
        let better = match &best {
            None => true,
            Some((_, bk)) => {
                if lowest {
                    k < *bk
                } else {
                    k > *bk
                }
            }
        };
        if better {
            best = Some((x, k));
        }
    }
    best.expect("an option").0
}

fn pick_mission(obs: &Observation, step: Option<&Step>, opts: &[Opt], w: &Weights) -> Opt {
    let b = board(obs, w);
    // moving: put a friendly character where it flips a mission; an enemy where it matters least
    let enemy = step.is_some_and(|s| s.verb == Verb::Move && arg_side(s) == Some(Side::Enemy));
    first_best(real(opts), |o| flip_gain(&b, int(o) as usize, w), enemy)
}

fn pick_card(obs: &Observation, step: Option<&Step>, opts: &[Opt]) -> Opt {
    let card = |o: Opt| obs.card(int(o));
    if step.is_some_and(|s| s.verb == Verb::Play) {
        return first_best(real(opts), |o| (card(o).power, card(o).cost()), false);
    }
    // discarding (mine or, when I choose, the opponent's): lose the least, take the most
    if step.is_some_and(|s| s.verb == Verb::Discard && s.opts.who == Some(Who::Opponent) && s.opts.chooser_you) {
        return first_best(real(opts), |o| (card(o).cost(), card(o).power()), false);
    }
    first_best(real(opts), |o| (card(o).power() + card(o).cost(), int(o)), true)
}

fn pick_place(obs: &Observation, opts: &[Opt], w: &Weights) -> Opt {
    let b = board(obs, w);
    first_best(
        real(opts),
        |o| match o {
            Opt::Place(mi, _, price) => flip_gain(&b, mi as usize, w) - 0.1 * price as f64,
            _ => f64::NEG_INFINITY,
        },
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line taken without judging the board (`worth_taking`'s shortcut) is one `line_worth`
    /// values at no less than 0: at every fourth decision of random games, every encoded line of
    /// the catalog whose steps read the board (and each such step alone, and two no card prints), under the search's weights, the neutral ones,
    /// weights that tilt towards the newest and the higher missions and weights under which some
    /// missions weigh less than nothing; and at every yes/no
    /// decision, the answer is the same either way.
    #[test]
    fn a_line_taken_unjudged_is_worth_taking() {
        use crate::cards::Catalog;
        let cat = Catalog::bundled();
        let lines: Vec<Vec<&'static Step>> = cat
            .cards
            .iter()
            .flat_map(|c| c.effects.iter())
            .filter_map(|l| l.encoding.as_ref())
            .flat_map(|e| std::iter::once(e.steps.iter().collect()).chain(e.steps.iter().map(|s| vec![s])))
            .filter(|steps: &Vec<&Step>| steps.iter().any(|s| reads_board(s)))
            .collect();
        // (and steps no card prints, made from one that does: a Power gain on an enemy, a loss)
        let gain = lines.iter().flatten().find(|s| s.verb == Verb::Powerup && s.target.is_some()).unwrap();
        let mut on_enemy = (*gain).clone();
        on_enemy.target.as_mut().unwrap().side = Side::Enemy;
        let mut loss = (*gain).clone();
        (loss.target, loss.arg) = (None, Arg::Number(Number::Int(-2)));
        let made: [&'static Step; 2] = [Box::leak(Box::new(on_enemy)), Box::leak(Box::new(loss))];
        let mut lines = lines;
        lines.extend(made.iter().map(|&s| vec![s]));
        let tilted = Weights { newest_bias: 0.5, rank_bias: 0.25, future_rounds: 0.7, ..W0 };
        // (missions past the first rank weighing less than nothing: no gain is taken unjudged there)
        let upside_down = Weights { rank_bias: -2.0, ..W0 };
        let weights = [W0, super::super::evaluate::WEIGHTS, tilted, upside_down];
        let mut rng = PyRandom::new(29);
        let (mut shortcut, mut answers) = (0, 0);
        for k in 0..12 {
            let a = crate::setup::GameDeck::random(cat, &mut rng, |_| true, String::new());
            let b = crate::setup::GameDeck::random(cat, &mut rng, |_| true, String::new());
            let mut g = crate::setup::new_game(cat, &a, &b, k, false, None).unwrap();
            while !g.is_terminal() {
                let d = g.pending.as_ref().unwrap();
                let obs = Observation::new(&g, d.player);
                for w in &weights {
                    if d.kind == DecisionKind::YesNo {
                        let steps = context_steps(&obs);
                        let worth = steps.is_empty() || line_worth(&obs, steps, w) >= 0.0;
                        assert_eq!(worth_taking(&obs, steps, w), worth, "game {k}, round {}", g.round);
                        answers += 1;
                    }
                    if g.decisions % 4 == 0 && !g.missions.is_empty() {
                        for steps in &lines {
                            if worth_taking(&obs, steps, w) {
                                let v = line_worth(&obs, steps, w);
                                assert!(v >= 0.0, "game {k}, round {}: {steps:?} worth {v}", g.round);
                                shortcut += 1;
                            }
                        }
                    }
                }
                let act = d.nth(rng.below(d.len()));
                crate::apply::apply(&mut g, act).unwrap();
            }
        }
        assert!(shortcut > 10_000 && answers > 100, "{shortcut} lines taken unjudged, {answers} answers");
    }

    #[test]
    fn win_prob_is_certain_once_the_opponent_passed() {
        assert_eq!(win_prob(1, false, false, &W0), 1.0);
        assert_eq!(win_prob(0, true, false, &W0), 1.0);
        assert_eq!(win_prob(0, false, false, &W0), 0.0);
        assert_eq!(win_prob(-2, true, false, &W0), 0.0);
    }

    #[test]
    fn win_prob_matches_the_python_floats() {
        // heuristic.win_prob(3, True, True, W0) and win_prob(-1, False, True, W0) in Python
        assert_eq!(win_prob(3, true, true, &W0), 0.8021838885585817);
        assert_eq!(win_prob(-1, false, true, &W0), 0.35434369377420455);
        assert!((win_prob(0, true, true, &W0) + win_prob(0, false, true, &W0) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn the_neutral_table_is_the_chance_of_each_margin() {
        for (i, row) in NEUTRAL.iter().enumerate() {
            let margin = i as i64 - NEUTRAL_MARGINS;
            assert_eq!(row[0].to_bits(), chance(margin, false, W0.spread).to_bits(), "margin {margin}");
            assert_eq!(row[1].to_bits(), chance(margin, true, W0.spread).to_bits(), "margin {margin} with the Edge");
        }
    }

    #[test]
    fn delta_counts_an_empty_mission_as_worth_nothing() {
        let b = Board {
            mine: vec![0, 2].into(),
            theirs: vec![0, 3].into(),
            weight: vec![3.0, 4.0].into(),
            edge: false,
            open: true,
        };
        assert_eq!(delta(&b, 0, 0, &W0), 0.0);
        assert!(delta(&b, 0, 2, &W0) > 0.0);
        assert!(delta(&b, 1, 2, &W0) > delta(&b, 1, 1, &W0));
        assert_eq!(b.value(&W0), 4.0 * win_prob(-1, false, true, &W0));
    }

    #[test]
    fn first_best_keeps_the_first_of_ties() {
        assert_eq!(first_best([3, 1, 4, 4, 0].into_iter(), |x| x / 2, false), 4);
        assert_eq!(first_best([3, 1, 4, 0, 1].into_iter(), |x| x / 2, true), 1);
    }
}
