//! A board on a serial port, ready for the modes: a [`SerialLink`] (reader thread, writes,
//! reconnection) joined to the pure board core (the DGT driver or the peg decoder, and the
//! [`Recognizer`]).
//!
//! Two layers. [`BoardDriver`] is sans-IO: it takes [`PortEvent`]s and instants and returns
//! [`BoardEvent`]s and the bytes to send, so it is tested without a port. [`BoardLink`] owns
//! the port and does the sending. A mode uses a board with a few calls:
//!
//! ```no_run
//! # use std::time::{Duration, Instant};
//! # use shakmaty::{CastlingMode, Chess};
//! # use hector::io::board_link::{BoardLink, Protocol};
//! let mut board = BoardLink::open(
//!     "/dev/ttyACM0".as_ref(), Protocol::Peg, None,
//!     Chess::default(), CastlingMode::Standard, Instant::now(),
//! )?;
//! loop {
//!     for event in board.poll(Duration::from_millis(100)) {
//!         println!("{event:?}");
//!     }
//! }
//! # Ok::<(), hector::io::serial::OpenError>(())
//! ```
//!
//! After a reconnection the driver asks the board for its whole position (DGT: a board dump;
//! peg: `?`) and gives it to the recognizer, which compares it with the game: a move made
//! while the cable was out is recognised like any other, and a board that still shows the
//! game is reported as [`BoardEvent::InOrder`].

use std::path::Path;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use shakmaty::{CastlingMode, Chess, Role};

use crate::core::board::PromotionError;
pub use crate::core::board::driver::{BoardDriver, BoardEvent, BoardMessage, Protocol, Step};
use crate::core::time::Timestamp;
use crate::io::serial::{OpenError, PortEvent, PortSettings, SerialLink};

/// A board on a serial port. See the module documentation.
#[derive(Debug)]
pub struct BoardLink {
    link: SerialLink,
    driver: BoardDriver,
    origin: Instant,
}

impl BoardLink {
    /// Opens the board at `path` (at the protocol's usual rate unless `baud` says otherwise),
    /// expecting it to show `position`, and asks it for its position. Instants are measured
    /// from `origin`.
    pub fn open(
        path: &Path,
        protocol: Protocol,
        baud: Option<u32>,
        position: Chess,
        mode: CastlingMode,
        origin: Instant,
    ) -> Result<BoardLink, OpenError> {
        let settings = PortSettings::new(baud.unwrap_or(protocol.default_baud()));
        BoardLink::with_driver(
            path,
            settings,
            BoardDriver::new(protocol, position, mode),
            origin,
        )
    }

    /// Opens `path` with a driver and port settings of the caller's choosing.
    pub fn with_driver(
        path: &Path,
        settings: PortSettings,
        mut driver: BoardDriver,
        origin: Instant,
    ) -> Result<BoardLink, OpenError> {
        let link = SerialLink::open(path, settings, origin)?;
        // A failed first request is repeated by the DGT driver when updates come, and by a
        // peg board's heartbeat; nothing is lost by going on.
        let _ = link.write(&driver.connect());
        Ok(BoardLink {
            link,
            driver,
            origin,
        })
    }

    pub fn path(&self) -> &Path {
        self.link.path()
    }

    pub fn driver(&self) -> &BoardDriver {
        &self.driver
    }

    pub fn protocol(&self) -> Protocol {
        self.driver.protocol()
    }

    /// The position the board is expected to show.
    pub fn expected(&self) -> &Chess {
        self.driver.expected()
    }

    /// The reader thread's events, to select on together with other channels; pass each to
    /// [`BoardLink::handle`].
    pub fn events(&self) -> &Receiver<PortEvent> {
        self.link.events()
    }

    /// Now, on the link's clock.
    pub fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    /// Handles one event from [`BoardLink::events`], sending the board what it needs.
    pub fn handle(&mut self, event: PortEvent) -> Vec<BoardEvent> {
        let step = self.driver.handle(event);
        if !step.send.is_empty() {
            // While unplugged the requests cannot go out; they are sent again on reconnection.
            let _ = self.link.write(&step.send);
        }
        step.events
    }

    /// Lets time pass for the recognizer (pending moves, settled mismatches).
    pub fn tick(&mut self) -> Vec<BoardEvent> {
        let now = self.now();
        self.driver.tick(now)
    }

