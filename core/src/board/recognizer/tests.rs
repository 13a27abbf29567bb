//! Tests of move recognition on boards that identify pieces (DGT) and on occupancy-only peg
//! boards, event by event, and whole games replayed as sensor events in shuffled orders.

use std::time::Duration;

use proptest::prelude::*;
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square, fen::Fen,
    uci::UciMove,
};

use super::{DEFAULT_SETTLE, DEFAULT_SLIDE_PAUSE};
use crate::board::{
    Picture, PromotionError, Recognition, Recognizer, SensorEvent, SquareDiff, SquareState,
};
use crate::testkit::games::Rng;
use crate::time::Timestamp;
use crate::variant::chess960_position;

/// Time between two sensor events in these tests: well below every pause.
const STEP: u64 = 100;

fn fen(text: &str, mode: CastlingMode) -> Chess {
    Fen::from_ascii(text.as_bytes())
        .expect("test FEN is well formed")
        .into_position(mode)
        .expect("test FEN is legal")
}

fn std_fen(text: &str) -> Chess {
    fen(text, CastlingMode::Standard)
}

fn uci(pos: &Chess, text: &str) -> Move {
    UciMove::from_ascii(text.as_bytes())
        .expect("test UCI is well formed")
        .to_move(pos)
        .expect("test move is legal")
}

fn piece(c: char) -> Piece {
    Piece::from_char(c).expect("piece letter")
}

fn sq(name: &str) -> Square {
    Square::from_ascii(name.as_bytes()).expect("square name")
}

/// A recognizer and a virtual clock.
struct Bench {
    rec: Recognizer,
    now: u64,
    identifies: bool,
}

impl Bench {
    fn new(pos: Chess, mode: CastlingMode, identifies: bool) -> Bench {
        Bench {
            rec: Recognizer::new(pos, mode, identifies, DEFAULT_SETTLE),
            now: 0,
            identifies,
        }
    }

    fn dgt(pos: Chess) -> Bench {
        Bench::new(pos, CastlingMode::Standard, true)
    }

    fn peg(pos: Chess) -> Bench {
        Bench::new(pos, CastlingMode::Standard, false)
    }

    fn at(&self) -> Timestamp {
        Timestamp::from_millis(self.now)
    }

    fn event(&mut self, ev: SensorEvent) -> Vec<Recognition> {
        self.now += STEP;
        let at = self.at();
        self.rec.event(ev, at)
    }

    fn lift(&mut self, square: &str) -> Vec<Recognition> {
        self.event(SensorEvent::Lifted(sq(square)))
    }

    /// Places `letter` on a board that identifies pieces, an anonymous peg otherwise.
    fn place(&mut self, square: &str, letter: char) -> Vec<Recognition> {
        let p = self.identifies.then(|| piece(letter));
        self.event(SensorEvent::Placed(sq(square), p))
    }

    /// Plays a script of steps: `-e2` lifts from e2, `+e4P` places a white pawn on e4 (an
    /// anonymous peg on an occupancy-only board).
    fn steps(&mut self, script: &str) -> Vec<Recognition> {
        let mut out = Vec::new();
        for step in script.split_whitespace() {
            let (kind, rest) = step.split_at(1);
            out.extend(match kind {
                "-" => self.lift(rest),
                "+" => {
                    let (square, letter) = rest.split_at(2);
                    self.place(square, letter.chars().next().expect("piece letter"))
                }
                _ => panic!("bad step {step}"),
            });
        }
        out
    }

    /// Lets `ms` pass and ticks.
    fn wait(&mut self, ms: u64) -> Vec<Recognition> {
        self.now += ms;
        let at = self.at();
        self.rec.tick(at)
    }

    fn settle(&mut self) -> Vec<Recognition> {
        self.wait(DEFAULT_SETTLE.as_millis() as u64 + 1)
    }
}

fn moved(out: &[Recognition]) -> Vec<Move> {
    out.iter()
        .filter_map(|r| match r {
            Recognition::Moved(m) => Some(*m),
            _ => None,
        })
        .collect()
}

fn without_touches(out: Vec<Recognition>) -> Vec<Recognition> {
    out.into_iter()
        .filter(|r| !matches!(r, Recognition::Touched { .. }))
        .collect()
}

fn both_boards() -> [bool; 2] {
    [true, false]
}

#[test]
fn a_simple_move_on_both_kinds_of_board() {
    for identifies in both_boards() {
        let pos = Chess::default();
        let e4 = uci(&pos, "e2e4");
        let mut b = Bench::new(pos, CastlingMode::Standard, identifies);
        assert_eq!(
            b.lift("e2"),
            vec![Recognition::Touched {
                square: Square::E2,
                piece: piece('P')
            }]
        );
        assert_eq!(b.place("e4", 'P'), vec![Recognition::Moved(e4)]);
        assert_eq!(b.settle(), vec![]);
        assert_eq!(b.rec.next_deadline(), None);
    }
}

#[test]
fn dgt_reports_the_target_before_the_source() {
    let pos = Chess::default();
    let nf3 = uci(&pos, "g1f3");
    let mut b = Bench::dgt(pos);
    assert_eq!(b.place("f3", 'N'), vec![]);
    assert_eq!(without_touches(b.lift("g1")), vec![Recognition::Moved(nf3)]);
}

