//! The words the training and the puzzles share (`core::exercise`): their own commands (every
//! language's words are understood), the hints, and the answer to a command of play that
//! neither takes.

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExerciseWords {
    /// Show the solution and go on.
    pub(crate) solution: Vec<String>,
    /// Leave this position for now (the training brings it back; the puzzles go on).
    pub(crate) skip: Vec<String>,
    /// The first hint, the piece: {piece}, {square}.
    pub(crate) hint_piece: String,
    /// The second hint, the piece and where it goes: {piece}, {square}.
    pub(crate) hint_square: String,
    /// A command of play that the exercises do not take.
    pub(crate) not_here: String,
}
