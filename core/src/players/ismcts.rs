//! Information-set search (`search:tree=1`): one tree over the searching player's information
//! states, shared by every determinisation of a decision (single-observer ISMCTS).
//!
//! Each iteration deals a full state consistent with what the player knows (`search::deal_from`,
//! the same dealing as the default sampling), walks the tree from the root by PUCT among the
//! actions that are legal in that deal, adds one node, plays the rest of the round out with the
//! rollout policy and backs the leaf's value (`evaluate::leaf_value_with`, the spec's `leaf`) up the path.
//!
//! - **A node is a history of actions as the searching player tells them apart**: its own
//!   actions and the opponent's by the card version (not the copy: two deals that give the
//!   opponent different copies of one card meet in the same node), the opponent's face-down
//!   plays and attachments by where they went only (their card is what the player cannot see,
//!   so every deal's face-down play of the opponent on a mission is the same edge).
//! - **Availability**: an opponent's action exists only in the deals that give it the card, so
//!   each edge counts the iterations in which it was legal (`avail`), and PUCT's exploration
//!   term uses that count instead of the parent's visits (the subset-armed bandit of ISMCTS).
//! - **Priors**: the one-step judgement (`evaluate::ranked`, for the player to move in the deal),
//!   a softmax of its scores mixed half and half with a uniform prior (it misranks too often to
//!   be trusted alone: cutting the candidates to its best 16 lost 2 points against lookahead);
//!   inside effects the heuristic's answer takes half the mass. The opponent's edges are valued
//!   from the opponent's side (1 − the value to the searching player).
//! - **The endgame solver and the mulligan stay the default search's** (`search.rs`): only the
//!   choice that the default makes by sequential halving is made by the tree, with the same
//!   number of playouts (`playouts` × the candidates) or the same time.
//!
//! The tree is built again at every decision (nothing is carried over), from the player's own
//! generator: the same seed gives the same decisions.

use std::time::Instant;

use crate::apply;
use crate::state::{Action, DecisionKind, GameState, Opt};

use super::Observation;
use super::endgame::{distinct, mix};
use super::evaluate::{self, LeafConsts, WEIGHTS, leaf_consts, leaf_value_with};
use super::heuristic;
use super::search::{PLAYOUT_GUARD, Search, copy_into, rollout_step};

/// No child yet.
const NONE: u32 = u32::MAX;

struct Edge {
    key: u64,
    child: u32,
    /// visits, the sum of the values to the searching player, deals in which it was legal
    n: u32,
    w: f64,
    avail: u32,
    prior: f64,
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
}

/// An action as the searching player `me` tells it apart (see the module's notes).
pub fn action_key(g: &GameState, a: Action, me: i32) -> u64 {
    let d = g.pending.as_ref().expect("a pending decision");
    let theirs = d.player != me;
    let card = |inst: i32| g.cards[inst as usize] as u64;
    let h = |parts: &[u64]| parts.iter().fold(0x15_3c75_u64, |acc, &x| mix(acc ^ x));
    match a {
        Action::Pass => 1,
        Action::Play(_, mi, true, over) if theirs => h(&[2, mi as u64, over as u64]),
        Action::Play(inst, mi, hidden, over) => h(&[3, card(inst), mi as u64, hidden as u64, over as u64]),
        Action::Reveal(uid) => h(&[4, uid as u64]),
        Action::Attach(_, mi, host, true) if theirs => h(&[5, mi as u64, host as u64]),
        Action::Attach(inst, mi, host, hidden) => h(&[6, card(inst), mi as u64, host as u64, hidden as u64]),
        Action::RevealAttachment(inst) => h(&[7, card(inst)]),
        Action::Choose(Opt::Int(inst))
            if d.kind == DecisionKind::Card && inst >= 0 && (inst as usize) < g.cards.len() =>
        {
            h(&[8, card(inst)])
        }
        Action::Choose(o) => {
            let (t, x, y, z) = match o {
                Opt::Skip => (0, 0, 0, 0),
                Opt::Bool(b) => (1, b as u64, 0, 0),
                Opt::Int(i) => (2, i as u64, 0, 0),
                Opt::Place(m, u, p) => (3, m as u64, u as u64, p as u64),
                Opt::Line(c, l) => (4, c as u64, l as u64, 0),
            };
            h(&[9, t, x, y, z])
        }
    }
}

