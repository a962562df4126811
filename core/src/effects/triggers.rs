//! Continuous triggers: which lines in force react to a moment of the game, and their frames.

use crate::effects::lines;
use crate::effects::selectors::{attachment_fits, condition, matches};
use crate::effects::{line_steps, push_frames, turn_player};
use crate::language::{Trigger, TriggerOn, VarId};
use crate::state::{Ctx, Frame, GameState, Inst, Label, LabelWhat, Uid, Unit, Val, vars};

/// A continuous trigger's effect; `inst`: the card whose line it is (an attachment's, say).
pub fn trigger_frame(
    g: &mut GameState,
    src: Uid,
    mi: i32,
    ctl: i32,
    t: &'static Trigger,
    vars_: &[(VarId, Val)],
    inst: Inst,
) -> Frame {
    let inst = if inst >= 0 {
        inst
    } else if src >= 0 {
        g.u(src).top()
    } else {
        g.missions[mi as usize].card
    };
    let card = g.card(inst);
    let mission = if src >= 0 { g.unit(src).map_or(mi, |u| u.mission) } else { mi };
    let mut ctx = Ctx::at(ctl, src, mission, inst);
    for (k, v) in vars_ {
        ctx.set(*k, v.clone());
    }
    let ci = g.new_ctx(ctx);
    let steps: Vec<&'static crate::language::Step> = t.steps.iter().collect();
    let label = Label { card: card.index, what: LabelWhat::Trigger };
    Frame { steps: line_steps(&steps, label, t.must), ctx: ci, pc: 0, choices: Vec::new(), cursor: 0, label }
}

fn var(vars_: &[(VarId, Val)], v: VarId) -> Option<&Val> {
    vars_.iter().find(|(k, _)| *k == v).map(|(_, x)| x)
}

fn var_is(vars_: &[(VarId, Val)], v: VarId, n: i32) -> bool {
    matches!(var(vars_, v), Some(Val::Int(x)) if *x == n as i64)
}

/// The character a moment concerns: one in play (by uid), or one that just left it (a copy).
#[derive(Clone, Copy)]
pub enum Who<'a> {
    Nobody,
    InPlay(crate::state::Uid),
    Gone(&'a Unit),
}

/// Collect the continuous triggers that react to `on` for `who` and chain them.
pub fn fire(g: &mut GameState, on: TriggerOn, who: Who<'_>, vars_: &[(VarId, Val)]) {
    if lines::lines(g).triggers(on).is_empty() {
        return; // (no trigger of the moment in force, the usual case: no lines shared, no frames)
    }
    let mut frames = Vec::new();
    let unit: Option<&Unit> = match who {
        Who::Nobody => None,
        Who::InPlay(uid) => g.unit(uid),
        Who::Gone(u) => Some(u),
    };
    let lines = std::sync::Arc::clone(&lines::lines(g));
    for r in lines.triggers(on).iter() {
        let t = r.t;
        let src = g.unit(r.unit);
        // a mission's own trigger is decided by the player it concerns
        let player =
            if r.controller >= 0 { r.controller } else { unit.map_or_else(|| turn_player(g), |u| u.controller) };
        let mut ctx =
            Ctx::at(player, if src.is_some() { r.unit } else { -1 }, src.map_or(r.mission, |s| s.mission), r.inst);
        match on {
            TriggerOn::Moved => {
                if t.who.is_some() {
                    continue; // "whenever you move one or more …": once per effect, see fire_moves
                }
                match (unit, src) {
                    (Some(u), Some(s)) if s.uid == u.uid => {}
                    _ => continue,
                }
                if t.by_you && !var_is(vars_, vars::MOVER, r.controller) {
                    continue;
                }
            }
            TriggerOn::LostMission => continue, // handled by the evaluation phase
            TriggerOn::Passed => {
                if !var_is(vars_, vars::PLAYER, r.controller) {
                    continue;
                }
            }
            TriggerOn::Attached => {
                if !var_is(vars_, vars::BY, r.controller) {
                    continue; // "when you attach …"
                }
                if let Some(f) = &t.filter {
                    let a = var(vars_, vars::ATTACHMENT).map_or(-1, |v| v.number() as i32);
                    let host = unit.map_or(-1, |u| u.uid);
                    if !attachment_fits(g, &ctx, Some(f), (a, host, r.mission, r.controller)) {
                        continue;
                    }
                }
                match &t.who {
                    None => match (unit, src) {
                        (Some(u), Some(s)) if u.uid == s.uid => {}
                        _ => continue,
                    },
                    Some(who) => match unit {
                        Some(u) if matches(g, &ctx, who, u, false) => {}
                        _ => continue,
                    },
                }
            }
            _ => {
                if on == TriggerOn::Defeated && t.by_you && !var_is(vars_, vars::BY, r.controller) {
                    continue;
                }
                if let (Some(who), Some(u)) = (&t.who, unit) {
                    for (k, v) in vars_ {
                        ctx.set(*k, v.clone());
                    }
                    if !matches(g, &ctx, who, u, false) {
                        continue;
                    }
                }
            }
        }
        if t.cond.is_some() && !condition(g, &ctx, t.cond.as_ref(), false) {
            continue;
        }
        let src_uid = if src.is_some() { r.unit } else { -1 };
        frames.push((src_uid, r.mission, player, t, r.inst));
    }
    let frames: Vec<Frame> =
        frames.into_iter().map(|(s, mi, p, t, inst)| trigger_frame(g, s, mi, p, t, vars_, inst)).collect();
    push_frames(g, frames);
}

