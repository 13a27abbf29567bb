//! A game as hector runs it: who plays which side, what a typed line means, answers to
//! questions about the position, and the match logic that joins the game, the clock and the
//! players. Pure: events and instants in, effects out.

pub mod capture_moves;
pub mod command;
pub mod dangers;
pub mod help;
pub mod queries;
pub mod question;
pub mod session;
pub mod two_boards;
mod values;
