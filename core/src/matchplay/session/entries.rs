//! What the session records, as journal entries: the one mapping from the session's events
//! ([`Recorded`]) to the record's vocabulary ([`Entry`]), used by every mode and by the tests
//! that replay a session's journal.

use super::Recorded;
use crate::game::Game;
use crate::record::Entry;
use crate::record::Times;
use crate::record::entry::{millis, uci_of};
use crate::variant::Variant;

impl Recorded {
    /// The clock's standing must follow this entry in the journal: a pause or its end says
    /// nothing of the times, and a resume needs them; after a take-back the player to move
    /// has the clock.
    pub fn needs_checkpoint(&self) -> bool {
        matches!(
            self,
            Recorded::ClockPaused | Recorded::ClockResumed | Recorded::TakebackAgreed { .. }
        )
    }

    /// The journal entries for this event; `game` is the game after the event (a move's SAN
    /// is taken from it). Empty only for a move the game does not hold, which the session
    /// never records.
    pub fn entries(&self, game: &Game) -> Vec<Entry> {
        let variant: Variant = game.variant();
        let entry = match self {
            Recorded::Move { mv, by, clock } => {
                let times = clock.map(|t| Times::new(t.white, t.black));
                return game
                    .moves()
                    .iter()
                    .rev()
                    .find(|p| p.mv == *mv)
                    .map(|played| Entry::from_played(played, *by, variant, times))
                    .into_iter()
                    .collect();
            }
            Recorded::Touched { by, square } => Entry::Touched {
                by: *by,
                square: *square,
            },
            Recorded::DrawOffered { by } => Entry::DrawOffered { by: *by },
            Recorded::DrawDeclined { by } => Entry::DrawDeclined { by: *by },
            Recorded::DrawAccepted { by } => Entry::DrawAccepted { by: *by },
            Recorded::Claim {
                by,
                kind,
                intended,
                correct,
            } => Entry::Claim {
                by: *by,
                kind: *kind,
                intended: intended.map(|m| uci_of(m, variant)),
                correct: *correct,
            },
            Recorded::Penalty(p) => Entry::Penalty {
                beneficiary: p.beneficiary,
                ms: millis(p.time),
                article: p.article.to_string(),
            },
            Recorded::IllegalMove { by } => Entry::IllegalMove { by: *by },
            Recorded::Resigned { by } => Entry::Resigned { by: *by },
            Recorded::FlagFell { color } => Entry::FlagFell { color: *color },
            Recorded::BothFlags { in_last_period } => Entry::BothFlagsFell {
                last_period: *in_last_period,
            },
            Recorded::Ended(o) => Entry::Result {
                result: o.result,
                termination: o.termination,
            },
            Recorded::ClockPaused => Entry::ClockPaused,
            Recorded::ClockResumed => Entry::ClockResumed,
            Recorded::ClockSet { color, remaining } => Entry::ClockAdjusted {
                color: *color,
                remaining_ms: millis(*remaining),
            },
            Recorded::MovesSet { color, moves } => Entry::MovesAdjusted {
                color: *color,
                moves: *moves,
            },
            Recorded::TakenBack(m) => Entry::TakenBack {
                uci: uci_of(*m, variant),
            },
            Recorded::Mismatch {
                board,
                agreed,
                detail,
            } => Entry::BoardMismatch {
                board: *board,
                agreed_plies: *agreed,
                detail: detail.clone(),
            },
            Recorded::Reconciled { board, how } => Entry::BoardReconciled {
                board: *board,
                how: *how,
            },
            Recorded::Adjourned { by, move_number } => Entry::Adjourned {
                by: *by,
                move_number: *move_number,
            },
            Recorded::AdjournmentResumed => Entry::AdjournmentResumed,
            Recorded::Setting { key, value } => Entry::Setting {
                key: key.clone(),
                value: value.clone(),
            },
            Recorded::Note(text) => Entry::Note { text: text.clone() },
            Recorded::TakebackAgreed { by } => Entry::TakebackAgreed { by: *by },
            Recorded::TakebackDeclined { by } => Entry::TakebackDeclined { by: *by },
            Recorded::Aborted { by } => Entry::Aborted { by: *by },
        };
        vec![entry]
    }
}
