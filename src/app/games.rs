//! `hector games` and `hector export`: the recorded games, listed and written out.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::app::output::Out;
use crate::core::notation::language::{Language, fill};
use crate::core::notation::printable;
use crate::core::record::{salvaged_pgn, salvaged_scoresheet, stop_words, unusable_words};
use crate::io::journal::{GameSummary, games_dir, journal_paths, list_in, load_good_part};
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
    // with their control characters escaped, never sent to the terminal.
    let name = |n: &str, color| {
        if n.trim().is_empty() {
            lang.color(color).to_string()
        } else {
            printable(n.trim()).into_owned()
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
/// itself in the messages ("hector export", "hector resume", …).
pub fn resolve_for(mode: &str, game: &str, lang: &Language) -> Result<PathBuf, ExitCode> {
    let Ok(number) = game.trim().parse::<usize>() else {
        let path = PathBuf::from(game);
        // A journal is a file: a device such as /dev/zero would be read for ever.
        if let Ok(meta) = std::fs::metadata(&path)
            && !meta.is_file()
        {
            errln!(
                "{mode}: cannot read {}: it is not a regular file",
                printable(&path.display().to_string())
            );
            return Err(ExitCode::from(2));
        }
        return Ok(path);
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
            errln!(
                "{mode}: {}",
                fill(
                    &lang.record.no_such_game,
                    &[
                        ("number", &number.to_string()),
                        ("count", &paths.len().to_string())
                    ],
                )
            );
            Err(ExitCode::from(2))
        }
    }
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
    let salvaged = match load_good_part(&path) {
        Ok(s) => s,
        Err(e) => {
            errln!("hector export: {e:#}");
            return ExitCode::from(1);
        }
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
