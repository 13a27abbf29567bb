//! hector peg protocol, version 1: ASCII lines from tactile peg boards with a sensor in every
//! hole (FIDE Appendix D1). Documented for board makers in `docs/PEG-PROTOCOL.md`.
//!
//! Every line ends in `\n` (a `\r` before it is ignored) and may end with `*HH`, the XOR of
//! all bytes before the `*` in two hex digits. Board to host: `L e2`, `P e4`, `P e4 N`,
//! `S <64 letters>`, `B <name>`, `V <text>`, `E <text>`. Host to board: `?` and `V`.

use shakmaty::{Board, Piece, Square};

use super::codec::{BoardMessage, Codec, Decoded, Emulator, Heard, SerialSettings};
use super::{Picture, SensorEvent, SquareState, rows_a8_to_h1};

/// The longest line kept, checksum included. The longest line of the protocol, a snapshot
/// with checksum, has 69 bytes; the rest of a longer line is dropped.
pub(crate) const MAX_LINE_LEN: usize = 256;

/// A line from the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PegMessage {
    /// `L e2`: a peg left its hole (Appendix D2.2: the piece counts as touched).
    Lift(Square),
    /// `P e4` or `P e4 N`: a peg went into a hole; the piece on boards that identify pieces.
    Place(Square, Option<Piece>),
    /// `S …`: the whole board.
    Snapshot(Picture),
    /// `B done`: a button on the board.
    Button(String),
    /// `V …`: the answer to `V`, protocol version and board name.
    Version(String),
    /// `E …`: a fault the board reports about itself.
    Fault(String),
    /// A line this host does not understand, for the log.
    Unknown(String),
}

impl PegMessage {
    /// What the recognizer needs to hear, if anything.
    pub(crate) fn sensor_event(&self) -> Option<SensorEvent> {
        match self {
            PegMessage::Lift(sq) => Some(SensorEvent::Lifted(*sq)),
            PegMessage::Place(sq, piece) => Some(SensorEvent::Placed(*sq, *piece)),
            PegMessage::Snapshot(picture) => Some(SensorEvent::Snapshot(*picture)),
            _ => None,
        }
    }
}

/// A request from host to board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PegCommand {
    /// `?`: send an `S` line.
    Snapshot,
    /// `V`: send the `V` line.
    Version,
}

pub(crate) fn encode(cmd: PegCommand) -> Vec<u8> {
    match cmd {
        PegCommand::Snapshot => b"?\n".to_vec(),
        PegCommand::Version => b"V\n".to_vec(),
    }
}

/// `line` with its checksum appended, `L e2` → `L e2*3B` (no newline).
pub fn with_checksum(line: &str) -> String {
    format!("{line}*{:02X}", xor(line.as_bytes()))
}

fn xor(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |acc, b| acc ^ b)
}

/// Splits the board's byte stream into lines and parses them. Never fails: lines with a
/// wrong checksum or too long are dropped and counted, lines not understood come back as
/// [`PegMessage::Unknown`].
#[derive(Clone, Debug, Default)]
pub struct PegDecoder {
    line: Vec<u8>,
    /// The current line outgrew [`MAX_LINE_LEN`]: skip to its end.
    skipping: bool,
    bad_lines: u64,
}

impl PegDecoder {
    pub fn new() -> PegDecoder {
        PegDecoder::default()
    }

    pub fn push(&mut self, bytes: &[u8]) -> Vec<PegMessage> {
        let mut out = Vec::new();
        for &byte in bytes {
            if byte == b'\n' {
                if self.skipping {
                    self.skipping = false;
                } else {
                    let mut line = std::mem::take(&mut self.line);
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    if !line.is_empty() {
                        match parse_line(&line) {
                            Some(message) => out.push(message),
                            None => self.bad_lines += 1,
                        }
                    }
                }
                self.line.clear();
            } else if self.skipping {
                continue;
            } else if self.line.len() >= MAX_LINE_LEN {
                self.skipping = true;
                self.bad_lines += 1;
                self.line.clear();
            } else {
                self.line.push(byte);
            }
        }
        out
    }

    /// Lines dropped so far: wrong checksum, or longer than [`MAX_LINE_LEN`].
    pub fn bad_lines(&self) -> u64 {
        self.bad_lines
    }
}

