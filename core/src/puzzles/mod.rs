//! Puzzles (`hector puzzle`): the shipped lichess set ([`set`]), one after another near the
//! player's rating (or the rating asked for), of one theme when asked. The opponent's move
//! has been played; the player finds each move of the solution, the opponent's replies are
//! played; a mating move solves it at any step, as on lichess. A wrong move, or `lösung`, ends
//! the puzzle with the solution said. The rating follows the results ([`progress`]).
//!
//! [`PuzzleRun`] takes the same events and gives the same effects as the training's `Train`,
//! so that one adapter runs both.

pub(crate) mod online;
pub mod progress;
pub mod set;
pub use crate::notation::words::puzzles as words;
pub use online::{puzzle_of, rating_of, result_body};

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use shakmaty::{Chess, Color, Move, Position, san::SanPlus};

use crate::cue::Cue;
use crate::exercise::{
    Confirm, ExerciseEffect, ExerciseEvent, Typed, confirmed, exercise_commands, hint_words,
    position_answer, read_typed,
};
use crate::machine::Machine;
use crate::machine::{Common, answer};
use crate::matchplay::command::Command;
use crate::matchplay::help::{HelpAgain, all_commands, mode_help};
use crate::matchplay::question::Question;
use crate::notation::language::{Language, fill};
use crate::notation::speak::{Form, announce_san, line_words};
use crate::notation::wording::Wording;
use crate::time::Timestamp;
use progress::PuzzleProgress;
use set::Puzzle;

/// Which puzzles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    /// lichess's theme key.
    pub theme: Option<String>,
    /// A fixed rating to choose near; `None`: the player's rating.
    pub rating: Option<u32>,
}

/// The theme key a player typed: a key ("fork") or a theme's name in any language
/// ("Gabel"), compared without case.
pub fn theme_key(typed: &str) -> Option<String> {
    let folded = crate::notation::vocabulary::fold(typed.trim());
    crate::notation::language::languages().find_map(|l| {
        l.puzzle.themes.iter().find_map(|(key, name)| {
            (crate::notation::vocabulary::fold(key) == folded
                || crate::notation::vocabulary::fold(name) == folded)
                .then(|| key.clone())
        })
    })
}

/// A theme's name in `lang`; the key when the table has none.
pub(crate) fn theme_name<'a>(key: &'a str, lang: &'a Language) -> &'a str {
    lang.puzzle.themes.get(key).map_or(key, String::as_str)
}

/// The next puzzle: not played before nor in this session, of the theme, nearest the
/// rating (the lower id first among equals).
pub(crate) fn pick(
    puzzles: &[Puzzle],
    progress: &PuzzleProgress,
    skipped: &BTreeSet<String>,
    choice: &Choice,
) -> Option<usize> {
    let target = choice.rating.map_or(i64::from(progress.rating), i64::from);
    puzzles
        .iter()
        .enumerate()
        .filter(|(_, p)| !progress.played.contains_key(&p.id) && !skipped.contains(&p.id))
        .filter(|(_, p)| choice.theme.as_ref().is_none_or(|t| p.has_theme(t)))
        .min_by_key(|(_, p)| ((i64::from(p.rating) - target).abs(), p.id.clone()))
        .map(|(i, _)| i)
}

/// The puzzles' state machine.
#[derive(Clone, Debug)]
pub struct PuzzleRun {
    lang: &'static Language,
    form: Form,
    wording: Wording,
    puzzles: Vec<Puzzle>,
    choice: Choice,
    progress: PuzzleProgress,
    skipped: BTreeSet<String>,
    current: Option<usize>,
    /// The position now, and the index of the solution's next move in the puzzle's moves.
    pos: Chess,
    step: usize,
    hints: u8,
    solved: usize,
    played: usize,
    /// Skipping a puzzle begun waits for yes or no.
    asking_skip: bool,
    help: HelpAgain,
    /// Every puzzle there was has been played: the run ended by itself.
    ran_out: bool,
}

fn signed(change: i32) -> String {
    if change > 0 {
        format!("+{change}")
    } else {
        change.to_string()
    }
}

