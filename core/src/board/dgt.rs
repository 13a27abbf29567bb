//! The DGT electronic board protocol: host commands, a decoder for the board's messages, and
//! [`DgtBoard`], a small driver that keeps the board's picture and turns messages into
//! [`SensorEvent`]s. Facts from docs `board-protocols.md` (DGT's public header).
//!
//! Wire format, board to host: `id len_hi len_lo payload…` where `id` has the high bit set,
//! the 14-bit length counts the whole message and every other byte has the high bit clear.

use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use super::codec::{BoardMessage, Codec, Decoded, Emulator, Heard, SerialSettings};
use super::{Picture, SensorEvent, SquareState};

/// The longest message the 14-bit length field can announce (the tests send one).
#[cfg(test)]
const MAX_MESSAGE_LEN: usize = 0x3fff;

const HEADER_LEN: usize = 3;

// Message ids, board to host (0x80 | code).
const MSG_BOARD_DUMP: u8 = 0x86;
const MSG_BWTIME: u8 = 0x8d;
const MSG_FIELD_UPDATE: u8 = 0x8e;
const MSG_EE_MOVES: u8 = 0x8f;
const MSG_BUSADRES: u8 = 0x90;
const MSG_SERIALNR: u8 = 0x91;
const MSG_TRADEMARK: u8 = 0x92;
const MSG_VERSION: u8 = 0x93;
const MSG_BATTERY_STATUS: u8 = 0xa0;
const MSG_LONG_SERIALNR: u8 = 0xa2;

/// A command from host to board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(
    dead_code,
    reason = "the protocol's whole command set, encoded and tested against the protocol facts; \
              hector sends the board and update requests, a clock or LED feature the rest"
)]
pub(crate) enum DgtCommand {
    /// SEND_RESET: the board goes idle (no more updates).
    Reset,
    /// SEND_CLK: answered by a clock message.
    SendClock,
    /// SEND_BRD: answered by a board dump. Does not change the update mode.
    SendBoard,
    /// SEND_UPDATE: field updates, and clock messages at least every second.
    SendUpdate,
    /// SEND_UPDATE_BRD: field updates only.
    SendUpdateBoard,
    /// RETURN_SERIALNR
    ReturnSerialNumber,
    /// RETURN_BUSADRES
    ReturnBusAddress,
    /// SEND_TRADEMARK
    SendTrademark,
    /// SEND_EE_MOVES: the board's stored history of field changes.
    SendEeMoves,
    /// SEND_UPDATE_NICE: field updates, clock messages only when the time changes.
    SendUpdateNice,
    /// SEND_BATTERY_STATUS
    SendBatteryStatus,
    /// SEND_VERSION
    SendVersion,
    /// RETURN_LONG_SERIALNR
    ReturnLongSerialNumber,
    /// SET_LEDS (Revelation II): light the fields `start..=end` with `pattern` (0 off, 1 on).
    SetLeds {
        pattern: u8,
        start: FieldIndex,
        end: FieldIndex,
    },
    /// CLOCK_MESSAGE: a command for a DGT 3000 / XL clock attached to the board.
    Clock(ClockCommand),
}

/// A clock command wrapped in CLOCK_MESSAGE; built by [`ClockCommand::new`], which keeps the
/// size byte within range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClockCommand {
    command: u8,
    payload: Vec<u8>,
}

/// The most payload a clock command can carry: its size byte also counts three framing bytes.
pub(crate) const MAX_CLOCK_PAYLOAD: usize = 255 - 3;

#[expect(dead_code, reason = "with the clock commands of DgtCommand")]
impl ClockCommand {
    /// `command` is the clock command id (e.g. 0x0b beep), `payload` its content.
    pub(crate) fn new(command: u8, payload: &[u8]) -> Result<ClockCommand, DgtCommandError> {
        if payload.len() > MAX_CLOCK_PAYLOAD {
            return Err(DgtCommandError::ClockPayloadTooLong { len: payload.len() });
        }
        Ok(ClockCommand {
            command,
            payload: payload.to_vec(),
        })
    }

    pub(crate) fn command(&self) -> u8 {
        self.command
    }

    pub(crate) fn payload(&self) -> &[u8] {
        &self.payload
    }
}

/// Why a command cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum DgtCommandError {
    #[error(
        "a clock command carries at most {MAX_CLOCK_PAYLOAD} bytes of payload, this one has {len}"
    )]
    ClockPayloadTooLong { len: usize },
}

/// The bytes to send for `cmd`.
pub(crate) fn encode(cmd: &DgtCommand) -> Vec<u8> {
    match cmd {
        DgtCommand::Reset => vec![0x40],
        DgtCommand::SendClock => vec![0x41],
        DgtCommand::SendBoard => vec![0x42],
        DgtCommand::SendUpdate => vec![0x43],
        DgtCommand::SendUpdateBoard => vec![0x44],
        DgtCommand::ReturnSerialNumber => vec![0x45],
        DgtCommand::ReturnBusAddress => vec![0x46],
        DgtCommand::SendTrademark => vec![0x47],
        DgtCommand::SendEeMoves => vec![0x49],
        DgtCommand::SendUpdateNice => vec![0x4b],
        DgtCommand::SendBatteryStatus => vec![0x4c],
        DgtCommand::SendVersion => vec![0x4d],
        DgtCommand::ReturnLongSerialNumber => vec![0x55],
        DgtCommand::SetLeds {
            pattern,
            start,
            end,
        } => vec![0x60, 0x04, *pattern, start.get(), end.get(), 0x00],
        DgtCommand::Clock(clock) => {
            // The size byte counts what follows it: start marker, command, payload, end marker.
            let size = u8::try_from(clock.payload.len() + 3).unwrap_or(u8::MAX);
            let mut bytes = Vec::with_capacity(clock.payload.len() + 5);
            bytes.extend_from_slice(&[0x2b, size, 0x03, clock.command]);
            bytes.extend_from_slice(&clock.payload);
            bytes.push(0x00);
            bytes
        }
    }
}

/// A field number as the board sends it (0..64): 0 is a8 and 63 is h1 when the board is not
/// turned round. Which square it is depends on the [`Orientation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldIndex(u8);

impl FieldIndex {
    pub(crate) fn new(index: u8) -> Option<FieldIndex> {
        (index < 64).then_some(FieldIndex(index))
    }

    pub(crate) fn get(self) -> u8 {
        self.0
    }

    pub(crate) fn square(self, orientation: Orientation) -> Square {
        let i = u32::from(self.0);
        // index = (8 − rank) · 8 + file, with ranks counted from 1.
        let normal = Square::from_coords(File::new(i % 8), Rank::new(7 - i / 8));
        match orientation {
            Orientation::Normal => normal,
            Orientation::TurnedRound => normal.rotate_180(),
        }
    }

    pub(crate) fn of_square(sq: Square, orientation: Orientation) -> FieldIndex {
        let normal = match orientation {
            Orientation::Normal => sq,
            Orientation::TurnedRound => sq.rotate_180(),
        };
        let index = (7 - normal.rank().to_u32()) * 8 + normal.file().to_u32();
        // Both factors are below 8, so the index is below 64.
        FieldIndex(index as u8)
    }

    /// All 64 fields in wire order.
    pub(crate) fn all() -> impl Iterator<Item = FieldIndex> {
        (0..64).map(FieldIndex)
    }
}

