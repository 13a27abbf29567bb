//! BrlAPI's socket protocol, version 8, sans-IO: the packets hector sends to a BRLTTY server
//! and reads from it, and the set-up of a connection as a state machine fed with what the
//! server said. Facts from the BrlAPI manual, chapter 7 "Protocol reference", and the
//! constants of `brlapi_protocol.h` and `brlapi_keycodes.h` (BRLTTY 6.5).
//!
//! A packet is `size` (payload bytes, header excluded), `type`, payload; every integer is a
//! u32 in network byte order; a payload holds at most 4096 bytes.

use std::fmt;

/// The protocol version spoken (BRLTTY 6.x, libbrlapi 0.8); the library itself refuses
/// servers older than this.
pub(crate) const PROTOCOL_VERSION: u32 = 8;

/// The most payload a packet may carry (`BRLAPI_MAXPACKETSIZE`).
pub(crate) const MAX_PAYLOAD: usize = 4096;

/// The largest key file sent: a packet's payload less the method's integer (libbrlapi reads
/// no more either).
pub const MAX_KEY_LEN: usize = MAX_PAYLOAD - 8;

/// More cells than any display has (the largest are 80 by 1, or 40 by 4): a server that
/// announces more is not believed.
pub(crate) const MAX_CELLS: u32 = 400;
/// The messages the set-up passes over (parameter updates, keys pressed early, kinds hector
/// does not know) before it gives up: a server that sends only those never hands the
/// display over. BRLTTY sends a few at most.
pub(crate) const MAX_PASSED_OVER: usize = 64;

const HEADER_LEN: usize = 8;

/// Packet types (`BRLAPI_PACKET_*`).
pub(crate) mod kind {
    pub(crate) const VERSION: u32 = b'v' as u32;
    pub(crate) const AUTH: u32 = b'a' as u32;
    pub(crate) const GET_DISPLAY_SIZE: u32 = b's' as u32;
    pub(crate) const ENTER_TTY_MODE: u32 = b't' as u32;
    pub(crate) const LEAVE_TTY_MODE: u32 = b'L' as u32;
    pub(crate) const KEY: u32 = b'k' as u32;
    pub(crate) const IGNORE_KEY_RANGES: u32 = b'm' as u32;
    pub(crate) const ACCEPT_KEY_RANGES: u32 = b'u' as u32;
    pub(crate) const WRITE: u32 = b'w' as u32;
    pub(crate) const ACK: u32 = b'A' as u32;
    pub(crate) const ERROR: u32 = b'e' as u32;
    pub(crate) const EXCEPTION: u32 = b'E' as u32;
}

/// Authorization methods (`BRLAPI_AUTH_*`).
const AUTH_NONE: u32 = b'N' as u32;
const AUTH_KEY: u32 = b'K' as u32;

/// Flags of a write packet (`BRLAPI_WF_*`): which fields follow.
const WF_REGION: u32 = 0x02;
const WF_TEXT: u32 = 0x04;
const WF_CURSOR: u32 = 0x20;
const WF_CHARSET: u32 = 0x40;

/// Key codes (`brlapi_keycodes.h`): flags in the upper half, then the type, the command
/// block and its argument.
const KEY_TYPE_MASK: u64 = 0xE000_0000;
const KEY_TYPE_CMD: u64 = 0x2000_0000;
const KEY_BLOCK_MASK: u64 = 0x1FFF_0000;
const KEY_ARG_MASK: u64 = 0xFFFF;
const KEY_ANY_FLAGS: u64 = 0xFFFF_FFFF_0000_0000;
const CMD_LNUP: u64 = KEY_TYPE_CMD | 1;
const CMD_LNDN: u64 = KEY_TYPE_CMD | 2;
const CMD_FWINLT: u64 = KEY_TYPE_CMD | 23;
const CMD_FWINRT: u64 = KEY_TYPE_CMD | 24;
const CMD_ROUTE: u64 = KEY_TYPE_CMD | 0x1_0000;

/// What is wrong with bytes or packets from a server; after one, the stream cannot be
/// trusted and the connection is closed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    #[error("a packet of {0} bytes, more than the protocol allows")]
    TooLarge(usize),
    #[error("a packet of type {} too short for its content", kind_name(*.0))]
    Malformed(u32),
    #[error("a request too large to send ({0} bytes)")]
    RequestTooLarge(usize),
}

