//! `hector simulate-board`: a DGT or peg board on a pseudo-terminal, driven by commands, for
//! trying hector without hardware and for the tests.
//!
//! The device hector opens is a stable path (a symbolic link) that points at the current
//! pseudo-terminal: unplugging closes it and removes the link, replugging opens a new one and
//! points the link at it, as a USB board comes back under the same udev name.

pub mod model;
pub(crate) mod script;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, san::San};

use crate::app::services::interrupt::interrupted;
use crate::app::services::output::Out;
use crate::core::check::game_start;
use crate::core::legality::resolve_record_san;
use crate::core::notation::{Language, language};
use crate::core::notation::{message, parse_move};
use crate::core::pgn::Reader;
use crate::core::variant::{Variant, position_from_fen};
use crate::io::board_link::Protocol;
use crate::io::serial::Pty;
use model::{Chunk, SimBoard};
use script::{Command, parse_command};

/// What `hector simulate-board` was asked for.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub(crate) protocol: Protocol,
    pub(crate) identify_pieces: bool,
    pub(crate) script: Option<PathBuf>,
    pub(crate) link: Option<PathBuf>,
    pub(crate) fen: Option<String>,
    pub(crate) chess960: bool,
    /// The language of what the simulator says of itself (the configuration file's).
    pub(crate) lang: &'static Language,
}

const DEFAULT_GAP: Duration = Duration::from_millis(50);
const DEFAULT_PAUSE: Duration = Duration::from_secs(1);
/// How often a quiet simulator looks at Ctrl-C.
const TICK: Duration = Duration::from_millis(100);

