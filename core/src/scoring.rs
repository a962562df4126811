//! Mission evaluation and the end of the game.
//!
//! Each mission in rank order: the higher total Power wins, ties to the Edge, at least 1 Power
//! needed. The winner scores the mission's points (base plus rank bonus) and applies the SCORE
//! effects of the mission, of their characters there and of their attachments; after round 4 the
//! higher score wins, ties to the Edge.

use crate::effects::{lines, push_frames, score_frame, triggers::trigger_frame};
use crate::language::{StaticKind, TriggerOn};
use crate::power::{leader_of, mission_points, side_totals};
use crate::state::{Ev, GameState, Phase, RoundStats};

pub fn evaluate(g: &mut GameState, mi: usize) {
    let [a, b] = side_totals(g, mi);
    let winner = leader_of(g, a, b);
    g.missions[mi].winner = winner;
    g.emit(Ev::MissionResult(mi as i32, a, b, winner));
    if winner < 0 {
        return;
    }
    let lines = std::sync::Arc::clone(&lines::lines(g));
    let times = if lines.statics(StaticKind::ScoreTwice).iter().any(|r| r.mission == mi as i32) { 2 } else { 1 };
    let mut frames = Vec::new();
    for _ in 0..times {
        // ⧗ score_twice: points and SCORE effects again
        let pts = mission_points(g, mi);
        let w = winner as usize;
        g.players[w].missions_won += 1;
        g.players[w].score += pts;
        g.round_scores.last_mut().expect("a round")[w] += pts;
        // (a card without a SCORE line has no frame: `score_frame` is asked only of those with
        // one, most cards having none)
        if g.card(g.missions[mi].card).scores {
            frames.extend(score_frame(g, winner, -1, mi as i32, -1));
        }
        // (read by place, not copied: making the frames changes no side and no attachment)
        for k in 0..g.missions[mi].sides[w].len() {
            let uid = g.missions[mi].sides[w][k];
            let u = g.u(uid);
            if !u.hidden && g.unit_card(u).scores {
                frames.extend(score_frame(g, winner, uid, mi as i32, -1));
            }
            for j in 0..g.u(uid).attachments.len() {
                let a = g.u(uid).attachments[j];
                if !g.att_is_hidden(a) && g.card(a).scores {
                    frames.extend(score_frame(g, winner, uid, mi as i32, a));
                }
            }
        }
        for j in 0..g.missions[mi].attachments[w].len() {
            let a = g.missions[mi].attachments[w][j];
            if !g.att_is_hidden(a) && g.card(a).scores {
                frames.extend(score_frame(g, winner, -1, mi as i32, a));
            }
        }
    }
    let loser = 1 - winner;
    for r in lines.triggers(TriggerOn::LostMission).iter() {
        if r.unit >= 0 && g.in_play(r.unit) && r.mission == mi as i32 && r.controller == loser {
            frames.push(trigger_frame(g, r.unit, r.mission, r.controller, r.t, &[], r.inst));
        }
    }
    push_frames(g, frames);
}

/// Keep this round's statistics (for the simulation database) before the round ends.
pub fn log_round(g: &mut GameState) {
    let mut entry: [RoundStats; 2] = Default::default();
    for pi in 0..2 {
        let p = &g.players[pi];
        entry[pi] = RoundStats {
            chakra_gained: p.chakra_gained,
            chakra_spent: p.chakra_spent,
            chakra_left: p.chakra,
            cards_drawn: p.drawn,
            played_face_up: p.played_face_up,
            played_hidden: p.played_hidden,
            revealed: p.revealed,
            upgraded: p.upgraded,
            cost_face_up: p.cost_face_up.clone(),
            characters_in_play: g.missions.iter().map(|m| m.sides[pi].len() as i64).sum(),
            missions_won: p.missions_won,
            points: g.round_scores.last().map_or(0, |r| r[pi]),
            edge: g.edge == pi as i32,
        };
    }
    g.round_log.push(entry);
}

pub fn finish(g: &mut GameState) {
    if g.round < g.horizon {
        log_round(g); // (a playout's last round is not recorded: its state is only valued)
    }
    let (a, b) = (g.players[0].score, g.players[1].score);
    if a == b {
        g.winner = g.edge;
        g.tiebreak_by_edge = true;
    } else {
        g.winner = if a > b { 0 } else { 1 };
    }
    g.phase = Phase::Over;
    g.pending = None;
    g.emit(Ev::GameOver(g.winner, a, b));
}
