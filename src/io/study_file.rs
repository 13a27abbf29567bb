//! The PGN file `hector study` reads, on a thread of its own. The file is read once from its
//! start, as it streams, into an index: where each game's text begins in the (decompressed)
//! text and the words a list and a search need ([`Summary::pack`]). A search looks only at the
//! index; a game is opened by reading its text again from where the index says it starts (a
//! plain file seeks there; a compressed one is read from its [`Spool`], the text the index
//! decompressed, kept in a scratch file, or past the spool decompressed up to there and not
//! parsed); a game asked for before the index reaches it is taken from the index's own read. The player's
//! keys are answered meanwhile, a request is cancelled by a new generation
//! ([`StudyFile::cancel`]), and [`StudyFile::progress`] says how far the index is.
//!
//! The index is bounded: at most [`MAX_INDEXED`] games and [`MAX_HEADS`] bytes of their words
//! (about 250 MB at the worst, some 100 MB for a file of a million games). The games past it
//! are read from the file each time, from the last game indexed on, as they stream.
//! The core reads the games ([`crate::core::study`]); this module owns the file and the thread.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError, unbounded};

use crate::core::notation::{Language, fill};
use crate::core::pgn::{RawGame, Resume};
use crate::core::study::{FileProgress, LISTED, Loaded, Search, Summary, read_error_words};
use crate::io::files::Input;
use crate::io::pgn_stream::Splitter;

/// The most games the index keeps (24 bytes each).
pub(crate) const MAX_INDEXED: usize = 4_000_000;
/// The most bytes of the games' words the index keeps.
pub(crate) const MAX_HEADS: usize = 160 << 20;
/// Each word a list shows (a name, an event, an opening) is kept up to this many characters.
const CUT: usize = 40;
/// The most of a compressed file's text its spool keeps: the index's 4 million games at
/// some 900 bytes each (lichess's games with clocks, the benchmark's) are 3.6 GB; half of that
/// covers most databases a player studies and leaves the disk room, and the games past it
/// are decompressed from the start as before.
const MAX_SPOOL: u64 = 2 << 30;
/// The index reads this long between looks at the player's requests.
const SLICE: Duration = Duration::from_millis(20);
/// A search looks at this many games of the index between looks at the requests.
const SCAN: usize = 20_000;

/// What the study asks of its file.
#[derive(Clone, Debug)]
pub(crate) enum Request {
    Open(usize),
    Find(Search),
}

/// The file's answers.
#[derive(Debug)]
pub(crate) enum Answer {
    /// Game `number`: read; not readable (`Err(Some(words))`); not in the file (`Err(None)`).
    Opened {
        number: usize,
        game: Result<Box<Loaded>, Option<String>>,
    },
    Found {
        search: Search,
        games: Vec<Summary>,
        more: Option<usize>,
    },
    /// The file cannot be read (any more): the system's words; `answers` when this is the
    /// answer to a request (else the index's own read failed).
    Failed { reason: String, answers: bool },
    /// The index reached its bounds after `games` games (sent once; no request's answer).
    Full { games: usize },
}

/// An answer, with the generation of the requests it belongs to: one from before a
/// [`StudyFile::cancel`] is dropped.
#[derive(Debug)]
pub(crate) struct StudyNews {
    pub(crate) generation: u64,
    pub(crate) answer: Answer,
}

/// What both ends see: the generation and how far the index is.
struct Shared {
    generation: AtomicU64,
    games: AtomicUsize,
    done: AtomicBool,
    consumed: Arc<AtomicU64>,
    size: Option<u64>,
}

/// The thread that reads the file.
pub(crate) struct StudyFile {
    requests: Sender<(u64, Request)>,
    news: Receiver<StudyNews>,
    shared: Arc<Shared>,
}

impl StudyFile {
    /// Starts the thread for `path`, whose games it words in `lang`; it ends when the study
    /// drops its requests.
    pub(crate) fn start(path: PathBuf, lang: &'static Language) -> Result<StudyFile, String> {
        let spool_dir = crate::io::journal::data_dir().ok();
        StudyFile::indexing(path, lang, MAX_INDEXED, spool_dir)
    }

