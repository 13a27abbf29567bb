//! The chess clock as a state machine over instants passed in (Article 6).
//!
//! Nothing ticks: the running player's time is the main time stored when their clock last
//! started (or was adjusted) minus the time since then, so any number of presses over any
//! length of game gives exact times, and the instant a flag falls is computed, not observed.

use std::time::Duration;

use shakmaty::{ByColor, Color};

use super::control::{Bonus, TimeControl};
use crate::time::Timestamp;

/// A flag that has fallen (6.9): whose, in which period (0-based), at which instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Flag {
    pub(crate) color: Color,
    pub(crate) period: usize,
    pub(crate) at: Timestamp,
}

/// Both players' times are used up (6.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BothFlags {
    /// Both flags fell in a period in which all remaining moves must be completed: then the
    /// game is drawn (6.11b); otherwise it goes on (6.11a).
    pub(crate) in_last_period: bool,
}

/// A new period began for a player because they completed the moves of the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PeriodStart {
    pub color: Color,
    /// 0-based index of the new period.
    pub period: usize,
    /// The time the new period added.
    pub added: Duration,
    pub(crate) at: Timestamp,
}

/// What a press did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PressOutcome {
    /// The player who completed the move.
    pub(crate) color: Color,
    /// The time the move took, pauses excluded.
    pub(crate) used: Duration,
    /// Time given back after the move: the increment, or the used part of a Bronstein
    /// delay. Zero for a simple delay, whose effect is that the main time did not run.
    pub(crate) bonus: Duration,
    /// The player's main time now, bonus and any new period included.
    pub(crate) remaining: Duration,
    /// Moves the player has completed, this one included.
    pub(crate) moves: u32,
    pub period_started: Option<PeriodStart>,
}

/// Where the clock stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockState {
    /// Set up, not started yet.
    Ready,
    Running(Color),
    /// Stopped by the arbiter (6.12); the colour's clock runs again on resume.
    Paused(Color),
    /// The game is over; the clock no longer runs.
    Stopped,
}

/// Why the clock refused an operation. Nothing changes when an error is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("the clock has not been started")]
    NotStarted,
    #[error("the clock has already been started")]
    AlreadyStarted,
    #[error("the clock is stopped: the game is over")]
    Stopped,
    #[error("the clock is paused (6.12); it must be resumed first")]
    Paused,
    #[error("the clock is not paused")]
    NotPaused,
    #[error("{by} pressed the clock, but {running}'s clock is running")]
    NotYourClock { by: Color, running: Color },
    #[error(
        "{}'s flag fell in period {}; a press cannot give time back",
        .0.color, .0.period + 1
    )]
    FlagFallen(Flag),
}

/// The last change of a player's time by the arbiter or by a new period, which re-arms the
/// announcements below the new time (see `announce`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct TimeReset {
    pub(super) seq: u32,
    pub(super) remaining: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Side {
    /// Main time. For the player whose clock runs: the main time at `Turn::since`.
    remaining: Duration,
    moves: u32,
    /// Thinking time of the completed moves (D9d: "Zeitverbrauch").
    used: Duration,
    /// Always `control.period_for_moves(moves)`.
    period: usize,
    /// A flag once fallen stays down until the arbiter gives time back.
    fallen: Option<Flag>,
    last_period_start: Option<PeriodStart>,
    reset: TimeReset,
}

/// The move in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn {
    color: Color,
    /// Fixed when the move began: a move is played under the bonus of the period it began in.
    bonus: Bonus,
    /// Time this move used before `since` (pauses and adjustments split a move in stretches).
    used_before: Duration,
    /// Start of the current stretch; `None` while paused.
    since: Option<Timestamp>,
}

impl Turn {
    /// Delay left at the start of the current stretch.
    fn delay_at_since(&self) -> Duration {
        self.bonus.delay().saturating_sub(self.used_before)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ready,
    Turn(Turn),
    Stopped,
}

/// A two-player chess clock over a [`TimeControl`].
///
/// Every operation and query takes the current instant. An instant earlier than one a
/// change of the clock has already used is taken as that one: adapters pass monotonic time,
/// and this keeps the clock consistent if a stale instant ever slips through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    sides: ByColor<Side>,
    state: State,
    latest: Timestamp,
}

impl Clock {
    /// Both players get the time of the first period; nothing runs yet.
    pub fn new(control: TimeControl) -> Clock {
        let time = control.period(0).time;
        let side = Side {
            remaining: time,
            moves: 0,
            used: Duration::ZERO,
            period: 0,
            fallen: None,
            last_period_start: None,
            reset: TimeReset {
                seq: 0,
                remaining: time,
            },
        };
        Clock {
            control,
            sides: ByColor {
                white: side.clone(),
                black: side,
            },
            state: State::Ready,
            latest: Timestamp::ZERO,
        }
    }

    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// 6.6: White's clock starts.
    pub fn start(&mut self, now: Timestamp) -> Result<(), ClockError> {
        self.start_with(Color::White, now)
    }

    /// Starts `first`'s clock: for a game set up with Black to move, or resumed.
    pub(crate) fn start_with(&mut self, first: Color, now: Timestamp) -> Result<(), ClockError> {
        let now = self.clamp(now);
        match self.state {
            State::Ready => {
                self.latest = now;
                self.state = State::Turn(self.new_turn(first, now));
                self.settle(now);
                Ok(())
            }
            State::Turn(_) => Err(ClockError::AlreadyStarted),
            State::Stopped => Err(ClockError::Stopped),
        }
    }

