//! The built-in players: `random`, `greedy`, the archetypes `tempo`, `ambush` and `control`, and
//! `lookahead`, with their mulligan rules (`keep`, `heuristic`, `always`).
//!
//! They are the Python players of `mythos_cli.policies` ported decision for decision: a player
//! reset with the same seed answers every decision exactly as its Python version does on the same
//! state. That is possible because the engines are bit-identical, the generators are CPython's
//! (`PyRandom`, seeded with the same strings), and every float is computed in the same order as
//! the Python expression it mirrors. Keep it so: reorder no sum, and break ties as Python's
//! `max`, `min` and stable `sorted` do (the first best wins).
//!
//! A player decides from its [`Observation`] only: its own hand and hidden cards, the public
//! board and the legal actions; the look-ahead deals what it cannot see at random
//! ([`crate::determinize`]).

pub mod audit;
pub mod endgame;
pub mod evaluate;
pub mod greedy;
pub mod heuristic;
pub mod ismcts;
pub mod lookahead;
pub mod mulligan;
pub mod plan;
pub mod random;
pub mod search;
pub mod spec;

use crate::apply::{self, ApplyError};
use crate::cards::{Card, Catalog};
use crate::effects::selectors;
use crate::language::Selector;
use crate::power;
use crate::rng::PyRandom;
use crate::setup::{self, GameDeck};
use crate::state::{Action, Ctx, Decision, DecisionKind, GameState, Inst, Opt, Uid};

pub use spec::{PLAYER_NAMES, make_player};

/// What the players' judgement reads off a card's text at every decision, worked out once when
/// the catalog loads (each reading is defined where the judgement uses it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CardFacts {
    /// an encoded instant line (`heuristic::card_effect_value`)
    pub instant: bool,
    /// an encoded AMBUSH line
    pub ambush: bool,
    /// what its instant lines are worth depends on the mission it is played in
    pub mission_bound: bool,
    /// what its SCORE lines give the winner of its mission (`evaluate::score_worth`)
    pub score_worth: f64,
    /// a Power static that holds only while missions are scored
    pub scored_power: bool,
    /// what a play of it is worth by its continuous lines, and the Power they add to itself, when
    /// it has no encoded instant line (`heuristic::card_effect_value`)
    pub plain_worth: (f64, i64),
    /// what a play of it is worth (as `plain_worth`) when none of the instant lines that apply
    /// reads the board, played plainly, as an upgrade, and revealed from AMBUSH (in that order;
    /// `heuristic::card_effect_value`)
    pub board_free: [Option<(f64, i64)>; 3],
}

impl CardFacts {
    pub fn of(card: &Card) -> CardFacts {
        CardFacts {
            instant: heuristic::reads_instant(card),
            ambush: heuristic::reads_ambush(card),
            mission_bound: heuristic::reads_mission(card),
            score_worth: evaluate::score_worth(card),
            scored_power: evaluate::scores_differently(card),
            plain_worth: heuristic::reads_plain_worth(card),
            board_free: [
                heuristic::reads_board_free(card, false, false),
                heuristic::reads_board_free(card, true, false),
                heuristic::reads_board_free(card, false, true),
            ],
        }
    }
}

/// A player of the game: it answers every decision put to its seat.
pub trait Player: Send {
    /// The spec that builds this player again (`greedy`, `lookahead:clear=3.0,…`).
    fn spec(&self) -> String;
    /// Start a new game: the player's generator is seeded from its name and `seed`, as the Python
    /// players seed `random.Random(f"{name}:{seed}")`.
    fn reset(&mut self, seed: i128);
    /// The answer to the pending decision of `player` (who must be the one to decide).
    fn decide(&mut self, g: &GameState, player: i32) -> Action;
    /// The mulligan rule the player plays with (its own, or the one a run imposed).
    fn mulligan(&self) -> mulligan::Mulligan;
}

