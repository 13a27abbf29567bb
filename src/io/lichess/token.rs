//! The player's lichess token: `$LICHESS_TOKEN` (for this run, whatever the server), else
//! the token stored for that server by `hector online login`: lichess.org's in the file
//! `lichess-token` of the XDG config directory, another server's in a file named after it
//! (`lichess-token.https.example.org.443`), so that a token made for lichess.org never goes
//! to another host unless the player logs in there. Each is written with mode 0600 as a
//! file of hector's own (`io::owned_file`) and never printed. The variable is taken out of
//! hector's environment as hector starts ([`take_from_environment`]), so that no program
//! hector starts (the engine, espeak-ng, a speech-dispatcher started for hector) inherits it;
//! a file is read only when it is a regular file of the user's, as it is written.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::io::owned_file::{self, OwnedError, Replace};
use crate::io::platform::files::{self as platform, Kind, Privacy};

/// The environment variable that may hold the token.
pub(crate) const VARIABLE: &str = "LICHESS_TOKEN";

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
    crate::io::platform::process::forget_variable_before_threads(VARIABLE);
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

/// lichess's own hosts, which share lichess.org's token and its file's plain name: the site
/// and its opening explorer (which asks for a token since 2026). No other host is given it.
const LICHESS: [(&str, &str, u16); 2] = [
    ("https", "lichess.org", 443),
    ("https", "explorer.lichess.org", 443),
];

/// The file name of the token for `server` (a web address as `check_server` accepts it):
/// `lichess-token` for lichess's own hosts (https://lichess.org and
/// https://explorer.lichess.org), else `lichess-token.SCHEME.HOST.PORT` with anything but
/// letters, digits, dots and dashes in the host written as `_`.
pub(crate) fn file_name(server: &str) -> Option<String> {
    let uri: ureq::http::Uri = server.trim().parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let host = uri.host()?.to_ascii_lowercase();
    let port = uri
        .port_u16()
        .unwrap_or(if scheme == "http" { 80 } else { 443 });
    if LICHESS.contains(&(scheme.as_str(), host.as_str(), port)) {
        return Some("lichess-token".to_string());
    }
    let host: String = host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Some(format!("lichess-token.{scheme}.{host}.{port}"))
}

/// Where the token for `server` is kept.
pub(crate) fn path(server: &str) -> Option<PathBuf> {
    let name = file_name(server)?;
    crate::io::platform::folders::config().map(|d| d.join(name))
}

/// Why the token file is not read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TokenFileError {
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
pub(crate) enum TokenStoreError {
    #[error("no home directory for the configuration")]
    NoHome,
    #[error("cannot {doing} {}", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Owned(OwnedError),
}

fn io_error(doing: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> TokenStoreError {
    let path = path.to_path_buf();
    move |source| TokenStoreError::Io {
        doing,
        path,
        source,
    }
}

/// The token for `server`: the environment's, else the one stored for it; `None` when
/// there is none.
pub(crate) fn load(server: &str) -> Result<Option<String>, TokenFileError> {
    if let Some(t) = from_environment() {
        return Ok(Some(t));
    }
    stored(server)
}

/// The token stored for `server`; `None` when there is none.
pub(crate) fn stored(server: &str) -> Result<Option<String>, TokenFileError> {
    match path(server) {
        Some(path) => read_file(&path),
        None => Ok(None),
    }
}

/// Reads the token file without following a link, only when it is a regular file owned by
/// the user (as [`store`] writes it).
pub(crate) fn read_file(path: &Path) -> Result<Option<String>, TokenFileError> {
    let unreadable = |e: std::io::Error| TokenFileError::Unreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    // A link is refused by the system; a pipe or device does not block the open.
    let file = match platform::open_read_no_follow(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if platform::is_link_refusal(&e) => {
            return Err(TokenFileError::Link(path.to_path_buf()));
        }
        Err(e) => return Err(unreadable(e)),
    };
    let meta = file.metadata().map_err(unreadable)?;
    // Where the system opens a link as itself (Windows), its kind says what it is.
    if platform::kind(&meta) == Kind::SymbolicLink {
        return Err(TokenFileError::Link(path.to_path_buf()));
    }
    if !meta.is_file() {
        return Err(TokenFileError::NotAFile(path.to_path_buf()));
    }
    if !platform::is_mine(&file, &meta) {
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

/// Writes the token for `server`, readable by the owner only, as a file of hector's own:
/// written aside and renamed over the older one. A login is the player's own act: a link
/// or a hard link where the file belongs is replaced by a file of its own (what it led to
/// stays as it was); a folder there is refused.
pub(crate) fn store(server: &str, token: &str) -> Result<PathBuf, TokenStoreError> {
    let path = path(server).ok_or(TokenStoreError::NoHome)?;
    let text = format!("{}\n", token.trim());
    owned_file::write(&path, text.as_bytes(), Privacy::Owner, Replace::Links)
        .map_err(TokenStoreError::Owned)?;
    Ok(path)
}

/// Deletes the token stored for `server`; false when there was none.
pub(crate) fn remove(server: &str) -> Result<bool, TokenStoreError> {
    let Some(path) = path(server) else {
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

    // The link and the pipe are planted with Unix calls.
    #[cfg(unix)]
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

    #[test]
    fn each_server_has_a_token_file_of_its_own() {
        for lichess in [
            "https://lichess.org",
            "https://lichess.org/",
            "HTTPS://Lichess.org:443",
        ] {
            assert_eq!(
                file_name(lichess).as_deref(),
                Some("lichess-token"),
                "{lichess}"
            );
        }
        assert_eq!(
            file_name("https://other-host").as_deref(),
            Some("lichess-token.https.other-host.443")
        );
        assert_eq!(
            file_name("http://127.0.0.1:8080").as_deref(),
            Some("lichess-token.http.127.0.0.1.8080")
        );
        assert_eq!(
            file_name("http://[::1]:80").as_deref(),
            Some("lichess-token.http.___1_.80")
        );
        assert_eq!(
            file_name("https://lichess.org.evil.example").as_deref(),
            Some("lichess-token.https.lichess.org.evil.example.443")
        );
        assert_eq!(file_name("lichess.org"), None);
    }

    /// lichess.org's token goes to its explorer and to no other host: not over plain http,
    /// not on another port, not to a look-alike name or a neighbour of lichess.org.
    #[test]
    fn the_explorer_of_lichess_shares_its_token_and_nothing_else_does() {
        for explorer in [
            "https://explorer.lichess.org",
            "https://explorer.lichess.org/",
            "HTTPS://Explorer.Lichess.org:443",
        ] {
            assert_eq!(
                file_name(explorer).as_deref(),
                Some("lichess-token"),
                "{explorer}"
            );
        }
        for other in [
            "http://explorer.lichess.org",
            "https://explorer.lichess.org:8443",
            "https://explorer.lichess.org.evil.example",
            "https://explorer.lichess.ovh",
            "https://evil-explorer.lichess.org",
            "https://lichess.org@evil.example",
            "https://explorer-lichess.org",
            "https://tablebase.lichess.org",
            "http://127.0.0.1:9000",
        ] {
            assert_ne!(
                file_name(other).as_deref(),
                Some("lichess-token"),
                "{other}"
            );
        }
    }
}