#[test]
fn a_piece_put_back_is_touched_but_not_moved() {
    for identifies in both_boards() {
        let mut b = Bench::new(Chess::default(), CastlingMode::Standard, identifies);
        assert_eq!(b.lift("g1").len(), 1);
        assert_eq!(b.place("g1", 'N'), vec![]);
        // Touched once per square and position: lifting it again is no news.
        assert_eq!(b.lift("g1"), vec![]);
        assert_eq!(b.place("g1", 'N'), vec![]);
        assert_eq!(b.settle(), vec![]);
        // Another piece is.
        assert_eq!(
            b.lift("b1"),
            vec![Recognition::Touched {
                square: Square::B1,
                piece: piece('N')
            }]
        );
    }
}

const CAPTURE: &str = "rnbqkbnr/pp1ppppp/8/8/2p5/1B2P3/PPPP1PPP/RNBQK1NR w KQkq - 0 1";

#[test]
fn captures_in_every_order() {
    let pos = std_fen(CAPTURE);
    let bxc4 = uci(&pos, "b3c4");
    for identifies in both_boards() {
        for script in [
            "-b3 -c4 +c4B",
            "-c4 -b3 +c4B",
            // A missed lift: the peg goes straight into the captured piece's square.
            "-b3 +c4B",
        ] {
            let mut b = Bench::new(pos.clone(), CastlingMode::Standard, identifies);
            let out = b.steps(script);
            assert_eq!(moved(&out), vec![bxc4], "{identifies} {script}");
            assert_eq!(out.last(), Some(&Recognition::Moved(bxc4)));
        }
    }
    // DGT: the capturing piece shows on c4 before b3 is reported empty.
    let mut b = Bench::dgt(pos.clone());
    assert_eq!(b.place("c4", 'B'), vec![]);
    assert_eq!(
        without_touches(b.lift("b3")),
        vec![Recognition::Moved(bxc4)]
    );
}

#[test]
fn a_capturing_piece_in_the_hand_is_no_capture() {
    let pos = std_fen(CAPTURE);
    let bxc4 = uci(&pos, "b3c4");
    let mut b = Bench::peg(pos);
    // The occupancy now equals the position after Bxc4, but no peg went into c4.
    assert_eq!(b.lift("b3").len(), 1);
    assert_eq!(
        b.settle(),
        vec![Recognition::Mismatch(vec![SquareDiff {
            square: Square::B3,
            expected: Some(piece('B')),
            found: SquareState::Empty
        }])]
    );
    // The captured pawn leaves; still no move.
    assert_eq!(b.lift("c4"), vec![]);
    assert_eq!(b.place("c4", 'B'), vec![Recognition::Moved(bxc4)]);
}

#[test]
fn a_snapshot_alone_cannot_complete_a_capture_on_an_occupancy_board() {
    let pos = std_fen(CAPTURE);
    let bxc4 = uci(&pos, "b3c4");
    let after = pos.clone().play(bxc4).expect("legal");
    let mut b = Bench::peg(pos.clone());
    assert!(
        moved(&b.event(SensorEvent::Snapshot(Picture::occupancy_of(after.board())))).is_empty()
    );
    // A board that names the pieces can.
    let mut b = Bench::dgt(pos);
    assert_eq!(
        b.event(SensorEvent::Snapshot(Picture::from_board(after.board()))),
        vec![Recognition::Moved(bxc4)]
    );
}

#[test]
fn en_passant_in_every_order() {
    let pos = std_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    let exd6 = uci(&pos, "e5d6");
    assert!(exd6.is_en_passant());
    for identifies in both_boards() {
        for script in [
            "-e5 +d6P -d5",
            "-d5 -e5 +d6P",
            "-e5 -d5 +d6P",
            "+d6P -d5 -e5",
        ] {
            let mut b = Bench::new(pos.clone(), CastlingMode::Standard, identifies);
            let mut out = b.steps(script);
            out.extend(b.settle());
            assert_eq!(moved(&out), vec![exd6], "{identifies} {script}");
        }
    }
}

const CASTLING: &str = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1";

#[test]
fn castling_with_king_or_rook_first() {
    let pos = std_fen(CASTLING);
    let short = uci(&pos, "e1g1");
    let long = uci(&pos, "e1c1");
    assert!(short.is_castle() && long.is_castle());
    for identifies in both_boards() {
        for (castle, script) in [
            (short, "-e1 +g1K -h1 +f1R"),
            (short, "-h1 +f1R -e1 +g1K"),
            (short, "-e1 -h1 +f1R +g1K"),
            (long, "-e1 +c1K -a1 +d1R"),
            (long, "-a1 +d1R -e1 +c1K"),
        ] {
            let mut b = Bench::new(pos.clone(), CastlingMode::Standard, identifies);
            let out = b.steps(script);
            assert_eq!(moved(&out), vec![castle], "{identifies} {script}");
            assert!(b.settle().is_empty());
        }
    }
}

