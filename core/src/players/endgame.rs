//! The rest of a round once the opponent has passed, solved exactly.
//!
//! After a pass the opponent takes no more turns this round: what is left is a puzzle of the
//! other player's own decisions (main actions and the choices inside their effects) until they
//! pass too and the missions are scored. On one determinisation it is solved by a depth-first
//! search over every distinct decision of the player, the positions met twice (the same plays
//! in another order) looked up instead of searched again. The few decisions the opponent still
//! makes inside effects (what to discard, which of their characters to move …) are answered
//! adversarially: the solver takes the worst of them for the player. Those are where the search
//! is cut (alpha-beta): once the opponent has an answer worse for the player than a line the
//! player already holds elsewhere, its other answers are not searched; the value of every option
//! asked for stays exact. (Among the player's own decisions alone nothing can be cut: only the
//! best line's value settles a position.) A round that is not the
//! last ends in a leaf valued by `evaluate::leaf_value`; the last ends the game, valued by its
//! result and margin.
//!
//! The search is budgeted in positions; over budget it gives up (None), and the caller falls
//! back to sampling.

use std::collections::HashMap;

use crate::apply;
use crate::state::{Action, DecisionKind, GameState, Opt, Unit};

use super::evaluate;

/// Options of one decision that lead to the same position up to which copy of a card is used.
/// Two of a player's main actions are *identical* when they differ only in which copy of the
/// same card version they use (the same mission, the same way, the same upgrade target or
/// host): the resulting states are equal once copies are renamed, so nothing either player can
/// know or do afterwards tells them apart. The same for a choice among cards of one hand.
pub fn distinct(g: &GameState) -> Vec<Action> {
    let d = g.pending.as_ref().expect("a pending decision");
    let legal = d.legal();
    let mut seen: Vec<(u8, u16, i32, i32, i32)> = Vec::with_capacity(legal.len());
    let mut out = Vec::with_capacity(legal.len());
    for a in legal {
        let key = match a {
            Action::Play(inst, mi, hidden, over) => (0, g.cards[inst as usize], mi, hidden as i32, over),
            Action::Attach(inst, mi, host, hidden) => (1, g.cards[inst as usize], mi, host, hidden as i32),
            Action::Choose(Opt::Int(inst))
                if d.kind == DecisionKind::Card
                    && inst >= 0
                    && (inst as usize) < g.cards.len()
                    && g.players[d.player as usize].hand.contains(&inst) =>
            {
                (2, g.cards[inst as usize], 0, 0, 0)
            }
            _ => {
                out.push(a);
                continue;
            }
        };
        if !seen.contains(&key) {
            seen.push(key);
            out.push(a);
        }
    }
    out
}

// ---- positions met again ----------------------------------------------------------------

