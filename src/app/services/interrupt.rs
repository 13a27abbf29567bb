//! Ctrl-C and SIGTERM (on Windows the console's Ctrl+C and its end) for the modes that read
//! boards in a loop (board monitor, simulate-board).

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C (and SIGTERM) end the board modes cleanly instead of killing them mid-line: the
/// loops look at [`interrupted`] at least every 100 ms.
pub(crate) fn catch_interrupt() {
    crate::io::platform::signals::flag_interrupts(&INTERRUPTED);
}

/// Ctrl-C was pressed (or SIGTERM received) since [`catch_interrupt`].
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