    /// `by` completed a move and pressed the clock: their clock stops, the bonus applies,
    /// the move counts, a new period may begin, and the opponent's clock starts.
    pub fn press(&mut self, by: Color, now: Timestamp) -> Result<PressOutcome, ClockError> {
        let now = self.clamp(now);
        let turn = match self.state {
            State::Ready => return Err(ClockError::NotStarted),
            State::Stopped => return Err(ClockError::Stopped),
            State::Turn(turn) => turn,
        };
        if let Some(flag) = self.flag(now) {
            return Err(ClockError::FlagFallen(flag));
        }
        let Some(since) = turn.since else {
            return Err(ClockError::Paused);
        };
        if turn.color != by {
            return Err(ClockError::NotYourClock {
                by,
                running: turn.color,
            });
        }
        self.latest = now;
        let used = turn.used_before.saturating_add(now.saturating_since(since));
        let bonus = match turn.bonus {
            Bonus::Fischer(inc) => inc,
            Bonus::Bronstein(delay) => used.min(delay),
            Bonus::None | Bonus::SimpleDelay(_) => Duration::ZERO,
        };
        let mut main = self.main_time(by, now).saturating_add(bonus);
        let control = &self.control;
        let side = self.sides.get_mut(by);
        side.moves = side.moves.saturating_add(1);
        side.used = side.used.saturating_add(used);
        let period = control.period_for_moves(side.moves);
        let mut period_started = None;
        if period > side.period {
            // 6.3b: the new period's time is added to what was saved.
            let added = (side.period + 1..=period)
                .map(|p| control.period(p).time)
                .fold(Duration::ZERO, Duration::saturating_add);
            main = main.saturating_add(added);
            let start = PeriodStart {
                color: by,
                period,
                added,
                at: now,
            };
            period_started = Some(start);
            side.last_period_start = Some(start);
            side.reset = TimeReset {
                seq: side.reset.seq.wrapping_add(1),
                remaining: main,
            };
        }
        side.period = period;
        side.remaining = main;
        let moves = side.moves;
        self.state = State::Turn(self.new_turn(!by, now));
        self.settle(now);
        Ok(PressOutcome {
            color: by,
            used,
            bonus,
            remaining: main,
            moves,
            period_started,
        })
    }

    /// 6.12: the arbiter pauses the clock.
    pub fn pause(&mut self, now: Timestamp) -> Result<(), ClockError> {
        let now = self.clamp(now);
        match self.state {
            State::Ready => Err(ClockError::NotStarted),
            State::Stopped => Err(ClockError::Stopped),
            State::Turn(Turn { since: None, .. }) => Err(ClockError::Paused),
            State::Turn(_) => {
                self.latest = now;
                self.settle(now);
                self.rebase(now);
                if let State::Turn(turn) = &mut self.state {
                    turn.since = None;
                }
                Ok(())
            }
        }
    }

    /// 6.12: the arbiter restarts the clock; the interrupted move goes on.
    pub fn resume(&mut self, now: Timestamp) -> Result<(), ClockError> {
        let now = self.clamp(now);
        match self.state {
            State::Ready => Err(ClockError::NotStarted),
            State::Stopped => Err(ClockError::Stopped),
            State::Turn(Turn { since: Some(_), .. }) => Err(ClockError::NotPaused),
            State::Turn(turn) => {
                self.state = State::Turn(Turn {
                    since: Some(now),
                    ..turn
                });
                self.latest = now;
                self.settle(now);
                Ok(())
            }
        }
    }

    /// The game is over: the clock keeps the times as they are and no flag falls any more.
    pub fn stop(&mut self, now: Timestamp) {
        let now = self.observe(now);
        self.settle(now);
        self.rebase(now);
        self.state = State::Stopped;
    }

    /// The clock stands as before its start, its times kept: nothing runs until
    /// [`Clock::start_with`] (hector speaks first; the player's time does not run meanwhile).
    pub(crate) fn hold(&mut self, now: Timestamp) -> Result<(), ClockError> {
        let now = self.observe(now);
        match self.state {
            State::Turn(_) => {
                self.settle(now);
                self.rebase(now);
                // The move in progress has just begun: no time of it is kept.
                self.state = State::Ready;
                Ok(())
            }
            State::Ready => Ok(()),
            State::Stopped => Err(ClockError::Stopped),
        }
    }

    /// A stopped clock (or one never started: a finished game continued from its record)
    /// stands again, paused, with `color` to move: the arbiter reopened a finished game by
    /// taking moves back (D2.8). The arbiter starts it again.
    pub(crate) fn reopen(&mut self, color: Color, now: Timestamp) -> Result<(), ClockError> {
        let now = self.observe(now);
        if !matches!(self.state, State::Stopped | State::Ready) {
            return Err(ClockError::AlreadyStarted);
        }
        let mut turn = self.new_turn(color, now);
        turn.since = None;
        self.state = State::Turn(turn);
        self.settle(now);
        Ok(())
    }

    /// 6.10b, 7.1: the arbiter sets a player's main time. Giving time to a player whose flag
    /// has fallen raises the flag again: the arbiter's correction stands.
    pub(crate) fn set_remaining(&mut self, color: Color, time: Duration, now: Timestamp) {
        self.adjust(color, now, |_| time);
    }

    /// The arbiter adds time to a player's clock.
    pub(crate) fn add_time(&mut self, color: Color, time: Duration, now: Timestamp) {
        self.adjust(color, now, |t| t.saturating_add(time));
    }

    /// The arbiter takes time from a player's clock (down to zero).
    pub(crate) fn remove_time(&mut self, color: Color, time: Duration, now: Timestamp) {
        self.adjust(color, now, |t| t.saturating_sub(time));
    }

    /// 7.5b, 9.5b, B2: time added to `beneficiary`, the offender's opponent; the game model
    /// gives it as `laws::Penalty { beneficiary, time, .. }`.
    pub(crate) fn apply_penalty(&mut self, beneficiary: Color, time: Duration, now: Timestamp) {
        self.add_time(beneficiary, time, now);
    }

    /// 7.1: the arbiter sets the number of moves a player has completed; the period follows
    /// from it. The times are left as they are (the arbiter sets them separately), and the
    /// move in progress keeps the bonus it began with.
    pub(crate) fn set_moves(&mut self, color: Color, moves: u32, now: Timestamp) {
        let now = self.observe(now);
        self.settle(now);
        let period = self.control.period_for_moves(moves);
        let side = self.sides.get_mut(color);
        side.moves = moves;
        side.period = period;
        self.settle(now);
    }

