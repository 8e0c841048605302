//! The table of search algorithms: one row each, with everything the rest of ds knows about it
//! (its name, whether it needs a heuristic or non-negative costs, what it guarantees, how its f
//! is computed, its own options, the function that runs it and its one-line description). The
//! builtins (`Search.NAME`), option checking, `Search.compare`, the explorer's JSON API and
//! the docs table are made from it or checked against it (tests/integration/algorithm_table.rs).
//! Adding an algorithm: its file in crates/core/src/search/ and one row here.

use super::*;

/// What f is for an algorithm: the number its frontier is ordered by, as a record and the
/// explorer show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FOf {
    G,
    GPlusH,
    H,
}

impl FOf {
    /// As the explorer's JSON API gives it.
    pub fn word(self) -> &'static str {
        match self {
            FOf::G => "g",
            FOf::GPlusH => "g+h",
            FOf::H => "h",
        }
    }

    pub fn of(self, g: f64, h: f64) -> f64 {
        match self {
            FOf::G => g,
            FOf::GPlusH => g + h,
            FOf::H => h,
        }
    }
}

/// One algorithm, as the table describes it.
#[derive(Debug)]
pub struct Row {
    pub algorithm: Algorithm,
    /// Its builtin, `Search.NAME`; NAME is its name in `Search.compare` and the explorer.
    pub function: &'static str,
    /// `Search.NAME(Start, Next, Goal, H [, Opts])`: it needs a heuristic.
    pub informed: bool,
    /// It orders states by path cost, so a negative cost would be wrong.
    pub needs_costs: bool,
    /// It finds a goal whenever one can be reached in a finite space.
    pub complete: bool,
    /// What its path is best in (None: nothing is promised).
    pub optimal: Option<&'static str>,
    pub f: FOf,
    /// The options only it takes, beside those every search takes (`COMMON_OPTIONS`).
    pub options: &'static [&'static str],
    /// How a call is written, and what it does in one line (the builtin's docs).
    pub usage: &'static str,
    pub doc: &'static str,
}

/// The options of every search.
pub const COMMON_OPTIONS: &[&str] = &["max_states", "symmetry", "trace", "record", "threads"];

macro_rules! algorithms {
    ($($variant:ident => $run:path { $($field:ident: $value:expr),* $(,)? })*) => {
        /// The algorithms, by the names scripts use (one per row of `TABLE`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Algorithm { $($variant),* }

        /// Every algorithm, in the order of the docs.
        pub const TABLE: &[Row] = &[$(Row { algorithm: Algorithm::$variant, $($field: $value),* }),*];

        /// Runs `algorithm` by its row's function.
        pub(super) fn run_row<P: Problem>(
            algorithm: Algorithm,
            p: &mut P,
            store: &mut StateStore,
            config: &Config,
            counts: &mut Counts,
        ) -> Step<Result<Found, Reason>, P::Error> {
            match algorithm { $(Algorithm::$variant => $run(p, store, config, counts)),* }
        }
    };
}

algorithms! {
    Bfs => bfs::bfs {
        function: "Search.bfs", informed: false, needs_costs: false, complete: true, optimal: Some("fewest actions"),
        f: FOf::G, options: &[],
        usage: "Search.bfs(Start, Next, Goal [, Opts])",
        doc: "breadth-first search: the goal state fewest actions away, or Undef",
    }
    Dfs => dfs::dfs {
        function: "Search.dfs", informed: false, needs_costs: false, complete: false, optimal: None,
        f: FOf::G, options: &["limit"],
        usage: "Search.dfs(Start, Next, Goal [, Opts])",
        doc: "depth-first search (the option limit bounds the depth): some goal state, or Undef",
    }
    Iddfs => dfs::iddfs {
        function: "Search.iddfs", informed: false, needs_costs: false, complete: true, optimal: Some("fewest actions"),
        f: FOf::G, options: &["limit"],
        usage: "Search.iddfs(Start, Next, Goal [, Opts])",
        doc: "iterative deepening: depth-first with limits 1, 2, 3 ...; fewest actions",
    }
    Ucs => best_first::ucs {
        function: "Search.ucs", informed: false, needs_costs: true, complete: true, optimal: Some("cheapest path"),
        f: FOf::G, options: &[],
        usage: "Search.ucs(Start, Next, Goal [, Opts])",
        doc: "uniform-cost search: the goal state of the cheapest path, or Undef",
    }
    Astar => best_first::astar {
        function: "Search.astar", informed: true, needs_costs: true, complete: true,
        optimal: Some("cheapest path if h never overestimates"),
        f: FOf::GPlusH, options: &[],
        usage: "Search.astar(Start, Next, Goal, H [, Opts])",
        doc: "A*: the cheapest path when H never overestimates the cost left",
    }
    Idastar => idastar::idastar {
        function: "Search.idastar", informed: true, needs_costs: true, complete: true,
        optimal: Some("cheapest path if h never overestimates"),
        f: FOf::GPlusH, options: &[],
        usage: "Search.idastar(Start, Next, Goal, H [, Opts])",
        doc: "iterative-deepening A*: depth first within a bound on g + h, raised each round",
    }
    Rbfs => rbfs::rbfs {
        function: "Search.rbfs", informed: true, needs_costs: true, complete: true,
        optimal: Some("cheapest path if h never overestimates"),
        f: FOf::GPlusH, options: &[],
        usage: "Search.rbfs(Start, Next, Goal, H [, Opts])",
        doc: "recursive best-first search: A*'s answer in memory linear in the depth",
    }
    Greedy => best_first::greedy {
        function: "Search.greedy", informed: true, needs_costs: false, complete: true, optimal: None,
        f: FOf::H, options: &[],
        usage: "Search.greedy(Start, Next, Goal, H [, Opts])",
        doc: "greedy best-first search: least H first; some path, quickly when H is good",
    }
    Beam => beam::beam {
        function: "Search.beam", informed: true, needs_costs: false, complete: false, optimal: None,
        f: FOf::H, options: &["width"],
        usage: "Search.beam(Start, Next, Goal, H [, Opts])",
        doc: "beam search: level by level, keeping the width states of least H; may miss a goal",
    }
}

impl Row {
    /// Its name: `bfs` for `Search.bfs`.
    pub fn name(&self) -> &'static str {
        let function: &'static str = self.function;
        function.strip_prefix("Search.").unwrap_or(function)
    }
}

impl Algorithm {
    /// Its row of the table.
    pub fn row(self) -> &'static Row {
        TABLE.iter().find(|r| r.algorithm == self).expect("every algorithm has a row")
    }

    pub fn all() -> impl Iterator<Item = Algorithm> {
        TABLE.iter().map(|r| r.algorithm)
    }

    /// The names of every algorithm, for messages.
    pub fn names() -> Vec<&'static str> {
        TABLE.iter().map(|r| r.name()).collect()
    }

    pub fn name(self) -> &'static str {
        self.row().name()
    }

    pub fn parse(name: &str) -> Option<Algorithm> {
        TABLE.iter().find(|r| r.name() == name).map(|r| r.algorithm)
    }

    /// Whether it needs a heuristic `H`.
    pub fn informed(self) -> bool {
        self.row().informed
    }

    /// Whether it orders states by path cost, so that a negative cost would be wrong.
    pub fn needs_costs(self) -> bool {
        self.row().needs_costs
    }
}
