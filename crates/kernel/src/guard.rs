//! A guard in front of every ZeroMQ socket of the kernel: zeromq 0.7's decoder reserves memory
//! for whatever length a frame declares (a frame of 2^40 bytes aborted the kernel, issue 56),
//! and it has no maximum message size. So each port the connection file names is a plain TCP
//! listener of ours; every connection to it is relayed to the ZeroMQ socket, which listens on a
//! port of the loopback interface, while `Frames` reads the ZMTP stream the client sends and
//! cuts the connection at the first frame or message over the limits, before its body arrives.
//! What the kernel sends back is relayed as it is.

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The largest message (the sum of its frames) a client may send: a cell's code, its JSON and
/// the signature fit many times over.
pub const MAX_MESSAGE: u64 = 64 << 20;
/// The most frames one message may have (identities, the delimiter, the signature, four JSON
/// frames and some buffers): an empty frame costs the decoder far more than its two bytes.
pub const MAX_FRAMES: u32 = 1024;
/// The largest command frame (the handshake's READY with its properties, a subscription).
pub const MAX_COMMAND: u64 = 64 << 10;
/// Connections open at once on one port; one more is closed at once.
pub const MAX_CONNECTIONS: usize = 64;
/// ZMTP 3's greeting: signature, version, mechanism, as-server and filler.
const GREETING: u64 = 64;

/// Where the reader is in the stream a client sends.
#[derive(Debug, Clone, Copy)]
enum State {
    /// Bytes of the greeting still to come.
    Greeting(u64),
    /// The flags byte of the next frame.
    Flags,
    /// The length of a frame: its flags, the bytes of the length read so far and their value.
    Length { flags: u8, read: u8, value: u64 },
    /// Bytes of a frame's body still to come, and whether more frames of its message follow.
    Body { left: u64, more: bool },
}

/// Reads the frames of a ZMTP 3 stream as it arrives, in pieces of any size, and says when one
/// goes over the limits.
#[derive(Debug)]
pub struct Frames {
    state: State,
    /// Bytes and frames of the message being received.
    message: u64,
    frames: u32,
}

impl Default for Frames {
    fn default() -> Frames {
        Frames { state: State::Greeting(GREETING), message: 0, frames: 0 }
    }
}

const MORE: u8 = 1;
const LONG: u8 = 2;
const COMMAND: u8 = 4;

impl Frames {
    /// Reads the next bytes of the stream; `Err` says which limit a frame broke.
    pub fn feed(&mut self, mut bytes: &[u8]) -> Result<(), String> {
        while let Some((&first, rest)) = bytes.split_first() {
            match self.state {
                State::Greeting(left) | State::Body { left, .. } => {
                    let take = left.min(bytes.len() as u64);
                    bytes = &bytes[take as usize..];
                    self.state = match self.state {
                        State::Greeting(_) if take == left => State::Flags,
                        State::Greeting(_) => State::Greeting(left - take),
                        State::Body { more, .. } if take == left => self.after_frame(more),
                        State::Body { more, .. } => State::Body { left: left - take, more },
                        other => other,
                    };
                    continue;
                }
                State::Flags => self.state = State::Length { flags: first, read: 0, value: 0 },
                State::Length { flags, read, value } => {
                    let value = value << 8 | u64::from(first);
                    let width = if flags & LONG != 0 { 8 } else { 1 };
                    self.state = if read + 1 == width {
                        self.frame(flags, value)?
                    } else {
                        State::Length { flags, read: read + 1, value }
                    };
                }
            }
            bytes = rest;
        }
        Ok(())
    }

    /// A frame's header is read: checks it against the limits.
    fn frame(&mut self, flags: u8, length: u64) -> Result<State, String> {
        let more = flags & MORE != 0;
        if flags & COMMAND != 0 {
            if length > MAX_COMMAND {
                return Err(format!("a command frame of {length} bytes (at most {MAX_COMMAND})"));
            }
            return Ok(if length == 0 { State::Flags } else { State::Body { left: length, more: false } });
        }
        self.frames += 1;
        self.message = self.message.saturating_add(length);
        if self.frames > MAX_FRAMES {
            return Err(format!("a message of over {MAX_FRAMES} frames"));
        }
        if self.message > MAX_MESSAGE {
            return Err(format!("a message of over {} bytes (at most {MAX_MESSAGE})", self.message));
        }
        Ok(if length == 0 { self.after_frame(more) } else { State::Body { left: length, more } })
    }

    fn after_frame(&mut self, more: bool) -> State {
        if !more {
            self.message = 0;
            self.frames = 0;
        }
        State::Flags
    }
}

/// Binds `public`, waiting up to 3 s while the port is in use. A client picks the ports by binding
/// port 0 and letting them go, then connects at once and retries until the kernel listens; one of
/// those retries can take the free port as its own local end (TCP's self-connection) and hold it
/// until the client gives that connection up, a moment later.
async fn bind(public: &str) -> std::io::Result<TcpListener> {
    let mut waited = 0;
    loop {
        match TcpListener::bind(public).await {
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse && waited < 3000 => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                waited += 50;
            }
            bound => return bound,
        }
    }
}

