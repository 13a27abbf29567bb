//! bewertung / eval and tipp / hint in a game against the computer: the session asks the
//! engine adapter ([`Effect::EngineAdvice`]) and says the answer ([`Event::EngineAdvice`]).
//! Each use is written into the record first, as the setting `advice` = `eval` or `hint`
//! (replay keeps settings beside the game, the position untouched). Off with `--no-hints`; a mode without an engine (a second
//! player, assist, arbiter) never enables them.

use shakmaty::{Move, Position as _};

use super::{Effect, Match, Recorded, Side, answer};
use crate::analysis::{Eval, eval_words};
use crate::notation::language::fill;
use crate::notation::speak::announce;

/// What the player may ask of the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Advice {
    /// No engine to ask (the default: only `hector play` against the computer enables it).
    #[default]
    NoEngine,
    /// Switched off for this game (`--no-hints`).
    Off,
    On,
}

/// The journal's setting key for a use of bewertung or tipp.
pub(crate) const ADVICE_KEY: &str = "advice";

/// Which question the player asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdviceKind {
    /// How the position stands.
    Eval,
    /// The engine's move for the side to move.
    Hint,
}

impl AdviceKind {
    /// How the journal names it.
    pub(crate) fn record_value(self) -> &'static str {
        match self {
            AdviceKind::Eval => "eval",
            AdviceKind::Hint => "hint",
        }
    }
}

impl Match {
    /// Whether bewertung and tipp may ask the engine; a game without one ignores this.
    pub fn set_advice(&mut self, on: bool) {
        self.advice = if on { Advice::On } else { Advice::Off };
    }

    /// Whether they may (for a new game with the same settings).
    pub fn advice_on(&self) -> bool {
        self.advice == Advice::On
    }

    fn has_engine(&self) -> bool {
        self.setup.white == Side::Engine || self.setup.black == Side::Engine
    }

    /// The player asked: recorded first, then the engine is asked.
    pub(super) fn advise(&mut self, kind: AdviceKind, out: &mut Vec<Effect>) {
        let w = &self.lang.analysis;
        if self.advice == Advice::NoEngine || !self.has_engine() {
            out.push(answer(w.no_engine.clone()));
            return;
        }
        if self.advice == Advice::Off {
            out.push(answer(w.hints_off.clone()));
            return;
        }
        if self.game.is_over() {
            out.push(answer(self.lang.messages.game_over.clone()));
            return;
        }
        if self.engine_to_move() {
            // Asking now would stop the engine's own search.
            out.push(answer(w.busy.clone()));
            return;
        }
        // A setting entry: replay keeps it beside the game and the position is untouched; an
        // arbiter's note would be exported as the arbiter's words.
        out.push(Effect::Record(Recorded::Setting {
            key: ADVICE_KEY.into(),
            value: kind.record_value().into(),
        }));
        out.push(answer(w.asking.clone()));
        out.push(Effect::EngineAdvice {
            kind,
            ply: self.game.ply(),
        });
    }

    /// The engine's answer about the position after `ply` half-moves; an answer about a
    /// position the game has left is dropped.
    pub(super) fn advice_answer(
        &mut self,
        kind: AdviceKind,
        ply: usize,
        eval: Eval,
        best: Option<Move>,
        out: &mut Vec<Effect>,
    ) {
        if ply != self.game.ply() || self.game.is_over() {
            return;
        }
        let pos = self.game.position();
        let text = match (kind, best) {
            (AdviceKind::Hint, Some(m)) if pos.is_legal(m) => fill(
                &self.lang.analysis.hint,
                &[("move", &announce(pos, m, self.lang, self.setup.form))],
            ),
            _ => eval_words(eval, self.lang),
        };
        out.push(answer(text));
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Role, Square};

    use super::super::Event;
    use super::super::tests::said;
    use super::*;
    use crate::game::Game;
    use crate::machine::Machine;
    use crate::notation::language::language;
    use crate::time::Timestamp;

    fn game(black: Side, hints: bool) -> Match {
        let setup = super::super::tests::setup(Side::Keyboard, black);
        let lang = language("de").unwrap();
        let (mut m, _) = Match::new(setup, Game::default(), lang, Timestamp::ZERO);
        m.set_advice(hints);
        m
    }

    #[test]
    fn a_hint_is_recorded_asked_and_said() {
        let mut m = game(Side::Engine, true);
        let out = m.handle(Event::Line("tipp".into()), Timestamp::ZERO);
        assert_eq!(
            out[0],
            Effect::Record(Recorded::Setting {
                key: "advice".into(),
                value: "hint".into()
            })
        );
        assert!(out.contains(&Effect::EngineAdvice {
            kind: AdviceKind::Hint,
            ply: 0
        }));
        let nf3 = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        let out = m.handle(
            Event::EngineAdvice {
                kind: AdviceKind::Hint,
                ply: 0,
                eval: Eval::Centipawns(30),
                best: Some(nf3),
            },
            Timestamp::ZERO,
        );
        assert_eq!(said(&out), ["Tipp: Springer Felix drei"]);
        let out = m.handle(Event::Line("eval".into()), Timestamp::ZERO);
        assert_eq!(
            out[0],
            Effect::Record(Recorded::Setting {
                key: "advice".into(),
                value: "eval".into()
            })
        );
        let out = m.handle(
            Event::EngineAdvice {
                kind: AdviceKind::Eval,
                ply: 0,
                eval: Eval::Centipawns(180),
                best: Some(nf3),
            },
            Timestamp::ZERO,
        );
        assert_eq!(said(&out), ["Weiß steht deutlich besser, plus 1,8"]);
        // An answer about a position the game has left is not said.
        let out = m.handle(
            Event::EngineAdvice {
                kind: AdviceKind::Eval,
                ply: 3,
                eval: Eval::Centipawns(0),
                best: None,
            },
            Timestamp::ZERO,
        );
        assert!(said(&out).is_empty());
    }

    #[test]
    fn off_without_an_engine_or_while_it_thinks() {
        let mut m = game(Side::Engine, false);
        let out = m.handle(Event::Line("bewertung".into()), Timestamp::ZERO);
        assert_eq!(
            said(&out),
            ["Bewertung und Tipps sind in dieser Partie ausgeschaltet"]
        );
        assert!(!out.iter().any(|e| matches!(e, Effect::Record(_))));
        let mut m = game(Side::Keyboard, true);
        let out = m.handle(Event::Line("hint".into()), Timestamp::ZERO);
        assert_eq!(
            said(&out),
            ["In dieser Partie gibt es keinen Computer, der bewerten könnte"]
        );
        let mut m = game(Side::Engine, true);
        m.handle(Event::Line("e4".into()), Timestamp::ZERO);
        let out = m.handle(Event::Line("tipp".into()), Timestamp::ZERO);
        assert_eq!(
            said(&out),
            ["Der Computer denkt gerade über seinen Zug nach. Bitte danach noch einmal fragen"]
        );
        assert!(!out.iter().any(|e| matches!(e, Effect::EngineAdvice { .. })));
    }
}