    /// [`StudyFile::start`] with an index of at most `max_games` games, a compressed file's
    /// spool in `spool_dir` (none without it).
    fn indexing(
        path: PathBuf,
        lang: &'static Language,
        max_games: usize,
        spool_dir: Option<PathBuf>,
    ) -> Result<StudyFile, String> {
        let input = crate::io::files::open_input(&path).map_err(|e| crate::io::error_chain(&e))?;
        // Only a compressed regular file is read again; a pipe is read once.
        let spool = if input.compressed && input.size.is_some() {
            spool_dir.and_then(|dir| Spool::create(&dir))
        } else {
            None
        };
        let reader = match &spool {
            Some(spool) => Box::new(spool.tee(input.reader)),
            None => input.reader,
        };
        let shared = Arc::new(Shared {
            generation: AtomicU64::new(0),
            games: AtomicUsize::new(0),
            done: AtomicBool::new(false),
            consumed: Arc::clone(&input.consumed),
            size: input.size,
        });
        let (requests, jobs) = unbounded();
        let (tell, news) = unbounded();
        let worker = Worker {
            compressed: input.compressed,
            regular: input.size.is_some(),
            name: input.name.clone(),
            pass: Some(Splitter::new(reader)),
            spool,
            path,
            lang,
            shared: Arc::clone(&shared),
            index: Index::new(max_games),
            pending: Vec::new(),
            tell,
        };
        std::thread::Builder::new()
            .name("study-file".into())
            .spawn(move || worker.run(&jobs))
            .map_err(|e| e.to_string())?;
        Ok(StudyFile {
            requests,
            news,
            shared,
        })
    }

    pub(crate) fn ask(&self, request: Request) {
        let generation = self.generation();
        // The thread ends only when this end is dropped.
        let _ = self.requests.send((generation, request));
    }

    /// Drops every request asked so far: the thread stops working on them, and an answer
    /// already on its way is of an old generation.
    pub(crate) fn cancel(&self) {
        self.shared.generation.fetch_add(1, Ordering::SeqCst);
    }

    pub(crate) fn generation(&self) -> u64 {
        self.shared.generation.load(Ordering::SeqCst)
    }

    /// How far the index has read the file.
    pub(crate) fn progress(&self) -> FileProgress {
        let s = &self.shared;
        let done = s.done.load(Ordering::SeqCst);
        let percent = s.size.filter(|&size| size > 0).map(|size| {
            let read = s.consumed.load(Ordering::Relaxed).min(size);
            if done {
                100
            } else {
                // Never "100" while reading goes on.
                (read.saturating_mul(100) / size).min(99) as u8
            }
        });
        FileProgress {
            games: s.games.load(Ordering::SeqCst),
            percent,
            done,
        }
    }

    pub(crate) fn news(&self) -> &Receiver<StudyNews> {
        &self.news
    }
}

/// Where a game's text begins: a splitter resumed there reads it again.
#[derive(Clone, Copy, Debug)]
struct Spot {
    offset: u64,
    line: u32,
    /// The game's place among the games of its text (0 for the first; a text holds several
    /// only where the reader found no end between them).
    nth: u32,
    /// Where its words end in [`Index::heads`].
    head_end: u32,
    starts_line: bool,
}

struct Index {
    spots: Vec<Spot>,
    heads: String,
    /// The bounds: [`MAX_INDEXED`] and [`MAX_HEADS`] (less in tests).
    max_games: usize,
    max_heads: usize,
    /// The bound was reached: the games after the last spot are not indexed.
    full: bool,
    /// Where the text after the last game indexed begins, once the index's read has ended
    /// (the text's length at its end).
    beyond: Option<u64>,
}

