//! Scenario support: a game state built from a board description (a scenario file's board, read
//! and resolved in Python, handed over as JSON), then run forward to the first decision.
//!
//! The spec names every card instance by its catalog id, in instance order, and lays out the
//! zones, the missions in play, the units (with their stacks, tokens, attachments and control
//! links) and the round's counters. Anything left out takes the value of a fresh game.

use serde::Deserialize;

use crate::apply::{self, ApplyError};
use crate::cards::Catalog;
use crate::setup::{self, blank};
use crate::state::{GameState, Mission, Phase, Unit};

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct PlayerSpec {
    pub hand: Vec<i32>,
    /// top of the deck last
    pub deck: Vec<i32>,
    pub discard: Vec<i32>,
    pub missions: Vec<i32>,
    pub set_aside: Option<i32>,
    pub chakra: i64,
    pub score: i64,
    pub passed: bool,
    pub plays_this_round: i32,
    pub attached_this_round: i32,
    pub mulliganed: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub uid: i32,
    pub stack: Vec<i32>,
    pub owner: i32,
    pub controller: i32,
    pub mission: i32,
    #[serde(default)]
    pub hidden: bool,
    #[serde(default)]
    pub tokens: i64,
    #[serde(default)]
    pub played_round: i32,
    #[serde(default = "minus_one")]
    pub played_turn: i32,
    #[serde(default)]
    pub attachments: Vec<i32>,
    #[serde(default = "minus_one")]
    pub controlled_by: i32,
    #[serde(default)]
    pub discounted: bool,
}

fn minus_one() -> i32 {
    -1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissionSpec {
    pub card: i32,
    pub rank: usize,
    /// unit uids on each side, in board order
    #[serde(default)]
    pub sides: [Vec<i32>; 2],
    #[serde(default)]
    pub attachments: [Vec<i32>; 2],
    #[serde(default = "minus_one")]
    pub winner: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    #[serde(default)]
    pub seed: i64,
    /// every card instance's version id, in instance order
    pub cards: Vec<String>,
    pub owner: Vec<i32>,
    #[serde(default)]
    pub players: [PlayerSpec; 2],
    #[serde(default)]
    pub missions: Vec<MissionSpec>,
    #[serde(default)]
    pub units: Vec<UnitSpec>,
    /// top last
    #[serde(default)]
    pub mission_deck: Vec<i32>,
    #[serde(default)]
    pub round: i32,
    #[serde(default = "action")]
    pub phase: String,
    #[serde(default)]
    pub edge: i32,
    pub first_edge: Option<i32>,
    #[serde(default)]
    pub current: i32,
    #[serde(default)]
    pub turn: i32,
    #[serde(default)]
    pub round_scores: Vec<[i64; 2]>,
    #[serde(default)]
    pub att_hidden: Vec<i32>,
    #[serde(default)]
    pub att_power: Vec<(i32, i64)>,
    #[serde(default = "minus_one")]
    pub edge_locked: i32,
    #[serde(default)]
    pub events: bool,
    /// the player whose mulligan the game waits for (a board in round 0)
    pub mulligan: Option<i32>,
}

fn action() -> String {
    "action".into()
}

#[derive(Debug, Clone, PartialEq)]
pub struct SpecError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError(msg.into()))
}

/// Build the state a spec describes and run it to its first decision.
pub fn from_json(cat: &'static Catalog, json: &str) -> Result<GameState, SpecError> {
    let spec: Spec = serde_json::from_str(json).map_err(|e| SpecError(format!("board spec: {e}")))?;
    from_spec(cat, spec)
}

