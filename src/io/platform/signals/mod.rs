//! What asks hector to end from outside: Ctrl+C, the terminal or console window gone, the
//! system asking it to end. Each arrives as news ([`Ending`]) on a channel, so that an
//! interactive mode restores the terminal and ends as a quit does (the journal synced, the
//! children ended), or as a flag the board modes look at.
//!
//! Unix: SIGINT, SIGHUP and SIGTERM, caught by a handler that writes a byte to a pipe (the
//! only safe thing to do in a signal handler). Windows: the console's control events
//! (`SetConsoleCtrlHandler`), whose handler runs on a thread of its own: Ctrl+C and
//! Ctrl+Break are an interrupt; closing the console window, logging off and shutting down
//! end hector when the handler returns, so it waits (a few seconds at most) until the mode's
//! closing work is done ([`closing_done`]).

use std::sync::{Condvar, Mutex};
#[cfg(any(windows, test))]
use std::time::{Duration, Instant};

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

/// What asks an interactive mode to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Ctrl+C (SIGINT, or the console's Ctrl+C and Ctrl+Break).
    Interrupt,
    /// The system or a person asks hector to end (SIGTERM; logging off, shutting down).
    Terminate,
    /// The terminal is gone; nobody is left to ask (SIGHUP; the console window closed).
    Hangup,
}

impl Ending {
    /// The number of the Unix signal it is (a shell reports 128 + it as the exit status).
    pub(crate) fn number(self) -> u8 {
        match self {
            Ending::Hangup => 1,
            Ending::Interrupt => 2,
            Ending::Terminate => 15,
        }
    }
}

/// Whether the work after a mode's end is done (the game saved, the children ended), for
/// a wait that hector's end must not outlast: a flag and its condition.
pub(crate) struct Closing {
    done: Mutex<bool>,
    changed: Condvar,
}

impl Closing {
    pub(crate) const fn new() -> Closing {
        Closing {
            done: Mutex::new(false),
            changed: Condvar::new(),
        }
    }

    /// The work is done: whoever waits goes on.
    pub(crate) fn done(&self) {
        *self.done.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.changed.notify_all();
    }

    /// Waits until the work is done, at most `limit`; whether it was.
    #[cfg(any(windows, test))]
    pub(crate) fn wait(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        let mut done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        while !*done {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            done = match self.changed.wait_timeout(done, left) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        true
    }
}

impl Default for Closing {
    fn default() -> Closing {
        Closing::new()
    }
}

/// hector's own closing work.
static CLOSING: Closing = Closing::new();

/// Says that hector's closing work is done (called as `main` returns): a wait for it in
/// the console's control handler (Windows) ends, and hector with it.
pub fn closing_done() {
    CLOSING.done();
}

/// Waits, at most `limit`, until [`closing_done`] was called.
#[cfg(windows)]
pub(crate) fn wait_for_closing(limit: Duration) -> bool {
    CLOSING.wait(limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_wait_for_the_closing_work_ends_when_it_is_done_or_at_its_limit() {
        let closing = Arc::new(Closing::new());
        assert!(!closing.wait(Duration::from_millis(20)), "nothing was done");
        let other = Arc::clone(&closing);
        let waiter = std::thread::spawn(move || other.wait(Duration::from_secs(30)));
        std::thread::sleep(Duration::from_millis(20));
        closing.done();
        assert!(waiter.join().expect("the waiter"), "the work was done");
        assert!(closing.wait(Duration::ZERO), "done stays done");
    }
}