impl Index {
    fn new(max_games: usize) -> Index {
        Index {
            spots: Vec::new(),
            heads: String::new(),
            max_games,
            max_heads: MAX_HEADS,
            full: false,
            beyond: None,
        }
    }

    /// Where the text holding game `number` ends: where the next text begins, if known.
    fn text_end(&self, number: usize) -> Option<u64> {
        let start = self.spots.get(number.checked_sub(1)?)?.offset;
        self.spots[number..]
            .iter()
            .map(|s| s.offset)
            .chain(self.beyond)
            .find(|&o| o > start)
    }

    fn len(&self) -> usize {
        self.spots.len()
    }

    /// The packed words of game `number` (1 for the first).
    fn head(&self, number: usize) -> &str {
        let start = match number.checked_sub(2) {
            Some(i) => self.spots[i].head_end as usize,
            None => 0,
        };
        let end = self.spots[number - 1].head_end as usize;
        self.heads.get(start..end).unwrap_or_default()
    }

    /// Keeps game `number` = len + 1, unless the bound is reached.
    fn push(&mut self, text_at: (u64, Resume), nth: usize, summary: &Summary) -> bool {
        let packed = summary.pack(CUT);
        if self.spots.len() >= self.max_games || self.heads.len() + packed.len() > self.max_heads {
            self.full = true;
            return false;
        }
        self.heads.push_str(&packed);
        let (offset, at) = text_at;
        self.spots.push(Spot {
            offset,
            line: u32::try_from(at.line).unwrap_or(u32::MAX),
            nth: u32::try_from(nth).unwrap_or(u32::MAX),
            head_end: u32::try_from(self.heads.len()).unwrap_or(u32::MAX),
            starts_line: at.starts_line,
        });
        true
    }
}

/// A request not answered yet.
struct Pending {
    generation: u64,
    request: Request,
    /// A search: the next game of the index to look at, and what fits so far.
    next: usize,
    found: Vec<Summary>,
}

/// What becomes of a request for now.
enum Served {
    /// Not yet: the index has not reached what it needs.
    Wait,
    Send(Answer),
    /// Cancelled: no answer is due.
    Drop,
}

/// Why reading stopped short.
enum Stop {
    Cancelled,
    Failed(String),
}

struct Worker {
    path: PathBuf,
    name: String,
    compressed: bool,
    /// A regular file, read again for each game; a pipe is read once, by the index.
    regular: bool,
    lang: &'static Language,
    shared: Arc<Shared>,
    /// The index's own read of the file, until it ends.
    pass: Option<Splitter<Box<dyn Read + Send>>>,
    /// A compressed file's text as the index read it.
    spool: Option<Spool>,
    index: Index,
    pending: Vec<Pending>,
    tell: Sender<StudyNews>,
}

impl Worker {
    fn run(mut self, jobs: &Receiver<(u64, Request)>) {
        // The study asks for its first game at once: that request is taken before the index
        // reads, so that a pipe's first game is answered from the index's own read.
        match jobs.recv() {
            Ok(job) => self.take(job),
            Err(_) => return,
        }
        loop {
            if self.pass.is_none() && self.pending.is_empty() {
                match jobs.recv() {
                    Ok(job) => self.take(job),
                    Err(_) => return,
                }
            }
            loop {
                match jobs.try_recv() {
                    Ok(job) => self.take(job),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return,
                }
            }
            let now = self.generation();
            self.pending.retain(|p| p.generation == now);
            if !self.serve() {
                return;
            }
            if self.pass.is_some() {
                self.read_on();
            }
        }
    }

    fn generation(&self) -> u64 {
        self.shared.generation.load(Ordering::SeqCst)
    }

    fn take(&mut self, (generation, request): (u64, Request)) {
        let next = match &request {
            Request::Find(search) => search.from.max(1),
            Request::Open(_) => 0,
        };
        self.pending.push(Pending {
            generation,
            request,
            next,
            found: Vec::new(),
        });
    }

    fn send(&self, generation: u64, answer: Answer) -> bool {
        self.tell.send(StudyNews { generation, answer }).is_ok()
    }

