//! Player specs: `greedy`, `lookahead:sims=200,time=0.5`. Every parameter is checked against
//! its player's table (its name, whether it is a whole number, its range) before a game is played:
//! `width=0` once divided by zero and `time=1e9` never ended a decision.

use super::Player;
use super::greedy::Greedy;
use super::heuristic::W0;
use super::lookahead::{Budget, Lookahead};
use super::mulligan::{MULLIGAN_NAMES, Mulligan};
use super::plan::{Planner, Style};
use super::random::RandomPlayer;
use super::search::{Params as SearchParams, Search};

/// The built-in players, in the order error messages list them.
pub const PLAYER_NAMES: [&str; 7] = ["random", "greedy", "tempo", "ambush", "control", "lookahead", "search"];

/// One parameter a spec may set, with its valid range (inclusive).
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    /// a whole number (written back without a point)
    pub whole: bool,
    pub lo: f64,
    pub hi: f64,
    /// what it sets, for the error that lists the parameters
    pub what: &'static str,
}

/// `lookahead`'s parameters.
pub const LOOKAHEAD_PARAMS: [Param; 5] = [
    Param { name: "sims", whole: true, lo: 1.0, hi: 10_000.0, what: "playouts per decision" },
    Param { name: "time", whole: false, lo: 0.0, hi: 60.0, what: "seconds per decision; 0 uses sims" },
    Param { name: "width", whole: true, lo: 1.0, hi: 50.0, what: "candidate actions searched" },
    Param { name: "clear", whole: false, lo: 0.0, hi: 100.0, what: "lead that skips the search" },
    Param { name: "leaf", whole: false, lo: 0.0, hi: 10.0, what: "weight of the board left in play" },
];

/// `search`'s parameters (its budget: `playouts`, reproducible, or `time`, which is not: how
/// many playouts fit in it depends on the machine and its load).
pub const SEARCH_PARAMS: [Param; 11] = [
    Param {
        name: "playouts",
        whole: true,
        lo: 1.0,
        hi: 10_000.0,
        what: "playouts per decision and candidate (reproducible)",
    },
    Param {
        name: "time",
        whole: false,
        lo: 0.0,
        hi: 60.0,
        what: "seconds per decision, not reproducible; 0 uses playouts",
    },
    Param {
        name: "width",
        whole: true,
        lo: 1.0,
        hi: 1000.0,
        what: "candidates searched, best first by the one-step judgement",
    },
    Param { name: "clear", whole: false, lo: 0.0, hi: 100.0, what: "one-step lead that skips the search" },
    Param { name: "mulligan", whole: true, lo: 0.0, hi: 10_000.0, what: "playouts of each mulligan choice" },
    Param {
        name: "solve",
        whole: true,
        lo: 0.0,
        hi: 10_000_000.0,
        what: "endgame positions per decision; 0 never solves",
    },
    Param { name: "deals", whole: true, lo: 1.0, hi: 100.0, what: "deals the endgame is solved on" },
    Param { name: "rounds", whole: true, lo: 1.0, hi: 4.0, what: "rounds a playout plays before its leaf is valued" },
    Param {
        name: "tree",
        whole: true,
        lo: 0.0,
        hi: 1.0,
        what: "1: information-set search (one tree over every deal) instead of sequential halving",
    },
    Param { name: "explore", whole: false, lo: 0.0, hi: 100.0, what: "the tree's PUCT exploration constant" },
    Param {
        name: "leaf",
        whole: true,
        lo: 0.0,
        hi: 2.0,
        what: "the leaf's constants: 0 hand-tuned, 1 refitted, 2 fitted with hand and chakra (default)",
    },
];

/// Named settings a spec may give instead of (or before) its parameters, as `search:strong`:
/// (player, name, the parameters it stands for). Parameters written after it override its own.
///
/// `search:strong` is the reference setting: the strongest the engine plays in about a second a
/// self-play game on one core (measured on the engine of December 2026: 64 times the default's
/// playouts and endgame positions, 32 times its mulligan playouts), the player `report --check-policy` and the benchmarks
/// re-play with to show how far a verdict could still move (benchmarks/README.md, "the
/// reference setting", has its strength and speed).
pub const PRESETS: [(&str, &str, &str); 1] = [("search", "strong", "playouts=128,solve=19200,mulligan=256")];

