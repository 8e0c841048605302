//! A small HTTP/1.1 server for the explorer, on std's `TcpListener` and `httparse`: one request a
//! connection (answered with `Connection: close`), with caps so that no client can grow the
//! server or hold it (docs/explorer.md, "Limits"). Each connection is read on a thread of its
//! own; the requests that parse are handed, one at a time, to the thread that called
//! `Server::serve` (the interpreter's), which answers them.

use serde_json::json;
use std::collections::{HashSet, VecDeque};
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// The most a request's header section (request line and headers) may take; past it, 431.
pub const MAX_HEAD: usize = 64 * 1024;
/// The most a request's body may declare; past it, 413 (the explorer reads no body, it only
/// skips it).
pub const MAX_BODY: u64 = 16 * 1024 * 1024;
/// How long a client has to send its whole request; past it, 408.
pub const READ_TIME: Duration = Duration::from_secs(10);
/// Connections being read or answered at once. One more closes the oldest that has not yet sent
/// its whole request (a client holding connections half-open cannot lock others out); when every
/// one waits for its answer, it is answered 503 at once.
pub const MAX_CONNECTIONS: usize = 64;
/// How long a request waits for the one running before it (the interpreter answers one at a
/// time) before it is answered 503: a demon that loops holds its own request, not the others.
pub const QUEUE_TIME: Duration = Duration::from_millis(700);
/// How often a connection waiting for its answer checks that its client is still there.
const WATCH_TIME: Duration = Duration::from_millis(50);
/// Headers a request may have (httparse fills a fixed array); past it, 431.
const MAX_HEADERS: usize = 100;
/// After answering, what the client still sends is read and dropped for this long (at most
/// `MAX_DRAIN` bytes), so that closing does not reset the connection before it reads the answer.
const DRAIN_TIME: Duration = Duration::from_secs(1);
const MAX_DRAIN: u64 = 4 * 1024 * 1024;

/// A request that parsed: what the explorer needs of it.
pub struct Request {
    pub method: String,
    /// The request target as sent (`/api/state/3?x=1`).
    pub target: String,
    /// The first Host header (`None` without one; an empty text when it is not UTF-8).
    pub host: Option<String>,
}

/// An answer: status, headers besides Content-Length and Connection, and body.
pub struct Response {
    status: u16,
    headers: Vec<(&'static str, &'static str)>,
    body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
        Response { status, headers: vec![("Content-Type", content_type)], body }
    }

    /// A JSON answer, never cached (the API's answers change as the exploration grows).
    pub fn json(status: u16, v: &serde_json::Value) -> Response {
        Response::new(status, "application/json; charset=utf-8", v.to_string().into_bytes())
            .with_header("Cache-Control", "no-store")
    }

    pub fn with_header(mut self, name: &'static str, value: &'static str) -> Response {
        self.headers.push((name, value));
        self
    }

    pub fn status(&self) -> u16 {
        self.status
    }

    fn refusal(status: u16, why: &str) -> Response {
        Response::json(status, &json!({ "error": why }))
    }

    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n", self.body.len()));
        out.write_all(head.as_bytes())?;
        out.write_all(&self.body)?;
        out.flush()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// A listening socket on 127.0.0.1.
pub struct Server {
    listener: TcpListener,
}

/// A parsed request, where its answer goes, and its number (`Running`).
type Job = (Request, mpsc::Sender<Response>, u64);

/// Which request the interpreter is answering, shared with the connections: a client that goes
/// away cancels its request (the interpreter's interrupt flag) if it runs, or has it skipped
/// if it has not started; the lock makes the two exclusive.
struct Running {
    /// The number of the request being answered (0: none), and the requests given up.
    state: Mutex<(u64, HashSet<u64>)>,
    interrupt: Arc<AtomicBool>,
}

impl Running {
    /// Starts request `id`, unless it was given up.
    fn start(&self, id: u64) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.1.remove(&id) {
            return false;
        }
        self.interrupt.store(false, Ordering::SeqCst);
        state.0 = id;
        true
    }

    fn end(&self) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.0 = 0;
        self.interrupt.store(false, Ordering::SeqCst);
    }

    /// Gives up request `id`: stops it if it runs, else it will not start. Whether it had started.
    fn give_up(&self, id: u64) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.0 == id {
            self.interrupt.store(true, Ordering::SeqCst);
            true
        } else {
            state.1.insert(id);
            false
        }
    }
}

/// The answers given on a connection's own thread, without the interpreter (`None`: ask it).
type AtOnce = Arc<dyn Fn(&Request) -> Option<Response> + Send + Sync>;

/// What the connections share: the queue of requests, the one running, the answers that need no
/// interpreter, and the connections still being read (to close the oldest when all are taken).
struct Shared {
    jobs: mpsc::Sender<Job>,
    running: Arc<Running>,
    at_once: AtOnce,
    reading: Mutex<VecDeque<(u64, TcpStream)>>,
    next: AtomicU64,
}

