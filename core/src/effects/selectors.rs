//! Selectors, numbers and conditions, read against the board from an effect's context.
//!
//! A hidden character has no name, keywords or group and counts as cost 0, Power 0 plus its
//! tokens. `core` asks for core stats (printed Power plus tokens, no static), which is how
//! static conditions are checked so that bonuses never feed each other.

use crate::cards::Card;
use crate::effects::lines::{self, has_group, has_keyword};
use crate::language::{CardTypeSel, Condition, CountKind, Number, On, Pick, Selector, Side, StaticKind, Where};
use crate::power;
use crate::state::{Ctx, GameState, Inst, Uid, Unit, Val, reads, vars};

pub fn printed_power(g: &GameState, u: &Unit) -> i64 {
    if u.hidden { 0 } else { g.unit_card(u).power() }
}

/// Printed Power plus tokens (a hidden character's printed Power counts as 0).
pub fn core_power(g: &GameState, u: &Unit) -> i64 {
    printed_power(g, u) + u.tokens
}

/// A character's cost when an effect looks at it: 0 while hidden.
pub fn cost_of(g: &GameState, u: &Unit) -> i64 {
    if u.hidden { 0 } else { g.unit_card(u).cost() }
}

fn pw(g: &GameState, u: &Unit, core: bool) -> i64 {
    if core { core_power(g, u) } else { power::power(g, u) }
}

/// Whether unit `u` fits selector `sel` seen from `ctx` (`core`: a static's check).
pub fn matches(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit, core: bool) -> bool {
    matches_in(g, ctx, sel, u, core, &Walk::default())
}

/// What a walk over many characters with one selector and context works out once: the number of
/// its "cost less than" (it reads the board and the context, never the character), the first
/// time a character gets that far.
#[derive(Default)]
pub struct Walk {
    cost_lt: std::cell::Cell<Option<i64>>,
}

/// `matches`, for one character of a walk (`walk`: what the walk worked out so far).
///
/// Most selectors a walk meets ask for a side, a place, a look at the character (face-down,
/// upgraded, another than the effect's own) and its card (name, group, keywords) only
/// (`Selector::asks` has no other bit): those are checked here, in a body small enough to inline
/// at every walk; the rest go to `matches_all`.
#[inline]
pub fn matches_in(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit, core: bool, walk: &Walk) -> bool {
    if sel.asks & !(Selector::ASKS_LOOK | Selector::ASKS_CARD) != 0 {
        return matches_all(g, ctx, sel, u, core, walk);
    }
    if sel.side != Side::Any && ctx.player >= 0 && (sel.side == Side::Friendly) != (u.controller == ctx.player) {
        return false;
    }
    match sel.where_ {
        Where::This if u.mission != ctx.mission => return false,
        Where::OtherMissions if u.mission == ctx.mission => return false,
        _ => {}
    }
    if sel.asks & Selector::ASKS_LOOK != 0 && !matches_look(ctx, sel, u) {
        return false;
    }
    sel.asks & Selector::ASKS_CARD == 0 || matches_card(g, ctx, sel, u)
}

/// `matches_in` for a character [`for_each_candidate`] handed out for `sel`: the walk drew it
/// from the side and, for a selector of this mission, the mission the selector names (every unit
/// listed on a side of a mission is controlled by that side's player and stands on that
/// mission: the test `units_stand_where_they_are_listed`), so those are not checked again.
#[inline]
fn matches_drawn(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit, core: bool, walk: &Walk) -> bool {
    if sel.asks & !(Selector::ASKS_LOOK | Selector::ASKS_CARD) != 0 {
        return matches_all(g, ctx, sel, u, core, walk);
    }
    if sel.where_ == Where::OtherMissions && u.mission == ctx.mission {
        return false;
    }
    if sel.asks & Selector::ASKS_LOOK != 0 && !matches_look(ctx, sel, u) {
        return false;
    }
    sel.asks & Selector::ASKS_CARD == 0 || matches_card(g, ctx, sel, u)
}

/// `matches`' checks of face-down, upgraded and another than the effect's own.
#[inline]
fn matches_look(ctx: &Ctx, sel: &Selector, u: &Unit) -> bool {
    sel.hidden.is_none_or(|h| u.hidden == h)
        && sel.upgraded.is_none_or(|up| (u.stack.len() > 1) == up)
        && !(sel.other && u.uid == ctx.source)
}

