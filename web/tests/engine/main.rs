//! The playground's engine on the native host, in one test binary: the runner given requests as
//! the page sends them, the golden scripts through it, and the explorer's API.

mod common;
mod explore;
mod golden;
mod runner;
