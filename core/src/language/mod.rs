//! The mythos effect language: typed trees parsed from the card files.
//!
//! An effect line's `do` is a list of *clauses*: instant steps (one verb with its argument and
//! options), statics and triggers (continuous lines), a modifier (lines that change another
//! line: `instead`, `also`, `as_main`), or, on an attachment's ATTACH line, where it may go and
//! what it grants. Selectors pick characters (or attachments, or cards in a zone); numbers are
//! constants, remembered values or counts; conditions gate steps, statics and triggers.
//!
//! The trees are read in [`parse`] (with the card id, line and field of any error) and turned
//! into English in [`render`]; the engine interprets the very same trees, so the text a player
//! reads can never disagree with what the engine does.

pub mod parse;
pub mod render;

use crate::names::{GroupId, KeywordId, NameId};

/// A remembered value's name ("played", "x", a custom `as = "…"`), interned per catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u16);

/// "any number of": a count no board reaches.
pub const ANY: i64 = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Friendly,
    Enemy,
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Where {
    This,
    InPlay,
    OtherMissions,
    Chosen,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Weakest,
    Strongest,
    LowestCost,
    StrongestUnique,
}

impl Pick {
    /// "The weakest", "the strongest", "the lowest-cost": one character, whom the effect's player
    /// chooses among those tied (FAQ, weakest/strongest). "The single strongest" is nobody on a
    /// tie: nothing to choose.
    pub fn chosen_on_a_tie(self) -> bool {
        !matches!(self, Pick::StrongestUnique)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardTypeSel {
    Character,
    Attachment,
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    Character,
    Mission,
}

/// How many a selector picks.
#[derive(Clone, Debug, PartialEq)]
pub enum CountForm {
    One,
    All,
    UpTo(Number),
    Keep(Number),
    PowerTotal(Number),
    CostTotal(Number),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Selector {
    pub side: Side,
    pub self_: bool,
    pub other: bool,
    pub where_: Where,
    pub hidden: Option<bool>,
    pub group: Option<GroupId>,
    pub keyword: Option<KeywordId>,
    pub not_keyword: Option<KeywordId>,
    pub names: Vec<NameId>,
    pub not_name: Vec<NameId>,
    pub power_max: Option<i64>,
    pub power_min: Option<i64>,
    pub power_eq: Option<i64>,
    pub cost_max: Option<i64>,
    pub cost_min: Option<i64>,
    pub printed_cost_max: Option<i64>,
    pub upgraded: Option<bool>,
    pub has_tokens: Option<bool>,
    pub var: Option<VarId>,
    pub not_var: Option<VarId>,
    pub pick: Option<Pick>,
    pub count: CountForm,
    pub played_last_turn: bool,
    pub power_lt_self: bool,
    pub power_le_self: bool,
    pub power_max_var: Option<VarId>,
    pub cost_max_var: Option<VarId>,
    pub cost_lt: Option<Number>,
    pub per_mission: bool,
    /// same name as the character remembered under this name: the var "<name_var>_name"
    pub name_var: Option<VarId>,
    pub name_var_key: Option<VarId>,
    // Shinobi Shiren
    pub not_group: Option<GroupId>,
    /// lower-cased word the card name must contain
    pub name_has: Option<String>,
    /// the same word as the card file spells it (the English says "Hyuga-named")
    pub name_has_text: Option<String>,
    pub with_attachment: Option<Box<Selector>>,
    pub controlled: Option<bool>,
    pub owned: Option<bool>,
    pub moved_last_turn: bool,
    pub discounted: bool,
    pub unique_name: bool,
    pub sole: bool,
    pub printed_power_min: Option<i64>,
    pub printed_power_lt_self: bool,
    pub power_eq_self: bool,
    pub power_lt: Option<Number>,
    pub cost_le: Option<Number>,
    pub card_type: Option<CardTypeSel>,
    pub keywords: Vec<KeywordId>,
    pub on: Option<On>,
    /// any Shinobi Shiren field is set (the engine checks them apart)
    pub extra: bool,
    /// the groups of checks the selector asks for (`Selector::ASKS_*`), one bit a group, worked
    /// out when it is read: a character is matched against thousands of selectors a game, most of
    /// which ask for a side and a place only. A selector made in code asks for every group.
    pub asks: u8,
}

impl Default for Selector {
    fn default() -> Self {
        Selector {
            side: Side::Any,
            self_: false,
            other: false,
            where_: Where::InPlay,
            hidden: None,
            group: None,
            keyword: None,
            not_keyword: None,
            names: Vec::new(),
            not_name: Vec::new(),
            power_max: None,
            power_min: None,
            power_eq: None,
            cost_max: None,
            cost_min: None,
            printed_cost_max: None,
            upgraded: None,
            has_tokens: None,
            var: None,
            not_var: None,
            pick: None,
            count: CountForm::One,
            played_last_turn: false,
            power_lt_self: false,
            power_le_self: false,
            power_max_var: None,
            cost_max_var: None,
            cost_lt: None,
            per_mission: false,
            name_var: None,
            name_var_key: None,
            not_group: None,
            name_has: None,
            name_has_text: None,
            with_attachment: None,
            controlled: None,
            owned: None,
            moved_last_turn: false,
            discounted: false,
            unique_name: false,
            sole: false,
            printed_power_min: None,
            printed_power_lt_self: false,
            power_eq_self: false,
            power_lt: None,
            cost_le: None,
            card_type: None,
            keywords: Vec::new(),
            on: None,
            extra: false,
            asks: Selector::ASKS_ALL,
        }
    }
}

impl Selector {
    /// the card's name, group or keywords
    pub const ASKS_CARD: u8 = 1;
    /// Power tokens, or being played in the last turn
    pub const ASKS_STATE: u8 = 2;
    /// Power
    pub const ASKS_POWER: u8 = 4;
    /// cost
    pub const ASKS_COST: u8 = 8;
    /// which character it is or is not (this one, a remembered one), or the mission chosen
    pub const ASKS_WHO: u8 = 16;
    /// face-down or not, upgraded or not, another than the effect's own
    pub const ASKS_LOOK: u8 = 32;
    /// a Shinobi Shiren field (`extra`)
    pub const ASKS_EXTRA: u8 = 64;
    pub const ASKS_ALL: u8 = 0xff;

    /// The groups of checks the selector's fields ask for (`asks`).
    pub fn asks_now(&self) -> u8 {
        let mut asks = 0;
        if self.group.is_some()
            || self.keyword.is_some()
            || self.not_keyword.is_some()
            || !self.names.is_empty()
            || !self.not_name.is_empty()
            || self.name_var_key.is_some()
        {
            asks |= Selector::ASKS_CARD;
        }
        if self.has_tokens.is_some() || self.played_last_turn {
            asks |= Selector::ASKS_STATE;
        }
        if self.power_max.is_some()
            || self.power_min.is_some()
            || self.power_eq.is_some()
            || self.power_lt_self
            || self.power_le_self
            || self.power_max_var.is_some()
        {
            asks |= Selector::ASKS_POWER;
        }
        if self.cost_max.is_some()
            || self.cost_min.is_some()
            || self.cost_max_var.is_some()
            || self.printed_cost_max.is_some()
            || self.cost_lt.is_some()
        {
            asks |= Selector::ASKS_COST;
        }
        if self.self_ || self.var.is_some() || self.not_var.is_some() || self.where_ == Where::Chosen {
            asks |= Selector::ASKS_WHO;
        }
        if self.hidden.is_some() || self.upgraded.is_some() || self.other {
            asks |= Selector::ASKS_LOOK;
        }
        if self.extra {
            asks |= Selector::ASKS_EXTRA;
        }
        asks
    }
    pub fn is_all(&self) -> bool {
        matches!(self.count, CountForm::All)
    }
    /// A pick of one character ("the strongest …", not "all the strongest …"): on a tie, one of
    /// those tied, chosen by the effect's player.
    pub fn picks_one(&self) -> bool {
        self.pick.is_some_and(Pick::chosen_on_a_tie) && matches!(self.count, CountForm::One)
    }
    /// `self`: this character.
    pub fn this() -> Selector {
        Selector { self_: true, ..Selector::default() }
    }
}

/// What a count counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountKind {
    Units,
    Missions,
    Attachments,
    Stack,
    AttachmentCost,
    PowerOf,
    CostOf,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    pub selector: Option<Selector>,
    /// count missions holding at least one match instead
    pub missions: bool,
    pub plus: i64,
    pub times: i64,
    pub kind: CountKind,
}

/// A number in an encoding: a constant, a remembered value, or a count of the board.
#[derive(Clone, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Var(VarId),
    Count(Box<Count>),
}

impl Number {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Number::Int(n) => Some(*n),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Condition {
    pub edge: Option<bool>,
    pub exists: Option<Selector>,
    pub absent: Option<Selector>,
    pub only: Option<Selector>,
    pub winning: Option<bool>,
    pub fewer_nonhidden_than_enemy: bool,
    pub hand_empty: Option<bool>,
    pub var_set: Option<VarId>,
    pub var_min: Option<(Number, i64)>,
    pub var_max: Option<(Number, i64)>,
    // Shinobi Shiren
    pub duel: Option<NameId>,
    pub not_duel: Option<NameId>,
    pub first_play: Option<bool>,
    pub here: Option<Selector>,
    pub exists_any: Vec<Selector>,
    pub var_unset: Option<VarId>,
    pub var_ge: Option<(Number, Number)>,
    pub in_hand: Option<Selector>,
    pub discard_min: Option<i64>,
    pub attachment: Option<Selector>,
    pub evaluating: Option<bool>,
    pub self_attached: Option<Selector>,
    pub extra: bool,
}

impl Condition {
    pub(crate) fn compute_extra(&mut self) {
        self.extra = self.duel.is_some()
            || self.not_duel.is_some()
            || self.first_play.is_some()
            || self.here.is_some()
            || !self.exists_any.is_empty()
            || self.var_unset.is_some()
            || self.var_ge.is_some()
            || self.in_hand.is_some()
            || self.discard_min.is_some()
            || self.attachment.is_some()
            || self.evaluating.is_some()
            || self.self_attached.is_some();
    }

