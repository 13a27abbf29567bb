//! The puzzle set shipped in assets/puzzles (lichess's CC0 puzzle database; see its README),
//! read by column names, every puzzle replayed: a row that does not replay is left out.

use shakmaty::{CastlingMode, Chess, Color, Move, Position, fen::Fen, uci::UciMove};

/// The shipped set, embedded.
pub const SHIPPED: &str = include_str!("../../../assets/puzzles/puzzles.csv");

/// One puzzle: the position the player solves (after the opponent's first move), the
/// opponent's move that led there, and the solution with the opponent's replies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub id: String,
    /// The position before the opponent's move (the export's FEN).
    pub(crate) before: Chess,
    /// The opponent's move, then the solution: the solver's moves and the replies, the last
    /// one the solver's.
    pub(crate) moves: Vec<Move>,
    pub(crate) rating: u32,
    /// lichess's theme keys ("fork", "mateIn2").
    pub(crate) themes: Vec<String>,
}

impl Puzzle {
    /// The position the player solves.
    pub fn start(&self) -> Chess {
        let mut pos = self.before.clone();
        if let Some(&m) = self.moves.first() {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The side that solves.
    pub fn solver(&self) -> Color {
        !self.before.turn()
    }

    pub(crate) fn has_theme(&self, key: &str) -> bool {
        self.themes.iter().any(|t| t == key)
    }
}

/// Reads a puzzle CSV in lichess's columns (a header line naming PuzzleId, FEN, Moves,
/// Rating and Themes, in any order, other columns ignored); rows that cannot be read or do
/// not replay are left out.
pub fn read(text: &str) -> Vec<Puzzle> {
    let mut rows = text.lines();
    let Some(header) = rows.next() else {
        return Vec::new();
    };
    let names: Vec<&str> = header.trim().split(',').collect();
    let col = |name: &str| names.iter().position(|n| *n == name);
    let (Some(id), Some(fen), Some(moves), Some(rating), Some(themes)) = (
        col("PuzzleId"),
        col("FEN"),
        col("Moves"),
        col("Rating"),
        col("Themes"),
    ) else {
        return Vec::new();
    };
    rows.filter_map(|row| {
        let fields: Vec<&str> = row.trim_end().split(',').collect();
        let get = |i: usize| fields.get(i).copied();
        puzzle(get(id)?, get(fen)?, get(moves)?, get(rating)?, get(themes)?)
    })
    .collect()
}

fn puzzle(id: &str, fen: &str, moves: &str, rating: &str, themes: &str) -> Option<Puzzle> {
    if id.is_empty() || id.len() > 16 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let before: Chess = fen
        .parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()?;
    let mut pos = before.clone();
    let mut line = Vec::new();
    for word in moves.split_whitespace() {
        let m = word.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
        line.push(m);
    }
    // The opponent's move and at least one of the solver's; the last move is the solver's.
    if line.len() < 2 || line.len() % 2 != 0 {
        return None;
    }
    Some(Puzzle {
        id: id.to_string(),
        before,
        moves: line,
        rating: rating.parse().ok()?,
        themes: themes.split_whitespace().map(str::to_string).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_puzzle_replays() {
        let rows = SHIPPED.lines().count() - 1;
        let set = read(SHIPPED);
        assert_eq!(set.len(), rows);
        assert!(rows >= 3000);
        let first = &set[0];
        assert_eq!(first.id, "000tp");
        assert_eq!(first.rating, 2038);
        assert_eq!(first.solver(), Color::Black);
        assert!(first.has_theme("trappedPiece"));
    }

    #[test]
    fn columns_are_read_by_name_and_bad_rows_left_out() {
        let text = "Rating,PuzzleId,Themes,FEN,Moves,DailyDate\n\
            1500,abc,fork,4r3/5pk1/1p3np1/3p3p/2qQ4/P4N1P/1P3RP1/7K w - - 6 34,d4b6 f6e4 h1g1 e4f2,\n\
            1500,odd,fork,4r3/5pk1/1p3np1/3p3p/2qQ4/P4N1P/1P3RP1/7K w - - 6 34,d4b6 f6e4 h1g1,\n\
            1500,bad,fork,4r3/5pk1/1p3np1/3p3p/2qQ4/P4N1P/1P3RP1/7K w - - 6 34,d4b6 e1e2,\n\
            x,num,fork,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,\n";
        let set = read(text);
        assert_eq!(set.len(), 1);
        assert_eq!(set[0].id, "abc");
        assert!(read("").is_empty());
        assert!(read("a,b\n1,2").is_empty());
    }

    proptest::proptest! {
        #[test]
        fn any_text_never_panics(text in "\\PC{0,300}") {
            let _ = read(&format!("PuzzleId,FEN,Moves,Rating,Themes\n{text}"));
        }
    }
}
