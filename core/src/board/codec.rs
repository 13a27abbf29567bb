//! A board protocol as one value: what hector must know of a kind of board to open its port,
//! talk with it, tell what it said, and play it in the simulator.
//!
//! A protocol is a [`Codec`] (the host's end: name, port settings, requests, decoder, words
//! for the monitor) whose [`Codec::emulator`] is the board's end (the bytes a real board of
//! that kind sends, for the simulator and the tests). [`Protocol`](super::Protocol) (protocol.rs)
//! names the protocols hector speaks, and maps a name to its code in one place. Everything
//! above the core (the serial adapter, the driver, the monitor, the simulator, the command
//! line, the journal) goes through these, so a new protocol is a codec file of its own
//! (docs/ARCHITECTURE.md, "Adding a board protocol").

use std::fmt;

use shakmaty::{Board, Piece, Square};

use super::SensorEvent;

/// The host's end of a board protocol. Sans-IO: bytes in, what they mean and the bytes to send
/// out; the adapter owns the port, opened with [`Codec::serial`].
pub trait Codec: fmt::Debug + Send {
    /// Short lowercase name: on the command line, in journals and game files, and first on the
    /// monitor's raw lines ("peg: e2 lifted").
    fn name(&self) -> &'static str;

    /// The boards that speak it, in a few words for `--help`.
    fn summary(&self) -> &'static str;

    /// How the port is opened: rate and framing (the user may choose another rate).
    fn serial(&self) -> SerialSettings;

    /// Whether the board names the pieces it senses. When it does not, hector knows them from
    /// the game and follows the order of lifts and placements.
    fn identifies_pieces(&self) -> bool;

    /// The bytes to send when the port has been opened, or opened again after an unplugging:
    /// ask for the whole board and for what changes. A message cut off by the unplugging is
    /// forgotten; the count of what was dropped is kept.
    fn connect(&mut self) -> Vec<u8>;

    /// The bytes that ask the board for its whole position now.
    fn request_position(&mut self) -> Vec<u8>;

    /// Bytes from the board, split anywhere: what they say, in order, and what to send back.
    /// Never fails: what cannot be read is dropped and counted ([`Codec::dropped`]).
    fn decode(&mut self, bytes: &[u8]) -> Decoded;

    /// Everything dropped so far, in the protocol's unit ([`Codec::dropped_words`]).
    fn dropped(&self) -> u64;

    /// `count` dropped units in the monitor's words: "3 bytes dropped (noise or damaged
    /// messages)".
    fn dropped_words(&self, count: u64) -> String;

    /// The board's end of the protocol, for the simulator and the tests. `identifies` asks a
    /// board that is built either way (peg) to name its pieces.
    fn emulator(&self, identifies: bool) -> Box<dyn Emulator>;
}

/// What [`Codec::decode`] made of some bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    /// What the board said, in the order it said it.
    pub heard: Vec<Heard>,
    /// Bytes to send to the board (a DGT board whose picture has become impossible is asked
    /// for the whole board).
    pub(crate) send: Vec<u8>,
}

/// One thing a board said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// A sensor reading, for the recognizer.
    Sensor(SensorEvent),
    /// Anything else.
    Message(BoardMessage),
}

/// A message from the board that is not a sensor reading, in the protocol's own words. Its text
/// comes from outside: whoever shows it makes it printable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardMessage {
    /// A fault the board reports about itself ("sensor c3 does not answer"): told the player.
    Fault(String),
    /// A button on the board was pressed ("done").
    Button(String),
    /// Anything else, as the monitor writes it after the protocol's name: "version 1.7",
    /// "line not understood: …", "clock left 0:05:00, right 0:05:00, running".
    Note(String),
}

/// The board's end of a protocol: the bytes a real board of the kind sends, so that the
/// simulator (`hector simulate-board`) and the tests play one through the same codec the host
/// reads it with. Sans-IO: the simulator keeps the pieces and the game, and hands the board
/// after each change.
pub trait Emulator: fmt::Debug + Send {
    /// The kind of board, for the simulator's first line: "DGT", "peg (occupancy only)".
    fn title(&self) -> String;

    /// Whether the board reads its squares in scans (a DGT board every 200–250 ms) rather than
    /// each hole as the hand changes it: a scanned board shows a capturing piece on its target
    /// before its start square empty, and a sliding piece on the squares it passes.
    fn scans(&self) -> bool;