    /// Answers what can be answered now; false when the study is gone.
    fn serve(&mut self) -> bool {
        let mut i = 0;
        while i < self.pending.len() {
            let answer = match self.pending[i].request.clone() {
                Request::Open(n) => self.open(n, self.pending[i].generation),
                Request::Find(_) => self.find(i),
            };
            match answer {
                Served::Send(answer) => {
                    let p = self.pending.remove(i);
                    if p.generation == self.generation() && !self.send(p.generation, answer) {
                        return false;
                    }
                }
                Served::Drop => {
                    self.pending.remove(i);
                }
                Served::Wait => i += 1,
            }
        }
        true
    }

    /// Game `n`, when it can be had now.
    fn open(&mut self, n: usize, generation: u64) -> Served {
        let known = self.index.len();
        if n <= known {
            return self.read_indexed(n, generation);
        }
        if self.pass.is_some() {
            return Served::Wait;
        }
        if !self.index.full {
            return Served::Send(Answer::Opened {
                number: n,
                game: Err(None),
            });
        }
        // Past the bound: read on from the last game indexed.
        let mut game = Err(None);
        let lang = self.lang;
        let read = self.each_game_from(known, generation, true, |raw, number| {
            if number < n {
                return true;
            }
            game = read_game(raw, number, lang);
            false
        });
        self.finish(read, Answer::Opened { number: n, game })
    }

    /// The answer, unless the read was cancelled (then none is due) or failed.
    fn finish(&self, read: Result<(), Stop>, answer: Answer) -> Served {
        match read {
            Ok(()) => Served::Send(answer),
            Err(Stop::Cancelled) => Served::Drop,
            Err(Stop::Failed(reason)) => Served::Send(Answer::Failed {
                reason,
                answers: true,
            }),
        }
    }

    /// Game `n` of the index, read again from where it begins; a game that is not there any
    /// more (the file changed) is said as such.
    fn read_indexed(&mut self, n: usize, generation: u64) -> Served {
        let lang = self.lang;
        if !self.regular {
            let words = fill(&lang.study.read_once, &[("number", &n.to_string())]);
            return Served::Send(Answer::Opened {
                number: n,
                game: Err(Some(words)),
            });
        }
        let mut game = Err(Some(fill(&lang.study.moved, &[("number", &n.to_string())])));
        let head = self.index.head(n).to_string();
        let read = self.each_game_from(n, generation, false, |raw, number| {
            if number < n {
                return true;
            }
            if Summary::of(raw, number).pack(CUT) == head {
                game = read_game(raw, number, lang);
            }
            false
        });
        match read {
            Err(Stop::Cancelled) => Served::Drop,
            Err(Stop::Failed(e)) => Served::Send(Answer::Opened {
                number: n,
                game: Err(Some(fill(&lang.study.file_failed, &[("reason", &e)]))),
            }),
            Ok(()) => Served::Send(Answer::Opened { number: n, game }),
        }
    }

    /// The search `pending[i]` goes on through the index; its answer once it has a list and
    /// one game more, or the index is at its end.
    fn find(&mut self, i: usize) -> Served {
        let known = self.index.len();
        let p = &mut self.pending[i];
        let Request::Find(search) = &p.request else {
            return Served::Wait;
        };
        let search = search.clone();
        let until = known.min(p.next.saturating_add(SCAN));
        while p.next <= until && p.next <= known {
            let n = p.next;
            p.next += 1;
            let head = self.index.head(n);
            if !search.fits_packed(n, head) {
                continue;
            }
            if p.found.len() == LISTED {
                return Served::Send(Answer::Found {
                    search,
                    games: std::mem::take(&mut p.found),
                    more: Some(n),
                });
            }
            p.found.push(Summary::unpack(n, head));
        }
        if p.next <= known || self.pass.is_some() {
            // More of the index to look at, or more to come.
            return Served::Wait;
        }
        let mut games = std::mem::take(&mut p.found);
        let generation = p.generation;
        if !self.index.full {
            return Served::Send(Answer::Found {
                search,
                games,
                more: None,
            });
        }
        // Past the bound: the games after the index, as they stream.
        let mut more = None;
        let from = search.from.max(known + 1);
        let read = self.each_game_from(known, generation, true, |raw, n| {
            if n < from {
                return true;
            }
            let summary = Summary::of(raw, n);
            if !search.fits(&summary) {
                return true;
            }
            if games.len() == LISTED {
                more = Some(n);
                return false;
            }
            games.push(summary);
            true
        });
        let answer = Answer::Found {
            search,
            games,
            more,
        };
        self.finish(read, answer)
    }

