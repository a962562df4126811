//! Legal decisions and their prices: every main action of the Action phase, where a card may be
//! played, what it costs (face-up, hidden, as an upgrade, revealed), and the chakra income.

use crate::attachments;
use crate::effects::lines::{self, static_ctx, unit_statics};
use crate::effects::selectors::{card_fits, condition, matches, number};
use crate::language::{CardTypeSel, Side, StaticKind};
use crate::power::mission_leader;
use crate::state::{Action, Ctx, GameState, Inst, Uid, Unit};

/// 5 + 1 per character you have in play (hidden included; a stack is one) + CHAKRA +X.
pub fn chakra_income(g: &GameState, player: i32) -> i64 {
    let mut n = 5 + g.missions.iter().map(|m| m.sides[player as usize].len() as i64).sum::<i64>();
    for r in lines::lines(g).statics(StaticKind::Chakra).iter() {
        let s = r.s;
        match s.opts.both {
            crate::language::Both::Losing => {
                let leader = mission_leader(g, r.mission as usize);
                if leader == -1 || leader == player {
                    continue;
                }
                n += number(g, &Ctx::at(player, -1, r.mission, -1), &s.n, false);
                continue;
            }
            crate::language::Both::No if r.controller != player => continue,
            _ => {}
        }
        let both = s.opts.both != crate::language::Both::No;
        let ctx = static_ctx(r.unit, r.mission, if both { player } else { r.controller }, g);
        if condition(g, &ctx, s.cond.as_ref(), true) {
            n += number(g, &ctx, &s.n, true);
        }
    }
    n
}

/// Whether the card changes its own cost (⧗ play_cost, or a "paying N less" line).
pub fn has_own_cost(g: &GameState, inst: Inst) -> bool {
    let c = g.card(inst);
    c.has_own_static(StaticKind::PlayCost) || !c.cheaper.is_empty()
}

/// The chakra to play `inst` face-up in mission `mi` (`base`: the difference for an upgrade;
/// `reveal`: the hidden character being revealed).
pub fn play_cost(g: &GameState, player: i32, inst: Inst, mi: i32, base: Option<i64>, reveal: Option<&Unit>) -> i64 {
    let card = g.card(inst);
    let mut cost = base.unwrap_or_else(|| card.cost());
    let lines = lines::lines(g);
    let cost_statics = &lines.statics(StaticKind::Cost);
    if cost_statics.is_empty()
        && !has_own_cost(g, inst)
        && reveal.is_none_or(|r| {
            r.attachments.is_empty()
                && !card.has_own_static(StaticKind::RevealCost)
                && lines.statics(StaticKind::RevealTax).is_empty()
        })
    {
        return cost.max(0);
    }
    let start = cost; // the rules' price: a cost static's minimum bounds its own reduction of it
    for r in cost_statics.iter() {
        let s = r.s;
        let Some(t) = &s.target else { continue };
        if r.mission != mi && !s.opts.anywhere {
            continue;
        }
        if (t.side == Side::Friendly && r.controller != player) || (t.side == Side::Enemy && r.controller == player) {
            continue;
        }
        if t.other && r.unit >= 0 && g.unit(r.unit).is_some_and(|u| u.top() == inst) {
            continue;
        }
        let want = t.card_type.unwrap_or(CardTypeSel::Character);
        let fits_type = want == CardTypeSel::Any
            || (want == CardTypeSel::Character && card.ctype == crate::cards::CardType::Character)
            || (want == CardTypeSel::Attachment && card.ctype == crate::cards::CardType::Attachment);
        if !fits_type || !card_fits(t, card) {
            continue;
        }
        let ctx = static_ctx(r.unit, r.mission, r.controller, g);
        if !condition(g, &ctx, s.cond.as_ref(), true) {
            continue;
        }
        let mut n = number(g, &ctx, &s.n, false);
        if n < 0
            && let Some(min) = s.opts.min
        {
            // "costs 1 less (min. 1)": lowers the price to no less than the minimum, never raises
            // one other effects made lower
            n = n.max((min - start).min(0));
        }
        cost += n;
    }
    if let Some(rev) = reveal {
        let own: Vec<&crate::language::Static> = if rev.attachments.is_empty() {
            card.own_statics(StaticKind::RevealCost).collect()
        } else {
            unit_statics(g, rev, StaticKind::RevealCost)
        };
        for s in own {
            let ctx = Ctx::at(player, rev.uid, mi, inst);
            if condition(g, &ctx, s.cond.as_ref(), false) {
                cost -= number(g, &ctx, &s.n, false).abs();
            }
        }
        for r in lines.statics(StaticKind::RevealTax).iter() {
            if r.mission == mi && r.controller >= 0 && r.controller != player {
                let ctx = static_ctx(r.unit, r.mission, r.controller, g);
                if condition(g, &ctx, r.s.cond.as_ref(), true) {
                    cost += number(g, &ctx, &r.s.n, false);
                }
            }
        }
    }
    if let Some(rev) = reveal
        && !rev.attachments.is_empty()
        && lines::blanked(g, rev)
    {
        return cost.max(0); // a blank text (SS-083) has no "costs less" of its own
    }
    for s in card.own_statics(StaticKind::PlayCost) {
        let ctx = Ctx::at(player, reveal.map_or(-1, |r| r.uid), mi, inst);
        if condition(g, &ctx, s.cond.as_ref(), false) {
            cost -= number(g, &ctx, &s.n, false).abs();
        }
    }
    for &(timing, n) in &card.cheaper {
        if timing != crate::cards::Timing::FirstStrike || g.players[player as usize].plays_this_round == 0 {
            cost -= n;
        }
    }
    cost.max(0)
}

