//! A game judged by the engine, position by position, on every core: as many one-thread
//! engines as the machine has cores each walk a run of the game's positions in order (so that
//! what an engine's hash learnt at one position serves the next), and one that is done takes
//! the back half of the longest run left; a game takes about 0.6 of the time of one engine on
//! two cores (docs/BENCHMARKS.md: `Threads 2` in one engine does not speed up a search to a
//! fixed depth). Used by `hector analyse` (one game, `--all`) and `hector train`.

use std::collections::VecDeque;
use std::time::Duration;

use crossbeam_channel::Select;
use shakmaty::{Chess, Move, Position};

use crate::app::services::engine_words::{
    engine_ending, engine_error_text, engine_hung, engine_illegal, eval_of,
};
use crate::core::analysis::{Eval, PositionEval};
use crate::core::notation::Language;
use crate::io::engine::{Engine, EngineEvent, EngineOptions, MAX_LEVEL, Timeouts};

/// At most this many engines, whatever the machine.
pub(crate) const MAX_ENGINES: usize = 8;

/// The engines for judging: one per core (at most [`MAX_ENGINES`]), unless `count` says.
pub(crate) fn engine_count(count: Option<usize>) -> usize {
    count
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, MAX_ENGINES)
}

/// Starts `count` engines at full strength, one thread each; a failure of any is the error.
pub(crate) fn start_engines(
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
pub(crate) struct Search {
    pub(crate) depth: Option<u32>,
    pub(crate) movetime: Duration,
}

/// The engine's evaluation of every position of the game from `start` with `moves` (the
/// start included) and its best line from each (empty where the game is over). The
/// positions are shared among `engines`; `progress` hears how many are judged of how many.
pub(crate) fn evaluate(
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
    let mut done = total - queue.len();
    let mut runs = Runs::new(&queue, engines.len());
    let mut asked: Vec<Option<(u64, usize)>> = vec![None; engines.len()];
    progress(done, total);
    let ask = |engine: &mut Engine, i: usize| -> Result<u64, String> {
        engine
            .request_analysis(start, &moves[..i], search.depth, search.movetime)
            .map_err(|e| engine_error_text(&e, lang))
    };
    for (e, engine) in engines.iter_mut().enumerate() {
        if let Some(i) = runs.next_for(e) {
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
                if let Some(next) = runs.next_for(e) {
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

/// The positions still to be searched, as one run per engine: contiguous stretches of the
/// game, each walked in the game's order.
struct Runs {
    runs: Vec<VecDeque<usize>>,
}

impl Runs {
    fn new(positions: &[usize], engines: usize) -> Runs {
        let engines = engines.max(1);
        let size = positions.len().div_ceil(engines).max(1);
        let mut runs: Vec<VecDeque<usize>> = positions
            .chunks(size)
            .map(|c| c.iter().copied().collect())
            .collect();
        runs.resize_with(engines, VecDeque::new);
        Runs { runs }
    }

    /// The next position for engine `e`: the next of its run, or, its run done, the first of
    /// the back half of the longest run left (which it then walks on).
    fn next_for(&mut self, e: usize) -> Option<usize> {
        if let Some(i) = self.runs.get_mut(e)?.pop_front() {
            return Some(i);
        }
        let (longest, len) = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| (i, r.len()))
            .max_by_key(|&(_, len)| len)?;
        if len == 0 {
            return None;
        }
        let stolen = self.runs[longest].split_off(len / 2);
        self.runs[e] = stolen;
        self.runs[e].pop_front()
    }
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

#[cfg(test)]
mod tests {
    use super::Runs;

    /// Every position is searched once, whatever the order the engines finish in.
    #[test]
    fn every_position_is_given_once_whatever_order_the_engines_ask_in() {
        for engines in 1..=4 {
            for n in 0..30 {
                let positions: Vec<usize> = (0..n).collect();
                let mut runs = Runs::new(&positions, engines);
                let mut given = Vec::new();
                // Engines ask in turn, the last one twice as often (it is the fastest).
                let mut order: Vec<usize> = (0..engines).collect();
                order.push(engines - 1);
                let mut idle = 0;
                while idle < order.len() {
                    idle = 0;
                    for &e in &order {
                        match runs.next_for(e) {
                            Some(i) => given.push(i),
                            None => idle += 1,
                        }
                    }
                }
                given.sort_unstable();
                assert_eq!(given, positions, "{engines} engines, {n} positions");
            }
        }
    }

    #[test]
    fn two_engines_start_at_the_game_start_and_at_its_middle() {
        let positions: Vec<usize> = (0..10).collect();
        let mut runs = Runs::new(&positions, 2);
        assert_eq!(runs.next_for(0), Some(0));
        assert_eq!(runs.next_for(1), Some(5));
        assert_eq!(runs.next_for(0), Some(1));
    }
}
