//! Puzzles from lichess's API (`/api/puzzle/daily`, `/api/puzzle/next`: `PuzzleAndGame` in
//! lichess-org/api f59dc80) read into the same [`Puzzle`] as the shipped set, and the answer
//! to a recorded result (`POST /api/puzzle/batch/{angle}`).
//!
//! The API differs from the CSV: the game's PGN (SAN moves without numbers) leads to the
//! puzzle's position, its last move (ply `initialPly`, counted from 0) is the opponent's,
//! and `solution` starts with the solver's move. So the position before that last ply and
//! the ply itself are the CSV's FEN and first move.

use serde::Deserialize;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use super::set::Puzzle;

/// Why an answer is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OnlineError {
    #[error("not a puzzle answer: {0}")]
    Json(String),
    #[error("the game's move {0} cannot be played")]
    GameMove(String),
    #[error("the solution's move {0} cannot be played")]
    SolutionMove(String),
    #[error("the game has fewer moves than the puzzle's start")]
    Short,
    #[error("the puzzle's id is not one lichess gives")]
    Id,
}

#[derive(Deserialize)]
struct Answer {
    game: GameJson,
    puzzle: PuzzleJson,
}

#[derive(Deserialize)]
struct GameJson {
    pgn: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PuzzleJson {
    id: String,
    initial_ply: usize,
    rating: u32,
    solution: Vec<String>,
    themes: Vec<String>,
}

/// The puzzle of a `PuzzleAndGame` answer.
pub fn puzzle_of(json: &str) -> Result<Puzzle, OnlineError> {
    let answer: Answer =
        serde_json::from_str(json).map_err(|e| OnlineError::Json(e.to_string()))?;
    let p = answer.puzzle;
    if p.id.is_empty() || p.id.len() > 16 || !p.id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(OnlineError::Id);
    }
    // Move numbers and a result, should a PGN carry them, are not moves.
    let words = answer
        .game
        .pgn
        .split_whitespace()
        .filter(|w| !w.ends_with('.') && !matches!(*w, "1-0" | "0-1" | "1/2-1/2" | "*"));
    let mut pos = Chess::default();
    let mut before = pos.clone();
    let mut last = None;
    for (ply, word) in words.enumerate().take(p.initial_ply.saturating_add(1)) {
        let m = word
            .parse::<San>()
            .ok()
            .and_then(|san| san.to_move(&pos).ok())
            .ok_or_else(|| OnlineError::GameMove(word.chars().take(12).collect()))?;
        before = pos.clone();
        pos.play_unchecked(m);
        last = Some((ply, m));
    }
    let Some((_, opponent)) = last.filter(|(ply, _)| *ply == p.initial_ply) else {
        return Err(OnlineError::Short);
    };
    let mut moves = vec![opponent];
    for word in &p.solution {
        let m = word
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .ok_or_else(|| OnlineError::SolutionMove(word.chars().take(12).collect()))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    // The solver's move first and last.
    if moves.len() < 2 || moves.len() % 2 != 0 {
        return Err(OnlineError::SolutionMove(String::new()));
    }
    Ok(Puzzle {
        id: p.id,
        before,
        moves,
        rating: p.rating,
        themes: p.themes,
    })
}

/// The body that records one result: `{"solutions":[{"id","win","rated"}]}`.
pub fn result_body(id: &str, win: bool) -> String {
    serde_json::json!({ "solutions": [{ "id": id, "win": win, "rated": true }] }).to_string()
}

#[derive(Deserialize)]
struct Solved {
    glicko: Option<Glicko>,
}

#[derive(Deserialize)]
struct Glicko {
    rating: f64,
}

/// The player's puzzle rating in the answer to a recorded result, when lichess gives it.
pub fn rating_of(json: &str) -> Option<u32> {
    let solved: Solved = serde_json::from_str(json).ok()?;
    let r = solved.glicko?.rating;
    (r.is_finite() && (0.0..10_000.0).contains(&r)).then(|| r.round() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Color, EnPassantMode};

    /// The daily puzzle of the spec's example (puzzles-getDailyPuzzle).
    const DAILY: &str = r#"{"game":{"id":"bcZBqQrZ","perf":{"key":"rapid","name":"Rapid"},"rated":true,"players":[{"name":"StourKwn","id":"stourkwn","color":"white","rating":1898},{"name":"Jaraxis","id":"jaraxis","color":"black","rating":1837}],"pgn":"g3 e5 Bg2 d5 d3 Nc6 c4 Be6 Nc3 Nf6 Nf3 Qd7 Bg5 Be7 cxd5 Nxd5 Bxe7 Qxe7 O-O O-O-O Qc2 g5 Nxd5 Bxd5 e4 Be6 a3 f5 Rac1 Nd4 Nxd4 Rxd4 exf5 Bxf5 Rfd1 Rhd8 Qb3 c6 Rc3 h5 Rdc1 R8d6 Qg8+ Rd8 Qb3 R8d6 a4 Rxd3 Rxd3 Rxd3 Qc4 e4 a5 a6 Re1 Qe5 Bxe4 Bxe4","clock":"10+0"},"puzzle":{"id":"IFy4T","rating":1869,"plays":42035,"solution":["c4d3","e4d3","e1e5"],"themes":["endgame","crushing","short"],"fen":"2k5/1p6/p1p5/P3q1pp/2Q1b3/3r2P1/1P3P1P/4R1K1 w - - 0 1","lastMove":"f5e4","initialPly":57}}"#;

    #[test]
    fn the_daily_example_is_the_position_its_fen_names() {
        let p = puzzle_of(DAILY).unwrap();
        assert_eq!(p.id, "IFy4T");
        assert_eq!(p.rating, 1869);
        assert_eq!(p.moves.len(), 4);
        assert_eq!(p.solver(), Color::White);
        let fen = Fen::from_position(&p.start(), EnPassantMode::Legal).to_string();
        assert!(
            fen.starts_with("2k5/1p6/p1p5/P3q1pp/2Q1b3/3r2P1/1P3P1P/4R1K1 w"),
            "{fen}"
        );
        // lastMove in the example.
        assert_eq!(
            p.moves[0].to_uci(CastlingMode::Standard).to_string(),
            "f5e4"
        );
        assert!(p.has_theme("crushing"));
    }

    #[test]
    fn broken_answers_are_refused_with_the_reason() {
        assert!(matches!(puzzle_of("{"), Err(OnlineError::Json(_))));
        assert!(matches!(
            puzzle_of(&DAILY.replace("\"initialPly\":57", "\"initialPly\":80")),
            Err(OnlineError::Short)
        ));
        assert!(matches!(
            puzzle_of(&DAILY.replace("Bxe4\",", "Kxe4\",")),
            Err(OnlineError::GameMove(_))
        ));
        assert!(matches!(
            puzzle_of(&DAILY.replace("c4d3", "c4c8")),
            Err(OnlineError::SolutionMove(_))
        ));
        assert!(matches!(
            puzzle_of(&DAILY.replace("\"e1e5\"]", "\"e1e5\",\"c8b8\"]")),
            Err(OnlineError::SolutionMove(_))
        ));
        assert!(matches!(
            puzzle_of(&DAILY.replace("IFy4T", "../x")),
            Err(OnlineError::Id)
        ));
    }

    #[test]
    fn the_result_body_and_the_rating_in_the_answer() {
        let body: serde_json::Value = serde_json::from_str(&result_body("IFy4T", false)).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"solutions": [{"id": "IFy4T", "win": false, "rated": true}]})
        );
        let answer = r#"{"puzzles":[],"glicko":{"rating":1663.73,"deviation":91.04},"rounds":[{"id":"8KtG9","win":true,"ratingDiff":14}]}"#;
        assert_eq!(rating_of(answer), Some(1664));
        assert_eq!(rating_of(r#"{"puzzles":[]}"#), None);
        assert_eq!(rating_of("nonsense"), None);
    }

    proptest::proptest! {
        #[test]
        fn any_text_never_panics(text in "\\PC{0,300}") {
            let _ = puzzle_of(&text);
            let _ = rating_of(&text);
        }
    }
}
