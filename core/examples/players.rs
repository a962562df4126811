//! Whole games between two built-in players on random decks of the bundled catalog, for profiling
//! the players: `cargo run --release --example players -- lookahead lookahead 200`.
//!
//! With a fourth argument, a decks file (`{"decks": [[cards, missions], …]}`, as
//! benchmarks/search_common.py writes them, e.g. the six sample decks), the games are those of
//! `benchmarks/bench_policies.py` on those decks: game i deck i mod n against 5i+1 mod n, seed i.

use mythos_core::cards::Catalog;
use mythos_core::players::{make_player, play_matches};
use mythos_core::rng::PyRandom;
use mythos_core::setup::GameDeck;

#[path = "support/decks.rs"]
mod decks;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = args.get(1).map_or("greedy", |s| s.as_str());
    let b = args.get(2).map_or(a, |s| s.as_str());
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(200);
    let cat = Catalog::bundled();
    let (decks, games): (Vec<GameDeck>, Vec<(usize, usize, i128)>) = match args.get(4) {
        Some(path) => {
            let decks = decks::read(path, cat);
            let k = decks.len();
            (decks, (0..n).map(|i| (i % k, (i * 5 + 1) % k, i as i128)).collect())
        }
        None => {
            let mut rng = PyRandom::new(1);
            let decks = (0..12).map(|i| GameDeck::random(cat, &mut rng, |_| true, format!("random-{i}"))).collect();
            (decks, (0..n).map(|i| (i % 12, (i * 5 + 1) % 12, 7_000 + i as i128)).collect())
        }
    };
    let (mut pa, mut pb) = (make_player(a, None).expect("spec"), make_player(b, None).expect("spec"));
    let t = std::time::Instant::now();
    let results = play_matches(cat, &decks, &games, &mut *pa, &mut *pb);
    let dt = t.elapsed().as_secs_f64();
    let failures = results.iter().filter(|r| r.is_err()).count();
    println!("{a} vs {b}: {n} games, {failures} failures, {:.0} games/s", n as f64 / dt);
}
