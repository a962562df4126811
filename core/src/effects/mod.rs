//! Effects: the continuous lines in force, selectors, triggers and the interpreter of instant
//! steps.
//!
//! A frame is a list of steps with a program counter. A step first makes every choice it needs
//! (each choice is a [`Decision`] of the deciding player, answered through the same `apply` as
//! any action), then changes the state in one go. When a choice is missing the step returns
//! [`Need`]; once answered, the step runs again from its start with the choices recorded so far,
//! so nothing is ever applied twice.

pub mod lines;
pub mod selectors;
pub mod statics;
pub mod triggers;
pub mod verbs;

use crate::cards::{Card, EffectLine, Kind, Timing};
use crate::effects::lines::static_ctx;
use crate::effects::selectors::{condition, duel_present, number, select};
use crate::language::{CountForm, ModMode, Modifier, Selector, Step, Verb};
use crate::state::{
    Ctx, Decision, DecisionContext, DecisionKind, Frame, FrameStep, GameState, Label, LabelWhat, Opt, Phase, Prompt,
    Uid, Val,
};

/// A step needs a choice: the decision the engine now waits for.
#[derive(Debug)]
pub struct Need(pub Decision);

pub type Res<T> = Result<T, Need>;

/// Ask (or replay) one choice of the step running in frame `fi`.
pub fn choose(
    g: &mut GameState,
    fi: usize,
    player: i32,
    kind: DecisionKind,
    options: Vec<Opt>,
    optional: bool,
    prompt: Prompt,
) -> Res<Opt> {
    let frame = &mut g.stack[fi];
    let i = frame.cursor;
    frame.cursor += 1;
    if i < frame.choices.len() {
        return Ok(frame.choices[i]);
    }
    if options.is_empty() {
        frame.choices.push(Opt::Skip); // recorded too: later choices of the step keep their places
        return Ok(Opt::Skip);
    }
    if options.len() == 1 && !optional {
        frame.choices.push(options[0]);
        return Ok(options[0]);
    }
    let mut opts = options;
    if optional {
        opts.push(Opt::Skip);
    }
    let context = match frame.steps.get(frame.pc) {
        Some(FrameStep::Gate { size, .. }) => DecisionContext::Line(
            frame.steps[frame.pc + 1..(frame.pc + 1 + *size).min(frame.steps.len())]
                .iter()
                .filter_map(|s| if let FrameStep::Step(s) = s { Some(*s) } else { None })
                .collect(),
        ),
        Some(FrameStep::Step(s)) => DecisionContext::Step(s),
        _ => DecisionContext::None,
    };
    let source = g.ctxs[frame.ctx].source;
    Err(Need(Decision { player, kind, options: opts, actions: Vec::new(), prompt, context, source }))
}

/// The choice the step running in frame `fi` made here before (it runs again once a decision of
/// it is answered), taken as `choose` takes it; None when this choice is still to be made.
pub fn replayed(g: &mut GameState, fi: usize) -> Option<Opt> {
    let frame = &mut g.stack[fi];
    let pick = *frame.choices.get(frame.cursor)?;
    frame.cursor += 1;
    Some(pick)
}

pub fn yes_no(g: &mut GameState, fi: usize, player: i32, prompt: Prompt) -> Res<bool> {
    if let Some(pick) = replayed(g, fi) {
        return Ok(pick == Opt::Bool(true));
    }
    Ok(choose(g, fi, player, DecisionKind::YesNo, vec![Opt::Bool(true), Opt::Bool(false)], false, prompt)?
        == Opt::Bool(true))
}

// ---- building frames -----------------------------------------------------------------

/// Whether a line (or a trigger's effect) is mandatory, never offered to decline: it says so as a
/// whole (`must`: a trigger's own "Mandatory"), or it opens with "you must". A later "must" ("if
/// you do, you must discard") binds only once the optional part was chosen.
pub fn mandatory(steps: &[&Step], must: bool) -> bool {
    must || steps.first().is_some_and(|s| s.must)
}

