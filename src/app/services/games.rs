//! Finding a recorded game and telling why it cannot be used: the GAME argument of export,
//! analyse and resume, the journal's good part, a file that cannot be written, a journal's
//! date for people.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::core::notation::printable;
use crate::core::notation::{Language, counted, fill};
use crate::core::record::{Salvaged, salvage, unusable_words};
use crate::io::journal::{games_dir, journal_paths};
use crate::io::output_file::{NotAFile, OutputError};

/// "2026-11-21 14:03 UTC" from "2026-11-21T14:03:05Z"; other texts as they are.
pub(crate) fn date_text(created: &str) -> String {
    let b = created.as_bytes();
    if b.len() >= 16 && b[10] == b'T' && b[13] == b':' && created.is_char_boundary(16) {
        let zone = if created.ends_with('Z') { " UTC" } else { "" };
        format!("{} {}{zone}", &created[..10], &created[11..16])
    } else if created.trim().is_empty() {
        "?".to_string()
    } else {
        created.trim().to_string()
    }
}

/// The journal a GAME argument names: a number from `hector games`, or a path; `mode` names
/// itself in the messages ("hector export", "hector resume", …), which say in `lang` what is
/// wanted and how to find it.
pub(crate) fn resolve_for(mode: &str, game: &str, lang: &Language) -> Result<PathBuf, ExitCode> {
    let w = &lang.record;
    let Ok(number) = game.trim().parse::<usize>() else {
        let path = PathBuf::from(game);
        let shown = printable(&path.display().to_string()).to_string();
        match std::fs::metadata(&path) {
            // Neither a number nor a file: say what is wanted.
            Err(_) => {
                errln!("{mode}: {}", fill(&w.not_game_or_file, &[("text", &shown)]));
                return Err(ExitCode::from(2));
            }
            // A journal is a file: a device such as /dev/zero would be read for ever.
            Ok(meta) if !meta.is_file() => {
                let kind = file_kind(&meta);
                errln!(
                    "{mode}: {}",
                    fill(
                        &w.not_a_journal_file,
                        &[("file", &shown), ("kind", &w.file_kinds[kind])]
                    )
                );
                return Err(ExitCode::from(2));
            }
            Ok(_) => return Ok(path),
        }
    };
    let paths = games_dir()
        .and_then(|dir| journal_paths(&dir))
        .map_err(|e| {
            errln!("{mode}: {}", crate::io::error_chain(&e));
            ExitCode::from(2)
        })?;
    match number.checked_sub(1).and_then(|i| paths.get(i)) {
        Some(p) => Ok(p.clone()),
        None => {
            let why = if paths.is_empty() {
                w.no_games_yet.clone()
            } else {
                fill(
                    &w.no_such_game,
                    &[
                        ("number", &number.to_string()),
                        ("games", &counted(&w.games, paths.len() as u64)),
                    ],
                )
            };
            errln!("{mode}: {why}");
            Err(ExitCode::from(2))
        }
    }
}

/// Which of `record.file_kinds` a path that is not a regular file is.
fn file_kind(meta: &std::fs::Metadata) -> usize {
    use crate::io::platform::files::Kind;
    match crate::io::platform::files::kind(meta) {
        Kind::Directory => 0,
        Kind::Fifo => 2,
        Kind::Socket => 3,
        Kind::File | Kind::Device | Kind::SymbolicLink => 1,
    }
}

/// The good part of the journal at `path`; when nothing of it can be used, why, in `lang`
/// (the system's own words named as such), and exit status 1.
pub(crate) fn load_for(mode: &str, path: &Path, lang: &Language) -> Result<Salvaged, ExitCode> {
    let shown = printable(&path.display().to_string()).to_string();
    let w = &lang.record;
    // Bounded: a file too large to be a journal is refused before it is read.
    let bytes = crate::io::journal::read_journal(path).map_err(|e| {
        let words = match &e {
            crate::io::journal::FileError::TooLarge(big) => fill(
                &w.journal_too_large,
                &[
                    ("file", &shown),
                    ("size", &(big.size >> 20).to_string()),
                    (
                        "max",
                        &(crate::io::journal::MAX_JOURNAL_BYTES >> 20).to_string(),
                    ),
                ],
            ),
            other => fill(
                &w.cannot_read,
                &[
                    ("file", &shown),
                    ("reason", &printable(&crate::io::root_cause(other))),
                ],
            ),
        };
        errln!("{mode}: {words}");
        ExitCode::from(1)
    })?;
    salvage(&bytes).map_err(|e| {
        errln!(
            "{mode}: {}",
            fill(
                &w.not_a_game,
                &[("file", &shown), ("reason", &unusable_words(&e, lang))]
            )
        );
        ExitCode::from(1)
    })
}

/// Why `--output` was not written, in the language's words.
pub(crate) fn output_problem(e: &OutputError, lang: &Language) -> String {
    match e {
        OutputError::Refused { path, kind } => {
            let index = match kind {
                NotAFile::Directory => 0,
                NotAFile::Device => 1,
                NotAFile::Fifo => 2,
                NotAFile::Socket => 3,
                NotAFile::LinkLoop => 4,
            };
            fill(
                &lang.record.not_a_file,
                &[
                    ("file", &path.display().to_string()),
                    ("kind", &lang.record.file_kinds[index]),
                ],
            )
        }
        OutputError::Io { path, source } => fill(
            &lang.record.write_failed,
            &[
                ("file", &path.display().to_string()),
                ("reason", &source.to_string()),
            ],
        ),
    }
}

/// Why a file of hector's own was not used, in words: a stranger where it belongs, or the
/// system's refusal.
pub(crate) fn owned_problem(e: &crate::io::owned_file::OwnedError, lang: &Language) -> String {
    use crate::io::owned_file::{OwnedError, Stranger};
    match e {
        OwnedError::NotOwn { path, kind } => {
            let index = match kind {
                Stranger::Link => 0,
                Stranger::HardLinked => 1,
                Stranger::NotAFile => 2,
            };
            fill(
                &lang.record.own_refused,
                &[
                    ("file", &printable(&path.display().to_string())),
                    ("kind", &lang.record.own_kinds[index]),
                ],
            )
        }
        OwnedError::TooLarge { .. } | OwnedError::Io { .. } => {
            printable(&crate::io::error_chain(e)).into_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_for_people() {
        assert_eq!(date_text("2026-11-21T14:03:05Z"), "2026-11-21 14:03 UTC");
        assert_eq!(date_text("2026-11-21T14:03:05+01:00"), "2026-11-21 14:03");
        assert_eq!(date_text("gestern"), "gestern");
        assert_eq!(date_text(""), "?");
        assert_eq!(date_text("2026-11-21Tää"), "2026-11-21Tää");
    }
}
