//! Walking through an analysed game (`hector analyse --walk`, `analyse` after a game): the
//! game is looked back at as in the review, and the analysis answers on top of it. `fehler`
//! goes to the position before the next judged move and says it, `besser` says the engine's
//! line from the position looked at and shows where it leads, `zurück` leaves that line,
//! `bewertung` and `tipp` answer from the analysis. No move is played: the game stays as it
//! was recorded.

use shakmaty::{Chess, Color, Move, Position, san::SanPlus};

use super::{Effect, Event, Match, answer};
use crate::analysis::{PositionEval, Review, errors_summary, eval_words, review};
use crate::matchplay::command::Command;
use crate::notation::language::fill;
use crate::notation::speak::announce_san;
use crate::notation::speak::line_words;

/// How many half-moves of the engine's line are said and shown.
pub const LINE_SAID: usize = 6;

/// An analysed game to walk through.
#[derive(Clone, Debug)]
pub struct Walk {
    review: Review,
    /// The engine's best line from each position of the game (`lines[0]` from the start).
    lines: Vec<Vec<Move>>,
    /// The better line shown: the half-moves of the game where it leaves it, and the
    /// position at its end.
    line: Option<(usize, Chess)>,
    /// The judged move `fehler` went to last (its index among the half-moves).
    last_mistake: Option<usize>,
}

impl Walk {
    /// The walk over `review`, with the engine's line from each position (missing lines
    /// are the best move alone, or nothing).
    pub fn new(review: Review, mut lines: Vec<Vec<Move>>) -> Walk {
        lines.resize(review.plies.len() + 1, Vec::new());
        Walk {
            review,
            lines,
            line: None,
            last_mistake: None,
        }
    }
}

impl Match {
    /// Opens the walk over the game's analysis at its start position; the answer says the
    /// counts of each side's errors.
    pub(super) fn open_walk(&mut self, walk: Walk) -> Vec<Effect> {
        let lang = self.lang;
        let summary: Vec<String> = [Color::White, Color::Black]
            .into_iter()
            .map(|side| errors_summary(&walk.review, side, lang))
            .collect();
        self.walk = Some(walk);
        self.review = Some(0);
        self.picked = None;
        vec![answer(fill(
            &lang.walk.opened,
            &[("summary", &summary.join(". "))],
        ))]
    }

    /// The walk, while the game is walked through.
    pub fn walk(&self) -> Option<&Walk> {
        self.walk.as_ref()
    }

    /// The end of the better line, while it is shown.
    pub(super) fn line_position(&self) -> Option<&Chess> {
        self.walk.as_ref()?.line.as_ref().map(|(_, pos)| pos)
    }

    /// The half-moves of the position looked at in the walk (the game's end included).
    fn walk_ply(&self) -> usize {
        self.reviewed_ply().unwrap_or(self.game.ply())
    }

    /// Leaves the better line before the review moves on.
    pub(super) fn leave_line(&mut self) {
        if let Some(w) = self.walk.as_mut() {
            w.line = None;
        }
    }

    /// The judgement of the move that led to the position after `ply` half-moves, in words,
    /// appended to `position` (the review's words).
    pub(super) fn with_judgement(&self, ply: usize, position: String) -> String {
        let judged = self
            .walk
            .as_ref()
            .and_then(|w| w.review.plies.get(ply.checked_sub(1)?))
            .and_then(|p| p.judgement);
        match judged {
            Some(j) => fill(
                &self.lang.walk.judged,
                &[("position", &position), ("kind", j.words(self.lang))],
            ),
            None => position,
        }
    }