/// The parameters a player takes (none for most).
pub fn params_of(player: &str) -> &'static [Param] {
    match player {
        "lookahead" => &LOOKAHEAD_PARAMS,
        "search" => &SEARCH_PARAMS,
        _ => &[],
    }
}

/// Python's `format(x, "g")` for the bounds in messages (`1`, `0`, `10000`, `0.5`).
fn fmt_g(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e16 { format!("{}", x as i64) } else { format!("{x}") }
}

/// Python's `float(text)`: whitespace around, single underscores between digits, `inf`, `nan`.
fn parse_float(text: &str) -> Option<f64> {
    let t = strip_underscores(text.trim())?;
    let lower = t.to_ascii_lowercase();
    let body = lower.trim_start_matches(['+', '-']);
    if matches!(body, "inf" | "infinity" | "nan") {
        let v = if body == "nan" { f64::NAN } else { f64::INFINITY };
        return Some(if lower.starts_with('-') { -v } else { v });
    }
    if !t.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')) {
        return None;
    }
    t.parse::<f64>().ok()
}

/// One parameter's value, checked against its table entry.
fn param_value(player: &str, key: &str, text: &str) -> Result<(&'static Param, f64), String> {
    let known = params_of(player);
    let Some(p) = known.iter().find(|p| p.name == key) else {
        if known.is_empty() {
            return Err(format!("policy {player} takes no parameters (got {key}={text})"));
        }
        let list: Vec<String> =
            known.iter().map(|p| format!("{}: {} to {}, {}", p.name, fmt_g(p.lo), fmt_g(p.hi), p.what)).collect();
        return Err(format!("policy {player} has no parameter {}; its parameters: {}", py_repr(key), list.join("; ")));
    };
    let (lo, hi) = (fmt_g(p.lo), fmt_g(p.hi));
    let Some(v) = parse_float(text) else {
        return Err(format!("policy parameter {key}={}: a number from {lo} to {hi} is expected", py_repr(text)));
    };
    if !v.is_finite() || !(p.lo..=p.hi).contains(&v) {
        return Err(format!("policy parameter {key}={text}: out of range; {key} is from {lo} to {hi} ({})", p.what));
    }
    if p.whole && v.fract() != 0.0 {
        return Err(format!("policy parameter {key}={text}: a whole number from {lo} to {hi} is expected"));
    }
    Ok((p, v))
}

