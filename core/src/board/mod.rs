//! Physical boards: the codecs of the boards hector reads (DGT electronic boards, hector's
//! peg protocol for tactile boards) and the recognition of moves from what their sensors
//! report (FIDE Laws, Appendix D2.2–D2.3).
//!
//! Sans-IO like the rest of the core: bytes in, messages out, instants passed in as
//! [`Timestamp`](crate::time::Timestamp). Adapters own the serial ports and the clock.
//!
//! A protocol is one [`Codec`] in a file of its own (`dgt.rs`, `peg.rs`), named by
//! [`Protocol`]; [`BoardDriver`] joins a codec to the [`Recognizer`]. Only what is re-exported
//! here is seen outside.

mod codec;
mod dgt;
mod driver;
mod peg;
mod protocol;
mod recognizer;

use std::fmt;
use std::ops::Index;

use shakmaty::{Bitboard, Board, File, Piece, Rank, Square};

pub use codec::{
    BoardMessage, Codec, DataBits, Decoded, Emulator, FlowControl, Heard, Parity, SerialSettings,
    StopBits,
};
/// The decoders alone, for the throughput benchmark (benches/board.rs).
pub use dgt::DgtDecoder;
pub use driver::{BoardDriver, BoardEvent, PortEvent, Step};
pub use peg::{PegDecoder, with_checksum};
pub use protocol::Protocol;
pub use recognizer::{PromotionError, Recognition, Recognizer, SquareDiff};

/// What a sensor knows about one square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SquareState {
    #[default]
    Empty,
    /// Something stands here; `None` when the board cannot tell which piece.
    Occupied(Option<Piece>),
}

impl SquareState {
    pub(crate) fn is_occupied(self) -> bool {
        matches!(self, SquareState::Occupied(_))
    }

    /// The piece, if the board identified one.
    pub(crate) fn piece(self) -> Option<Piece> {
        match self {
            SquareState::Occupied(piece) => piece,
            SquareState::Empty => None,
        }
    }

    /// Whether a square seen like this can hold `want` (nothing, or that piece); an occupant
    /// the board cannot name fits any piece.
    pub(crate) fn fits(self, want: Option<Piece>) -> bool {
        match (self, want) {
            (SquareState::Empty, None) | (SquareState::Occupied(None), Some(_)) => true,
            (SquareState::Occupied(Some(p)), Some(q)) => p == q,
            _ => false,
        }
    }

    /// The letter of the peg protocol's snapshot: a FEN piece letter, `x` for an unknown
    /// occupant, `.` for an empty square.
    pub(crate) fn from_char(c: char) -> Option<SquareState> {
        match c {
            '.' => Some(SquareState::Empty),
            'x' => Some(SquareState::Occupied(None)),
            _ => Piece::from_char(c).map(|p| SquareState::Occupied(Some(p))),
        }
    }

    pub(crate) fn char(self) -> char {
        match self {
            SquareState::Empty => '.',
            SquareState::Occupied(None) => 'x',
            SquareState::Occupied(Some(p)) => p.char(),
        }
    }
}

impl From<Option<Piece>> for SquareState {
    /// What a board that identifies pieces sees where `piece` (or nothing) stands.
    fn from(piece: Option<Piece>) -> SquareState {
        piece.map_or(SquareState::Empty, |p| SquareState::Occupied(Some(p)))
    }
}

/// What the sensors report for all 64 squares.
///
/// Indexed by [`Square`] (a1 = 0 … h8 = 63, shakmaty's order), never by the wire order of a
/// protocol: the codecs convert, so that an index can never be read in the wrong order.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Picture([SquareState; 64]);

impl Picture {
    pub(crate) const EMPTY: Picture = Picture([SquareState::Empty; 64]);

    /// What a board that identifies pieces reports for `board`.
    pub(crate) fn from_board(board: &Board) -> Picture {
        let mut picture = Picture::EMPTY;
        for (sq, piece) in board {
            picture.set(sq, SquareState::Occupied(Some(piece)));
        }
        picture
    }

