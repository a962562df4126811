//! The game state: compact plain data (integer ids, small vectors), cheap to clone.
//!
//! Cards in a game are *instances*: small ints indexing `GameState::cards` (the catalog card)
//! and `GameState::owner`. A character in play is a [`Unit`]: an upgrade stack of instances
//! (bottom → top) with its status (hidden, Power tokens, controller, attachments). Ids keep the
//! reference engine's conventions: `-1` is "none" for a unit, a mission, a card or a player.

use crate::cards::{Card, Catalog};
use crate::language::{Step, VarId};
use crate::rng::PyRandom;

pub type Inst = i32;
pub type Uid = i32;

pub const RANKS: [char; 4] = ['D', 'C', 'B', 'A'];
pub const RANK_BONUS: [i64; 4] = [1, 2, 3, 4];
pub const BASE_CHAKRA: i64 = 5;
pub const HAND_SIZE: usize = 5;
pub const DRAW_PER_ROUND: usize = 2;
pub const ROUNDS: i32 = 4;

/// `Clone` field by field, with a `clone_from` that reuses the target's buffers (a search plays
/// thousands of playouts from copies of a few states: copied into one state kept for the purpose,
/// they allocate nothing). Every field must be listed: the struct literal of `clone` says so.
macro_rules! clone_fields {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                $t { $($f: self.$f.clone()),* }
            }
            fn clone_from(&mut self, o: &Self) {
                $(self.$f.clone_from(&o.$f);)*
            }
        }
    };
}

/// `dst` made a copy of `src` in its own buffer. A unit's stack and attachments and a side of a
/// mission hold a few cards: copied one by one they cost less than a call to `memcpy` each, and a
/// state's copy makes a hundred of them.
fn copy_few<T: Copy>(dst: &mut Vec<T>, src: &[T]) {
    dst.clear();
    if src.len() > 8 {
        dst.extend_from_slice(src);
        return;
    }
    for &x in src {
        dst.push(x);
    }
}

impl Clone for Unit {
    fn clone(&self) -> Self {
        Unit {
            uid: self.uid,
            stack: self.stack.clone(),
            card: self.card,
            owner: self.owner,
            controller: self.controller,
            mission: self.mission,
            hidden: self.hidden,
            tokens: self.tokens,
            played_round: self.played_round,
            played_turn: self.played_turn,
            attachments: self.attachments.clone(),
            controlled_by: self.controlled_by,
            discounted: self.discounted,
        }
    }
    fn clone_from(&mut self, o: &Self) {
        let Unit {
            uid,
            stack,
            card,
            owner,
            controller,
            mission,
            hidden,
            tokens,
            played_round,
            played_turn,
            attachments,
            controlled_by,
            discounted,
        } = self;
        *uid = o.uid;
        copy_few(stack, &o.stack);
        *card = o.card;
        *owner = o.owner;
        *controller = o.controller;
        *mission = o.mission;
        *hidden = o.hidden;
        *tokens = o.tokens;
        *played_round = o.played_round;
        *played_turn = o.played_turn;
        copy_few(attachments, &o.attachments);
        *controlled_by = o.controlled_by;
        *discounted = o.discounted;
    }
}

impl Clone for Mission {
    fn clone(&self) -> Self {
        Mission {
            card: self.card,
            rank: self.rank,
            sides: self.sides.clone(),
            attachments: self.attachments.clone(),
            winner: self.winner,
        }
    }
    fn clone_from(&mut self, o: &Self) {
        let Mission { card, rank, sides, attachments, winner } = self;
        *card = o.card;
        *rank = o.rank;
        for (d, s) in sides.iter_mut().zip(&o.sides) {
            copy_few(d, s);
        }
        for (d, s) in attachments.iter_mut().zip(&o.attachments) {
            copy_few(d, s);
        }
        *winner = o.winner;
    }
}
clone_fields!(Player {
    index,
    hand,
    deck,
    discard,
    missions,
    set_aside,
    chakra,
    score,
    passed,
    plays_this_round,
    attached_this_round,
    mulliganed,
    chakra_gained,
    chakra_spent,
    drawn,
    played_face_up,
    played_hidden,
    revealed,
    upgraded,
    cost_face_up,
    missions_won
});
clone_fields!(Ctx { player, source, mission, card, vars, upgrade, ambush, pinned, ties });
clone_fields!(Decision { player, kind, options, actions, prompt, context, source });
clone_fields!(Frame { steps, ctx, pc, choices, cursor, label });
clone_fields!(RoundStats {
    chakra_gained,
    chakra_spent,
    chakra_left,
    cards_drawn,
    played_face_up,
    played_hidden,
    revealed,
    upgraded,
    cost_face_up,
    characters_in_play,
    missions_won,
    points,
    edge
});
clone_fields!(LinesCache { lines, statics_flat, static_at, triggers_flat, trigger_at });
// (the filling's buffers are not copied: every filling clears them before it reads them)
impl Clone for PowerTable {
    fn clone(&self) -> Self {
        PowerTable {
            power: self.power.clone(),
            sides: self.sides.clone(),
            zeroed: Vec::new(),
            hit: Vec::new(),
            delta: Vec::new(),
        }
    }
    fn clone_from(&mut self, o: &Self) {
        self.power.clone_from(&o.power);
        self.sides.clone_from(&o.sides);
    }
}
clone_fields!(GameState {
    cat,
    cards,
    owner,
    players,
    rng,
    seed,
    missions,
    mission_deck,
    round,
    phase,
    edge,
    first_edge,
    current,
    turn,
    eval_index,
    stack,
    ctxs,
    pending,
    next_uid,
    units,
    winner,
    tiebreak_by_edge,
    edge_locked,
    round_scores,
    decisions,
    events,
    history,
    last_turn_plays,
    turn_over,
    round_log,
    board_version,
    lines_version,
    lines,
    token_version,
    power_key,
    power_reads,
    power_cache,
    stamps,
    stamped,
    att_hidden,
    att_power,
    last_turn_moves,
    eval_ready,
    tie_picks,
    settled,
    settle_free,
    horizon,
    spare_actions
});

