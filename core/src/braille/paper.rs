//! Braille on paper: a game as a BRF file for an embosser. BRF is North American Braille
//! ASCII, one ASCII character (0x20–0x5F) per six-dot cell, lines ended by CR LF and each page
//! by a form feed, 40 cells by 25 lines unless the player says otherwise; the braille page
//! number stands at the right of each page's last line (`#B` for page 2).
//!
//! The moves are written in the UKAAF braille chess code ([`UKAAF_2015`], a table so that a
//! correction is one line), one move pair per line with its number; the headers and the
//! result are literary braille, which liblouis makes (an adapter, `io::braille::louis`):
//! this module takes them already in Braille ASCII.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Color, Role, Square};

use crate::record::Record;

/// A braille chess code: what each part of a move is in Braille ASCII. docs/BRAILLE.md names
/// the source of every entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessCode {
    /// King, queen, rook, bishop, knight (a pawn has no letter).
    pub(crate) pieces: [&'static str; 5],
    /// Before the destination of a capture (dots 5-6).
    pub(crate) capture: &'static str,
    /// After a checking move, as print's "+" (dots 3-4-5, then p).
    pub(crate) check: &'static str,
    /// After a mating move, as print's "#" (dots 3-4-5, then m).
    pub(crate) mate: &'static str,
    /// Castling on the king's side and on the queen's side.
    pub(crate) castle_short: &'static str,
    pub(crate) castle_long: &'static str,
    /// Between the destination and the piece promoted to.
    pub(crate) promotion: &'static str,
    /// Before a Black move that stands without its White move (dots 3-6, print "…").
    pub(crate) black_alone: &'static str,
}

/// UKAAF, *Braille Chess Code and Layout*, 2015 edition (UEB), sections 1.1–1.4, 2.1, 2.2
/// and 3; which entries come from the code's own text, which from a secondary reading and
/// which are hector's own choice (castling, promotion) is in docs/BRAILLE.md and on the
/// legend page of every BRF file.
pub const UKAAF_2015: ChessCode = ChessCode {
    pieces: ["K", "Q", "R", "L", "S"],
    capture: ";",
    check: ">P",
    mate: ">M",
    castle_short: "O-O",
    castle_long: "O-O-O",
    promotion: "",
    black_alone: "-",
};

/// The smallest and largest pages hector writes.
pub(crate) const MIN_CELLS: usize = 20;
pub(crate) const MAX_CELLS: usize = 100;
pub(crate) const MIN_LINES: usize = 5;
pub(crate) const MAX_LINES: usize = 100;

/// A braille page's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageSize {
    pub(crate) cells: usize,
    pub(crate) lines: usize,
}

impl Default for PageSize {
    fn default() -> PageSize {
        PageSize {
            cells: 40,
            lines: 25,
        }
    }
}

impl PageSize {
    /// A page within [`MIN_CELLS`]…[`MAX_CELLS`] and [`MIN_LINES`]…[`MAX_LINES`].
    pub fn new(cells: usize, lines: usize) -> Option<PageSize> {
        ((MIN_CELLS..=MAX_CELLS).contains(&cells) && (MIN_LINES..=MAX_LINES).contains(&lines))
            .then_some(PageSize { cells, lines })
    }
}

fn square(sq: Square) -> String {
    sq.to_string().to_uppercase()
}

fn piece(role: Role, code: &ChessCode) -> &'static str {
    match role {
        Role::King => code.pieces[0],
        Role::Queen => code.pieces[1],
        Role::Rook => code.pieces[2],
        Role::Bishop => code.pieces[3],
        Role::Knight => code.pieces[4],
        Role::Pawn => "",
    }
}

