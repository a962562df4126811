//! Attachments (Shinobi Shiren): cards played onto a character or a mission instead of a
//! character.
//!
//! Readings (the rulebook's attachment chapter is not in our sources; the card text decides):
//! an attachment is played in the Action phase instead of a character, paying its cost (cost
//! statics that name attachments apply), onto a host its ATTACH line allows, seen from the player
//! who plays it. It may be played face-down for 1 chakra and revealed later paying its cost
//! (MAIN and AMBUSH then apply). A face-down attachment adds no Power, has no effect and shows no
//! name or keyword. A character carries at most one attachment of each player (⧗
//! many_attachments lifts it for its controller's own); ⧗ no_attachments refuses any other. The
//! ATTACH condition is checked when the attachment is played or moved; afterwards it stays with
//! its host whatever happens to it, and leaves play only with its host or through an effect.

use crate::actions::{has_own_cost, play_cost};
use crate::board::discard_attachment;
use crate::control::break_control_from;
use crate::effects::lines;
use crate::effects::selectors::{all_attachments, matches};
use crate::effects::{attach_frame, triggers::Who, triggers::fire};
use crate::language::{Host, Selector, Side, StaticKind, TriggerOn};
use crate::state::{Action, Ctx, Ev, GameState, Inst, Uid, Unit, Val, vars};

/// The places for an attachment, mission by mission: `visit(mission, legal hosts (-1: the
/// mission), face-up price or None, face-down price or None)`, None when the player cannot pay.
/// Hosts are worked out once for both ways of playing it.
pub fn attach_places(
    g: &GameState,
    player: i32,
    inst: Inst,
    discount: i64,
    here: i32,
    mut visit: impl FnMut(i32, &[Uid], Option<i64>, Option<i64>),
) {
    let card = g.card(inst);
    let Some(host) = &card.host else { return };
    let chakra = g.players[player as usize].chakra;
    let down = (1 - discount).max(0);
    let down = if down <= chakra { Some(down) } else { None };
    let missions = if here < 0 { 0..g.missions.len() } else { here as usize..here as usize + 1 };
    // every ATTACH selector names the same side: look only there (a unit's controller is its side)
    let look: &[i32] = match host {
        Host::Characters(sels) if !sels.is_empty() && sels.iter().all(|s| s.side == Side::Friendly) => &[player][..],
        Host::Characters(sels) if !sels.is_empty() && sels.iter().all(|s| s.side == Side::Enemy) => &[1 - player][..],
        _ => &[player, 1 - player][..],
    };
    let lines = lines::lines(g);
    let plain = lines.statics(StaticKind::Cost).is_empty() && !has_own_cost(g, inst);
    // characters that take any of this player's attachments, ignoring the ATTACH condition (SS-065)
    let anyhost: Vec<Uid> = lines
        .statics(StaticKind::ManyAttachments)
        .iter()
        .filter(|r| {
            r.unit >= 0 && r.controller == player && g.unit(r.unit).is_some_and(|u| takes_any_attachment(g, player, u))
        })
        .map(|r| r.unit)
        .collect();
    let mut hosts = Hosts::default();
    // (the ATTACH condition's context, built once: only its mission changes)
    let mut ctx = Ctx::at(player, -1, -1, -1);
    for mi in missions {
        let base = if plain { card.cost() } else { play_cost(g, player, inst, mi as i32, None, None) };
        let up = (base - discount).max(0);
        let up = if up <= chakra { Some(up) } else { None };
        if up.is_none() && down.is_none() {
            continue;
        }
        let here_any = anyhost.iter().copied().filter(|&x| g.u(x).mission == mi as i32);
        hosts.clear();
        match host {
            Host::Mission => {
                hosts.push(-1);
                here_any.for_each(|x| hosts.push(x));
                visit(mi as i32, hosts.all(), up, down);
            }
            Host::Characters(sels) => {
                ctx.mission = mi as i32;
                for &side in look {
                    for &x in &g.missions[mi].sides[side as usize] {
                        let u = g.u(x);
                        if (u.attachments.is_empty() || host_room(g, player, u))
                            && (host_fits(g, &ctx, sels, u) || anyhost.contains(&x))
                        {
                            hosts.push(x);
                        }
                    }
                }
                if !anyhost.is_empty() && !look.contains(&player) {
                    here_any.for_each(|x| hosts.push(x));
                }
                if !hosts.all().is_empty() {
                    visit(mi as i32, hosts.all(), up, down);
                }
            }
        }
    }
}

