//! Short-lived helper programs (`espeak-ng --version`, `espeak-ng --voices`): started in a
//! process group of their own, waited for with a time limit, and killed with everything they
//! started when they overstay, so that a program that hangs never outlives hector.
//!
//! This module is the one place of hector with `unsafe` code (the crate denies it elsewhere):
//! two calls into the operating system that Rust cannot check, each with its SAFETY note:
//! the set-up of a child between fork and exec ([`bound_to_hector`]), the signal handler
//! of Ctrl-C ([`catch_signals`]) and of the signals that end an interactive mode
//! ([`ending_signals`]), the allocator's threshold for giving memory back
//! ([`return_large_blocks`]), a secret taken out of the environment before any thread
//! starts ([`forget_variable_before_threads`]), and a look at standard output before the
//! Rust runtime starts ([`stdout_closed_at_start`]).
#![allow(unsafe_code)]

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// More than any answer of the programs asked; the rest is not kept.
const MAX_OUTPUT: u64 = 1 << 20;

/// Process groups started and not yet ended: killed by [`end_all`] when hector ends, also
/// those of a worker thread that was given up while it waited.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<i32>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Notes a process group hector leads, so that [`end_all`] can end it.
pub fn register(child: &Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        live().push(pid);
    }
}

fn forget(child: &Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        live().retain(|&p| p != pid);
    }
}

/// Kills every registered process group still running: called once as hector ends.
pub fn end_all() {
    for pid in live().drain(..) {
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// What a program wrote before it ended.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum ChildError {
    #[error("cannot start it: {0}")]
    Start(#[source] std::io::Error),
    #[error("it did not answer within {} seconds and was stopped", .0.as_secs())]
    Hung(Duration),
    #[error("cannot wait for it: {0}")]
    Wait(#[source] std::io::Error),
}

/// Has `command` start in a process group of its own that cannot outlive hector: should
/// hector end without ending it (killed, crashed), the kernel sends the child SIGKILL. The
/// kernel watches the thread that starts the child, so it must be started from a thread that
/// lives as long as the child is needed (the mode's, or the speech worker's).
pub fn bound_to_hector(command: &mut Command) -> &mut Command {
    let parent = std::process::id();
    command.process_group(0);
    // SAFETY: between fork and exec the closure makes only async-signal-safe system calls
    // (prctl, getppid) and allocates nothing unless it fails.
    unsafe {
        command.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(std::io::Error::from)?;
            // hector may have ended between the fork and the prctl.
            if u32::try_from(nix::unistd::getppid().as_raw()).ok() != Some(parent) {
                return Err(std::io::Error::from(std::io::ErrorKind::Other));
            }
            Ok(())
        });
    }
    command
}

/// Kills the whole process group of `child` (it leads the group) and reaps it.
pub fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
    forget(child);
}

/// Reaps a child that ended by itself and forgets its group.
pub fn reaped(child: &Child) {
    forget(child);
}

/// Reads at most [`MAX_OUTPUT`] bytes of a pipe on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> Receiver<Vec<u8>> {
    let (tx, rx) = bounded(1);
    if let Some(pipe) = pipe {
        let _ = thread::Builder::new()
            .name("hector-child-out".into())
            .spawn(move || {
                let mut buf = Vec::new();
                let _ = pipe.take(MAX_OUTPUT).read_to_end(&mut buf);
                let _ = tx.send(buf);
            });
    }
    rx
}

/// Runs `command` with no input and its standard error discarded; kills its process group
/// when it has not ended within `limit`.
pub fn run_bounded(command: &mut Command, limit: Duration) -> Result<Finished, ChildError> {
    run_bounded_with(command, None, limit)
}

/// [`run_bounded`], with `input` on the program's standard input (written on a thread of its
/// own, so that a program that does not read cannot block hector).
pub fn run_bounded_input(
    command: &mut Command,
    input: Vec<u8>,
    limit: Duration,
) -> Result<Finished, ChildError> {
    run_bounded_with(command, Some(input), limit)
}

