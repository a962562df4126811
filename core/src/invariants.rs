//! Invariants every reachable state must satisfy; checked after every decision of the
//! invariant runs (`benchmarks/bench_engine.py --check`).

use crate::effects::lines;
use crate::power::{power, power_now};
use crate::state::{GameState, Phase};

/// The first broken invariant, named; `Ok` when the state is sound.
pub fn check(g: &GameState) -> Result<(), String> {
    let n = g.cards.len();
    let mut place = vec![0u32; n];
    let mut count = |c: i32| {
        if (0..n as i32).contains(&c) {
            place[c as usize] += 1;
        }
    };
    for p in &g.players {
        for &c in p.hand.iter().chain(&p.deck).chain(&p.discard) {
            count(c);
        }
        if p.set_aside >= 0 {
            count(p.set_aside);
        }
    }
    for &c in &g.mission_deck {
        count(c);
    }
    let mut seen_units = Vec::new();
    for (mi, m) in g.missions.iter().enumerate() {
        count(m.card);
        for side in &m.attachments {
            for &a in side {
                count(a);
            }
        }
        for (si, side) in m.sides.iter().enumerate() {
            let mut names = Vec::new();
            for &uid in side {
                if seen_units.contains(&uid) {
                    return Err(format!("unit {uid} stands in two places"));
                }
                seen_units.push(uid);
                let Some(u) = g.unit(uid) else {
                    return Err(format!("unit {uid} is on the board but not indexed"));
                };
                if u.controller != si as i32 || u.mission != mi as i32 {
                    return Err(format!(
                        "unit {uid} thinks it is at ({},{}), stands at ({mi},{si})",
                        u.mission, u.controller
                    ));
                }
                if u.tokens < 0 {
                    return Err(format!("unit {uid} has {} power tokens", u.tokens));
                }
                if u.controller != u.owner && u.controlled_by < 0 {
                    return Err(format!("unit {uid} is on its non-owner's side without a control link"));
                }
                if u.controlled_by >= 0 {
                    // FAQ: control lasts while its source is face-up on the same side
                    match g.unit(u.controlled_by) {
                        Some(src) if !src.hidden && src.controller == u.controller => {}
                        _ => {
                            return Err(format!(
                                "unit {uid} is controlled by unit {}, which is gone, hidden or on the other side \
                                 (control should have ended)",
                                u.controlled_by
                            ));
                        }
                    }
                }
                for &c in &u.stack {
                    count(c);
                    if g.owner[c as usize] != u.owner {
                        return Err(format!("stack of unit {uid} mixes owners"));
                    }
                }
                for &a in &u.attachments {
                    count(a);
                }
                names.push(g.unit_card(u).name_key);
            }
            names.sort();
            if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
                return Err(format!("mission {mi}, player {si}: two characters named {}", g.cat.name_text(w[0])));
            }
        }
    }
    if g.lines_version.get() == g.board_version {
        // the lines in force, as cached, equal a fresh reading
        let cached = lines::lines(g).lines.clone();
        g.lines_version.set(u64::MAX);
        let fresh = lines::lines(g).lines.clone();
        if cached != fresh {
            return Err("cached continuous lines differ from the board (a change of face-up cards did not bump the board version)".into());
        }
        if !lines::groups_match(g) {
            return Err("the statics and triggers in force, as grouped, differ from the lines in force".into());
        }
    }
    if g.settle_free == g.board_version && g.tie_picks.is_empty() {
        // settling skipped as nothing to settle: no line of a settled kind is in force
        let l = lines::lines(g);
        if g.cat.settled_kinds.iter().any(|&k| !l.statics(k).is_empty()) {
            return Err("settling is skipped on a board with a line of a settled kind in force".into());
        }
    }
    for &uid in &seen_units {
        let u = g.u(uid);
        if u.stack.last().map(|&t| g.cards[t as usize]) != Some(u.card) {
            return Err(format!("unit {uid}: its top card is not the card it is read as"));
        }
        let (a, b) = (power(g, u), power_now(g, u));
        if a != b {
            return Err(format!(
                "unit {uid}: memoised Power {a} != {b} (a change to tokens or the board did not bump its version)"
            ));
        }
    }
    let indexed = g.units.iter().flatten().count();
    if indexed != seen_units.len() {
        return Err("indexed units not on the board".into());
    }
    for (inst, &k) in place.iter().enumerate() {
        if k != 1 {
            return Err(format!(
                "card instance {inst} ({}, owner {}) is in {k} places",
                g.card(inst as i32).id,
                g.owner[inst]
            ));
        }
    }
    for p in &g.players {
        if p.chakra < 0 {
            return Err(format!("player {} has {} chakra", p.index, p.chakra));
        }
        let sum: i64 = g.round_scores.iter().map(|r| r[p.index as usize]).sum();
        if p.score != sum {
            return Err(format!("player {} score {} != points scored {:?}", p.index, p.score, g.round_scores));
        }
    }
    if g.missions.len() + g.mission_deck.len() != 4 || g.missions.len() as i32 > g.round.max(0) {
        return Err(format!(
            "{} missions in play in round {}, {} to come",
            g.missions.len(),
            g.round,
            g.mission_deck.len()
        ));
    }
    if g.phase == Phase::Over && !(0..2).contains(&g.winner) {
        return Err("finished game without a winner".into());
    }
    if g.phase != Phase::Over && g.pending.is_none() {
        return Err("the game waits for nobody".into());
    }
    Ok(())
}