pub(super) fn mix(mut x: u64) -> u64 {
    // splitmix64's finaliser
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

struct H(u64);

impl H {
    fn add(&mut self, v: u64) {
        self.0 = mix(self.0 ^ v);
    }
}

fn unit_hash(g: &GameState, u: &Unit) -> u64 {
    let mut h = H(0x5eed);
    for &c in &u.stack {
        h.add(g.cards[c as usize] as u64);
    }
    h.add(
        u.owner as u64 | (u.controller as u64) << 8 | (u.hidden as u64) << 16 | ((u.controlled_by != -1) as u64) << 17,
    );
    h.add(u.tokens as u64);
    h.add(u.played_round as u64 | (u.discounted as u64) << 32);
    for &a in &u.attachments {
        h.add(g.cards[a as usize] as u64 | (g.att_is_hidden(a) as u64) << 20);
    }
    h.0
}

/// A key of the position at a main decision with no effect under way, the same for positions
/// equal up to the naming of card copies and units (the same plays made in another order
/// reach the same key). `me` is the player to act: the record of their own latest turn is left
/// out, since their next main action clears it before anything reads it.
pub fn position_key(g: &GameState, me: i32) -> u64 {
    let mut h = H(0x6d79_7468_6f73);
    h.add(
        g.round as u64 | (g.edge as u64 & 0xff) << 8 | (g.edge_locked as u64 & 0xff) << 16 | (g.current as u64) << 24,
    );
    for p in &g.players {
        h.add(p.chakra as u64);
        h.add(p.score as u64);
        h.add(p.passed as u64 | (p.plays_this_round as u64) << 8 | (p.attached_this_round as u64) << 24);
        let mut hand: Vec<u16> = p.hand.iter().map(|&c| g.cards[c as usize]).collect();
        hand.sort_unstable();
        for c in hand {
            h.add(c as u64);
        }
        h.add(0xaaaa);
        for &c in &p.deck {
            h.add(g.cards[c as usize] as u64);
        }
        h.add(0xbbbb);
        let mut discard: Vec<u16> = p.discard.iter().map(|&c| g.cards[c as usize]).collect();
        discard.sort_unstable();
        for c in discard {
            h.add(c as u64);
        }
        h.add(0xcccc);
    }
    for m in &g.missions {
        h.add(g.cards[m.card as usize] as u64 | (m.rank as u64) << 16 | ((m.winner + 1) as u64) << 20);
        for side in 0..2 {
            // a side is a set of units: order-free
            let mut acc = 0u64;
            for &uid in &m.sides[side] {
                acc = acc.wrapping_add(mix(unit_hash(g, g.u(uid))));
            }
            h.add(acc);
            let mut acc = 0u64;
            for &a in &m.attachments[side] {
                acc = acc.wrapping_add(mix(g.cards[a as usize] as u64 | (g.att_is_hidden(a) as u64) << 20));
            }
            h.add(acc);
        }
    }
    let other = 1 - me as usize;
    for &uid in g.last_turn_plays[other].iter().chain(&g.last_turn_moves[other]) {
        if let Some(u) = g.unit(uid) {
            h.add(unit_hash(g, u));
        }
    }
    h.0
}

// ---- the solver ---------------------------------------------------------------------------

/// What the solver knows of a position it searched: its value, or a bound of it when the search
/// was cut off (alpha-beta) because the position could not change the value asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Known {
    /// the value with best play from here
    Exact(f64),
    /// the value is at least this (the player to move found a line this good and stopped)
    AtLeast(f64),
    /// the value is at most this
    AtMost(f64),
}

impl Known {
    /// The value, when this is enough to settle a search of the window (`lo`, `hi`): the value
    /// itself, or a bound outside the window, which tells the caller all it needs.
    fn settles(self, lo: f64, hi: f64) -> Option<f64> {
        match self {
            Known::Exact(v) => Some(v),
            Known::AtLeast(v) if v >= hi => Some(v),
            Known::AtMost(v) if v <= lo => Some(v),
            _ => None,
        }
    }
}

/// The positions a solver searched, by key (`position_key`), kept from one decision to the next.
pub type Table = HashMap<u64, Known>;

/// The exact search of the rest of one round, for the player `me`, on one determinisation.
///
/// An alpha-beta search: every position is searched for a window of values that could still
/// change the answer asked for, and a line that settles a position outside it stops its search
/// (the player to move has found something at least as good as what the other already holds
/// elsewhere). The value of each option asked for at the top (`after`, `value`) is exact: only
/// positions below it are cut, and only where their exact value could not change it. What a cut
/// position was worth is kept as a bound, looked up when a later search's window needs no more.
pub struct Solver {
    pub me: i32,
    round: i32,
    /// positions searched so far, and the most allowed
    pub nodes: usize,
    pub budget: usize,
    table: Table,
    /// what a position at the end of the round is worth to `me`
    leaf: fn(&GameState, i32) -> f64,
    /// only whether `me` can still win: 1 or 0, each decision settled by its first winning
    /// (or, for the opponent, losing) option
    wins: bool,
    /// false: every option of every position searched to its exact value (no cut; for tests)
    cuts: bool,
    /// states to play the positions in (one a level of the search, their buffers reused)
    /// (boxed: taken from the pool and put back at every position searched, a state moves as a
    /// pointer instead of a thousand bytes)
    #[allow(clippy::vec_box)]
    pool: Vec<Box<GameState>>,
}

impl Solver {
    pub fn new(me: i32, round: i32, budget: usize) -> Solver {
        Solver::with_leaf(me, round, budget, evaluate::leaf_value)
    }

    pub fn with_leaf(me: i32, round: i32, budget: usize, leaf: fn(&GameState, i32) -> f64) -> Solver {
        Solver { me, round, nodes: 0, budget, table: HashMap::new(), leaf, wins: false, cuts: true, pool: Vec::new() }
    }