fn run_bounded_with(
    command: &mut Command,
    input: Option<Vec<u8>>,
    limit: Duration,
) -> Result<Finished, ChildError> {
    let stdin = if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    };
    let mut child = bound_to_hector(command)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(ChildError::Start)?;
    register(&child);
    if let (Some(input), Some(mut pipe)) = (input, child.stdin.take()) {
        let _ = thread::Builder::new()
            .name("hector-child-in".into())
            .spawn(move || {
                use std::io::Write;
                let _ = pipe.write_all(&input);
            });
    }
    let stdout = drain(child.stdout.take());
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                forget(&child);
                break status;
            }
            Ok(None) if Instant::now() >= deadline => {
                kill_group(&mut child);
                return Err(ChildError::Hung(limit));
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                kill_group(&mut child);
                return Err(ChildError::Wait(e));
            }
        }
    };
    // A grandchild may still hold the pipe open: what came so far is all there is.
    let stdout = stdout
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        .unwrap_or_default();
    Ok(Finished { status, stdout })
}

/// SIGINT and SIGTERM call `handler` instead of ending hector at once, so that a mode can end
/// cleanly. The handler may only do what is async-signal-safe (store to an atomic).
pub fn catch_signals(handler: extern "C" fn(nix::libc::c_int)) {
    use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, sigaction};
    let action = SigAction::new(
        SigHandler::Handler(handler),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM] {
        // SAFETY: the handlers hector installs only store to an atomic.
        let _ = unsafe { sigaction(signal, &action) };
    }
}

/// Removes the environment variable `name` from hector's own environment, so that no child
/// inherits it: neither those hector starts itself nor those a library starts for it (the
/// speech-dispatcher daemon libspeechd spawns outlives hector).
pub fn forget_variable_before_threads(name: &str) {
    // SAFETY: called first thing in `main`, before any thread exists that could read the
    // environment at the same time.
    unsafe {
        std::env::remove_var(name);
    }
}

/// Standard output was closed when hector started (`hector games >&-`).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

