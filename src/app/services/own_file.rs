//! A record hector keeps for itself in its data folder (the puzzle and training records, a
//! game's kept analysis), read back as its format allows and written by
//! `io::owned_file`: a file that cannot be read (damaged, from a newer hector, larger than
//! its format allows) is set aside under a name that says so, and the player told where,
//! before anything new is written; a link or another stranger where the file belongs is
//! named, and nothing is written there.

use std::path::{Path, PathBuf};

use crate::app::services::games::owned_problem;
use crate::core::notation::printable;
use crate::core::notation::{Language, fill};
use crate::io::owned_file::{self, OwnedError};
use crate::io::platform::files::Privacy;

/// A record read back: what it holds, what to tell the player, and where it may be written.
#[derive(Debug)]
pub(crate) struct Loaded<T> {
    /// What the file held; `None` when there was none, or it was set aside.
    pub(crate) value: Option<T>,
    /// What happened to the file, in words (said before anything else of the mode).
    pub(crate) told: Option<String>,
    /// Where the record may be written: `None` when a stranger stands there, or an
    /// unreadable file could not be set aside (nothing is written over it).
    pub(crate) path: Option<PathBuf>,
    /// A stranger stands where the record belongs, or the system refused: a write would be
    /// refused the same way (and say so itself).
    pub(crate) refused: bool,
}

/// The words a mode uses for its record.
pub(crate) struct RecordWords<'a> {
    /// Set aside: {file}, {reason}, {aside}.
    pub(crate) damaged: &'a str,
    /// Not written: {reason}.
    pub(crate) unwritten: &'a str,
}

/// Reads the record at `path` (at most `limit` bytes, its format's limit) with `decode`.
pub(crate) fn load<T>(
    path: &Path,
    limit: usize,
    decode: impl FnOnce(&str) -> Result<T, String>,
    words: &RecordWords<'_>,
    lang: &Language,
) -> Loaded<T> {
    let shown = || printable(&path.display().to_string()).into_owned();
    let unreadable = match owned_file::read(path, limit as u64) {
        Ok(None) => {
            return Loaded {
                value: None,
                told: None,
                path: Some(path.to_path_buf()),
                refused: false,
            };
        }
        Ok(Some(bytes)) => {
            let decoded = String::from_utf8(bytes)
                .map_err(|e| e.to_string())
                .and_then(|text| decode(&text));
            match decoded {
                Ok(value) => {
                    return Loaded {
                        value: Some(value),
                        told: None,
                        path: Some(path.to_path_buf()),
                        refused: false,
                    };
                }
                Err(reason) => reason,
            }
        }
        Err(e @ OwnedError::TooLarge { .. }) => crate::io::error_chain(&e),
        // A stranger where the record belongs, or the system refused: nothing is written.
        Err(e) => {
            return Loaded {
                value: None,
                told: Some(fill(
                    words.unwritten,
                    &[("reason", &owned_problem(&e, lang))],
                )),
                path: None,
                refused: true,
            };
        }
    };
    let reason = printable(&unreadable).into_owned();
    match owned_file::set_aside(path) {
        Ok(aside) => Loaded {
            value: None,
            told: Some(fill(
                words.damaged,
                &[
                    ("file", &shown()),
                    ("reason", &reason),
                    ("aside", &printable(&aside.display().to_string())),
                ],
            )),
            path: Some(path.to_path_buf()),
            refused: false,
        },
        Err(e) => Loaded {
            value: None,
            told: Some(fill(
                &lang.record.left_alone,
                &[
                    ("file", &shown()),
                    ("reason", &reason),
                    ("why", &printable(&crate::io::error_chain(&e))),
                ],
            )),
            path: None,
            refused: false,
        },
    }
}

/// Writes the record whole; why not, in the mode's words.
pub(crate) fn keep(
    path: &Path,
    text: &str,
    unwritten: &str,
    lang: &Language,
) -> Result<(), String> {
    owned_file::write(
        path,
        text.as_bytes(),
        Privacy::Default,
        owned_file::Replace::FileOnly,
    )
    .map_err(|e| fill(unwritten, &[("reason", &owned_problem(&e, lang))]))
}
