//! "Did you mean ...?" suggestions for unknown names and misspelt keywords (used by the
//! compiler and by the syntax hints).

/// The candidate closest to `name` within a small edit distance, if any.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    // One edit in a short name; two changed letters of five (`map` and `mix`) make another word.
    let limit = match name.chars().count() {
        0..=5 => 1,
        6..=8 => 2,
        _ => 3,
    };
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c.to_string())
}

/// Edit distance: insertions, deletions, substitutions (a case change counts) and swaps of two
/// neighbouring characters (`wnat` for `want`), each one edit.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: the one before the previous is needed for swaps.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::suggest;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(suggest("solvr", ["solver", "place"]), Some("solver".into()));
        assert_eq!(suggest("x", ["solver"]), None);
        assert_eq!(suggest("Strat", ["Start", "Sen"]), Some("Start".into()));
        assert_eq!(suggest("wnat", ["unit", "want"]), Some("want".into()));
        assert_eq!(suggest("palce", ["place", "plane"]), Some("place".into()));
        // issue 55: `First.map(...)` suggested `mix`
        assert_eq!(suggest("map", ["mix", "max_states"]), None);
        assert_eq!(suggest("pussh", ["push"]), Some("push".into()));
        assert_eq!(suggest("lenght", ["length"]), Some("length".into()));
        assert_eq!(suggest("travesre", ["traverse"]), Some("traverse".into()));
    }
}
