//! The record of a game as the modes keep it (play, assist, arbiter): every event goes to the
//! journal, on the disk before it is announced (Appendix D6: hector is the blind player's
//! recording device). A copy of the entries stays in memory for saving the game as PGN and
//! for the arbiter's event log.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

use crate::app::services::games::output_problem;
use crate::core::clock::Clock;
use crate::core::game::Game;
use crate::core::matchplay::Recorded;
use crate::core::notation::Language;
use crate::core::notation::fill;
use crate::core::record::{Entry, Header, Replayed, replay, to_pgn};
use crate::core::time::Timestamp;
use crate::io::journal::{Ack, Journal, JournalFile, JournalWriter, WriteError, games_dir, load};
use crate::io::output_file::write_output;
use std::io::ErrorKind;

/// How often the clock is written while it runs: a resume finds it within this of the crash.
pub(crate) const CHECKPOINT: Duration = Duration::from_secs(1);

/// Where the records go.
enum Sink {
    /// No journal yet: creating it failed so far (tried again with every record).
    None,
    /// Written and synced before `append` returns.
    Direct(Journal),
    /// The journal at this path must be opened again: a failed write could not be undone.
    Lost(PathBuf),
    /// Written on the journal's thread; `sent` numbers the records, `acked` is the last one
    /// known to be on the disk.
    Thread {
        writer: JournalWriter,
        sent: u64,
        acked: u64,
    },
}

/// Why the record is not on the disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Trouble {
    DiskFull,
    /// No permission to write here (also a read-only file system).
    NoPermission(PathBuf),
    /// A file stands where a directory must be.
    NotADirectory(PathBuf),
    /// Anything else, in the system's words.
    Other(String),
}

impl Trouble {
    fn of(error: &WriteError, place: &Path) -> Trouble {
        match error.kind {
            Some(ErrorKind::StorageFull | ErrorKind::QuotaExceeded) => Trouble::DiskFull,
            Some(ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem) => {
                Trouble::NoPermission(place.to_path_buf())
            }
            Some(ErrorKind::NotADirectory | ErrorKind::AlreadyExists) => {
                Trouble::NotADirectory(place.to_path_buf())
            }
            _ => Trouble::Other(error.text.clone()),
        }
    }

    /// The reason in the player's words.
    pub(crate) fn words(&self, lang: &Language) -> String {
        let p = &lang.play;
        match self {
            Trouble::DiskFull => p.record_reason_disk_full.clone(),
            Trouble::NoPermission(path) => fill(
                &p.record_reason_permission,
                &[("path", &path.display().to_string())],
            ),
            Trouble::NotADirectory(path) => fill(
                &p.record_reason_not_a_directory,
                &[("path", &path.display().to_string())],
            ),
            Trouble::Other(text) => text.clone(),
        }
    }
}

/// What the player must hear about the record: each change once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RecordNews {
    /// The record stopped reaching the disk.
    Failed(Trouble),
    /// Everything held back is on the disk now.
    WorksAgain,
}

impl RecordNews {
    pub(crate) fn words(&self, lang: &Language) -> String {
        match self {
            RecordNews::Failed(t) => fill(&lang.play.record_failed, &[("reason", &t.words(lang))]),
            RecordNews::WorksAgain => lang.play.record_works_again.clone(),
        }
    }
}

/// Puts a file between the journal and the disk (tests: one that fails on purpose).
pub(crate) type WrapFile = Box<dyn Fn(Box<dyn JournalFile>) -> Box<dyn JournalFile>>;

pub(crate) struct Recorder {
    sink: Sink,
    pub(crate) header: Header,
    /// Every entry of the game, also those the disk has not taken yet.
    entries: Vec<Entry>,
    /// How many of `entries` the journal holds (direct writing).
    on_disk: usize,
    /// Where new journals are made.
    dir: Option<PathBuf>,
    /// Why the record is behind, while it is.
    trouble: Option<Trouble>,
    /// A change to tell.
    news: Option<RecordNews>,
    /// Wraps the journal's file as it is opened (tests put a failing file in between).
    wrap: Option<WrapFile>,
    last_checkpoint: Option<Timestamp>,
}