/// One line without its end; `None` when its checksum does not match.
fn parse_line(line: &[u8]) -> Option<PegMessage> {
    let unknown = || PegMessage::Unknown(String::from_utf8_lossy(line).into_owned());
    let body = match line.iter().rposition(|&b| b == b'*') {
        Some(star) => {
            let Some(sum) = line.get(star + 1..).and_then(parse_hex_byte) else {
                // A `*` that does not start a checksum: the line is malformed.
                return Some(unknown());
            };
            let body = &line[..star];
            if xor(body) != sum {
                return None;
            }
            body
        }
        None => line,
    };
    let Ok(text) = std::str::from_utf8(body) else {
        return Some(unknown());
    };
    Some(parse_text(text).unwrap_or_else(unknown))
}

fn parse_hex_byte(digits: &[u8]) -> Option<u8> {
    let [hi, lo] = digits else {
        return None;
    };
    let digit = |d: u8| char::from(d).to_digit(16);
    Some((digit(*hi)? * 16 + digit(*lo)?) as u8)
}

fn parse_text(text: &str) -> Option<PegMessage> {
    let (kind, rest) = text.split_once(' ')?;
    match kind {
        "L" => parse_square(rest).map(PegMessage::Lift),
        "P" => match rest.split_once(' ') {
            None => parse_square(rest).map(|sq| PegMessage::Place(sq, None)),
            Some((sq, letter)) => {
                let mut chars = letter.chars();
                let piece = Piece::from_char(chars.next()?)?;
                if chars.next().is_some() {
                    return None;
                }
                Some(PegMessage::Place(parse_square(sq)?, Some(piece)))
            }
        },
        "S" => parse_snapshot(rest).map(PegMessage::Snapshot),
        "B" if !rest.is_empty() => Some(PegMessage::Button(rest.to_owned())),
        "V" if !rest.is_empty() => Some(PegMessage::Version(rest.to_owned())),
        "E" if !rest.is_empty() => Some(PegMessage::Fault(rest.to_owned())),
        _ => None,
    }
}

/// Exactly a file letter `a`–`h` and a rank digit `1`–`8`.
fn parse_square(text: &str) -> Option<Square> {
    match text.as_bytes() {
        [b'a'..=b'h', b'1'..=b'8'] => Square::from_ascii(text.as_bytes()).ok(),
        _ => None,
    }
}

fn parse_snapshot(text: &str) -> Option<Picture> {
    if text.len() != 64 {
        return None;
    }
    let mut picture = Picture::EMPTY;
    for (sq, c) in rows_a8_to_h1().zip(text.chars()) {
        picture.set(sq, SquareState::from_char(c)?);
    }
    Some(picture)
}

/// hector's peg protocol as a [`Codec`].
#[derive(Clone, Debug, Default)]
pub(crate) struct PegCodec {
    decoder: PegDecoder,
    /// Lines dropped by decoders replaced on reconnection.
    dropped_before: u64,
}

impl PegCodec {
    pub(crate) fn new() -> PegCodec {
        PegCodec::default()
    }
}

impl Codec for PegCodec {
    fn name(&self) -> &'static str {
        "peg"
    }

    fn summary(&self) -> &'static str {
        "hector's peg protocol for tactile boards with a sensor in every hole"
    }

    fn serial(&self) -> SerialSettings {
        SerialSettings::eight_n_one(115_200)
    }

    /// Taken as occupancy-only: a board that names pieces is read all the same.
    fn identifies_pieces(&self) -> bool {
        false
    }

    fn connect(&mut self) -> Vec<u8> {
        // A line cut off by the unplugging must not join the first new one.
        self.dropped_before += self.decoder.bad_lines();
        self.decoder = PegDecoder::new();
        let mut bytes = encode(PegCommand::Version);
        bytes.extend(encode(PegCommand::Snapshot));
        bytes
    }

    fn request_position(&mut self) -> Vec<u8> {
        encode(PegCommand::Snapshot)
    }

    fn decode(&mut self, bytes: &[u8]) -> Decoded {
        let heard = self
            .decoder
            .push(bytes)
            .into_iter()
            .map(|message| match message.sensor_event() {
                Some(event) => Heard::Sensor(event),
                None => Heard::Message(message.into_board_message()),
            })
            .collect();
        Decoded {
            heard,
            send: Vec::new(),
        }
    }

    fn dropped(&self) -> u64 {
        self.dropped_before + self.decoder.bad_lines()
    }

    fn dropped_words(&self, count: u64) -> String {
        let plural = if count == 1 { "" } else { "s" };
        format!("{count} line{plural} dropped (wrong checksum or too long)")
    }

    fn emulator(&self, identifies: bool) -> Box<dyn Emulator> {
        Box::new(PegEmulator {
            identifies,
            host_line: Vec::new(),
            snapshot_asked: false,
        })
    }
}