    /// A solver of whether `me` can still win, the pass tried first (ending the round is the
    /// cheapest line to check), then the options in the engine's order.
    pub fn for_wins(me: i32, round: i32, budget: usize) -> Solver {
        Solver { wins: true, ..Solver::new(me, round, budget) }
    }

    /// The positions solved so far (values and bounds: a search over budget stores only what it
    /// finished), to carry into the next decision's solver on the same deal.
    pub fn into_table(self) -> Table {
        self.table
    }

    /// Start from positions solved before (by a solver of the same player, leaf and kind).
    pub fn with_table(mut self, table: Table) -> Solver {
        self.table = table;
        self
    }

    /// The options of a decision in the order they are searched.
    pub fn options(&self, g: &GameState) -> Vec<Action> {
        let mut options = distinct(g);
        if self.wins
            && let Some(i) = options.iter().position(|a| *a == Action::Pass)
        {
            options[..=i].rotate_right(1);
        }
        options
    }

    /// The value of `g` for `me` with best play from here (None: over budget).
    pub fn value(&mut self, g: &GameState) -> Option<f64> {
        let mut own = g.clone();
        own.horizon = self.round;
        self.value_in(&mut own, f64::NEG_INFINITY, f64::INFINITY)
    }

    /// The value for `me` of `g`, a state of the solver's own that it may play on (its last
    /// option is played in `g` itself, no copy), searched for the window (`lo`, `hi`): exact
    /// when it lies inside, else a bound on the side of the window it lies (at most `lo`, at
    /// least `hi`). None: over budget.
    fn value_in(&mut self, g: &mut GameState, lo: f64, hi: f64) -> Option<f64> {
        let (key, options, mine) = match self.enter(g, lo, hi) {
            Enter::Known(v) => return v,
            Enter::Search(key, options, mine) => (key, options, mine),
        };
        let (mut a, mut b) = (lo, hi);
        let mut best = if mine { f64::NEG_INFINITY } else { f64::INFINITY };
        let last = options.len().saturating_sub(1);
        for (i, &act) in options.iter().enumerate() {
            let v = if i == last {
                apply::apply(g, act).expect("a legal action in a solved position");
                self.value_in(g, a, b)?
            } else {
                self.after_in(g, act, a, b)?
            };
            if self.better(mine, v, &mut best) {
                break;
            }
            if self.cuts && !self.wins {
                // the window narrows to what could still change the value asked for
                if mine {
                    a = a.max(best);
                } else {
                    b = b.min(best);
                }
                if a >= b {
                    break;
                }
            }
        }
        let known = if best <= lo {
            Known::AtMost(best)
        } else if best >= hi {
            Known::AtLeast(best)
        } else {
            Known::Exact(best)
        };
        Some(self.leave(key, known, best))
    }

    /// A position's value when it needs no search (a leaf, a position solved before well enough
    /// for the window, or over budget: None), else its key, its options and whether they are
    /// `me`'s.
    fn enter(&mut self, g: &GameState, lo: f64, hi: f64) -> Enter {
        if g.is_terminal() || g.round != self.round {
            if self.wins {
                return Enter::Known(Some(if g.winner == self.me { 1.0 } else { 0.0 }));
            }
            return Enter::Known(Some((self.leaf)(g, self.me)));
        }
        let d = g.pending.as_ref().expect("a pending decision");
        let key = (d.kind == DecisionKind::Action && g.stack.is_empty()).then(|| position_key(g, d.player));
        if let Some(k) = key
            && let Some(v) = self.table.get(&k).and_then(|known| known.settles(lo, hi))
        {
            return Enter::Known(Some(v));
        }
        self.nodes += 1;
        if self.nodes > self.budget || crate::cancel::requested() {
            return Enter::Known(None);
        }
        let mine = d.player == self.me;
        Enter::Search(key, self.options(g), mine)
    }

    /// `v` taken into `best` (the most for `me`, the least for the opponent); true when the
    /// search of a win alone is settled by it.
    fn better(&self, mine: bool, v: f64, best: &mut f64) -> bool {
        if (mine && v > *best) || (!mine && v < *best) {
            *best = v;
        }
        // settled: a win for the player found, or a loss the opponent can force
        self.wins && *best == if mine { 1.0 } else { 0.0 }
    }