/// A packet type as BRLTTY names it in its logs: one letter, or a number.
pub(crate) fn kind_name(kind: u32) -> String {
    match u8::try_from(kind) {
        Ok(b) if b.is_ascii_graphic() => format!("'{}'", char::from(b)),
        _ => format!("{kind:#x}"),
    }
}

/// One packet, as framed on the socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    pub(crate) kind: u32,
    pub(crate) payload: Vec<u8>,
}

impl Packet {
    /// The bytes on the socket.
    pub fn encode(kind: u32, payload: &[u8]) -> Result<Vec<u8>, ProtocolError> {
        if payload.len() > MAX_PAYLOAD {
            return Err(ProtocolError::RequestTooLarge(payload.len()));
        }
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        out.extend_from_slice(&kind.to_be_bytes());
        out.extend_from_slice(payload);
        Ok(out)
    }
}

/// Cuts a byte stream into packets, however it arrives in pieces.
#[derive(Debug, Default)]
pub struct Decoder {
    pending: Vec<u8>,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// The packets complete with these bytes. An announced size over [`MAX_PAYLOAD`] is an
    /// error at once: nothing that follows can be framed again.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<Packet>, ProtocolError> {
        self.pending.extend_from_slice(bytes);
        let mut packets = Vec::new();
        let mut at = 0;
        while let Some(header) = self.pending.get(at..at + HEADER_LEN) {
            let size = be32(header, 0).unwrap_or(0) as usize;
            if size > MAX_PAYLOAD {
                self.pending.clear();
                return Err(ProtocolError::TooLarge(size));
            }
            let Some(payload) = self.pending.get(at + HEADER_LEN..at + HEADER_LEN + size) else {
                break;
            };
            packets.push(Packet {
                kind: be32(header, 4).unwrap_or(0),
                payload: payload.to_vec(),
            });
            at += HEADER_LEN + size;
        }
        self.pending.drain(..at);
        Ok(packets)
    }
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// What a server says, as far as hector listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromServer {
    Version(u32),
    /// The authorization methods it accepts.
    AuthMethods(Vec<u32>),
    Ack,
    /// A request refused: the error code (`BRLAPI_ERROR_*`) and the type of the request.
    Error {
        code: u32,
        request: Option<u32>,
    },
    /// A request the server could not make sense of.
    Exception {
        code: u32,
        request: Option<u32>,
    },
    DisplaySize {
        columns: u32,
        rows: u32,
    },
    /// A key pressed: the 64-bit key code.
    Key(u64),
    /// Anything else (parameter updates, the driver's name): not needed.
    Other(u32),
}

impl FromServer {
    pub fn parse(packet: &Packet) -> Result<FromServer, ProtocolError> {
        let p = &packet.payload;
        let word = |at: usize| be32(p, at).ok_or(ProtocolError::Malformed(packet.kind));
        Ok(match packet.kind {
            kind::VERSION => FromServer::Version(word(0)?),
            kind::AUTH => FromServer::AuthMethods(
                p.chunks_exact(4)
                    .filter_map(|c| be32(c, 0))
                    .collect::<Vec<u32>>(),
            ),
            kind::ACK => FromServer::Ack,
            kind::ERROR => FromServer::Error {
                code: word(0)?,
                request: be32(p, 4),
            },
            kind::EXCEPTION => FromServer::Exception {
                code: word(0)?,
                request: be32(p, 4),
            },
            kind::GET_DISPLAY_SIZE => FromServer::DisplaySize {
                columns: word(0)?,
                rows: word(4)?,
            },
            kind::KEY => FromServer::Key((u64::from(word(0)?) << 32) | u64::from(word(4)?)),
            other => FromServer::Other(other),
        })
    }
}

/// A range of key codes, both ends included; the flags of `first` are the least a key must
/// carry, those of `last` the most it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyRange {
    pub(crate) first: u64,
    pub(crate) last: u64,
}

/// Every key: what hector gives back to BRLTTY before it takes the few it handles.
pub(crate) const ALL_KEYS: KeyRange = KeyRange {
    first: 0,
    last: u64::MAX,
};

/// The keys hector handles, with any flags: panning, line up and down, the routing keys.
/// Every other key stays BRLTTY's (its preferences, its help), as for a screen reader.
pub(crate) const HECTOR_KEYS: [KeyRange; 3] = [
    KeyRange {
        first: CMD_LNUP,
        last: KEY_ANY_FLAGS | CMD_LNDN,
    },
    KeyRange {
        first: CMD_FWINLT,
        last: KEY_ANY_FLAGS | CMD_FWINRT,
    },
    KeyRange {
        first: CMD_ROUTE,
        last: KEY_ANY_FLAGS | CMD_ROUTE | KEY_ARG_MASK,
    },
];

