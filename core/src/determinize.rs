//! Determinisation: a full game state consistent with one player's knowledge, the cards that
//! player cannot see dealt at random (for look-ahead and search).
//!
//! Unknown: the opponent's hand, the top cards of the opponent's hidden characters (but those the
//! player may look at), the opponent's face-down attachments and both decks' order. They are
//! pooled (sorted, so that the result depends only on what the player knows and on the rng),
//! shuffled and dealt back into the same places: hidden characters from the character cards,
//! face-down attachments from the attachment cards, then the hand and the deck.

use crate::cards::CardType;
use crate::rng::PyRandom;
use crate::state::{GameState, Inst};

/// Cards in the order of their card's id, copies by instance: each sorted by its key worked out
/// once (the keys are all different, so the order is the one a sort by key gives).
fn sort_by_id(d: &GameState, cards: &mut [Inst]) {
    let mut keys: Vec<u64> = cards.iter().map(|&c| ((d.card(c).id_rank as u64) << 32) | c as u32 as u64).collect();
    keys.sort_unstable();
    for (c, k) in cards.iter_mut().zip(&keys) {
        *c = *k as u32 as Inst;
    }
}

pub fn determinize(g: &GameState, player: i32, rng: &mut PyRandom) -> GameState {
    let mut d = g.clone();
    deal_unseen(&mut d, player, rng);
    d
}

/// `determinize` into `d` (a copy of `g` made in its own buffers).
pub fn determinize_into(d: &mut GameState, g: &GameState, player: i32, rng: &mut PyRandom) {
    d.clone_from(g);
    deal_unseen(d, player, rng);
}

