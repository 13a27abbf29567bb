//! The seam between hector and the operating system: everything that differs between Unix
//! and Windows, one small module per concern, each with a Unix and a Windows implementation
//! behind the same functions. The rest of hector names no `std::os::unix`,
//! `std::os::windows`, `nix`, `libc` or `windows_sys` (tests/boundaries.rs holds that), so
//! another system is another file in each module, not edits across io.
//!
//! - [`files`]: the kind of a file, hard links, owner-only files, opening without following
//!   a link, replacing by rename, making a folder's entries durable.
//! - [`folders`]: where hector keeps its data and its configuration, the home folder.
//! - [`locale`]: the language the system is set to for messages (the locale's variables, or
//!   the user's interface language on Windows).
//! - [`process`]: helper programs and engines bound to hector (a process group or a job
//!   object), ended with everything they started; how a program ended; what may be run.
//! - [`signals`]: Ctrl+C, the terminal gone, the system asking hector to end (signals, or
//!   the console's control events), as news on a channel.
//! - [`console`]: the terminal's echo while a secret is typed, standard output closed at
//!   start.
//! - [`serial`]: serial device ports (a `/dev/tty*` or a `COMn`), why one cannot be opened.
//! - [`pty`]: pseudo-terminals for the board simulator (Unix only).
//! - [`socket`]: the local socket of a braille server (Unix only).
//! - [`library`]: loading a shared library at run time (PocketSphinx).
//! - [`memory`]: the allocator's give-back threshold (glibc only).
//! - [`screen_reader`]: speech through NVDA, JAWS and SAPI 5 (Windows only).
//! - [`sound`]: a sound cue played to its end (a player program on PATH, or winmm's
//!   PlaySoundW), for the speech backends that cannot play one themselves.
//!
//! Where a part has no form on a system, the module says so (an `AVAILABLE` constant, or an
//! `Unsupported` error) and the mode tells the player in one sentence.

pub(crate) mod console;
pub(crate) mod files;
pub(crate) mod folders;
pub(crate) mod library;
pub(crate) mod locale;
pub(crate) mod memory;
pub(crate) mod process;
pub(crate) mod pty;
pub(crate) mod screen_reader;
pub(crate) mod serial;
pub mod signals;
pub(crate) mod socket;
pub(crate) mod sound;

/// The system hector was built for, as a player knows it.
pub(crate) const SYSTEM: &str = if cfg!(windows) {
    "Windows"
} else if cfg!(target_os = "macos") {
    "macOS"
} else {
    "Linux"
};

/// An error for a part this system does not have.
#[cfg(windows)]
pub(crate) fn unsupported(what: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        format!("{what} is not available on {SYSTEM}"),
    )
}
