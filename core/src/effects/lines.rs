//! The continuous (⧗) lines in force, read off the face-up cards in play and the missions.
//!
//! Statics are never stored on the board: they are looked up whenever a rule asks, so they are
//! always "re-checked after every step" as the FAQ requires. The list of lines in force is rebuilt
//! only when the board changes (`board_version`); conditions and amounts are evaluated live.

use std::sync::Arc;

use crate::cards::Card;
use crate::language::{Grant, Static, StaticKind, TriggerOn};
use crate::names::{GroupId, KeywordId};
use crate::state::{ActiveLine, Ctx, GameState, Inst, LinesCache, StaticRef, TriggerRef, Uid, Unit};

/// Every continuous line in force, grouped by kind (rebuilt when the board changed). Borrowed,
/// not shared (no reference count to move on the hot path): a caller that changes the game
/// while it reads the lines takes its own `Arc::clone` of them.
#[inline]
pub fn lines(g: &GameState) -> std::cell::Ref<'_, Arc<LinesCache>> {
    if g.lines_version.get() != g.board_version {
        rebuild(g);
    }
    g.lines.borrow()
}

/// Every continuous line of the face-up cards in play, in board order (missions, then side 0
/// before side 1; on a side, each character's attachments before its own card).
fn walk(g: &GameState, mut each: impl FnMut(ActiveLine)) {
    let mut card_lines = |card: &Card, unit: Uid, mission: i32, controller: i32, inst: Inst| {
        for li in 0..card.continuous.len() {
            each(ActiveLine { unit, mission, controller, card: card.index, line: li as u16, inst });
        }
    };
    for (mi, m) in g.missions.iter().enumerate() {
        let mi = mi as i32;
        card_lines(g.card(m.card), -1, mi, -1, m.card);
        for side in 0..2 {
            for &a in &m.attachments[side] {
                if !g.att_is_hidden(a) {
                    card_lines(g.card(a), -1, mi, side as i32, a);
                }
            }
            for &uid in &m.sides[side] {
                let u = g.u(uid);
                if !u.attachments.is_empty() {
                    for &a in &u.attachments {
                        if !g.att_is_hidden(a) {
                            card_lines(g.card(a), uid, mi, u.controller, a);
                        }
                    }
                    if blanked(g, u) {
                        continue;
                    }
                }
                if u.hidden {
                    continue;
                }
                card_lines(g.unit_card(u), uid, mi, u.controller, u.top());
            }
        }
    }
}

/// Bring the lines in force up to the board. Most changes of the board (a character with no
/// continuous line played, moved or defeated) leave them as they were: the board is walked and
/// compared with the lines kept, and only a difference regroups them, in the kept buffers when
/// no copy of the game shares them.
#[inline(never)]
fn rebuild(g: &GameState) {
    let mut cell = g.lines.borrow_mut();
    let changed = match Arc::get_mut(&mut cell) {
        // one walk over the board, written over the lines kept from where they first differ
        Some(cache) => {
            let mut k = 0;
            let mut same = true;
            walk(g, |l| {
                if same && cache.lines.get(k) != Some(&l) {
                    same = false;
                    cache.lines.truncate(k);
                }
                if !same {
                    cache.lines.push(l);
                }
                k += 1;
            });
            if same && k < cache.lines.len() {
                cache.lines.truncate(k);
                same = false;
            }
            !same
        }
        // shared with a copy of the game: compared, and walked again into a cache of its own
        None => {
            let (mut same, mut k) = (true, 0);
            walk(g, |l| {
                if same && cell.lines.get(k) != Some(&l) {
                    same = false;
                }
                k += 1;
            });
            if !(same && k == cell.lines.len()) {
                let mut fresh = LinesCache::default();
                walk(g, |l| fresh.lines.push(l));
                *cell = Arc::new(fresh);
                true
            } else {
                false
            }
        }
    };
    if !changed {
        drop(cell);
        g.lines_version.set(g.board_version);
        return;
    }
    regroup(g.cat, Arc::get_mut(&mut cell).expect("unshared"), Touched::ALL);
    drop(cell);
    g.lines_version.set(g.board_version);
}

