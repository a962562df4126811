//! What happens to cards on the board: drawn, played, revealed, moved, hidden, defeated, leaving
//! play. Shared by the verbs and the game flow.

use crate::actions::has_name_on_side;
use crate::control::{break_control_from, discard_duplicate};
use crate::effects::lines::{self, static_ctx, unit_statics};
use crate::effects::selectors::{condition, number};
use crate::effects::triggers::{Who, fire};
use crate::effects::{Applies, play_frame};
use crate::language::{Event, StaticKind, TriggerOn};
use crate::power::static_hits;
use crate::state::{Ev, GameState, Inst, Phase, Uid, Unit, Val, vars};

pub fn draw_cards(g: &mut GameState, player: i32, n: usize) -> i64 {
    let mut drawn = 0;
    for _ in 0..n {
        let Some(c) = g.players[player as usize].deck.pop() else {
            break; // an empty deck simply stops drawing
        };
        let p = &mut g.players[player as usize];
        p.hand.push(c);
        p.drawn += 1;
        drawn += 1;
        g.emit(Ev::Draw(player, c));
    }
    drawn
}

pub fn new_unit(g: &mut GameState, player: i32, inst: Inst, mi: i32, hidden: bool) -> Uid {
    let uid = g.next_uid;
    g.next_uid += 1;
    let u = Unit {
        uid,
        stack: vec![inst],
        card: g.cards[inst as usize],
        owner: g.owner[inst as usize],
        controller: player,
        mission: mi,
        hidden,
        tokens: 0,
        played_round: g.round,
        played_turn: g.turn,
        attachments: Vec::new(),
        controlled_by: -1,
        discounted: false,
    };
    g.index_unit(u);
    g.missions[mi as usize].sides[player as usize].push(uid);
    // a hidden character brings no line: the lines in force stay
    let quiet = hidden || g.card(inst).continuous.is_empty();
    let were_current = g.lines_version.get() == g.board_version;
    g.board_changed_at(quiet, mi);
    if !quiet {
        crate::effects::lines::add_unit(g, uid, were_current);
    }
    uid
}

/// Remember the characters a player plays during their own turn ("played during the opponent's
/// previous turn"); a play forced during the other player's turn does not count.
fn played_this_turn(g: &mut GameState, player: i32, uid: Uid) {
    if g.phase == Phase::Action && g.current == player {
        g.last_turn_plays[player as usize].push(uid);
    }
}

/// Put a character into play (fresh, hidden, or as an upgrade) and start its play sequence.
pub fn play_card(g: &mut GameState, player: i32, inst: Inst, mi: i32, hidden: bool, over: Uid, price: i64) -> Uid {
    let pi = player as usize;
    let from_hand = g.players[pi].hand.contains(&inst);
    let taken = g.players[pi].take(inst);
    debug_assert!(taken, "card {inst} is not in player {player}'s hand, discard or deck");
    g.players[pi].pay(price);
    g.players[pi].plays_this_round += 1;
    let card = g.card(inst);
    let (uid, base, upgrade, extra) = if over >= 0 {
        let up = crate::power::power_of(g, over); // "if the character you upgraded from had …"
        let base = card.cost() - g.unit_card(g.u(over)).cost();
        let turn = g.turn;
        let quiet = g.lineless(g.u(over)) && card.continuous.is_empty();
        let top = g.cards[inst as usize];
        let u = g.um(over);
        u.stack.push(inst);
        u.card = top;
        u.played_turn = turn;
        let at = u.mission;
        g.board_changed_at(quiet, at);
        g.players[pi].upgraded += 1;
        (over, base, true, vec![(vars::UPGRADED_POWER, Val::Int(up))])
    } else {
        let uid = new_unit(g, player, inst, mi, hidden);
        let p = &mut g.players[pi];
        if hidden {
            p.played_hidden += 1;
        } else {
            p.played_face_up += 1;
            p.cost_face_up.push(card.cost());
        }
        (uid, if hidden { 1 } else { card.cost() }, false, vec![])
    };
    g.um(uid).discounted = price < base; // "played for less than its printed cost because of an effect"
    played_this_turn(g, player, uid);
    if g.emitting() {
        let how = if hidden {
            "hidden"
        } else if upgrade {
            "upgrade"
        } else {
            "face_up"
        };
        g.emit(Ev::Play(player, card.index, mi, how, price));
    }
    if !hidden {
        play_sequence(g, player, uid, upgrade, false, &extra, from_hand);
    }
    uid
}

