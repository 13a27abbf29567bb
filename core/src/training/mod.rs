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
//! [`TrainEvent::Judged`].

pub mod progress;
pub use crate::notation::words::training as words;

#[cfg(test)]
mod tests;

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, File, Move, Position, Square, fen::Fen, san::SanPlus,
};

use crate::analysis::{Eval, Judgement, Review, eval_words};
use crate::machine::Machine;
use crate::matchplay::command::{Command, Line, read_line};
use crate::matchplay::help::{HelpAgain, Listed, POSITION, SPEECH, all_commands, mode_help};
use crate::matchplay::question::{self, Asked};
use crate::matchplay::session::{SpeechControl, Urgency, command_error_message};
use crate::notation::language::{Language, counted, fill, languages};
use crate::notation::parse::{message, parse_move_in};
use crate::notation::speak::{Form, announce_san, line_words};
use crate::notation::vocabulary::fold;
use crate::notation::wording::Wording;
use crate::time::Timestamp;
use progress::Progress;

/// An answer is as good as the engine's best move when the player's winning chances after
/// it (0 to 100, as the analysis counts them) are at most this many points below the best
/// move's: about a fifth of a pawn in an equal position, half an inaccuracy.
pub const MARGIN: f64 = 5.0;
/// How many half-moves of the engine's line follow a right answer or the solution.
pub const LINE_SAID: usize = 4;
/// How many half-moves of the engine's reply answer a wrong move.
pub const REPLY_SAID: usize = 3;
/// After this many wrong answers the solution is shown.
pub const WRONG_BEFORE_SHOWN: u32 = 3;

/// One position to practise: a position of the player's game before a move judged a
/// mistake or a blunder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exercise {
    pub position: Chess,
    /// The move number and the side to move (the player).
    pub number: u32,
    pub mover: Color,
    /// The move of the game, and how bad it was.
    pub played: Move,
    pub kind: Judgement,
    /// The engine's best move and its evaluation of the position with it.
    pub best: Move,
    pub best_eval: Eval,
    /// The engine's line from the position, its best move first.
    pub line: Vec<Move>,
    /// The engine's line after the move of the game (what it allowed).
    pub punish: Vec<Move>,
    /// The game in words ("Partie vom 2026-11-21 gegen Stockfish").
    pub game: String,
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

/// What happens to the training.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainEvent {
    /// A typed (or heard) line.
    Line(String),
    /// A key's command.
    Command(Command),
    /// A move made on a board (or the screen's board).
    Move(Move),
    /// The engine's evaluation of the position after `answer` (White's point of view) and
    /// its reply line from there.
    Judged {
        answer: Move,
        eval: Eval,
        reply: Vec<Move>,
    },
    /// The engine could not judge the answer.
    JudgeFailed { reason: String },
}

/// What the adapters do, in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainEffect {
    Say {
        urgency: Urgency,
        lines: Vec<String>,
    },
    /// Ask the engine about `position` after `answer`; the answer comes back as
    /// [`TrainEvent::Judged`] or [`TrainEvent::JudgeFailed`].
    Judge {
        position: Chess,
        answer: Move,
    },
    /// Keep the progress (the whole file's text).
    Keep(String),
    /// The position asked about now (the screen and a board show it).
    Show(Chess),
    Speech(SpeechControl),
    /// The line was refused: it changed nothing.
    Refused,
    Quit,
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
pub const TYPED_AHEAD: usize = 16;

fn say(text: impl Into<String>) -> TrainEffect {
    TrainEffect::Say {
        urgency: Urgency::Answer,
        lines: vec![text.into()],
    }
}

/// Where a move goes: the king's square for castling.
fn target(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                File::G
            } else {
                File::C
            };
            Square::from_coords(file, king.rank())
        }
        other => other.to(),
    }
}

/// Whether `word` is one of the words of any language in `pick`.
fn is_word(word: &str, pick: fn(&Language) -> &Vec<String>) -> bool {
    let folded = fold(word);
    languages().any(|l| pick(l).iter().any(|w| fold(w) == folded))
}