/// A gate and the line's steps (a declined line skips exactly its own steps).
pub fn line_steps(steps: &[&'static Step], label: Label, must: bool) -> Vec<FrameStep> {
    gated(steps.iter().copied(), label, mandatory(steps, must))
}

/// `line_steps` of a line's steps as its encoding holds them (no list of them made first).
fn own_line_steps(steps: &'static [Step], label: Label, must: bool) -> Vec<FrameStep> {
    gated(steps.iter(), label, mandatory(steps.first().as_slice(), must))
}

/// A gate (`must`: never declined) and the steps it covers.
fn gated(steps: impl ExactSizeIterator<Item = &'static Step>, label: Label, must: bool) -> Vec<FrameStep> {
    let mut out = Vec::with_capacity(steps.len() + 1);
    out.push(FrameStep::Gate { size: steps.len(), label, must });
    out.extend(steps.map(FrameStep::Step));
    out
}

fn refs(steps: &'static [Step]) -> Vec<&'static Step> {
    steps.iter().collect()
}

/// Whether the engine plays this line: an encoded line whose timing the interpreter runs (an
/// instant or modifier line of MAIN, UPGRADE, AMBUSH, SCORE, DUEL or FIRST STRIKE; any continuous
/// line), or an ATTACH line saying where its attachment goes, with no escape hatch (`special`: the
/// core implements none).
pub fn runs(line: &EffectLine) -> bool {
    let Some(enc) = &line.encoding else { return false };
    if line.kind == Kind::Condition {
        return line.timing == Timing::Attach && enc.host.is_some();
    }
    if line.timing == Timing::Attach && line.kind != Kind::Continuous {
        return false;
    }
    let mut steps = Vec::new();
    crate::cards::walk_steps(&enc.steps, &mut steps);
    for t in &enc.triggers {
        crate::cards::walk_steps(&t.steps, &mut steps);
    }
    if let Some(m) = &enc.modifier {
        crate::cards::walk_steps(&m.steps, &mut steps);
    }
    steps.iter().all(|s| s.verb != Verb::Special)
}

/// What applies of a card's instant lines now, by timing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Applies {
    pub main: bool,
    pub upgrade: bool,
    pub ambush: bool,
    pub first_strike: bool,
}

impl Applies {
    pub fn get(&self, t: Timing) -> bool {
        match t {
            Timing::Main => self.main,
            Timing::Upgrade => self.upgrade,
            Timing::Ambush => self.ambush,
            Timing::FirstStrike => self.first_strike,
            _ => false,
        }
    }
}

/// The gated steps of a card's instant lines that apply now, top to bottom.
///
/// Lines apply top to bottom, each judged when it resolves: a DUEL line, or a line a DUEL modifier
/// changes, stands as a `Line` until the lines above it (and the triggers they caused) have
/// resolved; the others are settled by the play itself (MAIN, UPGRADE, AMBUSH, FIRST STRIKE) and
/// are built now.
pub fn lines_frame_steps(g: &GameState, card: &'static Card, blank: bool, applies: Applies, mi: i32) -> Vec<FrameStep> {
    let mut steps: Vec<FrameStep> = Vec::new();
    if blank {
        return steps;
    }
    let effects = &card.effects;
    let dueled: Vec<Timing> =
        effects.iter().filter(|l| l.kind == Kind::Modifier && l.duel.is_some()).filter_map(|l| l.modifies).collect();
    for (i, line) in effects.iter().enumerate() {
        if line.kind != Kind::Instant {
            continue;
        }
        let Some(enc) = &line.encoding else { continue };
        if enc.steps.iter().all(|s| s.verb == Verb::Cheaper) {
            continue; // a price, already paid less (actions::play_cost)
        }
        if line.timing == Timing::Duel || dueled.contains(&line.timing) {
            steps.push(FrameStep::Line { card: card.index, index: i as u8, applies });
        } else {
            append(&mut steps, line_now(g, card, i, applies, mi));
        }
    }
    steps
}

/// `more` added to the end of `steps` (the first line's steps kept as they are, not copied).
fn append(steps: &mut Vec<FrameStep>, more: Vec<FrameStep>) {
    if steps.is_empty() {
        *steps = more;
    } else {
        steps.extend(more);
    }
}

/// One instant line's gated steps as the board stands now (nothing if it does not apply).
///
/// A DUEL line applies when its named character is in the mission; modifier lines whose own
/// timing applies replace or extend the line they modify (`as_main` makes the modified line apply
/// on every play); a modifier that only repeats a line which does not apply now ("UPGRADE: repeat
/// the AMBUSH effect") applies as a line of its own.
pub fn line_now(g: &GameState, card: &'static Card, index: usize, applies: Applies, mi: i32) -> Vec<FrameStep> {
    let effects: &'static [EffectLine] = &card.effects;
    let line = &effects[index];
    let holds = |l: &EffectLine| -> bool {
        if l.timing == Timing::Duel {
            return l.duel_key.is_some_and(|k| duel_present(g, mi, k));
        }
        applies.get(l.timing)
    };
    let mut mods: Vec<&'static Modifier> = Vec::new();
    let mut promoted = false;
    for l in effects {
        if l.kind != Kind::Modifier || l.modifies != Some(line.timing) {
            continue;
        }
        let Some(m) = l.encoding.as_ref().and_then(|e| e.modifier.as_ref()) else { continue };
        // (an UPGRADE modifier holds only when the card is played as an upgrade: revealing a
        // hidden upgraded stack is not one, so "UPGRADE: AMBUSH effect …" needs a play that is both,
        // an upgrade whose AMBUSH applies too, SS-107)
        if holds(l) {
            if m.mode == ModMode::AsMain {
                promoted = true;
            } else {
                mods.push(m);
            }
        }
    }
    let enc = line.encoding.as_ref().expect("an instant line");
    if !(holds(line) || promoted) {
        // ("repeat the X effect" is never a modifier: it is an instant line of its own, with its
        // own yes/no; the catalog tests check it)
        return Vec::new();
    }
    let label = Label { card: card.index, what: LabelWhat::Line(index as u8) };
    if mods.is_empty() {
        return own_line_steps(&enc.steps, label, false);
    }
    let mut body: Vec<&'static Step> = refs(&enc.steps);
    for m in mods {
        if m.mode == ModMode::Instead {
            body = refs(&m.steps);
        } else {
            body.extend(m.steps.iter());
        }
    }
    line_steps(&body, label, false)
}

/// The instant lines a character applies when played: MAIN, then UPGRADE/AMBUSH, top to bottom.
pub fn play_frame(
    g: &mut GameState,
    player: i32,
    uid: Uid,
    upgrade: bool,
    mut ambush: bool,
    extra: &[(crate::language::VarId, Val)],
    from_hand: bool,
) -> Option<Frame> {
    let u = g.u(uid); // (read in place: the frame's context is added only after its last look)
    let card = g.unit_card(u);
    let mi = u.mission;
    let lines = std::sync::Arc::clone(&lines::lines(g));
    if from_hand && !ambush && lines.statics(crate::language::StaticKind::AmbushOnPlay).iter().any(|r| r.mission == mi)
    {
        ambush = true; // ⧗ ambush_on_play: "played here from hand, its AMBUSH effects apply too"
    }
    let applies =
        Applies { main: true, upgrade, ambush, first_strike: g.players[player as usize].plays_this_round == 1 };
    let blank = lines::blanked(g, u);
    let mut steps = lines_frame_steps(g, card, blank, applies, mi);
    for r in lines.statics(crate::language::StaticKind::GrantLine).iter() {
        let s = r.s;
        if r.mission != mi {
            continue;
        }
        let timing = s.opts.timing.as_deref().and_then(Timing::parse);
        if !timing.is_some_and(|t| applies.get(t)) {
            continue;
        }
        if !crate::power::static_hits(g, &static_ctx(-1, r.mission, r.controller, g), s, u) {
            continue;
        }
        steps.extend(own_line_steps(
            &s.opts.do_,
            Label { card: card.index, what: LabelWhat::Granted(timing.expect("checked")) },
            false,
        ));
    }
    if steps.is_empty() {
        return None;
    }
    let mut ctx = Ctx::at(player, uid, mi, u.top());
    ctx.upgrade = upgrade;
    ctx.ambush = ambush;
    for (k, v) in extra {
        ctx.set(*k, v.clone());
    }
    let ci = g.new_ctx(ctx);
    Some(Frame {
        steps,
        ctx: ci,
        pc: 0,
        choices: Vec::new(),
        cursor: 0,
        label: Label { card: card.index, what: LabelWhat::Card },
    })
}

/// The instant lines an attachment applies when attached (MAIN; AMBUSH when revealed from
/// face-down; FIRST STRIKE when it is the first card its player plays this round).
pub fn attach_frame(g: &mut GameState, player: i32, inst: i32, host: Uid, mi: i32, ambush: bool) -> Option<Frame> {
    let card = g.card(inst);
    let p = &g.players[player as usize];
    let applies = Applies {
        main: true,
        upgrade: false,
        ambush,
        // a reveal counts as a play, exactly as for a character
        first_strike: p.plays_this_round == 0 && p.attached_this_round == 1,
    };
    let where_ = if host >= 0 { g.u(host).mission } else { mi };
    let steps = lines_frame_steps(g, card, false, applies, where_);
    if steps.is_empty() {
        return None;
    }
    let mut ctx = Ctx::at(player, host, where_, inst);
    ctx.ambush = ambush;
    let ci = g.new_ctx(ctx);
    Some(Frame {
        steps,
        ctx: ci,
        pc: 0,
        choices: Vec::new(),
        cursor: 0,
        label: Label { card: card.index, what: LabelWhat::Card },
    })
}

/// SCORE lines of the mission, of a winning character, or (`attachment`) of an attachment on
/// that character (`unit`) or on the mission (`unit` -1).
pub fn score_frame(g: &mut GameState, player: i32, unit: Uid, mi: i32, attachment: i32) -> Option<Frame> {
    let (card, inst, blank) = if attachment >= 0 {
        (g.card(attachment), attachment, false)
    } else if unit >= 0 {
        let u = g.u(unit);
        (g.unit_card(u), u.top(), lines::blanked(g, u))
    } else {
        let c = g.missions[mi as usize].card;
        (g.card(c), c, false)
    };
    if blank || !card.scores {
        return None; // (most cards have no SCORE line: their text is not read)
    }
    let mut steps = Vec::new();
    for enc in card.effects.iter().filter_map(|l| l.scoring()) {
        let line = own_line_steps(&enc.steps, Label { card: card.index, what: LabelWhat::Score }, false);
        append(&mut steps, line);
    }
    if steps.is_empty() {
        return None;
    }
    let ci = g.new_ctx(Ctx::at(player, unit, mi, inst));
    Some(Frame {
        steps,
        ctx: ci,
        pc: 0,
        choices: Vec::new(),
        cursor: 0,
        label: Label { card: card.index, what: LabelWhat::Score },
    })
}

pub fn turn_player(g: &GameState) -> i32 {
    if g.phase == Phase::Action { g.current } else { g.edge }
}

/// Put newly triggered effects on the chain; several at once are ordered by the turn player.
#[inline]
pub fn push_frames(g: &mut GameState, frames: Vec<Frame>) {
    // (most moments trigger nothing: no call for them)
    if !frames.is_empty() {
        push_some_frames(g, frames);
    }
}

/// `push_frames` of at least one frame.
#[inline(never)]
fn push_some_frames(g: &mut GameState, frames: Vec<Frame>) {
    if frames.len() == 1 {
        g.stack.extend(frames);
        return;
    }
    // Mission effects are always last: they go beneath the characters' effects.
    let (missions, chars): (Vec<Frame>, Vec<Frame>) = frames.into_iter().partition(|f| g.ctxs[f.ctx].source == -1);
    g.stack.extend(missions);
    if chars.len() == 1 {
        g.stack.extend(chars);
    } else if !chars.is_empty() {
        let ci = g.new_ctx(Ctx::new(turn_player(g)));
        g.stack.push(Frame {
            steps: vec![FrameStep::Order(chars)],
            ctx: ci,
            pc: 0,
            choices: Vec::new(),
            cursor: 0,
            label: Label { card: 0, what: LabelWhat::Plain("order triggers") },
        });
    }
}

/// "This mission" is where the effect's character stands now (unless pinned).
fn follow_source(g: &mut GameState, ci: usize) {
    let src = g.ctxs[ci].source;
    if let Some(u) = g.unit(src)
        && !g.ctxs[ci].pinned
    {
        let m = u.mission;
        g.ctxs[ci].mission = m;
    }
}

/// Advance the top frame by one step (or pop it when finished).
pub fn run_top(g: &mut GameState) -> Res<()> {
    let fi = g.stack.len() - 1;
    let frame = &mut g.stack[fi];
    if frame.pc >= frame.steps.len() {
        g.stack.pop();
        return Ok(());
    }
    frame.cursor = 0;
    let pc = frame.pc;
    match &frame.steps[pc] {
        FrameStep::Order(frames) => {
            if frames.len() == 1 {
                let FrameStep::Order(mut frames) = g.stack.pop().expect("a frame").steps.swap_remove(pc) else {
                    unreachable!()
                };
                g.stack.push(frames.pop().expect("one frame"));
                return Ok(());
            }
            let n = frames.len() as i32;
            let player = g.ctxs[frame.ctx].player;
            let idx = choose(
                g,
                fi,
                player,
                DecisionKind::Order,
                (0..n).map(Opt::Int).collect(),
                false,
                Prompt::Text("which effect resolves first"),
            )?;
            let frame = &mut g.stack[fi];
            let FrameStep::Order(frames) = &mut frame.steps[pc] else { unreachable!() };
            let chosen = frames.remove(idx.int().unwrap_or(0) as usize);
            frame.choices.clear();
            g.stack.push(chosen);
            Ok(())
        }
        FrameStep::Gate { size, label, must } => {
            let (size, label, must) = (*size, *label, *must);
            if !must {
                let player = g.ctxs[frame.ctx].player;
                let used = yes_no(g, fi, player, Prompt::UseLine(label))?;
                if !used {
                    let frame = &mut g.stack[fi];
                    frame.pc += 1 + size;
                    frame.choices.clear();
                    return Ok(());
                }
            }
            let frame = &mut g.stack[fi];
            frame.pc += 1;
            frame.choices.clear();
            Ok(())
        }
        FrameStep::Line { card, index, applies } => {
            let (card, index, applies) = (*card, *index, *applies);
            let ci = frame.ctx;
            follow_source(g, ci);
            // judged now, after the lines above: replaced by its steps, if any
            let card = &g.cat.cards[card as usize];
            let here = line_now(g, card, index as usize, applies, g.ctxs[ci].mission);
            let frame = &mut g.stack[fi];
            frame.steps.splice(pc..pc + 1, here);
            frame.choices.clear();
            Ok(())
        }
        FrameStep::Tie(sel) => {
            let sel: &'static Selector = sel;
            statics::choose_tie(g, fi, sel)?;
            let frame = &mut g.stack[fi];
            frame.pc += 1;
            frame.choices.clear();
            Ok(())
        }
        FrameStep::Step(step) => {
            let step: &'static Step = step;
            let ci = frame.ctx;
            follow_source(g, ci);
            // a pick the step reads, tied: its player says which one first (FAQ)
            statics::choose_ties(g, fi, step)?;
            let holds = step.cond.is_none() || condition(g, &g.ctxs[ci], step.cond.as_ref(), false);
            if holds {
                // "you may …" inside a line: this step alone is optional
                let go = !step.opts.may || yes_no(g, fi, g.ctxs[ci].player, Prompt::May(step.verb))?;
                if go {
                    verbs::run(g, fi, step)?;
                }
            }
            // the step is done: triggers it caused were pushed above it and resolve first
            if !g.ctxs[ci].ties.is_empty() {
                g.ctxs[ci].ties.clear();
            }
            let frame = &mut g.stack[fi];
            frame.pc += 1;
            frame.choices.clear();
            Ok(())
        }
    }
}

// ---- target choice helpers -------------------------------------------------------------

/// The context of frame `fi` (a copy to read from).
pub fn ctx_of(g: &GameState, fi: usize) -> Ctx {
    g.ctxs[g.stack[fi].ctx].clone()
}

/// The context of frame `fi`, borrowed (no copy of its remembered values).
pub fn ctx_ref(g: &GameState, fi: usize) -> &Ctx {
    &g.ctxs[g.stack[fi].ctx]
}

pub fn ctx_mut(g: &mut GameState, fi: usize) -> &mut Ctx {
    let ci = g.stack[fi].ctx;
    &mut g.ctxs[ci]
}

pub fn set_var(g: &mut GameState, fi: usize, v: crate::language::VarId, val: Val) {
    ctx_mut(g, fi).set(v, val);
}

/// Resolve a selector into concrete targets, asking the decider where there is a choice.
pub fn pick_units(
    g: &mut GameState,
    fi: usize,
    sel: &'static Selector,
    chooser: Option<i32>,
    exclude: &[Uid],
) -> Res<Vec<Uid>> {
    pick_units_if(g, fi, sel, chooser, exclude, &|_, _| true)
}

/// A predicate on the characters an effect can affect (not immune to it, not held by a no-move
/// static …).
pub type Can<'a> = &'a dyn Fn(&GameState, Uid) -> bool;

/// `pick_units`, offering only the characters the effect can affect when there is a choice.
///
/// Reading "an effect targets what it can affect": those it cannot affect stay where they are,
/// and still count among the characters that remain ("until only N remain").
pub fn pick_units_if(
    g: &mut GameState,
    fi: usize,
    sel: &'static Selector,
    chooser: Option<i32>,
    exclude: &[Uid],
    can: Can<'_>,
) -> Res<Vec<Uid>> {
    if matches!(sel.count, CountForm::One) && !sel.self_ && sel.var.is_none() && !sel.per_mission {
        // a pick of one the step already made: replayed, the candidates not worked out again
        if let Some(pick) = replayed(g, fi) {
            return Ok(match pick {
                Opt::Int(x) => vec![x],
                _ => vec![],
            });
        }
    }
    let ctx = ctx_ref(g, fi);
    let mut cands = select(g, ctx, sel, false);
    cands.retain(|x| !exclude.contains(x)); // (in place: no second list)
    if sel.self_ || sel.var.is_some() || sel.is_all() {
        return Ok(cands); // a snapshot: every target is fixed before anything changes
    }
    let player = chooser.unwrap_or(ctx.player);
    if sel.per_mission {
        // "up to 1 … in every mission": one choice per mission, in mission order
        let mut out = Vec::new();
        for mi in 0..g.missions.len() {
            let here: Vec<Uid> = cands.iter().copied().filter(|&x| g.u(x).mission == mi as i32).collect();
            out.extend(pick_among(g, fi, player, sel, here, can)?);
        }
        return Ok(out);
    }
    pick_among(g, fi, player, sel, cands, can)
}

fn pick_among(
    g: &mut GameState,
    fi: usize,
    player: i32,
    sel: &'static Selector,
    cands: Vec<Uid>,
    can: Can<'_>,
) -> Res<Vec<Uid>> {
    let prompt = Prompt::Target(sel);
    if matches!(sel.count, CountForm::One | CountForm::All) {
        // one choice among those the effect can affect (its options made straight from them)
        let opts = cands.iter().copied().filter(|&x| can(g, x)).map(Opt::Int).collect();
        let pick = choose(g, fi, player, DecisionKind::Target, opts, false, prompt)?;
        return Ok(match pick {
            Opt::Int(x) => vec![x],
            _ => vec![],
        });
    }
    let offered: Vec<Uid> = cands.iter().copied().filter(|&x| can(g, x)).collect();
    let (form, n) = match &sel.count {
        CountForm::One | CountForm::All => unreachable!("a choice of one, made above"),
        CountForm::UpTo(n) => (0, n),
        CountForm::Keep(n) => (1, n),
        CountForm::PowerTotal(n) => (2, n),
        CountForm::CostTotal(n) => (3, n),
    };
    let n = number(g, ctx_ref(g, fi), n, false);
    let mut out: Vec<Uid> = Vec::new();
    if form == 1 {
        // "until only N remain": the chooser must pick the others one by one, among those the
        // effect can affect (the others remain, and count among the N)
        let picks = (cands.len() as i64 - n).max(0).min(offered.len() as i64);
        for _ in 0..picks {
            let left: Vec<Opt> = offered.iter().filter(|x| !out.contains(x)).map(|&x| Opt::Int(x)).collect();
            match choose(g, fi, player, DecisionKind::Target, left, false, prompt.clone())? {
                Opt::Int(x) => out.push(x),
                _ => break,
            }
        }
        return Ok(out);
    }
    let mut budget = n;
    loop {
        if form == 0 && out.len() as i64 >= n {
            break;
        }
        let mut left: Vec<Uid> = offered.iter().copied().filter(|x| !out.contains(x)).collect();
        if form == 2 {
            left.retain(|&x| crate::power::power_of(g, x) <= budget);
        } else if form == 3 {
            left.retain(|&x| selectors::cost_of(g, g.u(x)) <= budget);
        }
        if left.is_empty() {
            break;
        }
        match choose(
            g,
            fi,
            player,
            DecisionKind::Target,
            left.iter().map(|&x| Opt::Int(x)).collect(),
            true,
            prompt.clone(),
        )? {
            Opt::Int(x) => {
                out.push(x);
                if form == 2 {
                    budget -= crate::power::power_of(g, x);
                } else if form == 3 {
                    budget -= selectors::cost_of(g, g.u(x));
                }
            }
            _ => break,
        }
    }
    Ok(out)
}

pub fn choose_mission(
    g: &mut GameState,
    fi: usize,
    player: i32,
    options: Vec<i32>,
    prompt: &'static str,
) -> Res<Option<i32>> {
    Ok(
        match choose(
            g,
            fi,
            player,
            DecisionKind::Mission,
            options.into_iter().map(Opt::Int).collect(),
            false,
            Prompt::Text(prompt),
        )? {
            Opt::Int(m) => Some(m),
            _ => None,
        },
    )
}

/// Targets fixed by a snapshot that an earlier part of the same effect removed are skipped.
pub fn still_in_play(g: &GameState, units: &[Uid]) -> Vec<Uid> {
    units.iter().copied().filter(|&x| g.in_play(x)).collect()
}

/// 'This mission': where the effect's character stands now (it may have moved).
pub fn here(g: &GameState, fi: usize) -> i32 {
    let ctx = &g.ctxs[g.stack[fi].ctx];
    match g.unit(ctx.source) {
        Some(u) if !ctx.pinned => u.mission,
        _ => ctx.mission,
    }
}

/// A frame's or a line's name, for prompts ("Kakashi Hatake MAIN ↯").
pub fn label_text(g: &GameState, l: &Label) -> String {
    let card = &g.cat.cards[l.card as usize];
    match l.what {
        LabelWhat::Line(i) => format!("{} {}", card.name, card.effects[i as usize].label()),
        LabelWhat::Repeat(i) => format!("{} {} (repeat)", card.name, card.effects[i as usize].label()),
        LabelWhat::Granted(t) => format!("{} (granted)", t.label()),
        LabelWhat::Trigger => format!("{} (trigger)", card.name),
        LabelWhat::Score => format!("{} SCORE", card.name),
        LabelWhat::Copy => format!("copy of {}", card.name),
        LabelWhat::Card => card.name.clone(),
        LabelWhat::Plain(s) => s.to_string(),
    }
}
