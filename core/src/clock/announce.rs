//! What the clock tells a blind player, and when (D5c, D9d), as structured values; the words
//! are chosen elsewhere.
//!
//! Time announcements are *marks* on the running player's own main time: multiples of
//! `every`, the `thresholds`, and (with `countdown`) each whole second from 10 down to 1.
//! A mark is due at the instant the running player's time comes down to it. Marks at or
//! above a player's *floor* count as done: the floor follows the time down as marks are
//! said or passed, so nothing is said twice, and an increment that lifts the time above a
//! mark said before does not make it due again. Only the arbiter (adding time) and a new
//! period (6.3b) raise the floor, re-arming the marks below the new time. A mark the
//! running player passes while no one asked, or that an adjustment jumps over, is not said
//! late: of the marks due in one call only the lowest (closest to the time actually left)
//! is said.

use std::time::Duration;

use shakmaty::{ByColor, Color};

use super::clock::{Clock, Flag, PeriodStart};
use crate::time::Timestamp;

/// "Time on request".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSummary {
    pub(crate) white: Duration,
    pub(crate) black: Duration,
    pub(crate) running: Option<Color>,
    /// Full moves completed by both players: `min(white_moves, black_moves)`. After 1.e4 e5
    /// 2.Nf3 it is 1, and the move in progress is number `moves_played + 1`.
    pub moves_played: u32,
    pub(crate) white_moves: u32,
    pub(crate) black_moves: u32,
}

impl Clock {
    pub fn summary(&self, now: Timestamp) -> ClockSummary {
        let white_moves = self.moves_completed(Color::White);
        let black_moves = self.moves_completed(Color::Black);
        ClockSummary {
            white: self.remaining(Color::White, now),
            black: self.remaining(Color::Black, now),
            running: self.running(),
            moves_played: white_moves.min(black_moves),
            white_moves,
            black_moves,
        }
    }
}

/// The shortest `every`: announcements more often than once a minute would be noise (only
/// the countdown speaks each second, and only when asked for).
pub(crate) const MIN_INTERVAL: Duration = Duration::from_secs(60);

/// The countdown covers the last this many seconds.
const COUNTDOWN_FROM: u8 = 10;

/// Which automatic announcements a player wants. A flag fall is always reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnounceSettings {
    /// Each multiple of this of one's own remaining time (D5a's marks: 5 or 15 minutes).
    /// Values under [`MIN_INTERVAL`] count as [`MIN_INTERVAL`]; zero is off.
    pub every: Option<Duration>,
    /// Remaining times to announce, in any order; zero is ignored.
    pub thresholds: Vec<Duration>,
    /// Each of the last ten seconds.
    pub countdown: bool,
    /// The start of a new period, with the time it added.
    pub(crate) period_start: bool,
}

impl AnnounceSettings {
    /// D9d: in a tournament nothing is announced automatically (only the flag).
    pub fn tournament() -> AnnounceSettings {
        AnnounceSettings {
            every: None,
            thresholds: Vec::new(),
            countdown: false,
            period_start: false,
        }
    }

    /// For friendly games: every 15 minutes, at 10, 5, 2 and 1 minutes and 30 seconds
    /// left, each of the last ten seconds, and each new period.
    pub fn casual() -> AnnounceSettings {
        AnnounceSettings {
            every: Some(Duration::from_secs(15 * 60)),
            thresholds: [600, 300, 120, 60, 30]
                .into_iter()
                .map(Duration::from_secs)
                .collect(),
            countdown: true,
            period_start: true,
        }
    }

    fn interval(&self) -> Option<Duration> {
        self.every
            .filter(|e| !e.is_zero())
            .map(|e| e.max(MIN_INTERVAL))
    }

    fn countdown_marks(&self) -> impl Iterator<Item = Duration> {
        let upto = if self.countdown { COUNTDOWN_FROM } else { 0 };
        (1..=upto).map(|s| Duration::from_secs(u64::from(s)))
    }