impl PuzzleRun {
    pub fn new(
        puzzles: Vec<Puzzle>,
        choice: Choice,
        progress: PuzzleProgress,
        lang: &'static Language,
        form: Form,
        wording: Wording,
    ) -> (PuzzleRun, Vec<ExerciseEffect>) {
        let mut run = PuzzleRun {
            lang,
            form,
            wording,
            puzzles,
            choice,
            progress,
            skipped: BTreeSet::new(),
            current: None,
            pos: Chess::default(),
            step: 0,
            hints: 0,
            solved: 0,
            played: 0,
            asking_skip: false,
            help: HelpAgain::default(),
            ran_out: false,
        };
        let w = &lang.puzzle;
        let theme = run.choice.theme.as_deref().map_or(String::new(), |t| {
            fill(&w.theme_chosen, &[("theme", theme_name(t, lang))])
        });
        let rating = run.progress.rating;
        let mut out = vec![answer(fill(
            &w.opened,
            &[("rating", &rating.to_string()), ("theme", &theme)],
        ))];
        run.next(&mut out);
        (run, out)
    }

    pub fn progress(&self) -> &PuzzleProgress {
        &self.progress
    }

    /// The puzzle asked now.
    pub(crate) fn current(&self) -> Option<&Puzzle> {
        self.current.and_then(|i| self.puzzles.get(i))
    }

    /// The position to move in.
    pub(crate) fn position(&self) -> Option<&Chess> {
        self.current.map(|_| &self.pos)
    }

    fn words(&self, pos: &Chess, m: Move) -> String {
        announce_san(SanPlus::from_move(pos.clone(), m), m, self.lang, self.form)
    }

    /// A move said with its sounds before it (the solver's, the opponent's reply): its words
    /// without what the sounds say (`--cues-only-for`), and the sounds.
    fn cued(&self, pos: &Chess, m: Move) -> (String, ExerciseEffect) {
        let san = SanPlus::from_move(pos.clone(), m);
        let cue = ExerciseEffect::Common(Common::Cue(crate::cue::for_move(&san)));
        (
            announce_san(self.wording.san(san), m, self.lang, self.form),
            cue,
        )
    }

    fn question(&self) -> Option<String> {
        let p = self.current()?;
        let lang = self.lang;
        let themes: Vec<&str> = p
            .themes
            .iter()
            .filter(|t| lang.puzzle.themes.contains_key(t.as_str()))
            .map(|t| theme_name(t, lang))
            .collect();
        let last = p.moves.first().map(|&m| self.words(&p.before, m))?;
        Some(fill(
            &lang.puzzle.question,
            &[
                ("id", &p.id),
                ("rating", &p.rating.to_string()),
                ("themes", &themes.join(", ")),
                ("color", lang.color(p.solver())),
                ("move", &last),
            ],
        ))
    }

    fn next(&mut self, out: &mut Vec<ExerciseEffect>) {
        match pick(&self.puzzles, &self.progress, &self.skipped, &self.choice) {
            Some(i) => {
                self.current = Some(i);
                self.pos = self.puzzles[i].start();
                self.step = 1;
                self.hints = 0;
                out.push(ExerciseEffect::Show(self.pos.clone()));
                if let Some(q) = self.question() {
                    out.push(answer(q));
                }
            }
            None => {
                if self.played == 0 {
                    out.push(answer(self.lang.puzzle.none.clone()));
                }
                self.ran_out = true;
                self.finish(out);
            }
        }
    }

    fn finish(&mut self, out: &mut Vec<ExerciseEffect>) {
        self.current = None;
        out.push(ExerciseEffect::Keep(self.progress.encode()));
        out.push(answer(fill(
            &self.lang.puzzle.finished,
            &[
                ("solved", &self.solved.to_string()),
                ("total", &self.played.to_string()),
                ("rating", &self.progress.rating.to_string()),
            ],
        )));
        out.push(ExerciseEffect::Common(Common::Quit));
    }

