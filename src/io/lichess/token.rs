//! The player's lichess token: `$LICHESS_TOKEN`, else the file `lichess-token` in the XDG
//! config directory, written with mode 0600 and never printed.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

use anyhow::{Context, Result};

/// Where the token is kept.
pub fn path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "hector").map(|d| d.config_dir().join("lichess-token"))
}

/// The token: the environment's, else the file's.
pub fn load() -> Option<String> {
    if let Ok(t) = std::env::var("LICHESS_TOKEN")
        && !t.trim().is_empty()
    {
        return Some(t.trim().to_string());
    }
    let text = std::fs::read_to_string(path()?).ok()?;
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// Writes the token, readable by the owner only; replaces an older one atomically.
pub fn store(token: &str) -> Result<PathBuf> {
    let path = path().context("no home directory for the configuration")?;
    let dir = path.parent().context("the token's directory")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let tmp = dir.join(".lichess-token.new");
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    f.write_all(token.trim().as_bytes())
        .and_then(|()| f.write_all(b"\n"))
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// Deletes the stored token; false when there was none.
pub fn remove() -> Result<bool> {
    let Some(path) = path() else {
        return Ok(false);
    };
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).with_context(|| format!("cannot delete {}", path.display())),
    }
}