/// Same name and a higher cost, or a card that may upgrade over this one (⧗ upgrade_over).
pub fn can_upgrade_over(g: &GameState, inst: Inst, u: &Unit, player: i32) -> bool {
    if u.hidden || u.controller != player || u.owner != player || u.controlled_by != -1 {
        return false;
    }
    let card = g.card(inst);
    let under = g.unit_card(u);
    if card.cost() <= under.cost() {
        return false;
    }
    if card.name_key == under.name_key {
        return true;
    }
    let ctx = Ctx::at(player, -1, u.mission, inst);
    card.own_statics(StaticKind::UpgradeOver).any(|s| {
        s.opts.over.as_ref().is_some_and(|o| matches(g, &ctx, o, u, false))
            && condition(g, &ctx, s.cond.as_ref(), false)
    })
}

/// An enemy static forbids this in mission `mi` (e.g. no hidden plays).
pub fn blocked_here(g: &GameState, player: i32, mi: i32, kind: StaticKind) -> bool {
    lines::lines(g).statics(kind).iter().any(|r| r.mission == mi && r.controller != player && r.controller >= 0)
}

/// A character named `key` on `player`'s side of mission `mi` (hidden ones count: their
/// controller knows them).
pub fn has_name_on_side(g: &GameState, mi: usize, player: i32, key: crate::names::NameId, except: Uid) -> bool {
    name_on_side(g, mi, player, key, except, false)
}

/// The same, counting only face-up characters when `face_up` (what the opponent can see).
pub fn name_on_side(
    g: &GameState,
    mi: usize,
    player: i32,
    key: crate::names::NameId,
    except: Uid,
    face_up: bool,
) -> bool {
    g.missions[mi].sides[player as usize].iter().any(|&x| {
        let u = g.u(x);
        x != except && g.unit_card(u).name_key == key && !(face_up && u.hidden)
    })
}

/// Where `inst` may be played: (mission, upgraded-over uid or -1, price).
pub fn place_options(
    g: &GameState,
    player: i32,
    inst: Inst,
    hidden: bool,
    discount: i64,
    here: i32,
) -> Vec<(i32, Uid, i64)> {
    let mut out = Vec::new();
    let card = g.card(inst);
    let chakra = g.players[player as usize].chakra;
    let key = card.name_key;
    let missions: Vec<usize> = if here < 0 { (0..g.missions.len()).collect() } else { vec![here as usize] };
    let only_winning = card.has_own_static(StaticKind::PlayOnlyWinning);
    for mi in missions {
        let side = &g.missions[mi].sides[player as usize];
        if hidden {
            if blocked_here(g, player, mi as i32, StaticKind::NoPlayHidden) {
                continue;
            }
            if !side.iter().any(|&x| g.unit_card(g.u(x)).name_key == key) {
                let price = (1 - discount).max(0);
                if price <= chakra {
                    out.push((mi as i32, -1, price));
                }
            }
            continue;
        }
        if only_winning && mission_leader(g, mi) != player {
            continue;
        }
        if !side.iter().any(|&x| g.unit_card(g.u(x)).name_key == key) {
            let price = (play_cost(g, player, inst, mi as i32, None, None) - discount).max(0);
            if price <= chakra {
                out.push((mi as i32, -1, price));
            }
        }
        for &x in side {
            let u = g.u(x);
            if can_upgrade_over(g, inst, u, player) {
                // the new card must not duplicate another character's name on this side
                if g.unit_card(u).name_key != key && side.iter().any(|&y| y != x && g.unit_card(g.u(y)).name_key == key)
                {
                    continue;
                }
                let diff = card.cost() - g.unit_card(u).cost();
                let price = (play_cost(g, player, inst, mi as i32, Some(diff), None) - discount).max(0);
                if price <= chakra {
                    out.push((mi as i32, u.uid, price));
                }
            }
        }
    }
    out
}