/// The lines in force brought up to a character just turned face-up (put into play, or
/// revealed) when nothing else changed (`GameState::board_changed` made them stale): its own lines
/// inserted where a walk of the board meets them (in its mission, on its side, after the lines of
/// the side's attachments and of the characters before it, its own attachments' included),
/// instead of a walk of the whole board. Left stale (for `rebuild`) when they were not up to the
/// board before, or are shared.
pub fn add_unit(g: &GameState, uid: Uid, were_current: bool) {
    if !were_current {
        return;
    }
    let mut cell = g.lines.borrow_mut();
    let Some(cache) = Arc::get_mut(&mut cell) else { return };
    let u = g.u(uid);
    debug_assert!(!u.hidden);
    if u.attachments.is_empty() || !blanked(g, u) {
        let (mi, side) = (u.mission, u.controller);
        let order = &g.missions[mi as usize].sides[side as usize];
        let pos = |x: Uid| if x < 0 { -1 } else { order.iter().position(|&y| y == x).map_or(i64::MAX, |i| i as i64) };
        let me = pos(uid);
        let at = cache
            .lines
            .iter()
            .position(|l| {
                (l.mission, l.controller) > (mi, side) || ((l.mission, l.controller) == (mi, side) && pos(l.unit) > me)
            })
            .unwrap_or(cache.lines.len());
        let card = g.unit_card(u);
        let inst = u.top();
        let new = (0..card.continuous.len()).map(|li| ActiveLine {
            unit: uid,
            mission: mi,
            controller: side,
            card: card.index,
            line: li as u16,
            inst,
        });
        let added = card.continuous.len();
        cache.lines.splice(at..at, new);
        // (its statics and triggers put into their groups where a regrouping would put them)
        insert_statics(g.cat, cache, at, added);
        insert_triggers(g.cat, cache, at, added);
    }
    drop(cell);
    g.lines_version.set(g.board_version);
}

/// The lines in force of `g`, to be brought up to one change of the board in place (Some: they
/// were up to the board before it, `were_current`, and no copy of the game shares them).
fn in_place(g: &GameState, were_current: bool) -> Option<std::cell::RefMut<'_, Arc<LinesCache>>> {
    if !were_current {
        return None;
    }
    let mut cell = g.lines.borrow_mut();
    Arc::get_mut(&mut cell)?;
    Some(cell)
}

/// The lines in force regrouped (the groups `touched`) and up to the board again.
fn done(g: &GameState, mut cell: std::cell::RefMut<'_, Arc<LinesCache>>, touched: Touched) {
    regroup(g.cat, Arc::get_mut(&mut cell).expect("unshared"), touched);
    drop(cell);
    g.lines_version.set(g.board_version);
}

/// The lines in force brought up to a new mission, the last in play, with nobody on it yet: its
/// card's lines are the last a walk meets.
pub fn add_mission(g: &GameState, were_current: bool) {
    let Some(mut cell) = in_place(g, were_current) else { return };
    let cache = Arc::get_mut(&mut cell).expect("unshared");
    let mi = g.missions.len() - 1;
    let m = &g.missions[mi];
    debug_assert!(m.sides.iter().all(|s| s.is_empty()) && m.attachments.iter().all(|a| a.is_empty()));
    let card = g.card(m.card);
    let mut touched = Touched::default();
    for li in 0..card.continuous.len() {
        let l = ActiveLine {
            unit: -1,
            mission: mi as i32,
            controller: -1,
            card: card.index,
            line: li as u16,
            inst: m.card,
        };
        touched.add(g.cat, &l);
        cache.lines.push(l);
    }
    done(g, cell, touched);
}

/// The lines in force brought up to a character that left play with its attachments (theirs
/// and its own taken out), or (`own`: its top card) that was turned face-down (its own taken out;
/// its attachments' stay).
pub fn remove_unit(g: &GameState, uid: Uid, own: Option<Inst>, were_current: bool) {
    let Some(mut cell) = in_place(g, were_current) else { return };
    let cache = Arc::get_mut(&mut cell).expect("unshared");
    let mut touched = Touched::default();
    cache.lines.retain(|l| {
        let keep = l.unit != uid || own.is_some_and(|top| l.inst != top);
        if !keep {
            touched.add(g.cat, l);
        }
        keep
    });
    done(g, cell, touched);
}