#[derive(Debug, PartialEq)]
pub struct Unit {
    pub uid: Uid,
    /// bottom → top; the top card is the character
    pub stack: Vec<Inst>,
    /// the catalog index of the top card, kept with the stack (`GameState::restacked`): the card
    /// of a character is read wherever a rule looks at it
    pub card: u16,
    pub owner: i32,
    /// the side it stands on (differs from owner under take control)
    pub controller: i32,
    pub mission: i32,
    pub hidden: bool,
    pub tokens: i64,
    pub played_round: i32,
    /// the action count when it was last played (or revealed)
    pub played_turn: i32,
    pub attachments: Vec<Inst>,
    /// uid of the unit whose effect took control of this one (-1: none; 0: a source off the board)
    pub controlled_by: Uid,
    /// last played for less than the rules' price because of an effect
    pub discounted: bool,
}

impl Unit {
    pub fn top(&self) -> Inst {
        *self.stack.last().expect("a unit has a card")
    }
}

#[derive(Debug, PartialEq)]
pub struct Mission {
    pub card: Inst,
    /// 0..3 = D, C, B, A (the round it entered play)
    pub rank: usize,
    pub sides: [Vec<Uid>; 2],
    pub attachments: [Vec<Inst>; 2],
    /// last evaluation's winner (-1: nobody)
    pub winner: i32,
}

#[derive(Debug, PartialEq, Default)]
pub struct Player {
    pub index: i32,
    pub hand: Vec<Inst>,
    /// the top of the deck is the END of the list
    pub deck: Vec<Inst>,
    pub discard: Vec<Inst>,
    /// the 3 chosen missions
    pub missions: Vec<Inst>,
    /// the unused mission, unseen
    pub set_aside: Inst,
    pub chakra: i64,
    pub score: i64,
    pub passed: bool,
    /// characters played this round (FIRST STRIKE)
    pub plays_this_round: i32,
    /// attachments played this round (an attachment's FIRST STRIKE)
    pub attached_this_round: i32,
    pub mulliganed: bool,
    // this round's statistics, kept in GameState::round_log at the end of each round
    pub chakra_gained: i64,
    pub chakra_spent: i64,
    pub drawn: i64,
    pub played_face_up: i64,
    pub played_hidden: i64,
    pub revealed: i64,
    pub upgraded: i64,
    pub cost_face_up: Vec<i64>,
    pub missions_won: i64,
}

impl Player {
    /// Spend chakra (counted in this round's chakra spent).
    pub fn pay(&mut self, chakra: i64) {
        self.chakra -= chakra;
        self.chakra_spent += chakra;
    }
    /// Remove a card from hand, discard pile or deck (wherever it is); false if in none.
    pub fn take(&mut self, inst: Inst) -> bool {
        for zone in [&mut self.hand, &mut self.discard, &mut self.deck] {
            if let Some(i) = zone.iter().position(|&c| c == inst) {
                zone.remove(i);
                return true;
            }
        }
        false
    }
}

/// A remembered value: what an earlier step did ("played", "x", "defeated_cost" …).
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    None,
    Bool(bool),
    Int(i64),
    List(Vec<i32>),
    Name(u16),
}

impl Val {
    pub fn truthy(&self) -> bool {
        match self {
            Val::None => false,
            Val::Bool(b) => *b,
            Val::Int(n) => *n != 0,
            Val::List(l) => !l.is_empty(),
            Val::Name(_) => true,
        }
    }
    /// The value as a number: an int (not a boolean), else 0.
    pub fn number(&self) -> i64 {
        match self {
            Val::Int(n) => *n,
            _ => 0,
        }
    }
}

