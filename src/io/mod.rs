//! Thin adapters between the pure core and the world: files, and later the terminal, speech,
//! serial ports and engines.

pub mod board_link;
pub mod braille;
pub mod child;
pub mod config;
pub mod engine;
pub mod files;
pub mod journal;
pub mod lichess;
pub mod output_file;
pub mod pgn_stream;
pub mod program;
pub mod serial;
pub mod speech;
pub mod terminal;
