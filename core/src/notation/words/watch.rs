//! The words of `hector watch` and of the arbiter's broadcast (assets/lang, `[watch]` and
//! `[broadcast]`).

use serde::Deserialize;

/// Words of `hector watch`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchWords {
    /// "Brett {number}, {white} gegen {black}".
    pub(crate) board_name: String,
    /// A single game's name: "{white} gegen {black}".
    pub(crate) game_name: String,
    pub(crate) following: String,
    /// Another board's move: "{board}: {move}", the board by its number (`board_short`).
    pub(crate) board_move: String,
    /// A board by its number alone: "Brett {number}".
    pub(crate) board_short: String,
    pub(crate) new_board: String,
    /// A round with more boards than hector follows: {max}.
    pub(crate) too_many_boards: String,
    pub(crate) no_such_board: String,
    pub(crate) unknown_board: String,
    pub(crate) no_boards: String,
    pub(crate) followed_mark: String,
    pub read_only: String,
    pub(crate) bad_pgn: String,
    pub(crate) too_long: String,
    pub(crate) no_game: String,
    pub(crate) corrected: String,
    pub(crate) resynced: String,
    /// A result in words, the same wherever it is said: {white}, {black}.
    pub(crate) result_white: String,
    pub(crate) result_black: String,
    pub(crate) result_draw: String,
    /// A board's result said: {board}, {result}.
    pub(crate) board_result: String,
    /// A board followed whose game is over: {result}.
    pub(crate) finished: String,
    pub(crate) no_clock: String,
    pub stream_ended: String,
    /// The stream refused for good: {reason}, one of the four below.
    pub(crate) stream_failed: String,
    /// No such round or game (HTTP 404).
    pub not_found: String,
    /// The server does not let hector in (HTTP 401).
    pub unauthorized: String,
    /// Another refusal: {status}, {reason} (the server's own words).
    pub refused: String,
    /// No connection: {reason} (the system's words).
    pub refused_network: String,
    pub connecting: String,
    /// The watch's commands, command words in braces (`{follow}`).
    pub(crate) help: String,
    /// The line mode's prompt (no moves are played here).
    pub prompt: String,
    pub(crate) words_follow: Vec<String>,
    pub(crate) words_boards: Vec<String>,
}

/// Words of `hector arbiter --broadcast`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BroadcastWords {
    pub pushing: String,
    pub pushed: String,
    pub refused: String,
    pub game_refused: String,
    #[expect(
        dead_code,
        reason = "a word of the tables hector does not say yet; every table has it"
    )]
    pub(crate) back: String,
    pub needs_token: String,
}
