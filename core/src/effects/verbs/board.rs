//! Characters on the board: move, hide, defeat, take control, return to hand, strip and split
//! stacks, and the "play it or defeat it" choice.

use super::int;
use crate::actions::{has_name_on_side, name_on_side, reveal_price};
use crate::board::{
    self as b, affect, cannot_move, defeat_by, defeat_unit, hide_unit, immune, leave_play, move_unit, new_unit,
    turn_face_up,
};
use crate::control::{discard_duplicate, return_control};
use crate::effects::lines::{self, static_ctx};
use crate::effects::selectors::{card_fits_opt, condition, cost_of, select};
use crate::effects::triggers::fire_moves;
use crate::effects::{Can, Res, choose, ctx_of, ctx_ref, here, pick_units, pick_units_if, set_var, yes_no};
use crate::language::{Dest, Event, StaticKind, Step};
use crate::power::{power_of, static_hits};
use crate::state::{DecisionKind, Ev, GameState, Opt, Prompt, Uid, Val, vars};

/// Where `uid` may be moved by this effect (`arriving`: (mission, side, name) of the characters
/// the same effect moves before it).
fn move_dests(
    g: &GameState,
    me: i32,
    uid: Uid,
    to: Dest,
    here_mi: i32,
    arriving: &[(i32, i32, crate::names::NameId)],
) -> Vec<i32> {
    each_move_dest(g, me, uid, to, here_mi, arriving).collect()
}

/// `move_dests` one at a time, in mission order (whether there is any: the first found, no list).
fn each_move_dest<'a>(
    g: &'a GameState,
    me: i32,
    uid: Uid,
    to: Dest,
    here_mi: i32,
    arriving: &'a [(i32, i32, crate::names::NameId)],
) -> impl Iterator<Item = i32> + 'a {
    let u = g.u(uid);
    // this mission only, or every other one
    let within = if to == Dest::This || (to == Dest::ToOrFrom && u.mission != here_mi) {
        here_mi..here_mi + 1
    } else {
        0..g.missions.len() as i32
    };
    let key = g.unit_card(u).name_key;
    // a hidden character's name counts only for a move by its own controller (who knows it): the
    // options must not tell the opponent what a hidden card is (the one moved included); a
    // duplicate the mover could not see is discarded on arrival (board::move_unit)
    let known = u.controller == me;
    let ctl = u.controller;
    let names = known || !u.hidden;
    let from = u.mission;
    within.filter(move |&i| {
        i != from
            && (!names || (!name_on_side(g, i as usize, ctl, key, -1, !known) && !arriving.contains(&(i, ctl, key))))
    })
}

pub fn move_(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let sel = step.selector().expect("move takes a selector");
    let to = step.opts.to.unwrap_or(Dest::Other);
    let here_mi = here(g, fi);
    let me = ctx_ref(g, fi).player;
    // a character the move cannot affect (a no-move static, an immunity, nowhere to go) is no target
    let can = |g: &GameState, x: Uid| {
        let u = g.u(x);
        !cannot_move(g, u)
            && !immune(g, u, Event::Move, me)
            && each_move_dest(g, me, x, to, here_mi, &[]).next().is_some()
    };
    let targets = pick_units_if(g, fi, sel, None, &[], &can)?;
    let mut plan: Vec<(Uid, i32)> = Vec::new();
    // (mission, side, name) of characters moved by this effect
    let mut arriving: Vec<(i32, i32, crate::names::NameId)> = Vec::new();
    for uid in targets {
        // every destination is chosen before anything moves
        let u = g.u(uid);
        if cannot_move(g, u) {
            continue;
        }
        let key = g.unit_card(u).name_key;
        let ctl = u.controller;
        // (a destination chosen before, the step running again: replayed, not worked out again)
        let dest = match crate::effects::replayed(g, fi) {
            Some(pick) => pick.int_only(),
            None => {
                let dests = move_dests(g, me, uid, to, here_mi, &arriving);
                crate::effects::choose_mission(g, fi, me, dests, "mission to move to")?
            }
        };
        let Some(dest) = dest else { continue };
        arriving.push((dest, ctl, key));
        plan.push((uid, dest));
    }
    let mut moved = 0;
    let mut done = Vec::new();
    for (uid, dest) in plan {
        let Some(u) = g.unit(uid) else { continue };
        if u.mission == dest {
            continue;
        }
        let key = g.unit_card(u).name_key;
        if !u.hidden && name_on_side(g, dest as usize, u.controller, key, -1, true) {
            continue; // no repetition: the way closed meanwhile
        }
        if move_unit(g, uid, dest, me) {
            moved += 1;
            set_var(g, fi, step.as_.unwrap_or(vars::MOVED), int(uid as i64));
            done.push(uid);
        }
    }
    let before = ctx_ref(g, fi).num(vars::MOVED_COUNT);
    set_var(g, fi, vars::MOVED_COUNT, int(before + moved));
    fire_moves(g, &done, me);
    Ok(())
}

