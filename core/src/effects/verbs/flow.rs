//! Verbs that run other steps: repeat a line, copy another card's line, for each character or
//! mission, N times, one of several options, a character applying one of its own lines.

use super::{arg_num, int};
use crate::cards::{Card, Kind, Timing};
use crate::effects::lines::blanked;
use crate::effects::selectors::{cost_of, phantoms, select};
use crate::effects::{Res, choose, ctx_of, ctx_ref, here};
use crate::language::{Arg, Selector, StaticKind, Step, Verb};
use crate::state::{Ctx, DecisionKind, Ev, Frame, FrameStep, GameState, Label, LabelWhat, Opt, Prompt, Val, vars};

fn plain_frame(steps: impl IntoIterator<Item = &'static Step>, ctx: usize, label: Label) -> Frame {
    Frame { steps: steps.into_iter().map(FrameStep::Step).collect(), ctx, pc: 0, choices: Vec::new(), cursor: 0, label }
}

fn plain(what: &'static str) -> Label {
    Label { card: 0, what: LabelWhat::Plain(what) }
}

/// "Apply the MAIN effect again": the card's line of that timing, once more, in the same context.
pub fn repeat(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ci = g.stack[fi].ctx;
    // a line of this card again (of the card copied, in a copied line)
    let inst = match g.ctxs[ci].get(vars::COPIED) {
        Some(Val::Int(c)) => *c as i32,
        _ => g.ctxs[ci].card,
    };
    let card = g.card(inst);
    let timing = step.opts.line.as_deref().and_then(Timing::parse).unwrap_or(Timing::Main);
    for line in &card.effects {
        if line.timing == timing
            && line.kind == Kind::Instant
            && let Some(enc) = &line.encoding
        {
            g.stack.push(plain_frame(enc.steps.iter(), ci, Label { card: card.index, what: LabelWhat::Card }));
            return Ok(());
        }
    }
    Ok(())
}

/// The instant lines of `card` another character may copy: encoded, an effect (not a line made
/// only of "play this paying N less": that is a price), not a copy itself (a copy of a copy could
/// chain forever), and not UPGRADE when `non_upgrade`. DUEL and FIRST STRIKE lines are instant
/// effects too: the copier applies them without meeting their requirement.
pub fn copyable_lines(card: &Card, non_upgrade: bool) -> Vec<usize> {
    card.effects
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            l.kind == Kind::Instant
                && l.encoding
                    .as_ref()
                    .is_some_and(|e| !e.steps.is_empty() && !e.steps.iter().any(|s| s.verb == Verb::Copy))
                && matches!(
                    l.timing,
                    Timing::Main
                        | Timing::Upgrade
                        | Timing::Ambush
                        | Timing::Score
                        | Timing::Duel
                        | Timing::FirstStrike
                )
                && !l.only_cheaper()
                && !(non_upgrade && l.timing == Timing::Upgrade)
        })
        .map(|(i, _)| i)
        .collect()
}

