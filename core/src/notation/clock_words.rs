//! The clock in words: "Weiß 1 Stunde 12 Minuten, Schwarz 58 Minuten, 23 Züge gespielt".
//! Short and natural: seconds only when they matter (under ten minutes).

use std::time::Duration;

use shakmaty::Color;

use super::language::{Language, counted, fill};
use crate::clock::{Announcement, Bonus, ClockSummary, TimeControl};

/// A remaining time as a clock face shows it: "1:05:09" from an hour up, "4:07" below.
/// Whole seconds, truncated, as a chess clock counts.
pub fn clock_face(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Both players' clock faces and whose clock runs, as the full screens show them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockFaces {
    pub faces: shakmaty::ByColor<String>,
    pub running: Option<Color>,
}

/// Both players' clock faces and whose clock runs.
pub fn clock_faces(clock: &crate::clock::Clock, now: crate::time::Timestamp) -> ClockFaces {
    ClockFaces {
        faces: shakmaty::ByColor::new_with(|c| clock_face(clock.remaining(c, now))),
        running: clock.running(),
    }
}

/// A remaining time: hours and minutes from an hour up, minutes from ten minutes, minutes and
/// seconds below that, seconds under a minute.
pub(crate) fn duration_words(d: Duration, lang: &Language) -> String {
    let c = &lang.clock;
    let secs = d.as_secs();
    let (h, m, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    let mut parts = Vec::with_capacity(2);
    if secs >= 3600 {
        parts.push(counted(&c.hours, h));
        if m > 0 {
            parts.push(counted(&c.minutes, m));
        }
    } else if secs >= 600 {
        parts.push(counted(&c.minutes, m));
    } else if secs >= 60 {
        parts.push(counted(&c.minutes, m));
        if s > 0 {
            parts.push(counted(&c.seconds, s));
        }
    } else {
        parts.push(counted(&c.seconds, s));
    }
    parts.join(" ")
}

/// "Weiß 58 Minuten".
pub(crate) fn player_time(color: Color, d: Duration, lang: &Language) -> String {
    fill(
        &lang.clock.player_time,
        &[
            ("color", lang.color(color)),
            ("time", &duration_words(d, lang)),
        ],
    )
}

/// "23 Züge gespielt".
pub fn moves_words(moves: u32, lang: &Language) -> String {
    if moves == 0 {
        lang.clock.no_moves.clone()
    } else {
        counted(&lang.clock.moves_played, u64::from(moves))
    }
}

/// Time on request: both times and the move count.
pub fn summary_words(s: &ClockSummary, lang: &Language) -> String {
    fill(
        &lang.clock.summary,
        &[
            ("white", &player_time(Color::White, s.white, lang)),
            ("black", &player_time(Color::Black, s.black, lang)),
            ("moves", &moves_words(s.moves_played, lang)),
        ],
    )
}

/// A time control in words: "90 Minuten für 40 Züge, dann 30 Minuten für den Rest der
/// Partie, 30 Sekunden dazu nach jedem Zug".
pub fn control_words(tc: &TimeControl, lang: &Language) -> String {
    let c = &lang.clock;
    let periods = tc.periods();
    let count = periods.len();
    let same_bonus = periods.windows(2).all(|w| w[0].bonus == w[1].bonus);
    let bonus_words = |b: Bonus| -> Option<String> {
        let (template, d) = match b {
            Bonus::None => return None,
            Bonus::Fischer(d) => (&c.fischer, d),
            Bonus::SimpleDelay(d) => (&c.simple_delay, d),
            Bonus::Bronstein(d) => (&c.bronstein, d),
        };
        Some(fill(template, &[("time", &duration_words(d, lang))]))
    };
    // The one period players type as M+S is said as they type it: "3 Minuten plus 2 Sekunden
    // pro Zug".
    if let [p] = periods
        && p.moves.is_none()
        && let Bonus::Fischer(d) = p.bonus
    {
        return fill(
            &c.control_plus,
            &[
                ("time", &duration_words(p.time, lang)),
                ("bonus", &duration_words(d, lang)),
            ],
        );
    }
    let mut parts: Vec<String> = Vec::with_capacity(count);
    for (i, p) in periods.iter().enumerate() {
        let time = duration_words(p.time, lang);
        let last = i + 1 == count;
        let mut text = match p.moves {
            Some(n) if last && count > 1 => fill(
                &counted(&c.control_repeating, u64::from(n)),
                &[("time", &time)],
            ),
            Some(n) => fill(&counted(&c.control_moves, u64::from(n)), &[("time", &time)]),
            None if count == 1 => fill(&c.control_game, &[("time", &time)]),
            None => fill(&c.control_rest, &[("time", &time)]),
        };
        if !same_bonus && let Some(b) = bonus_words(p.bonus) {
            text = format!("{text}, {b}");
        }
        parts.push(text);
    }
    let mut out = parts.join(&format!(", {} ", c.then));
    if same_bonus && let Some(b) = periods.first().and_then(|p| bonus_words(p.bonus)) {
        out = format!("{out}, {b}");
    }
    out
}

/// What the clock says on its own.
pub fn announcement_words(a: &Announcement, lang: &Language) -> String {
    let c = &lang.clock;
    match *a {
        Announcement::Interval { color, remaining }
        | Announcement::Threshold { color, remaining } => player_time(color, remaining, lang),
        // The first number says whose time runs out; the others are numbers alone.
        Announcement::Countdown { color, seconds } if seconds >= 10 => fill(
            &c.countdown_first,
            &[
                ("color", lang.color(color)),
                ("seconds", &seconds.to_string()),
            ],
        ),
        Announcement::Countdown { seconds, .. } => seconds.to_string(),
        Announcement::PeriodStarted { color, added, .. } => fill(
            &c.period,
            &[
                ("color", lang.color(color)),
                ("time", &duration_words(added, lang)),
            ],
        ),
        Announcement::FlagFell { color, .. } => fill(&c.flag, &[("color", lang.color(color))]),
        Announcement::BothFlags { .. } => c.both_flags.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;

    use crate::testkit::de;

    #[test]
    fn durations_are_short_and_natural() {
        let cases = [
            (4320, "1 Stunde 12 Minuten"),
            (3600, "1 Stunde"),
            (7260, "2 Stunden 1 Minute"),
            (3540, "59 Minuten"),
            (601, "10 Minuten"),
            (272, "4 Minuten 32 Sekunden"),
            (120, "2 Minuten"),
            (61, "1 Minute 1 Sekunde"),
            (42, "42 Sekunden"),
            (1, "1 Sekunde"),
            (0, "0 Sekunden"),
        ];
        for (secs, words) in cases {
            assert_eq!(
                duration_words(Duration::from_secs(secs), de()),
                words,
                "{secs}"
            );
        }
        let en = language("en").expect("en");
        assert_eq!(
            duration_words(Duration::from_millis(4_320_900), en),
            "1 hour 12 minutes"
        );
    }

    #[test]
    fn the_summary_of_the_issue() {
        let s = ClockSummary {
            white: Duration::from_secs(4320),
            black: Duration::from_secs(3480),
            running: Some(Color::White),
            moves_played: 23,
            white_moves: 23,
            black_moves: 23,
        };
        assert_eq!(
            summary_words(&s, de()),
            "Weiß 1 Stunde 12 Minuten, Schwarz 58 Minuten, 23 Züge gespielt"
        );
        let en = language("en").expect("en");
        assert_eq!(
            summary_words(&s, en),
            "White 1 hour 12 minutes, Black 58 minutes, 23 moves played"
        );
        assert_eq!(moves_words(1, de()), "1 Zug gespielt");
        assert_eq!(moves_words(0, de()), "noch kein Zug gespielt");
    }

    #[test]
    fn time_controls_in_words() {
        let words = |spec: &str| control_words(&spec.parse().expect("control"), de());
        assert_eq!(
            words("classical"),
            "1 Stunde 30 Minuten für 40 Züge, dann 30 Minuten für den Rest der Partie, 30 Sekunden dazu nach jedem Zug"
        );
        // One period with an increment, as players type it.
        assert_eq!(words("300+3"), "5 Minuten plus 3 Sekunden pro Zug");
        assert_eq!(
            words("5400+30"),
            "1 Stunde 30 Minuten plus 30 Sekunden pro Zug"
        );
        assert_eq!(words("3600"), "1 Stunde für die ganze Partie");
        assert_eq!(
            words("300d5"),
            "5 Minuten für die ganze Partie, 5 Sekunden Verzögerung bei jedem Zug"
        );
        assert_eq!(
            words("40/7200:20/3600"),
            "2 Stunden für 40 Züge, dann 1 Stunde für je 20 weitere Züge"
        );
        // One move: in the singular.
        assert_eq!(
            words("1/60:1/30"),
            "1 Minute für 1 Zug, dann 30 Sekunden für jeden weiteren Zug"
        );
        let en = language("en").expect("en");
        assert_eq!(
            control_words(&"180+2".parse().expect("control"), en),
            "3 minutes plus 2 seconds per move"
        );
        assert_eq!(
            control_words(&"1/60:1/30".parse().expect("control"), en),
            "1 minute for 1 move, then 30 seconds for each further move"
        );
    }

    #[test]
    fn announcements() {
        let d = de();
        assert_eq!(
            announcement_words(
                &Announcement::Threshold {
                    color: Color::Black,
                    remaining: Duration::from_secs(300)
                },
                d
            ),
            "Schwarz 5 Minuten"
        );
        assert_eq!(
            announcement_words(
                &Announcement::Countdown {
                    color: Color::White,
                    seconds: 7
                },
                d
            ),
            "7"
        );
        // The first number of the countdown says whose time runs out.
        assert_eq!(
            announcement_words(
                &Announcement::Countdown {
                    color: Color::Black,
                    seconds: 10
                },
                d
            ),
            "Schwarz 10"
        );
        assert_eq!(
            announcement_words(
                &Announcement::FlagFell {
                    color: Color::White,
                    period: 0
                },
                d
            ),
            "Weiß: Zeit abgelaufen"
        );
        assert_eq!(
            announcement_words(
                &Announcement::PeriodStarted {
                    color: Color::White,
                    period: 1,
                    added: Duration::from_secs(1800)
                },
                d
            ),
            "Weiß: neue Zeitperiode, 30 Minuten dazu"
        );
        assert_eq!(
            announcement_words(
                &Announcement::BothFlags {
                    in_last_period: true
                },
                d
            ),
            "Beide Fallblättchen sind gefallen"
        );
    }
}