/// Reveal a hidden character paying its cost: it counts as playing it (MAIN and AMBUSH).
pub fn reveal(g: &mut GameState, player: i32, uid: Uid, price: i64) {
    let pi = player as usize;
    g.players[pi].pay(price);
    g.players[pi].plays_this_round += 1;
    g.players[pi].revealed += 1;
    let turn = g.turn;
    let cost = g.unit_card(g.u(uid)).cost();
    let u = g.um(uid);
    u.hidden = false;
    u.played_turn = turn;
    u.discounted = price < cost;
    let (c, mi) = (u.top(), u.mission);
    let quiet = g.lineless(g.u(uid));
    let were_current = g.lines_version.get() == g.board_version;
    g.board_changed_at(quiet, mi);
    if !quiet {
        crate::effects::lines::add_unit(g, uid, were_current);
    }
    played_this_turn(g, player, uid);
    if g.emitting() {
        let idx = g.card(c).index;
        g.emit(Ev::Reveal(player, idx, mi, price));
    }
    play_sequence(g, player, uid, false, true, &[], false);
}

/// Card play sequence: the new card's own effects wait beneath the triggers it causes.
fn play_sequence(
    g: &mut GameState,
    player: i32,
    uid: Uid,
    upgrade: bool,
    ambush: bool,
    extra: &[(crate::language::VarId, Val)],
    from_hand: bool,
) {
    if let Some(f) = play_frame(g, player, uid, upgrade, ambush, extra, from_hand) {
        g.stack.push(f);
    }
    fire(g, TriggerOn::Played, Who::InPlay(uid), &[(vars::PLAYED, Val::Int(uid as i64))]);
}

pub fn _applies_unused() -> Applies {
    Applies::default()
}

/// Whether `u` ignores `event` (hide, defeat, move) caused by player `by`'s effect.
pub fn immune(g: &GameState, u: &Unit, event: Event, by: i32) -> bool {
    if by == u.controller || by < 0 {
        return false;
    }
    for r in lines::lines(g).statics(StaticKind::Immune).iter() {
        let s = r.s;
        let events = s.opts.events.as_deref().unwrap_or(&[Event::Hide, Event::Defeat]);
        if !events.contains(&event) {
            continue;
        }
        let ctx = static_ctx(r.unit, r.mission, r.controller, g);
        if static_hits(g, &ctx, s, u) && condition(g, &ctx, s.cond.as_ref(), true) {
            return true;
        }
    }
    false
}

pub fn cannot_move(g: &GameState, u: &Unit) -> bool {
    lines::lines(g)
        .statics(StaticKind::NoMoveFrom)
        .iter()
        .any(|r| static_hits(g, &static_ctx(r.unit, r.mission, r.controller, g), r.s, u))
}

/// An effect of player `by` affects `u`: ⧗ tax makes an enemy pay for it, if able.
pub fn affect(g: &mut GameState, uid: Uid, by: i32) {
    let u = g.u(uid);
    if by < 0 || by == u.controller || u.hidden {
        return;
    }
    let ctx = static_ctx(uid, u.mission, u.controller, g);
    let taxes: Vec<i64> =
        unit_statics(g, u, StaticKind::Tax).into_iter().map(|s| number(g, &ctx, &s.n, false)).collect();
    for n in taxes {
        let p = &mut g.players[by as usize];
        let k = p.chakra.min(n);
        if k > 0 {
            p.chakra -= k;
            g.emit(Ev::Tax(by, uid, k));
        }
    }
}

