//! The words of the opening explorer (assets/lang, `[explorer]`).

use serde::Deserialize;

/// Words of the opening explorer: the command, each database's line and why there is none.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorerWords {
    /// The command's words ("explorer").
    pub words: Vec<String>,
    /// Said while the explorer is asked.
    pub asking: String,
    /// The databases' names.
    pub masters: String,
    pub lichess: String,
    /// One database's line: {source}, {games} (the position's), {moves} (joined by `joiner`).
    pub games: String,
    /// One move: {move}, {share} (per cent of the position's games), {white}, {draws},
    /// {black} (per cent of the move's games).
    pub one_move: String,
    pub joiner: String,
    /// No games from the position in a database: {source}.
    pub no_games: String,
    /// No lichess token stored: how to get one.
    pub no_token: String,
    /// The token refused.
    pub token_refused: String,
    /// After a 429: a minute without requests (said once).
    pub wait: String,
    /// No connection or no answer in time.
    pub unreachable: String,
    /// An answer that is not the explorer's.
    pub unreadable: String,
    /// A mode that has no explorer.
    pub not_here: String,
    /// The sentence of play's help.
    pub help: String,
}
