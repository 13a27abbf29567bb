//! What the exercises share (the training's positions and the puzzles): their events and
//! effects, the words a line is read with (the solution, skipping, yes or no), the answers to
//! questions about the position, the hints, and the whole list of their commands, so that one
//! adapter runs any machine that implements [`Exercises`].

use shakmaty::{Chess, Color, File, Move, Square};

use crate::analysis::Eval;
use crate::machine::{Common, Machine, Urgency, answer};
use crate::matchplay::command::{Command, Line, read_line};
use crate::matchplay::help::{Listed, POSITION, SPEECH};
use crate::matchplay::question::{self, Asked};
use crate::matchplay::session::command_error_message;
use crate::notation::language::{Language, fill, languages};
use crate::notation::parse::{message, parse_move_in};
use crate::notation::speak::Form;
use crate::notation::vocabulary::fold;
use crate::notation::wording::Wording;

/// What happens to an exercise (a training position, a puzzle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExerciseEvent {
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
pub enum ExerciseEffect {
    /// Words, the speech's controls, a refusal, the end.
    Common(Common),
    /// Ask the engine about `position` after `answer`; the answer comes back as
    /// [`ExerciseEvent::Judged`] or [`ExerciseEvent::JudgeFailed`].
    Judge { position: Chess, answer: Move },
    /// Keep the progress (the whole file's text).
    Keep(String),
    /// The position asked about now (the screen and a board show it).
    Show(Chess),
}

impl From<Common> for ExerciseEffect {
    fn from(c: Common) -> ExerciseEffect {
        ExerciseEffect::Common(c)
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

/// What the adapter of the exercises (the training and the puzzles) needs of a machine.
pub trait Exercises: Machine<Event = ExerciseEvent, Effect = ExerciseEffect> {
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
    /// The round ended by itself, every position asked (not at the player's word): its
    /// last answer has not yet been read.
    fn ran_out(&self) -> bool {
        false
    }
}

/// Every command of the training and the puzzles, as the whole list names them.
pub(crate) fn exercise_commands() -> Vec<Listed> {
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
pub(crate) enum Confirm {
    Yes,
    No,
    /// Enter alone, or skipping asked again: the question again.
    Again,
    /// Anything else: the question goes, and the line is read as it is.
    Other,
}

/// Reads the answer to a yes-or-no question of an exercise.
pub(crate) fn confirmed(text: &str) -> Confirm {
    let text = text.trim();
    let first = text.split_whitespace().next().unwrap_or("");
    if text.is_empty() || is_word(first, |l| &l.exercise.skip) {
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
pub(crate) enum Typed {
    /// Show the solution.
    Solution,
    /// Leave the position for now.
    Skip,
    /// An empty line: the question again.
    Again,
    Command(Command),
    Move(Move),
    /// Not understood: what to say, and that it was refused.
    Refused(Vec<ExerciseEffect>),
}

/// Reads a line typed (or heard) in an exercise at `pos`: the exercise's own words in any
/// language first, then the commands of play, then a move.
pub(crate) fn read_typed(text: &str, pos: Option<&Chess>, lang: &Language) -> Typed {
    let text = text.trim();
    let first = text.split_whitespace().next().unwrap_or("");
    let first = first.trim_end_matches(['?', '!', '.', ':']);
    if !first.is_empty() && is_word(first, |l| &l.exercise.solution) {
        return Typed::Solution;
    }
    if !first.is_empty() && is_word(first, |l| &l.exercise.skip) {
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
                    ExerciseEffect::Common(Common::Cue(vec![crate::cue::Cue::Illegal])),
                    ExerciseEffect::Common(Common::Say {
                        urgency: Urgency::Urgent,
                        lines: vec![message(&e, pos, lang)],
                    }),
                    ExerciseEffect::Common(Common::Refused),
                ]),
            }
        }
        Err(e) => Typed::Refused(vec![
            answer(command_error_message(&e, lang)),
            ExerciseEffect::Common(Common::Refused),
        ]),
    }
}

/// The answer to a question about `pos` (the position alone: no game around it), the
/// speech's controls, or that the exercise does not take the command.
pub(crate) fn position_answer(
    c: &Command,
    pos: &Chess,
    player: Color,
    lang: &Language,
    form: Form,
    w: Wording,
) -> Vec<ExerciseEffect> {
    if let Some(control) = c.speech() {
        return vec![ExerciseEffect::Common(Common::Speech(control))];
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
    match c.question().and_then(|q| question::answer(q, &at)) {
        Some(lines) => vec![ExerciseEffect::Common(Common::Say {
            urgency: Urgency::Answer,
            lines,
        })],
        None => vec![
            answer(lang.exercise.not_here.clone()),
            ExerciseEffect::Common(Common::Refused),
        ],
    }
}

/// A hint towards `best`: the first names the piece and its square, later ones where it
/// goes (`given`: how many were given before).
pub(crate) fn hint_words(best: Move, given: u8, lang: &Language) -> String {
    let piece = lang.piece(best.role()).to_string();
    if given == 0 {
        let from = best.from().map(|s| lang.square(s)).unwrap_or_default();
        fill(
            &lang.exercise.hint_piece,
            &[("piece", &piece), ("square", &from)],
        )
    } else {
        fill(
            &lang.exercise.hint_square,
            &[("piece", &piece), ("square", &lang.square(target(best)))],
        )
    }
}
