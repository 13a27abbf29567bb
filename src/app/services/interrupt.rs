//! Ctrl-C and SIGTERM for the modes that read boards in a loop (board monitor, simulate-board).

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: nix::libc::c_int) {
    // Only an atomic store: nothing else is safe in a signal handler.
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Ctrl-C (and SIGTERM) end the board modes cleanly instead of killing them mid-line: the
/// loops look at [`interrupted`] at least every 100 ms.
pub fn catch_interrupt() {
    crate::io::child::catch_signals(on_interrupt);
}

/// Ctrl-C was pressed (or SIGTERM received) since [`catch_interrupt`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
