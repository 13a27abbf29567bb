//! Windows: no local socket to connect to; every connection is refused.

use std::convert::Infallible;
use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::path::Path;
use std::time::Duration;

/// A local socket: none exists on Windows.
#[derive(Debug)]
pub(crate) struct LocalStream {
    never: Infallible,
}

impl LocalStream {
    /// Refuses: there are no local sockets here.
    pub(crate) fn connect(_path: impl AsRef<Path>) -> io::Result<LocalStream> {
        Err(super::super::unsupported("a local socket"))
    }

    pub(crate) fn try_clone(&self) -> io::Result<LocalStream> {
        match self.never {}
    }

    pub(crate) fn set_read_timeout(&self, _timeout: Option<Duration>) -> io::Result<()> {
        match self.never {}
    }

    pub(crate) fn set_write_timeout(&self, _timeout: Option<Duration>) -> io::Result<()> {
        match self.never {}
    }

    pub(crate) fn shutdown(&self, _how: Shutdown) -> io::Result<()> {
        match self.never {}
    }
}

impl Read for LocalStream {
    fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
        match self.never {}
    }
}

impl Write for LocalStream {
    fn write(&mut self, _buf: &[u8]) -> io::Result<usize> {
        match self.never {}
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.never {}
    }
}
