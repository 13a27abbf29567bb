//! A UCI engine as the computer opponent: one process, asked for moves without ever making
//! hector wait.
//!
//! ```text
//! Engine (caller's thread) ──commands──> supervisor thread ──lines──> writer thread ──> stdin
//!        <──────────────── events ─────── (state, watchdog) <──lines── reader thread <── stdout
//!                                                                      stderr thread <── stderr
//! ```
//!
//! [`Engine::start`] blocks for the handshake only, bounded by [`Timeouts::handshake`].
//! After that every call returns at once; answers and failures arrive as [`EngineEvent`]s on
//! [`Engine::events`], which the caller selects on with its other event sources.
//!
//! The supervisor checks every answer against the position before it becomes a
//! [`EngineEvent::BestMove`], and watches the engine:
//! - a process that ends (end of its output, or its exit) gives one [`EngineEvent::Died`];
//! - a `go` without `bestmove` within the movetime plus [`Timeouts::grace`] gets a `stop`; if
//!   the answer still does not come within [`Timeouts::stop_grace`], the engine is killed and
//!   one [`EngineEvent::Timeout`] is sent.
//!
//! `Died` and `Timeout` are final: exactly one of them per process at most, then nothing more
//! comes from it, and [`Engine::request_move`] returns [`EngineError::Dead`] until
//! [`Engine::restart`]. Dropping the `Engine` kills the process group and reaps the process.
//!
//! ```no_run
//! use hector::io::engine::{Engine, EngineEvent, EngineOptions, level_limits};
//! use shakmaty::{Chess, Move};
//!
//! let opts = EngineOptions { path: None, level: 3, chess960: false };
//! let mut engine = Engine::start(&opts)?;
//! let start = Chess::default();
//! let moves: Vec<Move> = Vec::new();
//! let asked = engine.request_move(&start, &moves, level_limits(3))?;
//! crossbeam_channel::select! {
//!     recv(engine.events()) -> event => match event {
//!         Ok(EngineEvent::BestMove { request, mv, .. }) if request == asked => { /* play mv */ }
//!         Ok(EngineEvent::Died { reason, .. }) => { /* say it; perhaps engine.restart() */ }
//!         _ => {}
//!     },
//!     // … the keyboard, the board, the clock …
//! }
//! # Ok::<(), hector::io::engine::EngineError>(())
//! ```

pub mod level;
mod process;
pub(crate) mod uci;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, select, unbounded};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, uci::UciMove};

pub use level::{Level, MAX_LEVEL, MIN_LEVEL, level, level_limits};
pub(crate) use process::locate;
pub use uci::{ClockTimes, EngineInfo, Rejection, Score, SearchLimits};

use crate::io::platform::process::{Exit, exit_of};
use level::Candidate;
use process::{StderrTail, describe_status, lock};
use uci::{Answer, EngineLine, parse_line};

/// How to start the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// The engine program. `None`: `stockfish` on PATH, then /usr/games/stockfish, then
    /// /usr/local/bin/stockfish. A bare name is looked up the same way.
    pub path: Option<PathBuf>,
    /// 1 (a beginner) to 8 (full strength); see [`level`] for the table.
    pub level: u8,
    /// Plays Chess960: `UCI_Chess960` on, castling written king-takes-rook.
    pub chess960: bool,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            path: None,
            level: 1,
            chess960: false,
        }
    }
}

/// The time limits of the watchdog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// For `uci`…`uciok`, and again for `isready`…`readyok` at the start.
    pub handshake: Duration,
    /// Beyond the movetime before hector sends `stop`.
    pub grace: Duration,
    /// After `stop` before the engine counts as hung and is killed.
    pub stop_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(5),
            grace: Duration::from_secs(2),
            stop_grace: Duration::from_secs(2),
        }
    }
}

/// How often the supervisor looks whether the process still runs when nothing else happens:
/// a process can end while a child it started keeps its output open.
const EXIT_POLL: Duration = Duration::from_millis(100);
/// How long to wait for the exit status and the last stderr lines after the output ended.
const LAST_WORDS: Duration = Duration::from_millis(300);

/// A duration as people say it: whole seconds, at least 1.
pub(crate) fn whole_seconds(d: Duration) -> u64 {
    (d.as_millis().saturating_add(500) / 1000).max(1) as u64
}