impl Recorder {
    /// A new journal for a new game, beginning with `entries` (a game continued from PGN).
    pub(crate) fn create(header: Header, entries: Vec<Entry>) -> Recorder {
        match games_dir() {
            Ok(dir) => Recorder::create_in(&dir, header, entries, None),
            Err(e) => {
                let mut r = Recorder::unwritten(header, None, None);
                r.fail(Trouble::Other(crate::io::error_chain(&e)));
                for e in entries {
                    r.entries.push(e);
                }
                r
            }
        }
    }

    /// No record on disk, holding `entries` (a game walked through: saved as PGN on request).
    pub(crate) fn holding(header: Header, entries: Vec<crate::core::record::Entry>) -> Recorder {
        let mut r = Recorder::unwritten(header, None, None);
        r.entries = entries;
        r
    }

    fn unwritten(header: Header, dir: Option<PathBuf>, wrap: Option<WrapFile>) -> Recorder {
        Recorder {
            sink: Sink::None,
            header,
            entries: Vec::new(),
            on_disk: 0,
            dir,
            trouble: None,
            news: None,
            wrap,
            last_checkpoint: None,
        }
    }

    /// A new journal in `dir`; `wrap` puts a file in between (tests).
    pub(crate) fn create_in(
        dir: &Path,
        header: Header,
        entries: Vec<Entry>,
        wrap: Option<WrapFile>,
    ) -> Recorder {
        let mut r = Recorder::unwritten(header, Some(dir.to_path_buf()), wrap);
        r.entries = entries;
        r.flush();
        r
    }

    /// Continues the journal at `path`: its game, clock and settings as they were.
    pub(crate) fn resume(path: &Path) -> Result<(Recorder, Replayed)> {
        let decoded = load(path)?;
        let replayed = replay(&decoded.header, &decoded.entries)
            .with_context(|| format!("cannot continue {}", path.display()))?;
        let (journal, decoded) = Journal::open_for_append(path)?;
        let mut r = Recorder::unwritten(decoded.header, path.parent().map(Path::to_path_buf), None);
        r.on_disk = decoded.entries.len();
        r.entries = decoded.entries;
        r.sink = Sink::Direct(journal);
        Ok((r, replayed))
    }

    /// The entries so far (the journal's, also when the disk failed).
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub(crate) fn path(&self) -> Option<PathBuf> {
        match &self.sink {
            Sink::None => None,
            Sink::Direct(j) => Some(j.path().to_path_buf()),
            Sink::Lost(path) => Some(path.clone()),
            Sink::Thread { writer, .. } => Some(writer.path().to_path_buf()),
        }
    }

    /// Whether every entry is on the disk: only then may the game be called saved.
    pub(crate) fn is_saved(&self) -> bool {
        self.trouble.is_none()
            && match &self.sink {
                Sink::Direct(_) => self.on_disk == self.entries.len(),
                Sink::Thread { sent, acked, .. } => acked >= sent,
                Sink::None | Sink::Lost(_) => false,
            }
    }

    /// From now on the records are written on a thread of their own (see [`JournalWriter`]);
    /// their acknowledgements come on [`Recorder::acks`].
    pub(crate) fn write_on_thread(&mut self) {
        self.flush();
        if let Sink::Direct(_) = self.sink {
            let Sink::Direct(journal) = std::mem::replace(&mut self.sink, Sink::None) else {
                return;
            };
            let path = journal.path().to_path_buf();
            match JournalWriter::spawn(journal, self.on_disk) {
                Ok(mut writer) => {
                    // What the disk has not taken yet goes first.
                    let mut sent = 0;
                    for e in &self.entries[self.on_disk..] {
                        sent += 1;
                        writer.append(sent, e.clone());
                    }
                    let _ = &mut writer;
                    self.sink = Sink::Thread {
                        writer,
                        sent,
                        acked: 0,
                    };
                }
                Err(e) => {
                    self.sink = Sink::Lost(path);
                    self.fail(Trouble::Other(crate::io::error_chain(&e)));
                }
            }
        }
    }

    /// The acknowledgements of the journal's thread, to wait on.
    pub(crate) fn acks(&self) -> Option<&crossbeam_channel::Receiver<Ack>> {
        match &self.sink {
            Sink::Thread { writer, .. } => Some(writer.acks()),
            _ => None,
        }
    }

