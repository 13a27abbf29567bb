//! The configuration file: `$HECTOR_CONFIG`, or `config.toml` in the XDG config directory
//! (`~/.config/hector/config.toml`). `HECTOR_CONFIG=` (empty) means no file at all.

use std::io::Read;
use std::path::PathBuf;

use crate::core::settings::{Settings, SettingsError, parse_settings};

/// A settings file is a few lines; anything larger is not one (and is not read into memory).
pub(crate) const MAX_CONFIG_BYTES: u64 = 64 * 1024;

/// Why the file was not used; the defaults apply then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConfigProblem {
    /// `$HECTOR_CONFIG` names a file that does not exist (the default path may be absent).
    Missing,
    /// A directory, a device, a pipe: only a regular file is read.
    NotAFile,
    TooLarge,
    /// The system's reason.
    Unreadable(String),
    /// What is wrong in it.
    Invalid(SettingsError),
    NotText,
}

/// Where hector looks for its configuration, and whether the person named it.
pub(crate) fn config_path() -> Option<(PathBuf, bool)> {
    if let Some(p) = std::env::var_os("HECTOR_CONFIG") {
        return (!p.is_empty()).then(|| (PathBuf::from(p), true));
    }
    crate::io::platform::folders::config().map(|d| (d.join("config.toml"), false))
}

/// The settings, and a problem to tell the player when the file cannot be used (the
/// defaults are used then; the file is never changed).
pub(crate) fn load_settings() -> (Settings, Option<(PathBuf, ConfigProblem)>) {
    let Some((path, named)) = config_path() else {
        return (Settings::default(), None);
    };
    match read(&path) {
        Ok(text) => match parse_settings(&text) {
            Ok(s) => (s, None),
            Err(e) => (Settings::default(), Some((path, ConfigProblem::Invalid(e)))),
        },
        Err(ConfigProblem::Missing) if !named => (Settings::default(), None),
        Err(problem) => (Settings::default(), Some((path, problem))),
    }
}

fn read(path: &std::path::Path) -> Result<String, ConfigProblem> {
    let unreadable = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => ConfigProblem::Missing,
        _ => ConfigProblem::Unreadable(e.to_string()),
    };
    // Checked before opening: opening a FIFO would wait for a writer.
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(ConfigProblem::NotAFile);
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(ConfigProblem::TooLarge);
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    // It may have grown since it was looked at.
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(ConfigProblem::TooLarge);
    }
    String::from_utf8(bytes).map_err(|_| ConfigProblem::NotText)
}
