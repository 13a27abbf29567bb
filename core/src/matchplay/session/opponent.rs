//! Who the opponent is (`gegner`, o on the board): the name the game's record gives it (the
//! engine with its level, the sighted player's board), or what plays that side.

use super::{Match, Side};
use crate::notation::language::fill;

impl Match {
    /// The opponent's name as the game's record has it ("Stockfish 15.1, Stufe 1").
    pub fn set_opponent_name(&mut self, name: &str) {
        self.opponent_name = Some(name.to_string());
    }

    /// "Gegner: Computer, Stufe 1, spielt Schwarz".
    pub(super) fn opponent_words(&self) -> String {
        let lang = self.lang;
        let o = &lang.opponent;
        let color = !self.setup.local;
        let side = self.setup.side(color);
        let name = match (&self.opponent_name, side) {
            // Two players at one keyboard: the record's "Spieler 2" says less than this.
            (_, Side::Keyboard) => o.keyboard.clone(),
            (Some(name), _) => name.clone(),
            (None, Side::Engine) => fill(
                &o.engine,
                &[("level", &self.setup.engine_level.to_string())],
            ),
            (None, Side::Board) => fill(
                &o.board,
                &[("port", self.setup.opponent_port.as_deref().unwrap_or("?"))],
            ),
        };
        fill(&o.is, &[("name", &name), ("color", lang.color(color))])
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    #[test]
    fn the_opponent_is_named_with_its_colour() {
        let said = |m: &mut Match| super::super::tests::said_to(m, Event::Line("gegner".into()));
        let mut m = super::super::tests::start_against(Side::Engine);
        assert_eq!(said(&mut m), ["Gegner: Computer, Stufe 1, spielt Schwarz"]);
        m.set_opponent_name("Stockfish 15.1, Stufe 1");
        assert_eq!(
            said(&mut m),
            ["Gegner: Stockfish 15.1, Stufe 1, spielt Schwarz"]
        );
        let mut m = super::super::tests::start_against(Side::Keyboard);
        m.set_opponent_name("Spieler 2");
        assert_eq!(
            said(&mut m),
            ["Gegner: zweiter Spieler an dieser Tastatur, spielt Schwarz"]
        );
        let mut m = super::super::tests::start_against(Side::Board);
        assert_eq!(
            super::super::tests::said_to(&mut m, Event::Command(Command::Opponent)),
            ["Gegner: Brett an ?, spielt Schwarz"]
        );
    }
}