    /// The puzzle is over: recorded, its words said with the rating, the next one asked.
    fn over(&mut self, solved: bool, words: &str, out: &mut Vec<ExerciseEffect>) {
        let Some(p) = self.current() else {
            return;
        };
        let (id, rating) = (p.id.clone(), p.rating);
        let change = self.progress.record(&id, rating, solved);
        self.played += 1;
        self.solved += usize::from(solved);
        let text = fill(
            words,
            &[
                ("rating", &self.progress.rating.to_string()),
                ("change", &signed(change)),
            ],
        );
        out.push(answer(text));
        out.push(ExerciseEffect::Keep(self.progress.encode()));
        self.next(out);
    }

    fn solution(&self) -> String {
        let Some(p) = self.current() else {
            return String::new();
        };
        line_words(
            &self.pos,
            &p.moves[self.step.min(p.moves.len())..],
            self.lang,
            self.form,
        )
        .0
    }

    fn answer(&mut self, m: Move, out: &mut Vec<ExerciseEffect>) {
        let Some(p) = self.current().cloned() else {
            return;
        };
        let Some(&expected) = p.moves.get(self.step) else {
            return;
        };
        let mut after = self.pos.clone();
        after.play_unchecked(m);
        // A mate ends the puzzle as won at any step, as lichess counts it: its database's
        // solutions are "only moves" except mates, and its puzzle page calls any mating move a
        // win before it compares the move with the solution's.
        let mates = after.is_checkmate();
        let last = self.step + 1 == p.moves.len() || mates;
        if m != expected && !mates {
            let said = self.words(&self.pos, m);
            let template = fill(
                &self.lang.puzzle.wrong,
                &[("move", &said), ("line", &self.solution())],
            );
            out.push(ExerciseEffect::Common(Common::Cue(vec![Cue::Illegal])));
            return self.over(false, &template, out);
        }
        // The solving move has its own sounds only: "solved" follows at once, and the
        // game's-end sound stays the sound of a game that ended.
        let (said, said_cue) = self.cued(&self.pos, m);
        out.push(said_cue);
        self.pos = after;
        self.step += 1;
        self.hints = 0;
        if last {
            let template = fill(&self.lang.puzzle.solved, &[("move", &said)]);
            return self.over(true, &template, out);
        }
        let reply = p.moves[self.step];
        let (reply_words, reply_cue) = self.cued(&self.pos, reply);
        self.pos.play_unchecked(reply);
        self.step += 1;
        out.push(ExerciseEffect::Show(self.pos.clone()));
        let template = &self.lang.puzzle.right_more;
        let fill_in = |part: &str| {
            fill(
                part,
                &[
                    ("move", &said),
                    ("color", self.lang.color(!p.solver())),
                    ("reply", &reply_words),
                ],
            )
        };
        // The reply's sounds come before the reply's sentence, not before the answer's
        // first words: the answer is said as two parts, split where the reply's sentence
        // begins (the sentence before the colour's name).
        let split = template
            .find("{color}")
            .and_then(|c| template[..c].rfind(". "));
        match split {
            Some(at) => {
                out.push(answer(fill_in(&template[..=at])));
                out.push(reply_cue);
                out.push(answer(fill_in(&template[at + 2..])));
            }
            None => out.push(answer(fill_in(template))),
        }
    }

    /// A puzzle begun (a right move played, a hint taken) is skipped only when the player
    /// says yes.
    fn ask_skip(&mut self, out: &mut Vec<ExerciseEffect>) {
        if self.current().is_none() {
            return;
        }
        if self.step > 1 || self.hints > 0 {
            self.asking_skip = true;
            out.push(answer(self.lang.puzzle.skip_confirm.clone()));
        } else {
            self.skip(out);
        }
    }

    fn skip(&mut self, out: &mut Vec<ExerciseEffect>) {
        if let Some(p) = self.current() {
            self.skipped.insert(p.id.clone());
            out.push(answer(self.lang.puzzle.skipped.clone()));
            self.next(out);
        }
    }

