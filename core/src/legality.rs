//! Finding the legal move a SAN names, and saying why when there is none.

use shakmaty::{
    Bitboard, CastlingSide, Chess, Move, MoveList, Piece, Position, Rank, Role, Square, attacks,
    san::{San, SanError, SanPlus},
};

/// Why a written move does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The text is not a move at all.
    NotAMove,
    /// A null move (`--`) is never a legal move.
    NullMove,
    /// The game had already ended before this move.
    GameOver,
    /// No piece of this kind (matching the disambiguation) can move to the square.
    NoPieceCanReach { role: Role, to: Square },
    /// The move would leave (or put) the mover's king in check.
    LeavesKingInCheck,
    /// The king is in check and the move does not answer it.
    IgnoresCheck,
    /// Several legal moves match; each candidate is given.
    Ambiguous(Vec<Move>),
    /// A pawn reaches the last rank but no piece was named (Appendix D2.1: it must be).
    PromotionMissing,
    /// A piece was named for a pawn move that does not reach the last rank.
    NotAPromotion,
    /// A pawn may not become a king or a pawn.
    BadPromotionPiece,
    /// Castling on that side is not possible, and why.
    Castling(CastlingSide, CastlingBlock),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingBlock {
    /// The king or that rook has moved (3.8b1).
    NoRight,
    /// A piece stands between the king and the rook or on a target square (3.8b2).
    PathBlocked,
    /// The king is in check (3.8b2).
    InCheck,
    /// The king would pass through or land on an attacked square (3.8b2).
    Attacked,
}

