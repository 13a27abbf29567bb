//! Spoken and written notation: announcing moves in the words of FIDE Appendix D2.1,
//! understanding typed or dictated moves, the scoresheet, and reading squares and positions.

pub mod board_words;
pub mod clock_words;
pub(crate) mod describe;
pub(crate) mod language;
pub(crate) mod parse;
pub(crate) mod printable;
pub mod refusals;
pub(crate) mod scoresheet;
pub(crate) mod speak;
pub(crate) mod transcript;
pub(crate) mod vocabulary;
pub(crate) mod wording;
pub(crate) mod words;
pub(crate) mod wrap;
pub use language::{
    LanguageError, TABLE_ROLES, WordSet, codes, counted, default_language, fill, languages,
    of_locale, own_name, role_index,
};
pub use parse::parse_move_in;
pub use printable::MAX_REASON;
pub use scoresheet::{scoresheet_lines, scoresheet_move};
pub use transcript::{TranscriptError, push_text_ply, speak_game};
pub use vocabulary::{fold, yes_or_no};
pub use wording::{Order, Wording};
pub use wrap::{wrap_between_moves, wrap_words};

#[cfg(test)]
mod tests;

pub use language::{Language, language};
pub use parse::{ParseError, message, parse_move};
pub use printable::{printable, printable_cut};
pub use speak::{Form, announce};