impl Train {
    /// The training over `exercises` (those still due), with the progress so far; the
    /// effects open it: the count and the first question, or that there is nothing to do.
    pub fn new(
        exercises: Vec<Exercise>,
        progress: Progress,
        lang: &'static Language,
        form: Form,
        wording: Wording,
    ) -> (Train, Vec<TrainEffect>) {
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
            out.push(say(w.none.clone()));
            out.push(TrainEffect::Quit);
            return (t, out);
        }
        let count = counted(&w.positions, t.exercises.len() as u64);
        out.push(say(fill(&w.opened, &[("positions", &count)])));
        t.ask(&mut out);
        (t, out)
    }

    /// The exercise asked now.
    pub fn current(&self) -> Option<&Exercise> {
        (self.stage != Stage::Finished)
            .then(|| self.exercises.get(self.at))
            .flatten()
    }

    /// The position shown (the one asked about).
    pub fn position(&self) -> Option<&Chess> {
        self.current().map(|e| &e.position)
    }

    /// The engine is judging an answer: the player waits.
    pub fn judging(&self) -> bool {
        matches!(self.stage, Stage::Judging(_))
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    fn san_words(&self, pos: &Chess, m: Move) -> String {
        announce_san(SanPlus::from_move(pos.clone(), m), m, self.lang, self.form)
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
    fn ask(&mut self, out: &mut Vec<TrainEffect>) {
        self.stage = Stage::Asking;
        self.hints = 0;
        self.wrong = 0;
        let Some(ex) = self.exercises.get(self.at) else {
            return self.finish(out);
        };
        let (key, pos) = (ex.key(), ex.position.clone());
        self.progress.tried(&key);
        out.push(TrainEffect::Show(pos));
        if let Some(q) = self.question() {
            out.push(say(q));
        }
    }

    /// The next exercise, or the end of the round.
    fn next(&mut self, out: &mut Vec<TrainEffect>) {
        self.at += 1;
        if self.at < self.exercises.len() {
            self.ask(out);
        } else {
            self.finish(out);
        }
    }

    fn finish(&mut self, out: &mut Vec<TrainEffect>) {
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
        out.push(TrainEffect::Keep(self.progress.encode()));
        out.push(say(fill(
            &self.lang.train.finished,
            &[
                ("solved", &self.solved.to_string()),
                ("total", &total.to_string()),
                ("left", &counted(&self.lang.train.positions, left as u64)),
            ],
        )));
        out.push(TrainEffect::Quit);
    }

    fn line(&mut self, text: &str, out: &mut Vec<TrainEffect>) {
        if std::mem::take(&mut self.asking_skip) {
            match confirmed(text) {
                Confirm::Yes => return self.skip(out),
                Confirm::No => {
                    out.push(say(self.lang.train.not_skipped.clone()));
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
                    out.push(say(q));
                }
            }
            Typed::Command(c) => self.command(c, out),
            Typed::Move(_) if self.judging() => {
                out.push(say(self.lang.train.busy.clone()));
                out.push(TrainEffect::Refused);
            }
            Typed::Move(m) => self.answer(m, out),
            Typed::Refused(effects) => out.extend(effects),
        }
    }

    /// The lines typed while the answer was judged, in order, until one is an answer to
    /// judge again (the rest wait for that verdict).
    fn answer_typed_ahead(&mut self, out: &mut Vec<TrainEffect>) {
        while !self.judging() && self.stage != Stage::Finished {
            let Some(text) = self.typed_ahead.pop_front() else {
                return;
            };
            self.line(&text, out);
        }
    }

    fn command(&mut self, c: Command, out: &mut Vec<TrainEffect>) {
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
            out.push(say(text));
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
            Command::Last | Command::Turn => {
                if let Some(q) = self.question() {
                    out.push(say(q));
                }
            }
            c => out.extend(position_answer(&c, &pos, player, lang, form, w)),
        }
    }

    fn hint(&mut self, out: &mut Vec<TrainEffect>) {
        let Some(ex) = self.current() else {
            return;
        };
        out.push(say(hint_words(ex.best, self.hints, self.lang)));
        self.hints = self.hints.saturating_add(1).min(2);
    }

    /// The solution, and the next position; not counted as solved.
    fn show(&mut self, out: &mut Vec<TrainEffect>) {
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
        out.push(say(text));
        out.push(TrainEffect::Keep(self.progress.encode()));
        self.next(out);
    }

    /// A position begun (a hint taken, a wrong try) is skipped only when the player says yes.
    fn ask_skip(&mut self, out: &mut Vec<TrainEffect>) {
        if self.current().is_none() || self.judging() {
            return;
        }
        if self.hints > 0 || self.wrong > 0 {
            self.asking_skip = true;
            out.push(say(self.lang.train.skip_confirm.clone()));
        } else {
            self.skip(out);
        }
    }

    /// The question waiting for its answer, if one does.
    pub fn question_asked(&self) -> Option<&str> {
        self.asking_skip
            .then_some(self.lang.train.skip_confirm.as_str())
    }

    fn skip(&mut self, out: &mut Vec<TrainEffect>) {
        if self.current().is_none() {
            return;
        }
        out.push(say(self.lang.train.skipped.clone()));
        out.push(TrainEffect::Keep(self.progress.encode()));
        self.next(out);
    }

    fn answer(&mut self, m: Move, out: &mut Vec<TrainEffect>) {
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
            out.push(say(fill(&self.lang.train.same_move, &[("reply", &reply)])));
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
        out.push(TrainEffect::Judge {
            position,
            answer: m,
        });
    }

    fn judged(&mut self, m: Move, eval: Eval, reply: Vec<Move>, out: &mut Vec<TrainEffect>) {
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
        out.push(say(text));
        self.wrong_answer(out);
    }

    fn wrong_answer(&mut self, out: &mut Vec<TrainEffect>) {
        self.wrong += 1;
        if self.wrong >= WRONG_BEFORE_SHOWN {
            out.push(say(self.lang.train.three_wrong.clone()));
            self.show(out);
        } else {
            out.push(TrainEffect::Refused);
        }
    }

    /// A right answer: praised, the line said on, counted, the next position. `reply` is
    /// the engine's line after another move as good as its best.
    fn right(&mut self, m: Move, reply: Option<Vec<Move>>, out: &mut Vec<TrainEffect>) {
        let Some(ex) = self.current() else {
            return;
        };
        let w = &self.lang.train;
        let said = self.san_words(&ex.position, m);
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
        out.push(TrainEffect::Say {
            urgency: Urgency::Answer,
            lines,
        });
        out.push(TrainEffect::Keep(self.progress.encode()));
        self.next(out);
    }
}