    /// Records up to `ack.seq` are on the disk, or the disk refused them (told once; they
    /// wait on the journal's thread and are written first when it takes them).
    pub(crate) fn acknowledged(&mut self, ack: Ack) {
        let place = self.path().unwrap_or_default();
        match ack.result {
            Ok(()) => {
                if let Sink::Thread { acked, sent, .. } = &mut self.sink {
                    *acked = (*acked).max(ack.seq);
                    if *acked >= *sent {
                        self.recovered();
                    }
                }
            }
            Err(e) => self.fail(Trouble::of(&e, &place)),
        }
    }

    /// Waits at most `limit` for the journal's thread to finish its writes (at the end).
    pub(crate) fn finish(&mut self, limit: Duration) {
        if let Sink::Thread { writer, .. } = &mut self.sink {
            let done = writer.finish(limit);
            // The last acknowledgements say whether everything reached the disk.
            let acks: Vec<Ack> = writer.acks().try_iter().collect();
            for ack in acks {
                self.acknowledged(ack);
            }
            if !done {
                self.fail(Trouble::Other(
                    "the disk did not finish writing the journal in time".into(),
                ));
            }
        }
    }

    /// What the player must hear about the record, once.
    pub(crate) fn take_news(&mut self) -> Option<RecordNews> {
        self.news.take()
    }

    /// Tries again to write what the disk has not taken (the player asked, or an event came).
    pub(crate) fn retry(&mut self) {
        self.flush();
    }

    fn fail(&mut self, trouble: Trouble) {
        if self.trouble.is_none() {
            self.news = Some(RecordNews::Failed(trouble.clone()));
        }
        self.trouble = Some(trouble);
    }

    fn recovered(&mut self) {
        if self.trouble.take().is_some() {
            self.news = Some(RecordNews::WorksAgain);
        }
    }

    /// Writes every entry the journal does not hold yet, in order: a journal not created yet
    /// is created, one a failed write left uncertain is opened again (and what it holds
    /// counted), so that no entry is skipped and none written twice.
    fn flush(&mut self) {
        loop {
            match &mut self.sink {
                Sink::Thread { .. } => return,
                Sink::None => {
                    let Some(dir) = self.dir.clone() else {
                        return;
                    };
                    match Journal::create_in(&dir, &self.header) {
                        Ok(j) => {
                            let j = match &self.wrap {
                                Some(wrap) => j.wrap_file(wrap),
                                None => j,
                            };
                            self.on_disk = 0;
                            self.sink = Sink::Direct(j);
                        }
                        Err(e) => {
                            let place = if dir.exists() { dir } else { dir_of(&dir) };
                            self.fail(Trouble::of(&WriteError::of(&e), &place));
                            return;
                        }
                    }
                }
                Sink::Lost(path) => {
                    let path = path.clone();
                    match Journal::open_for_append(&path) {
                        Ok((j, decoded)) => {
                            let j = match &self.wrap {
                                Some(wrap) => j.wrap_file(wrap),
                                None => j,
                            };
                            self.on_disk = decoded.entries.len().min(self.entries.len());
                            self.sink = Sink::Direct(j);
                        }
                        Err(e) => {
                            self.fail(Trouble::of(&WriteError::of(&e), &path));
                            return;
                        }
                    }
                }
                Sink::Direct(j) => {
                    if j.is_broken() {
                        let path = j.path().to_path_buf();
                        // Closing the file lets it be opened (and locked) again.
                        self.sink = Sink::Lost(path);
                        continue;
                    }
                    let backlog = &self.entries[self.on_disk..];
                    if backlog.is_empty() {
                        self.recovered();
                        return;
                    }
                    match j.append_all(backlog, true) {
                        Ok(()) => {
                            self.on_disk = self.entries.len();
                            self.recovered();
                        }
                        Err(e) => {
                            let place = j.path().to_path_buf();
                            self.fail(Trouble::of(&WriteError::of(&e), &place));
                        }
                    }
                    return;
                }
            }
        }
    }

    fn append(&mut self, entry: Entry) {
        // While the disk refuses, only the clock's latest standing matters: a checkpoint
        // waiting to be written is replaced, so that the backlog does not grow every second.
        let waiting = match &self.sink {
            Sink::Direct(_) | Sink::None | Sink::Lost(_) => self.entries.len() > self.on_disk,
            Sink::Thread { .. } => false,
        };
        if waiting
            && matches!(entry, Entry::ClockCheckpoint { .. })
            && matches!(self.entries.last(), Some(Entry::ClockCheckpoint { .. }))
        {
            self.entries.pop();
        }
        self.entries.push(entry.clone());
        match &mut self.sink {
            Sink::Thread { writer, sent, .. } => {
                *sent += 1;
                writer.append(*sent, entry);
            }
            _ => self.flush(),
        }
    }

