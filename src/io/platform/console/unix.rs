//! The Unix implementation: the terminal's ECHO flag through termios; a look at descriptor 1
//! before the Rust runtime starts.
//!
//! Unsafe code: a function the C runtime runs before `main` (placed in `.init_array`) and
//! the `fcntl` it makes; see their SAFETY notes.
#![expect(unsafe_code, reason = "a function run before main and its fcntl")]

use std::sync::atomic::{AtomicBool, Ordering};

use nix::sys::termios::{LocalFlags, SetArg, Termios, tcgetattr, tcsetattr};

/// The terminal's echo, off while this lives (a secret is typed), then as it was.
pub(crate) struct EchoOff {
    saved: Option<Termios>,
}

impl EchoOff {
    /// Turns the echo of standard input's terminal off, if it is a terminal.
    pub(crate) fn start() -> EchoOff {
        let stdin = std::io::stdin();
        let saved = tcgetattr(&stdin).ok().inspect(|t| {
            let mut quiet = t.clone();
            quiet.local_flags.remove(LocalFlags::ECHO);
            let _ = tcsetattr(&stdin, SetArg::TCSANOW, &quiet);
        });
        EchoOff { saved }
    }

    /// Whether the echo was turned off (standard input is a terminal).
    pub(crate) fn is_off(&self) -> bool {
        self.saved.is_some()
    }
}

impl Drop for EchoOff {
    fn drop(&mut self) {
        if let Some(t) = &self.saved {
            let _ = tcsetattr(std::io::stdin(), SetArg::TCSANOW, t);
        }
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
pub(crate) fn stdout_closed_at_start() -> bool {
    // The reference keeps the look (and its section) in the program.
    std::hint::black_box(&LOOK_AT_STDOUT);
    STDOUT_CLOSED.load(Ordering::Relaxed)
}