/// One move in the chess code: the piece, what tells it apart, the capture sign, the
/// destination (file letter and rank as a lower-cell digit, which BRF writes as a digit), a
/// promotion's piece, then the check or mate sign (UKAAF 1.4: "6. e4+." is e, 4, then dots
/// 3-4-5 and 1-2-3-4).
pub(crate) fn move_cells(san: &SanPlus, code: &ChessCode) -> String {
    let check = san.suffix == Some(Suffix::Check);
    let mate = san.suffix == Some(Suffix::Checkmate);
    let mut out = String::new();
    match &san.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            out.push_str(piece(*role, code));
            if let Some(f) = file {
                out.push(f.char().to_ascii_uppercase());
            }
            if let Some(r) = rank {
                out.push(r.char());
            }
            if *capture {
                out.push_str(code.capture);
            }
            out.push_str(&square(*to));
            if let Some(p) = promotion {
                out.push_str(code.promotion);
                out.push_str(piece(*p, code));
            }
        }
        San::Castle(side) => {
            out.push_str(match side {
                CastlingSide::KingSide => code.castle_short,
                CastlingSide::QueenSide => code.castle_long,
            });
        }
        // Neither occurs in a game of standard chess or Chess960.
        San::Put { role, to } => {
            out.push_str(piece(*role, code));
            out.push_str(&square(*to));
        }
        San::Null => out.push_str("--"),
    }
    if check {
        out.push_str(code.check);
    }
    if mate {
        out.push_str(code.mate);
    }
    out
}

/// The moves, one pair per line with its number: `1 E4 E5`, `2 SF3 SC6`; a game that starts
/// with Black to move starts with `N -E5`.
pub fn move_lines(record: &Record, code: &ChessCode) -> Vec<String> {
    let mut pairs = MovePairs::new(*code);
    for (i, ply) in record.plies.iter().enumerate() {
        let (number, color) = record.number(i);
        pairs.push(number, color, &ply.san);
    }
    pairs.finish()
}

/// Moves gathered into lines of pairs, one move at a time (a transcript's moves come so).
#[derive(Clone, Debug)]
pub struct MovePairs {
    code: ChessCode,
    lines: Vec<String>,
    current: String,
}

impl MovePairs {
    pub fn new(code: ChessCode) -> MovePairs {
        MovePairs {
            code,
            lines: Vec::new(),
            current: String::new(),
        }
    }

    /// The move of `color` with move number `number`.
    pub fn push(&mut self, number: u32, color: Color, san: &SanPlus) {
        let text = move_cells(san, &self.code);
        match color {
            Color::White => {
                if !self.current.is_empty() {
                    self.lines.push(std::mem::take(&mut self.current));
                }
                self.current = format!("{number} {text}");
            }
            Color::Black if self.current.is_empty() => {
                self.lines
                    .push(format!("{number} {}{text}", self.code.black_alone));
            }
            Color::Black => {
                self.current.push(' ');
                self.current.push_str(&text);
                self.lines.push(std::mem::take(&mut self.current));
            }
        }
    }

    pub fn finish(mut self) -> Vec<String> {
        if !self.current.is_empty() {
            self.lines.push(self.current);
        }
        self.lines
    }
}

/// A number in literary braille: the number sign and the letters a–j for the digits.
pub(crate) fn page_number(n: usize) -> String {
    let digits: String = n
        .to_string()
        .chars()
        .map(|d| match d {
            '0' => 'J',
            d => char::from(b'A' + (d as u8 - b'1')),
        })
        .collect();
    format!("#{digits}")
}

/// Lines cut to the page's width at spaces (a word longer than a line is cut); a continued
/// line is indented by two cells.
fn wrapped(line: &str, cells: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line.trim_end();
    let mut indent = "";
    loop {
        let room = cells - indent.len();
        if rest.len() <= room {
            out.push(format!("{indent}{rest}"));
            return out;
        }
        // Braille ASCII is ASCII: bytes are cells.
        let cut = rest.as_bytes()[..=room]
            .iter()
            .rposition(|&b| b == b' ')
            .filter(|&i| i > 0)
            .unwrap_or(room);
        out.push(format!("{indent}{}", rest[..cut].trim_end()));
        rest = rest[cut..].trim_start();
        indent = "  ";
        if rest.is_empty() {
            return out;
        }
    }
}

/// The pages: the lines wrapped to the width, as many as fit above the last line, which
/// carries the page number at its right; CR LF after each line, a form feed after each
/// page. Every line must already be Braille ASCII.
#[cfg(test)]
pub(crate) fn pages(lines: &[String], size: PageSize) -> String {
    pages_from(lines, size, 1)
}

