//! Board latency and decoder throughput.
//!
//! cargo bench --bench board -- [--moves N] [--mb M]
//!
//! Latency: a simulated board on a real pseudo-terminal, opened by the same `BoardLink` the
//! modes use (serial reader thread, channel, protocol driver, recognizer). For each move the
//! first sensor change is sent and seen; then the clock starts, the last change of the move
//! is written to the pseudo-terminal, and it stops when the recognised move comes out of
//! `BoardLink::handle`. The reader thread's arrival stamp splits the time into "to the reader"
//! (kernel and thread wake-up) and "to the move" (channel, decoding, recognition).
//!
//! Peg boards and DGT knight moves are taken at once. A DGT move that a sliding piece could
//! still extend (Ra1-a3: the rook may be passing a3 on its way to a5) is taken only after the
//! recognizer's slide pause of quiet (500 ms); those are measured separately.
//!
//! Throughput: the DGT decoder and the peg decoder over a recorded-like stream, fed in 64-byte
//! reads as a serial port delivers them, best of five.

mod support;

use std::time::{Duration, Instant};

use hector::app::modes::simulate::model::SimBoard;
use hector::core::board::Recognition;
use hector::core::board::{DgtDecoder, PegDecoder, with_checksum};
use hector::io::board_link::{BoardEvent, BoardLink, Protocol};
use hector::io::serial::Pty;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

fn uci(pos: &Chess, text: &str) -> Option<Move> {
    UciMove::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok()
}

struct Sample {
    total: Duration,
    to_reader: Duration,
}

/// A simulated board on a pseudo-terminal and a link to it, in sync.
struct Rig {
    pty: Pty,
    sim: SimBoard,
    link: BoardLink,
    origin: Instant,
}

impl Rig {
    fn new(protocol: Protocol, start: Chess) -> Option<Rig> {
        let pty = Pty::open().ok()?;
        let origin = Instant::now();
        let link = BoardLink::open(
            pty.path(),
            protocol,
            None,
            start.clone(),
            CastlingMode::Standard,
            origin,
        )
        .ok()?;
        let mut rig = Rig {
            pty,
            sim: SimBoard::new(protocol, false, start),
            link,
            origin,
        };
        rig.answer_host();
        rig.until(|e| matches!(e, BoardEvent::InOrder))?;
        Some(rig)
    }

    /// Answers whatever the host asked for so far.
    fn answer_host(&mut self) {
        while let Ok(Some(bytes)) = self.pty.read_timeout(Duration::from_millis(20)) {
            for chunk in self.sim.answer(&bytes) {
                let _ = self.pty.write_all(&chunk);
            }
        }
    }

    /// Handles link events until one satisfies `want`; the arrival stamp of the data that
    /// produced it.
    fn until(&mut self, want: impl Fn(&BoardEvent) -> bool) -> Option<Instant> {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = match self.link.next_deadline() {
                Some(d) => left.min(d.saturating_duration_since(Instant::now())),
                None => left,
            };
            let mut events = Vec::new();
            let mut stamp = None;
            match self.link.events().recv_timeout(wait) {
                Ok(ev) => {
                    stamp = Some(self.origin + ev.at().since_origin());
                    events.extend(self.link.handle(ev));
                }
                Err(_) if left.is_zero() => return None,
                Err(_) => {}
            }
            events.extend(self.link.tick());
            if events.iter().any(&want) {
                return Some(stamp.unwrap_or_else(Instant::now));
            }
        }
    }

    /// Plays `m`: every change but the last, waits until the link has seen them, then times
    /// the last one.
    fn timed_move(&mut self, m: Move) -> Option<Sample> {
        let mut chunks = self.sim.play(m);
        let last = chunks.pop()?;
        for chunk in chunks {
            self.pty.write_all(&chunk).ok()?;
            self.until(|e| matches!(e, BoardEvent::Sensor(_)))?;
        }
        let start = Instant::now();
        self.pty.write_all(&last).ok()?;
        let arrived = self.until(|e| {
            matches!(
                e,
                BoardEvent::Recognized {
                    recognition: Recognition::Moved(_),
                    ..
                }
            )
        })?;
        let total = start.elapsed();
        Some(Sample {
            total,
            to_reader: arrived.saturating_duration_since(start),
        })
    }
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn report(name: &str, samples: &[Sample], split: bool) {
    let mut total: Vec<Duration> = samples.iter().map(|s| s.total).collect();
    let mut reader: Vec<Duration> = samples.iter().map(|s| s.to_reader).collect();
    total.sort();
    reader.sort();
    let mean = total.iter().sum::<Duration>() / total.len().max(1) as u32;
    print!(
        "{name}: {} moves; last byte to recognised move: p50 {:.0} µs, p90 {:.0} µs, \
         p99 {:.0} µs, max {:.0} µs, mean {:.0} µs",
        total.len(),
        micros(support::percentile(&total, 0.5)),
        micros(support::percentile(&total, 0.9)),
        micros(support::percentile(&total, 0.99)),
        micros(support::percentile(&total, 1.0)),
        micros(mean),
    );
    if split {
        print!(
            "; of it to the reader thread: p50 {:.0} µs, p99 {:.0} µs",
            micros(support::percentile(&reader, 0.5)),
            micros(support::percentile(&reader, 0.99)),
        );
    }
    println!();
}