    /// The lowest mark in `low..below`, with the kind that announces it (a countdown
    /// second before a threshold before an interval when they coincide).
    fn lowest_mark(&self, low: Duration, below: Duration) -> Option<(Duration, Mark)> {
        let in_range = |v: &Duration| !v.is_zero() && *v >= low && *v < below;
        let interval = self.interval().and_then(|e| {
            let k = low.as_nanos().div_ceil(e.as_nanos()).max(1);
            multiple(e, k).filter(in_range)
        });
        let candidates = [
            interval.map(|v| (v, Mark::Interval)),
            self.thresholds
                .iter()
                .copied()
                .filter(in_range)
                .min()
                .map(|v| (v, Mark::Threshold)),
            self.countdown_marks()
                .find(in_range)
                .map(|v| (v, Mark::Countdown)),
        ];
        candidates
            .into_iter()
            .flatten()
            .min_by_key(|&(v, kind)| (v, std::cmp::Reverse(kind)))
    }

    /// The lowest mark a time going from `below` down to `low` passed, as it is announced for
    /// `color` (for a time told from outside, such as a server's clock).
    pub(crate) fn lowest_passed(
        &self,
        color: Color,
        low: Duration,
        below: Duration,
    ) -> Option<Announcement> {
        self.lowest_mark(low, below)
            .map(|(v, kind)| Announcement::mark(color, v, kind))
    }

    /// The highest mark below `below`: the next one the running time will reach.
    pub(crate) fn highest_mark(&self, below: Duration) -> Option<Duration> {
        let below_ok = |v: &Duration| !v.is_zero() && *v < below;
        let interval = self.interval().and_then(|e| {
            let k = below.as_nanos().saturating_sub(1) / e.as_nanos();
            multiple(e, k).filter(below_ok)
        });
        let threshold = self.thresholds.iter().copied().filter(below_ok).max();
        let countdown = self.countdown_marks().filter(below_ok).max();
        [interval, threshold, countdown].into_iter().flatten().max()
    }
}

fn multiple(e: Duration, k: u128) -> Option<Duration> {
    let nanos = e.as_nanos().checked_mul(k)?;
    let secs = u64::try_from(nanos / 1_000_000_000).ok()?;
    let sub = u32::try_from(nanos % 1_000_000_000).ok()?;
    Some(Duration::new(secs, sub))
}

/// The kinds of time marks, lowest priority first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    Interval,
    Threshold,
    Countdown,
}

/// Something the clock should say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Announcement {
    /// A multiple of `every` reached; `remaining` is that multiple.
    Interval { color: Color, remaining: Duration },
    /// A threshold reached; `remaining` is the threshold.
    Threshold { color: Color, remaining: Duration },
    /// One of the last ten seconds: `seconds` left.
    Countdown { color: Color, seconds: u8 },
    /// A new period (0-based) began and added `added`.
    PeriodStarted {
        color: Color,
        period: usize,
        added: Duration,
    },
    /// 6.9; always reported, and urgent.
    FlagFell { color: Color, period: usize },
    /// 6.11; urgent.
    BothFlags { in_last_period: bool },
}

impl Announcement {
    /// Should interrupt whatever is being said.
    pub fn is_urgent(&self) -> bool {
        matches!(
            self,
            Announcement::FlagFell { .. } | Announcement::BothFlags { .. }
        )
    }

    fn mark(color: Color, value: Duration, kind: Mark) -> Announcement {
        match kind {
            Mark::Interval => Announcement::Interval {
                color,
                remaining: value,
            },
            Mark::Threshold => Announcement::Threshold {
                color,
                remaining: value,
            },
            Mark::Countdown => Announcement::Countdown {
                color,
                // Countdown marks are whole seconds from 1 to 10.
                seconds: u8::try_from(value.as_secs()).unwrap_or(COUNTDOWN_FROM),
            },
        }
    }
}

