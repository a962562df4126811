//! Player specs: `greedy`, `lookahead:sims=200,time=0.5`, parsed (and refused, with the same
//! messages) as `mythos_cli.policies.make_policy` parses them.

use super::Player;
use super::greedy::Greedy;
use super::heuristic::W0;
use super::lookahead::{Budget, Lookahead};
use super::mulligan::{MULLIGAN_NAMES, Mulligan};
use super::plan::{Planner, Style};
use super::random::RandomPlayer;
use super::search::{Params as SearchParams, SEARCH_PARAMETERS, Search};

/// The built-in players, in the order error messages list them.
pub const PLAYER_NAMES: [&str; 7] = ["random", "greedy", "tempo", "ambush", "control", "lookahead", "search"];

/// The parameters `lookahead` reads (any other is kept in its spec and ignored, as in Python).
pub const PARAMETER_NAMES: [&str; 5] = ["sims", "time", "width", "clear", "leaf"];

/// A parameter's value: an int, or a float when written with a point (as Python reads it).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Int(i128),
    Float(f64),
}

impl Value {
    fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
        }
    }
    /// Python's `int(v)` (a float truncated toward zero): the value as the player uses it
    /// (saturated: no budget reaches 2^63) and as its spec writes it back.
    fn as_int(self) -> Result<(i64, String), String> {
        match self {
            Value::Int(i) => Ok((i.clamp(i64::MIN as i128, i64::MAX as i128) as i64, i.to_string())),
            Value::Float(f) if f.is_finite() => {
                Ok((f.trunc().clamp(i64::MIN as f64, i64::MAX as f64) as i64, format!("{:.0}", f.trunc())))
            }
            Value::Float(f) => Err(format!("cannot convert float {} to integer", py_float(f))),
        }
    }
    fn text(self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Float(f) => py_float(f),
        }
    }
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

/// `float(value) if "." in value else int(value)`.
fn parse_value(value: &str) -> Option<Value> {
    let v = strip_underscores(value.trim())?;
    if value.contains('.') { v.parse::<f64>().ok().map(Value::Float) } else { v.parse::<i128>().ok().map(Value::Int) }
}

/// Build a player from a spec such as `greedy` or `lookahead:sims=200,time=0.5`, with a mulligan
/// rule (None: the player's own, `keep` for random and `heuristic` for the others).
pub fn make_player(spec: &str, mulligan: Option<&str>) -> Result<Box<dyn Player>, String> {
    let (name, rest) = spec.trim().split_once(':').unwrap_or((spec.trim(), ""));
    let lower = name.to_lowercase();
    if !PLAYER_NAMES.contains(&lower.as_str()) {
        return Err(format!("unknown policy {}; choose from {}", py_repr(name), PLAYER_NAMES.join(", ")));
    }
    // a dict: a later key replaces an earlier one in place
    let mut params: Vec<(String, Value)> = Vec::new();
    for part in rest.split(',').filter(|p| !p.is_empty()) {
        let Some((key, value)) = part.split_once('=') else {
            return Err(format!("policy parameter {} must be key=value (e.g. lookahead:sims=200)", py_repr(part)));
        };
        let Some(v) = parse_value(value) else {
            return Err(format!("policy parameter {key}={}: a number is expected", py_repr(value)));
        };
        let key = key.trim().to_string();
        match params.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = v,
            None => params.push((key, v)),
        }
    }
    let rule = match mulligan {
        None => None,
        Some(m) => Some(Mulligan::parse(m).ok_or_else(|| {
            format!("unknown mulligan policy {}; choose from {}", py_repr(m), MULLIGAN_NAMES.join(", "))
        })?),
    };
    if lower == "search" {
        return search_player(&params, rule);
    }
    if !params.is_empty() && lower != "lookahead" {
        return Err(format!("policy {name} takes no parameters"));
    }
    let heuristic = rule.unwrap_or(Mulligan::Heuristic);
    Ok(match lower.as_str() {
        "random" => Box::new(RandomPlayer::new(rule)),
        "greedy" => Box::new(Greedy::new("greedy", W0, heuristic)),
        "tempo" => Box::new(Planner::new(Style::Tempo, heuristic)),
        "ambush" => Box::new(Planner::new(Style::Ambush, heuristic)),
        "control" => Box::new(Planner::new(Style::Control, heuristic)),
        _ => {
            if params.iter().any(|(k, _)| k == "mulligan") {
                return Err(format!(
                    "{spec}: mythos_cli.policies.players.LookaheadPolicy() got multiple values for keyword argument 'mulligan'"
                ));
            }
            let get = |k: &str| params.iter().find(|(x, _)| x == k).map(|(_, v)| *v);
            let d = Budget::default();
            let int = |k: &str, dflt: i64| {
                get(k).map_or(Ok((dflt, dflt.to_string())), |v| v.as_int()).map_err(|e| format!("{spec}: {e}"))
            };
            let (sims, sims_text) = int("sims", d.sims)?;
            let (width, width_text) = int("width", d.width)?;
            let budget = Budget {
                sims,
                time: get("time").map_or(d.time, Value::as_f64),
                width,
                clear: get("clear").map_or(d.clear, Value::as_f64),
                leaf: get("leaf").map_or(d.leaf, Value::as_f64),
            };
            // the spec written back: every parameter, sorted by name, as Python's `spec` does
            let mut all: Vec<(String, String)> = vec![
                ("sims".into(), sims_text),
                ("time".into(), py_float(budget.time)),
                ("width".into(), width_text),
                ("clear".into(), py_float(budget.clear)),
                ("leaf".into(), py_float(budget.leaf)),
            ];
            all.extend(
                params
                    .iter()
                    .filter(|(k, _)| !PARAMETER_NAMES.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.text())),
            );
            all.sort();
            let text = all.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",");
            Box::new(Lookahead::new(budget, heuristic, format!("lookahead:{text}")))
        }
    })
}

