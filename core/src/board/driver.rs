//! A board as the modes use it, without its port: the protocol's decoder (DGT or peg) joined
//! to the [`Recognizer`]. Sans-IO: it takes what the port's reader reported ([`PortEvent`])
//! and the instants, and returns the board's events and the bytes to send, so it is tested
//! without a port; `io::board_link` owns the port and does the sending.

use shakmaty::{CastlingMode, Chess, Position, Role};

use super::dgt::{self, DgtBoard, DgtMessage};
use super::peg::{self, PegCommand, PegDecoder, PegMessage};
use super::recognizer::DEFAULT_SETTLE;
use super::{Picture, PromotionError, Recognition, Recognizer, SensorEvent};
use crate::time::Timestamp;

/// DGT boards talk at 9600 baud.
pub const DGT_BAUD: u32 = 9600;
/// hector's peg protocol (docs/PEG-PROTOCOL.md).
pub const PEG_BAUD: u32 = 115_200;

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

/// Which protocol the board speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// DGT electronic boards (and boards that emulate them): pieces identified.
    Dgt,
    /// hector's peg protocol for tactile boards (docs/PEG-PROTOCOL.md).
    Peg,
}

impl Protocol {
    pub fn default_baud(self) -> u32 {
        match self {
            Protocol::Dgt => DGT_BAUD,
            Protocol::Peg => PEG_BAUD,
        }
    }

    /// Short lowercase name, as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Dgt => "dgt",
            Protocol::Peg => "peg",
        }
    }
}

/// A message from the board that is not a sensor reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardMessage {
    Dgt(DgtMessage),
    Peg(PegMessage),
}

/// What a board link reports, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardEvent {
    /// What the sensors reported, decoded from the protocol.
    Sensor(SensorEvent),
    /// Anything else the board said: version, buttons, faults, clock, lines not understood.
    Message(BoardMessage),
    /// Bytes (DGT) or lines (peg) the decoder had to drop since the last report: noise on the
    /// line, wrong checksums.
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

/// The sans-IO half of a board link: protocol decoding and move recognition.
#[derive(Clone, Debug)]
pub struct BoardDriver {
    protocol: Protocol,
    dgt: DgtBoard,
    peg: PegDecoder,
    /// Peg lines dropped by decoders replaced on reconnection.
    peg_dropped_before: u64,
    dropped_reported: u64,
    recognizer: Recognizer,
    /// Compare the next full reading with the game (after connecting).
    verify: bool,
}

impl BoardDriver {
    /// A driver for a board expected to show `position`. DGT boards identify pieces; peg
    /// boards are taken as occupancy-only (a peg board that names pieces is read all the same).
    pub fn new(protocol: Protocol, position: Chess, mode: CastlingMode) -> BoardDriver {
        let identifies = protocol == Protocol::Dgt;
        let recognizer = Recognizer::new(position, mode, identifies, DEFAULT_SETTLE);
        BoardDriver::with_recognizer(protocol, recognizer)
    }

    /// A driver with a recognizer set up by the caller (other pauses, a board orientation).
    pub fn with_recognizer(protocol: Protocol, recognizer: Recognizer) -> BoardDriver {
        BoardDriver {
            protocol,
            dgt: DgtBoard::new(),
            peg: PegDecoder::new(),
            peg_dropped_before: 0,
            dropped_reported: 0,
            recognizer,
            verify: false,
        }
    }

    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    pub fn recognizer(&self) -> &Recognizer {
        &self.recognizer
    }

    /// The position the board is expected to show.
    pub fn expected(&self) -> &Chess {
        self.recognizer.expected()
    }

    /// The bytes to send when the port has been opened (or opened again): ask for the whole
    /// board and for updates.
    pub fn connect(&mut self) -> Vec<u8> {
        self.verify = true;
        match self.protocol {
            Protocol::Dgt => self.dgt.connect().iter().flat_map(dgt::encode).collect(),
            Protocol::Peg => {
                // A line cut off by the unplugging must not join the first new one.
                self.peg_dropped_before += self.peg.bad_lines();
                self.peg = PegDecoder::new();
                let mut bytes = peg::encode(PegCommand::Version);
                bytes.extend(peg::encode(PegCommand::Snapshot));
                bytes
            }
        }
    }

    /// The bytes that ask the board for its whole position now; the reading that comes back
    /// is compared with the game ([`BoardEvent::InOrder`] when it agrees).
    pub fn request_position(&mut self) -> Vec<u8> {
        self.verify = true;
        match self.protocol {
            Protocol::Dgt => dgt::encode(&dgt::DgtCommand::SendBoard),
            Protocol::Peg => peg::encode(PegCommand::Snapshot),
        }
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
        match self.protocol {
            Protocol::Dgt => {
                let out = self.dgt.push(bytes);
                for ev in out.events {
                    self.feed(ev, at, &mut step.events);
                }
                step.events.extend(
                    out.messages
                        .into_iter()
                        .map(|m| BoardEvent::Message(BoardMessage::Dgt(m))),
                );
                step.send = out.commands.iter().flat_map(dgt::encode).collect();
            }
            Protocol::Peg => {
                for message in self.peg.push(bytes) {
                    match message.sensor_event() {
                        Some(ev) => self.feed(ev, at, &mut step.events),
                        None => step
                            .events
                            .push(BoardEvent::Message(BoardMessage::Peg(message))),
                    }
                }
            }
        }
        let dropped = self.dropped();
        if dropped > self.dropped_reported {
            step.events
                .push(BoardEvent::Dropped(dropped - self.dropped_reported));
            self.dropped_reported = dropped;
        }
        step
    }

    /// Everything the decoders dropped so far.
    pub fn dropped(&self) -> u64 {
        match self.protocol {
            Protocol::Dgt => self.dgt.dropped_bytes(),
            Protocol::Peg => self.peg_dropped_before + self.peg.bad_lines(),
        }
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
