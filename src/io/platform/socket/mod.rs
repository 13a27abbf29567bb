//! A local socket to a server on the same computer (BRLTTY's BrlAPI). Unix: a Unix domain
//! socket. Windows: none here ([`AVAILABLE`] is false); a server there is reached over TCP,
//! and NVDA and JAWS drive the braille display themselves.

#[cfg(unix)]
pub(crate) use std::os::unix::net::UnixStream as LocalStream;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::LocalStream;

/// Whether this system has local sockets hector can connect to.
pub(crate) const AVAILABLE: bool = cfg!(unix);
