//! Text made for output — `out`, `X.string()`, `A.join()`, file writes — bounded like every
//! string by `value::MAX_TEXT` (100 MB), and stopped by the limits of the run while it is
//! being made: printing a 20-million-item array is one statement, but far from one step.

use super::{fail, Interp, Meter, R};
use crate::value::display::{write_bounded, Cut};
use crate::value::{Value, MAX_TEXT};
use crate::world::World;
use ds_syntax::Span;

/// What the output of a script does now (`Interp::quiet`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Quiet {
    /// It goes out.
    #[default]
    Off,
    /// It is dropped: a worker running the script up to its search.
    Discard,
    /// It is an error: `Next` or `Goal` expanding for the commit of another thread.
    Refuse,
}

impl Interp {
    /// Whether output may be written now: `Ok(false)` to drop it, an error while expanding
    /// for another thread.
    pub fn may_write(&self, what: &str, span: Span) -> R<bool> {
        match self.quiet {
            Quiet::Off => Ok(true),
            Quiet::Discard => Ok(false),
            Quiet::Refuse => fail(
                span,
                format!(
                    "a search on several threads or processes cannot {what} from `Next` or the goal: they must only compute (use {{\"threads\": 1}})"
                ),
            ),
        }
    }
}

/// Text being made; its work is counted on a meter (a unit per 256 bytes).
pub struct Text {
    pub s: String,
    meter: Meter,
}

impl Text {
    /// Appends a piece of text.
    pub fn push(&mut self, piece: &str, span: Span) -> R<()> {
        if self.s.len() + piece.len() > MAX_TEXT {
            return too_long(span);
        }
        self.s.push_str(piece);
        if self.meter.tick(piece.len() as u64 / 256 + 1) {
            return self.stopped(span);
        }
        Ok(())
    }

    /// Appends the printed form of a value.
    pub fn value(&mut self, v: &Value, world: &World, span: Span) -> R<()> {
        let meter = self.meter.clone();
        match write_bounded(&mut self.s, v, world, &mut |work| meter.tick(work)) {
            Ok(()) => Ok(()),
            Err(Cut::TooLong) => too_long(span),
            Err(Cut::Stopped) => self.stopped(span),
        }
    }

    fn stopped(&self, span: Span) -> R<()> {
        self.meter.check(span)?;
        fail(span, "stopped while printing")
    }
}

fn too_long(span: Span) -> R<()> {
    fail(span, format!("the printed text would be longer than {} MB", MAX_TEXT / 1_000_000))
}

impl Interp {
    /// Starts text for output.
    pub fn text_start(&self) -> Text {
        Text { s: String::new(), meter: self.meter() }
    }

    /// The text made, its work added to the script's steps.
    pub fn text_end(&mut self, t: Text, span: Span) -> R<String> {
        self.charge(&t.meter, span)?;
        Ok(t.s)
    }

    /// After an item of the text ran a search that a limit stopped (so the limits now give
    /// the script a little more to report, `grant_grace`): the work so far is charged and the
    /// rest of the text is made under the limits in force, not those of the line's start.
    pub fn text_renew(&mut self, t: &mut Text, span: Span) -> R<()> {
        self.charge(&t.meter, span)?;
        t.meter = self.meter();
        Ok(())
    }

    /// The printed form of one value, for output.
    pub fn text_for_output(&mut self, v: &Value, span: Span) -> R<String> {
        let mut t = self.text_start();
        t.value(v, &self.world, span)?;
        self.text_end(t, span)
    }
}

/// How a failed write of the output ends the run: a pipe whose reader has gone
/// (`ds x | head -1`) ends it quietly with exit status 141, as SIGPIPE would; anything else
/// (a full disk, a closed output) is an error.
pub fn broken_pipe(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::BrokenPipe
}

/// The exit status of a run whose output went to a pipe that was closed.
pub const BROKEN_PIPE_STATUS: u8 = 141;
