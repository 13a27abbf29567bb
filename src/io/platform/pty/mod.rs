//! Pseudo-terminal pairs: the simulated board's end (the master) and a device path that
//! hector opens like a serial port (the slave). Used by `hector simulate-board`, the tests
//! and the benchmarks. Unix only: Windows has no device a serial program can open that
//! another program plays (a virtual null-modem driver such as com0com would be the way),
//! so there [`AVAILABLE`] is false and [`Pty::open`] refuses.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::*;

/// Whether this system has pseudo-terminals a serial program can open.
pub(crate) const AVAILABLE: bool = cfg!(unix);