    /// The index reads on for a while, answering the games asked for as it reaches them.
    fn read_on(&mut self) {
        let Some(mut splitter) = self.pass.take() else {
            return;
        };
        let began = Instant::now();
        while began.elapsed() < SLICE {
            let text = match splitter.next_game() {
                Ok(Some(text)) => text,
                Ok(None) => {
                    self.index.beyond = self.spool.as_ref().map(Spool::seen);
                    return self.indexed(None);
                }
                Err(e) => return self.indexed(Some(format!("{}: {e}", self.name))),
            };
            let at = (text.offset, text.at);
            for (nth, raw) in text.games().iter().enumerate() {
                let number = self.index.len() + 1;
                let summary = Summary::of(raw, number);
                if !self.index.push(at, nth, &summary) {
                    self.index.beyond = Some(at.0);
                    let games = self.index.len();
                    self.send(self.generation(), Answer::Full { games });
                    return self.indexed(None);
                }
                self.shared.games.store(number, Ordering::SeqCst);
                self.answer_reached(raw, number);
            }
        }
        self.pass = Some(splitter);
    }

    /// The games asked for that the index's read has just reached, taken from it.
    fn answer_reached(&mut self, raw: &RawGame<'_>, number: usize) {
        let now = self.generation();
        let mut i = 0;
        while i < self.pending.len() {
            if matches!(self.pending[i].request, Request::Open(n) if n == number) {
                let p = self.pending.remove(i);
                if p.generation == now {
                    let game = read_game(raw, number, self.lang);
                    self.send(p.generation, Answer::Opened { number, game });
                }
            } else {
                i += 1;
            }
        }
    }

    /// The index's read ended: at the file's end, at the bound, or at a read error (said).
    fn indexed(&mut self, failed: Option<String>) {
        self.pass = None;
        self.shared.done.store(true, Ordering::SeqCst);
        if let Some(reason) = failed {
            let answer = Answer::Failed {
                reason,
                answers: false,
            };
            self.send(self.generation(), answer);
        }
    }

