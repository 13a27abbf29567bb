//! Which game is played: standard chess or Chess960 (FIDE Laws, Appendix F).

#[cfg(test)]
use shakmaty::Position;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, File, Piece, PositionError, PositionErrorKinds,
    Rank, Role, Setup, Square,
    fen::{Fen, ParseFenError},
};

/// The rules family of a game. Chess960 differs only in the start position and in how castling
/// is written (Appendix F: the king and rook end on the same squares as in standard chess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Standard,
    Chess960,
}

impl Variant {
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }

    /// Recognises the names real PGN files put in the `Variant` tag.
    /// Returns `None` for variants hector does not play (crazyhouse, atomic, …).
    pub(crate) fn from_pgn_tag(value: &str) -> Option<Variant> {
        let key: String = value
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match key.as_str() {
            "" | "standard" | "chess" | "normal" | "fromposition" | "classical" | "rapid"
            | "blitz" | "bullet" | "correspondence" => Some(Variant::Standard),
            "chess960"
            | "960"
            | "fischerandom"
            | "fischerrandom"
            | "fischerrandomchess"
            | "frc"
            | "chess960fischerrandom"
            | "fischerandomchess"
            | "freestyle"
            | "freestylechess" => Some(Variant::Chess960),
            _ => None,
        }
    }
}

/// Number of Chess960 start positions (Appendix F1).
pub const CHESS960_POSITIONS: u16 = 960;

/// The Chess960 start position number of standard chess.
#[cfg(test)]
pub(crate) const STANDARD_CHESS960_NUMBER: u16 = 518;

/// Knight placements among the five squares left after both bishops and the queen,
/// indexed by the third digit of the Scharnagl number.
const KNIGHT_PAIRS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The back rank of Chess960 start position `number` (0..960, Scharnagl numbering;
/// 518 is the standard start position), from file a to file h.
pub(crate) fn chess960_back_rank(number: u16) -> Option<[Role; 8]> {
    if number >= CHESS960_POSITIONS {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let n = usize::from(number);
    // Light-squared bishop on b, d, f or h; dark-squared bishop on a, c, e or g.
    rank[(n % 4) * 2 + 1] = Some(Role::Bishop);
    rank[((n / 4) % 4) * 2] = Some(Role::Bishop);
    let n = n / 16;
    let queen = n % 6;
    let knights = KNIGHT_PAIRS[n / 6];

    let mut place_nth_free = |index: usize, role: Role| {
        if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(index) {
            *slot = Some(role);
        }
    };
    place_nth_free(queen, Role::Queen);
    // The second knight's index shifts down by one once the first has been placed.
    place_nth_free(knights.0, Role::Knight);
    place_nth_free(knights.1 - 1, Role::Knight);
    place_nth_free(0, Role::Rook);
    place_nth_free(0, Role::King);
    place_nth_free(0, Role::Rook);

    let mut out = [Role::Pawn; 8];
    for (slot, role) in out.iter_mut().zip(rank) {
        *slot = role?;
    }
    Some(out)
}

/// The Chess960 start position `number` with full castling rights.
pub fn chess960_position(number: u16) -> Option<Chess> {
    let back = chess960_back_rank(number)?;
    let mut board = Board::empty();
    let mut castling_rights = Bitboard::EMPTY;
    for (file, role) in File::ALL.into_iter().zip(back) {
        for color in Color::ALL {
            let back_rank = color.fold_wb(Rank::First, Rank::Eighth);
            let pawn_rank = color.fold_wb(Rank::Second, Rank::Seventh);
            let sq = Square::from_coords(file, back_rank);
            board.set_piece_at(sq, Piece { color, role });
            board.set_piece_at(
                Square::from_coords(file, pawn_rank),
                Piece {
                    color,
                    role: Role::Pawn,
                },
            );
            if role == Role::Rook {
                castling_rights.add(sq);
            }
        }
    }
    let setup = Setup {
        board,
        castling_rights,
        ..Setup::default()
    };
    setup.position(CastlingMode::Chess960).ok()
}

/// The Chess960 number of a position's back ranks, if it is an untouched Chess960 start position.
#[cfg(test)]
pub(crate) fn chess960_number(pos: &Chess) -> Option<u16> {
    (0..CHESS960_POSITIONS)
        .find(|&n| chess960_position(n).is_some_and(|start| start.board() == pos.board()))
}

/// Sets up a position from FEN text, accepting X-FEN and Shredder-FEN castling for Chess960.
pub fn position_from_fen(fen: &str, variant: Variant) -> Result<Chess, FenProblem> {
    let parsed =
        Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| FenProblem::Syntax(e.into()))?;
    parsed
        .into_position(variant.castling_mode())
        .map_err(|e: PositionError<Chess>| {
            FenProblem::Impossible(
                PositionFault::ALL
                    .into_iter()
                    .filter(|f| e.kinds().contains(f.kind()))
                    .collect(),
            )
        })
}

/// Why a FEN could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenProblem {
    #[error("the FEN is not well formed: invalid {0}")]
    Syntax(FenPart),
    #[error("the FEN describes an impossible position: {}", list(.0))]
    Impossible(Vec<PositionFault>),
}