impl Illegal {
    /// An English reason, used in reports such as `hector check`.
    pub fn describe(&self) -> String {
        match self {
            Illegal::NotAMove => "not a move in algebraic notation".into(),
            Illegal::NullMove => "a null move is not a legal move".into(),
            Illegal::GameOver => "the game had already ended".into(),
            Illegal::NoPieceCanReach { role, to } => {
                format!("no {} can reach {to}", role_name(*role))
            }
            Illegal::LeavesKingInCheck => "the move would leave the king in check".into(),
            Illegal::IgnoresCheck => "the king is in check and the move does not answer it".into(),
            Illegal::Ambiguous(moves) => format!(
                "ambiguous: {}",
                moves
                    .iter()
                    .map(|m| format!(
                        "{}{}",
                        m.from().map_or(String::new(), |s| s.to_string()),
                        m.to()
                    ))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            Illegal::PromotionMissing => {
                "a pawn on the last rank must be promoted: name the piece".into()
            }
            Illegal::NotAPromotion => "only a pawn reaching the last rank is promoted".into(),
            Illegal::BadPromotionPiece => {
                "a pawn can become a queen, rook, bishop or knight only".into()
            }
            Illegal::Castling(side, block) => {
                let side = match side {
                    CastlingSide::KingSide => "short castling",
                    CastlingSide::QueenSide => "long castling",
                };
                let why = match block {
                    CastlingBlock::NoRight => "the king or the rook has already moved",
                    CastlingBlock::PathBlocked => "a piece stands in the way",
                    CastlingBlock::InCheck => "the king is in check",
                    CastlingBlock::Attacked => {
                        "the king would pass through or land on an attacked square"
                    }
                };
                format!("{side} is not possible: {why}")
            }
        }
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Resolves a SAN token from a record to a legal move, tolerant of a missing or superfluous
/// capture sign, `e.p.` suffixes and castling written with zeros. Fast on the common path.
pub fn resolve_record_san(pos: &Chess, token: &[u8]) -> Result<Move, Illegal> {
    let token = token.strip_suffix(b"e.p.").unwrap_or(token);
    // Castling written with zeros, as many files and people do.
    let token: &[u8] = if token.starts_with(b"0-0-0") {
        b"O-O-O"
    } else if token.starts_with(b"0-0") {
        b"O-O"
    } else {
        token
    };
    let san = match SanPlus::from_ascii(token) {
        Ok(s) => s.san,
        Err(_) => return Err(Illegal::NotAMove),
    };
    if let Some(m) = fast_normal(pos, san) {
        return Ok(m);
    }
    match san.to_move(pos) {
        Ok(m) => Ok(m),
        Err(SanError::AmbiguousSan) => Err(explain(pos, san)),
        Err(SanError::IllegalSan) => relaxed(pos, san).ok_or_else(|| explain(pos, san)),
    }
}

/// The one legal move a non-castling SAN names, found from attack sets without generating
/// move lists. `None` sends the caller to the complete (slower) path: en passant, castling,
/// ambiguity and every error are handled there.
fn fast_normal(pos: &Chess, san: San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return None;
    };
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let ours = board.by_color(us);
    if ours.contains(to) {
        return None;
    }
    let last_rank = role == Role::Pawn && to.rank() == us.fold_wb(Rank::Eighth, Rank::First);
    if last_rank != promotion.is_some() || matches!(promotion, Some(Role::King | Role::Pawn)) {
        return None;
    }
    let occupied = board.occupied();
    let mut movers = match role {
        Role::Pawn => {
            let pawns = ours & board.pawns();
            if board.by_color(them).contains(to) {
                // A pawn capture must name the file it comes from.
                if file.is_none_or(|f| f == to.file()) {
                    return None;
                }
                attacks::pawn_attacks(them, to) & pawns
            } else {
                if capture || file.is_some_and(|f| f != to.file()) {
                    return None; // en passant, or an error
                }
                let back = to.offset(us.fold_wb(-8, 8))?;
                if pawns.contains(back) {
                    Bitboard::from_square(back)
                } else if !occupied.contains(back)
                    && to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth)
                    && let Some(two) = back.offset(us.fold_wb(-8, 8))
                    && pawns.contains(two)
                {
                    Bitboard::from_square(two)
                } else {
                    Bitboard::EMPTY
                }
            }
        }
        Role::King => ours & board.kings() & attacks::king_attacks(to),
        _ => attacks::attacks(to, Piece { color: us, role }, occupied) & ours & board.by_role(role),
    };
    if let Some(f) = file {
        movers &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        movers &= Bitboard::from_rank(r);
    }
    let mut found = None;
    for from in movers {
        if is_safe(pos, role, from, to) {
            if found.is_some() {
                return None;
            }
            found = Some(from);
        }
    }
    Some(Move::Normal {
        role,
        from: found?,
        capture: board.role_at(to),
        to,
        promotion,
    })
}

/// Whether moving the mover's `role` from `from` to `to` (a normal move or capture, not en
/// passant or castling) leaves its own king unattacked, computed from attack sets.
fn is_safe(pos: &Chess, role: Role, from: Square, to: Square) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let occupied = board.occupied();
    if role == Role::King {
        return board
            .attacks_to(to, them, occupied.without(from))
            .is_empty();
    }
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let theirs = board.by_color(them);
    // Knights and pawns giving check now: the move is legal only if it captures them.
    let near_checkers = ((attacks::knight_attacks(king) & board.knights())
        | (attacks::pawn_attacks(us, king) & board.pawns()))
        & theirs;
    if near_checkers.without(to).any() {
        return false;
    }
    // Sliders on the king's lines, were the board empty: the only pieces a move can unmask.
    let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
        & theirs;
    let after = occupied.without(from).with(to);
    snipers
        .without(to)
        .into_iter()
        .all(|s| (attacks::between(king, s) & after).any())
}

