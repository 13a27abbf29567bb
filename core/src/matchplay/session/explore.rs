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
