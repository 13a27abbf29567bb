//! A game on braille paper (export, transcript): the scoresheet's headers and result in
//! literary braille through liblouis, the moves in the braille chess code (the core's
//! `braille::paper`), laid out in pages and checked before anything is written.

use crate::core::braille::{PageSize, UKAAF_2015, check_brf, move_lines, pages_from};
use crate::core::notation::printable;
use crate::core::notation::{Language, fill};
use crate::core::record::{Header, Record};
use crate::io::braille::louis::{self, LouisError};

/// How the braille is written: the page and the literary grade (the language's default when
/// none is chosen).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paper {
    pub(crate) size: PageSize,
    pub(crate) grade: Option<u8>,
}

/// liblouis's table for the language and grade, or why there is none (in words).
pub(crate) fn table(paper: Paper, lang: &Language) -> Result<String, String> {
    let words = &lang.braille;
    let grade = paper
        .grade
        .map_or_else(|| words.default_grade.clone(), |g| g.to_string());
    words.tables.get(&grade).cloned().ok_or_else(|| {
        let grades: Vec<&str> = words.tables.keys().map(String::as_str).collect();
        fill(
            &words.unknown_grade,
            &[("grade", &grade), ("grades", &grades.join(", "))],
        )
    })
}

/// Why liblouis gave nothing, in words.
pub(crate) fn louis_words(e: &LouisError, lang: &Language) -> String {
    let w = &lang.braille;
    match e {
        LouisError::Missing => fill(&w.louis_missing, &[("program", louis::PROGRAM)]),
        LouisError::TableMissing(t) => fill(&w.louis_table_missing, &[("table", t)]),
        LouisError::Failed(reason) => fill(&w.louis_failed, &[("reason", &printable(reason))]),
        LouisError::Hung(limit) => {
            fill(&w.louis_hung, &[("seconds", &limit.as_secs().to_string())])
        }
        LouisError::NotBrailleAscii(c) => {
            fill(&w.not_braille_ascii, &[("characters", &printable(c))])
        }
    }
}

/// One game's braille lines (not yet in pages): `print_head` and `print_tail` are lines in
/// print, translated here into literary braille, with the moves (already in the chess code)
/// between them.
pub(crate) fn game_lines(
    print_head: &[String],
    moves: Vec<String>,
    print_tail: &[String],
    table: &str,
    lang: &Language,
) -> Result<Vec<String>, String> {
    let mut print: Vec<String> = print_head.to_vec();
    print.extend(print_tail.iter().cloned());
    let literary = louis::translate(&print, table).map_err(|e| louis_words(&e, lang))?;
    let (head, tail) = literary.split_at(print_head.len().min(literary.len()));
    let mut lines: Vec<String> = head.to_vec();
    lines.push(String::new());
    lines.extend(moves);
    lines.extend(tail.iter().cloned());
    Ok(lines)
}

/// The scoresheet of a recorded game in braille: the headers as the text scoresheet has
/// them, the moves, the end of a damaged journal and the result.
pub(crate) fn scoresheet_lines(
    header: &Header,
    record: &Record,
    end: Option<String>,
    paper: Paper,
    lang: &Language,
) -> Result<Vec<String>, String> {
    let table = table(paper, lang)?;
    let text = crate::core::record::record_to_scoresheet(header, record, lang);
    let all: Vec<&str> = text.lines().collect();
    let head: Vec<String> = all
        .iter()
        .take_while(|l| !l.is_empty())
        .map(|l| l.to_string())
        .collect();
    let mut tail: Vec<String> = end.into_iter().collect();
    if let Some(result) = all.last().filter(|l| !l.is_empty()) {
        tail.push((*result).to_string());
    }
    game_lines(&head, move_lines(record, &UKAAF_2015), &tail, &table, lang)
}

/// Lines in pages, checked: valid Braille ASCII within the page, or why not.
pub(crate) fn paged(lines: &[String], paper: Paper) -> Result<String, String> {
    paged_from(lines, paper, 1)
}

/// [`paged`] numbered from page `first`.
pub(crate) fn paged_from(lines: &[String], paper: Paper, first: usize) -> Result<String, String> {
    let text = pages_from(lines, paper.size, first);
    check_brf(text.as_bytes(), paper.size).map_err(|e| e.to_string())?;
    Ok(text)
}

/// The legend that opens every BRF file, in pages of its own: what the chess code's signs
/// mean and which of them are hector's own choice (castling, promotion), in literary
/// braille; and how many pages it took.
pub(crate) fn legend_pages(paper: Paper, lang: &Language) -> Result<(String, usize), String> {
    let table = table(paper, lang)?;
    let lines =
        louis::translate(&lang.braille.legend, &table).map_err(|e| louis_words(&e, lang))?;
    let text = paged(&lines, paper)?;
    let count = text.matches('\u{c}').count();
    Ok((text, count))
}
