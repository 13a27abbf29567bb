//! The journal on disk: every game hector records, one file per game, written so that no
//! completed move is lost to a crash, a power cut or a closed terminal.
//!
//! Files live in `games/` of hector's data directory: `$HECTOR_DATA/games` when the
//! environment variable `HECTOR_DATA` is set (tests use it), else the XDG data directory,
//! `~/.local/share/hector/games`. A file is named after its creation instant in UTC,
//! `2026-11-21_140305_0001.journal`: names sort in the order the games began, and the
//! four-digit counter keeps games begun within the same second apart.
//!
//! - [`Journal::create`] makes a new file (never replacing one), writes the header and makes
//!   both the file and its directory entry durable before returning.
//! - [`Journal::append`] writes one record and calls `sync_data` before it returns: a move is
//!   announced only after its record is on the disk.
//! - [`Journal::open_for_append`] continues a journal after a resume. A journal from a newer
//!   hector or a damaged one is refused and left untouched; so is a symbolic link or a file
//!   of more than one name where the journal is (nothing is appended through it). A torn
//!   tail (the last record cut off) is not cut away: a torn marker acknowledging exactly
//!   those bytes is appended, so the file only ever grows and no byte a crash left is
//!   destroyed (see `core::record::codec`).
//! - [`JournalWriter`] does the appending on a thread of its own and acknowledges each record
//!   when it is on the disk, so that a mode running many games is never held up by one game's
//!   disk; it still says nothing of a game before that game's record is durable.
//! - A file larger than [`MAX_JOURNAL_BYTES`] is no journal hector wrote: it is never read
//!   whole; `hector games` names it from its head.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::io::utc::utc_fields;

use crate::core::mode::{MODE_SETTING, Mode};
use crate::core::outcome::{GameResult, Outcome};
use crate::core::record::encode_torn_marker;
use crate::core::record::{
    Decoded, Entry, Header, JournalError as CodecError, SalvageError, Salvaged, Stop, decode,
    decode_good_part, encode_entry, encode_header, salvage,
};

/// What went wrong with a journal file or the games directory: the operation and the path,
/// with the system's own error (or the record codec's) as the source, so that a caller can
/// tell a full disk from a refused file without reading the message.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The system refused: reading, creating, opening, writing, syncing, listing, locking.
    #[error("cannot {doing} {}", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// The bytes are no journal hector can read (damaged, or from a newer hector).
    #[error("cannot read the journal {}", path.display())]
    Unreadable {
        path: PathBuf,
        #[source]
        source: CodecError,
    },
    /// Nothing of the journal can be used (not even its header).
    #[error("cannot read the journal {}", path.display())]
    Unusable {
        path: PathBuf,
        #[source]
        source: SalvageError,
    },
    /// A record could not be encoded (a header or entry serde could not write).
    #[error("cannot encode a record")]
    Encode(#[source] CodecError),
    #[error("no home directory to keep the games in; set HECTOR_DATA")]
    NoHome,
    #[error("{} is open in another hector: a game is recorded by one program at a time", path.display())]
    Locked { path: PathBuf },
    #[error(
        "cannot find a free name for a new journal in {} ({stem}_0001 to _9999 exist)",
        dir.display()
    )]
    NoFreeName { dir: PathBuf, stem: String },
    /// A failed write could not be undone: the file must be opened again.
    #[error("{} cannot be written any more: {why}", path.display())]
    Broken { path: PathBuf, why: String },
    #[error("cannot mark the cut-off last record")]
    TornMarker(#[source] Box<FileError>),
    #[error("cannot start the journal's thread")]
    Thread(#[source] std::io::Error),
    /// A link, a file of several names or no file where a journal is continued: hector
    /// appends only to a journal of its own, never through it.
    #[error("cannot continue {}", path.display())]
    NotOwn {
        path: PathBuf,
        #[source]
        source: crate::io::owned_file::OwnedError,
    },
}

impl FileError {
    fn io(doing: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> FileError {
        let path = path.to_path_buf();
        move |source| FileError::Io {
            doing,
            path,
            source,
        }
    }

    /// The system's error at the root, if the system refused.
    pub(crate) fn io_kind(&self) -> Option<ErrorKind> {
        match self {
            FileError::Io { source, .. } | FileError::Thread(source) => Some(source.kind()),
            FileError::TornMarker(inner) => inner.io_kind(),
            _ => None,
        }
    }
}

type Result<T, E = FileError> = std::result::Result<T, E>;

/// The largest journal read. A five-hour game with a clock checkpoint every second is some
/// 2 MB; a larger file (a sparse file of gigabytes, say) is not read, so that listing the
/// games costs neither minutes nor gigabytes.
pub(crate) const MAX_JOURNAL_BYTES: u64 = 32 * 1024 * 1024;

/// What is read of a file too large to be a journal: its head, to name its game.
const HEAD_BYTES: u64 = 64 * 1024;

/// A file too large to be a journal.
#[derive(Debug, thiserror::Error)]
#[error(
    "{} is {} MiB, too large to be a journal (hector reads journals of up to {} MiB)",
    path.display(),
    size >> 20,
    MAX_JOURNAL_BYTES >> 20
)]
pub struct TooLarge {
    pub(crate) path: PathBuf,
    pub(crate) size: u64,
}

