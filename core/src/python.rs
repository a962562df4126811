//! The Python module `mythos_cli._core`: the game in the OpenSpiel shape, with the state
//! inspection scenarios and tests need. Actions cross the boundary as the tuples the Python side
//! has always used: `("pass",)`, `("play", card, mission, hidden, over)`, `("reveal", uid)`,
//! `("attach", card, mission, host, hidden)`, `("reveal_attachment", card)`, `("choose", option)`.
//!
//! No Rust panic crosses into Python: every call runs under `catch_unwind` and a panic becomes an
//! `EngineError` naming what the engine was doing.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::AtomicUsize;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::apply::{self, ApplyError};
use crate::batch::{Batch, BatchError, Planned};
use crate::cards::Catalog;
use crate::record::{LayoutError, Rows};
use crate::scenario;
use crate::setup::{self, GameDeck};
use crate::state::{Action, DecisionKind, Ev, FrameStep, GameState, Opt, Prompt};

pyo3::create_exception!(
    mythos_cli._core,
    IllegalAction,
    PyValueError,
    "The action is not legal in this state; the state is left untouched."
);
pyo3::create_exception!(
    mythos_cli._core,
    EngineError,
    PyRuntimeError,
    "The engine failed (a bug): the message says where."
);
pyo3::create_exception!(
    mythos_cli._core,
    Cancelled,
    pyo3::exceptions::PyException,
    "A stop was asked (`cancel()`, Ctrl-C or SIGTERM): the batch stopped between games; nothing of it is kept."
);
pyo3::create_exception!(
    mythos_cli._core,
    LayoutMismatch,
    PyValueError,
    "A finished game does not fit the database layout (an engine change the layout does not know)."
);

fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(EngineError::new_err(format!("engine failure in {what}: {msg}")))
        }
    }
}

fn cat() -> &'static Catalog {
    Catalog::bundled()
}

fn card_index(id: &str) -> PyResult<u16> {
    cat().card(id).map(|c| c.index).ok_or_else(|| PyValueError::new_err(format!("unknown card {id:?}")))
}

fn opt_to_py<'py>(py: Python<'py>, o: Opt) -> PyResult<Bound<'py, PyAny>> {
    Ok(match o {
        Opt::Skip => py.None().into_bound(py),
        Opt::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Opt::Int(i) => i.into_pyobject(py)?.into_any(),
        Opt::Place(a, b, c) => (a, b, c).into_pyobject(py)?.into_any(),
        Opt::Line(a, b) => (a, b).into_pyobject(py)?.into_any(),
    })
}

fn opt_from_py(o: &Bound<'_, PyAny>) -> PyResult<Opt> {
    if o.is_none() {
        return Ok(Opt::Skip);
    }
    if let Ok(b) = o.cast::<pyo3::types::PyBool>() {
        return Ok(Opt::Bool(b.is_true()));
    }
    if let Ok(i) = o.extract::<i32>() {
        return Ok(Opt::Int(i));
    }
    if let Ok(t) = o.cast::<PyTuple>() {
        let v: Vec<i32> = t.extract()?;
        return match v.as_slice() {
            [a, b, c] => Ok(Opt::Place(*a, *b, *c)),
            [a, b] => Ok(Opt::Line(*a, *b)),
            _ => Err(IllegalAction::new_err(format!("not an option: {o}"))),
        };
    }
    Err(IllegalAction::new_err(format!("not an option: {o}")))
}

pub fn action_to_py<'py>(py: Python<'py>, a: &Action) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match *a {
        Action::Pass => PyTuple::new(py, ["pass"])?,
        Action::Play(c, m, h, o) => ("play", c, m, h, o).into_pyobject(py)?,
        Action::Reveal(u) => ("reveal", u).into_pyobject(py)?,
        Action::Attach(c, m, h, hid) => ("attach", c, m, h, hid).into_pyobject(py)?,
        Action::RevealAttachment(c) => ("reveal_attachment", c).into_pyobject(py)?,
        Action::Choose(o) => PyTuple::new(py, [("choose").into_pyobject(py)?.into_any(), opt_to_py(py, o)?])?,
    })
}

pub fn action_from_py(a: &Bound<'_, PyAny>) -> PyResult<Action> {
    let t = a.cast::<PyTuple>().map_err(|_| IllegalAction::new_err(format!("an action is a tuple, not {a}")))?;
    let kind: String = t.get_item(0)?.extract()?;
    let i = |k: usize| -> PyResult<i32> { t.get_item(k)?.extract::<i32>() };
    let b = |k: usize| -> PyResult<bool> { t.get_item(k)?.extract::<bool>() };
    let bad = || IllegalAction::new_err(format!("not an action: {a}"));
    Ok(match (kind.as_str(), t.len()) {
        ("pass", 1) => Action::Pass,
        ("play", 5) => Action::Play(i(1)?, i(2)?, b(3)?, i(4)?),
        ("reveal", 2) => Action::Reveal(i(1)?),
        ("attach", 5) => Action::Attach(i(1)?, i(2)?, i(3)?, b(4)?),
        ("reveal_attachment", 2) => Action::RevealAttachment(i(1)?),
        ("choose", 2) => Action::Choose(opt_from_py(&t.get_item(1)?)?),
        _ => return Err(bad()),
    })
}

fn deck_from(cards: Vec<String>, missions: Vec<String>, name: String) -> PyResult<GameDeck> {
    Ok(GameDeck {
        cards: cards.iter().map(|c| card_index(c)).collect::<PyResult<_>>()?,
        missions: missions.iter().map(|c| card_index(c)).collect::<PyResult<_>>()?,
        name,
    })
}

fn apply_err(e: ApplyError) -> PyErr {
    match e {
        ApplyError::Illegal(s) => IllegalAction::new_err(s),
        ApplyError::Stall(s) => EngineError::new_err(s),
    }
}

/// A game of Naruto Mythos in the compiled core.
#[pyclass(unsendable, module = "mythos_cli._core")]
pub struct Game {
    pub g: GameState,
}

fn id_of(g: &GameState, inst: i32) -> String {
    g.card(inst).id.clone()
}

fn cid(c: u16) -> String {
    cat().cards[c as usize].id.clone()
}