/// The generator of a player named `name` for the game seeded `seed`.
pub fn player_rng(name: &str, seed: i128) -> PyRandom {
    PyRandom::from_str_seed(&format!("{name}:{seed}"))
}

/// One player's window on the game. Every query reads only what that player may know: selectors
/// and Power treat hidden characters as nameless 0-cost cards, exactly as the rules do, and the
/// opponent's hidden cards are never named.
#[derive(Clone, Copy)]
pub struct Observation<'a> {
    g: &'a GameState,
    pub player: i32,
    decision: Option<&'a Decision>,
}

impl<'a> Observation<'a> {
    pub fn new(g: &'a GameState, player: i32) -> Observation<'a> {
        Observation { g, player, decision: g.pending.as_ref() }
    }

    // -- the decision ---------------------------------------------------------------------
    pub fn decision(&self) -> &'a Decision {
        self.decision.expect("a pending decision")
    }
    pub fn kind(&self) -> DecisionKind {
        self.decision().kind
    }
    /// The main actions with their prices, in the engine's order.
    pub fn actions(&self) -> &'a [(Action, i64)] {
        &self.decision().actions
    }
    /// Every legal answer, in the engine's order.
    pub fn legal(&self) -> Vec<Action> {
        self.decision().legal()
    }

    // -- public facts ---------------------------------------------------------------------
    pub fn round(&self) -> i32 {
        self.g.round
    }
    pub fn has_edge(&self) -> bool {
        self.g.edge == self.player
    }
    pub fn chakra(&self) -> i64 {
        self.g.players[self.player as usize].chakra
    }
    pub fn opponent_passed(&self) -> bool {
        self.g.players[1 - self.player as usize].passed
    }
    /// (mine, the opponent's)
    pub fn scores(&self) -> (i64, i64) {
        (self.g.players[self.player as usize].score, self.g.players[1 - self.player as usize].score)
    }
    pub fn n_missions(&self) -> usize {
        self.g.missions.len()
    }
    pub fn hand(&self) -> &'a [Inst] {
        &self.g.players[self.player as usize].hand
    }
    /// The card of an instance this player can see (own cards, face-up cards, options).
    pub fn card(&self, inst: Inst) -> &'static Card {
        self.g.card(inst)
    }
    pub fn catalog(&self) -> &'static Catalog {
        self.g.cat
    }
    pub fn mission_points(&self, mi: usize) -> i64 {
        power::mission_points(self.g, mi)
    }
    /// `mission_points` of every mission, into `out` (as long as the missions).
    pub fn mission_points_into(&self, out: &mut [i64]) {
        power::mission_points_into(self.g, out)
    }
    pub fn mission_rank(&self, mi: usize) -> usize {
        self.g.missions[mi].rank
    }
    /// Total Power on every mission: (mine, the opponent's).
    pub fn side_powers(&self) -> (Vec<i64>, Vec<i64>) {
        power::side_powers(self.g, self.player)
    }
    /// `side_powers` into two slices as long as the missions in play.
    pub fn side_powers_into(&self, mine: &mut [i64], theirs: &mut [i64]) {
        power::side_powers_into(self.g, self.player, mine, theirs)
    }
    /// The top card of a unit, or None for an opponent's hidden character (a hidden card this
    /// player controls, e.g. one taken face down, is theirs to look at).
    pub fn unit_card(&self, uid: Uid) -> Option<&'static Card> {
        let u = self.g.unit(uid)?;
        if u.hidden && u.owner != self.player && u.controller != self.player {
            return None;
        }
        Some(self.g.unit_card(u))
    }
    pub fn is_mine(&self, uid: Uid) -> bool {
        self.g.unit(uid).is_some_and(|u| u.controller == self.player)
    }
    pub fn controller(&self, uid: Uid) -> i32 {
        self.g.unit(uid).map_or(-1, |u| u.controller)
    }
    /// A unit's Power (a hidden character's is what the rules give it, whoever looks).
    pub fn power(&self, uid: Uid) -> i64 {
        power::power_of(self.g, uid)
    }
    pub fn mission_of(&self, uid: Uid) -> i32 {
        self.g.unit(uid).map_or(-1, |u| u.mission)
    }
    /// The units a selector picks for this player, from `source` in mission `mission`.
    pub fn select(&self, sel: &Selector, mission: i32, source: Uid) -> Vec<Uid> {
        selectors::select(self.g, &Ctx::at(self.player, source, mission, -1), sel, false)
    }
    /// `select`'s units one at a time (no list made when the selector picks none among them).
    pub fn for_each_selected(&self, sel: &Selector, mission: i32, source: Uid, f: impl FnMut(Uid)) {
        selectors::for_each_selected(self.g, &Ctx::at(self.player, source, mission, -1), sel, false, f)
    }
    /// `for_each_selected`'s units that the opponent controls. A selector of either side with
    /// no pick is walked over the opponent's side of each mission only (a character stands on its
    /// controller's side): the player's own characters, which would be passed over, are not
    /// matched first.
    pub fn for_each_selected_enemy(&self, sel: &Selector, mission: i32, source: Uid, mut f: impl FnMut(Uid)) {
        let ctx = Ctx::at(self.player, source, mission, -1);
        if sel.self_ || sel.pick.is_some() || sel.var.is_some() || sel.side != crate::language::Side::Any {
            selectors::for_each_selected(self.g, &ctx, sel, false, |x| {
                if self.controller(x) != self.player {
                    f(x)
                }
            });
            return;
        }
        // (`selectors::for_each_candidate`'s missions and order, one side of each)
        let missions = if sel.where_ != crate::language::Where::This {
            0..self.g.missions.len()
        } else if mission >= 0 {
            mission as usize..mission as usize + 1
        } else {
            0..0
        };
        let enemy = (1 - self.player) as usize;
        let walk = selectors::Walk::default();
        for mi in missions {
            for &x in &self.g.missions[mi].sides[enemy] {
                if selectors::matches_in(self.g, &ctx, sel, self.g.u(x), false, &walk) {
                    f(x)
                }
            }
        }
    }
    /// (host uid or -1, mission) of an attachment in play (one this player may see).
    pub fn attachment_place(&self, inst: Inst) -> (Uid, i32) {
        selectors::all_attachments(self.g).into_iter().find(|a| a.0 == inst).map_or((-1, 0), |a| (a.1, a.2))
    }

    // -- look-ahead -----------------------------------------------------------------------
    /// A full game state consistent with this player's knowledge, unknown cards dealt at random.
    pub fn determinize(&self, rng: &mut PyRandom) -> GameState {
        crate::determinize::determinize(self.g, self.player, rng)
    }
}