fn list(faults: &[PositionFault]) -> String {
    let words: Vec<String> = faults.iter().map(ToString::to_string).collect();
    if words.is_empty() {
        "not a legal position".into()
    } else {
        words.join(", ")
    }
}

/// The part of a FEN that is not well formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenPart {
    #[error("text")]
    Whole,
    #[error("board part")]
    Board,
    #[error("pocket")]
    Pocket,
    #[error("side to move")]
    Turn,
    #[error("castling part")]
    Castling,
    #[error("en passant square")]
    EnPassant,
    #[error("remaining checks")]
    RemainingChecks,
    #[error("halfmove clock")]
    HalfmoveClock,
    #[error("move number")]
    Fullmoves,
}

impl From<ParseFenError> for FenPart {
    fn from(e: ParseFenError) -> FenPart {
        match e {
            ParseFenError::InvalidFen => FenPart::Whole,
            ParseFenError::InvalidBoard => FenPart::Board,
            ParseFenError::InvalidPocket => FenPart::Pocket,
            ParseFenError::InvalidTurn => FenPart::Turn,
            ParseFenError::InvalidCastling => FenPart::Castling,
            ParseFenError::InvalidEpSquare => FenPart::EnPassant,
            ParseFenError::InvalidRemainingChecks => FenPart::RemainingChecks,
            ParseFenError::InvalidHalfmoveClock => FenPart::HalfmoveClock,
            ParseFenError::InvalidFullmoves => FenPart::Fullmoves,
        }
    }
}

/// What makes a position impossible, in the order the language tables name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionFault {
    #[error("the board is empty")]
    EmptyBoard,
    #[error("a king is missing")]
    MissingKing,
    #[error("too many kings")]
    TooManyKings,
    #[error("pawns on the first or last rank")]
    PawnsOnBackRank,
    #[error("castling rights without king and rook in place")]
    CastlingRights,
    #[error("an impossible en passant square")]
    EnPassantSquare,
    #[error("the side not to move is in check")]
    OppositeCheck,
    #[error("a check that no move can have given")]
    ImpossibleCheck,
    #[error("more pieces than a game can have")]
    TooMuchMaterial,
    #[error("not a position of this variant")]
    Variant,
}

impl PositionFault {
    pub(crate) const ALL: [PositionFault; 10] = [
        PositionFault::EmptyBoard,
        PositionFault::MissingKing,
        PositionFault::TooManyKings,
        PositionFault::PawnsOnBackRank,
        PositionFault::CastlingRights,
        PositionFault::EnPassantSquare,
        PositionFault::OppositeCheck,
        PositionFault::ImpossibleCheck,
        PositionFault::TooMuchMaterial,
        PositionFault::Variant,
    ];