/// The hosts of one mission for an attachment: held in place (the main actions ask for them at
/// every decision), on the heap past a side's usual size.
#[derive(Default)]
struct Hosts {
    here: [Uid; 16],
    len: usize,
    more: Vec<Uid>,
}

impl Hosts {
    fn clear(&mut self) {
        self.len = 0;
        self.more.clear();
    }
    fn push(&mut self, x: Uid) {
        if self.len < self.here.len() {
            self.here[self.len] = x;
            self.len += 1;
        } else {
            if self.more.is_empty() {
                self.more.extend_from_slice(&self.here);
            }
            self.more.push(x);
        }
    }
    fn all(&self) -> &[Uid] {
        if self.more.is_empty() { &self.here[..self.len] } else { &self.more }
    }
}

/// Where `player` may play attachment `inst`: (mission, host uid or -1 for the mission, price).
pub fn attach_options(
    g: &GameState,
    player: i32,
    inst: Inst,
    hidden: bool,
    discount: i64,
    here: i32,
) -> Vec<(i32, Uid, i64)> {
    let mut out = Vec::new();
    attach_places(g, player, inst, discount, here, |mi, hosts, up, down| {
        if let Some(price) = if hidden { down } else { up } {
            for &h in hosts {
                out.push((mi, h, price));
            }
        }
    });
    out
}

/// The main actions of attachments: `Attach(card, mission, host or -1, face-down)` and
/// `RevealAttachment(card)` for a face-down one (`places`: the attachments among the first 64
/// cards of the player's hand, one bit a place: the caller has read the hand; the rest of a longer
/// hand is read here).
#[inline(never)]
pub fn attachment_options(g: &GameState, player: i32, places: u64, out: &mut Vec<(Action, i64)>) {
    let hand: &[Inst] = &g.players[player as usize].hand;
    let mut offer = |hi: usize| {
        let inst = hand[hi];
        let version = g.cards[inst as usize];
        if hand[..hi].iter().any(|&c| g.cards[c as usize] == version) {
            return; // two copies of one card give the same actions: offered once
        }
        attach_places(g, player, inst, 0, -1, |mi, hosts, up, down| {
            for (hidden, price) in [(false, up), (true, down)] {
                let Some(price) = price else { continue };
                for &h in hosts {
                    out.push((Action::Attach(inst, mi, h, hidden), price));
                }
            }
        });
    };
    let mut m = places;
    while m != 0 {
        offer(m.trailing_zeros() as usize);
        m &= m - 1;
    }
    for (hi, &inst) in hand.iter().enumerate().skip(64) {
        if g.card(inst).ctype == crate::cards::CardType::Attachment {
            offer(hi);
        }
    }
    let mut left = g.att_hidden.iter().filter(|&&a| g.owner[a as usize] == player).count();
    if left == 0 {
        return; // (no face-down attachment of the player's: the board walk would find none)
    }
    // (hidden_attachments_of's order, without its list: each_attachment's walk, stopped at the
    // last face-down attachment of the player's)
    'walk: for (mi, m) in g.missions.iter().enumerate() {
        for side in 0..2 {
            let on_units = m.sides[side].iter().flat_map(|&uid| g.u(uid).attachments.iter());
            for &inst in m.attachments[side].iter().chain(on_units) {
                if g.owner[inst as usize] != player || !g.att_is_hidden(inst) {
                    continue;
                }
                if let Some(price) = reveal_attachment_price(g, player, inst, mi as i32) {
                    out.push((Action::RevealAttachment(inst), price));
                }
                left -= 1;
                if left == 0 {
                    break 'walk;
                }
            }
        }
    }
}

