//! Jupyter messages on the wire: the routing identities, the `<IDS|MSG>` delimiter, the
//! HMAC-SHA256 signature and four JSON frames (header, parent header, metadata, content), as
//! the messaging protocol (version 5.3) lays them out.

use bytes::Bytes;
use hmac::{Hmac, KeyInit, Mac};
use rustc_hash::FxHashSet;
use serde_json::{json, Value};
use sha2::Sha256;
use std::collections::VecDeque;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};
use zeromq::ZmqMessage;

pub const PROTOCOL_VERSION: &str = "5.3";
const DELIMITER: &[u8] = b"<IDS|MSG>";

/// One message, its JSON frames parsed.
#[derive(Debug, Clone)]
pub struct Message {
    /// Routing identities (shell and control) or the topic (iopub).
    pub ids: Vec<Bytes>,
    pub header: Value,
    pub parent: Value,
    pub metadata: Value,
    pub content: Value,
}

impl Message {
    /// A new message of this kernel's `session`, in answer to (or caused by) `parent`.
    pub fn new(session: &str, msg_type: &str, parent: &Value, content: Value) -> Message {
        let header = json!({
            "msg_id": new_id(),
            "session": session,
            "username": "ds",
            "date": now_iso8601(),
            "msg_type": msg_type,
            "version": PROTOCOL_VERSION,
        });
        Message { ids: Vec::new(), header, parent: parent.clone(), metadata: json!({}), content }
    }

    /// The reply to this request, routed back to whoever sent it.
    pub fn reply(&self, session: &str, msg_type: &str, content: Value) -> Message {
        let mut m = Message::new(session, msg_type, &self.header, content);
        m.ids = self.ids.clone();
        m
    }

    pub fn msg_type(&self) -> &str {
        self.header["msg_type"].as_str().unwrap_or("")
    }
}

/// Signs and checks messages with the connection file's key (no key: unsigned, as the
/// protocol allows).
#[derive(Clone)]
pub struct Signer {
    key: Vec<u8>,
    /// The signatures of the messages received, shared by the channels: a message sent again
    /// as it was (a replayed `execute_request`) is refused, as ipykernel refuses it.
    seen: Arc<Mutex<Seen>>,
}

/// The signatures remembered, the oldest forgotten past `MAX_SEEN`.
#[derive(Default)]
struct Seen {
    set: FxHashSet<Vec<u8>>,
    order: VecDeque<Vec<u8>>,
}

/// How many signatures are remembered (ipykernel keeps 2^16 too).
const MAX_SEEN: usize = 1 << 16;

impl Seen {
    /// Records a signature; false when it was seen already.
    fn first_time(&mut self, signature: &[u8]) -> bool {
        if !self.set.insert(signature.to_vec()) {
            return false;
        }
        self.order.push_back(signature.to_vec());
        if self.order.len() > MAX_SEEN {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
        }
        true
    }
}

impl Signer {
    pub fn new(key: &str) -> Signer {
        Signer { key: key.as_bytes().to_vec(), seen: Arc::default() }
    }

