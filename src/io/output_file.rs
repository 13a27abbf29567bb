//! Writing a file a person named (`hector export --output`) without harming what is there.
//!
//! - No file yet, or a regular file: a temporary file beside it is written, synced and
//!   renamed over, so the file is the old one or the new one, never half; a file that was
//!   there keeps its permissions and, where the system allows, its owner.
//! - A regular file hector may not replace that way (another owner it cannot give the new
//!   file, more than one hard link, or a directory where it cannot create the temporary
//!   file) is overwritten in place instead: the file stays the same file.
//! - A symbolic link is followed: the file it leads to is written as above, the link stays.
//! - A directory, a device, a named pipe or a socket is refused: hector never turns
//!   `/dev/null` into a file and never removes a path it did not create.

use std::fs::{Metadata, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use crate::io::platform::files::{self as platform, Kind, Privacy};

/// Links followed before giving up (as the system does with ELOOP).
const MAX_LINKS: usize = 40;

/// What stands at a path that hector refuses to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotAFile {
    Directory,
    Device,
    Fifo,
    Socket,
    /// A chain of symbolic links that does not end.
    LinkLoop,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum OutputError {
    #[error("{} is not a regular file ({kind:?})", path.display())]
    Refused { path: PathBuf, kind: NotAFile },
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The path a chain of symbolic links leads to, and what is there (nothing: `None`).
fn resolve(path: &Path) -> Result<(PathBuf, Option<Metadata>), OutputError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&current) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok((current, None)),
            Err(e) => return Err(io_error(&current)(e)),
        };
        if !meta.file_type().is_symlink() {
            return Ok((current, Some(meta)));
        }
        let target = std::fs::read_link(&current).map_err(io_error(&current))?;
        current = match current.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    Err(OutputError::Refused {
        path: path.to_path_buf(),
        kind: NotAFile::LinkLoop,
    })
}

fn refusal(meta: &Metadata) -> Option<NotAFile> {
    match platform::kind(meta) {
        Kind::File => None,
        Kind::Directory => Some(NotAFile::Directory),
        Kind::Fifo => Some(NotAFile::Fifo),
        Kind::Socket => Some(NotAFile::Socket),
        // `resolve` follows links: what is left is a device.
        Kind::Device | Kind::SymbolicLink => Some(NotAFile::Device),
    }
}

/// Writes `bytes` to `path` as described above; returns the path of the file written (the
/// link's target for a symbolic link).
pub(crate) fn write_output(path: &Path, bytes: &[u8]) -> Result<PathBuf, OutputError> {
    let (target, existing) = resolve(path)?;
    if let Some(kind) = existing.as_ref().and_then(refusal) {
        return Err(OutputError::Refused {
            path: path.to_path_buf(),
            kind,
        });
    }
    match replace(&target, existing.as_ref(), bytes) {
        Ok(()) => Ok(target),
        Err(Fallback::InPlace) => {
            overwrite_in_place(&target, bytes)?;
            Ok(target)
        }
        Err(Fallback::Failed(e)) => Err(e),
    }
}

enum Fallback {
    /// The file must stay the same file: write into it.
    InPlace,
    Failed(OutputError),
}

impl From<OutputError> for Fallback {
    fn from(e: OutputError) -> Fallback {
        Fallback::Failed(e)
    }
}

