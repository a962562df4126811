//! Attachments through an effect: play one, turn this character into one, discard or move them.

use super::{int, num};
use crate::actions::play_cost;
use crate::attachments::{self as att, attach_card, attach_options, hidden_attachments_of, host_ok};
use crate::board::affect;
use crate::effects::selectors::{all_attachments, card_fits_opt, matches, number, select, select_attachments};
use crate::effects::{Res, choose, ctx_of, ctx_ref, here, set_var};
use crate::language::{Arg, CountForm, Dest, From, Onto, Selector, Step};
use crate::state::{DecisionKind, GameState, Inst, Opt, Prompt, Val, vars};

/// Play an attachment, paying less, here or anywhere: from your hand or by revealing one of your
/// face-down attachments (the default, as for characters: revealing it is playing it), or
/// searched from your deck.
pub fn attach(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    let src = step.opts.from;
    let discount = step.opts.discount.as_ref().map_or(0, |n| num(g, fi, n));
    let here_mi = if step.opts.to == Some(Dest::This) { here(g, fi) } else { -1 };
    let filter = step.selector();
    let pool: Vec<Inst> = {
        let p = &g.players[me as usize];
        if src == Some(From::Deck) { p.deck.clone() } else { p.hand.clone() }
    };
    let mut cands: Vec<Inst> = pool
        .into_iter()
        .filter(|&c| {
            let card = g.card(c);
            card.ctype == crate::cards::CardType::Attachment
                && card_fits_opt(filter, card)
                && !attach_options(g, me, c, false, discount, here_mi).is_empty()
        })
        .collect();
    // a face-down attachment of yours -> its price
    let mut reveals: Vec<(Inst, i64)> = Vec::new();
    if matches!(src, None | Some(From::HandOrHidden)) {
        let chakra = g.players[me as usize].chakra;
        for (a, _, mi) in hidden_attachments_of(g, me) {
            if (here_mi < 0 || mi == here_mi) && card_fits_opt(filter, g.card(a)) {
                let price = (play_cost(g, me, a, mi, None, None) - discount).max(0);
                if price <= chakra {
                    reveals.push((a, price));
                    cands.push(a);
                }
            }
        }
    }
    let opts = cands.iter().map(|&c| Opt::Int(c)).collect();
    let c = choose(g, fi, me, DecisionKind::Card, opts, false, Prompt::Text("attachment to play"))?;
    if let Opt::Int(c) = c {
        if let Some(&(_, price)) = reveals.iter().find(|r| r.0 == c) {
            att::reveal_attachment(g, me, c, price);
            set_var(g, fi, step.as_.unwrap_or(vars::ATTACHED), int(c as i64));
        } else {
            let places: Vec<Opt> = attach_options(g, me, c, false, discount, here_mi)
                .into_iter()
                .map(|(m, h, p)| Opt::Place(m, h, p as i32))
                .collect();
            if let Opt::Place(mi, host, price) =
                choose(g, fi, me, DecisionKind::Place, places, false, Prompt::Text("where to attach it"))?
            {
                attach_card(g, me, c, mi, host, false, price as i64);
                set_var(g, fi, step.as_.unwrap_or(vars::ATTACHED), int(c as i64));
            }
        }
    }
    if src == Some(From::Deck) {
        let mut deck = std::mem::take(&mut g.players[me as usize].deck);
        g.rng.shuffle(&mut deck);
        g.players[me as usize].deck = deck;
    }
    Ok(())
}

pub fn attach_self(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let Some(me) = g.unit(ctx.source) else { return Ok(()) };
    if me.hidden {
        return Ok(());
    }
    let inst = me.top();
    let sel = step.selector().expect("a selector");
    let cands: Vec<Opt> = select(g, &ctx, sel, false)
        .into_iter()
        .filter(|&x| x != ctx.source && host_ok(g, ctx.player, inst, g.u(x), true))
        .map(Opt::Int)
        .collect();
    let Opt::Int(host) =
        choose(g, fi, ctx.player, DecisionKind::Target, cands, false, Prompt::Text("character to attach to"))?
    else {
        return Ok(());
    };
    affect(g, host, ctx.player);
    att::unit_becomes_attachment(g, ctx.source, host, step.opts.power.unwrap_or(0));
    Ok(())
}