pub(crate) fn run(opts: Options) -> ExitCode {
    // Windows has no pseudo-terminal for the board: said in the configured language.
    if !crate::io::platform::pty::AVAILABLE {
        errln!(
            "hector simulate-board: {}",
            opts.lang.windows.simulator_unavailable
        );
        return ExitCode::from(2);
    }
    match simulate(opts) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            errln!("hector simulate-board: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Runs the simulator; whether every command could be carried out.
fn simulate(opts: Options) -> Result<bool> {
    let variant = if opts.chess960 {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let game = match &opts.fen {
        Some(fen) => position_from_fen(fen, variant)?,
        None => Chess::default(),
    };
    let script = match &opts.script {
        Some(path) => Some(crate::io::files::read_small_text(path, "the script")?),
        None => None,
    };
    crate::app::services::interrupt::catch_interrupt();
    let (host_tx, host_rx) = crossbeam_channel::unbounded();
    let mut device = Device::new(opts.link.clone(), host_tx)?;
    device.plug()?;
    let mut sim = Sim {
        model: SimBoard::new(opts.protocol, opts.identify_pieces, game),
        mode: variant.castling_mode(),
        device,
        host_rx,
        gap: DEFAULT_GAP,
        pause: DEFAULT_PAUSE,
        out: Out::new(),
        failed: false,
    };
    let name = sim.model.title();
    let link = sim.device.link.display().to_string();
    sim.say(&format!("Simulated {name} board: {link}"));
    sim.say(&format!(
        "Give hector this path: hector board monitor {link} --protocol {}",
        opts.protocol.name()
    ));
    let commands = spawn_commands(script);
    let result = sim.run(&commands);
    sim.device.unplug();
    sim.device.remove_own_dir();
    result?;
    Ok(!sim.failed)
}

/// Lines to execute, with their numbers; the channel closes at the end of the input.
fn spawn_commands(script: Option<String>) -> Receiver<(usize, String)> {
    let (tx, rx) = crossbeam_channel::unbounded();
    match script {
        Some(text) => {
            for (i, line) in text.lines().enumerate() {
                let _ = tx.send((i + 1, line.to_owned()));
            }
        }
        None => {
            // Detached: a read of a terminal cannot be interrupted, and the process ends anyway.
            let _ = thread::Builder::new()
                .name("commands".into())
                .spawn(move || {
                    let lines = crate::io::files::bounded_lines(std::io::stdin().lock());
                    for (i, line) in lines.enumerate() {
                        if tx.send((i + 1, line)).is_err() {
                            break;
                        }
                    }
                });
        }
    }
    rx
}

/// The pseudo-terminal behind the stable path, while plugged in.
struct Plugged {
    pty: Arc<Pty>,
    stop: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
}

impl Drop for Plugged {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

struct Device {
    link: PathBuf,
    /// The temporary folder holding the link, when the simulator made it.
    own_dir: Option<PathBuf>,
    plugged: Option<Plugged>,
    host_tx: Sender<Vec<u8>>,
}

impl Device {
    fn new(link: Option<PathBuf>, host_tx: Sender<Vec<u8>>) -> Result<Device> {
        let (link, own_dir) = match link {
            Some(link) => {
                if fs::symlink_metadata(&link).is_ok() && !is_stale_device_link(&link) {
                    bail!(
                        "{} already exists; give --link a path where nothing is yet",
                        link.display()
                    );
                }
                (link, None)
            }
            None => {
                let dir = std::env::temp_dir().join(format!(
                    "hector-board-{}-{}",
                    std::process::id(),
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.subsec_nanos())
                ));
                fs::create_dir(&dir)
                    .with_context(|| format!("cannot create the folder {}", dir.display()))?;
                (dir.join("board"), Some(dir))
            }
        };
        Ok(Device {
            link,
            own_dir,
            plugged: None,
            host_tx,
        })
    }

    fn is_plugged(&self) -> bool {
        self.plugged.is_some()
    }

    /// A new pseudo-terminal, the link pointing at it, and a thread passing on what the host
    /// writes.
    fn plug(&mut self) -> Result<()> {
        if self.is_plugged() {
            return Ok(());
        }
        // Something put there while the board was unplugged is not replaced.
        if fs::symlink_metadata(&self.link).is_ok() && !is_stale_device_link(&self.link) {
            bail!(
                "{} already exists; the simulator leaves it alone",
                self.link.display()
            );
        }
        let pty = Arc::new(Pty::open().context("cannot open a pseudo-terminal")?);
        point_link(&self.link, pty.path())?;
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (pty, stop, tx) = (Arc::clone(&pty), Arc::clone(&stop), self.host_tx.clone());
            thread::Builder::new()
                .name("host".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        match pty.read_timeout(Duration::from_millis(50)) {
                            Ok(Some(bytes)) => {
                                if tx.send(bytes).is_err() {
                                    return;
                                }
                            }
                            Ok(None) => {}
                            // Nobody has the device open: wait for hector to come back.
                            Err(_) => thread::sleep(Duration::from_millis(50)),
                        }
                    }
                })
                .context("cannot start the thread for the host's requests")?
        };
        self.plugged = Some(Plugged {
            pty,
            stop,
            reader: Some(reader),
        });
        Ok(())
    }

    /// Like pulling the cable: the link disappears and the pseudo-terminal closes, so that
    /// whoever has it open sees a hang-up.
    fn unplug(&mut self) {
        // Only the link made here, still leading to this device: whatever else has taken its
        // place since is not the simulator's to remove.
        if let Some(p) = &self.plugged
            && fs::read_link(&self.link).is_ok_and(|target| target == p.pty.path())
        {
            let _ = fs::remove_file(&self.link);
        }
        self.plugged = None;
    }

    fn remove_own_dir(&self) {
        if let Some(dir) = &self.own_dir {
            let _ = fs::remove_dir_all(dir);
        }
    }

    fn device_path(&self) -> Option<&Path> {
        self.plugged.as_ref().map(|p| p.pty.path())
    }

    /// Sends bytes as the board; nothing goes out while unplugged (the board has no power).
    fn write(&self, bytes: &[u8]) -> Result<()> {
        if let Some(p) = &self.plugged {
            p.pty
                .write_all(bytes)
                .context("cannot write to the pseudo-terminal")?;
        }
        Ok(())
    }
}

/// A link an earlier simulator left behind: it leads to a pseudo-terminal that is gone.
fn is_stale_device_link(link: &Path) -> bool {
    fs::read_link(link).is_ok_and(|target| target.starts_with("/dev/pts/") && !target.exists())
}

