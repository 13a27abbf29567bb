//! Programs hector starts (the engine, espeak-ng, a recorder, liblouis): bound to hector so
//! that none outlives it, ended with everything they started, and how each ended in words.
//!
//! Unix: a process group of its own (Ctrl-C in hector's terminal does not reach it; killing
//! the group ends its children) and `PR_SET_PDEATHSIG`, so that the kernel kills it when
//! hector dies. Windows: no console window of its own (`CREATE_NO_WINDOW`) and a job object
//! that ends every process in it when its last handle closes (`KILL_ON_JOB_CLOSE`), also
//! when hector is killed.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

/// How a program ended, as the system tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// It exited with this status.
    Code(i32),
    /// A Unix signal ended it (11, SIGSEGV, for a crash).
    Signal(i32),
    /// A Windows status code of an error ended it (0xC0000005, an access violation).
    Status(u32),
}

impl Exit {
    /// In English: "exit status 3", "killed by signal 11 (SIGSEGV)", "ended by 0xC0000005
    /// (access violation)".
    pub(crate) fn describe(self) -> String {
        match self {
            Exit::Code(code) => format!("exit status {code}"),
            Exit::Signal(sig) => match signal_name(sig) {
                Some(name) => format!("killed by signal {sig} ({name})"),
                None => format!("killed by signal {sig}"),
            },
            Exit::Status(code) => match status_name(code) {
                Some(name) => format!("ended by {code:#010X} ({name})"),
                None => format!("ended by {code:#010X}"),
            },
        }
    }

    /// From a Windows exit code: the codes of errors (severity bits 11, 0xC…) are the
    /// system's statuses, the others the program's own.
    #[cfg(any(windows, test))]
    pub(crate) fn from_windows_code(code: u32) -> Exit {
        if code >= 0xC000_0000 {
            Exit::Status(code)
        } else {
            Exit::Code(i32::try_from(code).unwrap_or(i32::MAX))
        }
    }
}

/// What the Windows statuses a crashing program ends with mean.
pub(crate) fn status_name(code: u32) -> Option<&'static str> {
    Some(match code {
        0xC000_0005 => "access violation",
        0xC000_001D => "illegal instruction",
        0xC000_008E | 0xC000_0090 | 0xC000_0091 => "floating-point error",
        0xC000_0094 => "integer division by zero",
        0xC000_0096 => "privileged instruction",
        0xC000_00FD => "stack overflow",
        0xC000_0135 => "a DLL it needs is missing",
        0xC000_0139 => "a DLL it needs lacks a function",
        0xC000_0142 => "a DLL it needs failed to start",
        0xC000_013A => "Ctrl+C",
        0xC000_0409 => "it stopped itself (stack buffer overrun or fail-fast)",
        0xC000_0417 => "invalid parameter",
        0xC000_001E => "invalid lock sequence",
        0xC000_0017 => "out of memory",
        _ => return None,
    })
}

/// Removes the environment variable `name` from hector's own environment, so that no child
/// inherits it: neither those hector starts itself nor those a library starts for it (the
/// speech-dispatcher daemon libspeechd spawns outlives hector).
#[expect(
    unsafe_code,
    reason = "changing the environment, before any thread starts"
)]
pub(crate) fn forget_variable_before_threads(name: &str) {
    // SAFETY: called first thing in `main`, before any thread exists that could read the
    // environment at the same time.
    unsafe {
        std::env::remove_var(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_named() {
        assert_eq!(Exit::Code(3).describe(), "exit status 3");
        assert_eq!(
            Exit::from_windows_code(0xC000_0005).describe(),
            "ended by 0xC0000005 (access violation)"
        );
        assert_eq!(
            Exit::from_windows_code(0xC000_0135).describe(),
            "ended by 0xC0000135 (a DLL it needs is missing)"
        );
        assert_eq!(
            Exit::from_windows_code(0xC0AB_0001).describe(),
            "ended by 0xC0AB0001"
        );
        assert_eq!(Exit::from_windows_code(1), Exit::Code(1));
    }
}
