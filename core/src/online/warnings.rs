//! The player's own time on the server's clock, announced at the marks the player chose (D5:
//! every so many minutes, at thresholds, the last ten seconds). Online there is no local
//! [`Clock`](crate::clock::Clock): the server tells the times, hector counts down between
//! its messages, and a mark is said when the player's remaining time passes it going down.
//! A time that goes up (an increment, time given by the opponent) says nothing.

use std::time::Duration;

use shakmaty::Color;

use crate::clock::{AnnounceSettings, Announcement};

/// The marks are the settings' own (interval, thresholds, countdown), as at the board.
pub(crate) struct Warnings {
    settings: AnnounceSettings,
    color: Color,
    /// The remaining time last looked at.
    last: Option<Duration>,
}

impl Warnings {
    pub(crate) fn new(settings: AnnounceSettings, color: Color) -> Warnings {
        Warnings {
            settings,
            color,
            last: None,
        }
    }

    /// The player's remaining time now: the lowest mark passed since the last look, if any.
    /// (After a long silence only the newest mark is worth saying.)
    pub(crate) fn due(&mut self, remaining: Duration) -> Option<Announcement> {
        let last = self.last.replace(remaining)?;
        if remaining >= last {
            return None;
        }
        self.settings.lowest_passed(self.color, remaining, last)
    }

    /// How long until the next mark, while the player's time runs down from `remaining`.
    pub(crate) fn next_in(&self, remaining: Duration) -> Option<Duration> {
        self.settings.highest_mark(remaining).map(|m| remaining - m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    fn casual() -> Warnings {
        Warnings::new(AnnounceSettings::casual(), Color::White)
    }

    #[test]
    fn nothing_is_said_without_marks() {
        let mut w = Warnings::new(AnnounceSettings::tournament(), Color::White);
        for t in (0..=600).rev() {
            assert_eq!(w.due(s(t)), None);
        }
        assert_eq!(w.next_in(s(600)), None);
    }

    #[test]
    fn a_threshold_is_said_once_when_passed_going_down() {
        let mut w = casual();
        assert_eq!(w.due(s(125)), None, "the first look only notes the time");
        assert_eq!(w.next_in(s(125)), Some(s(5)));
        assert_eq!(w.due(s(121)), None);
        assert_eq!(
            w.due(s(119)),
            Some(Announcement::Threshold {
                color: Color::White,
                remaining: s(120)
            })
        );
        assert_eq!(w.due(s(118)), None, "said once");
        // An increment lifts the time above the mark again: nothing is said.
        assert_eq!(w.due(s(130)), None);
        // Passing it again says it again.
        assert!(w.due(s(120)).is_some());
    }

    #[test]
    fn after_a_long_silence_only_the_lowest_mark_passed_is_said() {
        let mut w = casual();
        w.due(s(700));
        assert_eq!(
            w.due(s(50)),
            Some(Announcement::Threshold {
                color: Color::White,
                remaining: s(60)
            })
        );
    }

    #[test]
    fn intervals_and_the_countdown() {
        let mut w = casual();
        w.due(s(1000));
        assert_eq!(
            w.due(s(899)),
            Some(Announcement::Interval {
                color: Color::White,
                remaining: s(900)
            })
        );
        w.due(s(11));
        assert_eq!(
            w.due(s(10)),
            Some(Announcement::Countdown {
                color: Color::White,
                seconds: 10
            })
        );
        assert_eq!(w.next_in(s(10)), Some(s(1)));
    }

    proptest! {
        /// Over any run of times, a mark is said only when the time passed it going down
        /// since the last look, and a look that passed a mark always says one.
        #[test]
        fn marks_are_said_only_when_passed(times in proptest::collection::vec(0u64..1200, 1..60)) {
            let mut w = casual();
            let mut last: Option<u64> = None;
            for t in times {
                let a = w.due(s(t));
                if let Some(a) = a {
                    let mark = match a {
                        Announcement::Threshold { remaining, .. }
                        | Announcement::Interval { remaining, .. } => remaining.as_secs(),
                        Announcement::Countdown { seconds, .. } => u64::from(seconds),
                        other => panic!("{other:?}"),
                    };
                    let before = last.expect("a first look says nothing");
                    prop_assert!(t <= mark && mark < before, "{t} {mark} {before}");
                } else if let Some(before) = last {
                    let passed = [600u64, 300, 120, 60, 30, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 900]
                        .iter()
                        .any(|&m| t <= m && m < before);
                    prop_assert!(!passed, "{before} -> {t} passed a mark silently");
                }
                last = Some(t);
            }
        }
    }
}