/// [`pages`] numbered from `first` (the pages after a legend go on counting).
pub fn pages_from(lines: &[String], size: PageSize, first: usize) -> String {
    let body: Vec<String> = lines.iter().flat_map(|l| wrapped(l, size.cells)).collect();
    let per_page = size.lines - 1;
    let mut out = String::new();
    let chunks: Vec<&[String]> = if body.is_empty() {
        vec![&[]]
    } else {
        body.chunks(per_page).collect()
    };
    for (i, chunk) in chunks.iter().enumerate() {
        // A page does not start with a blank line.
        let chunk = match chunk.first() {
            Some(l) if l.is_empty() && i > 0 => &chunk[1..],
            _ => chunk,
        };
        for line in chunk.iter() {
            out.push_str(line);
            out.push_str("\r\n");
        }
        for _ in chunk.len()..per_page {
            out.push_str("\r\n");
        }
        let number = page_number(first + i);
        out.push_str(&" ".repeat(size.cells - number.len()));
        out.push_str(&number);
        out.push_str("\r\n\u{c}");
    }
    out
}

/// Why a text is not a BRF file of this page size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BrfProblem {
    #[error("byte {byte:#04x} at {at} is no Braille ASCII")]
    NotBrailleAscii { byte: u8, at: usize },
    #[error("line {line} of page {page} has {cells} cells")]
    TooWide {
        page: usize,
        line: usize,
        cells: usize,
    },
    #[error("page {page} has {lines} lines")]
    TooLong { page: usize, lines: usize },
    #[error("a line does not end with CR LF")]
    LineEnd,
}

/// Checks a BRF text: every byte Braille ASCII (0x20–0x5F) or CR, LF, form feed; lines ended
/// by CR LF; no line wider than the page; no page longer.
pub fn check_brf(text: &[u8], size: PageSize) -> Result<(), BrfProblem> {
    if let Some((at, &byte)) = text
        .iter()
        .enumerate()
        .find(|&(_, &b)| !(0x20..=0x5F).contains(&b) && !matches!(b, b'\r' | b'\n' | 0x0C))
    {
        return Err(BrfProblem::NotBrailleAscii { byte, at });
    }
    for (p, page) in text.split(|&b| b == 0x0C).enumerate() {
        if page.is_empty() {
            continue;
        }
        if !page.ends_with(b"\r\n") {
            return Err(BrfProblem::LineEnd);
        }
        let lines: Vec<&[u8]> = page[..page.len() - 2].split(|&b| b == b'\n').collect();
        if lines.len() > size.lines {
            return Err(BrfProblem::TooLong {
                page: p + 1,
                lines: lines.len(),
            });
        }
        for (l, line) in lines.iter().enumerate() {
            // Every line but the page's last kept its CR before the split.
            let line = if l + 1 < lines.len() {
                line.strip_suffix(b"\r").ok_or(BrfProblem::LineEnd)?
            } else {
                line
            };
            if line.contains(&b'\r') {
                return Err(BrfProblem::LineEnd);
            }
            if line.len() > size.cells {
                return Err(BrfProblem::TooWide {
                    page: p + 1,
                    line: l + 1,
                    cells: line.len(),
                });
            }
        }
    }
    Ok(())
}

