//! `hector analyse`: a recorded game or a PGN game judged by the engine, position by
//! position; the words and the PGN come from `core::analysis`, this only asks the engine.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;
use shakmaty::{Chess, Move, Position};

use crate::app::services::output::Out;
use crate::core::analysis::pgn::{Tags, annotated_pgn};
use crate::core::analysis::{Eval, PositionEval, report_lines, review};
use crate::core::notation::language::{Language, counted, fill};
use crate::core::notation::printable;
use crate::core::notation::speak::Form;
use crate::core::record::export::pgn_date;
use crate::core::variant::Variant;
use crate::io::engine::{Engine, EngineEvent, EngineOptions, MAX_LEVEL, Timeouts};
use crate::io::speech::{Kind, Speaker};

use crate::app::services::engine_words::{DEFAULT_CAP, DEFAULT_DEPTH};

/// The longest one position may take with `--depth` and no `--movetime`.
pub const DEPTH_CAP: Duration = Duration::from_secs(60);

/// What `hector analyse` is asked for, resolved from the command line.
#[derive(Debug)]
pub struct AnalyseOptions {
    /// The game: its number in hector games, a journal file, or a PGN file.
    pub game: String,
    /// Which game of a PGN file (GAME is then read as PGN).
    pub pgn_game: Option<u64>,
    /// Only the turning points.
    pub errors: bool,
    /// Annotated PGN instead of sentences.
    pub pgn: bool,
    /// Where the PGN goes instead of standard output.
    pub output: Option<PathBuf>,
    pub depth: Option<u32>,
    pub movetime: Option<u64>,
    /// The engine when it is not stockfish.
    pub engine: Option<PathBuf>,
    pub form: Form,
}

/// What the engine is asked to do per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    pub depth: Option<u32>,
    pub movetime: Duration,
}

impl Search {
    pub fn from_options(depth: Option<u32>, movetime_ms: Option<u64>) -> Search {
        match (depth, movetime_ms) {
            (None, None) => Search {
                depth: Some(DEFAULT_DEPTH),
                movetime: DEFAULT_CAP,
            },
            (depth, Some(ms)) => Search {
                depth,
                movetime: Duration::from_millis(ms),
            },
            (Some(d), None) => Search {
                depth: Some(d),
                movetime: DEPTH_CAP,
            },
        }
    }
}

/// A game to judge, from a journal or a PGN file.
struct Loaded {
    start: Chess,
    moves: Vec<Move>,
    tags: Tags,
}

/// A PGN file, not a journal: named `.pgn` (also `.pgn.gz`, `.pgn.zst`, `.pgn.bz2`), or
/// compressed (a journal never is).
fn is_pgn_path(game: &str) -> bool {
    let path = Path::new(game);
    let named = |p: &Path| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let compressed_name = path.extension().is_some_and(|e| {
        ["gz", "zst", "zstd", "bz2"]
            .iter()
            .any(|c| e.eq_ignore_ascii_case(c))
    });
    named(path)
        || (compressed_name && path.file_stem().is_some_and(|s| named(Path::new(s))))
        || crate::io::files::looks_compressed(path)
}

fn load(game: &str, pgn_game: Option<u64>, lang: &Language) -> Result<Loaded, ExitCode> {
    if pgn_game.is_some() || is_pgn_path(game) {
        let number = usize::try_from(pgn_game.unwrap_or(1)).unwrap_or(usize::MAX);
        // Compressed or not, streamed: a game too long to keep is refused, never judged empty.
        let imported = match crate::io::pgn_stream::import_from(Path::new(game), number) {
            Ok(imported) => imported,
            Err(crate::io::pgn_stream::GameFromFile::Read(e)) => {
                errln!("hector analyse: {}", printable(&crate::io::error_chain(&e)));
                return Err(ExitCode::from(2));
            }
            Err(crate::io::pgn_stream::GameFromFile::Import(e)) => {
                errln!("hector analyse: {}: {e}", printable(game));
                return Err(ExitCode::from(1));
            }
        };
        let t = &imported.tags;
        let g = &imported.game;
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let result = t.result.or_else(|| g.result());
        return Ok(Loaded {
            start: g.start().clone(),
            moves: g.moves().iter().map(|p| p.mv).collect(),
            tags: Tags {
                event: text(&t.event),
                site: text(&t.site),
                date: text(&t.date),
                round: text(&t.round),
                white: text(&t.white),
                black: text(&t.black),
                result: result.map_or("*", |r| r.pgn()).to_string(),
                chess960: g.variant() == Variant::Chess960,
            },
        });
    }
    let path = crate::app::services::games::resolve_for("hector analyse", game, lang)?;
    let salvaged = crate::app::services::games::load_for("hector analyse", &path, lang)?;
    let h = &salvaged.header;
    let g = &salvaged.replayed.game;
    Ok(Loaded {
        start: g.start().clone(),
        moves: g.moves().iter().map(|p| p.mv).collect(),
        tags: Tags {
            event: h.event.clone(),
            site: h.site.clone(),
            date: pgn_date(&h.created),
            round: h.round.clone(),
            white: h.white.clone(),
            black: h.black.clone(),
            result: g.result().map_or("*", |r| r.pgn()).to_string(),
            chess960: g.variant() == Variant::Chess960,
        },
    })
}

