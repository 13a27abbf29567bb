//! What `hector train` keeps from one day to the next: per position of the player's games,
//! how often it was solved and tried. A small versioned text file, one line per position;
//! anything that does not read back exactly is refused with the reason (the adapter then
//! starts afresh and says so).
//!
//! ```text
//! hector-training 1
//! 1 3 e2e4 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! ```
//!
//! Each line: times solved, times tried, the move played in the game (UCI), the position's
//! FEN. The position and the move name the exercise, whichever game file it came from.

use std::collections::BTreeMap;

/// The first line, with the format's version.
pub(crate) const MAGIC: &str = "hector-training 1";
/// A larger file is no progress of hector's.
pub const MAX_BYTES: usize = 4 << 20;
/// A position solved this many times does not come back.
pub(crate) const SOLVED_ENOUGH: u32 = 2;

/// How one position went so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Record {
    pub(crate) solved: u32,
    pub(crate) tried: u32,
}

/// The progress of every position practised, by key ([`key`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub(crate) records: BTreeMap<String, Record>,
}

/// Why a progress file is not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgressError {
    #[error("larger than {MAX_BYTES} bytes")]
    TooLarge,
    #[error("not a training record of this version (the first line is not \"{MAGIC}\")")]
    Version,
    #[error("line {0} cannot be read")]
    Malformed(usize),
}

/// The key of a position to practise: the move played (UCI) and the position's FEN.
pub(crate) fn key(played_uci: &str, fen: &str) -> String {
    format!("{played_uci} {fen}")
}

impl Progress {
    pub(crate) fn get(&self, key: &str) -> Record {
        self.records.get(key).copied().unwrap_or_default()
    }

    /// Whether the position still comes back.
    pub fn due(&self, key: &str) -> bool {
        self.get(key).solved < SOLVED_ENOUGH
    }

    pub(crate) fn tried(&mut self, key: &str) {
        let r = self.records.entry(key.to_string()).or_default();
        r.tried = r.tried.saturating_add(1);
    }

    /// Counts a solution; returns the times solved now.
    pub(crate) fn solved(&mut self, key: &str) -> u32 {
        let r = self.records.entry(key.to_string()).or_default();
        r.solved = r.solved.saturating_add(1);
        r.solved
    }

    pub(crate) fn encode(&self) -> String {
        let mut out = String::with_capacity(32 + 80 * self.records.len());
        out.push_str(MAGIC);
        out.push('\n');
        for (key, r) in &self.records {
            out.push_str(&format!("{} {} {key}\n", r.solved, r.tried));
        }
        out
    }

    pub fn decode(text: &str) -> Result<Progress, ProgressError> {
        if text.len() > MAX_BYTES {
            return Err(ProgressError::TooLarge);
        }
        let mut rows = text.lines();
        if rows.next() != Some(MAGIC) {
            return Err(ProgressError::Version);
        }
        let mut records = BTreeMap::new();
        for (i, row) in rows.enumerate() {
            let bad = || ProgressError::Malformed(i + 2);
            let mut words = row.splitn(4, ' ');
            let solved = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
            let tried = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
            let played = words.next().filter(|w| valid_uci(w)).ok_or_else(bad)?;
            let fen = words.next().ok_or_else(bad)?;
            if fen.parse::<shakmaty::fen::Fen>().is_err() {
                return Err(bad());
            }
            records.insert(key(played, fen), Record { solved, tried });
        }
        Ok(Progress { records })
    }
}

fn valid_uci(w: &str) -> bool {
    w.parse::<shakmaty::uci::UciMove>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn progress_reads_back_as_written() {
        let mut p = Progress::default();
        let k = key("e2e4", START);
        assert!(p.due(&k));
        p.tried(&k);
        assert_eq!(p.solved(&k), 1);
        assert!(p.due(&k));
        assert_eq!(p.solved(&k), 2);
        assert!(!p.due(&k));
        let text = p.encode();
        assert_eq!(text, format!("{MAGIC}\n2 1 e2e4 {START}\n"));
        assert_eq!(Progress::decode(&text), Ok(p));
    }

    #[test]
    fn a_damaged_file_is_refused_with_its_reason() {
        assert_eq!(Progress::decode(""), Err(ProgressError::Version));
        assert_eq!(
            Progress::decode("hector-training 9\n"),
            Err(ProgressError::Version)
        );
        let good = format!("{MAGIC}\n1 1 e2e4 {START}\n");
        assert_eq!(
            Progress::decode(&good.replace("1 1 e2e4", "x 1 e2e4")),
            Err(ProgressError::Malformed(2))
        );
        assert_eq!(
            Progress::decode(&good.replace("e2e4", "e2")),
            Err(ProgressError::Malformed(2))
        );
        assert_eq!(
            Progress::decode(&good.replace("w KQkq", "w XYZ")),
            Err(ProgressError::Malformed(2))
        );
        assert_eq!(
            Progress::decode(&format!("{good}1 1\n")),
            Err(ProgressError::Malformed(3))
        );
        assert_eq!(
            Progress::decode(&"x".repeat(MAX_BYTES + 1)),
            Err(ProgressError::TooLarge)
        );
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_never_a_panic(text in "\\PC{0,200}") {
            let _ = Progress::decode(&text);
            let _ = Progress::decode(&format!("{MAGIC}\n{text}"));
        }
    }
}