/// `search:playouts=N,time=S,…`: every parameter checked (a name it does not know, a value
/// out of range or not a whole number where one is needed is refused, saying which and why).
fn search_player(params: &[(String, Value)], rule: Option<Mulligan>) -> Result<Box<dyn Player>, String> {
    let mut p = SearchParams::default();
    for (key, v) in params {
        let whole = |min: i128| -> Result<i64, String> {
            match *v {
                Value::Int(i) if i >= min && i <= 1_000_000_000 => Ok(i as i64),
                Value::Int(_) => Err(format!("search:{key}={} is out of range ({min} to 1000000000)", v.text())),
                Value::Float(_) => Err(format!("search:{key}={}: a whole number is expected", v.text())),
            }
        };
        let real = |min: f64, max: f64| -> Result<f64, String> {
            let f = v.as_f64();
            if f.is_finite() && f >= min && f <= max {
                Ok(f)
            } else {
                Err(format!("search:{key}={} is out of range ({} to {})", v.text(), py_float(min), py_float(max)))
            }
        };
        match key.as_str() {
            "playouts" => p.playouts = whole(1)?,
            "time" => p.time = real(0.0, 3600.0)?,
            "mulligan" => p.mulligan = whole(0)?,
            "solve" => p.solve = whole(0)?,
            "deals" => p.deals = whole(1)?,
            "explore" => p.explore = real(0.0, 100.0)?,
            "width" => p.width = whole(1)?,
            _ => {
                return Err(format!(
                    "policy search has no parameter {}; choose from {} (e.g. search:playouts=128 or search:time=0.05)",
                    py_repr(key),
                    SEARCH_PARAMETERS.join(", ")
                ));
            }
        }
    }
    let text = format!(
        "search:deals={},explore={},mulligan={},playouts={},solve={},time={},width={}",
        p.deals,
        py_float(p.explore),
        p.mulligan,
        p.playouts,
        p.solve,
        py_float(p.time),
        p.width
    );
    Ok(Box::new(Search::new(p, rule, text)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn specs_are_parsed_and_written_back_as_python_does() {
        assert_eq!(make_player("greedy", None).unwrap().spec(), "greedy");
        assert_eq!(make_player(" Tempo ", None).unwrap().spec(), "tempo");
        assert_eq!(
            make_player("lookahead", None).unwrap().spec(),
            "lookahead:clear=3.0,leaf=1.0,sims=10,time=0.0,width=5"
        );
        assert_eq!(
            make_player("lookahead:sims=2.7,width=2,time=1", None).unwrap().spec(),
            "lookahead:clear=3.0,leaf=1.0,sims=2,time=1.0,width=2"
        );
        let err = |s: &str, m: Option<&str>| make_player(s, m).err().expect("an error");
        assert_eq!(
            err("nope", None),
            "unknown policy 'nope'; choose from random, greedy, tempo, ambush, control, lookahead"
        );
        assert_eq!(err("greedy:sims=3", None), "policy greedy takes no parameters");
        assert_eq!(err("lookahead:sims", None), "policy parameter 'sims' must be key=value (e.g. lookahead:sims=200)");
        assert_eq!(err("lookahead:sims=abc", None), "policy parameter sims='abc': a number is expected");
        assert_eq!(
            err("greedy", Some("sometimes")),
            "unknown mulligan policy 'sometimes'; choose from keep, never, heuristic, always"
        );
    }
}
