//! The words of `hector puzzle`: what it says, and the puzzle themes by lichess's keys.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleWords {
    pub prompt: String,
    /// Opened: {rating} (the player's), {theme} (the theme chosen, or empty).
    pub(crate) opened: String,
    /// The theme chosen, after the rating: {theme}.
    pub(crate) theme_chosen: String,
    /// The question: {id}, {rating}, {themes}, {color}, {move} (the opponent's last move).
    pub(crate) question: String,
    /// A right move with more to find: {move}, {color} (the opponent), {reply}.
    pub(crate) right_more: String,
    /// Solved: {move}, {rating}, {change}.
    pub(crate) solved: String,
    /// A wrong move: {move}, {line} (the solution), {rating}, {change}.
    pub(crate) wrong: String,
    /// The solution asked for: {line}, {rating}, {change}.
    pub(crate) shown: String,
    pub(crate) skipped: String,
    /// Skipping a puzzle begun (a right move, a hint, a wrong try): asked first, yes or no.
    pub(crate) skip_confirm: String,
    /// The answer no to that question: the puzzle goes on.
    pub(crate) not_skipped: String,
    /// No puzzle of the theme near the rating is left.
    pub(crate) none: String,
    /// A theme that does not exist: {theme}, {themes}.
    pub unknown_theme: String,
    /// The end: {solved}, {total}, {rating}.
    pub(crate) finished: String,
    /// The progress file could not be read, and was set aside: {file}, {reason}, {aside}.
    pub damaged: String,
    /// The progress file could not be written: {reason}.
    pub unwritten: String,
    /// A token without puzzle:read, refused for a new puzzle.
    pub scope_missing: String,
    /// `play --from-puzzle`: a puzzle that does not exist: {id}.
    pub no_such: String,
    /// `play --from-puzzle`, `play --fen`: the side to win: {color}, {eval}.
    pub(crate) win_this: String,
    /// The side to hold: {color}, {eval}.
    pub(crate) hold_this: String,
    /// The help: its commands, command words in braces (`{hint}`).
    pub(crate) help: String,
    /// `--daily`, `--online`: asking lichess for a puzzle.
    pub asking: String,
    /// No puzzle from lichess: {reason}; the shipped ones follow.
    pub online_failed: String,
    /// The reasons: the token refused (401), a wait asked ({seconds}), no such puzzle (404),
    /// another refusal ({reason}), no connection ({reason}), an answer that is no puzzle.
    pub token_refused: String,
    pub rate_limited: String,
    pub not_found: String,
    pub refused: String,
    pub network: String,
    pub broken: String,
    /// Not logged in: the result stays on this machine only.
    pub local_only: String,
    /// The result recorded on lichess: {rating} (the player's lichess puzzle rating).
    pub recorded: String,
    /// Recorded, without a rating in the answer.
    pub recorded_plain: String,
    /// The result could not be recorded: {reason}.
    pub not_recorded: String,
    /// The themes' names by lichess's keys.
    pub themes: BTreeMap<String, String>,
}
