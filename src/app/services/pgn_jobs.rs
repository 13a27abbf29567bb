//! Runs one function over every game of a PGN input on several threads, and hands the results
//! back in the order of the games, whatever the number of threads.
//!
//! One thread reads (and decompresses) the input and cuts it into games
//! (`io::pgn_stream`), gathering them in batches; the workers read and judge each game; the
//! caller's thread puts the batches back in order and writes. At most a few batches are in
//! flight, so memory depends on the batch size and the longest game, not on the input.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use crossbeam_channel::{bounded, unbounded};

use crate::core::pgn::{MAX_GAME_BYTES, RawGame, Reader, Resume};
use crate::io::files::Input;
use crate::io::pgn_stream::Splitter;

/// A batch is closed when it holds this many bytes of games, or this many games.
const BATCH_BYTES: usize = 128 * 1024;
const BATCH_GAMES: usize = 512;

/// Batches in flight are paid for in permits of this many bytes of game text.
const PERMIT_BYTES: usize = 64 * 1024;

/// At most this much game text is in flight however many jobs run (unless one batch alone
/// needs more): a game's items may take 16 times its size while it is judged.
const MAX_IN_FLIGHT: usize = 3 << 20;

/// Permits a batch of `bytes` takes.
fn permits(bytes: usize) -> usize {
    bytes.div_ceil(PERMIT_BYTES).max(1)
}

/// The threads to use when not told: one per core.
pub(crate) fn default_jobs() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// How the run ended, when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Finish {
    /// Every game was handed over.
    Done,
    /// The caller asked to stop (its output went away).
    Stopped,
}

struct Batch {
    seq: usize,
    bytes: Vec<u8>,
    games: Vec<(Range<usize>, Resume, bool)>,
}

/// Calls `work` on every game of `input` on `jobs` threads and `emit` on each result, in the
/// order of the games. `emit` returns false to stop. `work` returns `None` for a game that
/// gives nothing to emit.
pub(crate) fn run<T, W, E>(
    input: Input,
    jobs: usize,
    progress: &mut Progress,
    work: W,
    mut emit: E,
) -> Result<Finish>
where
    T: Send + 'static,
    W: Fn(&RawGame<'_>) -> Option<T> + Send + Sync + 'static,
    E: FnMut(T, &mut Progress) -> bool,
{
    let jobs = jobs.max(1);
    return_large_blocks();
    let Input { reader, name, .. } = input;
    let (batch_tx, batch_rx) = bounded::<Batch>(jobs);
    // Permits for the game text in flight: the reader waits when the writer is behind, and
    // memory stays bounded whatever the number of jobs. The largest batch (a full one plus the
    // longest game) must fit.
    let largest = permits(BATCH_BYTES + MAX_GAME_BYTES + PERMIT_BYTES);
    let wanted = permits((2 * jobs + 2) * BATCH_BYTES).min(permits(MAX_IN_FLIGHT));
    let (permit_tx, permit_rx) = bounded::<()>(largest.max(wanted));
    let (done_tx, done_rx) = unbounded::<(usize, usize, thread::Result<Vec<T>>)>();
    // Batch buffers go back to the reader to be filled again, not freed on another thread.
    let (spare_tx, spare_rx) = unbounded::<Vec<u8>>();
    let splitter = thread::Builder::new()
        .name("pgn-reader".into())
        .spawn(move || read_batches(reader, &name, &batch_tx, &permit_tx, &spare_rx))
        .context("cannot start the reading thread")?;
    let work = Arc::new(work);
    for i in 0..jobs {
        let batch_rx = batch_rx.clone();
        let done_tx = done_tx.clone();
        let work = Arc::clone(&work);
        let spare_tx = spare_tx.clone();
        thread::Builder::new()
            .name(format!("pgn-worker-{i}"))
            .spawn(move || judge_batches(&batch_rx, &done_tx, &spare_tx, &*work))
            .context("cannot start a worker thread")?;
    }
    drop((batch_rx, done_tx, spare_tx));
    let mut pending: BTreeMap<usize, (usize, Vec<T>)> = BTreeMap::new();
    let mut next = 0usize;
    for (seq, paid, results) in &done_rx {
        let results = results.map_err(|_| anyhow!("a game could not be read (internal error)"))?;
        pending.insert(seq, (paid, results));
        while let Some((paid, results)) = pending.remove(&next) {
            next += 1;
            for result in results {
                progress.games += 1;
                if !emit(result, progress) {
                    progress.clear();
                    return Ok(Finish::Stopped);
                }
            }
            for _ in 0..paid {
                let _ = permit_rx.try_recv();
            }
            progress.tick();
        }
    }
    progress.clear();
    match splitter.join() {
        Ok(Ok(())) => Ok(Finish::Done),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(anyhow!("the input could not be read (internal error)")),
    }
}

/// Has the C allocator give large blocks back to the system when they are freed (see
/// [`crate::io::platform::memory::return_large_blocks`]).
fn return_large_blocks() {
    crate::io::platform::memory::return_large_blocks();
}

/// The reading thread: the input split into games, sent in batches of about
/// [`BATCH_BYTES`], each paid for in permits first; buffers come back through `spare_rx`.
fn read_batches(
    reader: Box<dyn std::io::Read + Send>,
    name: &str,
    batch_tx: &crossbeam_channel::Sender<Batch>,
    permit_tx: &crossbeam_channel::Sender<()>,
    spare_rx: &crossbeam_channel::Receiver<Vec<u8>>,
) -> Result<()> {
    let mut splitter = Splitter::new(reader);
    let mut seq = 0usize;
    let mut batch = Batch {
        seq,
        bytes: Vec::with_capacity(2 * BATCH_BYTES),
        games: Vec::new(),
    };
    let mut send = |batch: &mut Batch| -> bool {
        seq += 1;
        let bytes = spare_rx
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(2 * BATCH_BYTES));
        let full = std::mem::replace(
            batch,
            Batch {
                seq,
                bytes,
                games: Vec::new(),
            },
        );
        (0..permits(full.bytes.len())).all(|_| permit_tx.send(()).is_ok())
            && batch_tx.send(full).is_ok()
    };
    loop {
        let game = match splitter.next_game() {
            Ok(Some(game)) => game,
            Ok(None) => break,
            Err(e) => {
                // The games read before the failure are still reported.
                if !batch.games.is_empty() {
                    send(&mut batch);
                }
                return Err(e).with_context(|| format!("cannot read {name}"));
            }
        };
        let from = batch.bytes.len();
        batch.bytes.extend_from_slice(game.bytes);
        batch
            .games
            .push((from..batch.bytes.len(), game.at, game.too_large));
        if (batch.bytes.len() >= BATCH_BYTES || batch.games.len() >= BATCH_GAMES)
            && !send(&mut batch)
        {
            return Ok(());
        }
    }
    if !batch.games.is_empty() {
        send(&mut batch);
    }
    Ok(())
}

