//! The processes of `ds --processes N` (issue 17), connected by timely dataflow's standard
//! multi-process communication (`timely_communication`'s TCP allocator, as
//! `Config::Cluster` builds it) and one timely dataflow that exchanges messages between them.
//!
//! The sockets are made here rather than by `Config::Cluster::try_build`, which waits for the
//! other processes forever, printing on standard output (process 0's output is the run's): here
//! the wait stops on Ctrl-C, `--timeout` or after `CONNECT_TIMEOUT`, and each socket watches
//! its reads, so that a process whose connection closes (it ended, or was killed) is noticed
//! at once instead of waited for. A round (`exchange`) is one epoch of the dataflow: each
//! process sends one message to every process and waits until the round is over everywhere.

use ds_core::search::processes::{Cluster, Stopped as Round};
use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream, ToSocketAddrs};
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::zero_copy::stream::Stream;
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{Allocator, Hooks};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;
use timely::WorkerConfig;

/// How long the processes wait for each other at the start.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(60);

/// A message in the dataflow: to process, from process, round, the bytes.
type Message = (u64, u64, u64, Bytes);

/// The bytes of a message, written by timely's serializer (bincode) as one block: a plain
/// `Vec<u8>` is a sequence to serde, which bincode sizes, writes and reads back one byte at a
/// time (a second of CPU time per process on the 512k-state wolf world, docs/performance.md).
#[derive(Clone, Default, Debug, PartialEq, Eq)]
struct Bytes(Vec<u8>);

impl serde::Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(v))
            }
        }
        d.deserialize_byte_buf(Visit)
    }
}

/// What each connection has seen: whether it closed (the other process ended or died), and
/// whether this side finished writing (the last data is out).
struct Links {
    lost: Vec<AtomicBool>,
    sent: Vec<AtomicBool>,
}

/// A socket to one other process, as timely reads and writes it, watched.
struct Link {
    stream: TcpStream,
    peer: usize,
    links: Arc<Links>,
}

impl Link {
    fn watch<T>(&self, r: io::Result<T>, closed: impl Fn(&T) -> bool) -> io::Result<T> {
        if r.as_ref().map_or(true, closed) {
            self.links.lost[self.peer].store(true, Ordering::SeqCst);
        }
        r
    }
}

impl Read for Link {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.stream.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                r => return self.watch(r, |&n| n == 0 && !buf.is_empty()),
            }
        }
    }
}

impl Write for Link {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        loop {
            match self.stream.write(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                r => return self.watch(r, |_| false),
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.stream.flush();
        self.watch(r, |_| false)
    }
}

impl Stream for Link {
    fn try_clone(&self) -> io::Result<Self> {
        Ok(Link { stream: self.stream.try_clone()?, peer: self.peer, links: self.links.clone() })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        if how != Shutdown::Read {
            self.links.sent[self.peer].store(true, Ordering::SeqCst);
        }
        self.stream.shutdown(how)
    }
}

/// Why a round did not end.
#[derive(Debug)]
pub enum Stopped<X> {
    /// A process is gone (or the connection failed): the message says which.
    Lost(String),
    /// `stop` said so (a limit of this process's run).
    By(X),
}

/// This process's part of the cluster, over timely.
pub struct Timely {
    pub me: usize,
    pub peers: usize,
    worker: Worker,
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Message>>>,
    probe: ProbeHandle<u64>,
    inbox: Rc<RefCell<Vec<Message>>>,
    round: u64,
    links: Arc<Links>,
    /// The send and receive threads (never joined: see `finish`).
    guard: Option<Box<dyn std::any::Any>>,
    /// Set when a process was lost: no more rounds.
    pub broken: Option<String>,
}

/// Reads a hostfile: one `host:port` a line (blank lines and `#` comments skipped), at least
/// `processes` of them; the first `processes` are used.
pub fn read_hostfile(path: &str, processes: usize) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the hostfile {path}: {e}"))?;
    let hosts: Vec<String> =
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect();
    if hosts.len() < processes {
        return Err(format!("the hostfile {path} lists {} processes, not the {processes} of --processes", hosts.len()));
    }
    for (i, h) in hosts.iter().take(processes).enumerate() {
        if h.to_socket_addrs().is_err() {
            return Err(format!("the hostfile {path}: process {i}'s `{h}` is not a host:port"));
        }
    }
    Ok(hosts.into_iter().take(processes).collect())
}

