//! A bench for tuning the search player: `cargo run --release --example search_lab -- DECKS.json A B REPS SEED`
//! (DECKS.json: {"decks": [[cards, missions], …]} as benchmarks/search_common.py writes it).
//! Plays every ordered deck pair, A in both seats, on two threads; prints A's win rate.

use mythos_core::cards::Catalog;
use mythos_core::players::{make_player, play_match};

#[path = "support/decks.rs"]
mod decks;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cat = Catalog::bundled();
    let decks = decks::read(&args[1], cat);
    let (a, b) = (args[2].clone(), args[3].clone());
    let reps: usize = args[4].parse().unwrap();
    let seed: i128 = args[5].parse().unwrap();
    let n = decks.len();
    let mut games = Vec::new();
    for r in 0..reps {
        for i in 0..n {
            for j in 0..n {
                for seat in 0..2 {
                    games.push((i, j, seat, seed * 1_000_000 + (((i * n + j) * 2 + seat) * 1000 + r) as i128));
                }
            }
        }
    }
    let t = std::time::Instant::now();
    let half = games.len() / 2;
    let (g1, g2) = games.split_at(half);
    let run = |part: &[(usize, usize, usize, i128)]| -> (usize, usize) {
        let mut wins = 0;
        for &(i, j, seat, s) in part {
            let mut pa = make_player(&a, None).unwrap();
            let mut pb = make_player(&b, None).unwrap();
            let g = if seat == 0 {
                play_match(cat, &decks[i], &decks[j], &mut *pa, &mut *pb, s).unwrap()
            } else {
                play_match(cat, &decks[j], &decks[i], &mut *pb, &mut *pa, s).unwrap()
            };
            if g.winner == seat as i32 {
                wins += 1;
            }
        }
        (wins, part.len())
    };
    let (r1, r2) = std::thread::scope(|sc| {
        let h = sc.spawn(|| run(g1));
        let r2 = run(g2);
        (h.join().unwrap(), r2)
    });
    let (w, total) = (r1.0 + r2.0, r1.1 + r2.1);
    let p = w as f64 / total as f64;
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{a} vs {b}: {:.1}% ± {:.1} ({w}/{total}), {:.1} games/s on 2 threads",
        100.0 * p,
        196.0 * (p * (1.0 - p) / total as f64).sqrt(),
        total as f64 / dt
    );
}