#[test]
fn a_rook_move_that_could_start_castling_waits_for_the_settle_pause() {
    let pos = std_fen(CASTLING);
    let rf1 = uci(&pos, "h1f1");
    for identifies in both_boards() {
        let mut b = Bench::new(pos.clone(), CastlingMode::Standard, identifies);
        b.lift("h1");
        assert_eq!(b.place("f1", 'R'), vec![]);
        let due = b.rec.next_deadline().expect("a pending rook move");
        assert_eq!(due, b.at() + DEFAULT_SETTLE);
        assert_eq!(b.wait(1000), vec![]);
        assert_eq!(b.wait(600), vec![Recognition::Moved(rf1)]);
    }
}

#[test]
fn chess960_castling_variants() {
    let mode = CastlingMode::Chess960;
    // (FEN, castling move as king-to-rook UCI, steps)
    let cases = [
        // The king stays on g1; only the rook moves.
        (
            "rnbq2kr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ2KR w KQkq - 0 1",
            "g1h1",
            "-h1 +f1R",
        ),
        // The rook stays on f1; only the king moves, over it.
        (
            "rnbqkr2/pppppppp/8/8/8/8/PPPPPPPP/RNBQKR2 w KQkq - 0 1",
            "e1f1",
            "-e1 +g1K",
        ),
        // The king lands on the rook's square, rook first.
        (
            "rnbqk1r1/pppppppp/8/8/8/8/PPPPPPPP/RNBQK1R1 w KQkq - 0 1",
            "e1g1",
            "-g1 +f1R -e1 +g1K",
        ),
        // The same, king first.
        (
            "rnbqk1r1/pppppppp/8/8/8/8/PPPPPPPP/RNBQK1R1 w KQkq - 0 1",
            "e1g1",
            "-e1 -g1 +g1K +f1R",
        ),
        // King and rook swap squares, king first.
        (
            "rnbq1kr1/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KR1 w KQkq - 0 1",
            "f1g1",
            "-f1 -g1 +g1K +f1R",
        ),
        // The rook lands where the king stood, king first.
        (
            "rr1k2nq/pppppppp/8/8/8/8/PPPPPPPP/RR1K2NQ w Bb - 0 1",
            "d1b1",
            "-d1 -b1 +c1K +d1R",
        ),
        // Long castling, the king moving one square first.
        (
            "rk2rnbq/pppppppp/8/8/8/8/PPPPPPPP/RK2RNBQ w KQkq - 0 1",
            "b1a1",
            "-b1 +c1K -a1 +d1R",
        ),
    ];
    for identifies in both_boards() {
        for (text, castle, script) in cases {
            let pos = fen(text, mode);
            let castle = uci(&pos, castle);
            assert!(castle.is_castle(), "{text}");
            let mut b = Bench::new(pos.clone(), mode, identifies);
            let mut out = b.steps(script);
            out.extend(b.settle());
            assert_eq!(moved(&out), vec![castle], "{identifies} {text} {script}");
            let after = pos.play(castle).expect("legal");
            assert_eq!(b.rec.expected().board(), after.board());
        }
    }
}

#[test]
fn chess960_rook_lifted_first_is_no_castling_without_piece_identification() {
    let mode = CastlingMode::Chess960;
    // Occupancy-only: where castling and another reading give the same picture, lifting the
    // rook first decides against castling (Article 4.4).
    let swap = fen(
        "rnbq1kr1/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KR1 w KQkq - 0 1",
        mode,
    );
    let mut b = Bench::new(swap.clone(), mode, false);
    let mut out = b.steps("-g1 -f1 +g1K +f1R");
    out.extend(b.settle());
    assert!(moved(&out).is_empty(), "both put back: {out:?}");
    let onto_king = fen("rr1k2nq/pppppppp/8/8/8/8/PPPPPPPP/RR1K2NQ w Bb - 0 1", mode);
    let mut b = Bench::new(onto_king.clone(), mode, false);
    let mut out = b.steps("-b1 -d1 +c1K +d1R");
    out.extend(b.settle());
    assert_eq!(
        moved(&out),
        vec![uci(&onto_king, "b1c1")],
        "the rook to c1, the king put back"
    );
    // A board that names pieces sees castling whatever the order.
    for (pos, castle, script) in [
        (swap, "f1g1", "-g1 -f1 +g1K +f1R"),
        (onto_king, "d1b1", "-b1 -d1 +c1K +d1R"),
    ] {
        let mut b = Bench::new(pos.clone(), mode, true);
        assert_eq!(moved(&b.steps(script)), vec![uci(&pos, castle)]);
    }
}

const PROMOTION: &str = "3q3k/4P3/8/8/8/8/6PP/7K w - - 0 1";

#[test]
fn promotion_on_a_board_that_names_the_piece() {
    let pos = std_fen(PROMOTION);
    for (letter, role) in [('Q', Role::Queen), ('N', Role::Knight)] {
        let mut b = Bench::dgt(pos.clone());
        b.lift("e7");
        let out = b.place("e8", letter);
        assert_eq!(
            moved(&out),
            vec![uci(&pos, &format!("e7e8{}", role.char()))]
        );
    }
    // The pawn set on the last rank first, then exchanged for a queen.
    let mut b = Bench::dgt(pos.clone());
    b.lift("e7");
    assert_eq!(b.place("e8", 'P'), vec![]);
    assert_eq!(b.lift("e8"), vec![]);
    assert_eq!(
        b.place("e8", 'Q'),
        vec![Recognition::Moved(uci(&pos, "e7e8q"))]
    );
    // Capturing on d8 while promoting.
    let mut b = Bench::dgt(pos.clone());
    b.place("d8", 'R');
    let out = b.lift("e7");
    assert_eq!(moved(&out), vec![uci(&pos, "e7d8r")]);
}