/// What the adapter of the exercises (the training and the puzzles) needs of a machine.
pub trait Exercises: Machine<Event = TrainEvent, Effect = TrainEffect> {
    /// The position asked about, while one is.
    fn position(&self) -> Option<&Chess>;
    /// The engine judges an answer: the player waits.
    fn judging(&self) -> bool {
        false
    }
    /// A question that waits for yes or no (skipping what was begun).
    fn question(&self) -> Option<&str> {
        None
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
}

/// Every command of the training and the puzzles, as the whole list names them.
pub fn exercise_commands() -> Vec<Listed> {
    let mut all = vec![
        Listed::Hint,
        Listed::Solution,
        Listed::Skip,
        Listed::Help,
        Listed::Quit,
    ];
    all.extend(POSITION);
    all.extend(SPEECH);
    all
}

/// The answer to "skip what was begun?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    Yes,
    No,
    /// Enter alone, or skipping asked again: the question again.
    Again,
    /// Anything else: the question goes, and the line is read as it is.
    Other,
}

/// Reads the answer to a yes-or-no question of an exercise.
pub fn confirmed(text: &str) -> Confirm {
    let text = text.trim();
    let first = text.split_whitespace().next().unwrap_or("");
    if text.is_empty() || is_word(first, |l| &l.train.skip) {
        return Confirm::Again;
    }
    match read_line(text) {
        Ok(Line::Command(Command::Yes)) => Confirm::Yes,
        Ok(Line::Command(Command::No)) => Confirm::No,
        Ok(Line::Command(Command::New)) => Confirm::Again,
        _ => Confirm::Other,
    }
}

/// What a typed line is in an exercise.
pub enum Typed {
    /// Show the solution.
    Solution,
    /// Leave the position for now.
    Skip,
    /// An empty line: the question again.
    Again,
    Command(Command),
    Move(Move),
    /// Not understood: what to say, and that it was refused.
    Refused(Vec<TrainEffect>),
}