/// How the board lies in front of the players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum Orientation {
    /// White plays from the side where field 0 is a8 (the header's normal use).
    #[default]
    Normal,
    /// The board is turned round: field 0 is h1, everything is mirrored through the centre.
    TurnedRound,
}

/// The special "magic" pieces of piece codes 13–15. They are not chess pieces: DGT's header
/// names them draw, white wins and black wins (signals some software reads from the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MagicPiece {
    Draw,
    WhiteWins,
    BlackWins,
}

/// The content of one field as the board reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DgtField {
    #[default]
    Empty,
    Piece(Piece),
    Magic(MagicPiece),
}

impl DgtField {
    /// Piece codes 0–15; `None` for codes the protocol does not define.
    pub(crate) fn from_code(code: u8) -> Option<DgtField> {
        use Role::*;
        // Within a colour the order is pawn, rook, knight, bishop, king, queen.
        const ROLES: [Role; 6] = [Pawn, Rook, Knight, Bishop, King, Queen];
        Some(match code {
            0 => DgtField::Empty,
            1..=12 => {
                let i = usize::from(code - 1);
                let color = if i < 6 { Color::White } else { Color::Black };
                DgtField::Piece(Piece {
                    color,
                    role: ROLES[i % 6],
                })
            }
            13 => DgtField::Magic(MagicPiece::Draw),
            14 => DgtField::Magic(MagicPiece::WhiteWins),
            15 => DgtField::Magic(MagicPiece::BlackWins),
            _ => return None,
        })
    }

    pub(crate) fn code(self) -> u8 {
        match self {
            DgtField::Empty => 0,
            DgtField::Piece(Piece { color, role }) => {
                let base = match role {
                    Role::Pawn => 1,
                    Role::Rook => 2,
                    Role::Knight => 3,
                    Role::Bishop => 4,
                    Role::King => 5,
                    Role::Queen => 6,
                };
                color.fold_wb(base, base + 6)
            }
            DgtField::Magic(MagicPiece::Draw) => 13,
            DgtField::Magic(MagicPiece::WhiteWins) => 14,
            DgtField::Magic(MagicPiece::BlackWins) => 15,
        }
    }

    /// The chess piece, if one stands here (never for a magic piece).
    pub(crate) fn piece(self) -> Option<Piece> {
        match self {
            DgtField::Piece(p) => Some(p),
            _ => None,
        }
    }

    /// What the recognizer is told: a magic piece is an object on the square that is no
    /// chess piece, reported as an occupant the board cannot name.
    pub(crate) fn state(self) -> SquareState {
        match self {
            DgtField::Empty => SquareState::Empty,
            DgtField::Piece(p) => SquareState::Occupied(Some(p)),
            DgtField::Magic(_) => SquareState::Occupied(None),
        }
    }
}

/// A BOARD_DUMP: all 64 fields in wire order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardDump([DgtField; 64]);

impl BoardDump {
    #[cfg(test)]
    pub(crate) fn from_fields(fields: [DgtField; 64]) -> BoardDump {
        BoardDump(fields)
    }

    /// The dump a board showing `board` in `orientation` sends.
    pub(crate) fn of_board(board: &Board, orientation: Orientation) -> BoardDump {
        let mut fields = [DgtField::Empty; 64];
        for (sq, piece) in board {
            fields[usize::from(FieldIndex::of_square(sq, orientation).get())] =
                DgtField::Piece(piece);
        }
        BoardDump(fields)
    }

    pub(crate) fn field(&self, index: FieldIndex) -> DgtField {
        self.0[usize::from(index.get())]
    }

    pub(crate) fn fields(&self) -> &[DgtField; 64] {
        &self.0
    }

    pub(crate) fn picture(&self, orientation: Orientation) -> Picture {
        let mut picture = Picture::EMPTY;
        for index in FieldIndex::all() {
            picture.set(index.square(orientation), self.field(index).state());
        }
        picture
    }

    /// The chess pieces on the board (magic pieces left out).
    pub(crate) fn board(&self, orientation: Orientation) -> Board {
        let mut board = Board::empty();
        for index in FieldIndex::all() {
            if let Some(piece) = self.field(index).piece() {
                board.set_piece_at(index.square(orientation), piece);
            }
        }
        board
    }

    /// The orientation in which this dump shows a start position (standard or any Chess960
    /// start), if it shows one. A start position turned round has white on ranks 7 and 8,
    /// which is no start position, so at most one orientation fits.
    pub(crate) fn start_orientation(&self) -> Option<Orientation> {
        if self.0.iter().any(|f| matches!(f, DgtField::Magic(_))) {
            return None;
        }
        [Orientation::Normal, Orientation::TurnedRound]
            .into_iter()
            .find(|&o| is_start_position(&self.board(o)))
    }
}

fn is_start_position(board: &Board) -> bool {
    // Every Chess960 start has the standard occupancy; checking it first keeps this cheap.
    board.occupied() == Board::new().occupied() && (0..960).any(|n| Board::chess960(n) == *board)
}

/// A clock reading: hours 0–9, minutes and seconds 0–59.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ClockTime {
    pub(crate) hours: u8,
    pub(crate) minutes: u8,
    pub(crate) seconds: u8,
}

/// One player's side of a BWTIME message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ClockSide {
    /// `None` when the digits are not valid BCD (e.g. no clock connected).
    pub(crate) time: Option<ClockTime>,
    /// Bits 4–6 of the hours byte as sent: 0x10 flag fallen and clock blocked at zero,
    /// 0x20 time-per-move indicator, 0x40 flag fallen and shown.
    pub(crate) flags: u8,
}

impl ClockSide {
    #[cfg(test)]
    pub(crate) fn flag_fallen(self) -> bool {
        self.flags & 0x50 != 0
    }

    fn decode(hours: u8, minutes: u8, seconds: u8) -> ClockSide {
        let time = (|| {
            let hours = hours & 0x0f;
            let minutes = bcd(minutes).filter(|&m| m < 60)?;
            let seconds = bcd(seconds).filter(|&s| s < 60)?;
            (hours <= 9).then_some(ClockTime {
                hours,
                minutes,
                seconds,
            })
        })();
        ClockSide {
            time,
            flags: hours & 0x70,
        }
    }
}

fn bcd(byte: u8) -> Option<u8> {
    let (tens, units) = (byte >> 4, byte & 0x0f);
    (tens <= 9 && units <= 9).then_some(tens * 10 + units)
}

/// The clock times of a BWTIME message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DgtClock {
    pub(crate) right: ClockSide,
    pub(crate) left: ClockSide,
    /// The status byte as sent; see the accessors.
    pub(crate) status: u8,
}

impl DgtClock {
    pub(crate) fn running(&self) -> bool {
        self.status & 0x01 != 0
    }

    #[cfg(test)]
    pub(crate) fn battery_low(&self) -> bool {
        self.status & 0x04 != 0
    }

    #[cfg(test)]
    pub(crate) fn right_to_move(&self) -> bool {
        self.status & 0x08 != 0
    }

    #[cfg(test)]
    pub(crate) fn left_to_move(&self) -> bool {
        self.status & 0x10 != 0
    }

    /// No clock is connected: the times are not valid.
    #[cfg(test)]
    pub(crate) fn no_clock(&self) -> bool {
        self.status & 0x20 != 0
    }
}

/// A BWTIME message that acknowledges a clock command: bytes 3–9 as sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockAck(pub [u8; 7]);

