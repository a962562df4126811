//! Finished games as database rows: one dense `game_data` row each, packed exactly as
//! `mythos_cli/store/layout.py` lays it out (the store's views decode it). A batch's rows are
//! kept as columns (flat value vectors with list offsets) so Python turns them into Arrow arrays
//! without touching each value.

use std::collections::HashMap;

use crate::state::{Ev, GameState, RoundStats};

const SEAT_SHIFT: u32 = 14;
const EVENT_SHIFT: u32 = 15;
const ROUND_SHIFT: u32 = 17;
const HOW_SHIFT: u32 = 20;
const RANK_SHIFT: u32 = 23;
const WON_SHIFT: u32 = 26;
const MAX_ROUND: i32 = 7;
const STAT_BITS: u32 = 10;
const OWNER_SHIFT: u32 = 14;
const MAX_MISSIONS: usize = 4;
// events
const DEALT: i32 = 0;
const OPENING: i32 = 1 << EVENT_SHIFT;
const DRAWN: i32 = 2 << EVENT_SHIFT;
const PLAYED: i32 = 3 << EVENT_SHIFT;
// how a card was played: layout.HOWS
const HOW_FACE_UP: i32 = 1;
const HOW_HIDDEN: i32 = 2;
const HOW_UPGRADE: i32 = 3;
const HOW_REVEAL: i32 = 4;
const HOW_ATTACH: i32 = 5;
const HOW_ATTACH_HIDDEN: i32 = 6;

/// A value that does not fit its packed field (a bug or an engine change).
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutError(pub String);

/// One column of integer lists: the values end to end, and where each row's list starts.
#[derive(Debug, Clone, Default)]
pub struct ListColumn<T> {
    pub values: Vec<T>,
    /// `offsets[i]..offsets[i + 1]` are row i's values (one more offset than rows)
    pub offsets: Vec<i64>,
}

impl<T> ListColumn<T> {
    fn new() -> Self {
        ListColumn { values: Vec::new(), offsets: vec![0] }
    }
    fn end_row(&mut self) {
        self.offsets.push(self.values.len() as i64);
    }
}

/// The `game_data` rows of a batch, column by column (the run-level columns, run id, batch,
/// setup key and seed, are the caller's).
#[derive(Debug, Clone)]
pub struct Rows {
    pub flags: Vec<i32>,
    pub score_0: Vec<i32>,
    pub score_1: Vec<i32>,
    pub decisions: Vec<i32>,
    pub missions: ListColumn<i16>,
    pub round_scores: ListColumn<u32>,
    pub rounds: ListColumn<u64>,
    pub costs: ListColumn<i16>,
    pub events: ListColumn<i32>,
    /// catalog index → the run's card code
    code: HashMap<u16, i32>,
}

impl Rows {
    /// Rows coded by the run's card list (catalog indices, in the run's order).
    pub fn new(cards: &[u16]) -> Result<Rows, LayoutError> {
        if cards.len() > 1 << 14 {
            return Err(LayoutError(format!("{} cards: the layout holds {}", cards.len(), 1 << 14)));
        }
        Ok(Rows {
            flags: Vec::new(),
            score_0: Vec::new(),
            score_1: Vec::new(),
            decisions: Vec::new(),
            missions: ListColumn::new(),
            round_scores: ListColumn::new(),
            rounds: ListColumn::new(),
            costs: ListColumn::new(),
            events: ListColumn::new(),
            code: cards.iter().enumerate().map(|(i, &c)| (c, i as i32)).collect(),
        })
    }

    pub fn len(&self) -> usize {
        self.flags.len()
    }

    pub fn is_empty(&self) -> bool {
        self.flags.is_empty()
    }

    fn card(&self, g: &GameState, catalog_index: u16) -> Result<i32, LayoutError> {
        self.code.get(&catalog_index).copied().ok_or_else(|| {
            LayoutError(format!(
                "card {} is not in the run's card list (its decks' cards)",
                g.cat.cards[catalog_index as usize].id
            ))
        })
    }

