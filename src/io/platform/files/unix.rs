//! The Unix implementation: `O_NOFOLLOW`, link counts and modes from `stat`, `fchmod` and
//! `fchown` through an open file.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use super::{Kind, Privacy};

/// The kind of a file from its metadata (from `symlink_metadata` a link is a link).
pub(crate) fn kind(meta: &Metadata) -> Kind {
    let t = meta.file_type();
    if t.is_symlink() {
        Kind::SymbolicLink
    } else if t.is_file() {
        Kind::File
    } else if t.is_dir() {
        Kind::Directory
    } else if t.is_fifo() {
        Kind::Fifo
    } else if t.is_socket() {
        Kind::Socket
    } else {
        Kind::Device
    }
}

/// How many names the file at `path` has (hard links); `meta` is what was seen there.
pub(crate) fn links(_path: &Path, meta: &Metadata) -> u64 {
    meta.nlink()
}

/// How many names the open `file` has (hard links); `meta` is its metadata.
pub(crate) fn file_links(_file: &File, meta: &Metadata) -> u64 {
    meta.nlink()
}

/// Who owns a file and its group.
pub(crate) type Owner = (u32, u32);

/// The file's owner and group.
pub(crate) fn owner(meta: &Metadata) -> Owner {
    (meta.uid(), meta.gid())
}

/// Whether the open file belongs to the user hector runs as.
pub(crate) fn is_mine(_file: &File, meta: &Metadata) -> bool {
    meta.uid() == nix::unistd::geteuid().as_raw()
}

/// The permission bits (with set-id and sticky bits).
pub(crate) fn mode(meta: &Metadata) -> u32 {
    meta.mode() & 0o7777
}

/// Whether others than the owner may read or write it.
pub(crate) fn is_private(meta: &Metadata) -> bool {
    meta.mode() & 0o077 == 0
}

/// Gives the open file these permission bits (the file itself, never a link's target).
pub(crate) fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    file.set_permissions(std::fs::Permissions::from_mode(mode & 0o7777))
}

/// Makes the open file readable by its owner only, unless it is already (`meta`: its
/// metadata).
pub(crate) fn make_private(file: &File, meta: &Metadata) -> io::Result<()> {
    if is_private(meta) {
        return Ok(());
    }
    set_mode(file, 0o600)
}

/// Gives the open file this owner and group (only root may give a file away).
pub(crate) fn set_owner(file: &File, (uid, gid): Owner) -> io::Result<()> {
    std::os::unix::fs::fchown(file, Some(uid), Some(gid))
}

/// Whether hector may write the file at `path` (its owner may have made it read-only).
pub(crate) fn may_write(path: &Path) -> io::Result<()> {
    nix::unistd::access(path, nix::unistd::AccessFlags::W_OK).map_err(io::Error::from)
}

/// Whether an open refused because the last part of the path is a symbolic link.
pub(crate) fn is_link_refusal(e: &io::Error) -> bool {
    e.raw_os_error() == Some(nix::libc::ELOOP)
}

/// Opens `path` for reading without following a symbolic link at its end (the open fails,
/// [`is_link_refusal`]) and without waiting for a named pipe's writer.
pub(crate) fn open_read_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(path)
}

/// Opens `path` for appending, made when missing (with `privacy`), without following a
/// symbolic link at its end and without waiting for a named pipe's reader.
pub(crate) fn open_append_no_follow(path: &Path, privacy: Privacy) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options
        .append(true)
        .create(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK);
    if privacy == Privacy::Owner {
        options.mode(0o600);
    }
    options.open(path)
}

/// Opens an existing file for reading and appending without following a symbolic link at
/// the end of `path`.
pub(crate) fn open_read_append_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .append(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(path)
}

/// Creates a new file at `path` (never one that exists, nor through a link: `O_EXCL`).
pub(crate) fn create_new(path: &Path, privacy: Privacy) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    if privacy == Privacy::Owner {
        options.mode(0o600);
    }
    options.open(path)
}

/// Renames `from` over `to` in one step (the same folder): `to` is the old file or the new.
pub(crate) fn replace(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::rename(from, to)
}

/// Makes the folder's entries durable (a file created or renamed in it).
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir).and_then(|d| d.sync_all())
}

/// Makes `link` a symbolic link to `target`.
pub(crate) fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// Creates a new file at `path` for reading and writing, its owner's only, that vanishes
/// when it is closed, even when hector is killed: its name is removed at once and the open
/// file stays.
pub(crate) fn create_scratch(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    std::fs::remove_file(path)?;
    Ok(file)
}

/// Reads from `file` at `offset`, without moving a cursor another reader or writer shares.
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

/// Writes all of `buf` to `file` at `offset`, without moving a shared cursor.
pub(crate) fn write_all_at(file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, buf, offset)
}
