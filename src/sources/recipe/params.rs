//! Typed reads of a call's parameters (numbers, whole numbers, words,
//! lists, periods), each error placed at what it reads.

use super::error::{RecipeError, clip};
use super::tree::{Call, Param, Val};
use crate::{Error, MAX_LATTICE_DIMENSIONS};

/// The parameter `key` of `call`, if given.
pub(super) fn param<'c>(call: &'c Call, key: &str) -> Option<&'c Param> {
    call.params.iter().find(|p| p.key == key)
}

/// Typed parameter reads, each with the position of what it reads.
pub(super) struct Reader<'a> {
    pub(super) text: &'a str,
    pub(super) call: &'a Call,
}

impl Reader<'_> {
    pub(super) fn number_at(&self, at: usize, v: &Val, what: &str) -> Result<f32, RecipeError> {
        let Val::Number(t) = v else {
            return Err(RecipeError::at(
                self.text,
                at,
                format!("{what} must be a number, not {}", clip(&v.to_string())),
            ));
        };
        let x: f32 = t
            .parse()
            .map_err(|_| RecipeError::at(self.text, at, format!("{} is not a number", clip(t))))?;
        if !x.is_finite() {
            return Err(RecipeError::at(
                self.text,
                at,
                format!("{what} = {} is beyond the f32 range (±3.4e38)", clip(t)),
            ));
        }
        Ok(x)
    }

    pub(super) fn float(&self, key: &str) -> Result<Option<f32>, RecipeError> {
        param(self.call, key)
            .map(|p| self.number_at(p.value_at, &p.value, key))
            .transpose()
    }

    fn integer_at(&self, at: usize, v: &Val, what: &str, max: u64) -> Result<u64, RecipeError> {
        let bad = |why: String| RecipeError::at(self.text, at, why);
        match v {
            Val::Number(t) if t.bytes().all(|b| b.is_ascii_digit() || b == b'+') => {
                let n: u64 = t
                    .trim_start_matches('+')
                    .parse()
                    .map_err(|_| bad(format!("{what} = {} is larger than {max}", clip(t))))?;
                if n > max {
                    return Err(bad(format!("{what} = {} is larger than {max}", clip(t))));
                }
                Ok(n)
            }
            _ => Err(bad(format!(
                "{what} must be a whole number ≥ 0, not {}",
                clip(&v.to_string())
            ))),
        }
    }

    pub(super) fn integer(&self, key: &str, max: u64) -> Result<Option<u64>, RecipeError> {
        param(self.call, key)
            .map(|p| self.integer_at(p.value_at, &p.value, key, max))
            .transpose()
    }

    pub(super) fn word(&self, key: &str, allowed: &[&str]) -> Result<Option<&str>, RecipeError> {
        let Some(p) = param(self.call, key) else {
            return Ok(None);
        };
        match &p.value {
            Val::Word(w) if allowed.contains(&w.as_str()) => Ok(Some(w)),
            v => Err(RecipeError::at(
                self.text,
                p.value_at,
                format!(
                    "{key} must be one of {}, not {}",
                    allowed.join(", "),
                    clip(&v.to_string())
                ),
            )),
        }
    }

    pub(super) fn list(&self, key: &str) -> Result<&[(usize, Val)], RecipeError> {
        let Some(p) = param(self.call, key) else {
            return Err(RecipeError::at(
                self.text,
                self.call.at,
                format!("{} needs {key}=[...]", self.call.name),
            ));
        };
        match &p.value {
            Val::List(items) => Ok(items),
            v => Err(RecipeError::at(
                self.text,
                p.value_at,
                format!("{key} must be a list [...], not {}", clip(&v.to_string())),
            )),
        }
    }

    /// A library error from building this node, at the parameter it names
    /// when the recipe gives it, else at the node's name.
    pub(super) fn library(&self, e: Error) -> RecipeError {
        let key = match &e {
            Error::InvalidOctaves(_) => Some("octaves"),
            Error::NonFiniteParameter { name, .. } => Some(*name),
            Error::InvalidPeriod { .. } | Error::NotPeriodic => Some("period"),
            Error::PeriodicLacunarity(_) => Some("lacunarity"),
            Error::InvalidParameter { name, .. } => [
                "points",
                "lower",
                "upper",
                "edge",
                "iterations",
                "amplitude",
            ]
            .into_iter()
            .find(|k| name.contains(k)),
            _ => None,
        };
        let at = key
            .and_then(|k| param(self.call, k))
            .map_or(self.call.at, |p| p.at);
        RecipeError::at(self.text, at, format!("{}: {e}", self.call.name))
    }
}

/// Periods of the x, y, z and w axes, the others unperiodic.
pub(super) fn pad_period(p: [u32; 4]) -> [u32; MAX_LATTICE_DIMENSIONS] {
    std::array::from_fn(|a| p.get(a).copied().unwrap_or(u32::MAX))
}

/// `period=64` (every axis) or `period=[64, 32]` (x, y; the rest unperiodic;
/// up to [`MAX_LATTICE_DIMENSIONS`] axes).
pub(super) fn period(r: &Reader<'_>) -> Result<Option<[u32; MAX_LATTICE_DIMENSIONS]>, RecipeError> {
    let Some(p) = param(r.call, "period") else {
        return Ok(None);
    };
    let max = u64::from(u32::MAX - 1);
    match &p.value {
        Val::List(items) => {
            if items.is_empty() || items.len() > MAX_LATTICE_DIMENSIONS {
                return Err(RecipeError::at(
                    r.text,
                    p.value_at,
                    format!("period lists 1 to {MAX_LATTICE_DIMENSIONS} axes (x, y, z, w, …)"),
                ));
            }
            let mut out = [u32::MAX; MAX_LATTICE_DIMENSIONS];
            for (o, (at, v)) in out.iter_mut().zip(items) {
                *o = r.integer_at(*at, v, "a period", max)? as u32;
            }
            Ok(Some(out))
        }
        v => Ok(Some(
            [r.integer_at(p.value_at, v, "period", max)? as u32; MAX_LATTICE_DIMENSIONS],
        )),
    }
}
