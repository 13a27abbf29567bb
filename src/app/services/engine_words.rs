//! The engine in the player's words: its scores as evaluations, its failures as sentences,
//! and how deep it looks by default; for play (bewertung, tipp, the opponent) and analyse.

use std::time::Duration;

use crate::core::analysis::Eval;
use crate::core::notation::printable;
use crate::core::notation::{Language, fill};
use crate::io::engine::{Ending, EngineError, Score, whole_seconds};

/// The search depth per position when neither `--depth` nor `--movetime` is given (and of
/// bewertung and tipp in play): a 40-move game takes about 10 seconds of Stockfish's time on
/// this machine (docs/BENCHMARKS.md).
pub(crate) const DEFAULT_DEPTH: u32 = 14;
/// The longest one position may take at the default depth.
pub(crate) const DEFAULT_CAP: Duration = Duration::from_secs(1);

/// The engine's score (counted from the side to move, `turn`) as an evaluation from White's
/// side; an engine that gave none: even (its move is still worth naming).
pub(crate) fn eval_of(score: Option<Score>, turn: shakmaty::Color) -> Eval {
    match score {
        Some(Score::Centipawns(cp)) => Eval::centipawns_for(turn, cp),
        Some(Score::Mate(n)) => Eval::mate_for(turn, n),
        None => Eval::Centipawns(0),
    }
}

/// An answer of the engine that is no legal move, in the language's words.
pub(crate) fn engine_illegal(answer: &str, lang: &Language) -> String {
    fill(&lang.play.engine_illegal, &[("answer", &printable(answer))])
}

/// The engine did not answer within `waited`, in the language's words.
pub(crate) fn engine_hung(waited: Duration, lang: &Language) -> String {
    fill(
        &lang.play.engine_hung,
        &[("seconds", &whole_seconds(waited).to_string())],
    )
}

/// How the engine ended, in the language's words.
pub(crate) fn engine_ending(how: Ending, lang: &Language) -> String {
    let p = &lang.play;
    match how {
        Ending::Exit(code) => fill(&p.engine_exited, &[("code", &code.to_string())]),
        Ending::Signal(signal) => fill(&p.engine_crashed, &[("signal", &signal.to_string())]),
        Ending::Status(code) => fill(
            &lang.windows.engine_crashed,
            &[("code", &format!("{code:#010X}"))],
        ),
        Ending::Closed => p.engine_closed.clone(),
        Ending::Overflow => p.engine_flooded.clone(),
    }
}

/// Why the engine cannot be started or asked, in the language's words.
pub(crate) fn engine_error_text(e: &EngineError, lang: &Language) -> String {
    let p = &lang.play;
    let path = |path: &std::path::Path| printable(&path.display().to_string()).into_owned();
    if cfg!(windows)
        && let Some(text) = windows_engine_error_text(e, lang)
    {
        return text;
    }
    match e {
        EngineError::NotFound { name, looked } => fill(
            &p.engine_not_found,
            &[("name", &printable(name)), ("looked", looked)],
        ),
        EngineError::Missing { path: at } => fill(&p.engine_missing, &[("path", &path(at))]),
        EngineError::NotExecutable { path: at, .. } => {
            fill(&p.engine_not_executable, &[("path", &path(at))])
        }
        EngineError::Spawn { reason, .. } => {
            fill(&p.engine_start_failed, &[("reason", &printable(reason))])
        }
        EngineError::Handshake {
            path: at, waited, ..
        } => fill(
            &p.engine_no_handshake,
            &[
                ("path", &path(at)),
                ("seconds", &whole_seconds(*waited).to_string()),
            ],
        ),
        EngineError::EndedEarly { path: at, .. } => {
            fill(&p.engine_ended_early, &[("path", &path(at))])
        }
        EngineError::NoChess960 { name } => {
            fill(&p.engine_no_chess960, &[("name", &printable(name))])
        }
        EngineError::NotChess960 => p.engine_not_chess960.clone(),
        EngineError::IllegalHistory { number } => {
            fill(&p.engine_bad_history, &[("number", &number.to_string())])
        }
        EngineError::NoLegalMove => p.engine_no_move.clone(),
        EngineError::Dead { .. } => p.engine_dead.clone(),
    }
}

/// The Windows build's words where the engine cannot be found or started: where to get
/// Stockfish and where to put it, instead of a Debian package.
fn windows_engine_error_text(e: &EngineError, lang: &Language) -> Option<String> {
    let w = &lang.windows;
    let path = |path: &std::path::Path| printable(&path.display().to_string()).into_owned();
    Some(match e {
        EngineError::NotFound { name, looked } => {
            let folder = crate::io::platform::folders::data()
                .map(|d| path(&d))
                .unwrap_or_default();
            fill(
                &w.engine_not_found,
                &[
                    ("name", &printable(name)),
                    ("looked", looked),
                    ("folder", &folder),
                ],
            )
        }
        EngineError::Missing { path: at } => fill(&w.engine_missing, &[("path", &path(at))]),
        EngineError::NotExecutable { path: at, .. } => {
            fill(&w.engine_not_executable, &[("path", &path(at))])
        }
        _ => return None,
    })
}
