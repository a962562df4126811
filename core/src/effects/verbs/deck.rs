//! Cards in hands, decks and discard piles: draw, discard, look, search, reveal, shuffle back.

use super::{arg_num, int};
use crate::board::draw_cards;
use crate::effects::selectors::{card_fits, card_fits_opt, zone_fits};
use crate::effects::{Res, choose, ctx_ref, pick_units, set_var};
use crate::language::{Arg, Step, Who};
use crate::state::{DecisionKind, Ev, GameState, Inst, Opt, Prompt, Val, vars};

fn me(g: &GameState, fi: usize) -> i32 {
    ctx_ref(g, fi).player
}

fn cards_opts(v: &[Inst]) -> Vec<Opt> {
    v.iter().map(|&c| Opt::Int(c)).collect()
}

fn remove(zone: &mut Vec<Inst>, c: Inst) {
    if let Some(i) = zone.iter().position(|&x| x == c) {
        zone.remove(i);
    }
}

pub fn draw(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let n = arg_num(g, fi, step).max(0) as usize;
    let me = me(g, fi);
    match step.opts.who {
        Some(Who::Each) => {
            draw_cards(g, me, n);
            draw_cards(g, 1 - me, n);
        }
        who => {
            let p = if who == Some(Who::Opponent) { 1 - me } else { me };
            let k = draw_cards(g, p, n);
            set_var(g, fi, step.as_.unwrap_or(vars::DREW), int(k));
        }
    }
    Ok(())
}

pub fn discard(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let victim = if step.opts.who == Some(Who::Opponent) { 1 - me } else { me };
    let chooser = if step.opts.chooser_you { me } else { victim };
    let hand = g.players[victim as usize].hand.clone();
    let pool: Vec<Inst> = match &step.opts.filter {
        None => hand,
        Some(f) => hand.into_iter().filter(|&c| card_fits(f, g.card(c))).collect(),
    };
    let n = match &step.arg {
        Arg::All => pool.len() as i64,
        _ => arg_num(g, fi, step),
    };
    let mut picked: Vec<Inst> = Vec::new();
    if n >= pool.len() as i64 {
        picked = pool.clone(); // the whole hand: nothing to choose
    } else if step.opts.random {
        let mut left = pool.clone();
        for _ in 0..n.max(0) {
            let i = g.rng.below(left.len());
            picked.push(left.remove(i));
        }
    } else {
        for _ in 0..n.max(0) {
            let left: Vec<Inst> = pool.iter().copied().filter(|c| !picked.contains(c)).collect();
            match choose(g, fi, chooser, DecisionKind::Card, cards_opts(&left), false, Prompt::Text("card to discard"))?
            {
                Opt::Int(c) => picked.push(c),
                _ => picked.push(-1),
            }
        }
    }
    let (mut cost, mut power) = (0, 0);
    for &c in &picked {
        if c < 0 {
            continue;
        }
        let p = &mut g.players[victim as usize];
        remove(&mut p.hand, c);
        p.discard.push(c);
        cost += g.card(c).cost();
        power += g.card(c).power();
        g.emit(Ev::Discard(victim, c));
    }
    let k = picked.len() as i64;
    set_var(g, fi, step.as_.unwrap_or(vars::DISCARDED), int(k));
    set_var(g, fi, vars::DISCARDED_COUNT, int(k));
    set_var(g, fi, vars::DISCARDED_COST, int(cost));
    set_var(g, fi, vars::DISCARDED_POWER, int(power));
    Ok(())
}

/// Looking changes nothing on the board; what was looked at is remembered ("if it costs 3 or
/// less" reads its printed cost).
pub fn look(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    if let Some(sel) = step.selector() {
        let got = pick_units(g, fi, sel, None, &[])?;
        if let Some(&uid) = got.first() {
            let cost = g.unit_card(g.u(uid)).cost();
            set_var(g, fi, step.as_.unwrap_or(vars::LOOKED), int(uid as i64));
            set_var(g, fi, vars::LOOKED_COST, int(cost));
        }
    }
    let me = me(g, fi);
    g.emit(Ev::Look(me));
    Ok(())
}

pub fn discard_top(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let who = if step.opts.who == Some(Who::Opponent) { 1 - me } else { me };
    let Some(c) = g.players[who as usize].deck.pop() else {
        set_var(g, fi, vars::DISCARDED_COST, int(0));
        return Ok(());
    };
    g.players[who as usize].discard.push(c);
    let cost = g.card(c).cost();
    set_var(g, fi, vars::DISCARDED_COST, int(cost));
    g.emit(Ev::Discard(who, c));
    Ok(())
}