/// The result of one game between two players.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    pub winner: i32,
    pub scores: (i64, i64),
    pub decisions: i64,
    pub rounds: i32,
    /// [`digest`] of the finished game
    pub digest: u64,
}

/// A fingerprint of a finished game: every decision in order, the scores and the winner
/// (FNV-1a over a fixed encoding, the same on every machine). Two versions of the engine or of a
/// player that play the same games give the same digests.
pub fn digest(g: &GameState) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |x: i64| {
        for b in x.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for a in &g.history {
        match *a {
            Action::Pass => add(1),
            Action::Play(c, m, hidden, over) => {
                add(2);
                add(c as i64 | (m as i64) << 16 | (hidden as i64) << 24 | (over as i64) << 32);
            }
            Action::Reveal(u) => add(3 | (u as i64) << 8),
            Action::Attach(c, m, host, hidden) => {
                add(4);
                add(c as i64 | (m as i64) << 16 | (hidden as i64) << 24 | (host as i64) << 32);
            }
            Action::RevealAttachment(c) => add(5 | (c as i64) << 8),
            Action::Choose(o) => match o {
                Opt::Skip => add(6),
                Opt::Bool(b) => add(7 | (b as i64) << 8),
                Opt::Int(i) => add(8 | (i as i64) << 8),
                Opt::Place(m, u, p) => {
                    add(9);
                    add(m as i64 | (u as i64) << 16 | (p as i64) << 40);
                }
                Opt::Line(c, l) => add(10 | (c as i64) << 8 | (l as i64) << 40),
            },
        }
    }
    add(g.players[0].score);
    add(g.players[1].score);
    add(g.winner as i64);
    h
}

