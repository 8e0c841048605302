//! Regular expressions for `S.split`, `S.search` and `S.replaceRegexp`, with their cost kept
//! under the limits.
//!
//! The `regex` crate matches in linear time, but "linear" is in the haystack's length times the
//! size of the compiled pattern: when its lazy DFA thrashes (`[ab]*a[ab]{200}c` over random
//! text) it falls back to a simulation that costs about that product, and one call cannot be
//! interrupted. `[ab]*a[ab]{10000}c` over a 100 KB string takes some 13 seconds. So:
//!
//! - each call is charged `len * states / 256` steps up front (`--max-steps`), from the
//!   pattern's NFA size and the string's length: the worst case, not the usual cost;
//! - a call whose worst case is small runs at once; in the native build a bigger one runs on a
//!   worker thread while the interpreter waits and watches Ctrl-C and `--timeout`
//!   (`regexp_worker.rs`);
//! - results are bounded: at most 50 million pieces, strings of at most 100 MB.

use crate::eval::{fail, Interp, R};
use crate::value::{Str, MAX_TEXT};
use ds_syntax::Span;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A compiled pattern and the size of its NFA (the cost of a byte in the worst case).
pub struct Pattern {
    re: regex::Regex,
    states: u64,
}

/// The patterns an interpreter compiled last (its own: compiling is charged as steps).
type Cache = rustc_hash::FxHashMap<String, Rc<Pattern>>;

/// The most pieces `split` may make.
pub const MAX_PIECES: usize = 50_000_000;
/// Worst-case work (bytes times NFA states) done at once on the interpreter's thread: about a
/// tenth of a second at worst.
const INLINE_WORK: u64 = 1 << 24;
/// Worst-case work per step charged.
const WORK_PER_STEP: u64 = 256;
/// The size limit of a compiled pattern.
const SIZE_LIMIT: usize = 1 << 22;

/// A compiled regular expression, from a small cache (scripts split and search in loops).
/// Compiling counts as work: one step per 64 NFA states.
pub fn compile(it: &mut Interp, pattern: &str, fname: &str, span: Span) -> R<Rc<Pattern>> {
    if let Some(p) = it.kept::<Cache>().get(pattern) {
        return Ok(p.clone());
    }
    let re = regex::RegexBuilder::new(pattern).size_limit(SIZE_LIMIT).build().or_else(|e| {
        let why = e.to_string();
        let why = why.lines().last().unwrap_or("").trim().trim_start_matches("error: ");
        fail(span, format!("`{fname}`: `{pattern}` is not a valid regular expression: {why}"))
    })?;
    let states = nfa_states(pattern).unwrap_or(pattern.len()) as u64;
    let meter = it.meter();
    meter.add(states / 64);
    it.charge(&meter, span)?;
    let p = Rc::new(Pattern { re, states });
    let cache = it.kept::<Cache>();
    if cache.len() >= 64 {
        cache.clear();
    }
    cache.insert(pattern.to_string(), p.clone());
    Ok(p)
}

/// The number of states of the pattern's forward NFA, compiled as the `regex` crate does.
fn nfa_states(pattern: &str) -> Option<usize> {
    use regex_automata::nfa::thompson;
    let config = thompson::Config::new().nfa_size_limit(Some(SIZE_LIMIT)).shrink(false);
    thompson::Compiler::new().configure(config).build(pattern).ok().map(|nfa| nfa.states().len())
}

/// Runs `work` with the pattern over `text`, within the limits (see the module's comment).
/// `work` gets a flag that turns true when its result is no longer wanted.
pub fn run<T: Send + 'static>(
    it: &mut Interp,
    p: &Pattern,
    text: &Str,
    span: Span,
    work: impl FnOnce(&regex::Regex, &str, &AtomicBool) -> T + Send + 'static,
) -> R<T> {
    let cost = (text.len() as u64 + 1).saturating_mul(p.states + 1);
    let meter = it.meter();
    meter.add(cost / WORK_PER_STEP);
    it.charge(&meter, span)?;
    // Without threads (the core in a browser, whose Stop ends the whole worker) the long search
    // runs here too: its cost was charged above.
    if cost > INLINE_WORK && it.spawn.is_some() {
        return super::regexp_worker::run(it, p.re.clone(), text.clone(), span, work);
    }
    Ok(work(&p.re, text, &AtomicBool::new(false)))
}

/// `split`: the pieces between the matches, at most `max`; Err when there would be more than
/// `MAX_PIECES`.
pub fn split(re: &regex::Regex, s: &str, max: usize, cancel: &AtomicBool) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for piece in re.splitn(s, max) {
        if out.len() >= MAX_PIECES {
            return Err(format!("`split` would make more than {MAX_PIECES} pieces"));
        }
        if out.len() % 4096 == 0 && (cancel.load(Ordering::Relaxed) || ds_base::guard::memory::exceeded()) {
            return Err("cancelled".into());
        }
        out.push(piece.to_string());
    }
    Ok(out)
}

/// `replaceRegexp`: every match replaced by `format` (in the `regex` crate's syntax); Err when
/// the result would be longer than `MAX_TEXT`.
pub fn replace(re: &regex::Regex, s: &str, format: &str, cancel: &AtomicBool) -> Result<String, String> {
    let too_long = || format!("`replaceRegexp` would make a string longer than {} MB", MAX_TEXT / 1_000_000);
    let refs = format.matches('$').count();
    let mut out = String::new();
    let mut last = 0;
    let mut step = |m: regex::Match<'_>, i: usize, out: &mut String| {
        if i % 4096 == 4095 && cancel.load(Ordering::Relaxed) {
            return Err("cancelled".to_string());
        }
        // Each `$` of the format adds at most the match itself.
        let most = format.len().saturating_add(refs.saturating_mul(m.len()));
        if out.len() + (m.start() - last) + most > MAX_TEXT {
            return Err(too_long());
        }
        out.push_str(&s[last..m.start()]);
        last = m.end();
        Ok(())
    };
    if refs == 0 {
        // No `$`: the format is plain text, and the matches need no groups (a faster search).
        for (i, m) in re.find_iter(s).enumerate() {
            step(m, i, &mut out)?;
            out.push_str(format);
        }
    } else {
        for (i, caps) in re.captures_iter(s).enumerate() {
            let Some(m) = caps.get(0) else { continue };
            step(m, i, &mut out)?;
            caps.expand(format, &mut out);
        }
    }
    if out.len() + (s.len() - last) > MAX_TEXT {
        return Err(too_long());
    }
    out.push_str(&s[last..]);
    Ok(out)
}