/// `matches_in`, every check the selector can ask for.
#[inline(never)]
fn matches_all(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit, core: bool, walk: &Walk) -> bool {
    if sel.asks & Selector::ASKS_WHO != 0 {
        if sel.self_ {
            if u.uid != ctx.source {
                return false;
            }
            if !sel.extra {
                return true;
            }
        } else if let Some(v) = sel.var {
            return match ctx.get(v) {
                Some(Val::Int(n)) => *n == u.uid as i64,
                Some(Val::Bool(b)) => (*b as i64) == u.uid as i64,
                Some(Val::List(l)) => l.contains(&u.uid),
                _ => false,
            };
        }
        if let Some(v) = sel.not_var
            && let Some(Val::Int(n)) = ctx.get(v)
            && *n == u.uid as i64
        {
            return false;
        }
    }
    if sel.side != Side::Any && ctx.player >= 0 {
        let friendly = u.controller == ctx.player;
        if (sel.side == Side::Friendly) != friendly {
            return false;
        }
    }
    match sel.where_ {
        Where::This if u.mission != ctx.mission => return false,
        Where::OtherMissions if u.mission == ctx.mission => return false,
        Where::Chosen => {
            let chosen = match ctx.get(vars::CHOSEN_MISSION) {
                Some(Val::Int(n)) => *n,
                Some(Val::Bool(b)) => *b as i64,
                _ => -2,
            };
            if u.mission as i64 != chosen {
                return false;
            }
        }
        _ => {}
    }
    if sel.asks & Selector::ASKS_LOOK != 0 && !matches_look(ctx, sel, u) {
        return false;
    }
    if sel.asks & Selector::ASKS_CARD != 0 && !matches_card(g, ctx, sel, u) {
        return false;
    }
    if sel.asks & Selector::ASKS_STATE != 0 {
        if let Some(t) = sel.has_tokens
            && (u.tokens > 0) != t
        {
            return false;
        }
        if sel.played_last_turn && !(u.controller != ctx.player && last_plays(g, 1 - ctx.player).contains(&u.uid)) {
            return false;
        }
    }
    if sel.asks & Selector::ASKS_POWER != 0 && !matches_power(g, ctx, sel, u, core) {
        return false;
    }
    if sel.asks & Selector::ASKS_COST != 0 && !matches_cost(g, ctx, sel, u, walk) {
        return false;
    }
    if sel.extra && !matches_extra(g, ctx, sel, u, core) {
        return false;
    }
    true
}

/// Whether every character [`for_each_candidate`] hands out for `sel` fits it, whatever the
/// board: of the checks [`matches`] makes, `sel` asks only for the side and the mission, which the
/// candidates are drawn by (a static on "every character in this mission" hits them all without
/// a look at each).
pub fn every_candidate_fits(sel: &Selector) -> bool {
    !sel.self_
        && sel.var.is_none()
        && sel.not_var.is_none()
        && !sel.other
        && matches!(sel.where_, Where::This | Where::InPlay)
        && sel.hidden.is_none()
        && sel.upgraded.is_none()
        && sel.asks & (Selector::ASKS_CARD | Selector::ASKS_STATE | Selector::ASKS_POWER | Selector::ASKS_COST) == 0
        && !sel.extra
}

/// `matches`' checks of the card's name, group and keywords.
#[inline(never)]
fn matches_card(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit) -> bool {
    if !u.attachments.is_empty() {
        return matches_card_attached(g, ctx, sel, u);
    }
    // (no attachment: the group and the keywords are the card's own)
    let card = g.unit_card(u);
    if let Some(gr) = sel.group
        && (u.hidden || card.group != Some(gr))
    {
        return false;
    }
    if let Some(kw) = sel.keyword
        && (u.hidden || !card.has_keyword(kw))
    {
        return false;
    }
    if let Some(kw) = sel.not_keyword
        && !u.hidden
        && card.has_keyword(kw)
    {
        return false;
    }
    names_fit(ctx, sel, u, card)
}

/// `matches_card` of a character with attachments (they may lend it a group or keywords).
#[cold]
#[inline(never)]
fn matches_card_attached(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit) -> bool {
    let card = g.unit_card(u);
    if let Some(gr) = sel.group
        && (u.hidden || card.group != Some(gr))
        && (u.attachments.is_empty() || !has_group(g, u, gr))
    {
        return false;
    }
    if let Some(kw) = sel.keyword
        && (u.hidden || !card.has_keyword(kw))
        && (u.attachments.is_empty() || !has_keyword(g, u, kw))
    {
        return false;
    }
    if let Some(kw) = sel.not_keyword
        && !u.hidden
        && (card.has_keyword(kw) || (!u.attachments.is_empty() && has_keyword(g, u, kw)))
    {
        return false;
    }
    names_fit(ctx, sel, u, card)
}

/// The name checks both `matches_card` paths end with (a face-down character has no name).
#[inline(always)]
fn names_fit(ctx: &Ctx, sel: &Selector, u: &Unit, card: &Card) -> bool {
    if !sel.names.is_empty() && (u.hidden || !sel.names.contains(&card.name_key)) {
        return false;
    }
    if !sel.not_name.is_empty() && !u.hidden && sel.not_name.contains(&card.name_key) {
        return false;
    }
    if let Some(key) = sel.name_var_key {
        let same = matches!(ctx.get(key), Some(Val::Name(n)) if *n == card.name_key.0);
        if u.hidden || !same {
            return false;
        }
    }
    true
}