    /// What an occupancy-only board reports for `board`.
    pub fn occupancy_of(board: &Board) -> Picture {
        let mut picture = Picture::EMPTY;
        for sq in board.occupied() {
            picture.set(sq, SquareState::Occupied(None));
        }
        picture
    }

    pub(crate) fn get(&self, sq: Square) -> SquareState {
        self.0[sq.to_usize()]
    }

    pub(crate) fn set(&mut self, sq: Square, state: SquareState) {
        self.0[sq.to_usize()] = state;
    }

    pub(crate) fn occupied(&self) -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|&sq| self.get(sq).is_occupied())
            .collect()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (Square, SquareState)> + '_ {
        Square::ALL.into_iter().map(|sq| (sq, self.get(sq)))
    }

    /// The 64 snapshot letters in the peg protocol's order: a8 … h8, a7 …, h1.
    pub fn to_rows(&self) -> String {
        rows_a8_to_h1().map(|sq| self.get(sq).char()).collect()
    }
}

impl Default for Picture {
    fn default() -> Picture {
        Picture::EMPTY
    }
}

impl Index<Square> for Picture {
    type Output = SquareState;
    fn index(&self, sq: Square) -> &SquareState {
        &self.0[sq.to_usize()]
    }
}

impl fmt::Debug for Picture {
    /// Eight rows from rank 8 down, as a person would read the board.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.to_rows();
        let mut list = f.debug_list();
        for row in rows.as_bytes().chunks(8) {
            list.entry(&String::from_utf8_lossy(row));
        }
        list.finish()
    }
}

/// The squares in reading order from white's side: a8 … h8, a7 … h7, …, a1 … h1. Both
/// protocols list squares this way.
pub fn rows_a8_to_h1() -> impl Iterator<Item = Square> {
    Rank::ALL.into_iter().rev().flat_map(|rank| {
        File::ALL
            .into_iter()
            .map(move |file| Square::from_coords(file, rank))
    })
}

/// What a board driver tells the recognizer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SensorEvent {
    /// A piece left the square (Appendix D2.2: for a peg, it counts as touched).
    Lifted(Square),
    /// A piece was set on the square; the piece only on boards that identify pieces. On a
    /// square that was occupied this reports a replacement (DGT never reports the removal of
    /// a captured piece separately).
    Placed(Square, Option<Piece>),
    /// A full reading of the board.
    Snapshot(Picture),
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Role};

    #[test]
    fn reading_order_starts_at_a8_and_ends_at_h1() {
        let order: Vec<Square> = rows_a8_to_h1().collect();
        assert_eq!(order.len(), 64);
        assert_eq!(order[0], Square::A8);
        assert_eq!(order[7], Square::H8);
        assert_eq!(order[8], Square::A7);
        assert_eq!(order[63], Square::H1);
    }

    #[test]
    fn picture_of_the_start_position() {
        let picture = Picture::from_board(&Board::new());
        assert_eq!(
            picture.to_rows(),
            "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR"
        );
        assert_eq!(
            picture[Square::E1],
            SquareState::Occupied(Some(Piece {
                color: Color::White,
                role: Role::King
            }))
        );
        assert_eq!(picture.occupied(), Board::new().occupied());
        let occupancy = Picture::occupancy_of(&Board::new());
        assert_eq!(occupancy[Square::E1], SquareState::Occupied(None));
        assert_eq!(occupancy[Square::E4], SquareState::Empty);
    }

    #[test]
    fn square_state_letters_round_trip() {
        for c in "KQRBNPkqrbnpx.".chars() {
            let state = SquareState::from_char(c).expect("letter of the protocol");
            assert_eq!(state.char(), c);
        }
        assert_eq!(SquareState::from_char('X'), None);
        assert_eq!(SquareState::from_char('-'), None);
    }
}