/// Reads a whole journal of at most [`MAX_JOURNAL_BYTES`]; a larger file is a [`TooLarge`].
pub(crate) fn read_journal(path: &Path) -> Result<Vec<u8>> {
    let file = File::open(path).map_err(FileError::io("read", path))?;
    let size = file.metadata().map_err(FileError::io("read", path))?.len();
    let too_large = |size| TooLarge {
        path: path.to_path_buf(),
        size,
    };
    if size > MAX_JOURNAL_BYTES {
        return Err(too_large(size).into());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(MAX_JOURNAL_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(FileError::io("read", path))?;
    // It grew while it was read.
    if bytes.len() as u64 > MAX_JOURNAL_BYTES {
        return Err(too_large(bytes.len() as u64).into());
    }
    Ok(bytes)
}

/// The file name extension of journals.
pub(crate) const EXTENSION: &str = "journal";

/// hector's data directory: `$HECTOR_DATA`, else the system's (the XDG data directory,
/// `%APPDATA%` on Windows).
pub(crate) fn data_dir() -> Result<PathBuf> {
    crate::io::platform::folders::data().ok_or(FileError::NoHome)
}

/// Where the journals are: `games/` in the data directory.
pub(crate) fn games_dir() -> Result<PathBuf> {
    Ok(data_dir()?.join("games"))
}

/// Makes a directory entry durable (a new or renamed file survives a power cut).
fn sync_dir(dir: &Path) -> Result<()> {
    crate::io::platform::files::sync_dir(dir).map_err(FileError::io("sync the directory", dir))
}

/// What a journal is written to: its file, or in tests a file that fails on purpose
/// ([`faults::FaultyFile`]), so that every way a disk can fail is tried.
pub(crate) trait JournalFile: Send + std::fmt::Debug {
    fn write_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()>;
    fn sync_data(&mut self) -> std::io::Result<()>;
    fn sync_all(&mut self) -> std::io::Result<()>;
    fn set_len(&mut self, len: u64) -> std::io::Result<()>;
}

impl JournalFile for File {
    fn write_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        Write::write_all(self, bytes)
    }
    fn sync_data(&mut self) -> std::io::Result<()> {
        File::sync_data(self)
    }
    fn sync_all(&mut self) -> std::io::Result<()> {
        File::sync_all(self)
    }
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        File::set_len(self, len)
    }
}

/// An open journal, appended to record by record.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Box<dyn JournalFile>,
    /// The length of what is known to be on the disk.
    len: u64,
    /// Set when a failed write could not be undone: nothing more may be appended.
    broken: Option<String>,
}

impl Journal {
    /// A new journal in [`games_dir`].
    pub(crate) fn create(header: &Header) -> Result<Journal> {
        Journal::create_in(&games_dir()?, header)
    }

    /// A new journal in `dir` (created if missing), with a unique name; never replaces a file.
    pub fn create_in(dir: &Path, header: &Header) -> Result<Journal> {
        std::fs::create_dir_all(dir).map_err(FileError::io("create the games directory", dir))?;
        let bytes = encode_header(header).map_err(FileError::Encode)?;
        let (y, mo, d, h, mi, s) = utc_fields(SystemTime::now());
        let stem = format!("{y:04}-{mo:02}-{d:02}_{h:02}{mi:02}{s:02}");
        for n in 1..=9999 {
            let path = dir.join(format!("{stem}_{n:04}.{EXTENSION}"));
            let file = match OpenOptions::new().append(true).create_new(true).open(&path) {
                Ok(f) => f,
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(FileError::io("create", &path)(e)),
            };
            lock(&file, &path)?;
            let mut journal = Journal {
                path,
                file: Box::new(file),
                len: 0,
                broken: None,
            };
            if let Err(e) = journal.write_durably(&bytes) {
                // An empty file would only be listed as unreadable.
                let _ = std::fs::remove_file(&journal.path);
                return Err(e);
            }
            sync_dir(dir)?;
            return Ok(journal);
        }
        Err(FileError::NoFreeName {
            dir: dir.to_path_buf(),
            stem,
        })
    }

