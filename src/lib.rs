//! hector: an accessible chess companion for blind and visually impaired players, following
//! the FIDE Laws of Chess, Appendix D.
//!
//! `core` is pure (rules, notation, clock, board recognition, match logic); `io` holds the thin
//! adapters to the world (files, terminal, speech, serial ports, engines); `app` runs the modes.

/// `eprintln!` that never panics: when standard error is closed or full there is nobody left
/// to tell, and hector goes on (or ends) as it would have.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod app;
pub mod cli;
pub mod io;
/// The pure core, a crate of its own (core/): `crate::core::…` names it everywhere.
pub use hector_core as core;
