//! Dead positions (Articles 5.2b, 9.7) and "the opponent cannot mate" (6.9, 7.5b).
//!
//! Detected: (1) insufficient material, as shakmaty decides it from the material and the
//! colours of the bishops' squares; (2) locked pawns: only kings and pawns remain, every pawn
//! is blocked by a pawn in front of it, no pawn can ever capture, and neither king can ever
//! reach an enemy pawn. Other dead positions (e.g. a forced sequence into one of these) are not
//! detected; the fifty- and seventy-five-move rules still end such games.

use shakmaty::{Bitboard, Chess, Color, Position, Square, attacks};

use super::outcome::DeadReason;

/// Why the position is dead, if it is.
pub(crate) fn dead_reason(pos: &Chess) -> Option<DeadReason> {
    if pos.is_insufficient_material() {
        Some(DeadReason::InsufficientMaterial)
    } else if is_locked(pos) {
        Some(DeadReason::LockedPawns)
    } else {
        None
    }
}

/// True when `color` cannot checkmate by any series of legal moves (as far as detected).
pub(crate) fn cannot_mate(pos: &Chess, color: Color) -> bool {
    pos.has_insufficient_material(color) || is_locked(pos)
}

/// Kings and pawns only, all pawns frozen for ever, kings unable to reach any enemy pawn.
fn is_locked(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    if pawns.is_empty() || board.occupied() != (pawns | board.kings()) {
        return false;
    }
    if pos.legal_ep_square().is_some() {
        return false;
    }
    for color in Color::ALL {
        let ours = pawns & board.by_color(color);
        let theirs = pawns & board.by_color(!color);
        for sq in ours {
            // A pawn on the last rank cannot exist; treat anything odd as not locked.
            let Some(front) = sq.offset(color.fold_wb(8, -8)) else {
                return false;
            };
            if !pawns.contains(front) {
                return false;
            }
            if (attacks::pawn_attacks(color, sq) & theirs).any() {
                return false;
            }
        }
    }
    for color in Color::ALL {
        let Some(king) = board.king_of(color) else {
            return false;
        };
        let enemy_pawns = pawns & board.by_color(!color);
        let forbidden = pawns | pawn_attacks_of(pawns & board.by_color(!color), !color);
        let region = flood(king, forbidden);
        // The king could capture an enemy pawn next to any square it can reach.
        let reach = region
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::king_attacks(sq));
        if (reach & enemy_pawns).any() {
            return false;
        }
    }
    true
}

fn pawn_attacks_of(pawns: Bitboard, color: Color) -> Bitboard {
    pawns.into_iter().fold(Bitboard::EMPTY, |acc, sq| {
        acc | attacks::pawn_attacks(color, sq)
    })
}

/// Squares a king can walk to from `start` without entering `forbidden`.
fn flood(start: Square, forbidden: Bitboard) -> Bitboard {
    let mut region = Bitboard::from_square(start);
    let mut frontier = region;
    while frontier.any() {
        let next = frontier
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::king_attacks(sq))
            & !forbidden
            & !region;
        region |= next;
        frontier = next;
    }
    region
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Variant, position_from_fen};

    fn pos(fen: &str) -> Chess {
        position_from_fen(fen, Variant::Standard).expect("test FEN")
    }

    #[test]
    fn insufficient_material_cases_from_5_2b() {
        // King against king; king and bishop against king; king and knight against king.
        for fen in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KN3/8/8 b - - 0 1",
            // Bishops all on squares of one colour, for both sides.
            "8/3b4/4k3/8/8/3K4/8/1B6 w - - 0 1",
        ] {
            assert_eq!(
                dead_reason(&pos(fen)),
                Some(DeadReason::InsufficientMaterial),
                "{fen}"
            );
        }
    }

    #[test]
    fn material_that_can_mate_is_not_dead() {
        for fen in [
            "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1",
            "8/8/4k3/8/8/R2K4/8/8 w - - 0 1",
            // Bishops on opposite colours can cooperate in a help-mate.
            "8/2b5/4k3/8/8/3K4/8/1B6 w - - 0 1",
            "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1",
        ] {
            assert_eq!(dead_reason(&pos(fen)), None, "{fen}");
        }
    }

    #[test]
    fn locked_pawn_wall_is_dead() {
        // Zig-zag chains: every pawn blocked head-on, no pawn touches an enemy pawn diagonally,
        // and the third and sixth ranks are closed to the kings by pawns and pawn attacks.
        let wall = "4k3/8/1p1p1p1p/1P1P1P1P/p1p1p1p1/P1P1P1P1/8/4K3 w - - 0 1";
        let p = pos(wall);
        assert_eq!(dead_reason(&p), Some(DeadReason::LockedPawns));
        assert!(cannot_mate(&p, Color::White));
        assert!(cannot_mate(&p, Color::Black));
        // Gaps on the b, d, f and h files are closed by pawn attacks: still dead.
        let attacked_gaps = "8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1";
        assert_eq!(
            dead_reason(&pos(attacked_gaps)),
            Some(DeadReason::LockedPawns)
        );
    }

    #[test]
    fn walls_with_gaps_or_contact_are_alive() {
        // The kings walk up the open g- and h-files to the enemy pawns.
        assert_eq!(
            dead_reason(&pos("8/4k3/8/p1p1p3/P1P1P3/8/4K3/8 w - - 0 1")),
            None
        );
        // Pawns in diagonal contact can capture.
        assert_eq!(
            dead_reason(&pos("4k3/8/8/pppppppp/PPPPPPPP/8/8/4K3 w - - 0 1")),
            None
        );
        assert_eq!(dead_reason(&pos("8/8/1k6/8/1p6/1P6/8/K7 w - - 0 1")), None);
        // A piece besides kings and pawns is never locked.
        assert_eq!(
            dead_reason(&pos(
                "4k3/8/1p1p1p1p/1P1P1P1P/p1p1p1p1/P1P1P1P1/8/4K2N w - - 0 1"
            )),
            None
        );
    }

    #[test]
    fn cannot_mate_is_per_side() {
        // White has a lone king, Black a rook: White cannot mate, Black can.
        let p = pos("8/8/4k3/8/8/3K4/8/7r w - - 0 1");
        assert!(cannot_mate(&p, Color::White));
        assert!(!cannot_mate(&p, Color::Black));
    }
}
