//! Premoves: a move typed while the opponent (the computer, the sighted player's e-board,
//! the server's opponent) is to move is kept, said as kept, and played as soon as the
//! opponent's move makes it legal; when that move does not, the premove is dropped with the
//! reason. Enter on an empty line cancels it; a new one replaces it. With two players at one
//! keyboard every typed move is the side to move's, so there is none.
//!
//! A premove is not recorded: it is no move of the game until it is played, and then it is
//! recorded like any other move, before it is said. A game continued from its record starts
//! without one (docs/RECORD.md).

use crate::machine::Common;
use shakmaty::{Chess, Position};

use super::{Effect, Match, Pending, Side, answer};
use crate::legality::Illegal;
use crate::notation::language::{Language, fill};
use crate::notation::parse::{ParseError, message, parse_move_in};
use crate::notation::speak::{Form, announce};

/// A premove kept: what was typed, its words, and the position it waits in (the opponent to
/// move), so that a take-back or a new game leaves it behind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Premove {
    text: String,
    words: String,
    at: Chess,
}

/// Why a typed premove is not kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoPremove {
    /// No move of the opponent makes it legal: why, in words.
    Never(String),
    /// Castling without its side, or a promotion without its piece: asked, as for a move.
    Ask(ParseError),
}

/// Reads `text` as the player's move after the opponent's move in `pos` (the opponent to
/// move): its words when some reply of the opponent makes it legal (in the first such
/// position), else why not, said for the position with the turn passed to the player.
pub fn reading(pos: &Chess, text: &str, lang: &Language, form: Form) -> Result<String, NoPremove> {
    let mut first_error = None;
    for reply in pos.legal_moves() {
        let mut after = pos.clone();
        after.play_unchecked(reply);
        match parse_move_in(text, &after, lang) {
            Ok(m) => return Ok(announce(&after, m, lang, form)),
            Err(e) => {
                first_error.get_or_insert((e, after));
            }
        }
    }
    let turned = crate::matchplay::dangers::turned(pos);
    let (error, shown) = match (&turned, first_error) {
        (Some(t), _) => (
            parse_move_in(text, t, lang)
                .err()
                .unwrap_or(ParseError::Empty),
            t.clone(),
        ),
        (None, Some((e, after))) => (e, after),
        (None, None) => (ParseError::Empty, pos.clone()),
    };
    match error {
        ParseError::WhichCastling | ParseError::Illegal(Illegal::PromotionMissing) => {
            Err(NoPremove::Ask(error))
        }
        e => Err(NoPremove::Never(message(&e, &shown, lang))),
    }
}

impl Match {
    /// Premoves are taken (hector play; the online game keeps its own, since its moves go
    /// to the server).
    pub fn set_premoves(&mut self, on: bool) {
        self.premoves = on;
    }

    /// The words of the premove kept, while it waits.
    pub fn premove(&self) -> Option<&str> {
        self.premove
            .as_ref()
            .filter(|p| &p.at == self.game.position())
            .map(|p| p.words.as_str())
    }

    /// A typed move is a premove now: the opponent, not at this keyboard, is to move.
    pub(super) fn premove_time(&self) -> bool {
        let turn = self.game.turn();
        self.premoves
            && !self.game.is_over()
            && self.adjourned.is_none()
            && turn != self.setup.local
            && self.setup.side(turn) != Side::Keyboard
    }

    /// Whether `text` would be taken as a premove now (a question's answer completes it).
    pub(super) fn premove_possible(&self, text: &str) -> bool {
        self.premove_time()
            && reading(self.game.position(), text, self.lang, self.setup.form).is_ok()
    }

