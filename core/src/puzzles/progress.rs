//! What `hector puzzle` keeps: the player's puzzle rating and each puzzle played (solved or
//! not). A small versioned text file; anything that does not read back exactly is refused
//! with the reason.
//!
//! ```text
//! hector-puzzles 1
//! rating 1532
//! 000tp 1
//! 00LII 0
//! ```
//!
//! The rating follows the player by the Elo formula: after each puzzle it moves by
//! [`K`] × (result − expected), the expected result 1 / (1 + 10^((puzzle − player) / 400)),
//! the result 1 for solved, 0 for missed or shown.

use std::collections::BTreeMap;

pub(crate) const MAGIC: &str = "hector-puzzles 1";
pub const MAX_BYTES: usize = 4 << 20;
/// The rating of a player who has played no puzzle.
pub(crate) const START: i32 = 1500;
/// How far one puzzle moves the rating at most.
pub(crate) const K: f64 = 32.0;
/// The rating stays within these bounds.
pub(crate) const LOWEST: i32 = 100;
pub(crate) const HIGHEST: i32 = 3500;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleProgress {
    pub(crate) rating: i32,
    /// Each puzzle played, by id: solved or not.
    pub played: BTreeMap<String, bool>,
}

impl Default for PuzzleProgress {
    fn default() -> Self {
        PuzzleProgress {
            rating: START,
            played: BTreeMap::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleProgressError {
    #[error("larger than {MAX_BYTES} bytes")]
    TooLarge,
    #[error("not a puzzle record of this version (the first line is not \"{MAGIC}\")")]
    Version,
    #[error("line {0} cannot be read")]
    Malformed(usize),
}

/// The rating after a puzzle of `puzzle` rating, solved or not.
pub(crate) fn next_rating(player: i32, puzzle: u32, solved: bool) -> i32 {
    let diff = f64::from(
        i32::try_from(puzzle)
            .unwrap_or(i32::MAX)
            .saturating_sub(player),
    );
    let expected = 1.0 / (1.0 + 10f64.powf(diff / 400.0));
    let score = if solved { 1.0 } else { 0.0 };
    let change = (K * (score - expected)).round();
    #[expect(
        clippy::cast_possible_truncation,
        reason = "within ±K: the cast cannot overflow"
    )]
    let change = change as i32;
    player.saturating_add(change).clamp(LOWEST, HIGHEST)
}

impl PuzzleProgress {
    /// Records a puzzle played; returns the rating's change.
    pub(crate) fn record(&mut self, id: &str, puzzle_rating: u32, solved: bool) -> i32 {
        let before = self.rating;
        self.rating = next_rating(self.rating, puzzle_rating, solved);
        self.played.insert(id.to_string(), solved);
        self.rating - before
    }

    pub(crate) fn encode(&self) -> String {
        let mut out = format!("{MAGIC}\nrating {}\n", self.rating);
        for (id, solved) in &self.played {
            out.push_str(&format!("{id} {}\n", u8::from(*solved)));
        }
        out
    }

    pub fn decode(text: &str) -> Result<PuzzleProgress, PuzzleProgressError> {
        if text.len() > MAX_BYTES {
            return Err(PuzzleProgressError::TooLarge);
        }
        let mut rows = text.lines();
        if rows.next() != Some(MAGIC) {
            return Err(PuzzleProgressError::Version);
        }
        let rating = rows
            .next()
            .and_then(|r| r.strip_prefix("rating "))
            .and_then(|r| r.parse::<i32>().ok())
            .filter(|r| (LOWEST..=HIGHEST).contains(r))
            .ok_or(PuzzleProgressError::Malformed(2))?;
        let mut played = BTreeMap::new();
        for (i, row) in rows.enumerate() {
            let bad = PuzzleProgressError::Malformed(i + 3);
            let (id, solved) = row.split_once(' ').ok_or(bad.clone())?;
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(bad);
            }
            let solved = match solved {
                "1" => true,
                "0" => false,
                _ => return Err(bad),
            };
            played.insert(id.to_string(), solved);
        }
        Ok(PuzzleProgress { rating, played })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rating_follows_the_results() {
        assert_eq!(next_rating(1500, 1500, true), 1516);
        assert_eq!(next_rating(1500, 1500, false), 1484);
        // A much harder puzzle solved moves it more than an easy one.
        assert!(next_rating(1500, 2000, true) > next_rating(1500, 1000, true));
        assert_eq!(next_rating(LOWEST, 3000, false), LOWEST);
    }

    #[test]
    fn progress_reads_back_and_damage_is_refused() {
        let mut p = PuzzleProgress::default();
        assert_eq!(p.record("000tp", 1500, true), 16);
        p.record("00LII", 1500, false);
        let text = p.encode();
        assert_eq!(text, "hector-puzzles 1\nrating 1499\n000tp 1\n00LII 0\n");
        assert_eq!(PuzzleProgress::decode(&text), Ok(p));
        assert_eq!(
            PuzzleProgress::decode("hector-puzzles 2\n"),
            Err(PuzzleProgressError::Version)
        );
        assert_eq!(
            PuzzleProgress::decode("hector-puzzles 1\nrating x\n"),
            Err(PuzzleProgressError::Malformed(2))
        );
        assert_eq!(
            PuzzleProgress::decode("hector-puzzles 1\nrating 1500\nab 2\n"),
            Err(PuzzleProgressError::Malformed(3))
        );
    }

    proptest::proptest! {
        #[test]
        fn any_text_never_panics(text in "\\PC{0,200}") {
            let _ = PuzzleProgress::decode(&format!("{MAGIC}\nrating 1500\n{text}"));
        }
    }
}