    /// Streams the games from game `from` on (0: the file's start) to `each`, with their
    /// numbers, until it says stop; checks for a cancel at every game. Without `reads_on`
    /// only the text holding game `from` is needed (then a spool that holds it serves).
    fn each_game_from(
        &self,
        from: usize,
        generation: u64,
        reads_on: bool,
        mut each: impl FnMut(&RawGame<'_>, usize) -> bool,
    ) -> Result<(), Stop> {
        let spot = from.checked_sub(1).map(|i| self.index.spots[i]);
        let (reader, at, mut number) = match spot {
            None => {
                let input = crate::io::files::open_input(&self.path)
                    .map_err(|e| Stop::Failed(crate::io::error_chain(&e)))?;
                (input.reader, Resume::START, 0)
            }
            Some(spot) => {
                let end = if reads_on {
                    None
                } else {
                    self.index.text_end(from)
                };
                let reader = self.reader_at(spot.offset, end, generation)?;
                let first = from - spot.nth as usize;
                let at = Resume {
                    line: spot.line as usize,
                    games: first - 1,
                    starts_line: spot.starts_line,
                };
                (reader, at, first - 1)
            }
        };
        let mut splitter = if spot.is_some() {
            Splitter::resuming(reader, at)
        } else {
            Splitter::new(reader)
        };
        loop {
            if self.generation() != generation {
                return Err(Stop::Cancelled);
            }
            let text = match splitter.next_game() {
                Ok(Some(text)) => text,
                Ok(None) => return Ok(()),
                Err(e) => return Err(Stop::Failed(format!("{}: {e}", self.name))),
            };
            for raw in text.games() {
                number += 1;
                if !each(&raw, number) {
                    return Ok(());
                }
            }
        }
    }

    /// The file's text from `offset` on (up to `end` at least): a plain file seeks there, a
    /// compressed one is read from its spool when that holds the text up to `end`, else
    /// decompressed up to `offset` (a cancel stops it).
    fn reader_at(
        &self,
        offset: u64,
        end: Option<u64>,
        generation: u64,
    ) -> Result<Box<dyn Read + Send>, Stop> {
        let failed = |e: io::Error| Stop::Failed(format!("{}: {e}", self.name));
        if !self.compressed {
            let mut file = File::open(&self.path).map_err(failed)?;
            file.seek(SeekFrom::Start(offset)).map_err(failed)?;
            return Ok(Box::new(file));
        }
        if let Some(text) = end.and_then(|end| self.spool.as_ref()?.text(offset, end)) {
            return Ok(Box::new(text));
        }
        let Input { mut reader, .. } = crate::io::files::open_input(&self.path)
            .map_err(|e| Stop::Failed(crate::io::error_chain(&e)))?;
        let mut left = offset;
        while left > 0 {
            if self.generation() != generation {
                return Err(Stop::Cancelled);
            }
            let step = left.min(1 << 20);
            let skipped =
                io::copy(&mut (&mut reader).take(step), &mut io::sink()).map_err(failed)?;
            if skipped == 0 {
                // The text ends before: the game is not there any more.
                break;
            }
            left -= skipped;
        }
        Ok(reader)
    }
}

/// A compressed file's text as the index decompressed it, kept in a scratch file in hector's
/// data folder, so that a game the index reached is read again from its offset there instead
/// of decompressing the file from its start each time. Filled up to [`MAX_SPOOL`] bytes or
/// until a write fails (a full disk: the games past it are decompressed as before); the
/// system removes the file when the study ends, also when hector is killed.
struct Spool {
    file: Arc<File>,
    /// The text's bytes the file holds, from its start.
    written: Arc<AtomicU64>,
    /// The text's bytes the index has read.
    seen: Arc<AtomicU64>,
}

impl Spool {
    /// A new spool in `dir`, if a file can be made there.
    fn create(dir: &Path) -> Option<Spool> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        std::fs::create_dir_all(dir).ok()?;
        let name = format!(
            "study-{}-{}.spool",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let file = crate::io::platform::files::create_scratch(&dir.join(name)).ok()?;
        Some(Spool {
            file: Arc::new(file),
            written: Arc::new(AtomicU64::new(0)),
            seen: Arc::new(AtomicU64::new(0)),
        })
    }

    /// The index's reader: `inner`, each byte it gives also written to the spool.
    fn tee(&self, inner: Box<dyn Read + Send>) -> Tee {
        Tee {
            inner,
            file: Some(Arc::clone(&self.file)),
            written: Arc::clone(&self.written),
            seen: Arc::clone(&self.seen),
        }
    }

    fn seen(&self) -> u64 {
        self.seen.load(Ordering::SeqCst)
    }

