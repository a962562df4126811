//! Scenario support: a game state built from a board description (a scenario file's board, read
//! and resolved in Python, handed over as JSON), then run forward to the first decision.
//!
//! The spec names every card instance by its catalog id, in instance order, and lays out the
//! zones, the missions in play, the units (with their stacks, tokens, attachments and control
//! links) and the round's counters. Anything left out takes the value of a fresh game.
//!
//! A board from before the game (a scenario's `phase = "setup"`) gives only `setup`: each
//! player's deck and three missions, set up by `setup::new_game` with the seed, or in the
//! stated order (decks as written, the first two missions of each into the mission deck).

use serde::Deserialize;

use crate::apply::{self, ApplyError};
use crate::board::draw_cards;
use crate::cards::Catalog;
use crate::setup::{self, GameDeck, blank};
use crate::state::{GameState, HAND_SIZE, Mission, Phase, Unit};

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

/// The game from before the mulligans: what each player brings.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupSpec {
    /// each player's deck (version ids), written top first
    pub decks: [Vec<String>; 2],
    /// each player's three missions (version ids)
    pub missions: [Vec<String>; 2],
    /// true: `setup::new_game` shuffles with the seed (decks, missions, the Edge unless `edge`
    /// names it); false: the decks stay as written, each player draws the top 5, and the
    /// mission deck is the Edge player's first mission, the other's first, the Edge player's
    /// second, the other's second (the thirds set aside)
    #[serde(default = "yes")]
    pub shuffle: bool,
    /// the first Edge holder (left out: the seed picks when shuffling, player 0 otherwise)
    pub edge: Option<i32>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    #[serde(default)]
    pub seed: i64,
    /// every card instance's version id, in instance order
    #[serde(default)]
    pub cards: Vec<String>,
    #[serde(default)]
    pub owner: Vec<i32>,
    /// a board from before the game: the decks and missions only (nothing else but the seed
    /// and `events`)
    pub setup: Option<SetupSpec>,
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
    from_spec(cat, parse(json)?)
}

/// Read a spec from its JSON.
pub fn parse(json: &str) -> Result<Spec, SpecError> {
    serde_json::from_str(json).map_err(|e| SpecError(format!("board spec: {e}")))
}

/// Build the state a spec describes and run it to its first decision.
pub fn from_spec(cat: &'static Catalog, spec: Spec) -> Result<GameState, SpecError> {
    let mut g = build(cat, spec)?;
    if g.pending.is_none() {
        apply::advance(&mut g).map_err(|e: ApplyError| SpecError(format!("the board itself is illegal: {e}")))?;
    }
    Ok(g)
}