    /// Writes what the match recorded; `game` is the game after the event.
    pub(crate) fn record(&mut self, r: &Recorded, game: &Game) {
        for e in r.entries(game) {
            self.append(e);
        }
    }

    /// A clock checkpoint when one is due (about once a second while a clock runs).
    pub(crate) fn checkpoint(&mut self, clock: &Clock, now: Timestamp, force: bool) {
        let due = self
            .last_checkpoint
            .is_none_or(|last| now.saturating_since(last) >= CHECKPOINT);
        if !(force || (due && clock.running().is_some())) {
            return;
        }
        self.last_checkpoint = Some(now);
        self.append(Entry::clock_checkpoint(clock, now));
    }

    /// When the next checkpoint is due, while a clock runs.
    pub(crate) fn next_checkpoint(&self, clock: Option<&Clock>) -> Option<Timestamp> {
        clock?.running()?;
        Some(
            self.last_checkpoint
                .map_or(Timestamp::ZERO, |t| t + CHECKPOINT),
        )
    }

    /// `speichern [PATH]` in any mode: the journal is tried again first (its news comes with
    /// [`Recorder::news_words`]), then the game is written as PGN to the typed path (`~/`
    /// standing for the home folder) or to `default` in the current folder; what to say.
    pub(crate) fn save_typed(
        &mut self,
        typed: Option<&str>,
        default: &str,
        lang: &Language,
    ) -> String {
        self.retry();
        let path = typed.map_or_else(|| PathBuf::from(default), home_path);
        self.save_words(&path, lang)
    }

    /// The name a game is saved under when no path is given: `hector-<created>.pgn`.
    pub(crate) fn default_pgn_name(&self) -> String {
        format!("hector-{}.pgn", file_stamp(&self.header.created))
    }

    /// The game as PGN, as `hector export` writes it (the record in memory, also what the
    /// disk has not taken yet).
    pub(crate) fn pgn(&self, lang: &Language) -> Option<String> {
        to_pgn(&self.header, &self.entries, lang).ok()
    }

    /// Writes the game as PGN and says so: the sentence naming the file, or why not.
    pub(crate) fn save_words(&self, path: &Path, lang: &Language) -> String {
        match self.save_pgn(path, lang) {
            // The whole path, so that the player can find the file from anywhere.
            Ok(written) => {
                let full = std::fs::canonicalize(&written).unwrap_or(written);
                fill(&lang.play.saved, &[("path", &full.display().to_string())])
            }
            Err(reason) => fill(&lang.play.save_failed, &[("reason", &reason)]),
        }
    }

    /// Writes the game as PGN to a path a person named, by the rules of `hector export
    /// --output` (a link's target written, a device, folder or pipe refused); the file
    /// written, or why not in the player's words.
    pub(crate) fn save_pgn(
        &self,
        path: &Path,
        lang: &Language,
    ) -> std::result::Result<PathBuf, String> {
        let pgn = to_pgn(&self.header, &self.entries, lang)
            .map_err(|e| format!("cannot write the game as PGN: {e}"))?;
        write_output(path, pgn.as_bytes()).map_err(|e| output_problem(&e, lang))
    }
}

/// The nearest existing folder above `path`: where a missing games directory would be made.
fn dir_of(path: &Path) -> PathBuf {
    path.ancestors()
        .skip(1)
        .find(|p| p.exists())
        .map_or_else(|| path.to_path_buf(), Path::to_path_buf)
}

impl Recorder {
    /// The record's news in words, with how urgently to say it: a failure interrupts.
    pub(crate) fn news_words(
        &mut self,
        lang: &Language,
    ) -> Option<(crate::core::matchplay::Urgency, String)> {
        use crate::core::matchplay::Urgency;
        self.take_news().map(|n| {
            // A record that stopped reaching the disk interrupts; one that works again not.
            let urgency = match n {
                RecordNews::Failed(_) => Urgency::Urgent,
                RecordNews::WorksAgain => Urgency::Answer,
            };
            (urgency, n.words(lang))
        })
    }

