//! The words and tables of braille (assets/lang, `[braille]`).

use std::collections::BTreeMap;

use serde::Deserialize;

/// The words and tables of braille (assets/lang, `[braille]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrailleWords {
    /// The display's last cell while more of a text follows (one character).
    pub(crate) more: String,
    /// liblouis's literary tables for this language, by braille grade as the language
    /// counts them ("0" German Basisschrift … "2" Kurzschrift; "1" and "2" in UEB).
    pub tables: BTreeMap<String, String>,
    /// The display is hector's: {cells}.
    pub ready: String,
    /// No display answers (said once, with `--braille on`): {reason}.
    pub no_display: String,
    /// The grade written when none is chosen.
    pub default_grade: String,
    /// liblouis's program is not installed: {program}.
    pub louis_missing: String,
    /// liblouis does not know the table: {table}.
    pub louis_table_missing: String,
    /// liblouis failed: {reason}.
    pub louis_failed: String,
    /// liblouis did not finish: {seconds}.
    pub louis_hung: String,
    /// liblouis wrote characters that are not Braille ASCII: {characters}.
    pub not_braille_ascii: String,
    /// A grade the language has no table for: {grade}, {grades}.
    pub unknown_grade: String,
    /// A page size out of bounds: {min_cells}, {max_cells}, {min_lines}, {max_lines}.
    #[expect(
        dead_code,
        reason = "a word of the tables hector does not say yet; every table has it"
    )]
    pub(crate) page_size: String,
    /// The first page of a BRF file: what the chess code's signs mean and what they rest on,
    /// one line an entry, in print (liblouis makes it literary braille).
    pub legend: Vec<String>,
    /// Why there is no display, each a {reason} of `no_display` ({address}: the server's).
    /// Nothing reaches the player in the link's own English words.
    pub why_no_server: String,
    /// {address}, {seconds}.
    pub why_silent: String,
    pub why_closed: String,
    /// {address}, {seconds}.
    pub why_not_started: String,
    /// {address}, {seconds}.
    pub why_no_hand_over: String,
    pub why_not_handed: String,
    pub why_broken: String,
    pub why_not_brlapi: String,
    /// {version}.
    pub why_old_server: String,
    pub why_key: String,
    /// {code}.
    pub why_refused: String,
}

impl BrailleWords {
    /// The mark as one character (the first of the table's value).
    pub fn more_mark(&self) -> char {
        self.more.chars().next().unwrap_or('>')
    }
}
