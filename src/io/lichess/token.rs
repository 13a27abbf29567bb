//! The player's lichess token: `$LICHESS_TOKEN`, else the file `lichess-token` in the XDG
//! config directory, written with mode 0600 and never printed. The variable is taken out of
//! hector's environment as hector starts ([`take_from_environment`]), so that no program
//! hector starts (the engine, espeak-ng, a speech-dispatcher started for hector) inherits it;
//! the file is read only when it is a regular file of the user's, as it is written.

use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable that may hold the token.
pub const VARIABLE: &str = "LICHESS_TOKEN";

/// A token is some dozens of characters; a larger file is no token file.
const MAX_FILE: u64 = 4096;

/// The token from the environment, as it was when hector started.
static FROM_ENVIRONMENT: OnceLock<Option<String>> = OnceLock::new();

/// Takes the token out of hector's environment. Called first thing in `main`, before any
/// thread starts: every child inherits the environment, and a speech-dispatcher that
/// libspeechd starts for hector outlives it by minutes.
pub fn take_from_environment() {
    let token = std::env::var(VARIABLE)
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    let _ = FROM_ENVIRONMENT.set(token);
    crate::io::child::forget_variable_before_threads(VARIABLE);
}

fn from_environment() -> Option<String> {
    // Without `take_from_environment` (the library's own tests) the variable is read as is.
    FROM_ENVIRONMENT
        .get_or_init(|| {
            std::env::var(VARIABLE)
                .ok()
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
        })
        .clone()
}

/// Where the token is kept.
pub fn path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "hector").map(|d| d.config_dir().join("lichess-token"))
}

/// Why the token file is not read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenFileError {
    #[error("{} is a symbolic link", .0.display())]
    Link(PathBuf),
    #[error("{} is not a regular file", .0.display())]
    NotAFile(PathBuf),
    #[error("{} belongs to another user", .0.display())]
    NotYours(PathBuf),
    #[error("{} is larger than a token", .0.display())]
    TooLarge(PathBuf),
    #[error("{}: {reason}", .path.display())]
    Unreadable { path: PathBuf, reason: String },
}

/// Why the token could not be stored or removed.
#[derive(Debug, thiserror::Error)]
pub enum TokenStoreError {
    #[error("no home directory for the configuration")]
    NoHome,
    #[error("cannot {doing} {}", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io_error(doing: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> TokenStoreError {
    let path = path.to_path_buf();
    move |source| TokenStoreError::Io {
        doing,
        path,
        source,
    }
}

/// The token: the environment's, else the file's; `None` when there is none.
pub fn load() -> Result<Option<String>, TokenFileError> {
    if let Some(t) = from_environment() {
        return Ok(Some(t));
    }
    stored()
}

/// The token in the file; `None` when there is no file.
pub fn stored() -> Result<Option<String>, TokenFileError> {
    match path() {
        Some(path) => read_file(&path),
        None => Ok(None),
    }
}

/// Reads the token file without following a link, only when it is a regular file owned by
/// the user (as [`store`] writes it).
pub fn read_file(path: &Path) -> Result<Option<String>, TokenFileError> {
    let unreadable = |e: std::io::Error| TokenFileError::Unreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        // A link is refused by the kernel; a pipe or device does not block the open.
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(path);
    let file = match file {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(nix::libc::ELOOP) => {
            return Err(TokenFileError::Link(path.to_path_buf()));
        }
        Err(e) => return Err(unreadable(e)),
    };
    let meta = file.metadata().map_err(unreadable)?;
    if !meta.is_file() {
        return Err(TokenFileError::NotAFile(path.to_path_buf()));
    }
    if meta.uid() != nix::unistd::geteuid().as_raw() {
        return Err(TokenFileError::NotYours(path.to_path_buf()));
    }
    if meta.len() > MAX_FILE {
        return Err(TokenFileError::TooLarge(path.to_path_buf()));
    }
    let mut text = String::new();
    file.take(MAX_FILE)
        .read_to_string(&mut text)
        .map_err(unreadable)?;
    let t = text.trim();
    Ok((!t.is_empty()).then(|| t.to_string()))
}

/// Writes the token, readable by the owner only; replaces an older one atomically.
pub fn store(token: &str) -> Result<PathBuf, TokenStoreError> {
    let path = path().ok_or(TokenStoreError::NoHome)?;
    let dir = path.parent().ok_or(TokenStoreError::NoHome)?;
    std::fs::create_dir_all(dir).map_err(io_error("create", dir))?;
    let tmp = dir.join(".lichess-token.new");
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(io_error("write", &tmp))?;
    f.write_all(token.trim().as_bytes())
        .and_then(|()| f.write_all(b"\n"))
        .and_then(|()| f.sync_all())
        .map_err(io_error("write", &tmp))?;
    std::fs::rename(&tmp, &path).map_err(io_error("write", &path))?;
    Ok(path)
}

/// Deletes the stored token; false when there was none.
pub fn remove() -> Result<bool, TokenStoreError> {
    let Some(path) = path() else {
        return Ok(false);
    };
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error("delete", &path)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_of_the_users_is_read() {
        let dir = std::env::temp_dir().join(format!("hector-token-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let real = dir.join("real");
        std::fs::write(&real, "lip_secret\n").expect("file");
        let link = dir.join("link");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        let fifo = dir.join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).expect("fifo");
        let big = dir.join("big");
        std::fs::write(&big, vec![b'x'; 5000]).expect("big");
        let results = (
            read_file(&real),
            read_file(&link),
            read_file(&fifo),
            read_file(&big),
            read_file(&dir.join("none")),
        );
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(results.0, Ok(Some("lip_secret".to_string())));
        assert_eq!(results.1, Err(TokenFileError::Link(link)));
        assert_eq!(results.2, Err(TokenFileError::NotAFile(fifo)));
        assert_eq!(results.3, Err(TokenFileError::TooLarge(big)));
        assert_eq!(results.4, Ok(None));
    }
}