impl ClockAck {
    /// The four acknowledgement bytes, reassembled from their 7-bit carriers as DGT's header
    /// describes (ack1 is the acknowledged command, or has bit 7 set for clock-initiated acks).
    pub(crate) fn ack(&self) -> [u8; 4] {
        let [b3, b4, b5, b6, b7, b8, _] = self.0;
        [
            (b4 & 0x7f) | ((b6 << 3) & 0x80),
            (b5 & 0x7f) | ((b6 << 2) & 0x80),
            (b7 & 0x7f) | ((b3 << 3) & 0x80),
            (b8 & 0x7f) | ((b3 << 2) & 0x80),
        ]
    }
}

/// A message from the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DgtMessage {
    BoardDump(BoardDump),
    Clock(DgtClock),
    ClockAck(ClockAck),
    FieldUpdate {
        field: FieldIndex,
        value: DgtField,
    },
    /// The board's stored history of field changes, undecoded.
    EeMoves(Vec<u8>),
    BusAddress(u16),
    SerialNumber(String),
    Trademark(String),
    Version {
        main: u8,
        sub: u8,
    },
    /// Undecoded: layouts differ between boards, so the length in the header is trusted.
    BatteryStatus(Vec<u8>),
    LongSerialNumber(String),
    /// A well-framed message with an id this decoder does not know (`id` with its high bit).
    Unknown {
        id: u8,
        payload: Vec<u8>,
    },
}

/// Turns the board's byte stream into messages. Bytes may arrive split anywhere; anything
/// that cannot be part of a well-formed message is dropped and counted, never fatal.
#[derive(Clone, Debug, Default)]
pub struct DgtDecoder {
    /// The message being received, from its id byte on.
    buf: Vec<u8>,
    dropped: u64,
}

impl DgtDecoder {
    pub fn new() -> DgtDecoder {
        DgtDecoder::default()
    }

    pub fn push(&mut self, bytes: &[u8]) -> Vec<DgtMessage> {
        let mut out = Vec::new();
        for &byte in bytes {
            if byte & 0x80 != 0 {
                // Only an id byte has the high bit set: whatever was pending is cut off.
                self.drop_pending();
                self.buf.push(byte);
                continue;
            }
            if self.buf.is_empty() {
                self.dropped += 1;
                continue;
            }
            self.buf.push(byte);
            if self.buf.len() < HEADER_LEN {
                continue;
            }
            let len = (usize::from(self.buf[1]) << 7) | usize::from(self.buf[2]);
            if len < HEADER_LEN {
                self.drop_pending();
            } else if self.buf.len() == len {
                match parse(&self.buf) {
                    Some(message) => out.push(message),
                    None => self.dropped += len as u64,
                }
                self.buf.clear();
            }
        }
        out
    }

    /// Bytes dropped so far: garbage between messages, cut-off and malformed messages.
    pub(crate) fn dropped_bytes(&self) -> u64 {
        self.dropped
    }

    fn drop_pending(&mut self) {
        self.dropped += self.buf.len() as u64;
        self.buf.clear();
    }
}

/// A complete message (header included) to its meaning; `None` if it is malformed.
fn parse(message: &[u8]) -> Option<DgtMessage> {
    let [id, _, _, payload @ ..] = message else {
        return None;
    };
    let ascii = |bytes: &[u8]| bytes.iter().map(|&b| char::from(b)).collect::<String>();
    Some(match *id {
        MSG_BOARD_DUMP => {
            let mut fields = [DgtField::Empty; 64];
            if payload.len() != fields.len() {
                return None;
            }
            for (field, &code) in fields.iter_mut().zip(payload) {
                *field = DgtField::from_code(code)?;
            }
            DgtMessage::BoardDump(BoardDump(fields))
        }
        MSG_BWTIME => {
            let &[rh, rm, rs, lh, lm, ls, status] = payload else {
                return None;
            };
            if rh & 0x0f == 0x0a || lh & 0x0f == 0x0a {
                DgtMessage::ClockAck(ClockAck([rh, rm, rs, lh, lm, ls, status]))
            } else {
                DgtMessage::Clock(DgtClock {
                    right: ClockSide::decode(rh, rm, rs),
                    left: ClockSide::decode(lh, lm, ls),
                    status,
                })
            }
        }
        MSG_FIELD_UPDATE => {
            let &[field, code] = payload else {
                return None;
            };
            DgtMessage::FieldUpdate {
                field: FieldIndex::new(field)?,
                value: DgtField::from_code(code)?,
            }
        }
        MSG_EE_MOVES => DgtMessage::EeMoves(payload.to_vec()),
        MSG_BUSADRES => {
            let &[hi, lo] = payload else {
                return None;
            };
            DgtMessage::BusAddress((u16::from(hi) << 7) | u16::from(lo))
        }
        MSG_SERIALNR => DgtMessage::SerialNumber(ascii(payload)),
        MSG_TRADEMARK => DgtMessage::Trademark(ascii(payload)),
        MSG_VERSION => {
            let &[main, sub] = payload else {
                return None;
            };
            DgtMessage::Version { main, sub }
        }
        MSG_BATTERY_STATUS => DgtMessage::BatteryStatus(payload.to_vec()),
        MSG_LONG_SERIALNR => DgtMessage::LongSerialNumber(ascii(payload)),
        _ => DgtMessage::Unknown {
            id: *id,
            payload: payload.to_vec(),
        },
    })
}

/// What [`DgtBoard`] makes of incoming bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct DgtOutput {
    /// For the recognizer.
    pub(crate) events: Vec<SensorEvent>,
    /// To send to the board.
    pub(crate) commands: Vec<DgtCommand>,
    /// Messages the driver does not consume itself (clock, identification, …).
    pub(crate) messages: Vec<DgtMessage>,
}

/// Field updates tolerated while a requested dump has not come before asking again (the
/// request or its answer may have been lost on the line).
const UPDATES_BEFORE_ASKING_AGAIN: u32 = 16;

/// A sans-IO driver for one DGT board: keeps the board's picture, detects its orientation
/// from a dump of a start position, and asks for a full dump only when it must (on connect,
/// and when the picture is unknown or has become impossible).
#[derive(Clone, Debug, Default)]
pub(crate) struct DgtBoard {
    decoder: DgtDecoder,
    /// Wire order; `None` until a dump arrived.
    fields: Option<[DgtField; 64]>,
    orientation: Orientation,
    /// Set by [`DgtBoard::with_orientation`]: never detect.
    orientation_fixed: bool,
    dump_requested: bool,
    updates_since_request: u32,
}

impl DgtBoard {
    /// Orientation normal until a dump of a start position shows otherwise.
    pub(crate) fn new() -> DgtBoard {
        DgtBoard::default()
    }