/// A key of the display, as hector understands it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayKey {
    /// Pan left: the previous window of the text.
    PanLeft,
    /// Pan right: the next window.
    PanRight,
    LineUp,
    LineDown,
    /// The routing key over a cell, counted from 0 (as every display sends it).
    Route(u16),
    /// Any other key code.
    Other(u64),
}

impl DisplayKey {
    pub(crate) fn from_code(code: u64) -> DisplayKey {
        if code & KEY_TYPE_MASK != KEY_TYPE_CMD {
            return DisplayKey::Other(code);
        }
        let command = code & (KEY_TYPE_MASK | KEY_BLOCK_MASK | KEY_ARG_MASK);
        match command {
            CMD_FWINLT => DisplayKey::PanLeft,
            CMD_FWINRT => DisplayKey::PanRight,
            CMD_LNUP => DisplayKey::LineUp,
            CMD_LNDN => DisplayKey::LineDown,
            _ if command & !KEY_ARG_MASK == CMD_ROUTE => {
                DisplayKey::Route((code & KEY_ARG_MASK) as u16)
            }
            _ => DisplayKey::Other(code),
        }
    }

    /// The key code a server sends for this key (no flags).
    #[cfg(test)]
    pub(crate) fn code(self) -> u64 {
        match self {
            DisplayKey::PanLeft => CMD_FWINLT,
            DisplayKey::PanRight => CMD_FWINRT,
            DisplayKey::LineUp => CMD_LNUP,
            DisplayKey::LineDown => CMD_LNDN,
            DisplayKey::Route(cell) => CMD_ROUTE | u64::from(cell),
            DisplayKey::Other(code) => code,
        }
    }
}

/// What hector asks of a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Version,
    /// Key authorization: the key file's bytes.
    AuthKey(Vec<u8>),
    DisplaySize,
    /// Take the display for the tty at this path (empty: the whole display), keys as
    /// BRLTTY commands.
    EnterTtyMode(Vec<u32>),
    IgnoreKeys(Vec<KeyRange>),
    AcceptKeys(Vec<KeyRange>),
    /// Text over the whole display (padded or cut to it), in UTF-8, with the cursor on a
    /// cell counted from 0, or none.
    Write {
        text: String,
        cursor: Option<usize>,
        cells: usize,
    },
    LeaveTtyMode,
}

impl Request {
    pub fn encode(&self) -> Result<Vec<u8>, ProtocolError> {
        let mut p = Vec::new();
        let kind = match self {
            Request::Version => {
                p.extend_from_slice(&PROTOCOL_VERSION.to_be_bytes());
                kind::VERSION
            }
            Request::AuthKey(key) => {
                p.extend_from_slice(&AUTH_KEY.to_be_bytes());
                p.extend_from_slice(&key[..key.len().min(MAX_KEY_LEN)]);
                kind::AUTH
            }
            Request::DisplaySize => kind::GET_DISPLAY_SIZE,
            Request::EnterTtyMode(path) => {
                p.extend_from_slice(&(path.len() as u32).to_be_bytes());
                for tty in path {
                    p.extend_from_slice(&tty.to_be_bytes());
                }
                // No driver name: keys arrive as BRLTTY's commands, the same on every display.
                p.push(0);
                kind::ENTER_TTY_MODE
            }
            Request::IgnoreKeys(ranges) | Request::AcceptKeys(ranges) => {
                for range in ranges {
                    for code in [range.first, range.last] {
                        p.extend_from_slice(&((code >> 32) as u32).to_be_bytes());
                        p.extend_from_slice(&(code as u32).to_be_bytes());
                    }
                }
                if matches!(self, Request::IgnoreKeys(_)) {
                    kind::IGNORE_KEY_RANGES
                } else {
                    kind::ACCEPT_KEY_RANGES
                }
            }
            Request::Write {
                text,
                cursor,
                cells,
            } => {
                let cells = (*cells).min(MAX_CELLS as usize);
                let shown: String = text.chars().take(cells).collect();
                p.extend_from_slice(&(WF_REGION | WF_TEXT | WF_CURSOR | WF_CHARSET).to_be_bytes());
                p.extend_from_slice(&1u32.to_be_bytes());
                // A negative size pads (or cuts) the text to the rest of the display.
                p.extend_from_slice(&(-(cells as i32)).to_be_bytes());
                p.extend_from_slice(&(shown.len() as u32).to_be_bytes());
                p.extend_from_slice(shown.as_bytes());
                let cursor = match cursor {
                    Some(cell) if *cell < cells => *cell as u32 + 1,
                    _ => 0,
                };
                p.extend_from_slice(&cursor.to_be_bytes());
                // Without a charset the server reads the text in its own 8-bit charset.
                p.push(5);
                p.extend_from_slice(b"UTF-8");
                kind::WRITE
            }
            Request::LeaveTtyMode => kind::LEAVE_TTY_MODE,
        };
        Packet::encode(kind, &p)
    }
}

