//! Comparing the two boards with the game (Appendix D2.8): each board's record of moves, as
//! the board produced them, against the game's record; and what a board shows against the
//! position it should show.

use shakmaty::{Bitboard, Chess, Color, Move, Position};

use crate::board::{Picture, SquareDiff, SquareState};

/// How a board's record stands to the game's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relation {
    /// The same moves.
    Same,
    /// The board lacks the game's last `n` moves: they are still to be carried out on it.
    Behind(usize),
    /// The board has `n` moves more than the game.
    Ahead(usize),
    /// The records differ after the first `shared` half-moves.
    Differs { shared: usize },
}

/// Compares a board's record with the game's.
pub(crate) fn relation(board: &[Move], game: &[Move]) -> Relation {
    let shared = board.iter().zip(game).take_while(|(a, b)| a == b).count();
    match (shared == board.len(), shared == game.len()) {
        (true, true) => Relation::Same,
        (true, false) => Relation::Behind(game.len() - shared),
        (false, true) => Relation::Ahead(board.len() - shared),
        (false, false) => Relation::Differs { shared },
    }
}

/// What the board shows: the position of its record with the last settled differences laid
/// over it.
pub(crate) fn shown(position: &Chess, deviation: &[SquareDiff]) -> Picture {
    let mut picture = Picture::from_board(position.board());
    for d in deviation {
        picture.set(d.square, d.found);
    }
    picture
}

/// Whether `picture` can be `position`.
pub(crate) fn fits(picture: &Picture, position: &Chess) -> bool {
    picture
        .iter()
        .all(|(sq, state)| state.fits(position.board().piece_at(sq)))
}

/// The squares a move changes: from and to, the pawn taken en passant, castling's rook.
pub(crate) fn move_squares(m: Move, turn: Color) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    match m {
        Move::Normal { from, to, .. } => {
            squares.add(from);
            squares.add(to);
        }
        Move::EnPassant { from, to } => {
            squares.add(from);
            squares.add(to);
            // The taken pawn stands beside the capturing one, on the target's file.
            squares.add(shakmaty::Square::from_coords(to.file(), from.rank()));
        }
        Move::Castle { king, rook } => {
            squares.add(king);
            squares.add(rook);
            if let Some(side) = m.castling_side() {
                squares.add(side.king_to(turn));
                squares.add(side.rook_to(turn));
            }
        }
        Move::Put { to, .. } => squares.add(to),
    }
    squares
}

/// D2.8 (a): the squares where the board is wrong, compared with `target` (the game's
/// position). Not wrong: a square of a move still being carried out (`pending`, played from
/// `record`) that shows the record's state or is empty, and (when `hand` allows it, the
/// board's player being to move) a square emptied by lifting a piece, which may still be in
/// the hand, as long as nothing else is wrong. Once something is, every square that differs
/// from `target` is named, those of the move being carried out too: where the piece stands
/// wrongly and where it belongs.
pub(crate) fn wrong_squares(
    picture: &Picture,
    record: &Chess,
    target: &Chess,
    pending: &[Move],
    hand: bool,
) -> Vec<SquareDiff> {
    let mut in_progress = Bitboard::EMPTY;
    let mut pos = record.clone();
    for &m in pending {
        in_progress |= move_squares(m, pos.turn());
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
    }
    let mut wrong = Vec::new();
    // Differences that are no fault by themselves: a piece in the hand, a move half made.
    let mut pending_diffs = Vec::new();
    for (sq, state) in picture.iter() {
        let expected = target.board().piece_at(sq);
        if state.fits(expected) {
            continue;
        }
        let diff = SquareDiff {
            square: sq,
            expected,
            found: state,
        };
        let carrying_out = in_progress.contains(sq)
            && (state == SquareState::Empty || state.fits(record.board().piece_at(sq)));
        if carrying_out || (hand && state == SquareState::Empty) {
            pending_diffs.push(diff);
        } else {
            wrong.push(diff);
        }
    }
    // An empty square is a piece in the hand, and a square of the move the state before it
    // or empty, until a piece stands where none should: then the move was carried out
    // wrongly, and the alert names every square that differs (where the piece came from,
    // where it belongs).
    if !wrong.is_empty() {
        wrong.extend(pending_diffs);
        wrong.sort_by_key(|d| d.square);
    }
    wrong
}

