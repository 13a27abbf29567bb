//! The analysis of a recorded game as it is kept next to its journal, so that a game is
//! judged once: a small versioned text file, one line per position. The game's moves are
//! written in it too: a journal continued after its analysis no longer matches and is
//! judged again. Anything that does not read back exactly is refused with the reason.
//!
//! ```text
//! hector-analysis 1
//! game e2e4 e7e5 d1h5
//! search depth 14 ms 1000
//! cp 30 e2e4 e2e4 e7e5 g1f3
//! mate -2 …
//! over white
//! ```

use shakmaty::{Chess, Color, Move, Position, uci::UciMove};

use super::{Eval, PositionEval};

/// The first line, with the format's version.
pub(crate) const MAGIC: &str = "hector-analysis 1";
/// A file larger than this is no analysis of hector's (a game of 2,000 half-moves with its
/// lines stays far below).
pub const MAX_BYTES: usize = 1 << 20;
/// At most this many half-moves.
pub(crate) const MAX_PLIES: usize = 4000;

/// What the engine said about each position of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    /// How long the engine looked: an analysis is used again only for the same search.
    pub search: Search,
    pub evals: Vec<PositionEval>,
    /// The engine's line from each position, its best move first (empty when over).
    pub lines: Vec<Vec<Move>>,
}

/// The engine's limits per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    pub depth: Option<u32>,
    pub millis: u64,
}

/// Why a kept analysis is not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("larger than {MAX_BYTES} bytes")]
    TooLarge,
    #[error("not an analysis of this version (the first line is not \"{MAGIC}\")")]
    Version,
    #[error("line {0} cannot be read")]
    Malformed(usize),
    #[error("it is the analysis of other moves (the game went on since)")]
    Stale,
    #[error("{got} positions judged for {moves} half-moves")]
    Count { got: usize, moves: usize },
}

fn uci(mv: Move) -> String {
    // King takes rook: read back in both castling modes.
    mv.to_uci(shakmaty::CastlingMode::Chess960).to_string()
}

/// The file's text for the game from `start` with `moves`, judged as `stored`.
pub fn encode(moves: &[Move], stored: &Stored) -> String {
    let mut out = String::with_capacity(64 + 48 * stored.evals.len());
    out.push_str(MAGIC);
    out.push_str("\ngame");
    for &mv in moves {
        out.push(' ');
        out.push_str(&uci(mv));
    }
    let depth = stored
        .search
        .depth
        .map_or("-".to_string(), |d| d.to_string());
    out.push_str(&format!(
        "\nsearch depth {depth} ms {}\n",
        stored.search.millis
    ));
    for (i, pe) in stored.evals.iter().enumerate() {
        match pe.eval {
            Eval::Centipawns(cp) => out.push_str(&format!("cp {cp}")),
            Eval::Mate(n) => out.push_str(&format!("mate {n}")),
            Eval::Over(Some(Color::White)) => out.push_str("over white"),
            Eval::Over(Some(Color::Black)) => out.push_str("over black"),
            Eval::Over(None) => out.push_str("over draw"),
        }
        // The line begins with the best move; without a line, the best move alone.
        let line = match (stored.lines.get(i), pe.best) {
            (Some(line), Some(best)) if line.first() == Some(&best) => line.clone(),
            (_, best) => best.into_iter().collect(),
        };
        for mv in line {
            out.push(' ');
            out.push_str(&uci(mv));
        }
        out.push('\n');
    }
    out
}

/// Reads a kept analysis of the game from `start` with `moves`: every move checked legal
/// where it stands, the game's moves the same.
pub fn decode(text: &str, start: &Chess, moves: &[Move]) -> Result<Stored, StoreError> {
    if text.len() > MAX_BYTES {
        return Err(StoreError::TooLarge);
    }
    let mut rows = text.lines();
    if rows.next() != Some(MAGIC) {
        return Err(StoreError::Version);
    }
    check_game(rows.next(), moves)?;
    let search = read_search(rows.next())?;
    let mut pos = start.clone();
    let mut evals = Vec::with_capacity(moves.len() + 1);
    let mut lines = Vec::with_capacity(moves.len() + 1);
    for (i, row) in rows.enumerate() {
        let number = i + 4;
        if evals.len() > moves.len() {
            return Err(StoreError::Count {
                got: evals.len() + 1,
                moves: moves.len(),
            });
        }
        let (eval, line) = read_row(row, number, &pos)?;
        evals.push(PositionEval {
            eval,
            best: line.first().copied(),
        });
        lines.push(line);
        if let Some(&mv) = moves.get(evals.len() - 1) {
            if !pos.is_legal(mv) {
                return Err(StoreError::Stale);
            }
            pos.play_unchecked(mv);
        }
    }
    if evals.len() != moves.len() + 1 {
        return Err(StoreError::Count {
            got: evals.len(),
            moves: moves.len(),
        });
    }
    Ok(Stored {
        search,
        evals,
        lines,
    })
}

