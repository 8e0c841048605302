//! `{"record": True}` and `Search.trace()` (docs/search.md, "Recording a search"): the events of
//! searches small enough to work out by hand, in the order the algorithms documented there
//! must make them.

use crate::common::{fails_with, prints};

/// Prints each event of the last search: event, state, parent, g, h, f, frontier.
const SHOW: &str = "for E in Search.trace() : out E[\"event\"], E[\"state\"], E[\"parent\"], E[\"g\"], E[\"h\"], E[\"f\"], E[\"frontier\"]\n";

/// S -1-> A -1-> B -5-> G and S -3-> B.
const SHORTCUT: &str = "def next(n) {\n\
   if n == \"S\" : return [[\"a\", \"A\", 1], [\"b\", \"B\", 3]]\n\
   if n == \"A\" : return [[\"b\", \"B\", 1]]\n\
   if n == \"B\" : return [[\"g\", \"G\", 5]]\n\
   return []\n\
}\n";

#[test]
fn astar_with_an_inconsistent_heuristic_reopens_a_state() {
    // S -1-> A -1-> B -5-> G and S -3-> B; h(A) = 4 is admissible (A is 6 from G) but not
    // consistent, so B is first expanded by the dear way (g 3), then reopened by way of A (g 2).
    // Ids: S 0, A 1, B 2, G 3.
    let code = format!(
        "{SHORTCUT}def h(n) : return n == \"A\" ? 4 : 0\n\
         out Search.astar(\"S\", next, \"G\", h, {{\"record\": True}}), Search.stats()[\"cost\"]\n{SHOW}"
    );
    prints(
        &code,
        "G 7\n\
         push 0 Undef 0 0 0 1\n\
         expand 0 Undef 0 0 0 0\n\
         push 1 0 1 4 5 1\n\
         push 2 0 3 0 3 2\n\
         expand 2 0 3 0 3 1\n\
         push 3 2 8 0 8 2\n\
         expand 1 0 1 4 5 1\n\
         reopen 2 1 2 0 2 2\n\
         expand 2 1 2 0 2 1\n\
         push 3 2 7 0 7 1\n\
         goal 3 2 7 0 7 0\n",
    );
}

#[test]
fn idastar_prunes_past_each_bound_and_raises_it() {
    // A line 0 -> 1 -> 2, goal 2, h = 0: the bounds are 0, 1, 2; a state past the bound is
    // pruned, and each round starts again from the start (tested once, over all rounds).
    let code = format!(
        "def next(n) : return n < 2 ? [[\"inc\", n + 1]] : []\n\
         out Search.idastar(0, next, 2, (n) => 0, {{\"record\": True}})\n{SHOW}"
    );
    prints(
        &code,
        "2\n\
         push 0 Undef 0 0 0 1\n\
         expand 0 Undef 0 0 0 0\n\
         push 1 0 1 0 1 1\n\
         prune 1 0 1 0 1 0\n\
         expand 0 Undef 0 0 0 0\n\
         push 1 0 1 0 1 1\n\
         expand 1 0 1 0 1 0\n\
         push 2 1 2 0 2 1\n\
         prune 2 1 2 0 2 0\n\
         expand 0 Undef 0 0 0 0\n\
         push 1 0 1 0 1 1\n\
         expand 1 0 1 0 1 0\n\
         push 2 1 2 0 2 1\n\
         goal 2 1 2 0 2 0\n",
    );
}

#[test]
fn ucs_records_no_heuristic_and_greedy_orders_by_h() {
    let code = format!(
        "def next(n) : return n < 2 ? [[\"inc\", n + 1]] : []\n\
         Search.ucs(0, next, 1, {{\"record\": True}})\n{SHOW}\
         Search.greedy(0, next, 1, (n) => 5 - n, {{\"record\": True}})\n{SHOW}"
    );
    prints(
        &code,
        "push 0 Undef 0 Undef 0 1\n\
         expand 0 Undef 0 Undef 0 0\n\
         push 1 0 1 Undef 1 1\n\
         goal 1 0 1 Undef 1 0\n\
         push 0 Undef 0 5 5 1\n\
         expand 0 Undef 0 5 5 0\n\
         push 1 0 1 4 4 1\n\
         goal 1 0 1 4 4 0\n",
    );
}

#[test]
fn a_search_without_record_has_no_trace_and_the_option_is_checked() {
    fails_with("Search.bfs(0, (n) => [], 1)\nSearch.trace()\n", "run it with the option {\"record\": True}");
    fails_with("Search.bfs(0, (n) => [], 1, {\"recrod\": True})\n", "did you mean `record`?");
    fails_with("Search.bfs(0, (n) => [], 1, {\"record\": True, \"threads\": 2})\n", "`record` need `threads` 1");
}