    /// Continues a journal after a resume: returns it open for appending, with what it holds.
    ///
    /// A journal from a newer hector, a damaged one, or one another hector has open is
    /// refused, and the file is not changed. A torn tail is acknowledged by a torn marker
    /// (the bytes stay where they are); `Decoded::torn_tail` tells the caller it happened.
    pub(crate) fn open_for_append(path: &Path) -> Result<(Journal, Decoded)> {
        let file = crate::io::owned_file::open_journal(path).map_err(|e| match e {
            crate::io::owned_file::OwnedError::Io { source, .. } => {
                FileError::io("open", path)(source)
            }
            other => FileError::NotOwn {
                path: path.to_path_buf(),
                source: other,
            },
        })?;
        lock(&file, path)?;
        let bytes = read_journal(path)?;
        let decoded = decode(&bytes).map_err(|source| FileError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        let mut journal = Journal {
            path: path.to_path_buf(),
            file: Box::new(file),
            len: bytes.len() as u64,
            broken: None,
        };
        if decoded.torn_tail {
            let marker = encode_torn_marker(&bytes[decoded.valid_len..]);
            journal
                .write_durably(&marker)
                .map_err(|e| FileError::TornMarker(Box::new(e)))?;
        }
        Ok((journal, decoded))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether a failed write could not be undone: the file must be opened again (which
    /// acknowledges what a failed write left, see [`Journal::open_for_append`]).
    pub(crate) fn is_broken(&self) -> bool {
        self.broken.is_some()
    }

    /// The same journal written through `wrap(file)`: tests put a failing file in between.
    pub(crate) fn wrap_file(
        mut self,
        wrap: impl FnOnce(Box<dyn JournalFile>) -> Box<dyn JournalFile>,
    ) -> Journal {
        let file = std::mem::replace(&mut self.file, Box::new(faults::Closed));
        self.file = wrap(file);
        self
    }

    /// Appends one entry; returns only when it is on the disk (`sync_data`).
    pub fn append(&mut self, entry: &Entry) -> Result<()> {
        let bytes = encode_entry(entry).map_err(FileError::Encode)?;
        self.write_durably(&bytes)
    }

    /// Appends several entries with one `sync_data` (a group commit): all are on the disk
    /// when it returns, or none is kept. Without `sync` they are only written (the system
    /// writes them out by itself; a crash of hector loses nothing, a power cut may).
    pub(crate) fn append_all(&mut self, entries: &[Entry], sync: bool) -> Result<()> {
        let mut bytes = Vec::new();
        for e in entries {
            bytes.extend(encode_entry(e).map_err(FileError::Encode)?);
        }
        if sync {
            return self.write_durably(&bytes);
        }
        if let Some(why) = &self.broken {
            return Err(FileError::Broken {
                path: self.path.clone(),
                why: why.clone(),
            });
        }
        match self.file.write_bytes(&bytes) {
            Ok(()) => {
                self.len += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                if let Err(undo) = self.file.set_len(self.len) {
                    self.broken =
                        Some(format!("a failed write ({e}) could not be undone ({undo})"));
                }
                Err(FileError::io("write to", &self.path)(e))
            }
        }
    }

    fn write_durably(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(why) = &self.broken {
            return Err(FileError::Broken {
                path: self.path.clone(),
                why: why.clone(),
            });
        }
        let written = self
            .file
            .write_bytes(bytes)
            .and_then(|()| self.file.sync_data());
        match written {
            Ok(()) => {
                self.len += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                // Part of the record may have reached the file: cut it off again, so that the
                // next record starts on a clean line and nothing half-written stays.
                let undone = self
                    .file
                    .set_len(self.len)
                    .and_then(|()| self.file.sync_all());
                if let Err(undo) = undone {
                    self.broken =
                        Some(format!("a failed write ({e}) could not be undone ({undo})"));
                }
                Err(FileError::io("write to", &self.path)(e))
            }
        }
    }
}

/// Why a write failed: the kind of the system's error (disk full, no permission …) and the
/// whole message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WriteError {
    pub(crate) kind: Option<ErrorKind>,
    pub(crate) text: String,
}

impl WriteError {
    pub(crate) fn of(e: &FileError) -> WriteError {
        WriteError {
            kind: e.io_kind(),
            text: crate::io::error_chain(e),
        }
    }
}

/// A record on the disk, or why it is not: the acknowledgement of [`JournalWriter`]. `Ok`:
/// every record up to `seq` is on the disk. `Err`: the records from the first not yet written
/// up to `seq` are not; they are kept, in order, and written before any later record as soon
/// as the disk takes them (tried again with every record and every few seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ack {
    pub(crate) seq: u64,
    pub(crate) result: std::result::Result<(), WriteError>,
}

/// How long the journal's thread lets clock checkpoints wait for a sync: a crash of hector
/// loses none of them, a power cut at most this much of the clock.
pub(crate) const CHECKPOINT_SYNC: std::time::Duration = std::time::Duration::from_secs(5);

/// How often the journal's thread tries again while records wait for the disk.
pub(crate) const RETRY: std::time::Duration = std::time::Duration::from_secs(2);

/// A [`Journal`] appended to on its own thread. Each batch of records that came together is
/// written with one sync (a group commit); clock checkpoints alone are written at once and
/// synced within [`CHECKPOINT_SYNC`]. Records the disk refused are kept and written first.
pub(crate) struct JournalWriter {
    tx: Option<crossbeam_channel::Sender<(u64, Entry)>>,
    acks: crossbeam_channel::Receiver<Ack>,
    done: crossbeam_channel::Receiver<()>,
    path: PathBuf,
}

/// The journal's thread: what waits for the disk, and how much of the file is known.
struct Backlog {
    journal: Option<Journal>,
    path: PathBuf,
    /// Entries the file holds (durably, as far as known).
    on_disk: usize,
    waiting: Vec<Entry>,
    last_seq: u64,
}

impl Backlog {
    /// Writes what waits; a journal whose failed write could not be undone is opened again
    /// first, and its entries counted, so that nothing is written twice or skipped.
    fn write(&mut self, sync: bool) -> std::result::Result<(), WriteError> {
        if self.journal.as_ref().is_none_or(Journal::is_broken) {
            self.journal = None;
            let (journal, decoded) =
                Journal::open_for_append(&self.path).map_err(|e| WriteError::of(&e))?;
            let already = decoded.entries.len().saturating_sub(self.on_disk);
            self.waiting.drain(..already.min(self.waiting.len()));
            self.on_disk = decoded.entries.len();
            self.journal = Some(journal);
        }
        let Some(journal) = self.journal.as_mut() else {
            return Ok(());
        };
        journal
            .append_all(&self.waiting, sync)
            .map_err(|e| WriteError::of(&e))?;
        self.on_disk += self.waiting.len();
        self.waiting.clear();
        Ok(())
    }
}

/// The journal thread: records to the disk as they come, each batch with one sync (clock
/// checkpoints alone wait for the next), an ack for each; refused records are tried again.
fn write_loop(
    mut backlog: Backlog,
    rx: &crossbeam_channel::Receiver<(u64, Entry)>,
    ack_tx: &crossbeam_channel::Sender<Ack>,
    done_tx: &crossbeam_channel::Sender<()>,
) {
    let mut synced = std::time::Instant::now();
    let mut unsynced = false;
    loop {
        let wait = if backlog.waiting.is_empty() {
            CHECKPOINT_SYNC
        } else {
            RETRY
        };
        let first = match rx.recv_timeout(wait) {
            Ok(first) => Some(first),
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => None,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
        };
        let Some(first) = first else {
            if !backlog.waiting.is_empty() {
                // The disk refused records: try again, and say when it works.
                let result = backlog.write(true);
                if result.is_ok() {
                    unsynced = false;
                    synced = std::time::Instant::now();
                    let ack = Ack {
                        seq: backlog.last_seq,
                        result,
                    };
                    if ack_tx.send(ack).is_err() {
                        break;
                    }
                }
            } else if unsynced && backlog.write(true).is_ok() {
                unsynced = false;
                synced = std::time::Instant::now();
            }
            continue;
        };
        // Everything that came meanwhile goes to the disk with one sync.
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        backlog.last_seq = batch.last().map_or(backlog.last_seq, |(s, _)| *s);
        // Clock checkpoints alone wait for the next sync (at most CHECKPOINT_SYNC).
        let sync = synced.elapsed() >= CHECKPOINT_SYNC
            || !backlog.waiting.is_empty()
            || batch
                .iter()
                .any(|(_, e)| !matches!(e, Entry::ClockCheckpoint { .. }));
        backlog.waiting.extend(batch.into_iter().map(|(_, e)| e));
        let result = backlog.write(sync);
        if result.is_ok() {
            unsynced = !sync;
            if sync {
                synced = std::time::Instant::now();
            }
        }
        let ack = Ack {
            seq: backlog.last_seq,
            result,
        };
        if ack_tx.send(ack).is_err() {
            break;
        }
    }
    if unsynced || !backlog.waiting.is_empty() {
        let _ = backlog.write(true);
    }
    let _ = done_tx.send(());
}

impl JournalWriter {
    /// Writes on a thread; `on_disk` is the number of entries the journal already holds.
    pub(crate) fn spawn(journal: Journal, on_disk: usize) -> Result<JournalWriter> {
        let (tx, rx) = crossbeam_channel::unbounded::<(u64, Entry)>();
        let (ack_tx, acks) = crossbeam_channel::unbounded();
        let (done_tx, done) = crossbeam_channel::bounded(1);
        let path = journal.path().to_path_buf();
        let backlog = Backlog {
            path: path.clone(),
            journal: Some(journal),
            on_disk,
            waiting: Vec::new(),
            last_seq: 0,
        };
        std::thread::Builder::new()
            .name("hector-journal".into())
            .spawn(move || write_loop(backlog, &rx, &ack_tx, &done_tx))
            .map_err(FileError::Thread)?;
        Ok(JournalWriter {
            tx: Some(tx),
            acks,
            done,
            path,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Sends record `seq` to the disk; its [`Ack`] comes on [`JournalWriter::acks`].
    pub(crate) fn append(&self, seq: u64, entry: Entry) {
        if let Some(tx) = &self.tx {
            // A closed channel: the thread is gone, and so is every later record's ack.
            let _ = tx.send((seq, entry));
        }
    }

    pub(crate) fn acks(&self) -> &crossbeam_channel::Receiver<Ack> {
        &self.acks
    }

    /// No more records: waits at most `limit` for those sent to reach the disk (a disk that
    /// hangs must not hang hector's exit); whether they did.
    pub(crate) fn finish(&mut self, limit: std::time::Duration) -> bool {
        self.tx = None;
        self.done.recv_timeout(limit).is_ok()
    }
}

/// Takes the journal's lock, so that two hectors never write one game.
fn lock(file: &File, path: &Path) -> Result<()> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(FileError::Locked {
            path: path.to_path_buf(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(FileError::io("lock", path)(e)),
    }
}

/// Reads a journal (without changing it).
pub fn load(path: &Path) -> Result<Decoded> {
    let bytes = read_journal(path)?;
    decode(&bytes).map_err(|source| FileError::Unreadable {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a journal as far as it is intact and replays (without changing it): its good part,
/// and where and why it stops. An error only when nothing of it can be used.
pub fn load_good_part(path: &Path) -> Result<Salvaged> {
    let bytes = read_journal(path)?;
    salvage(&bytes).map_err(|source| FileError::Unusable {
        path: path.to_path_buf(),
        source,
    })
}

/// One saved game as `hector games` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameSummary {
    pub(crate) path: PathBuf,
    /// The header's creation time, as written.
    pub(crate) created: String,
    pub(crate) white: String,
    pub(crate) black: String,
    /// `None`: in progress (or ended without a result being recorded).
    pub(crate) outcome: Option<Outcome>,
    /// Half-moves played.
    pub(crate) plies: usize,
    /// Move numbers played (a move is White's and Black's half-move).
    pub(crate) moves: u32,
    /// The last record was cut off.
    pub(crate) torn_tail: bool,
    /// Where and why a journal that does not replay in full stops; the other fields then
    /// describe its good part.
    pub(crate) stop: Option<Stop>,
    /// The file name of the damaged journal whose good part this one continues.
    pub(crate) continues: Option<String>,
    /// The game began from another position than the usual one: Chess960, or a FEN.
    pub(crate) start: Option<(crate::core::variant::Variant, String)>,
    /// Why nothing of the journal can be used; the other fields are then empty.
    pub(crate) problem: Option<String>,
    /// The same, when the file could be read but nothing in it used, for saying it in the
    /// player's words.
    pub(crate) unusable: Option<SalvageError>,
    /// The players aborted the game: over, without a result.
    pub(crate) aborted: bool,
    /// The mode that wrote it (its `mode` setting), as [`mode_of`] reads it.
    pub(crate) mode: Mode,
    /// The file's size, when it is too large to be a journal ([`MAX_JOURNAL_BYTES`]): only
    /// its head was read, for the date and the players.
    pub(crate) too_large: Option<u64>,
}

impl GameSummary {
    pub(crate) fn result(&self) -> Option<GameResult> {
        self.outcome.map(|o| o.result)
    }

    fn unreadable(path: PathBuf, problem: String, unusable: Option<SalvageError>) -> GameSummary {
        GameSummary {
            path,
            created: String::new(),
            white: String::new(),
            black: String::new(),
            outcome: None,
            plies: 0,
            moves: 0,
            torn_tail: false,
            stop: None,
            continues: None,
            start: None,
            problem: Some(problem),
            unusable,
            aborted: false,
            mode: Mode::Play,
            too_large: None,
        }
    }

    /// A file too large to be a journal, named by the header at its head when it has one.
    fn too_large(path: PathBuf, size: u64, head: Option<Header>) -> GameSummary {
        let mut summary =
            GameSummary::unreadable(path.clone(), TooLarge { path, size }.to_string(), None);
        if let Some(h) = head {
            summary.created = h.created;
            summary.white = h.white;
            summary.black = h.black;
        }
        summary.too_large = Some(size);
        summary
    }
}

/// The journal files of `dir`, oldest first (their names sort by creation).
pub fn journal_paths(dir: &Path) -> Result<Vec<PathBuf>> {
    let read = match std::fs::read_dir(dir) {
        Ok(r) => r,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(FileError::io("list", dir)(e)),
    };
    let mut paths: Vec<PathBuf> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == EXTENSION) && p.is_file())
        .collect();
    paths.sort();
    Ok(paths)
}

/// Every saved game in `dir`, oldest first. Unreadable journals are listed with their
/// problem, so that the numbers stay the same.
pub(crate) fn list_in(dir: &Path) -> Result<Vec<GameSummary>> {
    Ok(journal_paths(dir)?.into_iter().map(summarize).collect())
}

/// The newest game still in progress in `dir` (for `hector resume`): readable and without a
/// result. A journal that replays only in part counts by its good part (the caller offers to
/// continue it from there) unless another journal already continues it; journals that cannot
/// be read at all are passed over, never changed; so are the arbiter's games, which
/// `hector arbiter` continues.
pub(crate) fn latest_in_progress(dir: &Path) -> Result<Option<GameSummary>> {
    let games = list_in(dir)?;
    // A damaged game already continued in a new journal is that journal's business.
    let continued: Vec<&str> = games
        .iter()
        .filter_map(|g| g.continues.as_deref())
        .collect();
    let is_continued = |g: &GameSummary| {
        g.path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| continued.contains(&n))
    };
    let open = |g: &&GameSummary| {
        g.problem.is_none()
            && g.outcome.is_none()
            && !g.aborted
            && !is_continued(g)
            // Their own modes continue these (an online game: hector online play).
            && g.mode.resumed_by_resume()
    };
    // A game left before its first move (a new game the player did not play) is not worth
    // continuing, and must not hide an earlier one that is.
    Ok(games
        .iter()
        .rev()
        .filter(open)
        .find(|g| g.moves > 0)
        .or_else(|| games.iter().rev().find(open))
        .cloned())
}

/// The mode that wrote a journal (its `mode` setting); [`Mode::Play`] for hector play's
/// journals, which have none, and for a journal that cannot be read (resuming it says why).
/// Damage after the setting does not hide it.
pub(crate) fn mode_of(path: &Path) -> Mode {
    let Some(decoded) = read_journal(path)
        .ok()
        .and_then(|bytes| decode_good_part(&bytes).ok())
        .map(|(decoded, _)| decoded)
    else {
        return Mode::Play;
    };
    Mode::of_journal(decoded.entries.iter().find_map(|e| match e {
        crate::core::record::Entry::Setting { key, value } if key == MODE_SETTING => {
            Some(value.as_str())
        }
        _ => None,
    }))
}

/// What `hector games` shows of one journal.
pub(crate) fn summarize(path: PathBuf) -> GameSummary {
    let bytes = match read_journal(&path) {
        Ok(b) => b,
        Err(e) => {
            return match e {
                FileError::TooLarge(TooLarge { size, .. }) => {
                    let head = read_head(&path);
                    GameSummary::too_large(path, size, head)
                }
                e => GameSummary::unreadable(path, crate::io::root_cause(&e), None),
            };
        }
    };
    let salvaged = match salvage(&bytes) {
        Ok(s) => s,
        Err(e) => return GameSummary::unreadable(path, e.to_string(), Some(e)),
    };
    let moves = salvaged.moves();
    let Salvaged {
        header,
        replayed,
        stop,
        torn_tail,
        ..
    } = salvaged;
    GameSummary {
        path,
        created: header.created,
        white: header.white,
        black: header.black,
        outcome: replayed.outcome(),
        plies: replayed.game.ply(),
        moves,
        torn_tail,
        stop,
        continues: replayed.settings.get("continues").cloned(),
        start: header.start_fen.map(|fen| (header.variant, fen)),
        problem: None,
        unusable: None,
        aborted: replayed.game.is_aborted(),
        mode: Mode::of_journal(replayed.settings.get(MODE_SETTING).map(String::as_str)),
        too_large: None,
    }
}

/// The header at the head of a file, read from its first [`HEAD_BYTES`] only.
fn read_head(path: &Path) -> Option<Header> {
    let mut head = Vec::new();
    File::open(path)
        .ok()?
        .take(HEAD_BYTES)
        .read_to_end(&mut head)
        .ok()?;
    decode_good_part(&head)
        .ok()
        .map(|(decoded, _)| decoded.header)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::record::Times;

    fn temp(what: &str) -> PathBuf {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "hector-journal-{what}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    fn mv(uci: &str, san: &str, by: shakmaty::Color) -> Entry {
        Entry::Move {
            uci: uci.parse().expect("uci"),
            san: san.parse().expect("san"),
            by,
            clock: Some(Times {
                white_ms: 60_000,
                black_ms: 60_000,
            }),
        }
    }

    #[test]
    fn create_append_load_and_unique_names() {
        let dir = temp("create");
        let header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
        let mut a = Journal::create_in(&dir, &header).expect("create");
        let b = Journal::create_in(&dir, &header).expect("second");
        assert_ne!(a.path(), b.path());
        a.append(&mv("e2e4", "e4", shakmaty::Color::White))
            .expect("append");
        let d = load(a.path()).expect("load");
        assert_eq!(d.entries.len(), 1);
        assert!(!d.torn_tail);
        let names = journal_paths(&dir).expect("list");
        assert_eq!(names.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    // The link is planted with a Unix call.
    #[cfg(unix)]
    #[test]
    fn a_journal_is_continued_only_as_a_file_of_its_own() {
        let dir = temp("strangers");
        let _cleanup = Cleanup(dir.clone());
        let header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
        let real = Journal::create_in(&dir, &header).expect("create");
        let real_path = real.path().to_path_buf();
        drop(real);
        let before = std::fs::read(&real_path).expect("journal");
        let soft = dir.join("soft.journal");
        std::os::unix::fs::symlink(&real_path, &soft).expect("link");
        let hard = dir.join("hard.journal");
        std::fs::hard_link(&real_path, &hard).expect("hard link");
        for path in [&soft, &hard] {
            let refused = Journal::open_for_append(path);
            assert!(
                matches!(refused, Err(FileError::NotOwn { .. })),
                "{}: {refused:?}",
                path.display()
            );
        }
        assert_eq!(std::fs::read(&real_path).expect("journal"), before);
    }

    #[test]
    fn the_journal_thread_writes_every_record_in_order_and_acknowledges_the_last() {
        let dir = temp("thread");
        let header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
        let journal = Journal::create_in(&dir, &header).expect("create");
        let path = journal.path().to_path_buf();
        let mut writer = JournalWriter::spawn(journal, 0).expect("thread");
        let checkpoint = Entry::ClockCheckpoint {
            white_ms: 59_000,
            black_ms: 60_000,
            running: Some(shakmaty::Color::White),
            paused: false,
            used: None,
        };
        let entries = vec![
            mv("e2e4", "e4", shakmaty::Color::White),
            checkpoint.clone(),
            mv("e7e5", "e5", shakmaty::Color::Black),
            checkpoint,
            Entry::ClockPaused,
        ];
        for (i, e) in entries.iter().enumerate() {
            writer.append(i as u64 + 1, e.clone());
        }
        // Acknowledgements come per batch; the last one covers every record.
        let mut last = 0;
        while last < entries.len() as u64 {
            let ack = writer
                .acks()
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("an acknowledgement");
            assert_eq!(ack.result, Ok(()));
            assert!(ack.seq > last, "{ack:?} after {last}");
            last = ack.seq;
        }
        assert!(writer.finish(std::time::Duration::from_secs(10)));
        drop(writer);
        let d = load(&path).expect("load");
        assert_eq!(d.entries, entries);
        assert!(!d.torn_tail);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_journal_is_written_by_one_hector_at_a_time() {
        let dir = temp("lock");
        let header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
        let a = Journal::create_in(&dir, &header).expect("create");
        let err = Journal::open_for_append(a.path()).expect_err("locked");
        assert!(err.to_string().contains("another hector"), "{err}");
        assert!(matches!(err, FileError::Locked { .. }), "{err:?}");
        let path = a.path().to_path_buf();
        drop(a);
        Journal::open_for_append(&path).expect("free again");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn torn_tail_is_acknowledged_and_appended_after() {
        let dir = temp("torn");
        let header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
        let mut j = Journal::create_in(&dir, &header).expect("create");
        j.append(&mv("e2e4", "e4", shakmaty::Color::White))
            .expect("append");
        let path = j.path().to_path_buf();
        drop(j);
        // A power cut in the middle of the next record.
        let record = encode_entry(&mv("e7e5", "e5", shakmaty::Color::Black)).expect("encode");
        let mut bytes = std::fs::read(&path).expect("read");
        let before = bytes.len();
        bytes.extend_from_slice(&record[..record.len() / 2]);
        std::fs::write(&path, &bytes).expect("write");

        let (mut j, decoded) = Journal::open_for_append(&path).expect("resume");
        assert!(decoded.torn_tail);
        assert_eq!(decoded.entries.len(), 1);
        j.append(&mv("e7e5", "e5", shakmaty::Color::Black))
            .expect("append");
        drop(j);
        let after = std::fs::read(&path).expect("read");
        assert_eq!(&after[..bytes.len()], &bytes[..], "no byte was changed");
        assert!(after.len() > before);
        let d = load(&path).expect("load");
        assert!(!d.torn_tail);
        assert_eq!(d.acknowledged, 1);
        assert_eq!(d.entries.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn damaged_and_newer_journals_are_refused_untouched() {
        let dir = temp("refuse");
        let header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
        let mut j = Journal::create_in(&dir, &header).expect("create");
        j.append(&mv("e2e4", "e4", shakmaty::Color::White))
            .expect("append");
        j.append(&mv("e7e5", "e5", shakmaty::Color::Black))
            .expect("append");
        let path = j.path().to_path_buf();
        drop(j);
        let mut bytes = std::fs::read(&path).expect("read");
        // Change one byte of the middle record's JSON.
        let second_line = bytes.iter().position(|&b| b == b'\n').expect("line") + 1;
        let at = second_line + 20;
        bytes[at] ^= 0x20;
        std::fs::write(&path, &bytes).expect("write");
        let err = Journal::open_for_append(&path).expect_err("damaged");
        let text = crate::io::error_chain(&err);
        assert!(text.contains("line 2"), "{text}");
        assert!(matches!(err, FileError::Unreadable { .. }), "{err:?}");
        assert_eq!(std::fs::read(&path).expect("read"), bytes);

        let newer = dir.join("newer.journal");
        let json = br#"{"journal":"hector","version":99}"#;
        let mut text =
            format!("{}\t{:08x}\t", json.len(), crate::core::record::crc32(json)).into_bytes();
        text.extend_from_slice(json);
        text.push(b'\n');
        std::fs::write(&newer, &text).expect("write");
        let err = Journal::open_for_append(&newer).expect_err("newer");
        let said = crate::io::error_chain(&err);
        assert!(said.contains("newer hector"), "{said}");
        assert_eq!(std::fs::read(&newer).expect("read"), text);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn atomic_write_replaces_whole_files() {
        let dir = temp("atomic");
        let path = dir.join("game.pgn");
        // Exports and saved games are written by the rules of `--output`.
        crate::io::output_file::write_output(&path, b"first").expect("write");
        crate::io::output_file::write_output(&path, b"second").expect("write");
        assert_eq!(std::fs::read(&path).expect("read"), b"second");
        let leftovers = std::fs::read_dir(&dir).expect("dir").count();
        assert_eq!(leftovers, 1, "no temporary file is left");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Removes a test directory also when the test fails.
    struct Cleanup(PathBuf);

    impl Drop for Cleanup {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_damaged_latest_game_is_listed_and_found_by_its_good_part() {
        let dir = temp("damaged");
        let _cleanup = Cleanup(dir.clone());
        let header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
        let mut older = Journal::create_in(&dir, &header).expect("create");
        older
            .append(&mv("d2d4", "d4", shakmaty::Color::White))
            .expect("append");
        drop(older);
        let header = Header::new("2026-11-21T15:03:05Z", "Carl", "Dora");
        let mut j = Journal::create_in(&dir, &header).expect("create");
        for e in [
            mv("e2e4", "e4", shakmaty::Color::White),
            mv("e7e5", "e5", shakmaty::Color::Black),
            // Black again: the game refuses it.
            mv("d7d5", "d5", shakmaty::Color::Black),
            mv("g1f3", "Nf3", shakmaty::Color::White),
        ] {
            j.append(&e).expect("append");
        }
        let path = j.path().to_path_buf();
        drop(j);
        let before = std::fs::read(&path).expect("read");

        let games = list_in(&dir).expect("list");
        assert_eq!(games.len(), 2);
        let damaged = &games[1];
        assert_eq!(damaged.white, "Carl");
        assert_eq!((damaged.plies, damaged.moves), (2, 1));
        assert!(damaged.problem.is_none());
        assert_eq!(damaged.stop.as_ref().map(Stop::entry), Some(3));
        // The damaged game is the latest unfinished one, not the older game.
        let latest = latest_in_progress(&dir).expect("list").expect("a game");
        assert_eq!(latest.path, path);
        assert_eq!(std::fs::read(&path).expect("read"), before, "untouched");

        // Bytes damaged in the middle: the good part is what decodes before them.
        let mut bytes = before.clone();
        let third = bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(1)
            .map(|(i, _)| i + 1)
            .expect("lines");
        bytes[third + 20] ^= 0x02;
        std::fs::write(&path, &bytes).expect("write");
        let g = summarize(path.clone());
        assert_eq!(g.plies, 1);
        assert!(matches!(g.stop, Some(Stop::Unreadable { entry: 2, .. })));
        assert_eq!(mode_of(&path), Mode::Play);
        let latest = latest_in_progress(&dir).expect("list").expect("a game");
        assert_eq!(latest.path, path);

        // Once a new journal continues it and that game has ended, the damaged game is not
        // offered again: the older game is the latest unfinished one.
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("name")
            .to_string();
        let mut next = Journal::create_in(&dir, &header).expect("create");
        for e in [
            mv("e2e4", "e4", shakmaty::Color::White),
            Entry::Setting {
                key: "continues".into(),
                value: name.clone(),
            },
            Entry::Resigned {
                by: shakmaty::Color::Black,
            },
        ] {
            next.append(&e).expect("append");
        }
        drop(next);
        let games = list_in(&dir).expect("list");
        assert_eq!(games[2].continues.as_deref(), Some(name.as_str()));
        let latest = latest_in_progress(&dir).expect("list").expect("a game");
        assert_eq!(latest.white, "Anna");
    }

    #[test]
    fn summaries_list_games_in_order_with_problems() {
        let dir = temp("list");
        let mut header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
        let mut j = Journal::create_in(&dir, &header).expect("create");
        j.append(&mv("e2e4", "e4", shakmaty::Color::White))
            .expect("append");
        j.append(&Entry::Resigned {
            by: shakmaty::Color::Black,
        })
        .expect("append");
        header.white = "Carl".into();
        Journal::create_in(&dir, &header).expect("create");
        std::fs::write(dir.join("zzz.journal"), b"not a journal\n").expect("write");
        let games = list_in(&dir).expect("list");
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].white, "Anna");
        assert_eq!(games[0].result(), Some(GameResult::WhiteWins));
        assert_eq!(games[0].moves, 1);
        assert_eq!(games[1].white, "Carl");
        assert_eq!(games[1].outcome, None);
        assert!(games[2].problem.is_some());
        let latest = latest_in_progress(&dir)
            .expect("list")
            .expect("one in progress");
        assert_eq!(latest.white, "Carl");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Files that fail: a closed placeholder, and (for the tests) one that fails on chosen writes.
pub(crate) mod faults {
    use std::io::Error;
    #[cfg(test)]
    use std::io::ErrorKind;

    use super::JournalFile;

    /// Stands in for a file while it is swapped; every call fails.
    #[derive(Debug)]
    pub(crate) struct Closed;

    impl JournalFile for Closed {
        fn write_bytes(&mut self, _: &[u8]) -> std::io::Result<()> {
            Err(Error::other("the journal file is closed"))
        }
        fn sync_data(&mut self) -> std::io::Result<()> {
            Err(Error::other("the journal file is closed"))
        }
        fn sync_all(&mut self) -> std::io::Result<()> {
            Err(Error::other("the journal file is closed"))
        }
        fn set_len(&mut self, _: u64) -> std::io::Result<()> {
            Err(Error::other("the journal file is closed"))
        }
    }

    /// How a write fails.
    #[cfg(test)]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum Fault {
        /// ENOSPC: nothing written.
        DiskFull,
        /// EACCES.
        NoPermission,
        /// Part of the bytes reach the file, then ENOSPC.
        ShortWrite,
        /// The write succeeds, the sync fails (EIO).
        SyncFails,
        /// Part of the bytes reach the file, then ENOSPC, and cutting them off fails too:
        /// the journal must be opened again.
        ShortWriteUndoFails,
    }

    /// A journal file that fails the writes whose numbers (from 0) are in `failing`, and
    /// every write while `down` is set; the rest go to the real file.
    #[cfg(test)]
    #[derive(Debug)]
    pub(crate) struct FaultyFile {
        pub(crate) inner: Box<dyn JournalFile>,
        pub(crate) fault: Fault,
        pub(crate) failing: Vec<usize>,
        pub(crate) down: std::sync::Arc<std::sync::atomic::AtomicBool>,
        writes: usize,
        sync_due_to_fail: bool,
        set_len_due_to_fail: bool,
    }

    #[cfg(test)]
    impl FaultyFile {
        pub(crate) fn new(
            inner: Box<dyn JournalFile>,
            fault: Fault,
            failing: Vec<usize>,
        ) -> FaultyFile {
            FaultyFile {
                inner,
                fault,
                failing,
                down: std::sync::Arc::default(),
                writes: 0,
                sync_due_to_fail: false,
                set_len_due_to_fail: false,
            }
        }
    }

    #[cfg(test)]
    impl JournalFile for FaultyFile {
        fn write_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
            let n = self.writes;
            self.writes += 1;
            let fails =
                self.failing.contains(&n) || self.down.load(std::sync::atomic::Ordering::SeqCst);
            if !fails {
                return self.inner.write_bytes(bytes);
            }
            match self.fault {
                Fault::DiskFull => Err(Error::from(ErrorKind::StorageFull)),
                Fault::NoPermission => Err(Error::from(ErrorKind::PermissionDenied)),
                Fault::ShortWrite => {
                    self.inner.write_bytes(&bytes[..bytes.len() / 2])?;
                    Err(Error::from(ErrorKind::StorageFull))
                }
                Fault::SyncFails => {
                    self.sync_due_to_fail = true;
                    self.inner.write_bytes(bytes)
                }
                Fault::ShortWriteUndoFails => {
                    self.inner.write_bytes(&bytes[..bytes.len() / 2])?;
                    self.set_len_due_to_fail = true;
                    Err(Error::from(ErrorKind::StorageFull))
                }
            }
        }
        fn sync_data(&mut self) -> std::io::Result<()> {
            if std::mem::take(&mut self.sync_due_to_fail) {
                return Err(Error::other("input/output error"));
            }
            self.inner.sync_data()
        }
        fn sync_all(&mut self) -> std::io::Result<()> {
            self.inner.sync_all()
        }
        fn set_len(&mut self, len: u64) -> std::io::Result<()> {
            if std::mem::take(&mut self.set_len_due_to_fail) {
                return Err(Error::other("input/output error"));
            }
            self.inner.set_len(len)
        }
    }
}
