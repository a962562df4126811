//! Power: core stats plus every static modifier in force, never below 0; each side's total in a
//! mission; who would win a mission now.
//!
//! The Power of every character is worked out as one table, memoised until the board or any
//! Power token changes, or the Edge, an empty hand or the evaluation phase when a static's
//! condition read it while the table was filled (`state::PowerMemoKey`): those are everything a
//! static's target or condition reads. The invariant checker compares the memo with a fresh
//! computation ([`power_now`]).
//!
//! A filling does not work out again what a static that reads only its own mission's characters
//! did while that mission stands: its result is kept, in a table of the thread, by the mission's
//! stamp (`GameState::stamps`, drawn fresh at every change of the mission), which copies of the
//! game share until one of them changes the mission.

use std::sync::Arc;

use crate::effects::lines::{self, blanked, static_ctx};
use crate::effects::selectors::{
    Walk, card_fits, condition, core_power, every_candidate_fits, for_each_candidate, matches, matches_in, number,
    select, selected_upto,
};
use crate::language::{Condition, CountForm, Number, Selector, Side, Static, StaticKind, Where};
use crate::state::{Ctx, GameState, Inst, Phase, PowerMemoKey, PowerTable, RANK_BONUS, STAMPED, Uid, Unit, reads};

/// The key of a table filled now whose statics read `read` of the Edge, the hands and the phase.
fn key(g: &GameState, read: u8) -> PowerMemoKey {
    PowerMemoKey {
        board: g.board_version,
        tokens: g.token_version,
        reads: read,
        edge: g.edge,
        empty: [g.players[0].hand.is_empty(), g.players[1].hand.is_empty()],
        evaluating: g.phase == Phase::Evaluate,
    }
}

/// Whether a table filled for `k` is the board's now: the same board and tokens, and the same
/// of what its statics read (a pass that only moves the Edge, the start of the scoring, a hand
/// emptied: none of them fills the table again unless a static in force reads it).
#[inline(always)]
fn valid(g: &GameState, k: &PowerMemoKey) -> bool {
    k.board == g.board_version
        && k.tokens == g.token_version
        && (k.reads == 0
            || ((k.reads & reads::EDGE == 0 || k.edge == g.edge)
                && (k.reads & reads::HANDS == 0
                    || k.empty == [g.players[0].hand.is_empty(), g.players[1].hand.is_empty()])
                && (k.reads & reads::EVALUATING == 0 || k.evaluating == (g.phase == Phase::Evaluate))))
}

/// What the Power cache holds while its table is filled (a shared empty table: no allocation).
static EMPTY: std::sync::LazyLock<Arc<PowerTable>> = std::sync::LazyLock::new(Default::default);

/// The Power of the board as it stands, computed once per board version (borrowed: drop it
/// before filling the table in). The table is filled in its own buffers when no copy of the game
/// shares them.
#[inline(always)]
fn memo(g: &GameState) -> std::cell::Ref<'_, Arc<PowerTable>> {
    if !g.power_key.get().is_some_and(|k| valid(g, &k)) {
        refill(g);
    }
    g.power_cache.borrow()
}

/// The table filled again for the board as it stands (out of line: most looks at the memo find
/// it filled, and do not pay for this one's registers).
#[inline(never)]
#[cold]
fn refill(g: &GameState) {
    // taken out while it is filled: what the statics read never sees a half-made table
    let mut t = std::mem::replace(&mut *g.power_cache.borrow_mut(), Arc::clone(&EMPTY));
    // what the statics' conditions read while the table is filled (a filling inside it, asked by
    // a condition, adds its own)
    let before = g.power_reads.replace(0);
    match Arc::get_mut(&mut t) {
        Some(mine) => fill(g, mine),
        None => {
            // (shared with a copy of the game: filled in a table of its own)
            let mut own = PowerTable::default();
            fill(g, &mut own);
            t = Arc::new(own);
        }
    }
    let read = g.power_reads.get();
    g.power_reads.set(before | read);
    *g.power_cache.borrow_mut() = t;
    g.power_key.set(Some(key(g, read)));
}

