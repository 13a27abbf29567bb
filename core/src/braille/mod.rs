//! Braille: the BrlAPI protocol hector speaks to a braille display (BRLTTY's server), the
//! display's behaviour (answers flashed and panned, the board's rank with routing keys), and
//! games on paper in braille (Braille ASCII pages, the moves in the UKAAF braille chess code).
//! Pure like the rest of the core: the sockets and liblouis are adapters (`io::braille`).

pub(crate) mod board_line;
pub mod brlapi;
pub(crate) mod display;
pub(crate) mod paper;
pub use board_line::{BoardLine, BoardRoute};
pub use display::{Action, BrailleDisplay, Frame, Hold};
pub use paper::{
    MovePairs, PageSize, UKAAF_2015, check_brf, is_braille_ascii, move_lines, pages_from,
};

pub use crate::notation::words::braille::BrailleWords;