fn ev_to_py<'py>(py: Python<'py>, g: &GameState, round: i32, e: &Ev) -> PyResult<Bound<'py, PyTuple>> {
    let ids = |v: &Vec<u16>| v.iter().map(|&c| cid(c)).collect::<Vec<_>>();
    let t = match e {
        Ev::Dealt(p, h) => (round, "dealt", *p, ids(h)).into_pyobject(py)?,
        Ev::Setup(p, m) => (round, "setup", *p, ids(m)).into_pyobject(py)?,
        Ev::Mulligan(p, t) => (round, "mulligan", *p, *t).into_pyobject(py)?,
        Ev::Opening(p, h) => (round, "opening", *p, ids(h)).into_pyobject(py)?,
        Ev::Mission(c, r) => (round, "mission", cid(*c), r.to_string()).into_pyobject(py)?,
        Ev::Chakra(p, n) => (round, "chakra", *p, *n).into_pyobject(py)?,
        Ev::Draw(p, c) => (round, "draw", *p, *c).into_pyobject(py)?,
        Ev::Pass(p) => (round, "pass", *p).into_pyobject(py)?,
        Ev::Play(p, c, m, how, price) => (round, "play", *p, cid(*c), *m, *how, *price).into_pyobject(py)?,
        Ev::Reveal(p, c, m, price) => (round, "reveal", *p, cid(*c), *m, *price).into_pyobject(py)?,
        Ev::MissionResult(m, a, b, w) => (round, "mission_result", *m, *a, *b, *w).into_pyobject(py)?,
        Ev::GameOver(w, a, b) => (round, "game_over", *w, *a, *b).into_pyobject(py)?,
        Ev::Powerup(p, u, k) => (round, "powerup", *p, *u, *k).into_pyobject(py)?,
        Ev::ChakraGain(p, n) => (round, "chakra_gain", *p, *n).into_pyobject(py)?,
        Ev::ChakraSteal(p, n) => (round, "chakra_steal", *p, *n).into_pyobject(py)?,
        Ev::Discard(p, c) => (round, "discard", *p, *c).into_pyobject(py)?,
        Ev::Look(p) => (round, "look", *p).into_pyobject(py)?,
        Ev::Move(p, u, d) => (round, "move", *p, *u, *d).into_pyobject(py)?,
        Ev::Hide(p, u) => (round, "hide", *p, *u).into_pyobject(py)?,
        Ev::Defeat(p, u) => (round, "defeat", *p, *u).into_pyobject(py)?,
        Ev::Leave(p, u, d) => (round, "leave", *p, *u, *d).into_pyobject(py)?,
        Ev::Control(p, u) => (round, "control", *p, *u).into_pyobject(py)?,
        Ev::Edge(p) => (round, "edge", *p).into_pyobject(py)?,
        Ev::Points(p, n) => (round, "points", *p, *n).into_pyobject(py)?,
        Ev::Copy(p, c, t) => (round, "copy", *p, cid(*c), *t).into_pyobject(py)?,
        Ev::Strip(p, u, c) => (round, "strip", *p, *u, cid(*c)).into_pyobject(py)?,
        Ev::StripCount(p, u, n) => (round, "strip", *p, *u, *n).into_pyobject(py)?,
        Ev::Retrieve(p, c) => (round, "retrieve", *p, *c).into_pyobject(py)?,
        Ev::RevealTop(p, c) => (round, "reveal_top", *p, cid(*c)).into_pyobject(py)?,
        Ev::RevealHand(p, c) => (round, "reveal_hand", *p, cid(*c)).into_pyobject(py)?,
        Ev::Split(p, u, v, m) => (round, "split", *p, *u, *v, *m).into_pyobject(py)?,
        Ev::Tax(p, u, k) => (round, "tax", *p, *u, *k).into_pyobject(py)?,
        Ev::Attach(p, c, m, how, price) => (round, "attach", *p, cid(*c), *m, *how, *price).into_pyobject(py)?,
        Ev::RevealAttachment(p, c, m, price) => {
            (round, "reveal_attachment", *p, cid(*c), *m, *price).into_pyobject(py)?
        }
        Ev::DiscardAttachment(p, c) => (round, "discard_attachment", *p, cid(*c)).into_pyobject(py)?,
        Ev::MoveAttachment(p, c, u) => (round, "move_attachment", *p, cid(*c), *u).into_pyobject(py)?,
        Ev::Duplicate(p, c, m) => (round, "duplicate", *p, cid(*c), *m).into_pyobject(py)?,
        Ev::TurnedUp(p, u) => (round, "turned_up", *p, *u).into_pyobject(py)?,
    };
    let _ = g;
    Ok(t)
}

pub fn prompt_text(g: &GameState, p: &Prompt) -> String {
    match p {
        Prompt::None => String::new(),
        Prompt::Text(s) => s.to_string(),
        Prompt::UseLine(l) => format!("use {}?", crate::effects::label_text(g, l)),
        Prompt::May(v) => format!("you may {}", crate::language::parse::verb_name(*v)),
        Prompt::Target(s) => {
            // said as the card whose effect asks says it ("of yours" where it can pick itself)
            let card = g.stack.last().map(|f| g.ctxs[f.ctx].card).filter(|&c| c >= 0).map(|c| g.card(c));
            crate::language::render::prompt(g.cat, card, s)
        }
        Prompt::Sacrifice(c) => format!("defeat {} instead?", cat().cards[*c as usize].name),
        Prompt::PayMore(n) => format!("play it paying {n} more (no: defeat it)?"),
    }
}