/// The targets of a step, plus those of its `and` selector: one snapshot for both.
fn two_targets(g: &mut GameState, fi: usize, step: &'static Step, exclude: &[Uid], can: Can<'_>) -> Res<Vec<Uid>> {
    let me = ctx_ref(g, fi).player;
    let chooser = if step.opts.chooser_opponent { Some(1 - me) } else { None };
    let sel = step.selector().expect("a selector");
    let mut first = pick_units_if(g, fi, sel, chooser, exclude, can)?;
    if let Some(and) = &step.opts.and {
        let mut ex = exclude.to_vec();
        ex.extend(&first);
        let more = pick_units_if(g, fi, and, chooser, &ex, can)?;
        first.extend(more);
    }
    Ok(first)
}

/// ⧗ sacrifice ("you may defeat this character instead"): asked before anything changes. Maps a
/// protected target to the character defeated in its place.
fn protections(g: &mut GameState, fi: usize, targets: &[Uid], event: Event) -> Res<Vec<(Uid, Uid)>> {
    let subs = lines::of_kind(g, StaticKind::Sacrifice);
    if subs.is_empty() {
        return Ok(vec![]);
    }
    let by = ctx_ref(g, fi).player;
    let mut out: Vec<(Uid, Uid)> = Vec::new();
    let mut used: Vec<Uid> = Vec::new();
    for &uid in targets {
        let u = g.u(uid).clone();
        if u.controller == by || immune(g, &u, event, by) {
            continue;
        }
        for r in &subs {
            if r.unit < 0 || r.controller != u.controller || r.unit == u.uid || used.contains(&r.unit) {
                continue;
            }
            let events = r.s.opts.events.as_deref().unwrap_or(&[Event::Hide, Event::Defeat]);
            if !events.contains(&event) {
                continue;
            }
            let ctx = static_ctx(r.unit, r.mission, r.controller, g);
            if !static_hits(g, &ctx, r.s, &u) || !condition(g, &ctx, r.s.cond.as_ref(), true) {
                continue;
            }
            let name = g.unit(r.unit).map_or(0, |s| g.unit_card(s).index);
            if yes_no(g, fi, r.controller, Prompt::Sacrifice(name))? {
                used.push(r.unit);
                out.push((uid, r.unit));
                break;
            }
        }
    }
    Ok(out)
}

fn sacrificed(g: &mut GameState, uid: Uid, protect: &[(Uid, Uid)]) -> bool {
    let Some(&(_, src)) = protect.iter().find(|(t, _)| *t == uid) else { return false };
    if let Some(s) = g.unit(src) {
        let ctl = s.controller;
        defeat_unit(g, src, ctl);
    }
    true
}