impl Timely {
    /// Connects process `me` to the others at `hosts` (process `i` listens at `hosts[i]`,
    /// connects to the processes before it and accepts those after it, as timely does). Stops
    /// when `stop` says (Ctrl-C, `--timeout`) or after `CONNECT_TIMEOUT`.
    pub fn connect(hosts: &[String], me: usize, stop: &dyn Fn() -> bool) -> Result<Timely, String> {
        quiet_panics();
        let peers = hosts.len();
        let sockets = sockets(hosts, me, stop)?;
        let links = Arc::new(Links {
            lost: (0..peers).map(|_| AtomicBool::new(false)).collect(),
            sent: (0..peers).map(|_| AtomicBool::new(false)).collect(),
        });
        let sockets = sockets
            .into_iter()
            .enumerate()
            .map(|(peer, s)| s.map(|stream| Link { stream, peer, links: links.clone() }))
            .collect();
        let hooks = Hooks::default();
        let process = ProcessBuilder::new_typed_vector(1, hooks.refill.clone(), hooks.spill.clone());
        let (mut builders, guard) = initialize_networking_from_sockets(process, sockets, me, 1, hooks)
            .map_err(|e| format!("cannot start the connections: {e}"))?;
        let Some(builder) = builders.pop() else { return Err("timely made no worker".into()) };
        let allocator = Allocator::Tcp(builder.build());
        // no spinning while waiting: on a machine with a core per process it takes the core from another
        let config = WorkerConfig::default().idle_spin(Duration::ZERO);
        let mut worker = Worker::new(config, allocator, None);
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox = Rc::new(RefCell::new(Vec::new()));
        let into = inbox.clone();
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .container::<Vec<Message>>()
                .exchange(|m: &Message| m.0)
                .inspect(move |m: &Message| into.borrow_mut().push(m.clone()))
                .probe_with(&probe);
        });
        Ok(Timely {
            me,
            peers,
            worker,
            input,
            probe,
            inbox,
            round: 0,
            links,
            guard: Some(Box::new(guard)),
            broken: None,
        })
    }

    /// One round: sends `mine` to every process and returns what each sent, by process. While
    /// waiting, `stop` is asked (about every 20 ms) whether to give up, and with what message
    /// for the next round: that is sent at once, so that the others, which finish this round
    /// without this process, find it in the next and stay in step. A process that is gone ends
    /// the round with `Lost`, and the cluster is `broken` from then on.
    pub fn exchange<X>(
        &mut self,
        mine: &[u8],
        mut stop: impl FnMut() -> Option<(X, Vec<u8>)>,
    ) -> Result<Vec<Vec<u8>>, Stopped<X>> {
        if let Some(why) = &self.broken {
            return Err(Stopped::Lost(why.clone()));
        }
        let round = self.round;
        if let Err(why) = self.send(mine) {
            return Err(self.lose(why));
        }
        let mut lost_at: Option<Instant> = None;
        loop {
            let stepped = self.guarded(|c| {
                let at = Instant::now();
                c.worker.step_or_park(Some(Duration::from_millis(20)));
                let done = !c.probe.less_than(&(round + 1));
                // timely may return at once with nothing to do: no spinning on a shared core
                if !done && at.elapsed() < Duration::from_micros(500) {
                    std::thread::sleep(Duration::from_micros(500));
                }
                done
            });
            match stepped {
                Ok(true) => break,
                Ok(false) => {}
                Err(why) => return Err(self.lose(why)),
            }
            if let Some((x, farewell)) = stop() {
                return match self.send(&farewell) {
                    Ok(()) => Err(Stopped::By(x)),
                    Err(why) => Err(self.lose(why)),
                };
            }
            // A process that ended after sending its part: what it sent is still coming in.
            if let Some(gone) = self.gone() {
                let since = *lost_at.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_millis(500) {
                    return Err(self.lose(format!("process {} stopped (its connection closed)", gone)));
                }
            }
        }
        let mut inbox = self.inbox.borrow_mut();
        // what came for rounds this process gave up is dropped; a quicker process's next kept
        let (this, later): (Vec<Message>, Vec<Message>) =
            inbox.drain(..).filter(|m| m.2 >= round).partition(|m| m.2 == round);
        *inbox = later;
        let mut by_process = vec![None; self.peers];
        for (_, from, _, bytes) in this {
            if let Some(slot) = by_process.get_mut(from as usize) {
                *slot = Some(bytes.0);
            }
        }
        drop(inbox);
        match by_process.iter().position(Option::is_none) {
            Some(p) => Err(self.lose(format!("process {p} sent nothing in a round"))),
            None => Ok(by_process.into_iter().map(Option::unwrap_or_default).collect()),
        }
    }

    /// Sends this process's message of the next round to every process.
    fn send(&mut self, message: &[u8]) -> Result<(), String> {
        let round = self.round;
        self.round += 1;
        self.guarded(|c| {
            for to in 0..c.peers {
                c.input.send((to as u64, c.me as u64, round, Bytes(message.to_vec())));
            }
            c.input.advance_to(round + 1);
        })
    }

    fn gone(&self) -> Option<usize> {
        (0..self.peers).find(|&p| p != self.me && self.links.lost[p].load(Ordering::SeqCst))
    }

    fn lose<X>(&mut self, why: String) -> Stopped<X> {
        self.broken = Some(why.clone());
        Stopped::Lost(why)
    }

    /// Runs `f` on the cluster; timely's communication panics when a connection fails (its
    /// threads, then the worker's queues): that is an error of the round here.
    fn guarded<T>(&mut self, f: impl FnOnce(&mut Timely) -> T) -> Result<T, String> {
        std::panic::catch_unwind(AssertUnwindSafe(|| f(self))).map_err(|_| match self.gone() {
            Some(p) => format!("process {p} stopped (its connection closed)"),
            None => "the connection between the processes failed".into(),
        })
    }

    /// Ends this process's part: a last round, in which every process takes part when its run
    /// ends (so that all that each sent before has reached the others), unless `stop` says or a
    /// process is gone; then timely's clean shutdown of each connection, waiting a few seconds
    /// at most for the last bytes to go out.
    pub fn finish(mut self, stop: &dyn Fn() -> bool) {
        if self.broken.is_none() {
            let _ = self.exchange(&[], || stop().then(|| ((), Vec::new())));
        }
        let Timely { me, peers, worker, input, probe, inbox, links, guard, .. } = self;
        let _ = std::panic::catch_unwind(AssertUnwindSafe(move || {
            drop(input);
            drop(probe);
            drop(inbox);
            drop(worker);
        }));
        let deadline = Instant::now() + Duration::from_secs(5);
        let done = |p: usize| p == me || links.sent[p].load(Ordering::SeqCst) || links.lost[p].load(Ordering::SeqCst);
        while !(0..peers).all(done) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        // Joining the receiving threads would wait for the other processes to end.
        std::mem::forget(guard);
    }
}

