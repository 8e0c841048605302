//! The table of search algorithms: one row each, with everything the rest of ds knows about it
//! (its name, whether it needs a heuristic or non-negative costs, what it guarantees, how its f
//! is computed, how it orders its frontier, when it tests for the goal, whether a state keeps
//! the first path found to it, whether it runs on several threads, its own options, the
//! function that runs it and its one-line description). The builtins (`Search.NAME`), option
//! checking, `Search.compare`, the explorer's JSON API, the replay of a record and the docs
//! table are made from it or checked against it (tests/integration/algorithm_table.rs). No
//! algorithm is named anywhere else: a row must give every column (the compiler refuses a row
//! that leaves one out), and what an algorithm does is read from its row.
//! Adding an algorithm: its file in crates/core/src/search/ and one row here.

use super::*;

/// What f is for an algorithm: the number its frontier is ordered by, as a record and the
/// explorer show it, `g_weight * g + h_weight * h` (weighted A* is a row with an `h_weight`
/// above 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FOf {
    pub g_weight: f64,
    pub h_weight: f64,
}

impl FOf {
    /// The path cost so far (uniform-cost search).
    pub const G: FOf = FOf { g_weight: 1.0, h_weight: 0.0 };
    /// The path cost so far and the estimate of the rest (A*).
    pub const G_PLUS_H: FOf = FOf { g_weight: 1.0, h_weight: 1.0 };
    /// The estimate of the rest alone (greedy best-first).
    pub const H: FOf = FOf { g_weight: 0.0, h_weight: 1.0 };

    /// As the explorer's JSON API gives it: `g`, `g+h`, `h`, or with weights (`g+2*h`).
    pub fn word(self) -> String {
        let term = |w: f64, x: &str| match w {
            0.0 => None,
            1.0 => Some(x.to_string()),
            w => Some(format!("{w}*{x}")),
        };
        let terms: Vec<String> = [term(self.g_weight, "g"), term(self.h_weight, "h")].into_iter().flatten().collect();
        if terms.is_empty() {
            "0".into()
        } else {
            terms.join("+")
        }
    }

    /// f of a state: a term whose weight is 0 is left out (so an infinite h of an algorithm that
    /// orders by g alone is no NaN).
    pub fn of(self, g: f64, h: f64) -> f64 {
        let mut f = 0.0;
        if self.g_weight != 0.0 {
            f += self.g_weight * g;
        }
        if self.h_weight != 0.0 {
            f += self.h_weight * h;
        }
        f
    }

    /// Whether both g and h count: then ties of f go to the smaller h (nearer the goal).
    pub fn ties_by_h(self) -> bool {
        self.g_weight != 0.0 && self.h_weight != 0.0
    }
}

/// How an algorithm orders its frontier: the order the explorer's replay and the notebook's
/// step-through list the open list in (`open_order.rs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Order {
    /// First in, first out.
    Fifo,
    /// By f, then by h where `FOf::ties_by_h`, then first in first (`best_first.rs`'s heap).
    ByF,
    /// By when each entry was taken, as the record shows (entries never taken last, in the order
    /// they came in): a depth-first stack, a bound raised each round, a beam cut level by level.
    AsTaken,
}

/// When an algorithm tests a state for the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalTest {
    /// When it is generated, so that the goal it finds never leaves the frontier.
    Generated,
    /// When it is taken from the frontier to be expanded.
    Expanded,
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
    /// How it orders its frontier.
    pub order: Order,
    /// When it tests a state for the goal.
    pub goal_test: GoalTest,
    /// A state met again keeps the path it was first reached by, even a worse one; otherwise a
    /// better path (cheaper, or shallower for a depth limit) replaces it and is searched again.
    pub keeps_first_path: bool,
    /// Its levels may be expanded on several threads or processes (`threads`, `ds --processes`).
    pub parallel: bool,
    /// The options only it takes, beside those every search takes (`COMMON_OPTIONS`).
    pub options: &'static [&'static str],
    /// How a call is written, and what it does in one line (the builtin's docs).
    pub usage: &'static str,
    pub doc: &'static str,
}