#[pymethods]
impl Game {
    /// A new game between two decks (version ids), seeded; `first` forces the first Edge holder.
    #[new]
    #[pyo3(signature = (cards_a, missions_a, cards_b, missions_b, seed, events=false, first=None, names=(String::new(), String::new())))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        cards_a: Vec<String>,
        missions_a: Vec<String>,
        cards_b: Vec<String>,
        missions_b: Vec<String>,
        seed: i128,
        events: bool,
        first: Option<i32>,
        names: (String, String),
    ) -> PyResult<Game> {
        guard("new_game", || {
            let a = deck_from(cards_a, missions_a, names.0)?;
            let b = deck_from(cards_b, missions_b, names.1)?;
            let g = setup::new_game(cat(), &a, &b, seed, events, first).map_err(|e| PyValueError::new_err(e.0))?;
            Ok(Game { g })
        })
    }

    /// A game from a board spec (JSON, `Spec` in core/src/scenario.rs), run to its first
    /// decision. A malformed spec raises ValueError; a board whose own effects cannot run
    /// raises IllegalAction (or EngineError for a stall).
    #[staticmethod]
    fn from_spec(json: &str) -> PyResult<Game> {
        guard("from_spec", || {
            let spec = scenario::parse(json).map_err(|e| PyValueError::new_err(e.0))?;
            let mut g = scenario::build(cat(), spec).map_err(|e| PyValueError::new_err(e.0))?;
            if g.pending.is_none() {
                apply::advance(&mut g).map_err(apply_err)?;
            }
            Ok(Game { g })
        })
    }

    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let acts = apply::legal_actions(&self.g);
        let items = acts.iter().map(|a| action_to_py(py, a)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = action_from_py(action)?;
        guard("apply", || apply::apply(&mut self.g, a).map_err(apply_err))
    }

    /// Apply the `i`-th legal action (fast path for players that pick by position).
    fn apply_index(&mut self, i: usize) -> PyResult<()> {
        let Some(d) = self.g.pending.as_ref() else {
            return Err(IllegalAction::new_err("no decision is pending"));
        };
        if i >= d.len() {
            return Err(IllegalAction::new_err(format!("action index {i} out of range ({} legal)", d.len())));
        }
        let a = d.nth(i);
        guard("apply", || apply::apply(&mut self.g, a).map_err(apply_err))
    }

    fn num_actions(&self) -> usize {
        self.g.pending.as_ref().map_or(0, |d| d.len())
    }

    #[getter]
    fn current_player(&self) -> i32 {
        apply::current_player(&self.g)
    }
    #[getter]
    fn is_terminal(&self) -> bool {
        self.g.is_terminal()
    }
    #[getter]
    fn winner(&self) -> i32 {
        self.g.winner
    }
    #[getter]
    fn tiebreak_by_edge(&self) -> bool {
        self.g.tiebreak_by_edge
    }
    #[getter]
    fn round(&self) -> i32 {
        self.g.round
    }
    #[getter]
    fn phase(&self) -> &'static str {
        self.g.phase.as_str()
    }
    #[getter]
    fn edge(&self) -> i32 {
        self.g.edge
    }
    #[getter]
    fn first_edge(&self) -> i32 {
        self.g.first_edge
    }
    #[getter]
    fn current(&self) -> i32 {
        self.g.current
    }
    #[getter]
    fn decisions(&self) -> i64 {
        self.g.decisions
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.g.seed
    }
    fn scores(&self) -> (i64, i64) {
        apply::scores(&self.g)
    }
    fn returns(&self) -> (f64, f64) {
        apply::returns(&self.g)
    }
    fn round_scores(&self) -> Vec<(i64, i64)> {
        self.g.round_scores.iter().map(|r| (r[0], r[1])).collect()
    }
    fn clone(&self) -> Game {
        Game { g: self.g.clone() }
    }

    /// The pending decision: None, or {player, kind, options, prompt}.
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(d) = &self.g.pending else {
            return Ok(None);
        };
        let out = PyDict::new(py);
        out.set_item("player", d.player)?;
        out.set_item("kind", d.kind.as_str())?;
        if d.kind == crate::state::DecisionKind::Action {
            let acts = d.actions.iter().map(|(a, _)| action_to_py(py, a)).collect::<PyResult<Vec<_>>>()?;
            out.set_item("options", PyList::new(py, acts)?)?;
            let prices = PyDict::new(py);
            for (a, p) in &d.actions {
                prices.set_item(action_to_py(py, a)?, *p)?;
            }
            out.set_item("prices", prices)?;
        } else {
            let opts = d.options.iter().map(|o| opt_to_py(py, *o)).collect::<PyResult<Vec<_>>>()?;
            out.set_item("options", PyList::new(py, opts)?)?;
        }
        out.set_item("prompt", prompt_text(&self.g, &d.prompt))?;
        out.set_item("source", d.source)?;
        Ok(Some(out))
    }

    /// A pending order decision's effects, by option: (the player resolving it, its card
    /// instance or -1). Empty when no order decision is pending.
    fn order_sources(&self) -> Vec<(i32, i32)> {
        if self.g.pending.as_ref().is_none_or(|d| d.kind != DecisionKind::Order) {
            return Vec::new();
        }
        for f in self.g.stack.iter().rev() {
            if let Some(FrameStep::Order(frames)) = f.steps.get(f.pc) {
                return frames
                    .iter()
                    .map(|x| {
                        let c = &self.g.ctxs[x.ctx];
                        (c.player, c.card)
                    })
                    .collect();
            }
        }
        Vec::new()
    }

    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let evs = self.g.events.as_deref().unwrap_or(&[]);
        let items = evs.iter().map(|(r, e)| ev_to_py(py, &self.g, *r, e)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// How many events the game has recorded so far (0 without an event stream).
    fn num_events(&self) -> usize {
        self.g.events.as_ref().map_or(0, |e| e.len())
    }

    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self.g.history.iter().map(|a| action_to_py(py, a)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    fn card_id(&self, inst: i32) -> PyResult<String> {
        if inst < 0 || inst as usize >= self.g.cards.len() {
            return Err(PyValueError::new_err(format!("no card instance {inst}")));
        }
        Ok(id_of(&self.g, inst))
    }
    fn owner(&self, inst: i32) -> i32 {
        self.g.owner[inst as usize]
    }
    fn num_cards(&self) -> usize {
        self.g.cards.len()
    }

    /// One player's zones and counters.
    fn player<'py>(&self, py: Python<'py>, p: usize) -> PyResult<Bound<'py, PyDict>> {
        let pl = &self.g.players[p.min(1)];
        let d = PyDict::new(py);
        d.set_item("hand", pl.hand.clone())?;
        d.set_item("deck", pl.deck.clone())?;
        d.set_item("discard", pl.discard.clone())?;
        d.set_item("missions", pl.missions.clone())?;
        d.set_item("set_aside", pl.set_aside)?;
        d.set_item("chakra", pl.chakra)?;
        d.set_item("score", pl.score)?;
        d.set_item("passed", pl.passed)?;
        d.set_item("mulliganed", pl.mulliganed)?;
        d.set_item("plays_this_round", pl.plays_this_round)?;
        d.set_item("attached_this_round", pl.attached_this_round)?;
        Ok(d)
    }

    /// Every unit in play, in board order.
    fn units<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut out = Vec::new();
        for uid in self.g.all_uids() {
            let u = self.g.u(uid);
            let d = PyDict::new(py);
            d.set_item("uid", u.uid)?;
            d.set_item("stack", u.stack.clone())?;
            d.set_item("owner", u.owner)?;
            d.set_item("controller", u.controller)?;
            d.set_item("mission", u.mission)?;
            d.set_item("hidden", u.hidden)?;
            d.set_item("tokens", u.tokens)?;
            d.set_item("attachments", u.attachments.clone())?;
            d.set_item("controlled_by", u.controlled_by)?;
            d.set_item("played_round", u.played_round)?;
            d.set_item("played_turn", u.played_turn)?;
            d.set_item("discounted", u.discounted)?;
            d.set_item("power", crate::power::power(&self.g, u))?;
            out.push(d);
        }
        PyList::new(py, out)
    }

    fn missions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut out = Vec::new();
        for m in &self.g.missions {
            let d = PyDict::new(py);
            d.set_item("card", m.card)?;
            d.set_item("rank", m.rank)?;
            d.set_item("winner", m.winner)?;
            d.set_item("sides", (m.sides[0].clone(), m.sides[1].clone()))?;
            d.set_item("attachments", (m.attachments[0].clone(), m.attachments[1].clone()))?;
            out.push(d);
        }
        PyList::new(py, out)
    }

    fn mission_deck(&self) -> Vec<i32> {
        self.g.mission_deck.clone()
    }
    fn att_hidden(&self) -> Vec<i32> {
        self.g.att_hidden.clone()
    }

    fn power(&self, uid: i32) -> PyResult<i64> {
        match self.g.unit(uid) {
            Some(u) => Ok(crate::power::power(&self.g, u)),
            None => Err(PyValueError::new_err(format!("no unit {uid} in play"))),
        }
    }
    fn side_power(&self, mi: usize, p: i32) -> PyResult<i64> {
        if mi >= self.g.missions.len() {
            return Err(PyValueError::new_err(format!("no mission {mi}")));
        }
        Ok(crate::power::side_power(&self.g, mi, p))
    }
    fn mission_points(&self, mi: usize) -> i64 {
        crate::power::mission_points(&self.g, mi)
    }

    /// Check every invariant; raises EngineError naming the first broken one.
    fn check_invariants(&self) -> PyResult<()> {
        crate::invariants::check(&self.g).map_err(EngineError::new_err)
    }

    fn round_log<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut out = Vec::new();
        for entry in &self.g.round_log {
            let mut pair = Vec::new();
            for st in entry {
                let d = PyDict::new(py);
                d.set_item("chakra_gained", st.chakra_gained)?;
                d.set_item("chakra_spent", st.chakra_spent)?;
                d.set_item("chakra_left", st.chakra_left)?;
                d.set_item("cards_drawn", st.cards_drawn)?;
                d.set_item("played_face_up", st.played_face_up)?;
                d.set_item("played_hidden", st.played_hidden)?;
                d.set_item("revealed", st.revealed)?;
                d.set_item("upgraded", st.upgraded)?;
                d.set_item("cost_face_up", st.cost_face_up.clone())?;
                d.set_item("characters_in_play", st.characters_in_play)?;
                d.set_item("missions_won", st.missions_won)?;
                d.set_item("points", st.points)?;
                d.set_item("edge", st.edge)?;
                pair.push(d);
            }
            out.push(PyList::new(py, pair)?);
        }
        PyList::new(py, out)
    }

    /// What `player` may know, as a dict (the fields of `view::View`; cards as version ids,
    /// None for a card this player cannot see). The decision is included only if it is theirs.
    fn view<'py>(&self, py: Python<'py>, player: i32) -> PyResult<Bound<'py, PyDict>> {
        if !(0..2).contains(&player) {
            return Err(PyValueError::new_err(format!("player {player}: players are 0 and 1")));
        }
        let v = guard("view", || Ok(crate::view::observe(&self.g, player)))?;
        let ids = |cs: &[u16]| cs.iter().map(|&c| cid(c)).collect::<Vec<_>>();
        let seen = |cs: &[Option<u16>]| cs.iter().map(|c| c.map(cid)).collect::<Vec<_>>();
        let d = PyDict::new(py);
        d.set_item("player", v.player)?;
        d.set_item("round", v.round)?;
        d.set_item("phase", v.phase)?;
        d.set_item("edge", v.edge)?;
        d.set_item("scores", v.scores)?;
        d.set_item("chakra", v.chakra)?;
        d.set_item("hand", ids(&v.hand))?;
        d.set_item("hand_instances", v.hand_instances.clone())?;
        d.set_item("opponent_hand_size", v.opponent_hand_size)?;
        d.set_item("deck_sizes", v.deck_sizes)?;
        d.set_item("discards", (ids(&v.discards.0), ids(&v.discards.1)))?;
        let ranks = ["D", "C", "B", "A"];
        let missions: Vec<(String, &str)> = v.missions.iter().map(|&(c, r)| (cid(c), ranks[r.min(3)])).collect();
        d.set_item("missions", missions)?;
        let mut units = Vec::with_capacity(v.units.len());
        for u in &v.units {
            let x = PyDict::new(py);
            x.set_item("uid", u.uid)?;
            x.set_item("side", u.side)?;
            x.set_item("mission", u.mission)?;
            x.set_item("hidden", u.hidden)?;
            x.set_item("card", u.card.map(cid))?;
            x.set_item("tokens", u.tokens)?;
            x.set_item("power", u.power)?;
            x.set_item("stack", u.stack)?;
            x.set_item("controlled", u.controlled)?;
            x.set_item("attachments", seen(&u.attachments))?;
            units.push(x);
        }
        d.set_item("units", PyList::new(py, units)?)?;
        d.set_item("passed", v.passed)?;
        let atts: Vec<_> = v.mission_attachments.iter().map(|(a, b)| (seen(a), seen(b))).collect();
        d.set_item("mission_attachments", atts)?;
        let mine = self.g.pending.as_ref().is_some_and(|p| p.player == player);
        d.set_item("decision", if mine { self.pending(py)?.map(|x| x.into_any()) } else { None })?;
        Ok(d)
    }

    /// A full game consistent with what `player` knows, the cards they cannot see (the
    /// opponent's hand, hidden characters and face-down attachments, both deck orders) dealt at
    /// random from `seed`: a game to look ahead in without peeking.
    fn determinize(&self, player: i32, seed: i128) -> PyResult<Game> {
        if !(0..2).contains(&player) {
            return Err(PyValueError::new_err(format!("player {player}: players are 0 and 1")));
        }
        guard("determinize", || {
            let mut rng = crate::rng::PyRandom::new(seed);
            Ok(Game { g: crate::determinize::determinize(&self.g, player, &mut rng) })
        })
    }
}