/// Current Power of a character (in play, or a ghost an effect still looks at).
pub fn power(g: &GameState, u: &Unit) -> i64 {
    power_in(g, &memo(g), u)
}

/// The Power table of the board as it stands, for a reader that asks the Power of several
/// characters in a row ([`power_in`]) with one look at the memo. (Borrowed: drop it before the
/// game changes.)
pub fn table(g: &GameState) -> std::cell::Ref<'_, Arc<PowerTable>> {
    memo(g)
}

/// `power`, read in `t`, the table of `g` as it stands ([`table`]).
pub fn power_in(g: &GameState, t: &PowerTable, u: &Unit) -> i64 {
    if let Some(p) = t.power.get(u.uid as usize)
        && g.in_play(u.uid)
    {
        return *p;
    }
    power_now(g, u)
}

pub fn power_of(g: &GameState, uid: i32) -> i64 {
    power(g, g.u(uid))
}

/// The statics of one kind in force, each with its context.
fn with_ctx(g: &GameState, kind: StaticKind) -> Vec<(Ctx, &'static Static)> {
    lines::lines(g).statics(kind).iter().map(|r| (static_ctx(r.unit, r.mission, r.controller, g), r.s)).collect()
}

/// The Power of every character in play at once, into `t` (its buffers reused).
#[inline(never)]
fn fill(g: &GameState, t: &mut PowerTable) {
    // (not cleared: every character in play is written below, and a reader trusts an entry only
    // for a character in play)
    let power = &mut t.power;
    if power.len() < g.units.len() {
        power.resize(g.units.len(), 0);
    }
    let lines = lines::lines(g);
    let zero = lines.statics(StaticKind::PowerZero);
    let mods = lines.statics(StaticKind::Power);
    // with no side Power static in force a side's total is its characters' and the mission's
    // attachments' Power: worked out here at once (else when first asked)
    let eager = lines.statics(StaticKind::SidePower).is_empty();
    let zeroed = &mut t.zeroed;
    zeroed.clear();
    if zero.is_empty() && mods.is_empty() {
        // no Power static in force: every character's Power in one walk of the board
        drop(lines);
        walk_sides(g, power, &mut t.sides, eager, |_, raw| raw.max(0));
        return;
    }
    // the statics first (they read the board, never the table): the characters each zeroes, and
    // what each adds to the characters it hits (`delta`, by uid, zero between fillings); then
    // one walk adds each character's printed Power, tokens and attachments, and clamps
    let delta = &mut t.delta;
    if delta.len() < g.units.len() {
        delta.resize(g.units.len(), 0);
    }
    for r in zero {
        let ctx = static_ctx(r.unit, r.mission, r.controller, g);
        if condition(g, &ctx, r.s.cond.as_ref(), true) {
            static_targets(g, &ctx, r.s, |x| zeroed.push(x));
        }
    }
    let hit = &mut t.hit;
    hit.clear();
    // one context for every static, its place set for each as `static_ctx` makes it (a static's
    // context holds nothing else: no remembered value, no tie)
    let mut ctx = Ctx::at(-1, -1, -1, -1);
    // the missions' stamps, read when a static that reads its own mission alone is first met
    let mut stamps = None;
    for r in mods {
        let s = r.s;
        let from = hit.len();
        ctx.player = r.controller;
        ctx.source = r.unit;
        ctx.mission = r.mission;
        ctx.card = if r.unit >= 0 { g.unit(r.unit).map_or(-1, |u| u.top()) } else { -1 };
        let n = if s.kept && (0..STAMPED as i32).contains(&r.mission) {
            let stamp = stamps.get_or_insert_with(|| g.current_stamps())[r.mission as usize];
            let key = Kept::key(stamp, r);
            // (held while the static is worked out: it reads no Power, so no filling inside it
            // looks at the kept statics)
            KEPT.with_borrow_mut(|k| {
                if k.is_empty() {
                    k.resize_with(KEPT_SLOTS, || Kept::EMPTY);
                }
                let e = &mut k[key.slot()];
                if e.key == key {
                    hit.extend_from_slice(&e.hits);
                    return e.n;
                }
                let n = static_does(g, &ctx, s, hit);
                e.key = key;
                e.n = n;
                e.hits.clear();
                e.hits.extend_from_slice(&hit[from..]);
                n
            })
        } else {
            static_does(g, &ctx, s, hit)
        };
        for &x in &hit[from..] {
            delta[x as usize] += n;
        }
    }
    drop(lines);
    let zeroed = &t.zeroed;
    // (as long as the units, as the walk cuts the table: a uid checked once indexes all three)
    let added = &delta[..g.units.len()];
    if zeroed.is_empty() {
        // (the common case: no character zeroed, one loop without the check)
        walk_sides(g, power, &mut t.sides, eager, |uid, raw| (raw + added[uid as usize]).max(0));
    } else {
        walk_sides(g, power, &mut t.sides, eager, |uid, raw| {
            let p = raw + added[uid as usize];
            if p < 0 || zeroed.contains(&uid) { 0 } else { p }
        });
    }
    for &x in hit.iter() {
        delta[x as usize] = 0;
    }
}