/// Why a connection could not be set up, or was given up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("the other side is not a BrlAPI server")]
    NotBrlapi,
    #[error("the BrlAPI server speaks protocol {0}, older than 8")]
    OldServer(u32),
    #[error("the BrlAPI server wants a key, and no key file could be read")]
    NeedsKey,
    #[error("the BrlAPI server refused the key")]
    KeyRefused,
    #[error("the BrlAPI server offers no authorization hector knows")]
    NoMethod,
    #[error("the BrlAPI server refused {}: error {code}", kind_name(*.request))]
    Refused { code: u32, request: u32 },
    #[error("the BrlAPI server answered {} out of turn", kind_name(*.0))]
    OutOfTurn(u32),
    #[error("the BrlAPI server announced a display of {0} cells")]
    ImplausibleSize(u64),
    #[error("the BrlAPI server sent {0} messages without handing the display over")]
    NoHandOver(usize),
    #[error("{0}")]
    Protocol(#[from] ProtocolError),
}

/// Where a connection stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Version,
    Auth,
    AuthAck,
    Size,
    TtyMode,
    IgnoreAll,
    AcceptOurs,
    Ready,
}

/// What the adapter does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    Send(Request),
    /// The display has no size yet (its driver is still starting): ask again a little later
    /// with [`Session::ask_size`]. Nothing may be written before (BRLTTY 6.5 can abort).
    AskSizeLater,
    /// The display is hector's: its size.
    Ready {
        columns: u32,
        rows: u32,
    },
    Key(DisplayKey),
}

/// The set-up of one connection, fed with what the server says: version, authorization, the
/// display's size, the display taken in tty mode, every key given back to BRLTTY but the
/// ones hector handles. Then keys.
#[derive(Debug)]
pub struct Session {
    state: State,
    key: Option<Vec<u8>>,
    tty_path: Vec<u32>,
    size: (u32, u32),
    /// Messages passed over before the display was hector's.
    passed_over: usize,
}

impl Session {
    /// `key`: the key file's bytes, if one could be read; `tty_path`: the tty to take, empty
    /// for the whole display.
    pub fn new(key: Option<Vec<u8>>, tty_path: Vec<u32>) -> Session {
        Session {
            state: State::Version,
            key,
            tty_path,
            size: (0, 0),
            passed_over: 0,
        }
    }

    /// Counts a message the set-up passes over; too many end it.
    fn pass_over(&mut self) -> Result<(), SessionError> {
        if self.state == State::Ready {
            return Ok(());
        }
        self.passed_over += 1;
        if self.passed_over > MAX_PASSED_OVER {
            return Err(SessionError::NoHandOver(self.passed_over));
        }
        Ok(())
    }

    #[cfg(test)]
    pub(crate) fn is_ready(&self) -> bool {
        self.state == State::Ready
    }

    /// The request that asks the display's size again (after [`Next::AskSizeLater`]).
    pub fn ask_size(&mut self) -> Request {
        self.state = State::Size;
        Request::DisplaySize
    }

