//! What one player may know: their own hand and hidden cards, never the opponent's hand, the
//! opponent's hidden cards or either deck's order. Players decide from this view only.

use crate::effects::lines::{self, static_ctx};
use crate::language::StaticKind;
use crate::power::{power, static_hits};
use crate::state::{GameState, Inst, Uid};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnitView {
    pub uid: Uid,
    /// 0: mine, 1: the opponent's
    pub side: i32,
    pub mission: i32,
    pub hidden: bool,
    /// catalog index of the top card; None for a hidden character this player cannot see
    pub card: Option<u16>,
    pub tokens: i64,
    pub power: i64,
    pub stack: usize,
    pub controlled: bool,
    /// catalog indices; None for a face-down attachment the opponent played
    pub attachments: Vec<Option<u16>>,
}

/// Cards as a player sees them: catalog indices, None for a face-down card of the opponent.
pub type Seen = Vec<Option<u16>>;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    pub player: i32,
    pub round: i32,
    pub phase: &'static str,
    pub edge: bool,
    /// mine, theirs
    pub scores: (i64, i64),
    pub chakra: (i64, i64),
    pub hand: Vec<u16>,
    pub hand_instances: Vec<Inst>,
    pub opponent_hand_size: usize,
    pub deck_sizes: (usize, usize),
    pub discards: (Vec<u16>, Vec<u16>),
    /// (mission card, rank 0..3)
    pub missions: Vec<(u16, usize)>,
    pub units: Vec<UnitView>,
    pub passed: (bool, bool),
    /// per mission: (mine, theirs)
    pub mission_attachments: Vec<(Seen, Seen)>,
}

/// Hidden characters `player` may look at any time (⧗ see_hidden).
pub fn seen_hidden(g: &GameState, player: i32) -> Vec<Uid> {
    let mut out = Vec::new();
    for r in lines::lines(g).statics(StaticKind::SeeHidden).iter() {
        if r.controller != player {
            continue;
        }
        let ctx = static_ctx(r.unit, r.mission, r.controller, g);
        for uid in g.all_uids() {
            let u = g.u(uid);
            if u.hidden && static_hits(g, &ctx, r.s, u) && !out.contains(&uid) {
                out.push(uid);
            }
        }
    }
    out
}

/// An attachment as `player` sees it: face-down ones are known to the player who played them.
fn att(g: &GameState, a: Inst, player: i32) -> Option<u16> {
    if g.att_is_hidden(a) && g.owner[a as usize] != player { None } else { Some(g.cards[a as usize]) }
}

pub fn observe(g: &GameState, player: i32) -> View {
    let (me, opp) = (&g.players[player as usize], &g.players[1 - player as usize]);
    let seen = seen_hidden(g, player);
    let mut units = Vec::new();
    for (mi, m) in g.missions.iter().enumerate() {
        for side in [player, 1 - player] {
            for &uid in &m.sides[side as usize] {
                let u = g.u(uid);
                let mine = u.owner == player || u.controller == player;
                let visible = !u.hidden || mine || seen.contains(&uid);
                units.push(UnitView {
                    uid,
                    side: if side == player { 0 } else { 1 },
                    mission: mi as i32,
                    hidden: u.hidden,
                    card: visible.then(|| g.cards[u.top() as usize]),
                    tokens: u.tokens,
                    power: power(g, u),
                    stack: u.stack.len(),
                    controlled: u.controlled_by != -1,
                    attachments: u.attachments.iter().map(|&a| att(g, a, player)).collect(),
                });
            }
        }
    }
    let ids = |z: &Vec<Inst>| z.iter().map(|&c| g.cards[c as usize]).collect::<Vec<_>>();
    View {
        player,
        round: g.round,
        phase: g.phase.as_str(),
        edge: g.edge == player,
        scores: (me.score, opp.score),
        chakra: (me.chakra, opp.chakra),
        hand: ids(&me.hand),
        hand_instances: me.hand.clone(),
        opponent_hand_size: opp.hand.len(),
        deck_sizes: (me.deck.len(), opp.deck.len()),
        discards: (ids(&me.discard), ids(&opp.discard)),
        missions: g.missions.iter().map(|m| (g.cards[m.card as usize], m.rank)).collect(),
        units,
        passed: (me.passed, opp.passed),
        mission_attachments: g
            .missions
            .iter()
            .map(|m| {
                (
                    m.attachments[player as usize].iter().map(|&a| att(g, a, player)).collect(),
                    m.attachments[1 - player as usize].iter().map(|&a| att(g, a, player)).collect(),
                )
            })
            .collect(),
    }
}
