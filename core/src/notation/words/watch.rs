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
    /// Another board's move: "{board}: {move}".
    pub board_move: String,
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
    pub result_white: String,
    pub result_black: String,
    pub result_draw: String,
    pub finished: String,
    pub no_clock: String,
    pub stream_ended: String,
    pub stream_failed: String,
    pub connecting: String,
    pub help: String,
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