    /// `fehler`, `besser`, `zurück` and `analyse`; `bewertung` and `tipp` while walking.
    pub(super) fn walk_command(&mut self, c: &Command, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let ww = &lang.walk;
        if *c == Command::Analyse {
            let words = if self.walk.is_some() {
                ww.already.clone()
            } else if !self.game.is_over() {
                ww.after_game.clone()
            } else {
                out.push(Effect::Analyse);
                return;
            };
            out.push(answer(words));
            return;
        }
        if self.walk.is_none() {
            // The walk's words outside a walk: the analysis opens after the game.
            out.push(answer(if self.game.is_over() {
                ww.open_first.clone()
            } else {
                ww.after_game.clone()
            }));
            return;
        }
        let ply = self.walk_ply();
        match c {
            Command::Mistakes => self.walk_mistakes(ply, out),
            Command::Better => self.walk_better(ply, out),
            Command::Back => self.walk_back(out),
            Command::Eval => self.walk_eval(ply, out),
            Command::Hint => self.walk_hint(ply, out),
            _ => {}
        }
    }

    /// `fehler`: the next judged move from the one shown, or from the last one found.
    fn walk_mistakes(&mut self, ply: usize, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let ww = &lang.walk;
        let Some(walk) = self.walk.as_ref() else {
            return;
        };
        let from = match walk.last_mistake {
            Some(last) if last == ply && walk.line.is_none() => last + 1,
            Some(last) if walk.line.as_ref().is_some_and(|(p, _)| *p == last) => last + 1,
            _ => ply,
        };
        let next = walk
            .review
            .plies
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, p)| p.judgement.is_some())
            .map(|(i, p)| (i, p.clone()));
        let any = walk.review.plies.iter().any(|p| p.judgement.is_some());
        match next {
            Some((i, p)) => {
                if let Some(w) = self.walk.as_mut() {
                    w.line = None;
                    w.last_mistake = Some(i);
                }
                self.review = Some(i);
                self.picked = None;
                let kind = p.judgement.map_or("", |j| j.words(lang));
                out.push(answer(fill(
                    &ww.mistake,
                    &[
                        ("number", &p.number.to_string()),
                        ("color", lang.color(p.mover)),
                        ("move", &announce_san(p.san, p.mv, lang, self.setup.form)),
                        ("kind", kind),
                    ],
                )));
            }
            None if any => out.push(answer(ww.no_more.clone())),
            None => out.push(answer(ww.none.clone())),
        }
    }

    /// `besser`: the engine's line from the position shown, entered unless it is the game's.
    fn walk_better(&mut self, ply: usize, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let ww = &lang.walk;
        let Some(walk) = self.walk.as_ref() else {
            return;
        };
        let Some(pos) = self.game.position_at(ply).cloned() else {
            out.push(answer(ww.no_line.clone()));
            return;
        };
        let line: Vec<Move> = walk
            .lines
            .get(ply)
            .map(|l| l.iter().take(LINE_SAID).copied().collect())
            .unwrap_or_default();
        let played = walk.review.plies.get(ply);
        let Some(&first) = line.first() else {
            out.push(answer(ww.no_line.clone()));
            return;
        };
        let (words, end) = line_words(&pos, &line, self.lang, self.setup.form);
        let text = match played {
            Some(p) if p.mv == first => fill(
                &ww.best_played,
                &[("move", &announce_san(p.san, p.mv, lang, self.setup.form))],
            ),
            Some(p) => fill(
                &ww.better_line,
                &[("line", &words), ("eval", &eval_words(p.before, lang))],
            ),
            None => fill(&ww.engine_line, &[("line", &words)]),
        };
        // The played move was the engine's: the game itself shows its line.
        if played.is_none_or(|p| p.mv != first)
            && let Some(w) = self.walk.as_mut()
        {
            w.line = Some((ply, end));
            self.picked = None;
        }
        out.push(answer(text));
    }

    /// `zurück`: from the better line back to the game.
    fn walk_back(&mut self, out: &mut Vec<Effect>) {
        let ww = &self.lang.walk;
        let Some(walk) = self.walk.as_ref() else {
            return;
        };
        match walk.line {
            Some((at, _)) => {
                if let Some(w) = self.walk.as_mut() {
                    w.line = None;
                }
                let position = self.walk_position_words(at);
                out.push(answer(fill(&ww.back_in_game, &[("position", &position)])));
            }
            None => out.push(answer(ww.not_in_line.clone())),
        }
    }

    /// `bewertung`: how the position shown stands.
    fn walk_eval(&self, ply: usize, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let Some(walk) = self.walk.as_ref() else {
            return;
        };
        // In the better line, how the position stands with the engine's play.
        let eval = match walk.line {
            Some((at, _)) => walk.review.plies.get(at).map(|p| p.before),
            None => match ply.checked_sub(1) {
                Some(i) => walk.review.plies.get(i).map(|p| p.after),
                None => Some(walk.review.start_eval),
            },
        };
        if let Some(eval) = eval {
            out.push(answer(eval_words(eval, lang)));
        }
    }

    /// `tipp`: the engine's move in the game's position shown.
    fn walk_hint(&self, ply: usize, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let ww = &lang.walk;
        let Some(walk) = self.walk.as_ref() else {
            return;
        };
        let pos = self.shown_position().clone();
        let best = match walk.line {
            Some(_) => None,
            None => walk.lines.get(ply).and_then(|l| l.first()).copied(),
        };
        match best.filter(|m| pos.is_legal(*m)) {
            Some(m) => {
                let san = SanPlus::from_move(pos, m);
                out.push(answer(fill(
                    &lang.analysis.hint,
                    &[("move", &announce_san(san, m, lang, self.setup.form))],
                )));
            }
            None => out.push(answer(ww.no_line.clone())),
        }
    }

    /// The review's words for the position after `ply` half-moves, with the judgement of
    /// the move that led there.
    fn walk_position_words(&self, ply: usize) -> String {
        if ply >= self.game.ply() {
            return self.lang.review.at_current.clone();
        }
        self.with_judgement(ply, self.describe(ply))
    }

    /// The engine's evaluations of every position of the game, with its lines: the walk
    /// opens, or the answer says why it cannot.
    pub(super) fn analysed(
        &mut self,
        evals: &[PositionEval],
        lines: Vec<Vec<Move>>,
        out: &mut Vec<Effect>,
    ) {
        let moves: Vec<Move> = self.game.moves().iter().map(|p| p.mv).collect();
        match review(self.game.start(), &moves, evals) {
            Ok(r) => out.extend(self.open_walk(Walk::new(r, lines))),
            Err(e) => out.push(answer(fill(
                &self.lang.walk.failed,
                &[("reason", &e.to_string())],
            ))),
        }
    }

    /// The walk's answer to an event it handles, if it is one.
    pub(super) fn walk_event(&mut self, event: &Event, out: &mut Vec<Effect>) -> bool {
        match event {
            Event::Analysed { evals, lines } => {
                self.analysed(evals, lines.clone(), out);
                true
            }
            Event::AnalysisFailed { reason } => {
                out.push(answer(fill(&self.lang.walk.failed, &[("reason", reason)])));
                true
            }
            _ => false,
        }
    }
}

