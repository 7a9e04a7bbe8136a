//! "Did you mean": the nearest of the words a place knows to a misspelt
//! one, for every refusal that names them (scenario keys, options,
//! expectations, game ids). Below everything that suggests.

/// The candidate closest to `wrong` by edit distance, if close enough.
pub fn nearest(wrong: &str, candidates: &[&str]) -> Option<String> {
    candidates
        .iter()
        .map(|c| (strsim::damerau_levenshtein(wrong, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min()
        .map(|(_, c)| c.to_string())
}
