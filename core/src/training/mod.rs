//! Learning from one's own mistakes (`hector train`): the positions of the player's recorded
//! games where a move of theirs was judged a mistake or a blunder, asked again ("Ihr 14.
//! Zug, Weiß am Zug: finden Sie einen besseren Zug"). The engine's best move is right, and so
//! is any move the engine finds as good within [`MARGIN`]; a wrong move is answered with the
//! engine's reply to it; `tipp` names the piece, then where it goes. Each position comes
//! back on later days until it is solved twice ([`progress`]).
//!
//! [`Train`] is the pure state machine: typed lines, key commands and board moves in; what
//! to say, what to ask the engine, the progress to keep out. The adapter asks the engine
//! about the position after an answer and hands its evaluation back as
//! [`ExerciseEvent::Judged`].

pub mod progress;
pub use crate::notation::words::training as words;

#[cfg(test)]
mod tests;

use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, fen::Fen, san::SanPlus};

use crate::analysis::{Eval, Judgement, Review, eval_words};
use crate::cue::Cue;
use crate::exercise::{
    Confirm, ExerciseEffect, ExerciseEvent, Exercises, Typed, confirmed, exercise_commands,
    hint_words, position_answer, read_typed,
};
use crate::machine::{Common, Machine, Urgency, answer};
use crate::matchplay::command::Command;
use crate::matchplay::help::{HelpAgain, all_commands, mode_help};
use crate::matchplay::question::Question;
use crate::notation::language::{Language, counted, fill};
use crate::notation::speak::{Form, announce_san, line_words};
use crate::notation::wording::Wording;
use crate::time::Timestamp;
use progress::Progress;

/// An answer is as good as the engine's best move when the player's winning chances after
/// it (0 to 100, as the analysis counts them) are at most this many points below the best
/// move's: about a fifth of a pawn in an equal position, half an inaccuracy.
pub(crate) const MARGIN: f64 = 5.0;
/// How many half-moves of the engine's line follow a right answer or the solution.
pub(crate) const LINE_SAID: usize = 4;
/// How many half-moves of the engine's reply answer a wrong move.
pub(crate) const REPLY_SAID: usize = 3;
/// After this many wrong answers the solution is shown.
pub(crate) const WRONG_BEFORE_SHOWN: u32 = 3;

/// One position to practise: a position of the player's game before a move judged a
/// mistake or a blunder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exercise {
    pub(crate) position: Chess,
    /// The move number and the side to move (the player).
    pub(crate) number: u32,
    pub(crate) mover: Color,
    /// The move of the game, and how bad it was.
    pub(crate) played: Move,
    pub(crate) kind: Judgement,
    /// The engine's best move and its evaluation of the position with it.
    pub(crate) best: Move,
    pub(crate) best_eval: Eval,
    /// The engine's line from the position, its best move first.
    pub(crate) line: Vec<Move>,
    /// The engine's line after the move of the game (what it allowed).
    pub(crate) punish: Vec<Move>,
    /// The game in words ("Partie vom 2026-11-21 gegen Stockfish").
    pub(crate) game: String,
}

impl Exercise {
    /// The key its progress is kept under: the move of the game and the position.
    pub fn key(&self) -> String {
        let uci = self.played.to_uci(CastlingMode::Chess960).to_string();
        let fen = Fen::from_position(&self.position, EnPassantMode::Legal).to_string();
        progress::key(&uci, &fen)
    }
}

