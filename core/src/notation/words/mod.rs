//! The word tables of the channels and modes built on the notation (voice, braille, watching,
//! training, puzzles, the analysis of every game, what only the Windows build says): part of a language, so they live with it;
//! each module uses its table through a re-export, and the language never imports a module
//! above it.

pub mod analysis;
pub(crate) mod braille;
pub(crate) mod exercise;
pub(crate) mod explorer;
pub mod puzzles;
pub mod study;
pub mod training;
pub mod voice;
pub mod watch;
pub(crate) mod windows;