/// Play a whole game with uniformly random legal decisions (`seed ^ 0x5EED` picks), as the
/// reference engine's `play_random_game`; returns the finished game.
#[pyfunction]
#[pyo3(signature = (cards_a, missions_a, cards_b, missions_b, seed))]
fn play_random_game(
    py: Python<'_>,
    cards_a: Vec<String>,
    missions_a: Vec<String>,
    cards_b: Vec<String>,
    missions_b: Vec<String>,
    seed: i128,
) -> PyResult<Game> {
    let a = deck_from(cards_a, missions_a, String::new())?;
    let b = deck_from(cards_b, missions_b, String::new())?;
    let g = py.detach(|| {
        guard("play_random_game", || {
            crate::play::random_game(cat(), &a, &b, seed).map_err(|e| EngineError::new_err(e.to_string()))
        })
    })?;
    Ok(Game { g })
}

/// The tool's English for every effect line of a card (a version or printing id), one string
/// per line in card order: the same text as `mythos_cli.catalog.render.describe(line, card)`.
#[pyfunction]
fn describe(card_id: &str) -> PyResult<Vec<String>> {
    let card = &cat().cards[card_index(card_id)? as usize];
    guard("describe", || Ok(crate::language::render::describe_card(cat(), card)))
}

/// (games, decisions, failures as (game index, message)).
type RunTotals = (usize, i64, Vec<(usize, String)>);

