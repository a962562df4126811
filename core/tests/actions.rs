//! The fast generator of main actions (`actions::main_options`) offers exactly what the general
//! placement rules allow: `place_options` for characters, `attach_options` for attachments, and
//! the face-down attachments the player can pay to reveal (reveals of hidden characters aside),
//! over random games of Konoha Shidō and of both sets; and the characters' plays and reveals in
//! the rules' order at the rules' prices, whether it summarised the player's sides or read them
//! off the board (a player without chakra).

mod common;

use std::collections::BTreeSet;

use common::{new_game, random_deck, random_step};
use mythos_core::actions::{main_options, place_options, reveal_price};
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

/// The characters' plays and reveals `player` may make now, in the engine's order, each at its
/// price, from the general rules: by mission, a card's face-up play, its face-down play, its
/// upgrades (`place_options`); then the hidden characters to reveal, side by side
/// (`reveal_price`, its general path).
fn ordered_rules(g: &GameState, player: i32) -> Vec<(Action, i64)> {
    let mut want = vec![(Action::Pass, 0)];
    let mut seen = Vec::new();
    for &inst in &g.players[player as usize].hand {
        let card = g.card(inst);
        if card.ctype != CardType::Character || seen.contains(&card.index) {
            continue;
        }
        seen.push(card.index);
        for mi in 0..g.missions.len() as i32 {
            let up = place_options(g, player, inst, false, 0, mi);
            let down = place_options(g, player, inst, true, 0, mi);
            let play = |&(mi, over, price): &(i32, i32, i64), hidden| (Action::Play(inst, mi, hidden, over), price);
            want.extend(up.iter().filter(|p| p.1 == -1).map(|p| play(p, false)));
            want.extend(down.iter().map(|p| play(p, true)));
            want.extend(up.iter().filter(|p| p.1 != -1).map(|p| play(p, false)));
        }
    }
    for m in &g.missions {
        for &x in &m.sides[player as usize] {
            let u = g.u(x);
            if u.hidden
                && let Some(price) = reveal_price(g, player, u, 0, false)
            {
                want.push((Action::Reveal(x), price));
            }
        }
    }
    want
}

/// Every decision of random games (Konoha Shidō, then both sets with attachments), and the same
/// board with the player's chakra spent: the main actions before the attachments' are
/// `ordered_rules`'s, in order and at their prices. A player without chakra has its sides read
/// off the board and its cards without a price of their own skipped: a card skipped that could
/// be played at no cost would fail here.
#[test]
fn main_options_are_the_rules_in_order_at_their_prices() {
    let mut rng = PyRandom::new(17);
    let (mut checked, mut broke) = (0, 0);
    for (s, (sets, attachments)) in
        [(&["KS"][..], false), (&["KS", "SS"][..], true)].into_iter().cycle().take(60).enumerate()
    {
        let (a, b) = (random_deck(&mut rng, sets, attachments), random_deck(&mut rng, sets, attachments));
        let mut g = new_game(&a, &b, s as i128);
        while !g.is_terminal() {
            let d = g.pending.as_ref().expect("a decision");
            if d.kind == DecisionKind::Action {
                let got: Vec<(Action, i64)> = main_options(&g, d.player)
                    .into_iter()
                    .filter(|(a, _)| !matches!(a, Action::Attach(..) | Action::RevealAttachment(_)))
                    .collect();
                assert_eq!(got, ordered_rules(&g, d.player), "game {s}, round {}", g.round);
                checked += 1;
                // (the same board with the player's chakra spent: every hand meets the shortcut)
                let mut spent = g.clone();
                spent.players[d.player as usize].chakra = 0;
                let got: Vec<(Action, i64)> = main_options(&spent, d.player)
                    .into_iter()
                    .filter(|(a, _)| !matches!(a, Action::Attach(..) | Action::RevealAttachment(_)))
                    .collect();
                assert_eq!(got, ordered_rules(&spent, d.player), "game {s}, round {}, no chakra", g.round);
                broke += 1 + (g.players[d.player as usize].chakra < 1) as usize;
            }
            random_step(&mut g, &mut rng);
        }
    }
    assert!(checked > 1000 && broke > 200, "{checked} decisions compared, {broke} without chakra");
}
