//! Entering moves on the screen's board: Space picks up a piece of the side to move and
//! Space on a target plays it through the typed-move path (the same checks and answers).
//! Nothing here is recorded; a resumed game starts with nothing picked up.

use crate::machine::Common;
use shakmaty::san::San;
use shakmaty::{Move, Position, Square};

use super::{Effect, Match, Side, SpeechControl, answer, end_answer_with};
use crate::notation::language::fill;
use crate::time::Timestamp;

impl Match {
    /// The square of the piece picked up on the screen's board, if one is.
    pub fn picked(&self) -> Option<Square> {
        self.picked
    }

    /// Space on the screen's board: picks up a piece of the side to move, puts it down again
    /// on its own square, or plays it to the square, as a typed move would be played.
    pub(super) fn select(&mut self, square: Square, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        if self.refused_in_review(out) {
            return;
        }
        if self.game.is_over() {
            out.push(answer(lang.messages.game_over.clone()));
            return;
        }
        let turn = self.game.turn();
        // While the opponent is to move, the player's piece is picked up for a premove.
        let premove = self.premove_time();
        match self.setup.side(turn) {
            Side::Engine if !premove => {
                out.push(answer(lang.play.engine_thinking.clone()));
                return;
            }
            Side::Board if turn != self.setup.local && !premove => {
                out.push(answer(fill(
                    &lang.play.not_your_turn,
                    &[("color", lang.color(turn))],
                )));
                return;
            }
            _ => {}
        }
        let from = self.picked;
        let mover = if premove { self.setup.local } else { turn };
        if let Some(text) = self.board_pick(square, mover, out) {
            let before = out.len();
            self.typed_move(&text, now, out);
            // A target the piece cannot reach: the piece stays in the hand, and the refusal
            // says so.
            if let Some(from) = from
                && out[before..].contains(&Effect::Common(Common::Refused))
            {
                let words = self.keep_in_hand(from);
                end_answer_with(out, before, words);
            }
        }
    }

    /// After a refused move from the board: the piece picked up on `from` stays in the hand.
    /// The words that say so, to end the refusal with.
    pub(crate) fn keep_in_hand(&mut self, from: Square) -> String {
        let lang = self.lang;
        let role = self
            .game
            .position()
            .board()
            .role_at(from)
            .unwrap_or(shakmaty::Role::Pawn);
        self.picked = Some(from);
        fill(
            &lang.board_focus.still_picked,
            &[("piece", lang.piece(role)), ("square", &lang.square(from))],
        )
    }

    /// Space on the board once `mover` may move here (the side to move, or the player for a
    /// premove): picks up a piece of `mover` or puts it down (said in `out`), or gives the
    /// move to make, as the text a typed line would have (the caller plays or sends it
    /// through its typed-move path).
    pub(crate) fn board_pick(
        &mut self,
        square: Square,
        mover: shakmaty::Color,
        out: &mut Vec<Effect>,
    ) -> Option<String> {
        let lang = self.lang;
        let f = &lang.board_focus;
        let turn = self.game.turn();
        let own = self
            .game
            .position()
            .board()
            .piece_at(square)
            .filter(|p| p.color == mover);
        // The move from the picked square to this one, when it is one now (asked once); a
        // premove goes by its squares.
        let text = self
            .picked
            .filter(|&from| from != square && mover == turn)
            .and_then(|from| self.board_move_text(from, square));
        match (self.picked, own) {
            (Some(from), _) if from == square => {
                self.picked = None;
                out.push(answer(f.put_down.clone()));
                None
            }
            // Another piece of the same side is picked up instead, unless the move goes
            // there (a king onto its rook: castling in Chess960).
            (Some(_), Some(p)) if text.is_none() => {
                self.pick(square, p.role, out);
                None
            }
            (Some(from), _) => {
                self.picked = None;
                // The move in notation when it is one; otherwise the squares, which the
                // typed-move path refuses with its reason or asks the promotion piece for.
                Some(text.unwrap_or_else(|| format!("{from}{square}")))
            }
            (None, Some(p)) => {
                self.pick(square, p.role, out);
                None
            }
            // An empty square says so; the opponent's piece is not the side to move's.
            (None, None) => {
                let empty = self.game.position().board().piece_at(square).is_none();
                let words = if empty { &f.empty } else { &f.nothing_to_pick };
                out.push(answer(fill(words, &[("square", &lang.square(square))])));
                None
            }
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
            // A castling's `to` is the rook's square; the king's own target counts too.
            .filter(|m| m.to() == to || m.castling_side().is_some_and(|s| s.king_to(turn) == to))
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
            out.push(Effect::Common(Common::Speech(SpeechControl::Silence)));
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::super::tests::said_to;
    use super::super::*;

    fn start(black: Side) -> Match {
        super::super::tests::start_against(black)
    }

    fn typed(m: &mut Match, text: &str) -> Vec<String> {
        said_to(m, Event::Line(text.into()))
    }

    fn space(m: &mut Match, square: Square) -> Vec<String> {
        said_to(m, Event::Command(Command::Select(square)))
    }

    #[test]
    fn space_picks_up_and_plays_as_a_typed_move() {
        let mut m = start(Side::Keyboard);
        // An empty square says so; the opponent's piece is not one to pick up.
        assert_eq!(space(&mut m, Square::E4), ["Eva vier: leer"]);
        assert_eq!(
            space(&mut m, Square::E7),
            ["Eva sieben: keine Figur der Seite am Zug"]
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
        assert_eq!(
            said_to(&mut m, Event::Command(Command::PutDown)),
            ["Abgelegt"]
        );
        space(&mut m, Square::G1);
        // The same answer as the typed move g1g4, and the knight stays in the hand.
        let refused = space(&mut m, Square::G4);
        let typed_answer = typed(&mut m, "g1g4");
        assert_eq!(
            refused,
            [format!(
                "{}. Springer Gustav eins bleibt aufgenommen",
                typed_answer[0]
            )]
        );
        assert_eq!(m.picked(), Some(Square::G1));
        // An empty square out of reach too; then the move is made from the hand.
        let refused = space(&mut m, Square::D4);
        assert!(
            refused[0].ends_with("Springer Gustav eins bleibt aufgenommen"),
            "{refused:?}"
        );
        assert_eq!(space(&mut m, Square::F3), ["Springer Felix drei"]);
        assert_eq!(m.picked(), None);
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
        assert_eq!(space(&mut m, Square::H8), ["Schwarz: Kurze Rochade"]);
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
        m.game = Game::from_position(pos, crate::variant::Variant::Standard);
        space(&mut m, Square::E7);
        let asked = space(&mut m, Square::E8);
        assert_eq!(asked.len(), 1, "{asked:?}");
        assert!(m.question().is_some(), "{asked:?}");
        let played = typed(&mut m, "Dame");
        assert!(played[0].starts_with("Eva acht"), "{played:?}");
    }
}
