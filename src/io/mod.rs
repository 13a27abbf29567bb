//! Thin adapters between the pure core and the world: files, and later the terminal, speech,
//! serial ports and engines.

pub mod board_link;
pub(crate) mod braille;
pub mod child;
pub(crate) mod config;
pub mod engine;
pub(crate) mod files;
pub mod journal;
pub mod lichess;
pub(crate) mod output_file;
pub(crate) mod owned_file;
pub mod pgn_stream;
pub mod platform;
pub(crate) mod program;
pub mod serial;
pub mod speech;
pub(crate) mod study_file;
pub(crate) mod terminal;
pub(crate) mod utc;

/// An error and its sources as one line, "cannot read x: No such file or directory", as
/// anyhow's alternate form writes a chain.
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// The innermost cause of an error: the system's own words where the system refused.
pub(crate) fn root_cause(e: &dyn std::error::Error) -> String {
    let mut last = e;
    while let Some(s) = last.source() {
        last = s;
    }
    last.to_string()
}
pub mod voice;
