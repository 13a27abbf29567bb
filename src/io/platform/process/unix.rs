//! The Unix implementation: a process group of its own, `PR_SET_PDEATHSIG` set between fork
//! and exec, `killpg`, `waitid` without reaping.
//!
//! Unsafe code: the set-up of a child between fork and exec, and the thread's clock, which
//! Rust cannot check; see their SAFETY notes.
#![expect(
    unsafe_code,
    reason = "a child's set-up between fork and exec, and the thread's clock"
)]

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};

use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;

use super::Exit;

/// Has `command` start in a process group of its own that cannot outlive hector: should
/// hector end without ending it (killed, crashed), the kernel sends the child SIGKILL. The
/// kernel watches the thread that starts the child, so it must be started from a thread that
/// lives as long as the child is needed (the mode's, or the speech worker's).
pub(crate) fn bind(command: &mut Command) -> &mut Command {
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

/// A started program and everything it started: its process group, which it leads.
#[derive(Debug)]
pub(crate) struct Tree {
    leader: Pid,
}

impl Tree {
    /// The group `child` (started through [`bind`]) leads.
    pub(crate) fn of(child: &Child) -> Tree {
        Tree {
            leader: Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX)),
        }
    }

    /// Kills every process of the group. Only while the leader is not reaped: a reaped
    /// leader's number could be given to another process.
    pub(crate) fn kill(&self) {
        let _ = killpg(self.leader, Signal::SIGKILL);
    }

    /// Whether [`Tree::kill`] ends the child itself too: the group holds its leader.
    pub(crate) fn holds_all(&self) -> bool {
        true
    }
}

/// Whether `child` has ended, without reaping it (so that its group can still be killed
/// safely).
pub(crate) fn has_ended(child: &mut Child) -> bool {
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    !matches!(
        waitid(Id::Pid(pid), flags),
        Ok(WaitStatus::StillAlive) | Err(nix::errno::Errno::EINTR)
    )
}

/// How a program ended; `None` when the system says neither a status nor a signal.
pub(crate) fn exit_of(status: ExitStatus) -> Option<Exit> {
    match (status.code(), status.signal()) {
        (Some(code), _) => Some(Exit::Code(code)),
        (None, Some(sig)) => Some(Exit::Signal(sig)),
        (None, None) => None,
    }
}

/// The name of a signal ("SIGSEGV").
pub(crate) fn signal_name(sig: i32) -> Option<&'static str> {
    Signal::try_from(sig).ok().map(Signal::as_str)
}

/// Whether the file at `p` is a program hector may start: a regular file marked executable.
pub(crate) fn is_executable(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Why a file is not a program hector may start, in English.
pub(crate) const NOT_EXECUTABLE: &str = "it is not marked executable";

/// The file name of a program called `name` (as typed: `stockfish`).
pub(crate) fn program_file(name: &str) -> String {
    name.to_string()
}

/// Where programs are looked for after the folders of PATH: where Debian and local
/// installs put engines.
pub(crate) fn program_dirs() -> Vec<PathBuf> {
    ["/usr/games", "/usr/local/bin"]
        .iter()
        .map(PathBuf::from)
        .collect()
}

/// The processor time this thread has used.
pub(crate) fn thread_cpu_time() -> std::time::Duration {
    let mut ts = nix::libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec to write to; the clock exists on every Linux.
    let ok = unsafe { nix::libc::clock_gettime(nix::libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if ok != 0 {
        return std::time::Duration::ZERO;
    }
    std::time::Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_read() {
        assert_eq!(
            exit_of(ExitStatus::from_raw(3 << 8)).map(Exit::describe),
            Some("exit status 3".to_string())
        );
        assert_eq!(
            exit_of(ExitStatus::from_raw(11)).map(Exit::describe),
            Some("killed by signal 11 (SIGSEGV)".to_string())
        );
    }
}
