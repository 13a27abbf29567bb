//! `hector transcript`: every move of every game, spoken.

use std::path::Path;
use std::process::ExitCode;

use crate::app::output::Out;
use crate::core::notation::language::{Language, fill};
use crate::core::notation::printable;
use crate::core::notation::speak::Form;
use crate::core::notation::transcript::{TranscriptError, push_text_ply, speak_game};
use crate::core::outcome::GameResult;
use crate::core::pgn::{RawGame, Reader};
use crate::io::files::read_input;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// "1. Eva vier  Eva fünf": lines a person or a screen reader reads.
    Text,
    /// One line per ply: game, ply, SAN, UCI, spoken phrase, separated by tabs.
    Tsv,
}

pub fn run(path: &Path, lang: &Language, form: Form, format: Format) -> ExitCode {
    let bytes = match read_input(path) {
        Ok(b) => b,
        Err(e) => {
            errln!("hector transcript: {e:#}");
            return ExitCode::from(2);
        }
    };
    let mut out = Out::new();
    let mut failed = false;
    let mut buf = String::with_capacity(1 << 16);
    let mut number = 0usize;
    for raw in Reader::new(&bytes) {
        if raw.tags.is_empty() && raw.movetext.is_empty() {
            continue;
        }
        number += 1;
        buf.clear();
        if let Err(e) = render_game(&raw, number, lang, form, format, &mut buf) {
            failed = true;
            errln!("hector transcript: game {number}: {e}");
        }
        if !out.write_raw(&buf) {
            break;
        }
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
                ("white", &printable(raw.tag("White").unwrap_or("?"))),
                ("black", &printable(raw.tag("Black").unwrap_or("?"))),
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