pub fn put_on_deck(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let hand = g.players[me as usize].hand.clone();
    let n = arg_num(g, fi, step).min(hand.len() as i64);
    let mut picked = Vec::new();
    for _ in 0..n.max(0) {
        let left: Vec<Inst> = hand.iter().copied().filter(|c| !picked.contains(c)).collect();
        if let Opt::Int(c) = choose(
            g,
            fi,
            me,
            DecisionKind::Card,
            cards_opts(&left),
            false,
            Prompt::Text("card to put on top of your deck"),
        )? {
            picked.push(c);
        }
    }
    let p = &mut g.players[me as usize];
    for c in picked {
        remove(&mut p.hand, c);
        p.deck.push(c);
    }
    Ok(())
}

pub fn search_top(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let n = arg_num(g, fi, step).max(0) as usize;
    let deck = &g.players[me as usize].deck;
    let top: Vec<Inst> = deck[deck.len().saturating_sub(n)..].to_vec();
    let sel = step.opts.filter.as_ref();
    if step.opts.take.is_some_and(|t| t != 0) {
        // choose one that fits, reveal it, take it; the others to the bottom in random order
        let cands: Vec<Inst> = top.iter().copied().filter(|&c| zone_fits(sel, g.card(c))).collect();
        let c = choose(g, fi, me, DecisionKind::Card, cards_opts(&cands), false, Prompt::Text("card to take"))?;
        let taken = if let Opt::Int(c) = c { Some(c) } else { None };
        let mut rest: Vec<Inst> = top.iter().copied().filter(|&x| Some(x) != taken).collect();
        for &x in &top {
            remove(&mut g.players[me as usize].deck, x);
        }
        if let Some(c) = taken {
            g.players[me as usize].hand.push(c);
            g.emit(Ev::Draw(me, c));
        }
        g.rng.shuffle(&mut rest);
        let p = &mut g.players[me as usize];
        let old = std::mem::take(&mut p.deck);
        p.deck = rest; // the bottom of the deck is the start of the list
        p.deck.extend(old);
        set_var(g, fi, step.as_.unwrap_or(vars::SEARCHED), int(taken.is_some() as i64));
        return Ok(());
    }
    for c in top {
        let card = g.card(c);
        if card.is_character() && card_fits_opt(sel, card) {
            let p = &mut g.players[me as usize];
            remove(&mut p.deck, c);
            p.hand.push(c);
            g.emit(Ev::Draw(me, c));
        }
    }
    Ok(())
}

pub fn retrieve(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let sel = step.selector();
    let mut cands: Vec<Inst> =
        g.players[me as usize].discard.iter().copied().filter(|&c| zone_fits(sel, g.card(c))).collect();
    if step.opts.topmost {
        // the discard pile's top is the end of the list
        let n = cands.len();
        cands = cands.split_off(n.saturating_sub(1));
    }
    let Opt::Int(c) =
        choose(g, fi, me, DecisionKind::Card, cards_opts(&cands), false, Prompt::Text("card to put into your hand"))?
    else {
        return Ok(());
    };
    let p = &mut g.players[me as usize];
    remove(&mut p.discard, c);
    p.hand.push(c);
    g.emit(Ev::Retrieve(me, c));
    Ok(())
}

pub fn declare(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let top = arg_num(g, fi, step);
    let opts = (1..=top).map(|i| Opt::Int(i as i32)).collect();
    let x = choose(g, fi, me, DecisionKind::Number, opts, false, Prompt::Text("declare a number"))?.int().unwrap_or(0);
    set_var(g, fi, vars::X, int(x as i64));
    Ok(())
}

fn deck_owner(g: &GameState, fi: usize, step: &Step) -> i32 {
    let me = me(g, fi);
    if step.opts.who == Some(Who::Opponent) { 1 - me } else { me }
}

pub fn reveal_top(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let who = deck_owner(g, fi, step);
    let top = g.players[who as usize].deck.last().copied();
    let (cost, name) = match top {
        Some(c) => (g.card(c).cost(), Val::Name(g.card(c).name_key.0)),
        None => (0, Val::None),
    };
    set_var(g, fi, vars::REVEALED_COST, int(cost));
    set_var(g, fi, vars::REVEALED_NAME, name);
    set_var(g, fi, step.as_.unwrap_or(vars::REVEALED), Val::Bool(top.is_some()));
    if let Some(c) = top {
        let idx = g.card(c).index;
        g.emit(Ev::RevealTop(who, idx));
    }
    Ok(())
}

