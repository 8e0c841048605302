//! Where each thread (or process) of a parallel search spends its time (issue 17), for the
//! benchmark: the CPU time of the thread in each phase — the set-up before the search, the
//! expansion of its share of each level, the commit, the coding of messages between processes
//! — and the time it waited for the others. CPU time is the thread's own
//! (`CLOCK_THREAD_CPUTIME_ID`), so it holds on a loaded machine where the wall clock does not.
//!
//! Off unless the environment variable `DS_SEARCH_PHASES` is set; then each thread prints one
//! line on standard error when its part of a search ends. Nothing else reads it.

use std::cell::RefCell;
use std::sync::OnceLock;
use web_time::Instant;

/// What a thread is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Anything before the search (the script up to it) and between the phases below.
    Other,
    /// Expanding states (running `Next`, the goal tests, packing the successors).
    Expand,
    /// Committing a level in order (the duplicate check, storing new states, transitions).
    Commit,
    /// Encoding and decoding the messages of a round (processes).
    Code,
    /// Waiting for the other threads or processes (the level barrier, a round).
    Wait,
}

const PHASES: [Phase; 5] = [Phase::Other, Phase::Expand, Phase::Commit, Phase::Code, Phase::Wait];

struct Clock {
    phase: Phase,
    cpu_at: f64,
    wall_at: Instant,
    cpu: [f64; 5],
    wall: [f64; 5],
    /// Times the phase was entered.
    entered: [u64; 5],
}

thread_local! {
    static CLOCK: RefCell<Option<Clock>> = const { RefCell::new(None) };
}

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("DS_SEARCH_PHASES").is_some())
}

/// Starts the phase `phase` on this thread (ending the one before). The first call starts the
/// clock, counting all the thread's CPU time before it as `Other` (the set-up).
pub fn enter(phase: Phase) {
    if !enabled() {
        return;
    }
    CLOCK.with(|c| {
        let mut c = c.borrow_mut();
        let (cpu, wall) = (crate::hooks::thread_cpu(), Instant::now());
        let clock = c.get_or_insert_with(|| Clock {
            phase: Phase::Other,
            cpu_at: 0.0,
            wall_at: wall,
            cpu: [0.0; 5],
            wall: [0.0; 5],
            entered: [0; 5],
        });
        let i = clock.phase as usize;
        clock.cpu[i] += cpu - clock.cpu_at;
        clock.wall[i] += wall.duration_since(clock.wall_at).as_secs_f64();
        if phase != clock.phase {
            clock.entered[phase as usize] += 1;
        }
        (clock.phase, clock.cpu_at, clock.wall_at) = (phase, cpu, wall);
    });
}

/// Ends this thread's part of a search: prints its line (`who`: "thread 1", "process 0") and
/// resets the clock.
pub fn report(who: &str) {
    if !enabled() {
        return;
    }
    enter(Phase::Other);
    let Some(clock) = CLOCK.with(|c| c.borrow_mut().take()) else { return };
    let mut line = format!("phases {who}:");
    for p in PHASES {
        let i = p as usize;
        let name = format!("{p:?}").to_lowercase();
        line.push_str(&format!(
            " {name} {:.3} s CPU / {:.3} s wall ({}x);",
            clock.cpu[i], clock.wall[i], clock.entered[i]
        ));
    }
    let total: f64 = clock.cpu.iter().sum();
    line.push_str(&format!(" all {total:.3} s CPU"));
    eprintln!("{line}");
}
