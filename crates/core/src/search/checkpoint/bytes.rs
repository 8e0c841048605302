//! The byte level of a checkpoint file: numbers as varints, written and read through a buffer
//! whose bytes are hashed (XXH3) a chunk at a time, so that a file cut short or damaged is
//! found by its last 8 bytes, the hash of all before them.

use crate::search::pack::put_varint;
use std::io::{self, Read, Write};
use xxhash_rust::xxh3::Xxh3;

/// Bytes are handed on (and hashed) this many at a time.
const CHUNK: usize = 1 << 16;

/// A writer of numbers and byte strings, hashing what it writes.
pub struct Out<W: Write> {
    inner: W,
    buf: Vec<u8>,
    hash: Xxh3,
}

impl<W: Write> Out<W> {
    pub fn new(inner: W) -> Out<W> {
        Out { inner, buf: Vec::with_capacity(CHUNK + 64), hash: Xxh3::new() }
    }

    pub fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(b);
        self.spill()
    }

    pub fn num(&mut self, n: u64) -> io::Result<()> {
        put_varint(&mut self.buf, n);
        self.spill()
    }

    /// A number or `NONE` (`u32::MAX`), as n + 1 with 0 for `NONE`.
    pub fn opt(&mut self, n: u32) -> io::Result<()> {
        self.num(if n == u32::MAX { 0 } else { u64::from(n) + 1 })
    }

    pub fn f64(&mut self, x: f64) -> io::Result<()> {
        self.bytes(&x.to_le_bytes())
    }

    /// A byte string: its length, then its bytes.
    pub fn string(&mut self, b: &[u8]) -> io::Result<()> {
        self.num(b.len() as u64)?;
        self.bytes(b)
    }

    fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.hash.update(&self.buf);
            self.inner.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes what is left, then the hash of everything, and flushes.
    pub fn finish(mut self) -> io::Result<W> {
        self.hash.update(&self.buf);
        self.inner.write_all(&self.buf)?;
        self.inner.write_all(&self.hash.digest().to_le_bytes())?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}

/// Why a checkpoint could not be read.
#[derive(Debug)]
pub enum Bad {
    /// The file is cut short, or a number in it is out of range: damaged.
    Damaged,
    Io(io::Error),
}

impl From<io::Error> for Bad {
    fn from(e: io::Error) -> Bad {
        match e.kind() {
            io::ErrorKind::UnexpectedEof => Bad::Damaged,
            _ => Bad::Io(e),
        }
    }
}

/// A reader of what `Out` wrote, hashing what it reads.
pub struct In<R: Read> {
    inner: R,
    buf: Vec<u8>,
    /// The next byte to read in `buf`, and the end of the bytes in it.
    at: usize,
    end: usize,
    hash: Xxh3,
}

impl<R: Read> In<R> {
    pub fn new(inner: R) -> In<R> {
        In { inner, buf: vec![0; CHUNK], at: 0, end: 0, hash: Xxh3::new() }
    }