    /// One finished game played with its event stream; `studied_seat`: the seat of the run's
    /// studied deck.
    pub fn add_game(&mut self, g: &GameState, studied_seat: i32) -> Result<(), LayoutError> {
        let events = g.events.as_ref().ok_or_else(|| LayoutError("a game played without its event stream".into()))?;
        // everything is packed first, then appended, so a failing game leaves no half row
        if g.missions.len() > MAX_MISSIONS {
            return Err(LayoutError(format!(
                "a game with {} missions: the layout holds {MAX_MISSIONS}",
                g.missions.len()
            )));
        }
        let mut missions = Vec::with_capacity(g.missions.len());
        for m in &g.missions {
            let owner = g.owner[m.card as usize];
            missions.push((self.card(g, g.cards[m.card as usize])? | owner << OWNER_SHIFT) as i16);
        }
        let mut round_scores = Vec::with_capacity(g.round_scores.len());
        for r in &g.round_scores {
            round_scores.push(pack_scores(r[0], r[1])?);
        }
        let mut rounds = Vec::with_capacity(g.round_log.len() * 4);
        let mut costs = Vec::new();
        for (r, entry) in g.round_log.iter().enumerate() {
            for (seat, st) in entry.iter().enumerate() {
                pack_round(&mut rounds, &mut costs, 2 * r + seat, st)?;
            }
        }
        // which seat won each mission (by index) in each round's evaluation
        let mut won: Vec<((i32, i32), i32)> = Vec::new();
        for (rnd, ev) in events {
            if let Ev::MissionResult(mi, _, _, w) = ev {
                match won.iter_mut().find(|(k, _)| *k == (*rnd, *mi)) {
                    Some(slot) => slot.1 = *w,
                    None => won.push(((*rnd, *mi), *w)),
                }
            }
        }
        let mut packed: Vec<i32> = Vec::with_capacity(events.len());
        let mut dealt: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
        let mut opening: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
        for (rnd, ev) in events {
            let rnd = *rnd;
            match ev {
                Ev::Draw(seat, inst) if rnd >= 1 => {
                    check_round(rnd)?;
                    packed
                        .push(self.card(g, g.cards[*inst as usize])? | seat << SEAT_SHIFT | DRAWN | rnd << ROUND_SHIFT);
                }
                Ev::Play(seat, card, mi, how, _) => {
                    let how = match *how {
                        "face_up" => HOW_FACE_UP,
                        "hidden" => HOW_HIDDEN,
                        "upgrade" => HOW_UPGRADE,
                        other => {
                            return Err(LayoutError(format!("a card played {other:?}: the layout does not know how")));
                        }
                    };
                    packed.push(self.played(g, rnd, *seat, *card, *mi, how, &won)?);
                }
                Ev::Reveal(seat, card, mi, _) | Ev::RevealAttachment(seat, card, mi, _) => {
                    packed.push(self.played(g, rnd, *seat, *card, *mi, HOW_REVEAL, &won)?);
                }
                Ev::Attach(seat, card, mi, how, _) => {
                    if *how == "character" {
                        continue;
                    }
                    let how = if *how == "hidden" { HOW_ATTACH_HIDDEN } else { HOW_ATTACH };
                    packed.push(self.played(g, rnd, *seat, *card, *mi, how, &won)?);
                }
                Ev::Dealt(seat, hand) => {
                    let s = *seat as usize;
                    dealt[s] = hand
                        .iter()
                        .map(|&c| self.card(g, c).map(|x| x | seat << SEAT_SHIFT | DEALT))
                        .collect::<Result<_, _>>()?;
                }
                Ev::Opening(seat, hand) => {
                    let s = *seat as usize;
                    let h: Vec<i32> = hand
                        .iter()
                        .map(|&c| self.card(g, c).map(|x| x | seat << SEAT_SHIFT | OPENING))
                        .collect::<Result<_, _>>()?;
                    packed.extend(&h);
                    opening[s] = h;
                }
                _ => {}
            }
        }
        // a seat's dealt hand is stored only where it differs from its opening hand
        let mut stored = 0;
        let mut head: Vec<i32> = Vec::new();
        for seat in 0..2 {
            let same = dealt[seat].len() == opening[seat].len()
                && dealt[seat].iter().zip(&opening[seat]).all(|(d, o)| *d == o - OPENING + DEALT);
            if !same {
                stored |= 1 << seat;
                head.extend(&dealt[seat]);
            }
        }
        let winner = g.winner + 1;
        if !(0..4).contains(&winner) || !(0..2).contains(&studied_seat) {
            return Err(LayoutError("a game flag does not fit the game flags".into()));
        }
        let flags = studied_seat
            | g.first_edge << 1
            | g.edge << 2
            | winner << 3
            | (g.tiebreak_by_edge as i32) << 5
            | (g.players[0].mulliganed as i32) << 6
            | (g.players[1].mulliganed as i32) << 7
            | stored << 8;
        self.flags.push(flags);
        self.score_0.push(g.players[0].score as i32);
        self.score_1.push(g.players[1].score as i32);
        self.decisions.push(g.decisions as i32);
        self.missions.values.extend(missions);
        self.missions.end_row();
        self.round_scores.values.extend(round_scores);
        self.round_scores.end_row();
        self.rounds.values.extend(rounds);
        self.rounds.end_row();
        self.costs.values.extend(costs);
        self.costs.end_row();
        self.events.values.extend(head);
        self.events.values.extend(packed);
        self.events.end_row();
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn played(
        &self,
        g: &GameState,
        rnd: i32,
        seat: i32,
        card: u16,
        mi: i32,
        how: i32,
        won: &[((i32, i32), i32)],
    ) -> Result<i32, LayoutError> {
        check_round(rnd)?;
        let rank = if (0..g.missions.len() as i32).contains(&mi) {
            (g.missions[mi as usize].rank as i32 + 1) << RANK_SHIFT
        } else {
            0
        };
        let w = match won.iter().find(|(k, _)| *k == (rnd, mi)) {
            None => 0,
            Some((_, w)) if *w == seat => 2 << WON_SHIFT,
            Some(_) => 1 << WON_SHIFT,
        };
        Ok(self.card(g, card)? | seat << SEAT_SHIFT | PLAYED | rnd << ROUND_SHIFT | how << HOW_SHIFT | rank | w)
    }
}

fn check_round(rnd: i32) -> Result<(), LayoutError> {
    if (0..=MAX_ROUND).contains(&rnd) {
        Ok(())
    } else {
        Err(LayoutError(format!("round {rnd} does not fit the card-event layout (at most {MAX_ROUND})")))
    }
}

fn pack_scores(a: i64, b: i64) -> Result<u32, LayoutError> {
    for v in [a, b] {
        if !(-32768..=32767).contains(&v) {
            return Err(LayoutError(format!("round score {v} does not fit 16 bits")));
        }
    }
    Ok((a as u32 & 0xffff) | (b as u32 & 0xffff) << 16)
}

/// Six statistics as signed 10-bit fields of one unsigned 64-bit integer.
fn pack_stats(values: [i64; 6]) -> Result<u64, LayoutError> {
    let lim = 1i64 << (STAT_BITS - 1);
    let mut out = 0u64;
    for (i, v) in values.into_iter().enumerate() {
        if !(-lim..lim).contains(&v) {
            return Err(LayoutError(format!("round statistic {v} does not fit {STAT_BITS} bits")));
        }
        out |= ((v & ((1 << STAT_BITS) - 1)) as u64) << (STAT_BITS * i as u32);
    }
    Ok(out)
}

fn pack_round(rounds: &mut Vec<u64>, costs: &mut Vec<i16>, slot: usize, st: &RoundStats) -> Result<(), LayoutError> {
    rounds.push(pack_stats([
        st.chakra_gained,
        st.chakra_spent,
        st.chakra_left,
        st.cards_drawn,
        st.played_face_up,
        st.played_hidden,
    ])?);
    rounds.push(pack_stats([
        st.revealed,
        st.upgraded,
        st.characters_in_play,
        st.missions_won,
        st.points,
        st.edge as i64,
    ])?);
    for &cost in &st.cost_face_up {
        if !(0..=255).contains(&cost) || slot > 127 {
            return Err(LayoutError(format!("face-up cost {cost} in seat-round {slot} does not fit the cost layout")));
        }
        costs.push(((slot as i64) << 8 | cost) as i16);
    }
    Ok(())
}