/// Many random games in one call, the GIL released (the speed and invariant runs): `decks` is a
/// list of (cards, missions) version-id lists; game i plays `pairs[i]` with `seeds[i]`. Returns
/// (games, decisions, [(game index, error)]).
#[pyfunction]
#[pyo3(signature = (decks, pairs, seeds, check=false))]
fn play_random_games(
    py: Python<'_>,
    decks: Vec<(Vec<String>, Vec<String>)>,
    pairs: Vec<(usize, usize)>,
    seeds: Vec<i128>,
    check: bool,
) -> PyResult<RunTotals> {
    let decks = decks.into_iter().map(|(c, m)| deck_from(c, m, String::new())).collect::<PyResult<Vec<_>>>()?;
    if pairs.len() != seeds.len() || pairs.iter().any(|&(a, b)| a >= decks.len() || b >= decks.len()) {
        return Err(PyValueError::new_err("pairs and seeds differ in length, or a pair names a missing deck"));
    }
    let run = py.detach(|| crate::play::random_games(cat(), &decks, &pairs, &seeds, check));
    Ok((run.games, run.decisions, run.failures))
}

/// The cost of cloning a game state over the states of `games` random games: (clones, ns each).
#[pyfunction]
fn clone_cost(py: Python<'_>, decks: Vec<(Vec<String>, Vec<String>)>, games: usize) -> PyResult<(usize, f64)> {
    let decks = decks.into_iter().map(|(c, m)| deck_from(c, m, String::new())).collect::<PyResult<Vec<_>>>()?;
    if decks.is_empty() {
        return Err(PyValueError::new_err("no decks"));
    }
    Ok(py.detach(|| crate::play::clone_cost(cat(), &decks, games)))
}

/// The card files compiled into the core: (file name, TOML text).
#[pyfunction]
fn card_files() -> Vec<(&'static str, &'static str)> {
    crate::cards::BUNDLED.to_vec()
}

// ---------------------------------------------------------------------------------------------
// batches: `mythos simulate`'s inner loop, and the rows of games played from Python

/// One `game_data` column as the Python side turns it into an Arrow array without touching each
/// value: (name, Arrow type of the values, the values' little-endian bytes, the list offsets'
/// bytes (i64) or None for a plain column).
type Column = (&'static str, &'static str, Py<PyBytes>, Option<Py<PyBytes>>);

fn le_bytes<T: Copy, const N: usize>(py: Python<'_>, v: &[T], f: impl Fn(T) -> [u8; N]) -> Py<PyBytes> {
    let mut out = Vec::with_capacity(v.len() * N);
    for &x in v {
        out.extend_from_slice(&f(x));
    }
    PyBytes::new(py, &out).unbind()
}

fn columns(py: Python<'_>, r: &Rows) -> Vec<Column> {
    let list = |name, ty, values: Py<PyBytes>, offsets: &[i64]| -> Column {
        (name, ty, values, Some(le_bytes(py, offsets, i64::to_le_bytes)))
    };
    vec![
        ("flags", "int32", le_bytes(py, &r.flags, i32::to_le_bytes), None),
        ("score_0", "int32", le_bytes(py, &r.score_0, i32::to_le_bytes), None),
        ("score_1", "int32", le_bytes(py, &r.score_1, i32::to_le_bytes), None),
        ("decisions", "int32", le_bytes(py, &r.decisions, i32::to_le_bytes), None),
        list("missions", "int16", le_bytes(py, &r.missions.values, i16::to_le_bytes), &r.missions.offsets),
        list("round_scores", "uint32", le_bytes(py, &r.round_scores.values, u32::to_le_bytes), &r.round_scores.offsets),
        list("rounds", "uint64", le_bytes(py, &r.rounds.values, u64::to_le_bytes), &r.rounds.offsets),
        list("costs", "int16", le_bytes(py, &r.costs.values, i16::to_le_bytes), &r.costs.offsets),
        list("events", "int32", le_bytes(py, &r.events.values, i32::to_le_bytes), &r.events.offsets),
    ]
}

fn layout_err(e: LayoutError) -> PyErr {
    LayoutMismatch::new_err(e.0)
}

fn run_cards(cards: &[String]) -> PyResult<Rows> {
    let idx = cards.iter().map(|c| card_index(c)).collect::<PyResult<Vec<u16>>>()?;
    Rows::new(&idx).map_err(layout_err)
}

/// Play a batch of planned games inside the core, the GIL released, and return its `game_data`
/// columns (see `Column`; the run-level columns are the caller's). `decks`: (cards, missions,
/// name); `games`: (seat 0's deck, seat 1's deck, seat 0's player, seat 1's player, seed,
/// studied seat), decks and players as indices into `decks` and `players` (player specs);
/// `cards`: the run's card list, which codes the cards in the rows; `mulligans`: per game (in
/// the order of `games`), each seat's forced mulligan answer (None: its player decides).
#[pyfunction]
#[pyo3(signature = (decks, games, players, cards, mulligan=None, mulligans=None))]
#[allow(clippy::too_many_arguments)]
fn play_batch(
    py: Python<'_>,
    decks: Vec<(Vec<String>, Vec<String>, String)>,
    games: Vec<(usize, usize, usize, usize, i128, i32)>,
    players: Vec<String>,
    cards: Vec<String>,
    mulligan: Option<String>,
    mulligans: Option<Vec<(Option<bool>, Option<bool>)>>,
) -> PyResult<Vec<Column>> {
    let decks = decks.into_iter().map(|(c, m, n)| deck_from(c, m, n)).collect::<PyResult<Vec<_>>>()?;
    if mulligans.as_ref().is_some_and(|m| m.len() != games.len()) {
        return Err(PyValueError::new_err("mulligans must give one pair of forced answers per game"));
    }
    let forced = |i: usize| mulligans.as_ref().map_or([None, None], |m| [m[i].0, m[i].1]);
    let games: Vec<Planned> = games
        .into_iter()
        .enumerate()
        .map(|(i, (a, b, pa, pb, seed, studied_seat))| Planned {
            decks: [a, b],
            players: [pa, pb],
            seed,
            studied_seat,
            mulligans: forced(i),
        })
        .collect();
    let mut rows = run_cards(&cards)?;
    let done = AtomicUsize::new(0);
    py.detach(|| {
        let batch = Batch { decks: &decks, specs: &players, mulligan: mulligan.as_deref(), games: &games };
        crate::batch::play_batch(cat(), &batch, &mut rows, &done)
    })
    .map_err(|e| match e {
        BatchError::Player(m) => PyValueError::new_err(m),
        BatchError::Layout { .. } => LayoutMismatch::new_err(e.to_string()),
        BatchError::Game { .. } => EngineError::new_err(e.to_string()),
        BatchError::Cancelled { .. } => Cancelled::new_err(e.to_string()),
    })?;
    Ok(columns(py, &rows))
}

