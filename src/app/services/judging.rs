//! A game judged by the engine, position by position, on every core: as many one-thread
//! engines as the machine has cores each take the next position not yet asked (a queue), so
//! that a game takes about half the time of one engine on two cores (docs/BENCHMARKS.md:
//! `Threads 2` in one engine does not speed up a search to a fixed depth). Used by
//! `hector analyse` (one game, `--all`) and `hector train`.

use std::time::Duration;

use crossbeam_channel::Select;
use shakmaty::{Chess, Move, Position};

use crate::app::services::engine_words::{
    engine_ending, engine_error_text, engine_hung, engine_illegal, eval_of,
};
use crate::core::analysis::{Eval, PositionEval};
use crate::core::notation::language::Language;
use crate::io::engine::{Engine, EngineEvent, EngineOptions, MAX_LEVEL, Timeouts};

/// At most this many engines, whatever the machine.
pub const MAX_ENGINES: usize = 8;

/// The engines for judging: one per core (at most [`MAX_ENGINES`]), unless `count` says.
pub fn engine_count(count: Option<usize>) -> usize {
    count
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, MAX_ENGINES)
}

/// Starts `count` engines at full strength, one thread each; a failure of any is the error.
pub fn start_engines(
    path: Option<&std::path::Path>,
    chess960: bool,
    count: usize,
    lang: &Language,
) -> Result<Vec<Engine>, String> {
    let opts = EngineOptions {
        path: path.map(Into::into),
        level: MAX_LEVEL,
        chess960,
    };
    (0..count.max(1))
        .map(|_| Engine::start(&opts).map_err(|e| engine_error_text(&e, lang)))
        .collect()
}

/// What one position was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    pub depth: Option<u32>,
    pub movetime: Duration,
}

/// The engine's evaluation of every position of the game from `start` with `moves` (the
/// start included) and its best line from each (empty where the game is over). The
/// positions are shared among `engines`; `progress` hears how many are judged of how many.
pub fn evaluate(
    engines: &mut [Engine],
    start: &Chess,
    moves: &[Move],
    search: Search,
    lang: &Language,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Vec<PositionEval>, Vec<Vec<Move>>), String> {
    let timeouts = Timeouts::default();
    // The engine's own watchdog answers before this; it is only the last resort.
    let patience = search.movetime + timeouts.grace + timeouts.stop_grace + Duration::from_secs(2);
    let total = moves.len() + 1;
    let positions = game_positions(start, moves)?;
    let mut evals: Vec<Option<PositionEval>> = vec![None; total];
    let mut lines: Vec<Vec<Move>> = vec![Vec::new(); total];
    let mut queue = Vec::with_capacity(total);
    for (i, p) in positions.iter().enumerate() {
        match Eval::of_finished(p) {
            Some(eval) => evals[i] = Some(PositionEval { eval, best: None }),
            None => queue.push(i),
        }
    }
    // The positions in the game's order, each engine taking the next one when it is free.
    queue.reverse();
    let mut asked: Vec<Option<(u64, usize)>> = vec![None; engines.len()];
    let mut done = total - queue.len();
    progress(done, total);
    let ask = |engine: &mut Engine, i: usize| -> Result<u64, String> {
        engine
            .request_analysis(start, &moves[..i], search.depth, search.movetime)
            .map_err(|e| engine_error_text(&e, lang))
    };
    for (e, engine) in engines.iter_mut().enumerate() {
        if let Some(i) = queue.pop() {
            asked[e] = Some((ask(engine, i)?, i));
        }
    }
    while asked.iter().any(Option::is_some) {
        let (e, event) = next_event(engines, patience, lang)?;
        match event {
            EngineEvent::Analysis {
                request,
                best,
                score,
                line,
            } if asked[e].is_some_and(|(r, _)| r == request) => {
                let Some((_, i)) = asked[e].take() else {
                    continue;
                };
                evals[i] = Some(PositionEval {
                    eval: eval_of(score, positions[i].turn()),
                    best: Some(best),
                });
                lines[i] = line;
                done += 1;
                progress(done, total);
                if let Some(next) = queue.pop() {
                    asked[e] = Some((ask(&mut engines[e], next)?, next));
                }
            }
            EngineEvent::Rejected { answer, .. } => return Err(engine_illegal(&answer, lang)),
            EngineEvent::Timeout { waited, .. } => return Err(engine_hung(waited, lang)),
            EngineEvent::Died { how, .. } => return Err(engine_ending(how, lang)),
            // Answers to nothing asked now.
            _ => {}
        }
    }
    let evals = evals
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| lang.play.engine_closed.clone())?;
    Ok((evals, lines))
}

/// Every position of the game from `start` with `moves`, the start included; a move that
/// is not legal where it stands is refused.
fn game_positions(start: &Chess, moves: &[Move]) -> Result<Vec<Chess>, String> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut pos = start.clone();
    for i in 0..=moves.len() {
        positions.push(pos.clone());
        if let Some(&mv) = moves.get(i) {
            if !pos.is_legal(mv) {
                return Err(format!("move {} is not legal", i + 1));
            }
            pos.play_unchecked(mv);
        }
    }
    Ok(positions)
}

/// The next event of any of `engines`, and which engine it is from; none within
/// `patience` is a hung engine.
fn next_event(
    engines: &[Engine],
    patience: Duration,
    lang: &Language,
) -> Result<(usize, EngineEvent), String> {
    let receivers: Vec<_> = engines.iter().map(|e| e.events().clone()).collect();
    let mut select = Select::new();
    for r in &receivers {
        select.recv(r);
    }
    let op = select
        .select_timeout(patience)
        .map_err(|_| engine_hung(patience, lang))?;
    let e = op.index();
    let event = op
        .recv(&receivers[e])
        .map_err(|_| lang.play.engine_closed.clone())?;
    Ok((e, event))
}
