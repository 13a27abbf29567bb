//! Thin adapters between the pure core and the world: files, and later the terminal, speech,
//! serial ports and engines.

pub mod board_link;
pub mod files;
pub mod serial;