/// Copy an instant effect of another card: it resolves as this character's own effect (its
/// controller decides, "this character" and "this mission" are the copier's).
pub fn copy(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let non_upgrade = step.opts.non_upgrade_lines;
    let inst = match &step.arg {
        Arg::Selector(sel) => {
            let cands: Vec<Opt> = select(g, &ctx, sel, false)
                .into_iter()
                .filter(|&x| {
                    let u = g.u(x);
                    !u.hidden && !blanked(g, u) && !copyable_lines(g.unit_card(u), non_upgrade).is_empty()
                })
                .map(Opt::Int)
                .collect();
            let Opt::Int(pick) = choose(
                g,
                fi,
                ctx.player,
                DecisionKind::Target,
                cands,
                false,
                Prompt::Text("character whose effect to copy"),
            )?
            else {
                return Ok(());
            };
            g.u(pick).top()
        }
        Arg::Name(name) => match g.cat.vars.get(name).and_then(|v| ctx.get(crate::language::VarId(v))) {
            Some(Val::Int(i)) if *i >= 0 => *i as i32,
            Some(Val::Bool(true)) => 1,
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    let card = g.card(inst);
    let lines: Vec<Opt> = copyable_lines(card, non_upgrade).into_iter().map(|i| Opt::Line(inst, i as i32)).collect();
    let Opt::Line(_, li) = choose(g, fi, ctx.player, DecisionKind::Line, lines, false, Prompt::Text("effect to copy"))?
    else {
        return Ok(());
    };
    let line = &card.effects[li as usize];
    // "repeat the MAIN effect" in the copied line names the MAIN effect of the card copied
    let mut cctx = Ctx::at(ctx.player, ctx.source, here(g, fi), ctx.card);
    cctx.set(vars::COPIED, Val::Int(inst as i64));
    let ci = g.new_ctx(cctx);
    let enc = line.encoding.as_ref().expect("copyable lines are encoded");
    g.stack.push(plain_frame(enc.steps.iter(), ci, Label { card: card.index, what: LabelWhat::Copy }));
    g.emit(Ev::Copy(ctx.player, card.index, line.timing.as_str()));
    Ok(())
}

/// Costs of the extra characters ⧗ phantom adds to a count (the attachments' own costs).
fn phantom_costs(g: &GameState, ctx: &Ctx, sel: &Selector) -> Vec<i64> {
    let mut out = Vec::new();
    for mi in phantoms(g, ctx, sel) {
        for &a in &g.missions[mi as usize].attachments[ctx.player as usize] {
            if !g.att_is_hidden(a) && g.card(a).has_own_static(StaticKind::Phantom) {
                out.push(g.card(a).cost());
                break;
            }
        }
    }
    out
}

/// For each character the selector picks now (a snapshot), run the sub-steps with it remembered
/// as `each` (its cost as `each_cost`).
pub fn for_each(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let sel = step.selector().expect("for_each takes a selector");
    let mut subs: Vec<Ctx> = Vec::new();
    for uid in select(g, &ctx, sel, false) {
        let mut c = ctx.clone();
        c.set(vars::EACH, int(uid as i64));
        c.set(vars::EACH_COST, int(cost_of(g, g.u(uid))));
        subs.push(c);
    }
    for cost in phantom_costs(g, &ctx, sel) {
        let mut c = ctx.clone();
        c.set(vars::EACH, int(-1));
        c.set(vars::EACH_COST, int(cost));
        subs.push(c);
    }
    for c in subs.into_iter().rev() {
        // the first one resolves first
        let ci = g.new_ctx(c);
        g.stack.push(plain_frame(step.opts.do_.iter(), ci, plain("for each")));
    }
    Ok(())
}

/// Run the sub-steps once in every mission holding a match, "this mission" being that one.
pub fn for_each_mission(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let sel = step.selector().expect("for_each_mission takes a selector");
    let mut missions: Vec<i32> = select(g, &ctx, sel, false).into_iter().map(|x| g.u(x).mission).collect();
    missions.sort_unstable();
    missions.dedup();
    for mi in missions.into_iter().rev() {
        let mut c = ctx.clone();
        c.mission = mi;
        c.pinned = true;
        let ci = g.new_ctx(c);
        g.stack.push(plain_frame(step.opts.do_.iter(), ci, plain("every mission")));
    }
    Ok(())
}

pub fn times(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let n = arg_num(g, fi, step);
    if n > 0 {
        let ci = g.stack[fi].ctx;
        let steps: Vec<&'static Step> = (0..n).flat_map(|_| step.opts.do_.iter()).collect();
        g.stack.push(plain_frame(steps, ci, plain("times")));
    }
    Ok(())
}

pub fn one_of(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let Arg::Branches(branches) = &step.arg else { return Ok(()) };
    let me = ctx_ref(g, fi).player;
    let opts = (1..=branches.len()).map(|i| Opt::Int(i as i32)).collect();
    let k = choose(g, fi, me, DecisionKind::Number, opts, false, Prompt::Text("which option"))?.int().unwrap_or(0);
    if k > 0 {
        let ci = g.stack[fi].ctx;
        g.stack.push(plain_frame(branches[k as usize - 1].iter(), ci, plain("chosen option")));
    }
    Ok(())
}

/// A character applies one of its instant lines of a timing (DUEL), ignoring its requirement:
/// it resolves as that character's own effect.
pub fn activate(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ctx = ctx_of(g, fi);
    let timing = step.opts.line.as_deref().and_then(Timing::parse).unwrap_or(Timing::Duel);
    let lines_of = |g: &GameState, uid: i32| -> Vec<usize> {
        let u = g.u(uid);
        if u.hidden || blanked(g, u) {
            return vec![];
        }
        g.unit_card(u)
            .effects
            .iter()
            .enumerate()
            .filter(|(_, l)| l.timing == timing && l.kind == Kind::Instant && l.encoding.is_some())
            .map(|(i, _)| i)
            .collect()
    };
    let sel = step.selector().expect("activate takes a selector");
    let cands: Vec<Opt> =
        select(g, &ctx, sel, false).into_iter().filter(|&x| !lines_of(g, x).is_empty()).map(Opt::Int).collect();
    let Opt::Int(pick) =
        choose(g, fi, ctx.player, DecisionKind::Target, cands, false, Prompt::Text("character whose effect applies"))?
    else {
        return Ok(());
    };
    let u = g.u(pick).clone();
    let inst = u.top();
    let lines: Vec<Opt> = lines_of(g, pick).into_iter().map(|i| Opt::Line(inst, i as i32)).collect();
    let Opt::Line(_, li) =
        choose(g, fi, ctx.player, DecisionKind::Line, lines, false, Prompt::Text("effect to apply"))?
    else {
        return Ok(());
    };
    let card = g.card(inst);
    let enc = card.effects[li as usize].encoding.as_ref().expect("encoded");
    let ci = g.new_ctx(Ctx::at(u.controller, u.uid, u.mission, inst));
    g.stack.push(plain_frame(enc.steps.iter(), ci, Label { card: card.index, what: LabelWhat::Line(li as u8) }));
    Ok(())
}