    /// Whether the host has connected since power-up and hears the sensors (a DGT host asked
    /// for updates, a peg host for a snapshot).
    fn host_ready(&self) -> bool;

    /// The board was switched on again (plugged in): as after power-up.
    fn power_up(&mut self);

    /// What the board sends when the sensor of `square` sees `piece` (`None`: emptied); `board`
    /// is the board after the change. `None` when it says nothing (a DGT board before the host
    /// asked for updates).
    fn report(&self, board: &Board, square: Square, piece: Option<Piece>) -> Option<Vec<u8>>;

    /// The whole board, unasked (a DGT board dump, a peg `S` line).
    fn snapshot(&self, board: &Board) -> Vec<u8>;

    /// The board's answers to bytes from the host, one chunk per answer; `board` is what
    /// stands on it.
    fn answer(&mut self, bytes: &[u8], board: &Board) -> Vec<Vec<u8>>;

    /// Random `bytes` as they reach the host between the protocol's messages (a text
    /// protocol's noise ends its line, so that the next message is whole).
    fn noise(&self, bytes: Vec<u8>) -> Vec<u8>;

    /// `text` as one message of a text protocol (peg: its checksum added unless it has one);
    /// `None` for a binary protocol.
    fn line(&self, text: &str) -> Option<Vec<u8>>;
}

/// How a serial port is opened: the rate and the framing of each character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SerialSettings {
    pub baud: u32,
    pub data_bits: DataBits,
    pub parity: Parity,
    pub stop_bits: StopBits,
    pub flow_control: FlowControl,
}

impl SerialSettings {
    /// `baud`, 8 data bits, no parity, 1 stop bit, no flow control ("8N1"), as most boards.
    pub const fn eight_n_one(baud: u32) -> SerialSettings {
        SerialSettings {
            baud,
            data_bits: DataBits::Eight,
            parity: Parity::None,
            stop_bits: StopBits::One,
            flow_control: FlowControl::None,
        }
    }

    /// The same framing at another rate (the user's `--baud`).
    pub fn with_baud(self, baud: u32) -> SerialSettings {
        SerialSettings { baud, ..self }
    }
}

impl fmt::Display for SerialSettings {
    /// "9600 baud 8N1", "38400 baud 7O1", with the flow control when there is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits = match self.data_bits {
            DataBits::Five => 5,
            DataBits::Six => 6,
            DataBits::Seven => 7,
            DataBits::Eight => 8,
        };
        let parity = match self.parity {
            Parity::None => 'N',
            Parity::Odd => 'O',
            Parity::Even => 'E',
        };
        let stop = match self.stop_bits {
            StopBits::One => 1,
            StopBits::Two => 2,
        };
        write!(f, "{} baud {bits}{parity}{stop}", self.baud)?;
        match self.flow_control {
            FlowControl::None => Ok(()),
            FlowControl::Software => write!(f, ", XON/XOFF"),
            FlowControl::Hardware => write!(f, ", RTS/CTS"),
        }
    }
}

/// Data bits per character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataBits {
    Five,
    Six,
    Seven,
    Eight,
}

/// The parity bit of each character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parity {
    None,
    Odd,
    Even,
}

/// Stop bits after each character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopBits {
    One,
    Two,
}

/// Who may pause the other side's sending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlowControl {
    None,
    /// XON/XOFF characters in the data.
    Software,
    /// The RTS and CTS lines.
    Hardware,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_written_as_boards_print_them() {
        assert_eq!(
            SerialSettings::eight_n_one(9600).to_string(),
            "9600 baud 8N1"
        );
        let chesslink = SerialSettings {
            baud: 38_400,
            data_bits: DataBits::Seven,
            parity: Parity::Odd,
            stop_bits: StopBits::One,
            flow_control: FlowControl::None,
        };
        assert_eq!(chesslink.to_string(), "38400 baud 7O1");
        assert_eq!(
            chesslink.with_baud(9600).to_string(),
            "9600 baud 7O1",
            "only the rate changes"
        );
        let flow = SerialSettings {
            stop_bits: StopBits::Two,
            parity: Parity::Even,
            flow_control: FlowControl::Hardware,
            ..SerialSettings::eight_n_one(19_200)
        };
        assert_eq!(flow.to_string(), "19200 baud 8E2, RTS/CTS");
    }
}