/// `matches`' checks of Power.
fn matches_power(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit, core: bool) -> bool {
    let need_power = sel.power_max.is_some()
        || sel.power_min.is_some()
        || sel.power_eq.is_some()
        || sel.power_lt_self
        || sel.power_le_self
        || sel.power_max_var.is_some();
    if need_power {
        let p = pw(g, u, core);
        if sel.power_max.is_some_and(|m| p > m) {
            return false;
        }
        if sel.power_min.is_some_and(|m| p < m) {
            return false;
        }
        if sel.power_eq.is_some_and(|m| p != m) {
            return false;
        }
        if let Some(v) = sel.power_max_var
            && p > ctx.num(v)
        {
            return false;
        }
        if sel.power_lt_self || sel.power_le_self {
            let Some(src) = g.unit(ctx.source) else {
                return false;
            };
            let sp = pw(g, src, core);
            if (sel.power_lt_self && p >= sp) || (sel.power_le_self && p > sp) {
                return false;
            }
        }
    }
    true
}

/// `matches`' checks of cost.
fn matches_cost(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit, walk: &Walk) -> bool {
    let card = g.unit_card(u);
    let c = cost_of(g, u);
    if sel.cost_max.is_some_and(|m| c > m) {
        return false;
    }
    if sel.cost_min.is_some_and(|m| c < m) {
        return false;
    }
    if let Some(v) = sel.cost_max_var
        && c > ctx.num(v)
    {
        return false;
    }
    if let Some(m) = sel.printed_cost_max
        && (u.hidden || card.cost() > m)
    {
        return false;
    }
    if let Some(n) = &sel.cost_lt {
        let most = match walk.cost_lt.get() {
            Some(k) => k,
            None => {
                let k = number(g, ctx, n, false);
                walk.cost_lt.set(Some(k));
                k
            }
        };
        if c >= most {
            return false;
        }
    }
    true
}

fn last_plays(g: &GameState, player: i32) -> &[Uid] {
    if (0..2).contains(&player) { &g.last_turn_plays[player as usize] } else { &[] }
}

fn last_moves(g: &GameState, player: i32) -> &[Uid] {
    if (0..2).contains(&player) { &g.last_turn_moves[player as usize] } else { &[] }
}

/// The Shinobi Shiren selector fields (kept apart so KS selectors pay nothing for them).
fn matches_extra(g: &GameState, ctx: &Ctx, sel: &Selector, u: &Unit, core: bool) -> bool {
    let card = g.unit_card(u);
    if sel.card_type == Some(CardTypeSel::Attachment) {
        return false;
    }
    if let Some(ng) = sel.not_group
        && !u.hidden
        && (card.group == Some(ng) || (!u.attachments.is_empty() && has_group(g, u, ng)))
    {
        return false;
    }
    if !sel.keywords.is_empty() && !sel.keywords.iter().any(|&k| has_keyword(g, u, k)) {
        return false;
    }
    if let Some(word) = &sel.name_has
        && (u.hidden || !card.name_lower.contains(word.as_str()))
    {
        return false;
    }
    if let Some(w) = &sel.with_attachment
        && !u.attachments.iter().any(|&a| attachment_card_fits(g, Some(w), a))
    {
        return false;
    }
    if let Some(c) = sel.controlled
        && (u.controller != u.owner) != c
    {
        return false;
    }
    if let Some(o) = sel.owned
        && (u.owner == ctx.player) != o
    {
        return false;
    }
    if sel.moved_last_turn && !last_moves(g, 1 - ctx.player).contains(&u.uid) {
        return false;
    }
    if sel.discounted && !u.discounted {
        return false;
    }
    if sel.unique_name {
        if u.hidden {
            return false;
        }
        for side in &g.missions[u.mission as usize].sides {
            for &x in side {
                let xu = g.u(x);
                if xu.uid != u.uid && !xu.hidden && g.unit_card(xu).name_key == card.name_key {
                    return false;
                }
            }
        }
    }
    if sel.sole {
        if u.hidden {
            return false;
        }
        let side = &g.missions[u.mission as usize].sides[u.controller as usize];
        if side.iter().any(|&x| x != u.uid && !g.u(x).hidden) {
            return false;
        }
    }
    if let Some(m) = sel.printed_power_min
        && (u.hidden || card.power() < m)
    {
        return false;
    }
    if sel.printed_power_lt_self || sel.power_eq_self || sel.power_lt.is_some() {
        let p = pw(g, u, core);
        let src = g.unit(ctx.source);
        if sel.printed_power_lt_self {
            let Some(src) = src else { return false };
            let printed = if u.hidden { 0 } else { card.power() };
            if printed >= pw(g, src, core) {
                return false;
            }
        }
        if sel.power_eq_self {
            match src {
                Some(src) if p == pw(g, src, core) => {}
                _ => return false,
            }
        }
        if let Some(n) = &sel.power_lt
            && p >= number(g, ctx, n, core)
        {
            return false;
        }
    }
    if let Some(n) = &sel.cost_le
        && cost_of(g, u) > number(g, ctx, n, core)
    {
        return false;
    }
    true
}