    /// Keeps `text` as the premove, or says why it cannot be one.
    pub(super) fn keep_premove(&mut self, text: &str, out: &mut Vec<Effect>) {
        let w = &self.lang.premove;
        match reading(self.game.position(), text, self.lang, self.setup.form) {
            Ok(words) => {
                // As a move played does, a premove kept lets a yes-or-no question go.
                if self.pending.is_yes_no() {
                    self.pending = Pending::None;
                }
                out.push(answer(fill(&w.kept, &[("move", &words)])));
                self.premove = Some(Premove {
                    text: text.to_string(),
                    words,
                    at: self.game.position().clone(),
                });
            }
            Err(NoPremove::Ask(e)) => {
                if e == ParseError::WhichCastling {
                    self.pending = Pending::Castling;
                } else {
                    self.pending = Pending::Promotion(text.to_string());
                }
                out.push(answer(message(&e, self.game.position(), self.lang)));
            }
            Err(NoPremove::Never(why)) => {
                out.push(answer(why));
                out.push(Effect::Common(Common::Refused));
            }
        }
    }

    /// Enter on an empty line: the premove kept is given up. Whether there was one.
    pub(super) fn cancel_premove(&mut self, out: &mut Vec<Effect>) -> bool {
        if self.premove().is_none() {
            return false;
        }
        self.premove = None;
        out.push(answer(self.lang.premove.cancelled.clone()));
        true
    }