/// A board behind the game that settled in a position the recognizer could not reach in one
/// move: the game's position (the pending moves carried out at once), or that position
/// after one legal move of `owner` (carried out, then the player's own move). `None` when
/// neither fits, or more than one move would.
pub(crate) fn caught_up(picture: &Picture, target: &Chess, owner: Color) -> Option<Option<Move>> {
    if fits(picture, target) {
        return Some(None);
    }
    if target.turn() != owner {
        return None;
    }
    let mut found = None;
    for m in target.legal_moves() {
        let mut after = target.clone();
        after.play_unchecked(m);
        if fits(picture, &after) {
            if found.is_some() {
                return None;
            }
            found = Some(m);
        }
    }
    found.map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Square, uci::UciMove};

    fn play(pos: &Chess, uci: &str) -> (Move, Chess) {
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(pos)
            .expect("legal");
        let mut after = pos.clone();
        after.play_unchecked(m);
        (m, after)
    }

    #[test]
    fn records_compare() {
        let start = Chess::default();
        let (e4, p1) = play(&start, "e2e4");
        let (e5, _) = play(&p1, "e7e5");
        let (e6, _) = play(&p1, "e7e6");
        assert_eq!(relation(&[e4], &[e4]), Relation::Same);
        assert_eq!(relation(&[], &[e4]), Relation::Behind(1));
        assert_eq!(relation(&[e4, e5], &[e4]), Relation::Ahead(1));
        assert_eq!(
            relation(&[e4, e6], &[e4, e5]),
            Relation::Differs { shared: 1 }
        );
        assert_eq!(
            relation(&[e4, e6], &[e4, e5, e4]),
            Relation::Differs { shared: 1 }
        );
    }

    #[test]
    fn a_move_being_carried_out_is_not_wrong() {
        let start = Chess::default();
        let (e4, after) = play(&start, "e2e4");
        // The pawn lifted from e2, not yet on e4.
        let mut picture = Picture::from_board(start.board());
        picture.set(Square::E2, SquareState::Empty);
        assert!(wrong_squares(&picture, &start, &after, &[e4], false).is_empty());
        // Put on e3 instead: wrong (e3), and e4, a square of the move, still lacks it.
        picture.set(Square::E3, SquareState::Occupied(None));
        let wrong = wrong_squares(&picture, &start, &after, &[e4], false);
        let squares: Vec<Square> = wrong.iter().map(|d| d.square).collect();
        assert_eq!(squares, [Square::E3, Square::E4]);
        // A knight lifted elsewhere: wrong, unless its player is to move (in the hand).
        let mut picture = Picture::from_board(after.board());
        picture.set(Square::G1, SquareState::Empty);
        assert_eq!(wrong_squares(&picture, &after, &after, &[], false).len(), 1);
        assert!(wrong_squares(&picture, &after, &after, &[], true).is_empty());
    }

    /// A sighted player's rook move to b2, copied onto the peg board as a1: the alert names
    /// a1 (a rook where none should stand) and b2 (where it belongs), not a1 alone.
    #[test]
    fn a_move_carried_out_to_the_wrong_square_names_where_it_belongs() {
        let pos: Chess = "4k3/8/8/8/8/8/8/1R2K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position");
        let (rb2, after) = play(&pos, "b1b2");
        let mut picture = Picture::from_board(pos.board());
        picture.set(Square::B1, SquareState::Empty);
        // Lifted: nothing wrong yet, with the rook in the hand.
        assert!(wrong_squares(&picture, &pos, &after, &[rb2], true).is_empty());
        picture.set(
            Square::A1,
            SquareState::Occupied(Some(shakmaty::Piece {
                color: Color::White,
                role: shakmaty::Role::Rook,
            })),
        );
        let wrong = wrong_squares(&picture, &pos, &after, &[rb2], true);
        let squares: Vec<Square> = wrong.iter().map(|d| d.square).collect();
        assert_eq!(squares, [Square::A1, Square::B2]);
        assert_eq!(wrong[1].found, SquareState::Empty);
        assert_eq!(
            wrong[1].expected.map(|p| p.role),
            Some(shakmaty::Role::Rook)
        );
    }

    #[test]
    fn castling_and_en_passant_squares() {
        let pos: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position");
        let (castle, _) = play(&pos, "e1g1");
        let squares = move_squares(castle, Color::White);
        for sq in [Square::E1, Square::F1, Square::G1, Square::H1] {
            assert!(squares.contains(sq), "{sq}");
        }
        let pos: Chess = "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position");
        let (ep, _) = play(&pos, "d5e6");
        assert!(move_squares(ep, Color::White).contains(Square::E5));
    }

    #[test]
    fn a_board_that_caught_up_in_one_go() {
        let start = Chess::default();
        let (_, p1) = play(&start, "e2e4");
        // Executed e4 and then played e5 before the recognizer could take either.
        let (e5, p2) = play(&p1, "e7e5");
        let picture = Picture::occupancy_of(p2.board());
        assert_eq!(caught_up(&picture, &p1, Color::Black), Some(Some(e5)));
        assert_eq!(caught_up(&picture, &p1, Color::White), None);
        let picture = Picture::occupancy_of(p1.board());
        assert_eq!(caught_up(&picture, &p1, Color::White), Some(None));
    }
}
