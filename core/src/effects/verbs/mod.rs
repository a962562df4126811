//! The verbs of the effect language, one family a file: Power tokens, chakra and points, cards
//! in hands and decks, characters on the board, playing cards, attachments, and the verbs that
//! structure other steps.

mod attach;
mod board;
mod chakra;
mod deck;
mod flow;
mod play;
mod tokens;

use crate::effects::{Res, ctx_ref};
use crate::language::{Number, Step, Verb};
use crate::state::{GameState, Val};

pub use tokens::powerup_amount;

/// Run one step's verb in frame `fi`.
pub fn run(g: &mut GameState, fi: usize, step: &'static Step) -> Res<()> {
    match step.verb {
        Verb::Powerup => tokens::powerup(g, fi, step),
        Verb::RemoveTokens => tokens::remove_tokens(g, fi, step),
        Verb::GainChakra => chakra::gain_chakra(g, fi, step),
        Verb::StealChakra => chakra::steal_chakra(g, fi, step),
        Verb::SpendChakra => chakra::spend_chakra(g, fi, step),
        Verb::PayChakra => chakra::pay_chakra(g, fi, step),
        Verb::GainEdge => chakra::gain_edge(g, fi, step),
        Verb::GainPoints => chakra::gain_points(g, fi, step),
        Verb::Draw => deck::draw(g, fi, step),
        Verb::Discard => deck::discard(g, fi, step),
        Verb::LookHand | Verb::LookHidden => deck::look(g, fi, step),
        Verb::DiscardTop => deck::discard_top(g, fi, step),
        Verb::PutOnDeck => deck::put_on_deck(g, fi, step),
        Verb::SearchTop => deck::search_top(g, fi, step),
        Verb::Retrieve => deck::retrieve(g, fi, step),
        Verb::Declare => deck::declare(g, fi, step),
        Verb::RevealTop => deck::reveal_top(g, fi, step),
        Verb::LookTop => deck::look_top(g, fi, step),
        Verb::Dig => deck::dig(g, fi, step),
        Verb::SearchDeck => deck::search_deck(g, fi, step),
        Verb::RevealHand => deck::reveal_hand(g, fi, step),
        Verb::Recycle => deck::recycle(g, fi, step),
        Verb::Move => board::move_(g, fi, step),
        Verb::Hide => board::hide(g, fi, step),
        Verb::Defeat => board::defeat(g, fi, step),
        Verb::TakeControl => board::take_control(g, fi, step),
        Verb::ReturnToHand => board::return_to_hand(g, fi, step),
        Verb::StripTop => board::strip_top(g, fi, step),
        Verb::ChooseMission => board::choose_a_mission(g, fi, step),
        Verb::RevealOrDefeat => board::reveal_or_defeat(g, fi, step),
        Verb::TakeBack => board::take_back(g, fi, step),
        Verb::SplitBottom => board::split_bottom(g, fi, step),
        Verb::DiscardFromStack => board::discard_from_stack(g, fi, step),
        Verb::Play => play::play(g, fi, step),
        Verb::PlaceHidden => play::place_hidden(g, fi, step),
        // a price, lowered when the card was played: nothing to do when it resolves
        Verb::Cheaper => Ok(()),
        Verb::Attach => attach::attach(g, fi, step),
        Verb::AttachSelf => attach::attach_self(g, fi, step),
        Verb::DiscardAttachment => attach::discard_attachment(g, fi, step),
        Verb::MoveAttachment => attach::move_attachment(g, fi, step),
        Verb::Repeat => flow::repeat(g, fi, step),
        Verb::Copy => flow::copy(g, fi, step),
        Verb::ForEach => flow::for_each(g, fi, step),
        Verb::ForEachMission => flow::for_each_mission(g, fi, step),
        Verb::Times => flow::times(g, fi, step),
        Verb::OneOf => flow::one_of(g, fi, step),
        Verb::Activate => flow::activate(g, fi, step),
        // no escape hatch is declared: the parser refuses `special`
        Verb::Special => Ok(()),
    }
}

/// The step's number (its main argument) read in frame `fi`.
pub(crate) fn num(g: &GameState, fi: usize, n: &Number) -> i64 {
    crate::effects::selectors::number(g, ctx_ref(g, fi), n, false)
}

pub(crate) fn arg_num(g: &GameState, fi: usize, step: &Step) -> i64 {
    step.number().map_or(0, |n| num(g, fi, n))
}

pub(crate) fn int(v: i64) -> Val {
    Val::Int(v)
}
