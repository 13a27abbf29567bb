//! The words of `hector study` (assets/lang, `[study]`).

use serde::Deserialize;

/// Words of `hector study`: a PGN file's games walked with their variations and comments.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyWords {
    /// A game opened: {number}, {white}, {black}, {event}, {moves} (half-moves of its main line).
    pub(crate) opened: String,
    /// One game of a list: {number}, {white}, {black}, {event}, {result}.
    pub(crate) listed: String,
    /// More games fit than are listed: {command} lists them.
    pub(crate) more: String,
    /// No game fits: {query}.
    pub(crate) none_found: String,
    /// No game with that number: {number}.
    pub(crate) no_such_game: String,
    /// A game that cannot be read: {number}, {reason}; the file goes on.
    pub(crate) unreadable: String,
    /// A game read up to a bad move: {number}, {line}, {reason}; the rest of that line is left.
    pub(crate) partly: String,
    /// The file itself cannot be read (any more): {reason}, the system's words.
    pub file_failed: String,
    /// The walk's start position.
    pub(crate) at_start: String,
    /// Already at the start, or at the end of the line.
    pub(crate) already_start: String,
    pub(crate) already_end: String,
    /// Several moves from here: {count}, {moves} (joined by `or`).
    pub(crate) choices: String,
    /// The joining word of the choices: ", oder ".
    pub(crate) or: String,
    /// A variation entered: {number}, {move}.
    pub(crate) entered: String,
    /// No such variation here: {number}, {count} (two or more moves from here).
    pub(crate) no_variation: String,
    /// No variation to leave.
    pub(crate) in_main: String,
    /// Back at the branch: {position} (the move that led there, or the start).
    pub(crate) left: String,
    /// A typed move that follows a line of the file: {move}.
    pub(crate) followed: String,
    /// A typed move of the player's own: {move}.
    pub(crate) own: String,
    /// A comment: {text}.
    pub(crate) comment: String,
    /// Nothing annotated at this move.
    pub(crate) no_comment: String,
    /// A clock: {time}.
    pub(crate) clock: String,
    /// An evaluation: {eval}.
    pub(crate) eval: String,
    /// `uhr` where no move up to here has a `[%clk]`.
    pub(crate) no_clock: String,
    /// Saved: {path}, {moves} (the player's own moves in it).
    pub(crate) saved: String,
    /// Saving refused: the original file is never written.
    pub not_original: String,
    /// No game is open.
    pub(crate) no_game: String,
    /// A command that does not belong to the study.
    pub not_here: String,
    /// The NAGs $1 to $6 in words: !, ?, !!, ??, !?, ?!.
    pub(crate) nags: Vec<String>,
    /// NAGs $10 to $19 and $22: position judgements, in order (equal … winning for Black,
    /// zugzwang).
    pub(crate) judgements: Vec<String>,
    /// The study's commands, command words in braces.
    pub(crate) help: String,
    /// The line mode's prompt.
    pub prompt: String,
    pub(crate) words_games: Vec<String>,
    pub(crate) words_open: Vec<String>,
    pub(crate) words_variation: Vec<String>,
    pub(crate) words_start: Vec<String>,
    pub(crate) words_end: Vec<String>,
    pub(crate) words_comment: Vec<String>,
    /// The file named on the command line does not exist: {file}.
    pub missing: String,
    /// Said once when a search or a game takes a moment: the file is being read.
    pub(crate) searching: String,
    pub(crate) reading: String,
    /// Escape or `words_cancel`: what was asked of the file is dropped.
    pub(crate) cancelled: String,
    pub(crate) nothing_to_cancel: String,
    /// How far the file is read: {games} known so far, {percent} of the file.
    pub(crate) read_part: String,
    /// The same where the size is unknown (standard input): {games}.
    pub(crate) read_games: String,
    /// The whole file is read: {games}.
    pub(crate) read_all: String,
    /// A game the index points to reads no more (the file changed): {number}.
    pub moved: String,
    /// A pipe is read once: game {number} has gone by.
    pub read_once: String,
    /// Cancel, and how far: the study's own words.
    pub(crate) words_cancel: Vec<String>,
    pub(crate) words_progress: Vec<String>,
    /// Variations counted in words, none to twelve (a count above is said in digits).
    pub(crate) counts: Vec<String>,
    /// The index is full (its bounds reached): {games} indexed; the later games are read
    /// from the file again each time. Said once.
    pub(crate) index_full: String,
    /// No such variation here, where one move goes on: {number}.
    pub(crate) no_variation_one: String,
    /// No such variation here, where no move goes on: {number}.
    pub(crate) no_variation_none: String,
    /// Saved with a single move of the player's own: {path}.
    pub(crate) saved_one: String,
    /// The last move of the file's main line, with the file's result: {result}.
    pub(crate) game_end: String,
    /// A game whose first position is not the starting position (a FEN tag).
    pub(crate) not_from_start: String,
}

impl StudyWords {
    /// `n` variations counted in words ("zwei"), in digits past the table's words.
    pub(crate) fn count(&self, n: usize) -> String {
        self.counts.get(n).cloned().unwrap_or_else(|| n.to_string())
    }

    /// The sentence for a variation that is not there, where `n` moves go on: one and none
    /// have sentences of their own ("there is one", "there are none"), more are counted.
    pub(crate) fn no_variation_for(&self, n: usize) -> &str {
        match n {
            0 => &self.no_variation_none,
            1 => &self.no_variation_one,
            _ => &self.no_variation,
        }
    }
}
