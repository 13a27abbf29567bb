//! The modes of hector. Each mode parses nothing itself (clap did), wires adapters to the
//! pure core and reports.

pub mod analyse;
pub mod arbiter;
pub mod assist;
pub mod board;
pub mod check;
pub mod clock;
pub mod games;
pub mod online;
pub mod output;
pub mod parse;
pub mod pgn_jobs;
pub mod play;
pub mod recorder;
pub mod say;
pub mod simulate;
pub mod table;
pub mod transcript;
pub mod ui;
