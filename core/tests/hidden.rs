//! Hidden information (the rules summary; FAQ): a player knows their own hand and hidden cards,
//! never the opponent's hand, the opponent's hidden characters and face-down attachments or
//! either deck's order.
//!
//! - The view a player decides from (`view::observe`) is the same on every state those unknowns
//!   could be: dealing them at random (`determinize`) changes the state, never the view.
//! - Hidden means no name, keyword or group: an effect's options (targets, missions, cards,
//!   numbers, yes/no) are the same whatever the opponent's hidden cards really are.

mod common;

use std::collections::HashMap;

use common::{new_game, random_deck, random_step};
use mythos_core::cards::CardType;
use mythos_core::determinize::determinize;
use mythos_core::effects::{Need, run_top};
use mythos_core::rng::PyRandom;
use mythos_core::state::{DecisionKind, GameState, Inst, Opt};
use mythos_core::view::{observe, seen_hidden};

#[test]
fn the_view_hides_what_a_player_cannot_know() {
    let mut rng = PyRandom::new(8);
    let (mut tested, mut changed) = (0, 0);
    for seed in 0..40 {
        let (a, b) = (random_deck(&mut rng, &["KS"], false), random_deck(&mut rng, &["KS"], false));
        let mut g = new_game(&a, &b, seed);
        while !g.is_terminal() && g.round < 3 {
            random_step(&mut g, &mut rng);
        }
        if g.is_terminal() {
            continue;
        }
        for me in [0, 1] {
            let other = determinize(&g, me, &mut rng);
            let opp = 1 - me as usize;
            changed += (other.players[opp].hand != g.players[opp].hand
                || other.players[opp].deck != g.players[opp].deck) as usize;
            assert_eq!(observe(&other, me), observe(&g, me), "seed {seed}, player {me}");
            tested += 1;
        }
    }
    assert!(tested > 20 && changed > tested / 2, "{tested} views compared, {changed} with other unknowns");
}

/// The pending effect decision asked again from the same frame (nothing applied yet): (player,
/// kind, options), card options mapped back through `renamed` (instances swapped in → the ones
/// they replace).
fn decision_again(g: &GameState, renamed: &HashMap<Inst, Inst>) -> Option<(i32, DecisionKind, Vec<Opt>)> {
    let mut g = g.clone();
    g.pending = None;
    let top = g.stack.len() - 1;
    g.stack[top].cursor = 0;
    match run_top(&mut g) {
        Err(Need(d)) => {
            let back = |o: Opt| match o {
                Opt::Int(i) if d.kind == DecisionKind::Card => Opt::Int(*renamed.get(&i).unwrap_or(&i)),
                o => o,
            };
            Some((d.player, d.kind, d.options.iter().map(|&o| back(o)).collect()))
        }
        Ok(()) => None,
    }
}

/// Give every hidden character and face-down attachment `decider` cannot know another card of
/// its owner's deck; returns the instances swapped in, mapped to the ones they replaced.
fn swap_hidden(g: &mut GameState, decider: i32, rng: &mut PyRandom) -> HashMap<Inst, Inst> {
    let seen = seen_hidden(g, decider);
    let mut swapped: HashMap<Inst, Inst> = HashMap::new();
    for uid in g.all_uids() {
        let u = g.u(uid);
        if !u.hidden || u.controller == decider || u.owner == decider || seen.contains(&uid) {
            continue;
        }
        let owner = u.owner as usize;
        let deck = &g.players[owner].deck;
        // (not the top card: an effect may be putting it into play, KS-052 drawing it first)
        let others: Vec<usize> = (0..deck.len().saturating_sub(1))
            .filter(|&i| g.card(deck[i]).ctype == CardType::Character && !swapped.values().any(|&v| v == deck[i]))
            .collect();
        if others.is_empty() {
            continue;
        }
        let i = others[rng.below(others.len())];
        let (new, old) = (g.players[owner].deck[i], g.u(uid).top());
        swapped.insert(new, old);
        g.players[owner].deck[i] = old;
        let stack = &mut g.um(uid).stack;
        let top = stack.len() - 1;
        stack[top] = new;
    }
    // face-down attachments the decider did not play: on characters, then on missions
    let mut holders: Vec<(i32, usize, usize)> = Vec::new(); // (uid or -1, mission, side)
    for uid in g.all_uids() {
        holders.push((uid, 0, 0));
    }
    for mi in 0..g.missions.len() {
        holders.push((-1, mi, 0));
        holders.push((-1, mi, 1));
    }
    for (uid, mi, side) in holders {
        let held = if uid >= 0 { g.u(uid).attachments.clone() } else { g.missions[mi].attachments[side].clone() };
        for (k, &a) in held.iter().enumerate() {
            if !g.att_is_hidden(a) || g.owner[a as usize] == decider {
                continue;
            }
            let owner = g.owner[a as usize] as usize;
            let deck = &g.players[owner].deck;
            let others: Vec<usize> = (0..deck.len())
                .filter(|&i| g.card(deck[i]).ctype == CardType::Attachment && !swapped.values().any(|&v| v == deck[i]))
                .collect();
            if others.is_empty() {
                continue;
            }
            let i = others[rng.below(others.len())];
            let new = g.players[owner].deck[i];
            g.players[owner].deck[i] = a;
            if uid >= 0 {
                g.um(uid).attachments[k] = new;
            } else {
                g.missions[mi].attachments[side][k] = new;
            }
            g.set_att_hidden(a, false);
            g.set_att_hidden(new, true);
            if let Some(p) = g.att_power_of(a) {
                g.att_power.retain(|(x, _)| *x != a);
                g.att_power.push((new, p));
            }
            swapped.insert(new, a);
        }
    }
    if !swapped.is_empty() {
        g.board_version += 1;
        g.token_version += 1;
    }
    swapped
}

#[test]
fn effect_options_never_depend_on_what_an_opponents_hidden_card_is() {
    let mut rng = PyRandom::new(14);
    let mut compared = 0;
    for seed in 0..600 {
        let (a, b) = (random_deck(&mut rng, &["KS", "SS"], true), random_deck(&mut rng, &["KS", "SS"], true));
        let mut g = new_game(&a, &b, seed);
        while !g.is_terminal() {
            let d = g.pending.as_ref().expect("a decision");
            let effect = matches!(
                d.kind,
                DecisionKind::Target
                    | DecisionKind::Mission
                    | DecisionKind::Card
                    | DecisionKind::Place
                    | DecisionKind::Number
                    | DecisionKind::YesNo
            );
            // (the first choice of a step: later ones may name a swapped card already chosen)
            if effect && g.stack.last().is_some_and(|f| f.choices.is_empty()) {
                let base = decision_again(&g, &HashMap::new());
                let mut other = g.clone();
                let renamed = swap_hidden(&mut other, d.player, &mut rng);
                if !renamed.is_empty() {
                    assert_eq!(decision_again(&other, &renamed), base, "seed {seed}, round {}, {:?}", g.round, d.kind);
                    compared += 1;
                }
            }
            random_step(&mut g, &mut rng);
        }
    }
    assert!(compared > 300, "{compared} decisions compared");
}