/// The SAN of a legal move, with its check or mate suffix, and plays it. The same result as
/// shakmaty's `SanPlus::from_move_and_play_unchecked`, without generating every legal move
/// for each ply (only a checking move needs them, to tell check from mate).
pub(crate) fn san_plus_and_play(pos: &mut Chess, m: Move) -> SanPlus {
    let san = match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } if role != Role::Pawn && role != Role::King => {
            let board = pos.board();
            let rivals = (attacks::attacks(
                to,
                Piece {
                    color: pos.turn(),
                    role,
                },
                board.occupied(),
            ) & board.by_color(pos.turn())
                & board.by_role(role))
            .without(from);
            let rivals: Bitboard = rivals
                .into_iter()
                .filter(|&r| is_safe(pos, role, r, to))
                .collect();
            let (file, rank) = if rivals.is_empty() {
                (None, None)
            } else if (rivals & Bitboard::from_file(from.file())).is_empty() {
                (Some(from.file()), None)
            } else if (rivals & Bitboard::from_rank(from.rank())).is_empty() {
                (None, Some(from.rank()))
            } else {
                (Some(from.file()), Some(from.rank()))
            };
            San::Normal {
                role,
                file,
                rank,
                capture: capture.is_some(),
                to,
                promotion,
            }
        }
        _ => San::disambiguate(m, &MoveList::new()),
    };
    pos.play_unchecked(m);
    let suffix = if pos.is_check() {
        Some(if pos.legal_moves().is_empty() {
            shakmaty::san::Suffix::Checkmate
        } else {
            shakmaty::san::Suffix::Check
        })
    } else {
        None
    };
    SanPlus { san, suffix }
}

/// Accepts a move whose only fault is the capture mark, if exactly one legal move fits.
fn relaxed(pos: &Chess, san: San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        to,
        promotion,
        ..
    } = san
    else {
        return None;
    };
    let moves = matching(pos, role, file, rank, to);
    // A pawn capture must still name the file it comes from.
    let pawn_form_fits =
        |m: &&Move| role != Role::Pawn || m.is_capture() == file.is_some_and(|f| f != to.file());
    let mut fitting = moves
        .iter()
        .filter(|m| m.promotion() == promotion)
        .filter(pawn_form_fits);
    let first = fitting.next()?;
    fitting.next().is_none().then_some(*first)
}

/// Legal moves of `role` to `to` matching the disambiguation, capture mark and promotion aside.
fn matching(
    pos: &Chess,
    role: Role,
    file: Option<shakmaty::File>,
    rank: Option<Rank>,
    to: Square,
) -> MoveList {
    let mut moves = pos.san_candidates(role, to);
    moves.retain(|m| {
        m.from().is_some_and(|from| {
            file.is_none_or(|f| f == from.file()) && rank.is_none_or(|r| r == from.rank())
        })
    });
    moves
}

/// Why `san` does not name exactly one legal move in `pos`. Called only on the slow path.
pub(crate) fn explain(pos: &Chess, san: San) -> Illegal {
    match san {
        San::Null => Illegal::NullMove,
        San::Put { .. } => Illegal::NotAMove,
        San::Castle(side) => explain_castling(pos, side),
        San::Normal {
            role,
            file,
            rank,
            to,
            promotion,
            ..
        } => {
            if matches!(promotion, Some(Role::King | Role::Pawn)) {
                return Illegal::BadPromotionPiece;
            }
            let legal = matching(pos, role, file, rank, to);
            if !legal.is_empty() {
                let reaches_last_rank = role == Role::Pawn
                    && to.rank() == pos.turn().fold_wb(Rank::Eighth, Rank::First);
                if reaches_last_rank && promotion.is_none() {
                    return Illegal::PromotionMissing;
                }
                if !reaches_last_rank && promotion.is_some() {
                    return Illegal::NotAPromotion;
                }
                let fitting: Vec<Move> = legal
                    .iter()
                    .filter(|m| m.promotion() == promotion)
                    .copied()
                    .collect();
                if fitting.len() > 1 {
                    return Illegal::Ambiguous(fitting);
                }
                // One legal move fits apart from its capture mark: it was not taken on purpose.
                return Illegal::NotAMove;
            }
            let movers = geometric_movers(pos, role, to)
                & file.map_or(Bitboard::FULL, Bitboard::from_file)
                & rank.map_or(Bitboard::FULL, Bitboard::from_rank);
            if movers.is_empty() {
                Illegal::NoPieceCanReach { role, to }
            } else if pos.is_check() {
                Illegal::IgnoresCheck
            } else {
                Illegal::LeavesKingInCheck
            }
        }
    }
}