/// What has been said for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Said {
    /// Marks at or above this are done.
    floor: Duration,
    /// The clock's last time reset seen (arbiter change or new period).
    reset_seq: u32,
    period_start: Option<PeriodStart>,
    flag: Option<Flag>,
}

/// Decides what to say and remembers what was said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Announcer {
    settings: AnnounceSettings,
    said: ByColor<Said>,
    both: Option<(Flag, Flag)>,
    /// The latest instant asked about; an earlier one is taken as it, as the clock does,
    /// so that a stale instant cannot make a reported flag look new.
    latest: Timestamp,
}

impl Announcer {
    /// Starts from the clock as it is at `now`: marks at or above the times now are not
    /// said (a game of 5 minutes does not begin with "5 minutes"); a flag already down is
    /// reported by the first call of [`Announcer::due`].
    pub fn new(settings: AnnounceSettings, clock: &Clock, now: Timestamp) -> Announcer {
        Announcer {
            settings,
            said: ByColor::new_with(|color| Said {
                floor: clock.remaining(color, now),
                reset_seq: clock.time_reset(color).seq,
                period_start: clock.last_period_start(color),
                flag: None,
            }),
            both: None,
            latest: now,
        }
    }

    /// Everything that became due since the last call, urgent first; each thing once.
    pub fn due(&mut self, clock: &Clock, now: Timestamp) -> Vec<Announcement> {
        let now = now.max(self.latest);
        self.latest = now;
        let mut out = Vec::new();
        for color in Color::ALL {
            let reset = clock.time_reset(color);
            let said = self.said.get_mut(color);
            if reset.seq != said.reset_seq {
                said.reset_seq = reset.seq;
                said.floor = reset.remaining;
            }
        }

        let flags = ByColor::new_with(|color| clock.flag_of(color, now));
        for color in Color::ALL {
            let flag = *flags.get(color);
            let said = self.said.get_mut(color);
            if flag != said.flag {
                if let Some(f) = flag {
                    out.push(Announcement::FlagFell {
                        color,
                        period: f.period,
                    });
                }
                said.flag = flag;
            }
        }
        match (flags.white, flags.black, clock.both_flags(now)) {
            (Some(w), Some(b), Some(both)) => {
                if self.both != Some((w, b)) {
                    out.push(Announcement::BothFlags {
                        in_last_period: both.in_last_period,
                    });
                    self.both = Some((w, b));
                }
            }
            _ => self.both = None,
        }

        for color in Color::ALL {
            let start = clock.last_period_start(color);
            let said = self.said.get_mut(color);
            if start != said.period_start {
                said.period_start = start;
                if let Some(s) = start
                    && self.settings.period_start
                {
                    out.push(Announcement::PeriodStarted {
                        color,
                        period: s.period,
                        added: s.added,
                    });
                }
            }
        }

        for color in Color::ALL {
            let remaining = clock.remaining(color, now);
            let said = self.said.get_mut(color);
            // Only the running player's own time speaks; others' marks pass silently.
            if clock.running() == Some(color)
                && flags.get(color).is_none()
                && let Some((value, kind)) = self.settings.lowest_mark(remaining, said.floor)
            {
                out.push(Announcement::mark(color, value, kind));
            }
            said.floor = said.floor.min(remaining);
        }
        out
    }

