//! Reading squares and positions with the same words as moves: "Felix drei: weißer Springer".

use shakmaty::{Board, Color, Role, Square};

use super::language::{Language, TABLE_ROLES};

/// What stands on a square: "Felix drei: weißer Springer" or "Felix drei: leer".
pub(crate) fn describe_square(board: &Board, sq: Square, lang: &Language) -> String {
    match board.piece_at(sq) {
        Some(piece) => format!(
            "{}: {}",
            lang.square(sq),
            lang.colored_piece(piece.color, piece.role)
        ),
        None => format!("{}: {}", lang.square(sq), lang.messages.empty_square),
    }
}

/// The squares of one side's pieces of one kind, in board order from a1: "Anna eins, Hector eins".
pub(crate) fn squares_of(board: &Board, color: Color, role: Role, lang: &Language) -> Vec<String> {
    (board.by_color(color) & board.by_role(role))
        .into_iter()
        .map(|sq| lang.square(sq))
        .collect()
}

/// One side's pieces, kind by kind: "Weiß: König Gustav eins; Türme Anna eins, Felix eins; …".
pub(crate) fn describe_side(board: &Board, color: Color, lang: &Language) -> String {
    let mut parts = Vec::new();
    for role in TABLE_ROLES {
        let squares = squares_of(board, color, role, lang);
        match squares.len() {
            0 => {}
            1 => parts.push(format!("{} {}", lang.piece(role), squares[0])),
            _ => parts.push(format!(
                "{} {}",
                lang.pieces_plural(role),
                squares.join(", ")
            )),
        }
    }
    format!("{}: {}", lang.color(color), parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use shakmaty::{Chess, Position};

    #[test]
    fn squares_and_sides() {
        let pos = Chess::default();
        let de = language("de").expect("de");
        let en = language("en").expect("en");
        assert_eq!(
            describe_square(pos.board(), Square::G1, de),
            "Gustav eins: weißer Springer"
        );
        assert_eq!(
            describe_square(pos.board(), Square::E4, en),
            "Eva four: empty"
        );
        assert_eq!(
            describe_side(pos.board(), Color::Black, de),
            "Schwarz: König Eva acht; Dame David acht; Türme Anna acht, Hector acht; \
             Läufer Cäsar acht, Felix acht; Springer Bella acht, Gustav acht; \
             Bauern Anna sieben, Bella sieben, Cäsar sieben, David sieben, Eva sieben, \
             Felix sieben, Gustav sieben, Hector sieben"
        );
    }
}