    /// What to do with a message from the server.
    pub fn receive(&mut self, message: FromServer) -> Result<Vec<Next>, SessionError> {
        if let FromServer::Error { code, request } | FromServer::Exception { code, request } =
            message
        {
            return Err(match (self.state, request) {
                (State::AuthAck, _) => SessionError::KeyRefused,
                _ => SessionError::Refused {
                    code,
                    request: request.unwrap_or(0),
                },
            });
        }
        // A key may come as soon as the display is taken.
        if let FromServer::Key(code) = message
            && matches!(
                self.state,
                State::TtyMode | State::IgnoreAll | State::AcceptOurs | State::Ready
            )
        {
            self.pass_over()?;
            return Ok(vec![Next::Key(DisplayKey::from_code(code))]);
        }
        let send = |r: Request| Ok(vec![Next::Send(r)]);
        match (self.state, message) {
            (State::Version, FromServer::Version(v)) if v >= PROTOCOL_VERSION => {
                self.state = State::Auth;
                send(Request::Version)
            }
            (State::Version, FromServer::Version(v)) => Err(SessionError::OldServer(v)),
            (State::Version, _) => Err(SessionError::NotBrlapi),
            (State::Auth, FromServer::AuthMethods(methods)) => {
                if methods.contains(&AUTH_NONE) {
                    self.state = State::Size;
                    return send(Request::DisplaySize);
                }
                if !methods.contains(&AUTH_KEY) {
                    return Err(SessionError::NoMethod);
                }
                match self.key.take() {
                    Some(key) => {
                        self.state = State::AuthAck;
                        send(Request::AuthKey(key))
                    }
                    None => Err(SessionError::NeedsKey),
                }
            }
            (State::AuthAck, FromServer::Ack) => {
                self.state = State::Size;
                send(Request::DisplaySize)
            }
            (State::Size, FromServer::DisplaySize { columns, rows }) => {
                let cells = u64::from(columns) * u64::from(rows);
                // A driver still starting: asked again, as long as the adapter's start limit.
                if cells == 0 {
                    return Ok(vec![Next::AskSizeLater]);
                }
                if cells > u64::from(MAX_CELLS) {
                    return Err(SessionError::ImplausibleSize(cells));
                }
                self.size = (columns, rows);
                self.state = State::TtyMode;
                send(Request::EnterTtyMode(self.tty_path.clone()))
            }
            (State::TtyMode, FromServer::Ack) => {
                self.state = State::IgnoreAll;
                send(Request::IgnoreKeys(vec![ALL_KEYS]))
            }
            (State::IgnoreAll, FromServer::Ack) => {
                self.state = State::AcceptOurs;
                send(Request::AcceptKeys(HECTOR_KEYS.to_vec()))
            }
            (State::AcceptOurs, FromServer::Ack) => {
                self.state = State::Ready;
                Ok(vec![Next::Ready {
                    columns: self.size.0,
                    rows: self.size.1,
                }])
            }
            // Answers nobody waits for (the leave's acknowledgement, parameter updates).
            (State::Ready, FromServer::Ack | FromServer::Other(_)) => Ok(Vec::new()),
            (_, FromServer::Other(_)) => {
                self.pass_over()?;
                Ok(Vec::new())
            }
            (_, other) => Err(SessionError::OutOfTurn(kind_of(&other))),
        }
    }
}

fn kind_of(message: &FromServer) -> u32 {
    match message {
        FromServer::Version(_) => kind::VERSION,
        FromServer::AuthMethods(_) => kind::AUTH,
        FromServer::Ack => kind::ACK,
        FromServer::Error { .. } => kind::ERROR,
        FromServer::Exception { .. } => kind::EXCEPTION,
        FromServer::DisplaySize { .. } => kind::GET_DISPLAY_SIZE,
        FromServer::Key(_) => kind::KEY,
        FromServer::Other(kind) => *kind,
    }
}

