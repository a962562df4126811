//! Random games on random decks of the bundled catalog, for profiling the engine:
//! `cargo run --release --example random_games -- 20000`.

use mythos_core::cards::Catalog;
use mythos_core::play::random_games;
use mythos_core::rng::PyRandom;
use mythos_core::setup::GameDeck;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let cat = Catalog::bundled();
    let mut rng = PyRandom::new(1);
    let decks: Vec<GameDeck> =
        (0..40).map(|i| GameDeck::random(cat, &mut rng, |_| true, format!("random-{i}"))).collect();
    let pairs: Vec<(usize, usize)> = (0..n).map(|i| (i % 40, (i * 7 + 3) % 40)).collect();
    let seeds: Vec<i128> = (0..n).map(|i| 1_000_003 + i as i128).collect();
    let t = std::time::Instant::now();
    let run = random_games(cat, &decks, &pairs, &seeds, false);
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{} games, {} decisions, {} failures, {:.0} games/s",
        run.games,
        run.decisions,
        run.failures.len(),
        run.games as f64 / dt
    );
}