/// The engine's evaluation of every position of the game, the start included.
fn evaluate(
    engine: &mut Engine,
    loaded: &Loaded,
    search: Search,
    lang: &Language,
) -> Result<Vec<PositionEval>, String> {
    let timeouts = Timeouts::default();
    // The engine's own watchdog answers before this; it is only the last resort.
    let patience = search.movetime + timeouts.grace + timeouts.stop_grace + Duration::from_secs(2);
    let mut pos = loaded.start.clone();
    let mut evals = Vec::with_capacity(loaded.moves.len() + 1);
    for i in 0..=loaded.moves.len() {
        if let Some(eval) = Eval::of_finished(&pos) {
            evals.push(PositionEval { eval, best: None });
        } else {
            let asked = engine
                .request_analysis(
                    &loaded.start,
                    &loaded.moves[..i],
                    search.depth,
                    search.movetime,
                )
                .map_err(|e| crate::app::services::engine_words::engine_error_text(&e, lang))?;
            let turn = pos.turn();
            loop {
                match engine.events().recv_timeout(patience) {
                    Ok(EngineEvent::Analysis {
                        request,
                        best,
                        score,
                    }) if request == asked => {
                        evals.push(PositionEval {
                            eval: crate::app::services::engine_words::eval_of(score, turn),
                            best: Some(best),
                        });
                        break;
                    }
                    Ok(EngineEvent::Rejected { answer, .. }) => {
                        return Err(crate::app::services::engine_words::engine_illegal(
                            &answer, lang,
                        ));
                    }
                    Ok(EngineEvent::Timeout { waited, .. }) => {
                        return Err(crate::app::services::engine_words::engine_hung(
                            waited, lang,
                        ));
                    }
                    Ok(EngineEvent::Died { how, .. }) => {
                        return Err(crate::app::services::engine_words::engine_ending(how, lang));
                    }
                    // Answers to nothing asked now.
                    Ok(_) => {}
                    Err(RecvTimeoutError::Timeout) => {
                        return Err(crate::app::services::engine_words::engine_hung(
                            patience, lang,
                        ));
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(lang.play.engine_closed.clone());
                    }
                }
            }
        }
        if let Some(&mv) = loaded.moves.get(i) {
            pos.play_unchecked(mv);
        }
    }
    Ok(evals)
}

/// `hector analyse`. Exit status 0; 1 when the game cannot be read or the engine fails; 2
/// when there is no such game or the output cannot be written.
pub fn run(args: &AnalyseOptions, lang: &Language, speaker: Option<Speaker>) -> ExitCode {
    let loaded = match load(&args.game, args.pgn_game, lang) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let form = args.form;
    let search = Search::from_options(args.depth, args.movetime);
    let mut out = Out::new();
    let say = |out: &mut Out, text: &str| {
        if let Some(s) = &speaker {
            s.say(Kind::Move, text);
        }
        out.line(text)
    };
    let fail = |text: String| {
        let line = fill(&lang.analysis.engine_failed, &[("reason", &text)]);
        if let Some(s) = &speaker {
            s.say(Kind::Urgent, line.as_str());
            s.wait_idle(Duration::from_secs(10));
        }
        errln!("hector analyse: {line}");
        ExitCode::from(1)
    };
    let opts = EngineOptions {
        path: args.engine.clone(),
        level: MAX_LEVEL,
        chess960: loaded.tags.chess960,
    };
    let mut engine = match Engine::start(&opts) {
        Ok(e) => e,
        Err(e) => {
            return fail(crate::app::services::engine_words::engine_error_text(
                &e, lang,
            ));
        }
    };
    if !args.pgn {
        let plies = loaded.moves.len();
        let black_first = usize::from(loaded.start.turn() == shakmaty::Color::Black);
        let moves = u64::try_from((plies + black_first).div_ceil(2)).unwrap_or(u64::MAX);
        let intro = fill(
            &lang.analysis.analysing,
            &[
                ("engine", &printable(engine.name())),
                ("moves", &counted(&lang.record.moves, moves)),
            ],
        );
        say(&mut out, &intro);
        out.flush();
    }
    let evals = match evaluate(&mut engine, &loaded, search, lang) {
        Ok(e) => e,
        Err(reason) => return fail(reason),
    };
    drop(engine);
    let judged = match review(&loaded.start, &loaded.moves, &evals) {
        Ok(r) => r,
        Err(e) => return fail(e.to_string()),
    };
    if args.pgn {
        let text = annotated_pgn(&loaded.tags, &judged);
        match &args.output {
            Some(file) => match crate::io::output_file::write_output(file, text.as_bytes()) {
                Ok(written) => {
                    out.line(&fill(
                        &lang.record.written,
                        &[("file", &written.display().to_string())],
                    ));
                }
                Err(e) => {
                    errln!(
                        "hector analyse: {}",
                        crate::app::services::games::output_problem(&e, lang)
                    );
                    return ExitCode::from(2);
                }
            },
            None => {
                out.write_raw(&text);
            }
        }
    } else {
        let lines = report_lines(&judged, args.errors, lang, form);
        for line in &lines {
            if !say(&mut out, line) {
                break;
            }
        }
        if let Some(s) = &speaker {
            // Everything is said before hector ends; a long game takes a while.
            let limit = Duration::from_secs(10)
                .saturating_mul(u32::try_from(lines.len()).unwrap_or(u32::MAX));
            s.wait_idle(limit);
        }
    }
    out.finish(
        "hector analyse",
        &lang.messages.output_failed,
        ExitCode::SUCCESS,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_limits_from_the_options() {
        assert_eq!(
            Search::from_options(None, None),
            Search {
                depth: Some(DEFAULT_DEPTH),
                movetime: DEFAULT_CAP
            }
        );
        assert_eq!(
            Search::from_options(None, Some(50)),
            Search {
                depth: None,
                movetime: Duration::from_millis(50)
            }
        );
        assert_eq!(
            Search::from_options(Some(20), None),
            Search {
                depth: Some(20),
                movetime: DEPTH_CAP
            }
        );
        assert!(is_pgn_path("games/x.PGN"));
        assert!(!is_pgn_path("3"));
    }
}