/// Face-down attachments `player` played: (instance, host or -1, mission).
pub fn hidden_attachments_of(g: &GameState, player: i32) -> Vec<(Inst, Uid, i32)> {
    if g.att_hidden.is_empty() {
        return Vec::new();
    }
    all_attachments(g)
        .into_iter()
        .filter(|&(a, _, _, _)| g.att_is_hidden(a) && g.owner[a as usize] == player)
        .map(|(a, h, mi, _)| (a, h, mi))
        .collect()
}

pub fn reveal_attachment_price(g: &GameState, player: i32, inst: Inst, mi: i32) -> Option<i64> {
    let price = play_cost(g, player, inst, mi, None, None);
    if price <= g.players[player as usize].chakra { Some(price) } else { None }
}

fn friendly_attachments(g: &GameState, u: &Unit, player: i32) -> usize {
    u.attachments.iter().filter(|&&a| g.owner[a as usize] == player).count()
}

/// Whether `player` may put attachment `inst` on character `u` now: its ATTACH condition (seen
/// from `player`), room on the host, no ⧗ no_attachments (`ignore`: room only).
pub fn host_ok(g: &GameState, player: i32, inst: Inst, u: &Unit, ignore: bool) -> bool {
    if ignore || takes_any_attachment(g, player, u) {
        return host_room(g, player, u);
    }
    match &g.card(inst).host {
        Some(Host::Characters(sels)) => {
            host_room(g, player, u) && host_fits(g, &Ctx::at(player, -1, u.mission, -1), sels, u)
        }
        _ => false,
    }
}

/// ⧗ many_attachments ("more than one friendly attachment, ignoring all requirements"): this
/// face-up character of `player` takes any attachment of theirs, whatever its ATTACH condition (a
/// mission attachment included).
pub fn takes_any_attachment(g: &GameState, player: i32, u: &Unit) -> bool {
    !u.hidden
        && u.controller == player
        && g.unit_card(u).has_own_static(StaticKind::ManyAttachments)
        && !lines::blanked(g, u)
}

/// Whether character `u` may take one more attachment of `player` (ATTACH condition aside).
pub fn host_room(g: &GameState, player: i32, u: &Unit) -> bool {
    if u.attachments.is_empty() {
        return true;
    }
    for &a in &u.attachments {
        if !g.att_is_hidden(a) && g.card(a).has_own_static(StaticKind::NoAttachments) {
            return false;
        }
    }
    if !u.hidden
        && player == u.controller
        && g.unit_card(u).has_own_static(StaticKind::ManyAttachments)
        && !lines::blanked(g, u)
    {
        return true;
    }
    friendly_attachments(g, u, player) < 1
}

/// The ATTACH condition (selectors, any of which will do) for character `u`.
pub fn host_fits(g: &GameState, ctx: &Ctx, sels: &[Selector], u: &Unit) -> bool {
    sels.iter().any(|s| matches(g, ctx, s, u, false))
}

/// Where an attachment in play is: (host or -1, mission, controlling side).
pub fn locate(g: &GameState, inst: Inst) -> Option<(Uid, i32, i32)> {
    all_attachments(g).into_iter().find(|&(a, _, _, _)| a == inst).map(|(_, h, mi, side)| (h, mi, side))
}

/// Play attachment `inst` from its zone onto a character (`host`) or mission `mi`.
pub fn attach_card(g: &mut GameState, player: i32, inst: Inst, mi: i32, host: Uid, hidden: bool, price: i64) {
    let pi = player as usize;
    let taken = g.players[pi].take(inst);
    debug_assert!(taken, "card {inst} is not in player {player}'s hand, deck or discard pile");
    g.players[pi].pay(price);
    g.players[pi].attached_this_round += 1;
    let mut mi = mi;
    if host >= 0 {
        g.um(host).attachments.push(inst);
        mi = g.u(host).mission;
    } else {
        g.missions[mi as usize].attachments[pi].push(inst);
    }
    if hidden {
        g.set_att_hidden(inst, true);
    }
    let current = g.lines_version.get() == g.board_version;
    let stamped = g.stamps_current();
    g.board_version += 1;
    g.changed_at(stamped, mi);
    if hidden && current {
        g.lines_version.set(g.board_version); // a face-down attachment brings no line: the lines in force stay
    }
    if g.emitting() {
        let c = g.card(inst).index;
        g.emit(Ev::Attach(player, c, mi, if hidden { "hidden" } else { "face_up" }, price));
    }
    if !hidden {
        attach_sequence(g, player, inst, host, mi, false);
    }
}