/// What `player` pays to reveal hidden `u` now (`extra`: an effect's surcharge), or None.
pub fn reveal_price(g: &GameState, player: i32, u: &Unit, extra: i64, plain: bool) -> Option<i64> {
    let key = g.unit_card(u).name_key;
    for &x in &g.missions[u.mission as usize].sides[player as usize] {
        let xu = g.u(x);
        if xu.uid != u.uid && !xu.hidden && g.unit_card(xu).name_key == key {
            return None;
        }
    }
    reveal_price_unnamed(g, player, u, extra, plain)
}

/// Whether a card prices its own reveal (⧗ play_cost, "paying less", ⧗ reveal_cost): without
/// that, an attachment or a static in force, a reveal costs the printed cost.
fn prices_own_reveal(card: &crate::cards::Card) -> bool {
    card.has_own_static(StaticKind::PlayCost) || !card.cheaper.is_empty() || card.has_own_static(StaticKind::RevealCost)
}

/// `reveal_price` of a character no other face-up character of the side shares a name with.
fn reveal_price_unnamed(g: &GameState, player: i32, u: &Unit, extra: i64, plain: bool) -> Option<i64> {
    let card = g.unit_card(u);
    let inst = u.top();
    let only_winning = card.has_own_static(StaticKind::PlayOnlyWinning);
    let priced = prices_own_reveal(card);
    // ("play only where winning" is its own text: a blank text, SS-083, has none)
    if only_winning
        && mission_leader(g, u.mission as usize) != player
        && (u.attachments.is_empty() || !lines::blanked(g, u))
    {
        return None;
    }
    let price = if plain && !priced && u.attachments.is_empty() {
        card.cost() + extra
    } else {
        play_cost(g, player, inst, u.mission, None, Some(u)) + extra
    };
    let price = price.max(0);
    if price <= g.players[player as usize].chakra { Some(price) } else { None }
}

/// Every main action of `player` now, with its price, in the order the engine offers them.
pub fn main_options(g: &GameState, player: i32) -> Vec<(Action, i64)> {
    let mut out = Vec::with_capacity(64);
    main_options_into(g, player, &mut out);
    out
}

