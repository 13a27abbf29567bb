//! The files hector keeps for itself in its data folder (the puzzle and training records,
//! a game's kept analysis, the voice log, an envelope beside its journal) and the token in
//! the configuration folder: nobody names them, so hector never writes anywhere else
//! through them.
//!
//! - A symbolic link, a file with more than one hard link, a folder, a device or a pipe
//!   where such a file belongs is refused ([`OwnedError::NotOwn`]): nothing is written
//!   through it, nothing changes outside the folder, and the caller tells the player.
//!   Only a login, which the player asks for, replaces a link or a hard link by a file of
//!   its own ([`Replace::Links`]).
//! - A whole file is written beside the old one, synced and renamed over it: the file is
//!   the old one or the new one, never half, and never chmod-ed through a link.
//! - A file is read without following a link, up to its format's size limit.
//! - A file hector cannot read (damaged, from a newer hector, too large) is set aside under
//!   a name that says so ([`set_aside`]), before anything new is written.
//! - The voice log is appended to: opened without following a link, and used only as a
//!   regular file with one name ([`open_append`]).
//!
//! What a person names (`--output`) is written by [`crate::io::output_file`] instead.

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use crate::io::platform::files::{self as platform, Kind, Privacy};

/// What stands where a file of hector's own belongs, when hector does not use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stranger {
    #[error("a symbolic link")]
    /// A symbolic link (to anything, or to nothing).
    Link,
    /// A file with more than one name: writing it would change the others.
    #[error("a file of more than one name (a hard link)")]
    HardLinked,
    /// A folder, a device, a named pipe or a socket.
    #[error("no regular file")]
    NotAFile,
}

#[derive(Debug, thiserror::Error)]
pub enum OwnedError {
    #[error("{} is {kind}: hector writes nothing through it", path.display())]
    NotOwn { path: PathBuf, kind: Stranger },
    #[error("{} is {size} bytes, more than its format allows ({limit})", path.display())]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    #[error("cannot {doing} {}", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io_error(doing: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> OwnedError {
    let path = path.to_path_buf();
    move |source| OwnedError::Io {
        doing,
        path,
        source,
    }
}

fn not_own(path: &Path, kind: Stranger) -> OwnedError {
    OwnedError::NotOwn {
        path: path.to_path_buf(),
        kind,
    }
}

/// What a whole-file write may replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Replace {
    /// Only a regular file of one name (or nothing): everything else is refused.
    FileOnly,
    /// Also a symbolic link or a hard link, whose name then becomes a file of its own (the
    /// file it led to stays as it was): a login the player asked for.
    Links,
}

/// What stands at `path`, seen without following a link: `None` when nothing does.
fn stranger_at(path: &Path) -> Result<Option<Stranger>, OwnedError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error("look at", path)(e)),
    };
    Ok(stranger(&meta, || platform::links(path, &meta)))
}

/// What an open file is, when it is no file of hector's own.
fn stranger_open(file: &File, meta: &std::fs::Metadata) -> Option<Stranger> {
    stranger(meta, || platform::file_links(file, meta))
}

/// What `meta` shows, its names counted by `links` when it is a file.
fn stranger(meta: &std::fs::Metadata, links: impl FnOnce() -> u64) -> Option<Stranger> {
    match platform::kind(meta) {
        Kind::SymbolicLink => Some(Stranger::Link),
        Kind::File if links() > 1 => Some(Stranger::HardLinked),
        Kind::File => None,
        Kind::Directory | Kind::Device | Kind::Fifo | Kind::Socket => Some(Stranger::NotAFile),
    }
}

/// Whether a file of hector's own may be at `path`: nothing there, or a regular file of
/// one name.
pub(crate) fn check(path: &Path) -> Result<(), OwnedError> {
    match stranger_at(path)? {
        None => Ok(()),
        Some(kind) => Err(not_own(path, kind)),
    }
}

