//! Numbers that must be finite 32-bit floats. TOML allows `nan`, `inf` and values far beyond
//! `f32`'s range, and any of them would reach the GPU as a NaN placement. [`Finite`] refuses
//! them while deserialising, so the error carries the number's span like every other; the
//! loader then finds the number in the parsed document ([`locate`]) to name its key path and
//! show it as written.

use std::ops::Range;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// The message of every non-finite refusal; the loader recognises it to add the key path.
pub(super) const NOT_FINITE: &str = "not a finite 32-bit number (nan, inf and values beyond ±3.4e38 are refused)";

/// A value whose every number is a finite `f32`: `Finite<f32>`, `Finite<[f32; N]>` or
/// `Finite<Vec<f32>>`. Integers are accepted and converted.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Finite<T>(pub(super) T);

/// `value` narrowed to `f32`, or the [`NOT_FINITE`] refusal.
pub(super) fn finite_f32(value: f64) -> Result<f32, &'static str> {
    let narrowed = value as f32;
    if narrowed.is_finite() {
        Ok(narrowed)
    } else {
        Err(NOT_FINITE)
    }
}

impl<'de> Deserialize<'de> for Finite<f32> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FiniteVisitor).map(Finite)
    }
}

/// Accepts integers and floats; the integer arms convert directly, as serde's `f32` does, so
/// that a large integer rounds once.
struct FiniteVisitor;

impl Visitor<'_> for FiniteVisitor {
    type Value = f32;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a number")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f32, E> {
        Ok(v as f32)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f32, E> {
        Ok(v as f32)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f32, E> {
        finite_f32(v).map_err(E::custom)
    }
}

impl<'de, const N: usize> Deserialize<'de> for Finite<[f32; N]>
where
    [Finite<f32>; N]: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let numbers = <[Finite<f32>; N]>::deserialize(deserializer)?;
        Ok(Finite(numbers.map(|n| n.0)))
    }
}

impl<'de> Deserialize<'de> for Finite<Vec<f32>> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let numbers = Vec::<Finite<f32>>::deserialize(deserializer)?;
        Ok(Finite(numbers.into_iter().map(|n| n.0).collect()))
    }
}

/// The key path (`objects[0].transforms[1].position[2]`) and span of the first float inside
/// `within` that is not a finite `f32`.
pub(super) fn locate(root: &DeTable, within: &Range<usize>) -> Option<(String, Range<usize>)> {
    let mut found = None;
    for (key, value) in root {
        search(value, &mut key.get_ref().to_string(), within, &mut found);
    }
    found
}

fn search(
    value: &Spanned<DeValue>,
    path: &mut String,
    within: &Range<usize>,
    found: &mut Option<(String, Range<usize>)>,
) {
    // Containers are walked whole: the span of a table opened by a `[[header]]` need not
    // cover its keys.
    let span = value.span();
    let before = path.len();
    match value.get_ref() {
        DeValue::Float(float) => {
            let finite = float.as_str().parse::<f64>().is_ok_and(|v| finite_f32(v).is_ok());
            let first = found.as_ref().is_none_or(|(_, earlier)| span.start < earlier.start);
            if !finite && first && span.start >= within.start && span.end <= within.end {
                *found = Some((path.clone(), span));
            }
        }
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                search(item, path, within, found);
                path.truncate(before);
            }
        }
        DeValue::Table(table) => {
            for (key, item) in table {
                path.push('.');
                path.push_str(key.get_ref());
                search(item, path, within, found);
                path.truncate(before);
            }
        }
        _ => {}
    }
}
