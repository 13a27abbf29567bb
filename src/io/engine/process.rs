//! The engine process: finding the program, starting it bound to hector (a process group of
//! its own, or a job object: `platform::process`), one thread each for its stdout, stderr and
//! stdin, and ending it without leaving anything behind.
//!
//! Bound so, because an engine may be a wrapper script with children of its own: ending the
//! group ends them all, and Ctrl-C in hector's terminal does not reach the engine.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

use crate::io::platform::process::{self, Tree};

use super::EngineError;

/// The longest line an engine may write. Its output is read no further after a longer one,
/// so an engine that writes without line ends cannot fill the memory (see
/// [`Spawned::overflowed`]); a longer line on stderr is cut.
pub(crate) const MAX_LINE: u64 = 64 * 1024;
/// Lines read ahead of the supervisor: an engine that writes faster than they are looked at
/// waits, it does not fill the memory.
const LINES_AHEAD: usize = 4096;
/// How much of the engine's stderr is kept for error messages.
const STDERR_LINES: usize = 12;
const STDERR_LINE_CHARS: usize = 240;

/// Where hector looks for Stockfish when no engine is named.
pub(crate) const DEFAULT_ENGINE: &str = "stockfish";

/// Locks a mutex even if a thread panicked while holding it: the data are still usable here.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The places to look for a program called `name`: each directory of `path_var`, then the
/// system's places for engines (where Debian and local installs put them; on Windows beside
/// hector.exe and in hector's data folder, `stockfish` meaning `stockfish.exe`).
pub(crate) fn search_paths(name: &str, path_var: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        path_var.map_or_else(Vec::new, |p| std::env::split_paths(p).collect());
    dirs.extend(process::program_dirs());
    let file = process::program_file(name);
    let mut seen = Vec::new();
    for d in dirs {
        let p = d.join(&file);
        if !d.as_os_str().is_empty() && !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen
}

fn is_executable(p: &Path) -> bool {
    process::is_executable(p)
}

/// The engine program to start: the named path, a bare name looked up like a command, or
/// Stockfish.
pub(crate) fn locate(path: Option<&Path>) -> Result<PathBuf, EngineError> {
    let name = match path {
        Some(p) if p.components().count() > 1 || p.is_absolute() => {
            return match std::fs::metadata(p) {
                Err(_) => Err(EngineError::Missing { path: p.into() }),
                Ok(m) if m.is_dir() => Err(EngineError::NotExecutable {
                    path: p.into(),
                    reason: "it is a directory".into(),
                }),
                Ok(_) if !is_executable(p) => Err(EngineError::NotExecutable {
                    path: p.into(),
                    reason: process::NOT_EXECUTABLE.into(),
                }),
                Ok(_) => Ok(p.into()),
            };
        }
        Some(p) => p.as_os_str().to_owned(),
        None => DEFAULT_ENGINE.into(),
    };
    let Some(name) = name.to_str() else {
        return Err(EngineError::Missing {
            path: PathBuf::from(name),
        });
    };
    let candidates = search_paths(name, std::env::var_os("PATH").as_deref());
    candidates
        .iter()
        .find(|p| is_executable(p))
        .cloned()
        .ok_or_else(|| EngineError::NotFound {
            name: process::program_file(name),
            looked: candidates
                .iter()
                .filter_map(|p| p.parent())
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The last lines the engine wrote to stderr.
#[derive(Clone, Default)]
pub(crate) struct StderrTail(Arc<Mutex<(VecDeque<String>, bool)>>);

impl StderrTail {
    fn push(&self, line: String) {
        let mut t = lock(&self.0);
        if t.0.len() == STDERR_LINES {
            t.0.pop_front();
        }
        t.0.push_back(line);
    }

    fn close(&self) {
        lock(&self.0).1 = true;
    }

    /// Waits up to `limit` until the engine's stderr has ended, so that its last words are in.
    pub(crate) fn settle(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while !lock(&self.0).1 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// What it said, one line after the other, or nothing.
    pub(crate) fn text(&self) -> String {
        let t = lock(&self.0);
        t.0.iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

/// The child process: kept unreaped until hector has ended everything it started, because a
/// reaped leader's number could be given to another process.
pub(crate) struct Reaper {
    child: Child,
    tree: Tree,
    ended: Option<Option<ExitStatus>>,
}

impl Reaper {
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process has ended (then what it left behind is killed and it is reaped);
    /// `Some(None)` when its status is unknown.
    pub(crate) fn poll_exit(&mut self) -> Option<Option<ExitStatus>> {
        if let Some(e) = self.ended {
            return Some(e);
        }
        // Looked at without reaping, so that what it started can still be killed safely.
        if process::has_ended(&mut self.child) {
            Some(self.finish())
        } else {
            None
        }
    }

    /// Ends the process and its group now, and reaps it.
    pub(crate) fn kill(&mut self) -> Option<ExitStatus> {
        match self.ended {
            Some(e) => e,
            None => self.finish(),
        }
    }

    fn finish(&mut self) -> Option<ExitStatus> {
        self.tree.kill();
        if !self.tree.holds_all() {
            let _ = self.child.kill();
        }
        let status = self.child.wait().ok();
        self.ended = Some(status);
        status
    }
}

/// Kills the process (and its group) when dropped.
pub(crate) struct Guard(pub Arc<Mutex<Reaper>>);

impl Drop for Guard {
    fn drop(&mut self) {
        lock(&self.0).kill();
    }
}

/// A started engine process and the threads around it.
pub(crate) struct Spawned {
    pub(crate) guard: Guard,
    /// The lines of its stdout; disconnected at end of file.
    pub(crate) lines: Receiver<String>,
    /// Lines for its stdin (the newline is added).
    pub(crate) input: Sender<String>,
    pub(crate) stderr: StderrTail,
    /// Set when the engine wrote a line longer than [`MAX_LINE`]: its output was closed.
    pub(crate) overflowed: Arc<AtomicBool>,
}

/// Starts `path` with its three pipes drained and fed by threads of their own.
pub(crate) fn spawn(path: &Path) -> Result<Spawned, EngineError> {
    let mut tries = 0;
    let mut child = loop {
        let started = crate::io::child::bound_to_hector(&mut Command::new(path))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        match started {
            Ok(c) => break c,
            // A program just written may still be open for writing in a process being forked
            // elsewhere; that passes within milliseconds.
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 20 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(e) => {
                return Err(match e.kind() {
                    std::io::ErrorKind::NotFound => EngineError::Missing { path: path.into() },
                    std::io::ErrorKind::PermissionDenied => EngineError::NotExecutable {
                        path: path.into(),
                        reason: e.to_string(),
                    },
                    _ => EngineError::Spawn {
                        path: path.into(),
                        reason: e.to_string(),
                    },
                });
            }
        }
    };
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let tree = Tree::of(&child);
    let guard = Guard(Arc::new(Mutex::new(Reaper {
        child,
        tree,
        ended: None,
    })));
    let (Some(stdin), Some(stdout), Some(stderr)) = (stdin, stdout, stderr) else {
        return Err(EngineError::Spawn {
            path: path.into(),
            reason: "its pipes could not be opened".into(),
        });
    };
    let (line_tx, lines) = bounded(LINES_AHEAD);
    let (input, input_rx) = unbounded::<String>();
    let tail = StderrTail::default();
    let thread_tail = tail.clone();
    let overflowed = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&overflowed);
    let started = thread("hector-engine-out", move || {
        let cut = read_lines(stdout, |l| line_tx.send(l).is_ok());
        if cut {
            flag.store(true, Ordering::SeqCst);
        }
    })
    .and_then(|_| {
        thread("hector-engine-err", move || {
            let mut stderr = stderr;
            // A line too long for stdout is only cut here: the tail keeps a few characters.
            while read_lines(&mut stderr, |l| {
                thread_tail.push(l.chars().take(STDERR_LINE_CHARS).collect());
                true
            }) {}
            thread_tail.close();
        })
    })
    .and_then(|_| thread("hector-engine-in", move || write_lines(stdin, input_rx)));
    if let Err(e) = started {
        return Err(EngineError::Spawn {
            path: path.into(),
            reason: format!("cannot start a thread: {e}"),
        });
    }
    Ok(Spawned {
        guard,
        lines,
        input,
        stderr: tail,
        overflowed,
    })
}

fn thread(name: &str, f: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(f)
        .map(|_| ())
}

/// Reads lines until end of file (or until `take` refuses one), without the line ending.
/// Returns true when it stopped at a line longer than [`MAX_LINE`].
fn read_lines(from: impl Read, mut take: impl FnMut(String) -> bool) -> bool {
    let mut reader = BufReader::new(from);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) => return false,
            Ok(n) if n as u64 == MAX_LINE && buf.last() != Some(&b'\n') => return true,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !take(line.trim_end_matches(['\n', '\r']).to_string()) {
                    return false;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
}

/// Writes each line with a newline until the channel closes or the engine stops reading.
fn write_lines(mut to: impl Write, lines: Receiver<String>) {
    for line in lines {
        let written = to
            .write_all(line.as_bytes())
            .and_then(|()| to.write_all(b"\n"))
            .and_then(|()| to.flush());
        if written.is_err() {
            return;
        }
    }
}

/// "exit status 3", "killed by signal 11 (SIGSEGV)", "ended by 0xC0000005 (access
/// violation)".
pub(crate) fn describe_status(status: Option<ExitStatus>) -> String {
    status
        .and_then(process::exit_of)
        .map_or_else(|| "ended".into(), process::Exit::describe)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Debian's folders and program names; Windows looks beside hector.exe and in its data
    // folder, for stockfish.exe.
    #[cfg(unix)]
    #[test]
    fn search_paths_follow_path_then_debian_dirs() {
        let path = std::env::join_paths(["/opt/bin", "", "/usr/games"]).expect("paths");
        assert_eq!(
            search_paths("stockfish", Some(&path)),
            [
                PathBuf::from("/opt/bin/stockfish"),
                PathBuf::from("/usr/games/stockfish"),
                PathBuf::from("/usr/local/bin/stockfish"),
            ]
        );
        assert_eq!(search_paths("sf", None).len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn missing_paths_say_what_to_install() {
        let err = locate(Some(Path::new("/nonexistent/hector/engine"))).expect_err("missing");
        assert!(matches!(err, EngineError::Missing { .. }));
        assert!(err.to_string().contains("stockfish"), "{err}");
        let err = locate(Some(Path::new("/"))).expect_err("a directory");
        assert!(matches!(err, EngineError::NotExecutable { .. }), "{err}");
        let err = locate(Some(Path::new("no-such-engine-anywhere"))).expect_err("not found");
        assert!(err.to_string().contains("/usr/games"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn statuses_are_described() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            describe_status(Some(ExitStatus::from_raw(3 << 8))),
            "exit status 3"
        );
        assert_eq!(
            describe_status(Some(ExitStatus::from_raw(11))),
            "killed by signal 11 (SIGSEGV)"
        );
        assert_eq!(describe_status(None), "ended");
    }

    #[test]
    fn reading_stops_at_an_overlong_line_and_endings_are_removed() {
        let mut text = b"uciok\r\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 200_000));
        text.extend(b"\nreadyok");
        let mut got = Vec::new();
        let cut = read_lines(&text[..], |l| {
            got.push(l);
            true
        });
        assert!(cut);
        assert_eq!(got, ["uciok"]);
        let mut got = Vec::new();
        let cut = read_lines(&b"uciok\r\nreadyok"[..], |l| {
            got.push(l);
            true
        });
        assert!(!cut);
        assert_eq!(got, ["uciok", "readyok"]);
    }
}