/// ⧗ "if this character would be defeated/moved, hide it instead".
fn replaced_by_hide(g: &mut GameState, uid: Uid, event: Event, by: i32) -> bool {
    let u = g.u(uid);
    if u.hidden {
        return false;
    }
    for s in unit_statics(g, u, StaticKind::DefeatBecomesHide) {
        let events = s.opts.events.as_deref().unwrap_or(&[Event::Defeat]);
        if !events.contains(&event) {
            continue;
        }
        if s.opts.from_enemy && by == u.controller {
            continue;
        }
        let (ctl, at) = (u.controller, u.mission);
        let quiet = g.lineless(u);
        g.um(uid).hidden = true;
        g.board_changed_at(quiet, at);
        g.emit(Ev::Hide(ctl, uid));
        break_control_from(g, uid);
        return true;
    }
    false
}

pub fn move_unit(g: &mut GameState, uid: Uid, dest: i32, by: i32) -> bool {
    if immune(g, g.u(uid), Event::Move, by) {
        return false;
    }
    affect(g, uid, by);
    if by != g.u(uid).controller && replaced_by_hide(g, uid, Event::Move, by) {
        return false; // a move replaced by a hide is no move: nothing counts it, no trigger fires
    }
    let (from, ctl) = (g.u(uid).mission, g.u(uid).controller);
    g.missions[from as usize].sides[ctl as usize].retain(|&x| x != uid);
    g.um(uid).mission = dest;
    let quiet = g.lineless(g.u(uid));
    let were_current = g.lines_version.get() == g.board_version;
    g.board_changed_at(quiet, from);
    g.also_changed_at(dest);
    g.emit(Ev::Move(ctl, uid, dest));
    let key = g.unit_card(g.u(uid)).name_key;
    if has_name_on_side(g, dest as usize, ctl, key, -1) {
        // moved by the opponent next to a hidden character of its name (which they could not
        // see): the newcomer is a duplicate, discarded at once, triggering nothing
        discard_duplicate(g, uid);
        return true;
    }
    g.missions[dest as usize].sides[ctl as usize].push(uid);
    if !quiet {
        crate::effects::lines::move_unit(g, uid, dest, were_current);
    }
    if g.phase == Phase::Action {
        // "a character that moved during the opponent's previous turn"
        let cur = g.current as usize;
        g.last_turn_moves[cur].push(uid);
    }
    fire(g, TriggerOn::Moved, Who::InPlay(uid), &[(vars::MOVER, Val::Int(by as i64))]);
    true
}

pub fn hide_unit(g: &mut GameState, uid: Uid, by: i32) -> bool {
    let u = g.u(uid);
    if u.hidden || immune(g, u, Event::Hide, by) {
        return false;
    }
    affect(g, uid, by);
    let ctl = g.u(uid).controller;
    let quiet = g.lineless(g.u(uid));
    let were_current = g.lines_version.get() == g.board_version;
    g.um(uid).hidden = true;
    let at = g.u(uid).mission;
    g.board_changed_at(quiet, at);
    if !quiet {
        crate::effects::lines::remove_unit(g, uid, Some(g.u(uid).top()), were_current);
    }
    g.emit(Ev::Hide(ctl, uid));
    break_control_from(g, uid); // a hidden controller loses what it controls
    true
}

/// Defeat `uid` by an effect of player `by`; false if it was not defeated (immune, or hidden
/// instead: a defeat replaced by a hide is no defeat, so no "defeated" value, count, "if you do" or
/// "when you defeat" follows). `decider`: the player who carries the defeat out (FAQ "The
/// Decider"; `by` unless the effect makes the opponent defeat their own characters), the one "when
/// you defeat" triggers look at. Immunity ("enemy effects") looks at whose effect it is.
pub fn defeat_unit(g: &mut GameState, uid: Uid, by: i32) -> bool {
    defeat_by(g, uid, by, by)
}