/// Why an engine's output was read no further.
fn overflow_text() -> String {
    format!(
        "it wrote a line longer than {} KiB and was stopped",
        process::MAX_LINE / 1024
    )
}

/// What the engine reports, on [`Engine::events`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// The answer to request `request`: a legal move in the position asked about.
    BestMove {
        request: u64,
        mv: Move,
        /// The move as UCI text, castling written as the engine's mode wants it.
        uci: UciMove,
    },
    /// The answer to [`Engine::request_analysis`]: the engine's best move (the first move of
    /// its best line, also at the weak levels) and its last score, from the side to move.
    Analysis {
        request: u64,
        best: Move,
        score: Option<Score>,
        /// The engine's best line from the position, `best` first (legal moves only; at
        /// least `best`).
        line: Vec<Move>,
    },
    /// The engine answered something that is not a legal move. Nothing was played; the engine
    /// still runs and may be asked again.
    Rejected {
        request: u64,
        /// The answer as the engine wrote it.
        answer: String,
        reason: Rejection,
    },
    /// No answer to `request` within its movetime and both grace periods, not even after
    /// `stop`: the engine was killed. Final.
    Timeout { request: u64, waited: Duration },
    /// The engine process ended. Final.
    Died {
        /// In English, with what it wrote to stderr: for logs and tests.
        reason: String,
        how: Ending,
        /// Its last lines on stderr, its own words, or empty.
        said: String,
    },
}

/// How an engine process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status.
    Exit(i32),
    /// This signal ended it (11 for a crash, SIGSEGV).
    Signal(i32),
    /// This Windows status of an error ended it (0xC0000005 for a crash).
    Status(u32),
    /// It closed its output, or its status is unknown.
    Closed,
    /// It wrote a line longer than the limit and was stopped.
    Overflow,
}

impl Ending {
    fn from_status(status: Option<std::process::ExitStatus>) -> Ending {
        match status.and_then(exit_of) {
            Some(Exit::Code(code)) => Ending::Exit(code),
            Some(Exit::Signal(sig)) => Ending::Signal(sig),
            Some(Exit::Status(code)) => Ending::Status(code),
            None => Ending::Closed,
        }
    }

    /// In English: "exit status 3", "killed by signal 11 (SIGSEGV)", "ended by 0xC0000005
    /// (access violation)".
    pub(crate) fn describe(self) -> String {
        match self {
            Ending::Exit(code) => Exit::Code(code).describe(),
            Ending::Signal(sig) => Exit::Signal(sig).describe(),
            Ending::Status(code) => Exit::Status(code).describe(),
            Ending::Closed => "closed its output".into(),
            Ending::Overflow => overflow_text(),
        }
    }
}

/// Where a player gets an engine, in English.
#[cfg(not(windows))]
const GET_ENGINE: &str = "install the Debian package stockfish (sudo apt install stockfish), \
                          or name an engine with --opponent engine:PATH";
#[cfg(windows)]
const GET_ENGINE: &str = "download Stockfish from stockfishchess.org, name the program \
                          stockfish.exe and put it beside hector.exe or in hector's data \
                          folder, or name an engine with --opponent engine:PATH";
/// What makes a file a program hector can start, in English.
#[cfg(not(windows))]
const RUN_ENGINE: &str =
    "make it executable, or install the Debian package stockfish (sudo apt install stockfish)";
#[cfg(windows)]
const RUN_ENGINE: &str = "name a program whose name ends in .exe";

