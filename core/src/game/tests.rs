//! The game model against the Laws of Chess, article by article.

use std::time::Duration;

use shakmaty::{Color, Move, Position, Role, Square, uci::UciMove};

use crate::game::{ClaimVerdict, EventKind, Game, GameError, IllegalMoveVerdict};
use crate::laws::{ClaimKind, Rules};
use crate::outcome::{ClaimBasis, DeadReason, GameResult, Outcome, Termination};
use crate::variant::{Variant, position_from_fen};

fn game_from(fen: &str) -> Game {
    Game::from_position(
        position_from_fen(fen, Variant::Standard).expect("FEN"),
        Variant::Standard,
    )
}

fn play_all(game: &mut Game, sans: &str) {
    for san in sans.split_whitespace() {
        if san.ends_with('.') {
            continue;
        }
        game.play_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
    }
}

fn uci(game: &Game, text: &str) -> Move {
    text.parse::<UciMove>()
        .expect("uci")
        .to_move(game.position())
        .expect("legal")
}

/// The knight shuffle that brings back the start position every four plies.
const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8";

#[test]
fn art_5_1a_checkmate_ends_the_game() {
    let mut g = Game::default();
    play_all(&mut g, "1. f3 e5 2. g4 Qh4#");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Termination::Checkmate))
    );
    assert!(matches!(g.play_san("a3"), Err(GameError::GameOver(_))));
    assert!(g.legal_moves().is_empty());
}

#[test]
fn art_5_1b_resignation() {
    let mut g = Game::default();
    play_all(&mut g, "1. e4 e5");
    let o = g.resign(Color::White).expect("running");
    assert_eq!(o, Outcome::win(Color::Black, Termination::Resignation));
    assert!(
        g.resign(Color::Black).is_err(),
        "a finished game cannot be resigned again"
    );
}

#[test]
fn art_5_2a_stalemate() {
    // Sam Loyd's ten-move stalemate.
    let mut g = Game::default();
    play_all(
        &mut g,
        "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 \
         8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6",
    );
    assert_eq!(g.outcome(), Some(Outcome::draw(Termination::Stalemate)));
    assert_eq!(g.result(), Some(GameResult::Draw));
}

#[test]
fn art_5_2b_dead_position_after_a_capture() {
    let mut g = game_from("8/8/4k3/8/8/3KB3/4r3/8 w - - 0 60");
    let report = g.play_san("Kxe2").expect("legal");
    assert_eq!(
        report.outcome,
        Some(Outcome::draw(Termination::DeadPosition(
            DeadReason::InsufficientMaterial
        )))
    );
}

#[test]
fn art_9_1_draw_offer_recorded_declined_by_a_move_and_accepted() {
    let mut g = Game::default();
    play_all(&mut g, "1. e4");
    assert_eq!(g.offer_draw(Color::White), Ok(None));
    assert_eq!(g.pending_draw_offer(), Some(Color::White));
    // Black refuses by playing a move (9.1b1).
    let report = g.play_san("e5").expect("legal");
    assert_eq!(report.declined_offer, Some(Color::White));
    assert_eq!(g.pending_draw_offer(), None);
    assert_eq!(g.accept_draw(Color::Black), Err(GameError::NoDrawOffer));
    // The offer is recorded for the scoresheet (=).
    assert!(
        g.events()
            .iter()
            .any(|e| e.ply == 1 && e.kind == EventKind::DrawOffered(Color::White))
    );
    play_all(&mut g, "Nf3");
    g.offer_draw(Color::White).expect("offer");
    // White's own next move does not withdraw the offer: only Black can answer it.
    assert_eq!(
        g.accept_draw(Color::Black),
        Ok(Outcome::draw(Termination::Agreement))
    );
}

#[test]
fn art_9_1_offer_declined_aloud_and_crossing_offers_agree() {
    let mut g = Game::default();
    g.offer_draw(Color::Black).expect("offer");
    g.decline_draw(Color::White).expect("decline");
    assert_eq!(g.pending_draw_offer(), None);
    g.offer_draw(Color::White).expect("offer");
    assert_eq!(
        g.offer_draw(Color::Black),
        Ok(Some(Outcome::draw(Termination::Agreement)))
    );
}