/// The file's second row: the game it judges, move by move the game given.
fn check_game(row: Option<&str>, moves: &[Move]) -> Result<(), StoreError> {
    let game = row.ok_or(StoreError::Malformed(2))?;
    let mut words = game.split(' ');
    if words.next() != Some("game") {
        return Err(StoreError::Malformed(2));
    }
    let played: Vec<&str> = words.filter(|w| !w.is_empty()).collect();
    if played.len() > MAX_PLIES {
        return Err(StoreError::TooLarge);
    }
    if played.len() != moves.len() || played.iter().zip(moves).any(|(w, m)| *w != uci(*m)) {
        return Err(StoreError::Stale);
    }
    Ok(())
}

/// The file's third row: how deep or how long the engine searched.
fn read_search(row: Option<&str>) -> Result<Search, StoreError> {
    match row.map(|r| r.split(' ').collect::<Vec<_>>()).as_deref() {
        Some(["search", "depth", depth, "ms", ms]) => Ok(Search {
            depth: match *depth {
                "-" => None,
                d => Some(d.parse().map_err(|_| StoreError::Malformed(3))?),
            },
            millis: ms.parse().map_err(|_| StoreError::Malformed(3))?,
        }),
        _ => Err(StoreError::Malformed(3)),
    }
}

/// One position's row, file row `number`: its evaluation and the engine's line from `pos`,
/// every move legal where it stands.
fn read_row(row: &str, number: usize, pos: &Chess) -> Result<(Eval, Vec<Move>), StoreError> {
    let bad = || StoreError::Malformed(number);
    let mut words = row.split(' ');
    let eval = match (words.next(), words.next()) {
        (Some("cp"), Some(n)) => Eval::Centipawns(n.parse().map_err(|_| bad())?),
        (Some("mate"), Some(n)) => Eval::Mate(n.parse().map_err(|_| bad())?),
        (Some("over"), Some("white")) => Eval::Over(Some(Color::White)),
        (Some("over"), Some("black")) => Eval::Over(Some(Color::Black)),
        (Some("over"), Some("draw")) => Eval::Over(None),
        _ => return Err(bad()),
    };
    let mut line = Vec::new();
    let mut at = pos.clone();
    for w in words {
        let mv = w
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&at).ok())
            .ok_or_else(bad)?;
        if line.len() > 64 {
            return Err(bad());
        }
        at.play_unchecked(mv);
        line.push(mv);
    }
    Ok((eval, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn game() -> Game {
        let mut g = Game::default();
        for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
            g.play_san(san).expect("legal");
        }
        g
    }

    fn moves(g: &Game) -> Vec<Move> {
        g.moves().iter().map(|p| p.mv).collect()
    }

    fn judged(g: &Game) -> Stored {
        let mut evals = Vec::new();
        let mut lines = Vec::new();
        for (i, p) in g.moves().iter().enumerate() {
            let eval = if i == 6 {
                Eval::Mate(1)
            } else {
                Eval::Centipawns(30 - 7 * i as i32)
            };
            evals.push(PositionEval {
                eval,
                best: Some(p.mv),
            });
            let mut line = vec![p.mv];
            if let Some(next) = g.moves().get(i + 1) {
                line.push(next.mv);
            }
            lines.push(line);
        }
        evals.push(PositionEval {
            eval: Eval::Over(Some(Color::White)),
            best: None,
        });
        lines.push(Vec::new());
        Stored {
            search: Search {
                depth: Some(14),
                millis: 1000,
            },
            evals,
            lines,
        }
    }

    #[test]
    fn an_analysis_reads_back_as_written() {
        let g = game();
        let stored = judged(&g);
        let text = encode(&moves(&g), &stored);
        assert!(
            text.starts_with("hector-analysis 1\ngame e2e4 e7e5 d1h5"),
            "{text}"
        );
        assert_eq!(decode(&text, g.start(), &moves(&g)), Ok(stored));
    }

    #[test]
    fn what_does_not_fit_is_refused_with_its_reason() {
        let g = game();
        let m = moves(&g);
        let text = encode(&m, &judged(&g));
        let start = g.start();
        assert_eq!(
            decode(&text.replace("analysis 1", "analysis 9"), start, &m),
            Err(StoreError::Version)
        );
        assert_eq!(decode(&text, start, &m[..6]), Err(StoreError::Stale));
        assert_eq!(
            decode(&text.replace("cp 30", "cp x"), start, &m),
            Err(StoreError::Malformed(4))
        );
        // A move of a line that is not legal where it stands.
        assert_eq!(
            decode(&text.replace("cp 30 e2e4", "cp 30 e2e5"), start, &m),
            Err(StoreError::Malformed(4))
        );
        assert_eq!(
            decode(&text.replace("ms 1000", "ms"), start, &m),
            Err(StoreError::Malformed(3))
        );
        let cut: String = text.lines().take(6).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            decode(&cut, start, &m),
            Err(StoreError::Count { got: 3, moves: 7 })
        );
        let long = format!("{text}over draw\n");
        assert!(matches!(
            decode(&long, start, &m),
            Err(StoreError::Count { .. })
        ));
        assert_eq!(
            decode(&"x".repeat(MAX_BYTES + 1), start, &m),
            Err(StoreError::TooLarge)
        );
        assert_eq!(decode("", start, &m), Err(StoreError::Version));
    }
}
