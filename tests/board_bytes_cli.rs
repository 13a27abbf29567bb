//! The e-board drivers against boards whose bytes are written here from the protocols'
//! documents, not made by hector's encoders (the simulator, `hector simulate-board`, encodes
//! with the core types the drivers decode with, so a mistake shared by both would pass its
//! tests): a DGT board answering the commands as the agreed protocol facts
//! (/work/shared/spec/board-protocols.md, docs/BOARDS.md) say, with the worked example's board
//! dump and field updates in either order; and a peg board speaking docs/PEG-PROTOCOL.md's
//! sample session line by line, its checksums as the document prints them. The board monitor
//! (`hector board monitor`) reads them through a real pseudo-terminal.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::pty::Pty as Terminal;
use common::temp_dir;
use hector::io::serial::Pty as Device;

const LIMIT: Duration = Duration::from_secs(20);

/// A board on a pseudo-terminal: what the host sends is kept, and `answer` gives the board's
/// reply to each piece of it.
struct Board {
    device: Arc<Device>,
    heard: Arc<Mutex<Vec<u8>>>,
    stop: Arc<AtomicBool>,
}

impl Board {
    fn start(link: &Path, answer: impl Fn(&[u8]) -> Vec<u8> + Send + 'static) -> Board {
        let device = Arc::new(Device::open().expect("a pseudo-terminal"));
        std::os::unix::fs::symlink(device.path(), link).expect("the link");
        let heard = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (d, h, s) = (device.clone(), heard.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                if let Ok(Some(bytes)) = d.read_timeout(Duration::from_millis(50)) {
                    h.lock().unwrap().extend_from_slice(&bytes);
                    let reply = answer(&bytes);
                    if !reply.is_empty() {
                        let _ = d.write_all(&reply);
                    }
                }
            }
        });
        Board {
            device,
            heard,
            stop,
        }
    }

    fn send(&self, bytes: &[u8]) {
        self.device.write_all(bytes).expect("the board writes");
    }

    /// Waits until the host has sent `wanted` (somewhere in what it sent).
    fn heard(&self, wanted: &[u8]) {
        let deadline = Instant::now() + LIMIT;
        loop {
            let heard = self.heard.lock().unwrap().clone();
            if heard.windows(wanted.len()).any(|w| w == wanted) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the host never sent {wanted:02x?}; it sent {heard:02x?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// The DGT board dump of the start position, byte for byte as the worked example gives it:
/// `86 00 43`, a8–h8, eight black pawns, thirty-two empty squares, eight white pawns, a1–h1.
fn start_dump() -> Vec<u8> {
    let mut d = vec![0x86, 0x00, 0x43];
    d.extend([0x08, 0x09, 0x0a, 0x0c, 0x0b, 0x0a, 0x09, 0x08]);
    d.extend([0x07; 8]);
    d.extend([0x00; 32]);
    d.extend([0x01; 8]);
    d.extend([0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02]);
    assert_eq!(d.len(), 67);
    d
}

/// A field update, `8e 00 05 square piece`, sent by the board whose squares are `fields`.
fn field(board: &Board, fields: &Fields, square: u8, piece: u8) {
    fields.lock().unwrap()[usize::from(square)] = piece;
    board.send(&[0x8e, 0x00, 0x05, square, piece]);
}

/// A DGT board's squares as its dump sends them (the 64 bytes after the header).
type Fields = Arc<Mutex<Vec<u8>>>;

/// A DGT board's answers to the host's command bytes, from the command table: the board
/// dump of the squares now, a clock message saying there is no clock, serial numbers, the
/// trademark, a version, the battery; the update modes and the reset are answered by nothing.
fn dgt_answers(fields: Fields) -> impl Fn(&[u8]) -> Vec<u8> {
    move |bytes| {
        let mut out = Vec::new();
        for &b in bytes {
            match b {
                0x42 => {
                    out.extend([0x86, 0x00, 0x43]);
                    out.extend(fields.lock().unwrap().iter());
                }
                // BWTIME, 10 bytes: status bit 5, no clock.
                0x41 => out.extend([0x8d, 0x00, 0x0a, 0, 0, 0, 0, 0, 0, 0x20]),
                0x45 => out.extend([0x91, 0x00, 0x08, b'1', b'2', b'3', b'4', b'5']),
                0x46 => out.extend([0x90, 0x00, 0x05, 0x00, 0x01]),
                0x47 => {
                    let text = b"Digital Game Technology";
                    out.extend([0x92, 0x00, 3 + text.len() as u8]);
                    out.extend(text);
                }
                0x49 => out.extend([0x8f, 0x00, 0x03]),
                0x4c => out.extend([0xa0, 0x00, 0x04, 0x64]),
                0x4d => out.extend([0x93, 0x00, 0x05, 0x01, 0x07]),
                0x55 => {
                    out.extend([0xa2, 0x00, 0x0d]);
                    out.extend(b"0123456789");
                }
                _ => {}
            }
        }
        out
    }
}

fn monitor(link: &Path, protocol: &str) -> Terminal {
    let link = link.display().to_string();
    Terminal::spawn(
        &[
            "board",
            "monitor",
            &link,
            "--protocol",
            protocol,
            "--lang",
            "en",
        ],
        &[("HECTOR_CONFIG", "")],
    )
}

/// The worked example of the DGT facts: the host asks for the board (0x42) and gets the start
/// position; the pawn lifted from e2 (square 0x34) and put on e4 (0x24) is 1. e4. Then the
/// same in the other order (either is possible), a capture whose piece lands before the
/// capturer's square empties (the captured piece's removal is never reported), and a stray
/// data byte before a message, which the reader skips by the high bit.
#[test]
fn a_dgt_board_speaking_the_documented_bytes() {
    let dir = temp_dir("dgt-bytes");
    let link = dir.join("board");
    let fields: Fields = Arc::new(Mutex::new(start_dump()[3..].to_vec()));
    let board = Board::start(&link, dgt_answers(fields.clone()));
    let mut t = monitor(&link, "dgt");
    board.heard(&[0x42]);
    t.expect("Board matches the game", LIMIT);
    // 1. e4: e2 empty, then a white pawn (1) on e4.
    t.mark();
    field(&board, &fields, 0x34, 0x00);
    field(&board, &fields, 0x24, 0x01);
    t.expect("Eva four (e2e4)", LIMIT);
    // 1... e5 in the other order: the black pawn (7) on e5 (0x1c) first, then e7 (0x0c) empty.
    field(&board, &fields, 0x1c, 0x07);
    field(&board, &fields, 0x0c, 0x00);
    t.expect("Eva five (e7e5)", LIMIT);
    // 2. d4 (d2 = 0x33, d4 = 0x23), 2... exd4: the black pawn lands on d4 before e5 empties.
    field(&board, &fields, 0x33, 0x00);
    field(&board, &fields, 0x23, 0x01);
    t.expect("David four (d2d4)", LIMIT);
    field(&board, &fields, 0x23, 0x07);
    field(&board, &fields, 0x1c, 0x00);
    t.expect("Eva takes David four (e5d4)", LIMIT);
    // A stray data byte (high bit clear) before 3. Qxd4: skipped.
    board.send(&[0x05]);
    field(&board, &fields, 0x3b, 0x00);
    field(&board, &fields, 0x23, 0x06);
    t.expect("Queen takes David four (d1d4)", LIMIT);
    // The host asked for updates in one of the documented modes.
    let heard = board.heard.lock().unwrap().clone();
    assert!(
        heard.iter().any(|b| [0x43, 0x44, 0x4b].contains(b)),
        "{heard:02x?}"
    );
    t.send(b"\x03");
    let _ = t.wait_exit(LIMIT);
}

/// A board turned round reports everything mirrored (index 0 is h1): the host finds the
/// orientation from the start position, and 1. e4 arrives as squares 63 − 0x34 and 63 − 0x24.
#[test]
fn a_turned_dgt_board_is_read_the_right_way_round() {
    let dir = temp_dir("dgt-turned");
    let link = dir.join("board");
    let mut squares = start_dump()[3..].to_vec();
    squares.reverse();
    let fields: Fields = Arc::new(Mutex::new(squares));
    let board = Board::start(&link, dgt_answers(fields.clone()));
    let mut t = monitor(&link, "dgt");
    t.expect("Board matches the game", LIMIT);
    t.mark();
    field(&board, &fields, 63 - 0x34, 0x00);
    field(&board, &fields, 63 - 0x24, 0x01);
    t.expect("Eva four (e2e4)", LIMIT);
    t.send(b"\x03");
    let _ = t.wait_exit(LIMIT);
}

/// The sample session of docs/PEG-PROTOCOL.md, its lines as the document prints them (with
/// their checksums): the host sends `V` and `?` after opening the port; the board answers
/// with its version and the start position's snapshot; 1. e4, 1... d5 and 2. exd5 follow
/// from the lifts and placements, and the button at the end. A line with a wrong checksum is
/// dropped: a lift it claims is not seen.
#[test]
fn a_peg_board_speaking_the_documented_sample_session() {
    let dir = temp_dir("peg-bytes");
    let link = dir.join("board");
    let board = Board::start(&link, |bytes| {
        let mut out = Vec::new();
        for line in String::from_utf8_lossy(bytes).split('\n') {
            match line.trim_end_matches('\r') {
                "V" => out.extend(b"V hector-peg 1 ibca-peg-32\n"),
                "?" => out.extend(
                    b"S xxxxxxxxxxxxxxxx................................xxxxxxxxxxxxxxxx*73\n",
                ),
                _ => {}
            }
        }
        out
    });
    let mut t = monitor(&link, "peg");
    board.heard(b"V\n");
    board.heard(b"?\n");
    t.expect("Board matches the game", LIMIT);
    t.mark();
    // A damaged line, whose checksum does not match (P e4 is *21), is dropped: the pawn is
    // put on e4 once.
    board.send(b"L e2*3B\n");
    board.send(b"P e4*00\n");
    board.send(b"P e4*21\n");
    t.expect("Eva four (e2e4)", LIMIT);
    board.send(b"S xxxxxxxxxxxxxxxx....................x...........xxxx.xxxxxxxxxxx*73\n");
    board.send(b"L d7*3F\n");
    board.send(b"P d5*21\n");
    t.expect("David five (d7d5)", LIMIT);
    board.send(b"L e4*3D\n");
    board.send(b"L d5*3D\n");
    board.send(b"P d5*21\n");
    t.expect("Eva takes David five (e4d5)", LIMIT);
    board.send(b"B done\n");
    // The damaged placement counted for nothing.
    let said = t.all_output();
    assert_eq!(said.matches("peg: e4 placed").count(), 1, "{said}");
    assert_eq!(said.matches("Eva four (e2e4)").count(), 1, "{said}");
    t.send(b"\x03");
    let _ = t.wait_exit(LIMIT);
}