impl PegMessage {
    /// The message as the monitor tells it (sensor lines come as sensor events instead).
    fn into_board_message(self) -> BoardMessage {
        match self {
            PegMessage::Fault(text) => BoardMessage::Fault(text),
            PegMessage::Button(name) => BoardMessage::Button(name),
            PegMessage::Version(text) => BoardMessage::Note(format!("version {text}")),
            PegMessage::Unknown(text) => BoardMessage::Note(format!("line not understood: {text}")),
            PegMessage::Lift(sq) => BoardMessage::Note(format!("{sq} lifted")),
            PegMessage::Place(sq, _) => BoardMessage::Note(format!("{sq} placed")),
            PegMessage::Snapshot(picture) => {
                BoardMessage::Note(format!("board {}", picture.to_rows()))
            }
        }
    }
}

/// The simulated board's answer to `V`.
const EMULATED_VERSION_LINE: &str = "V hector-peg 1 hector-simulator";

/// A peg board as the simulator plays it: every line with its checksum, an `L` or `P` line for
/// every hole that changes, and the answers to `?` and `V`.
#[derive(Clone, Debug)]
pub(crate) struct PegEmulator {
    /// Name the piece in `P` and `S` lines.
    identifies: bool,
    /// The host's line being received.
    host_line: Vec<u8>,
    /// The host asked for a snapshot since power-up.
    snapshot_asked: bool,
}

impl Emulator for PegEmulator {
    fn title(&self) -> String {
        if self.identifies {
            "peg (pieces identified)"
        } else {
            "peg (occupancy only)"
        }
        .to_owned()
    }

    fn scans(&self) -> bool {
        false
    }

    fn host_ready(&self) -> bool {
        self.snapshot_asked
    }

    fn power_up(&mut self) {
        self.host_line.clear();
        self.snapshot_asked = false;
    }

    fn report(&self, _board: &Board, square: Square, piece: Option<Piece>) -> Option<Vec<u8>> {
        Some(board_line(&match piece {
            None => format!("L {square}"),
            Some(p) if self.identifies => format!("P {square} {}", p.char()),
            Some(_) => format!("P {square}"),
        }))
    }

    fn snapshot(&self, board: &Board) -> Vec<u8> {
        let picture = if self.identifies {
            Picture::from_board(board)
        } else {
            Picture::occupancy_of(board)
        };
        board_line(&format!("S {}", picture.to_rows()))
    }

    fn answer(&mut self, bytes: &[u8], board: &Board) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for &b in bytes {
            if b != b'\n' {
                // The protocol's lines are short; a runaway line is cut.
                if self.host_line.len() < MAX_LINE_LEN {
                    self.host_line.push(b);
                }
                continue;
            }
            let line = std::mem::take(&mut self.host_line);
            match line.strip_suffix(b"\r").unwrap_or(&line) {
                b"?" => {
                    self.snapshot_asked = true;
                    out.push(self.snapshot(board));
                }
                b"V" => out.push(board_line(EMULATED_VERSION_LINE)),
                // Later versions may add commands: ignored, as the protocol asks.
                _ => {}
            }
        }
        out
    }

    fn noise(&self, mut bytes: Vec<u8>) -> Vec<u8> {
        for byte in &mut bytes {
            if *byte == b'\n' {
                *byte = b'#';
            }
        }
        bytes.push(b'\n');
        bytes
    }

    fn line(&self, text: &str) -> Option<Vec<u8>> {
        Some(if text.contains('*') {
            format!("{text}\n").into_bytes()
        } else {
            board_line(text)
        })
    }
}