/// Whether a line is Braille ASCII (what liblouis gave back is checked with it).
pub fn is_braille_ascii(line: &str) -> bool {
    line.bytes().all(|b| (0x20..=0x5F).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    fn sans(moves: &[&str]) -> Vec<SanPlus> {
        let mut pos = Chess::default();
        moves
            .iter()
            .map(|m| {
                let san: San = m.parse().expect("san");
                let mv = san.to_move(&pos).expect("legal");
                SanPlus::from_move_and_play_unchecked(&mut pos, mv)
            })
            .collect()
    }

    fn cells(moves: &[&str]) -> Vec<String> {
        sans(moves)
            .iter()
            .map(|s| move_cells(s, &UKAAF_2015))
            .collect()
    }

    /// The examples worked out by hand from the code (docs/BRAILLE.md), cell by cell.
    #[test]
    fn moves_in_the_ukaaf_code() {
        assert_eq!(
            cells(&["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]),
            ["E4", "E5", "SF3", "SC6", "LB5", "A6", "L;C6", "D;C6"]
        );
        // Scholar's mate: a capture that mates.
        assert_eq!(
            cells(&["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"])[6],
            "Q;F7>M"
        );
        // A check after the square (UKAAF 1.4), also after a capture.
        assert_eq!(cells(&["e4", "f5", "Qh5+"])[2], "QH5>P");
        assert_eq!(cells(&["e4", "e5", "Bc4", "Nf6", "Bxf7+"])[4], "L;F7>P");
        // Told apart by file.
        assert_eq!(
            cells(&["Nf3", "a6", "Ng5", "a5", "Nc3", "a4", "Nce4"])[6],
            "SCE4"
        );
    }

    #[test]
    fn castling_and_promotion_follow_the_table() {
        let short = cells(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]);
        assert_eq!(short[6], "O-O");
        let promoted = cells(&[
            "h4", "g5", "hxg5", "Nf6", "g6", "Rg8", "gxh7", "a6", "hxg8=Q",
        ]);
        assert_eq!(promoted[8], "H;G8Q");
        // A castling that checks: the sign after it, as after a square.
        let pos: Chess = "5k2/8/8/8/8/8/8/4K2R w K - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position");
        let castle = "O-O"
            .parse::<San>()
            .expect("san")
            .to_move(&pos)
            .expect("legal");
        let san = SanPlus::from_move(pos, castle);
        assert_eq!(move_cells(&san, &UKAAF_2015), "O-O>P");
    }

    #[test]
    fn one_pair_per_line_and_a_black_move_alone() {
        let moves = sans(&["e4", "e5", "Nf3"]);
        let mut pairs = MovePairs::new(UKAAF_2015);
        pairs.push(1, Color::White, &moves[0]);
        pairs.push(1, Color::Black, &moves[1]);
        pairs.push(2, Color::White, &moves[2]);
        assert_eq!(pairs.finish(), ["1 E4 E5", "2 SF3"]);
        let mut pairs = MovePairs::new(UKAAF_2015);
        pairs.push(7, Color::Black, &moves[1]);
        pairs.push(8, Color::White, &moves[0]);
        assert_eq!(pairs.finish(), ["7 -E5", "8 E4"]);
    }

    #[test]
    fn page_numbers_in_braille() {
        assert_eq!(page_number(1), "#A");
        assert_eq!(page_number(2), "#B");
        assert_eq!(page_number(10), "#AJ");
        assert_eq!(page_number(25), "#BE");
    }

    #[test]
    fn a_page_is_cells_by_lines_with_its_number() {
        let size = PageSize::new(20, 5).expect("size");
        let lines: Vec<String> = (1..=6).map(|n| format!("{n} E4 E5")).collect();
        let text = pages(&lines, size);
        assert_eq!(
            text,
            "1 E4 E5\r\n2 E4 E5\r\n3 E4 E5\r\n4 E4 E5\r\n                  #A\r\n\u{c}\
             5 E4 E5\r\n6 E4 E5\r\n\r\n\r\n                  #B\r\n\u{c}"
        );
        assert_eq!(check_brf(text.as_bytes(), size), Ok(()));
    }

    #[test]
    fn long_lines_are_wrapped_at_spaces() {
        assert_eq!(
            wrapped("AAAA BBBB CCCC DDDD", 10),
            ["AAAA BBBB", "  CCCC", "  DDDD"]
        );
        assert_eq!(wrapped("ABCDEFGHIJKL", 10), ["ABCDEFGHIJ", "  KL"]);
    }

    #[test]
    fn the_check_finds_what_is_not_brf() {
        let size = PageSize::default();
        assert_eq!(
            check_brf(b"abc\r\n\x0c", size),
            Err(BrfProblem::NotBrailleAscii { byte: b'a', at: 0 })
        );
        let wide = format!("{}\r\n\u{c}", "A".repeat(41));
        assert!(matches!(
            check_brf(wide.as_bytes(), size),
            Err(BrfProblem::TooWide { cells: 41, .. })
        ));
        let long = "A\r\n".repeat(26) + "\u{c}";
        assert!(matches!(
            check_brf(long.as_bytes(), size),
            Err(BrfProblem::TooLong { lines: 26, .. })
        ));
        assert_eq!(check_brf(b"A\nB\r\n", size), Err(BrfProblem::LineEnd));
        assert!(is_braille_ascii("#C,3 ANNA"));
        assert!(!is_braille_ascii("⡳X"));
    }

    #[test]
    fn page_sizes_have_bounds() {
        assert!(PageSize::new(40, 25).is_some());
        assert!(PageSize::new(19, 25).is_none());
        assert!(PageSize::new(40, 4).is_none());
        assert!(PageSize::new(101, 25).is_none());
    }
}