/// The sockets to every other process (None at `me`), with timely's handshake: a process
/// that connects first writes its index.
fn sockets(hosts: &[String], me: usize, stop: &dyn Fn() -> bool) -> Result<Vec<Option<TcpStream>>, String> {
    let deadline = Instant::now() + CONNECT_TIMEOUT;
    let waited = |what: &str| -> Result<(), String> {
        if stop() {
            return Err(format!("stopped while {what}"));
        }
        if Instant::now() > deadline {
            return Err(format!("gave up after {} s {what}", CONNECT_TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(50));
        Ok(())
    };
    let listener =
        TcpListener::bind(&hosts[me]).map_err(|e| format!("process {me} cannot listen at {}: {e}", hosts[me]))?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let mut sockets: Vec<Option<TcpStream>> = (0..hosts.len()).map(|_| None).collect();
    for (p, host) in hosts.iter().enumerate().take(me) {
        let stream = loop {
            match TcpStream::connect(host) {
                Ok(s) => break s,
                Err(_) => waited(&format!("connecting to process {p} at {host}"))?,
            }
        };
        let mut stream = stream;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        stream.write_all(&(me as u64).to_be_bytes()).map_err(|e| format!("process {p}: {e}"))?;
        sockets[p] = Some(stream);
    }
    while sockets.iter().enumerate().any(|(p, s)| p > me && s.is_none()) {
        match listener.accept() {
            Ok((mut stream, _)) => {
                stream.set_nonblocking(false).map_err(|e| e.to_string())?;
                stream.set_read_timeout(Some(Duration::from_secs(10))).map_err(|e| e.to_string())?;
                let mut index = [0u8; 8];
                stream.read_exact(&mut index).map_err(|e| format!("a process that connected: {e}"))?;
                stream.set_read_timeout(None).map_err(|e| e.to_string())?;
                stream.set_nodelay(true).map_err(|e| e.to_string())?;
                let p = u64::from_be_bytes(index) as usize;
                if p <= me || p >= hosts.len() || sockets[p].is_some() {
                    return Err(format!("a process that connected says it is process {p}"));
                }
                sockets[p] = Some(stream);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => waited("waiting for the other processes")?,
            Err(e) => return Err(format!("waiting for the other processes: {e}")),
        }
    }
    Ok(sockets)
}

/// Timely's communication threads panic when a connection closes: the round notices it and
/// says so, the panic's own message is noise (the hook before handles every other panic).
fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let text = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("");
            let timely =
                ["timely communication error", "MergeQueue poisoned", "Send thread panic", "Recv thread panic"];
            if !timely.iter().any(|t| text.starts_with(t)) {
                before(info);
            }
        }));
    });
}

impl Cluster for Timely {
    fn me(&self) -> usize {
        self.me
    }

    fn peers(&self) -> usize {
        self.peers
    }

    fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    fn exchange(&mut self, mine: &[u8], stop: &mut dyn FnMut() -> Option<Vec<u8>>) -> Result<Vec<Vec<u8>>, Round> {
        Timely::exchange(self, mine, || stop().map(|farewell| ((), farewell))).map_err(|e| match e {
            Stopped::Lost(why) => Round::Lost(why),
            Stopped::By(()) => Round::ByStop,
        })
    }

    fn finish(self: Box<Self>, stop: &dyn Fn() -> bool) {
        Timely::finish(*self, stop)
    }
}