/// A complete game: seat 0 plays `a` with `pa`. The players are reset with `seed * 2 + 1` and
/// `seed * 2 + 2`, as `mythos_cli.policies.play_match` resets them.
pub fn play_match(
    cat: &'static Catalog,
    a: &GameDeck,
    b: &GameDeck,
    pa: &mut dyn Player,
    pb: &mut dyn Player,
    seed: i128,
) -> Result<GameState, ApplyError> {
    play_match_with(cat, a, b, pa, pb, seed, false)
}

/// The same game, with its event stream when `events` (what the store records).
pub fn play_match_with(
    cat: &'static Catalog,
    a: &GameDeck,
    b: &GameDeck,
    pa: &mut dyn Player,
    pb: &mut dyn Player,
    seed: i128,
    events: bool,
) -> Result<GameState, ApplyError> {
    play_match_forced(cat, a, b, pa, pb, seed, events, [None, None])
}

/// The same game with a seat's mulligan answer forced (`Some(true)`: mulligan, `Some(false)`:
/// keep) while its player answers every other decision: the mulligan experiment plays each
/// dealt hand both ways from the same seed. A forced answer asks the player nothing, so two
/// games that differ only in it are the same deal, the same opponent and the same seeds.
#[allow(clippy::too_many_arguments)]
pub fn play_match_forced(
    cat: &'static Catalog,
    a: &GameDeck,
    b: &GameDeck,
    pa: &mut dyn Player,
    pb: &mut dyn Player,
    seed: i128,
    events: bool,
    mulligans: [Option<bool>; 2],
) -> Result<GameState, ApplyError> {
    let mut g = setup::new_game(cat, a, b, seed, events, None).map_err(|e| ApplyError::Illegal(e.0))?;
    pa.reset(seed * 2 + 1);
    pb.reset(seed * 2 + 2);
    while !g.is_terminal() {
        let Some(d) = g.pending.as_ref() else {
            return Err(ApplyError::Stall(format!("no decision in round {}, phase {}", g.round, g.phase.as_str())));
        };
        let player = d.player;
        let forced = if d.kind == DecisionKind::Mulligan { mulligans[player as usize] } else { None };
        let action = match forced {
            Some(take) => Action::Choose(crate::state::Opt::Bool(take)),
            None if player == 0 => pa.decide(&g, player),
            None => pb.decide(&g, player),
        };
        apply::apply(&mut g, action)?;
    }
    Ok(g)
}

/// Many games of two players: game i plays `decks[games[i].0]` (seat 0, `pa`) against
/// `decks[games[i].1]` with seed `games[i].2`. A game that fails (an engine error or a panic) is
/// reported as Err with its message; the others go on.
pub fn play_matches(
    cat: &'static Catalog,
    decks: &[GameDeck],
    games: &[(usize, usize, i128)],
    pa: &mut dyn Player,
    pb: &mut dyn Player,
) -> Vec<Result<MatchResult, String>> {
    games
        .iter()
        .map(|&(a, b, seed)| {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                play_match(cat, &decks[a], &decks[b], &mut *pa, &mut *pb, seed)
            }));
            match r {
                Ok(Ok(g)) => Ok(MatchResult {
                    winner: g.winner,
                    scores: (g.players[0].score, g.players[1].score),
                    decisions: g.decisions,
                    rounds: g.round,
                    digest: digest(&g),
                }),
                Ok(Err(e)) => Err(format!("seed {seed}: {e:?}")),
                Err(p) => Err(format!(
                    "seed {seed}: panic: {}",
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default()
                )),
            }
        })
        .collect()
}

