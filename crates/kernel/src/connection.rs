//! The connection file Jupyter writes for a kernel (`ds kernel -f FILE`): where to listen and
//! the key that signs messages. Anything wrong with it is a clear error before a socket opens.

use serde_json::Value;
use std::path::Path;

/// The longest connection file read (Jupyter's are some 300 bytes): a device that never ends,
/// such as `/dev/zero`, is refused.
pub const MAX_FILE: usize = 64 << 10;

#[derive(Debug, Clone, PartialEq)]
pub struct Connection {
    pub ip: String,
    pub key: String,
    pub shell: u16,
    pub iopub: u16,
    pub stdin: u16,
    pub control: u16,
    pub hb: u16,
}

impl Connection {
    /// Reads and checks a connection file.
    pub fn read(path: &Path) -> Result<Connection, String> {
        let text = ds_native::sandbox::read_text(path, MAX_FILE)
            .map_err(|e| format!("cannot read the connection file `{}`: {e}", path.display()))?;
        Connection::parse(&text).map_err(|e| format!("bad connection file `{}`: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Connection, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
        if !v.is_object() {
            return Err("not a JSON object".into());
        }
        let field = |name: &str| v.get(name).and_then(Value::as_str);
        match field("transport").unwrap_or("tcp") {
            "tcp" => {}
            other => return Err(format!("transport `{other}`: ds kernel speaks tcp only")),
        }
        match field("signature_scheme").unwrap_or("hmac-sha256") {
            "hmac-sha256" | "" => {}
            other => return Err(format!("signature scheme `{other}`: ds kernel knows hmac-sha256 only")),
        }
        let port = |name: &str| -> Result<u16, String> {
            let p = v.get(name).ok_or_else(|| format!("no `{name}`"))?;
            p.as_u64().and_then(|n| u16::try_from(n).ok()).ok_or_else(|| format!("`{name}` is not a port number: {p}"))
        };
        Ok(Connection {
            ip: field("ip").unwrap_or("127.0.0.1").to_string(),
            key: field("key").unwrap_or("").to_string(),
            shell: port("shell_port")?,
            iopub: port("iopub_port")?,
            stdin: port("stdin_port")?,
            control: port("control_port")?,
            hb: port("hb_port")?,
        })
    }

    /// The address of a port, as a TCP listener takes it (an IPv6 address in brackets).
    pub fn address(&self, port: u16) -> String {
        if self.ip.contains(':') {
            format!("[{}]:{port}", self.ip)
        } else {
            format!("{}:{port}", self.ip)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4,
        "hb_port": 5, "ip": "127.0.0.1", "key": "k", "transport": "tcp",
        "signature_scheme": "hmac-sha256", "kernel_name": "ds"}"#;

    #[test]
    fn a_connection_file_gives_ports_and_key() {
        let c = Connection::parse(GOOD).expect("good file");
        assert_eq!((c.shell, c.iopub, c.stdin, c.control, c.hb), (1, 2, 3, 4, 5));
        assert_eq!(c.key, "k");
        assert_eq!(c.address(c.hb), "127.0.0.1:5");
    }

    #[test]
    fn a_bad_connection_file_says_what_is_wrong() {
        assert!(Connection::parse("{").unwrap_err().contains("not JSON"));
        assert!(Connection::parse("[]").unwrap_err().contains("object"));
        let no_hb = GOOD.replace("\"hb_port\": 5,", "");
        assert!(Connection::parse(&no_hb).unwrap_err().contains("hb_port"));
        let big = GOOD.replace("\"hb_port\": 5", "\"hb_port\": 70000");
        assert!(Connection::parse(&big).unwrap_err().contains("not a port"));
        let ipc = GOOD.replace("\"tcp\"", "\"ipc\"");
        assert!(Connection::parse(&ipc).unwrap_err().contains("tcp only"));
    }

    #[test]
    fn a_connection_file_that_never_ends_is_refused() {
        let e = Connection::read(Path::new("/dev/zero")).unwrap_err();
        assert!(e.contains("cannot read the connection file"), "{e}");
    }
}