/// A temporary file beside `target`, renamed over it.
fn replace(target: &Path, existing: Option<&Metadata>, bytes: &[u8]) -> Result<(), Fallback> {
    if existing.is_some() {
        // A file its owner made read-only is not replaced behind its back.
        platform::may_write(target).map_err(io_error(target))?;
        if existing.is_some_and(|m| platform::links(target, m) > 1) {
            return Err(Fallback::InPlace);
        }
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target.file_name().ok_or_else(|| OutputError::Refused {
        path: target.to_path_buf(),
        kind: NotAFile::Directory,
    })?;
    let mut temp = None;
    for n in 0..100u32 {
        let candidate = dir.join(format!(
            ".{}.{}-{n}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        // Nobody else may read the new text before it has the old file's permissions.
        let privacy = if existing.is_some() {
            Privacy::Owner
        } else {
            Privacy::Default
        };
        match platform::create_new(&candidate, privacy) {
            Ok(f) => {
                temp = Some((candidate, f));
                break;
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) if existing.is_some() && e.kind() == ErrorKind::PermissionDenied => {
                return Err(Fallback::InPlace);
            }
            Err(e) => return Err(io_error(target)(e).into()),
        }
    }
    let Some((temp_path, mut file)) = temp else {
        return Err(Fallback::InPlace);
    };
    // Removes the temporary file on every way out but the rename: it is hector's own.
    let result = (|| -> Result<(), Fallback> {
        if let Some(old) = existing {
            let mine = file.metadata().map_err(io_error(target))?;
            if platform::owner(&mine) != platform::owner(old)
                && platform::set_owner(&file, platform::owner(old)).is_err()
            {
                return Err(Fallback::InPlace);
            }
            platform::set_mode(&file, platform::mode(old)).map_err(io_error(target))?;
        }
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(io_error(target))?;
        platform::replace(&temp_path, target).map_err(io_error(target))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp_path);
        return result;
    }
    // The rename is durable once the directory is.
    let _ = platform::sync_dir(&dir);
    Ok(())
}

/// Truncates and writes the file itself (it keeps its owner, permissions and links).
fn overwrite_in_place(target: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let mut file = OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(target)
        .map_err(io_error(target))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(io_error(target))
}

// Owners, modes, links, pipes and devices are made and read with Unix calls.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};

    struct TempDir(PathBuf);

    impl TempDir {
        fn new(what: &str) -> TempDir {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "hector-output-{what}-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::SeqCst)
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("temp dir");
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("read dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_file_is_written_and_nothing_else_is_left() {
        let dir = TempDir::new("new");
        let path = dir.0.join("game.pgn");
        assert_eq!(write_output(&path, b"1. e4 *\n").expect("written"), path);
        assert_eq!(std::fs::read(&path).expect("read"), b"1. e4 *\n");
        assert_eq!(entries(&dir.0), ["game.pgn"]);
    }

    #[test]
    fn a_regular_file_keeps_its_permissions() {
        let dir = TempDir::new("mode");
        let path = dir.0.join("game.pgn");
        std::fs::write(&path, "old").expect("old file");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        write_output(&path, b"new").expect("written");
        let meta = std::fs::metadata(&path).expect("metadata");
        assert_eq!(meta.mode() & 0o777, 0o600);
        assert_eq!(std::fs::read(&path).expect("read"), b"new");
        assert_eq!(entries(&dir.0), ["game.pgn"]);
    }

    #[test]
    fn another_owner_is_kept() {
        // Only root may give a file away; elsewhere the file is written in place and keeps its
        // owner by itself.
        let dir = TempDir::new("owner");
        let path = dir.0.join("game.pgn");
        std::fs::write(&path, "old").expect("old file");
        let nobody = nix::unistd::Uid::from_raw(65534);
        let root = nix::unistd::geteuid().is_root();
        if root {
            nix::unistd::chown(&path, Some(nobody), None).expect("chown");
        }
        let before = std::fs::metadata(&path).expect("metadata");
        write_output(&path, b"new").expect("written");
        let after = std::fs::metadata(&path).expect("metadata");
        assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
        assert_eq!(after.uid() == 65534, root);
        assert_eq!(std::fs::read(&path).expect("read"), b"new");
        assert_eq!(entries(&dir.0), ["game.pgn"]);
    }

    #[test]
    fn a_symbolic_link_stays_and_its_target_is_written() {
        let dir = TempDir::new("link");
        let target = dir.0.join("real.pgn");
        std::fs::write(&target, "old").expect("target");
        let link = dir.0.join("link.pgn");
        std::os::unix::fs::symlink("real.pgn", &link).expect("link");
        assert_eq!(write_output(&link, b"new").expect("written"), target);
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("link")
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
        // A link to nothing yet: the file it names is created.
        let dangling = dir.0.join("later.pgn");
        std::os::unix::fs::symlink("made.pgn", &dangling).expect("link");
        write_output(&dangling, b"made").expect("written");
        assert_eq!(
            std::fs::read(dir.0.join("made.pgn")).expect("read"),
            b"made"
        );
        let looped = dir.0.join("loop");
        std::os::unix::fs::symlink("loop", &looped).expect("link");
        assert!(matches!(
            write_output(&looped, b"x"),
            Err(OutputError::Refused {
                kind: NotAFile::LinkLoop,
                ..
            })
        ));
    }

    #[test]
    fn hard_links_stay_one_file() {
        let dir = TempDir::new("hard");
        let path = dir.0.join("a.pgn");
        std::fs::write(&path, "old").expect("file");
        std::fs::hard_link(&path, dir.0.join("b.pgn")).expect("hard link");
        write_output(&path, b"new").expect("written");
        assert_eq!(std::fs::read(dir.0.join("b.pgn")).expect("read"), b"new");
    }

    #[test]
    fn devices_directories_and_pipes_are_refused_and_kept() {
        let dir = TempDir::new("special");
        let refused = |path: &Path| match write_output(path, b"x") {
            Err(OutputError::Refused { kind, .. }) => kind,
            other => panic!("{} was not refused: {other:?}", path.display()),
        };
        assert_eq!(refused(Path::new("/dev/null")), NotAFile::Device);
        assert!(
            std::fs::metadata("/dev/null")
                .expect("/dev/null")
                .file_type()
                .is_char_device()
        );
        assert_eq!(refused(&dir.0), NotAFile::Directory);
        let fifo = dir.0.join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600))
            .expect("mkfifo");
        assert_eq!(refused(&fifo), NotAFile::Fifo);
        let to_null = dir.0.join("null");
        std::os::unix::fs::symlink("/dev/null", &to_null).expect("link");
        assert_eq!(refused(&to_null), NotAFile::Device);
        assert_eq!(entries(&dir.0), ["fifo", "null"]);
    }
}
