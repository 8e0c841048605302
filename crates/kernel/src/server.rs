//! The protocol side of `ds kernel`: the five ZeroMQ sockets on a small tokio runtime of their
//! own thread, so that the heartbeat, interrupts and completion are answered while a cell runs
//! on the interpreter's thread (`runner`). Cells go to the runner over a channel; what they
//! print and their replies come back as `Event`s.

use super::connection::Connection;
use super::guard;
use super::message::{new_id, Message, Signer};
use super::replies;
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use zeromq::{PubSocket, RepSocket, RouterSocket, Socket, SocketRecv, SocketSend, ZmqMessage};

/// What the runner tells the protocol side about the cell it runs.
#[derive(Debug)]
pub enum Event {
    /// A cell starts: its request and its execution count.
    Start(Message, u32),
    /// A message on iopub about the running cell: its type and content.
    Iopub(&'static str, Value),
    /// The cell ended: the content of its `execute_reply`.
    Done(Value),
    /// A cell not run, as an earlier one failed.
    Aborted(Message),
}

/// The runner's ends of the channels.
pub struct Link {
    /// Execute requests, in the order they came.
    pub jobs: std::sync::mpsc::Sender<Message>,
    pub events: UnboundedReceiver<Event>,
    /// The interpreter's interrupt flag.
    pub interrupt: Arc<AtomicBool>,
    /// The cells run so far without error, for completion and inspection.
    pub cells: Arc<Mutex<String>>,
}

/// Binds the sockets and serves them on a thread of their own; `Err` when a socket cannot be
/// bound (a port in use, an address not ours).
pub fn start(conn: Connection, link: Link) -> Result<std::thread::JoinHandle<()>, String> {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), String>>();
    let handle = std::thread::Builder::new()
        .name("ds-kernel-protocol".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(rt) => rt,
                Err(e) => return drop(ready_tx.send(Err(format!("cannot start the protocol's runtime: {e}")))),
            };
            let analyst = match start_analyst() {
                Ok(a) => a,
                Err(e) => return drop(ready_tx.send(Err(e))),
            };
            runtime.block_on(async move {
                match Sockets::bind(&conn).await {
                    Ok(sockets) => {
                        let _ = ready_tx.send(Ok(()));
                        serve(sockets, &conn.key, link, analyst).await;
                    }
                    Err(e) => drop(ready_tx.send(Err(e))),
                }
            });
        })
        .map_err(|e| format!("cannot start the protocol thread: {e}"))?;
    ready_rx.recv().map_err(|_| "the protocol thread ended before it listened".to_string())??;
    Ok(handle)
}

struct Sockets {
    shell: RouterSocket,
    control: RouterSocket,
    stdin: RouterSocket,
    iopub: PubSocket,
    hb: RepSocket,
}

impl Sockets {
    /// Each ZeroMQ socket listens on a free port of the loopback interface; the connection
    /// file's port is the guard's (`guard`), which relays to it.
    async fn bind(c: &Connection) -> Result<Sockets, String> {
        async fn bound<S: Socket>(mut s: S, c: &Connection, port: u16, name: &'static str) -> Result<S, String> {
            let inner = match s.bind("tcp://127.0.0.1:0").await {
                Ok(zeromq::Endpoint::Tcp(_, inner)) => std::net::SocketAddr::from(([127, 0, 0, 1], inner)),
                Ok(other) => return Err(format!("the {name} socket listens on {other}, not on a port")),
                Err(e) => return Err(format!("cannot open the {name} socket: {e}")),
            };
            guard::listen(&c.address(port), inner, name).await?;
            Ok(s)
        }
        Ok(Sockets {
            shell: bound(RouterSocket::new(), c, c.shell, "shell").await?,
            control: bound(RouterSocket::new(), c, c.control, "control").await?,
            stdin: bound(RouterSocket::new(), c, c.stdin, "stdin").await?,
            iopub: bound(PubSocket::new(), c, c.iopub, "iopub").await?,
            hb: bound(RepSocket::new(), c, c.hb, "heartbeat").await?,
        })
    }
}

