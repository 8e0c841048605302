//! The protocol's frames on standard input and output. ds reads them itself instead of using
//! lsp-server's stdio transport, which ends the server on the first malformed message and
//! allocates whatever Content-Length a message claims: here a frame that cannot be read gets a
//! JSON-RPC error answer (id null) and the server goes on with the next one.

use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, Message};
use serde_json::{json, Value};
use std::io::{self, BufRead, Read, Write};

/// The most one message may take; a longer one is skipped without being kept.
pub const MAX_MESSAGE: usize = 64 << 20;
/// The most one header line may take (a real one is some twenty bytes).
const MAX_HEADER_LINE: usize = 8 << 10;

/// JSON-RPC's "Parse error" and "Invalid Request".
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

/// A connection on standard input and output, and the thread that writes the answers (join it
/// after dropping the connection, so that every answer is out).
pub fn stdio() -> (Connection, std::thread::JoinHandle<()>) {
    let (to_server, from_reader) = bounded::<Message>(0);
    let (to_writer, from_server) = bounded::<Message>(0);
    std::thread::spawn(move || read_stdin(to_server));
    let writer = std::thread::spawn(move || {
        for message in from_server {
            if message.write(&mut io::stdout().lock()).is_err() {
                break;
            }
        }
    });
    (Connection { sender: to_writer, receiver: from_reader }, writer)
}

fn read_stdin(to_server: Sender<Message>) {
    let mut frames = Frames::new(io::stdin().lock());
    while let Ok(Some(frame)) = frames.next() {
        match frame {
            Ok(message) => {
                let is_exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if to_server.send(message).is_err() || is_exit {
                    return;
                }
            }
            Err(answer) => {
                // The same lock as the writer's, held for the whole frame: frames never mix.
                let body = answer.to_string();
                let mut out = io::stdout().lock();
                let _ = write!(out, "Content-Length: {}\r\n\r\n{body}", body.len()).and_then(|_| out.flush());
            }
        }
    }
}

/// What one frame gives: a message, or the error answer to send back for it.
pub type Frame = Result<Message, Value>;

/// The frames of a stream of `Content-Length` headers and bodies.
pub struct Frames<R> {
    input: R,
    /// The last frame was bad, so text before the next header is its rest, already answered.
    out_of_step: bool,
    /// The bytes still to drop of a message over `MAX_MESSAGE`.
    skip: u64,
}

impl<R: BufRead> Frames<R> {
    pub fn new(input: R) -> Frames<R> {
        Frames { input, out_of_step: false, skip: 0 }
    }

    /// The next frame; `None` at the end of the input.
    pub fn next(&mut self) -> io::Result<Option<Frame>> {
        if self.skip > 0 {
            // Read as it comes, a buffer at a time, and dropped: nothing of it is kept.
            let skipped = io::copy(&mut (&mut self.input).take(self.skip), &mut io::sink())?;
            if skipped < std::mem::take(&mut self.skip) {
                return Ok(None);
            }
        }
        let Some(length) = self.header()? else { return Ok(None) };
        let frame = match length {
            Err(problem) => Err(problem),
            Ok(n) if n > MAX_MESSAGE => {
                // Answered at once; the body is skipped before the next frame is read.
                self.skip = n as u64;
                let answer = format!(
                    "a message of {n} bytes is over ds lsp's limit of {} MiB: it is skipped",
                    MAX_MESSAGE >> 20
                );
                return Ok(Some(Err(error_answer(PARSE_ERROR, &answer, Value::Null))));
            }
            Ok(n) => {
                let mut body = vec![0; n];
                if let Err(e) = self.input.read_exact(&mut body) {
                    return if e.kind() == io::ErrorKind::UnexpectedEof { Ok(None) } else { Err(e) };
                }
                return Ok(Some(self.message(&body)));
            }
        };
        self.out_of_step = true;
        Ok(Some(frame.map_err(|m| error_answer(PARSE_ERROR, &m, Value::Null))))
    }

    /// Reads a header up to its empty line: the body's length, or what is wrong with the
    /// header; `None` at the end of the input.
    fn header(&mut self) -> io::Result<Option<Result<usize, String>>> {
        let mut length = None;
        let mut problem = None;
        loop {
            let Some(line) = self.line()? else { return Ok(None) };
            let mut line = line.as_str();
            if line.is_empty() {
                if length.is_none() && problem.is_none() {
                    // Blank lines between frames are not frames.
                    continue;
                }
                break;
            }
            let header_at = find_ignoring_case(line, "content-length:");
            if self.out_of_step {
                // The rest of a bad frame, already answered: dropped up to the next header.
                let Some(at) = header_at else { continue };
                line = &line[at..];
                self.out_of_step = false;
            } else if let Some(at) = header_at.filter(|&at| at > 0) {
                problem.get_or_insert_with(|| format!("text before a header: {:?}", &line[..at]));
                line = &line[at..];
            }
            match line.split_once(':') {
                Some((name, value)) if name.eq_ignore_ascii_case("Content-Length") => {
                    // Spaces around the value are allowed, as in HTTP.
                    match value.trim().parse::<usize>() {
                        Ok(n) => length = Some(n),
                        Err(_) => {
                            problem.get_or_insert_with(|| format!("Content-Length {:?} is not a length", value.trim()));
                        }
                    }
                }
                Some(_) => {}
                None => {
                    problem.get_or_insert_with(|| format!("a header line without a colon: {line:?}"));
                }
            }
        }
        Ok(Some(match (problem, length) {
            (Some(p), _) => Err(p),
            (None, Some(n)) => Ok(n),
            (None, None) => Err("a header without Content-Length".to_string()),
        }))
    }

