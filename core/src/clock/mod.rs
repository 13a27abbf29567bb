//! The chess clock, pure: time controls, the clock itself, and what it announces.
//!
//! No I/O, no threads, no system clock: every operation takes the current instant as a
//! [`Timestamp`](crate::time::Timestamp). The running player's time is computed from
//! the instant their clock last started, so times are exact over any length of game, a
//! flag's instant is computed rather than detected, and an event loop can sleep until
//! `min(Clock::next_deadline, Announcer::next_instant)`.
//!
//! - [`control`]: [`TimeControl`], its periods and bonuses, parsing and category.
//! - `clock`: [`Clock`], the state machine of Article 6 (press, pause, the arbiter's
//!   adjustments, flags).
//! - [`announce`]: [`Announcer`], which turns the clock into [`Announcement`]s (D5c) without
//!   ever repeating one, and [`ClockSummary`] for "time on request".
//!
//! # Time control syntax
//!
//! The PGN `TimeControl` tag: fields separated by `:`, one per period, each one of
//!
//! | field              | meaning                                                 |
//! |--------------------|---------------------------------------------------------|
//! | `40/5400`          | 40 moves in 5400 seconds                                |
//! | `1800`             | 1800 seconds for the rest of the game                   |
//! | `1800+30`          | the same with a 30 s increment after each move (Fischer) |
//! | `*180`             | sandclock; hector plays it as sudden death, `180`       |
//!
//! A bonus is also allowed after a move count (`40/5400+30`). hector's extension for delays,
//! in place of `+`: `d` for a simple (US) delay, `b` for a Bronstein delay: `300d5`,
//! `300b5`, `40/7200d30:3600d30`. Numbers are whole seconds, at most 86400; a zero bonus is
//! no bonus. PGN's `?` (unknown) and `-` (no clock) are refused: hector needs a concrete
//! control. Presets, in any case: `classical` = `40/5400+30:1800+30` (FIDE standard),
//! `olympiad` = `5400+30`, `rapid` = `900+10`, `blitz` = `180+2` (World Rapid and Blitz
//! Championships). `Display` writes the canonical form (`*180` becomes `180`, a preset its
//! fields).
//!
//! What a player types (`--tc`, `--time`, a game file) is read by [`TimeControl::typed`]:
//! `3+2` is 3 minutes plus 2 seconds, and the PGN syntax above only where it cannot be
//! minutes (a `/`, `:`, `*`, delay, or a base over 180). Journals and PGN files keep PGN's.
//!
//! # Periods
//!
//! Only the last field may lack a move count; it then lasts for the rest of the game. If
//! the last field has a move count, it repeats: `40/7200:20/3600` is 40 moves in two hours,
//! then 20 moves per hour for as long as the game lasts. A player enters the next period
//! when they complete its move count; its time is added to the time they saved (6.3b). A
//! move is played under the bonus of the period it began in, so the 40th move of
//! `40/5400+30:1800+30` still gets its 30 s.

pub(crate) mod announce;
#[expect(
    clippy::module_inception,
    reason = "the domain names the module and its main type alike: `clock::Clock`"
)]
mod clock;
pub(crate) mod control;

pub use announce::{AnnounceSettings, Announcement, Announcer, ClockSummary};
pub use clock::{BothFlags, Clock, ClockError, ClockState, Flag, PeriodStart, PressOutcome};
pub use control::{
    Bonus, Category, ControlError, FieldProblem, MAX_TYPED_MINUTES, Period, Reading, TimeControl,
    Unit,
};
