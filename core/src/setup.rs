//! Setting up a game: the Edge to a random first player, the mission deck, shuffled decks, five
//! cards each, and the mulligans.

use crate::board::draw_cards;
use crate::cards::{Card, CardType, Catalog};
use crate::rng::PyRandom;
use crate::state::{Decision, DecisionKind, Ev, GameState, HAND_SIZE, Opt, Phase, Player, Prompt};

/// The room a hand is set up with: it starts with five cards and draws two a round, less what is
/// played, and seldom outgrows sixteen (a hand grown a card at a time was reallocated a few times
/// a game, and again after a mulligan).
const HAND_ROOM: usize = 16;

/// What a player brings: the deck (characters and attachments) and 3 missions, as catalog indices.
#[derive(Clone, Debug, PartialEq)]
pub struct GameDeck {
    pub cards: Vec<u16>,
    pub missions: Vec<u16>,
    pub name: String,
}

impl GameDeck {
    /// 15 different cards of the catalog that `fits`, twice each, and 3 of its missions, dealt by
    /// `rng` (the cards are shuffled first, then the missions): the random decks of the core's
    /// tests and examples, not a builder of legal decks.
    pub fn random(cat: &Catalog, rng: &mut PyRandom, fits: impl Fn(&Card) -> bool, name: String) -> GameDeck {
        let mut pool: Vec<u16> =
            cat.cards.iter().filter(|c| c.ctype != CardType::Mission && fits(c)).map(|c| c.index).collect();
        let mut missions: Vec<u16> =
            cat.cards.iter().filter(|c| c.ctype == CardType::Mission).map(|c| c.index).collect();
        rng.shuffle(&mut pool);
        rng.shuffle(&mut missions);
        let cards = pool[..15].iter().chain(&pool[..15]).copied().collect();
        GameDeck { cards, missions: missions[..3].to_vec(), name }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SetupError(pub String);

/// An empty state over a catalog: no cards, no missions (setup and scenario boards fill it).
pub fn blank(cat: &'static Catalog, seed: i128) -> GameState {
    GameState {
        cat,
        cards: Vec::new(),
        owner: Vec::new(),
        players: [
            Player { index: 0, set_aside: -1, ..Player::default() },
            Player { index: 1, set_aside: -1, ..Player::default() },
        ],
        rng: PyRandom::new(seed),
        seed: seed as u64,
        missions: Vec::new(),
        mission_deck: Vec::new(),
        round: 0,
        phase: Phase::Setup,
        edge: 0,
        first_edge: 0,
        current: 0,
        turn: 0,
        eval_index: 0,
        stack: Vec::new(),
        ctxs: Vec::with_capacity(8),
        pending: None,
        next_uid: 1,
        units: Vec::with_capacity(48),
        winner: -1,
        tiebreak_by_edge: false,
        edge_locked: -1,
        round_scores: Vec::new(),
        decisions: 0,
        events: None,
        history: Vec::with_capacity(128),
        last_turn_plays: [Vec::new(), Vec::new()],
        turn_over: false,
        round_log: Vec::new(),
        board_version: 0,
        lines_version: std::cell::Cell::new(u64::MAX),
        lines: Default::default(),
        token_version: 0,
        power_key: std::cell::Cell::new(None),
        power_reads: std::cell::Cell::new(0),
        power_cache: Default::default(),
        stamps: std::cell::Cell::new([0; crate::state::STAMPED]),
        stamped: std::cell::Cell::new((u64::MAX, u64::MAX)),
        att_hidden: Vec::new(),
        att_power: Vec::new(),
        last_turn_moves: [Vec::new(), Vec::new()],
        eval_ready: -1,
        tie_picks: Vec::new(),
        settled: None,
        settle_free: u64::MAX,
        horizon: i32::MAX,
        spare_actions: crate::state::Spare(Vec::with_capacity(64)),
    }
}

pub fn mulligan_decision(player: i32) -> Decision {
    Decision::simple(
        player,
        DecisionKind::Mulligan,
        vec![Opt::Bool(false), Opt::Bool(true)],
        Prompt::Text("mulligan your whole hand?"),
    )
}

/// Set up a game: Edge to a random first player (or `first`), the mission deck, shuffled decks,
/// 5 cards each; the game then waits for the Edge holder's mulligan.
pub fn new_game(
    cat: &'static Catalog,
    a: &GameDeck,
    b: &GameDeck,
    seed: i128,
    events: bool,
    first: Option<i32>,
) -> Result<GameState, SetupError> {
    let mut g = blank(cat, seed);
    if events {
        g.events = Some(Vec::new());
    }
    // (every list of cards sized once: a batch sets up thousands of games)
    let all = a.cards.len() + a.missions.len() + b.cards.len() + b.missions.len();
    g.cards.reserve_exact(all);
    g.owner.reserve_exact(all);
    for (pi, deck) in [a, b].into_iter().enumerate() {
        g.players[pi].deck.reserve_exact(deck.cards.len());
        g.players[pi].hand.reserve_exact(HAND_ROOM);
        g.players[pi].missions.reserve_exact(deck.missions.len());
        if deck.missions.len() != 3 {
            let who = if deck.name.is_empty() { pi.to_string() } else { deck.name.clone() };
            return Err(SetupError(format!("deck {who}: a player brings exactly 3 missions")));
        }
        for &c in &deck.cards {
            if c as usize >= cat.cards.len() {
                return Err(SetupError(format!("deck {}: card index {c} is not in the catalog", deck.name)));
            }
            g.cards.push(c);
            g.owner.push(pi as i32);
            g.players[pi].deck.push(g.cards.len() as i32 - 1);
        }
        for &c in &deck.missions {
            if c as usize >= cat.cards.len() {
                return Err(SetupError(format!("deck {}: mission index {c} is not in the catalog", deck.name)));
            }
            g.cards.push(c);
            g.owner.push(pi as i32);
            g.players[pi].missions.push(g.cards.len() as i32 - 1);
        }
    }
    g.edge = match first {
        Some(f) => f,
        None => g.rng.below(2) as i32,
    };
    g.first_edge = g.edge;
    let mut chosen: Vec<Vec<i32>> = Vec::new();
    for pi in 0..2 {
        let mut ms = g.players[pi].missions.clone();
        g.rng.shuffle(&mut ms);
        chosen.push(ms[..2].to_vec());
        g.players[pi].set_aside = ms[2];
    }
    let e = &chosen[g.edge as usize];
    let o = &chosen[1 - g.edge as usize];
    g.mission_deck = vec![o[1], e[1], o[0], e[0]]; // top is the end: the Edge player's are 1st and 3rd
    for pi in 0..2 {
        let mut deck = std::mem::take(&mut g.players[pi].deck);
        g.rng.shuffle(&mut deck);
        g.players[pi].deck = deck;
        draw_cards(&mut g, pi as i32, HAND_SIZE);
    }
    if g.emitting() {
        for pi in 0..2 {
            let hand: Vec<u16> = g.players[pi].hand.iter().map(|&c| g.cards[c as usize]).collect();
            g.emit(Ev::Dealt(pi as i32, hand)); // the hand before any mulligan
        }
    }
    g.phase = Phase::Mulligan;
    g.pending = Some(mulligan_decision(g.edge));
    if g.emitting() {
        let ms: Vec<u16> = g.mission_deck.iter().rev().map(|&c| g.cards[c as usize]).collect();
        g.emit(Ev::Setup(g.edge, ms));
    }
    Ok(g)
}

/// Take (or not) the one mulligan: the whole hand back, shuffle, five new cards.
pub fn mulligan(g: &mut GameState, player: i32, take: bool) {
    let pi = player as usize;
    if take {
        let p = &mut g.players[pi];
        p.deck.append(&mut p.hand); // (the hand keeps its room)
        let mut deck = std::mem::take(&mut g.players[pi].deck);
        g.rng.shuffle(&mut deck);
        g.players[pi].deck = deck;
        draw_cards(g, player, HAND_SIZE);
        g.players[pi].mulliganed = true;
    }
    g.emit(Ev::Mulligan(player, take));
    if player == g.edge {
        g.pending = Some(mulligan_decision(1 - player));
    } else {
        g.phase = Phase::Start;
        for q in 0..2 {
            g.players[q].drawn = 0; // the opening hand is not "drawn during the round"
            if g.emitting() {
                let hand: Vec<u16> = g.players[q].hand.iter().map(|&c| g.cards[c as usize]).collect();
                g.emit(Ev::Opening(q as i32, hand));
            }
        }
    }
}
