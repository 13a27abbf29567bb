//! Spoken and written notation: announcing moves in the words of FIDE Appendix D2.1,
//! understanding typed or dictated moves, the scoresheet, and reading squares and positions.

pub mod board_words;
pub mod clock_words;
pub mod describe;
pub mod language;
pub mod parse;
pub mod printable;
pub mod refusals;
pub mod scoresheet;
pub mod speak;
pub mod transcript;
pub mod vocabulary;
pub mod wording;
pub mod words;
pub mod wrap;

#[cfg(test)]
mod tests;

pub use language::{Language, language};
pub use parse::{ParseError, message, parse_move};
pub use printable::{printable, printable_cut};
pub use speak::{Form, announce};
