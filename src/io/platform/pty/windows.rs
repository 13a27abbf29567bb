//! Windows has no pseudo-terminal a serial program can open: a [`Pty`] cannot be made, and
//! `hector simulate-board` says so before it tries.

use std::convert::Infallible;
use std::io;
use std::path::Path;
use std::time::Duration;

/// A pseudo-terminal pair: none exists on Windows.
#[derive(Debug)]
pub struct Pty {
    never: Infallible,
}

impl Pty {
    /// Refuses: there are no pseudo-terminals.
    pub fn open() -> io::Result<Pty> {
        Err(super::super::unsupported("a pseudo-terminal"))
    }

    pub fn path(&self) -> &Path {
        match self.never {}
    }

    pub fn write_all(&self, _bytes: &[u8]) -> io::Result<()> {
        match self.never {}
    }

    pub fn read_timeout(&self, _timeout: Duration) -> io::Result<Option<Vec<u8>>> {
        match self.never {}
    }
}
