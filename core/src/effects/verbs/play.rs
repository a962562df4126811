//! Playing characters through an effect, and putting cards into play as hidden characters.

use super::{int, num};
use crate::actions::{has_name_on_side, place_options, reveal_price};
use crate::board::{new_unit, play_card, reveal};
use crate::control::{controls, return_control};
use crate::effects::selectors::card_fits_opt;
use crate::effects::{Res, choose, choose_mission, ctx_of, here, set_var};
use crate::language::{Dest, From, Step};
use crate::state::{
    DecisionKind, Ev, Frame, FrameStep, GameState, Inst, Label, LabelWhat, Opt, Prompt, Uid, Val, vars,
};

fn discard_looked(g: &mut GameState, player: i32, cards: &[Inst]) {
    let p = &mut g.players[player as usize];
    for &c in cards {
        if let Some(i) = p.deck.iter().position(|&x| x == c) {
            p.deck.remove(i);
            p.discard.push(c);
        }
    }
}

/// Play a character, paying less, anywhere or here: from your hand or by revealing one of your
/// hidden characters (the default: the card names no zone, and revealing a hidden character is
/// playing it, seed 000), from hidden only ("play … while hidden"), from your discard pile, or
/// from the top cards of your deck.
///
/// Reading "playing looks at the card's face": a hidden character of yours fits the effect's
/// filter by its own card (you know it; the opponent learns nothing from your options). It is
/// revealed where it stands, at its reveal price less the discount; MAIN and AMBUSH apply.
pub fn play(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let me = ctx.player;
    let src = step.opts.from;
    let hand_or_hidden = matches!(src, None | Some(From::HandOrHidden));
    let discount = step.opts.discount.as_ref().map_or(0, |n| num(g, fi, n));
    let many = step.opts.many;
    let no_upgrade = step.opts.upgrade == Some(false);
    let here_mi = if step.opts.to == Some(Dest::This) { ctx.mission } else { -1 };
    let filter = step.selector();
    let pool: Vec<Inst> = {
        let p = &g.players[me as usize];
        match src {
            Some(From::DeckTop) => {
                let look = step.opts.look.unwrap_or(3).max(0) as usize;
                p.deck[p.deck.len().saturating_sub(look)..].to_vec()
            }
            None | Some(From::Hand) | Some(From::HandOrHidden) => p.hand.clone(),
            Some(From::Discard) => p.discard.clone(),
            _ => Vec::new(),
        }
    };
    let mut cands: Vec<Inst> = Vec::new();
    for &c in &pool {
        let card = g.card(c);
        if !card.is_character() || !card_fits_opt(filter, card) {
            continue;
        }
        if place_options(g, me, c, false, discount, here_mi).iter().any(|&(_, over, _)| over < 0 || !no_upgrade) {
            cands.push(c);
        }
    }
    // the top card of a hidden character -> (it, its price)
    let mut reveals: Vec<(Inst, Uid, i64)> = Vec::new();
    if hand_or_hidden || src == Some(From::Hidden) {
        let missions: Vec<usize> = if here_mi < 0 { (0..g.missions.len()).collect() } else { vec![here_mi as usize] };
        for mi in missions {
            for &uid in &g.missions[mi].sides[me as usize] {
                let u = g.u(uid);
                if u.hidden
                    && card_fits_opt(filter, g.unit_card(u))
                    && let Some(price) = reveal_price(g, me, u, -discount, false)
                {
                    reveals.push((u.top(), uid, price));
                    cands.push(u.top());
                }
            }
        }
    }
    // from the deck top the player sees the cards only now, so playing none stays possible
    let optional = src == Some(From::DeckTop) || many;
    let opts = cands.iter().map(|&c| Opt::Int(c)).collect();
    let Opt::Int(c) = choose(g, fi, me, DecisionKind::Card, opts, optional, Prompt::Text("character to play"))? else {
        if src == Some(From::DeckTop) {
            discard_looked(g, me, &pool);
        }
        return Ok(());
    };
    let mut depth = g.stack.len();
    let unit = if let Some(&(_, uid, price)) = reveals.iter().find(|r| r.0 == c) {
        reveal(g, me, uid, price);
        uid
    } else {
        let opts: Vec<Opt> = place_options(g, me, c, false, discount, here_mi)
            .into_iter()
            .filter(|&(_, over, _)| over < 0 || !no_upgrade)
            .map(|(m, o, p)| Opt::Place(m, o, p as i32))
            .collect();
        let where_ = choose(g, fi, me, DecisionKind::Place, opts, false, Prompt::Text("where to play it"))?;
        if src == Some(From::DeckTop) {
            let rest: Vec<Inst> = pool.iter().copied().filter(|&x| x != c).collect();
            discard_looked(g, me, &rest);
        }
        let Opt::Place(mi, over, price) = where_ else { return Ok(()) };
        depth = g.stack.len();
        play_card(g, me, c, mi, false, over, price as i64)
    };
    set_var(g, fi, step.as_.unwrap_or(vars::PLAYED), int(unit as i64));
    if many {
        // "play any number of …": the next one is offered once this one's effects resolved
        let ci = g.stack[fi].ctx;
        g.stack.insert(
            depth,
            Frame {
                steps: vec![FrameStep::Step(step)],
                ctx: ci,
                pc: 0,
                choices: Vec::new(),
                cursor: 0,
                label: Label { card: 0, what: LabelWhat::Plain("play more") },
            },
        );
    }
    Ok(())
}

