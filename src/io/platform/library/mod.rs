//! Loading a shared library at run time (PocketSphinx, the first time hector listens): a
//! player without it still starts hector. Unix: `dlopen`; Windows: `LoadLibraryW`. A library
//! loaded is never unloaded: the functions taken from it stay valid for the whole run.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;
