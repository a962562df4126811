//! The Power table keeps what a static that reads only its own mission did, by that mission's
//! stamp (`GameState::stamps`), across fillings and across copies of the game. These games check
//! that every Power it gives is the one worked out from scratch, in the game and in copies of it
//! whose unseen cards were dealt again and that then went their own way (as a search's playouts
//! do), on decks full of such statics.

mod common;

use common::{cat, new_game, random_deck, random_step, sample};
use mythos_core::cards::CardType;
use mythos_core::determinize::determinize_into;
use mythos_core::effects::lines;
use mythos_core::language::StaticKind;
use mythos_core::power::{power_now, power_of};
use mythos_core::rng::PyRandom;
use mythos_core::setup::GameDeck;
use mythos_core::state::GameState;

/// A deck of the characters with a kept Power static (as many as fit), the rest drawn at random.
fn kept_deck(rng: &mut PyRandom) -> GameDeck {
    let cat = cat();
    let kept: Vec<u16> = cat
        .cards
        .iter()
        .filter(|c| c.ctype == CardType::Character && c.own_statics(StaticKind::Power).any(|s| s.kept))
        .map(|c| c.index)
        .collect();
    let mut d = random_deck(rng, &["KS", "SS"], true);
    let mine = sample(rng, &kept, kept.len().min(10));
    for (i, &c) in mine.iter().enumerate() {
        // (a version twice, as the random deck holds each)
        d.cards[i] = c;
        d.cards[i + 15] = c;
    }
    d
}

/// Every character's Power off the table against a fresh computation; whether a kept static was
/// in force.
fn compare(g: &GameState, at: &str) -> bool {
    for uid in g.all_uids() {
        let (kept, fresh) = (power_of(g, uid), power_now(g, g.u(uid)));
        assert_eq!(kept, fresh, "{at}: unit {uid}, round {}, decision {}", g.round, g.decisions);
    }
    lines::lines(g).statics(StaticKind::Power).iter().any(|r| r.s.kept)
}

#[test]
fn the_kept_statics_give_the_power_a_fresh_filling_gives() {
    let mut rng = PyRandom::new(41);
    let (mut met, mut copies) = (0, 0);
    for seed in 0..150 {
        let (a, b) = (kept_deck(&mut rng), kept_deck(&mut rng));
        let mut g = new_game(&a, &b, seed);
        let mut copy = g.clone();
        while !g.is_terminal() {
            met += compare(&g, &format!("seed {seed}")) as usize;
            if g.decisions % 3 == 0 {
                // a copy, its unseen cards dealt again for the player to act, played on a while
                let player = g.pending.as_ref().expect("a decision").player;
                determinize_into(&mut copy, &g, player, &mut rng);
                for step in 0..6 {
                    if copy.is_terminal() {
                        break;
                    }
                    met += compare(&copy, &format!("seed {seed}, copy step {step}")) as usize;
                    random_step(&mut copy, &mut rng);
                }
                copies += 1;
            }
            random_step(&mut g, &mut rng);
        }
    }
    assert!(met > 5_000, "{met} positions with a kept static in force");
    assert!(copies > 1_000, "{copies} copies");
}
