//! What several modes share: the terminal runtime (ui), the journal's recorder, the two-board
//! table, the output of lines, the PGN worker threads, games on braille paper. A service never names a mode.

pub(crate) mod engine_words;
pub(crate) mod games;
pub(crate) mod interrupt;
pub(crate) mod judging;
pub(crate) mod kept_analysis;
pub(crate) mod output;
pub(crate) mod own_file;
pub(crate) mod paper;
pub(crate) mod pgn_jobs;
pub(crate) mod recorder;
pub(crate) mod speaker;
pub(crate) mod table;
pub(crate) mod ui;
pub(crate) mod voice;