    /// The text from `offset` on, when the spool holds it up to `end`.
    fn text(&self, offset: u64, end: u64) -> Option<SpoolText> {
        let written = self.written.load(Ordering::SeqCst);
        (offset <= end && end <= written).then(|| SpoolText {
            file: Arc::clone(&self.file),
            at: offset,
            end: written,
        })
    }
}

/// The index's reader, writing what it reads to the spool ([`Spool::tee`]).
struct Tee {
    inner: Box<dyn Read + Send>,
    /// None once the spool is full or a write failed: then it stays as it is.
    file: Option<Arc<File>>,
    written: Arc<AtomicU64>,
    seen: Arc<AtomicU64>,
}

impl Read for Tee {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let seen = self.seen.fetch_add(n as u64, Ordering::SeqCst);
        if let Some(file) = &self.file {
            let at = self.written.load(Ordering::SeqCst);
            // Only a prefix of the text is ever kept: a byte missed ends the spool.
            let fits = at == seen && seen + n as u64 <= MAX_SPOOL;
            if fits && crate::io::platform::files::write_all_at(file, &buf[..n], at).is_ok() {
                self.written.store(at + n as u64, Ordering::SeqCst);
            } else {
                self.file = None;
            }
        }
        Ok(n)
    }
}

/// The spool's text from an offset to what it holds.
struct SpoolText {
    file: Arc<File>,
    at: u64,
    end: u64,
}

