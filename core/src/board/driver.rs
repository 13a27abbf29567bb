//! A board as the modes use it, without its port: the protocol's [`Codec`] joined to the
//! [`Recognizer`]. Sans-IO: it takes what the port's reader reported ([`PortEvent`]) and the
//! instants, and returns the board's events and the bytes to send, so it is tested without a
//! port; `io::board_link` owns the port and does the sending.

use shakmaty::{CastlingMode, Chess, Position, Role};

use super::Protocol;
use super::codec::{BoardMessage, Codec, Heard};
use super::recognizer::DEFAULT_SETTLE;
use super::{Picture, PromotionError, Recognition, Recognizer, SensorEvent};
use crate::time::Timestamp;

/// What the reader thread reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortEvent {
    /// Bytes from the board, and when they arrived.
    Data { bytes: Vec<u8>, at: Timestamp },
    /// The port failed or hung up (the board was unplugged). Reported once; the thread then
    /// looks for the port again.
    Disconnected { reason: String, at: Timestamp },
    /// The port could be opened again. Whatever the board did meanwhile is unknown: ask it.
    Reconnected { at: Timestamp },
}

impl PortEvent {
    pub fn at(&self) -> Timestamp {
        match self {
            PortEvent::Data { at, .. }
            | PortEvent::Disconnected { at, .. }
            | PortEvent::Reconnected { at } => *at,
        }
    }
}

/// What a board link reports, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardEvent {
    /// What the sensors reported, decoded from the protocol.
    Sensor(SensorEvent),
    /// Anything else the board said: version, buttons, faults, clock, lines not understood.
    Message(BoardMessage),
    /// Units (DGT: bytes, peg: lines) the codec had to drop since the last report: noise on
    /// the line, wrong checksums; [`Codec::dropped_words`] says them.
    Dropped(u64),
    /// What the recognizer made of the sensors. `position` is the position the board was
    /// expected to show when it was found; for a move, the position it was played in.
    Recognized {
        recognition: Recognition,
        position: Chess,
    },
    /// The port failed or the board was unplugged (reported once).
    Disconnected { reason: String },
    /// The board is back; its position has been asked for.
    Reconnected,
    /// The first full reading after connecting shows the game's position.
    InOrder,
}

/// What one step of the driver produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    pub events: Vec<BoardEvent>,
    /// Bytes to send to the board.
    pub send: Vec<u8>,
}

/// The sans-IO half of a board link: the protocol's codec and move recognition.
#[derive(Debug)]
pub struct BoardDriver {
    codec: Box<dyn Codec>,
    dropped_reported: u64,
    recognizer: Recognizer,
    /// Compare the next full reading with the game (after connecting).
    verify: bool,
}

impl BoardDriver {
    /// A driver for a board of `protocol` expected to show `position`.
    pub fn new(protocol: Protocol, position: Chess, mode: CastlingMode) -> BoardDriver {
        BoardDriver::with_codec(protocol.codec(), position, mode)
    }

    /// A driver for a board that speaks `codec`; whether it names pieces is the codec's word.
    pub(crate) fn with_codec(
        codec: Box<dyn Codec>,
        position: Chess,
        mode: CastlingMode,
    ) -> BoardDriver {
        let identifies = codec.identifies_pieces();
        BoardDriver {
            codec,
            dropped_reported: 0,
            recognizer: Recognizer::new(position, mode, identifies, DEFAULT_SETTLE),
            verify: false,
        }
    }

    /// The protocol's codec: its name, port settings and words.
    pub fn codec(&self) -> &dyn Codec {
        self.codec.as_ref()
    }

    /// The bytes to send when the port has been opened (or opened again): ask for the whole
    /// board and for updates.
    pub fn connect(&mut self) -> Vec<u8> {
        self.verify = true;
        self.codec.connect()
    }

    /// The bytes that ask the board for its whole position now; the reading that comes back
    /// is compared with the game ([`BoardEvent::InOrder`] when it agrees).
    #[cfg(test)]
    pub(crate) fn request_position(&mut self) -> Vec<u8> {
        self.verify = true;
        self.codec.request_position()
    }

    /// One event of the port's reader thread.
    pub fn handle(&mut self, event: PortEvent) -> Step {
        match event {
            PortEvent::Data { bytes, at } => self.push(&bytes, at),
            PortEvent::Disconnected { reason, .. } => Step {
                events: vec![BoardEvent::Disconnected { reason }],
                send: Vec::new(),
            },
            PortEvent::Reconnected { .. } => Step {
                events: vec![BoardEvent::Reconnected],
                send: self.connect(),
            },
        }
    }

