//! `hector games` and `hector export`: the recorded games, listed and written out.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::app::services::output::Out;
use crate::core::notation::language::{Language, fill};
use crate::core::notation::printable;
use crate::core::record::{
    Salvaged, salvage, salvaged_pgn, salvaged_scoresheet, stop_words, unusable_words,
};
use crate::io::journal::{GameSummary, games_dir, journal_paths, list_in};
use crate::io::output_file::{NotAFile, OutputError, write_output};

/// What `hector export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Pgn,
    Text,
}

/// "2026-11-21 14:03 UTC" from "2026-11-21T14:03:05Z"; other texts as they are.
pub fn date_text(created: &str) -> String {
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

fn counted(forms: &[String; 2], n: u32) -> String {
    fill(
        if n == 1 { &forms[0] } else { &forms[1] },
        &[("n", &n.to_string())],
    )
}

/// One sentence about one game, for `hector games`.
pub fn summary_line(number: usize, g: &GameSummary, lang: &Language) -> String {
    let w = &lang.record;
    let number = number.to_string();
    // A journal's texts come from outside (it may be crafted, a name an engine's): shown
    // with their control characters escaped, never sent to the terminal. The names hector
    // wrote itself are said in the words of `lang`: one language per line.
    let name = |n: &str, color| {
        if n.trim().is_empty() {
            lang.color(color).to_string()
        } else {
            let own = crate::core::notation::language::own_name(n.trim(), lang);
            printable(&own).into_owned()
        }
    };
    let date = printable(&date_text(&g.created)).into_owned();
    let file = || {
        let file = g.path.file_name().map_or_else(
            || g.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        printable(&file).into_owned()
    };
    if let Some(size) = g.too_large {
        return fill(
            &w.too_large,
            &[
                ("number", &number),
                ("file", &file()),
                ("size", &(size >> 20).to_string()),
                (
                    "max",
                    &(crate::io::journal::MAX_JOURNAL_BYTES >> 20).to_string(),
                ),
                ("date", &date),
                ("white", &name(&g.white, shakmaty::Color::White)),
                ("black", &name(&g.black, shakmaty::Color::Black)),
            ],
        );
    }
    if let Some(problem) = &g.problem {
        let file = file();
        // In the player's words when the file could be read, else as the system says it.
        let reason = g
            .unusable
            .as_ref()
            .map_or_else(|| problem.clone(), |e| unusable_words(e, lang));
        let reason = printable(&reason).into_owned();
        return fill(
            &w.unreadable,
            &[("number", &number), ("file", &file), ("reason", &reason)],
        );
    }
    if let Some(stop) = &g.stop {
        return fill(
            &w.damaged.game_line,
            &[
                ("number", &number),
                ("date", &date),
                ("white", &name(&g.white, shakmaty::Color::White)),
                ("black", &name(&g.black, shakmaty::Color::Black)),
                ("moves", &counted(&w.moves, g.moves)),
                ("reason", &stop_words(stop, lang)),
            ],
        );
    }
    let result = match g.result() {
        Some(r) => lang.result(Some(r)).to_string(),
        None if g.aborted => lang.takeback.games_aborted.clone(),
        None => w.in_progress.clone(),
    };
    let line = fill(
        &w.game_line,
        &[
            ("number", &number),
            ("date", &date),
            ("white", &name(&g.white, shakmaty::Color::White)),
            ("black", &name(&g.black, shakmaty::Color::Black)),
            ("result", &result),
            ("moves", &counted(&w.moves, g.moves)),
        ],
    );
    // A game from another start says so, and from which.
    match &g.start {
        Some((crate::core::variant::Variant::Chess960, fen)) => {
            format!(
                "{line}, {}",
                fill(&w.start_chess960, &[("fen", &printable(fen))])
            )
        }
        Some((_, fen)) => format!(
            "{line}, {}",
            fill(&w.start_fen, &[("fen", &printable(fen))])
        ),
        None => line,
    }
}

/// `hector games`. Exit status 0, or 2 when the games directory cannot be read.
pub fn list(lang: &Language) -> ExitCode {
    let dir = match games_dir() {
        Ok(d) => d,
        Err(e) => {
            errln!("hector games: {e:#}");
            return ExitCode::from(2);
        }
    };
    let games = match list_in(&dir) {
        Ok(g) => g,
        Err(e) => {
            errln!("hector games: {e:#}");
            return ExitCode::from(2);
        }
    };
    let mut out = Out::new();
    if games.is_empty() {
        out.line(&fill(
            &lang.record.no_games,
            &[("dir", &dir.display().to_string())],
        ));
    }
    for (i, g) in games.iter().enumerate() {
        if !out.line(&summary_line(i + 1, g, lang)) {
            break;
        }
    }
    out.finish(
        "hector games",
        &lang.messages.output_failed,
        ExitCode::SUCCESS,
    )
}

/// The journal a GAME argument names: a number from `hector games`, or a path; `mode` names
/// itself in the messages ("hector export", "hector resume", …), which say in `lang` what is
/// wanted and how to find it.
pub fn resolve_for(mode: &str, game: &str, lang: &Language) -> Result<PathBuf, ExitCode> {
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
            errln!("{mode}: {e:#}");
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
                        ("games", &counted(&w.games, paths.len() as u32)),
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
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        0
    } else if t.is_fifo() {
        2
    } else if t.is_socket() {
        3
    } else {
        1
    }
}

/// The good part of the journal at `path`; when nothing of it can be used, why, in `lang`
/// (the system's own words named as such), and exit status 1.
pub fn load_for(mode: &str, path: &Path, lang: &Language) -> Result<Salvaged, ExitCode> {
    let shown = printable(&path.display().to_string()).to_string();
    let w = &lang.record;
    // Bounded: a file too large to be a journal is refused before it is read.
    let bytes = crate::io::journal::read_journal(path).map_err(|e| {
        let words = match e.downcast_ref::<crate::io::journal::TooLarge>() {
            Some(big) => fill(
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
            None => fill(
                &w.cannot_read,
                &[
                    ("file", &shown),
                    ("reason", &printable(&format!("{:#}", e.root_cause()))),
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

/// `hector export`. Exit status 0, also for a journal that replays only in part (its good
/// part is written, with where and why it stops on standard error and at the end of the
/// record); 1 when nothing of the journal can be read; 2 when there is no such game or the
/// output cannot be written.
pub fn export(
    game: &str,
    format: ExportFormat,
    lang: &Language,
    output: Option<&Path>,
) -> ExitCode {
    let path = match resolve_for("hector export", game, lang) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let salvaged = match load_for("hector export", &path, lang) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if salvaged.torn_tail {
        errln!(
            "hector export: {}: {}",
            path.display(),
            lang.record.torn_tail
        );
    }
    let text = match format {
        ExportFormat::Pgn => salvaged_pgn(&salvaged, lang),
        ExportFormat::Text => salvaged_scoresheet(&salvaged, lang),
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            errln!("hector export: {} does not replay: {e}", path.display());
            return ExitCode::from(1);
        }
    };
    if let Some(stop) = &salvaged.stop {
        let written = fill(
            &lang.record.damaged.stops_after,
            &[
                ("good", &salvaged.entries.len().to_string()),
                ("moves", &counted(&lang.record.moves, salvaged.moves())),
            ],
        );
        errln!(
            "hector export: {}: {written}. {}.",
            path.display(),
            stop_words(stop, lang)
        );
    }
    let mut out = Out::new();
    match output {
        Some(file) => match write_output(file, text.as_bytes()) {
            Ok(written) => {
                out.line(&fill(
                    &lang.record.written,
                    &[("file", &written.display().to_string())],
                ));
            }
            Err(e) => {
                errln!("hector export: {}", output_problem(&e, lang));
                return ExitCode::from(2);
            }
        },
        None => {
            out.write_raw(&text);
        }
    }
    out.finish(
        "hector export",
        &lang.messages.output_failed,
        ExitCode::SUCCESS,
    )
}

/// Why `--output` was not written, in the language's words.
pub fn output_problem(e: &OutputError, lang: &Language) -> String {
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
