//! Looking back in the game's history, and entering moves on the screen's board. Neither
//! changes the game: nothing here is recorded, and a resumed game starts at the current
//! position with nothing picked up.
//!
//! `stellung 12` is the position after move 12 of the scoresheet, Black's (the full move);
//! `stellung 12 weiß` the position after White's 12th move. `stellung 0` is the position
//! before White's first move when the game began there.

use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Color, Move, Position, Square};

use super::{Effect, Match, Side, SpeechControl, answer};
use crate::core::game::Game;
use crate::core::matchplay::command::Command;
use crate::core::notation::language::fill;
use crate::core::notation::speak::announce_san;
use crate::core::time::Timestamp;

/// The number of half-moves played when the position after move `number` of `color` stands
/// on the board, if the game has it.
pub fn ply_after(game: &Game, number: u32, color: Color) -> Option<usize> {
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
        self.reviewed_ply()
            .and_then(|p| self.game.position_at(p))
            .unwrap_or_else(|| self.game.position())
    }

    /// What the screen says while looking back: "Rückblick nach 12. Schwarz: …".
    pub fn review_words(&self) -> Option<String> {
        self.reviewed_ply().map(|p| self.describe(p))
    }

    /// The screen's heading while looking back: "Rückblick: 12. Schwarz" (the label alone
    /// at the start).
    pub fn review_heading(&self) -> Option<String> {
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

    /// The square of the piece picked up on the screen's board, if one is.
    pub fn picked(&self) -> Option<Square> {
        self.picked
    }

    fn describe(&self, ply: usize) -> String {
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
                    &announce_san(played.san, played.mv, lang, self.setup.form),
                ),
            ],
        )
    }

    /// Looks back at `ply`, or comes back when it is the current position.
    fn look_at(&mut self, ply: usize, out: &mut Vec<Effect>) {
        if ply >= self.game.ply() {
            self.review = None;
            out.push(answer(self.lang.review.at_current.clone()));
        } else {
            self.review = Some(ply);
            self.picked = None;
            out.push(answer(self.describe(ply)));
        }
    }

    /// `stellung`, `vor`, `vorher`, `aktuell`.
    pub(super) fn review_command(&mut self, c: &Command, out: &mut Vec<Effect>) {
        let r = &self.lang.review;
        match *c {
            Command::Review { number: None, .. } => match self.reviewed_ply() {
                Some(p) => out.push(answer(self.describe(p))),
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
    pub(super) fn refused_in_review(&self, out: &mut Vec<Effect>) -> bool {
        if self.reviewed_ply().is_none() {
            return false;
        }
        out.push(answer(self.lang.review.move_refused.clone()));
        out.push(Effect::Refused);
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

    /// Space on the screen's board: picks up a piece of the side to move, puts it down again
    /// on its own square, or plays it to the square, as a typed move would be played.
    pub(super) fn select(&mut self, square: Square, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let f = &lang.board_focus;
        if self.refused_in_review(out) {
            return;
        }
        if self.game.is_over() {
            out.push(answer(lang.messages.game_over.clone()));
            return;
        }
        let turn = self.game.turn();
        match self.setup.side(turn) {
            Side::Engine => {
                out.push(answer(lang.play.engine_thinking.clone()));
                return;
            }
            Side::Board if turn != self.setup.local => {
                out.push(answer(fill(
                    &lang.play.not_your_turn,
                    &[("color", lang.color(turn))],
                )));
                return;
            }
            _ => {}
        }
        let own = self
            .game
            .position()
            .board()
            .piece_at(square)
            .filter(|p| p.color == turn);
        match (self.picked, own) {
            (Some(from), _) if from == square => {
                self.picked = None;
                out.push(answer(f.put_down.clone()));
            }
            // Another piece of the same side is picked up instead, unless the move goes
            // there (a king onto its rook: castling in Chess960).
            (Some(from), Some(p)) if self.board_move_text(from, square).is_none() => {
                self.pick(square, p.role, out);
            }
            (Some(from), _) => {
                self.picked = None;
                // The move in notation when it is one; otherwise the squares, which the
                // typed-move path refuses with its reason or asks the promotion piece for.
                let text = self
                    .board_move_text(from, square)
                    .unwrap_or_else(|| format!("{from}{square}"));
                self.typed_move(&text, now, out);
            }
            (None, Some(p)) => self.pick(square, p.role, out),
            (None, None) => out.push(answer(fill(
                &f.nothing_to_pick,
                &[("square", &lang.square(square))],
            ))),
        }
    }

    /// The one legal move (not a promotion) from `from` to `to`, in notation; castling is
    /// the king's move to its square or onto its rook.
    fn board_move_text(&self, from: Square, to: Square) -> Option<String> {
        let pos = self.game.position();
        let turn = pos.turn();
        let matching: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from))
            .filter(|m| match *m {
                Move::Castle { king, rook } => {
                    let side = if rook.file() > king.file() {
                        CastlingSide::KingSide
                    } else {
                        CastlingSide::QueenSide
                    };
                    to == rook || to == side.king_to(turn)
                }
                _ => m.to() == to,
            })
            .collect();
        match matching.as_slice() {
            [one] if !one.is_promotion() => Some(San::from_move(pos, *one).to_string()),
            _ => None,
        }
    }

    fn pick(&mut self, square: Square, role: shakmaty::Role, out: &mut Vec<Effect>) {
        let lang = self.lang;
        self.picked = Some(square);
        out.push(answer(fill(
            &lang.board_focus.picked,
            &[
                ("piece", lang.piece(role)),
                ("square", &lang.square(square)),
            ],
        )));
    }

    /// Escape on the board: a picked piece is put down; without one, Escape silences as
    /// everywhere.
    pub(super) fn put_down(&mut self, out: &mut Vec<Effect>) {
        if self.picked.take().is_some() {
            out.push(answer(self.lang.board_focus.put_down.clone()));
        } else {
            out.push(Effect::Speech(SpeechControl::Silence));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Game;

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
        let mut g = Game::from_position(start, crate::core::variant::Variant::Standard);
        g.play_san("Nf3").expect("legal");
        g.play_san("Nc6").expect("legal");
        assert_eq!(ply_after(&g, 1, Color::Black), Some(0));
        assert_eq!(ply_after(&g, 2, Color::White), Some(1));
        assert_eq!(ply_after(&g, 2, Color::Black), Some(2));
        assert_eq!(ply_after(&g, 1, Color::White), None);
    }

    mod session {
        use shakmaty::{Color, Square};

        use super::super::super::*;
        use crate::core::clock::AnnounceSettings;
        use crate::core::notation::language::language;

        fn start(black: Side) -> Match {
            let setup = Setup {
                white: Side::Keyboard,
                black,
                local: Color::White,
                local_board: false,
                control: None,
                announce: AnnounceSettings::tournament(),
                form: Form::Short,
                rules: Rules::STANDARD,
                engine_level: 1,
                opponent_port: None,
                clock_answer: ClockAnswer::Remaining,
            };
            let lang = language("de").expect("de");
            Match::new(setup, Game::default(), lang, Timestamp::from_millis(0)).0
        }

        fn said(m: &mut Match, event: Event) -> Vec<String> {
            m.handle(event, Timestamp::from_millis(10))
                .into_iter()
                .filter_map(|e| match e {
                    Effect::Say { lines, .. } => Some(lines.join(" / ")),
                    _ => None,
                })
                .collect()
        }

        fn typed(m: &mut Match, text: &str) -> Vec<String> {
            said(m, Event::Line(text.into()))
        }

        fn space(m: &mut Match, square: Square) -> Vec<String> {
            said(m, Event::Command(Command::Select(square)))
        }

        #[test]
        fn looking_back_answers_for_the_old_position_and_refuses_moves() {
            let mut m = start(Side::Keyboard);
            for mv in ["e4", "e5", "Sf3", "Sc6"] {
                typed(&mut m, mv);
            }
            assert_eq!(
                typed(&mut m, "stellung 1 weiß"),
                ["Rückblick nach 1. Weiß: Eva vier"]
            );
            assert_eq!(m.reviewed_ply(), Some(1));
            assert_eq!(m.review_heading().as_deref(), Some("Rückblick: 1. Weiß"));
            assert_eq!(typed(&mut m, "feld e5"), ["Eva fünf: leer"]);
            assert_eq!(typed(&mut m, "wer"), ["Schwarz ist am Zug"]);
            assert_eq!(
                typed(&mut m, "Lc4"),
                ["Rückblick: erst aktuell sagen, dann ziehen"]
            );
            assert_eq!(m.game().ply(), 4);
            assert_eq!(
                typed(&mut m, "vor"),
                ["Rückblick nach 1. Schwarz: Eva fünf"]
            );
            assert_eq!(
                typed(&mut m, "vorher"),
                ["Rückblick nach 1. Weiß: Eva vier"]
            );
            assert_eq!(typed(&mut m, "vorher"), ["Rückblick: Anfangsstellung"]);
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
            assert!(typed(&mut m, "Lc4").contains(&"Läufer Cäsar vier".to_string()));
        }

        #[test]
        fn the_opponents_move_is_played_while_looking_back() {
            let mut m = start(Side::Engine);
            typed(&mut m, "e4");
            typed(&mut m, "stellung 0");
            assert_eq!(m.reviewed_ply(), Some(0));
            let mv = m.game().legal_moves()[0];
            let words = said(&mut m, Event::EngineMove(mv));
            assert_eq!(words.len(), 2, "{words:?}");
            assert_eq!(words[1], "Noch im Rückblick, aktuell kehrt zurück");
            assert_eq!(m.game().ply(), 2);
            assert_eq!(m.reviewed_ply(), Some(0));
            assert_eq!(m.shown_position(), m.game().start());
        }

        #[test]
        fn space_picks_up_and_plays_as_a_typed_move() {
            let mut m = start(Side::Keyboard);
            assert_eq!(
                space(&mut m, Square::E4),
                ["Eva vier: keine Figur der Seite am Zug"]
            );
            assert_eq!(
                space(&mut m, Square::G1),
                ["Springer Gustav eins aufgenommen"]
            );
            assert_eq!(m.picked(), Some(Square::G1));
            // Another piece of the side to move is taken instead.
            assert_eq!(
                space(&mut m, Square::B1),
                ["Springer Bella eins aufgenommen"]
            );
            assert_eq!(said(&mut m, Event::Command(Command::PutDown)), ["Abgelegt"]);
            space(&mut m, Square::G1);
            // The same answer as the typed move g1g4.
            let refused = space(&mut m, Square::G4);
            assert_eq!(refused, typed(&mut m, "g1g4"));
            assert_eq!(m.picked(), None);
            space(&mut m, Square::G1);
            assert_eq!(space(&mut m, Square::F3), ["Springer Felix drei"]);
            assert_eq!(m.game().ply(), 1);
            // Looking back, nothing is picked up.
            typed(&mut m, "vorher");
            assert_eq!(
                space(&mut m, Square::G8),
                ["Rückblick: erst aktuell sagen, dann ziehen"]
            );
        }

        #[test]
        fn castling_on_the_board_is_the_kings_move() {
            let mut m = start(Side::Keyboard);
            for mv in ["e4", "e5", "Sf3", "Sc6", "Lc4", "Lc5"] {
                typed(&mut m, mv);
            }
            space(&mut m, Square::E1);
            assert_eq!(space(&mut m, Square::G1), ["Kurze Rochade"]);
            typed(&mut m, "Sf6");
            typed(&mut m, "a3");
            // Onto the rook too.
            space(&mut m, Square::E8);
            assert_eq!(space(&mut m, Square::H8), ["Kurze Rochade"]);
        }

        #[test]
        fn a_promotion_on_the_board_asks_for_the_piece() {
            let mut m = start(Side::Keyboard);
            let fen = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";
            let pos: shakmaty::Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .expect("fen")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("position");
            m.game = Game::from_position(pos, crate::core::variant::Variant::Standard);
            space(&mut m, Square::E7);
            let asked = space(&mut m, Square::E8);
            assert_eq!(asked.len(), 1, "{asked:?}");
            assert!(m.question().is_some(), "{asked:?}");
            let played = typed(&mut m, "Dame");
            assert!(played[0].starts_with("Eva acht"), "{played:?}");
        }
    }
}