    /// Why the game is not on the disk, in words, while it is not (the session's quit
    /// question must not say it stays saved).
    pub(crate) fn unrecorded_words(&self, lang: &Language) -> Option<String> {
        if self.is_saved() {
            return None;
        }
        Some(match &self.trouble {
            Some(t) => t.words(lang),
            None => lang.play.record_reason_disk_full.clone(),
        })
    }

    /// What is said when the player leaves: that the game is saved and how to go on, or, when
    /// the disk has not taken every entry, that it is not, with a copy of the game as PGN in
    /// the home directory (or the current one) so that no move is lost.
    pub(crate) fn closing_words(&mut self, game_over: bool, lang: &Language) -> Vec<String> {
        let mut places: Vec<PathBuf> = Vec::new();
        if let Some(home) = crate::io::platform::folders::home() {
            places.push(home);
        }
        places.push(PathBuf::from("."));
        self.closing_words_in(game_over, lang, &places)
    }

    /// [`Recorder::closing_words`], with the copy tried in `places` in turn.
    pub(crate) fn closing_words_in(
        &mut self,
        game_over: bool,
        lang: &Language,
        places: &[PathBuf],
    ) -> Vec<String> {
        self.retry();
        let _ = self.take_news();
        if self.is_saved() {
            return if game_over {
                Vec::new()
            } else {
                vec![fill(
                    &lang.play.resume_hint,
                    &[("command", crate::io::program::COMMAND)],
                )]
            };
        }
        let reason = self
            .unrecorded_words(lang)
            .unwrap_or_else(|| lang.play.record_reason_disk_full.clone());
        let mut words = vec![fill(&lang.play.unrecorded_at_end, &[("reason", &reason)])];
        let name = format!("hector-{}.pgn", file_stamp(&self.header.created));
        let mut last_error = String::new();
        for dir in places {
            let path = dir.join(&name);
            match self.save_pgn(&path, lang) {
                Ok(written) => {
                    words.push(fill(
                        &lang.play.copy_saved,
                        &[("path", &written.display().to_string())],
                    ));
                    return words;
                }
                Err(reason) => last_error = reason,
            }
        }
        words.push(fill(&lang.play.copy_failed, &[("reason", &last_error)]));
        words
    }
}

/// A path typed by the player: `~/` stands for the home directory, as in a shell.
fn home_path(typed: &str) -> PathBuf {
    match (
        typed.strip_prefix("~/"),
        crate::io::platform::folders::home(),
    ) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(typed),
    }
}