/// The units that may match `sel`, in board order: only on the mission and the side it names,
/// when it names them (`matches` decides; a unit's side is its controller's).
pub fn candidates(g: &GameState, ctx: &Ctx, sel: &Selector) -> Vec<Uid> {
    let mut out = Vec::with_capacity(12);
    for_each_candidate(g, ctx, sel, |x| out.push(x));
    out
}

/// `candidates`, one at a time in the same order (nothing collected). (One loop hands them all
/// out, so that `f` is inlined in it.)
pub fn for_each_candidate(g: &GameState, ctx: &Ctx, sel: &Selector, mut f: impl FnMut(Uid)) {
    let this = sel.where_ == Where::This;
    let side = if ctx.player >= 0 { sel.side } else { Side::Any };
    let everywhere = sel.var.is_some() || (!this && side == Side::Any);
    let missions = if everywhere || !this {
        0..g.missions.len()
    } else if ctx.mission >= 0 {
        ctx.mission as usize..ctx.mission as usize + 1
    } else {
        0..0
    };
    // the sides looked at, as a range of side indices (both: side 0, then side 1)
    let sides = match side {
        _ if everywhere => 0..2,
        Side::Any => 0..2,
        Side::Friendly => ctx.player as usize..ctx.player as usize + 1,
        Side::Enemy => (1 - ctx.player) as usize..(2 - ctx.player) as usize,
    };
    for m in &g.missions[missions] {
        for s in &m.sides[sides.clone()] {
            for &x in s {
                f(x);
            }
        }
    }
}

/// The characters `sel` selects, seen from `ctx`. A pick of one ("the strongest …") tied among
/// several is the one its player chose (FAQ: on a tie, you choose): for an instant step, the
/// choice the step made before it resolved (`ctx.ties`); for a continuous line (`core`), the
/// choice standing for it, and nobody until it is made (effects::statics asks it after the step
/// that made the tie). A pick no choice settles (a target the verb itself offers) stays the tie.
pub fn select(g: &GameState, ctx: &Ctx, sel: &Selector, core: bool) -> Vec<Uid> {
    let out = select_tied(g, ctx, sel, core);
    if out.len() < 2 || !sel.picks_one() {
        return out;
    }
    if let Some(&(_, x)) = ctx.ties.iter().find(|(s, _)| std::ptr::eq(*s, sel))
        && out.contains(&x)
    {
        return vec![x];
    }
    if core {
        return match crate::effects::statics::chosen(g, ctx, sel) {
            Some(x) if out.contains(&x) => vec![x],
            _ => Vec::new(),
        };
    }
    out
}

/// The characters [`select`] selects, one at a time in its order: with no pick, every candidate
/// that matches, no list made (a judgement of an effect walks them at every decision of a playout).
pub fn for_each_selected(g: &GameState, ctx: &Ctx, sel: &Selector, core: bool, mut f: impl FnMut(Uid)) {
    if sel.self_ || sel.pick.is_some() {
        select(g, ctx, sel, core).into_iter().for_each(f);
        return;
    }
    let walk = Walk::default();
    for_each_candidate(g, ctx, sel, |x| {
        if matches_drawn(g, ctx, sel, g.u(x), core, &walk) {
            f(x)
        }
    });
}

/// How many characters [`select`] selects, counted up to `limit`: with no pick, every candidate
/// that matches (no list made, and no candidate looked at once `limit` are found).
pub fn selected_upto(g: &GameState, ctx: &Ctx, sel: &Selector, core: bool, limit: usize) -> usize {
    if sel.self_ || sel.pick.is_some() {
        return select(g, ctx, sel, core).len().min(limit);
    }
    let mut n = 0;
    let walk = Walk::default();
    for_each_candidate(g, ctx, sel, |x| {
        if n < limit && matches_drawn(g, ctx, sel, g.u(x), core, &walk) {
            n += 1;
        }
    });
    n
}

