//! What the arbiter does to a match (Articles 6.10, 6.12, 7.1, 7.5, 9, 12.9; Appendix D2.8
//! and E): the clock, the move counters, penalties, illegal moves, claims, the result, taking
//! moves back, and the adjournment. Each returns the effects to carry out, the record first.

use crate::machine::Common;
use std::time::Duration;

use shakmaty::{Color, Move};

use super::{Effect, Match, Recorded, Urgency, answer, say};
use crate::game::{GameError, IllegalMoveVerdict};
use crate::laws::Penalty;
use crate::notation::clock_words::duration_words;
use crate::notation::language::{counted, fill};
use crate::notation::speak::announce_san;
use crate::outcome::{GameResult, Outcome, Termination};
use crate::record::export::{Remark, remark_words};
use crate::time::Timestamp;

/// A change of a player's remaining time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeChange {
    Set(Duration),
    Add(Duration),
    Remove(Duration),
}

impl Match {
    fn no_clock(&self) -> Vec<Effect> {
        vec![answer(self.lang.play.no_clock.clone())]
    }

    fn over(&self) -> Option<Vec<Effect>> {
        self.game
            .is_over()
            .then(|| vec![answer(self.lang.messages.game_over.clone())])
    }

    /// 6.12: the arbiter pauses the clock.
    pub(crate) fn pause_clock(&mut self, now: Timestamp) -> Vec<Effect> {
        if let Some(over) = self.over() {
            return over;
        }
        let Some(clock) = self.clock.as_mut() else {
            return self.no_clock();
        };
        match clock.pause(now) {
            Ok(()) => vec![
                Effect::Record(Recorded::ClockPaused),
                answer(self.lang.clock.paused.clone()),
            ],
            Err(_) => vec![answer(self.lang.arbiter.already_paused.clone())],
        }
    }

    /// The arbiter sets the clock going again; the interrupted move goes on.
    pub(crate) fn resume_clock(&mut self, now: Timestamp) -> Vec<Effect> {
        if let Some(over) = self.over() {
            return over;
        }
        if self.adjourned.is_some() {
            return vec![answer(self.lang.arbiter.adjourned_wait.clone())];
        }
        let Some(clock) = self.clock.as_mut() else {
            return self.no_clock();
        };
        match clock.resume(now) {
            Ok(()) => vec![
                Effect::Record(Recorded::ClockResumed),
                answer(self.lang.clock.resumed.clone()),
            ],
            Err(_) => vec![answer(self.lang.arbiter.not_paused.clone())],
        }
    }

    /// 6.10, 7.1: the arbiter sets, adds or removes a player's time.
    pub(crate) fn change_time(
        &mut self,
        color: Color,
        change: TimeChange,
        now: Timestamp,
    ) -> Vec<Effect> {
        if let Some(over) = self.over() {
            return over;
        }
        let Some(clock) = self.clock.as_mut() else {
            return self.no_clock();
        };
        match change {
            TimeChange::Set(t) => clock.set_remaining(color, t, now),
            TimeChange::Add(t) => clock.add_time(color, t, now),
            TimeChange::Remove(t) => clock.remove_time(color, t, now),
        }
        let remaining = clock.remaining(color, now);
        vec![
            Effect::Record(Recorded::ClockSet { color, remaining }),
            answer(fill(
                &self.lang.arbiter.time_set,
                &[
                    ("color", self.lang.color(color)),
                    ("time", &duration_words(remaining, self.lang)),
                ],
            )),
        ]
    }

    /// 7.1: the arbiter sets the number of moves a player has completed.
    pub(crate) fn set_move_count(
        &mut self,
        color: Color,
        moves: u32,
        now: Timestamp,
    ) -> Vec<Effect> {
        if let Some(over) = self.over() {
            return over;
        }
        let Some(clock) = self.clock.as_mut() else {
            return self.no_clock();
        };
        clock.set_moves(color, moves, now);
        vec![
            Effect::Record(Recorded::MovesSet { color, moves }),
            answer(fill(
                &counted(&self.lang.arbiter.moves_set, u64::from(moves)),
                &[("color", self.lang.color(color))],
            )),
        ]
    }

    /// 12.9b: the opponent of `offender` receives the time penalty of the rules (two minutes,
    /// one in blitz).
    pub(crate) fn penalize(&mut self, offender: Color, now: Timestamp) -> Vec<Effect> {
        if let Some(over) = self.over() {
            return over;
        }
        let penalty = Penalty {
            beneficiary: !offender,
            time: self.game.rules().time_penalty,
            article: "12.9b",
        };
        let Some(clock) = self.clock.as_mut() else {
            return self.no_clock();
        };
        clock.apply_penalty(penalty.beneficiary, penalty.time, now);
        vec![
            Effect::Record(Recorded::Penalty(penalty)),
            answer(self.penalty_words(penalty)),
        ]
    }