/// A line as a board that can sends it: with its checksum and line end.
fn board_line(text: &str) -> Vec<u8> {
    let mut line = with_checksum(text).into_bytes();
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use shakmaty::{Board, Color, Role};

    const START_ROWS: &str = "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR";

    fn decode_all(bytes: &[u8]) -> (Vec<PegMessage>, u64) {
        let mut decoder = PegDecoder::new();
        let messages = decoder.push(bytes);
        (messages, decoder.bad_lines())
    }

    fn one(line: &str) -> PegMessage {
        let (mut messages, bad) = decode_all(format!("{line}\n").as_bytes());
        assert_eq!(bad, 0, "{line}");
        assert_eq!(messages.len(), 1, "{line}: {messages:?}");
        messages.remove(0)
    }

    #[test]
    fn checksum_worked_example() {
        // L = 4C, space = 20, e = 65, 2 = 32; 4C ^ 20 ^ 65 ^ 32 = 3B.
        assert_eq!(with_checksum("L e2"), "L e2*3B");
        assert_eq!(with_checksum("P e4 N"), "P e4 N*4F");
        assert_eq!(
            with_checksum(&format!("S {START_ROWS}")),
            format!("S {START_ROWS}*73")
        );
    }

    #[test]
    fn every_line_with_and_without_checksum() {
        let knight = Piece {
            color: Color::White,
            role: Role::Knight,
        };
        let mut picture = Picture::from_board(&Board::new());
        picture.set(Square::E2, SquareState::Empty);
        picture.set(Square::E4, SquareState::Occupied(None));
        let rows = picture.to_rows();
        let cases = [
            ("L e2".to_owned(), PegMessage::Lift(Square::E2)),
            ("P e4".to_owned(), PegMessage::Place(Square::E4, None)),
            (
                "P f3 N".to_owned(),
                PegMessage::Place(Square::F3, Some(knight)),
            ),
            (
                "P h8 q".to_owned(),
                PegMessage::Place(
                    Square::H8,
                    Some(Piece {
                        color: Color::Black,
                        role: Role::Queen,
                    }),
                ),
            ),
            (format!("S {rows}"), PegMessage::Snapshot(picture)),
            ("B done".to_owned(), PegMessage::Button("done".to_owned())),
            (
                "V hector-peg 1 ibca-peg-32".to_owned(),
                PegMessage::Version("hector-peg 1 ibca-peg-32".to_owned()),
            ),
            (
                "E sensor c3 silent".to_owned(),
                PegMessage::Fault("sensor c3 silent".to_owned()),
            ),
        ];
        for (line, want) in cases {
            assert_eq!(one(&line), want, "{line}");
            let summed = with_checksum(&line);
            assert_eq!(one(&summed), want, "{summed}");
            assert_eq!(one(&summed.to_lowercase_checksum()), want, "{summed}");
            assert_eq!(one(&format!("{summed}\r")), want, "{summed} with CR");
        }
    }

    trait LowercaseChecksum {
        fn to_lowercase_checksum(&self) -> String;
    }

    impl LowercaseChecksum for String {
        fn to_lowercase_checksum(&self) -> String {
            match self.rsplit_once('*') {
                Some((body, sum)) => format!("{body}*{}", sum.to_lowercase()),
                None => self.clone(),
            }
        }
    }

    #[test]
    fn snapshot_order_is_a8_to_h1() {
        let PegMessage::Snapshot(picture) = one(&format!("S {START_ROWS}")) else {
            panic!("a snapshot");
        };
        assert_eq!(picture, Picture::from_board(&Board::new()));
        assert_eq!(
            picture[Square::A8],
            SquareState::Occupied(Some(Piece {
                color: Color::Black,
                role: Role::Rook
            }))
        );
    }

    #[test]
    fn wrong_checksums_are_dropped_and_counted() {
        let (messages, bad) = decode_all(b"L e2*3C\nL e2*3B\nP e4*00\r\n");
        assert_eq!(messages, vec![PegMessage::Lift(Square::E2)]);
        assert_eq!(bad, 2);
    }

    #[test]
    fn malformed_lines_are_unknown() {
        for line in [
            "L",
            "L e9",
            "L i2",
            "L E2",
            "L e2 ",
            "Le2",
            "P e4 Z",
            "P e4 NN",
            "S rnbq",
            &format!("S {}", "y".repeat(64)),
            &format!("S {START_ROWS}."),
            "B",
            "B ",
            "X hello",
            "?",
            "L e2*3",
            "L e2*3BB",
            "L e2*G1",
            "L e2*",
        ] {
            let (messages, bad) = decode_all(format!("{line}\n").as_bytes());
            assert_eq!(bad, 0, "{line}");
            assert_eq!(
                messages,
                vec![PegMessage::Unknown(line.to_owned())],
                "{line}"
            );
        }
        // Bytes that are not UTF-8 survive as replacement characters in the log text.
        let (messages, _) = decode_all(b"L \xff\xfe\n");
        assert!(matches!(&messages[..], [PegMessage::Unknown(_)]));
    }

    #[test]
    fn empty_lines_are_ignored() {
        let (messages, bad) = decode_all(b"\n\r\n\nL a1\n");
        assert_eq!(messages, vec![PegMessage::Lift(Square::A1)]);
        assert_eq!(bad, 0);
    }

    #[test]
    fn any_split_gives_the_same_messages() {
        let session = format!(
            "V hector-peg 1 test\r\nS {START_ROWS}\n{}\n{}\r\nB done\nE low supply*00\n",
            with_checksum("L e2"),
            with_checksum("P e4")
        );
        let bytes = session.as_bytes();
        let (whole, bad) = decode_all(bytes);
        assert_eq!(whole.len(), 5);
        assert_eq!(bad, 1);
        for cut in 0..=bytes.len() {
            let mut decoder = PegDecoder::new();
            let mut got = decoder.push(&bytes[..cut]);
            got.extend(decoder.push(&bytes[cut..]));
            assert_eq!(got, whole, "cut at {cut}");
            assert_eq!(decoder.bad_lines(), 1);
        }
    }

    #[test]
    fn endless_lines_cannot_eat_memory() {
        let mut decoder = PegDecoder::new();
        for _ in 0..100 {
            assert!(decoder.push(&[b'x'; 1000]).is_empty());
        }
        assert!(decoder.line.len() <= MAX_LINE_LEN);
        assert_eq!(decoder.bad_lines(), 1);
        assert_eq!(
            decoder.push(b"still the same line\nL h8\n"),
            vec![PegMessage::Lift(Square::H8)]
        );
        // A line exactly at the limit is still read.
        let long = format!("B {}", "b".repeat(MAX_LINE_LEN - 2));
        assert_eq!(
            decoder.push(format!("{long}\n").as_bytes()),
            vec![PegMessage::Button("b".repeat(MAX_LINE_LEN - 2))]
        );
    }

    /// The sample session of docs/PEG-PROTOCOL.md, replayed: every board line is read, with
    /// its checksum, and the moves come out.
    #[test]
    fn the_documented_sample_session() {
        use crate::board::{Recognition, Recognizer};
        use crate::time::Timestamp;
        use shakmaty::{CastlingMode, Chess};

        let doc = include_str!("../../../docs/PEG-PROTOCOL.md");
        let session = doc
            .split("## Sample session")
            .nth(1)
            .expect("the document has a sample session");
        let mut decoder = PegDecoder::new();
        let mut rec = Recognizer::new(
            Chess::default(),
            CastlingMode::Standard,
            false,
            crate::board::recognizer::DEFAULT_SETTLE,
        );
        let mut moves = Vec::new();
        let mut lines = 0;
        for row in session.lines() {
            let Some((time, rest)) = row.split_once(" < ") else {
                continue;
            };
            let seconds: f64 = time.trim().parse().expect("a time");
            // The line is everything up to the comment column.
            let line = rest.split("   ").next().expect("a line").trim_end();
            for message in decoder.push(format!("{line}\n").as_bytes()) {
                assert!(!matches!(message, PegMessage::Unknown(_)), "{line}");
                lines += 1;
                if let Some(ev) = message.sensor_event() {
                    let now = Timestamp::from_millis((seconds * 1000.0) as u64);
                    for r in rec.event(ev, now) {
                        if let Recognition::Moved(m) = r {
                            moves.push(m.to_string());
                        }
                    }
                }
            }
        }
        assert_eq!(decoder.bad_lines(), 0);
        assert_eq!(lines, 11);
        assert_eq!(moves, vec!["e2-e4", "d7-d5", "e4xd5"]);
    }

    #[test]
    fn host_commands() {
        assert_eq!(encode(PegCommand::Snapshot), b"?\n");
        assert_eq!(encode(PegCommand::Version), b"V\n");
    }

    #[test]
    fn sensor_events_of_messages() {
        assert_eq!(
            PegMessage::Lift(Square::E2).sensor_event(),
            Some(SensorEvent::Lifted(Square::E2))
        );
        assert_eq!(
            PegMessage::Place(Square::E4, None).sensor_event(),
            Some(SensorEvent::Placed(Square::E4, None))
        );
        assert_eq!(PegMessage::Button("done".to_owned()).sensor_event(), None);
    }

    fn any_line() -> impl Strategy<Value = (String, PegMessage)> {
        let square = (0u32..64).prop_map(Square::new);
        let state = prop::sample::select("KQRBNPkqrbnpx.".chars().collect::<Vec<_>>());
        prop_oneof![
            square
                .clone()
                .prop_map(|sq| (format!("L {sq}"), PegMessage::Lift(sq))),
            square
                .clone()
                .prop_map(|sq| (format!("P {sq}"), PegMessage::Place(sq, None))),
            proptest::collection::vec(state, 64).prop_map(|letters| {
                let rows: String = letters.into_iter().collect();
                let picture = parse_snapshot(&rows).expect("valid letters");
                (format!("S {rows}"), PegMessage::Snapshot(picture))
            }),
            "[a-z]{1,20}".prop_map(|name| (format!("B {name}"), PegMessage::Button(name))),
        ]
    }

    proptest! {
        #[test]
        fn any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
            let mut decoder = PegDecoder::new();
            let _ = decoder.push(&bytes);
            prop_assert!(decoder.line.len() <= MAX_LINE_LEN);
        }

        #[test]
        fn lines_round_trip_with_or_without_checksum(
            lines in proptest::collection::vec((any_line(), any::<bool>()), 1..10),
            cut in any::<usize>(),
        ) {
            let mut stream = String::new();
            let mut want = Vec::new();
            for ((line, message), summed) in lines {
                stream.push_str(&if summed { with_checksum(&line) } else { line });
                stream.push('\n');
                want.push(message);
            }
            let bytes = stream.as_bytes();
            let cut = cut % (bytes.len() + 1);
            let mut decoder = PegDecoder::new();
            let mut got = decoder.push(&bytes[..cut]);
            got.extend(decoder.push(&bytes[cut..]));
            prop_assert_eq!(got, want);
            prop_assert_eq!(decoder.bad_lines(), 0);
        }

        #[test]
        fn a_corrupted_checksummed_line_is_never_misread(
            (line, _) in any_line(),
            at in any::<usize>(),
            flip in 1u8..=0x7f,
        ) {
            // Corrupt one byte of the body; the checksum then no longer matches.
            let summed = with_checksum(&line);
            let mut bytes = summed.into_bytes();
            let at = at % line.len();
            bytes[at] ^= flip;
            prop_assume!(bytes[at] != b'\n' && bytes[at] != b'*' && bytes[at] != b'\r');
            bytes.push(b'\n');
            let mut decoder = PegDecoder::new();
            let got = decoder.push(&bytes);
            prop_assert!(got.is_empty(), "{:?}", got);
            prop_assert_eq!(decoder.bad_lines(), 1);
        }
    }

    #[test]
    fn the_codec_is_named_peg_and_opens_the_port_at_115200_8n1() {
        use crate::board::codec::{DataBits, FlowControl, Parity, StopBits};
        let codec = PegCodec::new();
        assert_eq!(codec.name(), "peg");
        assert_eq!(
            codec.serial(),
            SerialSettings {
                baud: 115_200,
                data_bits: DataBits::Eight,
                parity: Parity::None,
                stop_bits: StopBits::One,
                flow_control: FlowControl::None,
            },
            "docs/PEG-PROTOCOL.md, Connection"
        );
        assert!(!codec.identifies_pieces(), "taken as occupancy-only");
        assert!(codec.summary().contains("peg"), "{}", codec.summary());
    }

    #[test]
    fn the_codec_asks_for_version_and_snapshot_and_words_what_it_hears() {
        let mut codec = PegCodec::new();
        assert_eq!(codec.connect(), b"V\n?\n");
        assert_eq!(codec.request_position(), b"?\n");
        let decoded =
            codec.decode(b"V hector-peg 1 x\nB done\nE supply low\nZ what\nL e2*00\nL e2\n");
        assert_eq!(
            decoded.heard,
            vec![
                Heard::Message(BoardMessage::Note("version hector-peg 1 x".into())),
                Heard::Message(BoardMessage::Button("done".into())),
                Heard::Message(BoardMessage::Fault("supply low".into())),
                Heard::Message(BoardMessage::Note("line not understood: Z what".into())),
                Heard::Sensor(SensorEvent::Lifted(Square::E2)),
            ]
        );
        assert!(decoded.send.is_empty(), "a peg host never answers");
        assert_eq!(codec.dropped(), 1, "the line with the wrong checksum");
        assert_eq!(
            codec.dropped_words(1),
            "1 line dropped (wrong checksum or too long)"
        );
        assert_eq!(
            codec.dropped_words(3),
            "3 lines dropped (wrong checksum or too long)"
        );
    }

    #[test]
    fn connecting_again_forgets_a_cut_line_but_keeps_the_count() {
        let mut codec = PegCodec::new();
        codec.decode(b"L e2*00\nL e");
        assert_eq!(codec.dropped(), 1);
        codec.connect();
        let decoded = codec.decode(b"2\nP e4\n");
        assert_eq!(
            decoded.heard,
            vec![
                Heard::Message(BoardMessage::Note("line not understood: 2".into())),
                Heard::Sensor(SensorEvent::Placed(Square::E4, None)),
            ],
            "the half line before the unplugging did not join the new one"
        );
        assert_eq!(codec.dropped(), 1);
    }

    #[test]
    fn the_emulated_board_is_read_back_by_the_codec() {
        let pawn = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        for identifies in [false, true] {
            let mut codec = PegCodec::new();
            let mut board = codec.emulator(identifies);
            assert_eq!(
                board.title(),
                if identifies {
                    "peg (pieces identified)"
                } else {
                    "peg (occupancy only)"
                }
            );
            assert!(!board.scans(), "a peg reports as the hand moves it");
            let start = Board::new();
            assert!(!board.host_ready());
            let answers = board.answer(&codec.connect(), &start);
            assert!(board.host_ready(), "the host asked for a snapshot");
            let heard = codec.decode(&answers.concat()).heard;
            let picture = if identifies {
                Picture::from_board(&start)
            } else {
                Picture::occupancy_of(&start)
            };
            assert_eq!(
                heard,
                vec![
                    Heard::Message(BoardMessage::Note(
                        "version hector-peg 1 hector-simulator".into()
                    )),
                    Heard::Sensor(SensorEvent::Snapshot(picture)),
                ]
            );
            let mut after = start.clone();
            after.discard_piece_at(Square::E2);
            let lift = board.report(&after, Square::E2, None).expect("said");
            after.set_piece_at(Square::E4, pawn);
            let place = board.report(&after, Square::E4, Some(pawn)).expect("said");
            let noise = board.noise(b"\n\n\x86garbage".to_vec());
            let done = board.line("B done").expect("a text protocol");
            let bytes = [lift, noise, place, done].concat();
            let heard = codec.decode(&bytes).heard;
            assert_eq!(
                heard.first(),
                Some(&Heard::Sensor(SensorEvent::Lifted(Square::E2)))
            );
            assert_eq!(
                heard[heard.len() - 2..],
                [
                    Heard::Sensor(SensorEvent::Placed(Square::E4, identifies.then_some(pawn))),
                    Heard::Message(BoardMessage::Button("done".into())),
                ],
                "the noise ended in a line of its own: {heard:?}"
            );
            assert_eq!(codec.dropped(), 0, "every line carried its checksum");
            board.power_up();
            assert!(!board.host_ready());
        }
    }
}