    fn adjust(&mut self, color: Color, now: Timestamp, change: impl FnOnce(Duration) -> Duration) {
        let now = self.observe(now);
        self.settle(now);
        self.rebase(now);
        let side = self.sides.get_mut(color);
        side.remaining = change(side.remaining);
        if !side.remaining.is_zero() {
            side.fallen = None;
        }
        side.reset = TimeReset {
            seq: side.reset.seq.wrapping_add(1),
            remaining: side.remaining,
        };
        self.settle(now);
    }

    /// The thinking time a player has used so far (D9d), the move in progress included;
    /// pauses do not count.
    pub(crate) fn used(&self, color: Color, now: Timestamp) -> Duration {
        let now = self.clamp(now);
        let done = self.sides.get(color).used;
        match self.state {
            State::Turn(turn) if turn.color == color => {
                let run = turn
                    .since
                    .map_or(Duration::ZERO, |s| now.saturating_since(s));
                done.saturating_add(turn.used_before).saturating_add(run)
            }
            _ => done,
        }
    }

    /// Sets the thinking time of a player's completed moves (a game continued from its
    /// record); the move in progress is not changed.
    pub(crate) fn set_used(&mut self, color: Color, used: Duration) {
        self.sides.get_mut(color).used = used;
    }

    /// The arbiter gives the move to `color` (after moves were taken back, D2.8): the move in
    /// progress is abandoned and `color`'s begins, running or paused as the clock was. The
    /// times stay as they are; the arbiter sets them.
    pub(crate) fn give_move(&mut self, color: Color, now: Timestamp) -> Result<(), ClockError> {
        let now = self.observe(now);
        match self.state {
            State::Ready => Err(ClockError::NotStarted),
            State::Stopped => Err(ClockError::Stopped),
            State::Turn(turn) => {
                self.settle(now);
                self.rebase(now);
                // The abandoned move's time was used all the same.
                if let State::Turn(t) = self.state {
                    let side = self.sides.get_mut(t.color);
                    side.used = side.used.saturating_add(t.used_before);
                }
                let mut next = self.new_turn(color, now);
                if turn.since.is_none() {
                    next.since = None;
                }
                self.state = State::Turn(next);
                self.settle(now);
                Ok(())
            }
        }
    }

    /// A player's main time at `now`, never negative.
    pub fn remaining(&self, color: Color, now: Timestamp) -> Duration {
        self.main_time(color, self.clamp(now))
    }

    /// The delay left in the move in progress (simple delay only), shown apart from the
    /// main time, which does not run until the delay is used up.
    #[cfg(test)]
    pub(crate) fn delay_left(&self, now: Timestamp) -> Duration {
        let now = self.clamp(now);
        match self.state {
            State::Turn(turn) => {
                let run = turn
                    .since
                    .map_or(Duration::ZERO, |s| now.saturating_since(s));
                turn.delay_at_since().saturating_sub(run)
            }
            _ => Duration::ZERO,
        }
    }

    pub fn state(&self) -> ClockState {
        match self.state {
            State::Ready => ClockState::Ready,
            State::Stopped => ClockState::Stopped,
            State::Turn(Turn { color, since, .. }) => match since {
                Some(_) => ClockState::Running(color),
                None => ClockState::Paused(color),
            },
        }
    }

    /// The player whose clock runs now (none while paused).
    pub fn running(&self) -> Option<Color> {
        match self.state() {
            ClockState::Running(color) => Some(color),
            _ => None,
        }
    }

    pub fn is_paused(&self) -> bool {
        matches!(self.state(), ClockState::Paused(_))
    }

    pub(crate) fn moves_completed(&self, color: Color) -> u32 {
        self.sides.get(color).moves
    }

    /// The player's period, 0-based (repetitions of a last period with a move count go on
    /// counting: 2, 3, ...).
    #[cfg(test)]
    pub(crate) fn period(&self, color: Color) -> usize {
        self.sides.get(color).period
    }

    /// Moves the player must still complete to reach the next time control; `None` in a
    /// period for the rest of the game.
    #[cfg(test)]
    pub(crate) fn moves_to_next_control(&self, color: Color) -> Option<u32> {
        let side = self.sides.get(color);
        let control = self.control.control_after(side.period)?;
        let left = control.saturating_sub(u64::from(side.moves));
        Some(u32::try_from(left).unwrap_or(u32::MAX))
    }

    /// The player's flag, if it is down at `now`.
    pub(crate) fn flag_of(&self, color: Color, now: Timestamp) -> Option<Flag> {
        let now = self.clamp(now);
        let side = self.sides.get(color);
        if side.fallen.is_some() {
            return side.fallen;
        }
        let State::Turn(turn) = self.state else {
            return None;
        };
        let since = turn.since?;
        let at = self.expiry(turn, since);
        (turn.color == color && now >= at).then_some(Flag {
            color,
            period: side.period,
            at,
        })
    }

    /// The first flag that fell, if any is down at `now` (6.9).
    pub(crate) fn flag(&self, now: Timestamp) -> Option<Flag> {
        match (
            self.flag_of(Color::White, now),
            self.flag_of(Color::Black, now),
        ) {
            (Some(w), Some(b)) => Some(if b.at < w.at { b } else { w }),
            (w, b) => w.or(b),
        }
    }

    /// Both players' times are used up at `now` (6.11). A player's time is used up when
    /// their flag fell while their clock ran, or when an adjustment left them no main time
    /// and no delay to come (their flag would fall the instant their clock started).
    pub(crate) fn both_flags(&self, now: Timestamp) -> Option<BothFlags> {
        let white = self.flag_of(Color::White, now)?;
        let black = self.flag_of(Color::Black, now)?;
        Some(BothFlags {
            in_last_period: self.control.is_last_period(white.period)
                && self.control.is_last_period(black.period),
        })
    }

