//! How much is said in board readings and move announcements: the square before or after the
//! piece, colour words where the colour is clear anyway, check words. The default is the
//! usual FIDE wording; a player who knows the board well may want fewer words.

use serde::Deserialize;
use shakmaty::{Piece, Square, san::San, san::SanPlus, san::Suffix};

use super::language::{Language, capitalized};

/// Which comes first when a piece and its square are read together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Each reading as usual: the board by squares ("Anna acht schwarzer Turm"), attackers
    /// by pieces ("weißer Springer Felix drei").
    #[default]
    Usual,
    /// "Eva vier weißer Bauer" everywhere.
    SquareFirst,
    /// "weißer Bauer Eva vier" everywhere.
    PieceFirst,
}

/// The wording settings (the configuration file's `[words]` table, and options of play).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Wording {
    pub order: Order,
    /// "weißer" and "schwarzer" before a piece whose colour the sentence already tells (the
    /// attackers of a side, the pieces a side attacks).
    pub colour_words: bool,
    /// "Schach" after a move that gives check (mate is always said).
    pub check_words: bool,
    /// "schlägt" in a capturing move: left out where the capture's sound says it
    /// (`--cues-only-for captures`).
    pub capture_words: bool,
}

impl Default for Wording {
    fn default() -> Self {
        Wording {
            order: Order::Usual,
            colour_words: true,
            check_words: true,
            capture_words: true,
        }
    }
}

impl Wording {
    /// A move's SAN as it is to be announced: without its check sign when check words are
    /// off, without its capture sign when capture words are.
    pub fn san(&self, san: SanPlus) -> SanPlus {
        let suffix = match san.suffix {
            Some(Suffix::Check) if !self.check_words => None,
            other => other,
        };
        let san = match san.san {
            San::Normal {
                role,
                file,
                rank,
                capture: true,
                to,
                promotion,
            } if !self.capture_words => San::Normal {
                role,
                file,
                rank,
                capture: false,
                to,
                promotion,
            },
            other => other,
        };
        SanPlus { san, suffix }
    }

    /// A piece's words: with its colour unless the colour is `clear` from the sentence and
    /// colour words are off.
    pub(crate) fn piece<'a>(&self, piece: Piece, clear: bool, lang: &'a Language) -> &'a str {
        if clear && !self.colour_words {
            lang.piece(piece.role)
        } else {
            lang.colored_piece(piece.color, piece.role)
        }
    }

    /// A piece and its square in a list; `usual` is the order the reading has by default.
    pub(crate) fn piece_on(
        &self,
        piece: Piece,
        sq: Square,
        usual: Order,
        clear: bool,
        lang: &Language,
    ) -> String {
        let words = self.piece(piece, clear, lang);
        match self.order(usual) {
            Order::PieceFirst => format!("{words} {}", lang.square(sq)),
            _ => format!("{} {words}", lang.square(sq)),
        }
    }

    /// One square read alone: "Eva vier: weißer Bauer", or "Weißer Bauer Eva vier".
    pub(crate) fn square_alone(&self, piece: Piece, sq: Square, lang: &Language) -> String {
        let words = lang.colored_piece(piece.color, piece.role);
        match self.order(Order::SquareFirst) {
            Order::PieceFirst => format!("{} {}", capitalized(words), lang.square(sq)),
            _ => format!("{}: {words}", lang.square(sq)),
        }
    }

    fn order(&self, usual: Order) -> Order {
        match self.order {
            Order::Usual => usual,
            chosen => chosen,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use shakmaty::{Color, Role};

    const PAWN: Piece = Piece {
        color: Color::White,
        role: Role::Pawn,
    };

    fn with(order: Order, colour_words: bool, check_words: bool) -> Wording {
        Wording {
            order,
            colour_words,
            check_words,
            capture_words: true,
        }
    }

    #[test]
    fn square_or_piece_first() {
        let de = language("de").expect("de");
        let usual = Wording::default();
        assert_eq!(
            usual.piece_on(PAWN, Square::E4, Order::SquareFirst, false, de),
            "Eva vier weißer Bauer"
        );
        assert_eq!(
            usual.piece_on(PAWN, Square::E4, Order::PieceFirst, false, de),
            "weißer Bauer Eva vier"
        );
        let square_first = with(Order::SquareFirst, true, true);
        assert_eq!(
            square_first.piece_on(PAWN, Square::E4, Order::PieceFirst, false, de),
            "Eva vier weißer Bauer"
        );
        let piece_first = with(Order::PieceFirst, true, true);
        assert_eq!(
            piece_first.piece_on(PAWN, Square::E4, Order::SquareFirst, false, de),
            "weißer Bauer Eva vier"
        );
        assert_eq!(
            usual.square_alone(PAWN, Square::E4, de),
            "Eva vier: weißer Bauer"
        );
        assert_eq!(
            piece_first.square_alone(PAWN, Square::E4, de),
            "Weißer Bauer Eva vier"
        );
    }

    #[test]
    fn colour_words_only_where_the_colour_is_not_clear() {
        let en = language("en").expect("en");
        let quiet = with(Order::Usual, false, true);
        assert_eq!(
            quiet.piece_on(PAWN, Square::E4, Order::PieceFirst, true, en),
            "Pawn Eva four"
        );
        // Where the sentence does not tell the colour, it is said anyway.
        assert_eq!(
            quiet.piece_on(PAWN, Square::E4, Order::PieceFirst, false, en),
            "white pawn Eva four"
        );
        assert_eq!(
            Wording::default().piece_on(PAWN, Square::E4, Order::PieceFirst, true, en),
            "white pawn Eva four"
        );
    }

    #[test]
    fn check_words_off_keeps_mate() {
        let quiet = with(Order::Usual, true, false);
        let check: SanPlus = "Qh5+".parse().expect("san");
        let mate: SanPlus = "Qh5#".parse().expect("san");
        assert_eq!(quiet.san(check).suffix, None);
        assert_eq!(quiet.san(mate).suffix, Some(Suffix::Checkmate));
        assert_eq!(Wording::default().san(check).suffix, Some(Suffix::Check));
    }

    #[test]
    fn settings_keys() {
        let w: Wording =
            toml::from_str("order = \"square-first\"\ncolour_words = false").expect("valid");
        assert_eq!(w, with(Order::SquareFirst, false, true));
        assert!(toml::from_str::<Wording>("loud = true").is_err());
    }
}