/// What Power static `s` (seen from `ctx`) adds to each character it applies to, the characters
/// pushed on `hit` (0 and none when its condition fails).
#[inline(always)]
fn static_does(g: &GameState, ctx: &Ctx, s: &Static, hit: &mut Vec<Uid>) -> i64 {
    // (no condition: no call)
    if s.cond.is_some() && !condition(g, ctx, s.cond.as_ref(), true) {
        return 0;
    }
    let from = hit.len();
    static_targets(g, ctx, s, |x| hit.push(x));
    if hit.len() == from {
        return 0;
    }
    match &s.opts.per {
        // (how many only: counted, no list made)
        Some(per) => s.n.as_int().unwrap_or(0) * selected_upto(g, ctx, per, true, usize::MAX) as i64,
        None => match s.n {
            // (a plain number, most statics' own: read in place)
            Number::Int(k) => k,
            _ => number(g, ctx, &s.n, true),
        },
    }
}

/// What a static that reads its own mission alone did, kept by its mission's stamp: every
/// state that shows that stamp shows that mission, so the static does there what it did here.
struct Kept {
    key: KeptKey,
    /// what it adds to each character it hits (0 if its condition failed or it hit nobody)
    n: i64,
    hits: Vec<Uid>,
}

/// Which static, and which mission as it stood: its mission's stamp, the static, its source and
/// its controller (the source, its card and the mission's characters are the stamp's).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct KeptKey {
    stamp: u64,
    s: usize,
    unit: Uid,
    controller: i32,
}

/// How many statics are kept (in one thread): a static's slot is a hash of its key.
const KEPT_SLOTS: usize = 256;

impl Kept {
    const EMPTY: Kept = Kept { key: KeptKey { stamp: 0, s: 0, unit: 0, controller: 0 }, n: 0, hits: Vec::new() };
    fn key(stamp: u64, r: &crate::state::StaticRef) -> KeptKey {
        KeptKey { stamp, s: r.s as *const Static as usize, unit: r.unit, controller: r.controller }
    }
}

impl KeptKey {
    #[inline(always)]
    fn slot(&self) -> usize {
        let h = (self.stamp ^ (self.s as u64 >> 3) ^ ((self.unit as u64) << 8)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 56) as usize % KEPT_SLOTS
    }
}

