//! Turning an axiom written with `!`, `&`, `|`, `->` and `<->` into clauses (conjunctive normal
//! form). Axioms are short, so the plain distributive expansion is used, with a cap on its size
//! instead of auxiliary variables: a clause of the result is one the user can read back.

/// A formula over atoms numbered by the caller.
#[derive(Debug, Clone)]
pub enum Formula {
    Atom(usize),
    Not(Box<Formula>),
    And(Box<Formula>, Box<Formula>),
    Or(Box<Formula>, Box<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    Equiv(Box<Formula>, Box<Formula>),
}

/// A clause: (atom, positive) pairs, read as their disjunction.
pub type Lits = Vec<(usize, bool)>;

/// The clauses of `f` (their conjunction is equivalent to it), or None when there would be more
/// than `limit` of them. Tautologies (`A | !A`) are left out and repeated literals merged.
pub fn clauses(f: &Formula, limit: usize) -> Option<Vec<Lits>> {
    let mut out = expand(f, true, limit)?;
    for c in &mut out {
        c.sort_unstable();
        c.dedup();
    }
    out.retain(|c| !c.windows(2).any(|w| w[0].0 == w[1].0));
    Some(out)
}

/// The clauses of `f` when `positive`, of `!f` otherwise (negation pushed inwards).
fn expand(f: &Formula, positive: bool, limit: usize) -> Option<Vec<Lits>> {
    use Formula::*;
    match (f, positive) {
        (Atom(a), p) => Some(vec![vec![(*a, p)]]),
        (Not(g), p) => expand(g, !p, limit),
        (And(a, b), true) | (Or(a, b), false) => both(expand(a, positive, limit)?, expand(b, positive, limit)?, limit),
        (Or(a, b), true) => either(expand(a, true, limit)?, expand(b, true, limit)?, limit),
        (And(a, b), false) => either(expand(a, false, limit)?, expand(b, false, limit)?, limit),
        // a -> b is !a | b; !(a -> b) is a & !b.
        (Implies(a, b), true) => either(expand(a, false, limit)?, expand(b, true, limit)?, limit),
        (Implies(a, b), false) => both(expand(a, true, limit)?, expand(b, false, limit)?, limit),
        // a <-> b is (!a | b) & (a | !b); its negation (a | b) & (!a | !b).
        (Equiv(a, b), p) => {
            let first = either(expand(a, false, limit)?, expand(b, p, limit)?, limit)?;
            let second = either(expand(a, true, limit)?, expand(b, !p, limit)?, limit)?;
            both(first, second, limit)
        }
    }
}

/// The conjunction of two clause sets.
fn both(mut a: Vec<Lits>, b: Vec<Lits>, limit: usize) -> Option<Vec<Lits>> {
    a.extend(b);
    (a.len() <= limit).then_some(a)
}

/// The disjunction of two clause sets: every clause of one joined with every clause of the other.
fn either(a: Vec<Lits>, b: Vec<Lits>, limit: usize) -> Option<Vec<Lits>> {
    if a.len().saturating_mul(b.len()) > limit {
        return None;
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in &a {
        for y in &b {
            out.push(x.iter().chain(y).copied().collect());
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::Formula::*;
    use super::*;

    fn atom(i: usize) -> Box<Formula> {
        Box::new(Atom(i))
    }

    #[test]
    fn implication_with_a_conjunction_on_the_left_is_one_clause() {
        // a & b -> c  ==  !a | !b | c
        let f = Implies(Box::new(And(atom(0), atom(1))), atom(2));
        assert_eq!(clauses(&f, 64), Some(vec![vec![(0, false), (1, false), (2, true)]]));
    }

    #[test]
    fn a_conjunction_on_the_right_gives_two_clauses() {
        // a -> b & c  ==  (!a | b) & (!a | c)
        let f = Implies(atom(0), Box::new(And(atom(1), atom(2))));
        assert_eq!(clauses(&f, 64), Some(vec![vec![(0, false), (1, true)], vec![(0, false), (2, true)]]));
    }

    #[test]
    fn equivalence_and_negation() {
        // a <-> b  ==  (!a | b) & (a | !b);  !(a | b)  ==  !a & !b
        let f = Equiv(atom(0), atom(1));
        assert_eq!(clauses(&f, 64), Some(vec![vec![(0, false), (1, true)], vec![(0, true), (1, false)]]));
        let g = Not(Box::new(Or(atom(0), atom(1))));
        assert_eq!(clauses(&g, 64), Some(vec![vec![(0, false)], vec![(1, false)]]));
    }

    #[test]
    fn tautologies_vanish_and_the_size_is_capped() {
        assert_eq!(clauses(&Or(atom(0), Box::new(Not(atom(0)))), 64), Some(vec![]));
        // (a & b) | (c & d) | (e & f) ... doubles with each term.
        let mut f = And(atom(0), atom(1));
        for i in 1..8 {
            f = Or(Box::new(f), Box::new(And(atom(2 * i), atom(2 * i + 1))));
        }
        assert_eq!(clauses(&f, 64), None);
    }
}