/// What `player` cannot see of `d` dealt again from `rng`.
fn deal_unseen(d: &mut GameState, player: i32, rng: &mut PyRandom) {
    let opp = 1 - player as usize;
    // hidden characters the player may look at (⧗ see_hidden) are known, not dealt
    let seen = crate::view::seen_hidden(d, player);
    let hidden: Vec<i32> = d
        .all_uids()
        .into_iter()
        .filter(|&x| {
            let u = d.u(x);
            u.hidden && u.owner != player && u.controller != player && !seen.contains(&x)
        })
        .collect();
    // face-down attachments of the opponent: (holder: mission side or unit, index)
    #[derive(Clone, Copy)]
    enum Holder {
        Mission(usize, usize),
        Unit(i32),
    }
    let mut slots: Vec<(Holder, usize)> = Vec::new();
    for (mi, m) in d.missions.iter().enumerate() {
        for side in 0..2 {
            for (i, &a) in m.attachments[side].iter().enumerate() {
                if d.att_is_hidden(a) && d.owner[a as usize] != player {
                    slots.push((Holder::Mission(mi, side), i));
                }
            }
        }
        for side in 0..2 {
            for &uid in &m.sides[side] {
                for (i, &a) in d.u(uid).attachments.iter().enumerate() {
                    if d.att_is_hidden(a) && d.owner[a as usize] != player {
                        slots.push((Holder::Unit(uid), i));
                    }
                }
            }
        }
    }
    let get = |d: &GameState, h: Holder, i: usize| -> Inst {
        match h {
            Holder::Mission(mi, side) => d.missions[mi].attachments[side][i],
            Holder::Unit(uid) => d.u(uid).attachments[i],
        }
    };
    let (hand, deck) = (&d.players[opp].hand, &d.players[opp].deck);
    let mut pool: Vec<Inst> = Vec::with_capacity(hand.len() + deck.len() + hidden.len() + slots.len());
    pool.extend_from_slice(hand);
    pool.extend_from_slice(deck);
    pool.extend(hidden.iter().map(|&x| d.u(x).top()));
    pool.extend(slots.iter().map(|&(h, i)| get(d, h, i)));
    sort_by_id(d, &mut pool);
    rng.shuffle(&mut pool);
    let chars: Vec<Inst> = pool.iter().copied().filter(|&c| d.card(c).ctype == CardType::Character).collect();
    for (&uid, &c) in hidden.iter().zip(chars.iter()) {
        let u = d.um(uid);
        let top = u.stack.len() - 1;
        u.stack[top] = c;
        d.restacked(uid);
    }
    let mut used: Vec<Inst> = hidden.iter().map(|&x| d.u(x).top()).collect();
    let atts: Vec<Inst> =
        pool.iter().copied().filter(|&c| d.card(c).ctype == CardType::Attachment && !used.contains(&c)).collect();
    // Every slot's old card is let go before any new one is flagged: a card dealt to one slot may
    // be the very card another slot held, and its face-down flag and Power must not be lost.
    let dealt: Vec<(Holder, usize, Inst, Inst, Option<i64>)> = slots
        .iter()
        .zip(atts.iter())
        .map(|(&(h, i), &c)| {
            let old = get(d, h, i);
            (h, i, old, c, d.att_power_of(old))
        })
        .collect();
    for &(_, _, old, _, _) in &dealt {
        d.set_att_hidden(old, false);
        d.att_power.retain(|(x, _)| *x != old);
    }
    for &(h, i, _, c, power) in &dealt {
        d.set_att_hidden(c, true);
        if let Some(p) = power {
            d.att_power.push((c, p));
        }
        match h {
            Holder::Mission(mi, side) => d.missions[mi].attachments[side][i] = c,
            Holder::Unit(uid) => d.um(uid).attachments[i] = c,
        }
        used.push(c);
    }
    let rest: Vec<Inst> = pool.iter().copied().filter(|c| !used.contains(c)).collect();
    let nh = d.players[opp].hand.len();
    let nd = d.players[opp].deck.len();
    d.players[opp].hand = rest[..nh].to_vec();
    d.players[opp].deck = rest[nh..nh + nd].to_vec();
    let me = player as usize;
    let mut mine = d.players[me].deck.clone();
    sort_by_id(d, &mut mine);
    rng.shuffle(&mut mine);
    d.players[me].deck = mine;
    // the missions whose hidden cards were dealt again are stamped afresh (the others stand)
    let stamped = d.stamps_current();
    d.board_version += 1;
    for &uid in &hidden {
        let mi = d.u(uid).mission;
        d.changed_at(stamped, mi);
    }
    for &(h, _) in &slots {
        let mi = match h {
            Holder::Mission(mi, _) => mi as i32,
            Holder::Unit(uid) => d.u(uid).mission,
        };
        d.changed_at(stamped, mi);
    }
    let seed = rng.getrandbits(64);
    d.rng = PyRandom::new(seed as i128);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Catalog;
    use crate::setup::GameDeck;

    fn deck(cat: &'static Catalog, rng: &mut PyRandom) -> GameDeck {
        GameDeck::random(cat, rng, |_| true, String::new())
    }

    /// What a player sees never changes when the cards they cannot see are dealt again, and the
    /// redealt game keeps every face-down attachment face-down (two slots may swap their cards).
    #[test]
    fn a_redeal_keeps_the_view_and_every_face_down_card() {
        let cat = Catalog::bundled();
        let mut rng = PyRandom::new(5);
        let mut checked = 0;
        for k in 0..60 {
            let (a, b) = (deck(cat, &mut rng), deck(cat, &mut rng));
            let mut g = crate::setup::new_game(cat, &a, &b, 40 + k, false, None).unwrap();
            let mut step = 0usize;
            while !g.is_terminal() {
                for p in 0..2 {
                    let d = determinize(&g, p, &mut PyRandom::new(step as i128));
                    assert_eq!(crate::view::observe(&d, p), crate::view::observe(&g, p), "game {k} step {step}");
                    assert_eq!(d.att_hidden.len(), g.att_hidden.len());
                    checked += 1;
                }
                let n = g.pending.as_ref().unwrap().len();
                let act = g.pending.as_ref().unwrap().nth(rng.below(n));
                crate::apply::apply(&mut g, act).unwrap();
                step += 1;
            }
        }
        assert!(checked > 1000);
    }
}
