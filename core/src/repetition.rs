//! "The same position" as Article 9.2 defines it, and counting its occurrences.
//!
//! Two positions are the same when the same player is to move, pieces of the same kind and
//! colour stand on the same squares, and the possible moves of all pieces are the same: so
//! castling rights count (shakmaty keeps them per unmoved rook), and an en passant square counts
//! only when a pawn really could be captured en passant (EnPassantMode::Legal).

use shakmaty::{
    CastlingSide, Chess, Color, EnPassantMode, File, Move, Piece, Position, Role, Square,
    zobrist::{Zobrist64, ZobristValue},
};

/// A 64-bit Zobrist key of a position under Article 9.2's notion of sameness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PositionKey(u64);

impl PositionKey {
    pub(crate) fn of(pos: &Chess) -> PositionKey {
        PositionKey(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0)
    }

    /// The key of `after`, the position `m` led to, updated from this key (the key of the
    /// position described by `before`) in a few XORs instead of hashing every piece again.
    pub(crate) fn after_move(self, before: KeyContext, m: Move, after: &Chess) -> PositionKey {
        let us = before.turn;
        let piece = |color: Color, role: Role, sq: Square| {
            Zobrist64::zobrist_for_piece(sq, Piece { color, role })
        };
        let mut h = Zobrist64(self.0);
        h ^= Zobrist64::zobrist_for_white_turn();
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                h ^= piece(us, role, from);
                h ^= piece(us, promotion.unwrap_or(role), to);
                if let Some(captured) = capture {
                    h ^= piece(!us, captured, to);
                }
            }
            Move::EnPassant { from, to } => {
                h ^= piece(us, Role::Pawn, from);
                h ^= piece(us, Role::Pawn, to);
                h ^= piece(!us, Role::Pawn, Square::from_coords(to.file(), from.rank()));
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                h ^= piece(us, Role::King, king);
                h ^= piece(us, Role::Rook, rook);
                h ^= piece(us, Role::King, side.king_to(us));
                h ^= piece(us, Role::Rook, side.rook_to(us));
            }
            Move::Put { role, to } => h ^= piece(us, role, to),
        }
        let rights_after = castling_bits(after);
        for (i, (color, side)) in CASTLING_SLOTS.into_iter().enumerate() {
            if (before.castling ^ rights_after) & (1 << i) != 0 {
                h ^= Zobrist64::zobrist_for_castling_right(color, side);
            }
        }
        if let Some(file) = before.ep_file {
            h ^= Zobrist64::zobrist_for_en_passant_file(file);
        }
        if let Some(sq) = after.legal_ep_square() {
            h ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
        }
        PositionKey(h.0)
    }
}

const CASTLING_SLOTS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

fn castling_bits(pos: &Chess) -> u8 {
    let castles = pos.castles();
    CASTLING_SLOTS
        .into_iter()
        .enumerate()
        .filter(|(_, (color, side))| castles.has(*color, *side))
        .fold(0, |bits, (i, _)| bits | (1 << i))
}

/// What [`PositionKey::after_move`] needs to know of the position before the move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyContext {
    turn: Color,
    castling: u8,
    ep_file: Option<File>,
}

impl KeyContext {
    pub(crate) fn of(pos: &Chess) -> KeyContext {
        KeyContext {
            turn: pos.turn(),
            castling: castling_bits(pos),
            ep_file: pos.legal_ep_square().map(Square::file),
        }
    }
}

/// The keys of every position of a game, from the start position on.
#[derive(Clone, Debug, Default)]
pub(crate) struct Repetitions {
    keys: Vec<PositionKey>,
}

impl Repetitions {
    pub(crate) fn new(start: &Chess) -> Repetitions {
        Repetitions {
            keys: vec![PositionKey::of(start)],
        }
    }

    /// Records the position that has just arisen.
    pub(crate) fn push(&mut self, pos: &Chess) {
        self.keys.push(PositionKey::of(pos));
    }

    /// Records the position that has just arisen by its key.
    pub(crate) fn push_key(&mut self, key: PositionKey) {
        self.keys.push(key);
    }

    pub(crate) fn pop(&mut self) -> Option<PositionKey> {
        if self.keys.len() > 1 {
            self.keys.pop()
        } else {
            None
        }
    }