/// The `game_data` rows of games played one decision at a time (Python players): add each
/// finished game (played with its event stream), then take the columns.
#[pyclass(unsendable, module = "mythos_cli._core")]
pub struct Recorder {
    rows: Rows,
}

#[pymethods]
impl Recorder {
    #[new]
    fn new(cards: Vec<String>) -> PyResult<Recorder> {
        Ok(Recorder { rows: run_cards(&cards)? })
    }

    fn add(&mut self, game: &Game, studied_seat: i32) -> PyResult<()> {
        if !game.g.is_terminal() {
            return Err(PyValueError::new_err("the game is not finished"));
        }
        guard("record", || self.rows.add_game(&game.g, studied_seat).map_err(layout_err))
    }

    fn __len__(&self) -> usize {
        self.rows.len()
    }

    fn columns(&self, py: Python<'_>) -> Vec<Column> {
        columns(py, &self.rows)
    }
}

// ---------------------------------------------------------------------------------------------
// the catalog as the Python side reads it: card files validated by the core, what each line's
// encoding holds, and the rules' constants

/// What the core reads in one effect line's encoding, for the Python side (coverage, `cards
/// show`, the catalog tests): `steps` (the verbs of its instant steps, in order), `verbs` (every
/// verb of those steps, nested ones included), `modifier_verbs` (the same for a modifier's
/// steps), `triggers` (the events its triggers wait for), `host` ("mission", "character" or None:
/// where an ATTACH line lets its attachment go), `mandatory` (per gate, the line's steps first,
/// then each trigger's: true when the engine will not offer to decline it), `specials` (escape
/// hatches) and `executable` (the engine plays the line).
fn line_facts<'py>(py: Python<'py>, line: &crate::cards::EffectLine) -> PyResult<Option<Bound<'py, PyDict>>> {
    use crate::language::parse::{TRIGGER_NAMES, verb_name};
    use crate::language::{Arg, Host, Step, Verb};
    let Some(enc) = &line.encoding else {
        return Ok(None);
    };
    let names = |steps: &[Step]| {
        let mut all = Vec::new();
        crate::cards::walk_steps(steps, &mut all);
        all.iter().map(|s| verb_name(s.verb)).collect::<Vec<_>>()
    };
    let d = PyDict::new(py);
    d.set_item("steps", enc.steps.iter().map(|s| verb_name(s.verb)).collect::<Vec<_>>())?;
    d.set_item("verbs", names(&enc.steps))?;
    d.set_item("modifier_verbs", enc.modifier.as_ref().map_or_else(Vec::new, |m| names(&m.steps)))?;
    let trigger = |on| TRIGGER_NAMES.iter().find(|(_, x)| *x == on).map_or("?", |(n, _)| *n);
    d.set_item("triggers", enc.triggers.iter().map(|t| trigger(t.on)).collect::<Vec<_>>())?;
    d.set_item(
        "host",
        match &enc.host {
            None => None,
            Some(Host::Mission) => Some("mission"),
            Some(Host::Characters(_)) => Some("character"),
        },
    )?;
    let mut gates = Vec::new();
    if !enc.steps.is_empty() {
        gates.push(crate::effects::mandatory(&enc.steps.iter().collect::<Vec<_>>(), false));
    }
    for t in &enc.triggers {
        gates.push(crate::effects::mandatory(&t.steps.iter().collect::<Vec<_>>(), t.must));
    }
    d.set_item("mandatory", gates)?;
    let mut all = Vec::new();
    crate::cards::walk_steps(&enc.steps, &mut all);
    for t in &enc.triggers {
        crate::cards::walk_steps(&t.steps, &mut all);
    }
    if let Some(m) = &enc.modifier {
        crate::cards::walk_steps(&m.steps, &mut all);
    }
    let specials: Vec<&str> = all
        .iter()
        .filter(|s| s.verb == Verb::Special)
        .map(|s| if let Arg::Name(n) = &s.arg { n.as_str() } else { "?" })
        .collect();
    d.set_item("specials", specials)?;
    d.set_item("executable", crate::effects::runs(line))?;
    Ok(Some(d))
}

/// Read and validate one card file (`path` names it in messages; its stem is the set) as the core
/// reads its own: a ValueError says what is wrong, with the file, line, card and field. Returns
/// each card's facts in file order (characters, attachments, missions), each effect line with its
/// `do` as JSON text (None when not encoded) and `facts` (see `line_facts`).
#[pyfunction]
fn read_card_file<'py>(py: Python<'py>, path: &str, text: &str) -> PyResult<Bound<'py, PyList>> {
    let file = guard("read_card_file", || {
        Catalog::from_files(&[(path, text)]).map_err(|e| {
            // (a repeated version or printing is the one message that does not name the file)
            PyValueError::new_err(if e.0.starts_with(path) { e.0 } else { format!("{path}: {}", e.0) })
        })
    })?;
    // (read again for the encodings as written: the catalog above validated it all)
    let doc: toml::Table = text.parse().map_err(|e| PyValueError::new_err(format!("{path}: not valid TOML: {e}")))?;
    let raw_cards = ["character", "attachment", "mission"]
        .iter()
        .filter_map(|t| doc.get(*t).and_then(|v| v.as_array()))
        .flatten()
        .filter_map(|v| v.as_table());
    let mut out = Vec::new();
    for (c, raw) in file.cards.iter().zip(raw_cards) {
        let d = PyDict::new(py);
        d.set_item("id", &c.id)?;
        d.set_item("number", c.number)?;
        d.set_item("type", c.ctype.as_str())?;
        d.set_item("name", &c.name)?;
        d.set_item("title", &c.title)?;
        d.set_item("rarity", &c.rarity)?;
        d.set_item("printings", &c.printings)?;
        d.set_item("cost", c.cost)?;
        d.set_item("power", c.power)?;
        d.set_item("group", c.group.map(|g| crate::names::GROUPS[g.0 as usize]))?;
        d.set_item("keywords", c.keywords.iter().map(|k| file.keyword_text(*k)).collect::<Vec<_>>())?;
        d.set_item("points", c.points)?;
        d.set_item("attach_to", &c.attach_to)?;
        let raw_effects = raw.get("effects").and_then(|v| v.as_array());
        let mut effects = Vec::new();
        for (i, l) in c.effects.iter().enumerate() {
            let e = PyDict::new(py);
            e.set_item("timing", l.timing.as_str())?;
            e.set_item("kind", l.kind.as_str())?;
            e.set_item("duel", &l.duel)?;
            e.set_item("modifies", l.modifies.map(|m| m.as_str()))?;
            let written = raw_effects.and_then(|a| a.get(i)).and_then(|v| v.get("do"));
            let json = match written {
                Some(v) => Some(serde_json::to_string(v).map_err(|e| PyValueError::new_err(e.to_string()))?),
                None => None,
            };
            e.set_item("do", json)?;
            e.set_item("facts", line_facts(py, l)?)?;
            effects.push(e);
        }
        d.set_item("effects", effects)?;
        out.push(d);
    }
    PyList::new(py, out)
}