    fn kind(self) -> PositionErrorKinds {
        match self {
            PositionFault::EmptyBoard => PositionErrorKinds::EMPTY_BOARD,
            PositionFault::MissingKing => PositionErrorKinds::MISSING_KING,
            PositionFault::TooManyKings => PositionErrorKinds::TOO_MANY_KINGS,
            PositionFault::PawnsOnBackRank => PositionErrorKinds::PAWNS_ON_BACKRANK,
            PositionFault::CastlingRights => PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            PositionFault::EnPassantSquare => PositionErrorKinds::INVALID_EP_SQUARE,
            PositionFault::OppositeCheck => PositionErrorKinds::OPPOSITE_CHECK,
            PositionFault::ImpossibleCheck => PositionErrorKinds::IMPOSSIBLE_CHECK,
            PositionFault::TooMuchMaterial => PositionErrorKinds::TOO_MUCH_MATERIAL,
            PositionFault::Variant => PositionErrorKinds::VARIANT,
        }
    }

    /// The index of its words in the language tables: the order of declaration, which is
    /// the order of [`PositionFault::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_faults_are_numbered_as_listed() {
        for (i, f) in PositionFault::ALL.into_iter().enumerate() {
            assert_eq!(f.index(), i, "{f:?}");
        }
    }
    use shakmaty::EnPassantMode;
    use shakmaty::fen::Fen;

    fn back_rank_letters(n: u16) -> String {
        chess960_back_rank(n)
            .expect("valid number")
            .iter()
            .map(|r| r.upper_char())
            .collect()
    }

    #[test]
    fn scharnagl_numbers_match_published_table() {
        // Values from the published Chess960 numbering scheme.
        assert_eq!(back_rank_letters(0), "BBQNNRKR");
        assert_eq!(back_rank_letters(518), "RNBQKBNR");
        assert_eq!(back_rank_letters(959), "RKRNNQBB");
        assert_eq!(back_rank_letters(1), "BQNBNRKR");
        assert!(chess960_back_rank(960).is_none());
    }

    #[test]
    fn every_start_position_is_distinct_and_legal() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..CHESS960_POSITIONS {
            let rank = back_rank_letters(n);
            assert!(seen.insert(rank.clone()), "{n} repeats {rank}");
            let king = rank.find('K').expect("king");
            let rooks: Vec<usize> = rank.match_indices('R').map(|(i, _)| i).collect();
            assert!(
                rooks[0] < king && king < rooks[1],
                "{n}: king between rooks"
            );
            let bishops: Vec<usize> = rank.match_indices('B').map(|(i, _)| i).collect();
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "{n}: bishops on both colours"
            );
            let pos = chess960_position(n).expect("legal position");
            // 16 pawn moves plus at least one move for each knight; no castling at the start.
            assert!(
                pos.legal_moves().len() >= 18,
                "{n}: {} moves",
                pos.legal_moves().len()
            );
        }
    }

    #[test]
    fn standard_number_gives_standard_start() {
        let pos = chess960_position(STANDARD_CHESS960_NUMBER).expect("518");
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        assert_eq!(
            fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(chess960_number(&pos), Some(518));
    }

    #[test]
    fn variant_tag_names() {
        for name in [
            "Chess960",
            "chess 960",
            "Fischerandom",
            "Fischer Random",
            "FRC",
            "chess960",
        ] {
            assert_eq!(
                Variant::from_pgn_tag(name),
                Some(Variant::Chess960),
                "{name}"
            );
        }
        for name in ["Standard", "From Position", "", "normal"] {
            assert_eq!(
                Variant::from_pgn_tag(name),
                Some(Variant::Standard),
                "{name}"
            );
        }
        assert_eq!(Variant::from_pgn_tag("Crazyhouse"), None);
    }
}