    /// The next instant something will be due (`now` if something already is). With the
    /// clock's [`Clock::next_deadline`] this tells an event loop how long it may sleep.
    pub fn next_instant(&self, clock: &Clock, now: Timestamp) -> Option<Timestamp> {
        let now = now.max(self.latest);
        let mut next = clock.next_deadline(now);
        let mut consider = |t: Timestamp| {
            let t = t.max(now);
            next = Some(next.map_or(t, |n| n.min(t)));
        };
        for color in Color::ALL {
            let said = self.said.get(color);
            let flag = clock.flag_of(color, now);
            if flag.is_some() && flag != said.flag {
                consider(now);
            }
            if self.settings.period_start && clock.last_period_start(color) != said.period_start {
                consider(now);
            }
        }
        if let Some(color) = clock.running()
            && clock.flag_of(color, now).is_none()
        {
            let said = self.said.get(color);
            let reset = clock.time_reset(color);
            let floor = if reset.seq != said.reset_seq {
                reset.remaining
            } else {
                said.floor
            };
            if let Some(mark) = self.settings.highest_mark(floor)
                && let Some(t) = clock.instant_at_remaining(mark)
            {
                consider(t);
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Announcement::*;
    use Color::{Black, White};

    use crate::testkit::t;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn clock(text: &str) -> Clock {
        Clock::new(text.parse().expect("test time control"))
    }

    fn settings() -> AnnounceSettings {
        AnnounceSettings {
            every: Some(secs(300)),
            thresholds: vec![secs(120), secs(60), secs(30), secs(10)],
            countdown: true,
            period_start: true,
        }
    }

    fn only(thresholds: &[u64], countdown: bool) -> AnnounceSettings {
        AnnounceSettings {
            every: None,
            thresholds: thresholds.iter().copied().map(secs).collect(),
            countdown,
            period_start: true,
        }
    }

    /// An event loop in virtual time: sleeps until the next instant the announcer or the
    /// clock names, asks what is due, up to `until` (milliseconds). Every wake-up must find
    /// something to say: the instants are exact.
    fn follow(
        clock: &Clock,
        ann: &mut Announcer,
        from: u64,
        until: u64,
    ) -> Vec<(u64, Announcement)> {
        let mut now = t(from);
        let mut out: Vec<_> = ann.due(clock, now).into_iter().map(|a| (from, a)).collect();
        for _ in 0..10_000 {
            let next = [ann.next_instant(clock, now), clock.next_deadline(now)]
                .into_iter()
                .flatten()
                .min();
            match next {
                Some(at) if at <= t(until) => {
                    assert!(at >= now, "an instant in the past");
                    now = at;
                    let due = ann.due(clock, now);
                    assert!(!due.is_empty(), "woke at {now:?} for nothing");
                    let ms = u64::try_from(now.since_origin().as_millis()).expect("ms");
                    out.extend(due.into_iter().map(|a| (ms, a)));
                }
                _ => return out,
            }
        }
        panic!("the event loop never settled");
    }

    fn ten_minutes_running_out() -> Vec<(u64, Announcement)> {
        let mut expected = vec![
            (
                300_000,
                Interval {
                    color: White,
                    remaining: secs(300),
                },
            ),
            (
                480_000,
                Threshold {
                    color: White,
                    remaining: secs(120),
                },
            ),
            (
                540_000,
                Threshold {
                    color: White,
                    remaining: secs(60),
                },
            ),
            (
                570_000,
                Threshold {
                    color: White,
                    remaining: secs(30),
                },
            ),
        ];
        // The 10 s threshold and the countdown's 10 coincide: said once, as the countdown.
        for s in (1..=10u8).rev() {
            expected.push((
                600_000 - 1_000 * u64::from(s),
                Countdown {
                    color: White,
                    seconds: s,
                },
            ));
        }
        expected.push((
            600_000,
            FlagFell {
                color: White,
                period: 0,
            },
        ));
        expected
    }

    #[test]
    fn schedule_of_a_running_clock() {
        let mut c = clock("600");
        let mut ann = Announcer::new(settings(), &c, t(0));
        c.start(t(0)).expect("start");
        // The 10 minute mark is where the game starts: not said.
        assert_eq!(follow(&c, &mut ann, 0, 700_000), ten_minutes_running_out());
        assert_eq!(ann.due(&c, t(800_000)), vec![]);
        assert_eq!(ann.next_instant(&c, t(800_000)), None);
    }

    #[test]
    fn polling_says_the_same_once() {
        let mut c = clock("600");
        let mut ann = Announcer::new(settings(), &c, t(0));
        c.start(t(0)).expect("start");
        let mut heard = Vec::new();
        for ms in (0..=700_000).step_by(250) {
            for a in ann.due(&c, t(ms)) {
                heard.push((ms, a));
            }
        }
        // Polling every 250 ms hits every instant exactly here, so even the instants agree.
        assert_eq!(heard, ten_minutes_running_out());
        // Polling at odd instants: the same announcements, each once, none early.
        let mut c = clock("600");
        let mut ann = Announcer::new(settings(), &c, t(0));
        c.start(t(0)).expect("start");
        let mut heard = Vec::new();
        for ms in (0..=700_000).step_by(333) {
            for a in ann.due(&c, t(ms)) {
                heard.push((ms, a));
            }
        }
        let expected = ten_minutes_running_out();
        assert_eq!(heard.len(), expected.len());
        for ((ms, a), (exact, b)) in heard.iter().zip(&expected) {
            assert_eq!(a, b);
            assert!(*ms >= *exact && *ms < *exact + 333, "{a:?} at {ms}");
        }
    }

    #[test]
    fn skipped_marks_do_not_burst() {
        let mut c = clock("600");
        let mut ann = Announcer::new(settings(), &c, t(0));
        c.start(t(0)).expect("start");
        assert_eq!(ann.due(&c, t(0)), vec![]);
        // Slept past 5 minutes and 2 minutes: only the one nearest the time left.
        assert_eq!(
            ann.due(&c, t(500_000)),
            vec![Threshold {
                color: White,
                remaining: secs(120)
            }]
        );
        // Slept past 1 minute, 30 s, and the countdown from 10 to 5.
        assert_eq!(
            ann.due(&c, t(595_000)),
            vec![Countdown {
                color: White,
                seconds: 5
            }]
        );
        assert_eq!(ann.due(&c, t(595_500)), vec![]);
        assert_eq!(
            ann.due(&c, t(596_700)),
            vec![Countdown {
                color: White,
                seconds: 4
            }]
        );
        // Slept past the flag: the flag only, no countdown.
        assert_eq!(
            ann.due(&c, t(700_000)),
            vec![FlagFell {
                color: White,
                period: 0
            }]
        );
        assert_eq!(ann.due(&c, t(700_001)), vec![]);
    }

    #[test]
    fn tournament_settings_report_only_the_flag() {
        let mut c = clock("600");
        let mut ann = Announcer::new(AnnounceSettings::tournament(), &c, t(0));
        c.start(t(0)).expect("start");
        assert_eq!(
            follow(&c, &mut ann, 0, 700_000),
            vec![(
                600_000,
                FlagFell {
                    color: White,
                    period: 0
                }
            )]
        );
    }

    #[test]
    fn increments_never_repeat_a_mark() {
        let mut c = clock("65+10");
        let mut ann = Announcer::new(only(&[60], false), &c, t(0));
        c.start(t(0)).expect("start");
        let w60 = Threshold {
            color: White,
            remaining: secs(60),
        };
        assert_eq!(follow(&c, &mut ann, 0, 10_000), vec![(5_000, w60)]);
        c.press(White, t(10_000)).expect("press"); // 55 + 10 = 65 s
        assert_eq!(follow(&c, &mut ann, 10_000, 12_000), vec![]);
        c.press(Black, t(12_000)).expect("press");
        // White comes down through 60 s again: already said.
        assert_eq!(follow(&c, &mut ann, 12_000, 30_000), vec![]);
        c.press(White, t(30_000)).expect("press");
        // Black's own first time at 60 s.
        assert_eq!(
            follow(&c, &mut ann, 30_000, 50_000),
            vec![(
                43_000,
                Threshold {
                    color: Black,
                    remaining: secs(60)
                }
            )]
        );
    }

    #[test]
    fn arbiter_time_re_arms_and_removal_passes_silently() {
        let mut c = clock("120");
        let mut ann = Announcer::new(only(&[60, 30], true), &c, t(0));
        c.start(t(0)).expect("start");
        let w60 = Threshold {
            color: White,
            remaining: secs(60),
        };
        assert_eq!(follow(&c, &mut ann, 0, 70_000), vec![(60_000, w60)]);
        // 50 s + 5 s: still below the minute, nothing re-armed.
        c.add_time(White, secs(5), t(70_000));
        assert_eq!(follow(&c, &mut ann, 70_000, 75_000), vec![]);
        // 50 s + 30 s lifts White above the minute: it is said again.
        c.add_time(White, secs(30), t(75_000));
        assert_eq!(follow(&c, &mut ann, 75_000, 100_000), vec![(95_000, w60)]);
        // 55 s - 30 s jumps over the 30 s mark: not said late.
        c.remove_time(White, secs(30), t(100_000));
        assert_eq!(follow(&c, &mut ann, 100_000, 114_999), vec![]);
        assert_eq!(
            follow(&c, &mut ann, 114_999, 115_000),
            vec![(
                115_000,
                Countdown {
                    color: White,
                    seconds: 10
                }
            )]
        );
    }

    #[test]
    fn a_new_period_is_announced_and_re_arms_the_marks() {
        let mut c = clock("2/70:60");
        let mut ann = Announcer::new(only(&[60], false), &c, t(0));
        c.start(t(0)).expect("start");
        let w60 = Threshold {
            color: White,
            remaining: secs(60),
        };
        assert_eq!(follow(&c, &mut ann, 0, 15_000), vec![(10_000, w60)]);
        c.press(White, t(15_000)).expect("press");
        c.press(Black, t(16_000)).expect("press");
        c.press(White, t(17_000)).expect("press"); // 54 s + 60 s
        let expected = vec![
            (
                17_000,
                PeriodStarted {
                    color: White,
                    period: 1,
                    added: secs(60),
                },
            ),
            (
                26_000,
                Threshold {
                    color: Black,
                    remaining: secs(60),
                },
            ),
        ];
        assert_eq!(follow(&c, &mut ann, 17_000, 30_000), expected);
        c.press(Black, t(30_000)).expect("press");
        let expected = vec![
            (
                30_000,
                PeriodStarted {
                    color: Black,
                    period: 1,
                    added: secs(60),
                },
            ),
            (84_000, w60),
        ];
        assert_eq!(follow(&c, &mut ann, 30_000, 90_000), expected);
    }

    #[test]
    fn marks_in_delay_mode_follow_the_main_time() {
        let mut c = clock("60d5");
        let mut ann = Announcer::new(only(&[30], false), &c, t(0));
        c.start(t(0)).expect("start");
        assert_eq!(ann.next_instant(&c, t(0)), Some(t(35_000)));
        assert_eq!(
            follow(&c, &mut ann, 0, 40_000),
            vec![(
                35_000,
                Threshold {
                    color: White,
                    remaining: secs(30)
                }
            )]
        );
        // Paused: nothing to wait for.
        c.pause(t(40_000)).expect("pause");
        assert_eq!(ann.next_instant(&c, t(40_000)), None);
    }

    #[test]
    fn flags_once_and_both_flags() {
        let mut c = clock("60");
        let mut ann = Announcer::new(AnnounceSettings::tournament(), &c, t(0));
        c.start(t(0)).expect("start");
        c.remove_time(Black, secs(60), t(10_000));
        // An unreported flag is due at once.
        assert_eq!(ann.next_instant(&c, t(10_000)), Some(t(10_000)));
        assert_eq!(
            ann.due(&c, t(10_000)),
            vec![FlagFell {
                color: Black,
                period: 0
            }]
        );
        let out = follow(&c, &mut ann, 10_000, 100_000);
        assert_eq!(
            out,
            vec![
                (
                    60_000,
                    FlagFell {
                        color: White,
                        period: 0
                    }
                ),
                (
                    60_000,
                    BothFlags {
                        in_last_period: true
                    }
                ),
            ]
        );
        assert!(out.iter().all(|(_, a)| a.is_urgent()));
        assert_eq!(ann.due(&c, t(100_000)), vec![]);
        // The arbiter gives Black time back; if it runs out again, that is a new flag.
        c.add_time(Black, secs(5), t(100_000));
        assert_eq!(ann.due(&c, t(100_000)), vec![]);
        c.remove_time(Black, secs(5), t(101_000));
        assert_eq!(
            ann.due(&c, t(101_000)),
            vec![
                FlagFell {
                    color: Black,
                    period: 0
                },
                BothFlags {
                    in_last_period: true
                },
            ]
        );
    }

    #[test]
    fn presets_of_settings() {
        let s = AnnounceSettings::tournament();
        assert!(s.every.is_none() && s.thresholds.is_empty() && !s.countdown && !s.period_start);
        let s = AnnounceSettings::casual();
        assert_eq!(s.every, Some(secs(900)));
        assert!(s.countdown && s.period_start);
        // An interval under a minute counts as a minute: never a word every second.
        let s = AnnounceSettings {
            every: Some(Duration::from_millis(1)),
            thresholds: vec![Duration::ZERO],
            countdown: false,
            period_start: false,
        };
        assert_eq!(s.highest_mark(secs(150)), Some(secs(120)));
        assert_eq!(
            s.lowest_mark(secs(61), secs(150)),
            Some((secs(120), Mark::Interval))
        );
        assert_eq!(s.highest_mark(secs(60)), None);
        assert_eq!(
            s.highest_mark(Duration::MAX).map(|d| d.as_secs() % 60),
            Some(0)
        );
    }

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1)
        }
    }

