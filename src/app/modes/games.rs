//! `hector games` and `hector export`: the recorded games, listed and written out.

use std::path::Path;
use std::process::ExitCode;

use crate::app::services::games::{date_text, load_for, output_problem, resolve_for};
use crate::app::services::output::Out;
use crate::core::notation::printable;
use crate::core::notation::{Language, fill};
use crate::core::record::{salvaged_pgn, salvaged_scoresheet, stop_words, unusable_words};
use crate::io::journal::{GameSummary, games_dir, list_in};
use crate::io::output_file::write_output;

/// What `hector export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExportFormat {
    Pgn,
    Text,
    /// The scoresheet on braille paper (BRF).
    Brf(crate::app::services::paper::Paper),
}

fn counted(forms: &[String; 2], n: u32) -> String {
    fill(
        if n == 1 { &forms[0] } else { &forms[1] },
        &[("n", &n.to_string())],
    )
}

/// One sentence about one game, for `hector games`.
pub(crate) fn summary_line(number: usize, g: &GameSummary, lang: &Language) -> String {
    let w = &lang.record;
    let number = number.to_string();
    // A journal's texts come from outside (it may be crafted, a name an engine's): shown
    // with their control characters escaped, never sent to the terminal. The names hector
    // wrote itself are said in the words of `lang`: one language per line.
    let name = |n: &str, color| {
        if n.trim().is_empty() {
            lang.color(color).to_string()
        } else {
            let own = crate::core::notation::own_name(n.trim(), lang);
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
pub(crate) fn list(lang: &Language) -> ExitCode {
    let dir = match games_dir() {
        Ok(d) => d,
        Err(e) => {
            errln!("hector games: {}", crate::io::error_chain(&e));
            return ExitCode::from(2);
        }
    };
    let games = match list_in(&dir) {
        Ok(g) => g,
        Err(e) => {
            errln!("hector games: {}", crate::io::error_chain(&e));
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

/// The scoresheet in braille, in pages; a game that does not replay is told as for text.
fn braille(
    salvaged: &crate::core::record::Salvaged,
    paper: crate::app::services::paper::Paper,
    lang: &Language,
) -> Result<String, String> {
    use crate::app::services::paper::{legend_pages, paged_from, scoresheet_lines};
    let record = crate::core::record::Record::build(&salvaged.header, &salvaged.entries)
        .map_err(|e| e.to_string())?;
    let end = salvaged.stop.as_ref().map(|stop| {
        format!(
            "{}. {}.",
            lang.record.damaged.stops_here,
            stop_words(stop, lang)
        )
    });
    let lines = scoresheet_lines(&salvaged.header, &record, end, paper, lang)?;
    let (mut text, legend) = legend_pages(paper, lang)?;
    text.push_str(&paged_from(&lines, paper, legend + 1)?);
    Ok(text)
}

/// `hector export`. Exit status 0, also for a journal that replays only in part (its good
/// part is written, with where and why it stops on standard error and at the end of the
/// record); 1 when nothing of the journal can be read; 2 when there is no such game or the
/// output cannot be written.
pub(crate) fn export(
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
        ExportFormat::Brf(paper) => match braille(&salvaged, paper, lang) {
            Ok(text) => Ok(text),
            Err(words) => {
                errln!("hector export: {words}");
                return ExitCode::from(2);
            }
        },
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
