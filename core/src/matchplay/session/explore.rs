//! `explorer` in play and in the walk: the opening explorer asked about the position looked
//! at ([`Effect::Explore`]) and its reply said when it comes ([`Event::Explored`]), while the
//! game goes on; answers kept per position and a 429's minute kept by
//! [`Memory`](crate::explorer::memory::Memory).

use shakmaty::Chess;

use super::{Effect, Match, answer};
use crate::explorer::memory::Memory;
use crate::explorer::{self, Reply};
use crate::machine::lines;
use crate::openings::{self, Opening};
use crate::time::Timestamp;

impl Match {
    /// The mode can ask the explorer (play and the walk); elsewhere `explorer` is refused.
    pub fn enable_explorer(&mut self) {
        self.explorer.get_or_insert_with(Memory::default);
    }

    /// Whether a lichess token is stored now (the adapter looks before each of the player's
    /// lines): without one `explorer` says how to get one and asks nothing.
    pub fn explorer_token(&mut self, stored: bool) {
        if let Some(memory) = self.explorer.as_mut() {
            memory.token_stored(stored);
        }
    }

    /// A new game of the session keeps the explorer's answers of the one before.
    pub fn carry_explorer_from(&mut self, before: &mut Match) {
        if let Some(memory) = before.explorer.take() {
            self.explorer = Some(memory);
        }
    }

    /// The shipped opening of the position looked at: the last named one up to it.
    fn opening_looked_at(&self, pos: &Chess) -> Option<&'static Opening> {
        let ply = self.reviewed_ply().unwrap_or(self.game.ply());
        openings::named(pos).or_else(|| {
            (0..=ply)
                .rev()
                .filter_map(|p| self.game.position_at(p))
                .find_map(openings::named)
        })
    }

    pub(super) fn explore(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let pos = self.shown_position().clone();
        let opening = self.opening_looked_at(&pos);
        let Some(memory) = self.explorer.as_mut() else {
            return out.push(answer(lang.explorer.not_here.clone()));
        };
        let asked = explorer::asked(memory, &pos, opening, lang, self.setup.form, now);
        out.push(lines(asked.said));
        if asked.fetch {
            out.push(Effect::Explore(Box::new(pos)));
        }
    }

    /// The explorer's reply: kept, and said when the position asked about is still the one
    /// looked at (an answer about a position left behind is only kept).
    pub(super) fn explored(
        &mut self,
        fen: &str,
        reply: Reply,
        now: Timestamp,
        out: &mut Vec<Effect>,
    ) {
        let Some(memory) = self.explorer.as_mut() else {
            return;
        };
        let why = memory.answered(fen, &reply, now);
        let pos = self.shown_position().clone();
        if explorer::fen(&pos) != fen {
            return;
        }
        let opening = self.opening_looked_at(&pos);
        let said = explorer::reply_words(&pos, &reply, opening, self.lang, self.setup.form, why);
        out.push(lines(said));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{said, said_to, start_against};
    use super::super::{Effect, Event, Side};
    use crate::explorer::{Counts, Failure, Played, Reply, Table, Tables, fen};
    use crate::machine::Machine;
    use crate::testkit::t;
    use shakmaty::{Chess, Position};

    fn tables(pos: &Chess) -> Tables {
        let moves = pos.legal_moves();
        let played = |i: usize, n: u64| Played {
            m: moves[i],
            counts: Counts {
                white: n,
                draws: n,
                black: n,
            },
        };
        let table = Table {
            counts: Counts {
                white: 30,
                draws: 30,
                black: 30,
            },
            moves: vec![played(0, 20), played(1, 10)],
        };
        Tables {
            masters: table.clone(),
            lichess: table,
        }
    }

    #[test]
    fn play_asks_and_says_the_reply_for_the_position_still_looked_at() {
        let mut m = start_against(Side::Keyboard);
        // A mode without the explorer refuses it in words.
        assert_eq!(
            said_to(&mut m, Event::Line("explorer".into())),
            ["Den Explorer gibt es hier nicht"]
        );
        m.enable_explorer();
        // Without a token: how to get one, and nothing asked.
        let out = m.handle(Event::Line("explorer".into()), t(10));
        assert_eq!(
            said(&out),
            ["Der Explorer braucht einen lichess-Schlüssel: hector online login speichert ihn"]
        );
        assert!(!out.iter().any(|e| matches!(e, Effect::Explore(_))));
        m.explorer_token(true);
        let out = m.handle(Event::Line("explorer".into()), t(20));
        assert_eq!(said(&out), ["Ich frage den Explorer"]);
        let start = Chess::default();
        assert!(
            out.contains(&Effect::Explore(Box::new(start.clone()))),
            "{out:?}"
        );
        // Asked again before the reply: not asked twice.
        let again = m.handle(Event::Line("explorer".into()), t(30));
        assert!(
            !again.iter().any(|e| matches!(e, Effect::Explore(_))),
            "{again:?}"
        );
        let reply = Reply::Found(tables(&start));
        let heard = said_to(
            &mut m,
            Event::Explored {
                fen: fen(&start),
                reply: reply.clone(),
            },
        );
        assert_eq!(heard.len(), 1, "{heard:?}");
        assert!(heard[0].starts_with("Meister, 90 Partien: "), "{heard:?}");
        // The player moved on: a reply about the start is kept but not said.
        said_to(&mut m, Event::Line("e4".into()));
        assert!(
            said_to(
                &mut m,
                Event::Explored {
                    fen: fen(&start),
                    reply
                }
            )
            .is_empty()
        );
        // Looking back at the start: the kept answer, with no request.
        said_to(&mut m, Event::Line("stellung 0".into()));
        let out = m.handle(Event::Line("explorer".into()), t(40));
        assert!(
            said(&out)[0].starts_with("Meister, 90 Partien: "),
            "{out:?}"
        );
        assert!(
            !out.iter().any(|e| matches!(e, Effect::Explore(_))),
            "{out:?}"
        );
    }

    #[test]
    fn without_an_answer_the_games_opening_is_said_and_why() {
        let mut m = start_against(Side::Keyboard);
        m.enable_explorer();
        m.explorer_token(true);
        for mv in ["e4", "c5"] {
            said_to(&mut m, Event::Line(mv.into()));
        }
        m.handle(Event::Line("explorer".into()), t(20));
        let pos = m.game().position().clone();
        let heard = said_to(
            &mut m,
            Event::Explored {
                fen: fen(&pos),
                reply: Reply::Failed(Failure::Unreachable),
            },
        );
        assert_eq!(
            heard,
            ["Sizilianische Verteidigung, ECO B20 / Der Explorer ist nicht erreichbar"]
        );
    }
}