    /// Anything an adapter or an arbiter could do, in any order, at any instants.
    #[derive(Clone, Debug)]
    enum Op {
        Start(bool),
        Press(bool),
        Pause,
        Resume,
        Stop,
        Set(bool, Duration),
        Add(bool, Duration),
        Remove(bool, Duration),
        Moves(bool, u32),
    }

    fn arb_op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        let time = prop_oneof![
            (0u64..200_000).prop_map(Duration::from_millis),
            Just(Duration::ZERO),
            Just(Duration::MAX),
        ];
        prop_oneof![
            1 => any::<bool>().prop_map(Op::Start),
            6 => any::<bool>().prop_map(Op::Press),
            1 => Just(Op::Pause),
            1 => Just(Op::Resume),
            1 => Just(Op::Stop),
            1 => (any::<bool>(), time.clone()).prop_map(|(w, d)| Op::Set(w, d)),
            1 => (any::<bool>(), time.clone()).prop_map(|(w, d)| Op::Add(w, d)),
            1 => (any::<bool>(), time).prop_map(|(w, d)| Op::Remove(w, d)),
            1 => (any::<bool>(), any::<u32>()).prop_map(|(w, m)| Op::Moves(w, m)),
        ]
    }

    proptest::proptest! {
        #[test]
        fn any_sequence_never_panics_and_keeps_its_promises(
            control in proptest::sample::select(vec!["60", "2/30+2:1/10", "5d3", "0d2", "20b5", "1/5:10"]),
            ops in proptest::collection::vec((arb_op(), 0u64..20_000, proptest::bool::weighted(0.05)), 0..80),
        ) {
            let mut c = clock(control);
            let mut ann = Announcer::new(settings(), &c, t(0));
            let mut now = 0u64;
            // No instant the clock has used is later than this.
            let mut seen = 0u64;
            let mut heard_flags = Vec::new();
            for (op, step, back) in ops {
                // Now and then an instant earlier than the last one.
                now = if back { now.saturating_sub(step) } else { now + step };
                seen = seen.max(now);
                let at = t(now);
                let color = |w: bool| if w { White } else { Black };
                match op {
                    Op::Start(w) => { let _ = c.start_with(color(w), at); }
                    Op::Press(w) => { let _ = c.press(color(w), at); }
                    Op::Pause => { let _ = c.pause(at); }
                    Op::Resume => { let _ = c.resume(at); }
                    Op::Stop => c.stop(at),
                    Op::Set(w, d) => c.set_remaining(color(w), d, at),
                    Op::Add(w, d) => c.add_time(color(w), d, at),
                    Op::Remove(w, d) => c.remove_time(color(w), d, at),
                    Op::Moves(w, m) => c.set_moves(color(w), m, at),
                }
                if let Some(f) = c.flag(at) {
                    proptest::prop_assert!(f.at <= t(seen));
                }
                if let Some(d) = c.next_deadline(at) {
                    proptest::prop_assert!(d > at && c.flag_of(d_color(&c), at).is_none());
                }
                if let Some(n) = ann.next_instant(&c, at) {
                    proptest::prop_assert!(n >= at);
                }
                for a in ann.due(&c, at) {
                    if let FlagFell { color, .. } = a {
                        let flag = c.flag_of(color, t(seen));
                        proptest::prop_assert!(flag.is_some());
                        // Each fallen flag is reported once while it is down.
                        proptest::prop_assert!(!heard_flags.contains(&flag));
                        heard_flags.push(flag);
                    }
                }
                // A flag the arbiter raised again may fall again, even at the same instant.
                heard_flags.retain(|f| f.is_some_and(|f| c.flag_of(f.color, t(seen)) == Some(f)));
                let _ = c.summary(at);
                let _ = c.delay_left(at);
            }
        }
    }

    fn d_color(c: &Clock) -> Color {
        c.running().unwrap_or(White)
    }

    #[test]
    fn a_blitz_game_repeats_nothing_and_counts_down_only_at_the_end() {
        for seed in 1..=20u64 {
            let mut c = clock("180+2");
            let mut s = settings();
            s.every = Some(secs(60));
            let mut ann = Announcer::new(s, &c, t(0));
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut now = 0;
            c.start(t(now)).expect("start");
            let mut color = White;
            let mut heard = Vec::new();
            loop {
                let think = if rng.below(15) == 0 {
                    rng.below(40_000)
                } else {
                    rng.below(5_000)
                };
                let at = now + think;
                for (ms, a) in follow(&c, &mut ann, now, at) {
                    // A mark is said at the instant the time reaches it.
                    let exact = match a {
                        Interval { color, remaining } | Threshold { color, remaining } => {
                            Some((color, remaining))
                        }
                        Countdown { color, seconds } => Some((color, secs(u64::from(seconds)))),
                        _ => None,
                    };
                    if let Some((who, value)) = exact {
                        assert_eq!(c.running(), Some(who));
                        assert_eq!(c.remaining(who, t(ms)), value, "{a:?} at {ms}");
                        if let Countdown { .. } = a {
                            assert!(value <= secs(10));
                        }
                    }
                    heard.push(a);
                }
                if c.press(color, t(at)).is_err() {
                    heard.extend(
                        follow(&c, &mut ann, at, at + 60_000)
                            .into_iter()
                            .map(|(_, a)| a),
                    );
                    break;
                }
                now = at;
                color = !color;
            }
            let flags = heard.iter().filter(|a| a.is_urgent()).count();
            assert_eq!(flags, 1, "seed {seed}: {heard:?}");
            for (i, a) in heard.iter().enumerate() {
                assert!(
                    !heard[..i].contains(a),
                    "seed {seed}: {a:?} repeated in {heard:?}"
                );
            }
        }
    }
}
