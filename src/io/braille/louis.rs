//! liblouis, for literary braille on paper: `lou_translate` run as a program with a time
//! limit (no library linked: a missing liblouis is a clear message, not a binary that does
//! not start). The display table `en-us-brf.dis` is always named, so that every table writes
//! North American Braille ASCII; what comes back is checked cell by cell, since characters a
//! table does not know come out as eight-dot Unicode.

use std::process::Command;
use std::time::Duration;

use crate::core::braille::is_braille_ascii;
use crate::io::child::{ChildError, run_bounded_input};

/// The program of liblouis-bin.
pub(crate) const PROGRAM: &str = "lou_translate";
/// How long one translation may take (compiling a table takes about 40 ms).
pub(crate) const LIMIT: Duration = Duration::from_secs(10);
/// The display table that makes any table write BRF.
const BRF_DISPLAY: &str = "en-us-brf.dis";

/// Why no braille came back.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LouisError {
    #[error("{PROGRAM} is not installed")]
    Missing,
    #[error("liblouis does not know the table {0}")]
    TableMissing(String),
    #[error("{PROGRAM} failed: {0}")]
    Failed(String),
    #[error("{PROGRAM} did not finish within {} seconds", .0.as_secs())]
    Hung(Duration),
    #[error("liblouis wrote characters that are not Braille ASCII: {0}")]
    NotBrailleAscii(String),
}

/// Lines of print in literary braille with `table` (as `de-g2.ctb`), one line out per line
/// in, as Braille ASCII in capitals.
pub(crate) fn translate(lines: &[String], table: &str) -> Result<Vec<String>, LouisError> {
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    // A line break inside a line would shift every line after it.
    let mut input = String::new();
    for line in lines {
        input.push_str(&line.replace(['\n', '\r'], " "));
        input.push('\n');
    }
    let mut command = Command::new(PROGRAM);
    command
        .arg("--forward")
        .arg(format!("{BRF_DISPLAY},{table}"))
        .env("LC_ALL", "C.UTF-8");
    let finished = match run_bounded_input(&mut command, input.into_bytes(), LIMIT) {
        Ok(f) => f,
        Err(ChildError::Start(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(LouisError::Missing);
        }
        Err(ChildError::Hung(limit)) => return Err(LouisError::Hung(limit)),
        Err(e) => return Err(LouisError::Failed(e.to_string())),
    };
    if !finished.status.success() {
        return Err(LouisError::Failed(finished.status.to_string()));
    }
    let text = String::from_utf8_lossy(&finished.stdout);
    // liblouis exits 0 when it cannot compile a table, and writes nothing.
    if text.is_empty() {
        return Err(LouisError::TableMissing(table.to_string()));
    }
    let out: Vec<String> = text
        .lines()
        .map(|l| l.trim_end().to_ascii_uppercase())
        .collect();
    if out.len() != lines.len() {
        return Err(LouisError::Failed(format!(
            "{} lines in, {} lines out",
            lines.len(),
            out.len()
        )));
    }
    let bad: String = out
        .iter()
        .filter(|l| !is_braille_ascii(l))
        .flat_map(|l| l.chars().filter(|c| !(' '..='_').contains(c)))
        .take(8)
        .collect();
    if !bad.is_empty() {
        return Err(LouisError::NotBrailleAscii(bad));
    }
    Ok(out)
}

// scripts/setup installs liblouis' program on Debian, where CI requires it; on Windows the
// braille display is NVDA's or JAWS'.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn installed() -> bool {
        let found = std::process::Command::new(PROGRAM)
            .arg("--version")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok();
        if !found {
            assert!(
                std::env::var_os("CI").is_none(),
                "{PROGRAM} is not installed (scripts/setup installs liblouis-bin)"
            );
            eprintln!("skipped: {PROGRAM} is not installed");
        }
        found
    }

    /// The examples worked out with liblouis 3.24 and checked against `en-us-brf.dis`.
    #[test]
    fn german_and_english_literary_braille_in_braille_ascii() {
        if !installed() {
            return;
        }
        let line = vec!["Partie 3: Anna gegen Stockfish, Stufe 1.".to_string()];
        assert_eq!(
            translate(&line, "de-g0.utb").expect("de-g0"),
            ["PARTIE #C,3 ANNA GEGEN STOCKFISH1 STUFE #A'"]
        );
        let lines = vec![
            "Game 3: Anna versus Stockfish, level 1.".to_string(),
            String::new(),
            "White wins".to_string(),
        ];
        let out = translate(&lines, "en-ueb-g1.ctb").expect("en-ueb-g1");
        assert_eq!(out[0], ",GAME #C3 ,ANNA VERSUS ,STOCKFISH1 LEVEL #A4");
        assert_eq!(out[1], "");
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn a_table_liblouis_does_not_know_is_named() {
        if !installed() {
            return;
        }
        let line = vec!["Anna".to_string()];
        assert!(matches!(
            translate(&line, "xx-no-such-table.ctb"),
            Err(LouisError::TableMissing(t)) if t == "xx-no-such-table.ctb"
        ));
    }
}
