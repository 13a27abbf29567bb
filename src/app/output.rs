//! Writing report lines to standard output without panicking when the reader goes away
//! (`hector check big.pgn | head` must end quietly, not with a broken-pipe panic).

use std::io::{self, BufWriter, Stdout, Write};

pub struct Out {
    inner: BufWriter<Stdout>,
    closed: bool,
}

impl Default for Out {
    fn default() -> Self {
        Out::new()
    }
}

impl Out {
    pub fn new() -> Out {
        Out {
            inner: BufWriter::new(io::stdout()),
            closed: false,
        }
    }

    /// Writes one line. Returns false once the reader has gone away.
    pub fn line(&mut self, text: &str) -> bool {
        if self.closed {
            return false;
        }
        let ok = self
            .inner
            .write_all(text.as_bytes())
            .and_then(|()| self.inner.write_all(b"\n"));
        if ok.is_err() {
            self.closed = true;
        }
        !self.closed
    }

    /// Writes text that already ends in a newline. Returns false once the reader has gone away.
    pub fn write_raw(&mut self, text: &str) -> bool {
        if self.closed {
            return false;
        }
        if self.inner.write_all(text.as_bytes()).is_err() {
            self.closed = true;
        }
        !self.closed
    }

    pub fn flush(&mut self) {
        if !self.closed && self.inner.flush().is_err() {
            self.closed = true;
        }
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        self.flush();
    }
}