thread_local! {
    /// The statics kept in this thread, one a slot (stamp 0, never drawn: an empty slot), made
    /// when first used (on the heap: a Python extension's threads have little static room).
    static KEPT: std::cell::RefCell<Vec<Kept>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether Power static `s` reads nothing but the characters of its own mission (their cards,
/// state, tokens and attachments, its source among them) and the place it stands in: no other
/// mission, hand, discard, Edge, phase, remembered value, pick, play of the round or Power
/// another static gives. What it does is then worked out from its mission's stamp alone
/// (`GameState::stamps`). A selector's or condition's fields are let through only when they are
/// known to read so little; any other field set keeps the static out.
pub fn reads_own_mission(s: &Static) -> bool {
    s.kind == StaticKind::Power
        && matches!(s.n, Number::Int(_))
        && s.target.as_ref().is_none_or(own_mission_selector)
        && s.opts.per.as_ref().is_none_or(own_mission_selector)
        && s.cond.as_ref().is_none_or(own_mission_condition)
}

/// A selector that looks only at the characters of its own mission, each at itself (its card,
/// whether hidden or upgraded, its tokens and core Power, its attachments' cards, its owner and
/// controller) or at its own mission's characters, and at the static's source.
fn own_mission_selector(sel: &Selector) -> bool {
    if sel.where_ != Where::This && !(sel.self_ && sel.where_ == Where::InPlay) {
        return false;
    }
    if !matches!(sel.count, CountForm::One | CountForm::All) {
        return false;
    }
    let mut rest = sel.clone();
    rest.side = Side::Any;
    rest.self_ = false;
    rest.other = false;
    rest.where_ = Where::InPlay;
    rest.hidden = None;
    rest.group = None;
    rest.keyword = None;
    rest.not_keyword = None;
    rest.names.clear();
    rest.not_name.clear();
    rest.power_max = None;
    rest.power_min = None;
    rest.power_eq = None;
    rest.cost_max = None;
    rest.cost_min = None;
    rest.printed_cost_max = None;
    rest.upgraded = None;
    rest.has_tokens = None;
    rest.count = CountForm::One;
    rest.power_lt_self = false;
    rest.power_le_self = false;
    rest.not_group = None;
    rest.name_has = None;
    rest.name_has_text = None;
    // (an attachment's card is matched against it: no board read)
    rest.with_attachment = None;
    rest.controlled = None;
    rest.owned = None;
    rest.discounted = false;
    rest.unique_name = false;
    rest.sole = false;
    rest.printed_power_min = None;
    rest.printed_power_lt_self = false;
    rest.power_eq_self = false;
    rest.card_type = None;
    rest.keywords.clear();
    rest.extra = false;
    rest.asks = Selector::ASKS_ALL;
    rest == Selector::default()
}

/// A condition on its own mission's characters alone (see `own_mission_selector`).
fn own_mission_condition(c: &Condition) -> bool {
    let sel_ok = |s: &Option<Selector>| s.as_ref().is_none_or(own_mission_selector);
    if !(sel_ok(&c.exists) && sel_ok(&c.absent) && sel_ok(&c.only)) {
        return false;
    }
    let mut rest = c.clone();
    rest.exists = None;
    rest.absent = None;
    rest.only = None;
    rest.fewer_nonhidden_than_enemy = false;
    rest.duel = None;
    rest.not_duel = None;
    // (the source's attachments' cards are matched against it)
    rest.self_attached = None;
    rest.extra = false;
    rest == Condition::default()
}

/// A character's printed Power (0 face down), its tokens and its attachments' Power.
#[inline(always)]
fn raw_power(g: &GameState, u: &Unit) -> i64 {
    let mut p = (if u.hidden { 0 } else { g.unit_card(u).power() }) + u.tokens;
    if !u.attachments.is_empty() {
        // whether the host's own ⧗ multipliers apply, read once for all its attachments
        let times = multiplies(g, u);
        for &a in &u.attachments {
            p += attachment_power_times(g, a, times.then_some(u));
        }
    }
    p
}

/// Whether `host`'s own ⧗ multipliers of its attachments' Power apply (it has some, face-up, not
/// blank).
fn multiplies(g: &GameState, host: &Unit) -> bool {
    !host.hidden && g.unit_card(host).has_own_static(StaticKind::AttachmentPower) && !blanked(g, host)
}

/// The walk of a Power filling: each character's Power (`char_power` of its printed Power, tokens
/// and attachments) into `power`; with `eager`, each side's total (its characters' and the
/// mission's attachments') into `sides`, a mission a row.
#[inline(always)]
fn walk_sides(
    g: &GameState,
    power: &mut [i64],
    sides: &mut Vec<[Option<i64>; 2]>,
    eager: bool,
    char_power: impl Fn(Uid, i64) -> i64,
) {
    sides.clear();
    // (each character read straight off the units, handed to `char_power`: one lookup a character)
    let units = &g.units[..];
    // (as long as the units: a uid that indexes one indexes the other without a second check)
    let power = &mut power[..units.len()];
    let cards = &g.cat.cards[..];
    // a character or a mission with attachments is left to a second walk: their Power is worked
    // out by a call, and a call inside this loop, rare as it is, would keep the loop's values on
    // the stack for every character
    let mut attached = false;
    for m in &g.missions {
        let mut totals = [None, None];
        for (si, side) in m.sides.iter().enumerate() {
            let mut total = 0;
            for &uid in side {
                let u = units[uid as usize].as_ref().expect("a unit in play");
                if !u.attachments.is_empty() {
                    attached = true;
                    continue;
                }
                let printed = if u.hidden { 0 } else { cards[u.card as usize].power() };
                let p = char_power(uid, printed + u.tokens);
                power[uid as usize] = p;
                total += p;
            }
            attached |= eager && !m.attachments[si].is_empty();
            if eager {
                totals[si] = Some(total);
            }
        }
        sides.push(totals);
    }
    if attached {
        for (mi, m) in g.missions.iter().enumerate() {
            for (si, side) in m.sides.iter().enumerate() {
                let mut more = 0;
                for &uid in side {
                    let u = units[uid as usize].as_ref().expect("a unit in play");
                    if u.attachments.is_empty() {
                        continue;
                    }
                    let p = char_power(uid, raw_power(g, u));
                    power[uid as usize] = p;
                    more += p;
                }
                if eager {
                    for &a in &m.attachments[si] {
                        more += attachment_power(g, a, None);
                    }
                    if let Some(t) = &mut sides[mi][si] {
                        *t += more;
                    }
                }
            }
        }
    }
}

/// The characters in play that static `s` applies to, one at a time.
fn static_targets(g: &GameState, ctx: &Ctx, s: &Static, mut f: impl FnMut(i32)) {
    let Some(sel) = &s.target else {
        if g.in_play(ctx.source) {
            f(ctx.source);
        }
        return;
    };
    if ctx.player < 0 && sel.side != crate::language::Side::Any {
        return;
    }
    if sel.pick.is_some() {
        select(g, ctx, sel, true).into_iter().for_each(f);
        return;
    }
    if every_candidate_fits(sel) {
        // (every character in the places it names: no look at each)
        for_each_candidate(g, ctx, sel, f);
        return;
    }
    let walk = Walk::default();
    for_each_candidate(g, ctx, sel, |x| {
        if matches_in(g, ctx, sel, g.u(x), true, &walk) {
            f(x)
        }
    });
}

/// Power computed from scratch (no memo).
pub fn power_now(g: &GameState, u: &Unit) -> i64 {
    let mut p = (if u.hidden { 0 } else { g.unit_card(u).power() }) + u.tokens;
    let zero = with_ctx(g, StaticKind::PowerZero);
    let mods = with_ctx(g, StaticKind::Power);
    if zero.is_empty() && mods.is_empty() && u.attachments.is_empty() {
        return p.max(0);
    }
    for (ctx, s) in &zero {
        if static_hits(g, ctx, s, u) && condition(g, ctx, s.cond.as_ref(), true) {
            return 0;
        }
    }
    for (ctx, s) in &mods {
        if !static_hits(g, ctx, s, u) || !condition(g, ctx, s.cond.as_ref(), true) {
            continue;
        }
        p += match &s.opts.per {
            Some(per) => s.n.as_int().unwrap_or(0) * select(g, ctx, per, true).len() as i64,
            None => number(g, ctx, &s.n, true),
        };
    }
    for &a in &u.attachments {
        p += attachment_power(g, a, Some(u));
    }
    p.max(0)
}

/// Whether static `s` (seen from `ctx`) applies to unit `u`.
pub fn static_hits(g: &GameState, ctx: &Ctx, s: &Static, u: &Unit) -> bool {
    let Some(sel) = &s.target else {
        return u.uid == ctx.source;
    };
    if ctx.player < 0 && sel.side != crate::language::Side::Any {
        return false;
    }
    if sel.pick.is_some() {
        return select(g, ctx, sel, true).contains(&u.uid);
    }
    matches(g, ctx, sel, u, true)
}

/// The Power an attachment adds: printed (or overridden), 0 face-down, times ⧗ multipliers.
pub fn attachment_power(g: &GameState, a: Inst, host: Option<&Unit>) -> i64 {
    attachment_power_times(g, a, host.filter(|h| multiplies(g, h)))
}

/// `attachment_power`, the host's multipliers applied when `times` names it.
fn attachment_power_times(g: &GameState, a: Inst, times: Option<&Unit>) -> i64 {
    if g.att_is_hidden(a) {
        return 0;
    }
    let mut p = g.att_power_of(a).unwrap_or_else(|| g.card(a).power());
    if let Some(host) = times {
        for s in g.unit_card(host).own_statics(StaticKind::AttachmentPower) {
            if s.opts.filter.as_ref().is_none_or(|f| card_fits(f, g.card(a))) {
                p *= s.opts.times.unwrap_or(2);
            }
        }
    }
    p
}

/// Total Power of one side of a mission (characters, plus attachments on the mission).
pub fn side_power(g: &GameState, mi: usize, player: i32) -> i64 {
    let t = memo(g);
    if let Some(Some(v)) = t.sides.get(mi).map(|s| s[player as usize]) {
        return v;
    }
    let before = g.power_reads.replace(0);
    let v = side_total(g, mi, player, &t);
    let read = g.power_reads.get();
    g.power_reads.set(before | read);
    drop(t); // (the memo must be unshared for make_mut to fill it in place)
    if let Some(k) = g.power_key.get()
        && k.reads | read != k.reads
    {
        // the table now holds a total that read more: keyed by that too, as it stands now (the
        // table is valid now, so the rest of the key agrees with the state)
        g.power_key.set(Some(key(g, k.reads | read)));
    }
    let mut cache = g.power_cache.borrow_mut();
    let table = Arc::make_mut(&mut cache);
    if table.sides.len() <= mi {
        table.sides.resize(mi + 1, [None, None]);
    }
    table.sides[mi][player as usize] = Some(v);
    v
}

/// Both sides' totals of mission `mi` when the Power table already holds them (one look at the memo).
fn both_sides(g: &GameState, mi: usize) -> Option<[i64; 2]> {
    match memo(g).sides.get(mi) {
        Some([Some(a), Some(b)]) => Some([*a, *b]),
        _ => None,
    }
}

/// `side_power` of every mission: (`player`'s, the opponent's).
pub fn side_powers(g: &GameState, player: i32) -> (Vec<i64>, Vec<i64>) {
    let n = g.missions.len();
    let (mut mine, mut theirs) = (vec![0; n], vec![0; n]);
    side_powers_into(g, player, &mut mine, &mut theirs);
    (mine, theirs)
}

/// `side_powers` into two slices as long as the missions in play.
pub fn side_powers_into(g: &GameState, player: i32, mine: &mut [i64], theirs: &mut [i64]) {
    let n = g.missions.len();
    {
        // the table worked them all out at once (no side static in force): read them in one look
        let t = memo(g);
        if t.sides.len() >= n && t.sides[..n].iter().all(|s| s[0].is_some() && s[1].is_some()) {
            let p = player as usize;
            for (mi, s) in t.sides[..n].iter().enumerate() {
                mine[mi] = s[p].expect("checked");
                theirs[mi] = s[1 - p].expect("checked");
            }
            return;
        }
    }
    for (mi, x) in mine.iter_mut().enumerate() {
        *x = side_power(g, mi, player);
    }
    for (mi, x) in theirs.iter_mut().enumerate() {
        *x = side_power(g, mi, 1 - player);
    }
}

fn side_total(g: &GameState, mi: usize, player: i32, t: &PowerTable) -> i64 {
    let mut found = 0;
    for &uid in &g.missions[mi].sides[player as usize] {
        found += match t.power.get(uid as usize) {
            Some(p) => *p,
            _ => power(g, g.u(uid)),
        };
    }
    for &a in &g.missions[mi].attachments[player as usize] {
        found += attachment_power(g, a, None);
    }
    for r in lines::lines(g).statics(StaticKind::SidePower).iter() {
        if r.mission != mi as i32 || (r.controller != -1 && r.controller != player) {
            continue;
        }
        let ctx = Ctx::at(player, r.unit, mi as i32, -1);
        if condition(g, &ctx, r.s.cond.as_ref(), true) {
            found += number(g, &ctx, &r.s.n, true);
        }
    }
    found
}

/// Who would win mission `mi` now: higher Power, ties to the Edge, at least 1 Power.
pub fn mission_leader(g: &GameState, mi: usize) -> i32 {
    let [a, b] = side_totals(g, mi);
    leader_of(g, a, b)
}

/// Both sides' totals of mission `mi` (player 0's, player 1's): one look at the memo when the
/// table holds them.
pub fn side_totals(g: &GameState, mi: usize) -> [i64; 2] {
    both_sides(g, mi).unwrap_or_else(|| [side_power(g, mi, 0), side_power(g, mi, 1)])
}

/// Who would win a mission whose sides total `a` (player 0) and `b` (player 1).
pub fn leader_of(g: &GameState, a: i64, b: i64) -> i32 {
    if a == b {
        return if a >= 1 { g.edge } else { -1 };
    }
    if a > b { 0 } else { 1 }
}

/// `mission_points` of every mission in play, into `out` (as long as the missions): the lines in
/// force looked at once for all of them (a judgement of the board asks every mission's points at
/// every decision of every playout).
pub fn mission_points_into(g: &GameState, out: &mut [i64]) {
    let lines = lines::lines(g);
    let extra = lines.statics(StaticKind::MissionPoints);
    if extra.is_empty() {
        // (no mission-points static in force, the usual case: each mission's card and rank, read
        // in this loop)
        for (x, m) in out.iter_mut().zip(&g.missions) {
            *x = printed_points(g, m);
        }
        return;
    }
    for (mi, x) in out.iter_mut().enumerate().take(g.missions.len()) {
        *x = points_with(g, mi, extra);
    }
}

/// A mission's points before any static: its card's and its rank's bonus.
#[inline(always)]
fn printed_points(g: &GameState, m: &crate::state::Mission) -> i64 {
    g.card(m.card).points.unwrap_or(0) + RANK_BONUS[m.rank]
}

pub fn mission_points(g: &GameState, mi: usize) -> i64 {
    // (with no mission-points static in force, read in place: no call)
    let lines = lines::lines(g);
    let extra = lines.statics(StaticKind::MissionPoints);
    if extra.is_empty() { printed_points(g, &g.missions[mi]) } else { points_with(g, mi, extra) }
}

/// Mission `mi`'s points: its card's, its rank's bonus and what the mission-points statics in
/// force (`extra`) add to it.
fn points_with(g: &GameState, mi: usize, extra: &[crate::state::StaticRef]) -> i64 {
    let m = &g.missions[mi];
    let mut pts = printed_points(g, m);
    for r in extra {
        if r.mission == mi as i32 {
            pts += number(g, &static_ctx(r.unit, r.mission, r.controller, g), &r.s.n, false);
        }
    }
    pts
}

pub fn core(g: &GameState, uid: i32) -> i64 {
    core_power(g, g.u(uid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Catalog;
    use crate::state::reads;

    /// One mission (`mission`, a catalog id) in round 2, player 0 with two characters there and
    /// player 1 with one, the Edge player 1's, player 0 to act.
    fn board(mission: &str) -> GameState {
        let json = format!(
            r#"{{
            "cards": ["KS-009", "KS-086", "SS-020", "{mission}", "SS-019", "SS-048"],
            "owner": [0, 0, 1, 0, 0, 1],
            "players": [
                {{"hand": [4], "deck": [], "chakra": 5, "score": 0}},
                {{"hand": [5], "deck": [], "chakra": 5, "score": 0}}
            ],
            "units": [
                {{"uid": 1, "stack": [0], "owner": 0, "controller": 0, "mission": 0}},
                {{"uid": 2, "stack": [1], "owner": 0, "controller": 0, "mission": 0}},
                {{"uid": 3, "stack": [2], "owner": 1, "controller": 1, "mission": 0}}
            ],
            "missions": [{{"card": 3, "rank": 1, "sides": [[1, 2], [3]]}}],
            "round": 2, "phase": "action", "edge": 1, "current": 0,
            "round_scores": [[0, 0], [0, 0]]
        }}"#
        );
        crate::scenario::from_json(Catalog::bundled(), &json).expect("the board")
    }

    fn powers(g: &GameState) -> Vec<(i64, i64)> {
        (1..=3).map(|uid| (power_of(g, uid), power_now(g, g.u(uid)))).collect()
    }

    /// The table is keyed by the Edge, the hands and the phase only as far as a static's
    /// condition read them: King of the Hill's +3 (a condition on the scoring) is filled again
    /// when the scoring starts; on a mission with no such static the table stands through a
    /// change of Edge, an emptied hand and the scoring.
    #[test]
    fn the_table_is_kept_while_what_its_statics_read_stands() {
        let mut g = board("SS-007-MMS");
        let before = powers(&g);
        assert!(before.iter().all(|(a, b)| a == b), "{before:?}");
        let k = g.power_key.get().expect("filled");
        assert_ne!(k.reads & reads::EVALUATING, 0, "King of the Hill reads the phase: {k:?}");
        g.phase = Phase::Evaluate; // (no version bumped)
        let scoring = powers(&g);
        assert!(scoring.iter().all(|(a, b)| a == b), "the table was not filled again: {scoring:?}");
        let gained: Vec<i64> = scoring.iter().zip(&before).map(|(s, b)| s.0 - b.0).collect();
        assert_eq!(gained.iter().filter(|&&x| x == 3).count(), 1, "{gained:?}");

        let mut g = board("KS-001-MMS");
        let before = powers(&g);
        let k = g.power_key.get().expect("filled");
        assert_eq!(k.reads, 0, "no static here reads the Edge, the hands or the phase");
        g.edge = 0;
        g.players[0].hand.clear();
        g.phase = Phase::Evaluate;
        assert_eq!(powers(&g), before);
        assert_eq!(g.power_key.get(), Some(k), "kept, not filled again");
        assert!(powers(&g).iter().all(|(a, b)| a == b));
    }
}