/// Whether `text` is the training's word for the solution, in any language (in the walk,
/// the better line).
pub(super) fn is_solution_word(text: &str) -> bool {
    use crate::notation::vocabulary::fold;
    let Some(first) = text.split_whitespace().next() else {
        return false;
    };
    let folded = fold(first.trim_end_matches(['?', '!', '.', ':']));
    crate::notation::language::languages()
        .any(|l| l.exercise.solution.iter().any(|w| fold(w) == folded))
        && text.split_whitespace().count() == 1
}

/// Every command of the walk, as its whole list names them.
pub(crate) fn commands() -> Vec<crate::matchplay::help::Listed> {
    use crate::matchplay::help::{GAME, Listed, POSITION, REVIEW, SPEECH};
    let mut all = vec![
        Listed::Mistakes,
        Listed::Better,
        Listed::Back,
        Listed::Eval,
        Listed::Hint,
        Listed::Explorer,
        Listed::Help,
        Listed::Quit,
    ];
    all.extend(REVIEW);
    all.extend(POSITION);
    all.extend(GAME);
    all.extend(SPEECH);
    all
}

#[cfg(test)]
mod tests {
    use shakmaty::uci::UciMove;

    use super::super::tests::{said_to, setup};
    use super::super::{Effect, Event, Match, Side};
    use super::*;
    use crate::analysis::Eval;
    use crate::game::Game;
    use crate::machine::Machine;
    use crate::notation::language::language;
    use crate::time::Timestamp;