    /// How many times the current position has appeared, counting now. `halfmoves` is the
    /// current position's halfmove clock: no position before the last capture or pawn move
    /// can be the same.
    pub(crate) fn count_current(&self, halfmoves: u32) -> usize {
        let Some((&current, earlier)) = self.keys.split_last() else {
            return 0;
        };
        1 + self.count_in_window(current, earlier, halfmoves)
    }

    /// How many times the position `key` would have appeared if it arose next, with halfmove
    /// clock `halfmoves` (for a claim on an intended move, 9.2a).
    pub(crate) fn count_if_next(&self, key: PositionKey, halfmoves: u32) -> usize {
        1 + self.count_in_window(key, &self.keys, halfmoves)
    }

    fn count_in_window(&self, key: PositionKey, earlier: &[PositionKey], halfmoves: u32) -> usize {
        // Same side to move: every second earlier position, back to the last irreversible move.
        let window = usize::try_from(halfmoves).unwrap_or(usize::MAX);
        earlier
            .iter()
            .rev()
            .take(window)
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == key)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Move, Role, Square, uci::UciMove};

    fn play(pos: &mut Chess, reps: &mut Repetitions, uci: &str) {
        let m: Move = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(pos)
            .expect("legal");
        pos.play_unchecked(m);
        reps.push(pos);
    }

    #[test]
    fn knight_shuffle_repeats_every_four_plies() {
        let mut pos = Chess::default();
        let mut reps = Repetitions::new(&pos);
        assert_eq!(reps.count_current(pos.halfmoves()), 1);
        for round in 2..=5 {
            for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                play(&mut pos, &mut reps, uci);
            }
            assert_eq!(reps.count_current(pos.halfmoves()), round);
        }
    }

    #[test]
    fn lost_castling_right_makes_positions_different() {
        // 9.2(2): after the king has moved and come back, castling rights differ.
        let mut pos: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("pos");
        let mut reps = Repetitions::new(&pos);
        for uci in ["e1f1", "e8f8", "f1e1", "f8e8"] {
            play(&mut pos, &mut reps, uci);
        }
        assert_eq!(pos.board().role_at(Square::E1), Some(Role::King));
        assert_eq!(reps.count_current(pos.halfmoves()), 1);
        for uci in ["e1f1", "e8f8", "f1e1", "f8e8"] {
            play(&mut pos, &mut reps, uci);
        }
        assert_eq!(reps.count_current(pos.halfmoves()), 2);
    }

    #[test]
    fn en_passant_counts_only_when_capturable() {
        // 9.2(1): after e2-e4 with a black pawn on d4 the capture is possible: a different
        // position from the same placement without that possibility.
        let mut with_ep: Chess = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("pos");
        let mut reps = Repetitions::new(&with_ep);
        play(&mut with_ep, &mut reps, "e2e4");
        let without_ep: Chess = "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("pos");
        assert_ne!(PositionKey::of(&with_ep), PositionKey::of(&without_ep));
        // A double step that no pawn can capture leaves the position the same as without it.
        let quiet: Chess = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("pos");
        let mut after = quiet.clone();
        after.play_unchecked(
            "e2e4"
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&quiet)
                .expect("legal"),
        );
        let same: Chess = "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("pos");
        assert_eq!(PositionKey::of(&after), PositionKey::of(&same));
    }

    #[test]
    fn incremental_keys_equal_keys_from_scratch() {
        // Random games through captures, promotions, castling (also Chess960) and en passant.
        use crate::testkit::games::Rng;
        let mut rng = Rng::new(7);
        for game in 0..300u16 {
            let mut pos = if game % 3 == 0 {
                crate::variant::chess960_position(game % 960).expect("960")
            } else {
                Chess::default()
            };
            let mut key = PositionKey::of(&pos);
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let ctx = KeyContext::of(&pos);
                pos.play_unchecked(m);
                key = key.after_move(ctx, m, &pos);
                assert_eq!(key, PositionKey::of(&pos), "after {m:?} in game {game}");
            }
        }
    }

    #[test]
    fn intended_move_counts_the_coming_position() {
        let mut pos = Chess::default();
        let mut reps = Repetitions::new(&pos);
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
            play(&mut pos, &mut reps, uci);
        }
        let m = "f6g8"
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        let mut next = pos.clone();
        next.play_unchecked(m);
        assert_eq!(
            reps.count_if_next(PositionKey::of(&next), next.halfmoves()),
            3
        );
    }
}