impl fmt::Display for DisplayKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DisplayKey::PanLeft => write!(f, "pan left"),
            DisplayKey::PanRight => write!(f, "pan right"),
            DisplayKey::LineUp => write!(f, "line up"),
            DisplayKey::LineDown => write!(f, "line down"),
            DisplayKey::Route(cell) => write!(f, "routing key {cell}"),
            DisplayKey::Other(code) => write!(f, "key {code:#x}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn packet(kind: u32, words: &[u32]) -> Vec<u8> {
        let payload: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
        Packet::encode(kind, &payload).expect("small")
    }

    fn decode_one(bytes: &[u8]) -> FromServer {
        let packets = Decoder::new().push(bytes).expect("well formed");
        assert_eq!(packets.len(), 1);
        FromServer::parse(&packets[0]).expect("parses")
    }

    #[test]
    fn the_server_packets_as_brltty_sends_them() {
        assert_eq!(
            decode_one(&packet(kind::VERSION, &[8])),
            FromServer::Version(8)
        );
        assert_eq!(
            decode_one(&packet(kind::AUTH, &[u32::from(b'N')])),
            FromServer::AuthMethods(vec![u32::from(b'N')])
        );
        assert_eq!(
            decode_one(&packet(kind::GET_DISPLAY_SIZE, &[40, 1])),
            FromServer::DisplaySize {
                columns: 40,
                rows: 1
            }
        );
        // Routing key over the seventh cell, argument 6.
        assert_eq!(
            decode_one(&packet(kind::KEY, &[0, 0x2001_0006])),
            FromServer::Key(0x2001_0006)
        );
        assert_eq!(
            decode_one(&packet(kind::ERROR, &[17, u32::from(b'a')])),
            FromServer::Error {
                code: 17,
                request: Some(u32::from(b'a'))
            }
        );
        assert_eq!(
            FromServer::parse(&Packet {
                kind: kind::VERSION,
                payload: vec![0, 0]
            }),
            Err(ProtocolError::Malformed(kind::VERSION))
        );
    }

    #[test]
    fn keys_from_their_codes() {
        assert_eq!(DisplayKey::from_code(0x2000_0017), DisplayKey::PanLeft);
        assert_eq!(DisplayKey::from_code(0x2000_0018), DisplayKey::PanRight);
        assert_eq!(DisplayKey::from_code(0x2000_0001), DisplayKey::LineUp);
        assert_eq!(DisplayKey::from_code(0x2000_0002), DisplayKey::LineDown);
        assert_eq!(DisplayKey::from_code(0x2001_0000), DisplayKey::Route(0));
        assert_eq!(DisplayKey::from_code(0x2001_0027), DisplayKey::Route(39));
        // Flags (a long press, a motion) do not change the key.
        assert_eq!(
            DisplayKey::from_code(0x0000_0100_2000_0018),
            DisplayKey::PanRight
        );
        // A typed character (a keysym) and another command are not hector's.
        assert_eq!(DisplayKey::from_code(0x61), DisplayKey::Other(0x61));
        assert_eq!(
            DisplayKey::from_code(0x2000_0007),
            DisplayKey::Other(0x2000_0007)
        );
        for key in [
            DisplayKey::PanLeft,
            DisplayKey::PanRight,
            DisplayKey::LineUp,
            DisplayKey::LineDown,
            DisplayKey::Route(7),
        ] {
            assert_eq!(DisplayKey::from_code(key.code()), key);
        }
    }

    #[test]
    fn a_write_is_utf8_over_the_whole_display_with_a_one_based_cursor() {
        let bytes = Request::Write {
            text: "Läufer".into(),
            cursor: Some(2),
            cells: 40,
        }
        .encode()
        .expect("encodes");
        let packets = Decoder::new().push(&bytes).expect("frames");
        let p = &packets[0].payload;
        assert_eq!(packets[0].kind, kind::WRITE);
        assert_eq!(be32(p, 0), Some(0x66));
        assert_eq!(be32(p, 4), Some(1));
        assert_eq!(be32(p, 8), Some((-40i32) as u32));
        assert_eq!(be32(p, 12), Some(7), "bytes of Läufer in UTF-8");
        assert_eq!(&p[16..23], "Läufer".as_bytes());
        assert_eq!(be32(p, 23), Some(3), "the third cell");
        assert_eq!(&p[27..], b"\x05UTF-8");
        // Longer than the display: cut to it; a cursor beyond it: none.
        let long = Request::Write {
            text: "x".repeat(50),
            cursor: Some(45),
            cells: 40,
        }
        .encode()
        .expect("encodes");
        let p = &Decoder::new().push(&long).expect("frames")[0].payload;
        assert_eq!(be32(p, 12), Some(40));
        assert_eq!(be32(p, 56), Some(0));
    }

    #[test]
    fn tty_mode_and_key_ranges_on_the_wire() {
        let root = Request::EnterTtyMode(Vec::new()).encode().expect("encodes");
        assert_eq!(root, [0, 0, 0, 5, 0, 0, 0, b't', 0, 0, 0, 0, 0]);
        let vt = Request::EnterTtyMode(vec![3]).encode().expect("encodes");
        assert_eq!(&vt[8..], [0, 0, 0, 1, 0, 0, 0, 3, 0]);
        let accept = Request::AcceptKeys(vec![HECTOR_KEYS[2]])
            .encode()
            .expect("encodes");
        assert_eq!(
            &accept[8..],
            [
                0, 0, 0, 0, 0x20, 0x01, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x20, 0x01, 0xff, 0xff
            ]
        );
    }

    /// The set-up as BRLTTY 6.5 answered it (no authorization, a display still starting).
    #[test]
    fn a_session_from_version_to_keys() {
        let mut s = Session::new(None, Vec::new());
        assert_eq!(
            s.receive(FromServer::Version(8)),
            Ok(vec![Next::Send(Request::Version)])
        );
        assert_eq!(
            s.receive(FromServer::AuthMethods(vec![u32::from(b'N')])),
            Ok(vec![Next::Send(Request::DisplaySize)])
        );
        assert_eq!(
            s.receive(FromServer::DisplaySize {
                columns: 0,
                rows: 0
            }),
            Ok(vec![Next::AskSizeLater])
        );
        assert_eq!(s.ask_size(), Request::DisplaySize);
        assert_eq!(
            s.receive(FromServer::DisplaySize {
                columns: 40,
                rows: 1
            }),
            Ok(vec![Next::Send(Request::EnterTtyMode(Vec::new()))])
        );
        assert_eq!(
            s.receive(FromServer::Ack),
            Ok(vec![Next::Send(Request::IgnoreKeys(vec![ALL_KEYS]))])
        );
        assert_eq!(
            s.receive(FromServer::Ack),
            Ok(vec![Next::Send(Request::AcceptKeys(HECTOR_KEYS.to_vec()))])
        );
        assert!(!s.is_ready());
        assert_eq!(
            s.receive(FromServer::Ack),
            Ok(vec![Next::Ready {
                columns: 40,
                rows: 1
            }])
        );
        assert!(s.is_ready());
        assert_eq!(
            s.receive(FromServer::Key(0x2001_0006)),
            Ok(vec![Next::Key(DisplayKey::Route(6))])
        );
    }

    #[test]
    fn a_key_is_sent_only_when_asked_and_a_refusal_ends_the_session() {
        let mut s = Session::new(Some(b"secret".to_vec()), vec![2]);
        s.receive(FromServer::Version(8)).expect("version");
        assert_eq!(
            s.receive(FromServer::AuthMethods(vec![u32::from(b'K')])),
            Ok(vec![Next::Send(Request::AuthKey(b"secret".to_vec()))])
        );
        assert_eq!(
            s.receive(FromServer::Error {
                code: 17,
                request: Some(kind::AUTH)
            }),
            Err(SessionError::KeyRefused)
        );
        let mut keyless = Session::new(None, Vec::new());
        keyless.receive(FromServer::Version(8)).expect("version");
        assert_eq!(
            keyless.receive(FromServer::AuthMethods(vec![u32::from(b'K')])),
            Err(SessionError::NeedsKey)
        );
        let mut old = Session::new(None, Vec::new());
        assert_eq!(
            old.receive(FromServer::Version(7)),
            Err(SessionError::OldServer(7))
        );
        let mut stranger = Session::new(None, Vec::new());
        assert_eq!(
            stranger.receive(FromServer::Ack),
            Err(SessionError::NotBrlapi)
        );
        let mut huge = Session::new(None, Vec::new());
        huge.receive(FromServer::Version(8)).expect("version");
        huge.receive(FromServer::AuthMethods(vec![u32::from(b'N')]))
            .expect("auth");
        assert!(matches!(
            huge.receive(FromServer::DisplaySize {
                columns: u32::MAX,
                rows: 2
            }),
            Err(SessionError::ImplausibleSize(_))
        ));
    }

    #[test]
    fn an_oversized_packet_is_refused_before_it_is_buffered() {
        let mut d = Decoder::new();
        let mut bytes = 4097u32.to_be_bytes().to_vec();
        bytes.extend_from_slice(&kind::KEY.to_be_bytes());
        assert_eq!(d.push(&bytes), Err(ProtocolError::TooLarge(4097)));
        assert!(Packet::encode(kind::WRITE, &[0; 4097]).is_err());
    }

    fn any_server_packet() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            (0u32..20).prop_map(|v| packet(kind::VERSION, &[v])),
            proptest::collection::vec(any::<u32>(), 0..4).prop_map(|m| packet(kind::AUTH, &m)),
            Just(packet(kind::ACK, &[])),
            (any::<u32>(), any::<u32>()).prop_map(|(c, r)| packet(kind::ERROR, &[c, r])),
            (0u32..100, 0u32..4).prop_map(|(c, r)| packet(kind::GET_DISPLAY_SIZE, &[c, r])),
            (any::<u32>(), any::<u32>()).prop_map(|(h, l)| packet(kind::KEY, &[h, l])),
            proptest::collection::vec(any::<u8>(), 0..64).prop_map(|b| Packet::encode(
                u32::from(b'P') << 8 | u32::from(b'U'),
                &b
            )
            .expect("small")),
        ]
    }

    proptest! {
        #[test]
        fn any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
            let mut d = Decoder::new();
            let mut s = Session::new(None, Vec::new());
            if let Ok(packets) = d.push(&bytes) {
                for p in packets {
                    if let Ok(m) = FromServer::parse(&p) {
                        let _ = s.receive(m);
                    }
                }
            }
        }

        #[test]
        fn packets_decode_whatever_the_split(
            packets in proptest::collection::vec(any_server_packet(), 1..10),
            cuts in proptest::collection::vec(any::<usize>(), 0..8),
        ) {
            let stream: Vec<u8> = packets.concat();
            let whole = Decoder::new().push(&stream).expect("well formed");
            prop_assert_eq!(whole.len(), packets.len());
            let mut points: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
            points.sort_unstable();
            let mut d = Decoder::new();
            let mut got = Vec::new();
            let mut from = 0;
            for p in points.into_iter().chain([stream.len()]) {
                got.extend(d.push(&stream[from..p]).expect("well formed"));
                from = p;
            }
            prop_assert_eq!(got, whole);
        }

        /// Whatever state the set-up stands in, a server that sends only messages it passes
        /// over (unknown kinds, keys before the display is taken) ends it within
        /// MAX_PASSED_OVER of them.
        #[test]
        fn the_set_up_is_bounded_in_every_state(
            state in 0usize..7,
            noise in proptest::collection::vec((any::<bool>(), any::<u32>()), 1..200),
        ) {
            let mut s = Session::new(Some(b"k".to_vec()), Vec::new());
            let steps = [
                FromServer::Version(8),
                FromServer::AuthMethods(vec![AUTH_KEY]),
                FromServer::Ack,
                FromServer::DisplaySize { columns: 40, rows: 1 },
                FromServer::Ack,
                FromServer::Ack,
            ];
            for step in steps.into_iter().take(state) {
                prop_assert!(s.receive(step).is_ok());
            }
            let mut ended = false;
            for (n, (key, code)) in noise.iter().enumerate() {
                // The kinds BrlAPI's set-up answers with are left out: only noise.
                let kind = match code % 4 {
                    0 => u32::from(b'p'),
                    1 => u32::from(b'x'),
                    2 => 0x7fff_ffff,
                    _ => u32::from(b'w'),
                };
                let m = if *key { FromServer::Key(u64::from(*code)) } else { FromServer::Other(kind) };
                if s.receive(m).is_err() {
                    prop_assert!(n <= MAX_PASSED_OVER, "ended after {n}");
                    ended = true;
                    break;
                }
            }
            prop_assert!(ended || noise.len() <= MAX_PASSED_OVER, "never ended");
            prop_assert!(!s.is_ready());
        }

        #[test]
        fn a_session_fed_anything_never_panics_and_never_writes_before_ready(
            packets in proptest::collection::vec(any_server_packet(), 0..12),
        ) {
            let mut s = Session::new(Some(b"k".to_vec()), Vec::new());
            for bytes in packets {
                let Ok(parsed) = Decoder::new().push(&bytes) else { continue };
                for p in parsed {
                    let Ok(m) = FromServer::parse(&p) else { continue };
                    match s.receive(m) {
                        Ok(next) => {
                            for n in next {
                                if let Next::Send(r) = n {
                                    let writes = matches!(r, Request::Write { .. });
                                    prop_assert!(!writes, "a write before ready");
                                    prop_assert!(r.encode().is_ok());
                                }
                            }
                        }
                        Err(_) => break,
                    }
                }
            }
        }

        #[test]
        fn any_text_makes_a_write_within_the_packet_limit(
            text in ".{0,500}",
            cells in 0usize..1000,
            cursor in proptest::option::of(0usize..1000),
        ) {
            let bytes = Request::Write { text, cursor, cells }.encode().expect("fits");
            let packets = Decoder::new().push(&bytes).expect("frames");
            prop_assert_eq!(packets.len(), 1);
        }
    }
}