/// Squares of the mover's pieces of `role` that could move to `to` if pins and checks were
/// ignored (Articles 3.2–3.8 without 3.9).
pub(crate) fn geometric_movers(pos: &Chess, role: Role, to: Square) -> Bitboard {
    let board = pos.board();
    let us = pos.turn();
    if board.by_color(us).contains(to) {
        return Bitboard::EMPTY;
    }
    let ours = board.by_color(us) & board.by_role(role);
    let occupied = board.occupied();
    if role != Role::Pawn {
        // Piece attacks are symmetric: the same piece standing on `to` would attack the movers.
        return attacks::attacks(to, Piece { color: us, role }, occupied) & ours;
    }
    let mut movers = Bitboard::EMPTY;
    let enemy_or_ep = board.by_color(!us)
        | pos
            .maybe_ep_square()
            .map_or(Bitboard::EMPTY, Bitboard::from_square);
    if enemy_or_ep.contains(to) {
        movers |= attacks::pawn_attacks(!us, to) & ours;
    }
    if !occupied.contains(to) {
        let step: i32 = us.fold_wb(-8, 8);
        if let Some(one) = to.offset(step) {
            if ours.contains(one) {
                movers.add(one);
            } else if !occupied.contains(one)
                && to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth)
                && let Some(two) = one.offset(step)
                && ours.contains(two)
            {
                movers.add(two);
            }
        }
    }
    movers
}

