//! The terminal (the console on Windows) where the operating system decides: no echo while
//! a secret is typed, and whether standard output was there at all when hector started.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;
