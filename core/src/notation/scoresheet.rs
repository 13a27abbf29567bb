//! The scoresheet in algebraic notation with the player's own letters (Appendix C2, C3, C11,
//! C13): "Sf3", "Lxe5", "e8D", "0-0", for printing or a braille display.

use shakmaty::san::{San, SanPlus, Suffix};

use super::language::Language;

/// One move as written on the scoresheet.
pub fn scoresheet_move(san: &SanPlus, lang: &Language) -> String {
    let mut out = String::with_capacity(8);
    match san.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            out.push_str(lang.letter(role));
            if let Some(f) = file {
                out.push(f.char());
            }
            if let Some(r) = rank {
                out.push(r.char());
            }
            if capture {
                out.push('x');
            }
            out.push_str(&to.to_string());
            // C11: the new piece's letter follows the pawn move directly (d8D).
            if let Some(p) = promotion {
                out.push_str(lang.letter(p));
            }
        }
        // C13 writes castling with zeros.
        San::Castle(shakmaty::CastlingSide::KingSide) => out.push_str("0-0"),
        San::Castle(shakmaty::CastlingSide::QueenSide) => out.push_str("0-0-0"),
        San::Put { role, to } => {
            out.push_str(lang.letter(role));
            out.push('@');
            out.push_str(&to.to_string());
        }
        San::Null => out.push_str("--"),
    }
    match san.suffix {
        Some(Suffix::Check) => out.push('+'),
        Some(Suffix::Checkmate) => out.push('#'),
        None => {}
    }
    out
}

/// Numbered scoresheet lines for a sequence of moves starting at `first_move` with `white`
/// to move: "1. e4 e5", "2. Sf3 Sc6", or "12. … Lb4" when Black starts.
pub fn scoresheet_lines(
    sans: &[SanPlus],
    first_move: u32,
    white_starts: bool,
    lang: &Language,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut number = first_move;
    let mut iter = sans.iter().peekable();
    if !white_starts && let Some(first) = iter.next() {
        lines.push(format!("{number}. … {}", scoresheet_move(first, lang)));
        number += 1;
    }
    while let Some(white) = iter.next() {
        let mut line = format!("{number}. {}", scoresheet_move(white, lang));
        if let Some(black) = iter.next() {
            line.push(' ');
            line.push_str(&scoresheet_move(black, lang));
        }
        lines.push(line);
        number += 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;

    fn sheet(san: &str, code: &str) -> String {
        scoresheet_move(&san.parse().expect("san"), language(code).expect("lang"))
    }

    #[test]
    fn letters_per_language() {
        assert_eq!(sheet("Nf3", "de"), "Sf3");
        assert_eq!(sheet("Bxe5", "de"), "Lxe5");
        assert_eq!(sheet("Qh4e1", "de"), "Dh4e1");
        assert_eq!(sheet("Rd1+", "de"), "Td1+");
        assert_eq!(sheet("exd8=Q#", "de"), "exd8D#");
        assert_eq!(sheet("O-O", "de"), "0-0");
        assert_eq!(sheet("O-O-O", "en"), "0-0-0");
        assert_eq!(sheet("Nf3", "en"), "Nf3");
        assert_eq!(sheet("b1=N", "en"), "b1N");
    }

    #[test]
    fn numbered_lines() {
        let sans: Vec<SanPlus> = ["e4", "e5", "Nf3"]
            .iter()
            .map(|s| s.parse().expect("san"))
            .collect();
        let de = language("de").expect("de");
        assert_eq!(scoresheet_lines(&sans, 1, true, de), ["1. e4 e5", "2. Sf3"]);
        assert_eq!(
            scoresheet_lines(&sans, 12, false, de),
            ["12. … e4", "13. e5 Sf3"]
        );
    }
}