    fn command(&mut self, c: Command, out: &mut Vec<ExerciseEffect>) {
        let lang = self.lang;
        match c {
            Command::Quit => self.finish(out),
            Command::Help => {
                let text = self.help.answer(
                    || mode_help(&lang.puzzle.help, lang),
                    || all_commands(&exercise_commands(), lang),
                );
                out.push(answer(text));
            }
            Command::New => self.ask_skip(out),
            Command::Hint => {
                let best = self.current().and_then(|p| p.moves.get(self.step).copied());
                if let Some(best) = best {
                    out.push(answer(hint_words(best, self.hints, lang)));
                    self.hints = self.hints.saturating_add(1).min(2);
                }
            }
            Command::Better => self.show(out),
            Command::Ask(Question::Last) | Command::Ask(Question::Turn) => {
                if let Some(q) = self.question() {
                    out.push(answer(q));
                }
            }
            c => {
                if let Some(p) = self.current() {
                    let player = p.solver();
                    out.extend(position_answer(
                        &c,
                        &self.pos,
                        player,
                        lang,
                        self.form,
                        self.wording,
                    ));
                }
            }
        }
    }

    fn show(&mut self, out: &mut Vec<ExerciseEffect>) {
        if self.current().is_none() {
            return;
        }
        let template = fill(&self.lang.puzzle.shown, &[("line", &self.solution())]);
        self.over(false, &template, out);
    }
}

impl crate::exercise::Exercises for PuzzleRun {
    fn position(&self) -> Option<&Chess> {
        PuzzleRun::position(self)
    }
    fn question(&self) -> Option<&str> {
        self.asking_skip
            .then_some(self.lang.puzzle.skip_confirm.as_str())
    }
    fn ran_out(&self) -> bool {
        self.ran_out
    }
}

impl Machine for PuzzleRun {
    type Event = ExerciseEvent;
    type Effect = ExerciseEffect;

    fn handle(&mut self, event: ExerciseEvent, _now: Timestamp) -> Vec<ExerciseEffect> {
        let mut out = Vec::new();
        if self.current.is_none() {
            return out;
        }
        if matches!(
            event,
            ExerciseEvent::Line(_) | ExerciseEvent::Command(_) | ExerciseEvent::Move(_)
        ) {
            self.help.input();
        }
        let asking = std::mem::take(&mut self.asking_skip);
        if let (true, ExerciseEvent::Line(text)) = (asking, &event) {
            match confirmed(text) {
                Confirm::Yes => {
                    self.skip(&mut out);
                    return out;
                }
                Confirm::No => {
                    out.push(answer(self.lang.puzzle.not_skipped.clone()));
                    return out;
                }
                Confirm::Again => {
                    self.ask_skip(&mut out);
                    return out;
                }
                // Anything else lets the question go.
                Confirm::Other => {}
            }
        }
        match event {
            ExerciseEvent::Line(text) => match read_typed(&text, self.position(), self.lang) {
                Typed::Solution => self.show(&mut out),
                Typed::Skip => self.ask_skip(&mut out),
                Typed::Again => {
                    if let Some(q) = self.question() {
                        out.push(answer(q));
                    }
                }
                Typed::Command(c) => self.command(c, &mut out),
                Typed::Move(m) => self.answer(m, &mut out),
                Typed::Refused(effects) => out.extend(effects),
            },
            ExerciseEvent::Command(c) => self.command(c, &mut out),
            ExerciseEvent::Move(m) if self.pos.is_legal(m) => self.answer(m, &mut out),
            // Nothing is asked of the engine.
            _ => {}
        }
        out
    }

    fn next_deadline(&self, _now: Timestamp) -> Option<Timestamp> {
        None
    }
}

/// Whether `side` should win or hold, from the engine's evaluation (White's view):
/// `win_this` when its chances are clearly better than even (over 55 of 100).
pub fn goal_words(side: Color, eval: crate::analysis::Eval, lang: &Language) -> String {
    let template = if eval.win_chance(side) > 55.0 {
        &lang.puzzle.win_this
    } else {
        &lang.puzzle.hold_this
    };
    fill(
        template,
        &[
            ("color", lang.color(side)),
            ("eval", &crate::analysis::eval_words(eval, lang)),
        ],
    )
}