/// `main_options` into `out` (emptied first: the engine hands it the buffer of the last decision).
#[inline(never)]
pub fn main_options_into(g: &GameState, player: i32, out: &mut Vec<(Action, i64)>) {
    out.clear();
    out.push((Action::Pass, 0));
    let p = &g.players[player as usize];
    let chakra = p.chakra;
    let n = g.missions.len();
    let lines = lines::lines(g);
    let any_no_hidden = !lines.statics(StaticKind::NoPlayHidden).is_empty();
    let hidden_ok =
        |mi: usize| chakra >= 1 && (!any_no_hidden || !blocked_here(g, player, mi as i32, StaticKind::NoPlayHidden));
    let any_cost_static = !lines.statics(StaticKind::Cost).is_empty();
    let mut leaders = [None::<i32>; 8];
    // the player's side of each mission, read once: every character's name, and those of them
    // that may be upgraded over (face-up, owned and controlled by the player, not taken) with
    // their printed cost
    let mut sides = Sides::new(player);
    // a player without chakra (a quarter of the decisions of a playout: most of them are passes)
    // plays nothing face-down, and a card without a price of its own nothing that costs more
    // than its chakra: its sides are read off the board where they are read (a few cards, a few
    // hidden characters) instead of summarised
    let broke = chakra < 1 && !any_cost_static;
    if !broke {
        sides.read(g);
    }
    // one bit a version of character met in the hand (its number mod 64): a version not met before
    // needs no look back for a copy
    let mut met = 0u64;
    // the hand's attachments, one bit a place (`attachments::attachment_options` reads past 64)
    let mut attachments_in_hand = 0u64;
    for (hi, &inst) in p.hand.iter().enumerate() {
        let version = g.cards[inst as usize];
        let card = &g.cat.cards[version as usize];
        if !card.is_character() {
            if card.ctype == crate::cards::CardType::Attachment && hi < 64 {
                attachments_in_hand |= 1 << hi;
            }
            continue;
        }
        let bit = 1u64 << (version % 64);
        if met & bit != 0 && p.hand[..hi].iter().any(|&c| g.cards[c as usize] == version) {
            continue; // two copies of one version give the same actions: offer them once
        }
        met |= bit;
        let key = card.name_key;
        let cost = card.cost();
        let only_winning = card.has_own_static(StaticKind::PlayOnlyWinning);
        let own_cost = has_own_cost(g, inst);
        let other_names = card.has_own_static(StaticKind::UpgradeOver);
        let priced = any_cost_static || own_cost;
        if broke && !priced && cost > chakra {
            continue; // (its face-up plays and upgrades cost more, and it cannot go face-down)
        }
        for mi in 0..n {
            let winning = if only_winning {
                let leader = match leaders.get_mut(mi) {
                    Some(slot) => *slot.get_or_insert_with(|| mission_leader(g, mi)),
                    None => mission_leader(g, mi),
                };
                leader == player
            } else {
                true
            };
            let named = sides.named(g, mi, key);
            if !named {
                if winning {
                    let price = if priced { play_cost(g, player, inst, mi as i32, None, None) } else { cost };
                    if price <= chakra {
                        out.push((Action::Play(inst, mi as i32, false, -1), price));
                    }
                }
                if hidden_ok(mi) {
                    out.push((Action::Play(inst, mi as i32, true, -1), 1));
                }
            }
            if !winning || (!named && !other_names) {
                continue; // (an upgrade is over the same name, or another with ⧗ upgrade_over)
            }
            // your own face-up characters you may upgrade over
            sides.each_upgradable(g, mi, |x, under_key, under_cost| {
                if cost <= under_cost {
                    return;
                }
                if under_key != key {
                    // another name: only with ⧗ upgrade_over, and never duplicating a name here
                    if named || !other_names || !can_upgrade_over(g, inst, g.u(x), player) {
                        return;
                    }
                }
                let diff = cost - under_cost;
                let price = if priced { play_cost(g, player, inst, mi as i32, Some(diff), None) } else { diff };
                if price <= chakra {
                    out.push((Action::Play(inst, mi as i32, false, x), price));
                }
            });
        }
    }
    let plain = !any_cost_static && lines.statics(StaticKind::RevealTax).is_empty();
    for (mi, m) in g.missions.iter().enumerate() {
        let Some(len) = sides.len(mi) else {
            for &x in &m.sides[player as usize] {
                let u = g.u(x);
                if u.hidden
                    && let Some(price) = reveal_price(g, player, u, 0, plain)
                {
                    out.push((Action::Reveal(u.uid), price));
                }
            }
            continue;
        };
        let cards = &sides.cards[mi];
        for k in bits(sides.hidden[mi]) {
            let (x, card) = (sides.uids[mi][k], &g.cat.cards[cards[k] as usize]);
            let key = card.name_key;
            if sides.up_names[mi] & name_bit(key) != 0
                && bits(!sides.hidden[mi] & len_mask(len))
                    .any(|j| sides.uids[mi][j] != x && g.cat.cards[cards[j] as usize].name_key == key)
            {
                continue; // (a face-up character of its name stands here)
            }
            let price = if plain && sides.plain_reveal[mi] & (1 << k) != 0 {
                let price = card.cost().max(0); // (reveal_price_unnamed's price, read off the summary)
                if price <= chakra { Some(price) } else { None }
            } else {
                reveal_price_unnamed(g, player, g.u(x), 0, plain)
            };
            if let Some(price) = price {
                out.push((Action::Reveal(x), price));
            }
        }
    }
    if attachments_in_hand != 0 || p.hand.len() > 64 || !g.att_hidden.is_empty() {
        attachments::attachment_options(g, player, attachments_in_hand, out);
    }
}

/// One player's side of every mission, summarised for the main actions: each character's uid,
/// card and name, which are hidden, which may be upgraded over (at most `Sides::MAX` a side; a
/// bigger side is read off the board instead).
struct Sides {
    /// per mission: its characters' uids, in side order
    uids: [[Uid; Sides::MAX]; Sides::MISSIONS],
    /// per mission: the catalog number of each one's card
    cards: [[u16; Sides::MAX]; Sides::MISSIONS],
    /// per mission: how many (`Sides::OFF`: not summarised)
    len: [u8; Sides::MISSIONS],
    /// per mission, one bit a character (its place in the side): the hidden ones
    hidden: [u8; Sides::MISSIONS],
    /// the face-up ones owned and controlled by the player, not taken: they may be upgraded over
    upgradable: [u8; Sides::MISSIONS],
    /// the hidden ones revealed at their printed cost unless a static in force says otherwise:
    /// no price of their own (⧗ play_cost, "paying less", ⧗ reveal_cost), no ⧗
    /// play_only_winning, no attachment
    plain_reveal: [u8; Sides::MISSIONS],
    /// per mission: one bit a name of its characters (the name's number mod 64): most names
    /// asked about are not there
    names: [u64; Sides::MISSIONS],
    /// the same, of its face-up characters only
    up_names: [u64; Sides::MISSIONS],
    player: i32,
}