/// What every handler needs: the kernel's session id, the outgoing queues of shell and iopub,
/// and the runner's inputs.
#[derive(Clone)]
struct Ctx {
    session: String,
    shell: UnboundedSender<Message>,
    iopub: UnboundedSender<Message>,
    jobs: std::sync::mpsc::Sender<Message>,
    interrupt: Arc<AtomicBool>,
    cells: Arc<Mutex<String>>,
    /// Requests for the analysis thread.
    analyst: std::sync::mpsc::Sender<Analysis>,
}

impl Ctx {
    fn publish(&self, parent: &Message, msg_type: &str, content: Value) {
        let mut m = Message::new(&self.session, msg_type, &parent.header, content);
        m.ids = vec![msg_type.to_string().into()];
        let _ = self.iopub.send(m);
    }

    fn status(&self, parent: &Message, state: &str) {
        self.publish(parent, "status", json!({ "execution_state": state }));
    }

    fn reply(&self, request: &Message, msg_type: &str, content: Value) {
        let _ = self.shell.send(request.reply(&self.session, msg_type, content));
    }
}

async fn serve(sockets: Sockets, key: &str, link: Link, analyst: std::sync::mpsc::Sender<Analysis>) {
    let signer = Signer::new(key);
    let (iopub_tx, iopub_rx) = unbounded_channel();
    let (shell_tx, shell_rx) = unbounded_channel();
    let ctx = Ctx {
        session: new_id(),
        shell: shell_tx,
        iopub: iopub_tx,
        jobs: link.jobs,
        interrupt: link.interrupt,
        cells: link.cells,
        analyst,
    };
    let Sockets { shell, control, stdin, iopub, hb } = sockets;
    let (shell_send, shell_recv) = shell.split();
    tokio::spawn(heartbeat(hb));
    tokio::spawn(send_all(iopub, signer.clone(), iopub_rx));
    tokio::spawn(send_all(shell_send, signer.clone(), shell_rx));
    tokio::spawn(events(ctx.clone(), link.events));
    tokio::spawn(control_loop(control, signer.clone(), ctx.clone()));
    // No cell reads input, but the socket stays bound: front ends connect to it.
    let _stdin = stdin;
    receive(shell_recv, &signer, |m| on_shell(&ctx, m)).await;
}