    /// One line without its line end, at most `MAX_HEADER_LINE` bytes of it (the rest is read
    /// and dropped); `None` at the end of the input.
    fn line(&mut self) -> io::Result<Option<String>> {
        let mut bytes = Vec::new();
        let read = (&mut self.input).take(MAX_HEADER_LINE as u64).read_until(b'\n', &mut bytes)?;
        if read == 0 {
            return Ok(None);
        }
        if bytes.last() != Some(&b'\n') && read == MAX_HEADER_LINE {
            self.skip_line()?;
        }
        while matches!(bytes.last(), Some(b'\n' | b'\r')) {
            bytes.pop();
        }
        Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn skip_line(&mut self) -> io::Result<()> {
        loop {
            let buffer = self.input.fill_buf()?;
            if buffer.is_empty() {
                return Ok(());
            }
            match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    self.input.consume(at + 1);
                    return Ok(());
                }
                None => {
                    let n = buffer.len();
                    self.input.consume(n);
                }
            }
        }
    }

    /// The message of a body, or the error answer that says why it is none.
    fn message(&mut self, body: &[u8]) -> Frame {
        let parsed = std::str::from_utf8(body)
            .map_err(|e| format!("the message is not UTF-8: {e}"))
            .and_then(|text| serde_json::from_str::<Value>(text).map_err(|e| format!("the message is not JSON: {e}")));
        let value = match parsed {
            Ok(value) => value,
            Err(m) => {
                self.out_of_step = true;
                return Err(error_answer(PARSE_ERROR, &m, Value::Null));
            }
        };
        let id = value.get("id").filter(|id| id.is_number() || id.is_string()).cloned().unwrap_or(Value::Null);
        serde_json::from_value::<Message>(value).map_err(|e| {
            error_answer(INVALID_REQUEST, &format!("not a JSON-RPC request, notification or response: {e}"), id)
        })
    }
}

fn error_answer(code: i64, message: &str, id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": format!("ds lsp: {message}")}})
}

fn find_ignoring_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack.to_ascii_lowercase().find(needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut frames = Frames::new(input);
        std::iter::from_fn(|| frames.next().unwrap()).collect()
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    fn code(frame: &Frame) -> i64 {
        frame.as_ref().expect_err("an error answer")["error"]["code"].as_i64().unwrap()
    }

    #[test]
    fn a_bad_frame_is_answered_and_the_next_one_read() {
        let bad_bodies: [&[u8]; 4] =
            [b"{not json", br#"{"jsonrpc":"2.0","method":"x","params":"\ud800"}"#, b"\xff\xfe", b"[]"];
        for bad in bad_bodies {
            let mut input = format!("Content-Length: {}\r\n\r\n", bad.len()).into_bytes();
            input.extend_from_slice(bad);
            input.extend_from_slice(frame(EXIT).as_bytes());
            let got = frames(&input);
            assert_eq!(got.len(), 2, "{}", String::from_utf8_lossy(bad));
            let expected = if bad == b"[]" { INVALID_REQUEST } else { PARSE_ERROR };
            assert_eq!(code(&got[0]), expected, "{:?}", got[0]);
            assert!(matches!(&got[1], Ok(Message::Notification(n)) if n.method == "exit"));
        }
    }

    #[test]
    fn a_short_length_costs_one_answer_and_the_next_frame_is_read() {
        let input = format!("Content-Length: 5\r\n\r\n{EXIT}{}", frame(EXIT));
        let got = frames(input.as_bytes());
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(code(&got[0]), PARSE_ERROR);
        assert!(got[1].is_ok(), "{got:?}");
    }

    #[test]
    fn a_padded_length_is_read_and_a_wrong_one_answered() {
        let padded = format!("Content-Length:   {} \r\n\r\n{EXIT}", EXIT.len());
        assert!(frames(padded.as_bytes())[0].is_ok());
        let wrong = format!("Content-Length: 12x\r\n\r\n{}", frame(EXIT));
        let got = frames(wrong.as_bytes());
        assert_eq!(code(&got[0]), PARSE_ERROR);
        assert!(got.last().unwrap().is_ok(), "{got:?}");
    }

    #[test]
    fn a_huge_length_is_refused_without_taking_its_memory() {
        let input = format!("Content-Length: 99999999999999\r\n\r\n{EXIT}");
        let got = frames(input.as_bytes());
        assert_eq!(got.len(), 1, "the answer, then the input ends inside the skipped message: {got:?}");
        assert_eq!(code(&got[0]), PARSE_ERROR);
        let over = MAX_MESSAGE + 1;
        let mut input = format!("Content-Length: {over}\r\n\r\n").into_bytes();
        input.resize(input.len() + over, b' ');
        input.extend_from_slice(frame(EXIT).as_bytes());
        let got = frames(&input);
        assert_eq!(got.len(), 2);
        let message = got[0].as_ref().unwrap_err()["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains("over ds lsp's limit of 64 MiB: it is skipped"), "{message}");
        assert!(got[1].is_ok());
    }

    #[test]
    fn a_long_header_line_is_not_kept() {
        let mut input = vec![b'x'; 10 * MAX_HEADER_LINE];
        input.extend_from_slice(b"\r\n\r\n");
        input.extend_from_slice(frame(EXIT).as_bytes());
        let got = frames(&input);
        assert_eq!(code(&got[0]), PARSE_ERROR);
        assert!(got[1].is_ok(), "{got:?}");
    }
}
