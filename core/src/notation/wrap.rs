//! Lines for a screen reader, broken to a width only between moves and sentences: never
//! between two words of a move ("Springer | schlägt Cäsar sechs", "fünf, | Schach"), which a
//! screen reader would read with a pause inside the move. A move's words are those of the
//! language's tables: files, ranks, pieces (its own and FIDE's), and the words of `[moves]`.

use std::collections::HashSet;

use super::language::Language;
use super::vocabulary::fold;

/// The folded words a move is said in.
fn move_words(lang: &Language) -> HashSet<String> {
    let mut words = HashSet::new();
    let mut add = |text: &str| {
        for w in text.split_whitespace() {
            if !w.starts_with('{') {
                words.insert(fold(bare(w)));
            }
        }
    };
    let f = &lang.fide;
    for list in [
        &lang.board.files[..],
        &lang.board.ranks[..],
        &lang.pieces.names[..],
        &f.files[..],
        &f.ranks[..],
        &f.names[..],
    ] {
        list.iter().for_each(|w| add(w));
    }
    let m = &lang.moves;
    for text in [
        &m.capture,
        &m.to,
        &m.check,
        &m.mate,
        &m.en_passant,
        &m.promotion,
        &m.short_castling,
        &m.long_castling,
        &f.short_castling,
        &f.long_castling,
    ] {
        add(text);
    }
    words.remove("");
    words
}

/// A word without the punctuation around it.
fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| c.is_ascii_punctuation() || c == '«' || c == '»')
}

/// `text` in lines of at most `width` characters, broken at spaces but not between two words
/// of a move; a run of move words longer than the width is broken anyway, and a word longer
/// than the width is cut.
pub fn wrap_between_moves(text: &str, width: usize, lang: &Language) -> Vec<String> {
    let width = width.max(1);
    let glue = move_words(lang);
    let is_move = |w: &str| glue.contains(&fold(bare(w)));
    // The check and mate words follow their move after a comma.
    let suffixes: HashSet<String> = [&lang.moves.check, &lang.moves.mate]
        .iter()
        .flat_map(|t| t.split_whitespace())
        .map(|w| fold(bare(w)))
        .collect();
    // The words that join a move's parts ("schlägt", "nach") never begin one: one that
    // stands first in a unit does not draw the next words to it ("Weiß nach | Läufer …").
    let connectives: HashSet<String> = [&lang.moves.capture, &lang.moves.to]
        .iter()
        .flat_map(|t| t.split_whitespace())
        .filter(|w| !w.starts_with('{'))
        .map(|w| fold(bare(w)))
        .collect();
    // French sets a space before ; : ! ? and inside « »: a line never begins with the mark
    // nor ends with the opening guillemet.
    let mark_alone = |w: &str| !w.is_empty() && w.chars().all(|c| ";:!?»".contains(c));
    let joined = |p: &str, w: &str| {
        if mark_alone(w) || p == "«" {
            true
        } else if w.is_empty() || p.ends_with(['.', ';', ':', '!', '?']) {
            // A sentence, a clause or a label ends.
            false
        } else if p.ends_with(',') {
            // A list's items part; a move's check stays with it.
            is_move(p) && suffixes.contains(&fold(bare(w)))
        } else {
            is_move(p) && is_move(w)
        }
    };
    // Units: words joined where a break would fall inside a move.
    let mut units: Vec<String> = Vec::new();
    let mut previous: Option<&str> = None;
    for word in text.split(' ') {
        match (previous, units.last_mut()) {
            (Some(p), Some(unit))
                if joined(p, word) && !(unit == p && connectives.contains(&fold(bare(p)))) =>
            {
                unit.push(' ');
                unit.push_str(word);
            }
            _ => units.push(word.to_string()),
        }
        previous = Some(word);
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for unit in units {
        let used = line.chars().count();
        let gap = usize::from(used > 0);
        if used + gap + unit.chars().count() <= width {
            if gap == 1 {
                line.push(' ');
            }
            line.push_str(&unit);
            continue;
        }
        if used > 0 {
            lines.push(std::mem::take(&mut line));
        }
        if unit.chars().count() <= width {
            line = unit;
            continue;
        }
        // A move longer than the line: broken at its spaces, a word longer still cut.
        let mut pieces = wrap_words(&unit, width);
        line = pieces.pop().unwrap_or_default();
        lines.extend(pieces);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A sentence broken into lines of at most `width` characters (at least one), at spaces where
/// it can be; a word longer than the line is cut.
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = line.chars().count();
            let gap = usize::from(used > 0);
            if used + gap + word.len() <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            let rest = word.split_off(width.min(word.len()));
            lines.push(word.iter().collect());
            word = rest;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::{language, languages};

    /// French's space before ; and : and inside « »: at every width no line begins with the
    /// mark or ends with the opening guillemet.
    #[test]
    fn a_french_mark_stays_with_the_word_before_it() {
        let fr = language("fr").expect("fr");
        let text = "Maîtres, 3910 parties : Anna six 61 pour cent, Blancs 38, nulles 33, Noirs 29 ; \
                    Cavalier Felix six 36 pour cent ; il peut nommer « captures » et « check » !";
        for width in 12..=100 {
            for line in wrap_between_moves(text, width, fr) {
                assert!(
                    !line.starts_with([';', ':', '!', '»']) && !line.ends_with('«'),
                    "{width}: {line:?}"
                );
                assert!(line.chars().count() <= width, "{width}: {line:?}");
            }
        }
    }

    /// The question of a puzzle at every width from 20 to 100: no line ends or begins
    /// inside the move, in every language.
    #[test]
    fn a_move_is_never_broken_inside() {
        use shakmaty::{Chess, Position, Square, fen::Fen};
        let fen: Fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
            .parse()
            .expect("fen");
        let pos: Chess = fen
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position");
        let qxf7 = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::F7)
            .expect("Qxf7#");
        for lang in languages() {
            let said = crate::notation::speak::announce(&pos, qxf7, lang, Default::default());
            let text = format!(
                "Aufgabe 00LII, Wertung 1661: Vorteil, Mittelspiel. {} nach {said}. Finden Sie den besten Zug",
                lang.colors.white
            );
            for width in 20..=100 {
                let lines = wrap_between_moves(&text, width, lang);
                let joined = lines.join("\n");
                assert!(
                    // The move with the full stop after it is one unit.
                    joined.contains(&said) || said.chars().count() + 1 > width,
                    "{} at {width}: {joined:?}",
                    lang.code
                );
                assert_eq!(lines.join(" "), text, "{} at {width}", lang.code);
                assert!(lines.iter().all(|l| l.chars().count() <= width));
            }
        }
    }

    #[test]
    fn prose_wraps_at_spaces_and_long_words_are_cut() {
        let de = language("de").expect("de");
        assert_eq!(
            wrap_between_moves("eins zwei drei", 9, de),
            ["eins zwei", "drei"]
        );
        assert_eq!(
            wrap_between_moves("abcdefghij", 4, de),
            ["abcd", "efgh", "ij"]
        );
        assert_eq!(wrap_between_moves("", 10, de), [""]);
        // Between moves and after a label a line may end.
        assert_eq!(
            wrap_between_moves("Richtig: Springer schlägt Cäsar sechs. Ihr Zug", 30, de),
            ["Richtig:", "Springer schlägt Cäsar sechs.", "Ihr Zug"]
        );
    }
}