extern "C" fn note_closed_stdout() {
    // SAFETY: fcntl(F_GETFD) only asks about a descriptor number; this runs before `main`,
    // on the one thread there is.
    let closed = unsafe { nix::libc::fcntl(1, nix::libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// Run by the C runtime before `main`, and so before the Rust runtime puts /dev/null where
/// a standard descriptor is closed: after that, writes to a closed standard output would
/// all succeed, and nothing would tell that nothing was written.
#[used]
// SAFETY: .init_array holds pointers to functions that take no arguments the C runtime does
// not pass and return nothing; this is one.
#[unsafe(link_section = ".init_array")]
static LOOK_AT_STDOUT: extern "C" fn() = note_closed_stdout;

/// Whether standard output was closed when hector started (not a pipe whose reader left: a
/// descriptor that was not open at all).
pub fn stdout_closed_at_start() -> bool {
    // The reference keeps the look (and its section) in the program.
    std::hint::black_box(&LOOK_AT_STDOUT);
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// A signal that asks an interactive mode to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// SIGINT: Ctrl-C where the terminal makes it a signal.
    Interrupt,
    /// SIGTERM: the system or a person asks hector to end.
    Terminate,
    /// SIGHUP: the terminal is gone; nobody is left to ask.
    Hangup,
}

impl Ending {
    /// The signal's number.
    pub fn number(self) -> u8 {
        match self {
            Ending::Hangup => 1,
            Ending::Interrupt => 2,
            Ending::Terminate => 15,
        }
    }
}

/// The write end of the pipe the signal handler writes to (-1: none yet).
static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn forward_signal(signal: nix::libc::c_int) {
    let saved = nix::errno::Errno::last_raw();
    let fd = SIGNAL_PIPE.load(Ordering::Relaxed);
    if fd >= 0 {
        let byte = u8::try_from(signal).unwrap_or(0);
        // SAFETY: write(2) is async-signal-safe; the byte lives on this stack frame, and the
        // pipe does not block (a full pipe drops the byte: one signal is already waiting).
        let _ = unsafe { nix::libc::write(fd, std::ptr::from_ref(&byte).cast(), 1) };
    }
    nix::errno::Errno::set_raw(saved);
}

/// From the first call on, SIGINT, SIGTERM and SIGHUP no longer end hector at once: each
/// arrives on the channel returned, so that a mode restores the terminal and ends as a quit
/// does (the journal synced, the children ended). The handler only writes a byte to a pipe;
/// a thread turns the bytes into the channel's news.
pub fn ending_signals() -> Receiver<Ending> {
    static CHANNEL: OnceLock<Receiver<Ending>> = OnceLock::new();
    CHANNEL.get_or_init(install_ending_signals).clone()
}

fn install_ending_signals() -> Receiver<Ending> {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, sigaction};
    use std::os::fd::{AsRawFd, IntoRawFd};
    let (tx, rx) = crossbeam_channel::unbounded();
    let Ok((read, write)) = nix::unistd::pipe2(OFlag::O_CLOEXEC) else {
        // Without a pipe the signals keep their default: hector ends at once, as before.
        return rx;
    };
    if fcntl(write.as_raw_fd(), FcntlArg::F_SETFL(OFlag::O_NONBLOCK)).is_err() {
        return rx;
    }
    let reader = std::fs::File::from(read);
    let spawned = thread::Builder::new()
        .name("hector-signals".into())
        .spawn(move || {
            let mut reader = reader;
            let mut byte = [0u8; 1];
            while let Ok(1) = reader.read(&mut byte) {
                let ending = match nix::libc::c_int::from(byte[0]) {
                    nix::libc::SIGHUP => Ending::Hangup,
                    nix::libc::SIGTERM => Ending::Terminate,
                    _ => Ending::Interrupt,
                };
                if tx.send(ending).is_err() {
                    return;
                }
            }
        });
    if spawned.is_err() {
        return rx;
    }
    // The write end stays open for as long as hector runs.
    SIGNAL_PIPE.store(write.into_raw_fd(), Ordering::Relaxed);
    let action = SigAction::new(
        SigHandler::Handler(forward_signal),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        // SAFETY: the handler makes only async-signal-safe calls (write, errno).
        let _ = unsafe { sigaction(signal, &action) };
    }
    rx
}

/// Has the C allocator give large blocks back to the system when they are freed. By default
/// glibc raises its threshold for that after each such free, and then every worker thread of
/// `check` and `transcript` keeps the memory of the longest game it has read: resident memory
/// would grow with the number of jobs instead of with the games in flight.
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter of the allocator; any value is allowed, and
    // it is called before the worker threads start.
    unsafe {
        nix::libc::mallopt(nix::libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_program_is_read() {
        let done = run_bounded(
            Command::new("sh").args(["-c", "echo hello"]),
            Duration::from_secs(10),
        )
        .expect("sh runs");
        assert!(done.status.success());
        assert_eq!(done.stdout, b"hello\n");
    }

    #[test]
    fn a_hanging_program_and_its_children_are_killed() {
        let marker = format!("hector-child-test-{}", std::process::id());
        // How soon after its limit it is stopped is measured in benches/speech.rs.
        let err = run_bounded(
            Command::new("sh").args([
                "-c",
                &format!("sh -c 'sleep 600; :' {marker} & sleep 600; :"),
            ]),
            Duration::from_millis(300),
        )
        .expect_err("it hangs");
        assert!(matches!(err, ChildError::Hung(_)), "{err}");
        // The shell it started in the background (the marker is on its command line) goes
        // with its group: SIGKILL is delivered, the process is gone soon after.
        let running = || -> Vec<String> {
            std::fs::read_dir("/proc")
                .expect("/proc")
                .flatten()
                .filter(|p| {
                    // A zombie waiting for its parent runs no more.
                    std::fs::read_to_string(p.path().join("stat"))
                        .is_ok_and(|s| s.rsplit(')').next().is_some_and(|r| !r.starts_with(" Z")))
                })
                .filter_map(|p| std::fs::read(p.path().join("cmdline")).ok())
                .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
                .filter(|c| c.contains(&marker))
                .collect()
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !running().is_empty() {
            assert!(
                Instant::now() < deadline,
                "the background shell still runs 10 s after its group was killed: {:?}",
                running()
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}