#[test]
fn trace_with_a_view_draws_each_event_s_state_once() {
    // 1 -> 2 by inc and again by dbl (a duplicate); 2 -> 3, the goal, found when generated. The
    // view counts its calls: seven events name three states, and each is drawn once; without
    // the view the events have their eight keys only.
    let code = "var Calls = [0]\nglobal Calls\n\
        def next(n) : return n < 3 ? [[\"inc\", n + 1], [\"dbl\", n * 2]] : []\n\
        def view(n) { Calls[0] = Calls[0] + 1\n return \"<\" + n + \">\" }\n\
        Search.bfs(1, next, 3, {\"record\": True})\n\
        for E in Search.trace(view) : out E[\"event\"], E[\"state\"], E[\"view\"]\n\
        out Calls[0], Search.trace()[0].keys().size()\n";
    prints(code, "push 0 <1>\nexpand 0 <1>\npush 1 <2>\nduplicate 1 <2>\nexpand 1 <2>\npush 2 <3>\ngoal 2 <3>\n3 10\n");
}

#[test]
fn trace_with_a_view_says_what_is_wrong_with_it() {
    let search = "Search.bfs(0, (n) => n < 2 ? [n + 1] : [], 2, {\"record\": True})\n";
    fails_with(
        &format!("{search}Search.trace(5)\n"),
        "argument 1 of `Search.trace` (View) must be a demon or a lambda",
    );
    fails_with(
        &format!("{search}Search.trace((n) => n * 10)\n"),
        "the view must return a picture (SVG), a string or a graph, not a number (state 0)",
    );
}

/// Prints each event of the last search: its algorithm, event, state and rank.
const RANKS: &str = "for E in Search.trace() : out E[\"algorithm\"], E[\"event\"], E[\"state\"], E[\"rank\"]\n";

#[test]
fn bfs_ranks_its_entries_first_in_first_out() {
    // 1 -> 2 (inc) and 2 again (dbl, a duplicate) -> 3: each entry ranks by when it came in.
    let code = format!(
        "def next(n) : return n < 3 ? [[\"inc\", n + 1], [\"dbl\", n * 2]] : []\n\
         Search.bfs(1, next, 3, {{\"record\": True}})\n{RANKS}"
    );
    prints(
        &code,
        "bfs push 0 0\n\
         bfs expand 0 Undef\n\
         bfs push 1 2\n\
         bfs duplicate 1 Undef\n\
         bfs expand 1 Undef\n\
         bfs push 2 5\n\
         bfs goal 2 Undef\n",
    );
}

#[test]
fn astar_ranks_by_f_then_h_then_arrival_and_a_reopened_state_by_its_new_f() {
    // The search of `astar_with_an_inconsistent_heuristic_reopens_a_state`; its entries by
    // (f, h, arrival): S (0, 0), B reopened (2, 0), B (3, 0), A (5, 4), G by A (7, 0), G (8, 0).
    let code = format!(
        "{SHORTCUT}Search.astar(\"S\", next, \"G\", (n) => n == \"A\" ? 4 : 0, {{\"record\": True}})\n\
         for E in Search.trace() : if E[\"event\"] == \"push\" | E[\"event\"] == \"reopen\" : out E[\"event\"], E[\"state\"], E[\"rank\"]\n"
    );
    prints(&code, "push 0 0\npush 1 3\npush 2 2\npush 3 5\nreopen 2 1\npush 3 4\n");
}

#[test]
fn a_record_names_its_algorithm_also_outside_the_table() {
    let code = "def next(n) : return n < 2 ? [[\"inc\", n + 1]] : []\n\
                Search.hill(0, next, (n) => n, {\"record\": True})\n\
                out Search.trace()[0][\"algorithm\"]\n\
                Search.anneal(0, next, (n) => n, {\"record\": True, \"steps\": 3})\n\
                out Search.trace()[0][\"algorithm\"]\n\
                Search.bibfs(0, next, 2, {\"prev\": (n) => [n - 1], \"record\": True})\n\
                out Search.trace()[0][\"algorithm\"]\n\
                Search.idastar(0, next, 2, (n) => 0, {\"record\": True})\n\
                out Search.trace()[0][\"algorithm\"]\n";
    prints(code, "hill\nanneal\nbibfs\nidastar\n");
}
