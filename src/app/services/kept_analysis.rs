//! The analysis of a recorded game kept next to its journal (`GAME.analysis` beside
//! `GAME.hector`), so that a game is judged once: read back when it fits the game and the
//! search, refused with a message when damaged (then judged again and replaced), written
//! atomically. The format is the core's (`core::analysis::store`).

use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move};

use crate::core::analysis::store::{Search, StoreError, Stored, decode, encode};
use crate::core::notation::language::{Language, fill};
use crate::core::notation::printable;

/// Where the analysis of the game recorded at `journal` is kept.
pub fn path_for(journal: &Path) -> PathBuf {
    journal.with_extension("analysis")
}

/// The kept analysis of the game at `journal` when it fits the game and `search`. A damaged
/// file is named on standard error (it is replaced once the game is judged again); a
/// missing one, or one of other moves or another search, is simply judged again.
pub fn read(
    journal: &Path,
    start: &Chess,
    moves: &[Move],
    search: Search,
    lang: &Language,
) -> Option<Stored> {
    let path = path_for(journal);
    if !path.exists() {
        return None;
    }
    let text = match crate::io::files::read_small_text(&path, "analysis") {
        Ok(t) => t,
        Err(_) => {
            damaged(&path, lang);
            return None;
        }
    };
    match decode(&text, start, moves) {
        Ok(stored) if stored.search == search => Some(stored),
        Ok(_) | Err(StoreError::Stale) => None,
        Err(_) => {
            damaged(&path, lang);
            None
        }
    }
}

fn damaged(path: &Path, lang: &Language) {
    errln!(
        "hector analyse: {}",
        fill(
            &lang.analysis.kept_damaged,
            &[("file", &printable(&path.display().to_string()))]
        )
    );
}

/// Keeps the analysis of the game at `journal`; a failure is told, and the game is only
/// judged again next time.
pub fn write(journal: &Path, moves: &[Move], stored: &Stored, lang: &Language) {
    let path = path_for(journal);
    let text = encode(moves, stored);
    if let Err(e) = crate::io::output_file::write_output(&path, text.as_bytes()) {
        errln!(
            "hector analyse: {}",
            fill(
                &lang.analysis.kept_unwritten,
                &[(
                    "reason",
                    &crate::app::services::games::output_problem(&e, lang)
                )]
            )
        );
    }
}