impl Server {
    pub fn bind(port: u16) -> io::Result<Server> {
        Ok(Server { listener: TcpListener::bind(("127.0.0.1", port))? })
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().map_or(0, |a| a.port())
    }

    /// Answers each request with `at_once` on the thread that read it, if it answers, else with
    /// `answer`, on this thread, one after another; `interrupt` stops `answer` (the interpreter's
    /// flag) when its client goes away. Returns only if the socket cannot be shared with the
    /// thread that accepts connections.
    pub fn serve(
        &self,
        interrupt: Arc<AtomicBool>,
        at_once: impl Fn(&Request) -> Option<Response> + Send + Sync + 'static,
        mut answer: impl FnMut(&Request) -> Response,
    ) -> io::Result<()> {
        let listener = self.listener.try_clone()?;
        let (jobs, incoming) = mpsc::channel::<Job>();
        let running = Arc::new(Running { state: Mutex::default(), interrupt });
        let shared = Arc::new(Shared {
            jobs,
            running: running.clone(),
            at_once: Arc::new(at_once),
            reading: Mutex::default(),
            next: AtomicU64::new(1),
        });
        std::thread::Builder::new().name("explore-accept".into()).spawn(move || accept(listener, shared))?;
        for (request, reply, id) in incoming {
            if !running.start(id) {
                continue;
            }
            let response = answer(&request);
            running.end();
            // A client that went away is no reason to stop.
            let _ = reply.send(response);
        }
        Ok(())
    }
}

/// One connection slot, given back when dropped (also when its thread could not start).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn accept(listener: TcpListener, shared: Arc<Shared>) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else {
            // Out of file descriptors, say: wait for connections to close rather than spin.
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let slot = Slot(open.clone());
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS && !shared.close_oldest_reading() {
            let busy = format!("the explorer is answering {MAX_CONNECTIONS} connections already; try again");
            // A short answer fits the socket's buffer: this does not wait for the client.
            let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
            let _ = Response::refusal(503, &busy).write_to(&mut stream);
            continue;
        }
        let shared = shared.clone();
        let _ = std::thread::Builder::new().name("explore-connection".into()).spawn(move || {
            let _slot = slot;
            connection(stream, &shared);
        });
    }
}

impl Shared {
    /// Closes the connection that has been reading its request longest; false when none is.
    fn close_oldest_reading(&self) -> bool {
        let oldest = self.reading.lock().unwrap_or_else(|p| p.into_inner()).pop_front();
        oldest.is_some_and(|(_, stream)| stream.shutdown(Shutdown::Both).is_ok())
    }

    /// Reads a request, listed among the connections being read meanwhile.
    fn read(&self, stream: &mut TcpStream, id: u64) -> Result<Request, Failed> {
        if let Ok(clone) = stream.try_clone() {
            self.reading.lock().unwrap_or_else(|p| p.into_inner()).push_back((id, clone));
        }
        let request = read_request(stream, Instant::now() + READ_TIME);
        self.reading.lock().unwrap_or_else(|p| p.into_inner()).retain(|(i, _)| *i != id);
        request
    }
}

/// Reads one request, has it answered (or refuses it), writes the answer and closes.
fn connection(mut stream: TcpStream, shared: &Shared) {
    let id = shared.next.fetch_add(1, Ordering::SeqCst);
    let response = match shared.read(&mut stream, id) {
        Ok(request) => match (shared.at_once)(&request) {
            Some(response) => response,
            None => match queued(&stream, shared, request, id) {
                Some(response) => response,
                None => return,
            },
        },
        Err(Failed::Refused(response)) => response,
        Err(Failed::Gone) => return,
    };
    let _ = stream.set_write_timeout(Some(READ_TIME));
    if response.write_to(&mut stream).is_ok() {
        drain(stream);
    }
}

/// Has the interpreter answer a request, watching its client meanwhile: `None` when the client
/// went away (the request is stopped, or will not start), a 503 when it waited `QUEUE_TIME` for
/// the requests before it.
fn queued(stream: &TcpStream, shared: &Shared, request: Request, id: u64) -> Option<Response> {
    let (reply, answer) = mpsc::channel();
    shared.jobs.send((request, reply, id)).ok()?;
    let queued_at = Instant::now();
    let mut started = false;
    loop {
        match answer.recv_timeout(WATCH_TIME) {
            Ok(response) => return Some(response),
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if client_gone(stream) {
            shared.running.give_up(id);
            return None;
        }
        started = started || shared.running.state.lock().is_ok_and(|s| s.0 == id);
        if !started && queued_at.elapsed() >= QUEUE_TIME {
            if shared.running.give_up(id) {
                // It started just now after all: wait for it.
                started = true;
                continue;
            }
            let why = "the explorer is answering another request (a demon may be running up to its time limit); \
                       try again";
            return Some(Response::refusal(503, why).with_header("Retry-After", "1"));
        }
    }
}

/// Whether the client closed its connection (or it failed): a read that would wait means it is
/// still there. (A client that only shuts its writing side counts as gone, as most servers count it.)
fn client_gone(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let mut byte = [0u8; 1];
    let gone = match stream.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted),
    };
    let _ = stream.set_nonblocking(false);
    gone
}