/// Points `link` at `target`, replacing an older link in one step (a reader never sees a
/// missing link while it is re-pointed).
fn point_link(link: &Path, target: &Path) -> Result<()> {
    let name = link
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "board".to_owned());
    let tmp = link.with_file_name(format!(".{name}.{}.new", std::process::id()));
    let _ = fs::remove_file(&tmp);
    crate::io::platform::files::symlink(target, &tmp)
        .with_context(|| format!("cannot create the link {}", tmp.display()))?;
    fs::rename(&tmp, link).with_context(|| format!("cannot create the link {}", link.display()))
}

struct Sim {
    model: SimBoard,
    mode: CastlingMode,
    device: Device,
    host_rx: Receiver<Vec<u8>>,
    gap: Duration,
    pause: Duration,
    out: Out,
    failed: bool,
}

/// Whether to go on after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Go,
    Stop,
}

impl Sim {
    fn say(&mut self, line: &str) {
        self.out.line(line);
        self.out.flush();
    }

    fn run(&mut self, commands: &Receiver<(usize, String)>) -> Result<()> {
        loop {
            if interrupted() {
                return Ok(());
            }
            crossbeam_channel::select! {
                recv(commands) -> next => {
                    let Ok((number, line)) = next else { return Ok(()) };
                    match parse_command(&line) {
                        Ok(None) => {}
                        Ok(Some(cmd)) => match self.execute(cmd) {
                            Ok(Flow::Go) => {}
                            Ok(Flow::Stop) => return Ok(()),
                            Err(e) => self.fail(number, &format!("{e:#}")),
                        },
                        Err(e) => self.fail(number, &e),
                    }
                }
                recv(self.host_rx) -> bytes => {
                    if let Ok(bytes) = bytes {
                        self.answer(&bytes)?;
                    }
                }
                default(TICK) => {}
            }
        }
    }

    fn fail(&mut self, number: usize, why: &str) {
        self.failed = true;
        errln!("hector simulate-board: line {number}: {why}");
    }

    fn answer(&mut self, bytes: &[u8]) -> Result<()> {
        for chunk in self.model.answer(bytes) {
            self.device.write(&chunk)?;
        }
        Ok(())
    }

