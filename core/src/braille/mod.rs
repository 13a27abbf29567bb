//! Braille: the BrlAPI protocol hector speaks to a braille display (BRLTTY's server), the
//! display's behaviour (answers flashed and panned, the board's rank with routing keys), and
//! games on paper in braille (Braille ASCII pages, the moves in the UKAAF braille chess code).
//! Pure like the rest of the core: the sockets and liblouis are adapters (`io::braille`).

pub mod board_line;
pub mod brlapi;
pub mod display;
pub mod paper;

pub use crate::notation::words::braille::BrailleWords;