/// Decks of 15 different characters twice and 3 missions, drawn from the whole catalog (the
/// players' tests).
#[cfg(test)]
pub(crate) fn test_decks(n: usize, seed: i128) -> Vec<GameDeck> {
    use crate::cards::CardType;
    let cat = Catalog::bundled();
    let mut rng = PyRandom::new(seed);
    (0..n).map(|_| GameDeck::random(cat, &mut rng, |c| c.ctype == CardType::Character, String::new())).collect()
}

/// A game of the decks `a` and `b` from `seed`, driven by the player `driver` (reset with the
/// seed) until it ends or `stop(game, steps taken)` says so (the players' tests).
#[cfg(test)]
pub(crate) fn drive_game(
    a: &GameDeck,
    b: &GameDeck,
    seed: i128,
    driver: &str,
    mut stop: impl FnMut(&GameState, usize) -> bool,
) -> GameState {
    let mut g = setup::new_game(Catalog::bundled(), a, b, seed, false, None).unwrap();
    let mut d = make_player(driver, None).unwrap();
    d.reset(seed);
    let mut steps = 0;
    while !g.is_terminal() && !stop(&g, steps) {
        let p = g.pending.as_ref().unwrap().player;
        let act = d.decide(&g, p);
        apply::apply(&mut g, act).unwrap();
        steps += 1;
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: [&str; 6] = ["random", "greedy", "tempo", "ambush", "control", "lookahead:sims=3,width=3"];

    #[test]
    fn every_player_plays_whole_legal_games() {
        let cat = Catalog::bundled();
        let d = test_decks(6, 1);
        for spec in SPECS {
            let mut a = make_player(spec, None).unwrap();
            let mut b = make_player("greedy", None).unwrap();
            for i in 0..6 {
                // apply() refuses an illegal action, so a finished game is the check
                let g = play_match(cat, &d[i], &d[(i + 1) % 6], &mut *a, &mut *b, i as i128).expect("a legal game");
                assert!(g.is_terminal(), "{spec}");
                crate::invariants::check(&g).unwrap_or_else(|e| panic!("{spec}: {e}"));
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_decisions() {
        let cat = Catalog::bundled();
        let d = test_decks(2, 2);
        for spec in SPECS {
            let mut history = Vec::new();
            for seed in [5, 5, 6] {
                let mut a = make_player(spec, None).unwrap();
                let mut b = make_player(spec, None).unwrap();
                history.push(play_match(cat, &d[0], &d[1], &mut *a, &mut *b, seed).unwrap().history);
            }
            assert_eq!(history[0], history[1], "{spec}");
            assert_ne!(history[0], history[2], "{spec}");
        }
    }

    #[test]
    fn a_forced_mulligan_answer_overrides_the_seat_and_nothing_else() {
        let cat = Catalog::bundled();
        let d = test_decks(2, 3);
        for seed in 0..8 {
            for seat in 0..2usize {
                let play = |forced: [Option<bool>; 2]| {
                    let mut a = make_player("greedy", None).unwrap();
                    let mut b = make_player("greedy", None).unwrap();
                    play_match_forced(cat, &d[0], &d[1], &mut *a, &mut *b, seed, false, forced).unwrap()
                };
                let own = play([None, None]);
                let took = own.players[seat].mulliganed;
                let mut same = [None, None];
                same[seat] = Some(took);
                // forcing the answer the player would give changes nothing (greedy's rule draws no random number)
                assert_eq!(play(same).history, own.history, "seed {seed} seat {seat}");
                let mut other = [None, None];
                other[seat] = Some(!took);
                let g = play(other);
                assert_eq!(g.players[seat].mulliganed, !took);
                // the other seat judges its own dealt hand, the same in both games
                assert_eq!(g.players[1 - seat].mulliganed, own.players[1 - seat].mulliganed);
            }
        }
    }

    /// A player that cheats: it picks by the opponent's hand and its own deck order.
    struct Peeker;

    impl Player for Peeker {
        fn mulligan(&self) -> mulligan::Mulligan {
            mulligan::Mulligan::Keep
        }
        fn spec(&self) -> String {
            "peeker".into()
        }
        fn reset(&mut self, _seed: i128) {}
        fn decide(&mut self, g: &GameState, player: i32) -> Action {
            let d = g.pending.as_ref().unwrap();
            let opp = &g.players[1 - player as usize];
            let seen: i64 = opp
                .hand
                .iter()
                .chain(g.players[player as usize].deck.last())
                .map(|&c| g.cards[c as usize] as i64)
                .sum();
            d.nth(seen as usize % d.len())
        }
    }

    /// States of games driven to random points, each with the same state as its player to move
    /// could imagine it (what that player cannot see dealt again): how many of them a player
    /// answers differently.
    fn peeks(make: &dyn Fn() -> Box<dyn Player>, rng: &mut PyRandom) -> (usize, usize) {
        let d = test_decks(8, 3);
        let (mut tested, mut differ) = (0, 0);
        for seed in 0..24 {
            let n = 10 + rng.below(50);
            let g = drive_game(&d[seed % 8], &d[(seed + 3) % 8], seed as i128, "random", |_, steps| steps >= n);
            if g.is_terminal() {
                continue;
            }
            let me = g.pending.as_ref().unwrap().player;
            let other = crate::determinize::determinize(&g, me, rng);
            let (mut p1, mut p2) = (make(), make());
            p1.reset(99);
            p2.reset(99);
            tested += 1;
            if p1.decide(&g, me) != p2.decide(&other, me) {
                differ += 1;
            }
        }
        (tested, differ)
    }

    #[test]
    fn players_do_not_peek() {
        // what a player cannot see dealt again (the opponent's hand, hidden characters and
        // face-down attachments, both decks' order) never changes its choice
        let mut rng = PyRandom::new(11);
        for spec in SPECS[1..].iter() {
            let (tested, differ) = peeks(&|| make_player(spec, None).unwrap(), &mut rng);
            assert!(tested >= 12 && differ == 0, "{spec}: {differ} of {tested} choices changed");
        }
        // and the check catches a player that looks
        let (tested, differ) = peeks(&|| Box::new(Peeker), &mut rng);
        assert!(tested >= 12 && differ > 0, "a peeking player went unseen");
    }

    #[test]
    fn a_time_budget_plays_at_least_one_playout_per_candidate_and_stops() {
        let cat = Catalog::bundled();
        let d = test_decks(2, 5);
        let mut a = make_player("lookahead:time=0.0005,width=3", None).unwrap();
        let mut b = make_player("greedy", None).unwrap();
        let t = std::time::Instant::now();
        assert!(play_match(cat, &d[0], &d[1], &mut *a, &mut *b, 1).unwrap().is_terminal());
        assert!(t.elapsed().as_secs_f64() < 30.0);
    }

    #[test]
    fn a_batch_is_its_games_played_one_by_one() {
        let cat = Catalog::bundled();
        let d = test_decks(3, 4);
        let games = [(0, 1, 7), (1, 2, 8), (2, 0, 9)];
        let (mut a, mut b) = (make_player("ambush", None).unwrap(), make_player("control", None).unwrap());
        let rows = play_matches(cat, &d, &games, &mut *a, &mut *b);
        for (&(x, y, seed), row) in games.iter().zip(rows) {
            let g = play_match(cat, &d[x], &d[y], &mut *a, &mut *b, seed).unwrap();
            let row = row.unwrap();
            assert_eq!(
                (row.winner, row.scores, row.decisions),
                (g.winner, (g.players[0].score, g.players[1].score), g.decisions)
            );
        }
    }
}
