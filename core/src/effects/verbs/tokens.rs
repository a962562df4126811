//! Power tokens: POWERUP and removing tokens.

use super::{arg_num, int, num};
use crate::board::affect;
use crate::effects::lines::{self, static_ctx, unit_has_static};
use crate::effects::selectors::{condition, number, select};
use crate::effects::{Res, choose, ctx_ref, pick_units, set_var};
use crate::language::{Arg, Selector, StaticKind, Step};
use crate::power::static_hits;
use crate::state::{DecisionKind, Ev, GameState, Opt, Prompt, Uid, vars};

/// The tokens a POWERUP n really puts on `u`: ⧗ no_tokens stops it, ⧗ powerup_bonus adds.
pub fn powerup_amount(g: &GameState, uid: Uid, mut n: i64) -> i64 {
    let u = g.u(uid);
    if unit_has_static(g, u, StaticKind::NoTokens) {
        return 0;
    }
    for r in lines::lines(g).statics(StaticKind::PowerupBonus).iter() {
        let ctx = static_ctx(r.unit, r.mission, r.controller, g);
        if static_hits(g, &ctx, r.s, u) && condition(g, &ctx, r.s.cond.as_ref(), true) {
            n += number(g, &ctx, &r.s.n, false);
        }
    }
    n
}

pub fn powerup(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let n = arg_num(g, fi, step);
    let targets = match &step.target {
        Some(t) => pick_units(g, fi, t, None, &[])?,
        None => select(g, ctx_ref(g, fi), &Selector::this(), false),
    };
    let me = ctx_ref(g, fi).player;
    for uid in targets {
        if n <= 0 {
            continue;
        }
        affect(g, uid, me);
        let k = powerup_amount(g, uid, n);
        if k <= 0 {
            continue;
        }
        let u = g.um(uid);
        u.tokens += k;
        let (ctl, at) = (u.controller, u.mission);
        g.tokens_changed_at(at);
        g.emit(Ev::Powerup(ctl, uid, k));
    }
    Ok(())
}

pub fn remove_tokens(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let targets = match &step.target {
        Some(t) => pick_units(g, fi, t, None, &[])?,
        None => vec![],
    };
    let me = ctx_ref(g, fi).player;
    let mut counts = Vec::new();
    for &uid in &targets {
        // every choice first, then the change
        let tokens = g.u(uid).tokens;
        let k = match &step.arg {
            Arg::All => tokens,
            Arg::Number(n) => {
                let most = tokens.min(num(g, fi, n));
                if most > 0 {
                    let opts = (0..=most).rev().map(|i| Opt::Int(i as i32)).collect();
                    choose(g, fi, me, DecisionKind::Number, opts, false, Prompt::Text("tokens to remove"))?
                        .int()
                        .unwrap_or(0) as i64
                } else {
                    0
                }
            }
            _ => 0,
        };
        counts.push(k);
    }
    let stamped = g.stamps_current();
    let mut total = 0;
    for (&uid, &k) in targets.iter().zip(&counts) {
        affect(g, uid, me);
        g.um(uid).tokens -= k;
        total += k;
    }
    if step.opts.give_self && total != 0 {
        let src = ctx_ref(g, fi).source;
        if let Some(u) = g.unit(src)
            && !unit_has_static(g, u, StaticKind::NoTokens)
        {
            g.um(src).tokens += total;
        }
    }
    g.token_version += 1;
    // (the targets' missions, and the source's, which may have taken their tokens)
    let src = ctx_ref(g, fi).source;
    for &uid in targets.iter().chain([&src]) {
        if let Some(u) = g.unit(uid) {
            let mi = u.mission;
            g.changed_at(stamped, mi);
        }
    }
    set_var(g, fi, step.as_.unwrap_or(vars::REMOVED), int(total));
    Ok(())
}