#[test]
fn promotion_on_an_occupancy_board_asks_for_the_piece() {
    let pos = std_fen(PROMOTION);
    let mut b = Bench::peg(pos.clone());
    assert_eq!(
        b.rec.choose_promotion(Role::Queen),
        Err(PromotionError::NotAsked)
    );
    b.lift("e7");
    assert_eq!(
        b.place("e8", 'x'),
        vec![Recognition::PromotionChoiceNeeded {
            from: Square::E7,
            to: Square::E8
        }]
    );
    // Asked once; the board waiting for the answer is no mismatch.
    assert_eq!(b.settle(), vec![]);
    assert_eq!(
        b.rec.choose_promotion(Role::King),
        Err(PromotionError::NotAllowed(Role::King))
    );
    assert_eq!(
        b.rec.choose_promotion(Role::Pawn),
        Err(PromotionError::NotAllowed(Role::Pawn))
    );
    assert_eq!(
        b.rec.choose_promotion(Role::Knight),
        Ok(vec![Recognition::Moved(uci(&pos, "e7e8n"))])
    );
    assert_eq!(
        b.rec.expected().board().piece_at(Square::E8),
        Some(piece('N'))
    );
    // Capturing while promoting: the captured queen leaves d8, a peg goes in.
    let mut b = Bench::peg(pos.clone());
    b.lift("e7");
    b.lift("d8");
    assert_eq!(
        b.place("d8", 'x'),
        vec![Recognition::PromotionChoiceNeeded {
            from: Square::E7,
            to: Square::D8
        }]
    );
    assert_eq!(
        b.rec.choose_promotion(Role::Queen),
        Ok(vec![Recognition::Moved(uci(&pos, "e7d8q"))])
    );
}

#[test]
fn a_sliding_piece_is_taken_where_it_stops() {
    let pos = std_fen("rnbqkbnr/pppp1ppp/8/4p3/8/3P4/PPP1PPPP/RNBQKBNR w KQkq - 0 2");
    let bf4 = uci(&pos, "c1f4");
    let mut b = Bench::dgt(pos.clone());
    let mut out = Vec::new();
    out.extend(b.lift("c1"));
    for square in ["d2", "e3"] {
        // The bishop passes: the board briefly shows Bd2, Be3, each a legal move.
        out.extend(b.place(square, 'B'));
        assert!(b.rec.next_deadline().is_some());
        out.extend(b.lift(square));
    }
    out.extend(b.place("f4", 'B'));
    assert!(moved(&out).is_empty(), "{out:?}");
    out.extend(b.wait(DEFAULT_SLIDE_PAUSE.as_millis() as u64));
    assert_eq!(moved(&out), vec![bf4]);

    // Where the piece could not go further, the move is taken at once.
    let mut b = Bench::dgt(pos.clone());
    b.lift("c1");
    let out = b.place("h6", 'B');
    assert_eq!(moved(&out), vec![uci(&pos, "c1h6")]);
    // A knight never slides.
    let mut b = Bench::dgt(pos.clone());
    b.lift("b1");
    assert_eq!(moved(&b.place("c3", 'N')), vec![uci(&pos, "b1c3")]);
    // A pawn's single step might be half a double step.
    let mut b = Bench::dgt(pos.clone());
    b.lift("e2");
    assert!(b.place("e3", 'P').is_empty());
    assert_eq!(
        b.wait(DEFAULT_SLIDE_PAUSE.as_millis() as u64),
        vec![Recognition::Moved(uci(&pos, "e2e3"))]
    );
    // On a peg board a peg in a new hole completes the move (D2.3).
    let mut b = Bench::peg(pos.clone());
    b.lift("c1");
    assert_eq!(moved(&b.place("d2", 'B')), vec![uci(&pos, "c1d2")]);
}

#[test]
fn mismatch_after_settling_then_matches() {
    let pos = Chess::default();
    for identifies in both_boards() {
        let mut b = Bench::new(pos.clone(), CastlingMode::Standard, identifies);
        b.lift("e2");
        // No legal move: the pawn went too far.
        b.place("e5", 'P');
        // Not before the board has been quiet for the settle pause.
        let deadline = b.rec.next_deadline().expect("mismatch pending");
        assert_eq!(deadline, b.at() + DEFAULT_SETTLE);
        assert_eq!(b.wait(1400), vec![]);
        let found = if identifies {
            SquareState::Occupied(Some(piece('P')))
        } else {
            SquareState::Occupied(None)
        };
        assert_eq!(
            b.wait(100),
            vec![Recognition::Mismatch(vec![
                SquareDiff {
                    square: Square::E2,
                    expected: Some(piece('P')),
                    found: SquareState::Empty
                },
                SquareDiff {
                    square: Square::E5,
                    expected: None,
                    found
                },
            ])]
        );
        // Reported once.
        assert_eq!(b.rec.next_deadline(), None);
        assert_eq!(b.settle(), vec![]);
        // A different wrong picture is reported again after settling.
        b.lift("e5");
        assert_eq!(b.settle().len(), 1);
        assert_eq!(b.place("e2", 'P'), vec![Recognition::Matches]);
        // A reading without the piece's name fits the pawn there.
        assert_eq!(b.event(SensorEvent::Placed(Square::E2, None)), vec![]);
        assert_eq!(b.rec.next_deadline(), None);
    }
}

