//! What files are and how they are opened, where the operating system decides: the kind of
//! a file, its hard links and owner, opening without following a symbolic link, permissions
//! set through an open file. Every use of the system's own file calls (`std::os::unix`,
//! `nix`, `libc`) by hector's file writers lives here, so that another system needs only
//! another implementation of this module.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::*;

/// What stands at a path (seen without following a symbolic link).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Directory,
    SymbolicLink,
    Device,
    Fifo,
    Socket,
}

/// Who may read a file hector creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Privacy {
    /// Its owner only (the token, the voice log).
    Owner,
    /// As the system's defaults say (the umask).
    Default,
}