fn pick_attachments(
    g: &mut GameState,
    fi: usize,
    sel: Option<&'static Selector>,
    cands: Vec<Inst>,
    prompt: &'static str,
) -> Res<Vec<Inst>> {
    let me = ctx_ref(g, fi).player;
    match sel.map(|s| &s.count) {
        Some(CountForm::All) => return Ok(cands),
        Some(CountForm::UpTo(n) | CountForm::Keep(n) | CountForm::PowerTotal(n) | CountForm::CostTotal(n)) => {
            let most = number(g, ctx_ref(g, fi), n, false);
            let mut out: Vec<Inst> = Vec::new();
            while (out.len() as i64) < most {
                let left = cands.iter().copied().filter(|c| !out.contains(c)).map(Opt::Int).collect();
                match choose(g, fi, me, DecisionKind::Card, left, true, Prompt::Text(prompt))? {
                    Opt::Int(c) => out.push(c),
                    _ => break,
                }
            }
            return Ok(out);
        }
        _ => {}
    }
    let opts = cands.iter().map(|&c| Opt::Int(c)).collect();
    Ok(match choose(g, fi, me, DecisionKind::Card, opts, false, Prompt::Text(prompt))? {
        Opt::Int(c) => vec![c],
        _ => vec![],
    })
}

fn in_play(g: &GameState, a: Inst) -> bool {
    all_attachments(g).iter().any(|x| x.0 == a)
}

pub fn discard_attachment(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let sel = step.selector();
    let cands: Vec<Inst> = select_attachments(g, &ctx, sel).into_iter().map(|x| x.0).collect();
    let any = !cands.is_empty();
    for a in pick_attachments(g, fi, sel, cands, "attachment to discard")? {
        if in_play(g, a) {
            att::discard(g, a);
        }
    }
    set_var(g, fi, step.as_.unwrap_or(vars::DISCARDED_ATTACHMENT), Val::Bool(any));
    Ok(())
}

/// Move attachments in play to another character: this attachment, or those a selector picks;
/// the new host must fit `onto` ("self": this character) and take the attachment (its ATTACH
/// condition seen from its owner, the one-per-player limit), unless `ignore`.
pub fn move_attachment(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let onto_self = matches!(step.opts.onto, Some(Onto::This));
    let (sel, cands): (Option<&'static Selector>, Vec<Inst>) = match &step.arg {
        Arg::Name(n) if n == "this" => (None, if in_play(g, ctx.card) { vec![ctx.card] } else { vec![] }),
        Arg::Selector(s) => (
            Some(s),
            select_attachments(g, &ctx, Some(s))
                .into_iter()
                .filter(|&(_, host, _, _)| !(onto_self && host >= 0 && host == ctx.source))
                .map(|x| x.0)
                .collect(),
        ),
        _ => (None, vec![]),
    };
    let chosen = pick_attachments(g, fi, sel, cands, "attachment to move")?;
    let mut plan = Vec::new();
    for a in chosen {
        let Some((host, _, _)) = att::locate(g, a) else { continue };
        let owner = g.owner[a as usize];
        let mut dests = Vec::new();
        for uid in g.all_uids() {
            if uid == host {
                continue;
            }
            if onto_self && uid != ctx.source {
                continue;
            }
            let u = g.u(uid);
            if let Some(Onto::Selector(o)) = &step.opts.onto
                && !matches(g, &ctx, o, u, false)
            {
                continue;
            }
            if host_ok(g, owner, a, u, step.opts.ignore) {
                dests.push(Opt::Int(uid));
            }
        }
        if let Opt::Int(pick) =
            choose(g, fi, ctx.player, DecisionKind::Target, dests, false, Prompt::Text("character to move it to"))?
        {
            plan.push((a, pick));
        }
    }
    for (a, uid) in plan {
        if g.in_play(uid) && in_play(g, a) {
            att::move_to(g, a, uid);
        }
    }
    Ok(())
}