/// The options of every search.
pub const COMMON_OPTIONS: &[&str] =
    &["max_states", "symmetry", "trace", "record", "threads", "store", "bits", "checkpoint", "every", "resume"];

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
        f: FOf::G, order: Order::Fifo, goal_test: GoalTest::Generated, keeps_first_path: true, parallel: true,
        options: &[],
        usage: "Search.bfs(Start, Next, Goal [, Opts])",
        doc: "breadth-first search: the goal state fewest actions away, or Undef",
    }
    Dfs => dfs::dfs {
        function: "Search.dfs", informed: false, needs_costs: false, complete: false, optimal: None,
        f: FOf::G, order: Order::AsTaken, goal_test: GoalTest::Generated, keeps_first_path: false, parallel: false,
        options: &["limit"],
        usage: "Search.dfs(Start, Next, Goal [, Opts])",
        doc: "depth-first search (the option limit bounds the depth): some goal state, or Undef",
    }
    Iddfs => dfs::iddfs {
        function: "Search.iddfs", informed: false, needs_costs: false, complete: true, optimal: Some("fewest actions"),
        f: FOf::G, order: Order::AsTaken, goal_test: GoalTest::Generated, keeps_first_path: false, parallel: false,
        options: &["limit"],
        usage: "Search.iddfs(Start, Next, Goal [, Opts])",
        doc: "iterative deepening: depth-first with limits 1, 2, 3 ...; fewest actions",
    }
    Ucs => best_first::ucs {
        function: "Search.ucs", informed: false, needs_costs: true, complete: true, optimal: Some("cheapest path"),
        f: FOf::G, order: Order::ByF, goal_test: GoalTest::Expanded, keeps_first_path: false, parallel: false,
        options: &[],
        usage: "Search.ucs(Start, Next, Goal [, Opts])",
        doc: "uniform-cost search: the goal state of the cheapest path, or Undef",
    }
    Astar => best_first::astar {
        function: "Search.astar", informed: true, needs_costs: true, complete: true,
        optimal: Some("cheapest path if h never overestimates"),
        f: FOf::G_PLUS_H, order: Order::ByF, goal_test: GoalTest::Expanded, keeps_first_path: false, parallel: false,
        options: &[],
        usage: "Search.astar(Start, Next, Goal, H [, Opts])",
        doc: "A*: the cheapest path when H never overestimates the cost left",
    }
    Idastar => idastar::idastar {
        function: "Search.idastar", informed: true, needs_costs: true, complete: true,
        optimal: Some("cheapest path if h never overestimates"),
        f: FOf::G_PLUS_H, order: Order::AsTaken, goal_test: GoalTest::Expanded, keeps_first_path: false, parallel: false,
        options: &[],
        usage: "Search.idastar(Start, Next, Goal, H [, Opts])",
        doc: "iterative-deepening A*: depth first within a bound on g + h, raised each round",
    }
    Rbfs => rbfs::rbfs {
        function: "Search.rbfs", informed: true, needs_costs: true, complete: true,
        optimal: Some("cheapest path if h never overestimates"),
        f: FOf::G_PLUS_H, order: Order::AsTaken, goal_test: GoalTest::Expanded, keeps_first_path: false, parallel: false,
        options: &[],
        usage: "Search.rbfs(Start, Next, Goal, H [, Opts])",
        doc: "recursive best-first search: A*'s answer in memory linear in the depth",
    }
    Greedy => best_first::greedy {
        function: "Search.greedy", informed: true, needs_costs: false, complete: true, optimal: None,
        f: FOf::H, order: Order::ByF, goal_test: GoalTest::Expanded, keeps_first_path: true, parallel: false,
        options: &[],
        usage: "Search.greedy(Start, Next, Goal, H [, Opts])",
        doc: "greedy best-first search: least H first; some path, quickly when H is good",
    }
    Beam => beam::beam {
        function: "Search.beam", informed: true, needs_costs: false, complete: false, optimal: None,
        f: FOf::H, order: Order::AsTaken, goal_test: GoalTest::Generated, keeps_first_path: true, parallel: false,
        options: &["width"],
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
        // The enum and the table are made by one macro, in the same order (the search's hot
        // paths read their row: best-first reads f at every push).
        &TABLE[self as usize]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_algorithm_is_at_its_row() {
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.algorithm as usize, i, "{}", row.name());
            assert_eq!(row.algorithm.row().function, row.function);
        }
    }
}
