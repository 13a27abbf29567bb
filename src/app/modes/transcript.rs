//! `hector transcript`: every move of every game, spoken.

use std::path::Path;
use std::process::ExitCode;

use crate::app::services::output::Out;
use crate::app::services::pgn_jobs::{self, Progress};
use crate::core::notation::Form;
use crate::core::notation::{Language, fill};
use crate::core::notation::{TranscriptError, push_text_ply, speak_game};
use crate::core::outcome::GameResult;
use crate::core::pgn::{RawGame, shown_limited};
use crate::io::files::open_input;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// "1. Eva vier; Eva fünf": lines a person or a screen reader reads.
    Text,
    /// One line per ply: game, ply, SAN, UCI, spoken phrase, separated by tabs.
    Tsv,
    /// Braille paper (BRF): each game on pages of its own, numbered from 1.
    Brf(crate::app::services::paper::Paper),
}

/// Exit status: 0 when every game was spoken to its end, 1 when one was not, 2 when the input
/// cannot be read.
pub(crate) fn run(
    path: &Path,
    lang: &'static Language,
    form: Form,
    format: Format,
    jobs: usize,
    quiet: bool,
) -> ExitCode {
    let input = match open_input(path) {
        Ok(input) => input,
        Err(e) => {
            errln!("hector transcript: {}", crate::io::error_chain(&e));
            return ExitCode::from(2);
        }
    };
    let mut progress = Progress::new(&input, quiet);
    let mut out = Out::new();
    let mut failed = false;
    // Braille paper opens with the legend of the chess code, once for all the games.
    if let Format::Brf(paper) = format {
        match crate::app::services::paper::legend_pages(paper, lang) {
            Ok((legend, _)) => {
                out.write_raw(&legend);
            }
            Err(why) => {
                errln!("hector transcript: {why}");
                return ExitCode::from(1);
            }
        }
    }
    let finish = pgn_jobs::run(
        input,
        jobs,
        &mut progress,
        move |raw| {
            if raw.tags.is_empty() && raw.movetext.is_empty() && !raw.is_too_large() {
                return None;
            }
            // Games keep their number in the file, as `hector check` counts them.
            let mut buf = String::new();
            let problem = if raw.is_too_large() {
                raw.errors.first().map(ToString::to_string)
            } else if let Format::Brf(paper) = format {
                render_brf(raw, raw.number, lang, paper, &mut buf).err()
            } else {
                render_game(raw, raw.number, lang, form, format, &mut buf)
                    .err()
                    .map(|e| e.to_string())
            };
            Some((buf, problem.map(|p| format!("game {}: {p}", raw.number))))
        },
        |(text, problem), progress| {
            if let Some(problem) = problem {
                failed = true;
                progress.note(&format!("hector transcript: {problem}"));
            }
            out.write_raw(&text)
        },
    );
    if let Err(e) = finish {
        out.flush();
        errln!("hector transcript: {e:#}");
        return ExitCode::from(2);
    }
    let code = if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    out.finish("hector transcript", &lang.messages.output_failed, code)
}

/// Appends game `number`'s transcript to `buf`: the mode's whole work for one game.
pub fn render_game(
    raw: &RawGame<'_>,
    number: usize,
    lang: &Language,
    form: Form,
    format: Format,
    buf: &mut String,
) -> Result<(), TranscriptError> {
    if format == Format::Text {
        buf.push_str(&fill(
            &lang.messages.game_heading,
            &[
                ("number", &number.to_string()),
                ("white", &player(raw, "White")),
                ("black", &player(raw, "Black")),
            ],
        ));
        buf.push('\n');
    }
    let mut line_open = false;
    let result = speak_game(raw, lang, form, |p| match format {
        Format::Tsv => {
            push_number(buf, number);
            buf.push('\t');
            push_number(buf, p.ply);
            buf.push('\t');
            p.san.append_to_string(buf);
            buf.push('\t');
            p.uci.append_to_string(buf);
            buf.push('\t');
            buf.push_str(p.spoken);
            buf.push('\n');
        }
        Format::Text => line_open = push_text_ply(buf, &p, line_open),
        // Written by `render_brf`.
        Format::Brf(_) => {}
    });
    if line_open {
        buf.push('\n');
    }
    if format == Format::Text {
        let decided = raw
            .tag("Result")
            .or(raw.termination)
            .and_then(GameResult::from_pgn);
        buf.push_str(lang.result(decided));
        buf.push('\n');
    }
    result
}

/// Appends game `number` on braille paper to `buf`: the heading and the result in literary
/// braille, the moves in the braille chess code, in pages; nothing when it cannot be done.
pub(crate) fn render_brf(
    raw: &RawGame<'_>,
    number: usize,
    lang: &Language,
    paper: crate::app::services::paper::Paper,
    buf: &mut String,
) -> Result<(), String> {
    use crate::app::services::paper::{game_lines, paged, table};
    use crate::core::braille::{MovePairs, UKAAF_2015};
    let table = table(paper, lang)?;
    let heading = fill(
        &lang.messages.game_heading,
        &[
            ("number", &number.to_string()),
            ("white", &player(raw, "White")),
            ("black", &player(raw, "Black")),
        ],
    );
    let mut pairs = MovePairs::new(UKAAF_2015);
    let spoken = speak_game(raw, lang, Form::Short, |p| {
        pairs.push(p.move_number, p.turn, p.san);
    });
    let decided = raw
        .tag("Result")
        .or(raw.termination)
        .and_then(GameResult::from_pgn);
    let lines = game_lines(
        &[heading],
        pairs.finish(),
        &[lang.result(decided).to_string()],
        &table,
        lang,
    )?;
    // The moves before an illegal one are written, as in the other formats.
    buf.push_str(&paged(&lines, paper)?);
    spoken.map_err(|e| e.to_string())
}

/// A player's name as a heading shows it: escaped and cut (see `core::pgn::shown`).
fn player(raw: &RawGame<'_>, tag: &str) -> String {
    raw.tag(tag).map_or_else(
        || "?".to_string(),
        |name| shown_limited(name.as_bytes(), 100),
    )
}

/// Decimal digits without the formatting machinery (the TSV hot path).
fn push_number(buf: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    buf.push_str(std::str::from_utf8(&digits[i..]).unwrap_or("0"));
}