pub(crate) fn explain_castling(pos: &Chess, side: CastlingSide) -> Illegal {
    let us = pos.turn();
    let castles = pos.castles();
    let (Some(rook), Some(king)) = (castles.rook(us, side), pos.board().king_of(us)) else {
        return Illegal::Castling(side, CastlingBlock::NoRight);
    };
    if pos.is_check() {
        return Illegal::Castling(side, CastlingBlock::InCheck);
    }
    let king_to = side.king_to(us);
    let rook_to = side.rook_to(us);
    let path = (attacks::between(king, king_to)
        | attacks::between(rook, rook_to)
        | Bitboard::from_square(king_to)
        | Bitboard::from_square(rook_to))
    .without(king)
    .without(rook);
    if (path & pos.board().occupied()).any() {
        return Illegal::Castling(side, CastlingBlock::PathBlocked);
    }
    Illegal::Castling(side, CastlingBlock::Attacked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Variant, position_from_fen};

    fn pos(fen: &str) -> Chess {
        position_from_fen(fen, Variant::Standard).expect("test FEN")
    }

    fn why(fen: &str, san: &str) -> Illegal {
        resolve_record_san(&pos(fen), san.as_bytes()).expect_err("illegal")
    }

    #[test]
    fn resolves_plain_and_tolerated_forms() {
        let start = Chess::default();
        assert!(resolve_record_san(&start, b"Nf3").is_ok());
        assert!(resolve_record_san(&start, b"e4").is_ok());
        // A capture written without x, and en passant with its suffix.
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert!(resolve_record_san(&p, b"exd6e.p.").is_ok());
        let p = pos("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1");
        assert!(resolve_record_san(&p, b"Rd5").is_ok());
        let castle = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(resolve_record_san(&castle, b"0-0").is_ok());
    }

    #[test]
    fn fast_path_agrees_with_the_complete_path() {
        use crate::testkit::games::Rng;
        let mut rng = Rng::new(11);
        for game in 0..60u16 {
            let mut pos = if game % 4 == 0 {
                crate::variant::chess960_position(game * 7 % 960).expect("960")
            } else {
                Chess::default()
            };
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let san = San::from_move(&pos, m);
                    assert_eq!(
                        resolve_record_san(&pos, san.to_string().as_bytes()),
                        Ok(m),
                        "{san}"
                    );
                    if let Some(fast) = fast_normal(&pos, san) {
                        assert_eq!(fast, m, "{san}");
                    }
                }
                // Every square and role, with and without capture marks: the fast path never
                // returns a move that is not legal.
                for to in Square::ALL {
                    for role in Role::ALL {
                        let san = San::Normal {
                            role,
                            file: None,
                            rank: None,
                            capture: false,
                            to,
                            promotion: None,
                        };
                        if let Some(m) = fast_normal(&pos, san) {
                            assert!(pos.is_legal(m), "{m:?}");
                        }
                    }
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn fast_san_equals_shakmaty() {
        use crate::testkit::games::Rng;
        let mut rng = Rng::new(21);
        for game in 0..120u16 {
            let mut pos = if game % 4 == 0 {
                crate::variant::chess960_position(game * 5 % 960).expect("960")
            } else {
                Chess::default()
            };
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let mut a = pos.clone();
                    let mut b = pos.clone();
                    assert_eq!(
                        san_plus_and_play(&mut a, m),
                        SanPlus::from_move_and_play_unchecked(&mut b, m)
                    );
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        // Positions full of rivals: three queens, pinned knights.
        for fen in [
            "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1",
            "4k3/4r3/8/8/2N1N3/8/4N3/4K3 w - - 0 1",
        ] {
            let pos: Chess =
                crate::variant::position_from_fen(fen, crate::variant::Variant::Standard)
                    .expect("fen");
            for &m in &pos.legal_moves() {
                let mut a = pos.clone();
                let mut b = pos.clone();
                assert_eq!(
                    san_plus_and_play(&mut a, m),
                    SanPlus::from_move_and_play_unchecked(&mut b, m)
                );
            }
        }
    }

    #[test]
    fn reasons() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            why(start, "Nf4"),
            Illegal::NoPieceCanReach {
                role: Role::Knight,
                to: Square::F4
            }
        );
        assert_eq!(
            why(start, "e5"),
            Illegal::NoPieceCanReach {
                role: Role::Pawn,
                to: Square::E5
            }
        );
        assert_eq!(
            why(start, "O-O"),
            Illegal::Castling(CastlingSide::KingSide, CastlingBlock::PathBlocked)
        );
        assert_eq!(why(start, "xyz"), Illegal::NotAMove);
        assert_eq!(why(start, "--"), Illegal::NullMove);
        // A pinned knight.
        let pinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
        assert_eq!(why(pinned, "Nc3"), Illegal::LeavesKingInCheck);
        // In check, a move elsewhere.
        let check = "4k3/4r3/8/8/8/8/8/R3K3 w Q - 0 1";
        assert_eq!(why(check, "Ra2"), Illegal::IgnoresCheck);
        assert_eq!(
            why(check, "O-O-O"),
            Illegal::Castling(CastlingSide::QueenSide, CastlingBlock::InCheck)
        );
        // Two knights can reach d7.
        let two = "4k3/8/8/2N1N3/8/8/8/4K3 w - - 0 1";
        assert!(matches!(why(two, "Nd7"), Illegal::Ambiguous(v) if v.len() == 2));
        let promo = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";
        assert_eq!(why(promo, "e8"), Illegal::PromotionMissing);
        assert_eq!(why(promo, "e8=K"), Illegal::BadPromotionPiece);
        let through = "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1";
        assert_eq!(
            why(through, "O-O"),
            Illegal::Castling(CastlingSide::KingSide, CastlingBlock::Attacked)
        );
        let moved = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
        assert_eq!(
            why(moved, "O-O"),
            Illegal::Castling(CastlingSide::KingSide, CastlingBlock::NoRight)
        );
    }
}