    fn penalty_words(&self, p: Penalty) -> String {
        remark_words(
            &Remark::Penalty {
                beneficiary: p.beneficiary,
                ms: u64::try_from(p.time.as_millis()).unwrap_or(u64::MAX),
                article: p.article.to_string(),
            },
            self.lang,
        )
    }

    /// 7.5: the arbiter found that `by` completed an illegal move. The game's position is the
    /// one before it (an illegal move never enters the record); the boards are put back to it.
    /// The opponent gets the time penalty, the losing one ends the game.
    pub(crate) fn declare_illegal_move(&mut self, by: Color, now: Timestamp) -> Vec<Effect> {
        if let Some(over) = self.over() {
            return over;
        }
        let mut out = vec![Effect::Record(Recorded::IllegalMove { by })];
        let mut said = vec![remark_words(&Remark::IllegalMove(by), self.lang)];
        match self.game.illegal_move_completed(by) {
            Ok(IllegalMoveVerdict::Penalty(p)) => {
                out.push(Effect::Record(Recorded::Penalty(p)));
                if let Some(c) = self.clock.as_mut() {
                    c.apply_penalty(p.beneficiary, p.time, now);
                }
                said.push(self.penalty_words(p));
                said.push(self.lang.arbiter.restore_position.clone());
                out.push(Effect::Common(Common::Say {
                    urgency: Urgency::Answer,
                    lines: said,
                }));
            }
            Ok(IllegalMoveVerdict::GameOver(o)) => {
                out.push(answer(said.join(". ")));
                self.finish(o, now, &mut out);
            }
            Err(_) => out.push(answer(self.lang.messages.game_over.clone())),
        }
        out
    }

    /// 9.2, 9.3 for `by`, who must be the player to move; `intended` is a move announced with
    /// the claim. hector finds which rule, if any, makes it correct; a wrong claim costs time
    /// (9.5b).
    pub(crate) fn claim_for(
        &mut self,
        by: Color,
        intended: Option<String>,
        now: Timestamp,
    ) -> Vec<Effect> {
        if let Some(over) = self.over() {
            return over;
        }
        if by != self.game.turn() {
            return vec![answer(fill(
                &self.lang.arbiter.claim_not_to_move,
                &[("color", self.lang.color(self.game.turn()))],
            ))];
        }
        let mut out = Vec::new();
        self.claim(intended, now, &mut out);
        out
    }

    /// 9.1: the players agreed a draw (told to the arbiter).
    pub(crate) fn agree_draw(&mut self, now: Timestamp) -> Vec<Effect> {
        self.declare(Outcome::draw(Termination::Agreement), now)
    }

    /// 12.9: the arbiter decides the result.
    pub(crate) fn decide_result(&mut self, result: GameResult, now: Timestamp) -> Vec<Effect> {
        self.declare(Outcome::new(result, Termination::ArbiterDecision), now)
    }

    /// The game ends with `outcome` decided elsewhere (a server that runs the game).
    pub(crate) fn conclude(&mut self, outcome: Outcome, now: Timestamp) -> Vec<Effect> {
        self.declare(outcome, now)
    }

    /// The game was abandoned elsewhere (a server that runs it), `by` that side, before both
    /// sides had moved: over without a result. `None` when the Laws allow no abort any more.
    pub(crate) fn abandoned(&mut self, by: Color, now: Timestamp) -> Option<Vec<Effect>> {
        self.game.abort().ok()?;
        self.adjourned = None;
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        Some(vec![Effect::Record(Recorded::Aborted { by })])
    }

    fn declare(&mut self, outcome: Outcome, now: Timestamp) -> Vec<Effect> {
        match self.game.declare(outcome) {
            Ok(_) => {
                self.adjourned = None;
                let mut out = Vec::new();
                self.finish(outcome, now, &mut out);
                out
            }
            Err(_) => vec![answer(self.lang.messages.game_over.clone())],
        }
    }

