//! `hector analyse`: a recorded game or a PGN game judged by the engine, position by
//! position; the words and the PGN come from `core::analysis`, this only asks the engine.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use crate::app::services::output::Out;
use crate::core::analysis::{PositionEval, report_lines, review};
use crate::core::analysis::{Tags, annotated_pgn};
use crate::core::notation::Form;
use crate::core::notation::printable;
use crate::core::notation::{Language, counted, fill};
use crate::core::record::pgn_date;
use crate::core::variant::Variant;
use crate::io::engine::Engine;
use crate::io::speech::{Kind, Speaker};

use crate::app::services::engine_words::{DEFAULT_CAP, DEFAULT_DEPTH};

/// The longest one position may take with `--depth` and no `--movetime`.
pub(crate) const DEPTH_CAP: Duration = Duration::from_secs(60);

/// What `hector analyse` is asked for, resolved from the command line.
#[derive(Debug)]
pub(crate) struct AnalyseOptions {
    /// The game: its number in hector games, a journal file, or a PGN file.
    pub(crate) game: String,
    /// Which game of a PGN file (GAME is then read as PGN).
    pub(crate) pgn_game: Option<u64>,
    /// Only the turning points.
    pub(crate) errors: bool,
    /// Annotated PGN instead of sentences.
    pub(crate) pgn: bool,
    /// Where the PGN goes instead of standard output.
    pub(crate) output: Option<PathBuf>,
    pub(crate) depth: Option<u32>,
    pub(crate) movetime: Option<u64>,
    /// The engine when it is not stockfish.
    pub(crate) engine: Option<PathBuf>,
    /// How many engines judge positions side by side (default: one per core).
    pub(crate) engines: Option<usize>,
    pub(crate) form: Form,
}

/// What the engine is asked to do per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Search {
    pub(crate) depth: Option<u32>,
    pub(crate) movetime: Duration,
}