/// A worker thread: each batch's games judged (a panic is the batch's result), the results
/// sent with the permits they free, the buffer given back.
fn judge_batches<T>(
    batch_rx: &crossbeam_channel::Receiver<Batch>,
    done_tx: &crossbeam_channel::Sender<(usize, usize, thread::Result<Vec<T>>)>,
    spare_tx: &crossbeam_channel::Sender<Vec<u8>>,
    work: &dyn Fn(&RawGame<'_>) -> Option<T>,
) {
    for batch in batch_rx {
        let results = catch_unwind(AssertUnwindSafe(|| judge(&batch, &*work)));
        let paid = permits(batch.bytes.len());
        if done_tx.send((batch.seq, paid, results)).is_err() {
            break;
        }
        let mut bytes = batch.bytes;
        // One that held a long game is let go, to give its memory back.
        if bytes.capacity() <= 2 * BATCH_BYTES {
            bytes.clear();
            let _ = spare_tx.send(bytes);
        }
    }
}

fn judge<T>(batch: &Batch, work: &dyn Fn(&RawGame<'_>) -> Option<T>) -> Vec<T> {
    let mut out = Vec::with_capacity(batch.games.len());
    for (range, at, too_large) in &batch.games {
        let result = if *too_large {
            work(&RawGame::too_large(at.games + 1, at.line))
        } else {
            match Reader::resume(&batch.bytes[range.clone()], *at).next() {
                Some(raw) => work(&raw),
                None => None,
            }
        };
        out.extend(result);
    }
    out
}

/// A line on standard error for long runs: games so far, megabytes read, speed and the time
/// left when the size is known. Only on a terminal, and not before a second has passed.
pub(crate) struct Progress {
    enabled: bool,
    start: Instant,
    last: Instant,
    shown: bool,
    games: u64,
    consumed: Arc<AtomicU64>,
    size: Option<u64>,
}

impl Progress {
    const EVERY: Duration = Duration::from_secs(1);

    /// For `input`; silent when `quiet` or when standard error is not a terminal.
    pub(crate) fn new(input: &Input, quiet: bool) -> Progress {
        let now = Instant::now();
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            start: now,
            last: now,
            shown: false,
            games: 0,
            consumed: Arc::clone(&input.consumed),
            size: input.size.filter(|&s| s > 0),
        }
    }

    fn tick(&mut self) {
        if !self.enabled || self.last.elapsed() < Self::EVERY {
            return;
        }
        self.last = Instant::now();
        let seconds = self.start.elapsed().as_secs_f64();
        let read = self.consumed.load(Ordering::Relaxed) as f64;
        let rate = read / seconds.max(1e-3);
        let mut line = format!(
            "{} games, {:.0} MB read, {:.0} MB/s",
            self.games,
            read / 1e6,
            rate / 1e6
        );
        if let Some(size) = self.size {
            let left = (size as f64 - read).max(0.0) / rate.max(1.0);
            line.push_str(&format!(
                ", {:.0} % of {:.0} MB, about {:.0} s left",
                100.0 * read / size as f64,
                size as f64 / 1e6,
                left.ceil()
            ));
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}\x1b[K");
        let _ = err.flush();
        self.shown = true;
    }

    /// Takes the progress line away (before other messages, and at the end).
    pub(crate) fn clear(&mut self) {
        if self.shown {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            self.shown = false;
        }
    }

    /// Writes a message line on standard error, under no progress line.
    pub(crate) fn note(&mut self, message: &str) {
        self.clear();
        errln!("{message}");
    }
}
