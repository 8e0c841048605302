//! `ds explore`'s server (docs/explorer.md): the state space of a script that ran, answered to
//! a browser on 127.0.0.1 with the page built into the binary, as Stateright's explorer does.
//! The answers are the core's (`ds_core::explore`): `server` turns HTTP requests that `http`
//! reads into them, and `web` holds the page.

mod http;
mod server;
mod web;

pub use server::{bind, port, Server};

use ds_core::explore::Options;

/// Serves the state space of the script `file` that `session` has run; the exit status (2 when
/// the options name nothing that can be explored).
pub fn serve(
    session: &mut ds_core::Session,
    file: &str,
    options: &Options,
    server: &Server,
    timeout: Option<std::time::Duration>,
) -> u8 {
    use std::io::Write;
    // A `--start` expression, then each request, gets `--timeout` anew.
    session.interp.limits_mut().deadline = timeout.and_then(|t| std::time::Instant::now().checked_add(t));
    let mut explorer = match ds_core::explore::open(session, file, &options.names, options.max_states) {
        Ok(e) => e,
        Err(message) => {
            ds_base::eprintln_safe!("{}", message.trim_end());
            return 2;
        }
    };
    // Ctrl-C (or SIGTERM, SIGHUP) ends the process, also when it was started with SIGINT
    // ignored (a background job); what the demons printed is flushed after every request, so
    // nothing is lost.
    ds_native::host::signals::set_busy(false);
    ds_native::host::signals::set_idle_message("ds explore: stopped\n");
    if !ds_native::host::signals::install(explorer.interp().interrupt.clone(), ds_native::host::signals::WhenIdle::Exit)
    {
        ds_base::eprintln_safe!("note: Ctrl-C may not stop the explorer; end it by its process id");
    }
    ds_base::eprintln_safe!(
        "ds explore: serving the states of {file} on http://127.0.0.1:{}/ (Ctrl-C stops)",
        port(server)
    );
    let served = server::serve(server, &mut explorer, timeout);
    let _ = explorer.interp().out.flush();
    match served {
        Ok(()) => 0,
        Err(message) => {
            ds_base::eprintln_safe!("error: {message}");
            1
        }
    }
}
