//! The algorithm table (crates/core/src/search/algorithms.rs) is the one list of search algorithms: the
//! builtins are made from it, and these tests fail when the docs' tables or the oracle's list
//! (tests/oracle/search_oracle.py) disagree with it (issue 44).

use crate::common::{fails_with, prints};
use ds::search::{COMMON_OPTIONS, TABLE};
use std::fs;
use std::path::PathBuf;

fn read(path: &str) -> String {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The rows of the first Markdown table after `heading` in docs/search.md, as cells.
fn docs_table(heading: &str) -> Vec<Vec<String>> {
    let text = read("docs/search.md");
    let at = text.find(heading).unwrap_or_else(|| panic!("docs/search.md has no `{heading}`"));
    let rows = text[at..].lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|'));
    let cells = |l: &str| l.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect::<Vec<_>>();
    rows.skip(2).map(cells).collect()
}

fn names() -> Vec<String> {
    TABLE.iter().map(|r| r.name().to_string()).collect()
}

#[test]
fn the_docs_list_the_algorithms_of_the_table() {
    let rows = docs_table("## The algorithms");
    let documented: Vec<String> = rows.iter().map(|r| r[0].trim_matches('`').to_string()).collect();
    assert_eq!(documented, names(), "docs/search.md, \"The algorithms\": one row per algorithm, in the table's order");
    for (row, cells) in TABLE.iter().zip(&rows) {
        if let Some(best) = row.optimal {
            assert!(cells[3].contains(best), "docs/search.md: `{}` finds \"{best}\", not {:?}", row.name(), cells[3]);
        }
    }
}

#[test]
fn the_docs_say_when_each_algorithm_tests_for_the_goal_as_its_row_does() {
    use ds::search::GoalTest;
    let rows = docs_table("## The algorithms");
    for (row, cells) in TABLE.iter().zip(&rows) {
        let said = match row.goal_test {
            GoalTest::Generated => "when generated",
            GoalTest::Expanded => "when expanded",
        };
        assert!(cells[2].contains(said), "docs/search.md: `{}` tests the goal {said}, not {:?}", row.name(), cells[2]);
    }
}

#[test]
fn the_docs_give_each_option_to_the_algorithms_that_take_it() {
    let rows = docs_table("## Options");
    let users = |option: &str| -> String {
        let row = rows.iter().find(|r| r[0] == format!("`{option}`"));
        row.unwrap_or_else(|| panic!("docs/search.md, \"Options\": no row for `{option}`"))[1].clone()
    };
    for row in TABLE {
        for option in row.options {
            assert!(
                users(option).contains(&format!("`{}`", row.name())),
                "docs/search.md, \"Options\": `{option}` is for `{}` (the algorithm table)",
                row.name()
            );
        }
    }
    // an algorithm the docs name for an option takes it
    for cells in &rows {
        let option = cells[0].trim_matches('`');
        for row in TABLE {
            if cells[1].contains(&format!("`{}`", row.name())) {
                let takes = row.options.contains(&option) || COMMON_OPTIONS.contains(&option);
                assert!(takes, "docs/search.md says `{option}` is for `{}`, which does not take it", row.name());
            }
        }
    }
}

#[test]
fn the_oracle_models_the_algorithms_of_the_table() {
    let text = read("tests/oracle/search_oracle.py");
    let at = text.find("ALGORITHMS = {").expect("search_oracle.py has its ALGORITHMS");
    let modelled: Vec<String> = text[at..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('}'))
        .filter_map(|l| l.trim().strip_prefix('"').and_then(|l| l.split('"').next()).map(str::to_string))
        .collect();
    assert_eq!(modelled, names(), "tests/oracle/search_oracle.py's ALGORITHMS and the algorithm table differ");
}

#[test]
fn every_row_is_a_builtin_with_its_docs() {
    for row in TABLE {
        let b = ds::builtins::lookup_function(row.function).unwrap_or_else(|| panic!("no builtin {}", row.function));
        assert_eq!((b.usage, b.doc), (row.usage, row.doc), "{}", row.function);
        let h = if row.informed { ", H" } else { "" };
        assert!(row.usage.starts_with(&format!("{}(Start, Next, Goal{h}", row.function)), "{}", row.usage);
    }
}

#[test]
fn an_algorithm_takes_the_options_of_its_row() {
    let next = "def next(n) : return [[\"inc\", n + 1, 1], [\"dbl\", n * 2, 3]]\n";
    prints(&format!("{next}out Search.dfs(1, next, 10, {{\"limit\": 4}})"), "10\n");
    fails_with(
        &format!("{next}Search.bfs(1, next, 10, {{\"limit\": 4}})"),
        "`limit` is an option of `Search.dfs`, `Search.iddfs`, `Search.explore`, not of `Search.bfs`",
    );
    fails_with(&format!("{next}Search.ucs(1, next, 10, {{\"max_state\": 4}})"), "(did you mean `max_states`?)");
}