/// [`select`] with every character tied for a pick: those among whom its player chooses.
pub fn select_tied(g: &GameState, ctx: &Ctx, sel: &Selector, core: bool) -> Vec<Uid> {
    if sel.self_ {
        return match g.unit(ctx.source) {
            Some(u) if !sel.extra || matches(g, ctx, sel, u, core) => vec![u.uid],
            _ => vec![],
        };
    }
    let mut out: Vec<Uid> = Vec::with_capacity(8);
    let walk = Walk::default();
    for_each_candidate(g, ctx, sel, |x| {
        if matches_drawn(g, ctx, sel, g.u(x), core, &walk) {
            out.push(x);
        }
    });
    if let Some(pick) = sel.pick
        && !out.is_empty()
    {
        match pick {
            Pick::LowestCost => {
                let best = out.iter().map(|&x| cost_of(g, g.u(x))).min().expect("some");
                out.retain(|&x| cost_of(g, g.u(x)) == best);
            }
            Pick::StrongestUnique => {
                let best = out.iter().map(|&x| pw(g, g.u(x), core)).max().expect("some");
                out.retain(|&x| pw(g, g.u(x), core) == best);
                if out.len() != 1 {
                    out.clear();
                }
            }
            Pick::Weakest | Pick::Strongest => {
                let vals = out.iter().map(|&x| pw(g, g.u(x), core));
                let best = if pick == Pick::Weakest { vals.min() } else { vals.max() }.expect("some");
                out.retain(|&x| pw(g, g.u(x), core) == best);
            }
        }
    }
    out
}

pub fn number(g: &GameState, ctx: &Ctx, n: &Number, core: bool) -> i64 {
    match n {
        Number::Int(i) => *i,
        Number::Var(v) => ctx.num(*v),
        Number::Count(c) => {
            let k = match c.kind {
                CountKind::Units => {
                    let sel = c.selector.as_ref().expect("a selector");
                    if c.missions {
                        let units = select(g, ctx, sel, core);
                        let ph = if sel.extra || sel.keyword.is_some() { phantoms(g, ctx, sel) } else { vec![] };
                        let mut ms: Vec<i32> = units.iter().map(|&x| g.u(x).mission).collect();
                        ms.extend(ph.iter().copied());
                        ms.sort_unstable();
                        ms.dedup();
                        ms.len() as i64
                    } else {
                        // (how many only: counted, no list made)
                        let units = selected_upto(g, ctx, sel, core, usize::MAX);
                        let ph = if sel.extra || sel.keyword.is_some() { phantoms(g, ctx, sel) } else { vec![] };
                        (units + ph.len()) as i64
                    }
                }
                CountKind::Missions => g.missions.len() as i64,
                CountKind::Attachments => select_attachments(g, ctx, c.selector.as_ref()).len() as i64,
                CountKind::Stack => g.unit(ctx.source).map_or(0, |u| u.stack.len() as i64),
                CountKind::AttachmentCost => match g.unit(ctx.source) {
                    None => 0,
                    Some(src) => src
                        .attachments
                        .iter()
                        .filter(|&&a| {
                            !g.att_is_hidden(a) && c.selector.as_ref().is_none_or(|s| card_fits(s, g.card(a)))
                        })
                        .map(|&a| g.card(a).cost())
                        .sum(),
                },
                CountKind::PowerOf | CountKind::CostOf => {
                    let sel = c.selector.as_ref().expect("a selector");
                    let units = select(g, ctx, sel, core);
                    units
                        .iter()
                        .map(|&x| {
                            let u = g.u(x);
                            if c.kind == CountKind::PowerOf { pw(g, u, core) } else { cost_of(g, u) }
                        })
                        .max()
                        .unwrap_or(0)
                }
            };
            k * c.times + c.plus
        }
    }
}

/// ⧗ phantom (an attachment that counts as one more friendly character of a keyword, for that
/// keyword's cards): the missions where such an extra character stands for this count.
pub fn phantoms(g: &GameState, ctx: &Ctx, sel: &Selector) -> Vec<i32> {
    let Some(kw) = sel.keyword else { return vec![] };
    if sel.side != Side::Friendly || ctx.player < 0 {
        return vec![];
    }
    let found = lines::lines(g);
    let found = found.statics(StaticKind::Phantom);
    if found.is_empty() {
        return vec![];
    }
    if ctx.card < 0 || !g.card(ctx.card).has_keyword(kw) {
        return vec![];
    }
    let mut out = Vec::new();
    for r in found {
        if r.controller != ctx.player || r.s.opts.keyword != Some(kw) {
            continue;
        }
        if (sel.where_ == Where::This && r.mission != ctx.mission)
            || (sel.where_ == Where::OtherMissions && r.mission == ctx.mission)
        {
            continue;
        }
        out.push(r.mission);
    }
    out
}

/// Note that a condition read `bit` of the state (`state::reads`): the Power memo keys its table
/// by what the statics' conditions read.
#[inline(always)]
fn read(g: &GameState, bit: u8) {
    g.power_reads.set(g.power_reads.get() | bit);
}