    /// Bytes from the board that arrived at `at`.
    pub fn push(&mut self, bytes: &[u8], at: Timestamp) -> Step {
        let mut step = Step::default();
        let decoded = self.codec.decode(bytes);
        for heard in decoded.heard {
            match heard {
                Heard::Sensor(ev) => self.feed(ev, at, &mut step.events),
                Heard::Message(message) => step.events.push(BoardEvent::Message(message)),
            }
        }
        step.send = decoded.send;
        let dropped = self.dropped();
        if dropped > self.dropped_reported {
            step.events
                .push(BoardEvent::Dropped(dropped - self.dropped_reported));
            self.dropped_reported = dropped;
        }
        step
    }

    /// Everything the codec dropped so far.
    pub fn dropped(&self) -> u64 {
        self.codec.dropped()
    }

    /// Time passes: a pending move is taken, a settled mismatch reported.
    pub fn tick(&mut self, now: Timestamp) -> Vec<BoardEvent> {
        let before = self.recognizer.expected().clone();
        let found = self.recognizer.tick(now);
        recognized(found, before)
    }

    /// When [`BoardDriver::tick`] has something to do.
    pub fn next_deadline(&self) -> Option<Timestamp> {
        self.recognizer.next_deadline()
    }

    /// The game moved on from elsewhere (an opponent's move, a take-back accepted).
    pub fn expect_position(&mut self, position: Chess, previous: Option<Chess>) -> Vec<BoardEvent> {
        let before = position.clone();
        let found = self.recognizer.expect_position(position, previous);
        recognized(found, before)
    }

    /// The board must be set up to `position`; see [`Recognizer::expect_setup`].
    pub fn expect_setup(&mut self, position: Chess) -> Vec<BoardEvent> {
        let before = position.clone();
        let found = self.recognizer.expect_setup(position);
        recognized(found, before)
    }

    /// The piece the player announced for a promotion the board could not read (D2.1).
    pub fn choose_promotion(&mut self, role: Role) -> Result<Vec<BoardEvent>, PromotionError> {
        let before = self.recognizer.expected().clone();
        let found = self.recognizer.choose_promotion(role)?;
        Ok(recognized(found, before))
    }

    fn feed(&mut self, ev: SensorEvent, at: Timestamp, out: &mut Vec<BoardEvent>) {
        // The quiet time before this event has passed even if nobody ticked meanwhile (a busy
        // caller, several reads handled at once): a move waiting for it is taken first.
        if self.next_deadline().is_some_and(|due| due <= at) {
            out.extend(self.tick(at));
        }
        let full_reading = matches!(ev, SensorEvent::Snapshot(_));
        let before = self.recognizer.expected().clone();
        out.push(BoardEvent::Sensor(ev.clone()));
        let found = self.recognizer.event(ev, at);
        out.extend(recognized(found, before));
        if full_reading && self.verify {
            self.verify = false;
            if shows(self.recognizer.picture(), self.recognizer.expected()) {
                out.push(BoardEvent::InOrder);
            }
        }
    }
}

/// Pairs each recognition with the position it was found in; a move moves that on.
fn recognized(found: Vec<Recognition>, mut position: Chess) -> Vec<BoardEvent> {
    let mut out = Vec::with_capacity(found.len());
    for recognition in found {
        let played = match &recognition {
            Recognition::Moved(m) => Some(*m),
            _ => None,
        };
        out.push(BoardEvent::Recognized {
            recognition,
            position: position.clone(),
        });
        if let Some(m) = played {
            position.play_unchecked(m);
        }
    }
    out
}

/// Whether the sensors' picture can be `position`: the same squares occupied, and the same
/// pieces where the board names them.
fn shows(picture: &Picture, position: &Chess) -> bool {
    let board = position.board();
    picture.iter().all(
        |(sq, state)| match (state.is_occupied(), board.piece_at(sq)) {
            (false, None) => true,
            (true, Some(piece)) => state.piece().is_none_or(|p| p == piece),
            _ => false,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::dgt::{BoardDump, FieldIndex, Orientation};
    use crate::board::peg;
    use crate::board::{SquareDiff, SquareState};
    use shakmaty::{Square, uci::UciMove};

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
        assert_eq!(
            step.events[0],
            BoardEvent::Message(BoardMessage::Note("version hector-peg 1 x".into()))
        );
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