/// Turn a face-down attachment face-up paying its cost: MAIN and AMBUSH lines apply.
pub fn reveal_attachment(g: &mut GameState, player: i32, inst: Inst, price: i64) {
    let Some((host, mi, _)) = locate(g, inst) else {
        return;
    };
    g.players[player as usize].pay(price);
    g.players[player as usize].attached_this_round += 1; // revealing is playing it (its FIRST STRIKE)
    g.set_att_hidden(inst, false);
    g.board_version += 1;
    if g.emitting() {
        let c = g.card(inst).index;
        g.emit(Ev::RevealAttachment(player, c, mi, price));
    }
    attach_sequence(g, player, inst, host, mi, true);
}

/// Like a card play: the attachment's own lines wait beneath the triggers it causes.
fn attach_sequence(g: &mut GameState, player: i32, inst: Inst, host: Uid, mi: i32, ambush: bool) {
    if let Some(f) = attach_frame(g, player, inst, host, mi, ambush) {
        g.stack.push(f);
    }
    let who = if g.in_play(host) { Who::InPlay(host) } else { Who::Nobody };
    fire(
        g,
        TriggerOn::Attached,
        who,
        &[
            (vars::BY, Val::Int(player as i64)),
            (vars::ATTACHMENT, Val::Int(inst as i64)),
            (vars::HOST, Val::Int(host as i64)),
        ],
    );
}

/// Take an attachment off its host or mission (it stays out of every zone: the caller puts it
/// somewhere).
pub fn detach(g: &mut GameState, inst: Inst) -> Option<(Uid, i32, i32)> {
    let (host, mi, side) = locate(g, inst)?;
    if host >= 0 {
        g.um(host).attachments.retain(|&a| a != inst);
    } else {
        g.missions[mi as usize].attachments[side as usize].retain(|&a| a != inst);
    }
    g.board_version += 1;
    Some((host, mi, side))
}

pub fn discard(g: &mut GameState, inst: Inst) {
    detach(g, inst);
    discard_attachment(g, inst);
    if g.emitting() {
        let c = g.card(inst).index;
        g.emit(Ev::DiscardAttachment(g.owner[inst as usize], c));
    }
}

pub fn move_to(g: &mut GameState, inst: Inst, host: Uid) {
    detach(g, inst);
    g.um(host).attachments.push(inst);
    g.board_version += 1;
    if g.emitting() {
        let c = g.card(inst).index;
        let ctl = g.u(host).controller;
        g.emit(Ev::MoveAttachment(ctl, c, host));
    }
}

/// A character turned attachment ("treated as an attachment instead of a character"): it leaves
/// the board as a character (cards beneath, tokens and its own attachments go, control links
/// break) and its top card sits on `host` adding `power`.
pub fn unit_becomes_attachment(g: &mut GameState, uid: Uid, host: Uid, power: i64) {
    let Some(u) = g.remove_unit(uid) else { return };
    g.missions[u.mission as usize].sides[u.controller as usize].retain(|&x| x != uid);
    let owner = u.owner as usize;
    for &c in u.stack[..u.stack.len() - 1].iter().rev() {
        g.players[owner].discard.push(c);
    }
    for &a in &u.attachments {
        discard_attachment(g, a);
    }
    let top = u.top();
    g.um(host).attachments.push(top);
    g.att_power.retain(|(x, _)| *x != top);
    g.att_power.push((top, power));
    g.board_version += 1;
    g.token_version += 1;
    if g.emitting() {
        let c = g.card(top).index;
        let hm = g.u(host).mission;
        g.emit(Ev::Attach(u.controller, c, hm, "character", 0));
    }
    break_control_from(g, uid);
}
