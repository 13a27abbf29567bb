//! The record of a game (Appendix D6: the blind player must record the game, and hector is
//! that recording device). Pure: bytes in, bytes out; the file itself is `io::journal`.
//!
//! - [`entry`]: the [`Header`] and one [`Entry`] per event at the board.
//! - [`codec`]: one self-checking record per line; torn last records are told apart from
//!   damage ([`encode_header`], [`encode_entry`], [`decode`]).
//! - [`replay`]: the [`Game`](crate::game::Game), the last clock and the settings,
//!   rebuilt from the entries with the game's own API ([`replay()`]).
//! - [`export`]: PGN ([`to_pgn`]) and the scoresheet as text ([`scoresheet_text`]).
//! - [`import`]: a game from PGN, to go on with it ([`import_pgn`]).
//! - [`log`]: the event log the arbiter reads back ([`event_log`]).
//! - [`salvage`]: the good part of a journal that does not replay in full, and where and
//!   why it stops ([`salvage()`], [`stop_words`]).
//!
//! The format is described in docs/RECORD.md.

pub(crate) mod codec;
pub(crate) mod entry;
pub(crate) mod export;
pub(crate) mod import;
pub(crate) mod log;
pub(crate) mod replay;
pub(crate) mod salvage;
pub use codec::encode_torn_marker;
pub use export::{pgn_date, record_to_scoresheet};
pub use import::game_entries;

#[cfg(test)]
mod tests;

pub use codec::{
    Decoded, JournalError, crc32, decode, decode_good_part, encode_entry, encode_header,
};
pub use entry::{Entry, FORMAT_VERSION, Header, Times};
pub use export::{Record, salvaged_pgn, salvaged_scoresheet, scoresheet_text, to_pgn};
pub use import::{
    ImportError, Imported, ImportedTags, import_error_words, import_game, import_pgn,
};
pub use log::event_log;
pub use replay::{ClockSnapshot, Prefix, ReplayError, Replayed, Replayer, replay, replay_prefix};
pub use salvage::{
    SalvageError, Salvaged, Stop, salvage, salvage_decoded, stop_words, unusable_words,
};
