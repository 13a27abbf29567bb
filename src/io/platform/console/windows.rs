//! The Windows implementation: the console's ENABLE_ECHO_INPUT mode; the standard output
//! handle as the process got it (Windows does not put a stand-in where one is missing).
//!
//! Unsafe code: the console calls of Win32, on the process's standard handles.
#![allow(unsafe_code, reason = "Win32's console calls on the standard handles")]

use windows_sys::Win32::Foundation::{HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Console::{
    CONSOLE_MODE, ENABLE_ECHO_INPUT, GetConsoleMode, GetStdHandle, STD_INPUT_HANDLE,
    STD_OUTPUT_HANDLE, SetConsoleMode,
};

/// The console's echo, off while this lives (a secret is typed), then as it was.
pub(crate) struct EchoOff {
    saved: Option<(HANDLE, CONSOLE_MODE)>,
}

impl EchoOff {
    /// Turns the echo of standard input's console off, if it is a console.
    pub(crate) fn start() -> EchoOff {
        // SAFETY: the process's standard input handle, asked and used as Windows hands it
        // out; GetConsoleMode fails on anything but a console.
        let saved = unsafe {
            let input = GetStdHandle(STD_INPUT_HANDLE);
            let mut mode: CONSOLE_MODE = 0;
            if input.is_null()
                || input == INVALID_HANDLE_VALUE
                || GetConsoleMode(input, &mut mode) == 0
            {
                None
            } else {
                SetConsoleMode(input, mode & !ENABLE_ECHO_INPUT);
                Some((input, mode))
            }
        };
        EchoOff { saved }
    }

    /// Whether the echo was turned off (standard input is a console).
    pub(crate) fn is_off(&self) -> bool {
        self.saved.is_some()
    }
}

impl Drop for EchoOff {
    fn drop(&mut self) {
        if let Some((input, mode)) = self.saved {
            // SAFETY: the standard input handle read in `start`, which the process keeps.
            unsafe {
                SetConsoleMode(input, mode);
            }
        }
    }
}

/// Whether the process was started without a standard output (`hector games >&-` in a
/// shell that closes it, or a parent that gave none).
pub(crate) fn stdout_closed_at_start() -> bool {
    // SAFETY: asks for the process's standard output handle; nothing is done with it.
    let out = unsafe { GetStdHandle(STD_OUTPUT_HANDLE) };
    out.is_null() || out == INVALID_HANDLE_VALUE
}