pub fn hide(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    // a character already hidden cannot be hidden again: it is never a legal target
    let already: Vec<Uid> = g.all_uids().into_iter().filter(|&x| g.u(x).hidden).collect();
    let by = ctx_ref(g, fi).player;
    let can = |g: &GameState, x: Uid| !immune(g, g.u(x), Event::Hide, by);
    let targets: Vec<Uid> = two_targets(g, fi, step, &already, &can)?.into_iter().filter(|&x| !g.u(x).hidden).collect();
    let protect = protections(g, fi, &targets, Event::Hide)?;
    if let Some(&first) = targets.first() {
        let p = power_of(g, first);
        set_var(g, fi, vars::HIDDEN_POWER, int(p));
    }
    let me = ctx_ref(g, fi).player;
    let mut done = Vec::new();
    for uid in targets {
        if g.in_play(uid) && !sacrificed(g, uid, &protect) && hide_unit(g, uid, me) {
            done.push(uid);
        }
    }
    let k = done.len() as i64;
    let val = if done.len() == 1 { int(done[0] as i64) } else { Val::List(done) };
    set_var(g, fi, step.as_.unwrap_or(vars::HIDDEN), val);
    set_var(g, fi, vars::HIDDEN_COUNT, int(k));
    Ok(())
}

/// FAQ "The Decider": whoever carries out the effect orders several characters going to the same
/// discard pile. Only characters that will really be defeated (not immune) and share an owner
/// need an order; the decider is the opponent when the card makes them choose.
fn discard_order(g: &mut GameState, fi: usize, step: &'static Step, targets: Vec<Uid>) -> Res<Vec<Uid>> {
    let me = ctx_ref(g, fi).player;
    let decider = if step.opts.chooser_opponent { 1 - me } else { me };
    let mut by_owner: [Vec<Uid>; 2] = [Vec::new(), Vec::new()];
    for &uid in &targets {
        if let Some(u) = g.unit(uid)
            && !immune(g, u, Event::Defeat, me)
        {
            by_owner[u.owner as usize].push(uid);
        }
    }
    if by_owner.iter().all(|v| v.len() < 2) {
        return Ok(targets);
    }
    let mut ordered: Vec<Uid> = Vec::new();
    for group in &by_owner {
        let mut left = group.clone();
        if left.is_empty() {
            continue;
        }
        while left.len() > 1 {
            let opts = left.iter().map(|&x| Opt::Int(x)).collect();
            let pick = choose(
                g,
                fi,
                decider,
                DecisionKind::Target,
                opts,
                false,
                Prompt::Text("defeat next (the order of the discard pile)"),
            )?
            .int()
            .unwrap_or(left[0]);
            ordered.push(pick);
            left.retain(|&x| x != pick);
        }
        ordered.extend(left);
    }
    let rest: Vec<Uid> = targets.iter().copied().filter(|x| !ordered.contains(x)).collect();
    ordered.extend(rest);
    Ok(ordered)
}

pub fn defeat(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    // FAQ "The Decider": "the opponent chooses and defeats their characters" is carried out by them
    let decider = if step.opts.chooser_opponent { 1 - me } else { me };
    let can = |g: &GameState, x: Uid| !immune(g, g.u(x), Event::Defeat, me);
    let targets = two_targets(g, fi, step, &[], &can)?;
    if step.opts.reveal {
        for &uid in &targets {
            // "reveal and defeat" (SS-118): turned face-up first, then defeated
            turn_face_up(g, uid);
        }
    }
    let protect = protections(g, fi, &targets, Event::Defeat)?;
    let targets = discard_order(g, fi, step, targets)?;
    let mut n = 0;
    for uid in targets {
        if !g.in_play(uid) || sacrificed(g, uid, &protect) {
            continue;
        }
        let u = g.u(uid);
        let card = g.unit_card(u);
        let (power, cost) = (card.power(), cost_of(g, u));
        let name = if u.hidden { Val::None } else { Val::Name(card.name_key.0) };
        if defeat_by(g, uid, me, decider) {
            n += 1;
            set_var(g, fi, vars::DEFEATED_POWER, int(power)); // printed Power, hidden or not (the card is seen)
            set_var(g, fi, vars::DEFEATED_COST, int(cost));
            set_var(g, fi, vars::DEFEATED_NAME, name);
        }
    }
    set_var(g, fi, step.as_.unwrap_or(vars::DEFEATED), int(n));
    let before = ctx_ref(g, fi).num(vars::DEFEATED_COUNT);
    set_var(g, fi, vars::DEFEATED_COUNT, int(before + n));
    Ok(())
}