fn register_catalog(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_card_file, m)?)?;
    // the rules' numbers, for the Python side (scenario files, the curve report)
    m.add("RANKS", PyTuple::new(m.py(), crate::state::RANKS.iter().map(|r| r.to_string()))?)?;
    m.add("ROUNDS", crate::state::ROUNDS)?;
    m.add("HAND_SIZE", crate::state::HAND_SIZE)?;
    m.add("DRAW_PER_ROUND", crate::state::DRAW_PER_ROUND)?;
    Ok(())
}

// ---- the search player's measurements (benchmarks/search_*.py) -----------------------------

/// One game of a measurement: (winner, score of seat 0, score of seat 1, first Edge holder,
/// seat 0 took a mulligan, seat 1 took a mulligan, decisions).
type SearchRow = (i32, i64, i64, i32, bool, bool, i64);

/// A game's panic as its error, naming the seed.
fn caught<T>(seed: i128, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("seed {seed}: panic: {msg}"))
    })
}

fn decks_of(decks: Vec<(Vec<String>, Vec<String>)>) -> PyResult<Vec<GameDeck>> {
    decks.into_iter().map(|(c, m)| deck_from(c, m, String::new())).collect()
}

/// Self-play games inside the core, the GIL released: `games` holds (seat 0's deck, seat 1's
/// deck, seed, seat 0's player spec, seat 1's player spec); players are made fresh for each game
/// and reset as `play_match` resets them; `row` reads each finished game. A game that fails
/// raises EngineError naming it.
fn play_each<T: Send>(
    py: Python<'_>,
    decks: Vec<(Vec<String>, Vec<String>)>,
    games: Vec<(usize, usize, i128, String, String)>,
    row: fn(&GameState) -> T,
) -> PyResult<Vec<T>> {
    let decks = decks_of(decks)?;
    if games.iter().any(|g| g.0 >= decks.len() || g.1 >= decks.len()) {
        return Err(PyValueError::new_err("a game names a missing deck"));
    }
    for g in &games {
        crate::players::make_player(&g.3, None).map_err(PyValueError::new_err)?;
        crate::players::make_player(&g.4, None).map_err(PyValueError::new_err)?;
    }
    let out: Vec<Result<T, String>> = py.detach(|| {
        games
            .iter()
            .map(|(a, b, seed, sa, sb)| {
                caught(*seed, || {
                    let mut pa = crate::players::make_player(sa, None)?;
                    let mut pb = crate::players::make_player(sb, None)?;
                    let g = crate::players::play_match(cat(), &decks[*a], &decks[*b], &mut *pa, &mut *pb, *seed)
                        .map_err(|e| format!("seed {seed}: {e}"))?;
                    Ok(row(&g))
                })
            })
            .collect()
    });
    out.into_iter().map(|r| r.map_err(EngineError::new_err)).collect()
}

/// Games inside the core (`play_each`): each game's winner, scores, first Edge holder, mulligans
/// and decisions.
#[pyfunction]
fn play_search_games(
    py: Python<'_>,
    decks: Vec<(Vec<String>, Vec<String>)>,
    games: Vec<(usize, usize, i128, String, String)>,
) -> PyResult<Vec<SearchRow>> {
    play_each(py, decks, games, |g| {
        (
            g.winner,
            g.players[0].score,
            g.players[1].score,
            g.first_edge,
            g.players[0].mulliganed,
            g.players[1].mulliganed,
            g.decisions,
        )
    })
}

/// The fingerprint of each game (`players::digest`: every decision, the scores, the winner),
/// `games` as in `play_search_games`: two versions of the engine that play the same games give
/// the same digests.
#[pyfunction]
fn game_digests(
    py: Python<'_>,
    decks: Vec<(Vec<String>, Vec<String>)>,
    games: Vec<(usize, usize, i128, String, String)>,
) -> PyResult<Vec<u64>> {
    play_each(py, decks, games, crate::players::digest)
}

/// One audited endgame: (seed, audited seat, best margin or None, a win within reach or None,
/// margin reached, won, positions searched, and for a thrown game on how many of
/// `audit::DEALS` deals from the player's view a win was there).
type AuditRow = (i128, i32, Option<i64>, Option<bool>, i64, bool, usize, Option<usize>);

/// The endgame audit (`players::audit`): `games` as in `play_search_games` plus the audited
/// seat; one row per game whose audited player had a round-4 endgame, each solved exactly on
/// the true state within `budget` positions.
#[pyfunction]
fn audit_endgames(
    py: Python<'_>,
    decks: Vec<(Vec<String>, Vec<String>)>,
    games: Vec<(usize, usize, i128, String, String, i32)>,
    budget: usize,
) -> PyResult<Vec<AuditRow>> {
    let decks = decks_of(decks)?;
    if games.iter().any(|g| g.0 >= decks.len() || g.1 >= decks.len()) {
        return Err(PyValueError::new_err("a game names a missing deck"));
    }
    let rows: Result<Vec<Option<crate::players::audit::Record>>, String> = py.detach(|| {
        games
            .iter()
            .map(|(a, b, seed, sa, sb, seat)| {
                caught(*seed, || {
                    let mut pa = crate::players::make_player(sa, None)?;
                    let mut pb = crate::players::make_player(sb, None)?;
                    Ok(crate::players::audit::audit_game(
                        cat(),
                        &decks[*a],
                        &decks[*b],
                        &mut *pa,
                        &mut *pb,
                        *seed,
                        *seat,
                        budget,
                    ))
                })
            })
            .collect()
    });
    let rows = rows.map_err(PyValueError::new_err)?;
    Ok(rows
        .into_iter()
        .flatten()
        .map(|r| {
            (r.seed, r.seat, r.best.map(|b| b.0), r.best.map(|b| b.1), r.reached.0, r.reached.1, r.nodes, r.dealt_wins)
        })
        .collect())
}