    /// Lets `d` pass, answering the host meanwhile; `Stop` on Ctrl-C.
    fn serve(&mut self, d: Duration) -> Result<Flow> {
        let until = Instant::now() + d;
        loop {
            if interrupted() {
                return Ok(Flow::Stop);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Flow::Go);
            }
            match self.host_rx.recv_timeout(left.min(TICK)) {
                Ok(bytes) => self.answer(&bytes)?,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => thread::sleep(left.min(TICK)),
            }
        }
    }

    /// Sends the sensor changes of one action, `gap` apart.
    fn send(&mut self, chunks: Vec<Chunk>) -> Result<Flow> {
        for (i, chunk) in chunks.into_iter().enumerate() {
            if i > 0 && self.serve(self.gap)? == Flow::Stop {
                return Ok(Flow::Stop);
            }
            self.device.write(&chunk)?;
        }
        Ok(Flow::Go)
    }

    fn play(&mut self, m: Move) -> Result<Flow> {
        let pos = self.model.game().clone();
        let san = San::from_move(&pos, m);
        let uci = UciMove::from_move(m, self.mode);
        let number = pos.fullmoves().get();
        let dots = if pos.turn().is_white() { "." } else { "..." };
        self.say(&format!("played {number}{dots} {san} ({uci})"));
        let chunks = self.model.play(m);
        self.send(chunks)
    }

    fn execute(&mut self, cmd: Command) -> Result<Flow> {
        match cmd {
            Command::Lift(sq) => {
                let chunks = self.model.lift(sq)?;
                self.send(chunks)
            }
            Command::Place(sq, piece) => {
                let chunks = self.model.place(sq, piece)?;
                self.send(chunks)
            }
            Command::Move(text) => {
                let pos = self.model.game().clone();
                let english = language("en")?;
                let m = parse_move(&text, &pos)
                    .map_err(|e| anyhow::anyhow!("{text}: {}", message(&e, &pos, english)))?;
                self.play(m)
            }
            Command::Pgn { path, game } => self.play_pgn(&path, game),
            Command::Wait(d) => self.serve(d),
            Command::AwaitHost(limit) => self.await_host(limit),
            Command::Gap(d) => {
                self.gap = d;
                Ok(Flow::Go)
            }
            Command::Pause(d) => {
                self.pause = d;
                Ok(Flow::Go)
            }
            Command::Slide(on) => {
                self.model.set_slide(on);
                Ok(Flow::Go)
            }
            Command::Noise(n) => {
                let chunk = self.model.noise(n);
                self.send(vec![chunk])
            }
            Command::Raw(bytes) => self.send(vec![bytes]),
            Command::Line(text) => {
                let chunk = self.model.line(&text)?;
                self.send(vec![chunk])
            }
            Command::Snapshot => {
                let chunk = self.model.snapshot();
                self.send(vec![chunk])
            }
            Command::Setup(fen) => {
                let variant = match self.mode {
                    CastlingMode::Chess960 => Variant::Chess960,
                    CastlingMode::Standard => Variant::Standard,
                };
                let pos = position_from_fen(&fen, variant)?;
                let chunks = self.model.setup(pos);
                self.send(chunks)
            }
            Command::Unplug => {
                if self.device.is_plugged() {
                    self.device.unplug();
                    self.say("unplugged");
                }
                Ok(Flow::Go)
            }
            Command::Replug => {
                self.replug()?;
                Ok(Flow::Go)
            }
            Command::Echo(text) => {
                self.say(&text);
                Ok(Flow::Go)
            }
            Command::Quit => Ok(Flow::Stop),
        }
    }

    /// Game `game` of a PGN file played out: the board set up to its start, then its moves
    /// with the pause between them.
    fn play_pgn(&mut self, path: &Path, game: usize) -> Result<Flow> {
        let (start, variant, moves) = load_game(path, game)?;
        self.mode = variant.castling_mode();
        if start.board() != self.model.board() || &start != self.model.game() {
            let chunks = self.model.setup(start);
            if self.send(chunks)? == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        for (i, m) in moves.into_iter().enumerate() {
            if i > 0 && self.serve(self.pause)? == Flow::Stop {
                return Ok(Flow::Stop);
            }
            if self.play(m)? == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Go)
    }

    /// Serves the port until the host has connected, at most `limit`.
    fn await_host(&mut self, limit: Duration) -> Result<Flow> {
        let until = Instant::now() + limit;
        while !self.model.host_ready() {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                bail!("the host did not connect within {limit:?}");
            }
            if self.serve(left.min(TICK))? == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Go)
    }

    /// Plugs the board in again after an unplug, and says where its link leads now.
    fn replug(&mut self) -> Result<()> {
        if !self.device.is_plugged() {
            self.device.plug()?;
            self.model.power_up();
            let target = self
                .device
                .device_path()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            let link = self.device.link.display().to_string();
            self.say(&format!("plugged in again: {link} now leads to {target}"));
        }
        Ok(())
    }
}

/// Game `number` (from 1) of a PGN file: its start, variant and moves.
fn load_game(path: &Path, number: usize) -> Result<(Chess, Variant, Vec<Move>)> {
    let bytes = crate::io::files::read_input(path)?;
    let raw = Reader::new(&bytes)
        .filter(|g| !(g.tags.is_empty() && g.movetext.is_empty()))
        .nth(number - 1)
        .with_context(|| format!("{} has no game {number}", path.display()))?;
    let (start, variant) = game_start(&raw).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for token in raw.mainline() {
        let m = resolve_record_san(&pos, token.item).map_err(|reason| {
            anyhow::anyhow!(
                "{} line {}: {}: {}",
                path.display(),
                token.line,
                String::from_utf8_lossy(token.item),
                reason.describe()
            )
        })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok((start, variant, moves))
}