pub fn take_control(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let me = ctx.player;
    let sel = step.selector().expect("a selector");
    let mut exclude = Vec::new();
    if step.opts.pay_power {
        // "paying chakra equal to their Power"
        let chakra = g.players[me as usize].chakra;
        exclude = select(g, &ctx, sel, false).into_iter().filter(|&x| power_of(g, x) > chakra).collect();
    }
    for uid in pick_units(g, fi, sel, None, &exclude)? {
        let Some(u) = g.unit(uid) else { continue };
        if u.controller == me {
            continue;
        }
        if step.opts.pay_power {
            let price = power_of(g, uid);
            if price > g.players[me as usize].chakra {
                continue;
            }
            g.players[me as usize].pay(price);
        }
        affect(g, uid, me);
        crate::control::take_control(g, uid, me, ctx.source);
    }
    Ok(())
}

pub fn return_to_hand(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    let sel = step.selector().expect("a selector");
    for uid in pick_units(g, fi, sel, None, &[])? {
        if let Some(u) = g.unit(uid) {
            let mi = u.mission;
            affect(g, uid, me);
            set_var(g, fi, vars::THAT_MISSION, int(mi as i64));
            leave_play(g, uid, b::Dest::Hand);
            set_var(g, fi, step.as_.unwrap_or(vars::RETURNED), int(uid as i64));
        }
    }
    Ok(())
}

/// Discard the top card of an upgrade stack: the card beneath becomes the character.
pub fn strip_top(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    let sel = step.selector().expect("a selector");
    for uid in pick_units(g, fi, sel, None, &[])? {
        let Some(u) = g.unit(uid) else { continue };
        if u.stack.len() < 2 {
            continue;
        }
        affect(g, uid, me);
        let top = g.um(uid).stack.pop().expect("a stack");
        g.restacked(uid);
        let owner = g.owner[top as usize] as usize;
        g.players[owner].discard.push(top);
        g.board_version += 1;
        set_var(g, fi, step.as_.unwrap_or(vars::STRIPPED), int(top as i64));
        let (ctl, mi) = (g.u(uid).controller, g.u(uid).mission);
        let idx = g.card(top).index;
        g.emit(Ev::Strip(ctl, uid, idx));
        let key = g.unit_card(g.u(uid)).name_key;
        if has_name_on_side(g, mi as usize, ctl, key, uid) {
            // "No repetition": the card uncovered duplicates a name, so it is discarded (not defeated)
            g.missions[mi as usize].sides[ctl as usize].retain(|&x| x != uid);
            discard_duplicate(g, uid);
        }
    }
    Ok(())
}

pub fn choose_a_mission(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    let n = g.missions.len() as i32;
    let mi = crate::effects::choose_mission(g, fi, me, (0..n).collect(), "choose a mission")?;
    set_var(g, fi, step.as_.unwrap_or(vars::CHOSEN_MISSION), int(mi.unwrap_or(-2) as i64));
    Ok(())
}

/// The chosen hidden character's controller either plays it (reveals it) paying N more, or
/// defeats it. Unable to pay, they must defeat it. It is an effect of the chooser's.
pub fn reveal_or_defeat(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    let more = step.opts.more.unwrap_or(0);
    let sel = step.selector().expect("a selector");
    let mut plan = Vec::new();
    for uid in pick_units(g, fi, sel, None, &[])? {
        // every choice first, then the change
        let u = g.u(uid).clone();
        if !u.hidden {
            continue;
        }
        let price = reveal_price(g, u.controller, &u, more, false);
        let play = price.is_some() && yes_no(g, fi, u.controller, Prompt::PayMore(more))?;
        let protect = if play { vec![] } else { protections(g, fi, &[uid], Event::Defeat)? };
        plan.push((uid, if play { price } else { None }, protect));
    }
    for (uid, price, protect) in plan {
        let Some(u) = g.unit(uid) else { continue };
        if !u.hidden {
            continue;
        }
        match price {
            Some(p) => {
                let ctl = u.controller;
                crate::board::reveal(g, ctl, uid, p);
            }
            None => {
                if !sacrificed(g, uid, &protect) {
                    defeat_unit(g, uid, me);
                }
            }
        }
    }
    Ok(())
}

