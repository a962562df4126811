//! Chakra, the Edge and mission points.

use super::{arg_num, int};
use crate::effects::{Res, choose, ctx_ref, set_var};
use crate::language::{Step, Who};
use crate::state::{DecisionKind, Ev, GameState, Opt, Prompt, Val, vars};

pub fn gain_chakra(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    let who = if step.opts.who == Some(Who::Opponent) { 1 - me } else { me };
    let n = arg_num(g, fi, step);
    let p = &mut g.players[who as usize];
    p.chakra += n;
    p.chakra_gained += n;
    g.emit(Ev::ChakraGain(who, n));
    Ok(())
}

pub fn steal_chakra(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player as usize;
    let n = g.players[1 - me].chakra.min(arg_num(g, fi, step));
    g.players[1 - me].chakra -= n;
    g.players[me].chakra += n;
    g.players[me].chakra_gained += n;
    g.emit(Ev::ChakraSteal(me as i32, n));
    Ok(())
}

pub fn spend_chakra(g: &mut GameState, fi: usize, _step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    let have = g.players[me as usize].chakra;
    let opts = (0..=have).map(|i| Opt::Int(i as i32)).collect();
    let x = choose(g, fi, me, DecisionKind::Number, opts, false, Prompt::Text("extra chakra to spend"))?
        .int()
        .unwrap_or(0) as i64;
    g.players[me as usize].pay(x);
    set_var(g, fi, vars::SPENT, int(x));
    set_var(g, fi, vars::X, int(x));
    Ok(())
}

pub fn pay_chakra(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player as usize;
    let n = arg_num(g, fi, step);
    let paid = g.players[me].chakra >= n;
    if paid {
        g.players[me].pay(n);
    }
    set_var(g, fi, step.as_.unwrap_or(vars::PAID), Val::Bool(paid));
    Ok(())
}

/// Gain the Edge, unless the opponent holds it locked for the round (KS-148: "you can't lose it
/// this round": no effect takes it from them, a lock of your own included).
pub fn gain_edge(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player;
    if g.edge_locked >= 0 && g.edge_locked != me {
        return Ok(());
    }
    g.edge = me;
    if step.opts.lock {
        g.edge_locked = me;
    }
    g.emit(Ev::Edge(me));
    Ok(())
}

pub fn gain_points(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    let me = ctx_ref(g, fi).player as usize;
    let n = arg_num(g, fi, step);
    g.players[me].score += n;
    if let Some(r) = g.round_scores.last_mut() {
        r[me] += n;
    }
    g.emit(Ev::Points(me as i32, n));
    Ok(())
}
