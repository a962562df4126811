//! Data for fitting the search's leaf value to game outcomes (benchmarks/README.md, "A leaf fitted
//! to game outcomes"): `cargo run --release --example leaf_lab -- DECKS.json SPEC REPS SEED OUT.jsonl`
//! (DECKS.json as `search_lab` reads it). Plays SPEC against itself over every ordered deck pair
//! `REPS` times on two threads and writes, at the first decision of rounds 2, 3 and 4 (the states
//! a playout's leaf is valued at), the ingredients of the leaf for seat 0
//! (`evaluate::leaf_parts`) and the game's winner, one JSON object a line.

use std::io::Write;

use mythos_core::apply;
use mythos_core::cards::Catalog;
use mythos_core::players::evaluate::leaf_parts;
use mythos_core::players::make_player;
use mythos_core::setup;
use mythos_core::state::Phase;

#[path = "support/decks.rs"]
mod decks;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cat = Catalog::bundled();
    let decks = decks::read(&args[1], cat);
    let spec = args[2].clone();
    let reps: usize = args[3].parse().unwrap();
    let seed: i128 = args[4].parse().unwrap();
    let n = decks.len();
    let mut games = Vec::new();
    for r in 0..reps {
        for i in 0..n {
            for j in 0..n {
                games.push((i, j, seed * 1_000_000 + ((i * n + j) * 1000 + r) as i128));
            }
        }
    }
    let play = |part: &[(usize, usize, i128)]| -> Vec<String> {
        let mut lines = Vec::new();
        for &(i, j, s) in part {
            let mut pa = make_player(&spec, None).unwrap();
            let mut pb = make_player(&spec, None).unwrap();
            let mut g = setup::new_game(cat, &decks[i], &decks[j], s, false, None).unwrap();
            pa.reset(s * 2 + 1);
            pb.reset(s * 2 + 2);
            let mut rows = Vec::new();
            let mut seen = 1;
            while !g.is_terminal() {
                if g.round > seen && g.phase == Phase::Action {
                    seen = g.round;
                    let p = leaf_parts(&g, 0);
                    rows.push(serde_json::json!({
                        "round": g.round, "score": p.score, "edge": p.edge as i32, "rounds": p.rounds,
                        "missions": p.missions, "hand": p.hand, "chakra": p.chakra,
                    }));
                }
                let d = g.pending.as_ref().expect("a decision");
                let a = if d.player == 0 { pa.decide(&g, 0) } else { pb.decide(&g, 1) };
                apply::apply(&mut g, a).unwrap();
            }
            for mut r in rows {
                r["game"] = serde_json::json!(s.to_string());
                r["decks"] = serde_json::json!([i, j]);
                r["winner"] = serde_json::json!(g.winner);
                r["final"] = serde_json::json!([g.players[0].score, g.players[1].score]);
                lines.push(r.to_string());
            }
        }
        lines
    };
    let half = games.len() / 2;
    let (g1, g2) = games.split_at(half);
    let t = std::time::Instant::now();
    let (l1, l2) = std::thread::scope(|sc| {
        let h = sc.spawn(|| play(g1));
        let l2 = play(g2);
        (h.join().unwrap(), l2)
    });
    let mut out = std::fs::File::create(&args[5]).expect("an output file");
    for l in l1.iter().chain(l2.iter()) {
        writeln!(out, "{l}").unwrap();
    }
    println!("{} games, {} states, {:.1} s", games.len(), l1.len() + l2.len(), t.elapsed().as_secs_f64());
}
