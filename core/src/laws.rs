//! The automatic ends of a game and the claims open to the player to move, computed from a
//! position and its history. Shared by the game model and by `hector check`.

use std::time::Duration;

use shakmaty::{Chess, Position};

use super::dead::dead_reason;
use super::outcome::{Outcome, Termination};

/// Halfmoves without a capture or pawn move after which a draw may be claimed (9.3).
pub(crate) const FIFTY_MOVES: u32 = 100;
/// Halfmoves without a capture or pawn move after which the game is drawn (9.6b).
pub(crate) const SEVENTY_FIVE_MOVES: u32 = 150;
/// Occurrences of a position that allow a claim (9.2).
pub(crate) const THREEFOLD: usize = 3;
/// Occurrences of a position that end the game (9.6a).
pub(crate) const FIVEFOLD: usize = 5;

/// The automatic end of the game in `pos`, if any. `has_legal_moves` is passed in so that
/// callers which already know it (the next move of a record was legal) need not generate
/// moves again; `repetitions` counts the occurrences of `pos` including now.
///
/// A checkmate or stalemate decides first: a mate on the 75th move stands (9.6b).
pub(crate) fn automatic_end(
    pos: &Chess,
    has_legal_moves: bool,
    repetitions: usize,
) -> Option<Outcome> {
    if !has_legal_moves {
        return Some(if pos.is_check() {
            Outcome::win(!pos.turn(), Termination::Checkmate)
        } else {
            Outcome::draw(Termination::Stalemate)
        });
    }
    if let Some(reason) = dead_reason(pos) {
        return Some(Outcome::draw(Termination::DeadPosition(reason)));
    }
    if repetitions >= FIVEFOLD {
        return Some(Outcome::draw(Termination::Fivefold));
    }
    if pos.halfmoves() >= SEVENTY_FIVE_MOVES {
        return Some(Outcome::draw(Termination::SeventyFiveMoves));
    }
    None
}

/// The draws the player to move could claim on the board as it stands (9.2b, 9.3b).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Claims {
    pub(crate) threefold: bool,
    pub(crate) fifty_moves: bool,
}

impl Claims {
    pub(crate) fn on_board(pos: &Chess, repetitions: usize) -> Claims {
        Claims {
            threefold: repetitions >= THREEFOLD,
            fifty_moves: pos.halfmoves() >= FIFTY_MOVES,
        }
    }

    #[cfg(any(test, feature = "testkit"))]
    pub(crate) fn any(self) -> bool {
        self.threefold || self.fifty_moves
    }
}

/// Which kind of draw is claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimKind {
    /// 9.2
    Threefold,
    /// 9.3
    FiftyMoves,
}

/// How the arbiter's time penalties and illegal moves are handled in a competition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Time added to the opponent for an illegal move (7.5b) or an incorrect claim (9.5b).
    pub(crate) time_penalty: Duration,
    /// The completed illegal move that loses the game: the second one under 7.5b, the first
    /// one under Appendix A4b (rapid and blitz without adequate supervision).
    pub(crate) illegal_move_that_loses: u8,
}

impl Rules {
    /// Standard play and supervised rapid (A3): two minutes, the second illegal move loses.
    pub const STANDARD: Rules = Rules {
        time_penalty: Duration::from_secs(120),
        illegal_move_that_loses: 2,
    };
    /// Supervised blitz (B2, B3): one minute instead of two.
    pub const BLITZ: Rules = Rules {
        time_penalty: Duration::from_secs(60),
        illegal_move_that_loses: 2,
    };
    /// Rapid or blitz without adequate supervision (A4b, B4): the first illegal move loses.
    #[cfg(test)]
    pub(crate) const UNSUPERVISED_RAPID: Rules = Rules {
        time_penalty: Duration::from_secs(120),
        illegal_move_that_loses: 1,
    };
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::STANDARD
    }
}

/// Time the arbiter adds to a player's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Penalty {
    /// The player who receives the time (the opponent of the offender).
    pub(crate) beneficiary: shakmaty::Color,
    pub(crate) time: Duration,
    /// The article that imposes it: "7.5b" or "9.5b".
    pub(crate) article: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{DeadReason, GameResult};
    use crate::variant::{Variant, position_from_fen};
    use shakmaty::Color;

    fn pos(fen: &str) -> Chess {
        position_from_fen(fen, Variant::Standard).expect("test FEN")
    }

    fn end(fen: &str, reps: usize) -> Option<Outcome> {
        let p = pos(fen);
        let has_moves = !p.legal_moves().is_empty();
        automatic_end(&p, has_moves, reps)
    }

    #[test]
    fn checkmate_5_1a() {
        // Fool's mate.
        let o = end(
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            1,
        );
        assert_eq!(o, Some(Outcome::win(Color::Black, Termination::Checkmate)));
        assert_eq!(o.map(|o| o.result), Some(GameResult::BlackWins));
    }

    #[test]
    fn stalemate_5_2a() {
        let o = end("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1);
        assert_eq!(o, Some(Outcome::draw(Termination::Stalemate)));
    }

    #[test]
    fn dead_position_5_2b() {
        let o = end("8/8/4k3/8/8/3KB3/8/8 b - - 0 1", 1);
        assert_eq!(
            o,
            Some(Outcome::draw(Termination::DeadPosition(
                DeadReason::InsufficientMaterial
            )))
        );
    }

    #[test]
    fn fivefold_9_6a() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 10 40";
        assert_eq!(end(fen, 4), None);
        assert_eq!(end(fen, 5), Some(Outcome::draw(Termination::Fivefold)));
    }

    #[test]
    fn seventy_five_moves_9_6b_and_mate_stands() {
        assert_eq!(end("4k3/8/8/8/8/8/8/R3K3 b - - 149 120", 1), None);
        assert_eq!(
            end("4k3/8/8/8/8/8/8/R3K3 b - - 150 120", 1),
            Some(Outcome::draw(Termination::SeventyFiveMoves))
        );
        // The 150th halfmove gives mate: the mate stands.
        assert_eq!(
            end("R3k3/8/4K3/8/8/8/8/8 b - - 150 120", 1),
            Some(Outcome::win(Color::White, Termination::Checkmate))
        );
    }

    #[test]
    fn claims_9_2b_and_9_3b() {
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        assert_eq!(Claims::on_board(&p, 2), Claims::default());
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
        let c = Claims::on_board(&p, 3);
        assert!(c.threefold && c.fifty_moves && c.any());
    }
}
