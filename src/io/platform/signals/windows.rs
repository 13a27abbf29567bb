//! The Windows implementation: one console control handler (`SetConsoleCtrlHandler`), set
//! the first time a mode asks. Windows runs it on a thread of its own, so it may send on a
//! channel directly. Ctrl+C and Ctrl+Break are an interrupt; closing the console window is
//! the terminal gone; logging off and shutting down ask hector to end. After those three
//! Windows ends hector as soon as the handler returns (and at the latest some seconds
//! later), so the handler waits until the mode's closing work is done (the game saved).
//!
//! Unsafe code: registering the handler, and the handler reading the flag a mode gave.
#![allow(unsafe_code, reason = "registering the console's control handler")]

use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Once, OnceLock};
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use windows_sys::Win32::System::Console::{
    CTRL_BREAK_EVENT, CTRL_C_EVENT, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT,
    SetConsoleCtrlHandler,
};
use windows_sys::core::BOOL;

use super::Ending;

/// How long the handler holds hector open for its closing work after the window was closed
/// (Windows gives a program five seconds).
const CLOSE_LIMIT: Duration = Duration::from_millis(4500);

/// The flag the board modes look at (null: none yet).
static FLAG: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
/// Where the interactive modes hear of an ending.
static CHANNEL: OnceLock<(Sender<Ending>, Receiver<Ending>)> = OnceLock::new();

/// What a console control event asks for.
fn ending_of(event: u32) -> Option<Ending> {
    match event {
        CTRL_C_EVENT | CTRL_BREAK_EVENT => Some(Ending::Interrupt),
        CTRL_CLOSE_EVENT => Some(Ending::Hangup),
        CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT => Some(Ending::Terminate),
        _ => None,
    }
}

/// Passes an event on; whether someone took it (else Windows' default: hector ends).
fn pass_on(ending: Ending) -> bool {
    let flag = FLAG.load(Ordering::SeqCst);
    if !flag.is_null() {
        // SAFETY: the pointer came from a `&'static AtomicBool`.
        unsafe { (*flag).store(true, Ordering::SeqCst) };
    }
    let sent = CHANNEL.get().is_some_and(|(tx, _)| tx.send(ending).is_ok());
    sent || !flag.is_null()
}

unsafe extern "system" fn on_control(event: u32) -> BOOL {
    let Some(ending) = ending_of(event) else {
        return 0;
    };
    if !pass_on(ending) {
        return 0;
    }
    if ending != Ending::Interrupt {
        // Returning lets Windows end hector: first the game is saved.
        super::wait_for_closing(CLOSE_LIMIT);
    }
    1
}

fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: a handler with the signature Windows calls; it stays for the process.
        unsafe {
            SetConsoleCtrlHandler(Some(on_control), 1);
        }
    });
}

/// From now on Ctrl+C, Ctrl+Break and the console's end set `flag` instead of ending hector
/// at once, so that a board mode can end cleanly.
pub(crate) fn flag_interrupts(flag: &'static AtomicBool) {
    FLAG.store(std::ptr::from_ref(flag).cast_mut(), Ordering::SeqCst);
    install();
}

/// From the first call on, Ctrl+C, Ctrl+Break, closing the console, logging off and shutting
/// down arrive on the channel returned, so that a mode restores the console and ends as a
/// quit does.
pub(crate) fn endings() -> Receiver<Ending> {
    let rx = CHANNEL.get_or_init(crossbeam_channel::unbounded).1.clone();
    install();
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_console_event_is_an_ending() {
        assert_eq!(ending_of(CTRL_C_EVENT), Some(Ending::Interrupt));
        assert_eq!(ending_of(CTRL_BREAK_EVENT), Some(Ending::Interrupt));
        assert_eq!(ending_of(CTRL_CLOSE_EVENT), Some(Ending::Hangup));
        assert_eq!(ending_of(CTRL_LOGOFF_EVENT), Some(Ending::Terminate));
        assert_eq!(ending_of(CTRL_SHUTDOWN_EVENT), Some(Ending::Terminate));
        assert_eq!(ending_of(99), None);
    }

    #[test]
    fn a_closed_console_is_passed_on_and_waits_for_the_closing_work() {
        let rx = endings();
        std::thread::spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            super::super::closing_done();
        });
        // SAFETY: the handler as Windows would call it, on this thread.
        assert_eq!(unsafe { on_control(CTRL_CLOSE_EVENT) }, 1);
        assert_eq!(rx.try_recv(), Ok(Ending::Hangup));
    }
}