/// Echoes heartbeats: a front end that hears nothing thinks the kernel died.
async fn heartbeat(mut hb: RepSocket) {
    loop {
        match hb.recv().await {
            Ok(ping) => drop(hb.send(ping).await),
            Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
}

/// Sends what is queued for a socket, signed.
async fn send_all<S: SocketSend>(mut socket: S, signer: Signer, mut queue: UnboundedReceiver<Message>) {
    while let Some(m) = queue.recv().await {
        let frames: ZmqMessage = signer.encode(&m);
        if let Err(e) = socket.send(frames).await {
            ds_base::eprintln_safe!("ds kernel: a message could not be sent: {e}");
        }
    }
}

/// Receives messages for ever, giving each one that is well formed and signed to `handle`.
async fn receive<S: SocketRecv>(mut socket: S, signer: &Signer, mut handle: impl FnMut(Message)) {
    loop {
        match socket.recv().await {
            Ok(raw) => match signer.decode(raw) {
                // A bug in one answer must not leave the channel deaf for the rest of the session.
                Ok(m) => {
                    if catch_unwind(AssertUnwindSafe(|| handle(m))).is_err() {
                        ds_base::eprintln_safe!("ds kernel: internal error while answering a message");
                    }
                }
                Err(e) => ds_base::eprintln_safe!("ds kernel: a message was ignored: {e}"),
            },
            Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
}

/// A shell request: cells go to the runner (which says when they start and end), anything
/// else is answered at once, between a busy and an idle status.
fn on_shell(ctx: &Ctx, m: Message) {
    if m.msg_type() == "execute_request" {
        if ctx.jobs.send(m).is_err() {
            ds_base::eprintln_safe!("ds kernel: the interpreter thread has ended");
        }
        return;
    }
    answer(ctx, &m);
}

fn answer(ctx: &Ctx, m: &Message) {
    if replies::needs_analysis(m.msg_type()) {
        if ctx.analyst.send((ctx.clone(), m.clone())).is_err() {
            ds_base::eprintln_safe!("ds kernel: the analysis thread has ended");
        }
        return;
    }
    answer_now(ctx, m);
}

/// Answers a request on the thread that calls it.
fn answer_now(ctx: &Ctx, m: &Message) {
    let cells = ctx.cells.lock().map(|c| c.clone()).unwrap_or_default();
    let Some((reply_type, content)) = replies::answer(m, &cells) else {
        ds_base::eprintln_safe!("ds kernel: no answer to `{}`", m.msg_type());
        return;
    };
    ctx.status(m, "busy");
    ctx.reply(m, &reply_type, content);
    ctx.status(m, "idle");
}

/// A request for the analysis and the handler whose channel it came on.
type Analysis = (Ctx, Message);

/// Starts the thread that answers completion, inspection and `is_complete`: the analysis of
/// all the cells run so far takes time (seconds over a long session) and, over deeply nested
/// code, a deep stack, so it runs on a thread with as large a stack as the interpreter's (the
/// compiler's stack check marks where it ends), never on the protocol's, whose heartbeat and
/// control channel must answer at once.
fn start_analyst() -> Result<std::sync::mpsc::Sender<Analysis>, String> {
    let (tx, rx) = std::sync::mpsc::channel::<Analysis>();
    let size = ds_native::host::wanted_stack();
    std::thread::Builder::new()
        .name("ds-kernel-analysis".into())
        .stack_size(size)
        .spawn(move || {
            ds_base::guard::stack::mark(size);
            for (ctx, m) in rx {
                if catch_unwind(AssertUnwindSafe(|| answer_now(&ctx, &m))).is_err() {
                    ds_base::eprintln_safe!("ds kernel: internal error while answering a message");
                }
            }
        })
        .map_err(|e| format!("cannot start the analysis thread: {e}"))?;
    Ok(tx)
}

/// The control channel: interrupts and shutdowns, answered even while a cell runs.
async fn control_loop(socket: RouterSocket, signer: Signer, ctx: Ctx) {
    let (send, recv) = socket.split();
    let (tx, rx) = unbounded_channel();
    tokio::spawn(send_all(send, signer.clone(), rx));
    let control = Ctx { shell: tx, ..ctx };
    receive(recv, &signer, |m| on_control(&control, m)).await;
}

fn on_control(ctx: &Ctx, m: Message) {
    match m.msg_type() {
        "interrupt_request" => {
            // The running cell stops at its next check; an idle kernel has nothing to stop.
            ctx.interrupt.store(true, Ordering::SeqCst);
            ctx.reply(&m, "interrupt_reply", json!({ "status": "ok" }));
        }
        "shutdown_request" => {
            let restart = m.content["restart"].as_bool().unwrap_or(false);
            ctx.reply(&m, "shutdown_reply", json!({ "status": "ok", "restart": restart }));
            // A restart is a new process (Jupyter starts it), so the session is clean; the
            // pause lets the reply leave first.
            std::thread::spawn(|| {
                std::thread::sleep(Duration::from_millis(200));
                std::process::exit(0)
            });
        }
        _ => answer(ctx, &m),
    }
}

/// Turns the runner's events into iopub messages and execute replies.
async fn events(ctx: Ctx, mut events: UnboundedReceiver<Event>) {
    let mut current: Option<Message> = None;
    while let Some(event) = events.recv().await {
        match event {
            Event::Start(request, count) => {
                ctx.status(&request, "busy");
                let code = request.content["code"].clone();
                ctx.publish(&request, "execute_input", json!({ "code": code, "execution_count": count }));
                current = Some(request);
            }
            Event::Iopub(msg_type, content) => {
                if let Some(request) = &current {
                    ctx.publish(request, msg_type, content);
                }
            }
            Event::Done(content) => {
                if let Some(request) = current.take() {
                    ctx.reply(&request, "execute_reply", content);
                    ctx.status(&request, "idle");
                }
            }
            Event::Aborted(request) => {
                ctx.status(&request, "busy");
                ctx.reply(&request, "execute_reply", json!({ "status": "aborted" }));
                ctx.status(&request, "idle");
            }
        }
    }
}