#[test]
fn matches_is_reported_when_a_mismatch_is_put_right() {
    let mut b = Bench::peg(Chess::default());
    b.lift("d7");
    assert_eq!(b.settle().len(), 1);
    assert_eq!(b.place("d7", 'p'), vec![Recognition::Matches]);
    // Back in agreement: nothing more.
    assert_eq!(b.settle(), vec![]);
}

#[test]
fn heartbeat_snapshots_do_not_delay_settling() {
    let mut b = Bench::peg(Chess::default());
    b.lift("a2");
    let same = *b.rec.picture();
    for _ in 0..20 {
        assert_eq!(b.event(SensorEvent::Snapshot(same)), vec![]);
    }
    // 20 × 100 ms of unchanged snapshots after the lift: settled.
    assert!(b.rec.next_deadline().is_some_and(|d| d <= b.at()));
    assert!(matches!(&b.wait(0)[..], [Recognition::Mismatch(_)]));
}

#[test]
fn opponent_move_from_elsewhere_is_guided_until_carried_out() {
    // White captured on c4 elsewhere; the blind player (black) carries it out on his board.
    let before = std_fen("rnbqkbnr/pp1ppppp/8/8/2p5/1B2P3/PPPP1PPP/RNBQK1NR w KQkq - 0 1");
    let after = before.clone().play(uci(&before, "b3c4")).expect("legal");
    for identifies in both_boards() {
        let mut b = Bench::new(before.clone(), CastlingMode::Standard, identifies);
        assert_eq!(
            b.rec.expect_position(after.clone(), Some(before.clone())),
            vec![]
        );
        // Nothing touched yet: no deadline, no mismatch however long the player listens.
        assert_eq!(b.rec.next_deadline(), None);
        assert_eq!(b.settle(), vec![]);
        // He lifts the white bishop; no touch (it is not his move yet), no match either:
        // the black pawn still stands on c4.
        assert_eq!(b.lift("b3"), vec![]);
        assert_eq!(b.settle().len(), 1);
        assert_eq!(b.lift("c4"), vec![]);
        assert_eq!(b.place("c4", 'B'), vec![Recognition::Matches]);
        // From now on his own pieces count as touched.
        assert_eq!(
            b.lift("d7"),
            vec![Recognition::Touched {
                square: Square::D7,
                piece: piece('p')
            }]
        );
    }
}

#[test]
fn expect_position_reports_matches_when_the_board_already_shows_it() {
    let start = Chess::default();
    let after = start.clone().play(uci(&start, "e2e4")).expect("legal");
    let mut b = Bench::peg(start.clone());
    b.lift("e2");
    assert!(moved(&b.place("e4", 'P')).len() == 1);
    // The game engine then confirms the same position.
    assert_eq!(
        b.rec.expect_position(after, Some(start)),
        vec![Recognition::Matches]
    );
}

#[test]
fn take_back_is_reported_not_applied() {
    for identifies in both_boards() {
        let start = Chess::default();
        let mut b = Bench::new(start.clone(), CastlingMode::Standard, identifies);
        b.lift("e2");
        let e4 = moved(&b.place("e4", 'P'));
        assert_eq!(e4.len(), 1);
        assert_eq!(b.lift("e4"), vec![]);
        assert_eq!(b.place("e2", 'P'), vec![Recognition::TakeBack]);
        assert_eq!(b.settle(), vec![]);
        assert_eq!(
            b.rec.expected().turn(),
            Color::Black,
            "the move stays played"
        );
        b.lift("e2");
        assert_eq!(b.place("e4", 'P'), vec![Recognition::Matches]);
    }
}

#[test]
fn the_opponents_piece_taken_off_is_not_touched() {
    let mut b = Bench::peg(std_fen(CAPTURE));
    assert_eq!(b.lift("c4"), vec![]);
}

#[test]
fn a_board_showing_something_else_from_the_start_is_reported() {
    let mut b = Bench::dgt(Chess::default());
    let mut picture = Picture::from_board(Chess::default().board());
    picture.set(Square::D1, SquareState::Empty);
    picture.set(Square::D4, SquareState::Occupied(Some(piece('Q'))));
    assert_eq!(b.event(SensorEvent::Snapshot(picture)), vec![]);
    let out = b.settle();
    assert!(
        matches!(&out[..], [Recognition::Mismatch(d)] if d.len() == 2),
        "{out:?}"
    );
}

