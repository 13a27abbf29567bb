//! Looking back in the game's history. It changes nothing in the game: nothing here is
//! recorded, and a resumed game starts at the current position.
//!
//! `stellung 12` is the position after move 12 of the scoresheet, Black's (the full move);
//! `stellung 12 weiß` the position after White's 12th move. `stellung 0` is the position
//! before White's first move when the game began there.

use crate::machine::Common;
use shakmaty::{Chess, Color, Position};

use super::{Effect, Match, answer};
use crate::game::Game;
use crate::matchplay::command::Command;
use crate::notation::language::fill;
use crate::notation::speak::announce_san;

/// The number of half-moves played when the position after move `number` of `color` stands
/// on the board, if the game has it.
fn ply_after(game: &Game, number: u32, color: Color) -> Option<usize> {
    let index = |number: u32, color: Color| -> i64 {
        2 * (i64::from(number) - 1) + i64::from(color == Color::Black)
    };
    let start = game.start();
    // The half-move the game began with (0 for White's first move).
    let first = index(start.fullmoves().get(), start.turn());
    let ply = index(number, color) - first + 1;
    usize::try_from(ply).ok().filter(|&p| p <= game.ply())
}

impl Match {
    /// The half-moves of the position the player looks back at, while looking back.
    pub fn reviewed_ply(&self) -> Option<usize> {
        self.review.filter(|&p| p < self.game.ply())
    }

    /// The position every question about the board answers for: the one looked back at, or
    /// the current one.
    pub fn shown_position(&self) -> &Chess {
        if let Some(line) = self.line_position() {
            return line;
        }
        self.reviewed_ply()
            .and_then(|p| self.game.position_at(p))
            .unwrap_or_else(|| self.game.position())
    }

    /// The screen's heading while looking back: "Rückblick: 12. Schwarz" (the label alone
    /// at the start).
    pub fn review_heading(&self) -> Option<String> {
        if self.line_position().is_some() {
            return Some(self.lang.walk.label.clone());
        }
        let ply = self.reviewed_ply()?;
        let label = &self.lang.review.label;
        Some(
            match ply.checked_sub(1).and_then(|i| self.game.position_at(i)) {
                Some(before) => format!(
                    "{label}: {}. {}",
                    before.fullmoves(),
                    self.lang.color(before.turn())
                ),
                None => label.clone(),
            },
        )
    }

    pub(super) fn describe(&self, ply: usize) -> String {
        let lang = self.lang;
        let r = &lang.review;
        let (Some(played), Some(before)) = (
            ply.checked_sub(1).and_then(|i| self.game.moves().get(i)),
            ply.checked_sub(1).and_then(|i| self.game.position_at(i)),
        ) else {
            return r.start.clone();
        };
        fill(
            &r.after,
            &[
                ("number", &before.fullmoves().get().to_string()),
                ("color", lang.color(before.turn())),
                (
                    "move",
                    &announce_san(
                        self.setup.wording.san(played.san),
                        played.mv,
                        lang,
                        self.setup.form,
                    ),
                ),
            ],
        )
    }

    /// The sounds of the move that led to `ply`, heard before its words when it is said
    /// again (stepping through the game, the walk).
    fn cue_of(&self, ply: usize, out: &mut Vec<Effect>) {
        if let Some(played) = ply.checked_sub(1).and_then(|i| self.game.moves().get(i)) {
            out.push(Effect::Common(Common::Cue(crate::cue::for_move(
                &played.san,
            ))));
        }
    }

    /// Looks back at `ply`, or comes back when it is the current position.
    fn look_at(&mut self, ply: usize, out: &mut Vec<Effect>) {
        if ply >= self.game.ply() {
            self.review = None;
            out.push(answer(self.lang.review.at_current.clone()));
        } else {
            self.review = Some(ply);
            self.picked = None;
            self.cue_of(ply, out);
            out.push(answer(self.with_judgement(ply, self.describe(ply))));
        }
    }

    /// `stellung`, `vor`, `vorher`, `aktuell`.
    pub(super) fn review_command(&mut self, c: &Command, out: &mut Vec<Effect>) {
        // Stepping leaves the better line of the walk for the game.
        self.leave_line();
        let r = &self.lang.review;
        match *c {
            Command::Review { number: None, .. } => match self.reviewed_ply() {
                Some(p) => {
                    self.cue_of(p, out);
                    out.push(answer(self.describe(p)));
                }
                None => out.push(answer(r.which_move.clone())),
            },
            Command::Review {
                number: Some(number),
                color,
            } => {
                let color = color.unwrap_or(Color::Black);
                match ply_after(&self.game, number, color) {
                    Some(ply) => self.look_at(ply, out),
                    None => out.push(answer(fill(
                        &r.no_such,
                        &[
                            ("number", &number.to_string()),
                            ("color", self.lang.color(color)),
                        ],
                    ))),
                }
            }
            Command::ReviewNext => match self.reviewed_ply() {
                Some(p) => self.look_at(p + 1, out),
                None => out.push(answer(r.at_current.clone())),
            },
            Command::ReviewPrevious => match self.reviewed_ply().unwrap_or(self.game.ply()) {
                0 => out.push(answer(r.at_start.clone())),
                p => self.look_at(p - 1, out),
            },
            _ => {
                self.review = None;
                out.push(answer(r.at_current.clone()));
            }
        }
    }

    /// A move typed or made on the screen's board while looking back is refused: the player
    /// comes back first.
    pub(crate) fn refused_in_review(&self, out: &mut Vec<Effect>) -> bool {
        if self.walk().is_some() {
            out.push(answer(self.lang.walk.move_refused.clone()));
            out.push(Effect::Common(Common::Refused));
            return true;
        }
        if self.reviewed_ply().is_none() {
            return false;
        }
        out.push(answer(self.lang.review.move_refused.clone()));
        out.push(Effect::Common(Common::Refused));
        true
    }

