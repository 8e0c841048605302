//! Programs written for the original, with what the original printed (`tests/original/`, see
//! its README): each prints what the original printed, or differs for a reason docs/language.md
//! documents ("Decisions", or "Differences from the original"), named below. A probe whose
//! output changes, a reason left for a probe that no longer differs, or a missing probe or
//! output file fails the test. The tests after it pin ds's side of the documented differences.

use crate::common::{ds_eval, prints};
use std::path::PathBuf;
use std::process::Command;

/// The probes whose standard output differs from the original's, and why ("decision N" is
/// decision N of docs/language.md).
const DIFFERENCES: &[(&str, &str)] = &[
    ("01_out_numbers", "decision 5 (shortest numbers); decision 9 (an error stops the run)"),
    ("02_out_strings", "decisions 5 and 6"),
    ("03_out_arrays_maps", "decision 5"),
    ("04_out_logic", "decision 5"),
    ("09_for_arrays_maps_ranges", "decision 7"),
    ("11_exists", "decision 1; no duplicate-declaration warning for an exists variable"),
    ("12_edges_nodes_decl", "declaring an edge type or a node again prints nothing"),
    ("13_edge_set_forms", "decision 8"),
    ("14_edge_read", "a `!` or `?` before a single operand reads as in an array of one"),
    ("15_logic_truth_tables", "the min/max algebra of docs/language.md, \"Logic\" (the probe's is a guess)"),
    ("17_string_concat", "decisions 5 and 6"),
    ("18_array_methods", "writing an array item out of range is an error"),
    ("19_math", "decision 5"),
    ("21_lambdas", "decision 9; a logic comparator sorts; a lambda prints as written"),
    ("23_error_syntax", "decision 9"),
    ("24_error_undefined_var", "decision 9"),
    ("25_error_arity", "decision 9"),
    ("26_error_arity_builtin", "decision 9"),
    ("27_error_runtime", "decision 9"),
    ("28_eqv_operator", "decision 2"),
    ("29_demon_named_in", "decision 3"),
    ("30_forward_reference", "decision 3"),
    ("31_deep_recursion_crash", "decision 10"),
    ("32_graph_print", "G.str() names a target in another graph Graph.node"),
    ("33_graph_dot", "the DOT text is ds's own"),
    ("34_newline_bracket_quirk", "decision 4"),
    ("35_printf_percent", "decision 11"),
    ("37_maps", "a key written twice in a map literal is an error"),
    ("38_types_conversions", "decisions 5 and 13; numbers compare exactly"),
    ("39_graph_functions", "G.path(rel, N, M) works on a graph"),
    ("40_graph_var_restore_verbose", "decision 8"),
];

fn probes_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/original")
}

#[test]
fn every_probe_prints_what_the_original_did_or_differs_for_a_documented_reason() {
    let dir = probes_dir();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("the probes are missing: {}: {e}", dir.display()));
    let mut probes: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "ds")).collect();
    probes.sort();
    assert!(probes.len() >= 40, "the probes are missing: {}", probes.len());
    for (name, _) in DIFFERENCES {
        assert!(dir.join(format!("{name}.ds")).is_file(), "a reason is given for {name}, a probe that is not there");
    }
    let mut wrong = Vec::new();
    for probe in &probes {
        let name = probe.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let out_file = probe.with_extension("out");
        let want = std::fs::read_to_string(&out_file)
            .unwrap_or_else(|e| panic!("what the original printed is missing: {}: {e}", out_file.display()));
        let out = Command::new(env!("CARGO_BIN_EXE_ds")).arg(probe).current_dir(&dir).output().expect("run ds");
        let same = String::from_utf8_lossy(&out.stdout) == want;
        let reason = DIFFERENCES.iter().find(|(n, _)| *n == name);
        match (same, reason) {
            (true, Some(_)) => wrong.push(format!("{name}: prints what the original did; drop its reason")),
            (false, None) => wrong.push(format!("{name}: differs from the original, with no documented reason")),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// 14_edge_read: a prefix before a single operand, on either side, as in an array of one.
#[test]
fn a_prefix_on_a_single_operand_reads_as_in_an_array() {
    let world = "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, c, d\na on b\nb !on c\n";
    // b on c is a stored False, a on c and a on d are Undef.
    prints(&format!("{world}out b on !c, b on [!c], a on !c, a on [!c]\n"), "True True False False\n");
    prints(&format!("{world}out a on ?d, a on [?d], ?d on a, [?d] on a, a on ?b\n"), "True True True True False\n");
}

/// 21_lambdas: a comparator giving a logic value sorts; a call goes to the builtin of its name.
#[test]
fn a_logic_comparator_sorts_and_a_builtin_comes_before_a_variable() {
    prints("var A = [3, 1, 2]\nout A.sort((a, b) => a > b), A.sort((a, b) => a < b)\n", "[3,2,1] [1,2,3]\n");
    let r = ds_eval("var range = (n) => n * 2\nout range(3)\n");
    assert_eq!((r.code, r.stdout.as_str()), (Some(0), "[0,1,2]\n"));
    assert!(r.stderr.contains("warning: `range(...)` calls the builtin function `range`, not the variable `range`"));
}

/// 01_out_numbers, 32_graph_print, 39_graph_functions.
#[test]
fn nan_graph_sentences_and_paths_on_a_graph() {
    prints("out Math.sqrt(-1)\n", "nan\n");
    let world = "edges on\nvar K = GRAPH(\"K\")\nK.nodes $t\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, c\n";
    prints(&format!("{world}a isa K=>$t\na on b\nb on c\nout G.str()\n"), "a isa K.$t . a on b . b on c . \n");
    prints(
        &format!("{world}a on b\nb on c\nout G.path(on, a, c), a.path(on, c), G.path(on, c, a)\n"),
        "True True Undef\n",
    );
}
