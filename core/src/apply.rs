//! Applying a decision, and running effects and phases until a player must decide again.
//!
//! The round: Start (a new mission, chakra, two cards), Action (turns until both passed; the
//! first to pass takes the Edge), Mission evaluation (rank D first), End (tokens and chakra go;
//! after round 4 the game ends, ties to the Edge).

use crate::actions::{chakra_income, main_options_into};
use crate::attachments;
use crate::board::{draw_cards, play_card, reveal};
use crate::effects::{self, Need, lines, triggers::fire, triggers::fire_all};
use crate::language::{StaticKind, TriggerOn};
use crate::scoring;
use crate::setup::mulligan;
use crate::state::{
    Action, DRAW_PER_ROUND, Decision, DecisionKind, Ev, GameState, Mission, Phase, Prompt, RANKS, Val, vars,
};

/// A game that needs more engine steps than this between two decisions is stalled: a bug.
pub const MAX_STEPS: usize = 200_000;

#[derive(Clone, Debug, PartialEq)]
pub enum ApplyError {
    /// The action is not legal now; the state is left untouched.
    Illegal(String),
    /// The engine made no progress (a bug), with the state's round and phase.
    Stall(String),
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::Illegal(s) | ApplyError::Stall(s) => f.write_str(s),
        }
    }
}

pub fn legal_actions(g: &GameState) -> Vec<Action> {
    g.pending.as_ref().map_or_else(Vec::new, Decision::legal)
}

pub fn current_player(g: &GameState) -> i32 {
    g.pending.as_ref().map_or(-1, |d| d.player)
}

pub fn scores(g: &GameState) -> (i64, i64) {
    (g.players[0].score, g.players[1].score)
}

pub fn returns(g: &GameState) -> (f64, f64) {
    match g.winner {
        0 => (1.0, -1.0),
        1 => (-1.0, 1.0),
        _ => (0.0, 0.0),
    }
}

/// Apply one legal action; an illegal one is refused and changes nothing.
pub fn apply(g: &mut GameState, action: Action) -> Result<(), ApplyError> {
    let Some(d) = g.pending.as_ref() else {
        return Err(ApplyError::Illegal(
            if g.phase == Phase::Over { "the game is over" } else { "no decision is pending" }.into(),
        ));
    };
    let price = if d.kind == DecisionKind::Action {
        match d.price(&action) {
            Some(p) => Some(p),
            None => {
                let e_g: Vec<String> = d.actions.iter().take(3).map(|(a, _)| a.to_string()).collect();
                return Err(ApplyError::Illegal(format!(
                    "{action} is not a legal action for player {} now; legal: {} action(s), e.g. [{}]",
                    d.player,
                    d.actions.len(),
                    e_g.join(", ")
                )));
            }
        }
    } else {
        match action {
            Action::Choose(o) if d.options.contains(&o) => None,
            _ => {
                let opts: Vec<String> = d.options.iter().map(|o| o.to_string()).collect();
                return Err(ApplyError::Illegal(format!(
                    "{action} is not one of the options of this {} decision: [{}]",
                    d.kind.as_str(),
                    opts.join(", ")
                )));
            }
        }
    };
    take(g, action, price)
}

/// Apply the `i`-th legal action of the pending decision (in the engine's order), as `apply`
/// would apply it (the search's playouts pick by index: no search for the action among the legal ones).
pub fn apply_nth(g: &mut GameState, i: usize) -> Result<(), ApplyError> {
    let Some(d) = g.pending.as_ref() else {
        return Err(ApplyError::Illegal("no decision is pending".into()));
    };
    if i >= d.len() {
        return Err(ApplyError::Illegal(format!("action {i} of a decision of {} options", d.len())));
    }
    let (action, price) = if d.kind == DecisionKind::Action {
        (d.actions[i].0, Some(d.actions[i].1))
    } else {
        (Action::Choose(d.options[i]), None)
    };
    take(g, action, price)
}

/// The pending decision answered with `action` (legal, at `price` for a main action).
fn take(g: &mut GameState, action: Action, price: Option<i64>) -> Result<(), ApplyError> {
    let mut d = g.pending.take().expect("checked");
    if d.actions.capacity() > g.spare_actions.0.capacity() {
        g.spare_actions.0 = std::mem::take(&mut d.actions); // the next main decision's buffer
    }
    g.decisions += 1;
    g.history.push(action);
    match d.kind {
        DecisionKind::Action => main_action(g, d.player, action, price.unwrap_or(0)),
        DecisionKind::Mulligan => {
            let Action::Choose(o) = action else { unreachable!() };
            mulligan(g, d.player, o.yes());
        }
        _ => {
            let Action::Choose(o) = action else { unreachable!() };
            g.stack.last_mut().expect("a frame waits for this choice").choices.push(o);
        }
    }
    advance(g)
}

fn main_action(g: &mut GameState, player: i32, action: Action, price: i64) {
    g.turn += 1;
    g.last_turn_plays[player as usize].clear(); // a new turn of this player (a pass included)
    g.last_turn_moves[player as usize].clear();
    match action {
        Action::Pass => {
            let other_passed = g.players[1 - player as usize].passed;
            g.players[player as usize].passed = true;
            if !other_passed && g.edge_locked != 1 - player {
                g.edge = player; // the first to pass takes (or keeps) the Edge
            }
            g.emit(Ev::Pass(player));
            fire(
                g,
                TriggerOn::Passed,
                crate::effects::triggers::Who::Nobody,
                &[(vars::PLAYER, Val::Int(player as i64))],
            );
        }
        Action::Play(inst, mi, hidden, over) => {
            play_card(g, player, inst, mi, hidden, over, price);
        }
        Action::Reveal(uid) => reveal(g, player, uid, price),
        Action::Attach(inst, mi, host, hidden) => attachments::attach_card(g, player, inst, mi, host, hidden, price),
        Action::RevealAttachment(inst) => attachments::reveal_attachment(g, player, inst, price),
        Action::Choose(_) => unreachable!("a main action"),
    }
    g.turn_over = true;
}