/// Knights out and back: every move is taken at once on both kinds of board.
fn knight_latency(protocol: Protocol, moves: usize) -> Vec<Sample> {
    let Some(mut rig) = Rig::new(protocol, Chess::default()) else {
        eprintln!("{protocol:?}: cannot set up the pseudo-terminal");
        return Vec::new();
    };
    let cycle = ["g1f3", "b8c6", "f3g1", "c6b8"];
    let mut samples = Vec::with_capacity(moves);
    for i in 0..moves {
        let Some(m) = uci(rig.sim.game(), cycle[i % cycle.len()]) else {
            break;
        };
        match rig.timed_move(m) {
            Some(s) => samples.push(s),
            None => {
                eprintln!("{protocol:?}: move {i} was not recognised in time");
                break;
            }
        }
    }
    samples
}

/// A rook that could still be sliding: Ra1-a3 waits for the slide pause on a DGT board.
fn slide_latency(rounds: usize) -> Vec<Sample> {
    let Some(start) = Fen::from_ascii(b"4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
        .ok()
        .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
    else {
        return Vec::new();
    };
    let Some(mut rig) = Rig::new(Protocol::Dgt, start) else {
        return Vec::new();
    };
    let mut samples = Vec::new();
    for _ in 0..rounds {
        for (text, timed) in [
            ("a1a3", true),
            ("e8d8", false),
            ("a3a1", false),
            ("d8e8", false),
        ] {
            let Some(m) = uci(rig.sim.game(), text) else {
                return samples;
            };
            let sample = rig.timed_move(m);
            match sample {
                Some(s) if timed => samples.push(s),
                Some(_) => {}
                None => return samples,
            }
        }
    }
    samples
}

/// A DGT stream: field updates with now and then a board dump, as a game produces it.
fn dgt_stream(bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes + 128);
    let mut x: u64 = 2026;
    let mut n = 0u64;
    while out.len() < bytes {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        n += 1;
        if n.is_multiple_of(100) {
            out.extend_from_slice(&[0x86, 0x00, 0x43]);
            out.extend((0..64).map(|i| ((x >> (i % 60)) & 0x0f) as u8 % 13));
        } else {
            out.extend_from_slice(&[0x8e, 0x00, 0x05, (x % 64) as u8, ((x >> 8) % 13) as u8]);
        }
    }
    out
}

/// A peg stream: lifts, placements and snapshots, all with checksums.
fn peg_stream(bytes: usize) -> Vec<u8> {
    let squares: Vec<String> = (0..64)
        .map(|i| format!("{}{}", char::from(b'a' + i % 8), char::from(b'1' + i / 8)))
        .collect();
    let snapshot =
        with_checksum("S rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR");
    let mut out = Vec::with_capacity(bytes + 128);
    let mut i = 0usize;
    while out.len() < bytes {
        let sq = &squares[(i * 37) % 64];
        let line = match i % 20 {
            19 => snapshot.clone(),
            k if k % 2 == 0 => with_checksum(&format!("L {sq}")),
            _ => with_checksum(&format!("P {sq}")),
        };
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
        i += 1;
    }
    out
}

/// Best of five, in MB/s, with the number of messages decoded.
fn throughput(stream: &[u8], mut decode: impl FnMut(&[u8]) -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut messages = 0;
    for _ in 0..5 {
        let start = Instant::now();
        messages = 0;
        for chunk in stream.chunks(64) {
            messages += decode(chunk);
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    (stream.len() as f64 / 1e6 / best, messages)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves: usize = support::arg(&args, "--moves").unwrap_or(2000);
    let mb: usize = support::arg(&args, "--mb").unwrap_or(64);

    report(
        "peg (occupancy only)",
        &knight_latency(Protocol::Peg, moves),
        true,
    );
    report(
        "dgt (knight moves)",
        &knight_latency(Protocol::Dgt, moves),
        true,
    );
    report("dgt (Ra1-a3, slide pause)", &slide_latency(10), false);

    let stream = dgt_stream(mb << 20);
    let mut dgt = DgtDecoder::new();
    let (rate, messages) = throughput(&stream, |chunk| dgt.push(chunk).len());
    println!(
        "DgtDecoder: {:.1} MB/s ({} MB, {} messages per pass)",
        rate,
        stream.len() >> 20,
        messages
    );
    let stream = peg_stream(mb << 20);
    let mut decoder = PegDecoder::new();
    let (rate, messages) = throughput(&stream, |chunk| decoder.push(chunk).len());
    println!(
        "PegDecoder: {:.1} MB/s ({} MB, {} lines per pass, {} dropped)",
        rate,
        stream.len() >> 20,
        messages,
        decoder.bad_lines()
    );
}