/// "Whenever you move one or more enemy characters": once per effect that moved any.
pub fn fire_moves(g: &mut GameState, moved: &[Uid], mover: i32) {
    if moved.is_empty() {
        return;
    }
    let mut frames = Vec::new();
    for r in lines::lines(g).triggers(TriggerOn::Moved).iter() {
        let t = r.t;
        let Some(who) = &t.who else { continue };
        if t.by_you && mover != r.controller {
            continue;
        }
        let src = g.unit(r.unit);
        let ctx = Ctx::at(
            r.controller,
            if src.is_some() { r.unit } else { -1 },
            src.map_or(r.mission, |s| s.mission),
            r.inst,
        );
        if !moved.iter().any(|&x| g.unit(x).is_some_and(|u| matches(g, &ctx, who, u, false))) {
            continue;
        }
        if t.cond.is_some() && !condition(g, &ctx, t.cond.as_ref(), false) {
            continue;
        }
        frames.push((if src.is_some() { r.unit } else { -1 }, r.mission, r.controller, t, r.inst));
    }
    let frames: Vec<Frame> =
        frames.into_iter().map(|(s, mi, p, t, inst)| trigger_frame(g, s, mi, p, t, &[], inst)).collect();
    push_frames(g, frames);
}

/// Triggers of a moment of the round (start of round, before Power is determined): every one in
/// force (`mission`: only those standing in that mission).
pub fn fire_all(g: &mut GameState, on: TriggerOn, mission: i32) {
    let mut frames = Vec::new();
    for r in lines::lines(g).triggers(on).iter() {
        if mission >= 0 && r.mission != mission {
            continue;
        }
        let player = if r.controller >= 0 { r.controller } else { turn_player(g) };
        let src = if g.in_play(r.unit) { r.unit } else { -1 };
        let ctx = Ctx::at(player, src, r.mission, r.inst);
        if r.t.cond.is_some() && !condition(g, &ctx, r.t.cond.as_ref(), false) {
            continue;
        }
        frames.push((src, r.mission, player, r.t, r.inst));
    }
    let frames: Vec<Frame> =
        frames.into_iter().map(|(s, mi, p, t, inst)| trigger_frame(g, s, mi, p, t, &[], inst)).collect();
    push_frames(g, frames);
}