/// Put a card as a hidden character: chosen from hand, or the top card of a deck.
///
/// No repetition (FAQ): a card chosen from hand is offered only where its name is not on your side
/// already. A deck's top card is put whatever it is: where it would duplicate a name on your side
/// (your hidden characters count: you know them) it arrives and is discarded at once to its
/// owner's pile, triggering nothing (it is not a defeat).
pub fn place_hidden(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let me = ctx.player;
    let missions: Vec<i32> = match step.opts.to {
        Some(Dest::This) => vec![here(g, fi)],
        Some(Dest::That) => match ctx.get(vars::THAT_MISSION) {
            Some(Val::Int(m)) if *m >= 0 => vec![*m as i32],
            _ => vec![],
        },
        _ => (0..g.missions.len() as i32).collect(),
    };
    if missions.is_empty() {
        return Ok(());
    }
    let src = step.opts.from.unwrap_or(From::Hand);
    let c = if src == From::Hand {
        let pool: Vec<Opt> = g.players[me as usize]
            .hand
            .iter()
            .copied()
            .filter(|&c| {
                let card = g.card(c);
                card.is_character() && missions.iter().any(|&i| !has_name_on_side(g, i as usize, me, card.name_key, -1))
            })
            .map(Opt::Int)
            .collect();
        match choose(g, fi, me, DecisionKind::Card, pool, false, Prompt::Text("card to put hidden"))? {
            Opt::Int(c) => c,
            _ => return Ok(()),
        }
    } else {
        let who = if src == From::OpponentDeckTop { 1 - me } else { me };
        match g.players[who as usize].deck.last() {
            Some(&c) if g.card(c).is_character() => c,
            _ => return Ok(()),
        }
    };
    let key = g.card(c).name_key;
    let fits: Vec<i32> = missions.iter().copied().filter(|&i| !has_name_on_side(g, i as usize, me, key, -1)).collect();
    let offer = if fits.is_empty() { missions.clone() } else { fits.clone() };
    let Some(mi) = choose_mission(g, fi, me, offer, "mission for the hidden card")? else { return Ok(()) };
    let mut removed = false;
    {
        let p = &mut g.players[me as usize];
        if let Some(i) = p.hand.iter().position(|&x| x == c) {
            p.hand.remove(i);
            removed = true;
        } else if let Some(i) = p.deck.iter().position(|&x| x == c) {
            p.deck.remove(i);
            removed = true;
        }
    }
    if !removed {
        let p = &mut g.players[1 - me as usize];
        if let Some(i) = p.deck.iter().position(|&x| x == c) {
            p.deck.remove(i);
        }
    }
    if !fits.contains(&mi) {
        let owner = g.owner[c as usize];
        g.players[owner as usize].discard.push(c); // the arriving duplicate
        let idx = g.card(c).index;
        g.emit(Ev::Duplicate(owner, idx, mi));
        return Ok(());
    }
    let uid = new_unit(g, me, c, mi, true);
    if g.u(uid).owner != me {
        // FAQ "Take control": an opponent's card on your side is controlled by the card that put
        // it there, and control breaks as for any take control (that card hidden, gone, controlled)
        g.um(uid).controlled_by = ctx.source;
        if !controls(g, ctx.source, me) {
            return_control(g, uid); // its controller is no longer there: back to its owner at once
        }
    }
    Ok(())
}