    /// The instant the running player's flag will fall, if it has not yet: an event loop
    /// can sleep until then.
    pub fn next_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        let now = self.clamp(now);
        let State::Turn(turn) = self.state else {
            return None;
        };
        let since = turn.since?;
        if self.sides.get(turn.color).fallen.is_some() {
            return None;
        }
        let at = self.expiry(turn, since);
        (at > now).then_some(at)
    }

    /// The instant the running player's main time comes down to `mark`; `None` if no clock
    /// runs. An instant not after the stretch start means the time is already there.
    pub(super) fn instant_at_remaining(&self, mark: Duration) -> Option<Timestamp> {
        let State::Turn(turn) = self.state else {
            return None;
        };
        let since = turn.since?;
        let main = self.sides.get(turn.color).remaining;
        if mark >= main {
            return Some(since);
        }
        Some(since + turn.delay_at_since() + (main - mark))
    }

    pub(super) fn time_reset(&self, color: Color) -> TimeReset {
        self.sides.get(color).reset
    }

    /// The last period that began for the player by a press.
    pub(crate) fn last_period_start(&self, color: Color) -> Option<PeriodStart> {
        self.sides.get(color).last_period_start
    }

    fn new_turn(&self, color: Color, now: Timestamp) -> Turn {
        Turn {
            color,
            bonus: self.control.period(self.sides.get(color).period).bonus,
            used_before: Duration::ZERO,
            since: Some(now),
        }
    }

    /// The instant the running stretch exhausts the delay and then the main time.
    fn expiry(&self, turn: Turn, since: Timestamp) -> Timestamp {
        let main = self.sides.get(turn.color).remaining;
        since + turn.delay_at_since().saturating_add(main)
    }

    fn main_time(&self, color: Color, now: Timestamp) -> Duration {
        let stored = self.sides.get(color).remaining;
        match self.state {
            State::Turn(turn) if turn.color == color => match turn.since {
                Some(since) => {
                    let run = now.saturating_since(since);
                    stored.saturating_sub(run.saturating_sub(turn.delay_at_since()))
                }
                None => stored,
            },
            _ => stored,
        }
    }

    /// Starts a new stretch of the running move at `now`, keeping its times: adjustments
    /// then apply to the main time as it is now.
    fn rebase(&mut self, now: Timestamp) {
        let State::Turn(turn) = self.state else {
            return;
        };
        let Some(since) = turn.since else {
            return;
        };
        let main = self.main_time(turn.color, now);
        self.sides.get_mut(turn.color).remaining = main;
        self.state = State::Turn(Turn {
            used_before: turn.used_before.saturating_add(now.saturating_since(since)),
            since: Some(now),
            ..turn
        });
    }

    /// Records the flags that are down at `now`, so that they survive a pause, a press
    /// refused, or the rebasing of an adjustment.
    fn settle(&mut self, now: Timestamp) {
        let turn = match self.state {
            State::Stopped => return,
            State::Ready => None,
            State::Turn(turn) => Some(turn),
        };
        for color in Color::ALL {
            if self.sides.get(color).fallen.is_some() {
                continue;
            }
            let flag = match turn {
                Some(t @ Turn { since: Some(_), .. }) if t.color == color => {
                    self.flag_of(color, now)
                }
                _ => {
                    let side = self.sides.get(color);
                    let delay_to_come = match turn {
                        Some(t) if t.color == color => t.delay_at_since(),
                        _ => self.control.period(side.period).bonus.delay(),
                    };
                    (side.remaining.is_zero() && delay_to_come.is_zero()).then_some(Flag {
                        color,
                        period: side.period,
                        at: now,
                    })
                }
            };
            self.sides.get_mut(color).fallen = flag;
        }
    }

    /// The instant to use for a change: never before one already seen.
    fn observe(&mut self, now: Timestamp) -> Timestamp {
        let now = self.clamp(now);
        self.latest = now;
        now
    }

    fn clamp(&self, now: Timestamp) -> Timestamp {
        now.max(self.latest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    use crate::testkit::t;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    fn clock(text: &str) -> Clock {
        Clock::new(text.parse().expect("test time control"))
    }

    /// One step of a scripted game; instants and times in milliseconds.
    #[derive(Clone, Copy, Debug)]
    enum Step {
        Start(u64),
        /// `color` presses at the instant; their main time afterwards.
        Press(Color, u64, u64),
        Pause(u64),
        Resume(u64),
        /// A player's main time at an instant.
        Left(Color, u64, u64),
        /// The delay left at an instant.
        Delay(u64, u64),
        /// A player's period and moves to the next control.
        Period(Color, usize, Option<u32>),
    }

    fn play(text: &str, steps: &[Step]) -> Clock {
        let mut c = clock(text);
        for (i, &step) in steps.iter().enumerate() {
            let context = format!("{text}, step {i}: {step:?}");
            match step {
                Step::Start(at) => c.start(t(at)).expect(&context),
                Step::Press(color, at, left) => {
                    let out = c.press(color, t(at)).expect(&context);
                    assert_eq!(out.remaining, ms(left), "{context}");
                    assert_eq!(c.remaining(color, t(at)), ms(left), "{context}");
                    assert_eq!(c.running(), Some(!color), "{context}");
                }
                Step::Pause(at) => c.pause(t(at)).expect(&context),
                Step::Resume(at) => c.resume(t(at)).expect(&context),
                Step::Left(color, at, left) => {
                    assert_eq!(c.remaining(color, t(at)), ms(left), "{context}")
                }
                Step::Delay(at, left) => assert_eq!(c.delay_left(t(at)), ms(left), "{context}"),
                Step::Period(color, period, to_control) => {
                    assert_eq!(c.period(color), period, "{context}");
                    assert_eq!(c.moves_to_next_control(color), to_control, "{context}");
                }
            }
        }
        c
    }

    #[test]
    fn every_mode_step_by_step() {
        use Step::*;
        let table: &[(&str, &[Step])] = &[
            // Sudden death: only the mover's clock runs.
            (
                "60",
                &[
                    Start(0),
                    Left(White, 10_000, 50_000),
                    Press(White, 10_000, 50_000),
                    Left(Black, 15_000, 55_000),
                    Left(White, 15_000, 50_000),
                    Press(Black, 25_000, 45_000),
                    Left(White, 25_500, 49_500),
                    Period(White, 0, None),
                ],
            ),
            // Fischer: the increment after each move, the first one included.
            (
                "60+5",
                &[
                    Start(0),
                    Press(White, 10_000, 55_000),
                    Press(Black, 12_000, 63_000),
                    Left(White, 13_000, 54_000),
                ],
            ),
            // Bronstein: the display counts down at once; the used time, up to the delay,
            // comes back after the move.
            (
                "60b5",
                &[
                    Start(0),
                    Left(White, 2_000, 58_000),
                    Delay(2_000, 0),
                    Press(White, 3_000, 60_000),
                    Left(Black, 11_000, 52_000),
                    Press(Black, 11_000, 57_000),
                ],
            ),
            // Simple delay: the main time waits for the delay; delay not used up is lost.
            (
                "60d5",
                &[
                    Start(0),
                    Delay(2_000, 3_000),
                    Left(White, 2_000, 60_000),
                    Press(White, 3_000, 60_000),
                    Left(Black, 8_000, 60_000),
                    Delay(8_000, 0),
                    Left(Black, 11_000, 57_000),
                    Press(Black, 11_000, 57_000),
                    Delay(11_000, 5_000),
                ],
            ),
            // Two periods: saved time carries over (6.3b); the 2nd move still gets the
            // bonus of period 0; period 1 has none.
            (
                "2/60+1:30",
                &[
                    Start(0),
                    Period(White, 0, Some(2)),
                    Press(White, 10_000, 51_000),
                    Period(White, 0, Some(1)),
                    Press(Black, 20_000, 51_000),
                    Press(White, 30_000, 72_000),
                    Period(White, 1, None),
                    Period(Black, 0, Some(1)),
                    Press(Black, 40_000, 72_000),
                    Press(White, 50_000, 62_000),
                ],
            ),
            // A last period with a move count repeats: 10 s more every move after the 2nd.
            (
                "2/60:1/10",
                &[
                    Start(0),
                    Press(White, 1_000, 59_000),
                    Press(Black, 2_000, 59_000),
                    Press(White, 3_000, 68_000),
                    Period(White, 1, Some(1)),
                    Press(Black, 4_000, 68_000),
                    Press(White, 5_000, 77_000),
                    Period(White, 2, Some(1)),
                    Press(Black, 6_000, 77_000),
                    Press(White, 7_000, 86_000),
                    Period(White, 3, Some(1)),
                ],
            ),
            // 6.12: a pause freezes the running clock.
            (
                "60",
                &[
                    Start(0),
                    Pause(10_000),
                    Left(White, 50_000, 50_000),
                    Resume(100_000),
                    Left(White, 101_000, 49_000),
                    Press(White, 105_000, 45_000),
                ],
            ),
            // A pause inside a simple delay keeps the delay left.
            (
                "60d5",
                &[
                    Start(0),
                    Pause(3_000),
                    Delay(50_000, 2_000),
                    Left(White, 50_000, 60_000),
                    Resume(50_000),
                    Delay(51_000, 1_000),
                    Left(White, 52_000, 60_000),
                    Left(White, 53_000, 59_000),
                    Press(White, 54_000, 58_000),
                ],
            ),
            // Bronstein gives back the time of the whole move, across a pause.
            (
                "60b5",
                &[
                    Start(0),
                    Pause(3_000),
                    Resume(10_000),
                    Press(White, 11_000, 60_000),
                    Press(Black, 20_000, 56_000),
                ],
            ),
            // From a delay period into an increment period.
            (
                "2/60d5:30+10",
                &[
                    Start(0),
                    Press(White, 7_000, 58_000),
                    Press(Black, 8_000, 60_000),
                    Press(White, 9_000, 88_000),
                    Press(Black, 10_000, 90_000),
                    Press(White, 13_000, 95_000),
                    Delay(13_500, 0),
                ],
            ),
        ];
        for (text, steps) in table {
            play(text, steps);
        }
    }

    #[test]
    fn press_reports_the_move() {
        let mut c = clock("1/60+2:30");
        c.start(t(1_000)).expect("start");
        let out = c.press(White, t(4_500)).expect("press");
        assert_eq!(
            out,
            PressOutcome {
                color: White,
                used: ms(3_500),
                bonus: ms(2_000),
                remaining: ms(88_500),
                moves: 1,
                period_started: Some(PeriodStart {
                    color: White,
                    period: 1,
                    added: ms(30_000),
                    at: t(4_500),
                }),
            }
        );
        assert_eq!(c.last_period_start(White), out.period_started);
        assert_eq!(c.last_period_start(Black), None);
    }

    #[test]
    fn exact_flag_instants() {
        // Sudden death: one millisecond before the flag there is one millisecond left.
        let mut c = clock("60");
        c.start(t(1_000)).expect("start");
        assert_eq!(c.next_deadline(t(1_000)), Some(t(61_000)));
        assert_eq!(c.remaining(White, t(60_999)), ms(1));
        assert_eq!(c.flag(t(60_999)), None);
        let flag = Flag {
            color: White,
            period: 0,
            at: t(61_000),
        };
        assert_eq!(c.flag(t(61_000)), Some(flag));
        // Seen late, the flag keeps its exact instant.
        assert_eq!(c.flag(t(99_999)), Some(flag));
        assert_eq!(c.remaining(White, t(99_999)), Duration::ZERO);
        assert_eq!(c.next_deadline(t(61_000)), None);

        // In a delay period the flag falls when the delay and then the main time are gone.
        let mut c = clock("10d5");
        c.start(t(0)).expect("start");
        assert_eq!(c.next_deadline(t(0)), Some(t(15_000)));
        assert_eq!(c.remaining(White, t(4_000)), ms(10_000));
        assert_eq!(c.remaining(White, t(14_999)), ms(1));
        assert_eq!(c.flag(t(14_999)), None);
        assert_eq!(c.flag(t(15_000)).map(|f| f.at), Some(t(15_000)));

        // No main time at all: each move has its delay, and the flag falls at its end.
        let mut c = clock("0d5");
        c.start(t(1_000)).expect("start");
        assert_eq!(c.next_deadline(t(1_000)), Some(t(6_000)));
        let out = c.press(White, t(5_999)).expect("in time");
        assert_eq!(out.remaining, Duration::ZERO);
        assert_eq!(c.flag(t(5_999)), None);
        assert_eq!(c.next_deadline(t(6_000)), Some(t(10_999)));
        assert_eq!(
            c.flag(t(10_999)),
            Some(Flag {
                color: Black,
                period: 0,
                at: t(10_999),
            })
        );

        // A flag in the second period names it.
        let mut c = clock("1/10:10");
        c.start(t(0)).expect("start");
        c.press(White, t(1_000)).expect("press");
        c.press(Black, t(2_000)).expect("press");
        assert_eq!(
            c.flag(t(30_000)),
            Some(Flag {
                color: White,
                period: 1,
                at: t(21_000),
            })
        );

        // A pause stops the deadline; the flag instant moves by the pause.
        let mut c = clock("60");
        c.start(t(0)).expect("start");
        c.pause(t(10_000)).expect("pause");
        assert_eq!(c.next_deadline(t(10_000)), None);
        assert_eq!(c.flag(t(100_000)), None);
        c.resume(t(20_000)).expect("resume");
        assert_eq!(c.next_deadline(t(20_000)), Some(t(70_000)));
    }

    #[test]
    fn presses_in_the_wrong_state_are_refused_and_change_nothing() {
        let mut c = clock("10+5");
        assert_eq!(c.press(White, t(0)), Err(ClockError::NotStarted));
        assert_eq!(c.pause(t(0)), Err(ClockError::NotStarted));
        assert_eq!(c.resume(t(0)), Err(ClockError::NotStarted));
        c.start(t(0)).expect("start");
        assert_eq!(c.start(t(1)), Err(ClockError::AlreadyStarted));
        assert_eq!(c.resume(t(1)), Err(ClockError::NotPaused));
        let err = c.press(Black, t(1_000)).expect_err("wrong clock");
        assert_eq!(
            err,
            ClockError::NotYourClock {
                by: Black,
                running: White
            }
        );
        assert_eq!(
            err.to_string(),
            "black pressed the clock, but white's clock is running"
        );
        c.pause(t(2_000)).expect("pause");
        assert_eq!(c.pause(t(2_000)), Err(ClockError::Paused));
        assert_eq!(c.press(White, t(2_500)), Err(ClockError::Paused));
        c.resume(t(3_000)).expect("resume");

        // After the flag, a press is refused and gives no time back.
        let before = c.clone();
        let flag = Flag {
            color: White,
            period: 0,
            at: t(11_000),
        };
        let err = c.press(White, t(12_000)).expect_err("flag");
        assert_eq!(err, ClockError::FlagFallen(flag));
        assert_eq!(
            err.to_string(),
            "white's flag fell in period 1; a press cannot give time back"
        );
        assert_eq!(c, before);
        assert_eq!(c.remaining(White, t(12_000)), Duration::ZERO);
        assert_eq!(c.press(Black, t(13_000)), Err(ClockError::FlagFallen(flag)));
        // Paused after the flag: it stays down.
        c.pause(t(14_000)).expect("pause");
        c.resume(t(15_000)).expect("resume");
        assert_eq!(c.flag(t(15_000)), Some(flag));
        assert_eq!(c.remaining(White, t(16_000)), Duration::ZERO);

        c.stop(t(20_000));
        assert_eq!(c.state(), ClockState::Stopped);
        assert_eq!(c.press(White, t(21_000)), Err(ClockError::Stopped));
        assert_eq!(c.pause(t(21_000)), Err(ClockError::Stopped));
        assert_eq!(c.start(t(21_000)), Err(ClockError::Stopped));
    }

    #[test]
    fn stop_freezes_the_times_and_no_flag_falls_after() {
        let mut c = clock("60");
        c.start(t(0)).expect("start");
        c.press(White, t(10_000)).expect("press");
        c.stop(t(15_000));
        assert_eq!(c.remaining(Black, t(500_000)), ms(55_000));
        assert_eq!(c.flag(t(500_000)), None);
        assert_eq!(c.next_deadline(t(15_000)), None);
        assert_eq!(c.running(), None);
    }

    #[test]
    fn arbiter_adjustments() {
        let mut c = clock("600");
        c.start(t(0)).expect("start");
        // Set while running: the new time runs down from the instant it was set.
        c.set_remaining(White, ms(30_000), t(10_000));
        assert_eq!(c.remaining(White, t(20_000)), ms(20_000));
        c.add_time(White, ms(5_000), t(20_000));
        assert_eq!(c.remaining(White, t(20_000)), ms(25_000));
        c.remove_time(White, ms(10_000), t(20_000));
        assert_eq!(c.remaining(White, t(20_000)), ms(15_000));
        assert_eq!(c.next_deadline(t(20_000)), Some(t(35_000)));
        // B2: ten minutes is blitz, so one minute to the opponent.
        let penalty = c.control().penalty();
        assert_eq!(penalty, ms(60_000));
        c.apply_penalty(Black, penalty, t(20_000));
        assert_eq!(c.remaining(Black, t(20_000)), ms(660_000));
        // Taking all the time makes the flag fall at that instant.
        c.remove_time(White, ms(3_600_000), t(30_000));
        let flag = Flag {
            color: White,
            period: 0,
            at: t(30_000),
        };
        assert_eq!(c.flag(t(30_000)), Some(flag));
        assert_eq!(c.press(White, t(31_000)), Err(ClockError::FlagFallen(flag)));
        // The arbiter's correction raises the flag again.
        c.add_time(White, ms(60_000), t(40_000));
        assert_eq!(c.flag(t(40_000)), None);
        assert_eq!(c.remaining(White, t(40_000)), ms(60_000));
        let out = c.press(White, t(50_000)).expect("press");
        assert_eq!(out.remaining, ms(50_000));
        // Adjusting the waiting player, and adjustments while paused.
        c.pause(t(60_000)).expect("pause");
        c.set_remaining(White, ms(1_000), t(61_000));
        c.set_remaining(Black, ms(2_000), t(61_000));
        c.resume(t(70_000)).expect("resume");
        assert_eq!(c.remaining(White, t(70_500)), ms(1_000));
        assert_eq!(c.remaining(Black, t(70_500)), ms(1_500));
        // Huge additions saturate instead of overflowing.
        c.add_time(Black, Duration::MAX, t(71_000));
        assert_eq!(c.remaining(Black, t(71_000)), Duration::MAX);
        assert_eq!(c.next_deadline(t(71_000)), Some(t(71_000) + Duration::MAX));
        c.set_remaining(Black, ms(1_000), t(71_000));
        // Before the start, too.
        let mut c = clock("60");
        c.set_remaining(Black, ms(90_000), t(0));
        c.start(t(0)).expect("start");
        c.press(White, t(1_000)).expect("press");
        assert_eq!(c.remaining(Black, t(2_000)), ms(89_000));
    }

    #[test]
    fn set_moves_recomputes_the_period() {
        let mut c = clock("40/5400:20/1800:900");
        for (moves, period, to_control) in [
            (45, 1, Some(15)),
            (60, 2, None),
            (500, 2, None),
            (40, 1, Some(20)),
            (0, 0, Some(40)),
            (39, 0, Some(1)),
        ] {
            c.set_moves(White, moves, t(0));
            assert_eq!(c.moves_completed(White), moves);
            assert_eq!(c.period(White), period, "{moves}");
            assert_eq!(c.moves_to_next_control(White), to_control, "{moves}");
        }
        // The times are not touched; the next press reaches the control.
        assert_eq!(c.remaining(White, t(0)), ms(5_400_000));
        c.start(t(0)).expect("start");
        let out = c.press(White, t(10_000)).expect("press");
        assert_eq!(out.moves, 40);
        assert_eq!(out.remaining, ms(5_390_000 + 1_800_000));
        assert_eq!(out.period_started.map(|p| p.period), Some(1));
        assert_eq!(c.moves_to_next_control(White), Some(20));
    }

    #[test]
    fn both_flags() {
        // The waiting player's time taken away (no delay to come): their flag falls then;
        // when the running player's falls too, both are down.
        for (text, in_last_period) in [("60", true), ("40/60:30", false)] {
            let mut c = clock(text);
            c.start(t(0)).expect("start");
            c.remove_time(Black, ms(60_000), t(10_000));
            let black = Flag {
                color: Black,
                period: 0,
                at: t(10_000),
            };
            assert_eq!(c.flag_of(Black, t(10_000)), Some(black));
            assert_eq!(c.flag(t(10_000)), Some(black));
            assert_eq!(c.both_flags(t(59_999)), None);
            assert_eq!(
                c.both_flags(t(60_000)),
                Some(BothFlags { in_last_period }),
                "{text}"
            );
            // The first flag to fall is reported first.
            assert_eq!(c.flag(t(60_000)), Some(black));
            assert_eq!(
                c.press(White, t(60_000)),
                Err(ClockError::FlagFallen(black))
            );
        }

        // With a simple delay to come, no main time is not yet a fallen flag.
        let mut c = clock("60d5");
        c.start(t(0)).expect("start");
        c.remove_time(Black, ms(60_000), t(1_000));
        assert_eq!(c.flag_of(Black, t(1_000)), None);
        assert_eq!(c.both_flags(t(100_000)), None);
        c.press(White, t(2_000)).expect("press");
        assert_eq!(c.next_deadline(t(2_000)), Some(t(7_000)));
        assert_eq!(c.flag_of(Black, t(7_000)).map(|f| f.at), Some(t(7_000)));

        // The arbiter leaves both without time while the clock is paused.
        let mut c = clock("60+5");
        c.start(t(0)).expect("start");
        c.pause(t(1_000)).expect("pause");
        c.set_remaining(White, Duration::ZERO, t(2_000));
        c.set_remaining(Black, Duration::ZERO, t(3_000));
        assert_eq!(
            c.both_flags(t(3_000)),
            Some(BothFlags {
                in_last_period: true
            })
        );
        assert_eq!(
            c.flag(t(3_000)).map(|f| (f.color, f.at)),
            Some((White, t(2_000)))
        );
    }

    #[test]
    fn stale_instants_count_as_the_latest_seen() {
        let mut c = clock("60");
        c.start(t(10_000)).expect("start");
        let out = c.press(White, t(5_000)).expect("press");
        assert_eq!(out.used, Duration::ZERO);
        assert_eq!(out.remaining, ms(60_000));
        c.add_time(White, ms(1_000), t(20_000));
        c.press(Black, t(15_000)).expect("press");
        assert_eq!(c.remaining(Black, t(20_000)), ms(50_000));
    }

    #[test]
    fn used_time_counts_thinking_only() {
        let mut c = clock("60+5");
        c.start_with(White, t(0)).expect("start");
        c.press(White, t(3_000)).expect("press");
        assert_eq!(c.used(White, t(4_000)), ms(3_000));
        assert_eq!(c.used(Black, t(4_000)), ms(1_000));
        c.pause(t(5_000)).expect("pause");
        // A pause does not count.
        assert_eq!(c.used(Black, t(60_000)), ms(2_000));
        c.resume(t(60_000)).expect("resume");
        c.press(Black, t(61_000)).expect("press");
        assert_eq!(c.used(Black, t(70_000)), ms(3_000));
        c.set_used(Black, ms(10_000));
        assert_eq!(c.used(Black, t(70_000)), ms(10_000));
    }

    #[test]
    fn give_move_hands_the_turn_over_and_keeps_a_pause() {
        let mut c = clock("60");
        c.start_with(White, t(0)).expect("start");
        c.press(White, t(1_000)).expect("press");
        c.pause(t(3_000)).expect("pause");
        c.give_move(White, t(4_000)).expect("give");
        assert_eq!(c.state(), ClockState::Paused(White));
        // Black's abandoned move used two seconds of Black's time.
        assert_eq!(c.remaining(Black, t(4_000)), ms(58_000));
        assert_eq!(c.used(Black, t(4_000)), ms(2_000));
        c.resume(t(5_000)).expect("resume");
        assert_eq!(c.remaining(White, t(6_000)), ms(58_000));
        let mut ready = clock("60");
        assert_eq!(ready.give_move(Black, t(0)), Err(ClockError::NotStarted));
    }

    #[test]
    fn summary_counts_full_moves() {
        let mut c = clock("60");
        c.start_with(White, t(0)).expect("start");
        for (i, color) in [White, Black, White].into_iter().enumerate() {
            c.press(color, t(1_000 * (i as u64 + 1))).expect("press");
        }
        let s = c.summary(t(3_500));
        assert_eq!((s.white_moves, s.black_moves, s.moves_played), (2, 1, 1));
        assert_eq!(
            (s.white, s.black, s.running),
            (ms(58_000), ms(58_500), Some(Black))
        );
        // A game set up with Black to move.
        let mut c = clock("60");
        c.start_with(Black, t(0)).expect("start");
        assert_eq!(c.state(), ClockState::Running(Black));
        c.pause(t(1)).expect("pause");
        assert_eq!(c.state(), ClockState::Paused(Black));
        assert!(c.is_paused() && c.running().is_none());
    }

    /// xorshift64*: deterministic irregular instants without a dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1)
        }
    }

    /// The reference for one player: main time in whole milliseconds, changed once per move
    /// by the textbook rule of the bonus.
    #[derive(Clone, Copy)]
    struct Reference {
        left: u64,
        done_in_period: u32,
        period: usize,
        moves: u32,
    }

    fn millis(d: Duration) -> u64 {
        u64::try_from(d.as_millis()).expect("test durations fit")
    }

    /// Six hours and thousands of presses at irregular millisecond instants, with pauses,
    /// penalties and mid-move readings: every reading equals the reference exactly.
    fn six_hours(text: &str, seed: u64, max_think: u64) {
        const SIX_HOURS: u64 = 6 * 3_600_000;
        let control: TimeControl = text.parse().expect("test time control");
        let periods = control.periods().to_vec();
        let period = |i: usize| periods[i.min(periods.len() - 1)];
        let mut c = Clock::new(control.clone());
        let mut rng = Rng(seed);
        let first = Reference {
            left: millis(period(0).time),
            done_in_period: 0,
            period: 0,
            moves: 0,
        };
        let mut reference = ByColor {
            white: first,
            black: first,
        };
        let mut now = 1_000 + rng.below(1_000);
        c.start(t(now)).expect("start");
        let mut color = White;
        let mut plies = 0u32;
        while now < SIX_HOURS + 1_000 {
            let me = *reference.get(color);
            let p = period(me.period);
            let delay = millis(p.bonus.delay());
            // Always press before the flag falls.
            let think = rng.below(max_think + 1).min(me.left + delay - 1);
            let at_think = |e: u64| match p.bonus {
                Bonus::SimpleDelay(_) => me.left - e.saturating_sub(delay),
                _ => me.left - e,
            };
            assert_eq!(c.next_deadline(t(now)), Some(t(now + delay + me.left)));
            let mid = rng.below(think + 1);
            assert_eq!(
                c.remaining(color, t(now + mid)),
                ms(at_think(mid)),
                "ply {plies}"
            );
            let pause = if rng.below(40) == 0 {
                1 + rng.below(60_000)
            } else {
                0
            };
            if pause > 0 {
                c.pause(t(now + mid)).expect("pause");
                assert_eq!(c.remaining(color, t(now + mid + pause)), ms(at_think(mid)));
                c.resume(t(now + mid + pause)).expect("resume");
            }
            if rng.below(100) == 0 {
                c.apply_penalty(!color, ms(120_000), t(now + mid + pause));
                reference.get_mut(!color).left += 120_000;
            }
            let at = now + think + pause;
            let out = c.press(color, t(at)).expect("pressed before the flag");

            let me = reference.get_mut(color);
            me.left = match p.bonus {
                Bonus::None => me.left - think,
                Bonus::Fischer(inc) => me.left - think + millis(inc),
                Bonus::Bronstein(d) => me.left - think + think.min(millis(d)),
                Bonus::SimpleDelay(d) => me.left - think.saturating_sub(millis(d)),
            };
            me.moves += 1;
            me.done_in_period += 1;
            if p.moves == Some(me.done_in_period) {
                me.period += 1;
                me.done_in_period = 0;
                me.left += millis(period(me.period).time);
            }
            assert_eq!(out.remaining, ms(me.left), "{text}, ply {plies}");
            assert_eq!(out.used, ms(think));
            for side in Color::ALL {
                let r = reference.get(side);
                assert_eq!(c.remaining(side, t(at)), ms(r.left), "{text}, ply {plies}");
                assert_eq!(c.moves_completed(side), r.moves);
                assert_eq!(c.period(side), r.period);
            }
            now = at;
            color = !color;
            plies += 1;
        }
        assert!(plies >= 2_000, "{text}: only {plies} plies");
    }

    #[test]
    fn six_hour_games_have_no_drift() {
        for (i, (text, max_think)) in [
            ("40/5400+30:1800+30", 9_000),
            ("300+5", 9_000),
            ("40/1200b5:20/600b5", 9_000),
            ("40/1200d5:20/600d5", 9_000),
            ("40/600:20/300", 9_000),
        ]
        .into_iter()
        .enumerate()
        {
            six_hours(text, 0x9E37_79B9_7F4A_7C15 ^ i as u64, max_think);
        }
    }
}