impl Read for SpoolText {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = usize::try_from(self.end.saturating_sub(self.at)).unwrap_or(usize::MAX);
        let want = buf.len().min(left);
        if want == 0 {
            return Ok(0);
        }
        let n = crate::io::platform::files::read_at(&self.file, &mut buf[..want], self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// A game as the study walks it, or the words of why it cannot be read.
fn read_game(
    raw: &RawGame<'_>,
    number: usize,
    lang: &Language,
) -> Result<Box<Loaded>, Option<String>> {
    Loaded::read(raw, number)
        .map(Box::new)
        .map_err(|e| Some(read_error_words(&e, number, lang)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Removes a test's folder however the test ends.
    struct Gone(PathBuf);
    impl Drop for Gone {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn eight_games() -> String {
        (1..=8)
            .map(|i| {
                format!(
                    "[Event \"E{i}\"]\n[White \"W{i}\"]\n[Black \"Rival{i}\"]\n[ECO \"C{i}0\"]\n\n1. e4 e5 *\n\n"
                )
            })
            .collect()
    }

    /// The next answer to a request (the index's news that it is full passed over).
    fn answer(file: &StudyFile) -> Answer {
        loop {
            let news = file
                .news()
                .recv_timeout(Duration::from_secs(30))
                .expect("an answer");
            assert_eq!(news.generation, file.generation());
            if !matches!(news.answer, Answer::Full { .. }) {
                return news.answer;
            }
        }
    }

    fn opened_white(file: &StudyFile, n: usize) -> String {
        file.ask(Request::Open(n));
        match answer(file) {
            Answer::Opened {
                number,
                game: Ok(game),
            } => {
                assert_eq!(number, n);
                game.summary.white
            }
            other => panic!("{other:?}"),
        }
    }

    fn found(file: &StudyFile, text: &str) -> (Vec<usize>, Option<usize>) {
        file.ask(Request::Find(Search::parse(text)));
        match answer(file) {
            Answer::Found { games, more, .. } => (games.iter().map(|g| g.number).collect(), more),
            other => panic!("{other:?}"),
        }
    }

    /// Past the bound of the index (three games here), plain or gzip, games are opened and
    /// found by reading on from the last game indexed; within it, from their offsets.
    #[test]
    fn games_past_the_bound_are_read_on_from_the_last_indexed() {
        let dir = std::env::temp_dir().join(format!("hector-study-index-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let _gone = Gone(dir.clone());
        let plain = dir.join("eight.pgn");
        std::fs::write(&plain, eight_games()).expect("write");
        let packed = dir.join("eight.pgn.gz");
        let mut gz = flate2::write::GzEncoder::new(
            std::fs::File::create(&packed).expect("create"),
            flate2::Compression::default(),
        );
        gz.write_all(eight_games().as_bytes()).expect("gzip");
        gz.finish().expect("gzip");
        let de = crate::core::notation::language("de").expect("de");
        for path in [&plain, &packed] {
            for bound in [3, MAX_INDEXED] {
                let spool = Some(dir.join("data"));
                let file = StudyFile::indexing(path.clone(), de, bound, spool).expect("start");
                for n in [6, 2, 8, 3, 4] {
                    assert_eq!(opened_white(&file, n), format!("W{n}"), "{path:?} {bound}");
                }
                file.ask(Request::Open(9));
                assert!(matches!(
                    answer(&file),
                    Answer::Opened {
                        number: 9,
                        game: Err(None)
                    }
                ));
                assert_eq!(found(&file, "rival7"), (vec![7], None));
                assert_eq!(found(&file, "c20"), (vec![2], None));
                assert_eq!(found(&file, "rival 2"), ((2..=8).collect(), None));
                let progress = file.progress();
                assert!(progress.done);
                assert_eq!(progress.games, bound.min(8));
            }
        }
    }

    /// The index's bound reached: the file says so once, with the games indexed; a file
    /// within the bound never does.
    #[test]
    fn a_full_index_is_told_once() {
        let dir = std::env::temp_dir().join(format!("hector-study-full-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let _gone = Gone(dir.clone());
        let path = dir.join("eight.pgn");
        std::fs::write(&path, eight_games()).expect("write");
        let de = crate::core::notation::language("de").expect("de");
        let fulls = |bound: usize| {
            let file = StudyFile::indexing(path.clone(), de, bound, None).expect("start");
            let mut fulls = Vec::new();
            for n in [8, 2, 7] {
                file.ask(Request::Open(n));
                loop {
                    let news = file
                        .news()
                        .recv_timeout(Duration::from_secs(30))
                        .expect("news");
                    match news.answer {
                        Answer::Full { games } => fulls.push(games),
                        Answer::Opened { number, .. } => {
                            assert_eq!(number, n);
                            break;
                        }
                        other => panic!("{other:?}"),
                    }
                }
            }
            assert!(file.progress().done);
            fulls
        };
        let (bounded, within) = (fulls(3), fulls(8));
        assert_eq!(bounded, [3]);
        assert!(within.is_empty(), "{within:?}");
    }

    /// A compressed file's games that the index reached are read again from its spool, not
    /// from the file: with the file gone they still open, where without a spool the file is
    /// missed. On Unix the spool has no name in its folder from the start.
    #[test]
    fn a_compressed_files_games_are_read_again_from_its_spool() {
        let dir = std::env::temp_dir().join(format!("hector-study-spool-{}", std::process::id()));
        let _gone = Gone(dir.clone());
        let spool_dir = dir.join("data");
        std::fs::create_dir_all(&spool_dir).expect("dir");
        let de = crate::core::notation::language("de").expect("de");
        for spooled in [true, false] {
            let packed = dir.join("eight.pgn.gz");
            let mut gz = flate2::write::GzEncoder::new(
                std::fs::File::create(&packed).expect("create"),
                flate2::Compression::default(),
            );
            gz.write_all(eight_games().as_bytes()).expect("gzip");
            gz.finish().expect("gzip");
            let spool = spooled.then(|| spool_dir.clone());
            let file = StudyFile::indexing(packed.clone(), de, MAX_INDEXED, spool).expect("start");
            assert_eq!(opened_white(&file, 8), "W8");
            let deadline = Instant::now() + Duration::from_secs(30);
            while !file.progress().done {
                assert!(Instant::now() < deadline, "the index did not end");
                std::thread::sleep(Duration::from_millis(5));
            }
            std::fs::remove_file(&packed).expect("remove");
            if spooled {
                for n in [6, 2, 8, 3, 1] {
                    assert_eq!(opened_white(&file, n), format!("W{n}"));
                }
                #[cfg(unix)]
                assert_eq!(std::fs::read_dir(&spool_dir).expect("dir").count(), 0);
            } else {
                file.ask(Request::Open(6));
                assert!(
                    matches!(
                        answer(&file),
                        Answer::Opened {
                            number: 6,
                            game: Err(Some(_))
                        }
                    ),
                    "without a spool the file is read again"
                );
            }
        }
    }
}