/// Who resolves an effect, from which card, where, with which remembered values.
#[derive(Debug, PartialEq)]
pub struct Ctx {
    /// the controller (the decider unless a verb says otherwise)
    pub player: i32,
    /// unit uid of the character (-1 for a mission or an attachment on a mission)
    pub source: Uid,
    /// "this mission"
    pub mission: i32,
    /// the card instance whose effect this is
    pub card: Inst,
    pub vars: Vec<(VarId, Val)>,
    pub upgrade: bool,
    pub ambush: bool,
    /// "this mission" stays `mission` even if the source character moves
    pub pinned: bool,
    /// the step resolving now: which of the characters tied for a pick it reads ("if the strongest
    /// … is here", "the cost of the strongest …") its player chose (effects::statics)
    pub ties: Vec<(&'static crate::language::Selector, Uid)>,
}

impl Ctx {
    pub fn new(player: i32) -> Ctx {
        Ctx {
            player,
            source: -1,
            mission: -1,
            card: -1,
            vars: Vec::new(),
            upgrade: false,
            ambush: false,
            pinned: false,
            ties: Vec::new(),
        }
    }
    pub fn at(player: i32, source: Uid, mission: i32, card: Inst) -> Ctx {
        Ctx {
            player,
            source,
            mission,
            card,
            vars: Vec::new(),
            upgrade: false,
            ambush: false,
            pinned: false,
            ties: Vec::new(),
        }
    }
    pub fn get(&self, v: VarId) -> Option<&Val> {
        self.vars.iter().find(|(k, _)| *k == v).map(|(_, x)| x)
    }
    pub fn num(&self, v: VarId) -> i64 {
        self.get(v).map_or(0, Val::number)
    }
    pub fn set(&mut self, v: VarId, val: Val) {
        if let Some(slot) = self.vars.iter_mut().find(|(k, _)| *k == v) {
            slot.1 = val;
        } else {
            self.vars.push((v, val));
        }
    }
}

/// An answer to a decision other than a main action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opt {
    /// decline an optional choice
    Skip,
    Bool(bool),
    /// a unit, a mission, a card instance, a number, or a position (trigger order)
    Int(i32),
    /// where to play a card: (mission, upgraded-over uid or host uid or -1, price)
    Place(i32, i32, i32),
    /// an effect line of a card: (card instance, line index)
    Line(i32, i32),
}

impl Opt {
    /// The number of an `Int` answer (None for any other).
    pub fn int_only(self) -> Option<i32> {
        match self {
            Opt::Int(i) => Some(i),
            _ => None,
        }
    }
    pub fn int(self) -> Option<i32> {
        match self {
            Opt::Int(i) => Some(i),
            Opt::Bool(b) => Some(b as i32),
            _ => None,
        }
    }
    pub fn yes(self) -> bool {
        match self {
            Opt::Bool(b) => b,
            Opt::Int(i) => i != 0,
            Opt::Skip => false,
            _ => true,
        }
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// Options read as the Python side writes them (`None`, `True`, `3`, `(0, -1, 2)`).
impl std::fmt::Display for Opt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Opt::Skip => f.write_str("None"),
            Opt::Bool(b) => f.write_str(py_bool(*b)),
            Opt::Int(i) => write!(f, "{i}"),
            Opt::Place(a, b, c) => write!(f, "({a}, {b}, {c})"),
            Opt::Line(a, b) => write!(f, "({a}, {b})"),
        }
    }
}

/// Actions read as the Python side writes them (`('play', 3, 0, False, -1)`).
impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Pass => f.write_str("('pass',)"),
            Action::Play(c, m, h, o) => write!(f, "('play', {c}, {m}, {}, {o})", py_bool(*h)),
            Action::Reveal(u) => write!(f, "('reveal', {u})"),
            Action::Attach(c, m, h, hid) => write!(f, "('attach', {c}, {m}, {h}, {})", py_bool(*hid)),
            Action::RevealAttachment(c) => write!(f, "('reveal_attachment', {c})"),
            Action::Choose(o) => write!(f, "('choose', {o})"),
        }
    }
}

/// One legal move: a main action of the Action phase, or an answer to another decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    Pass,
    /// (card, mission, hidden, upgraded-over uid or -1)
    Play(Inst, i32, bool, Uid),
    Reveal(Uid),
    /// (card, mission, host uid or -1 for the mission, face-down)
    Attach(Inst, i32, Uid, bool),
    RevealAttachment(Inst),
    Choose(Opt),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    Action,
    Mulligan,
    Target,
    Mission,
    Card,
    YesNo,
    Number,
    Order,
    Place,
    Line,
}

impl DecisionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionKind::Action => "action",
            DecisionKind::Mulligan => "mulligan",
            DecisionKind::Target => "target",
            DecisionKind::Mission => "mission",
            DecisionKind::Card => "card",
            DecisionKind::YesNo => "yesno",
            DecisionKind::Number => "number",
            DecisionKind::Order => "order",
            DecisionKind::Place => "place",
            DecisionKind::Line => "line",
        }
    }
}