    /// Refills the buffer, once the bytes read so far are hashed; false at the end of the file.
    fn refill(&mut self) -> Result<bool, Bad> {
        self.hash.update(&self.buf[..self.at]);
        let rest = self.end - self.at;
        self.buf.copy_within(self.at..self.end, 0);
        self.at = 0;
        self.end = rest;
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => return Ok(self.end > rest),
                Ok(n) => {
                    self.end += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Bad::Io(e)),
            }
        }
    }

    pub fn byte(&mut self) -> Result<u8, Bad> {
        if self.at == self.end && !self.refill()? {
            return Err(Bad::Damaged);
        }
        self.at += 1;
        Ok(self.buf[self.at - 1])
    }

    pub fn num(&mut self) -> Result<u64, Bad> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(n);
            }
        }
        Err(Bad::Damaged)
    }

    /// A number of at most `max`.
    pub fn num_to(&mut self, max: u64) -> Result<u64, Bad> {
        let n = self.num()?;
        if n > max {
            return Err(Bad::Damaged);
        }
        Ok(n)
    }

    pub fn u32(&mut self) -> Result<u32, Bad> {
        Ok(self.num_to(u64::from(u32::MAX))? as u32)
    }

    /// What `Out::opt` wrote.
    pub fn opt(&mut self) -> Result<u32, Bad> {
        match self.num_to(u64::from(u32::MAX))? {
            0 => Ok(u32::MAX),
            n => Ok(n as u32 - 1),
        }
    }

    pub fn bytes_into(&mut self, out: &mut Vec<u8>, n: usize) -> Result<(), Bad> {
        out.clear();
        while out.len() < n {
            if self.at == self.end && !self.refill()? {
                return Err(Bad::Damaged);
            }
            let take = (n - out.len()).min(self.end - self.at);
            out.extend_from_slice(&self.buf[self.at..self.at + take]);
            self.at += take;
        }
        Ok(())
    }

    /// Eight bytes (a number `Out::f64` or `Out::bytes` wrote, little-endian).
    pub fn eight(&mut self) -> Result<[u8; 8], Bad> {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.byte()?;
        }
        Ok(b)
    }

    pub fn f64(&mut self) -> Result<f64, Bad> {
        Ok(f64::from_le_bytes(self.eight()?))
    }

    /// A byte string of at most `max` bytes, into `out`.
    pub fn string_into(&mut self, out: &mut Vec<u8>, max: usize) -> Result<(), Bad> {
        let n = self.num_to(max as u64)? as usize;
        self.bytes_into(out, n)
    }

    /// Reads the hash `Out::finish` wrote and checks it against the bytes read, and that
    /// nothing follows it.
    pub fn finish(mut self) -> Result<(), Bad> {
        self.hash.update(&self.buf[..self.at]);
        let digest = self.hash.digest();
        // (what is read from here on is not hashed again)
        self.hash = Xxh3::new();
        let written = self.eight()?;
        let more = self.at < self.end || self.refill()?;
        match (written == digest.to_le_bytes(), more) {
            (true, false) => Ok(()),
            _ => Err(Bad::Damaged),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(f: impl FnOnce(&mut Out<&mut Vec<u8>>)) -> Vec<u8> {
        let mut file = Vec::new();
        let mut out = Out::new(&mut file);
        f(&mut out);
        out.finish().expect("written to memory");
        file
    }

    #[test]
    fn what_is_written_reads_back_past_many_chunks() {
        let file = written(|out| {
            for i in 0..100_000u64 {
                out.num(i * 7919).unwrap();
                out.opt(if i % 5 == 0 { u32::MAX } else { i as u32 }).unwrap();
                out.string(&[i as u8; 3]).unwrap();
            }
            out.f64(-2.5).unwrap();
        });
        let mut inp = In::new(&file[..]);
        let mut s = Vec::new();
        for i in 0..100_000u64 {
            assert_eq!(inp.num().unwrap(), i * 7919);
            assert_eq!(inp.opt().unwrap(), if i % 5 == 0 { u32::MAX } else { i as u32 });
            inp.string_into(&mut s, 16).unwrap();
            assert_eq!(s, [i as u8; 3]);
        }
        assert_eq!(inp.f64().unwrap(), -2.5);
        inp.finish().expect("the hash matches");
    }

    #[test]
    fn a_file_cut_short_changed_or_lengthened_is_damaged() {
        let file = written(|out| (0..1000).for_each(|i| out.num(i).unwrap()));
        let read_all = |bytes: &[u8]| -> Result<(), Bad> {
            let mut inp = In::new(bytes);
            for _ in 0..1000 {
                inp.num()?;
            }
            inp.finish()
        };
        assert!(read_all(&file).is_ok());
        assert!(matches!(read_all(&file[..file.len() - 1]), Err(Bad::Damaged)));
        let mut changed = file.clone();
        changed[500] ^= 1;
        assert!(matches!(read_all(&changed), Err(Bad::Damaged)));
        let mut longer = file.clone();
        longer.push(0);
        assert!(matches!(read_all(&longer), Err(Bad::Damaged)));
        let mut inp = In::new(&[0xffu8; 20][..]);
        assert!(matches!(inp.num(), Err(Bad::Damaged)), "a varint longer than 64 bits");
        let long_file = written(|out| out.string(&[1; 100]).unwrap());
        let mut long = In::new(&long_file[..]);
        assert!(matches!(long.string_into(&mut Vec::new(), 99), Err(Bad::Damaged)), "over the bound");
    }
}