    /// `c1` with every field `c2` sets laid over it (how a DUEL or FIRST STRIKE gate joins a
    /// line's own condition).
    pub fn and(c1: Option<&Condition>, c2: &Condition) -> Condition {
        let mut out = match c1 {
            None => return c2.clone(),
            Some(c) => c.clone(),
        };
        macro_rules! over {
            ($($f:ident),*) => { $( if c2.$f.is_some() { out.$f = c2.$f.clone(); } )* };
        }
        over!(
            edge,
            exists,
            absent,
            only,
            winning,
            hand_empty,
            var_set,
            var_min,
            var_max,
            duel,
            not_duel,
            first_play,
            here,
            var_unset,
            var_ge,
            in_hand,
            discard_min,
            attachment,
            evaluating,
            self_attached
        );
        if c2.fewer_nonhidden_than_enemy {
            out.fewer_nonhidden_than_enemy = true;
        }
        if !c2.exists_any.is_empty() {
            out.exists_any = c2.exists_any.clone();
        }
        // (a condition's first_play = false would not be laid over in the reference engine; no
        // card asks for it)
        out.compute_extra();
        out
    }
}

// ---- instant steps -------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verb {
    Powerup,
    RemoveTokens,
    GainChakra,
    StealChakra,
    Draw,
    Discard,
    LookHand,
    LookHidden,
    Move,
    Hide,
    Defeat,
    TakeControl,
    ReturnToHand,
    Play,
    PlaceHidden,
    GainEdge,
    GainPoints,
    SpendChakra,
    DiscardTop,
    SearchTop,
    PutOnDeck,
    Repeat,
    Copy,
    StripTop,
    ChooseMission,
    Retrieve,
    RevealOrDefeat,
    Special,
    // Shinobi Shiren
    Declare,
    Cheaper,
    RevealTop,
    LookTop,
    Dig,
    SearchDeck,
    PayChakra,
    RevealHand,
    ForEach,
    ForEachMission,
    Times,
    OneOf,
    Attach,
    AttachSelf,
    DiscardAttachment,
    MoveAttachment,
    TakeBack,
    SplitBottom,
    DiscardFromStack,
    Recycle,
    Activate,
}

/// The main argument of a step.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    None,
    Number(Number),
    All,
    Selector(Box<Selector>),
    /// a remembered card (copy), or "this" (move_attachment)
    Name(String),
    Branches(Vec<Vec<Step>>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Opponent,
    Each,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Other,
    This,
    Any,
    Anywhere,
    ToOrFrom,
    That,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    Hand,
    /// your hand, or one of your hidden characters (face-down attachments) revealed in place
    HandOrHidden,
    /// one of your hidden characters, revealed in place ("play … while hidden")
    Hidden,
    Discard,
    DeckTop,
    OpponentDeckTop,
    Deck,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Onto {
    This,
    Selector(Box<Selector>),
}

/// Every option a step may carry (each verb reads its own).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StepOpts {
    pub to: Option<Dest>,
    pub who: Option<Who>,
    pub chooser_opponent: bool,
    pub chooser_you: bool,
    pub random: bool,
    pub from: Option<From>,
    pub discount: Option<Number>,
    pub hidden: bool,
    pub give_self: bool,
    pub lock: bool,
    /// a line timing: repeat / activate
    pub line: Option<String>,
    pub filter: Option<Selector>,
    pub look: Option<i64>,
    pub move_: bool,
    pub and: Option<Selector>,
    pub non_upgrade_lines: bool,
    pub lines_set: bool,
    pub more: Option<i64>,
    pub do_: Vec<Step>,
    pub has_do: bool,
    /// search_top: take one; search_deck: how many
    pub take: Option<i64>,
    pub rest: Option<String>,
    pub bottom: bool,
    pub pay_power: bool,
    /// Some(false): "not as an upgrade"
    pub upgrade: Option<bool>,
    pub many: bool,
    pub reveal: bool,
    pub onto: Option<Onto>,
    pub ignore: bool,
    pub power: Option<i64>,
    pub topmost: bool,
    pub may: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub verb: Verb,
    pub arg: Arg,
    pub target: Option<Selector>,
    pub cond: Option<Condition>,
    pub opts: StepOpts,
    pub must: bool,
    pub as_: Option<VarId>,
}

impl Step {
    pub fn selector(&self) -> Option<&Selector> {
        match &self.arg {
            Arg::Selector(s) => Some(s.as_ref()),
            _ => None,
        }
    }
    pub fn number(&self) -> Option<&Number> {
        match &self.arg {
            Arg::Number(n) => Some(n),
            _ => None,
        }
    }
}

// ---- statics, triggers, modifiers ----------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StaticKind {
    Power,
    PowerZero,
    Chakra,
    Cost,
    RevealCost,
    NoPlayHidden,
    NoMoveFrom,
    PlayOnlyWinning,
    Immune,
    DefeatToHand,
    DefeatBecomesHide,
    KeepTokens,
    UpgradeOver,
    PlayCost,
    Sacrifice,
    Tax,
    PowerupBonus,
    NoTokens,
    Blank,
    ManyAttachments,
    NoAttachments,
    AttachmentPower,
    SeeHidden,
    MissionPoints,
    SidePower,
    ScoreTwice,
    GrantLine,
    AmbushOnPlay,
    RevealTax,
    Phantom,
}

