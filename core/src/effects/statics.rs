//! Picks of one character tied among several, and continuous lines that change the board.
//!
//! FAQ (weakest / strongest): an effect on "the strongest" (or "the weakest", "the lowest-cost")
//! character hits one character; when several are tied, the effect's player chooses which. Only
//! "all the strongest …" hits every tied one (`count = "all"`).
//!
//! - An instant step's target is chosen by its verb, among those tied (`effects::pick_units`).
//!   A step that only *reads* a pick ("if the strongest enemy in play is in this mission", "X is
//!   the cost of the strongest enemy here") asks its player which tied character it is before it
//!   resolves, when the answer can change what the step reads ([`choose_ties`]).
//! - A continuous line ("the strongest enemy in this mission has its Power set to 0", KS-067) is
//!   settled after every step, as seed 000's card play sequence checks static effects: when its
//!   pick is tied and no choice stands, its player chooses at once, before anything else resolves
//!   (a [`FrameStep::Tie`] decision). The choice stands while that character stays among those
//!   tied; once the tie is broken, or the chosen one no longer among them, it lapses, and a new
//!   tie is a new choice. Until it is made the line hits nobody ([`select`] returns none), so no
//!   rule ever reads an unchosen tie: mission evaluation and every decision come after it.
//!   A tie whose choice changes nothing (every one tied at Power 0 with no tokens) asks nothing.
//! - A line that makes a character lose its Power tokens (KS-067, `lose_tokens`) removes them
//!   when it is settled, for good: they do not come back when it stops applying. Without them
//!   the character may stop being the one picked, and the pick is judged again.
//!
//! [`select`]: crate::effects::selectors::select

use crate::effects::lines::{self, static_ctx};
use crate::effects::selectors::{condition, cost_of, select, select_tied};
use crate::effects::{Res, choose};
use crate::language::{Condition, CountKind, Number, Selector, Static, StaticKind, Step};
use crate::power;
use crate::state::{
    Ctx, DecisionKind, Frame, FrameStep, GameState, Label, LabelWhat, Opt, Phase, Prompt, StaticRef, TiePick, Uid,
};

fn same(t: &TiePick, ctx: &Ctx, sel: &Selector) -> bool {
    t.unit == ctx.source && t.mission == ctx.mission && t.controller == ctx.player && std::ptr::eq(t.sel, sel)
}

/// The character chosen for a continuous pick tied now (None: no choice stands).
pub fn chosen(g: &GameState, ctx: &Ctx, sel: &Selector) -> Option<Uid> {
    g.tie_picks.iter().find(|t| same(t, ctx, sel)).map(|t| t.chosen).filter(|&x| x >= 0)
}

fn settle_key(g: &GameState) -> crate::state::PowerKey {
    (
        g.board_version,
        g.token_version,
        g.edge,
        g.players[0].hand.is_empty(),
        g.players[1].hand.is_empty(),
        g.phase == Phase::Evaluate,
    )
}

/// Whether choosing among `tied` can change anything the static does.
fn matters(g: &GameState, s: &Static, tied: &[Uid]) -> bool {
    match s.kind {
        // Power 0 changes nothing on a character at 0 with no tokens (the tie is not asked yet,
        // so the static sets none of them to 0 now)
        StaticKind::PowerZero => tied.iter().any(|&x| power::power_of(g, x) > 0 || g.u(x).tokens > 0),
        _ => true,
    }
}

/// Settle the continuous lines in force after a step: ask a tie that needs choosing (true: a
/// decision frame is on the stack), remove the Power tokens a line takes (true: the board
/// changed, settle again). False when nothing is left to do.
pub fn settle(g: &mut GameState) -> bool {
    if g.cat.settled_kinds.is_empty() {
        return false;
    }
    // (the usual case met again on the same board: the lines in force are the board's, so none
    // of a settled kind is in force yet, and no choice stands to lapse)
    if g.settle_free == g.board_version && g.tie_picks.is_empty() {
        return false;
    }
    let key = settle_key(g);
    if g.settled == Some(key) {
        return false;
    }
    let mut found: Vec<StaticRef> = Vec::new();
    {
        let l = lines::lines(g);
        if g.tie_picks.is_empty() && g.cat.settled_kinds.iter().all(|&k| l.statics(k).is_empty()) {
            drop(l);
            g.settled = Some(key); // (no line to settle and no choice to lapse: the usual case)
            g.settle_free = g.board_version;
            return false;
        }
        for &k in &g.cat.settled_kinds {
            found.extend(
                l.statics(k)
                    .iter()
                    .filter(|r| r.s.opts.lose_tokens || r.s.target.as_ref().is_some_and(Selector::picks_one)),
            );
        }
    }
    // a choice lapses with its line (the card left, was hidden, moved or changed sides)
    let before = g.tie_picks.len();
    g.tie_picks.retain(|t| {
        found.iter().any(|r| {
            r.unit == t.unit
                && r.mission == t.mission
                && r.controller == t.controller
                && r.s.target.as_ref().is_some_and(|s| std::ptr::eq(s, t.sel))
        })
    });
    let mut changed = g.tie_picks.len() != before;
    for r in &found {
        let Some(sel) = r.s.target.as_ref() else { continue };
        let ctx = static_ctx(r.unit, r.mission, r.controller, g);
        let applies = condition(g, &ctx, r.s.cond.as_ref(), true);
        if sel.picks_one() {
            let tied = if applies { select_tied(g, &ctx, sel, true) } else { Vec::new() };
            let at = g.tie_picks.iter().position(|t| same(t, &ctx, sel));
            let stands = at.is_some_and(|i| {
                let c = g.tie_picks[i].chosen;
                c < 0 || tied.contains(&c)
            });
            if tied.len() >= 2 && !stands {
                if let Some(i) = at {
                    g.tie_picks.remove(i);
                    changed = true;
                }
                if matters(g, r.s, &tied) {
                    g.tie_picks.push(TiePick {
                        unit: r.unit,
                        mission: r.mission,
                        controller: r.controller,
                        sel,
                        chosen: -1,
                    });
                    let card = if ctx.card >= 0 { g.card(ctx.card).index } else { 0 };
                    let ci = g.new_ctx(ctx);
                    g.stack.push(Frame {
                        steps: vec![FrameStep::Tie(sel)],
                        ctx: ci,
                        pc: 0,
                        choices: Vec::new(),
                        cursor: 0,
                        label: Label { card, what: LabelWhat::Plain("which of those tied") },
                    });
                    if changed {
                        g.token_version += 1; // (a choice lapsed: the Power memo is stale)
                    }
                    return true;
                }
            } else if tied.len() < 2
                && let Some(i) = at
            {
                g.tie_picks.remove(i); // the tie is over: a new one is a new choice
                changed = true;
            }
        }
        if applies && r.s.opts.lose_tokens {
            for x in select(g, &ctx, sel, true) {
                if g.u(x).tokens > 0 {
                    g.um(x).tokens = 0;
                    changed = true;
                }
            }
        }
    }
    if changed {
        g.token_version += 1; // the Power memo reads the choices and the tokens
        return true;
    }
    g.settled = Some(key);
    false
}

