//! A stop asked from outside (`cancel::request`, what a signal's watcher thread calls) ends the
//! longest budgets at once: a search of 30 s a decision, lookahead's 60 s, the largest playout
//! and endgame budgets, and a batch between games. In a test binary of its own: the flag is the
//! process's, and the other tests' searches must not see it.

mod common;

use std::sync::Mutex;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use common::{cat, new_game, random_deck};
use mythos_core::batch::{Batch, BatchError, Planned, play_batch};
use mythos_core::cancel;
use mythos_core::players::make_player;
use mythos_core::record::Rows;
use mythos_core::rng::PyRandom;
use mythos_core::state::DecisionKind;

/// The flag is the process's: one test at a time raises it.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The seconds `spec`'s first main-action decision takes when a stop is asked after `after`.
fn decision_seconds(spec: &str, after: Duration) -> f64 {
    let mut rng = PyRandom::new(7);
    let (a, b) = (random_deck(&mut rng, &["KS", "SS"], true), random_deck(&mut rng, &["KS", "SS"], true));
    let mut g = new_game(&a, &b, 11);
    let mut greedy = make_player("greedy", None).unwrap();
    // past the mulligans, to a main action with a choice
    while g.pending.as_ref().is_some_and(|d| d.kind != DecisionKind::Action || d.len() < 3) {
        let p = g.pending.as_ref().unwrap().player;
        let act = greedy.decide(&g, p);
        mythos_core::apply::apply(&mut g, act).unwrap();
    }
    let mut player = make_player(spec, None).unwrap();
    player.reset(3);
    cancel::clear();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(after);
        cancel::request();
    });
    let t = Instant::now();
    let p = g.pending.as_ref().unwrap().player;
    let _ = player.decide(&g, p);
    let took = t.elapsed().as_secs_f64();
    stopper.join().unwrap();
    cancel::clear();
    took
}

#[test]
fn a_stop_ends_every_long_budget_at_once() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for spec in ["search:time=30", "search:playouts=10000,width=1000", "lookahead:time=60", "lookahead:sims=10000"] {
        let took = decision_seconds(spec, Duration::from_millis(300));
        assert!(took < 5.0, "{spec}: {took:.1} s for a decision stopped after 0.3 s");
    }
    // and a stop asked before: the answer comes at once
    assert!(decision_seconds("search:time=30", Duration::ZERO) < 5.0);
}

#[test]
fn a_batch_stops_between_games() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = PyRandom::new(5);
    let decks = vec![random_deck(&mut rng, &["KS"], false), random_deck(&mut rng, &["KS"], false)];
    let cards: Vec<u16> = (0..cat().cards.len() as u16).collect();
    let games: Vec<Planned> = (0..4)
        .map(|k| Planned { decks: [0, 1], players: [0, 0], seed: 40 + k, studied_seat: 0, mulligans: [None, None] })
        .collect();
    let specs = ["search:time=30".to_string()];
    let batch = Batch { decks: &decks, specs: &specs, mulligan: None, games: &games };
    let mut rows = Rows::new(&cards).unwrap();
    let done = AtomicUsize::new(0);
    cancel::clear();
    let stopper = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(500));
        cancel::request();
    });
    let t = Instant::now();
    let r = play_batch(cat(), &batch, &mut rows, &done);
    stopper.join().unwrap();
    cancel::clear();
    assert!(matches!(r, Err(BatchError::Cancelled { index: 0 })), "{r:?}");
    assert!(rows.is_empty(), "a game its searches gave up on is not recorded");
    assert!(t.elapsed().as_secs_f64() < 10.0, "{:.1} s", t.elapsed().as_secs_f64());
}
