//! The words of `hector watch` and of the arbiter's broadcast (assets/lang, `[watch]` and
//! `[broadcast]`).

use serde::Deserialize;

/// Words of `hector watch`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchWords {
    /// "Brett {number}, {white} gegen {black}".
    pub board_name: String,
    /// A single game's name: "{white} gegen {black}".
    pub game_name: String,
    pub following: String,
    /// Another board's move: "{board}: {move}", the board by its number (`board_short`).
    pub board_move: String,
    /// A board by its number alone: "Brett {number}".
    pub board_short: String,
    pub new_board: String,
    /// A round with more boards than hector follows: {max}.
    pub too_many_boards: String,
    pub no_such_board: String,
    pub unknown_board: String,
    pub no_boards: String,
    pub followed_mark: String,
    pub read_only: String,
    pub bad_pgn: String,
    pub too_long: String,
    pub no_game: String,
    pub corrected: String,
    pub resynced: String,
    /// A result in words, the same wherever it is said: {white}, {black}.
    pub result_white: String,
    pub result_black: String,
    pub result_draw: String,
    /// A board's result said: {board}, {result}.
    pub board_result: String,
    /// A board followed whose game is over: {result}.
    pub finished: String,
    pub no_clock: String,
    pub stream_ended: String,
    /// The stream refused for good: {reason}, one of the four below.
    pub stream_failed: String,
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
    pub help: String,
    /// The line mode's prompt (no moves are played here).
    pub prompt: String,
    pub words_follow: Vec<String>,
    pub words_boards: Vec<String>,
}

/// Words of `hector arbiter --broadcast`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BroadcastWords {
    pub pushing: String,
    pub pushed: String,
    pub refused: String,
    pub game_refused: String,
    pub back: String,
    pub needs_token: String,
}