/// The priors of the options of `s`'s decision (one per key, in `keys`' order).
fn priors(s: &GameState, keys: &[(u64, Action)]) -> Vec<f64> {
    let d = s.pending.as_ref().expect("a pending decision");
    let obs = Observation::new(s, d.player);
    let n = keys.len() as f64;
    if d.kind == DecisionKind::Action {
        let judged = evaluate::ranked(&obs);
        let score = |a: &Action| judged.iter().find(|x| x.0 == *a).map_or(f64::NEG_INFINITY, |x| x.1);
        let scores: Vec<f64> = keys.iter().map(|(_, a)| score(a)).collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = scores.iter().map(|&x| if x.is_finite() { (x - top).exp() } else { 0.0 }).collect();
        let sum: f64 = e.iter().sum::<f64>().max(1e-12);
        e.iter().map(|x| 0.5 * x / sum + 0.5 / n).collect()
    } else {
        let first = heuristic::answer_choice(&obs, &WEIGHTS);
        keys.iter().map(|(_, a)| if *a == first { 0.5 + 0.5 / n } else { 0.5 / n }).collect()
    }
}

/// The options of `s`'s decision, one per key (the first action of each).
fn keyed(s: &GameState, me: i32) -> Vec<(u64, Action)> {
    let mut out: Vec<(u64, Action)> = Vec::new();
    for a in distinct(s) {
        let k = action_key(s, a, me);
        if !out.iter().any(|x| x.0 == k) {
            out.push((k, a));
        }
    }
    out
}

pub struct Tree {
    nodes: Vec<Node>,
    me: i32,
    explore: f64,
    /// the last round the tree and its playouts go to
    last: i32,
    /// the leaf's constants (the spec's `leaf`)
    leaf: &'static LeafConsts,
}

impl Tree {
    fn new(me: i32, explore: f64, last: i32, leaf: &'static LeafConsts) -> Tree {
        Tree { nodes: vec![Node::default()], me, explore, last, leaf }
    }

    /// The edge PUCT picks at `node` among the options legal in the deal `s` (edges added for
    /// options never seen at this node before).
    fn select(&mut self, node: usize, s: &GameState) -> (usize, Action) {
        let opts = keyed(s, self.me);
        let mover = s.pending.as_ref().expect("a pending decision").player;
        let missing = opts.iter().any(|(k, _)| !self.nodes[node].edges.iter().any(|e| e.key == *k));
        if missing {
            let p = priors(s, &opts);
            let edges = &mut self.nodes[node].edges;
            for (i, (k, _)) in opts.iter().enumerate() {
                if !edges.iter().any(|e| e.key == *k) {
                    edges.push(Edge { key: *k, child: NONE, n: 0, w: 0.0, avail: 0, prior: p[i] });
                }
            }
        }
        let mine = mover == self.me;
        let edges = &mut self.nodes[node].edges;
        if node == 0
            && let Some((k, a)) = opts.iter().find(|(k, _)| edges.iter().any(|e| e.key == *k && e.n == 0))
        {
            // every candidate of the decision is played out once before PUCT chooses among them
            for (kk, _) in &opts {
                if let Some(e) = edges.iter_mut().find(|e| e.key == *kk) {
                    e.avail += 1;
                }
            }
            let i = edges.iter().position(|e| e.key == *k).expect("an edge");
            return (i, *a);
        }
        // the value of a visit from the mover's side; unvisited edges start at the node's mean
        let (tw, tn) = edges.iter().fold((0.0, 0u32), |(w, n), e| (w + e.w, n + e.n));
        let fpu_me = if tn > 0 { tw / tn as f64 } else { 0.5 };
        let mut best = (usize::MAX, f64::NEG_INFINITY, Action::Pass);
        for (k, a) in &opts {
            let i = edges.iter().position(|e| e.key == *k).expect("an edge of every option");
            let e = &mut edges[i];
            e.avail += 1;
            let q_me = if e.n > 0 { e.w / e.n as f64 } else { fpu_me };
            let q = if mine { q_me } else { 1.0 - q_me };
            let u = self.explore * e.prior * (e.avail as f64).sqrt() / (1.0 + e.n as f64);
            if q + u > best.1 {
                best = (i, q + u, *a);
            }
        }
        (best.0, best.2)
    }