/// Writes `bytes` as the whole file at `path` (its folder made when missing): a temporary
/// file beside it, synced and renamed over it.
pub(crate) fn write(
    path: &Path,
    bytes: &[u8],
    privacy: Privacy,
    replace: Replace,
) -> Result<(), OwnedError> {
    match (stranger_at(path)?, replace) {
        (None, _) | (Some(Stranger::Link | Stranger::HardLinked), Replace::Links) => {}
        (Some(kind), _) => return Err(not_own(path, kind)),
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(io_error("create the folder of", path))?;
    let name = path
        .file_name()
        .ok_or_else(|| not_own(path, Stranger::NotAFile))?;
    let mut made = None;
    for n in 0..100u32 {
        let temp = dir.join(format!(
            ".{}.{}-{n}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        match platform::create_new(&temp, privacy) {
            Ok(file) => {
                made = Some((temp, file));
                break;
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_error("write", path)(e)),
        }
    }
    let Some((temp, mut file)) = made else {
        return Err(io_error("write", path)(std::io::Error::from(
            ErrorKind::AlreadyExists,
        )));
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(io_error("write", path))
        // Renaming replaces the name only: a link there is never followed.
        .and_then(|()| platform::replace(&temp, path).map_err(io_error("write", path)));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    // The rename is durable once the folder is.
    let _ = platform::sync_dir(&dir);
    Ok(())
}

/// Reads the file at `path` whole, without following a link, if it is at most `limit`
/// bytes; `None` when there is no file.
pub(crate) fn read(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, OwnedError> {
    let file = match platform::open_read_no_follow(path) {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) if platform::is_link_refusal(&e) => return Err(not_own(path, Stranger::Link)),
        Err(e) => return Err(io_error("read", path)(e)),
    };
    let meta = file.metadata().map_err(io_error("read", path))?;
    if let Some(kind) = stranger_open(&file, &meta) {
        return Err(not_own(path, kind));
    }
    let too_large = |size| OwnedError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit,
    };
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error("read", path))?;
    // It grew while it was read.
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// Moves the unreadable file at `path` out of the way, to `NAME.unreadable-DATE` beside it
/// (`-2`, `-3`… when that name is taken): nothing of it is lost, and a new one can be
/// written. Returns the new name.
pub(crate) fn set_aside(path: &Path) -> Result<PathBuf, OwnedError> {
    let stamp = crate::io::utc::now_utc().replace([':', 'T'], "-");
    let stamp = stamp.trim_end_matches('Z');
    let mut base = path.as_os_str().to_owned();
    base.push(format!(".unreadable-{stamp}"));
    for n in 1..=100u32 {
        let mut aside = base.clone();
        if n > 1 {
            aside.push(format!("-{n}"));
        }
        let aside = PathBuf::from(aside);
        match std::fs::symlink_metadata(&aside) {
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            _ => continue,
        }
        platform::replace(path, &aside).map_err(io_error("set aside", path))?;
        return Ok(aside);
    }
    Err(io_error("set aside", path)(std::io::Error::from(
        ErrorKind::AlreadyExists,
    )))
}

/// Opens the file at `path` for appending (made, with `privacy`, when missing), only as a
/// regular file of one name; one others could read is made private through the open file
/// when `privacy` asks for it. Its size comes along.
pub(crate) fn open_append(path: &Path, privacy: Privacy) -> Result<(File, u64), OwnedError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io_error("create the folder of", path))?;
    }
    // Seen first, so that a folder, a pipe or a device is named as such; the open itself
    // refuses a link that replaced the file meanwhile.
    if let Some(kind) = stranger_at(path)? {
        return Err(not_own(path, kind));
    }
    let file = match platform::open_append_no_follow(path, privacy) {
        Ok(f) => f,
        Err(e) if platform::is_link_refusal(&e) => return Err(not_own(path, Stranger::Link)),
        Err(e) if e.kind() == ErrorKind::IsADirectory => {
            return Err(not_own(path, Stranger::NotAFile));
        }
        Err(e) => return Err(io_error("open", path)(e)),
    };
    let meta = file.metadata().map_err(io_error("open", path))?;
    if let Some(kind) = stranger_open(&file, &meta) {
        return Err(not_own(path, kind));
    }
    if privacy == Privacy::Owner {
        platform::make_private(&file, &meta).map_err(io_error("make private", path))?;
    }
    Ok((file, meta.len()))
}

/// Opens a journal for reading and appending, only as a regular file of one name.
pub(crate) fn open_journal(path: &Path) -> Result<File, OwnedError> {
    if let Some(kind) = stranger_at(path)? {
        return Err(not_own(path, kind));
    }
    let file = match platform::open_read_append_no_follow(path) {
        Ok(f) => f,
        Err(e) if platform::is_link_refusal(&e) => return Err(not_own(path, Stranger::Link)),
        Err(e) if e.kind() == ErrorKind::IsADirectory => {
            return Err(not_own(path, Stranger::NotAFile));
        }
        Err(e) => return Err(io_error("open", path)(e)),
    };
    let meta = file.metadata().map_err(io_error("open", path))?;
    match stranger_open(&file, &meta) {
        Some(kind) => Err(not_own(path, kind)),
        None => Ok(file),
    }
}

// Links, modes and permissions are planted with Unix calls.
#[cfg(test)]
#[cfg(unix)]
mod tests;
