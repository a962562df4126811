//! The fast generator of main actions (`actions::main_options`) offers exactly what the general
//! placement rules allow: `place_options` for characters, `attach_options` for attachments, and
//! the face-down attachments the player can pay to reveal (reveals of hidden characters aside),
//! over random games of Konoha Shidō and of both sets.

mod common;

use std::collections::BTreeSet;

use common::{new_game, random_deck, random_step};
use mythos_core::actions::{main_options, place_options};
use mythos_core::attachments::{attach_options, hidden_attachments_of, reveal_attachment_price};
use mythos_core::cards::CardType;
use mythos_core::rng::PyRandom;
use mythos_core::state::{Action, DecisionKind, GameState};

fn key(a: &Action) -> String {
    format!("{a:?}")
}

/// What the general placement rules allow `player` now.
fn placement_options(g: &GameState, player: i32) -> BTreeSet<String> {
    let mut want = BTreeSet::from([key(&Action::Pass)]);
    let mut seen = Vec::new();
    for &inst in &g.players[player as usize].hand {
        let card = g.card(inst);
        if seen.contains(&card.index) {
            continue; // (copies of one version give the same actions: the first is offered)
        }
        seen.push(card.index);
        for hidden in [false, true] {
            if card.ctype == CardType::Character {
                for (mi, over, _) in place_options(g, player, inst, hidden, 0, -1) {
                    want.insert(key(&Action::Play(inst, mi, hidden, over)));
                }
            } else {
                for (mi, host, _) in attach_options(g, player, inst, hidden, 0, -1) {
                    want.insert(key(&Action::Attach(inst, mi, host, hidden)));
                }
            }
        }
    }
    for (inst, _, mi) in hidden_attachments_of(g, player) {
        if reveal_attachment_price(g, player, inst, mi).is_some() {
            want.insert(key(&Action::RevealAttachment(inst)));
        }
    }
    want
}

fn agree(sets: &[&str], attachments: bool, games: i128, seed: i128) -> (usize, usize) {
    let mut rng = PyRandom::new(seed);
    let (mut checked, mut attached) = (0, 0);
    for s in 0..games {
        let (a, b) = (random_deck(&mut rng, sets, attachments), random_deck(&mut rng, sets, attachments));
        let mut g = new_game(&a, &b, s);
        while !g.is_terminal() {
            let d = g.pending.as_ref().expect("a decision");
            if d.kind == DecisionKind::Action {
                let got: BTreeSet<String> = main_options(&g, d.player)
                    .iter()
                    .filter(|(a, _)| !matches!(a, Action::Reveal(_)))
                    .map(|(a, _)| key(a))
                    .collect();
                assert_eq!(got, placement_options(&g, d.player), "seed {s}, round {}", g.round);
                checked += 1;
            }
            let before = g.history.len();
            random_step(&mut g, &mut rng);
            attached += g.history[before..].iter().filter(|a| matches!(a, Action::Attach(..))).count();
        }
    }
    (checked, attached)
}

#[test]
fn main_options_agree_with_the_placement_rules() {
    let (checked, _) = agree(&["KS"], false, 60, 5);
    assert!(checked > 500, "{checked} decisions compared");
}

#[test]
fn main_options_agree_with_the_placement_rules_for_both_sets() {
    let (checked, attached) = agree(&["KS", "SS"], true, 40, 11);
    assert!(checked > 500 && attached > 50, "{checked} decisions compared, {attached} attachments played");
}