    /// One iteration on the deal `s` (played in place): down the tree, one node added, a
    /// playout, the value backed up.
    fn iterate(&mut self, s: &mut GameState) {
        let mut node = 0usize;
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut guard = 0;
        loop {
            if s.is_terminal() || s.round > self.last || guard >= PLAYOUT_GUARD {
                break;
            }
            guard += 1;
            let d = s.pending.as_ref().expect("a pending decision");
            if d.len() == 1 {
                let a = d.nth(0);
                apply::apply(s, a).expect("a legal action in a determinised state");
                continue;
            }
            let (e, a) = self.select(node, s);
            path.push((node, e));
            apply::apply(s, a).expect("a legal action in a determinised state");
            let child = self.nodes[node].edges[e].child;
            if child == NONE {
                let id = self.nodes.len() as u32;
                self.nodes.push(Node::default());
                self.nodes[node].edges[e].child = id;
                break;
            }
            node = child as usize;
        }
        while !s.is_terminal() && s.round <= self.last && guard < PLAYOUT_GUARD {
            guard += 1;
            rollout_step(s).expect("a legal action in a playout");
        }
        let v = leaf_value_with(s, self.me, self.leaf);
        for (n, e) in path {
            let edge = &mut self.nodes[n].edges[e];
            edge.n += 1;
            edge.w += v;
        }
    }

    /// The root's option with the best mean among those visited at least half as often as the
    /// most visited (at a few visits a candidate the most visited is the prior's favourite, and
    /// the prior misranks), as a key.
    fn best(&self) -> Option<u64> {
        let edges = &self.nodes[0].edges;
        let most = edges.iter().map(|e| e.n).max().unwrap_or(0);
        edges
            .iter()
            .filter(|e| e.n > 0 && 2 * e.n >= most)
            .max_by(|x, y| (x.w / x.n as f64).partial_cmp(&(y.w / y.n as f64)).unwrap_or(std::cmp::Ordering::Equal))
            .map(|e| e.key)
    }
}