fn name_bit(key: crate::names::NameId) -> u64 {
    1 << (key.0 % 64)
}

/// The places of the set bits of `m`, lowest first.
fn bits(mut m: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let k = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(k)
    })
}

/// The bits of the first `len` places.
fn len_mask(len: usize) -> u8 {
    ((1u16 << len) - 1) as u8
}

impl Sides {
    const MAX: usize = 8;
    const MISSIONS: usize = 4;
    const OFF: u8 = u8::MAX;

    /// Nothing summarised yet (built where it stays: `read` fills it in place).
    fn new(player: i32) -> Sides {
        Sides {
            uids: [[0; Sides::MAX]; Sides::MISSIONS], // (read up to `len` only)
            cards: [[0; Sides::MAX]; Sides::MISSIONS],
            len: [Sides::OFF; Sides::MISSIONS],
            hidden: [0; Sides::MISSIONS],
            upgradable: [0; Sides::MISSIONS],
            plain_reveal: [0; Sides::MISSIONS],
            names: [0; Sides::MISSIONS],
            up_names: [0; Sides::MISSIONS],
            player,
        }
    }

    /// Summarise the player's side of every mission.
    fn read(&mut self, g: &GameState) {
        let player = self.player;
        for (mi, m) in g.missions.iter().enumerate().take(Sides::MISSIONS) {
            let side = &m.sides[player as usize];
            if side.len() > Sides::MAX {
                continue; // (read off the board)
            }
            let (mut hidden, mut upgradable, mut plain, mut names, mut up_names) = (0u8, 0u8, 0u8, 0u64, 0u64);
            let places = side.iter().zip(self.uids[mi].iter_mut().zip(self.cards[mi].iter_mut()));
            for (k, (&x, (uid, c))) in places.enumerate() {
                let u = g.u(x);
                let card = g.unit_card(u);
                (*uid, *c) = (x, u.card);
                let bit = name_bit(card.name_key);
                names |= bit;
                if u.hidden {
                    hidden |= 1 << k;
                    // (`reveal_price_unnamed`'s price at the printed cost)
                    if u.attachments.is_empty()
                        && !card.has_own_static(StaticKind::PlayOnlyWinning)
                        && !prices_own_reveal(card)
                    {
                        plain |= 1 << k;
                    }
                } else {
                    up_names |= bit;
                    if u.owner == player && u.controlled_by == -1 && u.controller == player {
                        upgradable |= 1 << k;
                    }
                }
            }
            self.len[mi] = side.len() as u8;
            self.hidden[mi] = hidden;
            self.upgradable[mi] = upgradable;
            self.plain_reveal[mi] = plain;
            self.names[mi] = names;
            self.up_names[mi] = up_names;
        }
    }

    /// How many characters mission `mi`'s side has (None: not summarised, read it off the board).
    fn len(&self, mi: usize) -> Option<usize> {
        match self.len.get(mi) {
            Some(&len) if len != Sides::OFF => Some(len as usize),
            _ => None,
        }
    }

    /// A character named `key` on the side (hidden ones count: their controller knows them).
    fn named(&self, g: &GameState, mi: usize, key: crate::names::NameId) -> bool {
        match self.len(mi) {
            Some(len) => {
                self.names[mi] & name_bit(key) != 0
                    && self.cards[mi][..len].iter().any(|&c| g.cat.cards[c as usize].name_key == key)
            }
            None => g.missions[mi].sides[self.player as usize].iter().any(|&x| g.unit_card(g.u(x)).name_key == key),
        }
    }

    /// Every character of the side that may be upgraded over: (uid, name, printed cost).
    fn each_upgradable(&self, g: &GameState, mi: usize, mut f: impl FnMut(Uid, crate::names::NameId, i64)) {
        match self.len(mi) {
            Some(_) => {
                for k in bits(self.upgradable[mi]) {
                    let under = &g.cat.cards[self.cards[mi][k] as usize];
                    f(self.uids[mi][k], under.name_key, under.cost());
                }
            }
            None => {
                let player = self.player;
                for &x in &g.missions[mi].sides[player as usize] {
                    let u = g.u(x);
                    if u.hidden || u.owner != player || u.controlled_by != -1 || u.controller != player {
                        continue;
                    }
                    let under = g.unit_card(u);
                    f(x, under.name_key, under.cost());
                }
            }
        }
    }
}