/// Why the engine cannot be started or asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error(
        "no chess engine called {name} was found (looked in {looked}); {}",
        GET_ENGINE
    )]
    NotFound { name: String, looked: String },
    #[error("the chess engine {} does not exist; {}", .path.display(), GET_ENGINE)]
    Missing { path: PathBuf },
    #[error(
        "the chess engine {} cannot be run: {reason}; {}",
        .path.display(),
        RUN_ENGINE
    )]
    NotExecutable { path: PathBuf, reason: String },
    #[error("the chess engine {} cannot be started: {reason}", .path.display())]
    Spawn { path: PathBuf, reason: String },
    #[error(
        "the chess engine {} did not finish its start (UCI handshake) within {} seconds; \
         it may not be a UCI engine{said}",
        .path.display(), whole_seconds(*.waited)
    )]
    Handshake {
        path: PathBuf,
        waited: Duration,
        /// What it wrote to stderr, introduced for the message, or empty.
        said: String,
    },
    #[error("the chess engine {} ended during its start: {reason}", .path.display())]
    EndedEarly { path: PathBuf, reason: String },
    #[error("the chess engine {name} cannot play Chess960 (it has no UCI_Chess960 option)")]
    NoChess960 { name: String },
    #[error("the game is Chess960, but the engine was started for standard chess")]
    NotChess960,
    #[error("move {number} of the game is not legal in its position")]
    IllegalHistory {
        /// 1 for the first half-move.
        number: usize,
    },
    #[error("the position has no legal move for the engine")]
    NoLegalMove,
    #[error("the chess engine is not running: {reason}")]
    Dead { reason: String },
}

/// A running engine; see the module documentation.
pub struct Engine {
    opts: EngineOptions,
    timeouts: Timeouts,
    name: String,
    info: EngineInfo,
    /// Kept so the receiver never disconnects while the Engine lives (a caller's `select!`
    /// would spin on a disconnected channel), and shared by successive processes.
    events_tx: Sender<EngineEvent>,
    events_rx: Receiver<EngineEvent>,
    next_request: u64,
    /// The last `position` command, to see when a new game begins.
    last_position: Option<String>,
    process: Option<Running>,
    /// Why the last process is gone, when it is.
    gone: Option<String>,
}

/// One engine process with its supervisor.
struct Running {
    commands: Sender<Command>,
    /// Where the supervisor sends events; emptied before the process is killed on purpose, so
    /// that nothing about an abandoned process reaches the caller.
    slot: EventSlot,
    /// Set by the supervisor when it ends (after `Died` or `Timeout`).
    dead: Arc<Mutex<Option<String>>>,
    /// Kills the process when dropped, after `drop` has emptied the slot.
    guard: process::Guard,
}

impl Drop for Running {
    fn drop(&mut self) {
        lock(&self.slot).take();
    }
}

type EventSlot = Arc<Mutex<Option<Sender<EngineEvent>>>>;

impl Engine {
    /// Starts the engine and sets it to the level; blocks for the handshake only (at most
    /// twice [`Timeouts::handshake`]).
    pub fn start(opts: &EngineOptions) -> Result<Engine, EngineError> {
        Engine::start_with(opts, Timeouts::default())
    }

    /// [`Engine::start`] with other time limits (tests, slow machines).
    pub fn start_with(opts: &EngineOptions, timeouts: Timeouts) -> Result<Engine, EngineError> {
        let (events_tx, events_rx) = unbounded();
        let mut engine = Engine {
            opts: EngineOptions {
                level: opts.level.clamp(MIN_LEVEL, MAX_LEVEL),
                ..opts.clone()
            },
            timeouts,
            name: String::new(),
            info: EngineInfo::default(),
            events_tx,
            events_rx,
            next_request: 1,
            last_position: None,
            process: None,
            gone: None,
        };
        engine.launch()?;
        Ok(engine)
    }

