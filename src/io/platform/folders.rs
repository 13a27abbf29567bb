//! Where hector keeps what it keeps: the data folder (games, progress, kept analyses), the
//! configuration folder (the settings, the token) and the player's home folder. The
//! `directories` crate knows each system's places (XDG on Linux, `%APPDATA%` on Windows);
//! `HECTOR_DATA` and `HECTOR_CONFIG` name others, for tests and for players who want them.

use std::path::PathBuf;

fn project() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "hector")
}

/// hector's data folder: `$HECTOR_DATA`, else the system's (`~/.local/share/hector`,
/// `%APPDATA%\hector\data`); `None` without a home folder.
pub(crate) fn data() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HECTOR_DATA") {
        return Some(PathBuf::from(p));
    }
    project().map(|d| d.data_dir().to_path_buf())
}

/// hector's configuration folder (`~/.config/hector`, `%APPDATA%\hector\config`).
pub(crate) fn config() -> Option<PathBuf> {
    project().map(|d| d.config_dir().to_path_buf())
}

/// The player's home folder: `$HOME` on Unix (as a shell has it), the profile folder on
/// Windows (`%USERPROFILE%`).
pub(crate) fn home() -> Option<PathBuf> {
    let variable = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    std::env::var_os(variable)
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}