/// The lines in force brought up to a character (with its attachments) moved to the end of its
/// side of mission `dest`.
pub fn move_unit(g: &GameState, uid: Uid, dest: i32, were_current: bool) {
    let Some(mut cell) = in_place(g, were_current) else { return };
    let cache = Arc::get_mut(&mut cell).expect("unshared");
    let side = g.u(uid).controller;
    debug_assert_eq!(g.missions[dest as usize].sides[side as usize].last(), Some(&uid));
    let mut moved: Vec<ActiveLine> = Vec::new();
    let mut touched = Touched::default();
    cache.lines.retain(|l| {
        if l.unit == uid {
            touched.add(g.cat, l);
            moved.push(ActiveLine { mission: dest, ..*l });
            false
        } else {
            true
        }
    });
    let at = cache.lines.iter().position(|l| (l.mission, l.controller) > (dest, side)).unwrap_or(cache.lines.len());
    cache.lines.splice(at..at, moved);
    done(g, cell, touched);
}

/// Every static and trigger of the lines in force grouped by kind (board order within a kind).
fn regroup(cat: &'static crate::cards::Catalog, cache: &mut LinesCache, what: Touched) {
    if what.statics {
        regroup_statics(cat, cache);
    }
    if what.triggers {
        regroup_triggers(cat, cache);
    }
}

/// Which groups a change of the lines in force touched: a line with no static (no trigger) added,
/// taken out or moved leaves the statics (the triggers) in force as they were, in the same order.
#[derive(Clone, Copy, Default)]
struct Touched {
    statics: bool,
    triggers: bool,
}

impl Touched {
    const ALL: Touched = Touched { statics: true, triggers: true };
    fn add(&mut self, cat: &crate::cards::Catalog, l: &ActiveLine) {
        let line = &cat.cards[l.card as usize].continuous[l.line as usize];
        self.statics |= !line.statics.is_empty();
        self.triggers |= !line.triggers.is_empty();
    }
}

/// The statics of the lines in force grouped by kind, with counting passes, in the buffers kept.
fn regroup_statics(cat: &'static crate::cards::Catalog, cache: &mut LinesCache) {
    group_by_kind(
        cat,
        &cache.lines,
        &mut cache.static_at,
        &mut cache.statics_flat,
        |line| &line.statics,
        |s| s.kind.index(),
        |l, s| StaticRef { unit: l.unit, mission: l.mission, controller: l.controller, s },
    );
}

/// The triggers of the lines in force grouped by moment, as `regroup_statics` groups statics.
fn regroup_triggers(cat: &'static crate::cards::Catalog, cache: &mut LinesCache) {
    group_by_kind(
        cat,
        &cache.lines,
        &mut cache.trigger_at,
        &mut cache.triggers_flat,
        |line| &line.triggers,
        |t| t.on.index(),
        |l, t| TriggerRef { unit: l.unit, mission: l.mission, controller: l.controller, t, inst: l.inst },
    );
}

/// The statics of lines `at..at + added` of the lines in force, just inserted, put into their
/// groups as `regroup_statics` would put them (the other lines grouped already).
fn insert_statics(cat: &'static crate::cards::Catalog, cache: &mut LinesCache, at: usize, added: usize) {
    insert_grouped(
        cat,
        &cache.lines,
        at..at + added,
        &mut cache.static_at,
        &mut cache.statics_flat,
        |line| &line.statics,
        |s| s.kind.index(),
        |l, s| StaticRef { unit: l.unit, mission: l.mission, controller: l.controller, s },
    );
}

/// `insert_statics` for the triggers.
fn insert_triggers(cat: &'static crate::cards::Catalog, cache: &mut LinesCache, at: usize, added: usize) {
    insert_grouped(
        cat,
        &cache.lines,
        at..at + added,
        &mut cache.trigger_at,
        &mut cache.triggers_flat,
        |line| &line.triggers,
        |t| t.on.index(),
        |l, t| TriggerRef { unit: l.unit, mission: l.mission, controller: l.controller, t, inst: l.inst },
    );
}