pub fn take_back(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    let sel = step.selector().expect("a selector");
    for uid in pick_units(g, fi, sel, None, &[])? {
        if let Some(u) = g.unit(uid)
            && u.controller != u.owner
            && u.owner == me
        {
            return_control(g, uid);
        }
    }
    Ok(())
}

/// The bottom card of this character's stack becomes a character of its own in another mission:
/// face-up, not played (no effect applies), no tokens; the rest of the stack stays.
pub fn split_bottom(g: &mut GameState, fi: usize, _step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let Some(u) = g.unit(ctx.source) else { return Ok(()) };
    if u.stack.len() < 2 {
        return Ok(());
    }
    let bottom = u.stack[0];
    let key = g.card(bottom).name_key;
    let (ctl, from, cb) = (u.controller, u.mission, u.controlled_by);
    let dests: Vec<i32> =
        (0..g.missions.len() as i32).filter(|&i| i != from && !has_name_on_side(g, i as usize, ctl, key, -1)).collect();
    let Some(mi) = crate::effects::choose_mission(g, fi, ctx.player, dests, "mission for the bottom card")? else {
        return Ok(());
    };
    g.um(ctx.source).stack.remove(0);
    g.restacked(ctx.source);
    let v = new_unit(g, ctl, bottom, mi, false);
    let (round, turn) = (g.round, g.turn);
    let vu = g.um(v);
    vu.played_round = round;
    vu.played_turn = turn;
    if vu.owner != vu.controller {
        vu.controlled_by = cb; // the controlled token follows every card of the stack
    }
    g.emit(Ev::Split(ctl, ctx.source, v, mi));
    Ok(())
}

/// Discard every card of a stack that fits the filter (its printed keywords). What remains is the
/// character (its top card the highest remaining); an emptied stack leaves play without being
/// defeated.
pub fn discard_from_stack(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let filter = step.opts.filter.as_ref();
    let sel = step.selector().expect("a selector");
    // a hidden stack shows no card: none of its cards fits a filter (and none is a candidate)
    let cands: Vec<Opt> = select(g, &ctx, sel, false)
        .into_iter()
        .filter(|&x| {
            let u = g.u(x);
            !u.hidden && u.stack.iter().any(|&c| card_fits_opt(filter, g.card(c)))
        })
        .map(Opt::Int)
        .collect();
    let Opt::Int(uid) = choose(g, fi, ctx.player, DecisionKind::Target, cands, false, Prompt::Text("stack to strip"))?
    else {
        return Ok(());
    };
    affect(g, uid, ctx.player);
    let u = g.u(uid).clone();
    let gone: Vec<i32> = u.stack.iter().copied().filter(|&c| card_fits_opt(filter, g.card(c))).collect();
    let keep: Vec<i32> = u.stack.iter().copied().filter(|c| !gone.contains(c)).collect();
    let owner = u.owner as usize;
    if keep.is_empty() {
        // the whole stack goes: it leaves play (cards beneath first, then the top), not defeated
        g.emit(Ev::StripCount(u.controller, uid, gone.len() as i64));
        leave_play(g, uid, b::Dest::Discard);
        return Ok(());
    }
    for &c in gone.iter().rev() {
        g.players[owner].discard.push(c);
    }
    g.board_version += 1;
    g.emit(Ev::StripCount(u.controller, uid, gone.len() as i64));
    g.um(uid).stack = keep;
    g.restacked(uid);
    let key = g.unit_card(g.u(uid)).name_key;
    if has_name_on_side(g, u.mission as usize, u.controller, key, uid) {
        g.missions[u.mission as usize].sides[u.controller as usize].retain(|&x| x != uid);
        discard_duplicate(g, uid);
    }
    Ok(())
}
