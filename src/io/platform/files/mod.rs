//! What files are and how they are opened, where the operating system decides: the kind of
//! a file, its hard links and owner, opening without following a symbolic link, files only
//! their owner may read, replacing a file by renaming and making a folder's entries durable.
//!
//! Unix: `O_NOFOLLOW`, link counts, owners and modes from `stat`, `fchmod` and `fchown`
//! through an open file, `fsync` of the folder. Windows: `FILE_FLAG_OPEN_REPARSE_POINT`, the
//! link count from `GetFileInformationByHandle`, a protected access list with one entry for
//! the user, `FILE_FLAG_BACKUP_SEMANTICS` to open a folder, renames tried again while another
//! program (a virus scanner, the search indexer) holds the file for a moment.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

/// What stands at a path (seen without following a symbolic link).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Directory,
    SymbolicLink,
    Device,
    #[cfg_attr(windows, allow(dead_code, reason = "Windows reports no such file"))]
    Fifo,
    #[cfg_attr(windows, allow(dead_code, reason = "Windows reports no such file"))]
    Socket,
}

/// Who may read a file hector creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Privacy {
    /// Its owner only (the token, the voice log).
    Owner,
    /// As the system's defaults say (the umask, the folder's inherited permissions).
    Default,
}
