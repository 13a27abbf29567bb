//! hector's pure core: rules, notation, records and checks. Nothing here does I/O, starts a
//! thread or reads the system clock; time, where it matters, is passed in. Its Cargo.toml names
//! no crate that could (docs/ARCHITECTURE.md).

pub mod analysis;
pub mod board;
pub mod braille;
pub mod check;
pub mod clock;
pub mod cue;
pub mod dead;
pub mod exercise;
pub mod explorer;
pub mod game;
pub mod laws;
pub mod legality;
pub mod machine;
pub mod matchplay;
pub mod mode;
pub mod notation;
pub mod online;
pub mod openings;
pub mod outcome;
pub mod pgn;
pub mod puzzles;
pub mod record;
pub mod repetition;
pub mod settings;
pub mod study;
pub mod time;
pub mod training;
pub mod variant;
pub mod voice;
pub mod watch;

#[cfg(any(test, feature = "testkit"))]
#[doc(hidden)]
pub mod testkit;