    fn mac(&self, frames: &[&[u8]]) -> Option<Hmac<Sha256>> {
        if self.key.is_empty() {
            return None;
        }
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).ok()?;
        for f in frames {
            mac.update(f);
        }
        Some(mac)
    }

    /// The hexadecimal signature of the four JSON frames.
    fn sign(&self, frames: &[&[u8]]) -> String {
        self.mac(frames).map(|m| hex(&m.finalize().into_bytes())).unwrap_or_default()
    }

    /// The frames of a message to send.
    pub fn encode(&self, m: &Message) -> ZmqMessage {
        let json = [&m.header, &m.parent, &m.metadata, &m.content].map(|v| v.to_string().into_bytes());
        let frames: Vec<&[u8]> = json.iter().map(|j| j.as_slice()).collect();
        let signature = self.sign(&frames);
        let mut out: Vec<Bytes> = m.ids.clone();
        out.push(Bytes::from_static(DELIMITER));
        out.push(Bytes::from(signature));
        out.extend(json.into_iter().map(Bytes::from));
        ZmqMessage::try_from(out).expect("a message has at least the delimiter")
    }

    /// A received message, its signature checked; `Err` says what is wrong with it.
    pub fn decode(&self, raw: ZmqMessage) -> Result<Message, String> {
        let frames = raw.into_vec();
        let at = frames.iter().position(|f| f.as_ref() == DELIMITER).ok_or("no <IDS|MSG> delimiter")?;
        let rest = &frames[at + 1..];
        if rest.len() < 5 {
            return Err(format!("{} frames after the delimiter, not 5", rest.len()));
        }
        let parts: Vec<&[u8]> = rest[1..5].iter().map(|f| f.as_ref()).collect();
        if let Some(mac) = self.mac(&parts) {
            let given = unhex(&rest[0]).ok_or("a signature that is not hexadecimal")?;
            mac.verify_slice(&given).map_err(|_| "a bad signature")?;
            let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
            if !seen.first_time(&given) {
                return Err("a message received before (the same signature): not answered again".into());
            }
        }
        let json = |i: usize| serde_json::from_slice::<Value>(parts[i]).map_err(|e| format!("bad JSON: {e}"));
        Ok(Message {
            ids: frames[..at].to_vec(),
            header: json(0)?,
            parent: json(1)?,
            metadata: json(2)?,
            content: json(3)?,
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &[u8]) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16);
    text.chunks(2).map(|p| Some((digit(p[0])? * 16 + digit(p[1])?) as u8)).collect()
}

/// A random identifier in the form of a UUID (message ids and the session id need only be
/// unique; std's randomly keyed hasher gives the randomness without another crate).
pub fn new_id() -> String {
    let random = || std::collections::hash_map::RandomState::new().build_hasher().finish();
    let (a, b) = (random(), random());
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        (b >> 48) | 0x8000,
        b & 0xffff_ffff_ffff
    )
}

/// The current time as ISO 8601 in UTC, as message headers carry it.
fn now_iso8601() -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:06}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        now.subsec_micros()
    )
}

/// Year, month and day of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-02-29 is day 11016 (30 years of 365 days, 7 leap days, 31 + 28 days).
        assert_eq!(civil_from_days(30 * 365 + 7 + 31 + 28), (2000, 2, 29));
    }

    #[test]
    fn a_signed_message_round_trips_and_a_forged_one_is_refused() {
        let signer = Signer::new("secret");
        let m = Message::new("s", "kernel_info_request", &json!({}), json!({"a": 1}));
        let decoded = signer.decode(signer.encode(&m)).expect("own message");
        assert_eq!(decoded.content, json!({"a": 1}));
        let forged = Signer::new("other").encode(&m);
        assert!(signer.decode(forged).is_err());
    }

    #[test]
    fn a_message_received_again_is_refused() {
        let signer = Signer::new("secret");
        let m = Message::new("s", "execute_request", &json!({}), json!({"code": "out 1"}));
        let frames = signer.encode(&m);
        assert!(signer.decode(frames.clone()).is_ok());
        let again = signer.clone().decode(frames).unwrap_err();
        assert!(again.contains("received before"), "{again}");
        // A new message with the same content has a new id, so a new signature.
        let next = Message::new("s", "execute_request", &json!({}), json!({"code": "out 1"}));
        assert!(signer.decode(signer.encode(&next)).is_ok());
    }

    #[test]
    fn the_oldest_signatures_are_forgotten() {
        let mut seen = Seen::default();
        for i in 0..MAX_SEEN + 10 {
            assert!(seen.first_time(&i.to_be_bytes()));
        }
        assert_eq!(seen.set.len(), MAX_SEEN);
        assert!(seen.first_time(&0usize.to_be_bytes()), "forgotten");
        assert!(!seen.first_time(&(MAX_SEEN + 5).to_be_bytes()), "remembered");
    }

    #[test]
    fn the_signature_is_hmac_sha256_in_hex() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        let s = Signer::new("Jefe").sign(&[b"what do ya want ", b"for nothing?"]);
        assert_eq!(s, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }
}
