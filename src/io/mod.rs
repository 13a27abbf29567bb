//! Thin adapters between the pure core and the world: files, and later the terminal, speech,
//! serial ports and engines.

pub mod board_link;
pub mod config;
pub mod engine;
pub mod files;
pub mod journal;
pub mod lichess;
pub mod serial;
pub mod speech;
pub mod terminal;