impl Search {
    /// The decision's choice by information-set search: `playouts` iterations a candidate (the
    /// default sampling's playouts at the same parameters), or `time` seconds.
    pub(super) fn tree_choice(&mut self, g: &GameState, me: i32) -> Action {
        let (cands, gap) = self.candidates(g, me);
        if cands.len() == 1 || gap >= self.params.clear {
            return cands[0];
        }
        let last = g.round + self.params.rounds.max(1) as i32 - 1;
        let mut tree = Tree::new(me, self.params.explore, last, leaf_consts(self.params.leaf));
        let budget = self.params.playouts.max(1) as usize * cands.len();
        let start = Instant::now();
        let mut done = 0usize;
        while !crate::cancel::requested() {
            if self.params.time > 0.0 {
                if done >= super::search::TIMED_PLAYOUTS
                    || (done >= cands.len() && start.elapsed().as_secs_f64() >= self.params.time)
                {
                    break;
                }
            } else if done >= budget {
                break;
            }
            let d = self.deal(g, me);
            let s = copy_into(&mut self.scratch, &d);
            tree.iterate(s);
            done += 1;
        }
        let Some(k) = tree.best() else { return cands[0] };
        cands.iter().copied().find(|a| action_key(g, *a, me) == k).unwrap_or(cands[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Catalog;
    use crate::players::{drive_game, make_player, play_match, test_decks as decks};

    #[test]
    fn the_opponents_face_down_plays_are_one_edge_a_place() {
        let cat = Catalog::bundled();
        let d = decks(4, 41);
        let (mut hidden_seen, mut copies_seen) = (0, 0);
        for seed in 0..12i128 {
            let mut g =
                crate::setup::new_game(cat, &d[seed as usize % 4], &d[(seed as usize + 1) % 4], seed, false, None)
                    .unwrap();
            let mut driver = make_player("random", None).unwrap();
            driver.reset(seed);
            while !g.is_terminal() {
                let dd = g.pending.as_ref().unwrap();
                let p = dd.player;
                let me = 1 - p;
                for a in dd.legal() {
                    for b in dd.legal() {
                        let (ka, kb) = (action_key(&g, a, me), action_key(&g, b, me));
                        match (a, b) {
                            (Action::Play(_, m1, true, o1), Action::Play(_, m2, true, o2)) => {
                                assert_eq!(ka == kb, (m1, o1) == (m2, o2), "{a} {b}");
                                hidden_seen += 1;
                            }
                            (Action::Play(c1, m1, false, o1), Action::Play(c2, m2, false, o2)) if c1 != c2 => {
                                let same = g.cards[c1 as usize] == g.cards[c2 as usize] && (m1, o1) == (m2, o2);
                                assert_eq!(ka == kb, same, "{a} {b}");
                                copies_seen += same as usize;
                            }
                            _ => {}
                        }
                    }
                }
                let a = driver.decide(&g, p);
                apply::apply(&mut g, a).unwrap();
            }
        }
        // (the engine offers two copies in hand once already, so `copies_seen` may stay 0: the check
        // is that different cards, or places, are different edges)
        assert!(hidden_seen > 100, "{hidden_seen} {copies_seen}");
    }

    #[test]
    fn the_tree_plays_reproducibly_and_within_its_time() {
        let cat = Catalog::bundled();
        let d = decks(2, 43);
        let mut history = Vec::new();
        for seed in [5, 5, 6] {
            let mut a = make_player("search:tree=1,playouts=1,mulligan=2", None).unwrap();
            let mut b = make_player("greedy", None).unwrap();
            history.push(play_match(cat, &d[0], &d[1], &mut *a, &mut *b, seed).unwrap().history);
        }
        assert_eq!(history[0], history[1]);
        assert_ne!(history[0], history[2]);
        let mut a = make_player("search:tree=1,time=0.0005,mulligan=2", None).unwrap();
        let mut b = make_player("greedy", None).unwrap();
        let t = std::time::Instant::now();
        assert!(play_match(cat, &d[0], &d[1], &mut *a, &mut *b, 3).unwrap().is_terminal());
        assert!(t.elapsed().as_secs_f64() < 30.0);
    }

    /// What the player cannot see, dealt again, never changes the tree's choice.
    #[test]
    fn the_tree_does_not_peek() {
        let d = decks(6, 47);
        let mut rng = crate::rng::PyRandom::new(31);
        let (mut tested, mut changed) = (0, 0);
        for seed in 0..30i128 {
            let stop = rng.below(50) + 5;
            let g = drive_game(&d[seed as usize % 6], &d[(seed as usize + 2) % 6], seed, "greedy", |g, steps| {
                steps >= stop && g.pending.as_ref().unwrap().len() > 1
            });
            if g.is_terminal() {
                continue;
            }
            let me = g.pending.as_ref().unwrap().player;
            let other = super::super::search::deal_from(&g, me, &mut rng);
            let opp = 1 - me as usize;
            changed += (other.players[opp].hand != g.players[opp].hand) as usize;
            let spec = "search:tree=1,playouts=2,mulligan=2";
            let (mut p1, mut p2) = (make_player(spec, None).unwrap(), make_player(spec, None).unwrap());
            p1.reset(99);
            p2.reset(99);
            tested += 1;
            assert_eq!(p1.decide(&g, me), p2.decide(&other, me), "game {seed}: the hidden truth changed the choice");
        }
        assert!(tested >= 15 && changed >= tested / 2, "{tested} {changed}");
    }
}