#[test]
fn art_9_2b_threefold_claim_on_the_board() {
    let mut g = Game::default();
    play_all(&mut g, SHUFFLE);
    assert!(!g.claims().threefold);
    play_all(&mut g, SHUFFLE);
    assert_eq!(g.repetition_count(), 3);
    assert!(g.claims().threefold);
    let verdict = g
        .claim_draw(Color::White, ClaimKind::Threefold, None)
        .expect("claim");
    assert_eq!(
        verdict,
        ClaimVerdict::Correct(Outcome::draw(Termination::Threefold(
            ClaimBasis::OnTheBoard
        )))
    );
}

#[test]
fn art_9_2a_threefold_claim_with_the_intended_move() {
    let mut g = Game::default();
    play_all(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    // Black writes Ng8 and declares it: the start position would appear the third time.
    let m = uci(&g, "f6g8");
    let verdict = g
        .claim_draw(Color::Black, ClaimKind::Threefold, Some(m))
        .expect("claim");
    assert_eq!(
        verdict,
        ClaimVerdict::Correct(Outcome::draw(Termination::Threefold(
            ClaimBasis::IntendedMove
        )))
    );
    assert_eq!(
        g.ply(),
        7,
        "the intended move is not played when the claim is correct"
    );
}

#[test]
fn art_9_2_lost_castling_right_means_a_different_position() {
    let mut g = game_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for _ in 0..3 {
        play_all(&mut g, "Kf1 Kf8 Ke1 Ke8");
    }
    // The position after the first king walk has now appeared three times, the start only once.
    assert_eq!(g.repetition_count(), 3);
    let fresh = game_from("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert_eq!(g.position().board(), fresh.position().board());
    assert!(g.claims().threefold);
}

#[test]
fn art_9_5b_incorrect_claim_costs_two_minutes_and_the_game_goes_on() {
    let mut g = Game::default();
    play_all(&mut g, SHUFFLE);
    let verdict = g
        .claim_draw(Color::White, ClaimKind::Threefold, None)
        .expect("claim");
    let ClaimVerdict::Incorrect { penalty, played } = verdict else {
        panic!("the position has appeared only twice");
    };
    assert_eq!(penalty.beneficiary, Color::Black);
    assert_eq!(penalty.time, Duration::from_secs(120));
    assert_eq!(penalty.article, "9.5b");
    assert!(played.is_none());
    assert!(!g.is_over());
    // 9.1b4: the claim stands as a draw offer, which Black may accept.
    assert_eq!(g.pending_draw_offer(), Some(Color::White));
    assert_eq!(
        g.accept_draw(Color::Black),
        Ok(Outcome::draw(Termination::Agreement))
    );
}

#[test]
fn art_9_5b_incorrect_claim_on_an_intended_move_plays_the_move() {
    let mut g = Game::default().with_rules(Rules::BLITZ);
    let m = uci(&g, "g1f3");
    let verdict = g
        .claim_draw(Color::White, ClaimKind::FiftyMoves, Some(m))
        .expect("claim");
    let ClaimVerdict::Incorrect { penalty, played } = verdict else {
        panic!("no fifty moves yet");
    };
    assert_eq!(
        penalty.time,
        Duration::from_secs(60),
        "Appendix B2: one minute in blitz"
    );
    assert_eq!(played.map(|r| r.played.mv), Some(m));
    assert_eq!(g.ply(), 1);
}

#[test]
fn art_9_3_fifty_move_claims() {
    // 9.3b: the last 50 moves by each player without pawn move or capture.
    let mut g = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 100 90");
    assert!(g.claims().fifty_moves);
    assert_eq!(
        g.claim_draw(Color::White, ClaimKind::FiftyMoves, None),
        Ok(ClaimVerdict::Correct(Outcome::draw(
            Termination::FiftyMoves(ClaimBasis::OnTheBoard)
        )))
    );
    // 9.3a: the intended move completes the fifty moves.
    let mut g = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 99 90");
    assert!(!g.claims().fifty_moves);
    let m = uci(&g, "a1a2");
    assert_eq!(
        g.claim_draw(Color::White, ClaimKind::FiftyMoves, Some(m)),
        Ok(ClaimVerdict::Correct(Outcome::draw(
            Termination::FiftyMoves(ClaimBasis::IntendedMove)
        )))
    );
    // A pawn move as the intended move resets the count: the claim is wrong.
    let mut g = game_from("4k3/8/8/8/8/8/P7/4K3 w - - 99 90");
    let m = uci(&g, "a2a3");
    assert!(matches!(
        g.claim_draw(Color::White, ClaimKind::FiftyMoves, Some(m)),
        Ok(ClaimVerdict::Incorrect { .. })
    ));
}

#[test]
fn art_9_4_touching_a_piece_loses_the_right_to_claim() {
    let mut g = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 100 90");
    g.touch(Color::White, Square::A1).expect("touch");
    assert_eq!(g.touched(), Some((Color::White, Square::A1)));
    assert_eq!(
        g.claim_draw(Color::White, ClaimKind::FiftyMoves, None),
        Err(GameError::ClaimRightLost)
    );
    assert_eq!(
        g.claim_draw(Color::Black, ClaimKind::FiftyMoves, None),
        Err(GameError::NotYourTurn(Color::Black))
    );
}

#[test]
fn art_9_6a_fivefold_repetition_ends_the_game() {
    let mut g = Game::default();
    for _ in 0..3 {
        play_all(&mut g, SHUFFLE);
    }
    assert!(!g.is_over());
    play_all(&mut g, "Nf3 Nf6 Ng1");
    let report = g.play_san("Ng8").expect("legal");
    assert_eq!(report.outcome, Some(Outcome::draw(Termination::Fivefold)));
    assert_eq!(g.ply(), 16);
}

#[test]
fn art_9_6b_seventy_five_moves_and_a_mate_on_that_move_stands() {
    let mut g = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 149 120");
    let report = g.play_san("Ra2").expect("legal");
    assert_eq!(
        report.outcome,
        Some(Outcome::draw(Termination::SeventyFiveMoves))
    );

    let mut g = game_from("4k3/8/4K3/8/8/8/8/R7 w - - 149 120");
    let report = g.play_san("Ra8#").expect("legal");
    assert_eq!(
        report.outcome,
        Some(Outcome::win(Color::White, Termination::Checkmate))
    );
}

#[test]
fn art_6_9_flag_fall_loses_unless_the_opponent_cannot_mate() {
    let mut g = Game::default();
    play_all(&mut g, "1. e4 e5");
    assert_eq!(
        g.flag_fall(Color::White),
        Ok(Outcome::win(Color::Black, Termination::FlagFall))
    );

    // Black has a lone king: White's flag falls, but Black cannot mate.
    let mut g = game_from("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 50");
    assert_eq!(
        g.flag_fall(Color::White),
        Ok(Outcome::draw(Termination::FlagFall))
    );

    // A knight alone cannot mate a lone king either.
    let mut g = game_from("4k3/8/8/8/8/8/3n4/R3K3 b - - 0 50");
    assert_eq!(
        g.flag_fall(Color::Black),
        Ok(Outcome::win(Color::White, Termination::FlagFall))
    );
    let mut g = game_from("4k3/8/8/8/8/8/3n4/4K3 w - - 0 50");
    assert!(g.is_over(), "K+N against K is dead already");
    assert!(
        g.flag_fall(Color::White).is_err(),
        "6.9 does not apply to a finished game"
    );
}

#[test]
fn art_6_11_both_flags() {
    let mut g = Game::default();
    assert_eq!(g.both_flags_fell(false), Ok(None));
    assert!(!g.is_over());
    assert_eq!(
        g.both_flags_fell(true),
        Ok(Some(Outcome::draw(Termination::BothFlags)))
    );
}

#[test]
fn art_7_5_illegal_moves_penalty_then_loss() {
    let mut g = Game::default();
    play_all(&mut g, "1. e4");
    let first = g.illegal_move_completed(Color::Black).expect("running");
    let IllegalMoveVerdict::Penalty(p) = first else {
        panic!("first illegal move: penalty")
    };
    assert_eq!(
        (p.beneficiary, p.time, p.article),
        (Color::White, Duration::from_secs(120), "7.5b")
    );
    assert_eq!(g.ply(), 1, "the position before the illegal move stands");
    assert_eq!(
        g.illegal_move_completed(Color::Black),
        Ok(IllegalMoveVerdict::GameOver(Outcome::win(
            Color::White,
            Termination::IllegalMoves
        )))
    );
}

#[test]
fn art_7_5b_second_illegal_move_draws_when_the_opponent_cannot_mate() {
    let mut g = game_from("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 50").with_rules(Rules::BLITZ);
    let IllegalMoveVerdict::Penalty(p) = g.illegal_move_completed(Color::White).expect("running")
    else {
        panic!("penalty")
    };
    assert_eq!(p.time, Duration::from_secs(60), "B2");
    assert_eq!(
        g.illegal_move_completed(Color::White),
        Ok(IllegalMoveVerdict::GameOver(Outcome::draw(
            Termination::IllegalMoves
        )))
    );
}

#[test]
fn appendix_a4b_first_illegal_move_loses_without_supervision() {
    let mut g = Game::default().with_rules(Rules::UNSUPERVISED_RAPID);
    assert_eq!(
        g.illegal_move_completed(Color::White),
        Ok(IllegalMoveVerdict::GameOver(Outcome::win(
            Color::Black,
            Termination::IllegalMoves
        )))
    );
}

#[test]
fn art_7_5a_unpromoted_pawn_becomes_a_queen() {
    let mut g = game_from("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let bare = Move::Normal {
        role: Role::Pawn,
        from: Square::E7,
        capture: None,
        to: Square::E8,
        promotion: None,
    };
    let verdict = g.unpromoted_pawn(bare).expect("running");
    assert!(matches!(verdict, IllegalMoveVerdict::Penalty(_)));
    assert_eq!(g.position().board().role_at(Square::E8), Some(Role::Queen));
    assert_eq!(g.illegal_move_count(Color::White), 1);
}

#[test]
fn appendix_f_chess960_castling_lands_on_standard_squares() {
    // Kings on b1/b8 between rooks on a and h: short castling ends on g1 and f1 (F3),
    // long castling on c8 and d8.
    let pos = position_from_fen(
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
        Variant::Chess960,
    )
    .expect("FEN");
    let mut g = Game::from_position(pos, Variant::Chess960);
    assert!(g.play_san("O-O").is_ok());
    assert!(g.play_san("O-O-O").is_ok());
    let board = g.position().board();
    assert_eq!(board.role_at(Square::G1), Some(Role::King));
    assert_eq!(board.role_at(Square::F1), Some(Role::Rook));
    assert_eq!(board.role_at(Square::C8), Some(Role::King));
    assert_eq!(board.role_at(Square::D8), Some(Role::Rook));
    assert_eq!(g.moves()[0].san.to_string(), "O-O");
    // A numbered start position plays like any other.
    let mut g = Game::chess960(959).expect("position 959: RKRNNQBB");
    play_all(&mut g, "1. b3 b6 2. Ne3 Ne6");
    assert_eq!(g.ply(), 4);
}

#[test]
fn take_back_reopens_a_game_ended_by_that_move() {
    let mut g = Game::default();
    play_all(&mut g, "1. f3 e5 2. g4 Qh4#");
    assert!(g.is_over());
    g.take_back().expect("a move to take back");
    assert!(!g.is_over());
    assert_eq!(g.ply(), 3);
}