    /// The opponent's move left `before` behind: a premove kept there is played now when it
    /// is legal, else dropped with the reason.
    pub(super) fn play_premove(
        &mut self,
        before: &Chess,
        now: crate::time::Timestamp,
        out: &mut Vec<Effect>,
    ) {
        let Some(p) = self.premove.take().filter(|p| &p.at == before) else {
            return;
        };
        if self.game.is_over() || self.game.turn() != self.setup.local {
            return;
        }
        let w = &self.lang.premove;
        match parse_move_in(&p.text, self.game.position(), self.lang) {
            Ok(m) => {
                out.push(Effect::Label(w.label.clone()));
                self.play(m, false, now, out);
            }
            // Still to be completed: asked as for a typed move.
            Err(ParseError::WhichCastling | ParseError::Illegal(Illegal::PromotionMissing)) => {
                self.typed_move(&p.text, now, out);
            }
            Err(e) => out.push(answer(fill(
                &w.dropped,
                &[
                    ("move", &p.words),
                    ("reason", &message(&e, self.game.position(), self.lang)),
                ],
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::said_to;
    use super::super::*;
    use super::reading;

    fn start(black: Side) -> Match {
        let mut m = super::super::tests::start_against(black);
        m.set_premoves(true);
        m
    }

    fn typed(m: &mut Match, text: &str) -> Vec<String> {
        said_to(m, Event::Line(text.into()))
    }

    fn engine(m: &mut Match, san: &str) -> Vec<String> {
        let mv = san
            .parse::<shakmaty::san::San>()
            .expect("san")
            .to_move(m.game().position())
            .expect("legal");
        said_to(m, Event::EngineMove(mv))
    }

    #[test]
    fn a_premove_is_kept_and_played_when_the_computer_has_moved() {
        let mut m = start(Side::Engine);
        typed(&mut m, "e4");
        assert!(m.awaits_reply());
        assert_eq!(
            typed(&mut m, "Sf3"),
            ["Vorauszug gemerkt: Springer Felix drei"]
        );
        assert_eq!(m.premove(), Some("Springer Felix drei"));
        assert_eq!(m.game().ply(), 1);
        let words = engine(&mut m, "e5");
        assert_eq!(
            words,
            ["Computer: Eva fünf", "Vorauszug: Springer Felix drei"]
        );
        assert_eq!(m.game().ply(), 3);
        assert_eq!(m.premove(), None);
        // The computer is asked for its reply to the premove.
        assert!(m.awaits_reply());
    }

    #[test]
    fn a_premove_the_reply_makes_illegal_is_dropped_with_the_reason() {
        let mut m = start(Side::Engine);
        typed(&mut m, "e4");
        // A recapture on d5 waits for the computer to take there.
        assert_eq!(
            typed(&mut m, "exd5"),
            ["Vorauszug gemerkt: Eva schlägt David fünf"]
        );
        let words = engine(&mut m, "e5");
        assert_eq!(words[0], "Computer: Eva fünf");
        assert!(
            words[1].starts_with("Vorauszug Eva schlägt David fünf verworfen: "),
            "{words:?}"
        );
        assert_eq!(m.game().ply(), 2);
        assert_eq!(m.premove(), None);
    }

    #[test]
    fn enter_on_an_empty_line_cancels_and_a_new_premove_replaces() {
        let mut m = start(Side::Engine);
        typed(&mut m, "e4");
        typed(&mut m, "Sf3");
        assert_eq!(
            typed(&mut m, "Sc3"),
            ["Vorauszug gemerkt: Springer Cäsar drei"]
        );
        assert_eq!(typed(&mut m, ""), ["Vorauszug aufgehoben"]);
        assert_eq!(m.premove(), None);
        // Nothing to cancel: an empty line says nothing.
        assert!(typed(&mut m, "").is_empty());
        let words = engine(&mut m, "e5");
        assert_eq!(words, ["Computer: Eva fünf"]);
    }

    #[test]
    fn a_move_no_reply_can_make_legal_is_refused_at_once() {
        let mut m = start(Side::Engine);
        typed(&mut m, "e4");
        let refused = said_to(&mut m, Event::Line("Sf4".into()));
        assert_eq!(refused, ["Kein Springer kann Felix vier erreichen"]);
        assert_eq!(m.premove(), None);
        let unknown = typed(&mut m, "Springa f3");
        assert!(unknown[0].starts_with("Unbekanntes Wort"), "{unknown:?}");
    }

    #[test]
    fn with_two_players_at_one_keyboard_a_typed_move_is_the_side_to_moves() {
        let mut m = start(Side::Keyboard);
        typed(&mut m, "e4");
        assert!(!m.awaits_reply());
        assert_eq!(typed(&mut m, "e5"), ["Schwarz: Eva fünf"]);
        assert_eq!(m.premove(), None);
    }

    #[test]
    fn the_sighted_players_e_board_move_plays_the_premove() {
        let mut m = start(Side::Board);
        typed(&mut m, "e4");
        typed(&mut m, "Lc4");
        let e5 = "e5"
            .parse::<shakmaty::san::San>()
            .expect("san")
            .to_move(m.game().position())
            .expect("legal");
        let words = said_to(
            &mut m,
            Event::OpponentBoard(crate::board::Recognition::Moved(e5)),
        );
        assert_eq!(words, ["Schwarz: Eva fünf", "Vorauszug: Läufer Cäsar vier"]);
    }

    #[test]
    fn a_take_back_leaves_the_premove_behind() {
        let mut m = start(Side::Engine);
        m.set_extras(PlayExtras {
            takeback: true,
            agreements: true,
            say_captured: false,
        });
        typed(&mut m, "e4");
        typed(&mut m, "Sf3");
        typed(&mut m, "zurücknehmen");
        assert_eq!(m.premove(), None);
        typed(&mut m, "d4");
        let words = engine(&mut m, "d5");
        assert_eq!(words, ["Computer: David fünf"]);
    }

    #[test]
    fn a_premove_lets_a_yes_or_no_question_go() {
        let mut m = start(Side::Engine);
        typed(&mut m, "e4");
        typed(&mut m, "ende");
        assert!(m.asks_confirmation());
        typed(&mut m, "Sf3");
        assert!(!m.asks_confirmation());
        assert_eq!(m.premove(), Some("Springer Felix drei"));
    }

    #[test]
    fn castling_without_its_side_is_asked_and_the_answer_kept() {
        let lang = crate::notation::language::language("de").expect("de");
        // No reply of Black's changes White's castlings: the side must be said.
        let pos: shakmaty::Chess = "4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position");
        assert!(matches!(
            reading(&pos, "Rochade", lang, Form::Short),
            Err(super::NoPremove::Ask(_))
        ));
        assert_eq!(
            reading(&pos, "kurze Rochade", lang, Form::Short),
            Ok("Kurze Rochade".to_string())
        );
    }
}
