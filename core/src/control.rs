//! Take control (FAQ): the card that takes control is the controller; control ends when the
//! controller is hidden, defeated, leaves play or becomes controlled, and the controlled card
//! returns to its owner in the same mission. A duplicate name that arrives this way is discarded
//! at once, triggering nothing ("No repetition").

use crate::actions::has_name_on_side;
use crate::board::discard_attachment;
use crate::state::{Ev, GameState, Uid};

/// Every character this one controls returns to its owner, same mission, other side.
pub fn break_control_from(g: &mut GameState, controller: Uid) {
    // (most characters control none: looked for in place before a list of the board is made)
    let controls = |x: &Uid| g.unit(*x).is_some_and(|u| u.controlled_by == controller);
    if !g.missions.iter().any(|m| m.sides.iter().any(|s| s.iter().any(controls))) {
        return;
    }
    for uid in g.all_uids() {
        if g.unit(uid).is_some_and(|u| u.controlled_by == controller) {
            return_control(g, uid);
        }
    }
}

/// "No repetition": an arriving duplicate is discarded (its stack and its attachments), no
/// trigger, not a defeat. The unit is already off its side.
pub fn discard_duplicate(g: &mut GameState, uid: Uid) {
    let Some(u) = g.remove_unit(uid) else { return };
    let owner = u.owner as usize;
    g.players[owner].discard.extend_from_slice(&u.stack);
    for &a in &u.attachments {
        discard_attachment(g, a);
    }
    g.board_version += 1;
    if g.emitting() {
        let c = g.card(u.top()).index;
        g.emit(Ev::Duplicate(u.owner, c, u.mission));
    }
    break_control_from(g, uid); // it leaves play: what it controlled returns to its owner
}

/// Whether unit `uid` can hold control for `player`: in play, face-up, on their side.
pub fn controls(g: &GameState, uid: Uid, player: i32) -> bool {
    g.unit(uid).is_some_and(|u| !u.hidden && u.controller == player)
}

/// Control ends: `u` goes back to its owner's side of the same mission, as it is. What it
/// controlled returns too (a controller that changes sides loses control).
pub fn return_control(g: &mut GameState, uid: Uid) {
    break_control_from(g, uid);
    let Some(u) = g.unit(uid) else { return };
    let (mi, ctl, owner) = (u.mission as usize, u.controller, u.owner);
    g.missions[mi].sides[ctl as usize].retain(|&x| x != uid);
    let u = g.um(uid);
    u.controller = owner;
    u.controlled_by = -1;
    g.board_version += 1;
    let key = g.unit_card(g.u(uid)).name_key;
    if has_name_on_side(g, mi, owner, key, -1) {
        discard_duplicate(g, uid);
        return;
    }
    g.missions[mi].sides[owner as usize].push(uid);
}

pub fn take_control(g: &mut GameState, uid: Uid, player: i32, source: Uid) {
    break_control_from(g, uid); // a controller that becomes controlled loses what it controls
    let u = g.u(uid);
    let (mi, ctl) = (u.mission as usize, u.controller);
    g.missions[mi].sides[ctl as usize].retain(|&x| x != uid);
    let u = g.um(uid);
    u.controller = player;
    u.controlled_by = source;
    g.board_version += 1;
    let key = g.unit_card(g.u(uid)).name_key;
    if has_name_on_side(g, mi, player, key, -1) {
        discard_duplicate(g, uid);
        return;
    }
    g.missions[mi].sides[player as usize].push(uid);
    g.emit(Ev::Control(player, uid));
}