/// The state a spec describes, before it runs: a setup or mulligan board waits for the
/// mulligan; any other has no decision yet (`apply::advance` runs it to its first).
pub fn build(cat: &'static Catalog, spec: Spec) -> Result<GameState, SpecError> {
    if let Some(setup) = spec.setup {
        let bare = spec.cards.is_empty()
            && spec.owner.is_empty()
            && spec.units.is_empty()
            && spec.missions.is_empty()
            && spec.mission_deck.is_empty()
            && spec.mulligan.is_none();
        if !bare {
            return err("board spec: a setup board gives only seed, events and setup (the game deals the rest)");
        }
        return from_setup(cat, spec.seed, spec.events, setup);
    }
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
        let top = us.stack.last().map_or(0, |&i| g.cards[i as usize]); // (checked above: a card of the game)
        g.index_unit(Unit {
            uid: us.uid,
            card: top,
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
    }
    Ok(g)
}

fn card_indices(cat: &Catalog, ids: &[String]) -> Result<Vec<u16>, SpecError> {
    ids.iter()
        .map(|id| cat.card(id).map(|c| c.index).ok_or_else(|| SpecError(format!("board spec: unknown card {id:?}"))))
        .collect()
}

/// A setup board: the game waits for the Edge holder's mulligan, in round 0.
fn from_setup(cat: &'static Catalog, seed: i64, events: bool, s: SetupSpec) -> Result<GameState, SpecError> {
    let mut decks = Vec::new();
    for pi in 0..2 {
        if s.missions[pi].len() != 3 {
            return err(format!("board spec: player {pi} brings {} missions, not 3", s.missions[pi].len()));
        }
        let cards = card_indices(cat, &s.decks[pi])?;
        let missions = card_indices(cat, &s.missions[pi])?;
        decks.push(GameDeck { cards, missions, name: String::new() });
    }
    if let Some(e) = s.edge.filter(|e| !(0..2).contains(e)) {
        return err(format!("board spec: edge is player 0 or 1, not {e}"));
    }
    if s.shuffle {
        return setup::new_game(cat, &decks[0], &decks[1], seed as i128, events, s.edge)
            .map_err(|e| SpecError(format!("board spec: {}", e.0)));
    }
    let mut g = blank(cat, seed as i128);
    if events {
        g.events = Some(Vec::new());
    }
    g.edge = s.edge.unwrap_or(0);
    g.first_edge = g.edge;
    let mut chosen = Vec::new();
    for (pi, deck) in decks.iter().enumerate() {
        for &c in deck.cards.iter().rev() {
            // written top first; the engine's top is the end of the list
            g.cards.push(c);
            g.owner.push(pi as i32);
            g.players[pi].deck.push(g.cards.len() as i32 - 1);
        }
        for &c in &deck.missions {
            g.cards.push(c);
            g.owner.push(pi as i32);
            g.players[pi].missions.push(g.cards.len() as i32 - 1);
        }
        let ms = &g.players[pi].missions;
        chosen.push([ms[0], ms[1]]);
        g.players[pi].set_aside = ms[2];
    }
    let (e, o) = (chosen[g.edge as usize], chosen[1 - g.edge as usize]);
    g.mission_deck = vec![o[1], e[1], o[0], e[0]]; // top is the end, as in setup::new_game
    for pi in 0..2 {
        draw_cards(&mut g, pi, HAND_SIZE);
    }
    g.phase = Phase::Mulligan;
    g.pending = Some(setup::mulligan_decision(g.edge));
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::DecisionKind;

    fn ids(g: &GameState, insts: &[i32]) -> Vec<String> {
        insts.iter().map(|&i| g.card(i).id.clone()).collect()
    }

    const DECK_A: &str = r#"["KS-009", "KS-011", "KS-031", "KS-037", "KS-003", "KS-014", "KS-015"]"#;
    const DECK_B: &str = r#"["KS-019", "KS-020", "KS-022", "KS-024", "KS-025", "KS-026", "KS-027"]"#;
    const MISSIONS: &str =
        r#"[["KS-001-MMS", "KS-002-MMS", "KS-003-MMS"], ["KS-004-MMS", "KS-005-MMS", "KS-006-MMS"]]"#;

    #[test]
    fn a_stated_setup_deals_the_top_five_and_orders_the_missions() {
        let json = format!(
            r#"{{"seed": 3, "setup": {{"decks": [{DECK_A}, {DECK_B}], "missions": {MISSIONS}, "shuffle": false, "edge": 1}}}}"#
        );
        let g = from_json(Catalog::bundled(), &json).unwrap();
        assert_eq!(g.round, 0);
        assert_eq!(g.phase, Phase::Mulligan);
        let d = g.pending.as_ref().unwrap();
        assert_eq!((d.player, d.kind), (1, DecisionKind::Mulligan));
        // written top first: the first five are dealt, the rest stays in order (top last)
        assert_eq!(ids(&g, &g.players[0].hand), ["KS-009", "KS-011", "KS-031", "KS-037", "KS-003"]);
        assert_eq!(ids(&g, &g.players[0].deck), ["KS-015", "KS-014"]);
        // round 1: the Edge player's first, then the other's first, the Edge player's second ...
        let next_first: Vec<String> = ids(&g, &g.mission_deck).into_iter().rev().collect();
        assert_eq!(next_first, ["KS-004-MMS", "KS-001-MMS", "KS-005-MMS", "KS-002-MMS"]);
        assert_eq!(g.card(g.players[0].set_aside).id, "KS-003-MMS");
    }

    #[test]
    fn a_shuffled_setup_is_new_game_with_the_seed() {
        let json = format!(r#"{{"seed": 11, "setup": {{"decks": [{DECK_A}, {DECK_B}], "missions": {MISSIONS}}}}}"#);
        let g = from_json(Catalog::bundled(), &json).unwrap();
        let cat = Catalog::bundled();
        let index = |v: &[String]| v.iter().map(|c| cat.card(c).unwrap().index).collect::<Vec<_>>();
        let a: Vec<String> = serde_json::from_str(DECK_A).unwrap();
        let b: Vec<String> = serde_json::from_str(DECK_B).unwrap();
        let ms: Vec<Vec<String>> = serde_json::from_str(MISSIONS).unwrap();
        let deck_a = GameDeck { cards: index(&a), missions: index(&ms[0]), name: String::new() };
        let deck_b = GameDeck { cards: index(&b), missions: index(&ms[1]), name: String::new() };
        let want = setup::new_game(cat, &deck_a, &deck_b, 11, false, None).unwrap();
        assert_eq!(g.players, want.players);
        assert_eq!((g.edge, g.mission_deck.clone(), g.cards.clone()), (want.edge, want.mission_deck, want.cards));
    }

    #[test]
    fn a_setup_board_gives_nothing_else() {
        let json = format!(
            r#"{{"cards": ["KS-009"], "owner": [0], "setup": {{"decks": [{DECK_A}, {DECK_B}], "missions": {MISSIONS}}}}}"#
        );
        let e = from_json(Catalog::bundled(), &json).unwrap_err();
        assert!(e.0.contains("a setup board gives only"), "{}", e.0);
        let json = r#"{"setup": {"decks": [[], []], "missions": [["KS-001-MMS"], []]}}"#;
        assert!(from_json(Catalog::bundled(), json).unwrap_err().0.contains("brings 1 missions, not 3"));
    }
}