/// What lines `new` of `lines` (inserted there, the others grouped in `flat` already) carry,
/// each put into its kind's group after those of the lines before it: board order within a
/// kind, as `group_by_kind` orders it, with a count of the lines before them and no look at
/// the lines after (a character put into play is often the last of the board).
#[allow(clippy::too_many_arguments)]
fn insert_grouped<const N: usize, X: 'static, R: Copy>(
    cat: &'static crate::cards::Catalog,
    lines: &[crate::state::ActiveLine],
    new: std::ops::Range<usize>,
    at: &mut [u32; N],
    flat: &mut Vec<R>,
    items: impl Fn(&'static crate::cards::ContinuousLine) -> &'static [X],
    kind: impl Fn(&X) -> usize,
    make: impl Fn(&crate::state::ActiveLine, &'static X) -> R,
) {
    let line = |l: &crate::state::ActiveLine| &cat.cards[l.card as usize].continuous[l.line as usize];
    if lines[new.clone()].iter().all(|l| items(line(l)).is_empty()) {
        return; // (nothing of this sort added: the groups stand)
    }
    // how many of each kind the lines before carry: a new one goes after them in its group
    let mut before = [0u32; N];
    for l in &lines[..new.start] {
        for x in items(line(l)) {
            before[kind(x)] += 1;
        }
    }
    for l in &lines[new] {
        for x in items(line(l)) {
            let k = kind(x);
            flat.insert((at[k] + before[k]) as usize, make(l, x));
            before[k] += 1;
            for end in &mut at[k + 1..] {
                *end += 1;
            }
        }
    }
}

/// A counting sort of what the lines in force carry (`items`: their statics, or their triggers)
/// into `flat`, grouped by `kind` in board order within a kind: `at[k]..at[k + 1]` is kind k's
/// group (`at` has one entry more than there are kinds).
fn group_by_kind<const N: usize, X: 'static, R: Copy>(
    cat: &'static crate::cards::Catalog,
    lines: &[crate::state::ActiveLine],
    at: &mut [u32; N],
    flat: &mut Vec<R>,
    items: impl Fn(&'static crate::cards::ContinuousLine) -> &'static [X],
    kind: impl Fn(&X) -> usize,
    make: impl Fn(&crate::state::ActiveLine, &'static X) -> R,
) {
    let mut counts = [0u32; N];
    let mut any = None;
    for l in lines {
        let line = &cat.cards[l.card as usize].continuous[l.line as usize];
        for x in items(line) {
            counts[kind(x) + 1] += 1;
            any.get_or_insert_with(|| make(l, x));
        }
    }
    for k in 0..N - 1 {
        counts[k + 1] += counts[k];
    }
    flat.clear();
    // (every slot is written below: the first one found only holds the places)
    if let Some(x) = any {
        flat.resize(counts[N - 1] as usize, x);
    }
    let mut fill = counts;
    for l in lines {
        let line = &cat.cards[l.card as usize].continuous[l.line as usize];
        for x in items(line) {
            let k = kind(x);
            flat[fill[k] as usize] = make(l, x);
            fill[k] += 1;
        }
    }
    *at = counts;
}

/// Whether the statics and triggers in force, as grouped, are the lines in force grouped afresh
/// (the invariant checker's: the lines are brought up to some changes in place, `add_unit` …).
pub fn groups_match(g: &GameState) -> bool {
    let kept = lines(g);
    let mut fresh = LinesCache { lines: kept.lines.clone(), ..LinesCache::default() };
    regroup(g.cat, &mut fresh, Touched::ALL);
    let same_s = |a: &StaticRef, b: &StaticRef| {
        (a.unit, a.mission, a.controller) == (b.unit, b.mission, b.controller) && std::ptr::eq(a.s, b.s)
    };
    let same_t = |a: &TriggerRef, b: &TriggerRef| {
        (a.unit, a.mission, a.controller, a.inst) == (b.unit, b.mission, b.controller, b.inst) && std::ptr::eq(a.t, b.t)
    };
    kept.static_at == fresh.static_at
        && kept.trigger_at == fresh.trigger_at
        && kept.statics_flat.len() == fresh.statics_flat.len()
        && kept.triggers_flat.len() == fresh.triggers_flat.len()
        && kept.statics_flat.iter().zip(&fresh.statics_flat).all(|(a, b)| same_s(a, b))
        && kept.triggers_flat.iter().zip(&fresh.triggers_flat).all(|(a, b)| same_t(a, b))
}

/// The statics of one kind in force (a copy: the caller may change the board while it iterates).
pub fn of_kind(g: &GameState, kind: StaticKind) -> Vec<StaticRef> {
    lines(g).statics(kind).to_vec()
}

pub fn any_static(g: &GameState, kind: StaticKind) -> bool {
    !lines(g).statics(kind).is_empty()
}

pub fn triggers_of(g: &GameState, on: TriggerOn) -> Vec<TriggerRef> {
    lines(g).triggers(on).to_vec()
}

/// The context a static is read from: its card's controller, unit and mission.
pub fn static_ctx(unit: Uid, mi: i32, ctl: i32, g: &GameState) -> Ctx {
    let card = if unit >= 0 { g.unit(unit).map_or(-1, |u| u.top()) } else { -1 };
    Ctx::at(ctl, unit, mi, card)
}

/// ⧗ blank: an attachment makes this character's own effect text blank.
pub fn blanked(g: &GameState, u: &Unit) -> bool {
    u.attachments.iter().any(|&a| !g.att_is_hidden(a) && g.card(a).has_own_static(StaticKind::Blank))
}

/// Groups and keywords the face-up attachments of `u` add ("also considered …").
pub fn granted(g: &GameState, u: &Unit) -> impl Iterator<Item = Grant> {
    let cards: Vec<&'static Card> =
        u.attachments.iter().filter(|&&a| !g.att_is_hidden(a)).map(|&a| g.card(a)).collect();
    cards.into_iter().flat_map(|c| c.grants.iter().copied())
}

pub fn has_group(g: &GameState, u: &Unit, group: GroupId) -> bool {
    if u.hidden {
        return false;
    }
    if g.unit_card(u).group == Some(group) {
        return true;
    }
    !u.attachments.is_empty() && granted(g, u).any(|x| x == Grant::Group(group))
}

pub fn has_keyword(g: &GameState, u: &Unit, kw: KeywordId) -> bool {
    if u.hidden {
        return false;
    }
    if g.unit_card(u).has_keyword(kw) {
        return true;
    }
    !u.attachments.is_empty() && granted(g, u).any(|x| x == Grant::Keyword(kw))
}

/// The statics of one kind of a character in play: its own (unless blanked) and its attachments'.
pub fn unit_statics(g: &GameState, u: &Unit, kind: StaticKind) -> Vec<&'static Static> {
    let mut out: Vec<&'static Static> = Vec::new();
    if !blanked(g, u) {
        out.extend(g.unit_card(u).own_statics(kind));
    }
    for &a in &u.attachments {
        if !g.att_is_hidden(a) {
            out.extend(g.card(a).own_statics(kind));
        }
    }
    out
}

pub fn unit_has_static(g: &GameState, u: &Unit, kind: StaticKind) -> bool {
    (!blanked(g, u) && g.unit_card(u).has_own_static(kind))
        || u.attachments.iter().any(|&a| !g.att_is_hidden(a) && g.card(a).has_own_static(kind))
}

#[cfg(test)]
mod tests {
    use crate::cards::Catalog;
    use crate::rng::PyRandom;
    use crate::setup::GameDeck;

    /// A character put into play or revealed has its statics and triggers put into their groups
    /// in place (`add_unit`): after every decision of random games on random decks of the whole
    /// catalog, the groups are the lines in force grouped afresh (the invariant checker's
    /// `groups_match`, read whenever the lines are up to the board; the checker also holds a
    /// settling skipped as having nothing to settle to a board with no line of a settled kind).
    #[test]
    fn a_character_s_lines_join_their_groups_in_place() {
        let cat = Catalog::bundled();
        let mut rng = PyRandom::new(31);
        let decks: Vec<GameDeck> = (0..16).map(|_| GameDeck::random(cat, &mut rng, |_| true, String::new())).collect();
        let pairs: Vec<(usize, usize)> = (0..200).map(|i| (i % 16, (i * 5 + 3) % 16)).collect();
        let seeds: Vec<i128> = (0..200).collect();
        let run = crate::play::random_games(cat, &decks, &pairs, &seeds, true);
        assert!(run.failures.is_empty(), "{:?}", &run.failures[..run.failures.len().min(3)]);
        assert!(run.decisions > 10_000, "{} decisions", run.decisions);
    }
}
