//! The board on a braille display: the focused rank as one line, in the letters of the
//! screen's board (White in capitals, Black in small letters, a dark empty square `:`, a light
//! one `.`), one cell per square, the cursor on the focused square. A routing key over a
//! square moves the focus there; over the focused square it is a press of Space (pick up,
//! play, put down).

use shakmaty::{Board, Color, File, Square};

use crate::notation::language::{Language, role_index};

/// The line and which cell holds which square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLine {
    pub text: String,
    /// The focused square's character (counted from 0).
    pub cursor: usize,
    focus: Square,
    /// The squares in the order of their cells, and the character of the first.
    first: usize,
    files: [File; 8],
}

/// What a routing key over the board line asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardRoute {
    /// Move the focus to this square.
    Focus(Square),
    /// The focused square itself: as Space on it.
    Press(Square),
}

impl BoardLine {
    /// The rank of `focus`, seen with `bottom` at the bottom (files a to h for White, h to a
    /// for Black); a piece picked up (`picked`) is named after the squares, as `[Sg1]`.
    pub fn new(
        board: &Board,
        focus: Square,
        bottom: Color,
        picked: Option<Square>,
        lang: &Language,
    ) -> BoardLine {
        let mut files = File::ALL;
        if bottom == Color::Black {
            files.reverse();
        }
        let rank = focus.rank();
        let mut text = format!("{} ", rank.char());
        let first = text.chars().count();
        let mut cursor = first;
        for (i, file) in files.iter().enumerate() {
            let sq = Square::from_coords(*file, rank);
            if sq == focus {
                cursor = first + i;
            }
            text.push(cell(board, sq, lang));
        }
        if let Some(sq) = picked
            && let Some(piece) = board.piece_at(sq)
        {
            text.push_str(" [");
            text.push_str(&letter(piece, lang));
            text.push_str(&sq.to_string());
            text.push(']');
        }
        BoardLine {
            text,
            cursor,
            focus,
            first,
            files,
        }
    }

    /// The square under a character of the line, if any.
    pub(crate) fn square_at(&self, at: usize) -> Option<Square> {
        let i = at.checked_sub(self.first)?;
        let file = *self.files.get(i)?;
        Some(Square::from_coords(file, self.focus.rank()))
    }

    /// What a routing key over the character `at` asks; `None` off the squares.
    pub fn route(&self, at: usize) -> Option<BoardRoute> {
        let sq = self.square_at(at)?;
        Some(if sq == self.focus {
            BoardRoute::Press(sq)
        } else {
            BoardRoute::Focus(sq)
        })
    }
}

fn letter(piece: shakmaty::Piece, lang: &Language) -> String {
    let letter = &lang.pieces.board_letters[role_index(piece.role)];
    match piece.color {
        Color::White => letter.to_uppercase(),
        Color::Black => letter.to_lowercase(),
    }
}

/// One square in one cell: the piece's letter (its first character), or the square's colour.
fn cell(board: &Board, sq: Square, lang: &Language) -> char {
    match board.piece_at(sq) {
        Some(piece) => letter(piece, lang).chars().next().unwrap_or('?'),
        None if sq.is_dark() => ':',
        None => '.',
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use shakmaty::{Chess, Position};

    fn start() -> Board {
        Chess::default().board().clone()
    }

    #[test]
    fn the_first_rank_in_german_and_english_letters() {
        let de = language("de").expect("de");
        let line = BoardLine::new(&start(), Square::G1, Color::White, None, de);
        assert_eq!(line.text, "1 TSLDKLST");
        assert_eq!(line.cursor, 8);
        let en = language("en").expect("en");
        let line = BoardLine::new(&start(), Square::E8, Color::White, None, en);
        assert_eq!(line.text, "8 rnbqkbnr");
        assert_eq!(line.cursor, 6);
    }

    #[test]
    fn empty_squares_by_colour_and_the_board_from_blacks_side() {
        let de = language("de").expect("de");
        // a4 is light, h4 dark.
        let line = BoardLine::new(&start(), Square::A4, Color::White, None, de);
        assert_eq!(line.text, "4 .:.:.:.:");
        assert_eq!(line.cursor, 2);
        let line = BoardLine::new(&start(), Square::A4, Color::Black, None, de);
        assert_eq!(line.text, "4 :.:.:.:.");
        assert_eq!(line.cursor, 9);
        assert_eq!(line.square_at(2), Some(Square::H4));
    }

    #[test]
    fn routing_moves_the_focus_or_presses_the_focused_square() {
        let de = language("de").expect("de");
        let line = BoardLine::new(&start(), Square::E2, Color::White, None, de);
        assert_eq!(line.route(2), Some(BoardRoute::Focus(Square::A2)));
        assert_eq!(line.route(6), Some(BoardRoute::Press(Square::E2)));
        assert_eq!(line.route(0), None, "the rank's number");
        assert_eq!(line.route(1), None);
        assert_eq!(line.route(10), None);
        for at in 2..10 {
            let sq = line.square_at(at).expect("a square");
            assert_eq!(sq.rank(), shakmaty::Rank::Second);
        }
    }

    #[test]
    fn a_piece_picked_up_is_named_after_the_rank() {
        let de = language("de").expect("de");
        let line = BoardLine::new(&start(), Square::F3, Color::White, Some(Square::G1), de);
        assert_eq!(line.text, "3 :.:.:.:. [Sg1]");
        assert_eq!(line.route(14), None);
    }
}