    /// A board whose orientation the user has set; dumps do not change it.
    #[allow(
        dead_code,
        reason = "no option sets the orientation yet; detection from the start position serves"
    )]
    pub(crate) fn with_orientation(orientation: Orientation) -> DgtBoard {
        DgtBoard {
            orientation,
            orientation_fixed: true,
            ..DgtBoard::default()
        }
    }

    /// The commands to send after opening the port: a dump, then field updates.
    pub(crate) fn connect(&mut self) -> Vec<DgtCommand> {
        self.fields = None;
        self.dump_requested = true;
        self.updates_since_request = 0;
        vec![DgtCommand::SendBoard, DgtCommand::SendUpdateBoard]
    }

    pub(crate) fn push(&mut self, bytes: &[u8]) -> DgtOutput {
        let mut out = DgtOutput::default();
        for message in self.decoder.push(bytes) {
            match message {
                DgtMessage::BoardDump(dump) => self.on_dump(&dump, &mut out),
                DgtMessage::FieldUpdate { field, value } => self.on_update(field, value, &mut out),
                other => out.messages.push(other),
            }
        }
        out
    }

    #[cfg(test)]
    fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// The board's current picture, once a dump has arrived.
    #[cfg(test)]
    fn picture(&self) -> Option<Picture> {
        self.fields
            .map(|fields| BoardDump(fields).picture(self.orientation))
    }

    pub(crate) fn dropped_bytes(&self) -> u64 {
        self.decoder.dropped_bytes()
    }

    fn on_dump(&mut self, dump: &BoardDump, out: &mut DgtOutput) {
        if !self.orientation_fixed
            && let Some(orientation) = dump.start_orientation()
        {
            self.orientation = orientation;
        }
        self.fields = Some(dump.0);
        self.dump_requested = false;
        out.events
            .push(SensorEvent::Snapshot(dump.picture(self.orientation)));
    }

    fn on_update(&mut self, field: FieldIndex, value: DgtField, out: &mut DgtOutput) {
        let sq = field.square(self.orientation);
        let event = match value {
            DgtField::Empty => SensorEvent::Lifted(sq),
            other => SensorEvent::Placed(sq, other.piece()),
        };
        let consistent = match &mut self.fields {
            Some(fields) => {
                let slot = &mut fields[usize::from(field.get())];
                if *slot == value {
                    // Nothing changed for us: the picture already had it.
                    return;
                }
                *slot = value;
                plausible(fields)
            }
            None => false,
        };
        out.events.push(event);
        if consistent {
            return;
        }
        if !self.dump_requested {
            self.request_dump(out);
        } else {
            self.updates_since_request += 1;
            if self.updates_since_request >= UPDATES_BEFORE_ASKING_AGAIN {
                self.request_dump(out);
            }
        }
    }

    fn request_dump(&mut self, out: &mut DgtOutput) {
        out.commands.push(DgtCommand::SendBoard);
        self.dump_requested = true;
        self.updates_since_request = 0;
    }
}

/// Whether the pieces could come from one set per side in a game: one king at most, eight
/// pawns at most, and no more extra pieces than pawns missing (promotions). Fewer pieces are
/// always possible (pieces in a hand).
fn plausible(fields: &[DgtField; 64]) -> bool {
    Color::ALL.into_iter().all(|color| {
        let count = |role: Role| {
            fields
                .iter()
                .filter(|f| f.piece() == Some(Piece { color, role }))
                .count()
        };
        let pawns = count(Role::Pawn);
        let extra: usize = [
            (Role::Queen, 1),
            (Role::Rook, 2),
            (Role::Bishop, 2),
            (Role::Knight, 2),
        ]
        .into_iter()
        .map(|(role, start)| count(role).saturating_sub(start))
        .sum();
        count(Role::King) <= 1 && pawns <= 8 && pawns + extra <= 8
    })
}

/// The DGT protocol as hector's [`Codec`]: a [`DgtBoard`] behind the port's bytes.
#[derive(Clone, Debug)]
pub(crate) struct DgtCodec {
    board: DgtBoard,
}

impl DgtCodec {
    pub(crate) fn new() -> DgtCodec {
        DgtCodec {
            board: DgtBoard::new(),
        }
    }
}

impl Codec for DgtCodec {
    fn name(&self) -> &'static str {
        "dgt"
    }

    fn summary(&self) -> &'static str {
        "DGT electronic boards, and boards that speak their protocol; they identify every piece"
    }

    fn serial(&self) -> SerialSettings {
        SerialSettings::eight_n_one(9600)
    }

    fn identifies_pieces(&self) -> bool {
        true
    }

    fn connect(&mut self) -> Vec<u8> {
        self.board.connect().iter().flat_map(encode).collect()
    }

    fn request_position(&mut self) -> Vec<u8> {
        encode(&DgtCommand::SendBoard)
    }

    fn decode(&mut self, bytes: &[u8]) -> Decoded {
        let out = self.board.push(bytes);
        let sensors = out.events.into_iter().map(Heard::Sensor);
        let messages = out
            .messages
            .iter()
            .map(|m| Heard::Message(BoardMessage::Note(note(m))));
        Decoded {
            heard: sensors.chain(messages).collect(),
            send: out.commands.iter().flat_map(encode).collect(),
        }
    }

    fn dropped(&self) -> u64 {
        self.board.dropped_bytes()
    }

    fn dropped_words(&self, count: u64) -> String {
        let plural = if count == 1 { "" } else { "s" };
        format!("{count} byte{plural} dropped (noise or damaged messages)")
    }

    fn emulator(&self, _identifies: bool) -> Box<dyn Emulator> {
        Box::new(DgtEmulator::default())
    }
}

/// A message in the protocol's terms, for the monitor.
fn note(m: &DgtMessage) -> String {
    let hex = |bytes: &[u8]| {
        bytes
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let field = |f: &DgtField| match f {
        DgtField::Empty => "empty".to_string(),
        DgtField::Piece(piece) => piece.char().to_string(),
        DgtField::Magic(MagicPiece::Draw) => "draw marker".to_string(),
        DgtField::Magic(MagicPiece::WhiteWins) => "white wins marker".to_string(),
        DgtField::Magic(MagicPiece::BlackWins) => "black wins marker".to_string(),
    };
    let side = |s: &ClockSide| match s.time {
        Some(t) => format!("{}:{:02}:{:02}", t.hours, t.minutes, t.seconds),
        None => "no time".to_string(),
    };
    match m {
        DgtMessage::BoardDump(_) => "board dump".to_string(),
        DgtMessage::Clock(c) => format!(
            "clock left {}, right {}, {}",
            side(&c.left),
            side(&c.right),
            if c.running() { "running" } else { "stopped" }
        ),
        DgtMessage::ClockAck(a) => format!("clock acknowledges {}", hex(&a.ack())),
        DgtMessage::FieldUpdate {
            field: index,
            value,
        } => {
            format!("field {} {}", index.get(), field(value))
        }
        DgtMessage::EeMoves(bytes) => format!("stored history, {} bytes", bytes.len()),
        DgtMessage::BusAddress(a) => format!("bus address {a}"),
        DgtMessage::BatteryStatus(bytes) => format!("battery status {}", hex(bytes)),
        DgtMessage::Unknown { id, payload } if payload.is_empty() => {
            format!("unknown message {id:#04x}, no content")
        }
        DgtMessage::Unknown { id, payload } => {
            format!("unknown message {id:#04x}: {}", hex(payload))
        }
        DgtMessage::Version { main, sub } => format!("version {main}.{sub}"),
        DgtMessage::Trademark(text) => format!("trademark {}", text.trim()),
        DgtMessage::SerialNumber(text) | DgtMessage::LongSerialNumber(text) => {
            format!("serial number {}", text.trim())
        }
    }
}

/// What the simulated board answers to the version requests.
const EMULATED_VERSION: [u8; 2] = [1, 7];
const EMULATED_TRADEMARK: &[u8] = b"hector simulated board";
const EMULATED_SERIAL: &[u8] = b"00001";

/// A DGT board as the simulator plays it: silent until the host asks for updates, then a
/// field update for every change; it answers the board, version, trademark and serial number
/// requests.
#[derive(Clone, Debug, Default)]
pub(crate) struct DgtEmulator {
    /// The host asked for field updates.
    updates: bool,
}

impl Emulator for DgtEmulator {
    fn title(&self) -> String {
        "DGT".to_owned()
    }

    fn scans(&self) -> bool {
        true
    }

    fn host_ready(&self) -> bool {
        self.updates
    }

    fn power_up(&mut self) {
        self.updates = false;
    }

    fn report(&self, _board: &Board, square: Square, piece: Option<Piece>) -> Option<Vec<u8>> {
        if !self.updates {
            return None;
        }
        let field = FieldIndex::of_square(square, Orientation::Normal).get();
        let code = piece.map_or(DgtField::Empty, DgtField::Piece).code();
        Some(vec![MSG_FIELD_UPDATE, 0x00, 0x05, field, code])
    }

    fn snapshot(&self, board: &Board) -> Vec<u8> {
        let mut bytes = vec![MSG_BOARD_DUMP, 0x00, 0x43];
        bytes.extend(
            BoardDump::of_board(board, Orientation::Normal)
                .fields()
                .iter()
                .map(|f| f.code()),
        );
        bytes
    }

    fn answer(&mut self, bytes: &[u8], board: &Board) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for &b in bytes {
            match b {
                0x40 => self.updates = false,
                0x42 => out.push(self.snapshot(board)),
                0x43 | 0x44 | 0x4b => self.updates = true,
                0x45 => out.push(message(MSG_SERIALNR, EMULATED_SERIAL)),
                0x47 => out.push(message(MSG_TRADEMARK, EMULATED_TRADEMARK)),
                0x4d => out.push(message(MSG_VERSION, &EMULATED_VERSION)),
                // Other commands (clock, LEDs, EEPROM) have nothing to answer here.
                _ => {}
            }
        }
        out
    }

    fn noise(&self, bytes: Vec<u8>) -> Vec<u8> {
        // The host drops it up to the next message id.
        bytes
    }

    fn line(&self, _text: &str) -> Option<Vec<u8>> {
        None
    }
}

