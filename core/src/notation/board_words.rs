//! What hector says about the physical board (FIDE Appendix D2.2–D2.3): squares where it
//! differs from the game, touched pieces, promotions to be announced, take-backs and the
//! connection. Every word comes from the language tables, like the moves themselves.

use shakmaty::{Chess, Piece, Role, Square};

use super::language::{Language, counted, fill, languages};
use super::speak::{Form, announce};
use super::vocabulary::{Meaning, Vocabulary};
use crate::board::{Recognition, SquareDiff, SquareState};

/// The most squares one mismatch names; the rest are counted. A board knocked over differs on
/// dozens of squares, and nobody listens to all of them.
pub(crate) const MAX_LISTED_SQUARES: usize = 6;

fn piece_words(piece: Piece, lang: &Language) -> &str {
    lang.colored_piece(piece.color, piece.role)
}

/// One square in words: "Eva vier: weißer Bauer fehlt", "Felix drei: hier sollte kein Stein
/// stehen", "Eva vier: schwarzer Bauer statt weißer Bauer".
pub(crate) fn square_problem(diff: &SquareDiff, lang: &Language) -> String {
    let m = &lang.messages;
    let square = lang.square(diff.square);
    match (diff.expected, diff.found) {
        (Some(expected), SquareState::Empty) => fill(
            &m.board_missing,
            &[("square", &square), ("piece", piece_words(expected, lang))],
        ),
        (None, SquareState::Occupied(None)) => fill(&m.board_extra, &[("square", &square)]),
        (None, SquareState::Occupied(Some(found))) => fill(
            &m.board_extra_piece,
            &[("square", &square), ("piece", piece_words(found, lang))],
        ),
        (Some(expected), SquareState::Occupied(found)) => {
            let found = found.map_or(m.board_unknown_piece.as_str(), |p| piece_words(p, lang));
            fill(
                &m.board_wrong,
                &[
                    ("square", &square),
                    ("found", found),
                    ("expected", piece_words(expected, lang)),
                ],
            )
        }
        // Not a difference; said plainly rather than dropped, should a caller pass one.
        (None, SquareState::Empty) => format!("{square}: {}", m.empty_square),
    }
}

/// A whole mismatch as one sentence, the squares separated by semicolons; at most
/// [`MAX_LISTED_SQUARES`] are named, the others counted.
pub fn mismatch(diffs: &[SquareDiff], lang: &Language) -> String {
    let mut parts: Vec<String> = diffs
        .iter()
        .take(MAX_LISTED_SQUARES)
        .map(|d| square_problem(d, lang))
        .collect();
    let rest = diffs.len().saturating_sub(MAX_LISTED_SQUARES);
    if rest > 0 {
        parts.push(counted(&lang.messages.board_more_squares, rest as u64));
    }
    parts.join("; ")
}

/// D2.2: "Eva zwei: weißer Bauer berührt".
pub(crate) fn touched(square: Square, piece: Piece, lang: &Language) -> String {
    fill(
        &lang.messages.board_touched,
        &[
            ("square", &lang.square(square)),
            ("piece", piece_words(piece, lang)),
        ],
    )
}

/// D2.1: the board cannot tell the promoted piece; the player names it.
pub(crate) fn promotion_needed(to: Square, lang: &Language) -> String {
    fill(
        &lang.messages.board_promotion,
        &[("square", &lang.square(to))],
    )
}

/// A fault the board reports about itself, with its own text.
pub fn fault(text: &str, lang: &Language) -> String {
    fill(&lang.messages.board_fault, &[("text", text)])
}

pub fn disconnected(lang: &Language) -> &str {
    &lang.messages.board_disconnected
}

pub fn connected(lang: &Language) -> &str {
    &lang.messages.board_connected
}

pub fn reconnected(lang: &Language) -> &str {
    &lang.messages.board_reconnected
}

/// The board agrees with the game when it is read after connecting.
pub fn in_order(lang: &Language) -> &str {
    &lang.messages.board_in_order
}

