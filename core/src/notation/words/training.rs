//! The words of `hector train` (learning from one's own mistakes): what it says. Its commands
//! and hints, shared with the puzzles, are in [`super::exercise`].

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainWords {
    /// The line mode's prompt.
    pub prompt: String,
    /// [one, more] positions: {n}.
    pub(crate) positions: [String; 2],
    /// The training opened: {positions}.
    pub(crate) opened: String,
    /// Nothing to practise.
    pub(crate) none: String,
    /// A game in words: {date}, {opponent}.
    pub game: String,
    /// The question: {index}, {total}, {game}, {number}, {color}, {move}, {kind}.
    pub(crate) question: String,
    /// The engine's best move: {move}, {line} (the moves after it).
    pub(crate) right: String,
    /// Another move as good as the engine's: {move}, {best}.
    pub(crate) as_good: String,
    /// Right with no line to follow: {move}.
    pub(crate) right_alone: String,
    /// Solved twice: the position does not come back.
    pub(crate) retired: String,
    /// A wrong answer: {move}, {reply} (the engine's answer to it), {eval}.
    pub(crate) wrong: String,
    /// A wrong answer with no reply to name: {move}, {eval}.
    pub(crate) wrong_plain: String,
    /// The move of the game again: {reply}.
    pub(crate) same_move: String,
    /// The solution shown: {move}, {line}.
    pub(crate) shown: String,
    /// After three wrong answers the solution is shown.
    pub(crate) three_wrong: String,
    pub(crate) skipped: String,
    /// Skipping a position begun (a right move, a hint, a wrong try): asked first, yes or no.
    pub(crate) skip_confirm: String,
    /// The answer no to that question: the position goes on.
    pub(crate) not_skipped: String,
    /// While the engine judges the answer.
    pub(crate) busy: String,
    /// The end of the round: {solved}, {total}, {left}.
    pub(crate) finished: String,
    /// The engine could not judge the answer: {reason}.
    pub(crate) engine_failed: String,
    /// Before judging the player's games: {games}.
    pub analysing: String,
    /// [one, more] games: {n}.
    pub games: [String; 2],
    /// Each game judged: {index}, {total}, {moves}.
    pub analysing_game: String,
    /// A game that could not be judged: {game}, {reason}.
    pub game_failed: String,
    /// The progress file could not be read, and was set aside: {file}, {reason}, {aside}.
    pub progress_damaged: String,
    /// The progress file could not be written: {reason}.
    pub progress_unwritten: String,
    /// The help: its commands, command words in braces (`{hint}`).
    pub(crate) help: String,
}
