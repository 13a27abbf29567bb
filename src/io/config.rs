//! The configuration file: `$HECTOR_CONFIG`, or `config.toml` in the XDG config directory
//! (`~/.config/hector/config.toml`).

use std::path::PathBuf;

use crate::core::settings::{Settings, parse_settings};

/// Where hector looks for its configuration.
pub fn config_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HECTOR_CONFIG") {
        return Some(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "hector").map(|d| d.config_dir().join("config.toml"))
}

/// The settings, and a problem to tell the player when the file exists but cannot be used
/// (the defaults are used then; the file is never changed).
pub fn load_settings() -> (Settings, Option<(PathBuf, String)>) {
    let Some(path) = config_path() else {
        return (Settings::default(), None);
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => match parse_settings(&text) {
            Ok(s) => (s, None),
            Err(e) => (Settings::default(), Some((path, e.to_string()))),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Settings::default(), None),
        Err(e) => (Settings::default(), Some((path, e.to_string()))),
    }
}
