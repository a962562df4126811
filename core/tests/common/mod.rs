//! What the integration tests share: random decks from the bundled catalog, random games.

#![allow(dead_code)] // (each test file uses its own part)

use mythos_core::apply;
use mythos_core::cards::{CardType, Catalog};
use mythos_core::rng::PyRandom;
use mythos_core::setup::{self, GameDeck};
use mythos_core::state::GameState;

pub fn cat() -> &'static Catalog {
    Catalog::bundled()
}

/// `n` distinct items of `pool`, drawn with `rng`.
pub fn sample<T: Copy>(rng: &mut PyRandom, pool: &[T], n: usize) -> Vec<T> {
    let mut v = pool.to_vec();
    for i in 0..n {
        let j = i + rng.below(v.len() - i);
        v.swap(i, j);
    }
    v.truncate(n);
    v
}

/// 15 versions twice each and 3 missions, drawn from the sets named (characters, and attachments
/// too when `attachments`).
pub fn random_deck(rng: &mut PyRandom, sets: &[&str], attachments: bool) -> GameDeck {
    let cat = cat();
    let in_set = |t: CardType| -> Vec<u16> {
        cat.cards.iter().filter(|c| c.ctype == t && sets.contains(&c.set.as_str())).map(|c| c.index).collect()
    };
    let mut pool = in_set(CardType::Character);
    if attachments {
        pool.extend(in_set(CardType::Attachment));
    }
    let picked = sample(rng, &pool, 15);
    GameDeck {
        cards: picked.iter().chain(picked.iter()).copied().collect(),
        missions: sample(rng, &in_set(CardType::Mission), 3),
        name: String::new(),
    }
}

pub fn new_game(a: &GameDeck, b: &GameDeck, seed: i128) -> GameState {
    setup::new_game(cat(), a, b, seed, false, None).expect("a legal setup")
}

/// Apply a uniformly random legal action.
pub fn random_step(g: &mut GameState, rng: &mut PyRandom) {
    let d = g.pending.as_ref().expect("a decision");
    let a = d.nth(rng.below(d.len()));
    apply::apply(g, a).expect("a legal action applies");
}