    /// When [`BoardLink::tick`] has something to do.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.driver
            .next_deadline()
            .map(|t| self.origin + t.since_origin())
    }

    /// Waits until the board says something or the recognizer has something to do, at most
    /// `timeout`, and returns what happened (often nothing).
    pub fn poll(&mut self, timeout: Duration) -> Vec<BoardEvent> {
        let mut wake = Instant::now() + timeout;
        if let Some(deadline) = self.next_deadline() {
            wake = wake.min(deadline);
        }
        let mut out = Vec::new();
        match self
            .link
            .events()
            .recv_timeout(wake.saturating_duration_since(Instant::now()))
        {
            Ok(event) => {
                out.extend(self.handle(event));
                while let Ok(event) = self.link.events().try_recv() {
                    out.extend(self.handle(event));
                }
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {}
        }
        out.extend(self.tick());
        out
    }

    /// The game moved on from elsewhere; see [`Recognizer::expect_position`].
    pub fn expect_position(&mut self, position: Chess, previous: Option<Chess>) -> Vec<BoardEvent> {
        self.driver.expect_position(position, previous)
    }

    /// The board must be set up to `position`; see [`Recognizer::expect_setup`].
    pub fn expect_setup(&mut self, position: Chess) -> Vec<BoardEvent> {
        self.driver.expect_setup(position)
    }

    /// The piece the player announced for a promotion the board could not read.
    pub fn choose_promotion(&mut self, role: Role) -> Result<Vec<BoardEvent>, PromotionError> {
        self.driver.choose_promotion(role)
    }

    /// Asks the board for its whole position (DGT board dump, peg `?`), to compare it with
    /// the game when in doubt; fails while the board is unplugged.
    pub fn request_position(&mut self) -> std::io::Result<()> {
        let bytes = self.driver.request_position();
        self.link.write(&bytes)
    }

    /// Sends raw bytes to the board (further DGT commands, peg lines).
    pub fn send(&self, bytes: &[u8]) -> std::io::Result<()> {
        self.link.write(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::dgt::{BoardDump, FieldIndex, Orientation};
    use crate::core::board::peg::{self, PegMessage};
    use crate::core::board::{Picture, Recognition, SquareDiff, SquareState};
    use shakmaty::{Position, Square, uci::UciMove};

    fn at(ms: u64) -> Timestamp {
        Timestamp::from_millis(ms)
    }

    fn data(bytes: &[u8], ms: u64) -> PortEvent {
        PortEvent::Data {
            bytes: bytes.to_vec(),
            at: at(ms),
        }
    }

    fn moves(events: &[BoardEvent]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                BoardEvent::Recognized {
                    recognition: Recognition::Moved(m),
                    position,
                } => Some(UciMove::from_move(*m, CastlingMode::Standard).to_string())
                    .filter(|_| position.is_legal(*m)),
                _ => None,
            })
            .collect()
    }

    fn dump(position: &Chess) -> Vec<u8> {
        let mut bytes = vec![0x86, 0x00, 0x43];
        bytes.extend(
            BoardDump::of_board(position.board(), Orientation::Normal)
                .fields()
                .iter()
                .map(|f| f.code()),
        );
        bytes
    }

    fn update(sq: Square, code: u8) -> Vec<u8> {
        vec![
            0x8e,
            0x00,
            0x05,
            FieldIndex::of_square(sq, Orientation::Normal).get(),
            code,
        ]
    }

    #[test]
    fn connecting_asks_each_protocol_for_its_position() {
        let mut dgt = BoardDriver::new(Protocol::Dgt, Chess::default(), CastlingMode::Standard);
        assert_eq!(dgt.connect(), vec![0x42, 0x44]);
        let mut peg = BoardDriver::new(Protocol::Peg, Chess::default(), CastlingMode::Standard);
        assert_eq!(peg.connect(), b"V\n?\n");
        assert_eq!(dgt.request_position(), vec![0x42]);
        assert_eq!(peg.request_position(), b"?\n");
    }

    #[test]
    fn a_peg_game_through_the_driver() {
        let mut d = BoardDriver::new(Protocol::Peg, Chess::default(), CastlingMode::Standard);
        d.connect();
        let start = Picture::occupancy_of(Chess::default().board()).to_rows();
        let step = d.handle(data(
            format!("V hector-peg 1 x\nS {start}\n").as_bytes(),
            10,
        ));
        assert!(step.events.contains(&BoardEvent::InOrder), "{step:?}");
        assert!(matches!(
            step.events[0],
            BoardEvent::Message(BoardMessage::Peg(PegMessage::Version(_)))
        ));
        let mut events = Vec::new();
        // Lines split anywhere, with checksums.
        let lines = [
            "L e2", "P e4", "L d7", "P d5", "L e4", "L d5", "P d5", "L d8", "L d5", "P d5",
        ]
        .map(peg::with_checksum)
        .join("\n")
            + "\n";
        for (i, chunk) in lines.as_bytes().chunks(3).enumerate() {
            events.extend(d.handle(data(chunk, 100 + i as u64)).events);
        }
        assert_eq!(moves(&events), ["e2e4", "d7d5", "e4d5", "d8d5"]);
        let touched = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    BoardEvent::Recognized {
                        recognition: Recognition::Touched { .. },
                        ..
                    }
                )
            })
            .count();
        assert_eq!(touched, 4, "one touch per move: {events:?}");
        assert_eq!(d.dropped(), 0);
    }

    #[test]
    fn noise_is_counted_and_reported_once() {
        let mut d = BoardDriver::new(Protocol::Peg, Chess::default(), CastlingMode::Standard);
        let step = d.push(b"L e2*00\n", at(0));
        assert_eq!(step.events, vec![BoardEvent::Dropped(1)]);
        let step = d.push(b"L e2\n", at(10));
        assert!(
            !step
                .events
                .iter()
                .any(|e| matches!(e, BoardEvent::Dropped(_)))
        );
        let mut g = BoardDriver::new(Protocol::Dgt, Chess::default(), CastlingMode::Standard);
        let step = g.push(&[0x01, 0x02, 0x03], at(0));
        assert_eq!(step.events, vec![BoardEvent::Dropped(3)]);
    }

    #[test]
    fn dgt_capture_reported_before_the_lift_and_a_slide() {
        let pos = Chess::default();
        let mut d = BoardDriver::new(Protocol::Dgt, pos.clone(), CastlingMode::Standard);
        d.connect();
        let step = d.push(&dump(&pos), at(0));
        assert!(step.events.contains(&BoardEvent::InOrder));
        let mut events = Vec::new();
        let mut t = 100;
        let mut feed = |d: &mut BoardDriver, bytes: Vec<u8>, events: &mut Vec<BoardEvent>| {
            t += 40;
            events.extend(d.push(&bytes, at(t)).events);
            events.extend(d.tick(at(t)));
        };
        // 1. e4 d5 2. exd5: the capturing pawn shows on d5 before e4 is reported empty.
        feed(&mut d, update(Square::E2, 0), &mut events);
        feed(&mut d, update(Square::E4, 1), &mut events);
        feed(&mut d, update(Square::D7, 0), &mut events);
        feed(&mut d, update(Square::D5, 7), &mut events);
        feed(&mut d, update(Square::D5, 1), &mut events);
        feed(&mut d, update(Square::E4, 0), &mut events);
        assert_eq!(moves(&events), ["e2e4", "d7d5", "e4d5"]);
        // 2... Qxd5 3. Bc4? The bishop slides f1-e2-d3-c4 and stops: taken after the pause.
        feed(&mut d, update(Square::D5, 12), &mut events);
        feed(&mut d, update(Square::D8, 0), &mut events);
        feed(&mut d, update(Square::F1, 0), &mut events);
        feed(&mut d, update(Square::E2, 4), &mut events);
        feed(&mut d, update(Square::E2, 0), &mut events);
        feed(&mut d, update(Square::D3, 4), &mut events);
        feed(&mut d, update(Square::D3, 0), &mut events);
        feed(&mut d, update(Square::C4, 4), &mut events);
        assert_eq!(moves(&events), ["e2e4", "d7d5", "e4d5", "d8d5"]);
        let deadline = d.next_deadline().expect("the bishop move waits");
        events.extend(d.tick(deadline));
        assert_eq!(moves(&events), ["e2e4", "d7d5", "e4d5", "d8d5", "f1c4"]);
    }

    #[test]
    fn a_pending_move_is_taken_before_a_late_event_even_without_ticks() {
        let pos = Chess::default();
        let mut d = BoardDriver::new(Protocol::Dgt, pos.clone(), CastlingMode::Standard);
        d.connect();
        d.push(&dump(&pos), at(0));
        let mut events = Vec::new();
        // 1. e3: the pawn might still be on its way to e4, so the move waits.
        events.extend(d.push(&update(Square::E2, 0), at(100)).events);
        events.extend(d.push(&update(Square::E3, 1), at(150)).events);
        assert!(moves(&events).is_empty());
        // Black's first lift arrives long after the pause, with no tick in between.
        events.extend(d.push(&update(Square::E7, 0), at(2000)).events);
        assert_eq!(moves(&events), ["e2e3"]);
        assert!(
            events.iter().any(|e| matches!(
                e,
                BoardEvent::Recognized {
                    recognition: Recognition::Touched {
                        square: Square::E7,
                        ..
                    },
                    ..
                }
            )),
            "black's touch counts in the new position: {events:?}"
        );
    }

    #[test]
    fn unplug_and_a_move_made_meanwhile_is_not_lost() {
        let pos = Chess::default();
        let mut d = BoardDriver::new(Protocol::Dgt, pos.clone(), CastlingMode::Standard);
        d.connect();
        d.push(&dump(&pos), at(0));
        let step = d.handle(PortEvent::Disconnected {
            reason: "hang-up".into(),
            at: at(100),
        });
        assert_eq!(
            step.events,
            vec![BoardEvent::Disconnected {
                reason: "hang-up".into()
            }]
        );
        // While the cable was out the player played 1. Nf3.
        let step = d.handle(PortEvent::Reconnected { at: at(2000) });
        assert_eq!(step.events, vec![BoardEvent::Reconnected]);
        assert_eq!(
            step.send,
            vec![0x42, 0x44],
            "the position is asked for again"
        );
        let mut after = pos.clone();
        after.play_unchecked(
            UciMove::from_ascii(b"g1f3")
                .expect("uci")
                .to_move(&pos)
                .expect("legal"),
        );
        let step = d.push(&dump(&after), at(2100));
        assert_eq!(moves(&step.events), ["g1f3"]);
        assert!(step.events.contains(&BoardEvent::InOrder), "{step:?}");
    }

    #[test]
    fn a_board_different_from_the_game_after_reconnection_is_a_mismatch() {
        let pos = Chess::default();
        let mut d = BoardDriver::new(Protocol::Peg, pos.clone(), CastlingMode::Standard);
        d.handle(PortEvent::Reconnected { at: at(0) });
        let mut picture = Picture::occupancy_of(pos.board());
        picture.set(Square::D1, SquareState::Empty);
        let step = d.push(format!("S {}\n", picture.to_rows()).as_bytes(), at(10));
        assert!(!step.events.contains(&BoardEvent::InOrder));
        assert!(d.tick(at(100)).is_empty(), "not settled yet");
        let settled = d
            .next_deadline()
            .expect("a mismatch waits for the settle pause");
        assert_eq!(
            d.tick(settled),
            vec![BoardEvent::Recognized {
                recognition: Recognition::Mismatch(vec![SquareDiff {
                    square: Square::D1,
                    expected: pos.board().piece_at(Square::D1),
                    found: SquareState::Empty,
                }]),
                position: pos,
            }]
        );
    }

    #[test]
    fn a_promotion_on_an_occupancy_board_waits_for_the_players_word() {
        let pos: Chess = shakmaty::fen::Fen::from_ascii(b"4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let mut d = BoardDriver::new(Protocol::Peg, pos, CastlingMode::Standard);
        let step = d.push(b"L a7\nP a8\n", at(10));
        assert!(step.events.iter().any(|e| matches!(
            e,
            BoardEvent::Recognized {
                recognition: Recognition::PromotionChoiceNeeded { .. },
                ..
            }
        )));
        let events = d.choose_promotion(Role::Knight).expect("asked");
        assert_eq!(moves(&events), ["a7a8n"]);
        assert_eq!(
            d.choose_promotion(Role::Queen),
            Err(PromotionError::NotAsked)
        );
    }
}