/// Reads a line typed (or heard) in an exercise at `pos`: the exercise's own words in any
/// language first, then the commands of play, then a move.
pub fn read_typed(text: &str, pos: Option<&Chess>, lang: &Language) -> Typed {
    let text = text.trim();
    let first = text.split_whitespace().next().unwrap_or("");
    let first = first.trim_end_matches(['?', '!', '.', ':']);
    if !first.is_empty() && is_word(first, |l| &l.train.solution) {
        return Typed::Solution;
    }
    if !first.is_empty() && is_word(first, |l| &l.train.skip) {
        return Typed::Skip;
    }
    match read_line(text) {
        Ok(Line::Empty) => Typed::Again,
        Ok(Line::Command(c)) => Typed::Command(c),
        Ok(Line::Move(typed)) => {
            let Some(pos) = pos else {
                return Typed::Again;
            };
            match parse_move_in(&typed, pos, lang) {
                Ok(m) => Typed::Move(m),
                Err(e) => Typed::Refused(vec![
                    TrainEffect::Say {
                        urgency: Urgency::Urgent,
                        lines: vec![message(&e, pos, lang)],
                    },
                    TrainEffect::Refused,
                ]),
            }
        }
        Err(e) => Typed::Refused(vec![
            say(command_error_message(&e, lang)),
            TrainEffect::Refused,
        ]),
    }
}

/// The answer to a question about `pos` (the position alone: no game around it), the
/// speech's controls, or that the exercise does not take the command.
pub fn position_answer(
    c: &Command,
    pos: &Chess,
    player: Color,
    lang: &Language,
    form: Form,
    w: Wording,
) -> Vec<TrainEffect> {
    if let Some(control) = c.speech() {
        return vec![TrainEffect::Speech(control)];
    }
    let at = Asked {
        position: pos,
        game: None,
        seen_from: player,
        player,
        lang,
        form,
        wording: &w,
    };
    match c.question().and_then(|q| question::answer(&q, &at)) {
        Some(lines) => vec![TrainEffect::Say {
            urgency: Urgency::Answer,
            lines,
        }],
        None => vec![say(lang.train.not_here.clone()), TrainEffect::Refused],
    }
}

/// A hint towards `best`: the first names the piece and its square, later ones where it
/// goes (`given`: how many were given before).
pub fn hint_words(best: Move, given: u8, lang: &Language) -> String {
    let piece = lang.piece(best.role()).to_string();
    if given == 0 {
        let from = best.from().map(|s| lang.square(s)).unwrap_or_default();
        fill(
            &lang.train.hint_piece,
            &[("piece", &piece), ("square", &from)],
        )
    } else {
        fill(
            &lang.train.hint_square,
            &[("piece", &piece), ("square", &lang.square(target(best)))],
        )
    }
}

impl Machine for Train {
    type Event = TrainEvent;
    type Effect = TrainEffect;

    fn handle(&mut self, event: TrainEvent, _now: Timestamp) -> Vec<TrainEffect> {
        let mut out = Vec::new();
        if matches!(
            event,
            TrainEvent::Line(_) | TrainEvent::Command(_) | TrainEvent::Move(_)
        ) {
            self.help.input();
        }
        match event {
            // Kept while the engine judges: answered in order after its verdict.
            TrainEvent::Line(text) if self.judging() => {
                if self.typed_ahead.len() < TYPED_AHEAD {
                    self.typed_ahead.push_back(text);
                } else {
                    out.push(say(self.lang.train.busy.clone()));
                    out.push(TrainEffect::Refused);
                }
            }
            TrainEvent::Line(text) => self.line(&text, &mut out),
            TrainEvent::Command(c) => self.command(c, &mut out),
            TrainEvent::Move(m) => {
                // A move on the board lets a question go.
                self.asking_skip = false;
                let legal = self.position().is_some_and(|p| p.is_legal(m));
                if legal && !self.judging() {
                    self.answer(m, &mut out);
                } else if self.judging() {
                    out.push(say(self.lang.train.busy.clone()));
                    out.push(TrainEffect::Refused);
                }
            }
            TrainEvent::Judged {
                answer,
                eval,
                reply,
            } => {
                if self.stage == Stage::Judging(answer) {
                    self.judged(answer, eval, reply, &mut out);
                    self.answer_typed_ahead(&mut out);
                }
            }
            TrainEvent::JudgeFailed { reason } => {
                if self.judging() {
                    self.stage = Stage::Asking;
                    out.push(TrainEffect::Say {
                        urgency: Urgency::Urgent,
                        lines: vec![fill(&self.lang.train.engine_failed, &[("reason", &reason)])],
                    });
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