pub fn condition(g: &GameState, ctx: &Ctx, cond: Option<&Condition>, core: bool) -> bool {
    let Some(cond) = cond else { return true };
    if let Some(e) = cond.edge {
        read(g, reads::EDGE);
        if (g.edge == ctx.player) != e {
            return false;
        }
    }
    if let Some(s) = &cond.exists
        && selected_upto(g, ctx, s, core, 1) == 0
    {
        return false;
    }
    if let Some(s) = &cond.absent
        && selected_upto(g, ctx, s, core, 1) != 0
    {
        return false;
    }
    if let Some(s) = &cond.only
        && selected_upto(g, ctx, s, core, 2) != 1
    {
        return false;
    }
    if let Some(w) = cond.winning
        && ctx.mission >= 0
    {
        read(g, reads::EDGE); // (a tie goes to the Edge)
        if (power::mission_leader(g, ctx.mission as usize) == ctx.player) != w {
            return false;
        }
    }
    if cond.fewer_nonhidden_than_enemy {
        let m = &g.missions[ctx.mission as usize];
        let mine = m.sides[ctx.player as usize].iter().filter(|&&x| !g.u(x).hidden).count();
        let theirs = m.sides[(1 - ctx.player) as usize].iter().filter(|&&x| !g.u(x).hidden).count();
        if mine >= theirs {
            return false;
        }
    }
    if let Some(e) = cond.hand_empty {
        read(g, reads::HANDS);
        if g.players[ctx.player as usize].hand.is_empty() != e {
            return false;
        }
    }
    if let Some(v) = cond.var_set
        && !ctx.get(v).is_some_and(Val::truthy)
    {
        return false;
    }
    if let Some((n, m)) = &cond.var_min
        && number(g, ctx, n, core) < *m
    {
        return false;
    }
    if let Some((n, m)) = &cond.var_max
        && number(g, ctx, n, core) > *m
    {
        return false;
    }
    if cond.extra && !condition_extra(g, ctx, cond, core) {
        return false;
    }
    true
}

fn condition_extra(g: &GameState, ctx: &Ctx, cond: &Condition, core: bool) -> bool {
    if let Some(k) = cond.duel
        && !duel_present(g, ctx.mission, k)
    {
        return false;
    }
    if let Some(k) = cond.not_duel
        && duel_present(g, ctx.mission, k)
    {
        return false;
    }
    if let Some(fp) = cond.first_play
        && ctx.player >= 0
        && (g.players[ctx.player as usize].plays_this_round == 0) != fp
    {
        return false;
    }
    if let Some(s) = &cond.here
        && !select(g, ctx, s, core).iter().any(|&x| g.u(x).mission == ctx.mission)
    {
        return false;
    }
    if !cond.exists_any.is_empty() && !cond.exists_any.iter().any(|s| !select(g, ctx, s, core).is_empty()) {
        return false;
    }
    if let Some(v) = cond.var_unset
        && ctx.get(v).is_some_and(Val::truthy)
    {
        return false;
    }
    if let Some((a, b)) = &cond.var_ge
        && number(g, ctx, a, core) < number(g, ctx, b, core)
    {
        return false;
    }
    if let Some(s) = &cond.in_hand
        && !g.players[ctx.player as usize].hand.iter().any(|&c| card_fits(s, g.card(c)))
    {
        return false;
    }
    if let Some(m) = cond.discard_min
        && (g.players[ctx.player as usize].discard.len() as i64) < m
    {
        return false;
    }
    if let Some(s) = &cond.attachment
        && select_attachments(g, ctx, Some(s)).is_empty()
    {
        return false;
    }
    if let Some(e) = cond.evaluating {
        read(g, reads::EVALUATING);
        if (g.phase == crate::state::Phase::Evaluate) != e {
            return false;
        }
    }
    if let Some(s) = &cond.self_attached {
        match g.unit(ctx.source) {
            Some(src) if src.attachments.iter().any(|&a| attachment_card_fits(g, Some(s), a)) => {}
            _ => return false,
        }
    }
    true
}

/// DUEL <name>: a face-up character of that name stands in mission `mi`, on either side.
pub fn duel_present(g: &GameState, mi: i32, key: crate::names::NameId) -> bool {
    if mi < 0 {
        return false;
    }
    g.missions[mi as usize]
        .sides
        .iter()
        .any(|side| side.iter().any(|&x| !g.u(x).hidden && g.unit_card(g.u(x)).name_key == key))
}

/// A selector tested against a card about to be played, or in a zone (not a unit).
pub fn card_fits(sel: &Selector, card: &Card) -> bool {
    if sel.extra {
        if let Some(t) = sel.card_type
            && t != CardTypeSel::Any
            && card_type_of(card) != Some(t)
        {
            return false;
        }
        if !sel.keywords.is_empty() && !sel.keywords.iter().any(|&k| card.has_keyword(k)) {
            return false;
        }
        if let Some(word) = &sel.name_has
            && !card.name_lower.contains(word.as_str())
        {
            return false;
        }
        if let Some(ng) = sel.not_group
            && card.group == Some(ng)
        {
            return false;
        }
    }
    if let Some(kw) = sel.not_keyword
        && card.has_keyword(kw)
    {
        return false;
    }
    if let Some(gr) = sel.group
        && card.group != Some(gr)
    {
        return false;
    }
    if let Some(kw) = sel.keyword
        && !card.has_keyword(kw)
    {
        return false;
    }
    if !sel.names.is_empty() && !sel.names.contains(&card.name_key) {
        return false;
    }
    if !sel.not_name.is_empty() && sel.not_name.contains(&card.name_key) {
        return false;
    }
    if sel.cost_max.is_some_and(|m| card.cost() > m) {
        return false;
    }
    if sel.printed_cost_max.is_some_and(|m| card.cost() > m) {
        return false;
    }
    true
}