/// Run effects and phases until a player must decide or the game is over.
pub fn advance(g: &mut GameState) -> Result<(), ApplyError> {
    let mut steps = 0;
    while g.pending.is_none() && g.phase != Phase::Over {
        steps += 1;
        if steps > MAX_STEPS {
            return Err(ApplyError::Stall(format!(
                "no decision after {MAX_STEPS} steps in round {}, phase {}",
                g.round,
                g.phase.as_str()
            )));
        }
        if effects::statics::settle(g) {
            continue; // static effects are checked and applied after every step (seed 000)
        }
        if !g.stack.is_empty() {
            if let Err(Need(d)) = effects::run_top(g) {
                g.pending = Some(d);
            }
            continue;
        }
        g.ctxs.clear(); // no effect is being resolved: no context is referenced any more
        phase_step(g);
    }
    Ok(())
}

fn phase_step(g: &mut GameState) {
    match g.phase {
        Phase::Start => start_phase(g),
        Phase::Action => {
            if g.turn_over {
                g.turn_over = false;
                let other = 1 - g.current;
                if !g.players[other as usize].passed {
                    g.current = other;
                }
            }
            if g.players[g.current as usize].passed {
                g.current = 1 - g.current;
            }
            if g.players[0].passed && g.players[1].passed {
                g.phase = Phase::Evaluate;
                g.eval_index = 0;
                return;
            }
            let mut actions = std::mem::take(&mut g.spare_actions.0);
            if g.round <= g.horizon {
                main_options_into(g, g.current, &mut actions);
            } else {
                actions.clear(); // (a playout past its last round: the state is only valued)
            }
            g.pending = Some(Decision {
                player: g.current,
                kind: DecisionKind::Action,
                options: Vec::new(),
                actions,
                prompt: Prompt::None,
                context: crate::state::DecisionContext::None,
                source: -1,
            });
        }
        Phase::Evaluate => {
            if g.eval_index >= g.missions.len() {
                g.phase = Phase::End;
                g.eval_ready = -1;
                return;
            }
            if g.eval_ready != g.eval_index as i32 {
                // "before Power is determined" in this mission
                g.eval_ready = g.eval_index as i32;
                fire_all(g, TriggerOn::BeforeEvaluation, g.eval_index as i32);
                return;
            }
            scoring::evaluate(g, g.eval_index);
            g.eval_index += 1;
        }
        Phase::End => end_phase(g),
        Phase::Cleanup => cleanup(g),
        _ => {}
    }
}

fn start_phase(g: &mut GameState) {
    g.round += 1;
    g.round_scores.push([0, 0]);
    if let Some(card) = g.mission_deck.pop() {
        // always, in a real game; a scenario board may bring fewer missions
        let rank = (g.round.min(4) - 1) as usize;
        g.missions.push(Mission {
            card,
            rank,
            sides: [Vec::with_capacity(4), Vec::with_capacity(4)],
            attachments: [Vec::new(), Vec::new()],
            winner: -1,
        });
        let were_current = g.lines_version.get() == g.board_version;
        let stamped = g.stamps_current();
        g.board_version += 1;
        g.changed_at(stamped, g.missions.len() as i32 - 1); // (a new mission: the others stand)
        lines::add_mission(g, were_current);
        let c = g.cards[card as usize];
        g.emit(Ev::Mission(c, RANKS[rank]));
    }
    for pi in 0..2 {
        let gain = chakra_income(g, pi as i32);
        let p = &mut g.players[pi];
        p.chakra += gain;
        p.chakra_gained = gain;
        p.chakra_spent = 0;
        p.passed = false;
        p.plays_this_round = 0;
        p.attached_this_round = 0;
        p.played_face_up = 0;
        p.played_hidden = 0;
        p.revealed = 0;
        p.upgraded = 0;
        p.missions_won = 0;
        p.cost_face_up.clear();
        g.emit(Ev::Chakra(pi as i32, gain));
    }
    for pi in 0..2 {
        g.players[pi].drawn = 0;
        draw_cards(g, pi as i32, DRAW_PER_ROUND);
    }
    g.phase = Phase::Action;
    g.current = g.edge;
    g.turn_over = false;
    g.last_turn_moves = [Vec::new(), Vec::new()];
    fire_all(g, TriggerOn::StartOfRound, -1); // resolve before the first turn
}

fn end_phase(g: &mut GameState) {
    if g.round >= crate::state::ROUNDS {
        scoring::finish(g);
        return;
    }
    fire_all(g, TriggerOn::EndOfRound, -1);
    g.phase = Phase::Cleanup;
}

fn cleanup(g: &mut GameState) {
    if g.round < g.horizon {
        scoring::log_round(g); // (a playout's last round is not recorded: its state is only valued)
    }
    // (looked for in place first: most boards end a round with no Power token)
    let tokens = |x: &i32| g.u(*x).tokens != 0;
    let any_tokens = g.missions.iter().any(|m| m.sides.iter().any(|s| s.iter().any(tokens)));
    for uid in if any_tokens { g.all_uids() } else { Vec::new() } {
        let u = g.u(uid);
        if u.tokens != 0 && (u.hidden || !lines::unit_has_static(g, u, StaticKind::KeepTokens)) {
            g.um(uid).tokens = 0;
            g.token_version += 1;
        }
    }
    for p in g.players.iter_mut() {
        p.chakra = 0;
    }
    g.edge_locked = -1;
    g.phase = Phase::Start;
}
