//! One module per mode of the command line (`hector MODE`), except `exercise`, which runs
//! `hector train` and `hector puzzle` (one runtime over the core's `Exercises`); only cli
//! names them, and no mode names another: what two modes share is a service (`app::services`).

pub(crate) mod analyse;
pub(crate) mod arbiter;
pub(crate) mod assist;
pub(crate) mod board;
pub(crate) mod check;
pub(crate) mod clock;
pub(crate) mod exercise;
pub(crate) mod games;
pub(crate) mod listen;
pub(crate) mod online;
pub(crate) mod parse;
pub(crate) mod play;
pub(crate) mod say;
pub mod simulate;
pub(crate) mod study;
pub mod transcript;
pub(crate) mod watch;