pub fn card_fits_opt(sel: Option<&Selector>, card: &Card) -> bool {
    sel.is_none_or(|s| card_fits(s, card))
}

fn card_type_of(card: &Card) -> Option<CardTypeSel> {
    match card.ctype {
        crate::cards::CardType::Character => Some(CardTypeSel::Character),
        crate::cards::CardType::Attachment => Some(CardTypeSel::Attachment),
        crate::cards::CardType::Mission => None,
    }
}

/// The card filter of a zone verb: its card type (character by default) and its fields.
pub fn zone_fits(sel: Option<&Selector>, card: &Card) -> bool {
    let typ = sel.and_then(|s| s.card_type).unwrap_or(CardTypeSel::Character);
    (typ == CardTypeSel::Any || card_type_of(card) == Some(typ)) && card_fits_opt(sel, card)
}

/// An attachment in play: (instance, host uid or -1, mission, controlling side).
pub type AttachmentAt = (Inst, Uid, i32, i32);

/// Every attachment in play, in board order.
pub fn all_attachments(g: &GameState) -> Vec<AttachmentAt> {
    let mut out = Vec::new();
    each_attachment(g, |at| out.push(at));
    out
}

/// `all_attachments`, one at a time in the same order (no list).
pub fn each_attachment(g: &GameState, mut f: impl FnMut(AttachmentAt)) {
    for (mi, m) in g.missions.iter().enumerate() {
        for side in 0..2 {
            for &a in &m.attachments[side] {
                f((a, -1, mi as i32, side as i32));
            }
            for &uid in &m.sides[side] {
                for &a in &g.u(uid).attachments {
                    f((a, uid, mi as i32, side as i32));
                }
            }
        }
    }
}

/// An attachment selector: `side` (whose attachment, seen from `ctx`), `where`, `on`
/// (character or mission attachments) and the card filters. Face-down attachments show nothing.
pub fn attachment_fits(g: &GameState, ctx: &Ctx, sel: Option<&Selector>, at: AttachmentAt) -> bool {
    let Some(sel) = sel else { return true };
    let (inst, host, mi, side) = at;
    if (sel.on == Some(On::Character) && host < 0) || (sel.on == Some(On::Mission) && host >= 0) {
        return false;
    }
    if sel.side != Side::Any && ctx.player >= 0 && (side == ctx.player) != (sel.side == Side::Friendly) {
        return false;
    }
    if sel.where_ == Where::This && mi != ctx.mission {
        return false;
    }
    if sel.self_ && (host < 0 || host != ctx.source) {
        return false;
    }
    if sel.other && inst == ctx.card {
        return false;
    }
    attachment_card_fits(g, Some(sel), inst)
}

/// A card filter tested against an attachment in play. Reading "a face-down attachment is an
/// attachment with no name, keyword or group" (like a hidden character): it fits a filter that
/// names none of them (and counts as cost 0), so it is an attachment for counts, discards, moves
/// and "with an attachment", never a Senbon or a Weapon.
pub fn attachment_card_fits(g: &GameState, sel: Option<&Selector>, inst: Inst) -> bool {
    let Some(sel) = sel else { return true };
    if g.att_is_hidden(inst) {
        return facedown_fits(sel);
    }
    card_fits(sel, g.card(inst))
}

fn facedown_fits(sel: &Selector) -> bool {
    if !sel.names.is_empty()
        || sel.keyword.is_some()
        || !sel.keywords.is_empty()
        || sel.group.is_some()
        || sel.name_has.is_some()
        || sel.printed_cost_max.is_some()
    {
        return false;
    }
    if sel.card_type == Some(CardTypeSel::Character) {
        return false;
    }
    sel.cost_max.is_none_or(|m| m >= 0)
}

pub fn select_attachments(g: &GameState, ctx: &Ctx, sel: Option<&Selector>) -> Vec<AttachmentAt> {
    all_attachments(g).into_iter().filter(|&at| attachment_fits(g, ctx, sel, at)).collect()
}

#[cfg(test)]
mod tests {
    use crate::apply;
    use crate::cards::Catalog;
    use crate::rng::PyRandom;
    use crate::setup::GameDeck;
    use crate::state::GameState;