#[test]
fn from_dgt_bytes_to_moves() {
    use crate::board::dgt::{DgtBoard, DgtCommand};
    let mut board = DgtBoard::new();
    assert_eq!(
        board.connect(),
        vec![DgtCommand::SendBoard, DgtCommand::SendUpdateBoard]
    );
    let mut rec = Recognizer::new(
        Chess::default(),
        CastlingMode::Standard,
        true,
        DEFAULT_SETTLE,
    );
    // The spec's worked example: the start position, then e2 empty and a white pawn on e4,
    // here with the update of e4 first.
    let mut bytes = vec![
        0x86, 0x00, 0x43, 0x08, 0x09, 0x0a, 0x0c, 0x0b, 0x0a, 0x09, 0x08,
    ];
    bytes.extend_from_slice(&[0x07; 8]);
    bytes.extend_from_slice(&[0x00; 32]);
    bytes.extend_from_slice(&[0x01; 8]);
    bytes.extend_from_slice(&[0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02]);
    bytes.extend_from_slice(&[0x8e, 0x00, 0x05, 0x24, 0x01, 0x8e, 0x00, 0x05, 0x34, 0x00]);
    let mut out = Vec::new();
    for (i, chunk) in bytes.chunks(7).enumerate() {
        for ev in board.push(chunk).events {
            out.extend(rec.event(ev, Timestamp::from_millis(i as u64 * 10)));
        }
    }
    assert_eq!(moved(&out), vec![uci(&Chess::default(), "e2e4")]);
}

#[test]
fn from_peg_lines_to_moves() {
    use crate::board::peg::{PegDecoder, with_checksum};
    let start = Chess::default();
    let mut decoder = PegDecoder::new();
    let mut rec = Recognizer::new(start.clone(), CastlingMode::Standard, false, DEFAULT_SETTLE);
    let session = format!(
        "V hector-peg 1 test\nS {}\n{}\nL e2*00\n{}\nB done\n",
        Picture::occupancy_of(start.board()).to_rows(),
        with_checksum("L g1"),
        with_checksum("P f3"),
    );
    let mut out = Vec::new();
    for (i, message) in decoder.push(session.as_bytes()).into_iter().enumerate() {
        if let Some(ev) = message.sensor_event() {
            out.extend(rec.event(ev, Timestamp::from_millis(i as u64 * 100)));
        }
    }
    // The line with the wrong checksum was dropped.
    assert_eq!(decoder.bad_lines(), 1);
    assert_eq!(
        out,
        vec![
            Recognition::Touched {
                square: Square::G1,
                piece: piece('N')
            },
            Recognition::Moved(uci(&start, "g1f3")),
        ]
    );
}

#[test]
fn illegal_moves_are_never_taken() {
    // The knight on c3 is pinned by the bishop on b4 against the king on e1.
    let pinned = "rnbqk1nr/pppp1ppp/8/4p3/1b2P3/2NP4/PPP2PPP/R1BQKBNR w KQkq - 1 3";
    // The rook on d8 holds the d-file.
    let rook = "3rk3/8/8/8/8/8/8/4K3 w - - 0 1";
    for identifies in both_boards() {
        for (text, script) in [
            (pinned, "-c3 +d5N"),
            (pinned, "-g1 +g3N"),
            (pinned, "-e1 +e3K"),
            (rook, "-e1 +d2K"),
            (rook, "-e1 +d1K"),
        ] {
            let mut b = Bench::new(std_fen(text), CastlingMode::Standard, identifies);
            let mut out = b.steps(script);
            out.extend(b.settle());
            assert!(moved(&out).is_empty(), "{identifies} {script}: {out:?}");
            assert!(
                matches!(out.last(), Some(Recognition::Mismatch(_))),
                "{identifies} {script}: {out:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Whole games as sensor events.

/// A step of a physical move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Lift(Square),
    Place(Square),
}

/// Realistic sensor events for `m` from `before`, in a random order a board could report:
/// on a peg board a peg goes in only after its piece was lifted and its hole emptied; a DGT
/// board may report the fields of one move in any order and a capture as one replacement.
fn physical_events(before: &Chess, m: Move, identifies: bool, rng: &mut Rng) -> Vec<SensorEvent> {
    let b = before.board();
    let after = before.clone().play(m).expect("legal move");
    let a = after.board();
    let turn = before.turn();
    let movers: Vec<(Square, Square)> = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => vec![(from, to)],
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            [(king, side.king_to(turn)), (rook, side.rook_to(turn))]
                .into_iter()
                .filter(|(from, to)| from != to)
                .collect()
        }
        Move::Put { .. } => vec![],
    };
    let vacate: Vec<Square> = Square::ALL
        .into_iter()
        .filter(|&s| b.piece_at(s).is_some() && b.piece_at(s) != a.piece_at(s))
        .collect();
    let fill: Vec<Square> = Square::ALL
        .into_iter()
        .filter(|&s| a.piece_at(s).is_some() && a.piece_at(s) != b.piece_at(s))
        .collect();
    let mut steps: Vec<Step> = vacate
        .iter()
        .copied()
        // DGT reports a capture as the new piece on the square, without the removal.
        .filter(|s| !(identifies && fill.contains(s) && rng.below(2) == 0))
        .map(Step::Lift)
        .collect();
    steps.extend(fill.iter().copied().map(Step::Place));
    // What must have happened before a step. Where castling king and rook land on each
    // other's squares an occupancy-only board reads castling only with the king lifted first.
    let overlapping = match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            let (kt, rt) = (side.king_to(turn), side.rook_to(turn));
            kt == rook || rt == king
        }
        _ => false,
    };
    let swap = overlapping && !identifies;
    let needs = |step: Step| -> Vec<Step> {
        let mut needs = Vec::new();
        if let Step::Place(s) = step {
            needs.push(Step::Lift(s));
            if !identifies {
                needs.extend(
                    movers
                        .iter()
                        .filter(|(_, to)| *to == s)
                        .map(|(from, _)| Step::Lift(*from)),
                );
            }
        }
        if let (Step::Lift(s), Move::Castle { king, rook }) = (step, m)
            && swap
            && s == rook
        {
            needs.push(Step::Lift(king));
        }
        needs
    };
    let mut done: Vec<Step> = Vec::new();
    while !steps.is_empty() {
        let ready: Vec<usize> = (0..steps.len())
            .filter(|&i| {
                needs(steps[i])
                    .iter()
                    // A needed step never scheduled (a lift DGT folds into a replacement, or
                    // of a square that was empty) is no obstacle.
                    .all(|n| !steps.contains(n))
            })
            .collect();
        let pick = ready[rng.below(ready.len())];
        done.push(steps.remove(pick));
    }
    done.into_iter()
        .map(|step| match step {
            Step::Lift(s) => SensorEvent::Lifted(s),
            Step::Place(s) => SensorEvent::Placed(s, identifies.then(|| a.piece_at(s)).flatten()),
        })
        .collect()
}