/// Python's `repr(s)` of a str (enough for spec text: quotes and backslashes escaped).
pub fn py_repr(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// Python's `repr(f)` of a float: the shortest digits that read back, in fixed notation for
/// exponents -4..16 and with a 2-digit exponent otherwise (`3.0`, `0.5`, `1e-05`, `1e+16`).
pub fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let e = format!("{f:e}"); // shortest round-trip digits: "-1.5e-7", "3e0"
    let (mant, exp) = e.split_once('e').expect("an exponent");
    let exp: i32 = exp.parse().expect("an exponent");
    let (sign, mant) = if let Some(m) = mant.strip_prefix('-') { ("-", m) } else { ("", mant) };
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let body = if exp < 0 {
            format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
        } else if exp + 1 >= n {
            format!("{}{}.0", digits, "0".repeat((exp + 1 - n) as usize))
        } else {
            format!("{}.{}", &digits[..(exp + 1) as usize], &digits[(exp + 1) as usize..])
        };
        format!("{sign}{body}")
    } else {
        let m = if digits.len() > 1 { format!("{}.{}", &digits[..1], &digits[1..]) } else { digits };
        format!("{sign}{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

/// Python's underscores in a number literal: single, between digits.
fn strip_underscores(s: &str) -> Option<String> {
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'_' {
            let ok = i > 0 && i + 1 < b.len() && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit();
            if !ok {
                return None;
            }
        }
    }
    Some(s.replace('_', ""))
}

/// Build a player from a spec such as `greedy` or `lookahead:sims=200,time=0.5`, with a mulligan
/// rule (None: the player's own, `keep` for random and `heuristic` for the others).
pub fn make_player(spec: &str, mulligan: Option<&str>) -> Result<Box<dyn Player>, String> {
    let trimmed = spec.trim();
    if trimmed.is_empty() {
        return Err(format!("empty policy; choose from {}", PLAYER_NAMES.join(", ")));
    }
    let (name, rest) = trimmed.split_once(':').unwrap_or((trimmed, ""));
    let lower = name.to_lowercase();
    if !PLAYER_NAMES.contains(&lower.as_str()) {
        return Err(format!("unknown policy {}; choose from {}", py_repr(name), PLAYER_NAMES.join(", ")));
    }
    let mut params: Vec<(&'static Param, f64)> = Vec::new();
    // a preset's parameters, overridden by the ones given after it
    let mut preset: Vec<(&'static Param, f64)> = Vec::new();
    for (k, part) in rest.split(',').enumerate() {
        if part.trim().is_empty() {
            if !rest.trim().is_empty() {
                return Err(format!("policy {}: an empty parameter (two commas, or one at the end)", py_repr(trimmed)));
            }
            continue;
        }
        let (key, value) = part.split_once('=').map_or((part.trim(), None), |(k, v)| (k.trim(), Some(v)));
        if value.is_none()
            && let Some(&(_, _, expands)) = PRESETS.iter().find(|(p, n, _)| *p == lower && n.eq_ignore_ascii_case(key))
        {
            if k > 0 {
                return Err(format!("policy {}: the setting {key} goes first, before any parameter", py_repr(trimmed)));
            }
            for kv in expands.split(',') {
                let (pk, pv) = kv.split_once('=').expect("a preset's key=value");
                preset.push(param_value(&lower, pk, pv).expect("a preset's parameters are in range"));
            }
            continue;
        }
        let (Some(value), false) = (value, key.is_empty()) else {
            let named: Vec<&str> = PRESETS.iter().filter(|(p, ..)| *p == lower).map(|(_, n, _)| *n).collect();
            let also = if named.is_empty() {
                String::new()
            } else {
                format!(", or the setting {} first (e.g. {lower}:{})", named.join(", "), named[0])
            };
            return Err(format!(
                "policy parameter {} must be key=value (e.g. lookahead:sims=200){also}",
                py_repr(part)
            ));
        };
        if params.iter().any(|(p, _)| p.name == key) {
            return Err(format!("policy parameter {key} is given twice"));
        }
        params.push(param_value(&lower, key, value.trim())?);
    }
    for p in preset {
        if !params.iter().any(|(q, _)| q.name == p.0.name) {
            params.push(p);
        }
    }
    let rule = match mulligan {
        None => None,
        Some(m) => Some(Mulligan::parse(m).ok_or_else(|| {
            format!("unknown mulligan policy {}; choose from {}", py_repr(m), MULLIGAN_NAMES.join(", "))
        })?),
    };
    let heuristic = rule.unwrap_or(Mulligan::Heuristic);
    let get = |k: &str| params.iter().find(|(p, _)| p.name == k).map(|(_, v)| *v);
    Ok(match lower.as_str() {
        "random" => Box::new(RandomPlayer::new(rule)),
        "greedy" => Box::new(Greedy::new("greedy", W0, heuristic)),
        "tempo" => Box::new(Planner::new(Style::Tempo, heuristic)),
        "ambush" => Box::new(Planner::new(Style::Ambush, heuristic)),
        "control" => Box::new(Planner::new(Style::Control, heuristic)),
        "search" => {
            let d = SearchParams::default();
            let int = |k: &str, dflt: i64| get(k).map_or(dflt, |v| v as i64);
            let p = SearchParams {
                playouts: int("playouts", d.playouts),
                time: get("time").unwrap_or(d.time),
                mulligan: int("mulligan", d.mulligan),
                solve: int("solve", d.solve),
                deals: int("deals", d.deals),
                clear: get("clear").unwrap_or(d.clear),
                width: int("width", d.width),
                rounds: int("rounds", d.rounds),
                tree: int("tree", d.tree),
                explore: get("explore").unwrap_or(d.explore),
                leaf: int("leaf", d.leaf),
            };
            // the spec written back: every parameter, sorted by name (the tree's two only when it
            // is asked for, the leaf only when it is not the default's, so that the default's spec
            // stays what runs stored before they existed)
            let mut parts: Vec<(&str, String)> = vec![
                ("clear", py_float(p.clear)),
                ("deals", p.deals.to_string()),
                ("mulligan", p.mulligan.to_string()),
                ("playouts", p.playouts.to_string()),
                ("rounds", p.rounds.to_string()),
                ("solve", p.solve.to_string()),
                ("time", py_float(p.time)),
                ("width", p.width.to_string()),
            ];
            if p.tree > 0 {
                parts.push(("explore", py_float(p.explore)));
                parts.push(("tree", p.tree.to_string()));
            }
            if p.leaf != d.leaf {
                parts.push(("leaf", p.leaf.to_string()));
            }
            parts.sort();
            let text =
                format!("search:{}", parts.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(","));
            // the mulligan rule when one is imposed; otherwise the playouts decide
            Box::new(Search::new(p, rule, text))
        }
        _ => {
            let d = Budget::default();
            let budget = Budget {
                sims: get("sims").map_or(d.sims, |v| v as i64),
                time: get("time").unwrap_or(d.time),
                width: get("width").map_or(d.width, |v| v as i64),
                clear: get("clear").unwrap_or(d.clear),
                leaf: get("leaf").unwrap_or(d.leaf),
            };
            // the spec written back: every parameter, sorted by name
            let text = format!(
                "clear={},leaf={},sims={},time={},width={}",
                py_float(budget.clear),
                py_float(budget.leaf),
                budget.sims,
                py_float(budget.time),
                budget.width
            );
            Box::new(Lookahead::new(budget, heuristic, format!("lookahead:{text}")))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::mulligan::Mulligan;

    #[test]
    fn floats_read_as_python_writes_them() {
        for (f, s) in [
            (3.0, "3.0"),
            (0.5, "0.5"),
            (0.0, "0.0"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1e16, "1e+16"),
            (123456789.125, "123456789.125"),
            (-2.5, "-2.5"),
            (0.1, "0.1"),
            (1.5e-7, "1.5e-07"),
        ] {
            assert_eq!(py_float(f), s);
        }
    }

    #[test]
    fn search_specs_are_checked_and_written_back() {
        let spec = |s: &str| make_player(s, None).unwrap().spec();
        assert_eq!(
            spec("search"),
            "search:clear=3.0,deals=1,mulligan=8,playouts=2,rounds=1,solve=300,time=0.0,width=64"
        );
        assert_eq!(
            spec("Search:playouts=8, time=0.05 ,solve=1_200"),
            "search:clear=3.0,deals=1,mulligan=8,playouts=8,rounds=1,solve=1200,time=0.05,width=64"
        );
        assert_eq!(make_player("search", None).unwrap().mulligan(), Mulligan::Playouts);
        assert_eq!(make_player("search", Some("keep")).unwrap().mulligan(), Mulligan::Keep);
        let err = |s: &str| make_player(s, None).err().expect("an error");
        assert!(err("search:depth=3").starts_with(
            "policy search has no parameter 'depth'; its parameters: playouts: 1 to 10000, playouts per decision and candidate (reproducible); time: 0 to 60, seconds per decision, not reproducible"
        ));
        assert_eq!(
            err("search:playouts=0"),
            "policy parameter playouts=0: out of range; playouts is from 1 to 10000 (playouts per decision and candidate (reproducible))"
        );
        assert_eq!(
            err("search:playouts=2.5"),
            "policy parameter playouts=2.5: a whole number from 1 to 10000 is expected"
        );
        assert_eq!(
            err("search:time=-1"),
            "policy parameter time=-1: out of range; time is from 0 to 60 (seconds per decision, not reproducible; 0 uses playouts)"
        );
        assert_eq!(err("search:rounds=5").split(';').next().unwrap(), "policy parameter rounds=5: out of range");
        assert_eq!(err("search:width=x"), "policy parameter width='x': a number from 1 to 1000 is expected");
        assert_eq!(err("search:solve=inf").split(';').next().unwrap(), "policy parameter solve=inf: out of range");
        assert_eq!(err("search:deals=1,deals=2"), "policy parameter deals is given twice");
    }

    #[test]
    fn the_strong_setting_is_its_parameters_and_they_can_be_overridden() {
        let spec = |s: &str| make_player(s, None).unwrap().spec();
        let strong = "search:clear=3.0,deals=1,mulligan=256,playouts=128,rounds=1,solve=19200,time=0.0,width=64";
        assert_eq!(spec("search:strong"), strong);
        assert_eq!(spec(" Search:Strong "), strong);
        // the spec written back builds the same player
        assert_eq!(spec(strong), strong);
        assert_eq!(
            spec("search:strong,playouts=4,time=0.5"),
            "search:clear=3.0,deals=1,mulligan=256,playouts=4,rounds=1,solve=19200,time=0.5,width=64"
        );
        let err = |s: &str| make_player(s, None).err().expect("an error");
        assert_eq!(
            err("search:playouts=4,strong"),
            "policy 'search:playouts=4,strong': the setting strong goes first, before any parameter"
        );
        assert_eq!(
            err("search:weak"),
            "policy parameter 'weak' must be key=value (e.g. lookahead:sims=200), or the setting strong first (e.g. search:strong)"
        );
        assert_eq!(err("lookahead:strong"), "policy parameter 'strong' must be key=value (e.g. lookahead:sims=200)");
        assert_eq!(err("search:strong,playouts=1,playouts=2"), "policy parameter playouts is given twice");
        // the tree's parameters are written back only when the tree is asked for
        assert_eq!(
            spec("search:tree=1"),
            "search:clear=3.0,deals=1,explore=0.3,mulligan=8,playouts=2,rounds=1,solve=300,time=0.0,tree=1,width=64"
        );
        assert_eq!(spec("search:tree=0"), spec("search"));
        // the leaf is written back only when it is not the default's
        assert_eq!(spec("search:leaf=2"), spec("search"));
        assert_eq!(
            spec("search:leaf=0"),
            "search:clear=3.0,deals=1,leaf=0,mulligan=8,playouts=2,rounds=1,solve=300,time=0.0,width=64"
        );
        assert!(err("search:leaf=3").starts_with("policy parameter leaf=3: out of range"));
        assert!(err("search:tree=2").starts_with("policy parameter tree=2: out of range"));
    }

    #[test]
    fn specs_are_parsed_and_written_back_as_python_does() {
        assert_eq!(make_player("greedy", None).unwrap().spec(), "greedy");
        assert_eq!(make_player(" Tempo ", None).unwrap().spec(), "tempo");
        assert_eq!(
            make_player("lookahead", None).unwrap().spec(),
            "lookahead:clear=3.0,leaf=1.0,sims=10,time=0.0,width=5"
        );
        assert_eq!(
            make_player("lookahead:sims=20.0,width=2,time=1", None).unwrap().spec(),
            "lookahead:clear=3.0,leaf=1.0,sims=20,time=1.0,width=2"
        );
        let err = |s: &str, m: Option<&str>| make_player(s, m).err().expect("an error");
        assert_eq!(
            err("nope", None),
            "unknown policy 'nope'; choose from random, greedy, tempo, ambush, control, lookahead, search"
        );
        assert_eq!(err("greedy:sims=3", None), "policy greedy takes no parameters (got sims=3)");
        assert_eq!(err("lookahead:sims", None), "policy parameter 'sims' must be key=value (e.g. lookahead:sims=200)");
        assert_eq!(
            err("lookahead:sims=abc", None),
            "policy parameter sims='abc': a number from 1 to 10000 is expected"
        );
        assert_eq!(
            err("lookahead:width=0", None),
            "policy parameter width=0: out of range; width is from 1 to 50 (candidate actions searched)"
        );
        assert!(err("lookahead:time=1e9", None).contains("time is from 0 to 60"));
        assert!(err("lookahead:clear=nan", None).contains("out of range"));
        assert!(err("lookahead:sims=2.5", None).contains("a whole number from 1 to 10000"));
        assert_eq!(err("lookahead:sims=2,sims=3", None), "policy parameter sims is given twice");
        assert!(err("lookahead:width=2,", None).contains("an empty parameter"));
        assert!(err("lookahead:depth=3", None).starts_with(
            "policy lookahead has no parameter 'depth'; its parameters: sims: 1 to 10000, playouts per decision; time: 0 to 60"
        ));
        assert!(err("", None).starts_with("empty policy"));
        assert_eq!(
            make_player("lookahead:sims= 7 ,clear=1_0", None).unwrap().spec(),
            "lookahead:clear=10.0,leaf=1.0,sims=7,time=0.0,width=5"
        );
        assert_eq!(
            err("greedy", Some("sometimes")),
            "unknown mulligan policy 'sometimes'; choose from keep, never, heuristic, always"
        );
    }
}
