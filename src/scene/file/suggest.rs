//! "Did you mean": the closest known name to a misspelt one, by edit distance, at a bounded
//! cost: names longer than [`MAX_NAME_CHARS`] get no suggestion (the distance costs the
//! product of the two lengths, and a name that long is no typo), and [`short`] cuts any name a
//! message repeats to that length.

use crate::tunables::MAX_NAME_CHARS;

/// The closest name by edit distance, if it is close enough to be a likely typo.
pub(super) fn closest<'n>(name: &str, known: &[&'n str]) -> Option<&'n str> {
    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        return None;
    }
    let limit = (length / 3).max(2);
    let name = name.to_lowercase();
    known
        .iter()
        // A known name more than `limit` characters longer or shorter cannot be close enough.
        .filter(|k| k.chars().count().abs_diff(length) <= limit)
        .map(|k| (edit_distance(&name, &k.to_lowercase()), *k))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, k)| k)
}

/// A name as messages show it: at most [`MAX_NAME_CHARS`] characters, then "…".
pub(crate) fn short(name: &str) -> String {
    match name.char_indices().nth(MAX_NAME_CHARS) {
        Some((cut, _)) => format!("{}…", &name[..cut]),
        None => name.to_string(),
    }
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            current[j + 1] = (previous[j] + usize::from(ca != cb)).min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_get_no_suggestion_and_are_cut() {
        let long = "x".repeat(100_000);
        let known = [long.as_str(), "cube"];
        let start = crate::clock::Instant::now();
        assert_eq!(closest(&long, &known), None);
        assert_eq!(closest("cub", &known), Some("cube"));
        assert!(start.elapsed().as_millis() < 100, "{:?}", start.elapsed());
        assert_eq!(short(&long).chars().count(), MAX_NAME_CHARS + 1);
        assert_eq!(short("cube"), "cube");
    }
}
