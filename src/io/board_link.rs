//! A board on a serial port, ready for the modes: a [`SerialLink`] (reader thread, writes,
//! reconnection) joined to the pure board core (the protocol's codec and the recognizer).
//!
//! Two layers. [`BoardDriver`] is sans-IO: it takes [`PortEvent`]s and instants and returns
//! [`BoardEvent`]s and the bytes to send, so it is tested without a port. [`BoardLink`] owns
//! the port, opened with the codec's rate and framing, and does the sending. A mode uses a
//! board with a few calls:
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
//!     if let Ok(event) = board.events().recv_timeout(Duration::from_millis(100)) {
//!         for event in board.handle(event) {
//!             println!("{event:?}");
//!         }
//!     }
//!     for event in board.tick() {
//!         println!("{event:?}");
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! After a reconnection the driver asks the board for its whole position (DGT: a board dump;
//! peg: `?`) and gives it to the recognizer, which compares it with the game: a move made
//! while the cable was out is recognised like any other, and a board that still shows the
//! game is reported as [`BoardEvent::InOrder`].

use std::path::Path;
use std::time::Instant;

use crossbeam_channel::Receiver;
use shakmaty::{CastlingMode, Chess, Role};

pub(crate) use crate::core::board::BoardDriver;
pub use crate::core::board::{BoardEvent, Protocol};
use crate::core::board::{Codec, PromotionError};
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
    /// Opens the board at `path` with the protocol's rate and framing (another rate if `baud`
    /// says so), expecting it to show `position`, and asks it for its position. Instants are
    /// measured from `origin`.
    pub fn open(
        path: &Path,
        protocol: Protocol,
        baud: Option<u32>,
        position: Chess,
        mode: CastlingMode,
        origin: Instant,
    ) -> Result<BoardLink, OpenError> {
        let mut driver = BoardDriver::new(protocol, position, mode);
        let serial = driver.codec().serial();
        let serial = baud.map_or(serial, |baud| serial.with_baud(baud));
        let link = SerialLink::open(path, PortSettings::new(serial), origin)?;
        // A failed first request is repeated by the DGT driver when updates come, and by a
        // peg board's heartbeat; nothing is lost by going on.
        let _ = link.write(&driver.connect());
        Ok(BoardLink {
            link,
            driver,
            origin,
        })
    }

    /// The protocol's codec: its name and words.
    pub(crate) fn codec(&self) -> &dyn Codec {
        self.driver.codec()
    }

    /// The reader thread's events, to select on together with other channels; pass each to
    /// [`BoardLink::handle`].
    pub fn events(&self) -> &Receiver<PortEvent> {
        self.link.events()
    }

    /// Now, on the link's clock.
    pub(crate) fn now(&self) -> Timestamp {
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

    /// The game moved on from elsewhere; see [`Recognizer::expect_position`].
    pub(crate) fn expect_position(
        &mut self,
        position: Chess,
        previous: Option<Chess>,
    ) -> Vec<BoardEvent> {
        self.driver.expect_position(position, previous)
    }

    /// The board must be set up to `position`; see [`Recognizer::expect_setup`].
    pub(crate) fn expect_setup(&mut self, position: Chess) -> Vec<BoardEvent> {
        self.driver.expect_setup(position)
    }

    /// The piece the player announced for a promotion the board could not read.
    pub(crate) fn choose_promotion(
        &mut self,
        role: Role,
    ) -> Result<Vec<BoardEvent>, PromotionError> {
        self.driver.choose_promotion(role)
    }
}