    /// Ends the current process (if any) and starts a new one with the same options, e.g.
    /// after [`EngineEvent::Died`]. Events about the old process that were not yet received
    /// are dropped and no more come; request numbers keep counting up.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        self.process = None;
        // The old supervisor can send nothing more now: what is queued is all there is.
        while self.events_rx.try_recv().is_ok() {}
        self.last_position = None;
        self.launch()
    }

    fn launch(&mut self) -> Result<(), EngineError> {
        let launched = self.try_launch();
        if let Err(e) = &launched {
            self.gone = Some(e.to_string());
        }
        launched
    }

    fn try_launch(&mut self) -> Result<(), EngineError> {
        let path = locate(self.opts.path.as_deref())?;
        let spawned = process::spawn(&path)?;
        let info = handshake(&spawned, &path, &self.opts, self.timeouts)?;
        // The engine's own words: its control characters never reach a screen or a journal.
        let name = info
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| {
                path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            });
        self.name = crate::core::notation::printable(&name).into_owned();
        self.info = info;
        let (commands, commands_rx) = unbounded();
        let slot: EventSlot = Arc::new(Mutex::new(Some(self.events_tx.clone())));
        let dead = Arc::new(Mutex::new(None));
        let seed = {
            use std::hash::{BuildHasher, Hasher};
            // RandomState is seeded randomly per process and differs per call.
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u32(std::process::id());
            h.finish()
        };
        let supervisor = Supervisor {
            name: self.name.clone(),
            commands: commands_rx,
            lines: spawned.lines,
            input: spawned.input,
            slot: slot.clone(),
            dead: dead.clone(),
            reaper: spawned.guard.0.clone(),
            stderr: spawned.stderr,
            overflowed: spawned.overflowed,
            timeouts: self.timeouts,
            rng: seed,
            phase: Phase::Idle,
            queued: None,
            exit_checked: Instant::now(),
        };
        let running = Running {
            commands,
            slot,
            dead,
            guard: spawned.guard,
        };
        std::thread::Builder::new()
            .name("hector-engine".into())
            .spawn(move || supervisor.run())
            .map_err(|e| EngineError::Spawn {
                path: path.clone(),
                reason: format!("cannot start a thread: {e}"),
            })?;
        self.process = Some(running);
        self.gone = None;
        Ok(())
    }

    /// Asks for a move in the position after `moves` from `start` (the start position of the
    /// game). Returns the request number at once; the answer comes as an event carrying it.
    /// A request while the engine still thinks about an earlier one replaces that one (its
    /// answer is dropped). The first request of a game sends `ucinewgame`.
    ///
    /// Errors: the engine is gone ([`EngineError::Dead`]), a move of `moves` is not legal, the
    /// position has no legal move, or a Chess960 game is asked of a standard-chess engine.
    pub fn request_move(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: SearchLimits,
    ) -> Result<u64, EngineError> {
        let lv = level(self.opts.level);
        let go = uci::go_command(&limits, lv.depth);
        self.request(start, moves, go, lv.margin_cp, limits.movetime, false)
    }

    /// Asks how the position after `moves` stands: a search to `depth` half-moves (when
    /// given), never longer than `movetime`. The answer is an [`EngineEvent::Analysis`]; like
    /// a move request it replaces a request still being thought about.
    pub fn request_analysis(
        &mut self,
        start: &Chess,
        moves: &[Move],
        depth: Option<u32>,
        movetime: Duration,
    ) -> Result<u64, EngineError> {
        let limits = SearchLimits {
            movetime,
            clock: None,
        };
        let go = uci::go_command(&limits, depth);
        self.request(start, moves, go, None, movetime, true)
    }

    fn request(
        &mut self,
        start: &Chess,
        moves: &[Move],
        go: String,
        margin_cp: Option<i32>,
        movetime: Duration,
        analysis: bool,
    ) -> Result<u64, EngineError> {
        let dead_reason = self.dead_reason();
        let Some(running) = self.process.as_ref() else {
            return Err(EngineError::Dead {
                reason: dead_reason.unwrap_or_else(|| "it was not started".into()),
            });
        };
        if let Some(reason) = dead_reason {
            return Err(EngineError::Dead { reason });
        }
        let mode = if self.opts.chess960 {
            CastlingMode::Chess960
        } else {
            if start.castles().mode() == CastlingMode::Chess960
                && start
                    .to_setup(EnPassantMode::Legal)
                    .position::<Chess>(CastlingMode::Standard)
                    .is_err()
            {
                return Err(EngineError::NotChess960);
            }
            CastlingMode::Standard
        };
        let pos =
            uci::replay(start, moves).map_err(|i| EngineError::IllegalHistory { number: i + 1 })?;
        if pos.legal_moves().is_empty() {
            return Err(EngineError::NoLegalMove);
        }
        let position = uci::position_command(start, moves, mode);
        let new_game = !self
            .last_position
            .as_deref()
            .is_some_and(|last| uci::continues(last, &position));
        let id = self.next_request;
        let job = Job {
            id,
            new_game,
            position: position.clone(),
            go,
            pos,
            mode,
            margin_cp,
            requested: Instant::now(),
            movetime,
            analysis,
        };
        if running
            .commands
            .send(Command::Request(Box::new(job)))
            .is_err()
        {
            return Err(EngineError::Dead {
                reason: self.dead_reason().unwrap_or_else(|| "it stopped".into()),
            });
        }
        self.next_request += 1;
        self.last_position = Some(position);
        Ok(id)
    }

    /// Where answers and failures arrive. The same channel across [`Engine::restart`].
    pub fn events(&self) -> &Receiver<EngineEvent> {
        &self.events_rx
    }

    /// Cancels the current request (sends `stop`; its answer is dropped), e.g. when the game
    /// ends while the engine thinks.
    pub fn stop(&mut self) {
        if let Some(r) = &self.process {
            let _ = r.commands.send(Command::Stop);
        }
    }

    /// The engine's name from its handshake ("Stockfish 15.1"), or its file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the engine announced: its name and options.
    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// The process number of the engine, while one was started (for diagnostics).
    pub fn process_id(&self) -> Option<u32> {
        self.process.as_ref().map(|r| lock(&r.guard.0).id())
    }

    /// Whether the process runs (as far as hector knows: a death is also reported as an event).
    pub fn is_running(&self) -> bool {
        self.dead_reason().is_none() && self.process.is_some()
    }

    fn dead_reason(&self) -> Option<String> {
        match &self.process {
            Some(r) => lock(&r.dead).clone(),
            None => self.gone.clone(),
        }
    }
}