/// A creation instant as part of a file name: `2026-11-21T14:03:05Z` to `2026-11-21_14_03_05Z`.
pub(crate) fn file_stamp(created: &str) -> String {
    created
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! The recorder against a disk that fails: every way a write can fail (disk full, no
    //! permission, a short write, a failed sync, a short write that cannot be undone), at
    //! random moments, and a directory that cannot hold the journal. After the disk takes
    //! writes again, the journal holds every entry, in order, once.

    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use proptest::prelude::*;

    use super::*;
    use crate::io::journal::faults::{Fault, FaultyFile};

    /// A folder removed when the test ends, also when it fails.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(what: &str) -> TempDir {
            static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
            let n = N.fetch_add(1, Ordering::SeqCst);
            let p = std::env::temp_dir()
                .join(format!("hector-recorder-{what}-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&p);
            std::fs::create_dir_all(&p).expect("temp dir");
            TempDir(p)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn note(i: usize) -> Entry {
        Entry::Note {
            text: format!("entry {i}"),
        }
    }

    fn checkpoint(ms: u64) -> Entry {
        Entry::ClockCheckpoint {
            white_ms: ms,
            black_ms: ms,
            running: Some(shakmaty::Color::White),
            paused: false,
            used: None,
        }
    }

    /// A recorder whose file fails with `fault` while `down` is set.
    fn faulty(dir: &Path, fault: Fault) -> (Recorder, Arc<AtomicBool>) {
        let down = Arc::new(AtomicBool::new(false));
        let flag = down.clone();
        let wrap = move |inner: Box<dyn JournalFile>| -> Box<dyn JournalFile> {
            let mut f = FaultyFile::new(inner, fault, Vec::new());
            f.down = flag.clone();
            Box::new(f)
        };
        let header = Header::new("2026-11-23T12:00:00Z", "Weiß", "Schwarz");
        let r = Recorder::create_in(dir, header, Vec::new(), Some(Box::new(wrap)));
        (r, down)
    }

    fn on_disk(r: &Recorder) -> Vec<Entry> {
        load(&r.path().expect("a journal")).expect("loads").entries
    }

    #[test]
    fn a_full_disk_is_told_once_and_nothing_is_skipped_when_space_returns() {
        for fault in [
            Fault::DiskFull,
            Fault::NoPermission,
            Fault::ShortWrite,
            Fault::SyncFails,
            Fault::ShortWriteUndoFails,
        ] {
            let dir = TempDir::new("fault");
            let (mut r, down) = faulty(&dir.0, fault);
            assert!(r.is_saved(), "{fault:?}");
            r.append(note(1));
            assert!(r.is_saved());
            assert_eq!(r.take_news(), None);
            down.store(true, Ordering::SeqCst);
            r.append(note(2));
            assert!(!r.is_saved(), "{fault:?}");
            let news = r.take_news();
            assert!(
                matches!(news, Some(RecordNews::Failed(_))),
                "{fault:?}: {news:?}"
            );
            if fault == Fault::DiskFull || fault == Fault::ShortWrite {
                assert_eq!(news, Some(RecordNews::Failed(Trouble::DiskFull)));
            }
            // Told once: later failures are not told again.
            r.append(note(3));
            r.append(checkpoint(1000));
            r.append(checkpoint(900));
            assert_eq!(r.take_news(), None, "{fault:?}");
            assert!(r.unrecorded_words(language()).is_some());
            down.store(false, Ordering::SeqCst);
            r.append(note(4));
            assert_eq!(r.take_news(), Some(RecordNews::WorksAgain), "{fault:?}");
            assert!(r.is_saved());
            // The waiting checkpoints were folded into the latest.
            let expected = vec![note(1), note(2), note(3), checkpoint(900), note(4)];
            assert_eq!(r.entries(), expected.as_slice(), "{fault:?}");
            assert_eq!(on_disk(&r), expected, "{fault:?}");
        }
    }

    #[test]
    fn asking_to_save_writes_what_waits() {
        let dir = TempDir::new("retry");
        let (mut r, down) = faulty(&dir.0, Fault::DiskFull);
        down.store(true, Ordering::SeqCst);
        r.append(note(1));
        assert!(!r.is_saved());
        down.store(false, Ordering::SeqCst);
        r.retry();
        assert!(r.is_saved());
        assert_eq!(on_disk(&r), vec![note(1)]);
    }

    #[test]
    fn a_file_where_the_games_folder_should_be_is_told_and_the_game_written_later() {
        let dir = TempDir::new("notadir");
        let games = dir.0.join("games");
        std::fs::write(&games, b"not a folder").expect("file");
        let header = Header::new("2026-11-23T12:00:00Z", "Weiß", "Schwarz");
        let mut r = Recorder::create_in(&games, header, vec![note(0)], None);
        assert!(!r.is_saved());
        assert_eq!(
            r.take_news(),
            Some(RecordNews::Failed(Trouble::NotADirectory(games.clone())))
        );
        r.append(note(1));
        assert_eq!(r.take_news(), None);
        let lang = language();
        let words = r.unrecorded_words(lang).expect("not recorded");
        assert!(words.contains("kein Verzeichnis"), "{words}");
        std::fs::remove_file(&games).expect("remove");
        r.append(note(2));
        assert!(r.is_saved());
        assert_eq!(r.take_news(), Some(RecordNews::WorksAgain));
        assert_eq!(on_disk(&r), vec![note(0), note(1), note(2)]);
    }

    #[test]
    fn leaving_with_unrecorded_moves_says_so_and_writes_a_copy() {
        let dir = TempDir::new("closing");
        let (mut r, down) = faulty(&dir.0, Fault::DiskFull);
        r.append(note(1));
        down.store(true, Ordering::SeqCst);
        r.append(note(2));
        let home = TempDir::new("home");
        let missing = home.0.join("missing");
        let words = r.closing_words_in(false, language(), &[missing, home.0.clone()]);
        assert_eq!(words.len(), 2, "{words:?}");
        assert!(words[0].starts_with("Die Partie ist nicht gespeichert: der Datenträger ist voll"));
        let copy = home.0.join("hector-2026-11-23T12_00_00Z.pgn");
        assert!(words[1].contains(&copy.display().to_string()), "{words:?}");
        assert!(copy.exists());
        // Saved: the usual hint.
        down.store(false, Ordering::SeqCst);
        assert_eq!(
            r.closing_words(false, language()),
            vec![fill(
                &language().play.resume_hint,
                &[("command", crate::io::program::COMMAND)],
            )]
        );
    }

    /// One entry of each kind a game writes: those of some sample journals and those the
    /// samples never have (take-backs, pauses, adjournments, the boards' reports…), checkpoints
    /// aside (the test appends those itself). One of each, so that every kind is drawn often.
    fn game_entries() -> Vec<Entry> {
        use shakmaty::{Color, Square};
        let e2e4: shakmaty::uci::UciMove = "e2e4".parse().expect("uci");
        let rare = [
            Entry::TakenBack { uci: e2e4 },
            Entry::TakebackAgreed { by: Color::Black },
            Entry::TakebackDeclined { by: Color::White },
            Entry::Aborted { by: Color::Black },
            Entry::Resigned { by: Color::White },
            Entry::FlagFell {
                color: Color::Black,
            },
            Entry::BothFlagsFell { last_period: true },
            Entry::DrawDeclined { by: Color::Black },
            Entry::DrawAccepted { by: Color::White },
            Entry::Touched {
                by: Color::White,
                square: Square::G1,
            },
            Entry::ClockPaused,
            Entry::ClockResumed,
            Entry::MovesAdjusted {
                color: Color::Black,
                moves: 12,
            },
            Entry::BoardMismatch {
                board: Color::White,
                agreed_plies: Some(3),
                detail: "e4".into(),
            },
            Entry::Adjourned {
                by: Color::White,
                move_number: 41,
            },
            Entry::AdjournmentResumed,
            Entry::ClockAdjusted {
                color: Color::White,
                remaining_ms: 61_000,
            },
            Entry::Setting {
                key: "opponent".into(),
                value: "keyboard".into(),
            },
        ];
        let mut kinds: Vec<Entry> = Vec::new();
        for e in crate::core::testkit::record::sample_journals(6, 3)
            .into_iter()
            .flat_map(|j| j.entries)
            .chain(rare)
            .filter(|e| !matches!(e, Entry::ClockCheckpoint { .. }))
        {
            if !kinds
                .iter()
                .any(|k| std::mem::discriminant(k) == std::mem::discriminant(&e))
            {
                kinds.push(e);
            }
        }
        kinds
    }

    fn language() -> &'static Language {
        crate::core::notation::language("de").expect("de")
    }

    #[derive(Clone, Debug)]
    enum Op {
        Note,
        /// An entry of a game's journal, of every kind (moves, offers, claims, endings…),
        /// the `n`th of the sample journals' (with its number, so that none repeats).
        Game(u16),
        Checkpoint(u64),
        Down(Fault),
        Up,
        Retry,
    }

    fn op() -> impl Strategy<Value = Op> {
        let fault = prop_oneof![
            Just(Fault::DiskFull),
            Just(Fault::NoPermission),
            Just(Fault::ShortWrite),
            Just(Fault::SyncFails),
            Just(Fault::ShortWriteUndoFails),
        ];
        prop_oneof![
            4 => Just(Op::Note),
            4 => any::<u16>().prop_map(Op::Game),
            3 => (0u64..10_000).prop_map(Op::Checkpoint),
            1 => fault.prop_map(Op::Down),
            2 => Just(Op::Up),
            1 => Just(Op::Retry),
        ]
    }

    /// Whether `disk` is what a journal may hold of `appended` (everything the test asked the
    /// recorder to write, in order), judged from the appended entries alone and not from the
    /// recorder's memory: its entries come in the order appended, each once; none is
    /// missing before the last one it holds, except a clock checkpoint that a later
    /// checkpoint replaced before the next note (a checkpoint waiting for a full disk is
    /// superseded by the next). `Some(true)`: it holds everything (the last entry appended
    /// too); `Some(false)`: a good beginning; `None`: not what was appended.
    fn journal_of(disk: &[Entry], appended: &[Entry]) -> Option<bool> {
        let mut at = 0;
        for (i, entry) in appended.iter().enumerate() {
            if at == disk.len() {
                // Nothing more on the disk: the rest waits.
                return Some(false);
            }
            if &disk[at] == entry {
                at += 1;
                continue;
            }
            let superseded = matches!(entry, Entry::ClockCheckpoint { .. })
                && matches!(appended.get(i + 1), Some(Entry::ClockCheckpoint { .. }));
            if !superseded {
                return None;
            }
        }
        (at == disk.len()).then_some(true)
    }

    #[test]
    fn the_tests_judge_of_a_journal_can_say_no() {
        let appended = vec![note(1), checkpoint(5), checkpoint(4), note(2)];
        assert_eq!(journal_of(&appended, &appended), Some(true));
        assert_eq!(
            journal_of(&[note(1), checkpoint(4)], &appended),
            Some(false)
        );
        assert_eq!(
            journal_of(&[note(1), checkpoint(4), note(2)], &appended),
            Some(true)
        );
        // A note left out, a repeat, another order, a checkpoint no later one replaced.
        assert_eq!(journal_of(&[note(1), note(2)], &appended[..2]), None);
        assert_eq!(journal_of(&[note(1), note(1)], &appended), None);
        assert_eq!(journal_of(&[checkpoint(5), note(1)], &appended), None);
        assert_eq!(
            journal_of(&[note(1), note(2)], &[note(1), checkpoint(5), note(2)]),
            None
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Whatever the disk does, the journal on the disk is a beginning of what was
        /// appended, in order, without gaps or repeats (only a superseded checkpoint may be
        /// left out); the recorder calls the game saved exactly when the journal holds
        /// everything appended; and once the disk works, everything is on it. Judged against
        /// the test's own list of what it appended, read back from the file.
        #[test]
        fn the_journal_is_always_a_prefix_and_complete_once_the_disk_works(
            ops in proptest::collection::vec(op(), 1..40)
        ) {
            let dir = TempDir::new("prop");
            let fault = Arc::new(std::sync::Mutex::new(Fault::DiskFull));
            let down = Arc::new(AtomicBool::new(false));
            let (flag, which) = (down.clone(), fault.clone());
            let wrap = move |inner: Box<dyn JournalFile>| -> Box<dyn JournalFile> {
                let f = *which.lock().expect("fault");
                let mut file = FaultyFile::new(inner, f, Vec::new());
                file.down = flag.clone();
                Box::new(file)
            };
            let header = Header::new("2026-11-23T12:00:00Z", "Weiß", "Schwarz");
            let mut r = Recorder::create_in(&dir.0, header, Vec::new(), Some(Box::new(wrap)));
            let mut appended = Vec::new();
            let mut n = 0;
            let kinds = game_entries();
            for op in &ops {
                match op {
                    Op::Note => {
                        n += 1;
                        appended.push(note(n));
                        r.append(note(n));
                    }
                    Op::Game(k) => {
                        // Each appended entry differs from the others: a note of its number
                        // goes with it.
                        n += 1;
                        let entry = kinds[usize::from(*k) % kinds.len()].clone();
                        for e in [entry, note(n)] {
                            appended.push(e.clone());
                            r.append(e);
                        }
                    }
                    Op::Checkpoint(ms) => {
                        // Two equal checkpoints would leave the judge unable to tell which
                        // one the disk holds: the number makes each one differ.
                        n += 1;
                        let cp = checkpoint(ms * 1000 + n as u64);
                        appended.push(cp.clone());
                        r.append(cp);
                    }
                    Op::Down(f) => {
                        *fault.lock().expect("fault") = *f;
                        down.store(true, Ordering::SeqCst);
                    }
                    Op::Up => down.store(false, Ordering::SeqCst),
                    Op::Retry => r.retry(),
                }
                let disk = on_disk(&r);
                let judged = journal_of(&disk, &appended);
                prop_assert!(judged.is_some(), "on the disk {:?}, appended {:?}", disk, appended);
                prop_assert_eq!(r.is_saved(), judged == Some(true), "{:?} / {:?}", disk, appended);
            }
            down.store(false, Ordering::SeqCst);
            r.retry();
            prop_assert!(r.is_saved());
            let disk = on_disk(&r);
            prop_assert_eq!(journal_of(&disk, &appended), Some(true), "{:?} / {:?}", disk, appended);
        }
    }
}
