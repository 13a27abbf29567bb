//! How a game ends, article by article (FIDE Laws of Chess, Articles 5, 6, 7 and 9).

use std::fmt;

use shakmaty::Color;

/// The score of a finished game, as written on a scoresheet or in a PGN `Result` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub(crate) fn win_for(color: Color) -> GameResult {
        color.fold_wb(GameResult::WhiteWins, GameResult::BlackWins)
    }

    /// The PGN spelling: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN result; `*` (unknown) and anything else give `None`.
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text.trim() {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// Why a position is dead (Articles 5.2b and 9.7): no series of legal moves leads to mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeadReason {
    /// Neither side has the material to mate in any position with this material.
    InsufficientMaterial,
    /// Only kings and pawns, every pawn blocked for ever and no king can ever reach an enemy pawn.
    LockedPawns,
}

/// Whether a claim rested on a move the claimant announced (9.2a, 9.3a)
/// or on the position on the board (9.2b, 9.3b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimBasis {
    IntendedMove,
    OnTheBoard,
}

/// The reason a game ended, with the article of the Laws that ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// 5.1a
    Checkmate,
    /// 5.1b
    Resignation,
    /// 5.2a
    Stalemate,
    /// 5.2b, 9.7
    DeadPosition(DeadReason),
    /// 5.2c, 9.1
    Agreement,
    /// 9.2, decided on a correct claim
    Threefold(ClaimBasis),
    /// 9.3, decided on a correct claim
    FiftyMoves(ClaimBasis),
    /// 9.6a
    Fivefold,
    /// 9.6b
    SeventyFiveMoves,
    /// 6.9: the flag fell; lost, or drawn when the opponent cannot mate.
    FlagFall,
    /// 6.11b: both flags fell in the last period and it cannot be said which first.
    BothFlags,
    /// 7.5b: a second completed illegal move; lost, or drawn when the opponent cannot mate.
    IllegalMoves,
    /// 12.9: the arbiter decided the result (a player absent or refusing to comply, a game
    /// that cannot be continued).
    ArbiterDecision,
}

impl Termination {
    /// The article of the 2014 Laws that decides this end.
    pub(crate) fn article(self) -> &'static str {
        match self {
            Termination::Checkmate => "5.1a",
            Termination::Resignation => "5.1b",
            Termination::Stalemate => "5.2a",
            Termination::DeadPosition(_) => "5.2b",
            Termination::Agreement => "9.1",
            Termination::Threefold(ClaimBasis::IntendedMove) => "9.2a",
            Termination::Threefold(ClaimBasis::OnTheBoard) => "9.2b",
            Termination::FiftyMoves(ClaimBasis::IntendedMove) => "9.3a",
            Termination::FiftyMoves(ClaimBasis::OnTheBoard) => "9.3b",
            Termination::Fivefold => "9.6a",
            Termination::SeventyFiveMoves => "9.6b",
            Termination::FlagFall => "6.9",
            Termination::BothFlags => "6.11b",
            Termination::IllegalMoves => "7.5b",
            Termination::ArbiterDecision => "12.9",
        }
    }

    /// The value of the PGN `Termination` tag (PGN standard 9.8.1).
    pub(crate) fn pgn_termination(self) -> &'static str {
        match self {
            Termination::FlagFall | Termination::BothFlags => "time forfeit",
            Termination::IllegalMoves => "rules infraction",
            Termination::ArbiterDecision => "adjudication",
            _ => "normal",
        }
    }

    /// A short English description for logs and reports.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Resignation => "resignation",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition(DeadReason::InsufficientMaterial) => {
                "dead position: insufficient material"
            }
            Termination::DeadPosition(DeadReason::LockedPawns) => "dead position: locked pawns",
            Termination::Agreement => "draw by agreement",
            Termination::Threefold(_) => "threefold repetition claimed",
            Termination::FiftyMoves(_) => "fifty-move rule claimed",
            Termination::Fivefold => "fivefold repetition",
            Termination::SeventyFiveMoves => "seventy-five-move rule",
            Termination::FlagFall => "flag fall",
            Termination::BothFlags => "both flags fell",
            Termination::IllegalMoves => "second illegal move",
            Termination::ArbiterDecision => "the arbiter's decision",
        }
    }
}

/// A finished game: its result and the article that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub result: GameResult,
    pub(crate) termination: Termination,
}

impl Outcome {
    pub(crate) fn new(result: GameResult, termination: Termination) -> Outcome {
        Outcome {
            result,
            termination,
        }
    }

    pub(crate) fn draw(termination: Termination) -> Outcome {
        Outcome::new(GameResult::Draw, termination)
    }

    pub(crate) fn win(winner: Color, termination: Termination) -> Outcome {
        Outcome::new(GameResult::win_for(winner), termination)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, article {})",
            self.result,
            self.termination.describe(),
            self.termination.article()
        )
    }
}
