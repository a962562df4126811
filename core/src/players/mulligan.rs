//! Mulligan rules: keep every hand, always take a new one, or judge the hand by its curve and Power.

use super::Observation;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mulligan {
    /// never mulligan
    Keep,
    /// always mulligan (a baseline for the mulligan report)
    Always,
    /// keep a hand with at least two plays for round 1 (cost ≤ 3 with 5 chakra) and enough Power
    /// to contest a mission; mulligan a hand of expensive cards or nothing to do early
    Heuristic,
    /// the `search` player's own: playouts of the kept hand against fresh hands decide (no spec
    /// names it: it is not a rule another player could follow)
    Playouts,
}

/// The rule names a spec may use, in the order error messages list them (`never` is `keep`).
pub const MULLIGAN_NAMES: [&str; 4] = ["keep", "never", "heuristic", "always"];

impl Mulligan {
    /// The rule's name (a spec's word for it).
    pub fn name(self) -> &'static str {
        match self {
            Mulligan::Keep => "keep",
            Mulligan::Always => "always",
            Mulligan::Heuristic => "heuristic",
            Mulligan::Playouts => "playouts",
        }
    }

    pub fn parse(name: &str) -> Option<Mulligan> {
        Some(match name {
            "keep" | "never" => Mulligan::Keep,
            "heuristic" => Mulligan::Heuristic,
            "always" => Mulligan::Always,
            _ => return None,
        })
    }

    /// True: return the hand and draw 5 new cards.
    pub fn take(self, obs: &Observation) -> bool {
        match self {
            Mulligan::Keep => false,
            Mulligan::Always => true,
            // only the search player decides by playouts, and it asks no rule for that; a
            // caller without playouts gets the heuristic's answer
            Mulligan::Heuristic | Mulligan::Playouts => {
                let (mut cheap, mut power, mut heavy) = (0, 0, 0);
                for &c in obs.hand() {
                    let card = obs.card(c);
                    if !card.is_character() {
                        continue;
                    }
                    if card.cost() <= 3 {
                        cheap += 1;
                    }
                    if card.cost() <= 4 {
                        power += card.power();
                    }
                    if card.cost() >= 6 {
                        heavy += 1;
                    }
                }
                cheap < 2 || power < 6 || heavy >= 3
            }
        }
    }
}