pub fn defeat_by(g: &mut GameState, uid: Uid, by: i32, decider: i32) -> bool {
    if immune(g, g.u(uid), Event::Defeat, by) {
        return false;
    }
    affect(g, uid, by);
    if replaced_by_hide(g, uid, Event::Defeat, by) {
        return false;
    }
    let u = g.u(uid).clone();
    let mut to_hand = false;
    for r in lines::lines(g).statics(StaticKind::DefeatToHand).iter() {
        // friendly characters: not the card itself (no character is friendly to itself)
        if r.controller == u.owner && u.controller == u.owner && (r.unit < 0 || r.unit != u.uid) {
            to_hand = true;
        }
    }
    leave_play(g, uid, if to_hand { Dest::Hand } else { Dest::Discard });
    g.emit(Ev::Defeat(u.controller, uid));
    // triggered "when a character is defeated": the unit is gone, so match on a ghost
    let ghost = Unit {
        attachments: Vec::new(),
        tokens: 0,
        played_round: 0,
        played_turn: 0,
        controlled_by: -1,
        discounted: false,
        ..u
    };
    fire(g, TriggerOn::Defeated, Who::Gone(&ghost), &[(vars::BY, Val::Int(decider as i64))]);
    true
}

/// An effect reveals a hidden character without playing it (SS-118's "reveal and defeat"): it is
/// face-up from now on (its continuous lines apply, it is seen), but no MAIN or AMBUSH applies and
/// it is not a play.
pub fn turn_face_up(g: &mut GameState, uid: Uid) {
    let Some(u) = g.unit_mut(uid) else { return };
    if !u.hidden {
        return;
    }
    u.hidden = false;
    let (ctl, at) = (u.controller, u.mission);
    let quiet = g.lineless(g.u(uid));
    g.board_changed_at(quiet, at);
    g.emit(Ev::TurnedUp(ctl, uid));
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Discard,
    Hand,
    Deck,
}

/// The character leaves play: cards beneath go to the discard pile first, then the top card goes
/// to `dest` (discard, hand or deck) of its OWNER. Control links break.
pub fn leave_play(g: &mut GameState, uid: Uid, dest: Dest) {
    let were_current = g.lines_version.get() == g.board_version;
    let Some(u) = g.remove_unit(uid) else { return };
    g.missions[u.mission as usize].sides[u.controller as usize].retain(|&x| x != uid);
    let quiet = g.lineless(&u);
    g.board_changed_at(quiet, u.mission);
    let owner = u.owner as usize;
    for &c in u.stack[..u.stack.len() - 1].iter().rev() {
        g.players[owner].discard.push(c);
    }
    for &a in &u.attachments {
        discard_attachment(g, a);
    }
    if !quiet {
        crate::effects::lines::remove_unit(g, uid, None, were_current);
    }
    let top = u.top();
    let p = &mut g.players[owner];
    match dest {
        Dest::Hand => p.hand.push(top),
        Dest::Deck => p.deck.push(top),
        Dest::Discard => p.discard.push(top),
    }
    let d = match dest {
        Dest::Hand => "hand",
        Dest::Deck => "deck",
        Dest::Discard => "discard",
    };
    g.emit(Ev::Leave(u.controller, uid, d));
    break_control_from(g, uid);
}

/// An attachment leaves play: to its owner's discard pile, face-down or not.
pub fn discard_attachment(g: &mut GameState, a: Inst) {
    g.set_att_hidden(a, false);
    g.att_power.retain(|(x, _)| *x != a);
    let owner = g.owner[a as usize] as usize;
    g.players[owner].discard.push(a);
    g.board_version += 1;
}