/// A board-to-host message: id, 14-bit length, payload with the high bit clear.
fn message(id: u8, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() + HEADER_LEN;
    let mut bytes = vec![id, ((len >> 7) & 0x7f) as u8, (len & 0x7f) as u8];
    bytes.extend(payload.iter().map(|b| b & 0x7f));
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use shakmaty::{Chess, Position, uci::UciMove};

    fn start_dump_bytes() -> Vec<u8> {
        let mut bytes = vec![0x86, 0x00, 0x43];
        bytes.extend_from_slice(&[0x08, 0x09, 0x0a, 0x0c, 0x0b, 0x0a, 0x09, 0x08]);
        bytes.extend_from_slice(&[0x07; 8]);
        bytes.extend_from_slice(&[0x00; 32]);
        bytes.extend_from_slice(&[0x01; 8]);
        bytes.extend_from_slice(&[0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02]);
        bytes
    }

    /// The spec's worked example: the dump, then e2 lifted and a white pawn on e4.
    fn worked_example() -> Vec<u8> {
        let mut bytes = start_dump_bytes();
        bytes.extend_from_slice(&[0x8e, 0x00, 0x05, 0x34, 0x00]);
        bytes.extend_from_slice(&[0x8e, 0x00, 0x05, 0x24, 0x01]);
        bytes
    }

    fn white(role: Role) -> Piece {
        Piece {
            color: Color::White,
            role,
        }
    }

    fn black(role: Role) -> Piece {
        Piece {
            color: Color::Black,
            role,
        }
    }

    fn message(id: u8, payload: &[u8]) -> Vec<u8> {
        let len = payload.len() + 3;
        let mut bytes = vec![id, (len >> 7) as u8, (len & 0x7f) as u8];
        bytes.extend_from_slice(payload);
        bytes
    }

    fn field(sq: Square) -> FieldIndex {
        FieldIndex::of_square(sq, Orientation::Normal)
    }

    #[test]
    fn every_command_has_its_byte() {
        let table = [
            (DgtCommand::Reset, 0x40),
            (DgtCommand::SendClock, 0x41),
            (DgtCommand::SendBoard, 0x42),
            (DgtCommand::SendUpdate, 0x43),
            (DgtCommand::SendUpdateBoard, 0x44),
            (DgtCommand::ReturnSerialNumber, 0x45),
            (DgtCommand::ReturnBusAddress, 0x46),
            (DgtCommand::SendTrademark, 0x47),
            (DgtCommand::SendEeMoves, 0x49),
            (DgtCommand::SendUpdateNice, 0x4b),
            (DgtCommand::SendBatteryStatus, 0x4c),
            (DgtCommand::SendVersion, 0x4d),
            (DgtCommand::ReturnLongSerialNumber, 0x55),
        ];
        for (cmd, byte) in table {
            assert_eq!(encode(&cmd), vec![byte], "{cmd:?}");
        }
    }

    #[test]
    fn set_leds_and_clock_messages_are_framed() {
        let leds = DgtCommand::SetLeds {
            pattern: 1,
            start: field(Square::E2),
            end: field(Square::E4),
        };
        assert_eq!(encode(&leds), vec![0x60, 0x04, 0x01, 0x34, 0x24, 0x00]);

        let beep = ClockCommand::new(0x0b, &[0x10]).expect("short payload");
        assert_eq!(
            encode(&DgtCommand::Clock(beep)),
            vec![0x2b, 0x04, 0x03, 0x0b, 0x10, 0x00]
        );
        let end = ClockCommand::new(0x03, &[]).expect("empty payload");
        assert_eq!(
            encode(&DgtCommand::Clock(end)),
            vec![0x2b, 0x03, 0x03, 0x03, 0x00]
        );
        let longest = ClockCommand::new(0x0c, &[b'a'; MAX_CLOCK_PAYLOAD]).expect("fits");
        assert_eq!(encode(&DgtCommand::Clock(longest))[1], 0xff);
        assert_eq!(
            ClockCommand::new(0x0c, &[0; MAX_CLOCK_PAYLOAD + 1]),
            Err(DgtCommandError::ClockPayloadTooLong {
                len: MAX_CLOCK_PAYLOAD + 1
            })
        );
    }

    #[test]
    fn piece_codes() {
        let expected = [
            DgtField::Empty,
            DgtField::Piece(white(Role::Pawn)),
            DgtField::Piece(white(Role::Rook)),
            DgtField::Piece(white(Role::Knight)),
            DgtField::Piece(white(Role::Bishop)),
            DgtField::Piece(white(Role::King)),
            DgtField::Piece(white(Role::Queen)),
            DgtField::Piece(black(Role::Pawn)),
            DgtField::Piece(black(Role::Rook)),
            DgtField::Piece(black(Role::Knight)),
            DgtField::Piece(black(Role::Bishop)),
            DgtField::Piece(black(Role::King)),
            DgtField::Piece(black(Role::Queen)),
            DgtField::Magic(MagicPiece::Draw),
            DgtField::Magic(MagicPiece::WhiteWins),
            DgtField::Magic(MagicPiece::BlackWins),
        ];
        for (code, want) in (0u8..).zip(expected) {
            assert_eq!(DgtField::from_code(code), Some(want), "code {code}");
            assert_eq!(want.code(), code);
        }
        for code in 16..=255 {
            assert_eq!(DgtField::from_code(code), None);
        }
        assert_eq!(
            DgtField::Magic(MagicPiece::Draw).state(),
            SquareState::Occupied(None)
        );
        assert_eq!(DgtField::Magic(MagicPiece::Draw).piece(), None);
    }

    #[test]
    fn field_numbers_in_both_orientations() {
        let n = |i| FieldIndex::new(i).expect("below 64");
        assert_eq!(n(0).square(Orientation::Normal), Square::A8);
        assert_eq!(n(7).square(Orientation::Normal), Square::H8);
        assert_eq!(n(8).square(Orientation::Normal), Square::A7);
        assert_eq!(n(0x34).square(Orientation::Normal), Square::E2);
        assert_eq!(n(0x24).square(Orientation::Normal), Square::E4);
        assert_eq!(n(63).square(Orientation::Normal), Square::H1);
        assert_eq!(n(0).square(Orientation::TurnedRound), Square::H1);
        assert_eq!(n(63).square(Orientation::TurnedRound), Square::A8);
        assert_eq!(n(0x34).square(Orientation::TurnedRound), Square::D7);
        assert_eq!(FieldIndex::new(64), None);
        for o in [Orientation::Normal, Orientation::TurnedRound] {
            for sq in Square::ALL {
                assert_eq!(FieldIndex::of_square(sq, o).square(o), sq);
            }
        }
    }

    #[test]
    fn worked_example_split_at_every_byte() {
        let bytes = worked_example();
        let whole = DgtDecoder::new().push(&bytes);
        assert_eq!(whole.len(), 3);
        let DgtMessage::BoardDump(dump) = &whole[0] else {
            panic!("first message is the dump: {whole:?}");
        };
        assert_eq!(dump.board(Orientation::Normal), Board::new());
        assert_eq!(dump.start_orientation(), Some(Orientation::Normal));
        assert_eq!(
            whole[1],
            DgtMessage::FieldUpdate {
                field: field(Square::E2),
                value: DgtField::Empty
            }
        );
        assert_eq!(
            whole[2],
            DgtMessage::FieldUpdate {
                field: field(Square::E4),
                value: DgtField::Piece(white(Role::Pawn))
            }
        );
        for cut in 0..=bytes.len() {
            let mut decoder = DgtDecoder::new();
            let mut got = decoder.push(&bytes[..cut]);
            got.extend(decoder.push(&bytes[cut..]));
            assert_eq!(got, whole, "cut at {cut}");
            assert_eq!(decoder.dropped_bytes(), 0);
        }
        // Byte by byte.
        let mut decoder = DgtDecoder::new();
        let got: Vec<DgtMessage> = bytes.iter().flat_map(|b| decoder.push(&[*b])).collect();
        assert_eq!(got, whole);
    }

    #[test]
    fn resynchronises_after_garbage_and_cut_off_messages() {
        let mut bytes = vec![0x01, 0x02, 0x7f];
        // A field update cut off after its square byte.
        bytes.extend_from_slice(&[0x8e, 0x00, 0x05, 0x34]);
        bytes.extend_from_slice(&[0x8e, 0x00, 0x05, 0x24, 0x01]);
        // Garbage between messages.
        bytes.extend_from_slice(&[0x00, 0x33]);
        bytes.extend_from_slice(&[0x93, 0x00, 0x05, 0x01, 0x02]);
        let mut decoder = DgtDecoder::new();
        let got = decoder.push(&bytes);
        assert_eq!(
            got,
            vec![
                DgtMessage::FieldUpdate {
                    field: field(Square::E4),
                    value: DgtField::Piece(white(Role::Pawn))
                },
                DgtMessage::Version { main: 1, sub: 2 },
            ]
        );
        assert_eq!(decoder.dropped_bytes(), 3 + 4 + 2);
    }

    #[test]
    fn malformed_messages_are_dropped_and_counted() {
        let mut decoder = DgtDecoder::new();
        // Length below the header size.
        assert!(decoder.push(&[0x8e, 0x00, 0x02]).is_empty());
        assert_eq!(decoder.dropped_bytes(), 3);
        // A field update with a square out of range, and one with an unknown piece code.
        assert!(decoder.push(&[0x8e, 0x00, 0x05, 0x40, 0x01]).is_empty());
        assert!(decoder.push(&[0x8e, 0x00, 0x05, 0x10, 0x10]).is_empty());
        // Fixed-size messages with the wrong size.
        assert!(decoder.push(&message(0x86, &[0; 10])).is_empty());
        assert!(decoder.push(&message(0x93, &[1, 2, 3])).is_empty());
        assert_eq!(decoder.dropped_bytes(), 3 + 5 + 5 + 13 + 6);
        // Still decoding afterwards.
        assert_eq!(
            decoder.push(&message(0x93, &[3, 4])),
            vec![DgtMessage::Version { main: 3, sub: 4 }]
        );
    }

    #[test]
    fn every_message_type() {
        let cases: Vec<(Vec<u8>, DgtMessage)> = vec![
            (
                message(0x8d, &[0x01, 0x23, 0x45, 0x00, 0x59, 0x07, 0x09]),
                DgtMessage::Clock(DgtClock {
                    right: ClockSide {
                        time: Some(ClockTime {
                            hours: 1,
                            minutes: 23,
                            seconds: 45,
                        }),
                        flags: 0,
                    },
                    left: ClockSide {
                        time: Some(ClockTime {
                            hours: 0,
                            minutes: 59,
                            seconds: 7,
                        }),
                        flags: 0,
                    },
                    status: 0x09,
                }),
            ),
            (
                message(0x8d, &[0x0a, 0x10, 0x0b, 0x00, 0x00, 0x00, 0x00]),
                DgtMessage::ClockAck(ClockAck([0x0a, 0x10, 0x0b, 0x00, 0x00, 0x00, 0x00])),
            ),
            (
                message(0x8d, &[0x00, 0x00, 0x00, 0x1a, 0x00, 0x00, 0x00]),
                DgtMessage::ClockAck(ClockAck([0x00, 0x00, 0x00, 0x1a, 0x00, 0x00, 0x00])),
            ),
            (
                message(0x8e, &[0x00, 0x0b]),
                DgtMessage::FieldUpdate {
                    field: field(Square::A8),
                    value: DgtField::Piece(black(Role::King)),
                },
            ),
            (
                message(0x8f, &[0x6a, 0x00, 0x1b]),
                DgtMessage::EeMoves(vec![0x6a, 0x00, 0x1b]),
            ),
            (message(0x90, &[0x08, 0x01]), DgtMessage::BusAddress(0x401)),
            (
                message(0x91, b"01025"),
                DgtMessage::SerialNumber("01025".to_owned()),
            ),
            (
                message(0x92, b"DGT Projects"),
                DgtMessage::Trademark("DGT Projects".to_owned()),
            ),
            (
                message(0x93, &[0x01, 0x02]),
                DgtMessage::Version { main: 1, sub: 2 },
            ),
            (
                message(0xa0, &[0x55, 0x7f, 0x7f, 0, 0, 0, 0, 0, 0x01]),
                DgtMessage::BatteryStatus(vec![0x55, 0x7f, 0x7f, 0, 0, 0, 0, 0, 0x01]),
            ),
            (
                message(0xa2, b"0123456789"),
                DgtMessage::LongSerialNumber("0123456789".to_owned()),
            ),
            (
                message(0xc4, &[0x01, 0x02]),
                DgtMessage::Unknown {
                    id: 0xc4,
                    payload: vec![0x01, 0x02],
                },
            ),
            (
                message(0x99, &[]),
                DgtMessage::Unknown {
                    id: 0x99,
                    payload: vec![],
                },
            ),
        ];
        let mut stream = Vec::new();
        for (bytes, want) in &cases {
            let mut decoder = DgtDecoder::new();
            assert_eq!(decoder.push(bytes), vec![want.clone()], "{bytes:02x?}");
            stream.extend_from_slice(bytes);
        }
        let mut decoder = DgtDecoder::new();
        let all = decoder.push(&stream);
        assert_eq!(all.len(), cases.len());
        assert_eq!(decoder.dropped_bytes(), 0);
    }

    #[test]
    fn clock_details() {
        let DgtMessage::Clock(clock) = parse(&message(
            0x8d,
            &[0x50 | 0x02, 0x00, 0x00, 0x20 | 0x01, 0x7a, 0x00, 0x35],
        ))
        .expect("well formed") else {
            panic!("a clock message");
        };
        assert!(clock.right.flag_fallen());
        assert_eq!(clock.right.time.map(|t| t.hours), Some(2));
        assert!(!clock.left.flag_fallen());
        assert_eq!(clock.left.flags, 0x20);
        // 0x7a is no BCD number.
        assert_eq!(clock.left.time, None);
        assert!(clock.running() && clock.battery_low() && clock.left_to_move());
        assert!(!clock.right_to_move() && clock.no_clock());

        let ack = ClockAck([0x0a, 0x10, 0x0b, 0x30, 0x20, 0x00, 0x00]);
        // ack0 and ack1 take bits 4 and 5 of byte 6 as their high bits.
        assert_eq!(ack.ack(), [0x90, 0x8b, 0x20, 0x00]);
    }

    #[test]
    fn longest_message_and_beyond() {
        let payload = vec![0x11; MAX_MESSAGE_LEN - 3];
        let bytes = message(0x8f, &payload);
        assert_eq!(&bytes[..3], &[0x8f, 0x7f, 0x7f]);
        let mut decoder = DgtDecoder::new();
        let got = decoder.push(&bytes);
        assert_eq!(got, vec![DgtMessage::EeMoves(payload)]);
        // Announced at full length but cut off by the next id byte.
        let mut cut = bytes[..100].to_vec();
        cut.extend_from_slice(&message(0x93, &[1, 0]));
        assert_eq!(
            decoder.push(&cut),
            vec![DgtMessage::Version { main: 1, sub: 0 }]
        );
        assert_eq!(decoder.dropped_bytes(), 100);
    }

    #[test]
    fn orientation_from_start_positions() {
        let standard = BoardDump::of_board(&Board::new(), Orientation::Normal);
        assert_eq!(standard.start_orientation(), Some(Orientation::Normal));
        let turned = BoardDump::of_board(&Board::new(), Orientation::TurnedRound);
        assert_eq!(turned.start_orientation(), Some(Orientation::TurnedRound));
        assert_eq!(turned.board(Orientation::TurnedRound), Board::new());
        assert_eq!(
            turned.field(FieldIndex(0)),
            DgtField::Piece(white(Role::Rook))
        );
        for n in [0, 1, 333, 959] {
            let board = Board::chess960(n);
            for o in [Orientation::Normal, Orientation::TurnedRound] {
                assert_eq!(BoardDump::of_board(&board, o).start_orientation(), Some(o));
            }
        }
        let pos = Chess::default();
        let m = UciMove::from_ascii(b"e2e4")
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        let after_e4 = pos.play(m).expect("legal");
        let dump = BoardDump::of_board(after_e4.board(), Orientation::Normal);
        assert_eq!(dump.start_orientation(), None);
        // A magic piece on the board: no start position.
        let mut fields = *standard.fields();
        fields[20] = DgtField::Magic(MagicPiece::Draw);
        assert_eq!(BoardDump::from_fields(fields).start_orientation(), None);
    }

    #[test]
    fn driver_asks_for_a_dump_on_connect_and_then_follows_updates() {
        let mut board = DgtBoard::new();
        assert_eq!(
            board.connect(),
            vec![DgtCommand::SendBoard, DgtCommand::SendUpdateBoard]
        );
        let out = board.push(&worked_example());
        assert_eq!(
            out.events,
            vec![
                SensorEvent::Snapshot(Picture::from_board(&Board::new())),
                SensorEvent::Lifted(Square::E2),
                SensorEvent::Placed(Square::E4, Some(white(Role::Pawn))),
            ]
        );
        assert!(
            out.commands.is_empty(),
            "no dump per update: {:?}",
            out.commands
        );
        assert_eq!(board.orientation(), Orientation::Normal);
        let picture = board.picture().expect("dump arrived");
        assert_eq!(
            picture[Square::E4],
            SquareState::Occupied(Some(white(Role::Pawn)))
        );
        assert_eq!(picture[Square::E2], SquareState::Empty);

        // The same update again tells nothing new.
        let again = board.push(&[0x8e, 0x00, 0x05, 0x24, 0x01]);
        assert!(again.events.is_empty() && again.commands.is_empty());

        // Other messages are passed on.
        let other = board.push(&message(0x93, &[1, 9]));
        assert_eq!(
            other.messages,
            vec![DgtMessage::Version { main: 1, sub: 9 }]
        );
    }

    #[test]
    fn driver_asks_for_a_dump_when_an_update_comes_first() {
        let mut board = DgtBoard::new();
        let out = board.push(&[0x8e, 0x00, 0x05, 0x34, 0x00]);
        assert_eq!(out.events, vec![SensorEvent::Lifted(Square::E2)]);
        assert_eq!(out.commands, vec![DgtCommand::SendBoard]);
        // Asked once, not again for the next update.
        let out = board.push(&[0x8e, 0x00, 0x05, 0x24, 0x01]);
        assert!(out.commands.is_empty());
        // After many updates without an answer, once more.
        let mut asked = 0;
        for _ in 0..UPDATES_BEFORE_ASKING_AGAIN {
            asked += board.push(&[0x8e, 0x00, 0x05, 0x24, 0x00]).commands.len();
        }
        assert_eq!(asked, 1);
        let out = board.push(&start_dump_bytes());
        assert_eq!(out.events.len(), 1);
        assert!(board.picture().is_some());
    }

    #[test]
    fn driver_asks_for_a_dump_when_the_picture_becomes_impossible() {
        let mut board = DgtBoard::new();
        board.connect();
        board.push(&start_dump_bytes());
        // A second white king on e4.
        let out = board.push(&[0x8e, 0x00, 0x05, 0x24, 0x05]);
        assert_eq!(
            out.events,
            vec![SensorEvent::Placed(Square::E4, Some(white(Role::King)))]
        );
        assert_eq!(out.commands, vec![DgtCommand::SendBoard]);
        // A ninth piece beyond the pawns' promotions: a third white knight with eight pawns.
        board.push(&start_dump_bytes());
        let out = board.push(&[0x8e, 0x00, 0x05, 0x24, 0x03]);
        assert_eq!(out.commands, vec![DgtCommand::SendBoard]);
        // A piece removed is always possible.
        board.push(&start_dump_bytes());
        let out = board.push(&[0x8e, 0x00, 0x05, 0x34, 0x00]);
        assert!(out.commands.is_empty());
    }

    #[test]
    fn driver_detects_a_board_turned_round() {
        let mut board = DgtBoard::new();
        board.connect();
        let dump = BoardDump::of_board(&Board::new(), Orientation::TurnedRound);
        let mut bytes = vec![0x86, 0x00, 0x43];
        bytes.extend(dump.fields().iter().map(|f| f.code()));
        let out = board.push(&bytes);
        assert_eq!(board.orientation(), Orientation::TurnedRound);
        assert_eq!(
            out.events,
            vec![SensorEvent::Snapshot(Picture::from_board(&Board::new()))]
        );
        // Field 0x34 is d7 on a board turned round.
        let out = board.push(&[0x8e, 0x00, 0x05, 0x34, 0x00]);
        assert_eq!(out.events, vec![SensorEvent::Lifted(Square::D7)]);
        // A fixed orientation is never changed by dumps.
        let mut fixed = DgtBoard::with_orientation(Orientation::Normal);
        fixed.connect();
        fixed.push(&bytes);
        assert_eq!(fixed.orientation(), Orientation::Normal);
    }

    #[test]
    fn magic_pieces_are_unnamed_occupants() {
        let mut board = DgtBoard::new();
        board.connect();
        board.push(&start_dump_bytes());
        let out = board.push(&[0x8e, 0x00, 0x05, 0x24, 0x0d]);
        assert_eq!(out.events, vec![SensorEvent::Placed(Square::E4, None)]);
        assert!(out.commands.is_empty());
    }

    fn any_message() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            (0u8..64, 0u8..16).prop_map(|(f, p)| message(0x8e, &[f, p])),
            proptest::collection::vec(0u8..16, 64).prop_map(|codes| message(0x86, &codes)),
            proptest::collection::vec(0u8..0x80, 7).prop_map(|b| message(0x8d, &b)),
            proptest::collection::vec(0u8..0x80, 0..300).prop_map(|b| message(0x8f, &b)),
            proptest::collection::vec(0u8..0x80, 2).prop_map(|b| message(0x93, &b)),
        ]
    }

    proptest! {
        #[test]
        fn any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
            let mut decoder = DgtDecoder::new();
            let _ = decoder.push(&bytes);
            let mut board = DgtBoard::new();
            board.connect();
            let _ = board.push(&bytes);
        }

        #[test]
        fn well_formed_streams_decode_whatever_the_split(
            messages in proptest::collection::vec(any_message(), 1..8),
            cuts in proptest::collection::vec(any::<usize>(), 0..6),
        ) {
            let stream: Vec<u8> = messages.concat();
            let whole = DgtDecoder::new().push(&stream);
            prop_assert_eq!(whole.len(), messages.len());
            let mut points: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
            points.sort_unstable();
            let mut decoder = DgtDecoder::new();
            let mut got = Vec::new();
            let mut from = 0;
            for p in points.into_iter().chain([stream.len()]) {
                got.extend(decoder.push(&stream[from..p]));
                from = p;
            }
            prop_assert_eq!(got, whole);
            prop_assert_eq!(decoder.dropped_bytes(), 0);
        }
    }

    #[test]
    fn the_codec_is_named_dgt_and_opens_the_port_at_9600_8n1() {
        use crate::board::codec::{DataBits, FlowControl, Parity, StopBits};
        let codec = DgtCodec::new();
        assert_eq!(codec.name(), "dgt");
        assert_eq!(
            codec.serial(),
            SerialSettings {
                baud: 9600,
                data_bits: DataBits::Eight,
                parity: Parity::None,
                stop_bits: StopBits::One,
                flow_control: FlowControl::None,
            },
            "the protocol facts: 9600 baud, 8 data bits, no parity, 1 stop bit"
        );
        assert!(codec.identifies_pieces());
        assert!(codec.summary().contains("DGT"), "{}", codec.summary());
    }

    #[test]
    fn the_codec_asks_for_the_board_and_words_what_it_hears() {
        let mut codec = DgtCodec::new();
        assert_eq!(
            codec.connect(),
            vec![0x42, 0x44],
            "SEND_BRD, SEND_UPDATE_BRD"
        );
        assert_eq!(codec.request_position(), vec![0x42]);
        let mut bytes = vec![0x93, 0x00, 0x05, 0x01, 0x07];
        bytes.extend_from_slice(&[0x92, 0x00, 0x07, b' ', b'D', b'G', b'T']);
        bytes.extend_from_slice(&[0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x01, 0x30, 0x15, 0x01]);
        bytes.extend_from_slice(&[0xb6, 0x00, 0x03]);
        bytes.extend_from_slice(&[0x01, 0x02]);
        let decoded = codec.decode(&bytes);
        let notes: Vec<Heard> = [
            "version 1.7",
            "trademark DGT",
            "clock left 1:30:15, right 0:05:00, running",
            "unknown message 0xb6, no content",
        ]
        .into_iter()
        .map(|n| Heard::Message(BoardMessage::Note(n.into())))
        .collect();
        assert_eq!(decoded.heard, notes);
        assert_eq!(codec.dropped(), 2, "the two bytes outside a message");
        assert_eq!(
            codec.dropped_words(1),
            "1 byte dropped (noise or damaged messages)"
        );
        assert_eq!(
            codec.dropped_words(2),
            "2 bytes dropped (noise or damaged messages)"
        );
        // A field update while the picture is unknown and no dump asked for: the codec asks.
        let mut codec = DgtCodec::new();
        let decoded = codec.decode(&[0x8e, 0x00, 0x05, 0x24, 0x01]);
        assert_eq!(decoded.send, vec![0x42]);
        assert_eq!(
            decoded.heard,
            vec![Heard::Sensor(SensorEvent::Placed(
                Square::E4,
                Some(white(Role::Pawn))
            ))]
        );
    }

    #[test]
    fn the_emulated_board_is_read_back_by_the_codec() {
        let mut codec = DgtCodec::new();
        let mut board = codec.emulator(false);
        assert_eq!(board.title(), "DGT");
        assert!(board.scans());
        assert_eq!(board.line("B done"), None, "a binary protocol");
        let start = Board::new();
        let mut after = start.clone();
        after.discard_piece_at(Square::E2);
        assert_eq!(
            board.report(&after, Square::E2, None),
            None,
            "silent before the host asks for updates"
        );
        let answers = board.answer(&codec.connect(), &start);
        assert!(board.host_ready());
        assert_eq!(
            answers,
            vec![start_dump_bytes()],
            "the spec's worked example"
        );
        assert_eq!(
            codec.decode(&answers.concat()).heard,
            vec![Heard::Sensor(SensorEvent::Snapshot(Picture::from_board(
                &start
            )))]
        );
        let lift = board.report(&after, Square::E2, None).expect("updates on");
        assert_eq!(lift, vec![0x8e, 0x00, 0x05, 0x34, 0x00]);
        let noise = board.noise(vec![0x01, 0x7f]);
        let asked = board.answer(&[0x4d, 0x47, 0x45], &after).concat();
        let heard = codec.decode(&[lift, noise, asked].concat()).heard;
        assert_eq!(
            heard,
            vec![
                Heard::Sensor(SensorEvent::Lifted(Square::E2)),
                Heard::Message(BoardMessage::Note("version 1.7".into())),
                Heard::Message(BoardMessage::Note(
                    "trademark hector simulated board".into()
                )),
                Heard::Message(BoardMessage::Note("serial number 00001".into())),
            ]
        );
        assert_eq!(codec.dropped(), 2, "the noise");
        board.power_up();
        assert!(!board.host_ready(), "a board starts silent");
    }
}