    /// After a move was played (the opponent's, or a board's) while looking back: the review
    /// stays, and the player hears so.
    pub(super) fn after_move_in_review(&mut self, out: &mut Vec<Effect>) {
        self.picked = None;
        if self.reviewed_ply().is_some() {
            out.push(answer(self.lang.review.still.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn game(sans: &str) -> Game {
        let mut g = Game::default();
        for s in sans.split_whitespace() {
            g.play_san(s).expect("legal");
        }
        g
    }

    #[test]
    fn move_numbers_are_the_scoresheets() {
        let g = game("e4 e5 Nf3 Nc6 Bb5");
        assert_eq!(ply_after(&g, 1, Color::White), Some(1));
        assert_eq!(ply_after(&g, 1, Color::Black), Some(2));
        assert_eq!(ply_after(&g, 2, Color::Black), Some(4));
        assert_eq!(ply_after(&g, 3, Color::White), Some(5));
        assert_eq!(ply_after(&g, 0, Color::Black), Some(0));
        assert_eq!(ply_after(&g, 3, Color::Black), None);
        assert_eq!(ply_after(&g, 0, Color::White), None);
    }

    #[test]
    fn a_game_from_a_later_move_counts_from_there() {
        let start: Chess = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position");
        let mut g = Game::from_position(start, crate::variant::Variant::Standard);
        g.play_san("Nf3").expect("legal");
        g.play_san("Nc6").expect("legal");
        assert_eq!(ply_after(&g, 1, Color::Black), Some(0));
        assert_eq!(ply_after(&g, 2, Color::White), Some(1));
        assert_eq!(ply_after(&g, 2, Color::Black), Some(2));
        assert_eq!(ply_after(&g, 1, Color::White), None);
    }

    mod session {
        use super::super::super::tests::said_to;
        use super::super::super::*;

        fn start(black: Side) -> Match {
            super::super::super::tests::start_against(black)
        }

        fn typed(m: &mut Match, text: &str) -> Vec<String> {
            said_to(m, Event::Line(text.into()))
        }

        #[test]
        fn looking_back_answers_for_the_old_position_and_refuses_moves() {
            let mut m = start(Side::Keyboard);
            for mv in ["e4", "e5", "Sf3", "Sc6"] {
                typed(&mut m, mv);
            }
            assert_eq!(
                typed(&mut m, "stellung 1 weiß"),
                ["Rückblick nach Zug 1, Weiß: Eva vier"]
            );
            assert_eq!(m.reviewed_ply(), Some(1));
            assert_eq!(m.review_heading().as_deref(), Some("Rückblick: 1. Weiß"));
            assert_eq!(typed(&mut m, "feld e5"), ["Eva fünf: leer"]);
            assert_eq!(typed(&mut m, "wer"), ["Schwarz ist am Zug"]);
            // The last move is the one of the position looked at, not the game's.
            assert_eq!(typed(&mut m, "letzter"), ["Zuletzt: Zug 1, Weiß: Eva vier"]);
            assert_eq!(
                typed(&mut m, "Lc4"),
                ["Rückblick: erst aktuell sagen, dann ziehen"]
            );
            assert_eq!(m.game().ply(), 4);
            assert_eq!(
                typed(&mut m, "vor"),
                ["Rückblick nach Zug 1, Schwarz: Eva fünf"]
            );
            assert_eq!(
                typed(&mut m, "vorher"),
                ["Rückblick nach Zug 1, Weiß: Eva vier"]
            );
            assert_eq!(typed(&mut m, "vorher"), ["Rückblick: Anfangsstellung"]);
            assert_eq!(typed(&mut m, "letzter"), ["Noch kein Zug gespielt"]);
            assert_eq!(typed(&mut m, "vorher"), ["Schon die Anfangsstellung"]);
            assert_eq!(
                typed(&mut m, "stellung 3"),
                ["Zug 3 Schwarz gibt es in dieser Partie nicht"]
            );
            // The last full move is the current position: looking back ends.
            assert_eq!(typed(&mut m, "stellung 2"), ["Aktuelle Stellung"]);
            assert_eq!(m.reviewed_ply(), None);
            typed(&mut m, "position 2 white");
            assert_eq!(typed(&mut m, "next"), ["Aktuelle Stellung"]);
            typed(&mut m, "vorher");
            assert_eq!(typed(&mut m, "aktuell"), ["Aktuelle Stellung"]);
            assert_eq!(typed(&mut m, "feld f3"), ["Felix drei: weißer Springer"]);
            assert_eq!(
                typed(&mut m, "letzter"),
                ["Zuletzt: Zug 2, Schwarz: Springer Cäsar sechs"]
            );
            assert!(typed(&mut m, "Lc4").contains(&"Läufer Cäsar vier".to_string()));
        }

        #[test]
        fn the_opponents_move_is_played_while_looking_back() {
            let mut m = start(Side::Engine);
            typed(&mut m, "e4");
            typed(&mut m, "stellung 0");
            assert_eq!(m.reviewed_ply(), Some(0));
            let mv = m.game().legal_moves()[0];
            let words = said_to(&mut m, Event::EngineMove(mv));
            assert_eq!(words.len(), 2, "{words:?}");
            assert_eq!(words[1], "Noch im Rückblick, aktuell kehrt zurück");
            assert_eq!(m.game().ply(), 2);
            assert_eq!(m.reviewed_ply(), Some(0));
            assert_eq!(m.shown_position(), m.game().start());
        }
    }
}