/// Runs the handshake: `uci` … `uciok`, the options, `isready` … `readyok`.
fn handshake(
    spawned: &process::Spawned,
    path: &Path,
    opts: &EngineOptions,
    timeouts: Timeouts,
) -> Result<EngineInfo, EngineError> {
    let send = |line: String| {
        let _ = spawned.input.send(line);
    };
    let wait_for = |want: &EngineLine, info: &mut EngineInfo| -> Result<(), EngineError> {
        let started = Instant::now();
        let deadline = started + timeouts.handshake;
        loop {
            match spawned.lines.recv_deadline(deadline) {
                Ok(text) => {
                    let line = parse_line(&text);
                    if line == *want {
                        return Ok(());
                    }
                    info.absorb(&line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    let said = spawned.stderr.text();
                    return Err(EngineError::Handshake {
                        path: path.into(),
                        waited: started.elapsed(),
                        said: if said.is_empty() {
                            String::new()
                        } else {
                            format!("; it said: {said}")
                        },
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = lock(&spawned.guard.0).kill();
                    spawned.stderr.settle(LAST_WORDS);
                    let how = if spawned.overflowed.load(Ordering::SeqCst) {
                        overflow_text()
                    } else {
                        describe_status(status)
                    };
                    return Err(EngineError::EndedEarly {
                        path: path.into(),
                        reason: with_stderr(how, &spawned.stderr),
                    });
                }
            }
        }
    };
    let mut info = EngineInfo::default();
    send("uci".into());
    wait_for(&EngineLine::UciOk, &mut info)?;
    if opts.chess960 {
        let Some(o) = info.check("UCI_Chess960") else {
            return Err(EngineError::NoChess960 {
                name: info
                    .name
                    .clone()
                    .unwrap_or_else(|| path.display().to_string()),
            });
        };
        send(uci::setoption_command(&o.name, Some("true")));
    }
    for cmd in level::strength_commands(opts.level, &info) {
        send(cmd);
    }
    send("isready".into());
    wait_for(&EngineLine::ReadyOk, &mut info)?;
    Ok(info)
}

fn with_stderr(reason: String, stderr: &StderrTail) -> String {
    let said = stderr.text();
    if said.is_empty() {
        reason
    } else {
        format!("{reason}; it said: {said}")
    }
}

enum Command {
    Request(Box<Job>),
    Stop,
}

/// One request, ready to be sent.
struct Job {
    id: u64,
    new_game: bool,
    position: String,
    go: String,
    /// The position the engine is asked about: its answer must be legal here.
    pos: Chess,
    mode: CastlingMode,
    margin_cp: Option<i32>,
    requested: Instant,
    movetime: Duration,
    /// Answered with [`EngineEvent::Analysis`].
    analysis: bool,
}

impl Job {
    fn stop_at(&self, grace: Duration) -> Instant {
        later(self.requested, self.movetime.saturating_add(grace))
    }
}

/// `t + d` without overflow: limits far beyond any game end up a year away.
fn later(t: Instant, d: Duration) -> Instant {
    const YEAR: Duration = Duration::from_secs(365 * 24 * 3600);
    t.checked_add(d.min(YEAR)).unwrap_or(t)
}

enum Phase {
    Idle,
    /// `isready` was sent; `position` and `go` follow on `readyok`. `job` is `None` when the
    /// request was cancelled meanwhile.
    Readying {
        request: u64,
        requested: Instant,
        job: Option<Box<Job>>,
        give_up: Instant,
    },
    /// `go` was sent; `bestmove` is awaited.
    Searching {
        job: Box<Job>,
        /// The answer is dropped (the request was stopped or replaced).
        cancelled: bool,
        stopped_at: Option<Instant>,
        /// The latest line per MultiPV index (index 0 unused).
        lines: Vec<Option<Candidate>>,
        /// The latest exact score of the best line.
        score: Option<Score>,
        /// The latest best line with an exact score, its first move included.
        best_line: Vec<UciMove>,
    },
}

/// The engine's line as legal moves from `pos`, beginning with `best`: it is kept only when
/// it begins there, and cut at its first move that is not legal.
fn legal_line(pos: &Chess, best: Move, line: &[UciMove]) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut moves = Vec::with_capacity(line.len());
    for uci in line {
        match uci.to_move(&pos) {
            Ok(mv) if moves.is_empty() && mv != best => break,
            Ok(mv) => {
                pos.play_unchecked(mv);
                moves.push(mv);
            }
            Err(_) => break,
        }
    }
    if moves.is_empty() {
        moves.push(best);
    }
    moves
}

struct Supervisor {
    name: String,
    commands: Receiver<Command>,
    lines: Receiver<String>,
    input: Sender<String>,
    slot: EventSlot,
    dead: Arc<Mutex<Option<String>>>,
    reaper: Arc<Mutex<process::Reaper>>,
    stderr: StderrTail,
    overflowed: Arc<AtomicBool>,
    timeouts: Timeouts,
    rng: u64,
    phase: Phase,
    /// A request waiting until the engine has finished the previous search.
    queued: Option<Box<Job>>,
    exit_checked: Instant,
}

/// What the loop does next.
enum Flow {
    Continue,
    End,
}

impl Supervisor {
    fn run(mut self) {
        loop {
            let now = Instant::now();
            let wait = self.next_deadline().map_or(EXIT_POLL, |d| {
                d.saturating_duration_since(now).min(EXIT_POLL)
            });
            let flow = select! {
                recv(self.commands) -> c => match c {
                    Ok(c) => self.command(c),
                    // The Engine was dropped or restarted: it kills the process itself.
                    Err(_) => Flow::End,
                },
                recv(self.lines) -> l => match l {
                    Ok(text) => self.line(&text),
                    Err(_) => self.output_ended(),
                },
                default(wait) => Flow::Continue,
            };
            if let Flow::End = flow {
                return;
            }
            if let Flow::End = self.watch(Instant::now()) {
                return;
            }
        }
    }

    fn send(&self, line: String) {
        let _ = self.input.send(line);
    }

    fn emit(&self, event: EngineEvent) {
        if let Some(tx) = lock(&self.slot).as_ref() {
            let _ = tx.send(event);
        }
    }

    fn command(&mut self, c: Command) -> Flow {
        match c {
            Command::Request(job) => {
                self.cancel();
                self.queued = Some(job);
                self.dispatch();
            }
            Command::Stop => {
                self.cancel();
                self.queued = None;
            }
        }
        Flow::Continue
    }

    /// Drops the answer to whatever is asked now; a running search is stopped.
    fn cancel(&mut self) {
        match &mut self.phase {
            Phase::Idle => {}
            Phase::Readying { job, .. } => *job = None,
            Phase::Searching {
                cancelled,
                stopped_at,
                ..
            } => {
                *cancelled = true;
                if stopped_at.is_none() {
                    *stopped_at = Some(Instant::now());
                    let _ = self.input.send("stop".into());
                }
            }
        }
    }

    /// Starts the queued request when the engine is idle.
    fn dispatch(&mut self) {
        if !matches!(self.phase, Phase::Idle) {
            return;
        }
        let Some(job) = self.queued.take() else {
            return;
        };
        if job.new_game {
            self.send("ucinewgame".into());
        }
        // `isready` after `ucinewgame` as UCI asks, and before every search: an engine that
        // cannot answer it is caught before it is given a search.
        self.send("isready".into());
        self.phase = Phase::Readying {
            request: job.id,
            requested: job.requested,
            give_up: later(job.stop_at(self.timeouts.grace), self.timeouts.stop_grace),
            job: Some(job),
        };
    }

    fn line(&mut self, text: &str) -> Flow {
        match parse_line(text) {
            // Lines that do not fit the phase (a stray `readyok` or `bestmove`) change nothing.
            EngineLine::ReadyOk if matches!(self.phase, Phase::Readying { .. }) => {
                if let Phase::Readying { job, .. } = std::mem::replace(&mut self.phase, Phase::Idle)
                {
                    match job {
                        Some(job) => {
                            self.send(job.position.clone());
                            self.send(job.go.clone());
                            self.phase = Phase::Searching {
                                job,
                                cancelled: false,
                                stopped_at: None,
                                lines: Vec::new(),
                                score: None,
                                best_line: Vec::new(),
                            };
                        }
                        None => self.dispatch(),
                    }
                }
            }
            EngineLine::Info(info) => {
                if let (
                    Phase::Searching {
                        score, best_line, ..
                    },
                    Some(s),
                    false,
                    1,
                ) = (&mut self.phase, info.score, info.bound, info.multipv)
                {
                    *score = Some(s);
                    if let Some(first) = info.pv {
                        best_line.clear();
                        best_line.push(first);
                        best_line.extend(info.line.iter().cloned());
                    }
                }
                if let (Phase::Searching { job, lines, .. }, Some(score), Some(pv), false) =
                    (&mut self.phase, info.score, info.pv, info.bound)
                    && let Ok(index) = usize::try_from(info.multipv)
                    && (1..=64).contains(&index)
                    && let Ok(mv) = pv.to_move(&job.pos)
                {
                    if lines.len() <= index {
                        lines.resize(index + 1, None);
                    }
                    lines[index] = Some(Candidate {
                        mv,
                        score: score.value(),
                    });
                }
            }
            EngineLine::BestMove { answer, .. }
                if matches!(self.phase, Phase::Searching { .. }) =>
            {
                if let Phase::Searching {
                    job,
                    cancelled,
                    lines,
                    score,
                    best_line,
                    ..
                } = std::mem::replace(&mut self.phase, Phase::Idle)
                {
                    if !cancelled {
                        self.answer(&job, &answer, &lines, score, &best_line);
                    }
                    self.dispatch();
                }
            }
            _ => {}
        }
        Flow::Continue
    }

    /// Checks the answer and reports it. At the weak levels any of the engine's good-enough
    /// lines may be played instead of its best one.
    fn answer(
        &mut self,
        job: &Job,
        answer: &Answer,
        lines: &[Option<Candidate>],
        score: Option<Score>,
        best_line: &[UciMove],
    ) {
        let event = match uci::check_answer(&job.pos, answer) {
            // At a weak skill level the engine may answer a move below its best line; an
            // analysis wants the best line's move.
            Ok(best) if job.analysis => {
                let best = lines.get(1).copied().flatten().map_or(best, |c| c.mv);
                EngineEvent::Analysis {
                    request: job.id,
                    best,
                    score,
                    line: legal_line(&job.pos, best, best_line),
                }
            }
            Ok(best) => {
                let candidates: Vec<Candidate> = lines.iter().flatten().copied().collect();
                let mv = match job.margin_cp {
                    Some(margin) if candidates.len() > 1 => {
                        level::pick(&candidates, margin, level::next_roll(&mut self.rng))
                            .map_or(best, |c| c.mv)
                    }
                    _ => best,
                };
                EngineEvent::BestMove {
                    request: job.id,
                    mv,
                    uci: UciMove::from_move(mv, job.mode),
                }
            }
            Err(reason) => EngineEvent::Rejected {
                request: job.id,
                answer: answer.text(),
                reason,
            },
        };
        self.emit(event);
    }

    fn next_deadline(&self) -> Option<Instant> {
        match &self.phase {
            Phase::Idle => None,
            Phase::Readying { give_up, .. } => Some(*give_up),
            Phase::Searching {
                job, stopped_at, ..
            } => Some(match stopped_at {
                Some(t) => later(*t, self.timeouts.stop_grace),
                None => job.stop_at(self.timeouts.grace),
            }),
        }
    }

    /// The watchdog: `stop` when a search runs over, the end when the engine hangs or exits.
    fn watch(&mut self, now: Instant) -> Flow {
        // Not after every line: a searching engine writes many.
        if now.saturating_duration_since(self.exit_checked) >= EXIT_POLL {
            self.exit_checked = now;
            let exited = lock(&self.reaper).poll_exit();
            if let Some(status) = exited {
                return self.died(Ending::from_status(status));
            }
        }
        let hung = match &mut self.phase {
            Phase::Idle => None,
            Phase::Readying {
                request, give_up, ..
            } => (now >= *give_up).then_some(*request),
            Phase::Searching {
                job, stopped_at, ..
            } => match stopped_at {
                None if now >= job.stop_at(self.timeouts.grace) => {
                    *stopped_at = Some(now);
                    let _ = self.input.send("stop".into());
                    None
                }
                Some(t) if now >= later(*t, self.timeouts.stop_grace) => Some(job.id),
                _ => None,
            },
        };
        let Some(request) = hung else {
            return Flow::Continue;
        };
        let waited = match &self.phase {
            Phase::Searching { job, .. } => now.saturating_duration_since(job.requested),
            Phase::Readying { requested, .. } => now.saturating_duration_since(*requested),
            Phase::Idle => Duration::ZERO,
        };
        lock(&self.reaper).kill();
        self.finish(
            format!(
                "{} did not answer within {} seconds and was stopped",
                self.name,
                whole_seconds(waited)
            ),
            EngineEvent::Timeout { request, waited },
        )
    }

    /// The engine closed its output: it has ended, or is about to; or hector stopped reading
    /// it after a line without end.
    fn output_ended(&mut self) -> Flow {
        if self.overflowed.load(Ordering::SeqCst) {
            lock(&self.reaper).kill();
            return self.died(Ending::Overflow);
        }
        let deadline = Instant::now() + LAST_WORDS;
        loop {
            let exited = lock(&self.reaper).poll_exit();
            if let Some(status) = exited {
                return self.died(Ending::from_status(status));
            }
            if Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        lock(&self.reaper).kill();
        self.died(Ending::Closed)
    }

    fn died(&mut self, how: Ending) -> Flow {
        self.stderr.settle(LAST_WORDS);
        let reason = with_stderr(
            format!("{} stopped ({})", self.name, how.describe()),
            &self.stderr,
        );
        let said = self.stderr.text();
        self.finish(reason.clone(), EngineEvent::Died { reason, how, said })
    }

    /// The one final event; nothing more is sent after it.
    fn finish(&mut self, reason: String, event: EngineEvent) -> Flow {
        *lock(&self.dead) = Some(reason);
        self.emit(event);
        lock(&self.slot).take();
        Flow::End
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The advice names Debian's package; on Windows it names stockfish.exe's place.
    #[cfg(unix)]
    #[test]
    fn errors_say_what_to_do() {
        let e = EngineError::Handshake {
            path: "/x/engine".into(),
            waited: Duration::from_secs(5),
            said: String::new(),
        };
        assert_eq!(
            e.to_string(),
            "the chess engine /x/engine did not finish its start (UCI handshake) within 5 \
             seconds; it may not be a UCI engine"
        );
        let e = EngineError::NotFound {
            name: "stockfish".into(),
            looked: "/usr/bin, /usr/games".into(),
        };
        assert!(e.to_string().contains("sudo apt install stockfish"), "{e}");
        assert_eq!(
            EngineError::IllegalHistory { number: 3 }.to_string(),
            "move 3 of the game is not legal in its position"
        );
    }

    #[test]
    fn default_options_and_timeouts() {
        let o = EngineOptions::default();
        assert_eq!((o.path, o.level, o.chess960), (None, 1, false));
        assert_eq!(Timeouts::default().handshake, Duration::from_secs(5));
    }
}