/// Listens on `public` and relays every connection to the ZeroMQ socket on `inner`, checked.
pub async fn listen(public: &str, inner: SocketAddr, name: &'static str) -> Result<(), String> {
    let listener = bind(public).await.map_err(|e| format!("cannot listen for {name} on {public}: {e}"))?;
    let open = std::sync::Arc::new(());
    tokio::spawn(async move {
        loop {
            let Ok((client, _)) = listener.accept().await else {
                // Out of file descriptors, say: wait for connections to close rather than spin.
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                continue;
            };
            // Each relay holds a clone: the count of clones is the count of connections.
            if std::sync::Arc::strong_count(&open) > MAX_CONNECTIONS {
                continue;
            }
            let held = open.clone();
            tokio::spawn(async move {
                relay(client, inner, name).await;
                drop(held);
            });
        }
    });
    Ok(())
}

/// Relays one connection both ways until either side closes or the client breaks a limit.
async fn relay(client: TcpStream, inner: SocketAddr, name: &str) {
    let Ok(socket) = TcpStream::connect(inner).await else { return };
    let _ = (client.set_nodelay(true), socket.set_nodelay(true));
    let (mut client_read, mut client_write) = client.into_split();
    let (mut socket_read, mut socket_write) = socket.into_split();
    let upstream = async {
        let mut frames = Frames::default();
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = match client_read.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            if let Err(why) = frames.feed(&buf[..n]) {
                ds_base::eprintln_safe!("ds kernel: a connection to the {name} port was closed: {why}");
                return;
            }
            if socket_write.write_all(&buf[..n]).await.is_err() {
                return;
            }
        }
    };
    let downstream = tokio::io::copy(&mut socket_read, &mut client_write);
    // Whichever direction ends first ends the connection: both sockets are dropped.
    tokio::select! {
        _ = upstream => {}
        _ = downstream => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn greeting() -> Vec<u8> {
        let mut g = vec![0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 3, 0];
        g.resize(64, 0);
        g
    }

    fn frame(flags: u8, body: &[u8]) -> Vec<u8> {
        let mut f = vec![flags];
        if body.len() > 255 {
            f[0] |= LONG;
            f.extend_from_slice(&(body.len() as u64).to_be_bytes());
        } else {
            f.push(body.len() as u8);
        }
        f.extend_from_slice(body);
        f
    }

    #[test]
    fn ordinary_messages_pass_in_pieces_of_any_size() {
        let mut stream = greeting();
        stream.extend(frame(COMMAND, b"\x05READY"));
        for _ in 0..3 {
            stream.extend(frame(MORE, b"<IDS|MSG>"));
            stream.extend(frame(MORE, &[b'x'; 300]));
            stream.extend(frame(0, b"{}"));
        }
        for piece in [1, 2, 7, 64, 1000] {
            let mut frames = Frames::default();
            for chunk in stream.chunks(piece) {
                frames.feed(chunk).expect("a well-formed stream");
            }
            assert!(matches!(frames.state, State::Flags), "{:?} after pieces of {piece}", frames.state);
        }
    }

    #[test]
    fn a_frame_that_declares_a_huge_length_is_refused_from_its_header() {
        let mut stream = greeting();
        stream.push(LONG);
        stream.extend_from_slice(&(1u64 << 40).to_be_bytes());
        let err = Frames::default().feed(&stream).unwrap_err();
        assert!(err.contains("1099511627776 bytes"), "{err}");
        let mut command = greeting();
        command.extend([COMMAND | LONG, 0, 0, 0, 0, 0, 2, 0, 0]);
        assert!(Frames::default().feed(&command).unwrap_err().contains("command"));
    }

    #[test]
    fn a_message_is_bounded_in_bytes_and_in_frames() {
        let mut frames = Frames::default();
        frames.feed(&greeting()).unwrap();
        let half = MAX_MESSAGE / 2 + 1;
        let mut header = vec![MORE | LONG];
        header.extend_from_slice(&half.to_be_bytes());
        frames.feed(&header).unwrap();
        frames.feed(&vec![0; half as usize]).unwrap();
        assert!(frames.feed(&header).unwrap_err().contains("message of over"));
        let mut empty = Frames::default();
        empty.feed(&greeting()).unwrap();
        let many: Vec<u8> = (0..MAX_FRAMES).flat_map(|_| [MORE, 0]).collect();
        empty.feed(&many).unwrap();
        assert!(empty.feed(&[MORE, 0]).unwrap_err().contains("frames"));
        // A message that ends resets the count.
        let mut fresh = Frames::default();
        fresh.feed(&greeting()).unwrap();
        for _ in 0..2 {
            fresh.feed(&many[..many.len() - 2]).unwrap();
            fresh.feed(&[0, 0]).unwrap();
        }
    }
}
