//! One module per mode of the command line (`hector MODE`), except `exercise`, which runs
//! `hector train` and `hector puzzle` (one runtime over the core's `Exercises`); only cli
//! names them, and no mode names another: what two modes share is a service (`app::services`).

pub mod analyse;
pub mod arbiter;
pub mod assist;
pub mod board;
pub mod check;
pub mod clock;
pub mod exercise;
pub mod games;
pub mod listen;
pub mod online;
pub mod parse;
pub mod play;
pub mod say;
pub mod simulate;
pub mod study;
pub mod transcript;
pub mod watch;
