//! "Did you mean": the closest known name to a misspelt one, by edit distance.

/// The closest name by edit distance, if it is close enough to be a likely typo.
pub(super) fn closest<'n>(name: &str, known: &[&'n str]) -> Option<&'n str> {
    let limit = (name.chars().count() / 3).max(2);
    known
        .iter()
        .map(|k| (edit_distance(&name.to_lowercase(), &k.to_lowercase()), *k))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, k)| k)
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
