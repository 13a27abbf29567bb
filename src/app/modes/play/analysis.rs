//! `analyse` after a game: the engine judges every position of the game, one request at a
//! time through the event loop (the player can still ask and hear while it works), and the
//! session opens the walk with the answers.

use shakmaty::{Move, Position};

use super::{ADVICE_DEPTH, ADVICE_TIME, App, EngineSlot};
use crate::app::services::engine_words::{engine_error_text, eval_of};
use crate::core::analysis::{Eval, PositionEval};
use crate::core::matchplay::{Event, Urgency};
use crate::core::notation::{counted, fill};
use crate::io::engine::{Engine, EngineOptions, MAX_LEVEL};

/// The analysis under way: the request awaited and the answers so far.
pub(super) struct AnalysisJob {
    request: Option<u64>,
    evals: Vec<PositionEval>,
    lines: Vec<Vec<Move>>,
}

impl App {
    /// Starts judging the game: with the game's engine, or one started for it.
    pub(super) fn start_analysis(&mut self) -> bool {
        if self.analysis.is_some() {
            return true;
        }
        if self.engine.is_none() {
            let opts = EngineOptions {
                path: None,
                level: MAX_LEVEL,
                chess960: self.game_match.game().variant()
                    == crate::core::variant::Variant::Chess960,
            };
            match Engine::start(&opts) {
                Ok(engine) => {
                    self.engine = Some(EngineSlot {
                        engine,
                        advice: None,
                    })
                }
                Err(e) => {
                    let reason = engine_error_text(&e, self.lang);
                    return self.handle(Event::AnalysisFailed { reason });
                }
            }
        }
        let game = self.game_match.game();
        let plies = game.ply();
        let black_first = usize::from(game.start().turn() == shakmaty::Color::Black);
        let moves = u64::try_from((plies + black_first).div_ceil(2)).unwrap_or(u64::MAX);
        let words = fill(
            &self.lang.walk.analysing,
            &[("moves", &counted(&self.lang.record.moves, moves))],
        );
        self.tell(Urgency::Answer, vec![words]);
        self.analysis = Some(AnalysisJob {
            request: None,
            evals: Vec::with_capacity(plies + 1),
            lines: Vec::with_capacity(plies + 1),
        });
        self.analyse_next()
    }

    /// Asks about the next position not yet judged; a finished position needs no engine.
    /// The last answer opens the walk.
    fn analyse_next(&mut self) -> bool {
        let game = self.game_match.game();
        let start = game.start().clone();
        let moves: Vec<Move> = game.moves().iter().map(|m| m.mv).collect();
        let positions: Vec<_> = (0..=moves.len())
            .map(|i| game.position_at(i).and_then(Eval::of_finished))
            .collect();
        let Some(job) = self.analysis.as_mut() else {
            return true;
        };
        while let Some(finished) = positions.get(job.evals.len()) {
            let Some(eval) = finished else { break };
            job.evals.push(PositionEval {
                eval: *eval,
                best: None,
            });
            job.lines.push(Vec::new());
        }
        let next = job.evals.len();
        if next > moves.len() {
            let Some(done) = self.analysis.take() else {
                return true;
            };
            return self.handle(Event::Analysed {
                evals: done.evals,
                lines: done.lines,
            });
        }
        let Some(slot) = self.engine.as_mut() else {
            self.analysis = None;
            let reason = self.lang.play.engine_closed.clone();
            return self.handle(Event::AnalysisFailed { reason });
        };
        match slot
            .engine
            .request_analysis(&start, &moves[..next], Some(ADVICE_DEPTH), ADVICE_TIME)
        {
            Ok(request) => {
                job.request = Some(request);
                true
            }
            Err(e) => {
                self.analysis = None;
                let reason = engine_error_text(&e, self.lang);
                self.handle(Event::AnalysisFailed { reason })
            }
        }
    }

    /// The engine's answer to the analysis' request: `None` when it answers something else.
    pub(super) fn analysis_answer(
        &mut self,
        request: u64,
        best: Move,
        score: Option<crate::io::engine::Score>,
        line: Vec<Move>,
    ) -> Option<bool> {
        let job = self.analysis.as_mut()?;
        if job.request != Some(request) {
            return None;
        }
        let turn = self
            .game_match
            .game()
            .position_at(job.evals.len())
            .map(Position::turn)?;
        job.request = None;
        job.evals.push(PositionEval {
            eval: eval_of(score, turn),
            best: Some(best),
        });
        job.lines.push(line);
        Some(self.analyse_next())
    }

    /// The engine failed while judging the game: the analysis ends with the reason.
    pub(super) fn analysis_failed(&mut self, reason: String) -> Option<bool> {
        self.analysis.take()?;
        Some(self.handle(Event::AnalysisFailed { reason }))
    }

    /// Whether the player waits for the analysis (no prompt until it is done).
    pub(super) fn analysing(&self) -> bool {
        self.analysis.is_some()
    }
}