    /// `games` games of random legal decks played by random legal moves from `seed`, `look`
    /// shown every position that waits for a decision (with the game's number)
    fn each_decision(seed: i128, games: i128, mut look: impl FnMut(i128, &GameState)) {
        let cat = Catalog::bundled();
        let mut rng = PyRandom::new(seed);
        for k in 0..games {
            let a = GameDeck::random(cat, &mut rng, |_| true, String::new());
            let b = GameDeck::random(cat, &mut rng, |_| true, String::new());
            let mut g = crate::setup::new_game(cat, &a, &b, k, false, None).unwrap();
            while !g.is_terminal() {
                look(k, &g);
                let d = g.pending.as_ref().unwrap();
                let n = d.len();
                let act = d.nth(rng.below(n));
                apply::apply(&mut g, act).unwrap();
            }
        }
    }

    #[test]
    fn units_stand_where_they_are_listed() {
        // `matches_drawn` leaves the side and the mission of a character a walk hands out
        // unchecked: every unit on a side of a mission must be controlled by that side's player
        // and stand on that mission, at every decision of random games
        let mut checked = 0;
        each_decision(17, 150, |k, g| {
            for (mi, m) in g.missions.iter().enumerate() {
                for (p, side) in m.sides.iter().enumerate() {
                    for &x in side {
                        let u = g.u(x);
                        assert_eq!((u.controller, u.mission), (p as i32, mi as i32), "game {k}, unit {x}");
                        checked += 1;
                    }
                }
            }
        });
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn candidates_come_in_board_order() {
        // `for_each_candidate` in one loop hands out what the walk of each case did: every mission
        // for a remembered character or any place on any side, else the missions named, each
        // one's sides named (side 0, then side 1)
        use super::candidates;
        use crate::language::{Selector, Side, VarId, Where};
        use crate::state::{Ctx, Uid};
        fn reference(g: &GameState, ctx: &Ctx, sel: &Selector) -> Vec<Uid> {
            let this = sel.where_ == Where::This;
            let side = if ctx.player >= 0 { sel.side } else { Side::Any };
            let mut out = Vec::new();
            let missions = if sel.var.is_some() || (!this && side == Side::Any) {
                for m in &g.missions {
                    out.extend(m.sides[0].iter().chain(&m.sides[1]));
                }
                return out;
            } else if !this {
                0..g.missions.len()
            } else if ctx.mission >= 0 {
                ctx.mission as usize..ctx.mission as usize + 1
            } else {
                0..0
            };
            for mi in missions {
                let m = &g.missions[mi];
                match side {
                    Side::Any => out.extend(m.sides[0].iter().chain(&m.sides[1])),
                    Side::Friendly => out.extend(&m.sides[ctx.player as usize]),
                    Side::Enemy => out.extend(&m.sides[(1 - ctx.player) as usize]),
                }
            }
            out
        }
        let mut compared = 0;
        each_decision(29, 20, |k, g| {
            for side in [Side::Any, Side::Friendly, Side::Enemy] {
                for where_ in [Where::This, Where::InPlay, Where::OtherMissions, Where::Chosen] {
                    for var in [None, Some(VarId(0))] {
                        let sel = Selector { side, where_, var, ..Selector::default() };
                        for player in -1..2 {
                            for mission in -1..g.missions.len() as i32 {
                                let ctx = Ctx::at(player, -1, mission, -1);
                                assert_eq!(candidates(g, &ctx, &sel), reference(g, &ctx, &sel), "game {k}");
                                compared += 1;
                            }
                        }
                    }
                }
            }
        });
        assert!(compared > 10_000, "{compared}");
    }

    #[test]
    fn a_card_without_attachments_is_matched_as_with_them() {
        // `matches_card` reads a character without attachments by its card alone: the same answer
        // as `matches_card_attached`, for selectors of each group, keyword and name of the catalog
        use super::{matches_card, matches_card_attached};
        use crate::language::Selector;
        use crate::state::Ctx;
        let cat = Catalog::bundled();
        let mut sels: Vec<Selector> = Vec::new();
        for c in cat.cards.iter().step_by(7) {
            let mut add = |s: Selector| sels.push(Selector { asks: s.asks_now(), ..s });
            add(Selector { group: c.group, ..Selector::default() });
            add(Selector { names: vec![c.name_key], ..Selector::default() });
            add(Selector { not_name: vec![c.name_key], ..Selector::default() });
            for &k in &c.keywords {
                add(Selector { keyword: Some(k), ..Selector::default() });
                add(Selector { not_keyword: Some(k), group: c.group, ..Selector::default() });
            }
        }
        let (mut plain, mut fits) = (0, 0);
        each_decision(23, 40, |k, g| {
            if g.turn % 5 == 0 {
                let ctx = Ctx::at(g.current, -1, -1, -1);
                for u in g.units.iter().flatten() {
                    plain += u.attachments.is_empty() as usize;
                    for sel in &sels {
                        let fast = matches_card(g, &ctx, sel, u);
                        assert_eq!(fast, matches_card_attached(g, &ctx, sel, u), "game {k}, {sel:?}");
                        fits += fast as usize;
                    }
                }
            }
        });
        assert!(plain > 1_000 && fits > 1_000, "{plain} {fits}");
    }
}
