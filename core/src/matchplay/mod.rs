//! A game as hector runs it: who plays which side, what a typed line means, answers to
//! questions about the position, and the match logic that joins the game, the clock and the
//! players. Pure: events and instants in, effects out.

pub(crate) mod capture_moves;
pub(crate) mod command;
pub(crate) mod dangers;
pub(crate) mod help;
pub mod queries;
pub(crate) mod question;
pub(crate) mod session;
pub mod two_boards;
mod values;
pub use command::{Command, Line, read_line};
pub use question::Question;
pub use session::ClockAnswer;
pub use session::recorded::{PlayRecord, RecordedOpponent, next_game};
pub use session::{
    AdviceKind, BoardOf, Effect, Event, Match, PlayExtras, Recorded, Setup, Side, SpeechControl,
    Urgency, Walk,
};