/// Resolve a [`FrameStep::Tie`] of frame `fi`: the static's player chooses among those tied now.
pub fn choose_tie(g: &mut GameState, fi: usize, sel: &'static Selector) -> Res<()> {
    let ctx = g.ctxs[g.stack[fi].ctx].clone();
    let tied = select_tied(g, &ctx, sel, true);
    let at = g.tie_picks.iter().position(|t| same(t, &ctx, sel));
    if tied.len() < 2 {
        if let Some(i) = at {
            g.tie_picks.remove(i);
            g.token_version += 1;
        }
        return Ok(());
    }
    let opts = tied.iter().map(|&x| Opt::Int(x)).collect();
    let pick = choose(g, fi, ctx.player, DecisionKind::Target, opts, false, Prompt::Target(sel))?;
    let Opt::Int(x) = pick else { return Ok(()) };
    match at {
        Some(i) => g.tie_picks[i].chosen = x,
        None => {
            g.tie_picks.push(TiePick { unit: ctx.source, mission: ctx.mission, controller: ctx.player, sel, chosen: x })
        }
    }
    g.token_version += 1;
    Ok(())
}

// ---- instant steps that read a pick ------------------------------------------------------

/// What a step reads of a pick: the mission the picked one stands in, its cost or its Power.
#[derive(Clone, Copy, PartialEq)]
enum Reads {
    Place,
    Cost,
    Power,
}

fn number_picks(n: &'static Number, out: &mut Vec<(&'static Selector, Reads)>) {
    if let Number::Count(c) = n
        && let Some(sel) = c.selector.as_ref().filter(|s| s.picks_one())
    {
        match c.kind {
            CountKind::CostOf => out.push((sel, Reads::Cost)),
            CountKind::PowerOf => out.push((sel, Reads::Power)),
            _ => {}
        }
    }
}

fn condition_picks(c: &'static Condition, out: &mut Vec<(&'static Selector, Reads)>) {
    if let Some(sel) = c.here.as_ref().filter(|s| s.picks_one()) {
        out.push((sel, Reads::Place));
    }
    for (n, _) in [&c.var_min, &c.var_max].into_iter().flatten() {
        number_picks(n, out);
    }
    if let Some((a, b)) = &c.var_ge {
        number_picks(a, out);
        number_picks(b, out);
    }
}

/// The picks a step reads (not its targets, which its verb offers), in a fixed order.
fn step_picks(step: &'static Step) -> Vec<(&'static Selector, Reads)> {
    let mut out = Vec::new();
    if let Some(c) = &step.cond {
        condition_picks(c, &mut out);
    }
    if let Some(n) = step.number() {
        number_picks(n, &mut out);
    }
    if let Some(n) = &step.opts.discount {
        number_picks(n, &mut out);
    }
    out
}

/// Before a step of frame `fi` resolves: for each pick it reads that is tied, and where the
/// characters tied differ in what it reads, the step's player chooses which one it is
/// (`ctx.ties`, read by [`select`]).
pub fn choose_ties(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let ci = g.stack[fi].ctx;
    if !g.ctxs[ci].ties.is_empty() {
        g.ctxs[ci].ties.clear();
    }
    if step.cond.is_none()
        && step.opts.discount.is_none()
        && !matches!(step.arg, crate::language::Arg::Number(Number::Count(_)))
    {
        return Ok(());
    }
    for (sel, reads) in step_picks(step) {
        let ctx = g.ctxs[ci].clone();
        let tied = select_tied(g, &ctx, sel, false);
        let read = |x: &Uid| -> i64 {
            let u = g.u(*x);
            match reads {
                Reads::Place => (u.mission == ctx.mission) as i64,
                Reads::Cost => cost_of(g, u),
                Reads::Power => power::power(g, u),
            }
        };
        let first = tied.first().map(read);
        if tied.len() < 2 || tied.iter().all(|x| Some(read(x)) == first) {
            continue; // one character, or no difference to what the step reads
        }
        let opts = tied.iter().map(|&x| Opt::Int(x)).collect();
        if let Opt::Int(x) = choose(g, fi, ctx.player, DecisionKind::Target, opts, false, Prompt::Target(sel))? {
            g.ctxs[ci].ties.push((sel, x));
        }
    }
    Ok(())
}