    /// 1. e4 e5 2. Lc4 Sc6 3. Dh5 Sf6?? 4. Dxf7#: one blunder, Black's third move.
    fn scholars_mate() -> Game {
        let mut g = Game::default();
        for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
            g.play_san(san).expect("legal");
        }
        g
    }

    fn mv(g: &Game, ply: usize, uci: &str) -> Move {
        uci.parse::<UciMove>()
            .expect("uci")
            .to_move(g.position_at(ply).expect("position"))
            .expect("legal")
    }

    /// The engine's answers as an adapter hands them in.
    fn answers(g: &Game) -> (Vec<PositionEval>, Vec<Vec<Move>>) {
        let best = ["e2e4", "e7e5", "g1f3", "g8f6", "g1f3", "g7g6", "h5f7"];
        let cps = [30, 30, 30, 20, 30, 30];
        let mut evals = Vec::new();
        let mut lines = Vec::new();
        for (ply, uci) in best.iter().enumerate() {
            let eval = match cps.get(ply) {
                Some(&cp) => Eval::Centipawns(cp),
                None => Eval::Mate(1),
            };
            let first = mv(g, ply, uci);
            evals.push(PositionEval {
                eval,
                best: Some(first),
            });
            lines.push(vec![first]);
        }
        // From before the blunder, the engine's line: 3. … g6 4. Df3 Sf6.
        let mut pos = g.position_at(5).expect("position").clone();
        let mut line = Vec::new();
        for uci in ["g7g6", "h5f3", "g8f6"] {
            let m = uci
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
            line.push(m);
        }
        lines[5] = line;
        evals.push(PositionEval {
            eval: Eval::Over(Some(Color::White)),
            best: None,
        });
        lines.push(Vec::new());
        (evals, lines)
    }

    fn walked() -> Match {
        let g = scholars_mate();
        let (evals, lines) = answers(&g);
        let (mut m, _) = Match::start(
            setup(Side::Keyboard, Side::Keyboard),
            g,
            language("de").expect("de"),
            Timestamp::ZERO,
        );
        let mut out = Vec::new();
        m.analysed(&evals, lines, &mut out);
        m
    }

    fn typed(m: &mut Match, text: &str) -> Vec<String> {
        said_to(m, Event::Line(text.into()))
    }

    #[test]
    fn the_walk_stops_at_the_mistake_and_shows_the_better_line() {
        let mut m = walked();
        assert_eq!(m.reviewed_ply(), Some(0));
        assert_eq!(
            typed(&mut m, "fehler"),
            [
                "Vor Zug 3, Schwarz: gespielt wurde Springer Felix sechs, grober Fehler. \
                 besser nennt den besseren Zug"
            ]
        );
        // The position before the blunder, for every question.
        assert_eq!(m.reviewed_ply(), Some(5));
        assert_eq!(typed(&mut m, "feld f6"), ["Felix sechs: leer"]);
        assert_eq!(typed(&mut m, "wer"), ["Schwarz ist am Zug"]);
        assert_eq!(
            typed(&mut m, "bewertung"),
            ["Weiß steht etwas besser, plus 0,3"]
        );
        assert_eq!(
            typed(&mut m, "besser"),
            [
                "Besser: Zug 3, Schwarz: Gustav sechs; Zug 4, Weiß: Dame Felix drei; Schwarz: Springer Felix sechs. \
                 Weiß steht etwas besser, plus 0,3"
            ]
        );
        // The line's end is shown and asked about.
        assert_eq!(m.review_heading().as_deref(), Some("Bessere Linie"));
        assert_eq!(typed(&mut m, "feld g6"), ["Gustav sechs: schwarzer Bauer"]);
        assert_eq!(typed(&mut m, "feld f3"), ["Felix drei: weiße Dame"]);
        assert_eq!(
            typed(&mut m, "zurück"),
            ["Zurück in der Partie. Rückblick nach Zug 3, Weiß: Dame Hector fünf"]
        );
        assert_eq!(typed(&mut m, "feld g6"), ["Gustav sechs: leer"]);
        assert_eq!(
            typed(&mut m, "zurück"),
            ["Keine bessere Linie offen. besser zeigt eine"]
        );
        // Stepping says the judgement of the move stepped over.
        assert_eq!(
            typed(&mut m, "vor"),
            ["Rückblick nach Zug 3, Schwarz: Springer Felix sechs, grober Fehler"]
        );
        assert_eq!(
            typed(&mut m, "tipp"),
            ["Tipp: Dame schlägt Felix sieben, Schachmatt"]
        );
        assert_eq!(
            typed(&mut m, "fehler"),
            ["Danach kein Fehler mehr. stellung 0 geht zum Anfang"]
        );
        // Nothing is played in the walk.
        assert_eq!(
            typed(&mut m, "Dxf7"),
            ["In der Analyse wird nicht gezogen. fehler, besser, vor, vorher, zurück"]
        );
        assert_eq!(m.game().ply(), 7);
        typed(&mut m, "stellung 0");
        assert!(typed(&mut m, "fehler")[0].starts_with("Vor Zug 3, Schwarz"));
        assert_eq!(
            typed(&mut m, "analyse"),
            ["Die Analyse ist offen. fehler springt zum nächsten Fehler"]
        );
    }

    #[test]
    fn the_best_move_played_is_said_so() {
        let mut m = walked();
        assert_eq!(
            typed(&mut m, "besser"),
            ["Gespielt wurde der beste Zug: Eva vier"]
        );
        assert_eq!(m.review_heading().as_deref(), Some("Rückblick"));
        typed(&mut m, "stellung 3");
        typed(&mut m, "vor");
        // The end of the game: no move left.
        assert_eq!(m.reviewed_ply(), None);
        assert_eq!(typed(&mut m, "besser"), ["Hier gibt es keinen Zug mehr"]);
        assert_eq!(
            typed(&mut m, "bewertung"),
            ["Schachmatt, Weiß hat gewonnen"]
        );
    }

    #[test]
    fn analyse_asks_the_engine_only_after_the_game() {
        let lang = language("de").expect("de");
        let mut m = super::super::tests::start_against(Side::Keyboard);
        assert_eq!(
            typed(&mut m, "analyse"),
            ["Die Analyse gibt es nach der Partie"]
        );
        assert_eq!(
            typed(&mut m, "fehler"),
            ["Die Analyse gibt es nach der Partie"]
        );
        let g = scholars_mate();
        let (evals, lines) = answers(&g);
        let (mut m, _) = Match::start(
            setup(Side::Keyboard, Side::Keyboard),
            g,
            lang,
            Timestamp::ZERO,
        );
        assert_eq!(
            typed(&mut m, "fehler"),
            ["Erst analyse sagen: der Computer bewertet die Partie"]
        );
        let out = m.handle(Event::Line("analyse".into()), Timestamp::ZERO);
        assert!(out.contains(&Effect::Analyse), "{out:?}");
        let opened = said_to(&mut m, Event::Analysed { evals, lines });
        assert_eq!(
            opened,
            [
                "Analyse. Weiß: 0 Ungenauigkeiten, 0 Fehler, 0 grobe Fehler. Schwarz: 0 \
                 Ungenauigkeiten, 0 Fehler, 1 grober Fehler. fehler springt zum nächsten \
                 Fehler, hilfe sagt mehr"
            ]
        );
        assert!(typed(&mut m, "fehler")[0].starts_with("Vor Zug 3, Schwarz"));
        // Answers that do not fit the game open nothing.
        let mut other = super::super::tests::start_against(Side::Keyboard);
        let said = said_to(
            &mut other,
            Event::Analysed {
                evals: Vec::new(),
                lines: Vec::new(),
            },
        );
        assert!(said[0].starts_with("Der Computer kann die Partie nicht bewerten"));
        assert!(other.walk().is_none());
    }
}
