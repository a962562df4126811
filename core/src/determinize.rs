//! Determinisation: a full game state consistent with one player's knowledge, the cards that
//! player cannot see dealt at random (for look-ahead and search).
//!
//! Unknown: the opponent's hand, the top cards of the opponent's hidden characters, the
//! opponent's face-down attachments and both decks' order. They are pooled (sorted, so that the
//! result depends only on what the player knows and on the rng), shuffled and dealt back into the
//! same places: hidden characters from the character cards, face-down attachments from the
//! attachment cards, then the hand and the deck.

use crate::cards::CardType;
use crate::rng::PyRandom;
use crate::state::{GameState, Inst};

pub fn determinize(g: &GameState, player: i32, rng: &mut PyRandom) -> GameState {
    let mut d = g.clone();
    let opp = 1 - player as usize;
    let hidden: Vec<i32> = d
        .all_uids()
        .into_iter()
        .filter(|&x| {
            let u = d.u(x);
            u.hidden && u.owner != player && u.controller != player
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
    let mut pool: Vec<Inst> = d.players[opp].hand.clone();
    pool.extend(&d.players[opp].deck);
    pool.extend(hidden.iter().map(|&x| d.u(x).top()));
    pool.extend(slots.iter().map(|&(h, i)| get(&d, h, i)));
    pool.sort_by(|&a, &b| d.card(a).id.cmp(&d.card(b).id).then(a.cmp(&b)));
    rng.shuffle(&mut pool);
    let chars: Vec<Inst> = pool.iter().copied().filter(|&c| d.card(c).ctype == CardType::Character).collect();
    for (&uid, &c) in hidden.iter().zip(chars.iter()) {
        let u = d.um(uid);
        let top = u.stack.len() - 1;
        u.stack[top] = c;
    }
    let mut used: Vec<Inst> = hidden.iter().map(|&x| d.u(x).top()).collect();
    let atts: Vec<Inst> =
        pool.iter().copied().filter(|&c| d.card(c).ctype == CardType::Attachment && !used.contains(&c)).collect();
    for (&(h, i), &c) in slots.iter().zip(atts.iter()) {
        let old = get(&d, h, i);
        d.set_att_hidden(old, false);
        d.set_att_hidden(c, true);
        if let Some(p) = d.att_power_of(old) {
            d.att_power.retain(|(x, _)| *x != old);
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
    mine.sort_by(|&a, &b| d.card(a).id.cmp(&d.card(b).id).then(a.cmp(&b)));
    rng.shuffle(&mut mine);
    d.players[me].deck = mine;
    d.board_version += 1;
    let seed = rng.getrandbits(64);
    d.rng = PyRandom::new(seed as i128);
    d
}
