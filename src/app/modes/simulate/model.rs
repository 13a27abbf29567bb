//! The simulated board itself, without any device: the pieces standing on it, the game it
//! follows, and the order in which a hand's lifts and placements reach the sensors. The bytes
//! for each are the protocol's, from its codec's [`Emulator`], the same trait the tests play a
//! board with.
//!
//! Orderings follow real boards. A board that scans its squares (DGT, every 200–250 ms)
//! reports a capture as the capturing piece on the target square before the emptied start
//! square (the captured piece's removal is never reported), and a sliding bishop, rook or
//! queen on the squares it passes. A peg board reports each peg as it leaves or enters its
//! hole, in the order the hand does it (D2.3: the captured piece is removed before the
//! capturing piece goes into its hole).

use shakmaty::{Board, Chess, Move, Piece, Position, Role, Square, attacks};

use crate::core::board::Emulator;
use crate::io::board_link::Protocol;

/// Why a command cannot be carried out on the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SimError {
    #[error("nothing stands on {0}")]
    NothingThere(Square),
    #[error("which piece goes on {0}? Nothing is in the hand: write it, e.g. place {0} Q")]
    WhichPiece(Square),
    #[error("a {0} board sends no text lines; raw sends bytes")]
    NoLines(String),
}

/// One sensor change of the board: the bytes it sends for it.
pub type Chunk = Vec<u8>;

/// The simulated board.
#[derive(Debug)]
pub struct SimBoard {
    /// The protocol's end of the board: the bytes for every change and answer.
    emulator: Box<dyn Emulator>,
    /// What physically stands on the board.
    board: Board,
    /// Pieces lifted and not yet set down, the last lifted last.
    hand: Vec<Piece>,
    /// The game the moves of `move` and `pgn` follow.
    game: Chess,
    /// A scanning board: report a sliding piece on the squares it passes.
    slide: bool,
    noise_state: u64,
}

impl SimBoard {
    /// A board of `protocol`; `identifies` asks a peg board to name its pieces (a DGT board
    /// always does).
    pub fn new(protocol: Protocol, identifies: bool, game: Chess) -> SimBoard {
        SimBoard {
            emulator: protocol.codec().emulator(identifies),
            board: game.board().clone(),
            hand: Vec::new(),
            game,
            slide: true,
            noise_state: 0x9e37_79b9_7f4a_7c15,
        }
    }

    /// What kind of board this is: "DGT", "peg (occupancy only)".
    pub(crate) fn title(&self) -> String {
        self.emulator.title()
    }