/// What a decision's text says; rendered to English only when someone asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Prompt {
    None,
    Text(&'static str),
    /// "use <card> <line>?"
    UseLine(Label),
    /// "you may <verb>"
    May(crate::language::Verb),
    /// a target prompt: the selector in English
    Target(&'static crate::language::Selector),
    /// "defeat <card> instead?"
    Sacrifice(u16),
    /// "play it paying N more (no: defeat it)?"
    PayMore(i64),
}

/// The effect steps a decision is about, for players that look at them.
#[derive(Clone, Debug, PartialEq)]
pub enum DecisionContext {
    None,
    Step(&'static Step),
    /// a whole optional line (the steps after its gate)
    Line(Vec<&'static Step>),
}

/// What the engine waits for: one player chooses one of the options.
#[derive(Debug, PartialEq)]
pub struct Decision {
    pub player: i32,
    pub kind: DecisionKind,
    pub options: Vec<Opt>,
    /// main actions: every legal action and its price, in order
    pub actions: Vec<(Action, i64)>,
    pub prompt: Prompt,
    pub context: DecisionContext,
    /// the unit whose effect asks (-1: a mission, or a main action)
    pub source: Uid,
}

impl Decision {
    pub fn simple(player: i32, kind: DecisionKind, options: Vec<Opt>, prompt: Prompt) -> Decision {
        Decision { player, kind, options, actions: Vec::new(), prompt, context: DecisionContext::None, source: -1 }
    }
    /// The legal actions, in the order the engine offers them.
    pub fn legal(&self) -> Vec<Action> {
        if self.kind == DecisionKind::Action {
            self.actions.iter().map(|(a, _)| *a).collect()
        } else {
            self.options.iter().map(|o| Action::Choose(*o)).collect()
        }
    }
    pub fn len(&self) -> usize {
        if self.kind == DecisionKind::Action { self.actions.len() } else { self.options.len() }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn nth(&self, i: usize) -> Action {
        if self.kind == DecisionKind::Action { self.actions[i].0 } else { Action::Choose(self.options[i]) }
    }
    pub fn price(&self, a: &Action) -> Option<i64> {
        self.actions.iter().find(|(x, _)| x == a).map(|(_, p)| *p)
    }
}

/// The name of a frame or of an optional line, for prompts: a catalog card and what of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    pub card: u16,
    pub what: LabelWhat,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LabelWhat {
    /// an effect line of the card (its index)
    Line(u8),
    /// "MODIFIES (repeat)" on a line that does not apply now
    Repeat(u8),
    /// a line granted by a static: its timing
    Granted(crate::cards::Timing),
    Trigger,
    Score,
    Copy,
    Card,
    /// frames with no card of their own
    Plain(&'static str),
}

/// One step of a frame: a card's step, the gate of an optional line, or simultaneous
/// triggers waiting for their order.
#[derive(Clone, Debug, PartialEq)]
pub enum FrameStep {
    Step(&'static Step),
    /// Start of an optional effect line: the controller may decline the whole line (the `size`
    /// steps that follow it).
    Gate {
        size: usize,
        label: Label,
        must: bool,
    },
    /// A card's instant line whose applying depends on the board (a DUEL line, or a line a DUEL
    /// modifier changes): judged when the lines above it have resolved, then replaced by its steps.
    Line {
        card: u16,
        index: u8,
        applies: crate::effects::Applies,
    },
    /// Simultaneous triggers: the turn player picks which resolves first.
    Order(Vec<Frame>),
    /// A continuous pick of one character ("the strongest enemy …") is tied: the static's player
    /// chooses which of those tied it is (the frame's context is the static's; effects::statics).
    Tie(&'static crate::language::Selector),
}

/// An effect being resolved: its steps, where it is, and the choices made so far. Its
/// context lives in the state's context arena (frames of one effect may share it).
#[derive(Debug, PartialEq)]
pub struct Frame {
    pub steps: Vec<FrameStep>,
    pub ctx: usize,
    pub pc: usize,
    pub choices: Vec<Opt>,
    pub cursor: usize,
    pub label: Label,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Setup,
    Mulligan,
    Start,
    Action,
    Evaluate,
    End,
    Cleanup,
    Over,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Mulligan => "mulligan",
            Phase::Start => "start",
            Phase::Action => "action",
            Phase::Evaluate => "evaluate",
            Phase::End => "end",
            Phase::Cleanup => "cleanup",
            Phase::Over => "over",
        }
    }
    pub fn parse(s: &str) -> Option<Phase> {
        Some(match s {
            "setup" => Phase::Setup,
            "mulligan" => Phase::Mulligan,
            "start" => Phase::Start,
            "action" => Phase::Action,
            "evaluate" => Phase::Evaluate,
            "end" => Phase::End,
            "cleanup" => Phase::Cleanup,
            "over" => Phase::Over,
            _ => return None,
        })
    }
}

/// One round's statistics of one player (for the simulation database).
#[derive(Debug, PartialEq, Default)]
pub struct RoundStats {
    pub chakra_gained: i64,
    pub chakra_spent: i64,
    pub chakra_left: i64,
    pub cards_drawn: i64,
    pub played_face_up: i64,
    pub played_hidden: i64,
    pub revealed: i64,
    pub upgraded: i64,
    pub cost_face_up: Vec<i64>,
    pub characters_in_play: i64,
    pub missions_won: i64,
    pub points: i64,
    pub edge: bool,
}

/// The event stream (optional): what happened, in the reference engine's shapes.
#[derive(Clone, Debug, PartialEq)]
pub enum Ev {
    Dealt(i32, Vec<u16>),
    Setup(i32, Vec<u16>),
    Mulligan(i32, bool),
    Opening(i32, Vec<u16>),
    Mission(u16, char),
    Chakra(i32, i64),
    Draw(i32, Inst),
    Pass(i32),
    /// (player, card, mission, how: "hidden" | "upgrade" | "face_up", price)
    Play(i32, u16, i32, &'static str, i64),
    Reveal(i32, u16, i32, i64),
    MissionResult(i32, i64, i64, i32),
    GameOver(i32, i64, i64),
    Powerup(i32, Uid, i64),
    ChakraGain(i32, i64),
    ChakraSteal(i32, i64),
    Discard(i32, Inst),
    Look(i32),
    Move(i32, Uid, i32),
    Hide(i32, Uid),
    Defeat(i32, Uid),
    Leave(i32, Uid, &'static str),
    Control(i32, Uid),
    Edge(i32),
    Points(i32, i64),
    Copy(i32, u16, &'static str),
    /// a top card stripped (its card)
    Strip(i32, Uid, u16),
    /// cards stripped from a stack (how many)
    StripCount(i32, Uid, i64),
    Retrieve(i32, Inst),
    RevealTop(i32, u16),
    RevealHand(i32, u16),
    Split(i32, Uid, Uid, i32),
    Tax(i32, Uid, i64),
    /// (player, card, mission, how: "face_up" | "hidden" | "character", price)
    Attach(i32, u16, i32, &'static str, i64),
    RevealAttachment(i32, u16, i32, i64),
    DiscardAttachment(i32, u16),
    MoveAttachment(i32, u16, Uid),
    /// a duplicate name arrived and was discarded: (owner, card, mission)
    Duplicate(i32, u16, i32),
    /// a hidden character turned face-up by an effect, not played
    TurnedUp(i32, Uid),
}

/// Something worked out from the board and kept with the state (the lines in force, the Power
/// table). `clone` shares it (a count, no copy); `clone_from` copies it into the target's own
/// buffers when the target holds the only reference to them, so that a state copied again and
/// again (a search's playouts) fills its caches in place and never allocates.
#[derive(Debug, Default)]
pub struct Cache<T>(std::cell::RefCell<std::sync::Arc<T>>);

impl<T: Clone> Clone for Cache<T> {
    fn clone(&self) -> Self {
        Cache(std::cell::RefCell::new(std::sync::Arc::clone(&self.0.borrow())))
    }
    fn clone_from(&mut self, o: &Self) {
        let theirs = o.0.borrow();
        let mine = self.0.get_mut();
        if std::sync::Arc::ptr_eq(mine, &theirs) {
            return;
        }
        match std::sync::Arc::get_mut(mine) {
            Some(m) => m.clone_from(&theirs),
            None => *mine = std::sync::Arc::clone(&theirs),
        }
    }
}

impl<T> Cache<T> {
    pub fn borrow(&self) -> std::cell::Ref<'_, std::sync::Arc<T>> {
        self.0.borrow()
    }
    pub fn borrow_mut(&self) -> std::cell::RefMut<'_, std::sync::Arc<T>> {
        self.0.borrow_mut()
    }
}

/// Which continuous lines are in force, and every static and trigger grouped by kind, worked
/// out once per board version.
#[derive(Debug, Default)]
pub struct LinesCache {
    /// (unit or -1, mission, controller, the card's continuous line (card index, line index), instance)
    pub lines: Vec<ActiveLine>,
    /// every static in force, grouped by kind (board order within a kind): `static_at[k]..static_at[k + 1]`
    pub statics_flat: Vec<StaticRef>,
    pub static_at: [u32; crate::language::STATIC_KINDS + 1],
    pub triggers_flat: Vec<TriggerRef>,
    pub trigger_at: [u32; crate::language::TRIGGER_KINDS + 1],
}

impl LinesCache {
    /// The statics of one kind in force, in board order.
    pub fn statics(&self, kind: crate::language::StaticKind) -> &[StaticRef] {
        let k = kind.index();
        &self.statics_flat[self.static_at[k] as usize..self.static_at[k + 1] as usize]
    }
    /// The triggers of one moment in force, in board order.
    pub fn triggers(&self, on: crate::language::TriggerOn) -> &[TriggerRef] {
        let k = on.index();
        &self.triggers_flat[self.trigger_at[k] as usize..self.trigger_at[k + 1] as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActiveLine {
    pub unit: Uid,
    pub mission: i32,
    pub controller: i32,
    pub card: u16,
    pub line: u16,
    pub inst: Inst,
}

/// A continuous pick of one character settled on a tie: the static (read from `unit`, `mission`,
/// `controller`, its target `sel`) and the character its player chose, -1 while choosing. It
/// stands while that character stays among those tied (effects::statics).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TiePick {
    pub unit: Uid,
    pub mission: i32,
    pub controller: i32,
    pub sel: &'static crate::language::Selector,
    pub chosen: Uid,
}

#[derive(Clone, Copy, Debug)]
pub struct StaticRef {
    pub unit: Uid,
    pub mission: i32,
    pub controller: i32,
    pub s: &'static crate::language::Static,
}

#[derive(Clone, Copy, Debug)]
pub struct TriggerRef {
    pub unit: Uid,
    pub mission: i32,
    pub controller: i32,
    pub t: &'static crate::language::Trigger,
    pub inst: Inst,
}

#[derive(Debug)]
pub struct GameState {
    pub cat: &'static Catalog,
    /// per instance: the catalog index of its card
    pub cards: Vec<u16>,
    pub owner: Vec<i32>,
    pub players: [Player; 2],
    pub rng: PyRandom,
    pub seed: u64,
    pub missions: Vec<Mission>,
    /// top is the END of the list
    pub mission_deck: Vec<Inst>,
    pub round: i32,
    pub phase: Phase,
    pub edge: i32,
    pub first_edge: i32,
    /// the player whose turn it is in the Action phase
    pub current: i32,
    /// actions taken so far (for "played during the previous turn")
    pub turn: i32,
    pub eval_index: usize,
    pub stack: Vec<Frame>,
    pub ctxs: Vec<Ctx>,
    pub pending: Option<Decision>,
    pub next_uid: Uid,
    /// units in play, indexed by uid
    pub units: Vec<Option<Unit>>,
    pub winner: i32,
    pub tiebreak_by_edge: bool,
    /// a player who cannot lose the Edge this round
    pub edge_locked: i32,
    /// per round, points scored by each player
    pub round_scores: Vec<[i64; 2]>,
    pub decisions: i64,
    pub events: Option<Vec<(i32, Ev)>>,
    pub history: Vec<Action>,
    /// per player: uids played in their latest turn
    pub last_turn_plays: [Vec<Uid>; 2],
    pub turn_over: bool,
    pub round_log: Vec<[RoundStats; 2]>,
    /// bumped whenever which cards are face-up where changes
    pub board_version: u64,
    pub lines_version: std::cell::Cell<u64>,
    pub lines: Cache<LinesCache>,
    /// bumped whenever Power tokens change anywhere
    pub token_version: u64,
    pub power_key: std::cell::Cell<Option<PowerMemoKey>>,
    /// what the conditions evaluated lately read of the Edge, the hands and the phase
    /// (`reads::EDGE`, …: set by `selectors::condition`; the Power memo clears it before a
    /// filling and keys the table by what the filling read)
    pub power_reads: std::cell::Cell<u8>,
    pub power_cache: Cache<PowerTable>,
    /// a number per mission (the first `STAMPED`) that stands for what is on it: its characters,
    /// their cards, state, tokens and attachments. Each is drawn fresh from a counter of the whole
    /// program (`fresh_stamps`) when its mission changes, so two states, copies of each other or
    /// not, that show the same stamp show the same mission, and what was worked out from a
    /// mission alone holds wherever its stamp is met again (`power`'s kept statics). 0: none.
    pub stamps: std::cell::Cell<[u64; STAMPED]>,
    /// the board and token versions the stamps stand for: a change of the board that does not
    /// say where it happened leaves them behind, and every mission is stamped afresh when they
    /// are next read (`GameState::current_stamps`)
    pub stamped: std::cell::Cell<(u64, u64)>,
    /// face-down attachments
    pub att_hidden: Vec<Inst>,
    /// Power overrides: a character turned attachment
    pub att_power: Vec<(Inst, i64)>,
    /// the characters moved during each player's latest turn
    pub last_turn_moves: [Vec<Uid>; 2],
    /// the mission whose "before Power is determined" effects have run
    pub eval_ready: i32,
    /// continuous picks of one character settled on a tie (effects::statics)
    pub tie_picks: Vec<TiePick>,
    /// the state (as the Power memo keys it) the continuous picks were last settled for
    pub settled: Option<PowerKey>,
    /// the board version at which no line of a settled kind was in force and no tie choice
    /// stood (`statics::settle`'s usual case): nothing is settled until the board changes or a
    /// tie is chosen (`u64::MAX`: not known)
    pub settle_free: u64,
    /// a playout's last round (not part of the game): past it the state is only valued, so the
    /// first decision of the next round is offered without its main actions built
    /// (`i32::MAX`: every decision is built)
    pub horizon: i32,
    /// the buffer of a main decision taken, for the next one (not part of the game: a copy of
    /// the state does not copy it)
    pub spare_actions: Spare<Vec<(Action, i64)>>,
}

/// A buffer kept for reuse, not part of what it is kept in: a clone starts without it, and
/// `clone_from` keeps the target's own.
#[derive(Debug, Default)]
pub struct Spare<T>(pub T);

impl<T: Default> Clone for Spare<T> {
    fn clone(&self) -> Self {
        Spare(T::default())
    }
    fn clone_from(&mut self, _: &Self) {}
}

/// How many missions carry a stamp (`GameState::stamps`); a mission past them never has one.
pub const STAMPED: usize = 6;

/// `n` stamps never drawn before (the first of them): unique in the whole program.
pub fn fresh_stamps(n: u64) -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(n, std::sync::atomic::Ordering::Relaxed)
}

/// What continuous lines can depend on: the board, the tokens, the Edge, empty hands, the phase.
pub type PowerKey = (u64, u64, i32, bool, bool, bool);

/// What a condition read besides the board and the tokens (bits of `GameState::power_reads`).
pub mod reads {
    /// who holds the Edge (a condition on the Edge, or on who is winning a mission)
    pub const EDGE: u8 = 1;
    /// whether a player's hand is empty
    pub const HANDS: u8 = 2;
    /// whether the missions are being scored
    pub const EVALUATING: u8 = 4;
}

/// What the Power table was filled for: the board and the tokens, and of the Edge, the empty
/// hands and the evaluation phase what the statics in force read (`reads`). The values are those
/// of the state the table was last found valid for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PowerMemoKey {
    pub board: u64,
    pub tokens: u64,
    pub reads: u8,
    pub edge: i32,
    pub empty: [bool; 2],
    pub evaluating: bool,
}

/// The Power of every character in play and each side's total per mission.
#[derive(Debug, Default)]
pub struct PowerTable {
    /// indexed by uid: the Power of every character in play when the table was filled (the entry
    /// of a character out of play is stale: a reader trusts only a character in play's)
    pub power: Vec<i64>,
    /// filled when first asked, as the reference engine does
    pub sides: Vec<[Option<i64>; 2]>,
    /// buffers of the filling (the characters a static zeroes, the ones the statics hit, what
    /// they add to each character by uid: all zero between fillings)
    pub zeroed: Vec<i32>,
    pub hit: Vec<i32>,
    pub delta: Vec<i64>,
}

impl GameState {
    pub fn card(&self, inst: Inst) -> &'static Card {
        &self.cat.cards[self.cards[inst as usize] as usize]
    }
    pub fn unit(&self, uid: Uid) -> Option<&Unit> {
        if uid < 0 {
            return None;
        }
        self.units.get(uid as usize).and_then(|u| u.as_ref())
    }
    pub fn unit_mut(&mut self, uid: Uid) -> Option<&mut Unit> {
        if uid < 0 {
            return None;
        }
        self.units.get_mut(uid as usize).and_then(|u| u.as_mut())
    }
    pub fn u(&self, uid: Uid) -> &Unit {
        self.unit(uid).expect("a unit in play")
    }
    pub fn um(&mut self, uid: Uid) -> &mut Unit {
        self.unit_mut(uid).expect("a unit in play")
    }
    pub fn in_play(&self, uid: Uid) -> bool {
        self.unit(uid).is_some()
    }
    pub fn unit_card(&self, u: &Unit) -> &'static Card {
        &self.cat.cards[u.card as usize]
    }
    /// The stack of unit `uid` changed: its top card is read again.
    pub fn restacked(&mut self, uid: Uid) {
        let Some(top) = self.unit(uid).and_then(|u| u.stack.last().copied()) else { return };
        let c = self.cards[top as usize];
        self.um(uid).card = c;
    }
    pub fn emit(&mut self, ev: Ev) {
        if let Some(evs) = &mut self.events {
            evs.push((self.round, ev));
        }
    }
    pub fn emitting(&self) -> bool {
        self.events.is_some()
    }
    /// Every unit in play in board order (missions, then side 0 before side 1).
    pub fn all_uids(&self) -> Vec<Uid> {
        let mut out = Vec::with_capacity(16);
        for m in &self.missions {
            out.extend_from_slice(&m.sides[0]);
            out.extend_from_slice(&m.sides[1]);
        }
        out
    }
    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }
    pub fn att_is_hidden(&self, a: Inst) -> bool {
        self.att_hidden.contains(&a)
    }
    pub fn set_att_hidden(&mut self, a: Inst, hidden: bool) {
        let pos = self.att_hidden.iter().position(|&x| x == a);
        match (hidden, pos) {
            (true, None) => self.att_hidden.push(a),
            (false, Some(i)) => {
                self.att_hidden.remove(i);
            }
            _ => {}
        }
    }
    pub fn att_power_of(&self, a: Inst) -> Option<i64> {
        self.att_power.iter().find(|(x, _)| *x == a).map(|(_, p)| *p)
    }
    pub fn ctx(&self, i: usize) -> &Ctx {
        &self.ctxs[i]
    }
    pub fn ctx_mut(&mut self, i: usize) -> &mut Ctx {
        &mut self.ctxs[i]
    }
    pub fn new_ctx(&mut self, c: Ctx) -> usize {
        self.ctxs.push(c);
        self.ctxs.len() - 1
    }
    pub fn side(&self, mi: usize, player: i32) -> &Vec<Uid> {
        &self.missions[mi].sides[player as usize]
    }
    /// Put a unit in the index (it must stand on a side too).
    pub fn index_unit(&mut self, u: Unit) {
        let i = u.uid as usize;
        if self.units.len() <= i {
            self.units.resize(i + 1, None);
        }
        self.units[i] = Some(u);
    }
    /// The board changed: everything worked out from it is stale, except the lines in force when
    /// `quiet` (the change touched only a character with no continuous line and no attachment:
    /// a card that brings no line cannot change which lines are in force, wherever it goes).
    pub fn board_changed(&mut self, quiet: bool) {
        let current = self.lines_version.get() == self.board_version;
        self.board_version += 1;
        if quiet && current {
            self.lines_version.set(self.board_version);
        }
    }
    /// `board_changed`, the change made on mission `mi` alone: when the stamps stood for the
    /// board before it, that mission is stamped afresh and the others keep theirs.
    pub fn board_changed_at(&mut self, quiet: bool, mi: i32) {
        let stamped = self.stamps_current();
        self.board_changed(quiet);
        if stamped {
            self.restamp(mi);
        }
    }
    /// A change `board_changed_at` made touched mission `mi` too (a character moved from one
    /// mission to another): stamped afresh if the stamps stood for the board.
    pub fn also_changed_at(&mut self, mi: i32) {
        if self.stamps_current() {
            self.restamp(mi);
        }
    }
    /// Power tokens changed on a character of mission `mi` alone (`token_version` bumped, the
    /// stamps kept as `board_changed_at` keeps them).
    pub fn tokens_changed_at(&mut self, mi: i32) {
        let stamped = self.stamps_current();
        self.token_version += 1;
        if stamped {
            self.restamp(mi);
        }
    }
    /// Whether the stamps stand for the board and tokens as they are.
    #[inline(always)]
    pub fn stamps_current(&self) -> bool {
        self.stamped.get() == (self.board_version, self.token_version)
    }
    /// A change of the board or the tokens (its versions bumped) touched mission `mi`, and maybe
    /// others each given the same way: `were` tells whether the stamps stood for the board
    /// before the change (`stamps_current`), and then `mi` is stamped afresh and the others keep
    /// theirs.
    pub fn changed_at(&mut self, were: bool, mi: i32) {
        if were {
            self.restamp(mi);
        }
    }
    /// Mission `mi` stamped afresh, the stamps then standing for the board as it is.
    fn restamp(&mut self, mi: i32) {
        if (0..STAMPED as i32).contains(&mi) {
            self.stamps.get_mut()[mi as usize] = fresh_stamps(1);
        }
        self.stamped.set((self.board_version, self.token_version));
    }
    /// The missions' stamps for the board as it stands (every mission stamped afresh if a change
    /// of the board did not say where it happened).
    #[inline]
    pub fn current_stamps(&self) -> [u64; STAMPED] {
        if !self.stamps_current() {
            let first = fresh_stamps(STAMPED as u64);
            self.stamps.set(std::array::from_fn(|i| first + i as u64));
            self.stamped.set((self.board_version, self.token_version));
        }
        self.stamps.get()
    }
    /// A character that brings no continuous line face-up or hidden: no attachment, and a top card
    /// with none.
    pub fn lineless(&self, u: &Unit) -> bool {
        u.attachments.is_empty() && self.unit_card(u).continuous.is_empty()
    }
    pub fn remove_unit(&mut self, uid: Uid) -> Option<Unit> {
        self.units.get_mut(uid as usize).and_then(|x| x.take())
    }
}

/// The names of the remembered values the engine itself sets, interned first in every catalog.
pub mod vars {
    use crate::language::VarId;
    use crate::names::Interner;

    pub const NAMES: [&str; 46] = [
        "played",
        "hidden",
        "hidden_power",
        "hidden_count",
        "moved",
        "moved_count",
        "defeated",
        "defeated_count",
        "defeated_power",
        "defeated_cost",
        "defeated_name",
        "returned",
        "that_mission",
        "removed",
        "drew",
        "discarded",
        "discarded_count",
        "discarded_cost",
        "discarded_power",
        "looked",
        "looked_cost",
        "spent",
        "x",
        "searched",
        "stripped",
        "chosen_mission",
        "revealed",
        "revealed_cost",
        "revealed_name",
        "revealed_count",
        "paid",
        "attached",
        "discarded_attachment",
        "recycled",
        "each",
        "each_cost",
        "upgraded_power",
        "by",
        "mover",
        "player",
        "attachment",
        "host",
        "target",
        "returned_name",
        "looked_name",
        "copied",
    ];
    macro_rules! ids {
        ($($name:ident = $i:expr),* $(,)?) => { $( pub const $name: VarId = VarId($i); )* };
    }
    ids!(
        PLAYED = 0,
        HIDDEN = 1,
        HIDDEN_POWER = 2,
        HIDDEN_COUNT = 3,
        MOVED = 4,
        MOVED_COUNT = 5,
        DEFEATED = 6,
        DEFEATED_COUNT = 7,
        DEFEATED_POWER = 8,
        DEFEATED_COST = 9,
        DEFEATED_NAME = 10,
        RETURNED = 11,
        THAT_MISSION = 12,
        REMOVED = 13,
        DREW = 14,
        DISCARDED = 15,
        DISCARDED_COUNT = 16,
        DISCARDED_COST = 17,
        DISCARDED_POWER = 18,
        LOOKED = 19,
        LOOKED_COST = 20,
        SPENT = 21,
        X = 22,
        SEARCHED = 23,
        STRIPPED = 24,
        CHOSEN_MISSION = 25,
        REVEALED = 26,
        REVEALED_COST = 27,
        REVEALED_NAME = 28,
        REVEALED_COUNT = 29,
        PAID = 30,
        ATTACHED = 31,
        DISCARDED_ATTACHMENT = 32,
        RECYCLED = 33,
        EACH = 34,
        EACH_COST = 35,
        UPGRADED_POWER = 36,
        BY = 37,
        MOVER = 38,
        PLAYER = 39,
        ATTACHMENT = 40,
        HOST = 41,
        COPIED = 45,
    );

    pub fn interner() -> Interner {
        let mut i = Interner::default();
        for n in NAMES {
            i.id(n);
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::vars;

    #[test]
    fn engine_var_ids_match_their_names() {
        let i = vars::interner();
        for (id, name) in [
            (vars::PLAYED, "played"),
            (vars::DEFEATED_NAME, "defeated_name"),
            (vars::CHOSEN_MISSION, "chosen_mission"),
            (vars::UPGRADED_POWER, "upgraded_power"),
            (vars::HOST, "host"),
            (vars::COPIED, "copied"),
        ] {
            assert_eq!(i.get(name), Some(id.0), "{name}");
        }
    }
}
