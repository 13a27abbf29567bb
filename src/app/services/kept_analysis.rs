//! The analysis of a recorded game kept next to its journal (`GAME.analysis` beside
//! `GAME.journal`), so that a game is judged once: read back when it fits the game and the
//! search, set aside and named when it cannot be read (then judged again), written whole as
//! a file of hector's own (`services::own_file`). The format is the core's
//! (`core::analysis::store`).

use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move};

use crate::app::services::own_file;
use crate::core::analysis::store::{MAX_BYTES, Search, StoreError, Stored, decode, encode};
use crate::core::notation::Language;

/// Where the analysis of the game recorded at `journal` is kept.
pub(crate) fn path_for(journal: &Path) -> PathBuf {
    journal.with_extension("analysis")
}

/// The kept analysis of the game at `journal` when it fits the game and `search`. An
/// unreadable file (damaged, from a newer hector, too large) is set aside and named on
/// standard error before the game is judged again; a missing one, or one of other moves or
/// another search, is simply judged again (and replaced); a link or another stranger where
/// it belongs is named and never written.
pub(crate) fn read(
    journal: &Path,
    start: &Chess,
    moves: &[Move],
    search: Search,
    lang: &Language,
) -> Option<Stored> {
    let path = path_for(journal);
    let loaded = own_file::load(
        &path,
        MAX_BYTES,
        |text| match decode(text, start, moves) {
            Ok(stored) => Ok(Some(stored)),
            Err(StoreError::Stale) => Ok(None),
            Err(e) => Err(e.to_string()),
        },
        &own_file::RecordWords {
            damaged: &lang.analysis.kept_damaged,
            unwritten: &lang.analysis.kept_unwritten,
        },
        lang,
    );
    // A stranger where the file belongs is said once, by the write that it refuses.
    if let Some(told) = loaded.told.as_ref().filter(|_| !loaded.refused) {
        errln!("hector analyse: {told}");
    }
    loaded
        .value
        .flatten()
        .filter(|stored| stored.search == search)
}

/// Keeps the analysis of the game at `journal` as a file of hector's own; a failure is
/// told, and the game is only judged again next time.
pub(crate) fn write(journal: &Path, moves: &[Move], stored: &Stored, lang: &Language) {
    let path = path_for(journal);
    let text = encode(moves, stored);
    if let Err(words) = own_file::keep(&path, &text, &lang.analysis.kept_unwritten, lang) {
        errln!("hector analyse: {words}");
    }
}