    pub fn game(&self) -> &Chess {
        &self.game
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    pub(crate) fn set_slide(&mut self, on: bool) {
        self.slide = on;
    }

    /// The device was plugged in again: a board starts as after power-up.
    pub(crate) fn power_up(&mut self) {
        self.emulator.power_up();
    }

    /// The host has connected since power-up and will hear the sensors: a DGT host asked for
    /// field updates, a peg host for a snapshot.
    pub fn host_ready(&self) -> bool {
        self.emulator.host_ready()
    }

    /// Takes the piece off `sq` into the hand.
    pub(crate) fn lift(&mut self, sq: Square) -> Result<Vec<Chunk>, SimError> {
        let piece = self.board.piece_at(sq).ok_or(SimError::NothingThere(sq))?;
        self.hand.push(piece);
        Ok(self.take(sq).into_iter().collect())
    }

    /// Sets `piece` (or the piece last lifted) on `sq`; a piece standing there is replaced.
    pub(crate) fn place(
        &mut self,
        sq: Square,
        piece: Option<Piece>,
    ) -> Result<Vec<Chunk>, SimError> {
        let piece = match piece {
            Some(p) => {
                if let Some(i) = self.hand.iter().rposition(|&h| h == p) {
                    self.hand.remove(i);
                }
                p
            }
            None => self.hand.pop().ok_or(SimError::WhichPiece(sq))?,
        };
        Ok(self.put(sq, piece).into_iter().collect())
    }

    /// Makes `m`, a legal move of the game, on the board, and the game goes on.
    pub fn play(&mut self, m: Move) -> Vec<Chunk> {
        let turn = self.game.turn();
        let mut out = Vec::new();
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let mover = Piece {
                    color: turn,
                    role: promotion.unwrap_or(role),
                };
                out = self.normal_move(role, from, to, capture.is_some(), mover);
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                let pawn = Piece {
                    color: turn,
                    role: Role::Pawn,
                };
                if self.emulator.scans() {
                    out.extend(self.take(from));
                    out.extend(self.put(to, pawn));
                    out.extend(self.take(captured));
                } else {
                    out.extend(self.take(from));
                    out.extend(self.take(captured));
                    out.extend(self.put(to, pawn));
                }
            }
            Move::Castle { king, rook } => {
                // Article 4.4: the king first. Both are lifted before either is set down, so
                // that Chess960 castling onto each other's squares works the same way.
                let side = m
                    .castling_side()
                    .unwrap_or(shakmaty::CastlingSide::KingSide);
                out.extend(self.take(king));
                out.extend(self.take(rook));
                out.extend(self.put(
                    side.king_to(turn),
                    Piece {
                        color: turn,
                        role: Role::King,
                    },
                ));
                out.extend(self.put(
                    side.rook_to(turn),
                    Piece {
                        color: turn,
                        role: Role::Rook,
                    },
                ));
            }
            Move::Put { role, to } => out.extend(self.put(to, Piece { color: turn, role })),
        }
        self.game.play_unchecked(m);
        out
    }

    /// A move that is neither castling nor en passant, as the hand makes it: on a scanning
    /// board a capture puts the piece on the taken one first, and a slide passes the squares
    /// between; `mover` is the piece that stands on `to` afterwards.
    fn normal_move(
        &mut self,
        role: Role,
        from: Square,
        to: Square,
        capture: bool,
        mover: Piece,
    ) -> Vec<Chunk> {
        let mut out = Vec::new();
        let scans = self.emulator.scans();
        if scans && capture {
            out.extend(self.put(to, mover));
            out.extend(self.take(from));
        } else if scans {
            out.extend(self.take(from));
            if self.slide && matches!(role, Role::Bishop | Role::Rook | Role::Queen) {
                for sq in path(from, to) {
                    out.extend(self.put(sq, mover));
                    out.extend(self.take(sq));
                }
            }
            out.extend(self.put(to, mover));
        } else {
            out.extend(self.take(from));
            if capture {
                out.extend(self.take(to));
            }
            out.extend(self.put(to, mover));
        }
        out
    }

    /// Sets up `game`: the pieces are taken off and put on square by square where the board
    /// differs, and the moves that follow are played from it.
    pub fn setup(&mut self, game: Chess) -> Vec<Chunk> {
        let target = game.board().clone();
        let mut out = Vec::new();
        for sq in Square::ALL {
            if self.board.piece_at(sq).is_some() && target.piece_at(sq) != self.board.piece_at(sq) {
                out.extend(self.take(sq));
            }
        }
        for (sq, piece) in &target {
            if self.board.piece_at(sq) != Some(piece) {
                out.extend(self.put(sq, piece));
            }
        }
        self.hand.clear();
        self.game = game;
        out
    }

    /// The whole board, unasked: a DGT board dump or a peg `S` line.
    pub(crate) fn snapshot(&self) -> Chunk {
        self.emulator.snapshot(&self.board)
    }

    /// What the board answers to `bytes` from the host.
    pub fn answer(&mut self, bytes: &[u8]) -> Vec<Chunk> {
        self.emulator.answer(bytes, &self.board)
    }

    /// `text` as one of the protocol's text lines (a peg line, its checksum added unless it
    /// has one).
    pub(crate) fn line(&self, text: &str) -> Result<Chunk, SimError> {
        self.emulator
            .line(text)
            .ok_or_else(|| SimError::NoLines(self.emulator.title()))
    }

    /// `len` bytes of noise on the line, as they reach the host between the protocol's
    /// messages (a peg board's noise ends its line, as a glitch on a real line would be
    /// followed by the next full line; DGT noise is dropped by the host up to the next message
    /// id).
    pub(crate) fn noise(&mut self, len: usize) -> Chunk {
        let mut bytes = Vec::with_capacity(len + 1);
        for _ in 0..len {
            // xorshift64*: reproducible noise without a dependency.
            let mut x = self.noise_state;
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            self.noise_state = x;
            bytes.push((x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8);
        }
        self.emulator.noise(bytes)
    }

    /// A sensor reports `sq` empty.
    fn take(&mut self, sq: Square) -> Option<Chunk> {
        self.board.remove_piece_at(sq)?;
        self.emulator.report(&self.board, sq, None)
    }

    /// A sensor reports `piece` on `sq`.
    fn put(&mut self, sq: Square, piece: Piece) -> Option<Chunk> {
        if self.board.piece_at(sq) == Some(piece) {
            return None;
        }
        self.board.set_piece_at(sq, piece);
        self.emulator.report(&self.board, sq, Some(piece))
    }
}