/// Plays `plies` random legal moves as sensor events and checks that each is recognized.
fn replay_game(start: Chess, mode: CastlingMode, identifies: bool, seed: u64, plies: usize) {
    let mut rng = Rng::new(seed);
    let mut rec = Recognizer::new(start.clone(), mode, identifies, DEFAULT_SETTLE);
    let mut pos = start;
    let mut now = 0u64;
    for ply in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer the interesting moves now and then.
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion() || m.is_capture())
            .collect();
        let m = if !special.is_empty() && rng.below(2) == 0 {
            special[rng.below(special.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        let mut out = Vec::new();
        for ev in physical_events(&pos, m, identifies, &mut rng) {
            now += 50 + rng.below(200) as u64;
            let at = Timestamp::from_millis(now);
            out.extend(rec.event(ev, at));
            out.extend(rec.tick(at));
        }
        now += DEFAULT_SETTLE.as_millis() as u64 + 1;
        out.extend(rec.tick(Timestamp::from_millis(now)));
        if let Some(Recognition::PromotionChoiceNeeded { .. }) = out.last() {
            let role = m.promotion().expect("asked for a promotion");
            out.extend(
                rec.choose_promotion(role)
                    .expect("promotion choice accepted"),
            );
        }
        let problems: Vec<&Recognition> = out
            .iter()
            .filter(|r| {
                matches!(
                    r,
                    Recognition::Mismatch(_) | Recognition::TakeBack | Recognition::Matches
                )
            })
            .collect();
        assert!(
            problems.is_empty(),
            "seed {seed} ply {ply} {m:?}: {problems:?}"
        );
        assert_eq!(moved(&out), vec![m], "seed {seed} ply {ply}: {out:?}");
        pos.play_unchecked(m);
        assert_eq!(rec.expected(), &pos);
    }
}

#[test]
fn whole_games_are_recognized_on_both_kinds_of_board() {
    for seed in 1..=12 {
        for identifies in both_boards() {
            replay_game(
                Chess::default(),
                CastlingMode::Standard,
                identifies,
                seed,
                160,
            );
        }
    }
}

#[test]
fn whole_chess960_games_are_recognized_on_both_kinds_of_board() {
    for seed in 1..=24 {
        let number = (seed * 97 % 960) as u16;
        let start = chess960_position(number).expect("valid number");
        for identifies in both_boards() {
            replay_game(start.clone(), CastlingMode::Chess960, identifies, seed, 120);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Arbitrary input.

#[derive(Clone, Debug)]
enum Input {
    Lift(u8),
    Place(u8, Option<char>),
    Snapshot(Vec<char>),
    Wait(u16),
    Promote(u8),
    Expect,
}

fn any_input() -> impl Strategy<Value = Input> {
    let letter = prop::sample::select("KQRBNPkqrbnp".chars().collect::<Vec<_>>());
    let state = prop::sample::select("KQRBNPkqrbnpx.".chars().collect::<Vec<_>>());
    prop_oneof![
        4 => (0u8..64).prop_map(Input::Lift),
        4 => (0u8..64, proptest::option::of(letter)).prop_map(|(s, l)| Input::Place(s, l)),
        1 => proptest::collection::vec(state, 64).prop_map(Input::Snapshot),
        2 => any::<u16>().prop_map(Input::Wait),
        1 => (0u8..6).prop_map(Input::Promote),
        1 => Just(Input::Expect),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_events_never_panic_and_moves_are_legal(
        seed in any::<u64>(),
        plies in 0usize..40,
        chess960 in any::<bool>(),
        identifies in any::<bool>(),
        inputs in proptest::collection::vec(any_input(), 0..80),
    ) {
        let mut rng = Rng::new(seed);
        let (mut pos, mode) = if chess960 {
            let start = chess960_position((seed % 960) as u16).expect("valid number");
            (start, CastlingMode::Chess960)
        } else {
            (Chess::default(), CastlingMode::Standard)
        };
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        let mut rec = Recognizer::new(pos, mode, identifies, DEFAULT_SETTLE);
        let mut now = 0u64;
        for input in inputs {
            let before = rec.expected().clone();
            let out = match input {
                Input::Lift(s) => {
                    now += 10;
                    rec.event(SensorEvent::Lifted(Square::new(u32::from(s))), Timestamp::from_millis(now))
                }
                Input::Place(s, letter) => {
                    now += 10;
                    let p = letter.and_then(Piece::from_char);
                    rec.event(SensorEvent::Placed(Square::new(u32::from(s)), p), Timestamp::from_millis(now))
                }
                Input::Snapshot(letters) => {
                    now += 10;
                    let mut picture = Picture::EMPTY;
                    for (square, c) in crate::board::rows_a8_to_h1().zip(letters) {
                        picture.set(square, SquareState::from_char(c).unwrap_or_default());
                    }
                    rec.event(SensorEvent::Snapshot(picture), Timestamp::from_millis(now))
                }
                Input::Wait(ms) => {
                    now += u64::from(ms);
                    rec.tick(Timestamp::from_millis(now))
                }
                Input::Promote(r) => {
                    rec.choose_promotion(Role::ALL[usize::from(r)]).unwrap_or_default()
                }
                Input::Expect => {
                    let moves = before.legal_moves();
                    match moves.first() {
                        Some(&m) => {
                            let next = before.clone().play(m).expect("legal");
                            rec.expect_position(next, Some(before.clone()))
                        }
                        None => Vec::new(),
                    }
                }
            };
            for r in &out {
                if let Recognition::Moved(m) = r {
                    prop_assert!(before.is_legal(*m), "{:?} illegal in {:?}", m, before);
                }
            }
            prop_assert!(moved(&out).len() <= 1);
            if let Some(deadline) = rec.next_deadline() {
                prop_assert!(deadline.since_origin() <= Duration::from_millis(now) + DEFAULT_SETTLE);
            }
        }
    }
}

/// Thousands of games: `STRESS=1500 cargo test --release --lib stress -- --ignored`.
#[test]
#[ignore = "long; run by hand in release mode"]
fn stress_many_more_games() {
    let n: u64 = std::env::var("STRESS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    for seed in 1..=n {
        for identifies in both_boards() {
            replay_game(
                Chess::default(),
                CastlingMode::Standard,
                identifies,
                seed,
                200,
            );
            let start = chess960_position((seed * 131 % 960) as u16).expect("valid");
            replay_game(
                start,
                CastlingMode::Chess960,
                identifies,
                seed + 100_000,
                200,
            );
        }
    }
}

#[test]
fn a_board_being_set_up_makes_no_moves() {
    for identifies in both_boards() {
        let start = Chess::default();
        let mut b = Bench::new(start.clone(), CastlingMode::Standard, identifies);
        // The board shows 1. e4 e5; the game was taken back to 1. e4.
        let mut out = b.steps("-e2 +e4P");
        out.extend(b.wait(DEFAULT_SLIDE_PAUSE.as_millis() as u64));
        assert_eq!(moved(&out).len(), 1);
        let mut after_e4 = start.clone();
        after_e4.play_unchecked(uci(&start, "e2e4"));
        b.steps("-e7 +e5p");
        let out = b.rec.expect_setup(after_e4.clone());
        assert!(moved(&out).is_empty(), "{out:?}");
        // Once quiet, where it differs is said.
        let out = b.settle();
        assert!(
            matches!(out.as_slice(), [Recognition::Mismatch(d)] if d.len() == 2),
            "{out:?}"
        );
        // Put right: it agrees, and moves count again.
        let out = without_touches(b.steps("-e5 +e7p"));
        assert_eq!(out, vec![Recognition::Matches]);
        let mut out = b.steps("-e7 +e6p");
        out.extend(b.wait(DEFAULT_SLIDE_PAUSE.as_millis() as u64));
        assert_eq!(moved(&out).len(), 1);
    }
}

#[test]
fn a_lift_elsewhere_ends_the_slide_pause() {
    // 1. e4 e5: White's bishop goes to c4 on a DGT board, a square it could pass on its way to
    // b5 or a6; then the hand lifts the other player's knight: the bishop stopped at c4.
    let mut pos = Chess::default();
    for m in ["e2e4", "e7e5"] {
        let mv = uci(&pos, m);
        pos.play_unchecked(mv);
    }
    let bc4 = uci(&pos, "f1c4");
    let mut b = Bench::dgt(pos);
    let out = b.steps("-f1 +c4B");
    assert!(moved(&out).is_empty(), "{out:?}");
    let out = b.steps("-g8");
    assert_eq!(moved(&out), vec![bc4]);
    // The lift itself is Black's knight touched in the new position.
    assert!(out.contains(&Recognition::Touched {
        square: Square::G8,
        piece: piece('n')
    }));
}
