//! The verbs of the effect language, one family a file.

use crate::effects::Res;
use crate::language::Step;
use crate::state::GameState;

/// Run one step's verb in frame `fi`.
pub fn run(_g: &mut GameState, _fi: usize, _step: &'static Step) -> Res<()> {
    Ok(())
}