/// The positions of a judged game where `player` erred (mistakes and blunders with a better
/// move), with the engine's lines (`lines[i]` from the position after `i` half-moves).
pub fn exercises_of(
    review: &Review,
    lines: &[Vec<Move>],
    player: Color,
    game: &str,
) -> Vec<Exercise> {
    let mut pos = review.start.clone();
    let mut out = Vec::new();
    for (i, ply) in review.plies.iter().enumerate() {
        if ply.mover == player
            && let (Some(kind), Some((best, _))) = (ply.judgement, ply.better.as_ref())
            && kind >= Judgement::Mistake
            && pos.is_legal(*best)
        {
            let line = lines
                .get(i)
                .filter(|l| l.first() == Some(best))
                .cloned()
                .unwrap_or_else(|| vec![*best]);
            out.push(Exercise {
                position: pos.clone(),
                number: ply.number,
                mover: ply.mover,
                played: ply.mv,
                kind,
                best: *best,
                best_eval: ply.before,
                line,
                punish: lines.get(i + 1).cloned().unwrap_or_default(),
                game: game.to_string(),
            });
        }
        if !pos.is_legal(ply.mv) {
            break;
        }
        pos.play_unchecked(ply.mv);
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Asking,
    /// The engine judges this answer.
    Judging(Move),
    Finished,
}

/// The training's state machine.
#[derive(Clone, Debug)]
pub struct Train {
    lang: &'static Language,
    form: Form,
    wording: Wording,
    exercises: Vec<Exercise>,
    at: usize,
    stage: Stage,
    hints: u8,
    wrong: u32,
    solved: usize,
    progress: Progress,
    /// Lines typed while the engine judges an answer: answered in order once its verdict
    /// is said (as play answers lines typed while the engine thinks).
    typed_ahead: std::collections::VecDeque<String>,
    /// Skipping a position begun waits for yes or no.
    asking_skip: bool,
    help: HelpAgain,
}

/// The most lines kept while an answer is judged; more are said to be ignored.
pub(crate) const TYPED_AHEAD: usize = 16;

impl Train {
    /// The training over `exercises` (those still due), with the progress so far; the
    /// effects open it: the count and the first question, or that there is nothing to do.
    pub fn new(
        exercises: Vec<Exercise>,
        progress: Progress,
        lang: &'static Language,
        form: Form,
        wording: Wording,
    ) -> (Train, Vec<ExerciseEffect>) {
        let mut t = Train {
            lang,
            form,
            wording,
            exercises,
            at: 0,
            stage: Stage::Asking,
            hints: 0,
            wrong: 0,
            solved: 0,
            progress,
            typed_ahead: std::collections::VecDeque::new(),
            asking_skip: false,
            help: HelpAgain::default(),
        };
        let w = &lang.train;
        let mut out = Vec::new();
        if t.exercises.is_empty() {
            t.stage = Stage::Finished;
            out.push(answer(w.none.clone()));
            out.push(ExerciseEffect::Common(Common::Quit));
            return (t, out);
        }
        let count = counted(&w.positions, t.exercises.len() as u64);
        out.push(answer(fill(&w.opened, &[("positions", &count)])));
        t.ask(&mut out);
        (t, out)
    }

    /// The exercise asked now.
    pub(crate) fn current(&self) -> Option<&Exercise> {
        (self.stage != Stage::Finished)
            .then(|| self.exercises.get(self.at))
            .flatten()
    }

    /// The position shown (the one asked about).
    pub(crate) fn position(&self) -> Option<&Chess> {
        self.current().map(|e| &e.position)
    }

    /// The engine is judging an answer: the player waits.
    pub(crate) fn judging(&self) -> bool {
        matches!(self.stage, Stage::Judging(_))
    }

    #[cfg(test)]
    pub(crate) fn progress(&self) -> &Progress {
        &self.progress
    }

    fn san_words(&self, pos: &Chess, m: Move) -> String {
        announce_san(SanPlus::from_move(pos.clone(), m), m, self.lang, self.form)
    }

    /// The player's own move, heard after its sounds: its words without what the sounds
    /// say (`--cues-only-for`).
    fn cued_words(&self, pos: &Chess, m: Move, out: &mut Vec<ExerciseEffect>) -> String {
        let san = SanPlus::from_move(pos.clone(), m);
        out.push(ExerciseEffect::Common(Common::Cue(crate::cue::for_move(
            &san,
        ))));
        announce_san(self.wording.san(san), m, self.lang, self.form)
    }

    fn line_words(&self, pos: &Chess, line: &[Move]) -> String {
        line_words(pos, line, self.lang, self.form).0
    }

    fn question(&self) -> Option<String> {
        let ex = self.current()?;
        let lang = self.lang;
        Some(fill(
            &lang.train.question,
            &[
                ("index", &(self.at + 1).to_string()),
                ("total", &self.exercises.len().to_string()),
                ("game", &ex.game),
                ("number", &ex.number.to_string()),
                ("color", lang.color(ex.mover)),
                ("move", &self.san_words(&ex.position, ex.played)),
                ("kind", ex.kind.words(lang)),
            ],
        ))
    }

    /// Asks the current exercise (its position shown) and counts it tried.
    fn ask(&mut self, out: &mut Vec<ExerciseEffect>) {
        self.stage = Stage::Asking;
        self.hints = 0;
        self.wrong = 0;
        let Some(ex) = self.exercises.get(self.at) else {
            return self.finish(out);
        };
        let (key, pos) = (ex.key(), ex.position.clone());
        self.progress.tried(&key);
        out.push(ExerciseEffect::Show(pos));
        if let Some(q) = self.question() {
            out.push(answer(q));
        }
    }

    /// The next exercise, or the end of the round.
    fn next(&mut self, out: &mut Vec<ExerciseEffect>) {
        self.at += 1;
        if self.at < self.exercises.len() {
            self.ask(out);
        } else {
            self.finish(out);
        }
    }

    fn finish(&mut self, out: &mut Vec<ExerciseEffect>) {
        if self.stage == Stage::Finished {
            return;
        }
        self.stage = Stage::Finished;
        let total = self.exercises.len();
        let left = self
            .exercises
            .iter()
            .filter(|e| self.progress.due(&e.key()))
            .count();
        out.push(ExerciseEffect::Keep(self.progress.encode()));
        out.push(answer(fill(
            &self.lang.train.finished,
            &[
                ("solved", &self.solved.to_string()),
                ("total", &total.to_string()),
                ("left", &counted(&self.lang.train.positions, left as u64)),
            ],
        )));
        out.push(ExerciseEffect::Common(Common::Quit));
    }

    fn line(&mut self, text: &str, out: &mut Vec<ExerciseEffect>) {
        if std::mem::take(&mut self.asking_skip) {
            match confirmed(text) {
                Confirm::Yes => return self.skip(out),
                Confirm::No => {
                    out.push(answer(self.lang.train.not_skipped.clone()));
                    return;
                }
                Confirm::Again => return self.ask_skip(out),
                // Anything else lets the question go.
                Confirm::Other => {}
            }
        }
        match read_typed(text, self.position(), self.lang) {
            Typed::Solution => self.show(out),
            Typed::Skip | Typed::Command(Command::New) => self.ask_skip(out),
            Typed::Again => {
                if let Some(q) = self.question() {
                    out.push(answer(q));
                }
            }
            Typed::Command(c) => self.command(c, out),
            Typed::Move(_) if self.judging() => {
                out.push(answer(self.lang.train.busy.clone()));
                out.push(ExerciseEffect::Common(Common::Refused));
            }
            Typed::Move(m) => self.answer(m, out),
            Typed::Refused(effects) => out.extend(effects),
        }
    }

    /// The lines typed while the answer was judged, in order, until one is an answer to
    /// judge again (the rest wait for that verdict).
    fn answer_typed_ahead(&mut self, out: &mut Vec<ExerciseEffect>) {
        while !self.judging() && self.stage != Stage::Finished {
            let Some(text) = self.typed_ahead.pop_front() else {
                return;
            };
            self.line(&text, out);
        }
    }

    fn command(&mut self, c: Command, out: &mut Vec<ExerciseEffect>) {
        let lang = self.lang;
        let (form, w) = (self.form, self.wording);
        if c == Command::Quit {
            return self.finish(out);
        }
        if c == Command::Help {
            let text = self.help.answer(
                || mode_help(&lang.train.help, lang),
                || all_commands(&exercise_commands(), lang),
            );
            out.push(answer(text));
            return;
        }
        // A key's command lets a question go.
        self.asking_skip = false;
        if c == Command::New {
            return self.ask_skip(out);
        }
        let Some(ex) = self.current() else {
            return;
        };
        let (pos, player) = (ex.position.clone(), ex.mover);
        match c {
            Command::Hint => self.hint(out),
            Command::Better => self.show(out),
            Command::Ask(Question::Last) | Command::Ask(Question::Turn) => {
                if let Some(q) = self.question() {
                    out.push(answer(q));
                }
            }
            c => out.extend(position_answer(&c, &pos, player, lang, form, w)),
        }
    }

    fn hint(&mut self, out: &mut Vec<ExerciseEffect>) {
        let Some(ex) = self.current() else {
            return;
        };
        out.push(answer(hint_words(ex.best, self.hints, self.lang)));
        self.hints = self.hints.saturating_add(1).min(2);
    }

    /// The solution, and the next position; not counted as solved.
    fn show(&mut self, out: &mut Vec<ExerciseEffect>) {
        let Some(ex) = self.current() else {
            return;
        };
        let text = fill(
            &self.lang.train.shown,
            &[
                ("move", &self.san_words(&ex.position, ex.best)),
                (
                    "line",
                    &self.line_words(&ex.position, &ex.line[..ex.line.len().min(LINE_SAID + 1)]),
                ),
            ],
        );
        out.push(answer(text));
        out.push(ExerciseEffect::Keep(self.progress.encode()));
        self.next(out);
    }

    /// A position begun (a hint taken, a wrong try) is skipped only when the player says yes.
    fn ask_skip(&mut self, out: &mut Vec<ExerciseEffect>) {
        if self.current().is_none() || self.judging() {
            return;
        }
        if self.hints > 0 || self.wrong > 0 {
            self.asking_skip = true;
            out.push(answer(self.lang.train.skip_confirm.clone()));
        } else {
            self.skip(out);
        }
    }

    /// The question waiting for its answer, if one does.
    pub(crate) fn question_asked(&self) -> Option<&str> {
        self.asking_skip
            .then_some(self.lang.train.skip_confirm.as_str())
    }

    fn skip(&mut self, out: &mut Vec<ExerciseEffect>) {
        if self.current().is_none() {
            return;
        }
        out.push(answer(self.lang.train.skipped.clone()));
        out.push(ExerciseEffect::Keep(self.progress.encode()));
        self.next(out);
    }

    fn answer(&mut self, m: Move, out: &mut Vec<ExerciseEffect>) {
        let Some(ex) = self.current() else {
            return;
        };
        if self.stage != Stage::Asking {
            return;
        }
        if m == ex.best {
            return self.right(m, None, out);
        }
        if m == ex.played {
            let mut after = ex.position.clone();
            after.play_unchecked(m);
            let reply = self.line_words(&after, &ex.punish[..ex.punish.len().min(REPLY_SAID)]);
            out.push(ExerciseEffect::Common(Common::Cue(vec![Cue::Illegal])));
            out.push(answer(fill(
                &self.lang.train.same_move,
                &[("reply", &reply)],
            )));
            return self.wrong_answer(out);
        }
        let mut after = ex.position.clone();
        after.play_unchecked(m);
        // A mate or a stalemate needs no engine.
        if let Some(eval) = Eval::of_finished(&after) {
            return self.judged(m, eval, Vec::new(), out);
        }
        let position = ex.position.clone();
        self.stage = Stage::Judging(m);
        out.push(ExerciseEffect::Judge {
            position,
            answer: m,
        });
    }

    fn judged(&mut self, m: Move, eval: Eval, reply: Vec<Move>, out: &mut Vec<ExerciseEffect>) {
        let Some(ex) = self.current() else {
            return;
        };
        let (best_eval, mover) = (ex.best_eval, ex.mover);
        let position = ex.position.clone();
        self.stage = Stage::Asking;
        let drop = best_eval.win_chance(mover) - eval.win_chance(mover);
        if drop <= MARGIN {
            return self.right(m, Some(reply), out);
        }
        let mut after = position.clone();
        let said = self.san_words(&position, m);
        after.play_unchecked(m);
        let reply = self.line_words(&after, &reply[..reply.len().min(REPLY_SAID)]);
        let eval = eval_words(eval, self.lang);
        let w = &self.lang.train;
        let text = if reply.is_empty() {
            fill(&w.wrong_plain, &[("move", &said), ("eval", &eval)])
        } else {
            fill(
                &w.wrong,
                &[("move", &said), ("reply", &reply), ("eval", &eval)],
            )
        };
        // A move that is not good enough sounds as a refused one.
        out.push(ExerciseEffect::Common(Common::Cue(vec![Cue::Illegal])));
        out.push(answer(text));
        self.wrong_answer(out);
    }

    fn wrong_answer(&mut self, out: &mut Vec<ExerciseEffect>) {
        self.wrong += 1;
        if self.wrong >= WRONG_BEFORE_SHOWN {
            out.push(answer(self.lang.train.three_wrong.clone()));
            self.show(out);
        } else {
            out.push(ExerciseEffect::Common(Common::Refused));
        }
    }

    /// A right answer: praised, the line said on, counted, the next position. `reply` is
    /// the engine's line after another move as good as its best.
    fn right(&mut self, m: Move, reply: Option<Vec<Move>>, out: &mut Vec<ExerciseEffect>) {
        let Some(ex) = self.current() else {
            return;
        };
        let w = &self.lang.train;
        let said = self.cued_words(&ex.position, m, out);
        let mut after = ex.position.clone();
        after.play_unchecked(m);
        let text = match reply {
            None if ex.line.len() > 1 => fill(
                &w.right,
                &[
                    ("move", &said),
                    (
                        "line",
                        &self.line_words(&after, &ex.line[1..ex.line.len().min(LINE_SAID + 1)]),
                    ),
                ],
            ),
            None => fill(&w.right_alone, &[("move", &said)]),
            Some(_) => fill(
                &w.as_good,
                &[
                    ("move", &said),
                    ("best", &self.san_words(&ex.position, ex.best)),
                ],
            ),
        };
        let key = ex.key();
        self.solved += 1;
        let times = self.progress.solved(&key);
        let mut lines = vec![text];
        if times >= progress::SOLVED_ENOUGH {
            lines.push(w.retired.clone());
        }
        out.push(ExerciseEffect::Common(Common::Say {
            urgency: Urgency::Answer,
            lines,
        }));
        out.push(ExerciseEffect::Keep(self.progress.encode()));
        self.next(out);
    }
}

impl Exercises for Train {
    fn position(&self) -> Option<&Chess> {
        Train::position(self)
    }
    fn judging(&self) -> bool {
        Train::judging(self)
    }
    fn question(&self) -> Option<&str> {
        self.question_asked()
    }
    fn ran_out(&self) -> bool {
        self.stage == Stage::Finished && self.at >= self.exercises.len()
    }
}

impl Machine for Train {
    type Event = ExerciseEvent;
    type Effect = ExerciseEffect;

    fn handle(&mut self, event: ExerciseEvent, _now: Timestamp) -> Vec<ExerciseEffect> {
        let mut out = Vec::new();
        if matches!(
            event,
            ExerciseEvent::Line(_) | ExerciseEvent::Command(_) | ExerciseEvent::Move(_)
        ) {
            self.help.input();
        }
        match event {
            // Kept while the engine judges: answered in order after its verdict.
            ExerciseEvent::Line(text) if self.judging() => {
                if self.typed_ahead.len() < TYPED_AHEAD {
                    self.typed_ahead.push_back(text);
                } else {
                    out.push(answer(self.lang.train.busy.clone()));
                    out.push(ExerciseEffect::Common(Common::Refused));
                }
            }
            ExerciseEvent::Line(text) => self.line(&text, &mut out),
            ExerciseEvent::Command(c) => self.command(c, &mut out),
            ExerciseEvent::Move(m) => {
                // A move on the board lets a question go.
                self.asking_skip = false;
                let legal = self.position().is_some_and(|p| p.is_legal(m));
                if legal && !self.judging() {
                    self.answer(m, &mut out);
                } else if self.judging() {
                    out.push(answer(self.lang.train.busy.clone()));
                    out.push(ExerciseEffect::Common(Common::Refused));
                }
            }
            ExerciseEvent::Judged {
                answer,
                eval,
                reply,
            } => {
                if self.stage == Stage::Judging(answer) {
                    self.judged(answer, eval, reply, &mut out);
                    self.answer_typed_ahead(&mut out);
                }
            }
            ExerciseEvent::JudgeFailed { reason } => {
                if self.judging() {
                    self.stage = Stage::Asking;
                    out.push(ExerciseEffect::Common(Common::Say {
                        urgency: Urgency::Urgent,
                        lines: vec![fill(&self.lang.train.engine_failed, &[("reason", &reason)])],
                    }));
                    self.answer_typed_ahead(&mut out);
                }
            }
        }
        out
    }

    fn next_deadline(&self, _now: Timestamp) -> Option<Timestamp> {
        None
    }
}