/// What the recognizer found, in words. `before` is the position the board was expected to
/// show when it was found (for a move: the position the move was played in).
pub fn recognition(r: &Recognition, before: &Chess, lang: &Language) -> String {
    match r {
        Recognition::Touched { square, piece } => touched(*square, *piece, lang),
        Recognition::Moved(m) => announce(before, *m, lang, Form::Short),
        Recognition::PromotionChoiceNeeded { to, .. } => promotion_needed(*to, lang),
        Recognition::Mismatch(diffs) => mismatch(diffs, lang),
        Recognition::Matches => lang.messages.board_matches.clone(),
        Recognition::TakeBack => lang.messages.board_takeback.clone(),
    }
}

/// The piece a player names for a promotion, in any language: a piece word ("Dame", "queen",
/// "Springer") or a scoresheet letter ("D", "Q", "S", "N"). Only pieces a pawn can become.
pub fn promotion_role(text: &str) -> Option<Role> {
    let word = text.trim().trim_end_matches(['.', '!', '?']);
    let role = match Vocabulary::shared().lookup(word) {
        Some(Meaning::Piece(role)) => Some(role),
        _ => languages().find_map(|lang| {
            lang.pieces
                .letters
                .iter()
                .position(|l| l.eq_ignore_ascii_case(word))
                .map(|i| super::language::TABLE_ROLES[i])
        }),
    }?;
    matches!(role, Role::Queen | Role::Rook | Role::Bishop | Role::Knight).then_some(role)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use shakmaty::{Color, Position, uci::UciMove};

    fn piece(c: char) -> Piece {
        Piece::from_char(c).expect("piece letter")
    }

    fn diff(square: Square, expected: Option<char>, found: SquareState) -> SquareDiff {
        SquareDiff {
            square,
            expected: expected.map(piece),
            found,
        }
    }

    use crate::testkit::de;

    fn en() -> &'static Language {
        language("en").expect("en")
    }

    #[test]
    fn each_kind_of_square_problem_in_both_languages() {
        let missing = diff(Square::E4, Some('P'), SquareState::Empty);
        let extra = diff(Square::F3, None, SquareState::Occupied(None));
        let extra_known = diff(Square::F3, None, SquareState::Occupied(Some(piece('n'))));
        let wrong = diff(
            Square::E4,
            Some('P'),
            SquareState::Occupied(Some(piece('p'))),
        );
        let unknown = diff(Square::E4, Some('P'), SquareState::Occupied(None));
        let cases = [
            (
                missing,
                "Eva vier: weißer Bauer fehlt",
                "Eva four: white pawn missing",
            ),
            (
                extra,
                "Felix drei: hier sollte kein Stein stehen",
                "Felix three: nothing should stand here",
            ),
            (
                extra_known,
                "Felix drei: schwarzer Springer, hier sollte kein Stein stehen",
                "Felix three: black knight, nothing should stand here",
            ),
            (
                wrong,
                "Eva vier: schwarzer Bauer statt weißer Bauer",
                "Eva four: black pawn instead of white pawn",
            ),
            (
                unknown,
                "Eva vier: unbekannter Stein statt weißer Bauer",
                "Eva four: unknown piece instead of white pawn",
            ),
        ];
        for (d, german, english) in cases {
            assert_eq!(square_problem(&d, de()), german);
            assert_eq!(square_problem(&d, en()), english);
        }
    }

    #[test]
    fn a_mismatch_is_one_sentence_and_long_ones_are_counted() {
        let diffs = [
            diff(Square::E4, Some('P'), SquareState::Empty),
            diff(Square::F3, None, SquareState::Occupied(None)),
        ];
        assert_eq!(
            mismatch(&diffs, de()),
            "Eva vier: weißer Bauer fehlt; Felix drei: hier sollte kein Stein stehen"
        );
        assert_eq!(
            mismatch(&diffs, en()),
            "Eva four: white pawn missing; Felix three: nothing should stand here"
        );
        // The board swept clean: sixteen white pieces missing.
        let swept: Vec<SquareDiff> = Chess::default()
            .board()
            .by_color(Color::White)
            .into_iter()
            .map(|sq| SquareDiff {
                square: sq,
                expected: Chess::default().board().piece_at(sq),
                found: SquareState::Empty,
            })
            .collect();
        let text = mismatch(&swept, de());
        assert!(text.starts_with("Anna eins: weißer Turm fehlt; "), "{text}");
        assert!(text.ends_with("; und 10 weitere Felder"), "{text}");
        assert_eq!(text.matches(';').count(), MAX_LISTED_SQUARES);
        assert!(mismatch(&swept, en()).ends_with("; and 10 more squares"));
        // One more square: in the singular.
        let seven = &swept[..MAX_LISTED_SQUARES + 1];
        assert!(mismatch(seven, de()).ends_with("; und 1 weiteres Feld"));
        assert!(mismatch(seven, en()).ends_with("; and 1 more square"));
        assert_eq!(mismatch(&[], de()), "");
    }

    #[test]
    fn recognitions_in_words() {
        let start = Chess::default();
        let e4 = UciMove::from_ascii(b"e2e4")
            .expect("uci")
            .to_move(&start)
            .expect("legal");
        let cases = [
            (
                Recognition::Touched {
                    square: Square::E2,
                    piece: piece('P'),
                },
                "Eva zwei: weißer Bauer berührt",
                "Eva two: white pawn touched",
            ),
            (Recognition::Moved(e4), "Eva vier", "Eva four"),
            (
                Recognition::PromotionChoiceNeeded {
                    from: Square::E7,
                    to: Square::E8,
                },
                "Eva acht: Umwandlung in welche Figur? Dame, Turm, Läufer oder Springer",
                "Eva eight: promote to which piece? Queen, rook, bishop or knight",
            ),
            (
                Recognition::Mismatch(vec![diff(Square::D1, Some('Q'), SquareState::Empty)]),
                "David eins: weiße Dame fehlt",
                "David one: white queen missing",
            ),
            (
                Recognition::Matches,
                "Brett stimmt wieder",
                "Board matches again",
            ),
            (
                Recognition::TakeBack,
                "Zurücknahme: das Brett zeigt die Stellung vor dem letzten Zug",
                "Take-back: the board shows the position before the last move",
            ),
        ];
        for (r, german, english) in cases {
            assert_eq!(recognition(&r, &start, de()), german);
            assert_eq!(recognition(&r, &start, en()), english);
        }
    }

    #[test]
    fn connection_words() {
        assert_eq!(disconnected(de()), "Brett getrennt");
        assert_eq!(disconnected(en()), "Board disconnected");
        assert_eq!(connected(de()), "Brett verbunden");
        assert_eq!(connected(en()), "Board connected");
        assert_eq!(reconnected(de()), "Brett wieder verbunden");
        assert_eq!(reconnected(en()), "Board connected again");
        assert_eq!(in_order(de()), "Brett stimmt mit der Partie überein");
        assert_eq!(in_order(en()), "Board matches the game");
        assert_eq!(
            fault("supply low", de()),
            "Das Brett meldet einen Fehler: supply low"
        );
        assert_eq!(
            fault("supply low", en()),
            "The board reports a fault: supply low"
        );
    }

    #[test]
    fn promotion_pieces_in_any_language() {
        for (text, role) in [
            ("Dame", Some(Role::Queen)),
            ("queen", Some(Role::Queen)),
            ("D", Some(Role::Queen)),
            ("q", Some(Role::Queen)),
            ("Springer", Some(Role::Knight)),
            ("N", Some(Role::Knight)),
            ("s", Some(Role::Knight)),
            ("Läufer", Some(Role::Bishop)),
            ("Laeufer", Some(Role::Bishop)),
            ("turm", Some(Role::Rook)),
            (" Rook. ", Some(Role::Rook)),
            ("König", None),
            ("Bauer", None),
            ("K", None),
            ("", None),
            ("Eva", None),
        ] {
            assert_eq!(promotion_role(text), role, "{text:?}");
        }
    }
}