    /// D2.8: the game goes back to its first `plies` half-moves. The clock is paused and the
    /// move given to the player to move then; the arbiter sets the times and starts it again.
    pub(crate) fn take_back_to(&mut self, plies: usize, now: Timestamp) -> Vec<Effect> {
        // The envelope holds the position before the sealed move: it stays the game's until
        // the envelope is opened (E9).
        if self.adjourned.is_some() && self.game.ply() > plies {
            return vec![answer(self.lang.arbiter.adjourned_wait.clone())];
        }
        let mut out = Vec::new();
        while self.game.ply() > plies {
            match self.game.take_back() {
                Some(taken) => out.push(Effect::Record(Recorded::TakenBack(taken.mv))),
                None => break,
            }
        }
        let turn = self.game.turn();
        let counts = self.moves_by_color();
        let reopened = !self.game.is_over();
        if let Some(c) = self.clock.as_mut() {
            if c.running().is_some() && c.pause(now).is_ok() {
                out.push(Effect::Record(Recorded::ClockPaused));
            }
            // A finished game taken back: its stopped clock stands again, paused.
            if reopened && c.reopen(turn, now).is_ok() {
                out.push(Effect::Record(Recorded::ClockPaused));
            }
            let _ = c.give_move(turn, now);
            for color in Color::ALL {
                let n = *counts.get(color);
                c.set_moves(color, n, now);
                out.push(Effect::Record(Recorded::MovesSet { color, moves: n }));
            }
        }
        out
    }

    /// Half-moves each colour has made in the game as it stands.
    fn moves_by_color(&self) -> shakmaty::ByColor<u32> {
        shakmaty::ByColor::new_with(|c| {
            (0..self.game.ply())
                .filter(|&i| {
                    self.game
                        .position_at(i)
                        .is_some_and(|p| shakmaty::Position::turn(p) == c)
                })
                .count() as u32
        })
    }

    /// Appendix E1: the player to move seals `m` (not played); the clock stops.
    pub(crate) fn adjourn(&mut self, m: Move, now: Timestamp) -> Result<Vec<Effect>, GameError> {
        if let Some(o) = self.game.outcome() {
            return Err(GameError::GameOver(o));
        }
        if !self.game.legal_moves().contains(&m) {
            return Err(GameError::IllegalMove);
        }
        let by = self.game.turn();
        let move_number = self.game.fullmove_number();
        let mut out = Vec::new();
        if let Some(c) = self.clock.as_mut()
            && c.running().is_some()
            && c.pause(now).is_ok()
        {
            out.push(Effect::Record(Recorded::ClockPaused));
        }
        self.adjourned = Some(m);
        out.insert(0, Effect::Record(Recorded::Adjourned { by, move_number }));
        out.push(answer(fill(
            &self.lang.arbiter.adjourned,
            &[
                ("color", self.lang.color(by)),
                ("number", &move_number.to_string()),
            ],
        )));
        Ok(out)
    }

    /// The game stands adjourned with this sealed move (a game continued from its record:
    /// the envelope's move).
    pub(crate) fn restore_adjournment(&mut self, sealed: Move) {
        self.adjourned = Some(sealed);
    }

    /// Whether the game is adjourned (a move is sealed).
    pub(crate) fn is_adjourned(&self) -> bool {
        self.adjourned.is_some()
    }

    /// The sealed move of an adjourned game.
    #[cfg(test)]
    pub(crate) fn sealed_move(&self) -> Option<Move> {
        self.adjourned
    }

    /// E9: the envelope is opened, the sealed move played and the opponent's clock started.
    pub(crate) fn open_envelope(&mut self, now: Timestamp) -> Vec<Effect> {
        let Some(m) = self.adjourned.take() else {
            return vec![answer(self.lang.arbiter.not_adjourned.clone())];
        };
        let by = self.game.turn();
        let mut out = vec![Effect::Record(Recorded::AdjournmentResumed)];
        if let Some(c) = self.clock.as_mut()
            && c.is_paused()
            && c.resume(now).is_ok()
        {
            out.push(Effect::Record(Recorded::ClockResumed));
        }
        let san = shakmaty::san::SanPlus::from_move(self.game.position().clone(), m);
        out.push(answer(fill(
            &self.lang.arbiter.sealed_move,
            &[
                ("color", self.lang.color(by)),
                ("move", &announce_san(san, m, self.lang, self.setup.form)),
            ],
        )));
        self.play(m, false, now, &mut out);
        out
    }

    /// The arbiter's note, for the record.
    pub(crate) fn note(&mut self, text: &str) -> Vec<Effect> {
        vec![
            Effect::Record(Recorded::Note(text.to_string())),
            say(
                Urgency::Answer,
                remark_words(&Remark::Note(text.to_string()), self.lang),
            ),
        ]
    }
}