pub fn from_spec(cat: &'static Catalog, spec: Spec) -> Result<GameState, SpecError> {
    let mut g = blank(cat, spec.seed as i128);
    if spec.events {
        g.events = Some(Vec::new());
    }
    if spec.cards.len() != spec.owner.len() {
        return err("board spec: cards and owner differ in length");
    }
    let n = spec.cards.len() as i32;
    for id in &spec.cards {
        match cat.card(id) {
            Some(c) => g.cards.push(c.index),
            None => return err(format!("board spec: unknown card {id:?}")),
        }
    }
    g.owner = spec.owner.clone();
    let inst_ok = |i: i32| (0..n).contains(&i);
    for (pi, ps) in spec.players.iter().enumerate() {
        for z in [&ps.hand, &ps.deck, &ps.discard, &ps.missions] {
            if let Some(&bad) = z.iter().find(|&&i| !inst_ok(i)) {
                return err(format!("board spec: player {pi}: no card instance {bad}"));
            }
        }
        let p = &mut g.players[pi];
        p.hand = ps.hand.clone();
        p.deck = ps.deck.clone();
        p.discard = ps.discard.clone();
        p.missions = ps.missions.clone();
        p.set_aside = ps.set_aside.unwrap_or(-1);
        p.chakra = ps.chakra;
        p.score = ps.score;
        p.passed = ps.passed;
        p.plays_this_round = ps.plays_this_round;
        p.attached_this_round = ps.attached_this_round;
        p.mulliganed = ps.mulliganed;
    }
    let mut max_uid = 0;
    for us in spec.units {
        if us.uid < 1 {
            return err(format!("board spec: unit ids start at 1, not {}", us.uid));
        }
        if us.stack.is_empty() || !us.stack.iter().all(|&i| inst_ok(i)) || !us.attachments.iter().all(|&i| inst_ok(i)) {
            return err(format!("board spec: unit {}: bad stack or attachments", us.uid));
        }
        if g.unit(us.uid).is_some() {
            return err(format!("board spec: two units with id {}", us.uid));
        }
        max_uid = max_uid.max(us.uid);
        g.index_unit(Unit {
            uid: us.uid,
            stack: us.stack,
            owner: us.owner,
            controller: us.controller,
            mission: us.mission,
            hidden: us.hidden,
            tokens: us.tokens,
            played_round: us.played_round,
            played_turn: us.played_turn,
            attachments: us.attachments,
            controlled_by: us.controlled_by,
            discounted: us.discounted,
        });
    }
    g.next_uid = max_uid + 1;
    for ms in spec.missions {
        if !inst_ok(ms.card) || ms.rank > 3 {
            return err("board spec: a mission needs a card and a rank 0..3");
        }
        for side in &ms.sides {
            for &uid in side {
                if g.unit(uid).is_none() {
                    return err(format!("board spec: mission side names unit {uid}, which is not in units"));
                }
            }
        }
        g.missions.push(Mission {
            card: ms.card,
            rank: ms.rank,
            sides: ms.sides,
            attachments: ms.attachments,
            winner: ms.winner,
        });
    }
    for (mi, m) in g.missions.iter().enumerate() {
        for side in 0..2 {
            for &uid in &m.sides[side] {
                let u = g.u(uid);
                if u.mission != mi as i32 || u.controller != side as i32 {
                    return err(format!(
                        "board spec: unit {uid} stands in mission {mi}, side {side}, but says otherwise"
                    ));
                }
            }
        }
    }
    g.mission_deck = spec.mission_deck;
    g.round = spec.round;
    g.phase =
        Phase::parse(&spec.phase).ok_or_else(|| SpecError(format!("board spec: unknown phase {:?}", spec.phase)))?;
    g.edge = spec.edge;
    g.first_edge = spec.first_edge.unwrap_or(spec.edge);
    g.current = spec.current;
    g.turn = spec.turn;
    g.round_scores = spec.round_scores;
    g.att_hidden = spec.att_hidden;
    g.att_power = spec.att_power;
    g.edge_locked = spec.edge_locked;
    g.board_version += 1;
    g.token_version += 1;
    if let Some(p) = spec.mulligan {
        g.phase = Phase::Mulligan;
        g.pending = Some(setup::mulligan_decision(p));
        return Ok(g);
    }
    apply::advance(&mut g).map_err(|e: ApplyError| SpecError(format!("the board itself is illegal: {e}")))?;
    Ok(g)
}