    /// The position searched: what is known of it kept under its key.
    fn leave(&mut self, key: Option<u64>, known: Known, best: f64) -> f64 {
        if let Some(k) = key {
            self.table.insert(k, known);
        }
        best
    }

    /// The value of playing `a` in `g` (exact; None: over budget).
    pub fn after(&mut self, g: &GameState, a: Action) -> Option<f64> {
        self.after_in(g, a, f64::NEG_INFINITY, f64::INFINITY)
    }

    /// The value of playing `a` in `g`, searched for the window (`lo`, `hi`) (`value_in`).
    fn after_in(&mut self, g: &GameState, a: Action, lo: f64, hi: f64) -> Option<f64> {
        let mut next = match self.pool.pop() {
            Some(mut s) => {
                (*s).clone_from(g);
                s
            }
            None => Box::new(g.clone()),
        };
        // past the solver's round a position is a leaf, only valued
        next.horizon = self.round;
        apply::apply(&mut next, a).expect("a legal action in a solved position");
        let v = self.value_in(&mut next, lo, hi);
        self.pool.push(next);
        v
    }
}

/// What `Solver::enter` found of a position.
enum Enter {
    Known(Option<f64>),
    Search(Option<u64>, Vec<Action>, bool),
}

/// The best of `me`'s options at `g` on this determinisation, with every option's value (None
/// when over budget). Options are `distinct(g)`'s, in their order.
pub fn solve(g: &GameState, me: i32, budget: usize) -> Option<Vec<(Action, f64)>> {
    let mut s = Solver::new(me, g.round, budget);
    let mut out = Vec::new();
    for a in distinct(g) {
        out.push((a, s.after(g, a)?));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_searches_give_every_option_its_exact_value() {
        // random games of random decks, played on until one player has passed in the last round:
        // every option of the other solved with the cuts and without, on the same position
        let cat = Catalog::bundled();
        let mut rng = PyRandom::new(11);
        let (mut compared, mut fewer, mut with_opponent) = (0, 0, 0);
        for k in 0..60 {
            let (a, b) = (deck(cat, &mut rng), deck(cat, &mut rng));
            let mut g = crate::setup::new_game(cat, &a, &b, k, false, None).unwrap();
            let mut carried: Option<(i32, Table, Table)> = None;
            while !g.is_terminal() {
                let d = g.pending.as_ref().unwrap();
                let me = d.player;
                if g.round == crate::state::ROUNDS
                    && d.kind == DecisionKind::Action
                    && g.stack.is_empty()
                    && g.players[1 - me as usize].passed
                {
                    // the tables carried from the decision before (bounds included) must not
                    // change a value either
                    let (t_cut, t_full) = match carried.take() {
                        Some((p, c, f)) if p == me => (c, f),
                        _ => (Table::new(), Table::new()),
                    };
                    let mut cut = Solver::new(me, g.round, 5_000).with_table(t_cut);
                    let mut full = Solver { cuts: false, ..Solver::new(me, g.round, 5_000) }.with_table(t_full);
                    let mut done = true;
                    for a in distinct(&g) {
                        match (cut.after(&g, a), full.after(&g, a)) {
                            (Some(x), Some(y)) => assert_eq!(x, y, "game {k}, {a}"),
                            _ => done = false,
                        }
                    }
                    if done {
                        compared += 1;
                        fewer += (cut.nodes < full.nodes) as usize;
                        with_opponent += cut.table.values().any(|v| !matches!(v, Known::Exact(_))) as usize;
                    }
                    carried = Some((me, cut.into_table(), full.into_table()));
                }
                let n = d.len();
                let act = d.nth(rng.below(n));
                apply::apply(&mut g, act).unwrap();
            }
        }
        assert!(compared >= 50 && fewer >= 5 && with_opponent >= 5, "{compared} {fewer} {with_opponent}");
    }
    use crate::cards::{CardType, Catalog};
    use crate::rng::PyRandom;
    use crate::setup::GameDeck;

    fn deck(cat: &'static Catalog, rng: &mut PyRandom) -> GameDeck {
        GameDeck::random(cat, rng, |c| c.ctype == CardType::Character, String::new())
    }

    #[test]
    fn copies_of_one_card_are_one_option() {
        let cat = Catalog::bundled();
        let mut rng = PyRandom::new(3);
        let mut collapsed = 0;
        for k in 0..40 {
            let (a, b) = (deck(cat, &mut rng), deck(cat, &mut rng));
            let mut g = crate::setup::new_game(cat, &a, &b, k, false, None).unwrap();
            while !g.is_terminal() {
                let d = g.pending.as_ref().unwrap();
                let opts = distinct(&g);
                assert!(!opts.is_empty() && opts.len() <= d.len());
                // every legal action is one of the options or a copy of one
                for a in d.legal() {
                    let same = |x: &Action| match (a, *x) {
                        (Action::Play(c1, m1, h1, o1), Action::Play(c2, m2, h2, o2)) => {
                            g.cards[c1 as usize] == g.cards[c2 as usize] && (m1, h1, o1) == (m2, h2, o2)
                        }
                        (Action::Attach(c1, m1, t1, h1), Action::Attach(c2, m2, t2, h2)) => {
                            g.cards[c1 as usize] == g.cards[c2 as usize] && (m1, t1, h1) == (m2, t2, h2)
                        }
                        (Action::Choose(Opt::Int(c1)), Action::Choose(Opt::Int(c2)))
                            if d.kind == DecisionKind::Card =>
                        {
                            g.cards[c1 as usize] == g.cards[c2 as usize]
                        }
                        (x, y) => x == y,
                    };
                    assert!(opts.iter().any(same), "{a} has no option");
                }
                collapsed += d.len() - opts.len();
                let n = d.len();
                let act = d.nth(rng.below(n));
                apply::apply(&mut g, act).unwrap();
            }
        }
        // the engine offers two copies in hand once already (actions.rs); what is left to collapse
        // are choices among the cards of a hand inside effects
        assert!(collapsed > 0, "{collapsed}");
    }

    #[test]
    fn the_same_plays_in_another_order_reach_the_same_position() {
        let cat = Catalog::bundled();
        let mut rng = PyRandom::new(9);
        let mut found = 0;
        for k in 0..200 {
            let (a, b) = (deck(cat, &mut rng), deck(cat, &mut rng));
            let mut g = crate::setup::new_game(cat, &a, &b, k, false, None).unwrap();
            // play randomly until someone passed and the other has two plain face-up plays
            while !g.is_terminal() {
                let d = g.pending.as_ref().unwrap();
                let other_passed = d.kind == DecisionKind::Action && g.players[1 - d.player as usize].passed;
                if other_passed && g.stack.is_empty() {
                    let me = d.player;
                    let plays: Vec<Action> = d
                        .legal()
                        .into_iter()
                        // plays whose lines are all continuous: nothing happens when they land, so
                        // their order cannot matter
                        .filter(|a| {
                            matches!(a, Action::Play(c, _, false, -1)
                                if g.card(*c).effects.iter().all(|l| l.kind != crate::cards::Kind::Instant))
                        })
                        .collect();
                    let two = plays.iter().enumerate().find_map(|(i, x)| {
                        plays[i + 1..]
                            .iter()
                            .find(|y| match (x, y) {
                                (Action::Play(c1, m1, ..), Action::Play(c2, m2, ..)) => c1 != c2 && m1 != m2,
                                _ => false,
                            })
                            .map(|y| (*x, *y))
                    });
                    if let Some((x, y)) = two {
                        let run = |first: Action, second: Action| {
                            let mut s = g.clone();
                            apply::apply(&mut s, first).unwrap();
                            let ok =
                                s.pending.as_ref().is_some_and(|d| d.legal().contains(&second)) && s.stack.is_empty();
                            if !ok {
                                return None;
                            }
                            apply::apply(&mut s, second).unwrap();
                            (s.stack.is_empty()
                                && s.pending.as_ref().is_some_and(|d| d.kind == DecisionKind::Action && d.player == me))
                            .then(|| position_key(&s, me))
                        };
                        if let (Some(p), Some(q)) = (run(x, y), run(y, x)) {
                            assert_eq!(p, q, "game {k}");
                            found += 1;
                            break;
                        }
                    }
                }
                let n = d.len();
                let act = d.nth(rng.below(n));
                apply::apply(&mut g, act).unwrap();
            }
        }
        assert!(found >= 10, "{found}");
    }
}
