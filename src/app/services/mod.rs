//! What several modes share: the terminal runtime (ui), the journal's recorder, the two-board
//! table, the output of lines, the PGN worker threads, games on braille paper. A service never names a mode.

pub mod engine_words;
pub mod games;
pub mod interrupt;
pub mod judging;
pub mod kept_analysis;
pub mod output;
pub mod own_file;
pub mod paper;
pub mod pgn_jobs;
pub mod recorder;
pub mod speaker;
pub mod table;
pub mod ui;
pub mod voice;