/// The squares a sliding piece passes from `from` to `to`, in order.
fn path(from: Square, to: Square) -> Vec<Square> {
    let mut squares: Vec<Square> = attacks::between(from, to).into_iter().collect();
    squares.sort_by_key(|sq| sq.distance(from));
    squares
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::{Recognition, rows_a8_to_h1, with_checksum};
    use crate::core::time::Timestamp;
    use crate::io::board_link::{BoardDriver, BoardEvent};
    use shakmaty::{CastlingMode, uci::UciMove};

    /// The 64 squares in the order both protocols list them.
    fn rows(board: &Board) -> String {
        rows_a8_to_h1()
            .map(|sq| board.piece_at(sq).map_or('.', |p| p.char()))
            .collect()
    }

    /// A peg line as the protocol document writes it: checksum, line end.
    fn peg_line(text: &str) -> Chunk {
        format!("{}\n", with_checksum(text)).into_bytes()
    }

    fn uci(pos: &Chess, text: &str) -> Move {
        UciMove::from_ascii(text.as_bytes())
            .expect("uci")
            .to_move(pos)
            .expect("legal")
    }

    /// Plays `line` on a simulated board and feeds every chunk to a driver, 60 ms apart, as
    /// the real link would; returns the moves recognised, in UCI.
    fn round_trip(protocol: Protocol, identifies: bool, line: &[&str]) -> Vec<String> {
        let mut sim = SimBoard::new(protocol, identifies, Chess::default());
        let mut driver = BoardDriver::new(protocol, Chess::default(), CastlingMode::Standard);
        let mut t = 0;
        let mut events = Vec::new();
        for chunk in sim.answer(&driver.connect()) {
            events.extend(driver.push(&chunk, Timestamp::from_millis(t)).events);
        }
        assert!(events.contains(&BoardEvent::InOrder), "{events:?}");
        for text in line {
            let m = uci(sim.game(), text);
            for chunk in sim.play(m) {
                t += 60;
                events.extend(driver.push(&chunk, Timestamp::from_millis(t)).events);
                events.extend(driver.tick(Timestamp::from_millis(t)));
            }
            // The pause between two moves of a player.
            t += 2000;
            events.extend(driver.tick(Timestamp::from_millis(t)));
        }
        assert_eq!(driver.dropped(), 0);
        assert!(
            !events.iter().any(|e| matches!(
                e,
                BoardEvent::Recognized {
                    recognition: Recognition::Mismatch(_),
                    ..
                }
            )),
            "{events:?}"
        );
        events
            .iter()
            .filter_map(|e| match e {
                BoardEvent::Recognized {
                    recognition: Recognition::Moved(m),
                    ..
                } => Some(UciMove::from_move(*m, CastlingMode::Standard).to_string()),
                _ => None,
            })
            .collect()
    }

    const GAME: [&str; 12] = [
        "e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "f1c4", "g8f6", "g1f3", "c8g4", "e1g1",
        "e7e6",
    ];

    #[test]
    fn every_kind_of_board_plays_a_game_the_recognizer_follows() {
        for (protocol, identifies) in [
            (Protocol::Dgt, true),
            (Protocol::Peg, false),
            (Protocol::Peg, true),
        ] {
            assert_eq!(
                round_trip(protocol, identifies, &GAME),
                GAME,
                "{protocol:?} {identifies}"
            );
        }
    }

    #[test]
    fn en_passant_and_promotion_with_pieces_named() {
        let line = [
            "e2e4", "a7a6", "e4e5", "d7d5", "e5d6", "a6a5", "d6c7", "a5a4", "c7b8q",
        ];
        for protocol in [Protocol::Dgt, Protocol::Peg] {
            assert_eq!(round_trip(protocol, true, &line), line, "{protocol:?}");
        }
    }

    #[test]
    fn dgt_orderings() {
        let mut sim = SimBoard::new(Protocol::Dgt, true, Chess::default());
        // Silent until the host asks for updates.
        assert!(sim.lift(Square::E2).expect("a pawn").is_empty());
        sim.place(Square::E2, None).expect("back");
        assert_eq!(sim.answer(&[0x44]), Vec::<Chunk>::new());
        let e4 = uci(sim.game(), "e2e4");
        assert_eq!(
            sim.play(e4),
            vec![vec![0x8e, 0, 5, 0x34, 0], vec![0x8e, 0, 5, 0x24, 1]],
            "the worked example of the protocol notes"
        );
        let d5 = uci(sim.game(), "d7d5");
        sim.play(d5);
        let exd5 = uci(sim.game(), "e4d5");
        // Field index = (8 − rank) · 8 + file, a = 0.
        let d5_field = 3 * 8 + 3;
        let e4_field = 4 * 8 + 4;
        assert_eq!(
            sim.play(exd5),
            vec![vec![0x8e, 0, 5, d5_field, 1], vec![0x8e, 0, 5, e4_field, 0]],
            "the capturing piece is seen before the emptied square"
        );
        // A queen sliding d8-d7-d6 to a5? No: Qd8-d6 passes d7 only.
        let qd6 = uci(sim.game(), "d8d6");
        let chunks = sim.play(qd6);
        assert_eq!(chunks.len(), 4, "lift, on d7, off d7, on d6: {chunks:?}");
        sim.set_slide(false);
        let nf3 = uci(sim.game(), "g1f3");
        assert_eq!(sim.play(nf3).len(), 2);
    }

    #[test]
    fn host_requests_are_answered() {
        let mut dgt = SimBoard::new(Protocol::Dgt, true, Chess::default());
        let answers = dgt.answer(&[0x42, 0x4d, 0x47, 0x45, 0x60]);
        assert_eq!(answers.len(), 4);
        assert_eq!(answers[0].len(), 67);
        assert_eq!(answers[1], vec![0x93, 0, 5, 1, 7]);
        assert!(!dgt.host_ready(), "no update request yet");
        assert!(dgt.answer(&[0x44]).is_empty());
        assert!(dgt.host_ready());
        dgt.power_up();
        assert!(!dgt.host_ready(), "a board starts silent");
        let mut peg = SimBoard::new(Protocol::Peg, false, Chess::default());
        assert!(peg.answer(b"V").is_empty(), "waits for the line end");
        assert!(!peg.host_ready());
        let answers = peg.answer(b"\r\n?\nX\n");
        assert_eq!(
            answers,
            vec![
                peg_line("V hector-peg 1 hector-simulator"),
                peg_line("S xxxxxxxxxxxxxxxx................................xxxxxxxxxxxxxxxx")
            ]
        );
        assert!(peg.host_ready());
        peg.power_up();
        assert!(!peg.host_ready());
    }

    #[test]
    fn lifting_and_placing_by_hand() {
        let mut sim = SimBoard::new(Protocol::Peg, false, Chess::default());
        assert_eq!(
            sim.lift(Square::E4),
            Err(SimError::NothingThere(Square::E4))
        );
        assert_eq!(
            sim.place(Square::E4, None),
            Err(SimError::WhichPiece(Square::E4))
        );
        assert_eq!(sim.lift(Square::D1).expect("queen"), vec![peg_line("L d1")]);
        assert_eq!(
            sim.place(Square::D4, None).expect("from the hand"),
            vec![peg_line("P d4")]
        );
        assert_eq!(
            sim.board().piece_at(Square::D4),
            Piece::from_char('Q'),
            "the queen went from the hand to d4"
        );
    }

    #[test]
    fn noise_never_breaks_a_peg_line() {
        let mut sim = SimBoard::new(Protocol::Peg, false, Chess::default());
        let noise = sim.noise(500);
        assert_eq!(noise.len(), 501);
        assert_eq!(noise.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(noise.last(), Some(&b'\n'));
        let mut dgt = SimBoard::new(Protocol::Dgt, true, Chess::default());
        assert_eq!(dgt.noise(10).len(), 10);
    }

    #[test]
    fn setup_reports_only_the_squares_that_change() {
        let mut sim = SimBoard::new(Protocol::Peg, false, Chess::default());
        let mut after = Chess::default();
        after.play_unchecked(uci(&after, "e2e4"));
        let chunks = sim.setup(after.clone());
        assert_eq!(chunks, vec![peg_line("L e2"), peg_line("P e4")]);
        assert_eq!(sim.game(), &after);
        assert_eq!(
            rows(sim.board()),
            "rnbqkbnrpppppppp....................P...........PPPP.PPPRNBQKBNR"
        );
    }
}