pub const STATIC_KINDS: usize = 30;
const _: () = assert!(STATIC_KINDS <= 32, "Card::own_kinds holds one bit a kind");

impl StaticKind {
    pub fn index(self) -> usize {
        self as usize
    }
    /// A static about the price or the placing of a card being played (or revealed): its
    /// selections look at that card, never at the card whose static it is.
    pub fn prices_a_play(self) -> bool {
        matches!(
            self,
            StaticKind::Cost
                | StaticKind::RevealCost
                | StaticKind::PlayCost
                | StaticKind::UpgradeOver
                | StaticKind::Tax
                | StaticKind::RevealTax
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Hide,
    Defeat,
    Move,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Both {
    No,
    Yes,
    Losing,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StaticOpts {
    pub min: Option<i64>,
    pub both: Both,
    /// None: the kind's default events
    pub events: Option<Vec<Event>>,
    pub from_enemy: bool,
    pub anywhere: bool,
    pub attachment: bool,
    pub times: Option<i64>,
    pub timing: Option<String>,
    pub keyword: Option<KeywordId>,
    pub over: Option<Selector>,
    pub per: Option<Selector>,
    pub filter: Option<Selector>,
    pub do_: Vec<Step>,
    /// power_zero: the character also loses its Power tokens (removed for good)
    pub lose_tokens: bool,
}

impl Default for StaticOpts {
    fn default() -> Self {
        StaticOpts {
            min: None,
            both: Both::No,
            events: None,
            from_enemy: false,
            anywhere: false,
            attachment: false,
            times: None,
            timing: None,
            keyword: None,
            over: None,
            per: None,
            filter: None,
            do_: Vec::new(),
            lose_tokens: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Static {
    pub kind: StaticKind,
    pub n: Number,
    pub target: Option<Selector>,
    pub cond: Option<Condition>,
    pub opts: StaticOpts,
    /// a Power static whose condition, targets and amount read nothing but its own mission's
    /// characters (worked out when read: `power::reads_own_mission`): the Power table keeps
    /// what it did while that mission stands
    pub kept: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TriggerOn {
    Defeated,
    Played,
    EndOfRound,
    LostMission,
    Moved,
    StartOfRound,
    Attached,
    Passed,
    BeforeEvaluation,
}

pub const TRIGGER_KINDS: usize = 9;

impl TriggerOn {
    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    pub on: TriggerOn,
    pub who: Option<Selector>,
    pub steps: Vec<Step>,
    pub must: bool,
    pub by_you: bool,
    pub filter: Option<Selector>,
    /// checked when the trigger would fire (DUEL and FIRST STRIKE gates)
    pub cond: Option<Condition>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModMode {
    Instead,
    Also,
    AsMain,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Modifier {
    pub mode: ModMode,
    pub steps: Vec<Step>,
}

/// Where an attachment may go.
#[derive(Clone, Debug, PartialEq)]
pub enum Host {
    Mission,
    Characters(Vec<Selector>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    Group(GroupId),
    Keyword(KeywordId),
}

/// The parsed `do` of one effect line.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Encoding {
    pub steps: Vec<Step>,
    pub statics: Vec<Static>,
    pub triggers: Vec<Trigger>,
    pub modifier: Option<Modifier>,
    pub host: Option<Host>,
    pub grants: Vec<Grant>,
}