fn register_search(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_search_games, m)?)?;
    m.add_function(wrap_pyfunction!(audit_endgames, m)?)?;
    m.add_function(wrap_pyfunction!(game_digests, m)?)?;
    Ok(())
}

/// Ask whatever runs in the core in this process to stop (a signal's watcher thread calls it
/// while a batch runs with the interpreter released): searches give up at once, batches stop
/// between games with `Cancelled`.
#[pyfunction]
fn cancel() {
    crate::cancel::request();
}

/// Forget a stop asked before: the next batch plays.
#[pyfunction]
fn uncancel() {
    crate::cancel::clear();
}

/// Whether a stop was asked.
#[pyfunction]
fn cancelled() -> bool {
    crate::cancel::requested()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(play_random_game, m)?)?;
    m.add_function(wrap_pyfunction!(card_files, m)?)?;
    m.add_function(wrap_pyfunction!(play_random_games, m)?)?;
    m.add_function(wrap_pyfunction!(clone_cost, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(play_batch, m)?)?;
    m.add_class::<Recorder>()?;
    register_catalog(m)?;
    register_players(m)?;
    register_search(m)?;
    m.add("IllegalAction", m.py().get_type::<IllegalAction>())?;
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    m.add("LayoutMismatch", m.py().get_type::<LayoutMismatch>())?;
    m.add("Cancelled", m.py().get_type::<Cancelled>())?;
    m.add_function(wrap_pyfunction!(cancel, m)?)?;
    m.add_function(wrap_pyfunction!(uncancel, m)?)?;
    m.add_function(wrap_pyfunction!(cancelled, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

// ---- the built-in players ------------------------------------------------------------------

/// A built-in player of the core (`random`, `greedy`, `tempo`, `ambush`, `control`,
/// `lookahead:sims=…,width=…,time=…,clear=…,leaf=…`), with its mulligan rule (`keep`, `never`,
/// `heuristic`, `always`; None: the player's own). It answers as its Python version does: reset
/// with the same seed, the same decision on every state.
#[pyclass(module = "mythos_cli._core", name = "Player")]
pub struct PyPlayer {
    inner: std::sync::Mutex<Box<dyn crate::players::Player>>,
    spec: String,
}

#[pymethods]
impl PyPlayer {
    #[new]
    #[pyo3(signature = (spec, mulligan=None))]
    fn new(spec: &str, mulligan: Option<&str>) -> PyResult<PyPlayer> {
        let p = crate::players::make_player(spec, mulligan).map_err(PyValueError::new_err)?;
        Ok(PyPlayer { spec: p.spec(), inner: std::sync::Mutex::new(p) })
    }

    /// The spec that builds this player again (`greedy`, `lookahead:clear=3.0,leaf=1.0,…`).
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The mulligan rule it plays with: `keep`, `heuristic` or `always`.
    #[getter]
    fn mulligan(&self) -> &'static str {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).mulligan().name()
    }

    /// Start a new game: seeds the player's generator from its name and `seed`.
    fn reset(&self, seed: i128) {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).reset(seed);
    }

    /// The player's answer to the pending decision of `game` (an action tuple, as `apply` takes).
    fn decide<'py>(&self, py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyTuple>> {
        let Some(d) = game.g.pending.as_ref() else {
            return Err(IllegalAction::new_err("no decision is pending"));
        };
        let player = d.player;
        // the interpreter released while the player thinks (a search may take seconds): a signal's
        // watcher thread can then raise the stop (`cancel`), which the search polls. It thinks on a
        // copy of the state (the state's caches are not shared across threads).
        let state = game.g.clone();
        let a = py.detach(move || {
            guard("decide", || Ok(self.inner.lock().unwrap_or_else(|e| e.into_inner()).decide(&state, player)))
        })?;
        action_to_py(py, &a)
    }

    fn __repr__(&self) -> String {
        format!("Player({})", self.spec)
    }
}

/// One game's result in a batch: (winner, score of seat 0, score of seat 1, decisions, rounds).
type MatchRow = (i32, i64, i64, i64, i32);

/// Many games of two players inside the core, the GIL released: `decks` is a list of (cards,
/// missions) version-id lists; game i plays `decks[games[i][0]]` (seat 0, `player_a`) against
/// `decks[games[i][1]]` with seed `games[i][2]`, the players reset as `play_match` resets them.
/// Returns one row per game; a game that fails raises EngineError naming it.
#[pyfunction]
#[pyo3(signature = (decks, games, player_a, player_b, mulligan_a=None, mulligan_b=None))]
fn play_matches(
    py: Python<'_>,
    decks: Vec<(Vec<String>, Vec<String>)>,
    games: Vec<(usize, usize, i128)>,
    player_a: &str,
    player_b: &str,
    mulligan_a: Option<&str>,
    mulligan_b: Option<&str>,
) -> PyResult<Vec<MatchRow>> {
    let decks = decks.into_iter().map(|(c, m)| deck_from(c, m, String::new())).collect::<PyResult<Vec<_>>>()?;
    if games.iter().any(|&(a, b, _)| a >= decks.len() || b >= decks.len()) {
        return Err(PyValueError::new_err("a game names a missing deck"));
    }
    let mut pa = crate::players::make_player(player_a, mulligan_a).map_err(PyValueError::new_err)?;
    let mut pb = crate::players::make_player(player_b, mulligan_b).map_err(PyValueError::new_err)?;
    // one game at a time, so that a stop asked meanwhile (`cancel`) ends the list between games; the
    // game it interrupted (its searches gave up) is not counted
    let results = py.detach(|| {
        let mut out = Vec::with_capacity(games.len());
        for game in &games {
            if crate::cancel::requested() {
                break;
            }
            let r = crate::players::play_matches(cat(), &decks, std::slice::from_ref(game), &mut *pa, &mut *pb);
            if crate::cancel::requested() {
                break;
            }
            out.extend(r);
        }
        out
    });
    if crate::cancel::requested() {
        return Err(Cancelled::new_err(format!("stopped after {} of {} games", results.len(), games.len())));
    }
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            Ok(m) => Ok((m.winner, m.scores.0, m.scores.1, m.decisions, m.rounds)),
            Err(e) => Err(EngineError::new_err(format!("game {i}: {e}"))),
        })
        .collect()
}

fn register_players(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPlayer>()?;
    m.add_function(wrap_pyfunction!(play_matches, m)?)?;
    m.add("PLAYER_NAMES", crate::players::PLAYER_NAMES.to_vec())?;
    m.add("MULLIGAN_NAMES", crate::players::mulligan::MULLIGAN_NAMES.to_vec())?;
    Ok(())
}
