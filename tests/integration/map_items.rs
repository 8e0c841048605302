//! Items of maps and arrays read as numbers inside arithmetic (`eval/closure/item.rs`) and
//! stored in place (`M[k] = v`, `eval/closure/index.rs`), with keys that read nothing else
//! stored without moving the map out of its cell (`Map::insert_shared`). Each case gives what
//! the general closures gave before these paths (checked against main's binary): where an
//! item is not a number the arithmetic gives up and the general rules answer, errors included.

use crate::common::{ds_file, fails_with, prints};

#[test]
fn number_keys_update_in_place_and_iterate_in_key_order() {
    let src = "var M = {}\nvar K = 0\nwhile K < 12 {\nM[K * 7 % 12] = K\nK = K + 1\n}\n\
               M[-1] = 5\nM[0.5] = 6\nM[-0] = M[0] + 100\nout M\n\
               out M[3] + 1, M[0.5] * 2, 1 + M[-1], M[3] > 4, M[3] < M[4]\n";
    prints(src, "{-1:5,0:100,0.5:6,1:7,2:2,3:9,4:4,5:11,6:6,7:1,8:8,9:3,10:10,11:5}\n10 12 6 True False\n");
}

#[test]
fn items_that_are_not_numbers_go_the_general_way() {
    // A string item joins, a string key (constant or variable) reads its number, an array
    // item that is a string joins, an index is truncated and counts from the end.
    prints(
        "var S = {\"a\": \"x\", \"b\": 2}\nvar B = \"b\"\nout S[\"a\"] + 1, S[\"b\"] + 1, 1 + S[B]\n\
         var A = [1, 2, 3, \"s\"]\nout A[0] + A[-1 + 0], A[2] * 2, A[3] + 1, A[1.9] + 1\n",
        "x1 3 3\n1s 6 s1 3\n",
    );
    // A map inside an array, a map used as its own key (hashing it reads the map).
    prints("var L = [{\"k\": 1}, {\"k\": 2}]\nout L[1][\"k\"] + 1\nvar T = {}\nT[T] = 1\nout T.size()\n", "3\n1\n");
    fails_with("var M = {1: 2}\nout M[99] + 1\n", "cannot add None and a number");
    fails_with("var A = [1]\nout A[5] * 2\n", "`*` needs two numbers, not None");
}

#[test]
fn string_keys_globals_demons_and_compound_updates() {
    // A key longer than 4 KB counts as work: the general read takes it.
    prints("var Long = \"x\".repeat(5000)\nvar C = {}\nC[Long] = 1\nC[Long] = C[Long] + 1\nout C[Long]\n", "2\n");
    prints(
        "var G = {}\nG[1] = 1\nglobal G\ndef bump(K) { G[K] = G[K] + 1\nreturn G[K] * 2 }\nout bump(1), bump(1), G\n",
        "4 6 {1:3}\n",
    );
    prints(
        "def count() {\nvar D = {}\nvar I = 0\nwhile I < 20 {\nvar Key = \"k\" + I % 3\n\
         if !D.is(Key) : D[Key] = 0\nD[Key] = D[Key] + I\nD[Key] += 1\nI++\n}\nreturn D\n}\nout count()\n\
         var F = {1: 2}\nF[1] += 1\nF[1]++\nout F\n",
        "{k0:70,k1:77,k2:63}\n{1:4}\n",
    );
}

#[test]
fn a_map_update_counts_the_steps_it_counted_before() {
    // The counts and places of main's binary before these paths.
    let src = "var M = {0: 0, 1: 0}\nvar I = 0\nwhile I < 10 {\n   M[I % 2] = M[I % 2] + 1\n   I = I + 1\n}\nout M\n";
    for (limit, place) in [(20, "3:1"), (21, "4:4"), (22, "5:4")] {
        let r = ds_file("map_steps.ds", src, &["--max-steps", &limit.to_string()]);
        assert!(r.stderr.contains(&format!("step limit of {limit} reached")), "{}", r.stderr);
        assert!(r.stderr.contains(&format!("map_steps.ds:{place}")), "{limit}: {}", r.stderr);
    }
    assert_eq!(ds_file("map_steps.ds", src, &[]).stdout, "{0:5,1:5}\n");
}
