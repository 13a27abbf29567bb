//! Short-lived helper programs (`espeak-ng --version`, `espeak-ng --voices`): bound to
//! hector (a process group of its own, or a job object: `platform::process`), waited for
//! with a time limit, and killed with everything they started when they overstay, so that a
//! program that hangs never outlives hector.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};

use crate::io::platform::process::{self, Tree};

/// More than any answer of the programs asked; the rest is not kept.
const MAX_OUTPUT: u64 = 1 << 20;

/// Programs started and not yet ended, with what they started: killed by [`end_all`] when
/// hector ends, also those of a worker thread that was given up while it waited.
static LIVE: Mutex<Vec<(u32, Tree)>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<(u32, Tree)>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Notes a program hector started through [`bound_to_hector`], so that [`end_all`] can end
/// it and what it started.
pub(crate) fn register(child: &Child) {
    live().push((child.id(), Tree::of(child)));
}

fn forget(child: &Child) {
    live().retain(|(id, _)| *id != child.id());
}

/// Kills every registered program still running with what it started: called once as
/// hector ends.
pub fn end_all() {
    for (_, tree) in live().drain(..) {
        tree.kill();
    }
}

/// What a program wrote before it ended.
#[derive(Debug)]
pub struct Finished {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: Vec<u8>,
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

/// Has `command` start bound to hector: it cannot outlive hector, also should hector end
/// without ending it (killed, crashed). On Unix the kernel watches the thread that starts the
/// child, so it must be started from a thread that lives as long as the child is needed (the
/// mode's, or the speech worker's).
pub(crate) fn bound_to_hector(command: &mut Command) -> &mut Command {
    process::bind(command)
}

/// Kills `child` with everything it started, and reaps it.
pub(crate) fn kill_group(child: &mut Child) {
    match live().iter().find(|(id, _)| *id == child.id()) {
        Some((_, tree)) => tree.kill(),
        None => Tree::of(child).kill(),
    }
    let _ = child.kill();
    let _ = child.wait();
    forget(child);
}

/// Reaps a child that ended by itself and forgets its group.
pub(crate) fn reaped(child: &Child) {
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
pub(crate) fn run_bounded_input(
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

// The programs tried are sh's; Windows has none.
#[cfg(all(test, unix))]
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
