//! The record of a game as the modes keep it (play, assist, arbiter): every event goes to the
//! journal, on the disk before it is announced (Appendix D6: hector is the blind player's
//! recording device). A copy of the entries stays in memory for saving the game as PGN and
//! for the arbiter's event log.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use shakmaty::Color;

use crate::core::clock::Clock;
use crate::core::game::Game;
use crate::core::matchplay::session::Recorded;
use crate::core::notation::language::Language;
use crate::core::outcome::Termination;
use crate::core::record::entry::millis;
use crate::core::record::{Entry, Header, Replayed, Times, replay, to_pgn};
use crate::core::time::Timestamp;
use crate::io::journal::{Ack, Journal, JournalWriter, load, write_atomic};

/// How often the clock is written while it runs: a resume finds it within this of the crash.
pub const CHECKPOINT: Duration = Duration::from_secs(1);

/// Where the records go.
enum Sink {
    None,
    /// Written and synced before `append` returns.
    Direct(Journal),
    /// Written on the journal's thread; `sent` numbers the records.
    Thread {
        writer: JournalWriter,
        sent: u64,
    },
}

pub struct Recorder {
    sink: Sink,
    pub header: Header,
    entries: Vec<Entry>,
    /// The last problem with the disk, to be told once.
    problem: Option<String>,
    last_checkpoint: Option<Timestamp>,
}

impl Recorder {
    /// A new journal for a new game, beginning with `entries` (a game continued from PGN).
    pub fn create(header: Header, entries: Vec<Entry>) -> Recorder {
        let mut r = Recorder {
            sink: Sink::None,
            header,
            entries: Vec::new(),
            problem: None,
            last_checkpoint: None,
        };
        match Journal::create(&r.header) {
            Ok(j) => r.sink = Sink::Direct(j),
            Err(e) => r.problem = Some(format!("{e:#}")),
        }
        for e in entries {
            r.append(e);
        }
        r
    }

    /// Continues the journal at `path`: its game, clock and settings as they were.
    pub fn resume(path: &Path) -> Result<(Recorder, Replayed)> {
        let decoded = load(path)?;
        let replayed = replay(&decoded.header, &decoded.entries)
            .with_context(|| format!("cannot continue {}", path.display()))?;
        let (journal, decoded) = Journal::open_for_append(path)?;
        let r = Recorder {
            sink: Sink::Direct(journal),
            header: decoded.header,
            entries: decoded.entries,
            problem: None,
            last_checkpoint: None,
        };
        Ok((r, replayed))
    }

    /// The entries so far (the journal's, also when the disk failed).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn path(&self) -> Option<PathBuf> {
        match &self.sink {
            Sink::None => None,
            Sink::Direct(j) => Some(j.path().to_path_buf()),
            Sink::Thread { writer, .. } => Some(writer.path().to_path_buf()),
        }
    }

    /// From now on the records are written on a thread of their own (see [`JournalWriter`]);
    /// their acknowledgements come on [`Recorder::acks`].
    pub fn write_on_thread(&mut self) {
        if let Sink::Direct(_) = self.sink {
            let Sink::Direct(journal) = std::mem::replace(&mut self.sink, Sink::None) else {
                return;
            };
            match JournalWriter::spawn(journal) {
                Ok(writer) => self.sink = Sink::Thread { writer, sent: 0 },
                Err(e) => self.problem = Some(format!("{e:#}")),
            }
        }
    }

    /// The acknowledgements of the journal's thread, to wait on.
    pub fn acks(&self) -> Option<&crossbeam_channel::Receiver<Ack>> {
        match &self.sink {
            Sink::Thread { writer, .. } => Some(writer.acks()),
            _ => None,
        }
    }

    /// Records up to `ack.seq` are on the disk (or could not be written: told once).
    pub fn acknowledged(&mut self, ack: Ack) {
        if let Err(problem) = ack.result {
            self.problem = Some(problem);
        }
    }

    /// Waits at most `limit` for the journal's thread to finish its writes (at the end).
    pub fn finish(&mut self, limit: Duration) {
        if let Sink::Thread { writer, .. } = &mut self.sink
            && !writer.finish(limit)
        {
            self.problem = Some("the disk did not finish writing the journal in time".into());
        }
    }

    /// A problem with the journal that has not been told yet.
    pub fn take_problem(&mut self) -> Option<String> {
        self.problem.take()
    }

    fn append(&mut self, entry: Entry) {
        match &mut self.sink {
            Sink::None => {}
            Sink::Direct(j) => {
                if let Err(e) = j.append(&entry) {
                    self.problem = Some(format!("{e:#}"));
                }
            }
            Sink::Thread { writer, sent, .. } => {
                *sent += 1;
                writer.append(*sent, entry.clone());
            }
        }
        self.entries.push(entry);
    }

    /// Writes what the match recorded; `game` is the game after the event.
    pub fn record(&mut self, r: &Recorded, game: &Game) {
        for e in r.entries(game) {
            self.append(e);
        }
    }

    /// A clock checkpoint when one is due (about once a second while a clock runs).
    pub fn checkpoint(&mut self, clock: &Clock, now: Timestamp, force: bool) {
        let due = self
            .last_checkpoint
            .is_none_or(|last| now.saturating_since(last) >= CHECKPOINT);
        if !(force || (due && clock.running().is_some())) {
            return;
        }
        self.last_checkpoint = Some(now);
        self.append(Entry::ClockCheckpoint {
            white_ms: millis(clock.remaining(Color::White, now)),
            black_ms: millis(clock.remaining(Color::Black, now)),
            running: clock.running(),
            paused: clock.is_paused(),
            used: Some(Times::new(
                clock.used(Color::White, now),
                clock.used(Color::Black, now),
            )),
        });
    }

    /// When the next checkpoint is due, while a clock runs.
    pub fn next_checkpoint(&self, clock: Option<&Clock>) -> Option<Timestamp> {
        clock?.running()?;
        Some(
            self.last_checkpoint
                .map_or(Timestamp::ZERO, |t| t + CHECKPOINT),
        )
    }

    /// Writes the game as PGN, atomically.
    pub fn save_pgn(&self, path: &Path, lang: &Language) -> Result<()> {
        let pgn =
            to_pgn(&self.header, &self.entries, lang).context("cannot write the game as PGN")?;
        write_atomic(path, pgn.as_bytes())
    }
}

/// Whether an end needs its cause written before the result (the game cannot conclude it
/// from the moves alone).
pub fn needs_cause(t: Termination) -> bool {
    matches!(
        t,
        Termination::Resignation
            | Termination::FlagFall
            | Termination::BothFlags
            | Termination::Agreement
    )
}