/// Closes the writing side, then reads and drops what the client still sends (for a while), so
/// that a client still sending a refused request gets the answer rather than a reset.
fn drain(mut stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let until = Instant::now() + DRAIN_TIME;
    let mut left = MAX_DRAIN;
    let mut sink = [0u8; 16 * 1024];
    while left > 0 {
        match read_before(&mut stream, &mut sink, until) {
            Ok(0) | Err(_) => return,
            Ok(n) => left = left.saturating_sub(n as u64),
        }
    }
}

enum Failed {
    /// Answer this and close.
    Refused(Response),
    /// The client closed the connection or the socket failed: nothing to answer.
    Gone,
}

/// Reads the header section (at most `MAX_HEAD` bytes) and skips the body, all before `deadline`.
fn read_request(stream: &mut TcpStream, deadline: Instant) -> Result<Request, Failed> {
    let mut head = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    loop {
        if let Some((request, length, body_read)) = parse(&head)? {
            skip_body(stream, length.saturating_sub(body_read as u64), deadline)?;
            return Ok(request);
        }
        if head.len() >= MAX_HEAD {
            return Err(refused(431, &format!("the request's header section is over {} KiB", MAX_HEAD / 1024)));
        }
        let room = chunk.len().min(MAX_HEAD - head.len());
        match read_before(stream, &mut chunk[..room], deadline) {
            Ok(0) => return Err(Failed::Gone),
            Ok(n) => head.extend_from_slice(&chunk[..n]),
            Err(e) => return Err(read_failed(e)),
        }
    }
}

fn refused(status: u16, why: &str) -> Failed {
    Failed::Refused(Response::refusal(status, why))
}

fn read_failed(e: io::Error) -> Failed {
    match e.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => {
            refused(408, &format!("the request did not arrive whole within {} s", READ_TIME.as_secs()))
        }
        _ => Failed::Gone,
    }
}

/// The request in `head` if its header section is complete, with the body's declared length and
/// how much of the body `head` already holds.
fn parse(head: &[u8]) -> Result<Option<(Request, u64, usize)>, Failed> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let end = match parsed.parse(head) {
        Ok(httparse::Status::Complete(end)) => end,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(refused(431, &format!("the request has over {MAX_HEADERS} headers")))
        }
        Err(e) => return Err(refused(400, &format!("a malformed HTTP request ({e})"))),
    };
    let header = |name: &str| parsed.headers.iter().find(|h| h.name.eq_ignore_ascii_case(name)).map(|h| h.value);
    if header("Transfer-Encoding").is_some() {
        return Err(refused(411, "the explorer reads only bodies sent with a Content-Length"));
    }
    let length = content_length(parsed.headers)?;
    if length > MAX_BODY {
        return Err(refused(413, &format!("the request's body is over {} MiB", MAX_BODY / (1024 * 1024))));
    }
    let request = Request {
        method: parsed.method.unwrap_or_default().to_string(),
        target: parsed.path.unwrap_or_default().to_string(),
        host: header("Host").map(|h| std::str::from_utf8(h).unwrap_or_default().to_string()),
    };
    Ok(Some((request, length, head.len() - end)))
}

/// The body's length the Content-Length headers give (0 without one). Two that differ are a
/// 400, as RFC 9112 (section 6.3) asks: the server and a proxy before it could read the
/// request differently.
fn content_length(headers: &[httparse::Header]) -> Result<u64, Failed> {
    let mut length = None;
    for h in headers.iter().filter(|h| h.name.eq_ignore_ascii_case("Content-Length")) {
        let n = std::str::from_utf8(h.value)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .ok_or_else(|| refused(400, "the Content-Length is not a whole number"))?;
        if length.is_some_and(|l| l != n) {
            return Err(refused(400, "the request has two different Content-Length headers"));
        }
        length = Some(n);
    }
    Ok(length.unwrap_or(0))
}

/// Reads and drops `length` bytes of body.
fn skip_body(stream: &mut TcpStream, mut length: u64, deadline: Instant) -> Result<(), Failed> {
    let mut sink = [0u8; 16 * 1024];
    while length > 0 {
        let room = sink.len().min(usize::try_from(length).unwrap_or(usize::MAX));
        match read_before(stream, &mut sink[..room], deadline) {
            Ok(0) => return Err(Failed::Gone),
            Ok(n) => length -= n as u64,
            Err(e) => return Err(read_failed(e)),
        }
    }
    Ok(())
}

/// One read that gives up (`TimedOut`) at `deadline`.
fn read_before(stream: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> io::Result<usize> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        stream.set_read_timeout(Some(left))?;
        match stream.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            result => return result,
        }
    }
}
