//! The words of `hector analyse --all`: every recorded game not yet judged, one after another.

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseAllWords {
    /// Before the first: {games} (to judge), {kept} (judged before).
    pub start: String,
    /// [one, more] games: {n}.
    pub games: [String; 2],
    /// The progress line of each game: {index}, {total}, {file}, {moves}.
    pub game: String,
    /// A game that could not be judged: {file}, {reason}.
    pub failed: String,
    /// Every game is judged already.
    pub none: String,
    /// At the end: {judged}, {failed}.
    pub done: String,
}