impl Search {
    pub(crate) fn from_options(depth: Option<u32>, movetime_ms: Option<u64>) -> Search {
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
    game: crate::core::game::Game,
    /// The journal the game was read from (its analysis is kept beside it).
    journal: Option<PathBuf>,
    start: Chess,
    moves: Vec<Move>,
    tags: Tags,
    /// The player hector recorded the game for (a journal's), whose side the walk takes.
    player: Option<shakmaty::Color>,
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
            player: None,
            game: g.clone(),
            journal: None,
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
        player: h.local_player,
        game: g.clone(),
        journal: Some(path.clone()),
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

/// The engine's evaluation of every position of the game, the start included, and its best
/// line from each (empty where the game is over), on `engines` in parallel.
fn evaluate(
    engines: &mut [Engine],
    loaded: &Loaded,
    search: Search,
    lang: &Language,
) -> Result<(Vec<PositionEval>, Vec<Vec<Move>>), String> {
    crate::app::services::judging::evaluate(
        engines,
        &loaded.start,
        &loaded.moves,
        crate::app::services::judging::Search {
            depth: search.depth,
            movetime: search.movetime,
        },
        lang,
        &mut |_, _| {},
    )
}

/// `hector analyse`. Exit status 0; 1 when the game cannot be read or the engine fails; 2
/// when there is no such game or the output cannot be written.
pub(crate) fn run(args: &AnalyseOptions, lang: &Language, speaker: Option<Speaker>) -> ExitCode {
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
    // A recorded game judged before with the same search is not judged again.
    let evals = match kept(&loaded, search, lang) {
        Some(stored) => stored.evals,
        None => match judge(args, &loaded, search, lang, &mut out, &say) {
            Ok(evals) => evals,
            Err(reason) => return fail(reason),
        },
    };
    let judged = match review(&loaded.start, &loaded.moves, &evals) {
        Ok(r) => r,
        Err(e) => return fail(e.to_string()),
    };
    if args.pgn {
        let text = annotated_pgn(&loaded.tags, &judged);
        if let Err(code) = write_pgn(&text, args.output.as_deref(), &mut out, lang) {
            return code;
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

/// Judges the game with the engines of `args`, saying first what is judged (unless the
/// output is PGN), and keeps the analysis; why the engines failed.
fn judge(
    args: &AnalyseOptions,
    loaded: &Loaded,
    search: Search,
    lang: &Language,
    out: &mut Out,
    say: &dyn Fn(&mut Out, &str) -> bool,
) -> Result<Vec<PositionEval>, String> {
    let count = crate::app::services::judging::engine_count(args.engines);
    let mut engines = crate::app::services::judging::start_engines(
        args.engine.as_deref(),
        loaded.tags.chess960,
        count,
        lang,
    )?;
    let name = engines
        .first()
        .map(|e| e.name().to_string())
        .unwrap_or_default();
    if !args.pgn {
        let intro = fill(
            &lang.analysis.analysing,
            &[
                ("engine", &printable(&name)),
                ("moves", &counted(&lang.record.moves, full_moves(loaded))),
            ],
        );
        say(out, &intro);
        out.flush();
    }
    let (evals, lines) = evaluate(&mut engines, loaded, search, lang)?;
    drop(engines);
    keep(loaded, search, &evals, &lines, lang);
    Ok(evals)
}

/// How many moves the game has, a move being White's and Black's.
fn full_moves(loaded: &Loaded) -> u64 {
    let plies = loaded.moves.len();
    let black_first = usize::from(loaded.start.turn() == shakmaty::Color::Black);
    u64::try_from((plies + black_first).div_ceil(2)).unwrap_or(u64::MAX)
}

/// The annotated PGN to `--output`'s file, else to standard output; the exit status when
/// the file cannot be written.
fn write_pgn(
    text: &str,
    output: Option<&Path>,
    out: &mut Out,
    lang: &Language,
) -> Result<(), ExitCode> {
    match output {
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
                return Err(ExitCode::from(2));
            }
        },
        None => {
            out.write_raw(text);
        }
    }
    Ok(())
}

/// The search as the kept analysis names it.
fn kept_search(search: Search) -> crate::core::analysis::store::Search {
    crate::core::analysis::store::Search {
        depth: search.depth,
        millis: u64::try_from(search.movetime.as_millis()).unwrap_or(u64::MAX),
    }
}

/// The analysis kept beside the game's journal, when it fits.
fn kept(
    loaded: &Loaded,
    search: Search,
    lang: &Language,
) -> Option<crate::core::analysis::store::Stored> {
    let journal = loaded.journal.as_ref()?;
    crate::app::services::kept_analysis::read(
        journal,
        &loaded.start,
        &loaded.moves,
        kept_search(search),
        lang,
    )
}

/// Keeps the analysis beside the game's journal (a PGN game is not kept).
fn keep(
    loaded: &Loaded,
    search: Search,
    evals: &[PositionEval],
    lines: &[Vec<Move>],
    lang: &Language,
) {
    if let Some(journal) = &loaded.journal {
        let stored = crate::core::analysis::store::Stored {
            search: kept_search(search),
            evals: evals.to_vec(),
            lines: lines.to_vec(),
        };
        crate::app::services::kept_analysis::write(journal, &loaded.moves, &stored, lang);
    }
}

/// `hector analyse --all`: every recorded game without a kept analysis for this search is
/// judged and its analysis kept, one progress line per game. Stopped, it goes on where it
/// stopped: what was kept is not judged again. Exit status 0; 1 when the engine cannot
/// start or a game could not be judged; 2 when the games cannot be listed.
pub(crate) fn run_all(args: &AnalyseOptions, lang: &Language) -> ExitCode {
    let w = &lang.analyse_all;
    let paths = match crate::io::journal::games_dir()
        .and_then(|dir| crate::io::journal::journal_paths(&dir))
    {
        Ok(p) => p,
        Err(e) => {
            errln!("hector analyse: {}", crate::io::error_chain(&e));
            return ExitCode::from(2);
        }
    };
    let search = Search::from_options(args.depth, args.movetime);
    let mut out = Out::new();
    let (todo, kept_before) = unjudged(&paths, search, lang);
    if todo.is_empty() {
        out.line(&w.none);
        return out.finish(
            "hector analyse",
            &lang.messages.output_failed,
            ExitCode::SUCCESS,
        );
    }
    out.line(&fill(
        &w.start,
        &[
            ("games", &counted(&w.games, todo.len() as u64)),
            ("kept", &kept_before.to_string()),
        ],
    ));
    out.flush();
    let mut engines: Vec<Engine> = Vec::new();
    let mut chess960 = false;
    let (mut judged, mut failed) = (0u64, 0u64);
    let total = todo.len().to_string();
    for (i, loaded) in todo.iter().enumerate() {
        let file = journal_name(loaded);
        out.line(&fill(
            &w.game,
            &[
                ("index", &(i + 1).to_string()),
                ("total", &total),
                ("file", &file),
                ("moves", &counted(&lang.record.moves, full_moves(loaded))),
            ],
        ));
        out.flush();
        // Chess960 games need engines started for it.
        if engines.is_empty() || chess960 != loaded.tags.chess960 {
            chess960 = loaded.tags.chess960;
            engines = match crate::app::services::judging::start_engines(
                args.engine.as_deref(),
                chess960,
                crate::app::services::judging::engine_count(args.engines),
                lang,
            ) {
                Ok(e) => e,
                Err(reason) => return engines_failed(&reason, lang),
            };
        }
        match evaluate(&mut engines, loaded, search, lang) {
            Ok((evals, lines)) => {
                keep(loaded, search, &evals, &lines, lang);
                judged += 1;
            }
            Err(reason) => {
                failed += 1;
                errln!(
                    "hector analyse: {}",
                    fill(&w.failed, &[("file", &file), ("reason", &reason)])
                );
                // A failed engine is started again for the next game.
                engines.clear();
            }
        }
    }
    drop(engines);
    all_done(out, judged, failed, lang)
}

/// The last line of `--all`: how many games were judged and how many failed; exit status 1
/// when any failed.
fn all_done(mut out: Out, judged: u64, failed: u64, lang: &Language) -> ExitCode {
    out.line(&fill(
        &lang.analyse_all.done,
        &[
            ("judged", &judged.to_string()),
            ("failed", &failed.to_string()),
        ],
    ));
    let code = if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    out.finish("hector analyse", &lang.messages.output_failed, code)
}

/// The recorded games at `paths` without a kept analysis for `search`, and how many have
/// one; a journal that cannot be read is passed over.
fn unjudged(paths: &[PathBuf], search: Search, lang: &Language) -> (Vec<Loaded>, u64) {
    let mut todo = Vec::new();
    let mut kept_before = 0u64;
    for path in paths {
        let Ok(bytes) = crate::io::journal::read_journal(path) else {
            continue;
        };
        let Ok(salvaged) = crate::core::record::salvage(&bytes) else {
            continue;
        };
        let game = salvaged.replayed.game;
        let moves: Vec<Move> = game.moves().iter().map(|p| p.mv).collect();
        let loaded = Loaded {
            player: None,
            start: game.start().clone(),
            moves,
            journal: Some(path.clone()),
            tags: Tags {
                chess960: game.variant() == Variant::Chess960,
                ..Tags::default()
            },
            game,
        };
        if kept(&loaded, search, lang).is_some() {
            kept_before += 1;
        } else {
            todo.push(loaded);
        }
    }
    (todo, kept_before)
}

/// A recorded game's file name, printable.
fn journal_name(loaded: &Loaded) -> String {
    loaded
        .journal
        .as_ref()
        .and_then(|p| p.file_name())
        .map(|n| printable(&n.to_string_lossy()).to_string())
        .unwrap_or_default()
}

/// The engines could not start: said, and the exit status 1.
fn engines_failed(reason: &str, lang: &Language) -> ExitCode {
    errln!(
        "hector analyse: {}",
        fill(&lang.analysis.engine_failed, &[("reason", reason)])
    );
    ExitCode::from(1)
}

/// A game judged for the walk through it (`hector analyse --walk`).
pub(crate) struct Walked {
    pub(crate) game: crate::core::game::Game,
    pub(crate) walk: crate::core::matchplay::Walk,
    /// The side the walk takes: the recorded player's, else White's.
    pub(crate) player: shakmaty::Color,
}

/// Judges the game for `--walk`: the progress is printed as for the report, then the walk
/// opens in play's runtime. Exit status as [`run`]'s when it cannot.
pub(crate) fn walk_of(args: &AnalyseOptions, lang: &Language) -> Result<Walked, ExitCode> {
    let loaded = load(&args.game, args.pgn_game, lang)?;
    let search = Search::from_options(args.depth, args.movetime);
    let fail = |text: String| {
        let line = fill(&lang.analysis.engine_failed, &[("reason", &text)]);
        errln!("hector analyse: {line}");
        ExitCode::from(1)
    };
    if let Some(stored) = kept(&loaded, search, lang) {
        let judged =
            review(&loaded.start, &loaded.moves, &stored.evals).map_err(|e| fail(e.to_string()))?;
        return Ok(Walked {
            player: loaded.player.unwrap_or(shakmaty::Color::White),
            game: loaded.game,
            walk: crate::core::matchplay::Walk::new(judged, stored.lines),
        });
    }
    let mut engines = crate::app::services::judging::start_engines(
        args.engine.as_deref(),
        loaded.tags.chess960,
        crate::app::services::judging::engine_count(args.engines),
        lang,
    )
    .map_err(fail)?;
    let name = engines
        .first()
        .map(|e| e.name().to_string())
        .unwrap_or_default();
    let plies = loaded.moves.len();
    let black_first = usize::from(loaded.start.turn() == shakmaty::Color::Black);
    let moves = u64::try_from((plies + black_first).div_ceil(2)).unwrap_or(u64::MAX);
    let mut out = Out::new();
    out.line(&fill(
        &lang.analysis.analysing,
        &[
            ("engine", &printable(&name)),
            ("moves", &counted(&lang.record.moves, moves)),
        ],
    ));
    out.flush();
    let (evals, lines) = evaluate(&mut engines, &loaded, search, lang).map_err(fail)?;
    drop(engines);
    keep(&loaded, search, &evals, &lines, lang);
    let judged = review(&loaded.start, &loaded.moves, &evals).map_err(|e| fail(e.to_string()))?;
    Ok(Walked {
        player: loaded.player.unwrap_or(shakmaty::Color::White),
        game: loaded.game,
        walk: crate::core::matchplay::Walk::new(judged, lines),
    })
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