pub fn look_top(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let who = deck_owner(g, fi, step) as usize;
    if g.players[who].deck.is_empty() {
        return Ok(());
    }
    let me = me(g, fi);
    g.emit(Ev::Look(me));
    if step.opts.bottom
        && g.players[who].deck.len() > 1
        && crate::effects::yes_no(g, fi, me, Prompt::Text("put it at the bottom of the deck?"))?
    {
        let deck = &mut g.players[who].deck;
        let c = deck.pop().expect("a card");
        deck.insert(0, c);
    }
    Ok(())
}

pub fn dig(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi) as usize;
    let sel = step.selector();
    let deck = &g.players[me].deck;
    if let Some(i) = (0..deck.len()).rev().find(|&i| zone_fits(sel, g.card(deck[i]))) {
        // from the top
        let c = g.players[me].deck.remove(i);
        g.players[me].hand.push(c);
        g.emit(Ev::Draw(me as i32, c));
    }
    let mut deck = std::mem::take(&mut g.players[me].deck);
    g.rng.shuffle(&mut deck); // the revealed cards are shuffled back: the whole deck is shuffled
    g.players[me].deck = deck;
    Ok(())
}

pub fn search_deck(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let sel = step.selector();
    let mut taken: Vec<Inst> = Vec::new();
    for _ in 0..step.opts.take.unwrap_or(1) {
        let cands: Vec<Inst> = g.players[me as usize]
            .deck
            .iter()
            .copied()
            .filter(|&c| !taken.contains(&c) && zone_fits(sel, g.card(c)))
            .collect();
        match choose(
            g,
            fi,
            me,
            DecisionKind::Card,
            cards_opts(&cands),
            true,
            Prompt::Text("card to take from your deck"),
        )? {
            Opt::Int(c) => taken.push(c),
            _ => break,
        }
    }
    for &c in &taken {
        let p = &mut g.players[me as usize];
        remove(&mut p.deck, c);
        p.hand.push(c);
        g.emit(Ev::Draw(me, c));
    }
    let mut deck = std::mem::take(&mut g.players[me as usize].deck);
    g.rng.shuffle(&mut deck);
    g.players[me as usize].deck = deck;
    set_var(g, fi, step.as_.unwrap_or(vars::SEARCHED), int(taken.len() as i64));
    Ok(())
}

pub fn reveal_hand(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let who = if step.opts.who == Some(Who::Opponent) { 1 - me } else { me };
    let hand = g.players[who as usize].hand.clone();
    let sel = step.opts.filter.as_ref();
    let mut picked: Vec<Inst> = Vec::new();
    if step.opts.random {
        if !hand.is_empty() {
            picked = vec![hand[g.rng.below(hand.len())]];
        }
    } else {
        let most = match &step.arg {
            Arg::All => hand.len() as i64,
            _ => arg_num(g, fi, step),
        };
        while (picked.len() as i64) < most {
            let cands: Vec<Inst> = hand
                .iter()
                .copied()
                .filter(|&c| !picked.contains(&c) && sel.is_none_or(|_| zone_fits(sel, g.card(c))))
                .collect();
            match choose(g, fi, who, DecisionKind::Card, cards_opts(&cands), true, Prompt::Text("card to reveal"))? {
                Opt::Int(c) => picked.push(c),
                _ => break,
            }
        }
    }
    let cost: i64 = picked.iter().map(|&c| g.card(c).cost()).sum();
    set_var(g, fi, vars::REVEALED_COUNT, int(picked.len() as i64));
    set_var(g, fi, vars::REVEALED_COST, int(cost));
    set_var(g, fi, step.as_.unwrap_or(vars::REVEALED), Val::Bool(!picked.is_empty()));
    for c in picked {
        let idx = g.card(c).index;
        g.emit(Ev::RevealHand(who, idx));
    }
    Ok(())
}

pub fn recycle(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = me(g, fi);
    let pile = g.players[me as usize].discard.len() as i64;
    let most = arg_num(g, fi, step).min(pile);
    let k = if most > 0 {
        let opts = (0..=most).rev().map(|i| Opt::Int(i as i32)).collect();
        choose(g, fi, me, DecisionKind::Number, opts, false, Prompt::Text("cards to shuffle back"))?.int().unwrap_or(0)
            as usize
    } else {
        0
    };
    if k > 0 {
        let p = &mut g.players[me as usize];
        let at = p.discard.len() - k;
        let back = p.discard.split_off(at);
        p.deck.extend(back);
        let mut deck = std::mem::take(&mut g.players[me as usize].deck);
        g.rng.shuffle(&mut deck);
        g.players[me as usize].deck = deck;
    }
    set_var(g, fi, step.as_.unwrap_or(vars::RECYCLED), int(k as i64));
    Ok(())
}
