//! The capturing moves only (`schlagzüge`, lichess's Shift+M): of the piece on a square, or of
//! every piece of the side to move. On the opponent's piece, what it could take were it the
//! opponent's turn, as `züge` says of its moves.

use shakmaty::{Chess, Move, Position, Square};

use super::dangers::turned;
use crate::notation::language::{Language, capitalized, fill};
use crate::notation::speak::{Form, announce};

/// The capturing moves of the piece on `from` (or of every piece of the side to move), in
/// words.
pub(crate) fn captures(pos: &Chess, from: Option<Square>, lang: &Language, form: Form) -> String {
    let words = &lang.capture_moves;
    let say = |pos: &Chess, ms: &[Move]| -> String {
        ms.iter()
            .map(|m| announce(pos, *m, lang, form))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let taking = |pos: &Chess, from: Option<Square>| -> Vec<Move> {
        pos.legal_moves()
            .into_iter()
            .filter(|m| m.is_capture() && from.is_none_or(|sq| m.from() == Some(sq)))
            .collect()
    };
    let Some(sq) = from else {
        let all = taking(pos, None);
        if all.is_empty() {
            return words.none_all.clone();
        }
        let forms = &words.all;
        return fill(
            if all.len() == 1 { &forms[0] } else { &forms[1] },
            &[
                ("count", &all.len().to_string()),
                ("moves", &say(pos, &all)),
            ],
        );
    };
    let Some(piece) = pos.board().piece_at(sq) else {
        return fill(&lang.play.no_piece, &[("square", &lang.square(sq))]);
    };
    let own = piece.color == pos.turn();
    // The opponent's piece: as if it were the opponent's turn.
    let Some(seen) = (if own { Some(pos.clone()) } else { turned(pos) }) else {
        return fill(
            &lang.play.not_to_move,
            &[("color", lang.color(piece.color))],
        );
    };
    let list = taking(&seen, Some(sq));
    let moves = if list.is_empty() {
        words.none.clone()
    } else {
        say(&seen, &list)
    };
    if own {
        fill(
            &lang.play.moves_of,
            &[
                (
                    "piece",
                    &capitalized(lang.colored_piece(piece.color, piece.role)),
                ),
                ("square", &lang.square(sq)),
                ("moves", &moves),
            ],
        )
    } else {
        fill(
            &lang.captures.could,
            &[
                ("color", lang.color(piece.color)),
                ("piece", lang.piece(piece.role)),
                ("square", &lang.square(sq)),
                ("moves", &moves),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;

    fn position(sans: &str) -> Chess {
        let mut pos = Chess::default();
        for san in sans.split_whitespace() {
            let m = san
                .parse::<shakmaty::san::San>()
                .expect("san")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
        }
        pos
    }

    #[test]
    fn only_the_captures_are_named() {
        let de = language("de").expect("de");
        let en = language("en").expect("en");
        let pos = position("e4 d5 Nc3 Nf6");
        assert_eq!(
            captures(&pos, Some(Square::E4), de, Form::Short),
            "Weißer Bauer Eva vier: Eva schlägt David fünf"
        );
        assert_eq!(
            captures(&pos, Some(Square::C3), de, Form::Short),
            "Weißer Springer Cäsar drei: Springer schlägt David fünf"
        );
        assert_eq!(
            captures(&pos, Some(Square::G1), de, Form::Short),
            "Weißer Springer Gustav eins: keine Schlagzüge"
        );
        assert_eq!(
            captures(&pos, None, de, Form::Short),
            "2 Schlagzüge: Eva schlägt David fünf, Springer schlägt David fünf"
        );
        assert_eq!(
            captures(&pos, None, en, Form::Short).split(':').next(),
            Some("2 captures")
        );
        // The opponent's piece: what it could take on its turn.
        assert_eq!(
            captures(&pos, Some(Square::F6), de, Form::Short),
            "Schwarz könnte Springer Felix sechs ziehen: Springer schlägt Eva vier"
        );
        assert_eq!(
            captures(&Chess::default(), None, de, Form::Short),
            "Keine Schlagzüge"
        );
        assert_eq!(
            captures(&pos, Some(Square::E5), de, Form::Short),
            "Auf Eva fünf steht keine Figur"
        );
    }
}
